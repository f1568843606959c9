"""HTML for the plates, the page markers and the facsimile pane (pure string functions).

The mkdocs hook (`build_scripts/plates.py`) gives these a `SiteScans`: what the pipeline
produced (or nothing, when the scans are absent) and a function that turns a site path into a
URL relative to the current page.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape

from .manifest import Manifest, PageEntry

PLATE_RE = re.compile(
    r'<div\s+class="cadogan-plate"\s+data-chapter="([a-z0-9-]+)"\s*>\s*</div>')
TRANSCRIPTION_OPEN_RE = re.compile(r'<div\b[^>]*\bclass="transcription"[^>]*>')
DIV_TAG_RE = re.compile(r"<div\b|</div\s*>")
PB_RE = re.compile(r'<span\s+class="pb"\s+data-page="([0-9A-Za-z]+)"\s*>\s*</span>')
ATTR_RE = re.compile(r'([a-z-]+)="([^"]*)"')

GET_SCANS = ("run <code>make scans</code> (it copies the scans from <code>../shared/scans</code>, "
             "or downloads them from Project Gutenberg) and build again")


def plate_path(slug: str, name: str) -> str:
    """Site path of a plate file; `name` is one of 1x.webp, 1x.png, 2x.webp, 2x.png, full.png."""
    return f"assets/plates/{slug}/{slug}-{name}"


def page_path(stem: str, name: str) -> str:
    """Site path of a facsimile file; `name` is 1x.webp or full.png."""
    return f"assets/facsimile/{stem}-{name}"


# Cache file name -> site file suffix.
PLATE_FILES = {"plate-1x.webp": "1x.webp", "plate-1x.png": "1x.png", "plate-2x.webp": "2x.webp",
               "plate-2x.png": "2x.png", "plate-full.png": "full.png"}
PAGE_FILES = {"page-1x.webp": "1x.webp", "page-full.png": "full.png"}


@dataclass(frozen=True)
class Sizes:
    """Pixel sizes of the files of one processed page, by cache file name."""

    files: dict[str, tuple[int, int]] = field(default_factory=dict)

    def size(self, name: str) -> tuple[int, int]:
        return self.files[name]


@dataclass(frozen=True)
class SiteScans:
    manifest: Manifest
    processed: dict[str, Sizes]  # scan file name -> sizes; empty when the scans are absent
    url: Callable[[str], str]  # site path -> URL relative to the current page

    def has(self, entry: PageEntry | None) -> bool:
        return entry is not None and entry.file in self.processed


def plate_figure(slug: str, scans: SiteScans) -> str:
    entry = scans.manifest.plate_for(slug)
    if entry is None or not scans.has(entry):
        return plate_missing(slug, known=entry is not None)
    sizes = scans.processed[entry.file]
    if "plate-1x.webp" not in sizes.files:
        return plate_missing(slug, known=True)
    w, h = sizes.size("plate-1x.png")
    fw, fh = sizes.size("plate-full.png")
    u = {k: escape(scans.url(plate_path(slug, v))) for k, v in PLATE_FILES.items()}
    caption = escape(entry.caption or "")
    alt = escape(entry.alt or "", quote=True)
    where = escape(entry.page_label)
    return (
        f'<figure class="cadogan-plate" id="plate-{slug}">'
        f'<a class="cadogan-plate__zoom" href="{u["plate-full.png"]}" data-width="{fw}" '
        f'data-height="{fh}" title="Open the plate at full resolution">'
        f'<picture><source type="image/webp" srcset="{u["plate-1x.webp"]} 1x, '
        f'{u["plate-2x.webp"]} 2x">'
        f'<img src="{u["plate-1x.png"]}" srcset="{u["plate-1x.png"]} 1x, {u["plate-2x.png"]} 2x" '
        f'width="{w}" height="{h}" alt="{alt}" decoding="async"></picture></a>'
        f'<figcaption><span class="cadogan-plate__caption">{caption}</span> '
        f'<span class="cadogan-plate__source">The plate of the 1914 edition ({where}), cleaned '
        f'from the page scan. <a href="{u["plate-full.png"]}">Full resolution</a> '
        f'({fw}&#8239;&times;&#8239;{fh} pixels).</span></figcaption></figure>'
    )


def plate_missing(slug: str, known: bool = True) -> str:
    what = ("The 1914 plate is not available in this build"
            if known else f"No plate is listed for “{escape(slug)}” in scans/manifest")
    return (
        f'<div class="cadogan-plate cadogan-plate--missing" id="plate-{slug}" role="note">'
        f"<p><strong>{what}.</strong> The page scans were not present when the site was "
        f"built; to show it, {GET_SCANS}.</p></div>"
    )


def _attrs(tag: str) -> dict[str, str]:
    return dict(ATTR_RE.findall(tag))


def matching_close(html: str, open_end: int) -> int:
    """Index of the `</div>` closing the div whose opening tag ends at `open_end`."""
    depth = 1
    for m in DIV_TAG_RE.finditer(html, open_end):
        depth += 1 if m.group(0) == "<div" else -1
        if depth == 0:
            return m.start()
    raise ValueError("unbalanced <div> in transcription")


def marker_link(slug: str, printed: str) -> str:
    p = escape(printed)
    return (f'<a class="pb" id="tx-{slug}-p{p}" href="#fx-{slug}-p{p}" data-page="{p}" '
            f'title="Printed page {p}: show it in facsimile">[p.&nbsp;{p}]</a>')


def link_markers(inner: str, slug: str) -> str:
    """Turn each page-break span into a "[p. N]" link to the facsimile of page N."""
    return PB_RE.sub(lambda pm: marker_link(slug, pm.group(1)), inner)


def facsimile_pages(slug: str, pages_attr: str, manifest: Manifest) -> list[PageEntry]:
    """The chapter's pages in the manifest plus any printed pages named in data-pages."""
    chosen = {p.file: p for p in manifest.pages_for(slug)}
    for printed in pages_attr.split():
        entry = manifest.page_by_printed(printed)
        if entry is not None:
            chosen.setdefault(entry.file, entry)
    order = {p.file: i for i, p in enumerate(manifest.pages)}
    return sorted(chosen.values(), key=lambda p: order[p.file])


def facsimile_pane(slug: str, pages: list[PageEntry], markers: set[str], scans: SiteScans) -> str:
    head = ('<p class="facsimile__title">Facsimile of the 1914 pages '
            '<span class="facsimile__hint">(cleaned scans; select a page to open it at full '
            "size)</span></p>")
    if not pages or not all(scans.has(p) for p in pages):
        return (f'<div class="facsimile facsimile--missing" id="facsimile-{slug}" role="note">'
                f"<p><strong>The page scans are absent from this build</strong>, so the facsimile "
                f"cannot be shown. To see it, {GET_SCANS}.</p></div>")
    figures = []
    for entry in pages:
        sizes = scans.processed[entry.file]
        w, h = sizes.size("page-1x.webp")
        webp = escape(scans.url(page_path(entry.stem, "1x.webp")))
        full = escape(scans.url(page_path(entry.stem, "full.png")))
        label = escape(entry.page_label)
        pid = escape(entry.printed)
        back = (f' · <a href="#tx-{slug}-p{pid}" class="facsimile__back">back to the text</a>'
                if entry.printed in markers else "")
        alt = f"Page {entry.printed} of the 1914 edition, in facsimile." if entry.printed.isdigit() \
            else f"The {entry.printed} page of the 1914 edition, in facsimile."
        figures.append(
            f'<figure class="facsimile__page" id="fx-{slug}-p{pid}" data-page="{pid}">'
            f'<a class="facsimile__zoom" href="{full}" title="Open {label} at full size">'
            f'<picture><source type="image/webp" srcset="{webp}">'
            f'<img src="{full}" width="{w}" height="{h}" alt="{escape(alt)}" loading="lazy" '
            f'decoding="async"></picture></a>'
            f"<figcaption>{label}{back}</figcaption></figure>"
        )
    return (f'<div class="facsimile" id="facsimile-{slug}" aria-label="Facsimile of the 1914 '
            f'pages">{head}{"".join(figures)}</div>')


SWITCH = (
    '<div class="cadogan-reader__switch" role="group" aria-label="Show the transcription, '
    'the facsimile, or both" hidden>'
    '<button type="button" data-view="text" aria-pressed="true">Transcription</button>'
    '<button type="button" data-view="facsimile" aria-pressed="false">Facsimile</button>'
    '<button type="button" data-view="both" aria-pressed="false" '
    'class="cadogan-reader__both">Side by side</button></div>'
)


def transform_transcriptions(html: str, scans: SiteScans) -> str:
    """Wrap each transcription with the view switch and its facsimile pane; link page markers."""
    out: list[str] = []
    pos = 0
    while True:
        m = TRANSCRIPTION_OPEN_RE.search(html, pos)
        if m is None:
            out.append(html[pos:])
            return "".join(out)
        attrs = _attrs(m.group(0))
        slug = attrs.get("data-chapter", "")
        close = matching_close(html, m.end())
        inner = html[m.end():close]
        markers = set(PB_RE.findall(inner))
        inner = link_markers(inner, slug)
        pages = facsimile_pages(slug, attrs.get("data-pages", ""), scans.manifest)
        out.append(html[pos:m.start()])
        out.append(f'<div class="cadogan-reader" data-chapter="{escape(slug)}">{SWITCH}'
                   f'<div class="cadogan-reader__panes">{m.group(0)}{inner}</div>'
                   f"{facsimile_pane(slug, pages, markers, scans)}</div></div>")
        # Skip the closing tag itself (whatever its spelling) in the source.
        end = re.match(r"</div\s*>", html[close:])
        pos = close + (end.end() if end else len("</div>"))


def transform(html: str, scans: SiteScans) -> str:
    html = PLATE_RE.sub(lambda m: plate_figure(m.group(1), scans), html)
    return transform_transcriptions(html, scans)

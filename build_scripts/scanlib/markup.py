"""HTML for the plates, the page markers and the facsimile pane (pure string functions).

The mkdocs hook (`build_scripts/plates.py`) gives these a `SiteScans`: what the pipeline
produced (or nothing, when the scans are absent) and a function that turns a site path into a
URL relative to the current page.

A page marker's label and anchor come from the edition's table of conventions
(`build_scripts/conventions.toml`, convention `page-number`, `[convention.template]`), the
same templates the conventions hook uses for markers no other hook wrote. The marker links to
its page in the facsimile pane; when that page is not shown (the scans are absent), it links to
the pane itself, which then says why and how to get the scans: never to a missing anchor.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from html import escape
from pathlib import Path
from typing import Any

from . import REPO_ROOT
from .manifest import Manifest, PageEntry

CONVENTIONS_PATH = REPO_ROOT / "build_scripts" / "conventions.toml"

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
class PageMarker:
    """The templates of a page marker: its label (HTML, with `{page}`) and its anchor (with
    `{chapter}` and `{page}`)."""

    label: str
    anchor: str

    def render_label(self, page: str) -> str:
        return self.label.format(page=escape(page, quote=True))

    def render_anchor(self, chapter: str, page: str) -> str:
        return self.anchor.format(chapter=escape(chapter, quote=True), page=escape(page, quote=True))


class ConventionsError(ValueError):
    """The table of conventions lacks the page marker's templates."""


def load_page_marker(path: Path = CONVENTIONS_PATH) -> PageMarker:
    """The `page-number` convention's templates, read from the table of conventions."""
    with path.open("rb") as fh:
        data: dict[str, Any] = tomllib.load(fh)
    for conv in data.get("convention", []):
        if conv.get("id") == "page-number":
            template = conv.get("template", {})
            label, anchor = template.get("label"), template.get("id")
            if not isinstance(label, str) or "{page}" not in label:
                raise ConventionsError(f"{path}: convention page-number needs a template "
                                       "`label` with {page}")
            if not isinstance(anchor, str) or "{page}" not in anchor or "{chapter}" not in anchor:
                raise ConventionsError(f"{path}: convention page-number needs a template `id` "
                                       "with {chapter} and {page}")
            return PageMarker(label=label, anchor=anchor)
    raise ConventionsError(f"{path}: no convention with id page-number")


@dataclass(frozen=True)
class SiteScans:
    manifest: Manifest
    processed: dict[str, Sizes]  # scan file name -> sizes; empty when the scans are absent
    url: Callable[[str], str]  # site path -> URL relative to the current page
    marker: PageMarker = field(default_factory=load_page_marker)

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
    # A chapter's plate is most often its largest picture near the top (Lighthouse's LCP
    # element): it is fetched before the scripts and the page's other images (a page has one
    # plate at most). Where the drawn diagram below it is the larger on a phone,
    # first_image.py moves the priority to the diagram.
    return (
        f'<figure class="cadogan-plate" id="plate-{slug}">'
        f'<a class="cadogan-plate__zoom" href="{u["plate-full.png"]}" data-width="{fw}" '
        f'data-height="{fh}" title="Open the plate at full resolution">'
        f'<picture><source type="image/webp" srcset="{u["plate-1x.webp"]} 1x, '
        f'{u["plate-2x.webp"]} 2x">'
        f'<img src="{u["plate-1x.png"]}" srcset="{u["plate-1x.png"]} 1x, {u["plate-2x.png"]} 2x" '
        f'width="{w}" height="{h}" alt="{alt}" decoding="async" fetchpriority="high"></picture></a>'
        f'<figcaption><span class="cadogan-plate__caption">{caption}</span> '
        f'<span class="cadogan-plate__source">{escape(plate_source(entry))} '
        f'<a href="{u["plate-full.png"]}">Full resolution</a> '
        f'({fw}&#8239;&times;&#8239;{fh} pixels).</span></figcaption></figure>'
    )


def plate_source(entry: PageEntry) -> str:
    """The caption's second sentence: where the image comes from."""
    if entry.printed.isdigit():
        return f"The plate on p.\u00a0{entry.printed} of the 1914 edition, cleaned from the page scan."
    return "Cleaned from the page scan."  # the title page: its caption says what it is


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


def page_id(slug: str, printed: str) -> str:
    """Id of page `printed` in chapter `slug`'s facsimile pane."""
    return f"fx-{escape(slug, quote=True)}-p{escape(printed, quote=True)}"


def pane_id(slug: str) -> str:
    return f"facsimile-{escape(slug, quote=True)}"


def marker_link(slug: str, printed: str, shown: set[str], marker: PageMarker) -> str:
    """A page marker: the label "[p. N]" linking to page N of the facsimile pane if the pane
    shows it (`shown`: printed labels of its pages), else to the pane (which says why not)."""
    p = escape(printed, quote=True)
    if printed in shown:
        href, title = page_id(slug, printed), f"Printed page {p}: show it in facsimile"
    else:
        href = pane_id(slug)
        title = (f"Printed page {p} (the facsimile of this page is not in this build)"
                 if shown else f"Printed page {p} (the page scans are absent from this build)")
    return (f'<a class="pb" id="{marker.render_anchor(slug, printed)}" href="#{href}" '
            f'data-page="{p}" title="{title}">{marker.render_label(printed)}</a>')


def link_markers(inner: str, slug: str, shown: set[str], marker: PageMarker) -> str:
    """Turn each page-break span into a "[p. N]" link to the facsimile of page N."""
    return PB_RE.sub(lambda pm: marker_link(slug, pm.group(1), shown, marker), inner)


def pane_complete(pages: list[PageEntry], scans: SiteScans) -> bool:
    """The pane shows its pages only when every one of them was processed."""
    return bool(pages) and all(scans.has(p) for p in pages)


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
    if not pane_complete(pages, scans):
        return (f'<div class="facsimile facsimile--missing" id="{pane_id(slug)}" role="note">'
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
        back = (f' · <a href="#{scans.marker.render_anchor(slug, entry.printed)}" '
                f'class="facsimile__back">back to the text</a>' if entry.printed in markers else "")
        alt = f"Page {entry.printed} of the 1914 edition, in facsimile." if entry.printed.isdigit() \
            else f"The {entry.printed} page of the 1914 edition, in facsimile."
        figures.append(
            f'<figure class="facsimile__page" id="{page_id(slug, entry.printed)}" '
            f'data-page="{pid}">'
            f'<a class="facsimile__zoom" href="{full}" title="Open {label} at full size">'
            f'<picture><source type="image/webp" srcset="{webp}">'
            f'<img src="{full}" width="{w}" height="{h}" alt="{escape(alt)}" loading="lazy" '
            f'decoding="async"></picture></a>'
            f"<figcaption>{label}{back}</figcaption></figure>"
        )
    return (f'<div class="facsimile" id="{pane_id(slug)}" aria-label="Facsimile of the 1914 '
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
        pages = facsimile_pages(slug, attrs.get("data-pages", ""), scans.manifest)
        shown = {p.printed for p in pages} if pane_complete(pages, scans) else set()
        inner = link_markers(inner, slug, shown, scans.marker)
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

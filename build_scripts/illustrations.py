"""mkdocs hook: the list of illustrations and the home page's list of chapters, both made from
the figures of the rendered pages.

- Collects every ``<figure>`` of every page once the other hooks have written them (the 1914
  plates, ``id="plate-SLUG"``; the drawn diagrams, ``id="diagram-SLUG"``; the facsimile pages,
  ``id="fx-SLUG-pN"``), with its caption, alt text and image, and the notes that stand in for
  a plate when the scans are absent. A figure without an id gets one (``figure-PAGE-N``) and
  a warning on the ``cadogan.illustrations`` logger, so that the list can link to it.
- Fills ``<div class="cadogan-illustrations"></div>`` (docs/illustrations.md) with the list:
  each entry links to its figure.
- Turns each ``<div class="cadogan-chapter" data-chapter="SLUG" …>description</div>`` of the
  home page into an entry with the chapter's drawn tableau as a thumbnail, its number of packs
  (from the engine, or ``data-packs``) and a link, or "in preparation" when the chapter has no
  page yet.
"""

from __future__ import annotations

import html
import logging
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mkdocs.plugins import event_priority
from mkdocs.utils import get_relative_url

from build_scripts.htmlwalk import Token, start_tag, text_of, tokenize

ILLUSTRATIONS = "illustrations.md"
HOME = "index.md"
NUMBERS = {1: "one pack", 2: "two packs", 3: "three packs", 4: "four packs"}

log = logging.getLogger("cadogan.illustrations")
if not log.handlers:
    _handler = logging.StreamHandler()
    _handler.setFormatter(logging.Formatter("WARNING -  [cadogan.illustrations] %(message)s"))
    log.addHandler(_handler)
    log.propagate = False


@dataclass
class Figure:
    page: str           # src_uri of the page
    id: str
    kind: str           # plate, diagram, facsimile, missing-plate, figure
    caption: str        # plain text
    alt: str
    src: str = ""       # site path of the image ("" if none)
    width: str = ""
    height: str = ""
    data: dict[str, str] = field(default_factory=dict)


def _kind(classes: set[str], stack: tuple[Any, ...]) -> str:
    if "facsimile__page" in classes or any("facsimile" in e.classes for e in stack):
        return "facsimile"
    if "cadogan-plate" in classes:
        return "plate"
    if "cadogan-diagram-figure" in classes:
        return "diagram"
    return "figure"


def _site_path(page_url: str, src: str) -> str:
    """A page-relative image URL as a path from the site root."""
    if not src or urlsplit(src).scheme:
        return ""
    return urlsplit(urljoin("http://site/" + page_url, src)).path.lstrip("/")


MISSING_PLATE = frozenset({"cadogan-plate", "cadogan-plate--missing"})


def collect(source: str, page_src: str, page_url: str) -> tuple[str, list[Figure]]:
    """The page with an id on every figure, and its figures (in order)."""
    tokens = list(tokenize(source))
    ids = set(re.findall(r'\bid="([^"]+)"', source))
    figures: list[Figure] = []
    out: list[str] = []
    open_fig: list[tuple[int, Figure, list[Token]]] = []  # (depth, figure, its tokens)
    n = 0
    for t in tokens:
        raw = t.raw
        if t.kind == "start" and t.name == "figure":
            n += 1
            classes = set(t.attrs.get("class", "").split())
            fid = t.attrs.get("id", "")
            if not fid:
                slug = page_src[:-3].replace("/", "-") or "home"
                fid = f"figure-{slug}-{n}"
                while fid in ids:
                    fid += "-x"
                ids.add(fid)
                log.warning("%s: a figure has no id; gave it %r (the hook that writes it "
                            "should)", page_src, fid)
                raw = start_tag("figure", {**t.attrs, "id": fid})
            fig = Figure(page_src, fid, _kind(classes, t.stack), "", "")
            open_fig.append((len(t.stack), fig, []))
        elif t.kind == "start" and t.name == "div" and MISSING_PLATE <= set(
                t.attrs.get("class", "").split()):
            figures.append(Figure(page_src, t.attrs.get("id", ""), "missing-plate",
                                  "", "", data={"chapter": t.attrs.get("id", "")[6:]}))
        if open_fig:
            open_fig[-1][2].append(t)
        out.append(raw)
        if t.kind == "end" and t.name == "figure" and open_fig and open_fig[-1][0] == len(t.stack):
            _, fig, body = open_fig.pop()
            _describe(fig, body, page_url)
            figures.append(fig)
    return "".join(out), figures


CAPTION_SKIP = frozenset({"figure-kind", "cadogan-plate__source", "facsimile__back"})


def _describe(fig: Figure, body: list[Token], page_url: str) -> None:
    """Fill in a figure's image and caption (the caption's first part only: not the
    sentence saying what kind of figure it is, nor links)."""
    caption: list[str] = []
    for t in body:
        if t.kind == "start" and t.name == "img" and not fig.src:
            fig.alt = t.attrs.get("alt", "")
            fig.src = _site_path(page_url, t.attrs.get("src", ""))
            fig.width, fig.height = t.attrs.get("width", ""), t.attrs.get("height", "")
        elif t.kind == "text" and any(e.name == "figcaption" for e in t.stack) and not any(
                e.classes & CAPTION_SKIP or e.name == "a" for e in t.stack):
            caption.append(t.raw)
    text = re.sub(r"\s+", " ", text_of("".join(caption))).strip()
    fig.caption = text.rstrip(" ·")


# ------------------------------------------------------------------ rendering

KIND_LABEL = {
    "plate": "The 1914 plate, cleaned from the scan",
    "diagram": "The tableau drawn in modern cards for this edition",
    "missing-plate": "The 1914 plate (not in this build: the scans were absent)",
    "figure": "Figure",
}


def _url(site_path: str, from_url: str) -> str:
    """``site_path`` (a page URL like ``la-nivernaise/`` or ``""``, or a file) relative to the
    page at ``from_url``; a page's URL keeps its trailing slash."""
    rel = get_relative_url(site_path, from_url)
    if (site_path == "" or site_path.endswith("/")) and not rel.endswith("/"):
        rel += "/"
    return rel


def _where(src: str, title: str) -> str:
    return "on the home page" if src == HOME else f"in <em>{title}</em>"


def _page_title(src: str, page: Any) -> str:
    return "the home page" if src == HOME else (page.title or src)


def illustrations_html(figures: dict[str, list[Figure]], pages: dict[str, Any],
                       order: list[str], from_url: str) -> str:
    items: list[str] = []
    facsimiles: list[str] = []
    number = 0
    for src in order:
        page = pages.get(src)
        if page is None:
            continue
        title = html.escape(_page_title(src, page))
        figs = figures.get(src, [])
        for f in figs:
            if f.kind == "facsimile":
                continue
            number += 1
            href = f"{_url(page.url, from_url)}#{f.id}"
            thumb = ""
            if f.src:
                thumb = (f'<img class="illustrations__thumb" src="{_url(f.src, from_url)}" '
                         f'alt="Thumbnail of figure {number}" '
                         'loading="lazy">')
            caption = html.escape(f.caption or title)
            items.append(
                f'<li class="illustrations__item illustrations__item--{f.kind}" '
                f'data-figure="{html.escape(f.id)}">'
                f'<a class="illustrations__link" href="{href}">{thumb}'
                f'<span class="illustrations__number">Fig. {number}</span> '
                f'<span class="illustrations__caption">{caption}</span></a> '
                f'<span class="illustrations__where">{KIND_LABEL[f.kind]}; '
                f'{_where(src, title)}.</span></li>')
        pages_of = [f for f in figs if f.kind == "facsimile"]
        if pages_of:
            links = ", ".join(
                f'<a href="{_url(page.url, from_url)}#{f.id}">{html.escape(f.caption or f.id)}</a>'
                for f in pages_of)
            facsimiles.append(f"<li><em>{title}</em>: {links}</li>")
    out = ['<ol class="illustrations">', *items, "</ol>"]
    if not items:
        out = ['<p class="illustrations__none">No figure in this build.</p>']
    if facsimiles:
        out += ['<h2 id="facsimile-pages">Facsimile pages</h2>',
                ("<p>The printed pages of each chapter, cleaned from the scans, shown beside "
                 "the transcription:</p>"),
                '<ul class="illustrations-facsimiles">', *facsimiles, "</ul>"]
    return "\n".join(out)


CHAPTER_DIV = re.compile(
    r'<div class="cadogan-chapter"(?P<attrs>[^>]*)>(?P<body>.*?)</div>', re.DOTALL)


def chapters_html(source: str, figures: dict[str, list[Figure]], pages: dict[str, Any],
                  from_url: str) -> str:
    """The home page with each chapter placeholder made into an entry."""
    import engine
    from build_scripts.htmlwalk import parse_attrs

    def entry(m: re.Match[str]) -> str:
        attrs = parse_attrs(m.group("attrs"))
        slug = attrs.get("data-chapter", "")
        page = pages.get(f"{slug}.md")
        cls = engine.GAMES.get(slug)
        title = html.escape((page.title if page else None) or attrs.get("data-title", slug))
        packs_n = cls.packs if cls is not None else int(attrs.get("data-packs", "0") or 0)
        packs = NUMBERS.get(packs_n, f"{packs_n} packs")
        body = m.group("body").strip()
        # The 1914 plate when the scans are there, else the drawn tableau.
        chapter_figs = figures.get(f"{slug}.md", [])
        diagram = next((f for f in chapter_figs if f.kind == "plate" and f.src), None) or next(
            (f for f in chapter_figs if f.kind == "diagram" and f.id == f"diagram-{slug}"),
            None)
        if page is None:
            return (f'<li class="chapter-entry chapter-entry--preparing" data-chapter="{slug}"'
                    f' data-packs="{packs_n}">'
                    f'<div class="chapter-entry__thumb chapter-entry__thumb--none" '
                    f'aria-hidden="true"></div><div class="chapter-entry__text">'
                    f'<p class="chapter-entry__title">{title} '
                    f'<span class="chapter-entry__status">in preparation</span></p>'
                    f'<p class="chapter-entry__packs">{packs.capitalize()}</p>{body}</div></li>')
        href = _url(page.url, from_url)
        if diagram is not None and diagram.src:
            size = (f' width="{diagram.width}" height="{diagram.height}"'
                    if diagram.width and diagram.height else "")
            thumb = (f'<a class="chapter-entry__thumb" href="{href}" tabindex="-1">'
                     f'<img src="{_url(diagram.src, from_url)}"{size} '
                     f'alt="{html.escape(diagram.alt, quote=True)}" loading="lazy"></a>')
        else:
            thumb = ('<div class="chapter-entry__thumb chapter-entry__thumb--none">'
                     '<span>No drawn tableau yet</span></div>')
        board = ("" if cls is not None else
                 ' <span class="chapter-entry__status">text only; board to come</span>')
        return (f'<li class="chapter-entry" data-chapter="{slug}" data-packs="{packs_n}">{thumb}'
                f'<div class="chapter-entry__text"><p class="chapter-entry__title">'
                f'<a href="{href}">{title}</a>{board}</p>'
                f'<p class="chapter-entry__packs">{packs.capitalize()}</p>{body}</div></li>')

    result = CHAPTER_DIV.sub(entry, source)
    packs_seen = sorted({int(n) for n in re.findall(r'data-packs="(\d+)"', result)})
    return ENTRY_RUN.sub(lambda m: chapter_filter(packs_seen)
                         + f'<ul class="chapter-list">{m.group(0).strip()}</ul>\n', result)


def chapter_filter(packs: list[int]) -> str:
    """Radio buttons that show only the games for so many packs. Hidden until the script
    (``chapter-filter.js``) runs: without it, every game is listed and no control is dead."""
    choices = [("all", "All games")] + [(str(n), NUMBERS.get(n, f"{n} packs").capitalize())
                                        for n in packs]
    radios = "".join(
        f'<label><input type="radio" name="chapter-packs" value="{v}"'
        f'{" checked" if v == "all" else ""}> {html.escape(label)}</label>'
        for v, label in choices)
    return ('<form class="chapter-filter" hidden><fieldset><legend>Show the games for'
            f'</legend>{radios}</fieldset><p class="chapter-filter__count" role="status" '
            'aria-live="polite"></p></form>')


ENTRY_RUN = re.compile(r'(?:<li class="chapter-entry[\s\S]*?</li>\s*)+')


# ------------------------------------------------------------------ hook events

_state: dict[str, Any] = {}


def on_config(config: Any) -> Any:
    _state.clear()
    _state["figures"] = {}
    _state["pages"] = {}
    return config


def on_nav(nav: Any, config: Any, files: Any) -> Any:
    _state["order"] = [p.file.src_uri for p in nav.pages]
    return nav


@event_priority(-50)  # after the hooks that write figures
def on_page_content(html_text: str, page: Any, config: Any, files: Any) -> str:
    src = page.file.src_uri
    _state["pages"][src] = page
    if "<figure" not in html_text and "cadogan-plate--missing" not in html_text:
        return html_text
    result, figs = collect(html_text, src, page.url)
    _state["figures"][src] = figs
    return result


def on_env(env: Any, config: Any, files: Any) -> Any:
    pages: dict[str, Any] = _state["pages"]
    order = _state.get("order") or sorted(pages)
    ill = pages.get(ILLUSTRATIONS)
    if ill is not None and ill.content:
        listing = illustrations_html(_state["figures"], pages, order, ill.url)
        ill.content = ill.content.replace('<div class="cadogan-illustrations"></div>', listing)
    home = pages.get(HOME)
    if home is not None and home.content and "cadogan-chapter" in home.content:
        home.content = chapters_html(home.content, _state["figures"], pages, home.url)
    return env


def on_post_build(config: Any) -> None:
    """Every thumbnail the home page and the list point to must have been written."""
    site = Path(config["site_dir"])
    for figs in _state.get("figures", {}).values():
        for f in figs:
            if f.src and not (site / f.src).exists():
                log.warning("%s: figure %s shows %s, which is not in the built site",
                            f.page, f.id, f.src)

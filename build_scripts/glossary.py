"""mkdocs hook: the glossary (``glossary.toml``) and its tooltips.

- ``docs/glossary.md`` holds the prose; its placeholders ``<!-- glossary:GROUP -->`` (``book``,
  ``usage``, ``names``) become one entry per term, and each entry's list of uses is filled in
  once every chapter has been rendered.
- In every ``.transcription`` block (the author's text) and every editorial note, each use of a
  term becomes ``<a class="gloss ed-tip" href="…glossary/#term-ID"
  aria-describedby="gloss-def-ID">``: a link to the entry, focusable, described by a hidden
  definition at the end of the page (excluded from search). ``assets/javascripts/tooltips.js``
  shows that description on hover and on keyboard focus.

Only text nodes are touched: never the inside of links, headings, code, the board, the option
controls, figures, or the labels other hooks write; tags and attributes are kept byte for byte.
"""

from __future__ import annotations

import html
import logging
import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mkdocs.utils import get_relative_url

from build_scripts.htmlwalk import Element, inside, tokenize

TABLE = Path(__file__).with_name("glossary.toml")
GLOSSARY = "glossary.md"
GROUPS = ("book", "usage", "names")

log = logging.getLogger("mkdocs.hooks.glossary")

#: Elements whose text is never marked.
SKIP_NAMES = frozenset({
    "a", "h1", "h2", "h3", "h4", "h5", "h6", "code", "pre", "kbd", "samp", "script", "style",
    "button", "label", "select", "option", "textarea", "svg", "figure", "figcaption", "summary",
    "title", "abbr", "dfn"})
SKIP_CLASSES = frozenset({
    "admonition-title", "cadogan-board", "cadogan-option", "cadogan-figures", "cadogan-plate",
    "facsimile", "cadogan-reader__switch", "ed-label", "ed-tips", "gloss", "pack-line",
    "headerlink"})
#: Elements whose text is marked (with their descendants, less the above).
MARK_CLASSES = frozenset({"transcription", "editorial"})


@dataclass(frozen=True)
class Term:
    id: str
    term: str
    group: str
    variants: tuple[str, ...]
    case: bool
    chapters: tuple[str, ...]
    definition: str
    comment: str
    source: str
    after: frozenset[str] = frozenset()  # if given, the word before a use must be one of these

    def applies_to(self, chapter: str) -> bool:
        return not self.chapters or chapter in self.chapters


def load(path: Path = TABLE) -> list[Term]:
    with path.open("rb") as f:
        data = tomllib.load(f)
    terms = []
    seen: set[str] = set()
    for t in data["term"]:
        if t["id"] in seen:
            raise ValueError(f"glossary.toml: duplicate term id {t['id']!r}")
        if t["group"] not in GROUPS:
            raise ValueError(f"glossary.toml: term {t['id']!r} has unknown group {t['group']!r}")
        seen.add(t["id"])
        terms.append(Term(t["id"], t["term"], t["group"], tuple(t["variants"]),
                          bool(t.get("case", False)), tuple(t.get("chapters", ())),
                          t["definition"], t.get("comment", ""), t["source"],
                          frozenset(w.lower() for w in t.get("after", ()))))
    return terms


def inline(text: str) -> str:
    """Our definitions' only markup: *italics*."""
    return re.sub(r"\*([^*]+)\*", r"<i>\1</i>", html.escape(text, quote=False))


class Matcher:
    """Finds the uses of the terms that apply to one chapter (longest form first)."""

    def __init__(self, terms: list[Term], chapter: str) -> None:
        self.exact: dict[str, Term] = {}
        self.folded: dict[str, Term] = {}
        alts: list[tuple[str, bool]] = []
        for t in terms:
            if not t.applies_to(chapter):
                continue
            for v in t.variants:
                (self.exact if t.case else self.folded)[v if t.case else v.lower()] = t
                alts.append((v, t.case))
        alts.sort(key=lambda a: -len(a[0]))
        body = "|".join(re.escape(v) if case else f"(?i:{re.escape(v)})" for v, case in alts)
        self.regex = re.compile(rf"(?<![\w-])(?:{body})(?![\w-])") if alts else None

    def term(self, word: str) -> Term | None:
        return self.exact.get(word) or self.folded.get(word.lower())

    def uses(self, text: str) -> list[tuple[re.Match[str], Term]]:
        """The uses of terms in ``text`` (one text node), in order."""
        if self.regex is None:
            return []
        found = []
        for m in self.regex.finditer(text):
            term = self.term(m.group(0))
            if term is None:
                continue
            if term.after:
                before = re.search(r"([\w’'-]+)\W*$", text[:m.start()])
                if before is None or before.group(1).lower() not in term.after:
                    continue  # "round the Sovereign" is not a round of the deal
            found.append((m, term))
        return found


def _markable(stack: tuple[Element, ...]) -> bool:
    if not any(e.classes & MARK_CLASSES for e in stack):
        return False
    return not inside(stack, names=SKIP_NAMES, classes=SKIP_CLASSES)


def _chapter(stack: tuple[Element, ...], default: str) -> str:
    for e in reversed(stack):
        if "transcription" in e.classes and e.attrs.get("data-chapter"):
            return e.attrs["data-chapter"]
    return default


def mark(source: str, terms: list[Term], page_slug: str, glossary_href: str,
         uses: dict[str, int] | None = None) -> str:
    """``source`` with every use of a term marked; ``uses`` (term id -> count) is updated.
    The first use of each term on the page gets ``id="gloss-first-ID"`` and is a stop of the
    keyboard's Tab order; later uses keep their link and tooltip but leave the Tab order
    (``tabindex="-1"``), so that a keyboard reader reaches the board without passing through
    every use of every term."""
    if 'class="gloss ' in source:  # already marked (idempotent)
        return source
    matchers: dict[str, Matcher] = {}
    used: dict[str, Term] = {}
    counts = uses if uses is not None else {}
    out: list[str] = []
    for t in tokenize(source):
        if t.kind != "text" or not t.raw.strip() or not _markable(t.stack):
            out.append(t.raw)
            continue
        chapter = _chapter(t.stack, page_slug)
        matcher = matchers.get(chapter) or matchers.setdefault(chapter, Matcher(terms, chapter))
        pos = 0
        for m, term in matcher.uses(t.raw):
            first = term.id not in used
            used[term.id] = term
            counts[term.id] = counts.get(term.id, 0) + 1
            anchor = f' id="gloss-first-{term.id}"' if first else ' tabindex="-1"'
            out.append(t.raw[pos:m.start()])
            out.append(f'<a class="gloss ed-tip" href="{glossary_href}#term-{term.id}"{anchor} '
                       f'data-term="{term.id}" aria-describedby="gloss-def-{term.id}">'
                       f"{m.group(0)}</a>")
            pos = m.end()
        out.append(t.raw[pos:])
    if not used:
        return source
    defs = "".join(
        f'<span id="gloss-def-{t.id}"><b>{html.escape(t.term)}.</b> '
        f"{inline(t.definition)}</span>"
        for t in sorted(used.values(), key=lambda t: t.id))
    aside = f'<aside class="ed-tips gloss-tips" hidden data-search-exclude>{defs}</aside>'
    return "".join(out) + aside


# ------------------------------------------------------------------ the glossary page

def entries(terms: list[Term], group: str, docs: set[str]) -> str:
    out = []
    for t in terms:
        if t.group != group:
            continue
        if t.chapters and not any(f"{c}.md" in docs for c in t.chapters):
            continue
        out += [
            f"### {t.term} {{ #term-{t.id} .glossary-term }}",
            "",
            f'<div class="glossary-entry" data-term="{t.id}" markdown>',
            "",
            t.definition,
            "",
        ]
        if t.comment:
            out += [t.comment, ""]
        out += [
            f'<p class="glossary-source">{inline(t.source)}.</p>',
            f'<p class="glossary-uses" data-term="{t.id}"></p>',
            "",
            "</div>",
            "",
        ]
    return "\n".join(out)


def uses_html(term_id: str, uses: dict[str, dict[str, int]], chapter_pages: dict[str, Any],
              from_url: str) -> str:
    parts = []
    for slug, page in chapter_pages.items():
        n = uses.get(slug, {}).get(term_id, 0)
        if n:
            href = get_relative_url(page.url, from_url) + f"#gloss-first-{term_id}"
            times = "once" if n == 1 else f"{n} times"
            parts.append(f'<a href="{href}">{html.escape(page.title or slug)}</a> ({times})')
    if not parts:
        return "Not used in the chapters of this edition so far."
    return "Used in " + ", ".join(parts) + "."


# ------------------------------------------------------------------ hook events

_state: dict[str, Any] = {}


def on_config(config: Any) -> Any:
    _state.clear()
    _state["terms"] = load()
    _state["uses"] = {}
    _state["chapters"] = {}
    return config


def on_files(files: Any, config: Any) -> Any:
    _state["docs"] = {f.src_uri for f in files.documentation_pages()}
    _state["glossary_file"] = files.get_file_from_path(GLOSSARY)
    return files


def on_nav(nav: Any, config: Any, files: Any) -> Any:
    _state["nav_order"] = [p.file.src_uri[:-3] for p in nav.pages]
    return nav


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if page.file.src_uri != GLOSSARY:
        return markdown
    terms: list[Term] = _state["terms"]
    docs: set[str] = _state.get("docs", set())

    def fill(m: re.Match[str]) -> str:
        if m.group(1) not in GROUPS:
            log.warning("glossary.md: unknown placeholder glossary:%s", m.group(1))
            return m.group(0)
        return entries(terms, m.group(1), docs)

    return re.sub(r"<!--\s*glossary:(\w+)\s*-->", fill, markdown)


def on_page_content(html_text: str, page: Any, config: Any, files: Any) -> str:
    slug = page.file.src_uri[:-3]
    if page.file.src_uri == GLOSSARY:
        _state["glossary_page"] = page
        return html_text
    if "transcription" not in html_text and "editorial" not in html_text:
        return html_text
    gfile = _state.get("glossary_file")
    if gfile is None:
        return html_text
    href = get_relative_url(gfile.url, page.url)
    is_chapter = f'class="transcription" data-chapter="{slug}"' in html_text
    counts: dict[str, int] = {}
    result = mark(html_text, _state["terms"], slug, href, counts)
    if is_chapter:
        _state["uses"][slug] = counts
        _state["chapters"][slug] = page
    return result


def on_env(env: Any, config: Any, files: Any) -> Any:
    page = _state.get("glossary_page")
    if page is None or page.content is None:
        return env
    order = _state.get("nav_order") or sorted(_state["chapters"])
    chapters = {s: _state["chapters"][s] for s in order if s in _state["chapters"]}

    def fill(m: re.Match[str]) -> str:
        return (f'<p class="glossary-uses" data-term="{m.group(1)}">'
                f'{uses_html(m.group(1), _state["uses"], chapters, page.url)}</p>')

    page.content = re.sub(r'<p class="glossary-uses" data-term="([\w-]+)"></p>', fill,
                          page.content)
    return env

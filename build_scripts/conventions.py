"""mkdocs hook: the edition's conventions, from one table (``conventions.toml``).

- On every page, renders the conventions that need markup beyond the author's words, with the
  templates of the table: a label heading each ``<div class="supplied">`` block, the bracketed
  correction after each ``<span class="sic">``, the reason of each ``<span class="gap">``
  (shown as a tooltip), and the label and anchor of each page marker ``<span class="pb">``
  that no other hook has turned into a link.
- On the page of editorial principles (``principles.md``), replaces the placeholders
  ``<!-- conventions:NAME -->`` with tables and sections generated from the same table: the
  summary of conventions, each convention with its example (rendered by the same Markdown and
  the same hooks as the chapters), the scraping artifacts, the false paragraph breaks, the
  matter removed, and every reading the board can switch (from the engine's options).

A convention is therefore described and rendered from one record: change the record and both
the chapters and the principles page change.
"""

from __future__ import annotations

import html
import logging
import re
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from mkdocs.utils import get_relative_url

from build_scripts.htmlwalk import Token, start_tag, tokenize

TABLE = Path(__file__).with_name("conventions.toml")
PRINCIPLES = "principles.md"

log = logging.getLogger("mkdocs.hooks.conventions")  # counted by --strict


def load(path: Path = TABLE) -> dict[str, Any]:
    with path.open("rb") as f:
        data = tomllib.load(f)
    for c in data["convention"]:
        c.setdefault("template", {})
    return data


def convention(data: dict[str, Any], cid: str) -> dict[str, Any]:
    for c in data["convention"]:
        if c["id"] == cid:
            found: dict[str, Any] = c
            return found
    raise KeyError(cid)


def artifact_patterns(data: dict[str, Any] | None = None) -> list[str]:
    """The scraping artifacts no page may contain (used by the typography check)."""
    return [a["pattern"] for a in (data or load())["artifact"]]


# ------------------------------------------------------------------ rendering on pages

def _fmt(template: str, **values: str) -> str:
    return template.format(**{k: html.escape(v, quote=True) for k, v in values.items()})


def render(source: str, data: dict[str, Any], page_slug: str = "") -> str:
    """``source`` (a page's HTML) with the conventions' templates applied. Idempotent: an
    element already rendered carries the class ``ed-done`` and is left alone."""
    pb = convention(data, "page-number")["template"]
    supplied = convention(data, "supplied")["template"]
    sic = convention(data, "printers-error")["template"]
    gap = convention(data, "gap")["template"]

    tokens = list(tokenize(source))
    ids = set(re.findall(r'\bid="([^"]+)"', source))
    out: list[str] = []
    pending_sic: list[tuple[int, str]] = []  # (depth of the open span, correction)
    tips: list[tuple[str, str]] = []
    for i, t in enumerate(tokens):
        if t.kind == "start" and t.name in ("span", "div"):
            classes = set(t.attrs.get("class", "").split())
            if "ed-done" in classes:
                out.append(t.raw)
                continue
            if t.name == "span" and "pb" in classes and _empty(tokens, i):
                chapter = _chapter_of(t) or page_slug
                page = t.attrs.get("data-page", "")
                attrs = dict(t.attrs)
                attrs["class"] = " ".join(sorted(classes | {"ed-done"}))
                anchor = _fmt(pb["id"], chapter=chapter, page=page)
                if "id" not in attrs and anchor not in ids:
                    attrs["id"] = anchor
                    ids.add(anchor)
                out.append(start_tag("span", attrs) + _fmt(pb["label"], page=page))
                continue
            if t.name == "div" and "supplied" in classes:
                attrs = dict(t.attrs)
                attrs["class"] = " ".join(sorted(classes | {"ed-done"}))
                label = _fmt(supplied["label"], source=t.attrs.get("data-source", "1914 printing"))
                out.append(start_tag("div", attrs) + label)
                continue
            if t.name == "span" and "sic" in classes:
                attrs = dict(t.attrs)
                attrs["class"] = " ".join(sorted(classes | {"ed-done"}))
                pending_sic.append((len(t.stack), t.attrs.get("data-correction", "")))
                out.append(start_tag("span", attrs))
                continue
            if t.name == "span" and "gap" in classes:
                attrs = dict(t.attrs)
                reason = attrs.pop("title", "") or "the reason is not recorded"
                tip_id = f"gap-{len(tips) + 1}"
                while tip_id in ids:
                    tip_id += "-x"
                ids.add(tip_id)
                tips.append((tip_id, _fmt(gap["description"], reason=reason)))
                attrs["class"] = " ".join(sorted(classes | {"ed-done", "ed-tip"}))
                attrs["tabindex"] = "0"
                attrs["aria-describedby"] = tip_id
                out.append(start_tag("span", attrs))
                continue
        if t.kind == "end" and t.name == "span" and pending_sic \
                and pending_sic[-1][0] == len(t.stack):
            _, correction = pending_sic.pop()
            out.append(t.raw + _fmt(sic["mark"], correction=correction))
            continue
        out.append(t.raw)
    result = "".join(out)
    if tips:
        result += tips_aside("gap-tips", tips)
    return result


def tips_aside(cls: str, tips: list[tuple[str, str]]) -> str:
    """Hidden descriptions for ``aria-describedby`` (read by the tooltip script), kept out of
    the search index."""
    body = "".join(f'<span id="{i}">{text}</span>' for i, text in tips)
    return f'<aside class="ed-tips {cls}" hidden data-search-exclude>{body}</aside>'


def _empty(tokens: list[Token], i: int) -> bool:
    j = i + 1
    while j < len(tokens) and tokens[j].kind == "text" and not tokens[j].raw.strip():
        j += 1
    return j < len(tokens) and tokens[j].kind == "end" and tokens[j].name == "span"


def _chapter_of(t: Token) -> str:
    for e in reversed(t.stack):
        if "data-chapter" in e.attrs:
            return e.attrs["data-chapter"]
    return ""


# ------------------------------------------------------------------ the principles page

def _md_cell(text: str) -> str:
    return f'<td markdown="span">{text}</td>'


def _code_cell(text: str) -> str:
    return f"<td><code>{html.escape(text).replace(chr(10), '<br>')}</code></td>"


def _chapter_link(c: dict[str, Any], docs: set[str], titles: dict[str, str],
                  url_of: Callable[[str], str] | None = None) -> str:
    """Where a convention's example is. A link to an anchor that a hook writes (a page marker,
    a figure) is written as HTML, since mkdocs only knows the anchors of the Markdown; the
    site's link test checks it."""
    slug = c["chapter"]
    place: str = c["place"]
    if not slug:
        return place[:1].upper() + place[1:]
    title = titles.get(slug, slug.replace("-", " ").title())
    if f"{slug}.md" not in docs:
        return f"*{title}*, {c['place']} (chapter in preparation)"
    if c["anchor"] and url_of is not None:
        href = html.escape(f"{url_of(slug)}#{c['anchor']}", quote=True)
        return f'<a href="{href}"><em>{html.escape(title)}</em>, {html.escape(place)}</a>'
    anchor = f"#{c['anchor']}" if c["anchor"] else ""
    return f"[*{title}*, {place}]({slug}.md{anchor})"


def summary_table(data: dict[str, Any]) -> str:
    rows = []
    for c in data["convention"]:
        rows.append(
            "<tr markdown=\"block\">"
            f'<td markdown="span">[{c["name"]}](#convention-{c["id"]})</td>'
            + _md_cell(c["marks"]) + _code_cell(c["markdown"]) + "</tr>"
        )
    return ('<div class="ed-table conventions-summary" markdown="block">\n'
            '<table markdown="block">\n<thead><tr><th>Convention</th><th>What it '
            'marks</th><th>How a chapter writes it</th></tr></thead>\n<tbody markdown="block">\n'
            + "\n".join(rows) + "\n</tbody>\n</table>\n</div>")


def sections(data: dict[str, Any], docs: set[str], titles: dict[str, str],
             url_of: Callable[[str], str] | None = None) -> str:
    out = []
    for c in data["convention"]:
        where = _chapter_link(c, docs, titles, url_of)
        part = [
            f'### {c["name"]} {{ #convention-{c["id"]} }}',
            "",
            f'<div class="convention" data-convention="{c["id"]}" markdown>',
            "",
            f'**What it marks.** {c["marks"]}',
            "",
            "**How a chapter writes it.**",
            "",
            "```html",
            c["markdown"],
            "```",
            "",
            f'**How it renders.** {c["renders"]}',
            "",
        ]
        if c["context"] == "transcription" and c["example"]:
            chapter = c["chapter"] or "example"
            part += [
                f"**Example** ({where}), as written and as rendered:",
                "",
                "```html",
                c["example"],
                "```",
                "",
                (f'<div class="transcription convention-example" data-chapter="{chapter}" '
                 "markdown>"),
                "",
                c["example"],
                "",
                "</div>",
                "",
            ]
        else:
            part += [f"**Example:** {where}.", ""]
        part += ["</div>", ""]
        out.append("\n".join(part))
    return "\n".join(out)


def artifacts_table(data: dict[str, Any]) -> str:
    rows = []
    for a in data["artifact"]:
        rows.append('<tr markdown="block">' + _code_cell(a["seen"]) + _md_cell(a["reading"])
                    + f'<td>{a["count"]}</td>' + _md_cell(a["where"]) + "</tr>")
    total = sum(a["count"] for a in data["artifact"])
    return ('<div class="ed-table artifacts" markdown="block">\n<table markdown="block">\n'
            '<thead><tr><th>In the source</th><th>Read</th><th>Times</th><th>Where</th></tr>'
            '</thead>\n<tbody markdown="block">\n' + "\n".join(rows)
            + f'\n</tbody>\n<tfoot><tr><td>Total</td><td></td><td>{total}</td><td></td></tr>'
            "</tfoot>\n</table>\n</div>")


def breaks_list(data: dict[str, Any], titles: dict[str, str]) -> str:
    lines = []
    for b in data["paragraph_break"]:
        title = titles.get(b["chapter"], b["chapter"].replace("-", " ").title())
        lines.append(f'- *{title}*: “{b["before"]} ¶ {b["after"]}”')
    return "\n".join(lines)


def removed_list(data: dict[str, Any]) -> str:
    return "\n".join(f'- {r["what"]}' for r in data["removed"])


NOTE_TITLE = re.compile(
    r'id="(note-[\w-]+)"[^>]*>\s*<p class="admonition-title">([^<]+)</p>')


def _note_order(opt: dict[str, Any]) -> tuple[str, int]:
    """Notes in their own order (NI-2 before NI-10)."""
    m = re.match(r"(.*?)(\d+)$", opt["note"])
    return (m.group(1), int(m.group(2))) if m else (opt["note"], 0)


def readings_table(docs_dir: Path, docs: set[str], titles: dict[str, str]) -> str:
    """Every option of every game with a chapter page: the note that discusses it, the
    question, and the readings (the default first). An option that several games of one
    chapter share (La Belle Lucie's page plays three) is one row naming them."""
    import engine

    games: dict[str, list[type[Any]]] = {}
    for cls in engine.GAMES.values():
        games.setdefault(cls.chapter(), []).append(cls)
    rows = []
    for slug in sorted(games):
        if f"{slug}.md" not in docs:
            continue
        source = (docs_dir / f"{slug}.md").read_text(encoding="utf-8")
        notes = dict(NOTE_TITLE.findall(source))
        options: dict[tuple[str, str], tuple[dict[str, Any], list[str]]] = {}
        for cls in games[slug]:
            for opt in engine.describe_options(cls.Options):
                options.setdefault((opt["note"], opt["name"]), (opt, []))[1].append(cls.title)
        for opt, played_in in sorted(options.values(), key=lambda o: _note_order(o[0])):
            note = opt["note"]
            title = notes.get(note, "")
            number, _, question = title.partition(" · ")
            choices = []
            for ch in opt["choices"]:
                text = f'{html.escape(ch["label"])} <code>{opt["name"]}:{ch["value"]}</code>'
                if ch["value"] == opt["default"]:
                    text = f"<strong>{text}</strong> (default)"
                choices.append(f"<li>{text}</li>")
            # name the games when the option is not every game's and the question does not
            which = ("" if len(played_in) == len(games[slug])
                     or all(t in question for t in played_in)
                     else f" ({html.escape(', '.join(played_in))})")
            rows.append(
                '<tr markdown="block">'
                f'<td markdown="span">[{number or note}]({slug}.md#{note})</td>'
                f'<td markdown="span">*{titles.get(slug, slug)}*{which}: '
                f'{html.escape(question)}</td>'
                f'<td>{html.escape(opt["label"])}</td>'
                f'<td><ul>{"".join(choices)}</ul></td>'
                "</tr>"
            )
    return ('<div class="ed-table readings" markdown="block">\n<table markdown="block">\n'
            "<thead><tr><th>Note</th><th>Question</th><th>Board option</th>"
            "<th>Readings (as written in a saved game or link)</th></tr></thead>\n"
            '<tbody markdown="block">\n' + "\n".join(rows) + "\n</tbody>\n</table>\n</div>")


def check_examples(data: dict[str, Any], docs_dir: Path) -> list[str]:
    """Conventions whose example is not the chapter's own markup (chapter present only)."""
    problems = []
    for c in data["convention"]:
        if not c["chapter"] or not c["check"]:
            continue
        path = docs_dir / f'{c["chapter"]}.md'
        if not path.exists():
            continue
        if c["check"] not in path.read_text(encoding="utf-8"):
            problems.append(f'convention {c["id"]}: {path.name} does not contain {c["check"]!r}')
    return problems


# ------------------------------------------------------------------ hook events

MARKED = re.compile(r'class="[^"]*\b(?:pb|supplied|sic|gap)\b')

_state: dict[str, Any] = {}


def _titles(files: Any) -> dict[str, str]:
    titles: dict[str, str] = {}
    for f in files.documentation_pages():
        slug = f.src_uri[:-3]
        first = f.abs_src_path and Path(f.abs_src_path).read_text(encoding="utf-8")
        text = first or ""
        m = (re.search(r"^title:\s*(.+)$", text, re.MULTILINE)
             or re.search(r"^# (.+)$", text, re.MULTILINE))
        titles[slug] = m.group(1).strip().strip('"') if m else slug
    return titles


def on_config(config: Any) -> Any:
    _state["data"] = load()
    return config


def on_files(files: Any, config: Any) -> Any:
    _state["docs"] = {f.src_uri for f in files.documentation_pages()}
    _state["titles"] = _titles(files)
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if page.file.src_uri != PRINCIPLES:
        return markdown
    data = _state.get("data") or load()
    docs: set[str] = _state.get("docs", set())
    titles: dict[str, str] = _state.get("titles", {})
    docs_dir = Path(config["docs_dir"])

    def url_of(slug: str) -> str:
        target = files.get_file_from_path(f"{slug}.md")
        rel = get_relative_url(target.url, page.url) if target is not None else f"../{slug}/"
        return rel if rel.endswith("/") else rel + "/"

    for problem in check_examples(data, docs_dir):
        log.warning(problem)
    parts = {
        "summary": lambda: summary_table(data),
        "each": lambda: sections(data, docs, titles, url_of),
        "artifacts": lambda: artifacts_table(data),
        "breaks": lambda: breaks_list(data, titles),
        "removed": lambda: removed_list(data),
        "readings": lambda: readings_table(docs_dir, docs, titles),
    }

    def fill(m: re.Match[str]) -> str:
        name = m.group(1)
        if name not in parts:
            log.warning("principles.md: unknown placeholder conventions:%s", name)
            return m.group(0)
        return parts[name]()

    return re.sub(r"<!--\s*conventions:(\w+)\s*-->", fill, markdown)


def on_page_content(html_text: str, page: Any, config: Any, files: Any) -> str:
    if not MARKED.search(html_text):
        return html_text
    data = _state.get("data") or load()
    return render(html_text, data, page.file.src_uri[:-3])

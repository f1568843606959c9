"""Build hook: each chapter's rules ledger, a table tying every rule of the text to the engine.

``<div class="cadogan-ledger" data-chapter="SLUG"></div>`` becomes a table with one row per
rule anchor of the chapter (every element of class ``rule`` with an id, in the order of the
text): the sentence's opening words, linked to it; what the engine does for it, from the game's
``LEDGER``; and the tests that enforce it, read from the ``@pytest.mark.rules("SLUG-NAME")``
decorators of the engine's tests. One source for each column: the page, the engine, the tests.
``tests/site/test_ledger.py`` fails when the three disagree (an anchor the engine does not
describe, an anchor no test cites, a test citing an anchor that does not exist).

The module's functions are used by that test too: :func:`rule_anchors` (from the Markdown
source) and :func:`citations` (from the test files).
"""

from __future__ import annotations

import ast
import html
import math
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from build_scripts.htmlwalk import parse_attrs, tokenize

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"

try:
    from mkdocs.exceptions import PluginError as _BuildError
except ImportError:  # pragma: no cover
    _BuildError = RuntimeError  # type: ignore[misc,assignment]

_LEDGER_RE = re.compile(r'<div\b(?P<attrs>[^>]*\bclass="cadogan-ledger"[^>]*)>\s*</div>')
# Rule anchors in a chapter's Markdown: a span (or any element) of class "rule" with an id,
# or a paragraph closed by an attribute list `{ #ID .rule }`.
_SPAN_RULE_RE = re.compile(r'<(\w+)\b[^>]*\bclass="(?:[^"]*\s)?rule(?:\s[^"]*)?"[^>]*>')
_ATTR_LIST_RULE_RE = re.compile(r"\{\s*#([\w-]+)((?:\s+[.#]?[\w-]+)*)\s*\}")
#: Words of a rule's sentence shown in its row.
OPENING_WORDS = 12


# ---- the three sources ------------------------------------------------------------------

def rule_anchors(markdown: str) -> list[str]:
    """The rule anchors of a chapter's Markdown source, in the order of the text."""
    found: list[tuple[int, str]] = []
    for m in _SPAN_RULE_RE.finditer(markdown):
        rid = parse_attrs(m.group(0)[len(m.group(1)) + 1:-1]).get("id")
        if rid:
            found.append((m.start(), rid))
    for m in _ATTR_LIST_RULE_RE.finditer(markdown):
        if ".rule" in m.group(2).split():
            found.append((m.start(), m.group(1)))
    return [rid for _, rid in sorted(found)]


def rule_sentences(page_html: str) -> dict[str, str]:
    """Each rule anchor of a rendered page mapped to its text (page markers left out)."""
    out: dict[str, list[str]] = {}
    order: list[str] = []
    for t in tokenize(page_html):
        if t.kind == "start" and "rule" in t.element.classes and t.attrs.get("id"):
            if t.attrs["id"] not in out:
                out[t.attrs["id"]] = []
                order.append(t.attrs["id"])
        if t.kind != "text" or any("pb" in e.classes for e in t.stack):
            continue
        for e in reversed(t.stack):
            if "rule" in e.classes and e.attrs.get("id") in out:
                out[e.attrs["id"]].append(t.raw)
                break
    return {rid: " ".join(html.unescape("".join(out[rid])).split()) for rid in order}


def _mark_args(dec: ast.expr) -> list[ast.expr] | None:
    """The arguments of a ``pytest.mark.rules(...)`` (or ``mark.rules(...)``) decorator."""
    if not isinstance(dec, ast.Call):
        return None
    f = dec.func
    if isinstance(f, ast.Attribute) and f.attr == "rules" and (
            (isinstance(f.value, ast.Attribute) and f.value.attr == "mark")
            or (isinstance(f.value, ast.Name) and f.value.id == "mark")):
        return list(dec.args)
    return None


def citations(files: Iterable[Path] | None = None) -> dict[str, list[str]]:
    """Every anchor cited by a ``@pytest.mark.rules`` decorator in the test files, mapped to
    the tests citing it (``tests/engine/test_x.py::test_name``). A decorator on a class
    covers its test methods. Arguments must be string literals (ValueError otherwise)."""
    out: dict[str, list[str]] = {}
    paths = sorted(files) if files is not None else sorted(TESTS.rglob("test_*.py"))
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        rel = path.resolve().relative_to(ROOT).as_posix() if path.resolve().is_relative_to(
            ROOT) else path.name

        def visit(node: ast.AST, prefix: str, inherited: list[str]) -> None:
            for child in ast.iter_child_nodes(node):
                if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    continue
                anchors = list(inherited)
                for dec in child.decorator_list:
                    args = _mark_args(dec)
                    if args is None:
                        continue
                    for arg in args:
                        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                            raise ValueError(f"{rel}:{dec.lineno}: pytest.mark.rules takes "
                                             "string literals (the ledger reads them)")
                        anchors.append(arg.value)
                name = f"{prefix}{child.name}"
                if isinstance(child, ast.ClassDef):
                    visit(child, name + "::", anchors)
                elif child.name.startswith("test"):
                    for anchor in anchors:
                        out.setdefault(anchor, []).append(f"{rel}::{name}")
        visit(tree, "", [])
    return out


# ---- the table ---------------------------------------------------------------------------

def _opening(text: str) -> str:
    words = text.split()
    return " ".join(words[:OPENING_WORDS]) + (" …" if len(words) > OPENING_WORDS else "")


# The ledger is drawn only when the reader comes near it (content-visibility, apparatus.css);
# until then its box has an estimated height, from this count of its "lines": for each row,
# the longest of its three cells at LINE_CHARS characters a line (every test its own line
# at least). Measured on every chapter's ledger, the height is 26-38 px a line at 390 px
# wide, 32-41 px at 320 px and 13-19 px at 1280 px; the stylesheet's em a line is above
# that at every width, so the box is never shorter than what is drawn in it (see
# apparatus.css for what went wrong when it was).
LINE_CHARS = 10


def _row_lines(opening: str, does: str, tests: list[str]) -> float:
    return max(len(opening) / LINE_CHARS, len(does) / LINE_CHARS,
               sum(max(1.0, len(t) / LINE_CHARS) for t in tests))


def ledger_html(slug: str, page_html: str, cited: dict[str, list[str]], where: str = "") -> str:
    import engine

    cls = engine.GAMES.get(slug)
    if cls is None:
        raise _BuildError(f"{where}: no game {slug!r} for the rules ledger")
    sentences = rule_sentences(page_html)
    missing = [rid for rid in sentences if rid not in cls.LEDGER]
    if missing:
        raise _BuildError(f"{where}: {cls.__name__}.LEDGER does not describe "
                          f"{', '.join(missing)}")
    rows = []
    lines = 0.0
    for rid, text in sentences.items():
        tests = [t.rsplit('/', 1)[-1] for t in cited.get(rid, [])]
        lines += _row_lines(_opening(text), cls.LEDGER[rid], tests)
        test_list = "".join(f"<li><code>{html.escape(t)}</code></li>" for t in tests)
        rows.append(
            f'<tr><td><a href="#{html.escape(rid)}">{html.escape(_opening(text))}</a></td>'
            f"<td>{html.escape(cls.LEDGER[rid])}</td>"
            f'<td>{f"<ul>{test_list}</ul>" if tests else "<em>none</em>"}</td></tr>')
    return (
        # Kept out of the search index (Material's data-search-exclude): the rule sentences are
        # found in the text itself, and its rows (28% of the index) would answer most searches.
        f'<div class="cadogan-ledger" data-chapter="{html.escape(slug)}" data-search-exclude '
        f'style="--ledger-lines: {math.ceil(lines)}">'
        f"<table><caption>{html.escape(cls.title)}: every rule of the text, what the board "
        f"does for it, and the tests that hold the engine to it "
        f"({len(sentences)} rules)</caption>"
        "<thead><tr><th scope=\"col\">Rule</th><th scope=\"col\">What the board does</th>"
        "<th scope=\"col\">Tests</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table></div>")


# ---- mkdocs hook events ------------------------------------------------------------------

_cited: dict[str, list[str]] | None = None


def on_config(config: Any) -> Any:
    global _cited
    _cited = None  # read the tests again on every build
    return config


def on_page_content(html_text: str, page: Any, config: Any, files: Any) -> str:
    global _cited
    if "cadogan-ledger" not in html_text:
        return html_text
    if _cited is None:
        _cited = citations()
    cited = _cited
    where = str(page.file.src_uri) if getattr(page, "file", None) else "page"
    return _LEDGER_RE.sub(
        lambda m: ledger_html(parse_attrs(m.group("attrs")).get("data-chapter", ""),
                              html_text, cited, where), html_text)

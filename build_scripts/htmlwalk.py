"""A small, faithful HTML tokenizer for the apparatus hooks (conventions, glossary,
illustrations, typography check).

The hooks rewrite text nodes of pages that other hooks have already marked up (rule spans with
ids, page markers, the board, option controls). They must never touch a tag they do not mean
to change, so this module splits HTML into tokens that join back into the exact input:
``"".join(t.raw for t in tokenize(s)) == s``. Each token knows the open elements around it
(name, attributes), so a hook can ask "am I inside a link, a heading, code, the board?".

Only what mkdocs and the Markdown extensions emit needs to be understood: well-formed markup,
void elements, raw-text elements (script, style, textarea, title), comments.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

VOID = frozenset({
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr"})
RAW_TEXT = frozenset(["script", "style", "textarea", "title"])

_TAG = re.compile(
    r"""
    (?P<comment><!--.*?-->)
  | (?P<decl><![^>]*>)
  | (?P<pi><\?[^>]*>)
  | (?P<end></(?P<endname>[A-Za-z][\w:.-]*)\s*>)
  | (?P<start><(?P<name>[A-Za-z][\w:.-]*)
        (?P<attrs>(?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)
        \s*(?P<selfclose>/?)>)
    """,
    re.DOTALL | re.VERBOSE,
)
_ATTR = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")


def parse_attrs(text: str) -> dict[str, str]:
    """Attributes of a start tag's attribute text, values unescaped (``&amp;`` -> ``&``)."""
    out: dict[str, str] = {}
    for m in _ATTR.finditer(text):
        name = m.group(1).lower()
        value = next((g for g in m.groups()[1:] if g is not None), "")
        out.setdefault(name, html.unescape(value))
    return out


@dataclass(frozen=True)
class Element:
    """An open element: its name and attributes."""

    name: str
    attrs: dict[str, str] = field(default_factory=dict)

    @property
    def classes(self) -> frozenset[str]:
        return frozenset(self.attrs.get("class", "").split())


@dataclass
class Token:
    """One piece of the input. ``kind`` is ``start``, ``end``, ``text`` (character data,
    still escaped), ``raw`` (the content of a script or style), or ``other`` (comments,
    declarations). ``stack`` is the tuple of elements open around the token (for a start
    tag: around the element, not including it)."""

    kind: str
    raw: str
    name: str = ""
    attrs: dict[str, str] = field(default_factory=dict)
    stack: tuple[Element, ...] = ()

    @property
    def element(self) -> Element:
        return Element(self.name, self.attrs)


def tokenize(source: str) -> Iterator[Token]:
    """Tokens of ``source`` in order; their ``raw`` strings join back into ``source``."""
    stack: list[Element] = []
    pos = 0
    n = len(source)
    while pos < n:
        m = _TAG.search(source, pos)
        if m is None:
            yield Token("text", source[pos:], stack=tuple(stack))
            return
        if m.start() > pos:
            yield Token("text", source[pos:m.start()], stack=tuple(stack))
        pos = m.end()
        if m.group("start"):
            name = m.group("name").lower()
            attrs = parse_attrs(m.group("attrs") or "")
            yield Token("start", m.group(0), name, attrs, tuple(stack))
            if name in RAW_TEXT and not m.group("selfclose"):
                close = re.compile(rf"</{name}\s*>", re.IGNORECASE).search(source, pos)
                end = close.start() if close else n
                if end > pos:
                    yield Token("raw", source[pos:end], name,
                                stack=tuple(stack) + (Element(name, attrs),))
                pos = end
                if close:
                    yield Token("end", close.group(0), name, stack=tuple(stack))
                    pos = close.end()
            elif name not in VOID and not m.group("selfclose"):
                stack.append(Element(name, attrs))
        elif m.group("end"):
            name = m.group("endname").lower()
            if any(e.name == name for e in stack):
                while stack:
                    if stack.pop().name == name:
                        break
            yield Token("end", m.group(0), name, stack=tuple(stack))
        else:
            yield Token("other", m.group(0), stack=tuple(stack))


def inside(stack: tuple[Element, ...], *, names: frozenset[str] = frozenset(),
           classes: frozenset[str] = frozenset()) -> bool:
    """Whether any element of ``stack`` has one of ``names`` or one of ``classes``."""
    return any(e.name in names or (e.classes & classes) for e in stack)


def map_text(source: str, fn: Callable[[str, tuple[Element, ...]], str]) -> str:
    """``source`` with every text node replaced by ``fn(text, stack)`` (``text`` is still
    HTML-escaped; ``fn`` returns HTML). Tags, comments and scripts are kept byte for byte."""
    out: list[str] = []
    for t in tokenize(source):
        out.append(fn(t.raw, t.stack) if t.kind == "text" else t.raw)
    return "".join(out)


def text_of(source: str) -> str:
    """The unescaped character data of an HTML fragment (scripts and styles left out)."""
    return html.unescape("".join(t.raw for t in tokenize(source) if t.kind == "text"))


def start_tag(name: str, attrs: dict[str, str]) -> str:
    """A start tag with ``attrs`` (values escaped; empty values written as bare names)."""
    parts = [name]
    for k, v in attrs.items():
        parts.append(k if v == "" and k in _BARE else f'{k}="{html.escape(v, quote=True)}"')
    return "<" + " ".join(parts) + ">"


_BARE = frozenset({"hidden", "markdown", "data-search-exclude"})

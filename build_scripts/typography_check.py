"""mkdocs hook (and command): the build's typographic check of the rendered site.

After the build, every HTML page of the site is read back and the build FAILS if the page's
content (the article: the author's text, the notes, the apparatus) has:

- a straight quotation mark or apostrophe (``'`` or ``"``) in its text, where the print has
  curly ones, or a double hyphen ``--`` where it has a dash (code, scripts, styles and
  attribute values are not text, and are not checked);
- a scraping artifact of the source text (the patterns of ``conventions.toml``, e.g.
  ``s.p.a.c`` or ``[Illustration``) in its text or in an alt text, title or label;
- an ``<img>`` without alt text anywhere in the page, or a ``<figure>`` whose image has none.

``python -m build_scripts.typography_check [SITE_DIR]`` runs the same check on a built site.
"""

from __future__ import annotations

import html
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from build_scripts.htmlwalk import Element, Token, tokenize

#: Elements whose content is not prose.
NOT_TEXT = frozenset({
    "code", "pre", "kbd", "samp", "script", "style", "svg", "textarea", "math", "var"})
#: Attributes whose value is read to the reader (checked for artifacts).
READ_ATTRS = ("alt", "title", "aria-label")
CONTENT_CLASS = "md-content__inner"
QUOTES = re.compile(r"['\"]")
DOUBLE_HYPHEN = re.compile(r"(?<!-)--(?!-)")


@dataclass(frozen=True)
class Problem:
    file: str
    kind: str  # straight-quote, double-hyphen, artifact, no-alt
    detail: str

    def __str__(self) -> str:
        return f"{self.file}: {self.kind}: {self.detail}"


def _artifacts() -> list[str]:
    from build_scripts.conventions import artifact_patterns
    return artifact_patterns()


def _in_content(stack: tuple[Element, ...], has_article: bool) -> bool:
    return not has_article or any(CONTENT_CLASS in e.classes for e in stack)


def _context(text: str, at: int, width: int = 30) -> str:
    s = text[max(0, at - width):at + width]
    return "…" + re.sub(r"\s+", " ", s) + "…"


def check_html(source: str, name: str = "<html>",
               artifacts: list[str] | None = None) -> list[Problem]:
    """The problems of one page. Only the article (``.md-content__inner``) is checked for
    quotes and artifacts when the page has one; images are checked everywhere."""
    patterns = [p.lower() for p in (artifacts if artifacts is not None else _artifacts())]
    has_article = CONTENT_CLASS in source
    problems: list[Problem] = []
    figures: list[dict[str, Any]] = []
    tokens: list[Token] = list(tokenize(source))
    for t in tokens:
        content = _in_content(t.stack + ((t.element,) if t.kind == "start" else ()),
                              has_article)
        if t.kind == "start":
            if t.name == "img":
                alt = t.attrs.get("alt")
                if alt is None or not alt.strip():
                    src = t.attrs.get("src", "?")
                    problems.append(Problem(name, "no-alt", f"<img src={src!r}> has no alt text"))
                for f in figures:
                    f["alt"] = f["alt"] or bool(alt and alt.strip())
            if t.name == "svg" and figures:
                labelled = t.attrs.get("aria-label", "").strip() or "aria-labelledby" in t.attrs
                for f in figures:
                    f["alt"] = f["alt"] or bool(labelled)
            if t.name == "figure":
                figures.append({"id": t.attrs.get("id", "?"), "depth": len(t.stack), "alt": False,
                                "label": bool(t.attrs.get("aria-label", "").strip())})
            if content:
                for a in READ_ATTRS:
                    value = t.attrs.get(a, "").lower()
                    for p in patterns:
                        if p in value:
                            problems.append(Problem(name, "artifact",
                                                    f"{p!r} in the {a} of <{t.name}>"))
        elif t.kind == "end" and t.name == "figure" and figures \
                and figures[-1]["depth"] == len(t.stack):
            f = figures.pop()
            if not (f["alt"] or f["label"]):
                problems.append(Problem(name, "no-alt",
                                        f"<figure id={f['id']!r}> has no image with alt text"))
        elif t.kind == "text" and content and not any(e.name in NOT_TEXT for e in t.stack):
            text = html.unescape(t.raw)
            for m in QUOTES.finditer(text):
                problems.append(Problem(name, "straight-quote",
                                        f"{m.group(0)} in {_context(text, m.start())}"))
            for m in DOUBLE_HYPHEN.finditer(text):
                problems.append(Problem(name, "double-hyphen",
                                        f"-- for a dash in {_context(text, m.start())}"))
            low = text.lower()
            for p in patterns:
                at = low.find(p)
                if at >= 0:
                    problems.append(Problem(name, "artifact",
                                            f"{p!r} in {_context(text, at)}"))
    return problems


def check_site(site_dir: Path) -> list[Problem]:
    problems: list[Problem] = []
    artifacts = _artifacts()
    for path in sorted(site_dir.rglob("*.html")):
        if "assets" in path.relative_to(site_dir).parts:
            continue  # runtime files, not pages
        problems += check_html(path.read_text(encoding="utf-8"),
                               str(path.relative_to(site_dir)), artifacts)
    return problems


def on_post_build(config: Any) -> None:
    from mkdocs.exceptions import PluginError

    problems = check_site(Path(config["site_dir"]))
    if problems:
        shown = "\n  ".join(str(p) for p in problems[:40])
        more = f"\n  … and {len(problems) - 40} more" if len(problems) > 40 else ""
        raise PluginError(f"typography check: {len(problems)} problem(s) in the built site:\n  "
                          f"{shown}{more}")


def main(argv: list[str]) -> int:
    site = Path(argv[1] if len(argv) > 1 else "site")
    problems = check_site(site)
    for p in problems:
        print(p)
    print(f"typography check: {len(problems)} problem(s) in {site}")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))

"""Build hook: the collation record, the differences between the 1914 print and the Gutenberg
text for every chapter transcribed from the scans.

Each such chapter has ``build_scripts/collation/SLUG.toml`` with one ``[[difference]]`` table per
difference (``page``, ``print``, ``gutenberg``, ``comment``; the print decides every one). The
placeholder ``<div class="cadogan-collation"></div>`` on the editorial principles page becomes a
table per chapter, in the book's order; a chapter whose file lists no difference says so.
"""

from __future__ import annotations

import html
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "build_scripts" / "collation"
_PLACEHOLDER = re.compile(r'<div class="cadogan-collation">\s*</div>')

try:
    from mkdocs.exceptions import PluginError as _BuildError
except ImportError:  # pragma: no cover
    _BuildError = RuntimeError  # type: ignore[misc,assignment]


@dataclass(frozen=True)
class Difference:
    page: int
    print: str
    gutenberg: str
    comment: str


def read(slug: str, folder: Path = FOLDER) -> list[Difference]:
    """The differences recorded for one chapter (ValueError for a malformed record)."""
    data = tomllib.loads((folder / f"{slug}.toml").read_text(encoding="utf-8"))
    out = []
    for i, d in enumerate(data.get("difference", [])):
        try:
            out.append(Difference(int(d["page"]), str(d["print"]), str(d["gutenberg"]),
                                  str(d["comment"])))
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"{slug}.toml, difference {i + 1}: {e}") from None
    return out


def chapters(folder: Path = FOLDER) -> list[str]:
    """Slugs with a collation record, in the book's order (engine.GAMES), others after."""
    import engine

    have = {p.stem for p in folder.glob("*.toml")}
    ordered = [s for s in engine.GAMES if s in have]
    return ordered + sorted(have - set(ordered))


def collation_html(folder: Path = FOLDER) -> str:
    import engine

    parts = []
    for slug in chapters(folder):
        try:
            diffs = read(slug, folder)
        except ValueError as e:
            raise _BuildError(f"collation record: {e}") from None
        title = engine.GAMES[slug].title if slug in engine.GAMES else slug
        link = f'<a href="../{html.escape(slug)}/">{html.escape(title)}</a>'
        if not diffs:
            parts.append(f"<p>{link}: the print and the Gutenberg text agree word for word.</p>")
            continue
        rows = "".join(
            f"<tr><td>{d.page}</td><td>{html.escape(d.print)}</td>"
            f"<td>{html.escape(d.gutenberg)}</td><td>{html.escape(d.comment)}</td></tr>"
            for d in sorted(diffs, key=lambda d: d.page))
        parts.append(
            f'<table class="collation"><caption>{link}: {len(diffs)} '
            f'difference{"" if len(diffs) == 1 else "s"}</caption>'
            '<thead><tr><th scope="col">Page</th><th scope="col">The print</th>'
            '<th scope="col">Gutenberg</th><th scope="col">What it is</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>")
    if not parts:
        parts.append("<p>No chapter has been transcribed from the scans yet.</p>")
    return '<div class="cadogan-collation">' + "".join(parts) + "</div>"


def on_page_content(html_text: str, page: Any, config: Any, files: Any) -> str:
    if "cadogan-collation" not in html_text:
        return html_text
    return _PLACEHOLDER.sub(lambda _m: collation_html(), html_text)

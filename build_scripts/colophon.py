"""mkdocs hook: the colophon's table of the tools that built this copy of the site.

Replaces ``<div class="cadogan-versions"></div>`` (docs/colophon.md) with the versions
actually installed (Python packages from their metadata, Pyodide from ``package.json``), so
that the colophon cannot drift from the build.
"""

from __future__ import annotations

import html
import json
import platform
from importlib import metadata
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PLACEHOLDER = '<div class="cadogan-versions"></div>'

TOOLS = (
    ("mkdocs", "MkDocs", "turns the Markdown pages into the site"),
    ("mkdocs-material", "Material for MkDocs", "the theme, navigation and offline search"),
    ("pymdown-extensions", "PyMdown Extensions", "Markdown extensions"),
    ("markdown", "Python-Markdown", "the Markdown parser"),
    ("pillow", "Pillow", "draws the tableaux in modern cards; writes the cleaned plates"),
    ("numpy", "NumPy", "the image steps that clean the page scans"),
)


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def _pyodide() -> str:
    try:
        pkg = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "unknown"
    deps = {**pkg.get("dependencies", {}), **pkg.get("devDependencies", {})}
    return str(deps.get("pyodide", "unknown"))


def versions_html() -> str:
    rows = [(f"<tr><td>Python</td><td>{platform.python_version()}</td><td>runs the build "
             "(CPython)</td></tr>")]
    rows += [f"<tr><td>{html.escape(name)}</td><td>{html.escape(_version(dist))}</td>"
             f"<td>{html.escape(role)}</td></tr>" for dist, name, role in TOOLS]
    rows.append(f"<tr><td>Pyodide</td><td>{html.escape(_pyodide())}</td><td>runs the rules "
                "engine in the reader’s browser, served from the site itself</td></tr>")
    return ('<table class="colophon-versions"><thead><tr><th>Tool</th><th>Version</th>'
            "<th>What it does here</th></tr></thead><tbody>" + "".join(rows)
            + "</tbody></table>")


def on_page_content(html_text: str, page: Any, config: Any, files: Any) -> str:
    if PLACEHOLDER not in html_text:
        return html_text
    return html_text.replace(PLACEHOLDER, versions_html())

"""The edition's own styles reach every page as one stylesheet (build_scripts/stylesheets.py):
each page links Material's two and ours, and ours holds every file of ``extra_css`` in order,
under a name that changes with its content."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from build_scripts import stylesheets

from _built import ROOT, built_site, pages

LINK = re.compile(r'<link rel="stylesheet" href="([^"]+)"')


def sources() -> list[str]:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    # mkdocs.yml has tags (!ENV) that safe_load refuses: read only the list needed here.
    block = text.split("\nextra_css:\n", 1)[1].split("\n\n", 1)[0]
    return [str(s) for s in yaml.safe_load(block)]


def test_every_page_links_one_stylesheet_of_ours() -> None:
    site = built_site()
    names = set()
    for page in pages(site):
        links = LINK.findall(page.read_text(encoding="utf-8"))
        ours = [h for h in links if "/bundle/" in h]
        assert len(ours) == 1, (page, links)
        assert len(links) == 3, (page, links)  # Material's main and palette, and ours
        names.add(ours[0].rsplit("/", 1)[-1])
    assert len(names) == 1, names
    bundle = site / stylesheets.FOLDER / names.pop()
    text = bundle.read_text(encoding="utf-8")
    at = [text.index(f"/* ---- {src} ---- */") for src in sources()]
    assert at == sorted(at), "the files keep their order"
    for src in sources():
        body = (ROOT / "docs" / src).read_text(encoding="utf-8").rstrip()
        assert body in text, src


def test_the_files_are_joined_in_order_and_imports_refused(tmp_path: Path) -> None:
    (tmp_path / "a.css").write_text("a { color: red; }\n")
    (tmp_path / "b.css").write_text("b { color: blue; }\n")
    one = stylesheets.bundle_text(tmp_path, ["a.css", "b.css"])
    two = stylesheets.bundle_text(tmp_path, ["b.css", "a.css"])
    assert one != two and one.index("a { color") < one.index("b { color")
    (tmp_path / "c.css").write_text('@import "a.css";\n')
    with pytest.raises(ValueError):
        stylesheets.bundle_text(tmp_path, ["c.css"])

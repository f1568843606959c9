"""``bench/audit.py --without-board`` audits each chapter again without its board's scripts:
what it removes from a built page is exactly what the board adds to it (board_embed.py), and
nothing of the text, the theme or the board's static diagram."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from _built import ROOT, built_site

sys.path.insert(0, str(ROOT / "bench"))

import audit  # noqa: E402


def test_a_chapter_loses_its_board_scripts_and_nothing_else() -> None:
    site = built_site()
    page = (site / "the-kings" / "index.html").read_text(encoding="utf-8")
    stripped = audit.without_board(page)
    # it had them: the engine's start in the head and board.js
    assert "window.__cadoganEngine" in page
    assert re.search(r'<script type="module" async src="[^"]*board\.js">', page)
    # and has none of them now
    assert "__cadoganEngine" not in stripped and "modulepreload" not in stripped
    assert "board.js" not in stripped and "board-worker" not in stripped
    # the rest is the page as built, in order: the text, the theme's scripts, the diagram
    assert 'class="cadogan-board"' in stripped and "bundle." in stripped
    assert len(page) - len(stripped) < 4000, len(page) - len(stripped)
    kept = re.sub(r"<script>\(function\(\)\{if\(window\.__cadoganEngine.*?</script>", "",
                  page, flags=re.S)
    assert stripped == re.sub(r'<script type="module" async src="[^"]*board\.js"></script>', "",
                              kept)


def test_pages_without_a_board_are_copied_unchanged(tmp_path: Path) -> None:
    site = built_site()
    home = (site / "index.html").read_text(encoding="utf-8")
    assert audit.without_board(home) == home
    dst = tmp_path / "copy"
    changed = audit.copy_without_boards(site, dst)
    chapters = [p for p in site.glob("*/index.html") if "window.__cadoganEngine" in
                p.read_text(encoding="utf-8")]
    assert changed == len(chapters) >= 47
    assert (dst / "index.html").read_text(encoding="utf-8") == home
    assert not list(dst.rglob("*.gz")) and not list(dst.rglob("*.br"))


def test_the_lcp_element_is_read_from_lighthouses_report() -> None:
    """The audit names each page's LCP element (which image the page should fetch first):
    Lighthouse 12 gives it as the first table of the audit's list, its row a node."""
    node = {"type": "node", "selector": "div.cadogan-figures > figure#diagram-the-clock > "
            "picture > img", "snippet": "<img>"}
    phases = {"type": "table", "items": [{"phase": "TTFB", "timing": 458.2}]}
    report = {"audits": {"largest-contentful-paint-element": {"details": {
        "type": "list", "items": [{"type": "table", "items": [{"node": node}]}, phases]}}}}
    assert audit.lcp_element(report) == node["selector"]
    assert audit.lcp_element({"audits": {}}) == ""
    assert audit.lcp_element({"audits": {"largest-contentful-paint-element": {
        "details": {"items": [phases]}}}}) == ""

"""Heading structure: every built page has one h1 and never skips a level going down (axe's
heading-order), so a screen reader's outline of a chapter is the chapter's own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "site"
PAGES = sorted(p for p in SITE.glob("**/index.html") if "assets" not in p.parts) \
    if SITE.exists() else []


def levels(html: str) -> list[int]:
    article = html.split('<article', 1)[-1].split("</article>", 1)[0]
    return [int(n) for n in re.findall(r"<h([1-6])\b", article)]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.parent.relative_to(SITE).as_posix())
def test_headings_never_skip_a_level(page: Path) -> None:
    hs = levels(page.read_text(encoding="utf-8"))
    assert hs and hs[0] == 1 and hs.count(1) == 1, hs
    for a, b in zip(hs, hs[1:]):
        assert b <= a + 1, f"h{a} followed by h{b}"


def test_the_check_sees_a_skip() -> None:
    assert levels("<article><h1>a</h1><h3>b</h3></article>") == [1, 3]

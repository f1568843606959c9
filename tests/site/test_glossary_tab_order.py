"""Glossary terms: every use has its link and tooltip, but only the first use of each term on
a page is a stop of the keyboard's Tab order."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

import engine

ROOT = Path(__file__).resolve().parents[2]
TAG = re.compile(r'<a class="gloss [^>]*>')


@pytest.mark.parametrize("slug", sorted({cls.chapter() for cls in engine.GAMES.values()}))
def test_one_tab_stop_per_term(slug: str) -> None:
    page = ROOT / "site" / slug / "index.html"
    if not page.exists():
        pytest.skip("site/ not built (make test builds it first)")
    tags = TAG.findall(page.read_text(encoding="utf-8"))
    assert tags, "no glossary term marked"
    stops = Counter(re.search(r'data-term="([^"]+)"', t).group(1)  # type: ignore[union-attr]
                    for t in tags if 'tabindex="-1"' not in t)
    terms = {re.search(r'data-term="([^"]+)"', t).group(1) for t in tags}  # type: ignore[union-attr]
    assert set(stops) == terms, "a term has no keyboard stop"
    assert max(stops.values()) == 1, stops.most_common(3)

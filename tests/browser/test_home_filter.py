"""The home page lists every game with its plate (or drawn tableau) and number of packs, and a
reader can filter the list by packs; without JavaScript every game is listed and no control
is shown."""

from __future__ import annotations

from typing import Any

import pytest

import engine

from .conftest import Watch, open_context

pytestmark = pytest.mark.browser

#: The games with a chapter of their own (The House in the Wood is played on La Belle Lucie's).
CHAPTERS = [cls for slug, cls in engine.GAMES.items() if cls.chapter() == slug]


def test_the_games_filter_by_number_of_packs(browser: Any, site: str) -> None:
    watch = Watch()
    ctx = open_context(browser, watch)
    page = ctx.new_page()
    page.goto(site)
    entries = page.locator("ul.chapter-list > li.chapter-entry")
    total = entries.count()
    assert total >= len(CHAPTERS)
    form = page.locator("form.chapter-filter")
    form.wait_for(state="visible")
    assert f"Showing {total} of {total}" in form.locator("[role=status]").inner_text()
    packs = {n: sum(1 for c in CHAPTERS if c.packs == n) for n in (1, 2, 4)}
    for n, count in packs.items():
        if not count:
            continue
        form.locator(f"input[value='{n}']").check()
        shown = page.locator("ul.chapter-list > li.chapter-entry:visible")
        assert shown.count() >= count
        assert set(shown.evaluate_all("els => els.map(e => e.dataset.packs)")) == {str(n)}
        assert f"Showing {shown.count()} of {total}" in form.locator("[role=status]").inner_text()
    form.locator("input[value='all']").check()
    assert page.locator("ul.chapter-list > li.chapter-entry:visible").count() == total
    ctx.close()
    watch.check()


def test_without_javascript_every_game_is_listed(browser: Any, site: str) -> None:
    watch = Watch()
    ctx = open_context(browser, watch, java_script_enabled=False)
    page = ctx.new_page()
    page.goto(site)
    assert not page.locator("form.chapter-filter").is_visible()
    assert page.locator("ul.chapter-list > li.chapter-entry:visible").count() >= len(CHAPTERS)
    ctx.close()
    watch.check()

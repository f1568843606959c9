"""How often each game comes out, on the home page and the odds page (issues 12 and 14): the
games' filter can also show only the games that come out often, sometimes or seldom (the
careful player's share, from the committed odds), alone or with the packs; the odds page's
table sorts by any column from the keyboard and keeps the build's order, by difficulty,
without JavaScript."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from build_scripts import odds, odds_pages

from .conftest import Watch, open_context

pytestmark = pytest.mark.browser

SUMMARY = odds.load_summary()
#: The games with a chapter (and a home-page entry) of their own; the two-pack games of La
#: Belle Lucie are played on her page.
CHAPTERS = [s for s in engine.GAMES if engine.GAMES[s].chapter() == s]


def expected_band(slug: str) -> str:
    return odds_pages.band(odds_pages.game_summary(SUMMARY, slug).get(""))


def test_the_games_filter_by_how_often_they_come_out(browser: Any, site: str) -> None:
    watch = Watch()
    ctx = open_context(browser, watch)
    page = ctx.new_page()
    page.goto(site)
    form = page.locator("form.chapter-filter")
    form.wait_for(state="visible")
    entries = page.locator("ul.chapter-list > li.chapter-entry")
    total = entries.count()
    bands = dict(zip(entries.evaluate_all("els => els.map(e => e.dataset.chapter)"),
                     entries.evaluate_all("els => els.map(e => e.dataset.odds)")))
    assert set(bands) == set(CHAPTERS)
    for slug in CHAPTERS:
        assert bands[slug] == expected_band(slug), slug
    present = sorted(set(bands.values()))
    assert present
    for b in present:
        form.locator(f"input[name=chapter-odds][value='{b}']").check()
        shown = page.locator("ul.chapter-list > li.chapter-entry:visible")
        want = sum(1 for v in bands.values() if v == b)
        assert shown.count() == want
        assert set(shown.evaluate_all("els => els.map(e => e.dataset.odds)")) == {b}
        assert f"Showing {want} of {total}" in form.locator("[role=status]").inner_text()
    # Both filters at once: a game must meet both.
    b = present[0]
    packs = entries.evaluate_all("els => els.map(e => e.dataset.packs)")
    form.locator(f"input[name=chapter-packs][value='{packs[0]}']").check()
    form.locator(f"input[name=chapter-odds][value='{b}']").check()
    shown = page.locator("ul.chapter-list > li.chapter-entry:visible")
    both = sum(1 for p, v in zip(packs, bands.values()) if p == packs[0] and v == b)
    assert shown.count() == both
    form.locator("input[name=chapter-odds][value='any']").check()
    form.locator("input[name=chapter-packs][value='all']").check()
    assert page.locator("ul.chapter-list > li.chapter-entry:visible").count() == total
    ctx.close()
    watch.check()


def rows(page: Any) -> list[str]:
    return list(page.locator("#odds-games tbody tr").evaluate_all(
        "els => els.map(e => e.dataset.game)"))


def test_the_odds_table_sorts_by_any_column(browser: Any, site: str) -> None:
    watch = Watch()
    ctx = open_context(browser, watch)
    page = ctx.new_page()
    page.goto(site + "odds/")
    assert rows(page) == odds_pages.games_by_difficulty(SUMMARY)
    game = page.locator("#odds-games thead th").nth(0)
    button = game.locator("button.cadogan-sort")
    button.focus()
    page.keyboard.press("Enter")
    titles = {s: engine.GAMES[s].title for s in engine.GAMES}
    assert game.get_attribute("aria-sort") == "ascending"
    got = [titles[s] for s in rows(page)]
    assert page.evaluate("ts => ts.every((t, i) => i === 0 || ts[i - 1].localeCompare(t) <= 0)",
                         got), got
    page.keyboard.press("Enter")
    assert game.get_attribute("aria-sort") == "descending"
    rank = page.locator("#odds-games thead th").nth(1)
    rank.locator("button").click()
    assert rank.get_attribute("aria-sort") == "ascending"
    assert game.get_attribute("aria-sort") is None
    assert rows(page) == odds_pages.games_by_difficulty(SUMMARY)
    ctx.close()
    watch.check()


def test_without_javascript_the_table_keeps_its_order_and_the_filter_is_hidden(
        browser: Any, site: str) -> None:
    watch = Watch()
    ctx = open_context(browser, watch, java_script_enabled=False)
    page = ctx.new_page()
    page.goto(site + "odds/")
    assert rows(page) == odds_pages.games_by_difficulty(SUMMARY)
    assert page.locator("#odds-games button").count() == 0
    assert page.locator("#odds-chart img").get_attribute("alt")
    page.goto(site)
    assert not page.locator("fieldset.chapter-filter__odds").is_visible()
    assert page.locator(".chapter-entry__odds:visible").count() >= len(CHAPTERS)
    ctx.close()
    watch.check()

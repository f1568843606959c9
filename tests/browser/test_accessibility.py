"""Accessibility of every page, in light and dark: axe-core (npm, pinned) finds no violation,
with the boards ready and again with a refusal showing; and the palette follows the system
setting until the reader's toggle chooses."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from .conftest import Watch, open_context
from .test_every_chapter import BOOT_TIMEOUT, Board

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
RUN_AXE = """async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return r.violations.map(v => ({id: v.id, impact: v.impact,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' :: ' +
                                     (n.failureSummary || '').slice(0, 300))}));
}"""


def pages(site: str) -> list[str]:
    with urllib.request.urlopen(site + "sitemap.xml") as r:
        locs = re.findall(r"<loc>([^<]+)</loc>", r.read().decode())
    assert locs, "the sitemap lists no page"
    # the pages' paths below the site's address, wherever the site was built for
    prefix = locs[0][:locs[0].index("/", len("http://")) + 1]
    return [site + loc[len(prefix):] for loc in locs]


# Let transitions end first (the header's title fades in when a refusal scrolls the page):
# axe measures colours as they are drawn, so a half-faded title would read as low contrast.
SETTLE = """Promise.all(document.getAnimations()
  .filter(a => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
  .map(a => a.finished.catch(() => null)))"""


def axe(page: Any) -> list[dict[str, Any]]:
    page.evaluate(SETTLE)
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(RUN_AXE)
    return found


def show_a_refusal(board: Board) -> None:
    src, dst = board.a_refused_step()
    board.step(src, dst)
    board.page.locator(f"{board.sel} .cb-message.cb-refusal").wait_for(
        state="visible", timeout=10_000)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_axe_violation_on_any_page(browser: Any, site: str, scheme: str) -> None:
    watch = Watch()
    ctx = open_context(browser, watch, color_scheme=scheme)
    page = ctx.new_page()
    problems: dict[str, Any] = {}
    for url in pages(site):
        page.goto(url)
        want = "slate" if scheme == "dark" else "default"
        assert page.get_attribute("body", "data-md-color-scheme") == want, url
        boards = page.locator(".cadogan-board[data-game]")
        if boards.count():
            page.wait_for_selector(".cadogan-board[data-engine='ready']", timeout=BOOT_TIMEOUT)
        found = axe(page)
        if found:
            problems[url] = found
        if boards.count():
            show_a_refusal(Board(page, boards.first.get_attribute("data-game")))
            found = axe(page)
            if found:
                problems[url + " (refusal showing)"] = found
    ctx.close()
    watch.check()
    assert problems == {}, json.dumps(problems, indent=1)[:8000]


def test_the_palette_follows_the_system_until_toggled(browser: Any, site: str) -> None:
    watch = Watch()
    ctx = open_context(browser, watch, color_scheme="dark")
    page = ctx.new_page()
    page.goto(site)
    assert page.get_attribute("body", "data-md-color-scheme") == "slate"
    toggle = page.locator("form[data-md-component=palette] label:visible").first
    assert "light" in (toggle.get_attribute("title") or toggle.get_attribute("aria-label")
                       or "").lower()
    toggle.click()
    page.wait_for_function("document.body.dataset.mdColorScheme === 'default'")
    page.reload()  # the reader's choice is kept
    assert page.get_attribute("body", "data-md-color-scheme") == "default"
    ctx.close()
    light = open_context(browser, watch, color_scheme="light")
    p2 = light.new_page()
    p2.goto(site)
    assert p2.get_attribute("body", "data-md-color-scheme") == "default"
    light.close()
    watch.check()


def test_forced_colours_keep_suits_and_the_pack_visible(browser: Any, site: str) -> None:
    """In forced-colours mode the cards keep their colours (red and black suits, the patterned
    back of the pack) and the picked-up mark is an outline, which forced colours keep."""
    watch = Watch()
    ctx = open_context(browser, watch, forced_colors="active")
    page = ctx.new_page()
    page.goto(site + "the-sultan/")
    board = Board(page, "the-sultan")
    page.wait_for_selector(f"{board.sel}[data-engine='ready']", timeout=BOOT_TIMEOUT)
    back = page.locator(f"{board.sel} .cb-card.cb-back").first
    assert "gradient" in back.evaluate("e => getComputedStyle(e).backgroundImage")
    reds = page.locator(f"{board.sel} .cb-card:not(.cb-back)").evaluate_all(
        "cs => cs.map(c => getComputedStyle(c.querySelector('.cb-face') || c).color)")
    assert len(set(reds)) >= 2, "red and black suits look the same"
    src = next(iter(board.view()["movable"]))
    board.card(src).click()
    picked = page.locator(f"{board.sel} .cb-card.cb-selected")
    assert picked.evaluate("e => getComputedStyle(e).outlineStyle") != "none"
    ctx.close()
    watch.check()

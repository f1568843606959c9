"""Accessibility of every page, in light and dark: axe-core (npm, pinned) finds no violation,
with the boards ready and again with a refusal showing (a test for each page and width), by
its default rules and by WCAG 2.2's (target size, 2.5.8, which axe leaves off by default), at
1280 pixels and on a 390-pixel phone; and the palette follows the system setting until the
reader's toggle chooses."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import Watch, open_context
from .test_every_chapter import BOOT_TIMEOUT, Board

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
# axe's default rules, and every rule it tags as WCAG 2.2 A or AA: those are off by default
# (in axe-core 4.14, 'target-size' alone, 2.5.8 Target Size (Minimum), 24 by 24 CSS pixels or
# spaced as much). Enabled by tag, so a WCAG 2.2 rule a later axe adds is run too.
WCAG22 = "() => axe.getRules(['wcag22a', 'wcag22aa']).map(r => r.ruleId)"
RUN_AXE = """async () => {
  const rules = Object.fromEntries(
    axe.getRules(['wcag22a', 'wcag22aa']).map(r => [r.ruleId, {enabled: true}]));
  const r = await axe.run(document, {resultTypes: ['violations'], rules});
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


# Draw what the page leaves undrawn until the reader scrolls near it (the notes, the ledger,
# the glossary: content-visibility: auto), as it is drawn for a reader who has scrolled there:
# axe cannot judge the colours of what is not drawn. Each page is checked undrawn first, as
# it loads (and as Lighthouse's axe sees it): undrawn, that content is laid out at full height
# within a box of estimated height, and until its box clipped it (apparatus.css), axe found
# the rules ledger's table (up to 25,000 px on a phone) lying over the footer's text.
DRAW_ALL = """document.querySelectorAll('*').forEach((e) => {
  if (getComputedStyle(e).contentVisibility === 'auto') e.style.contentVisibility = 'visible';
})"""


# How far the rules ledger's table reaches below the ledger's box (px; not above 0 when the
# box's estimated height holds it, as apparatus.css means it to while the ledger is undrawn).
LEDGER_OVERFLOW = """() => {
  const l = document.querySelector('.cadogan-ledger');
  const t = l && l.querySelector('table');
  return t ? t.getBoundingClientRect().bottom - l.getBoundingClientRect().bottom : 0;
}"""


def axe(page: Any, draw_all: bool = True) -> list[dict[str, Any]]:
    if draw_all:
        page.evaluate(DRAW_ALL)
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


def page_paths() -> list[str]:
    """The site's pages as paths below its address ("" for the home page), one per source
    page (a test below checks them against the built site's sitemap)."""
    return sorted("" if md.stem == "index" else f"{md.stem}/"
                  for md in (ROOT / "docs").glob("*.md"))


PAGES = page_paths()


def test_the_pass_covers_every_page_of_the_sitemap(site: str) -> None:
    assert sorted(url[len(site):] for url in pages(site)) == PAGES


@pytest.fixture(scope="session")
def axe_page(browser: Any) -> Iterator[Callable[[int], tuple[Any, Watch]]]:
    """One browser page per width for the passes below, on this worker, kept from page to
    page (the runtime cached between chapters, as for a reader going through the book)."""
    made: dict[int, tuple[Any, Any, Watch]] = {}

    def get(width: int) -> tuple[Any, Watch]:
        if width not in made:
            watch = Watch()
            ctx = open_context(browser, watch, color_scheme="light")
            page = ctx.new_page()
            page.set_viewport_size({"width": width, "height": 900 if width == 1280 else 844})
            made[width] = (ctx, page, watch)
        _, page, watch = made[width]
        return page, watch

    yield get
    for ctx, _, _ in made.values():
        ctx.close()


def toggle_palette(page: Any) -> str:
    """Switch the palette with its toggle, as a reader does; returns the scheme it shows."""
    before = page.get_attribute("body", "data-md-color-scheme")
    page.locator("form[data-md-component=palette] label:visible").first.click()
    page.wait_for_function(f"document.body.dataset.mdColorScheme !== '{before}'")
    return str(page.get_attribute("body", "data-md-color-scheme"))


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("width", [1280, 390])
def test_no_axe_violation_on_any_page(axe_page: Callable[[int], tuple[Any, Watch]],
                                      site: str, width: int, path: str) -> None:
    """Every page at 1280 pixels in both schemes (the system's light, then dark by the
    palette's toggle), with the boards ready, and again with a refusal showing; on the phone
    (390 by 844, the narrowest layout the site supports) in the light scheme with the boards
    ready, since the colours do not change with the width but the layout, and so the
    targets' sizes and spacing, do (a refusal's message is the same text at any width)."""
    page, watch = axe_page(width)
    url = site + path
    page.goto(url)
    assert page.get_attribute("body", "data-md-color-scheme") == "default", url
    boards = page.locator(".cadogan-board[data-game]")
    if boards.count():
        page.wait_for_selector(".cadogan-board[data-engine='ready']", timeout=BOOT_TIMEOUT)
    problems: dict[str, Any] = {}

    def check(label: str, draw_all: bool = True) -> None:
        found = axe(page, draw_all)
        if found:
            problems[f"{url} ({label})"] = found

    check("light, as loaded", draw_all=False)
    assert page.evaluate(LEDGER_OVERFLOW) <= 0, "the ledger's estimated box is too short"
    check("light")
    wcag22 = page.evaluate(WCAG22)  # the rules run beyond the default ones, as axe names them
    assert "target-size" in wcag22, wcag22
    if width == 1280:
        assert toggle_palette(page) == "slate"
        try:
            check("dark")
            if boards.count():
                show_a_refusal(Board(page, boards.first.get_attribute("data-game")))
                check("dark, refusal showing")
                assert toggle_palette(page) == "default"
                check("light, refusal showing")
            else:
                assert toggle_palette(page) == "default"
        finally:  # the reader's choice is kept for the page's next test: give the system's back
            if page.get_attribute("body", "data-md-color-scheme") != "default":
                toggle_palette(page)
    try:
        watch.check()
    finally:  # the page goes on to the next test: what it saw so far was this test's
        watch.off_origin.clear()
        watch.console_errors.clear()
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
    picked = page.locator(f"{board.sel} .cb-card[data-selected]")
    assert picked.evaluate("e => getComputedStyle(e).outlineStyle") != "none"
    ctx.close()
    watch.check()

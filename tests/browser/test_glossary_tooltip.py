"""The glossary's tooltips in headless Chromium: a term's definition appears on hover and on
keyboard focus, stays while the pointer is on it, goes on Escape, and keeps working after
Material's instant navigation. Also: a gap's reason, and printing a chapter."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from build_scripts import glossary

pytestmark = pytest.mark.browser

SLUG = "la-nivernaise"
DEFINITIONS = {t.id: f"{t.term}. {t.definition}" for t in glossary.load()}


@pytest.fixture
def page(context: Any, site: str) -> Iterator[Any]:
    p = context.new_page()
    p.goto(site + f"{SLUG}/")
    p.wait_for_selector(".transcription a.gloss")
    yield p


def tooltip(page: Any) -> Any:
    return page.locator("#ed-tooltip")


def shown_text(page: Any) -> str:
    tip = tooltip(page)
    tip.wait_for(state="visible", timeout=3000)
    return str(tip.inner_text())


def test_definition_appears_on_hover(page: Any) -> None:
    term = page.locator(".transcription a.gloss[data-term='available']").first
    assert tooltip(page).count() == 0 or not tooltip(page).is_visible()
    term.hover()
    assert shown_text(page) == DEFINITIONS["available"]
    # Placed next to the word, not somewhere else on the page.
    t, w = tooltip(page).bounding_box(), term.bounding_box()
    assert abs(t["y"] - (w["y"] + w["height"])) < 30 or abs(w["y"] - (t["y"] + t["height"])) < 30
    assert t["x"] <= w["x"] + w["width"] and w["x"] <= t["x"] + t["width"]
    # It is hoverable (the pointer can move onto it) and goes when the pointer leaves both.
    page.mouse.move(t["x"] + t["width"] / 2, t["y"] + t["height"] / 2, steps=4)
    page.wait_for_timeout(400)
    assert tooltip(page).is_visible()
    page.mouse.move(5, 890)
    tooltip(page).wait_for(state="hidden", timeout=3000)


def test_definition_appears_on_keyboard_focus(page: Any) -> None:
    # Start from the page's first heading and Tab forward, as a keyboard user would.
    page.locator("h1").first.click()
    focused = None
    for _ in range(80):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            "() => { const a = document.activeElement;"
            " return a && a.matches('.transcription a.gloss') ? a.dataset.term : null; }")
        if focused:
            break
    assert focused, "Tab never reached a glossary term in the author's text"
    assert shown_text(page) == DEFINITIONS[focused]
    described = page.evaluate(
        "() => document.getElementById("
        "document.activeElement.getAttribute('aria-describedby')).textContent")
    assert described == DEFINITIONS[focused]
    page.keyboard.press("Escape")
    tooltip(page).wait_for(state="hidden", timeout=3000)
    # The next term gets its own definition.
    page.keyboard.press("Tab")
    nxt = page.evaluate("() => document.activeElement.dataset.term || null")
    if nxt:
        assert shown_text(page) == DEFINITIONS[nxt]


def test_terms_in_editorial_notes_have_tooltips_too(page: Any) -> None:
    term = page.locator(".admonition.editorial a.gloss").first
    term.scroll_into_view_if_needed()
    term.focus()
    assert shown_text(page) == DEFINITIONS[term.get_attribute("data-term")]


def nav_link(page: Any, slug: str) -> Any:
    # Material makes the navigation's links absolute when instant navigation is on.
    return page.locator(f".md-sidebar--primary a.md-nav__link[href$='/{slug}/']").first


def test_tooltips_survive_instant_navigation(context: Any, site: str) -> None:
    p = context.new_page()
    p.goto(site)
    # Material intercepts a link only once it has read the sitemap: on a loaded machine a
    # click straight after the load would be a plain (full) navigation.
    p.wait_for_load_state("networkidle")
    p.evaluate("() => { window.__sameDocument = true; }")
    nav_link(p, SLUG).click()
    p.wait_for_url(f"**/{SLUG}/")
    p.wait_for_selector(".transcription a.gloss")
    assert p.evaluate("() => window.__sameDocument === true"), "navigation was not instant"
    p.locator(".transcription a.gloss[data-term='packet']").first.hover()
    assert shown_text(p) == DEFINITIONS["packet"]
    # And after navigating on to another chapter and back.
    p.mouse.move(5, 890)
    nav_link(p, "the-empress-of-india").click()
    p.wait_for_url("**/the-empress-of-india/")
    # the new page in place (the address changes first; its arrival hides any tooltip)
    p.wait_for_selector(".cadogan-board[data-game='the-empress-of-india']")
    tooltip(p).wait_for(state="hidden", timeout=3000)
    term = p.locator(".transcription a.gloss").first
    term.hover()
    assert shown_text(p) == DEFINITIONS[term.get_attribute("data-term")]
    assert p.evaluate("() => window.__sameDocument === true")


def test_a_gap_shows_its_reason(context: Any, site: str) -> None:
    p = context.new_page()
    p.goto(site + "principles/")
    gap = p.locator(".convention-example .gap").first
    gap.scroll_into_view_if_needed()
    gap.focus()
    assert shown_text(p).startswith("Gap in the text: ")


def test_printing_a_chapter_gives_text_plate_and_notes(page: Any) -> None:
    page.emulate_media(media="print")
    visible = {sel: page.locator(sel).first.is_visible() for sel in (
        ".transcription", "figure.cadogan-plate", "figure.cadogan-diagram-figure",
        ".admonition.editorial", ".md-header", ".md-sidebar--primary", ".cadogan-board",
        ".cadogan-board .cb-table", ".cadogan-board .cb-controls", "fieldset.cadogan-option",
        ".cadogan-reader__switch", "h2#la-nivernaise-board", ".md-footer", ".facsimile")}
    assert visible[".transcription"] and visible[".admonition.editorial"]
    assert visible["figure.cadogan-plate"] or page.locator(".cadogan-plate--missing").count()
    assert visible["figure.cadogan-diagram-figure"]
    # The board prints its position as a diagram, under its heading, with nothing to click.
    assert visible[".cadogan-board .cb-table"] and visible["h2#la-nivernaise-board"]
    for hidden in (".md-header", ".md-sidebar--primary", ".cadogan-board .cb-controls",
                   "fieldset.cadogan-option", ".cadogan-reader__switch",
                   ".md-footer", ".facsimile"):
        assert not visible[hidden], f"{hidden} is printed"
    # The page really prints (Chromium's PDF of it is not empty).
    assert len(page.pdf(format="A4")) > 10_000

"""An occasional action (a choice the rules give in a rare case) is shown only while it can
be played: Napoleon's Square's Note, whose two kings of a suit the player chooses between
(NS-8)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine.napoleons_square import SLIPS

pytestmark = pytest.mark.browser

SLUG = "napoleons-square"
SEL = f".cadogan-board[data-game='{SLUG}']"


def _note_deal() -> int:
    """The first deal whose square the Note applies to (the slip is the default remedy)."""
    for deal in range(1, 200):
        actions = engine.view_of(engine.new_game(SLUG, deal))["actions"]
        if any(a["enabled"] for a in actions if a["move"] in SLIPS):
            return deal
    raise AssertionError("no deal in 1..199 needs the Note")


def _shown(page: Any) -> list[bool]:
    return [page.locator(f"{SEL} button[data-cb-action='{m}']").is_visible() for m in SLIPS]


def test_the_slip_buttons_show_only_while_the_choice_is_open(context: Any, site: str) -> None:
    page = context.new_page()
    page.goto(site + f"{SLUG}/")
    page.wait_for_selector(f"{SEL}[data-engine='ready']", timeout=90_000)
    assert _shown(page) == [False, False]  # deal 1: the Note does not apply

    deal = _note_deal()
    page.goto(site + f"{SLUG}/?game={SLUG}&deal={deal}")
    page.wait_for_selector(f"{SEL}[data-engine='ready']", timeout=90_000)
    page.wait_for_function(
        f"document.querySelector(\"{SEL}\").cadoganBoard.view.deal === {deal}", timeout=10_000)
    assert _shown(page) == [True, True]
    page.locator(f"{SEL} button[data-cb-action='{SLIPS[0]}']").click()
    page.wait_for_function(
        f"document.querySelector(\"{SEL}\").cadoganBoard.view.played === 1", timeout=10_000)
    if not any(a["enabled"] for a in page.evaluate(
            f"document.querySelector(\"{SEL}\").cadoganBoard.view.actions")
            if a["move"] in SLIPS):
        assert _shown(page) == [False, False]
    page.locator(f"{SEL} button[data-cb-cmd='undo']").click()
    page.wait_for_function(
        f"document.querySelector(\"{SEL}\").cadoganBoard.view.played === 0", timeout=10_000)
    assert _shown(page) == [True, True]

"""Help at the table in headless Chromium (issue 12): the Hint button, "Can this deal still
be won?" (yes, with its line played move by move to a win; no, proven), and Cancel, which
leaves the board responsive. On La Nivernaise's page, positions opened through share links."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

import engine
from engine.solver import Budget, solve

from tests.web.test_help_ops import three_from_a_win

from .conftest import Watch, open_context
from .test_board_table import (
    BOARD,
    BOARD_JS,
    BOOT_TIMEOUT,
    READY,
    SLUG,
    message,
    share_query,
    view,
    wait_for,
)

pytestmark = pytest.mark.browser

HELPBOX = f"{BOARD} [data-cb=helpbox]"


def proven_lost() -> engine.Game:
    """A position of a random game that is not over but that the solver proves lost within
    a few dozen positions."""
    for deal in range(1, 60):
        g = engine.new_game(SLUG, deal)
        rng = random.Random(deal)
        for n in range(300):
            legal = g.legal_moves()
            if not legal or g.outcome() is not None:
                break
            g.play(rng.choice(legal))
            if n > 15 and n % 5 == 0 and g.outcome() is None:
                found = solve(g, Budget(nodes=120))
                if found.verdict == "lost":
                    return g
    pytest.skip("no quickly proven loss found")


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    watch = Watch()
    ctx = open_context(browser, watch)
    yield ctx.new_page()
    ctx.close()
    watch.check()


def open_game(page: Any, site: str, game: engine.Game) -> None:
    page.goto(site + f"{SLUG}/" + share_query(game))
    page.wait_for_selector(READY, timeout=BOOT_TIMEOUT)
    wait_for(page, f"b.position && b.view.played === {len(game.move_stack)}")


def test_hint_shows_the_winning_move(page: Any, site: str) -> None:
    open_game(page, site, three_from_a_win())
    page.locator(f"{BOARD} button[data-cb-help=hint]").click()
    wait_for(page, "b.root.getAttribute('data-hint') === 'f0-k3'", timeout=30_000)
    said = message(page)
    assert said.startswith("Hint:") and "three of clubs" in said, said
    assert page.locator(f"{BOARD} .cb-card.cb-hinted[data-ref='f0']").count() == 1
    assert page.locator(f"{BOARD} .cb-pile.cb-hint-target[data-pile='k3']").count() == 1
    stats = page.inner_text(f"{BOARD} [data-cb=stats]")
    assert "1 hint taken" in stats, stats
    # the mark goes with the move
    page.evaluate(f"{BOARD_JS}.play('f0-k3')")
    wait_for(page, "b.view.played === 1")
    assert page.locator(f"{BOARD} .cb-hinted").count() == 0
    # the H key asks again; the next move of the line comes at once
    page.locator(f"{BOARD} [data-cb=table]").click(position={"x": 2, "y": 2})
    page.keyboard.press("h")
    wait_for(page, "b.root.getAttribute('data-hint') === 'f1-k3'", timeout=30_000)


def test_a_winning_line_is_played_move_by_move_to_a_win(page: Any, site: str) -> None:
    open_game(page, site, three_from_a_win())
    page.locator(f"{BOARD} button[data-cb-help=winnable]").click()
    wait_for(page, "b.root.getAttribute('data-help-verdict') === 'won'", timeout=30_000)
    assert message(page).startswith("Yes"), message(page)
    play = page.locator(f"{HELPBOX} button[data-cb-help=line]")
    for n in (1, 2, 3):
        play.click()
        wait_for(page, f"b.view.played === {n}")
    assert view(page)["outcome"] == "won"
    assert page.locator(HELPBOX).is_hidden()
    # each was an ordinary move: Undo takes the last back
    page.locator(f"{BOARD} button[data-cb-cmd=undo]").click()
    wait_for(page, "b.view.played === 2 && !b.view.outcome")


def test_a_lost_deal_is_proven_lost(page: Any, site: str) -> None:
    open_game(page, site, proven_lost())
    page.locator(f"{BOARD} button[data-cb-help=winnable]").click()
    wait_for(page, "b.root.getAttribute('data-help-verdict') === 'lost'", timeout=60_000)
    assert message(page).startswith("No:"), message(page)
    page.locator(f"{BOARD} button[data-cb-help=hint]").click()
    wait_for(page, "b.root.getAttribute('data-help-verdict') === 'lost' && "
                   "!b.root.hasAttribute('data-help')", timeout=60_000)
    wait_for(page, "b.parts.message.textContent.indexOf('No move helps') === 0",
             timeout=30_000)


def test_cancel_leaves_the_board_responsive(page: Any, site: str) -> None:
    page.goto(site + f"{SLUG}/")
    page.wait_for_selector(READY, timeout=BOOT_TIMEOUT)
    start = view(page)["played"]
    page.locator(f"{BOARD} button[data-cb-help=winnable]").click()
    wait_for(page, "b.root.getAttribute('data-help') === 'running'")
    assert page.locator(f"{HELPBOX} button[data-cb-help=cancel]").is_visible()
    page.wait_for_timeout(700)
    # the page is not frozen: a script runs at once
    assert page.evaluate("1 + 1") == 2
    page.locator(f"{HELPBOX} button[data-cb-help=cancel]").click()
    wait_for(page, "!b.root.hasAttribute('data-help')", timeout=5_000)
    assert "cancelled" in message(page)
    # a move is played at once after
    v = view(page)
    singles = [m["m"] for m in v["moves"] if len(m["steps"]) == 1]
    move = singles[0] if singles else "deal"
    page.evaluate(f"{BOARD_JS}.play({json.dumps(move)})")
    wait_for(page, f"b.view.played === {start + 1}", timeout=5_000)
    # and a move played while a search runs is played at once too (the search stops)
    page.locator(f"{BOARD} button[data-cb-help=winnable]").click()
    wait_for(page, "b.root.getAttribute('data-help') === 'running'")
    page.evaluate(f"{BOARD_JS}.undo()")
    wait_for(page, f"b.view.played === {start} && !b.root.hasAttribute('data-help')",
             timeout=5_000)

"""engine/web.py's help ops: the solver at the table, searched in slices."""

from __future__ import annotations

from typing import Any

import engine
from engine.web import Handler


def three_from_a_win() -> engine.Game:
    """Every card on the foundations but three clubs on the Flanks: the ace and three of
    clubs on the first (the three on top), the two on the second; three moves win, in one
    order only (f0-k3, f1-k3, f0-k3)."""
    from tests.engine.fixtures import make_game
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    piles = {"f0": "AC 3C", "f1": "2C"}
    for j, s in enumerate("SHDC"):
        piles[f"a{j}"] = " ".join(r + s for r in ranks)
        desc = [r + s for r in reversed(ranks)]
        piles[f"k{j}"] = " ".join(desc[:-3] if s == "C" else desc)
    return make_game("la-nivernaise", piles)


def ok(h: Handler, **req: Any) -> dict[str, Any]:
    r = h.handle_request({"id": 1, **req})
    assert r["ok"] is True, r
    return r


def until_done(h: Handler, board: str, first: dict[str, Any]) -> dict[str, Any]:
    r = first
    steps = 0
    while r["help"].get("running"):
        r = ok(h, op="help_step", board=board, ms=20)
        steps += 1
        assert steps < 10_000
    answer: dict[str, Any] = r["help"]
    return answer


def test_a_hint_is_the_next_move_of_a_winning_line() -> None:
    h = Handler()
    ok(h, op="load", board="b", position=three_from_a_win().position())
    a = until_done(h, "b", ok(h, op="help", board="b", kind="hint"))
    assert a["verdict"] == "won" and a["move"] == "f0-k3" and a["careful"] is False
    assert a["steps"] == [["f0", "k3"]]
    assert a["said"].startswith("Hint: ")
    ok(h, op="play", board="b", move="f0-k3")
    # the rest of the line is known: the next hint needs no search
    a = until_done(h, "b", ok(h, op="help", board="b", kind="hint"))
    assert a["move"] == "f1-k3" and a["nodes"] == 0


def test_winnable_gives_the_line() -> None:
    h = Handler()
    ok(h, op="load", board="b", position=three_from_a_win().position())
    a = until_done(h, "b", ok(h, op="help", board="b", kind="winnable"))
    assert a["verdict"] == "won"
    assert a["line"] == ["f0-k3", "f1-k3", "f0-k3"]
    assert a["said"].startswith("Yes")


def test_undecided_hint_is_the_careful_players_move() -> None:
    h = Handler()
    ok(h, op="new", board="b", game="the-terrace", deal=1)
    a = until_done(h, "b", ok(h, op="help", board="b", kind="hint", seconds=0.05))
    assert a["verdict"] == "undecided" and a["careful"] is True
    assert a["said"].startswith("A careful player's move: ")
    game = engine.new_game("the-terrace", 1)
    from engine.solver import careful_move
    assert a["move"] == str(careful_move(game))


def test_cancel_and_moves_stop_the_search() -> None:
    h = Handler()
    ok(h, op="new", board="b", game="the-terrace", deal=1)
    r = ok(h, op="help", board="b", kind="winnable", seconds=60)
    assert r["help"]["running"] is True
    assert ok(h, op="help_cancel", board="b")["cancelled"] is True
    assert ok(h, op="help_step", board="b")["help"]["cancelled"] is True
    r = ok(h, op="help", board="b", kind="winnable", seconds=60)
    game = engine.new_game("the-terrace", 1)
    ok(h, op="play", board="b", move=str(game.legal_moves()[0]))
    assert ok(h, op="help_step", board="b")["help"]["cancelled"] is True


def test_bad_help_requests() -> None:
    h = Handler()
    ok(h, op="new", board="b", game="the-sultan", deal=1)
    for req in ({"kind": "solve"}, {"kind": "hint", "seconds": -1},
                {"kind": "hint", "seconds": "1"}, {"kind": "hint", "seconds": 10_000}):
        r = h.handle_request({"id": 3, "op": "help", "board": "b", **req})
        assert r["ok"] is False and r["error"]["kind"] == "request"


def test_a_hint_to_deal_does_not_name_the_next_card() -> None:
    """The Salic Law's deal 3: the hint is to deal, and the pack's next card (the ace of
    hearts, face down) is not named; the words are the button's."""
    h = Handler()
    ok(h, op="new", board="b", game="the-salic-law", deal=3, options="")
    game = h.boards["b"]
    assert game.state.piles[game.pile_index("stock")][-1].name == "ace of hearts"
    a = until_done(h, "b", ok(h, op="help", board="b", kind="hint"))
    assert a["move"] == "deal", a
    assert a["said"].endswith(": deal a card"), a["said"]
    assert "ace" not in a["said"]

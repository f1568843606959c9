"""engine/web.py: the JSON protocol the board's worker speaks."""

from __future__ import annotations

import json
from typing import Any

import pytest

import engine
from engine.web import Handler

SLUG = "la-nivernaise"


def ok(h: Handler, **req: Any) -> dict[str, Any]:
    r = h.handle_request({"id": 1, **req})
    assert r["ok"] is True, r
    assert r["id"] == 1
    return r


def err(h: Handler, **req: Any) -> dict[str, Any]:
    r = h.handle_request({"id": 2, **req})
    assert r["ok"] is False, r
    assert r["id"] == 2
    return r["error"]


@pytest.fixture
def h() -> Handler:
    return Handler()


def test_new_returns_view_said_position_and_url_state(h: Handler) -> None:
    r = ok(h, op="new", board="b", game=SLUG, deal=42, options="")
    game = engine.new_game(SLUG, 42)
    assert r["view"] == engine.view_of(game)
    # the deal number stands for the pack: its order is never sent to the page
    assert r["position"] == r["url_state"] == game.position(compact=True)
    assert "start=" not in r["position"]
    assert r["said"] == "Deal 42."


def test_the_json_entry_point(h: Handler) -> None:
    out = json.loads(h.handle(json.dumps({"id": "x", "op": "new", "board": "b", "game": SLUG,
                                          "deal": 3})))
    assert out["ok"] and out["id"] == "x" and out["view"]["deal"] == 3
    bad = json.loads(h.handle("{nope"))
    assert bad["ok"] is False and bad["error"]["kind"] == "request"


def test_play_a_legal_move_and_describe_it(h: Handler) -> None:
    r = ok(h, op="new", board="b", game=SLUG, deal=42)
    m = r["view"]["moves"][0]["m"]
    game = engine.new_game(SLUG, 42)
    expected_said = game.describe(game.state, engine.Move.parse(m))
    game.play(m)
    r2 = ok(h, op="play", board="b", move=m)
    assert r2["said"] == expected_said
    assert r2["position"] == game.position(compact=True)
    assert r2["view"]["played"] == 1


def test_refused_move_names_its_rule_and_changes_nothing(h: Handler) -> None:
    r = ok(h, op="new", board="b", game=SLUG, deal=42)
    legal = {m["m"] for m in r["view"]["moves"]}
    line = next(p for p in r["view"]["piles"] if p["id"] == "l0")
    suit = line["cards"][-1]["c"][-1]
    wrong = "a" + str(("SHDC".index(suit) + 1) % 4)
    assert f"l0-{wrong}" not in legal
    e = err(h, op="play", board="b", move=f"l0-{wrong}")
    assert e["kind"] == "illegal"
    assert e["rule"] == "la-nivernaise-rule-3"
    assert "suit" in e["message"]
    assert ok(h, op="view", board="b")["position"] == r["position"]


def test_unparsable_move_is_refused_with_the_board_rule(h: Handler) -> None:
    ok(h, op="new", board="b", game=SLUG, deal=1)
    e = err(h, op="play", board="b", move="not a move!")
    assert e["kind"] == "illegal" and e["rule"] == "la-nivernaise-board"


def test_undo_redo_restart(h: Handler) -> None:
    r = ok(h, op="new", board="b", game=SLUG, deal=42)
    m = r["view"]["moves"][0]["m"]
    played = ok(h, op="play", board="b", move=m)
    u = ok(h, op="undo", board="b")
    assert u["said"] == "Taken back: " + played["said"]
    assert u["view"]["played"] == 0 and u["view"]["can_redo"]
    assert f"redo={m}" in u["position"]
    rd = ok(h, op="redo", board="b")
    assert rd["said"] == "Played again: " + played["said"]
    assert rd["position"] == played["position"]
    assert err(h, op="redo", board="b")["kind"] == "nothing"
    rs = ok(h, op="restart", board="b")
    assert rs["view"]["played"] == 0 and rs["position"] == r["position"]
    assert err(h, op="undo", board="b")["kind"] == "nothing"


def test_load_restores_and_refuses_corrupt_positions(h: Handler) -> None:
    game = engine.new_game(SLUG, 9)
    for _ in range(3):
        game.play(game.legal_moves()[0])
    r = ok(h, op="load", board="b", game=SLUG, position=game.position())
    assert r["position"] == game.position(compact=True) and r["view"]["played"] == 3
    r2 = ok(h, op="load", board="c", position=game.position(compact=True))
    assert r2["position"] == game.position(compact=True)
    for bad in ["", "garbage", f"game={SLUG};deal=x", f"game={SLUG};deal=1;moves=l0-zz",
                f"game={SLUG};deal=1;opts=nope:1", "game=no-such-game;deal=1",
                f"game={SLUG};deal=1;start=stock:AS"]:
        e = err(h, op="load", board="b", position=bad)
        assert e["kind"] == "position", (bad, e)
        assert e["message"]
    # The board keeps the game it had.
    assert ok(h, op="view", board="b")["position"] == game.position(compact=True)


def test_load_refuses_another_games_position(h: Handler) -> None:
    others = [s for s in engine.GAMES if s != SLUG]
    if not others:
        pytest.skip("only one game registered")
    pos = engine.new_game(others[0], 1).position()
    assert err(h, op="load", board="b", game=SLUG, position=pos)["kind"] == "position"


def test_set_options_replays_when_legal(h: Handler) -> None:
    r = ok(h, op="new", board="b", game=SLUG, deal=42)
    m = r["view"]["moves"][0]["m"]
    ok(h, op="play", board="b", move=m)
    s = ok(h, op="set_options", board="b", options="examined_use:play")
    assert "notice" not in s
    assert s["view"]["options"] == "examined_use:play" and s["view"]["played"] == 1
    assert s["position"] == engine.load_position(
        s["position"]).position(compact=True)


def test_set_options_restarts_the_deal_when_moves_become_illegal(h: Handler) -> None:
    # Find a deal where a buried, examined card is played: legal only under a wider reading.
    for deal in range(1, 400):
        g = engine.new_game(SLUG, deal, "examined_use:play")
        found = None
        for _ in range(60):
            moves = g.legal_moves()
            buried = [m for m in moves if m.steps and ":" in m.steps[0][0]]
            if buried:
                found = buried[0]
                break
            if not moves:
                break
            g.play(moves[0])
        if found:
            g.play(found)
            break
    else:
        pytest.fail("no deal lets an examined card be played")
    ok(h, op="load", board="b", position=g.position())
    s = ok(h, op="set_options", board="b", options="")
    assert "notice" in s and "started again" in s["notice"]
    assert s["view"]["played"] == 0 and s["view"]["deal"] == deal
    assert s["view"]["options"] == ""


def test_bad_requests(h: Handler) -> None:
    assert err(h, op="play", board="none", move="deal")["kind"] == "request"
    assert err(h, op="frobnicate", board="b")["kind"] == "request"
    assert err(h, op="new", board="b", game="no-such-game")["kind"] == "request"
    assert err(h, op="new", board="b", game=SLUG, deal=-1)["kind"] == "request"
    assert err(h, op="new", board="b", game=SLUG, deal=True)["kind"] == "request"
    assert err(h, op="new", board="b", game=SLUG, deal=1, options="zz:1")["kind"] == "options"
    assert err(h, op="new", game=SLUG)["kind"] == "request"  # no board
    r = h.handle_request(["not", "an", "object"])
    assert r["ok"] is False and r["error"]["kind"] == "request"
    ok(h, op="new", board="b", game=SLUG, deal=1)
    assert err(h, op="set_options", board="b", options="examined_use:sideways")["kind"] == \
        "options"


def test_boards_are_independent(h: Handler) -> None:
    a = ok(h, op="new", board="a", game=SLUG, deal=1)
    ok(h, op="new", board="b", game=SLUG, deal=2)
    ok(h, op="play", board="b", move=ok(h, op="view", board="b")["view"]["moves"][0]["m"])
    assert ok(h, op="view", board="a")["position"] == a["position"]


def test_ping_lists_games(h: Handler) -> None:
    assert ok(h, op="ping")["games"] == sorted(engine.GAMES)

"""Properties every game must keep, checked by random play (hypothesis)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import engine
from engine import IllegalMove, Move

SLUGS = sorted(engine.GAMES)
PLAYOUT = settings(max_examples=25, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow])


def random_playout(slug: str, seed: int, picks: list[int]) -> engine.Game:
    g = engine.new_game(slug, seed=seed)
    for p in picks:
        moves = g.legal_moves()
        if not moves:
            break
        g.play(moves[p % len(moves)])
    return g


@pytest.mark.parametrize("slug", SLUGS)
@PLAYOUT
@given(seed=st.integers(0, 2**53 - 1), picks=st.lists(st.integers(0, 10**6), max_size=120))
def test_random_play_keeps_every_card_exactly_once(slug: str, seed: int,
                                                   picks: list[int]) -> None:
    g = engine.new_game(slug, seed=seed)
    full = type(g).full_pack()
    for p in picks:
        moves = g.legal_moves()
        if not moves:
            break
        g.play(moves[p % len(moves)])
        assert Counter(g.state.all_cards()) == full


@pytest.mark.parametrize("slug", SLUGS)
@PLAYOUT
@given(seed=st.integers(0, 2**53 - 1), picks=st.lists(st.integers(0, 10**6), max_size=80))
def test_undo_restores_the_exact_position(slug: str, seed: int, picks: list[int]) -> None:
    g = engine.new_game(slug, seed=seed)
    texts = [g.position(compact=True)]
    keys = [g.state_key()]
    for p in picks:
        moves = g.legal_moves()
        if not moves:
            break
        g.play(moves[p % len(moves)])
        texts.append(g.position(compact=True))
        keys.append(g.state_key())
    for i in range(len(texts) - 1, 0, -1):
        assert g.state_key() == keys[i]
        g.undo()
        assert g.state_key() == keys[i - 1]
        assert g.position(compact=True).split(";redo=")[0] == texts[i - 1].split(";redo=")[0]
    assert g.undo() is None
    # and redo brings every move back
    while g.redo() is not None:
        pass
    assert g.state_key() == keys[-1]


@pytest.mark.parametrize("slug", SLUGS)
@PLAYOUT
@given(seed=st.integers(0, 2**53 - 1), picks=st.lists(st.integers(0, 10**6), max_size=80),
       undos=st.integers(0, 5))
def test_positions_round_trip(slug: str, seed: int, picks: list[int], undos: int) -> None:
    g = random_playout(slug, seed, picks)
    for _ in range(undos):
        g.undo()
    for compact in (False, True):
        text = g.position(compact=compact)
        h = engine.load_position(text)
        assert h.state_key() == g.state_key()
        assert h.position(compact=compact) == text
        assert h.move_stack == g.move_stack and h.redo_stack == g.redo_stack
        assert engine.view_of(h) == engine.view_of(g)


@pytest.mark.parametrize("slug", SLUGS)
@PLAYOUT
@given(seed=st.integers(0, 2**53 - 1), picks=st.lists(st.integers(0, 10**6), max_size=40),
       src=st.integers(0, 200), dst=st.integers(0, 200))
def test_refused_moves_change_nothing_and_name_a_rule(slug: str, seed: int, picks: list[int],
                                                      src: int, dst: int) -> None:
    g = random_playout(slug, seed, picks)
    piles = [p.id for p in type(g).PILES]
    move = Move.step(piles[src % len(piles)], piles[dst % len(piles)])
    legal = set(g.legal_moves())
    before = g.position()
    if move in legal:
        return
    with pytest.raises(IllegalMove) as info:
        g.play(move)
    assert info.value.rule.startswith(slug + "-")
    assert info.value.message
    assert g.position() == before


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**53 - 1), picks=st.lists(st.integers(0, 10**6), max_size=60))
def test_legal_moves_are_exactly_the_moves_play_accepts(slug: str, seed: int,
                                                        picks: list[int]) -> None:
    g = random_playout(slug, seed, picks)
    legal = g.legal_moves()
    for m in legal:
        h = g.copy()
        h.play(m)  # must not raise
    view = engine.view_of(g)
    # `moves` lists every step move, or only those of several steps when the game says so
    # (Game.VIEW_SINGLE_STEPS); `movable` carries every step either way.
    listed = {str(m) for m in legal
              if len(m.steps) > 1 or (m.steps and type(g).VIEW_SINGLE_STEPS)}
    assert {m["m"] for m in view["moves"]} == listed
    for m in legal:
        for src, dst in m.steps:
            assert dst in view["movable"][src]
    assert {a["move"] for a in view["actions"] if a["enabled"]} == {
        m.action for m in legal if m.action}


@pytest.mark.parametrize("slug", SLUGS)
def test_view_is_json_and_lists_every_pile(slug: str) -> None:
    import json
    g = engine.new_game(slug, seed=1)
    view = engine.view_of(g)
    assert json.loads(json.dumps(view)) == view
    assert [p["id"] for p in view["piles"]] == [p.id for p in type(g).PILES]
    n = sum(len(p["cards"]) for p in view["piles"])
    assert n == sum(type(g).full_pack().values())

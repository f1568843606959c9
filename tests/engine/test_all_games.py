"""Properties every game must keep, checked by random play (hypothesis)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import engine
from engine import IllegalMove, Move
from engine.core import Role, State

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
    assert info.value.rule.startswith(type(g).chapter() + "-")  # an anchor of its page
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


# ---- every move the rules accept is listed, and nothing else ------------------------------

def _option_variants(slug: str) -> list[str]:
    """The default reading and each option value changed alone, as option texts."""
    out = [""]
    for d in engine.describe_options(engine.GAMES[slug].Options):
        out += [f"{d['name']}:{c['value']}" for c in d["choices"] if c["value"] != d["default"]]
    return out


def _every_step(g: engine.Game) -> list[Move]:
    """Every one-step move over every pair of piles, buried cards included."""
    s = g.state
    ids = [p.id for p in type(g).PILES]
    refs = []
    for pid, cards in zip(ids, s.piles):
        if cards:
            refs.append(pid)
            refs += [f"{pid}:{k}" for k in range(len(cards) - 1)]
    return [Move.step(r, d) for r in refs for d in ids]


#: Names an action might have: the game's own, and some it must refuse.
_ACTION_NAMES = ("deal", "redeal", "examine", "pass", "shuffle", "restart", "undo")


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**53 - 1), picks=st.lists(st.integers(0, 10**6), max_size=80),
       sample_seed=st.integers(0, 2**32 - 1))
def test_legal_moves_are_every_move_play_accepts(slug: str, seed: int, picks: list[int],
                                                 sample_seed: int) -> None:
    """Under every reading, on random positions: a single-step move over any two piles (any
    card of the source, buried or not) and any action are accepted by ``play`` exactly when
    ``legal_moves`` lists them. Moves of several steps (the Empress's pairs) are too many to
    try all: a random sample of pairs of steps is checked the same way."""
    for opts in _option_variants(slug):
        g = engine.new_game(slug, seed=seed, options=opts)
        for p in picks:
            moves = g.legal_moves()
            if not moves:
                break
            g.play(moves[p % len(moves)])
        legal = set(g.legal_moves())
        names = {a.move for a in type(g).ACTIONS} | set(_ACTION_NAMES)
        tried = _every_step(g) + [Move(action=a) for a in sorted(names)]
        accepted = {m for m in tried if g.refusal(g.state, m) is None}
        single = {m for m in legal if len(m.steps) <= 1}
        assert accepted == single, (opts, sorted(map(str, accepted ^ single)))
        multi = [m for m in legal if len(m.steps) > 1]
        if multi:
            import random

            sample = random.Random(sample_seed)
            steps = _every_step(g)
            pairs = [Move(steps=a.steps + b.steps)
                     for a, b in zip(sample.sample(steps, min(len(steps), 3000)),
                                     sample.sample(steps, min(len(steps), 3000)))]
            pairs += [Move(steps=tuple(reversed(m.steps))) for m in multi]
            for m in pairs:
                flipped = Move(steps=tuple(reversed(m.steps)))
                assert (g.refusal(g.state, m) is None) == (m in legal or flipped in legal), (
                    opts, str(m))


# ---- a view reveals only what the reader may see -------------------------------------------

def _hidden_slots(view: dict[str, Any]) -> list[tuple[int, int]]:
    return [(i, k) for i, p in enumerate(view["piles"])
            for k, c in enumerate(p["cards"]) if c["c"] is None]


@pytest.mark.parametrize("slug", SLUGS)
@PLAYOUT
@given(seed=st.integers(0, 2**53 - 1), picks=st.lists(st.integers(0, 10**6), max_size=80),
       shuffle_seed=st.integers(0, 2**32 - 1))
def test_views_reveal_only_what_the_reader_may_see(slug: str, seed: int, picks: list[int],
                                                   shuffle_seed: int) -> None:
    """The pack is face down and a talon shows only its top card (unless the game's notes let
    the player look through it: ``TALON_OPEN``); and whatever the view shows as face down
    cannot be read from the rest of it: the cards there, shuffled among those places, give
    the very same view (cards, moves, actions, status)."""
    import random

    g = random_playout(slug, seed, picks)
    cls = type(g)
    view = engine.view_of(g)
    for spec, pile in zip(cls.PILES, view["piles"]):
        cards = pile["cards"]
        if spec.role is Role.STOCK:
            assert all(c["c"] is None for c in cards), spec.id
        if spec.role is Role.TALON and not cls.TALON_OPEN:
            assert all(c["c"] is None for c in cards[:-1]), spec.id
    slots = _hidden_slots(view)
    hidden = [g.state.piles[i][k] for i, k in slots]
    random.Random(shuffle_seed).shuffle(hidden)
    piles = [list(p) for p in g.state.piles]
    for (i, k), card in zip(slots, hidden):
        piles[i][k] = card
    other = cls(State(tuple(map(tuple, piles)), g.state.vars), g.options, g.deal)
    same = cls(g.state, g.options, g.deal)
    assert engine.view_of(other) == engine.view_of(same)


@pytest.mark.parametrize("slug", SLUGS)
@PLAYOUT
@given(seed=st.integers(0, 2**53 - 1), picks=st.lists(st.integers(0, 10**6), max_size=80),
       shuffle_seed=st.integers(0, 2**32 - 1))
def test_a_hint_says_nothing_of_the_cards_face_down(slug: str, seed: int, picks: list[int],
                                                    shuffle_seed: int) -> None:
    """The words of a hint (``describe_ahead``) for every legal move are the same when the
    face-down cards are shuffled among their places: a hint to deal does not name the pack's
    next card, nor tell how many cards a "deal on" will take."""
    import random

    g = random_playout(slug, seed, picks)
    cls = type(g)
    slots = _hidden_slots(engine.view_of(g))
    hidden = [g.state.piles[i][k] for i, k in slots]
    random.Random(shuffle_seed).shuffle(hidden)
    piles = [list(p) for p in g.state.piles]
    for (i, k), card in zip(slots, hidden):
        piles[i][k] = card
    other = State(tuple(map(tuple, piles)), g.state.vars)
    for m in g.legal_moves():
        assert g.describe_ahead(g.state, m) == g.describe_ahead(other, m), str(m)


def test_the_page_and_the_worker_never_send_the_pack_order() -> None:
    """The board's embedded first position and every position the worker sends back (saved
    in the browser, or put in the address) give the deal number, never the cards' order."""
    from engine.web import Handler

    h = Handler()
    for slug in SLUGS:
        r = h.handle_request({"op": "new", "board": slug, "game": slug, "deal": 3,
                              "options": ""})
        assert r["ok"], r
        assert "start=" not in r["position"] and "start=" not in r["url_state"], slug


#: A region's caption is drawn in its top 0.3 slot, in the table's light text: above the
#: table's top edge it would fall on the page's own pale background, unreadable (axe found the
#: Congress's "The rivers" caption there, at a contrast of 1.07).
@pytest.mark.parametrize("slug", SLUGS)
def test_region_captions_lie_on_the_table(slug: str) -> None:
    cls = type(engine.new_game(slug, 1))
    layouts = [("wide", cls.GRID, cls.REGIONS)]
    layouts += [(lay.name, lay.grid, lay.regions) for lay in cls.LAYOUTS]
    for name, (width, height), regions in layouts:
        for r in regions:
            assert r.y >= 0 and r.x >= -0.1, (name, r)
            assert r.y + 0.3 <= height and r.x + 0.3 <= width, (name, r)

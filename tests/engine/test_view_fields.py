"""The view's generic board fields: ``pack`` (what a click on the pack plays) and ``safe``
(the moves auto-play may make), for every game and on a small game made up here."""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

import engine
from engine.cards import Card, Suit, parse_cards
from engine.core import (
    ActionSpec,
    Game,
    IllegalMove,
    Move,
    Outcome,
    PileSpec,
    Role,
    State,
    Step,
)

SLUGS = list(engine.GAMES)


def _playout(slug: str, seed: int, n: int) -> Iterable[engine.Game]:
    g = engine.new_game(slug, seed)
    rng = random.Random(seed)
    for _ in range(n):
        yield g
        legal = g.legal_moves()
        if not legal or g.outcome() is not None:
            return
        g.play(rng.choice(legal))


@pytest.mark.parametrize("slug", SLUGS)
def test_pack_field_names_the_stock_and_a_move_of_the_game(slug: str) -> None:
    cls = engine.GAMES[slug]
    stocks = [p.id for p in cls.PILES if p.role is Role.STOCK]
    for g in _playout(slug, 5, 25):
        v = engine.view_of(g)
        assert json.loads(json.dumps(v)) == v
        if not stocks:
            assert "pack" not in v
            continue
        pack = v["pack"]
        assert pack["pile"] == stocks[0]
        legal = {str(m) for m in g.legal_moves()}
        if pack["move"] is None:
            assert pack["legal"] is False
            continue
        assert pack["legal"] == (pack["move"] in legal)
        if not pack["legal"]:  # refused: one of the game's own actions, to hear why
            assert pack["move"] in {a.move for a in cls.ACTIONS}
            with pytest.raises(IllegalMove):
                g.copy().play(pack["move"])


@pytest.mark.parametrize("slug", SLUGS)
def test_safe_moves_are_legal_moves_to_a_foundation(slug: str) -> None:
    cls = engine.GAMES[slug]
    foundations = {p.id for p in cls.PILES if p.role is Role.FOUNDATION}
    for g in _playout(slug, 9, 30):
        v = engine.view_of(g)
        legal = {str(m) for m in g.legal_moves()}
        for m in v["safe"]:
            assert m in legal
            (src, dst), = Move.parse(m).steps
            assert dst in foundations
        if g.outcome() is not None:
            assert v["safe"] == []


# ---- a made-up game: one column of cards, two foundations -----------------------------

def _cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text.replace(" ", "."), ".") if text else ()


@dataclass(frozen=True)
class _Opts:
    pass


class _Tiny(Game):
    """Foundation ``f0`` takes only the ace of spades to begin; ``f1`` takes any card when
    ``ANY_BASE`` (else only the ace of hearts); column ``c0`` takes any card when empty."""

    slug = "tiny"
    title = "Tiny"
    packs = 1
    Options = _Opts
    PILES = (PileSpec("stock", "the pack", Role.STOCK, 0, 0),
             PileSpec("f0", "spades foundation", Role.FOUNDATION, 1, 0),
             PileSpec("f1", "hearts foundation", Role.FOUNDATION, 2, 0),
             PileSpec("t0", "the column", Role.TABLEAU, 3, 0),
             PileSpec("c0", "the space", Role.TABLEAU, 4, 0))
    GRID = (5.0, 1.0)
    ACTIONS = (ActionSpec("deal", "Deal", "d", "tiny-rule"),)
    ANY_BASE: ClassVar[bool] = False

    @classmethod
    def full_pack(cls) -> Any:
        from collections import Counter
        return Counter(_cards("AS AH 2S 2H 3C"))

    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        return State(((), (), (), (), ()), ())

    def candidate_moves(self, state: State) -> Iterable[Move]:
        yield Move(action="deal")
        for dst in ("f0", "f1", "c0"):
            yield Move.step("t0", dst)

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "deal" and state.piles[0]:
            return None
        return IllegalMove("tiny-rule", "The pack is spent.")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        dst = self.PILES[step.dst].id
        pile = state.piles[step.dst]
        if dst == "c0":
            return None if not pile else IllegalMove("tiny-rule", "Taken.")
        if pile:
            top = pile[-1]
            ok = top.suit is step.card.suit and step.card.rank == top.rank + 1
        elif dst == "f0":
            ok = step.card == Card(1, Suit.SPADES)
        else:
            ok = self.ANY_BASE or step.card == Card(1, Suit.HEARTS)
        return None if ok else IllegalMove("tiny-rule", "No.")

    def apply(self, state: State, move: Move) -> State:
        if move.action:
            return state.with_piles({0: state.piles[0][:-1], 3: state.piles[3]
                                     + state.piles[0][-1:]})
        (src, dst), = move.steps
        si, di = self.pile_index(src), self.pile_index(dst)
        return state.with_piles({si: state.piles[si][:-1],
                                 di: state.piles[di] + state.piles[si][-1:]})

    def outcome_of(self, state: State) -> Outcome | None:
        return None

    def status_line(self, state: State, outcome: Outcome | None) -> str:
        return ""


class _AnyBase(_Tiny):
    ANY_BASE = True


def _tiny(cls: type[_Tiny], piles: dict[int, str]) -> _Tiny:
    state = State(tuple(_cards(piles.get(i, "")) for i in range(5)), ())
    return cls(state, _Opts(), None)


def test_a_card_that_alone_begins_its_foundation_is_safe() -> None:
    g = _tiny(_Tiny, {0: "2S 2H 3C", 3: "AH AS"})
    # c0 is empty, so the ace of spades has two places: no auto-play
    assert engine.view_of(g)["safe"] == []
    g = _tiny(_Tiny, {0: "2S 2H", 3: "AH AS", 4: "3C"})
    assert engine.view_of(g)["safe"] == ["t0-f0"]


def test_a_foundation_any_card_may_begin_is_never_safe() -> None:
    g = _tiny(_AnyBase, {0: "2S AS", 3: "2H AH", 4: "3C"})
    v = engine.view_of(g)
    assert "t0-f1" in {m["m"] for m in v["moves"]}
    assert v["safe"] == []


def test_a_card_on_a_begun_foundation_is_not_safe_by_default() -> None:
    g = _tiny(_Tiny, {0: "AH 2H", 1: "AS", 3: "2S", 4: "3C"})
    v = engine.view_of(g)
    assert v["movable"] == {"t0": ["f0"]} and v["safe"] == []


def test_the_pack_deals_or_says_why_not() -> None:
    g = _tiny(_Tiny, {0: "2S", 3: "AH AS", 4: "3C"})
    assert engine.view_of(g)["pack"] == {"pile": "stock", "move": "deal", "legal": True}
    g = _tiny(_Tiny, {3: "AH AS 2S", 4: "3C"})
    assert engine.view_of(g)["pack"] == {"pile": "stock", "move": "deal", "legal": False}

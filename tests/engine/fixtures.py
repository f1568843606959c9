"""Helpers to write positions by hand for tests."""

from __future__ import annotations

from collections import Counter
from typing import Any

import engine
from engine.cards import parse_cards
from engine.core import Game, State


def make_game(slug: str, piles: dict[str, str], vars: dict[str, int] | None = None,
              options: Any = None, rest_to: str = "stock", deal: int | None = None) -> Game:
    """A game whose piles hold the cards given (``"AS 2H"``, bottom to top), every other card
    of the game's packs going to the bottom of pile ``rest_to`` (under any cards given for
    it), in a fixed order."""
    cls = engine.GAMES[slug]
    if isinstance(options, str):
        options = engine.options_from_text(cls.Options, options)
    opts = options if options is not None else cls.Options()
    given = {pid: parse_cards(text.replace(" ", "."), ".") if text else ()
             for pid, text in piles.items()}
    used: Counter[engine.Card] = Counter()
    for cards in given.values():
        used.update(cards)
    remaining = cls.full_pack() - used
    if used - cls.full_pack():
        raise ValueError(f"too many copies: {used - cls.full_pack()}")
    rest = tuple(sorted(remaining.elements()))
    given[rest_to] = rest + given.get(rest_to, ())
    pile_tuple = tuple(given.get(p.id, ()) for p in cls.PILES)
    var_values = dict.fromkeys(cls.VARS, 0) | (vars or {})
    state = State(pile_tuple, tuple(var_values[n] for n in cls.VARS))
    return cls(state, opts, deal)


def refusal_rule(game: Game, move: str) -> str:
    """The rule id a move is refused with (and check that nothing changed)."""
    before = game.position()
    try:
        game.play(move)
    except engine.IllegalMove as e:
        assert game.position() == before, "a refused move changed the game"
        assert e.message
        return e.rule
    raise AssertionError(f"{move} was not refused")

"""Cæsar (nine cards from one pack), by the book: 1914 printing, plate p. 84, text p. 85.

Not a patience of foundations but a puzzle: the ace to the nine, one card of each value in any
suits, are withdrawn from the pack and laid in three rows of three; the player changes their
places until the pips of every row, every column and both diagonals make fifteen, eight
fifteens in all (the magic square of three).

Piles: the nine places of the square, each always holding one card; the rest of the pack, set
aside face down, which takes no part. A move exchanges two cards of the square: ``g0-g4`` takes
the card of the top left place to the centre and the centre's card to the top left (``g4-g0``
is the same exchange, written from its other end). See the chapter page for the text each rule
id points at, and its editorial notes (``note-ca-N``) for the decisions behind the engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .cards import Card, pack
from .core import (
    Figure,
    Game,
    IllegalMove,
    Layout,
    Move,
    Outcome,
    PileSpec,
    PositionError,
    Role,
    State,
    Step,
)
from .deal import shuffled

SLUG = "caesar"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
WITHDRAW = _rule("withdraw")    # nine cards, any suits, ace to nine inclusive, from one pack
ROWS = _rule("rows")            # placed in three rows of three cards
CHANGE = _rule("change")        # endeavour, by changing their position,
FIFTEEN = _rule("fifteen")      # that every row, across, up and down, diagonally, makes fifteen
EIGHT = _rule("eight")          # the plate shows three fifteens; properly placed, eight
BOARD = _rule("board")          # the board itself (notation errors)

SIDE = 3
PLACES = SIDE * SIDE            # nine
TARGET = 15                     # the sum of each line
RANKS = range(1, PLACES + 1)    # the ace (one pip) to the nine

#: The eight lines of the square, as indices of places (row by row from the top left): the
#: three rows, the three columns, the two diagonals (CA-4).
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),
    (0, 3, 6), (1, 4, 7), (2, 5, 8),
    (0, 4, 8), (2, 4, 6),
)
LINE_NAMES: tuple[str, ...] = (
    "the top row", "the middle row", "the bottom row",
    "the left column", "the middle column", "the right column",
    "the diagonal from the top left", "the diagonal from the top right",
)


def _magic_squares() -> tuple[tuple[int, ...], ...]:
    """Every arrangement of the values 1 to 9 in which all eight lines make fifteen (the
    eight turns and reflections of one square), found by trying them all once."""
    from itertools import permutations

    return tuple(p for p in permutations(RANKS)
                 if all(p[a] + p[b] + p[c] == TARGET for a, b, c in LINES))


#: The eight solutions (CA-4), each a tuple of the values of the nine places.
SOLUTIONS: tuple[tuple[int, ...], ...] = _magic_squares()


@dataclass(frozen=True, slots=True)
class CaesarOptions:
    """Cæsar offers no reading to choose: its notes record decisions only (CA-1 to CA-6)."""


# ---------------------------------------------------------------------------- the layout
# Positions in card slots. As in the plate: three rows of three cards, spaced apart; the rest of
# the pack set aside at the right (left out on a phone, where the square alone is drawn).

_ROW_NAMES = ("top", "middle", "bottom")
_COL_NAMES = ("left", "middle", "right")
_DX, _DY = 1.35, 1.2


def _place_label(i: int) -> str:
    row, col = divmod(i, SIDE)
    if i == 4:
        return "the centre place"
    return f"the {_ROW_NAMES[row]} {_COL_NAMES[col]} place"


PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"g{i}", _place_label(i), Role.TABLEAU, (i % SIDE) * _DX,
                   (i // SIDE) * _DY, capacity=1)
          for i in range(PLACES))
    + (PileSpec("rest", "the rest of the pack, set aside", Role.FIGURE,
                SIDE * _DX + 0.6, _DY, mark="set aside"),)
)

SQUARE = range(0, PLACES)
REST = PLACES


def _narrow_layout() -> Layout:
    """For a phone: the square alone, as large as the board allows."""
    return Layout("narrow", ((SIDE - 1) * _DX + 1.0, (SIDE - 1) * _DY + 1.0), {},
                  hidden=("rest",), max_width=560)


def values(state: State) -> tuple[int, ...]:
    """The number of pips of the card in each place of the square (the ace one)."""
    return tuple(state.piles[i][0].rank for i in SQUARE)


def fifteens(state: State) -> tuple[int, ...]:
    """The indices (into :data:`LINES`) of the lines whose pips make fifteen."""
    v = values(state)
    return tuple(n for n, (a, b, c) in enumerate(LINES) if v[a] + v[b] + v[c] == TARGET)


def exchanges_needed(state: State) -> int:
    """The fewest exchanges of two cards that make all eight fifteens: for each solution, nine
    less the number of cycles of the permutation taking the cards to their places; the least."""
    v = values(state)
    best = PLACES
    for sol in SOLUTIONS:
        where = {rank: i for i, rank in enumerate(sol)}
        seen = [False] * PLACES
        cycles = 0
        for i in SQUARE:
            if not seen[i]:
                cycles += 1
                j = i
                while not seen[j]:
                    seen[j] = True
                    j = where[v[j]]
        best = min(best, PLACES - cycles)
    return best


class Caesar(Game):
    slug = SLUG
    title = "Cæsar"
    packs = 1
    Options = CaesarOptions
    PILES = PILES
    VARS = ()
    GRID = (SIDE * _DX + 1.6, (SIDE - 1) * _DY + 1.0)
    LAYOUTS = (_narrow_layout(),)
    FIGURES = (
        Figure("tableau", "Cæsar: the values of the plate, as deal 318568 lays them out.",
               "Nine cards drawn in modern cards, in three rows of three: a seven, an eight "
               "and a three across the top; a five, a six and a four across the middle; a "
               "nine, an ace and a two across the bottom, the values of the plate. The "
               "middle row, the middle column and the diagonal from the top left each make "
               "fifteen; the other five lines do not.",
               piles=tuple(p.id for p in PILES[:PLACES])),
    )
    #: A deal that lays out the values of the plate (7 8 3 / 5 6 4 / 9 A 2): found by trying
    #: deals in turn (tests/engine/test_caesar.py checks it).
    DIAGRAM_DEAL = 318568
    ACTIONS = ()
    LEDGER = {
        WITHDRAW: "The deal takes from the shuffled pack the first ace, two, three … nine it "
                  "meets, whatever their suits (CA-1); the other forty-three cards are set "
                  "aside face down, and any move touching them is refused.",
        ROWS: "The nine cards are laid face up in three rows of three, in the order they were "
              "withdrawn (CA-2); every place holds exactly one card, always.",
        CHANGE: "Any two cards of the square may change places, one exchange at a time and "
                "as often as the player likes (CA-3); a card cannot be exchanged with itself, "
                "and a move of several exchanges at once is refused.",
        FIFTEEN: "After every exchange the engine adds up the pips (the ace one) of the three "
                 "rows, the three columns and the two diagonals (CA-4), and the status line "
                 "names the lines that make fifteen.",
        EIGHT: "The game is won as soon as all eight lines make fifteen, and no exchange is "
               "accepted after; it is never lost, since every arrangement can be brought to "
               "the square (CA-5).",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        """From the top of the shuffled pack (its last card) downwards, the first card of
        each value from the ace to the nine is withdrawn and laid in the next place of the
        square, row by row from the top left (CA-1, CA-2); the rest keep their order."""
        deck = list(shuffled(pack(1), deal))
        square: list[Card] = []
        rest: list[Card] = []
        met: set[int] = set()
        for card in reversed(deck):
            if card.rank in RANKS and card.rank not in met:
                met.add(card.rank)
                square.append(card)
            else:
                rest.append(card)
        piles: list[tuple[Card, ...]] = [(c,) for c in square]
        piles.append(tuple(reversed(rest)))
        return State(tuple(piles), ())

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        if any(len(state.piles[i]) != 1 for i in SQUARE):
            raise PositionError("each place of the square holds exactly one card")
        if sorted(values(state)) != list(RANKS):
            raise PositionError("the square holds one card of each value from the ace to the "
                                "nine")
        return state

    # ---- rules -----------------------------------------------------------------------
    def won(self, state: State) -> bool:
        return len(fifteens(state)) == len(LINES)

    def candidate_moves(self, state: State) -> Iterator[Move]:
        for a in SQUARE:
            for b in SQUARE:
                if a != b:
                    yield Move.step(PILES[a].id, PILES[b].id)

    def legal_in(self, state: State) -> list[Move]:
        """Every exchange, both ways of writing it, until the square is made."""
        if self.won(state):
            return []
        return list(self.candidate_moves(state))

    def refusal(self, state: State, move: Move) -> IllegalMove | None:
        if len(move.steps) > 1:
            return IllegalMove(CHANGE, "Two cards change places at a time: pick one card of "
                               "the square, then the card it is to change places with.")
        return super().refusal(state, move)

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di = step.src, step.dst
        if si == REST or di == REST:
            return IllegalMove(WITHDRAW, "Only the nine cards withdrawn, the ace to the nine, "
                               "take part: the rest of the pack is set aside.")
        if si == di:
            return IllegalMove(BOARD, "The card is already there: choose another card of the "
                               "square to change places with.")
        if self.won(state):
            return IllegalMove(EIGHT, "The cards are properly placed: all eight lines make "
                               "fifteen, and the game is won.")
        return None

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        return IllegalMove(CHANGE, "Cæsar has no deal and no other action: the only move is "
                           "to change the places of two cards of the square.")

    def apply(self, state: State, move: Move) -> State:
        step = self.resolve_step(state, move)
        assert isinstance(step, Step)
        piles = list(state.piles)
        piles[step.src], piles[step.dst] = piles[step.dst], piles[step.src]
        return State(tuple(piles), state.vars)

    # ---- the solver ------------------------------------------------------------------
    def solver_order(self, state: State, legal: list[Move]) -> list[Move]:
        """The exchanges that bring the square nearest to being made first (each lowers the
        fewest exchanges still needed, :func:`exchanges_needed`, by one at best; one always
        does), so the search goes straight to a win. Nothing is dropped."""
        def after(m: Move) -> int:
            return exchanges_needed(self.apply(state, m))
        return sorted(legal, key=after)

    # ---- the end ---------------------------------------------------------------------
    def outcome_of(self, state: State) -> Outcome | None:
        """WON when all eight lines make fifteen; never LOST, since every arrangement of the
        nine cards can be brought to the square by exchanges (CA-5)."""
        return Outcome.WON if self.won(state) else None

    # ---- board -----------------------------------------------------------------------
    def card_faces(self, state: State, pile: int) -> list[dict[str, Any]]:
        """The square face up; the rest of the pack face down (it takes no part)."""
        if pile == REST:
            return [{"c": None} for _ in state.piles[pile]]
        return super().card_faces(state, pile)

    def status_line(self, state: State, out: Outcome | None) -> str:
        if out is Outcome.WON:
            return ("Won: all eight lines, the three rows, the three columns and both "
                    "diagonals, make fifteen.")
        made = fifteens(state)
        if not made:
            return "No line makes fifteen yet: 0 of 8."
        names = [LINE_NAMES[n] for n in made]
        listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        return f"{len(made)} of 8 lines make fifteen: {listed}."

    def describe(self, state: State, move: Move) -> str:
        step = self.resolve_step(state, move) if not move.action else None
        if isinstance(step, Step) and step.src in SQUARE and step.dst in SQUARE:
            a, b = state.piles[step.src][0], state.piles[step.dst][0]
            return (f"The {a.name} ({PILES[step.src].label}) and the {b.name} "
                    f"({PILES[step.dst].label}) change places.")
        return super().describe(state, move)

"""Babette (two packs), by the book: 1914 printing, plate p. 60 (printed sideways), text p. 61.

Piles: the pack; a row of eight foundation places above the garden, the four kings of
different suits on the left (descending to aces), the four aces on the right (ascending to
kings); and the garden, eight columns, into which the pack is dealt in horizontal rows of
eight, each row below the last, until the pack is exhausted.

A card of the garden may be played to a foundation when it is available: when the place
directly below it, in the next row, is empty (or, under the other reading of Rule III, when
no card lies anywhere below it in its column). Nothing else moves: there is no building in the garden, and a vacancy is
never refilled, each new row going into its own line in every column. Plays are made only
when a row is complete. When the pack is out and nothing more can be played, the garden is
taken up column by column, from the left, without shuffling, and dealt again in the same
way; this may be done twice.

The garden is a grid: each place (row ``r``, column ``c``, from 0) is a pile of at most one
card, ``g{10r + c}`` (``g0``–``g7`` the first row), so that a vacancy keeps its place in its
line and the board shows it, as the plate does: under the default reading of Rule III the
vacancy directly below a card is what frees it. Thirteen rows hold the first deal; a counter
records how many rows of the current deal have been dealt. See the chapter page for the text
each rule id points at, and its editorial notes (``note-bb-N``) for the readings behind the
options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import SUITS, Card, pack
from .core import (
    ActionSpec,
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
    option,
)
from .deal import shuffled
from .rules import SuitFoundations, plural

SLUG = "babette"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # the foundations follow suit
RULE_II = _rule("rule-2")             # vacancies in the garden are not to be refilled
RULE_III = _rule("rule-3")            # each row blocks the preceding one; released by removal
GARDEN = _rule("garden")              # deal out eight cards in a horizontal line: the garden
FIRST_PLAYS = _rule("first-plays")    # the first row complete, take from it foundations ...
FOUNDATIONS = _rule("foundations")    # four aces and four kings of different suits
ROWS = _rule("rows")                  # successive rows underneath till the pack is exhausted
DETACHED = _rule("detached")          # each row in its proper detached line
FINISH_ROW = _rule("finish-row")      # you must finish each row before playing from it
TAKE_UP = _rule("take-up")            # the garden taken up column by column and re-dealt
TWICE = _rule("twice")                # the garden may be taken up twice
BOARD = _rule("board")                # the board itself (notation errors)

COLUMNS = 8
REDEALS_ALLOWED = 2
TOTAL = 104


class Blocking(Enum):
    """BB-1: which cards of the garden a card below blocks (Rule III)."""

    ROW = "row"        # only the card in the next row, directly below
    COLUMN = "column"  # any card lower in the same column


class Pickup(Enum):
    """BB-6: the order of each column's cards when the garden is taken up."""

    SQUARED = "squared"    # each column squared as it lies: dealt again from its top card
    REVERSED = "reversed"  # each column turned round: dealt again from its lowest card


@dataclass(frozen=True, slots=True)
class BabetteOptions:
    blocking: Blocking = option(
        Blocking.ROW, note="note-bb-1", label="A card of the garden is blocked by",
        labels={Blocking.ROW: "the card directly below it, in the next row",
                Blocking.COLUMN: "any card below it in its column"})
    pickup: Pickup = option(
        Pickup.SQUARED, note="note-bb-6", label="Taking up each column",
        labels={Pickup.SQUARED: "squared as it lies (its top card dealt first)",
                Pickup.REVERSED: "turned round (its lowest card dealt first)"})


# ---------------------------------------------------------------------------- the layout
# The plate: a row of eight places above the garden, kings on the left, aces on the right;
# the garden's grid below, eight columns of thirteen places, each row overlapping the one
# above (the text's own resort, “so as to half cover it”), so that a vacancy leaves the felt
# bare between the cards above and below it.

GRID_ROWS = 13        # the first deal: 104 cards, thirteen rows of eight
_X = tuple(c * 1.03 for c in range(COLUMNS))
_GARDEN_Y = 1.25
_ROW_STEP = 0.6       # grid rows (a card is 0.93 of one)


def place_id(r: int, c: int) -> str:
    """The pile id of the place in row ``r``, column ``c`` (from 0): ``g`` and the number
    ``10 r + c`` (``g37``: the fourth row, eighth column)."""
    return f"g{10 * r + c}"


def place_label(r: int, c: int) -> str:
    """A place's short label, drawn in it when it is empty (row and column, from 1)."""
    return f"R{r + 1} C{c + 1}"


PILES: tuple[PileSpec, ...] = (
    (PileSpec("stock", "the pack", Role.STOCK, 8.55, 0.0),)
    + tuple(PileSpec(f"k{j}", f"king foundation of {s.noun}", Role.FOUNDATION, _X[j], 0.0,
                     mark=f"{s.symbol} K–A")
            for j, s in enumerate(SUITS))
    + tuple(PileSpec(f"a{j}", f"ace foundation of {s.noun}", Role.FOUNDATION, _X[4 + j], 0.0,
                     mark=f"{s.symbol} A–K")
            for j, s in enumerate(SUITS))
    + tuple(PileSpec(place_id(r, c), place_label(r, c), Role.TABLEAU, _X[c],
                     _GARDEN_Y + r * _ROW_STEP, capacity=1)
            for r in range(GRID_ROWS) for c in range(COLUMNS))
)

STOCK = 0
DESC = range(1, 5)    # the kings' foundations, in the order of SUITS
ASC = range(5, 9)     # the aces' foundations
FOUNDS = range(1, 9)
PLACES = range(9, 9 + GRID_ROWS * COLUMNS)
FOUNDATION_SET = SuitFoundations(ASC, DESC)
V_REDEALS, V_ROWS = 0, 1


def place(r: int, c: int) -> int:
    """The pile index of the place in row ``r``, column ``c``."""
    return PLACES.start + r * COLUMNS + c


def row_col(i: int) -> tuple[int, int]:
    """The row and column of the place with pile index ``i``."""
    return divmod(i - PLACES.start, COLUMNS)


def _narrow_layout() -> Layout:
    at: dict[str, tuple[float, float, int]] = {"stock": (7.0, 1.1, 0)}
    for j in range(4):
        at[f"k{j}"] = (float(j), 0.0, 0)
        at[f"a{j}"] = (float(4 + j), 0.0, 0)
    for r in range(GRID_ROWS):
        for c in range(COLUMNS):
            at[place_id(r, c)] = (float(c), 2.3 + r * _ROW_STEP, 0)
    return Layout("narrow", (8.0, 2.3 + (GRID_ROWS - 1) * _ROW_STEP + 1.0), at,
                  max_width=560)


class Babette(Game):
    slug = SLUG
    title = "Babette"
    packs = 2
    Options = BabetteOptions
    PILES = PILES
    VARS = ("redeals", "rows")
    GRID = (9.6, _GARDEN_Y + (GRID_ROWS - 1) * _ROW_STEP + 1.0)
    LAYOUTS = (_narrow_layout(),)
    FIGURES = (
        Figure("tableau", "Babette after the first row of the garden, in modern cards.",
               "The tableau of Babette after the first row, drawn in modern cards: a row "
               "of eight empty foundation places, four for the kings on the left and four "
               "for the aces on the right, and below them the first row of the garden, "
               "eight cards side by side. The pack is not shown.",
               piles=tuple(p.id for p in PILES[1:PLACES.start])
               + tuple(place_id(0, c) for c in range(COLUMNS))),
    )
    DIAGRAM_DEAL = 3
    ACTIONS = (
        ActionSpec("deal", "Deal a row", "d", ROWS),
        ActionSpec("redeal", "Take up and re-deal", "e", TAKE_UP),
    )
    LEDGER = {
        RULE_I: "A foundation takes only cards of its own suit, one rank at a time: up from "
                "the ace on the right, down from the king on the left.",
        RULE_II: "A vacancy in the garden is never filled: no move puts a card into the "
                 "garden, and each new row goes into its own line below every row dealt.",
        RULE_III: "Only an available card of the garden may be played: one with the place "
                  "directly below it, in the next row, empty (or, under the other reading, "
                  "with no card anywhere below it in its column); others are refused until "
                  "they are released.",
        GARDEN: "The game opens with the first row of eight cards dealt left to right into "
                "the garden’s eight columns.",
        FIRST_PLAYS: "Once a row is complete, any available ace, king or other suitable "
                     "card may be played to the foundations; the plays are the player’s "
                     "choice, and a card of the garden goes nowhere else.",
        FOUNDATIONS: "The first ace of each suit begins that suit’s ascending foundation and "
                     "the first king its descending one; the second ace and king can only "
                     "end the pile going the other way; nothing leaves a foundation.",
        ROWS: "The Deal a row button deals the next eight cards left to right, one into "
              "each column, until the pack is exhausted (the last row of a re-deal may be "
              "short).",
        DETACHED: "Each row goes into its own line of the grid, below the lowest row dealt, "
                  "in every column, whatever vacancies lie above it.",
        FINISH_ROW: "A row is dealt in one action, so a play can only be made when the row "
                    "in hand is complete.",
        TAKE_UP: "Once the pack is out and no available card can be played, the garden is "
                 "taken up column by column from the left, without shuffling, and dealt "
                 "again in rows, the rightmost column first (each column from its top card, "
                 "or under the other reading from its lowest); before then it is refused.",
        TWICE: "A third taking-up is refused; the game is lost when, after the second "
               "re-deal, the pack is out and no available card can be played.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        piles[STOCK] = tuple(shuffled(pack(2), deal))
        vs = [0] * len(cls.VARS)
        _deal_row(piles, vs)
        return State(tuple(piles), tuple(vs))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        redeals, rows = state.vars
        if redeals < 0 or not 0 <= rows <= GRID_ROWS:
            raise PositionError("a counter of the position is out of range")
        for i in PLACES:
            r, c = row_col(i)
            if len(state.piles[i]) > 1:
                raise PositionError(f"row {r + 1}, column {c + 1} holds more than one card")
            if r >= rows and state.piles[i]:
                raise PositionError(f"row {r + 1}, column {c + 1} lies below the rows dealt")
        return state

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def dealing(state: State) -> bool:
        """Whether the garden is still being laid out: cards remain in the pack."""
        return bool(state.piles[STOCK])

    @staticmethod
    def column(state: State, c: int) -> list[Card]:
        """The cards of column ``c``, from the first row down."""
        return [state.piles[place(r, c)][0] for r in range(GRID_ROWS)
                if state.piles[place(r, c)]]

    def available(self, state: State, r: int, c: int) -> bool:
        """Whether the card in row ``r`` of column ``c`` is available (Rule III, BB-1): the
        place directly below it is empty, or (the other reading) every place below it."""
        below = range(r + 1, GRID_ROWS if self.options.blocking is Blocking.COLUMN
                      else min(r + 2, GRID_ROWS))
        return not any(state.piles[place(q, c)] for q in below)

    def targets(self, state: State, card: Card) -> list[int]:
        """The foundations ``card`` may be played to."""
        return [f for f in FOUNDS if FOUNDATION_SET.accepts(state, f, card)]

    def plays(self, state: State) -> Iterator[tuple[int, int]]:
        """Every play: (place, foundation)."""
        for i in PLACES:
            if state.piles[i] and self.available(state, *row_col(i)):
                for f in self.targets(state, state.piles[i][0]):
                    yield i, f

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        for i, f in self.plays(state):
            yield Move.step(PILES[i].id, PILES[f].id)
        yield Move(action="deal")
        yield Move(action="redeal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if si == STOCK:
            return IllegalMove(ROWS, "The pack is dealt out in rows of eight: deal a row.")
        if si in FOUNDS:
            return IllegalMove(FOUNDATIONS, "Cards on the foundations stay there.")
        if di == STOCK:
            return IllegalMove(BOARD, "Nothing goes back to the pack.")
        if di in PLACES:
            return IllegalMove(RULE_II, "Vacancies in the garden are not to be refilled, and "
                               "no card is built on another there: a card of the garden "
                               "goes only to a foundation.")
        # si is a place of the garden, di a foundation.
        if not self.available(state, *row_col(si)):
            if self.options.blocking is Blocking.COLUMN:
                why = ("a card lower in its column blocks it until every card below it has "
                       "been removed")
            else:
                why = "the card in the next row, directly below it, blocks it"
            return IllegalMove(RULE_III, f"The {card.name} is not available: {why}.")
        return FOUNDATION_SET.refusal(state, di, card, PILES[di], RULE_I, FOUNDATIONS,
                                      follow="The foundations follow suit")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "deal":
            if not self.dealing(state):
                return IllegalMove(ROWS, "The pack is exhausted: the garden is laid out.")
            if state.vars[V_ROWS] >= GRID_ROWS:
                return IllegalMove(BOARD, "The garden has no room for another row.")
            return None
        if action == "redeal":
            if self.dealing(state):
                return IllegalMove(TAKE_UP, "The garden is taken up only when it is laid out: "
                                   "deal the rest of the pack first.")
            if state.vars[V_REDEALS] >= REDEALS_ALLOWED:
                return IllegalMove(TWICE, "The garden may be taken up twice, and it has been.")
            if any(True for _ in self.plays(state)):
                return IllegalMove(TAKE_UP, "The garden is taken up when all available cards "
                                   "have been played, and an available card can still be "
                                   "played.")
            if not any(state.piles[i] for i in PLACES):
                return IllegalMove(TAKE_UP, "The garden is empty: there is nothing to take up.")
            return None
        return IllegalMove(BOARD, f"Babette has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        vs = list(state.vars)
        if move.action == "deal":
            _deal_row(piles, vs)
        elif move.action == "redeal":
            squared = self.options.pickup is Pickup.SQUARED
            # Taken up from the left, each column under the last, and the pack turned: the
            # pack's top (its last card) is column 8's first card in the squared reading.
            order: list[Card] = []
            for c in reversed(range(COLUMNS)):
                col = self.column(state, c)
                order.extend(col if squared else col[::-1])
            for i in PLACES:
                piles[i] = ()
            piles[STOCK] = tuple(reversed(order))
            vs = [vs[V_REDEALS] + 1, 0]
            _deal_row(piles, vs)
        else:
            step = self.resolve_step(state, move)
            assert isinstance(step, Step)
            piles[step.src] = ()
            piles[step.dst] = piles[step.dst] + (step.card,)
        return State(tuple(piles), tuple(vs))

    # ---- the end ---------------------------------------------------------------------
    def outcome_of(self, state: State) -> Outcome | None:
        if sum(len(state.piles[f]) for f in FOUNDS) == TOTAL:
            return Outcome.WON
        if self.dealing(state) or state.vars[V_REDEALS] < REDEALS_ALLOWED:
            return None  # a row, or a re-deal, is still to come
        # Nothing moves but plays, so with none left after the last deal the game is lost.
        return None if any(True for _ in self.plays(state)) else Outcome.LOST

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = sum(len(state.piles[f]) for f in FOUNDS)
        if out is Outcome.WON:
            return "Won: all 104 cards are on the foundations."
        if out is Outcome.LOST:
            return (f"No card can be played and the garden has been taken up twice: the "
                    f"patience has failed with {played} of 104 cards played.")
        redeals = state.vars[V_REDEALS]
        deal_name = ("First deal", "Second deal (first re-deal)",
                     "Third deal (second re-deal)")[min(redeals, 2)]
        parts = [deal_name, plural(state.vars[V_ROWS], "row"),
                 f"pack {plural(len(state.piles[STOCK]), 'card')}",
                 f"{played} of 104 on the foundations"]
        if not self.dealing(state):
            left = REDEALS_ALLOWED - redeals
            if any(True for _ in self.plays(state)):
                parts.append("cards remain to be played")
            parts.append(f"{plural(left, 're-deal')} left" if left else "no re-deal left")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "deal":
            return "A row is dealt into the garden."
        if move.action == "redeal":
            n = state.vars[V_REDEALS] + 1
            return f"The garden is taken up column by column and re-dealt (re-deal {n} of 2)."
        step = self.resolve_step(state, move)
        if isinstance(step, IllegalMove):
            return step.message
        where = PILES[step.src].label
        if step.src in PLACES:
            r, c = row_col(step.src)
            where = f"row {r + 1}, column {c + 1} of the garden"
        return f"The {step.card.name} is played from {where} to the {PILES[step.dst].label}."


def _deal_row(piles: list[tuple[Card, ...]], vs: list[int]) -> None:
    """Deal the next row of the garden, left to right, into its own line below every row
    dealt, whatever vacancies lie above it (BB-5, BB-12)."""
    r = vs[V_ROWS]
    for c in range(COLUMNS):
        if not piles[STOCK]:
            break
        piles[place(r, c)] = piles[STOCK][-1:]
        piles[STOCK] = piles[STOCK][:-1]
    vs[V_ROWS] = r + 1

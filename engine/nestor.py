"""Nestor (one pack), by the book: 1914 printing, plate p. 62, text p. 63.

Piles: eight columns of six cards, dealt face up in six horizontal rows of eight so that no two
cards of equal value stand in one column (a card that would break the rule goes to the bottom
of the pack, and the next card is tried in its place); the four cards left over, the reserve,
face down, each in a place of its own; and the pairs thrown out. The lowest card of each
column is available, and any two available cards of equal value are paired and thrown out
together. When no more can be paired, the reserve is taken up one card at a time; a reserve
card that cannot be paired is put aside, and stays available. The game is won when all
fifty-two cards are paired. See the chapter page for the text each rule id points at, and
its editorial notes (``note-ne-N``) for the readings behind the options and the decisions.

Moves: a pair is one step from one available card to the other (``c2-c6``: the lowest card
of column 3 with the lowest card of column 7; ``r0-c4``: the first reserve card taken up with
the lowest card of column 5). The action ``turn`` takes up the next card of the reserve.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import Card, pack
from .core import (
    ActionSpec,
    Fan,
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
from .rules import plural

SLUG = "nestor"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
DEAL = _rule("deal")            # six rows of eight, dealt in horizontal lines
COLUMN = _rule("column")        # never two cards of equal value in one perpendicular line
ANYWHERE = _rule("anywhere")    # however many cards lie between them
DUPLICATE = _rule("duplicate")  # the duplicate to the bottom of the pack; deal the next card
RESERVE = _rule("reserve")      # the four cards left over are the reserve
PAIR = _rule("pair")            # pair the cards
LOWEST = _rule("lowest")        # only those of the lowest row, until their removal releases more
RECOURSE = _rule("recourse")    # when no more can be paired, the reserve, one by one
ASIDE = _rule("aside")          # a reserve card not paired is put aside, and may be paired later
FAILED = _rule("failed")        # if all the cards cannot be paired, the game has failed
BOARD = _rule("board")          # the board itself (notation errors, the pile itself)

COLUMNS_N = 8
ROWS_N = 6
RESERVE_N = 4
TOTAL = 52
#: A deal that comes to a place no card left can fill is void; the pack is shuffled afresh
#: (note NE-2). A bound on the attempts keeps the deal finite; it is never reached in practice.
MAX_ATTEMPTS = 1000


class ReserveUse(Enum):
    """NE-4: when the next reserve card may be taken up."""

    WHEN_STUCK = "when-stuck"  # only when no more can be paired
    ANY_TIME = "any-time"      # whenever the player likes


@dataclass(frozen=True, slots=True)
class NestorOptions:
    reserve_use: ReserveUse = option(
        ReserveUse.WHEN_STUCK, note="note-ne-4", label="The reserve is taken up",
        labels={ReserveUse.WHEN_STUCK: "only when no more can be paired",
                ReserveUse.ANY_TIME: "at any time"})
    reserve_shown: bool = option(
        False, note="note-ne-5", label="The reserve lies",
        labels={False: "face down", True: "face up, in view from the start"})
    reserve_pairs: bool = option(
        True, note="note-ne-7", label="Two reserve cards",
        labels={True: "may be paired with each other",
                False: "may not be paired with each other"})


# ---------------------------------------------------------------------------- the layout
# The eight columns as the plate sets them, each fanned downwards so that its lowest card is
# whole; the reserve centred below them, as the plate's packet; the pairs thrown out at the
# right of the reserve.

_FAN = 2.0          # the furthest a column of six spreads, in card heights
_RESERVE_Y = 2.7
_RESERVE_X = 2.0

PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"c{k}", f"column {k + 1}", Role.TABLEAU, float(k), 0.0, Fan.DOWN,
                   fan_limit=_FAN) for k in range(COLUMNS_N))
    + tuple(PileSpec(f"r{k}", f"reserve card {k + 1}", Role.RESERVE, _RESERVE_X + k,
                     _RESERVE_Y, capacity=1, mark=f"res. {k + 1}") for k in range(RESERVE_N))
    + (PileSpec("out", "pairs", Role.DISCARD, 7.0, _RESERVE_Y),)
)

COLUMNS = range(COLUMNS_N)
RESERVES = range(COLUMNS_N, COLUMNS_N + RESERVE_N)
OUT = COLUMNS_N + RESERVE_N
V_TURNED = 0


def _narrow_layout() -> Layout:
    """For a phone: the same arrangement, the reserve and the pairs one row lower."""
    return Layout(name="narrow", max_width=560, grid=(8.0, 4.1),
                  at={**{f"r{k}": (_RESERVE_X + k, 3.1, 0) for k in range(RESERVE_N)},
                      "out": (7.0, 3.1, 0)})


def deal_tableau(cards: list[Card]) -> tuple[list[list[Card]], list[Card]] | None:
    """Deal ``cards`` (the top of the pack last) in horizontal lines, six rows of eight, by
    the column rule: a card whose value already stands in the column it would enter goes to
    the bottom of the pack, and the next card is tried in the same place. The columns (top
    card first) and the four cards left (top last), or None when a place comes that no card
    left can fill (the deal is void, note NE-2)."""
    stock = list(cards)
    columns: list[list[Card]] = [[] for _ in COLUMNS]
    for _row in range(ROWS_N):
        for col in COLUMNS:
            ranks = {c.rank for c in columns[col]}
            for _try in range(len(stock)):
                card = stock.pop()
                if card.rank not in ranks:
                    columns[col].append(card)
                    break
                stock.insert(0, card)  # the duplicate to the bottom of the pack in hand
            else:
                return None
    return columns, stock


def column_clash(cards: tuple[Card, ...]) -> bool:
    """Whether two cards of equal value stand in one column."""
    return len({c.rank for c in cards}) != len(cards)


class Nestor(Game):
    slug = SLUG
    title = "Nestor"
    packs = 1
    Options = NestorOptions
    PILES = PILES
    VARS = ("turned",)
    GRID = (8.0, _RESERVE_Y + 1.0)
    LAYOUTS = (_narrow_layout(),)
    FIGURES = (
        Figure("tableau", "Nestor after the deal, in modern cards.",
               "The tableau of Nestor just after the deal, drawn in modern cards: eight "
               "columns of six cards face up, each fanned downwards so that its lowest card "
               "is whole and the others show their corners; no two cards of equal value "
               "stand in one column. Below them lie the four cards of the reserve, face down.",
               piles=tuple(PILES[k].id for k in (*COLUMNS, *RESERVES))),
    )
    ACTIONS = (ActionSpec("turn", "Take up a reserve card", "t", RECOURSE),)
    LEDGER = {
        DEAL: "The deal lays forty-eight cards face up in six horizontal rows of eight, from "
              "the top of the pack, row by row from the top, each row from left to right; "
              "the board draws each column as a pile fanned downwards.",
        COLUMN: "No two cards of equal value, whatever their suits, are ever dealt into one "
                "column; a position with two in one column is refused as impossible.",
        ANYWHERE: "The rule holds for the whole column, however many cards lie between the "
                  "two: a card is tried against every card already dealt into its column.",
        DUPLICATE: "A card that would break the rule goes to the bottom of the pack and the "
                   "next card is tried in the same place; if no card left can fill the place, "
                   "the deal is void and the pack is shuffled afresh (note NE-2).",
        RESERVE: "The four cards left after the deal are the reserve, laid face down in four "
                 "places below the tableau (face up under the other reading of note NE-5).",
        PAIR: "Any two available cards of equal value, whatever their suits and wherever "
              "they lie, are paired and thrown out together; two cards of different values "
              "are refused.",
        LOWEST: "Only the lowest card of each column is available; a card above it is "
                "refused until the cards below it have been paired, and an emptied column "
                "stays empty.",
        RECOURSE: "“Take up a reserve card” turns the reserve cards face up one at a time, in "
                  "order; it is refused while a pair can be made among the available cards "
                  "(at any time under the other reading of note NE-4) and once all four are "
                  "taken up.",
        ASIDE: "A reserve card taken up stays in its place, face up and available, until it "
               "is paired; it may be paired with a card of the tableau or with another reserve "
               "card taken up (not with another reserve card under the other reading of note "
               "NE-7).",
        FAILED: "The game is won when all fifty-two cards are paired; it is lost when no pair "
                "can be made and the reserve is all taken up (note NE-8). There is no re-deal.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        for attempt in range(MAX_ATTEMPTS):  # a void deal: shuffle afresh (note NE-2)
            dealt = deal_tableau(shuffled(pack(1), deal, stream=attempt))
            if dealt is not None:
                break
        else:  # pragma: no cover - never happens
            raise RuntimeError("no deal could be completed")
        columns, left = dealt
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for k in COLUMNS:
            piles[k] = tuple(columns[k])
        for j, k in enumerate(RESERVES):  # the top card of those left is the first reserve
            piles[k] = (left[-1 - j],)
        return State(tuple(piles), (0,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        if any(len(state.piles[k]) > ROWS_N for k in COLUMNS):
            raise PositionError("a column holds six cards at most")
        if any(column_clash(state.piles[k]) for k in COLUMNS):
            raise PositionError("a column holds two cards of equal value")
        if any(len(state.piles[k]) > 1 for k in RESERVES):
            raise PositionError("a place of the reserve holds one card at most")
        turned = state.vars[V_TURNED]
        if not 0 <= turned <= RESERVE_N:
            raise PositionError("the counter turned runs from 0 to 4")
        if any(not state.piles[RESERVES[j]] for j in range(turned, RESERVE_N)):
            raise PositionError("a reserve card not yet taken up is missing")
        out = state.piles[OUT]
        if len(out) % 2 or any(out[i].rank != out[i + 1].rank for i in range(0, len(out), 2)):
            raise PositionError("the cards thrown out are not pairs of equal value")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def available(self, state: State) -> list[int]:
        """The piles whose top card is available: each column's lowest card, and each
        reserve card taken up and not yet paired."""
        turned = state.vars[V_TURNED]
        return ([k for k in COLUMNS if state.piles[k]]
                + [RESERVES[j] for j in range(turned) if state.piles[RESERVES[j]]])

    def may_pair(self, a: int, b: int) -> bool:
        return self.options.reserve_pairs or a not in RESERVES or b not in RESERVES

    def pairs(self, state: State) -> Iterator[tuple[int, int]]:
        """Every two piles whose available cards may be paired (lower pile first)."""
        av = self.available(state)
        for i, a in enumerate(av):
            for b in av[i + 1:]:
                if state.piles[a][-1].rank == state.piles[b][-1].rank and self.may_pair(a, b):
                    yield a, b

    def first_pair(self, state: State) -> tuple[int, int] | None:
        return next(self.pairs(state), None)

    @staticmethod
    def paired(state: State) -> int:
        return len(state.piles[OUT])

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        for a, b in self.pairs(state):
            yield Move.step(PILES[a].id, PILES[b].id)
            yield Move.step(PILES[b].id, PILES[a].id)
        yield Move(action="turn")

    def _unavailable(self, state: State, pile: int, k: int, card: Card) -> IllegalMove | None:
        """Why the card at index ``k`` of ``pile`` may not be paired now (None: it may)."""
        if pile == OUT:
            return IllegalMove(PAIR, f"The {card.name} has been paired already: the cards "
                               "paired take no further part in the game.")
        if pile in COLUMNS:
            if k != len(state.piles[pile]) - 1:
                return IllegalMove(LOWEST, f"The {card.name} is not in the lowest row: only "
                                   "the lowest card of a column is taken, until its removal "
                                   "releases the card above.")
            return None
        if pile - RESERVES[0] >= state.vars[V_TURNED]:
            return IllegalMove(RECOURSE, "The reserve cards are taken up one by one, with "
                               "“Take up a reserve card”, before they can be paired.")
        return None

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        if si == di:
            return IllegalMove(BOARD, f"The {card.name} cannot be paired with itself.")
        why = self._unavailable(state, si, step.k, card)
        if why is not None:
            return why
        if di == OUT:
            return IllegalMove(PAIR, f"The {card.name} is thrown out only with another card "
                               "of equal value: put it on that card.")
        target = state.piles[di]
        if not target:
            return IllegalMove(PAIR, f"The {card.name} is thrown out only with another card "
                               "of equal value; an empty place takes no card.")
        other = target[-1]
        why = self._unavailable(state, di, len(target) - 1, other)
        if why is not None:
            return why
        if other.rank != card.rank:
            return IllegalMove(PAIR, f"The {card.name} and the {other.name} are not of equal "
                               "value, and do not make a pair.")
        if not self.may_pair(si, di):
            return IllegalMove(ASIDE, "Under the reading chosen (note NE-7), two reserve "
                               "cards are not paired with each other: each waits for a card "
                               "of the tableau.")
        return None

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "turn":
            turned = state.vars[V_TURNED]
            if turned >= RESERVE_N:
                return IllegalMove(RECOURSE, "All four cards of the reserve have been taken "
                                   "up.")
            pair = self.first_pair(state)
            if pair is not None and self.options.reserve_use is ReserveUse.WHEN_STUCK:
                a, b = pair
                return IllegalMove(RECOURSE, "The reserve is taken up only when no more can "
                                   f"be paired: the {state.piles[a][-1].name} and the "
                                   f"{state.piles[b][-1].name} make a pair.")
            return None
        if action in ("deal", "redeal"):
            return IllegalMove(FAILED, "Once the tableau is dealt there is no more dealing: "
                               "if all the cards cannot be paired, the game has failed.")
        return IllegalMove(BOARD, f"Nestor has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        if move.action == "turn":
            return State(state.piles, (state.vars[V_TURNED] + 1,))
        (src, dst), = move.steps
        a, b = self.pile_index(src), self.pile_index(dst)
        piles = list(state.piles)
        piles[OUT] = piles[OUT] + piles[a][-1:] + piles[b][-1:]
        piles[a] = piles[a][:-1]
        piles[b] = piles[b][:-1]
        return State(tuple(piles), state.vars)

    def solver_spent(self) -> tuple[int, ...]:
        """The pairs thrown out: they take no further part, and no rule reads their order."""
        return (OUT,)

    # ---- the end ---------------------------------------------------------------------
    def outcome_of(self, state: State) -> Outcome | None:
        if self.paired(state) == TOTAL:
            return Outcome.WON
        if state.vars[V_TURNED] < RESERVE_N or self.first_pair(state) is not None:
            return None
        return Outcome.LOST

    # ---- board -----------------------------------------------------------------------
    def card_faces(self, state: State, pile: int) -> list[dict[str, Any]]:
        cards = state.piles[pile]
        if pile in COLUMNS:  # every card face up; only the lowest available (NE-3)
            return [{"c": str(c)} for c in cards]
        if pile in RESERVES:
            if pile - RESERVES[0] < state.vars[V_TURNED]:
                return [{"c": str(c)} for c in cards]
            if self.options.reserve_shown:
                return [{"c": str(c), "peek": True} for c in cards]
            return [{"c": None} for _ in cards]
        return super().card_faces(state, pile)

    def status_line(self, state: State, out: Outcome | None) -> str:
        done = self.paired(state)
        left = RESERVE_N - state.vars[V_TURNED]
        if out is Outcome.WON:
            return "Won: all fifty-two cards are paired."
        if out is Outcome.LOST:
            return (f"No more can be paired and the reserve is exhausted: the game has failed "
                    f"with {done} of {TOTAL} cards paired.")
        parts = [f"Paired: {done} of {TOTAL}",
                 f"reserve: {left} to take up" if left else "reserve: all taken up"]
        n = sum(1 for _ in self.pairs(state))
        if n:
            parts.append(f"{plural(n, 'pair')} to be made")
        else:
            parts.append("no more can be paired: take up a reserve card")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "turn":
            j = state.vars[V_TURNED]
            card = state.piles[RESERVES[j]][-1] if j < RESERVE_N else None
            return (f"The {card.name} is taken up from the reserve." if card else
                    "Take up a reserve card.")
        step = self.resolve_step(state, move)
        if not isinstance(step, Step) or not state.piles[step.dst]:
            return super().describe(state, move)
        other = state.piles[step.dst][-1]
        return f"The {step.card.name} and the {other.name} are paired and thrown out."

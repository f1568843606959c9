"""The Labyrinth (two packs), by the book: 1914 printing, plate p. 66, text pp. 67–68.

Piles: the pack; a line of eight foundations above the tableau, the four kings of different
suits on the left (descending to aces) and the four aces on the right (ascending to kings),
withdrawn from the pack before the deal; a place for the one card removed by the grace; and
the tableau, ten columns, into which the pack is dealt in horizontal rows of ten, each row
underneath the last.

A card of the tableau is available when it is free from the top or from the bottom: when no
card lies above it in its column, or none below it (Rule II, note LA-1). An available card
may be played to a foundation; nothing is built in the tableau. Only vacancies in the row
being dealt (the lowest row) are refilled from the pack (Rule III); by default the player
refills them when the plays are done, and must do so before the next row is dealt (LA-2).
When the pack is exhausted and nothing can be played, the player may remove any one card of
the tableau: the grace (LA-4). There is no re-deal.

The tableau is a grid, as the plate draws it: each place (row ``r``, column ``c``, from 0) is
a pile of at most one card, ``t{10r + c}`` (``t0``–``t9`` the first row), so that a gap keeps its place and the board shows
it, above all the vacancies of the row being dealt, which the refills go into. Eleven rows
hold any deal (ten full rows and four cards when the foundations come from the deal); a
counter records how many rows have been dealt. See the chapter page for the text each rule
id points at, and its editorial notes (``note-la-N``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, SUITS, Card, pack
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

SLUG = "the-labyrinth"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # the foundations follow suit
RULE_II = _rule("rule-2")             # only cards free from the top or the bottom
RULE_III = _rule("rule-3")            # refill vacancies only in the row being dealt
RULE_IV = _rule("rule-4")             # each row completed before playing from it
FOUNDATIONS = _rule("foundations")    # withdraw four kings and four aces ...
FIRST_ROW = _rule("first-row")        # deal ten cards ... refilling the vacancies
SECOND_ROW = _rule("second-row")      # a second row underneath, playing also from above
GAPS = _rule("gaps")                  # only the last row refilled: many gaps
SUCCESSIVE = _rule("successive")      # the entire pack in rows, each blocking the last
GRACE = _rule("grace")                # the grace: remove any one card
NO_REDEAL = _rule("no-redeal")        # there is no re-deal
NOTE_1 = _rule("note-1")              # foundations taken when they appear in the deal
BOARD = _rule("board")                # the board itself (notation errors)

COLUMNS = 10
ROWS = 11       # the most rows a deal can need (Note 1: ten full rows and four cards)
TOTAL = 104


class Refill(Enum):
    """LA-2: when the vacancies of the row being dealt are refilled."""

    AFTER_PLAYS = "after-plays"   # by the player, when the plays are done; before the next row
    IMMEDIATE = "immediate"       # at once, as each vacancy is made
    OPTIONAL = "optional"         # at the player's choice; the next row may be dealt over them


class Bases(Enum):
    """LA-5: where the foundation cards come from (Note 1)."""

    WITHDRAWN = "withdrawn"   # four aces and four kings withdrawn before the deal
    FROM_DEAL = "from-deal"   # played from the tableau when they become available


class GraceCard(Enum):
    """LA-4: what becomes of the card removed by the grace."""

    PLAYABLE = "playable"   # set aside face up, and played to its foundation when it fits
    DEAD = "dead"           # out of the game: the patience succeeds without it


@dataclass(frozen=True, slots=True)
class LabyrinthOptions:
    refill: Refill = option(
        Refill.AFTER_PLAYS, note="note-la-2", label="Vacancies in the row being dealt",
        labels={Refill.AFTER_PLAYS: "refilled when the plays are done, before the next row",
                Refill.IMMEDIATE: "refilled at once, as each is made",
                Refill.OPTIONAL: "refilled at the player’s choice, or left"})
    grace_card: GraceCard = option(
        GraceCard.PLAYABLE, note="note-la-4", label="The card removed by the grace",
        labels={GraceCard.PLAYABLE: "is set aside and may still be played",
                GraceCard.DEAD: "is out of the game"})
    bases: Bases = option(
        Bases.WITHDRAWN, note="note-la-5", label="The foundations",
        labels={Bases.WITHDRAWN: "withdrawn from the pack before the deal",
                Bases.FROM_DEAL: "taken when they appear in the deal (Note 1)"})


# ---------------------------------------------------------------------------- the layout
# A line of eight foundations above the tableau (the plate leaves them out, Note 2): kings
# on the left, aces on the right; the grace card and the pack beside them. Below, the grid of
# the tableau, ten columns of eleven places; each row half covers the row above, so that a
# card's index shows and a gap leaves the felt bare between the cards above and below it.

_X = tuple(float(c) for c in range(COLUMNS))
_TABLEAU_Y = 1.3
_ROW_STEP = 0.7     # grid rows (a card is 0.93 of one): 0.47 of a gap shows between cards


def place_id(r: int, c: int) -> str:
    """The pile id of the place in row ``r``, column ``c`` (from 0): ``t`` and the number
    ``10 r + c``, whose last digit is the column (``t37``: the fourth row, eighth column)."""
    return f"t{10 * r + c}"


def place_label(r: int, c: int) -> str:
    """A place's short label, drawn in it when it is empty (row and column, from 1)."""
    return f"R{r + 1} C{c + 1}"


def place_name(r: int, c: int) -> str:
    return f"row {r + 1}, column {c + 1}"


PILES: tuple[PileSpec, ...] = (
    (PileSpec("stock", "the pack", Role.STOCK, 9.0, 0.0),)
    + tuple(PileSpec(f"k{j}", f"king foundation of {s.noun}", Role.FOUNDATION, _X[j], 0.0,
                     mark=f"{s.symbol} K–A")
            for j, s in enumerate(SUITS))
    + tuple(PileSpec(f"a{j}", f"ace foundation of {s.noun}", Role.FOUNDATION, _X[4 + j], 0.0,
                     mark=f"{s.symbol} A–K")
            for j, s in enumerate(SUITS))
    + (PileSpec("grace", "the card removed by the grace", Role.RESERVE, 8.0, 0.0,
                 mark="grace"),)
    + tuple(PileSpec(place_id(r, c), place_label(r, c), Role.TABLEAU, _X[c],
                     _TABLEAU_Y + r * _ROW_STEP, capacity=1)
            for r in range(ROWS) for c in range(COLUMNS))
)

STOCK = 0
DESC = range(1, 5)    # the kings' foundations, in the order of SUITS
ASC = range(5, 9)     # the aces' foundations
FOUNDS = range(1, 9)
GRACE_PILE = 9
PLACES = range(10, 10 + ROWS * COLUMNS)
FOUNDATION_SET = SuitFoundations(ASC, DESC)
V_ROWS, V_GRACE = 0, 1


def place(r: int, c: int) -> int:
    """The pile index of the place in row ``r``, column ``c``."""
    return PLACES.start + r * COLUMNS + c


def row_col(i: int) -> tuple[int, int]:
    """The row and column of the place with pile index ``i``."""
    return divmod(i - PLACES.start, COLUMNS)


def _narrow_layout() -> Layout:
    """The phone: ten columns of full-width cards do not fit, so the columns (and the
    foundations) overlap sideways, each card's index still showing at its top left."""
    step = 0.75
    at: dict[str, tuple[float, float, int]] = {"grace": (8 * step, 0.0, 0),
                                               "stock": (9 * step, 0.0, 0)}
    for j in range(4):
        at[f"k{j}"] = (j * step, 0.0, 0)
        at[f"a{j}"] = ((4 + j) * step, 0.0, 0)
    for r in range(ROWS):
        for c in range(COLUMNS):
            at[place_id(r, c)] = (c * step, 1.4 + r * _ROW_STEP, 0)
    return Layout("narrow", (9 * step + 1.0, 1.4 + (ROWS - 1) * _ROW_STEP + 1.0), at,
                  max_width=560)


class TheLabyrinth(Game):
    slug = SLUG
    title = "The Labyrinth"
    packs = 2
    Options = LabyrinthOptions
    PILES = PILES
    VARS = ("rows", "grace")
    GRID = (10.0, _TABLEAU_Y + (ROWS - 1) * _ROW_STEP + 1.0)
    LAYOUTS = (_narrow_layout(),)
    FIGURES = (
        Figure("tableau", "The Labyrinth after the first row, in modern cards.",
               "The tableau of The Labyrinth after the first row, drawn in modern cards: "
               "the line of eight foundations above, the four kings on the left and the "
               "four aces on the right, and below them the first row of the tableau, ten "
               "cards side by side. The pack is not shown.",
               piles=tuple(p.id for p in PILES[:GRACE_PILE])[1:]
               + tuple(place_id(0, c) for c in range(COLUMNS))),
    )
    DIAGRAM_DEAL = 3
    ACTIONS = (
        ActionSpec("deal", "Deal a row", "d", SUCCESSIVE),
        ActionSpec("fill", "Refill the row", "f", RULE_III),
    )
    #: A click on the pack deals the next row, or refills the row being dealt when that is
    #: what the pack may do (the vacancies must be refilled before the next row).
    PACK_ACTIONS = ("deal", "fill")
    LEDGER = {
        RULE_I: "A foundation takes only cards of its own suit, one rank at a time: up from "
                "the ace, down from the king.",
        RULE_II: "Only the highest or the lowest card of a column may be played; a card "
                 "with cards both above and below it is refused until one side is cleared.",
        RULE_III: "A refill goes only into a vacancy of the row being dealt, from the pack; "
                  "vacancies in earlier rows are never filled, and no move puts a card into "
                  "the tableau.",
        RULE_IV: "A row is dealt in one action, so no card is played while a row is "
                 "incomplete.",
        FOUNDATIONS: "The game opens with an ace and a king of each suit on the foundations, "
                     "out of the pack; under Note 1 the foundations begin empty and take the "
                     "first ace and king of each suit from the tableau.",
        FIRST_ROW: "The game opens with a row of ten cards dealt; by default the vacancies "
                   "of that row must be refilled (Refill the row) before the next is dealt, "
                   "or are refilled at once, or may be left, as the reading chosen says.",
        SECOND_ROW: "Each Deal a row puts ten cards underneath, one in each column; the "
                    "highest card of a column stays playable however many rows lie below.",
        GAPS: "A vacancy above the row being dealt stays a gap to the end of the game.",
        SUCCESSIVE: "Each new row covers the cards above it, and a card becomes playable "
                    "again only when every card below it, or every card above it, has gone.",
        GRACE: "Once the pack is out and nothing can be played, any one card of the "
               "tableau may be moved to the grace place, once only; it stays playable to its "
               "foundation unless the reading chosen makes it dead; before then the grace is "
               "refused.",
        NO_REDEAL: "There is no re-deal: once the grace is used and nothing can be played, "
                   "the game is lost.",
        NOTE_1: "Under Note 1 all 104 cards are dealt, and each ace and king begins its "
                "foundation when it is available in the tableau and played there.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        cards = list(pack(2))
        if options.bases is Bases.WITHDRAWN:
            for j, s in enumerate(SUITS):
                cards.remove(Card(ACE, s))
                cards.remove(Card(KING, s))
                piles[ASC[j]] = (Card(ACE, s),)
                piles[DESC[j]] = (Card(KING, s),)
        piles[STOCK] = tuple(shuffled(cards, deal))
        vs = [0] * len(cls.VARS)
        _deal_row(piles, vs)
        return State(tuple(piles), tuple(vs))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        rows, grace = state.vars
        if not 1 <= rows <= ROWS or grace not in (0, 1):
            raise PositionError("a counter of the position is out of range")
        for i in PLACES:
            r, c = row_col(i)
            if len(state.piles[i]) > 1:
                raise PositionError(f"{place_name(r, c)} holds more than one card")
            if r >= rows and state.piles[i]:
                raise PositionError(f"{place_name(r, c)} lies below the rows dealt")
        if state.piles[GRACE_PILE] and not grace or len(state.piles[GRACE_PILE]) > 1:
            raise PositionError("the grace place does not agree with the grace counter")
        return state

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def vacancies(state: State) -> list[int]:
        """The columns with a vacancy in the row being dealt (the lowest row)."""
        r = state.vars[V_ROWS] - 1
        return [c for c in range(COLUMNS) if not state.piles[place(r, c)]]

    @staticmethod
    def available(state: State, r: int, c: int) -> bool:
        """Whether the card in row ``r`` of column ``c`` is free from the top or from the
        bottom: no card anywhere above it in its column, or none anywhere below (Rule II,
        LA-1)."""
        p = state.piles
        return (not any(p[place(q, c)] for q in range(r))
                or not any(p[place(q, c)] for q in range(r + 1, ROWS)))

    def targets(self, state: State, card: Card) -> list[int]:
        return [f for f in FOUNDS if FOUNDATION_SET.accepts(state, f, card)]

    def plays(self, state: State) -> Iterator[tuple[int, int]]:
        """Every play: (pile, foundation)."""
        for c in range(COLUMNS):
            filled = [r for r in range(ROWS) if state.piles[place(r, c)]]
            for r in sorted({filled[0], filled[-1]}) if filled else ():
                i = place(r, c)
                for f in self.targets(state, state.piles[i][0]):
                    yield i, f
        grace = state.piles[GRACE_PILE]
        if grace and self.options.grace_card is GraceCard.PLAYABLE:
            for f in self.targets(state, grace[-1]):
                yield GRACE_PILE, f

    def grace_open(self, state: State) -> bool:
        """Whether the grace may be taken now."""
        return (not state.piles[STOCK] and not state.vars[V_GRACE]
                and not any(True for _ in self.plays(state))
                and any(state.piles[i] for i in PLACES))

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        for i, f in self.plays(state):
            yield Move.step(PILES[i].id, PILES[f].id)
        yield Move(action="deal")
        yield Move(action="fill")
        if self.grace_open(state):
            for i in PLACES:
                if state.piles[i]:
                    yield Move.step(PILES[i].id, "grace")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if si == STOCK:
            return IllegalMove(SUCCESSIVE, "The pack is dealt out in rows of ten, and "
                               "vacancies are refilled from it: deal a row or refill.")
        if si in FOUNDS:
            return IllegalMove(FOUNDATIONS, "Cards on the foundations stay there.")
        if di == STOCK:
            return IllegalMove(BOARD, "Nothing goes back to the pack.")
        if di in PLACES:
            return IllegalMove(RULE_III, "No card is placed in the tableau except from the "
                               "pack, into a vacancy of the row being dealt: a card of the "
                               "tableau goes only to a foundation.")
        if di == GRACE_PILE:
            if si == GRACE_PILE:
                return IllegalMove(BOARD, "The card is already there.")
            if state.vars[V_GRACE]:
                return IllegalMove(GRACE, "The grace allows only one card to be removed, "
                                   "and it has been used.")
            if state.piles[STOCK]:
                return IllegalMove(GRACE, "The grace comes only when the pack is "
                                   "exhausted.")
            if any(True for _ in self.plays(state)):
                return IllegalMove(GRACE, "The grace comes only when all available cards "
                                   "have been played, and one can still be played.")
            return None
        # di is a foundation.
        if si == GRACE_PILE:
            if self.options.grace_card is GraceCard.DEAD:
                return IllegalMove(GRACE, "Under the reading chosen, the card removed by "
                                   "the grace is out of the game.")
        else:
            r, c = row_col(si)
            if not self.available(state, r, c):
                return IllegalMove(RULE_II, f"The {card.name} is not available: it is free "
                                   "neither from the top nor from the bottom of its column.")
        return FOUNDATION_SET.refusal(state, di, card, PILES[di], RULE_I, FOUNDATIONS,
                                      follow="The foundations follow suit")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "deal":
            if not state.piles[STOCK]:
                return IllegalMove(NO_REDEAL, "The pack is exhausted, and there is no "
                                   "re-deal.")
            if self.options.refill is not Refill.OPTIONAL and self.vacancies(state):
                return IllegalMove(FIRST_ROW, "The vacancies of the row being dealt are "
                                   "refilled from the pack before the next row: refill the "
                                   "row first.")
            if state.vars[V_ROWS] >= ROWS:
                return IllegalMove(BOARD, "The tableau has no room for another row.")
            return None
        if action == "fill":
            if not state.piles[STOCK]:
                return IllegalMove(RULE_III, "The pack is exhausted: there is nothing to "
                                   "refill with.")
            if not self.vacancies(state):
                return IllegalMove(RULE_III, "The row being dealt has no vacancy; vacancies "
                                   "in earlier rows are never refilled.")
            return None
        return IllegalMove(BOARD, f"The Labyrinth has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        vs = list(state.vars)
        if move.action == "deal":
            _deal_row(piles, vs)
        elif move.action == "fill":
            _fill(piles, vs)
        else:
            step = self.resolve_step(state, move)
            assert isinstance(step, Step)
            piles[step.src] = ()
            piles[step.dst] = piles[step.dst] + (step.card,)
            if step.dst == GRACE_PILE:
                vs[V_GRACE] = 1
            if (step.src in PLACES and row_col(step.src)[0] == vs[V_ROWS] - 1
                    and self.options.refill is Refill.IMMEDIATE):
                _fill(piles, vs)   # a vacancy of the row being dealt, refilled at once
        return State(tuple(piles), tuple(vs))

    # ---- the end ---------------------------------------------------------------------
    def outcome_of(self, state: State) -> Outcome | None:
        played = sum(len(state.piles[f]) for f in FOUNDS)
        if played == TOTAL:
            return Outcome.WON
        if (self.options.grace_card is GraceCard.DEAD and state.piles[GRACE_PILE]
                and played + 1 == TOTAL):
            return Outcome.WON
        if state.piles[STOCK] or not state.vars[V_GRACE]:
            return None  # a row, a refill or the grace is still to come
        # Nothing moves but plays now, so with none left the game is lost (no re-deal).
        return None if any(True for _ in self.plays(state)) else Outcome.LOST

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = sum(len(state.piles[f]) for f in FOUNDS)
        if out is Outcome.WON:
            if played < TOTAL:
                return "Won: every card but the one removed by the grace is on the foundations."
            return "Won: all 104 cards are on the foundations."
        if out is Outcome.LOST:
            return (f"No card can be played and the grace has been used: the patience has "
                    f"failed with {played} of 104 cards played.")
        parts = [plural(state.vars[V_ROWS], "row"),
                 f"pack {plural(len(state.piles[STOCK]), 'card')}",
                 f"{played} of 104 on the foundations"]
        if state.piles[STOCK] and self.vacancies(state):
            n = len(self.vacancies(state))
            parts.append(f"{n} {'vacancy' if n == 1 else 'vacancies'} in the row being dealt")
        if self.grace_open(state):
            parts.append("the grace may be taken: remove any one card")
        elif state.vars[V_GRACE]:
            parts.append("grace used")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "deal":
            return "A row of ten is dealt underneath the last."
        if move.action == "fill":
            return "The vacancies of the row being dealt are refilled from the pack."
        step = self.resolve_step(state, move)
        if isinstance(step, IllegalMove):
            return step.message
        where = (f"row {row_col(step.src)[0] + 1}, column {row_col(step.src)[1] + 1}"
                 if step.src in PLACES else PILES[step.src].label)
        if step.dst == GRACE_PILE:
            return f"The grace: the {step.card.name} is removed from {where}."
        return f"The {step.card.name} is played from {where} to the {PILES[step.dst].label}."


def _deal_row(piles: list[tuple[Card, ...]], vs: list[int]) -> None:
    """Deal the next row of ten, left to right, one card into each column, below the last
    row whatever gaps lie above (LA-7)."""
    r = vs[V_ROWS]
    for c in range(COLUMNS):
        if not piles[STOCK]:
            break
        piles[place(r, c)] = piles[STOCK][-1:]
        piles[STOCK] = piles[STOCK][:-1]
    vs[V_ROWS] = r + 1


def _fill(piles: list[tuple[Card, ...]], vs: list[int]) -> None:
    """Refill the vacancies of the row being dealt from the pack, left to right (LA-2)."""
    r = vs[V_ROWS] - 1
    for c in range(COLUMNS):
        if not piles[STOCK]:
            break
        if not piles[place(r, c)]:
            piles[place(r, c)] = piles[STOCK][-1:]
            piles[STOCK] = piles[STOCK][:-1]

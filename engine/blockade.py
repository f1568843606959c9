"""The Blockade (two packs), by the book: 1914 printing, plate p. 24, text p. 25.

Piles: the pack; eight places for the foundations above the tableau, as in the plate; and the
tableau, twelve columns of places, one place for each row that may be dealt (nine at most, since
a hundred and four cards make eight rows of twelve and a short ninth). Each place holds the card
dealt there and the cards married on it, which lie "exactly over" it and so never look like
another row. Rows are dealt one under another, each blocking the one before it (Rule I): in
each column only the lowest place that still holds cards is available, and of it only its top
card. A card goes to its foundation (ascending in suit from the ace), or is married onto the
available card of another column of its suit and one rank higher. A place emptied is a vacancy;
the vacancies are refilled from the pack, the higher rows first, when the player asks, and must
be refilled before the next row is dealt. Once the pack is exhausted nothing fills an empty
place. See the chapter page for the text each rule id points at, and its editorial notes
(``note-bk-N``) for the readings behind the options and decisions.
"""

from __future__ import annotations

import dataclasses
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
    Region,
    Role,
    State,
    Step,
    option,
)
from .deal import shuffled
from .rules import SuitFoundations, plural, stuck_after

SLUG = "the-blockade"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # the first row available; each row blocks the one before
RELEASE = _rule("release")            # a removal releases the card above: none below, available
RULE_II = _rule("rule-2")             # the foundations follow suit
DEAL = _rule("deal")                  # deal out twelve cards in a horizontal line
ACES = _rule("aces")                  # aces as they appear; nothing else till the row is complete
FOUNDATIONS = _rule("foundations")    # the eight aces, ascending in sequence to kings
MARRIAGES = _rule("marriages")        # play, then marry in descending line, exactly over
REFILL = _rule("refill")              # vacancies refilled from the pack; again play and marry
NEXT_ROW = _rule("next-row")          # when neither can be done, another row underneath
ROWS = _rule("rows")                  # successive rows until the pack is exhausted
HIGHER_ROWS = _rule("higher-rows")    # vacancies in the higher rows are refilled first
NO_REDEAL = _rule("no-redeal")        # there is no re-deal
BOARD = _rule("board")                # the board itself (notation errors)

COLUMNS = 12
MAX_ROWS = 9            # 104 cards: eight rows of twelve and a ninth of eight at most
CARDS = 104
SEARCH_LIMIT = 4000     # positions explored at most when judging whether a game is lost


class AcesInDeal(Enum):
    """BK-4: what becomes of an ace that turns up in the deal."""

    VACANCY = "vacancy"    # it lies where it falls until played; its place is then a vacancy
    REPLACED = "replaced"  # it is played as it appears, and the next card takes its place


class NextRow(Enum):
    """BK-6: when the next row may be dealt (the vacancies refilled in either case)."""

    NEITHER = "neither"  # only when no card can be played or married
    CHOICE = "choice"    # whenever the player chooses


@dataclass(frozen=True, slots=True)
class BlockadeOptions:
    aces: AcesInDeal = option(
        AcesInDeal.VACANCY, note="note-bk-4", label="An ace that turns up in the deal",
        labels={AcesInDeal.VACANCY: "lies in its place until played, leaving a vacancy",
                AcesInDeal.REPLACED: "is played at once, the next card taking its place"})
    next_row: NextRow = option(
        NextRow.NEITHER, note="note-bk-6", label="The next row may be dealt",
        labels={NextRow.NEITHER: "only when no card can be played or married",
                NextRow.CHOICE: "whenever the player chooses"})


# ---------------------------------------------------------------------------- the layout

_ROW_Y0 = 1.3            # the first row, below the foundations
_FOUND_X = tuple(1.55 + 1.3 * k for k in range(8))


def foundation_name(f: int) -> str:
    """A foundation place in words: ``"the first spades foundation"``."""
    k = f - 1
    return f"the {('first', 'second')[k // 4]} {SUITS[k % 4].noun} foundation"


def vacancies_text(n: int) -> str:
    """``"1 vacancy"``, ``"3 vacancies"``."""
    return f"{n} {'vacancy' if n == 1 else 'vacancies'}"


def slot_label(r: int, c: int) -> str:
    return f"row {r + 1}, column {c + 1}"


PILES: tuple[PileSpec, ...] = (
    (PileSpec("stock", "the pack", Role.STOCK, 0.0, 0.0),)
    + tuple(PileSpec(f"f{k}", f"{SUITS[k % 4].noun[:-1]} {k // 4 + 1}", Role.FOUNDATION,
                     _FOUND_X[k], 0.0, mark=f"{SUITS[k % 4].symbol} {k // 4 + 1}")
            for k in range(8))
    + tuple(PileSpec(f"s{r * COLUMNS + c}", slot_label(r, c), Role.TABLEAU, float(c),
                     _ROW_Y0 + r) for r in range(MAX_ROWS) for c in range(COLUMNS))
)

STOCK = 0
FOUNDS = range(1, 9)
SLOTS = range(9, 9 + MAX_ROWS * COLUMNS)
#: The eight places, spades, hearts, diamonds and clubs from the left, twice over (BK-3).
FOUNDATION_SET = SuitFoundations(FOUNDS, range(0))


def slot(r: int, c: int) -> int:
    """The pile index of the place in row ``r`` (0 = the first, highest), column ``c``."""
    return SLOTS.start + r * COLUMNS + c


def row_col(i: int) -> tuple[int, int]:
    """The (row, column) of a place's pile index."""
    return divmod(i - SLOTS.start, COLUMNS)


def _narrow() -> Layout:
    """For a phone: the columns in two bands of six, the first six above, the foundations in
    two rows of four beside the pack."""
    at: dict[str, tuple[float, float, int]] = {"stock": (0.0, 0.0, 0)}
    for k in FOUNDS:
        j = k - FOUNDS.start
        at[PILES[k].id] = (1.3 + 1.15 * (j % 4), 1.05 * (j // 4), 0)
    band_y = (2.55, 2.55 + MAX_ROWS + 0.45)
    for r in range(MAX_ROWS):
        for c in range(COLUMNS):
            at[PILES[slot(r, c)].id] = (float(c % 6), band_y[c // 6] + r, 0)
    regions = (Region("Columns 1 to 6", -0.05, band_y[0] - 0.3, 6.0, MAX_ROWS + 0.3),
               Region("Columns 7 to 12", -0.05, band_y[1] - 0.3, 6.0, MAX_ROWS + 0.3))
    return Layout(name="narrow", max_width=480, grid=(6.0, band_y[1] + MAX_ROWS),
                  at=at, regions=regions)


def _plate() -> Layout:
    """For the drawn diagram: the eight places spread over the width of the first row, as the
    plate spreads its blank outlines."""
    at = {PILES[k].id: (0.05 + 1.55 * (k - FOUNDS.start), 0.0, 0) for k in FOUNDS}
    return Layout(name="plate", grid=(12.0, _ROW_Y0 + 1), at=at)


class TheBlockade(Game):
    slug = SLUG
    title = "The Blockade"
    packs = 2
    Options = BlockadeOptions
    PILES = PILES
    VARS = ("rows",)
    GRID = (12.0, _ROW_Y0 + MAX_ROWS)
    LAYOUTS = (_narrow(), _plate())
    FIGURES = (
        Figure("tableau", "The Blockade when the first row has been dealt.",
               "The tableau of the Blockade when the first row has been dealt, drawn in "
               "modern cards: a row of eight empty places for the foundations, spades, "
               "hearts, diamonds and clubs from the left and again, and below them a "
               "horizontal line of twelve cards, the first row. The pack is not shown.",
               piles=tuple(p.id for p in PILES[FOUNDS.start:SLOTS.start + COLUMNS]),
               layout="plate"),
    )
    DIAGRAM_DEAL = 4  # a first row without an ace, as in the plate
    ACTIONS = (
        ActionSpec("refill", "Refill the vacancies", "f", REFILL),
        ActionSpec("deal", "Deal the next row", "d", NEXT_ROW),
    )
    LEDGER = {
        RULE_I: "Every card of the first row can be moved until the second is dealt; from then "
                "on a place with cards in the row below it is blocked, and a card there is "
                "refused, whether it is to move or to receive a marriage (BK-1).",
        RELEASE: "When the last card leaves a place, the top card of the place above it in its "
                 "column becomes available at once and may be played or married before the "
                 "vacancy is refilled; of a place’s cards only the top one is ever available "
                 "(BK-1, BK-2).",
        RULE_II: "Each foundation belongs to one suit, and a card of another suit is refused "
                 "there (BK-3).",
        DEAL: "The game opens with twelve cards dealt from the shuffled pack, left to right, "
              "in a horizontal line (BK-3).",
        ACES: "A row is dealt whole by one press, so nothing is played until it is complete; "
              "an ace then lies in its row until the player plays it (a refill that lays an "
              "ace where a lower place of the same refill would cover it pauses there, so "
              "that the ace may be played as it appears), or, under BK-4’s other "
              "reading, is played the moment it turns up and the next card of the pack takes "
              "its place, in rows and refills alike.",
        FOUNDATIONS: "Each foundation place takes an ace of its suit and then the next card of "
                     "that suit up to the king; a card that fits two places may go to either; "
                     "cards on a foundation never leave it. The game is won when all a hundred "
                     "and four are there (BK-9).",
        MARRIAGES: "An available card may be played to its foundation, or married onto the "
                   "available card of another column if that card is of its suit and one rank "
                   "higher; the married card lies exactly over it, in the same place, and a "
                   "card is moved one at a time (BK-2, BK-5).",
        REFILL: "A place emptied is a vacancy; the button “Refill the vacancies” fills every "
                "vacancy from the pack when the player chooses, and the next row is refused "
                "while any is left; nothing but the pack fills a vacancy (BK-7).",
        NEXT_ROW: "The button “Deal the next row” lays it under the last, once the vacancies "
                  "are refilled and no card can be played or married (a card already married "
                  "moving to the twin of its card does not count), or, under BK-6’s other "
                  "reading, whenever the player chooses.",
        ROWS: "Rows are dealt until the pack is exhausted, the last row taking what is left; "
              "after that no vacancy is refilled and nothing may be placed in an empty place, "
              "but play and marriage go on (BK-8).",
        HIGHER_ROWS: "The refill takes the vacancies row by row from the highest, left to "
                     "right in each row, so a place is always filled before the place below "
                     "it (BK-7).",
        NO_REDEAL: "There is no re-deal: a re-deal is refused, and once the pack is out and "
                   "no card can ever reach a foundation the game is lost (BK-9).",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        piles[STOCK] = tuple(shuffled(pack(2), deal))
        cls._deal_row(piles, 0, options)
        return State(tuple(piles), (1,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        for f in FOUNDS:
            for k, card in enumerate(state.piles[f]):
                if card.suit is not FOUNDATION_SET.suit(f) or card.rank != k + 1:
                    raise PositionError(f"{PILES[f].label} is not built in order from its ace")
        rows = state.vars[0]
        if not 1 <= rows <= MAX_ROWS:
            raise PositionError(f"between 1 and {MAX_ROWS} rows are dealt")
        for c in range(COLUMNS):
            gap = False
            for r in range(MAX_ROWS):
                p = state.piles[slot(r, c)]
                if p and (gap or r >= rows):
                    raise PositionError(f"column {c + 1} has a card below an empty place, "
                                        "or in a row not yet dealt")
                gap = gap or not p
                for low, high in zip(p[1:], p):
                    if low.suit is not high.suit or low.rank != high.rank - 1:
                        raise PositionError(f"{slot_label(r, c)}: a card lies on another that "
                                            "is not of its suit and one rank higher")
        return state

    @staticmethod
    def _place(piles: list[tuple[Card, ...]], i: int, options: Any) -> None:
        """Put the next card of the pack in place ``i``; under BK-4's other reading an ace
        is played at once and the next card takes its place."""
        while piles[STOCK]:
            card = piles[STOCK][-1]
            piles[STOCK] = piles[STOCK][:-1]
            if card.rank == ACE and options.aces is AcesInDeal.REPLACED:
                f = next(f for f in FOUNDS if FOUNDATION_SET.suit(f) is card.suit
                         and not piles[f])
                piles[f] = (card,)
                continue
            piles[i] = (card,)
            return

    def _ace_to_be_covered(self, piles: list[tuple[Card, ...]], i: int,
                           later: list[int]) -> bool:
        """Under BK-4's first reading: whether the card just laid in place ``i`` by a refill
        is an ace that a later place of the same refill would cover (a vacancy below it in
        its column). The refill then pauses, so that the ace may be played as it appears."""
        if self.options.aces is not AcesInDeal.VACANCY or not piles[i]:
            return False
        c = row_col(i)[1]
        return piles[i][-1].rank == ACE and any(row_col(j)[1] == c for j in later)

    @classmethod
    def _deal_row(cls, piles: list[tuple[Card, ...]], r: int, options: Any) -> None:
        for c in range(COLUMNS):
            cls._place(piles, slot(r, c), options)

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def lowest(state: State, c: int) -> int | None:
        """The pile of the lowest place in column ``c`` that holds cards (its top card is the
        column's available card), or None when the column is empty."""
        for r in range(MAX_ROWS - 1, -1, -1):
            i = slot(r, c)
            if state.piles[i]:
                return i
        return None

    def available(self, state: State) -> list[int]:
        """The places whose top card is available, one per column at most."""
        return [i for c in range(COLUMNS) if (i := self.lowest(state, c)) is not None]

    def vacancies(self, state: State) -> list[int]:
        """The empty places of the rows dealt, in the order they are refilled: the higher
        rows first, left to right (nothing is refilled once the pack is exhausted)."""
        rows = self.var(state, "rows")
        return [slot(r, c) for r in range(rows) for c in range(COLUMNS)
                if not state.piles[slot(r, c)]]

    @staticmethod
    def _foundations_for(state: State, card: Card) -> list[int]:
        return [f for f in FOUNDS if FOUNDATION_SET.accepts(state, f, card)]

    def plays(self, state: State) -> Iterator[tuple[int, int]]:
        """Every (place, foundation) play open now."""
        for i in self.available(state):
            for f in self._foundations_for(state, state.piles[i][-1]):
                yield i, f

    def marriages(self, state: State) -> Iterator[tuple[int, int]]:
        """Every (place, place) marriage open now."""
        tops = self.available(state)
        for i in tops:
            card = state.piles[i][-1]
            for j in tops:
                other = state.piles[j][-1]
                if j != i and other.suit is card.suit and other.rank == card.rank + 1:
                    yield i, j

    def open_move(self, state: State) -> str | None:
        """A play, or a marriage of a card not yet married, still open (BK-6), in words;
        None when neither can be done. A card already married that could move to the twin
        of the card beneath it is not counted: it could go back and forth for ever."""
        for i, f in self.plays(state):
            return f"the {state.piles[i][-1].name} can still be played"
        for i, j in self.marriages(state):
            if len(state.piles[i]) == 1:
                return (f"the {state.piles[i][-1].name} can still be married onto the "
                        f"{state.piles[j][-1].name}")
        return None

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        for i, f in self.plays(state):
            yield Move.step(PILES[i].id, PILES[f].id)
        for i, j in self.marriages(state):
            yield Move.step(PILES[i].id, PILES[j].id)
        yield Move(action="refill")
        yield Move(action="deal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        # where the card comes from
        if si == STOCK:
            return IllegalMove(DEAL, "Cards leave the pack only when a row is dealt or the "
                               "vacancies are refilled.")
        if si in FOUNDS:
            return IllegalMove(FOUNDATIONS, "Cards on the foundations stay there.")
        _, c = row_col(si)
        low = self.lowest(state, c)
        if si != low:
            assert low is not None
            return IllegalMove(RULE_I, f"The {card.name} is blocked by the row below it: "
                               f"only the card in {PILES[low].label} is available in this "
                               "column.")
        if not step.top:
            return IllegalMove(MARRIAGES, f"The {card.name} is covered by the card married "
                               "exactly over it; only the top card is available.")
        # where it goes
        if di == STOCK:
            return IllegalMove(BOARD, "Nothing goes back to the pack.")
        if di == si:
            return IllegalMove(BOARD, f"The {card.name} is already in {PILES[si].label}.")
        if di in FOUNDS:
            # The board labels the places briefly ("spade 1"); a refusal names them in full.
            named = dataclasses.replace(PILES[di], label=foundation_name(di)[4:])
            return FOUNDATION_SET.refusal(state, di, card, named, RULE_II, FOUNDATIONS,
                                          follow="The foundations must follow suit")
        target = state.piles[di]
        dr, dc = row_col(di)
        if not target:
            if not state.piles[STOCK]:
                return IllegalMove(ROWS, "The pack is exhausted: an empty place stays empty, "
                                   "and no card from the tableau may be put there.")
            if dr >= self.var(state, "rows"):
                return IllegalMove(NEXT_ROW, "Cards come into a new row only when it is "
                                   "dealt from the pack.")
            return IllegalMove(REFILL, "A vacancy is refilled from the pack, and from "
                               "nothing else; a card from the tableau can only be played or "
                               "married.")
        if di != self.lowest(state, dc):
            return IllegalMove(RULE_I, f"The {target[-1].name} is blocked by the row below "
                               "it: a card may be married only onto an available card.")
        top = target[-1]
        if top.suit is not card.suit:
            return IllegalMove(MARRIAGES, f"A marriage is made on a card of the same suit: "
                               f"the {card.name} cannot go on the {top.name}.")
        if top.rank != card.rank + 1:
            if card.rank == KING:
                return IllegalMove(MARRIAGES, "Marriages are made in a descending line, and "
                                   "no card is higher than a king: a king is never married.")
            return IllegalMove(MARRIAGES, f"Marriages are made in a descending line: the "
                               f"{card.name} goes only on a "
                               f"{Card(card.rank + 1, card.suit).name}.")
        return None

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "redeal":
            return IllegalMove(NO_REDEAL, "There is no re-deal.")
        if action not in ("refill", "deal"):
            return IllegalMove(BOARD, f"The Blockade has no action {action!r}.")
        if not state.piles[STOCK]:
            return IllegalMove(ROWS, "The pack is exhausted: no more rows are dealt, and "
                               "vacancies are no longer refilled.")
        vacant = self.vacancies(state)
        if action == "refill":
            if not vacant:
                return IllegalMove(REFILL, "There is no vacancy to refill.")
            return None
        if vacant:
            return IllegalMove(REFILL, "The vacancies must be refilled from the pack before "
                               f"another row is dealt ({vacancies_text(len(vacant))} left).")
        if self.options.next_row is NextRow.NEITHER:
            why = self.open_move(state)
            if why is not None:
                return IllegalMove(NEXT_ROW, "Another row is dealt only when neither play nor "
                                   f"marriage can be done: {why}.")
        return None

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        rows = state.vars[0]
        if move.action == "refill":
            vacant = self.vacancies(state)
            for k, i in enumerate(vacant):
                self._place(piles, i, self.options)
                if self._ace_to_be_covered(piles, i, vacant[k + 1:]):
                    break  # "Aces may be played as they appear" (BK-4)
        elif move.action == "deal":
            self._deal_row(piles, rows, self.options)
            rows += 1
        else:
            step = self.resolve_step(state, move)
            assert isinstance(step, Step), "apply() is given legal moves only"
            piles[step.src] = piles[step.src][:-1]
            piles[step.dst] = piles[step.dst] + (step.card,)
        return State(tuple(piles), (rows,))

    # ---- the end ---------------------------------------------------------------------
    def _stuck(self, state: State) -> bool | None:
        """With the pack exhausted: True if no card can ever reach a foundation, whatever
        marriages are made; False if one can; None if the search gave up."""
        return stuck_after(state, lambda s: next(self.plays(s), None) is not None,
                           self.marriages, SEARCH_LIMIT)

    def outcome_of(self, state: State) -> Outcome | None:
        if sum(len(state.piles[f]) for f in FOUNDS) == CARDS:
            return Outcome.WON
        if state.piles[STOCK]:
            return None  # a refill or a new row can always come
        verdict = self.remembered(state, self._stuck)
        # Marriages may go round in circles for ever; the game is lost when no card can
        # reach a foundation by any series of marriages (BK-9).
        return Outcome.LOST if verdict else None

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        done = sum(len(state.piles[f]) for f in FOUNDS)
        if out is Outcome.WON:
            return "Won: all a hundred and four cards are on the foundations."
        if out is Outcome.LOST:
            return (f"No card can reach a foundation: the patience has failed, with {done} of "
                    f"{CARDS} cards played.")
        rows = self.var(state, "rows")
        stock = len(state.piles[STOCK])
        parts = [f"{plural(rows, 'row')} dealt"]
        if stock:
            parts.append(f"pack: {plural(stock, 'card')}")
            vacant = len(self.vacancies(state))
            parts.append(f"{vacancies_text(vacant)} to refill" if vacant else "no vacancy")
        else:
            parts.append("the pack is exhausted")
        parts.append(f"on the foundations: {done} of {CARDS}")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action in ("refill", "deal"):
            after = self.apply(state, move)
            aces = [after.piles[f][0].name for f in FOUNDS if after.piles[f] != state.piles[f]]
            if move.action == "refill":
                n = len(self.vacancies(state)) - len(self.vacancies(after))
                said = (f"{'The vacancy is' if n == 1 else f'{n} vacancies are'} refilled "
                        "from the pack, the higher rows first")
                last = [i for i in self.vacancies(state) if after.piles[i]][-1:]
                if last and after.piles[STOCK] and self.vacancies(after):
                    said += (f"; the {after.piles[last[0]][-1].name} turns up, and the refill "
                             "waits for it to be played as it appears")
            else:
                said = f"Row {self.var(state, 'rows') + 1} is dealt under the last"
            if aces:
                said += (f"; the {' and the '.join(aces)} "
                         f"{'is' if len(aces) == 1 else 'are'} played as "
                         f"{'it appears' if len(aces) == 1 else 'they appear'}")
            return said + "."
        step = self.resolve_step(state, move)
        if isinstance(step, Step) and step.dst in SLOTS and state.piles[step.dst]:
            target = state.piles[step.dst][-1]
            return (f"The {step.card.name} from {PILES[step.src].label} is married to the "
                    f"{target.name} in {PILES[step.dst].label}.")
        if isinstance(step, Step) and step.dst in FOUNDS and step.src in SLOTS:
            return (f"The {step.card.name} from {PILES[step.src].label} is played to "
                    f"{foundation_name(step.dst)}.")
        return super().describe(state, move)

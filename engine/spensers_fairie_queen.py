"""Spenser's Fairie Queen (two packs), by the book: 1914 printing, plate p. 68 (below the last
lines of The Labyrinth), text pp. 69–70.

Piles: a line of eight spaces for the foundations, two for each suit, filled by the aces as
they turn up in the deal and built up in suit to the queens (Rule I); the pack; and a row of
eight kings, each heading a column. One king is taken from the pack before the deal (the
plate's king of clubs, note SF-1) and placed at the left-hand upper corner; the other
kings take the next place to the right as they turn up, and every other card dealt is laid at
the foot of the column of the last king turned up (Rule II), each card half covering the one
before. A king with no card under it is a *single* king.

Only the lowest card of each column is available (Rule IV). During the deal an available card
may be played to a foundation; when the deal is complete (or at any time, under the second
reading of SF-4) an available card may also be transferred to the foot of another column, on
a card one rank higher of any suit (Rule III), or to a single king (Rule V), one card at a
time. Kings are never played: the game is won when the 96 other cards are on the
foundations. There is no re-deal.

Each column is one pile, its king at the bottom; a column not yet begun is empty. See the
chapter page for the text each rule id points at, and its editorial notes (``note-SF-N``).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, QUEEN, RANK_NAMES, SUITS, Card, Suit, pack
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

SLUG = "spensers-fairie-queen"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")                  # the foundations follow suit
RULE_II = _rule("rule-2")                 # kings in succession: cards only on the last one
RULE_III = _rule("rule-3")                # transfers in descending sequence, any suit
RULE_IV = _rule("rule-4")                 # only the lowest card of each column is available
RULE_V = _rule("rule-5")                  # any available card to a single king
FIRST_KING = _rule("first-king")          # take one king from the pack: the upper corner
COLUMNS = _rule("columns")                # cards dealt in column on it; a second king beside
LAST_KING = _rule("last-king")            # a third king ...: always on the last king turned up
ALONE = _rule("alone")                    # lines of different lengths; some kings alone
ACES = _rule("aces")                      # aces placed in the spaces reserved as they turn up
FOUNDATIONS = _rule("foundations")        # the eight aces ascend in sequence to queens
DURING_DEAL = _rule("during-deal")        # suitable cards played as they turn up; columns too
AFTER_DEAL = _rule("after-deal")          # now transferred, placed on single kings, or played
LEAVE = _rule("leave")                    # sometimes better not to play cards
QUEENS = _rule("queens")                  # queens cannot be moved again once transferred
BACK_AND_FORTH = _rule("backward-forward")  # sequences transferred backward and forward
NO_REDEAL = _rule("no-redeal")            # there is no re-deal
NOTE_1 = _rule("note-1")                  # the worked example: two single kings, a knave
BOARD = _rule("board")                    # the board itself (notation errors)

PLACES = 8
TOTAL = 96                                # every card but the eight kings
#: The king taken from the pack before the deal: the plate's first king, of clubs (SF-1).
THE_FIRST_KING = Card(KING, Suit.CLUBS)
#: The search for a way to a foundation (SF-11) gives up after this many positions.
SEARCH_LIMIT = 10_000


class Transfers(Enum):
    """SF-4: when cards may be transferred from column to column or to a single king."""

    AFTER_DEAL = "after-deal"   # only when the deal is complete ("may now be transferred")
    ANY_TIME = "any-time"       # during the deal as well


@dataclass(frozen=True, slots=True)
class FairieQueenOptions:
    transfers: Transfers = option(
        Transfers.AFTER_DEAL, note="note-SF-4", label="Transfers (Rules III and V)",
        labels={Transfers.AFTER_DEAL: "begin when the deal is complete",
                Transfers.ANY_TIME: "may be made during the deal too"})


# ---------------------------------------------------------------------------- the layout
# The foundations in a line above the kings (the plate leaves them out, Note 2), two spaces
# for each suit; the pack at the end of that line; the kings in a row below, the first at the
# left, each heading a column fanned downwards.

_FAN = 10.0         # the longest fan of a column, in card heights (longer ones close up)
_PACK_X = 8.2
_KINGS_Y = 1.15

FOUNDS = range(0, PLACES)
STOCK = PLACES
COLS = range(PLACES + 1, 2 * PLACES + 1)


def suit_of(f: int) -> Suit:
    """The suit of a foundation space: two spaces for each suit, in the order of SUITS."""
    return SUITS[(f - FOUNDS.start) // 2]


PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"f{j}", f"{suit_of(j).noun} {j % 2 + 1}", Role.FOUNDATION,
                   float(j), 0.0, mark=f"{suit_of(j).symbol} {j % 2 + 1}") for j in range(PLACES))
    + (PileSpec("stock", "the pack", Role.STOCK, _PACK_X, 0.0),)
    + tuple(PileSpec(f"c{c}", f"column {c + 1}", Role.TABLEAU, float(c), _KINGS_Y,
                     fan=Fan.DOWN, fan_limit=_FAN, mark=f"col. {c + 1}")
            for c in range(PLACES))
)


def _narrow() -> Layout:
    """For a phone: eight places across, the pack in a line of its own above the foundations."""
    at: dict[str, tuple[float, float, int]] = {"stock": (7.0, 0.0, 0)}
    for j in range(PLACES):
        at[f"f{j}"] = (float(j), 1.1, 0)
        at[f"c{j}"] = (float(j), 1.1 + _KINGS_Y, 0)
    return Layout(name="narrow", max_width=560, grid=(8.0, 6.5), at=at)


def _a(rank: int) -> str:
    word = RANK_NAMES[rank]
    return ("an " if word[0] in "aeio" else "a ") + word


def foundation_takes(pile: Sequence[Card], f: int, card: Card) -> bool:
    """Whether foundation ``f`` takes ``card`` next: begun by its ace (placed by the deal),
    it ascends in suit, one rank at a time, to the queen."""
    return (bool(pile) and card.suit is suit_of(f) and card.rank == pile[-1].rank + 1
            and card.rank <= QUEEN)


def transfer_fits(column: Sequence[Card], card: Card) -> bool:
    """Whether a column takes ``card`` at its foot by a transfer: on a single king (Rule V),
    or on a lowest card one rank higher, whatever its suit (Rule III)."""
    if not column:
        return False
    if len(column) == 1:
        return True
    return column[-1].rank == card.rank + 1


class SpensersFairieQueen(Game):
    slug = SLUG
    title = "Spenser’s Fairie Queen"
    packs = 2
    Options = FairieQueenOptions
    PILES = PILES
    GRID = (_PACK_X + 1.0, 4.6)
    LAYOUTS = (_narrow(),)
    FIGURES = (
        Figure("tableau", "Spenser’s Fairie Queen early in the deal, in modern cards.",
               "Spenser’s Fairie Queen early in the deal, drawn in modern cards: across the "
               "top the eight spaces of the foundations, two for each suit, the two of "
               "diamonds holding their aces, and the pack at the end of the line; below, from "
               "the left, the five kings turned up so far, the first being the king of clubs "
               "taken from the pack. Under four of them hangs a column of the cards dealt onto "
               "it, each card half covering the one before; the second king stands alone, "
               "the third having turned up straight after it. The places of the three kings "
               "still to come are empty."),
    )
    DIAGRAM_DEAL = 61
    ACTIONS = (
        ActionSpec("deal", "Deal a card", "d", LAST_KING),
        ActionSpec("deal_on", "Deal on until a card can be played", "Shift+D", LAST_KING),
    )
    PACK_ACTIONS = ("deal_on", "deal")
    LEDGER = {
        RULE_I: "A foundation takes only cards of the suit of its ace.",
        RULE_II: "A king dealt straight after another begins its own column and takes the "
                 "cards that follow, so the earlier king stays single; under either reading "
                 "of SF-4 the cards dealt go only to the last king.",
        RULE_III: "A transfer puts the lowest card of a column at the foot of another column "
                  "whose lowest card is one rank higher, of any suit or colour; any other "
                  "card is refused there.",
        RULE_IV: "Only the lowest card of a column may be played or transferred; a card "
                 "beneath it is refused until every card below it has gone.",
        RULE_V: "A king with no card under it, whether left alone in the deal or emptied "
                "since, takes any available card, which then receives cards one rank lower "
                "like the foot of any column.",
        FIRST_KING: "The game opens with the king of clubs, taken from the pack before it is "
                    "shuffled, at the head of the first column; a king never moves.",
        COLUMNS: "Each card dealt goes at the foot of the last king’s column, and each king "
                 "dealt takes the next place to the right and heads a new column.",
        LAST_KING: "Deal a card deals one card; Deal on deals until a card turns up that "
                   "can be played (or, when transfers are allowed, moved); every card that is "
                   "not an ace or a king goes under the last king turned up, even when its "
                   "column has been emptied.",
        ALONE: "A king followed at once by another keeps no card, and the columns are as "
               "long as the deal makes them.",
        ACES: "An ace dealt goes at once to the first empty space of its suit; no other card "
              "may be put in an empty space.",
        FOUNDATIONS: "A foundation rises one rank at a time from its ace to its queen; a king "
                     "is never played, a card played stays there, and the game is won when "
                     "the 96 cards from the aces to the queens are on the foundations.",
        DURING_DEAL: "Between any two cards dealt, the lowest card of any column may be "
                     "played to a foundation, the card just dealt included.",
        AFTER_DEAL: "Transfers to another column or to a single king are refused until the "
                    "deal is complete, unless the reading chosen allows them throughout; "
                    "plays to the foundations are allowed all along.",
        LEAVE: "No play is forced: a card that could go to a foundation may stay to receive "
               "cards, and auto-play moves only a card on which no card could ever be "
               "placed, every card one rank lower being already on the foundations.",
        QUEENS: "A queen leaves its column only for a single king or its foundation; on a "
                "king it can go only to another single king, which gains nothing, or to its "
                "foundation.",
        BACK_AND_FORTH: "Transfers are unlimited: a card may go back and forth between "
                        "columns as often as the player likes.",
        NO_REDEAL: "Once the pack is dealt out no deal is allowed, and the game is lost when "
                   "no series of transfers can bring a card to a foundation.",
        NOTE_1: "The note’s manoeuvre, card by card, is a series of legal moves on the board: "
                "a run of cards is moved one card at a time, never together.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        """The first king in the corner and the pack shuffled; the deal then runs on by
        itself while nothing can be done but deal (SF-2), to the first card that can be
        played (or moved, when transfers are allowed during the deal)."""
        cards = list(pack(2))
        cards.remove(THE_FIRST_KING)
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        piles[COLS.start] = (THE_FIRST_KING,)
        piles[STOCK] = tuple(shuffled(cards, deal))
        game = cls(State(tuple(piles)), options)
        return game.deal_on(State(tuple(piles)))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        filled = [bool(p[i]) for i in COLS]
        if filled != sorted(filled, reverse=True) or not filled[0]:
            raise PositionError("the kings must fill their row from the left, the first "
                                "king in the corner")
        for i in COLS:
            col = p[i]
            if col and (col[0].rank != KING
                        or any(c.rank in (ACE, KING) for c in col[1:])):
                raise PositionError(f"{PILES[i].label} must be a king with cards from the two "
                                    "to the queen under it")
        for f in FOUNDS:
            pile = p[f]
            if pile and (pile[0] != Card(ACE, suit_of(f)) or any(
                    not foundation_takes(pile[:j], f, pile[j]) for j in range(1, len(pile)))):
                raise PositionError(f"the foundation {PILES[f].label} must rise in suit from "
                                    "its ace")
            if f % 2 and pile and not p[f - 1]:
                raise PositionError(f"the aces of {suit_of(f).noun} take their spaces in turn")
        return state

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def dealing(state: State) -> bool:
        """Whether the deal goes on (cards remain in the pack)."""
        return bool(state.piles[STOCK])

    @staticmethod
    def last_king(state: State) -> int:
        """The column of the last king turned up, on which cards are dealt."""
        return max(i for i in COLS if state.piles[i])

    def transfers_open(self, state: State) -> bool:
        """Whether transfers may be made now (SF-4)."""
        return self.options.transfers is Transfers.ANY_TIME or not self.dealing(state)

    def steps(self, state: State) -> Iterator[tuple[int, int]]:
        """Every legal one-step move, as (source, destination): plays of a column's lowest
        card to a foundation, and transfers when they are allowed."""
        piles = state.piles
        moving = self.transfers_open(state)
        for i in COLS:
            col = piles[i]
            if len(col) < 2:
                continue
            card = col[-1]
            for f in FOUNDS:
                if foundation_takes(piles[f], f, card):
                    yield i, f
            if moving:
                for j in COLS:
                    if j != i and transfer_fits(piles[j], card):
                        yield i, j

    def _openings(self, state: State) -> frozenset[tuple[int, int, int, int]]:
        """The moves open now, each with the sizes of its two piles (so that a move of a
        card just dealt, or onto a foundation an ace has just begun, counts as new)."""
        piles = state.piles
        return frozenset((i, len(piles[i]), j, len(piles[j])) for i, j in self.steps(state))

    @staticmethod
    def _deal_one(piles: list[tuple[Card, ...]]) -> None:
        """Deal the top card of the pack where the book puts it: an ace to the first empty
        space of its suit, a king to the next place of the row, any other card at the foot
        of the last king's column."""
        card = piles[STOCK][-1]
        piles[STOCK] = piles[STOCK][:-1]
        if card.rank == ACE:
            i = next(f for f in FOUNDS if suit_of(f) is card.suit and not piles[f])
        elif card.rank == KING:
            i = next(i for i in COLS if not piles[i])
        else:
            i = max(i for i in COLS if piles[i])
        piles[i] = piles[i] + (card,)

    def deal_on(self, state: State) -> State:
        """Deal one card, then go on dealing until a card turns up that opens a move that
        was not open before (a play, or a transfer where they are allowed), or the pack is
        out. No choice is passed over: each card dealt after the first covers only a card
        that could do nothing."""
        piles = list(state.piles)
        before = self._openings(state)
        self._deal_one(piles)
        while piles[STOCK]:
            now = self._openings(State(tuple(piles)))
            if now - before:
                break
            before = now
            self._deal_one(piles)
        return State(tuple(piles))

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        for i, j in self.steps(state):
            yield Move.step(PILES[i].id, PILES[j].id)
        if self.dealing(state):
            yield Move(action="deal")
            yield Move(action="deal_on")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action not in ("deal", "deal_on"):
            return IllegalMove(BOARD, f"Spenser’s Fairie Queen has no action {action!r}.")
        if not self.dealing(state):
            return IllegalMove(NO_REDEAL, "The pack is exhausted, and there is no re-deal.")
        return None

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        piles = state.piles
        si, di, card = step.src, step.dst, step.card
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        # where the card comes from
        if si == STOCK:
            return IllegalMove(LAST_KING, "Cards leave the pack only as they are dealt, each "
                               "onto the last king turned up (Deal a card).")
        if si in FOUNDS:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if step.k == 0:
            if di in FOUNDS:
                return IllegalMove(FOUNDATIONS, "The foundations ascend to queens: a king is "
                                   "never played.")
            return IllegalMove(COLUMNS, "The kings head the columns and never move.")
        if not step.top:
            return IllegalMove(RULE_IV, f"The {card.name} is not available: only the lowest "
                               "card of each column is, until its removal releases the one "
                               "above it.")
        # where it goes
        if di == STOCK:
            return IllegalMove(BOARD, "Nothing goes back to the pack.")
        if di in FOUNDS:
            return self._refuse_foundation(piles[di], di, card)
        dst = piles[di]
        if not self.transfers_open(state):
            return IllegalMove(AFTER_DEAL, "Cards may be transferred from column to column, "
                               "or placed on a single king, only when the deal is complete.")
        if not dst:
            return IllegalMove(COLUMNS, f"No king has yet turned up to head {PILES[di].label}.")
        if transfer_fits(dst, card):
            return None
        top = dst[-1]
        if card.rank == QUEEN:
            return IllegalMove(QUEENS, "A queen may be transferred only to a single king: no "
                               "other card is a rank above her.")
        return IllegalMove(RULE_III, f"Cards are transferred in descending sequence: the "
                           f"{top.name} takes only {_a(top.rank - 1)}, of any suit.")

    @staticmethod
    def _refuse_foundation(pile: tuple[Card, ...], f: int, card: Card) -> IllegalMove | None:
        if foundation_takes(pile, f, card):
            return None
        label = f"the foundation {PILES[f].label}"
        if not pile:
            return IllegalMove(ACES, f"{label[:1].upper()}{label[1:]} is empty: its space is "
                               f"reserved for an ace of {suit_of(f).noun}, placed there as it "
                               "turns up in the deal.")
        if card.suit is not suit_of(f):
            return IllegalMove(RULE_I, f"The foundations follow suit: {label} takes only "
                               f"{suit_of(f).noun}.")
        top = pile[-1].rank
        if top >= QUEEN:
            return IllegalMove(FOUNDATIONS, f"{label[:1].upper()}{label[1:]} is complete: "
                               "the foundations ascend to queens.")
        return IllegalMove(FOUNDATIONS, f"The foundations ascend in sequence: {label} needs "
                           f"the {Card(top + 1, suit_of(f)).name} next.")

    # ---- applying moves --------------------------------------------------------------
    def apply(self, state: State, move: Move) -> State:
        if move.action == "deal_on":
            return self.deal_on(state)
        piles = list(state.piles)
        if move.action == "deal":
            self._deal_one(piles)
            return State(tuple(piles))
        (src, dst), = move.steps
        si, di = self.pile_index(src), self.pile_index(dst)
        card = piles[si][-1]
        piles[si] = piles[si][:-1]
        piles[di] = piles[di] + (card,)
        return State(tuple(piles))

    def safe_moves(self, state: State, legal: list[Move]) -> list[Move]:
        """A play is safe when no card could ever be placed on the card played: every card
        one rank lower is already on the foundations (aces always are, so a two is always
        safe). Playing it gives up nothing, and when both foundations of its suit take it
        they stand at the same height, so either will do; the first is offered."""
        on = [0] * 14
        for f in FOUNDS:
            for c in state.piles[f]:
                on[c.rank] += 1
        out: list[Move] = []
        seen: set[str] = set()
        for m in legal:
            if not m.steps:
                continue
            (src, dst), = m.steps
            if self.pile_index(dst) not in FOUNDS or src in seen:
                continue
            card = state.piles[self.pile_index(src)][-1]
            if card.rank - 1 == ACE or on[card.rank - 1] == 2 * len(SUITS):
                out.append(m)
                seen.add(src)
        return out

    # ---- the end ---------------------------------------------------------------------
    def outcome_of(self, state: State) -> Outcome | None:
        return self.judge(state)[0]

    def outcome_decided(self, state: State) -> bool:
        """Whether :meth:`outcome_of` reached a verdict: False only when the search of the
        transfers gave up before finding a way to a foundation or proving there is none."""
        return self.judge(state)[1]

    def judge(self, state: State) -> tuple[Outcome | None, bool]:
        """The verdict and whether it was reached (remembered: the search may be costly)."""
        return self.remembered(state, self._judge)

    def _judge(self, state: State) -> tuple[Outcome | None, bool]:
        piles = state.piles
        if sum(len(piles[f]) for f in FOUNDS) == TOTAL:
            return Outcome.WON, True
        if self.dealing(state):
            return None, True   # the deal goes on
        wanted = {Card(piles[f][-1].rank + 1, suit_of(f)) for f in FOUNDS
                  if piles[f][-1].rank < QUEEN}
        found = play_reachable([piles[i][1:] for i in COLS], wanted)
        if found is None:
            return None, False
        return (None if found else Outcome.LOST), True

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = sum(len(state.piles[f]) for f in FOUNDS)
        if out is Outcome.WON:
            return ("Won: the eight foundations have reached their queens, and the kings "
                    "stand alone.")
        if out is Outcome.LOST:
            return (f"No transfer can bring a card to a foundation any more: the patience has "
                    f"failed, with {played} of 96 cards on the foundations.")
        single = sum(len(state.piles[i]) == 1 for i in COLS)
        if self.dealing(state):
            return " · ".join([
                f"Dealing: {plural(len(state.piles[STOCK]), 'card')} in the pack",
                f"dealing onto {PILES[self.last_king(state)].label}",
                f"{played} of 96 on the foundations"])
        parts = ["The deal is complete", plural(single, "single king"),
                 f"{played} of 96 on the foundations"]
        if not self.outcome_decided(state):
            parts.append("the board cannot tell whether a card can still be played")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action:
            if not self.dealing(state):
                return "The pack is dealt out."
            after = self.apply(state, move)
            n = len(state.piles[STOCK]) - len(after.piles[STOCK])
            if n > 1:
                return f"{plural(n, 'card')} are dealt."
            return self._describe_dealt(state, state.piles[STOCK][-1])
        (src, dst), = move.steps
        si, di = self.pile_index(src), self.pile_index(dst)
        card = state.piles[si][-1]
        if di in FOUNDS:
            return (f"The {card.name} is played from {PILES[si].label} to the foundation "
                    f"{PILES[di].label}.")
        target = state.piles[di]
        if len(target) == 1:
            return (f"The {card.name} is transferred from {PILES[si].label} to the single "
                    f"king of {PILES[di].label}.")
        return (f"The {card.name} is transferred from {PILES[si].label} to the "
                f"{target[-1].name} of {PILES[di].label}.")

    def _describe_dealt(self, state: State, card: Card) -> str:
        if card.rank == ACE:
            where = "placed at once in a space of the foundations"
        elif card.rank == KING:
            where = "placed next to the last king, at the head of a new column"
        else:
            where = f"placed at the foot of {PILES[self.last_king(state)].label}"
        return f"The {card.name} is dealt and {where}."


def play_reachable(columns: Sequence[Sequence[Card]], wanted: set[Card],
                   limit: int = SEARCH_LIMIT) -> bool | None:
    """With the pack dealt out and the foundations as they stand: whether some series of
    transfers brings a card the foundations want to the foot of a column, where it could be
    played. True if one does, False if none does, None if the search gave up after
    ``limit`` positions.

    ``columns`` are the cards under each king. A transfer takes the lowest card of a column
    to a column with no card under its king, or onto a lowest card one rank higher, whatever
    its suit (Rules III and V). Suits matter only to tell the wanted cards, so the other
    cards are known by rank alone. A wanted card is marked 0 and its column cut there: the
    answer is yes as soon as it is the lowest card, before any card above it could move. No
    rule looks at a column's place, so positions that differ only in the order of the
    columns are one. The positions nearest a wanted card (fewest cards below it, then most
    single kings) are searched first."""
    def code(col: Sequence[Card]) -> tuple[int, ...]:
        ranks = tuple(0 if c in wanted else c.rank for c in col)
        cut = max((k for k, r in enumerate(ranks) if r == 0), default=0)
        return ranks[cut:]

    def priority(cols: tuple[tuple[int, ...], ...]) -> tuple[int, int]:
        below, single = 99, 0
        for col in cols:
            if not col:
                single -= 1
            elif col[0] == 0 and len(col) - 1 < below:
                below = len(col) - 1
        return below, single

    start = tuple(sorted(code(col) for col in columns))
    if not any(col and col[0] == 0 for col in start):
        return False   # no wanted card is left in the columns
    if any(_dig(start, a) for a, col in enumerate(start) if col and col[0] == 0):
        return True
    seen = {start}
    todo = [(priority(start), 0, start)]
    while todo:
        _, _, cols = heapq.heappop(todo)
        bottoms = [col[-1] if col else -1 for col in cols]
        single = bottoms.index(-1) if -1 in bottoms else -1
        for a, src in enumerate(cols):
            if not src or src[-1] == 0:
                continue
            rank, rest = src[-1], src[:-1]
            targets = [b for b, low in enumerate(bottoms) if low == rank + 1 and b != a]
            if single >= 0 and rest:   # (a lone card from king to king changes nothing)
                targets.append(single)
            if targets and rest and rest[-1] == 0:
                return True
            for b in targets:
                nxt = list(cols)
                nxt[a], nxt[b] = rest, cols[b] + (rank,)
                nxt.sort()
                key = tuple(nxt)
                if key not in seen:
                    if len(seen) >= limit:
                        return None
                    seen.add(key)
                    heapq.heappush(todo, (priority(key), len(seen), key))
    return False


def _dig(cols: tuple[tuple[int, ...], ...], a: int) -> bool:
    """A quick way to a yes: whether plain digging uncovers the lowest wanted card (0) of
    column ``a``. Each card below it goes onto a card one rank higher at the foot of another
    column if there is one, else onto a single king; after each move, a card lying alone on
    a king goes onto a card one rank higher elsewhere when it can, freeing its king. Every
    move is a legal transfer, so a True is sure; a False proves nothing."""
    work = [list(c) for c in cols]
    col = work[a]
    while col[-1] != 0:
        rank = col[-1]
        target = next((j for j, c in enumerate(work) if j != a and c and c[-1] == rank + 1),
                      None)
        if target is None:
            target = next((j for j, c in enumerate(work) if j != a and not c), None)
        if target is None:
            return False
        work[target].append(col.pop())
        moved = True
        while moved:   # free the kings that can be freed
            moved = False
            for j, c in enumerate(work):
                if j == a or len(c) != 1:
                    continue
                k = next((k for k, d in enumerate(work)
                          if k not in (a, j) and d and d[-1] == c[0] + 1), None)
                if k is not None:
                    work[k].append(c.pop())
                    moved = True
    return True

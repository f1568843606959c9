"""The Fifteen (two packs), by the book: 1914 printing, pp. 11–12 (plate p. 10).

Piles: fifteen columns, into which the whole pack is dealt in seven horizontal rows of
fifteen, the last row of fourteen, each row partly covering the one before (so each column
is a pile whose top is its *lowest* card, the only one available: Rule I); and eight places
for the foundations, four for aces, which ascend to kings, and four for kings, which
descend to aces, each following suit (Rule II).

When the deal is complete, cards are played to the foundations from the lowest cards and
married, a card of the same suit one above or below in value being put below another
column's lowest card. A column emptied is a lane, which takes any available card. If the
patience cannot even begin (no foundation, and no ace or king to be had), one ace and one
king may be withdrawn from the sixth row, once. There is no re-deal. See the chapter page
for the text each rule id points at, and its editorial notes (``note-fi-N``) for the
readings behind the options.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, SUITS, Card, Suit, pack
from .core import (
    Fan,
    Figure,
    Game,
    IllegalMove,
    Layout,
    Move,
    Outcome,
    PileSpec,
    Role,
    State,
    Step,
    option,
)
from .deal import shuffled
from .rules import plural

SLUG = "the-fifteen"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")               # only the lowest cards are available
NOTE = _rule("note")                   # Rule I has one exception (the withdrawal)
RULE_II = _rule("rule-2")              # each foundation must follow suit
DEAL = _rule("deal")                   # the entire pack, in rows of fifteen, the last of 14
ROWS_COVER = _rule("rows")             # each row partly covers the one before
FOUNDATIONS = _rule("foundations")     # four aces ascending, four kings descending
PLAY_AT_ONCE = _rule("play-at-once")   # when the deal is complete, play suitable cards first
MARRY = _rule("marry")                 # then marry, ascending and descending, by Rule I
EXCEPTION = _rule("exception")         # cannot even begin: an ace and a king from row six
FAILED = _rule("failed")               # unavailing: failed; no further infringement
ESTABLISHED = _rule("established")     # once begun: marry, release, open lanes
LANE = _rule("lane")                   # any available card at the top of a lane
REVERSING = _rule("reversing")         # lanes reverse sequences, card by card
REFILL = _rule("refill")               # a lane need not be refilled at once
NO_REDEAL = _rule("no-redeal")         # there is no re-deal
BOARD = _rule("board")                 # the board itself (notation errors, empty places)

COLUMNS = 15
ROWS = 7
SIXTH_ROW = 5          # index, from the top of a column, of the card dealt in the sixth row
TOTAL = 104
SEARCH_LIMIT = 4000    # positions explored at most when judging what marriages can reach


class Direction(Enum):
    """FI-3: may a line of marriages turn back on itself?"""

    FREE = "free"  # each card one above or one below the card it is placed on
    KEEP = "keep"  # a line of marriages, once begun, keeps its direction


class FoundationSuits(Enum):
    """FI-4: which four aces and four kings."""

    ONE_EACH = "one-each"  # an ace and a king of every suit
    ANY = "any"            # any four aces and any four kings


class ExceptionTrigger(Enum):
    """FI-8: when the patience "cannot even begin", so that the sixth row may be used."""

    CANNOT_BEGIN = "cannot-begin"      # no marriages can bring an ace or a king down
    NONE_AVAILABLE = "none-available"  # no ace or king is available at the moment


class OpeningPlays(Enum):
    """FI-5: when the deal is complete, must suitable cards be played before marrying?"""

    FIRST = "first"        # yes: no marriage while a lowest card suits a foundation
    OPTIONAL = "optional"  # no: plays and marriages in any order


@dataclass(frozen=True, slots=True)
class FifteenOptions:
    marriage_direction: Direction = option(
        Direction.FREE, note="note-fi-3", label="Marriages on a column may",
        labels={Direction.FREE: "go up or down from card to card",
                Direction.KEEP: "not turn back once a line has a direction"})
    foundation_suits: FoundationSuits = option(
        FoundationSuits.ONE_EACH, note="note-fi-4", label="The foundations are",
        labels={FoundationSuits.ONE_EACH: "an ace and a king of each suit",
                FoundationSuits.ANY: "any four aces and any four kings"})
    opening_plays: OpeningPlays = option(
        OpeningPlays.FIRST, note="note-fi-5", label="When the deal is complete",
        labels={OpeningPlays.FIRST: "suitable cards are played before the first marriage",
                OpeningPlays.OPTIONAL: "plays and marriages may come in any order"})
    exception_trigger: ExceptionTrigger = option(
        ExceptionTrigger.CANNOT_BEGIN, note="note-fi-8",
        label="An ace and a king may be withdrawn from the sixth row",
        labels={ExceptionTrigger.CANNOT_BEGIN: "only when no marriage can free one",
                ExceptionTrigger.NONE_AVAILABLE: "whenever none is available at the moment"})


# ---------------------------------------------------------------------------- the layout
# Columns side by side across the top, fanned downwards (the sixth row's card of column 15
# left uncovered, as on the plate); the eight foundation places in a row beneath, as the
# plate has them. Columns close up before they reach the foundations (fan_limit).

_FAN_LIMIT = 3.2        # card heights: a column never reaches the foundations' row
_FOUND_Y = 4.05         # slots (a column of 17 cards or more closes up above it)
_NAMES = ("first", "second", "third", "fourth")

PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"c{i}", f"column {i + 1}", Role.TABLEAU, float(i), 0.0, Fan.DOWN,
                   fan_limit=_FAN_LIMIT) for i in range(COLUMNS))
    + tuple(PileSpec(f"a{j}", f"{_NAMES[j]} ace foundation", Role.FOUNDATION, 3.5 + j,
                     _FOUND_Y, mark="ace") for j in range(4))
    + tuple(PileSpec(f"k{j}", f"{_NAMES[j]} king foundation", Role.FOUNDATION, 7.5 + j,
                     _FOUND_Y, mark="king") for j in range(4))
)

COLS = range(0, COLUMNS)
ASC = range(COLUMNS, COLUMNS + 4)
DESC = range(ASC.stop, ASC.stop + 4)
FOUNDS = range(ASC.start, DESC.stop)
V_MARRIED, V_WITHDRAWAL, V_FIRST = 0, 1, 2
# The state of the exception (var ``withdrawal``).
W_UNUSED, W_ACE_TAKEN, W_KING_TAKEN, W_USED = 0, 1, 2, 3


def _narrow_layout() -> Layout:
    """For a phone: columns 1–8 above columns 9–15, the foundations beneath."""
    at: dict[str, tuple[float, float, int]] = {}
    for i in COLS:
        x, y = (float(i), 0.0) if i < 8 else (i - 8 + 0.5, _FOUND_Y)
        at[PILES[i].id] = (x, y, 0)
    for n, f in enumerate(FOUNDS):
        at[PILES[f].id] = (float(n), 2 * _FOUND_Y, 0)
    return Layout(name="narrow", max_width=560, grid=(8.0, 2 * _FOUND_Y + 1.0), at=at)


def _plate_layout() -> Layout:
    """The plate's arrangement for the drawn diagram: the foundations just under the rows."""
    at = {PILES[f].id: (PILES[f].x, 2.45, 0) for f in FOUNDS}
    return Layout(name="plate", grid=(15.0, 3.4), at=at)


def is_base(card: Card) -> bool:
    """Whether a card is a foundation card: an ace or a king."""
    return card.rank in (ACE, KING)


def marries(card: Card, target: Card) -> bool:
    """A marriage: the same suit, one above or one below in value (no king on ace)."""
    return card.suit is target.suit and abs(card.rank - target.rank) == 1


def turns_back(column: tuple[Card, ...], card: Card) -> bool:
    """Whether ``card``, put below ``column``'s lowest card, would turn back the line of
    marriages that card ends (FI-3, the stricter reading): the two lowest cards are of one
    suit and next in value, and ``card`` would not go on in the same direction."""
    if len(column) < 2:
        return False
    low, above = column[-1], column[-2]
    if not marries(low, above):
        return False
    return card.rank - low.rank != low.rank - above.rank


# ---------------------------------------------------------------------------- the game

class TheFifteen(Game):
    slug = SLUG
    title = "The Fifteen"
    packs = 2
    Options = FifteenOptions
    PILES = PILES
    VARS = ("married", "withdrawal", "first")
    GRID = (15.0, round(_FOUND_Y + 1.0, 2))
    LAYOUTS = (_narrow_layout(), _plate_layout())
    FIGURES = (
        Figure("tableau", "The Fifteen after the deal, in modern cards.",
               "The tableau of the Fifteen just after the deal, drawn in modern cards: "
               "fifteen columns side by side, each of seven overlapping cards dealt in "
               "horizontal rows, every row partly covering the one above it, except the "
               "fifteenth column, which has six because the last row holds only fourteen "
               "cards; below them a row of eight empty places for the foundations, four for "
               "aces and four for kings.",
               layout="plate"),
    )
    LEDGER = {
        RULE_I: "Only the lowest card of a column (the card last dealt or married to it) "
                "may be moved; any card with another below it is refused, except under "
                "the withdrawal described under Play.",
        NOTE: "The one exception to Rule I is the withdrawal of an ace and a king from the "
              "sixth row; the board allows it once, under the conditions of note FI-8.",
        RULE_II: "A foundation takes only cards of the suit of its ace or king; a card of "
                 "another suit is refused.",
        DEAL: "The whole pack is dealt at the start, row by row from left to right, fifteen "
              "cards a row and fourteen in the seventh, so column 15 has six cards and its "
              "sixth is available; there is no action to deal.",
        ROWS_COVER: "Each column is drawn as a pile fanned downwards, the card of each row "
                    "over the one above it, so the lowest card is its top.",
        FOUNDATIONS: "Four places take aces, which ascend in suit to kings, and four take "
                     "kings, which descend to aces; by default each suit has one ace and "
                     "one king foundation, under the other reading of note FI-4 any four "
                     "aces and any four kings.",
        PLAY_AT_ONCE: "By default no marriage is allowed, until the first one has been made, "
                      "while a lowest card suits a foundation; under the other reading of "
                      "note FI-5 plays and marriages come in any order.",
        MARRY: "A lowest card may be put below another column’s lowest card of the same "
               "suit one above or below it in value; by default the line may turn back, "
               "under the other reading of note FI-3 it may not.",
        EXCEPTION: "While no foundation is established and no ace or king is available (by "
                   "default, also none can be freed by marriages), one ace and one king may "
                   "be taken from the sixth row to the foundations, and the cards below "
                   "close up; once one is taken the other must follow if the sixth row of "
                   "another column holds one.",
        FAILED: "The withdrawal is allowed once only; the game is declared lost when no "
                "series of marriages and lanes can bring a card to a foundation or, before "
                "any foundation, to the sixth row for the withdrawal.",
        ESTABLISHED: "Marriages and lanes remain allowed for the whole game, once foundations "
                     "are established; a column emptied of all its cards is a lane.",
        LANE: "Any lowest card may be put into an empty column, and cards married below it "
              "as on any other column.",
        REVERSING: "Cards move singly, so a sequence moved card by card into a lane or onto "
                   "another column is reversed; no run moves at once.",
        REFILL: "A lane may stay empty as long as the player likes; nothing ever fills it "
                "automatically.",
        NO_REDEAL: "There is no re-deal; the action is refused.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        cards = shuffled(pack(2), deal)
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        # From the top of the pack (its last card), row by row, left to right (FI-2).
        for n, card in enumerate(reversed(cards)):
            col = n % COLUMNS
            piles[col] = piles[col] + (card,)
        return State(tuple(piles), (0, W_UNUSED, -1))

    # ---- foundations -----------------------------------------------------------------
    def fits(self, state: State, f: int, card: Card) -> bool:
        """Whether foundation place ``f`` takes ``card`` next."""
        pile = state.piles[f]
        if pile:
            if card.suit is not pile[0].suit:
                return False
            step = 1 if f in ASC else -1
            return pile[-1].rank != (KING if f in ASC else ACE) and \
                card.rank == pile[-1].rank + step
        if card.rank != (ACE if f in ASC else KING):
            return False
        return not self._suit_taken(state, f, card)

    def _suit_taken(self, state: State, f: int, card: Card) -> bool:
        """Under FI-4's default reading: whether ``card``'s suit already has a foundation of
        the kind of place ``f``."""
        if self.options.foundation_suits is FoundationSuits.ANY:
            return False
        same = ASC if f in ASC else DESC
        return any(state.piles[g] and state.piles[g][0].suit is card.suit for g in same)

    @staticmethod
    def begun(state: State) -> bool:
        """Whether any foundation is established."""
        return any(state.piles[f] for f in FOUNDS)

    def wanted(self, state: State) -> set[tuple[int, Suit]]:
        """The cards (rank, suit) some foundation would take now."""
        out: set[tuple[int, Suit]] = set()
        for f in FOUNDS:
            pile = state.piles[f]
            if pile:
                nxt = pile[-1].rank + (1 if f in ASC else -1)
                if 1 <= nxt <= 13 and pile[-1].rank != (KING if f in ASC else ACE):
                    out.add((nxt, pile[0].suit))
            else:
                base = ACE if f in ASC else KING
                for s in SUITS:
                    if not self._suit_taken(state, f, Card(base, s)):
                        out.add((base, s))
        return out

    def must_play_first(self, state: State) -> bool:
        """Whether, under FI-5's default reading, a marriage must wait: none has been made
        since the deal, and some lowest card suits a foundation (under FI-4's other reading,
        not counting an ace or king whose suit has its two foundations already, which the
        player may rather keep back)."""
        if self.options.opening_plays is not OpeningPlays.FIRST or state.vars[V_MARRIED]:
            return False
        want = self.wanted(state)
        full = {s for s in SUITS
                if sum(1 for f in FOUNDS if state.piles[f] and state.piles[f][0].suit is s) >= 2}
        return any(p and (p[-1].rank, p[-1].suit) in want
                   and not (is_base(p[-1]) and p[-1].suit in full)
                   for p in self._columns(state))

    @staticmethod
    def _columns(state: State) -> tuple[tuple[Card, ...], ...]:
        return state.piles[:COLUMNS]

    # ---- the exception ---------------------------------------------------------------
    @staticmethod
    def sixth_row(state: State, col: int) -> Card | None:
        """The card lying in the sixth row of a column (counted from the top), if any."""
        p = state.piles[col]
        return p[SIXTH_ROW] if len(p) > SIXTH_ROW else None

    def _second_kind(self, state: State) -> int | None:
        """During a withdrawal: the rank (ace or king) that must follow, if any."""
        w = state.vars[V_WITHDRAWAL]
        if w == W_ACE_TAKEN:
            return KING
        if w == W_KING_TAKEN:
            return ACE
        return None

    def _exception_refusal(self, state: State, col: int, card: Card) -> IllegalMove | None:
        """Why ``card``, in the sixth row of ``col``, may not be withdrawn now (None: it
        may, to a place that takes it)."""
        w = state.vars[V_WITHDRAWAL]
        follow = self._second_kind(state)
        if follow is not None:
            if card.rank != follow:
                return IllegalMove(EXCEPTION, f"One ace and one king are withdrawn: take "
                                   f"{'a king' if follow == KING else 'an ace'} from the "
                                   "sixth row now.")
            if col == state.vars[V_FIRST]:
                return IllegalMove(EXCEPTION, "The second card is withdrawn from the sixth "
                                   "row of another column: this card has only closed up "
                                   "into the space the first one left.")
            return None
        if w == W_USED:
            return IllegalMove(FAILED, "The withdrawal from the sixth row has been used: no "
                               "further infringement of rules is allowed.")
        if self.begun(state):
            return IllegalMove(EXCEPTION, "A foundation is established: the exception is "
                               "only for a patience that cannot even begin.")
        if any(p and is_base(p[-1]) for p in self._columns(state)):
            return IllegalMove(EXCEPTION, "An ace or a king is available in the lowest row: "
                               "the patience can begin without the exception.")
        if self.options.exception_trigger is ExceptionTrigger.CANNOT_BEGIN:
            path = self.path_to_play(state)
            if path:
                first = path[0]
                return IllegalMove(EXCEPTION, "Marriages can still free an ace or a king, so "
                                   "the patience can begin without the exception (for "
                                   f"instance: {self.describe(state, first)[:-1]}).")
        return None

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        follow = self._second_kind(state)
        if follow is not None or (state.vars[V_WITHDRAWAL] == W_UNUSED
                                  and not self.begun(state)):
            for i in COLS:
                card = self.sixth_row(state, i)
                top = len(piles[i]) == SIXTH_ROW + 1
                if card is None or not is_base(card) or (follow is None and top) or (
                        follow is not None and card.rank != follow):
                    continue  # (a sixth-row card that is the lowest is played as usual)
                ref = PILES[i].id if top else f"{PILES[i].id}:{SIXTH_ROW}"
                for f in FOUNDS:
                    if self.fits(state, f, card):
                        yield Move.step(ref, PILES[f].id)
            if follow is not None:
                return
        want = self.wanted(state)
        for i in COLS:
            if not piles[i]:
                continue
            card = piles[i][-1]
            sid = PILES[i].id
            if (card.rank, card.suit) in want:
                for f in FOUNDS:
                    if self.fits(state, f, card):
                        yield Move.step(sid, PILES[f].id)
            for j in COLS:
                if j != i and (not piles[j] or marries(card, piles[j][-1])):
                    yield Move.step(sid, PILES[j].id)

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if si in FOUNDS:
            return IllegalMove(FOUNDATIONS, "Cards on the foundations stay there: the aces "
                               "ascend to kings and the kings descend to aces.")
        withdrawal = (step.k == SIXTH_ROW and is_base(card) and di in FOUNDS
                      and (not step.top or self._second_kind(state) is not None))
        if withdrawal:
            why = self._exception_refusal(state, si, card)
            return why if why is not None else self._foundation_refusal(state, di, card)
        follow = self._second_kind(state)
        if follow is not None:
            return IllegalMove(EXCEPTION, f"Finish the withdrawal first: take "
                               f"{'a king' if follow == KING else 'an ace'} from the sixth "
                               "row as well.")
        if not step.top:
            return IllegalMove(RULE_I, "Only the lowest card of a column is available: no "
                               "card can be used that has any other below it.")
        if di in FOUNDS:
            return self._foundation_refusal(state, di, card)
        # di is a column: a marriage, or a card put into a lane.
        if self.must_play_first(state):
            return IllegalMove(PLAY_AT_ONCE, "When the deal is complete, the cards that suit "
                               "a foundation are played at once, and only then are cards "
                               "married.")
        target = state.piles[di]
        if not target:
            return None  # a lane takes any available card
        low = target[-1]
        if card.suit is not low.suit:
            return IllegalMove(MARRY, f"The {card.name} cannot marry the {low.name}: a "
                               "marriage is with a card of the same suit.")
        if abs(card.rank - low.rank) != 1:
            return IllegalMove(MARRY, f"The {card.name} cannot marry the {low.name}: a card "
                               "is married to the next one above or below it in value.")
        if self.options.marriage_direction is Direction.KEEP and turns_back(target, card):
            way = "ascending" if low.rank > target[-2].rank else "descending"
            return IllegalMove(MARRY, f"Under this reading the line ending with the "
                               f"{low.name} is {way}, and the {card.name} would turn it "
                               "back.")
        return None

    def _foundation_refusal(self, state: State, f: int, card: Card) -> IllegalMove | None:
        if self.fits(state, f, card):
            return None
        pile = state.piles[f]
        label = PILES[f].label
        if pile:
            suit = pile[0].suit
            if card.suit is not suit:
                return IllegalMove(RULE_II, f"Each foundation must follow suit: the {label} "
                                   f"takes only {suit.noun}.")
            end = KING if f in ASC else ACE
            if pile[-1].rank == end:
                return IllegalMove(FOUNDATIONS, f"The {label} is complete.")
            nxt = Card(pile[-1].rank + (1 if f in ASC else -1), suit)
            return IllegalMove(FOUNDATIONS, f"The {label} needs the {nxt.name} next.")
        base = "an ace" if f in ASC else "a king"
        if card.rank != (ACE if f in ASC else KING):
            way = "the aces ascending to kings" if f in ASC else \
                "the kings descending to aces"
            return IllegalMove(FOUNDATIONS, f"The {label} begins with {base}: {way}.")
        return IllegalMove(FOUNDATIONS, f"The {card.suit.noun} already have their "
                           f"{'ace' if f in ASC else 'king'} foundation: there is one ace and "
                           "one king of each suit.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "redeal":
            return IllegalMove(NO_REDEAL, "There is no re-deal.")
        if action == "deal":
            return IllegalMove(DEAL, "The entire pack was dealt out at the start.")
        return IllegalMove(BOARD, f"The Fifteen has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        (src, dst), = move.steps
        si, di = self.pile_index(src), self.pile_index(dst)
        _, _, k = src.partition(":")
        piles = list(state.piles)
        j = int(k) if k else len(piles[si]) - 1
        card = piles[si][j]
        piles[si] = piles[si][:j] + piles[si][j + 1:]  # the cards below close up
        piles[di] = piles[di] + (card,)
        married, w, first = state.vars
        if di in COLS:
            married = 1
        if w in (W_ACE_TAKEN, W_KING_TAKEN):
            w = W_USED  # the second card of the withdrawal
        elif w == W_UNUSED and k:
            # The first card of the withdrawal: the other kind must follow, if the sixth
            # row of another column holds one.
            other = KING if card.rank == ACE else ACE
            after = State(tuple(piles), (married, w, si))
            if any(i != si and (c := self.sixth_row(after, i)) is not None
                   and c.rank == other and any(self.fits(after, f, c) for f in FOUNDS)
                   for i in COLS):
                w, first = (W_ACE_TAKEN if card.rank == ACE else W_KING_TAKEN), si
            else:
                w = W_USED
        return State(tuple(piles), (married, w, first))

    # ---- what marriages can reach ----------------------------------------------------
    # The search works on cards coded as numbers, rank * 4 + suit: two cards marry when
    # their codes differ by exactly 4.
    def _search(self, state: State, sixth_row: bool) -> list[tuple[int, int]] | bool | None:
        """Marriages and lanes from ``state``, the foundations fixed: a series
        found after which a lowest card suits a foundation or, with ``sixth_row``, an ace
        or a king lies in the sixth row of a column (a list, empty when one does already);
        False when none can; None when the search gave up (too many positions)."""
        want = {rank * 4 + SUITS.index(suit) for rank, suit in self.wanted(state)}
        keep = self.options.marriage_direction is Direction.KEEP
        bases = {ACE * 4 + n for n in range(4)} | {KING * 4 + n for n in range(4)}

        def moves(cols: tuple[tuple[int, ...], ...]) -> Iterator[tuple[int, int]]:
            empty = next((j for j, p in enumerate(cols) if not p), None)
            lows: dict[int, list[int]] = {}
            for j, q in enumerate(cols):
                if q:
                    lows.setdefault(q[-1], []).append(j)
            for i, p in enumerate(cols):
                if not p:
                    continue
                c = p[-1]
                if empty is not None and len(p) > 1:
                    yield i, empty  # one empty column stands for all of them
                for t in (c - 4, c + 4):
                    for j in lows.get(t, ()):
                        q = cols[j]
                        if keep and len(q) > 1 and abs(q[-2] - t) == 4 and c - t != t - q[-2]:
                            continue  # it would turn the line back (FI-3, stricter reading)
                        yield i, j

        def distance(cols: tuple[tuple[int, ...], ...]) -> int:
            """How many cards lie below the nearest wanted card (0: the goal)."""
            best = 999
            for p in cols:
                n = len(p)
                if sixth_row and n > SIXTH_ROW and p[SIXTH_ROW] in bases:
                    return 0
                for k, c in enumerate(p):
                    if c in want and n - 1 - k < best:
                        best = n - 1 - k
            return best

        start = tuple(tuple(c.rank * 4 + SUITS.index(c.suit) for c in p)
                      for p in self._columns(state))
        if distance(start) == 0:
            return []
        # Best first: the positions where a wanted card lies nearest the bottom of its
        # column are explored first; positions are taken without regard to which column
        # is which.
        seen = {tuple(sorted(start))}
        heap: list[tuple[int, int, tuple[tuple[int, ...], ...], list[tuple[int, int]]]] = [
            (distance(start), 0, start, [])]
        count = 0
        while heap:
            _, _, cols, path = heapq.heappop(heap)
            for a, b in moves(cols):
                new = list(cols)
                new[b] = cols[b] + cols[a][-1:]
                new[a] = cols[a][:-1]
                t = tuple(new)
                key = tuple(sorted(t))
                if key in seen:
                    continue
                d = distance(t)
                if d == 0:
                    return path + [(a, b)]
                if len(seen) >= SEARCH_LIMIT:
                    return None
                seen.add(key)
                count += 1
                heapq.heappush(heap, (d, count, t, path + [(a, b)]))
        return False

    def path_to_play(self, state: State) -> list[Move] | None:
        """The marriages after which a card can be played (None when none are found)."""
        found = self.remembered(state, self._search_play)
        if not isinstance(found, list):
            return None
        return [Move.step(PILES[a].id, PILES[b].id) for a, b in found] or None

    def _search_play(self, state: State) -> list[tuple[int, int]] | bool | None:
        return self._search(state, False)

    def _search_end(self, state: State) -> list[tuple[int, int]] | bool | None:
        return self._search(state, self._exception_open(state))

    def _exception_open(self, state: State) -> bool:
        return state.vars[V_WITHDRAWAL] == W_UNUSED and not self.begun(state)

    # ---- the end ---------------------------------------------------------------------
    def outcome_of(self, state: State) -> Outcome | None:
        if sum(len(state.piles[f]) for f in FOUNDS) == TOTAL:
            return Outcome.WON
        if self._second_kind(state) is not None:
            return None  # the withdrawal is under way: its second card can always follow
        if self.overfull_suit(state) is not None:
            return Outcome.LOST
        found = self.remembered(state, self._search_end)
        return Outcome.LOST if found is False else None

    def overfull_suit(self, state: State) -> Card | None:
        """Under FI-4's other reading: a suit given three or four foundations can never be
        completed (each suit fills exactly two). The base of such a suit, if any."""
        count: dict[Any, int] = {}
        for f in FOUNDS:
            if state.piles[f]:
                s = state.piles[f][0].suit
                count[s] = count.get(s, 0) + 1
                if count[s] > 2:
                    return state.piles[f][0]
        return None

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = sum(len(state.piles[f]) for f in FOUNDS)
        if out is Outcome.WON:
            return "Won: all eight foundations are complete."
        if out is Outcome.LOST:
            over = self.overfull_suit(state)
            if over is not None:
                return (f"The {over.suit.noun} have three foundations, and each suit fills "
                        "only two: the patience can no longer be completed.")
            if not self.begun(state):
                return ("No ace or king can be freed, and the exception cannot help: the "
                        "patience has already failed.")
            return (f"Nothing more can reach the foundations: the patience has failed with "
                    f"{played} of {TOTAL} cards played.")
        follow = self._second_kind(state)
        if follow is not None:
            found = [f"the {c.name} in {PILES[i].label}" for i in COLS
                     if i != state.vars[V_FIRST] and (c := self.sixth_row(state, i)) is not None
                     and c.rank == follow]
            return (f"Withdrawal from the sixth row: now take {' or '.join(found)} as well.")
        parts = [f"{played} of {TOTAL} cards on the foundations"]
        lanes = sum(1 for p in self._columns(state) if not p)
        if lanes:
            parts.append(plural(lanes, "lane") + " open")
        if not self.begun(state):
            if any(p and is_base(p[-1]) for p in self._columns(state)):
                parts.append("play an ace or a king to begin")
            elif state.vars[V_WITHDRAWAL] == W_UNUSED:
                parts.append("no ace or king is available: marry to free one or, if none "
                             "can be freed, withdraw an ace and a king from the sixth row")
        elif self.must_play_first(state):
            parts.append("play the suitable cards before marrying")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action:
            return move.action
        (src, dst), = move.steps
        card = self.card_at(state, src)
        name = card.name if card else "a card"
        si, di = self.pile_index(src), self.pile_index(dst)
        if di in FOUNDS:
            verb = "withdrawn from the sixth row of" if ":" in src else "played from"
            return f"The {name} is {verb} {self.label(src)} to the {self.label(dst)}."
        if not state.piles[di]:
            return f"The {name} is placed in the lane of {self.label(dst)}."
        low = state.piles[di][-1]
        return f"The {name} is married to the {low.name}, from {PILES[si].label} to " \
               f"{self.label(dst)}."


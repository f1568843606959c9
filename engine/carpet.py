"""The Carpet (two packs), by the book: 1914 printing, plate p. 102, text pp. 103–104.

Piles: eight foundations, the four aces and the four kings of different suits withdrawn from
the pack before the deal, each ace ascending to its king and each king descending to its ace
in its own suit (Rule I and "the usual sequences"); the carpet, sixty-four places in eight
rows of eight, each holding one card, the cards lying upright and across by turns as the plate
draws them (a card upright where its row and column numbers add up to an even number); the
pack, and the talon.

A card of the carpet is available only when one of its narrow ends is free (Rule II): the
narrow ends of an upright card are its top and bottom, of a card lying across its left and
right ends. What "free" asks for is CP-2's option: by default a straight clear lane from the
narrow end to the carpet's edge. An available card may be played on a foundation, or placed
on the talon's top in sequence and suit, one rank above or below (Rule IV): under CP-3's
default a sequence once begun on the talon keeps its direction. The pack is dealt one card at
a time onto the talon, whose top card may be played on a foundation; nothing is ever put back
on the carpet. When the pack is out the talon may be taken up, shuffled and dealt again,
twice. See the chapter page for the text each rule id points at, and its editorial notes
(``note-cp-N``) for the readings behind the options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, RANK_NAMES, SUITS, Card, Suit, pack
from .core import (
    ActionSpec,
    Figure,
    Game,
    Layout,
    IllegalMove,
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

SLUG = "the-carpet"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_1 = _rule("rule-1")              # the foundations follow suit
RULE_2 = _rule("rule-2")              # available only when one narrow end is free; crosses
RULE_3 = _rule("rule-3")              # a card played does not free the next one
RULE_4 = _rule("rule-4")              # carpet cards in sequence and suit on the talon's top
FOUNDATIONS = _rule("foundations")    # four aces and four kings withdrawn: the foundations
CARPET = _rule("carpet")              # sixty-four cards in the tableau's pattern: the carpet
FIRST_PLAYS = _rule("first-plays")    # play from the carpet all available cards
DEAL = _rule("deal")                  # deal out the remainder, the unsuitable to the talon
EXAMINE = _rule("examine")            # examine the carpet before each card of the talon
NOT_OBLIGED = _rule("not-obliged")    # suitable cards need not be played on a foundation
STRICTLY = _rule("strictly")          # carry out strictly Rule II
NARROW_ENDS = _rule("narrow-ends")    # no card used unless one narrow end is free
LANE = _rule("lane")                  # a clear lane leading up to a narrow end
REDEAL = _rule("redeal")              # the talon taken up, shuffled and re-dealt twice
CARE = _rule("care")                  # care in the third deal: descending sequences (advice)
TWO_REDEALS = _rule("two-redeals")    # there are two re-deals
BOARD = _rule("board")                # the board itself (notation errors)

SIZE = 8                 # rows, and places in a row
FULL = 13                # cards on a finished foundation
TOTAL = 104
REDEALS_ALLOWED = 2


class Lane(Enum):
    """When a narrow end of a card of the carpet is free (CP-2)."""

    STRAIGHT = "straight"   # every place beyond it, in its line, to the carpet's edge is empty
    ADJACENT = "adjacent"   # the place next to it, beyond it, is empty (or off the carpet)
    OPEN = "open"           # the place beyond it is empty and joined to the edge by spaces


class Runs(Enum):
    """How cards of the carpet are placed in sequence on the talon (CP-3)."""

    KEPT = "kept"           # a sequence begun keeps its direction
    EITHER = "either"       # each card one above or one below the top, as the player likes


@dataclass(frozen=True, slots=True)
class CarpetOptions:
    lane: Lane = option(
        Lane.STRAIGHT, note="note-cp-2", label="A narrow end of a card of the carpet is free",
        labels={Lane.STRAIGHT: "when a straight lane of spaces runs from it to the carpet’s "
                               "edge",
                Lane.ADJACENT: "when the place next to it is empty",
                Lane.OPEN: "when the place next to it is empty and a path of spaces, "
                           "turning or not, leads from there to the edge"})
    runs: Runs = option(
        Runs.KEPT, note="note-cp-3", label="Sequences placed on the talon",
        labels={Runs.KEPT: "keep the direction they began in",
                Runs.EITHER: "may turn: each card one above or one below the top"})


# ---- the carpet's geometry -----------------------------------------------------------

def upright(row: int, col: int) -> bool:
    """Whether the card at ``row``, ``col`` (from 0) lies upright, its narrow ends at the top
    and bottom; the others lie across, their narrow ends left and right. The plate begins
    its first row with an upright card and alternates along every row and column."""
    return (row + col) % 2 == 0


def ends(row: int, col: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two directions (row step, column step) in which the card's narrow ends face."""
    return ((-1, 0), (1, 0)) if upright(row, col) else ((0, -1), (0, 1))


def on_carpet(row: int, col: int) -> bool:
    return 0 <= row < SIZE and 0 <= col < SIZE


def end_free(filled: list[list[bool]], row: int, col: int, d: tuple[int, int],
             lane: Lane, reach: set[tuple[int, int]] | None = None) -> bool:
    """Whether the narrow end of the card at ``row``, ``col`` facing ``d`` is free, under the
    reading ``lane``; ``filled[r][c]`` says whether a place holds a card, ``reach`` (for the
    OPEN reading) is the set of empty places joined to the carpet's edge."""
    r, c = row + d[0], col + d[1]
    if not on_carpet(r, c):
        return True                     # the end lies at the carpet's edge
    if filled[r][c]:
        return False                    # a card touches it
    if lane is Lane.ADJACENT:
        return True
    if lane is Lane.OPEN:
        assert reach is not None
        return (r, c) in reach
    while on_carpet(r, c):              # STRAIGHT: the whole line out to the edge
        if filled[r][c]:
            return False
        r, c = r + d[0], c + d[1]
    return True


def open_spaces(filled: list[list[bool]]) -> set[tuple[int, int]]:
    """The empty places joined to the carpet's edge through empty places, across or down."""
    todo = [(r, c) for r in range(SIZE) for c in range(SIZE)
            if not filled[r][c] and (r in (0, SIZE - 1) or c in (0, SIZE - 1))]
    seen = set(todo)
    while todo:
        r, c = todo.pop()
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            n = (r + dr, c + dc)
            if on_carpet(*n) and not filled[n[0]][n[1]] and n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


def free_places(filled: list[list[bool]], lane: Lane) -> set[tuple[int, int]]:
    """Every place whose card is available (Rule II): one of its narrow ends is free."""
    reach = open_spaces(filled) if lane is Lane.OPEN else None
    return {(r, c) for r in range(SIZE) for c in range(SIZE)
            if filled[r][c] and any(end_free(filled, r, c, d, lane, reach)
                                    for d in ends(r, c))}


# ---- the piles ---------------------------------------------------------------------
# As on the plate: the four aces at the left and the four kings at the right above the
# carpet; the carpet's eight rows of eight, upright and crosswise cards by turns, each place
# as far from the next as half an upright card and half a card across, and a little gap; the
# pack below the carpet, the talon beside it. Card sizes in slots, as the board draws them:
# a card is 0.9 slot wide and 1.26 high; a grid row is 1.36 slots.

_W, _H, _ROW = 0.9, 1.26, 1.36
_PITCH = 1.13                         # from one place's centre to the next, in slots
_TOP = _H + 0.35                      # the carpet's upper edge, in slots
_CX0 = _H / 2                         # the centre of the first column


def _centre(row: int, col: int) -> tuple[float, float]:
    return _CX0 + col * _PITCH, _TOP + _H / 2 + row * _PITCH


def pid_of(row: int, col: int) -> str:
    return f"c{row}{col}"


def _place(row: int, col: int) -> PileSpec:
    cx, cy = _centre(row, col)
    way = "upright" if upright(row, col) else "across"
    return PileSpec(pid_of(row, col), f"the carpet, row {row + 1}, place {col + 1} ({way})",
                    Role.TABLEAU, round(cx - 0.5, 3), round((cy - _H / 2) / _ROW, 3),
                    rotate=0 if upright(row, col) else 90, mark="space")


_WIDTH = round(2 * _CX0 + (SIZE - 1) * _PITCH, 3)      # 9.17 slots
_LOW = round((_TOP + _H + (SIZE - 1) * _PITCH + 0.4) / _ROW, 3)


def _foundation(kind: str, j: int, suit: Suit) -> PileSpec:
    if kind == "a":
        return PileSpec(f"a{j}", f"the {suit.noun} foundation from the ace", Role.FOUNDATION,
                        float(j), 0.0, mark=f"{suit.symbol} A–K")
    return PileSpec(f"k{j}", f"the {suit.noun} foundation from the king", Role.FOUNDATION,
                    round(_WIDTH - 4 + j, 3), 0.0, mark=f"{suit.symbol} K–A")


PILES: tuple[PileSpec, ...] = (
    tuple(_foundation("a", j, s) for j, s in enumerate(SUITS))
    + tuple(_foundation("k", j, s) for j, s in enumerate(SUITS))
    + tuple(_place(r, c) for r in range(SIZE) for c in range(SIZE))
    + (PileSpec("stock", "the pack", Role.STOCK, round(_WIDTH / 2 - 1.6, 3), _LOW),
       PileSpec("talon", "the talon", Role.TALON, round(_WIDTH / 2 + 0.6, 3), _LOW))
)

def _narrow_layout() -> Layout:
    """For a phone: the same arrangement drawn closer, each place 0.965 slot from the next,
    so that the carpet, eight slots wide, fits a 390-pixel screen with cards no narrower than
    the board allows (a card across then overlaps the long sides of its upright neighbours by
    a twentieth of a slot)."""
    pitch = 0.965
    top = _H + 0.25
    width = round(_H + (SIZE - 1) * pitch, 3)
    at: dict[str, tuple[float, float, int]] = {}
    for j in range(4):
        at[f"a{j}"] = (round(j * 0.99, 3), 0.0, 0)
        at[f"k{j}"] = (round(width - 4 * 0.99 + 0.04 + j * 0.99, 3), 0.0, 0)
    for r in range(SIZE):
        for c in range(SIZE):
            cx, cy = _H / 2 + c * pitch, top + _H / 2 + r * pitch
            at[pid_of(r, c)] = (round(cx - 0.5, 3), round((cy - _H / 2) / _ROW, 3),
                                0 if upright(r, c) else 90)
    low = round((top + _H + (SIZE - 1) * pitch + 0.3) / _ROW, 3)
    at["stock"] = (round(width / 2 - 1.5, 3), low, 0)
    at["talon"] = (round(width / 2 + 0.5, 3), low, 0)
    return Layout("narrow", (width, round(low + _H / _ROW + 0.05, 3)), at, max_width=560)


ACE_PILES = range(0, 4)
KING_PILES = range(4, 8)
FOUNDATION_PILES = range(0, 8)
CARPET_PILES = range(8, 8 + SIZE * SIZE)
STOCK = CARPET_PILES.stop
TALON_PILE = STOCK + 1
assert len(PILES) == TALON_PILE + 1


def place_of(pile: int) -> tuple[int, int]:
    """The row and column (from 0) of a carpet pile."""
    return divmod(pile - CARPET_PILES.start, SIZE)


def pile_at(row: int, col: int) -> int:
    return CARPET_PILES.start + row * SIZE + col


def foundation_suit(f: int) -> Suit:
    return SUITS[f % 4]


def next_rank(f: int, pile: tuple[Card, ...]) -> int | None:
    """The rank foundation ``f`` takes next: up from its ace or down from its king; None
    when it is finished."""
    n = len(pile)
    if n >= FULL:
        return None
    return ACE + n if f in ACE_PILES else KING - n


def in_sequence(top: Card, card: Card) -> bool:
    """Whether ``card`` follows ``top`` in a sequence of one suit, either way (no turning
    from king to ace)."""
    return card.suit is top.suit and abs(card.rank - top.rank) == 1


def run_direction(talon: tuple[Card, ...]) -> int:
    """+1 if the talon's two top cards ascend in sequence and suit, -1 if they descend, 0 if
    they are no sequence (or the talon holds fewer than two cards)."""
    if len(talon) < 2 or not in_sequence(talon[-2], talon[-1]):
        return 0
    return talon[-1].rank - talon[-2].rank


class TheCarpet(Game):
    slug = SLUG
    title = "The Carpet"
    packs = 2
    #: The talon is built face up by the player (CP-6): each of its cards was seen as it was
    #: laid, and the direction its run must keep (CP-3) is read from the card beneath the top;
    #: so the view shows it whole (hiding that card, the moves allowed would betray it).
    TALON_OPEN = True
    Options = CarpetOptions
    PILES = PILES
    VARS = ("redeals",)
    GRID = (_WIDTH, round(_LOW + _H / _ROW + 0.05, 3))
    LAYOUTS = (_narrow_layout(),)
    FIGURES = (
        Figure("tableau", "The Carpet after the deal, in modern cards.",
               "The tableau of the Carpet just after the deal, drawn in modern cards: at the "
               "top the four aces at the left and the four kings at the right, one of each "
               "suit; below them the carpet, eight rows of eight cards, in every row and "
               "every column the cards lying upright and across by turns, the first row "
               "beginning with an upright card; below the carpet the pack, face down, and "
               "the empty place of the talon."),
    )
    DIAGRAM_DEAL = 1
    ACTIONS = (
        ActionSpec("deal", "Deal the next card", "t", DEAL),
        ActionSpec("redeal", "Shuffle and re-deal the talon", "e", REDEAL),
    )
    LEDGER = {
        RULE_1: "Each foundation takes only cards of its own suit; another suit is refused.",
        RULE_2: "A card of the carpet is played or placed only when one of its narrow ends "
                "is free (top or bottom of an upright card, left or right end of a card "
                "across); a card both of whose ends are blocked is refused. Just after the "
                "deal exactly the sixteen cards the plate marks with crosses are available "
                "under every reading.",
        RULE_3: "Removing a card never frees the card beyond either of its narrow ends, "
                "which touched it with a long side; only the cards along its long sides, "
                "whose narrow ends it blocked, may be freed, by the reading chosen in CP-2.",
        RULE_4: "An available card of the carpet may be placed on the talon’s top card if it "
                "is of the same suit and one rank above or below it (never from king to ace "
                "or back); under CP-3’s default, once the two top cards of the talon are in "
                "sequence, the next must continue in the same direction; the reverse is "
                "refused. Nothing is placed on an empty talon.",
        FOUNDATIONS: "The deal withdraws one ace and one king of each suit as the eight "
                     "foundations; each ace ascends to the king and each king descends to "
                     "the ace in its suit, thirteen cards; a card played on a foundation "
                     "stays there.",
        CARPET: "The deal lays sixty-four cards, row by row from the pack’s top, in eight "
                "rows of eight, upright and across by turns as on the plate; a place once "
                "emptied is never filled again, and nothing is put on the carpet.",
        FIRST_PLAYS: "From the first move any available card of the carpet may be played on "
                     "a foundation that takes it; nothing is played unasked.",
        DEAL: "Deal the next card lays the pack’s top card on the talon, from where it may "
              "be played on a foundation; cards from the pack go nowhere else.",
        EXAMINE: "Available cards of the carpet may be placed on the talon at any time "
                 "between deals, as many as fit, one at a time.",
        NOT_OBLIGED: "No move is forced: a card dealt that a foundation would take may be "
                     "left on the talon, and cards of the carpet built on it.",
        STRICTLY: "Every play or placing from the carpet checks Rule II; a card that is not "
                  "available is refused with the rule.",
        NARROW_ENDS: "A card neither of whose narrow ends is free is refused both for a "
                     "foundation and for the talon.",
        LANE: "Under CP-2’s default a narrow end is free when every place beyond it, in its "
              "own line (down the column for an upright card, along the row for a card "
              "across), is empty to the carpet’s edge; the other readings ask only for the "
              "next place empty, or for a path of spaces from it to the edge.",
        REDEAL: "Once the pack is out, Shuffle and re-deal the talon takes up the talon, "
                "shuffles it and makes it the pack again; refused while the pack holds cards "
                "or when the talon is empty.",
        CARE: "Advice: the board lets the player build in either direction (within CP-3) "
              "and does not refuse a sequence that can no longer be played off.",
        TWO_REDEALS: "Two re-deals are allowed, three deals in all; a third is refused.",
    }

    # ---- the deal ----------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        rest = pack(2)
        for s in SUITS:                          # one ace and one king of each suit withdrawn
            rest.remove(Card(ACE, s))
            rest.remove(Card(KING, s))
        stock = shuffled(rest, deal)
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for j, s in enumerate(SUITS):
            piles[ACE_PILES[j]] = (Card(ACE, s),)
            piles[KING_PILES[j]] = (Card(KING, s),)
        for i in CARPET_PILES:                    # row by row, left to right, from the top
            piles[i] = (stock.pop(),)
        piles[STOCK] = tuple(stock)
        return State(tuple(piles), (0,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        for f in FOUNDATION_PILES:
            pile = p[f]
            if not pile:
                raise PositionError(f"{PILES[f].label} is empty: the foundations are laid "
                                    "out before the deal")
            for k, card in enumerate(pile):
                if card.suit is not foundation_suit(f) or card.rank != next_rank(f, pile[:k]):
                    raise PositionError(f"{PILES[f].label} is not built in order")
        for i in CARPET_PILES:
            if len(p[i]) > 1:
                raise PositionError(f"{PILES[i].label} holds more than one card")
        if not 0 <= state.vars[0] <= REDEALS_ALLOWED:
            raise PositionError("the talon is re-dealt at most twice")
        return state

    # ---- helpers -----------------------------------------------------------------------
    def _seed(self) -> int:
        return self.deal if self.deal is not None else 0

    @staticmethod
    def filled(state: State) -> list[list[bool]]:
        p = state.piles
        return [[bool(p[pile_at(r, c)]) for c in range(SIZE)] for r in range(SIZE)]

    def available(self, state: State) -> frozenset[int]:
        """The carpet piles whose card is available now (Rule II, under CP-2's reading)."""
        return self.remembered(state, self._available)

    def _available(self, state: State) -> frozenset[int]:
        return frozenset(pile_at(r, c)
                         for r, c in free_places(self.filled(state), self.options.lane))

    def takes(self, state: State, f: int, card: Card) -> bool:
        return card.suit is foundation_suit(f) and card.rank == next_rank(f, state.piles[f])

    def talon_takes(self, state: State, card: Card) -> bool:
        """Whether ``card`` may be placed on the talon's top (Rule IV, CP-3)."""
        talon = state.piles[TALON_PILE]
        if not talon or not in_sequence(talon[-1], card):
            return False
        if self.options.runs is Runs.KEPT:
            way = run_direction(talon)
            return way == 0 or card.rank - talon[-1].rank == way
        return True

    def redeals(self, state: State) -> int:
        return state.vars[0]

    # ---- rules -------------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        p = state.piles
        for i in sorted(self.available(state)):
            card = p[i][-1]
            for f in FOUNDATION_PILES:
                if self.takes(state, f, card):
                    yield Move.step(PILES[i].id, PILES[f].id)
            if self.talon_takes(state, card):
                yield Move.step(PILES[i].id, "talon")
        if p[TALON_PILE]:
            card = p[TALON_PILE][-1]
            for f in FOUNDATION_PILES:
                if self.takes(state, f, card):
                    yield Move.step("talon", PILES[f].id)
        yield Move(action="deal")
        yield Move(action="redeal")

    def legal_in(self, state: State) -> list[Move]:
        """Exactly the legal moves: the candidates are legal but for the two actions (a test
        compares them with :meth:`refusal`)."""
        return [m for m in self.candidate_moves(state)
                if not m.action or self.refuse_action(state, m.action) is None]

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        p = state.piles
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        # where the card comes from
        if si in FOUNDATION_PILES:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if si == STOCK:
            return IllegalMove(DEAL, "Cards come from the pack one at a time, dealt on to the "
                               "talon (Deal the next card).")
        if si == TALON_PILE and not step.top:
            return IllegalMove(DEAL, "Only the uppermost card of the talon can be used.")
        if di in CARPET_PILES:
            return IllegalMove(CARPET, "Nothing is placed on the carpet: its cards only leave "
                               "it, and a place once emptied stays empty.")
        if di == STOCK:
            return IllegalMove(DEAL, "Nothing goes back into the pack; the talon is re-dealt "
                               "only when the pack is out.")
        if si in CARPET_PILES and si not in self.available(state):
            r, c = place_of(si)
            where = "top and bottom" if upright(r, c) else "left and right ends"
            return IllegalMove(NARROW_ENDS, f"The {card.name} is not available: its narrow "
                               f"ends ({where}) are both blocked{self._blocked_how()}.")
        # where it goes
        if di in FOUNDATION_PILES:
            return self.foundation_refusal(state, di, card)
        if di == TALON_PILE:
            if si == TALON_PILE:
                return IllegalMove(BOARD, "The card is already there.")
            return self.talon_refusal(state, card)
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def _blocked_how(self) -> str:
        if self.options.lane is Lane.STRAIGHT:
            return ": no clear lane runs from either to the carpet’s edge"
        if self.options.lane is Lane.OPEN:
            return ": no lane of spaces leads from either to the carpet’s edge"
        return " by other cards"

    def foundation_refusal(self, state: State, f: int, card: Card) -> IllegalMove | None:
        if self.takes(state, f, card):
            return None
        suit = foundation_suit(f)
        label = PILES[f].label
        if card.suit is not suit:
            return IllegalMove(RULE_1, f"The foundations follow suit: {label} takes only "
                               f"{suit.noun}.")
        nxt = next_rank(f, state.piles[f])
        if nxt is None:
            return IllegalMove(FOUNDATIONS, f"{label[:1].upper()}{label[1:]} is finished.")
        way = "ascends" if f in ACE_PILES else "descends"
        return IllegalMove(FOUNDATIONS, f"{label[:1].upper()}{label[1:]} {way} in sequence: "
                           f"it needs the {Card(nxt, suit).name} next.")

    def talon_refusal(self, state: State, card: Card) -> IllegalMove | None:
        if self.talon_takes(state, card):
            return None
        talon = state.piles[TALON_PILE]
        if not talon:
            return IllegalMove(RULE_4, "Cards of the carpet are placed on the uppermost card "
                               "of the talon: the talon is not yet formed.")
        top = talon[-1]
        if card.suit is not top.suit:
            return IllegalMove(RULE_4, f"Sequences on the talon follow suit: the {card.name} "
                               f"cannot go on the {top.name}.")
        if not in_sequence(top, card):
            return IllegalMove(RULE_4, f"Cards go on the talon in sequence: only "
                               f"{_either(top)} goes on the {top.name}.")
        run = run_direction(talon)
        way = "an ascending" if run > 0 else "a descending"
        if not ACE <= top.rank + run <= KING:
            return IllegalMove(RULE_4, f"The talon’s top cards form {way} sequence, which goes "
                               f"on in the same direction (CP-3): it has reached its end "
                               f"at the {top.name}.")
        want = Card(top.rank + run, top.suit)
        return IllegalMove(RULE_4, f"The talon’s top cards form {way} sequence, which goes "
                           f"on in the same direction (CP-3): only the {want.name} "
                           "continues it.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        p = state.piles
        if action == "deal":
            if not p[STOCK]:
                if not p[TALON_PILE]:
                    return IllegalMove(DEAL, "The pack is out and the talon is empty: there "
                                       "is nothing left to deal.")
                if self.redeals(state) < REDEALS_ALLOWED:
                    return IllegalMove(DEAL, "The pack is out: the talon may now be taken up, "
                                       "shuffled and re-dealt.")
                return IllegalMove(TWO_REDEALS, "The pack is out, and no re-deal is left.")
            return None
        if action == "redeal":
            if p[STOCK]:
                return IllegalMove(REDEAL, "The talon is re-dealt only when the pack has been "
                                   "dealt out.")
            if self.redeals(state) >= REDEALS_ALLOWED:
                return IllegalMove(TWO_REDEALS, "There are two re-deals, and both have been "
                                   "made.")
            if not p[TALON_PILE]:
                return IllegalMove(REDEAL, "The talon is empty: there is nothing to re-deal.")
            return None
        return IllegalMove(BOARD, f"The Carpet has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        redeals = state.vars[0]
        if move.action == "deal":
            piles[TALON_PILE] = piles[TALON_PILE] + piles[STOCK][-1:]
            piles[STOCK] = piles[STOCK][:-1]
        elif move.action == "redeal":
            redeals += 1
            cards = sorted(piles[TALON_PILE])
            piles[STOCK] = tuple(shuffled(cards, self._seed(), stream=redeals))
            piles[TALON_PILE] = ()
        else:
            step = self.resolve_step(state, move)
            assert isinstance(step, Step), "apply() is given legal moves only"
            piles[step.src] = piles[step.src][:-1]
            piles[step.dst] = piles[step.dst] + (step.card,)
        return State(tuple(piles), (redeals,))

    def pack_move(self, state: State, legal: list[Move]) -> Move | None:
        """A click on the pack deals the next card, or re-deals the talon once the pack is
        out (refused, with the reason, when neither may be done)."""
        for m in legal:
            if m.action in ("deal", "redeal"):
                return m
        return Move(action="redeal" if not state.piles[STOCK] else "deal")

    # ---- the end -----------------------------------------------------------------------
    def played(self, state: State) -> int:
        return sum(len(state.piles[f]) for f in FOUNDATION_PILES)

    def outcome_of(self, state: State) -> Outcome | None:
        if self.played(state) == TOTAL:
            return Outcome.WON
        # Every kind of move takes a card out of the carpet, onto a foundation, or out of the
        # pack, or uses up a re-deal, so play always comes to an end; it is lost when no
        # move at all is left (CP-9). Earlier dead ends are not called.
        if any(True for _ in self.legal_in(state)):
            return None
        return Outcome.LOST

    def solver_outcome(self, state: State) -> Outcome | None:
        return Outcome.WON if self.played(state) == TOTAL else None

    # ---- board -------------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = self.played(state)
        if out is Outcome.WON:
            return "Won: all 104 cards are on the foundations."
        p = state.piles
        left = sum(1 for i in CARPET_PILES if p[i])
        if out is Outcome.LOST:
            return (f"No move is left: the patience has failed with {played} of 104 cards "
                    f"played and {plural(left, 'card')} still on the carpet.")
        deal = ("First", "Second", "Third")[self.redeals(state)]
        parts = [f"{deal} deal",
                 f"pack: {plural(len(p[STOCK]), 'card')}" if p[STOCK] else "the pack is out",
                 f"talon: {plural(len(p[TALON_PILE]), 'card')}",
                 f"carpet: {plural(left, 'card')}",
                 f"{played} of 104 on the foundations"]
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        p = state.piles
        if move.action == "deal" and p[STOCK]:
            return f"The {p[STOCK][-1].name} is dealt on to the talon."
        if move.action == "redeal":
            return "The talon is taken up, shuffled and dealt again."
        if move.steps:
            step = self.resolve_step(state, move)
            if isinstance(step, Step):
                name, src, dst = step.card.name, PILES[step.src].label, PILES[step.dst].label
                if step.dst in FOUNDATION_PILES:
                    return f"The {name} is played from {src} to {dst}."
                if step.dst == TALON_PILE:
                    return f"The {name} is placed from {src} on the talon."
        return super().describe(state, move)


def _either(top: Card) -> str:
    """The cards that follow ``top`` in sequence and suit, in words."""
    names = [RANK_NAMES[r] for r in (top.rank - 1, top.rank + 1) if ACE <= r <= KING]
    return f"the {' or the '.join(names)} of {top.suit.noun}"

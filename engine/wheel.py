"""The Wheel (two packs), by the book: 1914 printing, plate p. 94, text pp. 95-96.

Piles: the eight aces, withdrawn before the deal and laid in a cross, where they stay; the
circle, twenty-four spaces round the cross, one for each packet; the cushion, twelve places in
two rows of six, each a packet of cards dealt one on another, of which only the uppermost is
available (Rule V); the pack.

A move makes a combination: three available minor cards of the cushion, of three different
values, whose pips make eighteen (Rules II and IV), go together with an available court card of
the cushion, which crowns them, to the next empty space of the circle (WH-1). Without a court
card no combination can be made (Rule III). While the first twelve cards are the cushion, the
spaces left are refilled from the pack at once (Rule I); afterwards they are not. The next
twelve cards are dealt, one on each place, when no combination can be made (WH-6's default).
There is no re-deal. The game is won when the twenty-four packets are made. See the chapter
page for the text each rule id points at, and its editorial notes (``note-wh-N``) for the
readings behind the options.

Moves: ``c0-w0+c4-w0+c9-w0+c2-w0`` (the three minor cards in the order of their places, then
the court card, all to the circle's next empty space); a court card lying under one of the three
(WH-3's other reading) is written by its index in its place (``c4:1``). ``deal``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from .cards import ACE, KNAVE, SUITS, Card, pack
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
    option,
)
from .deal import shuffled
from .rules import plural

SLUG = "the-wheel"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # vacancies refilled after the first deal only
RULE_II = _rule("rule-2")             # no two cards of the same value in a combination
RULE_III = _rule("rule-3")            # no removal without a court card to crown them
RULE_IV = _rule("rule-4")             # court cards excluded from the sums; they crown
RULE_V = _rule("rule-5")              # only the uppermost cards available
CROSS = _rule("cross")                # the eight aces withdrawn and laid in a cross
CUSHION = _rule("cushion")            # twelve cards in two rows: the cushion
OBJECT = _rule("object")              # combinations of the sum of eighteen
THREE = _rule("three")                # three cards, no two of similar value
EXAMPLES = _rule("examples")          # 2, 7, 9; 3, 5, 10; 2, 6, 10
PACKET = _rule("packet")              # taken up together, crowned, placed in the circle
NO_COURT = _rule("no-court")          # no court card, no combination
REFILL = _rule("refill")              # the spaces refilled from the pack in hand
DEAL = _rule("deal")                  # no more combinations: twelve more, covering the cushion
EMPTY_SPACES = _rule("empty-spaces")  # later deals fall on empty spaces too
CONTINUE = _rule("continue")          # fresh rows; no combination until the deal is complete
SUCCESS = _rule("success")            # the cross in a circle of twenty-four court cards
NO_REDEAL = _rule("no-redeal")        # there is no re-deal
BOARD = _rule("board")                # the board itself (notation errors)

PLACES = 12                           # the cushion
SPACES = 24                           # the circle
ACES = 8
TARGET = 18
TOTAL = 96                            # the cards in play: two packs without their aces
COMBINATIONS: tuple[tuple[int, int, int], ...] = tuple(
    c for c in combinations(range(2, 11), 3) if sum(c) == TARGET)


def is_court(card: Card) -> bool:
    return card.rank >= KNAVE


@dataclass(frozen=True, slots=True)
class WheelOptions:
    crown_released: bool = option(
        False, note="note-wh-3", label="A court card lying directly beneath one of the three",
        labels={False: "cannot crown them: the crown must be available first",
                True: "may crown them, released as they are taken up"})
    deal_early: bool = option(
        False, note="note-wh-6", label="The next twelve cards",
        labels={False: "are dealt only when no combination can be made",
                True: "may be dealt whenever the player chooses"})


# ---------------------------------------------------------------------------- the layout
# Positions are the top-left corner of a card's upright box, in card slots (a slot is 1 wide
# and 1.36 slot-widths high; a card 0.9 by 1.26); a rotated card turns about its centre. As
# in the plate: the circle of twenty-four spaces, each card's long side pointing at the
# centre; inside it the cross of aces, two upright above and below an empty middle, two
# sideways on each side; below the circle the cushion in two rows of six, the pack beside it.

_ROW = 1.36
_CX, _CY = 5.1, 5.1          # the circle's centre, in slot widths
_R = 4.35                    # the radius of the circle's card centres
_CUSHION_Y = 7.55            # the cushion's first row (grid rows)
_CUSHION_GAP = 2.2           # between the cushion's two rows (grid rows)
_FAN = 1.05                  # how far a place of the cushion may spread (card heights)


def _box(cx: float, cy: float) -> tuple[float, float]:
    """The upright box's corner (x, y in slots) of a card centred on (cx, cy) slot widths."""
    return (round(cx - 0.5, 3), round((cy - 0.63) / _ROW, 3))


_CROSS_PLACES: tuple[tuple[str, float, float, int], ...] = (
    ("upper arm, outer ace", 0.0, -2.75, 0),
    ("upper arm, inner ace", 0.0, -1.4, 0),
    ("left arm, outer ace", -2.7, 0.0, 90),
    ("left arm, inner ace", -1.3, 0.0, 90),
    ("right arm, inner ace", 1.3, 0.0, 90),
    ("right arm, outer ace", 2.7, 0.0, 90),
    ("lower arm, inner ace", 0.0, 1.4, 0),
    ("lower arm, outer ace", 0.0, 2.75, 0),
)


def _circle_place(j: int) -> tuple[float, float, int]:
    """Space ``j`` of the circle, clockwise from the top (the first just right of it, as in
    the plate, whose top two cards stand either side of the middle): its box and rotation."""
    degrees = 360 * (j + 0.5) / SPACES
    angle = math.radians(degrees)
    x, y = _box(_CX + _R * math.sin(angle), _CY - _R * math.cos(angle))
    rot = round(degrees) % 180        # the outline is the same either way up
    return x, y, rot if rot <= 90 else rot - 180


def _circle(j: int) -> PileSpec:
    x, y, rot = _circle_place(j)
    return PileSpec(f"w{j}", f"space {j + 1} of the circle", Role.FOUNDATION, x, y,
                    rotate=rot, mark=f"{j + 1}")


def _cushion(i: int) -> PileSpec:
    row, col = divmod(i, 6)
    return PileSpec(f"c{i}", f"place {i + 1} of the cushion ({'upper' if row == 0 else 'lower'}"
                    f" row)", Role.TABLEAU, 1.6 + 1.1 * col, _CUSHION_Y + _CUSHION_GAP * row,
                    Fan.DOWN, fan_limit=_FAN, mark=f"{i + 1}")


PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"a{k}", f"the {label}", Role.FIGURE, *_box(_CX + dx, _CY + dy),
                   rotate=rot)
          for k, (label, dx, dy, rot) in enumerate(_CROSS_PLACES))
    + tuple(_circle(j) for j in range(SPACES))
    + tuple(_cushion(i) for i in range(PLACES))
    + (PileSpec("stock", "the pack", Role.STOCK, 8.6, _CUSHION_Y + _CUSHION_GAP / 2),)
)

CROSS_PILES = range(0, ACES)
CIRCLE = range(ACES, ACES + SPACES)
CUSHION_PILES = range(CIRCLE.stop, CIRCLE.stop + PLACES)
STOCK = CUSHION_PILES.stop

#: The number of deals of twelve made so far (1 once the cushion is first laid).
VARS = ("deals",)


def _narrow_layout() -> Layout:
    """For a phone: the circle drawn as a ring of seven spaces across the top and the bottom
    and five down each side, the cross upright inside it, the cushion and the pack below."""
    at: dict[str, tuple[float, float, int]] = {}
    ring: list[tuple[float, float]] = []
    ring += [(3.0 + c, 0.0) for c in range(4)]              # the top, from its middle
    ring += [(6.0, 1.0 + r) for r in range(5)]              # the right side, downwards
    ring += [(6.0 - c, 6.0) for c in range(7)]              # the bottom, right to left
    ring += [(0.0, 5.0 - r) for r in range(5)]              # the left side, upwards
    ring += [(float(c), 0.0) for c in range(3)]             # the top, back to its middle
    for j, (x, y) in enumerate(ring):
        at[f"w{j}"] = (x, y, 0)
    for k, (dx, dy) in enumerate(((0, -2), (0, -1), (-2, 0), (-1, 0), (1, 0), (2, 0),
                                  (0, 1), (0, 2))):
        at[f"a{k}"] = (3.0 + dx, 3.0 + dy, 0)
    for i in range(PLACES):
        row, col = divmod(i, 6)
        at[f"c{i}"] = (float(col), 7.3 + 2.1 * row, 0)
    at["stock"] = (6.0, 8.35, 0)
    return Layout("narrow", (7.0, 7.3 + 2.1 + 2.3), at, max_width=560)


def _a(card: Card) -> str:
    return f"the {card.name}"


class TheWheel(Game):
    slug = SLUG
    title = "The Wheel"
    packs = 2
    Options = WheelOptions
    PILES = PILES
    VARS = VARS
    GRID = (2 * _CX, _CUSHION_Y + _CUSHION_GAP + 2.3)
    LAYOUTS = (_narrow_layout(),)
    VIEW_SINGLE_STEPS = True
    FIGURES = (
        Figure("tableau", "The Wheel after the deal, in modern cards.",
               "The tableau of the Wheel just after the deal, drawn in modern cards: eight "
               "aces in a cross at the centre, two upright above and two below an empty "
               "middle and two lying sideways on each side; round them a circle of "
               "twenty-four empty spaces for the packets, each pointing at the centre; below "
               "the circle the cushion, twelve cards face up in two rows of six. The pack is "
               "not shown.",
               piles=tuple(p.id for p in PILES[:STOCK])),
    )
    DIAGRAM_DEAL = 5
    ACTIONS = (
        ActionSpec("deal", "Deal twelve more", "d", DEAL),
    )
    LEDGER = {
        RULE_I: "While the first twelve cards are the cushion, each place a combination "
                "empties is refilled from the pack at once; from the second deal onwards a "
                "place emptied stays empty.",
        RULE_II: "Three cards of which two have the same value are refused as a combination.",
        RULE_III: "Three cards that make eighteen are refused unless an available court card "
                  "of the cushion goes with them to crown the packet; they stay in their "
                  "places meanwhile.",
        RULE_IV: "A court card never counts in the sum: a move with two court cards is "
                 "refused, and the one court card of a combination goes on top of its packet.",
        RULE_V: "Only the uppermost card of each place may join a combination; a card "
                "beneath is refused until the cards over it are gone. A court card directly "
                "beneath one of the three may crown them only under WH-3’s other reading.",
        CROSS: "The eight aces are taken out before the shuffle and laid in a cross, where "
               "they stay; nothing moves to or from them.",
        CUSHION: "The deal lays twelve cards face up in two rows of six, the cushion.",
        OBJECT: "A combination is refused unless its three cards’ pips make eighteen.",
        THREE: "A combination is exactly three minor cards, of three different values, and a "
               "court card to crown them; any other number of cards is refused.",
        EXAMPLES: "The combinations the book names (2, 7, 9; 3, 5, 10; 2, 6, 10) are "
                  "accepted, with any suits.",
        PACKET: "The three cards and the court card go together, the court card on top, face "
                "up, to the circle’s next empty space (clockwise from the top, WH-1); a packet "
                "brought to another space is refused, and a packet never leaves the circle.",
        NO_COURT: "With no available court card on the cushion, no combination is legal.",
        REFILL: "In the first deal the places emptied are refilled at once from the pack, "
                "the upper row first, each from the left, as far as the pack goes.",
        DEAL: "Deal twelve more lays one card from the pack on each place, empty or not; by "
              "default it is refused while a combination can be made (WH-6), under the other "
              "reading it may be played at any time.",
        EMPTY_SPACES: "A deal after the first puts its cards on empty places as on full ones, "
                      "and the places emptied afterwards are not refilled.",
        CONTINUE: "Each deal of twelve is one move, so no combination is made while a deal "
                  "is incomplete; the last deal lays whatever cards are left.",
        SUCCESS: "The game is won when the twenty-four packets, each crowned by a court card, "
                 "stand in the circle round the cross.",
        NO_REDEAL: "Once the pack is out no deal is possible: a re-deal is refused, and the "
                   "game is lost when no combination can then be made.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for k in CROSS_PILES:
            piles[k] = (Card(ACE, SUITS[k % 4]),)
        stock = list(shuffled([c for c in pack(2) if c.rank != ACE], deal))
        for i in CUSHION_PILES:
            piles[i] = (stock.pop(),)
        piles[STOCK] = tuple(stock)
        return State(tuple(piles), (1,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        for k in CROSS_PILES:
            if len(p[k]) != 1 or p[k][0].rank != ACE:
                raise PositionError(f"{PILES[k].label} must hold one ace")
        for j in CIRCLE:
            packet = p[j]
            if packet and not _is_packet(packet):
                raise PositionError(f"{PILES[j].label} does not hold a crowned packet")
        filled = [bool(p[j]) for j in CIRCLE]
        if filled != sorted(filled, reverse=True):
            raise PositionError("the circle is filled in turn, from its first space")
        for i in CUSHION_PILES:
            if any(c.rank == ACE for c in p[i]):
                raise PositionError("the aces are all in the cross")
        if state.vars[0] < 1:
            raise PositionError("the cushion has been dealt at least once")
        if state.vars[0] == 1 and p[STOCK] and any(not p[i] or len(p[i]) > 1
                                                    for i in CUSHION_PILES):
            raise PositionError("in the first deal each place of the cushion holds one card")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def next_space(self, state: State) -> int | None:
        return next((j for j in CIRCLE if not state.piles[j]), None)

    def combinations_in(self, state: State) -> Iterator[tuple[tuple[int, int, int], int, int]]:
        """Every combination that can be made now: the three places of its minor cards (in
        order), the place of its court card and the court card's index in that place."""
        p = state.piles
        tops = [(i, p[i][-1]) for i in CUSHION_PILES if p[i]]
        minor = [(i, c) for i, c in tops if not is_court(c)]
        crowns = [(i, len(p[i]) - 1) for i, c in tops if is_court(c)]
        for trio in combinations(minor, 3):
            values = {c.rank for _, c in trio}
            if len(values) != 3 or sum(values) != TARGET:
                continue
            places = (trio[0][0], trio[1][0], trio[2][0])
            own = list(crowns)
            if self.options.crown_released:
                for i in places:
                    if len(p[i]) > 1 and is_court(p[i][-2]):
                        own.append((i, len(p[i]) - 2))
            for ci, ck in sorted(own):
                yield places, ci, ck

    def first_combination(self, state: State) -> tuple[tuple[int, int, int], int, int] | None:
        return next(self.combinations_in(state), None)

    def _move(self, state: State, places: tuple[int, int, int], ci: int, ck: int) -> Move:
        space = self.next_space(state)
        assert space is not None
        dst = PILES[space].id
        court = PILES[ci].id if ck == len(state.piles[ci]) - 1 else f"{PILES[ci].id}:{ck}"
        return Move(steps=tuple((PILES[i].id, dst) for i in places) + ((court, dst),))

    # ---- rules -----------------------------------------------------------------------
    def legal_in(self, state: State) -> list[Move]:
        """Exactly the legal moves, made directly from the rules (the shared tests compare
        them with :meth:`refusal`)."""
        out: list[Move] = []
        if self.next_space(state) is not None:
            out = [self._move(state, places, ci, ck)
                   for places, ci, ck in self.combinations_in(state)]
        if state.piles[STOCK] and (self.options.deal_early or not out):
            out.append(Move(action="deal"))
        return out

    def candidate_moves(self, state: State) -> Iterator[Move]:
        yield from self.legal_in(state)

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "redeal":
            return IllegalMove(NO_REDEAL, "There is no re-deal in the Wheel.")
        if action != "deal":
            return IllegalMove(BOARD, f"The Wheel has no action {action!r}.")
        if not state.piles[STOCK]:
            return IllegalMove(NO_REDEAL, "The pack is exhausted, and there is no re-deal.")
        if not self.options.deal_early:
            found = self.first_combination(state)
            if found is not None and self.next_space(state) is not None:
                places, ci, ck = found
                names = ", ".join(_a(state.piles[i][-1]) for i in places)
                return IllegalMove(DEAL, f"The next twelve cards are dealt when no more "
                                   f"combinations can be made (WH-6): {names} make eighteen, "
                                   f"and {_a(state.piles[ci][ck])} can crown them.")
        return None

    def refusal(self, state: State, move: Move) -> IllegalMove | None:
        if move.action:
            return self.refuse_action(state, move.action)
        p = state.piles
        refs: list[tuple[int, int]] = []
        dsts: set[str] = set()
        for src, dst in move.steps:
            name, _, k = src.partition(":")
            si, di = self._index.get(name), self._index.get(dst)
            if si is None or di is None:
                bad = name if si is None else dst
                return IllegalMove(BOARD, f"There is no pile called {bad!r}.")
            pile = p[si]
            j = int(k) if k else len(pile) - 1
            if not 0 <= j < len(pile):
                return IllegalMove(BOARD, f"There is no card there ({PILES[si].label}).")
            if k and j == len(pile) - 1:
                return IllegalMove(BOARD, f"The top card is written {name}, not {src}.")
            if si in CROSS_PILES:
                return IllegalMove(CROSS, "The aces of the cross stay where they are.")
            if si in CIRCLE:
                return IllegalMove(PACKET, "A packet placed in the circle stays there.")
            if si == STOCK:
                return IllegalMove(REFILL, "Cards come from the pack only to refill the "
                                   "cushion in the first deal, or by dealing twelve more.")
            if di not in CIRCLE:
                return IllegalMove(PACKET, "Cards leave the cushion only as a combination, "
                                   "crowned, for a space of the circle.")
            refs.append((si, j))
            dsts.add(dst)
        if len(set(refs)) != len(refs):
            return IllegalMove(BOARD, "The same card is named twice.")
        if len(dsts) != 1:
            return IllegalMove(PACKET, "The cards of a combination are taken up together and "
                               "placed as one packet on one space of the circle.")
        space = self.next_space(state)
        di = self._index[dsts.pop()]
        if p[di]:
            return IllegalMove(PACKET, f"{PILES[di].label.capitalize()} already holds a "
                               "packet.")
        assert space is not None
        if di != space:
            return IllegalMove(PACKET, f"The packets are laid in the circle in turn, "
                               f"clockwise from the top (WH-1): this one goes on "
                               f"{PILES[space].label}.")
        cards = [p[si][j] for si, j in refs]
        courts = [n for n, c in enumerate(cards) if is_court(c)]
        minors = [n for n, c in enumerate(cards) if not is_court(c)]
        if len(courts) > 1:
            return IllegalMove(RULE_IV, "Court cards are excluded from the combinations: one "
                               "court card crowns each packet.")
        if len(minors) != 3:
            if not courts:
                return IllegalMove(NO_COURT, "A combination is three minor cards crowned by a "
                                   "court card from the cushion: without the court card it "
                                   "cannot be made.")
            return IllegalMove(THREE, f"Each combination must be composed of three cards, "
                               f"not {plural(len(minors), 'card')}, and a court card to "
                               "crown them.")
        if not courts:
            return IllegalMove(RULE_III, "Three cards cannot be removed unless a court card "
                               "of the cushion crowns them: they remain in their places "
                               "until one appears.")
        for n in minors:
            si, j = refs[n]
            if j != len(p[si]) - 1:
                return IllegalMove(RULE_V, f"Only the uppermost cards of the cushion are "
                                   f"available: {_a(cards[n])} lies beneath "
                                   f"{_a(p[si][-1])}, and the three cards are taken up "
                                   "together (WH-4).")
        values = [cards[n].rank for n in minors]
        if len(set(values)) != 3:
            return IllegalMove(RULE_II, "No two cards of the same value may be used in the "
                               "same combination.")
        if sum(values) != TARGET:
            return IllegalMove(OBJECT, f"A combination makes eighteen: these cards make "
                               f"{sum(values)}.")
        ci, ck = refs[courts[0]]
        if ck != len(p[ci]) - 1:
            above = {refs[n][0] for n in minors}
            if not (self.options.crown_released and ck == len(p[ci]) - 2 and ci in above):
                return IllegalMove(RULE_V, f"Only the uppermost cards of the cushion are "
                                   f"available: {_a(cards[courts[0]])} lies beneath "
                                   f"{_a(p[ci][-1])}, and cannot crown this combination"
                                   f"{'' if self.options.crown_released else ' (WH-3)'}.")
        return None

    def apply(self, state: State, move: Move) -> State:
        if move.action == "deal":
            piles = list(state.piles)
            stock = piles[STOCK]
            for i in CUSHION_PILES:
                if not stock:
                    break
                piles[i] = piles[i] + stock[-1:]
                stock = stock[:-1]
            piles[STOCK] = stock
            return State(tuple(piles), (state.vars[0] + 1,))
        refs: list[tuple[int, int]] = []
        for src, _dst in move.steps:
            name, _, k = src.partition(":")
            si = self._index[name]
            refs.append((si, int(k) if k else len(state.piles[si]) - 1))
        di = self._index[move.steps[0][1]]
        cards = [state.piles[si][j] for si, j in refs]
        minors = sorted((r, c) for r, c in zip(refs, cards, strict=True) if not is_court(c))
        court = next(c for c in cards if is_court(c))
        piles = list(state.piles)
        for (si, j), _c in sorted(zip(refs, cards, strict=True), key=lambda x: -x[0][1]):
            piles[si] = piles[si][:j] + piles[si][j + 1:]
        piles[di] = tuple(c for _r, c in minors) + (court,)
        if state.vars[0] == 1:
            # Rule I: in the first deal every place emptied is refilled at once from the pack.
            stock = piles[STOCK]
            for i in CUSHION_PILES:
                if not piles[i] and stock:
                    piles[i] = stock[-1:]
                    stock = stock[:-1]
            piles[STOCK] = stock
        return State(tuple(piles), state.vars)

    def pack_move(self, state: State, legal: list[Move]) -> Move | None:
        """A click on the pack deals twelve more (refused, with the reason, when it may
        not)."""
        return Move(action="deal")

    # ---- the end ---------------------------------------------------------------------
    def made(self, state: State) -> int:
        return sum(1 for j in CIRCLE if state.piles[j])

    def outcome_of(self, state: State) -> Outcome | None:
        if self.made(state) == SPACES:
            return Outcome.WON
        if state.piles[STOCK] or self.first_combination(state) is not None:
            return None
        # WH-7: the pack is out and there is no re-deal; no combination can be made, and
        # nothing else moves, so no card will move again.
        return Outcome.LOST

    # ---- board -----------------------------------------------------------------------
    def card_faces(self, state: State, pile: int) -> list[dict[str, Any]]:
        """Every card of the cushion was seen face up before a deal covered it (WH-4): the
        places show all their cards; the circle's packets lie face upward."""
        if pile == STOCK:
            return [{"c": None} for _ in state.piles[pile]]
        return [{"c": str(c)} for c in state.piles[pile]]

    def status_line(self, state: State, out: Outcome | None) -> str:
        made = self.made(state)
        if out is Outcome.WON:
            return "Won: twenty-four crowned packets encircle the cross of aces."
        if out is Outcome.LOST:
            return (f"The pack is exhausted and no combination can be made: the patience has "
                    f"failed with {plural(made, 'packet')} of 24 in the circle.")
        deals = state.vars[0]
        parts = [f"Pack: {plural(len(state.piles[STOCK]), 'card')}",
                 "first deal: spaces refilled" if deals == 1 else
                 f"deal {deals}: spaces not refilled",
                 f"{made} of 24 packets made"]
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        p = state.piles
        if move.action == "deal":
            n = min(PLACES, len(p[STOCK]))
            return f"{plural(n, 'card').capitalize()} dealt on the cushion."
        if self.refusal(state, move) is None:
            cards = []
            for src, _dst in move.steps:
                name, _, k = src.partition(":")
                si = self._index[name]
                cards.append(p[si][int(k)] if k else p[si][-1])
            minors = [c for c in cards if not is_court(c)]
            court = next(c for c in cards if is_court(c))
            di = self._index[move.steps[0][1]]
            return (f"The {minors[0].name}, the {minors[1].name} and the {minors[2].name}, "
                    f"crowned by the {court.name}, go to {PILES[di].label}.")
        return super().describe(state, move)


def _is_packet(packet: tuple[Card, ...]) -> bool:
    """Whether a circle space holds a packet the rules make: three minor cards of different
    values making eighteen, crowned by a court card."""
    if len(packet) != 4 or not is_court(packet[-1]):
        return False
    values = {c.rank for c in packet[:3]}
    return (len(values) == 3 and sum(values) == TARGET
            and not any(is_court(c) or c.rank == ACE for c in packet[:3]))

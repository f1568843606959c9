"""The Zodiac (two packs), by the book: 1914 printing, p. 55 (plate p. 54).

Piles: the pack, the card turned up from it, the talon; the Equator of eight single cards;
the Zodiac, a ring of twenty-four packets; eight foundations (an ascending and a descending
pile per suit), formed only when every card has been placed.

The game has two phases. While the pack, the card turned up or the talon holds a card, cards
are placed: married onto the Zodiac packets (Rule I) from the Equator, the talon or the card
turned up, or put into empty Equator places from the talon or the card turned up; the talon
is turned over, unshuffled, as often as needed. Once every card lies in the Zodiac or the
Equator, the foundations are formed from the tops of the Zodiac packets and the Equator
cards. See the chapter page for the text each rule id points at, and its editorial notes
(``note-zo-N``) for the readings behind the options.
"""

from __future__ import annotations

import math
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
    Move,
    Outcome,
    PileSpec,
    Role,
    State,
    Step,
    option,
)
from .deal import shuffled
from .rules import SuitFoundations

SLUG = "the-zodiac"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")            # marriages: in the Zodiac, from Equator, talon or pack
RULE_II = _rule("rule-2")           # the foundations must follow suit
LAYOUT = _rule("layout")            # eight cards in the Equator, twenty-four in the Zodiac
END = _rule("end")                  # the foundations are not formed till the end of the game
FOUNDATIONS = _rule("foundations")  # four aces ascending, four kings descending
REFILL = _rule("refill")            # refill the spaces from the talon, or from the pack
DEAL = _rule("deal")                # deal in the usual way; unused cards form the talon
REDEAL = _rule("redeal")            # re-dealt as often as required
FAILED = _rule("failed")            # if this cannot be done, the patience has failed
PHASE_2 = _rule("phase-2")          # then form the foundations from the Zodiac and Equator
BOARD = _rule("board")              # the board itself (notation errors, empty places)

EQUATOR_PLACES = 8
ZODIAC_PLACES = 24
TOTAL = 104


class RefillSource(Enum):
    """ZO-4: where an empty Equator place may be refilled from."""

    EITHER = "either"            # the talon's top card or the card just turned up, at will
    TALON_FIRST = "talon-first"  # the talon's top; the card turned up only when no talon


@dataclass(frozen=True, slots=True)
class ZodiacOptions:
    refill_source: RefillSource = option(
        RefillSource.EITHER, note="note-zo-4", label="Refilling the Equator",
        labels={RefillSource.EITHER: "from the talon or the card turned up",
                RefillSource.TALON_FIRST: "from the talon; from the pack only when there is "
                                          "no talon"})
    late_marriages: bool = option(
        True, note="note-zo-8", label="Equator cards may still marry once all are placed",
        labels={True: "yes (Rule I has no time limit)",
                False: "no (only foundation plays at the end)"})


# ---------------------------------------------------------------------------- the layout
# Positions are in board slots: a slot is one card width plus a gap across, and one card
# height plus a gap down. The board's card is 0.9 slot wide and 1.26 slot-widths high; a
# row is 1.36 slot-widths high. The ring is laid out in slot-width units and converted.

_CW, _CH, _ROW = 0.9, 1.26, 1.36
_RING_R = 4.75                      # radius of the ring, to the cards' centres
_CX = _CY = _RING_R + _CH / 2 + 0.05  # centre of the ring


def _at(cx: float, cy: float) -> tuple[float, float]:
    """Pile position (x, y in slots) of a card centred on (cx, cy) in slot-width units."""
    return round(cx - 0.5, 3), round((cy - _CH / 2) / _ROW, 3)


def _ring_place(k: int) -> PileSpec:
    """Zodiac packet ``k``, clockwise from twelve o'clock, its long side pointing to the
    centre (turned so that no card is drawn upside down)."""
    theta = 360.0 * k / ZODIAC_PLACES
    x, y = _at(_CX + _RING_R * math.sin(math.radians(theta)),
               _CY - _RING_R * math.cos(math.radians(theta)))
    turn = theta if theta <= 90 else theta - 180 if theta < 270 else theta - 360
    return PileSpec(f"z{k}", f"Zodiac packet {k + 1}", Role.TABLEAU, x, y,
                    rotate=int(round(turn)))


def _equator_place(j: int) -> PileSpec:
    x, y = _at(_CX + (j - (EQUATOR_PLACES - 1) / 2) * _CW, _CY)
    return PileSpec(f"e{j}", f"Equator place {j + 1}", Role.RESERVE, x, y, capacity=1,
                    mark=f"Eq. {j + 1}")


def _foundation(j: int, ascending: bool) -> PileSpec:
    x, y = _at(_CX + (j - 1.5) * 1.05, _CY + (-1.12 if ascending else 1.12) * _ROW)
    kind, pid = ("ascending", f"a{j}") if ascending else ("descending", f"k{j}")
    return PileSpec(pid, f"{kind} {SUITS[j].noun} foundation", Role.FOUNDATION, x, y,
                    mark=f"{SUITS[j].symbol} {'A–K' if ascending else 'K–A'}")


_BOTTOM = round((2 * _CY) / _ROW + 0.12, 3)  # the row under the ring

PILES: tuple[PileSpec, ...] = (
    (PileSpec("stock", "the pack", Role.STOCK, 0.6, _BOTTOM),
     PileSpec("turned", "the card turned up", Role.TALON, 1.6, _BOTTOM, capacity=1,
              mark="turned up"),
     PileSpec("talon", "the talon", Role.TALON, 2.6, _BOTTOM))
    + tuple(_equator_place(j) for j in range(EQUATOR_PLACES))
    + tuple(_ring_place(k) for k in range(ZODIAC_PLACES))
    + tuple(_foundation(j, True) for j in range(4))
    + tuple(_foundation(j, False) for j in range(4))
)

STOCK, TURNED, TALON = 0, 1, 2
EQUATOR = range(3, 3 + EQUATOR_PLACES)
ZODIAC = range(EQUATOR.stop, EQUATOR.stop + ZODIAC_PLACES)
ASC = range(ZODIAC.stop, ZODIAC.stop + 4)
DESC = range(ASC.stop, ASC.stop + 4)
FOUNDATION_SET = SuitFoundations(ASC, DESC)
FOUNDATION_PILES = range(ASC.start, DESC.stop)
PLACING_PILES = (STOCK, TURNED, TALON)
SUIT_INDEX = {s: j for j, s in enumerate(SUITS)}
V_REDEALS, V_PLACED = 0, 1


def marries(card: Card, top: Card) -> bool:
    """Whether ``card`` marries ``top``: the same suit, one rank above or below (no turning
    the corner from king to ace)."""
    return card.suit is top.suit and abs(card.rank - top.rank) == 1


class TheZodiac(Game):
    slug = SLUG
    title = "The Zodiac"
    packs = 2
    Options = ZodiacOptions
    PILES = PILES
    VARS = ("redeals", "placed")
    GRID = (round(2 * _CX, 2), round(_BOTTOM + 1.0, 2))
    FIGURES = (
        Figure("tableau", "The Zodiac after the deal, in modern cards.",
               "The tableau of the Zodiac just after the deal, drawn in modern cards: the "
               "Equator, a horizontal row of eight cards edge to edge, in the centre; around "
               "it the Zodiac, a ring of twenty-four cards each turned so that its long side "
               "points to the centre; and between the Equator and the ring eight empty "
               "places for the foundations, the four ascending piles above the Equator and "
               "the four descending piles below it. The pack is not shown.",
               piles=tuple(p.id for p in PILES if p.id not in ("stock", "turned", "talon"))),
    )
    LEDGER = {
        RULE_I: "A card marries the top of a Zodiac packet when it is of the same suit and one "
                "rank above or below (no king on ace), up and down in the same packet; it may "
                "come from the Equator, the talon’s top or the card turned up; a Zodiac card "
                "never moves to another packet or to the Equator, and nothing is laid on an "
                "Equator card (ZO-1, ZO-2).",
        RULE_II: "A card goes to a foundation only of its own suit.",
        LAYOUT: "The deal lays eight cards in the Equator, left to right, then twenty-four "
                "in the Zodiac, clockwise from the top (ZO-10); the other 72 form the pack.",
        END: "No card goes to a foundation while a single card remains in the pack, turned "
             "up or in the talon (ZO-6).",
        FOUNDATIONS: "Each suit has an ascending pile begun by an ace and a descending pile "
                     "begun by a king, built one rank at a time; the second ace or king of "
                     "a suit can only end the other pile, and foundation cards never move "
                     "(ZO-7, ZO-9).",
        REFILL: "An empty Equator place may be filled, at any time or never, from the talon’s "
                "top or the card turned up (or, under the strict reading, from the card "
                "turned up only when there is no talon), never from another Equator place "
                "(ZO-3, ZO-4).",
        DEAL: "The pack is turned up one card at a time; the card not used goes on the "
              "talon when the next is turned, and nothing is put back on the pack or talon.",
        REDEAL: "Once the pack is dealt out, the talon is turned over unshuffled and dealt "
                "again, as often as the player likes, including after a round in which "
                "nothing was placed (ZO-5).",
        FAILED: "The game is lost, and the re-deal refused, when no card still to be "
                "placed and no Equator card marries the top of any Zodiac packet and more "
                "cards remain to place than there are empty Equator places (ZO-12).",
        PHASE_2: "Once every card is placed, the foundations are formed from the tops of the "
                 "Zodiac packets and the Equator cards; Equator cards may still marry into "
                 "the Zodiac unless the strict reading is chosen (ZO-8, ZO-11); the game is "
                 "lost when no card can go to a foundation (ZO-12).",
    }
    ACTIONS = (
        ActionSpec("deal", "Turn up a card", "d", DEAL),
        ActionSpec("redeal", "Re-deal the talon", "e", REDEAL),
    )

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        stock = tuple(shuffled(pack(2), deal))
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        # The Equator from left to right, then the Zodiac clockwise from the top (ZO-10).
        for i in list(EQUATOR) + list(ZODIAC):
            piles[i] = (stock[-1],)
            stock = stock[:-1]
        piles[STOCK] = stock
        return State(tuple(piles), (0, 0))

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def placing(state: State) -> bool:
        """Whether cards are still being placed (the first phase): some card is still in
        the pack, turned up, or in the talon."""
        p = state.piles
        return bool(p[STOCK] or p[TURNED] or p[TALON])

    @staticmethod
    def accepts(state: State, f: int, card: Card) -> bool:
        """Whether foundation pile ``f`` takes ``card`` next."""
        return FOUNDATION_SET.accepts(state, f, card)

    @staticmethod
    def to_place(state: State) -> tuple[Card, ...]:
        """The cards still to be placed: the pack, the card turned up and the talon."""
        p = state.piles
        return p[STOCK] + p[TURNED] + p[TALON]

    @staticmethod
    def marriage_possible(state: State) -> bool:
        """Whether some card still to be placed, or some Equator card, marries the top of a
        Zodiac packet. Every card still to be placed comes up, turned from the pack, in
        the current round or the next, so this is whether a marriage can ever be made
        without another being made first."""
        piles = state.piles
        tops = {(p[-1].suit, p[-1].rank) for i in ZODIAC if (p := piles[i])}
        cards = TheZodiac.to_place(state) + tuple(piles[i][-1] for i in EQUATOR if piles[i])
        return any((c.suit, c.rank + d) in tops for c in cards for d in (-1, 1))

    def placing_failed(self, state: State) -> bool:
        """ZO-5, ZO-12: the cards provably cannot all be placed. No marriage can be made,
        now or after any number of re-deals (see :meth:`marriage_possible`), so the tops
        of the Zodiac never change and no Equator place will ever be emptied again; the
        cards still to be placed can then only go into the empty Equator places, and there
        are more of them than places."""
        if not self.placing(state) or self.marriage_possible(state):
            return False
        empty = sum(1 for i in EQUATOR if not state.piles[i])
        return len(self.to_place(state)) > empty

    def foundation_play_possible(self, state: State) -> bool:
        """Once every card is placed: whether some Equator card or top of a Zodiac packet
        can go to a foundation now."""
        for i in list(EQUATOR) + list(ZODIAC):
            if state.piles[i]:
                card = state.piles[i][-1]
                j = SUIT_INDEX[card.suit]
                if self.accepts(state, ASC[j], card) or self.accepts(state, DESC[j], card):
                    return True
        return False

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        placing = self.placing(state)
        tops: dict[tuple[Any, int], list[int]] = {}
        for i in ZODIAC:
            if piles[i]:
                c = piles[i][-1]
                tops.setdefault((c.suit, c.rank), []).append(i)
        sources: list[int] = [i for i in EQUATOR if piles[i]]
        if placing:
            sources += [i for i in (TURNED, TALON) if piles[i]]
        else:
            sources += [i for i in ZODIAC if piles[i]]
        empty_equator = [i for i in EQUATOR if not piles[i]]
        for i in sources:
            card = piles[i][-1]
            sid = PILES[i].id
            if i not in ZODIAC:
                for r in (card.rank - 1, card.rank + 1):
                    for z in tops.get((card.suit, r), ()):
                        yield Move.step(sid, PILES[z].id)
            if i in (TURNED, TALON):
                for e in empty_equator:
                    yield Move.step(sid, PILES[e].id)
            if not placing:
                j = SUIT_INDEX[card.suit]
                for f in (ASC[j], DESC[j]):
                    if self.accepts(state, f, card):
                        yield Move.step(sid, PILES[f].id)
        if placing:
            yield Move(action="deal")
            yield Move(action="redeal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        if not step.top:
            return IllegalMove(BOARD, "Only the top card of a packet can be moved.")
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        placing = self.placing(state)
        if si == STOCK:
            return IllegalMove(DEAL, "The pack is dealt in the usual way, one card at a time: "
                               "turn up its next card first.")
        if si in FOUNDATION_PILES:
            return IllegalMove(FOUNDATIONS, "Cards on the foundations stay there.")
        if di in PLACING_PILES:
            return IllegalMove(DEAL, "Only the cards dealt from the pack and not used form "
                               "the talon; nothing is put back on the pack or the talon.")
        if di in FOUNDATION_PILES:
            if placing:
                return IllegalMove(END, "The foundations are not formed till the end of the "
                                   "game: every card must first be placed in the Zodiac or "
                                   "the Equator.")
            return self._refuse_foundation(state, di, card)
        if si in ZODIAC:
            if di in ZODIAC:
                return IllegalMove(RULE_I, "Cards in the Zodiac cannot marry each other.")
            return IllegalMove(RULE_I, "Equator cards may marry into the Zodiac, but not vice "
                               "versâ: a Zodiac card never goes to the Equator.")
        if di in EQUATOR:
            if state.piles[di]:
                if si in EQUATOR:
                    return IllegalMove(RULE_I, "Cards in the Equator cannot marry each other.")
                return IllegalMove(RULE_I, "Marriages are made in the Zodiac, not on the "
                                   "Equator.")
            if si in EQUATOR:
                return IllegalMove(REFILL, "Spaces in the Equator are refilled from the talon "
                                   "or the pack, not from another Equator place.")
            if not placing:  # cannot happen: the talon is then empty; kept for safety
                return IllegalMove(PHASE_2, "Every card is placed: spaces are no longer "
                                   "refilled.")
            if (si == TURNED and state.piles[TALON]
                    and self.options.refill_source is RefillSource.TALON_FIRST):
                return IllegalMove(REFILL, "Under this reading spaces are refilled from the "
                                   "talon, and from the pack only where there is no talon.")
            return None
        # di is a Zodiac packet: a marriage.
        if si in EQUATOR and not placing and not self.options.late_marriages:
            return IllegalMove(PHASE_2, "Every card is placed: under this reading only the "
                               "foundations are formed now, and marriages are over.")
        pile = state.piles[di]
        if not pile:
            return IllegalMove(RULE_I, "That Zodiac place is empty: there is no card to marry, "
                               "and emptied places are not refilled.")
        top = pile[-1]
        if not marries(card, top):
            return IllegalMove(RULE_I, f"The {card.name} cannot marry the {top.name}: a "
                               "marriage is a card of the same suit, one rank above or "
                               "below.")
        return None

    def _refuse_foundation(self, state: State, f: int, card: Card) -> IllegalMove | None:
        return FOUNDATION_SET.refusal(state, f, card, PILES[f], RULE_II, FOUNDATIONS,
                                      follow="The foundations must follow suit")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        piles = state.piles
        if action == "deal":
            if not self.placing(state):
                return IllegalMove(PHASE_2, "Every card is placed: there is nothing left to "
                                   "deal.")
            if not piles[STOCK]:
                return IllegalMove(DEAL, "The pack is used up: re-deal the talon.")
            return None
        if action == "redeal":
            if not self.placing(state):
                return IllegalMove(PHASE_2, "Every card is placed: there is nothing left to "
                                   "re-deal.")
            if piles[STOCK]:
                return IllegalMove(REDEAL, "The talon is re-dealt only when the whole pack "
                                   "has been dealt out.")
            if self.placing_failed(state):
                return IllegalMove(FAILED, "No card still to be placed, and no card of the "
                                   "Equator, can marry the top of any Zodiac packet, and "
                                   "there are more cards to place than empty places in the "
                                   "Equator: no re-deal can change that, and the patience "
                                   "has failed.")
            return None
        return IllegalMove(BOARD, f"The Zodiac has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        redeals, placed = state.vars
        if move.action == "deal":
            piles[TALON] = piles[TALON] + piles[TURNED]
            piles[TURNED] = piles[STOCK][-1:]
            piles[STOCK] = piles[STOCK][:-1]
        elif move.action == "redeal":
            # The talon is turned over, unshuffled, to become the pack again (ZO-5): the
            # card dealt first in the last round comes first again.
            talon = piles[TALON] + piles[TURNED]
            piles[STOCK] = talon[::-1]
            piles[TALON] = piles[TURNED] = ()
            redeals += 1
            placed = 0
        else:
            (src, dst), = move.steps
            si, di = self.pile_index(src), self.pile_index(dst)
            if self.placing(state):
                placed += 1
            card = piles[si][-1]
            piles[si] = piles[si][:-1]
            piles[di] = piles[di] + (card,)
        return State(tuple(piles), (redeals, placed))

    def outcome_of(self, state: State) -> Outcome | None:
        if sum(len(state.piles[f]) for f in FOUNDATION_PILES) == TOTAL:
            return Outcome.WON
        if self.placing(state):
            # While cards are placed, a round in which the player waits changes nothing, and
            # every placing is progress that cannot be undone; the game is lost only when
            # the cards provably cannot all be placed (ZO-12).
            return Outcome.LOST if self.placing_failed(state) else None
        # Once every card is placed, a late marriage (ZO-8) only covers a packet's top with
        # an Equator card: the cards free to go to a foundation never grow in number, so
        # the game is lost as soon as none of them can go (ZO-12).
        return None if self.foundation_play_possible(state) else Outcome.LOST

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = sum(len(state.piles[f]) for f in FOUNDATION_PILES)
        if out is Outcome.WON:
            return "Won: all 104 cards are on the foundations."
        if out is Outcome.LOST:
            if self.placing(state):
                left = len(self.to_place(state))
                empty = sum(1 for i in EQUATOR if not state.piles[i])
                return (f"No marriage can ever be made again, and the cards still to place "
                        f"({left}) outnumber the empty Equator places ({empty}): they cannot "
                        "all be placed, and the patience has failed.")
            return (f"No card can go to a foundation, now or later: the patience has failed "
                    f"with {played} cards on the foundations.")
        if not self.placing(state):
            return f"All the cards are placed · forming the foundations: {played} of 104"
        p = state.piles
        redeals, placed = state.vars
        left = len(self.to_place(state))
        parts = [f"Placing the cards: {left} still to place",
                 f"pack {len(p[STOCK])}", f"talon {len(p[TALON])}",
                 f"re-deals {redeals}", f"placed this round {placed}"]
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "deal":
            card = self.card_at(state, "stock")
            return f"The {card.name} is turned up." if card else "Deal."
        if move.action == "redeal":
            return "The talon is turned over and becomes the pack again."
        (src, dst), = move.steps
        card = self.card_at(state, src)
        di = self.pile_index(dst)
        name = card.name if card else "a card"
        if di in ZODIAC:
            return f"The {name} from {self.label(src)} marries into {self.label(dst)}."
        if di in EQUATOR:
            return f"The {name} from {self.label(src)} refills {self.label(dst)}."
        return f"The {name} from {self.label(src)} is played to the {self.label(dst)}."

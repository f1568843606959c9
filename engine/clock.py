"""The Clock (two packs), by the book: 1914 printing, plate p. 26, text p. 27.

Piles: twelve foundations set round a clock face, one against each hour from I to XII, each
begun by the card that Tableau No. 1 (the plate's first dial) puts there and built up in suit,
past the king to the ace where it must, until its top card shows its hour (Rule IV); outside
them the circle, twelve packets of three cards dealt together and spread so that every card
shows, of which only the uppermost is available (Rule I); in the middle of the dial the pack,
the card turned up from it, and the talon.

A turn: cards of the circle are played to the foundations and married in a descending line
(one card of the circle on the uppermost card of another packet, of the same suit and one rank
higher: never a card of the pack or the talon, Rule II); then every packet left with fewer
than three cards is made up to three from the pack, in order from the packet at I (Rule III).
When all progress is at an end, the rest of the pack is dealt out one card at a time: a
suitable card is played, another fills the first packet short of three cards, and the rest are
laid aside on the talon, which may only be played to the foundations. There is no re-deal.
See the chapter page for the text each rule id points at, and its editorial notes
(``note-cl-N``) for the readings behind the options.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, KNAVE, QUEEN, RANK_NAMES, SUITS, Card, Suit, pack
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
    Region,
    Role,
    State,
    Step,
    option,
)
from .deal import shuffled
from .rules import deal_together, plural

SLUG = "the-clock"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # only the uppermost card of a packet is available
RULE_II = _rule("rule-2")             # marriages only with cards in the circle
RULE_III = _rule("rule-3")            # vacancies refilled from the pack, to three cards
RULE_IV = _rule("rule-4")             # the twelve foundations must follow suit
WITHDRAW = _rule("withdraw")          # the twelve cards of Tableau No. 1, against the hours
FOUNDATIONS = _rule("foundations")    # ascend in sequence until each attains its hour
DEAL = _rule("deal")                  # twelve packets of three dealt together, spread
ORDER = _rule("order")                # first play, then marry in a descending line, refill
REFILL = _rule("refill")              # refill in order from I, all before playing again
NOTE = _rule("note")                  # never less than three; often more, by marriages
NOT_OBLIGED = _rule("not-obliged")    # not obliged to play cards more useful on the circle
DEAL_OUT = _rule("deal-out")          # progress at an end: deal out the remaining cards
TALON = _rule("talon")                # cards not employed: the talon, for the foundations
NO_REDEAL = _rule("no-redeal")        # there is no re-deal
BOARD = _rule("board")                # the board itself (notation errors, empty places)

HOURS = 12
PACKET = 3              # cards in a packet as dealt, and the fewest it may keep (Rule III)
CARDS = 104
SEARCH_LIMIT = 4000     # positions explored at most when judging whether a game is lost
NUMERALS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")

#: The foundation card placed against each hour, I to XII (note CL-1): the ranks are the
#: plate's; the suits repeat every fourth hour, which is the only way every card of the two
#: packs can end on a foundation.
BASES: tuple[Card, ...] = (
    Card(6, Suit.CLUBS), Card(7, Suit.HEARTS), Card(8, Suit.SPADES), Card(9, Suit.DIAMONDS),
    Card(10, Suit.CLUBS), Card(KNAVE, Suit.HEARTS), Card(QUEEN, Suit.SPADES),
    Card(KING, Suit.DIAMONDS), Card(2, Suit.CLUBS), Card(3, Suit.HEARTS),
    Card(4, Suit.SPADES), Card(5, Suit.DIAMONDS),
)


def next_rank(rank: int) -> int:
    """The rank that follows ``rank`` on a foundation: one higher, and the ace after the
    king (note CL-2)."""
    return ACE if rank == KING else rank + 1


def hour_card(hour: int) -> Card:
    """The card that ends the foundation at ``hour`` (1 to 12): the second dial of the
    plate."""
    return Card(hour, BASES[hour - 1].suit)


def foundation_cards(hour: int) -> tuple[Card, ...]:
    """Every card of the foundation at ``hour``, from its base card to its hour."""
    cards = [BASES[hour - 1]]
    while cards[-1].rank != hour:
        cards.append(Card(next_rank(cards[-1].rank), cards[-1].suit))
    return tuple(cards)


class Order(Enum):
    """CL-5: how playing, marrying and refilling follow one another."""

    FREE = "free"      # plays and marriages in any order; the refill when the player is done
    STRICT = "strict"  # once a marriage has been made, no play until the circle is refilled


class Turning(Enum):
    """CL-8: when a card may be dealt out from the pack."""

    ANY_TIME = "any-time"  # whenever the circle is full (and no turned card waits)
    NO_PLAY = "no-play"    # only when no card of the circle or the talon can be played


@dataclass(frozen=True, slots=True)
class ClockOptions:
    order: Order = option(
        Order.FREE, note="note-cl-5", label="Playing, marrying and refilling",
        labels={Order.FREE: "plays and marriages in any order, then the refill",
                Order.STRICT: "after a marriage, no play until the circle is refilled"})
    short_marriages: bool = option(
        True, note="note-cl-6", label="A card may be married to a packet of fewer than three",
        labels={True: "yes: a marriage is not a refill",
                False: "no: its vacancy must first be refilled from the pack"})
    turning: Turning = option(
        Turning.NO_PLAY, note="note-cl-8", label="The remaining cards are dealt out",
        labels={Turning.ANY_TIME: "whenever the circle is full",
                Turning.NO_PLAY: "only when no card can be played to a foundation"})


# ---------------------------------------------------------------------------- the layout
# Positions are in board slots: a slot is one card width plus a gap across, and one card
# height plus a gap down. The board's card is 0.9 slot wide and 1.26 slot-widths high; a row
# is 1.36 slot-widths high. The dial is laid out in slot-width units and converted.

_CW, _CH, _ROW = 0.9, 1.26, 1.36
_RING_F = 2.75           # radius of the foundations, to the cards' centres
#: How far a packet may spread, in card heights, before its cards close up.
_FAN = 1.3
_GAP = 0.12
#: Radius of a packet's first card: beyond its foundation in the lower half of the dial,
#: where the packet spreads outwards; further out in the upper half, where it spreads
#: towards the centre (every packet spreads down its cards, as a hand holds them).
_RING_LOW = _RING_F + _CH + _GAP
_RING_HIGH = _RING_LOW + _FAN * _CH
_C = round(_RING_HIGH + _CH / 2 + 0.1, 2)  # the centre of the dial


def _theta(hour: int) -> float:
    return 30.0 * hour


def _upper(hour: int) -> bool:
    """Whether the hour lies in the upper half of the dial (IX round to III)."""
    t = _theta(hour) % 360
    return t <= 90 or t >= 270


def _turn(theta: float) -> int:
    """A card's turn on the dial, its long side pointing to the centre, never upside down."""
    t = theta % 360
    return int(round(t if t <= 90 else t - 180 if t < 270 else t - 360))


def _at(cx: float, cy: float) -> tuple[float, float]:
    """Pile position (x, y in slots) of a card centred on (cx, cy) in slot-width units."""
    return round(cx - 0.5, 3), round((cy - _CH / 2) / _ROW, 3)


def _on_dial(hour: int, radius: float) -> tuple[float, float, int]:
    th = math.radians(_theta(hour))
    x, y = _at(_C + radius * math.sin(th), _C - radius * math.cos(th))
    return x, y, _turn(_theta(hour))


def _foundation(hour: int) -> PileSpec:
    x, y, turn = _on_dial(hour, _RING_F)
    return PileSpec(f"f{hour}", f"the foundation at {NUMERALS[hour - 1]}", Role.FOUNDATION,
                    x, y, rotate=turn)


def _packet(hour: int) -> PileSpec:
    x, y, turn = _on_dial(hour, _RING_HIGH if _upper(hour) else _RING_LOW)
    return PileSpec(f"p{hour}", f"the packet at {NUMERALS[hour - 1]}", Role.TABLEAU, x, y,
                    Fan.DOWN, rotate=turn, fan_limit=_FAN)


_MID_Y = _at(0.0, _C)[1]

PILES: tuple[PileSpec, ...] = (
    tuple(_foundation(h) for h in range(1, HOURS + 1))
    + tuple(_packet(h) for h in range(1, HOURS + 1))
    + (PileSpec("stock", "the pack", Role.STOCK, _at(_C - 0.95, 0)[0], _MID_Y),
       PileSpec("turned", "the card turned up", Role.RESERVE, _at(_C, 0)[0], _MID_Y,
                capacity=1),
       PileSpec("talon", "the talon", Role.TALON, _at(_C + 0.95, 0)[0], _MID_Y))
)

#: The numerals of the dial, between the foundations and the pack, as on the plate.
_NUMERAL_R, _NUMERAL_W, _NUMERAL_H = 1.8, 0.5, 0.3


def _numeral(hour: int) -> Region:
    th = math.radians(_theta(hour))
    cx, cy = _C + _NUMERAL_R * math.sin(th), _C - _NUMERAL_R * math.cos(th)
    return Region(NUMERALS[hour - 1], round(cx - _NUMERAL_W / 2, 3),
                  round((cy - _NUMERAL_H * _ROW / 2) / _ROW, 3), _NUMERAL_W, _NUMERAL_H)


FOUNDS = range(0, HOURS)              # the foundation at hour h is pile h - 1
PACKETS = range(HOURS, 2 * HOURS)     # the packet at hour h is pile HOURS + h - 1
STOCK, TURNED, TALON_PILE = 2 * HOURS, 2 * HOURS + 1, 2 * HOURS + 2
V_DEALING, V_MARRIED = 0, 1


def _narrow_layout() -> Layout:
    """For a phone: the dial unrolled into two bands, each foundation with its packet spread
    below it. Above, the hours from IX round to III; in the middle the pack, the card turned
    up and the talon; below, the hours from VIII back to IV."""
    top = (9, 10, 11, 12, 1, 2, 3)
    bottom = (8, 7, 6, 5, 4)
    label = 0.32  # the strip above each foundation that carries its numeral
    band = round(label + 1.05 + _CH / _ROW + _FAN * _CH / _ROW + 0.15, 2)
    at: dict[str, tuple[float, float, int]] = {}
    regions: list[Region] = []
    for start, hours, first in ((0.0, top, 0), (band + 1.1, bottom, 1)):
        for col, h in enumerate(hours, start=first):
            at[f"f{h}"] = (float(col), round(start + label, 2), 0)
            at[f"p{h}"] = (float(col), round(start + label + 1.05, 2), 0)
            regions.append(Region(NUMERALS[h - 1], col + 0.02, start, 0.96,
                                  round(band - 0.12, 2)))
    at["stock"], at["turned"], at["talon"] = (2.0, band, 0), (3.0, band, 0), (4.0, band, 0)
    return Layout(name="narrow", max_width=560, grid=(7.0, round(2 * band + 1.1, 2)),
                  at=at, regions=tuple(regions))


# The drawn figure (``build_scripts/diagrams.py``) spreads a packet down the page whatever
# the turn of its cards: there the packets stand upright, each just outside its foundation,
# and the foundations are turned about the dial as the plate turns them. The figure's card is
# 64 by 90 pixels in a slot of 78 by 104, and a packet of three spreads over 0.55 of a slot.
_FIG_W, _FIG_H, _FIG_ROW, _FIG_SPREAD = 64 / 78, 90 / 78, 104 / 78, 0.554
_FIG_RING_F, _FIG_RING_P, _FIG_C = 2.3, 3.9, 5.0


def _fig_at(hour: int, radius: float, packet: bool) -> tuple[float, float, int]:
    th = math.radians(_theta(hour))
    cx = _FIG_C + radius * math.sin(th)
    cy = _FIG_C - radius * math.cos(th) - (_FIG_SPREAD / 2 if packet else 0.0)
    x = round(cx - _FIG_W / 2, 3)
    y = round((cy - _FIG_H / 2) / _FIG_ROW, 3)
    return x, y, 0 if packet else _turn(_theta(hour))


def _plate_layout() -> Layout:
    at: dict[str, tuple[float, float, int]] = {}
    for h in range(1, HOURS + 1):
        at[f"f{h}"] = _fig_at(h, _FIG_RING_F, False)
        at[f"p{h}"] = _fig_at(h, _FIG_RING_P, True)
    return Layout(name="plate", grid=(2 * _FIG_C, 2 * _FIG_C / _FIG_ROW), at=at)


# ---------------------------------------------------------------------------- the rules

def accepts(pile: tuple[Card, ...], hour: int, card: Card) -> bool:
    """Whether the foundation at ``hour`` (its base card at the bottom) takes ``card`` next:
    the next card of its suit, until it has attained its hour."""
    top = pile[-1]
    return (card.suit is top.suit and top.rank != hour
            and card.rank == next_rank(top.rank))


def marries(target: Card, card: Card) -> bool:
    """Whether ``card`` may be married on ``target``: same suit, one rank lower (no king on
    an ace)."""
    return card.suit is target.suit and card.rank == target.rank - 1


def hour_of(pile: int) -> int:
    """The hour (1 to 12) of a foundation or a packet."""
    return pile + 1 if pile in FOUNDS else pile - HOURS + 1


class TheClock(Game):
    slug = SLUG
    title = "The Clock"
    packs = 2
    Options = ClockOptions
    PILES = PILES
    VARS = ("dealing", "married")
    GRID = (round(2 * _C, 2), round(2 * _C / _ROW, 2))
    REGIONS = tuple(_numeral(h) for h in range(1, HOURS + 1))
    LAYOUTS = (_narrow_layout(), _plate_layout())
    FIGURES = (
        Figure("tableau", "The Clock after the deal, in modern cards.",
               "The Clock just after the deal, drawn in modern cards: twelve foundation "
               "cards in a ring like the figures of a clock face, each turned with its long "
               "side towards the centre, from the six of clubs at one o’clock round to the "
               "five of diamonds at twelve; outside each of them a packet of three cards, "
               "spread so that every card shows, the uppermost outermost. The pack is not "
               "shown.",
               piles=tuple(p.id for p in PILES if p.id not in ("stock", "turned", "talon")),
               layout="plate"),
    )
    ACTIONS = (
        ActionSpec("refill", "Refill the circle", "f", REFILL),
        ActionSpec("deal", "Turn up a card", "t", DEAL_OUT),
    )
    LEDGER = {
        RULE_I: "Only the uppermost card of a packet may be played or married; a card with "
                "another on it is refused until that card has gone, and is then available.",
        RULE_II: "A card of the circle may be married on the uppermost card of another "
                 "packet; the card turned up and the talon’s cards are refused as marriages.",
        RULE_III: "“Refill the circle” makes every packet of fewer than three cards up to "
                  "three from the pack; the talon never refills, and nothing else fills an "
                  "empty packet place.",
        RULE_IV: "A foundation takes only cards of its own suit.",
        WITHDRAW: "The deal sets the twelve cards of the first dial against the hours, from "
                  "the six of clubs at I to the five of diamonds at XII, the suits following "
                  "note CL-1.",
        FOUNDATIONS: "Each foundation takes the next card of its suit, the ace after the king, "
                     "and nothing once its top card shows its hour; the game is won when all "
                     "twelve do.",
        DEAL: "The deal lays twelve packets of three cards dealt together, from I round to "
              "XII, spread so that every card shows; the other fifty-six form the pack.",
        ORDER: "A marriage puts a card on the card of its suit one rank higher; plays and "
               "marriages may alternate freely until the refill, or, under the strict "
               "reading, a play waits for the refill once a marriage has been made.",
        REFILL: "The refill goes from the packet at I round to XII, each made up to three "
                "before the next, all at once; no play or marriage comes between.",
        NOTE: "A packet is never refilled above three cards, and a packet that holds more by "
              "marriages takes none; a packet may be married to while short of three, unless "
              "the other reading of note CL-6 is chosen.",
        NOT_OBLIGED: "No card of the circle is ever played for the player, and no play is "
                     "required before a marriage or a refill; a card kept on the circle "
                     "holds back the deal-out until it is played (note CL-8).",
        DEAL_OUT: "“Turn up a card” deals the pack out one card at a time once the circle is "
                  "full and no card of the circle or the talon can be played (under the "
                  "other reading of note CL-8, whenever the circle is full); a suitable card "
                  "must be played, another goes to the first packet short of three, and the "
                  "circle may be played and married meanwhile.",
        TALON: "A card turned up that can neither be played nor refill a packet is laid on "
               "the talon; only the talon’s top card may be used, and only on a foundation.",
        NO_REDEAL: "When the pack is exhausted there is no re-deal; the game is lost once no "
                   "series of marriages can bring another card to a foundation.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        rest = Counter(pack(2))
        rest.subtract(BASES)
        stock = tuple(shuffled(sorted(rest.elements()), deal))
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for f in FOUNDS:
            piles[f] = (BASES[f],)
        for p in PACKETS:  # from the packet at I round to XII
            piles[p], stock = deal_together(stock, PACKET)
        piles[STOCK] = stock
        return State(tuple(piles), (0, 0))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        for f in FOUNDS:
            pile, hour = state.piles[f], hour_of(f)
            if not pile or pile[0] != BASES[f]:
                raise PositionError(f"{PILES[f].label} must begin with the {BASES[f].name}")
            if pile != foundation_cards(hour)[:len(pile)]:
                raise PositionError(f"{PILES[f].label} is not built in sequence from its "
                                    "base card to its hour")
        dealing, married = state.vars
        if dealing not in (0, 1) or married not in (0, 1):
            raise PositionError("the counters dealing and married are 0 or 1")
        if state.piles[TURNED] and not dealing:
            raise PositionError("a card is turned up before the remaining cards are dealt out")
        if married and (options.order is not Order.STRICT or not state.piles[STOCK]
                        or not cls.short(state)):
            raise PositionError("plays wait for a refill only under the strict reading, "
                                "while a packet is short and the pack holds cards")
        if state.piles[TALON_PILE] and not dealing:
            raise PositionError("there is a talon before the remaining cards are dealt out")
        if len(state.piles[TURNED]) > 1:
            raise PositionError("only one card is turned up at a time")
        return state

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def short(state: State) -> list[int]:
        """The packets holding fewer than three cards, from I round to XII."""
        return [p for p in PACKETS if len(state.piles[p]) < PACKET]

    @staticmethod
    def suitable(state: State, card: Card) -> bool:
        """Whether some foundation takes ``card`` now."""
        return any(accepts(state.piles[f], hour_of(f), card) for f in FOUNDS)

    def plays_wait(self, state: State) -> bool:
        """Under the strict reading of CL-5: a marriage has been made, and the circle has
        still to be refilled before anything more is played."""
        return bool(state.vars[V_MARRIED])

    def can_play(self, state: State) -> bool:
        """Whether a card of the circle or the talon's top card may be played now."""
        if self.plays_wait(state):
            return False
        sources = [state.piles[p] for p in PACKETS] + [state.piles[TALON_PILE]]
        return any(s and self.suitable(state, s[-1]) for s in sources)

    @staticmethod
    def complete(state: State) -> bool:
        return all(state.piles[f][-1].rank == hour_of(f) for f in FOUNDS)

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        for si in (*PACKETS, TURNED, TALON_PILE):
            if not piles[si]:
                continue
            card = piles[si][-1]
            sid = PILES[si].id
            for f in FOUNDS:
                if accepts(piles[f], hour_of(f), card):
                    yield Move.step(sid, PILES[f].id)
            if si in PACKETS:
                for p in PACKETS:
                    if p != si and piles[p] and marries(piles[p][-1], card):
                        yield Move.step(sid, PILES[p].id)
            elif si == TURNED:
                for p in self.short(state)[:1]:
                    yield Move.step(sid, PILES[p].id)
                yield Move.step(sid, "talon")
        yield Move(action="refill")
        yield Move(action="deal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di = step.src, step.dst
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if si == STOCK:
            return IllegalMove(DEAL_OUT, "Cards leave the pack only to refill the circle, or, "
                               "once all progress is at an end, turned up one at a time.")
        if si in FOUNDS:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if di == STOCK:
            return IllegalMove(BOARD, "Nothing goes back to the pack.")
        if di == TURNED:
            if si in PACKETS:
                return IllegalMove(RULE_II, "Marriages can only be made with cards in the "
                                   "circle, and the card turned up is not in it.")
            return IllegalMove(DEAL_OUT, "Only the pack’s next card is turned up there.")
        if not step.top:
            if si == TALON_PILE:
                return IllegalMove(TALON, "The talon is one packet: only its top card can be "
                                   "used.")
            return IllegalMove(RULE_I, "Only the uppermost card of a packet is available: "
                               "the cards beneath are released only when it has gone.")
        if si == TURNED:
            return self._refuse_turned(state, di, step.card)
        if si == TALON_PILE:
            if di in FOUNDS:
                return self._refuse_play(state, di, step.card)
            if len(state.piles[di]) < PACKET:
                return IllegalMove(RULE_III, "Vacancies in the circle are refilled from the "
                                   "pack, never from the talon.")
            return IllegalMove(RULE_II, "Marriages can only be made with cards in the "
                               "circle, not with those from the talon: the talon can only "
                               "be used to play on the foundations.")
        # a card of the circle
        if di == TALON_PILE:
            return IllegalMove(TALON, "Only cards turned up from the pack that cannot be "
                               "employed are laid aside on the talon.")
        if di in FOUNDS:
            return self._refuse_play(state, di, step.card)
        return self._refuse_marriage(state, di, step.card)

    def _refuse_marriage(self, state: State, di: int, card: Card) -> IllegalMove | None:
        target = state.piles[di]
        label = PILES[di].label
        if not target:
            return IllegalMove(RULE_III, f"{label[:1].upper()}{label[1:]} is empty: a "
                               "vacancy in the circle is refilled from the pack.")
        if len(target) < PACKET and not self.options.short_marriages:
            return IllegalMove(RULE_III, f"{label[:1].upper()}{label[1:]} holds fewer than "
                               "three cards: under this reading its vacancy must be "
                               "refilled from the pack before a card is married to it.")
        top = target[-1]
        if not marries(top, card):
            lower = top.rank - 1
            need = (f"the {RANK_NAMES[lower]} of {top.suit.noun}" if lower >= ACE
                    else "nothing: an ace has no card below it")
            return IllegalMove(ORDER, f"Marriages are made in a descending line and in suit: "
                               f"the {top.name} takes {need}, not the {card.name}.")
        return None

    def _refuse_play(self, state: State, di: int, card: Card) -> IllegalMove | None:
        if self.plays_wait(state):
            return IllegalMove(REFILL, "Under this reading a marriage has been made, and all "
                               "the packets must be refilled before proceeding again to "
                               "play.")
        return self._refuse_foundation(state, di, card)

    @staticmethod
    def _refuse_foundation(state: State, di: int, card: Card) -> IllegalMove | None:
        pile, hour = state.piles[di], hour_of(di)
        label = PILES[di].label
        if accepts(pile, hour, card):
            return None
        top = pile[-1]
        if card.suit is not top.suit:
            return IllegalMove(RULE_IV, f"The foundations must follow suit: {label} takes "
                               f"only {top.suit.noun}.")
        if top.rank == hour:
            return IllegalMove(FOUNDATIONS, f"{label[:1].upper()}{label[1:]} has attained its "
                               f"hour: it takes no more cards.")
        return IllegalMove(FOUNDATIONS, f"The foundations ascend in sequence: {label} needs "
                           f"the {Card(next_rank(top.rank), top.suit).name} next.")

    def _refuse_turned(self, state: State, di: int, card: Card) -> IllegalMove | None:
        if di in FOUNDS:
            return self._refuse_foundation(state, di, card)
        if self.suitable(state, card):
            return IllegalMove(DEAL_OUT, f"The {card.name} is suitable: play all suitable "
                               "ones.")
        short = self.short(state)
        if di in PACKETS:
            if len(state.piles[di]) >= PACKET:
                return IllegalMove(RULE_II, "Marriages can only be made with cards in the "
                                   "circle, not with those from the pack.")
            if di != short[0]:
                return IllegalMove(REFILL, "Spaces are refilled in order, beginning at the "
                                   f"numeral I: {PILES[short[0]].label} comes first.")
            return None
        if short:  # di is the talon
            return IllegalMove(RULE_III, f"The {card.name} can refill a vacancy in the "
                               f"circle: it goes to {PILES[short[0]].label}.")
        return None

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "refill":
            if state.vars[V_DEALING]:
                return IllegalMove(DEAL_OUT, "The remaining cards are being dealt out: a "
                                   "vacancy is refilled with a card turned up.")
            if not state.piles[STOCK]:
                return IllegalMove(RULE_III, "The pack is exhausted: nothing is left to "
                                   "refill the circle with.")
            if not self.short(state):
                return IllegalMove(RULE_III, "Every packet holds at least three cards: there "
                                   "is nothing to refill.")
            return None
        if action == "deal":
            if not state.piles[STOCK]:
                return IllegalMove(NO_REDEAL, "The pack is exhausted, and there is no "
                                   "re-deal.")
            if state.piles[TURNED]:
                card = state.piles[TURNED][-1]
                if self.suitable(state, card):
                    return IllegalMove(DEAL_OUT, f"The {card.name} turned up is suitable: "
                                       "play it before turning up the next card.")
            elif not state.vars[V_DEALING] and self.short(state):
                return IllegalMove(RULE_III, "Vacancies in the circle must first be "
                                   "refilled from the pack (Refill the circle).")
            if self.options.turning is Turning.NO_PLAY and self.can_play(state):
                return IllegalMove(DEAL_OUT, "The remaining cards are dealt out only when "
                                   "all further progress is at an end: a card can still be "
                                   "played to a foundation.")
            return None
        if action == "redeal":
            return IllegalMove(NO_REDEAL, "There is no re-deal.")
        return IllegalMove(BOARD, f"The Clock has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        dealing, married = state.vars
        if move.action == "refill":
            for p in PACKETS:  # from I round to XII, each made up before the next
                while len(piles[p]) < PACKET and piles[STOCK]:
                    piles[p] = piles[p] + piles[STOCK][-1:]
                    piles[STOCK] = piles[STOCK][:-1]
            married = 0
        elif move.action == "deal":
            if piles[TURNED]:  # the card waiting goes where it must: a vacancy, or the talon
                card = piles[TURNED]
                short = [p for p in PACKETS if len(piles[p]) < PACKET]
                place = short[0] if short else TALON_PILE
                piles[place] = piles[place] + card
            piles[TURNED] = piles[STOCK][-1:]
            piles[STOCK] = piles[STOCK][:-1]
            dealing = 1
        else:
            (src, dst), = move.steps
            si, di = self.pile_index(src), self.pile_index(dst)
            piles[di] = piles[di] + piles[si][-1:]
            piles[si] = piles[si][:-1]
            if si in PACKETS and di in PACKETS and self.options.order is Order.STRICT:
                married = 1
        # A marriage holds the plays back only until the circle is whole again (CL-5).
        if married and (not piles[STOCK] or all(len(piles[p]) >= PACKET for p in PACKETS)):
            married = 0
        return State(tuple(piles), (dealing, married))

    # ---- the end ---------------------------------------------------------------------
    def _reachable_play(self, state: State) -> bool | None:
        """With the pack exhausted and nothing turned up: True if some series of marriages
        lets a card be played, False if none does, None if the search gave up."""
        def code(c: Card) -> int:  # a card marries on the card four more
            return 4 * c.rank + SUITS.index(c.suit)

        wanted = {code(Card(next_rank(state.piles[f][-1].rank), state.piles[f][-1].suit))
                  for f in FOUNDS if state.piles[f][-1].rank != hour_of(f)}
        talon = state.piles[TALON_PILE]
        if talon and code(talon[-1]) in wanted:
            return True
        # No rule looks at a packet's place once the pack is out: packets are interchangeable.
        Key = tuple[tuple[int, ...], ...]
        start: Key = tuple(sorted(tuple(code(c) for c in state.piles[p]) for p in PACKETS))
        short_ok = self.options.short_marriages
        seen = {start}
        todo = [start]
        while todo:
            packets = todo.pop()
            if any(p and p[-1] in wanted for p in packets):
                return True
            for a, p in enumerate(packets):
                if not p:
                    continue
                card = p[-1]
                for b, q in enumerate(packets):
                    if a != b and q and q[-1] == card + 4 and (short_ok or len(q) >= PACKET):
                        nxt = list(packets)
                        nxt[a], nxt[b] = p[:-1], q + (card,)
                        key = tuple(sorted(nxt))
                        if key not in seen:
                            if len(seen) >= SEARCH_LIMIT:
                                return None
                            seen.add(key)
                            todo.append(key)
        return False

    def outcome_of(self, state: State) -> Outcome | None:
        if self.complete(state):
            return Outcome.WON
        if state.piles[STOCK] or state.piles[TURNED]:
            return None  # a card can always be turned, refilled or placed
        verdict = self.remembered(state, self._reachable_play)
        # Marriages can move a card back and forth between the two equal cards of the packs
        # for ever: the game is lost when no series of them brings a card to a foundation.
        return Outcome.LOST if verdict is False else None

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = sum(len(state.piles[f]) for f in FOUNDS)
        if out is Outcome.WON:
            return "Won: every foundation shows its hour."
        if out is Outcome.LOST:
            return (f"Nothing more can reach the foundations: the patience has failed with "
                    f"{played} of {CARDS} cards on them.")
        stock = len(state.piles[STOCK])
        parts = [f"Pack: {plural(stock, 'card')}" if stock else "The pack is exhausted"]
        if state.vars[V_DEALING] or state.piles[TALON_PILE]:
            parts.append(f"talon: {plural(len(state.piles[TALON_PILE]), 'card')}")
        parts.append(f"{played} of {CARDS} on the foundations")
        short = self.short(state)
        if state.piles[TURNED]:
            card = state.piles[TURNED][-1]
            if self.suitable(state, card):
                parts.append(f"play the {card.name}")
            else:
                where = PILES[short[0]].label if short else "the talon"
                parts.append(f"the {card.name} goes to {where}")
        elif short and stock and not state.vars[V_DEALING]:
            parts.append(f"{plural(len(short), 'packet')} to refill")
        if self.plays_wait(state):
            parts.append("plays wait for the refill")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "refill":
            return "The circle is refilled from the pack, beginning at I."
        if move.action == "deal":
            if state.piles[TURNED]:
                card = state.piles[TURNED][-1]
                short = self.short(state)
                where = PILES[short[0]].label if short else "the talon"
                return f"The {card.name} goes to {where}, and the next card is turned up."
            top = state.piles[STOCK][-1:]
            return f"The {top[0].name} is turned up." if top else "A card is turned up."
        step = self.resolve_step(state, move)
        if isinstance(step, Step):
            src, dst = PILES[step.src].label, PILES[step.dst].label
            if step.dst in FOUNDS:
                return f"The {step.card.name} is played from {src} to {dst}."
            if step.dst == TALON_PILE:
                return f"The {step.card.name} is laid aside on the talon."
            if step.src == TURNED:
                return f"The {step.card.name} refills {dst}."
            if state.piles[step.dst]:
                return (f"The {step.card.name} from {src} is married to the "
                        f"{state.piles[step.dst][-1].name} on {dst}.")
        return super().describe(state, move)

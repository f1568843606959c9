"""La Belle Lucie (one pack) and its two games for two packs, The House in the Wood and The
House on the Hill, by the book: 1914 printing, plate p. 6, text p. 7.

La Belle Lucie. Piles: eighteen packets, fanned so that every card shows, laid out as the plate
lays them (rows of five, five, three and five; the packet of one card in the middle of the
bottom row); four foundations below, one for each suit. Only the uppermost card of a packet
moves: to its foundation, or married onto the uppermost card of another packet, of the same
suit and one rank higher. The tableau may be taken up, shuffled and dealt again twice.

The House in the Wood (:class:`TheHouseInTheWood`) is the same game with two packs: "the eight
aces forming the foundation cards" (two ascending piles for each suit) and "double the number
of packets", thirty-six, laid out as two plates one above the other.

The House on the Hill (:class:`TheHouseOnTheHill`) takes the House in the Wood's two packs
and packets, and changes the foundations ("four aces, and four kings of different suits": one
pile rising from its ace and one falling from its king for each suit) and the marriages
("both in ascending and descending lines").

The three games share every rule; each subclass changes only what its paragraph changes,
through small overrides: the pack and the deal (:meth:`LaBelleLucie.first_deal`), the places,
the foundations (:attr:`LaBelleLucie.FOUNDATION_SET`) and the marriages
(:meth:`LaBelleLucie.marries`). See the chapter page for the text each rule id points at, and
its editorial notes (``note-bl-N``) for the readings behind the options and decisions.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any, ClassVar

from .cards import KING, SUITS, Card, pack
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
from .rules import SuitFoundations, deal_together, plural

SLUG = "la-belle-lucie"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # only the uppermost card of a packet is available
RULE_II = _rule("rule-2")             # the foundations follow suit
DEAL = _rule("deal")                  # packets of three dealt together; the last holds one
FOUNDATIONS = _rule("foundations")    # the four aces, ascending in sequence to kings
ACES = _rule("aces")                  # play the aces, and suitable cards upon them
MARRIAGES = _rule("marriages")        # release others by marriages in a descending line
REDEAL = _rule("redeal")              # no more cards to play: take up, shuffle, re-deal twice
HOUSE_IN_THE_WOOD = _rule("house-in-the-wood")  # two packs, eight aces, double the packets
HOUSE_ON_THE_HILL = _rule("house-on-the-hill")  # four aces and four kings; marriages up and down
# Anchors of the boards' headings (the board's own refusals: notation, a card dropped where
# it lies).
BOARD = _rule("board")
WOOD_BOARD = _rule("house-in-the-wood-board")
HILL_BOARD = _rule("house-on-the-hill-board")

PACKET = 3              # cards dealt together to make a packet
PACKET_PLACES = 18      # 17 packets of three and the last of one
REDEALS_ALLOWED = 2     # "(if necessary twice)": three deals in all
CARDS = 52
#: Positions explored at most when judging, in a two-pack game, whether marriages can still
#: bring a card to the foundations (beyond it the board does not call the game lost).
SEARCH_LIMIT = 3000


class RedealTiming(Enum):
    """BL-4: when the tableau may be taken up and re-dealt."""

    NO_PLAY = "no-play"  # only when no available card can be played to a foundation
    CHOICE = "choice"    # whenever the player chooses


class Packets(Enum):
    """BL-12: the two-pack games' "double the number of packets"."""

    DOUBLE = "36"  # thirty-six: each pack dealt as La Belle Lucie's, 17 of three and 1 single
    THREES = "35"  # threes to the end: thirty-four of three and a last packet of two


class Lines(Enum):
    """BL-14: The House on the Hill's marriages "both in ascending and descending lines"."""

    FREE = "free"  # each card one above or one below the card it goes on
    KEEP = "keep"  # a line of marriages, once it rises or falls, goes on the same way


@dataclass(frozen=True, slots=True)
class BelleLucieOptions:
    redeal_timing: RedealTiming = option(
        RedealTiming.NO_PLAY, note="note-bl-4", label="When the tableau may be re-dealt",
        labels={RedealTiming.NO_PLAY: "only when no card can be played to a foundation",
                RedealTiming.CHOICE: "whenever the player chooses"})


@dataclass(frozen=True, slots=True)
class HouseInTheWoodOptions(BelleLucieOptions):
    packets: Packets = option(
        Packets.DOUBLE, note="note-bl-12", label="The first deal makes",
        labels={Packets.DOUBLE: "thirty-six packets, two of them single cards",
                Packets.THREES: "thirty-five packets, the last of two cards"})


@dataclass(frozen=True, slots=True)
class HouseOnTheHillOptions(HouseInTheWoodOptions):
    marriage_lines: Lines = option(
        Lines.FREE, note="note-bl-14", label="A line of marriages may",
        labels={Lines.FREE: "go up or down from card to card",
                Lines.KEEP: "not turn back once it rises or falls"})


# ---- places --------------------------------------------------------------------------
# The plate's places, row by row from the top, left to right: five, five, three (centred)
# and five packets; the packet of one card is the middle one of the bottom row.
_COL = 1.8
_FIVE = tuple(_COL * c for c in range(5))
_PLATE_ROWS: tuple[tuple[float, tuple[float, ...]], ...] = (
    (0.0, _FIVE), (1.0, _FIVE), (2.0, _FIVE[1:4]), (3.0, _FIVE),
)
_PLACES: tuple[tuple[float, float], ...] = tuple((x, y) for y, xs in _PLATE_ROWS for x in xs)
#: The order in which the places receive packets (BL-6): row by row, the single card last, in
#: the middle of the bottom row, where the plate shows it.
DEAL_ORDER: tuple[int, ...] = tuple(range(15)) + (16, 17, 15)
#: How far a packet's fan may spread to the right, in card widths, before its cards close up
#: (a packet grown by marriages stays clear of its neighbour).
_FAN_LIMIT = 0.85


def _packets(places: Sequence[tuple[float, float]], fan_limit: float = _FAN_LIMIT
             ) -> tuple[PileSpec, ...]:
    return tuple(PileSpec(f"p{k}", f"packet {k + 1}", Role.TABLEAU, x, y, Fan.RIGHT,
                          fan_limit=fan_limit) for k, (x, y) in enumerate(places))


_FOUND_X = (2.0, 3.25, 4.5, 5.75)
_FOUND_Y = 4.3

PILES: tuple[PileSpec, ...] = (
    _packets(_PLACES)
    + tuple(PileSpec(f"f{j}", s.noun, Role.FOUNDATION, _FOUND_X[j], _FOUND_Y)
            for j, s in enumerate(SUITS))
)

PACKETS = range(0, PACKET_PLACES)
FOUNDATION_PILES = range(PACKET_PLACES, PACKET_PLACES + 4)
FOUNDATION_SET = SuitFoundations(FOUNDATION_PILES, range(0))


def _narrow() -> Layout:
    """For a phone: three packets to a row, in the plate's order, the foundations below."""
    at: dict[str, tuple[float, float, int]] = {}
    for k in PACKETS:
        at[PILES[k].id] = (_COL * (k % 3), float(k // 3), 0)
    for j, f in enumerate(FOUNDATION_PILES):
        at[PILES[f].id] = (0.2 + 1.25 * j, 6.3, 0)
    return Layout(name="narrow", max_width=560, grid=(5.4, 7.3), at=at)


# The two-pack games (BL-12): the plate twice, one copy above the other, its columns a little
# closer (the fans a little shorter); the eight foundations in a column on the right, four
# beside each plate, a suit to a row.
_TWO_COL = 1.7
_TWO_FAN_LIMIT = 0.75
_TWO_PACKETS = 2 * PACKET_PLACES
_SECOND_PLATE_Y = 4.4
_TWO_PLACES = tuple((x / _COL * _TWO_COL, y + dy) for dy in (0.0, _SECOND_PLATE_Y)
                    for x, y in _PLACES)
#: The two plates' places, each in the order of La Belle Lucie's deal.
TWO_DEAL_ORDER: tuple[int, ...] = DEAL_ORDER + tuple(PACKET_PLACES + k for k in DEAL_ORDER)
_TWO_FOUND_X = 8.55
_TWO_FOUND_Y = tuple(dy + j for dy in (0.0, _SECOND_PLATE_Y) for j in range(4))


def _two_pack_piles(marks: tuple[str, str]) -> tuple[PileSpec, ...]:
    """Thirty-six packets, then the foundations: the first four (``marks[0]``, beside the
    upper plate, in the order of ``SUITS``), then the other four (beside the lower). A
    foundation's label is short ("hearts 2"): it shows in its place while the place is empty,
    on cards narrow enough for a phone; sentences name it in full (``foundation_spec``)."""
    return _packets(_TWO_PLACES, _TWO_FAN_LIMIT) + tuple(
        PileSpec(f"f{4 * c + j}", f"{s.noun} {marks[c]}", Role.FOUNDATION,
                 _TWO_FOUND_X, _TWO_FOUND_Y[4 * c + j])
        for c in range(2) for j, s in enumerate(SUITS))


def _two_pack_narrow(piles: tuple[PileSpec, ...]) -> Layout:
    """For a phone: four packets to a row, in the order of the places, the foundations
    below in two rows of four (those of the upper plate, then those of the lower)."""
    at: dict[str, tuple[float, float, int]] = {}
    for k in range(_TWO_PACKETS):
        at[piles[k].id] = (_TWO_COL * (k % 4), float(k // 4), 0)
    for n in range(8):
        at[piles[_TWO_PACKETS + n].id] = (_TWO_COL * (n % 4), 9.3 + (n // 4), 0)
    return Layout(name="narrow", max_width=560, grid=(6.8, 11.3), at=at)


def deal_packets(cards: tuple[Card, ...], order: Sequence[int] = DEAL_ORDER
                 ) -> list[tuple[Card, ...]]:
    """The packets of a deal, placed in the order of ``order`` (the places, in the order
    they receive packets): three cards dealt together at a time from the top of the pack (its
    last card), the last packet taking what is left (one card in La Belle Lucie's first
    deal). Places beyond the last packet stay empty."""
    packets: list[tuple[Card, ...]] = [()] * len(order)
    stock = cards
    for place in order:
        packets[place], stock = deal_together(stock, PACKET)
    assert not stock, "more cards than the places hold"
    return packets


_SUIT_NUMBER = {s: n for n, s in enumerate(SUITS)}


def code(card: Card) -> int:
    """A card as a number, 4 × rank + suit: two cards of one suit next in value differ by
    exactly 4 (the engine judges marriages, and searches them, on these numbers)."""
    return 4 * card.rank + _SUIT_NUMBER[card.suit]


# ---- La Belle Lucie ----------------------------------------------------------------------

class LaBelleLucie(Game):
    slug = SLUG
    CHAPTER = SLUG
    title = "La Belle Lucie"
    packs = 1
    Options = BelleLucieOptions
    PILES = PILES
    VARS = ("redeals",)
    GRID = (9.0, 5.3)
    LAYOUTS = (_narrow(),)
    FIGURES = (
        Figure("tableau", "La Belle Lucie just after the deal.",
               "The tableau of La Belle Lucie just after the deal, drawn in modern cards: "
               "eighteen packets, each fanned to the right so that all its cards show, in "
               "rows of five, five, three and five; every packet holds three cards except "
               "the single card in the middle of the bottom row; below them, four empty "
               "places for the foundations, one for each suit."),
    )
    ACTIONS = (
        ActionSpec("redeal", "Shuffle and re-deal", "e", REDEAL),
    )
    #: The packets' piles, and the places in the order they receive packets.
    PACKET_PILES: ClassVar[range] = PACKETS
    DEAL_ORDER: ClassVar[tuple[int, ...]] = DEAL_ORDER
    #: The foundations: one pile for each suit, rising from its ace.
    FOUNDATION_SET: ClassVar[SuitFoundations] = FOUNDATION_SET
    #: The sentence that makes the foundations what they are (which cards begin them).
    FOUNDATION_RULE: ClassVar[str] = FOUNDATIONS
    #: The sentence that says how cards are married.
    MARRIAGE_RULE: ClassVar[str] = MARRIAGES
    LEDGER = {
        RULE_I: "In all three games only the uppermost card of a packet can be moved; a card "
                "beneath is refused until every card above it has gone (BL-1).",
        RULE_II: "In all three games a card is refused on a foundation of another suit; each "
                 "place belongs to one suit (BL-6, BL-13, BL-15).",
        DEAL: "La Belle Lucie: the shuffled pack is dealt in packets of three cards taken "
              "together, seventeen of them, and a last packet of one card, in the plate’s "
              "places (BL-6). The two-pack games deal their packets in the same way (BL-12).",
        FOUNDATIONS: "La Belle Lucie and the House in the Wood: each foundation begins with "
                     "an ace and takes the next card of its suit up to the king; in all three "
                     "games cards on a foundation never leave it, and the game is won when "
                     "every card is on the foundations (BL-8, BL-16).",
        ACES: "In all three games the uppermost card of any packet may be played to a "
              "foundation that takes it next; nothing is played for the player, and plays "
              "and marriages may come in any order (BL-7).",
        MARRIAGES: "La Belle Lucie and the House in the Wood: the uppermost card of a packet "
                   "may be married onto the uppermost card of another packet of the same "
                   "suit and one rank higher, one card at a time; in all three games a "
                   "place emptied stays empty (BL-2, BL-3, BL-13).",
        REDEAL: "In all three games the tableau may be taken up, shuffled and dealt again in "
                "packets of three, twice at most, once no card can be played to a "
                "foundation (or whenever the player chooses, under BL-4’s other reading); "
                "the foundations stay (BL-5, BL-13).",
        HOUSE_IN_THE_WOOD: "The House in the Wood, on its own board: two packs; eight "
                           "foundations, two for each suit, each begun by an ace and built "
                           "up to the king, a card going to either of its suit’s two; "
                           "thirty-six packets, each pack dealt as for La Belle Lucie (or "
                           "thirty-five, the last of two cards, under BL-12’s other "
                           "reading); marriages descend and two re-deals are allowed, as "
                           "in La Belle Lucie (BL-9, BL-12, BL-13).",
        HOUSE_ON_THE_HILL: "The House on the Hill, on its own board: two packs and the "
                           "packets of the House in the Wood; for each suit one foundation "
                           "rising from an ace to the king and one falling from a king to "
                           "the ace; a card married on a card of its suit one above or one "
                           "below it (a line that has begun to rise or fall going on the "
                           "same way, under BL-14’s other reading); two re-deals (BL-9, "
                           "BL-14, BL-15).",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def cards(cls) -> int:
        return CARDS * cls.packs

    @classmethod
    def first_deal(cls, cards: tuple[Card, ...], options: Any) -> list[tuple[Card, ...]]:
        """The packets of the first deal: three at a time, the last packet of one card."""
        return deal_packets(cards, cls.DEAL_ORDER)

    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        cards = tuple(shuffled(pack(cls.packs), deal))
        found = len(cls.PILES) - len(cls.PACKET_PILES)
        return State(tuple(cls.first_deal(cards, options)) + ((),) * found, (0,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        fs = cls.FOUNDATION_SET
        for f in cls.foundation_piles():
            rising = f in fs.asc
            for k, card in enumerate(state.piles[f]):
                if card.suit is not fs.suit(f) or card.rank != (k + 1 if rising else KING - k):
                    begin = "ace" if rising else "king"
                    raise PositionError(f"the {cls.foundation_spec(f).label} is not built in "
                                        f"order from its {begin}")
        if not 0 <= state.vars[0] <= REDEALS_ALLOWED:
            raise PositionError("the tableau is re-dealt at most twice")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def _seed(self) -> int:
        return self.deal if self.deal is not None else 0

    @classmethod
    def foundation_spec(cls, f: int) -> PileSpec:
        """The foundation ``f``'s place, named in full as a sentence names it ("the spades
        foundation"): its label on the board is short ("spades"), for it shows in the place
        while the place is empty, on cards narrow enough for a phone."""
        return replace(cls.PILES[f], label=f"{cls.FOUNDATION_SET.suit(f).noun} foundation")

    @classmethod
    def foundation_piles(cls) -> tuple[int, ...]:
        return tuple(cls.FOUNDATION_SET.asc) + tuple(cls.FOUNDATION_SET.desc)

    def foundations_for(self, state: State, card: Card) -> list[int]:
        """The foundations that take ``card`` next (the player chooses among them)."""
        return [f for f in self.foundation_piles() if self.FOUNDATION_SET.accepts(state, f, card)]

    def playable(self, state: State) -> Card | None:
        """An uppermost card that can be played to a foundation (the first found)."""
        for i in self.PACKET_PILES:
            p = state.piles[i]
            if p and self.foundations_for(state, p[-1]):
                return p[-1]
        return None

    def redeals_left(self, state: State) -> int:
        return REDEALS_ALLOWED - self.var(state, "redeals")

    def marries(self, packet: Sequence[int], card: int) -> bool:
        """Whether a card may be married on a packet (both as :func:`code` numbers, the
        packet bottom to top): on its uppermost card, of the same suit and one rank higher
        (“marriages in a descending line”)."""
        return bool(packet) and packet[-1] - card == 4

    def marriage_refusal(self, packet: tuple[Card, ...], card: Card) -> IllegalMove:
        """Why ``card`` may not be married on the packet (given that :meth:`marries` says
        so), in words."""
        top = packet[-1]
        if top.suit is not card.suit:
            return IllegalMove(self.MARRIAGE_RULE, f"A marriage is made on a card of the same "
                               f"suit: the {card.name} cannot go on the {top.name}.")
        if card.rank == KING:
            return IllegalMove(self.MARRIAGE_RULE, "Marriages are made in a descending line, "
                               "and no card is higher than a king: a king is never married.")
        return IllegalMove(self.MARRIAGE_RULE, f"Marriages are made in a descending line: the "
                           f"{card.name} goes only on the {Card(card.rank + 1, card.suit).name}.")

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        tops: dict[int, list[int]] = {}
        for i in self.PACKET_PILES:
            if piles[i]:
                tops.setdefault(code(piles[i][-1]), []).append(i)
        for i in self.PACKET_PILES:
            if not piles[i]:
                continue
            card = piles[i][-1]
            for f in self.foundations_for(state, card):
                yield Move.step(self.PILES[i].id, self.PILES[f].id)
            c = code(card)
            for t in (c + 4, c - 4):
                for j in tops.get(t, ()):
                    if j != i:
                        yield Move.step(self.PILES[i].id, self.PILES[j].id)
        yield Move(action="redeal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        # where the card comes from
        if si not in self.PACKET_PILES:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if not step.top:
            return IllegalMove(RULE_I, "Only the uppermost card of a packet is available; "
                               "the cards beneath are released one by one as the cards above "
                               "them go.")
        # where it goes
        if di not in self.PACKET_PILES:
            return self.FOUNDATION_SET.refusal(state, di, card, self.foundation_spec(di), RULE_II,
                                            self.FOUNDATION_RULE,
                                            follow="The foundations must follow suit")
        if di == si:
            return IllegalMove(self.board_rule(),
                               f"The {card.name} is already on {self.PILES[si].label}.")
        target = state.piles[di]
        if not target:
            return IllegalMove(MARRIAGES, "An empty place in the tableau stays empty: cards "
                               "are married only onto the uppermost card of another packet.")
        if not self.marries(tuple(code(c) for c in target[-2:]), code(card)):
            return self.marriage_refusal(target, card)
        return None

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action != "redeal":
            return IllegalMove(self.board_rule(), f"{self.title} has no action {action!r}.")
        if self.redeals_left(state) <= 0:
            return IllegalMove(REDEAL, "The tableau may be re-dealt only twice, and both "
                               "re-deals have been made.")
        if not any(state.piles[i] for i in self.PACKET_PILES):
            return IllegalMove(REDEAL, "The tableau is empty: there is nothing to re-deal.")
        if self.options.redeal_timing is RedealTiming.NO_PLAY:
            card = self.playable(state)
            if card is not None:
                return IllegalMove(REDEAL, "The tableau is re-dealt only when there are no "
                                   f"more available cards to play: the {card.name} can "
                                   "still be played.")
        return None

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        redeals = state.vars[0]
        packets = self.PACKET_PILES
        if move.action == "redeal":
            redeals += 1
            left = sorted(c for i in packets for c in piles[i])
            cards = tuple(shuffled(left, self._seed(), stream=redeals))
            piles[packets.start:packets.stop] = deal_packets(cards, self.DEAL_ORDER)
        else:
            step = self.resolve_step(state, move)
            assert isinstance(step, Step), "apply() is given legal moves only"
            piles[step.src] = piles[step.src][:-1]
            piles[step.dst] = piles[step.dst] + (step.card,)
        return State(tuple(piles), (redeals,))

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: the other answer of :meth:`outcome_of` (LOST when no move is
        left) costs a search for moves, and is a dead end to the solver anyway."""
        if sum(len(state.piles[f]) for f in self.foundation_piles()) == self.cards():
            return Outcome.WON
        return None

    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """No rule looks at a packet's place (a card marries onto any packet, and a re-deal
        gathers the cards whatever their places), nor tells apart two foundations that
        rise from the aces of one suit (The House in the Wood's)."""
        fs = self.FOUNDATION_SET
        twins = tuple((f, f + 4) for f in fs.asc if f + 4 in fs.asc)
        return (tuple(self.PACKET_PILES),) + twins

    def outcome_of(self, state: State) -> Outcome | None:
        if sum(len(state.piles[f]) for f in self.foundation_piles()) == self.cards():
            return Outcome.WON
        # With one pack a card can be married onto one card only, and then never moves
        # again except to its foundation: every move is progress, play cannot go round in a
        # circle, and a position with no legal move (the re-deals spent) is final (BL-8).
        return None if self.has_legal_move(state) else Outcome.LOST

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        if out is Outcome.WON:
            return f"Won: all {self.cards()} cards are on the foundations."
        if out is Outcome.LOST:
            return "Nothing more can be done: the patience has failed."
        done = sum(len(state.piles[f]) for f in self.foundation_piles())
        packets = sum(1 for i in self.PACKET_PILES if state.piles[i])
        deal = ("First", "Second", "Third")[self.var(state, "redeals")]
        left = self.redeals_left(state)
        return " · ".join([
            f"{deal} deal",
            f"re-deals left: {left}",
            f"tableau: {plural(packets, 'packet')}",
            f"on the foundations: {done} of {self.cards()}",
        ])

    def describe(self, state: State, move: Move) -> str:
        if move.action == "redeal":
            return "The tableau is taken up, shuffled and dealt again in packets of three."
        step = self.resolve_step(state, move)
        if isinstance(step, Step) and step.dst in self.PACKET_PILES and state.piles[step.dst]:
            target = state.piles[step.dst][-1]
            return (f"The {step.card.name} from {self.PILES[step.src].label} is married to "
                    f"the {target.name} on {self.PILES[step.dst].label}.")
        if isinstance(step, Step) and step.src in self.PACKET_PILES:
            return (f"The {step.card.name} from {self.PILES[step.src].label} is played to the "
                    f"{self.foundation_spec(step.dst).label}.")
        return super().describe(state, move)


# ---- The House in the Wood ---------------------------------------------------------------

_WOOD_PILES = _two_pack_piles(("1", "2"))
_HILL_PILES = _two_pack_piles(("A–K", "K–A"))
_TWO_FOUNDATIONS = range(_TWO_PACKETS, _TWO_PACKETS + 8)


class TheHouseInTheWood(LaBelleLucie):
    """La Belle Lucie with two packs: eight foundations, two rising from the aces of each
    suit; thirty-six packets; everything else as in the one-pack game."""

    slug = "the-house-in-the-wood"
    title = "The House in the Wood"
    packs = 2
    Options = HouseInTheWoodOptions
    PILES = _WOOD_PILES
    GRID = (9.5, 8.4)
    LAYOUTS = (_two_pack_narrow(_WOOD_PILES),)
    FIGURES = (
        Figure("tableau", "The House in the Wood just after the deal.",
               "The tableau of The House in the Wood just after the deal, drawn in modern "
               "cards: thirty-six packets, each fanned to the right, laid out as La Belle "
               "Lucie’s plate twice over, one copy above the other: rows of five, five, "
               "three and five packets, every packet of three cards except the single card "
               "in the middle of each bottom row; on the right, a column of eight empty "
               "places for the foundations, four beside each copy of the plate, one for each "
               "suit."),
    )
    PACKET_PILES = range(0, _TWO_PACKETS)
    DEAL_ORDER = TWO_DEAL_ORDER
    #: Eight foundations rising from the aces: two for each suit.
    FOUNDATION_SET = SuitFoundations(_TWO_FOUNDATIONS, range(0))
    FOUNDATION_RULE = HOUSE_IN_THE_WOOD
    #: How a sentence tells the two foundations of a suit apart: those beside the upper plate,
    #: then those beside the lower.
    FOUNDATION_WORDS: ClassVar[tuple[str, str]] = ("first", "second")

    @classmethod
    def foundation_spec(cls, f: int) -> PileSpec:
        """The foundation's place, named in full ("the second hearts foundation"): its label
        on the board is short ("hearts 2")."""
        words = cls.FOUNDATION_WORDS[(f - cls.PACKET_PILES.stop) // 4]
        return replace(cls.PILES[f],
                       label=f"{words} {cls.FOUNDATION_SET.suit(f).noun} foundation")

    @classmethod
    def board_rule(cls) -> str:
        return WOOD_BOARD

    @classmethod
    def first_deal(cls, cards: tuple[Card, ...], options: Any) -> list[tuple[Card, ...]]:
        """BL-12: “double the number of packets”. By default each pack's worth of cards is
        dealt as La Belle Lucie's, in its own copy of the plate: seventeen packets of three
        and a single card, twice; under the other reading the hundred and four cards go in
        threes to the end, thirty-four packets and a last packet of two."""
        if options.packets is Packets.THREES:
            return deal_packets(cards, cls.DEAL_ORDER)
        first, second = cards[CARDS:], cards[:CARDS]  # the pack's top is its last card
        return (deal_packets(first, DEAL_ORDER)
                + deal_packets(second, DEAL_ORDER))

    def outcome_of(self, state: State) -> Outcome | None:
        out = super().outcome_of(state)
        if out is not None or self.redeals_left(state) > 0:
            return out
        # With two packs a card may pass to and fro between two equal cards, so play does not
        # end by itself: once the re-deals are spent, the game is lost when no series of
        # marriages can bring a card to the foundations again (BL-16).
        reach = self.remembered(state, self.play_reachable)
        return Outcome.LOST if reach is False else None

    def play_reachable(self, state: State) -> bool | None:
        """Whether some series of marriages, the foundations as they stand, brings a card a
        foundation takes to the top of a packet: True, False, or None when the search gave
        up after :data:`SEARCH_LIMIT` positions.

        Positions that differ only in which place holds which packet are one. A packet's
        last card is never moved in the search: it uncovers nothing, and any card that could
        be married on it can be married on it where it lies (alone, it takes either way).
        Positions where a wanted card lies nearest the top of its packet are tried first."""
        fs = self.FOUNDATION_SET
        want: set[int] = set()
        for f in self.foundation_piles():
            rank = fs.next_rank(state, f)
            if rank is not None:
                want.add(code(Card(rank, fs.suit(f))))

        def depth(packets: tuple[tuple[int, ...], ...]) -> int:
            """How many cards lie above the wanted card nearest the top of its packet."""
            return min((len(p) - 1 - k for p in packets for k, c in enumerate(p) if c in want),
                       default=999)

        start = tuple(sorted(tuple(code(c) for c in state.piles[i])
                             for i in self.PACKET_PILES if state.piles[i]))
        if depth(start) == 0:
            return True
        seen = {start}
        heap = [(depth(start), 0, start)]
        n = 0
        while heap:
            _, _, packets = heapq.heappop(heap)
            tops: dict[int, list[int]] = {}
            for b, q in enumerate(packets):
                tops.setdefault(q[-1], []).append(b)
            for a, p in enumerate(packets):
                if len(p) == 1:
                    continue
                c = p[-1]
                for t in (c + 4, c - 4):
                    for b in tops.get(t, ()):
                        if b == a or not self.marries(packets[b], c):
                            continue
                        nxt = list(packets)
                        nxt[a], nxt[b] = p[:-1], packets[b] + (c,)
                        key = tuple(sorted(nxt))
                        if key in seen:
                            continue
                        d = depth(key)
                        if d == 0:
                            return True
                        if len(seen) >= SEARCH_LIMIT:
                            return None
                        seen.add(key)
                        n += 1
                        heapq.heappush(heap, (d, n, key))
        return False


# ---- The House on the Hill ---------------------------------------------------------------

class TheHouseOnTheHill(TheHouseInTheWood):
    """The House in the Wood with other foundations, an ace and a king of each suit, and
    marriages one above or one below."""

    slug = "the-house-on-the-hill"
    title = "The House on the Hill"
    Options = HouseOnTheHillOptions
    PILES = _HILL_PILES
    LAYOUTS = (_two_pack_narrow(_HILL_PILES),)
    FIGURES = (
        Figure("tableau", "The House on the Hill just after the deal.",
               "The tableau of The House on the Hill just after the deal, drawn in modern "
               "cards: thirty-six packets, each fanned to the right, laid out as La Belle "
               "Lucie’s plate twice over, one copy above the other: rows of five, five, "
               "three and five packets, every packet of three cards except the single card "
               "in the middle of each bottom row; on the right, a column of eight empty "
               "places for the foundations: four for the aces, one for each suit, beside the "
               "upper copy, and four for the kings beside the lower."),
    )
    #: For each suit a foundation rising from its ace and one falling from its king.
    FOUNDATION_SET = SuitFoundations(range(_TWO_PACKETS, _TWO_PACKETS + 4),
                                  range(_TWO_PACKETS + 4, _TWO_PACKETS + 8))
    FOUNDATION_RULE = HOUSE_ON_THE_HILL
    MARRIAGE_RULE = HOUSE_ON_THE_HILL
    FOUNDATION_WORDS = ("ascending", "descending")

    @classmethod
    def board_rule(cls) -> str:
        return HILL_BOARD

    def marries(self, packet: Sequence[int], card: int) -> bool:
        """“Marriages made both in ascending and descending lines”: on the uppermost card of
        a packet, of the same suit and one rank above or below. Under BL-14's other reading,
        a line that has begun to rise or fall (the two uppermost cards of one suit and next
        in value) goes on only the same way."""
        if not packet or abs(packet[-1] - card) != 4:
            return False
        if (self.options.marriage_lines is Lines.KEEP and len(packet) > 1
                and abs(packet[-2] - packet[-1]) == 4):
            return packet[-2] - packet[-1] == packet[-1] - card
        return True

    def marriage_refusal(self, packet: tuple[Card, ...], card: Card) -> IllegalMove:
        top = packet[-1]
        if top.suit is not card.suit:
            return IllegalMove(HOUSE_ON_THE_HILL, f"A marriage is made on a card of the same "
                               f"suit: the {card.name} cannot go on the {top.name}.")
        if abs(top.rank - card.rank) != 1:
            return IllegalMove(HOUSE_ON_THE_HILL, f"Marriages are made in ascending and "
                               f"descending lines, one card above or below: the {card.name} "
                               f"cannot go on the {top.name}.")
        below = packet[-2]
        way = "falls" if below.rank > top.rank else "rises"
        return IllegalMove(HOUSE_ON_THE_HILL, f"Under this reading a line keeps its "
                           f"direction: the line ending with the {top.name} {way}, so the "
                           f"{card.name} cannot go on it.")

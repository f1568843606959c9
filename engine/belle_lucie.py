"""La Belle Lucie (one pack), by the book: 1914 printing, plate p. 6, text p. 7.

Piles: eighteen packets, fanned so that every card shows, laid out as the plate lays them
(rows of five, five, three and five; the packet of one card in the middle of the bottom row);
four foundations below, one for each suit. Only the uppermost card of a packet moves: to its
foundation, or married onto the uppermost card of another packet, of the same suit and one
rank higher. The tableau may be taken up, shuffled and dealt again twice. See the chapter page
for the text each rule id points at, and its editorial notes (``note-bl-N``) for the readings
behind the options and decisions.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

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
HOUSE_IN_THE_WOOD = _rule("house-in-the-wood")  # the two-pack game with eight aces
HOUSE_ON_THE_HILL = _rule("house-on-the-hill")  # the two-pack game with aces and kings
BOARD = _rule("board")                # the board itself (notation errors, empty places)

PACKET = 3              # cards dealt together to make a packet
PACKET_PLACES = 18      # 17 packets of three and the last of one
REDEALS_ALLOWED = 2     # "(if necessary twice)": three deals in all
CARDS = 52


class RedealTiming(Enum):
    """BL-4: when the tableau may be taken up and re-dealt."""

    NO_PLAY = "no-play"  # only when no available card can be played to a foundation
    CHOICE = "choice"    # whenever the player chooses


@dataclass(frozen=True, slots=True)
class BelleLucieOptions:
    redeal_timing: RedealTiming = option(
        RedealTiming.NO_PLAY, note="note-bl-4", label="When the tableau may be re-dealt",
        labels={RedealTiming.NO_PLAY: "only when no card can be played to a foundation",
                RedealTiming.CHOICE: "whenever the player chooses"})


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

_FOUND_X = (2.0, 3.25, 4.5, 5.75)
_FOUND_Y = 4.3

PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"p{k}", f"packet {k + 1}", Role.TABLEAU, x, y, Fan.RIGHT,
                   fan_limit=_FAN_LIMIT) for k, (x, y) in enumerate(_PLACES))
    + tuple(PileSpec(f"f{j}", f"{s.noun} foundation", Role.FOUNDATION, _FOUND_X[j], _FOUND_Y)
            for j, s in enumerate(SUITS))
)

PACKETS = range(0, PACKET_PLACES)
FOUNDATION_PILES = range(PACKET_PLACES, PACKET_PLACES + 4)
FOUNDATION_SET = SuitFoundations(FOUNDATION_PILES, range(0))
SUIT_INDEX = {s: j for j, s in enumerate(SUITS)}


def _narrow() -> Layout:
    """For a phone: three packets to a row, in the plate's order, the foundations below."""
    at: dict[str, tuple[float, float, int]] = {}
    for k in PACKETS:
        at[PILES[k].id] = (_COL * (k % 3), float(k // 3), 0)
    for j, f in enumerate(FOUNDATION_PILES):
        at[PILES[f].id] = (0.2 + 1.25 * j, 6.3, 0)
    return Layout(name="narrow", max_width=560, grid=(5.4, 7.3), at=at)


def deal_packets(cards: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """The packets of a deal, in the order of :data:`DEAL_ORDER`: three cards dealt together
    at a time from the top of the pack (its last card), the last packet taking what is left
    (one card in the first deal). Places beyond the last packet stay empty."""
    packets: list[tuple[Card, ...]] = [()] * PACKET_PLACES
    stock = cards
    for place in DEAL_ORDER:
        packets[place], stock = deal_together(stock, PACKET)
    assert not stock, "more cards than the plate's eighteen places hold"
    return packets


class LaBelleLucie(Game):
    slug = SLUG
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
    LEDGER = {
        RULE_I: "Only the uppermost card of a packet can be moved; a card beneath is refused "
                "until every card above it has gone (BL-1).",
        RULE_II: "A card is refused on the foundation of another suit; each of the four "
                 "places belongs to one suit (BL-6).",
        DEAL: "The shuffled pack is dealt in packets of three cards taken together, seventeen "
              "of them, and a last packet of one card, in the plate’s places (BL-6).",
        FOUNDATIONS: "Each foundation begins with its ace and takes the next card of its "
                     "suit up to the king; cards on a foundation never leave it. The game is "
                     "won when all fifty-two cards are on the foundations (BL-8).",
        ACES: "The uppermost card of any packet may be played to its foundation whenever it "
              "is the next card there; nothing is played for the player, and plays and "
              "marriages may come in any order (BL-7).",
        MARRIAGES: "The uppermost card of a packet may be married onto the uppermost card "
                   "of another packet of the same suit and one rank higher, one card at a "
                   "time; a place emptied stays empty (BL-2, BL-3).",
        REDEAL: "The tableau may be taken up, shuffled and dealt again in packets of three, "
                "twice at most, once no card can be played to a foundation (or whenever the "
                "player chooses, under BL-4’s other reading); the foundations stay (BL-5).",
        HOUSE_IN_THE_WOOD: "Not played on this board, which keeps to the one-pack game; "
                           "note BL-9 says how the two-pack game goes by the book.",
        HOUSE_ON_THE_HILL: "Not played on this board, which keeps to the one-pack game; "
                           "note BL-9 says how the two-pack game goes by the book.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        cards = tuple(shuffled(pack(1), deal))
        return State(tuple(deal_packets(cards)) + ((),) * 4, (0,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        for f in FOUNDATION_PILES:
            pile = state.piles[f]
            for k, card in enumerate(pile):
                if card.suit is not FOUNDATION_SET.suit(f) or card.rank != k + 1:
                    raise PositionError(f"the {PILES[f].label} is not built in order from "
                                        "its ace")
        if not 0 <= state.vars[0] <= REDEALS_ALLOWED:
            raise PositionError("the tableau is re-dealt at most twice")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def _seed(self) -> int:
        return self.deal if self.deal is not None else 0

    @staticmethod
    def _foundation_for(state: State, card: Card) -> int | None:
        """The foundation that takes ``card`` next, if any."""
        f = FOUNDATION_PILES[SUIT_INDEX[card.suit]]
        return f if FOUNDATION_SET.accepts(state, f, card) else None

    def playable(self, state: State) -> Card | None:
        """An uppermost card that can be played to its foundation (the first found)."""
        for i in PACKETS:
            p = state.piles[i]
            if p and self._foundation_for(state, p[-1]) is not None:
                return p[-1]
        return None

    def redeals_left(self, state: State) -> int:
        return REDEALS_ALLOWED - self.var(state, "redeals")

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        tops = {piles[i][-1]: i for i in PACKETS if piles[i]}  # one pack: each card once
        for i in PACKETS:
            if not piles[i]:
                continue
            card = piles[i][-1]
            f = self._foundation_for(state, card)
            if f is not None:
                yield Move.step(PILES[i].id, PILES[f].id)
            if card.rank < KING:
                j = tops.get(Card(card.rank + 1, card.suit))
                if j is not None:
                    yield Move.step(PILES[i].id, PILES[j].id)
        yield Move(action="redeal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        # where the card comes from
        if si in FOUNDATION_PILES:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if not step.top:
            return IllegalMove(RULE_I, "Only the uppermost card of a packet is available; "
                               "the cards beneath are released one by one as the cards above "
                               "them go.")
        # where it goes
        if di in FOUNDATION_PILES:
            return FOUNDATION_SET.refusal(state, di, card, PILES[di], RULE_II, FOUNDATIONS,
                                          follow="The foundations must follow suit")
        if di == si:
            return IllegalMove(BOARD, f"The {card.name} is already on {PILES[si].label}.")
        target = state.piles[di]
        if not target:
            return IllegalMove(MARRIAGES, "An empty place in the tableau stays empty: cards "
                               "are married only onto the uppermost card of another packet.")
        top = target[-1]
        if top.suit is not card.suit:
            return IllegalMove(MARRIAGES, f"A marriage is made on a card of the same suit: "
                               f"the {card.name} cannot go on the {top.name}.")
        if top.rank != card.rank + 1:
            if card.rank == KING:
                return IllegalMove(MARRIAGES, "Marriages are made in a descending line, and "
                                   "no card is higher than a king: a king is never married.")
            return IllegalMove(MARRIAGES, f"Marriages are made in a descending line: the "
                               f"{card.name} goes only on the "
                               f"{Card(card.rank + 1, card.suit).name}.")
        return None

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action != "redeal":
            return IllegalMove(BOARD, f"La Belle Lucie has no action {action!r}.")
        if self.redeals_left(state) <= 0:
            return IllegalMove(REDEAL, "The tableau may be re-dealt only twice, and both "
                               "re-deals have been made.")
        if not any(state.piles[i] for i in PACKETS):
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
        if move.action == "redeal":
            redeals += 1
            left = sorted(c for i in PACKETS for c in piles[i])
            cards = tuple(shuffled(left, self._seed(), stream=redeals))
            piles[:PACKET_PLACES] = deal_packets(cards)
        else:
            step = self.resolve_step(state, move)
            assert isinstance(step, Step), "apply() is given legal moves only"
            piles[step.src] = piles[step.src][:-1]
            piles[step.dst] = piles[step.dst] + (step.card,)
        return State(tuple(piles), (redeals,))

    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """The eighteen packets: no rule tells them apart by place (a re-deal sorts the
        cards it takes up before shuffling them)."""
        return (tuple(PACKETS),)

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: the other answer of :meth:`outcome_of` (LOST when no move is
        left) costs a search for moves, and is a dead end to the solver anyway."""
        if sum(len(state.piles[f]) for f in FOUNDATION_PILES) == CARDS:
            return Outcome.WON
        return None

    def outcome_of(self, state: State) -> Outcome | None:
        if sum(len(state.piles[f]) for f in FOUNDATION_PILES) == CARDS:
            return Outcome.WON
        # With one pack a card can be married onto one card only, and then never moves
        # again except to its foundation: every move is progress, play cannot go round in a
        # circle, and a position with no legal move (the re-deals spent) is final (BL-8).
        return None if self.has_legal_move(state) else Outcome.LOST

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        if out is Outcome.WON:
            return "Won: all fifty-two cards are on the foundations."
        if out is Outcome.LOST:
            return "Nothing more can be done: the patience has failed."
        done = sum(len(state.piles[f]) for f in FOUNDATION_PILES)
        packets = sum(1 for i in PACKETS if state.piles[i])
        deal = ("First", "Second", "Third")[self.var(state, "redeals")]
        left = self.redeals_left(state)
        return " · ".join([
            f"{deal} deal",
            f"re-deals left: {left}",
            f"tableau: {plural(packets, 'packet')}",
            f"on the foundations: {done} of {CARDS}",
        ])

    def describe(self, state: State, move: Move) -> str:
        if move.action == "redeal":
            return "The tableau is taken up, shuffled and dealt again in packets of three."
        step = self.resolve_step(state, move)
        if isinstance(step, Step) and step.dst in PACKETS and state.piles[step.dst]:
            target = state.piles[step.dst][-1]
            return (f"The {step.card.name} from {PILES[step.src].label} is married to the "
                    f"{target.name} on {PILES[step.dst].label}.")
        return super().describe(state, move)

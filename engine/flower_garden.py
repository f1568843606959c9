"""The Flower-Garden (one pack), by the book: 1914 printing, text p. 45 (plate p. 44).

Piles: the Garden, six packets of six cards dealt together and spread so that every card
shows, laid out as the plate lays them (two rows of three); the four foundations below,
one for each suit, begun by the aces and built up in suit to the kings (Rule II); and the
Bouquet, the sixteen cards left over, kept in the hand, every one of them available
(Rule I).

Only the uppermost card of a packet moves (Rule I): to its foundation, or onto the
uppermost card of another packet one rank higher, of any suit (Rule III and "descending
sequences"), or into a packet cleared off entirely, which any available card may begin.
A Bouquet card may go to the same places, and never comes back. Nothing is compulsory and
there is only one deal. Under the other reading of ``note-fg-1`` a descending sequence
lying on top of a packet may be transferred whole. See the chapter page for the text each
rule id points at, and its editorial notes (``note-fg-N``) for the readings behind the
option and the decisions.
"""

from __future__ import annotations

import dataclasses
import heapq
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import KING, RANK_NAMES, SUITS, Card, Suit, pack
from .core import (
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
from .rules import SuitFoundations, deal_together, plural

SLUG = "the-flower-garden"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # every Bouquet card and the Garden's uppermost cards
RULE_II = _rule("rule-2")             # the foundations must follow suit
RULE_III = _rule("rule-3")            # sequences on the Garden need not follow suit
DEAL = _rule("deal")                  # six packets of six dealt together, all cards visible
FOUNDATIONS = _rule("foundations")    # the four aces, ascending in sequence to kings
BOUQUET = _rule("bouquet")            # the sixteen cards left: the Bouquet, kept in the hand
PLAY = _rule("play")                  # aces and suitable cards from Bouquet and Garden played
SEQUENCES = _rule("sequences")        # descending sequences in the Garden, Bouquet cards too
EXAMPLE = _rule("example")            # the four of diamonds on the five of clubs, and so on
NO_RETURN = _rule("no-return")        # cards taken from the Bouquet cannot be returned to it
ONE_DEAL = _rule("one-deal")          # there is only one deal
NOT_OBLIGED = _rule("not-obliged")    # you are not obliged to place or to play
NEW_PACKET = _rule("new-packet")      # a packet cleared off: begin a new one with any card
KING_RULE = _rule("king")             # a king, the highest card, can never be transferred
BOARD = _rule("board")                # the board itself (notation errors, empty places)

PACKETS_DEALT = 6       # "six packets"
PACKET = 6              # "of six cards dealt together"
CARDS = 52
SEARCH_LIMIT = 1500     # positions explored at most when judging whether a game is lost


class Transfer(Enum):
    """FG-1: what may be transferred from one packet to another."""

    SINGLE = "single"  # the uppermost card only, one at a time (Rule I)
    RUNS = "runs"      # also a descending sequence lying on top of a packet, whole


@dataclass(frozen=True, slots=True)
class FlowerGardenOptions:
    transfer: Transfer = option(
        Transfer.SINGLE, note="note-fg-1", label="Cards are transferred in the Garden",
        labels={Transfer.SINGLE: "one at a time, the uppermost card only (Rule I)",
                Transfer.RUNS: "one at a time, or a descending sequence lying on top of a "
                               "packet all together"})


# ---------------------------------------------------------------------------- the layout
# The plate: two rows of three packets, each fanned to the right, and four places for the
# foundations below them. The Bouquet, which the plate does not show (it is "kept in the
# hand"), lies below the foundations, fanned like a hand of cards.

#: How far a packet's fan may spread to the right, in card widths, before its cards close up.
PACKET_SPREAD = 1.7
_PACKET_X = (0.1, 3.0, 5.9)
_ROW_Y = (0.25, 1.3)
_FOUND_Y = 2.55
_FOUND_X = (1.85, 3.1, 4.35, 5.6)
_BOUQUET_Y = 3.9
#: How far the Bouquet's sixteen cards spread to the right, in card widths.
HAND_SPREAD = 4.6
#: The order of the suits in the hand, the colours alternating (FG-3).
HAND_ORDER: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)

PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"p{k}", f"packet {k + 1}", Role.TABLEAU, _PACKET_X[k % 3], _ROW_Y[k // 3],
                   Fan.RIGHT, fan_limit=PACKET_SPREAD) for k in range(PACKETS_DEALT))
    + (PileSpec("bq", "the Bouquet", Role.RESERVE, 0.2, _BOUQUET_Y, Fan.RIGHT,
                fan_limit=HAND_SPREAD),)
    + tuple(PileSpec(f"f{j}", s.noun, Role.FOUNDATION, _FOUND_X[j], _FOUND_Y)
            for j, s in enumerate(SUITS))
)

PACKETS = range(0, PACKETS_DEALT)
BQ = PACKETS_DEALT
FOUNDATION_PILES = range(BQ + 1, BQ + 5)
FOUNDATION_SET = SuitFoundations(FOUNDATION_PILES, range(0))
SUIT_INDEX = {s: j for j, s in enumerate(SUITS)}


def foundation_name(pile: int) -> str:
    """The full name of a foundation place (the board labels it by its suit alone)."""
    return f"{PILES[pile].label} foundation"


def _narrow_layout() -> Layout:
    """For a phone: the packets two to a row, the foundations and the Bouquet below."""
    at: dict[str, tuple[float, float, int]] = {}
    for k in PACKETS:
        at[PILES[k].id] = ((0.05, 2.7)[k % 2], 0.25 + 1.05 * (k // 2), 0)
    for n, f in enumerate(FOUNDATION_PILES):
        at[PILES[f].id] = (0.2 + 1.25 * n, 3.6, 0)
    at["bq"] = (0.03, 4.95, 0)
    return Layout(name="narrow", max_width=560, grid=(5.2, 6.0), at=at,
                  regions=(Region("The Garden", 0.0, 0.0, 5.2, 3.4),
                           Region("The Bouquet", 0.0, 4.7, 5.2, 1.3)))


def hand_key(card: Card) -> tuple[int, int]:
    """Where a card goes in the Bouquet as the board holds it: by suit, then by rank."""
    return HAND_ORDER.index(card.suit), card.rank


def deal_garden(cards: tuple[Card, ...]) -> tuple[list[tuple[Card, ...]], tuple[Card, ...]]:
    """The six packets of a deal, six cards dealt together at a time from the top of the pack
    (its last card), and the sixteen cards left over, sorted as a hand (FG-3)."""
    packets: list[tuple[Card, ...]] = []
    stock = cards
    for _ in PACKETS:
        packet, stock = deal_together(stock, PACKET)
        packets.append(packet)
    return packets, tuple(sorted(stock, key=hand_key))


def in_sequence(card: Card, target: Card) -> bool:
    """Whether ``card`` may be placed on ``target`` in the Garden: one rank lower, of any
    suit (Rule III; the sequences are descending)."""
    return card.rank + 1 == target.rank


def run_start(packet: tuple[Card, ...]) -> int:
    """The index of the lowest card of the descending sequence lying on top of ``packet``
    (the top card's own index when the card beneath it is not one rank higher)."""
    k = len(packet) - 1
    while k > 0 and in_sequence(packet[k], packet[k - 1]):
        k -= 1
    return k


class TheFlowerGarden(Game):
    slug = SLUG
    title = "The Flower-Garden"
    packs = 1
    Options = FlowerGardenOptions
    PILES = PILES
    GRID = (8.6, 4.95)
    REGIONS = (Region("The Garden", 0.0, 0.0, 8.6, 2.35),
               Region("The Bouquet", 0.0, 3.65, 8.6, 1.3))
    LAYOUTS = (_narrow_layout(),)
    DIAGRAM_DEAL = 1  # no ace on the surface of a packet, nor in the Bouquet: nothing to play
    FIGURES = (
        Figure("tableau", "The Flower-Garden just after the deal, in modern cards.",
               "The Garden of The Flower-Garden just after the deal, drawn in modern cards: "
               "six packets of six cards in two rows of three, each packet fanned to the "
               "right so that every card shows, the uppermost card on the right; below them, "
               "four empty places in a row for the foundations, one for each suit. The "
               "sixteen cards of the Bouquet, kept in the hand, are not shown, as on the "
               "plate.",
               piles=tuple(p.id for p in PILES if p.id != "bq")),
    )
    LEDGER = {
        RULE_I: "Every card of the Bouquet may be moved at any time, and the uppermost card "
                "of each packet; a card lower in a packet is refused until the cards above "
                "it have gone (under FG-1’s other reading, unless it heads a descending "
                "sequence moved whole onto another packet).",
        RULE_II: "Each of the four foundation places belongs to one suit, and a card of "
                 "another suit is refused there.",
        RULE_III: "A card is placed on a card one rank higher in the Garden whatever the "
                  "suits and colours of the two cards (FG-2).",
        DEAL: "The shuffled pack is dealt in six packets of six cards taken together, laid in "
              "two rows of three as in the plate and fanned so that every card shows (FG-7).",
        FOUNDATIONS: "Each foundation begins with its ace and takes the next card of its suit "
                     "up to the king; cards on a foundation never leave it, and the game is "
                     "won when all fifty-two are there (FG-6, FG-8).",
        BOUQUET: "The sixteen cards left after the deal are the Bouquet, held face up in the "
                 "hand, sorted by suit and rank; every one of them is shown and available "
                 "(FG-3).",
        PLAY: "Any Bouquet card, and the uppermost card of any packet, may be played to its "
              "foundation whenever it is the next card there.",
        SEQUENCES: "A Bouquet card or the uppermost card of a packet may be placed on the "
                   "uppermost card of another packet one rank higher, as often as the player "
                   "likes; by default one card at a time, under FG-1’s other reading also a "
                   "descending sequence whole (FG-1, FG-2).",
        EXAMPLE: "The example plays on the board move by move: the four of diamonds onto the "
                 "five of clubs, the ten of hearts from the Bouquet onto the knave of "
                 "diamonds, the nine of clubs onto the ten, and the ace and deuce of diamonds "
                 "released are played.",
        NO_RETURN: "No card is ever put into the Bouquet: a move to it is refused.",
        ONE_DEAL: "There is no re-deal; the game is lost once no series of moves can bring "
                  "another card to a foundation (FG-8).",
        NOT_OBLIGED: "Nothing is played or placed for the player, and plays and placings may "
                     "come in any order (FG-5).",
        NEW_PACKET: "A packet cleared off entirely may be begun again, when the player likes, "
                    "with any one Bouquet card or uppermost Garden card, of any rank (FG-4).",
        KING_RULE: "A king is refused on any card, since none is higher; it leaves its packet "
                   "only to a foundation or to begin a packet cleared off (FG-2, FG-4).",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        packets, bouquet = deal_garden(tuple(shuffled(pack(1), deal)))
        return State(tuple(packets) + (bouquet,) + ((),) * 4)

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        for f in FOUNDATION_PILES:
            for k, card in enumerate(state.piles[f]):
                if card.suit is not FOUNDATION_SET.suit(f) or card.rank != k + 1:
                    raise PositionError(f"the {foundation_name(f)} is not built in order "
                                        "from its ace")
        return state

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def foundation_for(state: State, card: Card) -> int | None:
        """The foundation that takes ``card`` next, if any."""
        f = FOUNDATION_PILES[SUIT_INDEX[card.suit]]
        return f if FOUNDATION_SET.accepts(state, f, card) else None

    @staticmethod
    def available(state: State) -> Iterator[tuple[str, Card]]:
        """Every available card with its reference: the Bouquet's, and each packet's top."""
        hand = state.piles[BQ]
        for k, card in enumerate(hand):
            yield ("bq" if k == len(hand) - 1 else f"bq:{k}"), card
        for i in PACKETS:
            if state.piles[i]:
                yield PILES[i].id, state.piles[i][-1]

    def playable(self, state: State) -> Card | None:
        """An available card that can be played to its foundation now (the first found)."""
        for _, card in self.available(state):
            if self.foundation_for(state, card) is not None:
                return card
        return None

    def runs_allowed(self) -> bool:
        return bool(self.options.transfer is Transfer.RUNS)

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        empty = [i for i in PACKETS if not piles[i]]
        for ref, card in self.available(state):
            f = self.foundation_for(state, card)
            if f is not None:
                yield Move.step(ref, PILES[f].id)
            for j in PACKETS:
                if piles[j] and in_sequence(card, piles[j][-1]):
                    yield Move.step(ref, PILES[j].id)
            src = ref.split(":")[0]
            for j in empty:
                if src != PILES[j].id:
                    yield Move.step(ref, PILES[j].id)
        if self.runs_allowed():
            for i in PACKETS:
                p = piles[i]
                if not p:
                    continue
                for k in range(run_start(p), len(p) - 1):
                    for j in PACKETS:
                        if j != i and piles[j] and in_sequence(p[k], piles[j][-1]):
                            yield Move.step(f"{PILES[i].id}:{k}", PILES[j].id)

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        if si == di:
            return IllegalMove(BOARD, f"The {card.name} is already in {PILES[si].label}.")
        if si in FOUNDATION_PILES:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if di == BQ:
            return IllegalMove(NO_RETURN, "Cards taken from the Bouquet cannot be returned to "
                               "it, and no other card joins it.")
        run = 1
        if si in PACKETS and not step.top:
            if not self.runs_allowed():
                return IllegalMove(RULE_I, "Only the uppermost card of a packet is available; "
                                   "the cards beneath are released as the cards above them "
                                   "go.")
            pile = state.piles[si]
            if step.k < run_start(pile):
                return IllegalMove(RULE_I, f"Only the uppermost card of a packet, or a "
                                   f"descending sequence lying on top of it, may be moved: "
                                   f"the cards above the {card.name} are not in sequence.")
            if di in FOUNDATION_PILES:
                return IllegalMove(RULE_I, "Cards are played to the foundations one at a "
                                   "time, the uppermost first.")
            run = len(pile) - step.k
        if di in FOUNDATION_PILES:
            named = dataclasses.replace(PILES[di], label=foundation_name(di))
            return FOUNDATION_SET.refusal(state, di, card, named, RULE_II, FOUNDATIONS,
                                          follow="The foundations must follow suit")
        target = state.piles[di]
        if not target:
            if run > 1:
                return IllegalMove(NEW_PACKET, "A packet cleared off is begun again with a "
                                   "single card, not with a sequence.")
            return None
        top = target[-1]
        if in_sequence(card, top):
            return None
        if card.rank == KING:
            return IllegalMove(KING_RULE, "A king, being the highest card, can never be "
                               "transferred onto another card: it leaves its place only "
                               "for its foundation, or to begin a packet cleared off.")
        what = f"the sequence from the {card.name}" if run > 1 else f"the {card.name}"
        return IllegalMove(SEQUENCES, f"Cards are placed in descending sequence, of any suit: "
                           f"{what} goes only on a {RANK_NAMES[card.rank + 1]}, not on the "
                           f"{top.name}.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action in ("deal", "redeal"):
            return IllegalMove(ONE_DEAL, "There is only one deal: the cards are all laid out "
                               "at the start, and never dealt again.")
        return IllegalMove(BOARD, f"The Flower-Garden has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        step = self.resolve_step(state, move)
        assert isinstance(step, Step), "apply() is given legal moves only"
        piles = list(state.piles)
        src = piles[step.src]
        if step.src == BQ:
            moved: tuple[Card, ...] = (step.card,)
            piles[BQ] = src[:step.k] + src[step.k + 1:]
        else:
            moved = src[step.k:]
            piles[step.src] = src[:step.k]
        piles[step.dst] = piles[step.dst] + moved
        return State(tuple(piles), state.vars)

    # ---- the end ---------------------------------------------------------------------
    def _reachable_play(self, state: State) -> bool | None:
        """With the foundations as they stand: True if some series of transfers in the
        Garden (Bouquet cards included) lets a card be played, False if none does, None if
        the search gave up (too many positions)."""
        wanted = {Card(need, FOUNDATION_SET.suit(f)) for f in FOUNDATION_PILES
                  if (need := FOUNDATION_SET.next_rank(state, f)) is not None}
        if any(c in wanted for c in state.piles[BQ]):
            return True
        # Until a card is played the foundations stay as they are, and a card matters only
        # by its rank (what it may go on, and what may go on it) and by whether a foundation
        # wants it: every other card of the same rank is as good. So a card is coded as
        # 2 * rank, plus 1 for a wanted card; the Bouquet (which holds no wanted card) is
        # the sorted ranks of its cards; and the packets, which no rule tells apart by
        # place, are sorted.
        def code(c: Card) -> int:
            return 2 * c.rank + (c in wanted)

        runs = self.runs_allowed()
        Cols = tuple[tuple[int, ...], ...]
        Key = tuple[Cols, tuple[int, ...]]
        covered: dict[tuple[int, ...], int] = {}

        def depth(cols: Cols) -> int:
            """How many cards cover the nearest wanted card of the Garden."""
            best = CARDS
            for p in cols:
                d = covered.get(p)
                if d is None:
                    d = next((len(p) - 1 - k for k in range(len(p) - 1, -1, -1)
                              if p[k] & 1), CARDS)
                    covered[p] = d
                best = min(best, d)
            return best

        start: Key = (tuple(sorted(tuple(code(c) for c in state.piles[i]) for i in PACKETS)),
                      tuple(sorted(c.rank for c in state.piles[BQ])))
        seen = {start}
        heap = [(depth(start[0]), 0, start)]
        count = 0
        while heap:
            d, _, (cols, hand) = heapq.heappop(heap)
            if d == 0:
                return True  # a wanted card is uppermost in its packet
            nexts: list[Key] = []
            empty = next((b for b, q in enumerate(cols) if not q), None)
            for a, p in enumerate(cols):
                if not p:
                    continue
                first = run_start_codes(p) if runs else len(p) - 1
                for k in range(first, len(p)):
                    rank = p[k] >> 1
                    for b, q in enumerate(cols):
                        if b != a and q and q[-1] >> 1 == rank + 1:
                            nxt = list(cols)
                            nxt[a], nxt[b] = p[:k], q + p[k:]
                            nexts.append((tuple(sorted(nxt)), hand))
                if empty is not None and len(p) > 1:
                    nxt = list(cols)
                    nxt[a], nxt[empty] = p[:-1], p[-1:]
                    nexts.append((tuple(sorted(nxt)), hand))
            for n, rank in enumerate(hand):
                if n and hand[n - 1] == rank:
                    continue  # the same move as with the card before it
                rest = hand[:n] + hand[n + 1:]
                for b, q in enumerate(cols):
                    if (q and q[-1] >> 1 == rank + 1) or b == empty:
                        nxt = list(cols)
                        nxt[b] = q + (2 * rank,)
                        nexts.append((tuple(sorted(nxt)), rest))
            for key in nexts:
                if key not in seen:
                    if len(seen) >= SEARCH_LIMIT:
                        return None
                    seen.add(key)
                    count += 1
                    heapq.heappush(heap, (depth(key[0]), count, key))
        return False

    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """The six packets of the Garden: no rule tells them apart by place."""
        return (tuple(PACKETS),)

    def outcome_of(self, state: State) -> Outcome | None:
        if sum(len(state.piles[f]) for f in FOUNDATION_PILES) == CARDS:
            return Outcome.WON
        if self.playable(state) is not None:
            return None
        memo: dict[tuple[State, Any], bool | None] = self.__dict__.setdefault("_memo", {})
        key = (state, self.options)
        if key not in memo:
            if len(memo) > 256:
                memo.clear()
            memo[key] = self._reachable_play(state)
        # Cards can be moved back and forth between packets for ever; the game is lost when
        # no series of moves can bring another card to a foundation (FG-8).
        return Outcome.LOST if memo[key] is False else None

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        done = sum(len(state.piles[f]) for f in FOUNDATION_PILES)
        if out is Outcome.WON:
            return "Won: all fifty-two cards are on the foundations."
        if out is Outcome.LOST:
            return (f"No card can reach the foundations any more: the patience has failed "
                    f"with {done} of {CARDS} cards played.")
        parts = [f"Bouquet: {plural(len(state.piles[BQ]), 'card')}",
                 f"on the foundations: {done} of {CARDS}"]
        empty = sum(1 for i in PACKETS if not state.piles[i])
        if empty:
            parts.insert(1, plural(empty, "packet") + " cleared off, to begin again with any "
                         "card")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        step = self.resolve_step(state, move)
        if not isinstance(step, Step):
            return super().describe(state, move)
        card, src, dst = step.card, PILES[step.src].label, PILES[step.dst].label
        where = "from the Bouquet" if step.src == BQ else f"from {src}"
        if step.dst in FOUNDATION_PILES:
            return f"The {card.name} is played {where} to the {foundation_name(step.dst)}."
        target = state.piles[step.dst]
        if not target:
            return f"The {card.name} {where} begins a new packet in the place of {dst}."
        top = target[-1]
        pile = state.piles[step.src]
        if step.src != BQ and len(pile) - step.k > 1:
            return (f"The sequence from the {card.name} down to the {pile[-1].name} is "
                    f"transferred from {src} onto the {top.name} in {dst}.")
        return f"The {card.name} {where} is placed on the {top.name} in {dst}."


def run_start_codes(p: tuple[int, ...]) -> int:
    """:func:`run_start` for the cards of the search in :meth:`TheFlowerGarden._reachable_play`
    (coded ``2 * rank`` plus a flag)."""
    k = len(p) - 1
    while k > 0 and p[k] >> 1 == (p[k - 1] >> 1) - 1:
        k -= 1
    return k

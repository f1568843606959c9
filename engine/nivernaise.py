"""La Nivernaise (two packs), by the book: 1914 printing, pp. 34–36.

Piles: the pack; two Flanks of four single cards; eight foundations (an ascending and a
descending pile per suit); the Line of six packets. See the chapter page for the text each
rule id points at, and its editorial notes (``note-ni-N``) for the readings behind the
options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import SUITS, Card, pack
from .core import (
    ActionSpec,
    Fan,
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
from .rules import SuitFoundations, plural

SLUG = "la-nivernaise"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")          # only the uppermost card of a packet is available
RULE_II = _rule("rule-2")         # examine as many cards as there are Flank vacancies
RULE_III = _rule("rule-3")        # foundations follow suit
RULE_IV = _rule("rule-4")         # re-deal pick-up
LAYOUT = _rule("layout")          # two Flanks of four, room for the foundations between
FOUNDATIONS = _rule("foundations")  # kings descend to aces, aces ascend to kings
LINE_DEAL = _rule("line")         # six packets of four dealt together: the Line
SOURCES = _rule("sources")        # play from the surface of the Line or the Flanks
FLANK_FILL = _rule("flank-fill")  # vacancies filled from the pack or from the Line
PACKET_REFILL = _rule("packet-refill")  # single cards not replaced; whole packet is
ROUNDS = _rule("rounds")          # deal successive rounds when resources are exhausted
REDEAL = _rule("redeal")          # whole pack dealt, progress at an end: re-deal
ONE_REDEAL = _rule("one-redeal")  # only one re-deal
EXCHANGE = _rule("exchange")      # one card at a time between ascending and descending
BOARD = _rule("board")            # the board itself (notation errors, empty places)

PACKET = 4          # cards dealt together to make or add to a packet
LINE_PACKETS = 6
FLANK_PLACES = 8
REDEALS_ALLOWED = 1


class ExamineCount(Enum):
    """NI-2: what Rule II's count of examined cards includes."""

    BENEATH = "beneath"    # n vacancies: n cards under the top may be seen
    WITH_TOP = "with-top"  # n vacancies: the top n cards, the top among them


class ExaminedUse(Enum):
    """NI-1: what an examined card may be used for."""

    LOOK = "look"                      # looked at only (Rule I)
    PLAY = "play"                      # may also be played to a foundation
    PLAY_AND_FILL = "play-and-fill"    # ... or moved into a Flank vacancy


class DealTiming(Enum):
    """NI-5: when the next round may be dealt (and the re-deal made)."""

    CHOICE = "choice"  # whenever the player judges the resources exhausted
    STUCK = "stuck"    # only when no card can be played to a foundation


class Pickup(Enum):
    """NI-7: how Rule IV's picking-up of the Line orders the new pack."""

    UNDER = "under"  # each packet put under the last: the right-hand packet comes out first
    OVER = "over"    # each packet put on the last: the left-hand packet comes out first


@dataclass(frozen=True, slots=True)
class NivernaiseOptions:
    examine_count: ExamineCount = option(
        ExamineCount.BENEATH, note="note-ni-2", label="Cards examined per Flank vacancy",
        labels={ExamineCount.BENEATH: "that many cards beneath the top",
                ExamineCount.WITH_TOP: "that many cards, the top included"})
    examined_use: ExaminedUse = option(
        ExaminedUse.LOOK, note="note-ni-1", label="What examined cards may do",
        labels={ExaminedUse.LOOK: "be looked at only (Rule I)",
                ExaminedUse.PLAY: "be played to the foundations",
                ExaminedUse.PLAY_AND_FILL: "be played, or moved to the Flanks"})
    deal_timing: DealTiming = option(
        DealTiming.CHOICE, note="note-ni-5", label="When a round may be dealt",
        labels={DealTiming.CHOICE: "when the player chooses",
                DealTiming.STUCK: "only when no card can go to a foundation"})
    pickup: Pickup = option(
        Pickup.UNDER, note="note-ni-7", label="Picking up the Line for the re-deal",
        labels={Pickup.UNDER: "each packet under the last (right-hand packet first)",
                Pickup.OVER: "each packet on the last (left-hand packet first)"})
    exchange_base: bool = option(
        True, note="note-ni-8", label="An exchange may empty a pile, or begin one",
        labels={True: "yes: the ace or king that began a pile may pass across, and back",
                False: "no: only between two piles that both keep a card"})


def _flank(i: int) -> PileSpec:
    side, place = ("left", i + 1) if i < 4 else ("right", i - 3)
    return PileSpec(f"f{i}", f"{side} Flank, place {place}", Role.RESERVE,
                    x=1.0 if i < 4 else 5.0, y=float(i % 4))


# The upper block is centred over the Line and the pack (x 0 to 7).
_ASC_X, _DESC_X = 2.5, 3.5

PILES: tuple[PileSpec, ...] = (
    (PileSpec("stock", "the pack", Role.STOCK, x=6.0, y=4.3),)
    + tuple(_flank(i) for i in range(FLANK_PLACES))
    + tuple(PileSpec(f"a{j}", f"ascending {s.noun} foundation", Role.FOUNDATION, _ASC_X, float(j),
                     mark=f"{s.symbol} A–K")
            for j, s in enumerate(SUITS))
    + tuple(PileSpec(f"k{j}", f"descending {s.noun} foundation", Role.FOUNDATION, _DESC_X,
                     float(j), mark=f"{s.symbol} K–A") for j, s in enumerate(SUITS))
    + tuple(PileSpec(f"l{j}", f"Line packet {j + 1}", Role.TABLEAU, float(j), 4.3, Fan.DOWN)
            for j in range(LINE_PACKETS))
)

STOCK = 0
FLANKS = range(1, 1 + FLANK_PLACES)
ASC = range(9, 13)
DESC = range(13, 17)
FOUNDATION_SET = SuitFoundations(ASC, DESC)
LINE = range(17, 23)
FOUNDATION_PILES = range(9, 17)
SUIT_INDEX = {s: j for j, s in enumerate(SUITS)}


def _deal_block(stock: tuple[Card, ...], n: int = PACKET) -> tuple[tuple[Card, ...],
                                                                     tuple[Card, ...]]:
    """Take up to ``n`` cards off the top of the pack together and turn them face up:
    returns (the packet, bottom to top; the rest of the pack). The card that was on top of
    the pack ends at the bottom of the face-up block."""
    k = min(n, len(stock))
    if k == 0:
        return (), stock
    block = stock[-k:][::-1]
    return block, stock[:-k]


class LaNivernaise(Game):
    slug = SLUG
    title = "La Nivernaise"
    packs = 2
    Options = NivernaiseOptions
    PILES = PILES
    VARS = ("redeals",)
    GRID = (7.0, 5.3)
    FIGURES = (
        Figure("tableau", "La Nivernaise just after the deal.",
               "The tableau of La Nivernaise just after the deal, drawn in modern cards: a "
               "Flank of four single cards on each side, eight empty foundation places in the "
               "centre (an ascending and a descending pile for each suit), the Line of six "
               "packets of four cards below, and the rest of the pack, face down, to the "
               "right."),
    )
    LEDGER = {
        RULE_I: "Only the top card of a Line packet is played or moved; the cards beneath "
                "may at most be looked at, unless a looser reading lets an examined card be "
                "played, or also moved to a Flank (NI-1).",
        RULE_II: "With n Flank vacancies the n cards under the top of each packet are shown "
                 "(or, under the other count, the top n cards, the top among them); a card "
                 "deeper down stays face down (NI-2).",
        RULE_III: "A card goes to a foundation only of its own suit.",
        RULE_IV: "The re-deal gathers the Line from the left, each packet under the last "
                 "(or on it, under the other reading), turns the whole over unshuffled and "
                 "deals it again as at first; Flanks and foundations stay (NI-7).",
        LAYOUT: "The deal lays four cards down each Flank, the left one first, with room "
                "between them for the eight foundations (NI-11).",
        FOUNDATIONS: "Each suit has an ascending pile begun by an ace and a descending pile "
                     "begun by a king, built one rank at a time; the second ace or king of "
                     "a suit can only end the other pile (NI-9).",
        LINE_DEAL: "Six packets of four cards are dealt together, face up, left to right, "
                   "below the Flanks; rounds and fresh packets add to them.",
        SOURCES: "Cards go to the foundations from the Flanks and the tops of the Line "
                 "packets, never straight from the pack; plays are never forced, nor is the "
                 "Flanks’ preference (NI-4, NI-9, NI-12).",
        FLANK_FILL: "A Flank vacancy may be filled at any time, or left, with the next card "
                    "of the pack or the top of a Line packet; an occupied place takes "
                    "nothing, and all vacancies may be filled (NI-3, NI-12).",
        PACKET_REFILL: "Nothing is ever put on the Line; a packet played off, to the "
                       "foundations or the Flanks, is replaced at once by four cards from "
                       "the pack, or by what is left of it (NI-10).",
        ROUNDS: "A round deals four cards together on each packet from the left while the "
                "pack lasts, whenever the player chooses, or under the strict reading only "
                "when no card can go to a foundation (NI-5, NI-6).",
        REDEAL: "The re-deal is made only when the pack is used up and the Line holds a "
                "card (under the strict reading, only when no card can go to a foundation); "
                "the game is lost when nothing but useless exchanges remains (NI-13).",
        ONE_REDEAL: "A second re-deal is refused.",
        EXCHANGE: "The top card of either pile of a suit may pass onto the other when it "
                  "continues it, or begins it, one card per move and back again; under the "
                  "strict reading an exchange never empties or begins a pile (NI-8).",
    }
    ACTIONS = (
        ActionSpec("deal", "Deal a round", "d", ROUNDS),
        ActionSpec("redeal", "Re-deal the Line", "e", REDEAL),
    )

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        stock = tuple(shuffled(pack(2), deal))
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for i in FLANKS:  # left column top to bottom, then the right (NI-11)
            piles[i] = (stock[-1],)
            stock = stock[:-1]
        for i in LINE:
            piles[i], stock = _deal_block(stock)
        piles[STOCK] = stock
        return State(tuple(piles), (0,))

    # ---- helpers ---------------------------------------------------------------------
    def vacancies(self, state: State) -> int:
        return sum(1 for i in FLANKS if not state.piles[i])

    def examined_depth(self, state: State) -> int:
        """How many cards from the top of each packet may be seen (Rule II, NI-2)."""
        n = self.vacancies(state)
        if self.options.examine_count is ExamineCount.BENEATH:
            return n + 1
        return max(1, n)

    @staticmethod
    def accepts(state: State, f: int, card: Card) -> bool:
        """Whether foundation pile ``f`` takes ``card`` next."""
        return FOUNDATION_SET.accepts(state, f, card)

    @staticmethod
    def _met(state: State, j: int) -> bool:
        """The suit's two piles have met: together they hold one whole sequence, ace to
        king, the ascending pile's top one below the descending pile's (or one pile
        empty and the other complete). Only then can the exchange pass a card across."""
        return len(state.piles[ASC[j]]) + len(state.piles[DESC[j]]) == 13

    def _exchange_possible(self, state: State, j: int) -> bool:
        """Some exchange between the suit's two piles is legal now (NI-8)."""
        a, d = ASC[j], DESC[j]
        return (self._refuse_exchange(state, a, d) is None
                or self._refuse_exchange(state, d, a) is None)

    # ---- rules -----------------------------------------------------------------------
    def _sources(self, state: State) -> list[tuple[str, Card, bool]]:
        """The cards that may be played to a foundation, as (reference, card, whether it
        may also fill a Flank vacancy): the Flank cards, the tops of the Line packets, and
        under the readings that allow it the examined cards (NI-1)."""
        piles = state.piles
        use = self.options.examined_use
        depth = self.examined_depth(state)
        sources: list[tuple[str, Card, bool]] = []
        for i in FLANKS:
            if piles[i]:
                sources.append((PILES[i].id, piles[i][-1], False))
        for i in LINE:
            p = piles[i]
            if not p:
                continue
            sources.append((PILES[i].id, p[-1], True))
            if use is not ExaminedUse.LOOK:
                for k in range(max(0, len(p) - depth), len(p) - 1):
                    sources.append((f"{PILES[i].id}:{k}", p[k],
                                    use is ExaminedUse.PLAY_AND_FILL))
        return sources

    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        empty_flanks = [i for i in FLANKS if not piles[i]]
        for ref, card, fills in self._sources(state):
            j = SUIT_INDEX[card.suit]
            for f in (ASC[j], DESC[j]):
                if self.accepts(state, f, card):
                    yield Move.step(ref, PILES[f].id)
            if fills:
                for e in empty_flanks:
                    yield Move.step(ref, PILES[e].id)
        if piles[STOCK]:
            for e in empty_flanks:
                yield Move.step("stock", PILES[e].id)
        for j in range(4):
            if self._met(state, j):  # exchanges (refused when, say, a pile is emptied)
                yield Move.step(PILES[ASC[j]].id, PILES[DESC[j]].id)
                yield Move.step(PILES[DESC[j]].id, PILES[ASC[j]].id)
        yield Move(action="deal")
        yield Move(action="redeal")

    def _foundation_play_exists(self, state: State) -> bool:
        for m in self.candidate_moves(state):
            if m.steps:
                (src, dst), = m.steps
                if (self.pile_index(dst) in FOUNDATION_PILES
                        and self.pile_index(src) not in FOUNDATION_PILES):
                    return True
        return False

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, sk, di, top, card = step.src, step.k, step.dst, step.top, step.card
        # where the card comes from
        if si == STOCK:
            if not top:
                return IllegalMove(FLANK_FILL, "Only the next card of the pack, the one on "
                                   "top, can fill a Flank vacancy.")
            if di not in FLANKS:
                return IllegalMove(SOURCES, "Cards from the pack are not played directly: "
                                   "they come into play on the Line or in a Flank vacancy.")
        elif si in FOUNDATION_PILES:
            if di not in FOUNDATION_PILES:
                return IllegalMove(EXCHANGE, "Cards on the foundations stay there; they may "
                                   "only be exchanged between a suit's ascending and "
                                   "descending piles.")
            return self._refuse_exchange(state, si, di)
        elif si in FLANKS:
            if di not in FOUNDATION_PILES:
                return IllegalMove(SOURCES, "A Flank card may only be played to a foundation.")
        elif si in LINE and not top:
            use = self.options.examined_use
            below = len(state.piles[si]) - 1 - sk
            if below >= self.examined_depth(state):
                return IllegalMove(RULE_II, "That card is deeper in the packet than Rule II "
                                   "lets you examine: as many cards as there are vacancies "
                                   "in the Flanks.")
            if use is ExaminedUse.LOOK or (use is ExaminedUse.PLAY and di in FLANKS):
                return IllegalMove(RULE_I, "Only the uppermost card of a Line packet is "
                                   "available; the cards beneath may be examined, not moved.")
        # where it goes
        if di in FOUNDATION_PILES:
            return self._refuse_foundation(state, di, card)
        if di in FLANKS:
            if state.piles[di]:
                return IllegalMove(FLANK_FILL, "That Flank place is not vacant: only "
                                   "vacancies in the Flanks are filled.")
            return None
        if di in LINE:
            return IllegalMove(PACKET_REFILL, "Single cards are not to be replaced on the "
                               "Line.")
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def _refuse_foundation(self, state: State, f: int, card: Card) -> IllegalMove | None:
        return FOUNDATION_SET.refusal(state, f, card, PILES[f], RULE_III, FOUNDATIONS,
                                      follow="All foundations must follow suit")

    def _refuse_exchange(self, state: State, si: int, di: int) -> IllegalMove | None:
        """The exchange (NI-8): the top card of one of a suit's piles goes onto the other
        when it continues it, or, under the default reading, begins it; the rule is the
        same both ways, so every exchange can be taken back."""
        if di != FOUNDATION_SET.other(si):
            return IllegalMove(EXCHANGE, "The exchange is only between the ascending and "
                               "the descending pile of the same suit.")
        src = state.piles[si]
        if not src:
            return IllegalMove(BOARD, f"The {PILES[si].label} is empty.")
        card, dst = src[-1], state.piles[di]
        if not FOUNDATION_SET.accepts(state, di, card):
            if dst:
                return IllegalMove(EXCHANGE, f"The {card.name} does not continue the "
                                   f"{PILES[di].label}: a card is exchanged only when the "
                                   "two piles of its suit have met.")
            need = "a king" if di in DESC else "an ace"
            return IllegalMove(EXCHANGE, f"The {PILES[di].label} is empty and would have "
                               f"to begin with {need}.")
        if not self.options.exchange_base:
            if len(src) == 1:
                return IllegalMove(EXCHANGE, "Under the reading chosen, an exchange never "
                                   "empties a pile: the ace or king that began it stays.")
            if not dst:
                return IllegalMove(EXCHANGE, "Under the reading chosen, an exchange never "
                                   "begins a pile: only an ace or king played from the "
                                   "Flanks or the Line does.")
        return None

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        strict = self.options.deal_timing is DealTiming.STUCK
        if action == "deal":
            if not state.piles[STOCK]:
                return IllegalMove(ROUNDS, "The pack is used up: there is no round left "
                                   "to deal.")
            if strict and self._foundation_play_exists(state):
                return IllegalMove(ROUNDS, "Under the strict reading the next round is "
                                   "dealt only when the resources are exhausted: a card "
                                   "can still go to a foundation.")
            return None
        if action == "redeal":
            if self.var(state, "redeals") >= REDEALS_ALLOWED:
                return IllegalMove(ONE_REDEAL, "There is only one re-deal, and it has been "
                                   "made.")
            if state.piles[STOCK]:
                return IllegalMove(REDEAL, "The re-deal comes only when the whole of the "
                                   "pack has been dealt.")
            if not any(state.piles[i] for i in LINE):
                return IllegalMove(REDEAL, "The Line is empty: there is nothing to re-deal.")
            if strict and self._foundation_play_exists(state):
                return IllegalMove(REDEAL, "Under the strict reading the re-deal comes when "
                                   "further progress is at an end: a card can still go to "
                                   "a foundation.")
            return None
        return IllegalMove(BOARD, f"La Nivernaise has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        redeals = state.vars[0]
        if move.action == "deal":
            self._deal_round(piles)
        elif move.action == "redeal":
            packets = [piles[i] for i in LINE]
            order = packets[::-1] if self.options.pickup is Pickup.UNDER else packets
            # The face-up pile, bottom to top, turned over to become the pack.
            gathered = tuple(c for p in order for c in p)
            piles[STOCK] = gathered[::-1]
            for i in LINE:
                piles[i] = ()
            self._deal_round(piles)
            redeals += 1
        else:
            step = self.resolve_step(state, move)
            assert isinstance(step, Step), "apply() is given legal moves only"
            si, sk, di = step.src, step.k, step.dst
            p = piles[si]
            piles[si] = p[:sk] + p[sk + 1:]
            piles[di] = piles[di] + (step.card,)
            if si in LINE and not piles[si]:  # a packet played off: four more at once
                piles[si], piles[STOCK] = _deal_block(piles[STOCK])
        return State(tuple(piles), (redeals,))

    @staticmethod
    def _deal_round(piles: list[tuple[Card, ...]]) -> None:
        """Four cards together on each packet, left to right, while the pack lasts (NI-6)."""
        for i in LINE:
            block, piles[STOCK] = _deal_block(piles[STOCK])
            piles[i] = piles[i] + block

    def outcome_of(self, state: State) -> Outcome | None:
        if sum(len(state.piles[f]) for f in FOUNDATION_PILES) == 104:
            return Outcome.WON
        # NI-13. Any legal move but an exchange (a play, a Flank filled, a round dealt, the
        # re-deal) and the game goes on.
        for m in self.candidate_moves(state):
            if self.refusal(state, m) is not None:
                continue
            if m.action or self.pile_index(m.steps[0][0]) not in FOUNDATION_PILES:
                return None
        # Only exchanges remain, or nothing. An exchange changes nothing but the two piles
        # of a suit that have met, and those piles, shifted one card at a time, can be
        # made to take a card of any rank; so the game goes on while a card of such a suit
        # could be played, and otherwise no card will ever reach a foundation again.
        met = {SUITS[j] for j in range(4) if self._exchange_possible(state, j)}
        if any(card.suit in met for _, card, _ in self._sources(state)):
            return None
        return Outcome.LOST

    # ---- board -----------------------------------------------------------------------
    def card_faces(self, state: State, pile: int) -> list[dict[str, Any]]:
        if pile not in LINE:
            return super().card_faces(state, pile)
        p = state.piles[pile]
        depth = self.examined_depth(state)
        out: list[dict[str, Any]] = []
        for k, c in enumerate(p):
            below = len(p) - 1 - k
            if below == 0:
                out.append({"c": str(c)})
            elif below < depth:
                out.append({"c": str(c), "peek": True})
            else:
                out.append({"c": None})
        return out

    def status_line(self, state: State, out: Outcome | None) -> str:
        if out is Outcome.WON:
            return "Won: all 104 cards are on the foundations."
        if out is Outcome.LOST:
            return "Nothing more can be done: the patience has failed."
        n = self.vacancies(state)
        used = self.var(state, "redeals")
        stock = len(state.piles[STOCK])
        parts = [f"Pack: {plural(stock, 'card')}",
                 f"Flank vacancies: {n}",
                 "re-deal used" if used else "re-deal still to come"]
        depth = self.examined_depth(state)
        if depth > 1:
            parts.append(f"examining {plural(depth - 1, 'card')} "
                         "beneath each top")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.steps and move.steps[0][0] == "stock":
            dst = move.steps[0][1]
            card = self.card_at(state, "stock")
            assert card is not None
            return f"From the pack, the {card.name} into the {self.label(dst)}."
        if move.action == "redeal":
            return "The Line is taken up and re-dealt (Rule IV)."
        return super().describe(state, move)


"""The Salic Law (two packs), by the book: 1914 printing, plate p. 14 (printed sideways), text
p. 15.

Piles, as on the plate: three rows of eight places. At the top the queens, placed as they
appear in the deal, which never move; in the middle the foundations, an ace in each as the
aces appear, built up regardless of suit (Rule II) to the knave; at the bottom the line of
kings, the first taken from the pack before the deal, the others placed in the row as they
appear. Each king is the bottom card of its packet: every card dealt that is not an ace, a
queen or a king is heaped on the last king that has appeared. Only the top card of a packet
(its *surface*) is available, but every card of every packet may be examined (Rule I), so
the board shows them all.

Between any two cards dealt, the surface card of any packet may be played to a foundation.
When the deal is ended a king with no card on it (freed entirely) may take one card from the
surface of another packet. Nothing else ever moves, and there is no re-deal. See the chapter
page for the text each rule id points at, and its editorial notes (``note-sl-N``) for the
readings behind the option.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, KNAVE, QUEEN, RANK_NAMES, Card, Suit, pack
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

SLUG = "the-salic-law"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_1 = _rule("rule-1")            # only the surface cards are available; all may be examined
RULE_2 = _rule("rule-2")            # the foundations do not follow suit
KINGS = _rule("kings")              # one king begins the line; the rest placed as they appear
HEAPING = _rule("heaping")          # every card dealt is heaped on the last king that appeared
FOUNDATIONS = _rule("foundations")  # the eight aces ascend in sequence to knaves
ACES_QUEENS = _rule("aces-queens")  # aces placed at once above the kings, queens above them
FINAL = _rule("final-tableau")      # the queens merely complete the final tableau
SURFACE = _rule("surface")          # surface cards played to the foundations, during the deal
FREE_KINGS = _rule("free-kings")    # deal ended: one card from another packet on a freed king
ENTIRE_PLAY = _rule("entire-play")  # in this consists the entire play: nothing else moves
NO_REDEAL = _rule("no-redeal")      # there is no re-deal
BOARD = _rule("board")              # the board itself (notation errors)

PLACES = 8
#: The king taken from the pack to begin the line: the plate's king of hearts (SL-1).
FIRST_KING = Card(KING, Suit.HEARTS)
FOUNDATION_CARDS = PLACES * KNAVE  # eight sequences from the ace to the knave


class FreedKing(Enum):
    """SL-6: whether a king may take a card again once the card placed on it has gone."""

    AGAIN = "again"  # a king with no card on it may always take one (one card at a time)
    ONCE = "once"    # each king takes one card in the whole game


@dataclass(frozen=True, slots=True)
class SalicLawOptions:
    freed_king: FreedKing = option(
        FreedKing.AGAIN, note="note-sl-6",
        label="Once the card placed on a freed king has been played, the king",
        labels={FreedKing.AGAIN: "is free again and may take another card",
                FreedKing.ONCE: "takes no other card: each king takes one card in the game"})


# ---------------------------------------------------------------------------- the layout
# The plate's three rows, queens at the top, kings at the bottom; the pack to the right of
# the kings (the plate does not show it). Packets fan downwards from the kings.

_FAN = 6.0          # the longest fan of a packet, in card heights (longer ones close up)
_PACK_X = 8.3

PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"q{c}", f"queen place {c + 1}", Role.FIGURE, float(c), 0.0)
          for c in range(PLACES))
    + tuple(PileSpec(f"f{c}", f"foundation {c + 1}", Role.FOUNDATION, float(c), 1.0,
                     mark="ace")
            for c in range(PLACES))
    + tuple(PileSpec(f"k{c}", f"king packet {c + 1}", Role.TABLEAU, float(c), 2.0,
                     fan=Fan.DOWN, fan_limit=_FAN, mark="king") for c in range(PLACES))
    + (PileSpec("stock", "the pack", Role.STOCK, _PACK_X, 2.0),)
)

QUEENS = range(0, 8)
FOUNDS = range(8, 16)
PACKETS = range(16, 24)
STOCK = 24


def _narrow() -> Layout:
    """For a phone: eight columns only, the pack in a row of its own above the queens."""
    at: dict[str, tuple[float, float, int]] = {"stock": (7.0, 0.0, 0)}
    for c in range(PLACES):
        at[f"q{c}"] = (float(c), 1.1, 0)
        at[f"f{c}"] = (float(c), 2.1, 0)
        at[f"k{c}"] = (float(c), 3.1, 0)
    return Layout(name="narrow", max_width=560, grid=(8.0, 5.3), at=at)


def _rank_word(rank: int) -> str:
    return RANK_NAMES[rank] if 1 <= rank <= 13 else "card"


def _a(rank: int) -> str:
    word = _rank_word(rank)
    return ("an " if word[0] in "aeio" else "a ") + word


def fits(pile: tuple[Card, ...], card: Card) -> bool:
    """Whether a foundation (its ace at the bottom) takes ``card`` next: one rank higher,
    whatever the suit (Rule II), up to the knave."""
    return bool(pile) and card.rank == pile[-1].rank + 1 and card.rank <= KNAVE


class TheSalicLaw(Game):
    slug = SLUG
    title = "The Salic Law"
    packs = 2
    Options = SalicLawOptions
    PILES = PILES
    VARS = ("used",)  # bit c set: king packet c has had its one card (SL-6, the ONCE reading)
    GRID = (_PACK_X + 1.0, 4.2)
    LAYOUTS = (_narrow(),)
    FIGURES = (
        Figure("start", "The Salic Law at the start, in modern cards.",
               "The start of The Salic Law drawn in modern cards, as the plate shows it: three "
               "rows of eight places. At the left of the bottom row the king of hearts, taken "
               "from the pack to begin the line of kings; the other seven places of that row "
               "wait for the kings still to appear, the middle row for the aces, the "
               "foundations, and the top row for the queens. To the right of the kings lies "
               "the pack, face down."),
    )
    ACTIONS = (
        ActionSpec("deal", "Deal a card", "d", HEAPING),
        ActionSpec("deal_on", "Deal on until a card can be played", "Shift+D", HEAPING),
    )
    LEDGER = {
        RULE_1: "Only the top card of a king packet may be played or placed; a card beneath "
                "it is refused until it is uncovered, but every card of every packet is "
                "shown face up.",
        RULE_2: "A foundation takes the next rank of any suit.",
        KINGS: "The game begins with the king of hearts alone in the first place of the "
               "bottom row; each king dealt takes the next place to its right, and a king "
               "never moves.",
        HEAPING: "Each card dealt that is not an ace, a queen or a king goes on the last king "
                 "placed, even when its packet has been emptied; Deal a card deals one card, "
                 "Deal on deals until some card can be played or the pack is out.",
        FOUNDATIONS: "A foundation is begun only by an ace and rises one rank at a time to "
                     "the knave; a queen or a king is never played, and a card played stays "
                     "on its foundation.",
        ACES_QUEENS: "An ace dealt goes at once to the leftmost empty foundation place and a "
                     "queen to the leftmost empty place of the top row; nothing else may go "
                     "to either row.",
        FINAL: "The queens never move; the game is won when all eight foundations end with "
               "their knaves.",
        SURFACE: "Between any two cards dealt, and after the deal, the top card of any packet "
              "may be played to a foundation that takes it; playing is never compulsory.",
        FREE_KINGS: "Only once the pack is dealt out, a king with no card on it may take the "
                    "top card of another packet, one card at a time; a king whose card has "
                    "been played may take another, or, under the other reading, each king "
                    "takes one card in the game.",
        ENTIRE_PLAY: "No other move exists: a card is never placed on another card of a "
                     "packet, nor moved back to the pack.",
        NO_REDEAL: "Once the pack is dealt out no deal is allowed; the game is lost when no "
                   "card a foundation could take can be uncovered any more, even with the help "
                   "of the freed kings.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        rest = Counter(pack(2))
        rest[FIRST_KING] -= 1
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        piles[PACKETS.start] = (FIRST_KING,)
        piles[STOCK] = tuple(shuffled(sorted(rest.elements()), deal))
        return State(tuple(piles), (0,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        for row, word in ((QUEENS, "queens"), (FOUNDS, "foundations"), (PACKETS, "kings")):
            filled = [bool(p[i]) for i in row]
            if filled != sorted(filled, reverse=True):
                raise PositionError(f"the {word} must fill their row from the left")
        if not p[PACKETS.start]:
            raise PositionError("the first king must be in place")
        for i in QUEENS:
            if p[i] and (len(p[i]) != 1 or p[i][0].rank != QUEEN):
                raise PositionError(f"{PILES[i].label} holds only a queen")
        for i in FOUNDS:
            pile = p[i]
            if pile and (pile[0].rank != ACE or any(
                    not fits(pile[:j], pile[j]) for j in range(1, len(pile)))):
                raise PositionError(f"{PILES[i].label} must rise from its ace to the knave")
        for i in PACKETS:
            pile = p[i]
            if pile and (pile[0].rank != KING or any(
                    not ACE < c.rank < QUEEN for c in pile[1:])):
                raise PositionError(f"{PILES[i].label} must be a king with cards from the "
                                    "two to the knave on it")
        if not 0 <= state.vars[0] < 1 << PLACES:
            raise PositionError("bad record of the kings that have had their card")
        return state

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def dealing(state: State) -> bool:
        """Whether the deal goes on (cards remain in the pack)."""
        return bool(state.piles[STOCK])

    @staticmethod
    def last_king(state: State) -> int:
        """The packet of the last king that has appeared, on which cards are heaped."""
        return max(i for i in PACKETS if state.piles[i])

    def takes_a_card(self, state: State, i: int) -> bool:
        """Whether king packet ``i`` may now take a card: the deal is ended, its king is
        freed entirely (no card on it), and under the ONCE reading it has had none."""
        if self.dealing(state) or len(state.piles[i]) != 1:
            return False
        return (self.options.freed_king is FreedKing.AGAIN
                or not state.vars[0] & 1 << (i - PACKETS.start))

    @staticmethod
    def playable(state: State) -> bool:
        """Whether some surface card can be played to a foundation now."""
        tops = {state.piles[f][-1].rank for f in FOUNDS if state.piles[f]}
        return any(len(state.piles[i]) > 1 and state.piles[i][-1].rank - 1 in tops
                   and state.piles[i][-1].rank <= KNAVE for i in PACKETS)

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        for i in PACKETS:
            if len(piles[i]) < 2:
                continue
            card, sid = piles[i][-1], PILES[i].id
            for f in FOUNDS:
                if fits(piles[f], card):
                    yield Move.step(sid, PILES[f].id)
            for j in PACKETS:
                if j != i and self.takes_a_card(state, j):
                    yield Move.step(sid, PILES[j].id)
        if self.dealing(state):
            yield Move(action="deal")
            yield Move(action="deal_on")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action not in ("deal", "deal_on"):
            return IllegalMove(BOARD, f"The Salic Law has no action {action!r}.")
        if not self.dealing(state):
            return IllegalMove(NO_REDEAL, "The pack is dealt out, and there is no re-deal.")
        return None

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        piles = state.piles
        si, di, card = step.src, step.dst, step.card
        if not step.top:
            if si in PACKETS:
                return IllegalMove(RULE_1, "Only the card on the surface of a packet is "
                                   "available; the cards beneath may be examined, but not "
                                   "moved until it is gone.")
            return IllegalMove(BOARD, "Only the top card of a pile can be moved.")
        # where the card comes from
        if si in QUEENS:
            return IllegalMove(FINAL, "The queens are merely placed to complete the final "
                               "tableau: they never move.")
        if si in FOUNDS:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if si == STOCK:
            return IllegalMove(HEAPING, "Cards leave the pack only as they are dealt, onto "
                               "the last king that has appeared (Deal a card).")
        if len(piles[si]) == 1:
            return IllegalMove(KINGS, "The kings stay in their row; only the cards heaped on "
                               "them move.")
        # where it goes
        if di in QUEENS:
            return IllegalMove(ACES_QUEENS, "The top row is for the queens alone, placed there "
                               "as they appear in the deal.")
        if di == STOCK:
            return IllegalMove(ENTIRE_PLAY, "Nothing goes back to the pack.")
        if di in FOUNDS:
            return self._refuse_foundation(piles[di], PILES[di].label, card)
        if di == si:
            return IllegalMove(ENTIRE_PLAY, "The card is already on that packet.")
        if not piles[di]:
            return IllegalMove(KINGS, f"No king has yet appeared for {PILES[di].label}: the "
                               "kings take their places in the row as they are dealt.")
        if len(piles[di]) > 1:
            return IllegalMove(FREE_KINGS, "Cards are never placed on one another in the "
                               "packets: a card may be placed only on a king freed entirely, "
                               "with no card on it.")
        if self.dealing(state):
            return IllegalMove(FREE_KINGS, "A card may be placed on a freed king only when the "
                               "deal is ended.")
        if not self.takes_a_card(state, di):
            return IllegalMove(FREE_KINGS, "Under the reading chosen each king takes one card "
                               "only, and this king has had its card.")
        return None

    @staticmethod
    def _refuse_foundation(pile: tuple[Card, ...], label: str,
                           card: Card) -> IllegalMove | None:
        if fits(pile, card):
            return None
        if not pile:
            return IllegalMove(FOUNDATIONS, f"The aces form the foundations: {label} waits "
                               "for an ace, placed there as it appears in the deal.")
        top = pile[-1].rank
        if top >= KNAVE:
            return IllegalMove(FOUNDATIONS, f"The {label} is complete: the foundations ascend "
                               "to knaves.")
        if card.rank > KNAVE:
            return IllegalMove(FOUNDATIONS, "The foundations ascend to knaves: a queen or a "
                               "king is never played.")
        return IllegalMove(FOUNDATIONS, f"The foundations ascend in sequence: the {label} "
                           f"needs {_a(top + 1)}, of any suit.")

    # ---- applying moves --------------------------------------------------------------
    @staticmethod
    def _deal_one(piles: list[tuple[Card, ...]]) -> None:
        card = piles[STOCK][-1]
        piles[STOCK] = piles[STOCK][:-1]
        row = {ACE: FOUNDS, QUEEN: QUEENS, KING: PACKETS}.get(card.rank)
        if row is not None:  # placed at once in its row, in the first empty place
            i = next(i for i in row if not piles[i])
            piles[i] = (card,)
        else:
            i = max(i for i in PACKETS if piles[i])
            piles[i] = piles[i] + (card,)

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        used = state.vars[0]
        if move.action:
            self._deal_one(piles)
            if move.action == "deal_on":
                while piles[STOCK] and not self.playable(State(tuple(piles))):
                    self._deal_one(piles)
        else:
            (src, dst), = move.steps
            si, di = self.pile_index(src), self.pile_index(dst)
            card = piles[si][-1]
            piles[si] = piles[si][:-1]
            piles[di] = piles[di] + (card,)
            if di in PACKETS and self.options.freed_king is FreedKing.ONCE:
                used |= 1 << (di - PACKETS.start)
        return State(tuple(piles), (used,))

    def outcome_of(self, state: State) -> Outcome | None:
        piles = state.piles
        if sum(len(piles[f]) for f in FOUNDS) == FOUNDATION_CARDS:
            return Outcome.WON
        if self.dealing(state):
            return None
        # The deal is ended. Short of a play, a card can reach the surface of its packet only
        # if every card above it goes to a king that may take one; each such king then holds
        # a card, and a packet emptied frees only its own king, so the number of kings that
        # may take a card never grows. The game is lost when no card that a foundation
        # could take lies within that many cards of a surface.
        wanted = {piles[f][-1].rank + 1 for f in FOUNDS if piles[f][-1].rank < KNAVE}
        room = sum(self.takes_a_card(state, i) for i in PACKETS)
        for i in PACKETS:
            cards = piles[i][1:]
            if any(c.rank in wanted for c in cards[max(0, len(cards) - 1 - room):]):
                return None
        return Outcome.LOST

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = sum(len(state.piles[f]) for f in FOUNDS)
        if out is Outcome.WON:
            return "Won: eight knaves finish the foundations, the queens above, the kings below."
        if out is Outcome.LOST:
            return (f"No card a foundation could take can be uncovered: the patience has "
                    f"failed, with {played} of 88 cards on the foundations.")
        if self.dealing(state):
            return " · ".join([
                f"Dealing: {plural(len(state.piles[STOCK]), 'card')} in the pack",
                f"heaping on {PILES[self.last_king(state)].label}",
                f"{played} of 88 on the foundations"])
        free = sum(self.takes_a_card(state, i) for i in PACKETS)
        return " · ".join([
            "The deal is ended",
            f"{plural(free, 'freed king')} may take a card",
            f"{played} of 88 on the foundations"])

    def describe(self, state: State, move: Move) -> str:
        if move.action:
            piles = list(state.piles)
            before = len(piles[STOCK])
            if not before:
                return "The pack is dealt out."
            card = piles[STOCK][-1]
            self._deal_one(piles)
            if move.action == "deal_on":
                while piles[STOCK] and not self.playable(State(tuple(piles))):
                    self._deal_one(piles)
                n = before - len(piles[STOCK])
                if n > 1:
                    return f"{plural(n, 'card')} are dealt."
            return self._describe_dealt(state, card)
        (src, dst), = move.steps
        top = self.card_at(state, src)
        name = top.name if top else "a card"
        if self.pile_index(dst) in FOUNDS:
            return f"The {name} is played from {self.label(src)} to {self.label(dst)}."
        return f"The {name} is placed on the freed king of {self.label(dst)}."

    def _describe_dealt(self, state: State, card: Card) -> str:
        if card.rank == ACE:
            where = "placed at once among the foundations"
        elif card.rank == QUEEN:
            where = "placed at once in the queens’ row"
        elif card.rank == KING:
            where = "placed at once in the line of kings"
        else:
            where = f"heaped on {PILES[self.last_king(state)].label}"
        return f"The {card.name} is dealt and {where}."

"""The “Louis” Patience (two packs), by the book: 1914 printing, plate p. 110, text pp. 111–112.

Piles: eight foundations in the middle, as the plate lays them: four aces (hearts, clubs,
diamonds, spades) ascending in suit to the kings, and beneath them four kings (diamonds,
clubs, hearts, spades) descending in suit to the aces (Rule I); round them the alphabet, a
square of twelve packets lettered *a* to *m* (there is no *j*), dealt from *a* at the bottom
right, leftwards along the foot, up the left side, along the top and down the right side to
*m*; the pack; and the cards laid aside in a re-deal (LO-7).

The pack is dealt one card at a time to the letters in turn, twelve to a circle. During the
deal only the cards of the circle being dealt are available: each new circle blocks the whole
of the one before it (or, under LO-2's other reading, each card of it once covered), and a
card of a lower circle stays blocked even when uncovered (Rule II, LO-2). When the pack is
out every packet's top card is available; the cards of the alphabet may then be married in
suit, up or down (LO-3), by default only once no available card can be played (LO-4). The
alphabet is then taken up from *g* round to *f* and dealt again without shuffling (LO-5);
three re-deals. In the re-deals a card that fits both foundations of its suit may go on
either, be laid aside, and, once played, be moved from one to the other (LO-6, LO-7). See the
chapter page for the text each rule id points at, and its editorial notes (``note-lo-N``) for
the readings behind the options.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import ACE, KING, RANK_NAMES, SUITS, Card, Suit, pack
from .core import (
    ActionSpec,
    Fan,
    Figure,
    Game,
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

SLUG = "the-louis-patience"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")               # foundations and the alphabet follow suit
RULE_II = _rule("rule-2")              # each circle blocks the one before, until the deal ends
FOUNDATIONS = _rule("foundations")     # four aces and four kings withdrawn, as in the tableau
SEQUENCE = _rule("sequence")           # aces ascend to kings, kings descend to aces
ALPHABET = _rule("alphabet")           # twelve cards in a square, each bearing a letter
DEAL = _rule("deal")                   # deal from a to m, playing suitable cards as they turn up
EXAMINE = _rule("examine")             # play from the alphabet; lower circles blocked
CIRCLES = _rule("circles")             # successive circles until the pack is exhausted
MARRIAGES = _rule("marriages")         # after the deal: marriages up and down in the alphabet
TAKE_UP = _rule("take-up")             # the alphabet taken up from g round to f
REDEAL = _rule("redeal")               # dealt again without shuffling, by the same rules
EITHER = _rule("either")               # a card fitting both foundations: either, and changed
ASIDE = _rule("aside")                 # such a card may be laid aside
THREE = _rule("three")                 # three re-deals
BOARD = _rule("board")                 # the board itself (notation errors)

#: The letters of the alphabet, in the order of the deal (the book skips the j).
LETTERS = "abcdefghiklm"
#: Where each letter stands on the plate: (x, y) in card slots.
_Y = (0.0, 1.3, 2.6, 3.9)
_LETTER_AT: dict[str, tuple[float, float]] = {
    "a": (4.0, _Y[3]), "b": (3.0, _Y[3]), "c": (2.0, _Y[3]), "d": (1.0, _Y[3]),
    "e": (0.0, _Y[2]), "f": (0.0, _Y[1]),
    "g": (1.0, _Y[0]), "h": (2.0, _Y[0]), "i": (3.0, _Y[0]), "k": (4.0, _Y[0]),
    "l": (5.0, _Y[1]), "m": (5.0, _Y[2]),
}
#: The suits of the aces and of the kings, left to right, as the plate draws them.
ACE_SUITS = (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)
KING_SUITS = (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)
#: The order in which the packets are taken up (TAKE_UP): from g round to f.
TAKE_UP_ORDER = "ghiklmabcdef"
TOTAL = 104
REDEALS = 3
CIRCLE = len(LETTERS)


@dataclass(frozen=True, slots=True)
class LouisOptions:
    whole_circle: bool = option(
        True, note="note-lo-2", label="During the deal a new circle blocks",
        labels={True: "the whole of the circle before, from its first card",
                False: "each card of the circle before once it covers it"})
    plays_first: bool = option(
        True, note="note-lo-4", label="Marriages in the alphabet",
        labels={True: "only once no available card of the alphabet can be played",
                False: "at any time once the pack is dealt out"})
    every_redeal: bool = option(
        True, note="note-lo-6", label="A card that fits both foundations may be moved between "
        "them or laid aside",
        labels={True: "in every re-deal", False: "in the second deal only"})


# ---- piles ----------------------------------------------------------------------------

PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"f{j}", f"the ascending {s.noun} foundation", Role.FOUNDATION,
                   x=1.0 + j, y=_Y[1], mark=f"{s.symbol} A–K")
          for j, s in enumerate(ACE_SUITS))
    + tuple(PileSpec(f"f{4 + j}", f"the descending {s.noun} foundation", Role.FOUNDATION,
                     x=1.0 + j, y=_Y[2], mark=f"{s.symbol} K–A")
            for j, s in enumerate(KING_SUITS))
    + tuple(PileSpec(ch, f"letter {ch}", Role.TABLEAU, x=_LETTER_AT[ch][0],
                     y=_LETTER_AT[ch][1], mark=ch) for ch in LETTERS)
    + (PileSpec("stock", "the pack", Role.STOCK, x=0.0, y=_Y[0]),
       PileSpec("aside", "the cards laid aside", Role.RESERVE, x=0.0, y=5.3, fan=Fan.RIGHT,
                fan_limit=5.0, mark="laid aside"))
)

FOUNDATION_PILES = range(0, 8)
ASCENDING = range(0, 4)
DESCENDING = range(4, 8)
ALPHABET_PILES = range(8, 8 + CIRCLE)
STOCK = ALPHABET_PILES.stop
ASIDE_PILE = STOCK + 1

#: The counters: re-deals made; cards dealt so far in this deal; and for each letter the
#: height its packet had just after the card of the circle now being dealt was laid on it
#: (0 while the circle has not reached the letter): that card, while still there, is the
#: only available card of the packet during the deal (Rule II). Under LO-2's other reading
#: a letter the circle has not yet reached keeps the height the circle before gave it, so
#: that circle's card stays available there until it is covered (or played).
#: Then, for each suit, the rank of the card that was played on a foundation while it fitted
#: both foundations of its suit, in a deal where the privileges of the re-deals hold (0 if
#: none): only that card may be changed from one foundation to the other (EITHER, LO-6).
V_REDEALS = 0
V_DEALT = 1
VARS = (("redeals", "dealt") + tuple(f"h{ch}" for ch in LETTERS)
        + tuple(f"alike{s.value.lower()}" for s in SUITS))
V_ALIKE = 2 + CIRCLE


def base_of(f: int) -> Card:
    return Card(ACE, ACE_SUITS[f]) if f in ASCENDING else Card(KING, KING_SUITS[f - 4])


def other_of(f: int) -> int:
    """The foundation of the same suit going the other way."""
    if f in ASCENDING:
        return DESCENDING.start + KING_SUITS.index(ACE_SUITS[f])
    return ASCENDING.start + ACE_SUITS.index(KING_SUITS[f - 4])


def next_rank(f: int, pile: Sequence[Card]) -> int | None:
    """The rank foundation ``f`` takes next; None when it is complete."""
    top = pile[-1].rank
    if f in ASCENDING:
        return top + 1 if top < KING else None
    return top - 1 if top > ACE else None


def accepts(f: int, pile: Sequence[Card], card: Card) -> bool:
    return card.suit is pile[0].suit and card.rank == next_rank(f, pile)


def marries(card: Card, top: Card) -> bool:
    """A marriage: the same suit, one above or one below (Rule I; the Explanation of Terms)."""
    return card.suit is top.suit and abs(card.rank - top.rank) == 1


def _a(rank: int) -> str:
    name = RANK_NAMES[rank]
    return ("an " if name[0] in "ae" else "a ") + name


class TheLouisPatience(Game):
    slug = SLUG
    title = "The “Louis” Patience"
    packs = 2
    Options = LouisOptions
    PILES = PILES
    VARS = VARS
    GRID = (6.0, 6.6)
    FIGURES = (
        Figure("tableau", "The “Louis” Patience before the deal, in modern cards.",
               "The tableau of the “Louis” Patience drawn in modern cards before the deal: in "
               "the middle four aces in a row, hearts, clubs, diamonds and spades, and beneath "
               "them four kings, diamonds, clubs, hearts and spades; round them the twelve "
               "empty places of the alphabet, each named by its letter: four along the top "
               "(g, h, i, k), two down each side (f and e on the left, l and m on the right) "
               "and four along the foot (d, c, b, a from left to right).",
               piles=tuple(p.id for p in PILES[:STOCK])),
    )
    ACTIONS = (
        ActionSpec("deal", "Deal the next card", "t", DEAL),
        ActionSpec("redeal", "Take up the alphabet and deal again", "e", REDEAL),
    )
    LEDGER = {
        RULE_I: "A foundation takes only its own suit, and a marriage in the alphabet only a "
                "card of the same suit; another suit is refused.",
        RULE_II: "While the pack lasts only the card each packet received in the circle now "
                 "being dealt is available; every card of an earlier circle is refused, even "
                 "when uncovered (under LO-2’s other reading, the card of the circle before "
                 "stays available at a letter the new circle has not yet covered); once the "
                 "pack is dealt out every packet’s top card is available.",
        FOUNDATIONS: "The deal takes out one ace and one king of each suit and lays them in "
                     "the middle as the plate does: the aces above, the kings below.",
        SEQUENCE: "An ace’s foundation takes the next card of its suit upwards to the king, a "
                  "king’s the next downwards to the ace; a card out of turn is refused, a "
                  "complete foundation takes nothing.",
        ALPHABET: "The twelve places round the foundations are the packets a to m (no j), "
                  "lettered and placed as in the plate.",
        DEAL: "“Deal the next card” lays the pack’s top card on the next letter, a to m in "
              "turn; a card so dealt may be played at once (or later in its circle), and is "
              "never forced to go.",
        EXAMINE: "The cards of the circle being dealt may be played at any time during that "
                 "circle; a card of a lower circle is refused with the reason until the pack "
                 "is dealt out (by default from the first card of the next circle, under "
                 "LO-2’s other reading once that circle covers it).",
        CIRCLES: "After m the deal begins again at a, a new circle on top of the old, until "
                 "the pack is exhausted; a card that was played leaves its letter one card "
                 "short (LO-1).",
        MARRIAGES: "Once the pack is out, a packet’s top card may go on another packet’s top "
                   "card of the same suit one higher or one lower; during the deal, onto an "
                   "empty packet, or (by default, LO-4) while a card of the alphabet could be "
                   "played, it is refused.",
        TAKE_UP: "The re-deal takes up the packets from g round to f and deals them out "
                 "again, each packet’s cards in the order they were dealt (LO-5).",
        REDEAL: "“Take up the alphabet and deal again” is allowed only once the pack is "
                "dealt out; the cards are not shuffled, and the new deal follows the rules of "
                "the first.",
        EITHER: "In a re-deal (all of them by default, the second deal only under LO-6’s "
                "other reading) the card that was played on a foundation while it fitted both "
                "foundations of its suit may be moved to the other foundation, and back, while "
                "it is the top card and fits there; any other change is refused.",
        ASIDE: "In the same deals an available card of the alphabet that fits both "
               "foundations of its suit may be laid aside, and any card laid aside may be "
               "played on either foundation later; other cards are refused there (LO-7).",
        THREE: "The alphabet may be taken up and dealt again three times; a fourth re-deal "
               "is refused, and once none is left and no series of moves brings a card to a "
               "foundation, the game is lost.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        bases = [base_of(f) for f in FOUNDATION_PILES]
        for f, card in zip(FOUNDATION_PILES, bases, strict=True):
            piles[f] = (card,)
        rest = sorted(pack(2))
        for card in bases:
            rest.remove(card)
        piles[STOCK] = tuple(shuffled(rest, deal))
        return State(tuple(piles), (0,) * len(VARS))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p, v = state.piles, state.vars
        for f in FOUNDATION_PILES:
            pile = p[f]
            if not pile or pile[0] != base_of(f):
                raise PositionError(f"{PILES[f].label} begins with the {base_of(f).name}, "
                                    "laid at the start")
            for k in range(1, len(pile)):
                if not accepts(f, pile[:k], pile[k]):
                    raise PositionError(f"{PILES[f].label} is not built in order")
        if not 0 <= v[V_REDEALS] <= REDEALS:
            raise PositionError("the alphabet is dealt again three times at most")
        if v[V_DEALT] < 0:
            raise PositionError("the count of cards dealt cannot be negative")
        for n in range(len(SUITS)):
            if not 0 <= v[V_ALIKE + n] <= KING:
                raise PositionError("the rank of a card changed between foundations is a "
                                    "rank")
        for n, a in enumerate(ALPHABET_PILES):
            h = v[2 + n]
            if p[STOCK] and not 0 <= h <= len(p[a]) + 1:
                raise PositionError(f"the mark of letter {LETTERS[n]} is beyond its packet")
        if p[ASIDE_PILE] and not v[V_REDEALS]:
            raise PositionError("cards are laid aside only in a re-deal")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def dealing(self, state: State) -> bool:
        """Whether the deal is still going on (cards left in the pack)."""
        return bool(state.piles[STOCK])

    def available(self, state: State, a: int) -> bool:
        """Whether the top card of packet ``a`` is available (Rule II)."""
        pile = state.piles[a]
        if not pile:
            return False
        if not self.dealing(state):
            return True
        h = state.vars[2 + a - ALPHABET_PILES.start]
        return h > 0 and len(pile) == h

    def privileged(self, state: State) -> bool:
        """Whether the re-deal privileges (EITHER, ASIDE) are in force: in every re-deal, or
        under LO-6's other reading in the second deal only."""
        r = state.vars[V_REDEALS]
        return r >= 1 and (self.options.every_redeal or r == 1)

    def alike(self, state: State, card: Card) -> bool:
        """Whether ``card`` fits both foundations of its suit."""
        fs = [f for f in FOUNDATION_PILES if state.piles[f][0].suit is card.suit]
        return all(accepts(f, state.piles[f], card) for f in fs)

    def changeable(self, state: State, f: int) -> bool:
        """Whether the top card of foundation ``f`` may be changed to the other foundation of
        its suit (EITHER): in a privileged deal, the card that fitted both when it was
        played, while it is the top card and fits the other."""
        p = state.piles
        o = other_of(f)
        return (self.privileged(state) and len(p[f]) > 1
                and p[f][-1].rank == state.vars[V_ALIKE + SUITS.index(p[f][0].suit)]
                and accepts(o, p[o], p[f][-1]))

    def playable_in_alphabet(self, state: State) -> Card | None:
        """An available card of the alphabet that some foundation takes, if any."""
        for a in ALPHABET_PILES:
            if self.available(state, a):
                card = state.piles[a][-1]
                if any(accepts(f, state.piles[f], card) for f in FOUNDATION_PILES):
                    return card
        return None

    def redeals_left(self, state: State) -> int:
        return REDEALS - state.vars[V_REDEALS]

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        p = state.piles
        for s in ALPHABET_PILES:
            if p[s]:
                for d in (*FOUNDATION_PILES, *ALPHABET_PILES, ASIDE_PILE):
                    if d != s:
                        yield Move.step(PILES[s].id, PILES[d].id)
        for k in range(len(p[ASIDE_PILE])):
            ref = "aside" if k == len(p[ASIDE_PILE]) - 1 else f"aside:{k}"
            for d in FOUNDATION_PILES:
                yield Move.step(ref, PILES[d].id)
        for f in FOUNDATION_PILES:
            yield Move.step(PILES[f].id, PILES[other_of(f)].id)
        yield Move(action="deal")
        yield Move(action="redeal")

    def legal_in(self, state: State) -> list[Move]:
        """Exactly the legal moves, made directly from the rules (a test compares them with
        :meth:`refusal` over every candidate)."""
        p = state.piles
        out: list[Move] = []
        dealing = self.dealing(state)
        priv = self.privileged(state)
        free = [a for a in ALPHABET_PILES if self.available(state, a)]
        can_marry = not dealing and not (self.options.plays_first
                                         and self.playable_in_alphabet(state) is not None)
        for s in free:
            card = p[s][-1]
            sid = PILES[s].id
            for f in FOUNDATION_PILES:
                if accepts(f, p[f], card):
                    out.append(Move.step(sid, PILES[f].id))
            if can_marry:
                for d in free:
                    if d != s and marries(card, p[d][-1]):
                        out.append(Move.step(sid, PILES[d].id))
            if priv and self.alike(state, card):
                out.append(Move.step(sid, "aside"))
        aside = p[ASIDE_PILE]
        for k, card in enumerate(aside):
            ref = "aside" if k == len(aside) - 1 else f"aside:{k}"
            for f in FOUNDATION_PILES:
                if accepts(f, p[f], card):
                    out.append(Move.step(ref, PILES[f].id))
        if priv:
            for f in FOUNDATION_PILES:
                if self.changeable(state, f):
                    out.append(Move.step(PILES[f].id, PILES[other_of(f)].id))
        if dealing:
            out.append(Move(action="deal"))
        elif self.redeals_left(state) and any(p[a] for a in ALPHABET_PILES):
            out.append(Move(action="redeal"))
        return out

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        p = state.piles
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if si == STOCK:
            return IllegalMove(DEAL, "Cards come from the pack one at a time, dealt to the "
                               "letters in turn (Deal the next card).")
        if si in FOUNDATION_PILES:
            return self._refuse_change(state, si, di)
        if si in ALPHABET_PILES:
            if not step.top:
                return IllegalMove(RULE_II, "Only the top card of a packet can be used: the "
                                   "cards beneath it are covered.")
            if not self.available(state, si):
                return IllegalMove(RULE_II, f"The {card.name} belongs to an earlier circle: "
                                   "during the deal each circle blocks the one before it, and "
                                   "its cards cannot be used, even if released, until the "
                                   "entire pack has been dealt."
                                   + ("" if self.options.whole_circle else
                                      " (Under LO-2’s other reading it was free only until the "
                                      "new circle covered it.)"))
        if di in FOUNDATION_PILES:
            return self._refuse_foundation(state, di, card)
        if di in ALPHABET_PILES:
            if si == ASIDE_PILE:
                return IllegalMove(ASIDE, "A card laid aside waits to be played on a "
                                   "foundation; it does not go back to the alphabet.")
            return self._refuse_marriage(state, di, card)
        if di == ASIDE_PILE:
            if si == ASIDE_PILE:
                return IllegalMove(BOARD, "The card is already laid aside.")
            if not self.privileged(state):
                when = ("in a re-deal" if self.options.every_redeal
                        else "in the second deal")
                return IllegalMove(ASIDE, f"A card may be laid aside only {when} (LO-6).")
            if not self.alike(state, card):
                return IllegalMove(ASIDE, f"Only a card suitable alike for the ascending and "
                                   f"the descending foundation of its suit may be laid "
                                   f"aside; the {card.name} is not.")
            return None
        if di == STOCK:
            return IllegalMove(DEAL, "Nothing goes back to the pack until the alphabet is "
                               "taken up.")
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def _refuse_foundation(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        if accepts(f, pile, card):
            return None
        label = PILES[f].label
        if card.suit is not pile[0].suit:
            return IllegalMove(RULE_I, f"The foundations follow suit: {label} takes only "
                               f"{pile[0].suit.noun}.")
        nxt = next_rank(f, pile)
        if nxt is None:
            return IllegalMove(SEQUENCE, f"{label[:1].upper()}{label[1:]} is complete.")
        way = "aces ascend" if f in ASCENDING else "kings descend"
        return IllegalMove(SEQUENCE, f"The {way} in sequence: {label} needs the "
                           f"{Card(nxt, pile[0].suit).name} next.")

    def _refuse_marriage(self, state: State, d: int, card: Card) -> IllegalMove | None:
        p = state.piles
        if self.dealing(state):
            return IllegalMove(MARRIAGES, "Marriages are formed only when the entire pack has "
                               "been dealt out.")
        if not p[d]:
            return IllegalMove(MARRIAGES, f"A marriage places a card on another card: "
                               f"{PILES[d].label} is empty, and nothing fills it.")
        top = p[d][-1]
        if top.suit is not card.suit:
            return IllegalMove(RULE_I, f"The cards of the alphabet follow suit: the "
                               f"{card.name} cannot be married to the {top.name}.")
        if not marries(card, top):
            return IllegalMove(MARRIAGES, f"A marriage goes one up or one down: only "
                               f"{_a(top.rank - 1) if top.rank > ACE else ''}"
                               f"{' or ' if ACE < top.rank < KING else ''}"
                               f"{_a(top.rank + 1) if top.rank < KING else ''} of "
                               f"{top.suit.noun} goes on the {top.name}.")
        if self.options.plays_first:
            ready = self.playable_in_alphabet(state)
            if ready is not None:
                return IllegalMove(MARRIAGES, f"Marriages come when all available cards have "
                                   f"been played: the {ready.name} can still be played on a "
                                   "foundation (LO-4).")
        return None

    def _refuse_change(self, state: State, f: int, d: int) -> IllegalMove | None:
        p = state.piles
        if d != other_of(f):
            return IllegalMove(SEQUENCE, "Cards played on the foundations stay there (only a "
                               "card fitting both foundations of its suit may be changed "
                               "from one to the other, in a re-deal).")
        if not self.privileged(state):
            when = "in a re-deal" if self.options.every_redeal else "in the second deal"
            return IllegalMove(EITHER, f"A card is changed from one foundation to the other "
                               f"only {when} (LO-6).")
        if len(p[f]) == 1:
            return IllegalMove(FOUNDATIONS, f"The {p[f][0].name} begins its foundation and "
                               "stays there.")
        card = p[f][-1]
        if not accepts(d, p[d], card):
            return IllegalMove(EITHER, f"Only a card suitable alike for both foundations may "
                               f"be changed from one to the other: {PILES[d].label} does "
                               f"not take the {card.name}.")
        if not self.changeable(state, f):
            return IllegalMove(EITHER, f"Only the card that turned up suitable alike for both "
                               f"foundations may be changed from one to the other: the "
                               f"{card.name} did not fit both when it was played.")
        return None

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        p = state.piles
        if action == "deal":
            if not p[STOCK]:
                if self.redeals_left(state):
                    return IllegalMove(DEAL, "The pack is dealt out: the alphabet may now be "
                                       "taken up and dealt again.")
                return IllegalMove(THREE, "The pack is dealt out, and the three re-deals have "
                                   "been made.")
            return None
        if action == "redeal":
            if p[STOCK]:
                return IllegalMove(REDEAL, "The alphabet is taken up only when the entire "
                                   "pack has been dealt out.")
            if not self.redeals_left(state):
                return IllegalMove(THREE, "There may be three re-deals, and all three have "
                                   "been made.")
            if not any(p[a] for a in ALPHABET_PILES):
                return IllegalMove(TAKE_UP, "The alphabet is empty: there is nothing to take "
                                   "up.")
            return None
        return IllegalMove(BOARD, f"The “Louis” Patience has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        v = list(state.vars)
        if move.action == "deal":
            n = v[V_DEALT] % CIRCLE
            if n == 0 and self.options.whole_circle:
                v[2:V_ALIKE] = [0] * CIRCLE  # a new circle blocks the whole of the one before it
            a = ALPHABET_PILES.start + n
            piles[a] = piles[a] + piles[STOCK][-1:]
            piles[STOCK] = piles[STOCK][:-1]
            v[V_DEALT] += 1
            v[2 + n] = len(piles[a])
        elif move.action == "redeal":
            order: list[Card] = []
            for ch in TAKE_UP_ORDER:
                a = ALPHABET_PILES.start + LETTERS.index(ch)
                order.extend(piles[a])     # each packet's cards in the order dealt
                piles[a] = ()
            piles[STOCK] = tuple(reversed(order))  # the pack's top is its last card
            v = [v[V_REDEALS] + 1, 0] + [0] * CIRCLE + v[V_ALIKE:]
        else:
            step = self.resolve_step(state, move)
            assert isinstance(step, Step)
            if (step.dst in FOUNDATION_PILES and step.src not in FOUNDATION_PILES
                    and self.privileged(state) and self.alike(state, step.card)):
                v[V_ALIKE + SUITS.index(step.card.suit)] = step.card.rank  # it may be changed
            src = list(piles[step.src])
            del src[step.k]
            piles[step.src] = tuple(src)
            piles[step.dst] = piles[step.dst] + (step.card,)
        return State(tuple(piles), tuple(v))

    # ---- the end ---------------------------------------------------------------------
    def played(self, state: State) -> int:
        return sum(len(state.piles[f]) for f in FOUNDATION_PILES)

    def solver_outcome(self, state: State) -> Outcome | None:
        return Outcome.WON if self.played(state) == TOTAL else None

    def play_reachable(self, state: State, limit: int = 3000) -> bool | None:
        """With the pack dealt out and no re-deal to come: whether some series of moves
        (marriages, changes between foundations, cards laid aside) reaches a position where
        a card can be played on a foundation (True), none does (False), or the search gave up
        after ``limit`` positions (None)."""
        seen = {state}
        todo = [state]
        while todo:
            s = todo.pop()
            nexts = []
            for m in self.legal_in(s):
                if m.action:
                    continue
                src, dst = m.steps[0]
                if (self.pile_index(dst) in FOUNDATION_PILES
                        and self.pile_index(src) not in FOUNDATION_PILES):
                    return True
                nexts.append(self.apply(s, m))
            for n in nexts:
                if n not in seen:
                    if len(seen) >= limit:
                        return None
                    seen.add(n)
                    todo.append(n)
        return False

    def _lost(self, state: State) -> bool:
        p = state.piles
        if p[STOCK]:
            return False
        if self.redeals_left(state) and any(p[a] for a in ALPHABET_PILES):
            return False
        return self.play_reachable(state) is False

    def outcome_of(self, state: State) -> Outcome | None:
        if self.played(state) == TOTAL:
            return Outcome.WON
        return Outcome.LOST if self.remembered(state, self._lost) else None

    # ---- board -----------------------------------------------------------------------
    def card_faces(self, state: State, pile: int) -> list[dict[str, Any]]:
        """A packet of the alphabet shows only its top card (the rest are covered). A top
        card blocked by Rule II is shown all the same: it lies face up for all to see."""
        if pile in ALPHABET_PILES:
            cards = state.piles[pile]
            return [{"c": None} for _ in cards[:-1]] + [{"c": str(c)} for c in cards[-1:]]
        return super().card_faces(state, pile)

    def status_line(self, state: State, out: Outcome | None) -> str:
        played = self.played(state)
        if out is Outcome.WON:
            return "Won: all eight foundations are complete."
        if out is Outcome.LOST:
            return (f"No re-deal is left and no card can reach a foundation: the patience has "
                    f"failed with {played} of 104 cards played.")
        p, v = state.piles, state.vars
        parts = [f"Deal {v[V_REDEALS] + 1} of 4"]
        if p[STOCK]:
            n = v[V_DEALT]
            parts.append(f"pack: {plural(len(p[STOCK]), 'card')}, next to letter "
                         f"{LETTERS[n % CIRCLE]} (circle {n // CIRCLE + 1})")
        else:
            parts.append("the pack is dealt out")
        if p[ASIDE_PILE]:
            parts.append(f"laid aside: {plural(len(p[ASIDE_PILE]), 'card')}")
        parts.append(f"{played} of 104 on the foundations")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        p = state.piles
        if move.action == "deal" and p[STOCK]:
            n = state.vars[V_DEALT]
            return f"The {p[STOCK][-1].name} is dealt to letter {LETTERS[n % CIRCLE]}."
        if move.action == "redeal":
            return ("The alphabet is taken up from g round to f and dealt again without "
                    "shuffling.")
        return super().describe(state, move)

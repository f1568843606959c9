"""The Sultan (two packs), by the book: 1914 printing, plate p. 32, text p. 33.

Piles: the Sultan (the centre king of hearts, which never moves); eight foundations (seven
kings and an ace of hearts, each built up in suit to the queen); the Divan of eight single
cards, four on either side; the pack, the card just turned from it, and the talon. See the
chapter page for the text each rule id points at, and its editorial notes (``note-su-N``) for
the readings behind the options.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .cards import ACE, KING, QUEEN, Card, Suit, pack
from .core import (
    ActionSpec,
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

SLUG = "the-sultan"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_1 = _rule("rule-1")            # the foundations must follow suit
SULTAN = _rule("sultan")            # the centre king of hearts remains alone
FOUNDATIONS = _rule("foundations")  # kings begin with ace and ascend to queen; so the ace
DIVAN = _rule("divan")              # from the Divan play any suitable cards on the foundations
DEAL = _rule("deal")                # deal out the rest of the pack, turning cards one by one
TALON = _rule("talon")              # cards not suitable are laid aside, forming the talon
REFILL = _rule("refill")            # Divan vacancies refilled at once: talon, else pack
REDEAL = _rule("redeal")            # the talon may be taken up, shuffled, re-dealt twice
BOARD = _rule("board")              # the board itself (notation errors, empty places)

DIVAN_PLACES = 8
THE_SULTAN = Card(KING, Suit.HEARTS)

#: The foundations' base cards, in the order of the plate's block, read row by row (the
#: Sultan, in the centre, is not among them).
BASES: tuple[Card, ...] = (
    Card(KING, Suit.CLUBS), Card(ACE, Suit.HEARTS), Card(KING, Suit.CLUBS),
    Card(KING, Suit.DIAMONDS), Card(KING, Suit.DIAMONDS),
    Card(KING, Suit.SPADES), Card(KING, Suit.HEARTS), Card(KING, Suit.SPADES),
)
_BLOCK_PLACES = ((0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2), (2, 2))


@dataclass(frozen=True, slots=True)
class SultanOptions:
    talon_play: bool = option(
        True, note="note-su-1", label="The top card of the talon may be played",
        labels={True: "yes, to a foundation, like a Divan card",
                False: "no, talon cards reach the foundations only through the Divan"})
    redeals: int = option(
        2, note="note-su-3", label="Re-deals of the talon",
        labels={2: "two, after the first deal (three times through)",
                1: "one (“twice” counting the first deal)"})
    must_play: bool = option(
        True, note="note-su-5", label="A suitable card turned from the pack",
        labels={True: "must be played to a foundation",
                False: "may be laid on the talon instead"})

    def __post_init__(self) -> None:
        if self.redeals not in (1, 2):
            raise ValueError("the talon is re-dealt once or twice")


def _divan(i: int) -> PileSpec:
    side, place = ("left", i + 1) if i < 4 else ("right", i - 3)
    return PileSpec(f"d{i}", f"Divan, {side} side, place {place}", Role.RESERVE,
                    x=0.3 if i < 4 else 5.3, y=0.1 + 0.9 * (i % 4), rotate=90)


_BLOCK_X, _BLOCK_Y = (1.8, 2.8, 3.8), (0.0, 1.25, 2.5)


def _foundation(j: int) -> PileSpec:
    col, row = _BLOCK_PLACES[j]
    base = BASES[j]
    side = ("upper", "middle", "lower")[row] + " " + ("left", "centre", "right")[col]
    return PileSpec(f"f{j}", f"foundation on the {base.name} ({side})", Role.FOUNDATION,
                    x=_BLOCK_X[col], y=_BLOCK_Y[row])


PILES: tuple[PileSpec, ...] = (
    (PileSpec("sultan", "the Sultan", Role.FIGURE, x=_BLOCK_X[1], y=_BLOCK_Y[1]),)
    + tuple(_foundation(j) for j in range(8))
    + tuple(_divan(i) for i in range(DIVAN_PLACES))
    + (PileSpec("stock", "the pack", Role.STOCK, x=1.8, y=3.85),
       PileSpec("turned", "the card turned up", Role.RESERVE, x=2.8, y=3.85),
       PileSpec("talon", "the talon", Role.TALON, x=3.8, y=3.85))
)

SULTAN_PILE = 0
FOUNDATION_PILES = range(1, 9)
DIVAN_PILES = range(9, 17)
STOCK = 17
TURNED = 18
TALON_PILE = 19


def _next_rank(pile: tuple[Card, ...]) -> int | None:
    """The rank a foundation takes next (None when it is complete, at the queen)."""
    top = pile[-1].rank
    if top == KING:
        return ACE
    if top == QUEEN:
        return None
    return top + 1


def accepts(pile: tuple[Card, ...], card: Card) -> bool:
    """Whether a foundation pile (its base card at the bottom) takes ``card`` next."""
    return card.suit is pile[0].suit and card.rank == _next_rank(pile)


class TheSultan(Game):
    slug = SLUG
    title = "The Sultan"
    packs = 2
    Options = SultanOptions
    PILES = PILES
    VARS = ("redeals",)
    GRID = (6.4, 4.85)
    LEDGER = {
        RULE_1: "A card is refused on a foundation of another suit.",
        SULTAN: "The centre king of hearts never moves and takes no card.",
        FOUNDATIONS: "Each king foundation takes its suit’s ace, then two and so on up to "
                     "the queen; the ace of hearts foundation goes up from the two to the "
                     "queen; a card on a foundation never leaves it. The game is won when all "
                     "eight end with queens.",
        DIVAN: "The top card of any Divan place may be played to a foundation that takes it, "
               "at any time; Divan cards go nowhere else (SU-7).",
        DEAL: "“Turn up the next card” turns the pack’s top card; a card from the pack "
              "goes nowhere without being turned up. A suitable card turned up must be "
              "played before anything else (or, under SU-5’s other reading, may be laid "
              "on the talon).",
        TALON: "An unsuitable card turned up goes to the talon at once; only turned cards "
               "reach the talon, only its top card can be used, and it may be played to a "
               "foundation (or, under SU-1’s strict reading, only refills the Divan).",
        REFILL: "A vacant Divan place is filled at once by the talon’s top card, or by the "
                "pack’s when there is no talon; with neither it stays empty.",
        REDEAL: "When the pack is used up, the talon may be shuffled and dealt again, twice "
                "(or once, under SU-3’s other count); the shuffle is fixed by the deal "
                "number.",
    }
    FIGURES = (
        Figure("tableau", "The Sultan after the deal, in modern cards.",
               "The tableau of the Sultan just after the deal, drawn in modern cards: in the "
               "centre a block of three rows of three, the king of hearts called the Sultan in "
               "the middle, ringed by two kings of clubs and the ace of hearts above, the two "
               "kings of diamonds at his sides, and two kings of spades and the other king of "
               "hearts below; the eight cards of the Divan lie sideways, four in a column on "
               "either side; below the block are the pack, face down, the place for the card "
               "turned up, and the place of the talon."),
    )
    ACTIONS = (
        ActionSpec("deal", "Turn up the next card", "t", DEAL),
        ActionSpec("redeal", "Shuffle and re-deal the talon", "e", REDEAL),
    )

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        rest = Counter(pack(2))
        rest.subtract([THE_SULTAN, *BASES])
        stock = tuple(shuffled(sorted(rest.elements()), deal))
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        piles[SULTAN_PILE] = (THE_SULTAN,)
        for j, f in enumerate(FOUNDATION_PILES):
            piles[f] = (BASES[j],)
        for i in DIVAN_PILES:  # left column top to bottom, then the right (SU-2)
            piles[i] = (stock[-1],)
            stock = stock[:-1]
        piles[STOCK] = stock
        return State(tuple(piles), (0,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        if p[SULTAN_PILE] != (THE_SULTAN,):
            raise PositionError("the Sultan's place must hold the king of hearts alone")
        for j, f in enumerate(FOUNDATION_PILES):
            pile = p[f]
            if not pile or pile[0] != BASES[j]:
                raise PositionError(f"{PILES[f].label} must begin with the {BASES[j].name}")
            for k in range(1, len(pile)):
                if not accepts(pile[:k], pile[k]):
                    raise PositionError(f"{PILES[f].label} is not built in order")
        if any(len(p[i]) > 1 for i in DIVAN_PILES) or len(p[TURNED]) > 1:
            raise PositionError("a Divan place or the turned card holds more than one card")
        redeals = state.vars[0]
        if not 0 <= redeals <= 2:
            raise PositionError("the talon is re-dealt at most twice")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def _fits(self, state: State, card: Card) -> bool:
        return any(accepts(state.piles[f], card) for f in FOUNDATION_PILES)

    def redeals_left(self, state: State) -> int:
        allowed: int = self.options.redeals
        return max(0, allowed - state.vars[0])

    def _seed(self) -> int:
        return self.deal if self.deal is not None else 0

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        sources = [i for i in DIVAN_PILES if piles[i]]
        if piles[TALON_PILE]:
            sources.append(TALON_PILE)
        if piles[TURNED]:
            sources = [TURNED]
            yield Move.step("turned", "talon")
        for i in sources:
            card = piles[i][-1]
            for f in FOUNDATION_PILES:
                if accepts(piles[f], card):
                    yield Move.step(PILES[i].id, PILES[f].id)
        yield Move(action="deal")
        yield Move(action="redeal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        if not step.top:
            if si == TALON_PILE:
                return IllegalMove(TALON, "Only the top card of the talon can be used.")
            return IllegalMove(BOARD, "Only the top card of a pile can be moved.")
        # where the card comes from
        if si == SULTAN_PILE:
            return IllegalMove(SULTAN, "The Sultan remains alone: he never moves.")
        if si in FOUNDATION_PILES:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if si == STOCK:
            return IllegalMove(DEAL, "The pack is dealt by turning its cards up one by one "
                               "(Turn up the next card).")
        if state.piles[TURNED] and si != TURNED:
            return self._pending(state)
        if si == TALON_PILE and not self.options.talon_play:
            return IllegalMove(TALON, "Under the reading chosen, talon cards reach the "
                               "foundations only by refilling the Divan.")
        # where it goes
        if di in FOUNDATION_PILES:
            return self._refuse_foundation(state, di, card)
        if di == SULTAN_PILE:
            return IllegalMove(SULTAN, "The Sultan remains alone: nothing is played on him.")
        if di in DIVAN_PILES:
            return IllegalMove(REFILL, "Divan places are refilled only when they fall vacant, "
                               "and at once, from the talon or else from the pack.")
        if di == TALON_PILE:
            if si != TURNED:
                return IllegalMove(TALON, "Only cards turned up from the pack go to the talon.")
            if self.options.must_play:
                return IllegalMove(TALON, f"The {card.name} is suitable for a foundation: "
                                   "only cards not suitable are laid aside on the talon.")
            return None
        if si in DIVAN_PILES:
            return IllegalMove(DIVAN, "Divan cards are played only to the foundations.")
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def _pending(self, state: State) -> IllegalMove:
        card = state.piles[TURNED][-1]
        what = ("played to a foundation" if self.options.must_play
                else "played to a foundation or laid on the talon")
        return IllegalMove(TALON, f"The {card.name} just turned up must first be {what}.")

    def _refuse_foundation(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        if accepts(pile, card):
            return None
        base = pile[0]
        if card.suit is not base.suit:
            return IllegalMove(RULE_1, f"The foundations must follow suit: the "
                               f"{PILES[f].label} takes only {base.suit.noun}.")
        nxt = _next_rank(pile)
        if nxt is None:
            return IllegalMove(FOUNDATIONS, f"The {PILES[f].label} is complete: it ends "
                               "with the queen.")
        return IllegalMove(FOUNDATIONS, f"The {PILES[f].label} needs the "
                           f"{Card(nxt, base.suit).name} next.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action not in ("deal", "redeal"):
            return IllegalMove(BOARD, f"The Sultan has no action {action!r}.")
        if state.piles[TURNED]:
            return self._pending(state)
        if action == "deal":
            if not state.piles[STOCK]:
                return IllegalMove(DEAL, "The pack is used up: there is no card to turn.")
            return None
        if state.piles[STOCK]:
            return IllegalMove(REDEAL, "The talon is re-dealt only when the whole of the "
                               "pack has been dealt out.")
        if self.redeals_left(state) == 0:
            n = self.options.redeals
            times = "twice" if n == 2 else "once"
            return IllegalMove(REDEAL, f"The talon may be re-dealt only {times}, and "
                               "that has been done.")
        if not state.piles[TALON_PILE]:
            return IllegalMove(REDEAL, "There is no talon to re-deal.")
        return None

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        redeals = state.vars[0]
        if move.action == "deal":
            card = piles[STOCK][-1]
            piles[STOCK] = piles[STOCK][:-1]
            if self._fits(state, card):
                piles[TURNED] = (card,)
            else:
                piles[TALON_PILE] = piles[TALON_PILE] + (card,)
        elif move.action == "redeal":
            redeals += 1
            piles[STOCK] = tuple(shuffled(piles[TALON_PILE], self._seed(), stream=redeals))
            piles[TALON_PILE] = ()
        else:
            (src, dst), = move.steps
            si, di = self.pile_index(src), self.pile_index(dst)
            card = piles[si][-1]
            piles[si] = piles[si][:-1]
            piles[di] = piles[di] + (card,)
        self._refill(piles)
        return State(tuple(piles), (redeals,))

    @staticmethod
    def _refill(piles: list[tuple[Card, ...]]) -> None:
        """Every vacant Divan place takes at once the top of the talon, or, when there is no
        talon, the top of the pack (turned face up); with neither it stays vacant."""
        for i in DIVAN_PILES:
            if piles[i]:
                continue
            for src in (TALON_PILE, STOCK):
                if piles[src]:
                    piles[i] = (piles[src][-1],)
                    piles[src] = piles[src][:-1]
                    break

    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """The eight places of the Divan, and the two foundations on each of the kings of
        clubs, diamonds and spades: no rule tells them apart by place."""
        f = FOUNDATION_PILES.start
        return (tuple(DIVAN_PILES), (f, f + 2), (f + 3, f + 4), (f + 5, f + 7))

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: the other answer of :meth:`outcome_of` (LOST when no move is
        left) costs a search for moves, and is a dead end to the solver anyway."""
        if all(len(state.piles[f]) == (12 if BASES[j].rank == ACE else 13)
               for j, f in enumerate(FOUNDATION_PILES)):
            return Outcome.WON
        return None

    def outcome_of(self, state: State) -> Outcome | None:
        if all(len(state.piles[f]) == (12 if BASES[j].rank == ACE else 13)
               for j, f in enumerate(FOUNDATION_PILES)):
            return Outcome.WON
        # Every move makes progress (a card reaches a foundation, the pack shrinks, or a
        # re-deal is used), so a position with no legal move is final.
        return None if self.has_legal_move(state) else Outcome.LOST

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        if out is Outcome.WON:
            return "Won: the Sultan is ringed by eight queens."
        if out is Outcome.LOST:
            return "Nothing more can be done: the patience has failed."
        stock, talon = len(state.piles[STOCK]), len(state.piles[TALON_PILE])
        left = self.redeals_left(state)
        parts = [f"Pack: {plural(stock, 'card')}",
                 f"talon: {plural(talon, 'card')}",
                 f"re-deals left: {left}"]
        if state.piles[TURNED]:
            parts.append(f"play the {state.piles[TURNED][-1].name}")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "deal" and state.piles[STOCK]:
            card = state.piles[STOCK][-1]
            if self._fits(state, card):
                return f"The {card.name} is turned up; it is suitable for a foundation."
            return f"The {card.name} is turned up and laid on the talon."
        if move.action == "redeal":
            return "The talon is taken up, shuffled and dealt again."
        return super().describe(state, move)

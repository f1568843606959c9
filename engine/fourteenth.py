"""The Fourteenth (two packs), by the book: 1914 printing, plate p. 30, text p. 31.

Piles: twenty-five places in five rows of five, each holding one card face up; the hand (the
rest of the pack, face down); and the pairs withdrawn. Any two cards of one row, across
(horizontal) or up and down (perpendicular), whose values make fourteen (ace one, knave
eleven, queen twelve, king thirteen) are withdrawn together, and their places are filled at
once from the hand. When no fourteen can be composed, one chance remains: two cards change
places with two others. The game is won when the whole pack is paired off. See the chapter
page for the text each rule id points at, and its editorial notes (``note-ft-N``) for the
readings behind the option and the decisions.

Moves: a pair is one step from one card to the other (``p0-p4``: the card in place 1 with the
card in place 5; either way round). The exchange is the action ``exchange``, after which each
step between two cards makes them change places (``p3-p12``), until four cards have left
their places: two changes between four different cards, or three that send four cards round
in a ring (note FT-6).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from itertools import combinations, permutations
from typing import Any

from .cards import ACE, KING, KNAVE, QUEEN, Card, pack
from .core import (
    ActionSpec,
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

SLUG = "the-fourteenth"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
DEAL = _rule("deal")            # twenty-five cards in five rows of five
FOURTEEN = _rule("fourteen")    # fourteen with any two cards of one row, across or up and down
VALUES = _rule("values")        # the knave counts eleven, the queen twelve, the king thirteen
PAIRED = _rule("paired")        # the pair withdrawn, its places filled from the hand
EXCHANGE = _rule("exchange")    # no fourteen: two cards change places with two others
CONTROL = _rule("control")      # the exchange is the player's only control over success
SUCCESS = _rule("success")      # success: the entire pack paired off
TABLEAU = _rule("tableau")      # the plate's three fourteens
BOARD = _rule("board")          # the board itself (notation errors, the pile itself)

SIZE = 5                  # rows, and places in a row
PLACES_N = SIZE * SIZE
TOTAL = 104
TARGET = 14
EXCHANGED = 4             # cards that leave their places in the exchange
#: Cards on the table up to which every possible exchange is tried when judging a loss.
EXHAUSTIVE = 8


class Frequency(Enum):
    """FT-7: how often the exchange may be made."""

    EACH_STOP = "each-stop"  # once each time the game comes to a stop
    ONCE = "once"            # once in the whole game


@dataclass(frozen=True, slots=True)
class FourteenthOptions:
    exchanges: Frequency = option(
        Frequency.EACH_STOP, note="note-ft-7", label="The exchange may be made",
        labels={Frequency.EACH_STOP: "once each time no fourteen can be composed",
                Frequency.ONCE: "once in the whole game"})


# ---------------------------------------------------------------------------- the layout
# The twenty-five places as the plate lays them, five rows of five; the hand and the pairs
# withdrawn beside them on the right (below them on a phone).

_SIDE_X = 5.4

PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"p{k}", f"row {k // SIZE + 1}, place {k % SIZE + 1}", Role.TABLEAU,
                   float(k % SIZE), float(k // SIZE)) for k in range(PLACES_N))
    + (PileSpec("stock", "the hand", Role.STOCK, _SIDE_X, 0.0),
       PileSpec("out", "the pairs withdrawn", Role.DISCARD, _SIDE_X, 1.5))
)

PLACES = range(PLACES_N)
STOCK = PLACES_N
OUT = PLACES_N + 1
V_SPENT, V_EXCHANGING, V_MOVED = 0, 1, 2


def _narrow_layout() -> Layout:
    """For a phone: the hand and the pairs withdrawn below the five rows."""
    return Layout(name="narrow", max_width=560, grid=(5.0, 6.3),
                  at={"stock": (1.0, 5.3, 0), "out": (3.0, 5.3, 0)})


def value(card: Card) -> int:
    """What a card counts: the number of its pips, the ace one (FT-1), the knave eleven, the
    queen twelve and the king thirteen."""
    return card.rank


def row_of(k: int) -> int:
    return k // SIZE


def column_of(k: int) -> int:
    return k % SIZE


def in_line(a: int, b: int) -> bool:
    """Whether two places lie in one horizontal or one perpendicular row (FT-2)."""
    return a != b and (row_of(a) == row_of(b) or column_of(a) == column_of(b))


def where(k: int) -> str:
    return f"row {row_of(k) + 1}, place {column_of(k) + 1}"


def fourteens(places: tuple[Card | None, ...]) -> Iterator[tuple[int, int]]:
    """Every pair of places (lower first) whose cards lie in one row and make fourteen."""
    for a in range(PLACES_N):
        x = places[a]
        if x is None:
            continue
        for b in range(a + 1, PLACES_N):
            y = places[b]
            if y is not None and in_line(a, b) and value(x) + value(y) == TARGET:
                yield a, b


def _makes_fourteen(places: list[Card | None], q: int) -> bool:
    """Whether the card in place ``q`` makes fourteen with a card in one of its rows."""
    x = places[q]
    if x is None:
        return False
    for k in range(PLACES_N):
        y = places[k]
        if y is not None and in_line(q, k) and value(x) + value(y) == TARGET:
            return True
    return False


def _bits(mask: int) -> int:
    return bin(mask).count("1")


#: The ways four cards may change places, two with two (FT-6): every arrangement in which
#: no card keeps its place (two changes of places, or four cards round in a ring).
DERANGEMENTS: tuple[tuple[int, ...], ...] = tuple(
    p for p in permutations(range(EXCHANGED)) if all(p[i] != i for i in range(EXCHANGED)))


class TheFourteenth(Game):
    slug = SLUG
    title = "The Fourteenth"
    packs = 2
    Options = FourteenthOptions
    PILES = PILES
    VARS = ("spent", "exchanging", "moved")
    GRID = (_SIDE_X + 1.0, float(SIZE))
    LAYOUTS = (_narrow_layout(),)
    FIGURES = (
        Figure("tableau", "The Fourteenth after the deal, in modern cards.",
               "The tableau of the Fourteenth just after the deal, drawn in modern cards: "
               "twenty-five cards face up in five rows of five, side by side, every card "
               "whole; the rest of the pack, the hand, is not shown.",
               piles=tuple(PILES[k].id for k in PLACES)),
    )
    ACTIONS = (ActionSpec("exchange", "Make the exchange", "x", EXCHANGE),)
    LEDGER = {
        DEAL: "The deal lays twenty-five cards face up in five rows of five, row by row from "
              "the top, each from left to right; the other seventy-nine cards are the hand, "
              "face down.",
        FOURTEEN: "Two cards are withdrawn together when they lie in the same row, across or "
                  "up and down, however far apart and whatever lies between, and their values "
                  "add up to fourteen; two cards in different rows and columns, or making "
                  "another total, are refused.",
        VALUES: "A card counts its pips, the ace one (note FT-1), the knave eleven, the queen "
                "twelve and the king thirteen, so the fourteens are ace and king, two and "
                "queen, three and knave, four and ten, five and nine, six and eight, and two "
                "sevens.",
        PAIRED: "The two cards go to the pairs withdrawn and their places are filled at once "
                "from the top of the hand, the upper (or the left) place first; once the hand "
                "is exhausted the places stay empty, and no card may be put in one.",
        EXCHANGE: "When no fourteen can be composed, “Make the exchange” lets four cards of "
                  "the tableau leave their places, two taking the places of the other two and "
                  "those theirs; nothing else may be done until it is complete. It is refused "
                  "while a fourteen can be made, with fewer than four cards on the table, and "
                  "after an exchange until a pair has been withdrawn (under the other reading "
                  "of note FT-7, for the rest of the game).",
        CONTROL: "The player chooses the four cards and where each goes; the exchange need not "
                 "produce a fourteen, and the board never makes a choice for the player.",
        SUCCESS: "The game is won when all a hundred and four cards are paired off; it is "
                 "lost when no fourteen can be composed and the exchange is spent or can "
                 "produce none (note FT-8).",
        TABLEAU: "On the plate’s twenty-five cards, read as the text names them, the board "
                 "finds exactly the three fourteens the text names, each pair in one row with "
                 "other cards between.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        stock = shuffled(pack(2), deal)
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for k in PLACES:  # from the top of the pack, row by row, each from left to right
            piles[k] = (stock.pop(),)
        piles[STOCK] = tuple(stock)
        return State(tuple(piles), (0, 0, 0))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        if any(len(state.piles[k]) > 1 for k in PLACES):
            raise PositionError("a place of the tableau holds one card at most")
        if state.piles[STOCK] and any(not state.piles[k] for k in PLACES):
            raise PositionError("a place is empty while cards remain in the hand")
        out = state.piles[OUT]
        if len(out) % 2 or any(value(out[i]) + value(out[i + 1]) != TARGET
                               for i in range(0, len(out), 2)):
            raise PositionError("the cards withdrawn are not pairs making fourteen")
        spent, exchanging, moved = state.vars
        if spent not in (0, 1) or exchanging not in (0, 1):
            raise PositionError("the counters spent and exchanging are 0 or 1")
        if exchanging and not spent:
            raise PositionError("an exchange under way has been spent")
        if moved < 0 or moved >= 1 << PLACES_N or _bits(moved) > EXCHANGED - 1 or (
                moved and not exchanging) or _bits(moved) == 1:
            raise PositionError("the cards moved in the exchange are not a possible set")
        if any(moved >> k & 1 and not state.piles[k] for k in PLACES):
            raise PositionError("an empty place has no card moved in the exchange")
        return state

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def places(state: State) -> tuple[Card | None, ...]:
        """The card in each place (None where the place is empty)."""
        return tuple(state.piles[k][0] if state.piles[k] else None for k in PLACES)

    @staticmethod
    def on_table(state: State) -> int:
        return sum(1 for k in PLACES if state.piles[k])

    @staticmethod
    def paired_off(state: State) -> int:
        return len(state.piles[OUT])

    def first_fourteen(self, state: State) -> tuple[int, int] | None:
        return next(fourteens(self.places(state)), None)

    def exchange_refusal(self, state: State) -> IllegalMove | None:
        """Why the exchange may not be begun now (None: it may)."""
        if state.vars[V_EXCHANGING]:
            return IllegalMove(EXCHANGE, "The exchange is already under way: move a card "
                               "onto another to make them change places.")
        pair = self.first_fourteen(state)
        if pair is not None:
            a, b = pair
            x, y = state.piles[a][0], state.piles[b][0]
            return IllegalMove(EXCHANGE, "The exchange is allowed only when the number "
                               f"fourteen cannot be composed: the {x.name} ({where(a)}) and "
                               f"the {y.name} ({where(b)}) make fourteen.")
        if state.vars[V_SPENT]:
            if self.options.exchanges is Frequency.ONCE:
                return IllegalMove(EXCHANGE, "Only one chance remains, and it has been used: "
                                   "the exchange is made once in the game.")
            return IllegalMove(EXCHANGE, "The exchange has been made since the last pair was "
                               "withdrawn: one chance each time the game comes to a stop.")
        n = self.on_table(state)
        if n < EXCHANGED:
            return IllegalMove(EXCHANGE, "The exchange needs four cards, two to change places "
                               f"with two others, and only {plural(n, 'card')} "
                               f"{'is' if n == 1 else 'are'} left.")
        return None

    def exchange_can_help(self, state: State) -> bool:
        """False only when no exchange can produce a fourteen (the game is then lost); True
        when one can or, with more than ``EXHAUSTIVE`` cards on the table, perhaps can."""
        cards = self.places(state)
        occupied = [k for k in PLACES if cards[k] is not None]
        n = len(occupied)
        if n < EXCHANGED:
            return False
        values = [value(c) for c in cards if c is not None]
        if not any(a + b == TARGET for a, b in combinations(values, 2)):
            return False  # the exchange moves cards, it changes none of them
        if not any(in_line(a, b) for a, b in combinations(occupied, 2)):
            return False  # no two cards left lie in one row
        if n > EXHAUSTIVE:
            return True  # too many arrangements to try them all: not provably hopeless
        for four in combinations(occupied, EXCHANGED):
            for perm in DERANGEMENTS:
                trial = list(cards)
                for i, j in enumerate(perm):
                    trial[four[j]] = cards[four[i]]
                if any(_makes_fourteen(trial, q) for q in four):
                    return True
        return False

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        cards = self.places(state)
        if state.vars[V_EXCHANGING]:
            occupied = [k for k in PLACES if cards[k] is not None]
            for a in occupied:
                for b in occupied:
                    if a != b:
                        yield Move.step(PILES[a].id, PILES[b].id)
            return
        for a, b in fourteens(cards):
            yield Move.step(PILES[a].id, PILES[b].id)
            yield Move.step(PILES[b].id, PILES[a].id)
        yield Move(action="exchange")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        if si == di:
            return IllegalMove(BOARD, f"The {card.name} is already there.")
        if si == STOCK:
            return IllegalMove(PAIRED, "The cards in your hand come out only to fill the "
                               "places of a pair withdrawn, and they do so by themselves.")
        if si == OUT:
            return IllegalMove(PAIRED, "The cards so paired are withdrawn: they take no "
                               "further part in the game.")
        exchanging = bool(state.vars[V_EXCHANGING])
        if di not in PLACES:
            if exchanging:
                return IllegalMove(EXCHANGE, "In the exchange cards change places with other "
                                   "cards of the tableau: put the card on another card.")
            return IllegalMove(FOURTEEN, "A card is withdrawn only with another that makes "
                               "fourteen with it: put it on that card.")
        target = state.piles[di]
        if exchanging:
            return self._swap_refusal(state, si, di, card)
        if not target:
            return IllegalMove(PAIRED, "An empty place is filled only by the cards in your "
                               "hand; once the hand is exhausted it stays empty.")
        other = target[0]
        if not in_line(si, di):
            return IllegalMove(FOURTEEN, f"The {card.name} ({where(si)}) and the "
                               f"{other.name} ({where(di)}) are neither in one horizontal "
                               "nor in one perpendicular row.")
        total = value(card) + value(other)
        if total != TARGET:
            counts = [f"the {c.name} counts {value(c)}" for c in (card, other)
                      if c.rank in (ACE, KNAVE, QUEEN, KING)]
            why = f" ({' and '.join(counts)})" if counts else ""
            return IllegalMove(FOURTEEN, f"The {card.name} and the {other.name} make "
                               f"{total}, not fourteen{why}.")
        return None

    def _swap_refusal(self, state: State, a: int, b: int, card: Card) -> IllegalMove | None:
        if not state.piles[b]:
            return IllegalMove(EXCHANGE, "Only cards change places in the exchange: an empty "
                               "place takes no part in it.")
        moved = state.vars[V_MOVED]
        fresh = [k for k in (a, b) if not moved >> k & 1]
        if not fresh:
            return IllegalMove(EXCHANGE, f"The {card.name} and the {state.piles[b][0].name} "
                               "have both moved already: each change of places in the "
                               "exchange brings in a card not yet moved.")
        if _bits(moved | 1 << a | 1 << b) > EXCHANGED:
            return IllegalMove(EXCHANGE, "Two cards change places with two others, four in "
                               f"all, and {_bits(moved)} have moved already: change one of "
                               "them with a fourth card.")
        return None

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "exchange":
            return self.exchange_refusal(state)
        if action == "deal":
            return IllegalMove(PAIRED, "The cards in your hand are dealt only to fill the "
                               "places of a pair withdrawn, and they are dealt at once.")
        if action == "redeal":
            return IllegalMove(EXCHANGE, "When no fourteen can be composed, the one chance "
                               "that remains is the exchange: there is no re-deal.")
        return IllegalMove(BOARD, f"The Fourteenth has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        spent, exchanging, moved = state.vars
        piles = list(state.piles)
        if move.action == "exchange":
            return State(state.piles, (1, 1, 0))
        (src, dst), = move.steps
        a, b = self.pile_index(src), self.pile_index(dst)
        if exchanging:
            piles[a], piles[b] = piles[b], piles[a]
            moved |= 1 << a | 1 << b
            if _bits(moved) == EXCHANGED:  # four cards have left their places: complete
                exchanging, moved = 0, 0
            return State(tuple(piles), (spent, exchanging, moved))
        first, second = sorted((a, b))
        piles[OUT] = piles[OUT] + piles[first] + piles[second]
        stock = piles[STOCK]
        for k in (first, second):  # the upper (or the left) place first (FT-3)
            piles[k] = stock[-1:]
            stock = stock[:-1]
        piles[STOCK] = stock
        if self.options.exchanges is Frequency.EACH_STOP:
            spent = 0
        return State(tuple(piles), (spent, exchanging, moved))

    def solver_spent(self) -> tuple[int, ...]:
        """The pairs thrown out: they take no further part, and no rule reads their order."""
        return (OUT,)

    # ---- the end ---------------------------------------------------------------------
    def outcome_of(self, state: State) -> Outcome | None:
        if self.paired_off(state) == TOTAL:
            return Outcome.WON
        if state.vars[V_EXCHANGING] or self.first_fourteen(state) is not None:
            return None
        if self.exchange_refusal(state) is not None or not self.exchange_can_help(state):
            return Outcome.LOST
        return None

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        done = self.paired_off(state)
        if out is Outcome.WON:
            return "Won: the entire pack is paired off."
        if out is Outcome.LOST:
            if state.vars[V_SPENT]:
                why = "and the exchange has been made"
            elif self.on_table(state) < EXCHANGED:
                why = "and too few cards are left for the exchange"
            else:
                why = "and no exchange can produce one"
            return (f"No fourteen can be composed, {why}: the patience has failed with "
                    f"{done} of {TOTAL} cards paired off.")
        if state.vars[V_EXCHANGING]:
            n = _bits(state.vars[V_MOVED])
            if n == 0:
                return ("The exchange: put a card on another to make them change places; "
                        "four cards in all will leave their places.")
            moved = [f"the {state.piles[k][0].name}" for k in PLACES
                     if state.vars[V_MOVED] >> k & 1]
            if n == 2:
                return (f"The exchange: {moved[0]} and {moved[1]} have changed places. Change "
                        "two other cards, or send one of these two on to a third card’s "
                        "place.")
            return (f"The exchange: {moved[0]}, {moved[1]} and {moved[2]} have moved round. "
                    "Change one of them with a fourth card to complete it.")
        parts = [f"Paired off: {done} of {TOTAL}", f"in your hand: {len(state.piles[STOCK])}"]
        n = sum(1 for _ in fourteens(self.places(state)))
        if n:
            parts.append(f"{plural(n, 'fourteen')} to be made")
        elif self.exchange_refusal(state) is None:
            parts.append("no fourteen can be composed: one chance remains, the exchange")
        if state.vars[V_SPENT] and self.options.exchanges is Frequency.ONCE:
            parts.append("the exchange has been made")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "exchange":
            return ("The exchange begins: put a card on another to make them change places.")
        step = self.resolve_step(state, move)
        if not isinstance(step, Step) or step.dst not in PLACES or not state.piles[step.dst]:
            return super().describe(state, move)
        other = state.piles[step.dst][0]
        if state.vars[V_EXCHANGING]:
            return (f"The {step.card.name} ({where(step.src)}) and the {other.name} "
                    f"({where(step.dst)}) change places.")
        left = len(state.piles[STOCK])
        refill = ("their places are filled from the hand" if left >= 2 else
                  "the last card of the hand fills the first of their places" if left else
                  "the hand is exhausted, and their places stay empty")
        return (f"The {step.card.name} and the {other.name} make fourteen and are withdrawn; "
                f"{refill}.")

"""The Square (two packs), by the book: 1914 printing, plate p. 88, text p. 89.

Piles: four foundation places at the corners, each begun by the first ace of a suit to appear
(Rule I, and "the four aces of different suits ... as they appear"), which ascends in its suit
to the king, takes the second king of its suit and descends again to the second ace: 26 cards
(Rule II); the Square, sixteen packets in four rows of four, on which cards marry in their
suit one above or one below, in either direction, one card at a time; the pack, the card just
turned up from it, and the talon.

A space in the Square is refilled at once from the pack or the talon (its next card, the card
turned up, or the talon's top), and nothing else is done until it is; when only one of those
can fill it, the board fills it itself. A card turned up that can be neither played nor
married is laid on the talon at once; one that can must be used (SQ-5). There is no re-deal.
See the chapter page for the text each rule id points at, and its editorial notes
(``note-sq-N``) for the readings behind the options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, RANK_NAMES, Card, Suit, pack
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

SLUG = "the-square"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_1 = _rule("rule-1")            # the foundations follow suit
RULE_2 = _rule("rule-2")            # aces up to kings, a second king, down again to aces
SQUARE = _rule("square")            # deal out sixteen cards, as in tableau: the Square
ACES = _rule("aces")                # the four aces of different suits placed as they appear
FOUNDATIONS = _rule("foundations")  # these are the foundations, up to kings and down to aces
PLAY = _rule("play")                # when the Square is complete, play from it suitable cards
MARRY = _rule("marry")              # marry both in ascending and descending line on the Square
REFILL = _rule("refill")            # immediately refilling spaces from the pack or talon
DEAL = _rule("deal")                # deal out the whole pack, playing, marrying, refilling
TALON = _rule("talon")              # the unsuitable cards forming the talon
REVERSE = _rule("reverse")          # sequences reversed from one packet to another
CARE = _rule("care")                # great care lest cards block each other (advice)
SUCCEEDS = _rule("succeeds")        # the double series finishes with four aces
NO_REDEAL = _rule("no-redeal")      # there is no re-deal
BOARD = _rule("board")              # the board itself (notation errors)

SQUARE_PLACES = 16
FULL = 26          # cards on a finished foundation: ace to king, king to ace
TOTAL = 104


class Descent(Enum):
    """When a foundation that has reached its king takes the second king (SQ-2)."""

    EACH = "each"
    ALL = "all"


@dataclass(frozen=True, slots=True)
class SquareOptions:
    descent: Descent = option(
        Descent.EACH, note="note-sq-2", label="A foundation that has reached its king",
        labels={Descent.EACH: "takes its second king at once",
                Descent.ALL: "waits until all four have reached their kings"})
    turned_card: bool = option(
        True, note="note-sq-5", label="A card turned up that could be played or married",
        labels={True: "must be used: only unsuitable cards go to the talon",
                False: "may be laid on the talon all the same"})


# ---- piles ----------------------------------------------------------------------------

_ROW_Y = (0.0, 1.55, 3.1, 4.65)
_CORNERS = (("upper left", 0.0, _ROW_Y[0]), ("upper right", 5.0, _ROW_Y[0]),
            ("lower left", 0.0, _ROW_Y[3]), ("lower right", 5.0, _ROW_Y[3]))
_ROW_NAMES = ("first", "second", "third", "fourth")

PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"f{j}", f"foundation, {name}", Role.FOUNDATION, x=x, y=y, mark="ace")
          for j, (name, x, y) in enumerate(_CORNERS))
    + tuple(PileSpec(f"s{i}", f"the Square, {_ROW_NAMES[i // 4]} row, place {i % 4 + 1}",
                     Role.TABLEAU, x=1.0 + i % 4, y=_ROW_Y[i // 4], fan=Fan.DOWN,
                     fan_limit=0.5)
            for i in range(SQUARE_PLACES))
    + (PileSpec("stock", "the pack", Role.STOCK, x=6.0, y=_ROW_Y[0]),
       PileSpec("turned", "the card turned up", Role.RESERVE, x=6.0, y=_ROW_Y[1]),
       PileSpec("talon", "the talon", Role.TALON, x=6.0, y=_ROW_Y[2]))
)

FOUNDATION_PILES = range(0, 4)
SQUARE_PILES = range(4, 4 + SQUARE_PLACES)
STOCK = 20
TURNED = 21
TALON_PILE = 22
SOURCES = (STOCK, TURNED, TALON_PILE)


def next_rank(pile: tuple[Card, ...]) -> int | None:
    """The rank a foundation takes next (Rule II): an ace when empty, then up to the king,
    a second king, and down to the ace; None when complete."""
    n = len(pile)
    if n >= FULL:
        return None
    return n + 1 if n < 13 else FULL - n


def marries(top: Card, card: Card) -> bool:
    """Whether ``card`` marries on ``top``: the same suit, one above or one below."""
    return card.suit is top.suit and abs(card.rank - top.rank) == 1


def _founded(piles: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]]) -> set[Suit]:
    return {piles[f][0].suit for f in FOUNDATION_PILES if piles[f]}


def _new_ace(piles: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]], card: Card) -> bool:
    """Whether ``card`` is the first ace of its suit to appear: it begins a foundation."""
    return card.rank == ACE and card.suit not in _founded(piles)


def _to_corner(piles: list[tuple[Card, ...]], card: Card) -> None:
    f = next(f for f in FOUNDATION_PILES if not piles[f])
    piles[f] = (card,)


class TheSquare(Game):
    slug = SLUG
    title = "The Square"
    packs = 2
    Options = SquareOptions
    PILES = PILES
    GRID = (7.0, 6.15)
    LEDGER = {
        RULE_1: "A foundation takes only cards of its ace’s suit.",
        RULE_2: "Each foundation ascends from its ace to the king, takes the second king of "
                "its suit on the first, and descends to the second ace, twenty-six cards in "
                "all; by default a foundation takes its second king as soon as it reaches its "
                "king, under SQ-2’s other reading only when all four have reached theirs.",
        SQUARE: "The deal lays sixteen cards face up in four rows of four, the Square, "
                "dealing on past the aces that go to the corners.",
        ACES: "The first ace of each suit to appear, in the deal of the Square or later from "
              "the pack, goes at once to the first empty corner and begins a foundation; the "
              "second ace of a suit is an ordinary card.",
        FOUNDATIONS: "A foundation’s cards run ace to king and king to ace in one suit; a card "
                     "played on a foundation stays there.",
        PLAY: "The top card of any packet of the Square may be played to a foundation that "
              "takes it.",
        MARRY: "A top card of the Square, the card turned up or the talon’s top may be placed "
               "on a packet of the Square whose top card is of its suit and one above or one "
               "below it, in either direction, one card at a time; never on an empty place.",
        REFILL: "A space in the Square must be refilled before anything else is done, from "
                "the pack (its next card, or the card turned up) or the talon’s top, never "
                "from the Square; when only one of these can fill it the board fills it "
                "itself; with all three exhausted it stays empty.",
        DEAL: "“Turn up the next card” turns the pack’s top card; it may be played, married "
              "or put into a space, and the next card is turned only when it has gone.",
        TALON: "A card turned up that can be neither played nor married goes on the talon at "
               "once; one that can must be used (under SQ-5’s other reading it may be laid "
               "on the talon); only the talon’s top card is shown and can be used.",
        REVERSE: "A sequence is reversed from one packet to another card by card, each card "
                 "married on the top of the other packet; only a packet’s top card moves.",
        CARE: "Advice: the board lets cards be married so that they block each other; it "
              "declares the game lost when nothing can reach a foundation any more.",
        SUCCEEDS: "The game is won when all 104 cards lie on the four foundations, each ending "
                  "with its second ace.",
        NO_REDEAL: "When the pack is exhausted no card comes back into it: there is no "
                   "re-deal, and no button for one.",
    }
    FIGURES = (
        Figure("tableau", "The Square after the deal, in modern cards.",
               "The tableau of the Square just after the deal, drawn in modern cards: sixteen "
               "cards in four rows of four; beside its first and last rows, at the four "
               "corners, the places of the foundations, filled by the aces the deal turned "
               "up; at the right, in a column, the pack face down, the place of the card "
               "turned up and the place of the talon."),
    )
    #: a deal that, like the plate, brings all four aces to the corners
    DIAGRAM_DEAL = 81
    ACTIONS = (
        ActionSpec("deal", "Turn up the next card", "t", DEAL),
    )

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        stock = list(shuffled(pack(2), deal))
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for i in SQUARE_PILES:
            while True:
                card = stock.pop()
                if _new_ace(piles, card):
                    _to_corner(piles, card)
                    continue
                piles[i] = (card,)
                break
        piles[STOCK] = tuple(stock)
        return State(tuple(piles))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        suits = [p[f][0].suit for f in FOUNDATION_PILES if p[f]]
        if len(set(suits)) != len(suits):
            raise PositionError("two foundations of one suit")
        for f in FOUNDATION_PILES:
            pile = p[f]
            for k, card in enumerate(pile):
                if card.suit is not pile[0].suit or card.rank != next_rank(pile[:k]):
                    raise PositionError(f"{PILES[f].label} is not built in order")
        for i in SQUARE_PILES:
            pile = p[i]
            for k in range(1, len(pile)):
                if not marries(pile[k - 1], pile[k]):
                    raise PositionError(f"{PILES[i].label} is not a series of marriages")
        founded = {s for s in suits}
        for i in (*SQUARE_PILES, TURNED, TALON_PILE):
            if any(c.rank == ACE and c.suit not in founded for c in p[i]):
                raise PositionError("an ace of a suit with no foundation would have gone to "
                                    "a corner as it appeared")
        if len(p[TURNED]) > 1:
            raise PositionError("more than one card turned up")
        spaces = any(not p[i] for i in SQUARE_PILES)
        if spaces and sum(1 for s in SOURCES if p[s]) == 1:
            raise PositionError("a space in the Square would have been refilled at once")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def takes(self, state: State, f: int, card: Card) -> bool:
        """Whether foundation ``f`` takes ``card`` now."""
        pile = state.piles[f]
        if not pile:
            return _new_ace(state.piles, card)
        if card.suit is not pile[0].suit or card.rank != next_rank(pile):
            return False
        return not (len(pile) == 13 and self._descent_waits(state))

    def _descent_waits(self, state: State) -> bool:
        """Under SQ-2's other reading: some foundation has not yet reached its king."""
        return (self.options.descent is Descent.ALL
                and any(len(state.piles[f]) < 13 for f in FOUNDATION_PILES))

    def playable(self, state: State, card: Card) -> bool:
        return any(self.takes(state, f, card) for f in FOUNDATION_PILES)

    def marriable(self, state: State, card: Card, skip: int = -1) -> bool:
        return any(state.piles[i] and i != skip and marries(state.piles[i][-1], card)
                   for i in SQUARE_PILES)

    def suitable(self, state: State, card: Card) -> bool:
        """The book's *suitable*: fit to be played on a foundation or placed in the tableau
        (here, married on the Square)."""
        return self.playable(state, card) or self.marriable(state, card)

    @staticmethod
    def sources(state: State) -> list[int]:
        """The piles a space may be refilled from: the pack, the card turned up, the talon."""
        return [s for s in SOURCES if state.piles[s]]

    def pending(self, state: State) -> bool:
        """A space in the Square is waiting to be refilled (and something can refill it)."""
        return any(not state.piles[i] for i in SQUARE_PILES) and bool(self.sources(state))

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        p = state.piles
        sources = self.sources(state)
        spaces = [i for i in SQUARE_PILES if not p[i]]
        if spaces and sources:
            for i in spaces:
                for s in sources:
                    yield Move.step(PILES[s].id, PILES[i].id)
            return
        for i in [*SQUARE_PILES, TURNED, TALON_PILE]:
            if not p[i]:
                continue
            card = p[i][-1]
            sid = PILES[i].id
            for f in FOUNDATION_PILES:
                if self.takes(state, f, card):
                    yield Move.step(sid, PILES[f].id)
            for j in SQUARE_PILES:
                if j != i and p[j] and marries(p[j][-1], card):
                    yield Move.step(sid, PILES[j].id)
        if p[TURNED]:
            yield Move.step("turned", "talon")
        yield Move(action="deal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        p = state.piles
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        # where the card comes from
        if si in FOUNDATION_PILES:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if not step.top:
            if si in SQUARE_PILES:
                return IllegalMove(REVERSE, "Only the top card of a packet of the Square can "
                                   "be moved, one card at a time.")
            if si == TALON_PILE:
                return IllegalMove(TALON, "Only the top card of the talon can be used.")
            return IllegalMove(DEAL, "Cards come from the pack in order, from its top.")
        if si == STOCK and not (di in SQUARE_PILES and not p[di]):
            return IllegalMove(DEAL, "Cards come from the pack by turning them up (Turn up "
                               "the next card), or straight into a space of the Square.")
        # where it goes
        if di in SQUARE_PILES and not p[di]:
            if si in SQUARE_PILES:
                return IllegalMove(REFILL, "Spaces are refilled from the pack or the talon, "
                                   "not with a card of the Square.")
            return None  # the pack's next card, the card turned up or the talon's top
        if self.pending(state):
            return IllegalMove(REFILL, "A space in the Square is refilled immediately: fill "
                               "it from the pack or the talon first.")
        if di in FOUNDATION_PILES:
            return self.foundation_refusal(state, di, card)
        if di in SQUARE_PILES:
            top = p[di][-1]
            if card.suit is not top.suit:
                return IllegalMove(MARRY, f"A marriage is made in one suit: the {card.name} "
                                   f"cannot go on the {top.name}.")
            if not marries(top, card):
                return IllegalMove(MARRY, f"Cards marry one above or one below: only "
                                   f"{_either(top)} goes on the {top.name}.")
            return None
        if di == TALON_PILE:
            if si != TURNED:
                return IllegalMove(TALON, "Only cards turned up from the pack are laid on the "
                                   "talon.")
            if self.options.turned_card and self.suitable(state, card):
                what = "played on a foundation" if self.playable(state, card) else "married"
                return IllegalMove(TALON, f"The {card.name} can be {what}: only the unsuitable "
                                   "cards form the talon.")
            return None
        if di == TURNED:
            return IllegalMove(DEAL, "Only the pack’s next card is turned up there.")
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def foundation_refusal(self, state: State, f: int, card: Card) -> IllegalMove | None:
        if self.takes(state, f, card):
            return None
        pile = state.piles[f]
        label = PILES[f].label
        if not pile:
            return IllegalMove(ACES, f"The aces of different suits are the foundations: "
                               f"{label} is empty and waits for the first ace of a suit not "
                               "yet begun.")
        suit = pile[0].suit
        if card.suit is not suit:
            return IllegalMove(RULE_1, f"The foundations follow suit: {label} takes only "
                               f"{suit.noun}.")
        nxt = next_rank(pile)
        if nxt is None:
            return IllegalMove(RULE_2, f"{label[:1].upper()}{label[1:]} is finished: it has "
                               "come down again to its ace.")
        if card.rank == nxt:  # the second king, under SQ-2's other reading
            return IllegalMove(RULE_2, "Under the reading chosen, the second kings are placed "
                               "only when all four foundations have ascended to their kings.")
        way = "ascends" if len(pile) < 13 else "descends"
        return IllegalMove(RULE_2, f"{label[:1].upper()}{label[1:]} {way} in sequence: it "
                           f"needs the {Card(nxt, suit).name} next.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action != "deal":
            if action == "redeal":
                return IllegalMove(NO_REDEAL, "There is no re-deal.")
            return IllegalMove(BOARD, f"The Square has no action {action!r}.")
        p = state.piles
        if not p[STOCK]:
            return IllegalMove(NO_REDEAL, "The pack is exhausted, and there is no re-deal.")
        if self.pending(state):
            return IllegalMove(REFILL, "A space in the Square is refilled immediately: fill "
                               "it from the pack or the talon first.")
        if p[TURNED]:
            card = p[TURNED][-1]
            how = "played, married, or put into a space" if (
                self.options.turned_card and self.suitable(state, card)) else \
                "played, married, or laid on the talon"
            return IllegalMove(DEAL, f"The {card.name} just turned up must first be {how}.")
        return None

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        if move.action == "deal":
            card = piles[STOCK][-1]
            piles[STOCK] = piles[STOCK][:-1]
            if _new_ace(piles, card):
                _to_corner(piles, card)
            elif self.suitable(State(tuple(piles)), card):
                piles[TURNED] = (card,)
            else:  # unsuitable: laid on the talon at once
                piles[TALON_PILE] = piles[TALON_PILE] + (card,)
        else:
            step = self.resolve_step(state, move)
            assert isinstance(step, Step)
            piles[step.src] = piles[step.src][:-1]
            if step.src == STOCK and _new_ace(piles, step.card):
                _to_corner(piles, step.card)
            else:
                piles[step.dst] = piles[step.dst] + (step.card,)
        _refill(piles)
        return State(tuple(piles), state.vars)

    # ---- the end ---------------------------------------------------------------------
    def played(self, state: State) -> int:
        return sum(len(state.piles[f]) for f in FOUNDATION_PILES)

    def wanted(self, state: State) -> set[Card]:
        """Every card some foundation would take now."""
        out: set[Card] = set()
        founded = _founded(state.piles)
        for f in FOUNDATION_PILES:
            pile = state.piles[f]
            if not pile:
                out |= {Card(ACE, s) for s in Suit if s not in founded}
                continue
            nxt = next_rank(pile)
            if nxt is not None and not (len(pile) == 13 and self._descent_waits(state)):
                out.add(Card(nxt, pile[0].suit))
        return out

    def play_reachable(self, state: State, limit: int = 3000) -> bool | None:
        """With the pack exhausted and the foundations as they stand: whether some series of
        moves other than plays brings a card a foundation takes to a top where it is
        available (True), none does (False), or the search gave up after ``limit``
        positions (None).

        The moves searched: a top card of the Square married on another packet; the card
        turned up or the talon's top married on a packet or put into a space. The rule that
        a space is refilled first only forbids moves, so a search over more moves proves no
        less. No rule looks at a packet's place in the Square, so positions that differ only
        in the order of the packets are one."""
        wanted = self.wanted(state)
        p = state.piles
        talon = p[TALON_PILE]
        Key = tuple[tuple[tuple[Card, ...], ...], int, Card | None]
        start: Key = (tuple(sorted(p[i] for i in SQUARE_PILES)), len(talon),
                      p[TURNED][0] if p[TURNED] else None)
        seen = {start}
        todo = [start]
        while todo:
            square, nl, tu = todo.pop()
            if (any(pk and pk[-1] in wanted for pk in square)
                    or (nl and talon[nl - 1] in wanted) or tu in wanted):
                return True
            tops: dict[tuple[int, Suit], list[int]] = {}
            for b, q in enumerate(square):
                if q:
                    tops.setdefault((q[-1].rank, q[-1].suit), []).append(b)
            nexts: list[Key] = []

            def onto(card: Card) -> list[int]:
                return (tops.get((card.rank + 1, card.suit), [])
                        + tops.get((card.rank - 1, card.suit), []))
            for a, pk in enumerate(square):
                if not pk:
                    continue
                for b in onto(pk[-1]):
                    nxt = list(square)
                    nxt[a], nxt[b] = pk[:-1], square[b] + (pk[-1],)
                    nexts.append((tuple(sorted(nxt)), nl, tu))
            spaces = [b for b, q in enumerate(square) if not q][:1]
            for card, after_nl, after_tu in ((tu, nl, None),
                                             (talon[nl - 1] if nl else None, nl - 1, tu)):
                if card is None:
                    continue
                for b in onto(card) + spaces:
                    nxt = list(square)
                    nxt[b] = square[b] + (card,)
                    nexts.append((tuple(sorted(nxt)), after_nl, after_tu))
            for key in nexts:
                if key not in seen:
                    if len(seen) >= limit:
                        return None
                    seen.add(key)
                    todo.append(key)
        return False

    def outcome_of(self, state: State) -> Outcome | None:
        if self.played(state) == TOTAL:
            return Outcome.WON
        if state.piles[STOCK]:
            return None  # a card can still be turned up
        # The pack is exhausted and nothing comes back (there is no re-deal). Every win needs
        # another card played to a foundation; if no series of the other moves brings a card
        # the foundations take within reach, none ever will be: lost (SQ-8). A search that
        # gives up leaves the verdict open.
        return Outcome.LOST if self.remembered(state, self.play_reachable) is False else None

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: the loss test searches, and a dead end is found by the solver
        anyway."""
        return Outcome.WON if self.played(state) == TOTAL else None

    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """The sixteen places of the Square, and the four corners (each foundation says by
        its own cards what it takes; an ace goes to any empty one): no rule tells them apart
        by place."""
        return (tuple(SQUARE_PILES), tuple(FOUNDATION_PILES))

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = self.played(state)
        if out is Outcome.WON:
            return "Won: the four foundations have come up to their kings and down again to " \
                   "their aces."
        if out is Outcome.LOST:
            return (f"The pack is exhausted and no card can reach a foundation any more: the "
                    f"patience has failed with {played} of 104 cards played.")
        p = state.piles
        parts = [f"Pack: {plural(len(p[STOCK]), 'card')}" if p[STOCK]
                 else "the pack is exhausted",
                 f"talon: {plural(len(p[TALON_PILE]), 'card')}",
                 f"{played} of 104 on the foundations"]
        if self.pending(state):
            parts.append("refill the space in the Square")
        elif p[TURNED]:
            parts.append(f"place the {p[TURNED][-1].name}")
        text = " · ".join(parts)
        return text[:1].upper() + text[1:]

    def describe(self, state: State, move: Move) -> str:
        p = state.piles
        if move.action == "deal" and p[STOCK]:
            card = p[STOCK][-1]
            if _new_ace(p, card):
                return f"The {card.name} is turned up and begins a foundation."
            if self.suitable(state, card):
                return f"The {card.name} is turned up; it is suitable."
            return f"The {card.name} is turned up and laid on the talon."
        if move.steps:
            step = self.resolve_step(state, move)
            if isinstance(step, Step):
                name, src, dst = step.card.name, PILES[step.src].label, PILES[step.dst].label
                if step.dst in FOUNDATION_PILES:
                    return f"The {name} is played from {src} to {dst}."
                if step.dst in SQUARE_PILES and not p[step.dst]:
                    if step.src == STOCK:
                        return f"The {name} from the pack fills {dst}."
                    return f"The {name} from {src} fills {dst}."
                if step.dst in SQUARE_PILES:
                    return f"The {name} is married from {src} to {dst}."
                if step.dst == TALON_PILE:
                    return f"The {name} is laid on the talon."
        return super().describe(state, move)


def _either(top: Card) -> str:
    """The cards that marry on ``top``, in words."""
    names = [RANK_NAMES[r] for r in (top.rank - 1, top.rank + 1) if ACE <= r <= KING]
    return f"the {' or the '.join(names)} of {top.suit.noun}"


def _refill(piles: list[tuple[Card, ...]]) -> None:
    """What the rules make happen at once: while a space in the Square can be refilled from
    one source only (the pack, the card turned up or the talon's top), it is filled from it;
    an ace of a suit with no foundation so dealt from the pack goes to the first empty
    corner instead, and the next card takes the space."""
    while True:
        spaces = [i for i in SQUARE_PILES if not piles[i]]
        sources = [s for s in SOURCES if piles[s]]
        if not spaces or len(sources) != 1:
            return
        s = sources[0]
        card = piles[s][-1]
        piles[s] = piles[s][:-1]
        if s == STOCK and _new_ace(piles, card):
            _to_corner(piles, card)
        else:
            piles[spaces[0]] = (card,)

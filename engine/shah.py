"""The Shah (two packs), by the book: 1914 printing, plate p. 20, text pp. 21–22.

Piles: the Shah (a king alone in the centre, which never moves) and the seven kings thrown
aside; the eight aces round the Shah, the foundations, each built up in suit to the queen;
the star of eight rays running outwards from the aces, each ray with a place in the first,
the second and the third (outer) circle; the pack, the card turned up from it, and the talon.

Only the outermost card of a ray is available (Rule I). A card in the third circle may be
played, married onto the top card of another third-circle place (same suit, one rank lower),
or, when a ray has been emptied (a lane), moved into the lane's inner place as the "grace"; a
card released in an inner circle may only be played (Rule II). The star is dealt circle by
circle, suitable cards being played and their places refilled at once from the pack; then the
rest of the pack is turned up card by card, spaces in the star being refilled, inner circles
first, from the talon or the pack before the next card is turned. See the chapter page for the
text each rule id points at, and its editorial notes (``note-sh-N``) for the readings behind
the options and decisions.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, QUEEN, Card, Suit, pack
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

SLUG = "the-shah"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")             # each circle available until blocked; then the third only
RULE_II = _rule("rule-2")            # marriages only in the third circle; inner cards only play
RULE_III = _rule("rule-3")           # the foundations follow suit
WITHDRAW = _rule("withdraw")         # eight aces and eight kings out; seven kings thrown aside
SHAH = _rule("shah")                 # the king in the centre is the Shah, and remains alone
FOUNDATIONS = _rule("foundations")   # the aces are the foundations, ascending to queens
FIRST_CIRCLE = _rule("first-circle")  # a circle of eight, from the top, left to right
DEAL_PLAYS = _rule("deal-plays")     # suitable cards played, spaces filled at once from the pack
CIRCLES = _rule("circles")           # a second circle, treated the same; a third completes it
EXAMINE = _rule("examine")           # marry or play when favourable; not obliged
DESCENDING = _rule("descending")     # marriages only in descending line
VACANT_SPACE = _rule("vacant-space")  # wait for a card, then make a vacant space to place it
REFILL = _rule("refill")             # spaces refilled from talon or pack, inner circles first
DEAL_OUT = _rule("deal-out")         # the rest dealt out; cards not wanted form the talon
LANE = _rule("lane")                 # a lane's inner place may take one third-circle card
LANE_REFILL = _rule("lane-refill")   # the other two spaces refilled from the talon at once
NO_REDEAL = _rule("no-redeal")       # there is no re-deal
BOARD = _rule("board")               # the board itself (notation errors, empty places)

RAYS = 8
CIRCLE_COUNT = 3
#: The rays, clockwise from the top, as the board names them.
RAY_NAMES = ("top", "upper right", "right", "lower right", "bottom", "lower left", "left",
             "upper left")
#: The suit of the ace at the foot of each ray (SH-15): two of a suit, opposite each other,
#: black and red in turn round the ring.
RAY_SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS) * 2
THE_SHAH = Card(KING, Suit.HEARTS)
THROWN_ASIDE: tuple[Card, ...] = tuple(sorted(
    [Card(KING, s) for s in (Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS) for _ in range(2)]
    + [Card(KING, Suit.HEARTS)]))
FOUNDATION_TOP = QUEEN
PLAYED_CARDS = 88          # two packs less the eight aces and eight kings
SEARCH_LIMIT = 3000        # positions explored at most when judging whether a game is lost


class DealPlays(Enum):
    """SH-2: whether suitable cards must be played while the star is being dealt."""

    MUST = "must"   # the next circle is not dealt while a card of this one is suitable
    MAY = "may"     # the player may leave them


class RefillSource(Enum):
    """SH-8: where the cards that refill the spaces come from."""

    CHOICE = "choice"            # the top of the talon or the pack, at the player's choice
    TALON_FIRST = "talon-first"  # the talon while it lasts, then the pack


@dataclass(frozen=True, slots=True)
class ShahOptions:
    deal_plays: DealPlays = option(
        DealPlays.MUST, note="note-sh-2", label="Suitable cards while the star is dealt",
        labels={DealPlays.MUST: "must be played before the next circle is dealt",
                DealPlays.MAY: "may be left where they lie"})
    refill_source: RefillSource = option(
        RefillSource.CHOICE, note="note-sh-8", label="Spaces in the star are refilled",
        labels={RefillSource.CHOICE: "from the talon or the pack, at the player’s choice",
                RefillSource.TALON_FIRST: "from the talon while it lasts, then from the pack"})
    talon_play: bool = option(
        True, note="note-sh-9", label="The top card of the talon may be played",
        labels={True: "yes, to a foundation", False: "no, it only refills spaces"})
    talon_marry: bool = option(
        False, note="note-sh-10", label="The top card of the talon may be married",
        labels={False: "no, only cards of the third circle and the card turned up",
                True: "yes, onto a card of the third circle"})


# ---------------------------------------------------------------------------- the layout
#
# The board's grid: x in card slots, y in slot heights (a slot height is 1.36 slot widths on
# the board). Card positions are worked out in slot widths about the Shah's centre and turned
# into the top-left corner of each card's upright box. Every ray runs outwards from its ace,
# the cards' long sides along the ray, as in the plate: upright on the vertical rays, sideways
# on the horizontal ones, at 45 degrees on the diagonals.

_SLOT_H = 1.36            # a slot's height in slot widths (board.js: card 0.9 x 1.26, gap 0.1)
_CARD_H = 1.26            # a card's height in slot widths
_CX, _CY = 7.0, 7.0       # the Shah's centre, in slot widths
_R_AXIS, _R_DIAG = 1.4, 1.9   # distance from the centre to the aces (axis and diagonal rays)
_STEP = 1.38              # from one card of a ray to the next
#: Turn of each ray's cards, and the way its third-circle packet fans (outwards).
_ROTATE = (0, 45, 90, -45, 0, 45, 90, -45)
_FAN_OUT = (Fan.UP, Fan.UP, Fan.UP, Fan.DOWN, Fan.DOWN, Fan.DOWN, Fan.DOWN, Fan.UP)
_FAN_LIMIT = 0.6          # married cards close up beyond this (card heights)


def _at(cx: float, cy: float) -> tuple[float, float]:
    """The grid position of a card centred at (cx, cy), both in slot widths."""
    return (round(cx - 0.5, 3), round((cy - _CARD_H / 2) / _SLOT_H, 3))


def _ray_spot(r: int, k: int) -> tuple[float, float]:
    """Grid position of the k-th card of ray r (0: the ace, 1-3: the circles)."""
    theta = math.radians(45 * r)
    d = (_R_DIAG if r % 2 else _R_AXIS) + k * _STEP
    return _at(_CX + d * math.sin(theta), _CY - d * math.cos(theta))


_CIRCLE_WORDS = ("first circle", "second circle", "third circle")


def _place(c: int, r: int) -> PileSpec:
    x, y = _ray_spot(r, c + 1)
    outer = c == CIRCLE_COUNT - 1
    return PileSpec(f"{'imo'[c]}{r}", f"{_CIRCLE_WORDS[c]}, {RAY_NAMES[r]} ray", Role.TABLEAU,
                    x, y, _FAN_OUT[r] if outer else Fan.NONE, rotate=_ROTATE[r],
                    fan_limit=_FAN_LIMIT if outer else None, mark=_CIRCLE_WORDS[c])


def _foundation(r: int) -> PileSpec:
    x, y = _ray_spot(r, 0)
    return PileSpec(f"f{r}", f"foundation of {RAY_SUITS[r].noun}, {RAY_NAMES[r]} ray",
                    Role.FOUNDATION, x, y, rotate=_ROTATE[r], mark=RAY_SUITS[r].symbol)


_sx, _sy = _at(_CX, _CY)
PILES: tuple[PileSpec, ...] = (
    (PileSpec("shah", "the Shah", Role.FIGURE, _sx, _sy),
     PileSpec("out", "the seven kings thrown aside", Role.DISCARD, 4.4, 0.15, Fan.RIGHT,
              fan_limit=0.6))
    + tuple(_foundation(r) for r in range(RAYS))
    + tuple(_place(c, r) for c in range(CIRCLE_COUNT) for r in range(RAYS))
    + (PileSpec("stock", "the pack", Role.STOCK, 8.0, 0.15),
       PileSpec("turned", "the card turned up", Role.RESERVE, 9.15, 0.15),
       PileSpec("talon", "the talon", Role.TALON, 10.3, 0.15))
)

SHAH_PILE, OUT = 0, 1
FOUNDS = range(2, 2 + RAYS)
INNER = range(FOUNDS.stop, FOUNDS.stop + RAYS)
MIDDLE = range(INNER.stop, INNER.stop + RAYS)
OUTER = range(MIDDLE.stop, MIDDLE.stop + RAYS)
CIRCLE_PILES = (INNER, MIDDLE, OUTER)
STAR = range(INNER.start, OUTER.stop)
STOCK, TURNED, TALON = OUTER.stop, OUTER.stop + 1, OUTER.stop + 2
assert len(PILES) == TALON + 1


def ray_of(pile: int) -> int:
    return (pile - STAR.start) % RAYS


def circle_of(pile: int) -> int:
    """0, 1 or 2: the first, second or third circle."""
    return (pile - STAR.start) // RAYS


def ray_places(r: int) -> tuple[int, int, int]:
    return (INNER[r], MIDDLE[r], OUTER[r])


def _narrow() -> Layout:
    """For a phone: the rays as columns, in two blocks, each ray reading outwards from its
    ace like the star's own: above, the four rays whose packets fan upwards (upper left, top,
    upper right, right), the third circle at the top; below, the other four (left, lower
    left, bottom, lower right), the third circle at the foot. The pack, the card turned up and
    the talon stand at the right; the Shah and the kings thrown aside, which never move, are
    not drawn."""
    at: dict[str, tuple[float, float, int]] = {}
    up = (7, 0, 1, 2)
    down = (6, 5, 4, 3)
    for col, r in enumerate(up):
        for k, pid in enumerate((f"o{r}", f"m{r}", f"i{r}", f"f{r}")):
            at[pid] = (float(col), 0.6 + k, 0)
    for col, r in enumerate(down):
        for k, pid in enumerate((f"f{r}", f"i{r}", f"m{r}", f"o{r}")):
            at[pid] = (float(col), 4.85 + k, 0)
    at["stock"] = (4.25, 0.6, 0)
    at["turned"] = (4.25, 1.6, 0)
    at["talon"] = (4.25, 2.6, 0)
    return Layout(name="narrow", max_width=560, grid=(5.25, 9.45), at=at,
                  hidden=("shah", "out"))


def accepts(pile: tuple[Card, ...], card: Card) -> bool:
    """Whether a foundation (its ace at the bottom) takes ``card`` next: the next card of its
    suit, up to the queen."""
    top = pile[-1]
    return card.suit is pile[0].suit and card.rank == top.rank + 1 <= FOUNDATION_TOP


def marries(target: Card, card: Card) -> bool:
    """Whether ``card`` may be married onto ``target``: same suit, one rank lower."""
    return card.suit is target.suit and card.rank == target.rank - 1


class TheShah(Game):
    slug = SLUG
    title = "The Shah"
    packs = 2
    Options = ShahOptions
    PILES = PILES
    VARS = ("circles",)
    GRID = (14.0, 10.3)
    LAYOUTS = (_narrow(),)
    FIGURES = (
        Figure("star", "The Shah after the deal of the star, in modern cards.",
               "The star of The Shah after the deal, drawn in modern cards: a king, the Shah, "
               "alone in the centre; round him a ring of eight aces, two of each suit; from "
               "each ace a ray runs outwards with three cards, the first, second and third "
               "circles, upright on the vertical rays, sideways on the horizontal ones and "
               "tilted on the diagonals; in the upper left corner the seven kings thrown "
               "aside, in the upper right the pack face down and the empty places of the card "
               "turned up and of the talon."),
    )
    DIAGRAM_DEAL = 26  # a deal whose star is dealt with no card suitable on the way
    LEDGER = {
        RULE_I: "While the star is dealt only the circle last dealt is available; after the "
                "deal a ray’s outermost card alone is available, the second and first "
                "circles being released one by one as the places outside them empty, and "
                "blocked again when they are refilled; a card further in is refused "
                "(SH-5).",
        RULE_II: "Only the top card of a third-circle place may be married, and only onto "
                 "the top card of another third-circle place; a released card of the first "
                 "or second circle may only be played, and nothing is married onto it "
                 "(SH-6).",
        RULE_III: "Each ace takes cards of its own suit only; a card of another suit is "
                  "refused.",
        WITHDRAW: "The deal sets out the Shah, the eight aces round him and the seven other "
                  "kings thrown aside; the kings thrown aside take no part in the game "
                  "(SH-1).",
        SHAH: "The king in the centre never moves and takes no card.",
        FOUNDATIONS: "Each ace takes the two of its suit, then the three, up to the queen, "
                     "either ace of a suit taking a card that suits it; a card on a "
                     "foundation never leaves it. The game is won when all eight end with "
                     "queens (SH-15).",
        FIRST_CIRCLE: "The deal lays the first circle, one card on each ray, from the top ray "
                      "clockwise (SH-3).",
        DEAL_PLAYS: "While the star is dealt, a suitable card of the circle last dealt may be "
                    "played, and its place is filled at once from the pack; by default (SH-2) "
                    "the next circle is refused while such a card is left, under the other "
                    "reading it may be left.",
        CIRCLES: "The Deal the next circle button lays the second circle and then the third "
                 "outside it, dealing on by itself while no card is suitable; nothing else "
                 "is turned from the pack until the third circle is laid (SH-3).",
        EXAMINE: "Once the star is complete nothing is played or married for the player, "
                 "and nothing has to be done at any particular time (SH-4).",
        DESCENDING: "A marriage puts a card on the card of its suit one rank higher; any other "
                    "card is refused (SH-6).",
        VACANT_SPACE: "The card turned up may wait while the player plays or marries to make "
                      "a space, and then go into it (SH-7).",
        REFILL: "Spaces in the star are refilled by the player, one at a time, in order: "
                "second-circle places before third, each circle from the top ray clockwise; "
                "each takes the top of the talon, the card turned up or the next card of the "
                "pack (by default, SH-8; under the other reading the talon while it lasts); "
                "the next card is not turned up while a space can be refilled.",
        DEAL_OUT: "“Turn up the next card” turns the pack’s top card; it may be played, "
                  "married, put in a space or laid on the talon, and only the talon’s top card "
                  "can be used: played to a foundation (SH-9) and, under SH-10’s other "
                  "reading, married.",
        LANE: "When a ray is emptied, its inner place may take the top card of any "
              "third-circle place, as the grace, instead of a card from the talon or pack "
              "(SH-11).",
        LANE_REFILL: "A lane must be filled before anything else is done while the talon, the "
                     "card turned up or the pack can fill it; as soon as its inner place is "
                     "filled the engine fills the other two from the talon, or from the pack "
                     "when the talon is empty (SH-11, SH-12).",
        NO_REDEAL: "There is no re-deal: the action is refused, and the game ends when no "
                   "card can reach a foundation any more (SH-14).",
    }
    ACTIONS = (
        ActionSpec("circle", "Deal the next circle", "c", CIRCLES),
        ActionSpec("deal", "Turn up the next card", "t", DEAL_OUT),
    )

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        rest = [c for c in pack(2) if c.rank not in (ACE, KING)]
        stock = tuple(shuffled(sorted(rest), deal))
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        piles[SHAH_PILE] = (THE_SHAH,)
        piles[OUT] = THROWN_ASIDE
        for r in range(RAYS):
            piles[FOUNDS[r]] = (Card(ACE, RAY_SUITS[r]),)
        piles[STOCK] = stock
        circles = cls._deal_circles(piles, 0)
        return State(tuple(piles), (circles,))

    @classmethod
    def _deal_circles(cls, piles: list[tuple[Card, ...]], circles: int) -> int:
        """Deal the next circle from the top ray clockwise, and go on dealing circles while
        no card of the star is suitable (there is then nothing to choose); the number of
        circles dealt."""
        while circles < CIRCLE_COUNT:
            for p in CIRCLE_PILES[circles]:
                if piles[STOCK]:
                    piles[p] = (piles[STOCK][-1],)
                    piles[STOCK] = piles[STOCK][:-1]
            circles += 1
            if circles == CIRCLE_COUNT or cls._suitable_in_star(piles):
                break
        return circles

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        if p[SHAH_PILE] != (THE_SHAH,):
            raise PositionError("the Shah’s place must hold the king of hearts alone")
        if p[OUT] != THROWN_ASIDE:
            raise PositionError("the seven other kings must lie thrown aside")
        for r, f in enumerate(FOUNDS):
            pile = p[f]
            if not pile or pile[0] != Card(ACE, RAY_SUITS[r]):
                raise PositionError(f"the {PILES[f].label} must begin with its ace")
            for k in range(1, len(pile)):
                if not accepts(pile[:k], pile[k]):
                    raise PositionError(f"the {PILES[f].label} is not built in order")
        circles = state.vars[0]
        if not 1 <= circles <= CIRCLE_COUNT:
            raise PositionError("between one and three circles of the star are dealt")
        for r in range(RAYS):
            places = [p[i] for i in ray_places(r)]
            filled = [bool(x) for x in places]
            if filled != sorted(filled, reverse=True):
                raise PositionError(f"the {RAY_NAMES[r]} ray has a gap inside it")
            if any(len(x) > 1 for x in places[:2]):
                raise PositionError("a place of the first or second circle holds one card")
            if any(filled[circles:]):
                raise PositionError("a circle not yet dealt holds cards")
            outer = places[2]
            for k in range(1, len(outer)):
                if not marries(outer[k - 1], outer[k]):
                    raise PositionError(f"the {RAY_NAMES[r]} ray’s third circle is not "
                                        "married in descending line")
        if len(p[TURNED]) > 1:
            raise PositionError("only one card is turned up at a time")
        if circles < CIRCLE_COUNT and (p[TURNED] or p[TALON]):
            raise PositionError("no card is turned up before the star is complete")
        return state

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def outermost(piles: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]],
                  r: int) -> int | None:
        """The outermost place of ray ``r`` that holds a card (its top card is available)."""
        for p in reversed(ray_places(r)):
            if piles[p]:
                return p
        return None

    @classmethod
    def available(cls, piles: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]]
                  ) -> list[int]:
        """The places of the star whose top card is available (Rule I), ray by ray."""
        out = []
        for r in range(RAYS):
            p = cls.outermost(piles, r)
            if p is not None:
                out.append(p)
        return out

    @staticmethod
    def foundations_for(piles: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]],
                        card: Card) -> list[int]:
        return [f for f in FOUNDS if accepts(piles[f], card)]

    @classmethod
    def _suitable_in_star(cls, piles: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]]
                          ) -> Card | None:
        for p in cls.available(piles):
            if cls.foundations_for(piles, piles[p][-1]):
                return piles[p][-1]
        return None

    @staticmethod
    def dealing(state: State) -> bool:
        """Whether the star is still being dealt."""
        return bool(state.vars[0] < CIRCLE_COUNT)

    @staticmethod
    def lanes(state: State) -> list[int]:
        """The rays emptied entirely (lanes), once the star is complete."""
        if state.vars[0] < CIRCLE_COUNT:
            return []
        return [r for r in range(RAYS) if not any(state.piles[p] for p in ray_places(r))]

    @staticmethod
    def has_source(state: State) -> bool:
        """Whether a card is left to refill the star with: the talon, the card turned up or
        the pack."""
        p = state.piles
        return bool(p[TALON] or p[TURNED] or p[STOCK])

    def lane_due(self, state: State) -> int | None:
        """The ray of a lane that must be filled at once (there are cards to fill it)."""
        lanes = self.lanes(state)
        return lanes[0] if lanes and self.has_source(state) else None

    @staticmethod
    def spaces(state: State) -> list[int]:
        """The places to refill, in order: second circle before third, each from the top ray
        clockwise. A lane's places are not among them (they are filled at once)."""
        if state.vars[0] < CIRCLE_COUNT:
            return []
        p = state.piles
        out = []
        for c in (1, 2):
            for r in range(RAYS):
                place = CIRCLE_PILES[c][r]
                if not p[place] and p[INNER[r]]:
                    out.append(place)
        return out

    def _refill_sources(self, state: State) -> list[int]:
        """Where the next card for a space (or a lane's inner place) may come from."""
        p = state.piles
        talon_first = self.options.refill_source is RefillSource.TALON_FIRST
        if talon_first and p[TALON]:
            return [TALON]
        out = [TALON] if p[TALON] else []
        if p[TURNED]:
            out.append(TURNED)
        elif p[STOCK]:
            out.append(STOCK)
        return out

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        p = state.piles
        ids = [s.id for s in PILES]
        if self.dealing(state):
            for a in self.available(p):
                for f in self.foundations_for(p, p[a][-1]):
                    yield Move.step(ids[a], ids[f])
            yield Move(action="circle")
            return
        lane = self.lane_due(state)
        outer_tops = [a for a in self.available(p) if a in OUTER]
        if lane is not None:
            target = INNER[lane]
            for src in outer_tops + self._refill_sources(state):
                yield Move.step(ids[src], ids[target])
            return
        sources = self.available(p) + [TURNED, TALON]
        for s in sources:
            if p[s]:
                for f in self.foundations_for(p, p[s][-1]):
                    yield Move.step(ids[s], ids[f])
        for s in outer_tops + [TURNED, TALON]:
            if not p[s]:
                continue
            for t in outer_tops:
                if t != s and marries(p[t][-1], p[s][-1]):
                    yield Move.step(ids[s], ids[t])
        spaces = self.spaces(state)
        if spaces:
            for s in self._refill_sources(state):
                yield Move.step(ids[s], ids[spaces[0]])
        for r in self.lanes(state):  # lanes with nothing to refill them: the grace only
            for s in outer_tops:
                yield Move.step(ids[s], ids[INNER[r]])
        if p[TURNED]:
            yield Move.step("turned", "talon")
        yield Move(action="deal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        p = state.piles
        si, di, card = step.src, step.dst, step.card
        # ---- what may never move, or never be moved onto
        if SHAH_PILE in (si, di):
            return IllegalMove(SHAH, "The Shah remains alone: he never moves and takes no "
                               "card.")
        if OUT in (si, di):
            return IllegalMove(WITHDRAW, "The seven kings thrown aside take no part in the "
                               "game.")
        if si in FOUNDS:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if si == di:
            return IllegalMove(BOARD, f"The {card.name} is already there.")
        if di in (STOCK, TURNED):
            return IllegalMove(DEAL_OUT, f"Nothing is put back on {PILES[di].label}.")
        if not step.top:
            if si == TALON:
                return IllegalMove(DEAL_OUT, "Only the top card of the talon can be used.")
            if si == STOCK:
                return IllegalMove(DEAL_OUT, "The pack is dealt from the top, one card at a "
                                   "time.")
            return IllegalMove(RULE_I, "Only the top card of a place in the star is "
                               "available.")
        # ---- the source
        if si in STAR:
            out = self.outermost(p, ray_of(si))
            if si != out:
                assert out is not None
                return IllegalMove(RULE_I, f"The {card.name} is blocked by the "
                                   f"{_CIRCLE_WORDS[circle_of(out)]} outside it: only the "
                                   "outermost card of a ray is available.")
        if self.dealing(state):
            return self._refuse_while_dealing(state, step)
        lane = self.lane_due(state)
        if lane is not None and di != INNER[lane]:
            return IllegalMove(LANE_REFILL, f"The {RAY_NAMES[lane]} ray is a lane: it must "
                               "be refilled at once, its inner place first (with one card "
                               "from the third circle, or from the talon or pack).")
        if si == STOCK and di not in STAR:
            return IllegalMove(DEAL_OUT, "The cards of the pack are dealt by turning them up "
                               "one at a time (Turn up the next card).")
        # ---- the destination
        if di in FOUNDS:
            if si == TALON and not self.options.talon_play:
                return IllegalMove(DEAL_OUT, "Under the reading chosen, the talon’s cards "
                                   "come into use only by refilling spaces in the star.")
            return self._refuse_foundation(state, di, card)
        if di == TALON:
            if si != TURNED:
                return IllegalMove(DEAL_OUT, "Only cards turned up from the pack are laid "
                                   "on the talon.")
            return None
        assert di in STAR
        if p[di]:
            return self._refuse_marriage(state, si, di, card)
        return self._refuse_fill(state, si, di)

    def _refuse_while_dealing(self, state: State, step: Step) -> IllegalMove | None:
        si, di = step.src, step.dst
        if si not in STAR:
            return IllegalMove(CIRCLES, "The rest of the pack is dealt out only when the third "
                               "circle has completed the star.")
        if di in FOUNDS:
            return self._refuse_foundation(state, di, step.card)
        if di in STAR and state.piles[di]:
            return IllegalMove(RULE_II, "Marriages are limited to cards in the third circle, "
                               "and the star is not yet complete.")
        if di in STAR:
            return IllegalMove(DEAL_PLAYS, "While the star is dealt, its places are filled "
                               "from the pack, at once.")
        return IllegalMove(DEAL_PLAYS, "While the star is dealt, its cards are only played "
                           "to the foundations.")

    def _refuse_foundation(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        if accepts(pile, card):
            return None
        suit = pile[0].suit
        if card.suit is not suit:
            return IllegalMove(RULE_III, f"The foundations must follow suit: the "
                               f"{PILES[f].label} takes only {suit.noun}.")
        if pile[-1].rank == FOUNDATION_TOP:
            return IllegalMove(FOUNDATIONS, f"The {PILES[f].label} is complete: it ends "
                               "with the queen.")
        return IllegalMove(FOUNDATIONS, f"The {PILES[f].label} needs the "
                           f"{Card(pile[-1].rank + 1, suit).name} next.")

    def _refuse_marriage(self, state: State, si: int, di: int, card: Card) -> IllegalMove | None:
        p = state.piles
        if si == STOCK:
            return IllegalMove(DEAL_OUT, "The cards of the pack are dealt by turning them up "
                               "one at a time (Turn up the next card).")
        if di not in OUTER:
            return IllegalMove(RULE_II, "Marriages are limited to cards in the third circle: "
                               "nothing is married onto a card of an inner circle.")
        if si in STAR and si not in OUTER:
            return IllegalMove(RULE_II, f"The {card.name} lies in an inner circle: even when "
                               "released it can only be played, not married.")
        if si == TALON and not self.options.talon_marry:
            return IllegalMove(RULE_II, "Marriages are limited to cards in the third circle "
                               "(and the card just turned up): the talon’s top card is not "
                               "married.")
        target = p[di][-1]
        if not marries(target, card):
            if card.suit is not target.suit:
                return IllegalMove(DESCENDING, f"A marriage is made with a card of the same "
                                   f"suit: the {card.name} cannot go on the {target.name}.")
            return IllegalMove(DESCENDING, f"Marriages can only be made in descending line: "
                               f"the {card.name} goes only on the "
                               f"{Card(card.rank + 1, card.suit).name}.")
        return None

    def _refuse_fill(self, state: State, si: int, di: int) -> IllegalMove | None:
        """A card put into an empty place of the star: a refill, or a lane's inner place."""
        r = ray_of(di)
        if r in self.lanes(state):
            if di != INNER[r]:
                return IllegalMove(LANE_REFILL, f"The {RAY_NAMES[r]} ray is a lane: its inner "
                                   "place is filled first, and the other two then at once "
                                   "from the talon.")
            if si in STAR:
                if si not in OUTER:
                    return IllegalMove(LANE, "Only a card from the third circle may be "
                                       "moved into a lane.")
                return None
            if si not in self._refill_sources(state):
                return self._wrong_source(state, si)
            return None
        spaces = self.spaces(state)
        if si in STAR:
            return IllegalMove(REFILL, "Spaces in the star are refilled from the talon or "
                               "pack; a card of the star moves into a space only as the "
                               "grace of a lane.")
        if di != spaces[0]:
            return IllegalMove(REFILL, "Spaces are refilled beginning with the inner circles, "
                               "from left to right: the next to fill is the "
                               f"{PILES[spaces[0]].label}.")
        if si not in self._refill_sources(state):
            return self._wrong_source(state, si)
        return None

    def _wrong_source(self, state: State, si: int) -> IllegalMove:
        if si == STOCK and state.piles[TURNED]:
            return IllegalMove(DEAL_OUT, "The card just turned up must be used before the "
                               "next is turned.")
        return IllegalMove(REFILL, "Under the reading chosen, spaces are refilled from the "
                           "talon while it lasts.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        p = state.piles
        if action == "redeal":
            return IllegalMove(NO_REDEAL, "There is no re-deal.")
        if action == "circle":
            if not self.dealing(state):
                return IllegalMove(CIRCLES, "The third circle has been dealt: the rays of "
                                   "the star are complete.")
            card = self._suitable_in_star(p)
            if card is not None and self.options.deal_plays is DealPlays.MUST:
                return IllegalMove(DEAL_PLAYS, f"The {card.name} is suitable: play it before "
                                   "the next circle is dealt.")
            return None
        if action != "deal":
            return IllegalMove(BOARD, f"The Shah has no action {action!r}.")
        if self.dealing(state):
            return IllegalMove(CIRCLES, "The rest of the pack is dealt out only when the third "
                               "circle has completed the star.")
        if p[TURNED]:
            return IllegalMove(DEAL_OUT, f"The {p[TURNED][-1].name} just turned up must first "
                               "be played, married, put in a space or laid on the talon.")
        if not p[STOCK]:
            return IllegalMove(DEAL_OUT, "The pack is used up: there is no card to turn.")
        lane = self.lane_due(state)
        if lane is not None:
            return IllegalMove(LANE_REFILL, f"The {RAY_NAMES[lane]} ray is a lane: it must be "
                               "refilled at once.")
        if self.spaces(state):
            return IllegalMove(REFILL, "The spaces in the star must be refilled, from the "
                               "talon or the pack, before the next card is turned up.")
        return None

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        circles = state.vars[0]
        if move.action == "circle":
            circles = self._deal_circles(piles, circles)
            return State(tuple(piles), (circles,))
        if move.action == "deal":
            piles[TURNED] = piles[STOCK][-1:]
            piles[STOCK] = piles[STOCK][:-1]
            return State(tuple(piles), (circles,))
        (src, dst), = move.steps
        si, di = self.pile_index(src), self.pile_index(dst)
        lane_fill = (circles == CIRCLE_COUNT and di == INNER[ray_of(di)] if di in STAR
                     else False)
        card = piles[si][-1]
        piles[si] = piles[si][:-1]
        piles[di] = piles[di] + (card,)
        if circles < CIRCLE_COUNT and si in STAR and piles[STOCK]:
            # "filling the spaces at once from the cards in your hand"
            piles[si] = piles[STOCK][-1:]
            piles[STOCK] = piles[STOCK][:-1]
        if lane_fill:
            # "The other two spaces are refilled from the talon ... at once" (SH-12)
            for place in (MIDDLE[ray_of(di)], OUTER[ray_of(di)]):
                for source in (TALON, STOCK):
                    if piles[source]:
                        piles[place] = piles[source][-1:]
                        piles[source] = piles[source][:-1]
                        break
        return State(tuple(piles), (circles,))

    # ---- the end ---------------------------------------------------------------------
    def outcome_of(self, state: State) -> Outcome | None:
        if all(len(state.piles[f]) == FOUNDATION_TOP for f in FOUNDS):
            return Outcome.WON
        if self.dealing(state) or state.piles[STOCK]:
            return None  # while the pack lasts there is always a card to turn or to place
        verdict = self.remembered(state, self.stuck)
        return Outcome.LOST if verdict else None

    def stuck(self, state: State, limit: int = SEARCH_LIMIT) -> bool | None:
        """With the pack used up: True if no card can ever reach a foundation again, by any
        series of marriages, refills, graces and cards laid on the talon; False if one can;
        None when telling would mean looking at a card of the talon not yet in view, or at
        more than ``limit`` positions (SH-14)."""
        hidden = max(0, len(state.piles[TALON]) - 1)
        seen = {state}
        todo = [state]
        while todo:
            s = todo.pop()
            for m in self.candidate_moves(s):
                if self.refusal(s, m) is not None:
                    continue
                if m.steps and self.pile_index(m.steps[0][1]) in FOUNDS:
                    return False
                nxt = self.apply(s, m)
                if hidden and len(nxt.piles[TALON]) <= hidden:
                    return None  # a card of the talon not yet in view would come to light
                if nxt not in seen:
                    if len(seen) >= limit:
                        return None
                    seen.add(nxt)
                    todo.append(nxt)
        return True

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        p = state.piles
        played = sum(len(p[f]) - 1 for f in FOUNDS)
        if out is Outcome.WON:
            return "Won: eight queens surround the Shah."
        if out is Outcome.LOST:
            return (f"Nothing more can reach the foundations: the patience has failed with "
                    f"{played} of {PLAYED_CARDS} cards played.")
        if self.dealing(state):
            circles = state.vars[0]
            parts = [f"Dealing the star: {('one circle', 'two circles')[circles - 1]} of "
                     "three dealt", f"pack: {plural(len(p[STOCK]), 'card')}",
                     f"played: {played} of {PLAYED_CARDS}"]
            card = self._suitable_in_star(p)
            if card is not None and self.options.deal_plays is DealPlays.MUST:
                parts.append(f"play the {card.name} before the next circle")
            return " · ".join(parts)
        parts = [f"Pack: {plural(len(p[STOCK]), 'card')}",
                 f"talon: {plural(len(p[TALON]), 'card')}",
                 f"played: {played} of {PLAYED_CARDS}"]
        lane = self.lane_due(state)
        spaces = self.spaces(state)
        if lane is not None:
            parts.append(f"fill the lane of the {RAY_NAMES[lane]} ray")
        elif p[TURNED]:
            parts.append(f"the {p[TURNED][-1].name} is turned up")
        elif spaces and self.has_source(state):
            parts.append(f"{plural(len(spaces), 'space')} to refill")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        p = state.piles
        if move.action == "circle":
            return f"The {_CIRCLE_WORDS[state.vars[0]]} is dealt."
        if move.action == "deal" and p[STOCK]:
            return f"The {p[STOCK][-1].name} is turned up."
        step = self.resolve_step(state, move)
        if not isinstance(step, Step):
            return super().describe(state, move)
        name = "the next card of the pack" if step.src == STOCK else f"the {step.card.name}"
        where = PILES[step.dst].label
        if step.dst in STAR and p[step.dst]:
            text = f"{name} is married to the {p[step.dst][-1].name} ({where})."
        elif step.dst in STAR:
            text = f"{name} fills the {where}."
        elif step.dst in FOUNDS:
            text = f"{name} is played to the {where}."
        else:
            text = f"{name} is laid on the talon."
        return text[:1].upper() + text[1:]


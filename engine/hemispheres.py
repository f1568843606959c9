"""The Hemispheres (two packs), by the book: 1914 printing, plate p. 46, text pp. 47–48.

Piles, laid out as the plate draws them: a cross of twelve cards with an empty centre, each
arm holding, from the centre outwards, a black king (a foundation descending in suit to the
ace), a red ace (a foundation ascending in suit to the king) and a barrier laid crossways (the
king of hearts on the left, the king of diamonds on the right, a black ace above and below);
round the cross a circle of twelve places, three between each pair of barriers, forming the
four Races: the European and the Asiatic in the northern hemisphere, the home of the red
cards, the Australian and the African in the southern, the home of the black. Then the pack
and the talon.

A card is available only if it is the top card of its place and lies in its own hemisphere
(Rule I). Available cards are played, or married within their Race: a red card on the red
card of its suit one higher, a black card on the black card of its suit one lower (the
*Note*). A black card in the north and a red card in the south may change places (Rule II).
Each card dealt from the pack first fills the first vacancy in the Races, in the order of
the deal (``note-he-1``); otherwise it is played if it suits a foundation, or laid on the
talon, whose top card may marry in any Race (Rule III) and, by default, be played
(``note-he-8``). Once the pack is dealt and the talon exhausted, a card of the wrong colour
may be transferred into its own hemisphere (``note-he-9``). The barriers are played last, by
themselves, to complete the foundations (Rule IV). See the chapter page for the text each rule
id points at, and its editorial notes (``note-he-N``) for the readings behind the options.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, Card, Suit, pack
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
    Region,
    Role,
    State,
    Step,
    option,
)
from .deal import shuffled
from .rules import plural

SLUG = "the-hemispheres"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_1 = _rule("rule-1")            # only cards in their proper hemisphere are available
RULE_2 = _rule("rule-2")            # wrong colours exchanged; at the end, transferred
RULE_3 = _rule("rule-3")            # marriages only within the Race; talon cards any Race
RULE_4 = _rule("rule-4")            # barriers never move till the end, then complete foundations
RULE_5 = _rule("rule-5")            # all the foundations must follow suit
WITHDRAW = _rule("withdraw")        # the four red aces and four black kings, as in tableau
BARRIERS = _rule("barriers")        # K♥, K♦, A♣, A♠ crossways: the barriers, dividing the Races
FOUNDATIONS = _rule("foundations")  # aces ascend in sequence to kings, kings descend to aces
HEMISPHERES = _rule("hemispheres")  # red cards belong in the north, black in the south
WRONG = _rule("wrong")              # in the wrong hemisphere a card cannot be used in any way
CIRCLE = _rule("circle")            # the circle, from the king of hearts: the four Races
OPENING = _rule("opening")          # from the Races play, marry and exchange
LINES = _rule("lines")              # red suits marry in descending line, black in ascending
DEAL_OUT = _rule("deal-out")        # the pack dealt: vacancies refilled first, then plays
TALON = _rule("talon")              # the rest form the talon, whose cards may marry
NO_REDEAL = _rule("no-redeal")      # there is no re-deal
BOARD = _rule("board")              # the board itself (notation errors, empty places)

TOTAL = 104
#: Positions explored at most, for each Race, when judging whether a game is lost.
SEARCH_LIMIT = 5000


class DealOrder(Enum):
    """HE-1: the order in which the circle is dealt, and so its vacancies refilled."""

    CLOCKWISE = "clockwise"  # round the circle from the king of hearts, up and over the top
    ROWS = "rows"            # left to right across the north, then across the south


class Transfer(Enum):
    """HE-9: where a card of the wrong colour may go at the end, without an exchange."""

    EMPTY = "empty"  # into an empty place of its own hemisphere
    MARRY = "marry"  # or else onto a card of its own hemisphere that it marries


@dataclass(frozen=True, slots=True)
class HemispheresOptions:
    deal_order: DealOrder = option(
        DealOrder.CLOCKWISE, note="note-he-1",
        label="The circle is dealt, and its vacancies refilled",
        labels={DealOrder.CLOCKWISE: "clockwise round the circle from the king of hearts",
                DealOrder.ROWS: "left to right across the north, then left to right across "
                                "the south"})
    talon_play: bool = option(
        True, note="note-he-8", label="The top card of the talon",
        labels={True: "may be played on a foundation, or married in the circle",
                False: "may only be married in the circle"})
    transfer: Transfer = option(
        Transfer.EMPTY, note="note-he-9",
        label="At the end, a card of the wrong colour may be transferred",
        labels={Transfer.EMPTY: "into an empty place of its own hemisphere",
                Transfer.MARRY: "into an empty place of its own hemisphere, or onto a card "
                                "there that it marries"})


# --------------------------------------------------------------------------- the layout
#
# Positions are worked out as centres, in slot widths, from the centre of the cross, and
# turned into the top-left corner of each card's upright box in card slots (a slot is 1 wide
# and 1.36 slot widths high on the board; a card 0.9 by 1.26). A rotated card turns about the
# centre of its box. Each arm of the cross holds the king, the ace and the barrier at these
# distances; the circle runs through the barriers, its places 22.5 degrees apart, each card
# lying along its radius as in the plate, the barriers across theirs.

_ROW = 1.36
_D_KING, _D_ACE, _RADIUS = 1.1, 2.41, 3.54
_C = 4.1  # the centre of the cross, in slot widths from the board's top-left corner

#: The arms, clockwise from the north: (name, unit vector x, y on screen).
ARMS: tuple[tuple[str, int, int], ...] = (
    ("north", 0, -1), ("east", 1, 0), ("south", 0, 1), ("west", -1, 0))
KING_SUITS = (Suit.CLUBS, Suit.SPADES, Suit.CLUBS, Suit.SPADES)
ACE_SUITS = (Suit.HEARTS, Suit.DIAMONDS, Suit.HEARTS, Suit.DIAMONDS)
#: The barriers, on the arms in the same order: a black ace above and below (the plate's
#: suits cannot be read; HE-2), the king of diamonds on the right, the king of hearts on the
#: left.
BARRIER_CARDS = (Card(ACE, Suit.SPADES), Card(KING, Suit.DIAMONDS), Card(ACE, Suit.CLUBS),
                 Card(KING, Suit.HEARTS))

RACES = ("European", "Asiatic", "Australian", "African")
_ORDINALS = ("first", "second", "third")
#: The angle of each place of the circle (degrees anticlockwise from the right), clockwise
#: from the king of hearts: three European places, three Asiatic, three Australian, three
#: African.
_ANGLES = (157.5, 135.0, 112.5, 67.5, 45.0, 22.5, -22.5, -45.0, -67.5, -112.5, -135.0, -157.5)


def _radial(theta: float) -> int:
    """The clockwise rotation that lays an upright card along the radius at ``theta``."""
    r = 90.0 - theta
    while r > 90:
        r -= 180
    while r <= -90:
        r += 180
    return round(r)


def _box(cx: float, cy: float) -> tuple[float, float]:
    """The upright box's corner (x, y in slots) of a card centred on (cx, cy) slot widths."""
    return (round(cx - 0.5, 3), round((cy - 0.63) / _ROW, 3))


def _at(cx: float, cy: float, rotate: int) -> tuple[float, float, int]:
    x, y = _box(cx, cy)
    return (x, y, rotate)


def _arm_place(arm: int, distance: float, crossways: bool) -> tuple[float, float, int]:
    _, ux, uy = ARMS[arm]
    along = 0 if ux == 0 else 90  # cards on an arm lie along it; a barrier lies across
    return _at(_C + ux * distance, _C + uy * distance, (along + 90) % 180 if crossways else along)


def _circle_place(j: int) -> tuple[float, float, int]:
    t = math.radians(_ANGLES[j])
    return _at(_C + _RADIUS * math.cos(t), _C - _RADIUS * math.sin(t), _radial(_ANGLES[j]))


def _spec(pid: str, label: str, role: Role, place: tuple[float, float, int]) -> PileSpec:
    x, y, rotate = place
    return PileSpec(pid, label, role, x, y, rotate=rotate)


def _place_label(j: int) -> str:
    return f"the {_ORDINALS[j % 3]} place of the {RACES[j // 3]} Race"


_PACK_AT = _at(2 * _C + 0.65, _C - 0.85, 0)
_TALON_AT = _at(2 * _C + 0.65, _C + 0.85, 0)

PILES: tuple[PileSpec, ...] = (
    tuple(_spec(f"k{a}", f"the king of {KING_SUITS[a].noun} on the {ARMS[a][0]} arm",
                Role.FOUNDATION, _arm_place(a, _D_KING, False)) for a in range(4))
    + tuple(_spec(f"a{a}", f"the ace of {ACE_SUITS[a].noun} on the {ARMS[a][0]} arm",
                  Role.FOUNDATION, _arm_place(a, _D_ACE, False)) for a in range(4))
    + tuple(_spec(f"b{a}", f"the {BARRIER_CARDS[a].name} barrier", Role.FIGURE,
                  _arm_place(a, _RADIUS, True)) for a in range(4))
    + tuple(_spec(f"r{j}", _place_label(j), Role.TABLEAU, _circle_place(j)) for j in range(12))
    + (_spec("stock", "the pack", Role.STOCK, _PACK_AT),
       _spec("talon", "the talon", Role.TALON, _TALON_AT))
)

KINGS = range(0, 4)
ACES = range(4, 8)
FOUNDS = range(0, 8)
BARRIER_PILES = range(8, 12)
PLACES = range(12, 24)
STOCK = 24
TALON_PILE = 25
assert len(PILES) == TALON_PILE + 1

#: The suit of each foundation, by pile index.
FOUNDATION_SUIT: dict[int, Suit] = {
    **{k: KING_SUITS[k - KINGS.start] for k in KINGS},
    **{a: ACE_SUITS[a - ACES.start] for a in ACES},
}
#: The cards taken out before the shuffle: the foundation cards, then the barriers.
WITHDRAWN: tuple[Card, ...] = (
    tuple(Card(KING, s) for s in KING_SUITS) + tuple(Card(ACE, s) for s in ACE_SUITS)
    + BARRIER_CARDS)

#: The places of the circle in the order of the deal, by reading (HE-1).
DEAL_ORDERS: dict[DealOrder, tuple[int, ...]] = {
    DealOrder.CLOCKWISE: tuple(PLACES),
    # the north from left to right (as clockwise), then the south from left to right: the
    # African Race from the king of hearts down to the southern barrier, then the Australian.
    DealOrder.ROWS: tuple(PLACES[:6]) + tuple(reversed(PLACES[6:])),
}


def race(i: int) -> int:
    """The Race of circle place ``i``: 0 European, 1 Asiatic, 2 Australian, 3 African."""
    return (i - PLACES.start) // 3


def north(i: int) -> bool:
    """Whether circle place ``i`` lies in the northern hemisphere."""
    return race(i) < 2


def proper(card: Card, i: int) -> bool:
    """Whether ``card`` belongs to the hemisphere of place ``i``: red north, black south."""
    return card.red == north(i)


def home(card: Card) -> str:
    return "northern hemisphere" if card.red else "southern hemisphere"


def needs(pile: tuple[Card, ...], f: int) -> int | None:
    """The rank foundation ``f`` takes next: red aces ascend to the king, black kings descend
    to the ace; None when it is complete."""
    top = pile[-1].rank
    if f in ACES:
        return top + 1 if top < KING else None
    return top - 1 if top > ACE else None


def takes(piles: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]], f: int,
          card: Card) -> bool:
    return card.suit is FOUNDATION_SUIT[f] and needs(piles[f], f) == card.rank


def targets(piles: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]],
            card: Card) -> list[int]:
    """The foundations that take ``card`` now (two of its suit at most)."""
    return [f for f in FOUNDS if takes(piles, f, card)]


def marries(receiver: Card, card: Card) -> bool:
    """The *Note*: a red card goes on the red card of its suit one rank higher (descending
    line), a black card on the black card of its suit one rank lower (ascending line)."""
    if card.suit is not receiver.suit:
        return False
    return card.rank == receiver.rank + (-1 if card.red else 1)


def available(piles: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]], i: int) -> bool:
    """Rule I: the top card of place ``i`` is available (it lies in its own hemisphere)."""
    return bool(piles[i]) and proper(piles[i][-1], i)


def wrong_cards(piles: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]]) -> list[int]:
    """The places whose card lies in the wrong hemisphere (such a card is always alone)."""
    return [i for i in PLACES if piles[i] and not proper(piles[i][-1], i)]


def _an(card: Card) -> str:
    return f"the {card.name}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _layout_regions() -> tuple[Region, ...]:
    """The name of each Race, as on the plate, in the empty quarter between the arms of the
    cross and the Race's three places."""
    out = []
    for name, sx, sy in (("European", -1, -1), ("Asiatic", 1, -1), ("Australian", 1, 1),
                         ("African", -1, 1)):
        near, far = 0.6, 1.95
        x0, y0 = _C + min(sx * near, sx * far), _C + min(sy * near, sy * far)
        out.append(Region(f"{name} Race", round(x0, 3), round(y0 / _ROW, 3),
                          round(far - near, 3), round((far - near) / _ROW, 3)))
    return tuple(out)


_GRID_H = round((2 * _C + 0.05) / _ROW, 3)


def _narrow_layout() -> Layout:
    """For a phone: the pack and the talon below the circle instead of beside it."""
    y = 2 * _C + 0.75
    return Layout(name="narrow", max_width=640, grid=(round(2 * _C + 0.05, 3),
                                                      round((y + 0.7) / _ROW, 3)),
                  at={"stock": _at(_C - 1.2, y, 0), "talon": _at(_C + 1.2, y, 0)},
                  regions=_layout_regions())


class TheHemispheres(Game):
    slug = SLUG
    title = "The Hemispheres"
    packs = 2
    Options = HemispheresOptions
    PILES = PILES
    GRID = (round(2 * _C + 1.2, 3), _GRID_H)
    REGIONS = _layout_regions()
    LAYOUTS = (_narrow_layout(),)
    DIAGRAM_DEAL = 52
    FIGURES = (
        Figure("tableau", "The Hemispheres after the deal, in modern cards.",
               "The tableau of The Hemispheres just after the deal, drawn in modern cards: a "
               "cross with an empty centre, each arm holding a black king and a red ace, the "
               "foundations, and at its end a barrier laid across it, the king of hearts on "
               "the left, the king of diamonds on the right and a black ace above and below; "
               "round the cross a circle of twelve cards, three between each pair of "
               "barriers, each lying along its radius: the European and Asiatic Races above, "
               "the Australian and African below. In this deal two cards lie in the wrong "
               "hemisphere, the ten of spades in the European Race and the six of hearts in "
               "the Australian. The pack is not shown.",
               piles=tuple(p.id for p in PILES if p.id not in ("stock", "talon"))),
    )
    ACTIONS = (ActionSpec("deal", "Deal a card", "d", DEAL_OUT),)
    LEDGER = {
        RULE_1: "Only the top card of a place in the circle that lies in its own hemisphere "
                "(red in the north, black in the south) may be played or married; any other "
                "card of the circle is refused.",
        RULE_2: "A black card in the north and a red card in the south may change places at "
                "any time; once the pack is dealt and the talon exhausted, a card of the "
                "wrong colour may also be moved into an empty place of its own hemisphere "
                "(or, under HE-9’s other reading, onto a card there that it marries). No other "
                "move takes a card out of the wrong hemisphere.",
        RULE_3: "A card of the circle marries only a card of its own Race; the talon’s top "
                "card may marry the top card of a place in any Race.",
        RULE_4: "The barriers never move and take no card; when every other card is on the "
                "foundations they are played by themselves, each completing a foundation of "
                "its suit, and the game is won.",
        RULE_5: "A foundation takes only cards of its own suit.",
        WITHDRAW: "The two aces of hearts, the two aces of diamonds, the two kings of clubs and "
                  "the two kings of spades are taken out before the shuffle and laid on the "
                  "arms of the cross, the kings nearest the centre.",
        BARRIERS: "One king of hearts, one king of diamonds, one ace of clubs and one ace of "
                  "spades are taken out too and laid across the ends of the arms; they "
                  "divide the circle into four Races of three places, and nothing is placed "
                  "on them.",
        FOUNDATIONS: "Each ace foundation takes the next card of its suit up to the king, and "
                     "each king foundation the next card of its suit down to the ace; where "
                     "both foundations of a suit would take a card, the player chooses; a "
                     "card played on a foundation stays there.",
        HEMISPHERES: "The European and Asiatic Races are the northern hemisphere, the home of "
                     "hearts and diamonds; the Australian and African Races the southern, the "
                     "home of clubs and spades.",
        WRONG: "A card in the wrong hemisphere is never played or married, and no card is "
               "married onto it; it leaves only by an exchange or, at the end, a transfer "
               "(HE-3).",
        CIRCLE: "Twelve cards are dealt into the circle, one to each place, beginning beside "
                "the king of hearts and going clockwise round the circle (or, under HE-1’s "
                "other reading, across the north and then across the south, each from left "
                "to right); the other eighty cards form the pack.",
        OPENING: "Before the first card of the pack is dealt, and at any time after, available "
                 "cards may be played, married and exchanged, in any order; nothing is done "
                 "by itself.",
        LINES: "A red card marries only the red card of its suit one rank higher, a black "
               "card only the black card of its suit one rank lower, one card at a time.",
        DEAL_OUT: "“Deal a card” turns the pack’s top card: it goes by itself into the first "
                  "vacant place of the circle in the order of the deal, whatever its colour; "
                  "with no vacancy it is played if a foundation takes it, and otherwise laid "
                  "on the talon. A vacancy is never filled from anywhere else.",
        TALON: "Only the talon’s top card is shown and used: it may marry the top card of a "
               "place in any Race, if that card lies in its own hemisphere, and (unless HE-8’s "
               "other reading is chosen) be played on a foundation.",
        NO_REDEAL: "When the pack has been dealt out it is not dealt again, and the talon is "
                   "never turned.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def full_pack(cls) -> Counter[Card]:
        return Counter(pack(2))

    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        rest = Counter(pack(2))
        rest.subtract(WITHDRAWN)
        stock = tuple(shuffled(sorted(rest.elements()), deal))
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for a in range(4):
            piles[KINGS[a]] = (Card(KING, KING_SUITS[a]),)
            piles[ACES[a]] = (Card(ACE, ACE_SUITS[a]),)
            piles[BARRIER_PILES[a]] = (BARRIER_CARDS[a],)
        for i in DEAL_ORDERS[options.deal_order]:
            piles[i] = (stock[-1],)
            stock = stock[:-1]
        piles[STOCK] = stock
        return State(tuple(piles))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        for f in FOUNDS:
            pile = p[f]
            base = Card(KING if f in KINGS else ACE, FOUNDATION_SUIT[f])
            if not pile or pile[0] != base:
                raise PositionError(f"{PILES[f].label} must begin with the {base.name}")
            for k in range(1, len(pile)):
                if pile[k].suit is not base.suit or needs(pile[:k], f) != pile[k].rank:
                    raise PositionError(f"{PILES[f].label} is not built in sequence")
        for b in BARRIER_PILES:
            if p[b] not in ((BARRIER_CARDS[b - BARRIER_PILES.start],), ()):
                raise PositionError(f"{PILES[b].label} holds the wrong card")
        played = sum(len(p[f]) for f in FOUNDS)
        barriers_left = sum(len(p[b]) for b in BARRIER_PILES)
        if barriers_left and played == TOTAL - barriers_left:
            raise PositionError("the barriers are played as soon as every other card is on "
                                "the foundations")
        if barriers_left < 4 and played != TOTAL:
            raise PositionError("a barrier has been moved before the end of the game")
        for i in PLACES:
            pile = p[i]
            for k in range(1, len(pile)):
                if not proper(pile[k], i) or not marries(pile[k - 1], pile[k]):
                    raise PositionError(f"{PILES[i].label} is not built by marriages")
        return state

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        p = state.piles
        for i in PLACES:
            if not p[i]:
                continue
            for f in FOUNDS:
                yield Move.step(PILES[i].id, PILES[f].id)
            for j in PLACES:
                if j != i:
                    yield Move.step(PILES[i].id, PILES[j].id)
        if p[TALON_PILE]:
            for d in (*FOUNDS, *PLACES):
                yield Move.step("talon", PILES[d].id)
        yield Move(action="deal")

    def legal_in(self, state: State) -> list[Move]:
        """The legal moves, as by default (:meth:`candidate_moves`, in its order, checked
        with :meth:`refusal`), but only the candidates that pass a quick necessary test are
        made and checked (the solver asks very often; a test in test_solver.py compares
        it with the default)."""
        p = state.piles
        refusal = self.refusal
        out: list[Move] = []
        wants = {f: (FOUNDATION_SUIT[f], needs(p[f], f)) for f in FOUNDS}
        tops = {j: p[j][-1] for j in PLACES if p[j]}

        def add(si: int, di: int) -> None:
            m = Move.step(PILES[si].id, PILES[di].id)
            if refusal(state, m) is None:
                out.append(m)

        def sources() -> Iterator[int]:
            yield from (i for i in PLACES if p[i])
            if p[TALON_PILE]:
                yield TALON_PILE

        for i in sources():
            card = p[i][-1]
            for f in FOUNDS:
                suit, need = wants[f]
                if card.suit is suit and need == card.rank:
                    add(i, f)
            marrying = i == TALON_PILE or proper(card, i)
            side = i != TALON_PILE and north(i)
            for j in PLACES:
                if j == i:
                    continue
                if marrying:
                    top = tops.get(j)
                    if top is not None and marries(top, card):
                        add(i, j)
                elif north(j) != side:
                    add(i, j)
        m = Move(action="deal")
        if refusal(state, m) is None:
            out.append(m)
        return out

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        p = state.piles
        if si in FOUNDS:
            return IllegalMove(FOUNDATIONS, "A card played on a foundation stays there.")
        if si in BARRIER_PILES:
            return IllegalMove(RULE_4, "The barriers cannot be moved till the end of the game, "
                               "when they are played by themselves to complete the "
                               "foundations.")
        if si == STOCK:
            return IllegalMove(DEAL_OUT, "The pack is dealt one card at a time (Deal a card).")
        if not step.top:
            if si == TALON_PILE:
                return IllegalMove(TALON, "Only the top card of the talon can be used.")
            return IllegalMove(RULE_1, "Only the top card of a place in the circle is "
                               "available.")
        if di in BARRIER_PILES:
            return IllegalMove(BARRIERS, "A barrier only divides the Races: nothing is placed "
                               "on it.")
        if di in (STOCK, TALON_PILE):
            return IllegalMove(TALON, "Only the cards dealt from the pack that can be neither "
                               "placed in a vacancy nor played form the talon.")
        if si == TALON_PILE:
            return self._refuse_from_talon(p, card, di)
        # a card of the circle
        if di in FOUNDS:
            if not proper(card, si):
                return self._refuse_wrong_source(card, si)
            return self._refuse_foundation(p, di, card)
        if di == si:
            return IllegalMove(BOARD, "A card cannot be moved onto its own place.")
        if not proper(card, si):
            return self._refuse_wrong_card(p, si, di, card)
        return self._refuse_marriage(p, si, di, card)

    @staticmethod
    def _refuse_wrong_source(card: Card, i: int) -> IllegalMove:
        here = "northern" if north(i) else "southern"
        return IllegalMove(RULE_1, f"The {card.name} lies in the {here} hemisphere, which is "
                           f"not its own: only cards in their proper hemisphere are "
                           "available.")

    def _refuse_wrong_card(self, p: tuple[tuple[Card, ...], ...], si: int, di: int,
                           card: Card) -> IllegalMove | None:
        """A card lying in the wrong hemisphere may be exchanged with a card of the other
        colour lying in the wrong hemisphere too (Rule II), and at the end transferred."""
        if north(di) == north(si):
            return IllegalMove(RULE_2, f"The {card.name} is in the wrong hemisphere: it may "
                               f"only be exchanged into its own, the {home(card)}.")
        target = p[di]
        if target and not proper(target[-1], di):
            return None  # an exchange: each card goes into its proper hemisphere
        end = not p[STOCK] and not p[TALON_PILE]
        if not end:
            if not target:
                return IllegalMove(RULE_2, "A card of the wrong colour may be transferred "
                                   "without an exchange only at the end of the game, when all "
                                   "the cards are dealt and the talon is exhausted.")
            return IllegalMove(RULE_2, f"The {card.name} may be exchanged only with a card of "
                               f"the wrong colour lying in the {home(card)}.")
        if not target:
            return None  # the transfer at the end, into an empty place
        if self.options.transfer is Transfer.MARRY:
            if marries(target[-1], card):
                return None
            return self._refuse_lines(target[-1], card)
        return IllegalMove(RULE_2, f"At the end the {card.name} may be transferred only into "
                           f"an empty place of the {home(card)}, or exchanged with a card of "
                           "the wrong colour there.")

    def _refuse_marriage(self, p: tuple[tuple[Card, ...], ...], si: int, di: int,
                         card: Card) -> IllegalMove | None:
        target = p[di]
        if not target:
            return IllegalMove(DEAL_OUT, "A vacancy in the Races is refilled only from the "
                               "pack, by the next card dealt.")
        if race(si) != race(di):
            return IllegalMove(RULE_3, f"Cards may only marry those of their own Race: the "
                               f"{card.name} is in the {RACES[race(si)]} Race, "
                               f"{PILES[di].label} in the {RACES[race(di)]}.")
        top = target[-1]
        if not proper(top, di):
            return IllegalMove(WRONG, f"The {top.name} is in the wrong hemisphere and cannot "
                               "be used in any way: no card marries it there.")
        return self._refuse_lines(top, card)

    @staticmethod
    def _refuse_lines(top: Card, card: Card) -> IllegalMove | None:
        if marries(top, card):
            return None
        if card.suit is not top.suit:
            return IllegalMove(LINES, f"A marriage is made with a card of the same suit: the "
                               f"{card.name} cannot go on the {top.name}.")
        line, step = ("red suits marry in descending line", -1) if card.red else \
            ("black suits marry in ascending line", 1)
        # (a red ace and a black king are foundation cards, so the rank always exists)
        return IllegalMove(LINES, f"The {line}: only the {Card(top.rank + step, top.suit).name} "
                           f"goes on the {top.name}.")

    def _refuse_from_talon(self, p: tuple[tuple[Card, ...], ...], card: Card,
                           di: int) -> IllegalMove | None:
        if di in FOUNDS:
            if not self.options.talon_play:
                return IllegalMove(TALON, "Under this reading cards from the talon may only "
                                   "marry those in the circle.")
            return self._refuse_foundation(p, di, card)
        target = p[di]
        if not target:
            return IllegalMove(DEAL_OUT, "A vacancy in the Races is refilled only from the "
                               "pack, by the next card dealt, never from the talon.")
        top = target[-1]
        if not proper(top, di):
            return IllegalMove(RULE_1, f"The {top.name} is in the wrong hemisphere: it is not "
                               "available, and no card from the talon may marry it.")
        return self._refuse_lines(top, card)

    def _refuse_foundation(self, p: tuple[tuple[Card, ...], ...], f: int,
                           card: Card) -> IllegalMove | None:
        suit = FOUNDATION_SUIT[f]
        label = PILES[f].label
        if card.suit is not suit:
            return IllegalMove(RULE_5, f"All the foundations must follow suit: {label} takes "
                               f"only {suit.noun}.")
        need = needs(p[f], f)
        if need == card.rank:
            return None
        if need is None:
            return IllegalMove(FOUNDATIONS, f"{_cap(label)} is complete.")
        return IllegalMove(FOUNDATIONS, f"{_cap(label)} needs the {Card(need, suit).name} "
                           "next.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "redeal":
            return IllegalMove(NO_REDEAL, "There is no re-deal.")
        if action != "deal":
            return IllegalMove(BOARD, f"The Hemispheres has no action {action!r}.")
        if not state.piles[STOCK]:
            return IllegalMove(NO_REDEAL, "The whole pack has been dealt, and there is no "
                               "re-deal.")
        return None

    def first_vacancy(self, piles: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]]
                      ) -> int | None:
        """The vacant place the next card dealt fills: the first in the order of the deal."""
        return next((i for i in DEAL_ORDERS[self.options.deal_order] if not piles[i]), None)

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        if move.action == "deal":
            card = piles[STOCK][-1]
            piles[STOCK] = piles[STOCK][:-1]
            gap = self.first_vacancy(piles)
            if gap is not None:
                piles[gap] = (card,)
            else:
                found = targets(piles, card)
                if found:
                    piles[found[0]] = piles[found[0]] + (card,)
                else:
                    piles[TALON_PILE] = piles[TALON_PILE] + (card,)
        else:
            (src, dst), = move.steps
            si, di = self.pile_index(src), self.pile_index(dst)
            card = piles[si][-1]
            if (si in PLACES and di in PLACES and not proper(card, si) and piles[di]
                    and not proper(piles[di][-1], di)):
                # an exchange (Rule II): the two cards change places
                piles[si], piles[di] = piles[si][:-1] + piles[di][-1:], piles[di][:-1] + (card,)
            else:
                piles[si] = piles[si][:-1]
                piles[di] = piles[di] + (card,)
        _play_barriers(piles)
        return State(tuple(piles))

    # ---- the end ---------------------------------------------------------------------
    def outcome_of(self, state: State) -> Outcome | None:
        p = state.piles
        if sum(len(p[f]) for f in FOUNDS) == TOTAL:
            return Outcome.WON
        if p[STOCK]:
            return None  # a card can always be dealt
        memo: dict[tuple[State, Any], bool | None] = self.__dict__.setdefault("_memo", {})
        key = (state, self.options)
        if key not in memo:
            if len(memo) > 256:
                memo.clear()
            memo[key] = self.progress_possible(state)
        # Marriages inside a Race can carry a card back and forth for ever; the game is lost
        # when no series of them leads to any other move (HE-13).
        return Outcome.LOST if memo[key] is False else None

    def progress_possible(self, state: State) -> bool | None:
        """Whether some series of marriages inside the Races leads to a move that changes
        more than the circle (a card dealt, played, exchanged, transferred, or married from
        the talon): True if one does, False if none does, None if the search gave up."""
        p = state.piles
        if p[STOCK]:
            return True
        wrong = wrong_cards(p)
        if any(north(i) for i in wrong) and any(not north(i) for i in wrong):
            return True  # an exchange
        talon_top = p[TALON_PILE][-1] if p[TALON_PILE] else None
        if talon_top is not None and self.options.talon_play and targets(p, talon_top):
            return True
        end = not p[TALON_PILE]
        # cards waiting to be transferred into each hemisphere (at the end only)
        waiting = {True: [p[i][-1] for i in wrong if not north(i)],
                   False: [p[i][-1] for i in wrong if north(i)]}
        marry_in = self.options.transfer is Transfer.MARRY
        gave_up = False
        for r in range(4):
            places = tuple(PLACES[3 * r: 3 * r + 3])
            is_north = r < 2
            newcomers = waiting[is_north] if end else []

            def good(race_piles: tuple[tuple[Card, ...], ...]) -> bool:
                for k, pile in enumerate(race_piles):
                    if not pile:
                        if newcomers:
                            return True  # a transfer into an empty place
                        continue
                    top = pile[-1]
                    if not proper(top, places[k]):
                        continue
                    if targets(p, top):
                        return True
                    if talon_top is not None and marries(top, talon_top):
                        return True
                    if marry_in and any(marries(top, c) for c in newcomers):
                        return True
                return False

            start = tuple(p[i] for i in places)
            seen = {start}
            todo = [start]
            while todo:
                cur = todo.pop()
                if good(cur):
                    return True
                for a in range(3):
                    src = cur[a]
                    if not src or not proper(src[-1], places[a]):
                        continue
                    for b in range(3):
                        dst = cur[b]
                        if a == b or not dst or not proper(dst[-1], places[b]) \
                                or not marries(dst[-1], src[-1]):
                            continue
                        nxt = list(cur)
                        nxt[a], nxt[b] = src[:-1], dst + src[-1:]
                        t = tuple(nxt)
                        if t not in seen:
                            seen.add(t)
                            todo.append(t)
                if len(seen) > SEARCH_LIMIT:
                    gave_up = True
                    break
        return None if gave_up else False

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        p = state.piles
        played = sum(len(p[f]) for f in FOUNDS)
        if out is Outcome.WON:
            return "Won: every card is on the foundations, the barriers last of all."
        if out is Outcome.LOST:
            return (f"Nothing more can be done: the patience has failed with {played} of 104 "
                    "cards on the foundations.")
        stock = len(p[STOCK])
        parts = [f"Pack: {plural(stock, 'card')}" if stock else "The pack is dealt out",
                 f"talon: {plural(len(p[TALON_PILE]), 'card')}",
                 f"{played} of 104 on the foundations"]
        wrong = len(wrong_cards(p))
        if wrong:
            parts.append(f"{plural(wrong, 'card')} in the wrong hemisphere")
        gap = self.first_vacancy(p)
        if gap is not None and stock:
            parts.append(f"the next card dealt fills {PILES[gap].label}")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        p = state.piles
        if move.action == "deal" and p[STOCK]:
            dealt = p[STOCK][-1]
            gap = self.first_vacancy(p)
            if gap is not None:
                return f"The {dealt.name} is dealt into {PILES[gap].label}."
            found = targets(p, dealt)
            if found:
                return f"The {dealt.name} is dealt and played on {PILES[found[0]].label}."
            return f"The {dealt.name} is dealt and laid on the talon."
        if len(move.steps) == 1:
            src, dst = move.steps[0]
            card, target = self.card_at(state, src), self.card_at(state, dst)
            si, di = self._index.get(src, -1), self._index.get(dst, -1)
            if card is not None and si in PLACES and di in PLACES:
                if not proper(card, si):
                    if target is not None and not proper(target, di):
                        return (f"The {card.name} and the {target.name} change hemispheres, "
                                "each going into its own.")
                    return f"The {card.name} is transferred into {PILES[di].label}."
                if target is not None:
                    return f"The {card.name} is married to the {target.name}."
            if card is not None and si == TALON_PILE and target is not None and di in PLACES:
                return (f"The {card.name} from the talon is married to the {target.name} in "
                        f"{PILES[di].label}.")
        return super().describe(state, move)


def _play_barriers(piles: list[tuple[Card, ...]]) -> None:
    """Rule IV: when every other card is on the foundations, the barriers are played, each
    completing a foundation of its suit."""
    left = [b for b in BARRIER_PILES if piles[b]]
    if not left or sum(len(piles[f]) for f in FOUNDS) != TOTAL - len(left):
        return
    for b in left:
        card = piles[b][0]
        f = next(f for f in FOUNDS if takes(piles, f, card))
        piles[f] = piles[f] + (card,)
        piles[b] = ()

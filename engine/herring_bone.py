"""The Herring-bone (two packs), by the book: 1914 printing, plate p. 78, text pp. 79–80.

Piles: the herring-bone, twenty-eight cards in one line down the middle (seven fans of three,
each followed by a single card), one pile of one card each (``h1`` … ``h28``, numbered in the
order of the deal); the eight side scenes, four on either side (``s0`` … ``s7``); the four
bars, one above and one below each column of side scenes (``b0`` … ``b3``); the eight
foundations, four descending on the left (``f0`` … ``f3``) and four ascending on the right
(``f4`` … ``f7``), all on the cards of the value of the first card dealt after the tableau;
the pack, the card just turned up from it, and the talon. See the chapter page for the text
each rule id points at, and its editorial notes (``note-hb-N``) for the readings behind the
options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import RANK_NAMES, SUITS, Card, Suit, pack
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

SLUG = "the-herring-bone"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_1 = _rule("rule-1")              # the foundations follow suit
RULE_2 = _rule("rule-2")              # the lowest card of the herring-bone alone is available
RULE_3 = _rule("rule-3")              # side scenes and bars all available
RULE_4 = _rule("rule-4")              # bars refilled from the herring-bone, side scenes from
                                      # the pack or talon
HERRING_BONE = _rule("herring-bone")  # the deal of the twenty-eight cards
SIDE_SCENES = _rule("side-scenes")    # the side scenes and the bars
FOUNDATION = _rule("foundation")      # the next card dealt is the foundation; seven like it
DIRECTIONS = _rule("directions")      # four ascend and four descend; ascending on the right
PLAY = _rule("first-plays")         # play foundations or other suitable cards
BARS = _rule("bars")                  # a bar removed is replaced by the herring-bone's card
DEAL = _rule("deal")                  # deal out the pack, playing suitable cards, refilling
TALON = _rule("talon")                # the unsuitable cards form the talon
EXCHANGE = _rule("exchange")          # one card at a time exchanged between up and down
REDEAL = _rule("redeal")              # the talon taken up, shuffled and re-dealt twice
GERMAN = _rule("german")              # the German variety: the herring-bone from one pack
BOARD = _rule("board")                # the board itself (notation, empty places)

HB_CARDS = 28
FANS = 7
SCENES = 8
BAR_COUNT = 4
REDEALS = 2
FOUNDATION_SIZE = 13


class Directions(Enum):
    """HB-5: which four foundations ascend."""

    SUIT = "suit"
    FREE = "free"


class Refill(Enum):
    """HB-4: when a vacant side scene is refilled."""

    CHOICE = "choice"
    AT_ONCE = "at-once"


@dataclass(frozen=True, slots=True)
class HerringBoneOptions:
    directions: Directions = option(
        Directions.SUIT, note="note-hb-5", label="Which foundations ascend",
        labels={Directions.SUIT: "one of each suit ascends, the other descends",
                Directions.FREE: "any four, as the player places them"})
    side_refill: Refill = option(
        Refill.CHOICE, note="note-hb-4", label="A vacant side scene is refilled",
        labels={Refill.CHOICE: "when the player likes, by a card turned up or the talon’s top",
                Refill.AT_ONCE: "at once, by the talon’s top card, else the pack’s"})
    german: bool = option(
        False, note="note-hb-10", label="The herring-bone is dealt",
        labels={False: "from the two packs shuffled together (the English game)",
                True: "from a single pack, before the packs are shuffled (the German variety)"})


# ---------------------------------------------------------------------------- the layout
#
# Positions are the top-left corner of a card's upright box, in card slots (a slot is 1 wide
# and 1.36 slot-widths high; a card 0.9 by 1.26). A rotated card turns about the centre of its
# box. As in the plate: the herring-bone down the middle, each fan's middle card upright in
# the line with its two slanting cards at its sides, the single card below half covering it;
# on either side a column of four side scenes between two bars laid crossways; outside them
# the four places of the foundations; the pack, the card turned up and the talon below.

_ROW = 1.36
_CARD_W, _CARD_H = 0.9, 1.26
_HALF = _CARD_H / 2           # each card of the line half covers the one before
_CX = 4.2                     # the herring-bone's centre line
_TOP = 0.1
_SLANT_DX = 0.72              # a slanting card's centre, from the line
_SIDE_DX = 2.35               # a column of side scenes, from the line
_FOUND_DX = 3.68              # a column of foundations, from the line
_SCENE_CY = (1.98, 3.78, 5.58, 7.38)
_BAR_CY = (0.55, 8.81)
_PACK_CY = 9.95 + _HALF


def _box(cx: float, cy: float) -> tuple[float, float]:
    """The upright box's corner (x, y in slots) of a card centred on (cx, cy) slot widths."""
    return (round(cx - 0.5, 3), round((cy - _CARD_H / 2) / _ROW, 3))


def _line_cy(k: int) -> float:
    """The centre of the k-th upright card of the line (0 = the top fan's middle card)."""
    return _TOP + _HALF + k * _HALF


def _hb_name(n: int) -> str:
    fan, k = divmod(n - 1, 4)
    what = ("left-hand card", "right-hand card", "middle card")[k] + f" of fan {fan + 1}" \
        if k < 3 else f"single card {fan + 1}"
    return f"herring-bone card {n} ({what})"


def _hb(n: int) -> PileSpec:
    fan, k = divmod(n - 1, 4)
    if k < 2:                      # the slanting cards beside the single card of their fan
        cx = _CX - _SLANT_DX if k == 0 else _CX + _SLANT_DX
        x, y = _box(cx, _line_cy(2 * fan + 1))
        return PileSpec(f"h{n}", _hb_name(n), Role.TABLEAU, x, y, rotate=-45 if k == 0 else 45,
                        mark=str(n))
    x, y = _box(_CX, _line_cy(2 * fan + (0 if k == 2 else 1)))
    return PileSpec(f"h{n}", _hb_name(n), Role.TABLEAU, x, y, mark=str(n))


def _scene(i: int) -> PileSpec:
    side, place = ("left", i + 1) if i < 4 else ("right", i - 3)
    cx = _CX - _SIDE_DX if i < 4 else _CX + _SIDE_DX
    x, y = _box(cx, _SCENE_CY[i % 4])
    return PileSpec(f"s{i}", f"side scene, {side} side, place {place}", Role.RESERVE, x, y,
                    mark="scene")


def _bar(i: int) -> PileSpec:
    side = "left" if i < 2 else "right"
    where = "above" if i % 2 == 0 else "below"
    cx = _CX - _SIDE_DX if i < 2 else _CX + _SIDE_DX
    x, y = _box(cx, _BAR_CY[i % 2])
    return PileSpec(f"b{i}", f"bar {where} the {side} side scenes", Role.RESERVE, x, y,
                    rotate=90, mark="bar")


def _foundation(j: int) -> PileSpec:
    up = j >= 4
    cx = _CX + _FOUND_DX if up else _CX - _FOUND_DX
    x, y = _box(cx, _SCENE_CY[j % 4])
    side = "right" if up else "left"
    what = "ascending" if up else "descending"
    return PileSpec(f"f{j}", f"{what} foundation, {side} side, place {j % 4 + 1}",
                    Role.FOUNDATION, x, y, mark="up" if up else "down")


# The slanting cards first, then the upright line, so that the board draws the line over the
# slanting cards' inner corners, as the plate does.
_SLANTS = tuple(n for n in range(1, HB_CARDS + 1) if (n - 1) % 4 < 2)
_UPRIGHTS = tuple(n for n in range(1, HB_CARDS + 1) if (n - 1) % 4 >= 2)

PILES: tuple[PileSpec, ...] = (
    tuple(_hb(n) for n in _SLANTS + _UPRIGHTS)
    + tuple(_scene(i) for i in range(SCENES))
    + tuple(_bar(i) for i in range(BAR_COUNT))
    + tuple(_foundation(j) for j in range(8))
    + (PileSpec("stock", "the pack", Role.STOCK, *_box(_CX - _FOUND_DX, _PACK_CY)),
       PileSpec("turned", "the card turned up", Role.RESERVE,
                *_box(_CX - _FOUND_DX + 1.1, _PACK_CY), mark="turned"),
       PileSpec("talon", "the talon", Role.TALON, *_box(_CX - _FOUND_DX + 2.2, _PACK_CY),
                mark="talon"))
)

_INDEX = {p.id: i for i, p in enumerate(PILES)}
_STEPS: dict[tuple[int, int], Move] = {}
_DEAL, _REDEAL = Move(action="deal"), Move(action="redeal")


def _step(src: int, dst: int) -> Move:
    """The one-step move from pile ``src`` to pile ``dst`` (made once, then reused)."""
    m = _STEPS.get((src, dst))
    if m is None:
        m = _STEPS[(src, dst)] = Move.step(PILES[src].id, PILES[dst].id)
    return m
#: The herring-bone's piles by the number of the card in the deal: HB[n - 1] is card n.
HB: tuple[int, ...] = tuple(_INDEX[f"h{n}"] for n in range(1, HB_CARDS + 1))
HB_SET = frozenset(HB)
SCENE_PILES = tuple(_INDEX[f"s{i}"] for i in range(SCENES))
BAR_PILES = tuple(_INDEX[f"b{i}"] for i in range(BAR_COUNT))
FOUNDATIONS = tuple(_INDEX[f"f{j}"] for j in range(8))
DOWN = FOUNDATIONS[:4]
UP = FOUNDATIONS[4:]
_UP_SET = frozenset(UP)
STOCK = _INDEX["stock"]
TURNED = _INDEX["turned"]
TALON_PILE = _INDEX["talon"]


def _narrow() -> Layout:
    """For a phone: the foundations in a row of eight above the tableau (the descending four
    on the left), the rest as on the wide board, closed up."""
    at: dict[str, tuple[float, float, int]] = {}
    dx = _FOUND_DX - 0.1 - 1.0 - _CX    # the tableau moves left by the foundations' column
    dy = 1.1                            # and down by the row of foundations
    for p in PILES:
        if p.role is Role.FOUNDATION:
            j = int(p.id[1:])
            at[p.id] = (float(j), 0.0, 0)
        elif p.id in ("stock", "turned", "talon"):
            continue
        else:
            at[p.id] = (round(p.x + dx + 0.1 + 1.0, 3), round(p.y + dy, 3), p.rotate)
    x0 = round(PILES[STOCK].x + 0.95, 3)
    for k, pid in enumerate(("stock", "turned", "talon")):
        at[pid] = (round(x0 + 1.1 * k, 3), round(PILES[STOCK].y + dy, 3), 0)
    return Layout("narrow", (8.0, round(PILES[STOCK].y + dy + 1.0, 3)), at, max_width=560)


# ---------------------------------------------------------------------------- sequences

def _up(rank: int) -> int:
    """The rank after ``rank`` going up, the king turning the corner to the ace."""
    return rank % 13 + 1


def _down(rank: int) -> int:
    """The rank after ``rank`` going down, the ace turning the corner to the king."""
    return (rank - 2) % 13 + 1


def ascending(f: int) -> bool:
    return f in UP


def next_card(pile: tuple[Card, ...], up: bool) -> Card | None:
    """The card a begun foundation takes next (None when complete, at thirteen cards)."""
    if len(pile) >= FOUNDATION_SIZE:
        return None
    top = pile[-1]
    return Card(_up(top.rank) if up else _down(top.rank), top.suit)


def rank_plural(rank: int) -> str:
    name = RANK_NAMES[rank]
    return name + ("es" if name.endswith("x") else "s")


class TheHerringBone(Game):
    slug = SLUG
    title = "The Herring-bone"
    packs = 2
    Options = HerringBoneOptions
    PILES = PILES
    VARS = ("redeals", "base")
    GRID = (round(_CX + _FOUND_DX + 0.55, 3), round((_PACK_CY + _HALF + 0.1) / _ROW, 3))
    LAYOUTS = (_narrow(),)
    LEDGER = {
        RULE_1: "A card is refused on a foundation of another suit, and an exchange between "
                "foundations of different suits is refused.",
        RULE_2: "Only the herring-bone’s lowest remaining card can be moved: the cards leave "
                "it in the reverse of the order they were dealt in, each fan’s middle card "
                "first, then its right-hand and its left-hand card (HB-1).",
        RULE_3: "The top card of every side scene and bar may be played at any time, as may "
                "the lowest card of the herring-bone.",
        RULE_4: "A vacant bar is filled at once by the herring-bone’s available card (and "
                "stays empty once the herring-bone is used up); a vacant side scene takes only "
                "a card turned up from the pack or the talon’s top card, when the player likes "
                "(or, under HB-4’s other reading, at once by the talon’s top, else the pack’s).",
        HERRING_BONE: "The deal lays the first twenty-eight cards down the middle, seven fans "
                      "of three each followed by a single card, the twenty-eighth card alone "
                      "available.",
        SIDE_SCENES: "The next eight cards are the side scenes, four on each side, and the "
                     "next four the bars, above and below each column of side scenes.",
        FOUNDATION: "The forty-first card is turned up and must be placed in an empty "
                    "foundation place before anything else is done; each foundation begins "
                    "with a card of its value, played whenever one is available.",
        DIRECTIONS: "The four places on the left descend and the four on the right ascend, "
                    "each turning the corner (king to ace, ace to king) until it holds "
                    "thirteen cards; of each suit one ascends and one descends (or, under "
                    "HB-5’s other reading, any four of the eight ascend).",
        PLAY: "Cards of the tableau and the talon go only to the foundations: none is placed "
              "on another card of the tableau (HB-6).",
        BARS: "When a bar’s card is played, the herring-bone’s available card moves into the "
              "bar at once, releasing the next.",
        DEAL: "“Turn up the next card” turns the pack’s top card: one that fits a foundation "
              "waits to be played there or put in a vacant side scene before anything else is "
              "done.",
        TALON: "A card turned up that fits no foundation goes to the talon at once; only the "
               "talon’s top card can be used.",
        EXCHANGE: "The top card of a foundation may move to a foundation of the same suit "
                  "going the other way, if it comes next there, one card per move, as often as "
                  "the player likes; the foundation card itself never moves (HB-8).",
        REDEAL: "When the pack is used up, the talon may be shuffled and dealt again, twice; "
                "the shuffle is fixed by the deal number.",
        GERMAN: "Under HB-10’s German variety the twenty-eight cards of the herring-bone are "
                "dealt from one pack, so that no two of them are alike, before the rest are "
                "shuffled together.",
    }
    FIGURES = (
        Figure("tableau", "The Herring-bone after the deal, in modern cards.",
               "The tableau of the Herring-bone just after the deal, drawn in modern cards: "
               "down the middle the herring-bone, seven fans of three cards, the middle card "
               "of each upright and the other two slanting out to either side, each fan half "
               "covered by a single upright card, the last single card at the foot; on either "
               "side a column of four side scenes with a bar laid crossways above and below "
               "it; outside them four empty places for the foundations, descending on the "
               "left and ascending on the right; below, the pack, the card turned up (the "
               "first foundation card, still to be placed) and the place of the talon."),
    )
    ACTIONS = (
        ActionSpec("deal", "Turn up the next card", "t", DEAL),
        ActionSpec("redeal", "Shuffle and re-deal the talon", "e", REDEAL),
    )

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        if options.german:
            first = shuffled(pack(1), deal, stream=10)
            bone = first[:HB_CARDS]
            stock = tuple(shuffled(sorted(first[HB_CARDS:] + pack(1)), deal, stream=11))
        else:
            stock = tuple(shuffled(pack(2), deal))
            bone, stock = list(stock[::-1][:HB_CARDS]), stock[:-HB_CARDS]
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for n, card in enumerate(bone):
            piles[HB[n]] = (card,)
        for i in SCENE_PILES + BAR_PILES:  # left column top to bottom, then the right (HB-3)
            piles[i] = (stock[-1],)
            stock = stock[:-1]
        piles[TURNED] = (stock[-1],)       # the forty-first card: the first foundation
        piles[STOCK] = stock[:-1]
        return State(tuple(piles), (0, stock[-1].rank))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        redeals, base = state.vars
        if not 1 <= base <= 13:
            raise PositionError("the foundations' value must be a rank from ace to king")
        if not 0 <= redeals <= REDEALS:
            raise PositionError("the talon is re-dealt at most twice")
        one_card = HB + SCENE_PILES + BAR_PILES + (TURNED,)
        if any(len(p[i]) > 1 for i in one_card):
            raise PositionError("a place of the tableau or the card turned up holds more "
                                "than one card")
        gone = [n for n in range(HB_CARDS) if not p[HB[n]]]
        if gone and gone != list(range(HB_CARDS - len(gone), HB_CARDS)):
            raise PositionError("the herring-bone empties from its lowest card up")
        if p[HB[0]] and any(not p[b] for b in BAR_PILES):
            raise PositionError("a bar is vacant while the herring-bone has a card")
        for f in FOUNDATIONS:
            pile = p[f]
            if not pile:
                continue
            if pile[0].rank != base:
                raise PositionError(f"{PILES[f].label} must begin with a card of the "
                                    "foundations' value")
            for k in range(1, len(pile)):
                if next_card(pile[:k], ascending(f)) != pile[k]:
                    raise PositionError(f"{PILES[f].label} is not built in order")
        if options.directions is Directions.SUIT:
            for side in (UP, DOWN):
                suits = [p[f][0].suit for f in side if p[f]]
                if len(set(suits)) != len(suits):
                    raise PositionError("two foundations of one suit go the same way")
        if not any(p[f] for f in FOUNDATIONS) and not (p[TURNED] and p[TURNED][0].rank == base):
            raise PositionError("before the first foundation is placed, the card turned up "
                                "must be of the foundations' value")
        return state

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def available_hb(state: State) -> int | None:
        """The pile of the herring-bone's available card (its lowest), None when empty."""
        for i in reversed(HB):
            if state.piles[i]:
                return i
        return None

    def _base(self, state: State) -> int:
        return state.vars[1]

    def _place_refusal(self, state: State, f: int, card: Card,
                       piles: tuple[tuple[Card, ...], ...] | None = None) -> IllegalMove | None:
        """Why ``card`` may not go on foundation ``f`` (None if it may)."""
        p = state.piles if piles is None else piles
        pile = p[f]
        label = PILES[f].label
        base = self._base(state)
        if not pile:
            if card.rank != base:
                return IllegalMove(FOUNDATION, f"The foundations are the {rank_plural(base)}: "
                                   f"the empty {label} takes only a {RANK_NAMES[base]}.")
            if self.options.directions is Directions.SUIT:
                side = UP if ascending(f) else DOWN
                if any(p[g] and p[g][0].suit is card.suit for g in side):
                    way = "ascend" if ascending(f) else "descend"
                    return IllegalMove(DIRECTIONS, f"Of each suit one foundation ascends and "
                                       f"one descends: the {card.suit.noun} already {way} on "
                                       f"this side.")
            return None
        if card.suit is not pile[0].suit:
            return IllegalMove(RULE_1, f"The foundations follow suit: the {label} takes only "
                               f"{pile[0].suit.noun}.")
        nxt = next_card(pile, ascending(f))
        if nxt is None:
            return IllegalMove(DIRECTIONS, f"The {label} is complete: it holds thirteen cards.")
        if card != nxt:
            way = "ascends" if ascending(f) else "descends"
            return IllegalMove(DIRECTIONS, f"The {label} {way} in sequence: it needs the "
                               f"{nxt.name} next.")
        return None

    def _accepts(self, piles: tuple[tuple[Card, ...], ...], base: int, f: int,
                 card: Card) -> bool:
        """Whether foundation ``f`` takes ``card`` now: the quick form of
        :meth:`_place_refusal` (None there exactly when True here)."""
        pile = piles[f]
        if not pile:
            if card.rank != base:
                return False
            if self.options.directions is Directions.SUIT:
                side = UP if f in _UP_SET else DOWN
                return not any(piles[g] and piles[g][0].suit is card.suit for g in side)
            return True
        if len(pile) >= FOUNDATION_SIZE:
            return False
        top = pile[-1]
        return card.suit is top.suit and card.rank == (
            _up(top.rank) if f in _UP_SET else _down(top.rank))

    def fits(self, state: State, card: Card) -> bool:
        """Whether ``card`` may go on some foundation as they stand."""
        base = state.vars[1]
        return any(self._accepts(state.piles, base, f, card) for f in FOUNDATIONS)

    def redeals_left(self, state: State) -> int:
        return max(0, REDEALS - state.vars[0])

    def _seed(self) -> int:
        return self.deal if self.deal is not None else 0

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        vacant = [i for i in SCENE_PILES if not piles[i]]
        if piles[TURNED]:
            sources = [TURNED]
            yield Move.step("turned", "talon")
        else:
            sources = [i for i in SCENE_PILES + BAR_PILES if piles[i]]
            hb = self.available_hb(state)
            if hb is not None:
                sources.insert(0, hb)
            if piles[TALON_PILE]:
                sources.append(TALON_PILE)
            for f in FOUNDATIONS:
                if len(piles[f]) > 1:
                    for g in (DOWN if ascending(f) else UP):
                        yield Move.step(PILES[f].id, PILES[g].id)
        for i in sources:
            for f in FOUNDATIONS:
                yield Move.step(PILES[i].id, PILES[f].id)
            if i in (TURNED, TALON_PILE):
                for v in vacant:
                    yield Move.step(PILES[i].id, PILES[v].id)
        yield Move(action="deal")
        yield Move(action="redeal")

    def legal_in(self, state: State) -> list[Move]:
        """Exactly the legal moves, in the order of :meth:`candidate_moves`, without building
        a refusal for each of the many moves refused (the solver's move generator)."""
        p = state.piles
        base = state.vars[1]
        acc = self._accepts
        vacant = [i for i in SCENE_PILES if not p[i]]
        out: list[Move] = []
        if p[TURNED]:
            card = p[TURNED][-1]
            fs = [f for f in FOUNDATIONS if acc(p, base, f, card)]
            if not fs:
                out.append(_step(TURNED, TALON_PILE))
            out += [_step(TURNED, f) for f in fs]
            out += [_step(TURNED, v) for v in vacant]
            return out
        for f in FOUNDATIONS:
            if len(p[f]) > 1:
                card = p[f][-1]
                for g in (DOWN if f in _UP_SET else UP):
                    if p[g] and acc(p, base, g, card):
                        out.append(_step(f, g))
        sources = [i for i in SCENE_PILES + BAR_PILES if p[i]]
        hb = self.available_hb(state)
        if hb is not None:
            sources.insert(0, hb)
        if p[TALON_PILE]:
            sources.append(TALON_PILE)
        for i in sources:
            card = p[i][-1]
            out += [_step(i, f) for f in FOUNDATIONS if acc(p, base, f, card)]
            if i == TALON_PILE and self.options.side_refill is Refill.CHOICE:
                out += [_step(i, v) for v in vacant]
        if p[STOCK]:
            out.append(_DEAL)
        elif p[TALON_PILE] and self.redeals_left(state):
            out.append(_REDEAL)
        return out

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        piles = state.piles
        if not step.top:
            if si == TALON_PILE:
                return IllegalMove(TALON, "Only the top card of the talon can be used.")
            return IllegalMove(BOARD, "Only the top card of a pile can be moved.")
        if si == STOCK:
            return IllegalMove(DEAL, "The pack is dealt by turning its cards up one by one "
                               "(Turn up the next card).")
        if piles[TURNED] and si != TURNED:
            return self._pending(state)
        if si in HB_SET and si != self.available_hb(state):
            low = self.available_hb(state)
            assert low is not None
            return IllegalMove(RULE_2, f"Only the lowest card of the herring-bone is "
                               f"available, the {piles[low][-1].name}: the {card.name} is "
                               "released only when every card below it has gone.")
        if si in FOUNDATIONS:
            if di in FOUNDATIONS:
                return self._exchange_refusal(state, si, di, card)
            return IllegalMove(EXCHANGE, "A card on a foundation leaves it only to be "
                               "exchanged to a foundation of its suit going the other way.")
        if di in FOUNDATIONS:
            return self._place_refusal(state, di, card)
        if di == TALON_PILE:
            if si != TURNED:
                return IllegalMove(TALON, "Only cards turned up from the pack go to the talon.")
            if self.fits(state, card):
                return IllegalMove(DEAL, f"The {card.name} is suitable for a foundation: "
                                   "suitable cards are played, and only unsuitable ones form "
                                   "the talon.")
            return None
        if di in SCENE_PILES:
            if piles[di]:
                return IllegalMove(PLAY, "Cards are played only to the foundations: none is "
                                   "placed on another card of the tableau.")
            if si not in (TURNED, TALON_PILE):
                return IllegalMove(RULE_4, "A vacant side scene may only be refilled from the "
                                   "pack or the talon.")
            if si == TALON_PILE and self.options.side_refill is Refill.AT_ONCE:
                return IllegalMove(RULE_4, "Under the reading chosen, side scenes are refilled "
                                   "at once, without the player’s choosing.")
            return None
        if di in BAR_PILES:
            if piles[di]:
                return IllegalMove(PLAY, "Cards are played only to the foundations: none is "
                                   "placed on another card of the tableau.")
            return IllegalMove(RULE_4, "A vacant bar is refilled only from the herring-bone, "
                               "and it is used up.")
        if di in HB_SET:
            return IllegalMove(PLAY, "Cards are played only to the foundations: nothing is "
                               "placed on the herring-bone.")
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def _exchange_refusal(self, state: State, f: int, g: int, card: Card) -> IllegalMove | None:
        if ascending(f) == ascending(g):
            return IllegalMove(EXCHANGE, "Cards are exchanged only between an ascending and a "
                               "descending foundation.")
        if len(state.piles[f]) < 2:
            return IllegalMove(EXCHANGE, "The foundation card stays in its place: only cards "
                               "built on it may be exchanged.")
        if not state.piles[g]:
            return IllegalMove(EXCHANGE, "A card is exchanged only onto a foundation already "
                               "begun, where it comes next in sequence.")
        refusal = self._place_refusal(state, g, card)
        if refusal is None or refusal.rule == RULE_1:
            return refusal
        return IllegalMove(EXCHANGE, f"The {card.name} may be exchanged only where it comes "
                           f"next: {refusal.message}")

    def _pending(self, state: State) -> IllegalMove:
        card = state.piles[TURNED][-1]
        if not any(state.piles[f] for f in FOUNDATIONS):
            return IllegalMove(FOUNDATION, f"The {card.name} is the first foundation: place "
                               "it in one of the foundation places first.")
        return IllegalMove(DEAL, f"The {card.name} just turned up must first be played to a "
                           "foundation or put in a vacant side scene.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action not in ("deal", "redeal"):
            return IllegalMove(BOARD, f"The Herring-bone has no action {action!r}.")
        if state.piles[TURNED]:
            return self._pending(state)
        if action == "deal":
            if not state.piles[STOCK]:
                return IllegalMove(DEAL, "The pack is used up: there is no card to turn.")
            return None
        if state.piles[STOCK]:
            return IllegalMove(REDEAL, "The talon is re-dealt only when the whole of the pack "
                               "has been dealt out.")
        if self.redeals_left(state) == 0:
            return IllegalMove(REDEAL, "The talon may be re-dealt only twice, and that has "
                               "been done.")
        if not state.piles[TALON_PILE]:
            return IllegalMove(REDEAL, "There is no talon to re-deal.")
        return None

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        redeals, base = state.vars
        if move.action == "deal":
            card = piles[STOCK][-1]
            piles[STOCK] = piles[STOCK][:-1]
            if self.fits(state, card):
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
        return State(tuple(piles), (redeals, base))

    def _refill(self, piles: list[tuple[Card, ...]]) -> None:
        """A vacant bar takes at once the herring-bone's available card (HB-3); under HB-4's
        other reading a vacant side scene takes at once the talon's top, else the pack's."""
        for b in BAR_PILES:
            if not piles[b]:
                low = next((i for i in reversed(HB) if piles[i]), None)
                if low is not None:
                    piles[b] = piles[low]
                    piles[low] = ()
        if self.options.side_refill is Refill.AT_ONCE:
            for s in SCENE_PILES:
                if piles[s]:
                    continue
                for src in (TALON_PILE, STOCK):
                    if piles[src]:
                        piles[s] = (piles[src][-1],)
                        piles[src] = piles[src][:-1]
                        break

    # ---- the end ---------------------------------------------------------------------
    def _wanted(self, state: State) -> set[Card]:
        """Every card some foundation would take, as they stand or after any series of
        exchanges (HB-8): a card outside them is of use only if it is among these."""
        wanted: set[Card] = set()
        p = state.piles
        base = self._base(state)
        for f in FOUNDATIONS:
            if not p[f]:
                wanted |= {Card(base, s) for s in SUITS
                           if self._place_refusal(state, f, Card(base, s)) is None}
        for suit in SUITS:
            mine = tuple(f for f in FOUNDATIONS if p[f] and p[f][0].suit is suit)
            if not mine:
                continue
            start = tuple(p[f] for f in mine)
            seen = {start}
            todo = [start]
            while todo:
                conf = todo.pop()
                for k, f in enumerate(mine):
                    nxt = next_card(conf[k], ascending(f))
                    if nxt is not None:
                        wanted.add(nxt)
                for a, f in enumerate(mine):
                    if len(conf[a]) < 2:
                        continue
                    card = conf[a][-1]
                    for b, g in enumerate(mine):
                        if ascending(f) != ascending(g) and next_card(conf[b],
                                                                      ascending(g)) == card:
                            new = list(conf)
                            new[a], new[b] = conf[a][:-1], conf[b] + (card,)
                            key = tuple(new)
                            if key not in seen:
                                seen.add(key)
                                todo.append(key)
        return wanted

    def _won(self, state: State) -> bool:
        return all(len(state.piles[f]) == FOUNDATION_SIZE for f in FOUNDATIONS)

    def solver_order(self, state: State, legal: list[Move]) -> list[Move]:
        """The default order, but exchanges between foundations (which the default counts as
        moves to a foundation) after every other move of a card: they only shift where two
        foundations meet, and are worth trying when nothing better is left."""
        order = super().solver_order(state, legal)
        found = {p.id for p in PILES if p.role is Role.FOUNDATION}
        swaps = [m for m in order if m.steps and m.steps[0][0] in found]
        rest = [m for m in order if not (m.steps and m.steps[0][0] in found)]
        cards = [m for m in rest if m.steps]
        return cards + swaps + [m for m in rest if not m.steps]

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: the loss verdict searches the exchanges, and the solver finds a dead
        end anyway."""
        return Outcome.WON if self._won(state) else None

    def outcome_of(self, state: State) -> Outcome | None:
        if self._won(state):
            return Outcome.WON
        p = state.piles
        if p[TURNED] or p[STOCK]:
            return None
        if p[TALON_PILE] and self.redeals_left(state):
            return None
        if p[TALON_PILE] and any(not p[s] for s in SCENE_PILES):
            return None  # the talon's top card may fill a side scene, uncovering the next
        wanted = self._wanted(state)
        hb = self.available_hb(state)
        cards = [p[i][-1] for i in SCENE_PILES + BAR_PILES + (TALON_PILE,) if p[i]]
        if hb is not None:
            cards.append(p[hb][-1])
        # Exchanges alone change nothing outside the foundations: with no card anywhere that
        # any arrangement of the foundations would take, nothing more can be done.
        return None if any(c in wanted for c in cards) else Outcome.LOST

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        if out is Outcome.WON:
            return "Won: all eight foundations are complete."
        if out is Outcome.LOST:
            return "Nothing more can be done: the patience has failed."
        p = state.piles
        parts = [f"Foundations: {rank_plural(self._base(state))}",
                 f"pack: {plural(len(p[STOCK]), 'card')}",
                 f"talon: {plural(len(p[TALON_PILE]), 'card')}",
                 f"re-deals left: {self.redeals_left(state)}"]
        if p[TURNED]:
            parts.append(f"place the {p[TURNED][-1].name}")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "deal" and state.piles[STOCK]:
            card = state.piles[STOCK][-1]
            if self.fits(state, card):
                return f"The {card.name} is turned up; it is suitable for a foundation."
            return f"The {card.name} is turned up and laid on the talon."
        if move.action == "redeal":
            return "The talon is taken up, shuffled and dealt again."
        return super().describe(state, move)


__all__ = ["TheHerringBone", "HerringBoneOptions", "Directions", "Refill", "Suit"]

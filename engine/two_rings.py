"""Two Rings (two packs), by the book: 1914 printing, plate p. 96 (below the end of the
Wheel), text p. 97.

Piles: sixteen foundations in two rings of eight, as the plate draws them: the eight sevens,
each built up in its suit to the king, and the eight sixes, each built down in its suit to the
ace (the Rule); the bracelet, eight cards in a line; the pack, the card just turned up from it,
and the talon.

A bracelet card, the card turned up or the talon's top card (unless TR-4's other reading is
chosen) may be played on a foundation that takes it. A space in the bracelet is refilled at
once from the pack. A card turned up that a foundation takes waits to be played; any other card
goes at once to the talon (unless TR-5's other reading is chosen, under which it waits in its
place until the next card is turned up, the talon's top still in play); a card left waiting
whose place its twin from the bracelet has taken goes to the talon when the next card is
turned up. When the pack is exhausted the talon may be turned over and dealt
again, once. See the chapter page for the text each rule id points at, and its editorial notes
(``note-tr-N``) for the readings behind the options and the decisions.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .cards import ACE, KING, SUITS, Card, pack
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
from .rules import WaitingTurn

SLUG = "two-rings"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE = _rule("rule-1")                # the foundations follow suit
WITHDRAW = _rule("withdraw")          # the sevens and sixes withdrawn: the foundations
DIRECTIONS = _rule("directions")      # sevens ascend to kings, sixes descend to aces
BRACELET = _rule("bracelet")          # eight cards in a line: the bracelet
PLAY = _rule("play")                  # suitable bracelet cards played, vacancies refilled
TALON = _rule("talon")                # unsuitable cards on the talon
SUCCESS = _rule("success")            # the two rings of kings and aces
REDEAL = _rule("redeal")              # the talon re-dealt once
BOARD = _rule("board")                # the board itself (notation errors)

RING = 8                              # foundations in each ring
PLACES = 8                            # the bracelet
TOTAL = 104


@dataclass(frozen=True, slots=True)
class TwoRingsOptions:
    talon_play: bool = option(
        True, note="note-tr-4", label="The talon’s top card",
        labels={True: "may be played on a foundation",
                False: "comes back into play only through the re-deal"})
    unsuitable_to_talon: bool = option(
        True, note="note-tr-5", label="A card turned up that no foundation takes at that "
        "moment",
        labels={True: "goes at once to the talon",
                False: "waits in its place until the next card is turned up"})


# ---------------------------------------------------------------------------- the layout
# x in card slots (a card is 0.9 wide), y in rows of 1.36 slots; a rotated card turns about
# its centre. As in the plate: two rings of eight cards side by side, each card lying along its
# ring, the sevens on the left and the sixes on the right; below them the pack and the bracelet
# in a line, the card turned up and the talon beneath.

_ROWH = 1.36
_R = 2.0                              # the rings' radius, in slot widths
_RING_CY = 2.75                       # the rings' centre height, in slot widths
_RING_CX = (2.75, 8.0)                # the two rings' centres
_BRACELET_Y = 4.2
_LOW_Y = 5.55


def _ring_place(ring: int, k: int, cx: float, cy: float) -> tuple[float, float, int]:
    """Place ``k`` of a ring centred on (cx, cy) slot widths, clockwise from the top left:
    its box corner and its rotation (the card's long side along the ring)."""
    angle = 22.5 + 45 * k - 45           # the first place just left of the top
    rad = math.radians(angle)
    x = cx + _R * math.sin(rad)
    y = cy - _R * math.cos(rad)
    rot = (round(angle) + 90) % 180
    rot = rot - 180 if rot > 90 else rot
    return round(x - 0.5, 3), round((y - 0.63) / _ROWH, 3), rot


def _foundation(ring: int, k: int) -> PileSpec:
    rank_word = "seven" if ring == 0 else "six"
    suit = SUITS[k % 4]
    pid = f"{'sx'[ring]}{k}"
    x, y, rot = _ring_place(ring, k, _RING_CX[ring], _RING_CY)
    return PileSpec(pid, f"the {'first' if k < 4 else 'second'} {rank_word} of {suit.noun}",
                    Role.FOUNDATION, x, y, rotate=rot,
                    mark="7–K" if ring == 0 else "6–A")


PILES: tuple[PileSpec, ...] = (
    tuple(_foundation(0, k) for k in range(RING))
    + tuple(_foundation(1, k) for k in range(RING))
    + tuple(PileSpec(f"b{i}", f"place {i + 1} of the bracelet", Role.TABLEAU,
                     1.5 + 1.1 * i, _BRACELET_Y, mark="bracelet") for i in range(PLACES))
    + (PileSpec("stock", "the pack", Role.STOCK, 0.0, _BRACELET_Y),
       PileSpec("turned", "the card turned up", Role.RESERVE, 4.0, _LOW_Y,
                mark="turned up"),
       PileSpec("talon", "the talon", Role.TALON, 5.5, _LOW_Y))
)

SEVENS = range(0, RING)
SIXES = range(RING, 2 * RING)
FOUNDATION_PILES = range(0, 2 * RING)
BRACELET_PILES = range(2 * RING, 2 * RING + PLACES)
STOCK = BRACELET_PILES.stop
TURNED = STOCK + 1
TALON_PILE = STOCK + 2

#: The pack: a suitable card turned up waits to be played; any other goes to the talon.
PACK = WaitingTurn(STOCK, TURNED, TALON_PILE, deal_rule=TALON, talon_rule=TALON,
                   redeal_rule=REDEAL, exhausted_rule=REDEAL, spaces="a space in the bracelet",
                   its="a foundation")


def _narrow_layout() -> Layout:
    """For a phone: the ring of sevens above the ring of sixes, the bracelet in two rows of
    four below them, the pack, the card turned up and the talon at the foot."""
    at: dict[str, tuple[float, float, int]] = {}
    for ring in (0, 1):
        cy = _RING_CY + ring * 5.35
        for k in range(RING):
            at[PILES[ring * RING + k].id] = _ring_place(ring, k, 2.75, cy)
    top = (_RING_CY + 5.35 + _R + 0.9) / _ROWH
    for i in range(PLACES):
        at[f"b{i}"] = (0.6 + 1.1 * (i % 4), top + 1.05 * (i // 4), 0)
    foot = top + 2.35
    at["stock"] = (0.6, foot, 0)
    at["turned"] = (2.2, foot, 0)
    at["talon"] = (3.9, foot, 0)
    return Layout("narrow", (5.5, foot + 1.05), at, max_width=560)


def next_rank(pile: tuple[Card, ...]) -> int | None:
    """The rank a foundation takes next: a seven's up to the king, a six's down to the ace
    (None when complete)."""
    top = pile[-1].rank
    if pile[0].rank == 7:
        return None if top == KING else top + 1
    return None if top == ACE else top - 1


def accepts(pile: tuple[Card, ...], card: Card) -> bool:
    return card.suit is pile[0].suit and card.rank == next_rank(pile)


class TwoRings(Game):
    slug = SLUG
    title = "Two Rings"
    packs = 2
    Options = TwoRingsOptions
    PILES = PILES
    VARS = ("redeals",)
    GRID = (_RING_CX[1] + _R + 0.7, _LOW_Y + 1.05)
    LAYOUTS = (_narrow_layout(),)
    FIGURES = (
        Figure("tableau", "Two Rings after the deal, in modern cards.",
               "The tableau of Two Rings just after the deal, drawn in modern cards: two "
               "rings of eight cards side by side, each card lying along its ring, the left "
               "ring the eight sevens and the right ring the eight sixes, two of each suit; "
               "below them the bracelet, eight cards face up in a line. The pack and the "
               "talon are not shown.",
               piles=tuple(p.id for p in PILES[:BRACELET_PILES.stop])),
    )
    DIAGRAM_DEAL = 2
    ACTIONS = (
        ActionSpec("deal", "Turn up the next card", "t", TALON),
        ActionSpec("redeal", "Re-deal the talon", "e", REDEAL),
    )
    LEDGER = {
        RULE: "A foundation takes only cards of its own suit; another suit is refused.",
        WITHDRAW: "The deal takes out the eight sevens and the eight sixes and lays them as "
                  "the two rings, the sevens on the left and the sixes on the right; they are "
                  "the sixteen foundations and never move.",
        DIRECTIONS: "A seven takes the eight, nine, ten, knave, queen and king of its suit in "
                    "turn, a six the five, four, three, two and ace; a card of another rank is "
                    "refused, a complete foundation takes nothing, and a card played there "
                    "never leaves it.",
        BRACELET: "The deal lays eight cards face up in a line below the rings, the bracelet.",
        PLAY: "A bracelet card may be played on a foundation that takes it at any time, and "
              "goes nowhere else; the space it leaves is filled at once with the pack’s next "
              "card (with the pack exhausted it stays empty until the re-deal fills it); no "
              "other card may be put into it.",
        TALON: "“Turn up the next card” turns the pack’s top card: a card a foundation takes "
               "waits to be played and the next card cannot be turned while it is suitable; "
               "any other card goes at once to the talon (TR-5; under the other reading it "
               "waits in its place, the talon’s top still in play), as does a card left "
               "waiting that no foundation takes any longer, when the next card is turned "
               "up; the talon’s top card may be played (TR-4; under the other reading it may "
               "not); nothing else goes on the talon.",
        SUCCESS: "The game is won when the sevens’ ring is built up to eight kings and the "
                 "sixes’ ring down to eight aces; it is lost when no move is left.",
        REDEAL: "Once the pack is exhausted and no card turned up waits, the talon may be "
                "turned over, unshuffled, to form the pack again, once; a second re-deal, or "
                "one with cards left in the pack, is refused.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for k in SEVENS:
            piles[k] = (Card(7, SUITS[k % 4]),)
        for k in SIXES:
            piles[k] = (Card(6, SUITS[k % 4]),)
        rest = [c for c in pack(2) if c.rank not in (6, 7)]
        piles[STOCK] = tuple(shuffled(rest, deal))
        _refill(piles)
        return State(tuple(piles), (0,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        for f in FOUNDATION_PILES:
            pile = p[f]
            want = Card(7 if f in SEVENS else 6, SUITS[f % 4])
            if not pile or pile[0] != want:
                raise PositionError(f"{PILES[f].label} must lie in its own place")
            if any(not accepts(pile[:k], pile[k]) for k in range(1, len(pile))):
                raise PositionError(f"{PILES[f].label} is not built in order")
        if any(len(p[i]) > 1 for i in BRACELET_PILES) or len(p[TURNED]) > 1:
            raise PositionError("a place of the bracelet or the card turned up holds one card")
        if p[STOCK] and any(not p[i] for i in BRACELET_PILES):
            raise PositionError("a space in the bracelet would have been filled at once from "
                                "the pack")
        if p[TURNED] and options.unsuitable_to_talon and not cls._fits(state, p[TURNED][0]) \
                and not any(p[TURNED][0] in p[f] for f in cls.homes(p[TURNED][0])):
            raise PositionError("a card turned up that no foundation takes goes to the talon")
        if state.vars[0] not in (0, 1):
            raise PositionError("the talon is re-dealt once at most")
        return state

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def _fits(state: State, card: Card) -> bool:
        return any(accepts(state.piles[f], card) for f in FOUNDATION_PILES)

    @staticmethod
    def homes(card: Card) -> range:
        """The foundations a card may ever go to: its suit's two sevens (eight to king) or its
        suit's two sixes (ace to five); none for a six or a seven."""
        if card.rank > 7:
            return range(SUITS.index(card.suit), RING, 4)
        if card.rank < 6:
            return range(RING + SUITS.index(card.suit), 2 * RING, 4)
        return range(0)

    def _refuse_foundation(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        if accepts(pile, card):
            return None
        label = PILES[f].label
        base = pile[0]
        if card.suit is not base.suit:
            return IllegalMove(RULE, f"The foundations follow suit: {label} takes only "
                               f"{base.suit.noun}.")
        nxt = next_rank(pile)
        if nxt is None:
            end = "king" if base.rank == 7 else "ace"
            return IllegalMove(DIRECTIONS, f"{label[:1].upper()}{label[1:]} is complete: it "
                               f"has reached its {end}.")
        way = "ascend to kings" if base.rank == 7 else "descend to aces"
        return IllegalMove(DIRECTIONS, f"The {'sevens' if base.rank == 7 else 'sixes'} {way}: "
                           f"{label} takes the {Card(nxt, base.suit).name} next.")

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        p = state.piles
        sources = [i for i in BRACELET_PILES if p[i]]
        sources += [s for s in (TURNED, TALON_PILE) if p[s]]
        for s in sources:
            for f in self.homes(p[s][-1]):
                yield Move.step(PILES[s].id, PILES[f].id)
        yield Move(action="deal")
        yield Move(action="redeal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        # where the card comes from
        if si in FOUNDATION_PILES:
            if step.k == 0:
                return IllegalMove(WITHDRAW, "The sevens and sixes are the foundations: they "
                                   "stay in their rings.")
            return IllegalMove(DIRECTIONS, "Cards played on the foundations stay there.")
        refusal = PACK.refuse_source(si, step.top, self.options.talon_play)
        if refusal is not None:
            return refusal
        # where it goes
        if di in FOUNDATION_PILES:
            return self._refuse_foundation(state, di, card)
        if di in BRACELET_PILES:
            if state.piles[di]:
                return IllegalMove(PLAY, "Nothing is placed on a card of the bracelet: its "
                                   "cards are played on the foundations.")
            return IllegalMove(PLAY, "A space in the bracelet is filled only from the pack, "
                               "at once; with the pack exhausted it waits for the re-deal.")
        if di == TALON_PILE:
            return PACK.refuse_to_talon(state, si, lambda card: self._fits(state, card))
        if si in BRACELET_PILES:
            return IllegalMove(PLAY, "Cards of the bracelet are played on the foundations, "
                               "and nowhere else.")
        if di in (STOCK, TURNED):
            return IllegalMove(TALON, f"Nothing is put on {PILES[di].label}: the pack is "
                               "dealt one card at a time.")
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action in ("deal", "redeal"):
            return PACK.refuse_action(state, action, lambda card: self._fits(state, card))
        return IllegalMove(BOARD, f"Two Rings has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        redeals = state.vars[0]
        if move.action:
            redeals = PACK.apply_action(piles, state, move.action,
                                        lambda card: self._fits(state, card),
                                        hold=not self.options.unsuitable_to_talon)
        else:
            (src, dst), = move.steps
            si, di = self.pile_index(src), self.pile_index(dst)
            card = piles[si][-1]
            piles[si] = piles[si][:-1]
            piles[di] = piles[di] + (card,)
        _refill(piles)
        return State(tuple(piles), (redeals,))

    # ---- the end ---------------------------------------------------------------------
    @staticmethod
    def played(state: State) -> int:
        return sum(len(state.piles[f]) for f in FOUNDATION_PILES)

    def outcome_of(self, state: State) -> Outcome | None:
        if self.played(state) == TOTAL:
            return Outcome.WON
        # Every move plays a card, turns one from the pack or spends the one re-deal, so play
        # always comes to an end; the game is lost when it has (TR-7).
        return None if self.has_legal_move(state) else Outcome.LOST

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: a position with no move is a dead end to the solver anyway."""
        return Outcome.WON if self.played(state) == TOTAL else None

    def safe_moves(self, state: State, legal: list[Move]) -> list[Move]:
        """The card turned up, to the first foundation that takes it: nothing can be dealt
        until it is played, it has no other place, and the two foundations of a suit that
        could take it hold the same cards."""
        card = state.piles[TURNED][-1] if state.piles[TURNED] else None
        if card is None:
            return []
        for f in self.homes(card):
            m = Move.step("turned", PILES[f].id)
            if m in legal:
                return [m]
        return []

    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """The two foundations begun by the same card, and the eight places of the
        bracelet: no rule tells them apart."""
        pairs = tuple((f, f + 4) for f in (*range(0, 4), *range(RING, RING + 4)))
        return (*pairs, tuple(BRACELET_PILES))

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = self.played(state) - 2 * RING
        if out is Outcome.WON:
            return "Won: the two rings stand complete, eight kings and eight aces."
        if out is Outcome.LOST:
            return (f"Nothing more can be done: the patience has failed with {played} of 88 "
                    "cards played.")
        return PACK.status(state, f"{played} of 88 on the foundations",
                           lambda card: self._fits(state, card))

    def describe(self, state: State, move: Move) -> str:
        if move.action:
            words = PACK.describe(state, move.action, lambda card: self._fits(state, card),
                                  hold=not self.options.unsuitable_to_talon)
            if words is not None:
                return words
        if move.steps:
            step = self.resolve_step(state, move)
            if isinstance(step, Step) and step.dst in FOUNDATION_PILES:
                where = {TURNED: " turned up", TALON_PILE: " from the talon"}.get(
                    step.src, " from the bracelet")
                return (f"The {step.card.name}{where} is played on "
                        f"{PILES[step.dst].label}.")
        return super().describe(state, move)


def _refill(piles: list[tuple[Card, ...]]) -> None:
    """Every space in the bracelet takes at once the next card of the pack, face up, the
    places from the left; with no pack a space stays empty."""
    for i in BRACELET_PILES:
        if not piles[i] and piles[STOCK]:
            piles[i] = piles[STOCK][-1:]
            piles[STOCK] = piles[STOCK][:-1]

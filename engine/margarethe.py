"""Margarethe (one pack), by the book: 1914 printing, plate p. 90 (a page to itself), text p. 91.

Piles: the twelve court cards in the form of an M, the foundations, each built down in its
own suit with three cards (a king from ten to eight, a knave from seven to five, a queen from
four to two: Rules I and II); the packet of aces, below the knaves; the nine help cards in the
form of an A; the pack, the card just turned up from it, and the talon.

An ace goes to the packet of aces as soon as it appears (at the deal of the A, when a space is
filled, or when it is turned up). A help card, the card turned up or the talon's top card
(unless MA-4's other reading is chosen) may be played on its foundation. A space in the A is
filled at once from the pack. A card turned up that a foundation takes waits to be played; any
other card goes at once to the talon (unless MA-5's other reading is chosen, under which it
waits in its place until the next card is turned up, the talon's top still in play). When
the pack is exhausted the talon may be turned over and dealt again, once. See the chapter page
for the text each rule id points at, and its editorial notes (``note-ma-N``) for the readings
behind the options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .cards import ACE, KING, KNAVE, QUEEN, RANK_NAMES, SUITS, Card, pack
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

SLUG = "margarethe"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_1 = _rule("rule-1")            # the foundations follow suit
RULE_2 = _rule("rule-2")            # kings 10-8, knaves 7-5, queens 4-2, descending
COURTS = _rule("courts")            # the twelve court cards in an M: the foundations
ACES = _rule("aces")                # the aces, as they appear, in one packet under the knaves
HELP = _rule("help")                # nine cards dealt in the form of an A
PLAY_HELP = _rule("play-help")      # play suitable help cards; the first a ten, seven or four
SPACES = _rule("spaces")            # filling the spaces from the pack in hand
DEAL = _rule("deal")                # deal out the whole pack: playing, aces, refilling the A
TALON = _rule("talon")              # the unsuitable cards to the talon
SUCCESS = _rule("success")          # the final M of eights, fives and twos, aces crossways
REDEAL = _rule("redeal")            # the talon may be re-dealt once
BOARD = _rule("board")              # the board itself (notation errors)

#: The first card each court takes (Rule II); each foundation then descends two more.
FIRST = {KING: 10, KNAVE: 7, QUEEN: 4}
FOUNDATION_SIZE = 4     # the court and its three cards
HELP_PLACES = 9
TO_PLAY = 36            # cards to go on the foundations


@dataclass(frozen=True, slots=True)
class MargaretheOptions:
    talon_play: bool = option(
        True, note="note-ma-4", label="The talon’s top card",
        labels={True: "may be played on its foundation",
                False: "comes back into play only through the re-deal"})
    unsuitable_to_talon: bool = option(
        True, note="note-ma-5", label="A card turned up that no foundation takes at that "
        "moment",
        labels={True: "goes at once to the talon",
                False: "waits in its place until the next card is turned up"})


# ---------------------------------------------------------------------------- the layout
# x in card slots (a card is 0.9 wide), y in rows of 1.36 slots. As in the plate: the M at the
# left, its kings in a column down the left side, its queens down the right, the knaves
# slanting in between and the packet of aces laid crossways below them; the A at the right,
# four cards down each leg from the apex and one crossways as its bar. The pack, the card
# turned up and the talon stand in a row beneath the A.

_COURT_RANKS = (KING, KNAVE, QUEEN)
_COURT_WORD = {KING: "king", KNAVE: "knave", QUEEN: "queen"}
_ROW = 1.05                                   # the columns' step, in rows
_KNAVES_AT = ((1.05, 0.3, -22), (1.55, 1.35, -22), (2.75, 1.35, 22), (3.25, 0.3, 22))
_QUEEN_X = 4.3
_ACES_AT = (2.15, 2.75)
_A_X = 8.5                                    # the apex of the A, between its two top cards
_LEG = ((-0.55, 0.0), (-1.1, 1.05), (-1.65, 2.1), (-2.2, 3.15))
_BAR = (0.0, 1.85)
_SIDE_Y = 4.45


def _help_name(i: int) -> str:
    """The nine places of the A: the left leg from the apex down, the bar, the right leg."""
    where = ("top", "second", "third", "foot")
    if i < 4:
        return f"help card, left leg, {where[i]}"
    if i == 4:
        return "help card, the bar"
    return f"help card, right leg, {where[i - 5]}"


def _help_at(i: int) -> tuple[float, float, int]:
    if i < 4:
        dx, y = _LEG[i]
        return _A_X + dx - 0.45, y, -18
    if i == 4:
        return _A_X - 0.45 + _BAR[0], _BAR[1], 90
    dx, y = _LEG[i - 5]
    return _A_X - dx - 0.45, y, 18


def _foundation(rank: int, j: int) -> PileSpec:
    suit = SUITS[j]
    word = _COURT_WORD[rank]
    label = f"the {word} of {suit.noun}"
    pid = f"{'kjq'[_COURT_RANKS.index(rank)]}{j}"
    if rank == KING:
        return PileSpec(pid, label, Role.FOUNDATION, 0.0, j * _ROW, mark=word)
    if rank == QUEEN:
        return PileSpec(pid, label, Role.FOUNDATION, _QUEEN_X, j * _ROW, mark=word)
    x, y, turn = _KNAVES_AT[j]
    return PileSpec(pid, label, Role.FOUNDATION, x, y, rotate=turn, mark=word)


PILES: tuple[PileSpec, ...] = (
    tuple(_foundation(rank, j) for rank in _COURT_RANKS for j in range(4))
    + (PileSpec("aces", "the packet of aces", Role.FOUNDATION, _ACES_AT[0], _ACES_AT[1],
                rotate=90, mark="aces"),)
    + tuple(PileSpec(f"a{i}", _help_name(i), Role.TABLEAU, *_help_at(i)[:2],
                     rotate=_help_at(i)[2], mark="help") for i in range(HELP_PLACES))
    + (PileSpec("stock", "the pack", Role.STOCK, _A_X - 1.7, _SIDE_Y),
       PileSpec("turned", "the card turned up", Role.RESERVE, _A_X - 0.45, _SIDE_Y,
                mark="turned up"),
       PileSpec("talon", "the talon", Role.TALON, _A_X + 0.8, _SIDE_Y))
)

FOUNDATION_PILES = range(0, 12)
ACES_PILE = 12
HELP_PILES = range(13, 22)
STOCK = 22
TURNED = 23
TALON_PILE = 24

GRID = (_A_X + 2.9, _SIDE_Y + 1.0)

#: The pack: a suitable card turned up waits to be played; any other goes to the talon (or,
#: under MA-5's other reading, waits there too until the next card is turned up).
PACK = WaitingTurn(STOCK, TURNED, TALON_PILE, deal_rule=DEAL, talon_rule=TALON,
                   redeal_rule=REDEAL, exhausted_rule=DEAL, spaces="a space in the A",
                   its="its foundation")


def _narrow_layout() -> Layout:
    """For a phone: the A below the M, and the pack, the card turned up and the talon in a row
    at the foot."""
    at: dict[str, tuple[float, float, int]] = {}
    shift_x, shift_y = 2.2 - _A_X, 4.1
    for i in HELP_PILES:
        x, y, turn = _help_at(i - HELP_PILES.start)
        at[PILES[i].id] = (x + shift_x + 0.45, y + shift_y, turn)
    foot = shift_y + 4.35
    at["stock"] = (0.9, foot, 0)
    at["turned"] = (2.15, foot, 0)
    at["talon"] = (3.4, foot, 0)
    return Layout("narrow", (_QUEEN_X + 1.0, foot + 1.0), at, max_width=560)


def court(pile: tuple[Card, ...]) -> Card:
    """The court card a foundation is built on (its bottom card)."""
    return pile[0]


def next_rank(pile: tuple[Card, ...]) -> int | None:
    """The rank a foundation takes next: ten on a king, seven on a knave, four on a queen, then
    one lower each time, three cards in all (Rule II); None when it is complete."""
    done = len(pile) - 1
    if done >= FOUNDATION_SIZE - 1:
        return None
    return FIRST[court(pile).rank] - done


def accepts(pile: tuple[Card, ...], card: Card) -> bool:
    """Whether a foundation takes ``card`` next."""
    return card.suit is court(pile).suit and card.rank == next_rank(pile)


def home(card: Card) -> int | None:
    """The one foundation a card from two to ten belongs to (None for an ace or a court)."""
    if not 2 <= card.rank <= 10:
        return None
    group = KING if card.rank >= 8 else KNAVE if card.rank >= 5 else QUEEN
    return _COURT_RANKS.index(group) * 4 + SUITS.index(card.suit)


def _a(rank: int) -> str:
    name = RANK_NAMES[rank]
    return ("an " if name[0] in "ae" else "a ") + name


class Margarethe(Game):
    slug = SLUG
    title = "Margarethe"
    packs = 1
    Options = MargaretheOptions
    PILES = PILES
    VARS = ("redeals",)
    GRID = GRID
    LAYOUTS = (_narrow_layout(),)
    FIGURES = (
        Figure("tableau", "Margarethe after the deal, in modern cards.",
               "The tableau of Margarethe just after the deal, drawn in modern cards: at the "
               "left an M of the twelve court cards, the four kings in a column on its left, "
               "the four queens in a column on its right and the four knaves slanting between "
               "them, with the packet of aces laid crossways below the knaves (it holds any "
               "aces met in dealing the A); at the right an A of nine help cards, four down "
               "each leg and one crossways as its bar. The pack and the talon are not shown.",
               piles=tuple(p.id for p in PILES[:HELP_PILES.stop])),
    )
    DIAGRAM_DEAL = 2
    ACTIONS = (
        ActionSpec("deal", "Turn up the next card", "t", DEAL),
        ActionSpec("redeal", "Re-deal the talon", "e", REDEAL),
    )
    LEDGER = {
        RULE_1: "A foundation takes only cards of its court card’s suit; another suit is "
                "refused.",
        RULE_2: "A king takes the ten, nine and eight of its suit, a knave the seven, six and "
                "five, a queen the four, three and two, each in that order; a card of another "
                "rank is refused, a foundation with its three cards is complete, and a card "
                "on a foundation never leaves it.",
        COURTS: "The deal takes out the twelve court cards and lays them as the M, kings on "
                "the left, knaves slanting in the middle, queens on the right; they are the "
                "twelve foundations and never move.",
        ACES: "An ace goes at once to the packet of aces below the knaves whenever it "
              "appears: in dealing the A, in filling a space, or turned up from the pack; "
              "nothing else goes there and no ace leaves it.",
        HELP: "The deal lays nine cards, face up, in the places of the A (an ace among them "
              "goes to its packet and the next card takes its place).",
        PLAY_HELP: "A help card may be played on its foundation at any time, the first on a "
                   "king being a ten, on a knave a seven, on a queen a four; a help card goes "
                   "nowhere else.",
        SPACES: "A space in the A is filled at once with the next card of the pack (an ace so "
                "drawn goes to its packet and the next card follows); with the pack exhausted "
                "it stays empty until the re-deal fills it; no other card may be put into it.",
        DEAL: "“Turn up the next card” turns the pack’s top card: an ace goes to its packet, "
              "a card a foundation takes waits to be played there, and the next card cannot "
              "be turned until it has been.",
        TALON: "A card turned up that no foundation takes goes at once to the talon (MA-5; "
               "under the other reading it waits in its place, the talon’s top still in "
               "play, and is laid on the talon when the next card is turned up), a packet "
               "of which only the top card shows; its top card may be played on its "
               "foundation (MA-4; under the other reading it may not); nothing else is put "
               "on the talon.",
        SUCCESS: "The game is won when every foundation holds its three cards, ending with "
                 "the eights, fives and twos, and the four aces lie in their packet; it is "
                 "lost when no move is left.",
        REDEAL: "Once the pack is exhausted and no card turned up waits, the talon may be "
                "turned over, unshuffled, to form the pack again, once; a second re-deal, or "
                "one with cards left in the pack, is refused.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for f in FOUNDATION_PILES:
            piles[f] = (Card(_COURT_RANKS[f // 4], SUITS[f % 4]),)
        rest = [c for c in pack(1) if c.rank not in _COURT_RANKS]
        piles[STOCK] = tuple(shuffled(rest, deal))
        _refill(piles)  # the A, its aces going to their packet
        return State(tuple(piles), (0,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        for f in FOUNDATION_PILES:
            pile = p[f]
            want = Card(_COURT_RANKS[f // 4], SUITS[f % 4])
            if not pile or pile[0] != want:
                raise PositionError(f"{PILES[f].label} must lie in its own place")
            if len(pile) > FOUNDATION_SIZE or any(
                    not accepts(pile[:k], pile[k]) for k in range(1, len(pile))):
                raise PositionError(f"{PILES[f].label} is not built in order")
        if any(c.rank != ACE for c in p[ACES_PILE]):
            raise PositionError("the packet of aces holds only aces")
        if any(c.rank == ACE for i in (*HELP_PILES, TURNED, TALON_PILE) for c in p[i]):
            raise PositionError("an ace in view would have gone to its packet at once")
        if any(len(p[i]) > 1 for i in HELP_PILES) or len(p[TURNED]) > 1:
            raise PositionError("a place of the A or the card turned up holds one card")
        if p[STOCK] and any(not p[i] for i in HELP_PILES):
            raise PositionError("a space in the A would have been filled at once from the "
                                "pack")
        if p[TURNED] and options.unsuitable_to_talon and not cls._fits(state, p[TURNED][0]):
            raise PositionError("a card turned up that no foundation takes goes to the talon")
        if state.vars[0] not in (0, 1):
            raise PositionError("the talon is re-dealt once at most")
        return state

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def _fits(state: State, card: Card) -> bool:
        f = home(card)
        return f is not None and accepts(state.piles[f], card)

    def _refuse_foundation(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        if accepts(pile, card):
            return None
        label = PILES[f].label
        base = court(pile)
        if card.suit is not base.suit:
            return IllegalMove(RULE_1, f"The foundations follow suit: {label} takes only "
                               f"{base.suit.noun}.")
        nxt = next_rank(pile)
        if nxt is None:
            return IllegalMove(RULE_2, f"{label[:1].upper()}{label[1:]} is complete: it has "
                               "its three cards.")
        if len(pile) == 1:
            return IllegalMove(PLAY_HELP, f"The first card played on {_a(base.rank)} is "
                               f"{_a(nxt)}: {label} takes the {Card(nxt, base.suit).name} "
                               "first.")
        first = FIRST[base.rank]
        return IllegalMove(RULE_2, f"The {_COURT_WORD[base.rank]} foundations descend from "
                           f"{RANK_NAMES[first]} to {RANK_NAMES[first - 2]}: {label} needs "
                           f"the {Card(nxt, base.suit).name} next.")

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        p = state.piles
        sources = [i for i in HELP_PILES if p[i]]
        sources += [s for s in (TURNED, TALON_PILE) if p[s]]
        for s in sources:
            f = home(p[s][-1])
            if f is not None:
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
                return IllegalMove(COURTS, "The court cards are the foundations: they stay "
                                   "in the M.")
            return IllegalMove(RULE_2, "Cards played on the foundations stay there.")
        if si == ACES_PILE:
            return IllegalMove(ACES, "The aces stay in their packet in the M.")
        refusal = PACK.refuse_source(si, step.top, self.options.talon_play)
        if refusal is not None:
            return refusal
        # where it goes
        if di in FOUNDATION_PILES:
            return self._refuse_foundation(state, di, card)
        if di == ACES_PILE:
            return IllegalMove(ACES, "Only the aces go in the packet under the knaves, and "
                               "each goes there as soon as it appears.")
        if di in HELP_PILES:
            if state.piles[di]:
                return IllegalMove(PLAY_HELP, "Nothing is placed on a help card: help cards "
                                   "are played on the foundations.")
            return IllegalMove(SPACES, "The spaces in the A are filled only from the pack, at "
                               "once; with the pack exhausted a space waits for the re-deal.")
        if di == TALON_PILE:
            return PACK.refuse_to_talon(state, si, lambda card: self._fits(state, card))
        if si in HELP_PILES:
            return IllegalMove(PLAY_HELP, "Help cards are played on the foundations, and "
                               "nowhere else.")
        if di in (STOCK, TURNED):
            return IllegalMove(DEAL, f"Nothing is put on {PILES[di].label}: the pack is "
                               "dealt one card at a time.")
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action in ("deal", "redeal"):
            return PACK.refuse_action(state, action, lambda card: self._fits(state, card))
        return IllegalMove(BOARD, f"Margarethe has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        redeals = state.vars[0]
        if move.action:
            redeals = PACK.apply_action(piles, state, move.action,
                                        lambda card: self._fits(state, card), _aside,
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
        return sum(len(state.piles[f]) - 1 for f in FOUNDATION_PILES)

    def _won(self, state: State) -> bool:
        return self.played(state) == TO_PLAY and len(state.piles[ACES_PILE]) == 4

    def outcome_of(self, state: State) -> Outcome | None:
        if self._won(state):
            return Outcome.WON
        # Every move plays a card, turns one from the pack or spends the one re-deal, so play
        # always comes to an end; the game is lost when it has (MA-8).
        return None if self.has_legal_move(state) else Outcome.LOST

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: a position with no move is a dead end to the solver anyway."""
        return Outcome.WON if self._won(state) else None

    def safe_moves(self, state: State, legal: list[Move]) -> list[Move]:
        """The card turned up, to its foundation: it has no other place, nothing can be dealt
        until it is played, and playing it first only opens the foundation sooner."""
        card = state.piles[TURNED][-1] if state.piles[TURNED] else None
        if card is None:
            return []
        f = home(card)
        if f is None:
            return []
        m = Move.step("turned", PILES[f].id)
        return [m] if m in legal else []

    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """The nine places of the A: no rule tells them apart."""
        return (tuple(HELP_PILES),)

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = self.played(state)
        if out is Outcome.WON:
            return ("Won: the M stands in eights, fives and twos, and the four aces lie "
                    "crossways in the centre.")
        if out is Outcome.LOST:
            return (f"Nothing more can be done: the patience has failed with {played} of 36 "
                    "cards played.")
        return PACK.status(state, f"{played} of 36 on the foundations",
                           lambda card: self._fits(state, card))

    def describe(self, state: State, move: Move) -> str:
        if move.action:
            words = PACK.describe(state, move.action, lambda card: self._fits(state, card),
                                  lambda card: "placed in the packet of aces"
                                  if card.rank == ACE else None,
                                  hold=not self.options.unsuitable_to_talon)
            if words is not None:
                return words
        if move.steps:
            step = self.resolve_step(state, move)
            if isinstance(step, Step) and step.dst in FOUNDATION_PILES:
                where = {TURNED: " turned up", TALON_PILE: " from the talon"}.get(
                    step.src, " from the A")
                return (f"The {step.card.name}{where} is played on "
                        f"{PILES[step.dst].label}.")
        return super().describe(state, move)


def _aside(card: Card) -> int | None:
    """An ace turned up goes at once to the packet of aces."""
    return ACES_PILE if card.rank == ACE else None


def _refill(piles: list[tuple[Card, ...]]) -> None:
    """Every space in the A takes at once the next card of the pack, face up; an ace so drawn
    goes to its packet and the next card follows. With no pack a space stays empty."""
    for i in HELP_PILES:
        while not piles[i] and piles[STOCK]:
            card = piles[STOCK][-1]
            piles[STOCK] = piles[STOCK][:-1]
            if card.rank == ACE:
                piles[ACES_PILE] = piles[ACES_PILE] + (card,)
            else:
                piles[i] = (card,)

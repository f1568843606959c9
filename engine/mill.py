"""The Mill (two packs), by the book: 1914 printing, plate p. 18, text p. 19.

Piles, laid out as the plate draws them: the centre ace (the "ace packet"), on which four
families, ace to king, are piled regardless of suit; the eight cards of the wings, two on
each arm of a cross round it, upright above and below, sideways to left and right; the four
angles between the arms, where the first four kings to appear are played, each to descend
regardless of suit to an ace; the pack, the card just turned from it, and the talon.

A wing that falls vacant is refilled at once from the pack or the talon (``note-mi-1``); the
uppermost card of a king packet may be transferred to the ace packet only to bring a card of
the wings or of the talon into immediate use (``note-mi-2``). See the chapter page for the
text each rule id points at, and its editorial notes (``note-mi-N``) for the readings behind
the options.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, RANK_NAMES, Card, Suit, pack
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

SLUG = "the-mill"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_1 = _rule("rule-1")            # all cards in the wings are available
RULE_2 = _rule("rule-2")            # the five foundations do not follow suit
CENTRE = _rule("centre")            # one ace from the pack in the centre
WINGS = _rule("wings")              # eight cards round the ace, the wings of a windmill
KINGS = _rule("kings")              # the first four kings that appear go to the four angles
FOUNDATIONS = _rule("foundations")  # kings descend to ace; four families on the centre ace
OPENING = _rule("opening")          # kings and suitable cards from the wings, spaces refilled
DEAL = _rule("deal")                # the rest turned one by one, all suitable cards played
TALON = _rule("talon")              # cards that cannot be used form the talon, one packet
FAMILIES = _rule("families")        # each family begins with ace and ends with king
ADVICE = _rule("advice")            # better to play from the talon than from the wings
REFILL = _rule("refill")            # wing vacancies refilled at once from the pack or talon
TRANSFER = _rule("transfer")        # a king packet's top card may go to the ace packet
PRIVILEGE = _rule("privilege")      # one card of each at a time, only to bring a card into use
NO_REDEAL = _rule("no-redeal")      # there is no re-deal
BOARD = _rule("board")              # the board itself (notation errors, empty places)

#: The ace withdrawn for the centre: the plate's (any ace would do; MI-4).
CENTRE_ACE = Card(ACE, Suit.HEARTS)
FAMILY = 13
CENTRE_FULL = 4 * FAMILY  # four families on the ace packet
KING_FULL = FAMILY        # a king packet, king down to ace


class Refill(Enum):
    """MI-1: where a vacancy in the wings is refilled from, when both pack and talon have
    cards."""

    CHOICE = "choice"  # the pack or the talon, as the player chooses
    TALON = "talon"    # the talon; the pack only when there is no talon
    PACK = "pack"      # the pack; the talon only when the pack is used up


class Transfer(Enum):
    """MI-2: how far the privilege of transferring from the king packets reaches."""

    SINGLE = "single"  # each transfer must itself bring a wing or talon card into use
    CHAIN = "chain"    # one card from each of several king packets, the last doing so


@dataclass(frozen=True, slots=True)
class MillOptions:
    refill: Refill = option(
        Refill.CHOICE, note="note-mi-1", label="A vacancy in the wings is refilled",
        labels={Refill.CHOICE: "from the pack or the talon, as the player chooses",
                Refill.TALON: "from the talon, or from the pack when there is no talon",
                Refill.PACK: "from the pack, or from the talon when the pack is used up"})
    transfer: Transfer = option(
        Transfer.SINGLE, note="note-mi-2", label="A card transferred from a king packet",
        labels={Transfer.SINGLE: "must itself bring a card of the wings or talon into use",
                Transfer.CHAIN: "may be followed by one from each other king packet, "
                                "the last bringing a card into use"})


# --------------------------------------------------------------------------- the layout
#
# Positions are the top-left corner of a card's upright box, in card slots (a slot is 1 wide
# and 1.36 slot-widths high on the board; a card 0.9 by 1.26). A rotated card turns about the
# centre of its box. The cross follows the plate: the centre ace, two upright cards above and
# below it, two sideways cards to either side, and the four angles set at 45 degrees between
# the arms, their long sides pointing at the centre. The pack and the card turned up sit in
# the lower left corner, the talon in the lower right.

_ROW = 1.36
_CX, _CY = 3.35, 3.45  # the centre ace's centre, in slot widths


def _box(cx: float, cy: float) -> tuple[float, float]:
    """The upright box's corner (x, y in slots) of a card centred on (cx, cy) slot widths."""
    return (round(cx - 0.5, 3), round((cy - 0.63) / _ROW, 3))


# (label, centre x, centre y, rotation), in dealing order for the wings.
_WING_PLACES: tuple[tuple[str, float, float, int], ...] = (
    ("upper wing, outer card", _CX, _CY - 2.8, 0),
    ("upper wing, inner card", _CX, _CY - 1.4, 0),
    ("left wing, outer card", _CX - 2.7, _CY, 90),
    ("left wing, inner card", _CX - 1.3, _CY, 90),
    ("right wing, inner card", _CX + 1.3, _CY, 90),
    ("right wing, outer card", _CX + 2.7, _CY, 90),
    ("lower wing, inner card", _CX, _CY + 1.4, 0),
    ("lower wing, outer card", _CX, _CY + 2.8, 0),
)
_ANGLE_PLACES: tuple[tuple[str, float, float, int], ...] = (
    ("upper left angle", _CX - 1.45, _CY - 1.5, -45),
    ("upper right angle", _CX + 1.45, _CY - 1.5, 45),
    ("lower left angle", _CX - 1.45, _CY + 1.5, 45),
    ("lower right angle", _CX + 1.45, _CY + 1.5, -45),
)


def _pile(pid: str, label: str, role: Role, cx: float, cy: float, rotate: int = 0) -> PileSpec:
    x, y = _box(cx, cy)
    return PileSpec(pid, label, role, x, y, rotate=rotate)


PILES: tuple[PileSpec, ...] = (
    (_pile("c", "the ace packet", Role.FOUNDATION, _CX, _CY),)
    + tuple(_pile(f"a{j}", f"the {label}", Role.FOUNDATION, cx, cy, rot)
            for j, (label, cx, cy, rot) in enumerate(_ANGLE_PLACES))
    + tuple(_pile(f"w{i}", f"the {label}", Role.RESERVE, cx, cy, rot)
            for i, (label, cx, cy, rot) in enumerate(_WING_PLACES))
    + (_pile("stock", "the pack", Role.STOCK, _CX - 2.75, _CY + 2.95),
       _pile("turned", "the card turned up", Role.RESERVE, _CX - 1.75, _CY + 2.95),
       _pile("talon", "the talon", Role.TALON, _CX + 2.25, _CY + 2.95))
)

CENTRE_PILE = 0
ANGLES = range(1, 5)
WING_PILES = range(5, 13)
STOCK = 13
TURNED = 14
TALON_PILE = 15
FOUNDATION_PILES = range(0, 5)
assert len(PILES) == TALON_PILE + 1

V_RUN, V_OWED = 0, 1


def _an(rank: int) -> str:
    word = RANK_NAMES[rank]
    return ("an " if word[0] in "aeio" else "a ") + word


def centre_needs(pile: tuple[Card, ...]) -> int | None:
    """The rank the ace packet takes next: the next in sequence, an ace after a king (each
    family begins with ace and ends with king); None when the four families are complete."""
    if not pile or len(pile) >= CENTRE_FULL:
        return None
    top = pile[-1].rank
    return ACE if top == KING else top + 1


def king_needs(pile: tuple[Card, ...]) -> int | None:
    """The rank a king packet takes next (down to the ace); None for an empty angle, which
    only a king placed there as it appears may fill, or for a packet complete at its ace."""
    if not pile:
        return None
    top = pile[-1].rank
    return None if top == ACE else top - 1


def needs(piles: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]], f: int) -> int | None:
    return centre_needs(piles[f]) if f == CENTRE_PILE else king_needs(piles[f])


def targets(piles: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]],
            card: Card) -> list[int]:
    """The foundations that take ``card`` next (suits do not count: Rule II)."""
    return [f for f in FOUNDATION_PILES if needs(piles, f) == card.rank]


def _bit(angle: int) -> int:
    return 1 << (angle - ANGLES.start)


class TheMill(Game):
    slug = SLUG
    title = "The Mill"
    packs = 2
    Options = MillOptions
    PILES = PILES
    VARS = ("run", "owed")
    GRID = (6.7, 5.3)
    DIAGRAM_DEAL = 18
    LEDGER = {
        RULE_1: "Every card in the wings may be played to any foundation it suits, at any "
                "time; wing cards go nowhere else.",
        RULE_2: "A foundation takes the next rank in any suit: no card is ever refused for "
                "its suit.",
        CENTRE: "One ace, the ace of hearts as on the plate, is withdrawn and laid in the "
                "centre before the deal; it never moves (MI-4).",
        WINGS: "Eight cards are dealt round the centre ace, two on each arm of the cross; "
               "each wing place holds one card.",
        KINGS: "The first four kings to appear, in the wings, as refills or turned from the "
               "pack, go at once to the empty angles; an empty angle takes nothing else, and "
               "the kings placed there never move (MI-3).",
        FOUNDATIONS: "A king packet takes the next rank down, of any suit, and ends with the "
                     "ace; the ace packet takes the next rank up; cards played on the "
                     "foundations stay there, save by the transfer privilege. The game is won "
                     "with fifty-two cards on the ace packet and thirteen in each king "
                     "packet.",
        OPENING: "Before the first card is turned, wing cards may be played and the kings go "
                 "to the angles; the spaces are refilled from the pack, there being no talon "
                 "yet (MI-6).",
        DEAL: "“Turn up the next card” turns the pack’s top card; a card that suits a "
              "foundation must be played before anything else is done, to the foundation the "
              "player chooses (MI-5).",
        TALON: "A card turned up that suits no foundation goes at once to the talon, one "
               "packet of which only the top card is shown and used.",
        FAMILIES: "After a king the ace packet takes an ace, beginning the next family; after "
                  "four families it is complete.",
        ADVICE: "Advice only: the top card of the talon may be played like a wing card, and "
                "the board never prefers one to the other (MI-6).",
        REFILL: "A vacant wing is refilled before anything else is done: from the pack or "
                "the talon as the player chooses (or, under MI-1’s other readings, "
                "automatically from the talon first, or from the pack first); with only one "
                "of them left it refills automatically; with neither it stays empty.",
        TRANSFER: "The top card of a king packet, never its king, may go to the ace packet "
                  "when it is the rank the ace packet needs; king packet cards go nowhere "
                  "else.",
        PRIVILEGE: "A transfer is allowed only if it lets a wing card or the talon’s top card "
                   "be played that could not be before, one no foundation took or a second "
                   "card of a rank with a single place open (or, under MI-2’s other reading, if "
                   "transfers from other king packets following it would), and only one card "
                   "from each king packet until another kind of move is made.",
        NO_REDEAL: "When the pack is used up it is not dealt again.",
    }
    FIGURES = (
        Figure("tableau", "The Mill after the deal, in modern cards.",
               "The tableau of The Mill just after the deal, drawn in modern cards: the ace of "
               "hearts in the centre; two cards above it and two below, upright, and two on "
               "either side of it lying sideways, the eight cards of the wings; between the "
               "arms of the cross four empty places set at forty-five degrees, the angles "
               "for the kings; below, the pack face down and the place of the talon.",
               piles=("c", "a0", "a1", "a2", "a3", "w0", "w1", "w2", "w3", "w4", "w5", "w6",
                      "w7", "stock", "talon")),
    )
    ACTIONS = (ActionSpec("deal", "Turn up the next card", "t", DEAL),)

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        rest = Counter(pack(2))
        rest.subtract([CENTRE_ACE])
        stock = tuple(shuffled(sorted(rest.elements()), deal))
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        piles[CENTRE_PILE] = (CENTRE_ACE,)
        for i in WING_PILES:  # in the order of the wing places (MI-8)
            piles[i] = (stock[-1],)
            stock = stock[:-1]
        piles[STOCK] = stock
        _settle(piles, options)
        return State(tuple(piles), (0, 0))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        centre = p[CENTRE_PILE]
        if not centre or centre[0].rank != ACE or len(centre) > CENTRE_FULL:
            raise PositionError("the ace packet must begin with an ace")
        for k in range(1, len(centre)):
            if centre_needs(centre[:k]) != centre[k].rank:
                raise PositionError("the ace packet is not built in sequence")
        for a in ANGLES:
            pile = p[a]
            if pile and pile[0].rank != KING:
                raise PositionError(f"{PILES[a].label} must begin with a king")
            for k in range(1, len(pile)):
                if pile[k].rank != pile[k - 1].rank - 1:
                    raise PositionError(f"{PILES[a].label} is not built in sequence")
        if any(len(p[i]) > 1 for i in WING_PILES) or len(p[TURNED]) > 1:
            raise PositionError("a wing place or the turned card holds more than one card")
        if any(not p[a] for a in ANGLES) and any(
                c.rank == KING for i in (*WING_PILES, TURNED, TALON_PILE, CENTRE_PILE)
                for c in p[i]):
            raise PositionError("a king lies outside the angles while an angle is empty")
        if p[TURNED] and not targets(p, p[TURNED][0]):
            raise PositionError("the card turned up suits no foundation")
        vacant = any(not p[i] for i in WING_PILES)
        if vacant and (p[STOCK] or p[TALON_PILE]):
            if p[TURNED] or not (options.refill is Refill.CHOICE and p[STOCK] and p[TALON_PILE]):
                raise PositionError("a vacancy in the wings has not been refilled")
        run, owed = state.vars
        if not 0 <= run < 16 or owed not in (0, 1):
            raise PositionError("bad transfer counters")
        if owed and options.transfer is not Transfer.CHAIN:
            raise PositionError("a transfer is owed only under the chain reading")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def vacancy_pending(self, state: State) -> bool:
        """Whether a vacant wing waits for the player to choose where it is refilled from."""
        p = state.piles
        return (self.options.refill is Refill.CHOICE and bool(p[STOCK]) and bool(p[TALON_PILE])
                and any(not p[i] for i in WING_PILES))

    @staticmethod
    def in_use(piles: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]]) -> Counter[int]:
        """For each rank, how many available cards of that rank (the wings and the talon's
        top card) can be played now: as many as wait, but no more than the foundations that
        take the rank. A transfer brings a card into use when it raises one of these counts:
        a card that no foundation took before, or a second card of a rank for which there was
        only one place (MI-2)."""
        waiting = Counter(piles[i][-1].rank for i in (*WING_PILES, TALON_PILE) if piles[i])
        room = Counter(needs(piles, f) for f in FOUNDATION_PILES)
        return Counter({rank: min(n, room[rank]) for rank, n in waiting.items() if room[rank]})

    @staticmethod
    def _more_in_use(now: Counter[int], before: Counter[int]) -> bool:
        return any(n > before[rank] for rank, n in now.items())

    @staticmethod
    def _transferable(piles: tuple[tuple[Card, ...], ...], a: int) -> bool:
        """The top card of king packet ``a`` is not its king and is what the ace packet
        needs."""
        pile = piles[a]
        return len(pile) > 1 and pile[-1].rank == centre_needs(piles[CENTRE_PILE])

    @staticmethod
    def _after_transfer(piles: tuple[tuple[Card, ...], ...], a: int
                        ) -> tuple[tuple[Card, ...], ...]:
        out = list(piles)
        out[CENTRE_PILE] = piles[CENTRE_PILE] + piles[a][-1:]
        out[a] = piles[a][:-1]
        return tuple(out)

    def _brings_into_use(self, piles: tuple[tuple[Card, ...], ...], mask: int,
                         before: Counter[int]) -> bool:
        """Whether, in ``piles`` (after a transfer), a wing or talon card can be played that
        could not be ``before`` it (:meth:`in_use`), or (under the chain reading) could be
        after transfers from king packets not yet used in this run (``mask``)."""
        if self._more_in_use(self.in_use(piles), before):
            return True
        if self.options.transfer is not Transfer.CHAIN:
            return False
        return any(self._brings_into_use(self._after_transfer(piles, a), mask | _bit(a), before)
                   for a in ANGLES if not mask & _bit(a) and self._transferable(piles, a))

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        p = state.piles
        sources = [i for i in (*WING_PILES, TALON_PILE, TURNED) if p[i]]
        for i in sources:
            for f in targets(p, p[i][-1]):
                yield Move.step(PILES[i].id, PILES[f].id)
        for a in ANGLES:
            yield Move.step(PILES[a].id, "c")
        for w in WING_PILES:
            if not p[w]:
                for src in (STOCK, TALON_PILE):
                    if p[src]:
                        yield Move.step(PILES[src].id, PILES[w].id)
        yield Move(action="deal")

    def _pending(self, state: State, moving_from: int | None = None,
                 transferring: bool = False) -> IllegalMove | None:
        """What must be done first, if anything: play the card turned up, refill a vacancy,
        or go on with a run of transfers that has not yet brought a card into use."""
        p = state.piles
        if p[TURNED] and moving_from != TURNED:
            return IllegalMove(DEAL, f"The {p[TURNED][0].name} just turned up must first be "
                               "played on a foundation.")
        if self.vacancy_pending(state):
            w = next(i for i in WING_PILES if not p[i])
            return IllegalMove(REFILL, f"The vacancy in {PILES[w].label} must first be "
                               "refilled, from the pack or from the talon.")
        if state.vars[V_OWED] and not transferring:
            return IllegalMove(PRIVILEGE, "The card just transferred brings nothing into use "
                               "by itself: transfer the next card from another king packet.")
        return None

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        p = state.piles
        if not step.top:
            if si == TALON_PILE:
                return IllegalMove(TALON, "Only the top card of the talon can be used.")
            if si in ANGLES:
                return IllegalMove(TRANSFER, "Only the uppermost card of a king packet may "
                                   "be transferred.")
            if si == CENTRE_PILE:
                return IllegalMove(FOUNDATIONS, "Cards played on the ace packet stay there.")
            return IllegalMove(BOARD, "Only the top card of a pile can be moved.")
        if si in (STOCK, TALON_PILE) and di in WING_PILES and not p[di] \
                and self.vacancy_pending(state):
            return None  # the player's choice of where a vacancy is refilled from
        pending = self._pending(state, moving_from=si,
                                transferring=si in ANGLES and di == CENTRE_PILE)
        if pending is not None:
            return pending
        # where the card comes from
        if si == CENTRE_PILE:
            return IllegalMove(FOUNDATIONS, "Cards played on the ace packet stay there.")
        if si in ANGLES:
            return self._refuse_transfer(state, si, di)
        if si == STOCK:
            if di in WING_PILES:
                return IllegalMove(REFILL, f"{_cap(PILES[di].label)} is not vacant: a wing is "
                                   "refilled only when its card has gone.")
            return IllegalMove(DEAL, "The pack is dealt by turning its cards up one by one "
                               "(Turn up the next card).")
        if di in WING_PILES:
            if si == TALON_PILE:
                return IllegalMove(REFILL, f"{_cap(PILES[di].label)} is not vacant: a wing is "
                                   "refilled only when its card has gone.")
            return IllegalMove(REFILL, "Vacancies in the wings are refilled from the pack or "
                               "the talon, and only when they fall vacant.")
        if di in FOUNDATION_PILES:
            return self._refuse_foundation(state, di, card)
        if si == TURNED:
            if di == TALON_PILE:
                return IllegalMove(DEAL, f"The {card.name} suits a foundation: it must be "
                                   "played, not laid on the talon.")
            return IllegalMove(DEAL, "A card turned up goes on a foundation, or else to the "
                               "talon.")
        if di == TALON_PILE:
            return IllegalMove(TALON, "Only cards turned up from the pack that cannot be "
                               "played go to the talon.")
        if si in WING_PILES:
            return IllegalMove(RULE_1, "A wing card is available to be played on a "
                               "foundation, and goes nowhere else.")
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def _refuse_transfer(self, state: State, a: int, di: int) -> IllegalMove | None:
        p = state.piles
        if di != CENTRE_PILE:
            return IllegalMove(TRANSFER, "The uppermost card of a king packet may be "
                               "transferred only to the ace packet.")
        if len(p[a]) == 1:
            return IllegalMove(KINGS, f"The king in {PILES[a].label} is a foundation card: "
                               "it never moves.")
        card = p[a][-1]
        need = centre_needs(p[CENTRE_PILE])
        if need is None:
            return IllegalMove(FAMILIES, "The ace packet is complete: its four families are "
                               "all piled.")
        if card.rank != need:
            return IllegalMove(TRANSFER, f"The {card.name} is not suitable: the ace packet "
                               f"needs {_an(need)} next.")
        run = state.vars[V_RUN]
        if run & _bit(a):
            return IllegalMove(PRIVILEGE, "Only one card of each king packet at a time: a "
                               f"card has just been transferred from {PILES[a].label}.")
        before = self.in_use(p)
        if not self._brings_into_use(self._after_transfer(p, a), run | _bit(a), before):
            more = (", even followed by transfers from the other king packets"
                    if self.options.transfer is Transfer.CHAIN else "")
            return IllegalMove(PRIVILEGE, f"Transferring the {card.name} would bring no card "
                               f"of the wings or of the talon into use{more}.")
        return None

    def _refuse_foundation(self, state: State, f: int, card: Card) -> IllegalMove | None:
        p = state.piles
        need = needs(p, f)
        if need == card.rank:
            return None
        label = PILES[f].label
        if f == CENTRE_PILE:
            if need is None:
                return IllegalMove(FAMILIES, "The ace packet is complete: its four families "
                                   "are all piled.")
            if need == ACE:
                return IllegalMove(FAMILIES, "After a king the ace packet begins a new family "
                                   "with an ace.")
            return IllegalMove(FOUNDATIONS, f"The ace packet needs {_an(need)} next (of any "
                               "suit).")
        if not p[f]:
            return IllegalMove(KINGS, f"{_cap(label)} is kept for one of the first four kings, "
                               "which go there as they appear.")
        if need is None:
            return IllegalMove(FOUNDATIONS, f"The king packet in {label} is complete: it ends "
                               "with the ace.")
        return IllegalMove(FOUNDATIONS, f"The king packet in {label} needs {_an(need)} next "
                           "(of any suit).")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "redeal":
            return IllegalMove(NO_REDEAL, "There is no re-deal.")
        if action != "deal":
            return IllegalMove(BOARD, f"The Mill has no action {action!r}.")
        pending = self._pending(state)
        if pending is not None:
            return pending
        if not state.piles[STOCK]:
            return IllegalMove(NO_REDEAL, "The pack is used up, and there is no re-deal.")
        return None

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        run, owed = 0, 0
        if move.action == "deal":
            card = piles[STOCK][-1]
            piles[STOCK] = piles[STOCK][:-1]
            angle = _empty_angle(piles) if card.rank == KING else None
            if angle is not None:
                piles[angle] = (card,)
            elif targets(piles, card):
                piles[TURNED] = (card,)
            else:
                piles[TALON_PILE] = piles[TALON_PILE] + (card,)
        else:
            (src, dst), = move.steps
            si, di = self.pile_index(src), self.pile_index(dst)
            card = piles[si][-1]
            piles[si] = piles[si][:-1]
            piles[di] = piles[di] + (card,)
            if si in ANGLES:
                run = state.vars[V_RUN] | _bit(si)
                alone = self._more_in_use(self.in_use(piles), self.in_use(state.piles))
                owed = int(self.options.transfer is Transfer.CHAIN and not alone)
        _settle(piles, self.options)
        return State(tuple(piles), (run, owed))

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: the other answer of :meth:`outcome_of` (LOST when no move is
        left) costs a search for moves, and is a dead end to the solver anyway."""
        p = state.piles
        if len(p[CENTRE_PILE]) == CENTRE_FULL and all(len(p[a]) == KING_FULL for a in ANGLES):
            return Outcome.WON
        return None

    def outcome_of(self, state: State) -> Outcome | None:
        p = state.piles
        if len(p[CENTRE_PILE]) == CENTRE_FULL and all(len(p[a]) == KING_FULL for a in ANGLES):
            return Outcome.WON
        # Every move puts a card on a foundation, moves one nearer the centre, turns a card
        # from the pack or refills a wing: play cannot go round in circles, so a position with
        # no legal move is final.
        return None if self.has_legal_move(state) else Outcome.LOST

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        p = state.piles
        if out is Outcome.WON:
            return "Won: four families on the ace packet, and every king packet down to its ace."
        if out is Outcome.LOST:
            played = sum(len(p[f]) for f in FOUNDATION_PILES)
            return (f"Nothing more can be done: the patience has failed with {played} of 104 "
                    "cards on the foundations.")
        centre = p[CENTRE_PILE]
        need = centre_needs(centre)
        parts = [f"Pack: {plural(len(p[STOCK]), 'card')}",
                 f"talon: {plural(len(p[TALON_PILE]), 'card')}",
                 f"ace packet: {len(centre)} of 52"
                 + (f", next {_an(need)}" if need is not None else "")]
        if p[TURNED]:
            parts.append(f"play the {p[TURNED][0].name}")
        elif self.vacancy_pending(state):
            parts.append("refill the vacant wing from the pack or the talon")
        elif state.vars[V_OWED]:
            parts.append("transfer from another king packet")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        p = state.piles
        if move.action == "deal" and p[STOCK]:
            turned = p[STOCK][-1]
            angle = _empty_angle(list(p)) if turned.rank == KING else None
            if angle is not None:
                return f"The {turned.name} is turned up and goes to {PILES[angle].label}."
            if targets(p, turned):
                return f"The {turned.name} is turned up; it suits a foundation."
            return f"The {turned.name} is turned up and laid on the talon."
        if len(move.steps) == 1:
            src, dst = move.steps[0]
            card = self.card_at(state, src)
            if card is not None and src in ("stock", "talon") and dst.startswith("w"):
                what = "a card from the pack" if src == "stock" else f"the {card.name} from " \
                    "the talon"
                return f"{_cap(self.label(dst))} is refilled with {what}."
            if card is not None and src.startswith("a") and dst == "c":
                return (f"The {card.name} is transferred from the king packet in "
                        f"{self.label(src)} to the ace packet.")
        return super().describe(state, move)


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _empty_angle(piles: list[tuple[Card, ...]]) -> int | None:
    return next((a for a in ANGLES if not piles[a]), None)


def _settle(piles: list[tuple[Card, ...]], options: Any) -> None:
    """What the rules make happen at once: a king in the wings goes to an empty angle (the
    first four kings, in the order of the wing places; MI-3), and every vacant wing is
    refilled from the pack or the talon (MI-1), until nothing changes. Under the player's
    choice, a vacancy waits for the player when both the pack and the talon have cards."""
    changed = True
    while changed:
        changed = False
        for w in WING_PILES:
            if piles[w] and piles[w][-1].rank == KING:
                angle = _empty_angle(piles)
                if angle is not None:
                    piles[angle] = piles[w]
                    piles[w] = ()
                    changed = True
        for w in WING_PILES:
            if piles[w]:
                continue
            src = _refill_source(piles, options)
            if src is None:
                continue
            piles[w] = piles[src][-1:]
            piles[src] = piles[src][:-1]
            changed = True


def _refill_source(piles: list[tuple[Card, ...]], options: Any) -> int | None:
    pack_left, talon_left = bool(piles[STOCK]), bool(piles[TALON_PILE])
    if pack_left and talon_left:
        refill: Refill = options.refill
        if refill is Refill.CHOICE:
            return None
        return TALON_PILE if refill is Refill.TALON else STOCK
    if pack_left:
        return STOCK
    if talon_left:
        return TALON_PILE
    return None

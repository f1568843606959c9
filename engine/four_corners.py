"""The Four Corners (two packs), by the book: 1914 printing, plate p. 16, text pp. 17–18.

Piles: the pack; twelve packets dealt round by round, a corner packet at each of the four
outer corners and four side packets in a column on either side; and between the two columns
eight foundation places, in two columns of four, which receive four aces (ascending to kings)
and four kings (descending to aces), one of each suit, as they turn up.

The game has two phases. While the pack lasts, the cards are dealt one at a time in rounds
of twelve, and each card is judged as it falls: the first ace or king of its kind and suit
is played at once to an empty foundation place; any other card may be played if it suits a
foundation, from a corner packet to any foundation, from a side packet only to the foundation
beside it; a card so played is replaced at once by the next card of the pack. Once the whole
pack is dealt the restrictions cease: the top card of every packet may be played to any
foundation it suits, or married (same suit, one rank above or below) onto the top card of
another packet. The packets may then be taken up, without shuffling, and re-dealt, twice.
See the chapter page for the text each rule id points at, and its editorial notes
(``note-fc-N``) for the readings behind the options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, Card, Suit, pack
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
    Role,
    State,
    Step,
    option,
)
from .deal import shuffled
from .rules import plural, stuck_after

SLUG = "the-four-corners"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # after the deal, the uppermost card of each packet
RULE_II = _rule("rule-2")             # each foundation must follow suit
DEAL = _rule("deal")                  # twelve cards: corner, four sides, corner; left, right
FOUNDATIONS = _rule("foundations")    # four aces up to kings, four kings down to aces
ROUNDS = _rule("rounds")              # the entire pack in successive rounds, by the method
BASES = _rule("bases")                # the eight foundation cards played at once as they appear
CORNERS = _rule("corners")            # a suitable card falling on a corner packet may be played
SIDES = _rule("sides")                # ... on a side packet, only to the foundation beside it
REPLACE = _rule("replace")            # a card withdrawn in dealing: the next card in its stead
AFTER_DEAL = _rule("after-deal")      # after the deal the restrictions cease
MARRIAGES = _rule("marriages")        # marriages, ascending and descending, on the surface
EXAMINE = _rule("examine")            # the contents of each packet may be examined
REVERSAL = _rule("reversal")          # sequences reversed by moving them card by card
REDEAL = _rule("redeal")              # the packets taken up in order and re-dealt
TWO_REDEALS = _rule("two-redeals")    # there may be two re-deals
BOARD = _rule("board")                # the board itself (notation errors, empty places)

PACKETS_N = 12
ROWS = 4
REDEALS_ALLOWED = 2
TOTAL = 104
SEARCH_LIMIT = 4000  # positions explored at most when judging whether a game is lost


class Placement(Enum):
    """FC-2: where an ace or king that begins a foundation is played."""

    CHOOSE = "choose"    # any empty place, chosen by the player
    COLUMNS = "columns"  # aces on the left, kings on the right, a suit to a row, in order


class DealPlays(Enum):
    """FC-4: which cards may be played to the foundations during the deal."""

    FALLING = "falling"  # a card only as it falls (or falls in the stead of one played)
    SURFACE = "surface"  # any card lying uncovered on a packet, until the next round covers it


class Pickup(Enum):
    """FC-12: how the packets, taken up in order, make the pack for the re-deal."""

    UNDER = "under"  # each packet put under the last: the last packet comes out first
    OVER = "over"    # each packet put on the last: the first packet comes out first


class RedealTiming(Enum):
    """FC-13: when the packets may be taken up and re-dealt."""

    NO_PLAY = "no-play"  # only when no uppermost card can be played to a foundation
    CHOICE = "choice"    # whenever the player chooses, once the deal is completed


@dataclass(frozen=True, slots=True)
class FourCornersOptions:
    placement: Placement = option(
        Placement.CHOOSE, note="note-fc-2", label="An ace or king beginning a foundation goes",
        labels={Placement.CHOOSE: "to any empty place, as the player chooses",
                Placement.COLUMNS: "aces left, kings right, a suit to a row"})
    deal_plays: DealPlays = option(
        DealPlays.FALLING, note="note-fc-4", label="During the deal a card may be played",
        labels={DealPlays.FALLING: "only as it falls",
                DealPlays.SURFACE: "while it lies uncovered, until the next round"})
    pickup: Pickup = option(
        Pickup.UNDER, note="note-fc-12", label="Taking up the packets for a re-deal",
        labels={Pickup.UNDER: "each packet under the last (the last packet dealt first)",
                Pickup.OVER: "each packet on the last (the first packet dealt first)"})
    redeal_timing: RedealTiming = option(
        RedealTiming.NO_PLAY, note="note-fc-13", label="The packets may be re-dealt",
        labels={RedealTiming.NO_PLAY: "only when no card can be played to a foundation",
                RedealTiming.CHOICE: "whenever the player chooses, once the deal is done"})


# ---------------------------------------------------------------------------- the layout
# The packets in the order they are dealt (Play, first paragraph): the left top corner, the
# four left side packets from the top, the left bottom corner; then the same on the right.
# Positions are in board slots. The side packets fan outwards, away from the foundations,
# and so do the corner packets, in the rows above and below them.

_LEFT_SIDE_X, _FOUND_X, _RIGHT_SIDE_X = 2.15, 3.25, 5.35
_LEFT_CORNER_X, _RIGHT_CORNER_X = 1.85, 5.65
_SIDE_FAN = 2.3    # card widths: the side packets' fans stay inside the board
_CORNER_FAN = 2.0
_BOTTOM_Y = 5.0


def _packets() -> tuple[PileSpec, ...]:
    out: list[PileSpec] = []
    for side, x_side, x_corner, fan in (("left", _LEFT_SIDE_X, _LEFT_CORNER_X, Fan.LEFT),
                                        ("right", _RIGHT_SIDE_X, _RIGHT_CORNER_X, Fan.RIGHT)):
        c0 = 0 if side == "left" else 2
        s0 = 0 if side == "left" else ROWS
        out.append(PileSpec(f"c{c0}", f"{side} top corner", Role.TABLEAU, x_corner, 0.0, fan,
                            fan_limit=_CORNER_FAN, mark="corner"))
        out.extend(PileSpec(f"s{s0 + r}", f"{side} side, row {r + 1}", Role.TABLEAU, x_side,
                            float(r + 1), fan, fan_limit=_SIDE_FAN) for r in range(ROWS))
        out.append(PileSpec(f"c{c0 + 1}", f"{side} bottom corner", Role.TABLEAU, x_corner,
                            _BOTTOM_Y, fan, fan_limit=_CORNER_FAN, mark="corner"))
    return tuple(out)


PILES: tuple[PileSpec, ...] = (
    (PileSpec("stock", "the pack", Role.STOCK, _FOUND_X + 0.5, _BOTTOM_Y),)
    + _packets()
    + tuple(PileSpec(f"f{c * ROWS + r}", f"{side} foundation, row {r + 1}", Role.FOUNDATION,
                     _FOUND_X + c, float(r + 1), mark="ace or king")
            for c, side in enumerate(("left", "right")) for r in range(ROWS))
)

STOCK = 0
PACKETS = range(1, 1 + PACKETS_N)             # in the order of the deal
FOUNDS = range(PACKETS.stop, PACKETS.stop + 8)  # left column top to bottom, then the right
#: Deal positions (0..11) of the corner packets; the others are side packets.
CORNER_POSITIONS = frozenset((0, 5, 6, 11))
V_REDEALS, V_DEALT, V_JUST = 0, 1, 2


def is_corner(pos: int) -> bool:
    return pos in CORNER_POSITIONS


def adjoining(pos: int) -> int:
    """The foundation place beside side packet ``pos`` (FC-3): the nearer place of its row."""
    assert not is_corner(pos)
    if pos < 6:
        return FOUNDS.start + (pos - 1)
    return FOUNDS.start + ROWS + (pos - 7)


def _plate_layout() -> Layout:
    """The piles as the plate shows them: the corner cards set slantwise, their long sides
    pointing to the centre (for the drawn figure)."""
    at: dict[str, tuple[float, float, int]] = {
        "c0": (0.0, 0.1, -45), "c1": (0.0, 4.9, 45), "c2": (5.3, 0.1, 45),
        "c3": (5.3, 4.9, -45),
    }
    for r in range(ROWS):
        at[f"s{r}"] = (0.95, float(r + 1), 0)
        at[f"s{ROWS + r}"] = (4.35, float(r + 1), 0)
        at[f"f{r}"] = (2.1, float(r + 1), 0)
        at[f"f{ROWS + r}"] = (3.2, float(r + 1), 0)
    return Layout("plate", (6.3, 6.0), at)


# ---------------------------------------------------------------------------- foundations

def is_base(state: State, card: Card) -> bool:
    """Whether ``card`` would begin a foundation: an ace when no foundation of its suit
    begins with an ace, a king when none of its suit begins with a king (FC-8)."""
    if card.rank not in (ACE, KING):
        return False
    return not any(p and p[0] == card for p in (state.piles[f] for f in FOUNDS))


def fits(state: State, f: int, card: Card) -> bool:
    """Whether foundation place ``f`` takes ``card`` next."""
    pile = state.piles[f]
    if not pile:
        return is_base(state, card)
    base, top = pile[0], pile[-1]
    if card.suit is not base.suit:
        return False
    step = 1 if base.rank == ACE else -1
    return card.rank == top.rank + step and 1 <= card.rank <= 13 and len(pile) < 13


def marries(card: Card, top: Card) -> bool:
    """A marriage: the same suit, one rank above or below (Explanation of Terms)."""
    return card.suit is top.suit and abs(card.rank - top.rank) == 1


def foundation_name(state: State, f: int) -> str:
    """``"the ascending spade foundation"``; ``"the empty left foundation, row 2"``."""
    pile = state.piles[f]
    if not pile:
        return f"the empty {PILES[f].label}"
    kind = "ascending" if pile[0].rank == ACE else "descending"
    return f"the {kind} {pile[0].suit.noun[:-1]} foundation"


def _close(piles: list[tuple[Card, ...]], vs: list[int]) -> None:
    """Once the pack is out the deal is complete: the card that fell last stays marked only
    if it begins a foundation (it must still be played at once)."""
    if piles[STOCK] or vs[V_JUST] < 0:
        return
    i = PACKETS.start + vs[V_JUST]
    if not (piles[i] and is_base(State(tuple(piles), ()), piles[i][-1])):
        vs[V_JUST] = -1


class TheFourCorners(Game):
    slug = SLUG
    title = "The Four Corners"
    packs = 2
    Options = FourCornersOptions
    PILES = PILES
    VARS = ("redeals", "dealt", "just")
    GRID = (8.4, 6.0)
    LAYOUTS = (_plate_layout(),)
    FIGURES = (
        Figure("tableau", "The Four Corners after the first round, in modern cards.",
               "The tableau of The Four Corners after the first round of twelve cards, drawn "
               "in modern cards: a card set slantwise at each of the four outer corners, a "
               "column of four upright cards on either side, and between the two columns "
               "eight empty places in two columns of four, where the four aces and four "
               "kings that begin the foundations will be played. The pack is not shown.",
               piles=tuple(p.id for p in PILES if p.id != "stock"), layout="plate"),
    )
    DIAGRAM_DEAL = 9  # a first round without an ace or a king, as on the plate
    ACTIONS = (
        ActionSpec("deal", "Deal on", "d", ROUNDS),
        ActionSpec("redeal", "Re-deal", "e", REDEAL),
    )
    LEDGER = {
        RULE_I: "After the deal the top card of every packet may be played to any foundation "
                "it suits; before, a card is played only as it falls (or, under the other "
                "reading, while it lies uncovered); a card lower in a packet is refused until "
                "the cards above it have gone.",
        RULE_II: "A foundation takes only cards of the suit of the ace or king that began it.",
        DEAL: "Each round deals one card to each packet in the book’s order: the left top "
              "corner, the four left side packets from the top, the left bottom corner, then "
              "the same on the right; the deal goes on from the place it stopped.",
        FOUNDATIONS: "An empty place takes only an ace or a king whose suit has no foundation "
                     "of that kind yet; a foundation begun by an ace ascends to the king, one "
                     "begun by a king descends to the ace, one rank at a time.",
        ROUNDS: "The Deal on button deals card by card to the end of the round, stopping when a "
                "card falls that must or may be played; the deal rules apply from the first "
                "card of the first round, and there is nothing to deal once the pack is out.",
        BASES: "The first ace and the first king of each suit must be played as they fall, "
               "from a corner or a side packet alike: to the empty place the player chooses "
               "(or, under the other reading, to its place in the aces’ or the kings’ column, "
               "automatically); nothing else may be done until it is played.",
        CORNERS: "A card falling on a corner packet may be played to any foundation it suits "
                 "(as it falls, or while it lies uncovered under the other reading); the play "
                 "is optional, and dealing on declines it.",
        SIDES: "A card falling on a side packet may be played only to the foundation place "
               "beside it, in the same row; any other foundation is refused until the deal is "
               "completed.",
        REPLACE: "A card played during the deal is replaced at once by the next card of the "
                 "pack, which is judged as it falls in its turn.",
        AFTER_DEAL: "When the last card of the pack has been dealt, the corner and side "
                    "restrictions end: any top card to any foundation it suits.",
        MARRIAGES: "After the deal, and only then, a top card may be married onto the top card "
                   "of another packet of the same suit one rank above or below it; an empty "
                   "place takes nothing.",
        EXAMINE: "Every card of every packet is shown face up, so its contents may be "
                 "examined; only the top card moves.",
        REVERSAL: "Cards move one at a time, so a sequence is reversed by moving it card by "
                  "card onto another packet.",
        REDEAL: "After the deal is completed, the player may re-deal, by default only when no "
                "top card can be played to a foundation (under the other reading, whenever the "
                "player chooses): the packets are taken up in the order of the deal, "
                "unshuffled (the last packet first by default, the first packet first under "
                "the other reading), and dealt again by the same rules, the foundations "
                "staying as they are.",
        TWO_REDEALS: "A third re-deal is refused; the game is lost when, after the second "
                     "re-deal, no card can reach a foundation by any series of marriages.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        piles[STOCK] = tuple(shuffled(pack(2), deal))
        vs = [0, 0, -1]
        cls._deal_on(piles, vs, options)
        return State(tuple(piles), tuple(vs))

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def dealing(state: State) -> bool:
        """Whether the deal is still going on: cards remain in the pack."""
        return bool(state.piles[STOCK])

    @staticmethod
    def just(state: State) -> int:
        """The pile index of the packet the last card fell on, if it may still be played
        as a falling card (else -1)."""
        j = state.vars[V_JUST]
        return PACKETS.start + j if j >= 0 else -1

    def pending(self, state: State) -> int | None:
        """The packet whose top card, just fallen, begins a foundation and must be played
        before anything else is done."""
        i = self.just(state)
        if i >= 0 and state.piles[i] and is_base(state, state.piles[i][-1]):
            return i
        return None

    @staticmethod
    def _column_place(piles: list[tuple[Card, ...]] | tuple[tuple[Card, ...], ...],
                      card: Card) -> int | None:
        """FC-2, the other reading: the place of a beginning ace or king. The row of its
        suit if the other base of the suit is down, else the first row with both places
        empty; the aces' column is the left, the kings' the right."""
        col = 0 if card.rank == ACE else ROWS
        rows = [(piles[FOUNDS.start + r], piles[FOUNDS.start + ROWS + r]) for r in range(ROWS)]
        for r, (a, k) in enumerate(rows):
            if (a and a[0].suit is card.suit) or (k and k[0].suit is card.suit):
                return FOUNDS.start + col + r if not piles[FOUNDS.start + col + r] else None
        for r, (a, k) in enumerate(rows):
            if not a and not k:
                return FOUNDS.start + col + r
        return None

    def base_places(self, state: State, card: Card) -> list[int]:
        """The empty places a beginning ace or king may be played to."""
        if self.options.placement is Placement.COLUMNS:
            p = self._column_place(state.piles, card)
            return [p] if p is not None else []
        return [f for f in FOUNDS if not state.piles[f]]

    def deal_targets(self, state: State, i: int) -> list[int]:
        """The foundations the top card of packet ``i`` may go to under the rules of the
        deal (the corner or side restriction; a beginning ace or king to its places)."""
        card = state.piles[i][-1]
        if is_base(state, card):
            return self.base_places(state, card)
        pos = i - PACKETS.start
        places = FOUNDS if is_corner(pos) else (adjoining(pos),)
        return [f for f in places if state.piles[f] and fits(state, f, card)]

    def after_targets(self, state: State, i: int) -> list[int]:
        card = state.piles[i][-1]
        if is_base(state, card):
            return self.base_places(state, card)
        return [f for f in FOUNDS if state.piles[f] and fits(state, f, card)]

    @classmethod
    def _deal_on(cls, piles: list[tuple[Card, ...]], vs: list[int], options: Any) -> None:
        """Deal card by card to the end of the round, stopping when a card falls that must
        or may be played (the cards are judged as they fall, FC-1)."""
        game = cls(State(tuple(piles), tuple(vs)), options)
        while piles[STOCK]:
            pos = vs[V_DEALT] % PACKETS_N
            vs[V_DEALT] += 1
            i = PACKETS.start + pos
            piles[i] = piles[i] + piles[STOCK][-1:]
            piles[STOCK] = piles[STOCK][:-1]
            vs[V_JUST] = pos
            if game._settle(piles, vs) or vs[V_DEALT] % PACKETS_N == 0:
                break
        _close(piles, vs)

    def _settle(self, piles: list[tuple[Card, ...]], vs: list[int]) -> bool:
        """Judge the card that has just fallen on packet ``vs[V_JUST]``: a beginning ace or
        king is played at once where the reading puts it (with the next card falling in its
        stead, judged in turn) or waits for the player to choose its place. Returns whether
        the deal must stop for the player."""
        placed = False
        while True:
            i = PACKETS.start + vs[V_JUST]
            state = State(tuple(piles), tuple(vs))
            card = piles[i][-1]
            if not is_base(state, card):
                break
            if self.options.placement is not Placement.COLUMNS:
                return True
            f = self._column_place(piles, card)
            if f is None:  # only in a hand-made position with no room for it
                return True
            piles[i] = piles[i][:-1]
            piles[f] = (card,)
            placed = True
            if not piles[STOCK]:
                vs[V_JUST] = -1
                return False
            piles[i] = piles[i] + piles[STOCK][-1:]
            piles[STOCK] = piles[STOCK][:-1]
        state = State(tuple(piles), tuple(vs))
        if self.deal_targets(state, i):
            return True
        if placed and self.options.deal_plays is DealPlays.SURFACE:
            return any(piles[j] and self.deal_targets(state, j) for j in PACKETS)
        return False

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        pending = self.pending(state)
        if pending is not None:
            for f in self.base_places(state, piles[pending][-1]):
                yield Move.step(PILES[pending].id, PILES[f].id)
            return
        tops: dict[tuple[Suit, int], list[int]] = {}
        for i in PACKETS:
            if piles[i]:
                c = piles[i][-1]
                tops.setdefault((c.suit, c.rank), []).append(i)
        dealing = self.dealing(state)
        for i in PACKETS:
            if not piles[i]:
                continue
            sid = PILES[i].id
            for f in (self.deal_targets(state, i) if dealing else self.after_targets(state, i)):
                yield Move.step(sid, PILES[f].id)
            if not dealing:
                c = piles[i][-1]
                for r in (c.rank - 1, c.rank + 1):
                    for j in tops.get((c.suit, r), ()):
                        yield Move.step(sid, PILES[j].id)
        yield Move(action="deal")
        yield Move(action="redeal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if si == STOCK:
            return IllegalMove(ROUNDS, "The pack is dealt out in rounds, one card to each "
                               "packet in turn: deal on.")
        if si in FOUNDS:
            return IllegalMove(FOUNDATIONS, "Cards on the foundations stay there.")
        if di == STOCK:
            return IllegalMove(BOARD, "Nothing goes back to the pack.")
        # si is a packet.
        if not step.top:
            return IllegalMove(RULE_I, "Only the uppermost card of a packet is available; "
                               "the cards underneath are released as those that cover them "
                               "are removed, one at a time.")
        pending = self.pending(state)
        if pending is not None and (si != pending or di not in FOUNDS):
            base = state.piles[pending][-1]
            return IllegalMove(BASES, f"The {base.name} has just fallen and begins a "
                               "foundation: it must be played at once to its place in the "
                               "centre.")
        if di in FOUNDS:
            return self._refuse_play(state, si, di, card)
        # di is a packet: a marriage.
        if self.dealing(state):
            return IllegalMove(MARRIAGES, "Marriages are made only after the entire deal is "
                               "completed; during the deal cards go only to the "
                               "foundations.")
        target = state.piles[di]
        if not target:
            return IllegalMove(MARRIAGES, "That place is empty: marriages are made with cards "
                               "on the surface of the packets, and an emptied place is not "
                               "filled.")
        if not marries(card, target[-1]):
            return IllegalMove(MARRIAGES, f"The {card.name} cannot marry the "
                               f"{target[-1].name}: a marriage is a card of the same suit, "
                               "one rank above or below.")
        return None

    def _refuse_play(self, state: State, si: int, di: int, card: Card) -> IllegalMove | None:
        if is_base(state, card):
            places = self.base_places(state, card)
            if di in places:
                return None
            if state.piles[di]:
                return IllegalMove(FOUNDATIONS, f"The {card.name} begins a foundation of its "
                                   f"own: it goes to an empty place, not onto "
                                   f"{foundation_name(state, di)}.")
            return IllegalMove(BASES, f"Under the reading chosen the {card.name} goes to "
                               f"the {PILES[places[0]].label}." if places else
                               f"There is no place for the {card.name}.")
        refusal = self._refuse_foundation(state, di, card)
        if refusal is not None:
            return refusal
        if not self.dealing(state):
            return None
        # The rules of the deal.
        i = self.just(state)
        if self.options.deal_plays is DealPlays.FALLING and si != i:
            return IllegalMove(RULE_I, "During the deal a card may be played only as it falls; "
                               "the uppermost cards of the packets become available when the "
                               "deal is completed.")
        pos = si - PACKETS.start
        if not is_corner(pos) and di != adjoining(pos):
            return IllegalMove(SIDES, f"During the deal a card on the {PILES[si].label} may be "
                               f"played only to the foundation beside it, the "
                               f"{PILES[adjoining(pos)].label}.")
        return None

    def _refuse_foundation(self, state: State, f: int, card: Card) -> IllegalMove | None:
        """Why ``card`` (not one that begins a foundation) may not go on ``f``."""
        pile = state.piles[f]
        if not pile:
            if card.rank in (ACE, KING):
                kind = "ascending" if card.rank == ACE else "descending"
                return IllegalMove(FOUNDATIONS, f"The {kind} {card.suit.noun[:-1]} foundation "
                                   "is already begun: the four aces and the four kings are of "
                                   f"different suits, and this {card.name} can only end the "
                                   "pile going the other way.")
            return IllegalMove(FOUNDATIONS, "An empty place takes only an ace or a king: the "
                               "foundations are four aces and four kings.")
        base, top = pile[0], pile[-1]
        if card.suit is not base.suit:
            return IllegalMove(RULE_II, f"Each foundation must follow suit: "
                               f"{foundation_name(state, f)} takes only {base.suit.noun}.")
        if len(pile) == 13:
            return IllegalMove(FOUNDATIONS, f"{foundation_name(state, f).capitalize()} is "
                               "complete.")
        step = 1 if base.rank == ACE else -1
        if card.rank != top.rank + step:
            nxt = Card(top.rank + step, base.suit)
            how = "ascends" if step > 0 else "descends"
            return IllegalMove(FOUNDATIONS, f"{foundation_name(state, f).capitalize()} {how} "
                               f"in sequence: it needs the {nxt.name} next.")
        return None

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        pending = self.pending(state)
        if action == "deal":
            if not self.dealing(state):
                return IllegalMove(ROUNDS, "The entire pack has been dealt.")
            if pending is not None:
                base = state.piles[pending][-1]
                return IllegalMove(BASES, f"The {base.name} that has just fallen begins a "
                                   "foundation: play it at once before dealing on.")
            return None
        if action == "redeal":
            if self.dealing(state):
                return IllegalMove(REDEAL, "The packets are taken up and re-dealt only when "
                                   "the entire deal is completed and further progress is "
                                   "impossible.")
            if state.vars[V_REDEALS] >= REDEALS_ALLOWED:
                return IllegalMove(TWO_REDEALS, "There may be two re-deals, and both have "
                                   "been made.")
            if pending is not None:
                base = state.piles[pending][-1]
                return IllegalMove(BASES, f"The {base.name} that has just fallen begins a "
                                   "foundation: play it at once.")
            if not any(state.piles[i] for i in PACKETS):
                return IllegalMove(REDEAL, "The packets are empty: there is nothing to "
                                   "re-deal.")
            if self.options.redeal_timing is RedealTiming.NO_PLAY:
                for i in PACKETS:
                    if state.piles[i] and (places := self.after_targets(state, i)):
                        card = state.piles[i][-1]
                        where = ("begin a foundation" if is_base(state, card) else
                                 f"be played to {foundation_name(state, places[0])}")
                        return IllegalMove(REDEAL, f"Further progress is not yet impossible: "
                                           f"the {card.name} on the {PILES[i].label} can "
                                           f"{where}. The packets are taken up only when no "
                                           "more cards can be played.")
            return None
        return IllegalMove(BOARD, f"The Four Corners has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        vs = list(state.vars)
        if move.action == "deal":
            self._deal_on(piles, vs, self.options)
        elif move.action == "redeal":
            packets = [piles[i] for i in PACKETS]
            order = packets[::-1] if self.options.pickup is Pickup.UNDER else packets
            # The packets gathered face up (bottom to top), then turned over to be the pack.
            gathered = tuple(c for p in order for c in p)
            piles[STOCK] = gathered[::-1]
            for i in PACKETS:
                piles[i] = ()
            vs = [vs[V_REDEALS] + 1, 0, -1]
            self._deal_on(piles, vs, self.options)
        else:
            (src, dst), = move.steps
            si, di = self.pile_index(src), self.pile_index(dst)
            card = piles[si][-1]
            piles[si] = piles[si][:-1]
            piles[di] = piles[di] + (card,)
            if state.piles[STOCK] and di in FOUNDS:
                # Withdrawn in dealing: the next card of the pack falls in its stead.
                piles[si] = piles[si] + piles[STOCK][-1:]
                piles[STOCK] = piles[STOCK][:-1]
                vs[V_JUST] = si - PACKETS.start
                self._settle(piles, vs)
            elif si == self.just(state):
                vs[V_JUST] = -1  # the card that fell last is gone, and nothing replaces it
            _close(piles, vs)
        return State(tuple(piles), tuple(vs))

    def pack_move(self, state: State, legal: list[Move]) -> Move | None:
        """While the pack lasts a click on it deals on; once it is out, it asks for the
        re-deal, legal or not, so that a refusal says why (FC-13)."""
        if not self.dealing(state):
            return Move(action="redeal")
        return super().pack_move(state, legal)

    # ---- the end ---------------------------------------------------------------------
    def _foundation_play(self, state: State, packets: tuple[tuple[Card, ...], ...]) -> bool:
        """Whether some top card among ``packets`` can go to a foundation (after the deal)."""
        for p in packets:
            if p and any(fits(state, f, p[-1]) for f in FOUNDS):
                return True
        return False

    def _stuck(self, state: State) -> bool | None:
        """After the deal: True if no series of marriages brings a card to a foundation,
        False if one does, None if the search gave up (too many positions)."""
        def plays(s: State) -> bool:
            return self._foundation_play(s, tuple(s.piles[i] for i in PACKETS))

        def marriages(s: State) -> Iterator[tuple[int, int]]:
            for a in PACKETS:
                p = s.piles[a]
                if not p:
                    continue
                for b in PACKETS:
                    q = s.piles[b]
                    if a != b and q and marries(p[-1], q[-1]):
                        yield a, b

        return stuck_after(state, plays, marriages, SEARCH_LIMIT)

    def outcome_of(self, state: State) -> Outcome | None:
        if sum(len(state.piles[f]) for f in FOUNDS) == TOTAL:
            return Outcome.WON
        if (self.dealing(state) or self.pending(state) is not None
                or state.vars[V_REDEALS] < REDEALS_ALLOWED):
            return None  # the deal, or a re-deal, can always go on
        verdict = self.remembered(state, self._stuck)
        # Marriages can go round in circles for ever; after the last re-deal the game is
        # lost when no series of them brings any card to a foundation (FC-15).
        return Outcome.LOST if verdict else None

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = sum(len(state.piles[f]) for f in FOUNDS)
        redeals = state.vars[V_REDEALS]
        if out is Outcome.WON:
            return "Won: all 104 cards are on the foundations."
        if out is Outcome.LOST:
            return (f"No card can reach a foundation and there is no re-deal left: the "
                    f"patience has failed with {played} of 104 cards played.")
        deal_name = ("First deal", "Second deal (first re-deal)",
                     "Third deal (second re-deal)")[min(redeals, 2)]
        pending = self.pending(state)
        if self.dealing(state):
            dealt = state.vars[V_DEALT]
            parts = [deal_name, f"round {max(1, -(-dealt // PACKETS_N))}",
                     f"pack {plural(len(state.piles[STOCK]), 'card')}",
                     f"{played} of 104 on the foundations"]
            if pending is not None:
                parts.append(f"the {state.piles[pending][-1].name} must be played")
            else:
                i = self.just(state)
                if i >= 0 and state.piles[i] and self.deal_targets(state, i):
                    parts.append(f"the {state.piles[i][-1].name} may be played, or deal on")
            return " · ".join(parts)
        parts = [f"{deal_name} complete", f"{played} of 104 on the foundations"]
        if pending is not None:
            parts.append(f"the {state.piles[pending][-1].name} must be played")
        left = REDEALS_ALLOWED - redeals
        parts.append(f"{plural(left, 're-deal')} left" if left else "no re-deal left")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "deal":
            return "The deal goes on."
        if move.action == "redeal":
            n = state.vars[V_REDEALS] + 1
            return f"The twelve packets are taken up in order and re-dealt (re-deal {n} of 2)."
        (src, dst), = move.steps
        card = self.card_at(state, src)
        name = card.name if card else "a card"
        di = self.pile_index(dst)
        if di in FOUNDS:
            if not state.piles[di]:
                return f"The {name} begins a foundation in the {self.label(dst)}."
            return (f"The {name} is played from the {self.label(src)} to "
                    f"{foundation_name(state, di)}.")
        return f"The {name} is married from the {self.label(src)} to the {self.label(dst)}."

"""The Besieged City (two packs), by the book: 1914 printing, plate p. 40, text pp. 41–42.

Piles, laid out as the plate draws them: the Reserve, twelve single cards in four rows of three,
upright; round it the Ramparts, an "outside row" of fourteen packets dealt crossways, three above
the columns, four on either side of the rows and three below the columns; at the four corners,
the foundations, one for each suit, each built from an ace in the order ace, king, two, queen,
three, knave ... seven, seven ... queen, two, king, ace (twenty-six cards); the pack and the
talon.

Each row and each column of the Reserve is a *line*, and the two Ramparts at its ends are the
ends of that line: a Reserve card may be placed on the top card of a Rampart at an end of its
row or of its column (Rule III), and a Rampart that falls vacant is filled at once with any
Reserve card of the line whose end it is (Rule IV). A Reserve vacancy is filled at once from the
talon, or from the pack when there is no talon (Rule V). Cards on the Ramparts go on each other,
in suit, one rank up or down, or in the pairs the foundations take one after the other
(Rule II, ``note-bc-1``). Only Rampart cards and cards turned from the pack are played; talon
cards pass through the Reserve, and Reserve cards into the Ramparts, first (Rule I). When the
pack and the talon are both used up, a Reserve card that cannot be transferred may change
places within the Reserve so that it can be. See the chapter page for the text each rule id
points at, and its editorial notes (``note-bc-N``) for the readings behind the option.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, RANK_NAMES, SUITS, Card, pack
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

SLUG = "the-besieged-city"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_1 = _rule("rule-1")                # foundations from Ramparts and pack; talon via Reserve
RULE_2 = _rule("rule-2")                # Ramparts on each other: sequences or played order, suit
TRANSFER = _rule("transfer")            # Rampart to Rampart at discretion, top card alone
RULE_3 = _rule("rule-3")                # Reserve cards only on the ends or sides of their line
NOTE_3 = _rule("note-3")                # the four of clubs only on A, B, C or D
RULE_4 = _rule("rule-4")                # Rampart vacancies from the Reserve, the line's cards
NOTE_4 = _rule("note-4")                # B or D from column 1, A or C from row 1
RULE_5 = _rule("rule-5")                # Reserve vacancies from the talon, else the pack
RULE_6 = _rule("rule-6")                # the foundations must follow suit
DEAL = _rule("deal")                    # twelve cards in four rows of three
RAMPARTS = _rule("ramparts")            # an outside row of fourteen crossways: the Ramparts
FOUNDATIONS = _rule("foundations")      # four aces of different suits
ORDER = _rule("order")                  # kings, deuces, queens, threes ... ending with aces
PLAY_AND_FILL = _rule("play-and-fill")  # play from the Ramparts, filling each vacancy at once
THEN_TRANSFER = _rule("then-transfer")  # then transfer, as in Rules II and III
DEAL_OUT = _rule("deal-out")            # deal out the pack; unsuitable cards to the talon
TRANSPOSE = _rule("transpose")          # at the end, Reserve cards may be transposed
BOARD = _rule("board")                  # the board itself (notation errors, empty places)

ROWS, COLUMNS = 4, 3
TOTAL = 104
#: The order in which a foundation takes its cards: the ascending and descending sequences
#: alternately, from an ace to an ace (twenty-six cards, both copies of each card of a suit).
FOUNDATION_ORDER: tuple[int, ...] = tuple(
    (k // 2 + 1) if k % 2 == 0 else (KING - k // 2) for k in range(26))
FOUNDATION_FULL = len(FOUNDATION_ORDER)
SEARCH_LIMIT = 3000  # positions explored at most when judging whether a game is lost


class Pairs(Enum):
    """BC-1: which cards, besides those next in rank, go on each other "in the order in which
    they will be played"."""

    FOURTEEN = "fourteen"      # the couples taken together: ace–king, two–queen ... seven–seven
    NEIGHBOURS = "neighbours"  # any two cards next to each other in the foundation's order


@dataclass(frozen=True, slots=True)
class BesiegedCityOptions:
    pairs: Pairs = option(
        Pairs.FOURTEEN, note="note-bc-1", label="“In the order in which they will be played”",
        labels={Pairs.FOURTEEN: "the couples ace–king, two–queen, three–knave … seven–seven",
                Pairs.NEIGHBOURS: "also king–two, queen–three … eight–seven: any two cards "
                                  "the foundation takes one after the other"})


# ---------------------------------------------------------------------------- the layout
#
# Positions are the top-left corner of a card's upright box, in card slots (a slot is 1 wide
# and 1.36 slot-widths high on the board; a card 0.9 by 1.26). A rotated card turns about the
# centre of its box. As in the plate: the Reserve upright in the middle; the Ramparts crossways
# round it, each at the end of a row or a column; the foundations at the four corners. A
# Rampart packet fans a little outwards, away from the Reserve, so that the edges of the cards
# beneath its top card show (at most ``FAN_OUT`` slot widths); its base card stays in place.

_ROW = 1.36
_CARD_W, _CARD_H, _GAP = 0.9, 1.26, 0.14
FAN_OUT = 0.22
_STEP = _CARD_H + _GAP                 # between rows and between columns of the Reserve
_OUT = _CARD_W / 2 + _GAP + _CARD_H / 2  # from a Reserve card's centre to its Rampart's
_X1 = _OUT + _CARD_H / 2 + FAN_OUT + 0.04  # the first Reserve column's centre
_Y1 = _OUT + _CARD_W / 2 + FAN_OUT + 0.06  # the first Reserve row's centre


def _box(cx: float, cy: float) -> tuple[float, float]:
    """The upright box's corner (x, y in slots) of a card centred on (cx, cy) slot widths."""
    return (round(cx - 0.5, 3), round((cy - _CARD_H / 2) / _ROW, 3))


def _col_x(c: int) -> float:
    return _X1 + c * _STEP


def _row_y(r: int) -> float:
    return _Y1 + r * _STEP


_LEFT_X, _RIGHT_X = _col_x(0) - _OUT, _col_x(COLUMNS - 1) + _OUT
_TOP_Y, _FOOT_Y = _row_y(0) - _OUT, _row_y(ROWS - 1) + _OUT
#: The foundations' corners: beside the top and bottom Ramparts, level with their outer
#: edges, as the plate sets them a little beyond the Ramparts' corners.
_CORNER_Y = (_TOP_Y - _CARD_W / 2 + _CARD_H / 2 - 0.22, _FOOT_Y + _CARD_W / 2 - _CARD_H / 2 + 0.22)
_CORNER_X = (_LEFT_X, _RIGHT_X)

#: The plate's letters for four Ramparts (Notes to Rules III and IV).
_LETTERS = {"w1": "A", "n1": "B", "e1": "C", "s1": "D"}


#: Each side's fan, before the quarter turn that lays the card crossways (a fan downwards
#: turns to the left, and so on), and its limit in card heights or widths.
_FANS = {"top": (Fan.LEFT, FAN_OUT / _CARD_W), "left": (Fan.DOWN, FAN_OUT / _CARD_H),
         "right": (Fan.UP, FAN_OUT / _CARD_H), "bottom": (Fan.RIGHT, FAN_OUT / _CARD_W)}


def _rampart(pid: str, side: str, k: int, cx: float, cy: float) -> PileSpec:
    where = f"column {k + 1}" if side in ("top", "bottom") else f"row {k + 1}"
    letter = _LETTERS.get(pid)
    label = f"{side} Rampart, {where}" + (f" ({letter})" if letter else "")
    x, y = _box(cx, cy)
    fan, limit = _FANS[side]
    mark = f"{side} {k + 1}" + (f" ({letter})" if letter else "")
    return PileSpec(pid, label, Role.TABLEAU, x, y, fan, rotate=90,
                    fan_limit=round(limit, 3), mark=mark)


def _foundation(k: int) -> PileSpec:
    x, y = _box(_CORNER_X[k % 2], _CORNER_Y[k // 2])
    return PileSpec(f"f{k + 1}", f"{SUITS[k].noun} foundation", Role.FOUNDATION, x, y,
                    mark=SUITS[k].symbol)


_PACK_X = _RIGHT_X + _CARD_H / 2 + FAN_OUT + 0.2 + _CARD_W / 2

PILES: tuple[PileSpec, ...] = (
    tuple(_foundation(k) for k in range(4))
    + tuple(_rampart(f"n{c + 1}", "top", c, _col_x(c), _TOP_Y) for c in range(COLUMNS))
    + tuple(_rampart(f"w{r + 1}", "left", r, _LEFT_X, _row_y(r)) for r in range(ROWS))
    + tuple(_rampart(f"e{r + 1}", "right", r, _RIGHT_X, _row_y(r)) for r in range(ROWS))
    + tuple(_rampart(f"s{c + 1}", "bottom", c, _col_x(c), _FOOT_Y) for c in range(COLUMNS))
    + tuple(PileSpec(f"r{r + 1}{c + 1}", f"Reserve, row {r + 1}, column {c + 1}", Role.RESERVE,
                     *_box(_col_x(c), _row_y(r)), mark=f"row {r + 1}, col. {c + 1}")
            for r in range(ROWS) for c in range(COLUMNS))
    + (PileSpec("stock", "the pack", Role.STOCK, *_box(_PACK_X, _CORNER_Y[1])),
       PileSpec("talon", "the talon", Role.TALON, *_box(_PACK_X + 1.0, _CORNER_Y[1])))
)

FOUNDS = range(0, 4)
NORTH = range(4, 7)
WEST = range(7, 11)
EAST = range(11, 15)
SOUTH = range(15, 18)
RAMPART_PILES = range(4, 18)
RESERVE = range(18, 30)
STOCK = 30
TALON = 31
assert len(PILES) == TALON + 1
_TRACKED = (*RAMPART_PILES, *RESERVE)
_TRACKED_AT = {i: n for n, i in enumerate(_TRACKED)}


def reserve_at(r: int, c: int) -> int:
    """The pile index of the Reserve place in row ``r``, column ``c`` (from 0)."""
    return RESERVE.start + COLUMNS * r + c


#: Each Rampart's line: the Reserve places of the row or column whose end it is.
LINE: dict[int, tuple[int, ...]] = {}
for _c in range(COLUMNS):
    LINE[NORTH[_c]] = LINE[SOUTH[_c]] = tuple(reserve_at(r, _c) for r in range(ROWS))
for _r in range(ROWS):
    LINE[WEST[_r]] = LINE[EAST[_r]] = tuple(reserve_at(_r, c) for c in range(COLUMNS))
#: Each Reserve place's four Ramparts: the ends of its row and of its column.
ENDS: dict[int, tuple[int, ...]] = {
    reserve_at(r, c): (WEST[r], EAST[r], NORTH[c], SOUTH[c])
    for r in range(ROWS) for c in range(COLUMNS)}

#: The order in which the fourteen Ramparts are dealt: clockwise from the top left (BC-12).
RAMPART_DEAL = (*NORTH, *EAST, *reversed(SOUTH), *reversed(WEST))


def _narrow_layout() -> Layout:
    """For a phone: the city as on the plate, the pack and the talon below it."""
    y = _FOOT_Y + _CARD_W / 2 + FAN_OUT + _GAP + _CARD_H / 2
    at = {"stock": (*_box(_col_x(0) + 0.55, y), 0), "talon": (*_box(_col_x(2) - 0.55, y), 0)}
    width = _RIGHT_X + _CARD_H / 2 + FAN_OUT + 0.04
    return Layout(name="narrow", max_width=560,
                  grid=(round(width, 3), round((y + _CARD_H / 2 + 0.05) / _ROW, 3)),
                  at=at)


_GRID_W = round(_PACK_X + 1.0 + _CARD_W / 2 + 0.1, 3)
_GRID_H = round((_CORNER_Y[1] + _CARD_H / 2 + 0.05) / _ROW, 3)


# ---------------------------------------------------------------------------- rules

def needs(foundation: tuple[Card, ...]) -> int | None:
    """The rank a foundation takes next (None when it is complete)."""
    n = len(foundation)
    return FOUNDATION_ORDER[n] if n < FOUNDATION_FULL else None


def _an(rank: int) -> str:
    word = RANK_NAMES[rank]
    return ("an " if word[0] in "aeio" else "a ") + word


class TheBesiegedCity(Game):
    slug = SLUG
    title = "The Besieged City"
    packs = 2
    Options = BesiegedCityOptions
    PILES = PILES
    GRID = (_GRID_W, _GRID_H)
    LAYOUTS = (_narrow_layout(),)
    DIAGRAM_DEAL = 14  # no ace among the Ramparts and two in the Reserve, as on the plate
    FIGURES = (
        Figure("tableau", "The Besieged City after the deal, in modern cards.",
               "The tableau of The Besieged City just after the deal, drawn in modern cards: "
               "the Reserve, twelve upright cards in four rows of three, in the middle; round "
               "it the fourteen Ramparts lying crossways, three above the columns, four to the "
               "left and four to the right of the rows, and three below the columns; at the "
               "four corners, empty places for the foundations. The pack and the talon are "
               "not shown.",
               piles=tuple(p.id for p in PILES if p.id not in ("stock", "talon"))),
    )
    ACTIONS = (ActionSpec("deal", "Deal a card", "d", DEAL_OUT),)
    LEDGER = {
        RULE_1: "Only the top card of a Rampart, or a card as it is turned from the pack, goes "
                "to a foundation; a Reserve card or a talon card sent there is refused, and a "
                "talon card leaves the talon only to fill a Reserve vacancy.",
        RULE_2: "A Rampart card may go on another Rampart card of its suit one rank above or "
                "below it, or forming with it a couple the foundation takes together (ace–king, "
                "two–queen … seven–seven; under BC-1’s other reading also king–two, "
                "queen–three … eight–seven), either card on the other; anything else is refused.",
        TRANSFER: "The top card of any Rampart packet may be moved to any other packet it "
                  "suits, at any time; a card beneath it is refused.",
        RULE_3: "A Reserve card may go, under Rule II’s terms, on the top card of one of the "
                "four Ramparts at the ends of its row and its column, and on no other.",
        NOTE_3: "On the plate’s position the four of clubs at the head of the first column "
                "may go only to A, B, C or D, and of these only on the three of clubs at D.",
        RULE_4: "An emptied Rampart must be filled before anything else is done, with any "
                "Reserve card of the row or column whose end it is, as the player chooses; "
                "when that line of the Reserve is empty it waits.",
        NOTE_4: "On the plate’s position B and D are filled only from the first column, A and "
                "C only from the first row.",
        RULE_5: "An emptied Reserve place is filled at once with the talon’s top card, or, "
                "when the talon is empty, with the pack’s, which stays there even if its "
                "foundation wants it; when both are used up the place stays empty.",
        RULE_6: "Each foundation place takes only its own suit.",
        DEAL: "The deal lays twelve cards face up in four rows of three, the Reserve, each "
              "row from left to right.",
        RAMPARTS: "Fourteen more are dealt crossways round the Reserve, clockwise from the top "
                  "left, one at each end of every row and column: the Ramparts.",
        FOUNDATIONS: "An empty foundation place takes only the ace of its suit; the second "
                     "ace of a suit can only end it.",
        ORDER: "Each foundation takes, after its ace, the king, two, queen, three and so on, "
               "ascending and descending alternately, to the seven and seven and on to the "
               "king and the last ace: twenty-six cards; cards played stay there.",
        PLAY_AND_FILL: "A Rampart card that suits its foundation may be played at any time; "
                       "while an emptied Rampart waits to be filled, every other move is "
                       "refused.",
        THEN_TRANSFER: "Transfers among the Ramparts and from the Reserve may be made at any "
                       "time, before, during and after the deal-out.",
        DEAL_OUT: "“Deal a card” turns the pack’s top card, whenever the player likes: a card "
                  "that suits its foundation is played at once, any other goes on the talon; "
                  "there is no re-deal.",
        TRANSPOSE: "Once the pack and the talon are both used up, a Reserve card that cannot be "
                   "transferred where it lies may move to another Reserve place, or change "
                   "places with its card, if it can be transferred from there; earlier, or "
                   "for any other card, it is refused.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        stock = shuffled(pack(2), deal)
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for i in RESERVE:  # four rows of three, each from left to right
            piles[i] = (stock.pop(),)
        for i in RAMPART_DEAL:
            piles[i] = (stock.pop(),)
        piles[STOCK] = tuple(stock)
        return State(tuple(piles), ())

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        for k in FOUNDS:
            pile = p[k]
            if any(c.suit is not SUITS[k] for c in pile):
                raise PositionError(f"{PILES[k].label} holds a card of another suit")
            if any(c.rank != FOUNDATION_ORDER[n] for n, c in enumerate(pile)):
                raise PositionError(f"{PILES[k].label} is not built in its order")
        if any(len(p[i]) > 1 for i in RESERVE):
            raise PositionError("a Reserve place holds more than one card")
        if (p[STOCK] or p[TALON]) and any(not p[i] for i in RESERVE):
            raise PositionError("a Reserve vacancy has not been filled from the talon or pack")
        for i in RAMPART_PILES:
            pile = p[i]
            for k in range(1, len(pile)):
                if not joins(pile[k], pile[k - 1], options.pairs):
                    raise PositionError(f"the {PILES[i].label} is not built by Rule II")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def pending(self, state: State) -> list[int]:
        """Emptied Ramparts that Rule IV requires to be filled now: those whose line of the
        Reserve has a card to give."""
        p = state.piles
        return [i for i in RAMPART_PILES if not p[i] and any(p[j] for j in LINE[i])]

    def fits(self, state: State, card: Card) -> int | None:
        """The foundation that takes ``card`` next, if any."""
        f = SUITS.index(card.suit)
        return f if needs(state.piles[f]) == card.rank else None

    def transferable(self, piles: tuple[tuple[Card, ...], ...] | list[tuple[Card, ...]],
                     place: int, card: Card) -> bool:
        """Whether ``card``, lying at Reserve ``place``, could go to one of the Ramparts at the
        ends of its lines: on a top card it suits, or into an emptied Rampart."""
        return any(not piles[e] or joins(card, piles[e][-1], self.options.pairs)
                   for e in ENDS[place])

    def end_game(self, state: State) -> bool:
        """Whether the talon is exhausted and all the cards have been dealt."""
        return not state.piles[STOCK] and not state.piles[TALON]

    # ---- rules -----------------------------------------------------------------------
    def steps(self, state: State) -> Iterator[tuple[int, int]]:
        """Every legal one-card move, as (source pile, destination pile)."""
        p = state.piles
        pairs = self.options.pairs
        waiting = self.pending(state)
        if waiting:
            for v in waiting:
                for j in LINE[v]:
                    if p[j]:
                        yield j, v
            return
        for i in RAMPART_PILES:
            if not p[i]:
                continue
            card = p[i][-1]
            f = self.fits(state, card)
            if f is not None:
                yield i, f
            for j in RAMPART_PILES:
                if j != i and p[j] and joins(card, p[j][-1], pairs):
                    yield i, j
        for i in RESERVE:
            if not p[i]:
                continue
            card = p[i][0]
            for e in ENDS[i]:
                if p[e] and joins(card, p[e][-1], pairs):
                    yield i, e
        if self.end_game(state):
            for i in RESERVE:
                if p[i] and not self.transferable(p, i, p[i][0]):
                    for j in RESERVE:  # (the Ramparts do not change when it moves)
                        if j != i and self.transferable(p, j, p[i][0]):
                            yield i, j

    def candidate_moves(self, state: State) -> Iterator[Move]:
        """Exactly the legal moves (the tests check each against ``refusal``)."""
        for si, di in self.steps(state):
            yield Move.step(PILES[si].id, PILES[di].id)
        if state.piles[STOCK] and not self.pending(state):
            yield Move(action="deal")

    def legal_in(self, state: State) -> list[Move]:
        return list(self.candidate_moves(state))

    def has_legal_move(self, state: State) -> bool:
        return next(iter(self.candidate_moves(state)), None) is not None

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        p = state.piles
        si, di, card = step.src, step.dst, step.card
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        # where the card comes from
        if si == STOCK:
            return IllegalMove(DEAL_OUT, "The pack is dealt out one card at a time: use "
                               "“Deal a card”.")
        if si == TALON:
            return IllegalMove(RULE_1, "Cards from the talon must pass through the Reserve: "
                               "the talon’s top card leaves it only to fill a vacancy in the "
                               "Reserve (Rule V), which happens by itself.")
        if si in FOUNDS:
            return IllegalMove(ORDER, "Cards played on the foundations stay there.")
        if not step.top:
            return IllegalMove(TRANSFER, "In the Ramparts the top card of each packet is alone "
                               "available.")
        # where it goes
        if di in (STOCK, TALON):
            return IllegalMove(DEAL_OUT, "Nothing goes back to the pack, and only cards dealt "
                               "from the pack that suit no foundation are placed in the "
                               "talon.")
        if di in RAMPART_PILES and not p[di]:
            return self._refuse_fill(state, si, di, card)
        waiting = self.pending(state)
        if waiting:
            return self._unfilled(waiting)
        if si in RESERVE:
            return self._refuse_from_reserve(state, si, di, card)
        # a Rampart card
        if di in FOUNDS:
            return self._refuse_play(state, di, card)
        if di in RESERVE:
            return IllegalMove(RULE_5, "The Reserve is filled only from the talon or the pack; "
                               "Rampart cards never go into it.")
        top = p[di][-1]
        if not joins(card, top, self.options.pairs):
            return IllegalMove(RULE_2, self._mismatch(card, top))
        return None

    def _mismatch(self, card: Card, top: Card) -> str:
        if card.suit is not top.suit:
            return (f"Cards in the Ramparts must be of the same suit: the {top.name} takes "
                    f"only {top.suit.noun}.")
        takes = sorted(partners(top.rank, self.options.pairs))
        names = ", ".join(RANK_NAMES[r] for r in takes[:-1]) + f" or {RANK_NAMES[takes[-1]]}"
        return (f"The {top.name} takes only the {names} of {top.suit.noun}: a card next to it "
                f"in sequence, or one the foundation takes just before or after it.")

    def _refuse_fill(self, state: State, si: int, di: int, card: Card) -> IllegalMove | None:
        """A card sent to an emptied Rampart (Rule IV)."""
        if si not in RESERVE:
            return IllegalMove(RULE_4, "Vacancies in the Ramparts are filled from the Reserve, "
                               f"not from {'a foundation' if si in FOUNDS else 'the Ramparts'}.")
        if si not in LINE[di]:
            return IllegalMove(RULE_4, f"The {PILES[di].label} is filled only with a card of "
                               "the row or column of the Reserve at whose end it lies; the "
                               f"{card.name} lies in neither.")
        return None

    def _unfilled(self, waiting: list[int]) -> IllegalMove:
        names = " and ".join(PILES[i].label for i in waiting[:2])
        return IllegalMove(PLAY_AND_FILL, f"Each vacancy must be filled as it occurs: first "
                           f"fill the {names} from its line of the Reserve.")

    def _refuse_from_reserve(self, state: State, si: int, di: int,
                             card: Card) -> IllegalMove | None:
        p = state.piles
        if di in FOUNDS:
            return IllegalMove(RULE_1, "The Reserve must pass into the Ramparts before its "
                               "cards can be played.")
        if di in RESERVE:
            return self._refuse_transposition(state, si, di, card)
        if di not in ENDS[si]:
            return IllegalMove(RULE_3, f"A Reserve card goes only on the cards at the ends of "
                               f"its row or its column: the {card.name} may go to the "
                               f"{_ends_named(si)}.")
        top = p[di][-1]
        if not joins(card, top, self.options.pairs):
            return IllegalMove(RULE_3, "Reserve cards are placed on the Ramparts in the same "
                               "way as Rampart cards on each other. "
                               + self._mismatch(card, top))
        return None

    def _refuse_transposition(self, state: State, si: int, di: int,
                              card: Card) -> IllegalMove | None:
        p = state.piles
        if not self.end_game(state):
            return IllegalMove(TRANSPOSE, "Reserve cards may be transposed only at the end of "
                               "the patience, when the talon is exhausted and all the cards "
                               "have been dealt.")
        if self.transferable(p, si, card):
            return IllegalMove(TRANSPOSE, f"The {card.name} can be transferred to the Ramparts "
                               "from where it lies; only cards that cannot be are transposed.")
        if not self.transferable(p, di, card):
            return IllegalMove(TRANSPOSE, f"From the {PILES[di].label} the {card.name} could "
                               "not be transferred to the Ramparts either: cards are "
                               "transposed only to effect a transfer.")
        return None

    def _refuse_play(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        suit = SUITS[f]
        if card.suit is not suit:
            return IllegalMove(RULE_6, f"The foundations must follow suit: the {PILES[f].label} "
                               f"takes only {suit.noun}.")
        want = needs(pile)
        if want == card.rank:
            return None
        if not pile:
            return IllegalMove(FOUNDATIONS, f"The foundation cards are aces: the "
                               f"{PILES[f].label} begins with the ace of {suit.noun}.")
        if want is None:
            return IllegalMove(ORDER, f"The {PILES[f].label} is complete: it has ended with "
                               "its second ace.")
        return IllegalMove(ORDER, f"The {PILES[f].label} takes its cards in the order ace, "
                           f"king, two, queen, three and so on: it needs {_an(want)} next.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "deal":
            waiting = self.pending(state)
            if waiting:
                return self._unfilled(waiting)
            if not state.piles[STOCK]:
                return IllegalMove(DEAL_OUT, "All the cards have been dealt, and the chapter "
                                   "allows no re-deal.")
            return None
        if action == "redeal":
            return IllegalMove(DEAL_OUT, "The pack is dealt out once; the chapter allows no "
                               "re-deal.")
        return IllegalMove(BOARD, f"The Besieged City has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        if move.action == "deal":
            card = piles[STOCK][-1]
            piles[STOCK] = piles[STOCK][:-1]
            f = self.fits(state, card)
            if f is not None:  # a suitable card is played; the others go to the talon
                piles[f] = piles[f] + (card,)
            else:
                piles[TALON] = piles[TALON] + (card,)
            _refill_reserve(piles)
            return State(tuple(piles), ())
        (src, dst), = move.steps
        return self.step_state(state, self.pile_index(src), self.pile_index(dst))

    @staticmethod
    def step_state(state: State, si: int, di: int) -> State:
        """The state after a legal one-card move from pile ``si`` to pile ``di``, the Reserve
        refilled (Rule V)."""
        piles = list(state.piles)
        if si in RESERVE and di in RESERVE:  # a transposition: move, or change places
            piles[si], piles[di] = piles[di], piles[si]
        else:
            piles[di] = piles[di] + piles[si][-1:]
            piles[si] = piles[si][:-1]
        _refill_reserve(piles)
        return State(tuple(piles), ())

    # ---- the end ---------------------------------------------------------------------
    def _reachable_play(self, state: State) -> bool | None:
        """With the pack used up: True if some series of moves brings a card to a
        foundation, False if none does, None if the search cannot tell without looking
        below the talon's top card, or gave up (too many positions)."""
        talon_at_start = len(state.piles[TALON])
        # Positions are told apart by the cards of the Ramparts and the Reserve and by the
        # talon's length (the foundations do not change before a play, which ends the
        # search). Cards are keyed by a small number, found once for each card object: the
        # moves only carry the same objects from pile to pile.
        code = {id(c): 4 * c.rank + SUITS.index(c.suit) for c in state.all_cards()}

        def packed(s: State, i: int) -> bytes:
            return bytes([code[id(c)] for c in s.piles[i]])

        Key = tuple[bytes | int, ...]
        start: Key = (*(packed(state, i) for i in _TRACKED), talon_at_start)
        seen = {start}
        todo: list[tuple[State, Key]] = [(state, start)]
        while todo:
            s, k = todo.pop()
            for si, di in self.steps(s):
                if di in FOUNDS:
                    return True
                if (si in RESERVE and di not in RESERVE and s.piles[TALON]
                        and len(s.piles[TALON]) < talon_at_start):
                    return None  # the refill would bring a card not yet seen
                t = self.step_state(s, si, di)
                # A move changes its two piles (and, by a refill, the talon's length).
                changed = list(k)
                changed[_TRACKED_AT[si]] = packed(t, si)
                changed[_TRACKED_AT[di]] = packed(t, di)
                changed[-1] = len(t.piles[TALON])
                kt = tuple(changed)
                if kt not in seen:
                    if len(seen) >= SEARCH_LIMIT:
                        return None
                    seen.add(kt)
                    todo.append((t, kt))
        return False

    def outcome_of(self, state: State) -> Outcome | None:
        if sum(len(state.piles[f]) for f in FOUNDS) == TOTAL:
            return Outcome.WON
        if state.piles[STOCK]:
            return None  # a card can always be dealt (after filling a vacancy)
        verdict = self.remembered(state, self._reachable_play)
        # Cards can be moved back and forth among the Ramparts for ever: the game is lost when
        # no series of moves can bring a card to a foundation.
        return Outcome.LOST if verdict is False else None

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = sum(len(state.piles[f]) for f in FOUNDS)
        if out is Outcome.WON:
            return "Won: all four foundations run from ace to ace."
        if out is Outcome.LOST:
            return (f"Nothing more can reach the foundations: the patience has failed with "
                    f"{played} of 104 cards played.")
        stock, talon = len(state.piles[STOCK]), len(state.piles[TALON])
        parts = [f"Pack: {plural(stock, 'card')}" if stock else "All the cards are dealt",
                 f"talon: {plural(talon, 'card')}" if talon or stock else "the talon is "
                 "exhausted",
                 f"{played} of 104 on the foundations"]
        waiting = self.pending(state)
        if waiting:
            parts.append(f"fill the {PILES[waiting[0]].label} from the Reserve")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "deal":
            if not state.piles[STOCK]:
                return "A card is dealt."
            turned = state.piles[STOCK][-1]
            if self.fits(state, turned) is not None:
                return f"The {turned.name} is dealt and played on its foundation."
            return f"The {turned.name} is dealt onto the talon."
        (src, dst), = move.steps
        si, di = self.pile_index(src), self.pile_index(dst)
        card = self.card_at(state, src)
        name = card.name if card else "a card"
        if di in FOUNDS:
            return f"The {name} is played from the {self.label(src)}."
        if si in RESERVE and di in RESERVE:
            other = state.piles[di]
            if other:
                return f"The {name} and the {other[0].name} change places in the Reserve."
            return f"The {name} is transposed to the {self.label(dst)}."
        if not state.piles[di]:
            return f"The {name} fills the vacancy in the {self.label(dst)}."
        return f"The {name} is placed from the {self.label(src)} on the {self.label(dst)}."


def partners(rank: int, pairs: Pairs) -> frozenset[int]:
    """The ranks that may go on a card of ``rank`` (same suit), or that it may go on: next in
    sequence, or the couple the foundation takes with it (Rule II)."""
    return _PARTNERS[pairs][rank]


def _partners(rank: int, pairs: Pairs) -> frozenset[int]:
    out = {r for r in (rank - 1, rank + 1) if ACE <= r <= KING}
    out.add(14 - rank)
    if pairs is Pairs.NEIGHBOURS and ACE <= 15 - rank <= KING:
        out.add(15 - rank)
    return frozenset(out)


_PARTNERS: dict[Pairs, dict[int, frozenset[int]]] = {
    pairs: {rank: _partners(rank, pairs) for rank in range(ACE, KING + 1)} for pairs in Pairs}


def joins(card: Card, top: Card, pairs: Pairs) -> bool:
    """Rule II: whether ``card`` may be placed on ``top``: of the same suit, and next to it in
    sequence, up or down, or in the order in which they will be played (BC-1)."""
    return card.suit is top.suit and card.rank in _PARTNERS[pairs][top.rank]


def _ends_named(place: int) -> str:
    e = ENDS[place]
    return f"{PILES[e[0]].label}, {PILES[e[1]].label}, {PILES[e[2]].label} or {PILES[e[3]].label}"


def _refill_reserve(piles: list[tuple[Card, ...]]) -> None:
    """Rule V: each empty Reserve place takes the talon's top card, or the pack's when there is
    no talon; with neither, it stays empty."""
    for i in RESERVE:
        if not piles[i]:
            for src in (TALON, STOCK):
                if piles[src]:
                    piles[i] = piles[src][-1:]
                    piles[src] = piles[src][:-1]
                    break


"""The Constitution (two packs), by the book: 1914 printing, plate p. 50, text pp. 51–52.

Piles: the Sovereign (the queen of diamonds), the eight kings (Bishops and Judges) and the
seven queens thrown aside, which never move; the eight aces (the "Government"), each built
up in suit to the knave; the Constitution, four rows of eight places (from the bottom: the
People, the House of Commons, the House of Lords, the Privy Council); the pack and the
talon. See the chapter page for the text each rule id points at, and its editorial notes
(``note-co-N``) for the readings behind the options.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, KNAVE, QUEEN, RANK_NAMES, Card, Suit, pack
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

SLUG = "the-constitution"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_1 = _rule("rule-1")            # foundations only from the Privy Council; all must ascend
RULE_2 = _rule("rule-2")            # placed in sequence on the division next above
RULE_3 = _rule("rule-3")            # the top card only of each sequence is available
RULE_4 = _rule("rule-4")            # sequences descend in alternate colours
RULE_5 = _rule("rule-5")            # each vacancy filled at once from the division below
RULE_6 = _rule("rule-6")            # the foundations must follow suit
WITHDRAW = _rule("withdraw")        # kings, queens, aces withdrawn; seven queens thrown aside
FOUNDATIONS = _rule("foundations")  # the aces ascend in sequence to knaves
DEAL = _rule("deal")                # deal out the rest of the pack, forming the talon
ROWS_DEALT = _rule("rows")          # four rows of eight, dealt beginning with the lowest
PLAY_THEM = _rule("play-them")      # suitable Privy Council cards played, vacancies refilled
BOARD = _rule("board")              # the board itself (notation errors, empty places)

COLUMNS = 8
#: The divisions, from the lowest row up.
DIVISIONS = ("People", "House of Commons", "House of Lords", "Privy Council")
_ROW_IDS = ("pp", "hc", "hl", "pc")
_MARKS = ("People", "H. C.", "H. L.", "P. C.")  # short enough for a phone's card
PEOPLE, COMMONS, LORDS, PRIVY = range(4)

THE_SOVEREIGN = Card(QUEEN, Suit.DIAMONDS)
_S, _H, _D, _C = Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS
#: The aces of the inner ring and the kings of the outer ring, clockwise from the top, as in
#: the plate (the black aces' suits cannot be read there: spades above and below, clubs at
#: the sides).
ACES: tuple[Card, ...] = tuple(Card(ACE, s) for s in (_S, _H, _C, _D, _S, _H, _C, _D))
KINGS: tuple[Card, ...] = tuple(Card(KING, s) for s in (_H, _C, _D, _S, _H, _C, _D, _S))
THROWN_ASIDE: tuple[Card, ...] = tuple(Card(QUEEN, s) for s in (_D, _H, _H, _C, _C, _S, _S))


class Column(Enum):
    """Which places of the division next above (or below) a card may go to."""

    ANY = "any"    # any place of that division
    SAME = "same"  # only the place directly above (or below), in the same column


@dataclass(frozen=True, slots=True)
class ConstitutionOptions:
    build_to: Column = option(
        Column.ANY, note="note-co-1", label="A card is placed in sequence on",
        labels={Column.ANY: "any card of the division next above",
                Column.SAME: "only the card directly above it"})
    fill_from: Column = option(
        Column.ANY, note="note-co-3", label="A vacancy is filled by",
        labels={Column.ANY: "any available card of the division below, chosen by the player",
                Column.SAME: "only the card directly below it"})
    talon_builds: bool = option(
        False, note="note-co-5", label="The top card of the talon may be placed on the People",
        labels={True: "yes, in sequence, like a card of the divisions",
                False: "no, it enters only by filling a vacancy in the People"})


# ---------------------------------------------------------------------------- the layout
# Positions are in card slots. The upper half follows the plate: the Sovereign in the
# centre, the aces round her pointing at her, the kings round them lying across the rays.

_SLOT_W, _SLOT_H, _CARD_W, _CARD_H = 78.0, 104.0, 64.0, 90.0  # the diagram's proportions
_CENTRE = (305.0, 284.0)  # in the diagram's pixels
_R_ACES, _R_KINGS = 142.0, 248.0
_TOP_ROW_Y = 5.55


def _ring(k: int, radius: float) -> tuple[float, float]:
    a = math.radians(45 * k)
    cx, cy = _CENTRE[0] + radius * math.sin(a), _CENTRE[1] - radius * math.cos(a)
    return (round((cx - _CARD_W / 2) / _SLOT_W, 3), round((cy - _CARD_H / 2) / _SLOT_H, 3))


_POINTS = ("top", "upper right", "right", "lower right", "bottom", "lower left", "left",
           "upper left")
_ACE_TURN = (0, 45, 90, -45, 0, 45, 90, -45)    # along the ray
_KING_TURN = (90, -45, 0, 45, 90, -45, 0, 45)   # across the ray


def _ace(k: int) -> PileSpec:
    x, y = _ring(k, _R_ACES)
    return PileSpec(f"f{k}", f"foundation on the {ACES[k].name} ({_POINTS[k]})",
                    Role.FOUNDATION, x, y, rotate=_ACE_TURN[k])


def _king(k: int) -> PileSpec:
    x, y = _ring(k, _R_KINGS)
    who = "Judge" if KINGS[k].red else "Bishop"
    return PileSpec(f"k{k}", f"the {who}, {KINGS[k].name} ({_POINTS[k]})", Role.FIGURE, x, y,
                    rotate=_KING_TURN[k])


#: Rows of the Constitution are this many slots apart, so that a sequence fanned downwards
#: (at most ``_FAN`` card heights) stays clear of the row below.
_ROW_STEP, _FAN = 1.4, 0.36


def _place(row: int, col: int) -> PileSpec:
    return PileSpec(f"{_ROW_IDS[row]}{col}", f"{DIVISIONS[row]}, place {col + 1}", Role.TABLEAU,
                    x=float(col), y=_TOP_ROW_Y + (PRIVY - row) * _ROW_STEP, fan=Fan.DOWN,
                    fan_limit=_FAN, mark=f"{_MARKS[row]} {col + 1}")


_sx, _sy = _ring(0, 0.0)
PILES: tuple[PileSpec, ...] = (
    (PileSpec("sovereign", "the Sovereign", Role.FIGURE, _sx, _sy),)
    + tuple(_king(k) for k in range(8))
    + tuple(_ace(k) for k in range(8))
    + (PileSpec("discard", "the queens thrown aside", Role.DISCARD, 8.4, 0.2),)
    + tuple(_place(r, c) for r in (PRIVY, LORDS, COMMONS, PEOPLE) for c in range(COLUMNS))
    + (PileSpec("stock", "the pack", Role.STOCK, 8.4, _TOP_ROW_Y + 2 * _ROW_STEP),
       PileSpec("talon", "the talon", Role.TALON, 8.4, _TOP_ROW_Y + 3 * _ROW_STEP))
)

SOVEREIGN = 0
KING_PILES = range(1, 9)
FOUNDATION_PILES = range(9, 17)
DISCARD = 17
#: The pile indices of each division, by row (PEOPLE ... PRIVY), left to right.
ROWS: tuple[range, ...] = tuple(range(18 + 8 * (PRIVY - r), 26 + 8 * (PRIVY - r))
                                for r in range(4))
TABLEAU = range(18, 50)
STOCK = 50
TALON = 51
FIXED = frozenset({SOVEREIGN, *KING_PILES, DISCARD})


def _row_col(i: int) -> tuple[int, int]:
    k = i - TABLEAU.start
    return PRIVY - k // COLUMNS, k % COLUMNS


def accepts(pile: tuple[Card, ...], card: Card) -> bool:
    """Whether a foundation (its ace at the bottom) takes ``card`` next: up in suit to the
    knave."""
    top = pile[-1]
    return card.suit is top.suit and card.rank == top.rank + 1 and card.rank <= KNAVE


def continues(top: Card, card: Card) -> bool:
    """Rule IV: ``card`` goes on ``top`` if one lower and of the other colour."""
    return card.rank == top.rank - 1 and card.red != top.red


class TheConstitution(Game):
    slug = SLUG
    title = "The Constitution"
    packs = 2
    Options = ConstitutionOptions
    PILES = PILES
    GRID = (9.4, _TOP_ROW_Y + 3 * _ROW_STEP + 1 + _FAN)
    LEDGER = {
        RULE_1: "Only the top card of a Privy Council place may be played to a foundation; a "
                "card anywhere else (lower divisions, pack, talon) is refused there.",
        RULE_2: "The top card of a place in the People, the Commons or the Lords may be placed "
                "on a card of the division next above (any card of it, or under CO-1’s other "
                "reading only the one directly above); moves within a division, downwards or "
                "up two divisions are refused.",
        RULE_3: "Only the top card of each place’s sequence moves; cards beneath are refused.",
        RULE_4: "A card placed in sequence must be one rank lower than the card it covers and "
                "of the other colour; any number may be placed.",
        RULE_5: "A vacancy is filled at once by a card of the division below (the player’s "
                "choice of its available cards, or under CO-3 the card directly below), down "
                "to the People, whose vacancy takes the talon’s top card, or the pack’s when "
                "there is no talon.",
        RULE_6: "A foundation takes only cards of its ace’s suit.",
        WITHDRAW: "The deal sets out the Sovereign, the eight kings, the eight aces and the "
                  "seven queens thrown aside, which never move.",
        FOUNDATIONS: "Each ace foundation takes the two, three and so on up to the knave; "
                     "a card on a foundation stays there; all eight at the knave win.",
        ROWS_DEALT: "The deal lays four rows of eight, the People first, then the Commons, "
                    "the Lords and the Privy Council.",
        PLAY_THEM: "A suitable Privy Council card may be played at any time and its vacancy "
                   "is refilled at once; the play is not forced (CO-12).",
        DEAL: "“Deal” turns the pack’s top card onto the talon, one card at a time, "
              "whenever the player chooses; it is refused once the pack is used up.",
    }
    FIGURES = (
        Figure("tableau", "The Constitution after the deal, in modern cards.",
               "The tableau of the Constitution just after the deal, drawn in modern cards. "
               "Above, the Government: the queen of diamonds, the Sovereign, in the centre; "
               "round her the eight aces, pointing at her like the spokes of a wheel; round "
               "them the eight kings, the red Judges above, below and at the sides, the black "
               "Bishops on the diagonals. Below, the Constitution: four rows of eight cards, "
               "from the top the Privy Council, the House of Lords, the House of Commons and "
               "the People. To the right, the seven queens thrown aside, the pack face down, "
               "and the place of the talon."),
    )
    ACTIONS = (
        ActionSpec("deal", "Deal a card to the talon", "d", DEAL),
    )

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        rest = Counter(pack(2))
        rest.subtract([THE_SOVEREIGN, *KINGS, *ACES, *THROWN_ASIDE])
        stock = tuple(shuffled(sorted(rest.elements()), deal))
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        piles[SOVEREIGN] = (THE_SOVEREIGN,)
        for k, i in enumerate(KING_PILES):
            piles[i] = (KINGS[k],)
        for k, i in enumerate(FOUNDATION_PILES):
            piles[i] = (ACES[k],)
        piles[DISCARD] = THROWN_ASIDE
        for row in ROWS:  # beginning with the lowest, left to right (CO-11)
            for i in row:
                piles[i] = (stock[-1],)
                stock = stock[:-1]
        piles[STOCK] = stock
        return State(tuple(piles), ())

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        if p[SOVEREIGN] != (THE_SOVEREIGN,):
            raise PositionError("the Sovereign's place must hold the queen of diamonds alone")
        if [p[i] for i in KING_PILES] != [(k,) for k in KINGS]:
            raise PositionError("the kings are not in their places")
        if Counter(p[DISCARD]) != Counter(THROWN_ASIDE):
            raise PositionError("the queens thrown aside are not the seven withdrawn")
        for k, f in enumerate(FOUNDATION_PILES):
            pile = p[f]
            if not pile or pile[0] != ACES[k]:
                raise PositionError(f"{PILES[f].label} must begin with the {ACES[k].name}")
            if any(not accepts(pile[:j], pile[j]) for j in range(1, len(pile))):
                raise PositionError(f"{PILES[f].label} is not built in order")
        for i in TABLEAU:
            pile = p[i]
            if any(not continues(pile[j - 1], pile[j]) for j in range(2, len(pile))):
                raise PositionError(f"{PILES[i].label} is not a sequence")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def _feeds(self, state: State, row: int, col: int) -> list[int]:
        """The places of the division below that may fill a vacancy at (row, col)."""
        below = ROWS[row - 1]
        if self.options.fill_from is Column.SAME:
            return [below[col]] if state.piles[below[col]] else []
        return [i for i in below if state.piles[i]]

    def open_vacancies(self, state: State) -> list[int]:
        """Vacant places above the People that Rule V requires to be filled now: those for
        which the division below has a card to give."""
        out = []
        for row in (COMMONS, LORDS, PRIVY):
            for col, i in enumerate(ROWS[row]):
                if not state.piles[i] and self._feeds(state, row, col):
                    out.append(i)
        return out

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        pending = self.open_vacancies(state)
        if pending:
            for v in pending:
                row, col = _row_col(v)
                for i in self._feeds(state, row, col):
                    yield Move.step(PILES[i].id, PILES[v].id)
            return
        for i in ROWS[PRIVY]:
            if piles[i]:
                for f in FOUNDATION_PILES:
                    if accepts(piles[f], piles[i][-1]):
                        yield Move.step(PILES[i].id, PILES[f].id)
        for row in (PEOPLE, COMMONS, LORDS):
            for i in ROWS[row]:
                if not piles[i]:
                    continue
                card = piles[i][-1]
                for j in ROWS[row + 1]:
                    if piles[j] and continues(piles[j][-1], card):
                        yield Move.step(PILES[i].id, PILES[j].id)
        if piles[TALON] and self.options.talon_builds:
            for j in ROWS[PEOPLE]:
                if piles[j] and continues(piles[j][-1], piles[TALON][-1]):
                    yield Move.step("talon", PILES[j].id)
        yield Move(action="deal")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action != "deal":
            return IllegalMove(BOARD, f"The Constitution has no action {action!r}.")
        pending = self.open_vacancies(state)
        if pending:
            return self._unfilled(pending)
        if not state.piles[STOCK]:
            return IllegalMove(DEAL, "The pack is dealt out: there is no card left to "
                               "turn up, and there is no re-deal.")
        return None

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        piles = state.piles
        si, di, card = step.src, step.dst, step.card
        if not step.top:
            if si in TABLEAU:
                return IllegalMove(RULE_3, "Only the top card of each sequence is available, "
                                   "until its removal releases the one beneath.")
            return IllegalMove(BOARD, "Only the top card of a pile can be moved.")
        # where the card comes from
        if si in FIXED:
            return IllegalMove(WITHDRAW, "The Sovereign, the Bishops, the Judges and the "
                               "queens thrown aside stay where they were placed.")
        if si in FOUNDATION_PILES:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if si == STOCK:
            return IllegalMove(DEAL, "The pack is dealt out card by card onto the talon "
                               "(Deal a card to the talon).")
        # where it goes
        if di in FIXED:
            return IllegalMove(WITHDRAW, "Nothing is placed on the Sovereign, the Bishops, "
                               "the Judges or the queens thrown aside.")
        if di in (STOCK, TALON):
            return IllegalMove(DEAL, "Only cards dealt from the pack go to the talon, and "
                               "nothing goes back to the pack.")
        pending = self.open_vacancies(state)
        if si == TALON:
            return self._refuse_talon(state, di, card, pending)
        row, col = _row_col(si)
        if di in FOUNDATION_PILES:
            if row != PRIVY:
                return IllegalMove(RULE_1, "The foundations are formed only from the Privy "
                                   f"Council; a card of the {DIVISIONS[row]} must first "
                                   "ascend to the top.")
            if pending:
                return self._unfilled(pending)
            return self._refuse_foundation(state, di, card)
        drow, dcol = _row_col(di)
        if drow != row + 1:
            where = ("the same division" if drow == row else
                     "a lower division" if drow < row else "two divisions up")
            return IllegalMove(RULE_2, f"Cards are placed only on the division next above "
                               f"them, not in {where}.")
        if not piles[di]:  # filling a vacancy (Rule V)
            if self.options.fill_from is Column.SAME and dcol != col:
                return IllegalMove(RULE_5, "Under the reading chosen a vacancy is filled "
                                   "only by the card directly below it.")
            return None
        if pending:
            return self._unfilled(pending)
        if self.options.build_to is Column.SAME and dcol != col:
            return IllegalMove(RULE_2, "Under the reading chosen a card is placed only on "
                               "the card directly above it.")
        top = piles[di][-1]
        if not continues(top, card):
            return IllegalMove(RULE_4, f"Sequences descend in alternate colours: the "
                               f"{top.name} takes a {'black' if top.red else 'red'} "
                               f"{_rank_word(top.rank - 1)}.")
        return None

    def _refuse_talon(self, state: State, di: int, card: Card,
                      pending: list[int]) -> IllegalMove | None:
        if di in FOUNDATION_PILES:
            return IllegalMove(RULE_1, "Talon cards must ascend through each division "
                               "before they can be played.")
        if not self.options.talon_builds or di not in ROWS[PEOPLE]:
            return IllegalMove(RULE_1, "Talon cards enter the Constitution only by filling "
                               "a vacancy in the People, and then ascend through each "
                               "division.")
        if pending:
            return self._unfilled(pending)
        top = state.piles[di][-1]
        if not continues(top, card):
            return IllegalMove(RULE_4, f"Sequences descend in alternate colours: the "
                               f"{top.name} takes a {'black' if top.red else 'red'} "
                               f"{_rank_word(top.rank - 1)}.")
        return None

    @staticmethod
    def _unfilled(pending: list[int]) -> IllegalMove:
        names = " and ".join(PILES[i].label for i in pending[:2])
        more = " (and others)" if len(pending) > 2 else ""
        return IllegalMove(RULE_5, f"A vacancy must at once be filled from the division "
                           f"below: first fill {names}{more}.")

    def _refuse_foundation(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        if accepts(pile, card):
            return None
        suit = pile[0].suit
        if card.suit is not suit:
            return IllegalMove(RULE_6, f"The foundations must follow suit: the "
                               f"{PILES[f].label} takes only {suit.noun}.")
        if pile[-1].rank >= KNAVE:
            return IllegalMove(FOUNDATIONS, f"The {PILES[f].label} is complete: it ends with "
                               "the knave.")
        return IllegalMove(FOUNDATIONS, f"The {PILES[f].label} needs the "
                           f"{Card(pile[-1].rank + 1, suit).name} next.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        if move.action == "deal":
            piles[TALON] = piles[TALON] + (piles[STOCK][-1],)
            piles[STOCK] = piles[STOCK][:-1]
        else:
            (src, dst), = move.steps
            si, di = self.pile_index(src), self.pile_index(dst)
            card = piles[si][-1]
            piles[si] = piles[si][:-1]
            piles[di] = piles[di] + (card,)
        for i in ROWS[PEOPLE]:  # Rule V: the People's vacancies, from the talon or the pack
            if not piles[i]:
                for src_pile in (TALON, STOCK):
                    if piles[src_pile]:
                        piles[i] = (piles[src_pile][-1],)
                        piles[src_pile] = piles[src_pile][:-1]
                        break
        return State(tuple(piles), ())

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: the other answer of :meth:`outcome_of` (LOST when no move is
        left) costs a search for moves, and is a dead end to the solver anyway."""
        if all(len(state.piles[f]) == KNAVE for f in FOUNDATION_PILES):
            return Outcome.WON
        return None

    def outcome_of(self, state: State) -> Outcome | None:
        if all(len(state.piles[f]) == KNAVE for f in FOUNDATION_PILES):
            return Outcome.WON
        # Every move sends a card up a division, to a foundation or from the pack to the
        # talon, so no position recurs: one with no legal move is final.
        return None if self.has_legal_move(state) else Outcome.LOST

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        if out is Outcome.WON:
            return "Won: every Government is built up to the knave."
        if out is Outcome.LOST:
            return "Nothing more can be done: the patience has failed."
        stock, talon = len(state.piles[STOCK]), len(state.piles[TALON])
        parts = [f"Pack: {plural(stock, 'card')}",
                 f"talon: {plural(talon, 'card')}"]
        pending = self.open_vacancies(state)
        if pending:
            parts.append("fill the vacancy in the " + DIVISIONS[_row_col(pending[0])[0]])
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "deal" and state.piles[STOCK]:
            return f"The {state.piles[STOCK][-1].name} is dealt onto the talon."
        return super().describe(state, move)


def _rank_word(rank: int) -> str:
    return RANK_NAMES[rank] if 1 <= rank <= 13 else "card"

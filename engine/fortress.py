"""Fortress (one pack), by the book: 1914 printing, text p. 29 (plate p. 28).

Piles: the whole pack is dealt face up in two groups of five horizontal rows, one group on
each side of a column of four places left for the aces; the top four rows of a group hold
five cards and the bottom row six, its sixth card standing out on the outer side, as the
plate shows. Each row of a group is one pile, from its *inner* card (next to the aces) to
its *outside* card (Rule I and its Note), which is the pile's top and the only card of the
row that may be used: the leftmost card of a row of the left-hand group, the rightmost of
the right-hand one.

Any ace may be played to an empty place in the centre, and each foundation then takes the
next card of its suit up to the king (the text's "descend" is read as a misprint for
"ascend", ``note-fo-1``). An outside card may be married to the outside card of any other
row, of the same suit and one rank above or below it; married cards are laid on the outside
of the row, which grows outwards. A row of a group whose every card has gone is a lane: any
outside card may be placed at its inner end, when the player likes (under the stricter
reading of ``note-fo-6``, only while the same row of the other group is empty too). Cards
move one at a time, so a sequence is reversed by moving it card by card into a lane. There is
no re-deal. See the chapter page for the text each rule id points at, and its editorial notes
(``note-fo-N``) for the readings behind the options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, SUITS, Card, pack
from .core import (
    Fan,
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
from .rules import builds_up_from_ace, plural, up_from_ace_refusal

SLUG = "fortress"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # only the outside cards of each group are available
OUTSIDE = _rule("outside")            # the Note: which side is "outside" in each group
RULE_II = _rule("rule-2")             # the foundations must follow suit
DEAL = _rule("deal")                  # the pack dealt in two groups, the centre left for aces
FOUNDATIONS = _rule("foundations")    # the four aces, when they can be played ("descend")
ACES = _rule("aces")                  # aces and suitable cards from the outside are played
MARRIAGES = _rule("marriages")        # marriages up and down, outside cards of both groups
LANE = _rule("lane")                  # an entire horizontal row opened out forms a lane
WAIT = _rule("wait")                  # it is prudent not to refill a lane at once
REFILL = _rule("refill")              # any available card at the inner end; others along it
REVERSE = _rule("reverse")            # lanes reverse sequences made in the ascending line
NOTE = _rule("note")                  # the Note: a deuce-to-eight sequence turned round
OVERLAP = _rule("overlap")            # rows longer than at first: cards partly over each other
NO_REDEAL = _rule("no-redeal")        # there is no re-deal
BOARD = _rule("board")                # the board itself (notation errors, empty places)

ROWS = 5
#: Cards dealt to each row of a group, from the top row down: the plate's bottom rows have a
#: sixth card, standing out on the outer side.
ROW_SIZES = (5, 5, 5, 5, 6)
CARDS = 52
SEARCH_LIMIT = 5000  # positions explored at most when judging whether a game is lost


class Lanes(Enum):
    """FO-6: what counts as "one entire horizontal row of cards" opened out."""

    ONE_GROUP = "one-group"      # the row of one group emptied
    BOTH_GROUPS = "both-groups"  # the row emptied on both sides of the foundations


@dataclass(frozen=True, slots=True)
class FortressOptions:
    lanes: Lanes = option(
        Lanes.ONE_GROUP, note="note-fo-6", label="A lane is formed when",
        labels={Lanes.ONE_GROUP: "a row of one group has been cleared",
                Lanes.BOTH_GROUPS: "the row has been cleared on both sides of the aces"})


# ---------------------------------------------------------------------------- the layout

#: Where the inner card of each row lies, in card slots: the left-hand rows spread to the
#: left of it, the right-hand rows to the right, and the aces' column lies between them.
_LEFT_X, _FOUND_X, _RIGHT_X = 3.6, 4.85, 6.1
#: How far a row may spread, in card widths, before its cards close up: thirteen cards at
#: the board's usual spacing, so that a whole suit married in one row still shows every card.
ROW_SPREAD = 4.0
#: The board: the rows of each group at their longest before closing up, the aces between.
BOARD_GRID = (10.7, float(ROWS))


def _row_name(r: int) -> str:
    return f"row {r + 1}"


PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"l{r}", f"left-hand group, {_row_name(r)}", Role.TABLEAU, _LEFT_X,
                   float(r), Fan.LEFT, fan_limit=ROW_SPREAD, mark=_row_name(r)) for r in range(ROWS))
    + tuple(PileSpec(f"f{k}", f"foundation {k + 1}", Role.FOUNDATION, _FOUND_X, 0.5 + k,
                     mark="ace")
            for k in range(4))
    + tuple(PileSpec(f"r{r}", f"right-hand group, {_row_name(r)}", Role.TABLEAU, _RIGHT_X,
                     float(r), Fan.RIGHT, fan_limit=ROW_SPREAD, mark=_row_name(r)) for r in range(ROWS))
)

LEFT = range(0, ROWS)
FOUNDS = range(ROWS, ROWS + 4)
RIGHT = range(ROWS + 4, 2 * ROWS + 4)
LINES: tuple[int, ...] = (*LEFT, *RIGHT)

#: The narrow layout (a phone): the left-hand group above, its rows spreading left from the
#: right-hand edge; the aces' places across the middle; the right-hand group below, its rows
#: spreading right from the left-hand edge; each group named in a labelled frame.
_NARROW_W = 7.0
_NARROW_FOUND_Y = 5.25
_NARROW_RIGHT_TOP = 6.3
_NARROW_RIGHT_Y = 6.6


def _narrow() -> Layout:
    at: dict[str, tuple[float, float, int]] = {}
    for r in range(ROWS):
        at[f"l{r}"] = (_NARROW_W - 1.0, float(r), 0)
        at[f"r{r}"] = (0.0, _NARROW_RIGHT_Y + r, 0)
    for k in range(4):
        at[f"f{k}"] = (1.5 + k, _NARROW_FOUND_Y, 0)
    height = _NARROW_RIGHT_Y + ROWS
    return Layout(name="narrow", max_width=560, grid=(_NARROW_W, height), at=at,
                  regions=(Region("Left-hand group", 0.0, 0.0, _NARROW_W, float(ROWS)),
                           Region("Right-hand group", 0.0, _NARROW_RIGHT_TOP, _NARROW_W,
                                  height - _NARROW_RIGHT_TOP)))


def other_group(i: int) -> int:
    """The row of the other group on the same horizontal line."""
    return i + ROWS + 4 if i in LEFT else i - ROWS - 4


def deal_rows(cards: list[Card]) -> list[tuple[Card, ...]]:
    """The ten rows of a deal, left-hand group's first (top to bottom), each row as a pile
    from its inner card to its outside card. ``cards`` is the pack, its top the last card.

    The rows are dealt from the top down; each is dealt straight across the left-hand group
    and then straight across the right-hand group, from left to right (FO-2). A row of the
    left-hand group therefore begins at its outside card, and one of the right-hand group
    ends at it."""
    stock = list(cards)
    left: list[tuple[Card, ...]] = []
    right: list[tuple[Card, ...]] = []
    for size in ROW_SIZES:
        across = [stock.pop() for _ in range(size)]
        left.append(tuple(reversed(across)))  # its first card lies outside, on the left
        across = [stock.pop() for _ in range(size)]
        right.append(tuple(across))           # its last card lies outside, on the right
    assert not stock, "the fifty-two cards fill the ten rows exactly"
    return left + right


def code(card: Card) -> int:
    """A card as a small integer for the search: cards married in suit differ by four."""
    return 4 * card.rank + SUITS.index(card.suit)


class Fortress(Game):
    slug = SLUG
    title = "Fortress"
    packs = 1
    Options = FortressOptions
    PILES = PILES
    GRID = BOARD_GRID
    LAYOUTS = (_narrow(),)
    FIGURES = (
        Figure("tableau", "Fortress after the deal, in modern cards.",
               "The tableau of Fortress just after the deal, drawn in modern cards: on the "
               "left and on the right a group of five horizontal rows of face-up cards, each "
               "row overlapping towards the outer side, the top four rows of five cards and "
               "the bottom row of six, each covered card showing its index on its uncovered "
               "edge; between the groups, a column of four empty places for the aces."),
    )
    LEDGER = {
        RULE_I: "Only the outside card of a row (the top of its pile) may be played, married "
                "or moved to a lane; a card with another outside it is refused until that "
                "card has gone.",
        OUTSIDE: "The outside card is the leftmost of a row of the left-hand group and the "
                 "rightmost of a row of the right-hand group, the end furthest from the aces; "
                 "the board spreads each row that way (FO-3).",
        RULE_II: "A foundation takes only cards of its ace’s suit; a card of another suit is "
                 "refused.",
        DEAL: "The fifty-two cards are dealt face up in two groups of five rows, the top four "
              "of five cards and the bottom one of six, row by row from the top, each straight "
              "across the left-hand group and then the right-hand one; four empty places are "
              "left between the groups (FO-2).",
        FOUNDATIONS: "Any ace may be played to any empty place in the centre, and each "
                     "foundation then takes the next card of its suit, ascending to the king "
                     "(“descend” read as a misprint, FO-1); a foundation card never moves "
                     "again.",
        ACES: "An outside card may be played to its foundation whenever it is the next card "
              "there, in either group; nothing is played for the player (FO-4).",
        MARRIAGES: "An outside card may be married to the outside card of any other row, in "
                   "either group, of the same suit and one rank above or below it; it becomes "
                   "that row’s outside card. Cards move one at a time (FO-5).",
        LANE: "A row of a group whose every card has gone is a lane; under FO-6’s stricter "
              "reading it is a lane only while the same row of the other group is empty too.",
        WAIT: "A lane stays empty until the player chooses to fill it; nothing obliges "
              "the player to refill it.",
        REFILL: "Any outside card of either group may be placed in a lane, where it is the "
                "inner card of the row; cards of its suit one rank above or below it are then "
                "married along it, one at a time (FO-7).",
        REVERSE: "A sequence is reversed by moving its cards one at a time into a lane: each "
                 "card is married to the one moved before it (FO-7).",
        NOTE: "Moving the eight into a lane and then the seven, six and so on down to the "
              "deuce, one at a time, leaves the deuce as the row’s outside card (FO-7).",
        OVERLAP: "A row may grow to any length; the board overlaps its cards and closes them "
                 "up as it grows (FO-3).",
        NO_REDEAL: "There is no re-deal; the game is lost once no series of marriages and "
                   "lane moves can bring another card to a foundation (FO-9).",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        rows = deal_rows(shuffled(pack(1), deal))
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for n, i in enumerate(LINES):
            piles[i] = rows[n]
        return State(tuple(piles))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        for f in FOUNDS:
            pile = state.piles[f]
            for k, card in enumerate(pile):
                if card.rank != k + 1 or card.suit is not pile[0].suit:
                    raise PositionError(f"{PILES[f].label} is not built up in suit from its "
                                        "ace")
        return state

    # ---- helpers ---------------------------------------------------------------------
    # Whether a foundation takes a card next: an ace on an empty place, else the next card of
    # its suit, up to the king.
    fits = staticmethod(builds_up_from_ace)

    @staticmethod
    def marries(target: Card, card: Card) -> bool:
        """Whether ``card`` may be married to ``target``: same suit, one rank apart."""
        return card.suit is target.suit and abs(card.rank - target.rank) == 1

    def lane_open(self, state: State, i: int) -> bool:
        """Whether the empty row ``i`` is a lane under the reading chosen (FO-6)."""
        return (self.options.lanes is Lanes.ONE_GROUP
                or not state.piles[other_group(i)])

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        for i in LINES:
            if not piles[i]:
                continue
            card = piles[i][-1]
            sid = PILES[i].id
            for f in FOUNDS:
                if self.fits(piles[f], card):
                    yield Move.step(sid, PILES[f].id)
            for j in LINES:
                if j != i and (not piles[j] or self.marries(piles[j][-1], card)):
                    yield Move.step(sid, PILES[j].id)

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di = step.src, step.dst
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if si in FOUNDS:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if not step.top:
            return IllegalMove(RULE_I, "Only the outside card of each row is available: no "
                               "card can be used that has another outside it.")
        card = step.card
        if di in FOUNDS:
            return self._refuse_play(state, di, card)
        target = state.piles[di]
        if not target:
            if not self.lane_open(state, di):
                return IllegalMove(LANE, "Under this reading a lane is formed only when the "
                                   "entire horizontal row has been opened out, on both sides "
                                   "of the foundations.")
            return None
        top = target[-1]
        if top.suit is not card.suit:
            return IllegalMove(MARRIAGES, f"A marriage is made in the same suit: the "
                               f"{card.name} cannot go on the {top.name}.")
        if abs(top.rank - card.rank) != 1:
            return IllegalMove(MARRIAGES, f"Marriages go up or down one card at a time: the "
                               f"{top.name} takes only the "
                               + " or the ".join(Card(r, top.suit).name
                                                 for r in (top.rank - 1, top.rank + 1)
                                                 if ACE <= r <= KING)
                               + f", not the {card.name}.")
        return None

    def _refuse_play(self, state: State, di: int, card: Card) -> IllegalMove | None:
        return up_from_ace_refusal(state.piles[di], card, PILES[di].label,
                                   begin_rule=FOUNDATIONS, suit_rule=RULE_II,
                                   sequence_rule=FOUNDATIONS)

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "redeal":
            return IllegalMove(NO_REDEAL, "There is no re-deal.")
        if action == "deal":
            return IllegalMove(DEAL, "The entire pack is dealt out at the start: there is "
                               "nothing more to deal.")
        return IllegalMove(BOARD, f"Fortress has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        (src, dst), = move.steps
        si, di = self.pile_index(src), self.pile_index(dst)
        piles = list(state.piles)
        piles[di] = piles[di] + piles[si][-1:]
        piles[si] = piles[si][:-1]
        return State(tuple(piles))

    # ---- the end ---------------------------------------------------------------------
    def _canonical(self, rows: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
        """The rows in a standard order. No rule looks at where a row lies, except that the
        stricter reading of FO-6 pairs each row with the same row of the other group: the
        rows (or the pairs of rows) may be sorted."""
        if self.options.lanes is Lanes.ONE_GROUP:
            return tuple(sorted(rows))
        pairs = sorted(tuple(sorted((rows[r], rows[ROWS + r]))) for r in range(ROWS))
        return tuple(p[0] for p in pairs) + tuple(p[1] for p in pairs)

    def _moves_between(self, rows: tuple[tuple[int, ...], ...]
                       ) -> Iterator[tuple[tuple[int, ...], ...]]:
        """The rows after each marriage or lane move (rows ``0..4`` are one group's, ``5..9``
        the other's, each paired with the row five on)."""
        both = self.options.lanes is Lanes.BOTH_GROUPS
        for a, p in enumerate(rows):
            if not p:
                continue
            card = p[-1]
            for b, q in enumerate(rows):
                if a == b:
                    continue
                if q:
                    if abs(q[-1] - card) != 4:
                        continue
                elif both and rows[(b + ROWS) % (2 * ROWS)]:
                    continue
                nxt = list(rows)
                nxt[a], nxt[b] = p[:-1], q + (card,)
                yield tuple(nxt)

    def reachable_play(self, state: State) -> bool | None:
        """With the foundations as they stand: True if some series of marriages and lane
        moves (or none) lets an outside card be played, False if none does, None if the
        search gave up (too many positions)."""
        wanted: set[int] = set()
        for f in FOUNDS:
            pile = state.piles[f]
            if pile and pile[-1].rank < KING:
                wanted.add(code(pile[-1]) + 4)
        founded = {state.piles[f][0].suit for f in FOUNDS if state.piles[f]}
        if any(not state.piles[f] for f in FOUNDS):
            wanted |= {code(Card(ACE, s)) for s in SUITS if s not in founded}
        start = self._canonical(tuple(tuple(code(c) for c in state.piles[i]) for i in LINES))
        seen = {start}
        todo = [start]
        while todo:
            rows = todo.pop()
            if any(p and p[-1] in wanted for p in rows):
                return True
            for nxt in self._moves_between(rows):
                key = self._canonical(nxt)
                if key not in seen:
                    if len(seen) >= SEARCH_LIMIT:
                        return None
                    seen.add(key)
                    todo.append(key)
        return False

    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """The four foundations (any ace begins any of them), and the ten rows when a lane
        is formed in one group alone (under FO-6's other reading a row has its partner on
        the other side)."""
        if self.options.lanes is Lanes.ONE_GROUP:
            return (tuple(FOUNDS), (*LEFT, *RIGHT))
        return (tuple(FOUNDS),)

    def outcome_of(self, state: State) -> Outcome | None:
        if sum(len(state.piles[f]) for f in FOUNDS) == CARDS:
            return Outcome.WON
        verdict = self.remembered(state, self.reachable_play)
        # Cards can be moved to and fro between rows and lanes for ever; the game is lost
        # when no series of such moves can bring another card to a foundation (FO-9).
        return Outcome.LOST if verdict is False else None

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = sum(len(state.piles[f]) for f in FOUNDS)
        if out is Outcome.WON:
            return "Won: all four foundations have reached their kings."
        if out is Outcome.LOST:
            return (f"Nothing more can reach the foundations: the patience has failed with "
                    f"{played} of {CARDS} cards played.")
        parts = [f"On the foundations: {played} of {CARDS}"]
        if self.options.lanes is Lanes.ONE_GROUP:
            lanes = sum(1 for i in LINES if not state.piles[i])
        else:  # one lane for each line cleared on both sides
            lanes = sum(1 for i in LEFT if not state.piles[i] and self.lane_open(state, i))
        if lanes:
            parts.append(plural(lanes, "lane"))
        parts.append("there is no re-deal")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action:
            return super().describe(state, move)
        (src, dst), = move.steps
        card = self.card_at(state, src)
        name = card.name if card else "a card"
        di = self.pile_index(dst)
        if di in FOUNDS:
            return f"The {name} is played from the {self.label(src)} to {self.label(dst)}."
        if not state.piles[di]:
            return f"The {name} is placed at the inner end of the lane, {self.label(dst)}."
        return (f"The {name} is married from the {self.label(src)} to the "
                f"{state.piles[di][-1].name}, {self.label(dst)}.")

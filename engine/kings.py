"""The Kings (two packs), by the book: 1914 printing, pp. 57–58 (plate p. 56).

Piles: the pack (96 cards once the eight aces are withdrawn); the eight foundations, two
upright columns of aces, two to each of four horizontal lines; and on each side of them a
group of columns, dealt four cards at a time. Each horizontal line of a group is kept as one
pile, from its inner card (next to the foundations) to its *outside* card (Rule II), which
is the pile's top: the leftmost card of the left-hand group, the rightmost of the right.

During the deal a card may go to a foundation only from the column last dealt in its line,
and only to a foundation on its own horizontal line (Rule III); a suitable card must be
played as it turns up, and is replaced at once by the next card of the pack. When the pack
is exhausted the restriction ceases (by the book's advice; ``note-ki-1``), and the outside
cards may also be built into sequences, up or down regardless of suit, and laid in lanes.
See the chapter page for the text each rule id points at, and its editorial notes
(``note-ki-N``) for the readings behind the options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, RANK_NAMES, Card, Suit, pack
from .core import (
    ActionSpec,
    Fan,
    Figure,
    Game,
    IllegalMove,
    Move,
    Outcome,
    PileSpec,
    Role,
    State,
    Step,
    option,
)
from .deal import shuffled

SLUG = "the-kings"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # foundations and sequences do not follow suit
RULE_II = _rule("rule-2")             # only the outside cards of each group are available
RULE_III = _rule("rule-3")            # during the deal: the same horizontal line only
FOUNDATIONS = _rule("foundations")    # the eight aces ascend in sequence to kings
PLAY_AT_ONCE = _rule("play-at-once")  # a suitable card turning up is played at once, replaced
COLUMNS = _rule("columns")            # columns of four, alternately, until the pack is out
DEALING = _rule("dealing")            # never omit...; never from the inner columns
SEQUENCES = _rule("sequences")        # sequences up and down, now, on the outside cards
LANE = _rule("lane")                  # a whole row removed: any available card at its inner end
NO_REDEAL = _rule("no-redeal")        # there is no re-deal
BOARD = _rule("board")                # the board itself (notation errors, empty places)

ROWS = 4
#: The suits of the aces on the four lines, top to bottom, as on the plate.
ROW_SUITS = (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)
FOUNDATION_CARDS = 8 * 13
SEARCH_LIMIT = 4000  # positions explored at most when judging whether a game is lost


class RuleIII(Enum):
    """KI-1 (flagged by the book itself): how long Rule III's restriction lasts."""

    DEAL = "deal"      # it ceases when the deal is complete (the book's advice)
    ALWAYS = "always"  # it lasts the whole game (the strict reading of the original)


class LineFoundations(Enum):
    """KI-2: which foundations a card's horizontal line gives it under Rule III."""

    EITHER = "either"      # both foundations of its line ("of either group")
    OWN_SIDE = "own-side"  # only the foundation next to its own group


class DealAvailability(Enum):
    """KI-3: which cards may go to a foundation during the deal."""

    LAST_COLUMN = "last-column"  # any card still lying in the column last dealt in its line
    JUST_DEALT = "just-dealt"    # only the card that has just turned up


class Lanes(Enum):
    """KI-8: what counts as "an entire horizontal row of cards" removed."""

    ONE_GROUP = "one-group"    # the line of one group emptied
    BOTH_GROUPS = "both-groups"  # the line emptied on both sides of the foundations


@dataclass(frozen=True, slots=True)
class KingsOptions:
    rule_3: RuleIII = option(
        RuleIII.DEAL, note="note-ki-1", label="Rule III’s restriction lasts",
        labels={RuleIII.DEAL: "until the deal is complete (the book’s advice)",
                RuleIII.ALWAYS: "the whole game (strict reading)"})
    line_foundations: LineFoundations = option(
        LineFoundations.EITHER, note="note-ki-2",
        label="Under Rule III a card may go to",
        labels={LineFoundations.EITHER: "either foundation of its line",
                LineFoundations.OWN_SIDE: "only the foundation beside its own group"})
    deal_availability: DealAvailability = option(
        DealAvailability.LAST_COLUMN, note="note-ki-3",
        label="During the deal, cards may be played",
        labels={DealAvailability.LAST_COLUMN: "from the column last dealt in each line",
                DealAvailability.JUST_DEALT: "only as they turn up"})
    lanes: Lanes = option(
        Lanes.ONE_GROUP, note="note-ki-8", label="A lane is made when",
        labels={Lanes.ONE_GROUP: "one group’s line is cleared",
                Lanes.BOTH_GROUPS: "the line is cleared on both sides"})


# ---------------------------------------------------------------------------- the layout

_LEFT_X, _FOUND_X, _RIGHT_X = 5.4, 6.4, 8.4


def _row_name(r: int) -> str:
    return f"line {r + 1}"


PILES: tuple[PileSpec, ...] = (
    (PileSpec("stock", "the pack", Role.STOCK, 6.9, 4.15),)
    + tuple(PileSpec(f"f{r}", f"left foundation of {_row_name(r)}", Role.FOUNDATION,
                     _FOUND_X, float(r)) for r in range(ROWS))
    + tuple(PileSpec(f"f{ROWS + r}", f"right foundation of {_row_name(r)}", Role.FOUNDATION,
                     _FOUND_X + 1.0, float(r)) for r in range(ROWS))
    + tuple(PileSpec(f"l{r}", f"left group, {_row_name(r)}", Role.TABLEAU, _LEFT_X, float(r),
                     Fan.LEFT) for r in range(ROWS))
    + tuple(PileSpec(f"r{r}", f"right group, {_row_name(r)}", Role.TABLEAU, _RIGHT_X,
                     float(r), Fan.RIGHT) for r in range(ROWS))
)

STOCK = 0
FOUNDS = range(1, 9)
LINES = range(9, 17)
V_SLOT, V_JUST, V_FRESH = 0, 1, 2


def row_of(i: int) -> int:
    """The horizontal line (0 = top) of a foundation or line pile."""
    return (i - FOUNDS.start) % ROWS if i in FOUNDS else (i - LINES.start) % ROWS


def is_left(i: int) -> bool:
    """Whether a foundation or line pile is on the left of the centre."""
    return (i - FOUNDS.start) < ROWS if i in FOUNDS else (i - LINES.start) < ROWS


def place_of(slot: int) -> int:
    """The line pile that deal place ``slot`` falls in: columns of four, top to bottom,
    the first on the left, then alternately right and left (KI-5)."""
    column, row = divmod(slot, ROWS)
    return LINES.start + (column % 2) * ROWS + row


def _bit(i: int) -> int:
    return 1 << (i - LINES.start)


class TheKings(Game):
    slug = SLUG
    title = "The Kings"
    packs = 2
    Options = KingsOptions
    PILES = PILES
    VARS = ("slot", "just", "fresh")
    GRID = (14.8, 5.3)
    FIGURES = (
        Figure("tableau", "The Kings before the deal, in modern cards.",
               "The tableau of the Kings before the deal, drawn in modern cards: the eight "
               "aces in two upright columns in the centre, each horizontal line holding two "
               "aces of one suit (diamonds, clubs, hearts and spades from the top), and on "
               "either side an empty place for each line, where the first column of each "
               "group will be dealt. The pack is not shown.",
               piles=tuple(p.id for p in PILES if p.id != "stock")),
    )
    ACTIONS = (ActionSpec("deal", "Deal a column", "d", COLUMNS),)

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        rest = [c for c in pack(2) if c.rank != ACE]
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for r, suit in enumerate(ROW_SUITS):
            piles[FOUNDS.start + r] = (Card(ACE, suit),)
            piles[FOUNDS.start + ROWS + r] = (Card(ACE, suit),)
        piles[STOCK] = tuple(shuffled(rest, deal))
        return State(tuple(piles), (0, -1, 0))

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def dealing(state: State) -> bool:
        """Whether the deal is still going on (cards remain in the pack)."""
        return bool(state.piles[STOCK])

    def line_limited(self, state: State) -> bool:
        """Whether Rule III's restriction is in force."""
        return self.dealing(state) or self.options.rule_3 is RuleIII.ALWAYS

    def line_foundations(self, line: int) -> tuple[int, ...]:
        """The foundations Rule III lets a card of ``line`` go to (KI-2)."""
        r = row_of(line)
        left, right = FOUNDS.start + r, FOUNDS.start + ROWS + r
        if self.options.line_foundations is LineFoundations.EITHER:
            return (left, right)
        return (left,) if is_left(line) else (right,)

    @staticmethod
    def fits(state: State, f: int, card: Card) -> bool:
        """Whether foundation ``f`` takes ``card`` next: one rank higher, any suit."""
        pile = state.piles[f]
        if not pile:  # only in a hand-made position: a foundation begins with an ace
            return card.rank == ACE
        return pile[-1].rank < KING and card.rank == pile[-1].rank + 1

    def suitable_now(self, state: State, line: int) -> bool:
        """Whether the top card of ``line`` fits a foundation of its own line."""
        p = state.piles[line]
        return bool(p) and any(self.fits(state, f, p[-1]) for f in self.line_foundations(line))

    def pending(self, state: State) -> int | None:
        """The line whose card just turned up is suitable and must be played at once."""
        just = state.vars[V_JUST]
        if (self.dealing(state) and just >= 0 and state.vars[V_FRESH] & _bit(just)
                and self.suitable_now(state, just)):
            return just
        return None

    def _lane_open(self, state: State, dst: int) -> bool:
        if self.options.lanes is Lanes.ONE_GROUP:
            return True
        other = dst + ROWS if is_left(dst) else dst - ROWS
        return not state.piles[other]

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        for i in LINES:
            if not piles[i]:
                continue
            card = piles[i][-1]
            sid = PILES[i].id
            for f in FOUNDS:
                if self.fits(state, f, card):
                    yield Move.step(sid, PILES[f].id)
            if not self.dealing(state):
                for j in LINES:
                    if j != i and (not piles[j] or abs(piles[j][-1].rank - card.rank) == 1):
                        yield Move.step(sid, PILES[j].id)
        yield Move(action="deal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di = step.src, step.dst
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if si == STOCK:
            return IllegalMove(COLUMNS, "The pack is dealt out in columns of four: deal the "
                               "next column.")
        if si in FOUNDS:
            return IllegalMove(FOUNDATIONS, "Cards on the foundations stay there.")
        if di == STOCK:
            return IllegalMove(BOARD, "Nothing goes back to the pack.")
        if not step.top:
            return IllegalMove(RULE_II, "Only the outside card of each line is available: no "
                               "card is available that has another outside it.")
        card = step.card
        if di in FOUNDS:
            return self._refuse_play(state, si, di, card)
        # di is a line: building a sequence, or filling a lane.
        if self.dealing(state):
            if not state.piles[di]:
                return IllegalMove(LANE, "Lanes are filled only when the deal is complete.")
            return IllegalMove(SEQUENCES, "Sequences are formed only when the pack is "
                               "exhausted; during the deal cards go only to the "
                               "foundations.")
        target = state.piles[di]
        if not target:
            if not self._lane_open(state, di):
                return IllegalMove(LANE, "Under this reading a lane is made only when the "
                                   "entire horizontal row has been removed, on both sides "
                                   "of the foundations.")
            return None
        if abs(target[-1].rank - card.rank) != 1:
            return IllegalMove(SEQUENCES, f"The {card.name} does not follow the "
                               f"{target[-1].name} in sequence: a card goes on one a rank "
                               "above or below it, of any suit (Rule I).")
        return None

    def _refuse_play(self, state: State, si: int, di: int, card: Card) -> IllegalMove | None:
        if not self.fits(state, di, card):
            pile = state.piles[di]
            if not pile:  # only in a hand-made position
                return IllegalMove(FOUNDATIONS, f"The {PILES[di].label} begins with an ace.")
            if pile[-1].rank == KING:
                return IllegalMove(FOUNDATIONS, f"The {PILES[di].label} is complete: it has "
                                   "reached its king.")
            return IllegalMove(FOUNDATIONS, f"The {PILES[di].label} ascends in sequence: it "
                               f"needs a {RANK_NAMES[pile[-1].rank + 1]} next, of any suit "
                               "(Rule I).")
        if self.dealing(state):
            fresh = state.vars[V_FRESH] & _bit(si)
            if not fresh:
                return IllegalMove(DEALING, "During the deal you may not play cards from the "
                                   "inner columns, even if released.")
            if (self.options.deal_availability is DealAvailability.JUST_DEALT
                    and si != state.vars[V_JUST]):
                return IllegalMove(PLAY_AT_ONCE, "Under this reading a card is played during "
                                   "the deal only as it turns up.")
        if self.line_limited(state) and di not in self.line_foundations(si):
            where = ("the foundations" if self.options.line_foundations
                     is LineFoundations.EITHER else "the foundation beside its group")
            when = "During the deal" if self.dealing(state) else "Under this reading"
            return IllegalMove(RULE_III, f"{when} a card may go only to {where} on its own "
                               "horizontal line.")
        return None

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "deal":
            if not self.dealing(state):
                return IllegalMove(COLUMNS, "The pack is exhausted: the deal is complete.")
            line = self.pending(state)
            if line is not None:
                card = state.piles[line][-1]
                return IllegalMove(PLAY_AT_ONCE, f"The {card.name} that has just turned up is "
                                   "suitable for a foundation on its line: play it at once "
                                   "before dealing on.")
            return None
        if action == "redeal":
            return IllegalMove(NO_REDEAL, "There is no re-deal.")
        return IllegalMove(BOARD, f"The Kings has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        slot, just, fresh = state.vars
        if move.action == "deal":
            # Deal to the end of the column, pausing when a suitable card turns up.
            while piles[STOCK]:
                line = place_of(slot)
                piles[line] = piles[line] + piles[STOCK][-1:]
                piles[STOCK] = piles[STOCK][:-1]
                fresh |= _bit(line)
                just = line
                slot += 1
                if self.suitable_now(State(tuple(piles), ()), line) or slot % ROWS == 0:
                    break
            if not piles[STOCK]:
                just = -1
        else:
            (src, dst), = move.steps
            si, di = self.pile_index(src), self.pile_index(dst)
            card = piles[si][-1]
            piles[si] = piles[si][:-1]
            piles[di] = piles[di] + (card,)
            if state.piles[STOCK]:  # during the deal (only foundation plays are legal then)
                if si == just and piles[STOCK]:
                    # The card that turned up is replaced by the next card of the pack.
                    piles[si] = piles[si] + piles[STOCK][-1:]
                    piles[STOCK] = piles[STOCK][:-1]
                    if not piles[STOCK]:
                        just = -1
                else:
                    fresh &= ~_bit(si)
                    if si == just:
                        just = -1
        return State(tuple(piles), (slot, just, fresh))

    # ---- the end ---------------------------------------------------------------------
    def _foundation_play(self, state: State, lines: tuple[tuple[Card, ...], ...]) -> bool:
        """Whether some outside card among ``lines`` can go to a foundation now (after the
        deal: the foundations do not change during the search)."""
        limited = self.options.rule_3 is RuleIII.ALWAYS
        for n, p in enumerate(lines):
            if not p:
                continue
            i = LINES.start + n
            targets = self.line_foundations(i) if limited else FOUNDS
            if any(self.fits(state, f, p[-1]) for f in targets):
                return True
        return False

    def _builds(self, lines: tuple[tuple[Card, ...], ...]) -> Iterator[tuple[int, int]]:
        both = self.options.lanes is Lanes.BOTH_GROUPS
        for a, p in enumerate(lines):
            if not p:
                continue
            rank = p[-1].rank
            for b, q in enumerate(lines):
                if a == b:
                    continue
                if q:
                    if abs(q[-1].rank - rank) == 1:
                        yield a, b
                elif not both or not lines[b + ROWS if b < ROWS else b - ROWS]:
                    yield a, b

    def _stuck(self, state: State) -> bool | None:
        """After the deal: True if no foundation play can ever be reached by building and
        lanes, False if one can, None if the search gave up (too many positions)."""
        start = tuple(state.piles[i] for i in LINES)
        seen = {start}
        todo = [start]
        while todo:
            lines = todo.pop()
            if self._foundation_play(state, lines):
                return False
            for a, b in self._builds(lines):
                nxt = list(lines)
                nxt[b] = lines[b] + lines[a][-1:]
                nxt[a] = lines[a][:-1]
                key = tuple(nxt)
                if key not in seen:
                    if len(seen) >= SEARCH_LIMIT:
                        return None
                    seen.add(key)
                    todo.append(key)
        return True

    def outcome_of(self, state: State) -> Outcome | None:
        if sum(len(state.piles[f]) for f in FOUNDS) == FOUNDATION_CARDS:
            return Outcome.WON
        if self.dealing(state):
            return None  # the deal, or the card that must be played, can always go on
        memo: dict[tuple[State, Any], bool | None] = self.__dict__.setdefault("_memo", {})
        key = (state, self.options)
        if key not in memo:
            if len(memo) > 256:
                memo.clear()
            memo[key] = self._stuck(state)
        # Building can go round in circles for ever; the game is lost when no foundation
        # play can be reached by any sequence of builds and lanes.
        return Outcome.LOST if memo[key] else None

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = sum(len(state.piles[f]) for f in FOUNDS) - 8
        if out is Outcome.WON:
            return "Won: every foundation has reached its king."
        if out is Outcome.LOST:
            return (f"Nothing more can reach the foundations: the patience has failed with "
                    f"{played} of 96 cards played.")
        if self.dealing(state):
            slot = state.vars[V_SLOT]
            column, row = divmod(slot, ROWS)
            side = "left" if column % 2 == 0 else "right"
            parts = [f"Dealing: {len(state.piles[STOCK])} cards in the pack",
                     f"next: {side} group, column {column // 2 + 1}, {_row_name(row)}",
                     f"{played} of 96 on the foundations"]
            if self.pending(state) is not None:
                parts.append("the card just dealt must be played (Rule III)")
            return " · ".join(parts)
        rule = ("Rule III still in force" if self.options.rule_3 is RuleIII.ALWAYS
                else "Rule III has ceased")
        return f"The deal is complete · {rule} · {played} of 96 on the foundations"

    def describe(self, state: State, move: Move) -> str:
        if move.action == "deal":
            return "The next column is dealt."
        (src, dst), = move.steps
        card = self.card_at(state, src)
        name = card.name if card else "a card"
        di = self.pile_index(dst)
        if di in FOUNDS:
            return f"The {name} is played from the {self.label(src)} to the {self.label(dst)}."
        if not state.piles[di]:
            return f"The {name} is placed in the lane of the {self.label(dst)}."
        return f"The {name} is moved from the {self.label(src)} to the {self.label(dst)}."

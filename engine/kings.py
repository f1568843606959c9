"""The Kings (two packs), by the book: 1914 printing, pp. 57–58 (plate p. 56).

Piles: the pack (96 cards once the eight aces are withdrawn); the eight foundations, two
upright columns of aces, two to each of four horizontal lines; and on each side of them a
group of columns, dealt four cards at a time. Each horizontal line of a group is kept as one
pile (a *packet*), from its inner card (next to the foundations) to its *outside* card
(Rule II), which is the pile's top: the leftmost card of the left-hand group, the rightmost
of the right.

During the deal a card may go to a foundation only from the column last dealt in its line,
and only to a foundation on its own horizontal line (Rule III). A card that is suitable *as
it turns up* must be played at once, before anything else, and is replaced at once by the
next card of the pack; a card that suits only later may be played or left, and is not
replaced. When the pack is exhausted the restriction ceases (by the book's advice;
``note-ki-1``), and the outside cards may also be built into sequences regardless of suit,
each packet's sequence keeping one direction (``note-ki-6``), and laid in lanes.

The game is lost when provably no win can follow (``note-ki-12``): when some card can never
be moved, or when no series of builds can bring a card to a foundation. Three proofs are
tried in turn, each sound: a fixpoint over which cards can ever move in the whole game, one
over which cards builds alone can ever uncover, and a bounded search of the builds that
ignores suits (Rule I makes them irrelevant) and the order of interchangeable packets.

See the chapter page for the text each rule id points at, and its editorial notes
(``note-ki-N``) for the readings behind the options.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

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
T = TypeVar("T")


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # foundations and sequences do not follow suit
RULE_II = _rule("rule-2")             # only the outside cards of each group are available
OUTSIDE = _rule("outside")            # Rule II's note: which cards are "outside"
RULE_III = _rule("rule-3")            # during the deal: the same horizontal line only
ACES = _rule("aces")                  # the eight aces withdrawn, in two columns, suit by suit
FOUNDATIONS = _rule("foundations")    # the eight aces ascend in sequence to kings
PLAY_AT_ONCE = _rule("play-at-once")  # a suitable card turning up is played at once, replaced
COLUMNS = _rule("columns")            # columns of four, alternately, until the pack is out
ORDER = _rule("order")                # deal the columns regularly, first left, then right
DEALING = _rule("dealing")            # never omit...; never from the inner columns
AFTER_DEAL = _rule("after-deal")      # the pack exhausted: any available card, any line
SEQUENCES = _rule("sequences")        # sequences up and down, now, on the outside cards
LANE = _rule("lane")                  # a whole row removed: any available card at its inner end
NO_REDEAL = _rule("no-redeal")        # there is no re-deal
BOARD = _rule("board")                # the board itself (notation errors, empty places)

ROWS = 4
#: The suits of the aces on the four lines, top to bottom, as on the plate.
ROW_SUITS = (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)
FOUNDATION_CARDS = 8 * 13
#: Positions (suits ignored, interchangeable packets merged) the search of the builds
#: explores at most when judging whether a card can still reach a foundation.
SEARCH_LIMIT = 20000


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


class Direction(Enum):
    """KI-6: whether the sequence on a packet keeps one direction."""

    KEPT = "kept"  # ascending or descending, set by its first two cards (the book's term)
    FREE = "free"  # each card one above or below the last, changing direction at will


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
    direction: Direction = option(
        Direction.KEPT, note="note-ki-6", label="The sequence on a packet",
        labels={Direction.KEPT: "keeps one direction, up or down (the book’s sequence)",
                Direction.FREE: "may turn from up to down and back"})
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
                     Fan.LEFT, mark=_row_name(r)) for r in range(ROWS))
    + tuple(PileSpec(f"r{r}", f"right group, {_row_name(r)}", Role.TABLEAU, _RIGHT_X,
                     float(r), Fan.RIGHT, mark=_row_name(r)) for r in range(ROWS))
)

STOCK = 0
FOUNDS = range(1, 9)
LINES = range(9, 17)
V_SLOT, V_JUST, V_FRESH, V_BUILT = 0, 1, 2, 3
#: Bits per packet in the ``built`` counter (how many cards have been laid on each packet).
_BUILT_BITS = 7
_BUILT_MASK = (1 << _BUILT_BITS) - 1


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


def _a(noun: str) -> str:
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def _bit(i: int) -> int:
    return 1 << (i - LINES.start)


def built_on(state: State, line: int) -> int:
    """How many of the cards of packet ``line`` were laid on it after the deal (building,
    or a card put in its lane); the others were dealt there."""
    return (state.vars[V_BUILT] >> (_BUILT_BITS * (line - LINES.start))) & _BUILT_MASK


def _with_built(built: int, line: int, count: int) -> int:
    shift = _BUILT_BITS * (line - LINES.start)
    return (built & ~(_BUILT_MASK << shift)) | (min(count, _BUILT_MASK) << shift)


def sequence_of(cards: Sequence[T], built: int) -> Sequence[T]:
    """The sequence a packet carries, read outwards: the cards laid on it after the deal,
    and the dealt card they were laid on (its *base*), if any. Only its first two cards
    matter: they set its direction. A packet on which nothing has been laid carries a
    sequence of one card, its outside card."""
    return cards[max(0, len(cards) - built - 1):]


def step_of(ranks: Sequence[int], built: int) -> int:
    """The direction of a packet's sequence: +1 ascending, -1 descending, 0 while it holds
    one card (either way)."""
    seq = sequence_of(ranks, built)
    if len(seq) < 2:
        return 0
    return 1 if seq[1] > seq[0] else -1


# --------------------------------------------------------------------------- the verdict

@dataclass(frozen=True, slots=True)
class Verdict:
    """What the engine can say about a position: its outcome, whether that was decided (a
    position is undecided only when the search of the builds gave up: it may or may not be
    lost), and, for a lost game, why."""

    outcome: Outcome | None
    decided: bool = True
    reason: str = ""


def never_moving(lines: Sequence[Sequence[int]], tops: Sequence[int],
                 partners: Sequence[int] | None) -> list[int]:
    """For each packet, how many cards at its bottom can certainly never move (0: any of
    them might), in the whole game, whatever is played.

    ``lines`` holds the ranks of each packet, bottom to top; ``tops`` the ranks on top of
    the foundations; ``partners[i]`` the packet that must also be empty for ``i`` to be a
    lane (None: any empty packet is a lane). A least fixpoint, over-estimating the cards
    that can ever move: a card may move only if every card above it may move first, and
    then only to a foundation that the cards which may move can raise to one below it, onto
    a card one rank away that may lie outside at the same time (one not under it), or into
    a packet that may be emptied. By induction on the moves of any game, every card that
    ever moves is counted as movable, so a card counted as never movable never moves.
    Directions and suits are ignored (they only forbid more)."""
    n = len(lines)
    stop = [len(p) for p in lines]   # cards at index >= stop[i] may move
    uncovered = [0] * 15             # how many cards of each rank may lie outside
    movable = [0] * 15               # how many cards of each rank may move
    for i, p in enumerate(lines):
        if p:
            uncovered[p[-1]] += 1
    found = [t for t in tops if t < KING]

    def reachable(rank: int) -> bool:  # a foundation may come to take ``rank``
        best = max((t for t in found if t < rank), default=None)
        return best is not None and all(movable[r] for r in range(best + 1, rank))

    changed = True
    while changed:
        changed = False
        lanes = [i for i in range(n) if stop[i] == 0]
        for i in range(n):
            while stop[i]:
                rank = lines[i][stop[i] - 1]
                lane = any(q != i and (partners is None or (partners[q] != i
                                                            and stop[partners[q]] == 0))
                           for q in lanes)
                if not (lane or uncovered[rank - 1] or uncovered[rank + 1]
                        or reachable(rank)):
                    break
                stop[i] -= 1
                movable[rank] += 1
                if stop[i]:
                    uncovered[lines[i][stop[i] - 1]] += 1
                changed = True
    return stop


class TheKings(Game):
    slug = SLUG
    title = "The Kings"
    packs = 2
    Options = KingsOptions
    PILES = PILES
    VARS = ("slot", "just", "fresh", "built")
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
    LEDGER = {
        RULE_I: "A foundation takes any card one rank above its top, whatever the suit, and "
                "a card is laid on a packet one rank above or below its outside card, "
                "whatever the suit.",
        RULE_II: "Only the outside card of each packet moves; a card with another outside "
                 "it is refused (KI-3: during the deal a card released in an inner column "
                 "still waits for the end of the deal).",
        OUTSIDE: "Each horizontal line of a group is one packet whose top is its outside "
                 "card: the leftmost of the left-hand group, the rightmost of the "
                 "right-hand group.",
        RULE_III: "During the deal a card goes only to a foundation of its own horizontal "
                  "line (either of the two, or under KI-2’s narrower reading only the one "
                  "beside its group); once the pack is exhausted any foundation (KI-1), or "
                  "under the strict reading still only its line’s.",
        ACES: "The deal begins with the eight aces withdrawn and set in two columns, the two "
              "aces of one suit side by side on each line (diamonds, clubs, hearts, spades "
              "from the top); the other 96 cards form the pack (KI-9).",
        FOUNDATIONS: "Each foundation ascends by one rank at a time, any suit, from its ace to "
                     "a king, after which it takes nothing; a card on a foundation never "
                     "moves again (KI-9, KI-10).",
        PLAY_AT_ONCE: "When a card turns up suitable for a foundation of its line, the deal "
                      "pauses and nothing else may be done until it is played; it is then "
                      "replaced by the next card of the pack, which is judged in its turn "
                      "(KI-4).",
        COLUMNS: "The Deal button deals the next column of four (the last may be short) "
                 "until the pack is exhausted; cards never come from the pack otherwise.",
        ORDER: "Columns are dealt top to bottom, the first on the left, then alternately "
               "right and left, each outside the last on its side (KI-5).",
        DEALING: "During the deal a suitable card that has just turned up may not be passed "
                 "over (no other card may be played first), and a card uncovered in an "
                 "inner column is refused until the deal is complete; a card of the last "
                 "column of its line may be played later in the deal, and is not replaced "
                 "(KI-3; under KI-3’s strict reading only a card that has just turned up).",
        AFTER_DEAL: "Once the pack is exhausted any outside card may go to any foundation that "
                    "takes it (under KI-1’s strict reading only to its own line’s), and "
                    "nothing is compulsory any more, except a last card that turned up "
                    "suitable (KI-4).",
        SEQUENCES: "After the deal an outside card may be laid on the outside card of any "
                   "other packet one rank above or below it, keeping the direction its "
                   "sequence has taken (or either way, under KI-6’s free reading); moving "
                   "cards one by one to another packet reverses them; no building during "
                   "the deal (KI-7).",
        LANE: "A packet emptied after the deal (under KI-8’s strict reading, with its line "
              "empty in the other group too) takes any outside card at its inner end, and "
              "is built on like the others; a lane is never filled during the deal.",
        NO_REDEAL: "There is no re-deal: the game is lost once provably no win can follow "
                   "(KI-11, KI-12).",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        rest = [c for c in pack(2) if c.rank != ACE]
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for r, suit in enumerate(ROW_SUITS):
            piles[FOUNDS.start + r] = (Card(ACE, suit),)
            piles[FOUNDS.start + ROWS + r] = (Card(ACE, suit),)
        piles[STOCK] = tuple(shuffled(rest, deal))
        return State(tuple(piles), (0, -1, 0, 0))

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
        """The line whose card has just turned up suitable, and must be played at once.

        ``just`` names the line of the card that has just turned up (dealt, or replacing
        one played) until anything else is done, so a card counts here only if it suited
        as it turned up (KI-4)."""
        just = state.vars[V_JUST]
        if just >= 0 and state.vars[V_FRESH] & _bit(just) and self.suitable_now(state, just):
            return just
        return None

    def _lane_open(self, state: State, dst: int) -> bool:
        if self.options.lanes is Lanes.ONE_GROUP:
            return True
        return not state.piles[self.partner(dst)]

    @staticmethod
    def partner(line: int) -> int:
        """The packet on the other side of the foundations, on the same horizontal line."""
        return line + ROWS if is_left(line) else line - ROWS

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
        due = self.pending(state)
        if due is not None and (si != due or di not in FOUNDS):
            turned = state.piles[due][-1]
            return IllegalMove(DEALING, f"The {turned.name} has just turned up suitable for a "
                               "foundation of its line: it must be played at once, and "
                               "nothing else may be done first.")
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
        top = target[-1]
        if abs(top.rank - card.rank) != 1:
            return IllegalMove(SEQUENCES, f"The {card.name} does not follow the "
                               f"{top.name} in sequence: a card goes on one a rank "
                               "above or below it, of any suit (Rule I).")
        if self.options.direction is Direction.KEPT:
            ranks = [c.rank for c in target]
            step_ = step_of(ranks, built_on(state, di))
            if step_ and card.rank != top.rank + step_:
                way = "ascends" if step_ > 0 else "descends"
                need = top.rank + step_
                first = sequence_of(target, built_on(state, di))[0]
                wants = (f"it takes {_a(RANK_NAMES[need])} next" if ACE < need <= KING
                         else "it can go no further")
                return IllegalMove(SEQUENCES, f"The sequence on the {PILES[di].label} "
                                   f"{way} from the {first.name}: {wants}, not "
                                   f"{_a(RANK_NAMES[card.rank])}. A sequence is reversed "
                                   "only by moving it, card by card, to another packet.")
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
                               f"needs {_a(RANK_NAMES[pile[-1].rank + 1])} next, of any suit "
                               "(Rule I).")
        if self.dealing(state):
            fresh = state.vars[V_FRESH] & _bit(si)
            if not fresh:
                return IllegalMove(DEALING, "During the deal you may not play cards from the "
                                   "inner columns, even if released.")
            if (self.options.deal_availability is DealAvailability.JUST_DEALT
                    and si != state.vars[V_JUST]):
                return IllegalMove(PLAY_AT_ONCE, "Under this reading a card is played "
                                   "during the deal only as it turns up.")
        if ((self.line_limited(state) or si == self.pending(state))
                and di not in self.line_foundations(si)):
            where = ("a foundation" if self.options.line_foundations
                     is LineFoundations.EITHER else "the foundation beside its group")
            if self.dealing(state):
                text = f"During the deal a card may go only to {where} on its own line."
            elif self.options.rule_3 is RuleIII.ALWAYS:
                text = f"Under this reading a card may go only to {where} on its own line."
            else:
                text = (f"The last card of the deal turned up suitable for {where} on its own "
                        "line, and is played there at once.")
            return IllegalMove(RULE_III, text)
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
        slot, just, fresh, built = state.vars
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
            return State(tuple(piles), (slot, just, fresh, built))
        (src, dst), = move.steps
        si, di = self.pile_index(src), self.pile_index(dst)
        card = piles[si][-1]
        piles[si] = piles[si][:-1]
        piles[di] = piles[di] + (card,)
        if si in LINES:
            built = _with_built(built, si, max(0, built_on(state, si) - 1))
        if di in LINES:
            built = _with_built(built, di, built_on(state, di) + 1)
        if si == just and di in FOUNDS and piles[STOCK]:
            # The card played as it turned up is replaced by the next card of the pack,
            # which has in its turn just turned up.
            piles[si] = piles[si] + piles[STOCK][-1:]
            piles[STOCK] = piles[STOCK][:-1]
        else:
            just = -1
            if piles[STOCK]:  # the card uncovered belongs to an inner column
                fresh &= ~_bit(si)
        return State(tuple(piles), (slot, just, fresh, built))

    # ---- the end ---------------------------------------------------------------------
    def outcome_of(self, state: State) -> Outcome | None:
        return self.judge(state).outcome

    def outcome_decided(self, state: State) -> bool:
        """Whether :meth:`outcome_of` reached a verdict: False only when the search of the
        builds gave up before finding a way to a foundation or proving there is none (the
        game may then be lost or not; it is not called lost)."""
        return self.judge(state).decided

    def judge(self, state: State) -> Verdict:
        return self.remembered(state, self._judge)

    def _judge(self, state: State) -> Verdict:
        piles = state.piles
        if sum(len(piles[f]) for f in FOUNDS) == FOUNDATION_CARDS:
            return Verdict(Outcome.WON)
        if self.dealing(state) or self.pending(state) is not None:
            return Verdict(None)  # the deal, or the card that must be played, goes on
        lines = [[c.rank for c in piles[i]] for i in LINES]
        tops = [piles[f][-1].rank if piles[f] else 0 for f in FOUNDS]
        both = self.options.lanes is Lanes.BOTH_GROUPS
        partners = [self.partner(i) - LINES.start for i in LINES] if both else None
        # 1. A card that can never move can never reach a foundation.
        stop = never_moving(lines, tops, partners)
        if all(s == len(p) for s, p in zip(stop, lines)):
            return Verdict(Outcome.LOST, reason="no card can be moved")
        for n, s in enumerate(stop):
            if s:
                i = LINES.start + n
                card = piles[i][s - 1]
                return Verdict(Outcome.LOST, reason=f"the {card.name} in the "
                               f"{PILES[i].label} can never be moved")
        goals = self._goals(state)
        if any(p and p[-1] in goals[n] for n, p in enumerate(lines)):
            return Verdict(None)  # a card can be played now
        # 2. Search the builds and lanes for a position where a card can be played. (The
        # same fixpoint with the foundations fixed would add nothing: when every card may
        # move, some card a foundation wants may be uncovered by building alone.)
        found = self._search(lines, goals, built=[built_on(state, i) for i in LINES])
        if found is None:
            return Verdict(None, decided=False)
        if found:
            return Verdict(None)
        return Verdict(Outcome.LOST, reason="no card can ever reach a foundation")

    def _goals(self, state: State) -> list[frozenset[int]]:
        """For each packet (after the deal), the ranks a foundation it may play to takes."""
        def wants(fs: Sequence[int]) -> frozenset[int]:
            return frozenset(state.piles[f][-1].rank + 1 for f in fs
                             if state.piles[f] and state.piles[f][-1].rank < KING)
        if self.options.rule_3 is RuleIII.ALWAYS:
            return [wants(self.line_foundations(i)) for i in LINES]
        every = wants(FOUNDS)
        return [every] * len(LINES)

    def _canon(self) -> Any:
        """How to merge positions that differ only by the order of packets the rules treat
        alike: the key of a position (a tuple of packets, each ``(built, *ranks)``)."""
        always = self.options.rule_3 is RuleIII.ALWAYS
        both = self.options.lanes is Lanes.BOTH_GROUPS
        if always and self.options.line_foundations is LineFoundations.OWN_SIDE:
            return lambda lines: lines
        if always:  # rows differ; the two packets of a row are alike
            def by_row(lines: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
                pairs = [sorted((lines[r], lines[r + ROWS])) for r in range(ROWS)]
                return tuple(p[0] for p in pairs) + tuple(p[1] for p in pairs)
            return by_row
        if both:  # the rows are alike, each keeping its pair of packets
            def by_pair(lines: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
                pairs = sorted(tuple(sorted((lines[r], lines[r + ROWS]))) for r in range(ROWS))
                return tuple(p[0] for p in pairs) + tuple(p[1] for p in pairs)
            return by_pair
        return lambda lines: tuple(sorted(lines))

    def _search(self, lines: list[list[int]], goals: list[frozenset[int]],
                built: list[int]) -> bool | None:
        """Whether builds and lanes alone (the foundations unchanged) can bring to the
        outside of a packet a card that a foundation it may play to takes: True if so,
        False if provably not, None if the search gave up (SEARCH_LIMIT positions).

        Suits are left out (Rule I: nothing follows suit), and positions that differ only
        by the order of packets the rules treat alike are one."""
        kept = self.options.direction is Direction.KEPT
        both = self.options.lanes is Lanes.BOTH_GROUPS
        canon = self._canon()
        alike = self.options.rule_3 is RuleIII.DEAL  # every row plays to any foundation
        n = len(lines)
        start = canon(tuple((built[k] if kept else 0, *p) for k, p in enumerate(lines)))
        seen = {start}
        todo = [start]
        while todo:
            pos = todo.pop()
            for a in range(n):
                src = pos[a]
                if len(src) == 1:
                    continue
                rank = src[-1]
                rest = (max(0, src[0] - 1) if kept else 0, *src[1:-1])
                for b in range(n):
                    if b == a:
                        continue
                    dst = pos[b]
                    if len(dst) == 1:
                        if both and len(pos[(b + ROWS) % n]) > 1:
                            continue
                        if len(src) == 2 and alike and (not both
                                                        or len(pos[(a + ROWS) % n]) == 1):
                            continue  # the same position with the packets exchanged
                        new = (1 if kept else 0, rank)
                    else:
                        top = dst[-1]
                        if abs(top - rank) != 1:
                            continue
                        if kept:
                            d = step_of(dst[1:], dst[0])
                            if d and rank != top + d:
                                continue
                        new = (dst[0] + 1 if kept else 0, *dst[1:], rank)
                    nxt = list(pos)
                    nxt[a] = rest
                    nxt[b] = new
                    if (len(rest) > 1 and rest[-1] in goals[a]) or rank in goals[b]:
                        return True
                    key = canon(tuple(nxt))
                    if key not in seen:
                        if len(seen) >= SEARCH_LIMIT:
                            return None
                        seen.add(key)
                        todo.append(key)
        return False

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = sum(len(state.piles[f]) for f in FOUNDS) - 8
        if out is Outcome.WON:
            return "Won: every foundation has reached its king."
        if out is Outcome.LOST:
            why = self.judge(state).reason
            return (f"The patience has failed with {played} of 96 cards played: "
                    f"{why}.")
        due = self.pending(state) is not None
        if self.dealing(state):
            slot = state.vars[V_SLOT]
            column, row = divmod(slot, ROWS)
            side = "left" if column % 2 == 0 else "right"
            parts = [f"Dealing: {len(state.piles[STOCK])} cards in the pack",
                     f"next: {side} group, column {column // 2 + 1}, {_row_name(row)}",
                     f"{played} of 96 on the foundations"]
            if due:
                parts.append("the card just dealt must be played (Rule III)")
            return " · ".join(parts)
        rule = ("Rule III still in force" if self.options.rule_3 is RuleIII.ALWAYS
                else "Rule III has ceased")
        parts = ["The deal is complete", rule, f"{played} of 96 on the foundations"]
        if due:
            parts.append("the last card dealt must be played first")
        elif not self.outcome_decided(state):
            parts.append("the board cannot tell whether a card can still be played")
        return " · ".join(parts)

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

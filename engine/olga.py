"""The Olga (four piquet packs), by the book: 1914 printing, plate p. 82, text p. 83.

Four piquet packs: 128 cards, the ace and the seven to the king of each suit, four times over.
Piles: the flower-bed, seven columns of seven cards (the book's "perpendicular rows") dealt in
seven horizontal rows, the first, third, fifth and seventh face upward and the others face
downward; sixteen foundation places, eight down each side as the plate draws them, each begun
by any ace and built up in suit through the seven to the king (a piquet pack has no two to
six); the pack, the card just turned up from it, and the talon.

Only the lowest card of a column is available (Rule II); a face-down card is turned up as soon
as the card below it is removed. Available cards, the card turned up and the talon's top are
placed on a column's lowest card in descending sequence and alternate colours (Rule III), one
card at a time (OL-3's default; its other reading lifts a sequence at a column's foot whole);
after the seven comes the ace unless OL-2's other reading is chosen. A
column emptied may be refilled only with an available card of the flower-bed. The card turned
up must be used while it can be played or placed (OL-4's default). There is no re-deal. See
the chapter page for the text each rule id points at, and its editorial notes (``note-ol-N``)
for the readings behind the options.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .cards import ACE, KING, KNAVE, QUEEN, RANK_NAMES, SUITS, Card
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
from .rules import plural, turn_up, turned_card_use

SLUG = "the-olga"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # the foundations follow suit
RULE_II = _rule("rule-2")             # a card turned face upward when the card below goes
RULE_III = _rule("rule-3")            # descending sequence, alternate colours; pack and talon too
FLOWER_BED = _rule("flower-bed")      # forty-nine cards in seven rows of seven: the flower-bed
FACES = _rule("faces")                # rows face up and face down alternately
OVERLAP = _rule("overlap")            # each row may half cover the one before
FOUNDATIONS = _rule("foundations")    # sixteen aces, ascending through sevens to kings
FIRST_PLAYS = _rule("first-plays")    # aces and suitable cards of the lowest row played
BUILD = _rule("build")                # available cards placed on each other (Rule III)
TRANSFER = _rule("transfer")          # transferred from one packet to another
PACK_TALON = _rule("pack-talon")      # cards from the pack or talon placed on the flower-bed
NOT_OBLIGED = _rule("not-obliged")    # no obligation to play on the foundations
DEAL = _rule("deal")                  # continue to deal out the entire pack
TALON = _rule("talon")                # the unsuitable cards forming the talon
SPACE = _rule("space")                # an emptied column filled by an available flower-bed card
BOARD = _rule("board")                # the board itself (notation errors)

COLUMNS = 7
ROWS = 7
FOUNDATION_COUNT = 16
#: The ranks of a piquet pack, in the order the foundations take them.
PIQUET_RANKS: tuple[int, ...] = (ACE, 7, 8, 9, 10, KNAVE, QUEEN, KING)
PACKS = 4
TOTAL = PACKS * 4 * len(PIQUET_RANKS)   # 128


def piquet_pack(packs: int = 1) -> list[Card]:
    """``packs`` piquet packs of 32 cards (ace, seven to king in each suit), in a fixed
    order."""
    return [Card(r, s) for _ in range(packs) for s in SUITS for r in PIQUET_RANKS]


def next_up(rank: int) -> int | None:
    """The rank a foundation takes after ``rank``: the seven after the ace (the pack has no two
    to six), then one higher, nothing after the king."""
    if rank == ACE:
        return 7
    return None if rank == KING else rank + 1


@dataclass(frozen=True, slots=True)
class OlgaOptions:
    ace_on_seven: bool = option(
        True, note="note-ol-2", label="An ace on a seven of the flower-bed",
        labels={True: "allowed: in a piquet pack the ace comes below the seven",
                False: "refused: nothing is placed on a seven"})
    turned_card: bool = option(
        True, note="note-ol-4", label="A card turned up that could be played or placed on "
        "the flower-bed",
        labels={True: "must be used before the next card is turned",
                False: "may be laid on the talon"})
    sequences: bool = option(
        False, note="note-ol-3", label="A sequence built on a column of the flower-bed",
        labels={False: "is moved one card at a time",
                True: "may be moved whole onto another column"})


# ---------------------------------------------------------------------------- the layout
# As in the plate: eight foundation places down each side (here two columns of four on each
# side, so the board is not too tall), the seven columns of the flower-bed between them; the
# pack, the card turned up and the talon in a row below the flower-bed. On a phone the
# sixteen foundations stand in two rows of eight above the flower-bed.

_FX = (0.0, 1.0, 10.0, 11.0)          # the four columns of foundation places
_FY = 1.3                              # between two foundation places, down a side
_CX0 = 2.3                             # the flower-bed's first column
_BED_FAN = 4.6                         # how far a column may spread, in card heights
_LOW_Y = 6.0                           # the row of the pack, the card turned up and the talon


def _foundation(j: int) -> PileSpec:
    side = "left" if j < 8 else "right"
    x = _FX[j // 4]
    y = (j % 4) * _FY
    return PileSpec(f"f{j}", f"foundation {j + 1} ({side})", Role.FOUNDATION, x, y,
                    mark="ace")


PILES: tuple[PileSpec, ...] = (
    tuple(_foundation(j) for j in range(FOUNDATION_COUNT))
    + tuple(PileSpec(f"c{i}", f"column {i + 1} of the flower-bed", Role.TABLEAU,
                     _CX0 + i, 0.0, Fan.DOWN, fan_limit=_BED_FAN, mark=f"column {i + 1}")
            for i in range(COLUMNS))
    + (PileSpec("stock", "the pack", Role.STOCK, _CX0 + 1.5, _LOW_Y),
       PileSpec("turned", "the card turned up", Role.RESERVE, _CX0 + 3.0, _LOW_Y,
                mark="turned up"),
       PileSpec("talon", "the talon", Role.TALON, _CX0 + 4.5, _LOW_Y))
)

FOUNDATION_PILES = range(0, FOUNDATION_COUNT)
BED = range(FOUNDATION_COUNT, FOUNDATION_COUNT + COLUMNS)
STOCK = BED.stop
TURNED = STOCK + 1
TALON_PILE = STOCK + 2

#: One counter per column: the fewest cards it has held since the deal (its low-water mark).
#: The cards beneath that mark were never uncovered, so those of the second, fourth and sixth
#: rows among them are still face down; the card at the mark itself was turned up (Rule II).
VARS = tuple(f"low{i}" for i in range(COLUMNS))


def _narrow_layout() -> Layout:
    """For a phone: the sixteen foundation places in two rows of eight above the flower-bed,
    the pack, the card turned up and the talon below it."""
    at: dict[str, tuple[float, float, int]] = {}
    for j in range(FOUNDATION_COUNT):
        at[f"f{j}"] = (float(j % 8), 1.3 * (j // 8), 0)
    for i in range(COLUMNS):
        at[f"c{i}"] = (0.5 + i, 2.8, 0)
    y = 2.8 + _BED_FAN + 1.4
    at |= {"stock": (1.5, y, 0), "turned": (3.5, y, 0), "talon": (5.5, y, 0)}
    return Layout("narrow", (8.0, y + 1.3), at, max_width=560)


def face_down(index: int, low: int) -> bool:
    """Whether the card at ``index`` (0 = the first row) of a column whose low-water mark is
    ``low`` lies face down: a card of the second, fourth or sixth row never uncovered."""
    return index < low - 1 and index % 2 == 1


def sequence_start(pile: tuple[Card, ...], low: int,
                   fits: Callable[[Card, Card], bool]) -> int:
    """The index of the highest card of the sequence at the foot of a column (of ``low``
    low-water mark): face up, each card below it fitting on the one above (``fits``)."""
    k = len(pile) - 1
    while k > 0 and not face_down(k - 1, low) and fits(pile[k], pile[k - 1]):
        k -= 1
    return k


def alternate(card: Card, top: Card) -> bool:
    return card.red != top.red


class TheOlga(Game):
    slug = SLUG
    title = "The Olga"
    packs = PACKS
    Options = OlgaOptions
    PILES = PILES
    VARS = VARS
    GRID = (_FX[-1] + 1.0, _LOW_Y + 1.3)
    LAYOUTS = (_narrow_layout(),)
    FIGURES = (
        Figure("tableau", "The Olga after the deal, in modern cards.",
               "The tableau of the Olga just after the deal, drawn in modern cards: in the "
               "middle the flower-bed, seven columns of seven cards, each column hanging "
               "down from its first card, the cards of the first, third, fifth and seventh "
               "rows face up and those of the second, fourth and sixth face down; down each "
               "side eight empty places for the aces, in two columns of four. The pack, the "
               "card turned up and the talon are not shown.",
               piles=tuple(p.id for p in PILES[:BED.stop])),
    )
    DIAGRAM_DEAL = 3
    ACTIONS = (
        ActionSpec("deal", "Turn up the next card", "t", DEAL),
    )
    LEDGER = {
        RULE_I: "A foundation takes only cards of its ace’s suit; another suit is refused.",
        RULE_II: "Only the lowest card of a column moves; a face-down card is turned face up "
                 "at once when the card below it leaves, and is then available; a card "
                 "higher up, face up or not, is refused.",
        RULE_III: "A card goes on a column’s lowest card only if it is one lower in the "
                  "piquet order (king, queen, knave, ten, nine, eight, seven, ace) and of the "
                  "other colour: from another column, the card turned up or the talon’s top; "
                  "the ace on a seven is refused under OL-2’s other reading.",
        FLOWER_BED: "The deal lays forty-nine cards in seven columns of seven, the first "
                    "card of each column in the top row.",
        FACES: "The cards of the first, third, fifth and seventh rows are dealt face up, "
               "those of the second, fourth and sixth face down (the board shows them as "
               "backs).",
        OVERLAP: "Each column is drawn with every row half covering the one above it.",
        FOUNDATIONS: "Sixteen foundation places, eight each side: an empty place takes any "
                     "ace, then the seven of its suit, the eight and so on to the king; a "
                     "card of another rank is refused, a complete foundation takes nothing, "
                     "and a card played there never leaves it.",
        FIRST_PLAYS: "From the first move the lowest card of any column may go to a "
                     "foundation that takes it, and the card above it is turned up if face "
                     "down; nothing is played unasked (the board’s auto-play, off by "
                     "default, plays only aces to empty places).",
        BUILD: "The lowest card of a column may be placed on another column’s lowest card in "
               "descending sequence and alternate colours, one card at a time (OL-3); under "
               "OL-3’s other reading a sequence lying face up at a column’s foot may be "
               "moved whole onto a card that takes its highest card.",
        TRANSFER: "Such transfers between columns may be made at any time, back and forth, "
                  "as often as the player likes.",
        PACK_TALON: "The card turned up and the talon’s top may be placed in sequence on a "
                    "column (never into an empty one); a card straight from the pack must be "
                    "turned up first.",
        NOT_OBLIGED: "No move is forced: a card that could go to a foundation may be placed "
                     "on the flower-bed instead.",
        DEAL: "Turn up the next card turns the pack’s top card face up, first laying the "
              "card turned before it, if unused, on the talon; once the pack is out it is "
              "refused, and there is no re-deal.",
        TALON: "The talon is one packet, face up, of the cards turned up and not used; only "
               "its top card can be used, and nothing but the card turned up goes there. By "
               "default the next card cannot be turned while the card turned up could be "
               "played on a foundation or placed on a column (OL-4); under OL-4’s other "
               "reading any card may be laid aside.",
        SPACE: "An emptied column may be filled, when the player chooses, with the lowest "
               "card of another column (a single card under either reading of OL-3), and is "
               "built on like the others; the card turned up and the talon’s top are refused "
               "there.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def full_pack(cls) -> Counter[Card]:
        return Counter(piquet_pack(PACKS))

    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        stock = list(shuffled(piquet_pack(PACKS), deal))
        columns: list[list[Card]] = [[] for _ in BED]
        for _row in range(ROWS):           # row by row, left to right, from the pack's top
            for col in columns:
                col.append(stock.pop())
        for i, col in zip(BED, columns, strict=True):
            piles[i] = tuple(col)
        piles[STOCK] = tuple(stock)
        return State(tuple(piles), (ROWS,) * COLUMNS)

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        game = cls(state, options)
        if len(p[TURNED]) > 1:
            raise PositionError("the card turned up is a single card")
        for f in FOUNDATION_PILES:
            pile = p[f]
            if pile and pile[0].rank != ACE:
                raise PositionError(f"{PILES[f].label} does not begin with an ace")
            for a, b in zip(pile, pile[1:], strict=False):
                if b.suit is not a.suit or b.rank != next_up(a.rank):
                    raise PositionError(f"{PILES[f].label} is not built in order")
        for n, i in enumerate(BED):
            pile, low = p[i], state.vars[n]
            if not 0 <= low <= min(ROWS, len(pile)):
                raise PositionError(f"the low-water mark of {PILES[i].label} is impossible")
            for k in range(max(low, 1), len(pile)):
                if not game.fits(pile[k], pile[k - 1]):
                    raise PositionError(f"{PILES[i].label} is not built in sequence and "
                                        "alternate colours below its dealt cards")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def low(self, state: State, i: int) -> int:
        return state.vars[i - BED.start]

    def fits(self, card: Card, top: Card) -> bool:
        """Whether ``card`` goes on ``top`` in the flower-bed: one lower in the piquet order,
        of the other colour (Rule III); an ace on a seven under OL-2's default."""
        if not alternate(card, top):
            return False
        if top.rank == 7:
            return card.rank == ACE and self.options.ace_on_seven
        return top.rank > 7 and card.rank == top.rank - 1

    def run_start(self, state: State, i: int) -> int:
        """The index of the first card a move from column ``i`` may lift: under OL-3's other
        reading, the highest card of the sequence lying at the foot of the column (face up,
        each card below it one lower and of the other colour); otherwise its lowest card."""
        pile = state.piles[i]
        if not self.options.sequences:
            return len(pile) - 1
        return sequence_start(pile, self.low(state, i), self.fits)

    def foundation_refusal(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        label = PILES[f].label
        if not pile:
            if card.rank == ACE:
                return None
            return IllegalMove(FOUNDATIONS, f"The foundations consist of the sixteen aces: "
                               f"{label} is empty and takes only an ace.")
        top = pile[-1]
        if card.suit is not top.suit:
            return IllegalMove(RULE_I, f"The foundations follow suit: {label} takes only "
                               f"{top.suit.noun}.")
        nxt = next_up(top.rank)
        if nxt is None:
            return IllegalMove(FOUNDATIONS, f"{label[:1].upper()}{label[1:]} is complete: it "
                               "has reached its king.")
        if card.rank != nxt:
            return IllegalMove(FOUNDATIONS, f"The foundations ascend in sequence through the "
                               f"sevens to the kings: {label} needs the "
                               f"{Card(nxt, top.suit).name} next.")
        return None

    def bed_refusal(self, card: Card, top: Card) -> IllegalMove | None:
        if self.fits(card, top):
            return None
        if not alternate(card, top):
            return IllegalMove(RULE_III, f"Cards on the flower-bed are placed in alternate "
                               f"colours: the {card.name} cannot go on the {top.name}.")
        if top.rank == ACE:
            return IllegalMove(RULE_III, "Cards on the flower-bed descend in sequence: nothing "
                               "is placed on an ace.")
        if top.rank == 7:
            if card.rank == ACE:
                return IllegalMove(RULE_III, "Under the reading chosen (OL-2), nothing is "
                                   "placed on a seven.")
            return IllegalMove(RULE_III, "Cards on the flower-bed descend in sequence: below "
                               "the seven comes only the ace, of the other colour.")
        return IllegalMove(RULE_III, f"Cards on the flower-bed descend in sequence: the "
                           f"{top.name} takes only {_a(top.rank - 1)} of the other colour.")

    def turned_use(self, state: State) -> str | None:
        """Under OL-4's default reading: where the card turned up could be employed (played on
        a foundation or placed on a column), in words; None when it could not be."""
        p = state.piles
        if not (self.options.turned_card and p[TURNED]):
            return None
        return turned_card_use(
            p[TURNED][-1], [(PILES[f].label, f) for f in FOUNDATION_PILES],
            [(PILES[c].label, p[c]) for c in BED],
            founds=lambda f, card: self.foundation_refusal(state, f, card) is None,
            fits=self.fits)

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        p = state.piles
        sources = [c for c in BED if p[c]] + [s for s in (TURNED, TALON_PILE) if p[s]]
        for s in sources:
            for d in (*FOUNDATION_PILES, *BED):
                if d != s:
                    yield Move.step(PILES[s].id, PILES[d].id)
            if s in BED:                # a sequence lifted whole, under OL-3's other reading
                for k in range(self.run_start(state, s), len(p[s]) - 1):
                    for d in BED:
                        if d != s:
                            yield Move.step(f"{PILES[s].id}:{k}", PILES[d].id)
        yield Move(action="deal")

    def legal_in(self, state: State) -> list[Move]:
        """Exactly the legal moves, made directly from the rules (a test compares them with
        :meth:`refusal` over every step)."""
        p = state.piles
        out: list[Move] = []
        sources = [c for c in BED if p[c]] + [s for s in (TURNED, TALON_PILE) if p[s]]
        for s in sources:
            card = p[s][-1]
            sid = PILES[s].id
            for d in FOUNDATION_PILES:
                pile = p[d]
                if (card.rank == ACE if not pile else
                        card.suit is pile[-1].suit and next_up(pile[-1].rank) == card.rank):
                    out.append(Move.step(sid, PILES[d].id))
            for d in BED:
                if d == s:
                    continue
                pile = p[d]
                if (s in BED) if not pile else self.fits(card, pile[-1]):
                    out.append(Move.step(sid, PILES[d].id))
            if s in BED:
                for k in range(self.run_start(state, s), len(p[s]) - 1):
                    for d in BED:
                        if d != s and p[d] and self.fits(p[s][k], p[d][-1]):
                            out.append(Move.step(f"{sid}:{k}", PILES[d].id))
        if p[STOCK] and self.turned_use(state) is None:
            out.append(Move(action="deal"))
        return out

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        p = state.piles
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        # where the card comes from
        if si in FOUNDATION_PILES:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if si in BED and not step.top:
            if face_down(step.k, self.low(state, si)):
                return IllegalMove(RULE_II, "That card is face down: it is turned up only when "
                                   "the card below it is removed.")
            if not self.options.sequences:
                return IllegalMove(RULE_II, "Only the lowest card of each column of the "
                                   "flower-bed is available; the cards above it wait until "
                                   "it is removed (OL-3).")
            if step.k < self.run_start(state, si):
                return IllegalMove(RULE_III, f"Only a sequence lying at the foot of a column "
                                   f"moves whole: the cards below the {card.name} do not "
                                   "descend from it in alternate colours.")
            if di in FOUNDATION_PILES:
                return IllegalMove(RULE_II, "Cards are played on the foundations one at a "
                                   "time, the lowest card of the column first.")
            if di in BED and not p[di]:
                return IllegalMove(SPACE, "An empty column is filled with one available card "
                                   "of the flower-bed, not with a sequence; sequences are "
                                   "then placed upon that card.")
        if si == TALON_PILE and not step.top:
            return IllegalMove(TALON, "Only the uppermost card of the talon can be used.")
        if si == STOCK:
            return IllegalMove(DEAL, "Cards come from the pack by turning them up one at a "
                               "time (Turn up the next card).")
        # where it goes
        if di in FOUNDATION_PILES:
            return self.foundation_refusal(state, di, card)
        if di in BED:
            if not p[di]:
                if si in BED:
                    return None
                return IllegalMove(SPACE, "An empty column of the flower-bed is filled only "
                                   "with an available card of the flower-bed, not from the "
                                   "pack or the talon.")
            return self.bed_refusal(card, p[di][-1])
        if di == TALON_PILE:
            return IllegalMove(TALON, "A card turned up goes to the talon when the next card "
                               "is turned; nothing else goes there.")
        if di == TURNED:
            return IllegalMove(DEAL, "Only the pack’s next card is turned up there.")
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action != "deal":
            if action == "redeal":
                return IllegalMove(DEAL, "The pack is dealt out once: the book gives no "
                                   "re-deal.")
            return IllegalMove(BOARD, f"The Olga has no action {action!r}.")
        if not state.piles[STOCK]:
            return IllegalMove(DEAL, "The pack is exhausted, and the book gives no re-deal.")
        use = self.turned_use(state)
        if use is not None:
            return IllegalMove(TALON, f"Only the unsuitable cards form the talon: the "
                               f"{state.piles[TURNED][-1].name} just turned up can be {use}, "
                               "so it must be used before the next card is turned.")
        return None

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        if move.action == "deal":
            turn_up(piles, STOCK, TURNED, TALON_PILE)
            return State(tuple(piles), state.vars)
        step = self.resolve_step(state, move)
        assert isinstance(step, Step)
        moved = piles[step.src][step.k:]          # one card, or a sequence (OL-3)
        piles[step.src] = piles[step.src][:step.k]
        piles[step.dst] = piles[step.dst] + moved
        if step.src in BED:
            # Rule II: the card above, if face down, is turned up at once; the mark records it.
            n = step.src - BED.start
            low = min(state.vars[n], len(piles[step.src]))
            if low != state.vars[n]:
                return State(tuple(piles), state.with_vars({n: low}).vars)
        return State(tuple(piles), state.vars)

    def pack_move(self, state: State, legal: list[Move]) -> Move | None:
        """A click on the pack turns up the next card (refused, with the reason, when it may
        not be turned)."""
        return Move(action="deal")

    # ---- the solver ------------------------------------------------------------------
    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """The sixteen foundation places: each says by its own cards what it takes. (The
        columns are not alike: each carries its own low-water mark.)"""
        return (tuple(FOUNDATION_PILES),)

    def safe_moves(self, state: State, legal: list[Move]) -> list[Move]:
        """An available ace to the first empty foundation place: the places are alike, and an
        ace has no other use than to lie on a seven (OL-2), where it blocks the seven and can
        serve nothing that the foundation would not serve as well."""
        first = next((f for f in FOUNDATION_PILES if not state.piles[f]), None)
        if first is None:
            return []
        fid = PILES[first].id
        return [m for m in legal if m.steps and m.steps[0][1] == fid]

    # ---- the end ---------------------------------------------------------------------
    def played(self, state: State) -> int:
        return sum(len(state.piles[f]) for f in FOUNDATION_PILES)

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: LOST costs a search, and is a dead end to the solver anyway."""
        return Outcome.WON if self.played(state) == TOTAL else None

    def outcome_of(self, state: State) -> Outcome | None:
        if self.played(state) == TOTAL:
            return Outcome.WON
        if state.piles[STOCK]:
            return None  # a card can still be turned up
        # The pack is out and there is no re-deal (OL-7). Any win needs a play to a foundation;
        # if no series of the other moves brings a card the foundations take within reach, or
        # uncovers a card not yet seen (face down, or under the talon's top), no card will
        # ever be played again: lost. A search that gives up leaves the verdict open.
        return Outcome.LOST if self.remembered(state, self.progress_reachable) is False else None

    def wanted(self, state: State) -> frozenset[Card]:
        """Every card some foundation would take now."""
        out: set[Card] = set()
        for f in FOUNDATION_PILES:
            pile = state.piles[f]
            if not pile:
                out |= {Card(ACE, s) for s in SUITS}
            else:
                nxt = next_up(pile[-1].rank)
                if nxt is not None:
                    out.add(Card(nxt, pile[-1].suit))
        return frozenset(out)

    def progress_reachable(self, state: State, limit: int = 4000) -> bool | None:
        """With the pack out: whether some series of moves other than plays brings within
        reach a card a foundation takes, or uncovers a card the player has not seen (a
        face-down card of the flower-bed, the card under the talon's top): True; False if none
        does; None if the search gave up after ``limit`` positions. The search reads no card
        the player cannot see: it stops where one would be uncovered."""
        wanted = self.wanted(state)
        fits = self.fits
        sequences = self.options.sequences
        p = state.piles
        # A column: its cards and its low-water mark. Only the cards from the mark's card down
        # are ever looked at (the rest is face down or face up and out of reach).
        Col = tuple[tuple[Card, ...], int]
        Key = tuple[tuple[Col, ...], Card | None, Card | None]
        cols0 = tuple((p[c], self.low(state, c)) for c in BED)
        # Of the talon only its top is seen: placing it would uncover the card beneath,
        # which is progress the search cannot judge, so the verdict is then left open.
        talon = p[TALON_PILE]
        start: Key = (tuple(sorted(cols0)), p[TURNED][0] if p[TURNED] else None,
                      talon[-1] if talon else None)
        seen = {start}
        todo = [start]
        while todo:
            cols, tu, tt = todo.pop()
            free = [col[-1] for col, _ in cols if col]
            free += [c for c in (tu, tt) if c is not None]
            if any(c in wanted for c in free):
                return True
            nexts: list[Key] = []
            for a, (col, low) in enumerate(cols):
                if not col:
                    continue
                if sequences:
                    # OL-3's other reading: a sequence of two or more lifted whole.
                    for j in range(sequence_start(col, low, fits), len(col) - 1):
                        for b, (q, qlow) in enumerate(cols):
                            if b == a or not q or not fits(col[j], q[-1]):
                                continue
                            if j and face_down(j - 1, low):
                                return True   # it would turn up a face-down card
                            nxt = list(cols)
                            nxt[a], nxt[b] = (col[:j], min(low, j)), (q + col[j:], qlow)
                            nexts.append((tuple(sorted(nxt)), tu, tt))
                card = col[-1]
                rest = col[:-1]
                nlow = min(low, len(rest))
                if rest and face_down(len(rest) - 1, low):
                    # the move would turn up a face-down card: is it possible at all?
                    if any(b != a and (not q or fits(card, q[-1]))
                           for b, (q, _) in enumerate(cols)):
                        return True
                    continue
                for b, (q, qlow) in enumerate(cols):
                    if a == b:
                        continue
                    if (not q and len(col) > 1) or (q and fits(card, q[-1])):
                        nxt = list(cols)
                        nxt[a], nxt[b] = (rest, nlow), (q + (card,), qlow)
                        nexts.append((tuple(sorted(nxt)), tu, tt))
            for loose, is_turned in ((tu, True), (tt, False)):
                if loose is None:
                    continue
                for b, (q, qlow) in enumerate(cols):
                    if q and fits(loose, q[-1]):
                        if not is_turned and len(talon) > 1:
                            return True  # the card beneath the talon's top would be seen
                        nxt = list(cols)
                        nxt[b] = (q + (loose,), qlow)
                        nexts.append((tuple(sorted(nxt)), None if is_turned else tu,
                                      tt if is_turned else None))
            for key in nexts:
                if key not in seen:
                    if len(seen) >= limit:
                        return None
                    seen.add(key)
                    todo.append(key)
        return False

    # ---- board -----------------------------------------------------------------------
    def card_faces(self, state: State, pile: int) -> list[dict[str, Any]]:
        """The flower-bed's face-down cards (of the second, fourth and sixth rows, never
        uncovered) are backs; every other card of a column is face up and shown."""
        if pile in BED:
            low = self.low(state, pile)
            return [{"c": None} if face_down(k, low) else {"c": str(c)}
                    for k, c in enumerate(state.piles[pile])]
        return super().card_faces(state, pile)

    def status_line(self, state: State, out: Outcome | None) -> str:
        played = self.played(state)
        if out is Outcome.WON:
            return "Won: all 128 cards are on the foundations."
        if out is Outcome.LOST:
            return (f"The pack is exhausted and no card can ever be played again: the patience "
                    f"has failed with {played} of 128 cards played.")
        parts = [f"Pack: {plural(len(state.piles[STOCK]), 'card')}",
                 f"talon: {plural(len(state.piles[TALON_PILE]), 'card')}",
                 f"{played} of 128 on the foundations"]
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        p = state.piles
        if move.action == "deal" and p[STOCK]:
            card = p[STOCK][-1]
            if p[TURNED]:
                return (f"The {p[TURNED][-1].name} is laid on the talon, and the {card.name} "
                        "is turned up.")
            return f"The {card.name} is turned up."
        step = self.resolve_step(state, move)
        if isinstance(step, Step) and step.src in BED and not step.top and p[step.dst]:
            return (f"The sequence from the {step.card.name} down to the "
                    f"{p[step.src][-1].name} is moved from {PILES[step.src].label} onto the "
                    f"{p[step.dst][-1].name} of {PILES[step.dst].label}.")
        return super().describe(state, move)


def _a(rank: int) -> str:
    """The rank's name with its article: “an eight”, “a knave”."""
    name = RANK_NAMES[rank]
    return ("an " if name[0] in "ae" else "a ") + name

"""Canfield or Klondike (one pack), by the book: 1914 printing, plate p. 118, text p. 119,
quoted from the U. S. Playing Card Company's *Official Rules of Card Games*.

Piles: the layout, seven vertical rows dealt as a staircase (the first row's card face up and
six face down to its right, then below the first face-down card one face up and five face down
to its right, and so on), so that row *n* holds *n* − 1 cards face down under one card face
up; above it four foundations, begun by the aces as they show and built up in suit to the
kings; the stock, run through one card at a time onto the talon, once.

Cards are built on the bottom of a row (its last card, the one uncovered) in descending
sequence and alternate colours. The cards face up at the bottom of a row move together or not
at all: the whole run goes onto another row, or, when it begins with a king, into a space;
only the last card may go alone, to a foundation. When a row's face-up cards are all gone its
next card is turned face up at once. A space takes kings only. The card showing on the talon
may be used on the layout or the foundations. A card on a foundation stays there. The player
pays 52 counters for the pack and is paid 5 for every card on the foundations: the status
line keeps the account. See the chapter page for the text each rule id points at, and its
editorial notes (``note-ck-N``) for the readings behind the decisions and the option.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, RANK_NAMES, Card, pack
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
from .rules import builds_up_from_ace, cards_wanted, plural, up_from_ace_refusal

SLUG = "canfield-or-klondike"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
STAKE = _rule("stake")              # 52 counters paid for the pack, 5 paid back for each card
FIRST_ROW = _rule("first-row")      # the first card face up, six face down to its right
LAYOUT = _rule("layout")            # the staircase: seven face up, twenty-eight in all
ACES = _rule("aces")                # aces showing picked out and placed above: foundations
FOUNDATIONS = _rule("foundations")  # built on in sequence and suit up to kings
TURN_UP = _rule("turn-up")          # a card uncovered: the next in its row turned face up
BUILD = _rule("build")              # descending sequence, alternate colours
TOGETHER = _rule("together")        # more than one card at the bottom: all moved together
SPACES = _rule("spaces")            # spaces filled with kings only
STOCK_RULE = _rule("stock")         # the stock one card at a time; the card showing used
ONCE = _rule("once")                # run through once: that ends it
BOARD = _rule("board")              # the board itself (notation errors)

ROWS = 7
TOTAL = 52
PAID = 52          # counters paid for the pack
PER_CARD = 5       # counters paid back for every card on the foundations


class TalonUse(Enum):
    """Which of the cards turned from the stock may be used (note CK-5)."""

    SHOWING = "showing"   # the top card of the talon, whenever it shows
    TURNED = "turned"     # only the card just turned; the cards it covers are out of play


@dataclass(frozen=True, slots=True)
class CanfieldOptions:
    talon: TalonUse = option(
        TalonUse.SHOWING, note="note-ck-5", label="The cards turned from the stock",
        labels={TalonUse.SHOWING: "the talon’s top card may be used whenever it shows",
                TalonUse.TURNED: "only the card just turned may be used; the cards it "
                                 "covers are out of play"})


# ---- piles ----------------------------------------------------------------------------
# As in the plate: the seven rows side by side, each fanned downwards, with the four
# foundations above the four rows on the right; the stock and its talon fill the top left,
# which the plate leaves empty.

_ROW_Y = 1.3

PILES: tuple[PileSpec, ...] = (
    PileSpec("stock", "the stock", Role.STOCK, x=0.0, y=0.0),
    PileSpec("talon", "the talon", Role.TALON, x=1.0, y=0.0, mark="talon"),
    *(PileSpec(f"f{j + 1}", f"foundation {j + 1}", Role.FOUNDATION, x=float(3 + j), y=0.0,
               mark="A–K") for j in range(4)),
    *(PileSpec(f"r{j + 1}", f"row {j + 1}", Role.TABLEAU, x=float(j), y=_ROW_Y, fan=Fan.DOWN,
               mark="kings") for j in range(ROWS)),
)

STOCK = 0
TALON_PILE = 1
FOUNDATION_PILES = range(2, 6)
ROW_PILES = range(6, 6 + ROWS)

#: Counters: the number of cards face down in each row (``down1`` … ``down7``), and, under
#: CK-5's other reading, whether the talon's top card is the one just turned (``live``).
VARS = (*(f"down{j + 1}" for j in range(ROWS)), "live")
V_LIVE = ROWS


def red(card: Card) -> bool:
    return card.suit.red


def colour(card: Card) -> str:
    return "red" if red(card) else "black"


def goes_on(card: Card, top: Card) -> bool:
    """The layout is built in descending sequence, red on black, black on red, from the king
    down to the two: an ace is never built on a two."""
    return card.rank > ACE and card.rank == top.rank - 1 and red(card) != red(top)


def _a(rank: int) -> str:
    name = RANK_NAMES[rank]
    return ("an " if name[0] in "ae" else "a ") + name


def in_sequence(run: Sequence[Card]) -> bool:
    return all(goes_on(run[k], run[k - 1]) for k in range(1, len(run)))


class CanfieldOrKlondike(Game):
    slug = SLUG
    title = "Canfield or Klondike"
    packs = 1
    Options = CanfieldOptions
    PILES = PILES
    VARS = VARS
    GRID = (7.0, _ROW_Y + 3.3)
    FIGURES = (
        Figure("tableau", "Canfield or Klondike after the deal, in modern cards.",
               "The layout of Canfield or Klondike just after the deal, drawn in modern "
               "cards: seven rows side by side, the first a single card face up, each row "
               "to its right one card longer, its cards face down but for the last, which "
               "lies face up below them; above the four rows on the right the four places "
               "of the foundations, holding any aces picked out at the deal; at the top left "
               "the stock face down and beside it the empty place of the talon."),
    )
    ACTIONS = (
        ActionSpec("deal", "Turn up the next card", "t", STOCK_RULE),
    )
    LEDGER = {
        STAKE: "The status line keeps the player’s account: 52 counters paid for the pack, "
               "5 paid back for every card on the foundations, and the balance; the "
               "game’s end tells the counters won.",
        FIRST_ROW: "The deal shuffles the pack and lays its first card face up at the left "
                   "and six more face down to its right, the first card of each of the seven "
                   "rows.",
        LAYOUT: "The deal goes on along the staircase, one card face up below the first "
                "face-down card of the row above and the rest face down to its right, until "
                "seven cards lie face up and twenty-eight in the layout; the board shows the "
                "face-down cards face down.",
        ACES: "At the deal every ace showing at the bottom of a row is picked out and laid "
              "on the foundations, the card beneath it turned up; afterwards an ace may be "
              "laid on any empty foundation, and only an ace begins one.",
        FOUNDATIONS: "A foundation takes only the next card of its ace’s suit, up to the "
                     "king; a card of another suit or out of turn is refused, cards go up one "
                     "at a time, and a card on a foundation stays there (CK-3).",
        TURN_UP: "When the last face-up card of a row is played away or moved, the next card "
                 "of that row is turned face up at once; a face-down card cannot be moved.",
        BUILD: "A card or a run goes onto a row only if its first card is one lower than the "
               "row’s last card and of the other colour; a card of the same colour or another "
               "value is refused, and the rows end with the twos: nothing goes on a two or "
               "on an ace.",
        TOGETHER: "When a row shows more than one card face up, they move together onto "
                  "another row or not at all: a part of the run, or its last card alone, is "
                  "refused there; the last card alone may still be played to a foundation "
                  "(CK-2).",
        SPACES: "An empty row takes only a king, alone or heading its run, from another row "
                "or from the talon; any other card is refused, and a space need not be "
                "filled. A king that already heads a row with nothing beneath it may be "
                "moved, with its run, into another space, as the text does not forbid it "
                "(CK-4).",
        STOCK_RULE: "“Turn up the next card” turns the stock’s top card onto the talon; its "
                    "top card may be played to a foundation or built on a row (under CK-5’s "
                    "other reading only while it is the card just turned); the cards beneath "
                    "cannot be moved.",
        ONCE: "There is no re-deal: once the stock is spent, turning is refused and play "
              "goes on with what shows; the game is lost when no series of moves can bring "
              "another card to a foundation or turn up a card not yet seen (CK-8).",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        stock = list(shuffled(sorted(pack(1)), deal))  # the pack's top is its last card
        rows: list[list[Card]] = [[] for _ in range(ROWS)]
        for line in range(ROWS):               # the staircase, dealt line by line
            for j in range(line, ROWS):        # the first face up, the rest face down
                rows[j].append(stock.pop())
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for j, i in enumerate(ROW_PILES):
            piles[i] = tuple(rows[j])
        piles[STOCK] = tuple(stock)
        down = [j for j in range(ROWS)]        # row j + 1: j cards face down
        _pick_out_aces(piles, down)
        return State(tuple(piles), (*down, 0))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p, v = state.piles, state.vars
        for f in FOUNDATION_PILES:
            pile = p[f]
            for k in range(len(pile)):
                if not builds_up_from_ace(pile[:k], pile[k]):
                    raise PositionError(f"{PILES[f].label} is not built up in suit from its "
                                        "ace")
        for j, i in enumerate(ROW_PILES):
            down, pile = v[j], p[i]
            if down < 0 or (pile and down >= len(pile)) or (not pile and down):
                raise PositionError(f"{PILES[i].label} must show at least its last card face "
                                    "up, and only its cards can lie face down")
            if not in_sequence(pile[down:]):
                raise PositionError(f"the face-up cards of {PILES[i].label} are not in "
                                    "descending sequence of alternate colours")
        if v[V_LIVE] not in (0, 1) or (v[V_LIVE] and not p[TALON_PILE]):
            raise PositionError("the card just turned must lie on the talon")
        if v[V_LIVE] and options.talon is not TalonUse.TURNED:
            raise PositionError("the card just turned is marked only under CK-5’s other "
                                "reading")
        return state

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def down(state: State, row: int) -> int:
        """How many cards of the row (a pile index) lie face down."""
        return state.vars[row - ROW_PILES.start]

    def talon_usable(self, state: State) -> bool:
        if not state.piles[TALON_PILE]:
            return False
        return self.options.talon is TalonUse.SHOWING or bool(state.vars[V_LIVE])

    def dead_cards(self, state: State) -> int:
        """Under CK-5's other reading, the cards of the talon that can never be used."""
        if self.options.talon is TalonUse.SHOWING:
            return 0
        return len(state.piles[TALON_PILE]) - state.vars[V_LIVE]

    def _ref(self, state: State, i: int, k: int) -> str:
        """The notation of the card at index ``k`` of pile ``i`` (the top: the pile alone)."""
        pid = PILES[i].id
        return pid if k == len(state.piles[i]) - 1 else f"{pid}:{k}"

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        p = state.piles
        sources: list[tuple[int, int]] = []   # (pile, index of the first card moved)
        if self.talon_usable(state):
            sources.append((TALON_PILE, len(p[TALON_PILE]) - 1))
        sources += [(i, self.down(state, i)) for i in ROW_PILES if p[i]]  # each whole run
        for i, k in sources:
            card = p[i][-1]                   # the last card alone, to a foundation
            for f in FOUNDATION_PILES:
                if builds_up_from_ace(p[f], card):
                    yield Move.step(PILES[i].id, PILES[f].id)
            ref = self._ref(state, i, k)      # the card or the whole run, to another row
            for r in ROW_PILES:
                if r != i:
                    yield Move.step(ref, PILES[r].id)
        yield Move(action="deal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card, k = step.src, step.dst, step.card, step.k
        p = state.piles
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        # where the card comes from
        if si in FOUNDATION_PILES:
            return IllegalMove(FOUNDATIONS, "A card on a foundation stays there: the "
                               "foundations are built up to the kings, never taken down.")
        if si == STOCK:
            return IllegalMove(STOCK_RULE, "The stock is run through one card at a time: "
                               "turn up its next card (Turn up the next card).")
        if si == TALON_PILE:
            if not step.top:
                return IllegalMove(STOCK_RULE, "Only the card showing on the talon can be "
                                   "used; the cards beneath it wait until it has gone.")
            if not self.talon_usable(state):
                return IllegalMove(STOCK_RULE, "Only the card just turned from the stock can "
                                   "be used (CK-5): the cards it covered are out of play.")
        moved = p[si][k:]
        if si in ROW_PILES:
            down = self.down(state, si)
            if k < down:
                return IllegalMove(TURN_UP, "That card is face down: it is turned face up only "
                                   "when every card below it in its row has been played "
                                   "away.")
            run = len(p[si]) - down
            if run > 1 and k > down and not (step.top and di in FOUNDATION_PILES):
                head = p[si][down]
                return IllegalMove(TOGETHER, f"{PILES[si].label[:1].upper()}"
                                   f"{PILES[si].label[1:]} shows {plural(run, 'card')} face "
                                   f"up, from the {head.name} down: they must be moved "
                                   "together or not at all.")
        # where it goes
        if di in FOUNDATION_PILES:
            if len(moved) > 1:
                return IllegalMove(FOUNDATIONS, "The foundations are built on one card at a "
                                   "time, in sequence: only the last card of a row goes up.")
            return up_from_ace_refusal(p[di], card, PILES[di].label, begin_rule=ACES,
                                       suit_rule=FOUNDATIONS, sequence_rule=FOUNDATIONS)
        if di in ROW_PILES:
            target = p[di]
            if not target:
                if card.rank != KING:
                    return IllegalMove(SPACES, f"Spaces are filled with kings only: "
                                       f"{PILES[di].label} is empty and does not take the "
                                       f"{card.name}.")
                return None
            top = target[-1]
            if goes_on(card, top):
                return None
            if top.rank <= ACE + 1:
                return IllegalMove(BUILD, f"The layout is built down to the twos, “4, 3, 2”: "
                                   f"nothing goes on the {top.name}.")
            if card.rank != top.rank - 1:
                return IllegalMove(BUILD, f"The layout is built in descending sequence: only "
                                   f"{_a(top.rank - 1)} goes on the {top.name}.")
            return IllegalMove(BUILD, f"The layout must alternate in colour, red on black, "
                               f"black on red: the {card.name} is {colour(card)}, like the "
                               f"{top.name}.")
        if di == TALON_PILE:
            return IllegalMove(STOCK_RULE, "Only cards turned from the stock go on the talon.")
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "deal":
            if not state.piles[STOCK]:
                return IllegalMove(ONCE, "The stock has been run through once, and that ends "
                                   "it: there is no second time through.")
            return None
        return IllegalMove(BOARD, f"Canfield or Klondike has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        down = list(state.vars[:ROWS])
        live = state.vars[V_LIVE]
        if move.action == "deal":
            piles[TALON_PILE] = piles[TALON_PILE] + piles[STOCK][-1:]
            piles[STOCK] = piles[STOCK][:-1]
            live = 1 if self.options.talon is TalonUse.TURNED else 0
        else:
            step = self.resolve_step(state, move)
            assert isinstance(step, Step), "apply() is given legal moves only"
            si, k = step.src, step.k
            piles[step.dst] = piles[step.dst] + piles[si][k:]
            piles[si] = piles[si][:k]
            if si == TALON_PILE:
                live = 0
            elif si in ROW_PILES:
                j = si - ROW_PILES.start
                if down[j] and len(piles[si]) == down[j]:
                    down[j] -= 1   # its face-up cards gone: the next card turned up at once
        return State(tuple(piles), (*down, live))

    # ---- the board's hooks -----------------------------------------------------------
    def card_faces(self, state: State, pile: int) -> list[dict[str, Any]]:
        """A row's face-down cards are shown face down; the rest as by default."""
        if pile in ROW_PILES:
            down = self.down(state, pile)
            return ([{"c": None} for _ in range(down)]
                    + [{"c": str(c)} for c in state.piles[pile][down:]])
        return super().card_faces(state, pile)

    def safe_moves(self, state: State, legal: list[Move]) -> list[Move]:
        """An ace to the first empty foundation, and a two onto its ace: nothing is ever built
        on an ace or a two in the layout, so playing them up gives nothing away."""
        out: list[Move] = []
        p = state.piles
        empty = [f for f in FOUNDATION_PILES if not p[f]]
        for m in legal:
            if m.action:
                continue
            (src, dst), = m.steps
            di = self.pile_index(dst)
            if di not in FOUNDATION_PILES:
                continue
            card = self.card_at(state, src)
            if card is None:
                continue
            if card.rank == ACE and empty and di == empty[0]:
                out.append(m)
            elif card.rank == ACE + 1:
                out.append(m)
        return out

    def idle_moves(self, state: State, legal: list[Move]) -> list[Move]:
        """A king that heads a row with nothing beneath it, carried with its run into a space
        (CK-4): both rows then hold no card face down, and no rule reads which row holds the
        cards, so the position after is this one with the two rows exchanged. The board
        offers the move, since the text does not forbid it; the solver and the careful player
        never try it."""
        p = state.piles
        if all(p[i] for i in ROW_PILES):
            return []
        index = self._index
        out: list[Move] = []
        for m in legal:
            if m.action:
                continue
            (src, dst), = m.steps
            name, _, k = src.partition(":")
            si, di = index[name], index[dst]
            if (si in ROW_PILES and di in ROW_PILES and not p[di]
                    and (int(k) if k else len(p[si]) - 1) == 0):
                out.append(m)
        return out

    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """The four foundations: any ace begins any of them, and no rule reads their
        places. (The rows are told apart by their counts of face-down cards.)"""
        return (tuple(FOUNDATION_PILES),)

    # ---- the end ---------------------------------------------------------------------
    @staticmethod
    def played(state: State) -> int:
        return sum(len(state.piles[f]) for f in FOUNDATION_PILES)

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: the loss test searches, and a dead end is found by the solver
        anyway."""
        return Outcome.WON if self.played(state) == TOTAL else None

    def outcome_of(self, state: State) -> Outcome | None:
        if self.played(state) == TOTAL:
            return Outcome.WON
        if state.piles[STOCK]:
            return None   # a card can still be turned up
        # The stock is spent (CK-8). A card out of play never reaches its foundation (CK-5's
        # other reading); otherwise, if no series of moves brings a card the foundations take
        # to the bottom of a row or the talon's top, or turns up a card not yet seen, no
        # card will ever be played up again: lost. A search that gives up says nothing.
        if self.dead_cards(state):
            return Outcome.LOST
        return Outcome.LOST if self.remembered(state, self.progress_reachable) is False else None

    def progress_reachable(self, state: State, limit: int = 4000) -> bool | None:
        """With the stock spent: whether some series of moves between the rows and from the
        talon brings a card the foundations take within reach, or turns up a face-down card,
        or shows the talon card beneath its top (True); False if none does; None if the
        search gave up after ``limit`` positions. Only rows whose cards all lie face up can
        move without turning up a card, and the rows' order does not matter."""
        p = state.piles
        wanted = cards_wanted([p[f] for f in FOUNDATION_PILES])
        talon = p[TALON_PILE]
        loose = talon[-1] if self.talon_usable(state) else None
        deeper = self.options.talon is TalonUse.SHOWING and len(talon) > 1
        Row = tuple[int, tuple[Card, ...]]
        Key = tuple[tuple[Row, ...], Card | None]
        start: Key = (tuple(sorted((self.down(state, i), p[i]) for i in ROW_PILES)), loose)
        seen = {start}
        todo = [start]

        def takes(row: Row, head: Card) -> bool:
            down, cards = row
            return goes_on(head, cards[-1]) if cards else head.rank == KING

        while todo:
            rows, card = todo.pop()
            free = [cards[-1] for _, cards in rows if cards]
            if card is not None:
                free.append(card)
            if any(c in wanted for c in free):
                return True
            nexts: list[Key] = []
            for a, (down_a, cards_a) in enumerate(rows):
                if not cards_a:
                    continue
                run = cards_a[down_a:]
                for b, row_b in enumerate(rows):
                    if a == b or not takes(row_b, run[0]):
                        continue
                    if not down_a and not row_b[1]:
                        continue           # a whole row into a space: the same rows
                    if down_a:
                        return True        # the card beneath would be turned up
                    nxt = list(rows)
                    nxt[a], nxt[b] = (0, ()), (row_b[0], row_b[1] + run)
                    nexts.append((tuple(sorted(nxt)), card))
            if card is not None:
                for b, row_b in enumerate(rows):
                    if takes(row_b, card):
                        if deeper:
                            return True    # the talon's next card would show
                        nxt = list(rows)
                        nxt[b] = (row_b[0], row_b[1] + (card,))
                        nexts.append((tuple(sorted(nxt)), None))
            for key in nexts:
                if key not in seen:
                    if len(seen) >= limit:
                        return None
                    seen.add(key)
                    todo.append(key)
        return False

    # ---- board -----------------------------------------------------------------------
    @staticmethod
    def account(played: int) -> str:
        won = PER_CARD * played
        net = won - PAID
        balance = ("even" if net == 0 else f"{net} ahead" if net > 0 else f"{-net} down")
        return f"counters: paid {PAID}, won {won} ({balance})"

    def status_line(self, state: State, out: Outcome | None) -> str:
        played = self.played(state)
        if out is Outcome.WON:
            return ("Won: all fifty-two cards are on the foundations · "
                    + self.account(played))
        if out is Outcome.LOST:
            return (f"Nothing more can reach the foundations: the game ends with "
                    f"{plural(played, 'card')} got down · " + self.account(played))
        p = state.piles
        parts = [f"Stock: {plural(len(p[STOCK]), 'card')}" if p[STOCK]
                 else "the stock has been run through",
                 f"talon: {plural(len(p[TALON_PILE]), 'card')}",
                 f"{played} on the foundations",
                 self.account(played)]
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        p = state.piles
        if move.action == "deal" and p[STOCK]:
            return f"The {p[STOCK][-1].name} is turned from the stock onto the talon."
        if move.steps:
            step = self.resolve_step(state, move)
            if isinstance(step, Step):
                src, dst = PILES[step.src].label, PILES[step.dst].label
                moved = p[step.src][step.k:]
                turned = ""
                if step.src in ROW_PILES:
                    down = self.down(state, step.src)
                    if down and step.k == down:
                        turned = f"; the next card of {src} is turned face up"
                if step.dst in FOUNDATION_PILES:
                    return f"The {step.card.name} is played from {src} to {dst}{turned}."
                if len(moved) > 1:
                    rest = (f"the {moved[1].name}" if len(moved) == 2
                            else f"the {len(moved) - 1} cards")
                    return (f"The {step.card.name} and {rest} on it are moved together from "
                            f"{src} to {dst}{turned}.")
                return f"The {step.card.name} is moved from {src} to {dst}{turned}."
        return super().describe(state, move)


def _pick_out_aces(piles: list[tuple[Card, ...]], down: list[int]) -> None:
    """At the deal, any ace showing at the bottom of a row is picked out and laid on the next
    empty foundation, the card it uncovers turned face up; again, until no ace shows."""
    picked = True
    while picked:
        picked = False
        for j, i in enumerate(ROW_PILES):
            pile = piles[i]
            if pile and pile[-1].rank == ACE:
                f = next(f for f in FOUNDATION_PILES if not piles[f])
                piles[f] = (pile[-1],)
                piles[i] = pile[:-1]
                if down[j] and len(piles[i]) == down[j]:
                    down[j] -= 1
                picked = True

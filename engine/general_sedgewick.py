"""General Sedgewick (one pack), by the book: 1914 printing, plate p. 74 (below the end of The
Terrace), text p. 75.

Piles: five packets in the form of a cross, each begun by one card of the deal; four
foundation places at the corners, the first (upper left) taken at once by the sixth card,
whose rank is the rank of all four; the pack, the card just turned up from it, and the talon.

Each foundation ascends in suit from its first card, from the king to the ace when it gets
there, until it holds thirteen cards (GS-3); the three other cards of the foundations' rank
begin the other corners as they become available. Only the uppermost card of a cross packet is
available (Rule I). A card is moved onto a cross packet one at a time, on a card one rank
higher of any suit (Rules III and IV): from another packet, or the card turned up, or the top
of the talon; never a king on an ace unless GS-2's other reading is chosen. An empty place of
the cross is filled from the pack (its next card, or the card turned up) or from the talon's
top, when the player chooses, or before anything else under GS-4's other reading; never with a
card of the cross. Turning the next card lays the last one, if unused, on the talon; by default
only a card that could not be played nor placed on the cross (GS-5). There is no re-deal. See the chapter page for the text each rule id points at, and its editorial notes
(``note-gs-N``) for the readings behind the options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .cards import ACE, KING, RANK_NAMES, Card, pack
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

SLUG = "general-sedgewick"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")            # the cross's cards available; then only each packet's top
RULE_II = _rule("rule-2")           # the foundations follow suit
RULE_III = _rule("rule-3")          # transfers, and cards from pack or talon, in descending seq.
RULE_IV = _rule("rule-4")           # cards on the cross need not follow suit
CROSS = _rule("cross")              # deal five cards in the form of a cross
FOUNDATIONS = _rule("foundations")  # the next card to the upper left; three others as they appear
ASCEND = _rule("ascend")            # the foundation cards ascend in sequence
FIRST_PLAYS = _rule("first-plays")  # play from the cross, filling the vacancies from pack or talon
TRANSFER = _rule("transfer")        # then transfer cards on the cross (Rules I, III, IV)
ADVICE = _rule("advice")            # packets of one suit are very advantageous
DEAL = _rule("deal")                # deal out the cards till the pack is exhausted
TALON = _rule("talon")              # the non-suitable cards form the talon
NO_REDEAL = _rule("no-redeal")      # there is no re-deal
BOARD = _rule("board")              # the board itself (notation errors)

CROSS_PACKETS = 5
CORNERS = 4
FULL = 13       # cards on a finished foundation
TOTAL = 52


@dataclass(frozen=True, slots=True)
class GeneralSedgewickOptions:
    cross_wrap: bool = option(
        False, note="note-gs-2", label="A king on an ace on the cross",
        labels={False: "refused: the cross descends from king to ace",
                True: "allowed: the cross turns the corner"})
    turned_card: bool = option(
        True, note="note-gs-5", label="A card turned up that could be played or placed on "
        "the cross",
        labels={True: "must be used before the next card is turned",
                False: "may be laid on the talon"})
    refill_at_once: bool = option(
        False, note="note-gs-4", label="A vacancy in the cross is filled",
        labels={False: "when the player chooses, from the pack or the talon",
                True: "at once, from the pack or the talon, before any other move"})


# ---------------------------------------------------------------------------- the layout
# Positions are the top-left corner of a card's slot, x in card slots (a card is 0.9 wide and
# 1.26 high) and y in rows of 1.36 slots. As in the plate: the five cards of the cross in the
# middle, the four foundations at the corners. Each arm of the cross fans outwards, away from
# the centre, so that the cards beneath its top card show; the centre packet fans a little
# downwards, towards the foot of the cross, which stands lower to leave it room. The pack, the
# card turned up and the talon stand in a column at the right (in a row at the foot on a
# phone).

_XC = 2.7                   # the centre packet
_ARM = 1.15                 # from the centre to a side arm
_ROW_TOP, _ROW_MID, _ROW_FOOT = 1.15, 2.2, 3.7
_CORNER_X = (0.0, 2 * _XC)
_CORNER_Y = (0.0, 4.8)
_ARM_FAN = 1.6              # an arm's fan, at most, in card widths or heights
_CENTRE_FAN = 0.5

#: The cross's packets: id, name, place and fan.
_CROSS = (
    ("c0", "top", _XC, _ROW_TOP, Fan.UP, _ARM_FAN * 0.75),
    ("c1", "left", _XC - _ARM, _ROW_MID, Fan.LEFT, _ARM_FAN),
    ("c2", "centre", _XC, _ROW_MID, Fan.DOWN, _CENTRE_FAN),
    ("c3", "right", _XC + _ARM, _ROW_MID, Fan.RIGHT, _ARM_FAN),
    ("c4", "foot", _XC, _ROW_FOOT, Fan.DOWN, _ARM_FAN * 0.75),
)
_CORNER_NAMES = ("upper left", "upper right", "lower left", "lower right")

_SIDE_X = 2 * _XC + 1.4

PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"f{j}", f"the {_CORNER_NAMES[j]} foundation",
                   Role.FOUNDATION, _CORNER_X[j % 2], _CORNER_Y[j // 2],
                   mark=_CORNER_NAMES[j])
          for j in range(CORNERS))
    + tuple(PileSpec(pid, f"the {name} packet of the cross", Role.TABLEAU, x, y, fan,
                     fan_limit=limit, mark=f"cross, {name}")
            for pid, name, x, y, fan, limit in _CROSS)
    + (PileSpec("stock", "the pack", Role.STOCK, _SIDE_X, 0.0),
       PileSpec("turned", "the card turned up", Role.RESERVE, _SIDE_X, 1.25,
                mark="turned up"),
       PileSpec("talon", "the talon", Role.TALON, _SIDE_X, 2.5))
)

FOUNDATION_PILES = range(0, 4)
CROSS_PILES = range(4, 9)
STOCK = 9
TURNED = 10
TALON_PILE = 11
FIRST = FOUNDATION_PILES.start


def _narrow_layout() -> Layout:
    """For a phone: the same figure, with the pack, the card turned up and the talon in a row
    at the foot of the board."""
    y = _CORNER_Y[1] + 1.15
    at = {"stock": (_XC - 1.15, y, 0), "turned": (_XC, y, 0), "talon": (_XC + 1.15, y, 0)}
    return Layout("narrow", (2 * _XC + 1.0, y + 1.0), at, max_width=560)


def next_rank(rank: int) -> int:
    """The rank after ``rank`` on a foundation: the king is followed by the ace (GS-3)."""
    return ACE if rank == KING else rank + 1


def _a(rank: int) -> str:
    """The rank's name with its article: “an eight”, “a knave”."""
    name = RANK_NAMES[rank]
    return ("an " if name[0] in "ae" else "a ") + name


class GeneralSedgewick(Game):
    slug = SLUG
    title = "General Sedgewick"
    packs = 1
    Options = GeneralSedgewickOptions
    PILES = PILES
    VARS = ()
    GRID = (_SIDE_X + 1.0, _CORNER_Y[1] + 1.0)
    LAYOUTS = (_narrow_layout(),)
    FIGURES = (
        Figure("tableau", "General Sedgewick after the deal, in modern cards.",
               "The tableau of General Sedgewick just after the deal, drawn in modern cards: "
               "five cards in the form of a cross in the middle, one above, three across and "
               "one below; in the upper left corner the sixth card, the first foundation; the "
               "three other corners empty, waiting for the three other cards of its rank. The "
               "pack and the talon are not shown.",
               piles=tuple(p.id for p in PILES[:CROSS_PILES.stop])),
    )
    DIAGRAM_DEAL = 3
    ACTIONS = (
        ActionSpec("deal", "Turn up the next card", "t", DEAL),
    )
    LEDGER = {
        RULE_I: "Only the top card of a cross packet moves (each of the five first cards is "
                "its packet’s top until covered); a card beneath it is refused.",
        RULE_II: "A foundation takes only cards of the suit of its first card; another suit "
                 "is refused.",
        RULE_III: "A cross top, the card turned up or the talon’s top may be placed, one card "
                  "at a time, on a cross packet whose top is one rank higher; a card of "
                  "another rank is refused, and so is a king on an ace unless GS-2’s other "
                  "reading is chosen; a card straight from the pack must be turned up first.",
        RULE_IV: "The suit of a card placed on the cross is never looked at: any suit goes on "
                 "any suit.",
        CROSS: "The deal lays five cards face up in the form of a cross, one card to each "
               "packet.",
        FOUNDATIONS: "The sixth card is laid at once in the upper left corner and fixes the "
                     "rank of all four foundations; each other corner takes only a card of "
                     "that rank, from any available place, whenever the player chooses "
                     "(GS-3).",
        ASCEND: "A foundation takes the next rank up in its suit, the ace after the king, "
                "until it holds thirteen cards; a card of another rank is refused, and a "
                "card on a foundation never leaves it.",
        FIRST_PLAYS: "The top card of a cross packet may go to a foundation at any time; an "
                     "empty place of the cross takes the next card of the pack (even while the "
                     "card turned up waits, which keeps its place), the card turned up or the "
                     "talon’s top, never a card of the cross. By default the "
                     "player fills it when they choose; under GS-4’s other reading, while a "
                     "place is empty and a card can fill it, every other move is refused.",
        TRANSFER: "Transfers between the cross packets follow Rules I, III and IV as above, "
                  "as often as the player likes, back and forth.",
        ADVICE: "Advice only: nothing requires a packet to be of one suit.",
        DEAL: "Turn up the next card turns the pack’s top card face up, first laying the last "
              "card turned, if still there, on the talon; once the pack is out it is "
              "refused.",
        TALON: "The talon is one packet, face up, of the cards turned up and not used; only "
               "its top card can be used (to a foundation, on the cross or into a vacancy), "
               "and nothing else is put on it. By default the next card cannot be turned "
               "while the card turned up could be played on a foundation or placed on the "
               "cross (GS-5; a card that could only fill a vacancy may be laid aside); under "
               "GS-5’s other reading any card may be laid on the talon.",
        NO_REDEAL: "No move takes up the talon; once the pack is out, the game is lost as soon "
                   "as no series of the moves that remain can bring a card the foundations "
                   "take within reach, even if cards can still be shifted on the cross.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        stock = list(shuffled(pack(1), deal))
        for c in CROSS_PILES:        # the pack's top is its last card
            piles[c] = (stock.pop(),)
        piles[FIRST] = (stock.pop(),)
        piles[STOCK] = tuple(stock)
        return State(tuple(piles), ())

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        if len(p[TURNED]) > 1:
            raise PositionError("the card turned up is a single card")
        if not p[FIRST]:
            raise PositionError("the first foundation (upper left) is laid at the deal")
        base = p[FIRST][0].rank
        for f in FOUNDATION_PILES:
            pile = p[f]
            if not pile:
                continue
            if pile[0].rank != base or len(pile) > FULL:
                raise PositionError(f"{PILES[f].label} does not begin with the foundations’ "
                                    "rank")
            for a, b in zip(pile, pile[1:], strict=False):
                if b.suit is not a.suit or b.rank != next_rank(a.rank):
                    raise PositionError(f"{PILES[f].label} is not built in order")
        return state

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def base_rank(state: State) -> int:
        """The rank of the four foundations: that of the first, laid in the upper left corner
        at the deal (read from any begun corner: all begin with it, and the solver treats the
        corners alike)."""
        p = state.piles
        return next(p[f][0].rank for f in FOUNDATION_PILES if p[f])

    def foundation_refusal(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        base = self.base_rank(state)
        if not pile:
            if card.rank == base:
                return None
            return IllegalMove(FOUNDATIONS, f"The corners take only the cards of the "
                               f"foundations’ rank: {PILES[f].label} is empty and takes only "
                               f"{_a(base)}.")
        top = pile[-1]
        if card.suit is not top.suit:
            return IllegalMove(RULE_II, f"The foundations follow suit: {PILES[f].label} "
                               f"takes only {top.suit.noun}.")
        if len(pile) >= FULL:
            return IllegalMove(ASCEND, f"{PILES[f].label[:1].upper()}{PILES[f].label[1:]} is "
                               "complete with thirteen cards.")
        if card.rank != next_rank(top.rank):
            return IllegalMove(ASCEND, f"The foundation cards ascend in sequence: "
                               f"{PILES[f].label} needs the "
                               f"{Card(next_rank(top.rank), top.suit).name} next.")
        return None

    def fits_cross(self, card: Card, top: Card) -> bool:
        """Whether ``card`` goes in descending sequence on ``top``, any suit (Rules III, IV)."""
        return card.rank == top.rank - 1 or (
            self.options.cross_wrap and top.rank == ACE and card.rank == KING)

    def cross_refusal(self, state: State, c: int, card: Card) -> IllegalMove | None:
        top = state.piles[c][-1]
        if self.fits_cross(card, top):
            return None
        if top.rank == ACE and card.rank == KING:
            return IllegalMove(RULE_III, "Cards on the cross descend in sequence, from king to "
                               "ace: nothing is placed on an ace.")
        if top.rank == ACE:
            return IllegalMove(RULE_III, "Cards on the cross descend in sequence: nothing is "
                               "placed on an ace.")
        return IllegalMove(RULE_III, f"Cards on the cross are placed in descending sequence: "
                           f"the {top.name} takes {_a(top.rank - 1)}, of any suit.")

    def turned_use(self, state: State) -> str | None:
        """Under GS-5's default reading: where the card turned up could be employed (played
        on a foundation or placed on a packet of the cross), in words; None when it could not
        be (filling a vacancy is not placing it in sequence)."""
        p = state.piles
        if not (self.options.turned_card and p[TURNED]):
            return None
        return turned_card_use(
            p[TURNED][-1], [(PILES[f].label, f) for f in FOUNDATION_PILES],
            [(PILES[c].label, p[c]) for c in CROSS_PILES],
            founds=lambda f, card: self.foundation_refusal(state, f, card) is None,
            fits=self.fits_cross)

    def _vacancy_pending(self, state: State) -> bool:
        """Under GS-4's other reading: a place of the cross is empty and a card (the pack's,
        the card turned up, the talon's top) could fill it."""
        p = state.piles
        return (self.options.refill_at_once and any(not p[c] for c in CROSS_PILES)
                and any(p[s] for s in (STOCK, TURNED, TALON_PILE)))

    @staticmethod
    def _fill_first() -> IllegalMove:
        return IllegalMove(FIRST_PLAYS, "Under the reading chosen, a vacancy in the cross is "
                           "filled at once: fill it from the pack or the talon first.")

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        p = state.piles
        sources = [c for c in CROSS_PILES if p[c]]
        sources += [s for s in (TURNED, TALON_PILE) if p[s]]
        for s in sources:
            for d in (*FOUNDATION_PILES, *CROSS_PILES):
                if d != s:
                    yield Move.step(PILES[s].id, PILES[d].id)
        if p[STOCK]:
            for c in CROSS_PILES:
                if not p[c]:
                    yield Move.step("stock", PILES[c].id)
        yield Move(action="deal")

    def legal_in(self, state: State) -> list[Move]:
        """Exactly the legal moves, in the order of :meth:`candidate_moves`, made directly
        from the rules rather than by checking every candidate with :meth:`refusal` (the
        solver asks very often; a test compares the two)."""
        p = state.piles
        out: list[Move] = []
        pending = self._vacancy_pending(state)
        base = self.base_rank(state)
        fits = self.fits_cross
        sources = [c for c in CROSS_PILES if p[c]]
        sources += [s for s in (TURNED, TALON_PILE) if p[s]]
        for s in sources:
            card = p[s][-1]
            sid = PILES[s].id
            for d in (*FOUNDATION_PILES, *CROSS_PILES):
                if d == s:
                    continue
                pile = p[d]
                if d in CROSS_PILES and not pile:
                    ok = s not in CROSS_PILES
                elif pending:
                    ok = False
                elif d in FOUNDATION_PILES:
                    if not pile:
                        ok = card.rank == base
                    else:
                        top = pile[-1]
                        ok = (len(pile) < FULL and card.suit is top.suit
                              and card.rank == next_rank(top.rank))
                else:
                    ok = fits(card, pile[-1])
                if ok:
                    out.append(Move.step(sid, PILES[d].id))
        if p[STOCK]:
            for c in CROSS_PILES:
                if not p[c]:
                    out.append(Move.step("stock", PILES[c].id))
            if not pending and self.turned_use(state) is None:
                out.append(Move(action="deal"))
        return out

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        p = state.piles
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        # where the card comes from
        if si in FOUNDATION_PILES:
            return IllegalMove(ASCEND, "Cards on the foundations stay there.")
        if si in CROSS_PILES and not step.top:
            return IllegalMove(RULE_I, "Only the uppermost card of each packet of the cross is "
                               "available, until its removal releases the card beneath.")
        if si == TALON_PILE and not step.top:
            return IllegalMove(TALON, "Only the uppermost card of the talon can be used.")
        if si == STOCK:
            if not step.top:
                return IllegalMove(DEAL, "Cards come from the pack in order, from its top.")
            if not (di in CROSS_PILES and not p[di]):
                return IllegalMove(DEAL, "Cards come from the pack by turning them up (Turn up "
                                   "the next card), or straight into an empty place of the "
                                   "cross.")
        # where it goes
        if di in CROSS_PILES and not p[di]:
            if si in CROSS_PILES:
                return IllegalMove(FIRST_PLAYS, "Vacancies in the cross are filled from the "
                                   "pack or the talon, not with a card of the cross.")
            return None  # from the pack, the card turned up or the talon's top
        if self._vacancy_pending(state):
            return self._fill_first()
        if di in FOUNDATION_PILES:
            return self.foundation_refusal(state, di, card)
        if di in CROSS_PILES:
            return self.cross_refusal(state, di, card)
        if di == TALON_PILE:
            return IllegalMove(TALON, "A card turned up goes to the talon when the next card "
                               "is turned; nothing else goes there.")
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action != "deal":
            if action == "redeal":
                return IllegalMove(NO_REDEAL, "There is no re-deal.")
            return IllegalMove(BOARD, f"General Sedgewick has no action {action!r}.")
        if not state.piles[STOCK]:
            return IllegalMove(NO_REDEAL, "The pack is exhausted, and there is no re-deal.")
        if self._vacancy_pending(state):
            return self._fill_first()
        use = self.turned_use(state)
        if use is not None:
            return IllegalMove(TALON, f"Only the non-suitable cards form the talon: the "
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
        piles[step.src] = piles[step.src][:-1]
        piles[step.dst] = piles[step.dst] + (step.card,)
        return State(tuple(piles), state.vars)

    def pack_move(self, state: State, legal: list[Move]) -> Move | None:
        """A click on the pack turns up the next card (refused, with the reason, when it may
        not be turned), never deals the pack's card into a vacancy unasked; except while a
        vacancy must be filled at once (GS-4's other reading), when the generic choice
        applies (the pack's card into the only empty place)."""
        if self._vacancy_pending(state):
            return super().pack_move(state, legal)
        return Move(action="deal")

    # ---- the solver ------------------------------------------------------------------
    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """The five packets of the cross, and the four corners (each foundation says by its
        own cards what it takes): no rule tells them apart by place."""
        return (tuple(CROSS_PILES), tuple(FOUNDATION_PILES))

    # ---- the end ---------------------------------------------------------------------
    def played(self, state: State) -> int:
        return sum(len(state.piles[f]) for f in FOUNDATION_PILES)

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: the other answer of :meth:`outcome_of` (LOST) costs a search, and
        is a dead end to the solver anyway."""
        if self.played(state) == TOTAL:
            return Outcome.WON
        return None

    def outcome_of(self, state: State) -> Outcome | None:
        if self.played(state) == TOTAL:
            return Outcome.WON
        if state.piles[STOCK]:
            return None  # a card can still be turned up
        # The pack is out, and nothing comes back. Any win needs a play to a foundation; if no
        # series of the other moves (transfers on the cross, placing the card turned up or the
        # talon's top) brings a card the foundations take within reach, no card will ever be
        # played again: lost (GS-8). A search that gives up leaves the verdict open.
        return Outcome.LOST if self.remembered(state, self.play_reachable) is False else None

    def wanted(self, state: State) -> frozenset[Card]:
        """Every card some foundation would take now."""
        base = self.base_rank(state)
        out: set[Card] = set()
        for f in FOUNDATION_PILES:
            pile = state.piles[f]
            if not pile:
                out |= {c for c in pack(1) if c.rank == base}
            elif len(pile) < FULL:
                out.add(Card(next_rank(pile[-1].rank), pile[-1].suit))
        return frozenset(out)

    def play_reachable(self, state: State, limit: int = 4000) -> bool | None:
        """With the pack out and the foundations as they stand: whether some series of moves
        other than plays brings an available card that a foundation takes (True), none does
        (False), or the search gave up after ``limit`` positions (None).

        The moves searched: a cross top onto another packet in sequence; the card turned up
        onto a packet in sequence or into an empty place; the talon's top likewise. They are
        allowed whatever GS-4's reading, which can only forbid more: a search over more moves
        proves no less. No rule looks at a packet's place in the cross, so positions that
        differ only in the order of the packets are one."""
        wanted = self.wanted(state)
        fits = self.fits_cross
        p = state.piles
        talon = p[TALON_PILE]
        Key = tuple[tuple[tuple[Card, ...], ...], int, Card | None]
        start: Key = (tuple(sorted(p[c] for c in CROSS_PILES)), len(talon),
                      p[TURNED][0] if p[TURNED] else None)
        seen = {start}
        todo = [start]
        while todo:
            cross, nl, tu = todo.pop()
            free = [pk[-1] for pk in cross if pk]
            if nl:
                free.append(talon[nl - 1])
            if tu is not None:
                free.append(tu)
            if any(c in wanted for c in free):
                return True
            nexts: list[Key] = []
            for a, pk in enumerate(cross):
                for b, q in enumerate(cross):
                    if a != b and pk and q and fits(pk[-1], q[-1]):
                        nxt = list(cross)
                        nxt[a], nxt[b] = pk[:-1], q + (pk[-1],)
                        nexts.append((tuple(sorted(nxt)), nl, tu))
            for card, after_nl, after_tu in ((tu, nl, None),
                                             (talon[nl - 1] if nl else None, nl - 1, tu)):
                if card is None:
                    continue
                for b, q in enumerate(cross):
                    if not q or fits(card, q[-1]):
                        nxt = list(cross)
                        nxt[b] = q + (card,)
                        nexts.append((tuple(sorted(nxt)), after_nl, after_tu))
            for key in nexts:
                if key not in seen:
                    if len(seen) >= limit:
                        return None
                    seen.add(key)
                    todo.append(key)
        return False

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = self.played(state)
        if out is Outcome.WON:
            return "Won: all fifty-two cards are on the foundations."
        if out is Outcome.LOST:
            return (f"The pack is exhausted and no card can ever be played again: the patience "
                    f"has failed with {played} of 52 cards played.")
        parts = [f"Pack: {plural(len(state.piles[STOCK]), 'card')}",
                 f"talon: {plural(len(state.piles[TALON_PILE]), 'card')}",
                 f"{played} of 52 on the foundations"]
        if self._vacancy_pending(state):
            parts.append("fill the vacancy in the cross")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        p = state.piles
        if move.action == "deal" and p[STOCK]:
            card = p[STOCK][-1]
            if p[TURNED]:
                return (f"The {p[TURNED][-1].name} is laid on the talon, and the {card.name} "
                        "is turned up.")
            return f"The {card.name} is turned up."
        if not move.action and move.steps[0][0] == "stock":
            step = self.resolve_step(state, move)
            if isinstance(step, Step):
                return f"The {step.card.name} from the pack fills {PILES[step.dst].label}."
        return super().describe(state, move)

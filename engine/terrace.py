"""The Terrace (two packs), by the book: 1914 printing, plate p. 72 (printed sideways), text
pp. 73–74.

Piles: the Terrace, a row of thirteen cards dealt face up from left to right, of which only
the last (the right-hand one) is available; a line of eight foundation places beneath it; the
valley, a row of nine packets beneath the foundations; the pack, the card just turned up from
it, and the talon.

The game opens with the Terrace dealt and three cards turned up, lying in the first three
places of the valley. The player chooses one of them as the first foundation; the two others
stay in the valley's first two places and seven more cards are dealt beside them, making the
valley of nine. The first foundation's rank is the rank of all eight: the seven others take
their places in the line as cards of that rank become available. Each foundation ascends by
one rank at a time in alternate red and black cards, from the king to the ace when it gets
there, until it holds thirteen cards.

The Terrace card goes only to a foundation. The top card of a valley packet may be played to
a foundation, or moved on the top card of another packet one rank higher and of the other
colour; the card turned up, and the top card of the talon, may go to a foundation or on a
valley packet in the same way. An empty place of the valley is refilled from the pack in
hand, with its next card or the card turned up (TE-6; the talon's top too under the other
reading). Turning the next card lays the last one, if unused, on the talon. There is no re-deal. See the chapter page for the text each rule id points at, and its
editorial notes (``note-te-N``) for the readings behind the options.
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
from .rules import plural, turn_up

SLUG = "the-terrace"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")            # only the last card of the Terrace is available
RULE_II = _rule("rule-2")           # foundations ascend, alternate red and black
RULE_III = _rule("rule-3")          # valley transfers in alternate descending sequence; talon
RULE_IV = _rule("rule-4")           # only the uppermost cards of the valley packets available
TERRACE = _rule("terrace")          # deal a row of thirteen cards: the Terrace
CHOICE = _rule("choice")            # turn up three cards, choose one as a foundation
FOUNDATIONS = _rule("foundations")  # first foundation on the left; seven others as they turn up
VALLEY = _rule("valley")            # the two rejected cards and seven more: the valley
FIRST_PLAYS = _rule("first-plays")  # from the valley take any foundations, then suitable cards
PREFERENCE = _rule("preference")    # cards must always in preference be played from the Terrace
REFILL = _rule("refill")            # vacancies refilled from the pack; then build in the valley
CHOICE_ADVICE = _rule("choice-advice")  # choose, if possible, a foundation below the Terrace card
DEAL = _rule("deal")                # deal out the entire pack, playing, placing, refilling
NO_REDEAL = _rule("no-redeal")      # there is no re-deal
BOARD = _rule("board")              # the board itself (notation errors)

TERRACE_CARDS = 13
VALLEY_PACKETS = 9
FOUNDATION_PLACES = 8
FULL = 13      # cards on a finished foundation
TOTAL = 104


@dataclass(frozen=True, slots=True)
class TerraceOptions:
    terrace_to_valley: bool = option(
        False, note="note-te-1", label="The Terrace card may go",
        labels={False: "only to a foundation",
                True: "to a foundation or in sequence on a valley packet"})
    terrace_first: bool = option(
        False, note="note-te-2", label="Playing from the Terrace in preference",
        labels={False: "is advice: any legal move may be made",
                True: "is a rule: while the Terrace card can be played, nothing else moves"})
    valley_wrap: bool = option(
        False, note="note-te-4", label="A king on an ace in the valley",
        labels={False: "refused: the valley descends from king to ace",
                True: "allowed: the valley turns the corner"})
    talon_fills: bool = option(
        False, note="note-te-6", label="A vacancy in the valley is refilled",
        labels={False: "from the pack in hand only (its next card, or the card turned up)",
                True: "from the pack in hand or from the top of the talon"})


# ---------------------------------------------------------------------------- the layout
# The plate: the Terrace in a row across the top; the line of eight foundation places below
# it; the valley of nine below that. The text puts the first foundation and the first
# packets of the valley on the left, and so does the board. The pack, the card turned up and
# the talon stand at the right of the foundation line.

_ROW_F = 1.25
_ROW_V = 2.5

PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"t{i}", f"the Terrace, card {i + 1}", Role.RESERVE, float(i), 0.0,
                   mark=f"card {i + 1}")
          for i in range(TERRACE_CARDS))
    + tuple(PileSpec(f"f{j}", f"foundation {j + 1}", Role.FOUNDATION, float(j), _ROW_F,
                     mark=f"found. {j + 1}")
            for j in range(FOUNDATION_PLACES))
    + tuple(PileSpec(f"v{k}", f"valley packet {k + 1}", Role.TABLEAU, float(k), _ROW_V,
                     Fan.DOWN, mark=f"valley {k + 1}") for k in range(VALLEY_PACKETS))
    + (PileSpec("stock", "the pack", Role.STOCK, 10.0, _ROW_F),
       PileSpec("turned", "the card turned up", Role.RESERVE, 11.0, _ROW_F,
                mark="turned up"),
       PileSpec("talon", "the talon", Role.TALON, 12.0, _ROW_F))
)

TERRACE_PILES = range(0, 13)
FOUNDATION_PILES = range(13, 21)
VALLEY_PILES = range(21, 30)
STOCK = 30
TURNED = 31
TALON_PILE = 32
FIRST = FOUNDATION_PILES.start


def _narrow_layout() -> Layout:
    """For a phone: the Terrace in two rows (nine, then four), the pack, the card turned up
    and the talon at the end of the second row, then the foundations and the valley. Nine
    columns of full-width cards do not fit, so the columns overlap a little sideways, each
    card's index still showing at its top left."""
    step = 0.85
    at: dict[str, tuple[float, float, int]] = {}
    for i in range(TERRACE_CARDS):
        at[f"t{i}"] = ((i % 9) * step, 0.0 if i < 9 else 1.15, 0)
    at["stock"] = (6 * step, 1.15, 0)
    at["turned"] = (7 * step, 1.15, 0)
    at["talon"] = (8 * step, 1.15, 0)
    for j in range(FOUNDATION_PLACES):
        at[f"f{j}"] = (j * step, 2.45, 0)
    for k in range(VALLEY_PACKETS):
        at[f"v{k}"] = (k * step, 3.7, 0)
    return Layout("narrow", (8 * step + 1.0, 7.5), at, max_width=560)


def colour(card: Card) -> str:
    return "red" if card.red else "black"


def next_rank(rank: int) -> int:
    """The rank after ``rank`` on a foundation: the king is followed by the ace (TE-3)."""
    return ACE if rank == KING else rank + 1


class TheTerrace(Game):
    slug = SLUG
    title = "The Terrace"
    packs = 2
    Options = TerraceOptions
    PILES = PILES
    VARS = ()
    GRID = (12.95, 6.5)
    LAYOUTS = (_narrow_layout(),)
    FIGURES = (
        Figure("tableau", "The Terrace after the opening, in modern cards.",
               "The tableau of the Terrace after the opening, drawn in modern cards: across "
               "the top the Terrace, thirteen cards side by side; below it, on the left, the "
               "first foundation card and seven empty places in a line for the other "
               "foundations; below them the valley, a row of nine cards, the first two being "
               "the cards not chosen as the foundation. The pack and talon are not shown.",
               piles=tuple(p.id for p in PILES[:VALLEY_PILES.stop])),
    )
    DIAGRAM_DEAL = 5
    ACTIONS = (
        ActionSpec("deal", "Turn up the next card", "t", DEAL),
    )
    LEDGER = {
        RULE_I: "Only the rightmost card left in the Terrace can be moved; a card to its left "
                "is refused until every card to its right has gone.",
        RULE_II: "A foundation takes the next rank up (the ace after the king) in the other "
                 "colour from its top card; a card of the same colour or another rank is "
                 "refused.",
        RULE_III: "A valley top, the card turned up or the talon’s top may be placed on a "
                  "valley packet whose top is one rank higher and of the other colour (no "
                  "king on an ace, unless TE-4’s other reading is chosen); anything else is "
                  "refused.",
        RULE_IV: "Only the top card of a valley packet moves; a card beneath it is refused.",
        TERRACE: "The deal opens with thirteen cards dealt left to right into the Terrace, "
                 "face up; they stay there until played (TE-1).",
        CHOICE: "Three cards are then turned up into the valley’s first three places, and "
                "until one of them is moved to the first foundation place every other move "
                "is refused.",
        FOUNDATIONS: "The chosen card begins the first foundation on the left; the other "
                     "places take only cards of its rank, each in the leftmost empty place, "
                     "from any available card, whenever the player chooses (TE-7).",
        VALLEY: "Once the choice is made the two rejected cards lie in the valley’s first "
                "two places and seven more are dealt beside them at once, making nine.",
        FIRST_PLAYS: "After the opening any available card of the valley may go to a "
                     "foundation that takes it, foundation cards of the base rank first or "
                     "not, at the player’s choice.",
        PREFERENCE: "By default advice, not enforced; under TE-2’s strict reading, while the "
                    "Terrace card can be played to a foundation every other move is refused.",
        REFILL: "An empty valley place may be filled, when the player chooses, from the pack "
                "in hand: its next card (even while the card turned up waits, which keeps "
                "its place) or the card turned up (under TE-6’s other reading "
                "the talon’s top as well); a card of the valley or the Terrace is refused "
                "there.",
        CHOICE_ADVICE: "Advice only: any of the three cards may be chosen, whatever the "
                       "Terrace card.",
        DEAL: "Turn up the next card turns the pack’s top card face up, first laying the "
              "last card turned, if still there, on the talon; it is refused once the pack is "
              "out.",
        NO_REDEAL: "No move takes up the talon; once the pack is out, the game is lost as "
                   "soon as no series of moves can bring a card the foundations take within "
                   "reach, even if valley cards can still be shifted.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        stock = list(shuffled(pack(2), deal))
        for t in TERRACE_PILES:       # the pack's top is its last card
            piles[t] = (stock.pop(),)
        for v in VALLEY_PILES[:3]:    # the three cards turned up for the choice
            piles[v] = (stock.pop(),)
        piles[STOCK] = tuple(stock)
        return State(tuple(piles), ())

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        if any(len(p[t]) > 1 for t in TERRACE_PILES) or len(p[TURNED]) > 1:
            raise PositionError("a place of the Terrace or the card turned up holds more "
                                "than one card")
        if not p[FIRST]:
            if any(p[f] for f in FOUNDATION_PILES) or p[TURNED] or p[TALON_PILE]:
                raise PositionError("no foundation has been chosen, so no card can have "
                                    "been played or turned")
            return state
        base = p[FIRST][0].rank
        for f in FOUNDATION_PILES:
            pile = p[f]
            if not pile:
                continue
            if pile[0].rank != base or len(pile) > FULL:
                raise PositionError(f"{PILES[f].label} does not begin with the base rank")
            for a, b in zip(pile, pile[1:], strict=False):
                if b.rank != next_rank(a.rank) or b.red == a.red:
                    raise PositionError(f"{PILES[f].label} is not built in order")
        return state

    # ---- helpers ---------------------------------------------------------------------
    @staticmethod
    def choosing(state: State) -> bool:
        """Whether the first foundation is still to be chosen (the opening)."""
        return not state.piles[FIRST]

    @staticmethod
    def terrace_end(state: State) -> int | None:
        """The Terrace's available place: the rightmost that still holds its card."""
        for t in reversed(TERRACE_PILES):
            if state.piles[t]:
                return t
        return None

    @staticmethod
    def base_rank(state: State) -> int | None:
        return state.piles[FIRST][0].rank if state.piles[FIRST] else None

    def foundation_refusal(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        base = self.base_rank(state)
        assert base is not None
        if not pile:
            if card.rank != base:
                return IllegalMove(FOUNDATIONS, f"An empty foundation place takes only a card "
                                   f"of the first foundation’s rank ({_rank_name(base)}s).")
            first_empty = next(g for g in FOUNDATION_PILES if not state.piles[g])
            if f != first_empty:
                return IllegalMove(FOUNDATIONS, "The foundations take their places in a line "
                                   f"with the first: this one goes in "
                                   f"{PILES[first_empty].label}.")
            return None
        if len(pile) == FULL:
            return IllegalMove(RULE_II, f"{PILES[f].label.capitalize()} is complete: it "
                               "holds thirteen cards.")
        top = pile[-1]
        want = next_rank(top.rank)
        if card.rank != want:
            return IllegalMove(RULE_II, f"The foundations ascend in sequence: "
                               f"{PILES[f].label} needs {_a(want)} next.")
        if card.red == top.red:
            other = "black" if top.red else "red"
            return IllegalMove(RULE_II, f"The foundations are formed with alternate red and "
                               f"black cards: a {other} {_rank_name(want)} is needed on the "
                               f"{top.name}.")
        return None

    def valley_refusal(self, state: State, v: int, card: Card) -> IllegalMove | None:
        top = state.piles[v][-1]
        wrap = self.options.valley_wrap and top.rank == ACE and card.rank == KING
        if card.rank != top.rank - 1 and not wrap:
            if top.rank == ACE and not self.options.valley_wrap:
                return IllegalMove(RULE_III, "The valley descends from king to ace: nothing "
                                   "is placed on an ace.")
            want = KING if top.rank == ACE else top.rank - 1
            return IllegalMove(RULE_III, f"Cards in the valley go in descending sequence: "
                               f"the {top.name} takes {_a(want)}.")
        if card.red == top.red:
            return IllegalMove(RULE_III, "The sequences in the valley must be formed of "
                               f"alternate colours: the {top.name} takes a "
                               f"{'black' if top.red else 'red'} card.")
        return None

    def _terrace_play(self, state: State) -> bool:
        """Whether the Terrace's available card can be played to a foundation now."""
        t = self.terrace_end(state)
        if t is None or self.choosing(state):
            return False
        card = state.piles[t][-1]
        return any(self.foundation_refusal(state, f, card) is None for f in FOUNDATION_PILES)

    def _preference(self, state: State) -> IllegalMove:
        t = self.terrace_end(state)
        assert t is not None
        return IllegalMove(PREFERENCE, f"Cards must always in preference be played from the "
                           f"Terrace: play the {state.piles[t][-1].name} first.")

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        p = state.piles
        if self.choosing(state):
            for v in VALLEY_PILES[:3]:
                if p[v]:
                    yield Move.step(PILES[v].id, "f0")
            return
        sources = [v for v in VALLEY_PILES if p[v]]
        t = self.terrace_end(state)
        if t is not None:
            sources.append(t)
        sources += [s for s in (TURNED, TALON_PILE) if p[s]]
        for s in sources:
            for d in (*FOUNDATION_PILES, *VALLEY_PILES):
                if d != s:
                    yield Move.step(PILES[s].id, PILES[d].id)
        if p[STOCK]:
            for v in VALLEY_PILES:
                if not p[v]:
                    yield Move.step("stock", PILES[v].id)
        yield Move(action="deal")

    def legal_in(self, state: State) -> list[Move]:
        """The legal moves, as by default (:meth:`candidate_moves`, in its order, checked
        with :meth:`refusal`), but only the candidates that pass a quick necessary test are
        made and checked (the solver asks very often; a test in test_solver.py compares it
        with the default)."""
        p = state.piles
        if self.choosing(state):
            return super().legal_in(state)
        base = self.base_rank(state)
        wrap = self.options.valley_wrap
        refusal = self.refusal
        out: list[Move] = []

        def add(m: Move) -> None:
            if refusal(state, m) is None:
                out.append(m)

        sources = [v for v in VALLEY_PILES if p[v]]
        t = self.terrace_end(state)
        if t is not None:
            sources.append(t)
        sources += [s for s in (TURNED, TALON_PILE) if p[s]]
        for si in sources:
            card = p[si][-1]
            red = card.red
            for di in (*FOUNDATION_PILES, *VALLEY_PILES):
                if di == si:
                    continue
                pile = p[di]
                if di in FOUNDATION_PILES:
                    if not pile:
                        ok = card.rank == base
                    else:
                        top = pile[-1]
                        ok = (len(pile) < FULL and card.rank == next_rank(top.rank)
                              and red != top.red)
                elif pile:
                    top = pile[-1]
                    ok = (red != top.red
                          and (card.rank == top.rank - 1
                               or (wrap and top.rank == ACE and card.rank == KING)))
                else:
                    ok = si in (TURNED, TALON_PILE)
                if ok:
                    add(Move.step(PILES[si].id, PILES[di].id))
        if p[STOCK]:
            for v in VALLEY_PILES:
                if not p[v]:
                    add(Move.step("stock", PILES[v].id))
        add(Move(action="deal"))
        return out

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if self.choosing(state):
            if si in VALLEY_PILES[:3] and di == FIRST:
                return None
            return IllegalMove(CHOICE, "First choose one of the three cards turned up as the "
                               "first foundation: move it to the first foundation place.")
        # where the card comes from
        if si in FOUNDATION_PILES:
            return IllegalMove(RULE_II, "Cards on the foundations stay there.")
        if si in TERRACE_PILES and si != self.terrace_end(state):
            return IllegalMove(RULE_I, f"Only the last card of the Terrace (the right-hand "
                               f"one) is available: the {card.name} is released only when "
                               "the cards to its right have gone.")
        if si in VALLEY_PILES and not step.top:
            return IllegalMove(RULE_IV, "Only the uppermost card of a valley packet is "
                               "available.")
        if si == TALON_PILE and not step.top:
            return IllegalMove(RULE_III, "Only the uppermost card of the talon can be used.")
        if si == STOCK and not step.top:
            return IllegalMove(DEAL, "Cards come from the pack in order, from its top.")
        if si == STOCK and not (di in VALLEY_PILES and not state.piles[di]):
            return IllegalMove(DEAL, "Cards come from the pack by turning them up (Turn up "
                               "the next card), or straight into an empty place of the "
                               "valley.")
        if self.options.terrace_first and self._terrace_play(state) \
                and si not in TERRACE_PILES:
            return self._preference(state)
        # where it goes
        if di in FOUNDATION_PILES:
            return self.foundation_refusal(state, di, card)
        if di in VALLEY_PILES:
            if not state.piles[di]:
                if si in (STOCK, TURNED):
                    return None
                if si == TALON_PILE:
                    if self.options.talon_fills:
                        return None
                    return IllegalMove(REFILL, "Vacancies in the valley are refilled from "
                                       "the pack in hand: its next card, or the card just "
                                       "turned up, not the talon’s top.")
                return IllegalMove(REFILL, "Vacancies in the valley are refilled from the "
                                   "pack in hand, not with a card already on the table.")
            if si in TERRACE_PILES and not self.options.terrace_to_valley:
                return IllegalMove(RULE_III, "Cards are played from the Terrace to the "
                                   "foundations only: they are not placed on the valley.")
            return self.valley_refusal(state, di, card)
        if di in TERRACE_PILES:
            return IllegalMove(RULE_I, "Nothing is placed on the Terrace: its cards are only "
                               "taken from it.")
        if di == TALON_PILE:
            return IllegalMove(DEAL, "A card turned up goes to the talon when the next card "
                               "is turned; nothing else goes there.")
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action != "deal":
            if action == "redeal":
                return IllegalMove(NO_REDEAL, "There is no re-deal.")
            return IllegalMove(BOARD, f"The Terrace has no action {action!r}.")
        if self.choosing(state):
            return IllegalMove(CHOICE, "First choose one of the three cards turned up as the "
                               "first foundation.")
        if not state.piles[STOCK]:
            return IllegalMove(NO_REDEAL, "The pack is dealt out, and there is no re-deal.")
        if self.options.terrace_first and self._terrace_play(state):
            return self._preference(state)
        return None

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        if move.action == "deal":
            turn_up(piles, STOCK, TURNED, TALON_PILE)
            return State(tuple(piles), state.vars)
        step = self.resolve_step(state, move)
        assert isinstance(step, Step)
        opening = self.choosing(state)
        piles[step.src] = piles[step.src][:-1]
        piles[step.dst] = piles[step.dst] + (step.card,)
        if opening:
            # The two rejected cards keep the valley's first two places; seven more are
            # dealt beside them.
            rejected = [piles[v] for v in VALLEY_PILES[:3] if piles[v]]
            for k, v in enumerate(VALLEY_PILES):
                if k < len(rejected):
                    piles[v] = rejected[k]
                else:
                    piles[v] = piles[STOCK][-1:]
                    piles[STOCK] = piles[STOCK][:-1]
        return State(tuple(piles), state.vars)

    # ---- the end ---------------------------------------------------------------------
    def played(self, state: State) -> int:
        return sum(len(state.piles[f]) for f in FOUNDATION_PILES)

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: the other answer of :meth:`outcome_of` (LOST when no move is
        left) costs a search for moves, and is a dead end to the solver anyway."""
        if self.played(state) == TOTAL:
            return Outcome.WON
        return None

    def outcome_of(self, state: State) -> Outcome | None:
        if self.played(state) == TOTAL:
            return Outcome.WON
        if state.piles[STOCK] or self.choosing(state):
            return None  # a card can still be turned up (or the choice is to be made)
        # The pack is out, and nothing comes back. Any win needs a play to a foundation; if no
        # series of the other moves (shifting valley cards, placing the card turned up or the
        # talon's top) brings a card the foundations take within reach, no card will ever be
        # played again: lost (TE-12). A search that gives up leaves the verdict open.
        return Outcome.LOST if self.remembered(state, self.play_reachable) is False else None

    def wanted(self, state: State) -> frozenset[tuple[int, bool]]:
        """The (rank, red) of every card some foundation would take now."""
        base = self.base_rank(state)
        out: set[tuple[int, bool]] = set()
        for f in FOUNDATION_PILES:
            pile = state.piles[f]
            if not pile:
                if base is not None:
                    out |= {(base, False), (base, True)}
            elif len(pile) < FULL:
                out.add((next_rank(pile[-1].rank), not pile[-1].red))
        return frozenset(out)

    def play_reachable(self, state: State, limit: int = 4000) -> bool | None:
        """With the pack out and the foundations as they stand: whether some series of moves
        other than plays brings an available card that a foundation takes (True), none does
        (False), or the search gave up after ``limit`` positions (None).

        Only rank and colour matter to every rule of the game, so a card is its rank and
        colour; and no rule looks at a valley packet's place, so positions that differ only in
        the order of the packets are one. The moves searched: a valley top onto another packet
        in sequence; the card turned up onto a packet in sequence or into an empty place; the
        talon's top in sequence, or into an empty place under TE-6's other reading; the
        Terrace card in sequence under TE-1's other reading. Each is allowed whatever the
        preference of TE-2, which can only forbid more: a search over more moves proves no
        less."""
        def code(c: Card) -> int:
            return 2 * c.rank + int(c.red)

        wanted = {2 * r + int(red) for r, red in self.wanted(state)}
        wrap = self.options.valley_wrap

        def fits(card: int, top: int) -> bool:  # card in sequence on top (Rule III)
            if card & 1 == top & 1:
                return False
            return card >> 1 == (top >> 1) - 1 or (wrap and top >> 1 == ACE
                                                  and card >> 1 == KING)

        p = state.piles
        terrace = tuple(code(p[i][0]) for i in TERRACE_PILES if p[i])
        talon = tuple(code(c) for c in p[TALON_PILE])
        turned = code(p[TURNED][0]) if p[TURNED] else -1
        Key = tuple[tuple[tuple[int, ...], ...], int, int, int]
        start: Key = (tuple(sorted(tuple(code(c) for c in p[v]) for v in VALLEY_PILES)),
                      len(terrace), len(talon), turned)
        seen = {start}
        todo = [start]
        while todo:
            valley, nt, nl, tu = todo.pop()
            free = [pk[-1] for pk in valley if pk]
            if nt:
                free.append(terrace[nt - 1])
            if nl:
                free.append(talon[nl - 1])
            if tu >= 0:
                free.append(tu)
            if any(c in wanted for c in free):
                return True
            nexts: list[Key] = []

            def put(card: int, into_empty: bool, nt: int, nl: int, tu: int,
                    valley: tuple[tuple[int, ...], ...] = valley) -> None:
                for b, q in enumerate(valley):
                    if (q and fits(card, q[-1])) or (not q and into_empty):
                        nxt = list(valley)
                        nxt[b] = q + (card,)
                        nexts.append((tuple(sorted(nxt)), nt, nl, tu))

            for a, pk in enumerate(valley):
                for b, q in enumerate(valley):
                    if a != b and pk and q and fits(pk[-1], q[-1]):
                        nxt = list(valley)
                        nxt[a], nxt[b] = pk[:-1], q + (pk[-1],)
                        nexts.append((tuple(sorted(nxt)), nt, nl, tu))
            if tu >= 0:
                put(tu, True, nt, nl, -1)
            if nl:
                put(talon[nl - 1], self.options.talon_fills, nt, nl - 1, tu)
            if nt and self.options.terrace_to_valley:
                put(terrace[nt - 1], False, nt - 1, nl, tu)
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
            return "Won: all 104 cards are on the foundations."
        if out is Outcome.LOST:
            return (f"The pack is out and no card can ever be played again: the patience has "
                    f"failed with {played} of 104 cards played.")
        if self.choosing(state):
            return "Choose one of the three cards turned up as the first foundation."
        terrace = sum(len(state.piles[t]) for t in TERRACE_PILES)
        parts = [f"Terrace: {plural(terrace, 'card')}",
                 f"pack: {plural(len(state.piles[STOCK]), 'card')}",
                 f"talon: {plural(len(state.piles[TALON_PILE]), 'card')}",
                 f"{played} of 104 on the foundations"]
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "deal" and state.piles[STOCK]:
            return f"The {state.piles[STOCK][-1].name} is turned up."
        if not move.action and self.choosing(state):
            step = self.resolve_step(state, move)
            if isinstance(step, Step):
                return (f"The {step.card.name} is chosen as the first foundation; the valley "
                        "is dealt.")
        if not move.action and move.steps[0][0] == "stock":
            step = self.resolve_step(state, move)
            if isinstance(step, Step):
                return f"The {step.card.name} from the pack fills {PILES[step.dst].label}."
        return super().describe(state, move)


def _rank_name(rank: int) -> str:
    return RANK_NAMES[rank]


def _a(rank: int) -> str:
    """The rank's name with its article: “an eight”, “a knave”."""
    name = RANK_NAMES[rank]
    return ("an " if name[0] in "ae" else "a ") + name

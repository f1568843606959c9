"""Anna (two packs), by the book: 1914 printing, plate p. 120, text p. 121.

Two packs, 104 cards. Piles, as the plate lays them: the helps, eight packets in the shape of a
capital A on the left (``h0`` the apex, ``h1`` … ``h3`` down the left leg, ``h4`` … ``h6`` down
the right leg, ``h7`` the cross-bar); the foundations, the eight knaves in the shape of the
letter N on the right (``f0`` … ``f7``, in the order the letter is written: up the left stroke,
down the diagonal, up the right stroke), each descending in suit from its knave through the ace
to the king (AN-1); the pack, the card turned up and the talon below.

Knaves go to the N as they appear, in the deal of the A or turned up from the pack; the A is
made of the first eight other cards (AN-2). On a help's uppermost card a card of its suit one
higher may be married, from the card turned up, the talon's top or (AN-3) another help; nothing
is laid on a queen, which stays a single card (Rule III). A vacancy in the A is refilled from
the card turned up or the talon's top (AN-5). A card turned up that can be used nowhere goes at
once to the talon, unless AN-7's other reading is chosen, under which it waits in its place,
the talon's top still in play, until the next card is turned up. The talon is re-dealt twice,
without shuffling (AN-9). The game is won with the A of queens and the N of kings. See the
chapter page for the text each rule id points at, and its editorial notes (``note-an-N``) for
the readings behind the options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .cards import ACE, KING, KNAVE, QUEEN, RANK_NAMES, Card, pack
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
from .rules import TurnedCard, stuck_after, turned_card_use

SLUG = "anna"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # the foundations follow suit
RULE_II = _rule("rule-2")             # only the uppermost card of a help is available
RULE_III = _rule("rule-3")            # nothing on a queen of the helps; single cards
HELPS = _rule("helps")                # eight cards in the shape of a capital A: the helps
KNAVES = _rule("knaves")              # knaves, as they turn up, form the letter N
FOUNDATIONS = _rule("foundations")    # the knaves descend in sequence to kings
FIRST_PLAYS = _rule("first-plays")    # play from the helps to the foundations
VACANCIES = _rule("vacancies")        # refilling the vacancies from the pack or talon
MARRY = _rule("marry")                # marriages in ascending line, never on queens
DEAL = _rule("deal")                  # deal out the entire pack, playing and marrying
REFILL = _rule("refill")              # refilling vacancies (during the deal)
TALON = _rule("talon")                # unsuitable cards placed as a talon
SUCCESS = _rule("success")            # the A of queens and the N of kings
REDEAL = _rule("redeal")              # the talon re-dealt twice
BOARD = _rule("board")                # the board itself (notation errors)

HELP_COUNT = 8
LINE = 8                    # knaves in the N
FOUNDATION_SIZE = 12        # knave, ten … ace, king
TOTAL_PLAYED = LINE * FOUNDATION_SIZE   # 96: every card but the queens
REDEALS = 2
SEARCH_LIMIT = 3000        # positions the loss search may visit before it gives up


@dataclass(frozen=True, slots=True)
class AnnaOptions:
    help_marriages: bool = option(
        True, note="note-an-3", label="The uppermost card of one help",
        labels={True: "may be married to the uppermost card of another help",
                False: "is married to nothing: cards are married only from the pack or talon"})
    turned_card: bool = option(
        True, note="note-an-6", label="A card turned up that could be played, married or put "
        "in a vacancy",
        labels={True: "must be used before the next card is turned",
                False: "may be laid on the talon"})
    unsuitable_to_talon: bool = option(
        True, note="note-an-7", label="A card turned up that can be neither played, married "
        "nor put in a vacancy at that moment",
        labels={True: "goes at once to the talon",
                False: "waits in its place until the next card is turned up"})


# ---------------------------------------------------------------------------- the layout
# x, y in card slots (a card is 0.9 wide and about 0.93 of a slot high). As in the plate: the A
# on the left, its apex at the top, three cards down each leg and one card as its cross-bar;
# the N on the right, its left stroke of three, its diagonal of three slanting, and its right
# stroke of two; the pack below, with the card turned up and the talon beside it.

_ROW = 1.3
HELP_AT: tuple[tuple[float, float], ...] = (
    (1.5, 0.0),                                        # apex
    (1.0, _ROW), (0.5, 2 * _ROW), (0.0, 3 * _ROW),     # left leg, downwards
    (2.0, _ROW), (2.5, 2 * _ROW), (3.0, 3 * _ROW),     # right leg, downwards
    (1.5, 2 * _ROW),                                   # cross-bar
)
HELP_NAMES = ("apex", "left leg, top", "left leg, middle", "left leg, foot",
              "right leg, top", "right leg, middle", "right leg, foot", "cross-bar")
_NX = 4.6
N_AT: tuple[tuple[float, float, int], ...] = (
    (_NX, 2 * _ROW, 0), (_NX, _ROW, 0), (_NX, 0.0, 0),                # left stroke, upwards
    (_NX + 1.05, 0.25, -30), (_NX + 2.0, 1.2, -30), (_NX + 2.95, 2.15, -30),  # diagonal
    (_NX + 4.0, _ROW, 0), (_NX + 4.0, 0.0, 0),                        # right stroke, upwards
)
N_NAMES = ("left stroke, foot", "left stroke, middle", "left stroke, top",
           "diagonal, top", "diagonal, middle", "diagonal, foot",
           "right stroke, foot", "right stroke, top")
_PACK_Y = 3 * _ROW + 0.2
_PACK_X = (_NX + 1.6, _NX + 2.6, _NX + 3.6)

PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"h{i}", f"help, {HELP_NAMES[i]}", Role.TABLEAU, x, y, Fan.DOWN,
                   fan_limit=0.35, mark="help")
          for i, (x, y) in enumerate(HELP_AT))
    + tuple(PileSpec(f"f{j}", f"foundation, {N_NAMES[j]} of the N", Role.FOUNDATION, x, y,
                     rotate=r, mark="knave")
            for j, (x, y, r) in enumerate(N_AT))
    + (PileSpec("stock", "the pack", Role.STOCK, _PACK_X[0], _PACK_Y),
       PileSpec("turned", "the card turned up", Role.RESERVE, _PACK_X[1], _PACK_Y,
                mark="turned up"),
       PileSpec("talon", "the talon", Role.TALON, _PACK_X[2], _PACK_Y, mark="talon"))
)

HELP_PILES = range(0, HELP_COUNT)
FOUND = range(HELP_COUNT, HELP_COUNT + LINE)
STOCK = FOUND.stop
TURNED = STOCK + 1
TALON_PILE = STOCK + 2

# On a phone: the A above, the N below it, the pack, the card turned up and the talon at
# the foot.
_NARROW_N_Y = 3 * _ROW + 1.4
NARROW = Layout(
    "narrow", (5.0, _NARROW_N_Y + 2 * _ROW + 2.5),
    {**{f"h{i}": (x + 0.5, y, 0) for i, (x, y) in enumerate(HELP_AT)},
     **{f"f{j}": (x - _NX + 0.0, y + _NARROW_N_Y, r) for j, (x, y, r) in enumerate(N_AT)},
     "stock": (1.0, _NARROW_N_Y + 2 * _ROW + 1.3, 0),
     "turned": (2.0, _NARROW_N_Y + 2 * _ROW + 1.3, 0),
     "talon": (3.0, _NARROW_N_Y + 2 * _ROW + 1.3, 0)},
    max_width=560)

PACK = TurnedCard(STOCK, TURNED, TALON_PILE, deal_rule=DEAL, talon_rule=TALON,
                  redeal_rule=REDEAL, redeals=REDEALS, talon_is="are placed as a talon",
                  whole="entire", to_talon="Only unsuitable cards turned up from the pack go "
                  "to the talon; nothing is put there by hand.")


def next_down(rank: int) -> int:
    """The rank a foundation wants after ``rank``: one lower, and after the ace the king."""
    return KING if rank == ACE else rank - 1


def _a(rank: int) -> str:
    name = RANK_NAMES[rank]
    return ("an " if name[0] in "ae" else "a ") + name


class Anna(Game):
    slug = SLUG
    title = "Anna"
    packs = 2
    Options = AnnaOptions
    PILES = PILES
    VARS = ("redeals",)
    GRID = (_NX + 4.0 + 1.0, _PACK_Y + 1.2)
    LAYOUTS = (NARROW,)
    FIGURES = (
        Figure("tableau", "Anna after the deal, in modern cards.",
               "The tableau of Anna just after the deal, drawn in modern cards: on the left "
               "eight help cards in the shape of a capital A, one at the apex, three down "
               "each leg and one as the cross-bar; on the right eight places in the shape of "
               "the letter N for the knaves, the foundations, up the left stroke, down the "
               "slanting diagonal and up the right stroke, with the knaves dealt so far in "
               "the first of them. The pack, the card turned up and the talon are not shown.",
               piles=tuple(p.id for p in PILES[:FOUND.stop])),
    )
    DIAGRAM_DEAL = 115
    ACTIONS = (
        ActionSpec("deal", "Turn up the next card", "t", DEAL),
        ActionSpec("redeal", "Re-deal the talon", "e", REDEAL),
    )
    LEDGER = {
        RULE_I: "A foundation takes only cards of its knave’s suit; another suit is refused.",
        RULE_II: "Only the uppermost card of a help can be played, married or moved; a card "
                 "beneath it is refused until it is uncovered.",
        RULE_III: "Nothing is laid on a queen of the helps, by marriage or otherwise; a queen "
                  "enters the A only in the deal or in a vacancy, and never leaves it (no "
                  "foundation takes a queen).",
        HELPS: "The deal lays eight cards face up in the shape of a capital A, the helps, "
               "from the pack’s top, a knave being replaced by the next card (AN-2).",
        KNAVES: "Each knave goes at once to the next empty place of the N, in the order the "
                "letter is written, when it appears in the deal of the A or turned up; "
                "nothing else goes to an empty place of the N.",
        FOUNDATIONS: "A foundation takes the ten of its knave’s suit, the nine and so down "
                     "to the ace, then the king, and is complete with twelve cards; a queen "
                     "is never played on it, and a card played stays there.",
        FIRST_PLAYS: "The uppermost card of any help may be played on a foundation from the "
                     "first move on, whenever the foundation wants it.",
        VACANCIES: "A vacant help may be filled, when the player chooses, with the card "
                   "turned up or the talon’s top, never with a card of another help or of a "
                   "foundation.",
        MARRY: "On a help’s uppermost card may be married a card of its suit one higher (a "
               "two on an ace … a ten on a nine), from the card turned up, the talon’s top "
               "or, by default (AN-3), another help’s uppermost card; nothing is married on a "
               "ten (its knave goes to the N), a queen or a king, and never downwards.",
        DEAL: "“Turn up the next card” turns the pack’s top card; a card a foundation takes, "
              "one that marries a help, and any card while a help is vacant waits to be used; "
              "the helps may be played and married at any time (AN-8).",
        REFILL: "A card turned up during the deal, or the talon’s top, may fill a vacancy of "
                "the A, a queen included.",
        TALON: "A card turned up that is unsuitable goes at once to the talon (AN-7; under "
               "the other reading it waits in its place, the talon’s top still in play, until "
               "the next card is turned up), of which only the top card can be used; by "
               "default the next card cannot be turned while the card turned up could be used "
               "(AN-6), under the other reading it is then laid on the talon; nothing is put "
               "on the talon by hand.",
        SUCCESS: "The game is won when the 96 cards other than the queens are on the "
                 "foundations, each ending with a king, and each help holds a single queen; "
                 "it is lost when the pack and the re-deals are spent and no series of moves "
                 "can bring another card to a foundation (AN-10).",
        REDEAL: "Once the pack is exhausted, the talon (with any card turned up) may be "
                "turned over, unshuffled, and dealt again by the same rules, twice.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        stock = list(shuffled(pack(2), deal))
        for h in HELP_PILES:              # eight cards from the pack's top
            while True:
                card = stock.pop()
                if card.rank != KNAVE:
                    break
                f = next(f for f in FOUND if not piles[f])   # a knave goes to the N
                piles[f] = (card,)
            piles[h] = (card,)
        piles[STOCK] = tuple(stock)
        return State(tuple(piles), (0,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        if not 0 <= state.vars[0] <= REDEALS:
            raise PositionError("the talon is re-dealt at most twice")
        if len(p[TURNED]) > 1:
            raise PositionError("the card turned up is a single card")
        if any(c.rank == KNAVE for c in p[TALON_PILE] + p[TURNED]):
            raise PositionError("a knave never waits: it goes to the N as it appears")
        for f in FOUND:
            pile = p[f]
            if pile and pile[0].rank != KNAVE:
                raise PositionError(f"{PILES[f].label} does not begin with a knave")
            if len(pile) > FOUNDATION_SIZE:
                raise PositionError(f"{PILES[f].label} has too many cards")
            for a, b in zip(pile, pile[1:], strict=False):
                if b.suit is not a.suit or b.rank != next_down(a.rank) or a.rank == KING:
                    raise PositionError(f"{PILES[f].label} is not built in order")
        empty = [f for f in FOUND if not p[f]]
        if empty and empty != list(FOUND)[LINE - len(empty):]:
            raise PositionError("the knaves fill the N in order")
        for h in HELP_PILES:
            pile = p[h]
            if any(c.rank == KNAVE for c in pile):
                raise PositionError("a knave is never left in the helps")
            if any(c.rank == QUEEN for c in pile) and len(pile) > 1:
                raise PositionError("a queen of the helps remains a single card")
            for a, b in zip(pile, pile[1:], strict=False):
                if b.suit is not a.suit or b.rank != a.rank + 1:
                    raise PositionError(f"{PILES[h].label} is not married in ascending line")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def foundation_refusal(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        if card.rank == QUEEN:
            return IllegalMove(RULE_III, f"The {card.name} is never played on a foundation, "
                               "which runs from the knave down to the ace and then to the "
                               "king: the queens stay as single cards in the helps and form "
                               "the A.")
        if not pile:
            return IllegalMove(KNAVES, "The foundations are the knaves, placed in the N as "
                               "they appear: an empty place takes nothing else.")
        if card.suit is not pile[0].suit:
            return IllegalMove(RULE_I, f"The foundations follow suit: this one takes only "
                               f"{pile[0].suit.noun}.")
        if len(pile) >= FOUNDATION_SIZE:
            return IllegalMove(FOUNDATIONS, "That foundation is complete: it has descended to "
                               "its king.")
        want = next_down(pile[-1].rank)
        if card.rank != want:
            return IllegalMove(FOUNDATIONS, f"The foundations descend in sequence, through the "
                               f"ace to the king: this one takes {_a(want)} next.")
        return None

    @staticmethod
    def marries(card: Card, top: Card) -> bool:
        """Whether ``card`` marries ``top`` in the helps: same suit, one higher, and never on
        a queen (Rule III)."""
        return card.suit is top.suit and card.rank == top.rank + 1 and top.rank != QUEEN

    def to_foundation(self, state: State, card: Card) -> int | None:
        for f in FOUND:
            if self.foundation_refusal(state, f, card) is None:
                return f
        return None

    def use_of(self, state: State, card: Card) -> str | None:
        """Where a card turned up could be used, in words (None: it is unsuitable): played,
        married or put in a vacancy."""
        p = state.piles
        return turned_card_use(
            card, ((f"the {PILES[f].label}", f) for f in FOUND),
            ((f"the {PILES[h].label}", p[h]) for h in HELP_PILES),
            founds=lambda f, c: self.foundation_refusal(state, f, c) is None,
            fits=self.marries, placed="married to", vacancy="put in the vacancy of")

    def played(self, state: State) -> int:
        return sum(len(state.piles[f]) for f in FOUND)

    def won(self, state: State) -> bool:
        p = state.piles
        return (self.played(state) == TOTAL_PLAYED
                and all(len(p[h]) == 1 and p[h][0].rank == QUEEN for h in HELP_PILES))

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        return PACK.candidates(state, PILES, HELP_PILES, (*FOUND, *HELP_PILES))

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        p = state.piles
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if si in FOUND:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        refusal = PACK.refuse_source(si, step.top)
        if refusal is not None:
            return refusal
        if si in HELP_PILES and not step.top:
            return IllegalMove(RULE_II, "Only the uppermost card of a help is available: the "
                               "cards beneath it wait until it is removed.")
        if di in FOUND:
            return self.foundation_refusal(state, di, card)
        if di in HELP_PILES:
            if not p[di]:
                if si in HELP_PILES:
                    return IllegalMove(VACANCIES, "A vacancy in the A is refilled from the "
                                       "pack or the talon, not from another help.")
                return None
            top = p[di][-1]
            if top.rank == QUEEN:
                return IllegalMove(RULE_III, f"No card can be laid on the {top.name}: a "
                                   "queen among the helps remains a single card.")
            if si in HELP_PILES and not self.options.help_marriages:
                return IllegalMove(MARRY, "Under this reading (AN-3) the helps do not marry "
                                   "with each other: only the card turned up or the talon’s "
                                   "top is married on a help.")
            if self.marries(card, top):
                return None
            if card.suit is not top.suit:
                return IllegalMove(MARRY, f"A marriage is of the same suit: the {card.name} "
                                   f"cannot go on the {top.name}.")
            if top.rank == KING:
                return IllegalMove(MARRY, f"Nothing is married on the {top.name}: no card "
                                   "stands above a king.")
            if top.rank == KNAVE - 1:
                return IllegalMove(MARRY, f"Nothing is married on the {top.name}: the card "
                                   "above a ten is a knave, and a knave goes to the N as "
                                   "soon as it appears.")
            return IllegalMove(MARRY, f"Marriages go in ascending line: the {top.name} takes "
                               f"only the {RANK_NAMES[top.rank + 1]} of {top.suit.noun}.")
        return PACK.refuse_destination(di) or IllegalMove(
            BOARD, f"Nothing may be put on {PILES[di].label}.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action in ("deal", "redeal"):   # AN-6: a card that could be used must be, or not
            return PACK.refuse_action(state, action,
                                      self.use_of if self.options.turned_card else None)
        return IllegalMove(BOARD, f"Anna has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        redeals = state.vars[0]
        if move.action:   # a knave goes to the next place of the N at once; any other card
            # waits if it can be used, else goes to the talon (AN-7), or under AN-7's other
            # reading waits all the same
            redeals = PACK.apply_action(
                piles, state, move.action,
                self.use_of if self.options.unsuitable_to_talon else None,
                lambda card: next(f for f in FOUND if not piles[f]) if card.rank == KNAVE
                else None)
        else:
            step = self.resolve_step(state, move)
            assert isinstance(step, Step)
            piles[step.src] = piles[step.src][:-1]
            piles[step.dst] = piles[step.dst] + (step.card,)
        return State(tuple(piles), (redeals,))

    # ---- the end ---------------------------------------------------------------------
    def plays(self, state: State) -> bool:
        """Whether a card can be played on a foundation now, or the game is won."""
        p = state.piles
        if self.won(state):
            return True
        tops = [p[s][-1] for s in (*HELP_PILES, TURNED, TALON_PILE) if p[s]]
        return any(self.to_foundation(state, c) is not None for c in tops)

    def shifts(self, state: State) -> Iterator[tuple[int, int]]:
        """The legal one-card moves other than plays: marriages and vacancies filled."""
        for m in self.legal_in(state):
            if m.steps:
                src, dst = (self.pile_index(x) for x in m.steps[0])
                if dst not in FOUND:
                    yield src, dst

    def _lost(self, state: State) -> bool:
        if not PACK.spent(state):
            return False
        return stuck_after(state, self.plays, self.shifts, SEARCH_LIMIT) is True

    def outcome_of(self, state: State) -> Outcome | None:
        if self.won(state):
            return Outcome.WON
        return Outcome.LOST if self.remembered(state, self._lost) else None

    def solver_outcome(self, state: State) -> Outcome | None:
        return Outcome.WON if self.won(state) else None

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = self.played(state)
        if out is Outcome.WON:
            return "Won: the letter A of queens, and the letter N of kings."
        if out is Outcome.LOST:
            return (f"Nothing more can be played: the patience has failed with "
                    f"{played} of 96 cards on the foundations.")
        return PACK.status(state, f"{played} of 96 on the foundations")

    def describe(self, state: State, move: Move) -> str:
        if move.action:
            words = PACK.describe(state, move.action)
            if words is not None:
                return words
        return super().describe(state, move)


__all__ = ["Anna", "AnnaOptions"]

"""The Fish-bone (two packs), by the book: 1914 printing, plate p. 106, text p. 107.

Two packs, 104 cards. Piles: the eight foundations, the knaves, in a perpendicular line down the
middle (``f0`` … ``f7``, top to bottom), each descending in suit from its knave to the ace;
beside each knave the place of its king on the left (``k0`` … ``k7``) and of its queen on the
right (``q0`` … ``q7``), slanting like the bones of a fish; the gridiron, six cards in two
columns of three on the left (``g0`` … ``g5``), on which cards from the pack or the talon marry
in ascending sequence; the pack, the card just turned up from it, and the talon.

What the rules make happen at once happens in :meth:`TheFishBone.apply`: a knave goes to the
line as soon as it appears (in the gridiron or turned up), and a king or queen beside a knave of
its suit as soon as it is available and a place is free; a king or queen turned up that has no
place goes to the talon (Rule II). Any other card turned up that cannot be used goes at once to
the talon, unless FB-5's other reading is chosen, under which it waits in its place, the
talon's top still in play, until the next card is turned up. See the chapter page for the
text each rule id points at, and its editorial notes (``note-fb-N``) for the readings behind
the options.
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
from .rules import TurnedCard, turned_card_use

SLUG = "the-fish-bone"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # the foundations follow suit
RULE_II = _rule("rule-2")             # kings and queens only beside their placed knaves
GRIDIRON = _rule("gridiron")          # six cards on the left: the gridiron
MARRY = _rule("marry")                # ascending marriage, only with pack or talon cards
FOUNDATIONS = _rule("foundations")    # the eight knaves, descending to aces, played at once
FIRST_PLAYS = _rule("first-plays")    # a knave in the gridiron played; kings and queens placed
DEAL = _rule("deal")                  # deal out the pack, playing, marrying
VACANCIES = _rule("vacancies")        # vacancies refilled from the pack or talon
NEVER_OMIT = _rule("never-omit")      # never omit to place the kings and queens
TALON = _rule("talon")                # the unsuitable cards form the talon
SUCCESS = _rule("success")            # a line of aces, each with a king and a queen
REDEAL = _rule("redeal")              # the talon re-dealt once
BOARD = _rule("board")                # the board itself (notation errors)

LINE = 8                # knaves in the line
GRID_PLACES = 6
FOUNDATION_SIZE = 11    # knave down to ace
TOTAL = 104
REDEALS = 1


@dataclass(frozen=True, slots=True)
class FishBoneOptions:
    dealt_courts: bool = option(
        True, note="note-fb-3", label="A king or queen among the six cards of the gridiron, "
        "with no knave to receive it",
        labels={True: "is consigned to the talon at once, leaving a vacancy",
                False: "waits in its gridiron place until its knave comes"})
    turned_card: bool = option(
        True, note="note-fb-4", label="A card turned up that could be played, married or put "
        "in a vacancy",
        labels={True: "must be used before the next card is turned",
                False: "may be laid on the talon"})
    unsuitable_to_talon: bool = option(
        True, note="note-fb-5", label="A card turned up that can be neither played, married nor "
        "put in a vacancy at that moment",
        labels={True: "goes at once to the talon",
                False: "waits in its place until the next card is turned up"})


# ---------------------------------------------------------------------------- the layout
# x, y in card slots (a card is 0.9 wide and about 0.93 of a slot high). As in the plate: the
# gridiron in two columns of three on the left; the line of knaves down the middle, each with
# its king slanting on the left and its queen slanting on the right; the pack at the right, with
# the card turned up and the talon below it.

_LINE_X = 3.55           # the knaves' column
_SIDE_DX = 1.1           # a king's or queen's place, from the knave's
_Y0 = 0.25
_PITCH = 1.05            # from one knave to the next
_GRID_X = (0.0, 1.0)
_GRID_Y = (1.6, 3.3, 5.0)
_PACK_X = 6.1
_PACK_Y = (4.45, 5.75, 7.05)


def _where(j: int) -> str:
    return f"place {j + 1} of the line"


PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"k{j}", f"king’s place beside {_where(j)}", Role.FOUNDATION,
                   _LINE_X - _SIDE_DX, _Y0 + j * _PITCH, rotate=-45, mark="king")
          for j in range(LINE))
    + tuple(PileSpec(f"q{j}", f"queen’s place beside {_where(j)}", Role.FOUNDATION,
                     _LINE_X + _SIDE_DX, _Y0 + j * _PITCH, rotate=45, mark="queen")
            for j in range(LINE))
    + tuple(PileSpec(f"f{j}", f"foundation, {_where(j)}", Role.FOUNDATION,
                     _LINE_X, _Y0 + j * _PITCH, mark="knave")
            for j in range(LINE))
    + tuple(PileSpec(f"g{i}", f"gridiron, {('left', 'right')[i % 2]} column, "
                     f"{('top', 'middle', 'bottom')[i // 2]}", Role.TABLEAU,
                     _GRID_X[i % 2], _GRID_Y[i // 2], Fan.DOWN, fan_limit=0.7,
                     mark="gridiron")
            for i in range(GRID_PLACES))
    + (PileSpec("stock", "the pack", Role.STOCK, _PACK_X, _PACK_Y[0]),
       PileSpec("turned", "the card turned up", Role.RESERVE, _PACK_X, _PACK_Y[1],
                mark="turned up"),
       PileSpec("talon", "the talon", Role.TALON, _PACK_X, _PACK_Y[2], mark="talon"))
)

KINGS = range(0, LINE)
QUEENS = range(LINE, 2 * LINE)
FOUND = range(2 * LINE, 3 * LINE)
GRID_PILES = range(3 * LINE, 3 * LINE + GRID_PLACES)
STOCK = GRID_PILES.stop
TURNED = STOCK + 1
TALON_PILE = STOCK + 2

PACK = TurnedCard(STOCK, TURNED, TALON_PILE, deal_rule=DEAL, talon_rule=TALON,
                  redeal_rule=REDEAL, redeals=REDEALS, to_talon="Only unsuitable cards turned "
                  "up from the pack form the talon; nothing is put there by hand.")


def court_place(card: Card, j: int) -> int:
    """The pile beside knave ``j`` that takes ``card`` (a king or a queen)."""
    return (KINGS if card.rank == KING else QUEENS)[j]


def _a(rank: int) -> str:
    name = RANK_NAMES[rank]
    return ("an " if name[0] in "ae" else "a ") + name


class TheFishBone(Game):
    slug = SLUG
    title = "The Fish-bone"
    packs = 2
    Options = FishBoneOptions
    PILES = PILES
    VARS = ("redeals",)
    GRID = (_PACK_X + 1.0, _Y0 + (LINE - 1) * _PITCH + 1.2)
    FIGURES = (
        Figure("tableau", "The Fish-bone after the deal, in modern cards.",
               "The tableau of the Fish-bone just after the deal, drawn in modern cards: on "
               "the left the gridiron, six places in two columns of three, five holding a "
               "card and one left vacant by the knave dealt there; down the middle the line "
               "of eight places for the knaves, that knave already in the first, and beside "
               "each place a slanting outline for its king on the left and its queen on the "
               "right, like the bones of a fish. The pack, the card turned up and the talon "
               "are not shown.",
               piles=tuple(p.id for p in PILES[:GRID_PILES.stop])),
    )
    DIAGRAM_DEAL = 10
    ACTIONS = (
        ActionSpec("deal", "Turn up the next card", "t", DEAL),
        ActionSpec("redeal", "Re-deal the talon", "e", REDEAL),
    )
    LEDGER = {
        RULE_I: "A foundation takes only cards of its knave’s suit; another suit is refused.",
        RULE_II: "A king or queen goes only beside a placed knave of its suit whose place for "
                 "it is free, and is put there at once; a king or queen turned up with no such "
                 "place goes at once to the talon, as does one dealt in the gridiron (or, under "
                 "FB-3’s other reading, it waits there); one is refused in the gridiron, "
                 "whether married or filling a vacancy.",
        GRIDIRON: "The deal lays six cards face up in two columns of three on the left: the "
                  "gridiron.",
        MARRY: "The card turned up or the talon’s top may be placed on a gridiron card’s top "
               "card if it is of the same suit and one higher; cards already in the gridiron "
               "never move onto each other, and only the top card of a gridiron place is "
               "available (FB-1).",
        FOUNDATIONS: "Each knave goes at once to the first empty place of the line, top to "
                     "bottom, when it appears; a foundation then takes the ten of its suit, the "
                     "nine and so down to the ace, and is complete with eleven cards; a card "
                     "on a foundation never leaves it.",
        FIRST_PLAYS: "The knaves of the first six cards go to the line before the first move, "
                     "and a king or queen of the gridiron beside them if its knave is there, "
                     "else to the talon (FB-3); any other gridiron card that continues a "
                     "foundation may then be played.",
        DEAL: "“Turn up the next card” turns the pack’s top card; a card a foundation takes, "
              "one that marries a gridiron card, and any card while a gridiron place is vacant "
              "waits to be used; the top card of a gridiron place may be played to its "
              "foundation at any time.",
        VACANCIES: "A vacant gridiron place may be filled, when the player chooses, only with "
                   "the card turned up or the talon’s top, never with a king or queen or a "
                   "card of the gridiron.",
        NEVER_OMIT: "Whenever a king or queen is available (in the gridiron or on the talon’s "
                    "top, or turned up) and a knave of its suit has its place free, the board "
                    "places it at once; nothing is put in those places by hand.",
        TALON: "A card turned up that is unsuitable goes at once to the talon (FB-5; under "
               "the other reading it waits in its place, the talon’s top still in play, until "
               "the next card is turned up), a packet of which only the top card can be used; "
               "by default the next card cannot be turned while the card turned up could be "
               "used (FB-4), under the other reading it is then laid on the talon.",
        SUCCESS: "The game is won when all 104 cards are placed: eight foundations down to "
                 "the aces, each knave with its king and queen; it is lost when no move at all "
                 "is left.",
        REDEAL: "Once the pack is exhausted, the talon (with any card turned up) may be turned "
                "over, unshuffled, and dealt again by the same rules, once.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        stock = list(shuffled(pack(2), deal))
        for i in GRID_PILES:                     # six cards from the pack's top
            piles[i] = (stock.pop(),)
        piles[STOCK] = tuple(stock)
        _settle(piles)                     # the gridiron's knaves, and their kings and queens
        if options.dealt_courts:           # FB-3: the others go to the talon (Rule II)
            for i in GRID_PILES:
                if piles[i] and piles[i][0].rank in (KING, QUEEN):
                    piles[TALON_PILE] = piles[TALON_PILE] + piles[i]
                    piles[i] = ()
        return State(tuple(piles), (0,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        if not 0 <= state.vars[0] <= REDEALS:
            raise PositionError("the talon is re-dealt at most once")
        if len(p[TURNED]) > 1:
            raise PositionError("the card turned up is a single card")
        if p[TURNED] and p[TURNED][0].rank in (KNAVE, QUEEN, KING):
            raise PositionError("a court card is never left waiting as the card turned up")
        if any(c.rank == KNAVE for c in p[TALON_PILE]):
            raise PositionError("a knave never goes to the talon")
        for f in FOUND:
            pile = p[f]
            if pile and pile[0].rank != KNAVE:
                raise PositionError(f"{PILES[f].label} does not begin with a knave")
            for a, b in zip(pile, pile[1:], strict=False):
                if b.suit is not a.suit or b.rank != a.rank - 1:
                    raise PositionError(f"{PILES[f].label} is not built in order")
        empty = [f for f in FOUND if not p[f]]
        if empty and empty != list(FOUND)[LINE - len(empty):]:
            raise PositionError("the knaves fill the line from the top")
        for j in range(LINE):
            for side, rank in ((KINGS, KING), (QUEENS, QUEEN)):
                pile = p[side[j]]
                if not pile:
                    continue
                if len(pile) > 1 or pile[0].rank != rank or not p[FOUND[j]] \
                        or p[FOUND[j]][0].suit is not pile[0].suit:
                    raise PositionError(f"{PILES[side[j]].label} holds a wrong card")
        for g in GRID_PILES:
            pile = p[g]
            if pile and pile[0].rank == KNAVE:
                raise PositionError("a knave is never left in the gridiron")
            for a, b in zip(pile, pile[1:], strict=False):
                if b.suit is not a.suit or b.rank != a.rank + 1 or b.rank > 10:
                    raise PositionError(f"{PILES[g].label} is not married in ascending "
                                        "sequence")
        piles = list(p)
        if _settle(piles):
            raise PositionError("a king or queen that must be placed has not been")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def foundation_refusal(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        if not pile:
            return IllegalMove(FOUNDATIONS, "The foundations are the knaves, placed in the line "
                               "as they appear: an empty place takes nothing else.")
        if card.suit is not pile[0].suit:
            return IllegalMove(RULE_I, f"The foundations follow suit: this one takes only "
                               f"{pile[0].suit.noun}.")
        if len(pile) >= FOUNDATION_SIZE:
            return IllegalMove(FOUNDATIONS, "That foundation is complete: it has descended to "
                               "its ace.")
        if card.rank != pile[-1].rank - 1:
            return IllegalMove(FOUNDATIONS, f"The foundations descend in sequence: this one "
                               f"takes {_a(pile[-1].rank - 1)} next.")
        return None

    @staticmethod
    def marries(card: Card, top: Card) -> bool:
        """Whether ``card`` marries ``top`` in the gridiron: same suit, one higher, never a
        court card."""
        return card.suit is top.suit and card.rank == top.rank + 1 and card.rank <= 10

    def use_of(self, state: State, card: Card) -> str | None:
        """Where a card turned up could be used, in words (None: it is unsuitable): played,
        married or put in a vacancy."""
        p = state.piles
        return turned_card_use(
            card, ((PILES[f].label, f) for f in FOUND),
            ((f"the {PILES[g].label}", p[g]) for g in GRID_PILES),
            founds=lambda f, c: self.foundation_refusal(state, f, c) is None,
            fits=self.marries, placed="married to", vacancy="put in the vacancy of")

    def placed(self, state: State) -> int:
        return sum(len(state.piles[i]) for i in range(FOUND.stop))

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        return PACK.candidates(state, PILES, GRID_PILES, (*FOUND, *GRID_PILES))

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        p = state.piles
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if si in FOUND:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if si < FOUND.start:
            return IllegalMove(RULE_II, "A king or queen placed beside its knave stays there.")
        refusal = PACK.refuse_source(si, step.top)
        if refusal is not None:
            return refusal
        if si in GRID_PILES and not step.top:
            return IllegalMove(MARRY, "Only the last card married on a gridiron card is "
                               "available: the cards beneath it wait until it is played.")
        if di in FOUND:
            return self.foundation_refusal(state, di, card)
        if di < FOUND.start:
            return IllegalMove(NEVER_OMIT, "Kings and queens are placed beside their knaves "
                               "as soon as it can be done, and nothing else goes there.")
        if di in GRID_PILES:
            if si in GRID_PILES:
                if p[di]:
                    return IllegalMove(MARRY, "Cards in the gridiron marry only with cards "
                                       "from the pack or talon, not with each other.")
                return IllegalMove(VACANCIES, "A vacancy in the gridiron is refilled from the "
                                   "pack or the talon, not from the gridiron.")
            if card.rank in (KING, QUEEN):
                return IllegalMove(RULE_II, f"The {card.name} can find a place only beside a "
                                   f"knave of {card.suit.noun}; until then it lies in the "
                                   "talon.")
            if not p[di]:
                return None
            top = p[di][-1]
            if self.marries(card, top):
                return None
            if card.suit is not top.suit:
                return IllegalMove(MARRY, f"A marriage is of the same suit: the {card.name} "
                                   f"cannot go on the {top.name}.")
            return IllegalMove(MARRY, f"Cards in the gridiron marry in ascending sequence: "
                               f"the {top.name} takes only the {RANK_NAMES[top.rank + 1]} "
                               f"of {top.suit.noun}." if top.rank < 10 else
                               f"Nothing is married on the {top.name}.")
        return PACK.refuse_destination(di) or IllegalMove(
            BOARD, f"Nothing may be put on {PILES[di].label}.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action in ("deal", "redeal"):   # FB-4: a card that could be used must be, or not
            return PACK.refuse_action(state, action,
                                      self.use_of if self.options.turned_card else None)
        return IllegalMove(BOARD, f"The Fish-bone has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        redeals = state.vars[0]
        if move.action:
            # Rule II and the knaves: a knave, king or queen turned up is put on the talon's
            # top, to be placed at once (_settle), or (a king or queen) to stay there. Any
            # other card waits if it can be used, else goes to the talon (FB-5), or under
            # FB-5's other reading waits all the same.
            redeals = PACK.apply_action(
                piles, state, move.action,
                self.use_of if self.options.unsuitable_to_talon else None,
                lambda card: TALON_PILE if card.rank in (KNAVE, KING, QUEEN) else None)
        else:
            step = self.resolve_step(state, move)
            assert isinstance(step, Step)
            piles[step.src] = piles[step.src][:-1]
            piles[step.dst] = piles[step.dst] + (step.card,)
        _settle(piles)
        return State(tuple(piles), (redeals,))

    # ---- the end ---------------------------------------------------------------------
    def outcome_of(self, state: State) -> Outcome | None:
        if self.placed(state) == TOTAL:
            return Outcome.WON
        if state.piles[STOCK]:
            return None
        # Every move is for good (a card played, married or put in a vacancy never comes
        # back), so the game is over exactly when no move is left (FB-8).
        return Outcome.LOST if not self.legal_in(state) else None

    def solver_outcome(self, state: State) -> Outcome | None:
        return Outcome.WON if self.placed(state) == TOTAL else None

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = sum(len(state.piles[f]) for f in FOUND)
        if out is Outcome.WON:
            return "Won: a line of aces, each with its king and its queen."
        if out is Outcome.LOST:
            return (f"No move is left: the patience has failed with {played} of 88 cards on "
                    "the foundations.")
        return PACK.status(state, f"{played} of 88 on the foundations")

    def describe(self, state: State, move: Move) -> str:
        if move.action:
            words = PACK.describe(state, move.action)
            if words is not None:
                return words
        return super().describe(state, move)


def _settle(piles: list[tuple[Card, ...]]) -> bool:
    """What the rules make happen at once: a knave in the gridiron goes to the first empty place
    of the line (a knave turned up has been put on the talon's top for the moment, and goes the
    same way), and an available king or queen (a gridiron card, the talon's top) beside the
    first knave of its suit whose place for it is free, until nothing more moves. A king or
    queen turned up with no place stays on the talon (Rule II). Returns whether anything
    moved."""
    moved = False
    while True:
        for src in (*GRID_PILES, TALON_PILE):
            pile = piles[src]
            if not pile:
                continue
            card = pile[-1]
            dst: int | None = None
            if card.rank == KNAVE:
                dst = next(f for f in FOUND if not piles[f])
            elif card.rank in (KING, QUEEN):
                dst = next((court_place(card, j) for j in range(LINE)
                            if piles[FOUND[j]] and piles[FOUND[j]][0].suit is card.suit
                            and not piles[court_place(card, j)]), None)
            if dst is not None:
                piles[src] = pile[:-1]
                piles[dst] = piles[dst] + (card,)
                moved = True
                break
        else:
            return moved


__all__ = ["TheFishBone", "FishBoneOptions"]

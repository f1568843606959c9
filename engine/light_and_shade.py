"""Light and Shade (two packs), by the book: 1914 printing, plate p. 64 (printed sideways),
text p. 65.

Piles: the pack and its talon; the eight aces withdrawn and laid in a line, the foundations,
which ascend to kings in alternate colours; below them (as the plate draws it; the text puts
both rows above) two rows of four: the Auxiliaries, next to the aces, and the Rivals.

Only the top card of an Auxiliary is ever played, and only to a foundation: nothing goes to
a foundation from the Rivals, the talon or the pack. A Rival card may be placed on an
Auxiliary one rank lower and of the other colour, or into an empty Auxiliary place. The pack
is turned one card at a time onto the talon; the talon's top card may fill an empty Rival
place. There is no re-deal.

See the chapter page for the text each rule id points at, and its editorial notes
(``note-ls-N``) for the readings behind the options.
"""

from __future__ import annotations

from collections import Counter
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
    Layout,
    Move,
    Outcome,
    PileSpec,
    Role,
    State,
    Step,
    option,
)
from .deal import shuffled
from .rules import plural

SLUG = "light-and-shade"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")                 # foundations ascend in alternate colours
RULE_II = _rule("rule-2")                # the Auxiliaries descend in alternate colours
RULE_III = _rule("rule-3")               # Auxiliary vacancies from the Rivals; Rival ones from pack or talon
ACES = _rule("aces")                     # withdraw the eight aces: the foundations, to kings
ROWS = _rule("rows")                     # deal eight cards in two rows: Auxiliaries and Rivals
FIRST_PLAYS = _rule("first-plays")       # play suitable Auxiliaries, filling from the Rivals
SEQUENCES = _rule("sequences")           # Rivals placed on the Auxiliaries; sequences played off
TALON = _rule("talon")                   # deal out the pack; the non-suitable cards form a talon
ONLY_AUX = _rule("only-auxiliaries")     # cards are played on the foundations only from the Auxiliaries
NO_REDEAL = _rule("no-redeal")           # there is no re-deal
BOARD = _rule("board")                   # the board itself (notation errors)

TOTAL = 104
#: LS-2: the aces as the plate is read, in same-suit pairs alternating in colour.
ACE_SUITS = (Suit.CLUBS, Suit.CLUBS, Suit.HEARTS, Suit.HEARTS,
             Suit.SPADES, Suit.SPADES, Suit.DIAMONDS, Suit.DIAMONDS)


class TalonBuilds(Enum):
    """LS-4: whether the talon's top card may go straight onto an Auxiliary."""

    RIVALS_ONLY = "rivals-only"  # only Rival cards are placed on the Auxiliaries
    TALON_TOO = "talon-too"      # the talon's top card may also be placed on one


class Refill(Enum):
    """LS-7 and LS-8: when vacancies are filled."""

    AT_WILL = "at-will"    # whenever the player chooses; a place may wait
    AT_ONCE = "at-once"    # before anything else is done


class RivalSource(Enum):
    """LS-7: which Rival fills an Auxiliary vacancy."""

    ANY = "any"                  # any Rival, the player's choice
    SAME_COLUMN = "same-column"  # only the Rival in the same column


@dataclass(frozen=True, slots=True)
class LightAndShadeOptions:
    talon_builds: TalonBuilds = option(
        TalonBuilds.RIVALS_ONLY, note="note-ls-4", label="Cards placed on the Auxiliaries come",
        labels={TalonBuilds.RIVALS_ONLY: "only from the Rivals",
                TalonBuilds.TALON_TOO: "from the Rivals or from the top of the talon"})
    refill: Refill = option(
        Refill.AT_WILL, note="note-ls-7", label="Vacancies are filled",
        labels={Refill.AT_WILL: "when the player chooses",
                Refill.AT_ONCE: "at once, before any other move"})
    rival_source: RivalSource = option(
        RivalSource.ANY, note="note-ls-8", label="An Auxiliary vacancy is filled from",
        labels={RivalSource.ANY: "any Rival, the player’s choice",
                RivalSource.SAME_COLUMN: "the Rival in the same column"})


# ---------------------------------------------------------------------------- the layout
# The plate: the pack at the top, centred; the eight aces in a line; below them, more widely
# spaced and centred, the Auxiliaries and then the Rivals (LS-1).

_FAN = 2.3
_ACE_X = tuple(j * 1.1 for j in range(8))
_ROW_X = tuple(3.85 - 2.7 + j * 1.8 for j in range(4))
_ACE_Y, _AUX_Y = 1.3, 2.65
_RIVAL_Y = _AUX_Y + 1.0 + _FAN + 0.35

PILES: tuple[PileSpec, ...] = (
    (PileSpec("stock", "the pack", Role.STOCK, 3.3, 0.0),
     PileSpec("talon", "the talon", Role.TALON, 4.4, 0.0))
    + tuple(PileSpec(f"f{j}", f"foundation {j + 1} (ace of {s.noun})", Role.FOUNDATION,
                     _ACE_X[j], _ACE_Y) for j, s in enumerate(ACE_SUITS))
    + tuple(PileSpec(f"a{j}", f"Auxiliary {j + 1}", Role.TABLEAU, _ROW_X[j], _AUX_Y,
                     Fan.DOWN, fan_limit=_FAN, mark=f"Aux. {j + 1}") for j in range(4))
    + tuple(PileSpec(f"r{j}", f"Rival {j + 1}", Role.RESERVE, _ROW_X[j], _RIVAL_Y,
                     capacity=1) for j in range(4))
)

STOCK, TALON_PILE = 0, 1
FOUNDS = range(2, 10)
AUX = range(10, 14)
RIVALS = range(14, 18)


def _narrow_layout() -> Layout:
    at: dict[str, tuple[float, float, int]] = {"stock": (3.0, 0.0, 0), "talon": (4.0, 0.0, 0)}
    for j in range(8):
        at[f"f{j}"] = (float(j), 1.2, 0)
    for j in range(4):
        at[f"a{j}"] = (0.5 + 2.0 * j, 2.45, 0)
        at[f"r{j}"] = (0.5 + 2.0 * j, 2.45 + 1.0 + _FAN + 0.3, 0)
    return Layout("narrow", (8.0, 2.45 + 2.0 + _FAN + 0.3), at, max_width=560)


def colour(card: Card) -> str:
    return "red" if card.red else "black"


def fits_foundation(pile: tuple[Card, ...], card: Card) -> bool:
    """Rule I: one rank higher than the top card and of the other colour (to the king)."""
    top = pile[-1]
    return top.rank < KING and card.rank == top.rank + 1 and card.red != top.red


def fits_auxiliary(pile: tuple[Card, ...], card: Card) -> bool:
    """Rule II: one rank lower than the top card and of the other colour."""
    top = pile[-1]
    return card.rank == top.rank - 1 and card.red != top.red


class LightAndShade(Game):
    slug = SLUG
    title = "Light and Shade"
    packs = 2
    Options = LightAndShadeOptions
    PILES = PILES
    GRID = (8.8, _RIVAL_Y + 1.05)
    LAYOUTS = (_narrow_layout(),)
    FIGURES = (
        Figure("tableau", "Light and Shade after the deal, in modern cards.",
               "The tableau of Light and Shade just after the deal, drawn in modern cards: "
               "the pack face down at the top; below it the eight aces in a line, two clubs, "
               "two hearts, two spades and two diamonds; below them, more widely spaced, the "
               "four Auxiliaries, and below those the four Rivals.",
               piles=tuple(p.id for p in PILES if p.id != "talon")),
    )
    ACTIONS = (ActionSpec("deal", "Turn a card onto the talon", "d", TALON),)
    LEDGER = {
        RULE_I: "A foundation takes only the card one rank above its top card and of the "
                "other colour, any suit of that colour: on a red ace a black two, a red three "
                "and so on, on a black ace a red two; it is complete at the king.",
        RULE_II: "A card placed on an Auxiliary must be one rank lower than its top card and "
                 "of the other colour, any suit of that colour; anything else is refused.",
        RULE_III: "An empty Auxiliary place takes only a Rival card (any Rival, or under the "
                  "other reading the one in its column), and an empty Rival place only the "
                  "talon’s top card, that is the card just turned or one turned earlier; by "
                  "default when the player chooses, under the other reading before any other "
                  "move.",
        ACES: "The eight aces are withdrawn before the deal and laid in a line, clubs, hearts, "
              "spades and diamonds in pairs, as the foundations; they build to the kings.",
        ROWS: "The deal lays eight cards from the pack, the four Auxiliaries left to right, "
              "then the four Rivals below them.",
        FIRST_PLAYS: "The top card of an Auxiliary may be played to a foundation it fits at "
                     "any time, by the player’s choice, and its place is then filled from the "
                     "Rivals.",
        SEQUENCES: "A Rival card may be placed on an Auxiliary it fits; only an Auxiliary’s "
                   "top card is played, so a sequence goes to the foundations one card at a "
                   "time, and nothing moves from one Auxiliary to another.",
        TALON: "“Turn a card onto the talon” turns the pack’s top card face up onto the "
               "talon, one at a time; only the talon’s top card is ever used, and only to "
               "fill a Rival place (or, under the other reading, also to build on an "
               "Auxiliary).",
        ONLY_AUX: "A card from a Rival, the talon or the pack is refused on a foundation; "
                  "only an Auxiliary’s top card may be played there.",
        NO_REDEAL: "When the pack is out the talon is never turned again; the game is lost "
                   "when the pack is out and no move is left.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        rest = Counter(pack(2))
        rest.subtract(Card(ACE, s) for s in ACE_SUITS)
        stock = list(shuffled(sorted(rest.elements()), deal))
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for j, s in enumerate(ACE_SUITS):
            piles[FOUNDS[j]] = (Card(ACE, s),)
        for i in (*AUX, *RIVALS):
            piles[i] = (stock.pop(),)
        piles[STOCK] = tuple(stock)
        return State(tuple(piles), ())

    # ---- helpers ---------------------------------------------------------------------
    def pending(self, state: State) -> IllegalMove | None:
        """Under the at-once reading, the vacancy that must be filled before anything else
        (None if none, or under the default reading)."""
        if self.options.refill is not Refill.AT_ONCE:
            return None
        for j, a in enumerate(AUX):
            if not state.piles[a] and self.fillers(state, j):
                return IllegalMove(RULE_III, f"The vacancy in {PILES[a].label} must be "
                                   "filled from the Rivals first.")
        if any(not state.piles[r] for r in RIVALS):
            if state.piles[TALON_PILE]:
                return IllegalMove(RULE_III, "A Rival place is empty: it must be filled from "
                                   "the talon first.")
            if state.piles[STOCK]:
                return IllegalMove(RULE_III, "A Rival place is empty: turn a card to fill "
                                   "it first.")
        return None

    def fillers(self, state: State, j: int) -> list[int]:
        """The Rivals that may fill the empty Auxiliary ``j``."""
        if self.options.rival_source is RivalSource.SAME_COLUMN:
            return [RIVALS[j]] if state.piles[RIVALS[j]] else []
        return [r for r in RIVALS if state.piles[r]]

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        for a in AUX:
            for f in FOUNDS:
                yield Move.step(PILES[a].id, PILES[f].id)
        for src in (*RIVALS, TALON_PILE):
            for a in AUX:
                yield Move.step(PILES[src].id, PILES[a].id)
        for r in RIVALS:
            yield Move.step("talon", PILES[r].id)
        yield Move(action="deal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if si == STOCK:
            return IllegalMove(TALON, "The pack is turned one card at a time onto the "
                               "talon: turn a card.")
        if si in FOUNDS:
            return IllegalMove(RULE_I, "Cards on the foundations stay there.")
        if not step.top:
            return IllegalMove(SEQUENCES, "Only the top card of an Auxiliary can be moved; "
                               "a sequence is played off one card at a time.")
        if di in (STOCK, TALON_PILE):
            return IllegalMove(TALON, "Nothing goes back to the pack or the talon.")
        if di in FOUNDS:
            if si not in AUX:
                return IllegalMove(ONLY_AUX, "Cards can only be played on the foundations "
                                   "from the Auxiliaries, not straight from the Rivals or "
                                   "the talon.")
            wait = self.pending(state)
            if wait:
                return wait
            pile = state.piles[di]
            if not fits_foundation(pile, card):
                top = pile[-1]
                if top.rank == KING:
                    why = "it is complete at the king"
                else:
                    other = "black" if top.red else "red"
                    why = f"it needs a {other} {RANK_NAMES[top.rank + 1]}"
                return IllegalMove(RULE_I, f"The foundations ascend in alternate colours: "
                                   f"the {card.name} does not fit {PILES[di].label} ({why}).")
            return None
        if di in RIVALS:
            if si != TALON_PILE:
                return IllegalMove(RULE_III, "Vacancies in the Rivals are filled only from "
                                   "the pack or talon.")
            if state.piles[di]:
                return IllegalMove(RULE_III, f"{PILES[di].label} is not empty: a Rival is a "
                                   "single card.")
            return None
        # di is an Auxiliary.
        if si in AUX:
            return IllegalMove(SEQUENCES, "Cards are placed on the Auxiliaries from the "
                               "Rivals; an Auxiliary card goes only to a foundation.")
        j = di - AUX.start
        pile = state.piles[di]
        if si == TALON_PILE and pile and self.options.talon_builds is TalonBuilds.RIVALS_ONLY:
            return IllegalMove(SEQUENCES, "Only cards from the Rivals are placed on the "
                               "Auxiliaries: a talon card must first fill a Rival place.")
        if not pile:
            if si == TALON_PILE:
                return IllegalMove(RULE_III, "Vacancies in the Auxiliaries are filled by "
                                   "cards from the Rivals.")
            if si not in self.fillers(state, j):
                return IllegalMove(RULE_III, f"This vacancy is filled from the Rival in the "
                                   f"same column, {PILES[RIVALS[j]].label}.")
            return None
        wait = self.pending(state)
        if wait:
            return wait
        if not fits_auxiliary(pile, card):
            return IllegalMove(RULE_II, f"Cards on the Auxiliaries descend in alternate "
                               f"colours: the {card.name} does not fit on the "
                               f"{pile[-1].name}.")
        return None

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action != "deal":
            return IllegalMove(BOARD, f"Light and Shade has no action {action!r}.")
        if not state.piles[STOCK]:
            return IllegalMove(NO_REDEAL, "The pack is exhausted, and there is no re-deal.")
        if self.options.refill is Refill.AT_ONCE:
            for j, a in enumerate(AUX):
                if not state.piles[a] and self.fillers(state, j):
                    return IllegalMove(RULE_III, f"The vacancy in {PILES[a].label} must be "
                                       "filled from the Rivals first.")
            if state.piles[TALON_PILE] and any(not state.piles[r] for r in RIVALS):
                return IllegalMove(RULE_III, "A Rival place is empty: it must be filled "
                                   "from the talon first.")
        return None

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        if move.action == "deal":
            piles[TALON_PILE] = piles[TALON_PILE] + piles[STOCK][-1:]
            piles[STOCK] = piles[STOCK][:-1]
        else:
            step = self.resolve_step(state, move)
            assert isinstance(step, Step)
            piles[step.src] = piles[step.src][:-1]
            piles[step.dst] = piles[step.dst] + (step.card,)
        return State(tuple(piles), state.vars)

    # ---- the end ---------------------------------------------------------------------
    def played(self, state: State) -> int:
        return sum(len(state.piles[f]) for f in FOUNDS)

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: the other answer of :meth:`outcome_of` (LOST when no move is
        left) costs a search for moves, and is a dead end to the solver anyway."""
        if self.played(state) == TOTAL:
            return Outcome.WON
        return None

    def outcome_of(self, state: State) -> Outcome | None:
        if self.played(state) == TOTAL:
            return Outcome.WON
        if state.piles[STOCK]:
            return None
        # Every move carries a card forward (talon, Rival, Auxiliary, foundation) and none
        # comes back, so with the pack out and no move left nothing more can happen.
        return None if self.has_legal_move(state) else Outcome.LOST

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = self.played(state)
        if out is Outcome.WON:
            return "Won: all 104 cards are on the foundations."
        if out is Outcome.LOST:
            return (f"The pack is out and no move is left: the patience has failed with "
                    f"{played} of 104 cards on the foundations.")
        return " · ".join([f"pack {plural(len(state.piles[STOCK]), 'card')}",
                           f"talon {plural(len(state.piles[TALON_PILE]), 'card')}",
                           f"{played} of 104 on the foundations"])

    def describe(self, state: State, move: Move) -> str:
        if move.action == "deal":
            card = state.piles[STOCK][-1] if state.piles[STOCK] else None
            return f"The {card.name} is turned onto the talon." if card else "Turn a card."
        step = self.resolve_step(state, move)
        if isinstance(step, IllegalMove):
            return step.message
        verb = "played" if step.dst in FOUNDS else "placed"
        return (f"The {step.card.name} is {verb} from {PILES[step.src].label} to "
                f"{PILES[step.dst].label}.")

"""Napoleon at St. Helena (two packs), by the book: 1914 printing, text p. 9 (plate p. 8).

Piles: ten columns, dealt as four rows of ten cards; each column is one pile, from its card
in the uppermost row to its card in the *lowest* row, which is the pile's top and the only
card of the column that may be used (Rule I). Cards married to a column (one of the same
suit, one rank lower) go below its lowest card, so a column grows towards the player. Below
the tableau, eight foundation places, each begun by any ace and built up in suit to the king
(Rule II); then the pack and the talon, the one packet into which the cards turned from the
pack that cannot be employed are laid aside.

A card turned from the pack that can be played or married is used, not laid aside: the next
card is not turned while it could be (under ``note-na-4``'s other reading it may be laid
aside all the same). A column emptied to its uppermost row is a perpendicular lane: any
available card of the tableau or the talon may be put there, when the player likes (under the
Note's reading, only a card of the talon). The talon's top card is available like a column's lowest card, unless
the reading of ``note-na-1`` keeps laid-aside cards for the lanes. There is no re-deal. See
the chapter page for the text each rule id points at, and its editorial notes
(``note-na-N``) for the readings behind the options.
"""

from __future__ import annotations

from collections.abc import Iterator
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
from .rules import (builds_up_from_ace, cards_wanted, marries_down_in_suit, play_reachable,
                    plural, turned_card_use, up_from_ace_refusal)

SLUG = "napoleon-at-st-helena"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # only the lowest card of a column is available
RULE_II = _rule("rule-2")             # the foundations must follow suit
DEAL = _rule("deal")                  # four rows of ten cards, from left to right
FOUNDATIONS = _rule("foundations")    # the eight aces, when placed, ascend to kings
ACES = _rule("aces")                  # aces of the lowest row to their spaces, then suitable cards
MARRIAGES = _rule("marriages")        # marriages in descending line, subject to Rule I
LANE = _rule("lane")                  # a vacancy in the uppermost row: a perpendicular lane
REFILL = _rule("refill")              # refilled from the tableau or the talon, when you like
NOTE = _rule("note")                  # some players fill it only from the talon
PRIVILEGES = _rule("privileges")      # the card placed there is treated like the original
DEAL_OUT = _rule("deal-out")          # the pack turned one by one: to foundations or sequences
TALON = _rule("talon")                # cards not so employed are laid aside in one packet
NO_REDEAL = _rule("no-redeal")        # there is no re-deal
BOARD = _rule("board")                # the board itself (notation errors, empty places)

ROWS, COLUMNS = 4, 10
FOUNDATION_CARDS = 104
SEARCH_LIMIT = 4000  # positions explored at most when judging whether a game is lost


class TalonUse(Enum):
    """NA-1: what the top card of the talon may do."""

    ANY = "any"      # anything an available card may do: be played, married, or fill a lane
    LANES = "lanes"  # once laid aside, only fill a lane (the card just turned is used at once)


class LaneFill(Enum):
    """NA-2: where the card that refills a lane may come from."""

    TABLEAU_OR_TALON = "tableau-or-talon"  # the text: any available card
    TALON = "talon"                        # the Note: "some players" allow only the talon


class Turning(Enum):
    """NA-3: when the pack may be turned."""

    ANY_TIME = "any-time"  # whenever the player chooses
    NO_PLAY = "no-play"    # only when no available card can be played on a foundation


class TurnedCard(Enum):
    """NA-4: whether a card turned from the pack that could be employed may be laid aside."""

    EMPLOY = "employ"  # only cards that cannot be played or married are laid aside
    FREE = "free"      # any turned card may be laid aside


@dataclass(frozen=True, slots=True)
class NapoleonOptions:
    talon_use: TalonUse = option(
        TalonUse.ANY, note="note-na-1", label="The top card of the talon",
        labels={TalonUse.ANY: "is available: it may be played, married or put in a lane",
                TalonUse.LANES: "may only fill a lane (a card is played or married only as "
                                "it is turned)"})
    lane_fill: LaneFill = option(
        LaneFill.TABLEAU_OR_TALON, note="note-na-2", label="A lane may be refilled",
        labels={LaneFill.TABLEAU_OR_TALON: "from the tableau or from the talon (the text)",
                LaneFill.TALON: "from the talon only (the Note)"})
    turning: Turning = option(
        Turning.ANY_TIME, note="note-na-3", label="The pack may be turned",
        labels={Turning.ANY_TIME: "at any time",
                Turning.NO_PLAY: "only when no available card can be played"})
    turned_card: TurnedCard = option(
        TurnedCard.EMPLOY, note="note-na-4", label="A card turned up that could be used",
        labels={TurnedCard.EMPLOY: "must be played or married before the next is turned",
                TurnedCard.FREE: "may be laid aside on the talon all the same"})


# ---------------------------------------------------------------------------- the layout

#: How far a column may spread downwards, in card heights, before its cards close up: the
#: foundations lie below the tableau, as in the plate.
COLUMN_SPREAD = 2.75
_FOUND_Y = 3.6
_NARROW_BAND = 3.7


def _column(j: int) -> PileSpec:
    return PileSpec(f"c{j}", f"column {j + 1}", Role.TABLEAU, float(j), 0.0, Fan.DOWN,
                    fan_limit=COLUMN_SPREAD)


PILES: tuple[PileSpec, ...] = (
    tuple(_column(j) for j in range(COLUMNS))
    + tuple(PileSpec(f"f{k}", f"foundation {k + 1}", Role.FOUNDATION, float(k), _FOUND_Y,
                     mark="ace")
            for k in range(8))
    + (PileSpec("talon", "the talon", Role.TALON, 8.25, _FOUND_Y),
       PileSpec("stock", "the pack", Role.STOCK, 9.25, _FOUND_Y))
)

COLS = range(0, COLUMNS)
FOUNDS = range(COLUMNS, COLUMNS + 8)
TALON_PILE = COLUMNS + 8
STOCK = COLUMNS + 9
V_FRESH = 0  # 1 while the talon's top card is the one just turned from the pack


def _narrow_layout() -> Layout:
    """For a phone: the columns in two bands of five, the foundations in four rows of two
    beside them, the talon and the pack below the foundations."""
    at: dict[str, tuple[float, float, int]] = {}
    for j in COLS:
        at[f"c{j}"] = (float(j % 5), _NARROW_BAND * (j // 5), 0)
    for k in range(8):
        at[f"f{k}"] = (5.25 + k % 2, float(k // 2), 0)
    at["talon"] = (5.25, 4.6, 0)
    at["stock"] = (6.25, 4.6, 0)
    return Layout(name="narrow", max_width=560, grid=(7.25, 2 * _NARROW_BAND), at=at)


def _plate_layout() -> Layout:
    """For the drawn diagram: the eight foundation places centred under the ten columns,
    close below them, as in the plate."""
    return Layout(name="plate", grid=(10.0, 3.0),
                  at={f"f{k}": (1.0 + k, 1.75, 0) for k in range(8)})


class NapoleonAtStHelena(Game):
    slug = SLUG
    title = "Napoleon at St. Helena"
    packs = 2
    Options = NapoleonOptions
    PILES = PILES
    VARS = ("fresh",)
    GRID = (10.25, _FOUND_Y + 1.0)
    LAYOUTS = (_narrow_layout(), _plate_layout())
    FIGURES = (
        Figure("tableau", "Napoleon at St. Helena after the deal, in modern cards.",
               "The tableau of Napoleon at St. Helena just after the deal, drawn in modern "
               "cards: ten columns of four face-up cards, dealt as four rows of ten from left "
               "to right, each column drawn with its cards overlapping so that the lowest "
               "card, the only one available, lies nearest the foot; below them a row of "
               "eight empty places for the foundations. The pack and the talon are not "
               "shown.",
               piles=tuple(p.id for p in PILES if p.id not in ("talon", "stock")),
               layout="plate"),
    )
    ACTIONS = (ActionSpec("deal", "Turn up a card", "t", DEAL_OUT),)
    LEDGER = {
        RULE_I: "Only a column’s lowest card (the top of its pile) may be played, married or "
                "moved to a lane; a card with another below it is refused until that card has "
                "gone.",
        RULE_II: "A foundation takes only cards of its ace’s suit; a card of another suit is "
                 "refused.",
        DEAL: "The deal lays forty cards face up in four rows of ten, each row from left to "
              "right, the first row uppermost; the other sixty-four cards form the pack.",
        FOUNDATIONS: "Any ace may be put on any empty foundation place, and each foundation "
                     "then takes the next card of its suit up to the king; a foundation card "
                     "never moves again.",
        ACES: "An ace in the lowest row, and each card of its suit that follows it, may be "
              "played whenever the player chooses; nothing is played automatically.",
        MARRIAGES: "A lowest card may be married to the lowest card of another column, of the "
                   "same suit and one rank higher, one card at a time.",
        LANE: "A column whose every card has gone is a lane; it stays empty until the player "
              "chooses to fill it.",
        REFILL: "Any available card (a column’s lowest card or the talon’s top) may be put in "
                "a lane at any time; under the Note’s reading, only the talon’s top.",
        NOTE: "Under the Note’s reading a lane is filled only from the talon, and a card "
              "from the tableau is refused.",
        PRIVILEGES: "A card put in a lane is the first card of its column like any other: it "
                    "may take marriages, be played, or move on again.",
        DEAL_OUT: "“Turn up a card” turns the pack’s top card onto the talon, where it may be "
                  "played or married at once, whenever the player likes, once the card "
                  "turned before has been used if it could be (NA-4); under the strict "
                  "reading the pack is turned only when no available card can be played.",
        TALON: "Turned cards lie in one packet whose top card alone shows; the next card is "
               "not turned while the card just turned could be played or married (under "
               "NA-4’s other reading it may be laid aside all the same); the top card may be "
               "played, married or put in a lane, or, under NA-1’s narrow reading, only put "
               "in a lane once a later card has been turned.",
        NO_REDEAL: "When the pack is exhausted there is no re-deal; the game is lost once no "
                   "series of moves can bring another card to a foundation.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        stock = shuffled(pack(2), deal)
        columns: list[list[Card]] = [[] for _ in COLS]
        for _row in range(ROWS):  # four rows, each from left to right, the uppermost first
            for j in COLS:
                columns[j].append(stock.pop())
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for j in COLS:
            piles[j] = tuple(columns[j])
        piles[STOCK] = tuple(stock)
        return State(tuple(piles), (0,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        for f in FOUNDS:
            pile = state.piles[f]
            for k, card in enumerate(pile):
                if card.rank != k + 1 or card.suit is not pile[0].suit:
                    raise PositionError(f"{PILES[f].label} is not built up in suit from "
                                        "its ace")
        if state.vars[V_FRESH] not in (0, 1):
            raise PositionError("the counter fresh is 0 or 1")
        if state.vars[V_FRESH] and not state.piles[TALON_PILE]:
            raise PositionError("no card has just been turned: the talon is empty")
        return state

    # ---- helpers ---------------------------------------------------------------------
    # Whether a foundation takes a card next: an ace on an empty place, else the next card of
    # its suit, up to the king.
    fits = staticmethod(builds_up_from_ace)

    @staticmethod
    def marries(target: Card, card: Card) -> bool:
        """Whether ``card`` may be married below ``target``: same suit, one rank lower."""
        return card.suit is target.suit and card.rank == target.rank - 1

    def talon_free(self, fresh: int) -> bool:
        """Whether the talon's top card may go to a foundation or a column's sequence."""
        return self.options.talon_use is TalonUse.ANY or bool(fresh)

    def can_play(self, state: State) -> bool:
        """Whether some available card can be played on a foundation now."""
        founds = [state.piles[f] for f in FOUNDS]
        sources = [state.piles[j] for j in COLS]
        if self.talon_free(state.vars[V_FRESH]):
            sources.append(state.piles[TALON_PILE])
        return any(p and any(self.fits(f, p[-1]) for f in founds) for p in sources)

    def employment(self, state: State) -> str | None:
        """Where the card just turned from the pack (the talon's top, while ``fresh``) could
        be employed, in words ("played on foundation 1"), or None when it cannot be played
        on a foundation nor married on the lowest card of a column."""
        if not state.vars[V_FRESH]:
            return None
        return turned_card_use(state.piles[TALON_PILE][-1],
                               [(PILES[f].label, state.piles[f]) for f in FOUNDS],
                               [(PILES[j].label, state.piles[j]) for j in COLS],
                               founds=builds_up_from_ace, fits=marries_down_in_suit,
                               placed="married to")

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        for si in (*COLS, TALON_PILE):
            if not piles[si]:
                continue
            card = piles[si][-1]
            sid = PILES[si].id
            for f in FOUNDS:
                if self.fits(piles[f], card):
                    yield Move.step(sid, PILES[f].id)
            for j in COLS:
                if j != si and (not piles[j] or self.marries(piles[j][-1], card)):
                    yield Move.step(sid, PILES[j].id)
        yield Move(action="deal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di = step.src, step.dst
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if si == STOCK:
            return IllegalMove(DEAL_OUT, "The pack is dealt out by turning the cards one by "
                               "one: turn up the next card.")
        if si in FOUNDS:
            return IllegalMove(FOUNDATIONS, "Cards on the foundations stay there.")
        if di == STOCK:
            return IllegalMove(BOARD, "Nothing goes back to the pack.")
        if di == TALON_PILE:
            return IllegalMove(TALON, "Only cards turned from the pack that cannot be "
                               "employed are laid aside on the talon.")
        if si == TALON_PILE and not step.top:
            return IllegalMove(TALON, "The talon is one packet: only its top card may be "
                               "used.")
        if not step.top:
            return IllegalMove(RULE_I, "Only the card in the lowest row of a column is "
                               "available: no card can be used that has another below it.")
        card = step.card
        fresh = state.vars[V_FRESH]
        if di in FOUNDS:
            if si == TALON_PILE and not self.talon_free(fresh):
                return IllegalMove(TALON, "Under this reading a card laid aside on the talon "
                                   "may only fill a lane.")
            return self._refuse_play(state, di, card)
        target = state.piles[di]
        if not target:  # a lane
            if si != TALON_PILE and self.options.lane_fill is LaneFill.TALON:
                return IllegalMove(NOTE, "Under this reading (the Note) a lane may be filled "
                                   "only from the talon.")
            return None
        if si == TALON_PILE and not self.talon_free(fresh):
            return IllegalMove(TALON, "Under this reading a card laid aside on the talon may "
                               "only fill a lane.")
        if not self.marries(target[-1], card):
            lower = target[-1].rank - 1
            need = (f"the {RANK_NAMES[lower]} of {target[-1].suit.noun}" if lower >= ACE
                    else "nothing: an ace has no card below it")
            return IllegalMove(MARRIAGES, f"Marriages are made in descending line and in suit: "
                               f"the {target[-1].name} takes {need}, not the {card.name}.")
        return None

    def _refuse_play(self, state: State, di: int, card: Card) -> IllegalMove | None:
        return up_from_ace_refusal(state.piles[di], card, PILES[di].label,
                                   begin_rule=FOUNDATIONS, suit_rule=RULE_II,
                                   sequence_rule=FOUNDATIONS)

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "deal":
            if not state.piles[STOCK]:
                return IllegalMove(NO_REDEAL, "The pack is exhausted, and there is no "
                                   "re-deal.")
            if self.options.turning is Turning.NO_PLAY and self.can_play(state):
                return IllegalMove(DEAL_OUT, "Under this reading the pack is dealt out only "
                                   "when there are no more available cards to play: play the "
                                   "card that fits a foundation first.")
            if self.options.turned_card is TurnedCard.EMPLOY:
                use = self.employment(state)
                if use is not None:
                    card = state.piles[TALON_PILE][-1]
                    return IllegalMove(TALON, f"The {card.name} just turned up can be {use}: "
                                       "only the cards that cannot be so employed are laid "
                                       "aside on the talon.")
            return None
        if action == "redeal":
            return IllegalMove(NO_REDEAL, "There is no re-deal.")
        return IllegalMove(BOARD, f"Napoleon at St. Helena has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        fresh = state.vars[V_FRESH]
        if move.action == "deal":
            piles[TALON_PILE] = piles[TALON_PILE] + piles[STOCK][-1:]
            piles[STOCK] = piles[STOCK][:-1]
            fresh = 1
        else:
            (src, dst), = move.steps
            si, di = self.pile_index(src), self.pile_index(dst)
            piles[di] = piles[di] + piles[si][-1:]
            piles[si] = piles[si][:-1]
            if si == TALON_PILE:
                fresh = 0  # the card beneath was laid aside earlier
        return State(tuple(piles), (fresh,))

    # ---- the end ---------------------------------------------------------------------
    def end_reachable(self, state: State) -> bool | None:
        """With the pack exhausted: whether some series of moves brings a card to a
        foundation (None if the search gave up); the search is shared with
        Napoleon’s Square, in :func:`rules.play_reachable`."""
        return play_reachable(
            [state.piles[j] for j in COLS], state.piles[TALON_PILE],
            cards_wanted(state.piles[f] for f in FOUNDS),
            talon_free=self.options.talon_use is TalonUse.ANY,
            fresh=bool(state.vars[V_FRESH]),
            column_to_space=self.options.lane_fill is LaneFill.TABLEAU_OR_TALON,
            limit=SEARCH_LIMIT)

    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """The ten columns (any lane takes any card) and the eight foundations (any ace
        begins any of them): no rule tells them apart by place."""
        return (tuple(range(COLUMNS)), tuple(FOUNDS))

    def outcome_of(self, state: State) -> Outcome | None:
        if sum(len(state.piles[f]) for f in FOUNDS) == FOUNDATION_CARDS:
            return Outcome.WON
        if state.piles[STOCK]:
            return None  # a card can always be turned, or (strict reading) played
        # Marriages can shuttle a card between the two copies of its target for ever; the
        # game is lost when no series of moves can bring a card to a foundation.
        verdict = self.remembered(state, self.end_reachable)
        return Outcome.LOST if verdict is False else None

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = sum(len(state.piles[f]) for f in FOUNDS)
        if out is Outcome.WON:
            return "Won: all eight foundations have reached their kings."
        if out is Outcome.LOST:
            return (f"Nothing more can reach the foundations: the patience has failed with "
                    f"{played} of 104 cards played.")
        parts = []
        stock = len(state.piles[STOCK])
        parts.append(f"Pack: {plural(stock, 'card')}" if stock else "The pack is exhausted")
        parts.append(f"talon: {plural(len(state.piles[TALON_PILE]), 'card')}")
        lanes = sum(1 for j in COLS if not state.piles[j])
        if lanes:
            parts.append(plural(lanes, "lane"))
        parts.append(f"{played} of 104 on the foundations")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "deal":
            top = state.piles[STOCK][-1:] if state.piles[STOCK] else ()
            return (f"The {top[0].name} is turned up onto the talon." if top
                    else "A card is turned up.")
        (src, dst), = move.steps
        card = self.card_at(state, src)
        name = card.name if card else "a card"
        di = self.pile_index(dst)
        if di in FOUNDS:
            return f"The {name} is played from {self.label(src)} to {self.label(dst)}."
        if not state.piles[di]:
            return f"The {name} is placed in the lane of {self.label(dst)}."
        return f"The {name} is married from {self.label(src)} to {self.label(dst)}."

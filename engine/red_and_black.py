"""Red and Black (two packs), by the book: 1914 printing, plate p. 86, text p. 87.

Piles: the eight aces, withdrawn from the packs at the start and laid in a line in pairs of
alternate colours (the plate's order: diamonds, clubs, hearts, spades, two of each), the
foundations, each ascending in its ace's suit to the king (Rule I); under them the
Volunteers, eight cards dealt face up, on which cards are placed one at a time in descending
sequence and alternate colours (Rule II); the pack, the card just turned up from it, and the
talon.

A vacancy among the Volunteers is filled at once with the next card of the pack ("the cards
in hand"); once the pack is exhausted it stays empty. A card turned up that can be neither
played nor placed on a Volunteer goes to the talon; one that can must be used (or, under
RB-4's other reading, may be laid aside). The talon's top card may be used. When the pack is
exhausted the talon may be taken up, shuffled and dealt again, once. By default the player
keeps the order of play he likes; under RB-6's other reading every card that can be played
on a foundation must be played before a card is placed on a Volunteer or turned up. See the
chapter page for the text each rule id points at, and its editorial notes (``note-rb-N``) for
the readings behind the options.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
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
    PositionError,
    Role,
    State,
    Step,
    option,
)
from .deal import shuffled
from .rules import plural, turned_card_words

SLUG = "red-and-black"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_1 = _rule("rule-1")            # the foundations follow suit
RULE_2 = _rule("rule-2")            # on the Volunteers: descending sequence, alternate colours
ACES = _rule("aces")                # the eight aces withdrawn, in pairs of alternate colours
FOUNDATIONS = _rule("foundations")  # the aces are the foundations, ascending to kings
VOLUNTEERS = _rule("volunteers")    # eight cards dealt underneath: the Volunteers
PLAY = _rule("play")                # play suitable cards, filling each vacancy from the hand
SEQUENCES = _rule("sequences")      # then form sequences with the Volunteers (Rule II)
DEAL = _rule("deal")                # deal out the pack, playing, placing, refilling vacancies
TALON = _rule("talon")              # the unsuitable cards form the talon
REDEAL = _rule("redeal")            # the talon taken up, shuffled and re-dealt once
BOARD = _rule("board")              # the board itself (notation errors)

#: The suits of the aces along the line, as the plate lays them: pairs of alternate colours.
ACE_SUITS = (Suit.DIAMONDS, Suit.DIAMONDS, Suit.CLUBS, Suit.CLUBS,
             Suit.HEARTS, Suit.HEARTS, Suit.SPADES, Suit.SPADES)
TOTAL = 104
REDEALS = 1


@dataclass(frozen=True, slots=True)
class RedAndBlackOptions:
    lay_aside: bool = option(
        False, note="note-rb-4", label="A card turned up that could be played or placed on a "
        "Volunteer",
        labels={False: "must be used: only unsuitable cards go to the talon",
                True: "may be laid on the talon all the same"})
    plays_first: bool = option(
        False, note="note-rb-6", label="While a card can be played on a foundation",
        labels={False: "sequences may be formed and cards turned up all the same",
                True: "it must be played first: no card is placed on a Volunteer, turned "
                      "up or re-dealt"})


# ---- piles ----------------------------------------------------------------------------
# As in the plate: the line of aces along the top, the Volunteers in a row beneath, each
# fanned downwards as its sequence grows; the pack below the middle, with the card turned up
# and the talon beside it.

_VOL_Y = 1.3
_PACK_Y = 4.75

PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"f{j}", f"foundation {j + 1}", Role.FOUNDATION, x=float(j), y=0.0,
                   mark=f"{ACE_SUITS[j].symbol} A–K") for j in range(8))
    + tuple(PileSpec(f"v{j}", f"Volunteer {j + 1}", Role.TABLEAU, x=float(j), y=_VOL_Y,
                     fan=Fan.DOWN, fan_limit=2.45, mark=f"Volunteer {j + 1}")
            for j in range(8))
    + (PileSpec("stock", "the pack", Role.STOCK, x=2.5, y=_PACK_Y),
       PileSpec("turned", "the card turned up", Role.RESERVE, x=3.5, y=_PACK_Y,
                mark="turned up"),
       PileSpec("talon", "the talon", Role.TALON, x=4.5, y=_PACK_Y))
)

#: For the drawn diagram, which shows the deal (one card to each Volunteer): the pack row
#: closer under the Volunteers, as in the plate.
_FIGURE_LAYOUT = Layout("figure", (8.0, 3.85),
                        {"stock": (2.5, 2.85, 0), "turned": (3.5, 2.85, 0),
                         "talon": (4.5, 2.85, 0)})

FOUNDATION_PILES = range(0, 8)
VOLUNTEER_PILES = range(8, 16)
STOCK = 16
TURNED = 17
TALON_PILE = 18

V_REDEALS = 0


def red(card: Card) -> bool:
    return card.suit in (Suit.HEARTS, Suit.DIAMONDS)


def colour(card: Card) -> str:
    return "red" if red(card) else "black"


def accepts(pile: Sequence[Card], card: Card) -> bool:
    """Whether a foundation (begun by its ace at the deal) takes ``card`` next: the next card
    of its ace's suit, up to the king (Rule I)."""
    if not pile:
        return False
    top = pile[-1]
    return card.suit is pile[0].suit and top.rank < KING and card.rank == top.rank + 1


def goes_on(card: Card, top: Card) -> bool:
    """Rule II: ``card`` goes on ``top`` in descending sequence and of the other colour."""
    return card.rank == top.rank - 1 and red(card) != red(top)


def volunteer_fits(pile: Sequence[Card], card: Card) -> bool:
    """Whether ``card`` may be placed on a Volunteer (a vacancy takes nothing but the pack's
    next card, at once: RB-3)."""
    return bool(pile) and goes_on(card, pile[-1])


def _a(rank: int) -> str:
    name = RANK_NAMES[rank]
    return ("an " if name[0] in "ae" else "a ") + name


class RedAndBlack(Game):
    slug = SLUG
    title = "Red and Black"
    packs = 2
    Options = RedAndBlackOptions
    PILES = PILES
    VARS = ("redeals",)
    GRID = (8.0, _PACK_Y + 1.0)
    FIGURES = (
        Figure("tableau", "Red and Black after the deal, in modern cards.",
               "The tableau of Red and Black just after the deal, drawn in modern cards: "
               "across the top the eight aces in a line, two diamonds, two clubs, two hearts "
               "and two spades; beneath them a row of eight cards, the Volunteers; below the "
               "middle the pack face down, beside it the empty places of the card turned up "
               "and of the talon.", layout="figure"),
    )
    LAYOUTS = (_FIGURE_LAYOUT,)
    ACTIONS = (
        ActionSpec("deal", "Turn up the next card", "t", DEAL),
        ActionSpec("redeal", "Shuffle and re-deal the talon", "e", REDEAL),
    )
    LEDGER = {
        RULE_1: "A foundation takes only cards of its ace’s suit; another suit is refused.",
        RULE_2: "A card goes on a Volunteer only if it is one lower than the Volunteer’s top "
                "card and of the other colour (a red three on a black four); a card of the "
                "same colour or of another value is refused.",
        ACES: "The deal takes the eight aces out of the packs and lays them in a line in "
              "pairs of alternate colours, as the plate does: two diamonds, two clubs, two "
              "hearts, two spades.",
        FOUNDATIONS: "Each foundation takes the two, three and so on up to the king; a card "
                     "out of turn is refused, a complete foundation takes nothing, and a card "
                     "on a foundation never leaves it; the game is won when all eight end "
                     "with kings.",
        VOLUNTEERS: "The deal lays the first eight cards of the shuffled packs face up in a "
                    "row under the aces: the Volunteers.",
        PLAY: "The top card of any Volunteer may be played to a foundation at any time; a "
              "vacancy is filled at once with the next card of the pack, and stays empty "
              "while the pack is exhausted; nothing else may be put into it.",
        SEQUENCES: "The top card of a Volunteer may be placed on another Volunteer under Rule "
                   "II, one card at a time; the cards beneath a top card cannot be moved "
                   "(RB-2). By default no order of play is enforced; under RB-6’s other "
                   "reading no card is placed on a Volunteer while a card can be played on a "
                   "foundation.",
        DEAL: "“Turn up the next card” turns the pack’s top card; the next may be turned "
              "only when it has been played, placed on a Volunteer or laid on the talon. "
              "Under RB-6’s other reading it is also refused, as is the re-deal, while a "
              "card can be played on a foundation.",
        TALON: "A card turned up that can go neither on a foundation nor on a Volunteer goes "
               "to the talon at once; one that can must be used (or, under RB-4’s other "
               "reading, may be laid on the talon); only the talon’s top card is shown, and "
               "it may be played or placed on a Volunteer.",
        REDEAL: "Once the pack is exhausted and the card turned up placed, the talon may be "
                "shuffled and dealt again as a fresh pack, once; a second re-deal is refused, "
                "and when no re-deal is left and no series of moves can bring a card the "
                "foundations want to a top, the game is lost.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for f, suit in zip(FOUNDATION_PILES, ACE_SUITS, strict=True):
            piles[f] = (Card(ACE, suit),)
        rest = sorted(c for c in pack(2) if c.rank != ACE)
        stock = list(shuffled(rest, deal))
        for v in VOLUNTEER_PILES:   # the pack's top is its last card
            piles[v] = (stock.pop(),)
        piles[STOCK] = tuple(stock)
        return State(tuple(piles), (0,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        for f, suit in zip(FOUNDATION_PILES, ACE_SUITS, strict=True):
            pile = p[f]
            if not pile or pile[0] != Card(ACE, suit):
                raise PositionError(f"{PILES[f].label} begins with the ace of {suit.noun}, "
                                    "laid at the deal")
            for k in range(1, len(pile)):
                if not accepts(pile[:k], pile[k]):
                    raise PositionError(f"{PILES[f].label} is not built in order")
        for v in VOLUNTEER_PILES:
            pile = p[v]
            for k in range(1, len(pile)):
                if not goes_on(pile[k], pile[k - 1]):
                    raise PositionError(f"{PILES[v].label} is not in descending sequence of "
                                        "alternate colours")
            if not pile and p[STOCK]:
                raise PositionError(f"{PILES[v].label} would have been filled at once from "
                                    "the pack")
        if len(p[TURNED]) > 1:
            raise PositionError("more than one card turned up")
        if not 0 <= state.vars[V_REDEALS] <= REDEALS:
            raise PositionError("the talon is re-dealt once at most")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def _fits_foundation(self, state: State, card: Card) -> bool:
        return any(accepts(state.piles[f], card) for f in FOUNDATION_PILES)

    def _fits_volunteer(self, state: State, card: Card) -> bool:
        return any(volunteer_fits(state.piles[v], card) for v in VOLUNTEER_PILES)

    def suitable(self, state: State, card: Card) -> bool:
        """The book's *suitable*: fit to be played on a foundation or placed in the tableau
        (here, on a Volunteer)."""
        return self._fits_foundation(state, card) or self._fits_volunteer(state, card)

    def playable(self, state: State) -> Card | None:
        """The first available card a foundation takes now, if any: a Volunteer's top card,
        the card turned up or the talon's top card (RB-6's enforced order waits for it)."""
        p = state.piles
        for i in (*VOLUNTEER_PILES, TURNED, TALON_PILE):
            if p[i]:
                card: Card = p[i][-1]
                if self._fits_foundation(state, card):
                    return card
        return None

    def _out_of_order(self, state: State, rule: str, what: str) -> IllegalMove | None:
        """Under RB-6's other reading (``plays_first``): the refusal of a placing, a turn or
        the re-deal while a card can still be played on a foundation."""
        if not self.options.plays_first:
            return None
        ready = self.playable(state)
        if ready is None:
            return None
        return IllegalMove(rule, f"{what} when no more can be played: the {ready.name} can "
                           "still be played on a foundation (RB-6).")

    def redeals_left(self, state: State) -> int:
        return REDEALS - state.vars[V_REDEALS]

    def _seed(self) -> int:
        return self.deal if self.deal is not None else 0

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        sources = [i for i in VOLUNTEER_PILES if piles[i]]
        for extra in (TURNED, TALON_PILE):
            if piles[extra]:
                sources.append(extra)
        for i in sources:
            card = piles[i][-1]
            for f in FOUNDATION_PILES:
                if accepts(piles[f], card):
                    yield Move.step(PILES[i].id, PILES[f].id)
            for v in VOLUNTEER_PILES:
                if v != i and volunteer_fits(piles[v], card):
                    yield Move.step(PILES[i].id, PILES[v].id)
        if piles[TURNED]:
            yield Move.step("turned", "talon")
        yield Move(action="deal")
        yield Move(action="redeal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if si in FOUNDATION_PILES:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if si == STOCK:
            return IllegalMove(DEAL, "The pack is dealt by turning its cards up one by one "
                               "(Turn up the next card); a vacancy takes its card at once.")
        if not step.top:
            if si == TALON_PILE:
                return IllegalMove(TALON, "Only the top card of the talon can be used.")
            if si in VOLUNTEER_PILES:
                return IllegalMove(SEQUENCES, "Only the top card of a Volunteer can be moved, "
                                   "one card at a time: the cards beneath it are covered.")
            return IllegalMove(BOARD, "Only the top card of a pile can be moved.")
        if di in FOUNDATION_PILES:
            return self._refuse_foundation(state, di, card)
        if di in VOLUNTEER_PILES:
            return (self._refuse_volunteer(state, di, card)
                    or self._out_of_order(state, SEQUENCES, "Sequences are formed on the "
                                          "Volunteers only"))
        if di == TALON_PILE:
            if si != TURNED:
                return IllegalMove(TALON, "Only cards turned up from the pack are laid on the "
                                   "talon.")
            if not self.options.lay_aside and self.suitable(state, card):
                what = ("played on a foundation" if self._fits_foundation(state, card)
                        else "placed on a Volunteer")
                return IllegalMove(TALON, f"The {card.name} can be {what}: only the "
                                   "unsuitable cards form the talon.")
            return None
        if di == TURNED:
            return IllegalMove(DEAL, "Only the pack’s next card is turned up there.")
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def _refuse_foundation(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        if accepts(pile, card):
            return None
        label = PILES[f].label
        base = pile[0]
        if card.suit is not base.suit:
            return IllegalMove(RULE_1, f"The foundations follow suit: {label}, on the "
                               f"{base.name}, takes only {base.suit.noun}.")
        top = pile[-1]
        if top.rank == KING:
            return IllegalMove(FOUNDATIONS, f"{label[:1].upper()}{label[1:]} is complete: it "
                               "has reached its king.")
        return IllegalMove(FOUNDATIONS, f"The foundations ascend in sequence: {label} needs "
                           f"the {Card(top.rank + 1, top.suit).name} next.")

    def _refuse_volunteer(self, state: State, v: int, card: Card) -> IllegalMove | None:
        pile = state.piles[v]
        label = PILES[v].label
        if not pile:
            return IllegalMove(PLAY, f"A vacancy is filled only from the cards in hand, at "
                               f"once: with the pack exhausted, {label} stays empty.")
        top = pile[-1]
        if goes_on(card, top):
            return None
        if card.rank != top.rank - 1:
            return IllegalMove(RULE_2, f"Cards are placed on the Volunteers in descending "
                               f"sequence: only {_a(top.rank - 1)} goes on the {top.name}.")
        return IllegalMove(RULE_2, f"The cards on the Volunteers must be of alternate colours: "
                           f"the {card.name} is {colour(card)}, like the {top.name}.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        p = state.piles
        if action == "deal":
            if p[TURNED]:
                return IllegalMove(DEAL, f"The {p[TURNED][-1].name} just turned up must first "
                                   "be played, placed on a Volunteer or laid on the talon.")
            if not p[STOCK]:
                if self.redeals_left(state) and p[TALON_PILE]:
                    return IllegalMove(DEAL, "The pack is exhausted: the talon may now be "
                                       "taken up, shuffled and re-dealt.")
                return IllegalMove(DEAL, "The pack is exhausted.")
            return self._out_of_order(state, DEAL, "The next card is dealt only")
        if action == "redeal":
            if p[STOCK]:
                return IllegalMove(REDEAL, "The talon is re-dealt only when the pack is "
                                   "exhausted.")
            if p[TURNED]:
                return IllegalMove(REDEAL, f"The {p[TURNED][-1].name} just turned up must "
                                   "first be played, placed on a Volunteer or laid on the "
                                   "talon.")
            if not self.redeals_left(state):
                return IllegalMove(REDEAL, "The talon may be re-dealt once only, and it has "
                                   "been.")
            if not p[TALON_PILE]:
                return IllegalMove(REDEAL, "There is no talon to re-deal.")
            return self._out_of_order(state, DEAL, "The talon is re-dealt only")
        return IllegalMove(BOARD, f"Red and Black has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        redeals = state.vars[V_REDEALS]
        if move.action == "deal":
            card = piles[STOCK][-1]
            piles[STOCK] = piles[STOCK][:-1]
            if self.suitable(state, card):
                piles[TURNED] = (card,)
            else:  # unsuitable: laid on the talon at once
                piles[TALON_PILE] = piles[TALON_PILE] + (card,)
        elif move.action == "redeal":
            redeals += 1
            piles[STOCK] = tuple(shuffled(piles[TALON_PILE], self._seed(), stream=redeals))
            piles[TALON_PILE] = ()
        else:
            (src, dst), = move.steps
            si, di = self.pile_index(src), self.pile_index(dst)
            card = piles[si][-1]
            piles[si] = piles[si][:-1]
            piles[di] = piles[di] + (card,)
        _refill(piles)
        return State(tuple(piles), (redeals,))

    # ---- the end ---------------------------------------------------------------------
    def played(self, state: State) -> int:
        return sum(len(state.piles[f]) for f in FOUNDATION_PILES)

    def wanted(self, state: State) -> set[Card]:
        """The cards the foundations would take now."""
        out: set[Card] = set()
        for f in FOUNDATION_PILES:
            top = state.piles[f][-1]
            if top.rank < KING:
                out.add(Card(top.rank + 1, top.suit))
        return out

    def play_reachable(self, state: State, limit: int = 4000) -> bool | None:
        """With the pack exhausted and no re-deal to come: whether some series of moves onto
        the Volunteers (a Volunteer's top card or the talon's top card placed under Rule II)
        brings a card the foundations want to the top of a Volunteer or of the talon (True),
        none does (False), or the search gave up after ``limit`` positions (None). Vacancies
        take nothing then (RB-3), and no rule looks at a Volunteer's place, so positions that
        differ only in the order of the Volunteers are one."""
        wanted = self.wanted(state)
        p = state.piles
        talon = p[TALON_PILE]
        Key = tuple[tuple[tuple[Card, ...], ...], int]
        start: Key = (tuple(sorted(p[v] for v in VOLUNTEER_PILES)), len(talon))
        seen = {start}
        todo = [start]
        while todo:
            vols, n = todo.pop()
            free = [pk[-1] for pk in vols if pk] + ([talon[n - 1]] if n else [])
            if any(c in wanted for c in free):
                return True
            nexts: list[Key] = []
            for a, pk in enumerate(vols):
                for b, q in enumerate(vols):
                    if a != b and pk and q and goes_on(pk[-1], q[-1]):
                        nxt = list(vols)
                        nxt[a], nxt[b] = pk[:-1], q + (pk[-1],)
                        nexts.append((tuple(sorted(nxt)), n))
            if n:
                card = talon[n - 1]
                for b, q in enumerate(vols):
                    if q and goes_on(card, q[-1]):
                        nxt = list(vols)
                        nxt[b] = q + (card,)
                        nexts.append((tuple(sorted(nxt)), n - 1))
            for key in nexts:
                if key not in seen:
                    if len(seen) >= limit:
                        return None
                    seen.add(key)
                    todo.append(key)
        return False

    def _lost(self, state: State) -> bool:
        p = state.piles
        if p[STOCK] or p[TURNED]:
            return False  # a card can still be turned or placed
        if self.redeals_left(state) and p[TALON_PILE]:
            return False  # the talon can still be re-dealt
        return self.play_reachable(state) is False

    def outcome_of(self, state: State) -> Outcome | None:
        if self.played(state) == TOTAL:
            return Outcome.WON
        return Outcome.LOST if self.remembered(state, self._lost) else None

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: the loss test searches, and a dead end is found by the solver
        anyway."""
        return Outcome.WON if self.played(state) == TOTAL else None

    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """The eight Volunteers (no rule tells them apart by place) and the eight foundations
        (each says by its ace which suit it takes)."""
        return (tuple(VOLUNTEER_PILES), tuple(FOUNDATION_PILES))

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = self.played(state)
        if out is Outcome.WON:
            return "Won: all eight foundations have reached their kings."
        if out is Outcome.LOST:
            return (f"Nothing more can reach the foundations: the patience has failed with "
                    f"{played} of 104 cards played.")
        p = state.piles
        parts = [f"Pack: {plural(len(p[STOCK]), 'card')}" if p[STOCK]
                 else "the pack is exhausted",
                 f"talon: {plural(len(p[TALON_PILE]), 'card')}",
                 "re-deal: " + ("still to come" if self.redeals_left(state) else "used"),
                 f"{played} of 104 on the foundations"]
        if p[TURNED]:
            parts.append(f"place the {p[TURNED][-1].name}")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "redeal":
            return "The talon is taken up, shuffled and dealt again as the pack."
        words = turned_card_words(self, state, move, stock=STOCK, talon=TALON_PILE,
                                  foundations=FOUNDATION_PILES, columns=VOLUNTEER_PILES,
                                  suitable=self.suitable, placed="placed from {src} on {dst}")
        return words or super().describe(state, move)


def _refill(piles: list[tuple[Card, ...]]) -> None:
    """Every vacancy among the Volunteers takes at once the next card of the pack, in the
    order of the row; with the pack exhausted a vacancy stays empty."""
    for v in VOLUNTEER_PILES:
        if not piles[v] and piles[STOCK]:
            piles[v] = piles[STOCK][-1:]
            piles[STOCK] = piles[STOCK][:-1]

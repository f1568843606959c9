"""Sly (two packs), by the book: 1914 printing, plate p. 112, text pp. 113–114.

Piles, as the plate lays them: along the top four aces on the left (hearts, diamonds, spades,
clubs), ascending in suit to the kings, and four kings on the right (the same suits), descending
in suit to the aces (Rule I); between them the pack and the card just turned up from it;
beneath, the promenade, two rows of ten packets (four rows of five on a phone, the book's other
arrangement).

No foundation is laid out beforehand: the first ace and the first king of each suit to turn up
go at once to their places (SY-1). The pack is dealt in deals of twenty cards: each card turned
up may be played on a foundation, or placed on the promenade, in the first deal one to each
place, in later deals on any packet the player pleases, heaped or not (SY-2, SY-5); cards played
do not count among the twenty. While a deal lasts no card of the promenade may be played (Rule
IV, SY-3); between deals the top card of each packet is available (Rule III), a packet emptied is
refilled from the pack at once (SY-6), and by default every card that can be played is played
before the next deal (SY-4). Cards never pass from packet to packet, and there is no re-deal.
See the chapter page for the text each rule id points at, and its editorial notes
(``note-sy-N``) for the readings behind the options.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import ACE, KING, Card, Suit, pack
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
from .rules import plural

SLUG = "sly"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")               # the foundations follow suit
RULE_II = _rule("rule-2")              # the promenade need not follow suit nor sequence
RULE_III = _rule("rule-3")             # only the uppermost card of a packet is available
RULE_IV = _rule("rule-4")              # played as they turn up; the promenade waits for twenty
PROMENADE = _rule("promenade")         # two rows of ten (or four of five): the promenade
FOUNDATIONS = _rule("foundations")     # four aces up to kings, four kings down to aces
DEAL = _rule("deal")                   # foundations placed at once; suitable cards played
EXAMINE = _rule("examine")             # the first twenty complete: play from the promenade
SECOND = _rule("second")               # when no more can be played, a second twenty
COVERING = _rule("covering")           # placed on the top of the first row, where one pleases
HEAPING = _rule("heaping")             # heaping allowed; count the twenty; played cards not counted
ROUNDS = _rule("rounds")               # successive rounds of twenty until the pack is exhausted
BETWEEN = _rule("between")             # between deals: play available cards, refill vacancies
TRANSFER = _rule("transfer")           # cards not transferable from one packet to another
NO_REDEAL = _rule("no-redeal")         # there is no re-deal
BOARD = _rule("board")                 # the board itself (notation errors)

#: The suits of the aces and of the kings, left to right, as the plate draws them (its second
#: and third aces and kings both look like diamonds at the scan's size: one must be spades).
ACE_SUITS = (Suit.HEARTS, Suit.DIAMONDS, Suit.SPADES, Suit.CLUBS)
KING_SUITS = ACE_SUITS
TOTAL = 104
#: A time later than any (a card no foundation will take), for :func:`foreseen`.
LATE = 999
TWENTY = 20
ROW = 10


@dataclass(frozen=True, slots=True)
class SlyOptions:
    plays_first: bool = option(
        True, note="note-sy-4", label="The next deal of twenty",
        labels={True: "only when no card of the promenade can be played",
                False: "whenever the player chooses between deals"})


# ---- piles ----------------------------------------------------------------------------

_ROW_Y = (1.35, 3.95)

PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"f{j}", f"the ascending {s.noun} foundation", Role.FOUNDATION,
                   x=float(j), y=0.0, mark=f"{s.symbol} A–K")
          for j, s in enumerate(ACE_SUITS))
    + tuple(PileSpec(f"f{4 + j}", f"the descending {s.noun} foundation", Role.FOUNDATION,
                     x=6.0 + j, y=0.0, mark=f"{s.symbol} K–A")
            for j, s in enumerate(KING_SUITS))
    + tuple(PileSpec(f"p{k + 1}", f"packet {k + 1} of the promenade", Role.TABLEAU,
                     x=float(k % ROW), y=_ROW_Y[k // ROW], fan=Fan.DOWN, fan_limit=1.45,
                     mark=str(k + 1))
            for k in range(TWENTY))
    + (PileSpec("stock", "the pack", Role.STOCK, x=4.05, y=0.0),
       PileSpec("turned", "the card turned up", Role.TALON, x=5.0, y=0.0,
                capacity=1, mark="turned up"))
)

FOUNDATION_PILES = range(0, 8)
ASCENDING = range(0, 4)
DESCENDING = range(4, 8)
PACKETS = range(8, 8 + TWENTY)
STOCK = PACKETS.stop
TURNED = STOCK + 1

#: The counters: the number of the deal now going on, or last completed (1 to 6); and how
#: many cards of it have been placed on the promenade (cards played do not count).
V_DEAL = 0
V_PLACED = 1
VARS = ("deal", "placed")


def _narrow() -> Layout:
    """The book's other promenade, four rows of five, for a phone: the aces above the kings,
    the pack and the card turned up at their right."""
    at: dict[str, tuple[float, float, int]] = {}
    for j in range(4):
        at[f"f{j}"] = (float(j), 0.0, 0)
        at[f"f{4 + j}"] = (float(j), 1.25, 0)
    at["stock"] = (4.0, 0.0, 0)
    at["turned"] = (4.0, 1.25, 0)
    for k in range(TWENTY):
        row, col = divmod(k, 5)
        at[f"p{k + 1}"] = (float(col), 2.6 + 2.3 * row, 0)
    return Layout(name="narrow", max_width=560, grid=(5.0, 2.6 + 2.3 * 3 + 2.2), at=at)


def _figure() -> Layout:
    """The table as the plate draws it, the two rows of ten close under the foundations, for
    the chapter's diagram (the board leaves room for the packets to grow)."""
    at = {f"p{k + 1}": (float(k % ROW), 1.3 + 1.2 * (k // ROW), 0) for k in range(TWENTY)}
    return Layout(name="plate", grid=(10.0, 3.6), at=at)


def base_of(f: int) -> Card:
    return Card(ACE, ACE_SUITS[f]) if f in ASCENDING else Card(KING, KING_SUITS[f - 4])


def next_rank(f: int, pile: Sequence[Card]) -> int | None:
    """The rank foundation ``f`` takes next (its ace or king while empty); None when full."""
    if not pile:
        return base_of(f).rank
    top = pile[-1].rank
    if f in ASCENDING:
        return top + 1 if top < KING else None
    return top - 1 if top > ACE else None


def accepts(f: int, pile: Sequence[Card], card: Card) -> bool:
    return card.suit is base_of(f).suit and card.rank == next_rank(f, pile)


def foreseen(piles: Sequence[Sequence[Card]]) -> dict[Card, int]:
    """For the solver's move order (it knows the pack): when each card now on the table
    (on the promenade or turned up) is foreseen to reach a foundation, counted in cards
    turned from the pack. Each suit's two foundations are followed together, the one
    further behind taking the next step: each step waits for the earliest copy not yet
    used of the value it needs (a card on the table is there now, a card of the pack comes
    when it turns up), and takes one more. A rough guide, not a rule: cards buried in a
    packet are taken as ready."""
    stock = piles[STOCK]
    n = len(stock)
    come: dict[Card, list[int]] = {}
    for i, c in enumerate(stock):
        come.setdefault(c, []).append(n - 1 - i)
    for k in (*PACKETS, TURNED):
        for c in piles[k]:
            come.setdefault(c, []).append(0)
    for times in come.values():
        times.sort()
    out: dict[Card, int] = {}
    for f in ASCENDING:
        suit = base_of(f).suit
        up, down = next_rank(f, piles[f]), next_rank(f + 4, piles[f + 4])
        t_up = t_down = 0
        used: dict[int, int] = {}
        while up is not None or down is not None:
            rising = down is None or (up is not None and t_up <= t_down)
            rank = up if rising else down
            assert rank is not None
            card = Card(rank, suit)
            times = come.get(card, [])
            u = used.get(rank, 0)
            t = times[u] if u < len(times) else LATE
            used[rank] = u + 1
            if rising:
                t_up = max(t_up, t) + 1
                step = t_up
                up = rank + 1 if rank < KING else None
            else:
                t_down = max(t_down, t) + 1
                step = t_down
                down = rank - 1 if rank > ACE else None
            if t == 0:
                out.setdefault(card, step)
    return out


def _fit(packet: tuple[Card, ...], card: Card, due: dict[Card, int]) -> tuple[int, int]:
    """How well ``card`` sits on ``packet`` (smaller is better), by :func:`foreseen`."""
    if not packet:
        return (0, 0)
    mine = due.get(card, LATE)
    soonest = min(due.get(c, LATE) for c in packet)
    if soonest >= mine:
        return (1, soonest - mine)
    return (2, -soonest)


def base_place(piles: Sequence[Sequence[Card]], card: Card) -> int | None:
    """The foundation ``card`` begins, if it is the first of its kind to appear (SY-1)."""
    for f in FOUNDATION_PILES:
        if not piles[f] and card == base_of(f):
            return f
    return None


class Sly(Game):
    slug = SLUG
    title = "Sly"
    packs = 2
    Options = SlyOptions
    PILES = PILES
    VARS = VARS
    GRID = (10.0, _ROW_Y[1] + 2.5)
    LAYOUTS = (_narrow(), _figure())
    FIGURES = (
        Figure("tableau", "Sly before the deal, in modern cards.",
               "The tableau of Sly drawn before the deal: along the top, on the left, the "
               "empty places of the four aces (hearts, diamonds, spades, clubs), on the right "
               "those of the four kings in the same order, and between them the pack, face "
               "down, and the place of the card turned up; beneath them the twenty empty "
               "places of the promenade, two rows of ten, named packet 1 to packet 10 and "
               "packet 11 to packet 20.",
               piles=tuple(p.id for p in PILES), layout="plate"),
    )
    DIAGRAM_DEAL = 1
    ACTIONS = (
        ActionSpec("deal", "Turn up the next card", "t", DEAL),
    )
    LEDGER = {
        RULE_I: "A foundation takes only its own suit; a card of another suit is refused.",
        RULE_II: "A card turned up may be placed on any packet of the promenade (in the first "
                 "deal, any empty place), whatever its suit and value and whatever it covers.",
        RULE_III: "Between deals the top card of each packet may be played; a card beneath "
                  "it is refused until the cards above it have gone.",
        RULE_IV: "The card turned up may be played at once; every card of the promenade is "
                 "refused from the first card of a deal until its twentieth is placed (or the "
                 "pack runs out).",
        PROMENADE: "The promenade is twenty packets in two rows of ten (four rows of five on a "
                   "phone); in the first deal each card placed goes to an empty place, and "
                   "a card put on a filled one is refused.",
        FOUNDATIONS: "An ace’s foundation takes the next card of its suit upwards to the king, "
                     "a king’s the next downwards to the ace; a card out of turn is refused, a "
                     "complete foundation takes nothing, and no card leaves a foundation.",
        DEAL: "The first ace and the first king of each suit to turn up (from the deal or a "
              "refill) go to their places at once; any other card turned up waits to be "
              "played or placed, and the next card is turned up only when it has gone.",
        EXAMINE: "When the twentieth card of the first deal is placed, the top card of every "
                 "packet may be played.",
        SECOND: "The next deal begins with “Turn up the next card”; by default (SY-4) it is "
                "refused while a card of the promenade can be played, under the other reading "
                "it is allowed at any time between deals.",
        COVERING: "After the first deal every card placed goes on top of a packet the player "
                  "chooses, any packet, any card.",
        HEAPING: "Any number of cards of a deal may go on one packet; the deal counts the cards "
                 "placed, not those played, and ends with the twentieth.",
        ROUNDS: "Deals of twenty follow one another until the pack is exhausted; the last, "
                "shorter, is complete when the pack runs out; turning up a card from an empty "
                "pack is refused.",
        BETWEEN: "Between deals the top cards may be played, and a packet emptied is at once "
                 "refilled from the pack (SY-6); the card so laid is available at once.",
        TRANSFER: "A card is never moved from one packet to another: the move is refused.",
        NO_REDEAL: "There is no re-deal: a re-deal is refused, and once the pack is out, the "
                   "deal complete and no top card playable, the game is lost.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        piles[STOCK] = tuple(shuffled(sorted(pack(2)), deal))
        return State(tuple(piles), (1, 0))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p, v = state.piles, state.vars
        for f in FOUNDATION_PILES:
            pile = p[f]
            for k in range(len(pile)):
                if not accepts(f, pile[:k], pile[k]):
                    raise PositionError(f"{PILES[f].label} is not built in order from the "
                                        f"{base_of(f).name}")
        if not 1 <= v[V_DEAL] <= 6:
            raise PositionError("the deal number runs from 1 to 6")
        if not 0 <= v[V_PLACED] <= TWENTY:
            raise PositionError("a deal places from 0 to 20 cards on the promenade")
        if len(p[TURNED]) > 1:
            raise PositionError("only one card is turned up at a time")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def dealing(self, state: State) -> bool:
        """Whether a deal of twenty is going on (Rule IV): a card is turned up, or fewer than
        twenty have been placed and the pack still has cards."""
        return bool(state.piles[TURNED]) or (state.vars[V_PLACED] < TWENTY
                                             and bool(state.piles[STOCK]))

    def playable_top(self, state: State) -> Card | None:
        """A top card of the promenade that some foundation takes, between deals."""
        if self.dealing(state):
            return None
        p = state.piles
        for k in PACKETS:
            if p[k]:
                card = p[k][-1]
                if any(accepts(f, p[f], card) for f in FOUNDATION_PILES):
                    return card
        return None

    @staticmethod
    def _settle(piles: list[tuple[Card, ...]], v: list[int]) -> None:
        """What the rules make happen at once: between deals, each vacancy of the promenade
        is refilled from the pack (a foundation card so turned up going to its place, and the
        next card filling the vacancy) (BETWEEN, DEAL, SY-6)."""
        between = not piles[TURNED] and not (v[V_PLACED] < TWENTY and piles[STOCK])
        if not between:
            return
        for k in PACKETS:
            while not piles[k] and piles[STOCK]:
                card = piles[STOCK][-1]
                piles[STOCK] = piles[STOCK][:-1]
                f = base_place(piles, card)
                if f is not None:
                    piles[f] = (card,)
                else:
                    piles[k] = (card,)

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        p = state.piles
        for s in (*PACKETS, TURNED):
            if p[s]:
                for d in (*FOUNDATION_PILES, *PACKETS):
                    if d != s:
                        yield Move.step(PILES[s].id, PILES[d].id)
        yield Move(action="deal")

    def legal_in(self, state: State) -> list[Move]:
        """Exactly the legal moves, made directly from the rules (a test compares them with
        :meth:`refusal` over every candidate)."""
        p = state.piles
        out: list[Move] = []
        if p[TURNED]:
            card = p[TURNED][-1]
            for f in FOUNDATION_PILES:
                if accepts(f, p[f], card):
                    out.append(Move.step("turned", PILES[f].id))
            empty = [k for k in PACKETS if not p[k]]
            for k in (empty or PACKETS):
                out.append(Move.step("turned", PILES[k].id))
            return out
        if not self.dealing(state):
            for k in PACKETS:
                if p[k]:
                    card = p[k][-1]
                    for f in FOUNDATION_PILES:
                        if accepts(f, p[f], card):
                            out.append(Move.step(PILES[k].id, PILES[f].id))
        if p[STOCK] and not (self.options.plays_first and not self.dealing(state)
                             and self.playable_top(state) is not None):
            out.append(Move(action="deal"))
        return out

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        p = state.piles
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if si == STOCK:
            return IllegalMove(DEAL, "Cards come from the pack one at a time: turn up the next "
                               "card first.")
        if si in FOUNDATION_PILES:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if si in PACKETS:
            if not step.top:
                return IllegalMove(RULE_III, "Only the uppermost card of each packet is "
                                   "available: the cards beneath it are covered.")
            if di in PACKETS:
                return IllegalMove(TRANSFER, "Cards are not transferable from one packet of "
                                   "the promenade to another.")
            if self.dealing(state):
                return IllegalMove(RULE_IV, "A card placed on the promenade cannot be played "
                                   "until the deal of twenty cards is complete.")
        if di in FOUNDATION_PILES:
            return self._refuse_foundation(state, di, card)
        if di in PACKETS:
            # only the card turned up reaches here
            if any(not p[k] for k in PACKETS) and p[di]:
                return IllegalMove(PROMENADE, "The first deal lays out two rows of ten, one "
                                   "card to each place: this card goes to an empty place.")
            return None
        if di == TURNED:
            return IllegalMove(DEAL, "Only a card from the pack is turned up.")
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def _refuse_foundation(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        if accepts(f, pile, card):
            return None
        label = PILES[f].label
        suit = base_of(f).suit
        if card.suit is not suit:
            return IllegalMove(RULE_I, f"The foundations follow suit: {label} takes only "
                               f"{suit.noun}.")
        nxt = next_rank(f, pile)
        if nxt is None:
            return IllegalMove(FOUNDATIONS, f"{label[:1].upper()}{label[1:]} is complete.")
        if not pile:
            return IllegalMove(FOUNDATIONS, f"{label[:1].upper()}{label[1:]} begins with the "
                               f"{base_of(f).name}.")
        way = "aces ascend" if f in ASCENDING else "kings descend"
        return IllegalMove(FOUNDATIONS, f"The {way} in sequence: {label} needs the "
                           f"{Card(nxt, suit).name} next.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        p = state.piles
        if action == "deal":
            if p[TURNED]:
                return IllegalMove(DEAL, f"The {p[TURNED][-1].name} turned up must first be "
                                   "played on a foundation or placed on the promenade.")
            if not p[STOCK]:
                return IllegalMove(ROUNDS, "The pack is exhausted, and there is no re-deal.")
            if self.options.plays_first and not self.dealing(state):
                ready = self.playable_top(state)
                if ready is not None:
                    return IllegalMove(SECOND, f"The next deal comes when no more can be "
                                       f"played: the {ready.name} can still be played on a "
                                       "foundation (SY-4).")
            return None
        if action == "redeal":
            return IllegalMove(NO_REDEAL, "There is no re-deal.")
        return IllegalMove(BOARD, f"Sly has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        v = list(state.vars)
        if move.action == "deal":
            if not self.dealing(state):          # a new deal of twenty begins
                v[V_DEAL] += 1
                v[V_PLACED] = 0
            card = piles[STOCK][-1]
            piles[STOCK] = piles[STOCK][:-1]
            f = base_place(piles, card)
            if f is not None:                    # a foundation card: to its place at once
                piles[f] = (card,)
            else:
                piles[TURNED] = (card,)
        else:
            step = self.resolve_step(state, move)
            assert isinstance(step, Step)
            src = list(piles[step.src])
            del src[step.k]
            piles[step.src] = tuple(src)
            piles[step.dst] = piles[step.dst] + (step.card,)
            if step.src == TURNED and step.dst in PACKETS:
                v[V_PLACED] += 1
        self._settle(piles, v)
        return State(tuple(piles), tuple(v))

    # ---- the solver ------------------------------------------------------------------
    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """The twenty packets are alike: no rule reads their order."""
        return (tuple(PACKETS),)

    def solver_order(self, state: State, legal: list[Move]) -> list[Move]:
        """Plays on a foundation first; then the card turned up placed where it is least in
        the way: on an empty place, else on the packet whose cards all reach the foundations
        after it and soonest after it, else (it must cover a card needed before it) on the
        packet whose soonest card is needed latest; the next deal last. When cards reach
        the foundations is foreseen from the order of the pack (:func:`foreseen`). Only an
        order: every legal move is still tried, so no verdict depends on it."""
        p = state.piles
        index = self._index
        plays: list[Move] = []
        places: list[tuple[tuple[int, int], int, Move]] = []
        rest: list[Move] = []
        card = p[TURNED][-1] if p[TURNED] else None
        due = foreseen(p) if card is not None else {}
        for n, m in enumerate(legal):
            if m.action:
                rest.append(m)
                continue
            di = index[m.steps[0][1]]
            if di in FOUNDATION_PILES:
                plays.append(m)
            elif card is not None and di in PACKETS:
                places.append((_fit(p[di], card, due), n, m))
            else:
                rest.append(m)
        places.sort(key=lambda e: (e[0], e[1]))
        return plays + [m for _, _, m in places] + rest

    # ---- the end ---------------------------------------------------------------------
    def played(self, state: State) -> int:
        return sum(len(state.piles[f]) for f in FOUNDATION_PILES)

    def _lost(self, state: State) -> bool:
        """The pack is out, no card is turned up (so the last deal is complete), and no top
        card of the promenade goes on a foundation: no move is left, and there is no
        re-deal."""
        p = state.piles
        return not p[STOCK] and not p[TURNED] and self.playable_top(state) is None

    def outcome_of(self, state: State) -> Outcome | None:
        if self.played(state) == TOTAL:
            return Outcome.WON
        return Outcome.LOST if self._lost(state) else None

    # ---- board -----------------------------------------------------------------------
    # The packets of the promenade show every card (the default view of a tableau pile): the
    # player laid each one face up where he chose (SY-7).

    def status_line(self, state: State, out: Outcome | None) -> str:
        played = self.played(state)
        if out is Outcome.WON:
            return "Won: all eight foundations are complete."
        if out is Outcome.LOST:
            return (f"The pack is exhausted and no card of the promenade can be played: the "
                    f"patience has failed with {played} of 104 cards played.")
        p, v = state.piles, state.vars
        parts = [f"Deal {v[V_DEAL]}"]
        if self.dealing(state):
            parts.append(f"{v[V_PLACED]} of 20 placed on the promenade")
        else:
            parts.append("complete: the top cards may be played")
        parts.append(f"pack: {plural(len(p[STOCK]), 'card')}")
        parts.append(f"{played} of 104 on the foundations")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        p = state.piles
        if move.action == "deal" and p[STOCK]:
            card = p[STOCK][-1]
            if base_place(p, card) is not None:
                return f"The {card.name} turns up and goes at once to its foundation."
            return f"The {card.name} turns up."
        return super().describe(state, move)

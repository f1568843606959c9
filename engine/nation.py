"""The Nation (two packs), by the book: 1914 printing, plate p. 98, text pp. 99–100.

Piles: eight foundations, withdrawn from the packs at the start and laid in two rows as the
plate draws them: an ace of each suit above (diamonds, clubs, hearts, spades), each ascending
in its suit to the king, and a king of each suit below, each descending in its suit to the ace
(Rule I); under them the tableau, twelve columns dealt one after another, left to right, eight
cards counted to each; the pack, which holds cards only while a deal is under way, and the card
turned up in the deal that waits for the player to choose between two foundations.

The deal is counted (Rule II): each card that turns up suitable for a foundation is played at
once and its number is not repeated, so a column holds eight cards less the ones played. A
card once placed in a column stays there until the tableau is complete. Then only the lowest
card of a column is available (Rule III): it may be played on a foundation, or married (placed
on the lowest card of another column of its suit, one above or below it in value), or put into
an emptied column. The tableau may be taken up, column after column, and re-dealt the same way,
twice. See the chapter page for the text each rule id points at, and its editorial notes
(``note-nt-N``) for the readings behind the options.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
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

SLUG = "the-nation"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # the foundations follow suit
RULE_II = _rule("rule-2")             # a card played in the deal does not have its number repeated
RULE_III = _rule("rule-3")            # only the lowest card of each column is available
FOUNDATIONS = _rule("foundations")    # four aces and four kings withdrawn; aces up, kings down
DEAL = _rule("deal")                  # twelve columns of eight, left to right
COUNT = _rule("count")                # count one to eight; suitable cards played as they come
FIXED = _rule("fixed")                # a card once placed in a column cannot be removed
SAME_METHOD = _rule("same-method")    # the same method for all the twelve columns
AVAILABLE = _rule("available")        # the tableau complete: the lower card is available
MARRIAGE = _rule("marriage")          # marriages, ascending and descending
SPACE = _rule("space")                # a vacant space filled by any one available card
TAKE_UP = _rule("take-up")            # when all is played or married, the tableau taken up
ORDER = _rule("order")                # the last column uppermost, the first of the new ones
REDEAL = _rule("redeal")              # taken up and re-dealt twice
BOARD = _rule("board")                # the board itself (notation errors)

SUIT_ORDER = (Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS, Suit.SPADES)   # the plate's, both rows
COLUMNS = 12
COUNT_TO = 8                           # cards counted to each column
REDEALS = 2
TOTAL = 104

ACE_PILES = range(0, 4)
KING_PILES = range(4, 8)
FOUNDATION_PILES = range(0, 8)
TABLEAU = range(8, 8 + COLUMNS)
STOCK = TABLEAU.stop
TURNED = STOCK + 1

#: The counters: re-deals made; columns the current deal has (twelve at first, fewer in a
#: re-deal of fewer cards); while a deal waits for the player's choice, the column it is
#: dealing and how many numbers have been counted to it (both 0 once the deal is complete).
VARS = ("redeals", "columns", "col", "counted")
V_REDEALS, V_COLUMNS, V_COL, V_COUNTED = range(4)


@dataclass(frozen=True, slots=True)
class NationOptions:
    redeal_at_will: bool = option(
        False, note="note-nt-5", label="Taking up the tableau",
        labels={False: "only when no available card can be played on a foundation",
                True: "whenever the player chooses"})


# ---------------------------------------------------------------------------- the layout
# As in the plate: the four aces in a row above the four kings, in the middle; the twelve
# columns below. The pack and the card turned up in the deal stand at the top left. On a
# phone the columns stand in two rows of six.

_FX0 = 4.0                             # the first foundation's column
_KY = 1.3                              # the kings' row
_CY = 2.8                              # the columns' first card
_FAN = 5.0                             # how far a column may spread, in card heights


def _foundation(j: int) -> PileSpec:
    suit = SUIT_ORDER[j % 4]
    if j < 4:
        return PileSpec(f"f{j}", f"the foundation of the ace of {suit.noun}", Role.FOUNDATION,
                        _FX0 + j, 0.0)
    return PileSpec(f"f{j}", f"the foundation of the king of {suit.noun}", Role.FOUNDATION,
                    _FX0 + j - 4, _KY)


PILES: tuple[PileSpec, ...] = (
    tuple(_foundation(j) for j in range(8))
    + tuple(PileSpec(f"c{i}", f"column {i + 1}", Role.TABLEAU, float(i), _CY, Fan.DOWN,
                     fan_limit=_FAN, mark=f"column {i + 1}")
            for i in range(COLUMNS))
    + (PileSpec("stock", "the pack", Role.STOCK, 0.0, 0.0),
       PileSpec("turned", "the card turned up in the deal", Role.RESERVE, 1.2, 0.0,
                mark="turned up"))
)


def _narrow_layout() -> Layout:
    """For a phone: the columns in two rows of six, the foundations and the pack above."""
    at: dict[str, tuple[float, float, int]] = {}
    for j in range(8):
        at[f"f{j}"] = (2.0 + j % 4, _KY * (j // 4), 0)
    at["stock"] = (0.0, 0.0, 0)
    at["turned"] = (0.0, _KY, 0)
    y2 = _CY + _FAN + 1.5
    for i in range(COLUMNS):
        at[f"c{i}"] = (float(i % 6), _CY if i < 6 else y2, 0)
    return Layout("narrow", (6.0, y2 + _FAN + 1.4), at, max_width=560)


def base_cards() -> tuple[Card, ...]:
    """The foundations' first cards, in the order of the piles."""
    return tuple(Card(ACE, s) for s in SUIT_ORDER) + tuple(Card(KING, s) for s in SUIT_ORDER)


def next_for(f: int, pile: tuple[Card, ...]) -> Card | None:
    """The card foundation ``f`` takes next (None when it is complete)."""
    top = pile[-1]
    if f in ACE_PILES:
        return None if top.rank == KING else Card(top.rank + 1, top.suit)
    return None if top.rank == ACE else Card(top.rank - 1, top.suit)


def married(card: Card, top: Card) -> bool:
    """Whether ``card`` may be placed on ``top``: the same suit, one above or below it."""
    return card.suit is top.suit and abs(card.rank - top.rank) == 1


def _targets(piles: list[tuple[Card, ...]] | tuple[tuple[Card, ...], ...],
             card: Card) -> list[int]:
    return [f for f in FOUNDATION_PILES if piles[f] and next_for(f, piles[f]) == card]


def deal_on(piles: list[tuple[Card, ...]], vars_: list[int]) -> None:
    """Go on with the counted deal (Rule II), in place: each card turned up is counted to the
    column being dealt; one that a single foundation takes is played there and the next card
    counts as the following number; one that both foundations of its suit take waits on the
    ``turned`` place for the player's choice, and the deal stops there. After eight numbers
    the next column begins. A card placed in a column stays there (it is not looked at again
    during the deal)."""
    col, counted = vars_[V_COL], vars_[V_COUNTED]
    stock = list(piles[STOCK])
    while stock:
        if counted == COUNT_TO:
            col, counted = col + 1, 0
        card = stock.pop()
        counted += 1
        targets = _targets(piles, card)
        if len(targets) == 1:
            piles[targets[0]] = piles[targets[0]] + (card,)
        elif targets:
            piles[TURNED] = (card,)
            break
        else:
            piles[TABLEAU[col]] = piles[TABLEAU[col]] + (card,)
    piles[STOCK] = tuple(stock)
    if stock or piles[TURNED]:
        vars_[V_COL], vars_[V_COUNTED] = col, counted
    else:
        vars_[V_COL], vars_[V_COUNTED] = 0, 0


def taken_up(piles: tuple[tuple[Card, ...], ...]) -> tuple[Card, ...]:
    """The pack made by taking up the tableau (the book's order): the first column taken up,
    each next one put underneath, each column's cards kept in order; turned over, the pack
    deals the last column first, each column from its first card to its lowest. Returned as a
    pile, its top (the next card dealt) last."""
    order = [c for i in reversed(TABLEAU) for c in piles[i]]
    return tuple(reversed(order))


class TheNation(Game):
    slug = SLUG
    title = "The Nation"
    packs = 2
    Options = NationOptions
    PILES = PILES
    VARS = VARS
    GRID = (float(COLUMNS), _CY + _FAN + 1.4)
    LAYOUTS = (_narrow_layout(),)
    FIGURES = (
        Figure("tableau", "The Nation after the deal, in modern cards.",
               "The tableau of the Nation just after the deal, drawn in modern cards: at the "
               "top, in the middle, the four aces in a row (diamonds, clubs, hearts, spades) "
               "with the cards the deal played on them, and below them the four kings of the "
               "same suits with theirs; under them twelve columns side by side, each hanging "
               "down from its first card, most of eight cards and some shorter, since a card "
               "played in the deal leaves a column short. The pack is not shown.",
               piles=tuple(p.id for p in PILES[:TABLEAU.stop])),
    )
    ACTIONS = (
        ActionSpec("redeal", "Take up and re-deal", "e", REDEAL),
    )
    LEDGER = {
        RULE_I: "Each foundation takes only cards of its own suit; another suit is refused.",
        RULE_II: "During a deal each card counts one number of its column, eight to a column; "
                 "a card played on a foundation as it turns up leaves its column a card "
                 "short, the next card counting as the following number.",
        RULE_III: "Only the lowest card of a column moves; a card with another below it is "
                  "refused, and becomes available when the cards below it have gone.",
        FOUNDATIONS: "The deal begins with an ace and a king of each suit on the foundations, "
                     "the aces in a row above the kings; an ace’s foundation takes the next "
                     "higher card of its suit up to the king, a king’s the next lower down to "
                     "the ace; any other card is refused, and a card played there stays.",
        DEAL: "The 96 other cards are dealt into twelve columns, left to right, eight "
              "numbers counted to each, each column hanging from its first card.",
        COUNT: "A card that a foundation takes as it turns up in the deal is played there at "
               "once (the board pauses only when both foundations of its suit take it, for the "
               "player to choose); nothing else can be done until the deal is over.",
        FIXED: "A card placed in a column during the deal is not played in the deal, even if "
               "a card played after it makes it suitable; it waits until the tableau is "
               "complete and it is the lowest of its column.",
        SAME_METHOD: "Every column, the last as the first, is dealt by the same count, and so "
                     "is every column of a re-deal.",
        AVAILABLE: "Once the deal is over the lowest card of each column may be played on a "
                   "foundation that takes it.",
        MARRIAGE: "The lowest card of a column may be placed on the lowest card of another "
                  "column if it is of the same suit and one above or one below it in value "
                  "(the direction may change from card to card); any other placing is refused.",
        SPACE: "An emptied column may be filled, when the player chooses, with the lowest card "
               "of another column, one card, which is then built on like the others; the "
               "places of columns a re-deal did not reach are not spaces and are refused.",
        TAKE_UP: "Take up and re-deal is refused while an available card could be played on a "
                 "foundation (under NT-5’s other reading, it is allowed at any time after the "
                 "deal is complete).",
        ORDER: "The re-deal deals the last column first, each column from its first card to "
               "its lowest, then the column before it, and so on to the first.",
        REDEAL: "Take up and re-deal deals the tableau again in columns of eight counted "
                "cards, playing suitable cards as they turn up; it is allowed twice, then "
                "refused.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def full_pack(cls) -> Counter[Card]:
        return Counter(pack(2))

    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        rest = Counter(pack(2))
        rest.subtract(base_cards())
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for f, card in zip(FOUNDATION_PILES, base_cards(), strict=True):
            piles[f] = (card,)
        piles[STOCK] = tuple(shuffled(sorted(rest.elements()), deal))
        vars_ = [0, COLUMNS, 0, 0]
        deal_on(piles, vars_)
        return State(tuple(piles), tuple(vars_))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p, v = state.piles, state.vars
        for f, base in zip(FOUNDATION_PILES, base_cards(), strict=True):
            pile = p[f]
            if not pile or pile[0] != base:
                raise PositionError(f"{PILES[f].label} does not begin with the {base.name}")
            for k in range(1, len(pile)):
                if next_for(f, pile[:k]) != pile[k]:
                    raise PositionError(f"{PILES[f].label} is not built in order")
        if not 0 <= v[V_REDEALS] <= REDEALS:
            raise PositionError("the number of re-deals made is impossible")
        if not 1 <= v[V_COLUMNS] <= COLUMNS:
            raise PositionError("the number of columns dealt is impossible")
        if any(p[i] for i in TABLEAU[v[V_COLUMNS]:]):
            raise PositionError("a column the deal did not reach holds cards")
        if len(p[TURNED]) > 1:
            raise PositionError("the card turned up is a single card")
        dealing = bool(p[STOCK] or p[TURNED])
        if dealing:
            if not (0 <= v[V_COL] < v[V_COLUMNS] and 1 <= v[V_COUNTED] <= COUNT_TO):
                raise PositionError("the deal’s column and count are impossible")
            if p[TURNED] and len(_targets(p, p[TURNED][0])) != 2:
                raise PositionError("the card turned up waits only for a choice of two "
                                    "foundations")
        elif v[V_COL] or v[V_COUNTED]:
            raise PositionError("no deal is under way, so the deal’s counters are 0")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def dealing(self, state: State) -> bool:
        return bool(state.piles[STOCK] or state.piles[TURNED])

    def columns(self, state: State) -> int:
        return state.vars[V_COLUMNS]

    def playable(self, state: State) -> list[int]:
        """The columns whose lowest card some foundation takes now."""
        p = state.piles
        return [c for c in TABLEAU if p[c] and _targets(p, p[c][-1])]

    def foundation_refusal(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        want = next_for(f, pile)
        if want == card:
            return None
        label = PILES[f].label
        if card.suit is not pile[0].suit:
            return IllegalMove(RULE_I, f"The foundations follow suit: the {card.name} cannot go "
                               f"on {label}.")
        if want is None:
            return IllegalMove(FOUNDATIONS, f"{label.capitalize()} is complete.")
        way = "ascend" if f in ACE_PILES else "descend"
        return IllegalMove(FOUNDATIONS, f"The {'aces' if f in ACE_PILES else 'kings'} {way} "
                           f"in sequence: {label} takes the {want.name} next.")

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        p = state.piles
        for s in [c for c in TABLEAU if p[c]] + ([TURNED] if p[TURNED] else []):
            for d in (*FOUNDATION_PILES, *TABLEAU):
                if d != s:
                    yield Move.step(PILES[s].id, PILES[d].id)
        yield Move(action="redeal")

    def legal_in(self, state: State) -> list[Move]:
        """Exactly the legal moves, made directly from the rules (a test compares them with
        :meth:`refusal` over every step)."""
        p = state.piles
        out: list[Move] = []
        if p[TURNED]:
            card = p[TURNED][0]
            return [Move.step("turned", PILES[f].id) for f in _targets(p, card)]
        if p[STOCK]:
            return out
        cols = self.columns(state)
        for s in TABLEAU:
            if not p[s]:
                continue
            card = p[s][-1]
            sid = PILES[s].id
            for f in _targets(p, card):
                out.append(Move.step(sid, PILES[f].id))
            for d in TABLEAU:
                if d == s:
                    continue
                if (d - TABLEAU.start < cols) if not p[d] else married(card, p[d][-1]):
                    out.append(Move.step(sid, PILES[d].id))
        if self.refuse_action(state, "redeal") is None:
            out.append(Move(action="redeal"))
        return out

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        p = state.piles
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        if si in FOUNDATION_PILES:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if si == STOCK:
            return IllegalMove(COUNT, "The pack is dealt by the count, column by column; its "
                               "cards are not taken one by one.")
        if si == TURNED:
            if di in FOUNDATION_PILES:
                return self.foundation_refusal(state, di, card)
            return IllegalMove(COUNT, f"The {card.name} turned up in the deal is suitable, so "
                               "it is played on a foundation: choose which one.")
        # from a column
        if p[TURNED]:
            return IllegalMove(FIXED, f"The deal is under way: first play the {p[TURNED][0].name} "
                               "turned up on one of the two foundations that take it. A card "
                               "placed in a column cannot be removed during the deal.")
        if p[STOCK]:
            return IllegalMove(FIXED, "The deal is under way: a card placed in a column cannot "
                               "be removed until the tableau is complete.")
        if not step.top:
            return IllegalMove(RULE_III, "Only the lowest card of each column is available; "
                               "a card that has another below it must wait for its removal.")
        if di in FOUNDATION_PILES:
            return self.foundation_refusal(state, di, card)
        if di in TABLEAU:
            if not p[di]:
                if di - TABLEAU.start < self.columns(state):
                    return None
                return IllegalMove(SPACE, f"This deal has only {self.columns(state)} columns: "
                                   f"{PILES[di].label} was not dealt, so it is no vacant space.")
            top = p[di][-1]
            if married(card, top):
                return None
            if card.suit is not top.suit:
                return IllegalMove(MARRIAGE, f"A marriage is made in suit: the {card.name} "
                                   f"cannot go on the {top.name}.")
            return IllegalMove(MARRIAGE, f"A marriage places a card on the next above or below "
                               f"it in value: the {top.name} takes only "
                               f"{_neighbours(top)}.")
        if di == TURNED:
            return IllegalMove(COUNT, "Only a card turned up in the deal goes there.")
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action != "redeal":
            return IllegalMove(BOARD, f"The Nation has no action {action!r}.")
        p = state.piles
        if p[TURNED]:
            return IllegalMove(COUNT, f"The deal is under way: first play the {p[TURNED][0].name} "
                               "turned up on one of the two foundations that take it.")
        if p[STOCK]:
            return IllegalMove(COUNT, "The deal is under way.")
        if state.vars[V_REDEALS] >= REDEALS:
            return IllegalMove(REDEAL, "The tableau may be taken up and re-dealt twice only, "
                               "and it has been.")
        if not self.options.redeal_at_will:
            ready = self.playable(state)
            if ready:
                c = ready[0]
                return IllegalMove(TAKE_UP, f"The tableau is taken up when all available cards "
                                   f"have been played or married: the {p[c][-1].name} of "
                                   f"{PILES[c].label} can still be played.")
        return None

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        vars_ = list(state.vars)
        if move.action == "redeal":
            stock = taken_up(state.piles)
            for i in TABLEAU:
                piles[i] = ()
            piles[STOCK] = stock
            vars_[V_REDEALS] += 1
            vars_[V_COLUMNS] = max(1, -(-len(stock) // COUNT_TO))
            vars_[V_COL], vars_[V_COUNTED] = 0, 0
            deal_on(piles, vars_)
            return State(tuple(piles), tuple(vars_))
        step = self.resolve_step(state, move)
        assert isinstance(step, Step)
        piles[step.src] = piles[step.src][:-1]
        piles[step.dst] = piles[step.dst] + (step.card,)
        if step.src == TURNED:
            deal_on(piles, vars_)      # the deal goes on from the next number
        return State(tuple(piles), tuple(vars_))

    def pack_move(self, state: State, legal: list[Move]) -> Move | None:
        """A click on the pack takes up the tableau and re-deals it (refused, with the reason,
        when it may not be)."""
        return Move(action="redeal")

    # ---- the solver ------------------------------------------------------------------
    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """No piles are alike: each foundation has its suit and direction, and a re-deal
        takes the columns up in their order."""
        return ()

    # ---- the end ---------------------------------------------------------------------
    def played(self, state: State) -> int:
        return sum(len(state.piles[f]) for f in FOUNDATION_PILES)

    def solver_outcome(self, state: State) -> Outcome | None:
        return Outcome.WON if self.played(state) == TOTAL else None

    def outcome_of(self, state: State) -> Outcome | None:
        if self.played(state) == TOTAL:
            return Outcome.WON
        if self.dealing(state) or state.vars[V_REDEALS] < REDEALS:
            return None  # the deal goes on, or a re-deal is still to come
        # The last deal is complete. Every win needs a card played; if no series of
        # marriages and moves into spaces brings a card a foundation takes to the foot of a
        # column, nothing will ever be played again: lost. A search that gives up says nothing.
        return Outcome.LOST if self.remembered(state, self.play_reachable) is False else None

    def play_reachable(self, state: State, limit: int = 5000) -> bool | None:
        """Whether some series of marriages and moves into spaces brings to the foot of a
        column a card a foundation takes (True), none does (False), or the search gave up
        after ``limit`` positions (None). Every card of the tableau is face up."""
        p = state.piles
        wanted = {w for f in FOUNDATION_PILES if (w := next_for(f, p[f])) is not None}
        # After the last deal no rule looks at a column's place (every dealt column may take
        # a card when empty), so positions that differ only in the order of the columns are one.
        cols = self.columns(state)
        start = tuple(sorted(p[i] for i in TABLEAU[:cols]))
        seen = {start}
        todo = [start]
        while todo:
            here = todo.pop()
            if any(col and col[-1] in wanted for col in here):
                return True
            for a, col in enumerate(here):
                if not col:
                    continue
                card = col[-1]
                for b, q in enumerate(here):
                    if a == b or (q and not married(card, q[-1])) or (not q and len(col) == 1):
                        continue
                    nxt = list(here)
                    nxt[a], nxt[b] = col[:-1], q + (card,)
                    key = tuple(sorted(nxt))
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
            return (f"The tableau has been re-dealt twice and no card can ever be played "
                    f"again: the patience has failed with {played} of 104 cards played.")
        left = REDEALS - state.vars[V_REDEALS]
        parts = [f"{played} of 104 on the foundations",
                 f"re-deals left: {left}" if left else "no re-deal left"]
        if state.piles[TURNED]:
            parts.insert(0, f"The deal waits: play the {state.piles[TURNED][0].name} on one of "
                            "its two foundations")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "redeal":
            return "The tableau is taken up and dealt again, the last column first."
        if move.steps:
            (src, dst), = move.steps
            moved = self.card_at(state, src)
            name = moved.name if moved else "a card"
            di = self.pile_index(dst)
            if di in FOUNDATION_PILES:
                return f"The {name} is played from {self.label(src)} on {self.label(dst)}."
            if di in TABLEAU:
                if not state.piles[di]:
                    return f"The {name} is moved from {self.label(src)} into {self.label(dst)}."
                return (f"The {name} is married to the {state.piles[di][-1].name} of "
                        f"{self.label(dst)}.")
        return super().describe(state, move)


def _neighbours(top: Card) -> str:
    """The cards a marriage may place on ``top``, in words."""
    names = [f"{_a(r)} of {top.suit.noun}"
             for r in (top.rank + 1, top.rank - 1) if ACE <= r <= KING]
    return " or ".join(names)


def _a(rank: int) -> str:
    name = RANK_NAMES[rank]
    return ("an " if name[0] in "ae" else "a ") + name


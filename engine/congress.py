"""The Congress (two packs), by the book: 1914 printing, plate p. 108, text pp. 109–110.

Piles: eight foundations in two columns on the right, begun by the eight aces withdrawn from
the pack before the deal, each following suit up to the king (Rule I); the rivers, eight
columns at the top of the table, a row of eight cards dealt across them at a time, each row
partly covering the one before and blocking it (Rule V), so that only the lowest card of a
column is available; the help packets, a line of places below the rivers, four filled from the
pack at the start and four more opened once the pack is exhausted; and the pack.

A river card goes to its foundation or is married onto a help packet, of its suit and one
lower; a help packet's uppermost card (Rule IV) goes to its foundation or is married onto
another help packet the same way (Rule III); nothing is ever placed on the rivers (Rule II). A
card gone from the rivers leaves a vacancy: the vacancies, and the emptied help places, are
refilled from the pack when the player asks, the uppermost rows first, and must be refilled
before the next row is dealt; by default the next row waits too until no card can be played
on a foundation (CG-4). Once the pack is exhausted the helps may be increased to eight: an
empty help place then takes any available card of the rivers. There is no re-deal. See the
chapter page for the text each rule id points at, and its editorial notes (``note-cg-N``) for
the readings behind the option and the decisions.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .cards import ACE, KING, SUITS, Card, pack
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
    Region,
    Role,
    State,
    Step,
    option,
)
from .deal import shuffled
from .rules import SuitFoundations, marries_down_in_suit, plural, stuck_after

SLUG = "the-congress"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # the foundations follow suit
RULE_II = _rule("rule-2")             # river cards marry on the helps, not the other way
RULE_III = _rule("rule-3")            # help cards marry on each other's packets; from rivers too
RULE_IV = _rule("rule-4")             # only the uppermost card of a help packet is available
RULE_V = _rule("rule-5")              # each row blocks the one before; a removal releases
FOUNDATIONS = _rule("foundations")    # the eight aces withdrawn, in two columns, up to kings
HELPS = _rule("helps")                # four help cards in a line below
RIVERS = _rule("rivers")              # a row of eight: play, marry on the helps, refill
FROM_HELPS = _rule("from-helps")      # from the helps play, and marry by Rule III
NEXT_ROWS = _rule("next-rows")        # when all possible are played, successive rows of eight
COMPLETE = _rule("complete")          # no card played from a row until it is complete
REFILL = _rule("refill")              # after each row: play, marry, refill rivers and helps
UPPERMOST = _rule("uppermost")        # the uppermost rows are refilled first
EIGHT = _rule("eight")                # the pack exhausted: the helps may be increased to eight
NEW_HELPS = _rule("new-helps")        # any available river cards begin the new packets
DISCRETION = _rule("discretion")      # the new helps placed only as required
PLAYED_OFF = _rule("played-off")      # a packet played off: refilled from the rivers; eight
NO_REDEAL = _rule("no-redeal")        # there is no re-deal
BOARD = _rule("board")                # the board itself (notation errors)

COLUMNS = 8             # the rivers: eight cards to a row
FIRST_HELPS = 4         # the help packets of the deal
HELP_PLACES = 8         # the packets "must never exceed the number of eight"
CARDS = 104
#: 104 cards less the eight aces and the four helps leave 92: eleven rows of eight and a short
#: twelfth at most (refills take cards that would otherwise make rows).
MAX_ROWS = 12
SEARCH_LIMIT = 4000     # positions explored at most when judging whether a game is lost


@dataclass(frozen=True, slots=True)
class CongressOptions:
    play_first: bool = option(
        True, note="note-cg-4", label="The next row of the rivers may be dealt",
        labels={True: "only when no card can be played on a foundation",
                False: "whenever the player chooses, once the vacancies are refilled"})


# ---------------------------------------------------------------------------- the layout
# As in the plate: the rivers across the top, the help packets in a line below them, the
# foundations in two columns on the right, one suit to a row; the pack below the foundations.

_RIVER_FAN = 4.0         # how far a column of the rivers may spread, in card heights
_HELP_Y = 5.6
_HELP_FAN = 0.8
_FX = (8.6, 9.6)
_FY = 1.3
_TOP = 0.35              # room above the rivers for their region's label, inside the table


def foundation_label(f: int) -> str:
    """``"spades foundation 1"``: the first column holds foundation 1 of each suit."""
    return f"{SUITS[f % 4].noun} foundation {f // 4 + 1}"


PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"f{k}", foundation_label(k), Role.FOUNDATION, _FX[k // 4],
                   _TOP + _FY * (k % 4),
                   mark=f"{SUITS[k % 4].symbol} A–K") for k in range(8))
    + tuple(PileSpec(f"r{c}", f"river {c + 1}", Role.TABLEAU, float(c), _TOP, Fan.DOWN,
                     fan_limit=_RIVER_FAN, mark=f"river {c + 1}") for c in range(COLUMNS))
    + tuple(PileSpec(f"h{j}", f"help {j + 1}", Role.RESERVE, float(j), _TOP + _HELP_Y,
                     Fan.DOWN, fan_limit=_HELP_FAN,
                     mark=f"help {j + 1}" if j < FIRST_HELPS else f"new help {j + 1}")
            for j in range(HELP_PLACES))
    + (PileSpec("stock", "the pack", Role.STOCK, (_FX[0] + _FX[1]) / 2,
                _TOP + _HELP_Y),)
)

FOUNDS = range(0, 8)
RIVERS_PILES = range(8, 8 + COLUMNS)
HELP_PILES = range(RIVERS_PILES.stop, RIVERS_PILES.stop + HELP_PLACES)
STOCK = HELP_PILES.stop
#: Foundation k follows the suit SUITS[k % 4]: the two of a suit stand side by side in a row.
FOUNDATION_SET = SuitFoundations(FOUNDS, range(0))


def _narrow() -> Layout:
    """For a phone: the foundations in a row of eight at the top, the two of each suit side
    by side; the rivers below them, the help places below the rivers, the pack at the foot."""
    at: dict[str, tuple[float, float, int]] = {}
    for k in FOUNDS:
        at[PILES[k].id] = (float(2 * (k % 4) + k // 4), 0.0, 0)
    top = 1.4
    for c in range(COLUMNS):
        at[PILES[RIVERS_PILES[c]].id] = (float(c), top, 0)
    help_y = top + _HELP_Y
    for j in range(HELP_PLACES):
        at[PILES[HELP_PILES[j]].id] = (float(j), help_y, 0)
    at["stock"] = (0.0, help_y + 1.0 + _HELP_FAN + 0.3, 0)
    regions = (Region("The rivers", -0.05, top - 0.3, 8.0, _HELP_Y - 0.4),
               Region("The helps", -0.05, help_y - 0.3, 8.0, 1.0 + _HELP_FAN + 0.4))
    return Layout("narrow", (8.0, help_y + 2.1 + _HELP_FAN + 0.3), at, regions=regions,
                  max_width=560)


class TheCongress(Game):
    slug = SLUG
    title = "The Congress"
    packs = 2
    Options = CongressOptions
    PILES = PILES
    VARS = ("rows",)
    GRID = (_FX[1] + 1.0, _TOP + _HELP_Y + 1.0 + _HELP_FAN + 0.2)
    LAYOUTS = (_narrow(),)
    REGIONS = (Region("The rivers", -0.05, _TOP - 0.3, 8.0, _HELP_Y - 0.4),
               Region("The helps", -0.05, _TOP + _HELP_Y - 0.3, 8.0, 1.0 + _HELP_FAN + 0.4))
    FIGURES = (
        Figure("tableau", "The Congress after the deal, in modern cards.",
               "The tableau of the Congress just after the deal, drawn in modern cards: "
               "across the top the first row of the rivers, eight cards; below it, after "
               "a wide space left for the rows to come, a line of four help cards; on the "
               "right the eight aces in two columns of four, the two aces of each suit side "
               "by side. The pack and the places of the four helps added later are not "
               "shown.",
               piles=tuple(p.id for p in PILES[:HELP_PILES.start + FIRST_HELPS])),
    )
    DIAGRAM_DEAL = 1
    ACTIONS = (
        ActionSpec("refill", "Refill the vacancies", "f", REFILL),
        ActionSpec("deal", "Deal the next row", "d", NEXT_ROWS),
    )
    LEDGER = {
        RULE_I: "Each foundation belongs to the suit of its ace, and a card of another suit "
                "is refused there.",
        RULE_II: "The available card of a river may be married onto a help packet whose top "
                 "card is of its suit and one rank higher; no card, from a help or from "
                 "another river, is ever placed on the rivers.",
        RULE_III: "The uppermost card of a help packet may be married onto another packet’s "
                  "uppermost card of its suit and one rank higher, one card at a time; river "
                  "cards marry onto the packets as Rule II says.",
        RULE_IV: "Only the uppermost card of a help packet moves; a card beneath it is "
                 "refused until the cards above it have gone.",
        RULE_V: "Only the lowest card of each river column is available; when it goes, the "
                "card above it is available at once, before any refill (CG-1).",
        FOUNDATIONS: "The eight aces are taken out before the deal and begin the foundations, "
                     "two columns of four on the right, the two aces of a suit in one row; "
                     "each foundation takes the next card of its suit up to the king, and a "
                     "card played there never leaves it. The game is won when all a hundred "
                     "and four cards are there.",
        HELPS: "The deal then lays four cards from the pack in a line below the rivers, the "
               "first four help packets.",
        RIVERS: "Then eight cards in a row at the top, the rivers’ first row; its cards may "
                "be played on the foundations or married onto the helps, and the vacancies "
                "are refilled from the pack (CG-2).",
        FROM_HELPS: "The uppermost card of a help packet may be played on a foundation or "
                    "married onto another packet (Rule III) at any time.",
        NEXT_ROWS: "“Deal the next row” lays eight cards across the rivers, one under each "
                   "column, covering the row before; by default it is refused while a card "
                   "can be played on a foundation, and under CG-4’s other reading it waits "
                   "only for the vacancies to be refilled.",
        COMPLETE: "A row is dealt whole by one press, so no card of it can be played before "
                  "it is complete; when the pack runs out the last row is short.",
        REFILL: "“Refill the vacancies” fills from the pack every vacancy of the rivers (the "
                "empty places of the rows dealt) and every empty place of the first four "
                "helps, when the player chooses; the next row is refused while a vacancy "
                "remains, and no card of the tableau may fill one while the pack lasts (CG-2).",
        UPPERMOST: "The refill takes the vacancies of the rivers row by row from the top, "
                   "left to right in each row, and then the helps, left to right, so each "
                   "column is refilled from its highest empty place down (CG-3).",
        EIGHT: "The four places of the new helps take no card while the pack lasts; once it "
               "is exhausted all eight help places are open, and no refill or row is dealt.",
        NEW_HELPS: "Once the pack is exhausted, an empty help place takes any available card "
                   "of the rivers, and the packet it begins is married on and played from "
                   "like the first four; a help card never begins a packet (CG-6).",
        DISCRETION: "Nothing obliges the player to fill an empty help place: it may wait, "
                    "empty, for as long as the player likes.",
        PLAYED_OFF: "A help place emptied after the pack is exhausted, new or old, may be "
                    "filled again with an available river card; there are eight help places "
                    "and no more, so the packets never exceed eight.",
        NO_REDEAL: "There is no re-deal: a re-deal is refused, and once the pack is out and "
                   "no card can ever reach a foundation the game is lost (CG-8).",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        cards = list(shuffled(pack(2), deal))
        # The eight aces are withdrawn, each to the first empty foundation of its suit.
        for card in cards:
            if card.rank == ACE:
                f = next(f for f in FOUNDS
                         if FOUNDATION_SET.suit(f) is card.suit and not piles[f])
                piles[f] = (card,)
        stock = [c for c in cards if c.rank != ACE]
        for j in range(FIRST_HELPS):          # four help cards, from the pack's top
            piles[HELP_PILES[j]] = (stock.pop(),)
        for c in range(COLUMNS):              # then the rivers' first row, left to right
            piles[RIVERS_PILES[c]] = (stock.pop(),)
        piles[STOCK] = tuple(stock)
        return State(tuple(piles), (1,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        for f in FOUNDS:
            pile = state.piles[f]
            if not pile:
                raise PositionError(f"the {PILES[f].label} has no ace: the aces are withdrawn "
                                    "before the deal")
            for k, card in enumerate(pile):
                if card.suit is not FOUNDATION_SET.suit(f) or card.rank != k + 1:
                    raise PositionError(f"the {PILES[f].label} is not built in order from "
                                        "its ace")
        rows = state.vars[0]
        if not 1 <= rows <= MAX_ROWS:
            raise PositionError(f"between 1 and {MAX_ROWS} rows of the rivers are dealt")
        for c in RIVERS_PILES:
            if len(state.piles[c]) > rows:
                raise PositionError(f"{PILES[c].label} holds more cards than the rows dealt")
        for h in HELP_PILES:
            p = state.piles[h]
            for low, high in zip(p[1:], p, strict=False):
                if not marries_down_in_suit(low, high):
                    raise PositionError(f"{PILES[h].label}: a card lies on another that is not "
                                        "of its suit and one rank higher")
            if p and h - HELP_PILES.start >= FIRST_HELPS and state.piles[STOCK]:
                raise PositionError(f"{PILES[h].label} is used before the pack is exhausted")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def rows(self, state: State) -> int:
        return state.vars[0]

    def vacancies(self, state: State) -> list[int]:
        """The pile of each vacancy, in the order a refill fills them: the rivers' empty
        places of the rows dealt, the uppermost row first and left to right in a row (a
        column with two empty places is named twice), then the empty places of the first
        four helps. None once the pack is exhausted: nothing is refilled then."""
        if not state.piles[STOCK]:
            return []
        rows = self.rows(state)
        out = [RIVERS_PILES[c] for r in range(rows) for c in range(COLUMNS)
               if len(state.piles[RIVERS_PILES[c]]) <= r]
        out += [h for h in HELP_PILES[:FIRST_HELPS] if not state.piles[h]]
        return out

    def sources(self, state: State) -> list[int]:
        """The piles whose top card is available: each river's lowest card, each help
        packet's uppermost card."""
        return [i for i in (*RIVERS_PILES, *HELP_PILES) if state.piles[i]]

    def plays(self, state: State) -> Iterator[tuple[int, int]]:
        """Every (pile, foundation) play open now."""
        for i in self.sources(state):
            card = state.piles[i][-1]
            for f in FOUNDS:
                if FOUNDATION_SET.accepts(state, f, card):
                    yield i, f

    def others(self, state: State) -> Iterator[tuple[int, int]]:
        """Every move open now that is not a play: marriages onto help packets (from a river
        or another help) and, once the pack is out, a river card to an empty help place."""
        open_places = not state.piles[STOCK]
        for i in self.sources(state):
            card = state.piles[i][-1]
            for h in HELP_PILES:
                if h == i:
                    continue
                target = state.piles[h]
                if target:
                    if marries_down_in_suit(card, target[-1]):
                        yield i, h
                elif open_places and i in RIVERS_PILES:
                    yield i, h

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        for i, j in (*self.plays(state), *self.others(state)):
            yield Move.step(PILES[i].id, PILES[j].id)
        yield Move(action="refill")
        yield Move(action="deal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        p = state.piles
        # where the card comes from
        if si == STOCK:
            return IllegalMove(REFILL, "Cards leave the pack only when a row is dealt or the "
                               "vacancies are refilled.")
        if si in FOUNDS:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if si in RIVERS_PILES and not step.top:
            return IllegalMove(RULE_V, f"The {card.name} is blocked by the row below it: only "
                               f"the lowest card of {PILES[si].label} is available.")
        if si in HELP_PILES and not step.top:
            return IllegalMove(RULE_IV, f"Only the uppermost card of {PILES[si].label} is "
                               f"available: the {card.name} is released when the cards on "
                               "it have gone.")
        # where it goes
        if di == si:
            return IllegalMove(BOARD, f"The {card.name} is already in {PILES[si].label}.")
        if di == STOCK:
            return IllegalMove(BOARD, "Nothing goes back to the pack.")
        if di in FOUNDS:
            return FOUNDATION_SET.refusal(state, di, card, PILES[di], RULE_I, FOUNDATIONS,
                                          follow="The foundations follow suit")
        if di in RIVERS_PILES:
            if si in HELP_PILES:
                return IllegalMove(RULE_II, "Cards from the rivers marry with cards on the "
                                   "helps, but not vice versâ: a help card is never placed "
                                   "on the rivers.")
            return IllegalMove(RULE_II, "Cards of the rivers marry only with cards on the "
                               "helps: nothing is placed on the rivers.")
        # di is a help place
        rule = RULE_II if si in RIVERS_PILES else RULE_III
        target = p[di]
        if target:
            top = target[-1]
            if marries_down_in_suit(card, top):
                return None
            if top.suit is not card.suit:
                return IllegalMove(rule, f"A marriage is made in the same suit: the "
                                   f"{card.name} cannot go on the {top.name}.")
            if card.rank == KING:
                return IllegalMove(rule, "Marriages are made in descending line, and no card "
                                   "is higher than a king: a king is never married.")
            return IllegalMove(rule, f"Marriages are made in descending line: the "
                               f"{card.name} goes only on the "
                               f"{Card(card.rank + 1, card.suit).name}.")
        j = di - HELP_PILES.start
        if p[STOCK]:
            if j >= FIRST_HELPS:
                return IllegalMove(EIGHT, "The helps are increased to eight only after the "
                                   "entire pack is exhausted.")
            return IllegalMove(REFILL, "While the pack lasts, an empty help place is "
                               "refilled from the pack (Refill the vacancies), not from the "
                               "tableau.")
        if si in HELP_PILES:
            return IllegalMove(NEW_HELPS if j >= FIRST_HELPS else PLAYED_OFF,
                               "A new help packet is begun with an available card from the "
                               "rivers, not with a card from another help.")
        return None

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action == "redeal":
            return IllegalMove(NO_REDEAL, "There is no re-deal.")
        if action not in ("refill", "deal"):
            return IllegalMove(BOARD, f"The Congress has no action {action!r}.")
        if not state.piles[STOCK]:
            return IllegalMove(EIGHT, "The pack is exhausted: no more rows are dealt and no "
                               "vacancy is refilled; an empty help place takes a card from "
                               "the rivers.")
        vacant = self.vacancies(state)
        if action == "refill":
            if not vacant:
                return IllegalMove(REFILL, "There is no vacancy to refill.")
            return None
        if vacant:
            n = len(vacant)
            return IllegalMove(REFILL, "The vacancies must be refilled from the pack before "
                               f"the next row is dealt ({n} "
                               f"{'vacancy' if n == 1 else 'vacancies'} left).")
        if self.rows(state) >= MAX_ROWS:  # pragma: no cover - 92 cards never make 13 rows
            return IllegalMove(NEXT_ROWS, "No more rows can be dealt.")
        if self.options.play_first:
            play = next(self.plays(state), None)
            if play is not None:
                i, f = play
                return IllegalMove(NEXT_ROWS, "The next row is dealt when all possible cards "
                                   f"have been played: the {state.piles[i][-1].name} of "
                                   f"{PILES[i].label} can be played on the "
                                   f"{PILES[f].label}.")
        return None

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        rows = state.vars[0]
        if move.action == "refill":
            for i in self.vacancies(state):
                if not piles[STOCK]:
                    break
                piles[i] = piles[i] + piles[STOCK][-1:]
                piles[STOCK] = piles[STOCK][:-1]
        elif move.action == "deal":
            for c in RIVERS_PILES:
                if not piles[STOCK]:
                    break
                piles[c] = piles[c] + piles[STOCK][-1:]
                piles[STOCK] = piles[STOCK][:-1]
            rows += 1
        else:
            step = self.resolve_step(state, move)
            assert isinstance(step, Step), "apply() is given legal moves only"
            piles[step.src] = piles[step.src][:-1]
            piles[step.dst] = piles[step.dst] + (step.card,)
        return State(tuple(piles), (rows,))

    def pack_move(self, state: State, legal: list[Move]) -> Move | None:
        """A click on the pack refills the vacancies when there are any, else deals the next
        row (refused, with the reason, when it may not be dealt)."""
        if any(m.action == "refill" for m in legal):
            return Move(action="refill")
        return Move(action="deal")

    # ---- the solver ------------------------------------------------------------------
    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """The two foundations of a suit: each says by its own cards what it takes."""
        return tuple((k, k + 4) for k in range(4))

    # ---- the end ---------------------------------------------------------------------
    def played(self, state: State) -> int:
        return sum(len(state.piles[f]) for f in FOUNDS)

    def _stuck(self, state: State) -> bool | None:
        """With the pack exhausted: True if no card can ever be played on a foundation,
        whatever marriages and new helps are made; False if one can; None if the search
        gave up. Every card is face up then, so the search reads nothing hidden."""
        return stuck_after(state, lambda s: next(self.plays(s), None) is not None,
                           self.others, SEARCH_LIMIT)

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: LOST costs a search, and is a dead end to the solver anyway."""
        return Outcome.WON if self.played(state) == CARDS else None

    def outcome_of(self, state: State) -> Outcome | None:
        if self.played(state) == CARDS:
            return Outcome.WON
        if state.piles[STOCK]:
            return None  # a refill or a new row can always come
        # There is no re-deal (CG-6): the game is lost when no series of marriages and new
        # helps brings a card to a foundation; a search that gives up leaves it open.
        return Outcome.LOST if self.remembered(state, self._stuck) else None

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        done = self.played(state)
        if out is Outcome.WON:
            return "Won: all a hundred and four cards are on the foundations."
        if out is Outcome.LOST:
            return (f"No card can reach a foundation: the patience has failed, with {done} of "
                    f"{CARDS} cards played.")
        parts = [f"{plural(self.rows(state), 'row')} of the rivers dealt"]
        stock = len(state.piles[STOCK])
        if stock:
            parts.append(f"pack: {plural(stock, 'card')}")
            n = len(self.vacancies(state))
            parts.append(f"{n} {'vacancy' if n == 1 else 'vacancies'} to refill" if n
                         else "no vacancy")
        else:
            free = sum(1 for h in HELP_PILES if not state.piles[h])
            parts.append("the pack is exhausted: eight help places"
                         + (f", {free} free" if free else ""))
        parts.append(f"on the foundations: {done} of {CARDS}")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        if move.action == "refill":
            n = min(len(self.vacancies(state)), len(state.piles[STOCK]))
            return (f"{'The vacancy is' if n == 1 else f'{n} vacancies are'} refilled from "
                    "the pack, the uppermost rows first.")
        if move.action == "deal":
            return f"Row {self.rows(state) + 1} of the rivers is dealt."
        step = self.resolve_step(state, move)
        if isinstance(step, Step):
            src = PILES[step.src].label
            if step.dst in FOUNDS:
                return (f"The {step.card.name} from {src} is played on the "
                        f"{PILES[step.dst].label}.")
            if step.dst in HELP_PILES:
                target = state.piles[step.dst]
                if target:
                    return (f"The {step.card.name} from {src} is married to the "
                            f"{target[-1].name} on {PILES[step.dst].label}.")
                return f"The {step.card.name} from {src} begins {PILES[step.dst].label}."
        return super().describe(state, move)

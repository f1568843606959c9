"""Mount Olympus (two packs), by the book: 1914 printing, plate p. 92, text p. 93.

Piles: the sixteen foundations, the eight aces and the eight twos withdrawn from the packs and
laid alternately in a pyramid (an inverted V, as the plate draws it), each built up in its own
suit by twos (Rules I and II): an ace takes the three, five, seven, nine, knave and king, a two
the four, six, eight, ten and queen; the battery, nine places dealt inside the pyramid in rows
of one, three and five, on whose uppermost cards cards of the same suit are placed two lower
(Rules I and III); the pack, the card just turned up from it, and the talon.

Only the uppermost card of a battery place is available (Rule IV), and it moves alone (MO-2).
The card turned up and the talon's top card may be played on a foundation, placed on the
battery, or put into a space of the battery, which is refilled only from the pack or the talon
(MO-4). Turning the next card lays the card turned before it, if unused, on the talon; by
default it is refused while that card could be played or placed (MO-3). When the pack is
exhausted the talon may be turned over and dealt again, once (MO-5). See the chapter page for
the text each rule id points at, and its editorial notes (``note-mo-N``) for the readings
behind the options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .cards import ACE, KING, QUEEN, RANK_NAMES, SUITS, Card, pack
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
from .rules import TurnedCard, plural, turned_card_use

SLUG = "mount-olympus"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_I = _rule("rule-1")              # the foundations and the battery follow suit
RULE_II = _rule("rule-2")             # aces by odd numbers to kings, twos by even to queens
RULE_III = _rule("rule-3")            # the battery in alternate descending sequence
RULE_IV = _rule("rule-4")             # only the uppermost cards of the battery are available
PYRAMID = _rule("pyramid")            # the aces and twos withdrawn, laid as a pyramid
BATTERY = _rule("battery")            # nine cards dealt: the battery
BATTERY_PLAY = _rule("battery-play")  # battery cards played on foundations or on each other
TALON = _rule("talon")                # the unsuitable cards form the talon
DEAL = _rule("deal")                  # deal out the pack, playing and placing
SPACES = _rule("spaces")              # spaces refilled from pack or talon
SUCCESS = _rule("success")            # the pyramid of alternate kings and queens
REDEAL = _rule("redeal")              # the talon taken up and re-dealt once
BOARD = _rule("board")                # the board itself (notation errors)

PACKS = 2
FOUNDATION_COUNT = 16
BATTERY_PLACES = 9
TOTAL = PACKS * 52                     # every card ends on the foundations
#: The last card of each kind of foundation (Rule II).
LAST = {ACE: KING, 2: QUEEN}


@dataclass(frozen=True, slots=True)
class MountOlympusOptions:
    turned_card: bool = option(
        True, note="note-mo-3", label="A card turned up that could be played or placed on "
        "the battery",
        labels={True: "must be used before the next card is turned",
                False: "may be laid on the talon"})


# ---------------------------------------------------------------------------- the layout
# As in the plate: the sixteen foundations in an inverted V, an ace and a two side by side at
# the apex and seven down each leg, aces and twos alternating all the way round; the battery
# inside it in rows of one, three and five; the pack, the card turned up and the talon in a
# row beneath the battery. x in card slots, y in rows.

_DX = 0.7                              # a leg's step to the side (the lower card overlapping
                                       # only the foot of the one above, as in the plate)
_DY = 0.75                             # and downwards
_APEX_X = 7 * _DX                      # the apex ace's x (the two stands one slot right)
_MID = _APEX_X + 0.5                   # the middle of the pyramid (a card's left edge)
_BATTERY_ROWS = ((1.2, 1), (2.7, 3), (4.2, 5))
_BATTERY_FAN = 0.5                     # how far a battery place may spread, in card heights
_LOW_Y = 5.85


def _foundation_base(i: int) -> Card:
    """The card foundation ``i`` is begun with: counting round the pyramid from the foot of
    its left leg to the foot of its right, an ace at every odd place and a two at every even
    one (so the apex holds an ace and a two side by side); the suits go round in pairs."""
    return Card(ACE if i % 2 else 2, SUITS[(i // 2) % 4])


def _foundation_at(i: int) -> tuple[float, float]:
    if i < 8:                          # the left leg, from its foot up to the apex
        step = 7 - i
        return _APEX_X - step * _DX, step * _DY
    step = i - 8                       # the right leg, from the apex down to its foot
    return _APEX_X + 1.0 + step * _DX, step * _DY


def _foundation(i: int) -> PileSpec:
    base = _foundation_base(i)
    side = "left" if i < 8 else "right"
    place = (7 - i) if i < 8 else (i - 8)
    where = "at the apex" if place == 0 else f"{place} down the {side} leg"
    return PileSpec(f"f{i}", f"the {base.name} ({where})", Role.FOUNDATION,
                    *_foundation_at(i),
                    mark=f"{base.suit.symbol} {'A' if base.rank == ACE else '2'}")


def _battery_at(j: int) -> tuple[float, float]:
    start = 0
    for y, n in _BATTERY_ROWS:
        if j < start + n:
            k = j - start
            return _MID + (k - (n - 1) / 2), y
        start += n
    raise ValueError(j)


def _battery_name(j: int) -> str:
    row = 0 if j == 0 else 1 if j < 4 else 2
    k = j - (0, 1, 4)[row]
    n = _BATTERY_ROWS[row][1]
    which = ("top row" if row == 0 else
             f"middle row, {('left', 'centre', 'right')[k]}" if row == 1 else
             f"bottom row, {k + 1} of {n}")
    return f"battery place {j + 1} ({which})"


PILES: tuple[PileSpec, ...] = (
    tuple(_foundation(i) for i in range(FOUNDATION_COUNT))
    + tuple(PileSpec(f"b{j}", _battery_name(j), Role.TABLEAU, *_battery_at(j), Fan.DOWN,
                     fan_limit=_BATTERY_FAN, mark="space") for j in range(BATTERY_PLACES))
    + (PileSpec("stock", "the pack", Role.STOCK, _MID - 1.3, _LOW_Y),
       PileSpec("turned", "the card turned up", Role.RESERVE, _MID, _LOW_Y, mark="turned up"),
       PileSpec("talon", "the talon", Role.TALON, _MID + 1.3, _LOW_Y))
)

FOUNDATION_PILES = range(0, FOUNDATION_COUNT)
BATTERY_PILES = range(FOUNDATION_COUNT, FOUNDATION_COUNT + BATTERY_PLACES)
STOCK = BATTERY_PILES.stop
TURNED = STOCK + 1
TALON_PILE = STOCK + 2
#: The foundations each suit's cards may go to: its two aces and its two twos.
SUIT_FOUNDATIONS = {s: tuple(i for i in FOUNDATION_PILES if _foundation_base(i).suit is s)
                    for s in SUITS}

GRID = (_APEX_X + 1.0 + 7 * _DX + 0.9, _LOW_Y + 1.1)

PACK = TurnedCard(STOCK, TURNED, TALON_PILE, deal_rule=DEAL, talon_rule=TALON,
                  redeal_rule=REDEAL, redeals=1, whole="entire",
                  to_talon="A card turned up goes to the talon when the next card is turned; "
                  "nothing else goes there.",
                  from_pack="The pack is dealt by turning its cards up one at a time (Turn up "
                  "the next card).",
                  redeal_words="The talon is taken up, turned over and dealt again.")


def _narrow_layout() -> Layout:
    """For a phone: the pyramid opened out into two rows of eight (its left half, from the
    foot up to the apex, above its right half, from the apex down), the battery's rows of one,
    three and five below, and the pack, the card turned up and the talon at the foot."""
    at: dict[str, tuple[float, float, int]] = {}
    for i in FOUNDATION_PILES:
        at[f"f{i}"] = (float(i % 8), 1.05 * (i // 8), 0)
    top = 2.4
    for j in range(BATTERY_PLACES):
        x, y = _battery_at(j)
        at[f"b{j}"] = (x - _MID + 3.5, y - 1.2 + top, 0)
    foot = top + 4.6
    at |= {"stock": (2.0, foot, 0), "turned": (3.5, foot, 0), "talon": (5.0, foot, 0)}
    return Layout("narrow", (8.0, foot + 1.1), at, max_width=560)


def accepts(pile: tuple[Card, ...], card: Card) -> bool:
    """Whether a foundation takes ``card`` next: its own suit, two higher (Rules I and II);
    an ace's foundation ends with its king, a two's with its queen."""
    top = pile[-1]
    return card.suit is top.suit and card.rank == top.rank + 2


def fits(card: Card, top: Card) -> bool:
    """Whether ``card`` may be placed on the battery card ``top``: the same suit, two lower
    (Rules I and III)."""
    return card.suit is top.suit and card.rank == top.rank - 2


def _a(rank: int) -> str:
    name = RANK_NAMES[rank]
    return ("an " if name[0] in "ae" else "a ") + name


class MountOlympus(Game):
    slug = SLUG
    title = "Mount Olympus"
    packs = PACKS
    Options = MountOlympusOptions
    PILES = PILES
    VARS = ("redeals",)
    GRID = GRID
    LAYOUTS = (_narrow_layout(),)
    FIGURES = (
        Figure("tableau", "Mount Olympus after the deal, in modern cards.",
               "The tableau of Mount Olympus just after the deal, drawn in modern cards: "
               "sixteen foundations in the form of an inverted V, an ace and a two side by "
               "side at the apex and seven cards stepping down each leg, aces and twos "
               "alternating all the way round; inside it the battery of nine cards, in rows "
               "of one, three and five. The pack and the talon are not shown.",
               piles=tuple(p.id for p in PILES[:BATTERY_PILES.stop])),
    )
    DIAGRAM_DEAL = 1
    ACTIONS = (
        ActionSpec("deal", "Turn up the next card", "t", DEAL),
        ActionSpec("redeal", "Re-deal the talon", "e", REDEAL),
    )
    LEDGER = {
        RULE_I: "A foundation takes only cards of its own suit, and a card is placed on the "
                "battery only on a card of its own suit; another suit is refused.",
        RULE_II: "An ace’s foundation takes the three, five, seven, nine, knave and king of "
                 "its suit, a two’s the four, six, eight, ten and queen, each in that order; "
                 "a card of another rank is refused, a finished foundation takes nothing, and "
                 "a card played there never leaves it.",
        RULE_III: "A card goes on a battery card only if it is two lower in the same suit (a "
                  "seven on a nine, a ten on a queen, a knave on a king); anything else is "
                  "refused, and nothing is placed on a three or a four.",
        RULE_IV: "Only the uppermost card of a battery place moves; a card beneath it is "
                 "refused until the cards above it have gone.",
        PYRAMID: "The deal withdraws the eight aces and eight twos and lays them as the "
                 "pyramid, aces and twos alternating round an inverted V; they are the "
                 "sixteen foundations and never move.",
        BATTERY: "The deal then lays nine cards from the shuffled pack, face up, in the nine "
                 "places of the battery, in rows of one, three and five.",
        BATTERY_PLAY: "The uppermost card of a battery place may be played on its foundation "
                      "or placed on another place’s uppermost card, at any time and one card "
                      "at a time; it may not be moved into a space.",
        TALON: "The talon is one packet, face up, of the cards turned up and not used; only "
               "its top card shows and can be used (played, placed on the battery or put "
               "into a space). By default the next card cannot be turned while the card "
               "turned up could be played or placed on the battery (MO-3); under MO-3’s "
               "other reading any card may be laid aside.",
        DEAL: "Turn up the next card lays the card turned before it, if unused, on the talon "
              "and turns the pack’s top card; the card turned up may be played on a "
              "foundation or placed on the battery; with the pack exhausted it is refused.",
        SPACES: "An empty battery place may be filled, when the player chooses, with the card "
                "turned up or the talon’s top card, and is then built on like the others; a "
                "card from the battery is refused there.",
        SUCCESS: "The game is won when all 104 cards are on the foundations, the aces’ ending "
                 "with kings and the twos’ with queens; it is lost when the pack is "
                 "exhausted, no re-deal is left, and no series of moves can bring a card the "
                 "foundations take within reach or uncover a card not yet seen.",
        REDEAL: "Once the pack is exhausted, the talon (with the card turned up, if unused) "
                "may be turned over, unshuffled, to form the pack again, once; a second "
                "re-deal, or one with cards left in the pack, is refused.",
    }

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        for f in FOUNDATION_PILES:
            piles[f] = (_foundation_base(f),)
        rest = [c for c in pack(PACKS) if c.rank not in (ACE, 2)]
        stock = list(shuffled(rest, deal))
        for b in BATTERY_PILES:          # the battery, from the pack's top
            piles[b] = (stock.pop(),)
        piles[STOCK] = tuple(stock)
        return State(tuple(piles), (0,))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        for f in FOUNDATION_PILES:
            pile = p[f]
            if not pile or pile[0] != _foundation_base(f):
                raise PositionError(f"{PILES[f].label} must lie in its own place")
            if any(not accepts(pile[:k], pile[k]) for k in range(1, len(pile))):
                raise PositionError(f"{PILES[f].label} is not built in order")
        if any(c.rank in (ACE, 2) for i in range(BATTERY_PILES.start, len(PILES))
               for c in p[i]):
            raise PositionError("the aces and twos are all foundations")
        for b in BATTERY_PILES:
            pile = p[b]
            if any(not fits(pile[k], pile[k - 1]) for k in range(1, len(pile))):
                raise PositionError(f"{PILES[b].label} is not built in alternate descending "
                                    "sequence")
        if len(p[TURNED]) > 1:
            raise PositionError("the card turned up is a single card")
        if state.vars[0] not in (0, 1):
            raise PositionError("the talon is re-dealt once at most")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def foundation_refusal(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        if accepts(pile, card):
            return None
        label = PILES[f].label
        base, top = pile[0], pile[-1]
        if card.suit is not base.suit:
            return IllegalMove(RULE_I, f"The foundations follow suit: {label} takes only "
                               f"{base.suit.noun}.")
        if top.rank == LAST[base.rank]:
            return IllegalMove(RULE_II, f"{label[:1].upper()}{label[1:]} is finished: it "
                               f"ends with its {RANK_NAMES[top.rank]}.")
        kind = ("the aces ascend in odd numbers to the kings" if base.rank == ACE
                else "the twos ascend in even numbers to the queens")
        return IllegalMove(RULE_II, f"The foundations ascend in alternate sequences ({kind}): "
                           f"{label} needs the {Card(top.rank + 2, base.suit).name} next.")

    @staticmethod
    def battery_refusal(card: Card, top: Card) -> IllegalMove | None:
        if fits(card, top):
            return None
        if card.suit is not top.suit:
            return IllegalMove(RULE_I, f"The battery follows suit: the {card.name} cannot go "
                               f"on the {top.name}.")
        if top.rank <= 4:
            return IllegalMove(RULE_III, f"Cards are placed on the battery two lower: nothing "
                               f"goes on {_a(top.rank)}, since the aces and twos are all "
                               "foundations.")
        return IllegalMove(RULE_III, f"Cards are placed on the battery in alternate "
                           f"descending sequence: the {top.name} takes only the "
                           f"{Card(top.rank - 2, top.suit).name}.")

    def use_of(self, state: State, card: Card) -> str | None:
        """Where a card turned up could be employed (played on a foundation or placed on a
        battery card), in words; None when it could not be (a space is not a sequence:
        filling one is no employment)."""
        p = state.piles
        return turned_card_use(
            card, ((PILES[f].label, p[f]) for f in SUIT_FOUNDATIONS[card.suit]),
            ((PILES[b].label, p[b]) for b in BATTERY_PILES), founds=accepts, fits=fits)

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        p = state.piles
        sources = [b for b in BATTERY_PILES if p[b]] + [s for s in (TURNED, TALON_PILE)
                                                         if p[s]]
        for s in sources:
            card = p[s][-1]
            sid = PILES[s].id
            for f in SUIT_FOUNDATIONS[card.suit]:
                yield Move.step(sid, PILES[f].id)
            for b in BATTERY_PILES:
                if b != s:
                    yield Move.step(sid, PILES[b].id)
        yield Move(action="deal")
        yield Move(action="redeal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        p = state.piles
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        # where the card comes from
        if si in FOUNDATION_PILES:
            if step.k == 0:
                return IllegalMove(PYRAMID, "The aces and twos are the foundations: they stay "
                                   "in the pyramid.")
            return IllegalMove(RULE_II, "Cards played on the foundations stay there.")
        if si in BATTERY_PILES and not step.top:
            return IllegalMove(RULE_IV, "Only the uppermost card of a battery place is "
                               "available: the cards beneath wait until it is removed.")
        refusal = PACK.refuse_source(si, step.top)
        if refusal is not None:
            return refusal
        # where it goes
        if di in FOUNDATION_PILES:
            return self.foundation_refusal(state, di, card)
        if di in BATTERY_PILES:
            if not p[di]:
                if si in BATTERY_PILES:
                    return IllegalMove(SPACES, "A space in the battery is refilled from the "
                                       "pack or the talon, not with a card of the battery.")
                return None
            return self.battery_refusal(card, p[di][-1])
        return PACK.refuse_destination(di) or IllegalMove(
            BOARD, f"Nothing may be put on {PILES[di].label}.")

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action in ("deal", "redeal"):   # MO-3: a card that could be used must be, or not
            return PACK.refuse_action(state, action,
                                      self.use_of if self.options.turned_card else None)
        return IllegalMove(BOARD, f"Mount Olympus has no action {action!r}.")

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        redeals = state.vars[0]
        if move.action:   # every card turned up waits in its place until the next is turned
            redeals = PACK.apply_action(piles, state, move.action)
        else:
            step = self.resolve_step(state, move)
            assert isinstance(step, Step)
            piles[step.src] = piles[step.src][:-1]
            piles[step.dst] = piles[step.dst] + (step.card,)
        return State(tuple(piles), (redeals,))

    def pack_move(self, state: State, legal: list[Move]) -> Move | None:
        """A click on the pack turns up the next card, or re-deals the talon once the pack is
        exhausted (refused, with the reason, when it may not)."""
        if state.piles[STOCK] or state.vars[0]:
            return Move(action="deal")
        return Move(action="redeal")

    # ---- the solver ------------------------------------------------------------------
    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """The nine battery places (no rule tells them apart), and each pair of foundations
        begun with the same card (an ace or a two of one suit)."""
        pairs = tuple((i, i + 8) for i in range(8))
        return (tuple(BATTERY_PILES), *pairs)

    # ---- the end ---------------------------------------------------------------------
    @staticmethod
    def played(state: State) -> int:
        return sum(len(state.piles[f]) for f in FOUNDATION_PILES)

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: LOST costs a search, and is a dead end to the solver anyway."""
        return Outcome.WON if self.played(state) == TOTAL else None

    def outcome_of(self, state: State) -> Outcome | None:
        if self.played(state) == TOTAL:
            return Outcome.WON
        if not PACK.spent(state):
            return None  # a card can still be turned up, or the re-deal is still to come
        # The pack is out and nothing can be re-dealt (MO-7). Every win needs another card
        # played to a foundation; if no series of the other moves brings a card the
        # foundations take within reach, or uncovers a card not yet seen (the one beneath the
        # talon's top), no card will ever be played again: lost. A search that gives up leaves
        # the verdict open.
        return Outcome.LOST if self.remembered(state, self.progress_reachable) is False else None

    def wanted(self, state: State) -> frozenset[Card]:
        """Every card some foundation would take now."""
        out: set[Card] = set()
        for f in FOUNDATION_PILES:
            top = state.piles[f][-1]
            if top.rank < LAST[state.piles[f][0].rank]:
                out.add(Card(top.rank + 2, top.suit))
        return frozenset(out)

    def progress_reachable(self, state: State, limit: int = 4000) -> bool | None:
        """With the pack out and no re-deal to come: whether some series of moves other than
        plays brings within reach a card a foundation takes, or uncovers the card beneath the
        talon's top (which the player has not seen): True; False if none does; None if the
        search gave up after ``limit`` positions. The search reads no card the player cannot
        see."""
        wanted = self.wanted(state)
        p = state.piles
        talon = p[TALON_PILE]
        Key = tuple[tuple[tuple[Card, ...], ...], Card | None, Card | None]
        start: Key = (tuple(sorted(p[b] for b in BATTERY_PILES)),
                      p[TURNED][0] if p[TURNED] else None, talon[-1] if talon else None)
        seen = {start}
        todo = [start]
        while todo:
            cols, tu, tt = todo.pop()
            free = [col[-1] for col in cols if col] + [c for c in (tu, tt) if c is not None]
            if any(c in wanted for c in free):
                return True
            nexts: list[Key] = []
            for a, col in enumerate(cols):         # a battery card onto another
                if not col:
                    continue
                for b, q in enumerate(cols):
                    if a != b and q and fits(col[-1], q[-1]):
                        nxt = list(cols)
                        nxt[a], nxt[b] = col[:-1], q + (col[-1],)
                        nexts.append((tuple(sorted(nxt)), tu, tt))
            for loose, is_turned in ((tu, True), (tt, False)):
                if loose is None:
                    continue
                for b, q in enumerate(cols):       # onto the battery, or into a space
                    if not q or fits(loose, q[-1]):
                        if not is_turned and len(talon) > 1:
                            return True  # the card beneath the talon's top would be seen
                        nxt = list(cols)
                        nxt[b] = q + (loose,)
                        nexts.append((tuple(sorted(nxt)), None if is_turned else tu,
                                      tt if is_turned else None))
            for key in nexts:
                if key not in seen:
                    if len(seen) >= limit:
                        return None
                    seen.add(key)
                    todo.append(key)
        return False

    # ---- board -----------------------------------------------------------------------
    def status_line(self, state: State, out: Outcome | None) -> str:
        played = self.played(state) - FOUNDATION_COUNT
        if out is Outcome.WON:
            return "Won: the pyramid is formed of alternate kings and queens."
        if out is Outcome.LOST:
            return (f"Nothing more can be brought to the foundations: the patience has failed "
                    f"with {played} of 88 cards played.")
        p = state.piles
        parts = [f"Pack: {plural(len(p[STOCK]), 'card')}" if p[STOCK]
                 else "the pack is exhausted",
                 f"talon: {plural(len(p[TALON_PILE]), 'card')}",
                 "re-deal used" if state.vars[0] else "re-deal still to come",
                 f"{played} of 88 on the foundations"]
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        p = state.piles
        if move.action:
            words = PACK.describe(state, move.action)
            if words is not None:
                return words
        if move.steps:
            step = self.resolve_step(state, move)
            if isinstance(step, Step):
                where = {TURNED: " turned up", TALON_PILE: " from the talon"}.get(
                    step.src, " from the battery")
                if step.dst in FOUNDATION_PILES:
                    return (f"The {step.card.name}{where} is played on "
                            f"{PILES[step.dst].label}.")
                if p[step.dst]:
                    return (f"The {step.card.name}{where} is placed on the "
                            f"{p[step.dst][-1].name} of {PILES[step.dst].label}.")
                return f"The {step.card.name}{where} fills {PILES[step.dst].label}."
        return super().describe(state, move)

"""The Queens (two packs), by the book: 1914 printing, plate p. 76, text pp. 77–78.

Piles: eight places for the kings, the foundations, each built up in suit from its king
through the ace to the queen; the shutter, seven places in two rows (four and three), where
cards marry in descending line; the key, thirty-two cards face up of which only the top one is
available, and only for the foundations; the pack, the card just turned from it, and the talon.

The queens pay: a queen uppermost on the key sends fourteen cards, herself included, from the
top of the key to the bottom of the pack (Rule IV); each time the pack is exhausted, every queen
in the talon buys three cards from the bottom of the talon, which form a fresh pack (Rule V). See the chapter page for the text each rule id points at, and its editorial
notes (``note-qu-N``) for the readings behind the options.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import ACE, KING, QUEEN, RANK_NAMES, SUITS, Card, pack
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
from .rules import play_reachable, plural, turned_card_words

SLUG = "the-queens"


def _rule(name: str) -> str:
    return f"{SLUG}-{name}"


# Anchors of the sentences in the chapter text.
RULE_1 = _rule("rule-1")            # the foundations follow suit
RULE_2 = _rule("rule-2")            # only the uppermost card of the key is available
RULE_3 = _rule("rule-3")            # key cards only to the foundations, never on the shutter
RULE_4 = _rule("rule-4")            # queens paid from the top of the key (fourteen, herself in)
RULE_5 = _rule("rule-5")            # queens paid from the bottom of the talon (three, herself out)
KEY = _rule("key")                  # thirty-two cards face up on the left: the key
KEY_QUEENS = _rule("key-queens")    # a queen uppermost on the key: fourteen cards to the pack
SHUTTER = _rule("shutter")          # seven cards in two rows of four and three: the shutter
KINGS = _rule("kings")              # kings appearing are placed in a row above
FOUNDATIONS = _rule("foundations")  # the eight kings ascend through aces to queens
PLAY = _rule("play-shutter")        # play suitable cards from the shutter, refilling at once
KEY_FIRST = _rule("key-first")      # always look first for a key card, and play it in preference
MARRY = _rule("marry")              # shutter cards marry in descending line, with pack or talon
DEAL = _rule("deal")                # deal out the rest of the pack, playing, marrying, refilling
TALON = _rule("talon")              # the unsuitable cards forming a talon
COUNT = _rule("count")              # count the queens placed in the talon; three cards each
AGAIN = _rule("again")              # deal the fresh pack and count the queens again
ENTIRETY = _rule("entirety")        # the talon is not re-dealt in its entirety
SHORT = _rule("short")              # a talon too short to pay: take all that remain
BOARD = _rule("board")              # the board itself (notation errors, empty places)

KEY_SIZE = 32
KEY_PAYMENT = 14
TALON_PAYMENT = 3
SHUTTER_PLACES = 7
FOUNDATION_CARDS = 8 * 13


class KeyQueens(Enum):
    """When a queen uppermost on the key pays (QU-2)."""

    ALWAYS = "always"
    LAYOUT = "layout"


class TalonCount(Enum):
    """Which queens pay when the pack is exhausted (QU-3)."""

    ALL = "all"
    PASS = "pass"


class TalonQueens(Enum):
    """What becomes of queens lying among the cards counted off the talon (QU-4)."""

    ALONG = "along"
    STAY = "stay"


@dataclass(frozen=True, slots=True)
class QueensOptions:
    key_queens: KeyQueens = option(
        KeyQueens.ALWAYS, note="note-qu-2", label="A queen uppermost on the key pays",
        labels={KeyQueens.ALWAYS: "whenever she comes to the top, during play as well",
                KeyQueens.LAYOUT: "only when the key is laid out"})
    talon_count: TalonCount = option(
        TalonCount.ALL, note="note-qu-3",
        label="When the pack is exhausted, the queens who pay",
        labels={TalonCount.ALL: "every queen the talon holds, again at each exhaustion",
                TalonCount.PASS: "only those laid since the pack was last formed"})
    talon_queens: TalonQueens = option(
        TalonQueens.STAY, note="note-qu-4",
        label="Queens lying among the cards taken from the talon",
        labels={TalonQueens.STAY: "stay in the talon",
                TalonQueens.ALONG: "go with them into the fresh pack, not counted"})
    lay_aside: bool = option(
        False, note="note-qu-6", label="A card turned up that could be played or married",
        labels={False: "must be used: only unsuitable cards go to the talon",
                True: "may be laid on the talon all the same"})
    key_first: bool = option(
        False, note="note-qu-7", label="“Play the key card in preference”",
        labels={False: "advice: the board does not insist",
                True: "a rule: while the key’s card can be played, nothing else is"})


# ---- piles ----------------------------------------------------------------------------

_SHUTTER_AT = ((2.0, 1.25), (3.0, 1.25), (4.0, 1.25), (5.0, 1.25),
               (2.5, 3.2), (3.5, 3.2), (4.5, 3.2))


def _shutter(i: int) -> PileSpec:
    row, place = ("upper", i + 1) if i < 4 else ("lower", i - 3)
    x, y = _SHUTTER_AT[i]
    return PileSpec(f"s{i}", f"shutter, {row} row, place {place}", Role.TABLEAU, x=x, y=y,
                    fan=Fan.DOWN, fan_limit=0.75 if i < 4 else 1.1)


PILES: tuple[PileSpec, ...] = (
    tuple(PileSpec(f"f{j}", f"foundation {j + 1}", Role.FOUNDATION, x=float(j), y=0.0,
                   mark="king") for j in range(8))
    + tuple(_shutter(i) for i in range(SHUTTER_PLACES))
    + (PileSpec("key", "the key", Role.RESERVE, x=0.0, y=3.2),
       PileSpec("stock", "the pack", Role.STOCK, x=7.0, y=1.25),
       PileSpec("turned", "the card turned up", Role.RESERVE, x=7.0, y=2.45),
       PileSpec("talon", "the talon", Role.TALON, x=7.0, y=3.65))
)

FOUNDATION_PILES = range(0, 8)
SHUTTER_PILES = range(8, 15)
KEY_PILE = 15
STOCK = 16
TURNED = 17
TALON_PILE = 18

V_LAID, V_QUEENS, V_HELD = 0, 1, 2


def next_rank(pile: tuple[Card, ...]) -> int | None:
    """The rank a foundation place takes next: a king when empty, then ace, two ... queen
    (None when complete)."""
    if not pile:
        return KING
    top = pile[-1].rank
    if top == KING:
        return ACE
    if top == QUEEN:
        return None
    return top + 1


def accepts(pile: tuple[Card, ...], card: Card) -> bool:
    """Whether a foundation place takes ``card`` next."""
    if not pile:
        return card.rank == KING
    return card.suit is pile[0].suit and card.rank == next_rank(pile)


def marries(pile: tuple[Card, ...], card: Card) -> bool:
    """Whether ``card`` marries in descending line on a shutter packet: on the card of its
    own suit one higher in value (the packet must not be empty)."""
    return bool(pile) and pile[-1].suit is card.suit and pile[-1].rank == card.rank + 1


def pay_key(key: tuple[Card, ...], stock: tuple[Card, ...]
            ) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Rule IV, for as long as a queen lies uppermost on the key: fourteen cards (or all that
    remain) taken from the top of the key, the queen among them, turned over and put at the
    bottom of the pack (the queen becomes its bottom card). Returns (key, pack)."""
    while key and key[-1].rank == QUEEN:
        block = key[-KEY_PAYMENT:]
        key = key[:-KEY_PAYMENT]
        stock = block[::-1] + stock
    return key, stock


class TheQueens(Game):
    slug = SLUG
    title = "The Queens"
    packs = 2
    Options = QueensOptions
    PILES = PILES
    VARS = ("laid", "queens", "held")
    GRID = (8.0, 5.2)
    LEDGER = {
        RULE_1: "A foundation takes only cards of its king’s suit.",
        RULE_2: "Only the top card of the key can be moved; the card beneath becomes "
                "available when it has gone.",
        RULE_3: "The key’s top card may go only to a foundation (a king to an empty place); "
                "it is refused on the shutter, on the talon and anywhere else.",
        RULE_4: "A queen uppermost on the key sends at once fourteen cards from the top of "
                "the key, herself among them, turned over to the bottom of the pack, so that "
                "she is its last card (all that remain when fewer): whenever she comes to the "
                "top, or, under QU-2’s other reading, only when the key is laid out.",
        RULE_5: "When the pack is exhausted, three cards for each queen counted are taken "
                "from the bottom of the talon and form a fresh pack; the queens themselves "
                "are not among the three (QU-4: queens lying among the cards taken stay in "
                "the talon, or, under the other reading, go along uncounted).",
        KEY: "The deal lays thirty-two cards face up as the key; the board shows its top card "
             "and how many lie beneath.",
        KEY_QUEENS: "At the deal, each queen that comes uppermost on the key pays fourteen "
                    "cards to the bottom of the pack, and the next one too, until the top "
                    "card is not a queen or the key is gone.",
        SHUTTER: "Seven cards from the pack are dealt into the shutter, an upper row of four "
                 "and a lower row of three.",
        KINGS: "A king dealt into the shutter, at the deal or when a space is refilled, goes "
               "at once to the first empty place of the row above, and the next card of the "
               "pack takes its place.",
        FOUNDATIONS: "A foundation place takes any king, then the ace of that king’s suit, "
                     "the two and so on up to the queen; cards on the foundations stay "
                     "there; the game is won when all eight end with queens.",
        PLAY: "The top card of any shutter packet may be played to a foundation at any time; "
              "a space in the shutter is refilled at once with the next card of the pack, "
              "and stays empty when there is no pack.",
        KEY_FIRST: "By default advice only; under QU-7’s other reading, while the key’s top "
                   "card can be played to a foundation, no other card may be played there.",
        MARRY: "The top card of a shutter packet, the card turned up or the talon’s top card "
               "may be placed on a shutter packet whose top card is of the same suit and one "
               "higher; one card at a time; never on an empty place, and never a key card.",
        DEAL: "“Turn up the next card” turns the pack’s top card; the next may be turned "
              "only when it has been played, married or laid on the talon; the player may "
              "turn a card at any time.",
        TALON: "A card turned up that can be neither played nor married goes to the talon at "
               "once; one that can must be used (or, under QU-6’s other reading, may be laid "
               "aside); only the talon’s top card is shown and can be used.",
        COUNT: "Each queen laid in the talon is counted (the status line keeps the count; one "
               "taken off again is uncounted); when the pack is exhausted each buys three "
               "cards from the bottom of the talon, turned over to form the fresh pack.",
        AGAIN: "The fresh pack is dealt like the first, and when it is exhausted every queen "
               "the talon holds pays again (under QU-3’s other reading, only those laid "
               "during it); when none pays, no fresh pack is formed and play goes on with "
               "what is in view.",
        ENTIRETY: "Only the cards paid for leave the talon; the rest stays where it is, under "
                  "the cards laid during the next pass.",
        SHORT: "When the talon holds too few cards to pay three for each queen, all of it but "
               "its queens is taken (under QU-4’s other reading, the queens too).",
    }
    FIGURES = (
        Figure("tableau", "The Queens after the deal, in modern cards.",
               "The tableau of the Queens just after the deal, drawn in modern cards: across "
               "the top a row of eight places for the kings, those of any kings dealt into the "
               "shutter filled; below them the shutter, a row of four cards over a row of "
               "three; at the lower left the key, a packet face up of which the top card "
               "shows; at the right the pack face down, the place of the card turned up and "
               "the place of the talon."),
    )
    ACTIONS = (
        ActionSpec("deal", "Turn up the next card", "t", DEAL),
    )

    # ---- deal ------------------------------------------------------------------------
    @classmethod
    def initial_state(cls, deal: int, options: Any) -> State:
        stock = tuple(shuffled(pack(2), deal))
        piles: list[tuple[Card, ...]] = [()] * len(PILES)
        # The key: thirty-two cards taken from the pack, face up (the pack's top card first,
        # so that it ends at the bottom of the key).
        key = stock[-KEY_SIZE:][::-1]
        stock = stock[:-KEY_SIZE]
        key, stock = pay_key(key, stock)
        piles[KEY_PILE] = key
        piles[STOCK] = stock
        _refill(piles)  # the shutter, kings going to the row above
        return State(tuple(piles), (0, 0, 0))

    @classmethod
    def parse_state(cls, text: str, vars_text: str | None, options: Any) -> State:
        state = super().parse_state(text, vars_text, options)
        p = state.piles
        for f in FOUNDATION_PILES:
            pile = p[f]
            for k in range(len(pile)):
                if not accepts(pile[:k], pile[k]):
                    raise PositionError(f"{PILES[f].label} is not built in order")
        for i in SHUTTER_PILES:
            pile = p[i]
            if any(c.rank == KING for c in pile):
                raise PositionError("a king lies in the shutter")
            for k in range(1, len(pile)):
                if not marries(pile[:k], pile[k]):
                    raise PositionError(f"{PILES[i].label} is not married in descending line")
        key = p[KEY_PILE]
        if key and key[-1].rank == QUEEN and options.key_queens is KeyQueens.ALWAYS:
            raise PositionError("a queen uppermost on the key would have paid (Rule IV)")
        if len(p[TURNED]) > 1:
            raise PositionError("more than one card turned up")
        laid, queens, held = state.vars
        talon = p[TALON_PILE]
        if held != sum(1 for c in talon if c.rank == QUEEN):
            raise PositionError("the count of the queens held in the talon does not match it")
        if not 0 <= laid <= len(talon):
            raise PositionError("more cards laid on the talon in this pass than it holds")
        top = talon[len(talon) - laid:] if laid else ()
        if queens != sum(1 for c in top if c.rank == QUEEN):
            raise PositionError("the count of queens does not match the talon")
        owed = _owed(options, held, queens)
        if (owed and not p[STOCK] and not p[TURNED]
                and (options.talon_count is TalonCount.PASS
                     or _pay_talon(options, talon, owed)[0])):
            raise PositionError("the pack is exhausted: the queens counted would have paid "
                                "for a fresh pack at once (Rule V)")
        if p[STOCK] and any(not p[i] for i in SHUTTER_PILES):
            raise PositionError("a space in the shutter would have been refilled at once "
                                "from the pack")
        return state

    # ---- helpers ---------------------------------------------------------------------
    def _fits(self, state: State, card: Card) -> bool:
        return any(accepts(state.piles[f], card) for f in FOUNDATION_PILES)

    def _marriable(self, state: State, card: Card) -> bool:
        return any(marries(state.piles[i], card) for i in SHUTTER_PILES)

    def suitable(self, state: State, card: Card) -> bool:
        """The book's *suitable*: fit to be played on a foundation or placed in the
        tableau (here, married on the shutter)."""
        return self._fits(state, card) or self._marriable(state, card)

    def _key_blocks(self, state: State, si: int) -> bool:
        """Under QU-7's strict reading: whether a card from ``si`` may not go to a
        foundation because the key's top card could be played instead."""
        if not self.options.key_first or si == KEY_PILE:
            return False
        key = state.piles[KEY_PILE]
        return bool(key) and self._fits(state, key[-1])

    # ---- rules -----------------------------------------------------------------------
    def candidate_moves(self, state: State) -> Iterator[Move]:
        piles = state.piles
        sources = [i for i in SHUTTER_PILES if piles[i]]
        for extra in (KEY_PILE, TURNED, TALON_PILE):
            if piles[extra]:
                sources.append(extra)
        for i in sources:
            card = piles[i][-1]
            for f in FOUNDATION_PILES:
                if accepts(piles[f], card):
                    yield Move.step(PILES[i].id, PILES[f].id)
            if i == KEY_PILE:
                continue
            for j in SHUTTER_PILES:
                if j != i and marries(piles[j], card):
                    yield Move.step(PILES[i].id, PILES[j].id)
        if piles[TURNED]:
            yield Move.step("turned", "talon")
        yield Move(action="deal")

    def refuse_step(self, state: State, step: Step) -> IllegalMove | None:
        si, di, card = step.src, step.dst, step.card
        if not step.top:
            if si == KEY_PILE:
                return IllegalMove(RULE_2, "Only the uppermost card of the key is available: "
                                   "the card beneath is released when it has gone.")
            if si == TALON_PILE:
                return IllegalMove(TALON, "Only the top card of the talon can be used.")
            if si in SHUTTER_PILES:
                return IllegalMove(MARRY, "Only the top card of a shutter packet can be moved, "
                                   "one card at a time.")
            return IllegalMove(BOARD, "Only the top card of a pile can be moved.")
        if si in FOUNDATION_PILES:
            return IllegalMove(FOUNDATIONS, "Cards played on the foundations stay there.")
        if si == STOCK:
            return IllegalMove(DEAL, "The pack is dealt by turning its cards up one by one "
                               "(Turn up the next card).")
        if si == KEY_PILE and di not in FOUNDATION_PILES:
            if di in SHUTTER_PILES:
                return IllegalMove(RULE_3, "Cards from the key may not be placed on the "
                                   "shutter: they can only be played on the foundations.")
            return IllegalMove(RULE_3, "Cards from the key can only be played on the "
                               "foundations.")
        if di in FOUNDATION_PILES:
            why = self._refuse_foundation(state, di, card)
            if why is None and self._key_blocks(state, si):
                key = state.piles[KEY_PILE][-1]
                return IllegalMove(KEY_FIRST, f"The {key.name} on the key can be played: "
                                   "under the reading chosen it must be played first.")
            return why
        if di in SHUTTER_PILES:
            return self._refuse_marriage(state, si, di, card)
        if di == TALON_PILE:
            if si != TURNED:
                return IllegalMove(TALON, "Only cards turned up from the pack are laid on "
                                   "the talon.")
            if not self.options.lay_aside and self.suitable(state, card):
                what = "played on a foundation" if self._fits(state, card) else "married"
                return IllegalMove(TALON, f"The {card.name} can be {what}: only the unsuitable "
                                   "cards form the talon.")
            return None
        if di == KEY_PILE:
            return IllegalMove(KEY, "Nothing is added to the key once it is laid out.")
        if di == TURNED:
            return IllegalMove(DEAL, "Only the pack’s next card is turned up there.")
        return IllegalMove(BOARD, f"Nothing may be put on {PILES[di].label}.")

    def _refuse_foundation(self, state: State, f: int, card: Card) -> IllegalMove | None:
        pile = state.piles[f]
        if accepts(pile, card):
            return None
        label = PILES[f].label
        if not pile:
            return IllegalMove(KINGS, f"The kings are the foundations: {label} is empty and "
                               "takes only a king.")
        base = pile[0]
        if card.suit is not base.suit:
            return IllegalMove(RULE_1, f"The foundations follow suit: {label}, on the "
                               f"{base.name}, takes only {base.suit.noun}.")
        nxt = next_rank(pile)
        if nxt is None:
            return IllegalMove(FOUNDATIONS, f"{label[:1].upper()}{label[1:]} is complete: it "
                               "ends with its queen.")
        return IllegalMove(FOUNDATIONS, f"The foundations ascend through the aces to the "
                           f"queens: {label} needs the {Card(nxt, base.suit).name} next.")

    def _refuse_marriage(self, state: State, si: int, di: int, card: Card) -> IllegalMove | None:
        pile = state.piles[di]
        label = PILES[di].label
        if not pile:
            return IllegalMove(PLAY, f"The space in {label} is refilled only from the pack, "
                               "at once; with the pack exhausted it stays empty.")
        if si == di:
            return IllegalMove(BOARD, "The card is already there.")
        top = pile[-1]
        if card.suit is not top.suit:
            return IllegalMove(MARRY, f"A marriage is made in one suit: the {card.name} cannot "
                               f"go on the {top.name}.")
        if card.rank != top.rank - 1:
            if top.rank == ACE:
                return IllegalMove(MARRY, f"Cards marry in descending line: nothing goes on "
                                   f"the {top.name}.")
            return IllegalMove(MARRY, "Cards marry in descending line: only the "
                               f"{RANK_NAMES[top.rank - 1]} of {top.suit.noun} goes on the "
                               f"{top.name}.")
        return None

    def refuse_action(self, state: State, action: str) -> IllegalMove | None:
        if action != "deal":
            return IllegalMove(BOARD, f"The Queens has no action {action!r}.")
        if state.piles[TURNED]:
            card = state.piles[TURNED][-1]
            return IllegalMove(DEAL, f"The {card.name} just turned up must first be played, "
                               "married or laid on the talon.")
        if not state.piles[STOCK]:
            return IllegalMove(DEAL, "The pack is exhausted, and no queen laid in the talon "
                               "is left to pay for a fresh one.")
        return None

    def apply(self, state: State, move: Move) -> State:
        piles = list(state.piles)
        laid, queens, held = state.vars
        if move.action == "deal":
            card = piles[STOCK][-1]
            piles[STOCK] = piles[STOCK][:-1]
            piles[TURNED] = (card,)
            if not self.suitable(state, card):  # unsuitable: laid on the talon at once
                piles[TURNED] = ()
                piles[TALON_PILE] = piles[TALON_PILE] + (card,)
                laid += 1
                queens += card.rank == QUEEN
                held += card.rank == QUEEN
        else:
            (src, dst), = move.steps
            si, di = self.pile_index(src), self.pile_index(dst)
            card = piles[si][-1]
            piles[si] = piles[si][:-1]
            piles[di] = piles[di] + (card,)
            if si == TALON_PILE:
                held -= card.rank == QUEEN
                if laid:
                    laid -= 1
                    queens -= card.rank == QUEEN
            if di == TALON_PILE:
                laid += 1
                queens += card.rank == QUEEN
                held += card.rank == QUEEN
        counts = self._settle(piles, laid, queens, held)
        return State(tuple(piles), counts)

    def _settle(self, piles: list[tuple[Card, ...]], laid: int, queens: int, held: int
                ) -> tuple[int, int, int]:
        """What the rules make happen at once after a move: a queen uppermost on the key pays
        (under QU-2's default), spaces of the shutter are refilled from the pack, and an
        exhausted pack is replaced by the queens' payment from the talon."""
        while True:
            if self.options.key_queens is KeyQueens.ALWAYS:
                piles[KEY_PILE], piles[STOCK] = pay_key(piles[KEY_PILE], piles[STOCK])
            _refill(piles)
            owed = _owed(self.options, held, queens)
            if piles[STOCK] or piles[TURNED] or not owed:
                return laid, queens, held
            piles[STOCK], piles[TALON_PILE] = self.pay_talon(piles[TALON_PILE], owed)
            laid = queens = 0
            held = sum(1 for c in piles[TALON_PILE] if c.rank == QUEEN)
            if not piles[STOCK]:
                return laid, queens, held

    def pay_talon(self, talon: tuple[Card, ...], queens: int
                  ) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
        """Rule V: three cards for each queen counted, exclusive of the queens, taken from the
        bottom of the talon (all of them when too few), turned over to form a fresh pack (the
        talon's bottom card becomes the pack's top). Queens met among them stay in the talon,
        or go along uncounted (QU-4). Returns (pack, talon)."""
        return _pay_talon(self.options, talon, queens)

    # ---- the end ---------------------------------------------------------------------
    def _won(self, state: State) -> bool:
        return sum(len(state.piles[f]) for f in FOUNDATION_PILES) == FOUNDATION_CARDS

    def end_reachable(self, state: State) -> bool | None:
        """With the pack exhausted and nothing to pay: whether some series of marriages brings
        a card the foundations want to the top of a shutter packet or of the talon (None if
        the search gave up). The key's top card is looked at by the caller."""
        return play_reachable(
            [state.piles[i] for i in SHUTTER_PILES], state.piles[TALON_PILE],
            self._wanted(state), talon_free=True, fresh=False, column_to_space=False,
            limit=4000)

    def _wanted(self, state: State) -> set[Card]:
        wanted: set[Card] = set()
        for f in FOUNDATION_PILES:
            pile = state.piles[f]
            nxt = next_rank(pile)
            if not pile:
                wanted |= {Card(KING, s) for s in SUITS}
            elif nxt is not None:
                wanted.add(Card(nxt, pile[0].suit))
        return wanted

    def _forced_cycle(self, state: State) -> bool:
        """Whether the only move is to turn a card, and turning cards (the only move each
        time) brings back a position already seen: the same cards then come round for ever
        (Rule V can pay a queen again and again)."""
        seen = set()
        s = state
        for _ in range(600):
            legal = self.legal_in(s)
            if legal != [Move(action="deal")]:
                return False
            if s in seen:
                return True
            seen.add(s)
            s = self.apply(s, legal[0])
        return False

    def _round_hopeless(self, state: State) -> bool:
        """With every queen in the talon paying again (QU-3) the same cards may come round for
        ever. Whether no card can ever reach a foundation, whatever the order of the cards out
        of sight (the verdict reads nothing the player cannot see): the key's card is not
        wanted; no wanted card is out of sight (under the key's card, in the pack, or under the
        talon's top); no card out of sight is one a card in view could marry on; and no series
        of marriages among the cards in view brings a wanted card to a top."""
        p = state.piles
        wanted = self._wanted(state)
        key = p[KEY_PILE]
        if key and key[-1] in wanted:
            return False
        hidden = list(key[:-1]) + list(p[STOCK]) + list(p[TALON_PILE][:-1])
        if any(c in wanted for c in hidden):
            return False
        in_view = [c for i in SHUTTER_PILES for c in p[i]] + list(p[TALON_PILE][-1:])
        in_view += list(p[TURNED])
        bridges = {(c.rank + 1, c.suit) for c in in_view}
        if any((c.rank, c.suit) in bridges for c in hidden):
            return False
        return play_reachable(
            [p[i] for i in SHUTTER_PILES], p[TALON_PILE][-1:] + p[TURNED], wanted,
            talon_free=True, fresh=False, column_to_space=False, limit=4000) is False

    def _lost(self, state: State) -> bool:
        p = state.piles
        if p[STOCK] or p[TURNED]:
            if self.options.talon_count is TalonCount.ALL:
                return self._round_hopeless(state)
            return self._forced_cycle(state)
        key = p[KEY_PILE]
        if key and self._fits(state, key[-1]):
            return False
        return self.end_reachable(state) is False

    def outcome_of(self, state: State) -> Outcome | None:
        if self._won(state):
            return Outcome.WON
        return Outcome.LOST if self.remembered(state, self._lost) else None

    def solver_outcome(self, state: State) -> Outcome | None:
        """Only the win: the loss test searches, and a dead end is found by the solver
        anyway."""
        return Outcome.WON if self._won(state) else None

    def safe_moves(self, state: State, legal: list[Move]) -> list[Move]:
        """A king turned up from the pack, or uppermost on the key, to the first empty place
        of the row above: the places are alike, a king has no other use, and the card beneath
        a king on the key is released the sooner. Under QU-2's default a queen released on
        the key pays at once, and the payment reorders the pack, a choice left to the
        player; the card beneath the king cannot be seen, so while there is one a king on
        the key is left to the player (the board's auto-play must not tell what lies
        beneath)."""
        return self._kings_to_place(state, legal, peek=False)

    def solver_safe(self, state: State, legal: list[Move]) -> Move | None:
        """As :meth:`safe_moves`, but the solver knows every card: a king on the key is played
        first unless a queen lies beneath it who would pay."""
        safe = self._kings_to_place(state, legal, peek=True)
        return safe[0] if safe else None

    def _kings_to_place(self, state: State, legal: list[Move], *, peek: bool) -> list[Move]:
        first = next((f for f in FOUNDATION_PILES if not state.piles[f]), None)
        if first is None:
            return []
        out: list[Move] = []
        key = state.piles[KEY_PILE]
        for src in (TURNED, KEY_PILE):
            pile = state.piles[src]
            if not pile or pile[-1].rank != KING:
                continue
            if (src == KEY_PILE and len(key) > 1
                    and self.options.key_queens is KeyQueens.ALWAYS
                    and (not peek or key[-2].rank == QUEEN)):
                continue
            m = Move.step(PILES[src].id, PILES[first].id)
            if m in legal:
                out.append(m)
        return out

    def solver_alike(self) -> tuple[tuple[int, ...], ...]:
        """The eight places of the kings, and the seven places of the shutter: no rule tells
        them apart by place (a king goes to any empty place, spaces are refilled alike)."""
        return (tuple(FOUNDATION_PILES), tuple(SHUTTER_PILES))

    # ---- board -----------------------------------------------------------------------
    def card_faces(self, state: State, pile: int) -> list[dict[str, Any]]:
        """The key is a packet face up: only its top card can be seen (QU-1)."""
        if pile == KEY_PILE:
            cards = state.piles[pile]
            return [{"c": None} for _ in cards[:-1]] + [{"c": str(c)} for c in cards[-1:]]
        return super().card_faces(state, pile)

    def status_line(self, state: State, out: Outcome | None) -> str:
        played = sum(len(state.piles[f]) for f in FOUNDATION_PILES)
        if out is Outcome.WON:
            return "Won: all eight foundations end with their queens."
        if out is Outcome.LOST:
            return (f"Nothing more can reach the foundations: the patience has failed with "
                    f"{played} of 104 cards played.")
        p = state.piles
        parts = [f"Key: {plural(len(p[KEY_PILE]), 'card')}",
                 f"pack: {plural(len(p[STOCK]), 'card')}" if p[STOCK]
                 else "the pack is exhausted",
                 f"talon: {plural(len(p[TALON_PILE]), 'card')}",
                 f"queens counted: {_owed(self.options, state.vars[V_HELD], state.vars[V_QUEENS])}",
                 f"{played} of 104 on the foundations"]
        if p[TURNED]:
            parts.append(f"place the {p[TURNED][-1].name}")
        return " · ".join(parts)

    def describe(self, state: State, move: Move) -> str:
        words = turned_card_words(self, state, move, stock=STOCK, talon=TALON_PILE,
                                  foundations=FOUNDATION_PILES, columns=SHUTTER_PILES,
                                  suitable=self.suitable, placed="married from {src} to {dst}")
        return words or super().describe(state, move)


def _refill(piles: list[tuple[Card, ...]]) -> None:
    """Every empty place of the shutter takes at once the next card of the pack; a king so
    dealt goes to the first empty place of the row above and the next card takes its place.
    With no pack a space stays empty."""
    for i in SHUTTER_PILES:
        while not piles[i] and piles[STOCK]:
            card = piles[STOCK][-1]
            piles[STOCK] = piles[STOCK][:-1]
            if card.rank == KING:
                f = next(f for f in FOUNDATION_PILES if not piles[f])
                piles[f] = (card,)
            else:
                piles[i] = (card,)


def _owed(options: QueensOptions, held: int, laid_queens: int) -> int:
    """How many queens pay when the pack is exhausted (QU-3): every queen the talon holds
    (``held``, the player's counters), or only those laid on it since the pack was last formed
    (``laid_queens``)."""
    if options.talon_count is TalonCount.ALL:
        return held
    return laid_queens


def _pay_talon(options: QueensOptions, talon: tuple[Card, ...], queens: int
               ) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """See TheQueens.pay_talon."""
    want = TALON_PAYMENT * queens
    along = options.talon_queens is TalonQueens.ALONG
    taken: list[Card] = []
    left: list[Card] = []
    count = 0
    for k, card in enumerate(talon):
        if count == want:
            left += talon[k:]
            break
        if card.rank == QUEEN:
            (taken if along else left).append(card)
        else:
            taken.append(card)
            count += 1
    return tuple(taken[::-1]), tuple(left)

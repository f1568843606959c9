"""Rule pieces more than one game uses."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .cards import ACE, KING, SUITS, Card, Suit
from .core import Game, IllegalMove, Move, PileSpec, State

__all__ = ["SuitFoundations", "deal_together", "plural", "builds_up_from_ace",
           "up_from_ace_refusal", "cards_wanted", "play_reachable", "turned_card_use",
           "marries_down_in_suit", "turn_up", "turned_card_words", "WaitingTurn",
           "TurnedCard", "stuck_after"]

P = TypeVar("P")


def plural(n: int, noun: str) -> str:
    """``"1 card"``, ``"3 cards"``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


@dataclass(frozen=True, slots=True)
class SuitFoundations:
    """An ascending pile (ace to king) and a descending pile (king to ace) for each suit,
    each following suit: the foundations of La Nivernaise and the Zodiac. ``asc`` and
    ``desc`` are the pile indices, in the order of ``SUITS``."""

    asc: range
    desc: range

    def suit(self, pile: int) -> Suit:
        return SUITS[(pile - self.asc.start) % 4 if pile in self.asc
                     else (pile - self.desc.start) % 4]

    def other(self, pile: int) -> int:
        """The same suit's pile going the other way."""
        j = SUITS.index(self.suit(pile))
        return self.desc[j] if pile in self.asc else self.asc[j]

    def next_rank(self, state: State, pile: int) -> int | None:
        """The rank the pile takes next; None when it is complete."""
        p = state.piles[pile]
        if pile in self.asc:
            nxt = p[-1].rank + 1 if p else ACE
        else:
            nxt = p[-1].rank - 1 if p else KING
        return nxt if 1 <= nxt <= 13 else None

    def accepts(self, state: State, pile: int, card: Card) -> bool:
        return card.suit is self.suit(pile) and card.rank == self.next_rank(state, pile)

    def refusal(self, state: State, pile: int, card: Card, spec: PileSpec, suit_rule: str,
                sequence_rule: str, follow: str = "All foundations must follow suit"
                ) -> IllegalMove | None:
        """Why ``card`` may not go on ``pile`` (None if it may): the rule of following suit,
        or the sequence (a pile begins with its ace or king and goes one rank at a time)."""
        suit = self.suit(pile)
        if card.suit is not suit:
            return IllegalMove(suit_rule, f"{follow}: the {spec.label} takes only "
                               f"{suit.noun}.")
        if self.accepts(state, pile, card):
            return None
        nxt = self.next_rank(state, pile)
        if not state.piles[pile]:
            need = "an ace" if pile in self.asc else "a king"
            return IllegalMove(sequence_rule, f"The {spec.label} must begin with {need}.")
        if nxt is None:
            return IllegalMove(sequence_rule, f"The {spec.label} is complete.")
        return IllegalMove(sequence_rule, f"The {spec.label} needs the "
                           f"{Card(nxt, suit).name} next.")


def deal_together(stock: tuple[Card, ...], n: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """Take up to ``n`` cards off the top of the pack (its last cards) together and turn them
    face up, as a packet: returns (the packet, bottom to top; the rest of the pack). The card
    that was on top of the pack ends at the bottom of the packet. "Cards dealt together":
    La Belle Lucie's packets of three (La Nivernaise's four have the same gesture)."""
    k = min(n, len(stock))
    if k == 0:
        return (), stock
    return stock[-k:][::-1], stock[:-k]


# ---------------------------------------------------------------------------- foundations
# begun by any ace and built up in suit to the king (Napoleon at St. Helena, Napoleon's Square)

def builds_up_from_ace(pile: Sequence[Card], card: Card) -> bool:
    """Whether a foundation begun by any ace and built up in suit takes ``card`` next: an ace
    on an empty place, else the next card of its ace's suit, up to the king."""
    if not pile:
        return card.rank == ACE
    top = pile[-1]
    return card.suit is top.suit and top.rank < KING and card.rank == top.rank + 1


def up_from_ace_refusal(pile: Sequence[Card], card: Card, label: str, *, begin_rule: str,
                        suit_rule: str, sequence_rule: str) -> IllegalMove | None:
    """Why such a foundation (``label``: "foundation 3") does not take ``card`` (None if it
    does): only an ace begins it (``begin_rule``), it follows suit (``suit_rule``), it
    ascends one rank at a time to the king (``sequence_rule``)."""
    if builds_up_from_ace(pile, card):
        return None
    if not pile:
        return IllegalMove(begin_rule, f"The aces are the foundation cards: {label} is empty "
                           "and takes only an ace.")
    top = pile[-1]
    if card.suit is not top.suit:
        return IllegalMove(suit_rule, f"The foundations must follow suit: {label} takes only "
                           f"{top.suit.noun}.")
    if top.rank == KING:
        return IllegalMove(sequence_rule, f"{label[:1].upper()}{label[1:]} is complete: it has "
                           "reached its king.")
    return IllegalMove(sequence_rule, f"The foundations ascend in sequence: {label} needs the "
                       f"{Card(top.rank + 1, top.suit).name} next.")


def cards_wanted(foundations: Iterable[Sequence[Card]]) -> set[Card]:
    """The cards that foundations built up from any ace would take now."""
    wanted: set[Card] = set()
    for pile in foundations:
        if not pile:
            wanted |= {Card(ACE, s) for s in SUITS}
        elif pile[-1].rank < KING:
            wanted.add(Card(pile[-1].rank + 1, pile[-1].suit))
    return wanted


# ---------------------------------------------------------------------------- the end game

def play_reachable(columns: Sequence[Sequence[Card]], talon: Sequence[Card],
                   wanted: Iterable[Card], *, talon_free: bool, fresh: bool,
                   column_to_space: bool, limit: int = 4000) -> bool | None:
    """With the pack exhausted and the foundations as they stand: whether some series of
    moves brings a card the foundations want (``wanted``) to the top of a column or of the
    talon, where it could be played. True if one does, False if none does, None if the
    search gave up after ``limit`` positions.

    The moves searched are those of the tableaux of Napoleon at St. Helena and Napoleon's
    Square: a column's top card married on another column's top card of its suit one rank
    higher ("in descending line"); the talon's top card married in the same way, if it may be
    used (``talon_free``, or ``fresh``: it has just been turned; the card beneath it never
    has); the talon's top card put into an empty column; and, if ``column_to_space``, a
    column's top card put into an empty column (from a column of two cards or more: moving a
    lone card gains nothing). No rule looks at a column's place, so positions that differ only
    in the order of the columns are one."""
    def code(c: Card) -> int:  # a card marries below the card whose code is four more
        return 4 * c.rank + SUITS.index(c.suit)

    playable = {code(c) for c in wanted}
    tal = tuple(code(c) for c in talon)
    Key = tuple[tuple[tuple[int, ...], ...], int, int]
    start: Key = (tuple(sorted(tuple(code(c) for c in col) for col in columns)), len(tal),
                  int(fresh))
    seen = {start}
    todo = [start]
    while todo:
        cols, n, fr = todo.pop()
        free = talon_free or bool(fr)
        if any(c and c[-1] in playable for c in cols) or (n and free
                                                         and tal[n - 1] in playable):
            return True
        nexts: list[Key] = []
        for a, p in enumerate(cols):  # moves from a column
            if not p:
                continue
            card = p[-1]
            for b, q in enumerate(cols):
                if a != b and ((q and q[-1] == card + 4)
                               or (not q and column_to_space and len(p) > 1)):
                    nxt = list(cols)
                    nxt[a], nxt[b] = p[:-1], q + (card,)
                    nexts.append((tuple(sorted(nxt)), n, fr))
        if n:  # moves from the talon
            card = tal[n - 1]
            for b, q in enumerate(cols):
                if (not q) or (free and q[-1] == card + 4):
                    nxt = list(cols)
                    nxt[b] = q + (card,)
                    nexts.append((tuple(sorted(nxt)), n - 1, 0))
        for key in nexts:
            if key not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(key)
                todo.append(key)
    return False


def marries_down_in_suit(card: Card, top: Card) -> bool:
    """A marriage one lower in the same suit (the Napoleons' columns)."""
    return top.suit is card.suit and card.rank == top.rank - 1


def turned_card_use(card: Card, foundations: Iterable[tuple[str, P]],
                    columns: Iterable[tuple[str, Sequence[Card]]], *,
                    founds: Callable[[P, Card], bool], fits: Callable[[Card, Card], bool],
                    placed: str = "placed on", vacancy: str | None = None) -> str | None:
    """Where a card just turned from the pack could be employed, in words ("played on
    foundation 1", "placed on the six of clubs of column 2"): on the first foundation that
    ``founds`` says takes it (given each foundation's label and whatever the game's test
    needs), else on the first column whose last card ``fits(card, top)``; None when it can
    be neither played nor placed. A space is no sequence: filling one is no employment
    (the Napoleons, ``placed="married to"``, General Sedgewick, the Olga, Mount Olympus),
    unless ``vacancy`` gives the words for it ("put in the vacancy of": Anna, the
    Fish-bone), when the first empty column is the last use."""
    for label, where in foundations:
        if founds(where, card):
            return f"played on {label}"
    cols = list(columns)
    for label, pile in cols:
        if pile and fits(card, pile[-1]):
            return f"{placed} the {pile[-1].name} of {label}"
    if vacancy is not None:
        for label, pile in cols:
            if not pile:
                return f"{vacancy} {label}"
    return None


def turn_up(piles: list[tuple[Card, ...]], stock: int, turned: int, talon: int) -> None:
    """Turn up the pack's next card in its own place, the card turned up before (if any)
    going to the talon: the deal of the Olga, General Sedgewick and the Terrace."""
    if piles[turned]:
        piles[talon] = piles[talon] + piles[turned]
    piles[turned] = piles[stock][-1:]
    piles[stock] = piles[stock][:-1]


def turned_card_words(game: Game, state: State, move: Move, *, stock: int, talon: int,
                      foundations: Collection[int], columns: Collection[int],
                      suitable: Callable[[State, Card], bool], placed: str) -> str | None:
    """The words for a move in a game where each card turned up is placed at once when it is
    suitable and laid on the talon when not (Red and Black, the Queens): the deal, a card
    played to a foundation, placed on a column (``placed`` names the act and its places,
    e.g. "placed from {src} on {dst}"), or laid on the talon; None for any other move."""
    if move.action == "deal" and state.piles[stock]:
        card = state.piles[stock][-1]
        if suitable(state, card):
            return f"The {card.name} is turned up; it is suitable."
        return f"The {card.name} is turned up and laid on the talon."
    if move.steps:
        (src, dst), = move.steps
        moved = game.card_at(state, src)
        name = moved.name if moved else "a card"
        di = game.pile_index(dst)
        if di in foundations:
            return f"The {name} is played from {game.label(src)} to {game.label(dst)}."
        if di in columns:
            return f"The {name} is " + placed.format(src=game.label(src),
                                                      dst=game.label(dst)) + "."
        if di == talon:
            return f"The {name} is laid on the talon."
    return None


# ---------------------------------------------------------------------------- a waiting card
# turned up: Margarethe, Two Rings

def _turn_or_redeal(piles: list[tuple[Card, ...]], stock: int, turned: int, talon: int,
                    redeals: int, action: str, waits: Callable[[Card], bool],
                    aside: Callable[[Card], int | None]) -> int:
    """Carry out "deal" or "redeal" on ``piles`` (the place of the card turned up being
    empty); returns the count of re-deals after it, given ``redeals`` before. The re-deal
    turns the talon over as it lies: its first card laid becomes the top of the pack. The
    deal turns up the pack's top card, which goes to the pile ``aside`` names for it, if any,
    else waits in its place if it ``waits``, else goes at once to the talon."""
    if action == "redeal":
        piles[stock] = piles[talon][::-1]
        piles[talon] = ()
        return redeals + 1
    card = piles[stock][-1]
    piles[stock] = piles[stock][:-1]
    to = aside(card)
    if to is not None:
        piles[to] = piles[to] + (card,)
    elif waits(card):
        piles[turned] = (card,)
    else:
        piles[talon] = piles[talon] + (card,)
    return redeals


@dataclass(frozen=True, slots=True)
class _PackPlaces:
    """The pack, the place of the card turned up from it and the talon (pile indices), with
    the anchors of the turning of the pack (``deal_rule``), of the unsuitable cards and the
    talon (``talon_rule``) and of the re-deal (``redeal_rule``)."""

    stock: int
    turned: int
    talon: int
    deal_rule: str
    talon_rule: str
    redeal_rule: str


@dataclass(frozen=True, slots=True)
class WaitingTurn(_PackPlaces):
    """The pack of a game in which each card turned up from the pack that a foundation takes
    waits in its own place (``turned``) until it is played there, nothing more being dealt
    meanwhile, and any other card goes at once to the talon; when the pack is exhausted the
    talon may be turned over, unshuffled, and dealt again, once (the count of re-deals is the
    state's first variable). Margarethe and Two Rings.

    Under the reading that holds a card turned up (``hold``: the games' option
    ``unsuitable_to_talon`` set to no) every card turned up waits in its place, the talon's
    top card still in play, and the next card is refused only while it is suitable. Under
    either reading a card left waiting that is no longer suitable (in Two Rings, its twin
    from the bracelet having taken its place) is laid on the talon when the next card is
    turned up, or before the re-deal.

    The anchors: ``deal_rule`` (the turning of the pack), ``talon_rule`` (the unsuitable cards
    and the talon), ``redeal_rule`` (the re-deal) and ``exhausted_rule`` (the anchor a refusal
    to deal from an exhausted pack cites). ``spaces`` says in words how the game's spaces are
    filled from the pack ("a space in the A"); ``its`` ends the sentence of a card that must
    be played ("its foundation", "a foundation"). ``suitable`` is always the game's test of
    a card against the position now: whether a foundation takes it."""

    exhausted_rule: str
    spaces: str
    its: str

    def pending(self, state: State, suitable: Callable[[Card], bool]) -> IllegalMove | None:
        """The refusal of anything dealt while a suitable card turned up waits (None when no
        card waits, or the one that waits is no longer suitable)."""
        turned = state.piles[self.turned]
        if not turned or not suitable(turned[-1]):
            return None
        card = turned[-1]
        return IllegalMove(self.talon_rule, f"The {card.name} just turned up is suitable: it "
                           f"must be played on {self.its} before anything more is dealt; "
                           "only unsuitable cards go to the talon.")

    def refuse_action(self, state: State, action: str,
                      suitable: Callable[[Card], bool]) -> IllegalMove | None:
        """Why "deal" or "redeal" is refused now (None when it is allowed)."""
        p = state.piles
        if action == "deal":
            pending = self.pending(state, suitable)
            if pending is not None:
                return pending
            if not p[self.stock]:
                if state.vars[0] == 0 and (p[self.talon] or p[self.turned]):
                    return IllegalMove(self.exhausted_rule, "The pack is exhausted: the "
                                       "talon may now be re-dealt.")
                return IllegalMove(self.exhausted_rule, "The pack is exhausted.")
            return None
        if p[self.stock]:
            return IllegalMove(self.redeal_rule, "The talon is re-dealt only when the whole "
                               "pack has been dealt out.")
        pending = self.pending(state, suitable)
        if pending is not None:
            return pending
        if state.vars[0]:
            return IllegalMove(self.redeal_rule, "The talon may be re-dealt only once, and "
                               "that has been done.")
        if not (p[self.talon] or p[self.turned]):
            return IllegalMove(self.redeal_rule, "There is no talon to re-deal.")
        return None

    def refuse_source(self, si: int, top: bool, talon_play: bool) -> IllegalMove | None:
        """The refusals of a step taken from the pack, or from the talon other than its top
        card, or from the talon at all unless ``talon_play``; None for any other step."""
        if si == self.stock:
            return IllegalMove(self.deal_rule, "The pack is dealt by turning its cards up one "
                               "by one (Turn up the next card); " + self.spaces + " is filled "
                               "from it at once.")
        if si == self.talon:
            if not top:
                return IllegalMove(self.talon_rule, "Only the top card of the talon can be "
                                   "used.")
            if not talon_play:
                return IllegalMove(self.talon_rule, "Under the reading chosen, the talon’s "
                                   "cards come back into play only through the re-deal.")
        return None

    def refuse_to_talon(self, state: State, si: int,
                        suitable: Callable[[Card], bool]) -> IllegalMove:
        """The refusal of a step to the talon: only unsuitable cards, at once or (a card
        waiting) when the next is turned up, go there."""
        if si == self.turned:
            pending = self.pending(state, suitable)
            if pending is not None:
                return pending
            return IllegalMove(self.talon_rule, f"The {state.piles[si][-1].name} turned up "
                               "goes to the talon when the next card is turned up.")
        return IllegalMove(self.talon_rule, "Only unsuitable cards turned up from the pack go "
                           "to the talon.")

    def apply_action(self, piles: list[tuple[Card, ...]], state: State, action: str,
                     suitable: Callable[[Card], bool],
                     aside: Callable[[Card], int | None] = lambda card: None,
                     hold: bool = False) -> int:
        """Carry out "deal" or "redeal" on ``piles``; returns the count of re-deals after it.
        A card still waiting (no longer suitable, or any card under ``hold``) is first laid
        on the talon. A card turned up goes to the pile ``aside`` names for it, if any
        (Margarethe's aces), else waits when ``suitable`` or under ``hold``, else goes to the
        talon."""
        if piles[self.turned]:
            piles[self.talon] = piles[self.talon] + piles[self.turned]
            piles[self.turned] = ()
        return _turn_or_redeal(piles, self.stock, self.turned, self.talon, state.vars[0],
                               action, (lambda card: True) if hold else suitable, aside)

    def status(self, state: State, played: str, suitable: Callable[[Card], bool]) -> str:
        """The status line in play: the pack, the talon, the re-deal, ``played`` (e.g. "12 of
        36 on the foundations") and the card that waits to be played."""
        p = state.piles
        parts = [f"Pack: {plural(len(p[self.stock]), 'card')}" if p[self.stock]
                 else "the pack is exhausted",
                 f"talon: {plural(len(p[self.talon]), 'card')}",
                 "re-deal used" if state.vars[0] else "re-deal still to come",
                 played]
        if p[self.turned] and suitable(p[self.turned][-1]):
            parts.append(f"play the {p[self.turned][-1].name}")
        return " · ".join(parts)

    def describe(self, state: State, action: str, suitable: Callable[[Card], bool],
                 aside: Callable[[Card], str | None] = lambda card: None,
                 hold: bool = False) -> str | None:
        """The words for "deal" or "redeal" (None when the pack is exhausted): ``aside``
        gives the words for a card set aside at once ("placed in the packet of aces")."""
        turned = state.piles[self.turned]
        first = f"The {turned[-1].name} is laid on the talon, and t" if turned else "T"
        if action == "redeal":
            return (f"The {turned[-1].name} is laid on the talon, and the talon is turned "
                    "over and dealt again." if turned
                    else "The talon is turned over and dealt again.")
        if not state.piles[self.stock]:
            return None
        card = state.piles[self.stock][-1]
        the = f"{first}he {card.name} is turned up"
        words = aside(card)
        if words is not None:
            return f"{the} and {words}."
        if suitable(card):
            return f"{the}; it is suitable."
        if hold:
            return f"{the}."
        return f"{the} and laid on the talon."


# ---------------------------------------------------------------------------- a card turned up
# and laid aside by the next: Anna, the Fish-bone, Mount Olympus

_TIMES = {1: "only once, and that has been done", 2: "twice, and both re-deals have been made"}


@dataclass(frozen=True, slots=True)
class TurnedCard(_PackPlaces):
    """The pack of a game in which each card is turned up into its own place (``turned``),
    where it may be used, and turning the next card lays it, unused, on the talon; by the
    default reading of each such game a card turned up that could be used must be used
    before anything more is turned. When the pack is exhausted the talon (with the card
    turned up) may be turned over, unshuffled, and dealt again, ``redeals`` times (the count
    of re-deals is the state's first variable). Anna, the Fish-bone and Mount Olympus.

    The anchors: ``deal_rule`` (the turning of the pack), ``talon_rule`` (the unsuitable
    cards and the talon) and ``redeal_rule``. The chapter's own words: what the unsuitable
    cards do (``talon_is``: "form the talon", "are placed as a talon"), the pack dealt out
    (``whole``: "whole", "entire"), the refusals of a card taken from the pack
    (``from_pack``) or laid on the talon by hand (``to_talon``), and the re-deal told
    (``redeal_words``)."""

    redeals: int
    to_talon: str
    talon_is: str = "form the talon"
    whole: str = "whole"
    from_pack: str = ("Cards come from the pack by turning them up one at a time (Turn up the "
                      "next card).")
    redeal_words: str = "The talon is turned over and dealt again."

    def redeals_left(self, state: State) -> int:
        return self.redeals - state.vars[0]

    def spent(self, state: State) -> bool:
        """Whether the pack is exhausted and no re-deal is left to bring it back."""
        p = state.piles
        return not p[self.stock] and not (self.redeals_left(state)
                                           and (p[self.talon] or p[self.turned]))

    def refuse_action(self, state: State, action: str,
                      use: Callable[[State, Card], str | None] | None) -> IllegalMove | None:
        """Why "deal" or "redeal" is refused now (None when it is allowed). ``use`` says where
        the card turned up could be used, in words (None: nowhere); it is None itself under a
        reading that lets such a card be laid on the talon."""
        p = state.piles
        if action == "deal":
            if not p[self.stock]:
                if self.redeals_left(state) and (p[self.talon] or p[self.turned]):
                    return IllegalMove(self.deal_rule, "The pack is exhausted: the talon may "
                                       "now be re-dealt.")
                return IllegalMove(self.deal_rule, "The pack is exhausted.")
            return self._unused(state, use, "the next card is turned")
        if p[self.stock]:
            return IllegalMove(self.redeal_rule, f"The talon is re-dealt only when the "
                               f"{self.whole} pack has been dealt out.")
        if not self.redeals_left(state):
            return IllegalMove(self.redeal_rule, f"The talon may be re-dealt "
                               f"{_TIMES[self.redeals]}.")
        if not (p[self.talon] or p[self.turned]):
            return IllegalMove(self.redeal_rule, "There is no talon to re-deal.")
        return self._unused(state, use, "the talon is taken up")

    def _unused(self, state: State, use: Callable[[State, Card], str | None] | None,
                before: str) -> IllegalMove | None:
        turned = state.piles[self.turned]
        where = use(state, turned[-1]) if use is not None and turned else None
        if where is None:
            return None
        return IllegalMove(self.talon_rule, f"Only the unsuitable cards {self.talon_is}: the "
                           f"{turned[-1].name} just turned up can be {where}, so it must be "
                           f"used before {before}.")

    def refuse_source(self, si: int, top: bool) -> IllegalMove | None:
        """The refusals of a step taken from the pack, or from the talon other than its top
        card; None for any other step."""
        if si == self.stock:
            return IllegalMove(self.deal_rule, self.from_pack)
        if si == self.talon and not top:
            return IllegalMove(self.talon_rule, "Only the top card of the talon can be used.")
        return None

    def refuse_destination(self, di: int) -> IllegalMove | None:
        """The refusals of a step to the talon or to the place of the card turned up; None
        for a step anywhere else."""
        if di == self.talon:
            return IllegalMove(self.talon_rule, self.to_talon)
        if di == self.turned:
            return IllegalMove(self.deal_rule, "Only the pack’s next card is turned up there.")
        return None

    def candidates(self, state: State, specs: Sequence[PileSpec], places: Iterable[int],
                   targets: Sequence[int]) -> Iterator[Move]:
        """The moves to try: the top card of each of ``places`` that holds one, of the card
        turned up and of the talon, to each of ``targets`` but its own; then the deal and
        the re-deal."""
        p = state.piles
        for s in [*(i for i in places if p[i]), *(i for i in (self.turned, self.talon) if p[i])]:
            for d in targets:
                if d != s:
                    yield Move.step(specs[s].id, specs[d].id)
        yield Move(action="deal")
        yield Move(action="redeal")

    def apply_action(self, piles: list[tuple[Card, ...]], state: State, action: str,
                     use: Callable[[State, Card], str | None] | None = None,
                     aside: Callable[[Card], int | None] = lambda card: None) -> int:
        """Carry out "deal" or "redeal" on ``piles``; returns the count of re-deals after it.
        Either lays the card turned up, if any, on the talon. A card turned up goes to the
        pile ``aside`` names for it, if any (Anna's knaves); else, when ``use`` is given and
        finds no use for it, at once to the talon; else to its own place."""
        if piles[self.turned]:
            piles[self.talon] = piles[self.talon] + piles[self.turned]
            piles[self.turned] = ()
        return _turn_or_redeal(
            piles, self.stock, self.turned, self.talon, state.vars[0], action,
            lambda card: use is None or use(State(tuple(piles), state.vars), card) is not None,
            aside)

    def status(self, state: State, played: str) -> str:
        """The status line in play: the pack, the talon, the re-deals left and ``played``
        (e.g. "12 of 88 on the foundations")."""
        p = state.piles
        return " · ".join((f"Pack: {plural(len(p[self.stock]), 'card')}",
                           f"talon: {plural(len(p[self.talon]), 'card')}",
                           f"re-deals left: {self.redeals_left(state)}", played))

    def describe(self, state: State, action: str) -> str | None:
        """The words for "deal" or "redeal" (None when the pack is exhausted)."""
        p = state.piles
        if action == "redeal":
            return self.redeal_words
        if not p[self.stock]:
            return None
        card = p[self.stock][-1]
        if p[self.turned]:
            return (f"The {p[self.turned][-1].name} is laid on the talon, and the {card.name} "
                    "is turned up.")
        return f"The {card.name} is turned up."


# ---------------------------------------------------------------------------- a lost game

def stuck_after(state: State, plays: Callable[[State], bool],
                moves: Callable[[State], Iterable[tuple[int, int]]], limit: int) -> bool | None:
    """Whether a game whose pack is spent is stuck: True if no series of the one-card
    ``moves`` (pairs (from, to): the top card of pile ``from`` laid on pile ``to``) ever
    reaches a position where ``plays`` finds a card to put on a foundation; False if one does;
    None if the search gave up after ``limit`` positions. Marriages can go round in circles
    for ever, so a game with such moves counts as lost only when this says True (the
    Blockade, the Congress, the Four Corners)."""
    seen = {state.piles}
    todo = [state]
    while todo:
        s = todo.pop()
        if plays(s):
            return False
        for i, j in moves(s):
            piles = list(s.piles)
            piles[j] = piles[j] + piles[i][-1:]
            piles[i] = piles[i][:-1]
            key = tuple(piles)
            if key not in seen:
                if len(seen) >= limit:
                    return None
                seen.add(key)
                todo.append(State(key, s.vars))
    return True

"""Rule pieces more than one game uses."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import ACE, KING, SUITS, Card, Suit
from .core import IllegalMove, PileSpec, State

__all__ = ["SuitFoundations", "deal_together", "plural"]


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

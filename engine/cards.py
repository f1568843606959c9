"""Cards, suits, ranks and packs.

A :class:`Card` is a rank and a suit. Which pack a card came from is not part of its
identity: with two packs there are two equal ``Card(12, Suit.SPADES)`` values.

Text notation: rank then suit letter, ``AS``, ``2H``, ``10D`` (``TD`` is accepted too),
``JC``, ``QS``, ``KH``. ``str(card)`` always gives the canonical form (``10D``), and
``Card.parse(str(card)) == card``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import total_ordering

__all__ = ["Suit", "Card", "RANK_TEXT", "RANK_NAMES", "pack", "parse_cards", "format_cards"]


class Suit(Enum):
    """The four suits, with the letter used in the text notation as value."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    #: Members are singletons compared by identity: hash them by identity too, in C (Enum's
    #: own hash is a Python call, and cards are hashed very often by the solver).
    __hash__ = object.__hash__

    @property
    def red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def noun(self) -> str:
        return self.name.lower()


_SUIT_SYMBOLS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)

#: Rank numbers: 1 = ace ... 11 = knave, 12 = queen, 13 = king.
ACE, KNAVE, QUEEN, KING = 1, 11, 12, 13
RANK_TEXT: dict[int, str] = {1: "A", 11: "J", 12: "Q", 13: "K"} | {n: str(n) for n in range(2, 11)}
#: The book calls the jack a "knave".
RANK_NAMES: dict[int, str] = {
    1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
    8: "eight", 9: "nine", 10: "ten", 11: "knave", 12: "queen", 13: "king",
}
_RANK_FROM_TEXT: dict[str, int] = {v: k for k, v in RANK_TEXT.items()} | {"T": 10}


@total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """A playing card. Frozen, hashable, ordered by (rank, suit letter)."""

    rank: int
    suit: Suit
    #: Whether the suit is red: kept on the card (the rules and the solver ask very often),
    #: no part of its identity.
    red: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or not 1 <= self.rank <= 13:
            raise ValueError(f"rank must be 1..13, not {self.rank!r}")
        if not isinstance(self.suit, Suit):
            raise ValueError(f"suit must be a Suit, not {self.suit!r}")
        object.__setattr__(self, "red", self.suit.red)

    def __lt__(self, other: object) -> bool:  # Suit is not orderable; order by letter
        if not isinstance(other, Card):
            return NotImplemented
        return (self.rank, self.suit.value) < (other.rank, other.suit.value)

    @classmethod
    def parse(cls, text: str) -> Card:
        t = text.strip().upper()
        if len(t) < 2 or t[:-1] not in _RANK_FROM_TEXT:
            raise ValueError(f"not a card: {text!r}")
        try:
            suit = Suit(t[-1])
        except ValueError:
            raise ValueError(f"not a card: {text!r}") from None
        return cls(_RANK_FROM_TEXT[t[:-1]], suit)

    def __str__(self) -> str:
        return RANK_TEXT[self.rank] + self.suit.value

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    @property
    def black(self) -> bool:
        return not self.red

    @property
    def name(self) -> str:
        """Words, as the book would say them: ``"knave of hearts"``."""
        return f"{RANK_NAMES[self.rank]} of {self.suit.noun}"


def pack(packs: int = 1) -> list[Card]:
    """``packs`` full 52-card packs in a fixed order (suit by suit, ace to king)."""
    return [Card(r, s) for _ in range(packs) for s in SUITS for r in range(1, 14)]


def parse_cards(text: str, sep: str = ".") -> tuple[Card, ...]:
    """Parse ``"AS.10H.KD"``; the empty string is the empty tuple."""
    if text == "":
        return ()
    return tuple(Card.parse(t) for t in text.split(sep))


def format_cards(cards: tuple[Card, ...] | list[Card], sep: str = ".") -> str:
    return sep.join(str(c) for c in cards)

"""Seeded shuffling that gives the same deal on every Python (CPython 3.11+, Pyodide 3.14).

The standard library's ``random`` module is not used: its algorithms may change between
versions. SplitMix64 is specified completely by a few lines of integer arithmetic.
"""

from __future__ import annotations

from typing import TypeVar

__all__ = ["DealRandom", "shuffled", "MAX_DEAL"]

_MASK = (1 << 64) - 1
#: Deal numbers run from 0 to MAX_DEAL inclusive.
MAX_DEAL = (1 << 53) - 1  # exact in JavaScript numbers too

T = TypeVar("T")


class DealRandom:
    """SplitMix64: a tiny, fully specified 64-bit generator."""

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def shuffled(items: list[T] | tuple[T, ...], seed: int, stream: int = 0) -> list[T]:
    """A shuffled copy. ``stream`` separates independent shuffles made from one deal number
    (e.g. the Sultan's re-deals)."""
    out = list(items)
    DealRandom(seed * 1_000_003 + stream).shuffle(out)
    return out

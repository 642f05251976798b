"""A seeded generator whose whole state is one integer stored in the game state.

splitmix64: tiny, fast, and the same bits in CPython and Pyodide (plain Python integers).
``random.Random`` would also be deterministic, but its state is 625 integers to copy and
serialise on every action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1
_FNV_OFFSET = 1469598103934665603


class Rng:
    """Draws from ``state["rng"]`` and writes the advanced seed back.

    >>> s = {"rng": Rng.seed_from("demo")}
    >>> r = Rng(s); a = r.below(6); b = r.below(6)
    >>> s2 = {"rng": Rng.seed_from("demo")}; r2 = Rng(s2)
    >>> (a, b) == (r2.below(6), r2.below(6)) and s == s2
    True
    """

    __slots__ = ("_holder",)

    def __init__(self, holder: dict) -> None:
        self._holder = holder

    @staticmethod
    def seed_from(seed: int | str) -> int:
        if isinstance(seed, str):
            return Rng.seed_more(_FNV_OFFSET, seed)
        return seed & _MASK

    @staticmethod
    def seed_more(value: int, text: str) -> int:
        """``seed_from(a + b) == seed_more(seed_from(a), b)``: FNV-1a over the UTF-8 bytes
        goes on from ``value`` (a seed drawn for every move hashes its common prefix once)."""
        for byte in text.encode("utf-8"):
            value = ((value ^ byte) * 1099511628211) & _MASK
        return value

    def next(self) -> int:
        x = (self._holder["rng"] + 0x9E3779B97F4A7C15) & _MASK
        self._holder["rng"] = x
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
        return x ^ (x >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling: no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next()
            if x < limit:
                return x % n

    def coin(self) -> bool:
        return self.next() & 1 == 1

    def shuffle(self, items: list[T]) -> list[T]:
        """Fisher–Yates in place; returns the list for convenience."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

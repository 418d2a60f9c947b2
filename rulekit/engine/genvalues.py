"""Values generated step code makes at run time (rulekit.engine.stepgen writes the code)."""
from __future__ import annotations

from bisect import bisect_right
from operator import itemgetter
from typing import Any, Iterator

START = itemgetter(2)  # where a group of Pairs starts


class Pairs:
    """The legal actions of a two-parameter choice as a read-only sequence of (a, b) tuples,
    kept as the (a, [b ...], index of its first action) groups generated code lists (none
    empty): what a seat's agent is handed at a decision (random play draws over the count and is
    handed nothing)."""

    __slots__ = ("groups", "n")

    def __init__(self, groups: list[tuple[Any, Any, int]] | None = None, n: int = 0) -> None:
        self.groups: list[tuple[Any, Any, int]] = groups if groups is not None else []  # (a, bs, start)
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> tuple[Any, Any]:
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError(i)
        a, bs, start = self.groups[bisect_right(self.groups, i, key=START) - 1]  # the last starting at or before i
        return (a, bs[i - start])

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        for a, bs, _start in self.groups:
            for b in bs:
                yield (a, b)


def product(firsts: Any, seconds: tuple[Any, ...]) -> Pairs:
    """The actions pairing each of `firsts` with each of `seconds` (not empty), in that order."""
    k = len(seconds)
    return Pairs([(a, seconds, i * k) for i, a in enumerate(firsts)], len(firsts) * k)


def unseen(seen: list[int], cards: list[int]) -> None:
    """No seat has seen these cards any more (a shuffled zone); in C when none was seen (a round's
    first shuffle)."""
    if any(map(seen.__getitem__, cards)):
        for c in cards:
            seen[c] = 0

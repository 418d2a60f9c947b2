"""Values generated step code makes at run time (rulekit.engine.stepgen writes the code)."""
from __future__ import annotations

from typing import Any, Iterator


class Pairs:
    """The legal actions of a two-parameter choice as a read-only sequence of (a, b) tuples,
    kept as the (a, [b ...]) groups generated code lists (none empty): what a seat's agent is
    handed at a decision (random play draws over the count and is handed nothing)."""

    __slots__ = ("groups", "n")

    def __init__(self, groups: list[tuple[Any, Any]] | None = None, n: int = 0) -> None:
        self.groups: list[tuple[Any, Any]] = groups if groups is not None else []  # (a, bs)
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> tuple[Any, Any]:
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError(i)
        for group in self.groups:  # (a choice's first values are few: a scan)
            if i < len(group[1]):
                return (group[0], group[1][i])
            i -= len(group[1])
        raise IndexError(i)  # pragma: no cover - n is the groups' total

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        for a, bs in self.groups:
            for b in bs:
                yield (a, b)


def unseen(seen: list[int], cards: list[int]) -> None:
    """No seat has seen these cards any more (a shuffled zone); in C when none was seen (a round's
    first shuffle)."""
    if any(map(seen.__getitem__, cards)):
        for c in cards:
            seen[c] = 0

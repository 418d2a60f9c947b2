"""Step counts of generated code merged along straight-line code (rulekit.engine.stepgen writes them).

Each loop round, call and choice counts one step in the local `S` and tests it against the round's
limit (`if S > SL: ...` raising the located error). Where a step's count follows another's in
the same block with nothing between that could leave the block early, read the count, or count
steps itself, it is added to the first (`S += 2`) and tested there: the count is the same
wherever it is read (ctx.steps, which a search bot charges), and a round that runs away still
stops, at the first of the two steps (the limit can only be found passed a few steps early).
"""
from __future__ import annotations

import re

# a line after which a later count may not be added to an earlier one: it reads or sets the count
# (ctx.steps, S), counts steps, or may leave the block early (raise, break, continue, return, a
# handler other than an expression's located fallback)
_BARRIER = re.compile(r"\bctx\.steps\b|\bS\b|\bSL\b|\braise\b|^(break|continue|return|yield|finally:|except(?! ERRS:))\b")


class Ticks:
    """The count line open for merging in a function being written: later counts in the same block
    add to it while no line between is a barrier."""

    __slots__ = ("head", "ind", "seen")

    def __init__(self) -> None:
        self.head = -1  # the index of the open count line (`S += k`), or -1: none
        self.ind = 0
        self.seen = 0  # lines up to here are known to be no barrier

    def open(self, head: int, ind: int) -> None:
        """A tested count line written at `head` (its test on the next line), at indentation `ind`."""
        self.head, self.ind, self.seen = head, ind, head + 2

    def merge(self, lines: list[str], ind: int) -> bool:
        """One more step counted at indentation `ind` added to the open count line, if it may be."""
        if self.head < 0 or ind != self.ind:
            return False
        pad = "    " * ind
        for line in lines[self.seen:]:
            body = line.lstrip()
            if not line.startswith(pad) or _BARRIER.search(body):
                self.head = -1
                return False
        self.seen = len(lines)
        line = lines[self.head]
        cut = line.rindex("+= ") + 3
        lines[self.head] = line[:cut] + str(int(line[cut:]) + 1)
        return True


COUNTER = "        S, SL = ctx.steps, ctx.step_limit\n"  # the header's row reading the count and its limit
_COUNT_LINES = ("ctx.steps = S", "S = ctx.steps")  # the count written out, read back after other code


def uncounted(lines: list[str]) -> list[str] | None:
    """`lines` of a function that counts no step of its own, with no line keeping the count in `S`
    (ctx.steps, which other code counts, is then never out of date): each one left blank, or
    `pass` where it is a block's first statement; None when the function counts steps."""
    if any("S += " in line for line in lines):
        return None
    out, last = [], ""
    for line in lines:
        body = line.strip()
        if body in _COUNT_LINES:
            line = line[:len(line) - len(line.lstrip())] + "pass" if last.endswith(":") else ""
        if body and not body.startswith("#"):
            last = line.strip() or last
        out.append(line)
    return out

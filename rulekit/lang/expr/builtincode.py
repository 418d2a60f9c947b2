"""Small builtins written in fast code as the Python they are: seat arithmetic, slices, first/last.

The registry's functions (rulekit.lang.expr.functions) stay the one definition: the located code
still calls them, and these forms give the same value for every argument the checker lets through.
Where a form can fail (first() of an empty list, a table larger than the variant allows) it fails
with a Python error, so the fast code falls back to the located code, which calls the registry's
function and reports its own error at the same place in the text.
"""
from __future__ import annotations

import functools
import re
from typing import Any

from rulekit.lang.expr import ast
from rulekit.lang.expr.scope import Scope

MAX_TABLE_SEATS = 16  # the most seats the seat orders are worked out for in advance (a few KB)

_ATOM = re.compile(r"^[\w.]+$")  # a name, a number or an attribute: no parentheses needed around it


@functools.cache
def seat_orders(most: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """seats_from(p) at a table of n seats, as `orders[n][p]`, for every n up to `most`."""
    return tuple(tuple(tuple((p + i) % n for i in range(n)) for p in range(n)) for n in range(most + 1))


def _atom(code: str) -> str:
    return code if _ATOM.match(code) else f"({code})"


class BuiltinWriter:
    """The part of the code generator writing small builtins inline (fast code only)."""

    located: bool
    scope: Scope
    # code of a fresh copy of a tuple (`[*X]`) -> X: read without copying by a slice, a first/last or a loop
    copies: dict[str, str]

    def const(self, v: Any) -> str:  # pragma: no cover - the code generator's
        raise NotImplementedError

    def builtin(self, node: ast.Call, args: list[str], is_list: bool) -> str | None:
        """The fast code of `node`, a call of a small builtin with these arguments' code, written
        as Python; None when it is called as it is. `is_list`: its first argument is surely a list
        (not a tuple), so that its slice is one."""
        if self.located:
            return None
        f = node.func
        if f in ("right_of", "left_of"):  # seats are numbered anticlockwise: p's right is p + 1
            return f"(({_atom(args[0])} {'+' if f == 'right_of' else '-'} 1) % ctx.n)"
        if f == "seats_from":
            most = self.scope.seats_max
            if not 0 < most <= MAX_TABLE_SEATS:
                return None
            first = node.args[0]
            # a seat worked out by right_of or left_of is one already; any other number is taken modulo
            seat = args[0] if isinstance(first, ast.Call) and first.func in ("right_of", "left_of") \
                else f"{_atom(args[0])} % ctx.n"
            # a table larger than the variant's fails on the index: the located code calls seats_from()
            order = f"{self.const(seat_orders(most))}[ctx.n][{seat}]"
            code = f"[*{order}]"
            self.copies[code] = order
            return code
        xs = self.copies.get(args[0])
        if f == "slice":  # Python's slice clamps and counts from the end exactly as slice() does
            if xs is None and is_list:
                return f"{_atom(args[0])}[{args[1]}:{args[2]}]"
            return f"[*{_atom(xs or args[0])}[{args[1]}:{args[2]}]]"
        if f in ("first", "last"):  # an empty list fails on the index: the located code says so
            return f"{_atom(xs or args[0])}[{'0' if f == 'first' else '-1'}]"
        return None

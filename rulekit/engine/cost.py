"""The size of a value as the cost model counts it: list items at every depth plus text length.

A value kept in a variable is measured by what it would take to walk it, not by its top-level
length: `[l, l]` repeated 60 times is one short list holding a tree of 2^60 items, and text that
doubles every turn is one string. Shared sub-lists are counted every time they appear, because
equality, count_by and the JSON log walk them every time. The walk stops at the limit, so
measuring costs at most the limit.
"""
from __future__ import annotations

from typing import Any

MAX_KEPT = 100_000  # items and characters in one value kept between steps (rulekit.engine.steps.MAX_LIST)
MAX_NEST = 32  # lists inside lists
NESTED = (list, dict, tuple, str)
NESTED_SET = frozenset(NESTED)  # the types of items that make a list more than its length
_NESTED_SET = NESTED_SET
_TOO_BIG = "a value of more than {} items and characters (lists inside counted each time)"


def flat(v: list[Any]) -> bool:
    """True when no item of the list `v` is a list, dict, tuple or text (all of them looked at, in
    C: a list whose first and last items are numbers may still hold a deep list in the middle)."""
    return _NESTED_SET.isdisjoint(map(type, v))


def oversize(v: Any, limit: int = MAX_KEPT, nest: int = MAX_NEST) -> str | None:
    """None when `v` is within the limits, else a phrase saying which limit it passes."""
    tv = type(v)
    if tv is str:
        return f"text of {len(v)} characters (limit {limit})" if len(v) > limit else None
    if tv is not list and tv is not dict and tv is not tuple:
        return None
    if tv is list and flat(v):
        # a flat list: its length is its size (the common case, kept fast)
        return f"a list of {len(v)} items (limit {limit})" if len(v) > limit else None
    if tv is list and type(v[0]) is list:
        # a list of flat lists (groups of cards, the common nested case): counted without the walk
        total = len(v)
        for x in v:
            if type(x) is not list or not flat(x):
                break
            total += len(x)
            if total > limit:
                return _TOO_BIG.format(limit)
        else:
            return None
    total = 0
    stack = [(v, 1)]
    while stack:
        x, d = stack.pop()
        tx = type(x)
        if tx is str:
            total += len(x)
        elif tx is list or tx is tuple or tx is dict:
            if d > nest:
                return f"lists nested more than {nest} deep"
            items = x.values() if tx is dict else x
            total += len(x)
            stack.extend((y, d + 1) for y in items if type(y) in (list, tuple, dict, str))
        if total > limit:
            return _TOO_BIG.format(limit)
    return None

"""The static types of the expression language, written as short strings.

Types: `int`, `num` (int or exact fraction), `bool`, `str`, `card`, `any`, `map`,
`list<T>` for lists, `fn<T>` for a one-parameter lambda returning T.
"""
from __future__ import annotations

from fractions import Fraction

INT, NUM, BOOL, STR, CARD, ANY, MAP = "int", "num", "bool", "str", "card", "any", "map"


def list_of(t: str) -> str:
    """The list type with elements of type `t`."""
    return f"list<{t}>"


def is_list(t: str) -> bool:
    return t.startswith("list<")


def elem(t: str) -> str:
    """The element type of a list type (`any` for `any`)."""
    if is_list(t):
        return t[5:-1]
    return ANY


def is_numeric(t: str) -> bool:
    return t in (INT, NUM, ANY)


def compatible(have: str, want: str) -> bool:
    """Whether a value of type `have` may stand where `want` is expected."""
    if have == want or ANY in (have, want):
        return True
    if want == NUM and have == INT:
        return True
    if is_list(have) and is_list(want):
        return compatible(elem(have), elem(want))
    return False


def unify(a: str, b: str) -> str | None:
    """The common type of `a` and `b`, or None when they have none."""
    if a == b:
        return a
    if a == ANY:
        return b
    if b == ANY:
        return a
    if {a, b} == {INT, NUM}:
        return NUM
    if is_list(a) and is_list(b):
        inner = unify(elem(a), elem(b))
        return list_of(inner) if inner else None
    return None


def type_of_value(v: object) -> str:
    """The static type of a Python constant (options, literals)."""
    if isinstance(v, bool):
        return BOOL
    if isinstance(v, int):
        return INT
    if isinstance(v, Fraction):
        return NUM
    if isinstance(v, str):
        return STR
    if isinstance(v, (list, tuple)):
        inner = ANY
        for x in v:
            inner = unify(inner, type_of_value(x)) or ANY
        return list_of(inner)
    if isinstance(v, dict):
        return MAP
    return ANY


def describe(t: str) -> str:
    """A reader's name for a type, for error messages."""
    names = {INT: "a whole number", NUM: "a number", BOOL: "true/false", STR: "a string",
             CARD: "a card", ANY: "a value", MAP: "a map"}
    if t in names:
        return names[t]
    if is_list(t):
        inner = elem(t)
        return "a list" if inner == ANY else f"a list of {describe(inner).split(' ', 1)[-1]}s"
    if t.startswith("fn<"):
        return "a function (x -> ...)"
    return t

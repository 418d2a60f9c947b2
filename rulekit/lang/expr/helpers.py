"""The operators of the expression language that need more than one Python operator, each written
once, as the functions generated code calls (rulekit.lang.expr.codegen).

Every helper takes an optional `site` (where its node stands in the expression text). Without it
(the fast code) a failure raises `Fail`, which is cheap and not yet placed; the generated function
then runs its located twin, which passes each helper its site, so the same helper raises the
same failure as an EvalError at the right part of the text. The checker folds constants with the
same helpers (fold_binary), so compile-time and run-time arithmetic cannot differ.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from operator import indexOf
from typing import Any, Callable, NoReturn

from rulekit.lang.expr.functions import FREE_SCAN, REGISTRY, Budgeted, EvalError, Fn1, Value, charge_fn, charge_walk
from rulekit.lang.expr.functions import hashable_value
from rulekit.lang.expr.functions import minus_lists, normalised
from rulekit.lang.expr.scope import EVAL_BUDGET, MAX_EXPONENT, MAX_INT, Root

BIG = "number too large (limit 10^30)"
TICK = ("evaluation budget exhausted: the rules compute too much in one round "
        f"(limit {EVAL_BUDGET} function calls)")
BUILD = f"evaluation budget exhausted: the rules build too many values in one round (limit {EVAL_BUDGET})"
SCAN = f"evaluation budget exhausted: the rules scan too many values in one round (limit {EVAL_BUDGET})"


class Fail(Exception):
    """An operator's failure not yet placed in the text: its message, and the part of its node it
    concerns ('node', or 'part': a binary operator's right operand, an index)."""

    def __init__(self, message: str, part: str = "node"):
        super().__init__(message)
        self.message = message
        self.part = part


@dataclass(frozen=True, eq=False)
class Site:
    """Where a node stands in its expression's text (its span, and its right operand's or index's
    span), so a failure there becomes an EvalError located as the rule's author wrote it."""

    start: int
    length: int
    pstart: int
    plength: int
    root: Root | None
    fname: str = ""  # a call's function name

    def error(self, message: str, part: str = "node") -> EvalError:
        if part == "node":
            return EvalError(message, self.start, self.length, self.root)
        return EvalError(message, self.pstart, self.plength, self.root)

    def relocate(self, exc: Exception) -> EvalError:
        """An error raised while a call was worked out, placed at the call."""
        if isinstance(exc, Fail):
            return self.error(exc.message, exc.part)
        if isinstance(exc, ZeroDivisionError):  # Python's // and % on whole numbers (see H_floordiv)
            return self.error("division by zero", "part")
        if isinstance(exc, EvalError):
            if exc.root is not None:
                return exc
            if exc.offset == 0 and exc.length == 1:
                return EvalError(exc.message, self.start, self.length, self.root)
            return EvalError(exc.message, exc.offset, exc.length, self.root)
        return EvalError(f"{self.fname}(): {exc}", self.start, self.length, self.root)


def fail(site: Site | None, message: str, part: str = "node") -> Exception:
    """The failure to raise: located at `site` when there is one."""
    return Fail(message, part) if site is None else site.error(message, part)


def _walk(ctx: Budgeted, v: Value, site: Site | None) -> Value:
    """charge_walk(ctx, v), its failure placed at `site`."""
    try:
        return charge_walk(ctx, v)
    except EvalError as exc:
        if site is None:
            raise
        raise site.error(exc.message) from None


def _spend(ctx: Budgeted, n: int, message: str, site: Site | None) -> None:
    """The one place budget is charged: n units, failing with `message` once it is spent."""
    ctx.budget -= n
    if ctx.budget < 0:
        raise fail(site, message)


def H_int(v: int, site: Site | None = None) -> int:
    """A whole number within the engine's bound."""
    if -MAX_INT <= v <= MAX_INT:
        return v
    raise fail(site, BIG)


def H_big(site: Site | None = None) -> NoReturn:
    """Fail for a number out of bounds (used where an expression cannot hold a statement)."""
    raise fail(site, BIG)


def H_num(v: Value, site: Site | None = None) -> Value:
    """Any number normalised (whole fractions become ints) and bounded."""
    v = normalised(v)
    tv = type(v)
    if tv is int:
        if -MAX_INT <= v <= MAX_INT:
            return v
        raise fail(site, BIG)
    if tv is Fraction:
        if abs(v.numerator) <= MAX_INT and v.denominator <= MAX_INT:
            return v
        raise fail(site, BIG)
    return v  # not a number (text or lists of unknown type): bounded where it is built


def H_spend(ctx: Budgeted, xs: list[Value], site: Site | None = None) -> list[Value]:
    """Charge the budget one unit per item a lambda will be called on; returns xs."""
    ctx.budget -= len(xs)  # _spend, written out: this runs for every list a function goes through
    if ctx.budget < 0:
        raise fail(site, TICK)
    return xs


def H_spendin(ctx: Budgeted, xs: list[list[Value]], k: int, site: Site | None = None) -> list[list[Value]]:
    """Charge one unit per item a lambda will be called on, and k per item of those items (lists),
    which k loops of the lambda's body go through (codegen.inner_loops); returns xs."""
    ctx.budget -= len(xs) + k * sum(map(len, xs))
    if ctx.budget < 0:
        raise fail(site, TICK)
    return xs


H_UNSET = object()  # an empty MEMO slot


def H_memo(memo: list[Value], i: int, thunk: Callable[[], Value]) -> Value:
    """Compute a shared subexpression and keep it in its MEMO slot."""
    v = memo[i] = thunk()
    return v


def H_tick(ctx: Budgeted, site: Site | None = None) -> bool:
    """Spend one unit of budget (a function called, a let bound); True."""
    ctx.budget -= 1  # _spend, written out: this runs for every call of a function argument
    if ctx.budget < 0:
        raise fail(site, TICK)
    return True


def H_tickin(ctx: Budgeted, xs: list[Value], k: int, site: Site | None = None) -> bool:
    """Spend one unit for a call of a function argument and k per item of its list argument `xs`,
    which k loops of its body go through (codegen.inner_loops); True."""
    ctx.budget -= 1 + k * len(xs)
    if ctx.budget < 0:
        raise fail(site, TICK)
    return True


def H_built(ctx: Budgeted, xs: list[Value]) -> list[Value]:
    """Charge the budget for a list just built (its items and theirs); returns it."""
    n = len(xs)
    if n and type(xs[0]) is list:  # functions.built_size, inlined: this runs for every list built
        n += sum(map(len, xs))
    ctx.budget -= n  # _spend, written out: this runs for every list built
    if ctx.budget < 0:
        raise Fail(BUILD)
    return xs


_RANGE = REGISTRY["range"].impl


def H_range(ctx: Budgeted, a: int, b: int | None = None) -> list[int]:
    """range() of the registry (which bounds its length), charged to the budget."""
    r: list[int] = _RANGE(a) if b is None else _RANGE(a, b)
    ctx.budget -= len(r)  # H_built, written out for a list of numbers: range() is called often
    if ctx.budget < 0:
        raise Fail(BUILD)
    return r


def H_join(ctx: Budgeted, a: list[Value], b: list[Value], site: Site | None = None) -> list[Value]:
    """`a + b` on lists: a new list, charged to the budget."""
    r = [*a, *b]
    ctx.budget -= len(r)  # _spend, written out: this runs for every list joined
    if ctx.budget < 0:
        raise fail(site, BUILD)
    return r


def H_joinon(ctx: Budgeted, a: list[Value], b: list[Value]) -> list[Value]:
    """`a + b` for a list `a` the code has just built (held nowhere else): b's items added to `a`
    itself, no copy; charged as H_join."""
    a += b
    ctx.budget -= len(a)
    if ctx.budget < 0:
        raise fail(None, BUILD)
    return a


def H_joinbuilt(ctx: Budgeted, a: list[Value], b: list[Value]) -> list[Value]:
    """H_join(ctx, H_built(ctx, a), b) in one call for a list `a` the code has just built: charged
    as those two (each failing as its own would), b's items added to `a` itself, no copy."""
    n = len(a)
    if n and type(a[0]) is list:  # (H_built's charge)
        n += sum(map(len, a))
    ctx.budget -= n
    if ctx.budget < 0:
        raise Fail(BUILD)
    a += b
    ctx.budget -= len(a)  # (H_join's)
    if ctx.budget < 0:
        raise fail(None, BUILD)
    return a


def H_joinin(ctx: Budgeted, a: list[Value], b: list[Value], k: int) -> list[Value]:
    """H_spendin(ctx, H_join(ctx, a, b), k) in one call (fast code: a joined list gone through at once)."""
    r = [*a, *b]
    n = len(r)
    left = ctx.budget = ctx.budget - 2 * n - k * sum(map(len, r))  # (one test for the two charges)
    if left < 0:  # H_join's charge failing first, as its own would, else H_spendin's
        raise fail(None, BUILD if left + n + k * sum(map(len, r)) < 0 else TICK)
    return r


def H_walk(ctx: Budgeted, v: Value) -> Value:
    """`v` after its walk is charged (lists of shared lists compared, hashed or scanned)."""
    return charge_walk(ctx, v)


def H_walkfn(ctx: Budgeted, f: Fn1) -> Fn1:
    """A function whose results are charged by their walk (the keys distinct and count_by hash)."""
    return charge_fn(ctx, f)


def H_eq(ctx: Budgeted, a: Value, b: Value, site: Site | None = None) -> bool:
    """`a == b` on values that may hold lists: charged by the walk of a."""
    same: bool = _walk(ctx, a, site) == b
    return same


def H_minus(ctx: Budgeted, a: list[Value], b: list[Value], site: Site | None = None) -> list[Value]:
    """`a - b` on lists: the items of a that are not in b; charged by both lengths (and walks)."""
    _walk(ctx, a, site)
    _walk(ctx, b, site)
    _spend(ctx, len(a) + len(b), BUILD, site)
    return minus_lists(a, b)


def H_anyadd(ctx: Budgeted, a: Value, b: Value, site: Site | None = None) -> Value:
    """`a + b` on values of unknown type: lists and text charged by their size before joining."""
    if type(a) in (list, str) or type(b) in (list, str):
        _spend(ctx, (len(a) if hasattr(a, "__len__") else 0) + (len(b) if hasattr(b, "__len__") else 0),
               BUILD, site)
        return a + b
    return H_num(a + b, site)


def H_anysub(ctx: Budgeted, a: Value, b: Value, site: Site | None = None) -> Value:
    """`a - b` on values of unknown type: lists removed in linear time and charged."""
    if type(a) is list:
        return H_minus(ctx, a, b, site)
    return H_num(a - b, site)


def H_scan(ctx: Budgeted, xs: Value, site: Site | None = None) -> Value:
    """The list or text an `in` test scans, charged by its length (short ones free); returns xs."""
    n = len(xs)
    if n and type(xs[0]) in (list, tuple, dict):
        _walk(ctx, xs, site)
    if n > FREE_SCAN:
        _spend(ctx, n, SCAN, site)
    return xs


def H_div(a: Value, b: Value, site: Site | None = None) -> Value:
    """`/`: an exact fraction (a whole number when it is one), bounded."""
    if b == 0:
        raise fail(site, "division by zero", "part")
    return H_num(Fraction(a) / Fraction(b), site)


def H_mul(a: Value, b: Value, site: Site | None = None) -> Value:
    """`*` on numbers only, bounded."""
    if type(a) not in (int, Fraction) or type(b) not in (int, Fraction):
        raise fail(site, "'*' needs two numbers")
    return H_num(a * b, site)


def H_floordiv(a: Value, b: Value, site: Site | None = None) -> Value:
    """`//` with fractions normalised."""
    if b == 0:
        raise fail(site, "division by zero", "part")
    r = a // b
    return r if type(r) is int else normalised(r)


def H_mod(a: Value, b: Value, site: Site | None = None) -> Value:
    """`%` with fractions normalised."""
    if b == 0:
        raise fail(site, "division by zero", "part")
    r = a % b
    return r if type(r) is int else normalised(r)


def H_pow(a: Value, b: Value, site: Site | None = None) -> Value:
    """`**` within the exponent limits, bounded."""
    if not isinstance(b, int) or b < 0 or b > MAX_EXPONENT:
        raise fail(site, f"exponent must be a whole number from 0 to {MAX_EXPONENT}, found {b}", "part")
    if isinstance(a, Fraction) and abs(a) != 1 and b > 8:
        raise fail(site, "a fraction's exponent may be at most 8", "part")
    return H_num(a ** b, site)


def H_mapget(m: Value, k: Value, site: Site | None = None) -> Value:
    """`m[k]` on a map: 0 for a missing key (lists as keys are compared as tuples)."""
    try:
        return m[tuple(k) if isinstance(k, list) else k]
    except KeyError:
        return 0
    except TypeError:
        raise fail(site, "only maps can be looked up by key") from None


def H_index(xs: Value, i: Value, site: Site | None = None) -> Value:
    """`xs[i]` on a list, saying which index is out of range (the fast code subscripts directly)."""
    try:
        return xs[i]
    except (IndexError, TypeError):
        size = len(xs) if isinstance(xs, (list, tuple)) else 0
        raise fail(site, f"index {i} out of range (list has {size} items)", "part") from None


_FLAT_NOT = (list, tuple, dict)  # items charge_walk would walk


def H_member(ctx: Budgeted, x: Value, xs: Value, site: Site | None = None) -> bool:
    """`x in xs` where xs may be a map keyed by lists; a list or text scan is charged by its length."""
    if type(xs) is list and (not xs or type(xs[0]) not in _FLAT_NOT):  # a flat list: the usual case
        if len(xs) > FREE_SCAN:
            _spend(ctx, len(xs), SCAN, site)
        return x in xs
    if type(xs) is dict:
        if type(x) is list:
            x = hashable_value(_walk(ctx, x, site))
    elif _walk(ctx, xs, site) is not None and len(xs) > FREE_SCAN:
        _spend(ctx, len(xs), SCAN, site)
    return x in xs


class Scanned:
    """A long list (or map, or text) that `x in` tests inside a loop: each test charged as one
    written out would be (H_member for a map or a value of unknown type, else H_scan)."""

    __slots__ = ("ctx", "xs", "general", "n")

    def __init__(self, ctx: Budgeted, xs: Value, general: bool) -> None:
        self.ctx, self.xs, self.general = ctx, xs, general
        # a list of single values (by its first item, as H_member and H_scan tell): its length is
        # what every test is charged, worked out here once
        self.n = len(xs) if type(xs) is list and (not xs or type(xs[0]) not in _FLAT_NOT) else -1

    def __contains__(self, x: Value) -> bool:
        if self.n >= 0:
            ctx = self.ctx
            ctx.budget -= self.n  # H_member's and H_scan's charge of a long flat list, written out
            if ctx.budget < 0:
                raise Fail(SCAN)
            found: bool = x in self.xs
            return found
        if self.general:
            return H_member(self.ctx, x, self.xs)
        found = x in H_scan(self.ctx, self.xs)
        return found


def H_scanner(ctx: Budgeted, xs: Value, general: bool) -> Value:
    """What `x in xs` tests in a loop read once (codegen.CodeGen.hoist): xs itself when it is short
    (a test of it costs no more than the rule's own text: Python's `in`, uncharged), else a Scanned
    that charges each test."""
    return xs if len(xs) <= FREE_SCAN else Scanned(ctx, xs, general)


CALL_ERRORS = (Fail, EvalError, TypeError, ValueError, ZeroDivisionError, IndexError, KeyError)


def H_at(site: Site, thunk: Callable[[], Value]) -> Value:
    """Work out a function call (arguments included), its errors placed at the call."""
    try:
        return thunk()
    except CALL_ERRORS as exc:
        raise site.relocate(exc) from None


def H_empty(fname: str) -> NoReturn:
    """Fail as min() or max() of an empty list does (generated code calls Python's own otherwise)."""
    raise EvalError(f"{fname}() of an empty list")


def H_raise(message: str, offset: int) -> NoReturn:
    """Fail at once (a call of a variant function whose body has a mistake)."""
    raise EvalError(message, offset, 1, None)


@dataclass(frozen=True)
class CardTable:
    """A constant per-card table as a scan for one value reads it: `get` (a list's __getitem__),
    and, when every value is a small whole number, `bytes` (256 of them, a card's value at its id;
    `unused`, a value no card has, at ids past the table)."""
    get: Callable[[int], Any]
    bytes: bytes | None
    unused: int


def card_table(table: tuple[Any, ...]) -> CardTable:
    """The CardTable of a constant table of ints or texts."""
    small = set(range(256)) - set(table)
    if len(table) <= 256 and small and all(type(x) is int and 0 <= x < 256 for x in table):
        u = min(small)
        return CardTable([*table].__getitem__, bytes([*table, *[u] * (256 - len(table))]), u)
    return CardTable([*table].__getitem__, None, -1)


def H_first_eq(t: CardTable, cards: list[int], want: Any) -> int:
    """The index in `cards` of the one nearest the top (the end) whose value in `t` == want, -1 if
    none: a move's `where: c.attr == x` scan done in C (raises what t.get raises; an id past the
    table, which no zone holds, matches nothing when read as a byte)."""
    if t.bytes is not None and type(want) is int and 0 <= want < 256 and want != t.unused:
        try:  # each card's value as a byte: the last equal one found by bytes.rfind
            return bytes(cards).translate(t.bytes).rfind(want)
        except ValueError:
            pass  # a card id past 255: looked up one by one
    try:
        return len(cards) - 1 - indexOf(map(t.get, reversed(cards)), want)
    except ValueError:
        return -1


_FOLD: dict[str, Callable[[Any, Any], Any]] = {
    "/": H_div, "*": H_mul, "**": H_pow, "//": H_floordiv, "%": H_mod,
    "+": lambda a, b: H_num(a + b), "-": lambda a, b: H_num(a - b),
    # comparisons are Python's own operators in generated code (H_eq only charges the walk first)
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}


def fold_binary(op: str, a: Any, b: Any) -> Any:
    """An arithmetic operator or comparison on two constants, as generated code computes it
    (raises Fail)."""
    return _FOLD[op](a, b)


HELPERS = {name: fn for name, fn in globals().items() if name.startswith("H_")}
FAST_ERRORS = (Fail, EvalError, TypeError, ValueError, IndexError, KeyError, AttributeError, OverflowError,
               ZeroDivisionError)  # not RecursionError: retrying deep recursion would multiply it

# The only builtins generated code can reach (it names no others; this closes the door anyway).
SAFE_BUILTINS = {"len": len, "range": range, "bool": bool, "list": list, "tuple": tuple, "type": type, "int": int,
                 "any": any, "all": all, "min": min, "max": max, "sum": sum}

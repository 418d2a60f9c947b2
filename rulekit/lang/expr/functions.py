"""The function registry: every function an expression may call, with signature and doc."""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Iterable, Protocol, Sequence, cast

#: A value of the expression language (a number, text, true/false, a card's deck index, a list or a
#: map of them). Its type is the checker's (types.py: a string such as `list<card>`); the functions
#: below take what the checker allowed, so Python sees the values dynamically.
Value = Any
#: A one-parameter lambda of an expression, as the functions call it.
Fn1 = Callable[[Value], Value]

MAX_COMBINATIONS = 20_000  # bound on subsets()/partitions() work per call
MAX_RANGE = 10_000
MAX_BUILT = 200_000  # items one call of a list function may build (nested items counted)
# An `in` test over at most this many items is not charged: its cost is a small constant, and the
# number of tests is already bounded by the charged lambda calls times the size of the rule text.
# Charging every scan of a two-card list cost up to 15% of a simulation (issue 12's cost model).
FREE_SCAN = 16


class YakuHit(Protocol):
    """What a yaku evaluation gives for one yaku made: its id, value and rank."""

    @property
    def id(self) -> str: ...
    @property
    def value(self) -> int | Fraction: ...
    @property
    def rank(self) -> int: ...


YakuEval = Callable[[str, list[Value], int], Sequence[YakuHit]]


class Budgeted(Protocol):
    """A round's context as the list functions see it: what is left of the evaluation budget."""

    budget: int


class SeatContext(Protocol):
    """A round's context as the context functions see it: the seat count and the yaku evaluator."""

    budget: int
    n: int
    yaku_eval: YakuEval


class EvalError(Exception):
    """A runtime error inside an expression; `offset` points into its text."""

    def __init__(self, message: str, offset: int = 0, length: int = 1, root: object = None):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.length = length
        self.root = root  # the Root of the expression it happened in (where it stands in a file)


@dataclass(frozen=True)
class Function:
    """A registered function: overloads of parameter patterns, a return pattern, a doc line.

    Patterns: `int`, `num`, `bool`, `str`, `card`, `any`, `map`, `list<T>`, `fn(T)->R`
    (a lambda `x -> ...` whose parameter has type T and whose body has type R), and
    `name:str` for a string that must be a constant (card ids, yaku table names).
    T and R are type variables bound by the arguments.
    """

    name: str
    overloads: tuple[tuple[str, ...], ...]
    returns: tuple[str, ...]  # one per overload
    doc: str
    impl: Callable[..., Any]
    example: str = ""

    def signature(self, i: int) -> str:
        return f"{self.name}({', '.join(self.overloads[i])}) -> {self.returns[i]}"


REGISTRY: dict[str, Function] = {}


def register(name: str, overloads: list[tuple[str, ...]], returns: list[str] | str, doc: str,
             example: str = "") -> Callable[[Callable[..., Value]], Callable[..., Value]]:
    """Decorator adding a function to the registry."""
    rets = tuple(returns) if isinstance(returns, list) else (returns,) * len(overloads)

    def deco(fn: Callable[..., Value]) -> Callable[..., Value]:
        REGISTRY[name] = Function(name, tuple(overloads), rets, doc, fn, example)
        return fn

    return deco


_NO = object()


def normalised(x: Value) -> Value:
    """Fractions with denominator 1 become ints, so results compare and print simply."""
    if type(x) is Fraction and x.denominator == 1:
        return int(x.numerator)
    return x


@register("count", [("list<T>",), ("list<T>", "fn(T)->bool")], "int",
          "Number of items, or of items for which the condition holds.",
          "count(hand[me], c -> c.type == 'chaff')")
def _count(xs: list[Value], pred: Any = _NO) -> int:
    if pred is _NO:
        return len(xs)
    return sum(1 for x in xs if pred(x))


@register("sum", [("list<R>",), ("list<T>", "fn(T)->R")], ["R", "R"],
          "Sum of the items, or of the value the function gives for each item (0 when empty).",
          "sum(column[i], c -> c.value) % 10")
def _sum(xs: list[Value], f: Any = _NO) -> Value:
    return sum_of(xs if f is _NO else [f(x) for x in xs])


def sum_of(xs: list[Value]) -> Value:
    """sum() of a list of numbers, bounded (generated code calls it on the values it gathered)."""
    total: Value = sum(xs)
    if type(total) is int and -10 ** 30 <= total <= 10 ** 30:  # the usual case first: whole numbers
        return total
    if isinstance(total, bool) or not isinstance(total, (int, Fraction)):
        raise EvalError("sum() needs numbers")
    if not -10 ** 30 <= total <= 10 ** 30:  # abs(total) > 10**30, in terms mypy can follow on a union
        raise EvalError("number too large (limit 10^30)")
    return normalised(total)


def _extreme(pick: Callable[..., Value], what: str) -> Callable[..., Value]:
    def impl(xs: list[Value], f: Any = _NO) -> Value:
        if not xs:
            raise EvalError(f"{what}() of an empty list")
        return pick(xs) if f is _NO else pick(f(x) for x in xs)
    return impl


register("min", [("list<R>",), ("list<T>", "fn(T)->R")], ["R", "R"],
         "Smallest item, or smallest value of the function over the items (error when empty).",
         "min(hand[me], c -> c.value)")(_extreme(min, "min"))
register("max", [("list<R>",), ("list<T>", "fn(T)->R")], ["R", "R"],
         "Largest item, or largest value of the function over the items (error when empty).",
         "max(players, p -> score[p])")(_extreme(max, "max"))


def _by(pick: Callable[..., Value], what: str) -> Callable[[list[Value], Fn1], Value]:
    def impl(xs: list[Value], f: Fn1) -> Value:
        if not xs:
            raise EvalError(f"{what}() of an empty list")
        return pick(xs, key=f)
    return impl


register("min_by", [("list<T>", "fn(T)->R")], "T",
         "The first item whose function value is smallest (error when empty).",
         "min_by(hand[me], c -> c.value)")(_by(min, "min_by"))
register("max_by", [("list<T>", "fn(T)->R")], "T",
         "The first item whose function value is largest (error when empty).",
         "max_by(seats_from(right_of(dealer)), p -> score[p])")(_by(max, "max_by"))


@register("filter", [("list<T>", "fn(T)->bool")], "list<T>",
          "The items for which the condition holds, in order.",
          "filter(field, f -> f.month == card.month)")
def _filter(xs: list[Value], pred: Fn1) -> list[Value]:
    return [x for x in xs if pred(x)]


@register("map", [("list<T>", "fn(T)->R")], "list<R>",
          "The function's value for each item, in order.", "map(hand[me], c -> c.value)")
def _map(xs: list[Value], f: Fn1) -> list[Value]:
    return [f(x) for x in xs]


@register("any", [("list<bool>",), ("list<T>", "fn(T)->bool")], "bool",
          "True when the condition holds for at least one item.",
          "any(hand[me], c -> 'wild' in c.tags)")
def _any(xs: list[Value], pred: Any = _NO) -> bool:
    return any(xs) if pred is _NO else any(pred(x) for x in xs)


@register("all", [("list<bool>",), ("list<T>", "fn(T)->bool")], "bool",
          "True when the condition holds for every item (true for an empty list).",
          "all(cards, c -> c.value == 5)")
def _all(xs: list[Value], pred: Any = _NO) -> bool:
    return all(xs) if pred is _NO else all(pred(x) for x in xs)


@register("distinct", [("list<T>",), ("list<T>", "fn(T)->R")], ["list<T>", "list<R>"],
          "The different items (or function values), first occurrences in order.",
          "count(distinct(hand[me], c -> c.month))")
def _distinct(xs: list[Value], f: Any = _NO) -> list[Value]:
    seen: dict[Value, None] = {}
    out = []
    for x in xs:
        v = x if f is _NO else f(x)
        key = hashable_value(v)
        if key not in seen:
            seen[key] = None
            out.append(v)
    return out


_DEEP = (list, tuple, dict)
#: most items one comparison, key or text may walk when no round's budget is at hand (constant folding)
MAX_WALK = 2_000_000
WALKERS = {"distinct", "count_by", "index_of", "sorted"}  # compare or hash whole values: charged by walk


def walked(v: Value, limit: int) -> int:
    """Items and characters a walk through `v` visits (equality, `in`, keys, text, the log): lists
    inside counted each time they appear, so a list shared by reference counts again each time.
    Each distinct list is looked at once (sizes are remembered by identity), so a DAG of depth 40
    is measured in 80 steps; the count stops once it passes `limit`."""
    tv = type(v)
    if tv is str:
        return len(v)
    if tv not in _DEEP:
        return 0
    sizes: dict[int, int] = {}
    stack = [v]
    while stack:
        x = stack[-1]
        if id(x) in sizes:
            stack.pop()
            continue
        items = (*x, *x.values()) if type(x) is dict else x
        pending = [y for y in items if type(y) in _DEEP and id(y) not in sizes]
        if pending:
            stack.extend(pending)
            continue
        total = len(x)
        for y in items:
            ty = type(y)
            if ty is str:
                total += len(y)
            elif ty in _DEEP:
                total += sizes[id(y)]
        if total > limit:
            return total
        sizes[id(x)] = total
        stack.pop()
    return sizes[id(v)]


def charge_walk(ctx: object, v: Value) -> Value:
    """Spend the round's budget on walking `v` when it holds lists (or is a map): what comparing,
    hashing or printing it costs; returns v. Flat lists and plain values are free here."""
    tv = type(v)
    if ((tv is list or tv is tuple) and v and type(v[0]) in _DEEP) or (tv is dict and v):
        budget = getattr(ctx, "budget", None)
        if budget is None:  # no round (constant folding): one walk within the same figure
            if walked(v, MAX_WALK) > MAX_WALK:
                raise EvalError(f"a value of more than {MAX_WALK} items to compare or show "
                                "(lists inside lists counted each time they appear)")
            return v
        counted = cast(Budgeted, ctx)  # it has a budget: checked just above
        counted.budget = budget - walked(v, budget)
        if counted.budget < 0:
            raise EvalError("evaluation budget exhausted: the rules compare, count or show values too large "
                            f"in one round (lists inside lists counted each time they appear; limit {MAX_WALK})")
    return v


def charge_text(ctx: object, v: Value) -> Value:
    """Spend the round's budget on showing `v` to people or writing it to the log: its length in
    items and characters (lists inside counted each time they appear); returns v."""
    tv = type(v)
    if tv is str or tv in _DEEP:
        budget = getattr(ctx, "budget", None)
        if budget is not None:
            if tv is list and v and type(v[0]) not in _DEEP and type(v[0]) is not str:
                n = len(v)  # a flat list of numbers or cards (lists are of one type): its length
            else:
                n = walked(v, budget)
            counted = cast(Budgeted, ctx)  # it has a budget: checked just above
            counted.budget = budget - n
            if counted.budget < 0:
                raise EvalError("evaluation budget exhausted: the rules show too much text in one round "
                                f"(each value shown costs its length; limit {MAX_WALK})")
    return v


def charge_fn(ctx: object, f: Fn1) -> Fn1:
    """`f` whose every result is charged by charge_walk (the keys distinct and count_by hash)."""
    return lambda x: charge_walk(ctx, f(x))


def hashable_value(v: Value) -> Value:
    """Lists become tuples so they can be compared as keys."""
    if isinstance(v, list):
        return tuple(hashable_value(x) for x in v)
    return v


@register("count_by", [("list<T>", "fn(T)->R")], "map",
          "A map from each function value to how many items give it.",
          "max(values(count_by(field, c -> c.month)))")
def _count_by(xs: list[Value], f: Fn1) -> dict[Value, int]:
    return count_keys([hashable_value(f(x)) for x in xs])


def count_keys(keys: Iterable[Value]) -> dict[Value, int]:
    """How many times each key occurs, in first-seen order (count_by() of the keys its function gave;
    generated code calls it on the keys it gathered)."""
    out: dict[Value, int] = {}
    get = out.get
    for k in keys:
        out[k] = get(k, 0) + 1
    return out


@register("keys", [("map",)], "list<any>", "The keys of a map, in first-seen order.", "keys(count_by(hand[me], c -> c.month))")
def _keys(m: dict[Value, Value]) -> list[Value]:
    return [list(k) if isinstance(k, tuple) else k for k in m]


@register("values", [("map",)], "list<int>", "The values of a map, in key order.", "values(count_by(hand[me], c -> c.month))")
def _values(m: dict[Value, Value]) -> list[Value]:
    return list(m.values())


@register("sorted", [("list<T>",), ("list<T>", "fn(T)->R")], "list<T>",
          "The items in ascending order (of the function value when given; stable).",
          "sorted(hand[me], c -> c.value)")
def _sorted(xs: list[Value], f: Any = _NO) -> list[Value]:
    return sorted(xs) if f is _NO else sorted(xs, key=f)


@register("reverse", [("list<T>",)], "list<T>", "The items in reverse order.", "reverse(seats_from(dealer))")
def _reverse(xs: list[Value]) -> list[Value]:
    return list(reversed(xs))


@register("first", [("list<T>",)], "T", "The first item (error when empty).", "first(column[i])")
def _first(xs: list[Value]) -> Value:
    if not xs:
        raise EvalError("first() of an empty list")
    return xs[0]


@register("last", [("list<T>",)], "T", "The last item (error when empty).", "last(pile)")
def _last(xs: list[Value]) -> Value:
    if not xs:
        raise EvalError("last() of an empty list")
    return xs[-1]


@register("slice", [("list<T>", "int", "int")], "list<T>",
          "Items from position a (inclusive) to b (exclusive), 0-based; negative counts from the end.",
          "slice(dealer_hand, 0, 2)")
def _slice(xs: list[Value], a: int, b: int) -> list[Value]:
    return list(xs[a:b])


@register("index_of", [("list<T>", "T")], "int",
          "Position (0-based) of the first equal item, or -1.", "index_of(seats_from(right_of(dealer)), me)")
def _index_of(xs: list[Value], x: Value) -> int:
    try:
        return list(xs).index(x)
    except ValueError:
        return -1


@register("flatten", [("list<list<T>>",)], "list<T>", "One list of all the items of a list of lists.",
          "flatten(sets[me])")
def _flatten(xss: list[list[Value]]) -> list[Value]:
    total = sum(map(len, xss))  # checked before building: the lists may all be one shared list
    if total > MAX_BUILT:
        raise EvalError(f"flatten(): a list of {total} items (limit {MAX_BUILT})")
    return [*itertools.chain.from_iterable(xss)]  # (in C: no Python step per item)


def minus_lists(a: list[Value], b: list[Value]) -> list[Value]:
    """`a - b` on lists in linear time: the items of a that are not in b."""
    try:
        drop = set(b)
        return [x for x in a if x not in drop]
    except TypeError:  # lists of lists: compare them as tuples
        keys = {hashable_value(x) for x in b}
        return [x for x in a if hashable_value(x) not in keys]


def built_size(r: list[Value]) -> int:
    """Items a builder made: the list's items and the items of the lists in it (one level)."""
    n = len(r)
    # lists are of one type (the compiler checks it): when they hold lists, the first item is one
    if n and type(r[0]) is list:
        n += sum(map(len, r))
    return n


@register("range", [("int",), ("int", "int")], "list<int>",
          "The whole numbers from a (default 0) up to but not including b.", "range(4)")
def _range(a: int, b: Any = _NO) -> list[int]:
    lo, hi = (0, a) if b is _NO else (a, b)
    if hi - lo > MAX_RANGE:
        raise EvalError(f"range of more than {MAX_RANGE} numbers")
    return list(range(lo, hi))


@register("abs", [("R",)], "R", "Absolute value (a whole number stays whole).", "abs(total - 15)")
def _abs(x: Value) -> Value:
    return abs(x)


@register("subsets", [("list<T>", "int"), ("list<T>", "int", "fn(list<T>)->bool")], "list<list<T>>",
          "All k-item subsets (in list order), optionally only those satisfying the condition.",
          "subsets(hand[me], 3, s -> sum(s, c -> c.value) % 10 == ref)")
def _subsets(xs: list[Value], k: int, pred: Any = _NO) -> list[list[Value]]:
    if k < 0 or k > len(xs):
        return []
    if math.comb(len(xs), k) > MAX_COMBINATIONS:
        raise EvalError(f"subsets(): more than {MAX_COMBINATIONS} combinations")
    if math.comb(len(xs), k) * k > MAX_BUILT:  # each combination is a list of k items
        raise EvalError(f"subsets(): {math.comb(len(xs), k)} combinations of {k} items each "
                        f"(limit {MAX_BUILT} items in all)")
    out = [*map(list, itertools.combinations(xs, k))]
    return out if pred is _NO else [s for s in out if pred(s)]


@register("partitions", [("list<T>", "int", "fn(list<T>)->bool")], "list<list<list<T>>>",
          "Every largest family of disjoint k-item groups satisfying the condition "
          "(a list of families; [[]] when no group exists).",
          "partitions(hand[me], 3, s -> sum(s, c -> c.value) % 10 == ref)")
def _partitions(xs: list[Value], k: int, pred: Fn1) -> list[list[list[Value]]]:
    if k <= 0:
        raise EvalError("partitions(): group size must be at least 1")
    if math.comb(len(xs), k) > MAX_COMBINATIONS:
        raise EvalError(f"partitions(): more than {MAX_COMBINATIONS} combinations")
    if len(xs) * k > MAX_BUILT:
        raise EvalError(f"partitions(): groups of {k} from {len(xs)} items (limit {MAX_BUILT} items)")
    item = list(xs).__getitem__  # (a list's, called from C: no Python step per item)
    groups = [g for g in itertools.combinations(range(len(xs)), k) if pred([*map(item, g)])]
    best: list[list[tuple[int, ...]]] = [[]]
    best_size = 0
    budget = [MAX_COMBINATIONS]

    def search(start: int, used: frozenset[int], chosen: list[tuple[int, ...]]) -> None:
        nonlocal best, best_size
        budget[0] -= 1
        if budget[0] < 0:
            raise EvalError(f"partitions(): more than {MAX_COMBINATIONS} steps")
        if len(chosen) > best_size:
            best, best_size = [list(chosen)], len(chosen)
        elif len(chosen) == best_size and chosen:
            best.append(list(chosen))
            if len(best) * best_size * k > MAX_BUILT:
                raise EvalError(f"partitions(): more than {MAX_BUILT} items in the families found")
        for gi in range(start, len(groups)):
            g = groups[gi]
            if used.isdisjoint(g):
                chosen.append(g)
                search(gi + 1, used | set(g), chosen)
                chosen.pop()

    search(0, frozenset(), [])
    return [[[*map(item, g)] for g in fam] for fam in best]


# Seat arithmetic. Seats are numbered 0..n-1 anticlockwise, so the player on p's
# right (the next to play in these games) is p + 1. These need the seat count from the
# context, so they are "context functions": the compiler passes the context first.
CONTEXT_FUNCS = {"right_of", "left_of", "seats_from", "card", "yaku", "yaku_value", "yaku_rank", "new_yaku"}
#: the functions that evaluate a yaku table (its name checked when compiling; they read every rule)
YAKU_FUNCS = ("yaku", "yaku_value", "yaku_rank", "new_yaku")


@register("right_of", [("int",)], "int", "The seat on p's right: the next to play (anticlockwise).", "right_of(dealer)")
def _right_of(ctx: SeatContext, p: int) -> int:
    return (p + 1) % ctx.n


@register("left_of", [("int",)], "int", "The seat on p's left: the previous to play.", "left_of(dealer)")
def _left_of(ctx: SeatContext, p: int) -> int:
    return (p - 1) % ctx.n


@register("seats_from", [("int",)], "list<int>",
          "Every seat in playing order (anticlockwise), starting with p.", "seats_from(right_of(dealer))")
def _seats_from(ctx: SeatContext, p: int) -> list[int]:
    n = ctx.n
    return [(p + i) % n for i in range(n)]


@register("card", [("name:str",)], "card", "The card with this id, or this English name when no other card "
          "shares it, in the deck in play (checked when loading, with did-you-mean).", "card('1-1')")
def _card(ctx: SeatContext, cid: str) -> Value:  # pragma: no cover - resolved at compile time
    raise EvalError("card() is resolved when compiling")


YAKU_CALL_COST = 20  # budget units one yaku evaluation costs (plus one per card)


def _charge_yaku(ctx: Any, cards: list[Value]) -> None:
    """A yaku evaluation spends budget, so yaku calling yaku cannot fan out without bound."""
    try:
        left: int = ctx.budget - YAKU_CALL_COST - len(cards)
    except (AttributeError, TypeError):  # a context without a budget has none to spend
        return
    ctx.budget = left
    if left < 0:
        raise EvalError("evaluation budget exhausted: too many yaku evaluations in one round")


@register("yaku", [("name:str", "list<card>", "int")], "list<str>",
          "Ids of the yaku of a table that these cards make for this seat (after exclusivity and claim rules).",
          "yaku('dekiyaku', captures[me], me)")
def _yaku(ctx: SeatContext, table: str, cards: list[Value], seat: int) -> list[str]:
    _charge_yaku(ctx, cards)
    return [y.id for y in ctx.yaku_eval(table, cards, seat)]


@register("yaku_value", [("name:str", "list<card>", "int")], "num",
          "Total value of the yaku these cards make for this seat (0 when none).",
          "yaku_value('dekiyaku', captures[me], me)")
def _yaku_value(ctx: SeatContext, table: str, cards: list[Value], seat: int) -> Value:
    _charge_yaku(ctx, cards)
    ys = ctx.yaku_eval(table, cards, seat)
    if not ys:  # most hands make none: no generator to start
        return 0
    if len(ys) == 1:
        return normalised(0 + ys[0].value)  # what sum() gives for one
    return normalised(sum(y.value for y in ys))


@register("yaku_rank", [("name:str", "list<card>", "int")], "num",
          "Highest rank among the yaku these cards make for this seat (0 when none).",
          "yaku_rank('teyaku', hand[me], me)")
def _yaku_rank(ctx: SeatContext, table: str, cards: list[Value], seat: int) -> int:
    _charge_yaku(ctx, cards)
    ys = ctx.yaku_eval(table, cards, seat)
    if not ys:  # most hands make none: no generator to start
        return 0
    if len(ys) == 1:
        rank: int = ys[0].rank
        return rank
    return max((y.rank for y in ys), default=0)


@register("new_yaku", [("name:str", "list<card>", "card", "int")], "list<str>",
          "Ids of the yaku of a table that these cards make for this seat with one card more and not "
          "without it: the seat is one card (this one) from them when the list is not empty.",
          "new_yaku('dekiyaku', captures[s], c, s)")
def _new_yaku(ctx: SeatContext, table: str, cards: list[Value], card: Value, seat: int) -> list[str]:
    _charge_yaku(ctx, cards)
    _charge_yaku(ctx, cards)
    return new_yaku(ctx.yaku_eval, table, list(cards), card, seat)


def new_yaku(yaku_eval: YakuEval, table: str, cards: list[Value], card: Value, seat: int) -> list[str]:
    """The yaku `cards + [card]` make for `seat` that `cards` alone do not (ids, in table order),
    by `yaku_eval(table, cards, seat)` (a game state's): the one-card-from test of the table's
    reach lines and of policies (nothing spent from a round's budget here)."""
    have = {y.id for y in yaku_eval(table, cards, seat)}
    return [y.id for y in yaku_eval(table, cards + [card], seat) if y.id not in have]

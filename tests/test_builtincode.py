"""Small builtins written inline in generated code (rulekit.lang.expr.builtincode): the seat
functions, slice, first and last give the registry's values for every seat and table size, and
the generated code calls none of them."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from rulekit.lang.expr import REGISTRY, EvalError, Global, Scope, compile_expr
from rulekit.lang.expr import types as T


def scope(seats_max: int) -> Scope:
    glob = {
        "dealer": Global(T.INT, lambda ctx: ctx.dealer, code="dealer"),
        "n_players": Global(T.INT, lambda ctx: ctx.n, code="n_players"),
        "p": Global(T.INT, lambda ctx: ctx.p),
        "xs": Global("list<int>", lambda ctx: ctx.xs),
    }
    return Scope(globals=glob, seats_max=seats_max)


def ctx(n: int, p: int = 0, dealer: int = 0, xs: list[int] | None = None) -> SimpleNamespace:
    return SimpleNamespace(loc={}, n=n, p=p, dealer=dealer, xs=xs or [], budget=2_000_000, yaku_eval=None)


def registry(name: str, *args):
    return REGISTRY[name].impl(*args)


def test_the_bettors_expression_is_plain_python():
    """Otoroku's and Kyo-Kabu's bettors: no function called, and n_players - 1 needs no bound check."""
    c = compile_expr("slice(seats_from(right_of(dealer)), 0, n_players - 1)", scope(7))
    fc = c.fast.fastcode
    called = {k for k in fc.consts if callable(k)}
    assert not called, fc.body
    assert "H_big" not in fc.body and "_t" not in fc.body, fc.body
    for n in range(2, 8):
        for d in range(n):
            want = registry("slice", registry("seats_from", SimpleNamespace(n=n), (d + 1) % n), 0, n - 1)
            got = c.fn(ctx(n, dealer=d))
            assert got == want and type(got) is list


@pytest.mark.parametrize("seats_max", [0, 4, 7])
def test_seat_functions_agree_with_the_registry(seats_max):
    """Any whole number as a seat (negative, past the table, huge) and tables up to and past the
    variant's most seats (past it, the fast code falls back to the registry's function)."""
    right = compile_expr("right_of(p)", scope(seats_max))
    left = compile_expr("left_of(p)", scope(seats_max))
    order = compile_expr("seats_from(p)", scope(seats_max))
    tail = compile_expr("slice(seats_from(p), 1, n_players)", scope(seats_max))
    first = compile_expr("first(seats_from(p))", scope(seats_max))
    last = compile_expr("last(seats_from(left_of(p)))", scope(seats_max))
    for n in range(1, 10):
        seat = SimpleNamespace(n=n)
        for p in (*range(-12, 13), 10 ** 30, -10 ** 30):
            c = ctx(n, p)
            assert right.fn(c) == registry("right_of", seat, p)
            assert left.fn(c) == registry("left_of", seat, p)
            got = order.fn(c)
            assert got == registry("seats_from", seat, p) and type(got) is list
            assert tail.fn(c) == registry("seats_from", seat, p)[1:]
            assert first.fn(c) == registry("seats_from", seat, p)[0]
            assert last.fn(c) == registry("seats_from", seat, registry("left_of", seat, p))[-1]


def test_a_fresh_list_each_time():
    """seats_from's list is the caller's to keep: two evaluations never share one."""
    c = compile_expr("seats_from(p)", scope(5))
    a, b = c.fn(ctx(4, 1)), c.fn(ctx(4, 1))
    assert a == b and a is not b


@pytest.mark.parametrize("a,b", [(0, 2), (-2, 99), (3, 1), (-99, -3), (1, -1), (5, 5)])
def test_slice_clamps_as_the_registry(a, b):
    c = compile_expr(f"slice(xs, {a}, {b})", scope(5))
    for xs in ([], [7], [1, 2, 3, 4, 5, 6]):
        got = c.fn(ctx(3, xs=xs))
        assert got == registry("slice", xs, a, b) and type(got) is list
        assert got is not xs


@pytest.mark.parametrize("text,offset,what", [("first(xs)", 0, "first"), ("1 + last(xs)", 4, "last")])
def test_first_and_last_of_an_empty_list_fail_where_they_stand(text, offset, what):
    c = compile_expr(text, scope(5))
    with pytest.raises(EvalError) as exc:
        c.fn(ctx(3, xs=[]))
    assert exc.value.offset == offset and exc.value.message == f"{what}() of an empty list"


def seated_scope() -> Scope:
    s = scope(7)
    s.globals["out"] = Global("list<bool>", lambda ctx: ctx.vars["out"], code=("vars", "out"))
    s.globals["score"] = Global("list<int>", lambda ctx: ctx.vars["score"], code=("vars", "score"))
    s.globals["pile"] = Global("list<int>", lambda ctx: ctx.vars["pile"], code=("vars", "pile"))
    s.per_seat = frozenset({"out", "score"})
    return s


def vctx(n: int, dealer: int, **vars_) -> SimpleNamespace:
    c = ctx(n, dealer=dealer)
    c.vars = vars_
    return c


@pytest.mark.parametrize("text,some", [
    ("count(filter(slice(seats_from(right_of(dealer)), 0, n_players - 1), q -> not out[q])) > 0", True),
    ("count(filter(seats_from(dealer), q -> score[q] >= 3 and not out[q])) >= 1", True),
    ("count(filter(seats_from(dealer), q -> score[q] == dealer or q == 2)) == 0", True),
    # not rewritten: a condition that can fail (a division), a list not of seats, a count other than none
    ("count(filter(seats_from(dealer), q -> 6 / score[q] > 1)) > 0", False),
    ("count(filter(pile, q -> not out[q])) > 0", False),
    ("count(filter(seats_from(dealer), q -> not out[q])) > 1", False),
])
def test_a_count_of_none_or_some_stops_at_the_first(text, some):
    """`count(filter(seats, q -> c)) > 0` is any() when c cannot fail (`q -> not flags[q]`: not all()
    of the flags); the same answers either way."""
    c = compile_expr(text, seated_scope())
    body = c.fast.fastcode.body
    assert ("any(" in body or "all(" in body) == some, body
    for n in (2, 3, 5):
        for d in range(n):
            for mask in range(1 << n):
                out = [bool(mask >> i & 1) for i in range(n)]
                score = [(i * 7 + mask) % 5 for i in range(n)]
                args = dict(out=out, score=score, pile=[0] * n)
                try:
                    want = c.reference(vctx(n, d, **args))
                except EvalError as exc:
                    with pytest.raises(EvalError) as got:
                        c.fn(vctx(n, d, **args))
                    assert (got.value.offset, got.value.message) == (exc.offset, exc.message)
                else:
                    assert c.fn(vctx(n, d, **args)) is want


def test_a_failing_condition_still_fails_after_a_match():
    """Seat 1 satisfies the condition, seat 2's division fails: counting fails, as written."""
    c = compile_expr("count(filter(seats_from(dealer), q -> 6 / score[q] > 1)) > 0", seated_scope())
    with pytest.raises(EvalError) as exc:
        c.fn(vctx(3, 1, score=[1, 1, 0], out=[False] * 3))
    assert "zero" in exc.value.message


def test_a_loop_over_a_short_written_list_is_not_charged():
    """Like a constant list, a list written out in the rule is as long as the rule's text: its loop
    costs no budget; a loop over a list of unknown length still does, one unit an item."""
    written = compile_expr("all([p, p + 1, 2], x -> x > 0)", scope(5))
    c = ctx(3, p=1)
    assert written.fn(c) is True and c.budget == 2_000_000
    unknown = compile_expr("all(xs, x -> x > 0)", scope(5))
    c = ctx(3, xs=[1, 2, 3])
    assert unknown.fn(c) is True and c.budget == 2_000_000 - 3


@pytest.mark.parametrize("values,checked", [((1, 5, 10, 20), False), ((1, 5, 10, 10 ** 30), True)])
def test_a_sum_of_card_values_over_a_zone_is_checked_only_if_it_can_grow_too_large(values, checked):
    """A zone holds each card of the deck at most once: the sum of small card values over it stays
    within the bound, and is not checked; with a huge value in the deck the check stays."""
    s = Scope(globals={"pile": Global("list<card>", lambda ctx: ctx.zones["pile"], code=("zones", "pile"))},
              attrs={"value": (T.INT, values)}, card_ids={"a": 0, "b": 1, "c": 2, "d": 3}, seats_max=4)
    c = compile_expr("sum(pile, c -> c.value)", s)
    assert ("H_big" in c.fast.fastcode.body) == checked
    state = SimpleNamespace(loc={}, n=2, zones={"pile": [0, 1, 3]}, budget=2_000_000)
    if checked:
        with pytest.raises(EvalError, match="too large"):
            c.fn(state)
    else:
        assert c.fn(state) == 26


def test_max_or_min_of_two_written_numbers_is_a_comparison_with_pythons_answer():
    """`max([a, b])` / `min([a, b])` of two numbers: a comparison in the code, no call, giving
    what Python's max(a, b) / min(a, b) give (equal values, fractions and whole numbers mixed),
    each side worked out once and in order; a side that fails still fails at its place."""
    from fractions import Fraction
    sc = Scope(locals={"a": "int", "b": "int", "f": "num", "xs": "list<int>"})
    c_max, c_min = compile_expr("max([a, b * 2])", sc), compile_expr("min([f, xs[a]])", sc)
    for c in (c_max, c_min):
        assert "max(" not in c.fast.fastcode.body and "min(" not in c.fast.fastcode.body, c.fast.fastcode.body
    values = [-3, 0, 1, 2, 4, Fraction(1, 2), Fraction(4, 2)]
    for a in (-3, 0, 1, 2, 4):
        for b in (-2, 0, 1, 2):
            got = c_max.fn(SimpleNamespace(loc={"a": a, "b": b}, budget=2_000_000))
            assert got == max(a, b * 2) and type(got) is type(max(a, b * 2))
        for f in values:
            xs = [v for v in values if type(v) is int]
            if not 0 <= a < len(xs):
                continue
            got = c_min.fn(SimpleNamespace(loc={"a": a, "f": f, "xs": xs}, budget=2_000_000))
            want = min(f, xs[a])
            assert got == want and type(got) is type(want), (f, xs[a])
    text = "min([f, xs[a]])"
    with pytest.raises(EvalError) as err:
        c_min.fn(SimpleNamespace(loc={"a": 9, "f": 1, "xs": [1]}, budget=2_000_000))
    assert "index 9 out of range" in err.value.message and err.value.offset == text.index("xs[a]") + 3

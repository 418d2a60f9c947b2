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

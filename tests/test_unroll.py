"""Loops over short lists written in the rule, written out (rulekit.lang.expr.unroll): the fast code
gives the located code's value, fails where the located code places the failure, and a long list
is still charged item by item."""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from rulekit.lang.expr import EvalError, Scope, compile_expr
from rulekit.lang.expr.scope import EVAL_BUDGET

SCOPE = Scope(locals={"xs": "list<int>", "ys": "list<list<int>>", "k": "int", "w": "list<int>"})

CASES = [
    "all([k, 3], i -> i in w)",
    "any([k, 3], i -> i in w)",
    "all([k], i -> i > 2 and i not in w)",
    "max([k], c -> c * 2)",
    "max(filter([k], c -> c not in w), c -> c * 2)",
    "min(filter([k], c -> c > 1), c -> 0 - c)",
    "filter(map(xs, c -> [c]) + ys, s -> all(s, c -> c in w) or max(filter(s, c -> c not in w), c -> c) == k)",
    "filter(if k > 2 then [] else map(xs, c -> [c, 0]), s -> max(s, c -> c) > 1)",
    "filter(ys + (if k > 2 then map(xs, c -> [5, c]) else ys), s -> count(s) == 2 and all(s, c -> c != k))",
    # what `and`/`or` tested before: only a test it settles is left out
    "filter(map(xs, c -> [c]), s -> all(s, c -> c in w) or max(filter(s, c -> c not in w), c -> c) == k)",
    "k in w and max(filter([k], c -> c not in w), c -> c) > 0",
    "k in w or max(filter([k], c -> c in w), c -> c) > 0",
    "(k in w and k > 2) or max(filter([k], c -> c not in w), c -> c) > 0",
    "(k in xs or k in w) or max(filter([k], c -> c not in w), c -> c) > 0",
    # a name of the list put in place would be bound again by the lambda around its use: left as a loop
    "filter(map(xs, c -> [c]), s -> any(w, c -> count(s) > c))",
]
CONTEXTS = [
    dict(xs=[1, 2, 3, 4], ys=[[2, 3], [4]], k=3, w=[1, 2]),
    dict(xs=[], ys=[], k=1, w=[]),
    dict(xs=[5, 1, 5], ys=[[1, 1, 1], [5, 3]], k=5, w=[5, 3]),
    dict(xs=[2], ys=[[3, 4]], k=2, w=[2, 3, 4]),
]


def ctx(**loc):
    return SimpleNamespace(loc=dict(loc), budget=EVAL_BUDGET)


def outcome(fn, c):
    try:
        return ("value", fn(c))
    except EvalError as exc:
        return ("error", exc.message)
    except Exception as exc:  # noqa: BLE001 - the fast code alone fails with Python's errors
        return ("failed", type(exc).__name__)


@pytest.mark.parametrize("text", CASES)
def test_the_written_out_code_gives_the_located_codes_value(text):
    comp = compile_expr(text, SCOPE)
    for loc in CONTEXTS:
        slow = outcome(comp.raw.slow, ctx(**loc))
        fast = outcome(comp.raw.plain, ctx(**loc))
        if slow[0] == "value":
            assert fast == slow, (text, loc)
        else:  # the fast code fails too (and hands the step to the located code)
            assert fast[0] != "value", (text, loc)
        assert outcome(comp.fn, ctx(**loc)) == slow, (text, loc)


def test_quantifiers_and_extremes_of_written_lists_have_no_loop():
    for text in CASES[:6]:
        src = compile_expr(text, SCOPE).raw.source
        assert " for " not in src and "map" not in src and "all(" not in src and "any(" not in src, text


def test_a_filter_of_a_map_to_short_lists_goes_through_the_list_once():
    src = compile_expr(CASES[6], SCOPE).raw.source
    # one comprehension over xs keeping [c] (no list of lists made first), its test written out
    assert re.search(r"\[\[(_p\d+), \] for \1 in \(L\[K\d+\] if len", src) and "H_join" not in src
    assert "all(" in src and src.count("all(") == 1  # the test of the items of ys is still a loop
    assert compile_expr(CASES[6], SCOPE).fn(ctx(xs=[1, 3, 4], ys=[[3, 1]], k=3, w=[1])) == [[1], [3], [3, 1]]


def test_a_test_settled_by_the_or_before_it_is_not_written_again():
    src = compile_expr(CASES[9], SCOPE).raw.source
    assert "H_empty" not in src and " not in " not in src  # `c in w or ...`: c not in w is known there
    for text in CASES[10:14]:  # not settled (true, not false; another test; a test of two): kept
        assert "H_empty" in compile_expr(text, SCOPE).raw.source, text


def test_an_empty_list_read_as_it_is_is_not_gone_through():
    src = compile_expr(CASES[6], SCOPE).raw.source
    assert re.search(r"H_spendin\(ctx, (L\[K\d+\]), 3\) if .* if \1 else \[\]\)", src)
    c = ctx(xs=[1], ys=[], k=3, w=[])
    assert compile_expr(CASES[6], SCOPE).fn(c) == [] and c.budget == EVAL_BUDGET


def test_an_extreme_of_nothing_still_fails_where_written():
    text = "max(filter([k], c -> c not in w), c -> c * 2)"
    with pytest.raises(EvalError) as err:
        compile_expr(text, SCOPE).fn(ctx(k=2, w=[2]))
    assert err.value.message == "max() of an empty list"
    assert text[err.value.offset:].startswith("max(")


def test_a_long_list_is_still_charged_and_a_runaway_stops():
    text = "filter(map(xs, c -> [c]), s -> all(s, c -> c > 0))"
    comp = compile_expr(text, SCOPE)
    c = ctx(xs=list(range(100)))
    assert comp.fn(c) == [[i] for i in range(1, 100)] and c.budget == EVAL_BUDGET - 100
    c = ctx(xs=list(range(100)))
    c.budget = 50
    with pytest.raises(EvalError) as err:
        comp.fn(c)
    assert "evaluation budget exhausted" in err.value.message


def test_lists_just_built_are_joined_without_a_second_charge():
    """`map(...) + [...]`: the map charged every item it went through, the written list is bounded:
    the join copies what was paid for; a join of lists read from the state is still charged."""
    built = compile_expr("map(xs, x -> x + 1) + (filter(xs, x -> x > 50) + [7])", SCOPE)
    assert "H_join" not in built.raw.source
    c = ctx(xs=list(range(100)))
    assert built.fn(c) == [*range(1, 101), *range(51, 100), 7] and c.budget == EVAL_BUDGET - 200
    read = compile_expr("xs + xs", SCOPE)
    assert "H_join" in read.raw.source
    c = ctx(xs=list(range(100)))
    assert read.fn(c) == [*range(100), *range(100)] and c.budget == EVAL_BUDGET - 200


def test_joins_left_uncharged_still_stop_a_runaway():
    """Maps joined inside a loop: every map is charged for what it goes through, so a loop that
    would copy more than the budget allows stops with the budget's error, at its place."""
    text = "count(map(range(1000), i -> count(map(xs, x -> x) + filter(xs, x -> x > 0))))"
    comp = compile_expr(text, SCOPE)
    assert "H_join" not in comp.raw.source
    with pytest.raises(EvalError) as err:
        comp.fn(ctx(xs=list(range(1500))))
    assert "evaluation budget exhausted" in err.value.message
    c = ctx(xs=list(range(10)))
    assert comp.fn(c) == 1000 and c.budget < EVAL_BUDGET

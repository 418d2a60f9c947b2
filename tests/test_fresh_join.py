"""`a + b` on lists where the fast code has just built `a` (a list written out, or built by a loop):
b's items are added to that new list in place (H_joinon, H_joinbuilt) rather than both copied into
a third, charged as the copy was, and a runaway join still stops with the budget's error."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from rulekit.lang.expr import EvalError, Scope, compile_expr
from rulekit.lang.expr.builtincode import fresh_join
from rulekit.lang.expr.helpers import Fail, H_joinin
from rulekit.lang.expr.scope import EVAL_BUDGET


def ctx(**loc):
    return SimpleNamespace(loc=loc, budget=EVAL_BUDGET)


@pytest.mark.parametrize("code, want", [
    ("[a, b]", ("H_joinon", "[a, b]")),
    ("[x for x in y]", ("H_joinon", "[x for x in y]")),
    ("H_built(ctx, [[x] for x in y])", ("H_joinbuilt", "[[x] for x in y]")),
    ("H_built(ctx, y)", None),  # (a list built elsewhere, perhaps held)
    ("[a][0]", None),
    ("[a] if c else y", None),
    ("L[K0]", None),
])
def test_only_code_making_a_new_list_is_joined_in_place(code, want):
    assert fresh_join(code) == want


def test_a_list_built_by_a_loop_takes_the_other_in_place_charged_as_a_copy():
    scope = Scope(locals={"xs": "list<int>", "ys": "list<list<int>>"})
    comp = compile_expr("map(xs, x -> [x, x]) + ys", scope)
    assert "H_joinbuilt(ctx, [" in comp.raw.source and "H_join(" not in comp.raw.source
    ys = [[7]]
    c = ctx(xs=[1, 2, 3], ys=ys)
    got = comp.fn(c)
    assert got == [[1, 1], [2, 2], [3, 3], [7]] and ys == [[7]] and got[3] is ys[0]
    # the map's three lists of two built (3 + 6), then the joined four
    assert c.budget == EVAL_BUDGET - 9 - 4
    again = comp.fn(ctx(xs=[1, 2, 3], ys=ys))
    assert again == got and again is not got
    with pytest.raises(EvalError) as err:
        comp.fn(ctx(xs=[*range(600_000)], ys=ys))
    assert err.value.message.startswith("evaluation budget exhausted")


def test_a_list_written_out_takes_the_other_in_place_and_stays_as_written():
    scope = Scope(locals={"a": "int", "ys": "list<int>"})
    comp = compile_expr("[a, a + 1] + ys", scope)
    assert "H_joinon(ctx, [" in comp.raw.source
    c = ctx(a=1, ys=[5, 6])
    assert comp.fn(c) == [1, 2, 5, 6] and comp.fn(ctx(a=1, ys=[])) == [1, 2]
    assert c.budget == EVAL_BUDGET - 4
    with pytest.raises(EvalError) as err:
        comp.fn(ctx(a=1, ys=[*range(2_100_000)]))
    assert err.value.message.startswith("evaluation budget exhausted")


@pytest.mark.parametrize("budget, word", [(3, "build"), (6, "build"), (7, "compute"), (34, "compute"), (35, None)])
def test_a_join_gone_through_fails_as_the_join_then_as_the_loop(budget, word):
    # H_joinin: the join's charge (7 lists) first, then the loop's (the 7 again, and 3 loops over
    # each one's card): past the first it fails as too much built, past both as too much computed
    c = SimpleNamespace(budget=budget)
    if word is None:
        assert H_joinin(c, [[1]] * 3, [[2]] * 4, 3) == [[1]] * 3 + [[2]] * 4 and c.budget == 0
        return
    with pytest.raises(Fail) as err:
        H_joinin(c, [[1]] * 3, [[2]] * 4, 3)
    assert word in str(err.value)

"""One evaluator for expressions: the generated code (rulekit.lang.expr.codegen).

The checker folds constants with the same operator helpers the generated code calls, failures of
the fast code are reported by the located code the same generator writes, and trees deeper than
Python can nest are cut into helper functions instead of being left to another interpreter.
"""
from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from rulekit.lang.expr import CompileError, EvalError, Scope, compile_expr
from rulekit.lang.expr.codegen import HELPERS, SAFE_BUILTINS
from rulekit.lang.expr.scope import EVAL_BUDGET

from .test_codegen import ALLOWED, names_in

SCOPE = Scope(locals={"a": "int", "b": "int", "xs": "list<int>"})


def ctx(**loc):
    return SimpleNamespace(loc=loc, budget=EVAL_BUDGET)


def outcome(fn, c):
    try:
        return ("value", fn(c))
    except EvalError as exc:
        return ("error", exc.message)


@pytest.mark.parametrize("op", ["+", "-", "*", "/", "//", "%", "**"])
@pytest.mark.parametrize("a,b", [(7, 2), (-7, 3), (10 ** 29, 10), (3, 0), (2, 70), (0, 0), (10 ** 20, 10 ** 20)])
def test_folded_constants_and_run_time_agree(op, a, b):
    """`7 / 2` folded while checking and `a / b` worked out at run time: the same value, or the
    same message (a compile problem for the constant, an evaluation error for the variables)."""
    run = outcome(compile_expr(f"a {op} b", SCOPE).fn, ctx(a=a, b=b))
    try:
        comp = compile_expr(f"({a}) {op} ({b})", SCOPE)
    except CompileError as exc:
        folded = ("error", exc.problems[0].message)
    else:
        assert comp.is_const
        folded = ("value", comp.const)
    assert folded == run


def test_a_failure_is_reported_where_it_happened_in_the_text():
    text = "a + sum(map(xs, x -> 10 // (x - 2)))"
    comp = compile_expr(text, SCOPE)
    assert comp.fn(ctx(a=1, xs=[5, 3])) == 1 + 3 + 10
    with pytest.raises(EvalError) as err:
        comp.fn(ctx(a=1, xs=[5, 2]))
    assert err.value.message == "division by zero"
    assert text[err.value.offset:err.value.offset + err.value.length] == "x - 2"
    with pytest.raises(EvalError) as err:
        compile_expr("xs[a + 5]", SCOPE).fn(ctx(a=1, xs=[1]))
    assert err.value.message == "index 6 out of range (list has 1 items)" and err.value.offset == 3


def test_the_budget_is_spent_where_the_rule_computes_too_much():
    text = "any(range(100), i -> count(range(100), j -> i < j) > 200)"
    comp = compile_expr(text, SCOPE)
    c = ctx()
    c.budget = 500
    with pytest.raises(EvalError) as err:
        comp.fn(c)
    assert err.value.message.startswith("evaluation budget exhausted: the rules compute too much")
    # the located code runs on what the fast code left: the first function it calls is charged
    assert text[err.value.offset:err.value.offset + err.value.length] == text[16:-1]
    assert err.value.root is comp.root


def test_a_deep_tree_is_cut_into_helper_functions():
    """A sum of 300 terms nests 300 deep: its code is cut into helpers, and an error deep
    inside it is still placed at the part of the text that failed."""
    text = " + ".join(["a"] * 299 + ["xs[b]"])
    comp = compile_expr(text, SCOPE)
    src = comp.raw.source
    assert "def _s0(" in src and src.count("def _s") >= 300 // 40
    assert comp.fn(ctx(a=1, b=0, xs=[5])) == 299 + 5
    assert not hasattr(comp.raw, "fastcode")  # too big to write inline into a phase
    with pytest.raises(EvalError) as err:
        comp.fn(ctx(a=1, b=3, xs=[5]))
    assert err.value.message == "index 3 out of range (list has 1 items)"
    assert text[err.value.offset:err.value.offset + err.value.length] == "b"
    assert "def _s0(" in comp.raw.slow.fn.source


@pytest.mark.parametrize("text", [
    "count([s, 'a\"b', \"__import__('os')\"], x -> x == s) + xs[a]",
    "let t = [s, '\\n    import os'] in xs[count(t) + a]",
])
def test_located_code_holds_only_generator_names(text):
    """The located code is written like the fast code: the variant's text only as constants."""
    from rulekit.lang.expr import Global
    scope = Scope(globals={"s": Global("str", lambda c: "abc")}, locals={"a": "int", "xs": "list<int>"})
    comp = compile_expr(text, scope)
    with pytest.raises(EvalError):
        comp.fn(ctx(a=9, xs=[]))
    for src in (comp.raw.source, comp.raw.slow.fn.source):
        stray = {n for n in names_in(src) if not ALLOWED.match(n) and n not in HELPERS and n not in SAFE_BUILTINS}
        assert not stray, src


def test_whole_number_sums_are_bounded_where_they_leave_the_arithmetic():
    """+ and - on whole numbers are Python's operators; a sum is checked once, where its value
    leaves the arithmetic (the expression's value, a function's argument), not at each step."""
    big = 10 ** 30
    assert compile_expr("a + a - a", SCOPE).fn(ctx(a=big)) == big
    assert compile_expr("a + a > a", SCOPE).fn(ctx(a=big)) is True
    text = "xs[0] + abs(a + a)"
    with pytest.raises(EvalError) as err:
        compile_expr(text, SCOPE).fn(ctx(a=big, xs=[1]))
    assert err.value.message == "number too large (limit 10^30)"
    assert text[err.value.offset:err.value.offset + err.value.length] == "a + a"
    with pytest.raises(EvalError) as err:
        compile_expr("a + a", SCOPE).fn(ctx(a=big))
    assert err.value.message == "number too large (limit 10^30)"
    src = compile_expr("a + b == 5 - a", SCOPE).raw.source
    assert "H_" not in src and ":=" not in src


def test_a_short_list_is_scanned_free_and_a_long_one_is_charged():
    """`a in xs` is Python's `in` while xs is short; a long list goes through the charged scan, so a
    loop over a long list cannot run unaccounted. In a loop the list is read once, before it
    (H_scanner: the list itself when short, else a Scanned charging each test)."""
    comp = compile_expr("count(range(1000), i -> a in xs)", SCOPE)
    assert "H_scanner(ctx, L[K" in comp.raw.source
    c = ctx(a=3, xs=list(range(10)))
    c.budget = 5_000
    assert comp.fn(c) == 1000 and c.budget == 4_000
    c = ctx(a=3, xs=list(range(100)))
    c.budget = 50_000
    with pytest.raises(EvalError) as err:
        comp.fn(c)
    assert err.value.message.startswith("evaluation budget exhausted")
    # the same through C's filter and map: each item's test of a long list is charged
    scope = Scope(locals={"xs": "list<int>", "ys": "list<int>"})
    for text, want, tests in (("count(ys, i -> i in xs)", 10, 20), ("filter(ys, i -> i not in xs)", [*range(100, 110)], 20),
                              ("all(ys, i -> i in xs)", False, 11), ("any(ys, i -> i not in xs)", True, 11)):
        comp = compile_expr(text, scope)
        assert ".__contains__" in comp.raw.source, text
        c = ctx(xs=[*range(100)], ys=[*range(90, 110)])
        c.budget = 10_000
        assert comp.fn(c) == want, text
        assert c.budget <= 10_000 - 100 * tests, text
        c = ctx(xs=[*range(100)], ys=[*range(90, 110)])
        c.budget = 150
        with pytest.raises(EvalError) as err:
            comp.fn(c)
        assert err.value.message.startswith("evaluation budget exhausted"), text


def test_fast_and_located_code_write_each_operator_the_same_way():
    """Whole-number //, %, *, + and functions with a lambda are written in one form: the located
    code is the fast code with places added, not a second implementation."""
    text = "sum(filter(xs, x -> x % b == 0), x -> x // b) * a"
    comp = compile_expr(text, SCOPE)
    assert comp.fn(ctx(a=2, b=3, xs=[3, 4, 6])) == (1 + 2) * 2
    with pytest.raises(EvalError) as err:
        comp.fn(ctx(a=2, b=0, xs=[3]))
    assert err.value.message == "division by zero"
    assert text[err.value.offset:err.value.offset + err.value.length] == "b"
    fast, located = comp.raw.source, comp.raw.slow.fn.source
    for src in (fast, located):
        assert "% " in src and "// " in src and " * " in src and " for _p" in src
        assert not any(h in src for h in ("H_mod", "H_floordiv", "H_mul", "H_tick"))


def test_a_short_range_is_built_free_and_a_long_one_is_checked_and_charged():
    comp = compile_expr("range(1, a + 1)", SCOPE)
    c = ctx(a=5)
    assert comp.fn(c) == [1, 2, 3, 4, 5] and c.budget == EVAL_BUDGET
    c = ctx(a=100)
    assert comp.fn(c) == list(range(1, 101)) and c.budget == EVAL_BUDGET - 100
    with pytest.raises(EvalError) as err:
        comp.fn(ctx(a=10 ** 30))
    assert err.value.message == "range of more than 10000 numbers"


def test_a_loop_over_a_list_of_known_length_with_a_small_body_is_not_charged():
    """A list written in the rule (or a zone, no longer than the deck) gone through by a small body
    with no loop of its own costs what a big expression costs: no charge; so does a list read from
    the game that holds at most 16 items when it is gone through. A longer one is charged per item,
    and so is a loop whose body loops itself."""
    c = ctx(a=1, xs=[1, 2, 3])
    assert compile_expr("count([1, 2, 3], x -> x > a)", SCOPE).fn(c) == 2 and c.budget == EVAL_BUDGET
    assert compile_expr("count(xs, x -> x > a)", SCOPE).fn(c) == 2 and c.budget == EVAL_BUDGET
    c = ctx(a=1, xs=[*range(20)])
    assert compile_expr("count(xs, x -> x > a)", SCOPE).fn(c) == 18 and c.budget == EVAL_BUDGET - 20
    c = ctx(a=1, xs=[1, 2, 3])
    assert compile_expr("count([1, 2], x -> count(xs, y -> y > x) > a)", SCOPE).fn(c) == 1
    assert c.budget == EVAL_BUDGET - 2
    c = ctx(a=1, xs=[*range(20)])
    assert compile_expr("count([1, 2], x -> count(xs, y -> y > x) > a)", SCOPE).fn(c) == 2
    assert c.budget == EVAL_BUDGET - 2 - 2 * 20


def test_a_let_binds_a_name_without_a_call_or_a_charge():
    comp = compile_expr("let t = a + b in t * t - a", SCOPE)
    assert "lambda" not in comp.raw.source and "H_tick" not in comp.raw.source
    c = ctx(a=2, b=3)
    assert comp.fn(c) == 23 and c.budget == EVAL_BUDGET


def test_loops_over_each_item_of_a_list_of_lists_are_charged_once_by_the_loop_around_them():
    """`filter(xss, s -> all(s, ...) or max(filter(s, ...), ...) > a)`: the loops the body makes over
    each item (or over a filter of it) are charged all at once by the outer loop (its length, plus
    the items' total length per such loop), not one charge per item; a loop inside another
    `x -> ...` of the body is charged by itself, so nested work stays accounted."""
    scope = Scope(locals={"a": "int", "xss": "list<list<int>>", "xs": "list<int>"})
    text = "filter(xss, s -> all(s, c -> c > a) or max(filter(s, c -> c != a), c -> c) > 5)"
    comp = compile_expr(text, scope)
    assert comp.raw.source.count("H_spend") == 1 and "H_spendin(ctx, L[K0], 3)" in comp.raw.source
    c = ctx(a=1, xss=[[2, 3], [1, 7, 1], [1, 2]])
    assert comp.fn(c) == [[2, 3], [1, 7, 1]] and c.budget == EVAL_BUDGET - 3 - 3 * 7
    # a loop over the item inside a function of the body runs once per item of that loop: charged there
    nested = compile_expr("sum(xss, s -> count(xs, x -> count(s, y -> y == x) > 0))", scope)
    c = ctx(xss=[[1, 2], [3]], xs=[1, 2, 3, 4])
    # (the innermost loop, over an item of at most 16, is free: see the test above)
    assert nested.fn(c) == 3 and c.budget == EVAL_BUDGET - 2 - 2 * 4
    c = ctx(xss=[[*range(20)], [3]], xs=[1, 2, 3, 4])
    assert nested.fn(c) == 5 and c.budget == EVAL_BUDGET - 2 - 2 * 4 - 4 * 20
    # a runaway nesting still stops, placed in the text
    c = ctx(xss=[list(range(2000))] * 2000, xs=list(range(2000)))
    with pytest.raises(EvalError) as err:
        nested.fn(c)
    assert err.value.message.startswith("evaluation budget exhausted")


def test_count_by_of_plain_keys_and_min_max_are_written_out_with_one_meaning():
    """count_by with a function giving numbers, cards, text or true/false gathers the keys in a
    comprehension (no call per item); min and max are Python's own, an empty list failing with the
    registry's message, placed at the call."""
    text = "max(values(count_by(xs, x -> x % 3))) + min(xs, x -> x * a)"
    comp = compile_expr(text, SCOPE)
    assert "lambda" not in comp.raw.source and "max(" in comp.raw.source
    assert comp.fn(ctx(a=2, xs=[1, 4, 7, 2])) == 3 + 2
    assert compile_expr("keys(count_by(xs, x -> x > a))", SCOPE).fn(ctx(a=2, xs=[1, 4, 7, 2])) == [False, True]
    for empty in ("max(xs)", "min(xs, x -> x + a)"):
        big = f"a + {empty}"
        with pytest.raises(EvalError) as err:
            compile_expr(big, SCOPE).fn(ctx(a=1, xs=[]))
        assert err.value.message == f"{empty[:3]}() of an empty list"
        assert big[err.value.offset:err.value.offset + err.value.length] == empty


def test_a_loop_over_the_seats_is_bounded_by_the_most_players():
    """`seats` holds at most the variant's most players (Game.new_ctx seats no more): a small body
    over it is not charged when that bound is known, and is charged per seat when it is not."""
    from rulekit.lang.expr import Global
    seats = Global("list<int>", lambda c: list(range(c.n)), code="seats")
    text = "count(seats, s -> s != a)"
    for most, charged in ((8, 0), (0, 5)):
        comp = compile_expr(text, Scope(globals={"seats": seats}, locals={"a": "int"}, seats_max=most))
        c = SimpleNamespace(loc={"a": 1}, budget=EVAL_BUDGET, n=5)
        assert comp.fn(c) == 4 and c.budget == EVAL_BUDGET - charged
    # a scope given more names keeps the bound
    scope = Scope(globals={"seats": seats}, seats_max=8).with_locals({"a": "int"})
    c = SimpleNamespace(loc={"a": 1}, budget=EVAL_BUDGET, n=5)
    assert compile_expr(text, scope).fn(c) == 4 and c.budget == EVAL_BUDGET


def test_a_bounded_list_stays_bounded_through_a_let_a_filter_and_count_by():
    """A zone's list keeps its bound (the deck's size) when a let names it, a filter, map, sorted
    or distinct goes through it, or count_by counts it: a small loop over any of these is free;
    the same loop over a list the build cannot bound is charged, but for the first (filter) loop, over
    a name holding at most 16 items when it is gone through."""
    from rulekit.lang.expr import Global
    hand = Global("list<card>", lambda c: c.hand, code=("zones", "hand"))
    scope = Scope(globals={"hand": hand}, card_ids={f"c{i}": i for i in range(8)},
                  locals={"xs": "list<card>"}, attrs={"rank": ("int", tuple(i // 2 for i in range(8)))})
    text = "let h = {} in count(values(count_by(filter(h, c -> c.rank > 0), c -> c.rank)), k -> k % 2 == 1)"
    for src, charged in (("hand", 0), ("xs", 3 + 2)):
        comp = compile_expr(text.format(src), scope)
        c = SimpleNamespace(loc={"xs": [0, 2, 3, 4]}, budget=EVAL_BUDGET, hand=[0, 2, 3, 4])
        c.zones = {"hand": c.hand}
        assert comp.fn(c) == 1 and c.budget == EVAL_BUDGET - charged


def test_two_bounded_lists_join_free_and_a_sum_of_whole_numbers_is_pythons():
    """`hand + pile` of two zones is a short copy (no charge), and the loop over it stays free; any
    other join is charged by its length. sum() of whole numbers is Python's, bounded as + is."""
    from rulekit.lang.expr import Global
    glob = {z: Global("list<card>", (lambda z: lambda c: c.zones[z])(z), code=("zones", z)) for z in ("hand", "pile")}
    scope = Scope(globals=glob, card_ids={f"c{i}": i for i in range(8)}, locals={"xs": "list<card>", "a": "int"},
                  attrs={"value": ("int", tuple(range(8)))})
    for text, charged in (("sum(hand + pile, c -> c.value) % 10", 0), ("sum(hand + xs, c -> c.value) % 10", 6 + 6)):
        comp = compile_expr(text, scope)
        c = SimpleNamespace(loc={"xs": [5, 6, 7]}, budget=EVAL_BUDGET, zones={"hand": [1, 2, 3], "pile": [5, 6, 7]})
        assert comp.fn(c) == 4 and c.budget == EVAL_BUDGET - charged
    comp = compile_expr("sum(xs, c -> a)", scope)
    assert "sum([" in comp.raw.source  # Python's own, not the registry's sum_of (a bound constant Kn)
    with pytest.raises(EvalError) as err:
        comp.fn(SimpleNamespace(loc={"xs": [1, 2], "a": 10 ** 30}, budget=EVAL_BUDGET))
    assert err.value.message == "number too large (limit 10^30)"


def test_a_function_charged_per_call_charges_its_loops_over_its_list_in_the_same_charge():
    """subsets() calls its function once per combination, each call charged; the loop the body
    makes over the combination is charged in that same charge (1 + its length), not by a second."""
    scope = Scope(locals={"a": "int", "xs": "list<int>"})
    comp = compile_expr("subsets(xs, 2, g -> all(g, c -> c > a))", scope)
    assert "H_tickin(ctx, _p0, 1)" in comp.raw.source and "H_spend" not in comp.raw.source
    c = ctx(a=1, xs=[1, 2, 3])
    before = c.budget
    assert comp.fn(c) == [[2, 3]]
    assert before - c.budget == 3 * (1 + 2) + 3  # three calls, then the list built (one pair)


def test_a_flat_list_the_build_bounds_is_built_without_a_charge():
    """slice() of seats_from() is never longer than the most players: built free when that bound is
    known; charged by its length when it is not."""
    scope = Scope(locals={"a": "int"}, seats_max=6)
    for s, charged in ((scope, 0), (Scope(locals={"a": "int"}), 3)):
        c = SimpleNamespace(loc={"a": 3}, budget=EVAL_BUDGET, n=5)
        assert compile_expr("slice(seats_from(2), 0, a)", s).fn(c) == [2, 3, 4] and c.budget == EVAL_BUDGET - charged


def test_a_flag_per_item_is_read_by_map_and_fails_where_written():
    """`count/any/all(xs, i -> flags[i])` read the list through C's map (its __getitem__): the same values
    as the loop written out, and an index past the list still fails at its place in the text. Over a
    short list written in the rule the test is written out per item instead (lang/expr/unroll.py)."""
    scope = Scope(locals={"xs": "list<int>", "flags": "list<bool>"})
    flags = [True, False, True, True]
    for text, want in (("count(xs, i -> flags[i])", 3), ("any(xs, i -> flags[i])", True),
                       ("all(xs, i -> flags[i])", False), ("all([0, 2], i -> flags[i])", True)):
        comp = compile_expr(text, scope)
        if "[0, 2]" in text:
            assert "[K0][0] and L[K0][2]" in comp.raw.source and " for " not in comp.raw.source, text
        else:
            assert ".__getitem__" in comp.raw.source, text
        assert comp.fn(ctx(xs=[0, 1, 2, 3], flags=flags)) == want, text
    text = "count(xs, i -> flags[i])"
    with pytest.raises(EvalError) as err:
        compile_expr(text, scope).fn(ctx(xs=[0, 9], flags=flags))
    assert "index 9 out of range" in err.value.message
    assert text[err.value.offset:err.value.offset + err.value.length] == "i"


def test_a_read_anded_with_false_in_a_loop_is_read_once_and_still_fails_only_where_written():
    """`flags[k] and false` inside a loop is read once, before it (the same for every item): the
    same values as the loop written out; a read that fails before a loop that never runs it
    leaves the located code's answer (no error), one that runs it fails at its place in the text."""
    scope = Scope(locals={"xs": "list<int>", "flags": "list<bool>", "k": "int"})
    text = "count(xs, i -> (flags[k] and false) or i > 1)"
    comp = compile_expr(text, scope)
    assert ":= (L[" in comp.raw.source and " and False)" in comp.raw.source
    assert comp.fn(ctx(xs=[0, 1, 2, 3], flags=[True, False], k=0)) == 2
    assert comp.fn(ctx(xs=[], flags=[True], k=5)) == 0
    with pytest.raises(EvalError) as err:
        comp.fn(ctx(xs=[0, 2], flags=[True], k=5))
    assert "index 5 out of range" in err.value.message


def test_the_counts_of_count_by_are_gone_through_as_they_are():
    """max() and a loop over `values(count_by(...))` read the counts without a list made of them:
    the same values, and max() of no counts fails at its place as the registry's does."""
    scope = Scope(locals={"xs": "list<int>"})
    comp = compile_expr("max(values(count_by(xs, x -> x % 3)))", scope)
    assert any(cell.cell_contents is dict.values for cell in comp.raw.__closure__)
    assert comp.fn(ctx(xs=[1, 4, 7, 2, 3])) == 3
    with pytest.raises(EvalError) as err:
        comp.fn(ctx(xs=[]))
    assert "empty" in err.value.message
    odd = compile_expr("count(values(count_by(xs, x -> x % 3)), n -> n % 2 == 1)", scope)
    assert odd.fn(ctx(xs=[1, 4, 7, 2, 3, 6])) == 2  # counts 3, 1 and 2


def test_a_joined_list_gone_through_at_once_is_charged_as_a_join_and_a_loop_in_one_call():
    """`filter(xss + yss, s -> ...)` with loops over each item: fast code joins and charges in one
    call (H_joinin), charging what H_join and H_spendin charge one after the other, and a runaway
    still stops with the located code's error."""
    scope = Scope(locals={"a": "int", "xss": "list<list<int>>", "yss": "list<list<int>>"})
    text = "filter(xss + yss, s -> all(s, c -> c > a) or max(filter(s, c -> c != a), c -> c) > 5)"
    comp = compile_expr(text, scope)
    assert "H_joinin(ctx, L[K0], L[K1], 3)" in comp.raw.source and "H_join(" not in comp.raw.source
    c = ctx(a=1, xss=[[2, 3], [1, 7, 1]], yss=[[1, 2]])
    assert comp.fn(c) == [[2, 3], [1, 7, 1]] and c.budget == EVAL_BUDGET - 3 - (3 + 3 * 7)
    big = [[*range(2000)]] * 300  # (items shared: little memory, a big charge)
    with pytest.raises(EvalError) as err:
        comp.fn(ctx(a=1, xss=big, yss=big))
    assert err.value.message.startswith("evaluation budget exhausted")


@pytest.mark.parametrize("text, want", [
    ("count(xs, i -> (flags[k] and false) or i > 1)", 2),
    ("count(xs, i -> i > 1 or (flags[k] and false))", 2),
    ("count(xs, i -> (flags[k] or true) and i > 1)", 2),
    ("count(xs, i -> i > 1 and (flags[k] or true))", 2),
])
def test_a_held_true_or_false_is_not_tested_again_for_each_item(text, want):
    """`a or h` with h a read held before the loop as `x and false` (and `a and h` with `x or true`)
    tests a alone per item: h is read once before the loop, as before, and nowhere after; the same
    counts, and a read that fails still fails at its place in the text."""
    scope = Scope(locals={"xs": "list<int>", "flags": "list<bool>", "k": "int"})
    comp = compile_expr(text, scope)
    held = re.search(r"\((_t\w+) := \(L\[", comp.raw.source)
    assert held is not None and comp.raw.source.count(held.group(1)) == 1, comp.raw.source
    assert comp.fn(ctx(xs=[0, 1, 2, 3], flags=[True, False], k=0)) == want
    assert comp.fn(ctx(xs=[0, 1, 2, 3], flags=[False, True], k=0)) == want
    with pytest.raises(EvalError) as err:
        comp.fn(ctx(xs=[0, 2], flags=[True], k=5))
    assert "index 5 out of range" in err.value.message

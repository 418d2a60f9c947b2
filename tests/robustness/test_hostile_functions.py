"""Hostile `functions:` (issue 28, class FN): a file's functions are put in place at every call,
so a few lines could grow an expression exponentially or nest it past Python's stack. Expansion
is bounded in size and call depth while it runs, and reported at the call, naming the function
and the limit; a function called inside its own arguments works; parameters are named once."""
from __future__ import annotations

import pytest

from rulekit.engine.build import check_variant
from rulekit.lang.expr.compiler import compile_expr
from rulekit.lang.expr.inline import MAX_CALL_DEPTH, MAX_EXPANDED

from .helpers import assert_located, count, measure, variant_text, write


def _fn(name: str, params: list[str], body: str) -> str:
    return f"  {name}:\n    params: [{', '.join(params)}]\n    body: \"{body}\"\n"


def _doubling(k: int) -> str:
    """f0(x) = x + 1, fK(x) = f(K-1)(x) + f(K-1)(x): f20 alone is a million copies of f0."""
    out = _fn("f0", ["x"], "x + 1")
    for i in range(1, k + 1):
        out += _fn(f"f{i}", ["x"], f"f{i - 1}(x) + f{i - 1}(x)")
    return out


def _wide(levels: int, calls: int) -> str:
    """g0(x) = x; gK(x) = g(K-1)(x) + ... (`calls` times): `calls` ** levels copies of g0."""
    out = _fn("g0", ["x"], "x")
    for i in range(1, levels + 1):
        out += _fn(f"g{i}", ["x"], " + ".join([f"g{i - 1}(x)"] * calls))
    return out


def _chain(n: int) -> str:
    """h0(x) = x, hK(x) = h(K-1)(x + 1): a call `n` functions deep."""
    out = _fn("h0", ["x"], "x")
    for i in range(1, n + 1):
        out += _fn(f"h{i}", ["x"], f"h{i - 1}(x + 1)")
    return out


def _file(functions: str, call: str) -> str:
    return variant_text("functions:\n" + functions + f"round:\n  - id: r\n    steps:\n"
                        f"      - set: {{x: \"{call}\"}}   # HERE\n")


# name -> (functions, the call, words the first message must hold)
BOUNDED = {
    "doubling_to_f20": (_doubling(20), "f20(1)", ("f1", str(MAX_EXPANDED))),
    "doubling_to_f14": (_doubling(14), "f14(1)", ("f1", str(MAX_EXPANDED))),
    "three_levels_of_300_calls": (_wide(3, 300), "g3(1)", ("g", str(MAX_EXPANDED))),
    "chain_40_deep": (_chain(40), "h40(1)", ("h", str(MAX_CALL_DEPTH))),
}


@pytest.mark.parametrize("name", sorted(BOUNDED))
def test_function_expansion_is_bounded_and_located(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    functions, call, words = BOUNDED[name]
    text = _file(functions, call)
    write(tmp_path, f"{name}.yaml", text)
    count("inputs")
    m = measure(lambda: check_variant(f"{name}.yaml"), hard_limit=30)
    assert m.error is None, f"{type(m.error).__name__}: {m.error}"[:600]
    diags = [d for d in m.value if d.severity == "error"]
    assert_located(diags, f"{name}.yaml")
    # reported where the growth is written: at the call, or in the body of the function that
    # makes it (each body is checked once where it is defined)
    hits = [d for d in diags if all(w in d.message for w in words)]
    assert hits, [d.render() for d in diags]
    lines = text.splitlines()
    for d in hits:
        assert "# HERE" in lines[d.span.line - 1] or "body:" in lines[d.span.line - 1], d.render()
    m.check_bounds()


def test_a_function_called_inside_its_own_arguments_works():
    """Was refused on main with an internal name ('a#add' is already a name)."""
    from tests.test_expr_compliance import build_scope
    given = {"names": {"k": 4}, "locals": {"me": ["int", 2]},
             "functions": {"add": {"params": ["a", "b"], "body": "a + b"}, "sq": {"params": ["n"], "body": "n * n"},
                           "f": {"params": ["n"], "body": "add(n, 1)"}}}
    scope, ctx = build_scope(given)
    for text, want in (("add(sq(3), f(3))", 13), ("add(sq(me), f(me))", 7), ("add(add(1, 2), add(add(3, k), 5))", 15),
                       ("let a = 10 in add(a, add(a, me))", 22)):
        comp = compile_expr(text, scope)
        assert comp.fn(ctx) == want, text
        if comp.fast is not None:
            assert comp.fast(ctx) == want, text


def test_a_nested_call_of_the_same_function_validates(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # f's own call of add binds add's parameters with lets, inside the outer call's arguments
    fns = _fn("add", ["a", "b"], "a + b") + _fn("sq", ["n"], "n * n") + _fn("f", ["n"], "add(n * 2, 1)")
    write(tmp_path, "nested.yaml", _file(fns, "add(sq(x + 1), f(x + 1))"))
    assert [d.render() for d in check_variant("nested.yaml") if d.severity == "error"] == []


def test_a_parameter_named_twice_is_a_located_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = variant_text("functions:\n  f:\n    params: [x, x]\n    body: \"x + x\"\n"
                        "round:\n  - id: r\n    steps:\n      - set: {x: \"f(3, 5)\"}\n")
    write(tmp_path, "dup.yaml", text)
    diags = check_variant("dup.yaml")
    assert_located(diags, "dup.yaml", "E033")
    d = next(d for d in diags if "named twice" in d.message)
    assert d.span.line == next(i for i, ln in enumerate(text.splitlines(), 1) if "params: [x, x]" in ln)
    assert "'x'" in d.message and "'f'" in d.message

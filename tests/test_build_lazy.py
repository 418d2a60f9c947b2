"""What a build leaves to be made when first needed: an expression's own function when a phase's
generated code writes the expression in place, and a procedure's own function when the phases
write its calls in place. Made later, they do and say what they did when made at once."""
from __future__ import annotations


import pytest

from rulekit.engine.build import LazyProcedure, build_game, load_variant
from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import variant_path
from rulekit.lang.expr import EvalError, Scope, compile_expr
from rulekit.lang.expr import codebuild
from rulekit.lang.expr.codebuild import Fast

from .test_expr_one_path import ctx
from .test_stepgen_locals import RECURSIVE

SCOPE = Scope(locals={"a": "int", "xs": "list<int>"})
TEXTS = ["a + sum(map(xs, x -> 10 // (x - 2)))", "xs[a] * 3", "count(filter(xs, x -> x > a))"]


def outcome(fn, c):
    try:
        return ("value", fn(c))
    except EvalError as exc:
        return ("error", exc.message, exc.offset, exc.length)


@pytest.fixture
def fresh_makers(monkeypatch):
    """No source compiled before in this process (a source compiled before is made at once)."""
    monkeypatch.setattr(codebuild, "_MAKERS", {})


@pytest.mark.parametrize("text", TEXTS)
def test_an_expression_made_on_first_call_gives_what_one_made_at_once_gives(text, fresh_makers):
    """Its value, or its error placed in the text (the fast code failing over to the located code)."""
    lazy = compile_expr(text, SCOPE, lazy=True)
    eager = compile_expr(text, SCOPE)
    assert isinstance(lazy.raw, Fast) and not isinstance(eager.raw, Fast)
    assert lazy.raw.fastcode.body == eager.raw.fastcode.body  # what phases write in place: the same
    for loc in ({"a": 1, "xs": [5, 3]}, {"a": 0, "xs": [5, 2]}, {"a": 7, "xs": [1]}):
        assert outcome(lazy.fn, ctx(**loc)) == outcome(eager.fn, ctx(**loc))
    assert lazy.raw.fn is not None and lazy.raw.__code__ is lazy.raw.fn.__code__  # made once, on the first call


def test_an_expression_whose_source_was_compiled_before_is_made_at_once(fresh_makers):
    """(no compile to save: the function is made, no holder in between)"""
    assert isinstance(compile_expr("a * 5 + 1", SCOPE, lazy=True).raw, Fast)
    compile_expr("a * 5 + 1", SCOPE)
    assert not isinstance(compile_expr("a * 5 + 1", SCOPE, lazy=True).raw, Fast)


def _recursive(tmp_path, stop: int):
    p = tmp_path / "recursive.yaml"
    p.write_text(RECURSIVE.format(parent=variant_path("hanafuda/kingo.yaml"), stop=stop), encoding="utf-8")
    return build_game(load_variant(str(p)))


def test_a_procedure_called_on_its_own_is_made_at_its_first_call(tmp_path):
    """A procedure calling itself deeper than the phases write out: its function is made when the
    round first calls it, and takes its place where generated code looks procedures up."""
    g = _recursive(tmp_path, 10)
    lazy = g.procedures["down"]
    assert isinstance(lazy, LazyProcedure) and lazy.fn is None
    res = play(g, 5, 1, make_agents(g, 5, 1), rounds=1, logging=False)
    assert res.state.vars["stake"] == 11
    assert lazy.fn is not None and lazy.procs["down"] is lazy.fn


def test_a_procedure_every_call_of_which_is_written_out_is_never_made_in_play(tmp_path):
    g = _recursive(tmp_path, 0)  # one call, written out in the phase (the one inside it is never reached)
    assert play(g, 5, 1, make_agents(g, 5, 1), rounds=1, logging=False).state.vars["stake"] == 1
    lazy = g.procedures["down"]
    assert lazy.fn is None
    assert "def _make(" in lazy.source and lazy.fn is not None  # (made for a listing that asks)

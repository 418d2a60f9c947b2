"""A function's one computed argument read first is put in place (no let); a comparison stored
needs no test of its type (rulekit.lang.expr.inline, rulekit.lang.expr.ast.always_bool)."""
from __future__ import annotations

import pytest

from rulekit.lang.expr import ast
from rulekit.lang.expr.ast import always_bool
from rulekit.lang.expr.inline import UserFunction, expand
from rulekit.lang.expr.parser import parse


def _lets(node: ast.Node) -> list[str]:
    return [n.name for n in ast.walk(node) if isinstance(n, ast.Let)]


def _fns(**bodies: tuple[tuple[str, ...], str]) -> dict[str, UserFunction]:
    return {name: UserFunction(name, params, parse(body)) for name, (params, body) in bodies.items()}


@pytest.mark.parametrize("body, let", [
    ("sum(cards, c -> c)", False),             # read once, first: in place
    ("count(cards) + count(cards)", True),     # read twice: computed once, by a let
    ("any([1, 2], c -> c in cards)", True),    # read in a lambda: may run any number of times
    ("count([1]) + count(cards)", True),       # read after something else: kept in its place
])
def test_computed_argument_put_in_place_only_when_read_once_first(body, let):
    got = expand(parse("f(xs[0])"), _fns(f=(("cards",), body)))
    assert bool(_lets(got)) is let
    assert any(isinstance(n, ast.Index) for n in ast.walk(got))  # the argument is there either way


def test_two_computed_arguments_keep_their_lets():
    # (their order of evaluation is the call's)
    got = expand(parse("f(xs[0], xs[1])"), _fns(f=(("a", "b"), "sum(a, c -> c) + count(b)")))
    assert len(_lets(got)) == 2


@pytest.mark.parametrize("text, sure", [
    ("a > 0 and count(b) < 5", True), ("not a", True), ("a in b", True), ("true", True),
    ("if a > 1 then a == 2 else false", True), ("a", False), ("a and b", False),
    ("if a > 1 then a else false", False), ("1", False),
])
def test_always_bool(text, sure):
    assert always_bool(parse(text)) is sure
    assert always_bool(None) is False

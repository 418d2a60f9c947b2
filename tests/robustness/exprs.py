"""Compile and evaluate one expression against a real game's scope (the mini-kabu fixture).

`outcome(text)` never raises for an expression's own faults: it returns
('value', None, 0, repr), ('compile', code, offset, message) or ('runtime', 'E034', offset, message).
Anything else propagates, which is what the robustness tests look for.
"""
from __future__ import annotations

from fractions import Fraction

from rulekit.engine.build import build_game, load_variant
from rulekit.engine.scope import variant_scope
from rulekit.lang.expr import CompileError, EvalError, compile_expr
from rulekit.lang.expr.scope import EVAL_BUDGET

from .helpers import FIXTURES

EVAL_CODES = {"E030", "E031", "E032", "E033", "E034", "E040"}

GAME = build_game(load_variant(str(FIXTURES / "valid" / "mini-kabu.yaml")))
BASE_SCOPE = variant_scope(GAME.variant, GAME.deck, GAME.options)

# step-bound names an expression may use, with their types and values
LOCALS = {
    "me": ("int", 1),
    "k": ("int", 3),
    "half": ("num", Fraction(1, 2)),
    "flag": ("bool", True),
    "word": ("str", "crane"),
    "c0": ("card", 3),
    "cs": ("list<card>", [0, 5, 9, 17]),
    "ns": ("list<int>", [3, 1, 4, 1, 5]),
    "m": ("map", {1: 2, 3: 4}),
}
SCOPE = BASE_SCOPE.with_locals({k: t for k, (t, _v) in LOCALS.items()})


def fresh_ctx():
    """A game state with cards in hands and the spare zone, every budget full."""
    ctx = GAME.new_ctx(3, 7, lambda *a: 0)
    GAME.reset_round(ctx)
    deck = ctx.zones["deck"]
    for p in range(3):
        ctx.zones["hand"][p] = [deck.pop(), deck.pop()]
    ctx.zones["spare"] = [deck.pop()]
    ctx.budget = EVAL_BUDGET
    ctx.loc = {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
               for k, (_t, v) in LOCALS.items()}
    return ctx


def outcome(text, expect: str | None = None):
    """What compiling and evaluating `text` gives (see the module doc)."""
    try:
        comp = compile_expr(text, SCOPE, expect)
    except CompileError as exc:
        p = exc.problems[0]
        return ("compile", p.code, p.offset, p.message)
    ctx = fresh_ctx()
    try:
        value = comp.fn(ctx)
    except EvalError as exc:
        return ("runtime", "E034", exc.offset, exc.message)
    return ("value", None, 0, repr(value)[:200])

"""Data-driven compliance suite for the rulekit expression language.

Every YAML file in `tests/expr_compliance/` is a list of groups::

    - given:
        names: {x: 3, hand: [[0, 1], [2]]}   # globals read through the context (types inferred)
        constants: {k: 5}                     # globals that are compile-time constants
        types: {half: num, empty: list<int>}  # explicit types; a `num` given as "7/2" is a Fraction
        cards: {a: {value: 1, month: 1, tags: [crane]}, ...}   # the deck, index = order here
        card_names: [hand]                    # names whose values are card indexes (or card ids)
        options: {tie: push}
        n_players: 4
        seats_max: 6                          # the most seats of the variant (0: unknown, the default)
        locals: {me: [int, 2]}                # step-bound locals: type and value (ctx.loc)
      cases:
        - expression: "1 + 2 * 3"
          result: 7                 # or result_fraction: "7/2"
          type: int                 # optional: the static type
          const: true               # optional: whether it compiled to a constant (folded)
          expect: bool              # optional: passed to compile_expr(expect=...)
        - expression: "1 / x"
          error: evaluation         # syntax | unknown-name | arity | type | evaluation | unknown-reference
          phase: runtime            # optional: compile | runtime
          offset: 4                 # optional: offset of the (first) problem
          hint_contains: "count"    # optional: substring of problems[0].hint
          message_contains: "zero"  # optional: substring of the message
          problems: 2               # optional: number of compile problems
          xfail: "reason"           # optional: known-wrong behaviour (strict xfail)
        - build: {repeat: "not ", times: 900, suffix: "b"}
          result: true
          or_error: syntax          # optional: the case may instead fail with this error category
          message_contains: "..."   #   (and message), for inputs where either answer is allowed

An `expression` may instead be built as `build: {prefix, repeat, times, suffix}`.
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import pytest

from rulekit.lang.expr.inline import UserFunction
from rulekit.lang.expr.parser import parse
import yaml

from rulekit.lang.expr import CompileError, EvalError, Global, Scope, compile_expr
from rulekit.lang.expr import types as T

HERE = Path(__file__).parent / "expr_compliance"

CATEGORIES = {
    "E030": "syntax",
    "E031": "unknown-name",
    "E032": "arity",
    "E033": "type",
    "E034": "evaluation",
    "E040": "unknown-reference",
}
CASE_KEYS = {"expression", "build", "result", "result_fraction", "type", "expect", "error", "phase",
             "offset", "hint_contains", "message_contains", "problems", "xfail", "comment", "const",
             "or_error"}
GIVEN_KEYS = {"functions", "names", "constants", "types", "cards", "card_names", "options", "n_players", "locals",
              "seats_max"}


# -- loading -----------------------------------------------------------------

def _expression(case: dict):
    if "build" in case:
        b = case["build"]
        return b.get("prefix", "") + b["repeat"] * b["times"] + b.get("suffix", "")
    return case["expression"]


def _load_cases():
    params = []
    files = sorted(HERE.glob("*.yaml"))
    for path in files:
        groups = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert isinstance(groups, list), f"{path.name}: expected a list of groups"
        for gi, group in enumerate(groups):
            given = group.get("given") or {}
            unknown = set(given) - GIVEN_KEYS
            assert not unknown, f"{path.name} group {gi}: unknown given keys {unknown}"
            for ci, case in enumerate(group["cases"]):
                unknown = set(case) - CASE_KEYS
                assert not unknown, f"{path.name} group {gi} case {ci}: unknown keys {unknown}"
                expr = _expression(case)
                shown = expr if not isinstance(expr, str) or len(expr) <= 60 else expr[:57] + "..."
                cid = f"{path.stem}:{gi}:{ci}:{shown}"
                marks = []
                if case.get("xfail"):
                    marks.append(pytest.mark.xfail(reason=case["xfail"], strict=True))
                params.append(pytest.param(given, case, id=cid, marks=marks))
    return params


CASES = _load_cases()


# -- building the scope --------------------------------------------------------

def _card_value(v, ids: dict[str, int]):
    """Card references in `names`: ints are indexes, strings are card ids; lists nest."""
    if isinstance(v, list):
        return [_card_value(x, ids) for x in v]
    if isinstance(v, str):
        return ids[v]
    return v


def _card_type(v) -> str:
    if isinstance(v, list):
        inner = T.ANY
        for x in v:
            inner = T.unify(inner, _card_type(x)) or T.ANY
        return T.list_of(inner)
    return T.CARD


def _typed_value(v, t: str):
    """Convert YAML data to the runtime value of static type `t` (fractions from "a/b")."""
    if t == T.NUM and isinstance(v, str):
        return Fraction(v)
    if T.is_list(t) and isinstance(v, list):
        return [_typed_value(x, T.elem(t)) for x in v]
    return v


def _attr_type(values: list) -> str:
    t = T.ANY
    for v in values:
        vt = T.list_of(T.STR) if isinstance(v, list) else T.type_of_value(v)
        t = T.unify(t, vt) or T.ANY
    return t


def build_scope(given: dict) -> tuple[Scope, SimpleNamespace]:
    cards: dict = given.get("cards") or {}
    card_ids = {cid: i for i, cid in enumerate(cards)}
    attr_names: list[str] = []
    for attrs in cards.values():
        for a in attrs:
            if a not in attr_names:
                attr_names.append(a)
    attrs = {}
    for a in attr_names:
        per_card = [cards[cid].get(a) for cid in cards]
        t = _attr_type([v for v in per_card if v is not None])
        values = tuple(list(v) if isinstance(v, list) else v for v in per_card)  # as rulekit.engine.build does
        attrs[a] = (t, values)

    card_names = set(given.get("card_names") or [])
    types: dict = given.get("types") or {}
    globals_: dict[str, Global] = {}
    for const, source in ((False, given.get("names") or {}), (True, given.get("constants") or {})):
        for name, raw in source.items():
            if name in card_names:
                value = _card_value(raw, card_ids)
                t = types.get(name) or _card_type(raw)
            else:
                t = types.get(name) or T.type_of_value(raw)
                value = _typed_value(raw, t)
            if const:
                globals_[name] = Global(t, None, value)
            else:
                globals_[name] = Global(t, get=(lambda ctx, v=value: v))

    if "n_players" in given:  # the seat count, read as a game reads it (generated code knows it by its `code`)
        globals_.setdefault("n_players", Global(T.INT, lambda ctx: ctx.n, code="n_players"))
    loc_types, loc_values = {}, {}
    for name, (t, v) in (given.get("locals") or {}).items():
        loc_types[name] = t
        loc_values[name] = _typed_value(v, t)

    functions = {name: UserFunction(name, tuple(f.get("params") or ()), parse(f["body"]))
                 for name, f in (given.get("functions") or {}).items()}
    scope = Scope(globals=globals_, attrs=attrs, options=dict(given.get("options") or {}),
                  card_ids=card_ids, locals=loc_types, functions=functions, seats_max=given.get("seats_max", 0))
    ctx = SimpleNamespace(loc=dict(loc_values), n=given.get("n_players", 4), yaku_eval=None, budget=2_000_000)
    return scope, ctx


# -- comparing -----------------------------------------------------------------

def _plain(v):
    """Tuples become lists so sequences compare as lists."""
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def _same(a, b) -> bool:
    """Equality that also insists on the same scalar kind (bool vs int vs Fraction vs str)."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


# -- the tests -----------------------------------------------------------------

def test_suite_is_present():
    assert len(CASES) >= 170, f"only {len(CASES)} compliance cases in {HERE}"


def test_generated_code_covers_most_cases():
    """Most value cases run on generated code (the rest stay on closures by design)."""
    fast = total = 0
    for p in CASES:
        given, case = p.values
        if "error" in case or case.get("xfail"):
            continue
        scope, _ = build_scope(given)
        try:
            compiled = compile_expr(_expression(case), scope, case.get("expect"))
        except CompileError:
            continue
        if compiled.is_const:
            continue
        total += 1
        fast += compiled.fast is not None
    print(f"generated code for {fast} of {total} non-constant value cases")
    assert total > 100 and fast >= 0.9 * total


def test_every_category_is_covered():
    """Every error category (and the compile/run-time phases) has at least one passing case."""
    seen = set()
    for p in CASES:
        given, case = p.values
        if case.get("xfail"):
            continue
        if "error" in case:
            seen.add(case["error"])
            if "phase" in case:
                seen.add(case["phase"])
        else:
            seen.add("value")
    want = set(CATEGORIES.values()) | {"compile", "runtime", "value"}
    assert want <= seen, f"not covered: {sorted(want - seen)}"


@pytest.mark.parametrize("given,case", CASES)
def test_expr_compliance(given, case):
    scope, ctx = build_scope(given)
    text = _expression(case)
    phase = "compile"
    try:
        compiled = compile_expr(text, scope, case.get("expect"))
        phase = "runtime"
        value = compiled.fn(ctx)
    except CompileError as exc:
        problem = exc.problems[0]
        got = (
            "compile",
            CATEGORIES.get(problem.code, problem.code),
            problem.offset,
            problem.message,
            problem.hint,
            len(exc.problems),
        )
    except EvalError as exc:
        got = (phase, "evaluation", exc.offset, exc.message, "", 0)
    else:
        got = None

    if phase == "runtime" and compiled.fast is not None:
        # the closures alone (the reference) report exactly what the generated code reports
        _, fresh_ctx = build_scope(given)
        try:
            ref_value = compiled.reference(fresh_ctx)
        except EvalError as exc:
            assert got == ("runtime", "evaluation", exc.offset, exc.message, "", 0), compiled.fast.source
        else:
            assert got is None and _same(_plain(ref_value), _plain(value)), compiled.fast.source

    if "error" in case:
        assert got is not None, f"expected a {case['error']} error, got {value!r} ({compiled.type})"
        where, category, offset, message, hint, count = got
        detail = f"{where} {category} at {offset}: {message} [hint: {hint!r}]"
        assert category == case["error"], detail
        if "phase" in case:
            assert where == case["phase"], detail
        if "offset" in case:
            assert offset == case["offset"], detail
        if "hint_contains" in case:
            assert case["hint_contains"] in hint, detail
        if "message_contains" in case:
            assert case["message_contains"] in message, detail
        if "problems" in case:
            assert count == case["problems"], detail
        return

    if got is not None and "or_error" in case:
        where, category, offset, message, hint, count = got
        detail = f"{where} {category} at {offset}: {message}"
        assert category == case["or_error"], detail
        if "message_contains" in case:
            assert case["message_contains"] in message, detail
        return
    assert got is None, f"unexpected {got[0]} {got[1]} error at {got[2]}: {got[3]}"
    if "result_fraction" in case:
        want = Fraction(case["result_fraction"])
        assert isinstance(value, Fraction) and value == want, f"got {value!r}, want Fraction {want}"
    else:
        assert "result" in case, "a case needs result, result_fraction or error"
        want = _plain(case["result"])
        assert _same(_plain(value), want), f"got {value!r}, want {want!r}"
    if compiled.fast is not None:
        # the generated code gives the same value without falling back to the closure
        fresh_scope, fresh_ctx = build_scope(given)
        assert _same(_plain(compiled.fast.plain(fresh_ctx)), want), compiled.fast.source
    if "type" in case:
        assert compiled.type == case["type"], f"static type {compiled.type}, want {case['type']}"
    if "const" in case:
        assert compiled.is_const == case["const"], f"is_const {compiled.is_const}, want {case['const']}"


# -- the depth limit -------------------------------------------------------------

_DEEP_FORMS = {
    "not": lambda n: "not " * n + "b",
    "minus": lambda n: "-" * n + "x",
    "plus": lambda n: "x" + "+x" * n,
    "or": lambda n: "b" + " or b" * n,
    "lambda": lambda n: "map([1], v -> " + "-" * n + "v)",
}


def _outcome(text: str, scope, ctx) -> str:
    try:
        compile_expr(text, scope).fn(ctx)
        return "ok"
    except (CompileError, EvalError):
        return "error"


@pytest.mark.parametrize("form", list(_DEEP_FORMS))
def test_depth_limit_boundary(form):
    """Around the depth where parsing stops succeeding, every length either parses or gives an
    expression error: never a raw Python exception (the boundary depends on the stack in use)."""
    make = _DEEP_FORMS[form]
    scope, ctx = build_scope({"names": {"x": 1, "b": True}})
    lo, hi = 1, 900  # ok at lo; an expression error (too long or too deep) at hi
    assert _outcome(make(lo), scope, ctx) == "ok" and _outcome(make(hi), scope, ctx) == "error"
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _outcome(make(mid), scope, ctx) == "ok":
            lo = mid
        else:
            hi = mid
    for n in range(max(1, lo - 10), hi + 10):
        _outcome(make(n), scope, ctx)

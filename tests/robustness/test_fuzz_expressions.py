"""Random expressions from the grammar (hypothesis, deterministic): compiling and evaluating each
ends in a value or a CompileError/EvalError whose offsets lie inside the text, never in
another exception, and never runs past a fixed time."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit.lang.expr import REGISTRY, CompileError, EvalError, compile_expr

from .exprs import EVAL_CODES, LOCALS, SCOPE, fresh_ctx, outcome
from .helpers import alarm, count

EXAMPLES = 800
FUZZ = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.filter_too_much])

GLOBALS = sorted(SCOPE.globals)
NAMES = GLOBALS + sorted(LOCALS) + ["opt.stake", "opt.tie", "opt.third_card", "opt.nope", "nope", "__class__",
                                    "os", "x", "c", "cards", "seat"]
PARAMS = ["x", "c", "p", "me", "dealer"]  # the last two clash with names in scope (an error to report)
FUNCS = sorted(REGISTRY) + ["nope", "open", "__import__"]
ATTRS = sorted(SCOPE.attrs) + ["id", "month", "__class__", "real"]
INTS = ["0", "1", "2", "3", "7", "10", "40", "52", "100", "64", "65", "1000000000000000000000000000000",
        "10000000000000000000000000000000"]
LITERALS = INTS + ["0.5", "1.25", "0.000000000000000000000000000001", "'crane'", "'1-1'", "''", '"x"', "true",
                   "false", "[]", "card('1-1')", "card('nope')", "seats", "hand[me]", "cs", "ns"]
BINOPS = ["+", "-", "*", "/", "//", "%", "**", "==", "!=", "<", "<=", ">", ">=", "and", "or", "in", "not in"]
JUNK = [")", "(", ",", "->", "'", "[", "]", ".", "..", "=", "!", "$", "\\", "\n", "\t", "\x00", "é", "if", "then"]


def _extend(inner):
    lam = st.builds(lambda p, body: f"{p} -> {body}", st.sampled_from(PARAMS), inner)
    arg = st.one_of(inner, inner, lam)
    return st.one_of(
        st.builds(lambda a, op, b: f"{a} {op} {b}", inner, st.sampled_from(BINOPS), inner),
        st.builds(lambda op, a: f"{op} {a}", st.sampled_from(["not", "-"]), inner),
        st.builds(lambda a: f"({a})", inner),
        st.builds(lambda a, b, c: f"if {a} then {b} else {c}", inner, inner, inner),
        st.builds(lambda a, attr: f"{a}.{attr}", inner, st.sampled_from(ATTRS)),
        st.builds(lambda a, b: f"{a}[{b}]", inner, inner),
        st.builds(lambda xs: "[" + ", ".join(xs) + "]", st.lists(inner, max_size=3)),
        st.builds(lambda f, args: f"{f}({', '.join(args)})", st.sampled_from(FUNCS), st.lists(arg, max_size=3)),
        lam,
    )


LEAF = st.one_of(st.sampled_from(NAMES), st.sampled_from(LITERALS))
EXPR = st.recursive(LEAF, _extend, max_leaves=14)


# -- well-typed expressions, so that evaluation (not only checking) is exercised ------------------
# (a plain recursive generator driven by hypothesis' deterministic Random: far faster to draw than
# mutually recursive strategies)

SMALL = ["0", "1", "2", "3", "5", "9", "10", "13", "0 - 1", "0 - 7"]
BIG = ["64", "100", "1000000", "1000000000000000000000000000000"]
TYPED_RULES = {
    "I": [["{s}"], ["{s}"], ["{b}"], ["n_players"], ["dealer"], ["me"], ["k"], ["round_no"], ["pot"], ["{iv}"],
          ["({I} {aop} {I})"], ["count({LI})"], ["sum({LI})"], ["abs({I})"], ["if {B} then {I} else {I}"],
          ["{LI}[{I}]"], ["first({LI})"], ["last({LI})"], ["min({LI})"], ["max({LI})"], ["index_of({LI}, {I})"],
          ["{C}.value"], ["right_of({I})"], ["left_of({I})"], ["sum({LC}, {cv} -> {I})"],
          ["count({LI}, {iv} -> {B})"], ["chips[{I}]"], ["wins[{I}]"], ["({I} / {I})"]],
    "B": [["true"], ["false"], ["flag"], ["opt.third_card"], ["({I} {cop} {I})"], ["({B} and {B})"],
          ["({B} or {B})"], ["not {B}"], ["{I} in {LI}"], ["{C} not in {LC}"], ["any({LI}, {iv} -> {B})"],
          ["all({LC}, {cv} -> {B})"], ["'crane' in {C}.tags"], ["{C}.id == '1-1'"], ["flags[{I}]"]],
    "LI": [["seats"], ["ns"], ["chips"], ["wins"], ["[]"], ["[1, 2, 3]"], ["range({I})"], ["range({I}, {I})"],
           ["[{I}, {I}]"], ["map({LI}, {iv} -> {I})"], ["map({LC}, {cv} -> {I})"], ["filter({LI}, {iv} -> {B})"],
           ["sorted({LI})"], ["reverse({LI})"], ["slice({LI}, {I}, {I})"], ["({LI} + {LI})"], ["({LI} - {LI})"],
           ["distinct({LI})"], ["seats_from({I})"], ["values(count_by({LC}, {cv} -> {I}))"],
           ["flatten([{LI}, {LI}])"], ["sorted({LI}, {iv} -> {I})"], ["map(subsets({LI}, {s}), {iv} -> count({LI}))"]],
    "C": [["c0"], ["card('1-1')"], ["card('10-4')"], ["{cv}"], ["first({LC})"], ["{LC}[{I}]"],
          ["max_by({LC}, {cv} -> {C}.value)"], ["if {B} then {C} else {C}"]],
    "LC": [["cs"], ["deck"], ["spare"], ["hand[me]"], ["hand[0]"], ["flatten(hand)"], ["hand[{I}]"],
           ["filter({LC}, {cv} -> {B})"], ["sorted({LC}, {cv} -> {C}.value)"], ["({LC} + {LC})"],
           ["({LC} - {LC})"], ["slice({LC}, {I}, {I})"], ["[{C}, {C}]"],
           ["first(partitions(slice({LC}, 0, 6), 2, {iv} -> true))[0]"]],
}
LEAVES = {t: [r for r in rules if "{" not in r[0] or r[0] in ("{s}", "{b}", "{iv}", "{cv}")]
          for t, rules in TYPED_RULES.items()}


def typed_expression(rng, kind: str = "", depth: int = 0) -> str:
    """A random expression of a type (mostly well-typed: names of lambdas may clash or be unbound)."""
    import re
    kind = kind or rng.choice(list(TYPED_RULES))
    rules = TYPED_RULES[kind] if depth < 5 else LEAVES[kind]
    template = rng.choice(rules)[0]

    def fill(m):
        k = m.group(1)
        if k == "s":
            return rng.choice(SMALL)
        if k == "b":
            return rng.choice(BIG)
        if k == "iv":
            return rng.choice(["x", "y"])
        if k == "cv":
            return rng.choice(["c", "d"])
        if k == "aop":
            return rng.choice(["+", "-", "*", "//", "%", "**"])
        if k == "cop":
            return rng.choice(["==", "!=", "<", "<=", ">", ">="])
        return typed_expression(rng, k, depth + 1)
    return re.sub(r"\{(\w+)\}", fill, template)


TYPED = st.builds(typed_expression, st.randoms(use_true_random=False))


def _junked(text: str, data) -> str:
    """Insert, delete or replace a few characters."""
    for _ in range(data.draw(st.integers(1, 3))):
        i = data.draw(st.integers(0, len(text)))
        how = data.draw(st.sampled_from(["insert", "delete", "replace"]))
        junk = data.draw(st.sampled_from(JUNK))
        if how == "insert":
            text = text[:i] + junk + text[i:]
        elif how == "delete":
            text = text[:i] + text[i + 1:]
        else:
            text = text[:i] + junk + text[i + 1:]
    return text


def _check(text: str, expect: str | None = None) -> None:
    count("inputs")
    with alarm(10):
        kind, code, offset, message = outcome(text, expect)
    assert kind in ("value", "compile", "runtime")
    if kind == "value":
        return
    assert code in EVAL_CODES, (text, code, message)
    assert 0 <= offset <= len(text), (text, offset, message)
    assert message
    if kind == "compile":
        try:
            compile_expr(text, SCOPE, expect)
        except CompileError as exc:
            for p in exc.problems:
                assert 0 <= p.offset <= len(text) and p.length >= 1, (text, p)
                assert p.code in EVAL_CODES, (text, p)


@FUZZ
@given(text=EXPR)
def test_random_expressions(text):
    _check(text)


@FUZZ
@given(text=EXPR, expect=st.sampled_from(["bool", "int", "num", "list<card>", "str"]))
def test_random_expressions_with_an_expected_type(text, expect):
    _check(text, expect)


@settings(FUZZ, max_examples=1500)
@given(text=st.one_of(EXPR, TYPED), data=st.data())
def test_random_expressions_with_junk(text, data):
    _check(_junked(text, data))


@settings(FUZZ, max_examples=300)
@given(text=st.text(max_size=60))
def test_arbitrary_text(text):
    _check(text)


@settings(FUZZ, max_examples=3000)
@given(text=TYPED)
def test_random_well_typed_expressions(text):
    _check(text)


def _reference_outcome(text: str):
    """What the closures alone give for `text` (value or located error)."""
    try:
        comp = compile_expr(text, SCOPE)
    except CompileError:
        return None
    try:
        return ("value", repr(comp.reference(fresh_ctx()))[:200], comp.fast is not None)
    except EvalError as exc:
        return ("runtime", exc.offset, exc.message, comp.fast is not None)


def test_generated_code_agrees_with_the_closures():
    """3,000 random well-typed expressions give the same value, or the same located error, on
    generated code (rulekit.lang.expr.codegen) as on the closures alone."""
    import random
    values = generated = 0
    for seed in range(3000):
        text = typed_expression(random.Random(seed))
        count("inputs")
        with alarm(10):
            ref = _reference_outcome(text)
            if ref is None:
                continue
            kind, code, offset, message = outcome(text)
        generated += ref[-1]
        if ref[0] == "value":
            values += 1
            assert (kind, message) == ("value", ref[1]), text
        else:
            assert (kind, offset, message) == ("runtime", ref[1], ref[2]), text
    print(f"codegen differential: {values} values, {generated} on generated code")
    assert values > 1000 and generated > 2000

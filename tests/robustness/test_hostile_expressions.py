"""Hostile expressions: nesting, huge numbers, division by zero, huge collections, endless work,
names outside the registry, attributes of non-cards. Each ends in a CompileError or EvalError
with an offset inside the text (a located E03x in a file) within fixed limits of time and memory."""
from __future__ import annotations

import pytest

from rulekit.engine.build import check_variant

from .helpers import assert_located, count, measure, run_isolated, variant_text, write
from .exprs import EVAL_CODES, outcome

# (expression, code, phase): phase 'compile' or 'runtime' or 'any'
CASES = [
    # nesting and length
    ("(" * 100 + "1" + ")" * 100, "E030", "compile"),
    ("[" * 100 + "1" + "]" * 100, "E030", "compile"),
    ("abs(" * 200 + "1" + ")" * 200, "E030", "compile"),
    ("not " * 5000 + "true", "E030", "compile"),
    ("1" + " + 1" * 5000, "E030", "compile"),
    ("'" + "x" * 5000 + "'", "E030", "compile"),
    ("if true then " * 400 + "1" + " else 0" * 400, "E030", "compile"),
    ("- " * 1990 + "1", None, "any"),
    ("not " * 999 + "true", None, "any"),
    ("1" + " + 1" * 999, None, "any"),
    ("x -> " * 100 + "1", None, "any"),
    ("map([1], a -> map([1], b -> " * 10 + "1" + "))" * 10, None, "any"),
    # huge numbers
    ("2 ** 64 ** 64", "E034", "compile"),
    ("10 ** 64", "E034", "compile"),
    ("2 ** (0 - 1)", "E034", "compile"),
    ("2 ** (1 / 2)", "E034", "compile"),
    ("10 ** 15 * 10 ** 15 * 10", "E034", "compile"),
    ("9" * 40, "E034", "compile"),
    ("0." + "0" * 40 + "1", "E034", "compile"),
    ("(count(seats) + 1) ** 64", "E034", "runtime"),
    ("count(seats) ** 1000000000", "E034", "runtime"),
    ("sum(map(range(10000), i -> 10 ** 27))", "E034", "runtime"),
    ("sum(map(range(10000), i -> i)) * 10 ** 25", "E034", "runtime"),
    ("n_players * 10 ** 30", "E034", "runtime"),
    ("n_players / 10 ** 30 / 7", "E034", "runtime"),
    ("(n_players / 7) ** 9", "E034", "runtime"),
    ("max(map(range(200), i -> n_players)) ** 64", "E034", "runtime"),
    # division by zero
    ("1 / 0", "E034", "compile"),
    ("1 // 0", "E034", "compile"),
    ("1 % 0", "E034", "compile"),
    ("n_players / (dealer - dealer)", "E034", "runtime"),
    ("n_players % (n_players - n_players)", "E034", "runtime"),
    ("sum(map(seats, p -> 1 / p))", "E034", "runtime"),
    # huge collections
    ("subsets(range(10000), 5000)", "E034", "runtime"),
    ("subsets(range(10000), 2)", "E034", "runtime"),
    ("subsets(range(100), 50, s -> true)", "E034", "runtime"),
    ("partitions(range(10000), 2, s -> true)", "E034", "runtime"),
    ("partitions(range(2000), 1, s -> true)", "E034", "runtime"),
    ("partitions(range(30), 2, s -> true)", "E034", "runtime"),
    ("partitions(range(10), 0, s -> true)", "E034", "runtime"),
    ("range(10 ** 30)", "E034", "runtime"),
    ("range(0 - 10 ** 30, 10 ** 30)", "E034", "runtime"),
    ("range(10001)", "E034", "runtime"),
    ("[1, 2, 3][10 ** 20]", "E034", "runtime"),
    ("hand[10 ** 20]", "E034", "runtime"),
    ("first(filter(range(10), i -> i > 100))", "E034", "runtime"),
    ("min(filter(range(10), i -> i > 100))", "E034", "runtime"),
    ("max_by([], i -> i)", "E034", "runtime"),
    # names outside the registry
    ("__class__", "E031", "compile"),
    ("__import__('os')", "E031", "compile"),
    ("__import__('os').system('touch PWNED')", "E030", "compile"),
    ("os", "E031", "compile"),
    ("os.system", "E031", "compile"),
    ("open('/etc/passwd')", "E031", "compile"),
    ("eval('1')", "E031", "compile"),
    ("exec('1')", "E031", "compile"),
    ("compile('1', 'f', 'eval')", "E031", "compile"),
    ("globals()", "E031", "compile"),
    ("locals()", "E031", "compile"),
    ("vars()", "E031", "compile"),
    ("getattr(dealer, 'real')", "E031", "compile"),
    ("type(dealer)", "E031", "compile"),
    ("print(1)", "E031", "compile"),
    ("input()", "E031", "compile"),
    ("breakpoint()", "E031", "compile"),
    ("__builtins__", "E031", "compile"),
    ("builtins", "E031", "compile"),
    ("sys", "E031", "compile"),
    ("ctx", "E031", "compile"),
    ("self", "E031", "compile"),
    ("lambda", "E031", "compile"),
    ("__name__", "E031", "compile"),
    ("__file__", "E031", "compile"),
    ("REGISTRY", "E031", "compile"),
    ("card('1-1').__class__", "E031", "compile"),
    ("card('1-1').__init__", "E031", "compile"),
    ("card('1-1').__globals__", "E031", "compile"),
    ("first(hand[0]).__dict__", "E031", "compile"),
    ("opt.__class__", "E031", "compile"),
    ("opt.__dict__", "E031", "compile"),
    ("opt", "E033", "compile"),
    ("count", "E033", "compile"),
    ("map", "E033", "compile"),
    # attributes of things that are not cards
    ("dealer.__class__", "E033", "compile"),
    ("dealer.value", "E033", "compile"),
    ("(1).real", "E033", "compile"),
    ("'x'.upper", "E033", "compile"),
    ("[1].append", "E033", "compile"),
    ("seats.__getitem__", "E033", "compile"),
    ("hand.__len__", "E033", "compile"),
    ("chips.value", "E033", "compile"),
    ("true.month", "E033", "compile"),
    ("map(seats, p -> p.value)", "E033", "compile"),
    ("card('1-1').value.__class__", "E033", "compile"),
    ("hand['__class__']", "E033", "compile"),
    ("dealer(1)", "E033", "compile"),
    # text that is not ASCII names
    ("ｏｐｅｎ('x')", "E030", "compile"),
    ("café", "E030", "compile"),
    ("dealer\x00", "E030", "compile"),
    ("dealer; import os", "E030", "compile"),
    ("`ls`", "E030", "compile"),
    ("{'a': 1}", "E030", "compile"),
    ("seats[::-1]", "E030", "compile"),
    ("", "E030", "compile"),
]


@pytest.mark.parametrize("text,code,phase", CASES, ids=[c[0][:40] for c in CASES])
def test_hostile_expression(text, code, phase, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    count("inputs")
    m = measure(lambda: outcome(text))
    assert m.error is None, f"{type(m.error).__name__}: {m.error}"[:500]
    kind, got_code, offset, _msg = m.value
    assert kind in ("value", "compile", "runtime")
    if code is not None:
        assert got_code == code, m.value
    if phase != "any":
        assert kind == phase, m.value
    if kind != "value":
        assert 0 <= offset <= len(text), m.value
    m.check_bounds()
    assert not (tmp_path / "PWNED").exists()


@pytest.mark.parametrize("text", [
    "map(range(10000), x -> map(range(10000), y -> x + y))",
    "count(filter(range(10000), a -> any(range(10000), b -> a == b)))",
])
def test_nested_loops_hit_the_evaluation_budget(text):
    """2 000 000 lambda calls at most, then a located E034 (run in a child: no tracing slowdown)."""
    count("inputs")
    res = run_isolated(f"""
        import resource, time
        from tests.robustness.exprs import outcome
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        t0 = time.perf_counter()
        RESULT["outcome"] = outcome({text!r})
        RESULT["seconds"] = time.perf_counter() - t0
        RESULT["peak"] = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024
    """, timeout=60)
    assert res["status"] == "ok", res
    kind, code, offset, msg = res["outcome"]
    assert (kind, code) == ("runtime", "E034") and "budget" in msg, res
    assert 0 <= offset < len(text)
    assert res["peak"] < 200_000_000, res  # memory, not wall-clock (issue 12)


def test_expression_errors_are_located_in_the_file(tmp_path, monkeypatch):
    """Compile and run-time errors of expressions in a variant point at the text in the file."""
    monkeypatch.chdir(tmp_path)
    body = """\
        round:
          - id: r
            steps:
              - let: {a: "__import__('os')"}
              - let: {b: "dealer.value"}
              - let: {c: "2 ** 100"}
        """
    f = write(tmp_path, "exprs.yaml", variant_text(body))
    count("inputs")
    diags = check_variant(f.name)
    assert_located(diags, "exprs.yaml")
    lines = f.read_text().splitlines()
    got = [(d.code, d.span.line, lines[d.span.line - 1][d.span.col - 1:d.span.col - 1 + d.span.length]) for d in diags]
    assert got == [("E031", 20, "__import__"), ("E033", 21, ".value"), ("E034", 22, "100")], got
    runtime = """\
        round:
          - id: r
            steps:
              - let: {z: "n_players - n_players"}
              - add: {x: "n_players // z"}
        """
    f = write(tmp_path, "runtime.yaml", variant_text(runtime))
    count("inputs")
    diags = check_variant(f.name)
    assert [(d.code, d.span.line, d.span.col) for d in diags] == [("E034", 21, 32)], diags


# -- work and memory that the budget does not see (known bugs in rulekit/expr) ---------------------

def _bounded(text: str) -> dict:
    count("inputs")
    return run_isolated(f"""
        import time
        from tests.robustness.exprs import outcome
        t0 = time.perf_counter()
        RESULT["outcome"] = outcome({text!r})
        RESULT["seconds"] = time.perf_counter() - t0
    """, timeout=6, memory=700_000_000)


def _ends_in_e034(res: dict) -> None:
    assert res["status"] == "ok", f"no clean error: {res}"
    assert res["outcome"][:2] == ["runtime", "E034"], res
    # no wall-clock assertion (issue 12): the budget bounds the work; run_isolated guards hangs


def test_budget_counts_the_items_functions_build():
    _ends_in_e034(_bounded("map(range(10000), x -> range(10000))"))


def test_budget_counts_the_work_of_subsets():
    _ends_in_e034(_bounded("count(filter(range(10000), x -> count(subsets(range(200), 2)) > 0))"))


def test_multiplying_a_list_typed_any_is_bounded():
    _ends_in_e034(_bounded("first(keys(count_by([[1, 2]], c -> c))) * 100000000"))


def test_multiplying_text_typed_any_is_bounded():
    _ends_in_e034(_bounded("first(keys(count_by(['ab'], c -> c))) * 1000000000"))


def test_codes_are_expression_codes():
    assert EVAL_CODES == {"E030", "E031", "E032", "E033", "E034", "E040"}

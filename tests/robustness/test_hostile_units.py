"""Issue 12, unit by unit: the pieces the hostile corpus relies on, checked in-process."""
from __future__ import annotations

import argparse
import io
import json
import os

import pytest

from rulekit.cli.args import UsageError, bounded_int, open_output
from rulekit.engine.cost import MAX_KEPT, MAX_NEST, oversize
from rulekit.core.errors import QUOTE_WINDOW, RulekitError, Span, error
from rulekit.lang.expr.functions import MAX_BUILT, _flatten, _subsets, minus_lists
from rulekit.people.replay import MAX_LOG_DEPTH, depth_of, read_log
from rulekit.lang.source import parse_text
from rulekit.people.terminal import InertStream

from .helpers import count


@pytest.mark.parametrize("key,shown", [("1", "number 1"), ("true", "yes/no value true"), ("2.5", "number 2.5")])
def test_a_key_that_is_not_text_is_a_located_error(key, shown):
    count("inputs")
    with pytest.raises(RulekitError) as exc:
        parse_text(f"round:\n  - set: {{{key}: \"2\"}}\n", "k.yaml")
    d = exc.value.first
    assert (d.code, d.span.line, d.span.col) == ("E010", 2, 11) and shown in d.message


def test_an_error_echoes_a_bounded_inert_window():
    line = "x" * 1_000_000 + "\x1b[2J" + "y" * 1_000_000
    d = error(Span("f.yaml", 1, 1_000_001, 4), "E030", "bad \x1b]52;c;AAAA\x07 " + "m" * 50_000)
    out = d.render(line)
    assert "\x1b" not in out and "\x07" not in out and "\\x1b" in out
    assert len(out) < 3 * QUOTE_WINDOW + 2_000
    quoted, caret = out.splitlines()[1:3]
    assert caret.index("^") == quoted.index("\\x1b")  # the caret still points at the column


def test_the_terminal_stream_shows_escapes_but_keeps_carriage_returns():
    raw = io.StringIO()
    InertStream(raw).write("a\x1b[2Jb\rprogress\n")
    assert raw.getvalue() == "a\\x1b[2Jb\rprogress\n"


def test_kept_values_count_nested_items_text_and_depth():
    shared = [1]
    for _ in range(25):
        shared = [shared, shared]  # 2^25 items behind 2 top-level ones, 26 deep
    assert "items" in oversize(shared)
    deep: list = [1]
    for _ in range(MAX_NEST + 1):
        deep = [deep]
    assert "nested" in oversize(deep)
    assert "text" in oversize("s" * (MAX_KEPT + 1))
    assert oversize(["card"] * 100) is None and oversize("short") is None


def test_builders_refuse_before_building():
    big = list(range(10_000))
    with pytest.raises(Exception, match="flatten"):
        _flatten([big] * (MAX_BUILT // len(big) + 1))
    with pytest.raises(Exception, match="subsets"):
        _subsets(big, len(big) - 1)
    a = list(range(50_000))
    assert minus_lists(a, a[::2]) == a[1::2]  # linear: a quadratic scan would take minutes
    assert minus_lists([[1], [2]], [[2]]) == [[1]]


def test_numbers_on_the_command_line_are_bounded():
    parse = bounded_int("--players", 1, 64)
    assert parse("3") == 3
    for bad in ("0", "-1", "1000000000", "1e3", "3.0", "", "9" * 5000):
        with pytest.raises(argparse.ArgumentTypeError):
            parse(bad)


def test_output_files_are_checked_and_opened_first(tmp_path):
    for path in (str(tmp_path), "/dev/full", str(tmp_path / "missing" / "out.json")):
        with pytest.raises(UsageError):
            open_output(path, "--json")
    fh = open_output(str(tmp_path / "out.json"), "--json")
    assert fh is not None and (tmp_path / "out.json").exists()
    fh.close()


def _log_file(tmp_path, text: str):
    p = tmp_path / "log.json"
    p.write_text(text)
    return str(p)


@pytest.mark.parametrize("text,word", [
    ("", "empty"), ("{", "not valid JSON"), ("[" * 100_000 + "]" * 100_000, "nested"),
    ('{"seed": NaN}', "not valid JSON"), ("[1]", "JSON object"), ('{"version": 1}', "version"),
    ('{"version": 2}', "E010"),
])
def test_malformed_logs_are_clear_errors(tmp_path, text, word):
    count("inputs")
    with pytest.raises(RulekitError) as exc:
        read_log(_log_file(tmp_path, text))
    assert word in exc.value.first.message or word == exc.value.first.code


def test_a_log_is_never_read_from_a_pipe_or_device(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path in (str(fifo), "/dev/zero", str(tmp_path)):
        with pytest.raises(RulekitError):
            read_log(path)  # returns at once: no blocking open, no endless read


def test_log_depth_is_measured_without_recursion():
    v: list = []
    for _ in range(100_000):
        v = [v]
    assert depth_of(v, MAX_LOG_DEPTH) == MAX_LOG_DEPTH + 1
    assert depth_of(json.loads('{"a": [1, {"b": 2}]}'), MAX_LOG_DEPTH) == 3


@pytest.mark.parametrize("codegen", [True, False])
def test_short_scans_are_free_and_long_ones_are_charged_on_both_paths(codegen):
    from rulekit.lang.expr import compile_expr
    from rulekit.lang.expr.scope import EVAL_BUDGET
    from rulekit.lang.expr.functions import FREE_SCAN

    from .exprs import SCOPE, fresh_ctx
    scope = SCOPE.with_locals({"xs": "list<int>", "anything": "any"})
    scope.codegen = codegen
    for name in ("xs", "anything"):  # a scan of a list, and a membership test on a value of any type
        for n, charged in ((FREE_SCAN, 0), (FREE_SCAN + 1, FREE_SCAN + 1)):
            comp = compile_expr(f"99 in {name}", scope)
            ctx = fresh_ctx()
            ctx.loc[name] = list(range(n))
            assert comp.fn(ctx) is False
            assert EVAL_BUDGET - ctx.budget == charged, (name, n, codegen)
    # the long scans still exhaust the budget: each is charged its length
    comp = compile_expr("count(filter(range(9000), i -> i in xs))", scope)
    ctx = fresh_ctx()
    ctx.loc["xs"] = list(range(FREE_SCAN + 1000))
    with pytest.raises(Exception, match="budget"):
        comp.fn(ctx)

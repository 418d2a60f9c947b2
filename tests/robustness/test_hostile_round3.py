"""Issue 28: hostile input, round three (shared lists, text for people, statistics, Unicode format
characters, Unicode digits, padded logs, Dask scheduler addresses).

The corpus cases (benchmarks/hostile_round3.py) run `python -m rulekit` in a child process as a user
would; the unit cases below check the pieces directly. Work is bounded by the engine's budget and
limits: the 60 s in the corpus runs is only a safety net against a hang, never a speed assertion
(benchmarks/hostile_corpus.py prints the times).
"""
from __future__ import annotations

import sys
import unicodedata

import pytest

from rulekit.core.inert import inert, inert_json
from rulekit.core.numbers import parse_int
from rulekit.lang.expr import EvalError, compile_expr
from rulekit.lang.expr.functions import walked

from .exprs import SCOPE, fresh_ctx
from .helpers import assert_ends_cleanly, count, picked_cases

corpus = sys.modules["hostile_corpus"]  # loaded once by helpers (benchmarks/hostile_corpus.py)

# every case of the small classes; of LET and DASK the ones that show each path once (the script runs all)
PICK = {
    "LET": {"eq", "ne_closures", "in", "distinct_closures", "minus", "index_of_closures", "count_by", "sorted",
            "say", "say_validate", "choice_value_log", "pay_why", "where_eq"},
    "DASK": {"bad_port", "port_text", "ws", "garbage", "inproc", "ucx", "tls", "escape", "empty", "no_port",
             "silent_server_timeout", "refused_fast", "timeout_bad"},
}
CLASSES = ("LET", "TXT", "STATS", "UNI", "OLD", "SAVE", "DASK")


@pytest.mark.parametrize("case", picked_cases(corpus, CLASSES, PICK))
def test_round3_case_ends_cleanly(case):
    assert_ends_cleanly(corpus, case)


# -- UNI: the terminal guard ------------------------------------------------------------------------

HIDDEN = [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) in ("Cc", "Cf", "Zl", "Zp")
          and chr(c) not in "\n\t"]


def test_every_format_and_control_character_is_shown_as_an_escape():
    assert "\u061c" in HIDDEN and "\u2064" in HIDDEN and "\U000e0041" in HIDDEN
    leaks = [hex(ord(c)) for c in HIDDEN if any(x in HIDDEN for x in inert(f"a{c}b"))]
    assert leaks == []
    assert inert("a\u061cb") == "a\\u061cb" and inert("\U000e0041") == "\\U000e0041"


def test_inert_json_keeps_the_value_and_hides_format_characters():
    import json
    text = json.dumps("x\u061c\u2060\U000e0020\u202ey 日本", ensure_ascii=False)
    safe = inert_json(text)
    assert json.loads(safe) == json.loads(text)
    assert not any(c in HIDDEN for c in safe)
    assert "日本" in safe  # ordinary letters stay as they are


# -- OLD: one strict number parser ------------------------------------------------------------------

@pytest.mark.parametrize("text", ["²", "٣", "１", "1_0", " 1", "1 ", "", "+", "-", "0x10", "1.0", "१२", True, 3])
def test_parse_int_refuses_anything_but_ascii_digits(text):
    assert parse_int(text) is None


def test_parse_int_reads_ascii_digits_and_a_sign():
    assert parse_int("007") == 7 and parse_int("-3") == -3 and parse_int("+5") == 5
    assert parse_int("-3", signed=False) is None
    assert parse_int("1" * 41) is None and parse_int("1" * 40) == int("1" * 40)


# -- LET: shared lists cost what they walk ----------------------------------------------------------

def _dag(k: int) -> str:
    return ("let a0 = [1, 2] in let b0 = [1, 2] in "
            + "".join(f"let a{i} = [a{i - 1}, a{i - 1}] in let b{i} = [b{i - 1}, b{i - 1}] in " for i in range(1, k + 1)))


def test_walked_counts_shared_lists_each_time_and_measures_each_once():
    a: list = [1, 2]
    for _ in range(60):
        a = [a, a]
    assert walked(a, 10 ** 30) == 2 ** 62 - 2  # the tree's items, found in 120 steps
    assert walked([[1, 2], [3], "abc", [[], [1]]], 100) == 13
    assert walked(a, 1000) > 1000


@pytest.mark.parametrize("expr", ["a40 == b40", "a40 != b40", "b39 in a40", "count(distinct([a40, b40]))",
                                  "count([a40] - [b40])", "index_of([a40], b40)",
                                  "count(keys(count_by([a40, b40], q -> q)))", "count(sorted([b40, a40]))",
                                  "count(distinct(range(3), i -> a40))", "[a40] in [[b40]]"])
@pytest.mark.parametrize("path", ["fast", "reference"])
def test_a_dag_of_depth_40_is_refused_on_both_paths(expr, path):
    count("inputs")
    comp = compile_expr(_dag(40) + expr, SCOPE)
    fn = getattr(comp, path) or comp.fn
    with pytest.raises(EvalError, match="budget exhausted"):
        fn(fresh_ctx())


@pytest.mark.parametrize("path", ["fast", "reference"])
def test_small_shared_lists_still_compare(path):
    comp = compile_expr(_dag(8) + "a8 == b8 and count(distinct([a8, b8])) == 1 and index_of([[a6, a6], a7], b7) == 0",
                        SCOPE)
    fn = getattr(comp, path) or comp.fn
    ctx = fresh_ctx()
    before = ctx.budget
    assert fn(ctx) is True
    assert before - ctx.budget >= 2 ** 9  # the walks were paid for


# -- DASK: addresses checked before connecting ------------------------------------------------------

@pytest.mark.parametrize("address,found", [
    ("tcp://127.0.0.1:8786", "tcp://127.0.0.1:8786"), ("127.0.0.1:8786", "tcp://127.0.0.1:8786"),
    ("tcp://[::1]:8786", "tcp://[::1]:8786"), ("tcp://scheduler.example:1", "tcp://scheduler.example:1")])
def test_scheduler_addresses_accepted(address, found):
    from rulekit.analysis.distributed import check_address
    assert check_address(address) == found


@pytest.mark.parametrize("address,words", [
    ("", "empty"), ("   ", "empty"), ("tcp://127.0.0.1", "no port"), ("tcp://127.0.0.1:0", "from 1 to 65535"),
    ("tcp://127.0.0.1:65536", "from 1 to 65535"), ("tcp://127.0.0.1:٣", "from 1 to 65535"),
    ("ws://127.0.0.1:1", "scheme 'ws'"), ("tls://127.0.0.1:1", "certificates"), ("inproc://x", "scheme"),
    ("tcp://a b:1", "not a host"), ("tcp://\x1b[2J:1", "not a host"), ("tcp://[zz]:1", "not a host")])
def test_scheduler_addresses_refused_with_a_reason(address, words):
    from rulekit.analysis.distributed import check_address
    with pytest.raises(ValueError, match=words) as exc:
        check_address(address)
    assert "\x1b" not in str(exc.value)

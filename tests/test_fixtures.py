"""Fixture variants: valid ones check clean; each invalid one reports its expected FIRST error.

Every file in tests/fixtures/invalid/ starts with a comment naming its first diagnostic, e.g.
`# expect: invalid/bad_zone.yaml:17:32: error[E040]` (path relative to tests/fixtures).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulekit.engine.build import check_variant
from rulekit.core.errors import CODES, render_all

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "fixtures"
INVALID = sorted((FIX / "invalid").glob("*.yaml"))
VALID = sorted((FIX / "valid").glob("*.yaml"))
EXPECT = re.compile(r"^# expect: (?P<where>\S+:\d+:\d+): (?P<severity>error|warning)\[(?P<code>E\d{3})\]$")


@pytest.fixture(autouse=True)
def in_fixtures(monkeypatch):
    """Run from tests/fixtures so diagnostics name files as invalid/x.yaml."""
    monkeypatch.chdir(FIX)


def rel(p: Path) -> str:
    return str(p.relative_to(FIX))


def expectation(path: Path) -> str:
    first = path.read_bytes().split(b"\n", 1)[0].decode("ascii")  # the comment is ASCII even in non-UTF-8 files
    m = EXPECT.match(first)
    assert m, f"{rel(path)}: first line must be '# expect: <file>:<line>:<col>: error[Exxx]'"
    return first[len("# expect: "):]


def first_line(diags) -> str:
    d = diags[0]
    return f"{d.span}: {d.severity}[{d.code}]"


def test_enough_invalid_fixtures():
    assert len(INVALID) >= 15
    assert len(VALID) >= 3


@pytest.mark.parametrize("path", INVALID, ids=rel)
def test_invalid_fixture_first_error(path):
    diags = check_variant(rel(path))
    assert diags, f"{rel(path)}: no error reported"
    assert first_line(diags) == expectation(path), render_all(diags)


@pytest.mark.parametrize("path", INVALID, ids=rel)
def test_invalid_fixture_errors_render(path):
    diags = check_variant(rel(path))
    text = render_all(diags)  # must not raise
    for d in diags:
        assert d.code in CODES
        assert d.span.line >= 1 and d.span.col >= 1
        assert f"{d.span}: error[{d.code}]: {d.message}" in text


def test_all_invalid_fixtures_render_together():
    every = [d for p in INVALID for d in check_variant(rel(p))]
    assert len(every) >= len(INVALID)
    assert render_all(every).count("error[") == len(every)


@pytest.mark.parametrize("path", VALID, ids=rel)
def test_valid_fixture_has_no_diagnostics(path):
    # the fixtures exercise the engine; rules text for players is tested in test_rulestext.py
    # W091 warnings (prose advice for players) are not engine faults: only errors fail here
    diags = [d for d in check_variant(rel(path), strict=True, require_text=False) if d.severity == "error"]
    assert diags == [], render_all(diags)


def test_the_fixtures_cover_the_main_error_codes():
    codes = {expectation(p).rsplit("[", 1)[1].rstrip("]") for p in INVALID}
    assert {"E001", "E002", "E003", "E004", "E010", "E020", "E021", "E030", "E031", "E033", "E040",
            "E041", "E050", "E061"} <= codes


# --------------------------------------------------------------------------- exact messages

def test_rendered_unknown_zone():
    assert render_all(check_variant("invalid/bad_zone.yaml")[:1]) == (
        "invalid/bad_zone.yaml:17:32: error[E040]: unknown zone 'feild'\n"
        "  ==> At phase 'deal'\n"
        "   |       - move: {from: deck, to: feild, count: 1}\n"
        "   |                                ^^^^^\n"
        "  help: did you mean 'field'?")


def test_rendered_expression_syntax_error_points_inside_the_expression():
    assert render_all(check_variant("invalid/expr_syntax.yaml")[:1]) == (
        "invalid/expr_syntax.yaml:16:37: error[E030]: if: unexpected 'and': expected a value "
        "(a number, a name, a string, '(' or '[')\n"
        "  ==> At phase 'deal'\n"
        "   |       - if: \"count(hand[dealer]) >= and true\"\n"
        "   |                                     ^^^")


def test_rendered_unknown_top_level_key():
    assert render_all(check_variant("invalid/unknown_top_key.yaml")[:1]) == (
        "invalid/unknown_top_key.yaml:11:1: error[E010]: unknown key 'rounds': expected one of id, extends, "
        "abstract, meta, players, rules, decks, deck, options, presets, zones, vars, yaku, policies, records, stats, "
        "procedures, functions, game, display, example, round\n"
        "   | rounds:\n"
        "   | ^^^^^^\n"
        "  help: did you mean 'round' or 'records'?")


def test_misspelt_required_key_is_reported_once():
    # 'rounds' for 'round': one error at the misspelt key, not also "missing required key 'round'"
    assert len(check_variant("invalid/unknown_top_key.yaml")) == 1


# --------------------------------------------------------------------------- the CLI

def cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "rulekit", *args], cwd=FIX, env=env, capture_output=True,
                          text=True, timeout=120)


def test_cli_validate_invalid_file_exits_1():
    r = cli("validate", "invalid/bad_zone.yaml")
    assert r.returncode == 1
    assert "Traceback" not in r.stdout + r.stderr
    assert expectation(FIX / "invalid" / "bad_zone.yaml") in r.stderr


def test_cli_validate_valid_file_exits_0():
    r = cli("validate", "valid/mini-kabu.yaml")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stdout + r.stderr
    assert "valid/mini-kabu.yaml: ok" in r.stdout


@pytest.mark.parametrize("args", [(), ("validate",)], ids=["no-command", "validate-no-files"])
def test_cli_usage_error_exits_2(args):
    r = cli(*args)
    assert r.returncode == 2
    assert "Traceback" not in r.stdout + r.stderr

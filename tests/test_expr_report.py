"""Issue 16 targets: no expression in variants/ over 200 characters, no sub-expression written
out more than twice in one file (benchmarks/expr_report.py prints the figures)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import expr_report  # noqa: E402


@pytest.mark.parametrize("path", expr_report.variant_files(), ids=lambda p: Path(p).name)
def test_variant_meets_the_expression_targets(path):
    longest, length, sub, n = expr_report.report(path)
    assert length <= 200, f"{length} characters: {longest}"
    assert n <= 2, f"written out {n} times: {sub}"


def test_the_report_finds_long_and_repeated_expressions(tmp_path):
    long = " + ".join(f"count(xs, c -> c.value == {k})" for k in range(8))
    p = tmp_path / "v.yaml"
    p.write_text(f'a: "{long}"\nb: "count(xs, c -> c.value == 3) > 1"\nname: "not an expression here"\n')
    longest, length, sub, n = expr_report.report(str(p))
    assert length == len(long) > 200
    assert n == 2 and sub == "count(xs, c -> c.value == 3)"


def test_the_script_prints_every_variant_and_exits_0():
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "expr_report.py")], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"0 of {len(expr_report.variant_files())} variants over the targets" in r.stdout

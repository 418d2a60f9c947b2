"""Issue 25: rules text for players says things in words; `validate --strict` names each program word (E092)."""
from __future__ import annotations

import glob
import os
import subprocess
import sys
import textwrap

import pytest

from rulekit.engine.build import check_variant, load_variant
from rulekit.lang.vocabcheck import program_words, prose_problems

from .conftest import ROOT


@pytest.mark.parametrize("text,words", [
    ("every rotate_every rounds", ["rotate_every"]),
    ("the dealer wins (option `tie`)", ["`tie`"]),
    ("as opt.stock says", ["opt.stock"]),
    ("play with -o tie=dealer or --preset strict", ["-o tie", "--preset"]),
    ("see variants/kabufuda/dare.yaml", ["variants/kabufuda/dare.yaml"]),
    ("The dealer's 4-then-1 beats a two-card hand; twenty-one.", []),
])
def test_program_words_are_found(text, words):
    assert program_words(text) == words


def test_strict_validate_reports_program_words_where_they_are(tmp_path):
    parent = os.path.join(ROOT, "variants", "kabufuda", "oicho-kabu.yaml")
    f = tmp_path / "worded.yaml"
    f.write_text(textwrap.dedent(f"""\
        id: worded
        extends: {parent}
        meta:
          names: {{en: Worded}}
        options:
          rotate:
            type: int
            default: 1
            description: With dealer_rotation rotate, every `rotate` rounds.
        round:
          - id: betting
            text: Each player stakes up to opt.table_limit chips.
        """), encoding="utf-8")
    assert not [d for d in check_variant(str(f)) if d.code == "E092"]  # only --strict asks
    diags = [d for d in check_variant(str(f), strict=True) if d.code == "E092"]
    assert sorted(d.span.line for d in diags) == [9, 12]
    assert "'dealer_rotation'" in diags[0].message and "'`rotate`'" in diags[0].message
    r = subprocess.run([sys.executable, "-m", "rulekit", "validate", "--strict", str(f)], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode != 0 and "worded.yaml:12:" in r.stdout + r.stderr and "E092" in r.stdout + r.stderr


def test_shipped_variants_are_in_words():
    for path in sorted(glob.glob(os.path.join(ROOT, "variants", "*", "*.yaml"))):
        assert prose_problems(load_variant(path)) == [], path

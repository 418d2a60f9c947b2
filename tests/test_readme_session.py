"""The README's captured session at the table is what the command prints today."""
from __future__ import annotations

import os
import re
import subprocess
import sys

from .conftest import ROOT


def test_readme_table_session_is_current():
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    block = re.search(r"<!-- table-session:start -->\n```text\n(.*?)```\n<!-- table-session:end -->", readme, re.S)
    assert block, "README has no table session"
    first, _, shown = block.group(1).partition("\n")
    m = re.fullmatch(r"\$ printf '([^']*)' \| rulekit (.*)", first)
    assert m, first
    answers = m.group(1).encode().decode("unicode_escape")
    env = {**os.environ, "NO_COLOR": "1"}
    r = subprocess.run([sys.executable, "-m", "rulekit", *m.group(2).split()], input=answers, capture_output=True,
                       text=True, cwd=ROOT, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert r.stdout == shown
    # it shows a human's game: your cards and value, your answer, the summary and the winner
    assert "You are dealt" in shown and "You choose:" in shown and "End of round 1" in shown
    assert "Game over after 1 round." in shown

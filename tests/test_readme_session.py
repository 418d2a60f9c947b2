"""The README shows a whole game at the table as a person plays it (the session is run and
compared with what the command prints by the shared checker, tests/test_docs_outputs.py)."""
from __future__ import annotations

import os
import re

from .conftest import ROOT


def test_readme_table_session_shows_a_human_game():
    readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    block = re.search(r"<!-- table-session:start -->\n```text\n(.*?)```\n<!-- table-session:end -->", readme, re.S)
    assert block, "README has no table session"
    first, _, shown = block.group(1).partition("\n")
    assert re.fullmatch(r"\$ printf '[^']*' \| rulekit play .*--human \d+.*", first), first
    # it shows a human's game: your cards and value, your answer, the summary and the winner
    assert "You are dealt" in shown and "You choose:" in shown and "End of round 1" in shown
    assert "Game over after 1 round." in shown

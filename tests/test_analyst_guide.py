"""docs/guides/analyst.md shows the commands an analyst needs (their outputs are checked by the
shared checker, tests/test_docs_outputs.py)."""
from __future__ import annotations

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUIDE = os.path.join(ROOT, "docs", "guides", "analyst.md")


def blocks(path: str = GUIDE, only: str = "") -> list[tuple[str, str]]:
    """(command, output) of each console block of a guide (those starting `$ rulekit ONLY`)."""
    text = open(path, encoding="utf-8").read()
    out = []
    for body in re.findall(r"```console\n(.*?)```", text, re.S):
        first, _, rest = body.partition("\n")
        if not first.startswith("$ rulekit " + only):
            continue
        out.append((first[len("$ rulekit "):], rest))
    return out


def test_the_guide_has_commands():
    cmds = [c for c, _ in blocks()]
    assert any("--games" in c for c in cmds) and any("--stats" in c for c in cmds)
    assert any("--compare" in c for c in cmds) and any(c.startswith("policies") for c in cmds)

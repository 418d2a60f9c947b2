"""docs/guides/table.md shows leaving a game and coming back (its sessions are run and compared
by the shared checker, tests/test_docs_outputs.py)."""
from __future__ import annotations

import os
import re

from .conftest import ROOT

GUIDE = os.path.join(ROOT, "docs", "guides", "table.md")


def _blocks() -> list[tuple[str, str, list[str]]]:
    """(answers typed, rulekit arguments, lines shown) of each console block of the guide."""
    text = open(GUIDE, encoding="utf-8").read()
    out = []
    for body in re.findall(r"```console\n(.*?)```", text, re.S):
        first, _, rest = body.partition("\n")
        m = re.fullmatch(r"\$ (?:printf '([^']*)' \| )?rulekit (.*)", first)
        assert m, first
        answers = (m.group(1) or "").encode().decode("unicode_escape")
        out.append((answers, m.group(2), rest.rstrip("\n").split("\n")))
    return out


def test_the_guide_shows_leaving_and_resuming():
    cmds = [a for _, a, _ in _blocks()]
    assert any("--resume" in c for c in cmds) and any("--human" in c for c in cmds)

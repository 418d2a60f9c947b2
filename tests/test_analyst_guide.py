"""Every command shown in docs/guides/analyst.md (and every simulate command of
docs/guides/house-rules.md) prints what the guide shows (the time taken aside)."""
from __future__ import annotations

import os
import re
import shlex

import pytest

from rulekit.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUIDE = os.path.join(ROOT, "docs", "guides", "analyst.md")
HOUSE_GUIDE = os.path.join(ROOT, "docs", "guides", "house-rules.md")
TIMING = re.compile(r"^\d+ (rounds|games) in [\d.]+ s \(\d+ (rounds|games)/s, \d+ process(es)?\)$", re.M)


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


# the house-rules guide's simulate outputs come from this command too
CHECKED = blocks() + blocks(HOUSE_GUIDE, "simulate ")


def normal(text: str) -> str:
    return TIMING.sub("N units in T s", text).rstrip()


def test_the_guide_has_commands():
    cmds = [c for c, _ in blocks()]
    assert any("--games" in c for c in cmds) and any("--stats" in c for c in cmds)
    assert any("--compare" in c for c in cmds) and any(c.startswith("policies") for c in cmds)


@pytest.mark.parametrize("cmd, expected", CHECKED, ids=[c[:60] for c, _ in CHECKED])
def test_guide_output_is_real(cmd, expected, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(shlex.split(cmd)) == 0
    assert normal(capsys.readouterr().out) == normal(expected)

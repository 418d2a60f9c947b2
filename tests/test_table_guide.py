"""The sessions shown in docs/guides/table.md are what the commands print today.

The blocks run in order in one folder (a later one may continue a game an earlier one saved);
a line '...' in a block stands for lines left out: the lines around it must match in order.
"""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

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


def _matches(shown: list[str], got: list[str]) -> bool:
    """`got` holds the shown lines in order: the first part at the start, the last at the end,
    parts between '...' lines somewhere in between."""
    parts, part = [], []
    for ln in shown:
        if ln == "...":
            parts.append(part)
            part = []
        else:
            part.append(ln)
    parts.append(part)
    if len(parts) == 1:
        return got == shown
    if got[:len(parts[0])] != parts[0] or (parts[-1] and got[-len(parts[-1]):] != parts[-1]):
        return False
    at = len(parts[0])
    for p in parts[1:-1]:
        while at <= len(got) - len(p) and got[at:at + len(p)] != p:
            at += 1
        if at > len(got) - len(p):
            return False
        at += len(p)
    return at <= len(got) - len(parts[-1])


def test_the_guide_shows_leaving_and_resuming():
    cmds = [a for _, a, _ in _blocks()]
    assert any("--resume" in c for c in cmds) and any("--human" in c for c in cmds)


def test_guide_sessions_are_real(tmp_path):
    env = {**os.environ, "NO_COLOR": "1", "XDG_STATE_HOME": str(tmp_path / "state")}
    for answers, args, shown in _blocks():
        r = subprocess.run([sys.executable, "-m", "rulekit", *shlex.split(args)], input=answers, text=True,
                           capture_output=True, cwd=tmp_path, env=env, timeout=300)
        assert r.returncode == 0, (args, r.stderr)
        got = r.stdout.rstrip("\n").split("\n")
        assert _matches(shown, got), f"rulekit {args} now prints:\n{r.stdout}"

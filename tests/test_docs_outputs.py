"""Docs that cannot go stale: every command shown with its output in README.md and docs/ is run
and its output compared, by this one checker.

A shown command is a line starting with `$ ` inside a ```console or ```text block; the lines up
to the next `$ ` line (or the end of the block) are its output (stdout and stderr as a terminal
shows them). The commands of one page run in order, in one scratch folder that sees the
project's variants/, docs/ and tests/ (so a later block may continue a game an earlier one
saved). What must vary is normalised: the time a simulation took. A line `...` in an output
stands for lines left out (the lines around it must match, in order). A block that only
illustrates is marked by the line `<!-- illustrative -->` just above it and is not run.

After a deliberate change of output, `RULEKIT_UPDATE_DOCS=1 pytest tests/test_docs_outputs.py`
writes what the commands print into the pages (blocks with `...` are left for a person), for
review with `git diff`.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import ROOT

PAGES = [Path(ROOT, "README.md"), *sorted(Path(ROOT, "docs").rglob("*.md"))]
FENCE = re.compile(r"^(?P<marker><!-- illustrative -->\n)?```(?:console|text)\n(?P<body>.*?)^```", re.S | re.M)
TIMING = re.compile(r"\b\d+ (rounds|games) in [\d.]+ s \(\d+ (rounds|games)/s, \d+ process(es)?\)")
UPDATE = os.environ.get("RULEKIT_UPDATE_DOCS") == "1"
LINKED = ("variants", "docs", "tests", "benchmarks", "schemas")


@dataclass(frozen=True)
class Shown:
    """One command shown in a page with the output the page claims."""

    page: str
    line: int
    command: str
    output: str


def shown_commands(page: Path) -> tuple[list[Shown], int]:
    """The commands shown with their outputs in `page`, and how many blocks are marked illustrative."""
    text = page.read_text(encoding="utf-8")
    out, illustrative = [], 0
    for m in FENCE.finditer(text):
        body = m.group("body")
        if not body.startswith("$ "):
            continue
        if m.group("marker"):
            illustrative += 1
            continue
        first_line = text.count("\n", 0, m.start("body")) + 1
        cmd, lines, at = None, [], first_line
        for i, ln in enumerate(body.rstrip("\n").split("\n")):
            if ln.startswith("$ "):
                if cmd is not None:
                    out.append(Shown(page.name, at, cmd, "\n".join(lines)))
                cmd, lines, at = ln[2:], [], first_line + i
            else:
                lines.append(ln)
        out.append(Shown(page.name, at, cmd, "\n".join(lines)))
    return out, illustrative


def normal(text: str) -> list[str]:
    """Output lines with what must vary (timings) and trailing spaces normalised."""
    text = TIMING.sub("N units in T s", text)
    return [ln.rstrip() for ln in text.rstrip("\n").split("\n")]


def matches(shown: list[str], got: list[str]) -> bool:
    """`got` holds the shown lines in order; a `...` line stands for any lines left out."""
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


ALL = {str(p.relative_to(ROOT)): shown_commands(p) for p in PAGES}
CHECKED = [p for p, (cmds, _n) in ALL.items() if cmds]


def scratch(tmp: Path) -> tuple[Path, dict]:
    """A folder that sees the project's files, and the environment the commands run in."""
    for name in LINKED:
        (tmp / name).symlink_to(Path(ROOT, name), target_is_directory=True)
    bindir = os.path.dirname(sys.executable)
    env = {**os.environ, "PATH": bindir + os.pathsep + os.environ.get("PATH", ""), "NO_COLOR": "1",
           "PYTHONUNBUFFERED": "1", "COLUMNS": "100", "XDG_STATE_HOME": str(tmp / "state")}
    return tmp, env


def test_the_docs_show_commands():
    counts = {p: len(c) for p, (c, _n) in ALL.items()}
    assert counts["README.md"] >= 1 and counts["docs/guides/house-rules.md"] >= 10, counts
    assert sum(counts.values()) >= 30, counts


def test_the_checker_sees_a_stale_output():
    assert matches(["a", "...", "c"], ["a", "b", "b2", "c"]) and not matches(["a", "c"], ["a", "b", "c"])
    assert normal("200 rounds in 1.5 s (133 rounds/s, 1 process)  \n") == ["N units in T s"]


@pytest.mark.parametrize("page", CHECKED)
def test_shown_output_is_what_the_command_prints(page, tmp_path):
    cwd, env = scratch(tmp_path)
    stale = []
    for s in ALL[page][0]:
        r = subprocess.run(["bash", "-c", s.command],
                           cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, timeout=600)
        got = normal(r.stdout)
        if not matches(normal(s.output), got) and UPDATE and "..." not in s.output.split("\n"):
            path = Path(ROOT, page)
            old = f"$ {s.command}\n{s.output}\n"
            text = path.read_text(encoding="utf-8")
            assert old in text, old
            gap = "\n" * (len(s.output) - len(s.output.rstrip("\n")))  # blank lines before the next command
            raw = [ln.rstrip() for ln in r.stdout.rstrip("\n").split("\n")]  # the real timings, not "T s"
            path.write_text(text.replace(old, f"$ {s.command}\n" + "\n".join(raw) + "\n" + gap, 1), encoding="utf-8")
        elif not matches(normal(s.output), got):
            stale.append(f"{page}:{s.line}: $ {s.command}\n--- the page shows:\n{s.output}\n--- it prints:\n"
                         + "\n".join(got))
    assert not stale, "\n\n".join(stale)

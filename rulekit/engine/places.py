"""Where generated code came from: the `# file:line` comments that head each step's statements.

The step code generator (rulekit.engine.stepgen) notes, as it writes lines, which step of the
file each line belongs to (`Places`); `placed` then writes those notes into the source as
comments. A comment applies to the lines below it down to the next comment at the same or a
lower indentation, so a reader (or a test) finds a statement's rule by looking up for the first
comment not indented deeper than the statement. A file's name reaches the code only through
`where`, which escapes anything that is not a printable character: the comment cannot end early.

The same notes, by line number of the compiled code (`register`), let an error that no rule
foresaw (a pile index past the last pile, say) be placed at the step whose code raised it
(`step_of`), not only at its phase.
"""
from __future__ import annotations

import os
from types import CodeType, TracebackType
from typing import Any
from weakref import WeakKeyDictionary

from rulekit.core.errors import Span

_SEARCH_DEPTH = 3  # closures searched for the rule a callable was compiled from


def where(span: Span | None) -> str:
    """`file:line` of a rule (the file relative to the working folder when below it), every
    character that is not printable written as a Python escape."""
    if span is None:
        return "?"
    f = span.file
    if os.path.isabs(f):
        rel = os.path.relpath(f)
        f = f if rel.startswith("..") else rel
    return printable(f"{f}:{span.line}")


def printable(text: str) -> str:
    """`text` with every character that is not printable (line ends, escapes) written as Python
    writes it escaped: fit for one line of a comment."""
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


def span_in(obj: Any, depth: int = _SEARCH_DEPTH) -> Span | None:
    """The rule an object of generated code was compiled from: its own span, or one found in the
    closure it was made in (an expression's closure holds its syntax tree, located in the file)."""
    if isinstance(obj, Span):
        return obj
    own = getattr(obj, "span", None)
    if isinstance(own, Span):
        return own
    if depth == 0 or not callable(obj):
        return None
    held = getattr(obj, "args", None)  # an expression's located code keeps its tree and root here
    for inner in held if isinstance(held, tuple) else ():
        found = span_in(inner, depth - 1)
        if found is not None:
            return found
    for cell in getattr(obj, "__closure__", None) or ():
        try:
            inner = cell.cell_contents
        except ValueError:  # a cell not yet filled
            continue
        found = span_in(inner, depth - 1)
        if found is not None:
            return found
    return None


class Places:
    """Which step each line being written comes from: a note where a step's lines start, and
    where the step around it goes on after a step inside it (an `else:`, a loop's `until`)."""

    def __init__(self) -> None:
        self.at: dict[int, Span] = {}  # line index -> the step its lines, from there on, come from
        self.steps: list[Span] = []  # the located steps being written, innermost last

    def start(self, span: Span | None, line: int) -> None:
        """A step's lines begin at line index `line`."""
        if span is not None:
            self.at[line] = span
            self.steps.append(span)

    def note(self, span: Span | None, line: int) -> None:
        """The lines from line index `line` on carry out the rule at `span` (if known)."""
        if span is not None:
            self.at[line] = span

    def end(self, span: Span | None, line: int) -> None:
        """The step begun with `span` has written its lines; the next ones are its parent's."""
        if span is not None:
            self.steps.pop()
        if self.steps:
            self.at[line] = self.steps[-1]


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def placed(lines: list[str], at: dict[int, Span], first: int = 1) -> tuple[list[str], dict[int, Span]]:
    """`lines` with a `# file:line` comment above each line where a step's lines begin, indented
    as the least indented of the lines it heads (so the rule above finds it for each of them),
    left out where the last comment written already says it for those lines; and the step each
    line of the result carries out, by line number (the first line numbered `first`)."""
    starts = sorted(i for i in at if i < len(lines))
    heads: dict[int, str] = {}
    last: tuple[int, str] | None = None  # the last comment written: (indentation, text)
    for k, i in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        region = [_indent(ln) for ln in lines[i:end] if ln.strip()]
        if not region:
            continue
        ind, text = min(region), f"# {where(at[i])}"
        if last is None or last[0] > ind or last[1] != text:
            heads[i] = " " * ind + text
            last = (ind, text)
    out: list[str] = []
    steps: dict[int, Span] = {}
    now: Span | None = None
    for i, line in enumerate(lines):
        now = at.get(i, now)
        if i in heads:
            out.append(heads[i])
        out.append(line)
        if now is not None:
            steps[first + len(out) - 1] = now
    return out, steps


_STEPS: WeakKeyDictionary[CodeType, dict[int, Span]] = WeakKeyDictionary()  # compiled code -> its steps by line


def register(code: CodeType, steps: dict[int, Span]) -> None:
    """Note the step each line of a generated function's code carries out (from `placed`)."""
    _STEPS[code] = steps


def step_of(tb: TracebackType | None) -> Span | None:
    """The step whose generated code was running, innermost, where an exception was raised."""
    found = None
    while tb is not None:
        steps = _STEPS.get(tb.tb_frame.f_code)
        if steps is not None:
            found = steps.get(tb.tb_lineno, found)
        tb = tb.tb_next
    return found

"""The Python the engine generated for a game, as a listing for authors (`rulekit show --compiled`).

Each part (a phase, a procedure, a yaku table, a game-level expression) is headed by the file
and line of the rule it came from, its statements by the lines of the rules they run where those
can be found, and its bound constants (`C0`, `C1` ...: every name, text and callable the code
uses) are listed with what they are. The listing is read, never run: the code that runs is the
one compiled by rulekit.engine.stepgen, which holds a variant's text only as bound constants, so
text from the file shows here only as escaped literals (repr) in those lists.
"""
from __future__ import annotations

import os
import re
from dataclasses import astuple, dataclass, is_dataclass
from typing import Any, Callable, Iterator

from rulekit.core.errors import Span
from rulekit.lang.expr.fastcode import fast_code
from rulekit.lang.loader import at
from rulekit.engine.game import Game

_CONST = re.compile(r"\b([CK]\d+)\b")
MAX_SHOWN = 80  # characters of a constant's repr shown
_SEARCH_DEPTH = 3  # closures searched for the rule a callable was compiled from


@dataclass(frozen=True)
class Part:
    """One generated unit: what it is, where its rule is written, and its code (None: not generated)."""

    title: str
    span: Span | None
    source: str | None
    consts: dict[str, Any]


def where(span: Span | None) -> str:
    """`file:line` of a rule, the file relative to the working folder when below it."""
    if span is None:
        return "?"
    f = span.file
    if os.path.isabs(f):
        rel = os.path.relpath(f)
        f = f if rel.startswith("..") else rel
    return f"{f}:{span.line}"


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
    for cell in getattr(obj, "__closure__", None) or ():
        try:
            inner = cell.cell_contents
        except ValueError:  # a cell not yet filled
            continue
        found = span_in(inner, depth - 1)
        if found is not None:
            return found
    return None


def _closure_consts(fn: Callable[..., Any]) -> dict[str, Any]:
    """The bound constants a generated function reads (the names `_make` gave them)."""
    code = getattr(fn, "__code__", None)
    cells = getattr(fn, "__closure__", None) or ()
    out: dict[str, Any] = {}
    for name, cell in zip(code.co_freevars if code is not None else (), cells):
        try:
            out[name] = cell.cell_contents
        except ValueError:
            continue
    return out


def describe(obj: Any) -> str:
    """A constant in a few plain words: a literal as Python writes it (escaped), else its kind and rule."""
    if obj is None or isinstance(obj, (bool, int, float, str)):
        text = repr(obj)
    elif isinstance(obj, (tuple, list, frozenset, set)) and all(
            x is None or isinstance(x, (bool, int, float, str)) for x in obj):
        text = repr(obj)
    elif isinstance(obj, Span):
        text = f"the place {where(obj)}"
    elif is_dataclass(obj) and not isinstance(obj, type) and all(
            x is None or isinstance(x, (bool, int, float, str)) for x in astuple(obj)):
        text = repr(obj)  # a record made once (a yaku table's fixed hit): its fields, escaped
    elif isinstance(obj, type) or (isinstance(obj, tuple) and all(isinstance(x, type) for x in obj)):
        text = "the types " + ", ".join(t.__name__ for t in (obj if isinstance(obj, tuple) else (obj,)))
    else:
        kind = str(getattr(obj, "__qualname__", None) or type(obj).__name__).replace(".<locals>.", " > ")
        kind = f"{'a function' if callable(obj) else 'a ' + type(obj).__name__} ({_cut(kind)})"
        span = span_in(obj)
        return kind + (f", from {where(span)}" if span is not None else "")
    return _cut(text)


def _cut(text: str) -> str:
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 1] + "…"


def _generated(title: str, span: Span | None, fn: Any) -> Part:
    src = getattr(fn, "source", None)
    return Part(title, span, src if isinstance(src, str) else None, _closure_consts(fn) if isinstance(src, str) else {})


def _expression(title: str, span: Span | None, fn: Any) -> Part | None:
    code = fast_code(fn)
    if code is None:
        return None
    consts = {f"K{i}": c for i, c in enumerate(code.consts)}
    return Part(title, span if span is not None else span_in(code.slow), code.body, consts)


def parts(game: Game) -> list[Part]:
    """Every generated part of the game, in the order the rules are written."""
    tree = game.variant.tree
    out: list[Part] = []
    for name, fn in (("rounds", game.rounds), ("end_when", game.end_when), ("first_dealer", game.first_dealer)):
        node = at(tree, "game", name)
        part = _expression(f"game: {name}", node.span if node is not None else None, fn) if fn is not None else None
        if part is not None:
            out.append(part)
    for ph in game.phases:
        if ph.when is not None:
            part = _expression(f"phase {ph.id}: when", None, ph.when)
            if part is not None:
                out.append(part)
        out.append(_generated(f"phase {ph.id}", ph.span, ph.run))
    for name, fn in game.procedures.items():
        node = at(tree, "procedures", name)
        out.append(_generated(f"procedure {name}", node.span if node is not None else None, fn))
    for table in game.yaku:
        node = at(tree, "yaku", table)
        fn = (game.yaku_fns or {}).get(table)
        out.append(_generated(f"yaku table {table}", node.span if node is not None else None, fn))
    return out


def _statement_start(lines: list[str], i: int) -> int:
    """The line a comment about line `i` goes above: the `try:` of the `except` block it is in."""
    ind = len(lines[i]) - len(lines[i].lstrip())
    for j in range(i - 1, max(-1, i - 4), -1):
        lead = len(lines[j]) - len(lines[j].lstrip())
        if lead < ind and lines[j].lstrip().startswith("except"):
            for k in range(j - 1, max(-1, j - 40), -1):
                if len(lines[k]) - len(lines[k].lstrip()) == lead and lines[k].strip() == "try:":
                    return k
            return j
    return i


def annotated(part: Part) -> Iterator[str]:
    """The part's code, each statement with a rule located in the file headed by `# file:line`."""
    assert part.source is not None
    lines = part.source.rstrip("\n").split("\n")
    marks: dict[int, str] = {}
    for i, line in enumerate(lines):
        if line.startswith("def _make("):
            continue  # the constants come in here; the statements below use them
        for name in _CONST.findall(line):
            span = span_in(part.consts.get(name))
            if span is not None and span.line > 0:
                marks.setdefault(_statement_start(lines, i), where(span))
                break
    last = ""
    for i, line in enumerate(lines):
        mark = marks.get(i)
        if mark is not None and mark != last:
            yield " " * (len(line) - len(line.lstrip())) + f"# {mark}"
            last = mark
        yield line


def listing(game: Game) -> str:
    """The whole listing: a header, then each part headed by its rule's place, constants and code."""
    v = game.variant
    files = ", ".join(where(Span(f, 1, 1)).rsplit(":", 1)[0] for f in v.files)
    out = [f"# {v.meta.names.get('en', v.meta.id)}: the Python the engine generated from {files}",
           "# (Cn and Kn are constants bound when the code is built; each part lists what they are)"]
    shown = 0
    for part in parts(game):
        out += ["", f"# ---- {part.title} ({where(part.span)})"]
        if part.source is None:
            out.append("# runs as compiled steps, not as generated code (too big, or generated code is off)")
            continue
        shown += 1
        used = sorted(set(_CONST.findall(part.source)) & part.consts.keys(), key=lambda n: (n[0], int(n[1:])))
        for name in used:
            out.append(f"#   {name} = {describe(part.consts[name])}")
        out += list(annotated(part))
    if not shown:
        out += ["", "# nothing generated: RULEKIT_CODEGEN=0 runs every rule as compiled steps"]
    return "\n".join(out) + "\n"

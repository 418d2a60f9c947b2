"""The Python the engine generated for a game, as a listing for authors (`rulekit show --compiled`).

Each part (a phase, a procedure, a yaku table, a game-level expression) is headed by the file
and line of the rule it came from, and its statements by the `# file:line` of the steps they run
(written into the code by rulekit.engine.stepgen: rulekit.engine.places). Its bound constants
(`C0`, `C1` ...: every name, text and callable the code uses) are listed with what they are and
the place they come from. The listing is read, never run: the code that runs holds a variant's
text only as bound constants, so text from the file shows here only as escaped literals (repr)
in those lists.
"""
from __future__ import annotations

import re
from dataclasses import astuple, dataclass, is_dataclass
from typing import Any, Callable

from rulekit.core.errors import Span
from rulekit.lang.expr.fastcode import fast_code
from rulekit.lang.loader import at
from rulekit.engine.game import Game
from rulekit.engine.places import printable, span_in, where

_CONST = re.compile(r"\b([CK]\d+)\b")
MAX_SHOWN = 80  # characters of a constant's repr shown


@dataclass(frozen=True)
class Part:
    """One generated unit: what it is, where its rule is written, and its code (None: not generated)."""

    title: str
    span: Span | None
    source: str | None
    consts: dict[str, Any]


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


def describe(obj: Any, place: str | None = None) -> str:
    """A constant in a few plain words: a literal as Python writes it (escaped), else its kind;
    then the rule it was compiled from, or else `place` (", for the step at file:line" ...)."""
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
        text = (f"the type {obj.__name__}" if isinstance(obj, type)
                else "the types " + ", ".join(t.__name__ for t in obj))
    else:
        kind = str(getattr(obj, "__qualname__", None) or type(obj).__name__).replace(".<locals>.", " > ")
        kind = f"{'a function' if callable(obj) else 'a ' + type(obj).__name__} ({_cut(kind)})"
        span = span_in(obj)
        return kind + (f", from {where(span)}" if span is not None else place or "")
    return _cut(text) + ("" if isinstance(obj, Span) else place or "")


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
    node = at(tree, "round")
    n = game.variant.meta.players_default
    n = n if n in game.player_sizes() else game.player_sizes()[0]
    # the round: its start and its phases in order (written per table size; shown for the default)
    out.append(_generated(f"round, at a table of {n}", node.span if node is not None else None, game.round_player(n)))
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


_PLACE = re.compile(r"^( *)# (?!\()(.*)$")  # (a comment in brackets is a note, not a place)


def first_places(source: str) -> dict[str, str]:
    """Each constant's place: the `# file:line` in force where the code first uses it (a comment
    holds for the lines below it down to the next one indented as much or less)."""
    out: dict[str, str] = {}
    held: list[tuple[int, str]] = []  # the comments in force, least indented first
    for line in source.split("\n"):
        m = _PLACE.match(line)
        ind = len(line) - len(line.lstrip(" "))
        if m is not None:
            while held and held[-1][0] >= ind:
                held.pop()
            held.append((ind, m.group(2)))
            continue
        place = next((t for i, t in reversed(held) if i <= ind), None)
        if place is None or line.startswith("def _make("):
            continue
        for name in _CONST.findall(line):
            out.setdefault(name, place)
    return out


HOW_TO_READ = """\
# How to read it. Each part is the round, one phase, procedure or yaku table (or a game-level
# expression), headed by the file and line of its rule. The round deals (again on a misdeal),
# sets every zone and round variable to its start, and runs the phases in order (Kn are the
# phases' ids, entry conditions and code); given a SEED (a simulation's round), it first starts
# the game afresh with it, as play_rounds does for each seed of a simulation's rounds (no log
# kept). A `# file:line` comment names the step of the file the statements below it carry out,
# down to the next such comment indented as much or less.
# ctx is the game being played: ctx.rng its random numbers, ctx.steps the steps run so far
# (counted in S while a phase runs). Read at the top where used: Z = ctx.zones (the piles of cards,
# by name; ZNn a pile read often), V = ctx.vars, CH = ctx.chips, SEEN = ctx.seen (per card, a bit
# for each seat that has seen it), L = ctx.loc (the names a step sets; lcN_M are those names as
# Python locals), LOG (whether a log is kept), DEALER, N (and DLEFT, DRIGHT: the seats to the
# dealer's left and right). Cn and Kn are constants bound when the code is built, listed under each
# part's heading with their place. An expression is inline; if it fails, `except ERRS:` runs its
# located twin (Cn(ctx), or C(ctx, Cn, {cards, seat}) in a yaku table), raising the error there."""


def listing(game: Game) -> str:
    """The whole listing: a header, then each part headed by its rule's place, constants and code."""
    v = game.variant
    files = ", ".join(where(Span(f, 1, 1)).rsplit(":", 1)[0] for f in v.files)
    name = printable(str(v.meta.names.get("en", v.meta.id)))
    out = [f"# {name}: the Python the engine generated from {files}", HOW_TO_READ]
    shown = 0
    for part in parts(game):
        out += ["", f"# ---- {part.title} ({where(part.span)})"]
        if part.source is None:
            out.append("# runs as compiled steps, not as generated code (too big, or generated code is off)")
            continue
        shown += 1
        used = sorted(set(_CONST.findall(part.source)) & part.consts.keys(), key=lambda n: (n[0], int(n[1:])))
        places = first_places(part.source)
        whole = f", for the rule at {where(part.span)}" if part.span is not None else None
        for c in used:
            step = places.get(c)
            out.append(f"#   {c} = {describe(part.consts[c], f', for the step at {step}' if step else whole)}")
        out += part.source.rstrip("\n").split("\n")
    if not shown:
        out += ["", "# nothing generated: RULEKIT_CODEGEN=0 runs every rule as compiled steps"]
    return "\n".join(out) + "\n"

"""The step locals of generated code (let, for, a choice's answer, `as`) held in Python locals.

The rules' locals live in a dict, `ctx.loc`, which whatever runs beside the generated code reads:
an expression's located code (after its fast code failed), an agent's policy or a choice's
words at a decision, a log line's words. Generated code keeps each local in a Python local
instead (a `Frame` names them), so the hot path does no dict lookup, and writes the ones in
reach into `ctx.loc` just before such a reader runs (rulekit.engine.stepgen `flush`).

A name is in reach where the step compiler lets the rules read it (rulekit.engine.stepcompile:
set by an earlier step of the same block or of an enclosing one), so what a reader may read is
always written. One Python local stands for one name of one dict, wherever the name is set, so a
name set again (a loop inside a loop with the same variable) behaves as the dict did.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING, Any

from rulekit.lang.expr.fastcode import fast_code


_CONST_LIST = re.compile(r"^\[\*K(\d+)\]$")


def const_values(fn: Any) -> tuple[Any, ...] | None:
    """The values of an expression that is a list written in the rules (its code makes a fresh
    copy of a constant tuple each time), else None."""
    code = fast_code(fn)
    m = _CONST_LIST.match(code.body) if code is not None else None
    if m is None or code is None:
        return None
    vals = code.consts[int(m.group(1))]
    return vals if type(vals) is tuple else None


class Frame:
    """The Python locals standing for the step locals of one `ctx.loc` dict (a phase's or a
    procedure's), and which of them the rules can read at the point being generated."""

    __slots__ = ("tag", "slots", "bound", "kept", "dictless", "flushed", "sets", "facts", "restore")

    def __init__(self, tag: int, kept: frozenset[str] = frozenset(), dictless: bool = False,
                 restore: bool = False) -> None:
        self.tag = tag
        self.slots: dict[str, str] = {}  # step local -> its Python local
        self.bound: dict[str, str] = {}  # the step locals in reach here -> the Python code holding each
        # names left in the dict: those of a choice that may be skipped (if_none: skip) before its
        # parameters were ever set, where reading one must fail as reading the dict does
        self.kept = kept
        # no dict of its own (a procedure written out in place, all its names Python locals): where
        # a reader needs them, ctx.loc is made from them (`flushed`: it was)
        self.dictless = dictless
        self.flushed = False
        # (dictless) ctx.loc put back to the dict of the code around (L) as soon as a reader is done
        # with the dict made for it: no `finally` around the procedure's steps has to
        self.restore = restore
        # how many steps of the function being written set each name, and what the build proved
        # of the value a `let` sets (rulekit.engine.genproof)
        self.sets: dict[str, int] = {}
        self.facts: dict[str, tuple[str, int | None, frozenset[str]]] = {}

    def slot(self, name: str) -> str:
        """The Python local standing for step local `name` (the same one each time)."""
        s = self.slots.get(name)
        if s is None:
            s = self.slots[name] = f"lc{self.tag}_{len(self.slots)}"
        return s

    def set(self, name: str) -> str:
        """`name` is set here and in reach from now on: the Python local to assign."""
        s = self.bound[name] = self.slot(name)
        self.sets[name] = self.sets.get(name, 0) + 1
        return s

    def wrote(self, name: str) -> str:
        """The Python local of `name`, which code set here writes without bringing it in reach."""
        self.sets[name] = self.sets.get(name, 0) + 1
        return self.slots[name]


def skippable(run: Any) -> frozenset[str]:
    """The parameters that choices with `if_none: skip` among a block's steps may leave unset (not
    inside the procedures it calls, which have locals of their own)."""
    gen: Any = getattr(run, "gen", None)
    kind = getattr(gen, "kind", "")
    if kind == "choose":
        if gen.if_none != "skip":
            return frozenset()
        names = [p for p, _l, _t in gen.params]
        # (the first parameter is set as the actions are listed, whatever the choice then does,
        # when it goes through a list the rule wrote that is not empty and is stored as listed)
        values = const_values(gen.params[0][1])
        if values and not (gen.where is None and len(names) == 1):
            names = names[1:]
        return frozenset(names)
    if kind == "seq":
        parts = gen.runs
    elif kind == "if":
        parts = (gen.then, gen.other)
    elif kind in ("for", "repeat"):
        parts = (gen.body,)
    else:
        return frozenset()
    out: frozenset[str] = frozenset()
    for r in parts:
        out |= skippable(r)
    return out


def names_set(run: Any) -> frozenset[str]:
    """The step locals a block's steps set (let, for, a choice's parameters, `as`), not counting
    the procedures they call, which have locals of their own."""
    gen: Any = getattr(run, "gen", None)
    kind = getattr(gen, "kind", "")
    if kind == "let":
        return frozenset(n for n, _f in gen.pairs)
    if kind == "choose":
        return frozenset(n for n, _l, _t in gen.params)
    if kind in ("call", "claim"):
        return frozenset([gen.as_] if gen.as_ else [])
    if kind == "seq":
        return frozenset().union(*map(names_set, gen.runs))
    if kind == "if":
        return names_set(gen.then) | names_set(gen.other)
    if kind == "for":
        return names_set(gen.body) | {gen.var}
    if kind == "repeat":
        return names_set(gen.body)
    if gen is None and getattr(run, "__name__", "") != "noop_step":
        return frozenset({""})  # (a step run as it is: what it sets is not known here)
    return frozenset()


def returns(run: Any) -> bool:
    """Whether a block's steps may end the procedure they are in with a `return` (not counting the
    procedures they call, which catch their own)."""
    gen: Any = getattr(run, "gen", None)
    kind = getattr(gen, "kind", "")
    if kind == "return_":
        return True
    if kind == "seq":
        return any(map(returns, gen.runs))
    if kind == "if":
        return returns(gen.then) or returns(gen.other)
    if kind in ("for", "repeat"):
        return returns(gen.body)
    return False


class FrameWriter:
    """What a code writer does with step locals (mixed into rulekit.engine.stepgen's writer, whose
    `emit`, `bind` and `run` it uses): sets them, and writes them into ctx.loc where needed."""

    frame: Frame
    promote: bool  # step locals as Python locals (else every one read and set in ctx.loc)

    if TYPE_CHECKING:
        def emit(self, ind: int, line: str) -> None: ...

        def bind(self, obj: Any) -> str: ...

        def run(self, run: Any, ind: int) -> None: ...

    def flush(self, ind: int, subst: dict[str, str] | None = None) -> bool:
        """Write the step locals in reach (and `subst`) into ctx.loc, for code that reads it there;
        whether the reader must then call `unflush` (a dict was made for it that ctx.loc must not keep)."""
        held = {**self.frame.bound, **(subst or {})} if self.promote else dict(subst or {})
        if held and self.frame.dictless:
            self.emit(ind, "ctx.loc = {" + ", ".join(f"{self.bind(n)}: {v}" for n, v in held.items()) + "}")
            self.frame.flushed = True
            return self.frame.restore
        elif held:
            self.emit(ind, ", ".join(f"L[{self.bind(n)}]" for n in held) + ", = " + ", ".join(held.values()) + ",")
        return False

    def unflush(self, ind: int, made: bool) -> None:
        """After the reader a `flush` was for (`made`: what it returned), ctx.loc put back."""
        if made:
            self.emit(ind, "ctx.loc = L")

    def set_local(self, ind: int, name: str, value: str) -> None:
        """Step local `name` set to `value` (and in reach from here on)."""
        self.emit(ind, f"{self.local_target(name)} = {value}")

    def local_target(self, name: str) -> str:
        """Where code assigning step local `name` writes it (then in reach)."""
        if self.promote and name not in self.frame.kept:
            return self.frame.set(name)
        return f"L[{self.bind(name)}]"

    def block(self, run: Any, ind: int) -> None:
        """A block of steps: the names its steps set are out of reach after it (as the compiler
        scopes them)."""
        saved = dict(self.frame.bound)
        self.run(run, ind)
        self.frame.bound = saved

    def log(self, ind: int, call: str, cond: str = "LOG") -> None:
        """`if LOG: call`, the step locals in reach written to ctx.loc first (log words read them)."""
        if self.promote and self.frame.bound:
            self.emit(ind, f"if {cond}:")
            made = self.flush(ind + 1)
            self.emit(ind + 1, call)
            self.unflush(ind + 1, made)
        else:
            self.emit(ind, f"if {cond}: {call}")


# the seats to the dealer's left and right as generated code writes them (left_of(dealer),
# right_of(dealer)) once DEALER and N are read: the same all round, so worked out once per call
# of a function that writes them more than once
_ROUND_SEATS = (("((DEALER - 1) % N)", "DLEFT"), ("((DEALER + 1) % N)", "DRIGHT"))
_READS_DEALER = re.compile(r"^ *([A-Z]+, )*DEALER, N = ")  # (a phase's header, or a yaku table's)


def round_seats(body: str, header: str) -> tuple[str, str]:
    """A generated function's `body` with the dealer's neighbours written more than once read
    from locals that its `header` works out once, on the line where it reads DEALER and N (or on
    the step counter's, just after): no line added, so the lines' places stay. `body` and
    `header` as they were when there are none, or the header reads no DEALER."""
    rows = header.split("\n")
    at = next((i for i, row in enumerate(rows) if _READS_DEALER.match(row)), None)
    if at is None:
        return body, header
    if at + 1 < len(rows) and rows[at + 1].lstrip().startswith("S, SL = "):
        at += 1
    for code, name in _ROUND_SEATS:
        if body.count(code) > 1:
            body = body.replace(code, name)
            rows[at] += f"; {name} = {code[1:-1]}"
    return body, "\n".join(rows)


# a zone's list read as generated code writes it, and set (only the round's start sets one)
_ZONE_READ = re.compile(r"\bZ\[C(\d+)\]")
_ZONE_SET = re.compile(r"\bZ\[C(\d+)\] *=(?!=)")
_COLD = re.compile(r"^ *(except\b.*|if LOG( and [^:]*)?):$")  # blocks run on a failure or for the log only


def round_zones(lines: list[str], consts: list[Any]) -> tuple[list[str], str]:
    """A generated function's `lines` with each zone read more than once outside its cold blocks
    (a failure's handler, the log's lines) read from a local (ZNn), and the header's reads of
    them ('; ZNn = Z[Cm]...', for the row reading the round's state: no line added). A zone's
    list is the same object all round: steps change what it holds, never which list it is."""
    counts: dict[Any, int] = {}
    cold: list[int] = []  # the indentation of the cold blocks the line being read is in
    # (a line indented deeper than the one before follows a block's header: reading the headers
    # and the lines reading a zone alone is enough to know which of those are in a cold block)
    for line in lines:
        if "Z[C" not in line and not line.endswith(":"):
            continue
        ind = len(line) - len(line.lstrip())
        while cold and ind <= cold[-1]:
            cold.pop()
        if not cold:
            for m in _ZONE_READ.finditer(line):
                name = consts[int(m.group(1))]
                counts[name] = counts.get(name, 0) + 1
        if _COLD.match(line):
            cold.append(ind)
    often = [name for name, k in counts.items() if k > 1 and type(name) is str]
    if not often:
        return lines, ""
    never = {consts[int(m.group(1))] for line in lines if "Z[C" in line for m in _ZONE_SET.finditer(line)}
    often = [name for name in often if name not in never]
    if not often:
        return lines, ""
    local = {name: f"ZN{i}" for i, name in enumerate(often)}
    first: dict[str, str] = {}

    def read(m: re.Match[str]) -> str:
        name = consts[int(m.group(1))]
        if name not in local:
            return m.group(0)
        first.setdefault(name, m.group(1))
        return local[name]
    lines = [_ZONE_READ.sub(read, line) if "Z[C" in line else line for line in lines]
    return _unaliased(lines), "".join(f"; {local[name]} = Z[C{first[name]}]" for name in often)


_ALIAS = re.compile(r"^ *(z\d+) = (ZN\d+)$")  # a step's name for a zone read once in the header
_SET = re.compile(r"(?<![\w.])(z\d+) *:?=(?!=)")  # a step's zone name set (`z3 = ...`, `z3 := ...`)


def _unaliased(lines: list[str]) -> list[str]:
    """`lines` with each step's own name for a zone the header reads (`z3 = ZN0`, set nowhere else)
    replaced by the header's local: the line left blank (no line taken out, so the lines' places
    stay)."""
    aliases = {m.group(1): (i, m.group(2)) for i, line in enumerate(lines) if (m := _ALIAS.match(line))}
    if not aliases:
        return lines
    # how often each step name is set, counted in one pass over the text (not one search a name)
    sets = Counter(_SET.findall("\n".join(lines)))
    for name in list(aliases):
        if sets[name] != 1:
            del aliases[name]  # (set again somewhere: kept as it is)
    if not aliases:
        return lines
    used = re.compile(r"\b(" + "|".join(aliases) + r")\b")
    out = [used.sub(lambda m: aliases[m.group(1)][1], line) for line in lines]
    for i, _zone in aliases.values():
        out[i] = ""
    return out

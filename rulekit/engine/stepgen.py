"""Generate one Python function per phase and procedure from its compiled steps.

StepCompiler records what each step is made of (`.gen`, one dataclass per kind:
rulekit.engine.stepkinds). This module writes those steps out as straight-line Python - loops,
tests and assignments over `ctx` - with each expression's generated code inlined (and
procedures written out where they are called), so a round costs a few calls instead of a call
per step and per expression node. It only ever writes its own tokens: every zone name, variable
name, string, span and callable is a bound constant `Cn`, and expression code is itself made of
bound constants (see rulekit.lang.expr.codegen). Each step's lines are headed by a comment naming
its file and line, escaped (rulekit.engine.places), which also places errors at the step.
Some step kinds are written by mixins in their own modules: the card steps (move, deal, shuffle,
...) by rulekit.engine.gencards, `choose` by rulekit.engine.genchoice and genlazy.

For every step kind this code is the step's one implementation: its log events
(rulekit.engine.steps.log_*) and its located errors (raisers made by the compiler, called with
the values found) included. A `Step` run on its own - in a phase too big to generate
(MAX_LINES), or a game built without codegen - is generated once, on first use, with the steps
inside it called. An expression whose generated code raises is re-run by its closure
(rulekit.lang.expr), which raises the located error.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from rulekit.core.errors import Span
from rulekit.lang.expr.fastcode import fast_code
from rulekit.lang.expr.codebuild import compile_cached
from rulekit.lang.expr.codegen import FAST_ERRORS, HELPERS, SAFE_BUILTINS
from rulekit.lang.expr import types as T
from rulekit.lang.expr.ast import always_bool
from rulekit.lang.expr.scope import MAX_INT
from rulekit.engine.cost import flat
from rulekit.engine.gencards import CardWriter
from rulekit.engine.genchoice import ChoiceWriter
from rulekit.engine.genframe import Frame, FrameWriter, const_values, names_set, returns, skippable
from rulekit.engine.genlazy import LazyChoiceWriter
from rulekit.engine.genproof import NUMBER, TRUTH, ProofWriter
from rulekit.engine.genticks import COUNTER, Ticks, uncounted
from rulekit.engine.genvalues import Pairs
from rulekit.engine.places import Places, placed, register
from rulekit.engine.genframe import round_seats, round_zones
from rulekit.engine.stepkinds import (AssignGen, BreakGen, CallGen, ClaimGen, ForGen, IfGen, LetGen, PayGen, RecordGen, RepeatGen, ReturnGen, SayGen, SeqGen, SetDealerGen, StopGen)
from rulekit.engine.steps import (MAX_CALL_DEPTH, MAX_LIST, NO_VALUE, Fn, LoopBreak, ProcReturn, Run, returned,
    log_next_dealer, log_pay, log_set, log_say, log_yaku, log_record, log_stop, too_many)

MAX_LINES = 3_000  # a bigger phase keeps its closures
MAX_INLINE_DEPTH = 3  # procedures written out inside procedures written out, at most
_TOKEN = re.compile(r"\b(K|_p|_t)(\d+)\b")
_LOCAL = re.compile(r"\bL\[K(\d+)\]")
LITERAL = re.compile(r"^(\(-\d+\)|\d+|True|False|None)$")
_NAME = re.compile(r"^(lc\d+_\d+|ctx\.dealer|ctx\.n)$")  # (ctx.dealer: DEALER in the function)
_PLAIN = re.compile(r"^([a-z]+\d+(_\d+)?|ctx\.dealer|ctx\.n)$")  # a Python local (or the dealer, the seats' count)
_TEMP_OF_LOCAL = re.compile(r"\((_te\d+_\d+) := (lc\d+_\d+|v\d+|ctx\.dealer|ctx\.n)\)")
_VAR_READ = re.compile(r"^ctx\.vars\[K\d+\]$")  # a game variable read (every one is set all round)
_ITEM = re.compile(r"\bctx\.vars\[C(\d+)\]\[(lc\d+_\d+|[a-z]+\d+|ctx\.dealer|ctx\.n)\]")  # one item of a variable read


class Gen(FrameWriter, ChoiceWriter, LazyChoiceWriter, ProofWriter, CardWriter):
    """Lines of Python being written for one function, and the constants they name."""

    def __init__(self) -> None:
        self.consts: list[Any] = []
        self.index: dict[int, int] = {}  # id(constant) -> its number (consts keeps it alive)
        self.lines: list[str] = []
        self.places = Places()  # the step of the file each line comes from (its `# file:line`)
        self.n = 0
        # procedures whose steps may be written out where they are called (name -> compiled steps),
        # and those being written out now (a procedure calling itself is called, not inlined)
        self.inline: dict[str, Run] = {}
        self.inlining: list[str] = []
        # one step on its own (Step): the steps inside it are called, not written out; `slow`:
        # every expression called as it is (when Python refuses the code written with them)
        self.shallow = False
        self.slow = False
        # step locals as Python locals (rulekit.engine.genframe); not in a step run on its own (the
        # steps it calls read ctx.loc) nor with every expression called
        self.promote = True
        self.frame = Frame(0)
        self.frames = 1
        # steps counted in a Python local `S` (limit `SL`), written to ctx.steps wherever it is read:
        # at a decision, around a call of other code, at a stop and at the end (generate_run)
        self.counter = False
        self.ticks = Ticks()  # (the counts merged along straight-line code)
        self.all_seen: tuple[int, str] | None = None  # (rulekit.engine.gencards: k_reveal)
        self.top = False  # a phase: run with no call under way (ctx.depth 0), so no call written out is too deep
        self.proofs = []  # store checks the build's proof may lighten (rulekit.engine.genproof)
        # the last line written, if it stored a local into one item of a variable: (the line's
        # index, its indentation, the variable's name, the index's code, the local), which an
        # expression written next at the same indentation reads instead of the item
        self.stored: tuple[int, int, str, str, str] | None = None

    # -- helpers ---------------------------------------------------------------
    def bind(self, obj: Any) -> str:
        """The name under which generated code sees `obj` (the same name for the same object)."""
        i = self.index.get(id(obj))
        if i is None:
            i = self.index[id(obj)] = len(self.consts)
            self.consts.append(obj)
        return f"C{i}"

    def new(self, prefix: str) -> str:
        self.n += 1
        return f"{prefix}{self.n}"

    def emit(self, ind: int, line: str) -> None:
        self.lines.append("    " * ind + line)
        if len(self.lines) > MAX_LINES and not self.shallow:
            raise TooBig()

    def expr(self, fn: Any, ind: int, subst: dict[str, str] | None = None, to: str | None = None,
             hold: bool = False) -> str:
        """Evaluate an expression into a new local (or into `to`); return its name.

        `subst` maps step locals to Python code holding them (read instead of ctx.loc); the
        closure fallback gets them, and the step locals in reach, written to ctx.loc first. A plain
        name is returned as it is (it cannot fail), unless `hold`: the caller assigns to it, or sets
        step locals before it is done with the value."""
        out = to or self.new("v")
        code = None if self.slow else fast_code(fn)
        if code is None:
            self.call_reader(ind, out, fn, subst)
            return out
        body = code.body
        if LITERAL.match(body):
            if to is not None:
                self.emit(ind, f"{to} = {body}")
                return to
            return body  # a constant needs no temporary and cannot fail
        written = self.written(code, subst)
        if self.stored is not None and self.stored[:2] == (len(self.lines) - 1, ind):
            written = self.forwarded(written)  # (run right after the store, in the same block)
        written = _untemp(written)
        if to is None and not hold and _NAME.match(written):
            return written  # a Python local (a step local, the dealer, the seats' count)
        self.emit(ind, "try:")
        self.emit(ind + 1, f"{out} = {written}")
        light, deps = self.unbounded(written)
        if light is not None:  # (settled with the store proofs: rulekit.engine.genproof)
            self.proofs.append((len(self.lines) - 1, "    " * (ind + 1) + f"{out} = {light}", deps))
        self.emit(ind, "except ERRS:")
        self.call_reader(ind + 1, out, code.slow, subst)
        return out

    def test(self, fn: Any, ind: int) -> str:
        """Code for a condition tested once, right where it is written: a variable read (which
        cannot fail) as it is, with no local and no handler; anything else as `expr` writes it."""
        code = None if self.slow else fast_code(fn)
        if code is not None and _VAR_READ.match(code.body):
            return self.written(code, None)
        return self.expr(fn, ind)

    def call_reader(self, ind: int, out: str, fn: Any, subst: dict[str, str] | None) -> None:
        """`out = fn(ctx)` for code that reads the locals in ctx.loc (a closure, located code):
        the step locals in reach (and `subst`) written there first."""
        made = self.flush(ind, subst)
        self.emit(ind, f"{out} = {self.bind(fn)}(ctx)")
        self.unflush(ind, made)

    def written(self, code: Any, subst: dict[str, str] | None) -> str:
        """The Python an expression's fast code is written as here (its constants bound, the step
        locals read from where they are held)."""
        body = code.body
        tag = self.new("e")
        consts = code.consts
        held = {**self.frame.bound, **subst} if self.promote and subst else (self.frame.bound if self.promote
                                                                            else subst)
        if held:
            def local_of(m: re.Match[str]) -> str:
                k = consts[int(m.group(1))]
                return held[k] if isinstance(k, str) and k in held else m.group(0)
            body = _LOCAL.sub(local_of, body)

        def rename(m: re.Match[str]) -> str:
            if m.group(1) == "K":
                return self.bind(consts[int(m.group(2))])
            return f"{m.group(1)}{tag}_{m.group(2)}"
        written = _TOKEN.sub(rename, body)
        if self.promote and self.frame.dictless and "L[" in written:
            # a name read from a dict this frame has not (never, by how names are set): the phase is
            # written again with its procedures called, as for code too deep to write
            raise RecursionError("a local read from a frame without a dict")
        return written

    def forwarded(self, written: str) -> str:
        """An expression written on the line after a store of a local into a variable's item
        (`a[i] = v`, nothing run between) reading that item back: it reads the local instead."""
        assert self.stored is not None
        _at, _ind, var, i, v = self.stored

        def item(m: re.Match[str]) -> str:
            return v if self.consts[int(m.group(1))] == var and m.group(2) == i else m.group(0)
        return _ITEM.sub(item, written)

    def tick(self, ind: int, fail: str | None = None, more: str = "") -> None:
        """One step charged; `fail` (a call raising the located error) past the limit or where
        `more` (a test ending in ' or ') holds."""
        if self.counter and not more and self.ticks.merge(self.lines, ind):
            return  # (added to the count just before: rulekit.engine.genticks)
        st = "S" if self.counter else "ctx.steps"
        self.emit(ind, f"{st} += 1")
        if fail is not None:
            publish = "ctx.steps = S; " if self.counter else ""
            self.emit(ind, f"if {more}{st} > {'SL' if self.counter else 'ctx.step_limit'}: {publish}{fail}")
            if self.counter:
                self.ticks.open(len(self.lines) - 2, ind)

    def publish(self, ind: int) -> None:
        """ctx.steps made current (something else reads or counts it next)."""
        if self.counter:
            self.emit(ind, "ctx.steps = S")

    def zone(self, getter: Fn, ind: int) -> str:
        """Code for a zone's list (a zone getter made by StepCompiler.zone_getter)."""
        spec = getattr(getter, "zone", None)
        if spec is None:
            return self.expr(getter, ind)
        name, idx = spec
        if idx is None:
            return f"ctx.zones[{self.bind(name)}]"
        i = self.expr(idx, ind)
        return f"ctx.zones[{self.bind(name)}][{i}]"

    # -- steps -----------------------------------------------------------------
    def run(self, run: Run, ind: int) -> None:
        gen = getattr(run, "gen", None)
        if gen is None or self.shallow:
            if getattr(run, "__name__", "") != "noop_step":
                span = getattr(run, "span", None)
                self.places.start(span, len(self.lines))
                made = self.flush(ind)  # (a step without code of its own reads the locals in ctx.loc)
                self.publish(ind)
                deep = len(self.inlining)  # (the calls written out around it, see k_call)
                if deep:
                    self.emit(ind, f"ctx.depth += {deep}")
                    self.emit(ind, "try:")
                    self.emit(ind + 1, f"{self.bind(run)}(ctx)")
                    self.emit(ind, "finally:")
                    self.emit(ind + 1, f"ctx.depth -= {deep}")
                else:
                    self.emit(ind, f"{self.bind(run)}(ctx)")
                if self.counter:
                    self.emit(ind, "S = ctx.steps")
                self.unflush(ind, made)
                self.places.end(span, len(self.lines))
            return
        self.write(run, ind)

    def write(self, run: Any, ind: int) -> None:
        """The code of one step (a tagged closure or a Step)."""
        gen, span = run.gen, getattr(run, "span", None)
        self.places.start(span, len(self.lines))
        getattr(self, "k_" + gen.kind)(run, gen, ind)
        self.places.end(span, len(self.lines))

    def k_seq(self, run: Any, gen: SeqGen, ind: int) -> None:
        for r in gen.runs:
            self.run(r, ind)

    def k_let(self, run: Any, gen: LetGen, ind: int) -> None:
        for name, fn in gen.pairs:
            if self.promote and name not in self.frame.kept:
                # straight into the local; in reach only once set (`let x: x + 1` reads the old x)
                self.expr(fn, ind, to=self.frame.slot(name))
                self.note_let(name, fn)
                self.frame.set(name)
            else:
                self.set_local(ind, name, self.expr(fn, ind))

    def k_assign(self, run: Any, gen: AssignGen, ind: int) -> None:
        ops, add, check = gen.ops, gen.add, gen.check
        chk = self.bind(check)
        types = gen.types or (T.ANY,) * len(ops)
        for (var, idx, fn), typ in zip(ops, types):
            v = self.expr(fn, ind)
            if idx is None:
                slot = f"ctx.vars[{self.bind(var)}]"
            else:
                i = self.expr(idx, ind)
                slot = f"ctx.vars[{self.bind(var)}][{i}]"  # (written once: read where it is stored)
                if add:  # (read, then written: the variable's list read once)
                    arr = self.new("a")
                    self.emit(ind, f"{arr} = ctx.vars[{self.bind(var)}]")
                    slot = f"{arr}[{i}]"
            if not add and LITERAL.match(v) and (v in ("True", "False", "None") or abs(int(v.strip("()"))) <= MAX_INT):
                self.emit(ind, f"{slot} = {v}")  # a value the rule wrote, within the bound
                continue
            if add:
                nv = self.new("n")
                self.emit(ind, f"{nv} = {slot} + {v}")
            else:
                nv = v
            # the closure's bound on kept values (numbers to 10^30, lists to MAX_LIST items), tested
            # in line for the type the checker found; any other value is measured by the check
            if typ in (T.INT, T.CARD, T.NUM):
                # (a fraction passes the test as the check would, whatever its size; anything else the
                # checker's type rules out fails it with a TypeError, located as the step's failure)
                self.emit(ind, f"if not {-MAX_INT} <= {nv} <= {MAX_INT}: {chk}({nv})")
                if not add and typ != T.CARD:  # (a number the proof finds whole and within the bound passes)
                    self.single_check(ind, fn, NUMBER)
            elif typ == T.BOOL:  # (a comparison's value needs no test: always_bool)
                if add or not always_bool(getattr(fast_code(fn), "node", None)):
                    self.emit(ind, f"if type({nv}) is not bool: {chk}({nv})")
                    if not add:
                        self.single_check(ind, fn, TRUTH)
            elif self.list_check(ind, None if add else fn, typ, nv, chk):
                pass  # (a list of single values or of lists of them: rulekit.engine.genproof)
            else:
                tv = self.new("t")
                self.emit(ind, f"{tv} = type({nv})")
                self.emit(ind, f"if {tv} is int:")
                self.emit(ind + 1, f"if not {-MAX_INT} <= {nv} <= {MAX_INT}: {chk}({nv})")
                # a flat list within the bound needs no call (the common case); anything else is measured
                self.emit(ind, f"elif {tv} is list:")
                self.emit(ind + 1, f"if len({nv}) > {MAX_LIST} or not {self.bind(flat)}({nv}): {chk}({nv})")
                self.emit(ind, f"elif {tv} in {self.bind((str, dict))}: {chk}({nv})")
            self.emit(ind, f"{slot} = {nv}")
            if idx is not None and _PLAIN.match(nv) and _PLAIN.match(i) and type(var) is str:
                self.stored = (len(self.lines) - 1, ind, var, i, nv)
        if gen.shown:
            self.log(ind, f"{self.bind(log_set)}(ctx, {self.bind(gen.shown)})")

    def k_if(self, run: Any, gen: IfGen, ind: int) -> None:
        test, then, other = gen.test, gen.then, gen.other
        t = self.test(test, ind)
        if t in ("True", "False"):  # decided by the options: only one branch can run
            self.block(then if t == "True" else other, ind)
            return
        self.emit(ind, f"if {t}:")
        mark = len(self.lines)
        self.block(then, ind + 1)
        if len(self.lines) == mark:
            self.emit(ind + 1, "pass")
        mark = len(self.lines)
        self.emit(ind, "else:")
        self.block(other, ind + 1)
        if len(self.lines) == mark + 1:
            self.lines.pop()
            self.stored = None  # (a store ending `then` does not run before what follows the if)

    def k_for(self, run: Any, gen: ForGen, ind: int) -> None:
        var, items, body, span, breaks = gen.var, gen.items, gen.body, gen.span, gen.breaks
        xs = self.items(items, ind)
        saved = dict(self.frame.bound)
        own = self.promote and var not in self.frame.kept  # the loop sets the Python local itself
        x = self.local_target(var) if own else self.new("x")
        # the closure loops over a copy, so the body cannot disturb it; a new list (or a list the
        # rule wrote: a constant tuple) needs none
        fresh = getattr(fast_code(items), "fresh", False) or const_values(items) is not None
        self.emit(ind, f"for {x} in {xs}:" if fresh else f"for {x} in list({xs}):")
        if own:
            self.note_seats(var, items)
        self.tick(ind + 1, f"TOO_MANY(ctx, {self.bind(span)})")
        if not own:
            self.emit(ind + 1, f"L[{self.bind(var)}] = {x}")
        self._body(body, ind + 1, breaks)
        self.frame.bound = saved  # the loop variable is in reach in the body only

    def _body(self, body: Run, ind: int, breaks: bool) -> None:
        """A loop's body; with a break step in it, a LoopBreak ends the loop."""
        if not breaks:
            self.block(body, ind)
            return
        self.emit(ind, "try:")
        mark = len(self.lines)
        self.block(body, ind + 1)
        if len(self.lines) == mark:
            self.emit(ind + 1, "pass")
        self.emit(ind, f"except {self.bind(LoopBreak)}:")
        self.emit(ind + 1, "break")

    def k_repeat(self, run: Any, gen: RepeatGen, ind: int) -> None:
        body, until, while_, limit, endless, breaks = gen.body, gen.until, gen.while_, gen.limit, gen.endless, gen.breaks
        n = self.new("r")
        self.emit(ind, f"{n} = 0")
        self.emit(ind, "while True:")
        if while_ is not None:
            w = self.test(while_, ind + 1)
            self.emit(ind + 1, f"if not {w}: break")
        self.emit(ind + 1, f"{n} += 1")
        self.tick(ind + 1, f"{self.bind(endless)}({n})", f"{n} > {self.bind(limit)} or ")
        self._body(body, ind + 1, breaks)
        if until is not None:
            u = self.test(until, ind + 1)
            self.emit(ind + 1, f"if {u}: break")

    def k_say(self, run: Any, gen: SayGen, ind: int) -> None:
        # nothing happens without a log
        self.log(ind, f"{self.bind(log_say)}(ctx, {self.bind(gen.render)}, {self.bind(gen.about)}, "
                       f"{self.bind(gen.you)})")

    def k_record(self, run: Any, gen: RecordGen, ind: int) -> None:
        name = self.bind(gen.name)
        self.emit(ind, f"ctx.records[{name}] = ctx.records.get({name}, 0) + 1")  # (Ctx.record, with no call)
        self.log(ind, f"{self.bind(log_record)}(ctx, {name}, {self.bind(gen.who)})")

    def k_call(self, run: Any, gen: CallGen, ind: int) -> None:
        name, args, procs, span, too_deep, as_, no_value = (gen.name, gen.args, gen.procs, gen.span, gen.too_deep,
                                                            gen.as_, gen.no_value)
        vals, saved = self.new("args"), self.new("saved")
        body = self.inline.get(name)
        if getattr(body, "gen", None) is None or name in self.inlining or len(self.inlining) >= MAX_INLINE_DEPTH:
            body = None  # called, not written out
        # written out with Python locals, the arguments go to the procedure's locals, not its dict;
        # with no name left in a dict, the procedure has none (ctx.loc made where read: genframe)
        own = body is not None and self.promote
        kept = skippable(body) if own else frozenset()
        dictless = own and not kept
        given = []
        if not dictless:
            self.emit(ind, f"{vals} = {{}}")
        for pname, fn in args:
            v = self.expr(fn, ind)
            if own:
                given.append((pname, v))
            else:
                self.emit(ind, f"{vals}[{self.bind(pname)}] = {v}")
        if dictless and body is not None and as_ is None and not returns(body):
            self._call_bare(name, body, given, span, too_deep, kept, ind)
            return
        if not dictless:
            self.emit(ind, f"{saved} = ctx.loc")
        self.tick(ind, f"TOO_MANY(ctx, {self.bind(span)})")
        if not dictless:
            self.emit(ind, f"ctx.loc = {vals}")
        # ctx.depth counts the calls under way; those written out in this function are counted in
        # the code (as `deep`), and added to ctx.depth only around a call of other code
        deep = len(self.inlining) + 1
        if body is None:
            self.emit(ind, f"ctx.depth += {deep}")
            self.emit(ind, f"if ctx.depth > {MAX_CALL_DEPTH}: {self.bind(too_deep)}(ctx)")
        elif not self.top:  # (in a phase, ctx.depth is 0 here and deep at most MAX_INLINE_DEPTH + 1)
            self.emit(ind, f"if ctx.depth > {MAX_CALL_DEPTH - deep}: {self.bind(too_deep)}(ctx)")
        rv = self.new("rv")
        if as_ is not None:  # (a value no step keeps needs no default)
            self.emit(ind, f"{rv} = {self.bind(NO_VALUE)}")
        self.emit(ind, "try:")
        outer = self.frame
        if body is not None:
            # the procedure's steps written out here, over its own locals: no call, no second preamble
            outer_l = self.new("ol")
            if not dictless:
                self.emit(ind + 1, f"{outer_l} = L")  # (ctx.loc may be a dict made for a reader: genframe)
                self.emit(ind + 1, f"L = {vals}")
            mark = len(self.lines)
            if own:
                self.frame = Frame(self.frames, kept, dictless)
                self.frames += 1
                for pname, v in given:
                    self.set_local(ind + 1, pname, v)
            self.inlining.append(name)
            self.run(body, ind + 1)
            self.inlining.pop()
            flushed = self.frame.flushed
            self.frame = outer
            if len(self.lines) == mark:
                self.emit(ind + 1, "pass")
        else:
            # looked up when called: procedures may call each other (and are generated after this)
            self.publish(ind + 1)
            self.emit(ind + 1, f"{self.bind(procs)}[{self.bind(name)}](ctx)")
        ex = self.new("rx")
        self.emit(ind, f"except {self.bind(ProcReturn)} as {ex}:")
        self.emit(ind + 1, f"{rv} = {self.bind(returned)}({ex})")
        self.emit(ind, "finally:")
        if body is None and self.counter:
            self.emit(ind + 1, "S = ctx.steps")  # (what the procedure counted, however it ended)
        if body is None:
            self.emit(ind + 1, f"ctx.depth -= {deep}")
        if not dictless:
            self.emit(ind + 1, f"ctx.loc = {saved}")
            if body is not None:
                self.emit(ind + 1, f"L = {outer_l}")
        elif flushed:
            self.emit(ind + 1, "ctx.loc = L")  # (the dict of the code around the call)
        else:
            self.emit(ind + 1, "pass")
        if as_ is not None:
            self.emit(ind, f"if {rv} is {self.bind(NO_VALUE)}: {self.bind(no_value)}(ctx)")
            if self.promote and as_ not in self.frame.kept:
                self.set_local(ind, as_, rv)
            else:
                self.emit(ind, f"{saved}[{self.bind(as_)}] = {rv}")

    def _call_bare(self, name: str, body: Run, given: list[tuple[str, str]], span: Any, too_deep: Any,
                   kept: frozenset[str], ind: int) -> None:
        """A procedure written out where it is called, over Python locals alone, with no `return`
        among its steps and no value kept: its steps in line, with no try around them (nothing to
        catch, and a reader's dict taken back from ctx.loc as soon as it is read: genframe)."""
        self.tick(ind, f"TOO_MANY(ctx, {self.bind(span)})")
        deep = len(self.inlining) + 1
        if not self.top:  # (see k_call)
            self.emit(ind, f"if ctx.depth > {MAX_CALL_DEPTH - deep}: {self.bind(too_deep)}(ctx)")
        outer = self.frame
        self.frame = Frame(self.frames, kept, True, restore=True)
        self.frames += 1
        changed = names_set(body)
        for pname, v in given:
            if _NAME.match(v) and pname not in changed and "" not in changed:
                # a parameter the steps never set, given a Python local of the code around (which
                # they cannot set), the dealer or the seats' count: read where it is held, no copy
                self.frame.bound[pname] = v
            else:
                self.set_local(ind, pname, v)
        self.inlining.append(name)
        self.run(body, ind)
        self.inlining.pop()
        self.frame = outer

    def _pay_side(self, ind: int, a: str, op: str, pot: Any, overdraft: bool, seat: Any, pot_word: str,
                  seat_word: str, fail: str) -> str:
        """One side of a payment: `a` taken from (op "-=") or given to (op "+=") a pot or a seat's
        chips, refused as the step's `fail` says; returns the code naming that side."""
        if pot is not None:
            x = self.bind(pot)
            self.emit(ind, f"V[{x}] {op} {a}")
            if not overdraft:
                self.emit(ind, f"if V[{x}] < 0: {fail}({self.bind(pot_word)}, V[{x}], {a}, N)")
            return x
        x = self.expr(seat, ind)
        if x != "ctx.dealer":  # (the dealer is always a seat)
            self.emit(ind, f"if not 0 <= {x} < N: {fail}({self.bind(seat_word)}, {x}, {a}, N)")
            self.seat_check(ind, seat)
        self.emit(ind, f"CH[{x}] {op} {a}")
        return x

    def k_pay(self, run: Any, gen: PayGen, ind: int) -> None:
        if gen.amount is None:
            a = self.new("a")
            self.emit(ind, f"{a} = V[{self.bind(gen.src_pot)}]")  # the whole pot
        else:
            a = self.expr(gen.amount, ind)
        self.emit(ind, f"if {a} != 0:")
        ind += 1
        fail = self.bind(gen.fail)
        f = self._pay_side(ind, a, "-=", gen.src_pot, gen.src_overdraft, gen.src, "src_pot", "from", fail)
        t = self._pay_side(ind, a, "+=", gen.dst_pot, gen.dst_overdraft, gen.dst, "dst_pot", "to", fail)
        self.log(ind, f"{self.bind(log_pay)}(ctx, {f}, {t}, {a}, {self.bind(gen.reason)}, "
                       f"{self.bind(gen.reason_fn)})")

    def k_claim(self, run: Any, gen: ClaimGen, ind: int) -> None:
        table, cards, who, as_ = gen.table, gen.cards, gen.who, gen.as_
        p = self.expr(who, ind)
        cs = self.expr(cards, ind)
        ids = self.new("y")
        if gen.ids is not None:
            self.emit(ind, f"{ids} = {self.bind(gen.ids)}(ctx, {cs}, {p})")
        else:
            self.emit(ind, f"{ids} = [h.id for h in ctx.yaku_eval({self.bind(table)}, {cs}, {p})]")
        h = self.new("h")
        self.emit(ind, f"for {h} in {ids}: ctx.record('yaku:' + {h})")
        self.log(ind, f"{self.bind(log_yaku)}(ctx, {self.bind(table)}, {p}, {ids}, {cs})", f"LOG and {ids}")
        if as_:
            self.set_local(ind, as_, ids)

    def k_set_dealer(self, run: Any, gen: SetDealerGen, ind: int) -> None:
        v = self.expr(gen.seat, ind)
        self.emit(ind, f"ctx.next_dealer = {v}" if v == "ctx.dealer" else f"ctx.next_dealer = {v} % N")  # (a seat as it is)
        self.log(ind, f"{self.bind(log_next_dealer)}(ctx, {self.bind(gen.why)})")

    def k_stop(self, run: Any, gen: StopGen, ind: int) -> None:
        self.log(ind, f"{self.bind(log_stop)}(ctx, {self.bind(gen.event)}, {self.bind(gen.why)})")
        args = ", ".join(self.bind(a) for a in gen.args)
        self.publish(ind)
        self.emit(ind, f"raise {self.bind(gen.exc)}({args})")

    def k_break_(self, run: Any, gen: BreakGen, ind: int) -> None:
        if gen.cond is None:
            self.emit(ind, f"raise {self.bind(LoopBreak)}()")
            return
        c = self.expr(gen.cond, ind)
        self.emit(ind, f"if {c}: raise {self.bind(LoopBreak)}()")

    def k_return_(self, run: Any, gen: ReturnGen, ind: int) -> None:
        v = self.expr(gen.value, ind)
        self.publish(ind)  # (the caller of a procedure not written out in place reads ctx.steps)
        self.emit(ind, f"raise {self.bind(ProcReturn)}({v})")


def _untemp(written: str) -> str:
    """An expression's code with each temporary set once to a Python local (`(_te4_1 := v13)`, a
    read the expression cannot change) read as that local: no copy made."""
    for m in list(_TEMP_OF_LOCAL.finditer(written)):
        t, x = m.group(1), m.group(2)
        if written.count(f"{t} :=") == 1:
            written = re.sub(rf"\b{t}\b", x, written.replace(m.group(0), f"({x})", 1))  # (a call's brackets kept)
    return written


class TooBig(Exception):
    pass


class Step:
    """A step whose one implementation is the code this module writes (control flow: seq, let, if,
    for, repeat, break, return). Inside a generated phase it is written out in place; run on its
    own (a phase too big to generate, a game built without codegen) it is generated once, on
    first use, with the steps inside it called."""

    __slots__ = ("gen", "fn", "span")

    def __init__(self, gen: Any) -> None:
        self.gen = gen
        self.fn: Run | None = None
        self.span: Span | None = None  # where the step is written (set by the step compiler)

    def __call__(self, ctx: Any) -> None:
        fn = self.fn
        if fn is None:
            fn = self.fn = generate_step(self)
        fn(ctx)


def generate_step(step: Step) -> Run:
    """The function doing what one step does, the steps inside it called."""
    for slow in (False, True):
        g = Gen()
        g.shallow, g.slow, g.promote = True, slow, False
        g.write(step, 1)
        if not g.lines:
            g.emit(1, "pass")
        fn = build_function(g, _HEADER, "    return run\n", {"TOO_MANY": too_many, "PAIRS": Pairs},
                    f"<step {step.gen.kind}>")
        if fn is not None:
            return fn
    raise RecursionError("a step Python cannot compile")  # pragma: no cover - calls and names only


# Parts of the state that stay the same objects (or values) for a whole round: a generated
# function reads them once, into locals, instead of from ctx each time.
ROUND_FIXED = {"zones": "Z", "vars": "V", "chips": "CH", "seen": "SEEN", "logging": "LOG", "dealer": "DEALER",
                "n": "N"}
FIXED_READ = re.compile(r"\bctx\.(" + "|".join(ROUND_FIXED) + r")\b")
FIXED_LOCALS = (", ".join(ROUND_FIXED.values()) + " = " + ", ".join(f"ctx.{a}" for a in ROUND_FIXED))
_HEADER = f"    def run(ctx):\n        L = ctx.loc\n        {FIXED_LOCALS}\n"  # a generated step block
_READ_NAMES = re.compile(r"\b(" + "|".join(["L", *ROUND_FIXED.values()]) + r")\b")


def read_used(header: str, body: str, zones: str = "") -> str:
    """`header` reading only the locals `body` uses of ctx.loc (L) and the parts of the state
    fixed for the round (a row left with none dropped; `zones`, the zones read once: rulekit.engine.
    genframe.round_zones, added to it): a function pays for no read it never uses."""
    named = set(_READ_NAMES.findall(body))  # (a name in a comment too: read, harmless)
    used = [(a, v) for a, v in ROUND_FIXED.items() if v in named]
    fixed = ", ".join(v for _a, v in used) + " = " + ", ".join(f"ctx.{a}" for a, _v in used)
    rows = []
    for row in header.split("\n"):
        if row.strip() == FIXED_LOCALS:
            if not used:
                continue
            row = row.replace(FIXED_LOCALS, fixed) + zones
        elif row.strip() == "L = ctx.loc" and "L" not in named:
            continue
        rows.append(row)
    return "\n".join(rows)


def build_function(g: Gen, header: str, footer: str, extra: dict[str, Any], label: str,
           steps_placed: bool = True) -> Callable[..., Any] | None:
    """Compile generated lines inside `header`/`footer`; None when Python refuses them.
    `steps_placed`: an error no rule foresaw is placed at the step whose line raised it."""
    params = ", ".join(f"C{i}" for i in range(len(g.consts)))
    names = ", ".join(extra)
    lines = ["    " + FIXED_READ.sub(lambda m: ROUND_FIXED[m.group(1)], line) for line in g.settled_lines()]
    lines, zones = round_zones(lines, g.consts) if FIXED_LOCALS in header else (lines, "")
    header = read_used(header, "\n".join(lines) + zones, zones)
    located, steps = placed(lines, g.places.at, 2 + header.count("\n"))
    body = "\n".join(located)
    body, header = round_seats(body, header)
    src = f"def _make({params}{', ' if params else ''}ERRS, {names}):\n" + header + body + "\n" + footer
    code = compile_cached(src, label)
    if code is None:
        return None
    namespace: dict[str, Any] = {"__builtins__": SAFE_BUILTINS, **HELPERS}
    exec(code, namespace)  # noqa: S102 - only this module's tokens (see the docstring)
    made = namespace["_make"](*g.consts, FAST_ERRORS, *extra.values())
    made.source = src
    if steps_placed:
        register(made.__code__, steps)
    fn: Callable[..., Any] = made  # the function `header` defines (_make returns it)
    return fn


def generate_run(run: Run, label: str = "<rulekit phase>", inline: dict[str, Run] | None = None,
                 top: bool = False) -> Run:
    """A generated function doing what `run` (a compiled step block) does; `run` if not possible.

    `inline` (procedure name -> its compiled steps) lets calls of those procedures be written out
    where they stand; a function that would grow too big with them is generated calling them.
    `top`: a phase's steps, run by the round with no procedure call under way."""
    if getattr(run, "gen", None) is None:
        return run
    g = Gen()
    g.frame = Frame(0, skippable(run))
    g.counter, g.top = True, top
    try:
        g.inline = dict(inline or {})
        g.run(run, 1)
        g.publish(1)
    except (TooBig, RecursionError):
        if not inline:
            return run
        return generate_run(run, label, top=top)
    lines = uncounted(g.lines)
    if lines is not None:  # (no step counted here: no count kept)
        g.lines = lines
    fn = build_function(g, _HEADER + (COUNTER if lines is None else ""), "    return run\n",
                        {"TOO_MANY": too_many, "PAIRS": Pairs}, label)
    return run if fn is None else fn

"""The generated code of a `choose` step (a mixin of rulekit.engine.stepgen's writer, whose
`emit`, `expr`, `bind` and locals helpers it uses): the legal actions listed, the seat asked
(`ctx.decide`) when there is more than one, the answer set as the parameters' locals."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulekit.lang.expr.fastcode import fast_code
from rulekit.engine.genframe import Frame, const_values
from rulekit.engine.stepkinds import ChooseGen
from rulekit.engine.steps import MAX_ACTIONS

class ChoiceWriter:
    """Writes the code of choose steps."""

    frame: Frame
    lines: list[str]

    if TYPE_CHECKING:
        def emit(self, ind: int, line: str) -> None: ...

        def bind(self, obj: Any) -> str: ...

        def new(self, prefix: str) -> str: ...

        def expr(self, fn: Any, ind: int, subst: dict[str, str] | None = None, to: str | None = None,
                 hold: bool = False) -> str: ...

        def flush(self, ind: int, subst: dict[str, str] | None = None) -> None: ...

        def log(self, ind: int, call: str, cond: str = "LOG") -> None: ...

        def local_target(self, name: str) -> str: ...

        def set_local(self, ind: int, name: str, value: str) -> None: ...

        def tick(self, ind: int, fail: str | None = None, more: str = "") -> None: ...

        def publish(self, ind: int) -> None: ...

    def items(self, fn: Any, ind: int) -> str:
        """Code for values gone through, neither kept nor changed: a list written in the rules is
        its constant tuple (no copy, nothing that can fail)."""
        vals = const_values(fn)
        return self.bind(vals) if vals is not None else self.expr(fn, ind)

    def fixed_choice(self, gen: ChooseGen, values: tuple[Any, ...], ind: int) -> None:
        """A choice of one parameter among values written in the rules, with no condition: its
        actions are a constant, known as the code is written."""
        acts = tuple((x,) for x in values)
        a = self.bind(acts)
        p = self.expr(gen.player, ind)
        self.tick(ind)
        if not acts:
            if gen.if_none != "skip":
                self.emit(ind, f"{self.bind(gen.no_action)}({p})")
            return
        if len(acts) == 1:
            self.log(ind, f"{self.bind(gen.log_forced)}(ctx, {p}, {a}[0])", "ctx.logging")
            self.emit(ind, f"{self.local_target(gen.params[0][0])}, = {a}[0]")
            return
        self.flush(ind)  # a policy, the choice's words and hints read the locals in ctx.loc
        self.publish(ind)  # (a search bot counts the steps a playout takes)
        ix = f"ctx.decide({self.bind(gen.choice)}, {p}, {a})"
        self.emit(ind, f"{self.local_target(gen.params[0][0])}, = {a}[{ix}]")  # (in reach once answered)

    def k_choose(self, run: Any, gen: ChooseGen, ind: int) -> None:
        player, params, where, if_none = gen.player, gen.params, gen.where, gen.if_none
        choice, no_action, log_forced, too_many = gen.choice, gen.no_action, gen.log_forced, gen.too_many
        if (where is not None and getattr(fast_code(where), "body", None) == "True" and len(params) == 1
                and gen.note_where is None and if_none != "skip"):
            where = None  # a condition the options make always true keeps every value
        fixed = const_values(params[0][1]) if where is None and len(params) == 1 else None
        if fixed is not None and len(fixed) <= MAX_ACTIONS:
            self.fixed_choice(gen, fixed, ind)
            return
        p = self.expr(player, ind, hold=True)
        acts = self.new("acts")
        # two parameters and no condition (a hand and an amount, say): the actions are listed as
        # (first value, list of second values) pairs, not built one tuple at a time
        pairs = where is None and len(params) == 2
        groups, count = self.new("gr"), self.new("cnt")
        if pairs:
            self.emit(ind, f"{groups} = []")
            self.emit(ind, f"{count} = 0")
        else:
            self.emit(ind, f"{acts} = []")
        loops = []
        depth = ind
        saved = dict(self.frame.bound)
        for i, (pname, lst, _t) in enumerate(params):
            xs = self.items(lst, depth)
            v = self.new("o")
            loops.append(v)
            if i and where is not None:
                # the product is scanned even when `where` keeps nothing: each inner list is charged
                held = self.new("xs")
                self.emit(depth, f"{held} = {xs}")
                self.emit(depth, f"ctx.budget -= len({held})")
                self.emit(depth, f"if ctx.budget < 0: {self.bind(too_many)}(len({acts}) + {MAX_ACTIONS} + 1)")
                xs = held
            self.emit(depth, f"for {v} in {xs}:")
            self.set_local(depth + 1, pname, v)  # (the later lists and `where` read it)
            depth += 1
        tup = "(" + ", ".join(loops) + ",)"
        if len(params) > 2:
            # three parameters and more: the limit checked as each action is listed
            if where is not None:
                w = self.expr(where, depth)
                self.emit(depth, f"if {w}:")
                depth += 1
            self.emit(depth, f"{acts}.append({tup})")
            self.emit(depth, f"if len({acts}) > {MAX_ACTIONS}: {self.bind(too_many)}(len({acts}))")
        elif where is not None:
            w = self.expr(where, depth)
            self.emit(depth, f"if {w}: {acts}.append({tup})")
        else:
            # nothing reads the last parameter while listing: no need to store it each time
            last = self.lines.pop()
            assert last.endswith(f" = {loops[-1]}")
            header = self.lines.pop()
            xs = header.strip()[len(f"for {loops[-1]} in "):-1]
            if pairs:
                self.emit(depth - 1, f"if {xs}:")
                self.emit(depth, f"{groups}.append(({loops[0]}, {xs}, {count}))")
                self.emit(depth, f"{count} += len({xs})")
            else:
                self.emit(depth - 1, f"{acts}.extend([{tup} for {loops[-1]} in {xs}])")
        if pairs:
            self.emit(ind + 1, f"if {count} > {MAX_ACTIONS}: {self.bind(too_many)}({count})")
            self.emit(ind, f"{acts} = PAIRS({groups}, {count})")
        elif len(params) == 2:
            self.emit(ind + 1, f"if len({acts}) > {MAX_ACTIONS}: {self.bind(too_many)}(len({acts}))")
        else:  # one parameter (or more): the limit of the closures, once the actions are listed
            self.emit(ind, f"if len({acts}) > {MAX_ACTIONS}: {self.bind(too_many)}(len({acts}))")
        self.frame.bound = saved  # the parameters are in reach after the choice (set to the answer)
        if gen.note_where is not None:  # validation's rounds: whether the where ever held
            self.emit(ind, f"{self.bind(gen.note_where)}(ctx, len({acts}) > 0)")
        self.tick(ind)
        self.emit(ind, f"if not {acts}:")
        if if_none == "skip":
            self.emit(ind + 1, "pass")
        else:
            self.emit(ind + 1, f"{self.bind(no_action)}({p})")
        self.emit(ind, "else:")
        ix = self.new("i")
        self.emit(ind + 1, f"if len({acts}) > 1:")
        self.flush(ind + 2)  # a policy, the choice's words and hints read the locals in ctx.loc
        self.publish(ind + 2)  # (a search bot counts the steps a playout takes)
        self.emit(ind + 2, f"{ix} = ctx.decide({self.bind(choice)}, {p}, {acts})")
        self.emit(ind + 1, "else:")
        self.emit(ind + 2, f"{ix} = 0")
        self.log(ind + 2, f"{self.bind(log_forced)}(ctx, {p}, {acts}[0])", "ctx.logging")
        names = ", ".join(self.local_target(pn) for pn, _l, _t in params)
        self.emit(ind + 1, f"{names}, = {acts}[{ix}]")


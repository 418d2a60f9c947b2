"""The generated code of a `choose` step (a mixin of rulekit.engine.stepgen's writer, whose
`emit`, `expr`, `bind` and locals helpers it uses): the legal actions listed, the seat asked
(`ctx.decide`) when there is more than one, the answer set as the parameters' locals.

The actions are listed in the cheapest shape that says them (one parameter: its values; two
with no condition: (value, values) groups, or a product when the rules wrote the second list)
and made into the actions an agent is handed only when one is asked: in random play that
nothing checks (`ctx.rand`), the answer's index is drawn over their count, as the random
decider would draw it, and only the chosen action is read."""
from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING, Any, Callable

from rulekit.lang.expr.fastcode import fast_code
from rulekit.engine.genframe import Frame, const_values
from rulekit.engine.genvalues import START, product
from rulekit.engine.stepkinds import ChooseGen
from rulekit.engine.agents import draw_code
from rulekit.engine.steps import MAX_ACTIONS
from rulekit.engine.genbase import WriterCalls


def listed(fn: Any) -> bool:
    """Whether an expression's type is a list: its value is a list (or a constant tuple)."""
    code = fast_code(fn)
    info = code.info if code is not None else None
    root = info.get(id(code.node)) if info is not None and code is not None else None
    return root is not None and root[0].startswith("list<")


class ChoiceWriter(WriterCalls):
    """Writes the code of choose steps."""

    frame: Frame
    lines: list[str]
    promote: bool

    if TYPE_CHECKING:
        def lazy_choice(self, gen: ChooseGen, p: str, seconds: tuple[Any, ...], ind: int) -> int: ...

        def note_values(self, name: str, values: tuple[Any, ...]) -> None: ...

    def items(self, fn: Any, ind: int) -> str:
        """Code for values gone through, neither kept nor changed: a list written in the rules is
        its constant tuple (no copy, nothing that can fail)."""
        vals = const_values(fn)
        return self.bind(vals) if vals is not None else self.expr(fn, ind)

    def ask(self, gen: ChooseGen, p: str, n: str, ind: int, drawn: Callable[[str], str], asked: list[str]) -> None:
        """A decision among `n` legal actions: in random play that nothing checks (ctx.rand, the
        seats' random states, set by agents.random_decider) the answer's index is drawn here as that
        decider would draw it (`drawn(code of the draw)`: the line taking the answer); else the seat
        is asked through ctx.decide (the lines `asked`), which is handed the actions."""
        rs = self.new("rs")
        self.emit(ind, f"if ({rs} := ctx.rand) is not None:")
        self.emit(ind + 1, drawn(self.draw_inline(rs, p, n, ind + 1)))
        self.emit(ind, "else:")
        made = self.flush(ind + 1)  # a policy, the choice's words and hints read the locals in ctx.loc
        self.publish(ind + 1)  # (a search bot counts the steps a playout takes)
        for line in asked:
            self.emit(ind + 1, line)
        self.unflush(ind + 1, made)

    def draw_inline(self, rs: str, p: str, n: str, ind: int) -> str:
        """The answer of agents.draw(rs, p, n), its steps written out before it (agents.draw_code:
        no call a pick)."""
        lines, answer = draw_code(rs, p, n, self.new("z"), self.new("st"))
        for line in lines:
            self.emit(ind, line)
        return answer

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
            self.chose(gen.params[0][0], values)
            return
        before = dict(self.frame.bound)
        target = self.local_target(gen.params[0][0])  # (in reach once answered, not written before)
        after, self.frame.bound = self.frame.bound, before
        vals = self.bind(values)
        self.ask(gen, p, str(len(acts)), ind, lambda d: f"{target} = {vals}[{d}]",
                 [f"{target}, = {a}[ctx.decide({self.bind(gen.choice)}, {p}, {a})]"])
        self.frame.bound = after
        self.chose(gen.params[0][0], values)

    def chose(self, name: str, values: tuple[Any, ...]) -> None:
        """Parameter `name`, set as a Python local, holds one of `values` (what a store of it
        may then leave untested: rulekit.engine.genproof)."""
        if self.promote and name not in self.frame.kept:
            self.note_values(name, values)

    def k_choose(self, run: Any, gen: ChooseGen, ind: int) -> None:
        player, params, where, if_none = gen.player, gen.params, gen.where, gen.if_none
        if (where is not None and getattr(fast_code(where), "body", None) == "True" and len(params) == 1
                and gen.note_where is None and if_none != "skip"):
            where = None  # a condition the options make always true keeps every value
        fixed = const_values(params[0][1]) if where is None and len(params) == 1 else None
        if fixed is not None and len(fixed) <= MAX_ACTIONS:
            self.fixed_choice(gen, fixed, ind)
            return
        p = self.expr(player, ind)
        if p in {self.frame.slots.get(pn) for pn, _l, _t in params}:
            held = self.new("v")  # the seat's name is a parameter's too: kept before the listing sets it
            self.emit(ind, f"{held} = {p}")
            p = held
        saved = dict(self.frame.bound)
        pairs = where is None and len(params) == 2
        seconds = const_values(params[1][1]) if pairs else None
        if where is None and (len(params) == 1 or seconds):  # (in random play, the drawn option alone)
            ind = self.lazy_choice(gen, p, seconds or (), ind)
        if len(params) == 1:
            vals, n, shape = self.listed_values(gen, where, ind), "", "one"
        elif seconds:  # the same values of the second parameter whatever the first: a product
            vals, n = self.listed_product(gen, seconds, ind)
            shape = f"{self.bind(seconds)}:{len(seconds)}"
        elif pairs:
            (vals, n), shape = self.listed_pairs(gen, ind), "pairs"
        else:
            vals, n, shape = self.listed_actions(gen, where, ind), "", "tuples"
        self.frame.bound = saved  # the parameters are in reach after the choice (set to the answer)
        self.answered(gen, p, vals, n or f"len({vals})", shape, ind)

    def loops(self, gen: ChooseGen, listed: Any, where: Any, acts: str, ind: int) -> tuple[list[str], int]:
        """The loops going through the values of the `listed` parameters, each setting its
        parameter (read by the later lists and `where`): the names holding the values, and the
        indentation inside the loops."""
        names: list[str] = []
        depth = ind
        for i, (pname, lst, _t) in enumerate(listed):
            xs = self.items(lst, depth)
            if i and where is not None:
                # the product is scanned even when `where` keeps nothing: each inner list is charged
                held = self.new("xs")
                self.emit(depth, f"{held} = {xs}")
                self.emit(depth, f"ctx.budget -= len({held})")
                self.emit(depth, f"if ctx.budget < 0: {self.bind(gen.too_many)}(len({acts}) + {MAX_ACTIONS} + 1)")
                xs = held
            target = self.local_target(pname)
            if target.isidentifier():
                v = target  # the loop sets the parameter's Python local itself
                self.emit(depth, f"for {v} in {xs}:")
            else:
                v = self.new("o")
                self.emit(depth, f"for {v} in {xs}:")
                self.emit(depth + 1, f"{target} = {v}")
            names.append(v)
            depth += 1
        return names, depth

    def listed_values(self, gen: ChooseGen, where: Any, ind: int) -> str:
        """One parameter: its legal values listed as they are (not as one-value actions); the
        name of their list."""
        if where is None:  # every value: the list itself
            xs = self.as_list(gen.params[0][1], ind)
        else:
            xs = self.new("vals")
            self.emit(ind, f"{xs} = []")
            names, depth = self.loops(gen, gen.params, where, xs, ind)
            w = self.expr(where, depth)
            self.emit(depth, f"if {w}: {xs}.append({names[0]})")
        self.emit(ind, f"if len({xs}) > {MAX_ACTIONS}: {self.bind(gen.too_many)}(len({xs}))")
        return xs

    def as_list(self, lst: Any, ind: int) -> str:
        """Code for the values of a parameter as a sequence, to be indexed (the list itself; a
        copy only of what is not a list)."""
        xs = self.items(lst, ind)
        if const_values(lst) is None and not listed(lst):
            vals = self.new("vals")
            self.emit(ind, f"{vals} = {xs} if type({xs}) is list else list({xs})")
            xs = vals
        return xs

    def listed_product(self, gen: ChooseGen, seconds: tuple[Any, ...], ind: int) -> tuple[str, str]:
        """Two parameters, no condition, the second's values a list the rules wrote (not empty):
        the actions are each first value with each second, in that order; the names of the first
        values and of the count of actions."""
        firsts, count = self.as_list(gen.params[0][1], ind), self.new("cnt")
        self.emit(ind, f"{count} = len({firsts})" + (f" * {len(seconds)}" if len(seconds) > 1 else ""))
        # (the count listing them group by group would have reached when it passed the limit)
        self.emit(ind, f"if {count} > {MAX_ACTIONS}: {self.bind(gen.too_many)}"
                       f"({len(seconds) * (MAX_ACTIONS // len(seconds) + 1)})")
        return firsts, count

    def listed_pairs(self, gen: ChooseGen, ind: int) -> tuple[str, str]:
        """Two parameters and no condition (a hand and an amount, say): the actions kept as
        (first value, list of second values, index of its first action) groups, not built one tuple
        at a time; the name of the groups and of their count of actions."""
        groups, count = self.new("gr"), self.new("cnt")
        self.emit(ind, f"{groups} = []")
        self.emit(ind, f"{count} = 0")
        names, depth = self.loops(gen, gen.params[:1], None, groups, ind)
        xs = self.items(gen.params[1][1], depth)  # (nothing reads the second while listing)
        self.emit(depth, f"if {xs}:")
        self.emit(depth + 1, f"{groups}.append(({names[0]}, {xs}, {count}))")
        self.emit(depth + 1, f"{count} += len({xs})")
        self.emit(depth + 1, f"if {count} > {MAX_ACTIONS}: {self.bind(gen.too_many)}({count})")
        return groups, count

    def listed_actions(self, gen: ChooseGen, where: Any, ind: int) -> str:
        """Two parameters with a condition, or three and more: the actions as tuples; the name of
        their list."""
        acts = self.new("acts")
        too_many = self.bind(gen.too_many)
        self.emit(ind, f"{acts} = []")
        names, depth = self.loops(gen, gen.params, where, acts, ind)
        tup = f"({', '.join(names)},)"
        if len(gen.params) > 2:  # three parameters and more: the limit checked as each action is listed
            if where is not None:
                self.emit(depth, f"if {self.expr(where, depth)}:")
                depth += 1
            self.emit(depth, f"{acts}.append({tup})")
            self.emit(depth, f"if len({acts}) > {MAX_ACTIONS}: {too_many}(len({acts}))")
        else:
            self.emit(depth, f"if {self.expr(where, depth)}: {acts}.append({tup})")
            self.emit(ind + 1, f"if len({acts}) > {MAX_ACTIONS}: {too_many}(len({acts}))")
        return acts

    def answered(self, gen: ChooseGen, p: str, vals: str, n: str, shape: str, ind: int) -> None:
        """The seat asked when it has more than one legal action (`n` of them; none: the rules'
        if_none; one: taken, and logged as forced), the parameters set to the answer. `shape`: how
        `vals` holds the actions (one: the values of the one parameter; pairs: (first value, second
        values) groups; tuples: the actions; else 'K:k', a product: the first values, with each of
        the k second values in constant K)."""
        if gen.note_where is not None:  # validation's rounds: whether the where ever held
            self.emit(ind, f"{self.bind(gen.note_where)}(ctx, {n} > 0)")
        self.tick(ind)
        self.emit(ind, f"if not {vals}:")
        self.emit(ind + 1, "pass" if gen.if_none == "skip" else f"{self.bind(gen.no_action)}({p})")
        self.emit(ind, "else:")
        before = dict(self.frame.bound)
        names = ", ".join(self.local_target(pn) for pn, _l, _t in gen.params) + ","
        after, self.frame.bound = self.frame.bound, before  # (set by the answer: not written before it)
        ix = self.new("i")
        self.emit(ind + 1, f"if {n} > 1:")
        choice, forced = self.bind(gen.choice), self.bind(gen.log_forced)
        if shape == "one":  # the actions handed to an agent are made only when one is asked
            acts, o = self.new("acts"), self.new("o")
            self.ask(gen, p, n, ind + 2, lambda d: f"{names[:-1]} = {vals}[{d}]",
                     [f"{acts} = [({o},) for {o} in {vals}]", f"{names} = {acts}[ctx.decide({choice}, {p}, {acts})]"])
            self.emit(ind + 1, "else:")
            self.log(ind + 2, f"{forced}(ctx, {p}, ({vals}[0],))", "ctx.logging")
            self.emit(ind + 2, f"{names[:-1]} = {vals}[0]")
            self.frame.bound = after
            return
        k, size = shape.split(":") if ":" in shape else ("", "")
        handed = {"pairs": f"PAIRS({vals}, {n})", "tuples": vals}.get(shape, f"{self.bind(product)}({vals}, {k})")
        self.ask(gen, p, n, ind + 2, lambda d: f"{ix} = {d}", [f"{ix} = ctx.decide({choice}, {p}, {handed})"])
        self.emit(ind + 1, "else:")
        self.emit(ind + 2, f"{ix} = 0")
        first = {"pairs": f"({vals}[0][0], {vals}[0][1][0])", "tuples": f"{vals}[0]"}.get(shape, f"({vals}[0], {k}[0])")
        self.log(ind + 2, f"{forced}(ctx, {p}, {first})", "ctx.logging")  # (the one action)
        if shape == "pairs":  # the group the answer is in, and its place there
            a, bs, st = self.new("a"), self.new("bs"), self.new("st")
            self.emit(ind + 1, f"{a}, {bs}, {st} = {vals}[{self.bind(bisect_right)}({vals}, {ix}, key={self.bind(START)}) - 1]")
            self.emit(ind + 1, f"{names} = {a}, {bs}[{ix} - {st}]")
        elif shape == "tuples":
            self.emit(ind + 1, f"{names} = {vals}[{ix}]")
        else:
            pick = f"{vals}[{ix}], {k}[0]" if size == "1" else f"{vals}[{ix} // {size}], {k}[{ix} % {size}]"
            self.emit(ind + 1, f"{names} = {pick}")
        self.frame.bound = after

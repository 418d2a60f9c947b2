"""A choice whose options are one value per item of a list (`map(xs, x -> ...)`, perhaps with a
list joined after it), in random play that nothing checks: only the drawn option is worked out.

rulekit.engine.genchoice lists every option before the seat is asked. A seat playing at random
(`ctx.rand`, see agents.random_decider) draws an index over their count alone, so here the count
is read from the list gone through (and the one joined after it) and the `x -> ...` body is
worked out for the drawn item only: the same draw, the same answer, the same log. When that is
not the case - a seat is asked, or reading the lists fails - the options are listed in full as
before, and where the body fails for the drawn item the full list is made by the expression's
own code, which reports the error at its place in the rules (or gives the value). Bodies are
not worked out for the options not drawn, so their cost is not charged and what they would
have done wrong (a rule's mistake that fails only for some items) is not reported."""
from __future__ import annotations

import ast as py_ast
from typing import TYPE_CHECKING, Any

from rulekit.engine.agents import draw_code
from rulekit.engine.steps import MAX_ACTIONS
from rulekit.engine.stepkinds import ChooseGen
from rulekit.lang.expr.fastcode import fast_code
from rulekit.engine.genbase import WriterCalls

if TYPE_CHECKING:
    from rulekit.engine.genframe import Frame


def _uncopied(node: py_ast.expr) -> py_ast.expr:
    """`node` with a fresh copy `[*X]` (of a constant, say), or either such branch of an `if`,
    read as X itself: the list joined after the mapped one is only measured and indexed."""
    if isinstance(node, py_ast.List) and len(node.elts) == 1 and isinstance(node.elts[0], py_ast.Starred) \
            and isinstance(node.elts[0].value, py_ast.Name):  # (a bound constant: a tuple)
        return node.elts[0].value
    if isinstance(node, py_ast.IfExp):
        return py_ast.IfExp(node.test, _uncopied(node.body), _uncopied(node.orelse))
    return node


def mapped(code: str) -> tuple[str, str, str, str] | None:
    """For generated code making one value per item of a list, perhaps with another list joined
    after them - `[BODY for X in XS]`, H_built of it, or H_joinbuilt of it and EXTRA, or
    `[*[BODY for X in XS], *EXTRA]` (XS read as it is or charged by H_spend) - the code of XS, of
    EXTRA ('()' if none), X's name and BODY."""
    try:
        tree = py_ast.parse(code, mode="eval").body
    except SyntaxError:
        return None
    extra: py_ast.expr | None = None
    comp: py_ast.expr = tree
    if isinstance(tree, py_ast.Call) and isinstance(tree.func, py_ast.Name) and not tree.keywords:
        if tree.func.id == "H_joinbuilt" and len(tree.args) == 3:
            comp, extra = tree.args[1], tree.args[2]
        elif tree.func.id == "H_built" and len(tree.args) == 2:
            comp = tree.args[1]
    elif isinstance(tree, py_ast.List) and len(tree.elts) == 2 and all(isinstance(e, py_ast.Starred) for e in tree.elts):
        comp, extra = (e.value for e in tree.elts if isinstance(e, py_ast.Starred))  # ([*a, *b]: a short join)
    if not isinstance(comp, py_ast.ListComp) or len(comp.generators) != 1:
        return None
    loop = comp.generators[0]
    if loop.ifs or loop.is_async or not isinstance(loop.target, py_ast.Name):
        return None
    xs = loop.iter
    if isinstance(xs, py_ast.Call) and isinstance(xs.func, py_ast.Name) and xs.func.id == "H_spend" \
            and len(xs.args) == 2 and not xs.keywords:
        xs = xs.args[1]
    if not isinstance(xs, (py_ast.Name, py_ast.Subscript, py_ast.Attribute)):
        return None  # (a list read, not computed: reading it twice costs nothing and cannot differ)
    parts = [py_ast.get_source_segment(code, n) for n in (xs, comp.elt)]
    more = py_ast.unparse(_uncopied(extra)) if extra is not None else "()"
    if parts[0] is None or parts[1] is None:
        return None
    return parts[0], more, loop.target.id, parts[1]


class LazyChoiceWriter(WriterCalls):
    """Writes the random-play branch of a choice whose options are mapped (mixed into
    rulekit.engine.stepgen's writer, with rulekit.engine.genchoice's)."""

    frame: Frame
    slow: bool

    def lazy_choice(self, gen: ChooseGen, p: str, seconds: tuple[Any, ...], ind: int) -> int:
        """For a choice of one parameter, or of two whose second values the rules wrote (`seconds`),
        listed with no condition: when its first parameter's options are mapped, the random-play
        branch that works out the drawn option alone, then `else:`; the indentation at which the
        choice is then written as usual (`ind` itself when its options are not mapped)."""
        fn = gen.params[0][1]
        code = None if self.slow else fast_code(fn)
        parts = mapped(self.written(code, None)) if code is not None else None
        if parts is None:
            return ind
        xs, more, x, body = parts
        k = max(len(seconds), 1)
        rs, lx, le, cnt, ix, j, val = (self.new(s) for s in ("rs", "lx", "le", "cnt", "i", "j", "val"))
        self.emit(ind, f"{lx} = None  # (in random play, only the option drawn is worked out)")
        self.emit(ind, f"if ({rs} := ctx.rand) is not None:")
        self.emit(ind + 1, "try:")
        self.emit(ind + 2, f"{lx}, {le} = ({xs}), ({more})")
        self.emit(ind + 2, f"{cnt} = (len({lx}) + len({le}))" + (f" * {k}" if k > 1 else ""))
        self.emit(ind + 1, "except ERRS:")
        self.emit(ind + 2, f"{lx} = None")
        self.emit(ind, f"if {lx} is not None:")
        at = ind + 1
        too_many = self.bind(gen.too_many)
        # (limited as genchoice.listed_product and listed_values limit them)
        self.emit(at, f"if {cnt} > {MAX_ACTIONS}: {too_many}({k * (MAX_ACTIONS // k + 1) if seconds else cnt})")
        self.tick(at)  # (as genchoice.answered, from here on)
        self.emit(at, f"if not {cnt}:")
        self.emit(at + 1, "pass" if gen.if_none == "skip" else f"{self.bind(gen.no_action)}({p})")
        self.emit(at, "else:")
        before = dict(self.frame.bound)
        names = ", ".join(self.local_target(pn) for pn, _l, _t in gen.params)
        self.frame.bound = before  # (set by the answer: not written before it)
        self.emit(at + 1, f"{ix} = 0")
        self.emit(at + 1, f"if {cnt} > 1:")
        lines, answer = draw_code(rs, p, cnt, self.new("z"), self.new("st"))
        for line in lines:
            self.emit(at + 2, line)
        self.emit(at + 2, f"{ix} = {answer}")
        self.emit(at + 1, f"{j} = {ix} // {k}" if k > 1 else f"{j} = {ix}")
        self.emit(at + 1, f"if {j} < len({lx}):")
        self.emit(at + 2, "try:")
        self.emit(at + 3, f"{x} = {lx}[{j}]")
        self.emit(at + 3, f"{val} = {body}")
        self.emit(at + 2, "except ERRS:")  # the options listed by the expression's own code
        self.emit(at + 3, f"{val} = {self.expr(fn, at + 3)}[{j}]")
        self.emit(at + 1, "else:")
        self.emit(at + 2, f"{val} = {le}[{j} - len({lx})]")
        second = f"{self.bind(seconds)}[{ix} % {k}]" if k > 1 else f"{self.bind(seconds)}[0]"
        act = f"({val}, {second})" if seconds else f"({val},)"
        self.log(at + 1, f"{self.bind(gen.log_forced)}(ctx, {p}, {act})", f"{cnt} == 1 and ctx.logging")
        self.emit(at + 1, f"{names}, = {act}")
        self.frame.bound = before  # (the choice written as usual next sets them too)
        self.emit(ind, "else:")
        return ind + 1

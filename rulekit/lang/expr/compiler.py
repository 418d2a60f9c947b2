"""Type-check an AST against a scope, then have rulekit.lang.expr.codegen write it as Python.

Checking happens once, at load time: every name resolves to the scope given here or to the
function registry (no Python attribute or builtin is reachable), every operator is typed, and
constants are folded (with the operators of rulekit.lang.expr.helpers, as at run time). What the
checker learns per node (type, constant value, kind of name) is all the code generator needs:
evaluation is generated code only.
"""
from __future__ import annotations


from fractions import Fraction
from typing import Any, Callable

from rulekit.core.errors import did_you_mean
from rulekit.lang.expr.cardnames import card_named
from rulekit.lang.expr import ast
from rulekit.lang.expr import types as T
from rulekit.lang.expr.functions import REGISTRY, YAKU_FUNCS, EvalError, Function, normalised, charge_walk
from rulekit.lang.expr.parser import ExprSyntaxError, parse
from rulekit.lang.expr.codebuild import generate
from rulekit.lang.expr.codegen import may_hold_lists
from rulekit.lang.expr.fastcode import FastCode
from rulekit.lang.expr.helpers import Fail, fold_binary
from rulekit.lang.expr.inline import expand
from rulekit.lang.expr.literals import literal_problems
from rulekit.lang.expr.scope import (MAX_INT, NC_MARK as _MARK, CompileError, Compiled, Fn,
                                     Problem, Root, Scope)

_NC = object()  # "not a constant"

_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")

Typed = tuple[str, Any]  # a node's type, and its constant value or _NC


def _too_big(v: Any) -> bool:
    """Whether a number is outside the bound that keeps hostile rules from exhausting memory."""
    if type(v) is int:
        return v > MAX_INT or v < -MAX_INT
    if type(v) is Fraction:
        return abs(v.numerator) > MAX_INT or v.denominator > MAX_INT
    return False


class _Compiler:
    def __init__(self, scope: Scope, root: Root | None = None):
        self.root = root or Root()
        self.scope = scope
        self.problems: list[Problem] = []
        self.foldable: set[int] = set()
        self.info: dict[int, tuple[str, Any]] = {}  # per node: type and constant, for codegen
        self.names: dict[int, str] = {}  # per Name node: 'loc' or 'global'
        self.read: set[str] = set()  # the global names read, and "yaku()" if yaku are evaluated

    def drop_dead(self, dead: ast.Node) -> None:
        """Forget constant-folding errors inside a branch that can never run."""
        self.problems = [p for p in self.problems
                         if not (id(p) in self.foldable and dead.start <= p.offset < dead.end)]

    # -- helpers -------------------------------------------------------------
    def fail(self, node: ast.Node, code: str, message: str, hint: str = "", start: int | None = None,
             end: int | None = None) -> Typed:
        s = node.start if start is None else start
        e = node.end if end is None else end
        self.problems.append(Problem(s, max(1, e - s), code, message, hint))
        return T.ANY, _NC

    def expect(self, node: ast.Node, have: str, want: str, what: str) -> None:
        if not T.compatible(have, want):
            self.problems.append(Problem(node.start, max(1, node.end - node.start), "E033",
                                         f"{what}: expected {T.describe(want)}, found {T.describe(have)}"))

    # -- dispatch ------------------------------------------------------------
    def c(self, node: ast.Node, loc: dict[str, str]) -> Typed:
        method: Callable[[ast.Node, dict[str, str]], Typed] = getattr(self, "c_" + type(node).__name__)
        res = method(node, loc)
        self.info[id(node)] = res
        return res

    def c_Const(self, node: ast.Const, loc: dict[str, str]) -> Typed:
        v = normalised(node.value) if isinstance(node.value, Fraction) else node.value
        if isinstance(v, (int, Fraction)) and not isinstance(v, bool) and _too_big(v):
            return self.fail(node, "E034", "number too large (limit 10^30)")
        return T.type_of_value(v), v

    def c_ListLit(self, node: ast.ListLit, loc: dict[str, str]) -> Typed:
        parts = [self.c(i, loc) for i in node.items]
        t = T.ANY
        for (item, (it, _)) in zip(node.items, parts):
            u = T.unify(t, it)
            if u is None:
                self.fail(item, "E033", f"list items must share a type: {T.describe(t)} and {T.describe(it)}")
            else:
                t = u
        if all(p[1] is not _NC for p in parts):
            return T.list_of(t), [p[1] for p in parts]
        return T.list_of(t), _NC

    def c_Name(self, node: ast.Name, loc: dict[str, str]) -> Typed:
        name = node.name
        if name in loc:
            self.names[id(node)] = "loc"
            return loc[name], _NC
        g = self.scope.globals.get(name)
        if g is not None:
            self.names[id(node)] = "global"
            self.read.add(name)
            if g.get is None:
                return g.type, g.value
            return g.type, _NC
        if name == "opt":
            return self.fail(node, "E033", "'opt' alone is not a value: write opt.<option name>")
        if name in REGISTRY:
            return self.fail(node, "E033", f"'{name}' is a function: call it as {name}(...)")
        if name in self.scope.unseen:
            return self.fail(node, "E031", f"'{name}' cannot be read here: {self.scope.unseen[name]}",
                             "move this part of the rule to a step, where the game's state can be read")
        cands = list(loc) + list(self.scope.globals) + ["opt"]
        hint = did_you_mean(name, cands) or f"if '{name}' is text, put it in quotes: '{name}'"
        return self.fail(node, "E031", f"unknown name '{name}'", hint)

    def c_Attr(self, node: ast.Attr, loc: dict[str, str]) -> Typed:
        if isinstance(node.obj, ast.Name) and node.obj.name == "opt" and "opt" not in loc:
            if node.attr not in self.scope.options:
                return self.fail(node, "E031", f"unknown option '{node.attr}'",
                                 did_you_mean(node.attr, self.scope.options), start=node.attr_start)
            v = self.scope.options[node.attr]
            return T.type_of_value(v), v
        ot, _ = self.c(node.obj, loc)
        if ot not in (T.CARD, T.ANY):
            return self.fail(node, "E033", f"'.{node.attr}' needs a card, found {T.describe(ot)}",
                             start=node.attr_start - 1)
        if node.attr == "id":
            return T.STR, _NC
        if node.attr not in self.scope.attrs:
            cands = list(self.scope.attrs) + ["id"]
            return self.fail(node, "E031", f"cards have no attribute '{node.attr}'",
                             did_you_mean(node.attr, cands), start=node.attr_start)
        return self.scope.attrs[node.attr][0], _NC

    def c_Index(self, node: ast.Index, loc: dict[str, str]) -> Typed:
        ot, _ = self.c(node.obj, loc)
        it, _ = self.c(node.index, loc)
        if ot == T.MAP:
            return T.ANY, _NC
        if not (T.is_list(ot) or ot == T.ANY):
            return self.fail(node, "E033", f"only lists and maps can be indexed, found {T.describe(ot)}")
        self.expect(node.index, it, T.INT, "index")
        return T.elem(ot), _NC

    def c_Unary(self, node: ast.Unary, loc: dict[str, str]) -> Typed:
        t, k = self.c(node.operand, loc)
        if node.op == "not":
            self.expect(node.operand, t, T.BOOL, "'not'")
            if k is not _NC:
                return T.BOOL, not k
            return T.BOOL, _NC
        if not T.is_numeric(t):
            self.expect(node.operand, t, T.NUM, "'-'")
        if k is not _NC and isinstance(k, (int, Fraction)) and not isinstance(k, bool):
            return t, -k
        return t, _NC

    def c_Cond(self, node: ast.Cond, loc: dict[str, str]) -> Typed:
        tt, tk = self.c(node.test, loc)
        self.expect(node.test, tt, T.BOOL, "condition of 'if'")
        at, ak = self.c(node.then, loc)
        bt, bk = self.c(node.other, loc)
        rt = T.unify(at, bt)
        if rt is None:
            self.fail(node, "E033", f"'then' gives {T.describe(at)} but 'else' gives {T.describe(bt)}")
            rt = T.ANY
        if tk is not _NC:  # option-dependent branches fold away
            self.drop_dead(node.other if tk else node.then)
            return (rt, ak) if tk else (rt, bk)
        return rt, _NC

    def c_Let(self, node: ast.Let, loc: dict[str, str]) -> Typed:
        x = node.name
        if x in loc or x in self.scope.globals:
            return self.fail(node, "E033", f"'{x}' is already a name here; choose another name for the let",
                             start=node.start, end=node.start + 3 + len(x) + 1)
        vt, _ = self.c(node.value, loc)
        bt, _ = self.c(node.body, {**loc, x: vt})
        return bt, _NC

    def c_Lambda(self, node: ast.Lambda, loc: dict[str, str]) -> Typed:
        return self.fail(node, "E033", "a function 'x -> ...' can only be an argument of a function call")

    def lam(self, node: ast.Node, param_type: str, loc: dict[str, str]) -> str:
        """Check a lambda argument; returns its body's type."""
        if not isinstance(node, ast.Lambda):
            self.fail(node, "E033", "expected a function here, such as 'c -> c.value'")
            return T.ANY
        p = node.param
        if p in loc or p in self.scope.globals:
            self.fail(node, "E033", f"'{p}' is already a name here; choose another parameter name",
                      start=node.start, end=node.start + len(p))
        bt, _ = self.c(node.body, {**loc, p: param_type})
        return bt

    def c_Binary(self, node: ast.Binary, loc: dict[str, str]) -> Typed:
        op = node.op
        if op in ("and", "or"):
            lt, lk = self.c(node.left, loc)
            rt, rk = self.c(node.right, loc)
            self.expect(node.left, lt, T.BOOL, f"'{op}'")
            self.expect(node.right, rt, T.BOOL, f"'{op}'")
            if lk is not _NC:
                if (op == "and") != bool(lk):
                    self.drop_dead(node.right)
                if op == "and":
                    return (T.BOOL, rk) if lk else (T.BOOL, False)
                return (T.BOOL, True) if lk else (T.BOOL, rk)
            return T.BOOL, _NC
        lt, lk = self.c(node.left, loc)
        rt, rk = self.c(node.right, loc)
        if self.scope.option_values or self.scope.all_card_ids:
            self.problems.extend(literal_problems(node, self.scope, loc))
        if op in ("in", "not in"):
            if not (T.is_list(rt) or rt in (T.MAP, T.STR, T.ANY)):
                return self.fail(node.right, "E033", f"'{op}' needs a list, map or string on the right, "
                                 f"found {T.describe(rt)}")
            if rt == T.STR and lt not in (T.STR, T.ANY):
                self.fail(node, "E033", f"'{op}' on a string needs a string on the left, found {T.describe(lt)}")
            if T.is_list(rt) and T.unify(lt, T.elem(rt)) is None:
                self.fail(node, "E033", f"'{op}': {T.describe(lt)} can never be in {T.describe(rt)}")
            return T.BOOL, _NC
        if op in _COMPARISONS:
            return self.compare(node, lt, lk, rt, rk)
        if op == "+" and (T.is_list(lt) or T.is_list(rt)):
            u = T.unify(lt, rt)
            if u is None or not T.is_list(u):
                return self.fail(node, "E033", f"'+' joins two lists, found {T.describe(lt)} and {T.describe(rt)}")
            return u, _NC
        if op == "-" and T.is_list(lt):
            self.expect(node.right, rt, lt, "'-' removes a list from a list")
            return lt, _NC
        for side, t in ((node.left, lt), (node.right, rt)):
            if not T.is_numeric(t):
                self.fail(side, "E033", f"'{op}' needs numbers, found {T.describe(t)}")
        rtype = T.INT if (lt == T.INT and rt == T.INT and op not in ("/",)) else T.NUM
        if lt == T.ANY or rt == T.ANY:
            rtype = T.NUM if op == "/" else T.ANY if T.ANY in (lt, rt) else rtype
        if lk is _NC or rk is _NC:
            return rtype, _NC
        # fold constants; an error here is left for run time, so guarded dead code is fine
        try:
            v = fold_binary(op, lk, rk)
        except Fail as exc:
            if T.is_numeric(lt) and T.is_numeric(rt):  # else the type error is already reported
                # reported unless the branch holding it turns out to be dead (see drop_dead)
                at = node.right if exc.part != "node" else node
                prob = Problem(at.start, at.end - at.start, "E034", exc.message)
                self.problems.append(prob)
                self.foldable.add(id(prob))
            return rtype, _NC
        except (TypeError, ValueError, ZeroDivisionError, OverflowError, EvalError):
            return rtype, _NC
        return rtype, v

    def compare(self, node: ast.Binary, lt: str, lk: Any, rt: str, rk: Any) -> Typed:
        """Check (and fold) `==`, `!=`, `<`, `<=`, `>`, `>=`."""
        op = node.op
        if op in ("==", "!="):
            if T.unify(lt, rt) is None:
                self.fail(node, "E033", f"'{op}' compares {T.describe(lt)} with {T.describe(rt)}; "
                          "they can never be equal")
        else:
            ok = (T.is_numeric(lt) and T.is_numeric(rt)) or (lt == rt == T.STR)
            if not ok:
                self.fail(node, "E033", f"'{op}' needs two numbers, found {T.describe(lt)} and "
                          f"{T.describe(rt)}", start=node.op_start, end=node.op_start + len(op))
        if lk is not _NC and rk is not _NC:
            try:
                if may_hold_lists(lt) and may_hold_lists(rt):
                    charge_walk(None, lk)  # a constant DAG of shared lists: not compared here
                return T.BOOL, fold_binary(op, lk, rk)
            except (TypeError, EvalError):
                pass
        return T.BOOL, _NC

    def c_Call(self, node: ast.Call, loc: dict[str, str]) -> Typed:
        if node.func in YAKU_FUNCS:
            self.read.add("yaku()")
        fdef = REGISTRY.get(node.func)
        broken = (self.scope.functions or {}).get(node.func)
        if fdef is None and broken is not None and getattr(broken, "broken", False):
            # a variant function whose body is wrong: reported once, at the body; the arguments
            # still get their own checks here (the code raises if it ever runs)
            for a in node.args:
                self.c(a, loc)
            return T.ANY, _NC
        if fdef is None:
            if node.func in self.scope.globals or node.func in loc:
                return self.fail(node, "E033", f"'{node.func}' is not a function", end=node.start + len(node.func))
            return self.fail(node, "E031", f"unknown function '{node.func}'",
                             did_you_mean(node.func, [*REGISTRY, *(self.scope.functions or {})]),
                             end=node.start + len(node.func))
        arities = sorted({len(o) for o in fdef.overloads})
        for oi, params in enumerate(fdef.overloads):
            if len(params) == len(node.args):
                return self.call_overload(node, fdef, oi, loc)
        want = " or ".join(str(a) for a in arities)
        return self.fail(node, "E032", f"{node.func}() takes {want} argument{'s' if arities[-1] != 1 else ''}, "
                         f"found {len(node.args)}", f"signature: {fdef.signature(0)}")

    def call_overload(self, node: ast.Call, fdef: Function, oi: int, loc: dict[str, str]) -> Typed:
        params = fdef.overloads[oi]
        tv: dict[str, str] = {}
        consts: list[Any] = []

        def subst(p: str) -> str:
            for var in ("T", "R"):
                if p == var:
                    return tv.get(var, T.ANY)
                p = p.replace(f"<{var}>", f"<{tv.get(var, T.ANY)}>")
            return p

        def bind(pattern: str, have: str) -> None:
            if pattern in ("T", "R"):
                prev = tv.get(pattern)
                tv[pattern] = have if prev is None else (T.unify(prev, have) or prev)
            elif pattern.startswith("list<") and (T.is_list(have) or have == T.ANY):
                bind(pattern[5:-1], T.elem(have))

        for arg, p in zip(node.args, params):
            if p.startswith("fn("):
                inner, ret = p[3:].split(")->")
                bt = self.lam(arg, subst(inner), loc)
                bind(ret, bt)
                if ret == "bool":
                    self.expect(arg, bt, T.BOOL, f"the function given to {node.func}()")
                consts.append(_NC)
                continue
            if isinstance(arg, ast.Lambda):
                self.fail(arg, "E033", f"{node.func}() does not take a function here")
                consts.append(_NC)
                continue
            t, k = self.c(arg, loc)
            if p.startswith("name:"):
                if k is _NC or not isinstance(k, str):
                    self.fail(arg, "E033", f"{node.func}() needs a fixed string here, such as '...'")
            else:
                want = subst(p)
                if not T.compatible(t, want):
                    self.fail(arg, "E033", f"argument of {node.func}(): expected {T.describe(want)}, "
                              f"found {T.describe(t)}")
                bind(p, t)
            consts.append(k)
        rtype = subst(fdef.returns[oi])
        if node.func in ("sum", "abs") and rtype not in (T.INT, T.NUM, T.ANY):
            self.fail(node, "E033", f"{node.func}() needs numbers, found {T.describe(rtype)}")
            rtype = T.NUM
        if node.func == "card":
            cid = consts[0]
            if isinstance(cid, str):
                idx, problem, hint = self.scope.card_index(cid)
                if idx is None:
                    return self.fail(node.args[0], "E040", problem, hint)
            return T.CARD, _NC
        if node.func in YAKU_FUNCS:
            table = consts[0]
            if isinstance(table, str) and table not in self.scope.yaku_tables:
                self.fail(node.args[0], "E040", f"no yaku table '{table}'",
                          did_you_mean(table, self.scope.yaku_tables))
        return rtype, _NC


def _constant(v: Any) -> Fn:
    """The function of a constant expression (a list: a fresh copy each time)."""
    if isinstance(v, list):
        items = tuple(v)

        def fresh(ctx: object) -> list[Any]:
            return list(items)
        return fresh

    def same(ctx: object) -> Any:
        return v
    return same


def _checked(node: ast.Node, scope: Scope, root: Root, expect: str | None,
             text: str = "") -> tuple[ast.Node, _Compiler, str, Any]:
    """A parsed expression with its functions put in place and checked: (tree, checker, type,
    constant or _NC); raise CompileError listing every problem."""
    if scope.functions and (not text or any(f in text for f in scope.functions)):
        node = expand(node, scope.functions)  # (text naming no function calls none: nothing to put in place)
    comp = _Compiler(scope, root)
    try:
        t, k = comp.c(node, dict(scope.locals))
    except RecursionError:
        raise CompileError([Problem(0, 1, "E030", "expression nested too deeply")]) from None
    if expect is not None and not comp.problems and not T.compatible(t, expect):
        comp.problems.append(Problem(node.start, max(1, node.end - node.start), "E033",
                                     f"expected {T.describe(expect)}, found {T.describe(t)}"))
    if comp.problems:
        raise CompileError(comp.problems)
    return node, comp, t, k


def check_ast(node: ast.Node, scope: Scope, text: str = "", expect: str | None = None) -> str:
    """Check a parsed expression as compile_ast does, writing no code; its type. Raise
    CompileError listing every problem (a function's body is checked once so, where it is written)."""
    return _checked(node, scope, Root(text), expect, text)[2]


def compile_ast(node: ast.Node, scope: Scope, text: str = "", expect: str | None = None,
                lazy: bool = False) -> Compiled:
    """Check and compile a parsed expression; raise CompileError listing every problem.
    `lazy`: its own function is compiled when first called (see codebuild.generate)."""
    root = Root(text)
    node, comp, t, k = _checked(node, scope, root, expect, text)
    deps = frozenset(comp.read)  # which state it reads (what the checker met: every node of the tree)
    info = {i: (ty, _MARK if c is _NC else c) for i, (ty, c) in comp.info.items()}
    if k is not _NC:
        fn = _constant(k)
        fast = generate(node, info, comp.names, scope, root, lazy) if scope.codegen else None
        return Compiled(text, fn, t, True, k, fn, root, fast, fn, deps)
    try:
        gen = generate(node, info, comp.names, scope, root, lazy)
    except RecursionError:
        raise CompileError([Problem(0, 1, "E030", "expression nested too deeply")]) from None
    start, length = node.start, max(1, node.end - node.start)

    def safety(inner: Fn) -> Fn:
        def safe(ctx: object) -> Any:
            try:
                return inner(ctx)
            except (TypeError, ValueError, IndexError, KeyError, AttributeError, OverflowError) as exc:
                raise EvalError(f"cannot evaluate: {exc}", start, length, root) from None
            except Fail as exc:  # a helper's failure outside any site (not expected): the whole expression
                raise EvalError(exc.message, start, length, root) from None
            except RecursionError:
                raise EvalError("evaluation nested too deeply", start, length, root) from None
        return safe
    slow = gen.slow  # type: ignore[attr-defined]
    return Compiled(text, safety(gen), t, False, None, gen, root, gen if scope.codegen else None, safety(slow), deps)


def compile_expr(text: str, scope: Scope, expect: str | None = None, lazy: bool = False) -> Compiled:
    """Parse, check and compile expression text; raise CompileError on any problem. `lazy`: its
    own function is compiled when first called (an expression generated code writes inline)."""
    if not isinstance(text, str):
        if isinstance(text, bool) or isinstance(text, int):
            v = text
            t = T.type_of_value(v)
            if expect is not None and not T.compatible(t, expect):
                raise CompileError([Problem(0, 1, "E033", f"expected {T.describe(expect)}, found {T.describe(t)}")])
            if isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_INT:
                raise CompileError([Problem(0, 1, "E034", "number too large (limit 10^30)")])
            fn = lambda ctx, v=v: v  # noqa: E731
            fn.fastcode = FastCode(repr(v), (), fn)  # generated code inlines it
            fn.plain = fn  # as generated code has: the value without the fallback
            return Compiled(str(text), fn, t, True, v, fn, None, fn if scope.codegen else None, fn)
        raise CompileError([Problem(0, 1, "E033", f"expected an expression, found {type(text).__name__}")])
    try:
        try:
            node = parse(text)
        except ExprSyntaxError as exc:
            raise CompileError([Problem(exc.offset, exc.length, "E030", exc.message, exc.hint)]) from None
        return compile_ast(node, scope, text, expect, lazy)
    except CompileError as exc:
        named = card_named(text, scope)
        if named is None:
            raise
        # a card written by its name as bare words: say how a rule names a card
        hint = f"a card is written card('{named}') (its id or English name in quotes), as in card('{named}') in cards"
        raise CompileError([Problem(p.offset, p.length, p.code, p.message, hint) if p.code in ("E030", "E031")
                            else p for p in exc.problems]) from None

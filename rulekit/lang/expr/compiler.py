"""Type-check an AST against a scope and compile it to a closure `fn(ctx) -> value`.

Compilation happens once, at load time; evaluation never parses or looks names up by
string except for step-bound locals (`ctx.loc`). No Python attribute or builtin is
reachable: names resolve only to the scope given here and to the function registry.
"""
from __future__ import annotations


import operator
from fractions import Fraction
from typing import Any, Callable

from rulekit.core.errors import did_you_mean
from rulekit.lang.expr.cardnames import card_named
from rulekit.lang.expr import ast
from rulekit.lang.expr import types as T
from rulekit.lang.expr.functions import CONTEXT_FUNCS, FREE_SCAN, REGISTRY, YAKU_FUNCS, EvalError, hashable_value, normalised, built_size, minus_lists
from rulekit.lang.expr.functions import WALKERS, charge_fn, charge_walk
from rulekit.lang.expr.parser import ExprSyntaxError, parse
from rulekit.lang.expr.codegen import generate, may_hold_lists
from rulekit.lang.expr.fastcode import FastCode
from rulekit.lang.expr.inline import expand
from rulekit.lang.expr.literals import literal_problems
from rulekit.lang.expr.scope import (BUILDERS, EVAL_BUDGET, MAX_EXPONENT, MAX_INT, NC_MARK as _MARK, CompileError, Compiled, Fn,
                                     Problem, Root, Scope)

_NC = object()  # "not a constant"


_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "%": operator.mod, "//": operator.floordiv}
_CMP = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
        ">=": operator.ge}


def _check_int(v, node: ast.Node, root: Root | None = None):
    """Bound the size of numbers so hostile rules cannot exhaust memory or time."""
    tv = type(v)
    if tv is int:
        if v > MAX_INT or v < -MAX_INT:
            raise EvalError("number too large (limit 10^30)", node.start, node.end - node.start, root)
    elif tv is Fraction:
        if abs(v.numerator) > MAX_INT or v.denominator > MAX_INT:
            raise EvalError("number too large (limit 10^30)", node.start, node.end - node.start, root)
    return v


class _Compiler:
    def __init__(self, scope: Scope, root: Root | None = None):
        self.root = root or Root()
        self.scope = scope
        self.problems: list[Problem] = []
        self.foldable: set[int] = set()
        self.info: dict[int, tuple[str, Any]] = {}  # per node: type and constant, for codegen
        self.names: dict[int, str] = {}  # per Name node: 'loc' or 'global'

    def drop_dead(self, dead: ast.Node) -> None:
        """Forget constant-folding errors inside a branch that can never run."""
        self.problems = [p for p in self.problems
                         if not (id(p) in self.foldable and dead.start <= p.offset < dead.end)]

    # -- helpers -------------------------------------------------------------
    def fail(self, node: ast.Node, code: str, message: str, hint: str = "", start: int | None = None,
             end: int | None = None) -> tuple[Fn, str, Any]:
        s = node.start if start is None else start
        e = node.end if end is None else end
        self.problems.append(Problem(s, max(1, e - s), code, message, hint))
        return _raiser(message, s, self.root), T.ANY, _NC

    def expect(self, node: ast.Node, have: str, want: str, what: str) -> None:
        if not T.compatible(have, want):
            self.problems.append(Problem(node.start, max(1, node.end - node.start), "E033",
                                         f"{what}: expected {T.describe(want)}, found {T.describe(have)}"))

    # -- dispatch ------------------------------------------------------------
    def c(self, node: ast.Node, loc: dict[str, str]) -> tuple[Fn, str, Any]:
        method = getattr(self, "c_" + type(node).__name__)
        res = method(node, loc)
        self.info[id(node)] = (res[1], res[2])
        return res

    def c_Const(self, node: ast.Const, loc):
        v = normalised(node.value) if isinstance(node.value, Fraction) else node.value
        if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
            try:
                _check_int(v, node)
            except EvalError as exc:
                return self.fail(node, "E034", exc.message)
        return (lambda ctx, v=v: v), T.type_of_value(v), v

    def c_ListLit(self, node: ast.ListLit, loc):
        parts = [self.c(i, loc) for i in node.items]
        t = T.ANY
        for (item, (_, it, _)) in zip(node.items, parts):
            u = T.unify(t, it)
            if u is None:
                self.fail(item, "E033", f"list items must share a type: {T.describe(t)} and {T.describe(it)}")
            else:
                t = u
        if all(p[2] is not _NC for p in parts):
            val = [p[2] for p in parts]
            return (lambda ctx, val=tuple(val): list(val)), T.list_of(t), val
        fns = [p[0] for p in parts]
        return (lambda ctx: [f(ctx) for f in fns]), T.list_of(t), _NC

    def c_Name(self, node: ast.Name, loc):
        name = node.name
        if name in loc:
            self.names[id(node)] = "loc"
            return (lambda ctx, k=name: ctx.loc[k]), loc[name], _NC
        g = self.scope.globals.get(name)
        if g is not None:
            self.names[id(node)] = "global"
            if g.get is None:
                return (lambda ctx, v=g.value: v), g.type, g.value
            return g.get, g.type, _NC
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

    def c_Attr(self, node: ast.Attr, loc):
        if isinstance(node.obj, ast.Name) and node.obj.name == "opt" and "opt" not in loc:
            if node.attr not in self.scope.options:
                return self.fail(node, "E031", f"unknown option '{node.attr}'",
                                 did_you_mean(node.attr, self.scope.options), start=node.attr_start)
            v = self.scope.options[node.attr]
            return (lambda ctx, v=v: v), T.type_of_value(v), v
        obj, ot, _ = self.c(node.obj, loc)
        if ot not in (T.CARD, T.ANY):
            return self.fail(node, "E033", f"'.{node.attr}' needs a card, found {T.describe(ot)}",
                             start=node.attr_start - 1)
        if node.attr == "id":
            ids = tuple(sorted(self.scope.card_ids, key=self.scope.card_ids.get))
            return (lambda ctx: ids[obj(ctx)]), T.STR, _NC
        if node.attr not in self.scope.attrs:
            cands = list(self.scope.attrs) + ["id"]
            return self.fail(node, "E031", f"cards have no attribute '{node.attr}'",
                             did_you_mean(node.attr, cands), start=node.attr_start)
        at, table = self.scope.attrs[node.attr]
        return (lambda ctx: table[obj(ctx)]), at, _NC

    def c_Index(self, node: ast.Index, loc):
        root = self.root
        obj, ot, oc = self.c(node.obj, loc)
        idx, it, ic = self.c(node.index, loc)
        if ot == T.MAP:
            def get_map(ctx):
                m, k = obj(ctx), idx(ctx)
                try:
                    return m[tuple(k) if isinstance(k, list) else k]
                except KeyError:
                    return 0
                except TypeError:
                    raise EvalError("only maps can be looked up by key", node.start, node.end - node.start,
                                    root) from None
            return get_map, T.ANY, _NC
        if not (T.is_list(ot) or ot == T.ANY):
            return self.fail(node, "E033", f"only lists and maps can be indexed, found {T.describe(ot)}")
        self.expect(node.index, it, T.INT, "index")
        ipos = (node.index.start, node.index.end - node.index.start)

        def out_of_range(xs, i) -> EvalError:
            size = len(xs) if isinstance(xs, (list, tuple)) else 0
            return EvalError(f"index {i} out of range (list has {size} items)", *ipos, root)
        if ic is not _NC and isinstance(ic, int) and not isinstance(ic, bool):
            k = ic  # a constant index is inlined

            def get_k(ctx):
                xs = obj(ctx)
                try:
                    return xs[k]
                except (IndexError, TypeError):
                    raise out_of_range(xs, k) from None
            return get_k, T.elem(ot), _NC

        def get(ctx):
            xs, i = obj(ctx), idx(ctx)
            try:
                return xs[i]
            except (IndexError, TypeError):
                raise out_of_range(xs, i) from None
        return get, T.elem(ot), _NC

    def c_Unary(self, node: ast.Unary, loc):
        f, t, k = self.c(node.operand, loc)
        if node.op == "not":
            self.expect(node.operand, t, T.BOOL, "'not'")
            if k is not _NC:
                return (lambda ctx, v=not k: v), T.BOOL, not k
            return (lambda ctx: not f(ctx)), T.BOOL, _NC
        if not T.is_numeric(t):
            self.expect(node.operand, t, T.NUM, "'-'")
        if k is not _NC and isinstance(k, (int, Fraction)) and not isinstance(k, bool):
            return (lambda ctx, v=-k: v), t, -k
        return (lambda ctx: -f(ctx)), t, _NC

    def c_Cond(self, node: ast.Cond, loc):
        tf, tt, tk = self.c(node.test, loc)
        self.expect(node.test, tt, T.BOOL, "condition of 'if'")
        af, at, ak = self.c(node.then, loc)
        bf, bt, bk = self.c(node.other, loc)
        rt = T.unify(at, bt)
        if rt is None:
            self.fail(node, "E033", f"'then' gives {T.describe(at)} but 'else' gives {T.describe(bt)}")
            rt = T.ANY
        if tk is not _NC:  # option-dependent branches fold away
            self.drop_dead(node.other if tk else node.then)
            return (af, rt, ak) if tk else (bf, rt, bk)
        return (lambda ctx: af(ctx) if tf(ctx) else bf(ctx)), rt, _NC

    def c_Let(self, node: ast.Let, loc):
        root = self.root
        x = node.name
        if x in loc or x in self.scope.globals:
            return self.fail(node, "E033", f"'{x}' is already a name here; choose another name for the let",
                             start=node.start, end=node.start + 3 + len(x) + 1)
        vf, vt, _ = self.c(node.value, loc)
        bf, bt, bk = self.c(node.body, {**loc, x: vt})
        start, length = node.start, node.end - node.start

        def let(ctx):
            v = vf(ctx)
            # a let spends one unit of budget, like one call of a function 'x -> ...'
            ctx.budget -= 1
            if ctx.budget < 0:
                raise EvalError("evaluation budget exhausted: the rules compute too much in one round "
                                f"(limit {EVAL_BUDGET} function calls)", start, length, root)
            ctx.loc[x] = v
            return bf(ctx)
        return let, bt, _NC

    def c_Lambda(self, node: ast.Lambda, loc):
        return self.fail(node, "E033", "a function 'x -> ...' can only be an argument of a function call")

    def lam(self, node: ast.Node, param_type: str, loc) -> tuple[Fn, str]:
        """Compile a lambda argument; returns a maker fn(ctx) -> python callable, and body type."""
        root = self.root
        if not isinstance(node, ast.Lambda):
            self.fail(node, "E033", "expected a function here, such as 'c -> c.value'")
            return (lambda ctx: (lambda x: None)), T.ANY
        p = node.param
        if p in loc or p in self.scope.globals:
            self.fail(node, "E033", f"'{p}' is already a name here; choose another parameter name",
                      start=node.start, end=node.start + len(p))
        body, bt, _ = self.c(node.body, {**loc, p: param_type})

        start, length = node.start, node.end - node.start

        def make(ctx):
            store = ctx.loc

            def f(x):
                # every lambda call spends one unit of the context's evaluation budget, so nested
                # loops over big lists cannot hang the engine
                ctx.budget -= 1
                if ctx.budget < 0:
                    raise EvalError("evaluation budget exhausted: the rules compute too much in one round "
                                    f"(limit {EVAL_BUDGET} function calls)", start, length, root)
                store[p] = x
                return body(ctx)
            return f
        return make, bt

    def c_Binary(self, node: ast.Binary, loc):
        root = self.root
        op = node.op
        if op in ("and", "or"):
            lf, lt, lk = self.c(node.left, loc)
            rf, rt, rk = self.c(node.right, loc)
            self.expect(node.left, lt, T.BOOL, f"'{op}'")
            self.expect(node.right, rt, T.BOOL, f"'{op}'")
            if lk is not _NC:
                if (op == "and") != bool(lk):
                    self.drop_dead(node.right)
                keep = rf if rt != T.ANY else (lambda ctx: bool(rf(ctx)))
                if op == "and":
                    return (keep, T.BOOL, rk) if lk else ((lambda ctx: False), T.BOOL, False)
                return ((lambda ctx: True), T.BOOL, True) if lk else (keep, T.BOOL, rk)
            if T.ANY in (lt, rt):
                if op == "and":
                    return (lambda ctx: bool(lf(ctx)) and bool(rf(ctx))), T.BOOL, _NC
                return (lambda ctx: bool(lf(ctx)) or bool(rf(ctx))), T.BOOL, _NC
            if op == "and":
                return (lambda ctx: lf(ctx) and rf(ctx)), T.BOOL, _NC
            return (lambda ctx: lf(ctx) or rf(ctx)), T.BOOL, _NC
        lf, lt, lk = self.c(node.left, loc)
        rf, rt, rk = self.c(node.right, loc)
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
            neg = op == "not in"
            if rt == T.MAP or rt == T.ANY:
                def member(ctx):
                    x, xs = lf(ctx), rf(ctx)
                    if isinstance(xs, dict):
                        if isinstance(x, list):
                            x = hashable_value(relocated(charge_walk, ctx, x, node, root))
                    elif relocated(charge_walk, ctx, xs, node, root) is not None and len(xs) > FREE_SCAN:
                        ctx.budget -= len(xs)  # a scan costs its length (short ones are free)
                        if ctx.budget < 0:
                            raise EvalError("evaluation budget exhausted: the rules scan too many values in one "
                                            f"round (limit {EVAL_BUDGET})", node.start, node.end - node.start, root)
                    return (x in xs) != neg
                return member, T.BOOL, _NC
            deep = may_hold_lists(T.elem(rt))

            def scan(ctx):
                x, xs = lf(ctx), rf(ctx)
                if deep:  # each item compared walks it: a list of shared lists costs its whole walk
                    relocated(charge_walk, ctx, xs, node, root)
                if len(xs) > FREE_SCAN:  # a scan costs its length (issue 12: `in` inside lambdas)
                    ctx.budget -= len(xs)
                    if ctx.budget < 0:
                        raise EvalError("evaluation budget exhausted: the rules scan too many values in one "
                                        f"round (limit {EVAL_BUDGET})", node.start, node.end - node.start, root)
                return (x in xs) != neg
            return scan, T.BOOL, _NC
        if op in _CMP:
            cmp = _CMP[op]
            if op in ("==", "!="):
                if T.unify(lt, rt) is None:
                    self.fail(node, "E033", f"'{op}' compares {T.describe(lt)} with {T.describe(rt)}; "
                              "they can never be equal")
            else:
                ok = (T.is_numeric(lt) and T.is_numeric(rt)) or (lt == rt == T.STR)
                if not ok:
                    self.fail(node, "E033", f"'{op}' needs two numbers, found {T.describe(lt)} and "
                              f"{T.describe(rt)}", start=node.op_start, end=node.op_start + len(op))
            deep = may_hold_lists(lt) and may_hold_lists(rt)
            if lk is not _NC and rk is not _NC:
                try:
                    if deep:
                        charge_walk(None, lk)  # a constant DAG of shared lists: not compared here
                    v = cmp(lk, rk)
                except (TypeError, EvalError):
                    lk = rk = _NC
                else:
                    return (lambda ctx, v=v: v), T.BOOL, v
            if deep:  # lists of lists (or values of unknown type): charged by the walk of one side
                def compare_walked(ctx):
                    a = lf(ctx)
                    relocated(charge_walk, ctx, a, node, root)
                    return cmp(a, rf(ctx))
                return compare_walked, T.BOOL, _NC
            return _compare_fn(op, lf, rf, rk), T.BOOL, _NC
        # arithmetic
        if op == "+" and (T.is_list(lt) or T.is_list(rt)):
            u = T.unify(lt, rt)
            if u is None or not T.is_list(u):
                return self.fail(node, "E033", f"'+' joins two lists, found {T.describe(lt)} and {T.describe(rt)}")
            def join(ctx):
                r = list(lf(ctx)) + list(rf(ctx))
                ctx.budget -= len(r)
                if ctx.budget < 0:
                    raise EvalError("evaluation budget exhausted: the rules build too many values in one round "
                                    f"(limit {EVAL_BUDGET})", node.start, node.end - node.start, root)
                return r
            return join, u, _NC
        if op == "-" and T.is_list(lt):
            self.expect(node.right, rt, lt, "'-' removes a list from a list")

            def minus(ctx):
                a, drop = lf(ctx), rf(ctx)
                relocated(charge_walk, ctx, a, node, root)
                relocated(charge_walk, ctx, drop, node, root)
                ctx.budget -= len(a) + len(drop)
                if ctx.budget < 0:
                    raise EvalError("evaluation budget exhausted: the rules build too many values in one round "
                                    f"(limit {EVAL_BUDGET})", node.start, node.end - node.start, root)
                return minus_lists(a, drop)
            return minus, lt, _NC
        for side, t in ((node.left, lt), (node.right, rt)):
            if not T.is_numeric(t):
                self.fail(side, "E033", f"'{op}' needs numbers, found {T.describe(t)}")
        rtype = T.INT if (lt == T.INT and rt == T.INT and op not in ("/",)) else T.NUM
        if lt == T.ANY or rt == T.ANY:
            rtype = T.NUM if op == "/" else T.ANY if T.ANY in (lt, rt) else rtype
        zero_start, zero_len = node.right.start, node.right.end - node.right.start

        if op == "/":
            def div(ctx):
                a, b = lf(ctx), rf(ctx)
                if b == 0:
                    raise EvalError("division by zero", zero_start, zero_len, root)
                return _check_int(normalised(Fraction(a) / Fraction(b)), node, root)
            fn = div
        elif op in ("//", "%"):
            base = _ARITH[op]

            def intdiv(ctx):
                a, b = lf(ctx), rf(ctx)
                if b == 0:
                    raise EvalError("division by zero", zero_start, zero_len, root)
                r = base(a, b)
                return r if type(r) is int else normalised(r)
            fn = intdiv
        elif op == "**":
            def power(ctx):
                a, b = lf(ctx), rf(ctx)
                if not isinstance(b, int) or b < 0 or b > MAX_EXPONENT:
                    raise EvalError(f"exponent must be a whole number from 0 to {MAX_EXPONENT}, found {b}",
                                    zero_start, zero_len, root)
                if isinstance(a, Fraction) and abs(a) != 1 and b > 8:
                    raise EvalError("a fraction's exponent may be at most 8", zero_start, zero_len, root)
                return _check_int(normalised(a ** b), node, root)
            fn = power
        elif op == "*":
            def mul(ctx):
                a, b = lf(ctx), rf(ctx)
                if type(a) not in (int, Fraction) or type(b) not in (int, Fraction):
                    raise EvalError("'*' needs two numbers", node.start, node.end - node.start, root)
                return _check_int(normalised(a * b), node, root)
            fn = mul
        elif lt == T.INT and rt == T.INT and op in ("+", "-"):
            # whole numbers: no fraction to normalise; the size bound is two comparisons
            fn = _int_addsub(op, lf, rf, rk, node, root)
        else:
            base = _ARITH[op]

            def arith(ctx):
                a, b = lf(ctx), rf(ctx)
                if (type(a) in (list, str) or type(b) in (list, str)) and ctx is not None:
                    # operands of unknown type that turn out to be lists or text: charged by size
                    # before anything is built (issue 12: text and lists growing without bound);
                    # constant folding (ctx None) works on the rule's own constants
                    ctx.budget -= (len(a) if hasattr(a, "__len__") else 0) + (len(b) if hasattr(b, "__len__") else 0)
                    if ctx.budget < 0:
                        raise EvalError("evaluation budget exhausted: the rules build too many values in one "
                                        f"round (limit {EVAL_BUDGET})", node.start, node.end - node.start, root)
                    if op == "-" and type(a) is list and type(b) is list:
                        return minus_lists(a, b)
                return _check_int(normalised(base(a, b)), node, root)
            fn = arith
        if lk is not _NC and rk is not _NC:
            # fold constants; an error here is left for run time, so guarded dead code is fine
            try:
                v = fn(None)
            except EvalError as exc:
                if not (T.is_numeric(lt) and T.is_numeric(rt)):
                    return fn, rtype, _NC  # the type error is already reported
                # reported unless the branch holding it turns out to be dead (see drop_dead)
                prob = Problem(exc.offset, exc.length, "E034", exc.message)
                self.problems.append(prob)
                self.foldable.add(id(prob))
                return fn, rtype, _NC
            except (TypeError, ValueError, ZeroDivisionError, OverflowError):
                return fn, rtype, _NC
            return (lambda ctx, v=v: v), rtype, v
        return fn, rtype, _NC

    def c_Call(self, node: ast.Call, loc):
        fdef = REGISTRY.get(node.func)
        broken = (self.scope.functions or {}).get(node.func)
        if fdef is None and broken is not None and getattr(broken, "broken", False):
            # a variant function whose body is wrong: reported once, at the body; the arguments
            # still get their own checks here
            for a in node.args:
                self.c(a, loc)
            self.broken_call = True
            return _raiser(f"{node.func}() cannot be worked out: its body has a mistake", node.start), T.ANY, _NC
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

    def call_overload(self, node: ast.Call, fdef, oi: int, loc):
        root = self.root
        params = fdef.overloads[oi]
        tv: dict[str, str] = {}
        argfns: list[Fn] = []
        is_lambda: list[bool] = []
        argtypes: list[str] = []  # each argument's type (a lambda's: its result's)
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
                maker, bt = self.lam(arg, subst(inner), loc)
                bind(ret, bt)
                if ret == "bool":
                    self.expect(arg, bt, T.BOOL, f"the function given to {node.func}()")
                argfns.append(maker)
                is_lambda.append(True)
                argtypes.append(bt)
                consts.append(_NC)
                continue
            if isinstance(arg, ast.Lambda):
                self.fail(arg, "E033", f"{node.func}() does not take a function here")
                argfns.append(lambda ctx: None)
                is_lambda.append(False)
                argtypes.append(T.ANY)
                consts.append(_NC)
                continue
            f, t, k = self.c(arg, loc)
            if p.startswith("name:"):
                if k is _NC or not isinstance(k, str):
                    self.fail(arg, "E033", f"{node.func}() needs a fixed string here, such as '...'")
            else:
                want = subst(p)
                if not T.compatible(t, want):
                    self.fail(arg, "E033", f"argument of {node.func}(): expected {T.describe(want)}, "
                              f"found {T.describe(t)}")
                bind(p, t)
            argfns.append(f)
            is_lambda.append(False)
            argtypes.append(t)
            consts.append(k)
        if node.func in WALKERS:  # what they compare or hash is charged by its walk (shared lists)
            argfns = [_walking(f, lam) if may_hold_lists(t if lam else T.elem(t)) else f
                      for f, lam, t in zip(argfns, is_lambda, argtypes)]
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
                return (lambda ctx, v=idx: v), T.CARD, _NC
            return _raiser("bad card()", node.start, root), T.CARD, _NC
        if node.func in YAKU_FUNCS:
            table = consts[0]
            if isinstance(table, str) and table not in self.scope.yaku_tables:
                self.fail(node.args[0], "E040", f"no yaku table '{table}'",
                          did_you_mean(table, self.scope.yaku_tables))
        impl = fdef.impl
        start, length = node.start, node.end - node.start
        needs_ctx = node.func in CONTEXT_FUNCS
        fname = node.func

        def relocate(exc: Exception) -> EvalError:
            if isinstance(exc, EvalError):
                if exc.root is not None:
                    return exc
                if exc.offset == 0 and exc.length == 1:
                    return EvalError(exc.message, start, length, root)
                return EvalError(exc.message, exc.offset, exc.length, root)
            return EvalError(f"{fname}(): {exc}", start, length, root)

        errors = (EvalError, TypeError, ValueError, ZeroDivisionError, IndexError, KeyError)
        # one closure per arity: no argument list is built on the hot path
        if len(argfns) == 1:
            a0 = argfns[0]
            if needs_ctx:
                def call(ctx):
                    try:
                        return impl(ctx, a0(ctx))
                    except errors as exc:
                        raise relocate(exc) from None
            else:
                def call(ctx):
                    try:
                        return impl(a0(ctx))
                    except errors as exc:
                        raise relocate(exc) from None
        elif len(argfns) == 2:
            a0, a1 = argfns
            if needs_ctx:
                def call(ctx):
                    try:
                        return impl(ctx, a0(ctx), a1(ctx))
                    except errors as exc:
                        raise relocate(exc) from None
            else:
                def call(ctx):
                    try:
                        return impl(a0(ctx), a1(ctx))
                    except errors as exc:
                        raise relocate(exc) from None
        else:
            fns = tuple(argfns)

            def call(ctx):
                try:
                    args = [f(ctx) for f in fns]
                    return impl(ctx, *args) if needs_ctx else impl(*args)
                except errors as exc:
                    raise relocate(exc) from None
        if fname in BUILDERS:
            # functions that build lists spend budget by the size of what they build, so that
            # many calls each building a big list cannot exhaust time or memory
            built = call

            def call(ctx):
                r = built(ctx)
                ctx.budget -= built_size(r)
                if ctx.budget < 0:
                    raise EvalError("evaluation budget exhausted: the rules build too many values in one round "
                                    f"(limit {EVAL_BUDGET})", start, length, root)
                return r
        return call, rtype, _NC


def relocated(charge: Callable, ctx: Any, v: Any, node: ast.Node, root: Any) -> Any:
    """charge(ctx, v), its EvalError placed at `node`."""
    try:
        return charge(ctx, v)
    except EvalError as exc:
        raise EvalError(exc.message, node.start, node.end - node.start, root) from None


def _walking(f: Fn, is_lambda: bool) -> Fn:
    """An argument of distinct/count_by/index_of/sorted whose value (or whose function's results)
    is charged by its walk before it is compared or hashed."""
    if is_lambda:
        return lambda ctx: charge_fn(ctx, f(ctx))
    return lambda ctx: charge_walk(ctx, f(ctx))


def _compare_fn(op: str, lf: Fn, rf: Fn, rk: Any) -> Fn:
    """A comparison closure; a constant right side is inlined (the common `x == 3`)."""
    if rk is not _NC:
        k = rk
        if op == "==":
            return lambda ctx: lf(ctx) == k
        if op == "!=":
            return lambda ctx: lf(ctx) != k
        if op == "<":
            return lambda ctx: lf(ctx) < k
        if op == "<=":
            return lambda ctx: lf(ctx) <= k
        if op == ">":
            return lambda ctx: lf(ctx) > k
        return lambda ctx: lf(ctx) >= k
    if op == "==":
        return lambda ctx: lf(ctx) == rf(ctx)
    if op == "!=":
        return lambda ctx: lf(ctx) != rf(ctx)
    if op == "<":
        return lambda ctx: lf(ctx) < rf(ctx)
    if op == "<=":
        return lambda ctx: lf(ctx) <= rf(ctx)
    if op == ">":
        return lambda ctx: lf(ctx) > rf(ctx)
    return lambda ctx: lf(ctx) >= rf(ctx)


def _int_addsub(op: str, lf: Fn, rf: Fn, rk: Any, node: ast.Node, root: Root) -> Fn:
    """`a + b` / `a - b` on whole numbers, bounded to +-10^30."""
    lo, hi = -MAX_INT, MAX_INT

    def too_big():
        return EvalError("number too large (limit 10^30)", node.start, node.end - node.start, root)
    if rk is not _NC:
        k = rk if op == "+" else -rk

        def add_k(ctx):
            v = lf(ctx) + k
            if lo <= v <= hi:
                return v
            raise too_big()
        return add_k
    if op == "+":
        def add(ctx):
            v = lf(ctx) + rf(ctx)
            if lo <= v <= hi:
                return v
            raise too_big()
        return add

    def sub(ctx):
        v = lf(ctx) - rf(ctx)
        if lo <= v <= hi:
            return v
        raise too_big()
    return sub


def _deps(node: ast.Node, names: dict[int, str]) -> frozenset:
    """The global names an expression reads, plus "yaku()" if it evaluates yaku."""
    out = set()
    try:
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and names.get(id(n)) == "global":
                out.add(n.name)
            elif isinstance(n, ast.Call) and n.func in YAKU_FUNCS:
                out.add("yaku()")
    except RecursionError:
        out.add("?")  # too deep to tell: treated as reading anything
    return frozenset(out)


def _raiser(message: str, offset: int, root: Root | None = None) -> Fn:
    def fn(ctx):
        raise EvalError(message, offset, 1, root)
    return fn


def compile_ast(node: ast.Node, scope: Scope, text: str = "", expect: str | None = None) -> Compiled:
    """Check and compile a parsed expression; raise CompileError listing every problem."""
    root = Root(text)
    if scope.functions:
        node = expand(node, scope.functions)
    comp = _Compiler(scope, root)
    try:
        fn, t, k = comp.c(node, dict(scope.locals))
    except RecursionError:
        raise CompileError([Problem(0, 1, "E030", "expression nested too deeply")]) from None
    if expect is not None and not comp.problems and not T.compatible(t, expect):
        comp.problems.append(Problem(node.start, max(1, node.end - node.start), "E033",
                                     f"expected {T.describe(expect)}, found {T.describe(t)}"))
    if comp.problems:
        raise CompileError(comp.problems)
    deps = _deps(node, comp.names)
    fast = None
    if scope.codegen and not getattr(comp, "broken_call", False):
        fast = generate(node, {i: (ty, _MARK if c is _NC else c) for i, (ty, c) in comp.info.items()},
                        comp.names, scope, fn)
    if k is not _NC:
        return Compiled(text, fn, t, True, k, fn, root, fast, fn, deps)
    start, length = node.start, max(1, node.end - node.start)

    def safety(inner: Fn) -> Fn:
        def safe(ctx):
            try:
                return inner(ctx)
            except (TypeError, ValueError, IndexError, KeyError, AttributeError, OverflowError) as exc:
                raise EvalError(f"cannot evaluate: {exc}", start, length, root) from None
            except RecursionError:
                raise EvalError("evaluation nested too deeply", start, length, root) from None
        return safe
    return Compiled(text, safety(fast or fn), t, False, None, fn, root, fast, safety(fn), deps)


def compile_expr(text: str, scope: Scope, expect: str | None = None) -> Compiled:
    """Parse, check and compile expression text; raise CompileError on any problem."""
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
        return compile_ast(node, scope, text, expect)
    except CompileError as exc:
        named = card_named(text, scope)
        if named is None:
            raise
        # a card written by its name as bare words: say how a rule names a card
        hint = f"a card is written card('{named}') (its id or English name in quotes), as in card('{named}') in cards"
        raise CompileError([Problem(p.offset, p.length, p.code, p.message, hint) if p.code in ("E030", "E031")
                            else p for p in exc.problems]) from None

"""Generate a fast Python function for a checked expression (the closure stays the reference).

The closure compiler checks and types an expression and records what it found per node;
this module turns the same tree into the source of one Python function, so evaluation is
one call instead of a call per node. Safety comes from what the source may contain: only
names this module writes (`ctx`, `L`, `K0`.., `H_..`, `_p0`..), Python operators, and
whole-number literals. Every string, card table, option value and function of a variant is
passed in as a bound constant `Kn`, never written into the source, so no text from a
variant file can become code. Anything this module does not translate leaves the
expression on its closure.

When the generated function raises, the closure is run on the same state: it raises the
same error, located in the expression text, so both paths report identically.
"""
from __future__ import annotations

import dataclasses
import re
from fractions import Fraction
from typing import Any, Callable

from rulekit.lang.expr import ast
from rulekit.lang.expr import types as T
from rulekit.lang.expr.scope import BUILDERS, MAX_INT, NC_MARK
from rulekit.lang.expr.functions import CONTEXT_FUNCS, FREE_SCAN, MAX_RANGE, REGISTRY, EvalError, hashable_value, normalised, minus_lists
from rulekit.lang.expr.functions import WALKERS, charge_fn, charge_walk
from rulekit.lang.expr.fastcode import FastCode

MAX_DEPTH = 40  # deeper trees stay on closures (Python's own parser nests less deeply)
MAX_SOURCE = 6_000  # characters of generated source

# Functions whose lambda is called once per item: the budget is spent up front, per item.
PER_ITEM = {"count", "sum", "min", "max", "min_by", "max_by", "filter", "map", "any", "all", "distinct",
            "count_by", "sorted"}


_CONST_LIST = re.compile(r"^\[\*K(\d+)\]$")
INLINE = {"count", "sum", "filter", "map", "any", "all", "min", "max"}


class Unsupported(Exception):
    """The expression uses something this generator leaves to the closure compiler."""


class _Big(Exception):
    """A number outside +-10^30 (the closure then reports it where it happened)."""


class _Budget(Exception):
    """The evaluation budget ran out (the closure then reports it where it happened)."""


def H_int(v):
    """A whole number within the engine's bound, or _Big."""
    if -MAX_INT <= v <= MAX_INT:
        return v
    raise _Big()


def H_big():
    """Raise _Big (used where an expression cannot hold a statement)."""
    raise _Big()


def H_num(v):
    """Any number normalised (whole fractions become ints) and bounded."""
    v = normalised(v)
    tv = type(v)
    if tv is int:
        if -MAX_INT <= v <= MAX_INT:
            return v
        raise _Big()
    if tv is Fraction:
        if abs(v.numerator) <= MAX_INT and v.denominator <= MAX_INT:
            return v
        raise _Big()
    raise TypeError("not a number")


def H_sum_int(xs):
    """sum() of whole numbers (not booleans), bounded; anything else is left to the closure."""
    s = sum(xs)
    if type(s) is int and -MAX_INT <= s <= MAX_INT:
        return s
    raise TypeError("not whole numbers")


def H_spend(ctx, xs):
    """Charge the budget one unit per item a lambda will be called on; returns xs."""
    ctx.budget -= len(xs)
    if ctx.budget < 0:
        raise _Budget()
    return xs


H_UNSET = object()  # an empty MEMO slot


def H_memo(memo, i, thunk):
    """Compute a shared subexpression and keep it in its MEMO slot."""
    v = memo[i] = thunk()
    return v


def H_tick(ctx):
    """Spend one unit of budget (a function called once per combination); True."""
    ctx.budget -= 1
    if ctx.budget < 0:
        raise _Budget()
    return True


def H_built(ctx, xs):
    """Charge the budget for a list just built (its items and theirs); returns it."""
    n = len(xs)
    if n and type(xs[0]) is list:  # functions.built_size, inlined: this runs for every list built
        n += sum(map(len, xs))
    ctx.budget -= n
    if ctx.budget < 0:
        raise _Budget()
    return xs


def H_range(ctx, a, b=None):
    """range() as the registry computes it, charged to the budget; too long a range raises."""
    if b is None:
        a, b = 0, a
    if b - a > MAX_RANGE:
        raise ValueError("range too long")  # the closure then reports it where it happened
    r = [*range(a, b)]
    ctx.budget -= len(r)
    if ctx.budget < 0:
        raise _Budget()
    return r


def H_join(ctx, a, b):
    """`a + b` on lists: a new list, charged to the budget."""
    r = list(a) + list(b)
    return H_built(ctx, r)


def may_hold_lists(t: str) -> bool:
    """Whether a value of type `t` may hold lists (or is a map): comparing it walks them."""
    return t in (T.ANY, T.MAP) or (T.is_list(t) and (T.elem(t) in (T.ANY, T.MAP) or T.is_list(T.elem(t))))


def H_walk(ctx, v):
    """`v` after its walk is charged (lists of shared lists compared, hashed or scanned)."""
    return charge_walk(ctx, v)


def H_walkfn(ctx, f):
    """A function whose results are charged by their walk (the keys distinct and count_by hash)."""
    return charge_fn(ctx, f)


def H_eq(ctx, a, b):
    """`a == b` on values that may hold lists: charged by the walk of a."""
    return charge_walk(ctx, a) == b


def H_minus(ctx, a, b):
    """`a - b` on lists: the items of a that are not in b; charged by both lengths (and walks)."""
    charge_walk(ctx, a)
    charge_walk(ctx, b)
    ctx.budget -= len(a) + len(b)
    if ctx.budget < 0:
        raise _Budget()
    return minus_lists(a, b)


def H_anyadd(ctx, a, b):
    """`a + b` on values of unknown type: lists and text charged by their size before joining."""
    if type(a) in (list, str) or type(b) in (list, str):
        ctx.budget -= (len(a) if hasattr(a, "__len__") else 0) + (len(b) if hasattr(b, "__len__") else 0)
        if ctx.budget < 0:
            raise _Budget()
        return a + b
    return H_num(a + b)


def H_anysub(ctx, a, b):
    """`a - b` on values of unknown type: lists removed in linear time and charged."""
    if type(a) is list:
        return H_minus(ctx, a, b)
    return H_num(a - b)


def H_scan(ctx, xs):
    """The list or text an `in` test scans, charged by its length (short ones free); returns xs."""
    n = len(xs)
    if n and type(xs[0]) in (list, tuple, dict):
        charge_walk(ctx, xs)
    if n > FREE_SCAN:
        ctx.budget -= n
        if ctx.budget < 0:
            raise _Budget()
    return xs


def H_div(a, b):
    """`/`: an exact fraction (a whole number when it is one), bounded."""
    return H_num(Fraction(a) / Fraction(b))


def H_mul(a, b):
    """`*` on numbers only, bounded."""
    if type(a) not in (int, Fraction) or type(b) not in (int, Fraction):
        raise TypeError("'*' needs two numbers")
    return H_num(a * b)


def H_floordiv(a, b):
    """`//` with fractions normalised."""
    r = a // b
    return r if type(r) is int else normalised(r)


def H_mod(a, b):
    """`%` with fractions normalised."""
    r = a % b
    return r if type(r) is int else normalised(r)


def H_pow(a, b):
    """`**` within the exponent limits, bounded."""
    if not isinstance(b, int) or b < 0 or b > 64 or (isinstance(a, Fraction) and abs(a) != 1 and b > 8):
        raise ValueError("bad exponent")
    return H_num(a ** b)


def H_mapget(m, k):
    """`m[k]` on a map: 0 for a missing key (lists as keys are compared as tuples)."""
    try:
        return m[tuple(k) if isinstance(k, list) else k]
    except KeyError:
        return 0


_FLAT_NOT = (list, tuple, dict)  # items charge_walk would walk


def H_member(ctx, x, xs):
    """`x in xs` where xs may be a map keyed by lists; a list or text scan is charged by its length."""
    if type(xs) is list and (not xs or type(xs[0]) not in _FLAT_NOT):  # a flat list: the usual case
        if len(xs) > FREE_SCAN:
            ctx.budget -= len(xs)
            if ctx.budget < 0:
                raise _Budget()
        return x in xs
    if type(xs) is dict:
        if type(x) is list:
            x = hashable_value(charge_walk(ctx, x))
    elif charge_walk(ctx, xs) is not None and len(xs) > FREE_SCAN:
        ctx.budget -= len(xs)
        if ctx.budget < 0:
            raise _Budget()
    return x in xs


HELPERS = {name: fn for name, fn in globals().items() if name.startswith("H_")}
FAST_ERRORS = (EvalError, TypeError, ValueError, IndexError, KeyError, AttributeError, OverflowError,
               ZeroDivisionError, _Big, _Budget)  # not RecursionError: retrying deep recursion would multiply it


class CodeGen:
    """Translate one checked expression tree into Python source over bound constants."""

    def __init__(self, info: dict[int, tuple[str, Any]], names: dict[int, str], scope: Any):
        self.info = info  # id(node) -> (type, constant or NC) as the closure compiler found them
        self.names = names  # id(Name node) -> 'loc' | 'global'
        self.scope = scope
        self.consts: list[Any] = []
        self.index: dict[int, int] = {}  # id(constant) -> its number
        self.params: dict[str, str] = {}  # lambda parameter -> Python name
        self.n_params = 0
        self.n_temps = 0
        self.depth = 0
        self.memo: dict[str, int] | None = None  # canon(call) -> MEMO slot, when shared (see regenerate)
        self.in_memo = False

    def const(self, v: Any) -> str:
        if type(v) is bool or v is None:
            return repr(v)
        if type(v) is int:
            return f"({v})" if v < 0 else repr(v)
        i = self.index.get(id(v))
        if i is None:
            i = self.index[id(v)] = len(self.consts)
            self.consts.append(v)  # keeps v alive, so its id stays its own
        return f"K{i}"

    def g(self, node: ast.Node) -> str:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Unsupported("too deep")
        try:
            t, k = self.info.get(id(node), (T.ANY, NC_MARK))
            if k is not NC_MARK:
                if isinstance(k, list):
                    return f"[*{self.const(tuple(k))}]"  # a fresh list each time, as the closure gives
                return self.const(k)
            method = getattr(self, "g_" + type(node).__name__, None)
            if method is None:
                raise Unsupported(type(node).__name__)
            slot = self.memo_slot(node)
            if slot is None:
                return method(node)
            self.in_memo = True  # no slot inside a slot, and no := in a thunk (see g_Binary)
            try:
                code = method(node)
            finally:
                self.in_memo = False
            if ":=" in code:
                return code  # Python allows no assignment expression in some places a thunk may land
            return f"(MEMO[{slot}] if MEMO[{slot}] is not H_UNSET else H_memo(MEMO, {slot}, lambda: {code}))"
        finally:
            self.depth -= 1

    def memo_slot(self, node: ast.Node) -> int | None:
        """The MEMO slot computing `node` once per use of the generated function, if it has one:
        a call its yaku table repeats (self.memo); never inside `x -> ...`."""
        if self.in_memo or self.params or self.memo is None or not isinstance(node, ast.Call):
            return None
        return self.memo.get(canon(node))

    def type_of(self, node: ast.Node) -> str:
        return self.info.get(id(node), (T.ANY, None))[0]

    def const_of(self, node: ast.Node) -> Any:
        return self.info.get(id(node), (T.ANY, NC_MARK))[1]

    # -- nodes ---------------------------------------------------------------
    def g_ListLit(self, node: ast.ListLit) -> str:
        return "[" + "".join(self.g(i) + ", " for i in node.items) + "]"

    def g_Name(self, node: ast.Name) -> str:
        if node.name in self.params:
            return self.params[node.name]
        kind = self.names.get(id(node))
        if kind == "loc":
            return f"L[{self.const(node.name)}]"
        g = self.scope.globals.get(node.name)
        if kind != "global" or g is None:
            raise Unsupported(node.name)
        code = getattr(g, "code", None)
        if code == "dealer":
            return "ctx.dealer"
        if code == "n_players":
            return "ctx.n"
        if code == "round_no":
            return "ctx.round_no"
        if code == "chips":
            return "ctx.chips"
        if code == "seats":
            return "[*range(ctx.n)]"
        if isinstance(code, tuple) and code[0] in ("zones", "vars"):
            return f"ctx.{code[0]}[{self.const(code[1])}]"
        if g.get is None:
            return self.const(g.value)
        return f"{self.const(g.get)}(ctx)"

    def g_Attr(self, node: ast.Attr) -> str:
        obj = self.g(node.obj)
        if node.attr == "id":
            ids = tuple(sorted(self.scope.card_ids, key=self.scope.card_ids.get))
            return f"{self.const(ids)}[{obj}]"
        if node.attr not in self.scope.attrs:
            raise Unsupported(node.attr)
        return f"{self.const(self.scope.attrs[node.attr][1])}[{obj}]"

    def g_Index(self, node: ast.Index) -> str:
        obj, idx = self.g(node.obj), self.g(node.index)
        if self.type_of(node.obj) == T.MAP:
            return f"H_mapget({obj}, {idx})"
        return f"{obj}[{idx}]"

    def g_Unary(self, node: ast.Unary) -> str:
        inner = self.g(node.operand)
        if node.op == "not":
            return f"(not {inner})"
        return f"(-{inner})"

    def g_Cond(self, node: ast.Cond) -> str:
        tk = self.const_of(node.test)
        if tk is not NC_MARK:
            return self.g(node.then if tk else node.other)
        return f"({self.g(node.then)} if {self.g(node.test)} else {self.g(node.other)})"

    def g_Binary(self, node: ast.Binary) -> str:
        op = node.op
        lt, rt = self.type_of(node.left), self.type_of(node.right)
        if op in ("and", "or"):
            lk = self.const_of(node.left)
            right = self.g(node.right)
            keep = right if rt != T.ANY else f"bool({right})"
            if lk is not NC_MARK:
                if op == "and":
                    return keep if lk else "False"
                return "True" if lk else keep
            left = self.g(node.left)
            if T.ANY in (lt, rt):
                return f"(bool({left}) {op} bool({right}))"
            return f"({left} {op} {right})"
        left, right = self.g(node.left), self.g(node.right)
        if op in ("in", "not in"):
            if rt in (T.MAP, T.ANY):
                neg = "not " if op == "not in" else ""
                return f"({neg}H_member(ctx, {left}, {right}))"
            if _CONST_LIST.match(right) and not may_hold_lists(T.elem(rt)):  # a list written in the rule: its length is the rule's own
                return f"({left} {op} {right})"
            return f"({left} {op} H_scan(ctx, {right}))"
        if op in ("==", "!=") and may_hold_lists(lt) and may_hold_lists(rt):
            return f"({'' if op == '==' else 'not '}H_eq(ctx, {left}, {right}))"
        if op in ("==", "!=", "<", "<=", ">", ">="):
            return f"({left} {op} {right})"
        if op == "+" and (T.is_list(lt) or T.is_list(rt)):
            a, b = _CONST_LIST.match(left), _CONST_LIST.match(right)
            if a and b:  # two fixed lists, such as [-1] + range(4): joined once, here
                joined = self.consts[int(a.group(1))] + self.consts[int(b.group(1))]
                if len(joined) <= 1000:
                    return f"[*{self.const(joined)}]"
            return f"H_join(ctx, {left}, {right})"
        if op == "-" and T.is_list(lt):
            return f"H_minus(ctx, {left}, {right})"
        if op == "/":
            return f"H_div({left}, {right})"
        if op == "*":
            return f"H_mul({left}, {right})"
        if op == "**":
            return f"H_pow({left}, {right})"
        both_int = lt == T.INT and rt == T.INT
        if op in ("//", "%"):
            if both_int:
                return f"({left} {op} {right})"
            return f"H_{'floordiv' if op == '//' else 'mod'}({left}, {right})"
        if op in ("+", "-"):
            if both_int and self.in_memo:
                return f"H_int({left} {op} {right})"
            if both_int:
                t = f"_t{self.n_temps}"
                self.n_temps += 1
                return f"({t} if {-MAX_INT} <= ({t} := {left} {op} {right}) <= {MAX_INT} else H_big())"
            if T.ANY in (lt, rt):  # may be lists or text at run time: charged by size first
                return f"H_any{'add' if op == '+' else 'sub'}(ctx, {left}, {right})"
            return f"H_num({left} {op} {right})"
        raise Unsupported(op)

    def g_Let(self, node: ast.Let) -> str:
        value = self.g(node.value)
        name, body = self.lambda_body(ast.Lambda(node.start, node.end, node.name, node.body))
        # one unit of budget per let, as the closures spend
        return f"(lambda {name}: {body} if H_tick(ctx) else None)({value})"

    def lambda_body(self, node: ast.Lambda) -> tuple[str, str]:
        """The Python name given to a lambda's parameter, and the code of its body."""
        name = f"_p{self.n_params}"
        self.n_params += 1
        saved = self.params.get(node.param)
        self.params[node.param] = name
        try:
            return name, self.g(node.body)
        finally:
            if saved is None:
                del self.params[node.param]
            else:
                self.params[node.param] = saved

    def lam(self, node: ast.Node, tick: bool = False) -> str:
        """A Python lambda; with `tick`, each call spends one unit of budget (as the closures do)."""
        if not isinstance(node, ast.Lambda):
            raise Unsupported("lambda")
        name, body = self.lambda_body(node)
        if tick:
            return f"(lambda {name}: {body} if H_tick(ctx) else None)"
        return f"(lambda {name}: {body})"

    def inline_loop(self, fname: str, fdef, node: ast.Call) -> str | None:
        """`count/sum/filter/map/any/all/min/max(xs, x -> body)` as a comprehension: no call per item."""
        it = self.g(node.args[0])
        if ":=" in it:
            return None  # Python allows no assignment expression in a comprehension's iterable
        p, body = self.lambda_body(node.args[1])
        loop = f"for {p} in H_spend(ctx, {it})"
        if fname == "count":
            return f"len([0 {loop} if {body}])"
        if fname == "filter":
            return f"H_built(ctx, [{p} {loop} if {body}])"
        if fname == "map":
            return f"H_built(ctx, [{body} {loop}])"
        if fname in ("any", "all"):  # a generator, so they stop early as the closures do
            return f"{self.const(fdef.impl)}(({body} {loop}))"
        if fname == "sum" and self.type_of(node) == T.INT:
            return f"H_sum_int([{body} {loop}])"
        return f"{self.const(fdef.impl)}([{body} {loop}])"  # sum, min, max of the values

    def g_Call(self, node: ast.Call) -> str:
        fname = node.func
        fdef = REGISTRY.get(fname)
        if fdef is None:
            raise Unsupported(fname)
        if fname == "card":
            cid = self.const_of(node.args[0])
            idx = self.scope.card_index(cid)[0] if isinstance(cid, str) else None
            if idx is None:
                raise Unsupported("card")
            return self.const(idx)
        params = next(p for p in fdef.overloads if len(p) == len(node.args))
        lambdas = [p.startswith("fn(") for p in params]
        per_call = any(lambdas) and fname not in PER_ITEM  # subsets/partitions: once per combination
        consts = [self.const_of(a) for a in node.args]
        if not any(lambdas) and fname not in CONTEXT_FUNCS and all(k is not NC_MARK for k in consts):
            # a pure function of constants (e.g. range(4)) is computed once, here
            try:
                v = fdef.impl(*consts)
            except Exception:  # noqa: BLE001 - left for run time, where the closure reports it
                v = NC_MARK
            if isinstance(v, list) and len(v) <= 1000:
                return f"[*{self.const(tuple(v))}]"
            if type(v) in (int, bool, str) and (type(v) is not int or -MAX_INT <= v <= MAX_INT):
                return self.const(v)
        if fname in INLINE and len(node.args) == 2 and isinstance(node.args[1], ast.Lambda):
            inline = self.inline_loop(fname, fdef, node)
            if inline is not None:
                return inline
        args = []
        for arg, is_lam in zip(node.args, lambdas):
            args.append(self.lam(arg, per_call) if is_lam else self.g(arg))
        if any(lambdas) and not per_call:
            args[0] = f"H_spend(ctx, {args[0]})"
        if fname in WALKERS:  # what they compare or hash is charged by its walk (shared lists)
            args = [a if not may_hold_lists(self.type_of(n.body) if lam else T.elem(self.type_of(n))) else
                    f"H_walkfn(ctx, {a})" if lam else f"H_walk(ctx, {a})" for a, lam, n in zip(args, lambdas, node.args)]
        if fname == "count" and len(args) == 1:
            return f"len({args[0]})"
        if fname == "range":  # checked, built and charged in one call
            return f"H_range(ctx, {', '.join(args)})"
        if fname in CONTEXT_FUNCS:
            args.insert(0, "ctx")
        call = f"{self.const(fdef.impl)}({', '.join(args)})"
        if fname in BUILDERS:
            return f"H_built(ctx, {call})"
        return call


def canon(node: Any) -> str:
    """A node's structure without its place in the text: equal for equal subexpressions."""
    if isinstance(node, ast.Node):
        parts = [type(node).__name__] + [canon(getattr(node, f.name)) for f in dataclasses.fields(node)
                                         if f.name not in ("start", "end", "op_start", "attr_start")]
        return "(" + " ".join(parts) + ")"
    if isinstance(node, tuple):
        return "[" + " ".join(canon(x) for x in node) + "]"
    return repr((type(node).__name__, node))


def _cheap(node: ast.Call) -> bool:
    """Calls cheaper to repeat than to look up in a MEMO slot."""
    return node.func in _CHEAP or (node.func == "count" and len(node.args) == 1)


_CHEAP = {"first", "last", "abs", "right_of", "left_of", "card", "keys", "values", "index_of"}


def call_keys(node: ast.Node, in_lambda: bool = False) -> list[str]:
    """canon() of every function call outside lambdas (what regenerate() may share)."""
    out = []
    if isinstance(node, ast.Lambda):
        in_lambda = True
    elif isinstance(node, ast.Call) and not in_lambda and not _cheap(node):
        out.append(canon(node))
    for child in ast.children(node):
        out += call_keys(child, in_lambda)
    return out


def regenerate(code: FastCode, memo: dict[str, int]) -> tuple[str, tuple] | None:
    """The body and constants of a generated expression again, with the calls named in `memo`
    computed once per evaluation of the function it is put in (yaku tables repeat them)."""
    gen = CodeGen(code.info, code.names, code.scope)
    gen.memo = memo
    try:
        return gen.g(code.node), tuple(gen.consts)
    except (Unsupported, RecursionError):
        return None


def generate(node: ast.Node, info: dict, names: dict, scope: Any, slow: Callable) -> Callable | None:
    """A fast function for `node` falling back to `slow` (the closure) on any error; None if unsupported."""
    gen = CodeGen(info, names, scope)
    try:
        body = gen.g(node)
    except (Unsupported, RecursionError):
        return None
    if len(body) > MAX_SOURCE:
        return None
    kparams = ", ".join(f"K{i}" for i in range(len(gen.consts)))
    src = (f"def _make({kparams}{', ' if kparams else ''}SLOW, ERRS):\n"
           f"    def fast(ctx):\n"
           f"        L = ctx.loc\n"
           f"        try:\n"
           f"            return {body}\n"
           f"        except ERRS:\n"
           f"            return SLOW(ctx)\n"
           f"    def plain(ctx):\n"
           f"        L = ctx.loc\n"
           f"        return {body}\n"
           f"    fast.plain = plain\n"
           f"    return fast\n")
    code = compile_cached(src, "<rulekit expression>")
    if code is None:
        return None
    namespace: dict[str, Any] = {"__builtins__": SAFE_BUILTINS, **HELPERS}
    exec(code, namespace)  # noqa: S102 - source made only of this module's tokens (see docstring)
    fn = namespace["_make"](*gen.consts, slow, FAST_ERRORS)
    fn.source = src  # for tests and debugging
    # what the step generator needs to inline this expression into a phase's code
    fn.fastcode = FastCode(body, tuple(gen.consts), slow, node, info, names, scope, _fresh_list(node, info))
    return fn


def _fresh_list(node: ast.Node, info: dict) -> bool:
    """Whether the value is always a list made by this evaluation (nothing else holds it)."""
    t, k = info.get(id(node), (T.ANY, NC_MARK))
    if k is not NC_MARK:
        return isinstance(k, list)  # a constant list is copied each time
    if isinstance(node, ast.ListLit):
        return True
    if isinstance(node, ast.Call):
        return node.func in BUILDERS and node.func not in ("keys", "values")
    if isinstance(node, ast.Binary):
        return node.op in ("+", "-") and T.is_list(t)
    return False


_CODE_CACHE: dict[str, Any] = {}
_CODE_CACHE_SIZE = 4096


def compile_cached(src: str, filename: str) -> Any:
    """Python's compile() of generated source, remembered by its text (which holds no constants,
    so one entry serves every expression of the same shape); None if Python refuses it."""
    code = _CODE_CACHE.get(src)
    if code is None:
        try:
            code = compile(src, filename, "exec")
        except (SyntaxError, RecursionError, MemoryError, ValueError):
            return None
        if len(_CODE_CACHE) >= _CODE_CACHE_SIZE:
            _CODE_CACHE.clear()
        _CODE_CACHE[src] = code
    return code


# The only builtins generated code can reach (it names no others; this closes the door anyway).
SAFE_BUILTINS = {"len": len, "range": range, "bool": bool, "list": list, "tuple": tuple, "type": type, "int": int}

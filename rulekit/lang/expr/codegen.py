"""Generate Python code for a checked expression: the one evaluator of the expression language.

The checker (rulekit.lang.expr.compiler) types an expression and records what it found per node;
this module turns the tree into the source of Python functions (rulekit.lang.expr.codebuild makes
them), so evaluation is one call instead of a call per node. Each operator is written once: as a
Python operator, or as a helper of rulekit.lang.expr.helpers that the code calls.

The same generator writes each expression twice. The fast code is what runs; where it fails it
runs the located code, written the same way with each failing part passing its place in the text
(a `Site`) to its helper and each call worked out under `H_at`, so the error names the part of
the rule that failed, as written. Trees deeper than Python's parser allows are cut into helper
functions (`_s0`, ...), each holding a slice of the tree.

Safety comes from what the source may contain: only names this module writes (`ctx`, `L`,
`K0`.., `H_..`, `_p0`.., `_t0`.., `_s0`.., the shared slots `M0`.. and `MEMO`), Python operators,
and whole-number literals. Every string, card table, option value, site and function of a variant
is passed in as a bound constant `Kn`, never written into the source, so no text from a variant
file can become code.
"""
from __future__ import annotations

import ast as py_ast
import re
import sys
from fractions import Fraction
from itertools import filterfalse
from typing import Any, Callable

from rulekit.lang.expr import ast
from rulekit.lang.expr import types as T
from rulekit.lang.expr.builtincode import BuiltinWriter, fresh_join, unstarred
from rulekit.lang.expr.hoisting import SCALAR as _SCALAR, SIMPLE as _SIMPLE, HoistWriter
from rulekit.lang.expr.scope import BUILDERS, MAX_INT, NC_MARK, Root, Scope
from rulekit.lang.expr.functions import CONTEXT_FUNCS, FREE_SCAN, REGISTRY, WALKERS, YAKU_FUNCS, Function, count_keys, sum_of
from rulekit.lang.expr.treefacts import FREE_LOOP, PER_ITEM, call_keys, canon, fresh_list, has_loop, inner_loops, size_of
from rulekit.lang.expr.helpers import FAST_ERRORS, HELPERS, SAFE_BUILTINS, Site
from rulekit.lang.expr.unroll import UnrollWriter

__all__ = ["FAST_ERRORS", "HELPERS", "SAFE_BUILTINS", "CodeGen", "Unsupported", "call_keys", "canon",
           "may_hold_lists"]

MAX_DEPTH = 40  # nesting of fast code in one function; deeper slices go to helper functions
LOCATED_DEPTH = 12  # the same for located code (each level nests a call and a lambda)
MAX_SOURCE = 6_000  # characters of an expression's code that a phase's generated code may inline



_CONST_LIST = re.compile(r"^\[\*K(\d+)\]$")
_LOOKUP = re.compile(r"^K(\d+)\[(_p\d+)\]$")  # a constant table indexed by a lambda's parameter
_FRESH = re.compile(r"^\[\*(K\d+|range\(ctx\.n\))\]$")  # a copy of a constant tuple, or the seats
# code that reads a value without computing anything: read twice rather than kept in a temporary
_FEW = 4  # items of a list whose `x in ys` tests are not worth ys's test made a function (member_test)
INLINE = {"count", "sum", "filter", "map", "any", "all", "min", "max", "count_by"}


class Unsupported(Exception):
    """Code that cannot be written as asked (a shared-call rewrite that would need a helper function)."""


def joined_call(code: str) -> bool:
    """Whether generated `code` is one whole call `H_join(ctx, a, b)` (no site: fast code)."""
    try:
        tree = py_ast.parse(code, mode="eval").body
    except SyntaxError:
        return False
    return isinstance(tree, py_ast.Call) and isinstance(tree.func, py_ast.Name) and tree.func.id == "H_join" \
        and len(tree.args) == 3 and not tree.keywords


def may_hold_lists(t: str) -> bool:
    """Whether a value of type `t` may hold lists (or is a map): comparing it walks them."""
    return t in (T.ANY, T.MAP) or (T.is_list(t) and (T.elem(t) in (T.ANY, T.MAP) or T.is_list(T.elem(t))))


#: what the checker found per node (by id): its type, and its constant value or NC_MARK
Info = dict[int, tuple[str, Any]]


class CodeGen(BuiltinWriter, HoistWriter, UnrollWriter):
    """Translate one checked expression tree into Python source over bound constants: fast code,
    or (`root` given) located code whose failures are EvalErrors placed in the expression text."""

    def __init__(self, info: Info, names: dict[int, str], scope: Scope,
                 root: Root | None = None, located: bool = False):
        self.info = info  # id(node) -> (type, constant or NC) as the checker found them
        self.names = names  # id(Name node) -> 'loc' | 'global'
        self.scope = scope
        self.root = root
        self.located = located
        self.consts: list[Any] = []
        self.index: dict[int, int] = {}  # id(constant) -> its number
        self.params: dict[str, str] = {}  # lambda parameter -> Python name
        self.n_params = 0
        self.n_temps = 0
        self.depth = 0
        self.max_depth = LOCATED_DEPTH if located else MAX_DEPTH
        self.subs: list[tuple[str, str, str]] = []  # helper functions: name, parameters, body
        self.memo: dict[str, int] | None = None  # canon(call) -> MEMO slot, when shared (see codebuild.regenerate)
        self.in_memo = False  # writing a slot's thunk: no := (see g)
        self.in_slot = False  # writing a slot's code: no slot inside (see memo_slot)
        self.in_iter = False  # writing a comprehension's iterable: no := (see inline_loop)
        self.growths: dict[int, Fraction] = {}  # id(node) -> its growth (see growth)
        self.bounds: dict[str, int] = {}  # Python name of a let -> the most items its list holds (see static_len)
        self.precharged: set[int] = set()  # id(call) of loops charged by the loop around them (see inner_loops)
        self.copies: dict[str, str] = {}  # code `[*X]` of a copied tuple -> X (see BuiltinWriter)
        # code of a list an `x in` tests in a loop -> the temporary read once before, its code (see hoist)
        self.hoists: dict[str, tuple[str, str]] | None = None if located else {}
        self.cond_depth = 0  # branches (of if, and, or) the code being written is inside
        self.guarded = False  # the loops around the code being written run only when a condition holds

    def const(self, v: Any) -> str:
        if type(v) is bool or v is None:
            return repr(v)
        if type(v) is int:
            return f"({v})" if v < 0 else repr(v)
        if type(v) is str:  # one constant per text: a name read twice is read the same way (see hoist)
            v = sys.intern(v)
        i = self.index.get(id(v))
        if i is None:
            i = self.index[id(v)] = len(self.consts)
            self.consts.append(v)  # keeps v alive, so its id stays its own
        return f"K{i}"

    def site(self, node: ast.Node, part: ast.Node | None = None, fname: str = "") -> str:
        """`, Kn`: the Site of `node` (and of its right operand or index) for located code; '' for fast code."""
        if not self.located:
            return ""
        p = part or node
        return ", " + self.const(Site(node.start, node.end - node.start, p.start, p.end - p.start, self.root, fname))

    def g(self, node: ast.Node, loose: bool = False) -> str:
        """The code of `node`. A whole number that may have grown past the bound through + and -
        (see growth) is bounded here, unless `loose`: its consumer (+, -, a comparison) takes it as
        it is, since a sum of bounded numbers is harmless until it leaves the arithmetic."""
        self.depth += 1
        try:
            t, k = self.info.get(id(node), (T.ANY, NC_MARK))
            if k is not NC_MARK:
                if isinstance(k, list):
                    return f"[*{self.const(tuple(k))}]"  # a fresh list each time
                return self.const(k)
            if self.depth > self.max_depth:
                return self.split(node)
            method: Callable[[ast.Node], str] | None = getattr(self, "g_" + type(node).__name__, None)
            if method is None:
                raise Unsupported(type(node).__name__)
            slot = self.memo_slot(node)
            if slot is None:
                code = method(node)
                if loose or self.growth(node) <= 1:
                    return code
                return self.bounded(code, node)
            # a slot is a local of the table's function, filled by := at its first use; in a
            # comprehension's iterable, where Python allows no :=, it is an item of the list MEMO
            # filled by a thunk (no := in its code either)
            thunk = self.in_iter
            self.in_slot, self.in_memo = True, thunk  # no slot inside a slot
            try:
                code = method(node)
            finally:
                self.in_slot, self.in_memo = False, False
            if not thunk:
                return f"(M{slot} if M{slot} is not H_UNSET else (M{slot} := {code}))"
            if ":=" in code:
                return code  # Python allows no assignment expression in some places a thunk may land
            return f"(MEMO[{slot}] if MEMO[{slot}] is not H_UNSET else H_memo(MEMO, {slot}, lambda: {code}))"
        finally:
            self.depth -= 1

    def growth(self, node: ast.Node) -> Fraction:
        """How many times the bound a whole number `node` computes may reach unbounded: + and -
        add their sides' growths and unary - keeps it; a number written in the rule and the seat
        count weigh their size (n_players - 1 needs no check); every other value is within the
        bound (read from the state, whose stores are checked, or bounded by its operator)."""
        known = self.growths.get(id(node))
        if known is not None:
            return known
        n = Fraction(1)
        k = self.const_of(node)
        if k is not NC_MARK:
            if type(k) is int:
                n = Fraction(abs(k), MAX_INT)
        elif isinstance(node, ast.Binary) and node.op in ("+", "-"):
            if self.type_of(node.left) == T.INT and self.type_of(node.right) == T.INT:
                n = self.growth(node.left) + self.growth(node.right)
        elif isinstance(node, ast.Unary) and node.op == "-":
            n = self.growth(node.operand)
        elif isinstance(node, ast.Name) and node.name not in self.params and self.names.get(id(node)) == "global" \
                and getattr(self.scope.globals.get(node.name), "code", None) == "n_players" and self.scope.seats_max > 0:
            n = Fraction(self.scope.seats_max, MAX_INT)
        self.growths[id(node)] = n
        return n

    def bounded(self, code: str, node: ast.Node) -> str:
        """`code`, a whole number, failing as too large past the bound (the one check of + and -)."""
        if self.in_memo or self.in_iter:  # places where Python allows no assignment expression
            return f"H_int({code}{self.site(node)})"
        t = f"_t{self.n_temps}"
        self.n_temps += 1
        return f"({t} if {-MAX_INT} <= ({t} := {code}) <= {MAX_INT} else H_big({self.site(node)[2:]}))"

    def split(self, node: ast.Node) -> str:
        """`node` as a call of a helper function of its own: no single function nests too deeply
        for Python, however deep the tree (the lambda parameters in reach are passed along)."""
        if self.memo is not None:
            raise Unsupported("too deep to share calls")
        saved, self.depth = self.depth, 0
        try:
            code = self.g(node)
        finally:
            self.depth = saved
        name = f"_s{len(self.subs)}"
        params = ", ".join(["ctx", "L", *self.params.values()])
        self.subs.append((name, params, code))
        return f"{name}({params})"

    def memo_slot(self, node: ast.Node) -> int | None:
        """The shared slot computing `node` once per use of the generated function, if it has one:
        a call its yaku table repeats (self.memo); never inside `x -> ...` nor inside another slot."""
        if self.in_slot or self.params or self.memo is None or not isinstance(node, ast.Call):
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
            index = self.scope.card_ids
            ids = tuple(sorted(index, key=lambda cid: index[cid]))  # the ids in deck order
            return f"{self.const(ids)}[{obj}]"
        if node.attr not in self.scope.attrs:
            raise Unsupported(node.attr)
        return f"{self.const(self.scope.attrs[node.attr][1])}[{obj}]"

    def g_Index(self, node: ast.Index) -> str:
        obj, idx = self.g(node.obj), self.g(node.index)
        if self.type_of(node.obj) == T.MAP:
            return f"H_mapget({obj}, {idx}{self.site(node)})"
        if self.located:
            return f"H_index({obj}, {idx}{self.site(node, node.index)})"
        return f"{obj}[{idx}]"

    def g_Unary(self, node: ast.Unary) -> str:
        if node.op == "not":
            return f"(not {self.g(node.operand)})"
        return f"(-{self.g(node.operand, True)})"

    def g_Cond(self, node: ast.Cond) -> str:
        tk = self.const_of(node.test)
        if tk is not NC_MARK:
            return self.g(node.then if tk else node.other)
        return f"({self.branch(node.then)} if {self.g(node.test)} else {self.branch(node.other)})"

    def branch(self, node: ast.Node) -> str:
        """The code of `node`, which runs only when a condition holds (no value read before for it:
        see hoist)."""
        self.cond_depth += 1
        try:
            return self.g(node)
        finally:
            self.cond_depth -= 1

    def g_Binary(self, node: ast.Binary) -> str:
        some = self.some_of(node)
        if some is not None:  # count(filter(seats, q -> ...)) > 0 as any(): it stops at the first
            return f"(not {self.g(some[0])})" if some[1] else self.g(some[0])
        op = node.op
        lt, rt = self.type_of(node.left), self.type_of(node.right)
        if op in ("and", "or"):
            lk = self.const_of(node.left)
            left = self.g(node.left) if lk is NC_MARK else ""
            right = self.knowing(left, op == "and", node.right)  # right runs only when left is true (and)
            keep = right if rt != T.ANY else f"bool({right})"
            if lk is not NC_MARK:
                if op == "and":
                    return keep if lk else "False"
                return "True" if lk else keep
            if T.ANY in (lt, rt):
                return f"(bool({left}) {op} bool({right}))"
            if lt == T.BOOL and self.const_of(node.right) is (op == "or") and not self.located:
                # `x and false` (`x or true`) is false (true) once x is read: x, the same for
                # every item of the loop around it, is read once, before the expression
                held = self.invariant(left, f"({left} {op} {right})")
                if held is not None:
                    return held
            if not self.located:  # `a or h` with h held false (`a and h`, h held true): a, read as before
                if self.held_truth(right) is (op == "and") and lt == T.BOOL:
                    return left
                if self.held_truth(left) is (op == "and"):
                    return right
            return f"({left} {op} {right})"
        if op in ("==", "!=", "<", "<=", ">", ">=", "+", "-") and lt == T.INT and rt == T.INT:
            # whole numbers: Python's operator, in the fast and the located code alike; a sum is
            # bounded where it leaves the arithmetic (g), not at each step
            return f"({self.g(node.left, True)} {op} {self.g(node.right, True)})"
        left, right = self.g(node.left), self.g(node.right)
        at = self.site(node, node.right)
        if op in ("in", "not in"):
            if _CONST_LIST.match(right) and not may_hold_lists(T.elem(rt)):  # a list written in the rule: its length is the rule's own
                return f"({left} {op} {right[2:-1]})"  # looked up in the constant tuple itself: no copy
            neg = "not " if op == "not in" else ""
            if rt in (T.MAP, T.ANY):
                general = f"H_member(ctx, {left}, {right}{at})"
            else:
                general = f"{left} in H_scan(ctx, {right}{at})"
            if lt in _SCALAR and self.short_attr(node.right):
                return f"({neg}({left} in {right}))"  # every card's list is short and flat: no charge, no walk
            if not self.located and lt in _SCALAR and _SIMPLE.match(right):
                held = self.hoist(right, rt)
                if held is not None:  # read once for the whole loop (see hoist)
                    return f"({left} {op} {held})"
                # a single value looked up in a short list (or map) costs no more than the rule's own
                # text: Python's `in`, with no charge; a longer one goes through the general form
                return f"({neg}({left} in {right} if len({right}) <= {FREE_SCAN} else {general}))"
            return f"({neg}{general})"
        if op in ("==", "!=") and may_hold_lists(lt) and may_hold_lists(rt):
            return f"({'' if op == '==' else 'not '}H_eq(ctx, {left}, {right}{at}))"
        if op in ("==", "!=", "<", "<=", ">", ">="):
            return f"({self.unshared(left)} {op} {self.unshared(right)})"
        if op == "+" and (T.is_list(lt) or T.is_list(rt)):
            a, b = _CONST_LIST.match(left), _CONST_LIST.match(right)
            if a and b:  # two fixed lists, such as [-1] + range(4): joined once, here
                joined = self.consts[int(a.group(1))] + self.consts[int(b.group(1))]
                if len(joined) <= 1000:
                    return f"[*{self.const(joined)}]"
            ln, rn = self.static_len(node.left, left), self.static_len(node.right, right)
            if ln is not None and rn is not None and ln + rn <= FREE_LOOP or self.built_joined(node, ln, rn):
                # two lists the build bounds (zones, seats, short constants) or just charged: not charged
                return f"[*{left}, *{right}]"
            fresh = None if self.located else fresh_join(left)
            if fresh is not None:  # a list just built here: the other joined to it in place
                return f"{fresh[0]}(ctx, {fresh[1]}, {right})"
            return f"H_join(ctx, {left}, {right}{at})"
        if op == "-" and T.is_list(lt):
            return f"H_minus(ctx, {left}, {right}{at})"
        if op == "*" and lt == T.INT and rt == T.INT:  # Python's operator, bounded as + and - are
            return self.bounded(f"({left} * {right})", node)
        whole = self.whole_first(op, left, right, lt, rt)
        if whole is not None:
            return whole
        if op in ("/", "*", "**"):
            return f"H_{_NAMED[op]}({left}, {right}{at})"
        both_int = lt == T.INT and rt == T.INT
        if op in ("//", "%"):
            if both_int:  # Python's own operator; the located code places a zero divisor at it
                if self.located:
                    return f"H_at({at[2:]}, lambda: ({left} {op} {right}))"
                return f"({left} {op} {right})"
            return f"H_{_NAMED[op]}({left}, {right}{at})"
        if op in ("+", "-"):
            if T.ANY in (lt, rt):  # may be lists or text at run time: charged by size first
                return f"H_any{'add' if op == '+' else 'sub'}(ctx, {left}, {right}{at})"
            return f"H_num({left} {op} {right}{at})"
        raise Unsupported(op)

    def g_Let(self, node: ast.Let) -> str:
        value = self.g(node.value)
        most = self.static_len(node.value, value)
        if most is not None:  # the name lambda_body gives it
            self.bounds[f"_p{self.n_params}"] = most
        name, body = self.lambda_body(ast.Lambda(node.start, node.end, node.name, node.body))
        if self.in_memo or self.in_iter:  # places where Python allows no assignment expression
            return f"(lambda {name}: {body})({value})"
        # a name bound once: no call, and no charge (it loops over nothing)
        return f"(({name} := {value}), {body})[1]"

    def lambda_body(self, node: ast.Lambda) -> tuple[str, str]:
        """The Python name given to a lambda's parameter, and the code of its body."""
        name = f"_p{self.n_params}"
        self.n_params += 1
        saved = self.params.get(node.param)
        guarded = self.guarded
        if not self.params:  # the outermost loop: whether it runs only when a condition holds
            self.guarded = self.cond_depth > 0
        self.params[node.param] = name
        try:
            return name, self.g(node.body)
        finally:
            self.guarded = guarded
            if saved is None:
                del self.params[node.param]
            else:
                self.params[node.param] = saved

    def lam(self, node: ast.Node, tick: bool = False) -> str:
        """A Python lambda; with `tick`, each call spends one unit of budget."""
        if not isinstance(node, ast.Lambda):
            raise Unsupported("lambda")
        # with each call charged, so are the loops its body makes over its list parameter (see inner_loops)
        inner = inner_loops(node.body, node.param) if tick else []
        self.precharged.update(id(c) for c in inner)
        name, body = self.lambda_body(node)
        if inner:
            return f"(lambda {name}: {body} if H_tickin(ctx, {name}, {len(inner)}{self.site(node)}) else None)"
        if tick:
            return f"(lambda {name}: {body} if H_tick(ctx{self.site(node)}) else None)"
        return f"(lambda {name}: {body})"

    def inline_loop(self, fname: str, fdef: Function, node: ast.Call) -> str | None:
        """`count/sum/filter/map/any/all/min/max/count_by(xs, x -> body)` as a comprehension: no call per
        item (count_by only of keys that hold no list: they need no walk nor conversion to be hashed)."""
        lam = node.args[1]
        assert isinstance(lam, ast.Lambda)  # the caller inlines only a call whose function is written as x -> ...
        if fname == "count_by" and self.type_of(lam.body) not in _SCALAR:
            return None
        saved, self.in_iter = self.in_iter, True  # Python allows no := anywhere in a comprehension's iterable
        try:
            it = self.count_view(node.args[0]) or self.g(node.args[0])
        finally:
            self.in_iter = saved
        if ":=" in it:
            return None  # Python allows no assignment expression in a comprehension's iterable
        pre = id(node) in self.precharged
        # (a loop charged by the one around it leaves its own items' loops to charge themselves)
        inner = inner_loops(lam.body, lam.param) if not pre and T.is_list(T.elem(self.type_of(node.args[0]))) else []
        self.precharged.update(id(c) for c in inner)
        p, body = self.lambda_body(lam)
        # a fresh copy of a constant or of the seats is gone through as it is: no list is made
        bare = _FRESH.match(it)
        each = bare.group(1) if bare else self.copies.get(it, it)
        loop = f"for {p} in H_spend(ctx, {each}{self.site(lam)})"
        if pre:  # charged with the loop around it, per item of its items
            loop = f"for {p} in {each}"
        elif inner:  # its items' own loops are charged here, at once (see inner_loops)
            loop = f"for {p} in H_spendin(ctx, {it}, {len(inner)}{self.site(lam)})"
            if not self.located and joined_call(it):  # a list joined and gone through: one call
                loop = f"for {p} in H_joinin({it[len('H_join('):-1]}, {len(inner)})"
        most = self.static_len(node.args[0], it)
        if most is not None and not has_loop(lam.body) and most * size_of(lam.body) <= FREE_LOOP:
            # a list whose length is known when the game is built (written in the rule, or a zone,
            # which never holds more than the deck), gone through once by a small body with no
            # loop of its own: it costs no more than a big expression, which is not charged either
            loop = f"for {p} in {each}"
        elif not pre and not inner and not self.located and _SIMPLE.match(each) and not has_loop(lam.body):
            # the same for a list read from the state, its length checked as it is gone through
            few = min(FREE_SCAN, FREE_LOOP // size_of(lam.body))
            loop = f"for {p} in ({each} if len({each}) <= {few} else H_spend(ctx, {each}))"
        if loop == f"for {p} in {each}" and (items := unstarred(each)) is not None:
            loop = f"for {p} in {items}"  # a fresh list gone through once, as it is built: not made
        got = _LOOKUP.match(body)
        table = self.consts[int(got.group(1))] if got and got.group(2) == p else None
        if type(table) is tuple and not self.located and fname in ("sum", "map", "min", "max", "count_by") \
                and self.type_of(lam.body) == T.INT:
            # each item looked up in a constant table (a card's attribute): Python's map, in C (a
            # list's __getitem__ is called directly; a tuple's goes through a slower wrapper)
            items = f"{self.const(map)}({self.const(list(table).__getitem__)}, {loop[len(f'for {p} in '):]})"
            if fname in ("min", "max"):  # over the map itself: an empty one fails with ValueError,
                return f"{fname}({items})"  # which hands the step to the located code and its error
            if fname == "count_by":
                return f"{self.const(count_keys)}({items})"
            if fname == "sum" and most is not None and all(type(v) is int for v in table) \
                    and most * max(map(abs, table), default=0) <= MAX_INT:
                return f"sum({items})"  # a list of known length (a zone: the deck at most): a sum within the bound
            return self.bounded(f"sum({items})", node) if fname == "sum" else f"[*{items}]"
        test = self.member_test(lam) if fname in ("count", "filter", "any", "all") \
            and (most is None or most > _FEW) else None
        if test is not None:
            # `x in ys` per item x, ys the same for every item: ys's test called by C's filter or
            # map (each test of a long ys charged as written out: see H_scanner)
            has, xs = test[0], loop[len(f'for {p} in '):]
            keep = test[1]
            if fname in ("any", "all"):
                some = "any" if (fname == "any") == keep else "all"
                return f"({'' if keep else 'not '}{some}({self.const(map)}({has}, {xs})))"
            kept = f"[*{self.const(filter if keep else filterfalse)}({has}, {xs})]"
            return f"len({kept})" if fname == "count" else kept
        flagged = self.flag_loop(fname, lam, body, p, loop[len(f'for {p} in '):])
        if flagged is not None:  # `x -> flags[x]` or `x -> not flags[x]`: the lookups called by C
            return flagged
        if fname == "count":
            return f"len([0 {loop} if {body}])"
        # filter and map are charged per item gone through (H_spend), not again for what they build:
        # a filter's items are the list's own, a map's one per item (charged again only if lists)
        if fname == "filter":
            return f"[{p} {loop} if {body}]"
        if fname == "map":
            short = isinstance(lam.body, ast.ListLit) and most is not None \
                and all(self.type_of(i) in _SCALAR for i in lam.body.items) \
                and most * (1 + len(lam.body.items)) <= FREE_LOOP
            if not short and (may_hold_lists(self.type_of(lam.body)) or T.is_list(self.type_of(lam.body))):
                # (a short list of single values per item of a list the build bounds is not charged)
                return f"H_built(ctx, [{body} {loop}])"
            return f"[{body} {loop}]"
        if fname in ("any", "all"):  # Python's own, over a generator, so they stop early
            return f"{fname}(({body} {loop}))"
        if fname == "sum":
            if self.type_of(lam.body) == T.INT:  # whole numbers: Python's sum, bounded as + is
                return self.bounded(f"sum([{body} {loop}])", node)
            return f"{self.const(sum_of)}([{body} {loop}])"
        if fname == "count_by":
            return f"{self.const(count_keys)}([{body} {loop}])"
        return self.extreme(fname, f"[{body} {loop}]")  # min, max of the values

    def static_len(self, node: ast.Node, code: str) -> int | None:
        """The most items the list `node` (written as `code`) can hold, if known when the game is
        built: a short constant list's length, the deck's size for a zone (a zone holds only cards
        of the deck, each once), or the most players for `seats`; or such a list's through a let, a
        filter, map, sorted or distinct of it, the keys or values of a count_by of it."""
        fixed = _CONST_LIST.match(code)
        if fixed:  # a short one only: a long list written out is a loop the rule asks for
            n = len(self.consts[int(fixed.group(1))])
            return n if n <= FREE_SCAN else None
        k = self.const_of(node)
        if isinstance(k, list):
            return len(k) if len(k) <= FREE_SCAN else None
        if isinstance(node, ast.ListLit):  # a list written out: its length is the rule's own
            return len(node.items) if len(node.items) <= FREE_SCAN else None
        if isinstance(node, ast.Cond):
            a, b = self.static_len(node.then, ""), self.static_len(node.other, "")
            return None if a is None or b is None else max(a, b)
        if isinstance(node, ast.Call) and node.args:
            if node.func in ("filter", "map", "sorted", "distinct", "slice", "reverse"):
                return self.static_len(node.args[0], "")
            if node.func == "seats_from":
                return self.scope.seats_max or None
            ks = [self.const_of(a) for a in node.args]
            if node.func == "range" and len(ks) <= 2 and all(type(k) is int for k in ks):
                n = len(range(*ks))
                return n if n <= FREE_SCAN else None
            arg = node.args[0]
            if node.func in ("keys", "values") and isinstance(arg, ast.Call) and arg.func == "count_by" and arg.args:
                return self.static_len(arg.args[0], "")
            return None
        if isinstance(node, ast.Name) and node.name in self.params:
            return self.bounds.get(self.params[node.name])
        if isinstance(node, ast.Binary) and node.op == "+" and T.is_list(self.type_of(node)):
            ln, rn = self.static_len(node.left, ""), self.static_len(node.right, "")
            return None if ln is None or rn is None else ln + rn
        zone = node.obj if isinstance(node, ast.Index) else node
        if isinstance(zone, ast.Name) and zone.name not in self.params and self.names.get(id(zone)) == "global":
            g = self.scope.globals.get(zone.name)
            code_of = getattr(g, "code", None)
            want = "list<list<card>>" if zone is not node else "list<card>"
            if isinstance(code_of, tuple) and code_of[0] == "zones" and g is not None and g.type == want \
                    and self.scope.card_ids:
                return len(self.scope.card_ids)
            if code_of == "seats" and zone is node and self.scope.seats_max > 0:
                return self.scope.seats_max
        return None

    def short_built(self, node: ast.Call) -> bool:
        """Whether the list a builder makes needs no charge: a count_by's counts (one number per
        item it was charged for), or a flat list the build bounds (a slice of the seats, say)."""
        if node.func == "values" and isinstance(node.args[0], ast.Call) and node.args[0].func == "count_by":
            return True
        if node.func in ("map", "range") or may_hold_lists(T.elem(self.type_of(node))) \
                or T.is_list(T.elem(self.type_of(node))):
            return False  # (range bounds and charges itself; a map's values may be lists)
        most = self.static_len(node, "")
        return most is not None and most <= FREE_LOOP

    def yaku_direct(self, fname: str, consts: list[Any]) -> Any:
        """The game's own function for yaku/yaku_value/yaku_rank/new_yaku of a constant table, or None."""
        calls = self.scope.yaku_calls
        if calls is None or fname not in YAKU_FUNCS or not consts or type(consts[0]) is not str:
            return None
        return calls.caller(fname, consts[0])

    def g_Call(self, node: ast.Call) -> str:
        fname = node.func
        fdef = REGISTRY.get(fname)
        if fdef is None:  # a variant function whose body has a mistake (reported at its body)
            return f"H_raise({self.const(f'{fname}() cannot be worked out: its body has a mistake')}, {node.start})"
        if fname == "card":
            cid = self.const_of(node.args[0])
            idx = self.scope.card_index(cid)[0] if isinstance(cid, str) else None
            if idx is None:
                return f"H_raise({self.const('bad card()')}, {node.start})"
            return self.const(idx)
        params = next(p for p in fdef.overloads if len(p) == len(node.args))
        lambdas = [p.startswith("fn(") for p in params]
        pre = id(node) in self.precharged  # charged with the loop around it (see inner_loops)
        # subsets/partitions: charged once per combination
        per_call = any(lambdas) and not pre and (fname not in PER_ITEM or self.located)
        consts = [self.const_of(a) for a in node.args]
        if not any(lambdas) and fname not in CONTEXT_FUNCS and all(k is not NC_MARK for k in consts):
            # a pure function of constants (e.g. range(4)) is computed once, here
            try:
                v = fdef.impl(*consts)
            except Exception:  # noqa: BLE001 - left for run time, where the located code reports it
                v = NC_MARK
            if isinstance(v, list) and len(v) <= 1000:
                return f"[*{self.const(tuple(v))}]"
            if type(v) in (int, bool, str) and (type(v) is not int or -MAX_INT <= v <= MAX_INT):
                return self.const(v)
        written = self.written_extreme(node)
        if written is not None:
            return written
        view = self.count_view(node.args[0]) if fname in ("min", "max") and len(node.args) == 1 else None
        if view is not None:  # the counts gone through as they are: no list of them made
            return self.extreme(fname, view)
        if (unrolled := self.unrolled(node)) is not None:  # short lists written out (fast code)
            return unrolled
        if fname in INLINE and len(node.args) == 2 and isinstance(node.args[1], ast.Lambda):
            # the one form of these functions with a lambda, in the fast and the located code
            inline = self.inline_loop(fname, fdef, node)
            if inline is not None:
                if self.located:  # what fails while the call is worked out is placed at it
                    return f"H_at({self.site(node, fname=fname)[2:]}, lambda: {inline})"
                return inline
        args = []
        for arg, is_lam in zip(node.args, lambdas):
            # range() bounds its length itself: its whole numbers may be sums taken as they are
            args.append(self.lam(arg, per_call) if is_lam else self.g(arg, fname == "range"))
        if any(lambdas) and not per_call and not pre:
            args[0] = f"H_spend(ctx, {args[0]})"
        if fname in WALKERS:  # what they compare or hash is charged by its walk (shared lists)
            # a function argument is a Lambda here (self.lam refused anything else)
            args = [a if not may_hold_lists(self.type_of(n.body) if lam and isinstance(n, ast.Lambda)
                                            else T.elem(self.type_of(n))) else
                    f"H_walkfn(ctx, {a})" if lam else f"H_walk(ctx, {a})" for a, lam, n in zip(args, lambdas, node.args)]
        if fname == "count" and len(args) == 1:
            call = f"len({args[0]})"
        elif fname in ("min", "max") and len(args) == 1:
            call = self.extreme(fname, args[0])
        elif fname == "range":
            call = self.range_call(node, args)
        elif (direct := self.yaku_direct(fname, consts)) is not None:
            call = f"{self.const(direct)}(ctx, {', '.join(args[1:])})"  # (ctx, cards[, card], seat)
        else:
            inline = self.builtin(node, args, fresh_list(node.args[0], self.info)) if args else None
            if inline is not None:
                call = inline
            else:
                if fname in CONTEXT_FUNCS:
                    args.insert(0, "ctx")
                call = f"{self.const(fdef.impl)}({', '.join(args)})"
            if fname in BUILDERS and not self.short_built(node):
                call = f"H_built(ctx, {call})"
        if self.located:  # the arguments too: what fails while the call is worked out is placed at it
            return f"H_at({self.site(node, fname=fname)[2:]}, lambda: {call})"
        return call


_NAMED = {"/": "div", "*": "mul", "**": "pow", "//": "floordiv", "%": "mod"}

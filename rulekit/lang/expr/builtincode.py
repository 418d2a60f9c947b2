"""Small builtins written in fast code as the Python they are: seat arithmetic, slices, first/last.

The registry's functions (rulekit.lang.expr.functions) stay the one definition: the located code
still calls them, and these forms give the same value for every argument the checker lets through.
Where a form can fail (first() of an empty list, a table larger than the variant allows) it fails
with a Python error, so the fast code falls back to the located code, which calls the registry's
function and reports its own error at the same place in the text.
"""
from __future__ import annotations

import ast as py_ast
import functools
import re
from itertools import filterfalse
from typing import Any

from rulekit.lang.expr import ast
from rulekit.lang.expr import types as T
from rulekit.lang.expr.functions import FREE_SCAN
from rulekit.lang.expr.hoisting import SIMPLE
from rulekit.lang.expr.scope import MAX_INT, NC_MARK, Scope

MAX_TABLE_SEATS = 16  # the most seats the seat orders are worked out for in advance (a few KB)

_ATOM = re.compile(r"^[\w.]+$")  # a name, a number or an attribute: no parentheses needed around it
_CONST_LIST = re.compile(r"^\[\*K(\d+)\]$")  # a fresh copy of a constant tuple
_WHOLE = re.compile(r"^(\d+|\(-\d+\))$")  # a whole number as the code generator writes it
_FLAG_OF = re.compile(r"^(.+)\[(_p\d+)\]$")  # a list read at a lambda's parameter


@functools.cache
def seat_orders(most: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """seats_from(p) at a table of n seats, as `orders[n][p]`, for every n up to `most`."""
    return tuple(tuple(tuple((p + i) % n for i in range(n)) for p in range(n)) for n in range(most + 1))


def unstarred(code: str) -> str | None:
    """`X` for code `[*X]` (a fresh list of one iterable's items), for a loop that goes through it
    once and keeps nothing of it: no list is made; None for any other code."""
    if not (code.startswith("[*") and code.endswith("]")):
        return None
    depth = 0
    for ch in code[2:-1]:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:  # `[*a][*b]`, say: not one list
                return None
        elif ch in ",'\"" and depth == 0:  # `[*a, *b]`: two lists joined
            return None
    return code[2:-1] if depth == 0 else None


def fresh_join(code: str) -> tuple[str, str] | None:
    """For code making a new list no one else holds - a list written out or built by a loop, or
    H_built of one - the helper that joins another list to it in place and the code to hand it
    (H_joinon, H_joinbuilt: rulekit.lang.expr.helpers); None for any other code."""
    try:
        tree = py_ast.parse(code, mode="eval").body
    except SyntaxError:
        return None
    if isinstance(tree, (py_ast.List, py_ast.ListComp)):
        return "H_joinon", code
    head = "H_built(ctx, "
    if isinstance(tree, py_ast.Call) and isinstance(tree.func, py_ast.Name) and tree.func.id == "H_built" \
            and len(tree.args) == 2 and not tree.keywords and isinstance(tree.args[1], (py_ast.List, py_ast.ListComp)) \
            and code.startswith(head) and code.endswith(")"):
        return "H_joinbuilt", code[len(head):-1]
    return None


def _atom(code: str) -> str:
    return code if _ATOM.match(code) else f"({code})"


class BuiltinWriter:
    """The part of the code generator writing small builtins inline (fast code only)."""

    located: bool
    scope: Scope
    names: dict[int, str]  # id(Name node) -> 'loc' | 'global'
    in_memo: bool  # writing code Python allows no assignment expression in (see CodeGen.g)
    in_iter: bool
    n_temps: int
    consts: list[Any]
    # code of a fresh copy of a tuple (`[*X]`) -> X: read without copying by a slice, a first/last or a loop
    copies: dict[str, str]

    def const(self, v: Any) -> str:  # pragma: no cover - the code generator's
        raise NotImplementedError

    def type_of(self, node: ast.Node) -> str:  # pragma: no cover - the code generator's
        raise NotImplementedError

    def const_of(self, node: ast.Node) -> Any:  # pragma: no cover - the code generator's
        raise NotImplementedError

    def g(self, node: ast.Node, loose: bool = False) -> str:  # pragma: no cover - the code generator's
        raise NotImplementedError

    def builtin(self, node: ast.Call, args: list[str], is_list: bool) -> str | None:
        """The fast code of `node`, a call of a small builtin with these arguments' code, written
        as Python; None when it is called as it is. `is_list`: its first argument is surely a list
        (not a tuple), so that its slice is one."""
        if self.located:
            return None
        f = node.func
        if f in ("right_of", "left_of"):  # seats are numbered anticlockwise: p's right is p + 1
            return f"(({_atom(args[0])} {'+' if f == 'right_of' else '-'} 1) % ctx.n)"
        if f == "seats_from":
            most = self.scope.seats_max
            if not 0 < most <= MAX_TABLE_SEATS:
                return None
            first = node.args[0]
            # a seat worked out by right_of or left_of is one already; any other number is taken modulo
            seat = args[0] if isinstance(first, ast.Call) and first.func in ("right_of", "left_of") \
                else f"{_atom(args[0])} % ctx.n"
            # a table larger than the variant's fails on the index: the located code calls seats_from()
            order = f"{self.const(seat_orders(most))}[ctx.n][{seat}]"
            code = f"[*{order}]"
            self.copies[code] = order
            return code
        xs = self.copies.get(args[0])
        if f == "slice":  # Python's slice clamps and counts from the end exactly as slice() does
            if xs is None and is_list:
                return f"{_atom(args[0])}[{args[1]}:{args[2]}]"
            part = f"{_atom(xs or args[0])}[{args[1]}:{args[2]}]"
            if xs is not None:  # a slice of a tuple: a tuple, read as it is by a loop or a first/last
                self.copies[f"[*{part}]"] = part
            return f"[*{part}]"
        if f == "sorted" and len(args) == 1:  # Python's own, called directly (it is the registry's)
            # a fresh list `[*X]` is sorted as X: sorted makes its own new list of the same items
            return f"{self.const(sorted)}({unstarred(args[0]) or args[0]})"
        if f in ("first", "last"):  # an empty list fails on the index: the located code says so
            return f"{_atom(xs or args[0])}[{'0' if f == 'first' else '-1'}]"
        return None

    def flag_loop(self, fname: str, lam: ast.Lambda, body: str, p: str, xs: str) -> str | None:
        """`count/any/all/filter(xs, x -> flags[x])`, or `x -> not flags[x]`, where `flags` is a list
        of true/false read without computing anything (a per-seat variable, say), with each item's
        lookup called by C (the list's __getitem__ through map, filter or filterfalse): the same
        items read in the same order, stopping where the comprehension would (`body` is the
        lambda's code, `p` its parameter's name, `xs` the code of the items gone through). Fast
        code only; None for any other loop."""
        if self.located or fname not in ("count", "any", "all", "filter"):
            return None
        node, negated = lam.body, False
        if isinstance(node, ast.Unary) and node.op == "not" and body.startswith("(not ") and body.endswith(")"):
            node, negated, body = node.operand, True, body[len("(not "):-1]
        flag = _FLAG_OF.match(body)
        if not (flag and flag.group(2) == p and "_p" not in flag.group(1) and SIMPLE.match(flag.group(1))
                and isinstance(node, ast.Index) and T.is_list(self.type_of(node.obj))
                and self.type_of(node) == T.BOOL):
            return None
        get = f"{flag.group(1)}.__getitem__"
        keep = self.const(filterfalse if negated else filter)
        if fname == "filter":  # the items whose flag is set (unset)
            return f"[*{keep}({get}, {xs})]"
        flags = f"{self.const(map)}({get}, {xs})"
        if fname == "count":
            return f"len([*{keep}(None, {flags})])"
        if not negated:
            return f"{fname}({flags})"
        # some item's flag unset: not all set (and every item's unset: none set), stopping as early
        return f"(not {'all' if fname == 'any' else 'any'}({flags}))"

    def count_view(self, node: ast.Node) -> str | None:
        """`values(count_by(...))` gone through once (by a loop, min or max) as the counts' own view
        (dict.values, in C): the same numbers in the same order, no list copied. Fast code only."""
        if self.located or not isinstance(node, ast.Call) or node.func != "values" or len(node.args) != 1:
            return None
        arg = node.args[0]
        if not isinstance(arg, ast.Call) or arg.func != "count_by":
            return None
        return f"{self.const(dict.values)}({self.g(arg)})"

    def whole_first(self, op: str, left: str, right: str, lt: str, rt: str) -> str | None:
        """`left op right` (+, - or *) of numbers or values of unknown type as Python's operator when
        both are whole numbers at run time (the usual case), bounded; otherwise the helper the
        types call for, on the same two values (each worked out once). Fast code only."""
        if self.located or self.in_memo or self.in_iter or op not in ("+", "-", "*") \
                or not {lt, rt} <= _NUMERIC or lt == rt == T.INT:
            return None
        tests = []
        sides = []
        for code in (left, right):
            if _WHOLE.match(code):  # a whole number written in the rule: no test, no temporary
                sides.append(code)
                continue
            sides.append(f"_t{self.n_temps}")
            self.n_temps += 1
            tests.append(f"(type({sides[-1]} := {code}) is int)")
        if not tests:  # pragma: no cover - two numbers written in the rule are added when compiling
            return None
        a, b = sides
        r = f"_t{self.n_temps}"
        self.n_temps += 1
        if op == "*":
            general = f"H_mul({a}, {b})"
        elif T.ANY in (lt, rt):  # lists or text: charged by their size before they are joined
            general = f"H_any{'add' if op == '+' else 'sub'}(ctx, {a}, {b})"
        else:
            general = f"H_num({a} {op} {b})"
        # `&`: both sides are worked out (and in order) before either is tested
        return (f"({r} if {' & '.join(tests)} "
                f"and {-MAX_INT} <= ({r} := {a} {op} {b}) <= {MAX_INT} else {general})")

    def unshared(self, code: str) -> str:
        """A list written in the rule (`[*Kn]`, a fresh copy of its tuple) as one list made once,
        where it is only compared (a comparison changes nothing); any other code as it is."""
        fixed = _CONST_LIST.match(code)
        if fixed is None or self.located:
            return code
        return self.const(list(self.consts[int(fixed.group(1))]))

    def short_attr(self, node: ast.Node) -> bool:
        """Whether `node` is a card's attribute that is a list of at most FREE_SCAN single values
        for every card of the deck (`c.tags`): looking a value up in it is free, as in any short
        list, and walks nothing. Fast code only."""
        if self.located or not isinstance(node, ast.Attr) or node.attr not in self.scope.attrs:
            return False
        values = self.scope.attrs[node.attr][1]
        return all(type(v) is list and len(v) <= FREE_SCAN and all(type(x) in (int, str) for x in v) for v in values)

    def written_extreme(self, node: ast.Call) -> str | None:
        """min() or max() of a list written out in the rule (`max([a, b])`) as Python's `max(a, b)`:
        no list built, and it is never empty; fast code, of items holding no lists (nothing to walk)."""
        xs = node.args[0] if len(node.args) == 1 else None
        if self.located or node.func not in ("min", "max") or not isinstance(xs, ast.ListLit) or not xs.items:
            return None
        each = T.elem(self.type_of(xs))
        if each in (T.ANY, T.MAP) or T.is_list(each):
            return None
        items = [self.g(x) for x in xs.items]
        if len(items) == 2 and each in (T.INT, T.NUM) and not (self.in_memo or self.in_iter):
            # two numbers: a comparison, not a call. Python's max(a, b) is b if b > a else a (min:
            # b if b < a), here with a worked out first, as the call's arguments are
            (a, ta), (b, tb) = self.kept_once(items[0]), self.kept_once(items[1])
            return f"({tb} if {a} {'<' if node.func == 'max' else '>'} {b} else {ta})"
        return items[0] if len(items) == 1 else f"{node.func}({', '.join(items)})"

    def kept_once(self, code: str) -> tuple[str, str]:
        """`code` worked out once: the code that works it out (into a temporary, unless a name or
        a number), and the name that reads its value after."""
        if _ATOM.match(code):
            return code, code
        t = f"_t{self.n_temps}"
        self.n_temps += 1
        return f"({t} := {code})", t

    def extreme(self, fname: str, xs: str) -> str:
        """min or max of the list `xs`: Python's own, failing as the registry's does on an empty list."""
        return f"{fname}({xs} or H_empty({self.const(fname)}))"

    def range_call(self, node: ast.Call, args: list[str]) -> str:
        """range(): H_range checks, builds and charges it; a range of at most FREE_SCAN numbers
        from or to a number written in the rule is built here, free like a short scan."""
        ks = [self.const_of(a) for a in node.args]
        general = f"H_range(ctx, {', '.join(args)})"
        if self.in_memo or self.in_iter or not all(self.type_of(a) == T.INT for a in node.args):
            return general
        t = f"_t{self.n_temps}"
        if len(args) == 1:
            test, small = f"({t} := {args[0]}) <= {FREE_SCAN}", f"range({t})"
        elif type(ks[0]) is int:
            test, small = f"({t} := {args[1]}) <= {ks[0] + FREE_SCAN}", f"range({args[0]}, {t})"
        elif type(ks[1]) is int:
            test, small = f"({t} := {args[0]}) >= {ks[1] - FREE_SCAN}", f"range({t}, {args[1]})"
        else:
            return general
        self.n_temps += 1
        return f"([*{small}] if {test} else H_range(ctx, {small[6:-1]}))"

    def some_of(self, node: ast.Binary) -> tuple[ast.Call, bool] | None:
        """`count(filter(seats, q -> c)) > 0` (or `>= 1`, `!= 0`; `== 0` its negation) as
        `any(seats, q -> c)`, and whether negated, when `seats` is a list of seats and `c` cannot
        fail for a seat: Python's any() stops at the first seat for which c holds, and a condition
        that cannot fail gives the same answer for the seats after it. Fast code only; the located
        code counts, as written."""
        if self.located or not isinstance(node.left, ast.Call) or node.left.func != "count":
            return None
        k = self.const_of(node.right)
        if type(k) is not int or (node.op, k) not in _SOME:
            return None
        inner = node.left.args[0] if len(node.left.args) == 1 else None
        if not isinstance(inner, ast.Call) or inner.func != "filter" or len(inner.args) != 2:
            return None
        xs, lam = inner.args
        if not isinstance(lam, ast.Lambda) or not self.seat_list(xs) or not self.total(lam.body, lam.param):
            return None
        return ast.Call(inner.start, inner.end, "any", (xs, lam)), _SOME[(node.op, k)]

    def seat_list(self, node: ast.Node) -> bool:
        """Whether `node` is a list of seats, each in 0..n-1: seats_from(), `seats`, or a slice,
        filter, sorting or reversal of one."""
        while isinstance(node, ast.Call) and node.func in ("slice", "filter", "sorted", "reverse", "distinct"):
            node = node.args[0]
        if isinstance(node, ast.Call):
            return node.func == "seats_from"
        return isinstance(node, ast.Name) and self.global_code(node) == "seats"

    def global_code(self, node: ast.Name) -> Any:
        """How generated code reads the global `node` names (None: not a global)."""
        if self.names.get(id(node)) != "global":
            return None
        return getattr(self.scope.globals.get(node.name), "code", None)

    def total(self, node: ast.Node, seat: str) -> bool:
        """Whether `node` cannot fail when `seat` (a name no lambda or let inside rebinds: there
        is none) is a seat: constants, the seat, the state's values and its per-seat values at
        the seat, `not`, `and`, `or`, and comparisons of single values (order only of numbers)."""
        if self.const_of(node) is not NC_MARK:
            return True
        if isinstance(node, ast.Name):
            code = self.global_code(node)
            return node.name == seat or code in ("dealer", "n_players", "round_no") \
                or (isinstance(code, tuple) and code[0] in ("zones", "vars"))
        if isinstance(node, ast.Index):
            obj, at = node.obj, node.index
            return isinstance(obj, ast.Name) and obj.name != seat and obj.name in self.scope.per_seat \
                and self.global_code(obj) is not None and isinstance(at, ast.Name) and at.name == seat
        if isinstance(node, ast.Unary):
            return node.op == "not" and self.total(node.operand, seat)
        if isinstance(node, ast.Binary):
            if not (self.total(node.left, seat) and self.total(node.right, seat)):
                return False
            if node.op in ("and", "or"):
                return True
            types = {self.type_of(node.left), self.type_of(node.right)}
            if node.op in ("==", "!="):
                return types <= _SINGLE
            return node.op in ("<", "<=", ">", ">=") and types == {T.INT}
        return False


# (comparison, number) -> whether `count(filter(...))` compared so is `not any(...)`
_SOME = {(">", 0): False, (">=", 1): False, ("!=", 0): False, ("==", 0): True, ("<", 1): True, ("<=", 0): True}
_SINGLE = {T.INT, T.CARD, T.BOOL, T.STR}
_NUMERIC = {T.INT, T.NUM, T.ANY}

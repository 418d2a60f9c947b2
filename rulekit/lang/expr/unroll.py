"""Loops over short lists written in the rule, and filters of lists of such lists, as straight Python.

A mixin of the code generator (rulekit.lang.expr.codegen.CodeGen), fast code only: the located
code goes through the rule as written, so an error is still placed and worded as before (where
these forms fail, they fail with a Python error, which hands the step to the located code).

- `all([a, b], x -> t)` (`any`): t written once per item, joined by `and` (`or`): no loop, no call;
- `max([a], x -> v)` (`min`): v of the one item; `max(filter([a], x -> t), y -> v)`: v of a where
  t holds of it, else the failure of an empty list;
- `filter(map(xs, x -> [x]), s -> t)` (any list of x and constants written for [x]): one pass
  through xs keeping `[x]` where t holds with `[x]` put in place of s (so the forms above apply);
  a filter of `a + b` or of `if c then a else b` is the filter of each part, where a part is such
  a map (a filter of `[]` is `[]`).

Items and parts are names or constants only, so writing one twice reads it twice and computes
nothing more. The budget charges what is gone through: the items of xs (H_spend, or nothing for
a short list the build bounds, as for any loop), then the joined parts as `a + b` is charged.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

from rulekit.lang.expr import ast
from rulekit.lang.expr import types as T
from rulekit.lang.expr.hoisting import SIMPLE
from rulekit.lang.expr.scope import NC_MARK
from rulekit.lang.expr.treefacts import FREE_LOOP, WRITTEN_MOST as MOST_WRITTEN

_KEPT = re.compile(r"^\[(_p\d+) for \1 in ")  # a filter's comprehension, keeping its items as they are


class _Captured(Exception):
    """A name put in place would be read where a lambda or let binds the same name."""




def _bare(code: str) -> str:
    """`code` without the parentheses around all of it."""
    while code.startswith("(") and code.endswith(")"):
        depth = 0
        for i, ch in enumerate(code):
            depth += ch in "([{"
            depth -= ch in ")]}"
            if depth == 0 and i < len(code) - 1:
                return code  # `(a) or (b)`: the first one closes before the end
        code = code[1:-1]
    return code


def _operand(code: str) -> bool:
    """Whether `code` is one operand (a name, a call, an index, or anything in parentheses): no
    space outside brackets, so no operator of its own."""
    depth = 0
    for ch in code:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth < 0 or (ch == " " and depth == 0):
            return False
    return bool(code) and depth == 0


def _free_in(node: ast.Node, name: str) -> bool:
    """Whether `node` reads `name` where no lambda or let inside it binds it again."""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Name) and n.name == name:
            return True
        if isinstance(n, ast.Lambda) and n.param == name:
            continue
        if isinstance(n, ast.Let) and n.name == name:
            todo.append(n.value)
            continue
        todo.extend(ast.children(n))
    return False


def _free_names(node: ast.Node) -> set[str]:
    """The names `node` reads (it is a list of names and constants, or one of them)."""
    return {n.name for n in ast.walk(node) if isinstance(n, ast.Name)}


class UnrollWriter:
    """The part of the code generator writing out loops over short lists written in the rule."""

    located: bool
    memo: dict[str, int] | None
    info: dict[int, tuple[str, Any]]
    n_params: int
    unroll_kept: list[ast.Node] | None = None  # the nodes made here (their ids key self.info)
    facts: list[tuple[str, bool]] | None = None  # tests the code being written runs only after (see knowing)

    def type_of(self, node: ast.Node) -> str:  # pragma: no cover - the code generator's
        raise NotImplementedError

    def g(self, node: ast.Node, loose: bool = False) -> str:  # pragma: no cover - the code generator's
        raise NotImplementedError

    def const(self, v: Any) -> str:  # pragma: no cover - the code generator's
        raise NotImplementedError

    def branch(self, node: ast.Node) -> str:  # pragma: no cover - the code generator's
        raise NotImplementedError

    def static_len(self, node: ast.Node, code: str) -> int | None:  # pragma: no cover - the code generator's
        raise NotImplementedError

    def unrolled(self, node: ast.Call) -> str | None:
        """The fast code of `node` written out (see the module's docstring), or None."""
        lam = node.args[1] if len(node.args) == 2 else None
        if self.located or self.memo is not None or not isinstance(lam, ast.Lambda):
            return None
        xs = node.args[0]
        try:
            if node.func in ("all", "any"):
                return self.quantified(node.func, xs, lam)
            if node.func in ("min", "max"):
                return self.extreme_of_one(node.func, xs, lam)
            if node.func == "filter" and T.is_list(self.type_of(node)) and self.fusable(xs):
                return self.filtered(node, xs, lam)
        except (_Captured, RecursionError):
            return None
        return None

    def written(self, node: ast.Node, most: int = MOST_WRITTEN) -> tuple[ast.Node, ...] | None:
        """The items of `node` if it is a list written in the rule of at most `most` names and constants."""
        if not isinstance(node, ast.ListLit) or len(node.items) > most \
                or not all(isinstance(i, (ast.Name, ast.Const)) for i in node.items):
            return None
        return node.items

    def quantified(self, fname: str, xs: ast.Node, lam: ast.Lambda) -> str | None:
        """all()/any() of a short list written in the rule: the test of each item, joined."""
        items = self.written(xs)
        if items is None or self.type_of(lam.body) != T.BOOL:
            return None
        if not items:
            return "True" if fname == "all" else "False"
        tests = [self.g(self.put(lam.body, lam.param, item)) for item in items]
        return "(" + (" and " if fname == "all" else " or ").join(tests) + ")"

    def extreme_of_one(self, fname: str, xs: ast.Node, lam: ast.Lambda) -> str | None:
        """min()/max() over one item written in the rule, or over a filter of one."""
        one = self.written(xs, 1)
        if one:
            return self.g(self.put(lam.body, lam.param, one[0]))
        if not (isinstance(xs, ast.Call) and xs.func == "filter" and len(xs.args) == 2
                and isinstance(xs.args[1], ast.Lambda)):
            return None
        one, keep = self.written(xs.args[0], 1), xs.args[1]
        if not one or self.type_of(keep.body) != T.BOOL:
            return None
        test = self.g(self.put(keep.body, keep.param, one[0]))
        value = self.g(self.put(lam.body, lam.param, one[0]))
        if self.holds(test):  # `c in w or max(filter([c], x -> x not in w), ...)`: its test holds there
            return value
        return f"({value} if {test} else H_empty({self.const(fname)}))"

    def fusable(self, xs: ast.Node) -> bool:
        """Whether a filter of `xs` has a part that is a map to lists written out (see filtered)."""
        if self.kept_map(xs) is not None:
            return True
        if isinstance(xs, ast.Binary) and xs.op == "+" and T.is_list(self.type_of(xs)):
            return self.fusable(xs.left) or self.fusable(xs.right)
        return isinstance(xs, ast.Cond) and (self.fusable(xs.then) or self.fusable(xs.other))

    def kept_map(self, xs: ast.Node) -> tuple[ast.Node, ast.Lambda, tuple[ast.Node, ...]] | None:
        """(ys, x -> [x, ...], the list's items) for `map(ys, x -> [x, ...])` whose lists hold x and
        constants only."""
        if not (isinstance(xs, ast.Call) and xs.func == "map" and len(xs.args) == 2
                and isinstance(xs.args[1], ast.Lambda)):
            return None
        lam = xs.args[1]
        items = self.written(lam.body)
        if not items or not all(isinstance(i, ast.Const) or (isinstance(i, ast.Name) and i.name == lam.param)
                                for i in items):
            return None
        return xs.args[0], lam, items

    def filtered(self, node: ast.Call, xs: ast.Node, lam: ast.Lambda) -> str:
        """The filter `node` of `xs` by `lam`, part by part."""
        if isinstance(xs, ast.Binary):
            # filter(a + b, f) is filter(a, f) + filter(b, f), joined without a charge of its own:
            # each filter was charged for every item it went through (or goes through a list
            # the build bounds), and keeps no more than that
            return f"[*{self.joined_part(node, xs.left)}, *{self.joined_part(node, xs.right)}]"
        if isinstance(xs, ast.Cond):
            return f"({self.side(node, xs.then)} if {self.g(xs.test)} else {self.side(node, xs.other)})"
        got = self.kept_map(xs)
        assert got is not None  # fusable() said so
        ys, each, items = got
        if each.param != lam.param and _free_in(lam.body, each.param):
            raise _Captured(each.param)  # the test reads another value by that name: left as it is
        # the items ys gives that lam keeps, each as the list `each` makes of it
        test = self.noted(ast.Lambda(lam.start, lam.end, each.param, self.put(lam.body, lam.param, each.body)), lam)
        code = self.g(self.noted(dataclasses.replace(node, args=(ys, test)), node, self.type_of(ys)))
        kept = _KEPT.match(code)
        p = kept.group(1) if kept else f"_p{self.n_params}"
        made = "[" + "".join(f"{p}, " if isinstance(i, ast.Name) else f"{self.g(i)}, "
                             for i in items) + "]"
        if kept:
            return f"[{made}{code[len(p) + 1:]}"
        self.n_params += 1
        return f"[{made} for {p} in {code}]"

    def joined_part(self, node: ast.Call, xs: ast.Node) -> str:
        """The filter of one side of a `+`; of a list read as it is (a name, a variable), not gone
        through when it is empty (often: a let's `[]` when nothing can be grouped)."""
        code = self.g(self.part(node, xs))
        if not self.fusable(xs) and isinstance(xs, (ast.Name, ast.Index)) and SIMPLE.match(read := self.g(xs)):
            return f"({code} if {read} else [])"
        return code

    def built_joined(self, node: ast.Binary, ln: int | None, rn: int | None) -> bool:
        """Whether the lists `node` joins (with `+`) were each just built by a filter or map, which
        charged every item it went through (or went through a list the build bounds) and keeps no
        more, or are lists the build bounds (`ln`, `rn`: their most items): the join copies only
        what was paid for, so it is not charged again. Fast code only."""
        if self.located:
            return False
        return all((most is not None and most <= FREE_LOOP) or self.paid(n) for n, most in ((node.left, ln), (node.right, rn)))

    def paid(self, node: ast.Node) -> bool:
        """Whether `node` is a list a filter or map just built, or a join of such lists (see built_joined).
        A map to lists (or to values of unknown type) is not: what it builds is charged as it is
        built (H_built), and a join after it keeps the general form, which the writer of a
        choice's options recognises (a random pick works out only the option drawn)."""
        if isinstance(node, ast.Binary) and node.op == "+" and T.is_list(self.type_of(node)):
            return self.built_joined(node, self.static_len(node.left, ""), self.static_len(node.right, ""))
        each = T.elem(self.type_of(node))
        return isinstance(node, ast.Call) and node.func in ("filter", "map") and len(node.args) == 2 \
            and isinstance(node.args[1], ast.Lambda) \
            and (node.func == "filter" or not (each in (T.ANY, T.MAP) or T.is_list(each)))

    def part(self, node: ast.Call, xs: ast.Node) -> ast.Node:
        """The filter `node` of part `xs` of its list, as a node of its own."""
        return self.noted(dataclasses.replace(node, args=(xs, node.args[1])), node)

    def side(self, node: ast.Call, xs: ast.Node) -> str:
        """The filter of one branch of an `if` list: [] of [], a map written out as filtered()
        writes it (its test runs as the filter's own did, outside the condition), else as a branch."""
        if isinstance(xs, ast.ListLit) and not xs.items:
            return "[]"
        got = self.kept_map(xs)
        if got is not None and not any(isinstance(n, (ast.Lambda, ast.Let)) for n in ast.walk(got[0])):
            return self.g(self.part(node, xs))
        return self.branch(self.part(node, xs))

    def put(self, node: ast.Node, name: str, value: ast.Node) -> ast.Node:
        """`node` with `value` (names and constants) in place of the name `name`; each node made
        has the type of the one it replaces. _Captured if a lambda or let there binds a name of
        `value` around a use of `name`."""
        if isinstance(node, ast.Name):
            return value if node.name == name else node
        if isinstance(node, ast.Lambda) and node.param == name:
            return node  # `name` is another value inside
        if isinstance(node, ast.Let) and node.name == name:
            kept = self.put(node.value, name, value)
            return node if kept is node.value else self.noted(dataclasses.replace(node, value=kept), node)
        kids = ast.children(node)
        if not kids:
            return node
        new = [self.put(k, name, value) for k in kids]
        if all(a is b for a, b in zip(new, kids)):
            return node
        bound = node.param if isinstance(node, ast.Lambda) else node.name if isinstance(node, ast.Let) else None
        if bound is not None and bound in _free_names(value) and new[-1] is not kids[-1]:
            raise _Captured(bound)
        return self.noted(ast.with_children(node, new), node)

    def knowing(self, code: str, truth: bool, node: ast.Node) -> str:
        """The code of `node`, a branch run only when the fast code `code` is `truth` (no fact: '')."""
        if not code or self.located:
            return self.branch(node)
        if self.facts is None:
            self.facts = []
        self.facts.append((_bare(code), truth))
        try:
            return self.branch(node)
        finally:
            self.facts.pop()

    def holds(self, code: str) -> bool:
        """Whether the fast code `code` (a test) is surely true where it is written, by what the
        `and`/`or` around it already tested (`a in b` false: `a not in b` true)."""
        code = _bare(code)
        for fact, truth in self.facts or ():
            if fact == code and truth:
                return True
            for yes, no in ((" in ", " not in "), (" not in ", " in ")):
                a, _, b = fact.partition(yes)
                if b and not truth and _operand(a) and _operand(b) and code == f"{a}{no}{b}":
                    return True
        return False

    def noted(self, new: ast.Node, like: ast.Node, kind: str | None = None) -> ast.Node:
        """`new`, a node made here, known to the generator as `like` is (its type and constant), or
        as a value of type `kind` computed at run time."""
        if self.unroll_kept is None:
            self.unroll_kept = []
            self.info = dict(self.info)  # the checker's own stays as it was (the located code reads it)
        self.unroll_kept.append(new)  # kept alive: its id stays its own while the code is written
        self.info[id(new)] = self.info.get(id(like), (T.ANY, NC_MARK)) if kind is None else (kind, NC_MARK)
        return new

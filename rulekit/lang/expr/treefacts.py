"""Facts about an expression's tree that the code generator (rulekit.lang.expr.codegen) reads:
the loops a lambda's body makes over its parameter, its size, whether it loops or reads a name,
and a node's structure without its place (to find repeated calls)."""
from __future__ import annotations

import dataclasses
from typing import Any

from rulekit.lang.expr import ast
from rulekit.lang.expr import types as T
from rulekit.lang.expr.scope import BUILDERS, NC_MARK

# Functions whose lambda is called once per item: the budget is spent up front, per item.
PER_ITEM = {"count", "sum", "min", "max", "min_by", "max_by", "filter", "map", "any", "all", "distinct",
            "count_by", "sorted"}


def inner_loops(body: ast.Node, param: str) -> list[ast.Call]:
    """The calls of `body` (a lambda's, over the items of a list of lists) that go once, item by
    item, through its parameter or through a list made of it no longer than it (filter, map,
    sorted, distinct of it), outside any `x -> ...` of the body: each runs at most once per item
    and at most as many times as the item is long, so the loop around them charges them all at
    once (H_spendin: the items' total length, per such call) instead of one charge per item."""
    out: list[ast.Call] = []
    todo = [body]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Lambda):
            continue  # its body runs once per item of its own list: charged there
        if isinstance(n, ast.Let) and n.name == param:
            todo.append(n.value)  # the body's `param` is another value
            continue
        if isinstance(n, ast.Call) and n.func in PER_ITEM and len(n.args) == 2 \
                and isinstance(n.args[1], ast.Lambda) and made_of(n.args[0], param):
            out.append(n)
        todo.extend(ast.children(n))
    return out


def made_of(node: ast.Node, param: str) -> bool:
    """Whether `node` is `param`, or a list made of it no longer than it."""
    while isinstance(node, ast.Call) and node.func in ("filter", "map", "sorted", "distinct") and node.args:
        node = node.args[0]
    return isinstance(node, ast.Name) and node.name == param


def mentions(node: ast.Node, name: str) -> bool:
    """Whether `node` reads the name `name` (anywhere, even where a lambda or let binds it again)."""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Name) and n.name == name:
            return True
        if isinstance(n, (ast.Lambda, ast.Let)) and getattr(n, "param", getattr(n, "name", None)) == name:
            return True
        todo.extend(ast.children(n))
    return False


def size_of(node: ast.Node) -> int:
    """How many nodes `node` has."""
    n, todo = 0, [node]
    while todo:
        n += 1
        todo.extend(ast.children(todo.pop()))
    return n


def has_loop(node: ast.Node) -> bool:
    """Whether `node` calls a function per item or binds a name (a lambda or a let in it); a
    function called on the items of a short list written in the rule (see short_written) is not
    a loop, its body is looked into."""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Call) and len(n.args) == 2 and isinstance(n.args[1], ast.Lambda) \
                and short_written(n.args[0]):
            todo += (n.args[0], n.args[1].body)
            continue
        if isinstance(n, (ast.Lambda, ast.Let)):
            return True
        todo.extend(ast.children(n))
    return False


FREE_LOOP = 512  # items x body nodes of a loop over a list of known length that is not charged (codegen)
WRITTEN_MOST = 4  # items of a list written in the rule whose loops are written out (lang/expr/unroll.py)


def short_written(node: ast.Node) -> bool:
    """Whether `node` is a list written in the rule of at most WRITTEN_MOST names and constants,
    or a filter of one: a function called on its items is called a few times, as written."""
    if isinstance(node, ast.Call) and node.func == "filter" and len(node.args) == 2:
        node = node.args[0]
    return isinstance(node, ast.ListLit) and len(node.items) <= WRITTEN_MOST \
        and all(isinstance(i, (ast.Name, ast.Const)) for i in node.items)


def canon(node: Any, bound: dict[str, int] | None = None, depth: int = 0) -> str:
    """A node's structure without its place in the text: equal for equal subexpressions. A name
    bound inside `node` (a lambda's parameter, a let's name) is written by the depth of its
    binding, not its text, so subexpressions differing only in the names they bind are equal (the
    function inliner names each call's parameters apart); a free name is written by its text."""
    bound = bound or {}
    if isinstance(node, ast.Name) and node.name in bound:
        return f"(Bound {bound[node.name]})"
    if isinstance(node, ast.Lambda):
        return f"(Lambda {canon(node.body, {**bound, node.param: depth}, depth + 1)})"
    if isinstance(node, ast.Let):
        return f"(Let {canon(node.value, bound, depth)} {canon(node.body, {**bound, node.name: depth}, depth + 1)})"
    if isinstance(node, ast.Node):
        parts = [type(node).__name__] + [canon(getattr(node, f.name), bound, depth) for f in dataclasses.fields(node)
                                         if f.name not in ("start", "end", "op_start", "attr_start")]
        return "(" + " ".join(parts) + ")"
    if isinstance(node, tuple):
        return "[" + " ".join(canon(x, bound, depth) for x in node) + "]"
    return repr((type(node).__name__, node))


def cheap(node: ast.Call) -> bool:
    """Calls cheaper to repeat than to look up in a MEMO slot."""
    return node.func in CHEAP or (node.func == "count" and len(node.args) == 1)


CHEAP = {"first", "last", "abs", "right_of", "left_of", "card", "keys", "values", "index_of"}


def call_keys(node: ast.Node, in_lambda: bool = False) -> list[str]:
    """canon() of every function call outside lambdas (what regenerate() may share)."""
    out = []
    if isinstance(node, ast.Lambda):
        in_lambda = True
    elif isinstance(node, ast.Call) and not in_lambda and not cheap(node):
        out.append(canon(node))
    for child in ast.children(node):
        out += call_keys(child, in_lambda)
    return out


def fresh_list(node: ast.Node, info: dict[int, tuple[str, Any]]) -> bool:
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

"""A variant's `functions:`: named helper expressions, expanded into the calling expression."""
from __future__ import annotations

from dataclasses import dataclass

from rulekit.lang.expr import ast
from rulekit.lang.expr.scope import CompileError, Problem


@dataclass(frozen=True)
class UserFunction:
    """A variant's named helper expression: `name(params) = body` (body parsed once)."""

    name: str
    params: tuple[str, ...]
    body: ast.Node
    description: str = ""


def expand(node: ast.Node, functions: dict[str, UserFunction], depth: int = 0) -> ast.Node:
    """`node` with every call of a user function replaced by its body under `let`s binding the
    arguments; names inside a body get the suffix '#<function>' so they never meet the caller's
    names (a body sees its parameters, options and the game's globals, never the caller's
    locals). Positions of the expansion are the call's, so errors point at the call."""
    if depth > 32:
        raise CompileError([Problem(node.start, max(1, node.end - node.start), "E033",
                                    "functions call each other too deeply (or call themselves)")])

    def rec(n: ast.Node) -> ast.Node:
        if isinstance(n, ast.Call) and n.func in functions:
            f = functions[n.func]
            args = tuple(rec(a) for a in n.args)
            if len(args) != len(f.params):
                raise CompileError([Problem(n.start, max(1, n.end - n.start), "E032",
                                            f"{n.func}() takes {len(f.params)} argument"
                                            f"{'s' if len(f.params) != 1 else ''} "
                                            f"({', '.join(f.params)}), found {len(args)}")])
            body = expand(_rename(f.body, f"#{f.name}", set(f.params), n.start, n.end), functions, depth + 1)
            # a name or a constant argument is put in place as it is (reading it twice costs
            # nothing); any other argument is computed once, by a let
            direct = {f"{p}#{f.name}": a for p, a in zip(f.params, args) if isinstance(a, (ast.Name, ast.Const))}
            if direct:
                body = _substitute(body, direct)
            for p, a in reversed(list(zip(f.params, args))):
                if f"{p}#{f.name}" not in direct:
                    body = ast.Let(n.start, n.end, f"{p}#{f.name}", a, body)
            return body
        kids = ast.children(n)
        if not kids:
            return n
        return _rebuild(n, [rec(k) for k in kids])
    return rec(node)


def _rebuild(n: ast.Node, kids: list) -> ast.Node:
    """`n` with its children replaced (in the order ast.children gives them)."""
    import dataclasses
    if isinstance(n, ast.ListLit):
        return dataclasses.replace(n, items=tuple(kids))
    if isinstance(n, ast.Call):
        return dataclasses.replace(n, args=tuple(kids))
    names = {ast.Attr: ("obj",), ast.Index: ("obj", "index"), ast.Lambda: ("body",), ast.Unary: ("operand",),
             ast.Binary: ("left", "right"), ast.Cond: ("test", "then", "other"), ast.Let: ("value", "body")}
    return dataclasses.replace(n, **dict(zip(names[type(n)], kids)))


def _rename(n: ast.Node, suffix: str, bound: set, start: int, end: int) -> ast.Node:
    """A function body placed at a call: bound names (parameters, lambda and let names) get
    `suffix`; every node takes the call's position."""
    import dataclasses
    if isinstance(n, ast.Name):
        return ast.Name(start, end, n.name + suffix if n.name in bound else n.name)
    if isinstance(n, ast.Lambda):
        return ast.Lambda(start, end, n.param + suffix, _rename(n.body, suffix, bound | {n.param}, start, end))
    if isinstance(n, ast.Let):
        return ast.Let(start, end, n.name + suffix, _rename(n.value, suffix, bound, start, end),
                       _rename(n.body, suffix, bound | {n.name}, start, end))
    kids = [_rename(k, suffix, bound, start, end) for k in ast.children(n)]
    out = _rebuild(n, kids) if kids else n
    extra = {"start": start, "end": end}
    if isinstance(out, ast.Attr):
        extra["attr_start"] = start
    if isinstance(out, ast.Binary):
        extra["op_start"] = start
    return dataclasses.replace(out, **extra)


def _substitute(n: ast.Node, names: dict) -> ast.Node:
    """`n` with the Name nodes listed in `names` replaced by their nodes."""
    if isinstance(n, ast.Name):
        return names.get(n.name, n)
    kids = ast.children(n)
    return _rebuild(n, [_substitute(k, names) for k in kids]) if kids else n

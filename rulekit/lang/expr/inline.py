"""A variant's `functions:`: named helper expressions, expanded into the calling expression."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
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
    # its body has a mistake, reported at the body once: a call does not compile, and says nothing
    broken: bool = False


MAX_EXPANDED = 20_000  # nodes of one expression after every function call is put in place
MAX_CALL_DEPTH = 32  # functions calling functions, this deep at most


def _fail(n: ast.Node, code: str, message: str, hint: str = "") -> CompileError:
    return CompileError([Problem(n.start, max(1, n.end - n.start), code, message, hint)])


def expand(node: ast.Node, functions: dict[str, UserFunction], depth: int = 0) -> ast.Node:
    """`node` with every call of a user function replaced by its body under `let`s binding the
    arguments; names inside a body get the suffix '#<function>.<call>' so they never meet the
    caller's names nor those of another call of the same function (a body sees its parameters,
    options and the game's globals, never the caller's locals). Positions of the expansion are
    the call's, so errors point at the call. The expanded size is worked out from the functions'
    definitions before anything is expanded, and the call depth is checked while expanding
    (MAX_EXPANDED, MAX_CALL_DEPTH): a file cannot make validation run away."""
    sizes: dict[str, int] = {}
    total = 0
    called = False
    for n in _walk(node):
        total += 1
        if isinstance(n, ast.Call) and n.func in functions:
            called = True
            total += _expanded_size(n.func, functions, sizes, set())
            if total > MAX_EXPANDED:
                raise _fail(n, "E033", f"{n.func}(): this call makes the expression grow past {MAX_EXPANDED} "
                            "parts once functions are put in place",
                            "call the function fewer times, or compute the value once with 'let'")
    if not called:
        return node  # (trees are immutable: nothing to put in place, the same tree serves)
    calls = [0]

    def rec(n: ast.Node, depth: int) -> ast.Node:
        if isinstance(n, ast.Call) and n.func in functions:
            f = functions[n.func]
            if f.broken:  # left as a call: the compiler checks its arguments and says nothing of it
                return ast.with_children(n, [rec(a, depth) for a in n.args]) if n.args else n
            if depth >= MAX_CALL_DEPTH:
                raise _fail(n, "E033", f"{f.name}(): functions call each other more than "
                            f"{MAX_CALL_DEPTH} deep here (or call themselves)",
                            "a function may call other functions, but not itself, directly or through others")
            args = tuple(rec(a, depth) for a in n.args)
            if len(args) != len(f.params):
                raise _fail(n, "E032", f"{n.func}() takes {len(f.params)} argument"
                            f"{'s' if len(f.params) != 1 else ''} ({', '.join(f.params)}), found {len(args)}")
            calls[0] += 1
            tag = f"#{f.name}.{calls[0]}"
            body = _rename(f.body, tag, set(f.params), n.start, n.end)
            # a name or a constant argument is put in place as it is (reading it twice costs
            # nothing); any other argument is computed once, by a let. Substituted before the
            # body's own calls are expanded (an argument is already expanded: no call is met twice).
            direct: dict[str, ast.Node] = {f"{p}{tag}": a for p, a in zip(f.params, args)
                                           if isinstance(a, (ast.Name, ast.Const))}
            rest = [(f"{p}{tag}", a) for p, a in zip(f.params, args) if f"{p}{tag}" not in direct]
            if len(rest) == 1 and _read_first(body, rest[0][0]):
                # the one computed argument, read once and before anything else the body does: put in
                # place too (computed when a let would compute it, without the let)
                direct[rest[0][0]] = rest[0][1]
            if direct:
                body = _substitute(body, direct)
            body = rec(body, depth + 1)
            for p, a in reversed(list(zip(f.params, args))):
                if f"{p}{tag}" not in direct:
                    body = ast.Let(n.start, n.end, f"{p}{tag}", a, body)
            return body
        kids = ast.children(n)
        if not kids:
            return n
        new = [rec(k, depth) for k in kids]
        # (a part with no call in it comes back as it was: the same node serves, trees are immutable)
        return n if all(a is b for a, b in zip(new, kids)) else ast.with_children(n, new)
    try:
        return rec(node, depth)
    except RecursionError:
        raise _fail(node, "E030", "expression nested too deeply once its function calls are put in place") from None


def _read_first(body: ast.Node, name: str) -> bool:
    """Whether `name` occurs once in `body`, as the first thing it evaluates: down first sub-nodes
    only (never into a lambda, which may run any number of times)."""
    if sum(1 for n in _walk(body) if isinstance(n, ast.Name) and n.name == name) != 1:
        return False
    n = body
    while not isinstance(n, (ast.Name, ast.Lambda)):
        kids = ast.children(n)
        if not kids:
            return False
        n = kids[0]
    return isinstance(n, ast.Name) and n.name == name


def _expanded_size(name: str, functions: dict[str, UserFunction], memo: dict[str, int], active: set[str]) -> int:
    """How many nodes one call of `name` adds once put in place (its body, its lets, and the
    same for every call in it); a function calling itself counts nothing more here (the depth
    check reports it)."""
    if name in memo:
        return memo[name]
    if name in active or len(active) > MAX_CALL_DEPTH:
        return 0
    active.add(name)
    f = functions[name]
    size = len(f.params)
    for n in _walk(f.body):
        size += 1
        if isinstance(n, ast.Call) and n.func in functions:
            size += _expanded_size(n.func, functions, memo, active)
        if size > MAX_EXPANDED:
            break  # enough to refuse; no need to count to the end
    active.discard(name)
    memo[name] = size
    return size


def _walk(n: ast.Node) -> Iterator[ast.Node]:
    """Every node of `n` (iterative: any depth)."""
    todo = [n]
    while todo:
        x = todo.pop()
        yield x
        todo.extend(ast.children(x))


def _rename(n: ast.Node, suffix: str, bound: set[str], start: int, end: int) -> ast.Node:
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
    out = ast.with_children(n, kids) if kids else n
    extra = {"start": start, "end": end}
    if isinstance(out, ast.Attr):
        extra["attr_start"] = start
    if isinstance(out, ast.Binary):
        extra["op_start"] = start
    return dataclasses.replace(out, **extra)


def _substitute(n: ast.Node, names: Mapping[str, ast.Node]) -> ast.Node:
    """`n` with the Name nodes listed in `names` replaced by their nodes."""
    if isinstance(n, ast.Name):
        return names.get(n.name, n)
    kids = ast.children(n)
    if not kids:
        return n
    new = [_substitute(k, names) for k in kids]
    return n if all(a is b for a, b in zip(new, kids)) else ast.with_children(n, new)

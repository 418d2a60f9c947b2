"""The parts of building a game that check one section each: functions, game length and end, table sizes, groups."""
from __future__ import annotations

import dataclasses
import re
from typing import Any

from rulekit.engine.seatdraw import SeatDraw
from rulekit.core.errors import Collector, error
from rulekit.lang.expr import Scope
from rulekit.lang.expr import types as T
from rulekit.lang.loader import Node, at


def seat_draw_of(node: Node, sc: Any) -> SeatDraw:
    """`game.draw`: the draw before the first round (key over the drawn card `c`)."""
    d = node.value
    key = sc.expr(d["key"], {"c": T.CARD}, T.NUM, "draw key")[0] if "key" in d else (lambda ctx: 0)

    def word(k: str, default: str) -> str:
        return str(d[k].value) if k in d else default
    return SeatDraw(key, word("deals", "lowest"), word("seating", "by_draw"), word("ties", "redraw"), node.span)


def compile_functions(tree: Node, scope: Any, errs: Collector) -> dict[Any, Any]:
    """The variant's `functions:` (inherited like every block): parsed, and each body checked
    once with its parameters as names of any type, so a mistake is reported where it is written."""
    from rulekit.lang.expr import REGISTRY
    from rulekit.lang.expr.inline import UserFunction
    from rulekit.lang.expr.parser import ExprSyntaxError, parse
    from rulekit.lang.source import expr_span
    fnode = at(tree, "functions")
    out: dict[Any, Any] = {}
    if fnode is None or not isinstance(fnode.value, dict):
        return out
    bodies = {}
    for name, fn in fnode.value.items():
        d = fn.value if isinstance(fn.value, dict) else {}
        params = tuple(str(p.value) for p in d["params"].value) if "params" in d else ()
        body = d.get("body")
        if body is None or not isinstance(body.value, str):
            continue
        pnodes = d["params"].value if "params" in d and isinstance(d["params"].value, list) else []
        seen: set[Any] = set()
        for pn in pnodes:
            if str(pn.value) in seen:
                errs.add(error(pn.span, "E033", f"function '{name}': parameter '{pn.value}' is named twice",
                               hint="give each parameter its own name"))
            seen.add(str(pn.value))
        if name in REGISTRY or name in ("opt", "let"):
            errs.add(error(fn.key_span or fn.span, "E033", f"function '{name}': the name of a built-in "
                           "function or word; choose another name"))
            continue
        try:
            tree_ = parse(body.value)
        except ExprSyntaxError as exc:
            errs.add(error(expr_span(body.span, body.style, exc.offset), "E030", f"function {name}: {exc.message}"))
            continue
        out[str(name)] = UserFunction(str(name), params, tree_, str(d["description"].value) if "description" in d else "")
        bodies[str(name)] = (body, params)
    key = check_key(tree, scope, out)
    hit = _CHECKED.get(key)
    if hit is not None and hit[0] is tree:
        # the same bodies checked against the same names, types, cards and read option values: same verdict
        for name in hit[1]:
            out[name] = dataclasses.replace(out[name], broken=True)
        errs.extend(hit[2])
        return out
    before = len(errs.diagnostics)
    _check_bodies(out, bodies, scope, errs)
    _CHECKED[key] = (tree, frozenset(n for n, f in out.items() if f.broken), tuple(errs.diagnostics[before:]))
    while len(_CHECKED) > _KEEP_CHECKED:
        del _CHECKED[next(iter(_CHECKED))]
    return out


#: checked function bodies (key -> (tree, broken names, diagnostics)); a site build checks the same
#: bodies for thousands of option combinations, most of which the bodies never read
_CHECKED: dict[Any, tuple[Any, frozenset[str], tuple[Any, ...]]] = {}
_KEEP_CHECKED = 512


#: options the bodies read, per tuple of parsed bodies (parsing is cached: the same body objects come back)
_READ: dict[tuple[int, ...], tuple[tuple[Any, ...], frozenset[str]]] = {}


def _opts_read(fns: dict[Any, Any]) -> frozenset[str]:
    """Every option named as `opt.NAME` in any of these bodies (the only way a check reads a value)."""
    bodies = tuple(f.body for f in fns.values())
    key = tuple(id(b) for b in bodies)
    hit = _READ.get(key)
    if hit is not None and all(a is b for a, b in zip(hit[0], bodies)):
        return hit[1]
    got = _walk_opts(bodies)
    _READ[key] = (bodies, got)
    while len(_READ) > _KEEP_CHECKED:
        del _READ[next(iter(_READ))]
    return got


def _walk_opts(bodies: tuple[Any, ...]) -> frozenset[str]:
    """The `opt.NAME` names in these syntax trees."""
    from rulekit.lang.expr import ast
    seen: set[str] = set()
    todo: list[Any] = list(bodies)
    while todo:
        n = todo.pop()
        if isinstance(n, (tuple, list)):
            todo.extend(n)
        elif dataclasses.is_dataclass(n):
            if isinstance(n, ast.Attr) and isinstance(n.obj, ast.Name) and n.obj.name == "opt":
                seen.add(n.attr)
            todo.extend(getattr(n, f.name) for f in dataclasses.fields(n))
    return frozenset(seen)


def check_key(tree: Node, scope: Any, fns: dict[Any, Any]) -> tuple[Any, ...]:
    """Everything checking the bodies reads: the tree, globals' types (and constants), card
    attributes and ids, yaku tables, the option names, and the values of the options the bodies name."""
    read = _opts_read(fns)
    glob = tuple((k, g.type, g.get is None, repr(g.value) if g.get is None else "") for k, g in scope.globals.items())
    opts = tuple((k, repr(v)) for k, v in scope.options.items() if k in read)
    return (id(tree), glob, repr(scope.attrs), tuple(scope.card_ids.items()), tuple(sorted(scope.yaku_tables)),
            tuple(scope.options), opts)


def _check_bodies(out: dict[Any, Any], bodies: dict[str, Any], scope: Any, errs: Collector) -> None:
    """Check each body once with its parameters as names of any type; a body with a mistake is marked broken."""
    from rulekit.lang.expr.compiler import check_ast
    from rulekit.lang.expr.scope import CompileError
    from rulekit.lang.source import expr_span
    check = Scope(scope.globals, scope.attrs, scope.options, scope.card_ids, scope.yaku_tables, {}, False, out)
    for name, (body, params) in bodies.items():
        try:
            check_ast(out[name].body, check.with_locals({p: T.ANY for p in params}), body.value)
        except CompileError as exc:
            out[name] = dataclasses.replace(out[name], broken=True)  # its calls say nothing more
            for p in exc.problems:
                hint = p.hint
                if p.code == "E031" and p.message.startswith("unknown name"):
                    # the likely cause: a name the caller binds with let (a body never sees those)
                    hint = (f"{hint}; " if hint and "quotes" not in hint else "") + \
                        "a function's body sees its parameters, the options and the game's names, never " \
                        "the names its caller binds with let or for: add the name to params and pass it"
                errs.add(error(expr_span(body.span, body.style, p.offset, p.length), p.code,
                               f"function {name}: {p.message}", hint=hint))


def check_game_ends(g: dict[Any, Any], scope: Any, errs: Collector) -> None:
    """An open-ended game (game.open_ended holds under these options) must be able to end:
    a game.end_when that is missing, or false whatever happens, is refused here rather than
    played to the engine's limit of rounds."""
    from rulekit.lang.expr.compiler import compile_expr
    plain = scope.with_locals({})
    plain.codegen = False
    opened = compile_expr(g["open_ended"].value, plain, T.BOOL) if isinstance(g["open_ended"].value, str) \
        else None
    if not (g["open_ended"].value is True or (opened is not None and opened.is_const and opened.const)):
        return
    hint = "give the game a number of rounds, or choose options under which game.end_when can hold"
    if "end_when" not in g:
        errs.add(error(g["open_ended"].span, "E061", "the game is open-ended with these options (game.open_ended "
                       "holds) and has no game.end_when: it would never end", hint=hint))
        return
    ended = compile_expr(g["end_when"].value, plain, T.BOOL) if isinstance(g["end_when"].value, str) else None
    if g["end_when"].value is False or (ended is not None and ended.is_const and not ended.const):
        errs.add(error(g["end_when"].span, "E061", "game.end_when can never hold with these options, and the game "
                       "is open-ended (game.open_ended holds): it would never end", hint=hint))


def check_rounds(g: dict[Any, Any], scope: Any, errs: Collector) -> None:
    """A game.rounds known from the options alone (a number, `opt.rounds`) must be 1 to MAX_ROUNDS,
    or 0 in a game open-ended under these options: a game of no rounds would play nothing."""
    from rulekit.engine.runner import MAX_ROUNDS
    from rulekit.lang.expr.compiler import compile_expr
    plain = scope.with_locals({})
    plain.codegen = False
    v = g["rounds"].value
    try:
        c = compile_expr(v, plain, T.INT) if isinstance(v, str) else None
    except Exception:  # noqa: BLE001 - compiled and reported with the rules already
        return
    value = c.const if c is not None and c.is_const else v if isinstance(v, int) and not isinstance(v, bool) else None
    if not isinstance(value, int) or 1 <= value <= MAX_ROUNDS:
        return
    if value == 0 and "open_ended" in g:
        o = g["open_ended"].value
        opened = compile_expr(o, plain, T.BOOL) if isinstance(o, str) else None
        if o is True or (opened is not None and opened.is_const and opened.const):
            return
    errs.add(error(g["rounds"].span, "E061", f"game.rounds is {value} with these options: expected 1 to {MAX_ROUNDS}",
                   hint="a game of no rounds would play nothing" if value == 0 else ""))


class _OptionsOnly:
    """The state an expression of options only is evaluated in (before any game exists)."""

    def __init__(self) -> None:
        from rulekit.lang.expr.scope import EVAL_BUDGET
        self.budget, self.n, self.yaku_eval = EVAL_BUDGET, 1, None
        self.loc: dict[str, Any] = {}


def player_sizes(node: Node, scope: Any, meta: Any, errs: Collector) -> tuple[int, ...]:
    """players.sizes: an expression of options giving the table sizes the rules play (each
    within players.min..max); () when it cannot be read (the error says why)."""
    from rulekit.lang.expr.compiler import compile_expr
    from rulekit.lang.expr.functions import EvalError
    from rulekit.lang.expr.scope import CompileError
    from rulekit.lang.source import expr_span
    if not isinstance(node.value, str):
        return ()
    try:
        comp = compile_expr(node.value, Scope(options=scope.options, codegen=False, functions=scope.functions),
                            "list<int>")
    except CompileError as exc:
        for p in exc.problems:
            errs.add(error(expr_span(node.span, node.style, p.offset, p.length), p.code,
                           f"players.sizes: {p.message}",
                           hint=p.hint or "players.sizes is read before a game starts: it may read options only"))
        return ()
    if not comp.is_const and comp.deps:
        errs.add(error(node.span, "E033", "players.sizes: expected a list of numbers from options only, found "
                       f"an expression reading {', '.join(sorted(comp.deps))}",
                       hint="the table size is checked before a game starts, when only options are known"))
        return ()
    try:
        value = comp.const if comp.is_const else comp.fn(_OptionsOnly())
    except EvalError as exc:
        errs.add(error(expr_span(node.span, node.style, exc.offset, exc.length), "E034", f"players.sizes: {exc.message}"))
        return ()
    sizes = tuple(sorted(set(int(x) for x in value)))
    wrong = [x for x in sizes if not meta.players_min <= x <= meta.players_max]
    if wrong or not sizes:
        errs.add(error(node.span, "E033", f"players.sizes: expected sizes from {meta.players_min} to "
                       f"{meta.players_max} (players.min..max), found {list(sizes)}"))
        return ()
    return sizes


def group_of(node: Node, scope: Any, errs: Collector) -> str:
    """A yaku's exclusive group: a plain name, or an expression over the options giving a name
    ('' for no group), e.g. "if opt.strict then 'sets' else ''"."""
    from rulekit.lang.expr.compiler import compile_expr
    from rulekit.lang.expr.scope import CompileError
    from rulekit.lang.expr.parser import ExprSyntaxError, parse
    from rulekit.lang.source import expr_span
    text = node.value
    if not isinstance(text, str):
        return str(text)
    if re.fullmatch(r"[\w-]+", text):  # a plain name such as chaff-teyaku
        return text
    try:
        parse(text)
    except ExprSyntaxError:
        return text
    try:
        comp = compile_expr(text, Scope(options=scope.options, codegen=False), T.STR)
    except CompileError as exc:
        for p in exc.problems:
            errs.add(error(expr_span(node.span, node.style, p.offset, p.length), p.code,
                           f"group: {p.message}", hint=p.hint or "a group may read options only"))
        return ""
    if not comp.is_const:
        errs.add(error(node.span, "E033", "group: expected a name, or an expression of options only"))
        return ""
    return str(comp.const)

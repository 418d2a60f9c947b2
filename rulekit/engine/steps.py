"""Compile the rule steps of a variant (YAML nodes) into closures `run(ctx)`.

Each step kind is one small method; control flow (end of round, redeal) uses exceptions
so the hot path is plain function calls. Every runtime problem is raised as a RuleError
located at the step (and the expression token) that caused it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ..errors import Collector, RuleError, Span, did_you_mean, error
from ..expr import CompileError, EvalError, Scope, ast, compile_expr
from ..expr import types as T
from ..expr.compiler import MAX_INT
from .cost import _NESTED, oversize
from ..expr.parser import ExprSyntaxError, parse
from ..loader import Node, plain
from ..source import expr_span

Run = Callable[[Any], None]
ALL_SEATS = -1  # seen-mask meaning "every seat"


def located_error(exc: BaseException, fallback: Span, where: str = "") -> RuleError:
    """A RuleError for an exception raised while carrying out rules, at the best known place."""
    crumbs = (f"in phase '{where}'",) if where else ()
    if isinstance(exc, RuleError):
        return exc
    if isinstance(exc, EvalError):
        root = exc.root
        if root is not None and root.span is not None:
            span = expr_span(root.span, root.style, exc.offset, exc.length)
            if root.where:
                special = root.where.split(" ", 1)[0] in ("procedure", "yaku", "policy", "init")
                crumbs = (f"in {root.where}",) if special else (f"in phase '{root.where}'",)
            return RuleError(error(span, "E034", exc.message, crumbs=crumbs))
        return RuleError(error(fallback, "E034", exc.message, crumbs=crumbs))
    return RuleError(error(fallback, "E061", f"cannot be carried out: {type(exc).__name__}: {exc}",
                           crumbs=crumbs))


MAX_ACTIONS = 20_000  # legal actions listed at one decision
MAX_LIST = 100_000  # items in a list kept in a variable
MAX_CALL_DEPTH = 100  # nested procedure calls


RUNTIME_ERRORS = (EvalError, TypeError, ValueError, IndexError, KeyError, AttributeError, ZeroDivisionError,
                  OverflowError, RecursionError)


class EndRound(Exception):
    """Raised by `end_round`: the round stops at once."""


class Redeal(Exception):
    """Raised by `redeal`: the round restarts with a fresh shuffle (misdeal)."""


@dataclass
class Choice:
    """A decision point: who chooses among which parameter values, under which condition."""

    id: str
    prompt: str
    params: tuple[str, ...]
    types: tuple[str, ...]
    span: Span
    scope_locals: dict[str, str] = field(default_factory=dict)
    policies: dict[str, list] = field(default_factory=dict)  # policy name -> [(when_fn, prefer_fn)]
    labels: dict[str, dict[str, str]] = field(default_factory=dict)  # param -> value text -> words
    ask: dict[str, str] = field(default_factory=dict)  # param -> question asked for it alone
    unordered: frozenset[str] = frozenset()  # params whose lists of cards are sets: shown in deck order


PARAM_KINDS = {"move", "deal", "reveal", "pay", "claim", "choose", "call", "record", "swap_zones"}
STEP_KINDS = ("shuffle", "cut", "move", "deal", "reveal", "let", "set", "add", "if", "for", "repeat",
              "choose", "pay", "record", "claim", "set_dealer", "end_round", "redeal", "call", "swap",
              "say")


class StepCompiler:
    """Turns step nodes into closures against one scope (deck, options, zones, vars)."""

    def __init__(self, scope: Scope, zones: dict, vars_: dict, errs: Collector, procedures: Node | None):
        self.scope = scope
        self.zones = zones
        self.vars = vars_
        self.errs = errs
        self.proc_nodes = procedures.value if procedures is not None and isinstance(procedures.value, dict) else {}
        self.procs: dict[str, Run] = {}
        self.proc_params: dict[str, dict[str, str]] = {}
        self.choices: dict[str, list[Choice]] = {}
        self.phase = ""
        self._compiling: set[str] = set()

    # -- expressions ---------------------------------------------------------
    def expr(self, node: Node, loc: dict[str, str], expect: str | None = None, what: str = "") -> tuple[Callable, str]:
        """Compile an expression node; report problems located in the file; return (fn, type)."""
        text = node.value
        if isinstance(text, (dict, list)) or text is None:
            self.errs.add(error(node.span, "E033", f"{what or 'expression'}: expected an expression, "
                                f"found {'a mapping' if isinstance(text, dict) else 'a list' if isinstance(text, list) else 'nothing'}"))
            return _fail_fn, T.ANY
        try:
            comp = compile_expr(text, self.scope.with_locals(loc), expect)
        except CompileError as exc:
            for p in exc.problems:
                span = expr_span(node.span, node.style, p.offset, p.length) if isinstance(text, str) else node.span
                msg = f"{what}: {p.message}" if what else p.message
                self.errs.add(error(span, p.code, msg, hint=p.hint, crumbs=self.crumbs()))
            return _fail_fn, T.ANY
        fn = comp.fast or comp.raw or comp.fn
        fn.deps = comp.deps  # which state it reads (yaku results are cached when that allows it)
        if comp.root is not None:
            # run-time errors carry this root; located_error() turns them into file positions
            comp.root.span, comp.root.style, comp.root.where = node.span, node.style, self.phase
        return fn, comp.type

    def crumbs(self) -> tuple[str, ...]:
        return (f"At phase '{self.phase}'",) if self.phase else ()

    def zone_ref(self, node: Node, loc: dict[str, str]) -> tuple[str, Callable | None]:
        """`name` or `name[expr]` naming a zone; returns (zone name, index fn or None)."""
        text = node.value
        if not isinstance(text, str):
            self.errs.add(error(node.span, "E033", "expected a zone such as 'field' or 'hand[p]'"))
            return "", None
        try:
            tree = parse(text)
        except ExprSyntaxError as exc:
            self.errs.add(error(expr_span(node.span, node.style, exc.offset), "E030", exc.message))
            return "", None
        base = tree.obj if isinstance(tree, ast.Index) else tree
        if not isinstance(base, ast.Name) or base.name not in self.zones:
            name = base.name if isinstance(base, ast.Name) else text
            self.errs.add(error(expr_span(node.span, node.style, base.start, base.end - base.start), "E040",
                                f"unknown zone '{name}'", hint=did_you_mean(name, self.zones), crumbs=self.crumbs()))
            return "", None
        zdef = self.zones[base.name]
        if isinstance(tree, ast.Index):
            if zdef.kind == "single":
                self.errs.add(error(node.span, "E033", f"zone '{base.name}' is a single zone; write it without [..]"))
                return base.name, None
            idx_text = text[tree.index.start:tree.index.end]
            sub = Node(idx_text, expr_span(node.span, node.style, tree.index.start), style="")
            fn, t = self.expr(sub, loc, T.INT, "zone index")
            return base.name, fn
        if zdef.kind != "single":
            self.errs.add(error(node.span, "E033", f"zone '{base.name}' has one pile per "
                                f"{'player' if zdef.kind == 'player' else 'index'}: write {base.name}[...]"))
        return base.name, None

    @staticmethod
    def zone_getter(name: str, idx: Callable | None) -> Callable:
        if idx is None:
            get = lambda ctx: ctx.zones[name]  # noqa: E731
        else:
            get = lambda ctx: ctx.zones[name][idx(ctx)]  # noqa: E731
        get.zone = (name, idx)  # the step generator reads the zone directly
        return get

    def var_target(self, key: str, node: Node, loc) -> tuple[str, Callable | None]:
        try:
            tree = parse(key)
        except ExprSyntaxError as exc:
            self.errs.add(error(node.key_span or node.span, "E030", exc.message))
            return "", None
        base = tree.obj if isinstance(tree, ast.Index) else tree
        if not isinstance(base, ast.Name) or base.name not in self.vars:
            name = base.name if isinstance(base, ast.Name) else key
            self.errs.add(error(node.key_span or node.span, "E040", f"unknown variable '{name}'",
                                hint=did_you_mean(name, self.vars), crumbs=self.crumbs()))
            return "", None
        if isinstance(tree, ast.Index):
            sub = Node(key[tree.index.start:tree.index.end], node.key_span or node.span)
            fn, _ = self.expr(sub, loc, T.INT, "variable index")
            return base.name, fn
        return base.name, None

    # -- sequences -------------------------------------------------------------
    def block(self, node: Node | None, loc: dict[str, str]) -> Run:
        """Compile a list of steps; names bound by a step are visible to the following ones."""
        if node is None:
            return _noop
        if not isinstance(node.value, list):
            self.errs.add(error(node.span, "E010", "expected a list of steps"))
            return _noop
        loc = dict(loc)
        runs = [self.step(s, loc) for s in node.value]
        runs = [r for r in runs if r is not _noop]
        if not runs:
            return _noop
        if len(runs) == 1:
            return runs[0]
        runs_t = tuple(runs)

        def seq(ctx):
            for r in runs_t:
                r(ctx)
        seq.gen = ("seq", runs_t)  # what rulekit.engine.stepgen needs to generate this as code
        return seq

    def step(self, node: Node, loc: dict[str, str]) -> Run:
        """Compile one step (a mapping whose first known key names its kind)."""
        if not isinstance(node.value, dict):
            self.errs.add(error(node.span, "E010", f"a step must be a mapping such as '- move: ...', found "
                                f"{plain(node)!r}"[:200]))
            return _noop
        kinds = [k for k in node.value if k in STEP_KINDS]
        if len(kinds) != 1:
            keys = list(node.value)
            if not kinds:
                hint = did_you_mean(keys[0], STEP_KINDS) if keys else ""
                self.errs.add(error(node.value[keys[0]].key_span if keys else node.span, "E010",
                                    f"unknown step '{keys[0] if keys else ''}': expected one of "
                                    f"{', '.join(STEP_KINDS)}", hint=hint, crumbs=self.crumbs()))
            else:
                self.errs.add(error(node.span, "E010", f"a step has one kind, found {', '.join(kinds)}"))
            return _noop
        kind = kinds[0]
        d = node.value
        body = d[kind]
        if kind in PARAM_KINDS and isinstance(body.value, dict):
            # `- move: {from: a, to: b}` is the same as `- move:` with sibling keys
            d = {k: v for k, v in d.items() if k != kind}
            d.update(body.value)
            d[kind] = body.value.get("id") or body.value.get("why") or Node(True, body.span)
        return getattr(self, "s_" + kind)(node, d, loc)

    # -- step kinds ---------------------------------------------------------------
    def s_say(self, node, d, loc):
        text = str(d["say"].value)
        # `{expression}` in the text is replaced by its value when the step runs ({{ and }}
        # stand for the braces themselves)
        parts: list = []
        pos = 0
        for m in _PLACEHOLDER.finditer(text):
            parts.append(text[pos:m.start()].replace("{{", "{").replace("}}", "}"))
            sub = Node(m.group(1), d["say"].span)
            fn, t = self.expr(sub, loc, None, "say {...}")
            parts.append((fn, t))
            pos = m.end()
        parts.append(text[pos:].replace("{{", "{").replace("}}", "}"))
        if len(parts) == 1:
            plain_text = parts[0]

            def say(ctx):
                ctx.log({"t": "say", "text": plain_text})
            return say
        parts_t = tuple(parts)

        def say_values(ctx):
            if ctx.logging:
                ids = ctx.game.card_ids
                ctx.log({"t": "say", "text": "".join(p if isinstance(p, str) else _shown(p[0](ctx), p[1], ids)
                                                     for p in parts_t)})
        return say_values

    def s_shuffle(self, node, d, loc):
        name, idx = self.zone_ref(d["shuffle"], loc)
        get = self.zone_getter(name, idx)

        def shuffle(ctx):
            z = get(ctx)
            shuffle_list(ctx.rng, z)
            if ctx.stack is not None and name in ctx.stack:
                _stack(ctx, z, ctx.stack[name])
            seen = ctx.seen
            for c in z:
                seen[c] = 0
            if ctx.logging:
                ids = ctx.game.card_ids
                ctx.log({"t": "shuffle", "zone": name, "order": [ids[c] for c in z]})
        return shuffle

    def s_cut(self, node, d, loc):
        name, idx = self.zone_ref(d["cut"], loc)
        get = self.zone_getter(name, idx)

        def cut(ctx):
            z = get(ctx)
            if len(z) > 1 and (ctx.stack is None or name not in ctx.stack):
                k = ctx.rng.randrange(1, len(z))
                z[:] = z[k:] + z[:k]
                ctx.log({"t": "cut", "zone": name, "at": k})
        return cut

    def _count(self, d, key, loc):
        if key not in d:
            return None
        fn, _ = self.expr(d[key], loc, T.INT, key)
        return fn

    def s_move(self, node, d, loc):
        if "to" not in d or "from" not in d:
            self.errs.add(error(node.span, "E010", "move: give 'from' and 'to' zones"))
            return _noop
        src, si = self.zone_ref(d["from"], loc)
        dst, di = self.zone_ref(d["to"], loc)
        get_src, get_dst = self.zone_getter(src, si), self.zone_getter(dst, di)
        count = self._count(d, "count", loc)
        at = self._count(d, "at", loc)
        cards_fn = None
        if "cards" in d:
            cards_fn, ct = self.expr(d["cards"], loc, None, "cards")
            single = ct == T.CARD
            if not (single or T.compatible(ct, "list<card>")):
                self.errs.add(error(d["cards"].span, "E033", f"cards: expected a card or a list of cards, "
                                    f"found {T.describe(ct)}"))
        where = None
        if "where" in d:
            where, _ = self.expr(d["where"], {**loc, "c": T.CARD}, T.BOOL, "where")
        face = d["face"].value if "face" in d else None
        bottom = "position" in d and d["position"].value == "bottom"
        span = node.span

        def take(ctx) -> list[int]:
            z = get_src(ctx)
            if cards_fn is not None:
                got = cards_fn(ctx)
                got = [got] if isinstance(got, int) else list(got)
                for c in got:
                    try:
                        z.remove(c)
                    except ValueError:
                        raise RuleError(error(span, "E061", f"move: card {ctx.game.card_ids[c]} is not in zone "
                                              f"'{src}'")) from None
                return got
            if where is not None:
                want = count(ctx) if count is not None else len(z)
                picked = []
                ctx.loc["c"] = None
                for i in range(len(z) - 1, -1, -1):
                    if len(picked) >= want:
                        break
                    ctx.loc["c"] = z[i]
                    if where(ctx):
                        picked.append(i)
                if len(picked) < want and count is not None:
                    raise RuleError(error(span, "E061", f"move: zone '{src}' has only {len(picked)} matching "
                                          f"cards, {want} needed"))
                return [z.pop(i) for i in picked]
            if at is not None:
                i = at(ctx)
                if not 0 <= i < len(z):
                    raise RuleError(error(span, "E061", f"move: zone '{src}' has {len(z)} cards, no card at "
                                          f"position {i} from the top"))
                return [z.pop(len(z) - 1 - i)]
            n = count(ctx) if count is not None else len(z)
            if n > len(z) or n < 0:
                raise RuleError(error(span, "E041", f"move: zone '{src}' has {len(z)} cards, {n} needed"))
            if n == 0:
                return []
            got = z[-n:]
            del z[-n:]
            got.reverse()  # the top card moves first
            return got

        def too_few(have: int, want: int):
            raise RuleError(error(span, "E041", f"move: zone '{src}' has {have} cards, {want} needed"))

        def too_few_matching(have: int, want: int):
            raise RuleError(error(span, "E061", f"move: zone '{src}' has only {have} matching cards, {want} needed"))

        def move(ctx):
            got = take(ctx)
            dz = get_dst(ctx)
            if bottom:
                dz[0:0] = got
            else:
                dz.extend(got)
            if face is not None:
                seen = ctx.seen
                v = ALL_SEATS if face == "up" else 0
                for c in got:
                    seen[c] = v
            if ctx.logging:
                ids = ctx.game.card_ids
                ev = {"t": "move", "from": _zname(src, si, ctx), "to": _zname(dst, di, ctx),
                      "cards": [ids[c] for c in got]}
                if face:
                    ev["face"] = face
                ctx.log(ev)
        if cards_fn is None and at is None:
            move.gen = ("move", src, si, dst, di, count, where, face, bottom, too_few, too_few_matching)
        return move

    def s_deal(self, node, d, loc):
        src, si = self.zone_ref(d.get("from", Node("deck", node.span)), loc)
        to = d.get("to")
        if to is None or not isinstance(to.value, str) or to.value not in self.zones \
                or self.zones[to.value].kind != "player":
            self.errs.add(error((to or node).span, "E040", "deal: 'to' must name a per-player zone, such as hand",
                                hint=did_you_mean(str(to.value if to else ""),
                                                  [z for z, zd in self.zones.items() if zd.kind == "player"])))
            return _noop
        dst = to.value
        get_src = self.zone_getter(src, si)
        count = self._count(d, "count", loc) or (lambda ctx: 1)
        players, _ = self.expr(d["players"], loc, "list<int>", "players") if "players" in d else \
            ((lambda ctx: [(ctx.dealer + 1 + i) % ctx.n for i in range(ctx.n)]), "list<int>")
        face = d["face"].value if "face" in d else None
        span = node.span

        def deal(ctx):
            z = get_src(ctx)
            order = players(ctx)
            hands = ctx.zones[dst]
            k = count(ctx)
            if k * len(order) > len(z):
                raise RuleError(error(span, "E041", f"deal: {k} cards to each of {len(order)} players needs "
                                      f"{k * len(order)} cards, zone '{src}' has {len(z)}"))
            for p in order:
                if not 0 <= p < ctx.n:
                    raise RuleError(error(span, "E061", f"deal: no seat {p}; seats are 0 to {ctx.n - 1}"))
            for _ in range(k):
                for p in order:
                    c = z.pop()
                    hands[p].append(c)
                    if face == "up":
                        ctx.seen[c] = ALL_SEATS
            if ctx.logging:
                ev = {"t": "deal", "from": src, "to": dst, "count": k, "players": list(order)}
                if face:
                    ev["face"] = face  # a reader needs it to know who saw the cards
                ctx.log(ev)
        return deal

    def s_reveal(self, node, d, loc):
        if "cards" in d:
            cards, ct = self.expr(d["cards"], loc, None, "cards")
        else:
            name, idx = self.zone_ref(d.get("zone", d["reveal"]), loc)
            cards = self.zone_getter(name, idx)
        to_node = d.get("to")
        everyone = to_node is None or to_node.value == "all"
        to = None
        if not everyone:
            to, tt = self.expr(to_node, loc, None, "to")
            if not T.compatible(tt, T.INT) and not T.compatible(tt, "list<int>"):
                self.errs.add(error(to_node.span, "E033", f"to: expected a seat or a list of seats, found "
                                    f"{T.describe(tt)}"))

        span = node.span

        def reveal(ctx):
            cs = cards(ctx)
            cs = [cs] if isinstance(cs, int) else cs
            if everyone:
                mask = ALL_SEATS
            else:
                who = to(ctx)
                who = [who] if isinstance(who, int) else who
                mask = 0
                for p in who:
                    if not 0 <= p < ctx.n:
                        raise RuleError(error(span, "E061", f"reveal: no seat {p}; seats are 0 to {ctx.n - 1}"))
                    mask |= 1 << p
            seen = ctx.seen
            for c in cs:
                seen[c] |= mask
            if ctx.logging:
                ids = ctx.game.card_ids
                ctx.log({"t": "reveal", "cards": [ids[c] for c in cs], "to": "all" if everyone else who})

        reveal.gen = ("reveal", cards, everyone, to)
        return reveal

    def s_let(self, node, d, loc):
        spec = d["let"]
        if not isinstance(spec.value, dict):
            self.errs.add(error(spec.span, "E010", "let: expected a mapping name: expression"))
            return _noop
        fns = []
        for name, enode in spec.value.items():
            fn, t = self.expr(enode, loc, None, f"let {name}")
            if name in self.scope.globals:
                self.errs.add(error(enode.key_span or enode.span, "E042", f"let: '{name}' would hide the zone, "
                                    "variable or constant of that name; choose another name"))
            loc[name] = t
            fns.append((name, fn))
        fns_t = tuple(fns)

        def let(ctx):
            store = ctx.loc
            for name, fn in fns_t:
                store[name] = fn(ctx)
        let.gen = ("let", fns_t)
        return let

    def _assign(self, node, d, loc, key, add: bool):
        spec = d[key]
        if not isinstance(spec.value, dict):
            self.errs.add(error(spec.span, "E010", f"{key}: expected a mapping target: expression"))
            return _noop
        ops = []
        types: list[str] = []
        for target, enode in spec.value.items():
            if target == "show" and isinstance(enode.value, bool):
                continue  # `set: {..., show: true}` written inside the mapping
            var, idx = self.var_target(target, enode, loc)
            if not var:
                continue
            vdef = self.vars[var]
            if vdef.pot:
                self.errs.add(error(enode.key_span or enode.span, "E042", f"{key}: '{var}' is a pot; only pay "
                                    "steps (to_pot / from_pot) change a pot, so chips are never created or lost",
                                    crumbs=self.crumbs()))
                continue
            fn, t = self.expr(enode, loc, None, f"{key} {target}")
            types.append(t)
            if vdef.kind != "single" and idx is None:
                self.errs.add(error(enode.key_span or enode.span, "E033", f"variable '{var}' has one value per "
                                    f"{'player' if vdef.kind == 'player' else 'index'}: write {var}[...]"))
                continue
            ops.append((var, idx, fn))
        ops_t = tuple(ops)
        span = node.span
        inner = spec.value.get("show")
        show = ("show" in d and d["show"].value is True) or (inner is not None and inner.value is True)

        def check(v):
            # values kept between steps stay bounded: numbers to 10^30, lists to MAX_LIST items
            tv = type(v)
            if tv is int:
                if -MAX_INT <= v <= MAX_INT:
                    return v
                raise RuleError(error(span, "E034", f"{key}: number too large (limit 10^30)"))
            if tv is list and len(v) > MAX_LIST:
                raise RuleError(error(span, "E034", f"{key}: a list of {len(v)} items (limit {MAX_LIST})"))
            if (tv is list and v and (type(v[0]) in _NESTED or type(v[-1]) in _NESTED)) or tv is str or tv is dict:
                # nested items and text count too (issue 12: text, shared and deep lists)
                why = oversize(v)
                if why is not None:
                    raise RuleError(error(span, "E034", f"{key}: {why}"))
            return v

        def assign(ctx):
            vs = ctx.vars
            for var, idx, fn in ops_t:
                v = fn(ctx)
                if idx is None:
                    vs[var] = check(vs[var] + v if add else v)
                else:
                    arr = vs[var]
                    i = idx(ctx)
                    arr[i] = check(arr[i] + v if add else v)
        if show:
            shown = tuple((var, idx, t) for (var, idx, _fn), t in zip(ops_t, types))

            def assign_shown(ctx):
                assign(ctx)
                if ctx.logging:  # a transcript line per target: its new value
                    ids = ctx.game.card_ids
                    for var, idx, t in shown:
                        i = idx(ctx) if idx is not None else None
                        v = ctx.vars[var] if i is None else ctx.vars[var][i]
                        ctx.log({"t": "set", "name": var if i is None else f"{var}[{i}]",
                                 "value": _shown(v, t, ids)})
            return assign_shown  # no .gen: generated phases call it as it is
        assign.gen = ("assign", ops_t, add, check)
        return assign

    def s_set(self, node, d, loc):
        return self._assign(node, d, loc, "set", False)

    def s_add(self, node, d, loc):
        return self._assign(node, d, loc, "add", True)

    def s_if(self, node, d, loc):
        test, _ = self.expr(d["if"], loc, T.BOOL, "if")
        then = self.block(d.get("then"), loc)
        other = self.block(d.get("else"), loc)

        def if_(ctx):
            if test(ctx):
                then(ctx)
            else:
                other(ctx)
        if_.gen = ("if", test, then, other)
        return if_

    def s_for(self, node, d, loc):
        var = d["for"].value
        if not isinstance(var, str) or not var.isidentifier():
            self.errs.add(error(d["for"].span, "E010", "for: expected a name for the loop variable"))
            return _noop
        if "in" not in d:
            self.errs.add(error(node.span, "E010", "for: missing 'in' (the list to go through)"))
            return _noop
        items, it = self.expr(d["in"], loc, None, "in")
        if not (T.is_list(it) or it == T.ANY):
            self.errs.add(error(d["in"].span, "E033", f"in: expected a list, found {T.describe(it)}"))
        body = self.block(d.get("do"), {**loc, var: T.elem(it)})
        span = node.span

        def for_(ctx):
            store = ctx.loc
            for x in list(items(ctx)):
                ctx.steps += 1
                if ctx.steps > ctx.step_limit:
                    _too_many(ctx, span)
                store[var] = x
                body(ctx)
        for_.gen = ("for", var, items, body, span)
        return for_

    def s_repeat(self, node, d, loc):
        body = self.block(d["repeat"], loc)
        until = self.expr(d["until"], loc, T.BOOL, "until")[0] if "until" in d else None
        while_ = self.expr(d["while"], loc, T.BOOL, "while")[0] if "while" in d else None
        if until is None and while_ is None:
            self.errs.add(error(node.span, "E010", "repeat: give 'until' or 'while' so the loop can end"))
            return _noop
        limit = d["max"].value if "max" in d else 10_000
        span, phase = node.span, self.phase

        def endless(n: int):
            raise RuleError(error(span, "E061", f"repeat: loop in phase '{phase}' did not end after "
                                  f"{n - 1} turns (limit {limit}); check its until/while condition"))

        def repeat(ctx):
            n = 0
            while True:
                if while_ is not None and not while_(ctx):
                    return
                n += 1
                ctx.steps += 1
                if n > limit or ctx.steps > ctx.step_limit:
                    raise RuleError(error(span, "E061", f"repeat: loop in phase '{phase}' did not end after "
                                          f"{n - 1} turns (limit {limit}); check its until/while condition"))
                body(ctx)
                if until is not None and until(ctx):
                    return
        repeat.gen = ("repeat", body, until, while_, limit, endless)
        return repeat

    def s_choose(self, node, d, loc):
        cid = str(d["choose"].value)
        player, _ = self.expr(d["player"], loc, T.INT, "player") if "player" in d else \
            ((lambda ctx: ctx.dealer), T.INT)
        opts = d.get("options")
        if opts is None or not isinstance(opts.value, dict) or not opts.value:
            self.errs.add(error((opts or node).span, "E010", "choose: 'options' must map each parameter name "
                                "to the list of its possible values"))
            return _noop
        inner = dict(loc)
        params = []
        for pname, lnode in opts.value.items():
            fn, t = self.expr(lnode, inner, None, f"options {pname}")
            if not (T.is_list(t) or t == T.ANY):
                self.errs.add(error(lnode.span, "E033", f"options {pname}: expected a list of values, found "
                                    f"{T.describe(t)}"))
            inner[pname] = T.elem(t)
            params.append((pname, fn, T.elem(t)))
        where = self.expr(d["where"], inner, T.BOOL, "where")[0] if "where" in d else None
        if_none = d["if_none"].value if "if_none" in d else "error"
        prompt = str(d["prompt"].value) if "prompt" in d else cid.replace("_", " ")
        choice = Choice(cid, prompt, tuple(p[0] for p in params), tuple(p[2] for p in params), node.span,
                        dict(inner), labels=self._labels(d, "labels", tuple(p[0] for p in params)),
                        ask=self._labels(d, "ask", tuple(p[0] for p in params)),
                        unordered=self._unordered(d, tuple(p[0] for p in params)))
        self.choices.setdefault(cid, []).append(choice)
        loc.update({p[0]: p[2] for p in params})
        names = tuple(p[0] for p in params)
        span, phase = node.span, self.phase

        if len(params) == 1:
            pname, lst, _ = params[0]

            def enumerate_actions(ctx):
                xs = lst(ctx)
                if len(xs) > MAX_ACTIONS and where is None:  # the same limit as for two parameters
                    _too_many_actions(span, cid, len(xs))
                if where is None:
                    return [(v,) for v in xs]
                store = ctx.loc
                out = []
                for v in xs:
                    store[pname] = v
                    if where(ctx):
                        out.append((v,))
                if len(out) > MAX_ACTIONS:
                    _too_many_actions(span, cid, len(out))
                return out
        elif len(params) == 2:
            (n0, l0, _t0), (n1, l1, _t1) = params

            def enumerate_actions(ctx):
                store = ctx.loc
                out = []
                for v0 in l0(ctx):
                    store[n0] = v0
                    xs1 = l1(ctx)
                    ctx.budget -= len(xs1)  # the product is scanned even when `where` keeps nothing
                    if ctx.budget < 0:
                        _product_too_big(span, cid)
                    for v1 in xs1:
                        store[n1] = v1
                        if where is None or where(ctx):
                            out.append((v0, v1))
                    if len(out) > MAX_ACTIONS:
                        _too_many_actions(span, cid, len(out))
                return out
        else:
            def enumerate_actions(ctx):
                out: list[tuple] = []
                store = ctx.loc

                def rec(i, acc):
                    if i == len(params):
                        if where is None or where(ctx):
                            out.append(tuple(acc))
                        return
                    pname, lst, _ = params[i]
                    for v in lst(ctx):
                        store[pname] = v
                        acc.append(v)
                        rec(i + 1, acc)
                        acc.pop()
                        if len(out) > MAX_ACTIONS:
                            _too_many_actions(span, cid, len(out))
                rec(0, [])
                return out

        def choose(ctx):
            p = player(ctx)
            actions = enumerate_actions(ctx)
            ctx.steps += 1
            if not actions:
                if if_none == "skip":
                    return
                raise RuleError(error(span, "E061", f"choose '{cid}': seat {p} has no legal action in phase "
                                      f"'{phase}'; add if_none: skip or fix the options/where"))
            if len(actions) > 1:
                i = ctx.decide(choice, p, actions)
            else:
                i = 0  # a forced move asks nobody; the log still shows it
                if ctx.logging:
                    ids = ctx.game.card_ids
                    ctx.log({"t": "choose", "choice": cid, "player": p, "index": 0, "of": 1, "forced": True,
                             "action": {k: _render(v, t, ids) for k, t, v in zip(names, choice.types, actions[0])}})
            store = ctx.loc
            for k, v in zip(names, actions[i]):
                store[k] = v

        def no_action(p):
            raise RuleError(error(span, "E061", f"choose '{cid}': seat {p} has no legal action in phase "
                                  f"'{phase}'; add if_none: skip or fix the options/where"))

        def log_forced(ctx, p, action):
            ids = ctx.game.card_ids
            ctx.log({"t": "choose", "choice": cid, "player": p, "index": 0, "of": 1, "forced": True,
                     "action": {k: _render(v, t, ids) for k, t, v in zip(names, choice.types, action)}})
        if len(params) <= 2:
            choose.gen = ("choose", player, params, where, if_none, choice, no_action, log_forced,
                          lambda n: _too_many_actions(span, cid, n))
        return choose

    def _unordered(self, d, params) -> frozenset[str]:
        """choose `unordered`: the parameters whose card lists are sets (order means nothing)."""
        node = d.get("unordered")
        if node is None:
            return frozenset()
        names = node.value if isinstance(node.value, list) else []
        out = set()
        for kn in names:
            if kn.value not in params:
                self.errs.add(error(kn.span, "E040", f"unordered: '{kn.value}' is not a parameter of this choice",
                                    hint=did_you_mean(str(kn.value), list(params))))
            out.add(str(kn.value))
        return frozenset(out)

    def _labels(self, d, key, params):
        """choose `labels`/`ask`: plain data keyed by parameter names of this choice."""
        node = d.get(key)
        if node is None:
            return {}
        data = plain(node)
        for pname in data if isinstance(data, dict) else ():
            if pname not in params:
                kn = node.value[pname]
                self.errs.add(error(kn.key_span or kn.span, "E040", f"{key}: '{pname}' is not a parameter of "
                                    "this choice", hint=did_you_mean(str(pname), list(params))))
        if not isinstance(data, dict):
            return {}
        if key == "ask":
            return {str(k): str(v) for k, v in data.items()}
        return {str(k): {_label_key(x): str(t) for x, t in (v or {}).items()} for k, v in data.items()
                if isinstance(v, dict)}

    def _template(self, node, loc):
        """A text with {expression} parts (a pay's `why`): a function giving the text for a state."""
        text = str(node.value)
        parts: list = []
        pos = 0
        for m in re.finditer(r"\{([^{}]+)\}", text):
            parts.append(text[pos:m.start()])
            fn, t = self.expr(Node(m.group(1), node.span, None, node.style), loc, None, "why")
            parts.append((fn, t))
            pos = m.end()
        parts.append(text[pos:])

        def show(v, t, ctx):
            if t == T.CARD:
                return ctx.game.card_name(v)
            if isinstance(t, str) and t.startswith("list<card"):
                return ", ".join(ctx.game.card_name(c) for c in v)
            return str(v).lower() if isinstance(v, bool) else str(v)

        def render_text(ctx):
            return "".join(p if isinstance(p, str) else show(p[0](ctx), p[1], ctx) for p in parts)
        return render_text

    def _seat_or_pot(self, d, key, loc):
        pot_key = f"{key}_pot"
        if pot_key in d:
            name = d[pot_key].value
            if name not in self.vars or not self.vars[name].pot:
                self.errs.add(error(d[pot_key].span, "E040", f"{pot_key}: '{name}' is not a pot variable "
                                    "(declare it under vars: with pot: true)",
                                    hint=did_you_mean(str(name), [v for v, vd in self.vars.items() if vd.pot])))
            return None, name
        if key in d:
            fn, _ = self.expr(d[key], loc, T.INT, key)
            return fn, None
        self.errs.add(error(d.get("pay", Node(None, UNSPAN)).span, "E010", f"pay: give '{key}' (a seat) or "
                            f"'{pot_key}' (a pot variable)"))
        return None, None

    def s_pay(self, node, d, loc):
        src, src_pot = self._seat_or_pot(d, "from", loc)
        dst, dst_pot = self._seat_or_pot(d, "to", loc)
        if "amount" in d:
            amount, _ = self.expr(d["amount"], loc, T.NUM, "amount")
        elif src_pot is not None:
            amount = lambda ctx: ctx.vars[src_pot]  # noqa: E731 - the whole pot by default
        else:
            self.errs.add(error(node.span, "E010", "pay: missing 'amount'"))
            return _noop
        reason = str(d["pay"].value) if d["pay"].value not in (None, True) else ""
        reason_fn = self._template(d["pay"], loc) if "{" in reason else None
        span = node.span
        src_overdraft = src_pot is not None and src_pot in self.vars and self.vars[src_pot].overdraft
        dst_overdraft = dst_pot is not None and dst_pot in self.vars and self.vars[dst_pot].overdraft

        def pay(ctx):
            a = amount(ctx)
            if a == 0:
                return
            if src_pot is not None:
                ctx.vars[src_pot] -= a
                who_from = src_pot
                if ctx.vars[src_pot] < 0 and not src_overdraft:
                    raise RuleError(error(span, "E061", f"pay: pot '{src_pot}' would go below 0 (it held "
                                          f"{ctx.vars[src_pot] + a}, {a} asked); declare overdraft: true for a bank"))
            else:
                who_from = src(ctx)
                if not 0 <= who_from < ctx.n:
                    raise RuleError(error(span, "E061", f"pay: from seat {who_from}, but seats are 0 to {ctx.n - 1}"))
                ctx.chips[who_from] -= a
            if dst_pot is not None:
                ctx.vars[dst_pot] += a
                who_to = dst_pot
                if ctx.vars[dst_pot] < 0 and not dst_overdraft:
                    raise RuleError(error(span, "E061", f"pay: pot '{dst_pot}' would go below 0 (a negative "
                                          f"payment of {a}); declare overdraft: true for a bank"))
            else:
                who_to = dst(ctx)
                if not 0 <= who_to < ctx.n:
                    raise RuleError(error(span, "E061", f"pay: to seat {who_to}, but seats are 0 to {ctx.n - 1}"))
                ctx.chips[who_to] += a
            if ctx.logging:
                ev = {"t": "pay", "from": who_from, "to": who_to, "amount": a if isinstance(a, int) else str(a)}
                if reason:
                    ev["why"] = reason_fn(ctx) if reason_fn is not None else reason
                ctx.log(ev)

        if src_pot is None and dst_pot is None:
            pay.gen = ("pay", amount, src, dst)
        return pay

    def s_record(self, node, d, loc):
        name = str(d.get("name", d["record"]).value)
        who = self.expr(d["player"], loc, T.INT, "player")[0] if "player" in d else None

        def record(ctx):
            ctx.record(name)
            if ctx.logging:
                ev = {"t": "record", "name": name}
                if who is not None:
                    ev["player"] = who(ctx)
                ctx.log(ev)
        return record

    def s_claim(self, node, d, loc):
        tnode = d.get("table", d["claim"])
        table = tnode.value
        if table not in self.scope.yaku_tables:
            self.errs.add(error(tnode.span, "E040", f"claim: no yaku table '{table}'",
                                hint=did_you_mean(str(table), self.scope.yaku_tables)))
            return _noop
        cards, _ = self.expr(d["cards"], loc, "list<card>", "cards") if "cards" in d else (_fail_fn, "")
        who, _ = self.expr(d["player"], loc, T.INT, "player") if "player" in d else (_fail_fn, "")
        if "cards" not in d or "player" not in d:
            self.errs.add(error(node.span, "E010", "claim: give 'cards' and 'player'"))
        as_ = d["as"].value if "as" in d else None
        if as_:
            loc[as_] = "list<str>"

        def claim(ctx):
            p = who(ctx)
            cs = cards(ctx)
            ys = ctx.yaku_eval(table, cs, p)
            ids = [y.id for y in ys]
            for y in ids:
                ctx.record(f"yaku:{y}")
            if ctx.logging and ids:
                # the cards say whose hand it is (a column's, a player's) where `player` is only
                # the seat the yaku were evaluated for
                ctx.log({"t": "yaku", "table": table, "player": p, "yaku": ids,
                         "cards": [ctx.game.card_ids[c] for c in cs]})
            if as_:
                ctx.loc[as_] = ids
        claim.gen = ("claim", table, cards, who, as_)
        return claim

    def s_set_dealer(self, node, d, loc):
        fn, _ = self.expr(d["set_dealer"], loc, T.INT, "set_dealer")

        def set_dealer(ctx):
            ctx.next_dealer = fn(ctx) % ctx.n
            if ctx.logging:
                ctx.log({"t": "next_dealer", "seat": ctx.next_dealer})
        return set_dealer

    def s_end_round(self, node, d, loc):
        why = str(d["end_round"].value) if d["end_round"].value not in (None, True) else ""

        def end_round(ctx):
            if ctx.logging:
                ctx.log({"t": "end_round", "why": why})
            raise EndRound()
        return end_round

    def s_redeal(self, node, d, loc):
        why = str(d["redeal"].value) if d["redeal"].value not in (None, True) else ""

        def redeal(ctx):
            if ctx.logging:
                ctx.log({"t": "redeal", "why": why})
            raise Redeal(why)
        return redeal

    def s_swap(self, node, d, loc):
        spec = d["swap"]
        if not isinstance(spec.value, list) or len(spec.value) != 2:
            self.errs.add(error(spec.span, "E010", "swap: expected a list of two zones, e.g. [hand[p], hand[dealer]]"))
            return _noop
        ra, rb = self.zone_ref(spec.value[0], loc), self.zone_ref(spec.value[1], loc)
        a, b = self.zone_getter(*ra), self.zone_getter(*rb)

        def swap(ctx):
            za, zb = a(ctx), b(ctx)
            za[:], zb[:] = list(zb), list(za)
            if ctx.logging:  # zones by their resolved names (hand[3]), so a reader can follow the cards
                ctx.log({"t": "swap", "zones": [_zname(*ra, ctx), _zname(*rb, ctx)]})
        return swap

    def s_call(self, node, d, loc):
        pnode = d.get("proc", d["call"])
        name = pnode.value
        if name not in self.proc_nodes:
            self.errs.add(error(pnode.span, "E040", f"call: no procedure '{name}'",
                                hint=did_you_mean(str(name), self.proc_nodes), crumbs=self.crumbs()))
            return _noop
        params = self.proc_param_types(name)
        given = d["with"].value if "with" in d and isinstance(d["with"].value, dict) else {}
        args = []
        for pname, ptype in params.items():
            if pname not in given:
                self.errs.add(error(node.span, "E010", f"call {name}: missing argument '{pname}'"))
                continue
            fn, t = self.expr(given[pname], loc, ptype, f"argument {pname}")
            args.append((pname, fn))
        for extra in given:
            if extra not in params:
                self.errs.add(error(given[extra].key_span or node.span, "E010", f"call {name}: no parameter "
                                    f"'{extra}'", hint=did_you_mean(extra, params)))
        self.compile_proc(name)
        procs = self.procs
        args_t = tuple(args)
        span = node.span
        where = self.crumbs()

        def too_deep(ctx):
            ctx.depth = 0
            raise RuleError(error(span, "E061", f"call {name}: procedures call each other more than "
                                  f"{MAX_CALL_DEPTH} deep (endless recursion?)", crumbs=where))

        def call(ctx):
            values = {k: fn(ctx) for k, fn in args_t}
            saved = ctx.loc
            ctx.steps += 1
            if ctx.steps > ctx.step_limit:
                _too_many(ctx, span)
            ctx.loc = values
            ctx.depth += 1
            if ctx.depth > MAX_CALL_DEPTH:
                too_deep(ctx)
            try:
                procs[name](ctx)
            finally:
                ctx.depth -= 1
                ctx.loc = saved
        call.gen = ("call", name, args_t, procs, span, too_deep)
        return call

    def proc_param_types(self, name: str) -> dict[str, str]:
        if name not in self.proc_params:
            pnode = self.proc_nodes[name]
            params = pnode.value.get("params") if isinstance(pnode.value, dict) else None
            self.proc_params[name] = {k: str(v.value) for k, v in params.value.items()} \
                if params is not None and isinstance(params.value, dict) else {}
        return self.proc_params[name]

    def compile_proc(self, name: str) -> None:
        """Compile a procedure once (recursion allowed: calls look it up at run time)."""
        if name in self.procs or name in self._compiling:
            return
        self._compiling.add(name)
        pnode = self.proc_nodes[name]
        saved, self.phase = self.phase, f"procedure {name}"
        body = self.block(pnode.value.get("steps") if isinstance(pnode.value, dict) else None,
                          dict(self.proc_param_types(name)))
        self.phase = saved
        self.procs[name] = body
        self._compiling.discard(name)


def shuffle_list(rng: Any, z: list) -> None:
    """Fisher-Yates from the top down with rejection sampling of getrandbits: the shuffle of
    Python 3.11's random.shuffle, written out so that it costs one call per card less, and so
    that a seed gives the same deal on any Python version."""
    getrandbits = rng.getrandbits
    for i in range(len(z) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        z[i], z[j] = z[j], z[i]


UNSPAN = Span("<rule>", 0, 0)


def _noop(ctx) -> None:
    return None


def _fail_fn(ctx):
    raise RuleError(error(UNSPAN, "E061", "this rule did not compile"))


def _product_too_big(span: Span, cid: str):
    raise RuleError(error(span, "E061", f"choose '{cid}': its options make more combinations than the evaluation "
                          "budget of a round allows; split the decision into smaller choices"))


def _too_many_actions(span: Span, cid: str, n: int):
    raise RuleError(error(span, "E061", f"choose '{cid}': more than {MAX_ACTIONS} legal actions ({n} so far); "
                          "split the decision into smaller choices"))


def _too_many(ctx, span: Span):
    raise RuleError(error(span, "E061", f"more than {ctx.step_limit} steps in one round: the rules loop "
                          "without end"))


def _stack(ctx, z: list, top_ids: list[str]) -> None:
    """Put the named cards on top of a shuffled zone, first named on top (tests, examples)."""
    index = ctx.game.card_index
    want = []
    for cid in top_ids:
        if cid not in index:
            raise RuleError(error(UNSPAN, "E040", f"stacked deck: no card '{cid}'",
                                  hint=did_you_mean(cid, index)))
        want.append(index[cid])
    wanted = set(want)
    if len(wanted) != len(want):
        raise RuleError(error(UNSPAN, "E042", "stacked deck: a card is named twice"))
    missing = [ctx.game.card_ids[c] for c in want if c not in z]
    if missing:
        raise RuleError(error(UNSPAN, "E042", f"stacked deck: {', '.join(missing)} not in the shuffled zone"))
    rest = [c for c in z if c not in wanted]
    z[:] = rest + list(reversed(want))


def _render(v, t: str, ids):
    from ..agents import render
    return render(v, t, ids)


def _zname(name: str, idx, ctx) -> str:
    return name if idx is None else f"{name}[{idx(ctx)}]"


def _label_key(x: Any) -> str:
    """A label's key as the text of the value it names (true/false lower-case, as in YAML)."""
    return "true" if x is True else "false" if x is False else str(x)


_PLACEHOLDER = re.compile(r"(?<!\{)\{(?!\{)([^{}]+)\}")


def _shown(v, t: str, ids) -> str:
    """A value as a player reads it in a transcript: card ids for cards, plain numbers, words."""
    if t == T.CARD and isinstance(v, int) and not isinstance(v, bool):
        return ids[v]
    if isinstance(v, list):
        inner = t[5:-1] if t.startswith("list<") else T.ANY
        return ", ".join(_shown(x, inner, ids) for x in v)
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)

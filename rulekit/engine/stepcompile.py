"""Compile the rule steps of a variant (YAML nodes) into steps `run(ctx)`.

Each step kind is one small method: it checks the step, compiles its expressions and returns
what the step is made of as a `Step` (rulekit.engine.stepgen writes its code), with raisers for
the errors it can meet at run time, each located at the step (expressions locate their own at
the token). Control flow (end of round, redeal, break, return) uses exceptions. Decisions,
payments and procedure calls are compiled by the mixin in `rulekit.engine.stepchoice`.
"""
from __future__ import annotations

from typing import Any, Callable, NoReturn

from rulekit.core.errors import Collector, RuleError, did_you_mean, error
from rulekit.lang.expr import CompileError, Scope, ast, compile_expr
from rulekit.lang.expr import types as T
from rulekit.lang.expr.scope import MAX_INT
from rulekit.engine.cost import flat, oversize
from rulekit.lang.expr.parser import ExprSyntaxError, parse
from rulekit.lang.loader import Node, plain
from rulekit.lang.model import VarDef, ZoneDef
from rulekit.lang.source import expr_span

from rulekit.engine.steps import (MAX_LIST, PARAM_KINDS, PLACEHOLDER, STEP_KINDS, Choice, Fn, Run, failed_step, noop_step,
    shown_value, zone_getter)
from rulekit.engine.stepchoice import ChoiceSteps
from rulekit.engine.stepkinds import (AssignGen, BreakGen, CutGen, DealGen, ForGen, HideGen, IfGen, LetGen, MoveGen,
    RepeatGen, ReturnGen, RevealGen, SayGen, SeqGen, ShuffleGen)
from rulekit.engine.stepgen import Step
from rulekit.engine.textparts import compile_clauses, joined


class StepCompiler(ChoiceSteps):
    """Turns step nodes into closures against one scope (deck, options, zones, vars)."""

    def __init__(self, scope: Scope, zones: dict[str, ZoneDef], vars_: dict[str, VarDef], errs: Collector,
                 procedures: Node | None) -> None:
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
        self.loops: list[list[bool]] = []  # the loops being compiled: [whether a break is in it]
        self.proc_now: str | None = None  # the procedure being compiled (None: a phase)
        self.proc_returns: dict[str, str] = {}  # procedure -> type of the value its return steps give

    # -- expressions ---------------------------------------------------------
    def expr(self, node: Node, loc: dict[str, str], expect: str | None = None, what: str = "",
             lazy: bool = False) -> tuple[Fn, str]:
        """Compile an expression node; report problems located in the file; return (fn, type).
        `lazy`: its own function is compiled the first time it is called (not for every build):
        for an expression a step's generated code writes in place (rulekit.engine.stepgen), or one
        only the table at a person's turn calls."""
        text = node.value
        if isinstance(text, (dict, list)) or text is None:
            self.errs.add(error(node.span, "E033", f"{what or 'expression'}: expected an expression, "
                                f"found {'a mapping' if isinstance(text, dict) else 'a list' if isinstance(text, list) else 'nothing'}"))
            return failed_step, T.ANY
        try:
            comp = compile_expr(text, self.scope.with_locals(loc), expect, lazy)
        except CompileError as exc:
            for p in exc.problems:
                span = expr_span(node.span, node.style, p.offset, p.length) if isinstance(text, str) else node.span
                msg = f"{what}: {p.message}" if what else p.message
                self.errs.add(error(span, p.code, msg, hint=p.hint, crumbs=self.crumbs()))
            return failed_step, T.ANY
        fn = comp.fast or comp.raw or comp.fn
        fn.deps = comp.deps  # type: ignore[attr-defined]  # which state it reads (yaku results are cached when that allows it)
        root: Any = comp.root
        if root is not None:
            # run-time errors carry this root; located_error() turns them into file positions
            root.span, root.style, root.where = node.span, node.style, self.phase
        return fn, comp.type

    def crumbs(self) -> tuple[str, ...]:
        return (f"At phase '{self.phase}'",) if self.phase else ()

    def zone_ref(self, node: Node, loc: dict[str, str]) -> tuple[str, Fn | None]:
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

    zone_getter = staticmethod(zone_getter)

    def var_target(self, key: str, node: Node, loc: dict[str, str]) -> tuple[str, Fn | None]:
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
            fn, _ = self.expr(sub, loc, T.INT, "variable index", True)
            return base.name, fn
        return base.name, None

    # -- sequences -------------------------------------------------------------
    def block(self, node: Node | None, loc: dict[str, str]) -> Run:
        """Compile a list of steps; names bound by a step are visible to the following ones."""
        if node is None:
            return noop_step
        if not isinstance(node.value, list):
            self.errs.add(error(node.span, "E010", "expected a list of steps"))
            return noop_step
        loc = dict(loc)
        runs = [self.step(s, loc) for s in node.value]
        runs = [r for r in runs if r is not noop_step]
        if not runs:
            return noop_step
        if len(runs) == 1:
            return runs[0]
        return Step(SeqGen(tuple(runs)))  # its code: rulekit.engine.stepgen

    def step(self, node: Node, loc: dict[str, str]) -> Run:
        """Compile one step (a mapping whose first known key names its kind)."""
        if not isinstance(node.value, dict):
            self.errs.add(error(node.span, "E010", f"a step must be a mapping such as '- move: ...', found "
                                f"{plain(node)!r}"[:200]))
            return noop_step
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
            return noop_step
        kind = kinds[0]
        d = node.value
        body = d[kind]
        if kind in PARAM_KINDS and isinstance(body.value, dict):
            # `- move: {from: a, to: b}` is the same as `- move:` with sibling keys
            d = {k: v for k, v in d.items() if k != kind}
            d.update(body.value)
            d[kind] = body.value.get("id") or body.value.get("why") or Node(True, body.span)
        # the step kinds are the methods s_<kind> (here and in stepchoice), each giving the step's Run
        compile_kind: Callable[[Node, dict[str, Node], dict[str, str]], Run] = getattr(self, "s_" + kind)
        run = compile_kind(node, d, loc)
        if isinstance(run, Step):
            run.span = node.span  # its generated lines are headed by this place
        return run

    # -- step kinds ---------------------------------------------------------------
    def s_say(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        render = self._say_text(d["say"], loc)
        # `you`: the same line for the seat it is about (`about`), as that player reads it
        you = self._say_text(d["you"], loc) if "you" in d else None
        about = self.expr(d["about"], loc, T.INT, "about")[0] if "about" in d else None
        if (you is None) != (about is None):
            self.errs.add(error((d.get("you") or d["about"]).span, "E010",  # (one of the two is given)
                                "say: give both 'you' (the line for the seat it is about) and 'about' (that seat)"))
            you = about = None

        return Step(SayGen(render, about, you))  # its code (and log event): rulekit.engine.stepgen

    def _say_text(self, tnode: Node, loc: dict[str, str]) -> Callable[[Any], str]:
        """A `say` text: a function of the state giving it, its {expression} parts filled in
        ({{ and }} stand for the braces themselves); a list of parts is joined (engine.textparts)."""
        clauses = compile_clauses(tnode, self.errs, "say", lambda t: self._say_text(t, loc),
                                  lambda w: self.expr(w, loc, T.BOOL, "say when")[0])
        if clauses is not None:
            return joined(clauses)
        text = str(tnode.value)
        parts: list[str | tuple[Fn, str]] = []
        pos = 0
        for m in PLACEHOLDER.finditer(text):
            parts.append(text[pos:m.start()].replace("{{", "{").replace("}}", "}"))
            fn, t = self.expr(Node(m.group(1), tnode.span), loc, None, "say {...}")
            parts.append((fn, t))
            pos = m.end()
        parts.append(text[pos:].replace("{{", "{").replace("}}", "}"))
        parts_t = tuple(parts)

        def render(ctx: Any) -> str:
            ids = ctx.game.card_ids
            return "".join(p if isinstance(p, str) else shown_value(p[0](ctx), p[1], ids, ctx) for p in parts_t)
        return render

    def s_shuffle(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        name, idx = self.zone_ref(d["shuffle"], loc)
        get = self.zone_getter(name, idx)

        return Step(ShuffleGen(get, name))  # its code (and log event): rulekit.engine.stepgen

    def s_cut(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        name, idx = self.zone_ref(d["cut"], loc)
        get = self.zone_getter(name, idx)

        return Step(CutGen(get, name))

    def _count(self, d: dict[str, Node], key: str, loc: dict[str, str], lazy: bool = True) -> Fn | None:
        if key not in d:
            return None
        fn, _ = self.expr(d[key], loc, T.INT, key, lazy)
        return fn

    def s_move(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        if "to" not in d or "from" not in d:
            self.errs.add(error(node.span, "E010", "move: give 'from' and 'to' zones"))
            return noop_step
        src, si = self.zone_ref(d["from"], loc)
        dst, di = self.zone_ref(d["to"], loc)
        count = self._count(d, "count", loc)
        at = self._count(d, "at", loc)
        cards_fn = None
        if "cards" in d:
            cards_fn, ct = self.expr(d["cards"], loc, None, "cards", True)
            single = ct == T.CARD
            if not (single or T.compatible(ct, "list<card>")):
                self.errs.add(error(d["cards"].span, "E033", f"cards: expected a card or a list of cards, "
                                    f"found {T.describe(ct)}"))
        where = None
        if "where" in d:
            where, _ = self.expr(d["where"], {**loc, "c": T.CARD}, T.BOOL, "where", True)
        face = d["face"].value if "face" in d else None
        bottom = "position" in d and d["position"].value == "bottom"
        by = self._count(d, "by", loc, False)  # the seat who moves the cards, told to the players (logs call it)
        span = node.span

        def too_few(have: int, want: int) -> NoReturn:
            raise RuleError(error(span, "E041", f"move: zone '{src}' has {have} cards, {want} needed"))

        def too_few_matching(have: int, want: int) -> NoReturn:
            raise RuleError(error(span, "E061", f"move: zone '{src}' has only {have} matching cards, {want} needed"))

        def no_card_at(have: int, i: int) -> NoReturn:
            raise RuleError(error(span, "E061", f"move: zone '{src}' has {have} cards, no card at position {i} "
                                  "from the top"))

        def not_in(ctx: Any, c: int) -> NoReturn:
            raise RuleError(error(span, "E061", f"move: card {ctx.game.card_ids[c]} is not in zone '{src}'"))

        return Step(MoveGen(src, si, dst, di, count, where, face, bottom, too_few, too_few_matching, cards_fn,
                            not_in, at, no_card_at, by))  # its code (and log event): rulekit.engine.stepgen

    def s_deal(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        src, si = self.zone_ref(d.get("from", Node("deck", node.span)), loc)
        to = d.get("to")
        if to is None or not isinstance(to.value, str) or to.value not in self.zones \
                or self.zones[to.value].kind != "player":
            self.errs.add(error((to or node).span, "E040", "deal: 'to' must name a per-player zone, such as hand",
                                hint=did_you_mean(str(to.value if to else ""),
                                                  [z for z, zd in self.zones.items() if zd.kind == "player"])))
            return noop_step
        dst = to.value
        get_src = self.zone_getter(src, si)
        written_count = self._count(d, "count", loc)
        # (none written: one card each, from the dealer's left)
        written_players = self.expr(d["players"], loc, "list<int>", "players", True)[0] if "players" in d else None
        face = d["face"].value if "face" in d else None
        span = node.span

        def too_few(k: int, players: int, have: int) -> NoReturn:
            raise RuleError(error(span, "E041", f"deal: {k} cards to each of {players} players needs "
                                  f"{k * players} cards, zone '{src}' has {have}"))

        def no_seat(p: int, n: int) -> NoReturn:
            raise RuleError(error(span, "E061", f"deal: no seat {p}; seats are 0 to {n - 1}"))
        return Step(DealGen(get_src, src, dst, written_count, written_players, face, too_few, no_seat))

    def s_reveal(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        if "cards" in d:
            cards, ct = self.expr(d["cards"], loc, None, "cards", True)
        else:
            name, idx = self.zone_ref(d.get("zone", d["reveal"]), loc)
            cards = self.zone_getter(name, idx)
        to_node = d.get("to")
        everyone = to_node is None or to_node.value == "all"
        to = None
        if to_node is not None and to_node.value == "none":
            # hidden again (a hand shown, then picked up): only those the zone lets see it see it now
            return Step(HideGen(cards))
        if to_node is not None and not everyone:  # (everyone when no `to` is given)
            to, tt = self.expr(to_node, loc, None, "to", True)
            if not T.compatible(tt, T.INT) and not T.compatible(tt, "list<int>"):
                self.errs.add(error(to_node.span, "E033", f"to: expected a seat or a list of seats, found "
                                    f"{T.describe(tt)}"))

        span = node.span

        def no_seat(p: int, n: int) -> NoReturn:
            raise RuleError(error(span, "E061", f"reveal: no seat {p}; seats are 0 to {n - 1}"))
        return Step(RevealGen(cards, everyone, to, no_seat))  # its code (and log event): engine.stepgen

    def s_let(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        spec = d["let"]
        if not isinstance(spec.value, dict):
            self.errs.add(error(spec.span, "E010", "let: expected a mapping name: expression"))
            return noop_step
        fns = []
        for name, enode in spec.value.items():
            fn, t = self.expr(enode, loc, None, f"let {name}", True)
            if name in self.scope.globals:
                self.errs.add(error(enode.key_span or enode.span, "E042", f"let: '{name}' would hide the zone, "
                                    "variable or constant of that name; choose another name"))
            loc[name] = t
            fns.append((name, fn))
        return Step(LetGen(tuple(fns)))

    def _assign(self, node: Node, d: dict[str, Node], loc: dict[str, str], key: str, add: bool) -> Run:
        spec = d[key]
        if not isinstance(spec.value, dict):
            self.errs.add(error(spec.span, "E010", f"{key}: expected a mapping target: expression"))
            return noop_step
        ops = []
        types: list[str] = []
        op_types: list[str] = []  # (those of ops: a failed target is left out of both)
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
            fn, t = self.expr(enode, loc, None, f"{key} {target}", True)
            types.append(t)
            if vdef.kind != "single" and idx is None:
                self.errs.add(error(enode.key_span or enode.span, "E033", f"variable '{var}' has one value per "
                                    f"{'player' if vdef.kind == 'player' else 'index'}: write {var}[...]"))
                continue
            ops.append((var, idx, fn))
            op_types.append(t)
        ops_t = tuple(ops)
        span = node.span
        inner = spec.value.get("show")
        show = ("show" in d and d["show"].value is True) or (inner is not None and inner.value is True)

        def check(v: Any) -> Any:
            # values kept between steps stay bounded: numbers to 10^30, lists to MAX_LIST items
            tv = type(v)
            if tv is int:
                if -MAX_INT <= v <= MAX_INT:
                    return v
                raise RuleError(error(span, "E034", f"{key}: number too large (limit 10^30)"))
            if tv is list and len(v) > MAX_LIST:
                raise RuleError(error(span, "E034", f"{key}: a list of {len(v)} items (limit {MAX_LIST})"))
            if (tv is list and not flat(v)) or tv is str or tv is dict:
                # nested items and text count too (issue 12: text, shared and deep lists)
                why = oversize(v)
                if why is not None:
                    raise RuleError(error(span, "E034", f"{key}: {why}"))
            return v
        if show:  # a transcript line per target: its new value
            shown = tuple((var, idx, t) for (var, idx, _fn), t in zip(ops_t, types))
            return Step(AssignGen(ops_t, add, check, shown, tuple(op_types)))
        return Step(AssignGen(ops_t, add, check, types=tuple(op_types)))  # its code: rulekit.engine.stepgen

    def s_set(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        return self._assign(node, d, loc, "set", False)

    def s_add(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        return self._assign(node, d, loc, "add", True)

    def s_if(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        test, _ = self.expr(d["if"], loc, T.BOOL, "if", True)
        then = self.block(d.get("then"), loc)
        other = self.block(d.get("else"), loc)

        return Step(IfGen(test, then, other))

    def s_for(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        var = d["for"].value
        if not isinstance(var, str) or not var.isidentifier():
            self.errs.add(error(d["for"].span, "E010", "for: expected a name for the loop variable"))
            return noop_step
        if "in" not in d:
            self.errs.add(error(node.span, "E010", "for: missing 'in' (the list to go through)"))
            return noop_step
        items, it = self.expr(d["in"], loc, None, "in", True)
        if not (T.is_list(it) or it == T.ANY):
            self.errs.add(error(d["in"].span, "E033", f"in: expected a list, found {T.describe(it)}"))
        self.loops.append([False])
        body = self.block(d.get("do"), {**loc, var: T.elem(it)})
        breaks = self.loops.pop()[0]
        return Step(ForGen(var, items, body, node.span, breaks))

    def s_repeat(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        self.loops.append([False])
        body = self.block(d["repeat"], loc)
        breaks = self.loops.pop()[0]
        until = self.expr(d["until"], loc, T.BOOL, "until", True)[0] if "until" in d else None
        while_ = self.expr(d["while"], loc, T.BOOL, "while", True)[0] if "while" in d else None
        if until is None and while_ is None:
            self.errs.add(error(node.span, "E010", "repeat: give 'until' or 'while' so the loop can end"))
            return noop_step
        limit = d["max"].value if "max" in d else 10_000
        span, phase = node.span, self.phase

        def endless(n: int) -> NoReturn:
            raise RuleError(error(span, "E061", f"repeat: loop in phase '{phase}' did not end after "
                                  f"{n - 1} turns (limit {limit}); check its until/while condition"))

        return Step(RepeatGen(body, until, while_, limit, endless, breaks))

    def s_break(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        if not self.loops:
            self.errs.add(error(d["break"].span, "E010", "break: only inside a for or repeat loop of the same "
                                "phase or procedure", hint="to end a procedure early, use return", crumbs=self.crumbs()))
            return noop_step
        self.loops[-1][0] = True
        cond = None if d["break"].value is True else self.expr(d["break"], loc, T.BOOL, "break", True)[0]
        return Step(BreakGen(cond))

    def s_return(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        if self.proc_now is None:
            self.errs.add(error(d["return"].span, "E010", "return: only inside a procedure",
                                hint="to end a loop early, use break; to end the round, end_round", crumbs=self.crumbs()))
            return noop_step
        fn, t = self.expr(d["return"], loc, None, "return", True)
        have = self.proc_returns.get(self.proc_now)
        if have is not None and T.unify(have, t) is None:
            self.errs.add(error(d["return"].span, "E033", f"return: procedure {self.proc_now} returns "
                                f"{T.describe(have)} elsewhere, here {T.describe(t)}", crumbs=self.crumbs()))
        self.proc_returns[self.proc_now] = t if have is None else (T.unify(have, t) or have)
        return Step(ReturnGen(fn))

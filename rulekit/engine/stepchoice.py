"""The step compiler's decisions, payments, records, claims and procedure calls (a mixin of
`rulekit.engine.stepcompile.StepCompiler`, whose helpers such as `expr` and `block` it uses)."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, NoReturn

from rulekit.core.errors import RuleError, did_you_mean, error
from rulekit.lang.expr import types as T
from rulekit.engine.cost import MAX_NEST
from rulekit.lang.expr.functions import charge_text
from rulekit.lang.loader import Node, plain
from rulekit.engine.stepkinds import (CallGen, ChooseGen, ClaimGen, PayGen, RecordGen, SetDealerGen, StopGen, SwapGen)

if TYPE_CHECKING:
    from rulekit.core.errors import Collector
    from rulekit.lang.expr.scope import Scope
    from rulekit.lang.model import VarDef
from rulekit.engine.stepgen import Step
from rulekit.engine.textparts import compile_clauses, joined

from rulekit.engine.steps import (MAX_CALL_DEPTH, UNSPAN, Choice, EndRound, Fn, Redeal, Run, failed_step, label_key,
    noop_step, render_value, too_many_actions)


MAX_LABEL = 500  # characters of one choice label or question (`labels`, `ask`)
MAX_LABEL_VALUES = 4  # `{value}`s in one label


class ChoiceSteps:
    """Step kinds choose, pay, record, claim, set_dealer, end_round, redeal, swap and call."""

    # the state and helpers of StepCompiler, which this is mixed into (declared for the type checker)
    scope: Scope
    errs: Collector
    phase: str
    procs: dict[str, Callable[..., Any]]
    proc_params: dict[str, dict[str, str]]
    proc_nodes: dict[str, Node]
    _compiling: set[str]
    loops: list[list[bool]]
    proc_now: str | None
    choices: dict[str, list[Choice]]
    vars: dict[str, VarDef]
    proc_returns: dict[str, str]

    if TYPE_CHECKING:
        def zone_ref(self, node: Node, loc: dict[str, str]) -> tuple[str, Callable[..., Any] | None]: ...

        @staticmethod
        def zone_getter(name: str, idx: Callable[..., Any] | None) -> Callable[..., Any]: ...

        def crumbs(self) -> tuple[str, ...]: ...

        def expr(self, node: Node, loc: dict[str, str], expect: str | None = None,
                 what: str = "", lazy: bool = False) -> tuple[Callable[..., Any], str]: ...

        def block(self, node: Node | None, loc: dict[str, str]) -> Callable[..., Any]: ...

    def s_choose(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        cid = str(d["choose"].value)
        player, _ = self.expr(d["player"], loc, T.INT, "player", True) if "player" in d else \
            ((lambda ctx: ctx.dealer), T.INT)
        opts = d.get("options")
        if opts is None or not isinstance(opts.value, dict) or not opts.value:
            self.errs.add(error((opts or node).span, "E010", "choose: 'options' must map each parameter name "
                                "to the list of its possible values"))
            return noop_step
        inner = dict(loc)
        params = []
        for pname, lnode in opts.value.items():
            fn, t = self.expr(lnode, inner, None, f"options {pname}", True)
            if not (T.is_list(t) or t == T.ANY):
                self.errs.add(error(lnode.span, "E033", f"options {pname}: expected a list of values, found "
                                    f"{T.describe(t)}"))
            elif T.elem(t).count("list<") > MAX_NEST:
                # an action is written to the game log: it must stay within what a log may nest
                self.errs.add(error(lnode.span, "E034", f"options {pname}: values are lists nested "
                                    f"{T.elem(t).count('list<')} deep (limit {MAX_NEST})"))
            inner[pname] = T.elem(t)
            params.append((pname, fn, T.elem(t)))
        where = self.expr(d["where"], inner, T.BOOL, "where", True)[0] if "where" in d else None
        if_none = d["if_none"].value if "if_none" in d else "error"
        prompt = str(d["prompt"].value) if "prompt" in d else cid.replace("_", " ")
        choice = Choice(cid, prompt, tuple(p[0] for p in params), tuple(p[2] for p in params), node.span,
                        dict(inner), labels=self._labels(d, "labels", tuple(p[0] for p in params)),
                        ask=self._labels(d, "ask", tuple(p[0] for p in params)),
                        told=self._labels(d, "told", tuple(p[0] for p in params)),
                        unordered=self._unordered(d, tuple(p[0] for p in params)))
        choice.texts = self._choice_texts(d, loc)
        choice.fixed_values = self._fixed_values(opts, loc)
        choice.hints = self._hints(d, inner, tuple(p[0] for p in params))
        choice.alike = self._alike(d, inner, tuple(p[0] for p in params))
        choice.forced = self._forced(d, loc)
        self.choices.setdefault(cid, []).append(choice)
        loc.update({p[0]: p[2] for p in params})
        names = tuple(p[0] for p in params)
        span, phase = node.span, self.phase

        quiet = where is not None and if_none == "skip"
        choice.quiet_where = quiet  # type: ignore[attr-defined]  # a where that never holds would skip this choice silently

        def note_where(ctx: Any, held: bool) -> None:
            tally = ctx.game.extra.caches.where_tally
            if tally is not None:  # validation's rounds (rulekit.engine.lint): note whether the where ever held
                tally[span] = tally.get(span, False) or held

        def no_action(p: int) -> NoReturn:
            raise RuleError(error(span, "E061", f"choose '{cid}': seat {p} has no legal action in phase "
                                  f"'{phase}'; add if_none: skip or fix the options/where"))

        def log_forced(ctx: Any, p: int, action: Any) -> None:
            ids = ctx.game.card_ids
            why = choice.forced_why(ctx)  # the rules' reason (`forced`), told to the seat alone
            ctx.log({"t": "choose", "choice": cid, "player": p, "index": 0, "of": 1, "forced": True,
                     "action": {k: render_value(v, t, ids, ctx) for k, t, v in zip(names, choice.types, action)},
                     **({"why": why} if why else {})})
        return Step(ChooseGen(player, tuple(params), where, if_none, choice, no_action, log_forced,
                              lambda n: too_many_actions(span, cid, n), note_where if quiet else None))

    def _unordered(self, d: dict[str, Node], params: tuple[str, ...]) -> frozenset[str]:
        """choose `unordered`: the parameters whose card lists are sets (order means nothing)."""
        node = d.get("unordered")
        if node is None:
            return frozenset()
        names = node.value if isinstance(node.value, list) else []
        out: set[str] = set()
        for kn in names:
            if kn.value not in params:
                self.errs.add(error(kn.span, "E040", f"unordered: '{kn.value}' is not a parameter of this choice",
                                    hint=did_you_mean(str(kn.value), list(params))))
            out.add(str(kn.value))
        return frozenset(out)

    def _check_label_sizes(self, node: Node, key: str) -> None:
        """Words shown at every choice stay short: a label of at most MAX_LABEL characters, with at most
        MAX_LABEL_VALUES `{value}`s (each may stand for a long value), so a menu costs what its values do."""
        for pnode in node.value.values() if isinstance(node.value, dict) else ():
            items = pnode.value.values() if key != "ask" and isinstance(pnode.value, dict) else [pnode]
            for tnode in items:
                text = str(tnode.value)
                if len(text) > MAX_LABEL or text.count("{value}") > MAX_LABEL_VALUES:
                    self.errs.add(error(tnode.span, "E034", f"{key}: a label of {len(text)} characters with "
                                        f"{text.count('{value}')} {{value}}s (limit {MAX_LABEL} characters and "
                                        f"{MAX_LABEL_VALUES} {{value}}s)"))

    def _labels(self, d: dict[str, Node], key: str, params: tuple[str, ...]) -> dict[str, Any]:
        """choose `labels`/`ask`: plain data keyed by parameter names of this choice ({param: question}
        for `ask`, else {param: {value text: words}})."""
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
        self._check_label_sizes(node, key)
        if key == "ask":
            return {str(k): str(v) for k, v in data.items()}
        return {str(k): {label_key(x): str(t) for x, t in (v or {}).items()} for k, v in data.items()
                if isinstance(v, dict)}

    def _hints(self, d: dict[str, Node], inner: dict[str, str],
               params: tuple[str, ...]) -> dict[str, list[Any]]:
        """choose `hints`: for each parameter, cases {say, when} telling a person what a value
        leads to; the first case whose `when` holds is shown after the value in the menu."""
        node = d.get("hints")
        if node is None or not isinstance(node.value, dict):
            return {}
        out: dict[str, list[Any]] = {}
        for pname, cases in node.value.items():
            if pname not in params:
                self.errs.add(error(cases.key_span or cases.span, "E040", f"hints: '{pname}' is not a parameter "
                                    "of this choice", hint=did_you_mean(str(pname), list(params))))
                continue
            items = cases.value if isinstance(cases.value, list) else [cases]
            compiled: list[tuple[Fn | None, Callable[..., str]]] = []
            for item in items:
                c = item.value if isinstance(item.value, dict) else {}
                if "say" not in c:
                    self.errs.add(error(item.span, "E010", f"hints {pname}: give 'say' (the text to show)"))
                    continue
                if len(str(c["say"].value)) > MAX_LABEL:
                    self.errs.add(error(c["say"].span, "E034", f"hints {pname}: a text of {len(str(c['say'].value))} "
                                        f"characters (limit {MAX_LABEL})"))
                when = self.expr(c["when"], inner, T.BOOL, f"hints {pname} when")[0] if "when" in c else None
                compiled.append((when, self._template(c["say"], inner, f"hints {pname}", join=" and ")))
            out[str(pname)] = compiled
        return out

    def _alike(self, d: dict[str, Node], inner: dict[str, str],
               params: tuple[str, ...]) -> dict[str, tuple[Fn, str]]:
        """choose `alike`: {param: (key function, say)}: values with equal keys are one answer to
        a person (the menu offers the first of them)."""
        node = d.get("alike")
        if node is None or not isinstance(node.value, dict):
            return {}
        out: dict[str, tuple[Fn, str]] = {}
        for pname, spec in node.value.items():
            if pname not in params:
                self.errs.add(error(spec.key_span or spec.span, "E040", f"alike: '{pname}' is not a parameter "
                                    "of this choice", hint=did_you_mean(str(pname), list(params))))
                continue
            c = spec.value if isinstance(spec.value, dict) else {}
            if "key" not in c or "say" not in c:
                self.errs.add(error(spec.span, "E010", f"alike {pname}: give 'key' (what makes values alike) "
                                    "and 'say' (told above the menu)"))
                continue
            if len(str(c["say"].value)) > MAX_LABEL:
                self.errs.add(error(c["say"].span, "E034", f"alike {pname}: a text of {len(str(c['say'].value))} "
                                    f"characters (limit {MAX_LABEL})"))
            out[str(pname)] = (self.expr(c["key"], inner, None, f"alike {pname} key")[0], str(c["say"].value))
        return out

    def _forced(self, d: dict[str, Node], loc: dict[str, str]) -> list[tuple[Fn | None, Callable[..., str]]]:
        """choose `forced`: cases {say, when} telling the seat why the rules left it one answer
        only (read before the choice); the first whose `when` holds is told."""
        node = d.get("forced")
        if node is None:
            return []
        items = node.value if isinstance(node.value, list) else [node]
        compiled: list[tuple[Fn | None, Callable[..., str]]] = []
        for item in items:
            c = item.value if isinstance(item.value, dict) else {}
            if "say" not in c:
                self.errs.add(error(item.span, "E010", "forced: give 'say' (the reason to tell)"))
                continue
            if len(str(c["say"].value)) > MAX_LABEL:
                self.errs.add(error(c["say"].span, "E034", f"forced: a text of {len(str(c['say'].value))} "
                                    f"characters (limit {MAX_LABEL})"))
            when = self.expr(c["when"], dict(loc), T.BOOL, "forced when")[0] if "when" in c else None
            compiled.append((when, self._template(c["say"], dict(loc), "forced", join=" and ")))
        return compiled

    def _fixed_values(self, opts: Node, loc: dict[str, str]) -> dict[str, tuple[Any, ...]]:
        """The values of the choice's parameters that depend neither on the game's state nor on
        the options (labels for other values can never be shown)."""
        from rulekit.lang.expr import CompileError, compile_expr
        out: dict[str, tuple[Any, ...]] = {}
        for pname, lnode in opts.value.items():
            if not isinstance(lnode.value, str) or "opt" in lnode.value:
                continue
            try:
                scope = self.scope.with_locals(loc)
                scope.codegen = False
                comp = compile_expr(lnode.value, scope, None)
            except CompileError:
                continue
            if comp.is_const and isinstance(comp.const, (list, tuple)):
                out[str(pname)] = tuple(comp.const)
        return out

    def _choice_texts(self, d: dict[str, Node], loc: dict[str, str]) -> Callable[..., dict[str, str]] | None:
        """A choice's `prompt` and `ask` questions with {expression} parts, filled in at the
        decision (they read what the step sees before the choice is made); None when plain."""
        nodes = {"": d["prompt"]} if "prompt" in d and "{" in str(d["prompt"].value) else {}
        ask = d.get("ask")
        if ask is not None and isinstance(ask.value, dict):
            nodes.update({str(k): v for k, v in ask.value.items() if "{" in str(v.value)})
        if not nodes:
            return None
        # questions a person reads: a list of cards as a list in words ('A, B and C')
        fns = {k: self._template(v, loc, "prompt" if not k else f"ask {k}", join=" and ", people=True)
               for k, v in nodes.items()}
        return lambda ctx, name=None: {k: f(ctx, name) for k, f in fns.items()}

    def _template(self, node: Node, loc: dict[str, Any], what: str = "why", join: str = ", ",
                  people: bool = False) -> Callable[..., str]:
        """A text with {expression} parts (a pay's `why`): a function giving the text for a state
        (a list of cards is named card by card, the last joined with `join`; with `people`, each
        card by the `name(card index)` the caller passes, as its reader names cards); a list of
        parts is joined (engine.textparts)."""
        clauses = compile_clauses(node, self.errs, what, lambda t: self._template(t, loc, what, join, people),
                                  lambda w: self.expr(w, loc, T.BOOL, f"{what} when")[0])
        if clauses is not None:
            return joined(clauses)
        text = str(node.value)
        parts: list[str | tuple[Fn, str]] = []
        pos = 0
        for m in re.finditer(r"\{([^{}]+)\}", text):
            parts.append(text[pos:m.start()])
            fn, t = self.expr(Node(m.group(1), node.span, None, node.style), loc, None, what)
            parts.append((fn, t))
            pos = m.end()
        parts.append(text[pos:])

        def show(v: Any, t: str, ctx: Any, namer: Callable[[int], str] | None = None) -> str:
            charge_text(ctx, v)  # a why is text for people: it costs its length
            name = namer if people and namer is not None else ctx.game.card_name
            if t == T.CARD:
                return name(v)
            if isinstance(t, str) and t.startswith("list<card"):
                names = [name(c) for c in v]
                return ", ".join(names[:-1]) + join + names[-1] if len(names) > 1 else ", ".join(names)
            if isinstance(v, list):  # other lists as words too: '8', '2, 3', '' for none
                return ", ".join(str(x).lower() if isinstance(x, bool) else str(x) for x in v)
            return str(v).lower() if isinstance(v, bool) else str(v)

        def render_text(ctx: Any, namer: Callable[[int], str] | None = None) -> str:
            return "".join(p if isinstance(p, str) else show(p[0](ctx), p[1], ctx, namer) for p in parts)
        return render_text

    def _seat_or_pot(self, d: dict[str, Node], key: str, loc: dict[str, str]) -> tuple[Fn | None, Any]:
        """Who pays or is paid: (a function giving the seat, None) or (None, a pot variable's name)."""
        pot_key = f"{key}_pot"
        if pot_key in d:
            name = d[pot_key].value
            if name not in self.vars or not self.vars[name].pot:
                self.errs.add(error(d[pot_key].span, "E040", f"{pot_key}: '{name}' is not a pot variable "
                                    "(declare it under vars: with pot: true)",
                                    hint=did_you_mean(str(name), [v for v, vd in self.vars.items() if vd.pot])))
            return None, name
        if key in d:
            fn, _ = self.expr(d[key], loc, T.INT, key, True)
            return fn, None
        self.errs.add(error(d.get("pay", Node(None, UNSPAN)).span, "E010", f"pay: give '{key}' (a seat) or "
                            f"'{pot_key}' (a pot variable)"))
        return None, None

    def s_pay(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        src, src_pot = self._seat_or_pot(d, "from", loc)
        dst, dst_pot = self._seat_or_pot(d, "to", loc)
        amount = None  # the whole pot (from a pot only)
        if "amount" in d:
            amount, _ = self.expr(d["amount"], loc, T.NUM, "amount", True)
        elif src_pot is None:
            self.errs.add(error(node.span, "E010", "pay: missing 'amount'"))
            return noop_step
        reason = str(d["pay"].value) if d["pay"].value not in (None, True) else ""
        reason_fn = self._template(d["pay"], loc) if "{" in reason or isinstance(d["pay"].value, list) else None
        span = node.span
        src_overdraft = src_pot is not None and src_pot in self.vars and self.vars[src_pot].overdraft
        dst_overdraft = dst_pot is not None and dst_pot in self.vars and self.vars[dst_pot].overdraft

        def fail(case: str, x: Any, a: Any, n: int) -> NoReturn:
            if case == "src_pot":  # (x: what the pot holds now, the amount taken out)
                msg = f"pay: pot '{src_pot}' would go below 0 (it held {x + a}, {a} asked); declare overdraft: true for a bank"
            elif case == "dst_pot":
                msg = f"pay: pot '{dst_pot}' would go below 0 (a negative payment of {a}); declare overdraft: true for a bank"
            else:
                msg = f"pay: {case} seat {x}, but seats are 0 to {n - 1}"
            raise RuleError(error(span, "E061", msg))
        return Step(PayGen(amount, src, dst, src_pot, dst_pot, src_overdraft, dst_overdraft,
                           reason, reason_fn, fail))  # its code (and log event): rulekit.engine.stepgen

    def s_record(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        name = str(d.get("name", d["record"]).value)
        who = self.expr(d["player"], loc, T.INT, "player")[0] if "player" in d else None
        return Step(RecordGen(name, who))  # its code (and log event): rulekit.engine.stepgen

    def s_claim(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        tnode = d.get("table", d["claim"])
        table = tnode.value
        if table not in self.scope.yaku_tables:
            self.errs.add(error(tnode.span, "E040", f"claim: no yaku table '{table}'",
                                hint=did_you_mean(str(table), self.scope.yaku_tables)))
            return noop_step
        cards, _ = self.expr(d["cards"], loc, "list<card>", "cards", True) if "cards" in d else (failed_step, "")
        who, _ = self.expr(d["player"], loc, T.INT, "player", True) if "player" in d else (failed_step, "")
        if "cards" not in d or "player" not in d:
            self.errs.add(error(node.span, "E010", "claim: give 'cards' and 'player'"))
        as_ = d["as"].value if "as" in d else None
        if as_:
            loc[as_] = "list<str>"

        calls = self.scope.yaku_calls  # (generated code calls the table's own function)
        return Step(ClaimGen(table, cards, who, as_, calls.table(table).claimed if calls is not None else None))

    def s_set_dealer(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        fn, _ = self.expr(d["set_dealer"], loc, T.INT, "set_dealer", True)
        # `why` beside it: the reason players are told with the next dealer, in the rules' words
        why = self._template(d["why"], loc, "why") if "why" in d else None
        return Step(SetDealerGen(fn, why))

    def s_end_round(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        why = str(d["end_round"].value) if d["end_round"].value not in (None, True) else ""
        return Step(StopGen(EndRound, (), "end_round", why))

    def s_redeal(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        why = str(d["redeal"].value) if d["redeal"].value not in (None, True) else ""
        return Step(StopGen(Redeal, (why,), "redeal", why))

    def s_swap(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        spec = d["swap"]
        if not isinstance(spec.value, list) or len(spec.value) != 2:
            self.errs.add(error(spec.span, "E010", "swap: expected a list of two zones, e.g. [hand[p], hand[dealer]]"))
            return noop_step
        ra, rb = self.zone_ref(spec.value[0], loc), self.zone_ref(spec.value[1], loc)
        return Step(SwapGen(self.zone_getter(*ra), self.zone_getter(*rb), (ra, rb)))

    def s_call(self, node: Node, d: dict[str, Node], loc: dict[str, str]) -> Run:
        pnode = d.get("proc", d["call"])
        name = pnode.value
        if name not in self.proc_nodes:
            self.errs.add(error(pnode.span, "E040", f"call: no procedure '{name}'",
                                hint=did_you_mean(str(name), self.proc_nodes), crumbs=self.crumbs()))
            return noop_step
        params = self.proc_param_types(name)
        given = d["with"].value if "with" in d and isinstance(d["with"].value, dict) else {}
        args = []
        for pname, ptype in params.items():
            if pname not in given:
                self.errs.add(error(node.span, "E010", f"call {name}: missing argument '{pname}'"))
                continue
            fn, t = self.expr(given[pname], loc, ptype, f"argument {pname}", True)
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
        as_ = str(d["as"].value) if "as" in d else None
        if as_ is not None:
            rtype = self.proc_returns.get(name)
            if rtype is None and name not in self._compiling:
                self.errs.add(error(d["as"].span, "E040", f"call {name}: as {as_}, but procedure {name} returns "
                                    "no value (it has no return step)", crumbs=where))
            loc[as_] = rtype or T.ANY

        def no_value(ctx: Any) -> NoReturn:
            raise RuleError(error(span, "E061", f"call {name}: the procedure ended without a return step, so "
                                  f"'{as_}' has no value", crumbs=where))

        def too_deep(ctx: Any) -> NoReturn:
            ctx.depth = 0
            raise RuleError(error(span, "E061", f"call {name}: procedures call each other more than "
                                  f"{MAX_CALL_DEPTH} deep (endless recursion?)", crumbs=where))

        return Step(CallGen(name, args_t, procs, span, too_deep, as_, no_value))  # its code: engine.stepgen

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
        outer = (self.loops, self.proc_now)
        self.loops, self.proc_now = [], name  # a break cannot leave the procedure; return ends it
        body = self.block(pnode.value.get("steps") if isinstance(pnode.value, dict) else None,
                          dict(self.proc_param_types(name)))
        self.loops, self.proc_now = outer
        self.phase = saved
        self.procs[name] = body
        self._compiling.discard(name)

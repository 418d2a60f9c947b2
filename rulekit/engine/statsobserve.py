"""Declared statistics compiled against a game and read during play (rulekit.engine.statsdecl declares them)."""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from rulekit.core.errors import Collector, Span, did_you_mean, error
from rulekit.lang.expr.scope import EVAL_BUDGET
from rulekit.lang.loader import Node, at as node_at


def _steps_deal(node: Node | None, piles: set[str], procs: dict[Any, Any], seen: set[str]) -> bool:
    """Whether steps (at any depth, through procedure calls) deal cards: a `deal` step, or a
    `move` into a zone of several piles (a player's zone or a numbered zone)."""
    if node is None:
        return False
    v = node.value
    if isinstance(v, list):
        return any(_steps_deal(s, piles, procs, seen) for s in v)
    if not isinstance(v, dict):
        return False
    if "deal" in v:
        return True
    mv = v.get("move")
    if mv is not None and isinstance(mv.value, dict) and "to" in mv.value:
        if str(mv.value["to"].value).split("[", 1)[0].strip() in piles:
            return True
    call = v.get("call")
    if call is not None:
        name = str(call.value["proc"].value) if isinstance(call.value, dict) and "proc" in call.value \
            else str(call.value)
        proc = procs.get(name)
        if name not in seen and proc is not None and isinstance(proc.value, dict):
            seen.add(name)
            if _steps_deal(proc.value.get("steps"), piles, procs, seen):
                return True
    return any(_steps_deal(c, piles, procs, seen) for k, c in v.items() if isinstance(c.value, (list, dict)))


def deal_phase(game: Any) -> str | None:
    """The phase that ends the deal: the first that deals cards (see _steps_deal)."""
    piles = {z for z, d in game.variant.zones.items() if d.kind != "single"}
    pnode = node_at(game.variant.tree, "procedures")
    procs = pnode.value if pnode is not None and isinstance(pnode.value, dict) else {}
    rnode = node_at(game.variant.tree, "round")
    for ph in (rnode.value if rnode is not None and isinstance(rnode.value, list) else []):
        if isinstance(ph.value, dict) and _steps_deal(ph.value.get("steps"), piles, procs, set()):
            return str(ph.value["id"].value) if "id" in ph.value else None
    return None


@dataclass
class Compiled:
    """A compiled statistic: what to read, when, and for whom."""

    name: str
    kind: str  # count, mean or ratio
    fn: Callable[..., Any]
    when: Callable[..., Any] | None
    phase: str | None  # None: at the end of the round
    per_seat: bool
    description: str
    span: Span
    where: str  # "after the deal (end of phase 'deal')" ...
    over: Callable[..., Any] | None = None
    by: Callable[..., Any] | None = None
    by_text: str = ""
    diff: Callable[..., Any] | None = None  # the seat the others are compared with
    diff_text: str = ""
    expect: Fraction | None = None
    uses_redealt: bool = False  # read twice at a phase: the attempt's fate is known only later
    uses_round_chips: bool = False


def _mentions(nodes: tuple[Any, ...], name: str) -> bool:
    """Whether any of these expression nodes names `name` (by its text: a mention in a string only
    costs a second reading)."""
    pat = re.compile(rf"\b{name}\b")
    return any(n is not None and isinstance(n.value, str) and pat.search(n.value) for n in nodes)


def parse_expect(node: Node, errs: Collector) -> Fraction | None:
    """An exact value: a number, or a fraction written as text ('19/130')."""
    try:
        return Fraction(str(node.value).replace(" ", ""))
    except (ValueError, ZeroDivisionError):
        errs.add(error(node.span, "E040", f"expect: expected a number or a fraction such as '19/130', "
                       f"found {node.value!r}"))
        return None


def compile_stats(game: Any, spec: Any) -> list[Compiled]:
    """Compile every statistic of `spec` (a statsdecl.StatsSpec) against the game's names; raise RulekitError
    with located errors."""
    from rulekit.engine.scope import variant_scope
    from rulekit.engine.stepcompile import StepCompiler
    from rulekit.lang.expr import types as T
    errs = Collector()
    phase_ids = [p.id for p in game.phases]
    scope = variant_scope(game.variant, game.deck, game.options)
    scope.functions = game.extra.functions  # a statistic sees what the rules see
    sc = StepCompiler(scope, game.variant.zones, game.variant.vars, errs, node_at(game.variant.tree, "procedures"))
    dealt = deal_phase(game)
    chips_type = scope.globals["chips"].type if "chips" in scope.globals else T.list_of(T.NUM)
    out = []
    for d in spec.stats:
        sc.phase = ""  # the error names the statistic's own line; no phase applies
        loc = {"redealt": T.BOOL, "attempt": T.INT, "round_chips": chips_type}
        if d.per_seat:
            loc["seat"] = T.INT
        want = T.BOOL if d.kind == "count" else T.NUM
        fn = sc.expr(d.expr, loc, want, d.kind)[0]
        when = sc.expr(d.when, loc, T.BOOL, "when")[0] if d.when is not None else None
        over = sc.expr(d.over, loc, T.NUM, "over")[0] if d.over is not None else None
        by = sc.expr(d.by, loc, None, "by")[0] if d.by is not None else None
        diff = None
        if d.difference_from is not None:
            diff = sc.expr(d.difference_from, {k: v for k, v in loc.items() if k != "seat"}, T.INT,
                           "difference_from")[0]
            if d.kind == "ratio" or d.by is not None:
                errs.add(error(d.difference_from.span, "E040", f"statistic '{d.name}': difference_from pairs "
                               "the seats' counts or means, not a ratio or groups (by)",
                               hint="write the difference as one mean, or drop ratio/by"))
        expect = parse_expect(d.expect, errs) if d.expect is not None else None
        espan = d.expect.span if d.expect is not None else Span('', 0, 0)
        if expect is not None and d.kind == "count":
            # a count's value is the share of readings that count: a rate from 0 to 1 (a
            # difference of two rates with difference_from: from -1 to 1)
            lo = -1 if d.difference_from is not None else 0
            if not lo <= expect <= 1:
                what = "a difference of two rates" if lo else "a rate (the share of readings that count)"
                errs.add(error(espan, "E040", f"statistic '{d.name}': expect is {what}, from {lo} to 1; "
                               f"found {str(d.expect.value if d.expect is not None else '')[:40]}"))
        if expect is not None and d.by is not None:
            errs.add(error(espan, "E040", f"statistic '{d.name}': expect gives one value, but by makes "
                           "a row for every value", hint="drop by, or write one statistic per value"))
        if d.point == "round":
            phase, where = None, "at the end of the round"
        elif d.point == "deal":
            phase = dealt
            where = f"after the deal (end of phase '{dealt}'), every deal attempt"
            if dealt is None:
                errs.add(error(d.span, "E040", f"statistic '{d.name}': at: deal, but no phase of "
                               f"{game.id} deals cards", hint="name the phase with after: <phase id>"))
        else:
            phase, where = d.point, f"at the end of phase '{d.point}', every deal attempt"
            if d.point not in phase_ids:
                errs.add(error(d.span, "E040", f"statistic '{d.name}': no phase '{d.point}' in {game.id}",
                               hint=did_you_mean(d.point, phase_ids) or "phases: " + ", ".join(phase_ids)))
        nodes = (d.expr, d.when, d.over, d.by, d.difference_from)
        out.append(Compiled(d.name, d.kind, fn, when, phase, d.per_seat, d.description, d.span, where,
                            over, by, str(d.by.value) if d.by is not None else "", diff,
                            str(d.difference_from.value) if d.difference_from is not None else "", expect,
                            phase is not None and _mentions(nodes, "redealt"), _mentions(nodes, "round_chips")))
    if spec.stop_after is not None:
        span = spec.stop_span or Span(spec.file, 1, 1)
        if spec.stop_after not in phase_ids:
            errs.add(error(span, "E040", f"stop_after: no phase '{spec.stop_after}' in {game.id}",
                           hint=did_you_mean(spec.stop_after, phase_ids) or "phases: " + ", ".join(phase_ids)))
        else:
            last = phase_ids.index(spec.stop_after)
            for c in out:
                if c.phase is None or (c.phase in phase_ids and phase_ids.index(c.phase) > last):
                    errs.add(error(c.span, "E040", f"statistic '{c.name}' is read {c.where}, but stop_after "
                                   f"ends every round after phase '{spec.stop_after}'",
                                   hint=f"read it after '{spec.stop_after}' or an earlier phase"))
    errs.raise_if_any()
    return out


def _key(v: Any) -> Any:
    """A group's key: the value itself when it can be one (numbers as exact as read)."""
    if isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else v
    try:
        hash(v)
        return v
    except TypeError:
        return str(v)


class Observer:
    """Reads the statistics during play. A reading taken at a phase belongs to its deal attempt:
    it is counted when the attempt ends, with `redealt` true when a misdeal threw the deal in."""

    def __init__(self, stats: list[Compiled]):
        self.stats = stats
        self.ends = tuple(i for i, st in enumerate(stats) if st.phase is None)  # read at the round's end
        self.pending: dict[int, Any] = {}
        self.acc: dict[Any, list[list[float]]] = {}
        self.attempt = 0
        self.chips0: list[Any] = []
        self.reset()

    def reset(self) -> None:
        self.acc = {}
        self.pending = {}
        self.budget = EVAL_BUDGET
        self.attempt = 0

    def start(self, ctx: Any) -> None:
        """A deal attempt begins: the readings of the one before it (redealt) count now; the
        readings get a fresh budget of their own (the game's is left as it is, so reading never
        changes a game)."""
        self.budget = EVAL_BUDGET
        if self.pending:
            self._commit(True)
        if self.attempt == 0:
            self.chips0 = list(ctx.chips)
        self.attempt += 1

    def _values(self, ctx: Any, st: Compiled, loc: dict[Any, Any]) -> list[Any]:
        """One reading of `st` per slot: None (skipped) or (group key, value[, denominator])."""
        fn, when, over, by = st.fn, st.when, st.over, st.by
        ctx.loc = loc
        if not st.per_seat:
            if when is not None and not when(ctx):
                return [None]
            return [(_key(by(ctx)) if by is not None else None, float(fn(ctx)),
                     *((float(over(ctx)),) if over is not None else ()))]
        vals: list[Any] = []
        for s in range(ctx.n):
            loc["seat"] = s
            if when is not None and not when(ctx):
                vals.append(None)
                continue
            vals.append((_key(by(ctx)) if by is not None else None, float(fn(ctx)),
                         *((float(over(ctx)),) if over is not None else ())))
        if st.diff is not None:
            loc.pop("seat", None)
            ref = st.diff(ctx)
            if not isinstance(ref, int) or not 0 <= ref < ctx.n:
                raise ValueError(f"difference_from gave {ref!r}, not a seat (0 to {ctx.n - 1})")
            base = vals[ref]
            vals = [None if v is None or base is None else (None, v[1] - base[1]) for v in vals]
        return vals

    def read(self, ctx: Any, indexes: tuple[int, ...], final: bool = False) -> None:
        """Read statistics `indexes` now; the game state is left exactly as it was. The readings of
        one round share one budget (EVAL_BUDGET): 200 costly readings cannot take 200 rounds' work."""
        saved_loc, saved_budget, saved_where = ctx.loc, ctx.budget, ctx.where
        st = None
        ctx.budget = self.budget
        try:
            for i in indexes:
                st = self.stats[i]
                loc: dict[str, Any] = {"redealt": False, "attempt": self.attempt}
                if st.uses_round_chips:
                    loc["round_chips"] = [a - b for a, b in zip(ctx.chips, self.chips0)]
                vals: Any = self._values(ctx, st, loc)
                if st.uses_redealt and not final:
                    # the attempt's fate is not known yet: keep the reading both ways, pick one at its end
                    loc = {**loc, "redealt": True}
                    vals = (vals, self._values(ctx, st, loc))
                self.pending[i] = vals
        except Exception as exc:
            from rulekit.engine.steps import RUNTIME_ERRORS, located_error
            if st is None or not isinstance(exc, (*RUNTIME_ERRORS, ValueError)):
                raise
            raise located_error(exc, st.span, f"statistic {st.name}") from None
        finally:
            self.budget = ctx.budget
            ctx.loc, ctx.budget, ctx.where = saved_loc, saved_budget, saved_where

    def _commit(self, redealt: bool) -> None:
        """Add the pending readings of an attempt that ended (redealt or played)."""
        acc, stats = self.acc, self.stats
        for i, vals in self.pending.items():
            st = stats[i]
            if isinstance(vals, tuple):
                vals = vals[1] if redealt else vals[0]
            width = 6 if st.kind == "ratio" else 3
            whole = acc.get(st.name)
            if whole is None:
                whole = acc[st.name] = [[0] + [0.0] * (width - 1) for _ in vals]
            for s, v in enumerate(vals):
                if v is None:
                    continue
                slots = [whole[s]]
                if st.by is not None:
                    g = acc.get((st.name, v[0]))
                    if g is None:
                        g = acc[(st.name, v[0])] = [[0] + [0.0] * (width - 1) for _ in vals]
                    slots.append(g[s])
                for slot in slots:
                    slot[0] += 1
                    x = v[1]
                    slot[1] += x
                    slot[2] += x * x
                    if width == 6:
                        y = v[2]
                        slot[3] += y
                        slot[4] += y * y
                        slot[5] += x * y
        self.pending = {}

    def end(self, ctx: Any) -> None:
        """The round is over: add its readings (the deal that was played: redealt is false)."""
        if self.ends:
            self.read(ctx, self.ends, final=True)
        self._commit(False)
        self.attempt = 0

    def take(self) -> dict[Any, Any]:
        """The sums so far ({name or (name, group): [[readings, sum, sum of squares(, ratio sums)] per
        slot]}), and start afresh."""
        out = self.acc
        self.reset()
        return out


def instrument(game: Any, stats: list[Compiled], stop_after: str | None = None) -> Any:
    """A copy of `game` that reads `stats` while it plays (and ends rounds after `stop_after`)."""
    from rulekit.engine.steps import EndRound
    if not stats and stop_after is None:
        return game
    obs = Observer(stats)
    phases = []
    for ph in game.phases:
        mine = tuple(i for i, st in enumerate(stats) if st.phase == ph.id)
        stop = ph.id == stop_after
        if not mine and not stop:
            phases.append(ph)
            continue

        def run(ctx: Any, _run: Callable[..., Any] = ph.run, _mine: Any = mine, _stop: Any = stop) -> None:
            _run(ctx)
            if _mine:
                obs.read(ctx, _mine)
            if _stop:
                raise EndRound("stop_after")
        phases.append(dataclasses.replace(ph, run=run))
    extra = dataclasses.replace(game.extra, stop_after=stop_after)
    return dataclasses.replace(game, phases=phases, observer=obs, extra=extra)

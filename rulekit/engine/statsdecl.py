"""Statistics declared in YAML (`stats:` in a variant or a `--stats FILE`): compile, observe, report.

A statistic is an expression read at a point of the round (after the deal, at the end of a
named phase, at the end of the round), either a condition whose rate is counted or a number
whose mean is taken, for the table or for each seat. Games without statistics are not touched:
`instrument` returns a copy of the game whose phases are wrapped, and only that copy pays.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any, Callable

from rulekit.core.errors import Collector, RulekitError, Span, did_you_mean, error
from rulekit.lang.loader import Node, annotate, at as node_at
from rulekit.lang.schema import load_schema, validate as schema_validate
from rulekit.lang.source import read_file

@dataclass(frozen=True)
class StatDecl:
    """One declared statistic, before compilation: its nodes and where they were written."""

    name: str
    kind: str  # "count" or "mean"
    expr: Node
    when: Node | None
    point: str  # "deal", "round" or a phase id
    per_seat: bool
    description: str
    span: Span


@dataclass(frozen=True)
class StatsSpec:
    """A statistics section: its statistics and, for files, an optional early stop."""

    stats: tuple[StatDecl, ...]
    stop_after: str | None = None
    stop_span: Span | None = None
    file: str = ""


def _file_schema() -> dict:
    """The schema of a statistics file: the variant schema's `stats` section plus a few keys."""
    v = load_schema("variant")
    return {"$schema": v.get("$schema"), "$defs": v["$defs"], "type": "object", "required": ["stats"],
            "additionalProperties": False,
            "properties": {
                "stats": {"$ref": "#/$defs/stats"},
                "variant": {"type": "string", "description": "The game the file is written for (informative)."},
                "description": {"type": "string", "description": "What the file measures."},
                "stop_after": {"type": "string", "minLength": 1,
                               "description": "End every round at the end of this phase: for statistics of the "
                                              "deal only; the chips results of such a run are not reported."}}}


def parse_section(node: Node | None) -> tuple[StatDecl, ...]:
    """The statistics of a schema-checked `stats:` mapping node."""
    if node is None or not isinstance(node.value, dict):
        return ()
    out = []
    for name, item in node.value.items():
        d = item.value
        kind = "count" if "count" in d else "mean"
        point = str(d["after"].value) if "after" in d else str(d["at"].value) if "at" in d else "round"
        out.append(StatDecl(str(name), kind, d[kind], d.get("when"), point,
                            bool(d["per_seat"].value) if "per_seat" in d else False,
                            str(d["description"].value) if "description" in d else "", item.key_span or item.span))
    return tuple(out)


def load_stats(path: str) -> StatsSpec:
    """Read and check a statistics file; raise RulekitError with every located problem."""
    src = read_file(path)
    tree = annotate(src)
    if not isinstance(src.data, dict):
        raise RulekitError(error(tree.span, "E051", "a statistics file must be a mapping with a stats: section"))
    errs = Collector()
    errs.extend(schema_validate(src.data, _file_schema(), src))
    errs.raise_if_any()
    stop = tree.value.get("stop_after")
    return StatsSpec(parse_section(tree.value["stats"]), str(stop.value) if stop is not None else None,
                     stop.span if stop is not None else None, src.file)


def variant_stats(game: Any) -> StatsSpec:
    """The `stats:` section of the game's own variant file (empty when it has none)."""
    return StatsSpec(parse_section(node_at(game.variant.tree, "stats")), file=game.variant.file)


def _steps_deal(node: Node | None, piles: set[str], procs: dict, seen: set[str]) -> bool:
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
    kind: str
    fn: Callable
    when: Callable | None
    phase: str | None  # None: at the end of the round
    per_seat: bool
    description: str
    span: Span
    where: str  # "after the deal (end of phase 'deal')" ...


def compile_stats(game: Any, spec: StatsSpec) -> list[Compiled]:
    """Compile every statistic against the game's names; raise RulekitError with located errors."""
    from rulekit.engine.scope import variant_scope
    from rulekit.engine.stepcompile import StepCompiler
    from rulekit.lang.expr import types as T
    errs = Collector()
    phase_ids = [p.id for p in game.phases]
    scope = variant_scope(game.variant, game.deck, game.options)
    scope.functions = game.extra.get("functions") or {}  # a statistic sees what the rules see
    sc = StepCompiler(scope, game.variant.zones, game.variant.vars, errs, node_at(game.variant.tree, "procedures"))
    dealt = deal_phase(game)
    out = []
    for d in spec.stats:
        sc.phase = ""  # the error names the statistic's own line; no phase applies
        loc = {"seat": T.INT} if d.per_seat else {}
        fn = sc.expr(d.expr, loc, T.BOOL if d.kind == "count" else T.NUM, d.kind)[0]
        when = sc.expr(d.when, loc, T.BOOL, "when")[0] if d.when is not None else None
        if d.point == "round":
            phase, where = None, "at the end of the round"
        elif d.point == "deal":
            phase = dealt
            where = f"after the deal (end of phase '{dealt}')"
            if dealt is None:
                errs.add(error(d.span, "E040", f"statistic '{d.name}': at: deal, but no phase of "
                               f"{game.id} deals cards", hint="name the phase with after: <phase id>"))
        else:
            phase, where = d.point, f"at the end of phase '{d.point}'"
            if d.point not in phase_ids:
                errs.add(error(d.span, "E040", f"statistic '{d.name}': no phase '{d.point}' in {game.id}",
                               hint=did_you_mean(d.point, phase_ids) or "phases: " + ", ".join(phase_ids)))
        out.append(Compiled(d.name, d.kind, fn, when, phase, d.per_seat, d.description, d.span, where))
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


class Observer:
    """Reads the statistics during play; readings of a round count only once the round is over
    (a misdeal's redeal throws them away)."""

    def __init__(self, stats: list[Compiled]):
        self.stats = stats
        self.ends = tuple(i for i, st in enumerate(stats) if st.phase is None)  # read at the round's end
        self.pending: dict[int, list] = {}
        self.acc: dict[str, list[list[float]]] = {}
        self.reset()

    def reset(self) -> None:
        self.acc = {}
        self.pending = {}

    def start(self, ctx: Any) -> None:
        """A round (or a redeal) begins: forget readings of an abandoned deal."""
        if self.pending:
            self.pending = {}

    def read(self, ctx: Any, indexes: tuple[int, ...]) -> None:
        """Read statistics `indexes` now; the game state is left exactly as it was."""
        saved_loc, saved_budget, saved_where = ctx.loc, ctx.budget, ctx.where
        st = None
        try:
            for i in indexes:
                st = self.stats[i]
                fn, when = st.fn, st.when
                if st.per_seat:
                    loc = ctx.loc = {}
                    vals = []
                    for s in range(ctx.n):
                        loc["seat"] = s
                        vals.append(None if when is not None and not when(ctx) else float(fn(ctx)))
                else:
                    ctx.loc = {}
                    vals = [None if when is not None and not when(ctx) else float(fn(ctx))]
                self.pending[i] = vals
        except Exception as exc:
            from rulekit.engine.steps import RUNTIME_ERRORS, located_error
            if st is None or not isinstance(exc, RUNTIME_ERRORS):
                raise
            raise located_error(exc, st.span, f"statistic {st.name}") from None
        finally:
            ctx.loc, ctx.budget, ctx.where = saved_loc, saved_budget, saved_where

    def end(self, ctx: Any) -> None:
        """The round is over: add its readings."""
        if self.ends:
            self.read(ctx, self.ends)
        acc, stats = self.acc, self.stats
        for i, vals in self.pending.items():
            slots = acc.get(stats[i].name)
            if slots is None:
                slots = acc[stats[i].name] = [[0, 0.0, 0.0] for _ in vals]
            for slot, v in zip(slots, vals):
                if v is not None:
                    slot[0] += 1
                    slot[1] += v
                    slot[2] += v * v
        self.pending = {}

    def take(self) -> dict[str, list[list[float]]]:
        """The sums so far ({name: [[readings, sum, sum of squares] per slot]}), and start afresh."""
        out = self.acc
        self.reset()
        return out


def instrument(game: Any, stats: list[Compiled], stop_after: str | None = None) -> Any:
    """A copy of `game` that reads `stats` while it plays (and ends rounds after `stop_after`)."""
    from rulekit.engine.game import Phase
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

        def run(ctx, _run=ph.run, _mine=mine, _stop=stop):
            _run(ctx)
            if _mine:
                obs.read(ctx, _mine)
            if _stop:
                raise EndRound("stop_after")
        phases.append(Phase(ph.id, ph.name, ph.when, run, ph.span))
    extra = dict(game.extra)
    extra["stop_after"] = stop_after
    return dataclasses.replace(game, phases=phases, observer=obs, extra=extra)


def prepare(game: Any, stats_file: str | None) -> Any:
    """The game with its variant's statistics and those of `stats_file` (if given) attached."""
    spec = variant_stats(game)
    stop = None
    if stats_file:
        more = load_stats(stats_file)
        # a file's statistic replaces the variant's of the same name
        spec = StatsSpec(tuple(d for d in spec.stats if d.name not in {m.name for m in more.stats}) + more.stats,
                         more.stop_after, more.stop_span, more.file)
        stop = more.stop_after
    if not spec.stats and stop is None:
        return game
    compiled = compile_stats(game, spec)
    return instrument(game, compiled, stop)


# -- intervals and report ---------------------------------------------------

Z95 = 1.959963984540054


def wilson(k: float, n: float) -> tuple[float, float]:
    """95% Wilson interval of a rate k/n (good also near 0 and 1)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + Z95 * Z95 / n
    mid = (p + Z95 * Z95 / (2 * n)) / den
    margin = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / den
    return max(0.0, mid - margin), min(1.0, mid + margin)


def mean_ci(n: float, s: float, ss: float) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation) from count, sum and sum of squares."""
    if n <= 0:
        return 0.0, 0.0, 0.0
    m = s / n
    var = (ss - n * m * m) / (n - 1) if n > 1 else 0.0
    margin = Z95 * math.sqrt(max(0.0, var) / n)
    return m, m - margin, m + margin


def summarise(stats: list[Compiled], acc: dict) -> list[dict]:
    """Each statistic's figures per slot: readings, value, 95% interval (JSON-ready)."""
    out = []
    for st in stats:
        slots = acc.get(st.name) or [[0, 0.0, 0.0] for _ in range(1)]
        rows = []
        for i, (n, s, ss) in enumerate(slots):
            if st.kind == "count":
                lo, hi = wilson(s, n)
                val = s / n if n else 0.0
                rows.append({"seat": i if st.per_seat else None, "readings": int(n), "count": int(s),
                             "value": val, "low": lo, "high": hi})
            else:
                m, lo, hi = mean_ci(n, s, ss)
                rows.append({"seat": i if st.per_seat else None, "readings": int(n), "value": m, "low": lo,
                             "high": hi})
        out.append({"name": st.name, "kind": "rate" if st.kind == "count" else "mean", "where": st.where,
                    "description": st.description, "per_seat": st.per_seat, "rows": rows})
    return out


def report(summary: list[dict]) -> str:
    """The statistics as a readable table."""
    from rulekit.core.inert import inert
    lines = ["statistics (95% intervals):"]
    for s in summary:
        lines.append(f"  {inert(s['name'])}: {s['kind']} {s['where']}"
                     + (f" - {inert(s['description'])}" if s["description"] else ""))
        for r in s["rows"]:
            who = f"seat {r['seat']}" if r["seat"] is not None else "table"
            if s["kind"] == "rate":
                lines.append(f"    {who:8} {r['value']:.5f}  [{r['low']:.5f}, {r['high']:.5f}]  "
                             f"{r['count']} of {r['readings']}")
            else:
                lines.append(f"    {who:8} {r['value']:.5f}  [{r['low']:.5f}, {r['high']:.5f}]  "
                             f"{r['readings']} readings")
    return "\n".join(lines)


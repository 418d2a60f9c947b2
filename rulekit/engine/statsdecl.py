"""Statistics declared in YAML (`stats:` in a variant or a `--stats FILE`): read and attached to a game.

A statistic is an expression read at a point of the round (after the deal, at the end of a
named phase, at the end of the round), either a condition whose rate is counted or a number
whose mean is taken, for the table or for each seat. Games without statistics are not touched:
`prepare` returns them as they are, without loading rulekit.engine.statsobserve, which compiles the
statistics and returns a copy of the game whose phases are wrapped (only that copy pays); the intervals
and the report are rulekit.engine.statsreport's.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulekit.core.errors import Collector, RulekitError, Span, error
from rulekit.lang.loader import Node, annotate, at as node_at
from rulekit.lang.schema import load_schema, validate as schema_validate
from rulekit.lang.source import read_file


@dataclass(frozen=True)
class StatDecl:
    """One declared statistic, before compilation: its nodes and where they were written."""

    name: str
    kind: str  # "count", "mean" or "ratio"
    expr: Node
    when: Node | None
    point: str  # "deal", "round" or a phase id
    per_seat: bool
    description: str
    span: Span
    over: Node | None = None  # ratio: the denominator
    by: Node | None = None  # group the readings by this value
    difference_from: Node | None = None  # per seat: minus this seat's reading
    expect: Node | None = None  # the exact value, for z


@dataclass(frozen=True)
class StatsSpec:
    """A statistics section: its statistics and, for files, an optional early stop."""

    stats: tuple[StatDecl, ...]
    stop_after: str | None = None
    stop_span: Span | None = None
    file: str = ""


def _file_schema() -> dict[Any, Any]:
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
        kind = next(k for k in ("count", "mean", "ratio") if k in d)
        point = str(d["after"].value) if "after" in d else str(d["at"].value) if "at" in d else "round"
        out.append(StatDecl(str(name), kind, d[kind], d.get("when"), point,
                            bool(d["per_seat"].value) if "per_seat" in d else False,
                            str(d["description"].value) if "description" in d else "", item.key_span or item.span,
                            d.get("over"), d.get("by"), d.get("difference_from"), d.get("expect")))
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


# names a statistic reads besides the game's: they describe the reading, not the game
EXTRA_NAMES = {
    "redealt": "true when this deal attempt was thrown in and dealt again (a misdeal); false at the end of a round",
    "attempt": "the deal attempt of the round: 1 for the first deal, 2 after one redeal ...",
    "round_chips": "each seat's chip change in this round so far (chips is the running total of a whole game)",
}


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
        return game  # (a game without statistics does not load the module that reads them)
    from rulekit.engine.statsobserve import compile_stats, instrument
    return instrument(game, compile_stats(game, spec), stop)


# the intervals and the report live in statsreport; these names stay importable from here
from rulekit.engine.statsreport import Z95, mean_ci, report, summarise, wilson  # noqa: E402,F401

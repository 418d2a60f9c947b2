"""`simulate --compare`: the effect of each rule change alone, and of all together, on paired seeds.

The changes are split as an analyst would ask about them: every `-o name=value`, the preset,
every option a house-rule file sets, and a house file's other edits (yaku, game) as one change.
Each is played on the same seeds as the base rules (same agents' seeds too), so the per-seat
differences are paired and their 95% intervals narrow.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Any, Callable, TextIO

from rulekit.core.inert import inert


@dataclass(frozen=True)
class Change:
    """One configuration to compare with the base rules."""

    label: str
    options: dict
    preset: str | None
    house: tuple[str, ...]


def split_changes(args, variant: Any) -> list[Change]:
    """Each change of the command line alone (in the order given)."""
    from rulekit.cli.common import parse_options
    from rulekit.lang.house import load_house
    out = []
    for k, v in parse_options(args.option).items():
        out.append(Change(f"-o {k}={v}", {k: v}, None, ()))
    if args.preset:
        out.append(Change(f"--preset {args.preset}", {}, args.preset, ()))
    for h in args.house or ():
        hr = load_house(h)
        for k, (v, _span) in hr.options.items():
            shown = str(v).lower() if isinstance(v, bool) else v
            out.append(Change(f"{h}: {k}={shown}", {k: v}, None, ()))
        edits = [k for k in ("yaku", "game", "players") if k in hr.overlay.value]
        if edits:
            # the file's other edits alone: its options are set back to the variant's defaults
            neutral = {k: variant.options[k].default for k in hr.options if k in variant.options}
            out.append(Change(f"{h}: its {', '.join(edits)} edits", neutral, None, (h,)))
    return out


def outcome_changes(base: dict, changed: dict, total: int) -> dict[str, tuple[float, float]]:
    """Recorded outcomes whose count differs: {name: (base per unit, changed per unit)}."""
    out = {}
    for k in sorted(set(base) | set(changed)):
        a, b = base.get(k, 0), changed.get(k, 0)
        if a != b:
            out[k] = (a / max(1, total), b / max(1, total))
    return out


def run_compare(args, game: Any, n: int, names: list[str], variant_args: tuple, out: TextIO,
                make_bar: Callable) -> dict | None:
    """Play the base rules, each change, and all changes together on the same seeds; report."""
    from rulekit.analysis.runs import paired, run
    from rulekit.engine.build import build_game, load_variant
    from rulekit.cli.common import game_from_args, usage_error
    from rulekit.analysis.compare import diff_games
    from rulekit.engine.statsdecl import prepare
    path, _opts, _preset, deck, _house, stats_file = variant_args
    base_args = argparse.Namespace(**{**vars(args), "option": None, "preset": None, "house": None})
    base = prepare(game_from_args(base_args), stats_file)
    changes = split_changes(args, base.variant)
    if not changes:
        usage_error("--compare needs changes to compare: give -o NAME=VALUE, --preset or --house FILE")
        return None
    configs: list[tuple[str, Any, tuple]] = [("base rules", base, (path, {}, None, deck, (), stats_file))]
    for ch in changes:
        g = build_game(load_variant(path, house=ch.house), dict(ch.options), ch.preset, deck)
        configs.append((ch.label, prepare(g, stats_file), (path, ch.options, ch.preset, deck, ch.house, stats_file)))
    if len(changes) > 1:
        configs.append(("all together", game, variant_args))
    kind = "games" if args.games else "rounds"
    total = args.games if args.games else args.rounds
    bar = make_bar(args, total * len(configs), f"{game.id} compare")
    results: list = []
    records: list[dict] = []
    try:
        for label, g, vargs in configs:
            if bar is not None:
                bar.set_description(f"{game.id}: {label}"[:40])
            merged, rows = run(kind, g, n, total, args.seed, args.policy, args.jobs, vargs, bar, keep_rows=True)
            # a game row is (rounds, chip change per seat ..., winners); a round row the changes
            results.append([r[1:1 + n] for r in rows] if kind == "games" else rows)
            records.append(merged.records)
    finally:
        if bar is not None:
            bar.close()
    base_rows = results[0]
    every = diff_games(base, game)
    print(f"{game.id}: base rules -> changed rules", file=out)
    print("\n".join(f"- {inert(ln)}" for ln in every) if every else "- no rule differences", file=out)
    unit = "whole games" if kind == "games" else "single rounds (seat 0 deals every round)"
    print(f"paired comparison over {total} seeded {unit}: the change in each seat's chips per "
          f"{'game' if kind == 'games' else 'round'}, changed rules minus base rules, with 95% intervals", file=out)
    base_means = [sum(float(r[s]) for r in base_rows) / max(1, len(base_rows)) for s in range(n)]
    print("base rules: " + ", ".join(f"seat {s} {m:+.4f}" for s, m in enumerate(base_means)), file=out)
    doc_changes = []
    for i, ((label, g, _v), rows) in enumerate(zip(configs[1:], results[1:]), start=1):
        seats = paired(base_rows, rows, n)
        diff = diff_games(base, g)
        if label == "all together":
            shown = f"every change above, {len(diff)} rule difference{'s' if len(diff) != 1 else ''}"
        elif diff:
            shown = diff[0].split(" (house rules ")[0] + (" ..." if len(diff) > 1 else "")
        else:
            shown = "no rule differences"
        print(f"{inert(label)}  ({inert(shown)})", file=out)
        for s in seats:
            print(f"  seat {s['seat']}  {s['change']:+.4f}  [{s['low']:+.4f}, {s['high']:+.4f}]", file=out)
        moved = outcome_changes(records[0], records[i], total)
        if moved:
            per = "game" if kind == "games" else "round"
            print(f"  outcomes per {per} that changed (base -> changed):", file=out)
            for k, (a, b) in moved.items():
                print(f"    {inert(k):36} {a:.5f} -> {b:.5f}", file=out)
        doc_changes.append({"change": label, "differences": diff, "seats": seats,
                            "outcomes": {k: {"base": a, "changed": b} for k, (a, b) in moved.items()}})
    from rulekit.cli.common import header
    doc = header(args, game, n, names, "compare")
    doc.update({"unit": kind, "count": total, "base": [{"seat": s, "mean": m} for s, m in enumerate(base_means)],
                "changes": doc_changes})
    return doc


def run_compare_policy(args, game: Any, n: int, variant_args: tuple, out: TextIO, make_bar: Callable,
                       write_rows: Callable | None = None) -> dict:
    """`--compare-policy A B`: the game's rules played with policy A and with policy B on the same
    seeds (the same deals: the shuffle's seed does not depend on the players); per seat, the
    paired difference B minus A in chips per round (or per game) with a 95% interval. With --csv,
    `write_rows(kind, rows, [names A, names B])` writes each round's (or game's) A and B chips side by side."""
    from rulekit.analysis.runs import paired, run
    from rulekit.cli.common import header
    from rulekit.engine.runner import seat_policies
    from rulekit.engine.statsdecl import report as stats_report, summarise
    from rulekit.cli.policyspec import policy_line
    kind = "games" if args.games else "rounds"
    total = args.games if args.games else args.rounds
    specs = list(args.compare_policy)
    bar = make_bar(args, total * 2, f"{game.id} compare policies")
    results, customs = [], []
    try:
        for spec in specs:
            merged, rows = run(kind, game, n, total, args.seed, spec, args.jobs, variant_args, bar, keep_rows=True)
            results.append([r[1:1 + n] for r in rows] if kind == "games" else rows)
            customs.append(merged.custom)
    finally:
        if bar is not None:
            bar.close()
    names = [seat_policies(game, n, s) for s in specs]
    per = "game" if kind == "games" else "round"
    unit = "whole games" if kind == "games" else "single rounds (seat 0 deals every round)"
    print(f"paired comparison of policies over {total} seeded {unit}: each seat's chips per {per}, B minus A, "
          "with 95% intervals", file=out)
    means = [[sum(float(r[s]) for r in rows) / max(1, len(rows)) for s in range(n)] for rows in results]
    seats = paired(results[0], results[1], n)
    print(f"{'seat':>5} {'A':>9} {'B':>9} {'B - A':>9}  95% interval", file=out)
    for s in seats:
        i = s["seat"]
        print(f"{i:>5} {means[0][i]:>+9.4f} {means[1][i]:>+9.4f} {s['change']:>+9.4f}  "
              f"[{s['low']:+.4f}, {s['high']:+.4f}]", file=out)
    doc = header(args, game, n, names[0], "compare_policy")
    doc.update({"unit": kind, "count": total, "policy_a": names[0], "policy_b": names[1],
                "base": [{"seat": s, "mean": m} for s, m in enumerate(means[0])],
                "changed": [{"seat": s, "mean": m} for s, m in enumerate(means[1])], "paired": seats})
    if args.csv and write_rows is not None:
        rows = [list(a) + list(b) for a, b in zip(results[0], results[1])]
        write_rows(kind, rows, names)
        print(f"{len(rows)} paired rows written to {'standard output' if args.csv == '-' else args.csv}", file=out)
    if game.observer is not None:
        sums = [summarise(game.observer.stats, c) for c in customs]
        for label, nm, summary in zip(("A", "B"), names, sums):
            print(f"policy {label} ({inert(policy_line(nm))}):", file=out)
            print(stats_report(summary), file=out)
        doc["statistics"] = sums[0]
        doc["statistics_b"] = sums[1]
    return doc

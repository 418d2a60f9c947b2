"""The `simulate` command: single rounds, whole games (--games), declared statistics (--stats),
per-seat policies, the effect of each rule change (--compare), JSON / CSV output."""
from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from typing import TextIO

from rulekit.cli.policyspec import policy_line, policy_spec
from rulekit.core.inert import inert




def add_arguments(sp: argparse.ArgumentParser) -> None:
    """The simulate options (cli.py registers them; the command lives here)."""
    # numbers are checked as they are parsed, before any work (a billion players builds nothing)
    from rulekit.cli.args import (MAX_JOBS, MAX_PLAYERS, MAX_SEED, MAX_SIM_ROUNDS, SCHEDULER_TIMEOUT, bounded_int,
                                  bounded_seconds)
    sp.add_argument("--rounds", type=bounded_int("--rounds", 1, MAX_SIM_ROUNDS), default=10000,
                    help="single rounds to play (default 10000)")
    sp.add_argument("--games", type=bounded_int("--games", 1, MAX_SIM_ROUNDS), metavar="N",
                    help="play N whole games under the game's rules (rounds, dealer rotation, starting chips, "
                         "early end) instead of single rounds")
    sp.add_argument("--seed", type=bounded_int("--seed", -MAX_SEED, MAX_SEED), default=1)
    sp.add_argument("--players", type=bounded_int("--players", 1, MAX_PLAYERS),
                    help="how many players (default: the game's usual number)")
    sp.add_argument("--policy", default=None,
                    help="how the seats play: a policy for all (careful), per seat (0=careful,1=random), or both "
                         "(random,0=careful); default: the game's careful policy where it has one, else random "
                         "(random play stays available by name); see `rulekit policies GAME`")
    sp.add_argument("--compare-policy", nargs=2, metavar="POLICY",
                    help="play policy A and policy B (each for every seat, or per seat as --policy) on the same "
                         "seeds and report the paired difference B minus A, seat by seat")
    sp.add_argument("--stats", metavar="FILE", help="a statistics file (stats: section) to read during play")
    sp.add_argument("--jobs", type=bounded_int("--jobs", 1, MAX_JOBS), default=1,
                    help="processes to use (same totals for the same seed)")
    sp.add_argument("--scheduler", metavar="ADDRESS",
                    help="run single rounds on the Dask cluster at ADDRESS (extra rulekit[dask]; same totals)")
    sp.add_argument("--scheduler-timeout", metavar="SECONDS", type=bounded_seconds("--scheduler-timeout", 0.1, 600),
                    default=SCHEDULER_TIMEOUT, help=f"seconds to wait for the Dask scheduler (default {SCHEDULER_TIMEOUT:g})")
    sp.add_argument("--json", metavar="FILE", help="also write the results as JSON ('-' for standard output)")
    sp.add_argument("--csv", metavar="FILE", help="write one row per round (or per game with --games), after '# ' "
                    "lines naming the run ('-' for standard output); with --compare-policy, both "
                    "policies' chips side by side")
    sp.add_argument("--quiet", action="store_true", help="no progress bar")
    sp.add_argument("--progress", action="store_true", help="progress bar even when not on a terminal")
    sp.add_argument("--compare", action="store_true",
                    help="the effect of each change (-o, --preset, each option of a --house file) alone and all "
                         "together, against the variant's own rules on the same seeds")


def _bar(args, total: int, desc: str):
    """A progress bar on standard error, on a terminal or with --progress (never with --quiet)."""
    if args.quiet or not (args.progress or sys.stderr.isatty()):
        return None
    from tqdm import tqdm
    return tqdm(total=total, unit="round" if not args.games else "game", desc=desc, leave=False, file=sys.stderr)


def run_meta(args, game, names: list[str]) -> dict:
    """What reproduces a run: rulekit's version, the rules' digest, options, policies, seed, command."""
    import hashlib
    import shlex
    from rulekit.lang.loader import plain
    # the rules as played: the variant after extends and house rules, the options in effect, the deck
    rules = json.dumps({"rules": plain(game.variant.tree), "options": game.options, "deck": game.deck_name},
                       sort_keys=True, ensure_ascii=False, default=str)
    argv = getattr(args, "argv", None) or sys.argv[1:]
    return {"rulekit_version": __import__("rulekit").__version__,  # as `rulekit --version` reads it
            "variant_digest": "sha256:" + hashlib.sha256(rules.encode("utf-8")).hexdigest()[:16],
            "seed_scheme": "round i: the first 8 bytes of BLAKE2b('rulekit-round:SEED:i'), big-endian",
            "command": "rulekit " + " ".join(shlex.quote(a) for a in argv)}


def _setup(args) -> int | tuple:
    """The checks and the game of a simulation before any round: an exit code on a usage error,
    else (game, players, each seat's policy, whether --policy was given)."""
    from rulekit.cli.common import game_from_args, usage_error
    from rulekit.engine.runner import seat_policies
    from rulekit.engine.statsdecl import prepare
    for name in ("rounds", "games", "jobs"):
        v = getattr(args, name)
        if v is not None and v < (1 if name == "jobs" else 0):
            return usage_error(f"--{name} expects a whole number of at least {1 if name == 'jobs' else 0}, found {v}")
    if args.scheduler is not None:
        from rulekit.analysis.distributed import check_address
        try:  # checked before any work: scheme, host, port (an empty address is a mistake, not "no cluster")
            check_address(args.scheduler)
        except ValueError as exc:
            return usage_error(f"--scheduler: {exc}")
    if args.scheduler and (args.games or args.compare or args.csv):
        return usage_error("--scheduler runs single rounds only: drop --games, --compare and --csv, or --scheduler")
    if args.compare and args.csv:
        return usage_error("--csv writes the rows of a plain run or of --compare-policy; --compare reports "
                           "its changes only: drop --csv, or use --json for the figures")
    for flag, path in (("--json", args.json), ("--csv", args.csv)):
        if path and path != "-":
            from rulekit.cli.args import UsageError, check_output
            try:  # fail before the work, not after it: a folder, a device (/dev/full), no folder
                check_output(path, flag)
            except UsageError as exc:
                return usage_error(str(exc))
    game = prepare(game_from_args(args), args.stats)
    if args.games and game.extra.stop_after:
        return usage_error("--games plays whole games: a statistics file with stop_after cuts every round short; "
                      "drop stop_after or simulate single rounds")
    from rulekit.cli.common import seat_count
    n = seat_count(args, game)  # the number of players checked against the game before any work
    if args.compare_policy and (args.compare or args.scheduler or args.policy):
        return usage_error("--compare-policy compares two policies on the game's own rules: drop --compare, "
                           "--policy and --scheduler")
    if args.json == "-" and args.csv == "-":
        return usage_error("--json - and --csv - both write to standard output: send one of them to a file")
    explicit = args.policy is not None
    args.policy = policy_spec(game, args.policy)
    if args.compare_policy:
        args.compare_policy = [policy_spec(game, p) for p in args.compare_policy]
        for spec in args.compare_policy:
            seat_policies(game, n, spec)  # unknown names fail before any work
        names = seat_policies(game, n, args.compare_policy[0])
    else:
        names = seat_policies(game, n, args.policy)
    return game, n, names, explicit


def cmd_simulate(args) -> int:
    # what start-up makes (the engine's modules, the game) lives through the run: the collector,
    # paused meanwhile, need never walk it (its passes were ~5% of the start-up); frozen before the
    # collector is on again, or its first pass would walk it all at once
    was = gc.isenabled()
    gc.disable()
    try:
        ready = _setup(args)
        if not isinstance(ready, int):
            gc.freeze()
    finally:
        if was:
            gc.enable()
    if isinstance(ready, int):
        return ready
    game, n, names, explicit = ready
    from rulekit.cli.common import EXIT_USAGE, parse_options, resolve_variant_path
    from rulekit.engine.runner import seat_policies
    out: TextIO = sys.stderr if "-" in (args.json, args.csv) else sys.stdout
    label = game.variant.meta.names.get("en", game.id)
    unit, total = ("games", args.games) if args.games else ("rounds", args.rounds)
    print(f"{inert(label)}: {total} {unit}, {n} players, seed {args.seed}, deck {game.deck_name}", file=out)
    if args.compare_policy:
        other = seat_policies(game, n, args.compare_policy[1])
        print(f"policies: A = {policy_line(names)}; B = {policy_line(other)}", file=out)
    else:
        print(f"policies: {policy_line(names)}" + ("" if explicit else
              f" - the game's default{'' if names[0] == 'random' else '; --policy random for random play'}"),
              file=out)
    if game.observer is not None or game.extra.stop_after:
        stop = game.extra.stop_after
        print(f"statistics: {inert(args.stats) if args.stats else 'from the variant'}"
              + (f"; every round ends after phase '{inert(stop)}' (chip results not reported)" if stop else ""),
              file=out)
    variant_args = (resolve_variant_path(args.variant), parse_options(args.option), args.preset, args.deck,
                    tuple(args.house or ()), args.stats)
    if args.compare_policy:
        from rulekit.cli.compare import run_compare_policy
        def write_rows(kind: str, rows: list, pair: list[list[str]]) -> None:
            meta = {**header(args, game, n, pair[0], kind), **run_meta(args, game, pair[0]),
                    "policies": {"A": pair[0], "B": pair[1]}}
            write_csv(args.csv, kind, n, rows, args.seed, meta, labels=["A", "B"])
        from rulekit.cli.common import header
        doc = run_compare_policy(args, game, n, variant_args, out, _bar, write_rows)
    elif args.compare:
        from rulekit.cli.compare import run_compare
        doc = run_compare(args, game, n, names, variant_args, out, _bar)
    else:
        doc = _run_plain(args, game, n, names, variant_args, out)
    if doc is None:
        return EXIT_USAGE
    if args.json:
        doc.update(run_meta(args, game, names))  # (the rules' digest: only where it is written)
        text = json.dumps(doc, indent=1, ensure_ascii=False)
        if args.json == "-":
            from rulekit.core.inert import inert_json
            # stdout is inert (rulekit.people.terminal): characters it would rewrite become JSON escapes first
            sys.stdout.write(inert_json(text) + "\n")
        else:
            with open(args.json, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
    return 130 if doc.get("partial") else 0


def _run_plain(args, game, n: int, names: list[str], variant_args: tuple, out: TextIO) -> dict:
    from rulekit.cli.common import header
    from rulekit.analysis.runs import Interrupted, rounds_json, run
    partial = False
    from rulekit.engine.statsdecl import report as stats_report, summarise
    kind = "games" if args.games else "rounds"
    total = args.games if args.games else args.rounds
    bar = _bar(args, total, game.id)
    started = time.perf_counter()
    stops: tuple[type[KeyboardInterrupt], ...] = (Interrupted,)  # a Ctrl-C that keeps what was played
    try:
        if args.scheduler:
            from rulekit.analysis.distributed import connect
            from rulekit.analysis.simulate import Interrupted as SimInterrupted, simulate
            stops = (Interrupted, SimInterrupted)
            merged, rows = simulate(game, n, total, args.seed, args.policy, args.jobs, bar is not None,
                                    variant_args, client=connect(args.scheduler, args.scheduler_timeout)), []
        else:
            merged, rows = run(kind, game, n, total, args.seed, args.policy, args.jobs, variant_args, bar,
                               keep_rows=bool(args.csv))
    except stops as stop:
        # Ctrl-C: what was gathered so far is reported and written, marked partial
        merged, rows = stop.partial, getattr(stop, "rows", [])
        partial = True
    finally:
        if bar is not None:
            bar.close()
    elapsed = time.perf_counter() - started
    done = merged.games if kind == "games" else merged.rounds
    if partial:
        print(f"interrupted: {done} of {total} {kind} played; the figures below are for those only", file=sys.stderr)
        total = done
    doc = header(args, game, n, names, kind)
    if partial:
        doc.update({"partial": True, "asked": args.games if args.games else args.rounds})
    stop = game.extra.stop_after
    if kind == "games":
        data = merged.to_json()
        print(games_report(game, data), file=out)
    else:
        data = rounds_json(merged)
        if not stop:
            print(rounds_report(game, data), file=out)
    doc.update(data)
    if game.observer is not None:
        summary = summarise(game.observer.stats, merged.custom)
        doc["statistics"] = summary
        print(stats_report(summary), file=out)
    where = (f"on the Dask cluster at {inert(args.scheduler)}" if args.scheduler else
             f"{args.jobs} process{'es' if args.jobs != 1 else ''}")
    print(f"{total} {kind} in {elapsed:.1f} s ({total / max(elapsed, 1e-9):.0f} {kind}/s, {where})", file=out)
    if args.csv:
        write_csv(args.csv, kind, n, rows, args.seed, {**header(args, game, n, names, kind), **run_meta(args, game, names)})
        print(f"{len(rows)} rows written to {'standard output' if args.csv == '-' else args.csv}", file=out)
    return doc


def rounds_report(game, d: dict) -> str:
    """Single-round mode: each seat's result per round, its chance to gain and to lose, and the
    recorded outcomes per round, each with a 95% interval."""
    lines = [f"single-round mode: {d['rounds']} independent rounds, seat 0 deals every round "
             "(--games plays whole games)",
             f"{'seat':>5} {'chips/round':>11} {'95% interval':>21} {'gains':>7} {'95% interval':>17} "
             f"{'loses':>7} {'95% interval':>17}"]
    for s in d["seats"]:
        lines.append(f"{s['seat']:>5} {s['mean']:>+11.4f} [{s['low']:>+8.4f}, {s['high']:>+8.4f}] "
                     f"{100 * s['win_rate']:>6.2f}% [{100 * s['win_low']:>5.2f}%, {100 * s['win_high']:>5.2f}%] "
                     f"{100 * s['loss_rate']:>6.2f}% [{100 * s['loss_low']:>5.2f}%, {100 * s['loss_high']:>5.2f}%]")
    if d["records"]:
        lines.append("recorded outcomes, times per round (95% interval):")
        yaku_names = {y.id: y.names.get("en", y.id) for table in game.yaku.values() for y in table}
        for k, v in d["records"].items():
            label = f"yaku {k[5:]} ({yaku_names.get(k[5:], k[5:])})" if k.startswith("yaku:") else k
            pr = d["per_round"][k]
            lines.append(f"  {inert(label):44} {pr['mean']:.5f} [{pr['low']:.5f}, {pr['high']:.5f}]  ({v} in all)")
    return "\n".join(lines)


def games_report(game, d: dict) -> str:
    """Whole-game mode: final chips, chance of winning, bankruptcies per seat; game length."""
    r = d["rounds_per_game"]
    broke_rule = ("chips at 0 or less at the end" if game.start_chips > 0 else
                  "fewest chips in a game that ended early (the game's end condition)")
    lines = [f"whole games: {d['games']} games under the game's rules (rounds, dealer, starting chips "
             f"{game.start_chips}, early end)",
             f"rounds per game: {r['mean']:.2f} [{r['low']:.2f}, {r['high']:.2f}]; ended early: {d['ended_early']} "
             f"of {d['games']}",
             f"{'seat':>5} {'final chips':>11} {'95% interval':>21} {'wins':>7} {'95% interval':>17} {'broke':>6}"]
    for s in d["seats"]:
        lines.append(f"{s['seat']:>5} {s['final_chips']:>+11.3f} [{s['low']:>+8.3f}, {s['high']:>+8.3f}] "
                     f"{100 * s['win_chance']:>6.2f}% [{100 * s['win_low']:>5.2f}%, {100 * s['win_high']:>5.2f}%] "
                     f"{s['broke']:>6}")
    lines.append(f"(final chips: change from the start; a shared first place counts as a part-win; broke: "
                 f"{broke_rule})")
    return "\n".join(lines)


def write_csv(path: str, kind: str, n: int, rows: list, seed: int, meta: dict | None = None,
              labels: list[str] | None = None) -> None:
    """One row per round (chip change per seat) or per game (rounds, chip change, winners), after
    '# key: value' lines naming the run ('-': standard output). pandas reads it with comment='#'.
    With `labels` (a paired run of policies A and B), a row holds each label's chip change per seat."""
    import csv
    from rulekit.engine.runner import round_seed
    fh = sys.stdout if path == "-" else open(path, "w", newline="", encoding="utf-8")
    try:
        for k in ("rulekit_version", "variant", "variant_digest", "deck", "options", "preset", "house", "players",
                  "policies", "seed", "seed_scheme", "command"):
            if meta is not None and k in meta:
                v = meta[k]
                shown = json.dumps(v, ensure_ascii=False) if isinstance(v, (dict, list)) or v is None else str(v)
                fh.write(f"# {k}: {inert(shown, keep_newlines=False)}\n")
        w = csv.writer(fh, lineterminator="\n")
        if labels:
            # a paired run: each policy's chips per seat side by side, row by row (same seed, same deal)
            w.writerow([kind[:-1], "seed", *(f"{lab}_seat{s}" for lab in labels for s in range(n))])
            for i, r in enumerate(rows):
                w.writerow([i, round_seed(seed, i), *r])
        elif kind == "rounds":
            w.writerow(["round", "seed", *(f"seat{s}" for s in range(n))])
            for i, r in enumerate(rows):
                w.writerow([i, round_seed(seed, i), *r])
        else:
            w.writerow(["game", "seed", "rounds", *(f"seat{s}" for s in range(n)), "winners"])
            for i, r in enumerate(rows):
                w.writerow([i, round_seed(seed, i), *r])
    finally:
        if fh is not sys.stdout:
            fh.close()
        else:
            fh.flush()


def cmd_policies(args) -> int:
    """List a game's policies (and the built-in ones) with their descriptions."""
    from rulekit.cli.common import game_from_args
    from rulekit.engine.runner import BUILTIN_POLICIES
    game = game_from_args(args)
    print(f"policies of {inert(game.variant.meta.names.get('en', game.id))} (use with --policy NAME, or per seat "
          "0=NAME,1=NAME):")
    from rulekit.cli.play import table_policy
    at_table = table_policy(game).partition(":")[0]  # the opponents of `play --human` without --policy

    def mark(name: str) -> str:
        return "; played by your opponents at the table" if name == at_table else ""
    for name, p in game.policies.items():
        words = inert(' '.join(str(p.get('description') or '(no description)').split()))
        print(f"  {inert(name)}: {words}" + (f" ({mark(name)[2:]})" if mark(name) else ""))
    for name, desc in BUILTIN_POLICIES.items():
        print(f"  {name}: {desc} (built in{mark(name)})")
    return 0


"""This tree's engine against another tree of rulekit (an older commit, say), in CPU seconds, the
two run alternately so that a busy machine moves both alike. Prints figures; asserts nothing.

Export the other tree first, e.g. the one issue 38 was filed against:

    git archive 68e64ac | tar -x -C /tmp/old68
    python benchmarks/against.py /tmp/old68 [--variants otoroku kakkuri] [--runs 2] [--cli-rounds 50000]

Three measures per variant, each tree with its own variant files, in a fresh process:
- long: random-play rounds per CPU-second over 2 CPU-s of 200-round runs, after 20 rounds (a long
  simulation, as an analyst runs one: anything a tree keeps across rounds is warm);
- cold: the first 3,000 rounds of a freshly built game, as benchmarks/cpu.py counts them;
- command: `rulekit simulate VARIANT --rounds N --policy random` as a child process, start-up included,
  every module compiled from its source (no bytecode read or written: a fresh checkout on a machine that sets
  PYTHONDONTWRITEBYTECODE, as CI and this one do);
- command+pyc: the same with a bytecode cache for each tree, warmed by a first run (an installed package).
Both trees are run alike, each from fresh copies of its rulekit/, variants/ and schemas/ folders (so a tree's own
__pycache__ folders, left by earlier runs, are never read): one copy never writes bytecode, the other is warmed first.
The factor is this tree's rate over the other's, lowest and highest of the runs paired in turn.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLAYERS = {"hana-awase": 3, "hiraya": 3, "kingo-banking": 5, "kingo": 5, "otoroku": 6, "dare": 4,
           "kyo-kabu": 5, "oicho-kabu": 5, "kakkuri": 7}

# run in the tree's own folder with only that tree importable: prints "long cold"
MEASURE = """
import gc, os, sys, time
from rulekit.engine.build import build_game, load_variant
from rulekit.engine.runner import run_chunk
vid, n, first = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
path = [os.path.join(d, f) for d, _, fs in os.walk("variants") for f in fs if f == vid + ".yaml"][0]
g = build_game(load_variant(path))
gc.collect(); t = time.process_time()
run_chunk(g, n, 1, 0, first)
cold = first / (time.process_time() - t)
g = build_game(load_variant(path)); run_chunk(g, n, 1, 0, 20)
gc.collect(); t = time.process_time(); rounds = 0
while time.process_time() - t < 2.0:
    run_chunk(g, n, 1, rounds, 200); rounds += 200
print(rounds / (time.process_time() - t), cold)
"""


def child_cpu(root: str, args: list[str], write: bool = False) -> tuple[float, str]:
    """User+sys seconds of `python ARGS` run in `root` with only `root` importable (bytecode
    written only when `write`), and its output."""
    env = {**os.environ, "PYTHONPATH": root}
    env.pop("PYTHONPYCACHEPREFIX", None)
    if write:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run([sys.executable, *args], cwd=root, env=env, capture_output=True, text=True, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), out.stdout


def copies(root: str, into: str) -> tuple[str, str]:
    """Two copies of the tree's rulekit/, variants/ and schemas/ under `into`, without bytecode:
    one to run from source, one whose bytecode cache is warmed here."""
    made = []
    for name in ("source", "cached"):
        dest = os.path.join(into, name)
        for part in ("rulekit", "variants", "schemas"):
            if os.path.isdir(os.path.join(root, part)):
                shutil.copytree(os.path.join(root, part), os.path.join(dest, part),
                                ignore=shutil.ignore_patterns("__pycache__"))
        made.append(dest)
    child_cpu(made[1], ["-m", "rulekit", "simulate", "otoroku", "--rounds", "1", "--policy", "random"], write=True)
    return made[0], made[1]


def measure(trees: tuple[str, str], vid: str, cli_rounds: int) -> tuple[float, float, float, float]:
    """(long, cold, command, command+pyc) rounds per CPU-second of variant `vid` in a tree
    (its copy run from source, and its copy with a warm bytecode cache)."""
    source, cached = trees
    _cpu, out = child_cpu(source, ["-c", MEASURE, vid, str(PLAYERS[vid]), "3000"])
    long_rate, cold = (float(x) for x in out.split())
    command = ["-m", "rulekit", "simulate", vid, "--rounds", str(cli_rounds), "--policy", "random"]
    cpu, _out = child_cpu(source, command)
    cpu_pyc, _out = child_cpu(cached, command)
    return long_rate, cold, cli_rounds / cpu, cli_rounds / cpu_pyc


def span(xs: list[float]) -> str:
    """`lo-hi` of rates, or the one value."""
    lo, hi = min(xs), max(xs)
    return f"{lo:,.0f}" if round(lo) == round(hi) else f"{lo:,.0f}-{hi:,.0f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("other", help="the root of the other tree (holding rulekit/ and variants/)")
    ap.add_argument("--variants", nargs="+", default=["otoroku", "kakkuri"], choices=sorted(PLAYERS))
    ap.add_argument("--runs", type=int, default=2, help="alternations (each tree measured this many times)")
    ap.add_argument("--cli-rounds", type=int, default=50000)
    a = ap.parse_args()
    other = os.path.abspath(a.other)
    print(f"{'variant':14s} {'measure':11s} {'other':>15s} {'this':>15s}  factor")
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"other": copies(other, os.path.join(tmp, "other")), "this": copies(ROOT, os.path.join(tmp, "this"))}
        for vid in a.variants:
            got: dict[str, list[tuple[float, ...]]] = {"other": [], "this": []}
            for _ in range(a.runs):
                for which in ("other", "this"):
                    got[which].append(measure(trees[which], vid, a.cli_rounds))
            report(vid, got)


def report(vid: str, got: dict[str, list[tuple[float, ...]]]) -> None:
    """One line per measure: the other tree's rates, this tree's, and the factor."""
    for i, label in enumerate(("long", "cold", "command", "command+pyc")):
        o = [r[i] for r in got["other"]]
        t = [r[i] for r in got["this"]]
        f = [b / c for b, c in zip(t, o)]
        print(f"{vid:14s} {label:11s} {span(o):>15s} {span(t):>15s}  {min(f):.2f}-{max(f):.2f}x", flush=True)


if __name__ == "__main__":
    main()

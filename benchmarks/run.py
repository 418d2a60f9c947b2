"""Benchmarks: rounds/s per variant (1 and 2 processes), load+validate time, CLI start-up,
engine / hand-written baseline ratios, and rounds/s while reading declared statistics
(benchmarks/stats-generic.yaml; 'slowdown' = plain rate / rate with statistics). Prints
figures; asserts nothing.

    python benchmarks/run.py [--rounds N]
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from rulekit.build import build_game, check_variant, load_variant  # noqa: E402
from rulekit.simulate import simulate  # noqa: E402
from rulekit.statsdecl import prepare  # noqa: E402

STATS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "stats-generic.yaml")


def variants() -> list[str]:
    out = []
    for root, _d, files in os.walk(os.path.join(ROOT, "variants")):
        out += [os.path.join(root, f) for f in files if f.endswith(".yaml")]
    return sorted(out)


def timed(fn, *a, **k) -> tuple[float, object]:
    t = time.perf_counter()
    r = fn(*a, **k)
    return time.perf_counter() - t, r


def baseline_rate(module: str, n: int, rounds: int) -> float | None:
    try:
        mod = __import__(module)
    except ImportError:
        return None
    rng = random.Random(1)
    dt, _ = timed(lambda: [mod.play_round(rng, n) for _ in range(rounds)])
    return rounds / dt


BASELINES = {"kyo-kabu": ("baseline_kyo_kabu", 5), "otoroku": ("baseline_otoroku", 6)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=4000)
    args = ap.parse_args()
    env = {**os.environ, "PYTHONPATH": ROOT}
    t = time.perf_counter()
    subprocess.run([sys.executable, "-m", "rulekit", "--help"], capture_output=True, env=env, check=True)
    print(f"rulekit --help: {1000 * (time.perf_counter() - t):.0f} ms")
    print(f"{'variant':22} {'load+validate':>14} {'rounds/s':>10} {'--jobs 2':>10} {'speed-up':>9} {'baseline':>10} "
          f"{'ratio':>7} {'--stats':>9} {'slowdown':>9}")
    for path in variants():
        v = load_variant(path)
        if v.meta.abstract:
            continue
        vid = v.meta.id
        gc.collect()  # the games built so far are garbage: do not time their collection
        t_load, _ = timed(lambda: check_variant(path))
        game = build_game(v)
        n = BASELINES.get(vid, (None, v.meta.players_default))[1]
        n = min(max(n, v.meta.players_min), v.meta.players_max)
        dt1, _ = timed(simulate, game, n, args.rounds, 1, "random", 1)
        dt2, _ = timed(simulate, game, n, args.rounds, 1, "random", 2, False, (path, {}, None, None))
        watched = prepare(game, STATS)  # the same rounds, reading benchmarks/stats-generic.yaml
        dts, _ = timed(simulate, watched, n, args.rounds, 1, "random", 1)
        r1, r2, rs = args.rounds / dt1, args.rounds / dt2, args.rounds / dts
        base = ratio = ""
        if vid in BASELINES:
            b = baseline_rate(BASELINES[vid][0], n, args.rounds)
            if b:
                base, ratio = f"{b:10.0f}", f"{b / r1:6.1f}x"
        print(f"{vid:22} {1000 * t_load:11.0f} ms {r1:10.0f} {r2:10.0f} {r2 / r1:8.2f}x {base:>10} {ratio:>7} "
              f"{rs:9.0f} {r1 / rs:8.2f}x")


if __name__ == "__main__":
    main()

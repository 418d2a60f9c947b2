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

from rulekit.engine.build import build_game, check_variant, load_variant  # noqa: E402
from rulekit.analysis.simulate import simulate  # noqa: E402
from rulekit.engine.statsdecl import prepare  # noqa: E402

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
    ap.add_argument("--dask", action="store_true",
                    help="also time a LocalCluster of 2 worker processes (extra rulekit[dask])")
    ap.add_argument("--env", action="store_true", help="also time stepping a game with rulekit.Env")
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
        t_load, _ = timed(check_variant, path)
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
    limits_validate()
    if args.env:
        env_rates()
    if args.dask:
        dask_rates(args.rounds)


def limits_file(path: str, tables: int = 7, per_table: int = 1000) -> None:
    """The tutorial variant with `tables` yaku tables of `per_table` entries: a file near the
    documented limits (1,000 entries a table, 50,000 values a file)."""
    src = open(os.path.join(ROOT, "docs", "tutorial", "first-variant.yaml"), encoding="utf-8").read()
    i = src.index("\nyaku:\n")
    rows = []
    for t in range(tables):
        rows.append(f"  t{t}:")
        rows += [f'    - {{id: y{k}, when: "count(cards) == 2 and cards[0].value + cards[1].value == {k % 19} '
                 f'and all(cards, c -> c.value > 0)", value: {k}}}' for k in range(per_table)]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(src[:i] + "\nyaku:\n" + "\n".join(rows) + src[i + len("\nyaku:"):])


def limits_validate() -> None:
    """Seconds (CPU) to validate a file near the documented limits: the limits' own promise."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "limits.yaml")
        limits_file(path)
        gc.collect()
        t = time.process_time()
        problems = check_variant(path)
        dt = time.process_time() - t
    print(f"validate a file of 7,000 yaku (49,000 values): {dt:.2f} s CPU, {len(problems)} problems")


def env_rates() -> None:
    """Decisions per second when a game is stepped from outside (rulekit.Env, first legal action)."""
    from rulekit.api.env import Env
    print(f"{'Env (stepping)':22} {'decisions/s':>14} {'rounds/s':>10}")
    for vid in ("kyo-kabu", "otoroku", "kakkuri"):
        env = Env(vid, seed=1, rounds=1)
        steps, rounds = 0, 0
        t = time.perf_counter()
        while time.perf_counter() - t < 2.0:
            env.reset(seed=rounds)
            while not env.done:
                env.step(0)
                steps += 1
            rounds += 1
        dt = time.perf_counter() - t
        print(f"{vid:22} {steps / dt:14.0f} {rounds / dt:10.1f}")


def dask_rates(rounds: int) -> None:
    """Rounds per second on a LocalCluster of two worker processes (same totals as one process)."""
    from dask.distributed import Client, LocalCluster
    from rulekit.lang.loader import default_search_path, find_variant
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None, silence_logs=40) as cluster, \
            Client(cluster) as client:
        print(f"{'LocalCluster (2 procs)':22} {'rounds/s':>14}")
        for vid in ("kyo-kabu", "otoroku"):
            path = find_variant(vid, None, default_search_path())
            game = build_game(load_variant(path))
            n = BASELINES.get(vid, (None, game.variant.meta.players_default))[1]
            simulate(game, n, 1000, 1, "random", client=client, variant_args=(path, {}, None, None))  # warm up
            dt, _ = timed(simulate, game, n, rounds, 1, "random", client=client, variant_args=(path, {}, None, None))
            print(f"{vid:22} {rounds / dt:14.0f}")


if __name__ == "__main__":
    main()

"""Stepping speed of rulekit.Env: decisions/s for one-round and full-game episodes (random
legal actions), and, in one full Kakkuri game, steps/s in its first and last tenth. Times are
CPU seconds of this process (the game runs in it), so other load on the machine matters less.
Prints figures; asserts nothing.

    python benchmarks/env_rates.py [--seconds S]
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from rulekit.api.env import Env  # noqa: E402


def episodes(vid: str, rounds: int | None, seconds: float) -> tuple[float, int]:
    """Decisions per second over seeded episodes of `rounds` rounds (None: the whole game)."""
    env = Env(vid, seed=0, rounds=rounds)
    rng = random.Random(0)
    steps = games = 0
    t = time.process_time()
    while time.process_time() - t < seconds:
        env.reset(seed=games)
        while not env.done:
            env.step(rng.randrange(len(env.legal_actions())))
            steps += 1
        games += 1
    return steps / (time.process_time() - t), games


def tenths(vid: str = "kakkuri", seed: int = 1) -> tuple[float, float, int]:
    """Steps/s in the first and last tenth of one full game (the same seeded random actions)."""
    rng = random.Random(seed)
    moves = []
    env = Env(vid, seed=seed)
    while not env.done:  # find the game's length first (not timed)
        moves.append(rng.randrange(len(env.legal_actions())))
        env.step(moves[-1])
    k = max(1, len(moves) // 10)
    env = Env(vid, seed=seed)
    times = []
    for m in moves:
        t = time.process_time()
        env.step(m)
        times.append(time.process_time() - t)
    return k / sum(times[:k]), k / sum(times[-k:]), len(moves)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--no-tenths", action="store_true")
    args = ap.parse_args()
    print(f"{'variant':12} {'one round dec/s':>16} {'full game dec/s':>16}")
    for vid in ("otoroku", "kyo-kabu", "kakkuri"):
        one, _ = episodes(vid, 1, args.seconds)
        full, games = episodes(vid, None, args.seconds)
        print(f"{vid:12} {one:16.0f} {full:16.0f}  ({games} full games)", flush=True)
    if not args.no_tenths:
        first, last, n = tenths()
        print(f"kakkuri full game of {n} steps: first tenth {first:.0f} steps/s, last tenth {last:.0f} steps/s")


if __name__ == "__main__":
    main()

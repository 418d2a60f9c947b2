"""How often an observation gives away cards a seat cannot see: for each seat at each decision of
seeded random one-round games, a re-deal of its unseen cards that agrees with everything that
happened in the open (Env.sample_unseen); a view leaks when it differs between the two deals.
'all variables' is the observation before variables had a visibility (every variable shown);
'as shown' is Env.observation now. Prints figures; asserts nothing.

    python benchmarks/leaks.py [--games N]
"""
from __future__ import annotations

import argparse
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from rulekit.api.env import Env, Inconsistent  # noqa: E402


def rates(vid: str, games: int) -> tuple[int, int, int]:
    rng = random.Random(0)
    views = leak_all = leak_now = 0
    for seed in range(games):
        env = Env(vid, seed=seed, rounds=1)
        while not env.done:
            for seat in range(env.players):
                try:
                    other = env.sample_unseen(seat, rng, tries=30)
                except Inconsistent:
                    continue
                views += 1
                leak_all += other._st.ctx.vars != env._st.ctx.vars
                leak_now += other.observation(seat) != env.observation(seat)
            env.step(rng.randrange(len(env.legal_actions())))
    return views, leak_all, leak_now


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()
    print(f"{'variant':14} {'views':>7} {'all variables':>14} {'as shown':>9}")
    for vid in ("otoroku", "kingo-banking", "kakkuri"):
        v, a, n = rates(vid, args.games)
        print(f"{vid:14} {v:7} {100 * a / max(v, 1):13.0f}% {100 * n / max(v, 1):8.0f}%", flush=True)


if __name__ == "__main__":
    main()

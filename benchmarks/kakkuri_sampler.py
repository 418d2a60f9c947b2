"""How often Env.sample_unseen finds a deal the deciding seat cannot tell from the real one, in
Kakkuri rounds (where the moves say much about the hidden cards), and how often the search
bot's deal chain gets a first deal: at every second decision of `--games` rounds played by the
`--policy` bots, with `--tries` tries (default: sample_unseen's own). Prints the share over all
decisions and over those in the second half of their round, and the CPU seconds; asserts nothing.

    python benchmarks/kakkuri_sampler.py [--games 20] [--tries 200] [--policy careful] [--no-repair]

--no-repair measures rejection alone (as before rulekit.engine.dealsearch), for comparison.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from rulekit.api.env import Env, Inconsistent  # noqa: E402
from rulekit.engine.agents import PolicyAgent  # noqa: E402


def rounds(games: int, policy: str) -> list[tuple[int, list[int]]]:
    """(seed, moves) of `games` one-round games played by `policy` bots."""
    out = []
    for g in range(100, 100 + games):
        env = Env("kakkuri", seed=g, rounds=1, logging=False)
        bots = [env.bot(policy, s) for s in range(env.players)]
        moves = []
        while not env.done:
            moves.append(bots[env.current_player].act(env))
            env.step(moves[-1])
        out.append((g, moves))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--tries", type=int, default=200)
    ap.add_argument("--policy", default="careful")
    ap.add_argument("--no-repair", action="store_true")
    args = ap.parse_args()
    if args.no_repair:
        import rulekit.engine.stepper as stepper
        stepper.REJECT_SHARE = 1  # every try a plain re-deal
        stepper.Stepper._repaired = lambda self, seat, rng, tries: (None, [], 0)
    cases = rounds(args.games, args.policy)
    for what in ("sample_unseen", "search chain"):
        ok = n = late_ok = late_n = 0
        t = time.process_time()
        for g, moves in cases:
            env = Env("kakkuri", seed=g, rounds=1, logging=False)
            rng = random.Random(g)
            for k, m in enumerate(moves):
                if k % 2 == 0:
                    seat = env.current_player
                    if what == "sample_unseen":
                        try:
                            env.sample_unseen(seat, rng, tries=args.tries)
                            good = True
                        except Inconsistent:
                            good = False
                    else:
                        chain = env._st.deals(seat, rng, PolicyAgent("careful").preferred)
                        good = False
                        while not good and chain.replays < args.tries:
                            try:
                                chain.next()
                                good = True
                            except Inconsistent:
                                pass
                    ok, n = ok + good, n + 1
                    if k >= len(moves) // 2:
                        late_ok, late_n = late_ok + good, late_n + 1
                env.step(m)
        print(f"{what:14} {args.tries} tries: a deal at {ok}/{n} = {ok / n:.1%} of decisions, "
              f"{late_ok}/{late_n} = {late_ok / max(1, late_n):.1%} in the second half "
              f"({time.process_time() - t:.1f} CPU-s)", flush=True)


if __name__ == "__main__":
    main()

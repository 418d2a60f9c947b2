"""How long a person waits for a `search` opponent at the table, per seed game; prints figures (no pass/fail).

Rounds are played as at the table (`rulekit play GAME --human 0`): seat 0 (the person) is played
by the game's careful policy as a stand-in (a person's own time is not counted), every other
seat by `search` with the table's time cap (rulekit.cli.play.TABLE_SECONDS), whatever the game's
table default is. Each opponent decision with more than one legal action is timed on the clock
(what the person waits) and in CPU seconds; the 95th percentile of the clock's figure is the
one to keep under a second. The clock's figures grow when other work shares the machine, so
the load average is printed with them.

    .venv/bin/python benchmarks/table_wait.py                       # every seed game, 4 rounds each
    .venv/bin/python benchmarks/table_wait.py --games kakkuri --rounds 10 --seconds 0.3
"""
from __future__ import annotations

import argparse
import os
import statistics

from rulekit import build_game
from rulekit.cli.play import TABLE_SECONDS, table_policy
from rulekit.engine.runner import agent_seed, make_agents, play, round_seed
from rulekit.engine.search import SearchAgent
from timedbot import TimedBot

GAMES = ["hiraya", "kakkuri", "dare", "otoroku", "kyo-kabu"]
SEED = 2026


def percentile(xs: list[float], q: float) -> float:
    """The q-quantile of xs (nearest rank: a figure that was actually waited)."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * len(s) + 0.5) - 1))]


def run(gid: str, rounds: int, seconds: float | None, seed0: int = SEED) -> None:
    game = build_game(gid)
    n = game.variant.meta.players_default
    wall: list[float] = []
    cpu: list[float] = []
    capped = 0
    for i in range(rounds):
        seed = round_seed(seed0, i)
        agents = make_agents(game, n, seed, "careful" if "careful" in game.policies else "random")
        bots = [TimedBot(SearchAgent(game, agent_seed(seed, s), seconds=seconds)) for s in range(1, n)]
        agents[1:] = bots
        play(game, n, seed, agents, rounds=1, logging=False)
        for b in bots:
            wall += b.wall
            cpu += b.cpu
            capped += b.agent.capped
    cap = "no time cap" if seconds is None else f"time cap {seconds:g} s"
    print(f"{gid} ({n} players, {rounds} rounds of seed {seed0}, {cap}; the table's default opponents: "
          f"{table_policy(game)})")
    if not wall:
        print("  no opponent decision with a choice")
        return
    print(f"  {len(wall)} opponent decisions with a choice; wait on the clock: median {statistics.median(wall):.3f} s, "
          f"95th percentile {percentile(wall, 0.95):.3f} s, longest {max(wall):.3f} s; CPU: median "
          f"{statistics.median(cpu):.3f} s, 95th percentile {percentile(cpu, 0.95):.3f} s; "
          f"{capped} stopped by a cap (time or work)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--seconds", type=float, default=TABLE_SECONDS,
                    help="the search opponents' time cap a decision (default the table's, %(default)s; 0: none)")
    ap.add_argument("--seed", type=int, default=SEED)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    for gid in args.games.split(","):
        run(gid, args.rounds, args.seconds or None, args.seed)


if __name__ == "__main__":
    main()

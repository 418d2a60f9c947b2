"""How strong the `search` policy is, on paired seeds, per seed game; prints figures (no pass/fail).

For round i (seed round_seed(SEED, i)) the seat k = i mod players is played three ways, every
other seat playing `careful`: by `search`, by `careful`, by `random`. The same seed deals the
same cards, so the differences in seat k's chips are paired:
  search - careful   the search seat's advantage over careful in the same seat
  careful - random   careful's advantage over random play
each printed as a mean per round with a 95% interval (mean +- 1.96 sd / sqrt(rounds)), with the
search bot's seconds per decision, on the clock and of CPU (the clock's figure grows when other
work shares the machine; decisions with one legal action are not counted).

    .venv/bin/python benchmarks/search_strength.py                    # default budget, 100 rounds
    .venv/bin/python benchmarks/search_strength.py --budgets 10,100 --rounds 60 --games otoroku
    .venv/bin/python benchmarks/search_strength.py --games kakkuri --rounds 600 --start 600  # rounds 600-1199
    .venv/bin/python benchmarks/search_strength.py --games kyo-kabu --seed 7  # rounds not used for the report
    .venv/bin/python benchmarks/search_strength.py --games hiraya --seconds 0.5  # with the table's time cap
    .venv/bin/python benchmarks/search_strength.py --games hiraya --playout careful  # without the variant's stand-in

Runs over separate ranges of rounds (--start) combine exactly: each line prints n, mean and sd.
"""
from __future__ import annotations

import argparse
import math

from rulekit import build_game
from rulekit.engine.runner import agent_seed, make_agents, play, round_seed
from rulekit.engine.search import DEFAULT_BUDGET, SHORT, UNITS, SearchAgent
from timedbot import TimedBot

GAMES = ["dare", "hiraya", "kakkuri", "otoroku", "kyo-kabu"]
SEED = 2026


def _seat_delta(game, n: int, seed: int, agents: list, k: int) -> int:
    """Seat k's chips after one round in which agents[k] is the agent under test (after any seat draw)."""
    res = play(game, n, seed, agents, rounds=1, logging=False)
    return res.round_deltas[0][res.seating.index(k)]


def _interval(xs: list[int]) -> str:
    m = sum(xs) / len(xs)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else 0.0
    h = 1.96 * sd / math.sqrt(len(xs))
    mark = "above 0" if m - h > 0 else ("below 0" if m + h < 0 else "spans 0")
    return f"{m:+.3f} [{m - h:+.3f}, {m + h:+.3f}] ({mark}; n {len(xs)}, mean {m:+.5f}, sd {sd:.5f})"


def run(gid: str, rounds: int, budgets: list[int], start: int = 0, seed0: int = SEED, short: int = SHORT,
        seconds: float | None = None, playout: str | None = None) -> None:
    game = build_game(gid)
    n = game.variant.meta.players_default
    careful, rand = [], []
    search: dict[int, list[int]] = {b: [] for b in budgets}
    # seconds, CPU, decisions, budget units, capped, playout results, of which from deals met again
    timing = {b: [0.0, 0.0, 0, 0, 0, 0, 0] for b in budgets}
    for i in range(start, start + rounds):
        seed, k = round_seed(seed0, i), i % n
        base = _seat_delta(game, n, seed, make_agents(game, n, seed, "careful"), k)
        careful.append(base)
        agents = make_agents(game, n, seed, "careful")
        agents[k] = make_agents(game, n, seed, f"careful,{k}=random")[k]
        rand.append(base - _seat_delta(game, n, seed, agents, k))
        for b in budgets:
            agents = make_agents(game, n, seed, "careful")
            bot = agents[k] = TimedBot(SearchAgent(game, agent_seed(seed, k), budget=b, short=short,
                                                       seconds=seconds, playout=playout))
            search[b].append(_seat_delta(game, n, seed, agents, k) - base)
            timing[b][0] += sum(bot.wall)
            timing[b][1] += sum(bot.cpu)
            timing[b][2] += len(bot.wall)
            timing[b][3] += bot.agent.units
            timing[b][4] += bot.agent.capped
            timing[b][5] += bot.agent.playouts
            timing[b][6] += bot.agent.reused
    print(f"{gid} ({n} players, {rounds} paired rounds from round {start} of seed {seed0}, "
          f"seat k = round mod {n}, others careful)")
    print(f"  careful - random (chips/round): {_interval(rand)}")
    for b in budgets:
        secs, cpu, dec, units, capped, results, reused = timing[b]
        label = f"search({b}, short {short})" if short != SHORT else f"search({b})"
        label = label if seconds is None else f"{label[:-1]}, at most {seconds:g} s)"
        label = label if playout is None else f"{label[:-1]}, playouts by {playout})"
        print(f"  {label} - careful (chips/round): {_interval(search[b])}; "
              f"{secs / max(dec, 1):.3f} s per decision ({cpu / max(dec, 1):.3f} s of CPU) over {dec} decisions; "
              f"{units / max(dec, 1):,.0f} budget units per decision (cap {UNITS * b:,}), {capped} capped; "
              f"{reused / max(results, 1):.0%} of playout results from deals met again")
    print(flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=100)
    ap.add_argument("--budgets", default=str(DEFAULT_BUDGET), help="playouts per decision, comma-separated")
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--start", type=int, default=0, help="the first round's number (to extend an earlier run)")
    ap.add_argument("--seed", type=int, default=SEED, help=f"the rounds' seed (default {SEED}, the reported figures'; "
                    "try a change on another seed first, so the report's rounds are not the ones it was tuned on)")
    ap.add_argument("--short", type=int, default=SHORT, help="SearchAgent's short: up to this many times the "
                    "budget's playouts when they are short, in the same moves (default %(default)s)")
    ap.add_argument("--seconds", type=float, default=None, help="SearchAgent's time cap a decision (default none; "
                    "the table's is rulekit.cli.play.TABLE_SECONDS): strength under the clock, on this machine")
    ap.add_argument("--playout", default=None, help="the policy the bot plays out with (default the base "
                    "policy's `playout` in the variant, else the base policy): compare a stand-in on the same seeds")
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    for gid in args.games.split(","):
        run(gid, args.rounds, budgets, args.start, args.seed, args.short, args.seconds, args.playout)


if __name__ == "__main__":
    main()

"""The engine's speed in CPU seconds (user+sys of this process, or of the child for the CLI), so a
busy machine moves the figures less than the wall clock would. Prints figures; asserts nothing.

Per variant: random-play rounds per CPU-second (seeded simulation, build excluded) and, where a
lean hand-written round exists (benchmarks/baseline_*.py), its rate and the engine's ratio to it;
`rulekit simulate kyo-kabu --rounds 50000 --policy random` as a command (start-up included)
against the hand-written round, twice: as this environment runs it (under PYTHONDONTWRITEBYTECODE=1
every run compiles rulekit's sources afresh) and with the bytecode cache an installed package keeps
(a warm-up run first, into a private PYTHONPYCACHEPREFIX under a temporary folder); the start-up
alone (`--rounds 1`) both ways, the median of a few runs; Env decisions per CPU-second (one-round episodes, random legal
actions); the median CPU seconds of a Hiraya search-bot decision (decisions with one legal action
are not counted).

`--ops` prints instead the Python bytecode instructions executed per round of random play, per
variant: a count that does not move with the machine's load (CPU seconds on a shared machine vary
by 10% from run to run), to compare two versions of the engine exactly. It misses the work done
inside C functions (list building, the random generator), so it complements CPU seconds.

    python benchmarks/cpu.py [--rounds N] [--no-cli] [--no-env] [--no-search]
    python benchmarks/cpu.py --cli-only [--cli-runs N]     # the command-line figures alone
    python benchmarks/cpu.py --ops
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from rulekit.engine.build import build_game, load_variant  # noqa: E402
from rulekit.engine.runner import agent_seed, make_agents, play, round_seed, run_chunk  # noqa: E402

BASELINES = {"kyo-kabu": ("baseline_kyo_kabu", 5), "otoroku": ("baseline_otoroku", 6)}


def cpu() -> float:
    """CPU seconds (user+sys) of this process so far."""
    return time.process_time()


def variants() -> list[str]:
    out = []
    for root, _d, files in os.walk(os.path.join(ROOT, "variants")):
        out += [os.path.join(root, f) for f in files if f.endswith(".yaml")]
    return sorted(out)


def engine_rate(game, n: int, rounds: int) -> float:
    """Random-play rounds per CPU-second of the engine's simulation loop (seed 1)."""
    gc.collect()
    t = cpu()
    run_chunk(game, n, 1, 0, rounds)
    return rounds / (cpu() - t)


def baseline_rate(module: str, n: int, rounds: int) -> float:
    """Rounds per CPU-second of a hand-written round with the same random play."""
    mod = __import__(module)
    rng = random.Random(1)
    t = cpu()
    for _ in range(rounds):
        mod.play_round(rng, n)
    return rounds / (cpu() - t)


def cli_cpu(args: list[str], pycache: str | None = None) -> float:
    """User+sys seconds of one `rulekit ...` command run as a child process; with `pycache`, the
    child keeps compiled bytecode there (PYTHONDONTWRITEBYTECODE unset), as an installed package does."""
    env = {**os.environ, "PYTHONPATH": ROOT}
    if pycache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "rulekit", *args], capture_output=True, check=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cli_report(runs: int) -> None:
    """The command-line figures: the 50,000-round simulation and the start-up alone, each as this
    environment runs it and with a bytecode cache (warmed by one run first)."""
    rounds = 50000
    sim = ["simulate", "kyo-kabu", "--rounds", str(rounds), "--policy", "random"]
    start = ["simulate", "kyo-kabu", "--rounds", "1", "--policy", "random"]
    fresh = ("sources compiled every run (PYTHONDONTWRITEBYTECODE=1, as here)"
             if os.environ.get("PYTHONDONTWRITEBYTECODE") else "as this environment runs it")
    b = baseline_rate("baseline_kyo_kabu", 5, rounds)
    with tempfile.TemporaryDirectory(prefix="rulekit-pyc-") as pyc:
        cli_cpu(start, pyc)  # the warm-up run writes the bytecode cache
        for label, cache in ((fresh, None), ("with the bytecode cache an installed package keeps", pyc)):
            c = statistics.median(cli_cpu(sim, cache) for _ in range(max(1, runs // 2)))
            s = statistics.median(cli_cpu(start, cache) for _ in range(runs))
            print(f"rulekit simulate kyo-kabu --rounds {rounds} --policy random, {label}: {c:.2f} CPU-s "
                  f"({rounds / c:.0f} rounds/CPU-s with start-up); hand-written {b:.0f} rounds/CPU-s; "
                  f"ratio {b / (rounds / c):.1f}x; start-up alone (--rounds 1) {s:.3f} CPU-s", flush=True)


def env_rate(vid: str, seconds: float) -> float:
    """Env decisions per CPU-second over one-round episodes with random legal actions."""
    from rulekit.api.env import Env
    env = Env(vid, seed=0, rounds=1)
    rng = random.Random(0)
    steps = games = 0
    t = cpu()
    while cpu() - t < seconds:
        env.reset(seed=games)
        while not env.done:
            env.step(rng.randrange(len(env.legal_actions())))
            steps += 1
        games += 1
    return steps / (cpu() - t)


class _Timed:
    """A search agent whose real decisions (more than one action) are timed in CPU seconds."""

    def __init__(self, agent):
        self.agent, self.times, self.name = agent, [], agent.name

    def watch(self, *a) -> None:
        self.agent.watch(*a)

    def round_start(self, *a) -> None:
        self.agent.round_start(*a)

    def act(self, d) -> int:
        t = cpu()
        i = self.agent.act(d)
        if len(d.actions) > 1:
            self.times.append(cpu() - t)
        return i


def search_median(vid: str, rounds: int) -> tuple[float, int, float]:
    """Median CPU seconds of a search-bot decision (seat i mod n searches, the others careful),
    the decisions timed, and the share of playout results taken from deals met again."""
    from rulekit.engine.search import SearchAgent
    game = build_game(load_variant(os.path.join(ROOT, "variants", "hanafuda", f"{vid}.yaml")))
    n = game.variant.meta.players_default
    times: list[float] = []
    results = reused = 0
    for i in range(rounds):
        seed, k = round_seed(2026, i), i % n
        agents = make_agents(game, n, seed, "careful")
        bot = agents[k] = _Timed(SearchAgent(game, agent_seed(seed, k)))
        play(game, n, seed, agents, rounds=1, logging=False)
        times += bot.times
        results, reused = results + bot.agent.playouts, reused + bot.agent.reused
    return statistics.median(times), len(times), reused / max(results, 1)


def instructions_per_round(game, n: int, rounds: int) -> float:
    """Python bytecode instructions executed per round of seeded random play (after a warm-up)."""
    count = [0]

    def local(frame, event, arg):
        if event == "opcode":
            count[0] += 1
        return local

    def start(frame, event, arg):
        frame.f_trace_opcodes = True
        return local
    run_chunk(game, n, 1, 0, 3)
    sys.settrace(start)
    try:
        run_chunk(game, n, 1, 0, rounds)
    finally:
        sys.settrace(None)
    return count[0] / rounds


def ops_report() -> None:
    print(f"{'variant':14} {'players':>7} {'instructions/round':>18}")
    for path in variants():
        v = load_variant(path)
        game = build_game(v)
        n = BASELINES.get(v.meta.id, (None, v.meta.players_default))[1]
        n = min(max(n, v.meta.players_min), v.meta.players_max)
        print(f"{v.meta.id:14} {n:7} {instructions_per_round(game, n, 30):18.0f}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3000, help="rounds a variant is simulated (default %(default)s)")
    ap.add_argument("--no-cli", action="store_true", help="skip the 50,000-round command")
    ap.add_argument("--no-env", action="store_true")
    ap.add_argument("--no-search", action="store_true")
    ap.add_argument("--search-rounds", type=int, default=6)
    ap.add_argument("--ops", action="store_true", help="bytecode instructions per round instead (load-independent)")
    ap.add_argument("--cli-only", action="store_true", help="the command-line figures alone")
    ap.add_argument("--cli-runs", type=int, default=3,
                    help="runs of the start-up measure, half as many of the 50,000 rounds; the median is shown "
                         "(default %(default)s)")
    args = ap.parse_args()
    if args.ops:
        ops_report()
        return
    if args.cli_only:
        cli_report(args.cli_runs)
        return
    print(f"{'variant':14} {'players':>7} {'build CPU-s':>11} {'rounds/CPU-s':>12} {'baseline':>9} {'ratio':>6}")
    for path in variants():
        v = load_variant(path)
        vid = v.meta.id
        t = cpu()
        game = build_game(v)
        t_build = cpu() - t
        n = BASELINES.get(vid, (None, v.meta.players_default))[1]
        n = min(max(n, v.meta.players_min), v.meta.players_max)
        r = engine_rate(game, n, args.rounds)
        base = ratio = ""
        if vid in BASELINES:
            b = baseline_rate(BASELINES[vid][0], n, max(args.rounds, 20000))
            base, ratio = f"{b:9.0f}", f"{b / r:5.1f}x"
        print(f"{vid:14} {n:7} {t_build:11.3f} {r:12.0f} {base:>9} {ratio:>6}", flush=True)
    if not args.no_cli:
        cli_report(args.cli_runs)
    if not args.no_env:
        for vid in ("otoroku", "kyo-kabu", "kakkuri"):
            print(f"Env {vid:10} {env_rate(vid, 2.0):10.0f} decisions/CPU-s (one-round episodes)", flush=True)
    if not args.no_search:
        med, k, again = search_median("hiraya", args.search_rounds)
        print(f"search bot, Hiraya: median {med:.4f} CPU-s a decision ({k} decisions, default budget; "
              f"{again:.0%} of playout results from deals met again)")


if __name__ == "__main__":
    main()

"""Many seeded rounds, optionally over several processes, and a readable report."""
from __future__ import annotations

import gc
import math

from rulekit.engine.game import Game
from rulekit.analysis.workers import WORKER_GAME, chunk_in_worker, ignore_sigint, remember, stop_now
from rulekit.engine.runner import Stats, run_chunk

CHUNK = 500


def chunks(total: int, size: int = CHUNK) -> list[tuple[int, int]]:
    """(start, count) pieces covering rounds 0..total-1; the unit a distributed runner would submit."""
    return [(s, min(size, total - s)) for s in range(0, total, size)]


def simulate(game: Game, n: int, rounds: int, seed: int = 1, policy: str = "random", jobs: int = 1,
             progress: bool = False, variant_args: tuple | None = None, client: object = None) -> Stats:
    """Play `rounds` independent seeded rounds (seat 0 deals) and merge their statistics.

    `variant_args` = (path, options, preset, deck, house files) lets worker processes rebuild
    the same game; without it the run stays in this process.

    The totals depend only on the seed, never on `jobs`: round i always uses the same seed.
    With a Dask `client` (and `variant_args`), the chunks run on its cluster instead
    (rulekit.analysis.distributed), with the same totals.
    """
    pieces = chunks(rounds)
    # what exists now (the compiled game, the program) lives through the run: the collector
    # need not keep scanning it while rounds come and go
    gc.freeze()
    try:
        return _simulate(game, n, pieces, rounds, seed, policy, jobs, progress, variant_args, client)
    finally:
        gc.unfreeze()


def _simulate(game: Game, n: int, pieces: list, rounds: int, seed: int, policy: str, jobs: int,
              progress: bool, variant_args: tuple | None, client: object = None) -> Stats:
    bar = None
    if progress:
        from tqdm import tqdm
        bar = tqdm(total=rounds, unit="round", desc=game.id, leave=False)
    total = Stats()
    if client is not None:
        if variant_args is None:
            raise ValueError("simulate on a cluster needs variant_args, so that workers can build the game")
        from rulekit.analysis.distributed import simulate_on
        total = simulate_on(client, variant_args, n, pieces, seed, policy, bar.update if bar else None)
    elif jobs <= 1 or variant_args is None or len(pieces) == 1:
        try:
            for start, count in pieces:
                total = total.merge(run_chunk(game, n, seed, start, count, policy))
                if bar:
                    bar.update(count)
        except KeyboardInterrupt:
            raise Interrupted(total) from None
    else:
        # forked workers inherit the game already built here; spawned ones build their own
        key = remember(variant_args, game)  # keyed on the files' contents (analysis.workers)
        from concurrent.futures import ProcessPoolExecutor  # only for parallel runs (start-up of the others)
        pool = ProcessPoolExecutor(max_workers=jobs, initializer=ignore_sigint)
        try:
            futures = [pool.submit(chunk_in_worker, variant_args, n, seed, s, c, policy) for s, c in pieces]
            for fut, (_s, c) in zip(futures, pieces):  # merge in order: identical totals
                total = total.merge(fut.result())
                if bar:
                    bar.update(c)
        except KeyboardInterrupt:
            stop_now(pool)  # not shutdown(wait=True): that would finish every queued chunk first
            raise Interrupted(total) from None
        else:
            pool.shutdown()
        finally:
            WORKER_GAME.pop(key, None)  # the workers have their copy; this process keeps none
    if bar:
        bar.close()
    return total


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a simulation; `partial` holds the rounds merged so far (in order)."""

    def __init__(self, partial: Stats):
        super().__init__("interrupted")
        self.partial = partial


def report(game: Game, stats: Stats) -> str:
    """Per-seat mean and spread (95% interval), win rates, and frequency of every recorded outcome."""
    lines = [f"{game.variant.meta.names.get('en', game.id)}: {stats.rounds} rounds, {stats.n} players, "
             f"deck {game.deck_name}; seat 0 deals every round"]
    lines.append(f"{'seat':>5} {'mean':>9} {'±95%':>8} {'sd':>8} {'win%':>7} {'loss%':>7}")
    for s in range(stats.n):
        m, sd = stats.mean(s), stats.sd(s)
        ci = 1.96 * sd / math.sqrt(stats.rounds) if stats.rounds else 0.0
        lines.append(f"{s:>5} {m:>9.4f} {ci:>8.4f} {sd:>8.3f} {100 * stats.wins[s] / max(1, stats.rounds):>6.2f}% "
                     f"{100 * stats.losses[s] / max(1, stats.rounds):>6.2f}%")
    if stats.records:
        lines.append("outcomes (per round):")
        yaku_names = {y.id: y.names.get("en", y.id) for table in game.yaku.values() for y in table}
        for k, v in sorted(stats.records.items()):
            label = k
            if k.startswith("yaku:"):
                yid = k[5:]
                label = f"yaku {yid} ({yaku_names.get(yid, yid)})"
            lines.append(f"  {label:40} {v:>8}  {v / stats.rounds:.5f}")
    return "\n".join(lines)

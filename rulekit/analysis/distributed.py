"""Simulation on a Dask cluster (extra `rulekit[dask]`): the same seeded chunks as `--jobs`.

Each chunk of rounds depends only on (variant, options, players, seed, first round, count,
policy), so the chunks can run on any worker in any order and merge, in chunk order, to the
totals one process gives. A worker lost during the run loses only its unfinished chunks, which
the scheduler runs again elsewhere: the totals do not change.

    rulekit simulate my-game --rounds 1000000 --scheduler tcp://scheduler:8786

or from Python, with a `dask.distributed.Client`:

    stats = rulekit.simulate("my-game", players=4, rounds=1_000_000, seed=1, client=client)
"""
from __future__ import annotations

import hashlib
from typing import Any, Callable

from rulekit.engine.runner import Stats

__all__ = ["simulate_on", "connect"]


def connect(address: str) -> Any:
    """A Dask client for the scheduler at `address` (a clear error when the extra is missing)."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise SystemExit("rulekit: error: --scheduler needs the dask extra: pip install 'rulekit[dask]'") from None
    return Client(address)


def simulate_on(client: Any, variant_args: tuple, n: int, pieces: list[tuple[int, int]], seed: int, policy: str,
                on_chunk: Callable[[int], None] | None = None) -> Stats:
    """Run `pieces` (start, count) on the cluster behind `client`; merge the Stats in chunk order.

    `variant_args` = (path, options, preset, deck[, house files]) lets each worker build the game.
    `on_chunk(count)` is called as each chunk finishes (for a progress bar)."""
    from dask.distributed import as_completed

    from rulekit.analysis.workers import chunk_in_worker
    # a chunk's key names everything its result depends on: the same chunk is never run twice
    # (the variant's contents included: an edited file is a different chunk, never an old result)
    from rulekit.analysis.workers import content_digest
    files = [variant_args[0], *(variant_args[4] if len(variant_args) > 4 and variant_args[4] else ()),
             *([variant_args[5]] if len(variant_args) > 5 and variant_args[5] else [])]
    what = hashlib.sha256(repr((content_digest(variant_args, files), n, policy)).encode()).hexdigest()[:16]
    futures = [client.submit(chunk_in_worker, variant_args, n, seed, start, count, policy,
                             key=f"rulekit-chunk-{what}-{seed}-{start}-{count}", retries=3)
               for start, count in pieces]
    results: dict[int, Stats] = {}
    index = {f.key: i for i, f in enumerate(futures)}
    try:
        for fut in as_completed(futures):
            results[index[fut.key]] = fut.result()
            if on_chunk is not None:
                on_chunk(pieces[index[fut.key]][1])
    except KeyboardInterrupt:
        client.cancel(futures)
        raise
    total = Stats()
    for i in range(len(pieces)):  # merge in chunk order: the same totals as one process
        total = total.merge(results[i])
    return total

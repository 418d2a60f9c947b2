"""What runs in a worker process: the game built once per worker, a chunk of rounds, Ctrl-C handling."""
from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor

from rulekit.engine.game import Game
from rulekit.engine.runner import Stats, run_chunk

WORKER_GAME: dict[tuple, Game] = {}


def chunk_in_worker(variant_args: tuple, n: int, seed: int, start: int, count: int, policy: str) -> Stats:
    """Build the game once per worker process, then play one chunk."""
    key = repr(variant_args)
    game = WORKER_GAME.get(key)
    if game is None:
        from rulekit.engine.build import build_game, load_variant
        path, options, preset, deck, *rest = variant_args
        house = tuple(rest[0]) if rest else ()
        game = build_game(load_variant(path, house=house), dict(options or {}), preset, deck)
        if len(rest) > 1 and rest[1]:  # a statistics file (rulekit.engine.statsdecl), read on the worker too
            from rulekit.engine.statsdecl import prepare
            game = prepare(game, rest[1])
        WORKER_GAME[key] = game
    return run_chunk(game, n, seed, start, count, policy)


def ignore_sigint() -> None:
    """Workers leave Ctrl-C to the main process, which stops them."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def stop_now(pool: ProcessPoolExecutor) -> None:
    """Cancel queued chunks and end the worker processes at once."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        p.terminate()
    for p in procs:
        p.join(1.0)

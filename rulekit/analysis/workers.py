"""What runs in a worker process: the game built once per worker, a chunk of rounds, Ctrl-C handling.

A worker keeps the games it built, keyed on their content: a digest of every file the game was
read from (the variant, its parents, house-rule and statistics files) together with the
options, preset and deck. Before a chunk it digests those files again, so a file edited while
workers live is read afresh: a long-running cluster never answers with the old rules.
"""
from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Callable

from rulekit.engine.game import Game
from rulekit.engine.runner import Stats, run_chunk

if TYPE_CHECKING:  # the pool is made by the callers of parallel runs only
    from concurrent.futures import ProcessPoolExecutor

WORKER_GAME: dict[str, Game] = {}        # content digest -> game
_FILES: dict[str, tuple[str, ...]] = {}  # repr(variant_args) -> the files its game was read from
_KEEP = 8  # games kept per worker (each edit of a file makes a new one)


def content_digest(variant_args: tuple, files: tuple[str, ...] | list[str]) -> str:
    """A digest of the arguments and of the bytes of every file (a missing file counts as such)."""
    h = hashlib.sha256(repr(variant_args).encode())
    for f in files:
        h.update(b"\0" + str(f).encode() + b"\0")
        try:
            with open(f, "rb") as fh:
                h.update(hashlib.sha256(fh.read()).digest())
        except OSError:
            h.update(b"<missing>")
    return h.hexdigest()


def game_files(game: Game, variant_args: tuple) -> tuple[str, ...]:
    """Every file a game built from `variant_args` was read from."""
    extra = [variant_args[5]] if len(variant_args) > 5 and variant_args[5] else []
    return tuple(game.variant.files) + tuple(str(x) for x in extra)


def cached_game(variant_args: tuple, build: Callable[[tuple], Game]) -> Game:
    """The game for `variant_args`, built by `build` unless one built from the same file contents is kept."""
    files = _FILES.get(repr(variant_args))
    if files is not None:
        game = WORKER_GAME.get(content_digest(variant_args, files))
        if game is not None:
            return game
    game = build(variant_args)
    files = _FILES[repr(variant_args)] = game_files(game, variant_args)
    WORKER_GAME[content_digest(variant_args, files)] = game
    while len(WORKER_GAME) > _KEEP:
        WORKER_GAME.pop(next(iter(WORKER_GAME)))
    return game


def remember(variant_args: tuple, game: Game) -> str:
    """Keep an already built game (a forked pool inherits it); returns its content key."""
    files = _FILES[repr(variant_args)] = game_files(game, variant_args)
    key = content_digest(variant_args, files)
    WORKER_GAME[key] = game
    return key


def _build(variant_args: tuple) -> Game:
    from rulekit.engine.build import build_game, load_variant
    path, options, preset, deck, *rest = variant_args
    house = tuple(rest[0]) if rest and rest[0] else ()
    game = build_game(load_variant(path, house=house), dict(options or {}), preset, deck)
    if len(rest) > 1 and rest[1]:  # a statistics file (rulekit.engine.statsdecl), read on the worker too
        from rulekit.engine.statsdecl import prepare
        game = prepare(game, rest[1])
    return game


def chunk_in_worker(variant_args: tuple, n: int, seed: int, start: int, count: int, policy: str) -> Stats:
    """Build the game once per worker process (again when its files change), then play one chunk."""
    return run_chunk(cached_game(variant_args, _build), n, seed, start, count, policy)


def ignore_sigint() -> None:
    """Workers leave Ctrl-C to the main process, which stops them."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def stop_now(pool: ProcessPoolExecutor) -> None:
    """Cancel queued chunks and end the worker processes at once."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown() forgets it
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        p.terminate()
    for p in procs:
        p.join(1.0)
    # the pool's manager thread closes its wake-up pipe once it sees the workers gone; if that
    # happens while the interpreter exits, the exit hook of concurrent.futures writes to the
    # closed pipe and prints a traceback: let the thread finish first
    if manager is not None:
        manager.join(5.0)

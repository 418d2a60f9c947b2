"""Simulations for the website: every variant once per build, in parallel, cached on disk.

The cache key covers the variant files, every deck file and the engine's source, so a
cached result is only reused when nothing that could change it has changed.
"""
from __future__ import annotations

import glob
import hashlib
import json
import math
import os
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from fractions import Fraction

from typing import Any, Iterator

from rulekit.engine.runner import Stats

from rulekit.core.paths import PACKAGE_DIR as PKG

#: games already built in this process, by variant path: the site's own (rulekit.website.load_entries builds
#: each once), inherited by the forked workers, so a simulation does not load and build its variant again
_BUILT: dict[str, Any] = {}


def remember(path: str, game: Any) -> None:
    """Let this process's simulations (and the workers it forks from now on) play `path` on this built game
    (the variant under its default options, as `load_variant(path)` and `build_game` make it)."""
    _BUILT[os.path.abspath(path)] = game


def default_game(path: str) -> Any:
    """The game of the variant at `path` under its default options: the one remembered, else built now."""
    game = _BUILT.get(os.path.abspath(path))
    if game is None:
        from rulekit.engine.build import build_game, load_variant
        game = build_game(load_variant(path))
    return game


def cache_digest(paths: list[str], extra: str) -> str:
    d = hashlib.sha256(extra.encode())
    for p in paths:
        try:
            with open(p, "rb") as fh:
                d.update(p.encode() + b"\0" + fh.read())
        except OSError:
            d.update(p.encode() + b"\0missing")
    return d.hexdigest()


def engine_files() -> list[str]:
    files = sorted(glob.glob(os.path.join(PKG, "**", "*.py"), recursive=True))
    files += sorted(glob.glob(os.path.join(PKG, "lang", "decks", "*.yaml")))
    files += sorted(glob.glob(os.path.join(PKG, "lang", "expr", "*.lark")))
    files += sorted(glob.glob(os.path.join(PKG, "lang", "expr", "*.json")))  # the parser's stored tables
    return [f for f in files if os.sep + "website" + os.sep not in f]


@contextmanager
def long_lived() -> Iterator[None]:
    """Keep the cyclic collector off everything that exists now (it lives on through the block: scanning it
    again at each collection is wasted). Inside an outer block (or in a worker forked in one) nothing more is
    kept: what the block makes and drops is still collected."""
    import gc
    if gc.get_freeze_count() > 0:
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def keep_long_lived() -> None:
    """Inside a `long_lived` block, keep the collector off everything that exists now as well, until the block
    ends (what was just made lives as long: the games of the house-rule changes); outside one, nothing."""
    import gc
    if gc.get_freeze_count() > 0:
        gc.freeze()


def fork_pool(workers: int) -> ProcessPoolExecutor:
    """A process pool whose workers are forked where the platform allows (they inherit what is loaded)."""
    import multiprocessing
    try:
        mp = multiprocessing.get_context("fork")
    except ValueError:
        mp = None
    return ProcessPoolExecutor(max_workers=workers, mp_context=mp)


FORMAT = "stats-2"  # bump when the cached result's shape changes (2: each round's results kept, for the effects)


def cache_key(variant_files: tuple[str, ...], n: int, rounds: int, seed: int, policy: str) -> str:
    return cache_digest(list(variant_files) + engine_files(), json.dumps([FORMAT, n, rounds, seed, policy]))


def _num(x):
    return str(x) if isinstance(x, Fraction) else x


def _unnum(x):
    if isinstance(x, str):
        f = Fraction(x)
        return int(f) if f.denominator == 1 else f
    return x


def to_dict(s: Stats) -> dict:
    return {"rounds": s.rounds, "n": s.n, "total": [_num(x) for x in s.total],
            "total_sq": [_num(x) for x in s.total_sq], "wins": s.wins, "losses": s.losses, "records": s.records}


def from_dict(d: dict) -> Stats:
    return Stats(d["rounds"], d["n"], [_unnum(x) for x in d["total"]], [_unnum(x) for x in d["total_sq"]],
                 list(d["wins"]), list(d["losses"]), dict(d["records"]))


def _run(path: str, n: int, rounds: int, seed: int, policy: str, keep: int = 0) -> dict:
    """The statistics of `rounds` seeded rounds (as `simulate` plays them: round i on round_seed(seed, i),
    seat 0 dealing), with the first `keep` rounds' results per seat under "rows" (runs in a worker process)."""
    from rulekit.analysis.simulate import chunks
    from rulekit.engine.runner import run_chunk
    game = default_game(path)
    rows: list = []
    total = Stats()
    with long_lived():  # what exists now lives through the run: the collector need not scan it (as simulate does)
        for start, count in chunks(rounds):  # simulate's chunks, merged in order: the same totals
            total = total.merge(run_chunk(game, n, seed, start, count, policy, rows=rows))
            del rows[keep:]
    return {**to_dict(total), "rows": [[_num(x) for x in r] for r in rows]}


def _number(x: object) -> bool:
    return (isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)) or isinstance(x, Fraction)


def well_formed(d: dict, n: int, rounds: int) -> bool:
    """Whether a cached result has the shape this build writes for n seats and `rounds` rounds (a file
    damaged or from elsewhere is played again, not shown)."""
    if not isinstance(d, dict) or d.get("rounds") != rounds or d.get("n") != n:
        return False
    per_seat = [d.get(k) for k in ("total", "total_sq", "wins", "losses")]
    if not all(isinstance(xs, list) and len(xs) == n for xs in per_seat):
        return False
    s = from_dict(d)
    rows = rounds_of(d)
    return (all(_number(x) for xs in (s.total, s.total_sq) for x in xs)
            and all(isinstance(x, int) and not isinstance(x, bool) for xs in (s.wins, s.losses) for x in xs)
            and isinstance(s.records, dict) and all(isinstance(k, str) and isinstance(c, int) for k, c in s.records.items())
            and all(isinstance(r, list) and len(r) == n and all(_number(x) for x in r) for r in rows))


def rounds_of(d: dict) -> list[list]:
    """The rounds' results per seat kept with a cached or new result (see `play_all`)."""
    return [[_unnum(x) for x in r] for r in d.get("rows", [])]


def simulate_all(jobs: list[tuple], rounds: int, seed: int = 1, policy: str = "random",
                 cache_dir: str | None = None, workers: int | None = None) -> dict[str, Stats]:
    """Simulate every (path, files, players[, policy]) job; returns path -> Stats.

    A job's own policy (its fourth item) overrides `policy`.
    """
    return {p: s for p, (s, _rows) in play_all(jobs, rounds, seed, policy, cache_dir, workers).items()}


def play_all(jobs: list[tuple], rounds: int, seed: int = 1, policy: str = "random", cache_dir: str | None = None,
             workers: int | None = None, keep: int = 0) -> dict[str, tuple[Stats, list[list]]]:
    """Like `simulate_all`, with each job's first `keep` rounds' results per seat (the default rules' rounds
    the house-rule effects are paired with: rulekit.website.effects plays the same seeds, so they are not
    played twice); path -> (Stats, rounds)."""
    out: dict[str, tuple[Stats, list[list]]] = {}
    todo = []
    keys = {}
    policies = {}
    keep = min(keep, rounds)
    for path, files, n, *rest in jobs:
        policies[path] = rest[0] if rest else policy
        key = cache_key(files, n, rounds, seed, policies[path])
        keys[path] = key
        cached = os.path.join(cache_dir, key + ".json") if cache_dir else None
        if cached and os.path.isfile(cached):
            try:  # JSON only, checked as read: a damaged or foreign file is played again, never run
                with open(cached, encoding="utf-8") as fh:
                    d = json.load(fh)
                got = (from_dict(d), rounds_of(d)) if well_formed(d, n, rounds) else (None, [])
                if got[0] is not None and len(got[1]) >= keep:
                    out[path] = got[0], got[1][:keep]
                    continue
            except (OSError, ValueError, KeyError, TypeError, ZeroDivisionError):
                pass
        todo.append((path, n))
    results: dict[str, dict] = {}
    workers = workers or min(len(todo), os.cpu_count() or 1)
    if len(todo) > 1 and workers > 1:
        with fork_pool(workers) as pool:
            futs = {path: pool.submit(_run, path, n, rounds, seed, policies[path], keep) for path, n in todo}
            for path, fut in futs.items():
                results[path] = fut.result()
    else:
        for path, n in todo:
            results[path] = _run(path, n, rounds, seed, policies[path], keep)
    for path, d in results.items():
        out[path] = from_dict(d), rounds_of(d)
        if cache_dir:
            try:
                os.makedirs(cache_dir, exist_ok=True)
                tmp = os.path.join(cache_dir, keys[path] + ".tmp")
                with open(tmp, "w", encoding="utf-8") as fh:
                    json.dump(d, fh)
                os.replace(tmp, os.path.join(cache_dir, keys[path] + ".json"))
            except OSError:
                pass
    return out

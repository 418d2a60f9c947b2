"""Simulations for the website: every variant once per build, in parallel, cached on disk.

The cache key covers the variant files, every deck file and the engine's source, so a
cached result is only reused when nothing that could change it has changed.
"""
from __future__ import annotations

import glob
import hashlib
import json
import os
from concurrent.futures import ProcessPoolExecutor
from fractions import Fraction

from rulekit.engine.runner import Stats

from rulekit.core.paths import PACKAGE_DIR as PKG


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
    return [f for f in files if os.sep + "website" + os.sep not in f]


def fork_pool(workers: int) -> ProcessPoolExecutor:
    """A process pool whose workers are forked where the platform allows (they inherit what is loaded)."""
    import multiprocessing
    try:
        mp = multiprocessing.get_context("fork")
    except ValueError:
        mp = None
    return ProcessPoolExecutor(max_workers=workers, mp_context=mp)


def cache_key(variant_files: tuple[str, ...], n: int, rounds: int, seed: int, policy: str) -> str:
    return cache_digest(list(variant_files) + engine_files(), json.dumps([n, rounds, seed, policy]))


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


def _run(path: str, n: int, rounds: int, seed: int, policy: str) -> dict:
    from rulekit.engine.build import build_game, load_variant
    from rulekit.analysis.simulate import simulate
    game = build_game(load_variant(path))
    return to_dict(simulate(game, n, rounds, seed, policy))


def simulate_all(jobs: list[tuple], rounds: int, seed: int = 1, policy: str = "random",
                 cache_dir: str | None = None, workers: int | None = None) -> dict[str, Stats]:
    """Simulate every (path, files, players[, policy]) job; returns path -> Stats.

    A job's own policy (its fourth item) overrides `policy`.
    """
    out: dict[str, Stats] = {}
    todo = []
    keys = {}
    policies = {}
    for path, files, n, *rest in jobs:
        policies[path] = rest[0] if rest else policy
        key = cache_key(files, n, rounds, seed, policies[path])
        keys[path] = key
        cached = os.path.join(cache_dir, key + ".json") if cache_dir else None
        if cached and os.path.isfile(cached):
            try:
                with open(cached, encoding="utf-8") as fh:
                    out[path] = from_dict(json.load(fh))
                continue
            except (OSError, ValueError, KeyError):
                pass
        todo.append((path, n))
    results: dict[str, dict] = {}
    workers = workers or min(len(todo), os.cpu_count() or 1)
    if len(todo) > 1 and workers > 1:
        with fork_pool(workers) as pool:
            futs = {path: pool.submit(_run, path, n, rounds, seed, policies[path]) for path, n in todo}
            for path, fut in futs.items():
                results[path] = fut.result()
    else:
        for path, n in todo:
            results[path] = _run(path, n, rounds, seed, policies[path])
    for path, d in results.items():
        out[path] = from_dict(d)
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

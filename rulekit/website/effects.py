"""What each house rule does: every option value and preset played against the defaults on paired seeds.

For each variant the site plays the same seeded rounds (same deal, same agents' seeds) under
the default rules and under each change, and reports the change in every role's result per
round - the dealer (seat 0 deals every simulated round) and the other players on average -
with a 95% interval. Results are cached on disk like the statistics (rulekit/website/stats.py):
the key covers the variant files, every deck file and the engine's source.
"""
from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from typing import Any

from rulekit.lang.model import Variant
from rulekit.website.stats import cache_digest, engine_files, fork_pool

FORMAT = "effects-1"  # bump when the cached result's shape changes
GROUP = 8  # changes per worker job: big variants are spread over the workers


@dataclass(frozen=True)
class Change:
    """One departure from the default rules: an option set to another value, or a preset."""

    key: str  # stable id, e.g. "option:tie=dealer" or "preset:kansai"
    option: str | None = None
    value: Any = None
    preset: str | None = None

    def build_args(self) -> tuple[dict, str | None]:
        """(options, preset) for build_game."""
        return ({self.option: self.value} if self.option is not None else {}), self.preset


def int_alternative(o: Any) -> int | None:
    """The other value tried for a whole-number option: double the default (1 for 0), kept within its bounds."""
    d = int(o.default)
    alt = d * 2 if d > 0 else 1
    if o.max is not None:
        alt = min(alt, int(o.max))
    if o.min is not None:
        alt = max(alt, int(o.min))
    if alt == d:
        alt = d - 1 if o.min is None or d - 1 >= int(o.min) else None
    return alt


def changes(variant: Variant) -> list[Change]:
    """Every non-default value of every option (one other value for whole numbers), then every preset."""
    out: list[Change] = []
    for o in variant.options.values():
        if o.type == "choice":
            vals = [k for k, _desc in o.values if str(k) != str(o.default)]
        elif o.type == "bool":
            vals = [not bool(o.default)]
        else:
            alt = int_alternative(o)
            vals = [] if alt is None else [alt]
        for v in vals:
            shown = ("true" if v else "false") if isinstance(v, bool) else v
            out.append(Change(f"option:{o.name}={shown}", option=o.name, value=v))
    for p in variant.presets.values():
        out.append(Change(f"preset:{p.name}", preset=p.name))
    return out


def site_policy(game: Any) -> str:
    """The strategy the site plays: the rules file's `careful` policy, else its first policy, else random."""
    if "careful" in game.policies:
        return "careful"
    return next(iter(game.policies), "random")


def _interval(diffs: list[float]) -> tuple[float, float]:
    """Mean and margin of its 95% interval (normal approximation)."""
    r = len(diffs)
    if r == 0:
        return 0.0, 0.0
    m = sum(diffs) / r
    if r < 2:
        return m, 0.0
    var = sum((d - m) ** 2 for d in diffs) / (r - 1)
    return m, 1.96 * math.sqrt(var / r)


def role_effects(base: list[list[float]], changed: list[list[float]]) -> dict:
    """Paired change per round for the dealer (seat 0) and the other players' average, with intervals."""
    dealer = [float(b[0]) - float(a[0]) for a, b in zip(base, changed)]
    n = len(base[0]) if base else 1
    others = [sum(float(b[s]) - float(a[s]) for s in range(1, n)) / max(1, n - 1) for a, b in zip(base, changed)]
    same = sum(1 for a, b in zip(base, changed) if list(a) == list(b))
    dm, dci = _interval(dealer)
    om, oci = _interval(others)
    base_d, _ = _interval([float(a[0]) for a in base])
    base_o, _ = _interval([sum(float(a[s]) for s in range(1, n)) / max(1, n - 1) for a in base])
    return {"dealer": [dm, dci], "others": [om, oci], "unchanged_rounds": same, "rounds": len(base),
            "base": {"dealer": base_d, "others": base_o}}


def _job(path: str, n: int, rounds: int, seed: int, policy: str, todo: list[tuple]) -> dict[str, dict]:
    """Play the default rules and each change on the same seeds (runs in a worker process)."""
    from rulekit.engine.build import build_game, load_variant
    from rulekit.analysis.compare import seeded_rounds
    variant = load_variant(path)
    base_game = build_game(variant)
    base = [list(d) for d, _r in seeded_rounds(base_game, n, rounds, seed, policy)]
    out: dict[str, dict] = {}
    for key, option, value, preset in todo:
        ch = Change(key, option, value, preset)
        try:
            opts, pre = ch.build_args()
            game = build_game(variant, opts, pre)
            pol = policy if policy in game.policies or policy == "random" else "random"
            played = [list(d) for d, _r in seeded_rounds(game, n, rounds, seed, pol)]
            out[key] = role_effects(base, played)
        except Exception as exc:  # noqa: BLE001 - shown on the page as "could not be played"
            out[key] = {"error": " ".join(str(exc).split())[:300]}
    return out


def effects_key(files: tuple[str, ...], n: int, rounds: int, seed: int, policy: str, keys: list[str]) -> str:
    return cache_digest(list(files) + engine_files() + [os.path.abspath(__file__)], json.dumps([FORMAT, n, rounds, seed, policy, keys]))


def effects_all(jobs: list[tuple[str, tuple[str, ...], int, str, list[Change]]], rounds: int, seed: int = 1,
                cache_dir: str | None = None, workers: int | None = None) -> dict[str, dict[str, dict]]:
    """For every (path, files, players, policy, changes) job: path -> change key -> role effects."""
    out: dict[str, dict[str, dict]] = {}
    pending: dict[str, tuple[str, list]] = {}  # path -> (cache key, changes)
    units = []  # (path, n, policy, group of changes)
    for path, files, n, policy, chs in jobs:
        key = effects_key(files, n, rounds, seed, policy, [c.key for c in chs])
        cached = os.path.join(cache_dir, key + ".json") if cache_dir else None
        if cached and os.path.isfile(cached):
            try:
                with open(cached, encoding="utf-8") as fh:
                    out[path] = json.load(fh)
                continue
            except (OSError, ValueError):
                pass
        pending[path] = (key, chs)
        for i in range(0, len(chs), GROUP):
            units.append((path, n, policy, [(c.key, c.option, c.value, c.preset) for c in chs[i:i + GROUP]]))
    results: dict[str, dict] = {path: {} for path in pending}
    workers = workers or min(len(units), os.cpu_count() or 1)
    if len(units) > 1 and workers > 1:
        with fork_pool(workers) as pool:
            futs = [(path, pool.submit(_job, path, n, rounds, seed, policy, todo)) for path, n, policy, todo in units]
            for path, fut in futs:
                results[path].update(fut.result())
    else:
        for path, n, policy, todo in units:
            results[path].update(_job(path, n, rounds, seed, policy, todo))
    for path, (key, chs) in pending.items():
        d = {c.key: results[path][c.key] for c in chs}  # in the order of the changes, whatever ran first
        out[path] = d
        if cache_dir:
            try:
                os.makedirs(cache_dir, exist_ok=True)
                tmp = os.path.join(cache_dir, key + ".tmp")
                with open(tmp, "w", encoding="utf-8") as fh:
                    json.dump(d, fh)
                os.replace(tmp, os.path.join(cache_dir, key + ".json"))
            except OSError:
                pass
    return out

"""What each house rule does: every option value and preset played against the defaults on paired seeds.

For each variant the site plays the same seeded rounds (same deal, same agents' seeds) under
the default rules and under each change, and reports the change in every role's result per
round - the dealer (seat 0 deals every simulated round) and the other players on average -
with a 95% interval. Results are cached on disk like the statistics (rulekit/website/stats.py):
the key covers the variant files, every deck file and the engine's source. A change that plays the same
rules as the defaults or as another change, or moves only options no round reads (the game's length:
`round_free_options`), is built (so a refused one is reported) but its rounds are not played again.
"""
from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass
from typing import Any

from rulekit.lang.model import Variant
from rulekit.website.stats import cache_digest, default_game, engine_files, fork_pool, keep_long_lived, long_lived

FORMAT = "effects-4"  # bump when the cached result's shape or the way it is computed changes
GROUP = 8  # changes per worker job: big variants are spread over the workers
MIN_ROUNDS = 100  # paired rounds every change plays at least
STEP = 100  # then checked every STEP rounds: played on only while an interval is not yet tight
TIGHT_SPREAD = 0.1  # an interval within a tenth of one round's spread (standard deviation) is tight


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


#: the parts of a rules file no single simulated round reads: words, and the game's length (the site plays
#: each round on its own, telling the engine to play one: the number of rounds in a game, and whether it has
#: one, are never worked out)
_WORDS_ONLY = ("meta", "rules", "options", "presets", "example")
_GAME_LENGTH = ("rounds", "open_ended")


def _strings(data: Any) -> list[str]:
    """Every text in a rules file's tree (values, not keys)."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [t for v in data.values() for t in _strings(v)]
    if isinstance(data, list):
        return [t for v in data for t in _strings(v)]
    return []


def round_free_options(variant: Variant) -> frozenset[str]:
    """The options no simulated round can read: no rule names them (opt.NAME) but words and the game's length.

    A change of these alone plays every round as the default rules do (each round is played on its own, the
    dealer fixed), so its rounds are the defaults' rounds and need not be played again."""
    from rulekit.lang.loader import plain
    data = plain(variant.tree)
    rest = {k: v for k, v in data.items() if k not in _WORDS_ONLY}
    if isinstance(rest.get("game"), dict):
        rest["game"] = {k: v for k, v in rest["game"].items() if k not in _GAME_LENGTH}
    texts = _strings(rest)
    return frozenset(name for name in variant.options
                     if not any(re.search(rf"\bopt\s*\.\s*{re.escape(name)}\b", t) for t in texts))


def changed_options(variant: Variant, ch: Change) -> frozenset[str] | None:
    """The options whose value a change moves from the default (None when it changes the deck or does not
    resolve: such a change is played)."""
    from rulekit.engine.build import resolve_options
    try:
        opts, pre = ch.build_args()
        values = resolve_options(variant, opts, pre)
        default = resolve_options(variant)
    except Exception:  # noqa: BLE001 - a change that does not build is reported when it is played
        return None
    if pre and variant.presets[pre].deck:
        return None
    return frozenset(k for k, v in values.items() if repr(v) != repr(default.get(k)))


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


def spread(base: list[list[float]]) -> dict[str, float]:
    """How much one round's result varies under the default rules, per role (standard deviations)."""
    n = len(base[0]) if base else 1
    out = {}
    for role, xs in (("dealer", [float(a[0]) for a in base]),
                     ("others", [sum(float(a[s]) for s in range(1, n)) / max(1, n - 1) for a in base])):
        m = sum(xs) / len(xs) if xs else 0.0
        out[role] = math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1)) if len(xs) > 1 else 0.0
    return out


def tight(res: dict, base_spread: dict[str, float] | None = None) -> bool:
    """Whether both roles' intervals are already tight: the effect known to within a quarter of its size, to
    within the last digit the page shows, or to within TIGHT_SPREAD of what one round's result varies by under
    the default rules (an effect of none, in rounds that never changed, is tight)."""
    sp = base_spread or {}
    return all(ci <= 0.005 or ci <= abs(m) / 4 or ci <= TIGHT_SPREAD * sp.get(role, 0.0)
               for role, (m, ci) in (("dealer", res["dealer"]), ("others", res["others"])))


def _rounds(game: Any, n: int, start: int, stop: int, seed: int, policy: str) -> list[list]:
    """Each round's result per seat, rounds start..stop-1 on the seeds of analysis.compare.seeded_rounds (round i
    gets the same shuffle and agents under any rules: the pairing), seat 0 dealing: played as `simulate` plays
    them (one state restarted each round: rulekit.engine.runner.run_chunk, the same rounds as a fresh play())."""
    from rulekit.engine.runner import run_chunk
    rows: list[list] = []
    if stop > start:
        run_chunk(game, n, seed, start, stop - start, policy, dealer=0, rows=rows)
    return [list(r) for r in rows]


def _base_job(path: str, n: int, rounds: int, seed: int, policy: str) -> list[list]:
    """The first `rounds` rounds' results per seat under the default rules (runs in a worker process)."""
    return list(_rounds(default_game(path), n, 0, rounds, seed, policy))


def _job(path: str, n: int, rounds: int, seed: int, policy: str, todo: list[tuple],
         base: list[list] | None = None) -> dict[str, dict]:  # base: the default rules' first rounds, if played
    """Play each change on the default rules' seeds (runs in a worker process): in steps of STEP rounds from
    MIN_ROUNDS on, stopping once the intervals are tight (`tight`), else after `rounds`."""
    with long_lived():  # what exists now lives through the job: the collector need not scan it (as simulate does)
        return _play_changes(path, n, rounds, seed, policy, todo, base)


#: the games of the house-rule changes, built in the site's process before its workers fork (they inherit them),
#: by (variant path, settings): the "Your table" panel plays its quick reference on the same games afterwards
_CHANGE_GAMES: dict[tuple[str, str], Any] = {}


def prebuild_changes(path: str, variant: Variant, chs: list[Change]) -> None:
    """Build each change's game once in this process (one the rules refuse is left to be built, and reported,
    where it is played)."""
    from rulekit.engine.build import build_game
    for ch in chs:
        st = settings(variant, ch)
        if st is None or (os.path.abspath(path), st) in _CHANGE_GAMES:
            continue
        try:
            opts, pre = ch.build_args()
            _CHANGE_GAMES[(os.path.abspath(path), st)] = build_game(variant, opts, pre)
        except Exception:  # noqa: BLE001 - reported by the worker that plays it
            continue


def forget_change_games() -> None:
    """Drop the games prebuild_changes kept (once the pages that read them are made: what runs after the site's
    build, mkdocs itself, need not carry them, nor its collector walk them)."""
    _CHANGE_GAMES.clear()


def change_game(path: str, st: str | None) -> Any:
    """The game built for these settings of the variant at `path` (see prebuild_changes), else None."""
    return _CHANGE_GAMES.get((os.path.abspath(path), st)) if st is not None else None


def _play_changes(path: str, n: int, rounds: int, seed: int, policy: str, todo: list[tuple],
                  base: list[list] | None) -> dict[str, dict]:
    from rulekit.engine.build import build_game
    base_game = default_game(path)
    variant = base_game.variant
    base = list(base or [])
    out: dict[str, dict] = {}
    for key, option, value, preset, *screen in todo:
        ch = Change(key, option, value, preset)
        try:
            opts, pre = ch.build_args()
            # built all the same: a change the rules refuse is reported
            game = change_game(path, settings(variant, ch)) or build_game(variant, opts, pre)
            pol = policy if policy in game.policies or policy == "random" else "random"
            played: list[list] = []
            if screen and screen[0] and pol == policy:
                # no rule a round reads changed (round_free_options): its rounds are the defaults' rounds,
                # as many as playing them would take (the intervals of no change are tight at once)
                want = min(rounds, MIN_ROUNDS)
                if len(base) < want:
                    base += _rounds(base_game, n, len(base), want, seed, policy)
                out[key] = role_effects(base[:want], base[:want])
                continue
            done = 0
            while done < rounds:
                # on to the next point where the intervals are checked (a multiple of STEP, MIN_ROUNDS at least)
                stop = min(rounds, -(-max(done + 1, MIN_ROUNDS) // STEP) * STEP)
                if len(base) < stop:  # the default rules' rounds, played on as far as a change needs them
                    base += _rounds(base_game, n, len(base), min(rounds, max(stop, len(base) + STEP)), seed, policy)
                played += _rounds(game, n, done, stop, seed, pol)
                done = stop
                if done < rounds and tight(role_effects(base[:done], played), spread(base[:MIN_ROUNDS])):
                    break
            out[key] = role_effects(base[:len(played)], played)
        except Exception as exc:  # noqa: BLE001 - shown on the page as "could not be played"
            out[key] = {"error": " ".join(str(exc).split())[:300]}
    return out


def settings(variant: Variant, ch: Change | None) -> str | None:
    """The rules a change plays (every option's value and the deck), to find changes that play the same game;
    None when they cannot be worked out (the change is then played on its own)."""
    from rulekit.engine.build import resolve_options
    try:
        opts, pre = ch.build_args() if ch is not None else ({}, None)
        values = resolve_options(variant, opts, pre)
    except Exception:  # noqa: BLE001 - a change that does not build is reported when it is played
        return None
    deck = variant.presets[pre].deck if pre and variant.presets[pre].deck else None
    return json.dumps([sorted((k, repr(v)) for k, v in values.items()), deck])


def values_settings(variant: Variant, values: dict[str, Any]) -> str | None:
    """settings() of the rules these option values play (the default deck); None when they do not resolve."""
    from rulekit.engine.build import resolve_options
    try:
        resolved = resolve_options(variant, values)
    except Exception:  # noqa: BLE001 - built (and refused) by the caller
        return None
    return json.dumps([sorted((k, repr(v)) for k, v in resolved.items()), None])


def _pair(x: object) -> bool:
    return isinstance(x, list) and len(x) == 2 and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                      and math.isfinite(v) for v in x)


def well_formed(d: object, keys: list[str]) -> bool:
    """Whether a cached result has the shape effects_all writes for these changes (a file damaged or from
    elsewhere is played again, never shown)."""
    if not isinstance(d, dict) or sorted(d) != sorted(keys):
        return False
    for r in d.values():
        if not isinstance(r, dict):
            return False
        if "error" in r:
            if not isinstance(r["error"], str):
                return False
            continue
        base = r.get("base")
        rounds, same = r.get("rounds"), r.get("unchanged_rounds")
        if not (_pair(r.get("dealer")) and _pair(r.get("others")) and isinstance(rounds, int)
                and isinstance(same, int) and 0 <= same <= rounds and rounds > 0 and isinstance(base, dict)
                and _pair([base.get("dealer"), base.get("others")])):
            return False
    return True


def effects_key(files: tuple[str, ...], n: int, rounds: int, seed: int, policy: str, keys: list[str]) -> str:
    return cache_digest(list(files) + engine_files() + [os.path.abspath(__file__)], json.dumps([FORMAT, n, rounds, seed, policy, keys]))


def effects_all(jobs: list[tuple[str, tuple[str, ...], int, str, list[Change]]], rounds: int, seed: int = 1,
                cache_dir: str | None = None, workers: int | None = None,
                bases: dict[str, list[list]] | None = None) -> dict[str, dict[str, dict]]:
    """For every (path, files, players, policy, changes) job: path -> change key -> role effects.

    `bases`: path -> the default rules' first rounds' results per seat on these seeds, where already played
    (the statistics play them: rulekit.website.stats.play_all); the rest are played here."""
    out: dict[str, dict[str, dict]] = {}
    pending: dict[str, tuple[str, list, int, str]] = {}  # path -> (cache key, changes, players, policy)
    for path, files, n, policy, chs in jobs:
        key = effects_key(files, n, rounds, seed, policy, [c.key for c in chs])
        cached = os.path.join(cache_dir, key + ".json") if cache_dir else None
        if cached and os.path.isfile(cached):
            try:
                with open(cached, encoding="utf-8") as fh:
                    d = json.load(fh)
                if well_formed(d, [c.key for c in chs]):  # JSON only, checked: a damaged file is played again
                    out[path] = d
                    continue
            except (OSError, ValueError):
                pass
        pending[path] = (key, chs, n, policy)
    # the default rules' rounds: played once per variant (or taken from the statistics), shared by all its changes
    given = {p: list(b) for p, b in (bases or {}).items() if p in pending and len(b) >= min(rounds, MIN_ROUNDS)}
    base = _run_all([(p, (_base_job, (p, n, min(rounds, MIN_ROUNDS), seed, pol)))
                     for p, (_k, _c, n, pol) in pending.items() if p not in given], workers)
    base.update(given)
    # a change that plays the same rules as the defaults, or as another change (a preset of one option), is
    # not played again: it takes the defaults' rounds, or the other change's result
    same: dict[str, dict[str, str | None]] = {}  # path -> change key -> key of the change it equals (None: the defaults)
    units = []
    for path, (_key, chs, n, policy) in pending.items():
        variant = default_game(path).variant
        free = round_free_options(variant)
        seen: dict[str, str | None] = {}
        default = settings(variant, None)
        if default is not None:
            seen[default] = None
        same[path] = {}
        todo = []
        for c in chs:
            st = settings(variant, c)
            if st is not None and st in seen:
                same[path][c.key] = seen[st]
                continue
            if st is not None:
                seen[st] = c.key
            moved = changed_options(variant, c)
            todo.append((c.key, c.option, c.value, c.preset, moved is not None and moved <= free))
        # built here, before the workers fork: they inherit them, and the pages' panels read them after
        prebuild_changes(path, variant, [Change(k, o, x, pr) for k, o, x, pr, _f in todo])
        for i in range(0, len(todo), GROUP):
            units.append((path, (_job, (path, n, rounds, seed, policy, todo[i:i + GROUP], base[path]))))
    # the change games live through the build: in a site build the collector no longer walks them (each full
    # collection walked them all: some 0.4 CPU-s each, in this process and in every worker forked from it)
    keep_long_lived()
    results: dict[str, dict] = {path: {} for path in pending}
    for path, res in _run_many(units, workers):
        results[path].update(res)
    for path, equal in same.items():
        for k, other in equal.items():
            results[path][k] = role_effects(base[path], base[path]) if other is None else results[path][other]
    for path, (key, chs, _n, _pol) in pending.items():
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


def _run_many(units: list[tuple[str, tuple]], workers: int | None) -> list[tuple[str, object]]:
    """Run (label, (function, args)) units, in forked worker processes when there are several; (label, result)
    in the units' order."""
    workers = workers or min(len(units), os.cpu_count() or 1)
    if len(units) > 1 and workers > 1:
        with fork_pool(workers) as pool:
            futs = [(label, pool.submit(fn, *args)) for label, (fn, args) in units]
            return [(label, fut.result()) for label, fut in futs]
    return [(label, fn(*args)) for label, (fn, args) in units]


def _run_all(units: list[tuple[str, tuple]], workers: int | None) -> dict:
    return dict(_run_many(units, workers))

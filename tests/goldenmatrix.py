"""The engine's safety net: seeded logs and statistics of every variant and option value, as recorded.

Each case is one variant with one change from its defaults: an option at each of its values (every
choice, both truth values, an int at its min, default and max), each preset, each deck, each table
size. A case records the digest of a whole seeded game's event log (random play), its chips and
move count, the digest of a seeded simulation's statistics (random play, a fixed chunk of rounds),
and for the defaults the same game with each of the variant's own policies. The defaults' first
round is also kept in full (`tests/golden/matrix-logs.json`) so a difference can be read, not only
detected.

Regenerate on purpose, after a change that is meant to alter results (and say so in the commit):

    PYTHONPATH=. python -m tests.goldenmatrix            # rewrites tests/golden/matrix*.json
    PYTHONPATH=. python -m tests.goldenmatrix --check    # compares, prints the cases that differ

tests/test_golden_matrix.py compares every case byte for byte.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import sys
from typing import Any, Iterator

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from rulekit.engine.build import build_game, load_variant  # noqa: E402
from rulekit.engine.runner import events_digest, make_agents, play, run_chunk  # noqa: E402

GOLDEN = os.path.join(ROOT, "tests", "golden")
DIGESTS = os.path.join(GOLDEN, "matrix.json")
LOGS = os.path.join(GOLDEN, "matrix-logs.json")
SEED = 7
SIM_ROUNDS = 150  # rounds of the seeded simulation each case records
MAX_GAME_ROUNDS = 30  # a case whose game is longer plays this many rounds (an option at its max)


def variant_paths() -> list[str]:
    """Every variant file under variants/, sorted (the 9 shipped files)."""
    out = []
    for root, _dirs, files in os.walk(os.path.join(ROOT, "variants")):
        out += [os.path.join(root, f) for f in files if f.endswith(".yaml")]
    return sorted(out)


def _values(opt: Any) -> list[Any]:
    """The values a case sets an option to: each choice, both truth values, an int at min/default/max."""
    if opt.type == "choice":
        return [v for v, _ in opt.values]
    if opt.type == "bool":
        return [False, True]
    return sorted({x for x in (opt.min, opt.default, opt.max) if x is not None})


def cases(path: str) -> Iterator[tuple[str, dict]]:
    """(case id, settings) of one variant: the defaults, then one change at a time."""
    v = load_variant(path)
    vid = os.path.relpath(path, os.path.join(ROOT, "variants")).replace(os.sep, "/")[:-5]
    meta = v.meta
    yield f"{vid}", {}
    for n in sorted({meta.players_min, meta.players_max} - {meta.players_default}):
        yield f"{vid} players={n}", {"players": n}
    for name, opt in v.options.items():
        for value in _values(opt):
            if value != opt.default:
                yield f"{vid} {name}={json.dumps(value)}", {"options": {name: value}}
    for preset in v.presets:
        yield f"{vid} preset={preset}", {"preset": preset}
    for deck in v.decks:
        if deck != v.default_deck:
            yield f"{vid} deck={deck}", {"deck": deck}


WORDS = ("text", "you", "why")  # what an event says in words (not what happened)


def _plays(events: list[dict]) -> list[dict]:
    """The events without their words: what happened, whatever the rules' wording (a `play` digest
    that holds while `log` changes says only the words changed)."""
    return [{k: v for k, v in e.items() if k not in WORDS} for e in events]


def _digest(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:20]


def run_case(path: str, settings: dict, full_log: bool = False, codegen: bool | None = None) -> tuple[dict, Any]:
    """One case's record (and, with full_log, the events of its first round); `codegen` as build_game's."""
    v = load_variant(path)
    n = settings.get("players", v.meta.players_default)
    out: dict[str, Any] = {"players": n}
    try:
        game = build_game(v, settings.get("options"), settings.get("preset"), settings.get("deck"), codegen)
        res = play(game, n, SEED, make_agents(game, n, SEED), rounds=None, logging=False, digest=False)
        rounds = None if len(res.round_deltas) <= MAX_GAME_ROUNDS else MAX_GAME_ROUNDS
    except Exception as exc:  # a case the engine refuses is recorded as refused, with its message
        # only the error codes: a message's wording may improve without the engine changing
        codes = " ".join(sorted(set(re.findall(r"E[0-9]{3}", str(exc)))))
        return {"players": n, "error": f"{type(exc).__name__} {codes}"}, None
    res = play(game, n, SEED, make_agents(game, n, SEED), rounds=rounds, logging=True)
    out.update(rounds=len(res.round_deltas), moves=len(res.log["moves"]), chips=res.chips,
               log=res.log["events_sha256"][:20], play=_digest(_plays(res.events)), records=_digest(res.records))
    stats = run_chunk(game, n, SEED, 0, SIM_ROUNDS)
    out["stats"] = _digest(dataclasses.asdict(stats))
    if not settings:
        for policy in sorted(game.policies):
            r = play(game, n, SEED, make_agents(game, n, SEED, policy), rounds=2, logging=True)
            out[f"policy {policy}"] = r.log["events_sha256"][:20]
    first = None
    if full_log:
        r = play(game, n, SEED, make_agents(game, n, SEED), rounds=1, logging=True)
        first = {"moves": r.log["moves"], "events": json.loads(json.dumps(r.events, default=str))}
        assert events_digest(r.events) == r.log["events_sha256"]
    return out, first


def record_all(paths: list[str] | None = None) -> tuple[dict, dict]:
    """Every case's record, and the full first-round logs of each variant's defaults."""
    digests, logs = {}, {}
    for path in paths or variant_paths():
        for cid, settings in cases(path):
            rec, first = run_case(path, settings, full_log=not settings)
            digests[cid] = rec
            if first is not None:
                logs[cid] = first
    return digests, logs


def _dump(data: dict, path: str, indent: int | None) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        if indent is None:  # one line a case: small diffs when a case changes
            fh.write("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v, sort_keys=True, separators=(',', ':'))}"
                                        for k, v in data.items()) + "\n}\n")
        else:
            json.dump(data, fh, sort_keys=True, separators=(",", ":"))
            fh.write("\n")


def differing(golden: dict | None, now: dict | None) -> list[str]:
    """The fields of a case's record that differ ('log' alone: only the words of the log changed)."""
    if golden is None or now is None:
        return ["the whole case (added or removed)"]
    return sorted(k for k in set(golden) | set(now) if golden.get(k) != now.get(k))


def main(argv: list[str]) -> int:
    digests, logs = record_all()
    if "--check" in argv:
        with open(DIGESTS, encoding="utf-8") as fh:
            old = json.load(fh)
        bad = [k for k in sorted(set(old) | set(digests)) if old.get(k) != digests.get(k)]
        for k in bad:
            print(f"differs: {k}: {', '.join(differing(old.get(k), digests.get(k)))}\n"
                  f"  golden: {old.get(k)}\n  now:    {digests.get(k)}")
        print(f"{len(digests)} cases, {len(bad)} differ")
        return 1 if bad else 0
    _dump(digests, DIGESTS, None)
    _dump(logs, LOGS, 0)
    print(f"wrote {len(digests)} cases to {os.path.relpath(DIGESTS, ROOT)} and {len(logs)} logs to "
          f"{os.path.relpath(LOGS, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

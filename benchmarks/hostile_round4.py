"""Issue 41's hostile classes (round four: the search bot, statistics, house lengths, argument
forms, saved games, logs, validate, the site's search index).

Loaded by benchmarks/hostile_corpus.py, which runs them like its own classes A-R:

    python benchmarks/hostile_corpus.py SEARCH STATS2 HOUSE FROMSIM SAVE2 LOGS VALIDATE -v

Every case must end with exit 1 or 2 and a clear, located message (or 0 where the input is
legitimate and only the output is checked), under 10 s and 1 GB, with no control character on
the terminal. The Python API's cases (sample_unseen, bot seeds, simulate's client) and the site's
are in tests/robustness/test_hostile_round4.py: they are calls, not command lines.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

# a legal-action check that costs about 20,000 budget units each time it is read (the rules' own
# cost model), at eight decisions a round of eight actions each: the search bot's playouts of
# such a round cost far more than the bot's cap, a random round well within the round's budget
COSTLY = "count(filter(range(10000), i -> i >= 0)) > 0"


def costly_variant(hc: Any) -> str:
    """A round of eight decisions whose every legal action is checked by COSTLY."""
    return hc.steps('- shuffle: deck', '- deal: {from: deck, to: hand, count: 3}', '- for: t', '  in: "range(8)"',
                    '  do:', '    - choose: pick', '      player: "t % 2"', '      options: {a: "range(8)"}',
                    f'      where: "{COSTLY}"', '    - pay: {from: "t % 2", to: "(t + 1) % 2", amount: "a"}')


def located(file: str) -> Callable[[str, str, Path], str | None]:
    """The message names `file` with a line and a column."""
    pat = re.compile(re.escape(file) + r":\d+:\d+: error")

    def check(out: str, err: str, d: Path) -> str | None:
        return None if pat.search(err) else f"no located error in {file}: {err[:200]!r}"
    return check


def says(*words: str) -> Callable[[str, str, Path], str | None]:
    """Standard error holds every one of `words` (what was expected and what was found)."""
    def check(out: str, err: str, d: Path) -> str | None:
        missing = [w for w in words if w not in err]
        return None if not missing else f"stderr lacks {missing}: {err[:200]!r}"
    return check


def prints(*words: str) -> Callable[[str, str, Path], str | None]:
    def check(out: str, err: str, d: Path) -> str | None:
        missing = [w for w in words if w not in out]
        return None if not missing else f"stdout lacks {missing}: {out[:200]!r}"
    return check


def forged(hc: Any, field: str, value: Any, partial: bool = True) -> Callable[[Path], None]:
    """A saved game (or, not partial, a finished log) of Oicho-Kabu with `field` forged and its game
    digest recomputed, as a forger who rewrites every digest would."""
    ok = str(hc.ROOT / "variants/kabufuda/oicho-kabu.yaml")

    def setup(d: Path) -> None:
        subprocess.run([sys.executable, "-m", "rulekit", "play", ok, "--log", str(d / "good.json"), "--rounds", "2",
                        "--seed", "5"], cwd=d, capture_output=True, env=hc._env(), timeout=120)
        log = json.loads((d / "good.json").read_text())
        if partial:
            log["partial"] = True
        log[field] = value
        from rulekit.people.replay import game_digest
        log["game_sha256"] = game_digest(log)
        (d / "save.json").write_text(json.dumps(log))
    return setup


def cases(hc: Any) -> list:
    """The round-four cases, as hostile_corpus.Case objects (`hc` is that module)."""
    Case, steps, variant = hc.Case, hc.steps, hc.variant
    out: list = []
    add = out.append
    v = "v.yaml"
    ok = str(hc.ROOT / "variants/kabufuda/oicho-kabu.yaml")
    kyo = str(hc.ROOT / "variants/kabufuda/kyo-kabu.yaml")

    # SEARCH: the search bot on costly rules plays on (legitimate input), its cost capped per decision
    add(Case("SEARCH", "costly_where", ["play", v, "--seed", "1", "--rounds", "1", "--policy", "search"],
             {v: costly_variant(hc)}, expect=(0,), check=prints("Game over after 1 round")))
    add(Case("SEARCH", "costly_where_one_seat", ["play", v, "--seed", "2", "--rounds", "1", "--policy",
                                                 "random,0=search"], {v: costly_variant(hc)}, expect=(0,)))
    add(Case("SEARCH", "costly_where_sim", ["simulate", v, "--rounds", "2", "--policy", "search", "--quiet"],
             {v: costly_variant(hc)}, expect=(0,)))

    # STATS2: a count's expected rate is a share of readings, from 0 to 1
    for name, rate in [("negative", "-0.5"), ("above_one", "3/2"), ("huge", "10**9"), ("two", "2")]:
        add(Case("STATS2", name, ["simulate", ok, "--rounds", "5", "--stats", "s.yaml", "--quiet"],
                 {"s.yaml": f'stats:\n  s: {{at: round, count: "true", expect: "{rate}"}}\n'},
                 check=located("s.yaml")))
    add(Case("STATS2", "in_variant", ["validate", v],
             {v: variant(hc.OK + 'stats:\n  s: {at: round, count: "true", expect: "-1/2"}\n')}, check=located(v)))
    add(Case("STATS2", "difference_above_one", ["simulate", ok, "--rounds", "5", "--stats", "s.yaml", "--quiet"],
             {"s.yaml": 'stats:\n  s: {at: round, per_seat: true, count: "true", difference_from: "0", '
                        'expect: "3/2"}\n'}, check=located("s.yaml")))
    add(Case("STATS2", "rate_ok", ["simulate", ok, "--rounds", "5", "--stats", "s.yaml", "--quiet"],
             {"s.yaml": 'stats:\n  s: {at: round, count: "true", expect: "1"}\n'}, expect=(0,)))

    # HOUSE: a house file that makes a game of no rounds
    for name, g in [("rounds_zero", "{rounds: 0}"), ("rounds_zero_text", '{rounds: "0"}'),
                    ("rounds_minus", '{rounds: "opt.rounds - 13"}'), ("rounds_option_zero", '{rounds: "opt.rounds * 0"}')]:
        add(Case("HOUSE", name, ["play", ok, "--house", "h.yaml"], {"h.yaml": f"target: oicho-kabu\ngame: {g}\n"},
                 check=located("h.yaml")))
        add(Case("HOUSE", name + "_validate", ["validate", "h.yaml"],
                 {"h.yaml": f"target: oicho-kabu\ngame: {g}\n"}, check=located("h.yaml")))
    add(Case("HOUSE", "rounds_zero_sim", ["simulate", ok, "--house", "h.yaml", "--games", "2", "--quiet"],
             {"h.yaml": "target: oicho-kabu\ngame: {rounds: 0}\n"}, check=located("h.yaml")))
    add(Case("HOUSE", "open_ended_ok", ["play", ok, "-o", "rounds=0", "-o", "stock=3", "--seed", "1"],
             expect=(0,), check=prints("Game over after")))

    # FROMSIM: the form the transcript suggests, with a negative seed
    add(Case("FROMSIM", "negative_seed", ["play", kyo, "--from-simulation", "-5:0"], expect=(0,),
             check=prints("replay with --from-simulation -5:0")))
    add(Case("FROMSIM", "negative_seed_equals", ["play", kyo, "--from-simulation=-5:0"], expect=(0,)))
    add(Case("FROMSIM", "negative_bad_round", ["play", kyo, "--from-simulation", "-5:x"], expect=(2,),
             check=says("--from-simulation", "SEED:ROUND", "-5:x")))
    add(Case("FROMSIM", "negative_round", ["play", kyo, "--from-simulation", "5:-1"], expect=(2,),
             check=says("--from-simulation", "SEED:ROUND")))

    # SAVE2: a forged save's fields checked against the rules (digests recomputed by the forger)
    for name, field, value, words in [
        ("dealer_63", "dealer", 63, ("dealer", "63", "0 to 4")), ("dealer_5", "dealer", 5, ("dealer", "0 to 4")),
        ("human_5", "human", 5, ("human", "0 to 4")), ("seating_twice", "seating", [0, 0, 1, 2, 3], ("seating",)),
        ("seating_63", "seating", [0, 1, 2, 3, 63], ("seating",)),
        ("card_twice", "stack", {"deck": ["1-1", "1-1"]}, ("stack", "1-1", "twice")),
        ("card_unknown", "stack", {"deck": ["nope"]}, ("stack", "nope")),
        ("zone_unknown", "stack", {"nowhere": ["1-1"]}, ("stack", "nowhere")),
        ("rounds_over_asked", "rounds", 9, ("rounds", "9")), ("players_9", "players", 9, ("players", "9")),
    ]:
        add(Case("SAVE2", name, ["play", "--resume", "save.json"], setup=forged(hc, field, value),
                 check=says(*words)))
        add(Case("SAVE2", name + "_replay", ["replay", "save.json"], setup=forged(hc, field, value, partial=False),
                 check=says(*words)))

    # LOGS: what play --log writes, replay reads; values nested past the limits are refused where made
    deep = steps('- for: i', '  in: "range(100)"', '  do: [{set: {x: "[1, x, 1]"}}]', '- choose: pick', '  player: 0',
                 '  options: {a: "[x, 2]"}')
    add(Case("LOGS", "flat_looking_deep_list", ["play", v, "--seed", "4", "--log", "log.json"], {v: deep},
             check=located(v)))
    add(Case("LOGS", "flat_looking_deep_list_validate", ["validate", v], {v: deep}, check=located(v)))
    lets = "let a0 = [1] in " + "".join(f"let a{i} = [a{i - 1}] in " for i in range(1, 80)) + "[a79]"
    add(Case("LOGS", "deep_option_values", ["play", v, "--log", "log.json"],
             {v: steps('- choose: pick', '  player: 0', f'  options: {{a: "{lets}"}}')}, check=located(v)))
    add(Case("LOGS", "deep_option_values_validate", ["validate", v],
             {v: steps('- choose: pick', '  player: 0', f'  options: {{a: "{lets}"}}')}, check=located(v)))

    # VALIDATE: the budgets simulate runs, validate runs (a variant's own statistics read in its round)
    costly = "count(filter(range(10000), i -> count(filter(range(190), j -> j == i)) >= 0)) > 0"
    phases = "round:\n" + "".join(f"  - id: p{i}\n    steps:\n      - say: hi\n" for i in range(200))
    stats = "stats:\n" + "".join(f"  s{i}: {{after: p{i}, count: \"{costly}\"}}\n" for i in range(200))
    add(Case("VALIDATE", "costly_statistics", ["validate", v], {v: variant(phases + stats)}, check=located(v)))
    add(Case("VALIDATE", "costly_statistics_sim", ["simulate", v, "--rounds", "1", "--quiet"],
             {v: variant(phases + stats)}, check=located(v)))
    return out

"""A hostile corpus for the rulekit command (issue 12): per class A-R, cases, tracebacks, hangs, peak memory.

Each case writes a few files into a fresh temporary folder and runs `python -m rulekit ...` there
in a child process with a 10 s wall-clock limit and a 3 GB address-space cap (so a memory bomb
cannot take the machine down; it then ends in MemoryError, which counts as a traceback and as
memory over 1 GB). A case is *bad* when any target of the issue is missed: a traceback, a hang
(more than 10 s), more than 1 GB, an exit code other than the expected one, an escape character
(ESC, BEL, CSI/OSC) on stdout or stderr, or a case-specific check (for example an output that
was promised and not written).

    python benchmarks/hostile_corpus.py            # every class
    python benchmarks/hostile_corpus.py K L        # some classes
    python benchmarks/hostile_corpus.py --json out.json

This prints figures; it asserts nothing (tests/robustness holds the assertions).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(os.environ.get("RULEKIT_ROOT") or Path(__file__).resolve().parents[1])  # the code under test
HANG = 10.0
MEM_CAP = 3_000_000_000
BIG = 1_000_000_000

HEAD = """\
id: probe
meta:
  names: {en: Probe}
  family: test
players: {min: 2, max: 4, default: 3}
decks:
  kabufuda: {}
zones:
  deck: {}
  hand: {per: player, visibility: owner}
  table: {visibility: public}
vars:
  pot: {init: 0, pot: true}
  x: {init: 0}
"""


def variant(body: str, vars_extra: str = "", head: str = HEAD, game: str = "game:\n  start_chips: 100\n") -> str:
    """A small kabufuda variant with `body` (round, procedures ...) and more vars."""
    return head + vars_extra + game + textwrap.dedent(body)


def steps(*lines: str, vars_extra: str = "", extra: str = "") -> str:
    """A variant whose one phase runs these steps (YAML flow or block lines)."""
    body = "round:\n  - id: r\n    steps:\n" + "".join(f"      {ln}\n" for ln in lines) + extra
    return variant(body, vars_extra)


@dataclass
class Case:
    """One hostile input: files to write, the command line, stdin, what must happen."""

    cls: str
    name: str
    argv: list[str]
    files: dict[str, str | bytes] = field(default_factory=dict)
    expect: tuple[int, ...] = (1,)
    stdin: str | None = None  # a path to feed as stdin
    check: Callable[[str, str, Path], str | None] | None = None
    interrupt: float | None = None  # send SIGINT after this many seconds
    setup: Callable[[Path], None] | None = None
    env: dict[str, str] = field(default_factory=dict)  # more environment (RULEKIT_CODEGEN=0: the closures)


def _no_passwd(out: str, err: str, d: Path) -> str | None:
    return "printed /etc/passwd" if "root:x:" in out + err else None


def _wrote(name: str) -> Callable[[str, str, Path], str | None]:
    def check(out: str, err: str, d: Path) -> str | None:
        return None if (d / name).is_file() and (d / name).stat().st_size > 0 else f"{name} not written"
    return check


def _short_err(limit: int) -> Callable[[str, str, Path], str | None]:
    def check(out: str, err: str, d: Path) -> str | None:
        return None if len(err) <= limit else f"{len(err)} characters on stderr"
    return check


def _saved_game(out: str, err: str, d: Path) -> str | None:
    return None if "The game is saved in game.json" in out and (d / "game.json").is_file() else "the game was not saved"


def _names_decision(out: str, err: str, d: Path) -> str | None:
    return None if "decision" in err and "round" in err else "mismatch does not name the round and decision"


def _seed(text: str, value: str) -> str:
    """The log's text with its seed written as `value` (NaN, Infinity, a huge number)."""
    import re
    return re.sub(r'"seed": -?\d+', '"seed": ' + value, text, count=1)


def _redigest(log: dict) -> None:
    """A forger's edit: change the first decision and recompute the game digest (version 2 logs)."""
    import hashlib
    log["moves"][0] = 0 if log["moves"][0] else 1
    fields = ("version", "variant_sha256", "deck", "options", "preset", "players", "seed", "rounds", "dealer",
              "stack", "moves", "events_sha256")
    saved = ("partial", "human", "policy", "rounds_requested")  # in the digest when present (the bots' policy)
    if "game_sha256" in log:
        digested = {k: log.get(k) for k in fields}
        digested.update((k, log[k]) for k in saved if k in log)
        log["game_sha256"] = hashlib.sha256(json.dumps(digested, sort_keys=True,
                                                       separators=(",", ":")).encode()).hexdigest()


def _partial_json(out: str, err: str, d: Path) -> str | None:
    p = d / "out.json"
    if not p.is_file():
        return "no partial results written"
    try:
        data = json.loads(p.read_text())
    except ValueError:
        return "partial results are not JSON"
    return None if data.get("partial") is True else "results not marked partial"


OK = "round:\n  - id: r\n    steps:\n      - shuffle: deck\n      - say: hello\n"
GOOD = variant(OK)


def cases() -> list[Case]:
    out: list[Case] = []
    add = out.append
    v = "v.yaml"

    # A. text grows without bound
    for name, st in [
        ("set_s_plus_s", ['- for: i', '  in: "range(200)"', '  do: [{set: {s: "s + s"}}]']),
        ("add_on_text", ['- for: i', '  in: "range(10000)"', '  do: [{for: j, in: "range(10)", do: [{add: {s: "s"}}]}]']),
        ("let_concat", ['- for: i', '  in: "range(60)"', '  do: [{set: {s: "s + s + s + s"}}]']),
        ("map_text", ['- for: i', '  in: "range(200)"', '  do: [{set: {s: "first(map([1, 2], i -> s + s))"}}]']),
    ]:
        add(Case("A", name, ["validate", v], {v: steps(*st, vars_extra="  s: {init: \"'ab'\"}\n")}))
        add(Case("A", name + "_play", ["play", v], {v: steps(*st, vars_extra="  s: {init: \"'ab'\"}\n")}))

    # B. subsets / partitions with long combinations
    add(Case("B", "subsets_long", ["validate", v], {v: steps('- let: {z: "count(subsets(range(10000), 9999))"}')}))
    add(Case("B", "subsets_play", ["play", v], {v: steps('- let: {z: "count(subsets(range(10000), 9999))"}')}))
    add(Case("B", "partitions_long", ["validate", v],
             {v: steps('- let: {z: "count(partitions(range(10000), 9999))"}')}))
    add(Case("B", "subsets_var", ["validate", v],
             {v: steps('- set: {xs: "range(10000) + range(10000)"}', '- let: {z: "count(subsets(xs, 19999))"}',
                       vars_extra="  xs: {init: \"[]\"}\n")}))

    # C. list builders build before charging
    big = ['- set: {xs: "range(10000)"}'] + ['- set: {xs: "xs + xs"}'] * 3
    vx = "  xs: {init: \"[]\"}\n"
    add(Case("C", "flatten_shared", ["validate", v],
             {v: steps(*big, '- let: {z: "count(flatten(map(range(10000), i -> xs)))"}', vars_extra=vx)}))
    add(Case("C", "flatten_play", ["play", v],
             {v: steps(*big, '- let: {z: "count(flatten(map(range(10000), i -> xs)))"}', vars_extra=vx)}))
    add(Case("C", "sorted_concat", ["validate", v],
             {v: steps(*big, '- let: {z: "count(sorted(flatten([xs, xs, xs, xs, xs, xs, xs, xs, xs, xs])))"}',
                       vars_extra=vx)}))
    add(Case("C", "map_lists", ["validate", v],
             {v: steps(*big, '- let: {z: "count(map(range(10000), i -> xs + xs))"}', vars_extra=vx)}))

    # D. work the budget never sees
    add(Case("D", "list_minus", ["validate", v], {v: steps(
        '- let: {z: "count(flatten([range(10000), range(10000), range(10000), range(10000)]) - '
        'reverse(flatten([range(10000), range(10000)])))"}')}, expect=(0, 1)))
    add(Case("D", "in_scan_lambda", ["validate", v],
             {v: steps(*big, '- let: {z: "count(filter(xs, a -> a + 1 in xs))"}', vars_extra=vx)}))
    add(Case("D", "choose_where_false", ["validate", v],
             {v: steps('- choose: pick', '  player: 0', '  options: {a: "range(10000)", b: "range(10000)"}',
                       '  where: "false"', '  if_none: skip')}))
    add(Case("D", "choose_where_false_play", ["play", v],
             {v: steps('- choose: pick', '  player: 0', '  options: {a: "range(10000)", b: "range(10000)"}',
                       '  where: "false"', '  if_none: skip')}))
    deckd = HEAD.replace("  kabufuda: {}\n", "  kabufuda: {attributes: {w: {type: int, description: d}}, set: {w: \"count(range(10000) - reverse(range(10000)) + filter(range(1000), i -> i in "
                         "range(1000)))\"}}\n")
    add(Case("D", "deck_derivation", ["validate", v], {v: variant(OK, head=deckd)}))

    # E. shared sub-lists
    shared = ['- for: i', '  in: "range(60)"', '  do: [{set: {l: "[l, l]"}}]']
    vl = "  l: {init: \"[1]\"}\n"
    add(Case("E", "equality", ["validate", v], {v: steps(*shared, '- let: {z: "l == [l[0], l[1]]"}', vars_extra=vl)}))
    add(Case("E", "count_by", ["validate", v], {v: steps(*shared, '- let: {z: "count_by(l, a -> 1)"}', vars_extra=vl)}))
    add(Case("E", "in_list", ["validate", v], {v: steps(*shared, '- let: {z: "[1] in l"}', vars_extra=vl)}))
    add(Case("E", "log_json", ["play", v, "--log", "log.json"],
             {v: steps(*shared, '- choose: pick', '  player: 0', '  options: {a: "[l]"}', vars_extra=vl)}))
    add(Case("E", "distinct", ["validate", v], {v: steps(*shared, '- let: {z: "distinct(l)"}', vars_extra=vl)}))

    # F. deep nesting reaches the log
    deep = ['- for: i', '  in: "range(5000)"', '  do: [{set: {l: "[l]"}}]']
    add(Case("F", "deep_log", ["play", v, "--log", "log.json"],
             {v: steps(*deep, '- choose: pick', '  player: 0', '  options: {a: "[l]"}', vars_extra=vl)}))
    add(Case("F", "deep_validate", ["validate", v],
             {v: steps(*deep, '- choose: pick', '  player: 0', '  options: {a: "[l]"}', vars_extra=vl)}))
    add(Case("F", "deep_equal", ["validate", v], {v: steps(*deep, '- let: {z: "l == [l]"}', vars_extra=vl)}))
    add(Case("F", "deep_play", ["play", v], {v: steps(*deep, '- let: {z: "count(l)"}', vars_extra=vl)}))

    # G. yaku calls fan out
    def yaku_chain(k: int, calls: int) -> str:
        tables = []
        for i in range(k):
            inner = " + ".join([f"count(yaku('t{i + 1}', cards, seat))"] * calls) if i + 1 < k else "1"
            tables.append(f"  t{i}:\n    - id: y{i}\n      names: {{en: Y{i}}}\n      value: 1\n"
                          f"      when: \"{inner} >= 0\"\n")
        return "yaku:\n" + "".join(tables)
    body = ("round:\n  - id: r\n    steps:\n      - shuffle: deck\n"
            "      - let: {z: \"count(yaku('t0', [], 0))\"}\n")
    add(Case("G", "yaku_fanout", ["validate", v], {v: variant(body + yaku_chain(25, 2))}))
    add(Case("G", "yaku_fanout_play", ["play", v], {v: variant(body + yaku_chain(25, 2))}, expect=(0, 1)))
    add(Case("G", "yaku_fanout_wide", ["validate", v], {v: variant(body + yaku_chain(8, 8))}))

    # H. huge option sets
    presets = "presets:\n" + "".join(f"  p{i}: {{description: \"preset {i}\", options: {{}}}}\n" for i in range(20000))
    add(Case("H", "presets_20000", ["validate", v], {v: variant(OK + presets)}))
    opts = "options:\n" + "".join(f"  o{i}: {{type: bool, default: false, description: d}}\n" for i in range(15000))
    add(Case("H", "options_15000", ["validate", v], {v: variant(OK + opts)}))
    yk = "yaku:\n  t:\n" + "".join(f"    - {{id: y{i}, names: {{en: Y}}, value: 1, when: \"true\"}}\n"
                                  for i in range(12000))
    add(Case("H", "yaku_12000", ["validate", v], {v: variant(OK + yk)}))

    # I. too many legal actions in a one-parameter choose
    onep = ['- choose: pick', '  player: 0', '  options: {a: "flatten(map(range(90), i -> range(10000)))"}']
    add(Case("I", "one_param_validate", ["validate", v], {v: steps(*onep)}))
    add(Case("I", "one_param_play", ["play", v], {v: steps(*onep)}))
    add(Case("I", "one_param_human", ["play", v, "--human", "0"], {v: steps(*onep), "in.txt": "1\n"},
             stdin="in.txt"))

    # J. keys that are not strings
    jcases = {
        "set_int_key": steps('- set: {1: "2"}'),
        "add_bool_key": steps('- add: {true: "2"}'),
        "let_int_key": steps('- let: {7: "2"}'),
        "preset_int": variant(OK + "presets:\n  1: {options: {}}\n"),
        "preset_opt_int": variant(OK + "presets:\n  p: {options: {1: 2}}\n"),
        "with_int": variant("procedures:\n  pr:\n    params: {n: int}\n    steps: []\n"
                            "round:\n  - id: r\n    steps:\n      - call: pr\n        with: {1: 2}\n"),
        "deck_int": HEAD.replace("  kabufuda: {}\n", "  1: {from: kabufuda}\n") + "game:\n  start_chips: 100\n" + OK,
        "deck_set_int": HEAD.replace("  kabufuda: {}\n", "  kabufuda: {set: {1: \"2\"}}\n")
                        + "game:\n  start_chips: 100\n" + OK,
        "yaku_table_int": variant(OK + "yaku:\n  1:\n    - {id: a, names: {en: A}, value: 1, when: \"true\"}\n"),
        "yaku_names_int": variant(OK + "yaku:\n  t:\n    - {id: a, names: {1: A}, value: 1, when: \"true\"}\n"),
        "policy_int": variant(OK + "policies:\n  1:\n    rules: []\n"),
        "vars_int": variant(OK, vars_extra="  3: {init: 0}\n"),
        "zones_bool": HEAD.replace("  table: {visibility: public}\n", "  true: {visibility: public}\n")
                      + "game:\n  start_chips: 100\n" + OK,
        "options_int": variant(OK + "options:\n  1: {type: bool, default: false, description: d}\n"),
        "meta_names_int": HEAD.replace("names: {en: Probe}", "names: {1: Probe}") + "game:\n  start_chips: 100\n" + OK,
        "choose_options_int": steps('- choose: pick', '  player: 0', '  options: {1: "[1, 2]"}'),
    }
    for name, text in jcases.items():
        add(Case("J", name, ["validate", v], {v: text}))
    for cmd in (["play"], ["diff"], ["explain", "__V__", "options"], ["show"]):
        argv = [c if c != "__V__" else v for c in cmd] + ([v] if "__V__" not in cmd else [])
        add(Case("J", f"{cmd[0]}_set_int", argv, {v: jcases["set_int_key"]}))
    house_target = "variants/kabufuda/oicho-kabu.yaml"
    for name, htext in [("house_opt_int", "target: oicho-kabu\noptions: {1: 2}\n"),
                        ("house_yaku_int", "target: oicho-kabu\nyaku: {1: []}\n"),
                        ("house_bool_key", "target: oicho-kabu\ntrue: 1\n")]:
        add(Case("J", name, ["play", str(ROOT / house_target), "--house", "h.yaml"], {"h.yaml": htext}))
        add(Case("J", name + "_diff", ["diff", str(ROOT / house_target), "--house", "h.yaml"], {"h.yaml": htext}))

    # K. terminal escapes
    esc = '"\\e[2J\\e]52;c;cm0gLXJmIH4=\\a"'
    add(Case("K", "say", ["play", v], {v: steps(f"- say: {esc}")}, expect=(0,)))
    # issue-25: names with control characters (or < >) are refused by the schema with a
    # located E010 error, printed escaped; so these cases now end with exit 1, inertly.
    add(Case("K", "name", ["play", v], {v: HEAD.replace("names: {en: Probe}", f"names: {{en: {esc}}}")
                                        + "game:\n  start_chips: 100\n" + OK}, expect=(1,)))
    add(Case("K", "name_show", ["show", v], {v: HEAD.replace("names: {en: Probe}", f"names: {{en: {esc}}}")
                                             + "game:\n  start_chips: 100\n" + OK}, expect=(1,)))
    add(Case("K", "prompt", ["play", v, "--human", "0"],
             {v: steps('- choose: pick', '  player: 0', f'  prompt: {esc}', '  options: {a: "[1, 2]"}'),
              "in.txt": "1\n"}, stdin="in.txt", expect=(0,)))
    add(Case("K", "error_message", ["validate", v],
             {v: steps(f'- let: {{z: {esc}}}', '- let: {w: "nosuchname"}')}))
    add(Case("K", "error_key", ["validate", v], {v: steps('- set: {"\\e[2Jx": "1"}')}))
    add(Case("K", "house_note", ["diff", str(ROOT / house_target), "--house", "h.yaml"],
             {"h.yaml": f"target: oicho-kabu\nname: {esc}\nnote: {esc}\noptions: {{}}\n"}, expect=(0,)))
    add(Case("K", "house_note_play", ["play", str(ROOT / house_target), "--house", "h.yaml"],
             {"h.yaml": f"target: oicho-kabu\nname: {esc}\nnote: {esc}\noptions: {{}}\n"}, expect=(0,)))
    add(Case("K", "record", ["play", v], {v: steps(f"- record: {esc}")}, expect=(0,)))
    add(Case("K", "compiled_show", ["show", v, "--compiled"],  # the generated Python, printed: inert too
             {v: steps(f"- say: {esc}", f"- record: {esc}")}, expect=(0,)))
    add(Case("K", "end_round", ["play", v], {v: steps(f"- end_round: {esc}")}, expect=(0,)))
    add(Case("K", "yaku_name", ["play", v],
             {v: steps('- claim: {table: t, cards: "[]", player: 0, as: got}')
              + f"yaku:\n  t:\n    - {{id: a, names: {{en: {esc}}}, value: 1, when: \"true\"}}\n"}, expect=(0, 1)))
    add(Case("K", "phase_name", ["play", v],
             {v: variant(f"round:\n  - id: r\n    name: {esc}\n    steps:\n      - say: hi\n")}, expect=(0,)))
    add(Case("K", "option_description_show", ["show", v],
             {v: variant(OK + f"options:\n  o: {{type: bool, default: false, description: {esc}}}\n")}, expect=(0,)))
    add(Case("K", "unknown_option_arg", ["play", v, "-o", "\x1b[2J=1"], {v: GOOD}, expect=(1, 2)))
    add(Case("K", "policy_unknown", ["play", v, "--policy", "\x1b[2J"], {v: GOOD}, expect=(1, 2)))
    add(Case("K", "log_variant_id", ["replay", "log.json"], {"log.json": json.dumps(
        {"version": 1, "variant": "\x1b[2J", "variant_id": "\x1b]52;c;eA==\x07", "moves": []})}))

    # L. replay logs
    def good_log(d: Path) -> None:
        subprocess.run([sys.executable, "-m", "rulekit", "play", str(ROOT / "variants/kabufuda/oicho-kabu.yaml"),
                        "--log", str(d / "good.json")], cwd=d, capture_output=True, env=_env(), timeout=60)

    def edit(fn: Callable[[dict], None]) -> Callable[[Path], None]:
        def setup(d: Path) -> None:
            good_log(d)
            log = json.loads((d / "good.json").read_text())
            fn(log)
            (d / "log.json").write_text(json.dumps(log))
        return setup

    def raw(fn: Callable[[str], str]) -> Callable[[Path], None]:
        def setup(d: Path) -> None:
            good_log(d)
            (d / "log.json").write_text(fn((d / "good.json").read_text()))
        return setup

    def events_edit(log: dict) -> None:
        for e in log["events"]:
            if e["t"] == "pay":
                e["amount"] = 999
                break

    def put(key, value):
        return lambda log: log.__setitem__(key, value)

    lcases: list[tuple[str, Callable[[Path], None], Callable | None]] = [
        ("truncated", raw(lambda s: s[: len(s) // 2]), None),
        ("empty", raw(lambda s: ""), None),
        ("not_json", raw(lambda s: "hello world"), None),
        ("deep_json", raw(lambda s: "[" * 100000 + "]" * 100000), None),
        ("deep_json_field", raw(lambda s: s.replace('"moves": [', '"moves": ' + "[" * 50000 + "]" * 50000 + ", [", 1)),
         None),
        ("not_object", raw(lambda s: "[1, 2, 3]"), None),
        ("players_string", edit(put("players", "three")), None),
        ("players_huge", edit(put("players", 10 ** 9)), None),
        ("seed_nan", raw(lambda s: _seed(s, "NaN")), None),
        ("seed_inf", raw(lambda s: _seed(s, "Infinity")), None),
        ("seed_huge", raw(lambda s: _seed(s, "1" + "0" * 5000)), None),
        ("rounds_huge", edit(put("rounds", 10 ** 12)), None),
        ("moves_not_list", edit(put("moves", {"a": 1})), None),
        ("moves_strings", edit(lambda log: log.__setitem__("moves", ["x"] * len(log["moves"]))), None),
        ("missing_moves", edit(lambda log: log.pop("moves")), None),
        ("missing_seed", edit(lambda log: log.pop("seed")), None),
        ("missing_digest", edit(lambda log: log.pop("events_sha256")), None),
        ("options_bad", edit(put("options", {"tie": {"x": 1}})), None),
        ("options_list", edit(put("options", [1, 2])), None),
        ("deck_unknown", edit(put("deck", "nosuchdeck")), None),
        ("stack_bad", edit(put("stack", {"deck": [1, 2]})), None),
        ("dealer_bad", edit(put("dealer", "x")), None),
        ("events_edited", edit(events_edit), None),
        ("extra_decisions", edit(lambda log: log["moves"].extend([0, 0, 0])), None),
        ("version_unknown", edit(put("version", 99)), None),
        ("options_changed", edit(lambda log: log["options"].__setitem__("tie", "dealer")), None),
        ("moves_changed", edit(lambda log: log["moves"].__setitem__(0, 1 - log["moves"][0]
                                                                    if log["moves"] else 0)), None),
        ("moves_changed_redigested", edit(_redigest), _names_decision),
        ("variant_passwd", edit(lambda log: (log.__setitem__("variant", "/etc/passwd"),
                                             log.__setitem__("variant_id", ""))), _no_passwd),
        ("variant_dir", edit(lambda log: (log.__setitem__("variant", "/etc"), log.__setitem__("variant_id", "/etc"))),
         None),
    ]
    for name, setup, check in lcases:
        add(Case("L", name, ["replay", "log.json", "--quiet"], setup=setup, check=check))
    add(Case("L", "dev_zero", ["replay", "/dev/zero"]))
    add(Case("L", "fifo", ["replay", "fifo"], setup=lambda d: os.mkfifo(d / "fifo")))
    add(Case("L", "directory", ["replay", "."]))
    add(Case("L", "missing", ["replay", "nosuch.json"]))

    # M. command-line numbers
    ok = str(ROOT / "variants/kabufuda/oicho-kabu.yaml")
    for name, argv, code in [
        ("players_billion", ["play", ok, "--players", "1000000000"], 2),
        ("players_billion_sim", ["simulate", ok, "--players", "1000000000", "--rounds", "10"], 2),
        ("rounds_trillion", ["play", ok, "--rounds", "1000000000000"], 2),
        ("rounds_trillion_sim", ["simulate", ok, "--rounds", "1000000000000"], 2),
        ("jobs_1000", ["simulate", ok, "--rounds", "10", "--jobs", "1000"], 2),
        ("players_zero", ["play", ok, "--players", "0"], 2),
        ("human_99", ["play", ok, "--human", "99"], 2),
        ("human_minus", ["play", ok, "--human", "-1"], 2),
        ("rounds_negative", ["play", ok, "--rounds", "-5"], 2),
        ("rounds_negative_sim", ["simulate", ok, "--rounds", "-5"], 2),
        ("jobs_zero", ["simulate", ok, "--rounds", "10", "--jobs", "0"], 2),
        ("jobs_negative", ["simulate", ok, "--rounds", "10", "--jobs", "-1"], 2),
        ("seed_huge", ["play", ok, "--seed", "1" + "0" * 5000], 2),
        ("players_too_many", ["play", ok, "--players", "9"], 2),
    ]:
        add(Case("M", name, argv, expect=(code,)))

    # N. output paths
    for name, argv in [
        ("json_dir", ["simulate", ok, "--rounds", "20", "--json", "."]),
        ("json_full", ["simulate", ok, "--rounds", "20", "--json", "/dev/full"]),
        ("json_missing_folder", ["simulate", ok, "--rounds", "20", "--json", "nope/out.json"]),
        ("log_dir", ["play", ok, "--log", "."]),
        ("log_full", ["play", ok, "--log", "/dev/full"]),
        ("log_missing_folder", ["play", ok, "--log", "nope/log.json"]),
    ]:
        add(Case("N", name, argv, expect=(1, 2), check=_short_err(2000)))

    # O. Ctrl-C
    add(Case("O", "sigint_jobs2", ["simulate", ok, "--rounds", "100000000", "--jobs", "2", "--json", "out.json"],
             expect=(130,), interrupt=3.0, check=_partial_json))
    add(Case("O", "sigint_jobs1", ["simulate", ok, "--rounds", "100000000", "--json", "out.json"],
             expect=(130,), interrupt=3.0, check=_partial_json))
    add(Case("O", "sigint_play", ["play", ok, "--rounds", "10000"], expect=(130,), interrupt=3.0))

    # P. --human input
    # input that ends (or never ends a line) leaves the table like Ctrl-D: the game is saved
    human = ["play", ok, "--human", "0", "--log", "game.json"]
    add(Case("P", "dev_zero", human, stdin="/dev/zero", expect=(0,), check=_saved_game))
    add(Case("P", "long_line", human, {"in.txt": "1" * 50_000_000 + "\n"}, stdin="in.txt", expect=(0,),
             check=_saved_game))
    add(Case("P", "long_garbage", human, {"in.txt": ("x" * 1000 + "\n") * 1000}, stdin="in.txt", expect=(0,),
             check=_saved_game))

    # Q. decks NAME
    add(Case("Q", "path_any_yaml", ["decks", "d.yaml"], {"d.yaml": "a: [1, 2]\n"}))
    add(Case("Q", "path_list", ["decks", "d.yaml"], {"d.yaml": "- 1\n- 2\n"}))
    add(Case("Q", "passwd", ["decks", "/etc/passwd"], check=_no_passwd))
    add(Case("Q", "dir", ["decks", "/etc"]))
    add(Case("Q", "dev_zero", ["decks", "/dev/zero"]))
    many = ("id: big\nnames: {en: Big}\ndescription: d\nattributes:\n  value: {type: int}\ncards:\n"
            + "".join(f"  - {{id: c{i}, value: 1}}\n" for i in range(60000)))
    add(Case("Q", "dup_check_60000", ["decks", "d.yaml"], {"d.yaml": many}))
    add(Case("Q", "unknown_id", ["decks", "nosuchdeck"]))
    add(Case("Q", "abs_path_any_yaml", ["decks", "{d}/d"], {"d.yaml": "a: [1, 2]\n"}))
    add(Case("Q", "abs_path_dup_60000", ["decks", "{d}/d"], {"d.yaml": many}))
    for case in out:
        if case.cls == "Q":
            case.expect = (1, 2)  # a name that is no deck id is a usage error (2) or a located one (1)

    # R. error echo
    longline = steps('- let: {z: "nosuch"}    # ' + "x" * 1_900_000)
    add(Case("R", "long_line", ["validate", v], {v: longline}, check=_short_err(5000)))
    add(Case("R", "long_value", ["validate", v], {v: steps('- let: {z: "' + "a" * 3900 + ' + nosuch"}')},
             check=_short_err(5000)))
    add(Case("R", "long_key", ["validate", v], {v: steps('- set: {' + "k" * 1_000_000 + ': "1"}')},
             check=_short_err(5000)))
    add(Case("R", "long_option", ["play", ok, "-o", "tie=" + "x" * 100000], check=_short_err(5000)))
    add(Case("R", "long_house_option", ["play", ok, "--house", "h.yaml"],
             {"h.yaml": "target: oicho-kabu\noptions: {tie: " + "x" * 1_000_000 + "}\n"}, check=_short_err(5000)))
    here = sys.modules[__name__]
    return out + _round("hostile_round3").cases(here) + _round("hostile_round4").cases(here)


def _round(name: str):
    """benchmarks/hostile_round3.py (issue 28's classes: LET, TXT, STATS, UNI, OLD, SAVE, DASK) or
    hostile_round4.py (issue 41's: SEARCH, STATS2, HOUSE, FROMSIM, SAVE2, LOGS, VALIDATE)."""
    import importlib.util
    mod = sys.modules.get(name)
    if mod is None:
        spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(name + ".py"))
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        spec.loader.exec_module(mod)
    return mod


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env.pop("PYTHONHASHSEED", None)
    return env


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEM_CAP, MEM_CAP))
    resource.setrlimit(resource.RLIMIT_NPROC, (300, 300))
    os.setsid()


@dataclass
class Outcome:
    case: Case
    code: int | None
    seconds: float
    peak: int
    traceback: bool
    hang: bool
    escapes: bool
    problem: str | None
    controls: int = 0  # control, format and bidi characters written to the terminal
    silent: bool = False  # exit 0 where an error was expected (a silent acceptance)

    @property
    def bad(self) -> bool:
        return bool(self.traceback or self.hang or self.escapes or self.peak > BIG or self.problem)


def run(case: Case, hang: float = HANG) -> Outcome:
    """Run one case in a child process; `hang` is the wall-clock limit (a safety net in tests)."""
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        for name, text in case.files.items():
            p = d / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        if case.setup:
            case.setup(d)
        stdin = open(d / case.stdin if not case.stdin.startswith("/") else case.stdin, "rb") if case.stdin \
            else subprocess.DEVNULL
        outf, errf = open(d / ".stdout", "w+b"), open(d / ".stderr", "w+b")
        t0 = time.perf_counter()
        port = (d / ".port").read_text() if (d / ".port").is_file() else ""
        argv = [a.replace("{d}", str(d)).replace("{port}", port) for a in case.argv]
        proc = subprocess.Popen([sys.executable, "-m", "rulekit", *argv], cwd=d, stdin=stdin, stdout=outf,
                                stderr=errf, env={**_env(), **case.env}, preexec_fn=_limits)
        hung = False
        peak = 0
        status = 0
        deadline = t0 + hang + (case.interrupt or 0)
        interrupted = False
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                peak = usage.ru_maxrss * 1024
                break
            now = time.perf_counter()
            if case.interrupt and not interrupted and now - t0 > case.interrupt:
                os.killpg(proc.pid, signal.SIGINT)
                interrupted = True
                deadline = now + hang
            if now > deadline:
                hung = True
                os.killpg(proc.pid, signal.SIGKILL)
                _pid, status, usage = os.wait4(proc.pid, 0)
                peak = usage.ru_maxrss * 1024
                break
            time.sleep(0.02)
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # leftover workers
        except ProcessLookupError:
            pass
        seconds = time.perf_counter() - t0
        code = os.waitstatus_to_exitcode(status) if not hung else None
        outf.seek(0)
        errf.seek(0)
        out = outf.read().decode("utf-8", "replace")
        err = errf.read().decode("utf-8", "replace")
        outf.close()
        errf.close()
        if stdin is not subprocess.DEVNULL:
            stdin.close()
        problem = None
        if not hung and code not in case.expect:
            problem = f"exit {code}, expected {case.expect}"
        if case.check and not hung:
            problem = problem or case.check(out, err, d)
        tb = "Traceback (most recent call last)" in err
        escapes = any(c in out + err for c in ("\x1b", "\x07", "\x9b", "\x9d"))
        controls = _controls(out + err)
        silent = not hung and code == 0 and 0 not in case.expect
        if controls and not problem:
            problem = f"{controls} control, format or bidi characters on the terminal"
        return Outcome(case, code, seconds, peak, tb, hung, escapes, problem, controls, silent)


def _controls(text: str) -> int:
    """Characters a terminal may act on or that disguise text: controls (but newline and tab),
    Unicode format characters (Cf: bidi marks, joiners, tags) and line or paragraph separators."""
    import unicodedata
    return sum(1 for c in text if c not in "\n\t" and unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp"))


def _table_from(files: list[str]) -> int:
    """The per-class table of saved outcomes (the cases of the current corpus only)."""
    known = {(c.cls, c.name) for c in cases()}
    rows: dict[tuple, dict] = {}
    for f in files:
        with open(f, encoding="utf-8") as fh:
            for r in json.load(fh):
                if (r["class"], r["name"]) in known:
                    rows[(r["class"], r["name"])] = r
    print(f"{'class':5} {'cases':>5} {'bad':>4} {'tracebacks':>10} {'hangs':>5} {'>1GB':>4} {'escapes':>7} "
          f"{'peak MB':>8}")
    for cls in sorted({k[0] for k in rows}):
        rs = [r for k, r in rows.items() if k[0] == cls]
        print(f"{cls:5} {len(rs):5} {sum(r['bad'] for r in rs):4} {sum(r['traceback'] for r in rs):10} "
              f"{sum(r['hang'] for r in rs):5} {sum(r['peak'] > BIG for r in rs):4} {sum(r['escapes'] for r in rs):7} "
              f"{max(r['peak'] for r in rs) / 1e6:8.0f}")
    rs = list(rows.values())
    print(f"{'all':5} {len(rs):5} {sum(r['bad'] for r in rs):4} {sum(r['traceback'] for r in rs):10} "
          f"{sum(r['hang'] for r in rs):5} {sum(r['peak'] > BIG for r in rs):4} {sum(r['escapes'] for r in rs):7}")
    return 0


def _print_table(results: list[Outcome]) -> None:
    """Per class: cases, clean ones, each kind of failure, peak memory and the slowest case."""
    head = ("class", "cases", "clean", "tracebacks", "hangs", ">1GB", "escapes", "controls", "silent", "peak MB",
            "max s")
    print("{:6} {:>5} {:>5} {:>10} {:>5} {:>4} {:>7} {:>8} {:>6} {:>8} {:>6}".format(*head))
    order = list(dict.fromkeys(o.case.cls for o in results))
    for cls in [*order, "all"]:
        rs = [o for o in results if cls in (o.case.cls, "all")]
        if not rs:
            continue
        print("{:6} {:5} {:5} {:10} {:5} {:4} {:7} {:8} {:6} {:8.0f} {:6.1f}".format(  # noqa: UP032 - a table row reads better as a template
            cls, len(rs), sum(not o.bad for o in rs), sum(o.traceback for o in rs), sum(o.hang for o in rs),
            sum(o.peak > BIG for o in rs), sum(o.escapes for o in rs), sum(o.controls > 0 for o in rs),
            sum(o.silent for o in rs), max(o.peak for o in rs) / 1e6, max(o.seconds for o in rs)))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("classes", nargs="*", help="classes to run (default all: A-R, LET TXT STATS UNI OLD SAVE DASK, SEARCH STATS2 HOUSE FROMSIM "
                    "SAVE2 LOGS VALIDATE)")
    ap.add_argument("--json", help="write every case's outcome here")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per case")
    ap.add_argument("--from-json", nargs="+", metavar="FILE",
                    help="print the table from saved --json outputs (later files override earlier cases)")
    args = ap.parse_args(argv)
    if args.from_json:
        return _table_from(args.from_json)
    wanted = set(args.classes) or {c.cls for c in cases()}
    results = []
    for case in cases():
        if case.cls not in wanted:
            continue
        o = run(case)
        results.append(o)
        if args.verbose:
            flags = [f for f, on in (("TRACEBACK", o.traceback), ("HANG", o.hang), ("ESC", o.escapes),
                                     (">1GB", o.peak > BIG), ("CONTROLS", o.controls), ("SILENT", o.silent)) if on]
            print(f"{case.cls} {case.name:28} exit {o.code!s:>4} {o.seconds:6.1f} s {o.peak / 1e6:7.0f} MB "
                  f"{' '.join(flags)} {o.problem or ''}", flush=True)
    _print_table(results)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump([{"class": o.case.cls, "name": o.case.name, "exit": o.code, "seconds": round(o.seconds, 2),
                        "peak": o.peak, "traceback": o.traceback, "hang": o.hang, "escapes": o.escapes,
                        "problem": o.problem, "bad": o.bad, "controls": o.controls, "silent": o.silent}
                       for o in results], fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

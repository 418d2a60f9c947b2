"""Issue 28's hostile classes (round three: shared lists, text, statistics, Unicode, numbers, saves, Dask).

Loaded by benchmarks/hostile_corpus.py, which runs them like its own classes A-R:

    python benchmarks/hostile_corpus.py LET TXT STATS UNI OLD SAVE DASK -v

Every case must end with exit 1 or 2 (or 0 where the input is fine and only the output is
checked) and a clear message, under 10 s and 1 GB, with no control, format or bidi character on
the terminal. The Dask cases connect to loopback addresses only.
"""
from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

_LISTENERS: list[socket.socket] = []  # kept open while the corpus runs (a server that never answers)


def _chain(k: int) -> str:
    """Two equal shared lists of depth k built with let (a DAG of 2^k leaves each), as a prefix."""
    return ("let a0 = [1, 2] in let b0 = [1, 2] in "
            + "".join(f"let a{i} = [a{i - 1}, a{i - 1}] in let b{i} = [b{i - 1}, b{i - 1}] in " for i in range(1, k + 1)))


def _silent_server(d: Path) -> None:
    """A loopback port that accepts connections and never says a word (as an HTTP server to Dask)."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    _LISTENERS.append(s)
    (d / ".port").write_text(str(s.getsockname()[1]))


def _no_traceback_one_line(out: str, err: str, d: Path) -> str | None:
    lines = [x for x in err.strip().splitlines() if x.strip()]
    return None if len(lines) <= 3 else f"{len(lines)} lines on stderr"


def cases(hc: Any) -> list:
    """The round-three cases, as hostile_corpus.Case objects (`hc` is that module)."""
    Case, steps, variant, OK, ROOT = hc.Case, hc.steps, hc.variant, hc.OK, hc.ROOT
    out: list = []
    add = out.append
    v = "v.yaml"
    ok = str(ROOT / "variants/kabufuda/oicho-kabu.yaml")
    closures = {"RULEKIT_CODEGEN": "0"}

    # LET: shared lists of depth 40 built inside one expression, compared, scanned, printed, logged
    k = 40
    for name, expr in [("eq", "a40 == b40"), ("ne", "a40 != b40"), ("in", "b39 in a40"),
                       ("distinct", "count(distinct([a40, b40]))"), ("minus", "count([a40] - [b40])"),
                       ("index_of", "index_of([a40], b40)"), ("count_by", "count(keys(count_by([a40, b40], k -> k)))"),
                       ("sorted", "count(sorted([b40, a40]))")]:
        text = steps(f'- let: {{z: "{_chain(k)}{expr}"}}')
        add(Case("LET", name, ["validate", v], {v: text}))
        add(Case("LET", name + "_closures", ["validate", v], {v: text}, env=closures))
    add(Case("LET", "say", ["play", v], {v: steps(f'- say: "{{{_chain(k)}a40}}"')}))
    add(Case("LET", "say_validate", ["validate", v], {v: steps(f'- say: "{{{_chain(k)}a40}}"')}))
    add(Case("LET", "choice_value_log", ["play", v, "--log", "log.json"],
             {v: steps('- choose: pick', '  player: 0', f'  options: {{a: "[{_chain(k)}a40]"}}')}))
    add(Case("LET", "pay_why", ["play", v],
             {v: steps(f'- pay: "for {{{_chain(k)}count([a40]) + count(a40)}} and {{{_chain(k)}a40}}"',
                       '  from: 0', '  to: 1', '  amount: "1"')}))
    add(Case("LET", "where_eq", ["validate", v],
             {v: steps('- choose: pick', '  player: 0', '  options: {a: "[1, 2]"}',
                       f'  where: "{_chain(k)}a40 == b40"')}))

    # TXT: text for people charged by its length
    big = ['- set: {big: "flatten(map(range(9), i -> range(10000)))"}']
    vb = "  big: {init: \"[]\"}\n"
    loop = ['- for: i', '  in: "range(5000)"']
    add(Case("TXT", "say_big", ["play", v],
             {v: steps(*big, *loop, "  do: [" + ", ".join(['{say: "{big}"}'] * 20) + "]", vars_extra=vb)}))
    add(Case("TXT", "say_big_validate", ["validate", v],
             {v: steps(*big, *loop, "  do: [" + ", ".join(['{say: "{big}"}'] * 20) + "]", vars_extra=vb)}))
    add(Case("TXT", "why_big", ["play", v],
             {v: steps(*big, *loop, '  do: [{pay: "for {big}", from: 0, to: 1, amount: "0 + 1 - 1 + 1"}, '
                       '{pay: "back {big}", from: 1, to: 0, amount: "1"}]', vars_extra=vb)}))
    add(Case("TXT", "show_big", ["play", v],
             {v: steps(*big, *loop, '  do: [{set: {big: "big", show: true}}, {set: {big: "big", show: true}}]',
                       vars_extra=vb)}))
    add(Case("TXT", "show_big_closures", ["play", v],
             {v: steps(*big, *loop, '  do: [{set: {big: "big", show: true}}, {set: {big: "big", show: true}}]',
                       vars_extra=vb)}, env=closures))
    lab = "{value}" * 14000
    add(Case("TXT", "labels_star", ["play", v, "--human", "0"],
             {v: steps('- choose: pick', '  player: 0', '  options: {a: "range(10000)"}',
                       f'  labels: {{a: {{"*": "{lab}"}}}}'), "in.txt": "1\n"}, stdin="in.txt"))
    add(Case("TXT", "labels_star_validate", ["validate", v],
             {v: steps('- choose: pick', '  player: 0', '  options: {a: "range(10000)"}',
                       f'  labels: {{a: {{"*": "{lab}"}}}}')}))

    # STATS: readings charged to the round they read; descriptions inert
    costly = "count(filter(range(10000), i -> count(filter(range(190), j -> j == i)) >= 0))"
    phases = "round:\n" + "".join(f"  - id: p{i}\n    steps:\n      - say: hi\n" for i in range(200))
    stats = "stats:\n" + "".join(f"  s{i}: {{after: p{i}, count: \"{costly} > 0\"}}\n" for i in range(200))
    add(Case("STATS", "costly_readings", ["simulate", v, "--rounds", "1", "--stats", "s.yaml", "--quiet"],
             {v: variant(phases), "s.yaml": "description: costly\n" + stats}))
    add(Case("STATS", "costly_in_variant", ["simulate", v, "--rounds", "1", "--quiet"],
             {v: variant(phases + stats)}))
    esc = '"\\e[2J\\u061c\\u2066\\e]52;c;cm0=\\a"'
    sdesc = f"stats:\n  s: {{at: round, count: \"true\", description: {esc}}}\n"
    add(Case("STATS", "description_escape", ["simulate", v, "--rounds", "3", "--quiet"], {v: variant(OK + sdesc)},
             expect=(0,)))
    add(Case("STATS", "file_description_escape", ["simulate", v, "--rounds", "3", "--stats", "s.yaml", "--quiet"],
             {v: hc.GOOD, "s.yaml": f"description: {esc}\nstats:\n  s: {{at: round, count: \"true\", "
              f"description: {esc}}}\n"}, expect=(0,)))

    # UNI: format and bidi characters shown as escapes
    for cname, ch in [("alm", "\\u061c"), ("wj", "\\u2060"), ("invisible_plus", "\\u2064"), ("tag", "\\U000E0041"),
                      ("mvs", "\\u180e"), ("interlinear", "\\ufff9"), ("soft_hyphen_run", "\\u00ad\\u00ad"),
                      ("lrm", "\\u200e")]:
        t = f'"a{ch}b{ch}c"'
        add(Case("UNI", "say_" + cname, ["play", v], {v: steps(f"- say: {t}")}, expect=(0,)))
    alm = '"x\\u061cy\\u2063z\\U000E0020"'
    named = hc.HEAD.replace("names: {en: Probe}", f"names: {{en: {alm}}}") + "game:\n  start_chips: 100\n" + OK
    add(Case("UNI", "rules", ["rules", v], {v: named}, expect=(0,)))
    add(Case("UNI", "show", ["show", v], {v: named}, expect=(0,)))
    add(Case("UNI", "human_prompt", ["play", v, "--human", "0"],
             {v: steps('- choose: pick', '  player: 0', f'  prompt: {alm}', '  options: {a: "[1, 2]"}'),
              "in.txt": "1\n"}, stdin="in.txt", expect=(0,)))
    add(Case("UNI", "diff_note", ["diff", ok, "--house", "h.yaml"],
             {"h.yaml": f"target: oicho-kabu\nname: {alm}\nnote: {alm}\noptions: {{}}\n"}, expect=(0,)))
    add(Case("UNI", "stats_description", ["simulate", v, "--rounds", "2", "--quiet"],
             {v: variant(OK + f"stats:\n  s: {{at: round, count: \"true\", description: {alm}}}\n")}, expect=(0,)))
    add(Case("UNI", "error_message", ["validate", v], {v: steps(f'- let: {{z: {alm}}}', '- let: {w: "nosuchname"}')}))

    # OLD: numbers parsed from text take ASCII digits only
    add(Case("OLD", "explain_sup2", ["explain", ok, "round.²"]))
    add(Case("OLD", "explain_arabic", ["explain", ok, "round.٣"]))
    add(Case("OLD", "explain_fullwidth", ["explain", ok, "round.１"]))
    add(Case("OLD", "policy_sup2", ["play", ok, "--policy", "²=careful"], expect=(1, 2)))
    add(Case("OLD", "policy_arabic", ["play", ok, "--policy", "٠=careful"], expect=(1, 2)))
    add(Case("OLD", "policy_sup2_sim", ["simulate", ok, "--rounds", "5", "--policy", "²=careful"], expect=(1, 2)))
    add(Case("OLD", "option_arabic", ["play", ok, "-o", "rounds=٣"], expect=(1, 2)))
    add(Case("OLD", "option_underscore", ["play", ok, "-o", "rounds=1_0"], expect=(1, 2)))

    def saved_with(policy: str) -> Callable[[Path], None]:
        def setup(d: Path) -> None:
            subprocess.run([sys.executable, "-m", "rulekit", "play", ok, "--log", str(d / "good.json"), "--rounds", "2"],
                           cwd=d, capture_output=True, env=hc._env(), timeout=60)
            log = json.loads((d / "good.json").read_text())
            log["policy"] = policy
            log["partial"] = True
            from rulekit.people.replay import game_digest  # a saved game as rulekit writes one
            log["game_sha256"] = game_digest(log)
            (d / "save.json").write_text(json.dumps(log))
        return setup
    add(Case("OLD", "resume_policy_sup2", ["play", "--resume", "save.json"], setup=saved_with("²=careful"),
             expect=(1, 2)))
    add(Case("OLD", "resume_policy_arabic", ["play", "--resume", "save.json"], setup=saved_with("٠=careful"),
             expect=(1, 2)))

    # SAVE: logs and saves padded with events
    def padded(n: int, key: str = "events", partial: bool = False) -> Callable[[Path], None]:
        def setup(d: Path) -> None:
            subprocess.run([sys.executable, "-m", "rulekit", "play", ok, "--log", str(d / "good.json")],
                           cwd=d, capture_output=True, env=hc._env(), timeout=60)
            text = (d / "good.json").read_text()
            log = json.loads(text)
            if partial:
                log["partial"] = True
            pad = ", ".join(['{"t": "say", "text": "x"}'] * n) if key == "events" else ", ".join(["0"] * n)
            body = json.dumps(log)
            i = body.index(f'"{key}": [') + len(f'"{key}": [')
            (d / "log.json").write_text(body[:i] + pad + (", " if body[i] != "]" else "") + body[i:])
        return setup
    add(Case("SAVE", "events_2m", ["replay", "log.json", "--quiet"], setup=padded(2_000_000)))
    add(Case("SAVE", "events_at_limit", ["replay", "log.json", "--quiet"], setup=padded(999_000)))
    add(Case("SAVE", "events_64mb", ["replay", "log.json", "--quiet"], setup=padded(2_300_000)))
    add(Case("SAVE", "moves_16m", ["replay", "log.json", "--quiet"], setup=padded(16_000_000, "moves")))
    add(Case("SAVE", "resume_events_2m", ["play", "--resume", "log.json"], setup=padded(2_000_000, partial=True)))

    # DASK: scheduler addresses checked before connecting, loopback only
    sim = ["simulate", ok, "--rounds", "10", "--quiet", "--scheduler"]
    for name, addr, code in [
        ("refused", "tcp://127.0.0.1:1", 1), ("bad_port", "tcp://127.0.0.1:99999", 2),
        ("port_text", "tcp://127.0.0.1:http", 2), ("ipv6", "tcp://[::1]:1", 1), ("ws", "ws://127.0.0.1:1", 2),
        ("garbage", "not an address", 2), ("no_scheme", "127.0.0.1:1", 1), ("inproc", "inproc://x", 2),
        ("ucx", "ucx://127.0.0.1:1", 2), ("tls", "tls://127.0.0.1:1", 2), ("escape", "tcp://\x1b[2J\u061c:1", 2),
        ("empty", "", 2), ("no_port", "tcp://127.0.0.1", 2), ("remote_name", "tcp://no-such-host.invalid:8786", 1),
    ]:
        add(Case("DASK", name, [*sim, addr], expect=(code,), check=_no_traceback_one_line))
    add(Case("DASK", "silent_server", [*sim, "tcp://127.0.0.1:{port}"], setup=_silent_server,
             check=_no_traceback_one_line))
    add(Case("DASK", "silent_server_timeout", [*sim, "tcp://127.0.0.1:{port}", "--scheduler-timeout", "1"],
             setup=_silent_server, check=_no_traceback_one_line))
    add(Case("DASK", "refused_fast", [*sim, "tcp://127.0.0.1:1", "--scheduler-timeout", "1"],
             check=_no_traceback_one_line))
    add(Case("DASK", "timeout_bad", [*sim, "tcp://127.0.0.1:1", "--scheduler-timeout", "-1"], expect=(2,)))
    return out


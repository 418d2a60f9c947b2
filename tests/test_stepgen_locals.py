"""The rules' locals and step count held in Python locals by generated phases (rulekit.engine.genframe)
behave as the dict and counter of the step-by-step engine: the same values read, the same names and
count seen by a seat at its decisions, the same located error for a name a skipped choice left unset."""
from __future__ import annotations

import pytest

from rulekit.core.errors import RuleError
from rulekit.engine.runner import make_agents, play

from .test_stepgen_kinds import build, state

SHADOWED = '''
      - set: {stake: 0}
      - let: {i: 7}
      - for: i
        in: "range(3)"
        do:
          - for: i
            in: "[10, 20]"
            do: [{add: {stake: i}}]
          - add: {stake: "i * 100"}
      - say: "i {i} stake {stake}"
'''


def test_a_name_set_again_inside_a_loop_reads_as_the_dict_did(tmp_path):
    # one local per name: the inner loop's i is the outer's, and is what the let's i reads after
    fast, slow = build(tmp_path, SHADOWED, True), build(tmp_path, SHADOWED, False)
    assert "lc0_" in fast.phases[-1].run.source
    a = play(fast, 5, 1, make_agents(fast, 5, 1), rounds=1, logging=True)
    b = play(slow, 5, 1, make_agents(slow, 5, 1), rounds=1, logging=True)
    assert state(a) == state(b) and a.events == b.events
    said = [e["text"] for e in a.events if e["t"] == "say"]
    assert said == ["i 20 stake 6090"]  # 3 times (10 + 20) and 3 times 20 * 100


ASKED = '''
      - let: {k: 3}
      - for: p
        in: "[0, 1]"
        do:
          - let: {t: "p + k"}
          - choose: pick
            player: p
            options: {a: "range(3)"}
          - add: {stake: "a + t"}
'''


class _Looking:
    """Takes the first action, noting the rules' names and the step count at each decision."""

    name = "looking"

    def __init__(self, seen):
        self.seen = seen

    def act(self, d):
        self.seen.append((d.player, dict(d.ctx.loc), d.ctx.steps))
        return 0


def test_a_seat_deciding_sees_the_names_in_reach_and_the_steps_so_far(tmp_path):
    got = []
    for codegen in (True, False):
        g = build(tmp_path, ASKED, codegen)
        seen: list = []
        play(g, 5, 2, [_Looking(seen)] * 5, rounds=1, logging=False)
        mine = [(p, {k: v for k, v in loc.items() if k in ("k", "p", "t")}, steps) for p, loc, steps in seen
                if "t" in loc]
        assert [(p, loc) for p, loc, _s in mine] == [(0, {"k": 3, "p": 0, "t": 3}), (1, {"k": 3, "p": 1, "t": 4})]
        got.append(seen)
    assert [(p, s) for p, _l, s in got[0]] == [(p, s) for p, _l, s in got[1]]  # the same count at each decision


@pytest.mark.parametrize("logging", [False, True])
def test_the_step_count_after_a_round_is_the_step_by_step_one(tmp_path, logging):
    for seed in range(3):
        counts = []
        for codegen in (True, False):
            g = build(tmp_path, SHADOWED + ASKED.replace("let: {k: 3}", "let: {k: 4}"), codegen)
            res = play(g, 5, seed, make_agents(g, 5, seed), rounds=1, logging=logging)
            counts.append(res.state.steps)
        assert counts[0] == counts[1] > 8


UNSET = '''
      - choose: none
        player: 0
        options: {a: "range(count(deck) - count(deck))"}
        if_none: skip
      - set: {stake: "a + 1"}
'''


@pytest.mark.parametrize("logging", [False, True])
def test_a_name_a_skipped_choice_never_set_fails_located_as_before(tmp_path, logging):
    got = []
    for codegen in (True, False):
        g = build(tmp_path, UNSET, codegen, check=False)
        with pytest.raises(RuleError) as exc:
            play(g, 5, 1, make_agents(g, 5, 1), rounds=1, logging=logging)
        got.append(str(exc.value))
    assert got[0] == got[1] and "every.yaml:" in got[0]


RECURSIVE = '''id: recursive
extends: {parent}
meta:
  names: {{en: Recursive}}
procedures:
  down:
    params: {{k: int}}
    steps:
      - add: {{stake: 1}}
      - if: "k < {stop}"
        then:
          - call: {{proc: down, with: {{k: "k + 1"}}}}
round:
  - id: steps
    name: Steps
    text: A procedure calling itself.
    steps:
      - set: {{stake: 0}}
      - call: {{proc: down, with: {{k: 0}}}}
'''


@pytest.mark.parametrize("stop, deep", [(60, False), (99, False), (100, True), (500, True)])
def test_procedures_calling_each_other_stop_at_the_same_depth_written_out_or_called(tmp_path, stop, deep):
    # calls written out in place are counted in the code, calls of other code in ctx.depth: together
    # the same limit, met at the same call, as step by step
    from rulekit.engine.build import build_game, load_variant
    from rulekit.engine.testing import variant_path
    p = tmp_path / "recursive.yaml"
    p.write_text(RECURSIVE.format(parent=variant_path("hanafuda/kingo.yaml"), stop=stop), encoding="utf-8")
    got = []
    for codegen in (True, False):
        g = build_game(load_variant(str(p)), codegen=codegen)
        if codegen:
            # a phase runs with no call under way: its call written out tests no depth, the
            # procedure's own code (run at any depth) does
            assert "ctx.depth > 99" not in g.phases[-1].run.source
            assert "ctx.depth > 99" in g.procedures["down"].source
        try:
            res = play(g, 5, 1, make_agents(g, 5, 1), rounds=1, logging=False)
            got.append(("stake", res.state.vars["stake"], res.state.depth))
        except RuleError as exc:
            got.append(("error", str(exc)))
    assert got[0] == got[1]
    if deep:
        assert got[0][0] == "error" and "more than 100 deep" in got[0][1]
    else:
        assert got[0] == ("stake", stop + 1, 0)


ASK = '''procedures:
  ask:
    params: {{k: int}}
    steps:
      - let: {{t: "k * 2"}}
      - choose: pick
        player: k
        options: {{a: "range(3)"}}
      - add: {{stake: "a + t"}}
'''
ASKING = '''id: asking
extends: {parent}
meta:
  names: {{en: Asking}}
''' + ASK + '''round:
  - id: steps
    name: Steps
    text: A procedure asking a seat.
    steps:
      - for: p
        in: "[0, 1]"
        do:
          - call: {{proc: ask, with: {{k: p}}}}
'''


def test_a_seat_asked_inside_a_procedure_sees_the_procedures_names_only(tmp_path):
    # a procedure written out in place has no dict: one is made of its names for the seat to read
    got = []
    for g, seen, res in _asked_both_ways(tmp_path, ASKING):
        got.append((res.events, res.state.vars, res.state.loc))
    assert got[0][:2] == got[1][:2]


def _asked_both_ways(tmp_path, text: str):
    """The variant `text` (over Kingo) played one round with and without generated code, every seat
    looking at its names when asked: (game, what the seats saw, the result) each way; the seats
    asked by `ask` saw its names only."""
    from rulekit.engine.build import build_game, load_variant
    from rulekit.engine.testing import variant_path
    p = tmp_path / "procs.yaml"
    p.write_text(text.format(parent=variant_path("hanafuda/kingo.yaml")), encoding="utf-8")
    for codegen in (True, False):
        g = build_game(load_variant(str(p)), codegen=codegen)
        seen: list = []
        res = play(g, 5, 3, [_Looking(seen)] * 5, rounds=1, logging=True)
        asked = [(who, loc) for who, loc, _s in seen if "t" in loc]
        assert asked == [(0, {"k": 0, "t": 0}), (1, {"k": 1, "t": 2})]
        yield g, seen, res


BARE = '''id: bare
extends: {parent}
meta:
  names: {{en: Bare}}
''' + ASK + '''  early:
    params: {{k: int}}
    steps:
      - if: "k > 0"
        then: [{{return: k}}]
      - add: {{stake: 100}}
round:
  - id: steps
    name: Steps
    text: Procedures written out.
    steps:
      - for: p
        in: "[0, 1]"
        do:
          - call: {{proc: ask, with: {{k: p}}}}
          - say: "p {{p}} stake {{stake}}"
          - call: {{proc: early, with: {{k: p}}}}
          - say: "p {{p}} stake {{stake}} again"
'''


def test_a_procedure_with_no_return_is_written_out_with_no_try_and_ctx_loc_put_back(tmp_path):
    # `ask` has no return: its steps stand in the phase with no try around them, the dict made for
    # the seat deciding taken back from ctx.loc at once, so the phase's own names are read after it
    # (by the log's words); `early` returns, and keeps its try
    got = []
    for g, seen, res in _asked_both_ways(tmp_path, BARE):
        if not got:  # (generated code first)
            src = g.phases[-1].run.source
            assert src.count(" as rx") == 1 and src.count("finally:") == 1 and "ctx.loc = L" in src
        said = [e["text"] for e in res.events if e.get("t") == "say"]
        assert [s.split(" stake")[0] for s in said] == ["p 0", "p 0", "p 1", "p 1"]
        got.append((res.events, res.state.vars, [s for _w, _l, s in seen]))
    assert got[0] == got[1]


FORWARD = '''
      - for: p
        in: "[0, 1]"
        do:
          - set: {"put[p]": "stake + p + 1"}
          - set: {stake: "put[p] * 2 + put[0]"}
          - if: "count(deck) > 100"
            then: [{set: {"put[p]": "stake + 7"}}]
          - set: {stake: "put[p] + 100"}
          - repeat:
              - add: {"put[p]": 1}
            while: "put[p] < 9"
          - set: {stake: "put[p] + 1000"}
'''


def test_an_item_stored_then_read_by_the_next_line_is_read_from_the_local_stored(tmp_path):
    # the set of stake, written right after put[p] is stored, reads the stored value's local (put[0]
    # stays a read: another index); the set after the `if` (whose store may not have run) and the
    # repeat's test (run again after the loop's steps) read put[p]
    fast, slow = build(tmp_path, FORWARD, True), build(tmp_path, FORWARD, False)
    lines = fast.phases[-1].run.source.splitlines()
    at = next(i for i, ln in enumerate(lines) if "= v" in ln and "[lc0_0] = v" in ln)
    stored = lines[at].split(" = ")[1].strip()
    nxt = next(ln for ln in lines[at + 1:] if ln.strip() and not ln.strip().startswith(("#", "try:")))
    assert f"({stored} * 2)" in nxt and "[lc0_0]" not in nxt and "[0]" in nxt
    assert any("while True" in ln for ln in lines) and any("V[C" in ln and "[lc0_0] < 9" in ln for ln in lines)
    assert any("V[C" in ln and "[lc0_0] + 100)" in ln for ln in lines)
    assert any("V[C" in ln and "[lc0_0] + 1000)" in ln for ln in lines)  # (after the loop, which may not run)
    for seed in range(3):
        a = play(fast, 5, seed, make_agents(fast, 5, seed), rounds=1, logging=True)
        b = play(slow, 5, seed, make_agents(slow, 5, seed), rounds=1, logging=True)
        assert state(a) == state(b) and a.events == b.events


ALIASED = '''id: aliased
extends: {parent}
meta:
  names: {{en: Aliased}}
procedures:
  bump:
    params: {{k: int}}
    steps:
      - for: i
        in: "[0, 1]"
        do:
          - add: {{stake: k}}
          - let: {{k: "k + 5"}}
  show:
    params: {{k: int}}
    steps:
      - set: {{"put[k]": "stake + k"}}
      - add: {{stake: "put[k]"}}
round:
  - id: steps
    name: Steps
    text: Parameters given locals.
    steps:
      - for: p
        in: "[0, 1]"
        do:
          - call: {{proc: bump, with: {{k: p}}}}
          - call: {{proc: show, with: {{k: p}}}}
          - add: {{stake: "p * 10"}}
'''


def test_a_parameter_never_set_reads_the_local_given_one_set_again_is_copied(tmp_path):
    # show's k is never set: it reads the caller's p (and stake reads back the put[p] just stored);
    # bump sets k again inside a loop: it keeps a copy, so its loop's second turn reads k + 5
    from rulekit.engine.build import build_game, load_variant
    from rulekit.engine.testing import variant_path
    p = tmp_path / "aliased.yaml"
    p.write_text(ALIASED.format(parent=variant_path("hanafuda/kingo.yaml")), encoding="utf-8")
    fast, slow = (build_game(load_variant(str(p)), codegen=c) for c in (True, False))
    src = fast.phases[-1].run.source
    assert "[lc0_0] = " in src and src.count("= lc0_0\n") == 1  # (one copy: bump's k)
    for seed in range(2):
        a = play(fast, 5, seed, make_agents(fast, 5, seed), rounds=1, logging=True)
        b = play(slow, 5, seed, make_agents(slow, 5, seed), rounds=1, logging=True)
        assert state(a) == state(b) and a.events == b.events

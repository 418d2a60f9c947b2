"""Generated code merges the step counts of straight-line code (rulekit.engine.genticks): a
step's count that follows another's in the same block, with nothing between that could leave the
block, read the count or count steps, is added to the first. The count a round ends with (which a
search bot is charged) is the same; a round that runs away still stops with a located error."""
from __future__ import annotations

import pytest

from rulekit.core.errors import RuleError
from rulekit.engine.genticks import Ticks
from rulekit.engine.runner import make_agents, play

from .test_genproof import build

STEPS = '''
      - shuffle: deck
      - for: p
        in: seats
        do:
          - move: {from: deck, to: "hand[p]", count: 1}
          - call: twice
            with: {q: p}
          - repeat:
              - choose: yes_no
                player: p
                prompt: Again?
                text: Again or not.
                options: {b: "[true, false]"}
              - set: {again: b}
              - call: twice
                with: {q: p}
            while: "again and count(hand[p]) < 4"
'''
CHILD = '''id: proofs
extends: {parent}
meta:
  names: {{en: Proofs}}
vars:
  again: {{init: false, description: "Whether to go round again."}}
procedures:
  twice:
    params: {{q: int}}
    steps:
      - move: {{from: deck, to: "hand[q]", count: 1}}
round:
  - id: steps
    name: Steps
    text: Counted steps.
    steps:
{steps}
'''


def counts(source: str) -> list[str]:
    return [s.strip() for s in source.splitlines() if s.strip().startswith("S += ")]


def test_counts_in_one_block_are_added_to_the_first(tmp_path):
    fast = build(tmp_path, STEPS, child=CHILD)
    # the loop's round and the call after it; the repeat's round and the choice after it (the
    # choice's decision reads the count: the call after it keeps its own)
    assert counts(fast.phases[-1].run.source) == ["S += 2", "S += 2", "S += 1"]


def test_the_count_a_round_ends_with_is_the_same(tmp_path):
    fast, slow = build(tmp_path, STEPS, child=CHILD), build(tmp_path, STEPS, codegen=False, child=CHILD)
    for seed in range(6):
        a = play(fast, 5, seed, make_agents(fast, 5, seed), rounds=1, logging=True)
        b = play(slow, 5, seed, make_agents(slow, 5, seed), rounds=1, logging=True)
        assert a.events == b.events and a.state.zones == b.state.zones
        assert a.state.steps == b.state.steps > 5 * 2


def test_a_runaway_loop_still_stops_at_its_place(tmp_path):
    steps = '''
      - repeat:            # HERE
          - call: twice
            with: {q: 0}
          - move: {from: "hand[0]", to: deck}
        while: "true"
        max: 1000000000
'''
    fast = build(tmp_path, steps, check=False, child=CHILD)
    assert counts(fast.phases[-1].run.source) == ["S += 2"]
    line = next(i for i, s in enumerate((tmp_path / "proofs.yaml").read_text().splitlines(), 1) if "# HERE" in s)
    for g in (fast, build(tmp_path, steps, codegen=False, check=False, child=CHILD)):
        with pytest.raises(RuleError) as e:
            play(g, 5, 1, make_agents(g, 5, 1), rounds=1, logging=False)
        assert f"proofs.yaml:{line}:" in str(e.value) and "steps" in str(e.value)


@pytest.mark.parametrize("between, merged", [
    (["x = 1", "    if y: z = 2"], True),  # plain lines, a deeper block
    (["try:", "    v = f()", "except ERRS:", "    v = g(ctx)"], True),  # an expression's located fallback
    (["ctx.steps = S"], False),  # the count read
    (["if y: raise E()"], False),  # the block may be left
    (["    break"], False),
    (["except C3:"], False),
    (["S = ctx.steps"], False),
])
def test_what_a_count_is_not_added_across(between, merged):
    lines = ["        S += 1", "        if S > SL: ctx.steps = S; TOO_MANY(ctx, C1)", *("        " + b for b in between)]
    t = Ticks()
    t.open(0, 2)
    assert t.merge(lines, 2) is merged and lines[0] == ("        S += 2" if merged else "        S += 1")
    assert not Ticks().merge(lines, 2)  # (nothing open)
    t.open(0, 2)
    assert not t.merge(lines, 3)  # (another block)


def test_a_count_is_not_added_past_the_end_of_its_block():
    lines = ["            S += 1", "            if S > SL: ctx.steps = S; TOO_MANY(ctx, C1)", "        x = 1"]
    t = Ticks()
    t.open(0, 3)
    assert not t.merge(lines, 3) and lines[0].strip() == "S += 1"


def test_a_function_counting_no_step_keeps_no_count(tmp_path):
    from rulekit.engine.genticks import uncounted

    steps = '''
      - shuffle: deck
      - deal: {to: hand, count: 2}
      - set_dealer: dealer
'''
    fast, slow = build(tmp_path, steps, child=CHILD), build(tmp_path, steps, codegen=False, child=CHILD)
    source = fast.phases[-1].run.source
    assert "S, SL = " not in source and "ctx.steps" not in source
    a = play(fast, 5, 3, make_agents(fast, 5, 3), rounds=1, logging=True)
    b = play(slow, 5, 3, make_agents(slow, 5, 3), rounds=1, logging=True)
    assert a.events == b.events and a.state.steps == b.state.steps
    # a count kept after other code ran, first in its block: `pass`; a function counting steps: as it is
    assert uncounted(["x = 1", "try:", "    ctx.steps = S", "finally:", "    S = ctx.steps", "    y = 2",
                      "ctx.steps = S"]) == ["x = 1", "try:", "    pass", "finally:", "    pass", "    y = 2", ""]
    assert uncounted(["S += 1", "ctx.steps = S"]) is None

"""Procedures that return a value (`return:`, bound by `call ... as:`) and loops that stop
early (`break:`), on both execution paths (closures and generated code)."""
from __future__ import annotations

import pytest

from rulekit.core.errors import render_all
from rulekit.engine.build import build_game, check_variant, load_variant
from rulekit.engine.runner import make_agents, play

from .test_language_options import variant

SHOWDOWN = '''      - for: p
        in: seats
        do:
          - reveal: {zone: "hand[p]"}
          - set: {"total[p]": "sum(hand[p], c -> c.value) % 10"}
'''
# the same totals, worked out by a procedure that returns the value, and a count of the seats
# before the first one holding a 9, found by a loop that stops there
WITH_RETURN = '''      - for: p
        in: seats
        do:
          - reveal: {zone: "hand[p]"}
          - call: {proc: last_digit, with: {q: p}, as: t}
          - set: {"total[p]": t}
      - set: {before_nine: 0}
      - for: p
        in: seats
        do:
          - break: "total[p] == 9"
          - add: {before_nine: 1}
'''
PROCS = '''procedures:
  last_digit:
    params: {q: int}
    steps:
      - for: c
        in: "hand[q]"
        do:
          - if: "c.value < 0"
            then:
              - return: 0
      - return: "sum(hand[q], c -> c.value) % 10"

round:
'''
VARS = '''vars:
  total: {per: player, init: 0, description: "The last digit of the total of a player's hand."}
'''
MORE_VARS = VARS + '''  before_nine: {init: 0, description: "Seats before the first one with a 9."}
'''


@pytest.mark.parametrize("codegen", [True, False])
def test_a_returned_value_and_an_early_break_give_the_same_game(tmp_path, codegen):
    plain = variant(tmp_path / "a", (VARS, MORE_VARS)) if (tmp_path / "a").mkdir() is None else None
    new = variant(tmp_path / "b", (VARS, MORE_VARS), (SHOWDOWN, WITH_RETURN), ("round:\n", PROCS)) \
        if (tmp_path / "b").mkdir() is None else None
    assert [d.render() for d in check_variant(new)] == []
    g0 = build_game(load_variant(plain), codegen=codegen)
    g1 = build_game(load_variant(new), codegen=codegen)
    nines = 0
    for seed in range(12):
        r0 = play(g0, 4, seed, make_agents(g0, 4, seed), rounds=1)
        r1 = play(g1, 4, seed, make_agents(g1, 4, seed), rounds=1)
        assert r1.chips == r0.chips and r1.state.vars["total"] == r0.state.vars["total"]
        totals = r1.state.vars["total"]
        want = totals.index(9) if 9 in totals else 4
        assert r1.state.vars["before_nine"] == want
        nines += 9 in totals
    assert 0 < nines < 12  # both ways out of the loop were taken


def test_break_outside_a_loop_and_return_outside_a_procedure_are_located_errors(tmp_path):
    p = variant(tmp_path, (SHOWDOWN, SHOWDOWN + "      - break: true\n      - return: 1\n"))
    out = render_all(check_variant(p))
    assert "break: only inside a for or repeat loop" in out and "return: only inside a procedure" in out


def test_as_on_a_procedure_without_return_is_a_located_error(tmp_path):
    p = variant(tmp_path, (SHOWDOWN, SHOWDOWN + "      - call: {proc: nothing, as: x}\n"),
                ("round:\n", "procedures:\n  nothing:\n    steps:\n      - record: n\n\nround:\n"))
    out = render_all(check_variant(p))
    assert "call nothing: as x, but procedure nothing returns no value" in out


@pytest.mark.parametrize("codegen", [True, False])
def test_a_yaku_rank_may_read_its_own_value(tmp_path, codegen):
    from rulekit.lang.expr.scope import EVAL_BUDGET
    p = variant(tmp_path, ("      value: 2\n", "      value: \"cards[0].value\"\n      rank: value\n"))
    assert [d.render() for d in check_variant(p)] == []
    g = build_game(load_variant(p), codegen=codegen)
    ctx = g.new_ctx(3, 0, None)
    ctx.budget = EVAL_BUDGET
    index = g.card_index
    for v in (3, 7):
        hits = ctx.yaku_eval("hand", [index[f"{v}-1"], index[f"{v}-2"]], 1)
        assert [(h.id, h.value, h.rank) for h in hits] == [("pair", v, v)]


SAKE = '''id: sake-reading
extends: {parent}
meta:
  names: {{en: Sake cup reading}}
options:
  sake_cup:
    type: choice
    default: better
    values: {{animal: "always an Animal", chaff: "always a Chaff", better: "an Animal with four other Animals, else a Chaff"}}
    description: How the Sake cup counts.
    source: "test"
procedures:
  sake_cup_as:
    params: {{p: int}}
    steps:
      - if: "opt.sake_cup == 'animal'"
        then: [{{return: "'animal'"}}]
      - if: "opt.sake_cup == 'chaff'"
        then: [{{return: "'chaff'"}}]
      - return: "if count(captures[p], c -> c.type == 'animal' and c.id != '9-1') >= 4 then 'animal' else 'chaff'"
round:
  - id: cup
    name: The Sake cup
    text: How each player counts the Sake cup.
    steps:
      - for: p
        in: seats
        do:
          - call: {{proc: sake_cup_as, with: {{p: p}}, as: cup}}
          - say: "Seat {{p}} counts the Sake cup as {{cup}}."
'''


@pytest.mark.parametrize("reading", ["animal", "chaff", "better"])
def test_the_sake_cup_reading_is_one_procedure_returning_a_value(tmp_path, reading):
    from rulekit.engine.testing import variant_path
    p = tmp_path / "sake.yaml"
    p.write_text(SAKE.format(parent=variant_path("hanafuda/hana-awase.yaml")), encoding="utf-8")
    assert [d.render() for d in check_variant(str(p))] == []
    g = build_game(load_variant(str(p)), {"sake_cup": reading})
    res = play(g, 3, 4, make_agents(g, 3, 4), rounds=1, logging=True)
    said = [e["text"] for e in res.events if e["t"] == "say"]
    assert len(said) == 3
    caps = {s: [c for e in res.events if e["t"] == "move" and e["to"] == f"captures[{s}]" for c in e["cards"]]
            for s in range(3)}
    for s, text in enumerate(said):
        animals = sum(g.deck.cards[g.card_index[c]].attrs["type"] == "animal" and c != "9-1" for c in caps[s])
        want = reading if reading != "better" else ("animal" if animals >= 4 else "chaff")
        assert text == f"Seat {s} counts the Sake cup as {want}."

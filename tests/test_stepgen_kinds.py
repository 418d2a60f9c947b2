"""Every step kind written out as Python (rulekit.engine.stepgen) does what its closure does:
the same state, chips and log, and the same located error when a rule cannot be carried out."""
from __future__ import annotations

import re

import pytest

from rulekit.core.errors import RuleError
from rulekit.engine.build import build_game, check_variant, load_variant
from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import variant_path

CHILD = '''id: every-step
extends: {parent}
meta:
  names: {{en: Every step kind}}
procedures:
  first_over:
    params: {{xs: "list<int>", k: int}}
    steps:
      - for: x
        in: xs
        do:
          - if: "x > k"
            then: [{{return: x}}]
      - return: -1
  share:
    params: {{k: int}}
    steps:
      - return: "60 / k"
round:
  - id: steps
    name: Steps
    text: Every step kind.
    steps:
{steps}
'''

EVERY_KIND = '''
      - shuffle: deck
      - cut: deck
      - deal: {to: hand, count: 2}
      - deal: {to: hand, players: "[1, 0]", face: up}
      - move: {from: deck, to: "hand[0]", at: 2}
      - swap: ["hand[0]", "hand[1]"]
      - reveal: {zone: "hand[0]", to: none}
      - reveal: {zone: "hand[1]"}
      - pay: {from: 0, to_pot: pot, amount: 3}
      - pay: {from: 1, to_pot: pot, amount: 2}
      - pay: {from_pot: pot, to: 1, amount: 1}
      - pay: {from_pot: pot, to: dealer}
      - let: {total: 0}
      - for: p
        in: seats
        do:
          - if: "p == 1"
            then: [{break: true}]
          - set: {stake: "stake + p"}
      - repeat:
          - add: {stake: 1}
          - break: "stake > 9"
        while: "true"
      - call: {proc: first_over, with: {xs: "[1, 5, 9]", k: 4}, as: big}
      - add: {"put[0]": big}
      - say: "big {big}"
      - set_dealer: "dealer + 1"
      - if: "count(deck) > 100"
        then: [{redeal: "never"}]
      - end_round: "all done"
      - set: {stake: 1000}
'''


def build(tmp_path, steps: str, codegen: bool, check: bool = True):
    p = tmp_path / "every.yaml"
    p.write_text(CHILD.format(parent=variant_path("hanafuda/kingo.yaml"), steps=steps), encoding="utf-8")
    if check:
        assert [d.render() for d in check_variant(str(p)) if d.severity == "error"] == []
    return build_game(load_variant(str(p)), codegen=codegen)


def state(res):
    ctx = res.state
    return ctx.zones, ctx.vars, ctx.seen, ctx.next_dealer, res.chips, res.records


@pytest.mark.parametrize("logging", [False, True])
def test_every_step_kind_generated_does_what_its_closure_does(tmp_path, logging):
    fast, slow = build(tmp_path, EVERY_KIND, True), build(tmp_path, EVERY_KIND, False)
    assert "steps" in fast.phases[0].run.source and not hasattr(slow.phases[0].run, "source")
    for seed in range(5):
        a = play(fast, 5, seed, make_agents(fast, 5, seed), rounds=1, logging=logging)
        b = play(slow, 5, seed, make_agents(slow, 5, seed), rounds=1, logging=logging)
        assert state(a) == state(b) and a.events == b.events
        if logging:  # (the phase comes after the parent's)
            ours = a.events[a.events.index({"t": "phase", "id": "steps"}) + 1:]
            assert [e["t"] for e in ours] == ["shuffle", "cut", "deal", "deal", "move", "swap", "hide", "reveal",
                                              "pay", "pay", "pay", "pay", "say", "next_dealer", "end_round"]
            assert {"t": "say", "text": "big 5"} in ours


ZERO = "(count(deck) - count(deck))"  # no constant: the division is tried when the rule runs


@pytest.mark.parametrize("step, words", [
    ("- deal: {to: hand, count: 30}", "deal: 30 cards to each of 5 players needs 150 cards"),
    ("- deal: {to: hand, players: \"[0, 9]\"}", "deal: no seat 9"),
    ("- pay: {from_pot: pot, to: 0, amount: 5}", "pot 'pot' would go below 0"),
    ("- pay: {from: 0, to_pot: pot, amount: -1}", "pot 'pot' would go below 0 (a negative payment of -1)"),
    ("- pay: {from: 0, to: 9, amount: 1}", "pay: to seat 9"),
    ("- pay: {from: 7, to: 0, amount: 1}", "pay: from seat 7"),
    ("- move: {from: deck, to: \"hand[0]\", at: 99}", "no card at position 99 from the top"),
    ("- repeat: [{let: {x: 1}}]\n        until: \"false\"\n        max: 5", "did not end after 5 turns (limit 5)"),
    ("- let: {x: \"10 / (count(deck) - count(deck))\"}", "division by zero"),
    # every other step kind that can fail as it runs, each at its own line
    ("- move: {from: deck, to: \"hand[0]\", count: 99}", "move: zone 'deck' has 26 cards, 99 needed"),
    ("- move: {from: deck, to: \"hand[0]\", where: \"false\", count: 1}", "only 0 matching cards, 1 needed"),
    ("- move: {from: \"hand[0]\", to: \"hand[1]\", cards: deck}", "is not in zone 'hand'"),
    ("- reveal: {zone: deck, to: 9}", "reveal: no seat 9; seats are 0 to 4"),
    ("- choose: pick\n        player: 0\n        options: {a: \"range(count(deck) - count(deck))\"}",
     "choose 'pick': seat 0 has no legal action"),
    ("- set: {stake: \"10 ** 30\"}\n      - add: {stake: \"10 ** 30\"}", "add: number too large (limit 10^30)"),
    (f"- set_dealer: \"count(deck) % {ZERO}\"", "division by zero"),
    (f"- if: \"10 / {ZERO} > 1\"\n        then: [{{end_round: x}}]", "division by zero"),
    (f"- for: q\n        in: \"[count(deck) % {ZERO}]\"\n        do: [{{let: {{y: 1}}}}]", "division by zero"),
    (f"- for: q\n        in: seats\n        do: [{{break: \"10 / {ZERO} > 1\"}}]", "division by zero"),
    (f"- call: {{proc: first_over, with: {{xs: \"[count(deck) % {ZERO}]\", k: 1}}}}", "division by zero"),
    (f"- call: {{proc: share, with: {{k: \"{ZERO}\"}}, as: s}}", "division by zero"),
    ("- claim: {table: teyaku, cards: \"hand[9]\", player: 0}", "index 9 out of range (list has 5 items)"),
    # a pile past the last: no rule foresees it, and still it is placed at its step, not its phase
    ("- shuffle: \"hand[9]\"", "cannot be carried out: it names a pile or a position past the last one"),
    ("- cut: \"hand[9]\"", "cannot be carried out"),
    ("- deal: {from: \"hand[9]\", to: hand}", "cannot be carried out"),
    ("- swap: [\"hand[9]\", \"hand[0]\"]", "cannot be carried out"),
    ("- set: {\"put[9]\": 1}", "cannot be carried out"),
    ("- for: q\n        in: seats\n        do:\n          - cut: \"hand[q + 5]\"", "cannot be carried out"),
])
@pytest.mark.parametrize("logging", [False, True])
def test_a_generated_step_that_cannot_be_carried_out_is_located_at_its_line(tmp_path, step, words, logging):
    _located_at_its_line(tmp_path, step, words, logging)


def test_a_say_step_fails_only_when_its_line_is_told(tmp_path):
    _located_at_its_line(tmp_path, f"- say: \"x {{10 / {ZERO}}}\"", "division by zero", True)
    g = build(tmp_path, f"      - say: \"x {{10 / {ZERO}}}\"\n", True, check=False)
    play(g, 5, 1, make_agents(g, 5, 1), rounds=1, logging=False)  # nothing happens without a log


def _located_at_its_line(tmp_path, step: str, words: str, logging: bool) -> None:
    """The step fails with `words`, the same with and without generated code, at file:line:col of
    the step, or of the part of its expression that fails: on the line AT[step] starts, else on
    the step's first line."""
    at = AT.get(step, step.split("\n")[0])
    steps = "      - shuffle: deck\n      " + step + "\n"
    got = []
    for codegen in (True, False):
        g = build(tmp_path, steps, codegen, check=False)
        with pytest.raises(RuleError) as exc:
            play(g, 5, 1, make_agents(g, 5, 1), rounds=1, logging=logging)
        got.append(str(exc.value))
    assert got[0] == got[1]
    text = (tmp_path / "every.yaml").read_text(encoding="utf-8").splitlines()
    line = next(i + 1 for i, ln in enumerate(text) if ln.strip().startswith(at) and i > 10)
    m = re.search(r"every\.yaml:(\d+):(\d+): ", got[0])
    assert words in got[0] and m is not None and int(m.group(1)) == line, (got[0], line)
    col, lead = int(m.group(2)), len(text[line - 1]) - len(text[line - 1].lstrip())
    # a step's own failure is at the step (the column after its "- "); an expression's at the
    # part of it that fails, further on
    assert col == lead + 3 if any(w in words for w in OWN) else col > lead + 3, got[0]


AT = {  # where the failure is, when not on the step's first line
    "- set: {stake: \"10 ** 30\"}\n      - add: {stake: \"10 ** 30\"}": "- add:",
    f"- for: q\n        in: \"[count(deck) % {ZERO}]\"\n        do: [{{let: {{y: 1}}}}]": "in:",
    f"- for: q\n        in: seats\n        do: [{{break: \"10 / {ZERO} > 1\"}}]": "do:",
    f"- call: {{proc: share, with: {{k: \"{ZERO}\"}}, as: s}}": "- return: \"60 / k\"",
    "- for: q\n        in: seats\n        do:\n          - cut: \"hand[q + 5]\"": "- cut:",
}
OWN = ("cards to each", "no seat", "would go below", "pay: to seat", "pay: from seat", "no card at position",
       "did not end", "cards, 99 needed", "matching cards", "is not in zone", "no legal action", "number too large",
       "cannot be carried out")


THREE = '''
      - choose: three
        player: 0
        options: {a: "range(2)", b: "range(3)", c: "range(2)"}
        where: "a + b + c > 1"
      - say: "{a} {b} {c}"
'''


class _Counting:
    """Takes the last action, noting how many there were at each decision of `three`."""

    name = "counting"

    def __init__(self):
        self.counts = []

    def act(self, d):
        if d.choice.id == "three":
            self.counts.append((len(d.actions), list(d.actions)))
        return len(d.actions) - 1


def test_a_choice_of_three_parameters_lists_every_combination_where_holds(tmp_path):
    import itertools
    want = [(a, b, c) for a, b, c in itertools.product(range(2), range(3), range(2)) if a + b + c > 1]
    for codegen in (True, False):
        g = build(tmp_path, THREE, codegen)
        agent = _Counting()
        res = play(g, 5, 1, [agent] + make_agents(g, 5, 1)[1:], rounds=1, logging=True)
        assert agent.counts == [(len(want), want)]
        assert {"t": "say", "text": "1 2 1"} in res.events  # the last one, taken


def test_a_choice_of_three_parameters_stops_at_the_limit_of_actions(tmp_path):
    steps = THREE.replace('"range(2)", b: "range(3)", c: "range(2)"', '"range(30)", b: "range(30)", c: "range(30)"')
    for codegen in (True, False):
        g = build(tmp_path, steps, codegen, check=False)
        with pytest.raises(RuleError) as exc:
            play(g, 5, 1, make_agents(g, 5, 1), rounds=1, logging=False)
        assert "more than 20000 legal actions (20001 so far)" in str(exc.value)


FIRST_EQ = '''
      - shuffle: deck
      - let: {x: 2}
      - move: {from: deck, to: "hand[0]", where: "c.value == x + 1", count: 1, face: up}
      - move: {from: deck, to: "hand[1]", where: "c.value == (7 - x) - 1", count: 1}
      - if: "any(hand[1], h -> h.value == 4)"
        then: [{add: {stake: 1}}]
'''


@pytest.mark.parametrize("logging", [False, True])
def test_a_scan_for_one_card_of_a_value_found_in_c_does_what_the_loop_does(tmp_path, logging):
    fast, slow = build(tmp_path, FIRST_EQ, True), build(tmp_path, FIRST_EQ, False)
    assert fast.phases[-1].run.source.count("H_first_eq(") == 2
    for seed in range(8):
        a = play(fast, 5, seed, make_agents(fast, 5, seed), rounds=1, logging=logging)
        b = play(slow, 5, seed, make_agents(slow, 5, seed), rounds=1, logging=logging)
        assert state(a) == state(b) and a.events == b.events
        assert a.state.vars["stake"] >= 1  # the second scan took a 4


@pytest.mark.parametrize("step, words", [
    ("- move: {from: deck, to: \"hand[0]\", where: \"c.value == 12 + 5\", count: 1}",
     "only 0 matching cards, 1 needed"),
    ("- let: {x: 3}\n      - move: {from: deck, to: \"hand[0]\", where: \"c.value == x - 4\", count: 1}",
     "only 0 matching cards, 1 needed"),
])
def test_a_scan_for_one_card_of_a_value_fails_where_the_loop_fails(tmp_path, step, words):
    got = []
    for codegen in (True, False):
        g = build(tmp_path, "      - shuffle: deck\n      " + step + "\n", codegen, check=False)
        with pytest.raises(RuleError) as exc:
            play(g, 5, 1, make_agents(g, 5, 1), rounds=1, logging=False)
        got.append(str(exc.value))
    assert got[0] == got[1] and words in got[0] and "every.yaml:" in got[0]


def test_the_scan_in_c_finds_the_card_nearest_the_top_and_raises_what_indexing_raises():
    from rulekit.lang.expr.helpers import H_first_eq, card_table
    for values in (card_table((1, 2, 3, 2)), card_table((1, 2, 3, 2, "x"))):  # as bytes, and one by one
        assert (values.bytes is None) == (len(values.get.__self__) == 5)
        assert H_first_eq(values, [0, 1, 3, 2], 2) == 2  # cards 3 (index 2) and 1 (index 1) are 2s
        assert H_first_eq(values, [1, 0], 2) == 0
        assert H_first_eq(values, [0, 2], 2) == -1
        assert H_first_eq(values, [], 2) == -1
        assert H_first_eq(values, [1, 0], True) == 1 and H_first_eq(values, [1, 0], 2.0) == 0  # as == says
    values = card_table((1, 2, 3, 2))
    assert H_first_eq(values, [300, 1], 2) == 1  # past the bytes: one by one
    assert H_first_eq(values, [9], 2) == -1  # an id past the table has a value no card has
    with pytest.raises(IndexError):  # generated code then runs the card-by-card loop, to fail at its place
        H_first_eq(values, [300], 2)


@pytest.mark.parametrize("exc, words", [
    (KeyError("stake"), "it names something that does not exist here (KeyError: 'stake')"),
    (TypeError("unsupported operand"), "a value of the wrong kind for this step (TypeError: unsupported operand)"),
    (AttributeError("'int' object has no attribute 'suit'"),
     "a value of the wrong kind for this step (AttributeError: 'int' object has no attribute 'suit')"),
    (IndexError("list index out of range"),
     "it names a pile or a position past the last one (IndexError: list index out of range)"),
    (ValueError("odd"), "ValueError: odd"),
])
def test_an_unforeseen_failure_is_told_in_plain_words_at_the_step(exc, words):
    """No rule foresees these; the author still reads what kind of thing went wrong, at the step's place."""
    from rulekit.core.errors import Span
    from rulekit.engine.steps import located_error
    err = located_error(exc, Span("v.yaml", 7, 9), "play")
    text = str(err)
    assert "v.yaml:7:9" in text
    assert f"cannot be carried out: {words}" in text
    assert "in phase 'play'" in text

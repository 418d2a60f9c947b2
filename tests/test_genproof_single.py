"""A single value a step keeps is tested as it is stored (a whole number within 10^30, a truth
value's type) unless the build proves it passes (rulekit.engine.genproof.scalar): a choice among
values written in the rules, a game variable of the same type read again, products (bounded
where they are made), max/min of such, truth values joined by and/or, through a step local set
once. What the proof leaves out changes nothing a game does; anything it cannot prove keeps the
test, and a number too big still stops the round at its place in the file."""
from __future__ import annotations

import re

import pytest

from rulekit.core.errors import RuleError
from rulekit.engine.runner import make_agents, play

from .test_genproof import build as proofs_build, lines_matching, rounds_alike

CHILD = '''id: singles
extends: {parent}
meta:
  names: {{en: Singles}}
vars:
  flag: {{init: false, description: "A truth value."}}
  flag2: {{init: false, description: "A truth value."}}
  flag3: {{init: false, description: "A truth value."}}
  num: {{init: 0, description: "A number."}}
  num2: {{init: 0, description: "A number."}}
  num3: {{init: 0, description: "A number."}}
  num4: {{init: 0, description: "A number."}}
  num5: {{init: 0, description: "A number."}}
  num6: {{init: 0, description: "A number."}}
round:
  - id: steps
    name: Steps
    text: Single values kept.
    steps:
{steps}
'''

STEPS = '''
      - shuffle: deck
      - deal: {to: hand, count: 3}
      - choose: yes_no
        player: dealer
        prompt: Yes or no?
        text: Yes or no.
        options: {b: "[true, false]"}
      - choose: number
        player: dealer
        prompt: How many?
        text: How many.
        options: {k: "[1, 2, 3]"}
      # proved: a choice among truth values, among small numbers; max of a variable read, a product
      # and an `if` of numbers; truth values joined; a local set once to a variable read
      - set: {flag: b}
      - set: {num: k}
      - set: {num2: "max([put[0], stake * 2, if flag then 1 else -4])"}
      - set: {flag2: "flag and bareta[0] or b"}
      - let: {j: "put[1]"}
      - set: {num3: j}
      # not proved: a variable read plus one (past the bound when it was at it), a loop's
      # variable, a local set twice, a count of cards (not a stored value)
      - set: {num4: "put[0] + 1"}
      - for: x
        in: "[1, 2]"
        do: [{set: {num5: x}}]
      - let: {t: "count(deck) > 3"}
      - let: {t: "count(deck)"}
      - set: {num6: t}
      - let: {u: "b"}
      - let: {u: "count(deck) > 3"}
      - set: {flag3: u}
'''

NUMBER = re.compile(r"^if not -10+ <= (\w+) <= 10+: C\d+\(\1\)$")
TRUTH = re.compile(r"^if type\((\w+)\) is not bool: C\d+\(\1\)$")
PROVED = re.compile(r"^# \(no test: the value is proved to pass\)$")


def build(tmp_path, steps: str, codegen: bool = True, check: bool = True):
    return proofs_build(tmp_path, steps, codegen, check, child=CHILD, name="singles.yaml")


def store_tests(game) -> tuple[int, ...]:
    """The store tests of single values in the steps phase's code: (numbers, truth values, left out)."""
    return lines_matching(game, NUMBER, TRUTH, PROVED)


def test_single_values_proved_to_pass_are_stored_untested(tmp_path):
    # flag, num, num2, flag2 and num3 untested; num4, num5, num6 and flag3 tested
    assert store_tests(build(tmp_path, STEPS)) == (3, 1, 5)


def test_what_the_proof_leaves_out_changes_nothing_a_round_does(tmp_path):
    for a in rounds_alike(tmp_path, STEPS, 6, child=CHILD, name="singles.yaml"):
        v = a.state.vars
        assert type(v["flag"]) is bool and v["num"] in (1, 2, 3) and v["num2"] >= -4


def test_a_number_too_big_still_stops_the_round_at_its_place(tmp_path):
    # 10^29 read back from a variable is proved; a hundred times it is a product, stopped where it is made
    steps = '''
      - set: {num: "100000000000000000000000000000"}
      - set: {num2: "max([num, 3])"}
      - set: {num3: "max([num2 * 100, 3])"}
'''
    fast = build(tmp_path, steps, check=False)
    assert store_tests(fast) == (0, 0, 2)
    for g in (fast, build(tmp_path, steps, codegen=False, check=False)):
        with pytest.raises(RuleError) as e:
            play(g, 5, 1, make_agents(g, 5, 1), rounds=1, logging=False)
        assert "singles.yaml:" in str(e.value) and "too large" in str(e.value)


RANKS = '''
      - shuffle: deck
      - deal: {to: hand, count: 3}
      # proved: one of the table's ranks (17, 16) or 0; not proved: that plus a variable read
      - set: {num: "yaku_rank('teyaku', hand[0], 0)"}
      - set: {num2: "yaku_rank('teyaku', hand[1], 1) + put[0]"}
'''


def test_a_yaku_rank_of_a_table_ranked_by_whole_numbers_is_stored_untested(tmp_path):
    game = build(tmp_path, RANKS)
    assert game.variant is not None and store_tests(game) == (1, 0, 1)
    for a in rounds_alike(tmp_path, RANKS, 6, child=CHILD, name="singles.yaml"):
        assert a.state.vars["num"] in (0, 16, 17)


def test_a_table_ranked_by_what_its_cards_hold_keeps_the_test():
    from rulekit.engine.genproof import ranks_most
    from rulekit.engine.build import _constant

    class Code:
        fastcode = None

    # ranks written as whole numbers (a missing rank is 0); a rank worked out from the cards
    assert ranks_most({"a": [_constant(17), _constant(-40), _constant(0)], "b": [_constant(3), Code()],
                       "c": []}) == {"a": 40, "c": 0}


PRODUCTS = '''
      - shuffle: deck
      - deal: {to: hand, count: 3}
      # proved: a hand's total (at most 40 cards of at most 12): twice it, or it times -3, stays far
      # within the bound; not proved: a variable read (up to the bound), a local set twice
      - let: {t: "sum(hand[0], c -> c.value)"}
      - set: {num: "max([3, 2 * t])"}
      - set: {num2: "t * (-3)"}
      - let: {u: "put[0]"}
      - set: {num3: "2 * u"}
      - let: {w: "sum(hand[1], c -> c.value)"}
      - let: {w: "sum(hand[0], c -> c.value)"}
      - set: {num4: "2 * w"}
'''
BOUND = re.compile(r":= \(\w+ \* \w+\)\) <= 10+ else H_big\(\)")


def test_a_product_of_a_hand_total_is_not_tested_against_the_bound(tmp_path):
    game = build(tmp_path, PRODUCTS)
    assert lines_matching(game, BOUND) == (2,)  # (u's and w's products)
    for a in rounds_alike(tmp_path, PRODUCTS, 6, child=CHILD, name="singles.yaml"):
        v = a.state.vars
        assert v["num"] >= 6 and v["num2"] <= -6 and v["num3"] == 2 * v["put"][0]

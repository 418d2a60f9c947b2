"""A list a step keeps is checked in full unless the build proves what it holds
(rulekit.engine.genproof): cards of a zone, one-card lists and subsets of them, filtered, joined
or picked between, through a step local set once. What the proof leaves out changes nothing a game
does; anything it cannot prove keeps the full check, and a value too big still stops the round."""
from __future__ import annotations

import re

import pytest

from rulekit.core.errors import RuleError
from rulekit.engine.build import build_game, check_variant, load_variant
from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import variant_path

from .test_stepgen_kinds import state

CHILD = '''id: proofs
extends: {parent}
meta:
  names: {{en: Proofs}}
vars:
  plays: {{init: "[]", description: "Lists of cards."}}
  mine: {{init: "[]", description: "Cards."}}
  other: {{init: "[]", description: "Lists of cards."}}
  again: {{init: "[]", description: "Lists of cards."}}
  grown: {{init: "[]", description: "Lists of cards."}}
  few: {{init: "[]", description: "Numbers."}}
  some: {{init: "[]", description: "Numbers."}}
  twice: {{init: "[]", description: "Numbers."}}
round:
  - id: steps
    name: Steps
    text: Lists kept.
    steps:
{steps}
'''

STEPS = '''
      - shuffle: deck
      - deal: {to: hand, count: 3}
      - let: {gs: "subsets(hand[0], 2)"}
      # proved: one-card lists and subsets of a hand, filtered; cards of a hand, filtered
      - set: {plays: "filter((if count(deck) > 99 then [] else map(hand[0], c -> [c])) + gs, s -> count(s) > 0)"}
      - set: {mine: "filter(hand[1], c -> c.value > 2)"}
      # proved: a few numbers (stake is one, or stake + 1 fails), at most 12
      - set: {few: "if count(deck) > 3 then range(1, 13) else [stake, stake + 1]"}
      # proved short: what the few items hold still looked at (stake * 2 of a list is a list)
      - set: {some: "[stake, stake * 2]"}
      # not proved: a list written out holding lists, a local set twice, a sum with what was kept, short
    # lists joined (joined again and again through lets, they would grow)
      - set: {other: "[hand[0], hand[1]]"}
      - let: {hs: "subsets(hand[1], 2)"}
      - for: i
        in: "range(2)"
        do:
          - set: {again: "hs"}
          - let: {hs: "[hand[1]]"}
      - add: {grown: "gs"}
      - let: {two: "[stake, 2]"}
      - let: {four: "two + two"}
      - set: {twice: "four"}
'''

FULL = re.compile(r"if type\((\w+)\) is not list or ")
LIGHT = re.compile(r"if len\((\w+)\)( \+ sum\(C\d+\(len, \1\)\))? > 100000: C\d+\(\1\)$")
SHORT = re.compile(r"^if not C\d+\(C\d+\(type, (\w+)\)\): C\d+\(\1\)$")
NONE = re.compile(r"^# \(no test: at most (\d+) items and items of items")


def build(tmp_path, steps: str, codegen: bool = True, check: bool = True, child: str = CHILD,
          name: str = "proofs.yaml"):
    """The variant `child` (over Kingo) with these steps, written to `name`, checked free of errors, built."""
    p = tmp_path / name
    p.write_text(child.format(parent=variant_path("hanafuda/kingo.yaml"), steps=steps), encoding="utf-8")
    if check:
        assert [d.render() for d in check_variant(str(p)) if d.severity == "error"] == []
    return build_game(load_variant(str(p)), codegen=codegen)


def lines_matching(game, *patterns: re.Pattern[str]) -> tuple[int, ...]:
    """How many lines of the steps phase's code each pattern finds."""
    src = [s.strip() for s in game.phases[-1].run.source.splitlines()]
    return tuple(sum(bool(r.search(s)) for s in src) for r in patterns)


def checks(game) -> tuple[int, ...]:
    """The store checks of kept lists in the steps phase's code: (full, by length, of a few items,
    none: the most the list can hold known when the game is built)."""
    return lines_matching(game, FULL, LIGHT, SHORT, NONE)


def bounds(game) -> list[int]:
    """The most items each list stored unchecked can hold, as the build worked it out."""
    return [int(m.group(1)) for s in game.phases[-1].run.source.splitlines() if (m := NONE.search(s.strip()))]


def test_lists_built_from_cards_are_checked_by_their_length_the_rest_in_full(tmp_path):
    fast = build(tmp_path, STEPS)
    # plays, mine and few not at all (at most all 40 one-card lists and 780 pairs of the deck,
    # counted with their cards; at most the 40 cards; at most 12 numbers), some by what it holds;
    # other, again (hs set by two steps), grown (a sum) and twice in full
    assert checks(fast) == (4, 0, 1, 3) and bounds(fast) == [40 * 2 + 780 * 3, 40, 12]


def rounds_alike(tmp_path, steps: str, seeds: int, **kw):
    """One round per seed of the steps built with and without generated code, asserted to end in
    the same state with the same log; each round played by generated code, in turn."""
    fast, slow = build(tmp_path, steps, **kw), build(tmp_path, steps, codegen=False, **kw)
    for seed in range(seeds):
        a = play(fast, 5, seed, make_agents(fast, 5, seed), rounds=1, logging=True)
        b = play(slow, 5, seed, make_agents(slow, 5, seed), rounds=1, logging=True)
        assert state(a) == state(b) and a.events == b.events
        yield a


def test_what_the_proof_leaves_out_changes_nothing_a_round_does(tmp_path):
    for a in rounds_alike(tmp_path, STEPS, 4):
        plays = a.state.vars["plays"]
        n = sum(len(s) == 1 for s in plays)  # the cards of the hand, then its pairs
        assert n >= 3 and len(plays) == n + n * (n - 1) // 2 and all(type(s) is list for s in plays)


def test_a_proved_list_too_big_to_keep_still_stops_the_round(tmp_path):
    # every subset of 3 of the 40-card deck: 9,880 lists of 3 (39,520 counted), then three times
    # that joined (118,560 counted): past what a variable may keep, however it was built
    steps = '''
      - for: p
        in: seats
        do: [{move: {from: "hand[p]", to: deck}}]
      - let: {gs: "subsets(deck, 3)"}
      - set: {plays: "gs + gs + gs"}
'''
    fast = build(tmp_path, steps, check=False)
    found = [d.render() for d in check_variant(str(tmp_path / "proofs.yaml")) if d.severity == "error"]
    assert len(found) == 1 and "100000 items" in found[0]  # (the checker sees it coming, too)
    assert checks(fast) == (0, 1, 0, 0)
    for g in (fast, build(tmp_path, steps, codegen=False, check=False)):
        with pytest.raises(RuleError) as e:
            play(g, 5, 1, make_agents(g, 5, 1), rounds=1, logging=False)
        assert "proofs.yaml:" in str(e.value) and "100000" in str(e.value)


@pytest.mark.parametrize("text, want", [
    ("[top, top + 1]", ("cards", 2)),  # (were top not a number, top + 1 would fail the list)
    ("[1 + top, top, 3, true]", ("cards", 4)),
    ("[top - 1]", ("cards", 1)),
    ("[top, other + 1]", ("short", None)),  # (top alone says nothing)
    ("[top, top * 2]", ("short", None)),  # (a list times 2 is a list)
    ("[1 - top]", ("short", None)),
    ("range(1, 13)", ("cards", 12)),
    ("if a then range(1, 13) else [top, top + 1]", ("cards", 12)),
    ("[top] + [top]", None),  # (short lists joined through lets would grow)
    ("[top, top + 1] + [top + 2]", ("cards", 3)),
    ("[]", ("empty", 0)),
])
def test_what_a_list_written_out_is_proved_to_hold(text, want):
    from rulekit.engine.genproof import shape
    from rulekit.lang.expr.fastcode import FastCode
    from rulekit.lang.expr.parser import parse

    node = parse(text)
    assert shape(node, FastCode("", (), print, node), lambda name: None) == want

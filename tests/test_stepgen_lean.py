"""Generated steps name nothing they need not: an item of a variable set (not added to) is stored
where it is written, with no local holding the variable's list; a zone the function's header reads
once is used by that name, with no name of the step's own for it; a store test the build proves
needless leaves a note in brackets, which is no statement and no place in the listing."""
from __future__ import annotations

import re

from rulekit.engine.listing import first_places
from rulekit.engine.runner import make_agents, play

from .test_stepgen_kinds import build, state

STEPS = '''
      - shuffle: deck
      - deal: {to: hand, count: 1}
      - for: p
        in: seats
        do:
          - move: {from: deck, to: "hand[p]", count: 1}
          - set: {"put[p]": "count(hand[p]) + 1"}
          - add: {"put[p]": 2}
      - move: {from: deck, to: "hand[0]", count: 1}
'''


def code(game) -> list[str]:
    return [s.strip() for s in game.phases[-1].run.source.splitlines()]


def test_an_item_set_is_stored_where_it_is_written_an_item_added_to_reads_the_list_once(tmp_path):
    lines = code(build(tmp_path, STEPS, True))
    held = [s for s in lines if re.match(r"^a\d+ = V\[C\d+\]$", s)]
    assert len(held) == 1  # (the add's: read once, then written)
    assert sum(bool(re.match(r"^V\[C\d+\]\[lc0_0\] = v\d+$", s)) for s in lines) == 1  # (the set's)


def test_a_zone_read_in_the_header_is_used_by_that_name(tmp_path):
    lines = code(build(tmp_path, STEPS, True))
    assert not [s for s in lines if re.match(r"^z\d+ = ZN\d+$", s)]
    assert sum(s == "if not ZN0: C4(0, 1)" or bool(re.match(r"^if not ZN0: C\d+\(0, 1\)$", s)) for s in lines) == 2
    assert sum(bool(re.match(r"^c\d+ = ZN0\.pop\(\)$", s)) for s in lines) == 2


def test_what_is_left_out_changes_nothing_a_round_does(tmp_path):
    fast, slow = build(tmp_path, STEPS, True), build(tmp_path, STEPS, False)
    for seed in range(4):
        a = play(fast, 5, seed, make_agents(fast, 5, seed), rounds=1, logging=True)
        b = play(slow, 5, seed, make_agents(slow, 5, seed), rounds=1, logging=True)
        assert state(a) == state(b) and a.events == b.events
        assert all(v >= 5 for v in a.state.vars["put"])  # (at least two cards each, + 1, + 2)


def test_a_note_in_brackets_is_no_place():
    source = "\n".join(["        # rules.yaml:4", "        x = C1", "        # (no test: proved)", "        y = C2"])
    assert first_places(source) == {"C1": "rules.yaml:4", "C2": "rules.yaml:4"}


def test_the_dealer_kept_as_dealer_is_not_taken_modulo_the_seats(tmp_path):
    steps = '''
      - set_dealer: dealer
      - set_dealer: "right_of(dealer)"
'''
    lines = code(build(tmp_path, steps, True))
    assert [s for s in lines if s.startswith("ctx.next_dealer = ")][0] == "ctx.next_dealer = DEALER"
    assert sum(s.startswith("ctx.next_dealer = ") and s.endswith(" % N") for s in lines) == 1


SHOWN = '''
      - shuffle: deck
      - deal: {to: hand, count: 2}
      # shown to all, then moved face up at once: seen already; shown, a step, then moved: marked again
      - reveal: {zone: "hand[0]"}
      - move: {from: "hand[0]", to: deck, face: up}
      - reveal: {zone: "hand[1]"}
      - set: {stake: 3}
      - move: {from: "hand[1]", to: deck, face: up}
      - move: {from: "hand[0]", to: deck, face: up}
      - repeat:
          - add: {stake: -1}
        while: "stake > 0"
      - repeat:
          - set: {drawing: true}
        until: drawing
'''


def test_cards_just_shown_to_all_are_not_marked_seen_again(tmp_path):
    lines = code(build(tmp_path, SHOWN, True))
    assert sum(bool(re.match(r"^for c\d+ in \w+: SEEN\[c\d+\] = -1$", s)) for s in lines) == 2 + 2
    fast, slow = build(tmp_path, SHOWN, True), build(tmp_path, SHOWN, False)
    for seed in range(3):
        a = play(fast, 5, seed, make_agents(fast, 5, seed), rounds=1, logging=True)
        b = play(slow, 5, seed, make_agents(slow, 5, seed), rounds=1, logging=True)
        assert state(a) == state(b) and a.events == b.events  # (the cards' seen marks included)


def test_a_loop_tests_a_variable_read_where_it_stands(tmp_path):
    lines = code(build(tmp_path, SHOWN, True))
    # `until: drawing` (a variable read: it cannot fail) tested as it is; `stake > 0` through a local
    assert sum(bool(re.match(r"^if V\[C\d+\]: break$", s)) for s in lines) == 1
    assert sum(bool(re.match(r"^if not v\d+: break$", s)) for s in lines) == 1


def test_a_temporary_set_to_a_python_local_is_that_local():
    from rulekit.engine.stepgen import _untemp

    assert _untemp("(_te4_2 if (_te4_1 := v13) < (_te4_2 := (2 * lc1_0)) else _te4_1)") == \
        "(_te4_2 if (v13) < (_te4_2 := (2 * lc1_0)) else v13)"
    assert _untemp("(type(_te5_1 := lc0_2) is int) and _te5_1 * 2") == "(type(lc0_2) is int) and lc0_2 * 2"
    # set twice, or set to what is worked out: kept
    assert _untemp("((_te6_1 := v1), (_te6_1 := v2), _te6_1)") == "((_te6_1 := v1), (_te6_1 := v2), _te6_1)"
    assert _untemp("(_te7_1 := V[C3]) + _te7_1") == "(_te7_1 := V[C3]) + _te7_1"

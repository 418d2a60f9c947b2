"""A payment tests that each seat it names is a seat (0..n-1) unless the build knows it is one
(rulekit.engine.genproof.seat): the dealer, or a loop's variable over a list of seats (seats_from(),
`seats`, or a slice, filter, sorting or reversal of one, through a step local set once). What is
left out changes nothing a game does; any other seat keeps the test, and a seat out of range
still stops the round at its place in the file."""
from __future__ import annotations

import re

import pytest

from rulekit.core.errors import RuleError
from rulekit.engine.runner import make_agents, play

from .test_genproof import build, lines_matching, rounds_alike

STEPS = '''
      - shuffle: deck
      - deal: {to: hand, count: 3}
      # proved: the dealer; a loop's variable over seats_from(), a slice of it, `seats` filtered,
      # and a local set once to such a list
      - pay: {from: dealer, to_pot: pot, amount: 1, why: wager}
      - for: p
        in: "slice(seats_from(right_of(dealer)), 0, n_players - 1)"
        do:
          - pay: {from: p, to: dealer, amount: 1, why: wager}
      - let: {alive: "filter(seats, q -> q != dealer)"}
      - for: q
        in: alive
        do:
          - pay: {from: q, to_pot: pot, amount: 1, why: wager}
      # not proved: a loop over numbers written out, a local set twice, a seat worked out
      - for: r
        in: "[0, 1]"
        do:
          - pay: {from: r, to_pot: pot, amount: 1, why: wager}
      - for: s
        in: seats
        do:
          - let: {s: "s"}
          - pay: {from: s, to_pot: pot, amount: 1, why: wager}
      - pay: {from: "right_of(dealer)", to_pot: pot, amount: 1, why: wager}
      - pay: {from_pot: pot, to: dealer, amount: "pot", why: void}
'''

TESTED = re.compile(r"^if not 0 <= (\w+) < N: C\d+\(C\d+, \1, ")  # (a payment's; a deal's has its own)
PROVED = re.compile(r"^# \(no test: a seat, proved\)$")


def seat_tests(game) -> tuple[int, ...]:
    """The seat tests of payments in the steps phase's code: (written, left out as proved)."""
    return lines_matching(game, TESTED, PROVED)


def test_seats_proved_to_be_seats_are_paid_untested(tmp_path):
    # the dealer (three times: no line at all), p and q: proved; r, s, right_of(dealer): tested
    assert seat_tests(build(tmp_path, STEPS)) == (3, 2)


def test_what_the_proof_leaves_out_changes_nothing_a_round_does(tmp_path):
    start = build(tmp_path, STEPS).start_chips
    for a in rounds_alike(tmp_path, STEPS, 4):
        # every payment made: the pot took 1 + 4 + 2 + 5 + 1 and gave it all to the dealer, who
        # took 1 from each bettor and paid 1; nothing was made or lost
        assert sum(a.state.chips) == 5 * start and a.state.vars["pot"] == 0
        assert a.state.chips != [start] * 5


def test_a_seat_out_of_range_still_stops_the_round_at_its_place(tmp_path):
    steps = '''
      - for: r
        in: "[0, 7]"
        do:
          - pay: {from: r, to_pot: pot, amount: 1, why: wager}   # HERE
'''
    fast = build(tmp_path, steps, check=False)
    assert seat_tests(fast) == (1, 0)
    line = next(i for i, s in enumerate((tmp_path / "proofs.yaml").read_text().splitlines(), 1) if "# HERE" in s)
    for g in (fast, build(tmp_path, steps, codegen=False, check=False)):
        with pytest.raises(RuleError) as e:
            play(g, 5, 1, make_agents(g, 5, 1), rounds=1, logging=False)
        assert f"proofs.yaml:{line}:" in str(e.value)


DEALS = '''
      - shuffle: deck
      - deal: {to: hand, count: 1, players: "seats_from(right_of(dealer))"}
      - deal: {to: hand, count: 1, players: "[0, 1]"}
      - deal: {to: hand, count: 1}
'''
SEATS_TESTED = re.compile(r"^if \w+ and not \(0 <= C\d+\(\w+\) and C\d+\(\w+\) < N\):")
SEATS_PROVED = re.compile(r"^if False:  # \(no test: seats, proved\)$")


def test_a_deal_to_seats_proved_to_be_seats_tests_none(tmp_path):
    # seats_from(): proved; a list written out: tested; from the dealer's left (no list given): no test
    fast = build(tmp_path, DEALS)
    assert lines_matching(fast, SEATS_TESTED, SEATS_PROVED) == (1, 1)
    for a in rounds_alike(tmp_path, DEALS, 3):
        assert sum(map(len, a.state.zones["hand"])) >= 5 + 2 + 5  # (the three deals', at least)

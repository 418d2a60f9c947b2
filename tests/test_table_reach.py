"""`display.reach`: the yaku each open pile makes at a decision, and those one card short."""
from __future__ import annotations

import io
import re

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import game
from rulekit.people.narrate import Narrator
from rulekit.people.table import Screen, Table
from rulekit.people.table.reach import reach_lines

HIRAYA = "hanafuda/hiraya.yaml"


def _lines(piles: dict[int, list[str]], seat: int = 0) -> list[str]:
    g = game(HIRAYA)
    ctx = g.new_ctx(3, 1, None)
    for s, cards in piles.items():
        ctx.zones["captures"][s] = [g.card_index[c] for c in cards]
    return reach_lines(g, ctx, seat, Narrator(g, 3, seat).card_text)


def test_two_poetry_ribbons_are_one_card_short_and_the_card_is_named():
    lines = _lines({1: ["1-2", "2-2"]})
    assert lines == ["Seat 1 is one card from Poetry Ribbons: Cherry poetry ribbon (3, 5 pts)."]


def test_a_card_in_another_pile_is_out_of_reach_and_a_yaku_made_is_said():
    # the third poetry ribbon is in seat 2's pile: seat 1 can no longer make it
    assert _lines({1: ["1-2", "2-2"], 2: ["3-2"]}) == []
    lines = _lines({0: ["1-2", "2-2", "3-2"]})
    assert lines[0] == "Yaku made so far: you, Poetry Ribbons."
    # your own line comes first and speaks to you
    mine = _lines({0: ["6-2", "9-2"], 1: ["1-2", "2-2"]})
    assert mine[0].startswith("You are one card from Blue Ribbons: ")
    assert mine[1].startswith("Seat 1 is one card from Poetry Ribbons: ")


def test_the_hiraya_table_lists_reach_at_a_decision_and_only_open_piles_are_read():
    g = game(HIRAYA)
    out = io.StringIO()
    table = Table(g, 3, 0, Screen(io.StringIO("1\n" * 400), out), pause=False)
    res = play(g, 3, 11, make_agents(g, 3, 11, "careful", human=0, human_agent=table), rounds=1, dealer=0,
               observe=table.observe)
    table.finish(res.chips, 1)
    text = out.getvalue()
    assert re.search(r"^  (?:Seat \d is|You are) one card from [^:]+: .+\.$", text, re.M), text
    for block in re.findall(r"^The table — .*\n((?:  .*\n)+?)Your turn", text, re.M):
        piles = dict(re.findall(r"^  (Seat \d)'s(?: \(dealer's\))? capture pile: (.+)$", block, re.M))
        for who, _rest in re.findall(r"^  (Seat \d) is one card from (.+)$", block, re.M):
            assert who in piles, block  # a seat with nothing captured is one card from nothing


def _broken(tmp_path, old: str, new: str):
    from .conftest import broken_copy
    return broken_copy(tmp_path, "hanafuda/hana-awase.yaml", old, new)


def test_reach_names_a_per_player_open_pile_and_a_yaku_table_else_both_errors_located(tmp_path):
    p, errs = _broken(tmp_path, "reach: {zone: captures, yaku: dekiyaku}", "reach: {zone: field, yaku: dekiyku}")
    assert sorted(d.code for d in errs) == ["E040", "E040"], errs
    by = {d.message.split(":")[0]: d for d in errs}
    assert "expected an open pile per player, found 'field'" in by["display.reach.zone"].message
    assert "found 'dekiyku'" in by["display.reach.yaku"].message and "dekiyaku" in by["display.reach.yaku"].hint
    line = p.read_text(encoding="utf-8").splitlines()[by["display.reach.zone"].span.line - 1]
    assert line[by["display.reach.zone"].span.col - 1:].startswith("field")


def test_a_card_another_seat_needs_that_you_hold_is_said_so():
    g = game(HIRAYA)
    ctx = g.new_ctx(3, 1, None)
    ctx.zones["captures"][1] = [g.card_index[c] for c in ("1-2", "2-2")]
    ctx.zones["hand"][0] = [g.card_index["3-2"]]
    lines = reach_lines(g, ctx, 0, Narrator(g, 3, 0).card_text)
    assert lines == ["Seat 1 is one card from Poetry Ribbons: Cherry poetry ribbon (3, 5 pts), which you hold."]
    # another seat's hand is never read: seen from seat 2, the card is simply named
    assert reach_lines(g, ctx, 2, Narrator(g, 3, 2).card_text) == [
        "Seat 1 is one card from Poetry Ribbons: Cherry poetry ribbon (3, 5 pts)."]

"""Kyō-Kabu's record of each column against the dealer over the game, on request at the table:
lines the variant declares (display.table with on_request), kept in game-long variables the
showdown adds to; shown with the whole table (t at a question), not at every decision."""
from __future__ import annotations

import io

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import Script, game
from rulekit.people.table import Screen, Table
from rulekit.people.table.view import table_lines

KYO = "kabufuda/kyo-kabu.yaml"
# every round: column 1 5+4 = 9, column 2 6+1 = 7, column 3 7+3 = 0, column 4 8+8 = 6; the dealer
# 2+5 = 7 (no third cards: seat 1 stakes on column 1, seat 2 on column 4 and stands at 6). So
# column 1 beats the dealer, column 2 ties, columns 3 and 4 lose, round after round.
TOP = ["2-1", "4-1", "1-2", "3-1", "8-1", "5-1"]


class Record(Script):
    """Plays the stacked rounds; at seat 1's stake in each round, notes the table lines."""

    def __init__(self, rounds: int):
        bets = [{"col": 0, "amount": 1}, {"col": 3, "amount": 1}] * rounds
        super().__init__([], {"bet": bets, "third_card": [{"take": False}] * rounds,
                              "dealer_third": [{"take": False}] * rounds})
        self.asked: list[list[str]] = []
        self.always: list[list[str]] = []

    def act(self, d):
        if d.choice.id == "bet" and d.player == 1:
            self.asked.append(table_lines(d.ctx.game, d.ctx, 1, str, full=True))
            self.always.append(table_lines(d.ctx.game, d.ctx, 1, str))
        return super().act(d)


def test_each_columns_record_this_game_is_counted_round_by_round_and_shown_on_request():
    g = game(KYO)
    r = Record(3)
    play(g, 3, 1, [r] * 3, rounds=3, logging=True, dealer=0, stack={"deck": TOP})
    record = [[ln for ln in lines if "this game" in ln] for lines in r.asked]
    assert record[0] == []  # no round played yet: no record
    assert record[2] == ["Column 1 this game: beat the dealer 2, lost 0",
                         "Column 2 this game: beat the dealer 0, lost 0, tied 2",
                         "Column 3 this game: beat the dealer 0, lost 2",
                         "Column 4 this game: beat the dealer 0, lost 2"]
    assert record[1] == ["Column 1 this game: beat the dealer 1, lost 0",
                         "Column 2 this game: beat the dealer 0, lost 0, tied 1",
                         "Column 3 this game: beat the dealer 0, lost 1",
                         "Column 4 this game: beat the dealer 0, lost 1"]
    assert not any("this game" in ln for lines in r.always for ln in lines)  # only on request


def test_t_at_a_question_shows_the_columns_record_and_a_plain_question_does_not():
    def told(keys: str) -> str:
        g = game(KYO)
        out = io.StringIO()
        table = Table(g, 3, 1, Screen(io.StringIO(keys * 300), out), pause=False)
        res = play(g, 3, 4, make_agents(g, 3, 4, "careful", human=1, human_agent=table), rounds=3, dealer=0,
                   observe=table.observe)
        table.finish(res.chips, 1)
        return out.getvalue()

    asked, plain = told("t\n1\n1\n"), told("1\n")
    lines = [ln.strip() for ln in asked.splitlines() if "this game: beat the dealer" in ln]
    assert lines and all(ln.startswith("Column ") for ln in lines)
    assert "this game: beat the dealer" not in plain

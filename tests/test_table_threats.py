"""Opponents that see threats: a careful Hiraya player does not leave on the table the card
another player is one card from a yaku with (the table's own 'one card from' test, the
`new_yaku` primitive), unless every card it could play would."""
from __future__ import annotations

from rulekit.engine.runner import make_agents, play

from .hanafuda_stack import HIRAYA, OnceStack, cached_game, deal_top

# seat 0 (dealer) takes the Full moon's Susuki first; seat 1 takes the Pine and Plum poetry
# ribbons (one card, the Cherry poetry ribbon, from Poetry Ribbons); seat 2 takes the Bush clover
# and Paulownia; at seat 0's second turn nothing of its hand matches the table, and its least
# valuable card is the Cherry poetry ribbon that seat 1 (holding a Cherry) needs
HANDS = {0: ["8-1", "3-2", "4-1", "9-1", "10-1", "6-1", "11-1"],
         1: ["1-2", "3-3", "4-3", "4-4", "6-3", "9-3", "10-3"],
         2: ["1-4", "2-4", "7-4", "8-4", "12-4", "8-2", "7-2"]}
FIELD = ["1-3", "2-3", "5-3", "7-3", "8-3", "12-3"]
PILE = ["5-4", "2-2", "12-2"]


def _second_play(policy: str) -> tuple[str, dict]:
    g = cached_game(HIRAYA)
    top = deal_top(HANDS, FIELD, PILE)
    res = play(g, 3, 1, make_agents(g, 3, 1, policy), rounds=1, dealer=0, stack=OnceStack("deck", top),
               logging=True)
    plays = [e for e in res.events if e["t"] == "choose" and e["choice"] == "play" and e["player"] == 0]
    captures: dict = {}
    for e in res.events:
        if e["t"] == "choose" and e is plays[1]:
            break
        if e["t"] == "move" and e["to"].startswith("captures["):
            captures.setdefault(e["to"], []).extend(e["cards"])
    return plays[1]["action"]["card"], captures


def test_a_careful_player_keeps_back_the_card_another_seat_needs():
    card, captures = _second_play("careful")
    assert sorted(captures["captures[1]"]) == ["1-2", "1-3", "2-2", "2-3"]  # one card from Poetry Ribbons
    assert card != "3-2" and card in HANDS[0]
    # the same spot without the rule (greedy: the careful player's old play) gives the ribbon away
    assert _second_play("greedy")[0] == "3-2"

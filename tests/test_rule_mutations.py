"""Issue 39's rules audit: seven mutations of the shipped rules that no test killed. Each test
below fails under its mutation (the mutation is named in the test's comment) and passes as
the rules are written."""
from __future__ import annotations

import pytest

from rulekit.core.errors import RulekitError
from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import game, run

from .hanafuda_stack import HIRAYA, cached_game, deal_top, run_once

KYO = "kabufuda/kyo-kabu.yaml"
# Kyō-Kabu's stack: dealer's first card, holes 0..3, third cards in decision order, dealer's 2nd, 3rd


def stake(col, amount=1):
    return {"col": col, "amount": amount}


def test_kyo_kabu_dealer_three_of_a_kind_needs_three_equal_cards():
    # mutation: dealer-sorokabu without the all-equal check (first card 5-8 is enough)
    # dealer 6 then 1 = 7, no third card; column 1: 5 + 4 = 9 beats it
    o = run(game(KYO), 2, ["6-1", "4-1", "1-2", "1-3", "1-4", "1-1"],
            by_choice={"bet": [stake(0)], "third_card": [{"take": False}], "dealer_third": [{"take": False}]})
    assert "yaku:dealer-sorokabu" not in o.result.records
    assert o.chips == [-1, 1]


def test_kyo_kabu_forced_unbet_columns_draw_at_3_or_less_only():
    # mutation: unbet_columns=forced draws at a total of 4
    # column 1 staked: 5 + 2 = 7 (stands); nobody on columns 2-4: 6 + 9 = 5, 7 + 9 = 6, 8 + 6 = 4
    top = ["2-1", "2-2", "9-1", "9-2", "6-1", "3-1", "3-2"]
    o = run(game(KYO, {"unbet_columns": "forced"}), 2, top, by_choice={"bet": [stake(0)], "dealer_third": [{"take": False}]})
    moves = [e["to"] for e in o.events("move")]
    assert [moves.count(f"column[{i}]") for i in range(4)] == [1, 1, 1, 1]  # the first field only


def test_kyo_kabu_lose_all_a_tie_is_no_loss_for_the_dealer():
    # mutation: dealer_rotation=lose_all counts a tie as a lost column
    # dealer 1 + 1 = 2; columns: 5 + 4 = 9, 6 + 1 = 7, 7 + 1 = 8 beat it, 8 + 4 = 12 -> 2 ties
    top = ["1-1", "4-1", "1-2", "1-3", "4-2", "1-4"]
    o = run(game(KYO, {"dealer_rotation": "lose_all"}), 2, top,
            by_choice={"bet": [stake(0)] * 2, "dealer_third": [{"take": False}] * 2}, rounds=2)
    assert [e["dealer"] for e in o.events("round")] == [0, 0]  # three lost, one tied: the bank stays


def test_hiraya_is_for_three_players_only():
    # mutation: players max 4
    g = cached_game(HIRAYA, {})
    assert tuple(g.player_sizes()) == (3,)
    with pytest.raises(RulekitError):
        play(g, 4, 1, make_agents(g, 4, 1), rounds=1)


def test_hiraya_bank_ends_the_game_at_exactly_the_stock():
    # mutation: the end of the bank `x <= -opt.bank` written `x < -opt.bank`
    g = cached_game(HIRAYA, {"rounds": 3})
    first = play(g, 3, 11, make_agents(g, 3, 11, "careful"), rounds=1)
    lost = -min(first.round_deltas[0])
    assert lost > 0
    g = cached_game(HIRAYA, {"rounds": 3, "bank": lost})
    res = play(g, 3, 11, make_agents(g, 3, 11, "careful"))
    assert res.round_deltas[0] == first.round_deltas[0]  # the same first round
    assert len(res.round_deltas) == 1  # a seat at exactly minus the stock ends the game


TEYAKU_HANDS = {0: ["5-1", "5-2", "6-1", "6-2", "7-1", "7-2", "8-1"],
                1: ["1-3", "1-4", "2-3", "2-4", "3-3", "3-4", "4-3"],
                2: ["9-1", "9-2", "10-1", "10-2", "11-1", "11-2", "12-1"]}
TEYAKU_FIELD = ["8-2", "12-2", "4-1", "4-2", "5-3", "6-3"]


def test_hiraya_hand_is_hidden_again_after_its_payment():
    # mutation: the Hiraya hand is never hidden again after it is shown and paid
    seen = []

    def check(ctx, choice, player, actions):
        if choice.id == "play" and not seen:
            seen.append(ctx.game.observation(ctx, 0)["zones"]["hand"][1])
    out = run_once(cached_game(HIRAYA, {}), 3, deal_top(TEYAKU_HANDS, TEYAKU_FIELD), checks=check)
    assert [p for p in out.result.events if p["t"] == "pay" and p.get("why") == "teyaku"]  # shown and paid
    assert seen and seen[0] and set(seen[0]) == {"?"}  # seat 0 no longer sees seat 1's cards

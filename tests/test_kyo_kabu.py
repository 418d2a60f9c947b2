"""Kyō-Kabu: one stacked-deck test per rule of RULES.md §6 and per option."""
import pytest

from rulekit.engine.testing import game, run

KYO = "kabufuda/kyo-kabu.yaml"
# stacking order after the first field is set out and the deck shuffled:
# dealer's first card, holes 0..3, then third cards in decision order, dealer's 2nd, dealer's 3rd


def stake(col, amount=1):
    return {"col": col, "amount": amount}


def test_first_field_is_5_6_7_8_and_36_cards_remain():
    o = run(game(KYO), 2, [], by_choice={"bet": [stake(0)]})
    moves = [e for e in o.events("move") if e["to"].startswith("column")][:4]
    assert [m["cards"][0].split("-")[0] for m in moves] == ["5", "6", "7", "8"]
    shuffle = o.events("shuffle")[0]
    assert len(shuffle["order"]) == 36


def test_third_card_forced_at_total_3_or_less():
    # column 0: 5 + 8 = 13 -> 3: must take
    o = run(game(KYO), 2, ["2-1", "8-1", "1-2", "1-3", "1-4", "2-2", "2-3"], by_choice={"bet": [stake(0)]})
    assert o.legal_at("third_card") == []  # forced: nobody is asked
    third = [e for e in o.events("choose") if e["choice"] == "third_card"]
    assert third[0]["forced"] and third[0]["action"] == {"take": True}


def test_third_card_refused_at_7_or_more():
    # column 0: 5 + 2 = 7: may not take
    o = run(game(KYO), 2, ["2-1", "2-2", "1-2", "1-3", "1-4", "3-2", "3-3"], by_choice={"bet": [stake(0)]})
    third = [e for e in o.events("choose") if e["choice"] == "third_card"]
    assert third[0]["action"] == {"take": False} and third[0].get("forced")


def test_third_card_free_between_4_and_6():
    # column 0: 5 + 9 = 14 -> 4: free choice
    o = run(game(KYO), 2, ["2-1", "9-1", "1-2", "1-3", "1-4", "3-2", "3-3"], by_choice={"bet": [stake(0)]})
    assert o.legal_at("third_card") == [[{"take": True}, {"take": False}]]


def test_one_bet_per_player_and_table_limit():
    o = run(game(KYO, {"table_limit": 3}), 3, [], by_choice={"bet": [stake(1, 2), stake(2, 1)]})
    first, second = o.legal_at("bet")
    assert {a["col"] for a in first} == {-1, 0, 1, 2, 3}
    assert max(a["amount"] for a in first) == 3
    assert max(a["amount"] for a in second) == 1  # only 1 left under the cap


def test_bettor_sees_only_the_hole_card_of_their_column():
    seen = {}

    def check(ctx, choice, player, actions):
        if choice.id == "third_card":
            seen[player] = ctx.game.observation(ctx, player)["zones"]["hole"]
    run(game(KYO), 3, ["2-1", "9-1", "9-2", "9-3", "9-4"], by_choice={"bet": [stake(0), stake(2)]}, checks=check)
    assert seen[1][0] == ["9-1"] and seen[1][1] == ["?"] and seen[1][2] == ["?"]


def test_higher_column_wins_one_to_one_lower_loses():
    # column 0: 5+4=9 beats dealer 2+5=7 (wins 3); column 3: 8+8=16 -> 6 loses to 7 (loses 2)
    o = run(game(KYO), 3, ["2-1", "4-1", "1-2", "3-1", "8-1", "5-1"], by_choice={"bet": [stake(0, 3), stake(3, 2)],
            "third_card": [{"take": False}], "dealer_third": [{"take": False}]})
    assert o.chips == [-3 + 2, 3, -2]


def test_tie_is_push_by_default_and_dealer_wins_with_option():
    top = ["2-1", "1-1", "1-2", "3-1", "3-2", "5-1"]  # column 1: 6+1=7, dealer 2+5=7
    o = run(game(KYO), 2, top, by_choice={"bet": [stake(1, 4)], "dealer_third": [{"take": False}]})
    assert o.chips == [0, 0]
    o = run(game(KYO, {"tie": "dealer"}), 2, top, by_choice={"bet": [stake(1, 4)], "dealer_third": [{"take": False}]})
    assert o.chips == [4, -4]


def test_sorokabu_pays_double():
    # column 2: 7 + 7 + 7
    o = run(game(KYO), 2, ["2-1", "1-1", "1-2", "7-1", "1-3", "7-2", "2-2"],
            by_choice={"bet": [stake(2, 3)], "third_card": [{"take": True}], "dealer_third": [{"take": False}]})
    assert o.chips == [-6, 6]
    assert o.result.records["yaku:sorokabu"] == 1


def test_other_triples_are_ordinary():
    # the dealer's 2 + 2 + 2 is a plain 6, not Sorokabu (only 5-8 triples are): column 1
    # (6 + 1 = 7) beats it; were it Sorokabu the dealer would win
    o = run(game(KYO), 2, ["2-1", "1-1", "1-2", "7-1", "1-3", "2-2", "2-3"],
            by_choice={"bet": [stake(1, 1)], "dealer_third": [{"take": True}]})
    assert "yaku:dealer-sorokabu" not in o.result.records
    assert o.chips == [-1, 1]


def test_kuppin_beats_sorokabu():
    o = run(game(KYO), 2, ["9-1", "5-1", "6-1", "7-1", "8-1", "5-2", "1-1"],
            by_choice={"bet": [stake(0, 2)], "third_card": [{"take": True}], "dealer_third": [{"take": False}]})
    assert o.chips == [2, -2]


def test_kuppin_is_order_sensitive_unless_agreed():
    top = ["1-1", "2-1", "1-2", "1-3", "1-4", "9-1"]  # dealer 1 then 9; column 0: 5+2=7
    o = run(game(KYO), 2, top, by_choice={"bet": [stake(0, 1)], "dealer_third": [{"take": False}]})
    assert o.chips == [-1, 1]  # 7 beats dealer's 0
    o = run(game(KYO, {"kuppin_order": "either"}), 2, top,
            by_choice={"bet": [stake(0, 1)], "dealer_third": [{"take": False}]})
    assert o.chips == [1, -1]


def test_kuppin_needs_no_third_card():
    o = run(game(KYO), 2, ["9-1", "2-1", "1-2", "1-3", "1-4", "1-1", "3-1"],
            by_choice={"bet": [stake(0, 1)], "dealer_third": [{"take": True}]})
    # dealer 9+1+3 = 3 < column 5+2 = 7
    assert o.chips == [-1, 1]


def test_dealer_sorokabu_beats_plain_columns():
    o = run(game(KYO), 2, ["6-1", "4-1", "1-2", "1-3", "1-4", "6-2", "6-3"],
            by_choice={"bet": [stake(0, 1)], "dealer_third": [{"take": True}]})
    assert o.chips == [1, -1]  # column 9 loses to dealer's 6-6-6 (value 8)


@pytest.mark.parametrize("rule,expected", [("column", [-2, 2]), ("push", [0, 0]), ("higher", [-2, 2]),
                                           ("dealer", [1, -1])])
def test_soro_vs_soro_option(rule, expected):
    top = ["6-1", "1-1", "1-2", "7-1", "1-3", "7-2", "6-2", "6-3"]
    o = run(game(KYO, {"soro_vs_soro": rule}), 2, top,
            by_choice={"bet": [stake(2, 1)], "third_card": [{"take": True}], "dealer_third": [{"take": True}]})
    assert o.chips == expected


def test_dealer_draw_rule_option():
    o = run(game(KYO), 2, ["1-1", "2-1", "2-2", "2-3", "2-4", "1-2"], by_choice={"bet": [stake(0, 1)]})
    assert o.legal_at("dealer_third") == [[{"take": True}, {"take": False}]]  # free at total 2
    o = run(game(KYO, {"dealer_draw_rule": "player"}), 2, ["1-1", "2-1", "2-2", "2-3", "2-4", "1-2"],
            by_choice={"bet": [stake(0, 1)]})
    forced = [e for e in o.events("choose") if e["choice"] == "dealer_third"]
    assert forced[0]["forced"] and forced[0]["action"] == {"take": True}


def test_unbet_columns_option():
    # column 0 staked (5+9=14 -> 4, bettor declines); nobody on column 3: 8+3=11 -> 1
    top = ["2-1", "9-1", "8-2", "3-1", "3-2", "5-1", "4-1", "4-2"]

    def thirds(o):  # third cards dealt after the four first-field moves
        return [e["to"] for e in o.events("move")[4:] if e["from"] == "deck" and e["to"].startswith("column")]
    o = run(game(KYO), 2, top, by_choice={"bet": [stake(0, 1)], "third_card": [{"take": False}]})
    assert thirds(o) == []
    o = run(game(KYO, {"unbet_columns": "forced"}), 2, top, by_choice={"bet": [stake(0, 1)], "third_card": [{"take": False}]})
    assert "column[3]" in thirds(o)


def test_bet_required_option():
    o = run(game(KYO, {"bet_required": True}), 2, [], by_choice={"bet": [stake(0)]})
    assert all(a["col"] >= 0 for a in o.legal_at("bet")[0])


def test_dealer_rotation_options():
    top = ["1-1", "4-1", "3-1", "2-1", "1-2", "1-3"]  # every column beats the dealer's 1+1=2
    o = run(game(KYO), 2, top, by_choice={"bet": [stake(0)], "dealer_third": [{"take": False}]}, rounds=2)
    assert [e["dealer"] for e in o.events("round")] == [0, 0]
    o = run(game(KYO, {"dealer_rotation": "lose_all"}), 2, top,
            by_choice={"bet": [stake(0), stake(0)], "dealer_third": [{"take": False}] * 2}, rounds=2)
    assert [e["dealer"] for e in o.events("round")] == [0, 1]
    o = run(game(KYO, {"dealer_rotation": "every_round"}), 2, [], rounds=2)
    assert [e["dealer"] for e in o.events("round")] == [0, 1]


def test_rounds_option_sets_game_length():
    from rulekit.engine.runner import make_agents, play
    g = game(KYO, {"rounds": 6})
    res = play(g, 3, 1, make_agents(g, 3, 1))
    assert len(res.round_deltas) == 6


def test_hanafuda_deck_gives_identical_outcomes_for_same_values():
    # the same card values stacked in both decks: same payouts
    kab = run(game(KYO), 2, ["2-1", "4-1", "1-2", "3-1", "3-2", "5-1"],
              by_choice={"bet": [stake(0, 3)], "dealer_third": [{"take": False}]})
    han = run(game(KYO, deck="hanafuda"), 2, ["2-1", "4-1", "1-2", "3-1", "3-2", "5-1"],
              by_choice={"bet": [stake(0, 3)], "dealer_third": [{"take": False}]})
    assert kab.chips == han.chips


def test_mushi_kabu_preset_uses_mushi_deck():
    g = game(KYO, preset="mushi-kabu")
    assert g.deck_name == "mushi-kabu" and len(g.card_ids) == 40


def test_soro_vs_soro_higher_triple_lets_the_dealer_win_with_the_higher_triple():
    # column 0: 5-5-5 against the dealer's 6-6-6
    top = ["6-1", "5-1", "1-2", "1-3", "1-4", "5-2", "6-2", "6-3"]
    o = run(game(KYO, {"soro_vs_soro": "higher"}), 2, top,
            by_choice={"bet": [stake(0, 1)], "dealer_third": [{"take": True}]})
    assert o.chips == [1, -1]
    o = run(game(KYO), 2, top, by_choice={"bet": [stake(0, 1)], "dealer_third": [{"take": True}]})
    assert o.chips == [-2, 2]  # literal reading: the column's Sorokabu wins


def test_unbet_columns_dealer_decides_under_the_players_rule():
    # column 0 staked; column 1: 6+8=14 -> 4 (free), column 2: 7+3=10 -> 0 and column 3: 8+3=11 -> 1 (must take)
    top = ["2-1", "9-1", "8-2", "3-1", "3-2", "5-1", "4-1", "4-2", "4-3"]
    o = run(game(KYO, {"unbet_columns": "dealer"}), 2, top,
            by_choice={"bet": [stake(0, 1)], "third_card": [{"take": False}], "unbet_third": [{"take": False}]})
    assert o.legal_at("unbet_third") == [[{"take": True}, {"take": False}]]
    thirds = [e["to"] for e in o.events("move")[4:] if e["to"].startswith("column")]
    assert thirds == ["column[2]", "column[3]"]


def test_kuppin_stands_under_the_players_draw_rule_by_default():
    top = ["9-1", "4-1", "1-2", "1-3", "1-4", "1-1", "3-1"]  # column 0: 5+4 = 9; dealer 9 then 1
    by = {"bet": [stake(0, 1)], "third_card": [{"take": False}], "dealer_third": [{"take": False}]}
    o = run(game(KYO, {"dealer_draw_rule": "player"}), 2, top, by_choice=by)
    assert o.chips == [1, -1]
    o = run(game(KYO, {"dealer_draw_rule": "player", "pin_vs_draw_rule": "draw_rule"}), 2, top,
            by_choice={"bet": [stake(0, 1)], "third_card": [{"take": False}]})
    assert o.chips == [-1, 1]   # forced third card 3: dealer 3 loses to 9


# -- rules that no test pinned down before (issue 16) -------------------------------------------

def test_dealer_draws_only_from_the_top():
    # the dealer's two cards are the top card and the first card after the second field: no choice
    top = ["2-1", "4-1", "1-2", "3-1", "3-2", "5-1"]
    o = run(game(KYO), 2, top, by_choice={"bet": [stake(0, 1)], "dealer_third": [{"take": False}]})
    assert o.legal_at("dealer_draw") == [] and not [e for e in o.events("choose") if e["choice"] == "dealer_draw"]
    dealt = [e["cards"][0] for e in o.events("move") if e["to"] == "dealer_hand"]
    assert dealt == ["2-1", "5-1"]


def test_dealer_does_not_see_the_first_card_before_the_second():
    seen = {}

    def check(ctx, choice, player, actions):
        if choice.id in ("third_card", "dealer_third"):
            seen[choice.id] = ctx.game.observation(ctx, 0)["zones"]["dealer_hand"]
    run(game(KYO), 2, ["2-1", "9-1", "1-2", "1-3", "1-4", "3-2", "5-1"],
        by_choice={"bet": [stake(0)], "third_card": [{"take": False}], "dealer_third": [{"take": False}]},
        checks=check)
    assert seen["third_card"] == ["?"]                 # first card face down, unseen by the dealer
    assert seen["dealer_third"] == ["2-1", "3-2"]      # seen only with the second card


def test_several_players_may_stake_on_one_column_and_the_earliest_decides():
    # seats 1 and 2 both stake on column 0 (5 + 9 = 4: a free choice): only seat 1 is asked;
    # 5 + 9 + 5 = 9 beats the dealer's 2 + 5 = 7 and both stakes are paid
    top = ["2-1", "9-1", "1-2", "1-3", "1-4", "5-2", "5-1"]
    o = run(game(KYO), 3, top, by_choice={"bet": [stake(0, 2), stake(0, 3)], "third_card": [{"take": True}],
                                           "dealer_third": [{"take": False}]})
    assert [e["player"] for e in o.events("choose") if e["choice"] == "third_card"] == [1]
    assert o.chips == [-5, 2, 3]


def test_there_is_no_shippin():
    # the dealer's 4 then 1 is a plain 5: column 0 (5 + 2 = 7) beats it
    top = ["4-1", "2-1", "1-2", "1-3", "1-4", "1-1"]
    o = run(game(KYO), 2, top, by_choice={"bet": [stake(0, 1)], "third_card": [{"take": False}],
                                          "dealer_third": [{"take": False}]})
    assert o.chips == [-1, 1]
    assert not [e for e in o.events("yaku") if e["table"] == "dealer"]


def test_mushi_kabu_values_willow_6_and_paulownia_7():
    g = game(KYO, preset="mushi-kabu")
    by_month = {}
    for c in g.deck.cards:
        by_month.setdefault(c.attrs["month"], set()).add(c.attrs["value"])
    assert by_month[11] == {6} and by_month[12] == {7}
    assert all(by_month[m] == {m} for m in (1, 2, 3, 4, 5, 8, 9, 10))


# -- rules that had no test failing when they were broken (issue 26) ----------------------------

def test_sorokabu_needs_the_first_field_card_among_the_three():
    # column 1 (first field 6) draws 7 and 7: 6 + 7 + 7 = 20, a plain 0, not Sorokabu; the
    # dealer's 2 + 3 = 5 wins
    o = run(game(KYO), 2, ["2-1", "1-2", "7-1", "1-3", "1-4", "7-2", "3-1"],
            by_choice={"bet": [stake(1, 1)], "third_card": [{"take": True}], "dealer_third": [{"take": False}]})
    assert "yaku:sorokabu" not in o.result.records
    assert o.chips == [1, -1]


def test_kuppin_nine_then_one_still_counts_when_either_order_is_agreed():
    top = ["9-1", "2-1", "1-2", "1-3", "1-4", "1-1"]  # dealer 9 then 1; column 0: 5 + 2 = 7
    o = run(game(KYO, {"kuppin_order": "either"}), 2, top,
            by_choice={"bet": [stake(0, 1)], "dealer_third": [{"take": False}]})
    assert o.result.records.get("yaku:kuppin") == 1
    assert o.chips == [1, -1]


def test_payment_reasons_name_sorokabu_or_the_value_clause_by_clause():
    # column 0: 5-5-5 (Sorokabu) against the dealer's 6-6-6 (the dealer's Sorokabu): both named as hands
    top = ["6-1", "5-1", "1-2", "1-3", "1-4", "5-2", "6-2", "6-3"]
    o = run(game(KYO), 2, top, by_choice={"bet": [stake(0, 1)], "dealer_third": [{"take": True}]})
    whys = [e["why"] for e in o.events("pay")]
    assert "column 1, three of a kind (Sorokabu) against the dealer's three of a kind (Sorokabu)" in whys
    # column 0: 5 + 4 = 9 against the dealer's Kuppin (9 then 1): the column by its value
    top = ["9-1", "4-1", "1-2", "1-3", "1-4", "1-1", "3-1"]
    o = run(game(KYO, {"dealer_draw_rule": "player"}), 2, top,
            by_choice={"bet": [stake(0, 1)], "third_card": [{"take": False}], "dealer_third": [{"take": False}]})
    assert [e["why"] for e in o.events("pay")] == ["column 1, 9 against the dealer's Kuppin"]


def test_simulations_meet_kuppin_and_sorokabu_at_their_exact_rates():
    """Simulated careful play (6 players: five bettors, so a column is shared) meets the dealer's
    Kuppin as often as the deck deals it and columns of three of a kind (Sorokabu)."""
    import math

    from rulekit.analysis.simulate import simulate
    rounds = 4000
    st = simulate(game(KYO), 6, rounds, seed=3, policy="careful")
    kuppin = st.records.get("yaku:kuppin", 0)
    # the dealer's first two cards 9 then 1, of the 36 cards left after the first field
    p = (4 / 36) * (4 / 35)
    z = (kuppin / rounds - p) / math.sqrt(p * (1 - p) / rounds)
    assert abs(z) < 4, (kuppin, p * rounds)
    assert st.records.get("yaku:sorokabu", 0) > 0 and st.records.get("yaku:dealer-sorokabu", 0) > 0


def test_the_site_example_shows_a_shared_column_and_sorokabu():
    import yaml

    from rulekit.engine.runner import make_agents, play
    from rulekit.engine.testing import variant_path
    with open(variant_path(KYO), encoding="utf-8") as fh:
        ex = yaml.safe_load(fh)["example"]
    g = game(KYO)
    n = ex["players"]
    res = play(g, n, ex["seed"], make_agents(g, n, ex["seed"], "careful"), rounds=1, logging=True)
    cols = [e["action"]["col"] for e in res.events if e["t"] == "choose" and e["choice"] == "bet"]
    staked = [c for c in cols if c >= 0]
    assert len(staked) > len(set(staked))  # two players on one column
    assert any("Sorokabu" in e.get("why", "") for e in res.events if e["t"] == "pay")

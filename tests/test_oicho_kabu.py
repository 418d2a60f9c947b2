"""Stacked-deck tests for Oicho-Kabu (RULES.md §2.1): every rule and every option switch.

Layout of the stacked deck (first = top after the shuffle; the cut is skipped when stacked):
dead cards (one per non-dealer seat from the dealer's right, or also the dealer), the four
first-field cards (hands 0-3), the dealer's first card, the four second-field cards, then the
third cards in decision order, the dealer's second card and the dealer's optional third card.
"""
from __future__ import annotations

import pytest

from rulekit.engine.testing import game, run

V = "kabufuda/oicho-kabu.yaml"


class Cards:
    """Hands out unused kabufuda card ids by value ('5-2', '5-3', ...), avoiding the specials."""

    def __init__(self):
        self.used: set[str] = set()

    def __call__(self, value: int | None) -> str:
        if value is None:   # any unused card
            return next(self(v) for v in (6, 7, 8, 9, 10, 1, 2, 3, 4, 5) if self.left(v))
        for k in (2, 3, 4, 1):
            cid = f"{value}-{k}"
            if cid not in self.used:
                self.used.add(cid)
                return cid
        raise AssertionError(f"no {value} left")

    def left(self, value: int) -> bool:
        return any(f"{value}-{k}" not in self.used for k in (1, 2, 3, 4))


def layout(field, holes, dealer, thirds=(), n=2, dead=None, dealer_dead=False):
    """A stacked deck for an n-player game with dealer 0, values given as numbers."""
    k = Cards()
    n_dead = n if dealer_dead else n - 1
    dead = list(dead or [None] * n_dead)
    assert len(dead) == n_dead
    rest = [k(v) for v in field] + [k(dealer[0])] + [k(v) for v in holes]
    rest += [k(v) for v in thirds] + [k(v) for v in dealer[1:]]
    return [k(v) for v in dead] + rest


def bets(*pairs, stop=True):
    """Script for one bettor: (column, amount) stakes, then stop."""
    out = [{"col": c, "amount": a} for c, a in pairs]
    return out + ([{"col": -1}] if stop else [])


def play(top, opts=None, n=2, bet=(), third=(), dealer_third=(False,), draw=(), **kw):
    """One round, dealer 0; the dealer refuses a third card unless told otherwise."""
    g = game(V, opts or {})
    by = {"bet": list(bet), "third_card": [{"take": t} if isinstance(t, bool) else t for t in third],
          "dealer_third": [{"take": t} for t in dealer_third], "dealer_draw": [{"pos": p} for p in draw]}
    return run(g, n, top, by_choice=by, **kw)


def pays(out):
    return [(e["from"], e["to"], e["amount"]) for e in out.events("pay")]


# -- hand value, comparison, ties ---------------------------------------------------------

def test_hand_value_is_ones_digit_and_higher_hand_is_paid_even_money():
    # hand 0: 5 + 4 = 9 (kabu); dealer 10 + 8 = 8 (oicho) -> bettor paid 1:1
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[10, 8])
    out = play(top, bet=bets((0, 3)), third=[False])
    assert pays(out) == [(0, 1, 3)]
    assert out.chips == [-3, 3]


def test_ten_counts_as_zero_and_dealer_higher_takes_the_stake():
    # hand 0: 10 + 10 = 0 (buta), the bettor must draw (0 <= 3): third card 5 -> 25 = 5;
    # dealer 2 + 4 = 6 -> dealer wins
    top = layout(field=[10, 1, 1, 1], holes=[10, 2, 2, 2], dealer=[2, 4], thirds=[5])
    out = play(top, bet=bets((0, 2)), third=[True])
    assert out.chips == [2, -2]


def test_tie_is_a_push_by_default():
    # hand 0: 3 + 4 = 7, dealer 3 + 4 = 7
    top = layout(field=[3, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[3, 4])
    out = play(top, bet=bets((0, 2)), third=[False])
    assert out.chips == [0, 0]


def test_tie_option_dealer_wins_ties():
    top = layout(field=[3, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[3, 4])
    out = play(top, {"tie": "dealer"}, bet=bets((0, 2)), third=[False])
    assert out.chips == [2, -2]


# -- dead cards and the first field ---------------------------------------------------------

def test_each_player_but_the_dealer_gets_one_private_dead_card():
    seen = {}

    def checks(ctx, choice, player, actions):
        if choice.id == "bet" and not seen:
            g = ctx.game
            seen["obs"] = [g.observation(ctx, s)["zones"]["dead"] for s in range(3)]
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[10, 8], n=3, dead=[6, 7])
    out = play(top, n=3, bet=bets((0, 1)) + bets(), third=[False], checks=checks)
    deal = out.events("deal")[0]
    assert deal["to"] == "dead" and deal["players"] == [1, 2]
    obs = seen["obs"]
    assert obs[1][1] == [top[0]] and obs[2][2] == [top[1]]      # the owner sees it
    assert obs[2][1] == ["?"] and obs[0][1] == ["?"] and obs[0][0] == []  # nobody else; dealer has none


def test_option_dealer_dead_card_gives_the_dealer_one_too():
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[10, 8], n=3, dealer_dead=True)
    out = play(top, {"dealer_dead_card": True}, n=3, bet=bets((0, 1)) + bets(), third=[False])
    assert out.events("deal")[0]["players"] == [1, 2, 0]
    assert out.chips == [-1, 1, 0]   # the same hands as without it, one card further down
    # without the option the same stacked deck shifts by one card: the field starts one earlier
    out2 = play(top, n=3, bet=bets((0, 1)) + bets(), third=[False])
    first_field = [e["cards"][0] for e in out2.events("move") if e["to"] == "column[0]"][0]
    assert first_field == top[2]


@pytest.mark.parametrize("n", [2, 5, 8])
def test_first_field_is_four_face_up_cards_whatever_the_number_of_players(n):
    top = layout(field=[5, 6, 7, 8], holes=[1, 1, 1, 2], dealer=[10, 10], n=n)
    out = play(top, n=n)
    field = [e for e in out.events("move") if e["to"].startswith("column[")][:4]
    assert [e["to"] for e in field] == ["column[0]", "column[1]", "column[2]", "column[3]"]
    assert all(e["face"] == "up" for e in field)
    assert [e["cards"][0] for e in field] == top[n - 1:n + 3]


# -- betting --------------------------------------------------------------------------------

def test_betting_on_several_hands_with_any_amounts_up_to_the_table_maximum():
    top = layout(field=[5, 6, 7, 8], holes=[4, 3, 2, 1], dealer=[10, 5], n=3)
    out = play(top, {"table_limit": 10}, n=3, bet=bets((0, 3), (2, 4)) + bets((1, 2)),
               third=[False, False, False])
    offered = out.legal_at("bet")
    first, later = offered[0], offered[3]
    assert {"col": 3, "amount": 10} in first and {"col": -1, "amount": 0} in first
    # seat 2 bets after 7 of 10 are on the table: at most 3 more
    assert max(a["amount"] for a in later) == 3 and len(later) == 1 + 4 * 3
    # hands: 0 = 9, 1 = 9, 2 = 9 (all beat dealer 5) -> seat 1 wins 7, seat 2 wins 2
    assert out.chips == [-9, 7, 2]


def test_betting_closes_when_the_table_maximum_is_reached():
    top = layout(field=[5, 6, 7, 8], holes=[4, 3, 2, 1], dealer=[10, 5], n=3)
    out = play(top, {"table_limit": 5}, n=3, bet=bets((0, 5), stop=False), third=[False])
    assert len(out.legal_at("bet")) == 1          # seat 1 filled the table, seat 2 is never asked
    assert out.chips == [-5, 5, 0]


def test_stakes_on_one_hand_add_up():
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[10, 8])
    out = play(top, bet=bets((0, 2), (0, 3)), third=[False])
    assert out.chips == [-5, 5]


# -- the dealer's first card ------------------------------------------------------------------

def test_dealer_takes_first_card_from_top_bottom_or_fourth_from_top():
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[10, 8])
    out = play(top, bet=bets((0, 1)), third=[False], draw=["fourth", "top"])
    assert out.legal_at("dealer_draw")[0] == [{"pos": "top"}, {"pos": "bottom"}, {"pos": "fourth"}]
    to_dealer = [e["cards"][0] for e in out.events("move") if e["to"] == "dealer_hand"]
    # fourth from the top: the card stacked for the dealer (top[5]) and the next three go to the holes
    assert to_dealer[0] == top[8]
    holes = [e["cards"][0] for e in out.events("move") if e["to"].startswith("hole[")]
    assert holes == [top[5], top[6], top[7], top[9]]


def test_dealer_first_card_from_the_bottom_leaves_the_top_for_the_second_field():
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[10, 8])
    out = play(top, bet=bets((0, 1)), third=[False], draw=["bottom", "top"])
    to_dealer = [e["cards"][0] for e in out.events("move") if e["to"] == "dealer_hand"]
    assert to_dealer[0] not in top
    holes = [e["cards"][0] for e in out.events("move") if e["to"].startswith("hole[")]
    assert holes == top[5:9]


def test_dealer_does_not_see_the_first_card_until_the_second_arrives():
    seen = []

    def checks(ctx, choice, player, actions):
        if choice.id == "third_card":
            seen.append(ctx.game.observation(ctx, 0)["zones"]["dealer_hand"])
    top = layout(field=[5, 1, 1, 1], holes=[10, 2, 2, 2], dealer=[10, 8])
    play(top, bet=bets((0, 1)), third=[False], checks=checks)
    assert seen == [["?"]]


def test_option_dealer_draw_position_top_only():
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[10, 8])
    out = play(top, {"dealer_draw_position": "top"}, bet=bets((0, 1)), third=[False])
    assert out.legal_at("dealer_draw") == []
    to_dealer = [e["cards"][0] for e in out.events("move") if e["to"] == "dealer_hand"]
    assert to_dealer == [top[5], top[10]]


# -- second field: who may look -----------------------------------------------------------------

def test_bettors_see_only_the_second_cards_of_hands_they_bet_on():
    seen = {}

    def checks(ctx, choice, player, actions):
        if choice.id == "third_card" and "obs" not in seen:
            seen["obs"] = [ctx.game.observation(ctx, s)["zones"]["hole"] for s in range(3)]
    top = layout(field=[5, 6, 7, 8], holes=[1, 1, 1, 2], dealer=[10, 10], n=3)
    play(top, n=3, bet=bets((0, 1), (2, 1)) + bets((1, 1)), third=[False] * 3, checks=checks)
    h = top[7:11]
    obs = seen["obs"]
    assert obs[1] == [[h[0]], ["?"], [h[2]], ["?"]]
    assert obs[2] == [["?"], [h[1]], ["?"], ["?"]]
    assert obs[0] == [["?"]] * 4   # the dealer sees none


# -- third field ---------------------------------------------------------------------------------

def test_third_card_forced_at_3_or_less_and_refused_at_7_or_more():
    # hands: 0 = 1+2 = 3 (must take), 1 = 3+4 = 7 (may not), 2 = 2+3 = 5 (free choice)
    top = layout(field=[1, 3, 2, 1], holes=[2, 4, 3, 10], dealer=[10, 10], thirds=[9, 9])
    out = play(top, bet=bets((0, 1), (1, 1), (2, 1)), third=[{"col": 2, "take": True}])
    # only the free hand is a decision; the others have a single legal action
    assert out.legal_at("third_card") == [[{"col": 2, "take": True}, {"col": 2, "take": False}]]
    forced = [e["action"] for e in out.events("choose") if e["choice"] == "third_card" and e.get("forced")]
    assert forced == [{"col": 0, "take": True}, {"col": 1, "take": False}]
    drawn_to = [e["to"] for e in out.events("move") if e["to"].startswith("column[")][4:]
    assert drawn_to == ["column[0]", "column[2]"]


def test_forced_third_card_is_drawn_face_up_and_counts():
    # hand 0: 1 + 2 = 3 must take; third card 5 -> 8 beats dealer 7
    top = layout(field=[1, 1, 1, 1], holes=[2, 2, 2, 10], dealer=[3, 4], thirds=[5])
    out = play(top, bet=bets((0, 1)))
    third = [e for e in out.events("move") if e["to"] == "column[0]"][1]
    assert third["face"] == "up" and third["cards"] == [top[10]]
    assert out.chips == [-1, 1]


def test_hand_nobody_bet_on_gets_no_third_card():
    # hand 0 = 2 (bet on: forced to draw); hands 1-3 = 3, 3, 4 (nobody bet on them)
    top = layout(field=[1, 1, 1, 2], holes=[1, 2, 2, 2], dealer=[3, 4])
    out = play(top, bet=bets((0, 1)), third=[True])
    drawn_to = [e["to"] for e in out.events("move") if e["to"].startswith("column[")][4:]
    assert drawn_to == ["column[0]"]


def test_shared_hand_is_decided_by_the_earliest_bettor():
    top = layout(field=[5, 6, 1, 1], holes=[10, 10, 1, 1], dealer=[10, 10], n=3)
    out = play(top, n=3, bet=bets((0, 1)) + bets((0, 1), (1, 1)), third=[True, False])
    deciders = [(p, legal[0]["col"]) for cid, p, legal in out.script.seen if cid == "third_card"]
    assert deciders == [(1, 0), (2, 1)]


def test_dealer_third_card_is_free_by_default():
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[9, 10, 1])
    out = play(top, bet=bets((0, 1)), third=[False], dealer_third=[True])
    assert out.legal_at("dealer_third") == [[{"take": True}, {"take": False}]]
    # dealer 9 + 10 + 1 = 0 loses to hand 0 (9)
    assert out.chips == [-1, 1]


def test_dealer_sees_both_cards_before_deciding_but_the_players_do_not():
    seen = {}

    def checks(ctx, choice, player, actions):
        if choice.id == "dealer_third":
            seen.update({s: ctx.game.observation(ctx, s)["zones"]["dealer_hand"] for s in range(2)})
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[9, 10, 1])
    play(top, bet=bets((0, 1)), third=[False], dealer_third=[True], checks=checks)
    assert seen == {0: [top[5], top[10]], 1: ["?", "?"]}


def test_dealer_third_card_is_hidden_until_the_showdown():
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[9, 10, 1])
    out = play(top, bet=bets((0, 1)), third=[False], dealer_third=[True])
    third = [e for e in out.events("move") if e["to"] == "dealer_hand"][2]
    assert "face" not in third
    reveals = [e for e in out.events("reveal") if top[-1] in e["cards"]]
    assert reveals[0]["to"] == [0] and reveals[-1]["to"] == "all"


def test_option_dealer_draw_rule_player_binds_the_dealer():
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[9, 10])
    out = play(top, {"dealer_draw_rule": "player"}, bet=bets((0, 1)), third=[False], dealer_third=[])
    assert out.legal_at("dealer_third") == []       # 9: must not take, no choice offered
    assert out.chips == [0, 0]
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[1, 2, 5])
    out = play(top, {"dealer_draw_rule": "player"}, bet=bets((0, 1)), third=[False], dealer_third=[])
    assert len([e for e in out.events("move") if e["to"] == "dealer_hand"]) == 3   # 3: must take
    assert out.chips == [-1, 1]   # dealer 1+2+5 = 8 loses to the 9


# -- yaku ------------------------------------------------------------------------------------------

def test_arashi_pays_twice_the_stake_and_wins_whatever_the_totals():
    # hand 0: 2 + 2 + 2 = 6 (Arashi) against a dealer 9
    top = layout(field=[2, 1, 1, 1], holes=[2, 10, 10, 10], dealer=[4, 5], thirds=[2])
    out = play(top, bet=bets((0, 3)), third=[True])
    assert out.chips == [-6, 6]
    assert any(e["yaku"] == ["arashi"] for e in out.events("yaku"))


def test_three_cards_of_different_value_are_an_ordinary_hand():
    top = layout(field=[2, 1, 1, 1], holes=[2, 10, 10, 10], dealer=[4, 5], thirds=[3])
    out = play(top, bet=bets((0, 3)), third=[True])
    assert out.chips == [3, -3]


def test_shippin_beats_every_hand_including_arashi():
    # dealer 4 then 1 (value 5); hand 0 Arashi 2-2-2, hand 1: 9
    top = layout(field=[2, 5, 1, 1], holes=[2, 4, 10, 10], dealer=[4, 1], thirds=[2])
    out = play(top, bet=bets((0, 1), (1, 1)), third=[True, False])
    assert out.chips == [2, -2]
    assert any(e["yaku"] == ["shippin"] for e in out.events("yaku"))


def test_kuppin_beats_every_hand_including_arashi():
    top = layout(field=[2, 5, 1, 1], holes=[2, 4, 10, 10], dealer=[9, 1], thirds=[2])
    out = play(top, bet=bets((0, 1), (1, 1)), third=[True, False])
    assert out.chips == [2, -2]
    assert any(e["yaku"] == ["kuppin"] for e in out.events("yaku"))


@pytest.mark.parametrize("dealer", [[1, 9], [1, 4]])
def test_kuppin_and_shippin_are_order_sensitive(dealer):
    # 1 then 9 is a plain 0; 1 then 4 a plain 5: hand 0 = 9 wins
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=dealer)
    out = play(top, bet=bets((0, 1)), third=[False])
    assert out.chips == [-1, 1]
    assert not [e for e in out.events("yaku") if e["table"] == "dealer"]


@pytest.mark.parametrize("dealer", [[4, 1, 5], [9, 1, 5]])
def test_shippin_and_kuppin_need_exactly_two_cards(dealer):
    # dealer 4, 1 (or 9, 1) and a third card 5 -> a plain 0 (or 5)
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=dealer)
    out = play(top, bet=bets((0, 1)), third=[False], dealer_third=[True])
    assert out.chips == [-1, 1]


def test_option_arashi_vs_pin_lets_arashi_survive():
    top = layout(field=[2, 5, 1, 1], holes=[2, 4, 10, 10], dealer=[9, 1], thirds=[2])
    out = play(top, {"arashi_vs_pin": "arashi"}, bet=bets((0, 1), (1, 1)), third=[True, False])
    assert out.chips == [-1, 1]   # Arashi +2, the plain 9 still loses 1


def test_dealer_three_of_a_kind_is_ordinary_by_default():
    # dealer 3-3-3 = 9 against hand 0 Arashi 2-2-2 (wins) and hand 1 = 8 (loses)
    top = layout(field=[2, 5, 1, 1], holes=[2, 3, 10, 10], dealer=[3, 3, 3], thirds=[2])
    out = play(top, bet=bets((0, 1), (1, 1)), third=[True, False], dealer_third=[True])
    assert out.chips == [-1, 1]


def test_option_arashi_vs_arashi_higher_triple_wins():
    # dealer 3-3-3 is Arashi: beats the plain 8, and beats the column Arashi 2-2-2 (3 > 2)
    top = layout(field=[2, 5, 1, 1], holes=[2, 3, 10, 10], dealer=[3, 3, 3], thirds=[2])
    out = play(top, {"arashi_vs_arashi": "higher"}, bet=bets((0, 1), (1, 1)), third=[True, False],
               dealer_third=[True])
    assert out.chips == [2, -2]


def test_option_arashi_vs_arashi_lets_the_dealer_triple_beat_every_ordinary_hand():
    # dealer 4-4-4 totals only 2; hand 0 = 5 + 4 = 9
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[4, 4, 4])
    plain = play(top, bet=bets((0, 1)), third=[False], dealer_third=[True])
    assert plain.chips == [-1, 1]
    for rule in ("higher", "nine"):
        out = play(top, {"arashi_vs_arashi": rule}, bet=bets((0, 1)), third=[False], dealer_third=[True])
        assert out.chips == [1, -1]


def test_option_arashi_vs_arashi_closer_to_nine_wins():
    # dealer 4-4-4 = 2 against column 3-3-3 = 9: by card value the dealer wins, by nine the column
    top = layout(field=[3, 1, 1, 1], holes=[3, 10, 10, 10], dealer=[4, 4, 4], thirds=[3])
    higher = play(top, {"arashi_vs_arashi": "higher"}, bet=bets((0, 1)), third=[True], dealer_third=[True])
    nine = play(top, {"arashi_vs_arashi": "nine"}, bet=bets((0, 1)), third=[True], dealer_third=[True])
    assert higher.chips == [1, -1]
    assert nine.chips == [-2, 2]


# -- rounds, bank rotation, seating ------------------------------------------------------------------

def test_dealer_keeps_the_bank_by_default():
    top = layout(field=[5, 6, 7, 8], holes=[4, 3, 2, 1], dealer=[10, 10])
    out = play(top, bet=bets((0, 1)), third=[False])
    # the same dealer deals again, and players are told why
    assert [(e["seat"], e["why"]) for e in out.events("next_dealer")] == [(0, "the dealer keeps the bank all game")]


def test_option_dealer_rotation_lose_all_passes_the_bank_when_every_hand_wins():
    top = layout(field=[5, 6, 7, 8], holes=[4, 3, 2, 1], dealer=[10, 10])
    out = play(top, {"dealer_rotation": "lose_all"}, bet=bets((0, 1)), third=[False])
    assert [e["seat"] for e in out.events("next_dealer")] == [1]
    top = layout(field=[5, 6, 7, 8], holes=[4, 3, 2, 2], dealer=[10, 10])    # hand 3 = 0: a tie
    out = play(top, {"dealer_rotation": "lose_all"}, bet=bets((0, 1)), third=[False])
    assert [e["seat"] for e in out.events("next_dealer")] == [0]  # the bank stays


def test_option_dealer_rotation_every_round():
    top = layout(field=[5, 6, 7, 8], holes=[4, 3, 2, 2], dealer=[10, 10])
    out = play(top, {"dealer_rotation": "every_round"}, bet=bets((0, 1)), third=[False])
    assert [e["seat"] for e in out.events("next_dealer")] == [1]


@pytest.mark.parametrize("rounds", [1, 3])
def test_option_rounds_sets_the_game_length(rounds):
    out = run(game(V, {"rounds": rounds}), 3, [], rounds=None)
    assert len(out.result.round_deltas) == rounds


def test_option_dealer_selection_only_names_the_rule_the_seating_stands_for():
    a = run(game(V, {"dealer_selection": "lowest"}), 4, [], rounds=3, seed=7)
    b = run(game(V, {"dealer_selection": "nine"}), 4, [], rounds=3, seed=7)
    assert a.chips == b.chips and a.result.log["moves"] == b.result.log["moves"]


# -- decks -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("deck,five,four,tens", [
    ("kabufuda", "5-1", "4-2", ["10-1", "10-2"]),
    ("hanafuda", "5-1", "4-1", ["10-1", "10-2"]),     # a card is worth its month
    ("western", "5H", "4S", ["10H", "10S"]),          # suits do not matter
    ("mamefuda", "5-1", "4-2", ["10-1", "10-2"])])
def test_substitute_decks_play_the_same(deck, five, four, tens):
    g = game(V, {}, deck=deck)
    assert len(g.card_ids) == 40
    spare = [c for c in g.card_ids if c not in (five, four, *tens)]
    # dead card, hand 0 = 5, three other hands, dealer 10, hole 0 = 4, three holes, dealer 10
    top = [spare[0], five, spare[1], spare[2], spare[3], tens[0], four, spare[4], spare[5], spare[6], tens[1]]
    out = run(g, 2, top, by_choice={"bet": bets((0, 1)), "dealer_third": [{"take": False}]})
    assert out.chips == [-1, 1]    # 9 beats 0


def test_kuppin_stands_under_the_players_draw_rule_by_default():
    # 9 then 1 totals 0: the players' rule would force a third card; the literal reading keeps Kuppin
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[9, 1])
    out = play(top, {"dealer_draw_rule": "player"}, bet=bets((0, 1)), third=[False], dealer_third=[False])
    assert out.legal_at("dealer_third") == [[{"take": True}, {"take": False}]]
    assert any(e["yaku"] == ["kuppin"] for e in out.events("yaku"))
    assert out.chips == [1, -1]


def test_option_pin_vs_draw_rule_forces_the_third_card_and_loses_kuppin():
    top = layout(field=[5, 1, 1, 1], holes=[4, 2, 2, 2], dealer=[9, 1, 5])
    out = play(top, {"dealer_draw_rule": "player", "pin_vs_draw_rule": "draw_rule"}, bet=bets((0, 1)),
               third=[False], dealer_third=[])
    assert out.legal_at("dealer_third") == []   # forced: 0 must take
    assert not [e for e in out.events("yaku") if e["table"] == "dealer"]
    assert out.chips == [-1, 1]   # dealer 9+1+5 = 5 loses to the 9

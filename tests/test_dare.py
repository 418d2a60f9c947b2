"""Stacked-deck tests for Dare (RULES.md §3): every rule and every option switch.

Deals are written as hands of card values; `stack` turns them into the card order after the
shuffle: nine rounds of one card to each seat from the dealer's right, then the three field
cards. Most deals use the field 10, 9, 8 (total 27, key number 7). The hands were chosen so
that their sets are known: e.g. A = 1 2 4 | 3 5 9 | 10 10 7 is three sets (7, 17, 27).
"""
from __future__ import annotations

from collections import Counter

import pytest

from rulekit.engine.testing import game, run

V = "kabufuda/dare.yaml"
FIELD = [10, 9, 8]                       # 27: key number 7

A = [1, 2, 4, 3, 5, 9, 10, 10, 7]        # three sets: Dare
B = [1, 3, 3, 2, 5, 10, 6, 6, 5]         # three sets: Dare
Z = [4, 4, 4, 8, 8, 8, 6, 6, 2]          # no set
Q8 = [1, 2, 4, 3, 5, 9, 6, 6, 6]         # two sets, leaves 8 whichever sets are chosen
Q9 = [7, 10, 10, 2, 7, 8, 4, 5, 10]      # two sets, leaves 9
Q0 = [2, 3, 3, 4, 5, 5, 6, 7, 9]         # two sets, leaves 0 (buta)
AR2 = [1, 1, 2, 2, 2, 2, 5, 6, 9]        # two sets, always leaves 2 2 2 (6, or Arashi)
P8 = [3, 4, 6, 6, 7, 7, 9, 10, 10]       # two sets, leaves 3 6 9 (8)
AR4 = [3, 4, 4, 4, 4, 5, 6, 8, 8]        # two sets, leaves 4 4 4 (2, or Arashi)
AR3 = [3, 3, 3, 7, 8, 9, 10, 10, 10]     # two sets, leaves 3 3 3 (9, or Arashi)
T1 = [1, 2, 2, 3, 4, 5, 5, 5, 10]        # two sets, leaves 3 5 5 (3)
T2 = [2, 3, 6, 7, 7, 7, 7, 8, 10]        # two sets, leaves 6 7 10 (3)
X = [2, 3, 4, 5, 5, 5, 7, 8, 10]         # two sets, leaves 5 5 5 (Arashi) or another 5
Y = [1, 1, 2, 4, 5, 6, 6, 8, 9]          # two sets, leaves 8
W = [1, 2, 3, 5, 6, 6, 8, 8, 10]         # two sets, leaves 5 (never three of a kind)
ONE = [1, 2, 2, 5, 5, 7, 8, 9, 9]        # one set only
NONE = [4, 4, 4, 4, 5, 6, 10, 10, 10]    # no set


class Cards:
    """Hands out unused card ids of the 39-card kabufuda deck by value (no red 1, '1-1')."""

    def __init__(self):
        self.used: set[str] = set()

    def __call__(self, value: int) -> str:
        for k in (1, 2, 3, 4):
            cid = f"{value}-{k}"
            if cid != "1-1" and cid not in self.used:
                self.used.add(cid)
                return cid
        raise AssertionError(f"no {value} left")


def stack(hands: dict[int, list[int]], field=FIELD, dealer=0):
    """Card order after the shuffle for these hands (seat -> 9 values) and field."""
    n = len(hands)
    k = Cards()
    order = [(dealer + 1 + i) % n for i in range(n)]
    ids = {p: [k(v) for v in hands[p]] for p in order}
    return [ids[p][j] for j in range(9) for p in order] + [k(v) for v in field]


def play(hands, opts=None, field=FIELD, sets=(), deck=None, **kw):
    g = game(V, opts or {}, deck=deck)
    return run(g, len(hands), stack(hands, field), by_choice={"sets": list(sets)}, **kw)


def records(out, name):
    return [e for e in out.events("record") if e["name"] == name]


def turns(out):
    """Seats that took a turn laying down sets, in order."""
    return [int(e["from"][5:-1]) for e in out.events("move") if e["from"].startswith("hand[")]


def next_dealer(out):
    return [e["seat"] for e in out.events("next_dealer")]


def no_five(action):
    """A choice of sets that keeps the three 5s of hand X (it leaves 5 5 5)."""
    return not any(c.startswith("5-") for s in action["fam"] for c in s)


def some_five(action):
    return not no_five(action)


# -- equipment and deal ---------------------------------------------------------------------

def test_deck_is_kabufuda_without_the_red_one():
    g = game(V)
    assert len(g.card_ids) == 39 and "1-1" not in g.card_ids
    values = Counter(c.attrs["value"] for c in g.deck.cards)
    assert values[1] == 3 and all(values[v] == 4 for v in range(2, 11))


@pytest.mark.parametrize("deck,gone", [("mamefuda-39", "1-1"), ("hanafuda-39", "1-1"),
                                       ("western-39", "AS"), ("kabufuda-39", "1-1")])
def test_deck_variants_have_39_cards_without_their_special_one(deck, gone):
    g = game(V, deck=deck)
    assert len(g.card_ids) == 39 and gone not in g.card_ids
    values = Counter(c.attrs["value"] for c in g.deck.cards)
    assert values[1] == 3 and all(values[v] == 4 for v in range(2, 11))


def test_forty_card_deck_variant():
    g = game(V, deck="kabufuda-40")
    assert len(g.card_ids) == 40 and "1-1" in g.card_ids
    out = run(g, 4, [], rounds=1)
    assert len(out.events("deal")) == 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_nine_cards_each_and_three_face_up_on_the_field(n):
    out = run(game(V), n, [], rounds=1)
    deal = out.events("deal")[0]
    assert deal["count"] == 9 and deal["players"] == [(1 + i) % n for i in range(n)]
    field = [e for e in out.events("move") if e["to"] == "field"]
    assert sum(len(e["cards"]) for e in field) == 3 and all(e["face"] == "up" for e in field)


def test_every_player_pays_the_ante_into_the_pot():
    out = play({0: Q8, 1: ONE}, {"ante": 3})
    antes = [(e["from"], e["to"], e["amount"]) for e in out.events("pay")][:2]
    assert antes == [(1, "pot", 3), (0, "pot", 3)]
    assert out.chips == [3, -3]          # seat 0 qualifies alone and takes the pot of 6


# -- reference value and sets -----------------------------------------------------------------

def test_the_reference_value_is_the_fields_ones_digit():
    # the same hand A: three sets when the field totals 27 (key 7), but not with 28 (key 8)
    out = play({0: Z, 1: A})
    assert [e["player"] for e in records(out, "dare")] == [1]
    out = play({0: Z, 1: A}, field=[10, 9, 9])
    assert records(out, "dare") == []


def test_sets_are_three_cards_whose_total_ends_in_the_key_number():
    out = play({0: ONE, 1: Q8})
    offered = out.legal_at("sets")[0]
    g = game(V)
    value = {c.id: c.attrs["value"] for c in g.deck.cards}
    assert len(offered) == 7               # every way of laying down two sets
    for action in offered:
        assert len(action["fam"]) == 2
        for s in action["fam"]:
            assert len(s) == 3 and sum(value[c] for c in s) % 10 == 7


def test_sets_are_laid_face_up_in_front_of_the_player():
    out = play({0: ONE, 1: Q8})
    laid = [e for e in out.events("move") if e["to"] == "sets[1]"][0]
    assert len(laid["cards"]) == 6 and laid["face"] == "up"


# -- Dare ----------------------------------------------------------------------------------------

def test_dare_with_three_sets_ends_the_round_and_takes_the_pot():
    out = play({0: Z, 1: A})
    assert [e["player"] for e in records(out, "dare")] == [1]
    assert out.events("end_round")[0]["why"] == "dare"
    assert out.chips == [-1, 1]
    assert next_dealer(out) == [1]                # the winner deals next


def test_later_players_get_no_turn_after_a_dare():
    # seats act 1, 2, 0: seat 2 makes Dare; the dealer (seat 0) holds Dare too but never plays
    out = play({1: Z, 2: A, 0: B})
    assert turns(out) == [1, 2]
    assert [e["player"] for e in records(out, "dare")] == [2]
    assert out.chips == [-1, -1, 2]


def test_dare_takes_every_ante_in_the_pot():
    out = play({1: A, 2: Z, 0: B}, {"ante": 5})
    assert out.chips == [-5, 10, -5]


# -- showdown ------------------------------------------------------------------------------------

def test_two_sets_go_to_showdown_and_the_higher_ones_digit_wins():
    out = play({1: Q8, 2: Q9, 0: ONE})
    assert out.chips == [-1, -1, 2]
    assert next_dealer(out) == [2]
    shown = [e["cards"] for e in out.events("reveal") if e["to"] == "all"]
    assert len(shown) == 2 and all(len(c) == 3 for c in shown)


def test_one_set_is_out_even_against_a_buta():
    # seat 1 leaves 0 (buta), the worst hand, and still wins: seat 0 laid down one set only
    out = play({0: [2, 4, 4, 6, 6, 8, 9, 10, 10], 1: Q0})
    assert out.chips == [-1, 1]
    shown = [e["cards"] for e in out.events("reveal") if e["to"] == "all"]
    assert len(shown) == 1 and len(shown[0]) == 3          # only seat 1's hand is shown


def test_the_winner_of_the_showdown_deals_next():
    out = play({1: Q8, 2: Q9, 0: ONE}, rounds=2)
    deals = [e["players"] for e in out.events("deal")]
    assert deals == [[1, 2, 0], [0, 1, 2]]         # round 2 is dealt by seat 2


# -- option set_choice ------------------------------------------------------------------------------

def test_set_choice_player_offers_every_largest_family_of_sets():
    out = play({0: Y, 1: X}, {"showdown_yaku": "arashi"}, sets=[no_five])
    offered = out.legal_at("sets")[0]
    assert len(offered) == 16 and all(len(a["fam"]) == 2 for a in offered)
    assert any(no_five(a) for a in offered) and any(some_five(a) for a in offered)
    assert out.chips == [-1, 1]             # seat 1 kept 5 5 5: Arashi beats the 8


def test_set_choice_player_may_choose_badly():
    out = play({0: Y, 1: X}, {"showdown_yaku": "arashi"}, sets=[some_five])
    assert out.chips == [1, -1]             # a plain 5 loses to the 8


def test_option_set_choice_auto_keeps_the_best_showdown_hand():
    out = play({0: Y, 1: X}, {"showdown_yaku": "arashi", "set_choice": "auto"})
    assert out.legal_at("sets") == []       # no decision is asked
    assert out.chips == [-1, 1]


def test_option_set_choice_auto_prefers_high_cards_for_the_high_card_tie_break():
    # X can leave 5 5 5, 3 5 7, 2 5 8, 3 4 8 or 2 3 10 (all worth 5): auto keeps the 10
    out = play({0: Y, 1: X}, {"set_choice": "auto"})
    shown = [e["cards"] for e in out.events("reveal") if e["to"] == "all"]
    assert sorted(shown[0]) == ["10-1", "2-1", "3-1"]


# -- option showdown_yaku ---------------------------------------------------------------------------

def test_without_yaku_three_of_a_kind_counts_by_its_digit():
    out = play({1: AR2, 2: P8, 0: [3, 3, 4, 4, 5, 8, 8, 8, 9]})   # 2 2 2 = 6 against 8
    assert out.chips == [-1, -1, 2]


def test_option_showdown_yaku_arashi_beats_every_plain_hand():
    out = play({1: AR2, 2: P8, 0: [3, 3, 4, 4, 5, 8, 8, 8, 9]}, {"showdown_yaku": "arashi"})
    assert out.chips == [-1, 2, -1]
    assert [e["yaku"] for e in out.events("yaku")] == [["arashi"]]


def test_option_showdown_yaku_arashi_higher_card_wins_between_two():
    # 4 4 4 (total 2) against 3 3 3 (total 9)
    hands = {1: AR4, 2: AR3, 0: [1, 2, 2, 5, 6, 7, 7, 7, 9]}
    assert play(hands).chips == [-1, -1, 2]                                   # plain: 9 beats 2
    assert play(hands, {"showdown_yaku": "arashi"}).chips == [-1, 2, -1]       # 4s beat 3s
    assert play(hands, {"showdown_yaku": "arashi_digit"}).chips == [-1, -1, 2]  # 9 closer to 9


# -- option tie_break ----------------------------------------------------------------------------------

TIE = {1: T1, 2: T2, 0: [1, 1, 3, 4, 6, 6, 8, 8, 9]}    # seats 1 and 2 both leave 3; seat 0 is out


def test_option_tie_break_split_shares_the_pot_and_the_odd_chip_goes_to_the_earliest():
    out = play(TIE)
    assert records(out, "tie")
    assert out.chips == [-1, 1, 0]        # pot 3: seat 1 gets 2, seat 2 gets 1
    assert next_dealer(out) == [1]


def test_option_tie_break_split_even_pot():
    out = play(TIE, {"ante": 2})
    assert out.chips == [-2, 1, 1]


def test_option_tie_break_order_gives_the_pot_to_the_earliest_in_turn_order():
    out = play(TIE, {"tie_break": "order"})
    assert out.chips == [-1, 2, -1]
    assert next_dealer(out) == [1]


def test_option_tie_break_high_card():
    # seat 1 leaves 3 5 5, seat 2 leaves 6 7 10: the 10 wins
    out = play(TIE, {"tie_break": "high_card"})
    assert out.chips == [-1, -1, 2]
    assert next_dealer(out) == [2]


def test_option_tie_break_redeal_carries_the_pot():
    out = play(TIE, {"tie_break": "redeal"})
    assert out.chips == [-1, -1, -1]      # nobody is paid: the 3 chips stay in the pot
    assert next_dealer(out) == [1]


def test_pot_carried_by_a_tie_is_won_in_the_next_round():
    # round 1 (dealer 0): seat 1 holds X and leaves a plain 5, tying seat 2's W; the pot carries
    # and seat 1 deals round 2, where the same cards reach seat 2 (X), who keeps 5 5 5 (Arashi)
    state = {}

    def checks(ctx, choice, player, actions):
        state["at"] = (ctx.round_no, player)

    def pick(action):
        if state["at"] == (0, 1):
            return some_five(action)      # a plain 5
        if state["at"] == (1, 2):
            return no_five(action)        # 5 5 5
        return True
    hands = {1: X, 2: W, 0: [1, 1, 3, 4, 4, 6, 6, 7, 9]}
    g = game(V, {"tie_break": "redeal", "redeal_players": "all", "showdown_yaku": "arashi"})
    out = run(g, 3, stack(hands), by_choice={"sets": [pick] * 10}, rounds=2, checks=checks)
    assert len(records(out, "tie")) == 1
    assert out.result.round_deltas == [[-1, -1, -1], [-1, -1, 5]]
    assert out.chips == [-2, -2, 4]


def test_tie_redeal_is_a_replay_among_the_tied_players_only():
    # RULES §3.7 "tied players re-deal, pot carries": seats 1 and 2 tie at 5 in round 1; round 2
    # (dealt by seat 1) is played by seats 2 and 1 alone, without a new ante, for the 3 chips
    state = {}

    def checks(ctx, choice, player, actions):
        state["at"] = (ctx.round_no, player)

    def pick(action):
        return some_five(action) if state["at"] == (0, 1) else True
    hands = {1: X, 2: W, 0: [1, 1, 3, 4, 4, 6, 6, 7, 9]}
    g = game(V, {"tie_break": "redeal"})
    out = run(g, 3, stack(hands), by_choice={"sets": [pick] * 10}, rounds=2, checks=checks)
    assert out.result.round_deltas[0] == [-1, -1, -1]
    evs = out.result.events
    second = evs[[i for i, e in enumerate(evs) if e["t"] == "round"][1]:]
    assert not [e for e in second if e["t"] == "move" and e.get("to") == "hand[0]"]
    assert not [e for e in second if e["t"] == "pay" and e.get("from") == 0]
    assert out.result.round_deltas[1][0] == 0 and sorted(out.result.round_deltas[1][1:]) == [0, 3]


# -- option no_qualifier -----------------------------------------------------------------------------

NOBODY = {0: ONE, 1: NONE}


def test_option_no_qualifier_carry_keeps_the_pot():
    out = play(NOBODY, rounds=2)
    assert len(records(out, "no-qualifier")) == 2
    assert out.chips == [-2, -2]           # 4 chips wait in the pot
    assert next_dealer(out) == [0, 0]      # the dealer deals again (and is told why)


def test_option_no_qualifier_refund_returns_the_antes():
    out = play(NOBODY, {"no_qualifier": "refund"}, rounds=2)
    assert out.chips == [0, 0]


def test_option_no_qualifier_dealer_takes_the_pot():
    out = play(NOBODY, {"no_qualifier": "dealer"}, rounds=2)
    assert out.chips == [2, -2]


# -- option deal_pattern, rounds -----------------------------------------------------------------------

def test_option_deal_pattern_remainder_takes_the_field_from_the_bottom():
    top = stack({0: Z, 1: A})
    g = game(V, {"deal_pattern": "remainder"})
    out = run(g, 2, top)
    field = [c for e in out.events("move") if e["to"] == "field" for c in e["cards"]]
    assert not set(field) & set(top)       # not the stacked 19th-21st cards but the bottom three
    out = run(game(V), 2, top)
    field = [c for e in out.events("move") if e["to"] == "field" for c in e["cards"]]
    assert field == top[18:21]


def test_option_deal_pattern_is_the_same_with_four_players():
    a = run(game(V), 4, [], seed=3)
    b = run(game(V, {"deal_pattern": "remainder"}), 4, [], seed=3)
    fa = [e["cards"] for e in a.events("move") if e["to"] == "field"]
    fb = [c for e in b.events("move") if e["to"] == "field" for c in e["cards"]]
    assert sorted(fa[0]) == sorted(fb)


@pytest.mark.parametrize("rounds", [1, 4])
def test_option_rounds_sets_the_game_length(rounds):
    out = run(game(V, {"rounds": rounds}), 3, [], rounds=None)
    assert len(out.result.round_deltas) == rounds


def test_chips_are_conserved_with_the_pot():
    for opts in ({}, {"tie_break": "split", "ante": 3}, {"no_qualifier": "refund"}):
        out = run(game(V, opts), 4, [], rounds=12, seed=11)
        assert sum(out.chips) <= 0 and sum(out.chips) % opts.get("ante", 1) == 0


def test_worked_example_of_rules_3_4():
    # r = 3 (field 10 + 9 + 4 = 23); hand 1 2 3 3 3 4 5 5 9: the sets {1,3,9} and {3,5,5} (13
    # each) leave {2,3,4} = 9 for the showdown; seat 0 lays down no set and is out
    example = [1, 2, 3, 3, 3, 4, 5, 5, 9]
    out = play({0: [2, 2, 2, 8, 8, 8, 6, 6, 6], 1: example}, field=[10, 9, 4])
    fams = [legal for cid, p, legal in out.script.seen if cid == "sets" and p == 1]
    values = {tuple(sorted(int(c.split("-")[0]) for c in s)) for legal in fams for a in legal for s in a["fam"]}
    assert values == {(1, 3, 9), (3, 5, 5)}
    shown = out.events("reveal")[0]["cards"]   # the only qualifier's showdown hand
    assert sorted(int(c.split("-")[0]) for c in shown) == [2, 3, 4]
    assert out.result.state.vars["score"][1] // 1000000 == 9
    assert out.chips == [-1, 1]

"""Kingo, banking form: one stacked-deck test per rule of RULES.md §2.4 and per option.

Three seats unless said otherwise: dealer 0, bettors 1 and 2 (bettor 1 plays first). Chips are
listed [dealer, bettor 1, bettor 2]. A hand is given as [kept card, draws...]: the helper deals
the kept card with two filler cards (discarded), stacks the draw pile with the draws in turn
order, and has every player draw until holding the cards listed, then stop.
"""
import pytest

from rulekit.engine.agents import FirstLegalAgent
from rulekit.engine.runner import play, run_chunk
from rulekit.engine.testing import DrawTo, Outcome, game

KINGO = "hanafuda/kingo-banking.yaml"


Table = DrawTo  # draw until each seat holds the cards its hand lists


def kingo(bettors, dealer, options=None, deck=None, by_choice=None, seat=0, rounds=1, dealt=None,
          checks=None):
    """Play with each bettor (turn order) and the dealer keeping hand[0] and drawing hand[1:]."""
    g = game(KINGO, options, deck)
    n = len(bettors) + 1
    hands = list(bettors) + [dealer]  # deal order: from the dealer's right round to the dealer
    order = [(seat + 1 + i) % n for i in range(n)]
    used = {c for h in hands for c in h} | {c for three in (dealt or {}).values() for c in three}
    filler = iter(c for c in g.card_ids if c not in used and not c.startswith("10"))
    three = []
    for s, h in zip(order, hands):
        three.append((dealt or {}).get(s) or [h[0], next(filler), next(filler)])
    deal_top = [t[k] for k in range(3) for t in three]
    stock_top = [c for h in hands for c in h[1:]]
    size = {s: len(h) for s, h in zip(order, hands)}
    choices = {"keep": [{"kept": h[0]} for h in hands]}
    choices.update(by_choice or {})
    script = Table(size, choices)
    res = play(g, n, 1, [script] * n, rounds=rounds, logging=True, dealer=seat,
               stack={"deck": deal_top, "stock": stock_top}, checks=checks)
    return Outcome(res, script, g)


def decisions(o, choice, seat=None):
    return [legal for cid, p, legal in o.script.seen if cid == choice and (seat is None or p == seat)]


def forced(o, choice, seat):
    return [e["action"] for e in o.events("choose") if e["choice"] == choice and e["player"] == seat
            and e.get("forced")]


def pays(o, why=None):
    return [(e["from"], e["to"], e["amount"]) for e in o.events("pay") if why is None or e.get("why") == why]


def yaku_of(o, seat):
    return [y for e in o.events("yaku") if e["player"] == seat for y in e["yaku"]]


PLAIN15 = ["10-1", "5-4"]   # the dealer's plain 15
STOP12 = ["10-2", "2-4"]    # a bettor's plain 12


# -- deal -------------------------------------------------------------------------------------

def test_three_cards_each_keep_one_and_reshuffle_the_discards():
    o = kingo([STOP12, ["10-3", "3-4"]], PLAIN15)
    deal = o.events("deal")[0]
    assert deal["count"] == 3 and deal["players"] == [1, 2, 0]
    assert [len(legal) for legal in o.legal_at("keep")] == [3, 3, 3]
    assert [e["player"] for e in o.events("choose") if e["choice"] == "keep"] == [1, 2, 0]
    stock = [e for e in o.events("shuffle") if e["zone"] == "stock"][0]
    assert len(stock["order"]) == 40 - 3  # the six discards are back in the draw pile


def test_kept_card_hidden_draws_face_up():
    seen = {}

    def check(ctx, choice, player, actions):
        if choice.id == "draw" and player == 2:
            seen["hand1"] = ctx.game.observation(ctx, 2)["zones"]["hand"][1]
    kingo([STOP12, ["10-3", "3-4"]], PLAIN15, checks=check)
    assert seen["hand1"] == ["?", "2-4"]


def test_three_tens_may_ask_for_a_redeal():
    tens = {1: ["10-1", "10-2", "10-3"]}
    o = kingo([["10-1", "5-1"]], ["9-1", "6-1"], dealt=tens,
              by_choice={"ask_redeal": [{"redeal": True}, {"redeal": False}]})
    assert o.result.records["three_tens"] == 1 and o.result.records["redeal"] == 1
    assert len(o.legal_at("ask_redeal")) == 2  # the same stacked deal comes again, then is kept
    o = kingo([["10-1", "5-1"]], ["9-1", "6-1"], {"three_tens_redeal": False}, dealt=tens)
    assert o.legal_at("ask_redeal") == [] and "redeal" not in o.result.records


def test_turn_order_bettors_from_the_dealers_right_then_dealer():
    o = kingo([STOP12, ["10-3", "3-4"]], PLAIN15)
    assert [p for cid, p, _ in o.script.seen if cid in ("draw", "dealer_draw")] == [1, 2, 0]


# -- stopping (tsun) and busting --------------------------------------------------------------

def test_no_stopping_below_12():
    o = kingo([["5-1", "6-1", "3-1"]], PLAIN15)
    assert forced(o, "draw", 1) == [{"hit": True}, {"hit": True}]  # at 5 and at 11
    assert decisions(o, "draw", 1) == [[{"hit": True}, {"hit": False}]]  # free at 14


def test_option_tsun_min():
    o = kingo([["5-1", "6-1"]], PLAIN15, {"tsun_min": 11})
    assert decisions(o, "draw", 1) == [[{"hit": True}, {"hit": False}]]  # may stop at 11
    o = kingo([["10-2", "2-4", "1-1"]], PLAIN15, {"tsun_min": 13})
    assert forced(o, "draw", 1) == [{"hit": True}, {"hit": True}]  # 12 is not enough


def test_a_usable_teyaku_may_stop_below_12():
    o = kingo([["2-1", "2-2", "2-3"]], PLAIN15)  # Arashi, total 6
    assert decisions(o, "draw", 1)[-1] == [{"hit": True}, {"hit": False}]
    assert o.chips == [-2, 2]


def test_dealer_too_may_not_stop_below_12_and_option_dealer_tsun():
    o = kingo([STOP12], ["5-1", "6-1", "1-1"])
    assert forced(o, "dealer_draw", 0) == [{"hit": True}, {"hit": True}]
    o = kingo([STOP12], ["5-1", "6-1"], {"dealer_tsun": False})
    assert decisions(o, "dealer_draw", 0)[-1] == [{"hit": True}, {"hit": False}]
    assert o.chips == [-1, 1]  # 12 beats the dealer's 11


def test_bust_at_16_pays_one_stake():
    o = kingo([["9-1", "2-1", "5-1"], STOP12], PLAIN15)  # 16 in three cards
    assert pays(o, "bust") == [(1, 0, 1)]
    assert ["9-1", "2-1", "5-1"] in [e["cards"] for e in o.events("reveal")]  # shown at once
    assert o.chips == [2, -1, -1]


def test_dealer_bust_pays_every_bettor_still_in():
    o = kingo([["9-1", "2-1", "7-1"], STOP12], ["10-1", "2-3", "6-1"])
    assert o.result.records["dealer_bust"] == 1
    assert pays(o, "dealer bust") == [(0, 2, 1)]
    assert o.chips == [0, -1, 1]


def test_dealer_does_not_play_when_every_bettor_busts():
    o = kingo([["9-1", "2-1", "7-1"], ["9-2", "2-2", "8-1"]], ["10-1"])
    assert decisions(o, "dealer_draw") == [] and forced(o, "dealer_draw", 0) == []
    assert o.chips == [2, -1, -1]


# -- showdown ---------------------------------------------------------------------------------

def test_higher_wins_one_stake_lower_loses_one():
    o = kingo([["10-3", "4-1"], STOP12], ["10-1", "3-1"])
    assert o.chips == [0, 1, -1]


def test_equal_15_is_a_push():
    o = kingo([["10-2", "5-1"]], ["9-1", "6-1"])
    assert o.chips == [0, 0] and o.result.records["push"] == 1


def test_equal_below_15_dealer_wins():
    o = kingo([["10-2", "3-1"]], ["9-1", "4-1"])
    assert o.chips == [1, -1]


# -- teyaku -----------------------------------------------------------------------------------

def test_kingo_beats_all_and_pays_a_bettor_three():
    o = kingo([["5-1", "5-2", "5-3"]], ["9-1", "6-1"])
    assert yaku_of(o, 1) == ["kingo"] and o.chips == [-3, 3]


def test_dealers_kingo_beats_arashi():
    o = kingo([["7-1", "7-2", "7-3"]], ["5-1", "5-2", "5-3"])
    assert o.chips == [1, -1]


def test_arashi_never_busts_and_pays_two():
    o = kingo([["7-1", "7-2", "7-3"]], PLAIN15)  # 21
    assert "bust" not in o.result.records and o.chips == [-2, 2]


def test_arashi_only_for_bettors():
    o = kingo([STOP12], ["7-1", "7-2", "7-3"])
    assert o.result.records["dealer_bust"] == 1 and o.chips == [-1, 1]


def test_goshita_gomai_never_busts_for_a_bettor():
    o = kingo([["5-1", "5-2", "3-1", "2-1", "4-2"]], PLAIN15)  # 19 in five low cards
    assert yaku_of(o, 1) == ["goshita-gomai"] and o.chips == [-1, 1]


def test_goshita_gomai_only_for_bettors():
    o = kingo([STOP12], ["5-1", "5-2", "3-1", "2-1", "4-2"])
    assert o.result.records["dealer_bust"] == 1


def test_ittan_juroku_is_not_a_bust_and_pays_three():
    o = kingo([["8-1", "8-2"]], PLAIN15)
    assert yaku_of(o, 1) == ["ittan-juroku"] and o.chips == [-3, 3]


def test_ittan_juroku_for_the_dealer_too():
    o = kingo([["10-2", "5-1"]], ["9-1", "7-1"])
    assert o.chips == [1, -1]


def test_ittan_juroku_beats_shippin():
    o = kingo([["8-1", "8-2"]], ["4-1", "1-1"])
    assert o.chips == [-3, 3]


@pytest.mark.parametrize("dealer,name", [(["4-1", "1-1"], "shippin"), (["9-1", "1-1"], "kuppin")])
def test_shippin_and_kuppin_for_the_dealer_beat_shigoro(dealer, name):
    o = kingo([["4-2", "5-2", "6-2"]], dealer)
    assert decisions(o, "dealer_draw", 0) == [[{"hit": True}, {"hit": False}]]  # may stop below 12
    assert yaku_of(o, 0) == [name] and o.chips == [1, -1]


def test_shippin_not_for_bettors():
    o = kingo([["4-2", "1-2", "10-3"]], PLAIN15)
    assert forced(o, "draw", 1) == [{"hit": True}, {"hit": True}]  # 4 + 1 is a plain 5
    assert o.chips == [0, 0]  # ends on a plain 15


def test_shigoro_beats_plain_15_and_pays_two():
    o = kingo([["4-1", "5-1", "6-1"]], ["10-1", "5-2"])
    assert yaku_of(o, 1) == ["shigoro"] and o.chips == [-2, 2]


def test_goppin_for_the_dealer_beats_14_loses_to_15():
    assert kingo([["10-2", "4-1"]], ["5-1", "1-1"]).chips == [1, -1]
    assert kingo([["10-2", "5-2"]], ["5-1", "1-1"]).chips == [-1, 1]


# -- options ----------------------------------------------------------------------------------

@pytest.mark.parametrize("bettor,dealer", [
    (["4-1", "5-1", "6-1"], ["4-2", "5-2", "6-2"]),   # both Shigoro
    (["8-1", "8-2"], ["9-1", "7-1"]),                 # both Ittan-jūroku
])
def test_option_teyaku_ties(bettor, dealer):
    assert kingo([bettor], dealer).chips == [0, 0]
    assert kingo([bettor], dealer, {"teyaku_ties": "dealer"}).chips == [1, -1]


def test_option_dealer_teyaku_payout():
    assert kingo([["10-2", "4-1"]], ["4-2", "5-2", "6-2"]).chips == [1, -1]
    o = kingo([["10-2", "4-1"]], ["4-2", "5-2", "6-2"], {"dealer_teyaku_payout": "multiplied"})
    assert o.chips == [2, -2]


@pytest.mark.parametrize("opt,bettor,dealer,on,off", [
    ("use_kingo", ["5-1", "5-2", "5-3"], ["9-1", "6-1"], 3, 2),        # without it: Arashi
    ("use_arashi", ["7-1", "7-2", "7-3"], PLAIN15, 2, -1),             # without it: 21 busts
    ("use_goshita_gomai", ["5-1", "5-2", "3-1", "2-1", "4-2"], PLAIN15, 1, -1),
    ("use_ittan_juroku", ["8-1", "8-2"], PLAIN15, 3, -1),
    ("use_shippin", ["10-2", "5-2"], ["4-1", "1-1"], -1, 1),
    ("use_kuppin", ["10-2", "5-2"], ["9-1", "1-1"], -1, 1),
    ("use_shigoro", ["4-1", "5-1", "6-1"], ["10-1", "5-2"], 2, 0),
    ("use_goppin", ["10-2", "4-1"], ["5-1", "1-1"], -1, 1),
])
def test_option_which_teyaku_are_used(opt, bettor, dealer, on, off):
    # the dealer may stop on a low total here, so dropping a dealer's teyaku leaves a plain total
    base = {"dealer_tsun": False}
    assert kingo([bettor], dealer, base).chips[1] == on
    assert kingo([bettor], dealer, {**base, opt: False}).chips[1] == off


def test_option_stake():
    o = kingo([["9-1", "2-1", "7-1"], ["4-1", "5-1", "6-1"]], ["10-1", "5-2"], {"stake": 3})
    assert pays(o, "bust") == [(1, 0, 3)] and o.chips == [3 - 6, -3, 6]


def test_option_tera_zen():
    o = kingo([["10-2", "4-1"]], ["10-1", "3-1"], {"tera_zen": 1, "stake": 3})
    assert pays(o, "tera-zen") == [(1, "parlour", 1)] and o.chips == [-3, 2]
    assert kingo([["10-2", "4-1"]], ["10-1", "3-1"], {"tera_zen": 5}).chips == [-1, 0]


def test_option_rounds():
    for opts, want in (({}, 12), ({"rounds": 6}, 6)):
        res = play(game(KINGO, opts), 3, 1, [FirstLegalAgent()] * 3, logging=False)
        assert len(res.round_deltas) == want


def test_option_dealer_rotation():
    hands = ([STOP12, ["10-3", "3-4"]], PLAIN15)
    assert [e["dealer"] for e in kingo(*hands, rounds=3).events("round")] == [0, 0, 0]
    o = kingo(*hands, {"dealer_rotation": "every_round"}, rounds=3)
    assert [e["dealer"] for e in o.events("round")] == [0, 1, 2]


@pytest.mark.parametrize("deck,bettor,dealer", [("kabufuda", ["8-1", "8-2"], ["10-1", "5-1"]),
                                                ("western", ["8S", "8H"], ["10S", "5S"])])
def test_other_decks_count_values(deck, bettor, dealer):
    assert kingo([bettor], dealer, deck=deck).chips == [-3, 3]  # Ittan-jūroku by value


def test_policy_stand_at_12_plays():
    s = run_chunk(game(KINGO), 5, 3, 0, 50, policy="stand-at-12")
    assert s.rounds == 50

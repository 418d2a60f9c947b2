"""Otoroku: one stacked-deck test per rule of RULES.md §7 and per option of §7.8.

Three seats unless said otherwise: dealer 0, first bettor 1, last bettor 2 (= left of the
dealer). Chips are listed [dealer, first bettor, last bettor]. A hand is given as the list of
cards its holder ends with, in the order received: a bettor's first card is the one dealt face
down, the second the face-up card the dealer gives, the rest the cards asked for; the dealer's
first card is dealt, the second is the one the dealer must add, the rest are optional draws.
"""
import pytest

from rulekit.engine.agents import FirstLegalAgent
from rulekit.engine.runner import play
from rulekit.engine.testing import DrawTo, Outcome, game

OTO = "hanafuda/otoroku.yaml"


Table = DrawTo  # draw until each seat holds the cards its hand lists


def oto(bettors, dealer, options=None, deck=None, by_choice=None, seat=0, rounds=1, checks=None):
    """Play with each bettor (in turn order) and the dealer ending with the cards given."""
    g = game(OTO, options, deck)
    n = len(bettors) + 1
    order = [(seat + 1 + i) % n for i in range(n - 1)]
    top = [b[0] for b in bettors] + [dealer[0]] + [c for b in bettors for c in b[1:]] + list(dealer[1:])
    size = {s: len(b) for s, b in zip(order, bettors)}
    size[seat] = len(dealer)
    script = Table(size, by_choice)
    res = play(g, n, 1, [script] * n, rounds=rounds, logging=True, dealer=seat, stack={"deck": top},
               checks=checks)
    return Outcome(res, script, g)


def decisions(o, choice, seat=None):
    return [legal for cid, p, legal in o.script.seen if cid == choice and (seat is None or p == seat)]


def pays(o, why=None):
    return [(e["from"], e["to"], e["amount"]) for e in o.events("pay") if why is None or e.get("why") == why]


def yaku_of(o, seat):
    return [y for e in o.events("yaku") if e["player"] == seat for y in e["yaku"]]


def records(o):
    return o.result.records


LOW5 = ["1-2", "1-3", "2-1", "2-2", "3-1"]  # five cards of 5 and under, total 9


# -- seating, deal, turn order ---------------------------------------------------------------

def test_deal_one_card_each_from_first_bettor_to_dealer():
    o = oto([["2-1", "3-1"], ["2-2", "3-2"]], ["2-3", "3-3"])
    deal = o.events("deal")[0]
    assert deal["count"] == 1 and deal["players"] == [1, 2, 0]
    shows = [e for e in o.events("move") if e["to"] == "hand[1]"]
    assert shows[0]["cards"] == ["3-1"] and shows[0]["face"] == "up"


def test_first_card_face_down_second_card_face_up():
    seen = {}

    def check(ctx, choice, player, actions):
        if choice.id == "draw" and player == 2:
            seen["hand1"] = ctx.game.observation(ctx, 2)["zones"]["hand"][1]
    oto([["2-1", "3-1"], ["2-2", "3-2"]], ["2-3", "3-3"], checks=check)
    assert seen["hand1"] == ["?", "3-1"]


def test_turn_order_first_bettor_then_last_bettor_then_dealer():
    o = oto([["2-1", "3-1"], ["2-2", "3-2"]], ["2-3", "3-3"])
    order = [p for cid, p, _ in o.script.seen if cid in ("draw", "dealer_draw")]
    assert order == [1, 2, 0]


def test_first_bettor_is_right_of_dealer_last_bettor_left_of_dealer():
    # dealer at seat 2 of 4: first bettor 3, last bettor 1; the last bettor may stand on 16
    o = oto([["2-1", "3-1"], ["2-2", "3-2"], ["8-1", "8-2"]], ["10-1", "5-1"], seat=2)
    assert o.events("deal")[0]["players"] == [3, 0, 1, 2]
    assert o.chips[1] == 1 and o.chips[3] == -1 and o.chips[0] == -1


# -- bettors' turns and Buta -------------------------------------------------------------------

def test_bettor_may_stand_on_any_total():
    o = oto([["2-1", "3-1"], ["2-2", "3-2"]], ["2-3", "3-3"])
    assert decisions(o, "draw", 1) == [[{"hit": True}, {"hit": False}]]


def test_buta_at_16_for_a_normal_bettor_pays_one_share():
    o = oto([["9-1", "7-1"], ["5-1", "7-2"]], ["10-1", "3-1"])
    assert pays(o, "buta") == [(1, 0, 1)]
    assert records(o)["buta"] == 1
    revealed = [e["cards"] for e in o.events("reveal")]
    assert ["9-1", "7-1"] in revealed  # a Buta is shown to everyone
    assert o.chips == [2, -1, -1]


def test_buta_ends_the_turn_without_more_questions():
    o = oto([["9-1", "7-1"], ["5-1", "7-2"]], ["10-1", "3-1"])
    assert decisions(o, "draw", 1) == []


def test_last_bettor_may_stand_on_16_and_it_beats_15():
    o = oto([["2-1", "3-1"], ["8-1", "8-2"]], ["10-1", "5-1"])
    assert decisions(o, "draw", 2) == [[{"hit": True}, {"hit": False}]]  # not Buta at 16
    assert o.chips == [0, -1, 1]


def test_last_bettor_buta_at_17():
    o = oto([["2-1", "3-1"], ["8-1", "9-1"]], ["10-1", "5-1"])
    assert pays(o, "buta") == [(2, 0, 1)]


def test_heads_up_the_only_bettor_is_the_last_bettor():
    o = oto([["8-1", "8-2"]], ["10-1", "5-1"])  # two players: 16 stands and beats 15
    assert o.chips == [-1, 1]
    o = oto([["6-1", "10-2"]], ["1-1", "4-1"])  # and Otoroku is theirs to use
    assert o.chips == [-1, 1]


def test_five_card_limit():
    o = oto([["1-2", "1-3", "2-1", "2-2", "6-1"]], ["10-1", "5-1"])
    assert len(decisions(o, "draw", 1)) == 3  # no question once five cards are held
    showdown = [e["cards"] for e in o.events("reveal")]
    assert ["1-2", "1-3", "2-1", "2-2", "6-1"] in showdown


# -- teyaku -------------------------------------------------------------------------------------

def test_makezu_beats_dealers_15():
    o = oto([["6-1", "9-1"]], ["7-1", "8-1"])
    assert o.chips == [-1, 1]


def test_makezu_beats_birds():
    o = oto([["6-1", "9-1"]], ["1-1", "4-1"])
    assert o.chips == [-1, 1]


def test_makezu_only_for_bettors():
    o = oto([["7-1", "8-1"]], ["6-1", "9-1"])  # the dealer's 6 + 9 is a plain 15
    assert "makezu" not in yaku_of(o, 0)
    assert o.chips == [0, 0] and records(o)["push"] == 1


@pytest.mark.parametrize("pair", [["6-1", "10-1"], ["7-1", "9-1"]])
def test_otoroku_last_bettor_beats_birds(pair):
    o = oto([["2-1", "3-1"], pair], ["1-1", "4-1"])
    assert yaku_of(o, 2) == [f"otoroku-{pair[0][0]}-{pair[1].split('-')[0]}"]
    assert o.chips == [0, -1, 1]


@pytest.mark.parametrize("pair", [["6-1", "10-1"], ["7-1", "9-1"]])
def test_otoroku_for_another_bettor_is_buta(pair):
    # a teyaku its holder may not use gives no protection from Buta
    o = oto([pair, ["2-1", "3-1"]], ["10-2", "5-1"])
    assert pays(o, "buta") == [(1, 0, 1)]


def test_birds_only_for_the_dealer():
    o = oto([["1-1", "4-1"]], ["2-1", "4-2"])  # the bettor's Crane + Cuckoo is a plain 5
    assert "birds" not in yaku_of(o, 1)
    assert o.chips == [1, -1]


def test_birds_beats_15_and_the_last_bettors_16():
    o = oto([["7-1", "8-1"], ["8-2", "8-3"]], ["1-1", "4-1"])
    assert "birds" in yaku_of(o, 0)
    assert o.chips == [2, -1, -1]


def test_birds_beats_goshita_gomai():
    o = oto([LOW5], ["1-1", "4-1"])
    assert o.chips == [1, -1]


def test_goshita_gomai_is_immune_to_buta_and_beats_15():
    o = oto([["5-1", "5-2", "3-1", "2-1", "4-2"]], ["7-1", "8-1"])  # 19 in five low cards
    assert records(o).get("buta", 0) == 0
    assert yaku_of(o, 1) == ["goshita-gomai"]
    assert o.chips == [-1, 1]


def test_goshita_gomai_for_the_dealer_too():
    o = oto([["7-1", "8-1"]], ["1-2", "1-3", "2-1", "2-2", "3-1"])
    assert o.chips == [1, -1]


def test_four_low_cards_reaching_16_are_buta():
    o = oto([["5-1", "5-2", "5-3", "1-1"], ["2-2", "3-2"]], ["10-2", "3-1"])
    assert pays(o, "buta") == [(1, 0, 1)]


def test_fourteen_and_a_half_beats_14():
    o = oto([["1-2", "9-1"]], ["6-1", "8-1"])
    assert o.chips == [-1, 1]


def test_fourteen_and_a_half_loses_to_15():
    o = oto([["1-2", "9-1"]], ["7-1", "8-1"])
    assert o.chips == [1, -1]


@pytest.mark.parametrize("pair", [["1-2", "5-1"], ["1-2", "10-1"]])
def test_fourteen_counts_as_exactly_14(pair):
    assert oto([pair], ["6-1", "7-1"]).chips == [-1, 1]  # beats 13
    assert oto([pair], ["6-1", "8-1"]).chips == [1, -1]  # equal 14: the dealer wins


# -- showdown -----------------------------------------------------------------------------------

def test_higher_bettor_is_paid_one_share_lower_pays_one():
    o = oto([["7-1", "6-1"], ["2-1", "3-1"]], ["5-1", "7-2"])  # 13 and 5 against 12
    assert o.chips == [0, 1, -1]


def test_equal_15_is_a_push():
    o = oto([["7-1", "8-1"]], ["10-1", "5-1"])
    assert o.chips == [0, 0] and records(o)["push"] == 1


def test_equal_14_dealer_wins():
    o = oto([["6-1", "8-1"]], ["10-1", "4-1"])
    assert o.chips == [1, -1]


def test_dealer_buta_pays_every_bettor_still_in():
    o = oto([["9-1", "7-1"], ["5-1", "7-2"]], ["10-1", "6-1"])
    assert records(o)["dealer_buta"] == 1
    assert pays(o, "dealer buta") == [(0, 2, 1)]  # not to the bettor already Buta
    assert o.chips == [0, -1, 1]


def test_dealer_skips_the_turn_when_every_bettor_is_buta():
    o = oto([["9-1", "7-1"], ["9-2", "8-1"]], ["2-1"])
    assert decisions(o, "dealer_draw") == []
    assert o.chips == [2, -1, -1]


def test_dealer_may_draw_many_cards():
    o = oto([["7-1", "8-1"]], ["1-2", "1-3", "2-1", "2-2", "3-1", "3-2"])
    assert len(decisions(o, "dealer_draw")) == 5  # four draws then a stand, past five cards


# -- dealer's choice ----------------------------------------------------------------------------

def test_dealers_choice_lets_unchosen_bettors_off():
    o = oto([["7-1", "8-1"], ["5-1", "7-2"]], ["10-1", "3-1"],
            by_choice={"contest": [{"fight": False}, {"fight": True}]})
    assert o.chips == [1, 0, -1]
    assert records(o)["let_off"] == 1
    revealed = [c for e in o.events("reveal") for c in e["cards"]]
    assert "7-1" not in revealed  # the let-off hand is thrown in unseen


def test_dealers_choice_must_contest_at_least_one():
    o = oto([["7-1", "8-1"], ["5-1", "7-2"]], ["10-1", "3-1"],
            by_choice={"contest": [{"fight": False}]})
    assert o.legal_at("contest") == [[{"fight": True}, {"fight": False}]]
    last = [e for e in o.events("choose") if e["choice"] == "contest"][-1]
    assert last["forced"] and last["action"] == {"fight": True}  # the last bettor must be played
    assert o.chips == [1, 0, -1]


@pytest.mark.parametrize("dealer", [["2-1", "3-1", "5-1"], ["4-2", "5-1"]])
def test_no_dealers_choice_with_three_cards_or_under_10(dealer):
    o = oto([["7-1", "8-1"], ["5-2", "7-2"]], dealer)
    assert o.legal_at("contest") == []


def test_dealers_choice_with_the_14_teyaku():
    o = oto([["7-1", "8-1"], ["5-2", "7-2"]], ["1-2", "5-1"])
    assert len(o.legal_at("contest")) == 2


# -- options ------------------------------------------------------------------------------------

def test_option_teyaku_payout():
    assert oto([["6-1", "9-1"]], ["7-1", "8-1"]).chips == [-1, 1]
    assert oto([["6-1", "9-1"]], ["7-1", "8-1"], {"teyaku_payout": "multiplied"}).chips == [-3, 3]
    assert oto([["7-1", "8-1"]], ["1-1", "4-1"], {"teyaku_payout": "multiplied"}).chips == [2, -2]


def test_option_dealer_bust():
    bettors, dealer = [["5-2", "5-3"]], ["5-1", "6-1", "10-1"]  # the dealer's 11 draws a 10
    o = oto(bettors, dealer)
    assert records(o)["dealer_buta"] == 1 and o.chips == [-1, 1]
    o = oto(bettors, dealer, {"dealer_bust": "capped"})
    assert records(o)["dealer_capped"] == 1 and o.chips == [1, -1]  # stands on 11 against 10


def test_option_dealer_max_cards():
    dealer = ["1-2", "1-3", "2-1", "2-2", "3-1", "3-2"]
    o = oto([["7-1", "8-1"]], dealer)
    assert o.chips == [-1, 1]  # six cards, 12, lose to 15
    o = oto([["7-1", "8-1"]], dealer, {"dealer_max_cards": "five"})
    assert len(decisions(o, "dealer_draw")) == 3  # stops at five cards: Goshita-gomai
    assert o.chips == [1, -1]


@pytest.mark.parametrize("opts,last", [({}, -1), ({"goshita_vs_16": "below"}, 1),
                                       ({"goshita_vs_16": "tie"}, -1),
                                       ({"goshita_vs_16": "tie", "teyaku_ties": "push"}, 0)])
def test_option_goshita_vs_16(opts, last):
    o = oto([["2-3", "3-3"], ["8-1", "8-2"]], LOW5, opts)
    assert o.chips[2] == last


@pytest.mark.parametrize("bettor,dealer", [
    (["1-2", "9-1"], ["1-3", "9-2"]),                  # both 14.5
    (["1-2", "5-1"], ["1-3", "10-1"]),                 # both 14
    (LOW5, ["1-4", "2-3", "2-4", "3-2", "3-3"]),       # both Goshita-gomai
])
def test_option_teyaku_ties(bettor, dealer):
    assert oto([bettor], dealer).chips == [1, -1]
    assert oto([bettor], dealer, {"teyaku_ties": "push"}).chips == [0, 0]


def test_teyaku_ties_push_leaves_plain_equal_14_to_the_dealer():
    o = oto([["1-2", "5-1"]], ["6-1", "8-1"], {"teyaku_ties": "push"})  # 14 teyaku vs plain 14
    assert o.chips == [1, -1]


def test_option_birds_substitute():
    bettor = [["7-1", "8-1"]]
    assert oto(bettor, ["1-1", "4-1"], deck="kabufuda").chips == [-1, 1]  # no Birds on kabufuda
    o = oto(bettor, ["1-1", "4-1"], {"birds_substitute": "aka_pin_kin_shi"}, deck="kabufuda")
    assert "birds" in yaku_of(o, 0) and o.chips == [1, -1]
    o = oto(bettor, ["1-1", "4-2"], {"birds_substitute": "aka_pin_kin_shi"}, deck="kabufuda")
    assert o.chips == [-1, 1]  # a plain 4 is not the Kin-shi
    assert oto(bettor, ["1-1", "4-1"], {"birds_substitute": "disabled"}).chips == [-1, 1]


def test_western_deck_values_and_no_birds():
    assert oto([["6S", "9H"]], ["7S", "8S"], deck="western").chips == [-1, 1]  # Makezu by value
    for sub in ("hanafuda_only", "aka_pin_kin_shi"):
        o = oto([["7H", "8H"]], ["AS", "4S"], {"birds_substitute": sub}, deck="western")
        assert o.chips == [-1, 1]


def test_option_share():
    o = oto([["9-1", "7-1"], ["5-1", "7-2"]], ["10-1", "3-1"], {"share": 3})
    assert o.chips == [6, -3, -3]


@pytest.mark.parametrize("timing", ["before_deal", "after_deal"])
def test_option_share_timing(timing):
    o = oto([["9-1", "8-1"]], ["10-1"], {"share": 5, "share_timing": timing},
            by_choice={"set_share": [{"amount": 2}]})
    assert o.legal_at("set_share") == [[{"amount": a} for a in range(1, 6)]]
    assert pays(o, "buta") == [(1, 0, 2)]
    kinds = [e["t"] for e in o.result.events if e["t"] in ("deal", "choose")]
    assert kinds.index("deal") == (1 if timing == "before_deal" else 0)


def round_dealers(o):
    return [e["dealer"] for e in o.events("round")]


def test_option_dealer_rotation():
    hands = ([["2-1", "3-1"], ["2-2", "3-2"]], ["2-3", "3-3"])
    assert round_dealers(oto(*hands, rounds=3)) == [0, 0, 0]  # fixed whatever the result
    assert round_dealers(oto(*hands, {"dealer_rotation": "rotate"}, rounds=3)) == [0, 1, 2]
    assert round_dealers(oto(*hands, {"dealer_rotation": "rotate", "rotate_every": 2}, rounds=3)) == [0, 0, 1]


def test_dealer_keeps_the_bank_after_losing_to_everyone():
    o = oto([["6-1", "9-1"], ["7-1", "9-2"]], ["10-1", "2-1"], rounds=2)
    assert o.result.round_deltas[0][0] == -2 and round_dealers(o) == [0, 0]


def test_option_rounds():
    for opts, want in (({}, 12), ({"rounds": 6}, 6), ({"rounds": 3}, 3)):
        g = game(OTO, opts)
        res = play(g, 3, 1, [FirstLegalAgent()] * 3, logging=False)
        assert len(res.round_deltas) == want


def test_option_stones_ends_when_one_player_has_stones():
    # heads-up the only bettor is also the last bettor: Buta at 17
    assert len(oto([["9-1", "8-1"]], ["2-1"], rounds=None).result.round_deltas) == 12
    o = oto([["9-1", "8-1"]], ["2-1"], {"stones": 2}, rounds=None)
    assert len(o.result.round_deltas) == 2 and o.chips == [2, -2]


def test_option_tera_zen():
    o = oto([["6-1", "9-1"]], ["7-1", "8-1"], {"tera_zen": 1, "share": 3})
    assert pays(o, "tera-zen") == [(1, "parlour", 1)]
    assert o.chips == [-3, 2]
    o = oto([["6-1", "9-1"]], ["7-1", "8-1"], {"tera_zen": 5})
    assert o.chips == [-1, 0]  # never more than the win
    assert oto([["6-1", "9-1"]], ["7-1", "8-1"]).chips == [-1, 1]


def test_policy_stand_at_12_plays():
    from rulekit.engine.runner import run_chunk
    s = run_chunk(game(OTO), 5, 3, 0, 50, policy="stand-at-12")
    assert s.rounds == 50


def test_option_dealer_choice_timing():
    # the dealer's first two cards are 10 + 3 = 13: with `two_cards` the choice is made then, and
    # it stands although the dealer then draws a third card (no choice after the draws: 3 cards)
    bettors, dealer = [["7-1", "8-1"], ["5-1", "7-2"]], ["10-1", "3-1", "1-1"]
    after = oto(bettors, dealer, by_choice={"dealer_draw": [{"hit": True}, {"hit": False}]})
    assert after.legal_at("contest") == []  # three cards at the end: no choice
    early = oto(bettors, dealer, {"dealer_choice_timing": "two_cards"},
                by_choice={"contest": [{"fight": False}, {"fight": True}],
                           "dealer_draw": [{"hit": True}, {"hit": False}]})
    assert early.legal_at("contest") == [[{"fight": True}, {"fight": False}]]
    assert records(early)["let_off"] == 1
    assert after.chips != early.chips


def test_dealers_choice_at_exactly_10():
    # two cards worth exactly 10 (7 + 3) already give the dealer the choice (RULES §7.5: >= 10)
    o = oto([["7-1", "8-1"], ["5-2", "7-2"]], ["7-3", "3-1"])
    assert len(o.legal_at("contest")) == 2


def test_at_most_seven_players():
    from rulekit.engine.runner import make_agents
    from rulekit.core.errors import RuleError
    g = game(OTO)
    play(g, 7, 1, make_agents(g, 7, 1), rounds=1, dealer=0)
    with pytest.raises(RuleError, match="2 to 7 players, found 8"):
        play(g, 8, 1, make_agents(g, 8, 1), rounds=1, dealer=0)


# -- rules that had no test failing when they were broken (issue 26) ----------------------------

def test_a_six_spoils_goshita_gomai():
    # five cards, one of them a June (6): a plain 12, which loses to the dealer's 13
    o = oto([["1-2", "1-3", "2-1", "2-2", "6-1"]], ["7-1", "6-2"])
    assert "goshita-gomai" not in yaku_of(o, 1)
    assert o.chips == [1, -1]


def test_a_dealers_fourteen_ties_a_bettors_plain_14_and_the_dealer_wins():
    # the dealer's January and May (the Fourteen teyaku) against the bettor's 6 + 8
    o = oto([["6-1", "8-1"]], ["1-2", "5-1"])
    assert "fourteen" in yaku_of(o, 0)
    assert o.chips == [1, -1] and records(o).get("push", 0) == 0


def test_birds_is_exactly_two_cards():
    # Crane and Cuckoo with a third card are a plain 7 for the dealer, beaten by the bettor's 10
    o = oto([["5-1", "5-2"]], ["1-1", "4-1", "2-1"])
    assert "birds" not in yaku_of(o, 0)
    assert o.chips == [-1, 1]


def test_a_bettor_holding_a_teyaku_may_still_draw():
    # 1 and 9 (Fourteen and a half) is offered another card, and takes it: 1 + 9 + 2 = 12
    o = oto([["1-2", "9-1", "2-1"]], ["6-1", "5-2"])
    asked = decisions(o, "draw", 1)
    assert asked and asked[0] == [{"hit": True}, {"hit": False}]
    assert o.chips == [-1, 1]  # 12 beats the dealer's 11


# -- the careful policy (the bots people meet) ---------------------------------------------------

class Asking(Table):
    """Plays the stacked hands, and records at each decision what `careful` would choose there."""

    def __init__(self, size, by_choice=None):
        super().__init__(size, by_choice)
        from rulekit.engine.agents import PolicyAgent
        self.careful, self.wants = PolicyAgent("careful"), []

    def act(self, d):
        want = self.careful.preferred(d)
        self.wants.append((d.choice.id, d.player, None if want is None else d.actions[want]))
        return super().act(d)


def careful_wants(bettors, dealer, choice):
    g = game(OTO)
    n = len(bettors) + 1
    top = [b[0] for b in bettors] + [dealer[0]] + [c for b in bettors for c in b[1:]] + list(dealer[1:])
    size = {1 + i: len(b) for i, b in enumerate(bettors)}
    size[0] = len(dealer)
    script = Asking(size, {"contest": [{"fight": True}] * n})
    play(g, n, 1, [script] * n, rounds=1, logging=False, dealer=0, stack={"deck": top})
    return [(p, a) for cid, p, a in script.wants if cid == choice]


def test_careful_last_bettor_draws_at_10_where_another_bettor_stands():
    # both bettors hold 4 and 6 (10): the first bettor busts at 16 and stands; the last bettor
    # busts only at 17, so a card of 6 or less still helps, and draws
    wants = careful_wants([["4-1", "6-1"], ["4-2", "6-2"]], ["2-1", "3-1", "2-2"], "draw")
    assert wants == [(1, (False,)), (2, (True,))]


def test_careful_dealer_plays_only_the_bettors_its_total_likely_beats():
    # the dealer holds 5 and 6 (11): the first bettor shows a 2 face up (about 7): played; the
    # last bettor shows a 10 face up (about 15): let off
    wants = careful_wants([["3-1", "2-1"], ["4-1", "10-1"]], ["5-1", "6-1"], "contest")
    assert [a for _, a in wants] == [(True,), (False,)]


def test_table_dealer_plays_a_bettor_a_careful_dealer_lets_off_when_a_hand_within_the_limit_cannot_beat_15():
    """The `table` policy's dealer reckons that a bettor still in holds a hidden card that keeps them
    within 15: on 15 the dealer plays them all. The careful dealer counts an average hidden card (5)
    and lets off a bettor showing 11 (6 and 5 face up), who can at best tie 15."""
    from rulekit.engine.agents import Decision, PolicyAgent
    picks: dict[str, list] = {"table": [], "careful": []}

    def checks(ctx, choice, player, actions):
        if choice.id == "contest":
            d = Decision(ctx.game if hasattr(ctx, "game") else game(OTO), ctx, choice, player, actions)
            for pol in picks:
                i = PolicyAgent(pol).preferred(d)
                picks[pol].append(d.legal[i]["fight"])
    oto([["1-1", "6-1", "5-2"], ["5-1", "7-2"]], ["10-1", "5-3"], checks=checks,
        by_choice={"contest": [{"fight": True}, {"fight": True}]})
    assert picks["table"][0] is True and picks["careful"][0] is False  # the bettor showing 11
    assert picks["table"][1] is True  # the last bettor showing 7 is played by both

"""Kingo, standard pot game: one stacked-deck test per rule of RULES.md §2.4 and per option.

Three seats unless said otherwise, seat 0 dealing: the deal goes to seats 1, 2, 0 and the
turns to seats 0, 1, 2. A hand is given as [dealt card, draws...]: the helper stacks the
dealt cards, then every draw in turn order, and has each player draw until holding the cards
listed, then stop. Chips are [seat 0, seat 1, seat 2]; the wager is 1 chip by default.
"""
import pytest

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import Outcome, Script, game

KINGO = "hanafuda/kingo.yaml"


class Table(Script):
    """Answers draw decisions per seat: draw until holding `size[seat]` cards, then stop."""

    def __init__(self, size, by_choice=None):
        super().__init__([], by_choice)
        self.size = dict(size)

    def act(self, d):
        if d.choice.id == "draw":
            self.seen.append((d.choice.id, d.player, d.legal))
            want = len(d.ctx.zones["hand"][d.player]) < self.size[d.player]
            return next(i for i, a in enumerate(d.legal) if a["hit"] == want)
        return super().act(d)


class FirstDealOnly(dict):
    """A stack used for the first shuffle only: a redeal is shuffled normally."""

    def __init__(self, top):
        super().__init__({"deck": list(top)})
        self.used = False

    def __getitem__(self, key):
        if self.used:
            return []
        self.used = True
        return super().__getitem__(key)


def pot(hands, options=None, dealer=0, deck=None, by_choice=None, rounds=1, checks=None, once=False):
    """Play with hands[s] = [dealt card, draws...] for seat s."""
    g = game(KINGO, options, deck)
    n = len(hands)
    deal_order = [(dealer + 1 + i) % n for i in range(n)]
    turn_order = [(dealer + i) % n for i in range(n)]
    top = [hands[s][0] for s in deal_order] + [c for s in turn_order for c in hands[s][1:]]
    script = Table({s: len(h) for s, h in enumerate(hands)}, by_choice)
    stack = FirstDealOnly(top) if once else {"deck": top}
    res = play(g, n, 1, [script] * n, rounds=rounds, logging=True, dealer=dealer, stack=stack, checks=checks)
    return Outcome(res, script, g)


def pays(o, why=None):
    return [(e["from"], e["to"], e["amount"]) for e in o.events("pay") if why is None or e.get("why") == why]


def draws(o, seat=None):
    return [legal for cid, p, legal in o.script.seen if cid == "draw" and (seat is None or p == seat)]


def hand_of(o, seat):
    return [o.game.card_ids[c] for c in o.result.state.zones["hand"][seat]]


def dealers(o):
    return [e["dealer"] for e in o.events("round")]


P13 = ["10-1", "3-1"]     # plain 13
P14 = ["10-4", "4-4"]     # plain 14
P15 = ["7-1", "8-1"]      # plain 15
BUST = ["9-2", "8-2"]     # 17 on the compulsory draw
SHIGORO = ["4-1", "5-2", "6-1"]
KINGO_HAND = ["5-1", "5-3", "5-4"]


# -- deal and wagers --------------------------------------------------------------------------

def test_one_card_each_from_the_dealers_right_round_to_the_dealer():
    o = pot([P13, P14, P15])
    deal = o.events("deal")[0]
    assert deal["count"] == 1 and deal["players"] == [1, 2, 0]
    assert [hand_of(o, s)[0] for s in range(3)] == ["10-1", "10-4", "7-1"]
    o = pot([P13, P14, P15], dealer=2)
    assert o.events("deal")[0]["players"] == [0, 1, 2]


def test_everyone_stakes_the_wager_into_the_pot():
    o = pot([P13, P14, P15])
    assert pays(o, "wager") == [(1, "pot", 1), (2, "pot", 1), (0, "pot", 1)]
    o = pot([P13, P14, P15], {"wager": 4})
    assert pays(o, "wager") == [(1, "pot", 4), (2, "pot", 4), (0, "pot", 4)]
    assert o.chips == [-4, -4, 8]


# -- the turns --------------------------------------------------------------------------------

def test_dealer_plays_first_then_anticlockwise():
    o = pot([P13, P14, P15])
    assert [p for _cid, p, _l in o.script.seen] == [0, 1, 2]
    o = pot([P13, P14, P15], dealer=1)
    assert [p for _cid, p, _l in o.script.seen] == [1, 2, 0]


def test_a_turn_starts_with_a_compulsory_draw_and_option_first_draw():
    o = pot([P13, P14, P15])
    assert len(draws(o, 0)) == 1  # the second card came without asking; then only "stop?"
    assert hand_of(o, 0) == P13
    o = pot([["10-1"], P14, P15], {"first_draw": False})
    assert draws(o, 0) == [[{"hit": False}, {"hit": True}]]  # may stop on the dealt card
    assert hand_of(o, 0) == ["10-1"] and o.chips == [-1, -1, 2]


def test_draw_one_by_one_and_stop_whenever():
    low = ["1-1", "1-2", "2-1", "2-2"]  # stops at 6, having declined nothing before
    o = pot([low, P14, P15])
    assert draws(o, 0) == [[{"hit": False}, {"hit": True}]] * 3
    assert hand_of(o, 0) == low


def test_16_or_more_is_bareta_loses_at_once_and_is_shown():
    o = pot([P13, BUST, P15])
    assert draws(o, 1) == []  # bust on the compulsory draw: no more turn
    assert o.result.records["bareta"] == 1
    assert BUST in [e["cards"] for e in o.events("reveal") if e["to"] == "all"]
    # a bust hand loses even though its cards are high
    assert o.chips[1] < 0 and o.chips[2] > 0


def test_bareta_doubles_the_players_wager_in_the_pot():
    o = pot([P13, BUST, P15])
    assert pays(o, "bareta") == [(1, "pot", 1)]
    assert pays(o, "pot") == [("pot", 2, 4)]
    assert o.chips == [-1, -2, 3]


@pytest.mark.parametrize("wagers,chips", [(1, [-1, -1, 2]), (2, [-1, -2, 3]), (3, [-1, -3, 4])])
def test_option_bareta_wagers(wagers, chips):
    o = pot([P13, BUST, P15], {"bareta_wagers": wagers})
    assert o.chips == chips


def test_hands_are_hidden_until_shown():
    seen = {}

    def check(ctx, choice, player, actions):
        if choice.id == "draw" and player == 2:
            seen["others"] = ctx.game.observation(ctx, 2)["zones"]["hand"]
    pot([P13, P14, P15], checks=check)
    assert seen["others"][0] == ["?", "?"] and seen["others"][1] == ["?", "?"]
    assert seen["others"][2] == ["7-1", "8-1"]


# -- all bareta -------------------------------------------------------------------------------

def test_all_bareta_voids_the_round_wagers_back_same_dealer_redeals():
    o = pot([["10-1", "9-1"], ["10-2", "8-1"], ["10-3", "7-1"]], once=True)
    assert o.result.records["void"] == 1 and o.result.records["redeal"] == 1
    # every chip staked, the bareta doubling included, goes back
    assert pays(o, "void") == [("pot", 1, 2), ("pot", 2, 2), ("pot", 0, 2)]
    first = o.result.events[:next(i for i, e in enumerate(o.result.events) if e["t"] == "redeal")]
    net = [0, 0, 0]
    for e in first:
        if e["t"] == "pay":
            if e["from"] != "pot":
                net[e["from"]] -= e["amount"]
            if e["to"] != "pot":
                net[e["to"]] += e["amount"]
    assert net == [0, 0, 0]
    assert dealers(o)[:2] == [0, 0]  # the same dealer deals the new round


# -- showdown ---------------------------------------------------------------------------------

def test_highest_total_up_to_15_takes_the_pot_and_deals_next():
    o = pot([P13, P14, P15], rounds=2)
    assert pays(o, "pot")[0] == ("pot", 2, 3)
    assert o.events("next_dealer")[0]["seat"] == 2 and dealers(o) == [0, 2]
    o = pot([P15, P14, P13])
    assert o.chips == [2, -1, -1] and o.events("next_dealer")[0]["seat"] == 0


def test_tie_splits_the_pot_odd_chip_and_deal_to_nearest_the_dealers_right():
    o = pot([P13, P15, ["10-2", "5-2"]])  # seats 1 and 2 both 15; pot 3
    assert pays(o, "pot") == [("pot", 1, 1), ("pot", 2, 1)]
    assert pays(o, "odd chips") == [("pot", 1, 1)]
    assert o.chips == [-1, 1, 0] and o.events("next_dealer")[0]["seat"] == 1
    # the dealer sits farthest from their own right: seat 2 wins the odd chip against the dealer
    o = pot([P15, P13, ["10-2", "5-2"]])
    assert pays(o, "odd chips") == [("pot", 2, 1)] and o.events("next_dealer")[0]["seat"] == 2


def test_even_tie_has_no_odd_chip():
    o = pot([P13, P15, ["10-2", "5-2"], ["3-2", "1-1"]])  # pot 4 shared 2 + 2
    assert pays(o, "pot") == [("pot", 1, 2), ("pot", 2, 2)] and pays(o, "odd chips") == []
    assert o.chips == [-1, 1, 1, -1]


# -- teyaku -----------------------------------------------------------------------------------

def test_shigoro_beats_plain_15_and_doubles_the_pot():
    o = pot([P13, SHIGORO, P15])
    assert [e["yaku"] for e in o.events("yaku")] == [["shigoro"]]
    assert pays(o, "teyaku") == [(1, "pot", 1), (2, "pot", 1), (0, "pot", 1)]
    assert o.chips == [-2, 4, -2] and o.events("next_dealer")[0]["seat"] == 1


def test_teyaku_multiply_bareta_wagers_too():
    o = pot([BUST, SHIGORO, P13])  # the bust stake 2 becomes 4, the others 2
    assert pays(o, "teyaku") == [(1, "pot", 1), (2, "pot", 1), (0, "pot", 2)]
    assert o.chips == [-4, 6, -2]


def test_two_shigoro_double_the_pot_once_and_share_it():
    o = pot([P13, SHIGORO, ["4-2", "5-4", "6-2"]])
    assert o.chips == [-2, 1, 1]


def test_kingo_beats_everything_and_triples_the_pot():
    o = pot([P15, KINGO_HAND, P14])
    assert o.chips == [-3, 6, -3]
    o = pot([SHIGORO, KINGO_HAND, P15], {"teyaku_multiplier": "winner"})
    assert o.chips == [-3, 6, -3]  # beats Shigoro too


@pytest.mark.parametrize("rule,chips", [("every_kind", [-6, 12, -6]), ("winner", [-3, 6, -3])])
def test_option_teyaku_multiplier_when_kingo_meets_shigoro(rule, chips):
    o = pot([SHIGORO, KINGO_HAND, P15], {"teyaku_multiplier": rule})
    assert o.chips == chips


# -- options ----------------------------------------------------------------------------------

def test_option_wager_timing():
    o = pot([P13, P14, P15])
    assert o.legal_at("name_wager") == []
    for timing in ("before_deal", "after_deal"):
        o = pot([P13, P14, P15], {"wager": 3, "wager_timing": timing}, by_choice={"name_wager": [{"amount": 2}]})
        assert o.legal_at("name_wager") == [[{"amount": 1}, {"amount": 2}, {"amount": 3}]]
        kinds = [e["t"] for e in o.result.events if e["t"] in ("deal", "choose")]
        assert kinds[:2] == (["choose", "deal"] if timing == "before_deal" else ["deal", "choose"])
        assert pays(o, "wager") == [(1, "pot", 2), (2, "pot", 2), (0, "pot", 2)]


def test_option_rounds_and_presets():
    g = game(KINGO, {"rounds": 3})
    res = play(g, 4, 2, make_agents(g, 4, 2))
    assert len(res.round_deltas) == 3
    assert game(KINGO, preset="six-rounds").options["rounds"] == 6


@pytest.mark.parametrize("deck", ["kabufuda", "hanafuda"])
def test_kabufuda_plays_like_hanafuda(deck):
    # kabufuda card ids are value-copy, as hanafuda's are month-copy: the same stack, the same game
    o = pot([P13, SHIGORO, P15], deck=deck)
    assert o.chips == [-2, 4, -2]


def test_western_deck_counts_pips():
    o = pot([["10S", "3H"], ["4C", "5D", "6S"], ["7H", "8C"]], deck="western")
    assert o.chips == [-2, 4, -2]


def test_policy_draws_to_12():
    g = game(KINGO)
    totals = []

    def check(ctx, choice, player, actions):
        if choice.id == "draw":
            totals.append(sum(g.deck.cards[c].attrs["value"] for c in ctx.zones["hand"][player]))
    res = play(g, 4, 3, make_agents(g, 4, 3, "draw-to-12"), rounds=4, checks=check)
    actions = [e["action"]["hit"] for e in res.events if e["t"] == "choose" and e["choice"] == "draw"]
    assert len(actions) == len(totals) > 4
    assert actions == [t < 12 for t in totals]

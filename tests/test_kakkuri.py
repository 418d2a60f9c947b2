"""Kakkuri: one stacked-deck test per rule of RULES.md §4 (and §1.4, §2.6) and per option.

Stacking: `deal_top` turns the hands wanted into the pack order. The deal (kakkuri.yaml) is two
packets of three cards to each player anticlockwise from the dealer's right, so seat p's hand
is its listed cards 0-2 from the first round of packets and 3-5 from the second. The 6 undealt
cards are moved to the box as one pile, which reverses them; `deal_top` takes the box in the
order the cards will be turned (first = the first card of the run). Cards not named are dealt
out in deck order to the hands that are short.

Card shorthand: 'c4' = clubs-4, 's10' = swords-10, 'u1' = cups-1, 'o2' = coins-2.
Wild cards: c1, o2. Utazu: s1 u1 o1. Drop-out marker: c3.
"""
from __future__ import annotations

import pytest

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import Outcome, Script, game

V = "mekurifuda/kakkuri.yaml"
SUITS = {"c": "clubs", "s": "swords", "u": "cups", "o": "coins"}
UTAZU_ROLE = "utazu"


def ids(text: str) -> list[str]:
    """'c4 s10' -> ['clubs-4', 'swords-10'] (other decks' ids pass through unchanged)."""
    out = []
    for t in text.split():
        out.append(f"{SUITS[t[0]]}-{t[1:]}" if t[0] in SUITS and t[1:].isdigit() else t)
    return out


def deal_top(g, hands: dict[int, list[str]], box: list[str] = (), n: int = 7, dealer: int = 0):
    """Pack order (first = top) dealing `hands` (seat -> ids in hand order) and `box` (turn order).

    Returns (top, full_hands, full_box): unnamed cards are dealt out in deck order.
    """
    size = 6
    box_size = len(g.card_ids) - size * n
    used = [c for h in hands.values() for c in h] + list(box)
    assert len(set(used)) == len(used), "a card is named twice"
    pool = [c for c in g.card_ids if c not in used]
    full = {p: list(hands.get(p, [])) for p in range(n)}
    for p in range(n):
        assert len(full[p]) <= size
    while any(len(full[p]) < size for p in range(n)):
        for p in range(n):
            if len(full[p]) < size:
                full[p].append(pool.pop(0))
    full_box = list(box) + pool
    assert len(full_box) == box_size
    role = g.deck.attributes.get("role")
    if role is not None:  # never let the filler cards make an accidental Utazu
        index = g.card_index
        for p in range(n):
            if p not in hands or len(hands[p]) < size:
                assert sum(g.deck.cards[index[c]].attrs["role"] == UTAZU_ROLE for c in full[p]) < 3, \
                    f"filler cards give seat {p} Utazu"
    order = [(dealer + 1 + i) % n for i in range(n)]
    top: list[str] = []
    for k in (0, 1):
        for p in order:
            top += full[p][3 * k:3 * k + 3]
    top += list(reversed(full_box))
    return top, full, full_box


class Plan(Script):
    """A test agent: wanted actions queued per (choice, seat) or per choice; else the first legal.

    A wanted action is a dict (partial match), a predicate on the action dict, or an index.
    Forced decisions (one legal action) never reach the agent, so they consume nothing.
    """

    def __init__(self, plan=None):
        super().__init__([], None)
        self.plan = {k: list(v) for k, v in (plan or {}).items()}

    def act(self, d) -> int:
        legal = d.legal
        self.seen.append((d.choice.id, d.player, legal))
        for key in ((d.choice.id, d.player), d.choice.id):
            q = self.plan.get(key)
            if q:
                want = q.pop(0)
                if isinstance(want, int):
                    return want
                for i, a in enumerate(legal):
                    if (want(a) if callable(want) else all(a.get(k) == v for k, v in want.items())):
                        return i
                raise AssertionError(f"{want} not legal at {d.choice.id} for seat {d.player}: {legal}")
        return 0


_GAMES: dict = {}


def kk(options=None, deck=None, preset=None):
    """The compiled game for these options (cached: compiling takes a while)."""
    key = (tuple(sorted((options or {}).items())), deck, preset)
    if key not in _GAMES:
        _GAMES[key] = game(V, options, deck=deck, preset=preset)
    return _GAMES[key]


def go(hands=None, box=(), n=7, dealer=0, options=None, deck=None, preset=None, plan=None, box_order=None,
       checks=None, rounds=1, seed=1):
    g = kk(options, deck, preset)
    top, full, full_box = deal_top(g, hands or {}, box, n, dealer)
    stack = {"deck": top}
    if box_order is not None:
        stack["box"] = list(box_order)
    agent = Plan(plan)
    res = play(g, n, seed, [agent] * n, rounds=rounds, logging=True, dealer=dealer, stack=stack, checks=checks)
    o = Outcome(res, agent, g)
    o.hands, o.box = full, full_box
    return o


def cards(*names):
    """Predicate: the play is exactly these cards (any order)."""
    want = sorted(ids(" ".join(names)))
    return lambda a: sorted(a.get("cards", [])) == want


STOP = {"cards": []}


def plays(legal_list):
    """The card sets of a list of legal play actions (stop shown as ())."""
    return {tuple(sorted(a["cards"])) for a in legal_list}


def first_play_legal(o, seat=0):
    return next(legal for cid, p, legal in o.script.seen if cid == "play" and p == seat)


def records(o, name):
    return [e for e in o.events("record") if e["name"] == name]


def pays(o, why=None):
    return [e for e in o.events("pay") if why is None or e.get("why") == why]


def run_moves(o):
    return [e for e in o.events("move") if e["to"] == "run"]


def state(o):
    return o.result.state


# ---------------------------------------------------------------------------------------------
# Deal
# ---------------------------------------------------------------------------------------------

def test_deal_six_each_in_two_packets_of_three_from_dealers_right_rest_is_box_of_six():
    o = go(dealer=2)
    deals = [e for e in o.events("move") if e["from"] == "deck" and e["to"].startswith("hand")]
    assert [e["to"] for e in deals] == [f"hand[{(2 + 1 + i) % 7}]" for i in range(7)] * 2
    assert all(len(e["cards"]) == 3 for e in deals)
    to_box = [e for e in o.events("move") if e["to"] == "box"]
    assert len(to_box) == 1 and len(to_box[0]["cards"]) == 6
    for p in range(7):  # each hand is exactly what the stack meant to deal
        got = [c for e in deals if e["to"] == f"hand[{p}]" for c in e["cards"]]
        assert got == o.hands[p]


def test_dealer_turns_the_first_box_card_and_plays_first():
    o = go({0: ids("s6 s7 s9 u9 o9 c10")}, box=ids("u5"))
    first = run_moves(o)[0]
    assert first["from"] == "box" and first["cards"] == ids("u5")
    turns = [e for e in o.events("choose") if e["choice"] == "play"]
    assert turns[0]["player"] == 0


# ---------------------------------------------------------------------------------------------
# Sequencing
# ---------------------------------------------------------------------------------------------

def test_a_card_must_be_exactly_one_higher_than_the_top():
    # top 5: of 4, 6, 7, 9 only the 6 may go; after it the 7
    o = go({0: ids("s4 s6 s7 s9 u9 o9")}, box=ids("u5"))
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0]["action"]["cards"] == ids("s6") and chosen[0].get("forced")
    assert chosen[1]["action"]["cards"] == ids("s7") and chosen[1].get("forced")
    assert chosen[2]["action"]["cards"] == []  # 9 does not fit on 7: the turn ends


def test_after_a_1_another_1_may_follow():
    o = go({0: ids("u1 s2 s7 s9 u9 o9")}, box=ids("s1"))
    assert plays(first_play_legal(o)) == {tuple(ids("cups-1")), tuple(ids("s2"))}


def test_after_a_2_another_2_may_follow():
    o = go({0: ids("s2 s3 s4 s9 u9 o9")}, box=ids("c2"))
    assert plays(first_play_legal(o)) == {tuple(ids("s2")), tuple(ids("s3"))}


def test_any_rank_may_follow_a_12():
    hand = ids("s3 s5 s7 s9 u11 o6")
    o = go({0: hand}, box=ids("u12"))
    assert plays(first_play_legal(o)) == {(c,) for c in hand}


def test_without_a_12_the_sequence_does_not_wrap_around():
    # top 11: only a 12 fits, not a 1
    o = go({0: ids("s12 u1 s2 s9 u9 o9")}, box=ids("c11"))
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0]["action"]["cards"] == ids("s12") and chosen[0].get("forced")


def test_three_of_a_rank_are_played_together_but_never_four():
    o = go({0: ids("c6 s6 u6 o6 s9 u9")}, box=ids("u5"))
    legal = plays(first_play_legal(o))
    assert {len(p) for p in legal} == {1, 3}
    assert len([p for p in legal if len(p) == 3]) == 4  # any three of the four
    o = go({0: ids("c6 s6 u6 o6 s9 u9")}, box=ids("u5"), plan={("play", 0): [cards("c6 s6 u6")]})
    assert records(o, "triplet")[0]["player"] == 0
    assert o.hands[0] and run_moves(o)[1]["cards"] == ids("c6 s6 u6")


def test_three_pairs_declared_then_only_pairs_are_played():
    hand = ids("s5 u5 s8 u8 s10 u10")
    o = go({0: hand}, box=ids("c4"), plan={("three_pairs", 0): [{"declare": True}]})
    assert o.legal_at("three_pairs")[0] == [{"declare": False}, {"declare": True}]
    assert records(o, "sansoku")[0]["player"] == 0
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert sorted(chosen[0]["action"]["cards"]) == sorted(ids("s5 u5"))  # the only play: the pair of 5s
    # not declared: single cards as usual
    o = go({0: hand}, box=ids("c4"))
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0]["action"]["cards"] == ids("s5")


def test_wild_card_playable_at_any_time_and_anything_may_follow_it():
    # top 5: the 1 of clubs fits although it is no 6; after it the 9 fits
    o = go({0: ids("c1 s9 s3 u9 o9 c10")}, box=ids("u5"))
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0]["action"]["cards"] == ids("c1")
    assert plays(first_play_legal(o)) >= {tuple(ids("s9")), tuple(ids("s3")), tuple(ids("c10"))}
    # the 2 of coins too
    o = go({0: ids("o2 s9 s3 u9 s11 c10")}, box=ids("u7"))
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0]["action"]["cards"] == ids("o2")


def test_wild_card_turned_from_the_box_is_its_face_number():
    o = go({0: ids("s2 s7 s9 u9 o9 c10")}, box=ids("c1"))
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0]["action"]["cards"] == ids("s2") and chosen[0].get("forced")


# ---------------------------------------------------------------------------------------------
# Turns, passing, re-opening
# ---------------------------------------------------------------------------------------------

# Seat 1 sheds 4 5 6, seats 2, 3, 4 each lay one card, seats 5, 6, 0 cannot follow the 9,
# and seat 1 goes out with 10 J K on its second turn.
WIN_HANDS = {
    0: ids("c5 u5 c6 u6 c7 s1"),
    1: ids("s4 s5 s6 s10 s11 s12"),
    2: ids("s7 c4 u4 c10 c11 u1"),
    3: ids("s8 o4 u10 u11 c12 o1"),
    4: ids("s9 o5 o6 u7 o11 u12"),
    5: ids("c8 u8 c9 c2 s2 s3"),
    6: ids("o8 u9 o9 u2 c3 o7"),
}
WIN_BOX = ids("u3 c1 o2 o3 o10 o12")


def test_play_goes_anticlockwise_and_a_turn_without_a_card_pays_1_share_to_the_pot():
    o = go(WIN_HANDS, WIN_BOX)
    passes = pays(o, "pass")
    assert [(e["from"], e["to"], e["amount"]) for e in passes] == [(0, "pot", 1), (5, "pot", 1), (6, "pot", 1),
                                                                    (0, "pot", 1)]
    order = [e["player"] for e in o.events("choose") if e["choice"] == "play"]
    # a turn ends by itself once a card was played and nothing more fits (nobody is asked)
    assert order == [0, 1, 1, 1, 2, 3, 4, 5, 6, 0, 1, 1, 1]


def test_first_to_empty_the_hand_wins_1_share_from_each_and_the_pot_then_deals():
    o = go(WIN_HANDS, WIN_BOX)
    assert state(o).vars["winner"] == 1
    assert [(e["from"], e["amount"]) for e in pays(o, "win")] == [(q, 1) for q in (0, 2, 3, 4, 5, 6)]
    assert [(e["from"], e["to"], e["amount"]) for e in pays(o, "pot")] == [("pot", 1, 4)]
    assert o.chips == [-3, 10, -1, -1, -1, -2, -2]
    assert not records(o, "guri")
    assert o.events("next_dealer")[-1]["seat"] == 1


def test_must_play_while_a_card_fits():
    o = go(WIN_HANDS, WIN_BOX)
    # every play decision of the default game was forced: stop is offered only when nothing fits
    assert o.legal_at("play") == []
    stops = [e for e in o.events("choose") if e["choice"] == "play" and e["action"]["cards"] == []]
    assert all(e.get("forced") for e in stops)


# Seat 0 lays both wilds and the 6; all 7s are in the box, so nobody can follow.
ALL_PASS_HANDS = {0: ids("c1 o2 s6 s9 s10 s11")}
ALL_PASS_BOX = ids("u5 c7 s7 u7 o7 c12")


def test_all_pass_the_last_player_to_play_turns_the_next_box_card():
    o = go(ALL_PASS_HANDS, ALL_PASS_BOX)
    rec = records(o, "all_pass_reopen")
    assert rec and rec[0]["player"] == 0
    assert [e["from"] for e in pays(o, "pass")][:6] == [1, 2, 3, 4, 5, 6]
    moves = run_moves(o)
    assert [m["cards"] for m in moves[:5]] == [ids("u5"), ids("c1"), ids("o2"), ids("s6"), ids("c7")]
    assert moves[4]["from"] == "box"
    # and the same player then takes the turn
    ev = o.result.events
    i = ev.index(rec[0])
    nxt = next(e for e in ev[i:] if e["t"] == "choose" and e["choice"] == "play")
    assert nxt["player"] == 0


def test_guri_all_six_in_one_turn_pays_2_shares():
    o = go({0: ids("s4 s5 s6 s7 s8 s9")}, box=ids("u3"))
    assert records(o, "guri")[0]["player"] == 0
    assert o.chips == [12, -2, -2, -2, -2, -2, -2]
    # the payments say why they are double (the table reads the reason 'Guri: ...')
    assert [(e["from"], e["amount"]) for e in pays(o, "guri")] == [(q, 2) for q in range(1, 7)]
    assert not pays(o, "win")


def test_guri_counts_after_earlier_turns_without_a_card():
    hands = {
        0: ids("c5 c7 c8 c9 c10 s1"),
        1: ids("s6 s7 s8 s9 s10 s11"),
        2: ids("s4 c6 u6 o6 c11 u1"),
        3: ids("s5 c4 u7 u8 u9 o1"),
        4: ids("u4 u5 o7 o8 u10 c12"),
        5: ids("o4 o5 o9 o10 u11 s12"),
        6: ids("c2 s2 u2 s3 c3 u12"),
    }
    o = go(hands, ids("u3 c1 o2 o3 o11 o12"))
    assert [e["from"] for e in pays(o, "pass")] == [0, 1, 4, 5, 6, 0]  # seat 1 passed first
    assert records(o, "guri")[0]["player"] == 1
    # pot 6, plus 2 shares from each of the six others
    assert o.chips == [-4, 17, -2, -2, -3, -3, -3]


# ---------------------------------------------------------------------------------------------
# Exchange and Utazu
# ---------------------------------------------------------------------------------------------

def test_utazu_wins_at_once_and_each_other_player_pays_3_shares():
    o = go({3: ids("s1 u1 o1 s9 u9 o9")})
    assert records(o, "utazu")[0]["player"] == 3
    assert o.chips == [-3, -3, -3, 18, -3, -3, -3]
    assert not run_moves(o) and not [e for e in o.events("choose") if e["choice"] == "play"]
    assert o.events("next_dealer")[-1]["seat"] == 3


def test_exchange_is_blind_and_a_given_up_hand_travels_on():
    seen = {}

    def check(ctx, choice, player, actions):
        if choice.id == "exchange":
            seen[player] = ctx.game.observation(ctx, player)["zones"]["hand"][player]
    # seat 1 gives the Utazu hand to the dealer, seat 2 takes it from the dealer
    o = go({1: ids("s1 u1 o1 s9 u9 o9")}, plan={("exchange", 1): [{"exchange": True}],
                                                ("exchange", 2): [{"exchange": True}]}, checks=check)
    assert all(set(v) == {"?"} for v in seen.values()) and sorted(seen) == [1, 2, 3, 4, 5, 6]
    assert records(o, "utazu")[0]["player"] == 2
    assert o.chips[2] == 18


def test_exchange_is_offered_anticlockwise_to_everyone_but_the_dealer():
    o = go(dealer=4)
    order = [e["player"] for e in o.events("choose") if e["choice"] == "exchange"]
    assert order == [5, 6, 0, 1, 2, 3]


# ---------------------------------------------------------------------------------------------
# Eight players
# ---------------------------------------------------------------------------------------------

def test_8_players_the_3_of_clubs_holder_drops_out_and_the_box_is_their_hand():
    hand5 = ids("c3 s9 u9 o9 s10 u10")
    o = go({5: hand5}, n=8, box_order=ids("s9 u9 o9 s10 u10 c3"))
    assert records(o, "dropout")[0]["player"] == 5
    assert state(o).vars["dropped"] == 5
    first = run_moves(o)[0]
    assert first["from"] == "box" and first["cards"] == ids("s9")
    box_in = [e for e in o.events("move") if e["to"] == "box"]
    assert sorted(box_in[0]["cards"]) == sorted(hand5)
    assert 5 not in [e["player"] for e in o.events("choose") if e["choice"] in ("exchange", "play")]
    assert o.chips[5] == 0  # sits out: pays nothing
    assert all(e["from"] != 5 for e in o.events("pay"))


def test_8_players_dealer_holding_the_3_of_clubs_hands_the_dealer_part_to_the_right():
    o = go({0: ids("c3 s9 u9 o9 s10 u10")}, n=8)
    assert state(o).vars["lead"] == 1 and state(o).vars["dropped"] == 0
    assert [e["player"] for e in o.events("choose") if e["choice"] == "exchange"] == [2, 3, 4, 5, 6, 7]
    assert [e["player"] for e in o.events("choose") if e["choice"] == "play"][0] == 1


# ---------------------------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------------------------

def test_option_share_multiplies_every_payment():
    o = go({3: ids("s1 u1 o1 s9 u9 o9")}, options={"share": 5})
    assert o.chips[3] == 90 and o.chips[0] == -15
    o = go(WIN_HANDS, WIN_BOX, options={"share": 2})
    assert o.chips == [-6, 20, -2, -2, -2, -4, -4]


def test_option_rounds_sets_the_game_length():
    g = kk({"rounds": 3})
    res = play(g, 7, 2, make_agents(g, 7, 2))
    assert len(res.round_deltas) == 3
    assert len(play(kk(), 7, 2, make_agents(kk(), 7, 2)).round_deltas) == 12


def test_option_players_allows_5_and_6_with_a_bigger_box():
    from rulekit.core.errors import RulekitError
    g = kk()
    assert g.player_sizes() == (7, 8)
    with pytest.raises(RulekitError, match="kakkuri is for 7 or 8 players, found 5"):
        play(g, 5, 1, make_agents(g, 5, 1), rounds=1)
    g = kk({"players": "five_to_eight"})
    assert g.player_sizes() == (5, 6, 7, 8)
    res = play(g, 5, 1, make_agents(g, 5, 1), rounds=1)
    to_box = [e for e in res.events if e["t"] == "move" and e["to"] == "box"]
    assert len(to_box[0]["cards"]) == 18


def test_option_pass_penalty_fold_passing_free_drop_out_for_a_share():
    hands = {
        0: ids("c5 c7 c8 c9 c10 s1"), 1: ids("s6 s7 s8 s9 s10 s11"), 2: ids("s4 c6 u6 o6 c11 u1"),
        3: ids("s5 c4 u7 u8 u9 o1"), 4: ids("u4 u5 o7 o8 u10 c12"), 5: ids("o4 o5 o9 o10 u11 s12"),
        6: ids("c2 s2 u2 s3 c3 u12"),
    }
    box = ids("u3 c1 o2 o3 o11 o12")
    o = go(hands, box, options={"pass_penalty": "fold"})
    assert not pays(o, "pass")
    assert o.chips == [-2, 12, -2, -2, -2, -2, -2]
    # seat 4 drops out on its first turn: one share to the pot, nothing at the end
    o = go(hands, box, options={"pass_penalty": "fold"}, plan={("fold", 4): [{"fold": True}]})
    assert records(o, "fold")[0]["player"] == 4
    assert [(e["from"], e["amount"]) for e in pays(o, "drop-out")] == [(4, 1)]
    assert o.chips == [-2, 11, -2, -2, -1, -2, -2]
    # a player who has played may no longer drop out: seat 2 is asked only before its 4
    asked = [p for cid, p, _ in o.script.seen if cid == "fold"]
    assert asked.count(2) == 1 and asked.count(0) == 2


def test_option_forced_play_first_and_never():
    hand = ids("s6 s7 s9 u9 o9 c10")
    o = go({0: hand}, box=ids("u5"), options={"forced_play": "first"}, plan={("play", 0): [STOP]})
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0].get("forced") and chosen[0]["action"]["cards"] == ids("s6")  # must start
    assert o.legal_at("play")[0] == [{"cards": ids("s7"), "as_rank": 0}, STOP | {"as_rank": 0}]
    assert chosen[1]["action"]["cards"] == [] and not chosen[1].get("forced")  # may stop after a card
    o = go({0: hand}, box=ids("u5"), options={"forced_play": "never"}, plan={("play", 0): [STOP]})
    assert first_play_legal(o) == [{"cards": ids("s6"), "as_rank": 0}, {"cards": [], "as_rank": 0}]
    assert pays(o, "pass")[0]["from"] == 0


def test_option_all_pass_choice_lets_the_last_player_play_on():
    # seat 0 keeps the 1 of clubs (may stop under forced_play first), everyone else passes
    plan = {("play", 0): [cards("o2"), cards("s6"), STOP], ("reopen", 0): [{"turn_card": False}]}
    opts = {"forced_play": "first", "all_pass": "choice"}
    o = go(ALL_PASS_HANDS, ALL_PASS_BOX, options=opts, plan=plan)
    assert o.legal_at("reopen")[0] == [{"turn_card": True}, {"turn_card": False}]
    assert records(o, "all_pass_play_on")[0]["player"] == 0
    assert run_moves(o)[3]["cards"] == ids("c1")  # played on instead of turning the 7
    o = go(ALL_PASS_HANDS, ALL_PASS_BOX, options={"forced_play": "first"},
           plan={("play", 0): [cards("o2"), cards("s6"), STOP]})
    assert o.legal_at("reopen") == [] and records(o, "all_pass_reopen")[0]["player"] == 0
    assert run_moves(o)[3]["cards"] == ids("c7")


def _box_empty_seed():
    g = kk()
    for seed in range(1, 400):
        res = play(g, 7, seed, make_agents(g, 7, seed), rounds=1)
        if res.records.get("box_empty"):
            return seed
    raise AssertionError("no seed empties the box")


def test_option_box_empty_free_void_lowest():
    seed = _box_empty_seed()
    runs = {}
    for mode in ("free", "void", "lowest"):
        g = kk({"box_empty": mode})
        runs[mode] = play(g, 7, seed, make_agents(g, 7, seed), rounds=1)
    # free (default): the player who would turn a card may lay any rank
    ev = runs["free"].events
    i = next(k for k, e in enumerate(ev) if e["t"] == "record" and e["name"] == "box_empty")
    assert runs["free"].state.vars["winner"] >= 0
    who = ev[i]["player"]
    nxt = next(e for e in ev[i:] if e["t"] == "choose" and e["choice"] == "play")
    assert nxt["player"] == who and nxt["action"]["cards"]  # a card went down on an unrestricted top
    # void: nobody wins, no win payments, the pot stays for the next round
    r = runs["void"]
    assert r.records.get("void_round") == 1 and r.state.vars["winner"] < 0
    assert not [e for e in r.events if e["t"] == "pay" and e.get("why") == "win"]
    assert r.state.vars["pot"] == -sum(r.chips) > 0
    # lowest: the active player with the fewest cards wins
    r = runs["lowest"]
    assert r.records.get("lowest_hand_win") == 1
    w = r.state.vars["winner"]
    hands = r.state.zones["hand"]
    assert len(hands[w]) == min(len(h) for h in hands) > 0
    assert [e["from"] for e in r.events if e["t"] == "pay" and e.get("why") == "win"] == [q for q in range(7) if q != w]


def test_option_wild_follow_declared_plays_the_wild_as_a_legal_rank():
    hand = ids("c1 s6 s9 s7 u9 o9")
    o = go({0: hand}, box=ids("u5"))
    assert {"cards": ids("c1"), "as_rank": 0} in first_play_legal(o)
    o = go({0: hand}, box=ids("u5"), options={"wild_follow": "declared"}, plan={("play", 0): [cards("c1")]})
    legal = first_play_legal(o)
    assert [a for a in legal if a["cards"] == ids("c1")] == [{"cards": ids("c1"), "as_rank": 6}]
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[1]["action"]["cards"] == ids("s7")  # the wild was a 6: only a 7 follows, not the 9
    assert chosen[1].get("forced")


def test_option_wild_in_groups_completes_a_triplet():
    hand = ids("c1 s6 u6 s9 u9 o10")
    o = go({0: hand}, box=ids("u5"))
    assert all(len(p) == 1 for p in plays(first_play_legal(o)))
    o = go({0: hand}, box=ids("u5"), options={"wild_in_groups": True})
    assert tuple(sorted(ids("c1 s6 u6"))) in plays(first_play_legal(o))
    # ... and a wild pairs with a lone card in a three-pairs hand
    hand = ids("s5 u5 s8 u8 s10 c1")
    o = go({0: hand}, box=ids("c4"))
    assert not o.legal_at("three_pairs")
    o = go({0: hand}, box=ids("c4"), options={"wild_in_groups": True}, plan={("three_pairs", 0): [{"declare": True}]})
    assert o.legal_at("three_pairs")
    assert plays(first_play_legal(o)) == {tuple(sorted(ids(x))) for x in ("s5 u5", "s5 c1", "u5 c1")}


def test_option_pairs_mode_follow_any_rank():
    hand = ids("s5 u5 s8 u8 s10 u10")
    plan = {("three_pairs", 0): [{"declare": True}]}
    o = go({0: hand}, box=ids("c3"), plan=plan)
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0]["action"]["cards"] == [] and chosen[0].get("forced")  # no pair of 4s
    o = go({0: hand}, box=ids("c3"), plan=plan, options={"pairs_mode_follow": "any_rank"})
    assert plays(first_play_legal(o)) == {tuple(sorted(ids(x))) for x in ("s5 u5", "s8 u8", "s10 u10")}


def test_option_swap_rules_once_lets_a_swapped_hand_travel_on():
    # Kusaba (RULES §4.3): seat 1's Utazu hand goes to the dealer, then on to seat 2
    plan = {("exchange", 1): [{"exchange": True}], ("exchange", 2): [{"exchange": True}]}
    hands = {1: ids("s1 u1 o1 s9 u9 o9")}
    o = go(hands, plan=plan, options={"swap_rules": "once"})
    assert [e["player"] for e in records(o, "swap")] == [1, 2]
    assert records(o, "utazu")[0]["player"] == 2


def test_option_swap_rules_first_only_and_look():
    plan = {("exchange", 1): [{"exchange": True}], ("exchange", 2): [{"exchange": True}]}
    hands = {1: ids("s1 u1 o1 s9 u9 o9")}
    o = go(hands, plan=plan, options={"swap_rules": "first_only"})
    assert [e["player"] for e in o.events("choose") if e["choice"] == "exchange"] == [1]
    assert records(o, "utazu")[0]["player"] == 0  # the dealer keeps seat 1's hand
    seen = {}

    def check(ctx, choice, player, actions):
        if choice.id == "exchange":
            seen[player] = ctx.game.observation(ctx, player)["zones"]["hand"][player]
    o = go(hands, options={"swap_rules": "look"}, checks=check)
    assert seen[1] == hands[1] and "?" not in seen[4]


def test_option_dropout_timing_after_swap():
    hands = {5: ids("c3 s9 u9 o9 s10 u10")}
    plan = {("exchange", 5): [{"exchange": True}]}
    o = go(hands, n=8, plan=plan)
    assert state(o).vars["dropped"] == 5 and 5 not in [e["player"] for e in o.events("choose")
                                                          if e["choice"] == "exchange"]
    o = go(hands, n=8, plan=plan, options={"dropout_timing": "after_swap"})
    # seat 5 handed the 3 of clubs to the dealer, who then sits out; seat 1 acts as dealer
    assert state(o).vars["dropped"] == 0 and state(o).vars["lead"] == 1
    assert o.chips[0] == 0


def test_option_dealer_dropout_redeal():
    g = kk({"dealer_dropout": "redeal"})
    for seed in range(1, 200):
        res = play(g, 8, seed, make_agents(g, 8, seed), rounds=1)
        if res.records.get("redeal"):
            break
    else:
        raise AssertionError("no seed gives the dealer the 3 of clubs")
    assert res.records["dealer_dropout"] == res.records["redeal"]
    assert res.state.vars["dropped"] != 0 and res.state.vars["lead"] == 0
    assert [e["t"] for e in res.events].count("redeal") == res.records["redeal"]


def test_option_first_card_timing_deal():
    o = go({3: ids("s1 u1 o1 s9 u9 o9")})
    assert not run_moves(o)
    o = go({3: ids("s1 u1 o1 s9 u9 o9")}, options={"first_card_timing": "deal"})
    assert run_moves(o)[0]["from"] == "box"
    ev = o.result.events
    first_run = next(k for k, e in enumerate(ev) if e["t"] == "move" and e["to"] == "run")
    first_exchange = next(k for k, e in enumerate(ev) if e["t"] == "choose" and e["choice"] == "exchange")
    assert first_run < first_exchange


def test_hanafuda_deck_roles_curtain_pine_utazu_crane_wild():
    o = go({2: ["1-2", "1-3", "1-4", "9-1", "9-2", "9-3"]}, deck="hanafuda")
    assert records(o, "utazu")[0]["player"] == 2
    o = go({4: ["3-1", "9-1", "9-2", "9-3", "10-1", "10-2"]}, n=8, deck="hanafuda")
    assert records(o, "dropout")[0]["player"] == 4
    # the Crane is wild: it fits on a Susuki (8)
    o = go({0: ["1-1", "4-1", "4-2", "5-1", "5-2", "7-2"]}, box=["8-1"], deck="hanafuda")
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0]["action"]["cards"] == ["1-1"] and chosen[0].get("forced")


def test_option_hanafuda_wild2_lightning_or_rain_man():
    # top: Susuki (8). Lightning (11-4) and Rain Man (11-1) both count 2 under the Nagoya order
    hand = ["11-4", "11-1", "4-1", "4-2", "5-1", "7-2"]
    o = go({0: hand}, box=["8-1"], deck="hanafuda")
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0]["action"]["cards"] == ["11-4"] and chosen[0].get("forced")
    o = go({0: hand}, box=["8-1"], deck="hanafuda", options={"hanafuda_wild2": "rain_man"})
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0]["action"]["cards"] == ["11-1"] and chosen[0].get("forced")
    # Nagoya ranks: Willow is 2, so after a Willow card from the box a Cherry (3) fits
    o = go({0: ["3-2", "4-1", "4-2", "5-1", "5-2", "7-2"]}, box=["11-3"], deck="hanafuda")
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0]["action"]["cards"] == ["3-2"]


def test_western_deck_roles_and_option_western_court_map():
    o = go({1: ["AS", "AH", "AD", "9S", "9H", "9D"]}, deck="western")
    assert records(o, "utazu")[0]["player"] == 1
    # top: Queen of hearts. Q J K (default): the Jack (11) follows; J Q K: the King (12) follows
    hand = ["JS", "KS", "5S", "5H", "6S", "6H"]
    o = go({0: hand}, box=["QH"], deck="western")
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0]["action"]["cards"] == ["JS"] and chosen[0].get("forced")
    o = go({0: hand}, box=["QH"], deck="western", options={"western_court_map": "jqk"})
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0]["action"]["cards"] == ["KS"] and chosen[0].get("forced")
    # the Ace of clubs is wild
    o = go({0: ["AC", "5S", "5H", "6S", "6H", "7S"]}, box=["QH"], deck="western")
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0]["action"]["cards"] == ["AC"]


def test_option_dealer_pass_on():
    guri = {0: ids("s4 s5 s6 s7 s8 s9")}
    o = go(guri, box=ids("u3"))
    assert o.events("next_dealer")[-1]["seat"] == 0 and not o.legal_at("cede")
    o = go(guri, box=ids("u3"), options={"dealer_pass_on": True},
           plan={("cede", 0): [{"cede": True}], ("cede", 1): [{"cede": True}]})
    assert [p for cid, p, _ in o.script.seen if cid == "cede"] == [0, 1, 2]
    assert o.events("next_dealer")[-1]["seat"] == 2


def test_presets_build_and_play():
    for preset in ("ways-to-play", "hanafuda-rain-man"):
        g = kk(preset=preset)
        res = play(g, 7, 3, make_agents(g, 7, 3), rounds=2)
        assert sum(res.chips) + res.state.vars["pot"] == 0


def test_utazu_with_8_players_the_player_who_sat_out_pays_nothing():
    # seat 5 holds the 3 of clubs and sits out; seat 2's Utazu collects 3 shares from the six others
    o = go({5: ids("c3 s9 u9 o9 s10 u10"), 2: ids("s1 u1 o1 s8 u8 o8")}, n=8)
    assert records(o, "utazu")[0]["player"] == 2
    assert o.chips[5] == 0 and all(e["from"] != 5 for e in o.events("pay"))
    assert o.chips == [-3, -3, 18, -3, -3, 0, -3, -3]


def test_western_deck_two_of_diamonds_is_wild():
    # top: Queen of hearts (10); the 2 of diamonds fits on it, as a wild card from the hand
    o = go({0: ["2D", "5S", "5H", "6S", "6H", "7S"]}, box=["QH"], deck="western")
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0]["action"]["cards"] == ["2D"] and chosen[0].get("forced")


# ---------------------------------------------------------------------------------------------
# Rules that had no test failing when they were broken (issue 26)
# ---------------------------------------------------------------------------------------------

def test_after_a_triplet_the_next_card_follows_the_triplets_rank():
    # top 5; seat 0 lays three 6s, then only the 7 fits (on a 5 nothing would be left to play)
    o = go({0: ids("c6 s6 u6 s7 s9 u9")}, box=ids("u5"), plan={("play", 0): [cards("c6 s6 u6")]})
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert sorted(chosen[0]["action"]["cards"]) == sorted(ids("c6 s6 u6"))
    assert chosen[1]["action"]["cards"] == ids("s7") and chosen[1].get("forced")


# The Nagoya sequence (RULES §1.2): rank -> month
NAGOYA = {1: 1, 2: 11, 3: 3, 4: 4, 5: 5, 6: 12, 7: 7, 8: 8, 9: 9, 10: 10, 11: 6, 12: 2}


@pytest.mark.parametrize("rank", range(1, 12))
def test_nagoya_ranks_with_hanafuda_each_month_follows_the_one_before(rank):
    # top: a card of the month ranked `rank`; the hand's only card that fits is one of the
    # month ranked rank + 1 (the other five are of months far from both; no wild card)
    top, nxt = f"{NAGOYA[rank]}-3", f"{NAGOYA[rank + 1]}-2"
    far = [NAGOYA[k] for k in range(1, 13) if k not in (rank, rank + 1)]
    fillers = [f"{m}-4" for m in far if m != 11][:5]
    o = go({0: [nxt] + fillers}, box=[top], deck="hanafuda")
    chosen = [e for e in o.events("choose") if e["choice"] == "play" and e["player"] == 0]
    assert chosen[0]["action"]["cards"] == [nxt] and chosen[0].get("forced"), chosen[0]


def test_8_players_with_the_dealer_sitting_out_exchanges_go_to_the_acting_dealer():
    # the dealer (0) holds the 3 of Clubs and sits out; seat 1 acts as dealer holding Utazu;
    # seat 2 exchanges and so takes the Utazu hand from seat 1
    o = go({0: ids("c3 s9 u9 o9 s10 u10"), 1: ids("s1 u1 o1 s8 u8 o8")}, n=8,
           plan={("exchange", 2): [{"exchange": True}]})
    assert state(o).vars["lead"] == 1
    assert records(o, "utazu")[0]["player"] == 2

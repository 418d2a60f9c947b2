"""The `search` policy: offered for every game, seeded, playing whole games, blind to hidden cards."""
from __future__ import annotations

import random

import pytest

from rulekit import Env, build_game
from rulekit.engine.runner import BUILTIN_POLICIES, make_agents, play, seat_policies
from rulekit.engine.search import MIN_DEALS, MOVES, SearchAgent, choose

SEED_GAMES = ["dare", "hiraya", "kakkuri", "otoroku", "kyo-kabu"]


def test_search_is_offered_for_every_game():
    assert "search" in BUILTIN_POLICIES
    for gid in SEED_GAMES:
        game = build_game(gid)
        assert seat_policies(game, 4, "careful,1=search")[1] == "search"
        assert isinstance(make_agents(game, 4, 3, "careful,1=search")[1], SearchAgent)


def test_base_policy_is_careful_where_the_game_has_one():
    assert SearchAgent(build_game("otoroku"), 0).base == "careful"
    with pytest.raises(ValueError, match="budget"):
        SearchAgent(build_game("otoroku"), 0, budget=0)
    with pytest.raises(ValueError, match="short"):
        SearchAgent(build_game("otoroku"), 0, short=0)


@pytest.mark.parametrize("gid", SEED_GAMES)
def test_search_plays_a_round_and_a_seed_fixes_it(gid):
    game = build_game(gid)
    n = game.variant.meta.players_default

    def once():
        agents = make_agents(game, n, 5, "careful")
        bot = agents[0] = SearchAgent(game, "bot", budget=6)
        res = play(game, n, 5, agents, rounds=1, logging=True)
        return res, bot

    a, bot = once()
    b, _ = once()
    assert sum(a.round_deltas[0]) == 0
    assert a.log["moves"] == b.log["moves"] and a.chips == b.chips
    assert bot.tried >= bot.playouts // 6  # it searched (every decision drew deals)


def test_choose_keeps_the_base_choice_unless_another_is_clearly_better():
    # rows: one deal per row, the seat's chip change after each action in that deal
    assert choose([[0, 1]] * 20, base=0) == 1                      # better in every deal
    mixed = [[0, 2]] * 5 + [[0, -2]] * 3 + [[0, -1]] * 2 + [[0, 1]] * 5 + [[0, -1]] * 5
    assert choose(mixed, base=0) == 0                               # better on average, not clearly
    assert choose([[2, 0], [3, 1], [1, 0], [2, 1], [1, 1]] * 4, base=1) == 0  # the base choice can be left too
    assert choose([[0, 1]] * 19, base=0) == 0                      # too few deals (3 batches) say nothing
    # successive deals are alike: a run of 5 good deals then 5 bad ones is 2 batches that cancel
    assert choose(([[0, 3]] * 5 + [[0, -1]] * 5) * 2, base=0) == 0  # (single deals would say 1)


def test_with_many_deals_the_batches_grow_so_long_runs_of_alike_deals_are_not_more_evidence():
    runs = [1, 1, -1, 1, 1, -1, 1, 1, -1, 1]  # mean 0.4
    # the same 200 deals in two orders: mixed, every batch of 20 has the mean 0.4: clearly better
    assert choose([[0, v] for v in runs * 20], base=0) == 1
    # in runs of 20 alike deals (a chain that moves slowly) they are 10 batches: not clear
    # (batches of 5 would be 40, and 0.4 would pass for clear: t 2.7 against 1.7)
    assert choose([[0, v] for v in runs for _ in range(20)], base=0) == 0


def test_search_takes_its_evaluation():
    # the bot's choice is choose() of its playouts with the base policy's choice as the default
    env = Env("otoroku", seed=11)
    while not env.done and len(env.legal_actions()) < 2:
        env.step(0)
    seat, k = env.current_player, len(env.legal_actions())
    rows = SearchAgent(env.game, 1, budget=40).playouts_by_deal(env._st, seat, k)
    assert len(rows) >= 2 and all(len(r) == k for r in rows)
    base = SearchAgent(env.game, 1, budget=40)
    base_choice = base.fallback.act(env._st.pending)
    assert SearchAgent(env.game, 1, budget=40).act_from(env._st) == choose(rows, base_choice)


@pytest.mark.parametrize("gid", SEED_GAMES)
def test_hidden_cards_do_not_change_the_decision(gid):
    """Swapping the cards the deciding seat cannot see (a deal it cannot tell from this one) leaves
    the bot's evaluation, and so its decision, unchanged for a fixed bot seed."""
    checked = 0
    for seed in range(6):
        env = Env(gid, seed=seed, rounds=1)
        careful = [env.bot("careful", s) for s in range(env.players)]
        steps = random.Random(seed).randrange(0, 6)
        while not env.done and (steps > 0 or len(env.legal_actions()) < 2):
            if len(env.legal_actions()) >= 2:
                steps -= 1
            env.step(careful[env.current_player].act(env))
        if env.done:
            continue
        seat = env.current_player
        try:
            other = env.sample_unseen(seat, random.Random(100 + seed))
        except Exception:
            continue
        assert other.observation(seat) == env.observation(seat)
        if other._st.ctx.zones == env._st.ctx.zones:
            continue  # the same deal drawn (what the seat sees is the same in both): proves nothing
        k = len(env.legal_actions())
        here = SearchAgent(env.game, 9, budget=12).evaluate(env._st, seat, k)
        there = SearchAgent(env.game, 9, budget=12).evaluate(other._st, seat, k)
        assert here == there
        assert SearchAgent(env.game, 9, budget=12).act_from(env._st) == \
            SearchAgent(env.game, 9, budget=12).act_from(other._st)
        checked += 1
    assert checked >= 1


def test_a_sample_clones_to_the_same_deal():
    # clone() of a sampled game keeps the sampled cards (it does not go back to the real deal)
    env = Env("otoroku", seed=4)
    while not env.done and len(env.legal_actions()) < 2:
        env.step(0)
    seat = env.current_player
    for k in range(10):
        other = env.sample_unseen(seat, random.Random(k))
        if other._st.ctx.zones != env._st.ctx.zones:
            assert other.clone()._st.ctx.zones == other._st.ctx.zones
            return
    pytest.fail("no sample differed from the real deal")


def test_env_bot_search():
    env = Env("kyo-kabu", seed=2, rounds=1)
    bots = [env.bot("search" if s == 0 else "careful", s) for s in range(env.players)]
    while not env.done:
        env.step(bots[env.current_player].act(env))
    assert sum(env.rewards) == 0


def test_a_replayed_move_of_another_kind_of_choice_is_a_disagreeing_deal():
    # in a re-deal, the move recorded for one kind of choice (a yes/no) can meet another kind
    # (a list of cards): that deal disagrees with what was seen; it is not an error in the rules
    from rulekit.engine.stepper import Inconsistent, _Seat
    env = Env("kakkuri", seed=3, rounds=1)
    while "list<card>" not in env._st.pending.choice.types:
        env.step(0)
    d = env._st.pending
    identity = list(range(len(env.game.card_ids)))
    with pytest.raises(Inconsistent):
        _Seat(env._st, replay=[(True,)], relabel=identity).act(d)
    with pytest.raises(Inconsistent):
        _Seat(env._st, replay=[(True, 1)], relabel=identity).act(d)


def _at_choice(gid: str, seed: int, choice: str) -> Env:
    """A game of `gid` played by `careful` bots up to the first decision `choice` with a real choice."""
    env = Env(gid, seed=seed, rounds=1)
    careful = [env.bot("careful", s) for s in range(env.players)]
    while not env.done and not (env._st.pending.choice.id == choice and len(env.legal_actions()) > 1):
        env.step(careful[env.current_player].act(env))
    return env


def test_every_deal_of_the_chain_agrees_with_what_the_seat_saw():
    from rulekit.engine.stepper import DealChain
    env = _at_choice("kyo-kabu", 3, "dealer_third")
    seat = env.current_player
    chain = DealChain(env._st, seat, random.Random(1))
    seen, kept = env.observation(seat), []
    while len(kept) < 30:
        try:
            deal = chain.next()
        except Exception:
            continue
        assert deal.game.observation(deal.ctx, seat) == env._st.game.observation(env._st.ctx, seat)
        kept.append(repr(deal.ctx.zones))
    assert seen == env.observation(seat)
    assert len(set(kept)) > 10  # the chain moves: many different deals, not one repeated


def test_a_model_of_the_others_makes_deals_that_contradict_it_rarer():
    # the dealer decides after the bettors took or refused third cards; deals in which a bettor
    # refused on a total the careful policy would have drawn on are weighed down by SLIP each
    from rulekit.engine.agents import PolicyAgent
    from rulekit.engine.stepper import DealChain

    class Unweighed(DealChain):
        SLIP = 1.0  # counts the slips but weighs every agreeing deal alike

    def mean_slips(cls, env, seat):
        chain = cls(env._st, seat, random.Random(7), PolicyAgent("careful").preferred)
        slips = []
        while len(slips) < 120 and chain.replays < 3000:
            try:
                chain.next()
            except Exception:
                continue
            slips.append(chain.slips)
        return sum(slips) / len(slips)

    weighed = unweighed = 0.0
    for seed in range(12):
        env = _at_choice("kyo-kabu", seed, "dealer_third")
        if env.done:
            continue
        seat = env.current_player
        weighed += mean_slips(DealChain, env, seat)
        unweighed += mean_slips(Unweighed, env, seat)
    assert unweighed > 0.5           # without the model, many deals contradict the careful bettors
    assert weighed < unweighed / 2   # with it, fewer do (0.12 against 0.40 a deal when written)


def test_the_table_says_in_words_how_search_opponents_play():
    from rulekit.cli.play import opponents_words
    words = opponents_words(build_game("otoroku"), "search")
    assert "think ahead" in words and "'search'" not in words and "policy" not in words


def test_with_many_actions_the_best_screened_one_is_tested_against_the_base_choice_on_new_deals():
    env = _at_choice("kyo-kabu", 2, "bet")
    k = len(env.legal_actions())
    assert k > 6  # a stake of any size on any column

    class Recording(SearchAgent):
        def playouts_by_deal(self, source, seat, k, budget=None, actions=None, chain=None, most=None, settle=None):
            rows = super().playouts_by_deal(source, seat, k, budget, actions, chain, most, settle)
            self.calls.append((actions, len(rows)))
            return rows

    bot = Recording(env.game, 5, budget=400, short=4)
    bot.calls = []
    base = bot.fallback.act(env._st.pending)
    choice = bot.act_from(env._st)
    screen, *test = bot.calls
    assert screen[0] is None and screen[1] >= 4          # every action, on a few deals
    assert screen[1] <= -(-200 // k)                     # half the budget's playouts, even short ones
    if test:                                              # a better-looking action was found
        (pair, n), = test
        assert pair[0] == base and pair[1] != base and n >= MIN_DEALS
        assert choice in pair
    else:
        assert choice == base


def test_a_budget_that_gives_every_action_enough_deals_compares_them_all_at_once():
    env = _at_choice("kyo-kabu", 2, "bet")
    k = len(env.legal_actions())

    class Recording(SearchAgent):
        def playouts_by_deal(self, source, seat, k, budget=None, actions=None, chain=None, most=None, settle=None):
            rows = super().playouts_by_deal(source, seat, k, budget, actions, chain, most, settle)
            self.calls.append((actions, len(rows)))
            return rows

    for budget, screened in ((k * MIN_DEALS, False), (k * MIN_DEALS - 1, True)):
        bot = Recording(env.game, 5, budget=budget)
        bot.calls = []
        bot.act_from(env._st)
        if screened:
            assert bot.calls[0][0] is None and bot.calls[0][1] < MIN_DEALS  # a screening on fewer deals
        else:
            assert bot.calls == [(None, MIN_DEALS)]  # every action on the same MIN_DEALS deals, once


def test_short_playouts_get_more_deals_in_the_same_moves():
    # a dealer's last choice is played out in a few moves: with short=4, more deals than budget /
    # actions, up to 4 times as many; a long round's first card play is held by the moves
    env = _at_choice("kyo-kabu", 3, "dealer_third")
    assert len(SearchAgent(env.game, 5, budget=40).playouts_by_deal(env._st, env.current_player, 2)) == 40 // 2
    bot = SearchAgent(env.game, 5, budget=40, short=4)
    rows = bot.playouts_by_deal(env._st, env.current_player, 2)
    assert 40 // 2 < len(rows) <= 4 * 40 // 2
    assert bot.moves <= MOVES * 40
    env = Env("kakkuri", seed=3, rounds=1)
    while len(env.legal_actions()) < 2:
        env.step(0)
    k = len(env.legal_actions())
    bot = SearchAgent(env.game, 5, budget=40, short=4)
    rows = bot.playouts_by_deal(env._st, env.current_player, k)
    per_deal = bot.moves / len(rows)
    assert per_deal > k * MOVES / 4            # long playouts: the moves, not `short`, set the count
    assert bot.moves <= MOVES * 40 + per_deal  # (the last deal may pass the limit it started under)
    assert len(rows) * k < 4 * 40


@pytest.mark.parametrize("gid", SEED_GAMES)
def test_each_games_policy_list_says_what_search_does_its_budget_and_weaknesses(gid, capsys):
    from rulekit.cli.main import main
    from rulekit.engine.search import DEFAULT_BUDGET
    assert main(["policies", gid]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.strip().startswith("search:"))
    assert f"{DEFAULT_BUDGET} playouts a decision" in line
    assert "weaknesses" in line and "knew every card" in line

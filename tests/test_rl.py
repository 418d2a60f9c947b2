"""PettingZoo: every shipped variant passes the AEC API test, with action masks."""
from __future__ import annotations

import os
import random

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pip install 'rulekit[rl]') is not installed")

from pettingzoo.test import api_test  # noqa: E402

from rulekit.api.rl import aec_env  # noqa: E402

from .conftest import playable  # noqa: E402

IDS = [os.path.basename(p)[:-5] for p in playable()]


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("vid", IDS)
def test_api_test_passes(vid):
    api_test(aec_env(vid), num_cycles=400)


def test_masks_allow_exactly_the_legal_actions_and_rewards_add_up():
    env = aec_env("kyo-kabu", players=4, rounds=2)
    env.reset(seed=9)
    rng = random.Random(9)
    totals = {a: 0 for a in env.possible_agents}
    for agent in env.agent_iter(max_iter=10_000):
        obs, reward, term, trunc, _info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = env.env.legal_actions()
        allowed = [int(c) for c in obs["action_mask"].nonzero()[0]]
        assert len(allowed) == len(legal)
        outside = next(c for c in range(env.max_actions) if c not in allowed)
        with pytest.raises(ValueError):
            env.step(outside)  # outside the mask
        env.step(rng.choice(allowed))
    assert sum(totals.values()) == 0
    assert [totals[a] for a in env.possible_agents] == env.env.rewards


@pytest.mark.parametrize("vid", IDS)
def test_returns_equal_the_games_chip_changes_in_every_seeded_episode(vid):
    from rulekit.engine.runner import play
    from rulekit.engine.agents import ScriptedAgent
    env = aec_env(vid)
    game = env.env.game
    rng = random.Random(1)
    for episode in range(300):
        env.reset(seed=episode)
        returns = {a: 0 for a in env.possible_agents}
        for agent in env.agent_iter(max_iter=100_000):
            obs, reward, term, trunc, _info = env.last()
            returns[agent] += reward
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(list(obs["action_mask"].nonzero()[0]))))
        # the same game played by the callback runner with the same choices
        moves = env.env.moves
        n = env.env.players
        # the game's own seed, from the referee's Env (drawn from the reset's seed, never shown to a seat)
        expected = play(game, n, env.env.seed, [ScriptedAgent(moves)] * n, rounds=1, logging=False).chips
        start = env.env._start_chips()
        assert [returns[a] for a in env.possible_agents] == [c - start for c in expected], (vid, episode)


@pytest.mark.parametrize("action", [1.9, "1", True, float("inf"), float("nan"), [0], None])
def test_a_step_refuses_anything_but_a_legal_action_code(action):
    env = aec_env("otoroku")
    env.reset(seed=1)
    with pytest.raises((TypeError, ValueError)) as exc:
        env.step(action)
    assert "action" in str(exc.value)


@pytest.mark.parametrize("bad", [0, -1, 2.5, True])
def test_max_actions_must_be_a_whole_number_of_at_least_one(bad):
    with pytest.raises(ValueError, match="max_actions"):
        aec_env("otoroku", max_actions=bad)


def test_a_step_after_the_game_is_over_says_so():
    env = aec_env("kyo-kabu")
    env.reset(seed=2)
    for agent in env.agent_iter():
        _obs, _r, term, trunc, _i = env.last()
        env.step(None if term or trunc else int(env.last()[0]["action_mask"].nonzero()[0][0]))
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=3)
    agent = env.agent_selection
    env.terminations[agent] = True  # a finished agent may only pass None
    with pytest.raises(ValueError, match="None"):
        env.step(0)


def _decisions(vid, seeds, rng_seed):
    """Every decision of random play over `seeds`: (inner env, pending decision, its action codes),
    stepped on by a random legal action after each is looked at."""
    from rulekit.api.encoding import action_codes
    env = aec_env(vid)
    inner = env.env
    rng = random.Random(rng_seed)
    for seed in range(seeds):
        inner.reset(seed)
        while not inner.done:
            codes = action_codes(inner, env.max_actions)
            yield inner, inner._st.pending, codes
            inner.step(rng.randrange(len(codes)))


def test_action_codes_mean_the_same_card_at_every_decision():
    seen = 0
    for _inner, d, codes in _decisions("hana-awase", 3, 5):
        if d.choice.types == ("card",):
            assert codes == [a[0] for a in d.actions]  # a card's code is its index in the deck
            seen += 1
    assert seen > 0


def test_a_bet_has_one_code_whatever_else_is_legal():
    from rulekit.api.encoding import INT_RADIX
    bets = 0
    for _inner, d, codes in _decisions("kyo-kabu", 5, 2):
        if d.choice.id == "bet":
            assert codes == [(h + 1) * INT_RADIX + a + 1 for h, a in d.actions]
            bets += 1
    assert bets > 0


@pytest.mark.parametrize("vid", ["kakkuri", "dare"])
def test_a_list_of_cards_has_one_code_at_every_decision(vid):
    """Kakkuri's plays and Dare's sets: bit i of a code is the i-th card (by deck index) of the
    seat's hand, so a code names the same cards of the hand at every decision, whatever else is legal."""
    from rulekit.api.encoding import INT_RADIX, list_bits
    env = aec_env(vid)
    bits = list_bits(env.env)
    assert bits > 0
    checked = 0
    for inner, d, codes in _decisions(vid, 6, 3):
        if d.choice.types[0].startswith("list<"):
            hand = sorted(inner._st.ctx.zones["hand"][d.player])
            for a, code in zip(d.actions, codes):
                assert code < env.max_actions
                rest = 1
                for t, v in zip(reversed(d.choice.types[1:]), reversed(a[1:])):
                    assert t == "int"
                    assert code % INT_RADIX == v + 1
                    code //= INT_RADIX
                    rest *= INT_RADIX
                assert code < 1 << bits
                chosen = {c for part in a[0] for c in (part if isinstance(part, (list, tuple)) else [part])}
                assert {hand[i] for i in range(bits) if code >> i & 1} == chosen
            if vid == "kakkuri":  # every play puts down other cards: one code each
                assert len(set(codes)) == len(codes)
            checked += 1
    assert checked > 20

"""One seat as a Gymnasium environment: spaces, rewards that add up, the other seats' bots."""
from __future__ import annotations

import pytest

pytest.importorskip("gymnasium", reason="the rl extra (pip install 'rulekit[rl]') is not installed")

import numpy as np  # noqa: E402

from rulekit.api.single import gym_env  # noqa: E402
from rulekit.engine.runner import play  # noqa: E402
from rulekit.engine.agents import ScriptedAgent  # noqa: E402


def test_spaces_are_gymnasium_spaces_and_a_seed_fixes_the_episode():
    import gymnasium
    env = gym_env("kyo-kabu", seat=1)
    assert isinstance(env.observation_space, gymnasium.spaces.Box)
    assert isinstance(env.action_space, gymnasium.spaces.Discrete)
    a, _ = env.reset(seed=123)
    b, _ = env.reset(seed=123)
    assert env.observation_space.contains(a) and (a == b).all()
    c, _ = env.reset(seed=np.random.default_rng(5))
    assert env.observation_space.contains(c)


@pytest.mark.parametrize("vid", ["otoroku", "kyo-kabu", "dare"])
def test_rewards_add_up_to_the_seats_chip_change_and_others_play_their_bots(vid):
    env = gym_env(vid, seat=0, others="random")
    rng = np.random.default_rng(0)
    for seed in range(30):
        obs, info = env.reset(seed=seed)
        total, done = info.get("reward", 0), env.env.done
        assert info.get("over", False) == done
        while not done:
            assert env.observation_space.contains(obs)
            action = int(rng.choice(info["action_mask"].nonzero()[0]))
            obs, reward, done, _trunc, info = env.step(action)
            total += reward
        assert total == env.env.rewards[0]
        # the other seats made the moves their bots make in rulekit.play with the same seed
        moves = env.env.moves
        res = play(env.env.game, env.env.players, seed, [ScriptedAgent(moves)] * env.env.players, rounds=1,
                   logging=False)
        assert res.chips == [c + env.env._start_chips() for c in env.env.rewards]


def test_bad_arguments_name_themselves():
    with pytest.raises(ValueError, match="seat"):
        gym_env("otoroku", seat=9)
    with pytest.raises(ValueError, match="others"):
        gym_env("otoroku", others="nobody")
    env = gym_env("otoroku")
    env.reset(seed=1)
    with pytest.raises(TypeError, match="action"):
        env.step(1.5)

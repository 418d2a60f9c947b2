"""Hostile arguments to the Python API (Env, its observations and steps, PettingZoo): refused at
the boundary with a TypeError or ValueError that names the argument, never coerced or failing deep."""
from __future__ import annotations

import math

import pytest

from rulekit.api.env import Env

ENV_CASES = [
    ({"players": 0}, "players"), ({"players": -3}, "players"), ({"players": 2.0}, "players"),
    ({"dealer": 99}, "dealer"), ({"dealer": -1}, "dealer"), ({"dealer": "0"}, "dealer"),
    ({"seed": 1.5}, "seed"), ({"seed": "x"}, "seed"), ({"seed": False}, "seed"), ({"seed": [1]}, "seed"),
    ({"rounds": 0}, "rounds"), ({"rounds": -5}, "rounds"), ({"rounds": 1.5}, "rounds"),
]


@pytest.mark.parametrize("kwargs, name", ENV_CASES)
def test_env_refuses_nonsense(kwargs, name):
    with pytest.raises((TypeError, ValueError)) as exc:
        Env("otoroku", **kwargs)
    assert name in str(exc.value)


@pytest.mark.parametrize("seat", [-1, 99, 5, 1.0, "1", True, None])
def test_observations_refuse_a_seat_not_at_the_table(seat):
    env = Env("otoroku", seed=1)
    for method in (env.observation, env.observation_vector):
        with pytest.raises((TypeError, ValueError)) as exc:
            method(seat)
        assert "seat" in str(exc.value)


@pytest.mark.parametrize("action", [1.9, "1", True, math.inf, math.nan, [0], None, -1, 99, {"nonsense": 1}])
def test_env_steps_refuse_coercions(action):
    from rulekit.core.errors import IllegalAction
    env = Env("otoroku", seed=1)
    with pytest.raises((TypeError, ValueError, IllegalAction)):  # IllegalAction: a dict not among the legal ones
        env.step(action)
    assert env.moves == []


def test_reset_refuses_a_float_or_text_seed():
    env = Env("otoroku", seed=1)
    for bad in (1.5, "x", True):
        with pytest.raises(TypeError, match="seed"):
            env.reset(bad)


pz = pytest.importorskip("pettingzoo", reason="the rl extra is not installed")


@pytest.mark.parametrize("action", [1.9, "1", True, math.inf, math.nan, [0], -1, 10 ** 9])
def test_pettingzoo_steps_refuse_coercions(action):
    from rulekit.api.rl import aec_env
    env = aec_env("otoroku")
    env.reset(seed=1)
    with pytest.raises((TypeError, ValueError)) as exc:
        env.step(action)
    assert "action" in str(exc.value)
    assert env.env.moves == []


@pytest.mark.parametrize("bad", [0, -1, 1.5, "8", True])
def test_pettingzoo_max_actions_checked(bad):
    from rulekit.api.rl import aec_env
    with pytest.raises(ValueError, match="max_actions"):
        aec_env("otoroku", max_actions=bad)


def test_pettingzoo_step_on_a_finished_game_is_one_clear_error():
    from rulekit.api.rl import aec_env
    env = aec_env("kyo-kabu")
    env.reset(seed=4)
    for _agent in env.agent_iter():
        obs, _r, term, trunc, _i = env.last()
        env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(None)

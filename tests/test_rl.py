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
        assert int(obs["action_mask"].sum()) == len(legal)
        with pytest.raises(ValueError):
            env.step(len(legal))  # just outside the mask
        env.step(rng.randrange(len(legal)))
    assert sum(totals.values()) == 0
    assert [totals[a] for a in env.possible_agents] == env.env.rewards

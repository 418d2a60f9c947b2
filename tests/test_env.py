"""The step environment: one engine behind callbacks and stepping, same logs, only visible cards."""
from __future__ import annotations

import json
import os
import random

import pytest

from rulekit import Env, load_variant
from rulekit.engine.agents import ScriptedAgent
from rulekit.engine.build import build_game
from rulekit.engine.runner import play
from .conftest import playable

IDS = [os.path.basename(p)[:-5] for p in playable()]


@pytest.mark.parametrize("vid", IDS)
def test_stepping_gives_the_same_log_as_play_with_the_same_choices(vid):
    env = Env(vid, seed=11, rounds=2)
    rng = random.Random(vid)
    while not env.done:
        legal = env.legal_actions()
        assert legal, "a pending decision always has a legal action"
        env.step(rng.randrange(len(legal)))
    res = play(env.game, env.players, 11, [ScriptedAgent(env.moves)] * env.players, rounds=2, logging=True)
    assert res.events == env.events
    assert res.log["events_sha256"] == env.result.log["events_sha256"]
    assert res.chips == env.result.chips
    assert sum(env.rewards) == 0  # chips only move between seats (and pots emptied by the end)
    # chance is logged: the shuffles are in the events
    assert any(e["t"] == "shuffle" for e in env.events)


def test_actions_can_be_given_as_dicts_and_bad_ones_are_refused():
    env = Env("kyo-kabu", seed=3, players=4)
    first = env.legal_actions()[0]
    env.step(dict(first))
    assert len(env.moves) == 1 and env.moves[0] == 0
    with pytest.raises(Exception, match="illegal action"):
        env.step({"no_such_parameter": 1})


def test_an_observation_shows_only_what_that_seat_may_see():
    # Kakkuri: each player's hand is seen by its owner only, once they look after the blind exchange
    env = Env("kakkuri", seed=5)
    while env.pending.choice == "exchange":
        env.step(0)
    p = env.current_player
    mine = env.observation(p)["zones"]["hand"]
    assert all(c != "?" for c in mine[p]) and mine[p]
    for other in range(env.players):
        if other != p:
            assert mine[other] and all(c == "?" for c in mine[other])
            assert all(c != "?" for c in env.observation(other)["zones"]["hand"][other])
    json.dumps(mine)  # plain data
    vec = env.observation_vector(p)
    assert len(vec) == env.vector_size()
    # the vector's card parts hold exactly the cards the JSON view shows
    shown = sum(1 for z in env.observation(p)["zones"].values()
                for c in (sum(z, []) if z and isinstance(z[0], list) else z) if c != "?")
    cards = sum(sum(vec[a:a + k]) for name, a, k in env.vector_layout() if name.startswith("cards:"))
    assert cards == shown


def test_the_game_is_the_same_object_the_callback_runner_uses():
    game = build_game(load_variant("kyo-kabu"))
    env = Env(game, seed=2, players=3, rounds=1)
    assert env.game is game
    while not env.done:
        env.step(len(env.legal_actions()) - 1)
    assert env.result is not None and len(env.result.round_deltas) == 1
    with pytest.raises(RuntimeError, match="over"):
        env.step(0)
    env.reset(seed=4)
    assert not env.done and env.moves == []


def test_load_variant_accepts_an_id_wherever_a_path_is_accepted():
    assert load_variant("kyo-kabu").meta.id == "kyo-kabu"
    from rulekit import RulekitError
    with pytest.raises(RulekitError, match="no-such-game"):
        load_variant("no-such-game")


def test_rulekit_simulate_is_the_function_whatever_was_imported_first():
    import rulekit
    import rulekit.analysis.simulate  # noqa: F401  (a submodule named like the function)
    stats = rulekit.simulate(build_game(load_variant("kyo-kabu")), 4, 20, seed=3)
    assert stats.rounds == 20

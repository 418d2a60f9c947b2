"""Observations follow visibility: re-dealing the cards a seat cannot see never changes what it observes."""
from __future__ import annotations

import os
import random

import pytest

from rulekit.api.env import Env, Inconsistent
from rulekit.engine.build import build_game, check_variant, load_variant

from .conftest import playable

IDS = [os.path.basename(p)[:-5] for p in playable()]


def _state(env):
    return env._st.ctx.zones


@pytest.mark.parametrize("vid", IDS)
def test_an_observation_is_the_same_in_every_deal_of_the_cards_a_seat_has_not_seen(vid):
    game = build_game(load_variant(vid))
    rng = random.Random(0)
    views = moved = 0
    for seed in range(2):
        env = Env(game, seed=seed, rounds=1)
        decisions = 0
        while not env.done and decisions < 30:
            for seat in range(env.players) if decisions % 2 == seed else ():
                try:
                    other = env.sample_unseen(seat, rng, tries=20)
                except Inconsistent:
                    continue  # the moves so far pin every unseen card down too tightly to re-deal
                assert other.observation(seat) == env.observation(seat), (vid, seed, decisions, seat)
                assert other.observation_vector(seat) == env.observation_vector(seat)
                assert other.legal_actions() == env.legal_actions() or other.current_player != seat
                views += 1
                moved += _state(other) != _state(env)
            env.step(rng.randrange(len(env.legal_actions())))
            decisions += 1
    assert views > 0
    assert moved > 0  # the sampler really deals other cards (the check above is not vacuous)


def test_a_sample_keeps_what_the_seat_has_seen_and_every_move():
    env = Env("kakkuri", seed=3)
    rng = random.Random(3)
    for _ in range(30):
        env.step(rng.randrange(len(env.legal_actions())))
    seat = env.current_player
    mine = env.observation(seat)["zones"]["hand"][seat]
    for k in range(5):
        other = env.sample_unseen(seat, random.Random(k))
        assert other.observation(seat)["zones"]["hand"][seat] == mine
        assert other.moves == env.moves
        # a sample is a game like any other: it plays on to the end
        while not other.done:
            other.step(0)
        assert sum(other.rewards) == 0


def test_hidden_variables_are_not_shown_and_public_ones_are():
    env = Env("otoroku", seed=1)
    obs = env.observation(0)
    vis = env.game.extra.caches.var_visibility
    assert "strength" not in obs["vars"]       # computed from face-down cards
    assert "share_amt" in obs["vars"]          # set from the options and the dealer's choice
    assert vis["strength"] == "hidden"


def _write(tmp_path, text):
    src = open(load_variant("otoroku").file, encoding="utf-8").read()
    path = tmp_path / "otoroku.yaml"
    path.write_text(src.replace('  strength: {per: player, init: 0,', text), encoding="utf-8")
    return str(path)


def test_validate_reports_a_public_variable_computed_from_hidden_cards(tmp_path):
    diags = check_variant(_write(tmp_path, "  strength: {per: player, visibility: public, init: 0,"))
    assert [d.code for d in diags] == ["E043"]
    assert "strength" in diags[0].message and diags[0].span.line > 1
    assert check_variant(_write(tmp_path, "  strength: {per: player, visibility: owner, init: 0,")) == []


def test_an_owner_variable_shows_each_seat_its_own_value(tmp_path):
    game = build_game(load_variant(_write(tmp_path, "  strength: {per: player, visibility: owner, init: 0,")))
    env = Env(game, seed=2)
    while not env.done and all(v == 0 for v in env._st.ctx.vars["strength"]):
        env.step(0)
    for seat in range(env.players):
        shown = env.observation(seat)["vars"]["strength"]
        assert shown[seat] == env._st.ctx.vars["strength"][seat]
        assert all(v is None for i, v in enumerate(shown) if i != seat)

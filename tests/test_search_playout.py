"""A policy may name a cheaper stand-in the search bot plays in its playouts (`playout: greedy`):
the bot plays it out at every seat, still falls back on and reads the others by its base; an
unknown name is an error at the key."""
from __future__ import annotations

import pytest

from rulekit import Env, build_game
from rulekit.engine.build import check_variant, load_variant
from rulekit.engine import search
from rulekit.engine.search import SearchAgent

from .test_policy_extends import BASE, POLICIES, _game

PLAYOUT = POLICIES.replace("    description: Never take a third card.\n",
                           "    description: Never take a third card.\n    playout: draw\n")


def _at_third(game) -> Env:
    """A game of the tutorial variant played by `stand` up to a third-card choice with two actions."""
    env = Env(game, seed=4, players=game.variant.meta.players_max, rounds=3)
    stand = [env.bot("stand", s) for s in range(env.players)]
    while not (env._st.pending.choice.id == "third" and len(env.legal_actions()) > 1):
        env.step(stand[env.current_player].act(env))
    return env


def test_the_named_stand_in_is_what_the_playouts_play(tmp_path, monkeypatch):
    game = build_game(load_variant(_game(tmp_path, PLAYOUT)))
    assert game.policies["stand"]["playout"] == "draw"
    # inherited with the description (extends: stand), so `draw` too plays itself out
    assert game.policies["stand-too"]["playout"] == game.policies["draw"]["playout"] == "draw"
    assert "playout" not in build_game(load_variant(_game(tmp_path, POLICIES))).policies["stand"]
    assert SearchAgent(game, 0, base="stand").playout == "draw"
    assert SearchAgent(game, 0, base="draw").playout == "draw"
    assert SearchAgent(game, 0, base="stand", playout="stand").playout == "stand"
    # every move of a playout is the stand-in's; the deals are still weighed by the base's choices
    played: list[str] = []

    class Recorded(search.PolicyAgent):
        def act(self, d):
            played.append(self.policy)
            return super().act(d)

    monkeypatch.setattr(search, "PolicyAgent", Recorded)
    env = _at_third(game)
    bot = SearchAgent(game, 9, base="stand", budget=40)
    assert bot.playouts_by_deal(env._st, env.current_player, len(env.legal_actions()))
    assert played and set(played) == {"draw"}
    assert bot._chain(env._st, env.current_player).model.__self__.policy == "stand"


def test_an_unknown_stand_in_is_located_with_did_you_mean(tmp_path):
    diags = [d for d in check_variant(_game(tmp_path, PLAYOUT.replace("playout: draw", "playout: drwa")))
             if d.severity == "error"]
    line = next(i for i, ln in enumerate((BASE + PLAYOUT).splitlines(), 1) if "playout: draw" in ln)
    assert [(d.span.line, d.code) for d in diags] == [(line, "E040")]
    assert diags[0].message == "policy 'stand': playout: no policy 'drwa'" and "draw" in diags[0].hint


def test_a_playout_policy_the_game_does_not_have_is_refused(tmp_path):
    game = build_game(load_variant(_game(tmp_path, PLAYOUT)))
    with pytest.raises(ValueError, match="playout: expected a policy of the game .*found 'nobody'"):
        SearchAgent(game, 0, playout="nobody")

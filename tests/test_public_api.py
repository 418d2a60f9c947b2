"""The public API names a game in any of four ways, and says which argument is wrong."""
from __future__ import annotations

import pytest

import rulekit

ARGS = dict(players=7, rounds=600, seed=1)


def test_id_path_variant_and_game_give_the_same_totals():
    by_id = rulekit.simulate("kakkuri", **ARGS)
    variant = rulekit.load_variant("kakkuri")
    by_variant = rulekit.simulate(variant, **ARGS)
    by_game = rulekit.simulate(rulekit.build_game(variant), **ARGS)
    by_path = rulekit.simulate(variant.file, **ARGS)
    assert by_id.rounds == 600 and any(by_id.total)
    assert by_id.total == by_variant.total == by_game.total == by_path.total
    assert by_id.records == by_game.records


def test_jobs_do_not_change_the_totals_of_a_built_game():
    game = rulekit.build_game("kyo-kabu", {"tie": "dealer"})
    one = rulekit.simulate(game, players=4, rounds=1200, seed=5)
    two = rulekit.simulate(game, players=4, rounds=1200, seed=5, jobs=2)
    assert one.total == two.total


def test_the_default_policy_is_the_games_careful_one_as_on_the_command_line():
    plain = rulekit.simulate("otoroku", players=5, rounds=300, seed=3)
    assert plain.total == rulekit.simulate("otoroku", players=5, rounds=300, seed=3, policy="careful").total
    assert plain.total != rulekit.simulate("otoroku", players=5, rounds=300, seed=3, policy="random").total
    game = rulekit.play("otoroku", players=5, seed=3, rounds=1)
    assert game.log["moves"] == rulekit.play("otoroku", players=5, seed=3, rounds=1, agents="careful").log["moves"]


def test_options_apply_to_an_id_and_are_refused_with_a_game():
    base = rulekit.simulate("kyo-kabu", players=4, rounds=400, seed=2)
    dealer = rulekit.simulate("kyo-kabu", players=4, rounds=400, seed=2, options={"tie": "dealer"})
    assert base.total != dealer.total  # ties now go to the dealer
    with pytest.raises(ValueError, match="game: a built Game already has its options"):
        rulekit.simulate(rulekit.build_game("kyo-kabu"), rounds=10, options={"tie": "dealer"})


@pytest.mark.parametrize("kwargs, error, words", [
    (dict(game=3), TypeError, "game: expected a variant id, a path, a Variant or a Game, found int"),
    (dict(game=""), ValueError, "game: expected a variant id or path"),
    (dict(players=99), ValueError, "players: expected 2 to 8, found 99"),
    (dict(rounds=0), ValueError, "rounds: expected at least 1, found 0"),
    (dict(rounds=2.5), TypeError, "rounds: expected a whole number, found float"),
    (dict(seed=True), TypeError, "seed: expected a whole number, found bool"),
    (dict(jobs=0), ValueError, "jobs: expected 1 to 64, found 0"),
    (dict(policy="nosuch"), ValueError, "policy: unknown policy 'nosuch'"),
    (dict(options=["tie"]), TypeError, "options: expected a dict"),
])
def test_a_wrong_argument_is_named(kwargs, error, words):
    kwargs = {"game": "kyo-kabu", "rounds": 5, **kwargs}
    with pytest.raises(error) as exc:
        rulekit.simulate(**kwargs)
    assert words in str(exc.value)


def test_play_takes_a_policy_name_and_checks_the_seats():
    res = rulekit.play("otoroku", 3, 5, "careful", rounds=1)
    assert sum(res.chips) == 0 and len(res.chips) == 3
    with pytest.raises(ValueError, match="agents: expected one agent per seat"):
        rulekit.play("otoroku", 3, 5, [object()], rounds=1)
    assert "careful" in rulekit.policies("otoroku") and rulekit.policies("otoroku")[0] == "random"


def test_all_names_exist():
    for name in rulekit.__all__:
        assert getattr(rulekit, name) is not None

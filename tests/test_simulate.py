"""Simulation: totals independent of processes and chunking; each round replayable on its own."""
import os

from rulekit.build import build_game, load_variant
from rulekit.engine.runner import Stats, make_agents, play, round_seed, run_chunk
from rulekit.simulate import simulate

from .conftest import VARIANTS

KYO = os.path.join(VARIANTS, "kabufuda", "kyo-kabu.yaml")


def game():
    return build_game(load_variant(KYO))


def test_two_processes_give_the_totals_of_one():
    g = game()
    one = simulate(g, 5, 1200, seed=4, jobs=1)
    two = simulate(g, 5, 1200, seed=4, jobs=2, variant_args=(KYO, {}, None, None))
    assert one.rounds == two.rounds == 1200
    assert one.to_json() == two.to_json()


def test_chunks_merge_to_the_whole():
    g = game()
    whole = run_chunk(g, 5, 9, 0, 300)
    parts = run_chunk(g, 5, 9, 0, 120).merge(run_chunk(g, 5, 9, 120, 180))
    assert whole.to_json() == parts.to_json()


def test_every_simulated_round_is_the_seeded_game_of_one_round():
    """run_chunk reuses its agents between rounds; each round must still be exactly play() of
    round_seed(seed, i) with fresh agents, so any round of a run can be replayed alone."""
    g = game()
    stats = run_chunk(g, 5, 11, 40, 60)
    expect = Stats()
    for i in range(40, 100):
        s = round_seed(11, i)
        res = play(g, 5, s, make_agents(g, 5, s), rounds=1, logging=False, dealer=0)
        expect.add_round(res.round_deltas[0], res.records)
    assert stats.to_json() == expect.to_json()
    assert stats.total != [0] * 5  # chips did move

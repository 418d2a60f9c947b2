"""Simulation: totals independent of processes and chunking; each round replayable on its own."""
import os

import pytest

from rulekit.engine.build import build_game, load_variant
from rulekit.engine.runner import Stats, make_agents, play, round_seed, run_chunk
from rulekit.analysis.simulate import simulate

from .conftest import VARIANTS, playable, rel

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


def test_totals_added_in_blocks_are_the_totals_of_each_round(monkeypatch):
    """run_chunk adds its rounds' chip changes to the totals in blocks (one flat list of numbers)
    and each round's records as it ends: the same Stats as adding every round on its own, whatever
    the block's size, and the rows it hands back are the rounds' chip changes."""
    from rulekit.engine import runner
    g = game()
    rows: list[list[int]] = []
    one = run_chunk(g, 5, 3, 0, 50, rows=rows)
    each = Stats()
    for i, row in enumerate(rows):
        s = round_seed(3, i)
        res = play(g, 5, s, make_agents(g, 5, s), rounds=1, logging=False, dealer=0)
        assert row == res.round_deltas[0]
        each.add_round(row, res.records)
    assert len(rows) == 50 and one.to_json() == each.to_json()
    assert (one.total, one.total_sq, one.records_sq) == (each.total, each.total_sq, each.records_sq)
    monkeypatch.setattr(runner, "STATS_BLOCK", 7)  # blocks of 7 rounds: 7 blocks and a part
    small = run_chunk(g, 5, 3, 0, 50)
    assert (small.to_json(), small.total_sq, small.records_sq) == (one.to_json(), one.total_sq, one.records_sq)


def test_a_run_asked_to_stop_keeps_the_rounds_played(monkeypatch):
    """run_chunk asks `stop` before each round: told to stop before round k (in a block, or at a
    block's start), it returns the first k rounds' totals, as a run of k rounds gives them."""
    from rulekit.engine import runner
    g = game()
    monkeypatch.setattr(runner, "STATS_BLOCK", 16)
    for k in (0, 5, 16, 37):
        asked = []
        got = run_chunk(g, 5, 3, 10, 60, stop=lambda: asked.append(1) or len(asked) > k)
        assert got.rounds == k and len(asked) == k + 1
        assert got.to_json() == run_chunk(g, 5, 3, 10, k).to_json() if k else got.to_json() == Stats().to_json()


def test_records_added_in_blocks_are_added_as_each_rounds():
    """Stats.add_record_dicts (counted in C, a name recorded v times counted as v items) gives the
    totals, squares and order of names that add_records gives round by round, small counts or not."""
    import random
    rng = random.Random(5)
    names = ["yaku:a", "buta", "yaku:b", "redeal", "yaku:c"]
    for most in (1, 3, 40, 500):  # (counts up to 500: past the items-in-C bound, added one by one)
        recs = [{k: rng.randint(1, most) for k in rng.sample(names, rng.randint(1, 4))} for _ in range(60)]
        each, block = Stats(), Stats()
        for rec in recs:
            each.add_records(rec)
        block.add_record_dicts(recs)
        assert list(block.records.items()) == list(each.records.items())
        assert list(block.records_sq.items()) == list(each.records_sq.items())


def test_chips_ended_with_add_up_as_their_changes():
    """Stats.add_flat of the chips each round ended with, the rounds having started with `start`,
    gives the totals of the changes (chips less start)."""
    import random
    rng = random.Random(2)
    chips = [rng.randint(-30, 60) for _ in range(5 * 40)]
    for start in (0, 20, -7):
        ended, changed = Stats(), Stats()
        ended.add_flat(chips, 5, start)
        changed.add_flat([x - start for x in chips], 5)
        assert (ended.total, ended.total_sq, ended.wins, ended.losses, ended.rounds) == \
            (changed.total, changed.total_sq, changed.wins, changed.losses, changed.rounds)
    mini = build_game(load_variant(os.path.join(os.path.dirname(__file__), "fixtures", "valid", "mini-kabu.yaml")))
    assert mini.start_chips != 0  # (a game starting with chips: run_chunk's totals are still the changes)
    rows: list[list[int]] = []
    run = run_chunk(mini, 3, 4, 0, 30, rows=rows)
    each = Stats()
    for row in rows:
        each.add_flat(row, 3)
    assert (run.total, run.total_sq, run.wins, run.losses) == (each.total, each.total_sq, each.wins, each.losses)
    assert any(any(row) for row in rows)  # (chips changed hands)


@pytest.mark.parametrize("path", [pytest.param(f, id=rel(f)) for f in playable()])
def test_every_simulated_round_is_the_seeded_game_of_one_round(path):
    """run_chunk restarts one state and reuses its agents between rounds; each round must still be
    exactly play() of round_seed(seed, i) with fresh agents, so any round of a run can be replayed
    alone."""
    v = load_variant(path)
    g = build_game(v)
    n = v.meta.players_default
    stats = run_chunk(g, n, 11, 40, 40)
    expect = Stats()
    for i in range(40, 80):
        s = round_seed(11, i)
        res = play(g, n, s, make_agents(g, n, s), rounds=1, logging=False, dealer=0)
        expect.add_round(res.round_deltas[0], res.records)
    assert stats.to_json() == expect.to_json()
    assert stats.total != [0] * n or stats.records  # something happened
    # a watched run (the site's example finder, --check) plays the very same rounds: same dealer each round
    checked = run_chunk(g, n, 11, 40, 40, checks=lambda *_: None)
    assert checked.to_json() == expect.to_json()


@pytest.mark.parametrize("path", [pytest.param(f, id=rel(f)) for f in playable()])
def test_a_restarted_state_is_a_new_one(path):
    """Game.restart after a played round leaves the state new_ctx would give for that seed."""
    v = load_variant(path)
    g = build_game(v)
    n = v.meta.players_default
    res = play(g, n, 3, make_agents(g, n, 3), rounds=2, logging=True)
    used = res.state
    g.restart(used, 8)
    fresh = g.new_ctx(n, 8, used.decide, True)
    for field in ("zones", "vars", "chips", "seen", "records", "events", "loc", "yaku_cache", "dealer",
                  "next_dealer", "round_no", "steps", "depth", "where", "stack", "budget", "n"):
        assert getattr(used, field) == getattr(fresh, field), field
    assert used.rng.getstate() == fresh.rng.getstate()


def test_the_engines_shuffle_is_pythons():
    """steps.shuffle_list deals as random.Random.shuffle of Python 3.11 does for the same seed
    (the goldens were recorded with it), and is a permutation for every length."""
    import random

    from rulekit.engine.steps import shuffle_list
    for seed in range(40):
        for n in range(0, 50, 7):
            mine, theirs = list(range(n)), list(range(n))
            shuffle_list(random.Random(seed), mine)
            random.Random(seed).shuffle(theirs)
            assert sorted(mine) == list(range(n))
            if random.Random._randbelow is random.Random._randbelow_with_getrandbits:
                assert mine == theirs, (seed, n)


def test_the_engines_cut_is_pythons_randrange():
    """steps.cut_point draws as random.Random.randrange(1, size) of Python 3.11 does: the same
    point, and the generator left in the same state (the goldens were recorded with it)."""
    import random

    from rulekit.engine.steps import cut_point
    for seed in range(60):
        for size in (2, 3, 4, 5, 8, 9, 17, 33, 40, 48, 65, 129, 1000):
            mine, theirs = random.Random(seed), random.Random(seed)
            got = cut_point(mine, size)
            assert 1 <= got < size
            if random.Random._randbelow is random.Random._randbelow_with_getrandbits:
                assert got == theirs.randrange(1, size), (seed, size)
                assert mine.getstate() == theirs.getstate(), (seed, size)


@pytest.mark.parametrize("path", [pytest.param(f, id=rel(f)) for f in playable()])
def test_every_round_played_by_the_rules_policies_is_the_seeded_game_of_one_round(path):
    """run_chunk with the rules' own policies (careful, and one seat random) restarts one state and
    makes each round's agents afresh: each round must be play() of round_seed(seed, i)."""
    v = load_variant(path)
    g = build_game(v)
    n = v.meta.players_default
    policies = [p for p in ("careful", "careful,0=random") if "careful" in g.policies] or ["first,1=random"]
    for policy in policies:
        rows: list[list[int]] = []
        stats = run_chunk(g, n, 5, 10, 25, policy, rows=rows)
        expect = Stats()
        for i in range(10, 35):
            s = round_seed(5, i)
            res = play(g, n, s, make_agents(g, n, s, policy), rounds=1, logging=False, dealer=0)
            expect.add_round(res.round_deltas[0], res.records)
            assert rows[i - 10] == res.round_deltas[0], (policy, i)
        assert stats.to_json() == expect.to_json(), policy

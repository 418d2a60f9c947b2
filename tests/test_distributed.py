"""Simulation on a Dask cluster: the same totals as one process, also when a worker dies."""
from __future__ import annotations

import os
import signal

import pytest

pytest.importorskip("dask.distributed", reason="the dask extra (pip install 'rulekit[dask]') is not installed")

from dask.distributed import Client, LocalCluster  # noqa: E402

from rulekit.engine.build import build_game, load_variant  # noqa: E402
from rulekit.analysis.distributed import simulate_on  # noqa: E402
from rulekit.lang.loader import find_variant, default_search_path  # noqa: E402
from rulekit.analysis.simulate import chunks, simulate  # noqa: E402

PATH = find_variant("kyo-kabu", None, default_search_path())
ARGS = (PATH, {}, None, None, ())


@pytest.fixture(scope="module")
def client():
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                           host="127.0.0.1", silence_logs=40)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


def _one_process(rounds: int, size: int):
    game = build_game(load_variant(PATH))
    from rulekit.engine.runner import Stats, run_chunk
    total = Stats()
    for s, k in chunks(rounds, size):
        total = total.merge(run_chunk(game, 4, 5, s, k))
    return total


def test_cluster_totals_equal_one_process(client):
    game = build_game(load_variant(PATH))
    on_cluster = simulate(game, 4, 3000, seed=5, client=client, variant_args=ARGS)
    alone = simulate(game, 4, 3000, seed=5, jobs=1)
    assert on_cluster.total == alone.total and on_cluster.records == alone.records
    assert on_cluster.rounds == 3000


def test_a_worker_killed_during_the_run_changes_nothing(client):
    pieces = chunks(4000, 40)  # many small chunks, so the kill lands mid-run
    killed = []

    def kill_one(_count):
        if not killed:
            pids = client.run(os.getpid)
            pid = sorted(pids.values())[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    total = simulate_on(client, ARGS, 4, pieces, 5, "random", on_chunk=kill_one)
    assert killed
    alone = _one_process(4000, 40)
    assert total.total == alone.total and total.records == alone.records and total.rounds == 4000


def test_an_edited_variant_file_is_never_answered_with_the_old_rules(client, tmp_path):
    # one cluster, two runs, the file edited in between: the workers must read it again
    src = open(find_variant("otoroku", None, default_search_path()), encoding="utf-8").read()
    path = tmp_path / "otoroku.yaml"
    path.write_text(src, encoding="utf-8")
    args = (str(path), {}, None, None, ())
    pieces = chunks(400, 100)

    def on_cluster():
        return simulate_on(client, args, 5, pieces, 3, "random")

    def here():
        return simulate(build_game(load_variant(str(path))), 5, 400, 3, "random", 1)

    first = on_cluster()
    assert first.total == here().total
    old = "  share:\n    type: int\n    default: 1\n"
    assert old in src
    path.write_text(src.replace(old, "  share:\n    type: int\n    default: 3\n"), encoding="utf-8")
    second = on_cluster()
    assert second.total == here().total  # the new rules' numbers
    assert second.total != first.total   # (and they differ from the old ones)


def test_workers_key_their_games_on_file_contents(tmp_path):
    from rulekit.analysis.workers import cached_game, content_digest
    src = open(find_variant("otoroku", None, default_search_path()), encoding="utf-8").read()
    path = tmp_path / "o.yaml"
    path.write_text(src, encoding="utf-8")
    args = (str(path), {}, None, None, ())
    built = []

    def build(a):
        built.append(a)
        return build_game(load_variant(a[0]))
    g1 = cached_game(args, build)
    assert cached_game(args, build) is g1 and len(built) == 1  # unchanged: kept
    before = content_digest(args, [str(path)])
    path.write_text(src + "\n# edited\n", encoding="utf-8")
    assert content_digest(args, [str(path)]) != before
    assert cached_game(args, build) is not g1 and len(built) == 2  # edited: built again

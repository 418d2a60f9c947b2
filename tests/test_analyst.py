"""The analyst's tools: declared statistics, whole games, per-seat policies, --compare per change,
JSON (schema-checked) and CSV output. Runs go through the command line entry point.

The four exact deal probabilities are the slowest tests here (marked `slow`; 19 s together
on a quiet machine, 77 s on a busy one, half of it Kyō-Kabu, whose dealer's second card comes
after the players' third cards, so its rounds are cut later): `pytest -m "not slow"` skips them.
"""
from __future__ import annotations

import csv
import json
import math
import os
from fractions import Fraction

import jsonschema
import pytest

from rulekit.engine.build import build_game, load_variant
from rulekit.cli.main import main
from rulekit.engine.runner import run_chunk
from rulekit.lang.schema import load_schema
from rulekit.engine.statsdecl import prepare

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUIDE = os.path.join(ROOT, "docs", "guides", "analyst")
SCHEMA = load_schema("simulate")


def run_json(capsys, *argv: str) -> dict:
    """Run `rulekit simulate ... --json -` and return the document (validated by the schema).

    The exact probabilities below are of cards nobody chooses, the same under any policy: they
    run with --policy random, the engine's fast path, not the careful default."""
    code = main(["simulate", *argv, "--json", "-", "--quiet"])
    out = capsys.readouterr()
    assert code == 0, out.err
    doc = json.loads(out.out)  # standard output holds the JSON alone
    jsonschema.validate(doc, SCHEMA)
    return doc


def within_3_sigma(rate_row: dict, exact: Fraction) -> None:
    p = float(exact)
    n = rate_row["readings"]
    sigma = math.sqrt(p * (1 - p) / n)
    assert n >= 100_000
    assert abs(rate_row["value"] - p) <= 3 * sigma, (rate_row, p, sigma)


def data_rows(path: str) -> list[list[str]]:
    """A --csv file's rows after its '# key: value' lines."""
    with open(path, encoding="utf-8") as fh:
        return list(csv.reader(line for line in fh if not line.startswith("#")))


def stat(doc: dict, name: str) -> dict:
    return next(s for s in doc["statistics"] if s["name"] == name)


# -- the exact probabilities, from the command line with a stats file ----------

@pytest.mark.slow
def test_kyo_kabu_dealer_first_9_second_1(capsys):
    doc = run_json(capsys, "kyo-kabu", "--rounds", "100000", "--jobs", "2",
                   "--policy", "random",
                   "--stats", os.path.join(GUIDE, "kyo-kabu-kuppin.yaml"))
    within_3_sigma(stat(doc, "dealer_9_then_1")["rows"][0], Fraction(4, 315))


@pytest.mark.slow
def test_otoroku_first_bettor_two_cards_16_or_more(capsys):
    doc = run_json(capsys, "otoroku", "--rounds", "100000", "--policy", "random",
                   "--stats", os.path.join(GUIDE, "otoroku-sixteen.yaml"))
    within_3_sigma(stat(doc, "first_bettor_16_plus")["rows"][0], Fraction(19, 130))


@pytest.mark.slow
def test_kakkuri_seat_holds_a_wild(capsys):
    doc = run_json(capsys, "kakkuri", "--rounds", "100000", "--jobs", "2",
                   "--policy", "random",
                   "--stats", os.path.join(GUIDE, "kakkuri-wild.yaml"))
    rows = stat(doc, "holds_wild")["rows"]
    assert [r["seat"] for r in rows] == list(range(7))
    within_3_sigma(rows[0], Fraction(89, 376))


@pytest.mark.slow
def test_dare_reference_value_zero(capsys):
    doc = run_json(capsys, "dare", "--rounds", "100000", "--jobs", "2",
                   "--policy", "random",
                   "--stats", os.path.join(GUIDE, "dare-reference.yaml"))
    within_3_sigma(stat(doc, "reference_zero")["rows"][0], Fraction(48, 481))


# -- statistics: read-only, free when absent, counted once per round ----------

def _game(name: str, **opts):
    return build_game(load_variant(os.path.join(ROOT, "variants", name)), opts)


def write(tmp_path, text: str, name: str = "s.yaml") -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_no_statistics_no_hooks():
    g = _game("kabufuda/kyo-kabu.yaml")
    assert prepare(g, None) is g and g.observer is None
    assert all(a.run is b.run for a, b in zip(g.phases, prepare(g, None).phases))


def test_reading_statistics_does_not_change_the_game(tmp_path):
    f = write(tmp_path, """
stats:
  dealer_total: {at: round, mean: "sum(dealer_hand, c -> c.value) % 10"}
  column_nine: {after: dealer-draw, per_seat: true, count: "seat < 4 and sum(column[seat] + hole[seat], c -> c.value) % 10 == 9"}
""")
    plain = _game("kabufuda/kyo-kabu.yaml")
    watched = prepare(plain, f)
    a = run_chunk(plain, 5, 7, 0, 300)
    b = run_chunk(watched, 5, 7, 0, 300)
    assert (a.total, a.total_sq, a.records) == (b.total, b.total_sq, b.records)
    assert b.custom["dealer_total"][0][0] == 300
    assert len(b.custom["column_nine"]) == 5 and b.custom["column_nine"][4][1] == 0


def test_every_deal_attempt_is_read_and_says_whether_it_was_redealt(tmp_path):
    f = write(tmp_path, """
stats:
  attempts: {at: deal, count: 'true'}
  misdeal: {at: deal, count: redealt}
  played: {at: deal, when: not redealt, count: 'true'}
  attempt_no: {at: deal, when: redealt, mean: attempt}
  rounds: {at: round, mean: attempt}
""")
    g = prepare(_game("hanafuda/hiraya.yaml"), f)
    st = run_chunk(g, 3, 1, 0, 400)
    redeals = st.records.get("redeal", 0)
    assert redeals > 0  # misdeals happened: each attempt is read, the played deal once per round
    assert st.custom["attempts"][0][:2] == [400 + redeals, 400 + redeals]
    assert st.custom["misdeal"][0][:2] == [400 + redeals, redeals]
    assert st.custom["played"][0][:2] == [400, 400]
    assert st.custom["attempt_no"][0][0] == redeals and st.custom["attempt_no"][0][1] >= redeals
    # at the end of the round, attempt is the number of deals the round took
    assert st.custom["rounds"][0][:2] == [400, 400 + redeals]


def test_when_makes_a_conditional_rate(tmp_path):
    f = write(tmp_path, """
stats:
  ref_zero_given_even: {at: deal, when: "ref % 2 == 0", count: "ref == 0"}
""")
    g = prepare(_game("kabufuda/dare.yaml"), f)
    n, k, _ = run_chunk(g, 4, 1, 0, 500).custom["ref_zero_given_even"][0]
    assert 150 < n < 350 and 0 < k < n  # about half the rounds have an even reference


@pytest.mark.parametrize("text, where, message", [
    ("stats:\n  x: {at: deal, count: 'ref = 0'}\n", ":2:", "expected"),
    ("stats:\n  x: {after: dael, count: 'true'}\n", ":2:3", "no phase 'dael'"),
    ("stats:\n  x: {at: deal, count: 'nosuch > 1'}\n", ":2:", "nosuch"),
    ("stats:\n  x: {at: dinner, count: 'true'}\n", ":2:", "dinner"),
    ("stats:\n  x: {at: deal}\n", ":2:", ""),
    ("stop_after: showdown\nstats:\n  x: {at: round, count: 'true'}\n", ":3:3", "stop_after"),
])
def test_errors_in_a_stats_file_are_located(tmp_path, capsys, text, where, message):
    f = write(tmp_path, text)
    code = main(["simulate", "dare", "--rounds", "10", "--stats", f, "--quiet"])
    err = capsys.readouterr().err
    assert code == 1
    assert f"s.yaml{where}" in err and message in err and "Traceback" not in err


def test_a_stat_read_out_of_range_is_located(tmp_path, capsys):
    f = write(tmp_path, "stats:\n  x: {at: deal, count: 'dealer_hand[5].value == 1'}\n")
    code = main(["simulate", "kyo-kabu", "--rounds", "10", "--stats", f, "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and "s.yaml:2:" in err and "Traceback" not in err


def test_stats_section_in_the_schema_has_descriptions():
    v = load_schema("variant")
    stat_props = v["$defs"]["stat"]["properties"]
    assert "stats" in v["properties"]
    assert all(p.get("description") for p in stat_props.values())


# -- whole games ---------------------------------------------------------------

def test_whole_games_follow_dealer_rotation(capsys):
    fixed = run_json(capsys, "kyo-kabu", "--games", "150", "--policy", "careful")
    rot = run_json(capsys, "kyo-kabu", "--games", "150", "--policy", "careful", "-o", "dealer_rotation=every_round")
    assert fixed["mode"] == "games" and fixed["games"] == 150
    assert fixed["rounds_per_game"]["mean"] == 12
    a = [s["final_chips"] for s in fixed["seats"]]
    b = [s["final_chips"] for s in rot["seats"]]
    assert a != b
    # with a fixed bank one seat deals all game long: the spread of results across seats is wider
    assert max(a) - min(a) > max(b) - min(b)


def test_game_totals_do_not_depend_on_jobs(capsys):
    one = run_json(capsys, "kyo-kabu", "--games", "60", "--seed", "5")
    two = run_json(capsys, "kyo-kabu", "--games", "60", "--seed", "5", "--jobs", "2")
    assert one["seats"] == two["seats"] and one["records"] == two["records"]


def test_single_round_mode_says_so(capsys):
    assert main(["simulate", "dare", "--rounds", "50", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "seed 1" in out and "policies: careful (every seat) - the game's default" in out and "single-round mode" in out


def test_csv_one_row_per_game(tmp_path, capsys):
    f = str(tmp_path / "g.csv")
    assert main(["simulate", "dare", "--games", "7", "--csv", f, "--quiet", "-o", "rounds=3"]) == 0
    rows = data_rows(f)
    assert rows[0][:3] == ["game", "seed", "rounds"] and len(rows) == 8
    assert all(int(r[2]) == 3 for r in rows[1:])
    # the chips changed hands and no chips were created
    assert sum(sum(int(x) for x in r[3:7]) for r in rows[1:]) == 0


def test_csv_one_row_per_round(tmp_path, capsys):
    f = str(tmp_path / "r.csv")
    doc = run_json(capsys, "kyo-kabu", "--rounds", "40", "--csv", f)
    rows = data_rows(f)
    assert len(rows) == 41
    assert [sum(int(r[2 + s]) for r in rows[1:]) for s in range(5)] == [s["total"] for s in doc["seats"]]


# -- policies -------------------------------------------------------------------

SEED_GAMES = ["kabufuda/dare.yaml", "hanafuda/hiraya.yaml", "mekurifuda/kakkuri.yaml", "hanafuda/otoroku.yaml",
              "kabufuda/kyo-kabu.yaml", "kabufuda/oicho-kabu.yaml", "hanafuda/hana-awase.yaml", "hanafuda/kingo.yaml",
              "hanafuda/kingo-banking.yaml"]


@pytest.mark.parametrize("path", SEED_GAMES)
def test_every_game_ships_a_careful_policy(path, capsys):
    g = _game(path)
    assert len(g.policies["careful"]["description"]) > 40
    vid = load_variant(os.path.join(ROOT, "variants", path)).meta.id
    assert main(["policies", vid]) == 0
    assert "careful: How a careful player plays" in capsys.readouterr().out


def test_careful_plays_differently_from_random(capsys):
    careful = run_json(capsys, "otoroku", "--rounds", "400", "--policy", "careful")
    rnd = run_json(capsys, "otoroku", "--rounds", "400", "--policy", "random")
    assert careful["policies"] == ["careful"] * 5 and rnd["policies"] == ["random"] * 5
    assert careful["seats"] != rnd["seats"]
    # a careful bettor never draws past 9: it goes bust (buta) less often than a random one
    assert careful["records"].get("buta", 0) < rnd["records"].get("buta", 0)


def test_policy_per_seat(capsys):
    doc = run_json(capsys, "kyo-kabu", "--rounds", "30", "--policy", "random,0=careful,2=first")
    assert doc["policies"] == ["careful", "random", "first", "random", "random"]
    assert main(["simulate", "kyo-kabu", "--rounds", "3", "--policy", "0=carefull"]) == 1
    assert "careful" in capsys.readouterr().err
    assert main(["simulate", "kyo-kabu", "--rounds", "3", "--policy", "9=careful"]) == 1
    assert "expected 0 to 4" in capsys.readouterr().err


# -- compare ----------------------------------------------------------------------

def test_compare_each_change_alone_and_together(capsys, tmp_path):
    house = write(tmp_path, "target: kyo-kabu\noptions:\n  tie: dealer\n  kuppin_order: either\n", "h.yaml")
    doc = run_json(capsys, "kyo-kabu", "--rounds", "300", "--compare", "--house", house, "-o", "table_limit=5")
    labels = [c["change"] for c in doc["changes"]]
    assert labels == ["-o table_limit=5", f"{house}: tie=dealer", f"{house}: kuppin_order=either", "all together"]
    for c in doc["changes"]:
        assert len(c["seats"]) == 5 and all(s["low"] <= s["change"] <= s["high"] for s in c["seats"])
    tie = doc["changes"][1]["seats"][0]
    assert tie["change"] > 0 and tie["low"] > 0  # the dealer now wins ties: the dealer gains


def test_compare_a_change_that_changes_nothing_is_exactly_zero(capsys):
    doc = run_json(capsys, "dare", "--rounds", "100", "--compare", "-o", "ante=1")
    only = doc["changes"]
    assert len(only) == 1 and all(s["change"] == s["low"] == s["high"] == 0 for s in only[0]["seats"])


def test_json_dash_writes_to_stdout_not_a_file(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    doc = run_json(capsys, "dare", "--rounds", "20")
    assert not os.path.exists(tmp_path / "-")
    assert isinstance(doc["seats"][0]["total"], int) and isinstance(doc["seed"], int)


def test_a_variants_own_stats_section_is_checked_and_used(tmp_path, capsys):
    good = write(tmp_path, "id: my-dare\nextends: dare\nstats:\n  ref_zero: {at: deal, count: 'ref == 0'}\n",
                 "my-dare.yaml")
    bad = write(tmp_path, "id: bad-dare\nextends: dare\nstats:\n  r: {at: deal, count: 'ref == nothing'}\n",
                "bad-dare.yaml")
    from rulekit.engine.build import check_variant
    assert check_variant(good) == []
    diags = check_variant(bad)
    assert diags and str(diags[0].span).endswith("bad-dare.yaml:4:32") and "nothing" in diags[0].message
    doc = run_json(capsys, good, "--rounds", "300")
    assert stat(doc, "ref_zero")["rows"][0]["readings"] == 300


def test_compare_whole_games_shows_changes_between_rounds(capsys):
    doc = run_json(capsys, "kyo-kabu", "--games", "40", "--compare", "-o", "rounds=6", "--policy", "careful")
    assert doc["unit"] == "games" and doc["count"] == 40
    (only,) = doc["changes"]
    # half the rounds: fewer special hands per game
    assert only["outcomes"]["yaku:sorokabu"]["changed"] < only["outcomes"]["yaku:sorokabu"]["base"]


def test_unwritable_output_fails_before_the_work(capsys, tmp_path):
    code = main(["simulate", "dare", "--rounds", "5", "--json", str(tmp_path / "no" / "x.json")])
    err = capsys.readouterr()
    assert code == 2 and "--json: cannot write" in err.err and "rounds in" not in err.out


def test_interrupted_run_writes_valid_partial_json(capsys, monkeypatch):
    from rulekit.analysis import runs as analysis
    real = analysis._KINDS["rounds"]
    calls = []

    def piece(*a, **k):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt  # Ctrl-C during the second piece
        return real(*a, **k)
    monkeypatch.setitem(analysis._KINDS, "rounds", piece)
    code = main(["simulate", "dare", "--rounds", "2000", "--json", "-", "--quiet"])
    out = capsys.readouterr()
    assert code == 130 and "interrupted: 500 of 2000 rounds" in out.err
    doc = json.loads(out.out)
    jsonschema.validate(doc, SCHEMA)
    assert doc["partial"] is True and doc["asked"] == 2000 and doc["rounds"] == 500


def _as_round_starts(monkeypatch, k, action):
    """Call `action` as the k-th simulated round (counted over the test) starts to be played:
    after the stop flag was read for it, so that round is still played in full."""
    from rulekit.engine import runner
    real = runner.round_seeder
    seen = []

    def seeder(seed):
        seed_of = real(seed)

        def counting(i):
            seen.append(1)
            if len(seen) == k:
                action()
            return seed_of(i)
        return counting
    monkeypatch.setattr(runner, "round_seeder", seeder)


def test_ctrl_c_mid_piece_keeps_every_finished_round(capsys, monkeypatch):
    # a real SIGINT during round 700 (the second piece of 500): the run stops after that round
    # and keeps all 700, where it used to drop the 200 of the piece under way
    import signal

    _as_round_starts(monkeypatch, 700, lambda: signal.raise_signal(signal.SIGINT))
    code = main(["simulate", "dare", "--rounds", "2000", "--json", "-", "--quiet"])
    out = capsys.readouterr()
    assert code == 130 and "interrupted: 700 of 2000 rounds" in out.err, out.err
    doc = json.loads(out.out)
    jsonschema.validate(doc, SCHEMA)
    assert doc["partial"] is True and doc["rounds"] == 700
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back after the run


def test_a_second_ctrl_c_stops_at_once(monkeypatch):
    import signal

    from rulekit.analysis import runs as analysis
    from rulekit.engine.build import build_game, load_variant

    def twice():  # two Ctrl-C in one round: the second raises in the round being played
        signal.raise_signal(signal.SIGINT)
        signal.raise_signal(signal.SIGINT)
    _as_round_starts(monkeypatch, 10, twice)
    game = build_game(load_variant("dare"))
    with pytest.raises(analysis.Interrupted) as caught:
        analysis.run("rounds", game, 4, 2000, 1, "random")
    assert caught.value.partial.rounds == 0  # the piece under way was cut off, as before
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_worker_asked_to_stop_returns_the_rounds_it_played(monkeypatch):
    # what a worker of --jobs N does when the main process raises the stop flag mid-piece
    import multiprocessing

    from rulekit.analysis import runs as analysis
    flag = multiprocessing.RawValue("b", 0)
    monkeypatch.setattr(analysis, "_WORKER_STOP", flag)

    def stop():  # Ctrl-C in the main process during round 123
        flag.value = 1
    _as_round_starts(monkeypatch, 123, stop)
    from rulekit.cli.common import resolve_variant_path
    args = (resolve_variant_path("dare"), {}, None, None, (), None)
    part, rows = analysis._in_worker("rounds", args, 4, 1, 0, 500, "random", True)
    assert part.rounds == 123 and len(rows) == 123


def test_ctrl_c_with_workers_keeps_the_pieces_under_way():
    # Ctrl-C reaches the main process after the first piece is merged (the progress bar's first
    # update); the other worker's piece under way is finished round by round, not thrown away
    from rulekit.analysis import runs as analysis
    from rulekit.engine.build import build_game, load_variant
    from rulekit.cli.common import resolve_variant_path

    class Bar:
        def update(self, count):
            raise KeyboardInterrupt
    path = resolve_variant_path("kakkuri")
    game = build_game(load_variant(path))
    with pytest.raises(analysis.Interrupted) as caught:
        analysis.run("rounds", game, 7, 20_000, 1, "random", jobs=2, variant_args=(path, {}, None, None, (), None),
                     bar=Bar())
    assert analysis.ROUND_PIECE <= caught.value.partial.rounds < 20_000

"""Analysts, round two: every deal attempt read, the careful policy by default, grouped / ratio /
paired statistics, expect and z, --compare-policy, round_chips, the round-seed scheme, replaying
a simulated round, run metadata in JSON and CSV, `rulekit help`."""
from __future__ import annotations

import hashlib
import json
import math
import os
import random

import jsonschema
import pytest

from rulekit.cli.main import main
from rulekit.engine.runner import round_seed
from rulekit.engine.statsreport import Z95, ratio_ci
from rulekit.lang.schema import load_schema

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GUIDE = os.path.join(ROOT, "docs", "guides", "analyst")
SCHEMA = load_schema("simulate")


def run_json(capsys, *argv: str) -> dict:
    code = main(["simulate", *argv, "--json", "-", "--quiet"])
    out = capsys.readouterr()
    assert code == 0, out.err
    doc = json.loads(out.out)
    jsonschema.validate(doc, SCHEMA)
    return doc


def write(tmp_path, text: str, name: str = "s.yaml") -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def stat(doc: dict, name: str) -> dict:
    return next(s for s in doc["statistics"] if s["name"] == name)


# -- the round seeds ---------------------------------------------------------------------

def test_round_seed_is_the_documented_hash():
    for seed, i in ((1, 0), (2, 7), (-5, 123456), (10 ** 30, 2 ** 40)):
        digest = hashlib.blake2b(f"rulekit-round:{seed}:{i}".encode(), digest_size=8).digest()
        assert round_seed(seed, i) == int.from_bytes(digest, "big")


def test_seeds_1_and_2_share_no_round_in_two_million():
    # the old scheme (seed * 1_000_003 + i) gave seed 2's round 0 to seed 1's round 1_000_003
    first = {round_seed(1, i) for i in range(2_000_000)}
    assert len(first) == 2_000_000  # no two rounds of one run alike either
    assert not any(round_seed(2, i) in first for i in range(2_000_000))


# -- every deal attempt ------------------------------------------------------------------

def test_hiraya_misdeal_and_lightning_per_attempt(capsys):
    doc = run_json(capsys, "hiraya", "--rounds", "4000", "--stats", os.path.join(GUIDE, "hiraya-misdeal.yaml"))
    mis, light = stat(doc, "misdeal")["rows"][0], stat(doc, "lightning_on_table")["rows"][0]
    redeals = doc["records"].get("redeal", 0)
    assert redeals > 0 and mis["count"] == redeals and mis["readings"] == 4000 + redeals
    assert light["readings"] == 4000 + redeals
    assert light["expected"] == 0.125 and light["z"] == pytest.approx(
        (light["value"] - 0.125) / math.sqrt(0.125 * 0.875 / light["readings"]))


# -- the default policy ------------------------------------------------------------------

def test_the_default_policy_is_careful_and_named(capsys):
    assert main(["simulate", "kyo-kabu", "--rounds", "20", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "policies: careful (every seat) - the game's default; --policy random for random play" in out
    assert run_json(capsys, "kyo-kabu", "--rounds", "20")["policies"] == ["careful"] * 5
    assert run_json(capsys, "kyo-kabu", "--rounds", "20", "--policy", "random")["policies"] == ["random"] * 5
    # a policy for some seats only: the others keep the default
    assert run_json(capsys, "kyo-kabu", "--rounds", "5", "--policy", "1=random")["policies"] == \
        ["careful", "random", "careful", "careful", "careful"]


# -- ratio, by, difference_from, expect --------------------------------------------------------

def test_ratio_delta_method_matches_a_direct_computation():
    rng = random.Random(5)
    pairs = [(rng.gauss(-0.1, 2.0), rng.choice([1, 2, 3, 4])) for _ in range(500)]
    sums = [len(pairs), sum(a for a, _ in pairs), sum(a * a for a, _ in pairs), sum(b for _, b in pairs),
            sum(b * b for _, b in pairs), sum(a * b for a, b in pairs)]
    r, lo, hi, se = ratio_ci(*sums)
    mean_b = sums[3] / len(pairs)
    resid = [a - r * b for a, b in pairs]
    var = sum(x * x for x in resid) / (len(pairs) - 1)  # the residuals' mean is 0 at this r
    assert r == pytest.approx(sums[1] / sums[3])
    assert se == pytest.approx(math.sqrt(var / len(pairs)) / mean_b)
    assert (lo, hi) == pytest.approx((r - Z95 * se, r + Z95 * se))


def test_dealer_edge_per_chip_staked_is_one_ratio(capsys, tmp_path):
    f = write(tmp_path, "stats:\n  edge: {ratio: 'round_chips[dealer]', over: total_bet}\n"
                        "  staked: {mean: total_bet}\n")
    doc = run_json(capsys, "kyo-kabu", "--rounds", "600", "--stats", f)
    row = stat(doc, "edge")["rows"][0]
    assert stat(doc, "edge")["kind"] == "ratio"
    assert row["numerator"] == doc["seats"][0]["total"]  # seat 0 deals every round
    assert row["denominator"] == pytest.approx(stat(doc, "staked")["rows"][0]["value"] * 600)
    assert row["value"] == pytest.approx(row["numerator"] / row["denominator"]) and row["low"] < row["value"] < row["high"]


def test_by_gives_a_histogram_and_group_means(capsys, tmp_path):
    f = write(tmp_path, """
stop_after: deal
stats:
  ref: {at: deal, count: 'true', by: ref}
  zero: {at: deal, count: 'ref == 0'}
  size: {at: deal, mean: 'ref * 2', by: 'ref % 2'}
""")
    doc = run_json(capsys, "dare", "--rounds", "3000", "--stats", f)
    groups = stat(doc, "ref")["groups"]
    assert [g["group"] for g in groups] == sorted(g["group"] for g in groups) and len(groups) == 10
    assert sum(g["count"] for g in groups) == 3000 and all(g["readings"] == 3000 for g in groups)
    zero = stat(doc, "zero")["rows"][0]
    assert (groups[0]["group"], groups[0]["count"], groups[0]["low"]) == (0, zero["count"], zero["low"])
    even, odd = stat(doc, "size")["groups"]
    assert even["readings"] == sum(g["count"] for g in groups if g["group"] % 2 == 0)
    mean_even = sum(2 * g["group"] * g["count"] for g in groups if g["group"] % 2 == 0) / even["readings"]
    assert even["value"] == pytest.approx(mean_even) and even["low"] < even["value"] < even["high"]


def test_last_bettor_minus_first_bettor_is_paired(capsys, tmp_path):
    f = write(tmp_path, "stats:\n  vs_first: {per_seat: true, mean: 'round_chips[seat]', "
                        "difference_from: 'right_of(dealer)'}\n")
    doc = run_json(capsys, "otoroku", "--rounds", "500", "--stats", f)
    s = stat(doc, "vs_first")
    assert s["kind"] == "difference"
    seats = doc["seats"]
    for row in s["rows"]:  # the mean of paired differences is the difference of the means
        assert row["value"] == pytest.approx(seats[row["seat"]]["mean"] - seats[1]["mean"])
    assert s["rows"][1]["value"] == 0 and s["rows"][1]["low"] == s["rows"][1]["high"]


def test_expect_flags_a_wrong_value(capsys, tmp_path):
    f = write(tmp_path, "stop_after: deal\nstats:\n  right: {at: deal, count: 'ref == 0', expect: '48/481'}\n"
                        "  wrong: {at: deal, count: 'ref == 0', expect: 0.3}\n")
    assert main(["simulate", "dare", "--rounds", "2000", "--stats", f, "--quiet"]) == 0
    out = capsys.readouterr().out
    wrong = next(ln for ln in out.splitlines() if "expected 0.30000" in ln)
    assert wrong.endswith("<- |z| > 3")
    right = next(ln for ln in out.splitlines() if "expected 0.09979" in ln)
    assert "|z| > 3" not in right


@pytest.mark.parametrize("text, where, message", [
    ("stats:\n  x: {ratio: 'round_chips[0]', over: 1, per_seat: true, difference_from: '0'}\n", ":2:",
     "difference_from pairs"),
    ("stats:\n  x: {count: 'true', by: dealer, expect: 0.5}\n", ":2:", "expect gives one value"),
    ("stats:\n  x: {mean: '1', over: '2'}\n", ":2:", "ratio"),
])
def test_mistakes_in_the_new_keys_are_located(tmp_path, capsys, text, where, message):
    f = write(tmp_path, text)
    assert main(["simulate", "kyo-kabu", "--rounds", "3", "--stats", f, "--quiet"]) == 1
    err = capsys.readouterr().err
    assert where in err and message in err, err


# -- round_chips under --games -------------------------------------------------------------

def test_round_chips_is_this_rounds_change_under_games(capsys, tmp_path):
    f = write(tmp_path, "stats:\n  this_round: {per_seat: true, mean: 'round_chips[seat]'}\n"
                        "  running: {per_seat: true, mean: 'chips[seat]'}\n")
    doc = run_json(capsys, "kyo-kabu", "--games", "30", "--stats", f)
    rounds = round(doc["rounds_per_game"]["mean"] * 30)
    for s in range(5):
        row = stat(doc, "this_round")["rows"][s]
        assert row["readings"] == rounds
        # summed over a game's rounds, this round's changes make the game's result
        assert row["value"] * rounds == pytest.approx(doc["seats"][s]["final_chips"] * 30)
    assert stat(doc, "running")["rows"][0]["value"] != pytest.approx(stat(doc, "this_round")["rows"][0]["value"])


# -- comparing policies ------------------------------------------------------------------------

def test_compare_policy_pairs_the_same_seeds(capsys):
    doc = run_json(capsys, "kyo-kabu", "--rounds", "300", "--compare-policy", "careful", "random")
    careful = run_json(capsys, "kyo-kabu", "--rounds", "300", "--policy", "careful")
    rnd = run_json(capsys, "kyo-kabu", "--rounds", "300", "--policy", "random")
    assert doc["mode"] == "compare_policy" and doc["policy_a"] == ["careful"] * 5 and doc["policy_b"] == ["random"] * 5
    for s in range(5):
        assert doc["base"][s]["mean"] == pytest.approx(careful["seats"][s]["mean"])
        assert doc["changed"][s]["mean"] == pytest.approx(rnd["seats"][s]["mean"])
        assert doc["paired"][s]["change"] == pytest.approx(rnd["seats"][s]["mean"] - careful["seats"][s]["mean"])
    # the random dealer draws on a nine: it loses far more than the careful one
    assert doc["paired"][0]["high"] < 0


def test_compare_policy_writes_both_policies_rows_side_by_side(capsys, tmp_path):
    import csv
    f = str(tmp_path / "ab.csv")
    doc = run_json(capsys, "kyo-kabu", "--rounds", "40", "--seed", "5", "--compare-policy", "careful", "random", "--csv", f)
    careful = run_json(capsys, "kyo-kabu", "--rounds", "40", "--seed", "5", "--policy", "careful", "--csv", str(tmp_path / "a.csv"))
    with open(f, encoding="utf-8") as fh:
        lines = fh.readlines()
    meta = dict(line[2:].rstrip("\n").split(": ", 1) for line in lines if line.startswith("# "))
    assert json.loads(meta["policies"]) == {"A": ["careful"] * 5, "B": ["random"] * 5}
    rows = list(csv.DictReader(line for line in lines if not line.startswith("# ")))
    assert len(rows) == 40 and rows[0]["seed"] == str(round_seed(5, 0))
    with open(tmp_path / "a.csv", encoding="utf-8") as fh:
        plain = list(csv.DictReader(line for line in fh if not line.startswith("# ")))
    for s in range(5):
        # A's columns are the plain careful run's rows; the means are the report's
        assert [r[f"A_seat{s}"] for r in rows] == [r[f"seat{s}"] for r in plain]
        b = sum(int(r[f"B_seat{s}"]) for r in rows) / 40
        assert b == pytest.approx(doc["changed"][s]["mean"])
    assert careful["seats"][0]["mean"] == pytest.approx(doc["base"][0]["mean"])


def test_csv_is_refused_with_compare(capsys):
    assert main(["simulate", "kyo-kabu", "--rounds", "5", "--compare", "-o tie=dealer", "--csv", "x.csv"]) == 2
    assert "--compare reports its changes only" in capsys.readouterr().err


# -- reproducing a run --------------------------------------------------------------------------

def test_json_and_csv_carry_what_reproduces_the_run(capsys, tmp_path):
    from rulekit import __version__
    f = str(tmp_path / "r.csv")
    doc = run_json(capsys, "kyo-kabu", "--rounds", "12", "--seed", "4", "-o", "tie=dealer", "--csv", f)
    assert doc["rulekit_version"] == __version__ and doc["variant_digest"].startswith("sha256:")
    assert doc["seed"] == 4 and doc["policies"] == ["careful"] * 5 and doc["options"]["tie"] == "dealer"
    assert doc["command"] == f"rulekit simulate kyo-kabu --rounds 12 --seed 4 -o tie=dealer --csv {f} --json - --quiet"
    meta = dict(line[2:].rstrip("\n").split(": ", 1) for line in open(f, encoding="utf-8") if line.startswith("# "))
    assert meta["rulekit_version"] == __version__ and meta["variant_digest"] == doc["variant_digest"]
    assert meta["seed"] == "4" and json.loads(meta["policies"]) == ["careful"] * 5
    assert json.loads(meta["options"])["tie"] == "dealer" and meta["command"] == doc["command"]
    # another rule changes the digest
    other = run_json(capsys, "kyo-kabu", "--rounds", "1")
    assert other["variant_digest"] != doc["variant_digest"]


def test_csv_dash_writes_to_standard_output(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["simulate", "dare", "--rounds", "5", "--csv", "-", "--quiet"]) == 0
    out = capsys.readouterr()
    assert not os.path.exists(tmp_path / "-")
    lines = [ln for ln in out.out.splitlines() if not ln.startswith("#")]
    assert lines[0].startswith("round,seed,seat0") and len(lines) == 6
    assert "5 rows written to standard output" in out.err and "Dare: 5 rounds" in out.err


def test_a_simulated_round_plays_again_with_a_transcript(capsys, tmp_path):
    f = str(tmp_path / "r.csv")
    assert main(["simulate", "kyo-kabu", "--rounds", "6", "--seed", "3", "--csv", f, "--quiet"]) == 0
    capsys.readouterr()
    rows = [ln.strip().split(",") for ln in open(f, encoding="utf-8") if not ln.startswith("#")][1:]
    for k in (0, 5):
        assert main(["play", "kyo-kabu", "--from-simulation", f"3:{k}"]) == 0  # narrated
        assert f"round {k} of `rulekit simulate kyo-kabu --seed 3`" in capsys.readouterr().out
        # the engine trace (--trace) ends with the "== Result:" line
        assert main(["play", "kyo-kabu", "--from-simulation", f"3:{k}", "--trace"]) == 0
        out = capsys.readouterr().out
        assert f"round {k} of `rulekit simulate kyo-kabu --seed 3`" in out
        result = next(ln for ln in out.splitlines() if ln.startswith("== Result:"))
        chips = [int(part.split(": ")[1]) for part in result[len("== Result: "):].split(", ")]
        assert chips == [int(x) for x in rows[k][2:]]
    assert main(["play", "kyo-kabu", "--from-simulation", "3"]) == 2
    assert "SEED:ROUND" in capsys.readouterr().err


def test_a_simulated_game_plays_again_from_its_csv_seed(capsys, tmp_path):
    f = str(tmp_path / "g.csv")
    assert main(["simulate", "kyo-kabu", "--games", "2", "--csv", f, "--quiet", "-o", "rounds=3"]) == 0
    capsys.readouterr()
    row = [ln.strip().split(",") for ln in open(f, encoding="utf-8") if not ln.startswith("#")][2]
    assert main(["play", "kyo-kabu", "--seed", row[1], "--policy", "careful", "-o", "rounds=3", "--trace"]) == 0
    result = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("== Result:"))
    assert [int(p.split(": ")[1]) for p in result[len("== Result: "):].split(", ")] == [int(x) for x in row[3:8]]


# -- the reference in the terminal -----------------------------------------------------------

def test_help_prints_the_expression_and_statistics_reference(capsys):
    from rulekit.lang.expr.functions import REGISTRY
    assert main(["help", "expressions"]) == 0
    out = capsys.readouterr().out
    assert all(f"  {name}(" in out for name in REGISTRY)
    assert main(["help", "statistics"]) == 0
    out = capsys.readouterr().out
    for key in load_schema("variant")["$defs"]["stat"]["properties"]:
        assert f"  {key}: " in out
    assert "redealt" in out and "round_chips" in out and "delta method" in out
    assert main(["help", "nothing"]) == 2


def test_help_format_prints_the_file_format_from_the_schema(capsys):
    schema = load_schema("variant")
    assert main(["help", "format"]) == 0
    out = capsys.readouterr().out
    for key in schema["properties"]:  # every top-level key, with its description
        assert f"  {key}: " in out
    for part in ("PHASE", "YAKUENTRY", "OPTION", "STEP", "POLICY"):
        assert f"\n{part}\n" in out
    assert schema["$defs"]["phase"]["properties"]["after"]["description"].split(".")[0] in " ".join(out.split())
    assert main(["help", "format", "phase"]) == 0
    one = capsys.readouterr().out
    assert one.startswith("PHASE\n") and "  after: string." in one and "\nSTEP\n" not in one
    assert main(["help", "format", "phse"]) == 2
    assert "did you mean 'phase'" in capsys.readouterr().err

"""`rulekit list`, `rulekit rules GAME`, `rulekit --version`, and play's whole-game defaults."""
import re
import subprocess
import sys

import rulekit

from .conftest import ROOT


def _rulekit(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "rulekit", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def test_version():
    r = _rulekit("--version")
    assert r.returncode == 0 and r.stdout.strip() == f"rulekit {rulekit.__version__}"


def test_list_names_every_playable_game_with_players_and_deck():
    r = _rulekit("list")
    assert r.returncode == 0, r.stderr
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("  ")]
    ids = [ln.split()[0] for ln in lines]
    assert {"dare", "hiraya", "kakkuri", "otoroku", "kyo-kabu"} <= set(ids)
    kyo = next(ln for ln in lines if ln.split()[0] == "kyo-kabu")
    assert "Kyō-Kabu (京かぶ) — 2-8 players (usually 5); deck kabufuda (40 cards)" in kyo
    assert re.search(r"hiraya +Hiraya \(ひらや\) — 3 players;", r.stdout)


def test_rules_prints_the_rules_in_words():
    r = _rulekit("rules", "otoroku")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Otoroku")
    assert "Undefeatable" in r.stdout  # yaku by name
    assert "sum(" not in r.stdout and "->" not in r.stdout  # no expression syntax


def test_play_defaults_to_the_whole_game_and_a_printed_random_seed():
    r = _rulekit("play", "kyo-kabu", "-o", "rounds=2")
    assert r.returncode == 0, r.stderr
    seed = int(re.search(r"seed (\d+) \(replay with --seed \1\)", r.stdout).group(1))
    assert len(re.findall(r"\nRound \d of 2: ", r.stdout)) == 2 and "Game over after 2 rounds." in r.stdout
    again = _rulekit("play", "kyo-kabu", "-o", "rounds=2", "--seed", str(seed))
    assert again.stdout == r.stdout  # the printed seed replays the game
    one = _rulekit("play", "kyo-kabu", "-o", "rounds=2", "--rounds", "1", "--seed", str(seed))
    assert "Game over after 1 round." in one.stdout  # --rounds overrides the game's length

"""The table's opponents: `search` on a clock where the game chooses it (display.opponents), said
on the first screen; a saved game with such opponents resumes from its saved answers."""
from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from rulekit import build_game
from rulekit.cli.play import TABLE_SECONDS, table_policy
from rulekit.engine.runner import make_agents, seat_policies
from rulekit.engine.search import SearchAgent

from .conftest import ROOT

SEED_GAMES = ["dare", "hiraya", "kakkuri", "otoroku", "kyo-kabu"]


def _first_screen(tmp_path, gid: str, *extra: str) -> str:
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path), "NO_COLOR": "1", "COLUMNS": "400"}
    r = subprocess.run([sys.executable, "-m", "rulekit", "play", gid, "--seed", "3", "--rounds", "1", "--human", "0",
                        *extra], input="q\n", capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout.split("Round 1 of 1")[0]


@pytest.mark.parametrize("gid", SEED_GAMES)
def test_every_seed_games_table_policy_is_a_policy_it_can_play(gid):
    game = build_game(gid)
    spec = table_policy(game)
    n = game.variant.meta.players_default
    assert seat_policies(game, n, spec) == [spec] * n
    if game.extra.display.opponents == "search":
        assert spec == f"search:seconds={TABLE_SECONDS:g}"
        bot = make_agents(game, n, 1, spec)[1]
        assert isinstance(bot, SearchAgent) and bot.seconds == TABLE_SECONDS
    else:
        assert "search" not in spec


def test_kakkuri_chooses_search_opponents_and_the_first_screen_says_so(tmp_path):
    assert table_policy(build_game("kakkuri")).startswith("search:")
    screen = _first_screen(tmp_path, "kakkuri")
    assert "Your opponents think ahead" in screen and "at most 0.5 seconds a choice" in screen
    assert "This table chooses them for Kakkuri" in screen and "--policy careful gives quicker" in screen
    # the seed fixes the deals; a clock in the choices is said, and what keeps the game exactly
    assert "the same deals with --seed 3" in screen and "--log FILE keeps this game" in screen
    assert "seconds=" not in screen and "'search'" not in screen  # no policy spec shown to the player


def test_opponents_the_player_names_are_not_called_the_tables_choice(tmp_path):
    screen = _first_screen(tmp_path, "kakkuri", "--policy", "careful")
    assert "This table chooses" not in screen and "replay this game with --seed 3" in screen
    screen = _first_screen(tmp_path, "kakkuri", "--policy", "search:seconds=1.5")
    assert "at most 1.5 seconds a choice" in screen and "This table chooses" not in screen


def test_a_game_without_a_table_choice_keeps_its_usual_opponents(tmp_path):
    screen = _first_screen(tmp_path, "otoroku")
    assert "think ahead" not in screen and "This table chooses" not in screen
    assert "replay this game with --seed 3" in screen


def test_a_saved_game_with_opponents_on_a_clock_resumes_from_their_saved_answers(tmp_path, monkeypatch, capsys):
    from rulekit.cli.main import main
    from rulekit.people import resume
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.chdir(tmp_path)
    log = str(tmp_path / "k.json")
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))  # seat 6 is asked last: the bots chose before
    assert main(["play", "kakkuri", "--seed", "5", "--rounds", "1", "--human", "6", "--log", log]) == 0
    assert "The game is saved in" in capsys.readouterr().out
    import json
    with open(log, encoding="utf-8") as fh:
        saved = json.load(fh)
    assert saved["policy"].startswith("search:seconds=")
    assert any(e["t"] == "choose" and e["player"] != 6 and e["of"] > 1 for e in saved["events"])
    asked: list[bool] = []  # for each search decision: was the saved game still being played again?
    real_act = SearchAgent.act

    def act(self, d):
        asked.append(not resumer[0].live)
        return real_act(self, d)

    resumer: list = []
    real_init = resume.Resumer.__init__

    def init(self, *a, **k):
        real_init(self, *a, **k)
        resumer.append(self)

    monkeypatch.setattr(SearchAgent, "act", act)
    monkeypatch.setattr(resume.Resumer, "__init__", init)
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    assert main(["play", "--resume", log]) == 0
    out = capsys.readouterr().out
    assert "Back where you left the game" in out
    assert resumer and not any(asked)  # the clocked bots were not asked again while the saved moves were played


@pytest.mark.parametrize("gid, marked", [("kakkuri", "search"), ("otoroku", "table"), ("hiraya", "careful")])
def test_the_policy_list_marks_what_the_tables_opponents_play(gid, marked, capsys):
    from rulekit.cli.main import main
    assert main(["policies", gid]) == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if "played by your opponents at the table" in ln]
    assert len(lines) == 1 and lines[0].strip().startswith(f"{marked}: ")

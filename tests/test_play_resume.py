"""`rulekit play` never throws a game away: q, Ctrl-C or an error saves it, and `--resume`
continues it to the same end as the game played straight through.

Every test sets XDG_STATE_HOME to its own folder, so no autosave reaches the real home.
pexpect's timeouts are only safety nets against a hung game, never assertions.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulekit.cli.main import main
from rulekit.engine.runner import events_digest
from rulekit.people.replay import game_digest

from .conftest import ROOT

pexpect = pytest.importorskip("pexpect")

PROMPTS = [r"Your choice \(1 to (\d+);", r"Type a number from (-?\d+) to (-?\d+)", r"Press Enter for round (\d+)",
           r"Game over after (\d+) rounds?\.[^\n]*\n", pexpect.EOF, r"Press Enter to go on"]
GAME = ["kyo-kabu", "-o", "rounds=3", "--seed", "11", "--human", "1"]


def _env(tmp_path) -> dict:
    return {**os.environ, "NO_COLOR": "1", "COLUMNS": "100", "LINES": "40", "PYTHONIOENCODING": "utf-8",
            "XDG_STATE_HOME": str(tmp_path / "state")}


def _answer(i: int, m) -> str:
    """The same answer to the same question, in every run: the second item, the lowest number."""
    if i == 0:
        return str(min(2, int(m.group(1))))
    if i == 1:
        return m.group(1)
    return ""


def _drive(tmp_path, args: list[str], stop_at: int | None = None, key: str = "q") -> tuple[str, int, list[int]]:
    """Play at the table in a pseudo-terminal, answering every question the same way; at question
    `stop_at` (counted from 0) type `key` instead. Returns the text, the exit status and the kind
    of each question answered (an index into PROMPTS)."""
    child = pexpect.spawn(sys.executable, ["-m", "rulekit", "play", *args], cwd=str(tmp_path), env=_env(tmp_path),
                          dimensions=(40, 100), encoding="utf-8", timeout=120)
    text, asked = "", []
    try:
        for _ in range(500):
            i = child.expect(PROMPTS)
            text += ((child.before or "") + (child.after if isinstance(child.after, str) else "")).replace("\r\n", "\n")
            if i in (3, 4):
                break
            if i == 5:  # a screenful told (the pager): no question, not counted
                child.sendline("")
                continue
            if len(asked) == stop_at:
                if key == "\x03":
                    child.sendcontrol("c")
                else:
                    child.sendline(key)
                break
            child.sendline(_answer(i, child.match))
            asked.append(i)
        else:
            pytest.fail("the game did not end within 500 questions")
        child.expect(pexpect.EOF)
        text += (child.before or "").replace("\r\n", "\n")
    finally:
        child.close(force=True)
    return text, child.exitstatus, asked


def _rulekit(tmp_path, *args, stdin=""):
    return subprocess.run([sys.executable, "-m", "rulekit", *args], input=stdin, capture_output=True, text=True,
                          cwd=str(tmp_path), env=_env(tmp_path), timeout=300)


def _load(path) -> dict:
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def _final_standings(text: str) -> str:
    return text.rsplit("Standings:", 1)[1].split("Game over")[0]


def _ending(text: str) -> list[str]:
    """The winner line and what follows, but for where the log went."""
    return [ln for ln in text.split("Game over", 1)[1].splitlines()
            if not ln.startswith(("log written", "The finished game", "To replay it"))]


@pytest.mark.parametrize("kind, nth, key", [(0, 2, "q"), (2, 0, "q"), (0, -1, "\x03"), (2, 1, "\x03")],
                         ids=["quit-at-a-choice", "quit-between-rounds", "ctrl-c-at-a-choice", "ctrl-c-between"])
def test_leave_and_resume_ends_as_the_game_played_straight_through(tmp_path, kind, nth, key):
    straight, code, asked = _drive(tmp_path, [*GAME, "--log", "straight.json"])
    assert code == 0
    stop_at = [q for q, k in enumerate(asked) if k == kind][nth]  # the nth question of this kind
    # the same game, left at question `stop_at`: saved in the autosave file, with the command to go on
    saved = tmp_path / "state" / "rulekit" / "kyo-kabu-11.json"
    text, code, _ = _drive(tmp_path, GAME, stop_at=stop_at, key=key)
    assert code == (0 if key == "q" else 130), text[-2000:]
    assert ("You left the table." if key == "q" else "Interrupted (Ctrl-C).") in text
    # at 100 columns a long sentence wraps between words, the path and the command whole: read as one line
    flat = re.sub(r"\n +", " ", text)
    assert f"The game is saved in {saved} (" in flat
    assert f"To continue it: rulekit play --resume {saved}" in flat
    assert f"\n  {saved}" in text or f"The game is saved in {saved}" in text  # never cut inside
    assert "Traceback" not in text
    part = _load(saved)
    assert part["partial"] is True and part["human"] == 1 and "rounds_requested" not in part
    full = _load(tmp_path / "straight.json")
    assert 0 < len(part["moves"]) < len(full["moves"])
    assert part["moves"] == full["moves"][:len(part["moves"])]
    assert part["rounds"] == len(re.findall(r"End of round \d+", text))
    # a saved game is not a finished one: replay says so and how to continue it
    r = _rulekit(tmp_path, "replay", str(saved))
    assert r.returncode == 1 and "saved game, interrupted" in r.stderr and "--resume" in r.stderr
    # resumed: the table as it stands, then the rest of the game live, to the same end
    rest, code, _ = _drive(tmp_path, ["--resume", str(saved)])
    assert code == 0, rest[-2000:]
    assert f"Back where you left the game: round {part['rounds'] + 1}." in rest
    assert "The table — round" in rest.split("Back where you left the game")[1]
    fin = _load(saved)  # the finished game is written over the saved one
    assert "partial" not in fin
    assert fin["moves"] == full["moves"] and fin["events"] == full["events"] and fin["rounds"] == 3
    assert fin["events_sha256"] == full["events_sha256"] and fin["game_sha256"] == full["game_sha256"]
    assert _final_standings(rest) == _final_standings(straight)
    assert _ending(rest) == _ending(straight)
    r = _rulekit(tmp_path, "replay", str(saved), "--quiet")
    assert r.returncode == 0 and "replay ok" in r.stdout
    # a finished game has nothing to resume
    r = _rulekit(tmp_path, "play", "--resume", str(saved))
    assert r.returncode == 1 and "this game is finished (3 rounds played)" in r.stderr
    assert "Traceback" not in r.stderr


def test_leave_with_log_saves_there_and_resume_keeps_writing_it(tmp_path):
    text, code, _ = _drive(tmp_path, [*GAME, "--log", "mine.json"], stop_at=2)
    assert code == 0 and "The game is saved in mine.json" in text
    assert "To continue it: rulekit play --resume mine.json" in text
    assert not (tmp_path / "state").exists()  # --log given: no autosave
    assert _load(tmp_path / "mine.json")["partial"] is True
    # leave again after one more answer: the file grows, it is never cut back
    before = _load(tmp_path / "mine.json")
    text, code, _ = _drive(tmp_path, ["--resume", "mine.json"], stop_at=2)
    assert code == 0 and "The game is saved in mine.json" in text
    after = _load(tmp_path / "mine.json")
    assert after["moves"][:len(before["moves"])] == before["moves"] and len(after["moves"]) > len(before["moves"])
    assert after["events"][:len(before["events"])] == before["events"]
    assert [f for f in os.listdir(tmp_path) if f.endswith(".tmp")] == []  # no temporary file left


def test_log_keeps_its_old_content_when_the_game_fails_before_writing(tmp_path):
    log = tmp_path / "game.json"
    log.write_text("old content\n")
    r = _rulekit(tmp_path, "play", "kyo-kabu", "--seed", "1", "--policy", "nosuch", "--log", "game.json")
    assert r.returncode == 1 and "E050" in r.stderr and "Traceback" not in r.stderr
    assert log.read_text() == "old content\n"  # checked before the game, never truncated
    r = _rulekit(tmp_path, "play", "kyo-kabu", "--human", "7", "--log", "game.json")
    assert r.returncode == 2 and log.read_text() == "old content\n"
    r = _rulekit(tmp_path, "play", "kyo-kabu", "--policy", "nosuch", "--log", "new.json")
    assert r.returncode == 1 and not (tmp_path / "new.json").exists()  # no empty file left behind
    r = _rulekit(tmp_path, "play", "kyo-kabu", "--log", "no/such/folder/game.json")
    assert r.returncode == 2 and "the folder" in r.stderr and "does not exist" in r.stderr
    # a finished game replaces the old content in one step
    r = _rulekit(tmp_path, "play", "kyo-kabu", "--seed", "1", "--rounds", "1", "--log", "game.json")
    assert r.returncode == 0 and _load(log)["seed"] == 1
    assert sorted(os.listdir(tmp_path)) == ["game.json"]


def _saved_game(tmp_path) -> tuple[str, dict]:
    """A saved game of Kyo-kabu left in its second round (piped answers, then q)."""
    r = _rulekit(tmp_path, "play", "kyo-kabu", "--seed", "11", "--human", "1", "-o", "rounds=3", "--log", "s.json",
                 stdin="1\n\n2\n1\nq\n")
    assert r.returncode == 0, r.stderr
    assert "The game is saved in s.json (during round 2)." in r.stdout
    return str(tmp_path / "s.json"), _load(tmp_path / "s.json")


def _write(path: str, log: dict, digests: bool = True) -> None:
    if digests:  # a forger who recomputes every digest
        log["events_sha256"] = events_digest(log["events"])
        log["game_sha256"] = game_digest(log)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(log, fh)


@pytest.mark.parametrize("change, code", [
    (lambda g: g["moves"].__setitem__(0, g["moves"][0] + 1), "E070"),
    (lambda g: g.__setitem__("human", 2), "E070"),
    (lambda g: g.__setitem__("partial", False), "E070"),
    (lambda g: g.__setitem__("cheat", 1), "E010"),
    (lambda g: g.__setitem__("human", "me"), "E010"),
    (lambda g: g["events"].append({"t": "pay", "amount": 99}), "E070"),
], ids=["move", "human", "finished", "unknown-field", "human-type", "event"])
def test_a_tampered_saved_game_is_refused(tmp_path, change, code):
    path, log = _saved_game(tmp_path)
    change(log)
    _write(path, log, digests=False)
    r = _rulekit(tmp_path, "play", "--resume", path)
    assert r.returncode == 1 and f"error[{code}]" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""


def test_a_bot_decision_that_differs_on_resume_is_e070(tmp_path):
    path, log = _saved_game(tmp_path)
    chooses = [e for e in log["events"] if e["t"] == "choose" and not e.get("forced")]
    j = next(k for k, e in enumerate(chooses) if e["player"] != 1 and e["of"] > 1)
    log["moves"][j] = (log["moves"][j] + 1) % chooses[j]["of"]
    _write(path, log)  # digests recomputed: the file reads as untouched
    r = _rulekit(tmp_path, "play", "--resume", path)
    assert r.returncode == 1 and "error[E070]" in r.stderr, r.stderr
    assert f"differs at decision {j} (round 1, seat {chooses[j]['player']}" in r.stderr
    assert f"the saved game has {log['moves'][j] + 1}" in r.stderr and "Traceback" not in r.stderr


def test_resume_takes_its_settings_from_the_saved_game(tmp_path):
    path, _log = _saved_game(tmp_path)
    r = _rulekit(tmp_path, "play", "kyo-kabu", "--resume", path, "--seed", "3")
    assert r.returncode == 2 and "leave out a game, --seed" in r.stderr
    r = _rulekit(tmp_path, "play")
    assert r.returncode == 2 and "--resume FILE" in r.stderr
    r = _rulekit(tmp_path, "play", "--resume", "nothing.json")
    assert r.returncode == 1 and "error[E001]" in r.stderr and "Traceback" not in r.stderr
    # the rules changed since the game was saved (here only a comment): it cannot be continued
    changed = tmp_path / "kyo-kabu.yaml"
    changed.write_text(open(os.path.join(ROOT, "variants", "kabufuda", "kyo-kabu.yaml"), encoding="utf-8").read()
                       + "# changed\n", encoding="utf-8")
    r = _rulekit(tmp_path, "play", "--resume", path, "--variant", str(changed))
    assert r.returncode == 1 and "the variant is not the one the game was played with" in r.stderr
    assert "Traceback" not in r.stderr


class _Interrupting:
    """A seat's agent that plays like the real one, then presses Ctrl-C at a given decision."""

    count = 0

    def __init__(self, agent, at: int):
        self.agent, self.at, self.name = agent, at, "random"

    def act(self, d):
        _Interrupting.count += 1
        if _Interrupting.count == self.at:
            raise KeyboardInterrupt
        return self.agent.act(d)


@pytest.mark.parametrize("policy", [["--opponents", "random"], []], ids=["random", "careful"])
def test_watched_game_ctrl_c_prints_what_was_played_and_resumes(tmp_path, capsys, monkeypatch, policy):
    import rulekit.engine.runner as runner
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    args = ["play", "kyo-kabu", "--seed", "4", "-o", "rounds=4", "--trace", *policy]  # the engine trace
    assert main([*args, "--log", "full.json"]) == 0
    full = _load(tmp_path / "full.json")
    capsys.readouterr()
    real = runner.make_agents
    _Interrupting.count = 0
    at = len(full["moves"]) * 2 // 3
    monkeypatch.setattr(runner, "make_agents", lambda *a, **k: [_Interrupting(x, at) for x in real(*a, **k)])
    assert main([*args, "--log", "part.json"]) == 130
    out = capsys.readouterr().out
    part = _load(tmp_path / "part.json")
    k = part["rounds"]
    assert 0 < k < 4 and part["partial"] is True and len(part["moves"]) == at - 1
    assert part.get("policy") == (None if policy else "careful")  # the bots' policy goes with the game
    # the transcript so far, then where it stopped
    assert out.startswith("seed 4 (replay with --seed 4)\n")
    # stopped at a decision, so in the middle of round k + 1
    assert f"== Interrupted during round {k + 1}\n== Chips so far: seat 0: " in out
    assert out.rstrip().endswith(f"The game is saved in part.json (during round {k + 1}).\n"
                                 "To continue it: rulekit play --resume part.json")
    assert out.count("Round ") >= k + 1 and "== Winner" not in out
    # Ctrl-C again while the saved moves are played again: nothing new, the saved game is kept as it was
    saved = (tmp_path / "part.json").read_bytes()
    _Interrupting.count = 0
    at = 3
    assert main(["play", "--resume", "part.json", "--trace"]) == 130
    out = capsys.readouterr().out
    assert "The saved game part.json is unchanged; to continue it: rulekit play --resume part.json" in out
    assert (tmp_path / "part.json").read_bytes() == saved
    monkeypatch.setattr(runner, "make_agents", real)
    assert main(["play", "--resume", "part.json", "--trace"]) == 0
    out = capsys.readouterr().out
    fin = _load(tmp_path / "part.json")
    assert fin["events"] == full["events"] and fin["moves"] == full["moves"] and "partial" not in fin
    assert "== Winner" in out and "(continued from the saved game part.json)" in out


def test_a_rule_error_mid_game_saves_the_moves_to_the_log(tmp_path, capsys, monkeypatch):
    import rulekit.engine.runner as runner
    from rulekit.core.errors import RuleError, Span, error
    monkeypatch.chdir(tmp_path)

    class Failing:
        name = "random"
        n = 0

        def act(self, d):
            Failing.n += 1
            if Failing.n == 5:
                raise RuleError(error(Span("test", 1, 1), "E060", "a rule went wrong"))
            return 0

    monkeypatch.setattr(runner, "make_agents", lambda game, n, *a, **k: [Failing() for _ in range(n)])
    assert main(["play", "kyo-kabu", "--seed", "2", "--log", "err.json"]) == 1
    err = capsys.readouterr().err
    assert "a rule went wrong" in err and "the game so far (during round 1" in err and "saved in err.json" in err
    assert _load(tmp_path / "err.json")["moves"] == [0, 0, 0, 0]


def test_a_save_that_fails_is_said_plainly_and_the_game_still_ends(tmp_path):
    (tmp_path / "state").write_text("a file where the state folder should be")
    r = _rulekit(tmp_path, "play", "kyo-kabu", "--seed", "11", "--human", "1", stdin="q\n")
    assert r.returncode == 0 and "You left the table." in r.stdout
    assert "rulekit: the game could not be saved to " in r.stderr and "kyo-kabu-11.json" in r.stderr
    assert "Traceback" not in r.stderr and "To continue it" not in r.stdout


SIGINT_AT_DECISION = """
import os, signal, sys
import rulekit.engine.runner as runner
real, seen = runner.make_agents, [0]

class Seat:
    name = "random"
    def __init__(self, agent):
        self.agent = agent
    def act(self, d):
        seen[0] += 1
        if seen[0] == int(sys.argv[1]):
            os.kill(os.getpid(), signal.SIGINT)  # a real Ctrl-C, at a known point of the game
        return self.agent.act(d)

runner.make_agents = lambda *a, **k: [Seat(x) for x in real(*a, **k)]
from rulekit.cli.main import main
sys.exit(main(sys.argv[2:]))
"""


def test_watched_game_stopped_by_a_real_sigint(tmp_path):
    args = ["play", "otoroku", "--seed", "6", "--rounds", "4"]
    full = _rulekit(tmp_path, *args, "--log", "full.json")
    assert full.returncode == 0
    at = len(_load(tmp_path / "full.json")["moves"]) // 2
    r = subprocess.run([sys.executable, "-c", SIGINT_AT_DECISION, str(at), *args, "--log", "part.json"],
                       capture_output=True, text=True, cwd=str(tmp_path), env=_env(tmp_path), timeout=300)
    assert r.returncode == 130 and "Traceback" not in r.stderr, r.stderr
    k = _load(tmp_path / "part.json")["rounds"]
    assert "\nInterrupted (Ctrl-C).\n" in r.stdout and (f"(after round {k})" in r.stdout or f"(during round {k + 1})" in r.stdout)
    assert r.stdout.startswith("Otoroku: 5 players, 4 rounds, seed 6 (replay with --seed 6).\n")
    # the story so far is the start of the whole game's story (its last line may be a run of
    # seats that the whole game continues)
    shown = r.stdout.split("\nInterrupted (Ctrl-C).")[0].rstrip("\n").split("\n")[:-1]
    whole = full.stdout.split("\n")
    assert shown == whole[:len(shown)] and len(shown) > 3
    done = _rulekit(tmp_path, "play", "--resume", "part.json")
    assert done.returncode == 0 and _load(tmp_path / "part.json")["events"] == _load(tmp_path / "full.json")["events"]


@pytest.mark.parametrize("change", [
    lambda g: g["moves"].extend([0] * 500),
    lambda g: g["events"].extend([{"t": "note"}] * 3),
    lambda g: g["moves"].__setitem__(-1, 99),
    lambda g: g.__setitem__("human", 4),
], ids=["moves-added", "events-added", "answer-out-of-range", "other-seat"])
def test_a_forged_saved_game_is_refused_with_its_digests_recomputed(tmp_path, change):
    path, log = _saved_game(tmp_path)
    change(log)
    _write(path, log)  # a forger who recomputes every digest: the game played again still differs
    r = _rulekit(tmp_path, "play", "--resume", path, stdin="1\n" * 50)
    assert r.returncode == 1 and "error[E070]" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
    assert _load(path) == log  # refused: the saved game is left as it was


def test_a_log_names_the_house_files_it_was_played_with_and_not_the_parent_variant():
    from rulekit.engine.build import build_game, load_variant
    from rulekit.engine.runner import make_agents, play
    from rulekit.people.replay import build_log
    root = Path(__file__).resolve().parent.parent
    child = build_game(load_variant(str(root / "variants" / "kabufuda" / "kyo-kabu.yaml")))  # extends a parent
    assert len(child.variant.files) > 1
    res = play(child, 3, 1, make_agents(child, 3, 1), rounds=1)
    assert build_log(child, res)["house"] == []
    house = str(root / "docs" / "guides" / "house-example.yaml")
    g = build_game(load_variant(str(root / "variants" / "hanafuda" / "otoroku.yaml"), house=(house,)))
    res = play(g, 3, 1, make_agents(g, 3, 1), rounds=1)
    (logged,) = build_log(g, res)["house"]
    assert os.path.samefile(logged, house)


def test_a_stopped_game_says_which_round_it_stopped_in():
    from rulekit.people.savegame import rounds_done
    assert rounds_done(0, 1) == "during round 1, before any round ended"
    assert rounds_done(4, 5) == "during round 5"   # a round under way: not 'after round 4'
    assert rounds_done(4, 4) == "after round 4"    # stopped between rounds


def test_the_commands_shown_call_rulekit_as_the_player_did(monkeypatch, tmp_path):
    import os
    from rulekit.people.savegame import program
    fake = tmp_path / "venv" / "bin" / "rulekit"
    fake.parent.mkdir(parents=True)
    fake.write_text("#!/bin/sh\n")
    monkeypatch.setattr("sys.argv", [str(fake), "play"])
    monkeypatch.setenv("PATH", "/nonexistent")
    assert program() == str(fake)                 # not on PATH: the path it was started by
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(fake.parent) + os.pathsep + "/usr/bin")
    assert program() == "rulekit"                 # on PATH: the short name


def test_a_second_game_left_with_the_same_seed_does_not_replace_the_first(tmp_path, monkeypatch):
    from rulekit.people.savegame import autosave_path
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    first = autosave_path("dare", 5)
    assert first == str(tmp_path / "rulekit" / "dare-5.json")
    os.makedirs(os.path.dirname(first))
    open(first, "w").close()
    second = autosave_path("dare", 5)
    assert second.endswith("dare-5-2.json")
    open(second, "w").close()
    assert autosave_path("dare", 5).endswith("dare-5-3.json")

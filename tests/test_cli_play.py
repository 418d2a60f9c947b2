"""`rulekit play` end to end: a human at the terminal, logs and replay."""
import json
import subprocess
import sys

from .conftest import ROOT


def _rulekit(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "rulekit", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def test_human_seat_sees_only_its_view_and_types_numbers():
    # piped: plain text; "abc" is not an answer, 5 passes (after the four columns), then Enter between rounds
    r = _rulekit("play", "kyo-kabu", "--seed", "2", "--players", "3", "--human", "1", "--rounds", "1",
                 stdin="abc\n5\n1\n1\n")
    assert r.returncode == 0, r.stderr
    assert "Your choice (1 to 5" in r.stdout and "Please type a number from 1 to 5" in r.stdout
    assert "\x1b[" not in r.stdout  # no escape sequences when piped
    # the face-down stock is a count, the face-up first field by name with its value
    table = r.stdout.split("The table — round 1")[1].split("Your turn")[0]
    assert "The deck: 36 cards" in table and "Column 1: Five — shows 5" in table  # the name says 5: no "(5)"
    assert "5) pass" in r.stdout and "You choose: pass." in r.stdout
    assert "Game over after 1 round." in r.stdout
    assert "Traceback" not in r.stderr


def test_play_log_replays(tmp_path):
    log = tmp_path / "game.json"
    r = _rulekit("play", "otoroku", "--seed", "5", "--log", str(log))
    assert r.returncode == 0, r.stderr
    data = json.loads(log.read_text())
    assert data["seed"] == 5 and data["events"]
    r = _rulekit("replay", str(log), "--quiet")
    assert r.returncode == 0 and "replay ok" in r.stdout
    data["moves"] = [m + 1 for m in data["moves"]] or [1]
    log.write_text(json.dumps(data))
    r = _rulekit("replay", str(log), "--quiet")
    assert r.returncode == 1 and ("E070" in r.stderr or "E060" in r.stderr), r.stderr
    assert "Traceback" not in r.stderr


def test_unknown_variant_and_option_are_located_errors():
    r = _rulekit("play", "kyo-kabuu")
    assert r.returncode == 1 and "did you mean 'kyo-kabu'" in r.stderr and "Traceback" not in r.stderr
    r = _rulekit("play", "kyo-kabu", "-o", "tie=maybe")
    assert r.returncode == 1 and "expected one of push, dealer" in r.stderr


def test_the_draw_for_seats_tells_the_human_where_they_sit():
    # Otoroku draws for the deal and the seats (game.draw): the human follows their seat
    r = _rulekit("play", "otoroku", "--seed", "3", "--players", "4", "--human", "1", "--rounds", "1",
                 stdin="1\n" * 20)
    assert r.returncode == 0, r.stderr
    assert "Where you sit is drawn for (you asked for seat 1; the draw decides)." in r.stdout
    assert "You sit at seat 2; seat 0 deals first." in r.stdout
    assert "Your turn" in r.stdout and "You choose" in r.stdout


def test_a_table_size_the_rules_do_not_play_is_a_usage_error_naming_the_sizes():
    # Kakkuri's `players.sizes`: 7 or 8 under the literal rule, 5 to 8 with the house rule
    for n in ("5", "6"):
        r = _rulekit("play", "kakkuri", "--players", n, "--seed", "1")
        assert r.returncode == 2, r.stdout[-300:]
        assert f"--players {n}: kakkuri is for 7 or 8 players with these rules" in r.stderr
        assert r.stdout == ""
    r = _rulekit("simulate", "kakkuri", "--players", "5", "--rounds", "2")
    assert r.returncode == 2 and "kakkuri is for 7 or 8 players" in r.stderr
    r = _rulekit("play", "kakkuri", "--players", "5", "-o", "players=five_to_eight", "--seed", "1", "--rounds", "1")
    assert r.returncode == 0, r.stderr

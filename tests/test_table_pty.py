"""Whole games at the live table, driven through a real pseudo-terminal (pexpect), as a person
would play them: what the screen shows at each step is checked against the game's own log.

No wall-clock assertions: pexpect's timeouts are only safety nets against a hung game.
"""
from __future__ import annotations

import json
import os
import re
import sys

import pytest

from rulekit.engine.build import build_game, load_variant
from rulekit.engine.runner import replay_check

from .conftest import ROOT

pexpect = pytest.importorskip("pexpect")

PROMPTS = [r"Your choice \(1 to (\d+);", r"Type a number from (-?\d+) to (-?\d+)", r"Press Enter for round (\d+)",
           r"Game over after (\d+) rounds?\.[^\n]*\n", pexpect.EOF, r"Press Enter to go on"]


def _drive(args: list[str], log: str, answer=None, keys=("?", "t")) -> tuple[list[str], str]:
    """Play a game at the table; returns the screens (text shown before each answer) and all text."""
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100", "LINES": "40", "PYTHONIOENCODING": "utf-8"}
    child = pexpect.spawn(sys.executable, ["-m", "rulekit", "play", *args, "--log", log, "--verbose"], cwd=ROOT, env=env,
                          dimensions=(40, 100), encoding="utf-8", timeout=120)
    screens: list[str] = []
    text = ""
    pending_keys = list(keys)
    try:
        for _ in range(500):
            i = child.expect(PROMPTS)
            chunk = (child.before or "") + (child.after if isinstance(child.after, str) else "")
            chunk = chunk.replace("\r\n", "\n")
            text += chunk
            screens.append(chunk)
            if i == 4:
                break
            if i == 3:
                child.expect(pexpect.EOF)
                text += (child.before or "").replace("\r\n", "\n")
                break
            if i in (2, 5):  # the next round, or a screenful told (the pager)
                child.sendline("")
                continue
            if pending_keys:
                child.sendline(pending_keys.pop(0))
                continue
            if i == 0:
                k = int(child.match.group(1))
                child.sendline(str(answer(chunk, k) if answer else min(2, k)))
            else:
                child.sendline(child.match.group(1))
        else:
            pytest.fail("the game did not end within 500 prompts")
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, text[-2000:]
    return screens, text


def _log(path: str):
    with open(path, encoding="utf-8") as fh:
        log = json.load(fh)
    game = build_game(load_variant(log["variant"]), log["options"], log.get("preset"), log["deck"])
    return game, log


def _card(game, cid):
    return game.deck.cards[game.card_index[cid]]


def _tables(text: str) -> list[str]:
    """Each 'The table' block shown."""
    out = []
    for part in text.split("The table — round ")[1:]:
        block = []
        for ln in part.split("\n")[1:]:
            if not ln.startswith("  "):
                break
            block.append(ln.strip())
        out.append("\n".join(block))
    return out


def _three_rounds(tmp_path, args: list[str]):
    """Play a three-round game at the pty; check its log replays, its three round summaries and
    standings; (screens, text, game, replayed result)."""
    log = str(tmp_path / "game.json")
    screens, text = _drive(args, log)
    game, lg = _log(log)
    res = replay_check(game, lg)
    assert lg["rounds"] == 3
    assert [int(x) for x in re.findall(r"End of round (\d+)", text)] == [1, 2, 3]
    assert text.count("Standings:") == 3
    return screens, text, game, res


def _all_told(game, bots: list[dict], text: str, you: int) -> None:
    """Every bot's decision is told in the variant's words, and never as forced (a table cannot
    tell a forced move from a free one)."""
    from rulekit.people.narrate import Narrator
    assert bots
    nar = Narrator(game, 10)
    for e in bots:
        assert nar.action_text(e["choice"], e["action"]) in text, e
    assert not re.search(r"Seat \d+( \([^)]*\))? has one choice only", text)


def _round_texts(text: str) -> list[str]:
    return re.split(r"\nRound \d+(?: of \d+)?: ", text)[1:]


def test_kyo_kabu_three_rounds_at_the_table(tmp_path):
    # the game's own length (-o rounds=3), a summary and standings after each round, then the winner
    screens, text, game, res = _three_rounds(tmp_path, ["kyo-kabu", "-o", "rounds=3", "--seed", "11", "--human", "1"])
    best = max(res.chips)
    winners = [s for s, c in enumerate(res.chips) if c == best]
    assert re.search(r"Game over after 3 rounds\. (The winner is|.* share first place)", text)
    if len(winners) == 1:
        w = "you (seat 1)" if winners[0] == 1 else f"seat {winners[0]}"
        assert f"The winner is {w}, with {best:+d} chip{'' if abs(best) == 1 else 's'}." in text
    # the final standings list every seat's chips as the replayed game has them
    final = text.rsplit("Standings:", 1)[1]
    for s, c in enumerate(res.chips):
        assert re.search(rf"Seat {s}( \([^)]*\))?: {re.escape(f'{c:+d}')} chips?", final), (s, c, final)
    # every bot's decision is told in words, with the variant's labels (never col=-1)
    bots = [e for e in res.events if e["t"] == "choose" and e["player"] != 1]
    _all_told(game, bots, text, 1)
    assert "col=" not in text and "col -1" not in text and "take: yes" not in text
    # your stake's hole card: named with the column's value, the last digit of its total
    # (kabufuda names say their values: "Five", never "Five (5)")
    value = {c.name: c.attrs["value"] for c in game.deck.cards}
    seen = 0
    for m in re.finditer(r"You see ([^\n]*?) — column (\d) is now ([^\n]*), which shows (\d)\.", text):
        col = int(m.group(2)) - 1
        names = re.split(r", | and ", m.group(3))
        assert int(m.group(4)) == sum(value[x] for x in names) % 10, m.group(0)
        assert 0 <= col < 4 and m.group(1) in names
        seen += 1
    assert seen and not re.search(r"(Five|Six|Seven|Eight) \(\d+\)", text)
    # hidden cards stay hidden: before each showdown, every table view shows the dealer's hand
    # and the columns you did not stake on with hidden cards only
    for rtext in _round_texts(text):
        before = rtext.split("\nShowdown")[0]
        stakes = {int(c) for c in re.findall(r"You choose: column (\d)", before)}
        dealt = before.split("Dealer's first card and the second field", 1)
        assert len(dealt) == 2
        for tb in _tables(dealt[1]):  # views after the hole cards are dealt
            lines = tb.split("\n")
            assert any(ln.startswith("The dealer's hand:") for ln in lines)
            for ln in lines:
                if ln.startswith("The dealer's hand:"):
                    assert re.fullmatch(r"The dealer's hand: (a hidden card|\d+ hidden cards)", ln), ln
                m = re.match(r"Column (\d): (.*)", ln)
                if m and int(m.group(1)) not in stakes:
                    # a column you did not stake on: its hole card is not named, so no value either
                    assert "a hidden card" in m.group(2) and " — shows" not in ln, ln
                elif m:
                    assert "hidden" not in m.group(2) and re.search(r" — shows \d$", ln), ln
        assert "Shown to everyone" not in before
        for ln in before.split("\n"):
            assert not ln.strip().startswith("Seat 0 (dealer) sees"), ln
    # the round summary names the hands with their values and who paid whom
    assert re.search(r"The dealer's hand: .* — shows \d\.", text)
    assert re.search(r"Seat \d( \([^)]*\))? pays \d+ chips? to seat \d", text)
    # ? shows the rules text of the phase, t the table
    assert "Rules: " in text and "The table — round 1" in text


def test_otoroku_three_rounds_at_the_table(tmp_path):
    screens, text, game, res = _three_rounds(tmp_path, ["otoroku", "--preset", "three-rounds", "--seed", "5",
                                                         "--human", "2"])
    assert "Game over after 3 rounds." in text
    # your first card, named with its value, and your hand's total
    for m in re.finditer(r"You are dealt ([^\n]*) \((\d+)\): your hand shows (\d+)\.", text):
        assert int(m.group(2)) == int(m.group(3))
    dealt = re.findall(r"You are dealt ([^\n]*) \((\d+)\)", text)
    assert len(dealt) == 3
    # each of your face-down first cards is one the log dealt you
    names = {_card(game, c).name for c in game.card_ids}
    assert all(d[0] in names for d in dealt)
    # bots' decisions in words ("take another card", "stand"), never hit=true
    you = res.log["seating"].index(2)  # the draw for seats (game.draw) may seat player 2 elsewhere
    assert re.search(rf"You sit at seat {you}[;,] ", text)
    bots = [e for e in res.events if e["t"] == "choose" and e["player"] != you]
    _all_told(game, bots, text, you)
    assert "hit" not in text
    # no other seat's face-down first card is named before it is shown to everyone
    rounds = _round_texts(text)
    deals = [i for i, e in enumerate(res.events) if e["t"] == "deal"]
    assert len(deals) == 3 and len(rounds) == 3
    for r, (rtext, di) in enumerate(zip(rounds, deals)):
        ev = res.events[di]
        order = ev["players"]
        deck = next(e for e in reversed(res.events[:di]) if e["t"] == "shuffle")["order"]
        cut = next((e for e in res.events[:di] if e["t"] == "cut" and res.events.index(e) > res.events.index(
            next(x for x in reversed(res.events[:di]) if x["t"] == "shuffle"))), None)
        if cut:
            deck = deck[cut["at"]:] + deck[:cut["at"]]
        firsts = {p: deck[-1 - k] for k, p in enumerate(order)}
        for p, cid in firsts.items():
            if p == you:
                continue
            name = _card(game, cid).name
            if sum(1 for c in game.deck.cards if c.name == name) > 1:
                continue  # a name two cards share says nothing about which one
            # the showdown tells the hands shown together ("Shown to everyone:" and a line per hand),
            # or one hand ("Seat 3's hand is shown: ..."), wrapped at 100 columns: read with its
            # line breaks as spaces
            flat = re.sub(r"\s+", " ", rtext)
            shown = [m.start() for m in re.finditer(r"Shown to everyone:| is shown: ", flat)]
            at = next((flat.find(name, a) for a in shown if flat.find(name, a) >= 0), -1)
            head = flat if at < 0 else flat[:at]
            # the only mentions before it is shown would be the moves that reveal it
            assert name not in head, (r, p, name)
    # the summary names hands with totals; payments say who pays whom and why
    assert re.search(r"hand: .* — shows \d+\.", text)
    assert re.search(r"pays \d+ chips? to seat \d", text)


def test_human_seat_out_of_range_is_a_usage_error():
    import subprocess
    r = subprocess.run([sys.executable, "-m", "rulekit", "play", "kyo-kabu", "--human", "9"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "--human 9: expected a seat from 0 to 4" in r.stderr


def test_colour_on_a_terminal_without_no_color(tmp_path):
    """On a real terminal (no NO_COLOR) the table is coloured with real escape codes, and a
    variant's text still cannot send its own (everything from the file is made inert)."""
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    # q saves the game: to this test's folder, never the real home
    env.update({"TERM": "xterm-256color", "COLUMNS": "100", "LINES": "40", "XDG_STATE_HOME": str(tmp_path)})
    child = pexpect.spawn(sys.executable, ["-m", "rulekit", "play", "kyo-kabu", "--seed", "3", "--human", "1",
                                           "--rounds", "1"], cwd=ROOT, env=env, dimensions=(40, 100),
                          encoding="utf-8", timeout=120)
    try:
        child.expect(r"Your choice \(1 to \d+")
        shown = child.before
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert "\x1b[" in shown  # styles reach the terminal as escape codes
    assert "\\x1b" not in shown  # ... not as escaped text

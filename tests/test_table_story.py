"""The story told at the table and to onlookers: nothing a real table would not show, in words
a player uses (issue 24). Games are driven through a real pseudo-terminal where the keyboard matters."""
from __future__ import annotations

import json
import os
import re
import sys

import pytest

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import game
from rulekit.people.narrate import narrate

from .conftest import ROOT

VARIANTS = ["hanafuda/hana-awase.yaml", "hanafuda/hiraya.yaml", "hanafuda/kingo-banking.yaml",
            "hanafuda/kingo.yaml", "hanafuda/otoroku.yaml", "kabufuda/dare.yaml", "kabufuda/kyo-kabu.yaml",
            "kabufuda/oicho-kabu.yaml", "mekurifuda/kakkuri.yaml"]


def _flip(events: list[dict], viewer: int) -> list[dict]:
    """The same events with every other seat's choice told as forced when it was free, and free
    when it was forced."""
    out = []
    for e in events:
        if e.get("t") == "choose" and e["player"] != viewer:
            e = dict(e)
            if e.get("forced"):
                del e["forced"]
            else:
                e["forced"] = True
        out.append(e)
    return out


@pytest.mark.parametrize("rel", VARIANTS)
def test_others_forced_and_free_moves_read_alike(rel):
    # random games: both forced and free moves happen; what each seat reads must not depend on
    # whether another seat had a choice
    g = game(rel)
    n = g.variant.meta.players_default
    forced = free = 0
    for seed in (1, 2):
        res = play(g, n, seed, make_agents(g, n, seed, "random"), rounds=2)
        forced += sum(1 for e in res.events if e.get("t") == "choose" and e.get("forced"))
        free += sum(1 for e in res.events if e.get("t") == "choose" and not e.get("forced"))
        for viewer in range(n):
            assert narrate(g, res.events, n, viewer) == narrate(g, _flip(res.events, viewer), n, viewer), (seed, viewer)
    assert forced + free > 0


def test_the_acting_seat_may_be_told_it_had_no_choice():
    g = game("mekurifuda/kakkuri.yaml")
    n = g.variant.meta.players_default
    res = play(g, n, 1, make_agents(g, n, 1, "random"), rounds=1)
    mine = next(e for e in res.events if e.get("t") == "choose" and e.get("forced"))
    told = narrate(g, res.events, n, mine["player"])
    assert any(t.startswith("You have one choice only:") for t in told)
    others = narrate(g, res.events, n, (mine["player"] + 1) % n)
    assert not any(t.startswith("Seat") and "one choice only" in t for t in others)


def test_otoroku_hand_value_names_the_teyaku():
    # the last bettor's June and October are Otoroku, named as the hand's value (not its count);
    # for any other seat the same two cards are a plain 16
    from rulekit.people.narrate import Narrator
    g = game("hanafuda/otoroku.yaml")
    nar = Narrator(g, 5, None)
    nar.dealer = 0
    ids = g.card_ids
    june = next(ids[i] for i, c in enumerate(g.deck.cards) if c.attrs["month"] == 6)
    october = next(ids[i] for i, c in enumerate(g.deck.cards) if c.attrs["month"] == 10)
    last = 4  # left of the dealer (seat 0): the last to bet
    assert nar.hand_value(f"hand[{last}]", [june, october]) == "Otoroku (6 and 10)"
    assert nar.hand_value("hand[2]", [june, october]) == 16


def _watch(*args: str) -> str:
    import subprocess
    r = subprocess.run([sys.executable, "-m", "rulekit", "play", *args], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "NO_COLOR": "1"}, timeout=300)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    return r.stdout


def test_watching_tells_the_story_and_trace_keeps_the_engine_words():
    out = _watch("kyo-kabu", "--seed", "3", "--rounds", "2")
    assert "->" not in out and "col -1" not in out and "pays -" not in out and "Noted" not in out
    assert "Round 1 of 2: seat 0 deals." in out and "Round 2 of 2" in out
    assert "The players play carefully. How a careful player plays:" in out
    assert "Game over after 2 rounds." in out
    # a watcher sees no face-down card before it is shown to everyone
    first = out.split("Showdown")[0]
    assert "sees" not in first
    trace = _watch("kyo-kabu", "--seed", "3", "--rounds", "2", "--trace", "--opponents", "random")
    assert "== Round 1 (dealer: seat 0) ==" in trace and "->" in trace and "seat 3 must (bet)" in trace


pexpect = pytest.importorskip("pexpect")


def test_ctrl_d_at_a_prompt_saves_and_says_how_to_continue(tmp_path):
    env = {**os.environ, "NO_COLOR": "1", "XDG_STATE_HOME": str(tmp_path / "state"), "PYTHONIOENCODING": "utf-8"}
    child = pexpect.spawn(sys.executable, ["-m", "rulekit", "play", "kyo-kabu", "--seed", "5", "--human", "1"],
                          cwd=str(tmp_path), env=env, dimensions=(40, 100), encoding="utf-8", timeout=120)
    try:
        child.expect(r"Your choice \(1 to \d+;|Type a number from")
        first = child.before
        child.sendeof()
        child.expect(pexpect.EOF)
        text = (child.before or "").replace("\r\n", "\n")
    finally:
        child.close(force=True)
    # the table opponents named, with the variant's few words for this screen (its `brief`)
    assert "Your opponents play as people at a table do: each stakes 1 to 3 chips" in first
    assert re.search(r"(?i)round 1 of 12", first)  # the round's own heading, or the table's naming it
    assert "End of input (Ctrl-D): you left the table." in text and "error[" not in text
    flat = re.sub(r"\n +", " ", text)  # at 100 columns a long sentence wraps between words
    m = re.search(r"The game is saved in (\S+) \(", flat)
    assert m and "To continue it: rulekit play --resume" in flat
    saved = json.loads(open(m.group(1), encoding="utf-8").read())
    assert saved["partial"] is True and saved["human"] == 1 and saved["policy"] == "table"  # Kyō-Kabu's table opponents
    assert child.exitstatus == 0


def test_hiraya_exposed_teyaku_is_hidden_again_before_play():
    # RULES.md 5.3: a Hiraya teyaku hand must be shown and is paid 30 by each other player; then
    # it is hidden again. Seat 1 is dealt seven Chaff.
    from rulekit.people.narrate import Narrator

    from .hanafuda_stack import HIRAYA, cached_game, deal_top, run_once
    chaff7 = ["1-3", "1-4", "2-3", "2-4", "3-3", "3-4", "4-3"]
    hands = {0: ["5-1", "5-2", "6-1", "6-2", "7-1", "7-2", "8-1"], 1: chaff7,
             2: ["9-1", "9-2", "10-1", "10-2", "11-1", "11-2", "12-1"]}
    g = cached_game(HIRAYA, {})
    out = run_once(g, 3, deal_top(hands, ["8-2", "12-2", "4-1", "4-2", "5-3", "6-3"]))
    ev = out.result.events
    shown = next(i for i, e in enumerate(ev) if e["t"] == "reveal" and sorted(e["cards"]) == sorted(chaff7))
    hidden = next(i for i, e in enumerate(ev) if e["t"] == "hide")
    first_play = next(i for i, e in enumerate(ev) if e["t"] == "move" and e["to"] == "played")
    assert shown < hidden < first_play and sorted(ev[hidden]["cards"]) == sorted(chaff7)
    # the other players see the hand while it is shown, and not once it is picked up again
    for viewer in (0, 2):
        nar = Narrator(g, 3, viewer)
        for k, e in enumerate(ev[:first_play]):
            nar.feed(e)
            if k == shown:
                assert "hidden" not in nar.zone_view("hand[1]")[0]
        assert nar.zone_view("hand[1]")[0] == "7 hidden cards"
    # its owner still sees it
    nar = Narrator(g, 3, 1)
    for e in ev[:first_play]:
        nar.feed(e)
    assert "hidden" not in nar.zone_view("hand[1]")[0]


def _first_screen(args: list[str], tmp_path) -> str:
    """What the table shows up to the player's first question (then the player leaves with q)."""
    env = {**os.environ, "NO_COLOR": "1", "XDG_STATE_HOME": str(tmp_path / "state"), "PYTHONIOENCODING": "utf-8"}
    child = pexpect.spawn(sys.executable, ["-m", "rulekit", "play", *args], cwd=str(tmp_path), env=env,
                          dimensions=(40, 100), encoding="utf-8", timeout=120)
    try:
        text = ""
        while child.expect([r"Your choice \(1 to \d+;|Type a number from", r"Press Enter to go on"]) == 1:
            text += (child.before or "").replace("\r\n", "\n")  # a screenful: the pager
            child.sendline("")
        text += (child.before or "").replace("\r\n", "\n")
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    return text


@pytest.mark.parametrize("rel,human", [("kabufuda/kyo-kabu.yaml", 3), ("kabufuda/oicho-kabu.yaml", 2)])
def test_stakes_and_the_table_maximum_left_at_a_decision(tmp_path, rel, human):
    gid = rel.split("/")[1][:-5]
    text = _first_screen([gid, "--seed", "3", "--human", str(human)], tmp_path)
    assert re.search(r"Round 1 of \d+: seat \d deals\.", text)
    # what the bots staked before you, as told, is what the table shows by column and seat (the
    # opponents at the table play the game's `table` policy where it has one)
    g = game(rel)
    n = g.variant.meta.players_default
    policy = "table" if "table" in g.policies else "careful"
    res = play(g, n, 3, make_agents(g, n, 3, policy), rounds=1)
    staked: dict[int, dict[int, int]] = {}
    for e in res.events:
        if e.get("t") == "choose" and e["player"] == human:
            break
        if e.get("t") == "choose" and e["choice"] == "bet" and e["action"]["col"] >= 0:
            col = staked.setdefault(e["action"]["col"], {})
            col[e["player"]] = col.get(e["player"], 0) + e["action"]["amount"]
    assert staked  # the bots before you staked
    for j, by in staked.items():
        seats = ", ".join(str(s) for s in sorted(by))
        # none yours: one seat's stake 'N, by seat S'; several seats' 'N in all, by seats S, T'
        said = f", by seat {seats}" if len(by) == 1 else f" in all, by seats {seats}"
        assert f"Stakes on column {j + 1}: {sum(by.values())}{said}\n" in text
    limit = g.options["table_limit"]
    total = sum(sum(by.values()) for by in staked.values())
    assert f"Table maximum {limit}: {total} staked, {limit - total} left" in text


def test_otoroku_last_bettor_sees_the_teyaku_in_the_hand_value_and_their_role(tmp_path):
    # seed 36: player 2 is drawn to the last bettor's seat and holds a teyaku at the first question
    g = game("hanafuda/otoroku.yaml")
    res = play(g, 5, 36, make_agents(g, 5, 36, "careful"), rounds=1)
    you = res.log["seating"].index(2)
    deal = next(e for e in res.events if e["t"] == "deal")
    dealer = next(e for e in res.events if e["t"] == "round")["dealer"]
    last = [p for p in deal["players"] if p != dealer][-1]
    at = next(i for i, e in enumerate(res.events) if e["t"] == "choose" and e["player"] == you)
    hand: list[str] = []
    for e in res.events[:at]:
        if e["t"] == "deal":
            hand += [deal_card for deal_card in _dealt(e, you, res.events)]
        if e["t"] == "move" and e["to"] == f"hand[{you}]":
            hand += e["cards"]
    ctx = g.new_ctx(5, 0, None, False)
    ctx.dealer = dealer
    names = [y.names["en"] for y in g.yaku["teyaku"]
             if y.id in {h.id for h in ctx.yaku_eval("teyaku", [g.card_index[c] for c in hand], you)}]
    assert names and you == last
    text = _first_screen(["otoroku", "--seed", "36", "--human", "2"], tmp_path)
    assert "Round 1 of 12" in text
    assert re.search(rf"Your hand: .* — shows {re.escape(names[0])}(?! \(\d)", text), text
    assert "You are the last bettor: you go Buta only at 17, and your 16 beats 15" in text


def _dealt(e: dict, seat: int, events: list[dict]) -> list[str]:
    """The cards a deal event gave `seat` (from the shuffled order before it, top card last)."""
    i = events.index(e)
    sh = next(x for x in reversed(events[:i]) if x["t"] == "shuffle")
    order = list(sh["order"])
    cut = next((x for x in events[events.index(sh):i] if x["t"] == "cut"), None)
    if cut:
        order = order[cut["at"]:] + order[:cut["at"]]
    out = []
    for k in range(e["count"]):
        for j, p in enumerate(e["players"]):
            c = order[-1 - (k * len(e["players"]) + j)]
            if p == seat:
                out.append(c)
    return out

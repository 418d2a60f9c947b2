"""At the table, questions the rules give nothing to decide on (display.unasked): Kakkuri's blind
hand exchange is answered for the person (they keep their hand) and said so, on the first screen
and where the question would have been; --ask-all, or a house rule that lets players look first,
asks it again. And a pass says what would have fitted the run."""
from __future__ import annotations

import io
import os
import subprocess
import sys

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import game
from rulekit.people.table import Screen, Table
from rulekit.people.words import join_words
from tests.test_kakkuri import deal_top, ids

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MINE = ids("s4 u6 o8 c9 s11 u12")  # seat 1's dealt hand
DEALERS = ids("u4 o6 c8 s9 u11 o12")  # the dealer's (seat 0)


def _table(options=None, ask_all=False, answers="2\n"):
    """One stacked round of Kakkuri with a person at seat 1 (seat 0 deals; the run starts with a
    Three); all the screen said."""
    g = game("mekurifuda/kakkuri.yaml", options)
    top, _, _ = deal_top(g, {0: DEALERS, 1: MINE}, ids("s3"))
    out = io.StringIO()
    table = Table(g, 7, 1, Screen(io.StringIO(answers + "1\n" * 200), out), pause=False, ask_all=ask_all)
    table.nar.rounds = 1
    res = play(g, 7, 5, make_agents(g, 7, 5, "careful", human=1, human_agent=table), rounds=1, dealer=0,
               stack={"deck": top}, observe=table.observe, logging=True)
    table.finish(res.chips, 1)
    return table, out.getvalue()


def _seen(table, cards) -> str:
    """The hand as the table names it when you look at it (by rank)."""
    return join_words([table.nar.card_text(c) for c in sorted(cards, key=lambda c: int(c.split("-")[1]))])


def test_the_blind_exchange_is_not_asked_and_the_player_keeps_the_dealt_hand():
    table, text = _table()
    assert "Exchange your whole hand" not in text
    assert "You keep your hand (the exchange is blind)." in text
    # the hand looked at is the one dealt: the '2' typed was not taken as an exchange
    assert f"You see {_seen(table, MINE)} — your hand." in text, text


def test_ask_all_asks_the_exchange_and_the_answer_counts():
    table, text = _table(ask_all=True)
    assert "Your turn: Exchange your whole hand with the dealer's?" in text
    assert "(the exchange is blind)" not in text
    # answered 2 (exchange): the hand looked at is the dealer's dealt hand
    assert f"You see {_seen(table, DEALERS)} — your hand." in text, text


def test_when_players_look_first_the_exchange_is_asked():
    table, text = _table({"swap_rules": "look"})
    assert "Your turn: Exchange your whole hand with the dealer's?" in text
    assert "(the exchange is blind)" not in text


def test_the_first_screen_says_the_table_keeps_the_hand_and_how_to_be_asked():
    env = {**os.environ, "PYTHONPATH": ROOT, "NO_COLOR": "1"}
    run = [sys.executable, "-m", "rulekit", "play", "kakkuri", "--human", "1", "--seed", "3", "--rounds", "1"]
    first = subprocess.run(run, input="q\n", capture_output=True, text=True, env=env, cwd=ROOT, timeout=120).stdout
    head = first.split("Seed 3:")[0]
    assert "nothing tells one unseen hand from another, so the table keeps your hand for you" in head
    assert "--ask-all" in head
    asked = subprocess.run(run + ["--ask-all"], input="q\n", capture_output=True, text=True, env=env, cwd=ROOT,
                           timeout=120).stdout
    assert "the table keeps your hand" not in asked and "Exchange your whole hand" in asked


def test_a_pass_says_what_would_have_fitted():
    # the run starts with a Three; the dealer plays the Four of Cups and has no Five; seat 1
    # holds no Five and no wild card
    table, text = _table()
    assert "Seat 0 (dealer) plays Four of Cups." in text, text
    assert "You pass and pay 1 chip to the pot, your only choice: nothing of yours fits the run's rank 4 " \
           "(only rank 5 or a wild card would)." in text, text


def test_your_turns_told_short_never_read_as_one_turn_the_rules_forbid():
    """Between two questions your forced turns are told short (others' turns left to t): two turns
    of yours that played cards are two sentences, with the others' turns counted between them, so
    a sentence's cards always follow one another by the rules (seed 21: a Maid and a Horse, then
    an Eight six turns later)."""
    import re
    g = game("mekurifuda/kakkuri.yaml")
    rank = {g.card_name(i): c.attrs["rank"] for i, c in enumerate(g.deck.cards)}
    wild = {g.card_name(i) for i, c in enumerate(g.deck.cards) if c.attrs["role"] == "wild"}
    apart = 0
    for seed in (21, 8, 5):
        out = io.StringIO()
        table = Table(g, 7, 1, Screen(io.StringIO("1\n" * 3000), out), pause=True)
        table.nar.rounds = 2
        res = play(g, 7, seed, make_agents(g, 7, seed, "careful", human=1, human_agent=table), rounds=2, dealer=0,
                   observe=table.observe)
        table.finish(res.chips, 2)
        text = out.getvalue()
        apart += len(re.findall(r"^  You play [^\n]+\n  The other seats take \d+ turns\.\n  You play ", text, re.M))
        for played in re.findall(r"^  You play (.+?)(?:, your only choice.*)?\.$", text, re.M):
            names = [re.sub(r" \([^)]*\)$", "", n) for n in re.split(r", | and ", played)]
            for a, b in zip(names, names[1:]):
                ra, rb = rank[a], rank[b]
                assert a in wild or b in wild or ra == 12 or rb == ra + 1 or (ra <= 2 and rb == ra) \
                    or ra == rb, played  # (three of a rank go down together)
    assert apart

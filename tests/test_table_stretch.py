"""Stretches without a choice told short at a table that pauses: the rest of a round you have
nothing to decide in, many turns of others between your questions, the deal before your first
question; the whole story one key away (t) or told as it happens (--verbose)."""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import game
from rulekit.people.line import Line
from rulekit.people.table import Screen, Table
from rulekit.people.table.stretch import laid_open, short_story

from .conftest import ROOT


def _evening(game_id: str, seed: int) -> str:
    """`yes 1 | rulekit play GAME --human 1 --seed SEED --policy careful`: all it printed (careful
    opponents: the table's search opponents in Kakkuri play on a clock, so their evening is not
    the same from one run to the next, and takes minutes)."""
    env = {**os.environ, "NO_COLOR": "1"}
    r = subprocess.run([sys.executable, "-m", "rulekit", "play", game_id, "--human", "1", "--seed", str(seed),
                        "--policy", "careful"],
                       input="1\n" * 3000, capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.mark.parametrize("game_id,seed,most", [("dare", 14, 300), ("dare", 23, 300),
                                               ("kakkuri", 6, 600), ("kakkuri", 8, 600)])
def test_an_evening_with_few_choices_reads_in_few_lines(game_id, seed, most):
    """A whole evening (12 rounds) answered 1 throughout: Dare in at most 300 lines, Kakkuri in at
    most 600 (seeds with the most questions among the first 30 and 12), every round still ending
    with who was paid and the standings."""
    text = _evening(game_id, seed)
    assert "Game over after 12 rounds." in text
    assert len(text.splitlines()) <= most, len(text.splitlines())
    assert len(re.findall(r"^End of round \d+", text, re.M)) == 12
    assert len(re.findall(r"^Standings: ", text, re.M)) == 12
    assert text.count("t the whole round") >= 5  # most rounds ended with a stretch told short


# Dare with the high-card tie-break: the cards kept count, so a player is asked how to lay down
HIGH_CARD = {"tie_break": "high_card"}


def _table(rel: str, n: int, seed: int, answers: str, rounds: int = 2, verbose: bool = False,
           options: dict | None = None) -> tuple[str, list]:
    """A game at seat 1 on a table that pauses, answering `answers` over and over; its text and events."""
    g = game(rel, options or {})
    out = io.StringIO()
    table = Table(g, n, 1, Screen(io.StringIO(answers * 3000), out), pause=True, verbose=verbose)
    table.nar.rounds = rounds
    events: list[dict] = []

    def observe(e):
        events.append(e)
        table.observe(e)
    res = play(g, n, seed, make_agents(g, n, seed, "careful", human=1, human_agent=table), rounds=rounds,
               dealer=0, observe=observe)
    table.finish(res.chips, rounds)
    return out.getvalue(), events


def _round_one(text: str) -> str:
    return text.split("End of round 1", 1)[0]


def test_the_rest_of_a_round_is_told_short_and_t_tells_it_whole():
    """After your last answer of a Dare round, the others' lay-downs and the showdown are not told
    one by one: the round's end names the hands' values, the payment and the standings with this
    round's change; t at the pause tells the rest of the round, every other seat's turn included."""
    # the high-card tie-break: the cards kept count, so the ways of laying down are asked
    short, _ = _table("kabufuda/dare.yaml", 4, 1, "1\n", rounds=3, options=HIGH_CARD)
    mine = short.split("You choose: ", 1)[1].split("End of round 1", 1)[0]
    assert not re.search(r"^  Seats? \d", mine, re.M), mine  # no other seat's turn after yours
    end = short.split("End of round 1", 1)[1].split("Press Enter", 1)[0]
    assert "Shown: " in end and "The pot pays 4 chips to seat " in end
    assert re.search(r"^Standings: .*\.$", end, re.M) and "(in brackets" not in end  # the first round's are its changes
    end = short.split("End of round 2", 1)[1].split("Press Enter", 1)[0]
    standings = re.search(r"^Standings: (.*) \(in brackets: this round's change\)\.$", end, re.M)
    assert standings, end
    changes = [int(x) for x in re.findall(r"\(([+-]\d+)\)", standings.group(1))]
    assert sum(changes) == 0 and max(changes) == 3  # four antes, the pot to one seat
    told, _ = _table("kabufuda/dare.yaml", 4, 1, "t\n1\n")
    whole = told.split("The rest of the round, in full:", 1)[1].split("Press Enter", 1)[0]
    seats = {int(s) for s in re.findall(r"^  Seat (\d) (?:\(dealer\) )?lays down", whole, re.M)}
    assert seats == {0, 2, 3}, whole  # seat 1 (you) answered first: every other seat laid down after


def test_verbose_tells_every_turn_as_it_happens():
    short, _ = _table("kabufuda/dare.yaml", 4, 1, "1\n")
    full, _ = _table("kabufuda/dare.yaml", 4, 1, "1\n", verbose=True)
    assert "t the whole round" in short and "t the whole round" not in full
    assert re.search(r"^  Seat \d (?:\(dealer\) )?lays down", _round_one(full), re.M)
    assert "During play (counted in the chip changes)" in full
    assert len(full.splitlines()) > len(short.splitlines())


def test_many_turns_of_others_between_your_questions_are_counted_and_t_tells_them():
    """Kakkuri: a long run of the others' plays between two of your questions is one line that
    counts their turns; t at the next question tells them, then draws the table."""
    short, _ = _table("mekurifuda/kakkuri.yaml", 7, 2, "1\n", rounds=12)
    counted = re.findall(r"^  The other seats took (\d+) turns since your last answer", short, re.M)
    assert counted and all(int(k) > 1 for k in counted)
    told, _ = _table("mekurifuda/kakkuri.yaml", 7, 2, "t\n1\n", rounds=12)
    block = told.split("Since your last answer, in full:", 1)[1].split("Your turn", 1)[0]
    assert re.search(r"^  Seats? \d", block, re.M) and "The table — " in block


def test_the_story_is_read_as_data_not_words():
    """A card named like a sentence about a seat changes nothing: what is kept is decided by the
    lines' kind, seat and places."""
    odd = "Seat 1 (you) wins"  # a card's name that reads like a sentence
    lines = [Line("heading", "Round 1 of 2: seat 0 deals."),
             Line("choice", f"Seat 2 plays {odd}.", 2, cards=(odd,)),
             Line("move", f"{odd} goes from seat 2's hand to the field face up.", cards=(odd,), src="hand[2]",
                  dst="field"),
             Line("move", f"{odd} goes from the deck to your hand.", cards=(odd,), src="deck", dst="hand[1]"),
             Line("pay", "Seat 1 (you) pays 1 chip to the pot.", 1),
             Line("note", "The round ends.")]
    kept = short_story(lines, 1, lambda z: z == "hand[1]")
    assert [ln.text for ln in kept] == ["Round 1 of 2: seat 0 deals.", f"{odd} goes from the deck to your hand.",
                                        "The round ends."]


def test_sets_only_laid_open_are_left_to_the_table_but_plays_to_the_field_are_told():
    g = game("kabufuda/dare.yaml")
    table = Table(g, 4, 1, Screen(io.StringIO(""), io.StringIO()), pause=True)
    laid = [Line("choice", "Seat 2 lays down A, B and C.", 2), Line("move", "A, B and C go ...", src="hand[2]",
                                                                       dst="sets[2]")]
    field = [Line("choice", "Seat 3 plays D.", 3), Line("move", "D goes ...", src="hand[3]", dst="field")]
    assert laid_open(laid + field, 1, table.nar) == field


def test_a_forced_answer_is_marked_every_time_its_reason_once():
    """Kakkuri: every answer the rules left you alone is marked 'your only choice'; the reason is
    told once a round."""
    text, events = _table("mekurifuda/kakkuri.yaml", 7, 2, "1\n", rounds=3, verbose=True)
    forced = [e for e in events if e.get("t") == "choose" and e["player"] == 1 and e.get("forced")]
    marked = re.findall(r"^  You .*your only choice", text, re.M)
    assert forced and len(marked) >= 3
    # a play of yours is told either as your answer ('You choose: play ...') or marked as forced
    assert not re.search(r"^  You play [^,;]*\.$", text, re.M)


def test_the_chips_at_a_question_say_what_this_round_paid_so_far():
    """Dare's ante is paid before the first question: the table's chips say so beside the
    standings' figures, so the two never seem to disagree."""
    text, _ = _table("kabufuda/dare.yaml", 4, 1, "1\n", options=HIGH_CARD)  # a question each round
    first, second = re.findall(r"^  Chips: (.*)$", text, re.M)[:2]
    assert "(" not in first.replace("(dealer)", "").replace("(you)", "")  # the first round: its own figures
    assert second.endswith("(in brackets: this round so far)") and second.count("(-1)") == 4


def test_the_winner_of_a_game_with_chips_in_hand_is_told_what_they_hold_and_their_gain():
    import dataclasses
    g = game("kabufuda/dare.yaml")
    g = dataclasses.replace(g, start_chips=20)
    out = io.StringIO()
    table = Table(g, 4, 1, Screen(io.StringIO(""), out), pause=False)
    table.finish([19, 21, 20, 20], 12)
    assert "The winner is you (seat 1), with 21 chips (up 1)." in out.getvalue()


def test_a_round_told_short_still_tells_what_came_to_the_column_you_staked_on():
    """Kyō-Kabu, two players: seat 1 stakes on the column of the 7, whose hidden card is a 6 (13:
    worth 3, so a third card is taken for it, no question) and the third card a 2 (5). Told short,
    the round still says the card seat 1 alone saw there and the card that came to it."""
    g = game("kabufuda/kyo-kabu.yaml")
    # the first field (5, 6, 7, 8) is set out before the stack: the dealer's first card, the four
    # hidden cards, the third card for column 3
    top = ["2-1", "1-1", "1-2", "6-1", "1-3", "2-2"]
    out = io.StringIO()
    table = Table(g, 2, 1, Screen(io.StringIO("3\n1\n" + "\n1\n1\n" * 40), out), pause=True)
    play(g, 2, 1, make_agents(g, 2, 1, "careful", human=1, human_agent=table), rounds=2, dealer=0,
         observe=table.observe, stack={"deck": top})
    text = out.getvalue()
    told = text.split("You choose: column 3 (the 7), 1 chip.", 1)[1].split("End of round 1.", 1)[0]
    assert "The rest of the round, in full" not in told  # told short: the whole story is t away
    assert re.search(r"You see Six — column 3 is now Seven and Six, which shows 3\.", told), told
    assert re.search(r"Two goes from the deck to column 3 face up: column 3 now shows 5\.", told), told
    assert "Seat 0 (dealer) takes a third card" not in told and "stands" not in told  # the dealer's turn: left out


def test_a_card_you_draw_in_a_round_told_short_is_told_with_what_it_takes():
    """Hiraya, seed 3: in the rest of round 2 (told short) you play a Paulownia that takes nothing,
    then draw a Wisteria chaff that takes the Wisteria ribbon. The draw is told as yours, with its
    capture: not joined to the play, as if the Paulownia had taken the ribbon."""
    g = game("hanafuda/hiraya.yaml")
    out = io.StringIO()
    table = Table(g, 3, 1, Screen(io.StringIO("1\n" * 3000), out), pause=True)
    res = play(g, 3, 3, make_agents(g, 3, 3, "careful", human=1, human_agent=table), rounds=3, dealer=0,
               observe=table.observe)
    table.finish(res.chips, 3)
    text = out.getvalue()
    # a play told with a card that is neither it nor what it took: a draw's capture joined to it
    assert not re.search(r"^  You play .+ and capture .+ with ", text, re.M), text
    assert "  You choose: play Paulownia chaff (yellow; 12).\n" \
           "  You draw Wisteria chaff (4) and capture Wisteria ribbon (4, 5 pts) with it;" in text

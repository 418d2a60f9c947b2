"""What stays on screen at the table: Kakkuri's seven seats told one
line a turn with your last move on screen at every question, no empty heading, who turns a box
card, prompts that match their menu, the standings naming who deals next, passes already paid."""
from __future__ import annotations

import io
import os
import re
import sys

import pytest

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import game
from rulekit.people.table import Screen, Table

from .conftest import ROOT

KAKKURI = "mekurifuda/kakkuri.yaml"


def _table(rel: str, n: int, seed: int, human: int = 0, rounds: int = 3, options: dict | None = None,
           width: int | None = None) -> str:
    """A game told at seat `human`, who always answers 1."""
    g = game(rel, options or {})
    out = io.StringIO()
    screen = Screen(io.StringIO("1\n" * 3000), out)
    if width is not None:
        screen.console.soft_wrap = False
        screen.console.width = width
    table = Table(g, n, human, screen, pause=width is not None)
    table.nar.rounds = rounds
    res = play(g, n, seed, make_agents(g, n, seed, "careful", human=human, human_agent=table), rounds=rounds,
               dealer=0, observe=table.observe)
    table.finish(res.chips, rounds)
    return out.getvalue()


pexpect = pytest.importorskip("pexpect")


def test_kakkuri_your_last_move_is_on_screen_at_every_question(tmp_path):
    # careful opponents: the same game every run (the table's search opponents play on a clock)
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100", "LINES": "40", "PYTHONIOENCODING": "utf-8",
           "XDG_STATE_HOME": str(tmp_path / "state")}
    child = pexpect.spawn(sys.executable, ["-m", "rulekit", "play", "kakkuri", "--human", "0", "--seed", "2",
                                           "--rounds", "4", "--verbose", "--policy", "careful"], cwd=ROOT, env=env, dimensions=(40, 100),
                          encoding="utf-8", timeout=120)
    prompts = [r"Your choice \(1 to (\d+);", r"Press Enter (?:for round \d+|to go on)", pexpect.EOF]
    text, questions, paged, checked = "", 0, 0, 0
    try:
        for _ in range(400):
            i = child.expect(prompts)
            text += (child.before or "").replace("\r\n", "\n") + (child.after if isinstance(child.after, str) else "")
            if i == 2:
                break
            screen = text.split("\n")
            mine = [k for k, ln in enumerate(screen) if re.match(r"  You (?!see )", ln)]
            if i == 0 and mine and not any(ln.startswith("Round ") for ln in screen[mine[-1]:]):
                # the last thing you did this round (an answer told 'You ...') is among the 38 lines
                # above the question
                assert len(screen) - 1 - mine[-1] <= 38, "\n".join(screen[-45:])
                checked += 1
            # and everything told since the last question fits between the two
            last = max((k for k, ln in enumerate(screen[:-1]) if re.search(r"Your choice \(|Press Enter", ln)),
                       default=0)
            assert len(screen) - 1 - last - 1 <= 38, "\n".join(screen[last:])
            questions += i == 0
            paged += "to go on" in screen[-1]
            child.sendline("1" if i == 0 else "")
        else:
            pytest.fail("the game did not end within 400 prompts")
    finally:
        child.close(force=True)
    assert questions > 5 and paged > 0 and checked >= 3


def test_no_heading_is_shown_with_nothing_under_it():
    checked = 0
    for seed in (0, 5):
        lines = _table(KAKKURI, 7, seed).split("\n")
        for k, ln in enumerate(lines[:-1]):
            if ln and not ln.startswith(" ") and not ln.endswith((".", ")", ":", " ")) and not ln.startswith(
                    ("Your", "Round", "The table", "Standings", "Press", "Kakkuri", "Seed")):
                # a phase heading ('Payments', 'Play'): something is told under it, or your question
                assert lines[k + 1].startswith("  ") or lines[k + 2].startswith("The table — "), \
                    (ln, lines[k + 1], lines[k + 2])
                checked += 1
    assert checked > 10


def test_kakkuri_says_who_turns_a_box_card():
    text = _table(KAKKURI, 7, 0)
    assert "from the box onto the run" in text
    assert " goes from the box to the run" not in text and " moves " not in text
    # the dealer turns the first card; the last to play turns one when everyone passed
    assert re.search(r"^  (?:Seat \d+ \(dealer\) turns|You turn) up .+ from the box onto the run\.$", text, re.M)
    assert re.search(r"^  Seat \d+ turns up .+ from the box onto the run\.$", text, re.M)


@pytest.mark.parametrize("forced,ends", [("always", False), ("never", True)])
def test_kakkuri_prompt_offers_ending_the_turn_only_when_the_menu_does(forced, ends):
    text = _table(KAKKURI, 7, 5, options={"forced_play": forced})
    prompts = re.findall(r"^Your turn: Play a card.*$\n((?:  \d+\).*\n)+)", text, re.M)
    heads = re.findall(r"^Your turn: (Play a card.*)$", text, re.M)
    assert prompts and heads
    for head, menu in zip(heads, prompts):
        assert ("or end your turn" in head) == ("end the turn" in menu), (head, menu)
    assert any("or end your turn" in h for h in heads) == ends


def test_standings_name_who_deals_next_not_who_dealt():
    text = _table(KAKKURI, 7, 5)
    standings = re.findall(r"^Standings: .*$", text, re.M)
    nexts = re.findall(r"^  Next round (?:seat (\d+) deals|(you) deal)\b", text, re.M)
    assert len(standings) == 3 and len(nexts) == 2
    for line, (seat, you) in zip(standings, nexts):
        assert "dealer" not in line
        who = "0 (you, deals next)" if you else f"{seat} (deals next)"
        assert f"Seat {who}" in line, line
    assert "deals next" not in standings[-1]  # after the last round nobody deals


def test_passes_paid_during_play_are_marked_in_the_summary():
    text = _table(KAKKURI, 7, 5)
    told = re.findall(r"^  .* pays? \d+ chips? to the pot\.$", text, re.M)  # as paid, during play
    # the summary tells them once, short, as paid during play (not as a second charge)
    summary = re.findall(r"^  During play \(counted in the chip changes\): (.*)\.$", text, re.M)
    assert told and summary
    assert all(re.fullmatch(r"(?:[^;]+ paid \d+ chips? (?:each )?to the pot(?:; |$))+", s) for s in summary), summary


def test_the_opponents_are_described_under_the_options_in_play():
    from rulekit.cli.play import opponents_words
    plain = opponents_words(game(KAKKURI), "careful")
    assert "drop out" not in plain and "keep the deal" not in plain and "{" not in plain
    house = opponents_words(game(KAKKURI, {"pass_penalty": "fold", "dealer_pass_on": True}), "careful")
    assert "drop out only when" in house and "keep the deal" in house


def test_a_wild_card_turned_up_from_the_box_is_not_called_wild():
    # RULES.md 4.3/4.4: the wild cards are wild from the hand; from the box they are ordinary
    text = _table(KAKKURI, 7, 2)
    boxed = re.findall(r"turns up (Two of Coins|Dragon of Clubs)(.*) from the box onto the run", text)
    assert boxed and all("wild" not in rest for _, rest in boxed), boxed
    assert re.search(r"plays .*(?:Two of Coins|Dragon of Clubs) \((?:2|1), wild\)", text)


def test_otoroku_words_come_from_the_rule():
    texts = [_table("hanafuda/otoroku.yaml", 5, seed, human=2, rounds=8) for seed in range(1, 7)]
    text = "\n".join(texts)
    assert "equal or higher" not in text
    # the dealer wins by a higher hand, or a tie (below 15): said as the rule says it
    for m in re.finditer(r"\(the dealer's hand is higher: (\d+) against (\d+)\)", text):
        assert int(m[1]) > int(m[2])
    for m in re.finditer(r"\(a tie goes to the dealer: (\d+) against (\d+)\)", text):
        assert m[1] == m[2]
    assert "a tie goes to the dealer" in text and "the dealer's hand is higher" in text
    # the dealer's own turn in plain words, not 'is dealt a card; chooses: stand'
    assert "chooses: " not in text and re.search(r"Seat \d \(dealer\) is dealt a card, then (?:stands|takes)", text)


def test_otoroku_last_bettor_is_told_both_otoroku_pairs():
    g = game("hanafuda/otoroku.yaml")
    say = [d for d in g.variant.tree.value["display"].value["table"].value
           if "last bettor" in str(d.value["say"].value)][0].value["say"].value
    assert "June with October" in say and "July with September" in say


def test_dare_one_set_is_not_asked_and_says_it_leaves_you_out():
    # the high-card tie-break: the cards kept count, so the ways of laying down two sets are asked;
    # with one set only you are out whichever you lay down: not asked, and told you are out
    text = "\n".join(_table("kabufuda/dare.yaml", 4, seed, human=0, rounds=3, options={"tie_break": "high_card"})
                     for seed in range(1, 9))
    entries = re.findall(r"^  \d+\) lay down (.*)$", text, re.M)
    assert entries and not [e for e in entries if "out of the round" in e]
    one = re.findall(r"^  You lay down [A-Z][a-z]+, [^;]+, your only choice[^\n]*\n  You are out of this round: one set "
                     r"laid down\.$", text, re.M)
    assert one, text


def test_kyo_kabu_the_dealers_kuppin_is_named_alone():
    text = _table("kabufuda/kyo-kabu.yaml", 5, 15, human=1, rounds=6)
    assert re.search(r"The dealer's hand: Nine and One — shows Kuppin\.", text)
    assert re.search(r"\(column \d, \d+ against the dealer's Kuppin\)", text)
    assert "(Kuppin)" not in text and "Dealer 9 and 1" not in text


def test_hiraya_words_table_card_points_and_a_short_table_view():
    text = "\n".join(_table("hanafuda/hiraya.yaml", 3, seed, human=0, rounds=2) for seed in (5, 7))
    assert "play area" not in text and "draws" in text and "; it goes to the table." in text
    # the wild Lightning is no Chaff in Hiraya: not called one at the table
    assert "Willow chaff" not in text and "Lightning (11" in text
    # card points said with the figure captured
    for m in re.finditer(r"\(card points: (\d+) captured against par\)", text):
        assert int(m[1]) % 5 == 0
    assert "above or below par" not in text and "captured against par" in text
    # late in a round another seat's long capture pile names the cards that count, its chaff
    # counted ('and 6 chaff'), or every card when too few fold; never a bare count
    tables_text = "\n".join(re.findall(r"^The table — .*\n((?:  .*\n)+?)Your turn", text, re.M))
    assert re.search(r"^  Seat \d'?s?(?: \(dealer's\))? capture pile: .+ and \d+ chaff — shows \d+$", tables_text, re.M)
    assert not re.search(r"capture pile(?: \(seat \d\))?: \d+ cards — shows", tables_text)
    tables = re.findall(r"^The table — .*\n((?:  .*\n)+?)Your turn", text, re.M)
    assert tables and max(len(t.splitlines()) for t in tables) <= 12

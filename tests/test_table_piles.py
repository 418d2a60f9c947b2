"""The table's piles and hands: every capture pile's cards on the
table at a decision (the scoring ones by name, the rest counted), ..."""
from __future__ import annotations

import io
import re

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import game
from rulekit.people.table import Screen, Table

HIRAYA = "hanafuda/hiraya.yaml"


def _table(rel: str, n: int, seed: int, human: int = 0, rounds: int = 1, options: dict | None = None,
           paged: bool = False) -> str:
    """A game told at seat `human`, who always answers 1; `paged`: on a 100-wide terminal that
    pauses when a screen fills (each Enter is a '1' too)."""
    g = game(rel, options or {})
    out = io.StringIO()
    screen = Screen(io.StringIO("1\n" * 5000), out)
    if paged:
        screen.console.soft_wrap = False
        screen.console.width = 100
    table = Table(g, n, human, screen, pause=paged, verbose=True)  # every turn told (the pager's tests)
    table.nar.rounds = rounds
    res = play(g, n, seed, make_agents(g, n, seed, "careful", human=human, human_agent=table), rounds=rounds,
               dealer=0, observe=table.observe)
    table.finish(res.chips, rounds)
    return out.getvalue()


def test_hiraya_capture_piles_name_their_scoring_cards_and_count_the_chaff():
    text = _table(HIRAYA, 3, 1)
    piles = [ln for ln in text.splitlines() if re.match(r"\s*(Seat \d's|Your) capture pile: ", ln)]
    assert piles
    # never folded to its size alone: the public cards a player needs against yaku are named
    assert not [ln for ln in piles if re.search(r"capture pile: \d+ cards", ln)]
    long = [ln for ln in piles if re.search(r" and \d+ chaff — shows \d+", ln)]
    assert long, piles
    # the chaff are counted, never named, in the compact form; the cards with points are named
    assert all("chaff (" not in ln for ln in long)
    assert any(re.search(r"\(\d+, 20 pts\)", ln) for ln in long)


def test_hiraya_one_table_line_a_place_the_card_being_played_joins_it():
    text = _table(HIRAYA, 3, 4)
    for screen in text.split("\nThe table — ")[1:]:
        block = screen.split("\nYour turn")[0]
        assert len(re.findall(r"^  The table: ", block, re.M)) <= 1, block
    assert "; being played onto it: " in text


def test_hiraya_words_settlement_no_program_jargon_one_name_for_the_dealer():
    text = _table(HIRAYA, 3, 4, human=1)
    assert "pool" not in text.lower()
    assert "the settlement" in text
    assert "greedy" not in text and " - which" not in text
    # the dealer is named one way: 'Seat 0 (dealer)', 'seat 0's (dealer's) capture pile'
    assert "the dealer's capture pile" not in text and "capture pile (dealer)" not in text
    assert "seat 0's (dealer's) capture pile" in text


def test_hiraya_a_drawn_card_that_captures_is_one_plain_sentence():
    text = _table(HIRAYA, 3, 1)
    # what was captured with what, in one sentence, not a move 'goes from the table to ...'
    assert re.search(r"Seat 2 draws Bush warbler \(2, 10 pts\) and captures Plum poetry ribbon \(2, 5 pts\) "
                     r"with it; seat 2's capture pile now shows 15\.", text), text
    assert "; it goes to the table.\n  Seat 2 captures" not in text  # not left on the table, then taking
    assert "goes from the table to seat" not in text
    assert "chooses: capture" not in text


def _cli(game_id: str, human: int, seed: int, tmp_path) -> str:
    import os
    import subprocess
    import sys
    from .conftest import ROOT
    env = {**os.environ, "NO_COLOR": "1", "XDG_STATE_HOME": str(tmp_path / "state")}
    return subprocess.run([sys.executable, "-m", "rulekit", "play", game_id, "--human", str(human), "--seed",
                           str(seed), "--rounds", "1"], cwd=ROOT, env=env, input="1\n" * 300, text=True,
                          capture_output=True, timeout=300).stdout


def test_otoroku_seat_draw_names_players_not_seats_until_the_draw_seats_them(tmp_path):
    text = _cli("otoroku", 2, 3, tmp_path)
    head = text.split("\nRound 1")[0]
    assert "you are seat 2" not in head and "you asked for seat 2" in head
    draw = next(ln for ln in head.splitlines() if "Draw for the seats" in ln)
    # the cards drawn are told by the seats they gave, seat 0 (the first dealer) first, you in your
    # place: no player numbers that are not seats
    assert not re.search(r"player \d", head), head
    seats = re.findall(r"(?:seat|you \(seat) (\d)\)? [A-Z]", draw.split(":", 1)[1])
    assert seats == ["0", "1", "2", "3", "4"], draw
    assert "you (seat 3) " in draw, draw
    assert re.search(r"^  You sit at seat 3; seat 0 deals first\.$", head, re.M), head
    assert head.index("Draw for the seats") < head.index("You sit at seat 3")


def test_hiraya_draw_for_the_deal_names_seats_one_way(tmp_path):
    head = _cli("hiraya", 1, 3, tmp_path).split("\nRound 1")[0]
    assert "you are seat 1" in head and not re.search(r"player \d", head)
    assert "Draw for the deal: seat 0 " in head and "Seat 2 deals first." in head


def test_payments_made_during_play_are_one_short_line_of_the_summary():
    text = _table("mekurifuda/kakkuri.yaml", 7, 2, rounds=2)
    assert "already paid during play" not in text
    ends = text.split("\nEnd of round ")[1:]
    assert ends
    for end in ends:
        summary = end.split("\nStandings")[0]
        during = re.findall(r"^  During play \(counted in the chip changes\): .+ paid \d+ chips? (?:each )?to the pot",
                            summary, re.M)
        assert len(during) == 1, summary


def test_kakkuri_says_who_went_out_and_won():
    text = _table("mekurifuda/kakkuri.yaml", 7, 2, rounds=2)
    said = re.findall(r"^  (?:Seat (\d) has no cards left and wins|You have no cards left and win) the round\.$",
                      text, re.M)
    assert said
    # the winner it names is the seat paid for winning in that round's summary (you: seat 0)
    for end, seat in zip(text.split("\nEnd of round ")[1:], said):
        assert re.search(rf"to seat {seat or 0}\b[^.\n]* \(won the round\)", end), end


def _otoroku_dealer(answer: str, seed: int = 1, rounds: int = 12) -> str:
    """Otoroku at seat 0, the dealer every round, always giving `answer` (2: stand, let off)."""
    g = game("hanafuda/otoroku.yaml")
    out = io.StringIO()
    table = Table(g, 5, 0, Screen(io.StringIO(f"{answer}\n" * 3000), out), pause=False)
    table.nar.rounds = rounds
    res = play(g, 5, seed, make_agents(g, 5, seed, "careful", human=0, human_agent=table), rounds=rounds,
               dealer=0, observe=table.observe)
    table.finish(res.chips, rounds)
    return out.getvalue()


def test_otoroku_contest_question_names_cards_with_values_and_your_answer_is_told_once():
    text = _otoroku_dealer("2")
    asks = re.findall(r"^Your turn: Contest seat \d, who shows (.+) face up\?$", text, re.M)
    assert asks
    # the usual card list words: each card with its value, the last joined by 'and'
    assert all(re.fullmatch(r"(?:[^,]+ \(\d+\), )*[^,]+ \(\d+\) and [^,]+ \(\d+\)", a) or
               re.fullmatch(r"[^,]+ \(\d+\)", a) for a in asks), asks
    # 'You choose: let off.' is not told besides the rules' 'The dealer chooses to let off seat 1.',
    # which is told in your own voice
    assert not re.search(r"You choose: (?:contest|let off)\.", text)
    assert "You have one choice only: contest." not in text
    assert re.search(r"^  You choose to let off seat \d\.$", text, re.M)
    assert re.search(r"^  You choose to contest seat \d \(your only choice\)\.$", text, re.M)


def test_otoroku_hand_combinations_are_named_in_plain_english():
    text = _otoroku_dealer("2")
    # (a hand combination is named once: in the hand's value when the hand is shown with it)
    has = re.findall(r"^  (?:You have|Seat \d has) (.+)\.$", text, re.M) + re.findall(r" — shows ([A-Z][^.\n]*)", text)
    assert has
    assert not [h for h in has if re.search(r"\((?!\d)", h)], has  # no romaji aside (the cards may be: '(6 and 10)')


def _paged(rel: str, n: int, seed: int, human: int, rounds: int) -> str:
    """A game on a 100-wide terminal that pauses when a screen fills (answers and Enters: '1')."""
    return _table(rel, n, seed, human, rounds, paged=True)


def test_otoroku_round_end_lists_every_hand_or_none():
    checked = 0
    for seed in range(4):
        text = _paged("hanafuda/otoroku.yaml", 5, seed, 2, 4)
        for block in text.split("Shown to everyone:\n")[1:]:
            shown = re.findall(r"^    (Your hand|Seat \d's (?:\(dealer's\) )?hand): ", block.split("\n\n")[0], re.M)
            end = block.split("\nEnd of round ", 1)[1].split("\nStandings", 1)[0] if "\nEnd of round " in block else ""
            again = re.findall(r"^  (Your hand|Seat \d's (?:\(dealer's\) )?hand): ", end, re.M)
            assert not again or set(shown) <= set(again), (shown, again, end)
            checked += 1
    assert checked


def test_dare_a_lay_down_with_one_answer_is_your_only_choice_and_equal_values_said_once():
    # the high-card tie-break: the cards kept count, so the ways of laying down are asked
    text = _table("kabufuda/dare.yaml", 4, 2, rounds=12, options={"tie_break": "high_card"})
    # no question without a menu: an answer nobody could choose otherwise is told as your only choice
    assert not re.search(r"^Your turn: .*\n  You choose: ", text, re.M)
    assert re.search(r"^  You lay down .+, your only choice[.:]", text, re.M)
    same = re.findall(r"^  Every choice keeps a hand that shows (\d): press Enter for the first, or choose the "
                      r"cards you like\.\n((?:  \d+\) .*\n)+)", text, re.M)
    assert same
    for _, menu in same:
        assert "which shows" not in menu


def test_dare_table_marks_who_is_out_and_sets_keep_deck_order():
    # the high-card tie-break: the cards kept count, so you are asked and the table is shown
    text = "\n".join(_table("kabufuda/dare.yaml", 4, 2, human=h, rounds=12, options={"tie_break": "high_card"})
                     for h in (0, 3))
    outs = re.findall(r"^  Seat (\d) is out of this round: (one set|no set) laid down\.$", text, re.M)
    assert outs
    for screen in text.split("\nThe table — ")[1:]:
        screen = screen.split("\nYour turn")[0]  # the table itself (the story after it says who goes out too)
        for seat, what in re.findall(r"^  Seat (\d) is out of this round: (one set|no set) laid down\.$", screen, re.M):
            sets = re.search(rf"^  Seat {seat}'s (?:\(dealer's\) )?sets: (.*)$", screen, re.M)
            assert (len(sets[1].split("; ")) if sets else 0) == (1 if what == "one set" else 0), screen
    # a set is told in one order: as the menu and the answer told it, so is the pile of sets
    from rulekit.engine.testing import game as g_
    g = g_("kabufuda/dare.yaml")
    rank = {}
    for i, cid in enumerate(g.card_ids):
        rank.setdefault(g.card_name(i), i)
    laid = re.findall(r"^  You (?:choose: lay down (.+)|lay down (.+), your only choice(?:: [^.]*)?)\.$", text, re.M)
    laid = [a or b for a, b in laid]
    mine = re.findall(r"^  Your sets: (.+?)\.?$", text, re.M)  # (a summary leaves out sets still on screen)
    assert laid
    for told in laid + mine:
        for s in told.split("; "):
            names = re.split(r", | and ", s)
            assert [rank[n] for n in names] == sorted(rank[n] for n in names), told


def test_dare_every_round_end_says_how_it_ended():
    text = _table("kabufuda/dare.yaml", 4, 2, rounds=12)
    heads = re.findall(r"^End of round \d+(.*)$", text, re.M)
    assert len(heads) == 12
    # a tie at the showdown ends the round at the showdown too, said like every other end
    assert all(h.startswith(" (") for h in heads), heads


def test_kyo_kabu_opponents_description_follows_the_unstaked_column_rule():
    from rulekit.cli.play import opponents_words
    plain = opponents_words(game("kabufuda/kyo-kabu.yaml"), "careful")
    decides = opponents_words(game("kabufuda/kyo-kabu.yaml", {"unbet_columns": "dealer"}), "careful")
    # as played by default an unstaked column gets no third card: nobody decides for it
    assert "nobody staked on" not in plain
    assert "and for columns nobody staked on" in decides

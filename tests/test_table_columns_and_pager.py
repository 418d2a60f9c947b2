"""The table's columns and its pager: the stakes in column order, a
column's cards in deal order with a hidden card in its place, ..."""
from __future__ import annotations

import io
import re

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import game
from rulekit.people.table import Screen, Table
from rulekit.people.table.session import table_lines

KYO = "kabufuda/kyo-kabu.yaml"


def _stake_lines(human: int, answers: str, seed: int = 1, n: int = 5) -> list[list[str]]:
    """The display.table lines `human` would read at each later decision of a Kyō-Kabu round."""
    g = game(KYO)
    table = Table(g, n, human, Screen(io.StringIO(answers * 50), io.StringIO()), pause=False)
    told: list[list[str]] = []

    def checks(ctx, choice, player, actions):
        if sum(ctx.vars["stake"][human]) > 0:
            told.append(table_lines(g, ctx, human, table.nar.card_text))
    play(g, n, seed, make_agents(g, n, seed, "careful", human=human, human_agent=table), rounds=1, dealer=0,
         observe=table.observe, checks=checks)
    return told


def test_kyo_kabu_stakes_keep_column_order_with_yours_in_its_place():
    """Your column is listed where it stands (column 1 first), not after the others."""
    told = _stake_lines(1, "1\n2\n1\n")  # seat 1 stakes 2 chips on column 1; the bots spread over 2-4
    assert told
    last = [t for t in told[-1] if t.startswith("Stakes on column")]
    assert last[0] == "Stakes on column 1: 2, all yours", last
    for lines in told:
        cols = [int(m.group(1)) for t in lines if (m := re.match(r"Stakes on column (\d)", t))]
        assert cols == sorted(cols), lines
    assert len(last) > 1
    # yours and another seat's on one column: the line says both, still in column order
    shared = _stake_lines(3, "1\n2\n1\n")  # seat 3 joins seat 1 on column 1
    assert "Stakes on column 1: 3 in all, yours 2 and seat 1" in shared[-1], shared[-1]
    assert shared[-1].index("Stakes on column 1: 3 in all, yours 2 and seat 1") == 0


def _told(rel: str, n: int, seed: int, human: int, answers: str = "1\n", rounds: int = 1,
          options: dict | None = None, width: int | None = None, paged: bool = False,
          policy: str = "careful", ask_all: bool = False) -> str:
    """A game told at seat `human`, answering `answers` over and over, the others playing `policy`
    (`ask_all`: the questions with nothing to decide on asked too)."""
    g = game(rel, options or {})
    out = io.StringIO()
    screen = Screen(io.StringIO(answers * 3000), out)
    if width is not None:
        screen.console.soft_wrap = False
        screen.console.width = width
    table = Table(g, n, human, screen, pause=paged, verbose=True, ask_all=ask_all)  # every turn told (the pager's tests)
    table.nar.rounds = rounds
    res = play(g, n, seed, make_agents(g, n, seed, policy, human=human, human_agent=table), rounds=rounds,
               dealer=0, observe=table.observe)
    table.finish(res.chips, rounds)
    return out.getvalue()


def test_kyo_kabu_column_in_deal_order_with_the_hidden_card_in_its_place():
    """The dealer sees a column as dealt: first field, the hole card (hidden), the third card; at
    the showdown the same order with the hole card named."""
    text = _told(KYO, 6, 5, 0, "2\n")
    before = dict(re.findall(r"^  Column (\d): (\w+, a hidden card and \w+)$", text, re.M))
    assert before, text
    assert not re.search(r"^  Column \d: \w+, \w+ and a hidden card", text, re.M)
    after = dict(re.findall(r"^    Column (\d): (\w+, \w+ and \w+) — shows", text, re.M))
    for k, cards in before.items():
        first, third = cards.split(", a hidden card and ")
        assert after[k].startswith(first + ", ") and after[k].endswith(" and " + third), (cards, after[k])


VALUES = {w: i for i, w in enumerate("One Two Three Four Five Six Seven Eight Nine Ten".split(), 1)}


def _value(name: str) -> int:
    return VALUES[name.split(" (")[0].split()[-1]]


def test_dare_showdown_hands_told_once_each_in_deck_order():
    """At the showdown every hand is told once (not again in the round's summary), its cards in
    deck order (as a player holds them), whoever's hand it is; the sets are still summed up."""
    for seed in (3, 5):
        text = _told("kabufuda/dare.yaml", 4, seed, 1, rounds=2)
        rounds = [r for r in re.split(r"^Round \d+ of", text, flags=re.M)[1:] if "\nShowdown" in r]
        assert rounds
        for rnd in rounds:
            end = rnd[rnd.index("\nShowdown"):]
            hands = re.findall(r"^\s+((?:Your|Seat \d's) (?:\(dealer's\) )?hand): (.+?)(?: — shows .*)?\.$", end, re.M)
            assert len(hands) >= 3, end
            assert len({who for who, _ in hands}) == 4, hands  # each once
            for who, cards in hands:
                vals = [_value(c) for c in re.split(r", | and ", cards)]
                assert vals == sorted(vals), (who, cards)
            # your sets: in the summary, or laid down in words still on the screen above it
            assert re.search(r"^  Your sets: ", end, re.M) or re.search(r"^  You (?:choose: )?lay down ", rnd, re.M)


def test_kakkuri_play_prompt_says_what_the_rules_allow_this_player():
    """The play question names pairs only to a player who declared three pairs, and triplets
    otherwise; never both, and never a rule that is not in play for them."""
    from tests.test_kakkuri import Plan, deal_top, ids, kk

    class Asked(Plan):
        def __init__(self, plan=None):
            super().__init__(plan)
            self.prompts: list[tuple[int, str]] = []

        def act(self, d) -> int:
            if d.choice.id == "play":
                self.prompts.append((d.player, d.prompt))
            return super().act(d)

    hand = ids("s5 u5 s8 u8 s10 u10")
    for declare, want in ((True, "Play a pair (you declared three pairs)"),
                          (False, "Play a card, or three of a rank together")):
        g = kk({"forced_play": "never"})
        top, _, _ = deal_top(g, {0: hand}, ids("c4"))
        agent = Asked({("three_pairs", 0): [{"declare": declare}]})
        play(g, 7, 1, [agent] * 7, rounds=1, dealer=0, stack={"deck": top})
        mine = [t for p, t in agent.prompts if p == 0]
        assert mine and mine[0] == want + ", or end your turn", mine
        others = {t for p, t in agent.prompts if p != 0}
        assert others and all("pair" not in t for t in others), others


def test_saved_game_line_wraps_between_words_with_the_path_whole(tmp_path):
    """At 100 columns, 'The game is saved in PATH (during round 1, ...).' and the command to go
    on wrap like the rest of the table: no line wider than the screen unless it is the path or
    the command alone, and the path and the command never cut inside."""
    import os
    import sys

    import pytest
    pexpect = pytest.importorskip("pexpect")
    (tmp_path / "saved-games-of-a-long-afternoon").mkdir()
    log = "saved-games-of-a-long-afternoon/kyo-kabu-with-friends-on-a-rainy-sunday-evening.json"
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100", "LINES": "40", "XDG_STATE_HOME": str(tmp_path)}
    child = pexpect.spawn(sys.executable, ["-m", "rulekit", "play", "kyo-kabu", "--seed", "3", "--human", "1",
                                           "--rounds", "1", "--log", log], cwd=str(tmp_path), env=env, dimensions=(40, 100),
                          encoding="utf-8", timeout=120)
    try:
        child.expect(r"Your choice \(1 to \d+")
        child.sendline("q")
        child.expect(pexpect.EOF)
        text = child.before.replace("\r\n", "\n")
    finally:
        child.close(force=True)
    tail = text[text.index("You left the table."):].splitlines()
    assert len(log) + len("The game is saved in ") > 100  # the case that used to be cut mid-word
    assert "The game is saved in" in tail[1]
    assert any(ln.strip().startswith(log + " (during") for ln in tail), tail
    command = next(ln.strip() for ln in tail if "play --resume" in ln)
    assert command.endswith(log) and " play --resume " in command
    assert all(len(ln) <= 100 or ln.strip() in (log, command) for ln in tail), tail


def _pages(text: str) -> list[tuple[str, int]]:
    """Each question or pause line of a told game with how many lines came since the one before."""
    out, since = [], 0
    for ln in text.splitlines():
        if re.match(r"(Your choice \(|Press Enter|.*Type a number from)", ln):
            out.append((ln, since))
            since = 0
        else:
            since += 1
    return out + [("", since)]  # what follows the last one (the round's summary)


def _cli(tmp_path, args: list[str], answer: str = "1") -> str:
    """A game played at a 40x100 pseudo-terminal through `rulekit play`, every question answered
    `answer` and every pause Enter; all it showed."""
    import os
    import sys

    import pytest
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100", "LINES": "40", "XDG_STATE_HOME": str(tmp_path)}
    child = pexpect.spawn(sys.executable, ["-m", "rulekit", "play", *args, "--verbose"], cwd=str(tmp_path), env=env,
                          dimensions=(40, 100), encoding="utf-8", timeout=120)
    text = ""
    try:
        for _ in range(400):
            i = child.expect([r"Your choice \(1 to \d+;[^\n]*", r"Type a number[^\n]*", r"Press Enter[^\n]*",
                              pexpect.EOF])
            text += (child.before or "") + (child.after if isinstance(child.after, str) else "") + "\n"
            if i == 3:
                break
            child.sendline(answer if i < 2 else "")
            child.expect(r"\n")  # the answer's echo ends the prompt's line
    finally:
        child.close(force=True)
    return text.replace("\r\n", "\n").replace("\r", "")


def test_pager_pauses_only_when_the_screen_would_really_overflow(tmp_path):
    """A pause ('Press Enter to go on') comes only when what is told since the last question, the
    table and the first menu together would not fit a 40-line screen; Oicho-Kabu's first
    question, with a screen half full, is asked without one."""
    from rulekit.people.table.session import PAGE
    paused = 0
    for args in (["oicho-kabu", "--seed", "1", "--human", "2", "--rounds", "1"],
                 ["hiraya", "--seed", "1", "--human", "1", "--rounds", "1"],
                 ["dare", "--seed", "2", "--human", "1", "--rounds", "1"]):
        text = _cli(tmp_path, args)
        pages = _pages(text)
        if args[0] == "oicho-kabu":
            assert pages[0][0].startswith("Your choice ("), pages[:2]
        for (ln, since), (nxt, after) in zip(pages, pages[1:]):
            if ln.startswith("Press Enter to go on"):
                paused += 1
                # the lines before the pause and those up to the next question: more than a screen
                assert since + after > PAGE, (args, since, after)
            assert since <= PAGE + 1, (args, ln, since)
    assert paused  # the pager still pauses where it must


def test_hiraya_a_seat_plays_and_captures_in_one_plain_sentence():
    """Another seat's turn reads 'Seat 2 plays X and captures Y', never 'chooses: play X;
    captures Y'; taking the Lightning reads 'captures the Lightning' (not '... with Lightning')."""
    both = lightning = 0
    for seed in range(1, 9):
        text = _told("hanafuda/hiraya.yaml", 3, seed, 1, rounds=3)
        assert not re.search(r"^  Seat \d[^\n]* chooses: ", text, re.M), seed
        both += len(re.findall(r"^  Seat \d(?: \(dealer\))? plays [^;\n]+ and captures [^;\n]+; ", text, re.M))
        assert not re.search(r"plays [^;\n]+; captures ", text)
        lightning += text.count(" and captures the Lightning;")
        assert "captures the Lightning with Lightning" not in text
        # a card drawn that takes the Lightning: 'draws A and captures the Lightning with it'
        for m in re.finditer(r"^  Seat \d[^\n]* draws ([^\n]+?) and captures the Lightning with (.+?);", text, re.M):
            assert m.group(2) == "it", m.group(0)
    assert both > 10 and lightning


def test_kyo_kabu_how_many_chips_is_one_line_answered_by_the_number():
    """'How many chips?' with 1 to 10 chips open is one line, answered by typing the number (not a
    menu of ten entries); a number out of range is asked again; the stake is the number typed."""
    text = _told(KYO, 5, 1, 1, "1\n12\n3\n1\n")  # column 1, then 12 chips (too many), then 3
    assert re.search(r"^How many chips\? Type a number from 1 to 10 \(\? rules", text, re.M), text[:3000]
    assert not re.search(r"^  \d\) \d chips?$", text, re.M)
    assert "Please type a number from 1 to 10" in text
    assert "You choose: column 1 (the 5), 3 chips." in text


def test_otoroku_a_teyaku_shown_in_a_hands_value_is_not_said_again():
    """'Seat 4's hand: ... — shows Otoroku (6 and 10).' is not followed, at the showdown or in
    the round's summary, by 'Seat 4 has Otoroku (6 and 10).'"""
    named = 0
    for seed in range(1, 9):
        text = _told("hanafuda/otoroku.yaml", 5, seed, 2, "2\n", rounds=3)
        for rnd in re.split(r"^Round \d+ of", text, flags=re.M)[1:]:
            for who, names in re.findall(r"^\s+(Seat \d|Your)(?:'s)? (?:\(dealer's\) )?hand(?: is shown)?: .+? — "
                                         r"shows ([A-Z][^.\n]*)\.$", rnd, re.M):
                named += 1
                has = "You have" if who == "Your" else f"{who} has"
                assert not re.search(rf"^\s+{has}(?: \(dealer\))? {re.escape(names)}\.$", rnd, re.M), (who, names)
    assert named


def test_a_menu_shown_again_after_a_key_is_the_question_as_first_asked():
    """After 't' (or '?') the menu comes back under the question it answers, with its note
    ('Every choice keeps a hand that shows 3.'), never under a bare 'Your choice:'."""
    # the high-card tie-break: the cards kept count, so the ways of laying down are asked
    text = _told("kabufuda/dare.yaml", 4, 3, 1, "t\n1\n", options={"tie_break": "high_card"})
    first, again = text.split("Your choice (1 to 4, Enter for 1; ? rules of this phase, t the table, h the odds, q quit): t\n", 1)
    menu = first[first.rindex("Your turn: "):]
    again = again[again.index("Your turn: "):again.index("Your choice (")]
    assert menu == again, (menu, again)
    assert "Every choice keeps a hand that shows 3: press Enter for the first" in again
    assert not re.search(r"^Your choice:$", text, re.M)


def test_kyo_kabu_third_cards_told_in_plain_verbs():
    """'Seat 4 takes a third card', 'Seats 3 and 4 stand': a forced draw and a free one read
    alike and neither as 'chooses:'."""
    text = "".join(_told(KYO, 6, seed, 0, "2\n", rounds=2) for seed in (3, 5))
    assert not re.search(r"^  Seats? [^\n]*choose(s)?: (take a third card|stand)", text, re.M)
    assert re.search(r"^  Seat \d takes a third card; ", text, re.M)
    assert re.search(r"^  Seats? [\d, and]+ stands?\.$", text, re.M)


def test_dare_sets_told_as_laid_down():
    """'Seat 2 lays down Two, Six and Nine; Seven, Ten and Ten.', not 'chooses: lay down ...'."""
    text = "".join(_told("kabufuda/dare.yaml", 4, seed, 1, rounds=2) for seed in (2, 3))
    assert "chooses: lay down" not in text and "choose: lay down" not in text.replace("You choose: lay down", "")
    assert re.search(r"^  Seat \d(?: \(dealer\))? lays down \w+, \w+ and \w+", text, re.M)


def test_otoroku_dealer_asked_about_each_bettor_reads_the_table_once_in_its_own_voice():
    """The dealer's questions one after another ('Contest seat 1 ...?', 'Contest seat 2 ...?')
    come under one drawing of the table, not one each; the dealer's answer is told as 'You
    choose to let off seat 1.', not 'The dealer chooses ...'."""
    text = _told("hanafuda/otoroku.yaml", 5, 9, 0, "2\n", rounds=2)  # you deal
    asks = [m.start() for m in re.finditer(r"^Your turn: Contest seat \d", text, re.M)]
    assert len(asks) >= 3 and text.count("The table — ") < len(asks)
    for a, b in zip(asks, asks[1:]):
        between = text[a:b]
        if "\n  Seat " not in between and "\n  Shown" not in between:  # nothing happened between them
            assert "The table — " not in between, between
    assert "The table — " in text[:asks[0]]
    assert re.search(r"^  You choose to (let off|contest) seat \d", text, re.M)
    assert not re.search(r"^  The dealer chooses", text, re.M)


def test_dare_round_summary_leaves_out_the_sets_and_field_on_the_table_drawn_at_your_question():
    """Seat 0's sets and the field drawn in the table at your question are still on the screen
    when the round ends a few lines later: the summary does not list them again (seed 7 round 2:
    seat 0 lays down before you; the showdown follows at once)."""
    # the high-card tie-break: the cards kept count, so the ways of laying down are asked
    text = _told("kabufuda/dare.yaml", 4, 7, 1, rounds=2, options={"tie_break": "high_card"})
    rnd = text.split("Round 2 of 2")[1]
    table = rnd[rnd.index("The table — round 2"):rnd.index("Your turn")]
    assert re.search(r"^  Seat 0's sets: .+$", table, re.M) and re.search(r"^  The field: .+$", table, re.M), table
    end = rnd[rnd.index("End of round 2"):]
    assert "Seat 0's sets" not in end and "The field" not in end, end
    assert re.search(r"^  The pot pays \d+ chips? to ", end, re.M), end  # the payments are still told


def test_a_summary_tells_the_sets_again_once_the_table_has_scrolled_away():
    """The table drawn at a question leaves the screen when enough is told below it: then the
    summary lists the sets again (25 lines, the table's height counted in, is taken as a screen:
    the rule is the line count, checked directly)."""
    from rulekit.people.line import Line
    g = game("kabufuda/dare.yaml", {})
    table = Table(g, 4, 1, Screen(io.StringIO(""), io.StringIO()), pause=False)
    table.on_table, table.table_height = {"Seat 0's sets: One, Two and Seven; Five, Five and Ten."}, 10
    for _ in range(14):
        table.show(Line("action", "Seat 2 lays down cards."))
    assert table.on_table  # 24 lines with the table: still on screen
    table.show(Line("action", "Seat 3 lays down cards."))
    table.show(Line("action", "Seat 3 lays down cards."))
    assert not table.on_table  # past the screen: the summary tells it again


def test_a_hands_name_inside_a_sentence_starts_small_unless_it_is_a_proper_name():
    from rulekit.people.words import in_sentence
    assert in_sentence("Three of a kind") == "three of a kind"
    assert in_sentence("Kuppin") == "Kuppin" and in_sentence("Poetry Ribbons") == "Poetry Ribbons"
    assert in_sentence("Dealer 9 and 1") == "Dealer 9 and 1"  # not a common word: kept as written
    # a name with capitals after its first word is a name of its own: kept as written, every one alike
    assert [in_sentence(n) for n in ("Three of a Month", "Four Brights", "One Ribbon")] == \
        ["Three of a Month", "Four Brights", "One Ribbon"]


def test_seats_before_and_after_you_doing_the_same_are_one_line():
    """Kakkuri: everyone looks at their hands; the seats before you and after you are one line,
    not two around yours."""
    text = _told("mekurifuda/kakkuri.yaml", 7, 5, 3, rounds=1)
    look = text.split("Players look at their hands", 1)[1].split("\n", 1)[1]
    first, second = look.splitlines()[:2]
    assert first == "  Seats 0, 1, 2, 4, 5 and 6 look at their hands.", look
    assert second.startswith("  You see "), look
    assert "look at their hands" not in "\n".join(look.splitlines()[2:6])


def test_your_forced_answers_say_why_once_a_round():
    """Kakkuri: a run of forced passes gives the reason the first time in a round only (each is
    still marked as forced: a bare 'You pass' would read as a free choice)."""
    text = _told("mekurifuda/kakkuri.yaml", 7, 5, 3, rounds=2)
    for rnd in re.split(r"^Round \d+ of", text, flags=re.M)[1:]:
        whys = re.findall(r"^  You .+, your only choice: (.+)\.$", rnd, re.M)
        assert len(whys) == len(set(whys)), whys
    assert re.search(r"^  You pass and pay 1 chip to the pot, your only choice\.$", text, re.M), text  # again, no why


def test_the_same_answer_again_in_a_turn_is_counted_and_the_card_it_asked_for_not_told_again():
    """Otoroku's dealer taking cards: 'is dealt a card, then takes another card twice and stands',
    not 'takes another card; is dealt a card; takes another card; is dealt a card'."""
    text = _told("hanafuda/otoroku.yaml", 5, 3, 2, rounds=6)
    assert "  Seat 0 (dealer) is dealt a card, then takes another card twice and stands." in text, text
    assert "takes another card and takes another card" not in text
    assert not re.search(r"takes another card[;,] (?:then )?is dealt a card", text)


def test_kyo_kabu_second_field_is_one_deal_then_who_looks_you_among_them():
    """The second field is dealt in one line even when your own column is among the cards; then
    what you see, then the others who look, by seat number."""
    text = _told(KYO, 5, 23, 2, "1\n", rounds=4) + _told(KYO, 5, 7, 4, "2\n", rounds=6)
    # a column you share: 'Seats 1 and 4 (you) see Seven', as any seats are named
    assert re.search(r"^  Seats \d and 4 \(you\) see ", text, re.M) and "and seat 4 (you)" not in text
    blocks = re.findall(r"^Dealer's first card and the second field\n((?:  .*\n)+)", text, re.M)
    assert blocks, text
    for b in blocks:
        lines = b.splitlines()
        assert lines[0].startswith("  From the deck: a card each to the dealer's hand, column 1"), b
        assert len([ln for ln in lines if ln.startswith("  From the deck")]) == 1, b
        for m in re.finditer(r"^  Seats ([\d, andto]+) each look at a card\.$", b, re.M):
            seats = [int(x) for x in re.findall(r"\d", m.group(1))]
            assert seats == sorted(seats), b
        assert len(re.findall(r"look(?:s)? at a card", b)) <= 1, b  # who looks: one line


def test_kakkuri_a_dealer_who_sits_out_hands_the_part_to_the_next_seat_who_turns_the_first_card():
    """8 players, the dealer dealt the drop-out card: the seat on the dealer's right takes the
    dealer's part, is named as such, and turns the first box card (not the seat sitting out)."""
    text = _told("mekurifuda/kakkuri.yaml", 8, 11, 0, rounds=1)
    assert "You were dealt the drop-out card and sit out this round" in text, text
    assert "  Seat 1 takes the dealer's part this round." in text
    first = text.split("The dealer turns the first box card\n", 1)[1].splitlines()[0]
    assert first.startswith("  Seat 1 turns up "), first
    end = text.split("End of round 1")[1]
    # the rules' words about the round come before the payments they explain
    assert end.index("takes the dealer's part") < end.index(" pay")


def test_a_pause_mid_round_shows_your_hand_above_the_prompt():
    """While the rules play for you (Kakkuri's forced passes) the table with your hand scrolls
    away: a 'Press Enter to go on' has your hand on the line above it, unless you play from it in
    what follows before the next question (it would show the hand as it is after those plays) or
    the table, which shows it, comes next."""
    text = "\n".join(_told("mekurifuda/kakkuri.yaml", 7, seed, seat, "\n1\n", rounds=2, width=100, paged=True,
                           ask_all=True) for seed, seat in ((5, 3), (2, 5), (4, 5)))
    lines = text.splitlines()
    pauses = [i for i, ln in enumerate(lines) if ln.startswith("Press Enter to go on")]
    assert pauses, text
    shown = 0
    for i in pauses:
        after = []
        for ln in lines[i + 1:]:
            if ln.startswith(("Your choice", "Press Enter")):
                break
            after.append(ln)
        yours = any(ln.startswith("  You ") and not ln.startswith("  You see") for ln in after)
        table = any(ln.startswith(("The table — ", "End of round")) for ln in after[:2])  # they show your hand
        assert lines[i - 1].startswith("  Your hand: ") != (yours or table), lines[i - 3:i + 3]
        shown += not (yours or table)
    assert shown


def test_rules_at_a_question_bring_the_table_back_under_them():
    """'?' at a question: the rules of the phase, then the table again (stakes, maximum), then the
    question: nothing the decision needs is pushed off the screen by the rules."""
    text = _told(KYO, 5, 23, 2, "?\n1\n1\n", rounds=1)
    after = text.split("\nRules: ", 1)[1]
    table = after.index("The table — round 1")
    assert table < after.index("Your turn:") and table < after.index("Your choice")
    assert "Table maximum 10: " in after[table:after.index("Your turn:")]


def test_when_every_way_keeps_the_same_value_enter_takes_the_first_and_a_number_still_chooses():
    """Dare with the high-card tie-break (under its usual rules nothing is asked): the ways of laying
    down that keep hands of one value are all offered, and Enter alone lays down the first; typing
    another number lays down that one."""
    HIGH = {"tie_break": "high_card"}
    plain = _told("kabufuda/dare.yaml", 4, 7, 1, "\n", rounds=3, options=HIGH)
    assert "Enter for 1; " in plain and "Please type" not in plain
    picked = re.findall(r"^  1\) (lay down .+?) — keeps .*\n(?:  \d+\) .*\n)*Your choice \(1 to \d+, Enter for 1; "
                        r"[^\n]*\n  You choose: (lay down .+)\.$", plain, re.M)
    assert picked and all(a == b for a, b in picked), picked
    two = _told("kabufuda/dare.yaml", 4, 7, 1, "2\n", rounds=3, options=HIGH)
    second = re.findall(r"^  2\) (lay down .+?) — keeps .*\n(?:  \d+\) .*\n)*Your choice \(1 to \d+, Enter for 1; "
                        r"[^\n]*\n  You choose: (lay down .+)\.$", two, re.M)
    assert second and all(a == b for a, b in second), second


def test_otoroku_a_bettor_is_told_who_the_last_bettor_is_and_when_five_low_cards_are_in_reach():
    text = _told("hanafuda/otoroku.yaml", 5, 23, 2, "1\n", rounds=12)
    blocks = re.findall(r"^The table — .*\n((?:  .*\n)+?)Your turn", text, re.M)
    assert blocks
    fifth = 0
    for b in blocks:
        assert "You are a bettor: 16 or more is Buta; the closer to 15 the better. Seat 4 is the last bettor, " \
               "whose 16 beats 15." in b, b  # dealer 0: the last bettor sits on the dealer's left
        hand = re.search(r"^  Your hand: (.+?) — shows", b, re.M).group(1)
        months = [int(m) for m in re.findall(r"\((\d+)\)", hand)]
        low_four = len(months) == 4 and all(m <= 5 for m in months)
        said = "A fifth card of 5 or under would make Five cards of five and under" in b
        assert said == low_four, b
        fifth += said
    assert fifth


def test_a_showdown_is_one_block_even_when_a_shown_hand_has_a_yaku():
    """Otoroku: a bettor's two-card teyaku shown at the showdown does not split the block (the
    hands after it were told on a line of their own, 'Seat 4's hand is shown: ...')."""
    found = 0
    for seed in (23, 5, 9):
        text = _told("hanafuda/otoroku.yaml", 5, seed, 2, rounds=12, policy="table")
        for block in re.findall(r"^Showdown\n((?:  .*\n)+)", text, re.M):
            if block.startswith("  Shown to everyone:\n"):
                assert "is shown:" not in block, block
                found += bool(re.search(r"— shows [A-Z][a-z]", block))  # a hand named by its teyaku
    assert found


def test_the_dealers_unseen_hand_joins_the_others_in_the_summary():
    text = _told("mekurifuda/kakkuri.yaml", 7, 5, 3, rounds=2)
    ends = re.findall(r"^End of round \d+.*\n((?:  .*\n)+)", text, re.M)
    assert ends
    for end in ends:
        assert not re.search(r"\(dealer's\) hand: (?:a hidden card|\d+ hidden cards)", end), end
    assert any(re.search(r"^  Unseen hands: .*\(dealer\)", end, re.M) for end in ends)


def test_a_card_drawn_with_the_name_of_the_card_just_played_is_told_as_drawn():
    """Hiraya: you play a Bush clover chaff that takes nothing and draw the other Bush clover chaff,
    which takes it: 'You draw ... and capture ... with it', never 'You play ... and capture ...'
    after a menu that said the card takes nothing."""
    text = _told("hanafuda/hiraya.yaml", 3, 20, 0, "1\n", rounds=2)
    assert "You draw Bush clover chaff (7) and capture Bush clover chaff (7) with it" in text
    for seed in (20, 11, 3):
        text = _told("hanafuda/hiraya.yaml", 3, seed, 0, "1\n", rounds=2)
        for m in re.finditer(r"^  1\) play (.+?) — nothing to take\n(?:  \d+\) .*\n)*Your choice[^\n]*\n(  .*)$", text,
                             re.M):
            assert not m.group(2).startswith(f"  You play {m.group(1)} and capture"), m.group(0)


def test_otoroku_a_two_card_teyaku_is_warned_before_another_card():
    """A bettor holding a two-card special hand (shown as its name) is told another card undoes it;
    a plain total is not."""
    warned = plain = 0
    for seed in range(1, 9):
        text = _told("hanafuda/otoroku.yaml", 5, seed, 2, "2\n", rounds=12)
        for b in re.findall(r"^The table — .*\n((?:  .*\n)+?)Your turn", text, re.M):
            hand = re.search(r"^  Your hand: (.+) — shows (.+)$", b, re.M)
            named = hand is not None and hand.group(1).count("(") == 2 and not hand.group(2).isdigit()
            said = "Another card would undo the special hand your two cards make." in b
            assert said == named, b
            warned += said
            plain += not said
    assert warned and plain


def test_hiraya_leaving_the_lightning_for_the_match_reads_plainly():
    """A card with a match while the Lightning lies on the table, played for the match: 'plays A and
    leaves the Lightning on the table and captures B', never 'captures the card of the same month
    and captures B'."""
    seen = 0
    for seed in range(1, 11):
        text = _told("hanafuda/hiraya.yaml", 3, seed, 1, rounds=2)
        assert "captures the card of the same month" not in text
        seen += len(re.findall(r"and leaves the Lightning on the table and captures [^;\n]+;", text))
    assert seen

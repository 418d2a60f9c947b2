"""A round's recap tells every payment once, every
card turned face up is named, and words a player reads say who and why plainly."""
from __future__ import annotations

import io
import re

import pytest

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import game
from rulekit.people.table import Screen, Table

SEEDS = [("kabufuda/kyo-kabu.yaml", 5), ("hanafuda/otoroku.yaml", 5), ("kabufuda/dare.yaml", 4),
         ("hanafuda/hiraya.yaml", 3), ("mekurifuda/kakkuri.yaml", 7)]


def _table(rel: str, n: int, seed: int, human: int = 1, rounds: int = 3, policy: str = "careful",
           answers: str = "1\n", options: dict | None = None) -> str:
    """A game with a person at `human` always giving `answers`: the text the person reads."""
    g = game(rel, options)
    out = io.StringIO()
    table = Table(g, n, human, Screen(io.StringIO(answers * 3000), out), pause=False)
    table.nar.rounds = rounds
    res = play(g, n, seed, make_agents(g, n, seed, policy, human=human, human_agent=table), rounds=rounds,
               dealer=0, observe=table.observe)
    table.finish(res.chips, rounds)
    return out.getvalue()


_WHO = r"(?:Seats? [\d, ()a-z]+?|You \(seat \d+\)|The [a-z ]+?)"
_PAY = re.compile(rf"^  (?P<src>{_WHO}) (?P<each>each )?pays? (?P<amount>\d+) chips? (?P<many>each )?to "
                  r"(?P<dst>seats? [\d, ()a-z]+?\d\)?|seat \d+|the [a-z ]+?)"
                  r"(?: \(| \.|\.|$)")


def _seats_of(words: str) -> list[int]:
    """'Seat 0 (dealer)' / 'Seats 1 (you), 2 and 0' / 'Seats 3 to 5' / 'the pot' as seat numbers."""
    m = re.match(r"Seats (\d+) to (\d+)$", words)
    if m:
        return list(range(int(m[1]), int(m[2]) + 1))
    return [int(x) for x in re.findall(r"\d+", re.sub(r"\([^)]*\)", "", words))]


def _recaps(text: str) -> list[tuple[list[str], dict[int, int]]]:
    """Each round's recap: its payment lines and the chip changes it states."""
    out = []
    for block in re.findall(r"^End of round \d+.*?\n(.*?)^Standings:", text, re.S | re.M):
        lines = block.splitlines()
        change = next(ln for ln in lines if "Chip changes" in ln or "No chips change" in ln)
        changes = {int(s): int(d.replace("±", "")) for s, d in re.findall(r"seat (\d+)(?: \([^)]*\))? ([+±-]?\d+)", change)}
        out.append(([ln for ln in lines + _during(lines) if _PAY.match(ln)], changes))
    return out


def _during(lines: list[str]) -> list[str]:
    """The summary's one line of payments made during play, as payment lines ('  Seats 1 and 2
    each pay 1 chip to the pot.')."""
    out = []
    for ln in lines:
        if ln.startswith("  During play (counted in the chip changes): "):
            for part in ln.split(": ", 1)[1].rstrip(".").split("; "):
                m = re.match(r"(.+?) paid (\d+ chips?)( each)? to (.+)$", part)
                assert m, part
                out.append(f"  {m[1][0].upper()}{m[1][1:]} {'each pay' if m[3] else 'pays'} {m[2]} to {m[4]}.")
    return out


@pytest.mark.parametrize("rel,n", SEEDS)
@pytest.mark.parametrize("policy", ["careful", "random"])
def test_recap_payments_add_up_to_the_chip_changes(rel, n, policy):
    """Every payment of a round is in its recap, once: they add up to each seat's chip change."""
    checked = 0
    for seed in range(3):
        for pays, changes in _recaps(_table(rel, n, seed, policy=policy)):
            net = {s: 0 for s in range(n)}
            for ln in pays:
                m = _PAY.match(ln)
                assert m is not None
                srcs, amount = _seats_of(m["src"]) if m["src"].lower().startswith(("seat", "you")) else [], int(m["amount"])
                dst = _seats_of(m["dst"]) if m["dst"].startswith("seat") else []
                for s in srcs:
                    net[s] -= amount
                if m["many"]:
                    for s in srcs:
                        net[s] -= amount * (len(dst) - 1)
                for s in dst:
                    net[s] += amount * (len(srcs) if m["each"] else 1)
            assert len(pays) == len(set(pays)), pays
            assert {s: d for s, d in net.items() if d} == {s: d for s, d in changes.items() if d}, (pays, changes)
            checked += 1
    assert checked >= 9


def test_a_second_card_of_the_same_name_drawn_in_a_turn_is_told():
    """Two cards may share a name (two Cherry chaff): the second one drawn is a new card, named."""
    from rulekit.people.line import Clause
    from rulekit.people.narrate import Line
    from rulekit.people.table.compact import compact
    def take():
        return Line("choice", "Seat 1 chooses: take another card.", 1,
                    pred=("chooses: take another card", "choose: take another card"))

    def draw():
        # as the narrator tells it: the sentence and what it says as data
        said = Clause("go", ("Cherry chaff (3)",), 1, "the deck", "seat 1's hand", face="up", dst_seat=1,
                      src_zone="deck", dst_zone="hand[1]")
        assert said.text() == "Cherry chaff (3) goes from the deck to seat 1's hand face up."
        return Line("move", said.text(), None, cards=said.cards, clause=said)
    stand = Line("choice", "Seat 1 chooses: stand.", 1, pred=("chooses: stand", "choose: stand"))
    told = [ln.text for ln in compact([take(), draw(), take(), draw(), stand], 3)]
    assert told == ["Seat 1 chooses: take another card; Cherry chaff (3) goes from the deck to seat 1's hand "
                    "face up; take another card; Cherry chaff (3) goes from the deck to seat 1's hand face up; "
                    "stand."]


def test_every_card_another_seat_takes_face_up_is_named():
    """Each 'take another card' of another seat's turn is followed by the card it drew, by name."""
    turns = 0
    for seed in range(6):
        for ln in _table("hanafuda/otoroku.yaml", 5, seed).splitlines():
            if re.match(r"  Seat \d+(?: \(dealer\))? takes another card", ln):
                assert len(re.findall(r"takes? another card", ln)) == ln.count(" goes from the deck to "), ln
                turns += 1
    assert turns >= 5


def test_hiraya_turns_say_a_total_once_and_a_draw_as_its_own_sentence():
    """A capture pile's running total is said once a turn (its last value); the card a seat draws
    after its play is a sentence of its own ('Seat 2 draws ...'), yours 'You draw ...'."""
    text = _table("hanafuda/hiraya.yaml", 3, 1, rounds=2)
    lines = text.splitlines()
    assert not [ln for ln in lines if ln.count("capture pile now shows") > 1 or ln.count("pile (seat 0) now shows") > 1]
    assert re.search(r"^  You draw .+; it goes to the (?:table|play area)", text, re.M)
    assert re.search(r"^  Seat [02](?: \(dealer\))? draws .+; it goes to the (?:table|play area)", text, re.M)
    # nobody's play and the card drawn after it share a sentence
    assert not [ln for ln in lines if re.match(r"  Seat \d.*chooses: play ", ln) and "from the draw pile" in ln]


def test_dare_recap_shows_your_own_hand_and_says_why_a_split_is_uneven():
    """Your own hand left at the end of a round is shown card by card, not as a count; a pot shared
    by equal hands says so, and which share took the chip that does not divide."""
    from rulekit.people.narrate import narrate
    g = game("kabufuda/dare.yaml")
    events: list[dict] = []
    play(g, 4, 26, make_agents(g, 4, 26, "careful"), rounds=4, dealer=0, observe=events.append)
    shares = [e for e in events if e.get("t") == "pay" and "share the pot" in str(e.get("why"))]
    assert len({e["amount"] for e in shares}) > 1  # an uneven split
    told = [t for t in narrate(g, events, 4) if t.startswith("The pot pays") and "share the pot" in t]
    bigger = max(e["amount"] for e in shares)
    assert told and all(("plus a chip that does not divide" in t) == (f"pays {bigger} chips" in t) for t in told)
    text = _table("kabufuda/dare.yaml", 4, 2, rounds=3)  # a round ends with your nine cards in hand
    assert re.search(r"^  Your hand: (?:[^,\n]+, ){7}[^,\n]+ and [A-Z]", text, re.M)
    assert not re.search(r"^  Your hand: \d+ cards", text, re.M)


def test_kyo_kabu_table_words_stakes_yours_t_view_and_dealt_order():
    """Your stake is 'yours', never 'seat N' for you; `t` at a question shows the table maximum as
    the table before it did; a column at the showdown lists its cards in the order dealt (its third
    card last); a hand's value is its name when it has one, without a raw count beside it."""
    from rulekit.people.table.session import table_lines
    g = game("kabufuda/kyo-kabu.yaml")
    table = Table(g, 5, 1, Screen(io.StringIO("4\n5\n1\n" * 50), io.StringIO()), pause=False)
    told: list[str] = []

    def checks(ctx, choice, player, actions):
        if player != 1 and ctx.vars["stake"][1][3] > 0:  # after your 5 chips on column 4
            told.extend(table_lines(g, ctx, 1, table.nar.card_text))
    play(g, 5, 1, make_agents(g, 5, 1, "careful", human=1, human_agent=table), rounds=1, dealer=0,
         observe=table.observe, checks=checks)
    assert "Stakes on column 4: 5, all yours" in told
    assert any(re.match(r"Stakes on column [123]: \d+(?:, by seat [234]| in all, by seats [234](?:, [234])+)$", t)
               for t in told)
    seen_yours = 1
    for seed in range(4):
        # stake 5 on column 4, then ask for the table ('t') at every later question
        text = _table("kabufuda/kyo-kabu.yaml", 5, seed, rounds=2, answers="4\n5\nt\n1\n")
        assert not re.search(r"Stakes on column \d: .*\bby seat (?:\d+, )*1\b", text), "you are 'yours'"
        # the table shown again on 't' carries the same maximum line as the table before the question
        for ask in re.findall(r"(Table maximum \d+: \d+ staked, \d+ left)(?:(?!Your choice).)*?Your choice[^\n]*: t\n(.*?)Your choice",
                              text, re.S):
            assert ask[0] in ask[1]
        for rnd in re.split(r"^Round \d+ of", text, flags=re.M)[1:]:
            thirds = dict((k, c) for c, k in re.findall(
                r"take a third card; (.+?) goes from the deck to column (\d) face up", rnd))
            for k, cards in re.findall(r"^    Column (\d): (.+?) — shows", rnd, re.M):
                if k in thirds and cards.count(",") == 1:
                    assert cards.endswith(" and " + thirds[k]), (cards, thirds[k])
        assert not re.search(r"shows [A-Z][^.;]*? \(\d+\)", text)
    assert seen_yours
    # 't' at a question shows the maximum (the line comes from the variant's table lines)
    assert re.search(r": t\n\nThe table — .*?Table maximum 10: \d+ staked", text, re.S)


def test_dare_menu_lists_one_answer_per_hand_it_keeps():
    """Two answers that keep the very same cards (and lead to the same) are one menu entry."""
    menus = 0
    for seed in range(4):
        # the high-card tie-break: the cards kept count, so the ways of laying down are asked
        text = _table("kabufuda/dare.yaml", 4, seed, rounds=3, answers="2\n", options={"tie_break": "high_card"})
        for menu in re.findall(r"((?:^  \d+\) .*\n)+)", text, re.M):
            keeps = [m for m in re.findall(r"keeps (.+)$", menu, re.M)]
            if keeps:
                menus += 1
                assert len(keeps) == len(set(keeps)), menu
    assert menus


def test_otoroku_dealer_choices_one_line_seat_draw_plain():
    """The dealer's contests are one sentence; a draw for seats that ties is one line with its count;
    you are 'you' in the draw, and where you sit is said plainly (no 'player N at seat M')."""
    contests = 0
    for seed in range(1, 7):
        g = game("hanafuda/otoroku.yaml")
        out = io.StringIO()
        table = Table(g, 5, 2, Screen(io.StringIO("1\n" * 300), out), pause=False)
        res = play(g, 5, seed, make_agents(g, 5, seed, "careful", human=2, human_agent=table), rounds=2,
                   observe=table.observe)
        table.finish(res.chips, 2)
        text = out.getvalue()
        lines = text.splitlines()
        assert not [ln for ln in lines if ln.count("The dealer chooses to") > 1]
        for a, b in zip(lines, lines[1:]):
            assert not (a.strip().startswith("The dealer chooses to") and b.strip().startswith("The dealer chooses to"))
        contests += len(re.findall(r"The dealer chooses to (?:contest|let off) seats \d", text))
        assert len(re.findall(r"everyone draws again", text)) <= 1
        assert "at seat" not in text.split("Round 1")[0].replace("You sit at seat", "")
        # you are 'you' in the draw, at the seat it gave you; never a player number
        assert re.search(r"^  Draw for .*\byou \(seat \d\) [A-Z]", text, re.M)
        assert not re.search(r"player \d ", text.split("Round 1")[0])
        assert re.search(r"^  You sit at seat \d(?:; seat \d deals first|, the dealer: you deal first)\.", text, re.M)
    assert contests


def test_hiraya_cards_are_short_and_a_decision_fits_one_screen():
    """A Hiraya card reads 'Cuckoo (4, 10 pts)', a chaff 'Pine chaff (1)' (its month; the table says
    how to read the brackets once): the table, the menu and the turns before it fit 100x40."""
    text = _table("hanafuda/hiraya.yaml", 3, 2, rounds=2)
    assert "(month " not in text and " points)" not in text
    assert re.search(r"[a-z] \(\d+, (?:5|10|20) pts\)", text) and re.search(r"chaff \(\d+\)", text)
    # the brackets explained at the decisions of the first round only (by then they are known)
    first, later = text.split("Round 2 of 2", 1) if "Round 2 of 2" in text else text.split("Round 2", 1)
    assert "A card's brackets give its month, then its points when it has any" in first
    assert "A card's brackets give" not in later
    lines = text.split("\n")
    asks = [i for i, ln in enumerate(lines) if ln.startswith("Your choice")]
    for a, b in zip(asks, asks[1:]):
        if not any(ln.startswith("End of round") for ln in lines[a:b]):
            table = max(i for i in range(a, b) if lines[i].startswith("The table — "))
            assert b - table < 40 and sum(len(ln) // 100 + 1 for ln in lines[table:b + 1]) <= 40


@pytest.mark.parametrize("rel,n", SEEDS[:2])
def test_the_showdown_payments_are_told_once_by_the_summary(rel, n):
    """The payments of the settling up that ends a round are told by the summary, not also just
    above it; the rules' sentences naming your seat say 'seat 3 (you)'."""
    for seed in range(4):
        text = _table(rel, n, seed, human=3)
        for before, recap in re.findall(r"((?:^.*\n){12})^End of round.*\n((?:^  .*\n)+)", text, re.M):
            told = set(before.splitlines()[-12:])
            assert not [ln for ln in recap.splitlines() if " pay" in ln and ln in told], (before, recap)
        assert not re.search(r"The dealer chooses to [^.]*\bseats? (?:\d, )*3\b(?! \(you\))", text)


def test_your_capture_is_one_line_and_your_draw_is_yours():
    """Your play, what it takes and your pile's new value are one sentence, as another seat's turn
    is; the card you then draw reads 'You draw ...'."""
    text = _table("hanafuda/hiraya.yaml", 3, 4, rounds=1, answers="3\n1\n")
    assert re.search(r"^  You (?:play|draw) .+ and capture .+; your capture pile now shows \d+\.$", text, re.M)
    assert not re.search(r"^  .+ go to your capture pile face up: your capture pile now shows \d+\.$\n"
                         r"(?!Cards left)", text, re.M)
    assert not re.search(r"^  [^\n]* goes from the (?:play area|table) to your capture pile", text, re.M)
    assert len(re.findall(r"^  You draw ", text, re.M)) >= 3

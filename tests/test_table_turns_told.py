"""Other seats' turns told short and grouped in the
rules' own words (`told`), a run told by its end (`show_last`), a decision that fits one screen."""
from __future__ import annotations

import io
import re

import pytest

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import game
from rulekit.people.table import Screen, Table
from rulekit.people.told import plural_verb

KAKKURI = "mekurifuda/kakkuri.yaml"
HUMAN = 2


def _kakkuri(seed: int, rounds: int = 2, width: int | None = None, pause: bool = False, ask_all: bool = False):
    """A Kakkuri game with a person at seat 2 always answering 1: (game, text, events, decisions);
    each decision is (the run, the person's hand) as the rules had them (`ask_all`: the blind
    exchange asked too)."""
    g = game(KAKKURI)
    out = io.StringIO()
    screen = Screen(io.StringIO("1\n" * 2000), out)
    if width is not None:  # as a terminal of this width shows it: long lines wrap
        screen.console.soft_wrap = False
        screen.console.width = width
    table = Table(g, 7, HUMAN, screen, pause=pause, ask_all=ask_all)
    table.nar.rounds = rounds
    events: list[dict] = []
    decisions: list[tuple[list[int], list[int]]] = []

    def observe(e):
        events.append(e)
        table.observe(e)

    def checks(ctx, choice, player, actions):
        # a question is asked (and the table drawn) when the plays are not all alike
        if player == HUMAN and choice.id == "play" and len({repr(choice.alike_keys(ctx, a)) for a in actions}) > 1:
            decisions.append((list(ctx.zones["run"]), list(ctx.zones["hand"][HUMAN])))
    res = play(g, 7, seed, make_agents(g, 7, seed, "careful", human=HUMAN, human_agent=table), rounds=rounds,
               dealer=0, observe=observe, checks=checks)
    table.finish(res.chips, rounds)
    return g, out.getvalue(), events, decisions


def _turns(events: list[dict]) -> tuple[list[tuple[int, list[str]]], list[int]]:
    """Other seats' turns from the events: (seat, names of the cards it played) for each turn
    with cards, in order, and the seats that passed (a turn whose first answer was no card)."""
    plays: list[tuple[int, list[str]]] = []
    passes: list[int] = []
    last = None
    for e in events:
        if e.get("t") != "choose":
            if e.get("t") in ("round", "phase"):
                last = None
            continue
        if e["choice"] != "play":
            last = None
            continue
        p, cards = e["player"], e["action"]["cards"]
        if p == HUMAN:
            last = None
            continue
        if last == p:
            if cards:
                plays[-1][1].extend(cards)
            continue
        last = p
        if cards:
            plays.append((p, list(cards)))
        else:
            passes.append(p)
    return plays, passes


def _seats(words: str) -> list[int]:
    """'Seat 3' / 'Seats 3 and 4' / 'Seats 3, 4 and 0' / 'Seats 3 to 5' as seat numbers."""
    m = re.match(r"Seats (\d+) to (\d+)$", words)
    if m:
        return list(range(int(m[1]), int(m[2]) + 1))
    return [int(x) for x in re.findall(r"\d+", words)]


@pytest.mark.parametrize("seed", [2, 5, 11])
def test_other_seats_turns_name_exactly_the_cards_played_in_order(seed):
    g, text, events, _ = _kakkuri(seed)
    plays, passes = _turns(events)
    name = lambda cid: g.card_name(g.card_index[cid])  # noqa: E731
    sentences = [s for ln in text.splitlines() for s in re.split(r"(?<=\.) (?=Seat|You|[A-Z])", ln.strip())]
    told_plays, told_passes = [], []
    for s in sentences:
        m = re.match(r"Seat (\d+)(?: \([^)]*\))? plays (.+?)\.$", s)
        if m:
            # card names may carry their value in brackets: '(12)', '(2, wild)'
            cards = re.sub(r" \((?:\d+|\d+, wild)\)", "", m[2])
            told_plays.append((int(m[1]), cards.replace(", then ", ", ").replace(" and ", ", ").split(", ")))
        m = re.match(r"(Seats? [\d, and to]+?)(?: \([^)]*\))? pass(?:es)? and (?:each )?pays? 1 chip to the pot\.$", s)
        if m:
            told_passes += _seats(m[1])
    assert told_plays == [(p, [name(c) for c in cards]) for p, cards in plays]
    assert told_passes == passes and passes
    # nobody else is told 'chooses: play' or 'end the turn', nor the reason a pass pays
    assert not re.search(r"Seats? \d+.{0,12} (?:chooses|choose): (?:play|end the turn)", text)
    assert not re.search(r"Seats? \d+.{0,12} pass(?:es)? and (?:each )?pays? 1 chip to the pot \(", text)


def test_other_seats_turns_are_one_line_each_and_runs_of_passes_are_one_line():
    _, text, _, _ = _kakkuri(5)
    # several seats passing one after another: one line
    assert re.search(r"^  Seats \d+(?:, \d+)* (?:and|to) \d+ pass and each pay 1 chip to the pot\.$", text, re.M)
    # a line tells one seat's turn, or one run of seats doing the same: never a paragraph of turns
    assert not any(len(re.findall(r"(?:^|\. )(?:Seats?|You) \w", ln.strip())) > 1 for ln in text.splitlines()
                   if not ln.startswith("Standings"))
    # your forced answers are a line of their own, in the rules' words
    assert re.search(r"^  You pass and pay 1 chip to the pot, your only choice: nothing of yours fits the run's rank "
                     r"\d+ \(only rank [^)]+ would\)\.$", text, re.M)


def test_the_run_is_told_by_its_size_and_last_cards_at_a_decision():
    g, text, _, decisions = _kakkuri(5, rounds=6)
    runs = re.findall(r"^  The run: (.+[^.])$", text, re.M)  # the table's (a summary's ends with a stop)
    assert len(runs) >= len(decisions) > 3
    told = 0
    for line, (run, _) in zip([r for r in runs], decisions):
        names = [g.card_name(c) for c in run]
        if len(run) > 3:
            m = re.match(r"(\d+) cards, ending (.+)$", line)
            assert m and int(m[1]) == len(run), line
            last = re.sub(r" \((?:\d+|\d+, wild)\)", "", m[2]).replace(" and ", ", ").split(", ")
            assert last == names[-3:], line
            told += 1
        else:
            assert re.sub(r" \((?:\d+|\d+, wild)\)", "", line).replace(" and ", ", ").split(", ") == names
    assert told >= 3
    # and what may follow the top, worked out by the rules (display.table)
    assert re.search(r"^  The top of the run is rank \d+: rank \d+(?: or \d+)? may follow, or a wild card\.$", text, re.M)


def test_the_table_key_lists_the_whole_run():
    g = game(KAKKURI)
    out = io.StringIO()
    # keep, then at each play decision: 't' (the table) once, then 1
    table = Table(g, 7, HUMAN, Screen(io.StringIO("1\n" + "t\n1\n" * 200), out), pause=False, ask_all=True)
    table.nar.rounds = 1
    play(g, 7, 5, make_agents(g, 7, 5, "careful", human=HUMAN, human_agent=table), rounds=1, dealer=0,
         observe=table.observe)
    text = out.getvalue()
    full = [ln for ln in re.findall(r"^  The run: (.+)$", text, re.M) if "cards, ending" not in ln]
    assert max(len(ln.split(", ")) for ln in full) > 3  # the whole run, card by card


def test_a_kakkuri_decision_fits_one_screen_of_100_by_40():
    spans = 0
    for seed in range(8):
        _, text, _, _ = _kakkuri(seed, rounds=3, width=100, pause=True)
        lines = text.split("\n")
        asks = [i for i, ln in enumerate(lines) if ln.startswith(("Your choice", "Press Enter"))]
        for a, b in zip(asks, asks[1:]):
            spans += 1
            # both questions on one 40-line screen: what was told between them never scrolls away
            assert b - a - 1 <= 38, "\n".join(lines[a:b + 1])
            if lines[b].startswith("Your choice"):
                # the table and the menu of the decision always fit, whatever came before
                table = max(i for i in range(a, b) if re.match(
                    r"The table — |What changed on the table", lines[i]))
                assert b - table <= 20, "\n".join(lines[table:b + 1])
    assert spans > 20


def test_told_words_in_the_plural():
    assert plural_verb("passes") == "pass"
    assert plural_verb("plays Four of Cups and Five of Clubs") == "play Four of Cups and Five of Clubs"
    assert plural_verb("keeps the hand") == "keep the hand"
    assert plural_verb("tries again") == "try again"
    assert plural_verb("has one card") == "have one card"
    assert plural_verb("goes on") == "go on"
    assert plural_verb("takes a third card") == "take a third card"
    assert plural_verb("exchanges hands with the dealer") == "exchange hands with the dealer"
    assert plural_verb("watches") == "watch"


def test_told_for_a_parameter_the_choice_lacks_is_an_error_at_its_place(tmp_path):
    from rulekit.core.errors import RulekitError
    from rulekit.engine.build import build_game, load_variant
    from rulekit.engine.testing import variant_path
    src = open(variant_path(KAKKURI), encoding="utf-8").read()
    bad = src.replace('told: {cards: {"[]": "passes"', 'told: {card: {"[]": "passes"', 1)
    assert bad != src
    path = tmp_path / "kakkuri.yaml"
    path.write_text(bad, encoding="utf-8")
    with pytest.raises(RulekitError) as err:
        build_game(load_variant(str(path)))
    text = str(err.value)
    assert "told: 'card' is not a parameter of this choice" in text
    line = bad[:bad.index("told: {card:")].count("\n") + 1
    assert f":{line}:" in text, text


def test_your_payment_is_told_with_the_same_payments_of_the_others():
    _, text, events, _ = _kakkuri(2, rounds=3)
    wins = [e for e in events if e.get("t") == "pay" and e.get("why") == "win"]
    winners = {e["to"] for e in wins}
    assert winners and HUMAN not in winners
    # the winner is paid by everyone else in one sentence, you among them
    for w in winners:
        assert re.search(rf"^  Seats [\d, (you)and]+ each pay 1 chip to seat {w}(?: \(dealer\))? \(won the round\)\.$",
                         text, re.M)
    assert not re.search(r"^  Seat 2 \(you\) pays 1 chip to seat \d+.*won the round", text, re.M)


def _kyo(seed: int, human: int, answers: str, options: dict):
    g = game("kabufuda/kyo-kabu.yaml", options)
    n = g.variant.meta.players_default
    out = io.StringIO()
    table = Table(g, n, human, Screen(io.StringIO(answers * 300), out), pause=False)
    events: list[dict] = []

    def observe(e):
        events.append(e)
        table.observe(e)
    res = play(g, n, seed, make_agents(g, n, seed, "careful", human=human, human_agent=table), rounds=2, dealer=0,
               observe=observe)
    table.finish(res.chips, 2)
    return g, n, out.getvalue(), events


def test_a_forced_answer_says_which_rule_forced_it_to_you_alone():
    from rulekit.people.narrate import narrate
    told = 0
    for seed in range(4):
        for human in (3, 4):
            g, n, text, events = _kyo(seed, human, "2\n", {"table_limit": 3})
            staked = 0
            for e in events:
                if e.get("t") == "round":
                    staked = 0
                if e.get("t") != "choose" or e["choice"] != "bet":
                    continue
                if e.get("forced") and e["player"] == human and e["action"]["col"] == -1:
                    # the rules' reason holds: the table maximum is staked
                    assert staked == 3 and e["why"] == "the table maximum of 3 chips is staked", e
                    told += 1
                staked += e["action"]["amount"]
            assert text.count("You have one choice only: pass — the table maximum of 3 chips is staked.") == \
                sum(1 for e in events if e.get("t") == "choose" and e.get("forced") and e["player"] == human
                    and e["choice"] == "bet")
            # the third-card rule, said from the hand's own total
            for m in re.finditer(r"You have one choice only: (take a third card|stand) — a hand worth (3 or less must "
                                 r"take|7 or more may not take) a third card\.", text):
                assert (m[1] == "take a third card") == m[2].startswith("3 or less")
            # nobody else is told why (nor that the move was forced)
            other = "\n".join(narrate(g, events, n, viewer=0))
            assert "table maximum of 3 chips is staked" not in other and "one choice only" not in other
    assert told >= 3


def test_kakkuri_forced_answers_say_why():
    g, text, events, _ = _kakkuri(2, rounds=3)
    whys = [e.get("why") for e in events if e.get("t") == "choose" and e.get("forced") and e["player"] == HUMAN
            and e["choice"] == "play"]
    # a pass names the run's rank and what would have fitted it
    fits = re.compile(r"nothing of yours fits the run's rank (\d+) \(only rank (\d+)(?: or (\d+), or a wild card,| or a "
                      r"wild card) would\)")
    passes = [m for m in map(fits.fullmatch, whys) if m]
    assert passes and "you must play while a card of yours fits" in whys
    for m in passes:
        top = int(m[1])
        assert (int(m[2]), int(m[3] or 0)) == ((top, top + 1) if top <= 2 else (top + 1, 0))
    said = re.findall(r"You (pass|play [^.]+?)(?: and pay 1 chip to the pot)?, your only choice: (.+?)\.$", text, re.M)
    for what, why in said:
        assert (fits.fullmatch(why) is not None) if what == "pass" else why == "you must play while a card of yours fits"
    assert {w == "pass" for w, _ in said} == {True, False}


SEED_GAMES = ["kabufuda/dare.yaml", "hanafuda/hiraya.yaml", KAKKURI, "hanafuda/otoroku.yaml", "kabufuda/kyo-kabu.yaml"]


@pytest.mark.parametrize("rel, options", [(r, None) for r in SEED_GAMES] + [(KAKKURI, {"pass_penalty": "fold"})])
def test_every_place_told_to_players_is_named_in_the_rules_words(rel, options):
    """A zone told in a sentence is named by its label, or by words the game's own rules use
    ('the box', 'the run'): never by an internal name ('the out', 'the played')."""
    from rulekit.cli.games import rules_lines
    from rulekit.people.words import human_words
    g = game(rel, options)
    n = g.variant.meta.players_default
    rules = " ".join(rules_lines(g, 100)).lower()
    rules = re.sub(r"\s+", " ", rules)
    out = io.StringIO()
    table = Table(g, n, 1, Screen(io.StringIO("2\n1\n" * 400), out), pause=False)
    res = play(g, n, 3, make_agents(g, n, 3, "careful", human=1, human_agent=table), rounds=3, observe=table.observe)
    table.finish(res.chips, 3)
    text = out.getvalue().lower()
    told = 0
    for base, zd in g.variant.zones.items():
        if base == g.deck_zone or zd.label:
            continue  # the deck is every game's word; a label is the author's words for players
        words = human_words(base)
        single = f"the {words}"
        said = (f" {single} " in f" {re.sub(r'[.,:;]', ' ', text)} ") if zd.kind == "single" else \
            bool(re.search(rf"\b{re.escape(words)}\b", text))
        if not said:
            continue
        told += 1
        assert (single if zd.kind == "single" else words) in rules, f"{base} is told as '{words}', a word the rules never use"
    assert told >= 1 or rel.endswith("otoroku.yaml")


@pytest.mark.parametrize("rel, human", [(KAKKURI, 2), ("hanafuda/hiraya.yaml", 1), ("kabufuda/dare.yaml", 1)])
def test_your_hand_is_shown_in_deck_order(rel, human):
    from rulekit.people.narrate import Narrator
    # (Dare under the high-card tie-break: the cards kept count, so the ways of laying down are asked)
    g = game(rel, {"tie_break": "high_card"} if "dare" in rel else None)
    n = g.variant.meta.players_default
    out = io.StringIO()
    table = Table(g, n, human, Screen(io.StringIO("1\n" * 400), out), pause=False)
    hands: list[list[int]] = []

    def checks(ctx, choice, player, actions):
        # a question (and the table) when the answers are not all alike; Kakkuri's exchange is blind
        if player == human and len({repr(choice.alike_keys(ctx, a)) if choice.alike else repr(a)
                                    for a in actions}) > 1 and choice.id != "exchange":
            hands.append(list(ctx.zones["hand"][human]))
    play(g, n, 4, make_agents(g, n, 4, "careful", human=human, human_agent=table),
         rounds=3 if "hiraya" in rel else 8, dealer=0, observe=table.observe, checks=checks)
    order = Narrator(g, n, human).name_order()
    told = re.findall(r"^  Your hand: (.+[^.])$", out.getvalue(), re.M)
    told = [t for t in told if "hidden" not in t and "not yet looked at" not in t]
    assert len(told) == len(hands) and len(hands) >= 3
    for line, hand in zip(told, hands):
        ids = sorted((g.card_ids[c] for c in hand), key=order.__getitem__)
        assert line == " and ".join([", ".join(table.nar.card_text(c) for c in ids[:-1]), table.nar.card_text(ids[-1])]
                                    if len(ids) > 1 else [table.nar.card_text(ids[0])]), line
    # the cards you are dealt are told in the same order
    for line in re.findall(r"^  You are dealt (.+?)(?:: your hand shows .*)?\.$", out.getvalue(), re.M):
        if "face down" not in line:
            names = line.replace(" and ", ", ").split(", ")
            ranks = [min(order[c] for c in g.card_ids if table.nar.card_text(c) == nm) for nm in names]
            assert ranks == sorted(ranks), line
    # the hand as dealt is not in deck order: the sorting is the table's
    assert any(list(h) != sorted(h, key=lambda c: order[g.card_ids[c]]) for h in hands)


def test_otoroku_buta_is_one_plain_sentence():
    g = game("hanafuda/otoroku.yaml")
    n = g.variant.meta.players_default
    out = io.StringIO()
    table = Table(g, n, 2, Screen(io.StringIO("1\n" * 300), out), pause=False)  # always another card
    events: list[dict] = []

    def observe(e):
        events.append(e)
        table.observe(e)
    res = play(g, n, 1, make_agents(g, n, 1, "careful", human=2, human_agent=table), rounds=3, observe=observe)
    table.finish(res.chips, 3)
    text = out.getvalue()
    butas = [e for e in events if e.get("t") == "pay" and e.get("why") == "buta"]
    said = re.findall(r"^  (Your|Seat (\d+)'s) hand is shown: (.+) — shows (\d+) \(Buta, over the limit\); it goes to "
                      r"the discard pile and (?:you pay|seat (\d+) pays) 1 chip to seat 0 \(dealer\)\.$", text, re.M)
    assert len(said) == len(butas) >= 2
    for (whose, seat, _, value, payer), e in zip(said, butas):
        assert e["from"] == (table.seat if whose == "Your" else int(seat)) and int(value) >= 16
        assert whose == "Your" or payer == seat
    # no separate move or payment sentence for a Buta in the play (the round's summary lists every payment)
    play_text = re.sub(r"^End of round.*?^Standings:", "", text, flags=re.S | re.M)
    assert "go from your hand to the discard pile" not in text
    assert not re.search(r"\(Buta, over the limit\)\.$", play_text, re.M)


def test_a_turn_with_three_cards_at_once_is_told_play_by_play():
    from rulekit.people.table.compact import _Turn
    from rulekit.people.told import Act
    t = _Turn(1, "choice")
    for value, many in (("King of Cups (12)", False), ("Two of Swords, Two of Cups and Two of Clubs", True),
                        ("Three of Cups", False)):
        act = Act("play", "cards", "*", "plays {value}", value, many)
        t.add((act.said(), act.said(plural=True)), act)
    t.add(("passes", "pass"), Act("play", "cards", "[]", "passes"))  # the end of the turn: not told
    assert t.words(False) == "plays King of Cups (12), then Two of Swords, Two of Cups and Two of Clubs, then Three of Cups"
    t = _Turn(1, "choice")
    for value in ("Four of Cups", "Five of Clubs"):
        act = Act("play", "cards", "*", "plays {value}", value)
        t.add((act.said(), act.said(plural=True)), act)
    assert t.words(False) == "plays Four of Cups and Five of Clubs" and t.words(True) == "play Four of Cups and Five of Clubs"


def test_hiraya_forced_captures_and_last_cards_say_why():
    g = game("hanafuda/hiraya.yaml")
    out = io.StringIO()
    table = Table(g, 3, 1, Screen(io.StringIO("1\n" * 300), out), pause=False)
    events: list[dict] = []

    def observe(e):
        events.append(e)
        table.observe(e)
    res = play(g, 3, 5, make_agents(g, 3, 5, "careful", human=1, human_agent=table), rounds=2, observe=observe)
    table.finish(res.chips, 2)
    text = out.getvalue()
    forced = [e for e in events if e.get("t") == "choose" and e.get("forced") and e["player"] == table.seat]
    assert len(forced) >= 5
    # every forced answer is told to you: a play ('You play A, your only choice: your last card.'),
    # a capture with the play or the draw that made it ('You play A and capture B; ...', 'You draw A
    # and capture B with it; ...'); a reason once a round (the same reason again is not news)
    rounds = re.split(r"^Round \d+\b", text, flags=re.M)[1:]
    starts = [i for i, e in enumerate(events) if e.get("t") == "round"]
    assert len(rounds) == len(starts) == 2
    for k, rnd in enumerate(rounds):
        evs = events[starts[k]:starts[k + 1] if k + 1 < len(starts) else len(events)]
        mine = [e for e in evs if e.get("t") == "choose" and e.get("forced") and e["player"] == table.seat]
        yours = [ln for ln in rnd.splitlines() if ln.startswith("  You ")]
        at = 0
        for e in mine:  # in order, each in a line of its own or with the play or draw before it
            card = next(iter(e["action"].values()))
            name = g.card_name(g.card_index[card]).split(" (")[0]
            verb = "play" if e["choice"] == "play" else "capture"
            at = next((i for i in range(at, len(yours)) if f"{verb} {name} (" in yours[i]), None)
            assert at is not None, (verb, name, yours)
        whys = re.findall(r"^  You .+, your only choice: (.+)\.$", rnd, re.M)
        assert len(whys) == len(set(whys)), whys
        assert set(whys) <= {"your last card", "the only table card of the same month"}, whys


def test_a_face_down_deal_round_the_table_is_one_line_with_you_in_it():
    _, text, _, _ = _kakkuri(5, rounds=1)
    deal = text.split("Shuffle, cut and deal\n", 1)[1].split("Hand exchanges", 1)[0]
    assert deal.splitlines()[0] == "  Seats 1, 2 (you), 3, 4, 5, 6 and 0 are each dealt 3 cards, twice."
    assert "You are dealt" not in deal and len(deal.splitlines()) == 2


def test_unseen_hands_are_grouped_by_size():
    # the blind exchange asked too: the first table is drawn before anyone has played
    _, text, events, decisions = _kakkuri(5, rounds=2, ask_all=True)
    lines = re.findall(r"^  Unseen hands: (.+[^.])$", text, re.M)
    assert lines and lines[0] == "seats 0 (dealer), 1, 3, 4, 5 and 6: 6 cards each"
    for line in lines:
        counts = re.findall(r"(\d+) cards?(?: each)?(?:;|$)", line)
        assert len(counts) == len(set(counts)), line  # one group per size
        seats = [int(x) for part in line.split("; ") for x in re.findall(r"\b(\d+)\b", part.split(":")[0])]
        assert sorted(seats) == [0, 1, 3, 4, 5, 6], line  # every other seat, once

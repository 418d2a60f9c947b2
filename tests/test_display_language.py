"""The variant language's words for players: choose `labels`/`ask`, zone `label`/`show`/`part_of`
and `display.card`, as the narrator and the table use them, and their located errors."""
from __future__ import annotations

import os

import pytest

from rulekit.engine.build import build_game, check_variant, load_variant
from rulekit.engine.runner import make_agents, play
from rulekit.core.errors import render_all
from rulekit.people.narrate import Narrator, names_value, narrate

from .conftest import ROOT

BASE = open(os.path.join(ROOT, "docs", "tutorial", "first-variant.yaml"), encoding="utf-8").read()


def _write(tmp_path, text: str) -> str:
    p = tmp_path / "last-digit.yaml"
    p.write_text(text, encoding="utf-8")
    return str(p)


def _with(**subs) -> str:
    text = BASE
    for old, new in subs.values():
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


DISPLAY = dict(
    card=("deck: kabufuda\n", "deck: kabufuda\ndisplay: {card: c.value}\n"),
    hand=('hand: {per: player, visibility: owner, description:',
          'hand: {per: player, visibility: owner, label: pile, show: "sum(cards, c -> c.value) % 10", description:'),
    labels=("            prompt: Take a third card?\n",
            "            prompt: Take a third card?\n"
            '            labels: {take: {"true": "draw one more", "false": "stay put"}}\n'),
)


def test_labels_show_and_card_values_reach_the_story(tmp_path):
    game = build_game(load_variant(_write(tmp_path, _with(**DISPLAY))))
    res = play(game, 3, 4, make_agents(game, 3, 4))
    story = narrate(game, res.events, 3, viewer=1)
    text = "\n".join(story)
    # the choice in the variant's words, never take: yes
    chosen = [e for e in res.events if e["t"] == "choose"]
    assert chosen
    for e in chosen:
        word = "draw one more" if e["action"]["take"] else "stay put"
        assert word in text
    assert "take: yes" not in text and "take: no" not in text
    # the zone's own label, its shown value (the last digit), and card values
    mine = [c for c in res.state.zones["hand"][1]]
    value = sum(game.deck.cards[c].attrs["value"] for c in mine) % 10
    assert "Your pile: " in text and f"— shows {value}." in text
    # kabufuda names say their values ("Two"): the shown value is not repeated after them
    first = game.card_name(mine[0])
    assert first in text and f"{first} (" not in text


def test_a_shown_value_follows_a_card_name_only_where_the_name_does_not_say_it(tmp_path):
    # the last digit of a card's value: a Ten shows 0, which its name does not say
    text = _with(card=("deck: kabufuda\n", 'deck: kabufuda\ndisplay: {card: "c.value % 10"}\n'))
    nar = Narrator(build_game(load_variant(_write(tmp_path, text))), 3)
    assert nar.card_text("5-1") == "Five"
    assert nar.card_text("1-1") == "Red One (Aka-pin)"
    assert nar.card_text("4-1") == "Gold Four (Kin-shi)"
    assert nar.card_text("10-1") == "Ten (0)"
    # hanafuda names say nothing of the month (what matches) or the points the game shows
    hana = Narrator(build_game(load_variant(os.path.join(ROOT, "variants", "hanafuda", "hana-awase.yaml"))), 3)
    assert hana.card_text("1-1") == f"{hana.game.card_name(hana.index['1-1'])} (1, 20 pts)"
    assert hana.card_text("8-4") == f"{hana.game.card_name(hana.index['8-4'])} (8, 1 pt)"


@pytest.mark.parametrize("name, value, says", [
    ("Five", 5, True), ("Red One (Aka-pin)", 1, True), ("Ten of Clubs", 10, True), ("10 of Clubs", 10, True),
    ("Ten", 0, False), ("Ace of Spades", 1, False), ("Crane and sun", 20, False),
    ("Eight-plank bridge", 8, False),  # a word of a compound is not a number
    ("Someone", 1, False), ("One", "1", True), ("One", "x1", False), ("One", True, False),
])
def test_names_value(name, value, says):
    assert names_value(name, value) is says


def test_without_display_words_the_story_falls_back_to_parameter_names(tmp_path):
    game = build_game(load_variant(_write(tmp_path, BASE)))
    res = play(game, 3, 4, make_agents(game, 3, 4))
    text = "\n".join(narrate(game, res.events, 3))
    assert "take: yes" in text or "take: no" in text
    assert " — shows " not in text


def test_star_label_and_ask(tmp_path):
    text = _with(**DISPLAY).replace('{take: {"true": "draw one more", "false": "stay put"}}',
                                    '{take: {"*": "answer {value}"}}\n            ask: {take: "One more?"}')
    game = build_game(load_variant(_write(tmp_path, text)))
    choice = game.choices["third"][0]
    assert choice.ask == {"take": "One more?"}
    nar = Narrator(game, 3)
    assert nar.action_text("third", {"take": True}) == "answer yes"


@pytest.mark.parametrize("bad, message", [
    (('labels: {take: {"true"', 'labels: {tak: {"true"'), "labels: 'tak' is not a parameter of this choice"),
    (('show: "sum(cards, c -> c.value) % 10"', 'show: "sum(cards, c -> c.valu) % 10"'), "zones.hand.show"),
    (("display: {card: c.value}", "display: {card: c.nosuch}"), "display.card"),
    (('label: pile,', 'label: pile, part_of: deck,'), "zones.hand.part_of: expected a zone with the same number"),
])
def test_display_errors_are_located(tmp_path, bad, message):
    text = _with(**DISPLAY).replace(*bad)
    path = _write(tmp_path, text)
    diags = check_variant(path)
    out = render_all(diags)
    assert message in out, out
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if bad[1].split(":")[0] in ln and bad[1] in ln)
    assert f"last-digit.yaml:{line}:" in out, out


def test_part_of_shows_two_zones_as_one_hand():
    game = build_game(load_variant(os.path.join(ROOT, "variants", "kabufuda", "kyo-kabu.yaml")))
    res = play(game, 5, 3, make_agents(game, 5, 3), rounds=1)
    nar = Narrator(game, 5)
    for e in res.events:
        nar.feed(e)
    hands = {words: (text, value) for words, text, value in nar.hands()}
    assert not any(w.startswith("hole") for w in hands)  # the hole cards are part of their columns
    for i in range(4):
        cards = res.state.zones["column"][i] + res.state.zones["hole"][i]
        assert hands[f"column {i + 1}"][1] == sum(game.deck.cards[c].attrs["value"] for c in cards) % 10
        assert all(game.card_name(c) in hands[f"column {i + 1}"][0] for c in cards)


def test_pay_why_with_expressions_is_worked_out_when_paid(tmp_path):
    text = BASE.replace('- pay: {from: dealer, to: p, amount: "opt.stake * m"}',
                        '- pay: {from: dealer, to: p, amount: "opt.stake * m", '
                        'why: "{total[p]} against {total[dealer]}, first card {hand[p][0]}"}')
    assert text != BASE
    game = build_game(load_variant(_write(tmp_path, text)))
    res = play(game, 3, 4, make_agents(game, 3, 4))
    pays = [e for e in res.events if e["t"] == "pay"]
    assert pays
    zones = res.state.zones["hand"]
    for e in pays:
        seat = e["to"] if e["from"] == res.state.dealer else e["from"]
        total = sum(game.deck.cards[c].attrs["value"] for c in zones[seat]) % 10
        dealer = sum(game.deck.cards[c].attrs["value"] for c in zones[res.state.dealer]) % 10
        assert e["why"] == f"{total} against {dealer}, first card {game.card_name(zones[seat][0])}"


def test_pay_why_expression_errors_are_located(tmp_path):
    text = BASE.replace('- pay: {from: dealer, to: p, amount: "opt.stake * m"}',
                        '- pay: {from: dealer, to: p, amount: "opt.stake * m", why: "{nosuch + 1} chips"}')
    out = render_all(check_variant(_write(tmp_path, text)))
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "nosuch" in ln)
    assert f"last-digit.yaml:{line}:" in out and "why" in out and "nosuch" in out, out


# --------------------------------------------------------------------------- texts written as parts

PAY = '- pay: {from: dealer, to: p, amount: "opt.stake * m"}'


def test_a_why_written_as_clauses_shows_only_the_clauses_that_hold(tmp_path):
    ind = " " * 14
    parts = (f'- pay:\n{ind}from: dealer\n{ind}to: p\n{ind}amount: "opt.stake * m"\n'
             f'{ind}why:\n{ind}  - "{{total[p]}} against {{total[dealer]}}"\n'
             f'{ind}  - {{when: "total[p] > total[dealer]", say: ", the higher"}}\n'
             f'{ind}  - {{when: "total[p] < total[dealer]", say: ", the lower {{total[p]}}"}}\n')
    text = BASE.replace(PAY, parts)
    assert text != BASE
    game = build_game(load_variant(_write(tmp_path, text)))
    seen = set()
    for seed in range(12):
        res = play(game, 3, seed, make_agents(game, 3, seed))
        for e in (e for e in res.events if e["t"] == "pay"):
            seat = e["to"] if e["from"] == res.state.dealer else e["from"]
            total = lambda s: sum(game.deck.cards[c].attrs["value"] for c in res.state.zones["hand"][s]) % 10  # noqa: E731
            a, b = total(seat), total(res.state.dealer)
            want = f"{a} against {b}" + (", the higher" if a > b else f", the lower {a}" if a < b else "")
            assert e["why"] == want
            seen.add((a > b, a < b))
    assert {(True, False), (False, True)} <= seen  # both clauses were tried


def test_a_part_that_is_neither_text_nor_clause_is_located(tmp_path):
    text = BASE.replace(PAY, PAY[:-1] + ', why: ["a", [1, 2]]}')
    out = render_all(check_variant(_write(tmp_path, text)))
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if "[1, 2]" in ln)
    assert f"last-digit.yaml:{line}:" in out and "error" in out, out


def _texts(node, key="", out=None):
    """Every say/why/you/text string of a variant file, with the key it is under."""
    out = [] if out is None else out
    if isinstance(node, dict):
        for k, v in node.items():
            _texts(v, str(k), out)
    elif isinstance(node, list):
        for v in node:
            _texts(v, key, out)
    elif isinstance(node, str) and key in ("say", "why", "you", "text"):
        out.append((key, " ".join(node.split())))
    return out


def test_no_display_expression_in_the_shipped_variants_is_longer_than_200_characters():
    import glob

    import yaml

    from rulekit.engine.steps import PLACEHOLDER
    worst = []
    for path in sorted(glob.glob(os.path.join(ROOT, "variants", "*", "*.yaml"))):
        with open(path, encoding="utf-8") as fh:
            data = yaml.safe_load(fh)
        for key, text in _texts(data):
            exprs = [m.group(1) for m in PLACEHOLDER.finditer(text)]
            if exprs:  # a line for the table or the log (say, why) is measured whole, an {expression} alone
                worst.append((len(text) if key != "text" else max(map(len, exprs)), os.path.basename(path), text))
    longest = max(worst)
    assert longest[0] <= 200, longest
    assert len(worst) > 50  # the measure reads the files' display texts

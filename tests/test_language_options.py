"""Decks that depend on options and on the table size, and yaku groups that depend on options
(issue 16), on the tutorial variant."""
from __future__ import annotations

from pathlib import Path

from rulekit.engine.build import build_game, check_variant, load_variant
from rulekit.core.errors import render_all

TUTORIAL = Path(__file__).resolve().parent.parent / "docs" / "tutorial" / "first-variant.yaml"
OPTIONS = "options:\n"
TENS = '''options:
  tens:
    type: bool
    default: true
    description: Whether the 10s are in the deck.
    source: "test"
'''
DECK = '''  kabufuda: {description: "Kabufuda: 40 cards, four of each value from 1 to 10."}'''


def variant(tmp_path, *edits) -> str:
    text = TUTORIAL.read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    p = tmp_path / "v.yaml"
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_a_deck_may_depend_on_an_option(tmp_path):
    p = variant(tmp_path, (OPTIONS, TENS), (DECK, '''  kabufuda:
    from: kabufuda
    remove: "not opt.tens and c.value == 10"
    description: "Kabufuda, without its 10s unless option tens."'''))
    assert not check_variant(p)
    v = load_variant(p)
    assert len(build_game(v).card_ids) == 40
    assert len(build_game(v, {"tens": False}).card_ids) == 36


def test_a_yaku_group_may_depend_on_an_option(tmp_path):
    pair = '''      value: 2
      description: "Two cards of the same value'''
    p = variant(tmp_path, (OPTIONS, TENS), (pair, '''      value: 2
      group: "if opt.tens then 'best' else ''"
      description: "Two cards of the same value'''))
    assert not check_variant(p)
    v = load_variant(p)
    assert [y.group for y in build_game(v).yaku["hand"]][0] == "best"
    assert [y.group for y in build_game(v, {"tens": False}).yaku["hand"]][0] == ""


def test_a_group_expression_may_read_options_only(tmp_path):
    pair = '''      value: 2
      description: "Two cards of the same value'''
    p = variant(tmp_path, (pair, '''      value: 2
      group: "if dealer == 0 then 'a' else 'b'"
      description: "Two cards of the same value'''))
    out = render_all(check_variant(p))
    assert "group:" in out and "unknown name 'dealer'" in out


BY_TABLE = '''  kabufuda:
    from: kabufuda
    remove: "(n_players <= 3 and c.value == 10) or (n_players == 2 and c.value == 9)"
    description: "Kabufuda; with three players the 10s are out of play, with two the 9s too."'''


def _round_cards(game, n: int, seed: int = 3) -> set[str]:
    """Every card that was anywhere at the end of a played round at a table of n."""
    from rulekit.engine.runner import make_agents, play
    res = play(game, n, seed, make_agents(game, n, seed), rounds=1)
    ids = game.card_ids
    out: set[str] = set()
    for z in res.state.zones.values():
        for pile in (z if z and isinstance(z[0], list) else [z]):
            out.update(ids[c] for c in pile)
    return out


def test_a_deck_may_depend_on_the_table_size(tmp_path):
    p = variant(tmp_path, (DECK, BY_TABLE))
    assert not check_variant(p)
    game = build_game(load_variant(p))
    # one deck: the cards out of play at some sizes only stay in it (card indexes do not change)
    assert len(game.card_ids) == 40
    assert len(game.in_play(2)) == 32 and len(game.in_play(3)) == 36
    assert game.in_play(4) == game.in_play(6) == tuple(range(40))
    value = {c.id: c.attrs["value"] for c in game.deck.cards}
    assert {value[c] for c in _round_cards(game, 2)} == set(range(1, 9))
    assert {value[c] for c in _round_cards(game, 3)} == set(range(1, 10))
    assert 10 in {value[c] for c in _round_cards(game, 4)}


def test_a_card_out_of_play_at_every_size_leaves_the_deck(tmp_path):
    p = variant(tmp_path, (DECK, BY_TABLE.replace("n_players <= 3 and c.value == 10", "n_players > 0 and c.value == 10")))
    game = build_game(load_variant(p))
    assert len(game.card_ids) == 36 and len(game.in_play(2)) == 32 and len(game.in_play(3)) == 36
    assert set(game.deck.out_of_play) == {2}


def test_the_narrator_starts_from_the_cards_in_play(tmp_path):
    from rulekit.people.narrate import Narrator
    p = variant(tmp_path, (DECK, BY_TABLE))
    game = build_game(load_variant(p))
    nar = Narrator(game, 2, viewer=None)
    nar.feed({"t": "round", "round": 0, "dealer": 0})
    assert len(nar.zones[game.deck_zone]) == 32


def test_a_card_attribute_may_not_depend_on_the_table_size(tmp_path):
    p = variant(tmp_path, (DECK, BY_TABLE + '''
    attributes: {big: {type: bool, description: "Worth more at a small table."}}
    set: {big: "n_players < 4 and c.value > 7"}'''))
    out = render_all(check_variant(p))
    assert "set big: a card's attributes are the same at every table size" in out
    assert "remove:" in out  # the hint says what to write instead


def test_every_table_size_whose_deck_differs_is_checked(tmp_path):
    # 2 and 6 players deal from the whole deck; only at 3 are there too few cards
    p = variant(tmp_path, (DECK, BY_TABLE.replace(
        "(n_players <= 3 and c.value == 10) or (n_players == 2 and c.value == 9)", "n_players == 3 and c.value > 1")))
    out = render_all(check_variant(p))
    assert "E041" in out, out


MINI = Path(__file__).resolve().parent / "fixtures" / "valid" / "mini-kabu.yaml"


def test_a_policy_for_a_choice_the_child_removed_names_the_child_file(tmp_path):
    (tmp_path / "parent.yaml").write_text(MINI.read_text(encoding="utf-8"), encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("id: child\nextends: parent.yaml\nmeta:\n  names: {en: Child}\n"
                     "round:\n  - {id: draw, remove: true}\n", encoding="utf-8")
    out = render_all(check_variant(str(child)))
    assert "parent.yaml" in out.splitlines()[0]                  # where the rule is written
    assert f"no choice 'draw' in {child}" in out                # and the file that dropped the choice
    assert f"in {child}, override policy 'careful'" in out


def test_a_function_may_not_take_a_built_in_name(tmp_path):
    p = variant(tmp_path, ("yaku:\n", 'functions:\n  count:\n    params: [xs]\n    body: "0"\nyaku:\n'))
    assert "function 'count': the name of a built-in function" in render_all(check_variant(p))


def test_the_quick_box_and_show_say_which_cards_a_table_size_leaves_out(tmp_path):
    import subprocess
    import sys
    from rulekit.website.quickref import deck_text
    p = variant(tmp_path, (DECK, BY_TABLE))
    text = deck_text(build_game(load_variant(p)))
    assert "with 2 players 32 cards are played, without 8 cards" in text
    assert "with 3 players 36 cards are played" in text
    out = subprocess.run([sys.executable, "-m", "rulekit", "show", p], capture_output=True, text=True).stdout
    assert "(40 cards, 32 with 2 players, 36 with 3 players)" in out


def test_a_deck_by_table_size_plays_the_same_on_both_execution_paths(tmp_path):
    from rulekit.engine.runner import make_agents, play
    p = variant(tmp_path, (DECK, BY_TABLE))
    v = load_variant(p)
    runs = []
    for codegen in (True, False):
        game = build_game(v, codegen=codegen)
        runs.append(play(game, 2, 11, make_agents(game, 2, 11), rounds=3).events)
    assert runs[0] == runs[1]


def _broken_function_variant(tmp_path) -> tuple[str, str]:
    """A body reading 'limit', a name its callers bind with let: called three times."""
    p = variant(tmp_path,
                ('            where: "not take or sum(hand[p], c -> c.value) % 10 <= 6"',
                 '            where: "not take or lowish(p)"'),
                ("yaku:\n", 'functions:\n  lowish:\n    params: [q]\n'
                            '    body: "sum(hand[q], c -> c.value) % 10 <= limit"\nyaku:\n'),
                ("          - if: take\n", '          - let: {limit: 6}\n'
                                           '          - if: "take and lowish(p) and lowish(p + 0) and lowsh(p)"\n'))
    return p, open(p, encoding="utf-8").read()


def test_a_mistake_in_a_function_body_is_one_error_at_the_body_saying_the_cause(tmp_path):
    p, text = _broken_function_variant(tmp_path)
    diags = [d for d in check_variant(p) if d.severity == "error"]
    body = next(i for i, ln in enumerate(text.splitlines(), 1) if "<= limit" in ln)
    at_body = [d for d in diags if d.span.line == body]
    assert len(at_body) == 1 and "unknown name 'limit'" in at_body[0].message
    assert "never the names its caller binds with let" in at_body[0].hint
    # the calls say nothing more; an independent mistake beside a call is still reported, with did-you-mean
    others = [d for d in diags if d.span.line != body]
    assert [(d.code, d.message.split(": ", 1)[1]) for d in others] == [("E031", "unknown function 'lowsh'")]
    assert others[0].hint == "did you mean 'lowish'?"

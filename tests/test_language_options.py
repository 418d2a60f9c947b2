"""Decks and yaku groups that depend on options (issue 16), on the tutorial variant."""
from __future__ import annotations

from pathlib import Path

from rulekit.build import build_game, check_variant, load_variant
from rulekit.errors import render_all

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

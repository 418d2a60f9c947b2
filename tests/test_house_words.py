"""Errors in a family's words, and cards by their names wherever an id is accepted.

A house file that asks for something the game does not offer is answered in words a family can
follow: a suggestion only when following it works, the options with what they are, the deck on
the command line, a card in a condition written the way the rules write one."""
from __future__ import annotations

import pytest

from rulekit.core.errors import RulekitError
from rulekit.engine.build import build_game, check_house, load_variant
from rulekit.lang.expr import CompileError, compile_expr
from rulekit.engine.scope import variant_scope


def _house(tmp_path, text: str) -> str:
    f = tmp_path / "house.yaml"
    f.write_text(text, encoding="utf-8")
    return str(f)


def _errors(path: str):
    return [d for d in check_house(path) if d.severity == "error"]


def test_card_names_are_ids(tmp_path):
    g = build_game(load_variant("hiraya"))
    sc = variant_scope(g.variant, g.deck, g.options)
    by_name = compile_expr("card('Full moon')", sc, None)
    by_id = compile_expr("card('8-1')", sc, None)
    ctx = g.new_ctx(3, 0, None)
    assert (by_name.raw or by_name.fn)(ctx) == (by_id.raw or by_id.fn)(ctx)
    assert (compile_expr("card('full  MOON')", sc, None).raw or by_id.fn)(ctx) == (by_id.raw or by_id.fn)(ctx)
    with pytest.raises(CompileError) as exc:
        compile_expr("card('Ful moon')", sc, None)
    assert "no card with id or name 'Ful moon'" in exc.value.problems[0].message
    assert "did you mean" in exc.value.problems[0].hint
    with pytest.raises(CompileError) as exc:  # a name several cards share names none of them
        compile_expr("card('Pine chaff')", sc, None)
    assert "1-3" in exc.value.problems[0].message and "card('1-3')" in exc.value.problems[0].hint


def test_a_card_written_as_words_in_a_condition_says_how_to_write_it(tmp_path):
    path = _house(tmp_path, "target: hiraya\nyaku:\n  dekiyaku:\n    - id: mine\n      value: 5\n"
                            "      when: \"Full moon in cards\"\n")
    errs = _errors(path)
    assert len(errs) == 1 and errs[0].span.line == 6
    assert "card('Full moon') in cards" in errs[0].hint


def test_a_hand_by_its_cards_names_them_by_id_or_name_with_did_you_mean(tmp_path):
    ok = _house(tmp_path, "target: hiraya\nyaku:\n  dekiyaku:\n    - id: mine\n      value: 5\n"
                          "      cards: [Full moon, '9-1']\n")
    assert _errors(ok) == []
    bad = _house(tmp_path, "target: hiraya\nyaku:\n  dekiyaku:\n    - id: mine\n      value: 5\n"
                           "      cards: [Full mon]\n")
    errs = _errors(bad)
    assert len(errs) == 1 and errs[0].span.line == 6 and "Full mon" in errs[0].message
    assert "did you mean" in errs[0].hint


def test_a_suggested_option_takes_the_value_given(tmp_path):
    # a bettors' card limit does not exist: the dealer's limit is a choice, and 4 is no value of it
    path = _house(tmp_path, "target: otoroku\noptions:\n  bettor_max_cards: 4\n")
    err, = _errors(path)
    assert "did you mean" not in err.hint
    assert "dealer_max_cards (whether the bettors' five-card limit binds the dealer too)" in err.hint
    path = _house(tmp_path, "target: otoroku\noptions:\n  rotate: 3\n")
    err, = _errors(path)
    assert err.hint == "did you mean 'rotate_every' (rounds between changes of dealer)?"


def test_deck_in_a_house_file_points_to_the_command_line(tmp_path, capsys):
    path = _house(tmp_path, "target: otoroku\ndeck: kabufuda\n")
    err, = _errors(path)
    # the engine's words are neutral: it names the argument, the command line says its flag
    assert err.span.line == 2 and "does not choose the deck" in err.message and err.settle_with == "deck"
    assert "when the game is played" in err.hint and "--deck" not in err.hint
    from rulekit.cli.main import main
    assert main(["validate", path]) == 1
    said = capsys.readouterr().err
    assert f"{path}:2:1" in said and "does not choose the deck" in said
    assert "on the command line: --deck NAME (rulekit show GAME lists the decks the game accepts)" in said


def test_players_only_within_the_counts_the_rules_support(tmp_path):
    path = _house(tmp_path, "target: hiraya\nplayers: {max: 4}\n")
    err, = _errors(path)
    assert (err.span.line, err.span.col) == (2, 16)
    assert "for 3 players" in err.message
    with pytest.raises(RulekitError):
        load_variant("hiraya", house=(path,))
    path = _house(tmp_path, "target: hana-awase\nplayers: {min: 3, max: 4, default: 4}\n")
    assert _errors(path) == []

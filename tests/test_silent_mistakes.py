"""Silent mistakes (issue 26): rules that validated and did nothing now give a located error
or warning, and a file's schema errors no longer hide the errors of its rules."""
from __future__ import annotations

from rulekit.cli.main import main
from rulekit.core.errors import render_all
from rulekit.engine.build import check_variant

from .test_language_options import DECK, variant

PAIR = 'when: "count(cards) == 2 and cards[0].value == cards[1].value"'


def _only(diags, severity):
    return [d for d in diags if d.severity == severity]


def test_a_string_that_is_not_a_value_of_the_option_is_an_error(tmp_path):
    p = variant(tmp_path, (PAIR, PAIR[:-1] + " and opt.ties != 'dealr'\""))
    diags = check_variant(p)
    (d,) = _only(diags, "error")
    assert d.code == "E050" and "'dealr' is not a value of option ties (its values: push, dealer)" in d.message
    assert "did you mean 'dealer'" in d.hint
    text = open(p, encoding="utf-8").read().splitlines()
    assert text[d.span.line - 1][d.span.col - 1:].startswith("'dealr'")


def test_a_card_id_no_deck_has_is_an_error(tmp_path):
    p = variant(tmp_path, (PAIR, PAIR[:-1] + " and cards[0].id != '11-1'\""))
    (d,) = _only(check_variant(p), "error")
    assert d.code == "E040" and "no card '11-1' in any deck of this game" in d.message
    text = open(p, encoding="utf-8").read().splitlines()
    assert text[d.span.line - 1][d.span.col - 1:].startswith("'11-1'")
    p = variant(tmp_path, (PAIR, PAIR[:-1] + " and cards[0].id != '10-1'\""))
    assert _only(check_variant(p), "error") == []


def test_a_deck_remove_that_removes_nothing_is_a_warning(tmp_path):
    p = variant(tmp_path, (DECK, '''  kabufuda:
    from: kabufuda
    remove: "c.value == 11"
    description: "Kabufuda."'''))
    diags = check_variant(p)
    assert _only(diags, "error") == []
    (w,) = _only(diags, "warning")
    assert "decks.kabufuda.remove: no card of deck 'kabufuda' matches" in w.message and w.span.line > 1


def test_a_remove_reading_an_attribute_the_deck_redefines_is_a_warning(tmp_path):
    p = variant(tmp_path, (DECK, '''  kabufuda:
    from: kabufuda
    remove: "c.value == 10"
    set: {value: "c.value % 10"}
    description: "Kabufuda."'''))
    (w,) = _only(check_variant(p), "warning")
    assert "reads attribute 'value', which set: redefines in the same deck" in w.message


def test_labels_for_values_a_choice_never_offers_are_a_warning(tmp_path, capsys):
    p = variant(tmp_path, ('            options: {take: "[true, false]"}\n',
                           '            options: {take: "[true, false]"}\n'
                           '            labels: {take: {"true": "take", "false": "stand", "maybe": "think"}}\n'))
    (w,) = _only(check_variant(p), "warning")
    assert "a label for take 'maybe', a value the choice never offers (its values: false, true)" in w.message
    assert main(["validate", p]) == 0  # a warning does not fail validation
    out = capsys.readouterr()
    assert "warning[E042]" in out.err and "ok (1 warning)" in out.out


def test_a_schema_error_and_a_rules_error_are_reported_in_one_run(tmp_path):
    p = variant(tmp_path, ("players: {min: 2, max: 6, default: 3}", "players: {min: 2, max: 6, default: 3, colour: red}"),
                (PAIR, PAIR[:-1] + " and nosuch\""))
    diags = check_variant(p)
    out = render_all(diags)
    assert "colour" in out                    # the schema's error
    assert "unknown name 'nosuch'" in out     # and the rules' error, in the same run
    assert all(d.span.file.endswith("v.yaml") and d.span.line > 1 for d in diags)


def test_a_where_that_never_holds_in_validations_rounds_is_a_warning(tmp_path):
    old = '            where: "not take or sum(hand[p], c -> c.value) % 10 <= 6"\n'
    p = variant(tmp_path, (old, '            where: "take and sum(hand[p], c -> c.value) > 99"\n            if_none: skip\n'))
    diags = check_variant(p)
    assert _only(diags, "error") == []
    (w,) = _only(diags, "warning")
    assert "choose third: its where never held in validation's rounds" in w.message
    text = open(p, encoding="utf-8").read().splitlines()
    assert "choose: third" in text[w.span.line - 1]
    p = variant(tmp_path, (old, old + "            if_none: skip\n"))  # a where that holds: no warning
    assert check_variant(p) == []

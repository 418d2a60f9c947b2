"""`validate --strict` flags a yaku text that writes the yaku's value as a literal (rulekit.lang.handvalues)."""
from __future__ import annotations

from pathlib import Path

from rulekit.engine.build import check_variant

from .conftest import ROOT

BASE = (Path(ROOT) / "docs" / "tutorial" / "first-variant.yaml").read_text(encoding="utf-8")
TEXT = '      text: "Two cards of the same value, with no third card. It beats every hand that is not a pair and is paid double."'


def _literal_warnings(tmp_path, text: str, strict: bool = True) -> list:
    assert TEXT in BASE
    p = tmp_path / "v.yaml"
    p.write_text(BASE.replace(TEXT, f"      text: {text!r}"), encoding="utf-8")
    return [d for d in check_variant(str(p), strict=strict) if "states the value of yaku" in d.message]


def test_a_value_written_as_a_number_is_flagged_where_it_is_written(tmp_path):
    found = _literal_warnings(tmp_path, "Two cards of the same value: paid 2 stakes.")
    assert len(found) == 1 and found[0].severity == "warning" and found[0].code == "W091"
    assert found[0].message.startswith("'2' states the value of yaku 'pair' (hand)")
    assert found[0].hint == "write {yaku.hand.pair} instead"
    lines = Path(found[0].span.file).read_text(encoding="utf-8").splitlines()
    line = next(i for i, ln in enumerate(lines, 1) if "paid 2 stakes" in ln)
    assert (found[0].span.line, found[0].span.col) == (line, lines[line - 1].index("2 stakes") + 1)


def test_a_value_in_words_is_flagged_too(tmp_path):
    assert len(_literal_warnings(tmp_path, "Two cards of the same value; worth two.")) == 1


def test_the_placeholder_a_count_of_cards_and_validate_without_strict_are_quiet(tmp_path):
    assert _literal_warnings(tmp_path, "Two cards of the same value: paid {yaku.hand.pair} stakes.") == []
    assert _literal_warnings(tmp_path, "2 cards of the same value, beating every other hand.") == []
    assert _literal_warnings(tmp_path, "Two cards of the same value: paid 2 stakes.", strict=False) == []

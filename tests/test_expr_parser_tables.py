"""The stored LALR tables (grammartables.json) belong to grammar.lark and parse exactly as a freshly built parser."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import lark
import pytest
import yaml

from rulekit.lang.expr import parser

COMPLIANCE = Path(__file__).with_name("expr_compliance")
VARIANTS = Path(__file__).parents[1] / "variants"
STORED = parser.stored_tables()


def _corpus() -> list[str]:
    """Every expression text of the compliance suite plus every string value of the variant files."""
    texts: set[str] = set()
    for f in sorted(COMPLIANCE.glob("*.yaml")):
        for group in yaml.safe_load(f.read_text(encoding="utf-8")):
            texts.update(str(c["expression"]) for c in group["cases"] if "expression" in c)

    def walk(x: object) -> None:
        if isinstance(x, str) and len(x) < 400:
            texts.add(x)
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    for f in sorted(VARIANTS.rglob("*.yaml")):
        walk(yaml.safe_load(f.read_text(encoding="utf-8")))
    return sorted(texts)


def _outcome(p: lark.Lark, text: str) -> object:
    """The tree, or the kind, place and expected tokens of the error."""
    try:
        return p.parse(text)
    except lark.exceptions.UnexpectedInput as exc:
        return type(exc).__name__, exc.pos_in_stream, sorted(getattr(exc, "expected", ()) or ())


def test_tables_are_made_from_this_grammar() -> None:
    """An edit of grammar.lark without regenerating the tables fails here (whatever lark is installed)."""
    grammar = parser.GRAMMAR_PATH.read_text(encoding="utf-8")
    assert STORED is not None, f"{parser.TABLES_PATH} cannot be read"
    assert STORED.grammar_sha256 == parser.grammar_digest(grammar), \
        "grammar.lark changed: run python -c 'import rulekit.lang.expr.parser as p; p.write_tables()'"


@pytest.mark.skipif(STORED is None or STORED.lark_version != lark.__version__,
                    reason="tables made by another lark version: the parser is rebuilt from the grammar")
def test_stored_tables_parse_as_the_built_parser() -> None:
    parser._parser.cache_clear()
    stored = parser._parser()
    built = parser.build_parser(parser.GRAMMAR_PATH.read_text(encoding="utf-8"))
    assert stored.source_path == "<deserialized>"  # the stored tables are the ones in use
    corpus = _corpus()
    assert len(corpus) > 1000
    for text in corpus:
        assert _outcome(stored, text) == _outcome(built, text), text


def test_stored_tables_read_back_as_lark_wrote_them() -> None:
    """The JSON keeps what lark serialised: tuples stay tuples, number keys stay numbers."""
    assert STORED is not None
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    data, memo = parser.build_parser(parser.GRAMMAR_PATH.read_text(encoding="utf-8")).memo_serialize([TerminalDef, Rule])
    for value in (data, memo, STORED.data, STORED.memo):
        assert json.loads(json.dumps(parser._to_json(value)), object_hook=parser._from_json) == value
    states = STORED.data["parser"]["parser"]["states"]  # type: ignore[index]
    assert all(type(k) is int for k in states) and any(type(a) is tuple for s in states.values() for a in s.values())


def test_other_lark_version_rebuilds(monkeypatch: pytest.MonkeyPatch) -> None:
    assert STORED is not None
    monkeypatch.setattr(parser, "stored_tables", lambda: dataclasses.replace(STORED, lark_version="0.0.0"))
    parser._parser.cache_clear()
    try:
        p = parser._parser()
        assert p.source_path != "<deserialized>"
        assert str(p.parse("1 + a.b").data) == "binop"
    finally:
        parser._parser.cache_clear()


def test_unreadable_tables_rebuild(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A damaged or missing table file is not an error: the parser is built from the grammar."""
    for text in ("{not json", '{"lark_version": "1"}', None):
        path = tmp_path / "tables.json"
        if text is not None:
            path.write_text(text, encoding="utf-8")
        monkeypatch.setattr(parser, "TABLES_PATH", path if text is not None else tmp_path / "absent.json")
        parser.stored_tables.cache_clear()
        parser._parser.cache_clear()
        try:
            assert parser.stored_tables() is None
            assert str(parser._parser().parse("1 + a.b").data) == "binop"
        finally:
            parser.stored_tables.cache_clear()
            parser._parser.cache_clear()

"""Text -> AST with the lark LALR parser; syntax errors carry the offending offset."""
from __future__ import annotations

import functools
import hashlib
import json
import re
from dataclasses import dataclass
from fractions import Fraction
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import lark
from lark import Lark, Token, Transformer, v_args
from lark.tree import Meta
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

from rulekit.lang.expr import ast

MAX_EXPR_CHARS = 4000
MAX_EXPR_DEPTH = 60


@dataclass(frozen=True)
class ExprSyntaxError(Exception):
    """A syntax error at `offset` in the expression text."""

    offset: int
    message: str
    length: int = 1
    hint: str = ""

    def __str__(self) -> str:
        return f"{self.message} (at offset {self.offset})"


_TOKEN_NAMES = {
    "NAME": "a name", "INT": "a number", "DECIMAL": "a number", "STRING": "a string",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','", "DOT": "'.'",
    "COMPOP": "a comparison", "ADDOP": "'+' or '-'", "MULOP": "'*', '/', '//' or '%'",
    "MINUS": "'-'", "IF": "'if'", "THEN": "'then'", "ELSE": "'else'", "AND": "'and'", "OR": "'or'",
    "NOT": "'not'", "IN": "'in'", "NOT_IN": "'not in'", "TRUE": "'true'", "FALSE": "'false'",
    "__ANON_0": "'->'", "$END": "end of expression", "POW": "'**'",
}


def _describe(expected: Iterable[str]) -> str:
    names = set(expected)
    if names & {"NAME", "INT", "STRING"}:
        return "a value (a number, a name, a string, '(' or '[')"
    pretty = sorted({_TOKEN_NAMES.get(n, n.lower()) for n in names if not n.startswith("__ANON") or n in _TOKEN_NAMES})
    if len(pretty) > 6:
        return "an operand or an operator"
    return ", ".join(pretty) if pretty else "something else"


_WORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:[ \t]+[A-Za-z_][A-Za-z0-9_]*)+")


def _quote_hint(text: str, tok: Token) -> str:
    """Two words in a row are most often text meant as a value: suggest quoting it."""
    if tok.type != "NAME" or tok.start_pos is None:
        return ""
    start = tok.start_pos
    for m in _WORDS.finditer(text):
        if m.start() < start < m.end():
            run: list[str] = []  # the run of plain words (no keywords) around the token
            pos = m.start()
            for w in m.group(0).split():
                at = text.index(w, pos)
                pos = at + len(w)
                if w in _KEYWORDS:
                    if at > start:
                        break
                    run = []
                else:
                    run.append(w)
            if len(run) > 1:
                return f"to write text, put it in quotes: '{' '.join(run)}'"
    return ""


_KEYWORDS = {"if", "then", "else", "and", "or", "not", "in", "true", "false", "let"}


#: what a grammar rule hands its method: the sub-expressions and the tokens it keeps (None for an
#: optional part left out)
Child = Token | ast.Node | None


def _node(x: Child) -> ast.Node:
    """A child the grammar makes a sub-expression."""
    assert isinstance(x, ast.Node), x
    return x


def _tok(x: Child) -> Token:
    """A child the grammar keeps as a token."""
    assert isinstance(x, Token), x
    return x


def _at(x: Child) -> int:
    """Where a kept token starts (a token from the lexer always knows)."""
    pos = _tok(x).start_pos
    assert pos is not None
    return pos


@v_args(meta=True)
class _ToAst(Transformer[Token, ast.Node]):
    """lark tree -> frozen AST nodes with offsets."""

    def int_(self, meta: Meta, c: list[Child]) -> ast.Node:
        return ast.Const(meta.start_pos, meta.end_pos, int(_tok(c[0])))

    def decimal(self, meta: Meta, c: list[Child]) -> ast.Node:
        return ast.Const(meta.start_pos, meta.end_pos, Fraction(str(c[0])))

    def string(self, meta: Meta, c: list[Child]) -> ast.Node:
        return ast.Const(meta.start_pos, meta.end_pos, str(c[0])[1:-1])

    def true(self, meta: Meta, c: list[Child]) -> ast.Node:
        return ast.Const(meta.start_pos, meta.end_pos, True)

    def false(self, meta: Meta, c: list[Child]) -> ast.Node:
        return ast.Const(meta.start_pos, meta.end_pos, False)

    def name(self, meta: Meta, c: list[Child]) -> ast.Node:
        return ast.Name(meta.start_pos, meta.end_pos, str(c[0]))

    def list_(self, meta: Meta, c: list[Child]) -> ast.Node:
        items = tuple(_node(x) for x in c if x is not None)
        return ast.ListLit(meta.start_pos, meta.end_pos, items)

    def attr(self, meta: Meta, c: list[Child]) -> ast.Node:
        return ast.Attr(meta.start_pos, meta.end_pos, _node(c[0]), str(c[1]), _at(c[1]))

    def index(self, meta: Meta, c: list[Child]) -> ast.Node:
        return ast.Index(meta.start_pos, meta.end_pos, _node(c[0]), _node(c[1]))

    def call(self, meta: Meta, c: list[Child]) -> ast.Node:
        args = tuple(_node(x) for x in c[1:] if x is not None)
        return ast.Call(meta.start_pos, meta.end_pos, str(c[0]), args)

    def lambda_(self, meta: Meta, c: list[Child]) -> ast.Node:
        return ast.Lambda(meta.start_pos, meta.end_pos, str(c[0]), _node(c[1]))

    def let_(self, meta: Meta, c: list[Child]) -> ast.Node:
        return ast.Let(meta.start_pos, meta.end_pos, str(c[0]), _node(c[1]), _node(c[3]))

    def cond(self, meta: Meta, c: list[Child]) -> ast.Node:
        return ast.Cond(meta.start_pos, meta.end_pos, _node(c[0]), _node(c[1]), _node(c[2]))

    def _bin(self, meta: Meta, op: str, left: Child, right: Child, op_start: int) -> ast.Node:
        return ast.Binary(meta.start_pos, meta.end_pos, op, _node(left), _node(right), op_start)

    def or_(self, meta: Meta, c: list[Child]) -> ast.Node:
        return self._bin(meta, "or", c[0], c[1], _node(c[0]).end)

    def and_(self, meta: Meta, c: list[Child]) -> ast.Node:
        return self._bin(meta, "and", c[0], c[1], _node(c[0]).end)

    def not_(self, meta: Meta, c: list[Child]) -> ast.Node:
        return ast.Unary(meta.start_pos, meta.end_pos, "not", _node(c[0]))

    def neg(self, meta: Meta, c: list[Child]) -> ast.Node:
        return ast.Unary(meta.start_pos, meta.end_pos, "-", _node(c[0]))

    def pow(self, meta: Meta, c: list[Child]) -> ast.Node:
        return self._bin(meta, "**", c[0], c[2], _at(c[1]))

    def compare(self, meta: Meta, c: list[Child]) -> ast.Node:
        op = " ".join(str(c[1]).split())
        return self._bin(meta, op, c[0], c[2], _at(c[1]))

    binop = compare


GRAMMAR_PATH = Path(__file__).with_name("grammar.lark")
TABLES_PATH = Path(__file__).with_name("grammartables.json")
_OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": False}


def grammar_digest(grammar: str) -> str:
    """The sha256 of the grammar text and the parser options the tables are built with."""
    return hashlib.sha256(f"{sorted(_OPTIONS.items())}\n{grammar}".encode()).hexdigest()


def build_parser(grammar: str) -> Lark:
    """A parser built from the grammar text (about 0.1 CPU-s: the LALR tables are computed)."""
    return Lark(grammar, **_OPTIONS)


@dataclass(frozen=True)
class Tables:
    """The parser's LALR tables as stored in the package, with the lark version and grammar they belong to."""

    lark_version: str
    grammar_sha256: str
    data: dict[str, object]
    memo: dict[object, object]


# The tables are plain JSON data (never pickle or code): a tuple is stored as {"(": [items]} and a
# mapping with keys other than strings as {"#": [[key, value], ...]}, so that reading them back
# gives exactly the values lark serialised (read in about 0.6 ms; as a Python literal, compiling
# them took about 9 ms of every start-up that does not find bytecode).
def _to_json(x: object) -> object:
    if isinstance(x, tuple):
        return {"(": [_to_json(v) for v in x]}
    if isinstance(x, dict):
        if all(type(k) is str for k in x) and not (len(x) == 1 and next(iter(x)) in ("(", "#")):
            return {k: _to_json(v) for k, v in x.items()}
        return {"#": [[_to_json(k), _to_json(v)] for k, v in x.items()]}
    if isinstance(x, list):
        return [_to_json(v) for v in x]
    return x


def _from_json(d: dict[str, Any]) -> Any:
    if len(d) == 1:
        if "(" in d:
            return tuple(d["("])
        if "#" in d:
            return dict(d["#"])
    return d


def tables_text(grammar: str) -> str:
    """The text of grammartables.json: the built parser's tables for this grammar and lark version."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    data, memo = build_parser(grammar).memo_serialize([TerminalDef, Rule])
    doc = {"about": "The expression parser's LALR tables, made from grammar.lark by `python -c \"import "
                    "rulekit.lang.expr.parser as p; p.write_tables()\"`. Generated: do not edit.",
           "lark_version": lark.__version__, "grammar_sha256": grammar_digest(grammar),
           "data": _to_json(data), "memo": _to_json(memo)}
    return json.dumps(doc, separators=(",", ":")) + "\n"


@functools.lru_cache(maxsize=1)
def stored_tables() -> Tables | None:
    """The tables stored in the package; None when they cannot be read (the parser is then built)."""
    try:
        doc = json.loads(TABLES_PATH.read_text(encoding="utf-8"), object_hook=_from_json)
        return Tables(str(doc["lark_version"]), str(doc["grammar_sha256"]), doc["data"], doc["memo"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    # Computing the LALR tables is most of the CLI's start-up; the tables stored in the package are
    # loaded instead when they were made from this grammar by this lark version, else they are rebuilt.
    grammar = GRAMMAR_PATH.read_text(encoding="utf-8")
    tables = stored_tables()
    if tables is not None and tables.lark_version == lark.__version__ \
            and tables.grammar_sha256 == grammar_digest(grammar):
        return Lark.load({"data": tables.data, "memo": tables.memo})
    return build_parser(grammar)


def _depth_ok(text: str) -> bool:
    depth = best = 0
    for ch in text:
        if ch in "([":
            depth += 1
            best = max(best, depth)
        elif ch in ")]":
            depth -= 1
    return best <= MAX_EXPR_DEPTH


@functools.lru_cache(maxsize=4096)
def parse(text: str) -> ast.Node:
    """Parse expression text into an AST; raise ExprSyntaxError with an offset."""
    if len(text) > MAX_EXPR_CHARS:
        raise ExprSyntaxError(0, f"expression longer than {MAX_EXPR_CHARS} characters")
    if not _depth_ok(text):
        raise ExprSyntaxError(0, f"expression nested deeper than {MAX_EXPR_DEPTH} levels")
    if not text.strip():
        raise ExprSyntaxError(0, "empty expression: expected a value")
    try:
        tree = _parser().parse(text)
    except UnexpectedCharacters as exc:
        pos: object = exc.pos_in_stream  # lark declares it None on the base class; the lexer sets the offset
        at = pos if isinstance(pos, int) else 0
        raise ExprSyntaxError(at, f"unexpected character {text[at]!r}") from None
    except UnexpectedEOF as exc:
        raise ExprSyntaxError(len(text), f"unexpected end of expression: expected {_describe(exc.expected)}") from None
    except UnexpectedToken as exc:
        tok: Token = exc.token
        if tok.type == "$END":
            raise ExprSyntaxError(len(text), f"unexpected end of expression: expected {_describe(exc.expected)}") from None
        raise ExprSyntaxError(tok.start_pos or 0, f"unexpected {tok.value!r}: expected {_describe(exc.expected)}",
                              len(tok.value), _quote_hint(text, tok)) from None
    except UnexpectedInput as exc:  # pragma: no cover - other lark input errors
        raise ExprSyntaxError(getattr(exc, "pos_in_stream", 0) or 0, "syntax error") from None
    except RecursionError:
        raise ExprSyntaxError(0, "expression too long or nested too deeply") from None
    try:
        return _ToAst().transform(tree)
    except (RecursionError, VisitError):
        raise ExprSyntaxError(0, "expression too long or nested too deeply") from None


def write_tables() -> None:
    """Regenerate grammartables.json (after an edit of grammar.lark or an upgrade of lark)."""
    TABLES_PATH.write_text(tables_text(GRAMMAR_PATH.read_text(encoding="utf-8")), encoding="utf-8")

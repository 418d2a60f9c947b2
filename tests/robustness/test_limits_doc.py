"""docs/reference/limits.md states the figures the code uses (read from the code here)."""
from __future__ import annotations

import importlib
import re

import pytest

from .helpers import ROOT

DOC = ROOT / "docs" / "reference" / "limits.md"


def _rows() -> list[tuple[str, str, str, str]]:
    rows = []
    for line in DOC.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("What", "---") and not set(cells[0]) <= {"-"}:
            rows.append(tuple(cells))
    return rows


def _figure(text: str) -> int:
    m = re.match(r"10\^(\d+)", text)
    if m:
        return 10 ** int(m.group(1))
    m = re.match(r"([\d,]+)", text)
    assert m, f"no figure in {text!r}"
    return int(m.group(1).replace(",", ""))


def _constant(where: str):
    """The value a `rulekit.module.NAME` (or `rulekit.module.Class.attr`) cell names, else None."""
    m = re.fullmatch(r"`(rulekit(?:\.\w+)+)`", where)
    if not m:
        return None
    parts = m.group(1).split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            if isinstance(value, type) and value.__name__ == "Ctx":
                value = value(None, 2, None, None, False)  # step_limit is set per game state
            value = getattr(value, name)
        return value
    return None


ROWS = _rows()


def test_the_doc_has_every_limit():
    names = " ".join(r[3] for r in ROWS)
    for const in ("MAX_FILE_BYTES", "MAX_NODES", "MAX_DEPTH", "MAX_SCALAR", "MAX_INT_DIGITS", "MAX_EXTENDS_DEPTH",
                  "MAX_EXPR_CHARS", "MAX_EXPR_DEPTH", "MAX_INT", "MAX_EXPONENT", "MAX_COMBINATIONS", "MAX_RANGE",
                  "EVAL_BUDGET", "step_limit", "MAX_REDEALS", "s_repeat", "MAX_CALL_DEPTH", "MAX_ACTIONS",
                  "MAX_LIST", "MAX_ROUNDS", "MAX_SCHEMA_ERRORS", "MAX_UNKNOWN_KEYS"):
        assert const in names, f"{const} is not in {DOC.name}"


CONST_ROWS = [r for r in ROWS if _constant(r[3]) is not None]


@pytest.mark.parametrize("what,limit,code,where", CONST_ROWS, ids=[r[3].strip("`") for r in CONST_ROWS])
def test_each_figure_is_the_code_constant(what, limit, code, where):
    assert _figure(limit) == _constant(where), f"{what}: the doc says {limit}, the code {_constant(where)}"
    from rulekit.core.errors import CODES
    assert code in CODES


def test_figures_without_a_constant():
    """The repeat default and the fraction exponent are literals in the engine: check by behaviour."""
    from .exprs import outcome
    assert outcome("(1 / 2) ** 8")[0] == "value"
    assert outcome("(1 / 2) ** 9")[1] == "E034"
    rows = {r[3]: r for r in ROWS}
    assert _figure(rows["`rulekit.engine.stepcompile` (`s_repeat`)"][1]) == 10_000
    # the 10,000 default is checked by behaviour in test_hostile_rules.py (repeat_until_never)

"""A text for players written as parts: `say: [text, {say: text, when: condition}, ...]`.

A long line reads better as named clauses than as one string with inline `if`s: each part is a
text with {expression} parts, and a part with `when` is shown only when its condition holds (a
clause that may yield nothing). The parts are joined in order, with nothing between them.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rulekit.core.errors import Collector, error
from rulekit.lang.loader import Node


@dataclass(frozen=True)
class Clause:
    """Compiled parts of a text shown only when `when` (a function of the state) holds."""

    when: Callable[[Any], bool] | None
    parts: Any  # what the text's compiler made of the part: a render function or a tuple of parts


def clause_nodes(node: Node, errs: Collector, where: str) -> list[tuple[Node | None, Node]] | None:
    """The parts of a text given as a list, as (condition node or None, text node); None for a
    text given as one string. A part that is neither a string nor {say, when} is reported."""
    if not isinstance(node.value, list):
        return None
    out: list[tuple[Node | None, Node]] = []
    for item in node.value:
        if isinstance(item.value, dict) and "say" in item.value:
            out.append((item.value.get("when"), item.value["say"]))
        elif isinstance(item.value, str):
            out.append((None, item))
        else:
            errs.add(error(item.span, "E010", f"{where}: a part is a text or {{say: text, when: condition}}"))
    return out


def compile_clauses(node: Node, errs: Collector, where: str, text: Callable[[Node], Any],
                    cond: Callable[[Node], Any]) -> list[Clause] | None:
    """Each part compiled: `text` compiles a part's text, `cond` its condition (None for a text
    given as one string)."""
    nodes = clause_nodes(node, errs, where)
    if nodes is None:
        return None
    return [Clause(cond(w) if w is not None else None, text(t)) for w, t in nodes]


def joined(clauses: list[Clause]) -> Callable[..., str]:
    """One render function from clauses whose parts are render functions (ctx, *args) -> str."""
    def render(ctx: Any, *args: Any) -> str:
        return "".join(c.parts(ctx, *args) for c in clauses if c.when is None or c.when(ctx))
    return render

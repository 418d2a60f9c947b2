"""Checks of text literals that can never match: a string compared with an option that has
fixed values, and a card id that no deck of the variant has (issue 26: silent mistakes)."""
from __future__ import annotations

from rulekit.core.errors import did_you_mean
from rulekit.lang.expr import ast
from rulekit.lang.expr.scope import Problem, Scope


def _option(n: ast.Node) -> str | None:
    """The option named by `opt.<name>`, else None."""
    if isinstance(n, ast.Attr) and isinstance(n.obj, ast.Name) and n.obj.name == "opt":
        return n.attr
    return None


def _texts(n: ast.Node) -> list[tuple[ast.Const, str]]:
    """The string constants of `n` with their text: itself, or the items of a list literal."""
    if isinstance(n, ast.Const) and isinstance(n.value, str):
        return [(n, n.value)]
    if isinstance(n, ast.ListLit):
        return [(x, x.value) for x in n.items if isinstance(x, ast.Const) and isinstance(x.value, str)]
    return []


def literal_problems(node: ast.Binary, scope: Scope, loc: dict[str, str]) -> list[Problem]:
    """Problems of a comparison `a == b`, `a != b`, `a in [..]`: a text that is not a value of
    the option compared with it, or not the id of a card of any deck the variant can use."""
    if node.op not in ("==", "!=", "in", "not in"):
        return []
    pairs = [(node.left, node.right)]
    if node.op in ("==", "!="):
        pairs.append((node.right, node.left))
    out: list[Problem] = []
    for side, other in pairs:
        name = _option(side) if "opt" not in loc else None
        if name is not None and name in scope.option_values:
            allowed = scope.option_values[name]
            for c, text in _texts(other):
                if text not in allowed:
                    out.append(Problem(c.start, max(1, c.end - c.start), "E050",
                                       f"'{text}' is not a value of option {name} (its values: "
                                       f"{', '.join(allowed)}), so this comparison never holds",
                                       did_you_mean(text, allowed)))
        if isinstance(side, ast.Attr) and side.attr == "id" and scope.all_card_ids:
            for c, text in _texts(other):
                if text not in scope.all_card_ids:
                    out.append(Problem(c.start, max(1, c.end - c.start), "E040",
                                       f"no card '{text}' in any deck of this game, so this comparison never holds",
                                       did_you_mean(text, scope.all_card_ids)))
    return out

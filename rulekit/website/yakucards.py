"""Which cards of a deck can be part of a yaku, read from its `when` expression.

The expression is not solved; it is searched for per-card conditions that can be checked
card by card:
  - `card('id')` constants name cards directly;
  - a condition written as a lambda over `cards` (`count(cards, c -> ...)`, `all`, `any`,
    `filter`) is evaluated for every card of the deck;
  - `map(cards, c -> X)` compared with a constant list keeps the cards whose X is in it;
  - `cards[i].attr`, `first(cards).attr` or `last(cards).attr` compared with a constant keeps
    the cards whose attribute compares the same way.
The union of the cards found is an over-approximation ("can be part of"); None when the
expression has no such condition, or when every card qualifies.
"""
from __future__ import annotations

from typing import Any

from rulekit.lang.expr import Scope, compile_expr
from rulekit.lang.expr import ast as A
from rulekit.lang.expr.parser import parse

LAMBDA_FUNCS = {"count", "all", "any", "filter"}
KEY_FUNCS = {"map", "sorted", "distinct"}
COMPARE = {"==", "!=", "<", "<=", ">", ">=", "in", "not in"}
FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}


class _Ctx:
    """The little an expression over one card needs at run time."""

    __slots__ = ("loc", "n", "yaku_eval", "budget")

    def __init__(self):
        from rulekit.lang.expr.scope import EVAL_BUDGET
        self.loc: dict = {}
        self.n = 1
        self.yaku_eval = None
        self.budget = EVAL_BUDGET


def _is_cards(node: A.Node) -> bool:
    return isinstance(node, A.Name) and node.name == "cards"


def _mentions_cards(node: A.Node) -> bool:
    return any(_is_cards(n) for n in A.walk(node))


def _one_card(node: A.Node) -> bool:
    """`cards[i]`, `first(cards)`, `last(cards)`."""
    if isinstance(node, A.Index) and _is_cards(node.obj) and not _mentions_cards(node.index):
        return True
    return isinstance(node, A.Call) and node.func in ("first", "last") and len(node.args) == 1 \
        and _is_cards(node.args[0])


def _in_lambda(node: A.Node, parent: dict[int, A.Node]) -> bool:
    up = parent.get(id(node))
    while up is not None:
        if isinstance(up, A.Lambda):
            return True
        up = parent.get(id(up))
    return False


def _parents(tree: A.Node) -> dict[int, A.Node]:
    out: dict[int, A.Node] = {}
    for n in A.walk(tree):
        for c in A.children(n):
            out[id(c)] = n
    return out


def predicates(text: str) -> tuple[list[tuple[str, str]], list[str]]:
    """(param, condition text) pairs over one card, and card ids named by card('...')."""
    try:
        tree = parse(text)
    except Exception:  # noqa: BLE001 - validation reports bad expressions
        return [], []
    parent = _parents(tree)
    preds: list[tuple[str, str]] = []
    ids: list[str] = []

    def src(n: A.Node) -> str:
        return text[n.start:n.end]

    for n in A.walk(tree):
        if isinstance(n, A.Call) and n.func == "card" and n.args and isinstance(n.args[0], A.Const):
            ids.append(str(n.args[0].value))
        if isinstance(n, A.Call) and len(n.args) >= 2 and _is_cards(n.args[0]) and isinstance(n.args[1], A.Lambda):
            lam = n.args[1]
            if _mentions_cards(lam.body):
                continue
            if n.func in LAMBDA_FUNCS:
                preds.append((lam.param, src(lam.body)))
            elif n.func in KEY_FUNCS:
                # climb through sorted()/distinct() wrappers to a comparison with a constant list
                up = parent.get(id(n))
                while isinstance(up, A.Call) and up.func in ("sorted", "distinct", "reverse"):
                    n, up = up, parent.get(id(up))
                if isinstance(up, A.Binary) and up.op in ("==", "!="):
                    other = up.right if up.left is n else up.left
                    if isinstance(other, A.ListLit) and not _mentions_cards(other):
                        preds.append((lam.param, f"({src(lam.body)}) in {src(other)}"))
        if isinstance(n, A.Attr) and _one_card(n.obj) and not _in_lambda(n, parent):
            up = parent.get(id(n))
            if isinstance(up, A.Binary) and up.op in COMPARE:
                if up.left is n and not _mentions_cards(up.right):
                    preds.append(("c", f"c.{n.attr} {up.op} {src(up.right)}"))
                elif up.right is n and not _mentions_cards(up.left) and up.op in FLIP:
                    preds.append(("c", f"c.{n.attr} {FLIP[up.op]} {src(up.left)}"))
    return preds, ids


def candidate_cards(text: Any, deck, options: dict) -> list[int] | None:
    """Indexes of the cards of `deck` that can be part of a yaku with this `when`."""
    if not isinstance(text, str):
        return None
    preds, ids = predicates(text)
    index = deck.index()
    picked: set[int] = {index[i] for i in ids if i in index}
    attrs = {a.name: (a.type, tuple(c.attrs[a.name] for c in deck.cards)) for a in deck.attributes.values()}
    attrs["tags"] = ("list<str>", tuple(sorted(c.tags) for c in deck.cards))
    found_any = bool(picked)
    for param, body in preds:
        scope = Scope(attrs=attrs, options=dict(options), card_ids=index, locals={param: "card"}, codegen=False)
        try:
            comp = compile_expr(body, scope, "bool")
        except Exception:  # noqa: BLE001 - reads something other than the card: not per-card
            continue
        ctx = _Ctx()
        hits = set()
        try:
            for i in range(len(deck.cards)):
                ctx.loc[param] = i
                if comp.fn(ctx):
                    hits.add(i)
        except Exception:  # noqa: BLE001
            continue
        found_any = True
        picked |= hits
    if not found_any or not picked or len(picked) == len(deck.cards):
        return None
    return sorted(picked)

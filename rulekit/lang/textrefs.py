"""What a loaded variant's texts refer to, kept apart from the prose that renders them (loading a
variant for play need not load the renderer): a hand's own `{value}` written as that hand's
`{yaku.TABLE.ID}` placeholder, and where each loaded variant's `{fig.NAME}` figures come from."""
from __future__ import annotations

import re
from typing import Any, Callable

from rulekit.lang.loader import Node

#: `{value}` / `{value:words}` in a hand's own text: its value in effect
VALUE = re.compile(r"\{value(?::(words|digits|times))?\}")


def value_ref(key: str) -> Callable[[re.Match[str]], str]:
    """A hand's `{value...}` rewritten to the placeholder of hand `key` (TABLE.ID), same format."""
    def sub(m: re.Match[str]) -> str:
        return "{yaku." + key + ":" + (m.group(1) or "digits") + "}"
    return sub


def own_values(tree: Node) -> Node:
    """The tree with `{value}` in each hand's text written as that hand's `{yaku.TABLE.ID:digits}`
    (`{value:words}` likewise), so any reader of the text renders the value in effect."""
    y = tree.value.get("yaku") if isinstance(tree.value, dict) else None
    if y is None or not isinstance(y.value, dict):
        return tree
    tables = {}
    for table, entries in y.value.items():
        items = []
        for e in entries.value if isinstance(entries.value, list) else []:
            t = e.value.get("text") if isinstance(e.value, dict) else None
            if t is not None and isinstance(t.value, str) and "{value" in t.value and "id" in e.value:
                key = f"{table}.{e.value['id'].value}"
                text = VALUE.sub(value_ref(key), t.value)
                e = Node({**e.value, "text": Node(text, t.span, t.key_span, t.style)}, e.span, e.key_span, e.style)
            items.append(e)
        tables[table] = Node(items, entries.span, entries.key_span, entries.style) \
            if isinstance(entries.value, list) else entries
    return Node({**tree.value, "yaku": Node(tables, y.span, y.key_span, y.style)}, tree.span, tree.key_span,
                tree.style)


#: [options dict, factory of its figure source, the source once made] of the variants loaded last
#: (rulekit.engine.build), newest first
FIGURE_SOURCES: list[list[Any]] = []
MAX_FIGURE_SOURCES = 48


def register_figures(options: dict[Any, Any], factory: Any) -> None:
    """Say where the figures of the variant whose options are `options` come from: `factory()` gives
    a figure source (rulekit.engine.figures), made the first time a text needs a figure."""
    FIGURE_SOURCES.insert(0, [options, factory, None])
    del FIGURE_SOURCES[MAX_FIGURE_SOURCES:]


def registered_figures(options: dict[Any, Any]) -> Any:
    """The figure source registered for this very options dict (made now if not yet), else None."""
    for entry in FIGURE_SOURCES:
        if entry[0] is options:
            if entry[2] is None:
                entry[2] = entry[1]()
            return entry[2]
    return None

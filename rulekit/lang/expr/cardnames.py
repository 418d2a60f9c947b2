"""Cards written by their English names as bare words in an expression: found, for a hint that says how to write them."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulekit.lang.expr.scope import Scope


def card_named(text: str, scope: Scope) -> str | None:
    """The English name of a card written as bare words in an expression (NAME in cards), or None."""
    bare = re.sub(r"'[^']*'|\"[^\"]*\"", " ", text)
    for folded, ids in scope.card_names.items():
        if len(ids) != 1 or " " not in folded and len(folded) < 4:
            continue
        m = re.search(r"(?<![\w.'])" + r"[\s-]+".join(map(re.escape, folded.split())) + r"(?![\w'])", bare, re.I)
        if m:
            return m.group(0)
    return None

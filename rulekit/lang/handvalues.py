"""`validate --strict`: a yaku's text that states the yaku's value as a literal ("Worth 40").

The words then stay when a house file (or a preset) changes the value; `{yaku.TABLE.ID}` says
the value in effect instead. Only a yaku's own value in its own text is read here: a number that
happens to equal it elsewhere says something else.
"""
from __future__ import annotations

import re

from rulekit.core.errors import Diagnostic, Span, error
from rulekit.lang.loader import Node, at
from rulekit.lang.model import Variant
from rulekit.lang.prose import NUMBER_WORDS, PLACE


def _locate(node: Node, pattern: re.Pattern[str]) -> Span:
    """Where the text's literal is written: from the text's own column on its first line (a
    flow mapping has the value before it), then on the lines a folded text continues on."""
    span = node.span
    try:
        with open(span.file, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return span
    for i in range(max(0, span.line - 1), min(len(lines), span.line + 60)):
        start = span.col - 1 if i == span.line - 1 else 0
        m = pattern.search(lines[i], start)
        if m:
            g = 1 if m.group(1) is not None else 2
            return Span(span.file, i + 1, m.start(g) + 1, len(m.group(g)))
    return span


def _value(node: Node | None) -> int | None:
    """A yaku's value when it is a plain whole number (an expression's value is not literal)."""
    v = node.value if node is not None else None
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str) and re.fullmatch(r"\s*\d+\s*", v):
        return int(v)
    return None


def _value_words(spell: list[str]) -> re.Pattern[str]:
    """The value said as a value: after 'worth', 'pays', 'paid', 'scores' ('pays you 20'), or before
    a unit ('20 points', 'two stakes', '3 times'); a count of cards ('Three cards') is no value."""
    n = "(" + "|".join(map(re.escape, spell)) + ")"
    return re.compile(rf"\b(?:worth|pays?|paid|scores?|wins?)(?:\s+(?:you|them|each|every|of))*\s+{n}(?![\w-])"
                      rf"|(?<![\w.-]){n}\s+(?:points?|pts|chips?|stakes?|kan|times)\b", re.IGNORECASE)


def literal_hand_values(variant: Variant) -> list[Diagnostic]:
    """W091 at each yaku text that writes its yaku's value as a number (digits or a number word)."""
    out: list[Diagnostic] = []
    tables = at(variant.tree, "yaku")
    if tables is None or not isinstance(tables.value, dict):
        return out
    for table, entries in tables.value.items():
        for e in entries.value if isinstance(entries.value, list) else []:
            d = e.value if isinstance(e.value, dict) else {}
            text, value = d.get("text"), _value(d.get("value"))
            if value is None or text is None or not isinstance(text.value, str) or "id" not in d:
                continue
            words = PLACE.sub(" ", " ".join(text.value.split()))  # what placeholders say is not literal
            spell = [str(value)] + ([NUMBER_WORDS[value]] if 1 < value < len(NUMBER_WORDS) else [])
            pattern = _value_words(spell)
            m = pattern.search(words)
            if m is None:
                continue
            yid = d["id"].value
            said = m.group(1) or m.group(2)
            warn = error(_locate(text, pattern), "W091",
                         f"'{said}' states the value of yaku '{yid}' ({table}) as a literal: the words stay "
                         "when a house file or a preset changes it",
                         hint=f"write {{yaku.{table}.{yid}}} instead")
            out.append(Diagnostic(warn.span, warn.code, warn.message, warn.breadcrumbs, warn.hint, "warning"))
    return out

"""The one parser of whole numbers written as text (command lines, explain paths, saved games).

Python's `str.isdigit()` is true for '²' and '٣', and `int()` takes '٣', ' 7 ' and '1_000': a
number a person or a file writes for rulekit is an optional sign and ASCII digits, nothing else.
"""
from __future__ import annotations

import re

__all__ = ["parse_int", "MAX_DIGITS"]

MAX_DIGITS = 40  # more digits than any count, seat or seed rulekit takes (and int() of them stays fast)
_INT = re.compile(r"[+-]?[0-9]+", re.ASCII)


def parse_int(text: object, signed: bool = True, max_digits: int = MAX_DIGITS) -> int | None:
    """The whole number `text` writes (an optional sign when `signed`, then ASCII digits 0-9, no
    spaces or underscores), else None."""
    if not isinstance(text, str) or not _INT.fullmatch(text):
        return None
    if not signed and text[0] in "+-":
        return None
    if len(text.lstrip("+-")) > max_digits:
        return None
    return int(text)

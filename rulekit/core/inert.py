"""Make text from variants, house files and logs inert before it reaches a terminal.

Every string that came from a file a user did not write themselves (a variant, a house file, a
replay log) passes through `inert` before it is printed: control characters, escape sequences
and bidirectional overrides are shown visibly (as ``\\x1b``, ``\\u202e``) instead of being
interpreted by the terminal, so a file cannot clear the screen, fake output or write to the
clipboard (OSC 52).
"""
from __future__ import annotations

import re
import unicodedata

__all__ = ["inert", "inert_lines", "inert_json", "MAX_ECHO"]

# Characters a terminal may act on: C0 and C1 controls, DEL, and the Unicode format
# characters (bidirectional overrides, zero-width joiners) that can disguise text.
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")

#: the most characters of one untrusted string echoed back (the rest is elided with a count)
MAX_ECHO = 400


def _visible(m: re.Match[str]) -> str:
    c = m.group(0)
    o = ord(c)
    return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}"


def inert(text: object, keep_newlines: bool = True, limit: int | None = None) -> str:
    """`text` as a string that a terminal shows literally: controls made visible, optionally cut."""
    s = text if isinstance(text, str) else str(text)
    if limit is not None and len(s) > limit:
        s = s[:limit] + f"… ({len(s) - limit} more characters)"
    s = _UNSAFE.sub(_visible, s)
    if not keep_newlines:
        s = s.replace("\n", "\\n")
    # tabs are harmless but other line/paragraph separators can reorder what is shown
    return "".join(ch if unicodedata.category(ch) not in ("Zl", "Zp") else f"\\u{ord(ch):04x}" for ch in s)


def inert_lines(lines: list[str]) -> list[str]:
    """Each line made inert, newlines inside a line shown as \\n."""
    return [inert(x, keep_newlines=False) for x in lines]


_UNSAFE_JSON = re.compile(_UNSAFE.pattern[:-1] + r"\u2028\u2029]")


def inert_json(text: str) -> str:
    """JSON text (from json.dumps) with every character a terminal may act on written as a JSON
    \\u escape: the same JSON value, which `inert` then leaves unchanged."""
    # outside strings JSON text is plain ASCII, so these characters are always inside a string
    return _UNSAFE_JSON.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


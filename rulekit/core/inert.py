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

# Characters a terminal may act on: C0 and C1 controls, DEL, and the Unicode format characters
# (category Cf: bidirectional marks and overrides such as U+061C and U+202E, zero-width joiners,
# word joiners U+2060-2064, tag characters U+E0001-E007F) that can disguise text; line and
# paragraph separators (Zl, Zp) too. The class below lists them for speed; `_shown` asks
# unicodedata as well, so a format character this list misses is still made visible.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e"
                     "\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
                     "\U00013430-\U0001343f\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e007f]")
_HIDDEN = ("Cc", "Cf", "Zl", "Zp")

#: the most characters of one untrusted string echoed back (the rest is elided with a count)
MAX_ECHO = 400


def _escape(o: int) -> str:
    return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}"


def _visible(m: re.Match[str]) -> str:
    return _escape(ord(m.group(0)))


def inert(text: object, keep_newlines: bool = True, limit: int | None = None) -> str:
    """`text` as a string that a terminal shows literally: controls made visible, optionally cut."""
    s = text if isinstance(text, str) else str(text)
    if limit is not None and len(s) > limit:
        s = s[:limit] + f"… ({len(s) - limit} more characters)"
    s = _UNSAFE.sub(_visible, s)
    if not keep_newlines:
        s = s.replace("\n", "\\n")
    if s.isascii():
        return s
    # every other format or separator character (a newer Unicode's, say) is shown too
    return "".join(ch if ch.isascii() or unicodedata.category(ch) not in _HIDDEN else _escape(ord(ch)) for ch in s)


def inert_lines(lines: list[str]) -> list[str]:
    """Each line made inert, newlines inside a line shown as \\n."""
    return [inert(x, keep_newlines=False) for x in lines]


def _json_escape(c: str) -> str:
    o = ord(c)
    if o < 0x10000:
        return f"\\u{o:04x}"
    o -= 0x10000  # a surrogate pair, as JSON writes characters beyond the first plane
    return f"\\u{0xd800 + (o >> 10):04x}\\u{0xdc00 + (o & 0x3ff):04x}"


def inert_json(text: str) -> str:
    """JSON text (from json.dumps) with every character a terminal may act on written as a JSON
    \\u escape: the same JSON value, which `inert` then leaves unchanged."""
    # outside strings JSON text is plain ASCII, so these characters are always inside a string
    s = _UNSAFE.sub(lambda m: _json_escape(m.group(0)), text)
    if s.isascii():
        return s
    return "".join(ch if ch.isascii() or unicodedata.category(ch) not in _HIDDEN else _json_escape(ch) for ch in s)

"""The last guard between rulekit and a terminal: streams that pass text through `inert()`.

Commands make untrusted text inert where they format it (errors, transcripts, prompts); the
streams here are the safety net under them, so text a new command forgets to clean still cannot
drive the terminal. Carriage returns pass (a progress bar redraws its line with them).
"""
from __future__ import annotations

import contextlib
import io
import sys
from typing import Iterator, TextIO

from rulekit.core.inert import inert


class InertStream(io.TextIOBase):
    """A text stream that writes everything through `inert()` to the stream it wraps."""

    def __init__(self, raw: TextIO):
        self.raw = raw

    def write(self, s: str) -> int:  # type: ignore[override]
        if not isinstance(s, str):
            s = str(s)
        self.raw.write("\r".join(inert(part) for part in s.split("\r")) if "\r" in s else inert(s))
        return len(s)

    def flush(self) -> None:
        self.raw.flush()

    def isatty(self) -> bool:
        return self.raw.isatty()

    def fileno(self) -> int:
        return self.raw.fileno()

    def writable(self) -> bool:
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.raw, "encoding", "utf-8")


@contextlib.contextmanager
def inert_output() -> Iterator[None]:
    """While active, sys.stdout and sys.stderr show control characters visibly."""
    old = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = InertStream(old[0]), InertStream(old[1])
    try:
        yield
    finally:
        try:
            sys.stdout.flush()
        except (OSError, ValueError):
            pass
        sys.stdout, sys.stderr = old

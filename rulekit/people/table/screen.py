"""The terminal the table talks to: coloured lines on a terminal, plain text when piped or
when NO_COLOR is set, every string made inert, and bounded input lines."""
from __future__ import annotations

import os
import sys
from typing import Iterable, TextIO

from rulekit.core.inert import inert

#: the most characters of one over-long line read and thrown away before input counts as ended
MAX_DISCARD = 1 << 20
#: the longest input line read; anything longer is read and thrown away
MAX_INPUT = 200

STYLES = {
    "heading": "bold",
    "phase": "bold cyan",
    "choice": "color(3)",
    "you": "bold green",
    "pay": "magenta",
    "reveal": "blue",
    "yaku": "bold color(3)",
    "note": "dim",
    "move": "",
    "deal": "",
    "summary": "",
    "standings": "",
    "table": "cyan",
    "prompt": "bold",
    "error": "red",
    "winner": "bold green",
}


class Screen:
    """Writes lines (each made inert) through rich, and reads bounded answers."""

    def __init__(self, inp: TextIO | None = None, out: TextIO | None = None):
        from rich.console import Console
        self.inp = inp if inp is not None else sys.stdin
        out = out if out is not None else sys.stdout
        try:
            from rulekit.people.terminal import InertStream
        except ImportError:
            InertStream = ()  # type: ignore[assignment,misc]
        if isinstance(out, InertStream):
            # every string reaches rich already inert (and rich reads no markup): write beneath the
            # guard so that rich's own colour codes work
            out = out.raw
        # NO_COLOR (https://no-color.org) or a pipe: plain text, no escape sequences at all
        plain = bool(os.environ.get("NO_COLOR"))
        kw = {"color_system": None} if plain else {}
        self.console = Console(file=out, highlight=False, emoji=False, markup=False, soft_wrap=False, **kw)
        # piped: whole lines, never cut at an assumed width
        self.console.soft_wrap = not self.console.is_terminal
        self.echo = not _isatty(self.inp)
        #: lines written since the last question was answered (what a screen shows above the next)
        self.since = 0

    def say(self, text: str, kind: str = "", indent: int = 0) -> None:
        """One line of text (untrusted parts already inside it are made inert here)."""
        from rich.text import Text
        line = self.wrapped(text, indent)
        self.since += line.count("\n") + 1
        self.console.print(Text(line, style=STYLES.get(kind, "")))

    def wrapped(self, text: str, indent: int = 0) -> str:
        """The line as `say` writes it: inert, and on a terminal wrapped under itself, indented."""
        line = " " * indent + inert(text, keep_newlines=False)
        width = self.console.width
        if not self.console.soft_wrap and len(line) > width > 20:
            # a long line on a terminal wraps under itself, indented, so one sentence reads as one
            import textwrap
            lead = len(line) - len(line.lstrip(" "))
            line = "\n".join(textwrap.wrap(line, width=width, initial_indent="", subsequent_indent=" " * (lead + 2),
                                            break_on_hyphens=False, drop_whitespace=True)) if lead == 0 else \
                "\n".join(textwrap.wrap(line.lstrip(" "), width=width, initial_indent=" " * lead,
                                        subsequent_indent=" " * (lead + 2), break_on_hyphens=False))
        return line

    def height(self, text: str, indent: int = 0) -> int:
        """How many lines of the screen `say` takes for this text."""
        return self.wrapped(text, indent).count("\n") + 1

    def block(self, text: str, kind: str = "") -> None:
        """Several lines of untrusted text (rules prose), each made inert."""
        for ln in str(text).splitlines() or [""]:
            self.say(ln, kind)

    def menu(self, items: Iterable[str]) -> None:
        """A numbered menu; long ones set in columns so they never scroll off the screen."""
        from rich.columns import Columns
        from rich.text import Text
        entries = [f"{i}) {inert(t, keep_newlines=False)}" for i, t in enumerate(items, 1)]
        if len(entries) <= 10:
            for e in entries:
                self.say(e, indent=2)
        else:
            self.since += (len(entries) + 2) // 3  # columns: about three a row
            self.console.print(Columns([Text(e) for e in entries], padding=(0, 3), column_first=True))

    def ask(self, prompt: str) -> str | None:
        """Show `prompt` and read one answer line (at most MAX_INPUT characters); None at end of input."""
        from rich.text import Text
        self.console.print(Text(inert(prompt, keep_newlines=False), style=STYLES["prompt"]), end="")
        self.console.file.flush()
        line = self.inp.readline(MAX_INPUT)
        self.since = 0
        if not line:
            return None
        if self.echo:  # typed input from a pipe is not echoed: end the prompt's line ourselves
            self.console.print(inert(line.rstrip("\n")[:MAX_INPUT], keep_newlines=False), markup=False)
        if not line.endswith("\n"):  # too long: drop the rest of the line, but not for ever
            rest, dropped = line, 0  # (stdin may be /dev/zero: a line that never ends is no answer)
            while rest and not rest.endswith("\n"):
                dropped += len(rest)
                if dropped > MAX_DISCARD:
                    return None
                rest = self.inp.readline(MAX_INPUT)
            return "\x00too long"
        return line.strip()


def _isatty(f: TextIO) -> bool:
    try:
        return f.isatty()
    except (AttributeError, ValueError):
        return False

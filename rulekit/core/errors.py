"""Located errors with stable codes, and the one renderer every command uses."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Iterable, Sequence


@dataclass(frozen=True)
class Span:
    """A position in a source file: 1-based line and column."""

    file: str
    line: int
    col: int
    length: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    def shifted(self, dcol: int, length: int = 1) -> "Span":
        """The same line, `dcol` columns further on."""
        return Span(self.file, self.line, self.col + dcol, max(1, length))


UNKNOWN = Span("<unknown>", 0, 0)

#: the values given to the engine rather than read from a file, by their Python API names
ARGUMENTS = ("policy", "options", "preset", "deck")


def argument(name: str) -> Span:
    """Where a problem in a value given to the engine is (`policy`, `options`, `preset` or `deck`):
    `<name>` at line 0. Each front end names it in its own words (the command line: --policy, -o)."""
    if name not in ARGUMENTS:
        raise ValueError(f"argument: expected one of {', '.join(ARGUMENTS)}, found {name!r}")
    return Span(f"<{name}>", 0, 0)


def argument_of(span: Span) -> str | None:
    """The argument `span` locates (see argument()), or None for a place in a file."""
    name = span.file[1:-1] if span.line == 0 and span.file.startswith("<") and span.file.endswith(">") else ""
    return name if name in ARGUMENTS else None

# Stable error codes: tests and users may rely on them. Never renumber.
CODES: dict[str, str] = {
    "E001": "file cannot be read or decoded",
    "E002": "YAML syntax error",
    "E003": "duplicate key",
    "E004": "YAML feature not allowed (tags, alias bombs, excessive nesting or size)",
    "E010": "schema violation",
    "E020": "extends: parent not found",
    "E021": "extends: cycle",
    "E022": "extends: chain too deep or outside allowed folders",
    "E030": "expression syntax error",
    "E031": "unknown name (in an expression: name, option, function, card attribute)",
    "E032": "wrong number of arguments",
    "E033": "type error",
    "E034": "evaluation error (division by zero, limits, bad index)",
    "E040": "unknown reference outside expressions (card id, zone, yaku table, deck, procedure, choice)",
    "E041": "deck does not fit the deal",
    "E042": "inconsistent rule",
    "E050": "option error (unknown option or bad value)",
    "E051": "house-rule file error",
    "E060": "illegal action",
    "E061": "rule execution error (no legal action, endless loop, limit reached)",
    "E070": "replay mismatch",
    "E090": "rules text for players missing (validate --strict)",
    "E091": "rules text names an option, value or hand that cannot say it ({opt.NAME}, {rule.NAME}, {yaku.T.ID})",
    "E092": "rules text for players names a program word (an option key, zone, variable or code) instead of words",
    "W051": "house-rule file: a hand it adds has no words for players (the sheet cannot say what makes it)",
    "W091": "rules text and rules may disagree (validate --strict: a literal option value, an unnamed option, "
            "an unexplained yaku column, an option nothing reads)",
}


@dataclass(frozen=True)
class Diagnostic:
    """One error or warning: where, what code, what was expected and found."""

    span: Span
    code: str
    message: str
    breadcrumbs: tuple[str, ...] = ()
    hint: str = ""
    severity: str = "error"
    # the argument (see argument()) a user settles this problem with: each front end adds its own
    # words for it to the hint (the command line: --deck NAME)
    settle_with: str = ""

    def render(self, source_line: str | None = None) -> str:
        """`file:line:col: error[code]: message`, then the source line and a caret.

        Everything shown is made inert (a file's text cannot drive the terminal) and bounded:
        the message to MAX_MESSAGE characters, the quoted line to a window around the column.
        """
        out = [f"{_echo(str(self.span))}: {self.severity}[{self.code}]: {_echo(self.message, MAX_MESSAGE)}"]
        for crumb in self.breadcrumbs[:MAX_CRUMBS]:
            out.append(f"  ==> {_echo(crumb)}")
        if source_line is not None and self.span.line > 0:
            text = source_line.rstrip("\n")
            col = max(0, self.span.col - 1)
            start = 0 if len(text) <= QUOTE_WINDOW else max(0, min(col - QUOTE_WINDOW // 3, len(text) - QUOTE_WINDOW))
            window = text[start:start + QUOTE_WINDOW]
            lead = "… " if start > 0 else ""
            tail = " …" if start + QUOTE_WINDOW < len(text) else ""
            out.append(f"   | {lead}{_echo(window)}{tail}")
            before = lead + _echo(text[start:col])
            pad = "".join(ch if ch == "\t" else " " for ch in before)
            width = len(_echo(text[col:col + max(1, self.span.length)])) if col < len(text) else 1
            out.append(f"   | {pad}{'^' * max(1, min(width, QUOTE_WINDOW))}")
        if self.hint:
            out.append(f"  help: {_echo(self.hint, MAX_MESSAGE)}")
        return "\n".join(out)


#: the most characters of a message, hint or breadcrumb shown, and of a quoted source line
MAX_MESSAGE = 1_000
QUOTE_WINDOW = 160
MAX_CRUMBS = 20


def _echo(text: str, limit: int = MAX_MESSAGE) -> str:
    """Text from a file or the command line as shown in an error: inert, one line, bounded."""
    from rulekit.core.inert import inert
    return inert(text, keep_newlines=False, limit=limit)


class RulekitError(Exception):
    """Any error a user can cause; carries one or more located diagnostics."""

    def __init__(self, diagnostics: Sequence[Diagnostic] | Diagnostic):
        if isinstance(diagnostics, Diagnostic):
            diagnostics = [diagnostics]
        self.diagnostics: list[Diagnostic] = list(diagnostics)
        super().__init__(self.diagnostics[0].render() if self.diagnostics else "error")

    @property
    def first(self) -> Diagnostic:
        return self.diagnostics[0]


class IllegalAction(RulekitError):
    """An agent chose an action that is not among the legal ones."""


class RuleError(RulekitError):
    """A rule could not be carried out (no legal action, endless loop, limit)."""


def error(span: Span, code: str, message: str, *, hint: str = "", crumbs: Iterable[str] = ()) -> Diagnostic:
    """Build an error diagnostic."""
    return Diagnostic(span, code, message, tuple(crumbs), hint)


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """A 'did you mean' hint, or '' when nothing is close."""
    import difflib  # only when a name is wrong (not at every start-up)
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=3, cutoff=0.6)
    if not close:
        return ""
    return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"


@dataclass
class Collector:
    """Gathers every diagnostic of a file so all are reported together."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def add(self, diag: Diagnostic) -> None:
        self.diagnostics.append(diag)

    def extend(self, diags: Iterable[Diagnostic]) -> None:
        self.diagnostics.extend(diags)

    def raise_if_any(self) -> None:
        if self.diagnostics:
            raise RulekitError(sorted_diagnostics(self.diagnostics))


def sorted_diagnostics(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Order by file, line, column; drop exact repeats."""
    seen: set[tuple[object, ...]] = set()
    out = []
    for d in sorted(diags, key=lambda d: (d.span.file, d.span.line, d.span.col, d.code)):
        key = (d.span, d.code, d.message)
        if key not in seen:
            seen.add(key)
            out.append(d)
    return out


LINE_CACHE: dict[str, list[str]] = {}
_QUOTE_LIMIT = 2_000_000  # bytes of a file read to quote its lines (the size limit of rulekit.lang.source)


def remember_source(file: str, text: str) -> None:
    """Keep a file's text so diagnostics can quote its lines."""
    LINE_CACHE[file] = text.splitlines()


def render_all(diags: Iterable[Diagnostic]) -> str:
    """Render diagnostics with their source lines, separated by blank lines."""
    parts = []
    for d in diags:
        lines = LINE_CACHE.get(d.span.file)
        if lines is None:
            lines = []
            try:
                # only a regular file of readable size: never block on a pipe or read a device
                if os.path.isfile(d.span.file) and os.path.getsize(d.span.file) <= _QUOTE_LIMIT:
                    with open(d.span.file, encoding="utf-8") as fh:
                        lines = fh.read(_QUOTE_LIMIT).splitlines()
            except (OSError, UnicodeDecodeError, ValueError):
                lines = []
            LINE_CACHE[d.span.file] = lines
        src = lines[d.span.line - 1] if 0 < d.span.line <= len(lines) else None
        parts.append(d.render(src))
    return "\n\n".join(parts)

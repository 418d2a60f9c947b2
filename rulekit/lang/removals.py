"""Errors that a child's `remove: true` causes in the file it extends, told where the cause is.

Removing an inherited option (zone, function, procedure, yaku ...) that a rule of the parent
still uses makes that rule fail to compile. The rule's own file is not where the author can
act: the error is reported at the removal, once per removed name, with the uses left in the
parent as the note ("help:")."""
from __future__ import annotations

import os
import re

from rulekit.core.errors import Diagnostic, Span


def shown_path(file: str) -> str:
    """A file as the user reads it: relative to where they stand, unless that climbs far out."""
    return os.path.abspath(file) if file.startswith(os.path.join("..", "..")) else file


def _names_file(file: str, d: Diagnostic) -> bool:
    text = d.message + d.hint
    return file in text or os.path.abspath(file) in text


_QUOTED = re.compile(r"'([^']+)'")


def relocate(diags: list[Diagnostic], removals: list[tuple[str, Span]]) -> list[Diagnostic]:
    """Errors located in a parent that name a name the child removed (loader.removal_spans): one error at each such
    removal, the parent's uses as the note; every other diagnostic unchanged."""
    if not removals:
        return diags
    where = {name: span for name, span in removals}
    moved: dict[str, list[Diagnostic]] = {}
    out = []
    for d in diags:
        names = [m for m in _QUOTED.findall(d.message) if m in where]
        home = where[names[0]].file if names else ""
        # (an error that already names the child's file says where to act: left as it is)
        if d.severity == "error" and names and d.span.file != home and not _names_file(home, d):
            moved.setdefault(names[0], []).append(d)
        else:
            out.append(d)
    for name, uses in moved.items():
        first = uses[0]
        files = sorted({shown_path(u.span.file) for u in uses})
        spans = [f"{shown_path(f)}:{ln}:{c}" for f, ln, c in sorted({(u.span.file, u.span.line, u.span.col)
                                                                   for u in uses})]
        note = f"{'; '.join(spans[:6])}{' ...' if len(spans) > 6 else ''}"
        out.append(Diagnostic(
            where[name], first.code,
            f"'{name}' is removed here, but {', '.join(files)} (which this file extends) still uses it: "
            f"{first.message}",
            (), f"used at {note}; override those rules in this file too, or keep '{name}'"))
    return out

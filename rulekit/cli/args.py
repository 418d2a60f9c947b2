"""Command-line arguments checked before any work: numbers in range, output files opened early.

A bad number or an output path that cannot be written is a usage error (exit 2) found before a
game is built, so a long run is never lost at its end and no huge value reaches the engine.
"""
from __future__ import annotations

import argparse
import os
import re
import stat
import sys
from typing import IO, Callable

from rulekit.core.numbers import parse_int

MAX_PLAYERS = 64  # seats at one table (agent seeds are distinct for up to 64 seats)
MAX_PLAY_ROUNDS = 10_000  # rounds of one played game (rulekit.engine.runner.MAX_ROUNDS)
MAX_SIM_ROUNDS = 100_000_000  # rounds of one simulation
MAX_JOBS = 64  # worker processes
MAX_SEED = 10 ** 30
SCHEDULER_TIMEOUT = 3.0  # seconds to reach a Dask scheduler (rulekit.analysis.distributed.CONNECT_TIMEOUT)


class UsageError(Exception):
    """A command-line argument is wrong; the message names the argument."""


# options whose value may start with a minus sign without being a number argparse knows
# (--from-simulation -5:0, as the transcript of a simulated round writes it)
DASH_VALUES = ("--from-simulation",)
_DASH_VALUE = re.compile(r"-\d")  # a negative seed: the command checks the rest


def join_dash_values(argv: list[str]) -> list[str]:
    """`argv` with `--from-simulation -5:0` joined into `--from-simulation=-5:0`: argparse takes a
    value that starts with '-' and is not a plain number for an option of its own."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            return out + argv[i:]
        if a in DASH_VALUES and i + 1 < len(argv) and _DASH_VALUE.match(argv[i + 1]):
            out.append(f"{a}={argv[i + 1]}")
            i += 2
            continue
        out.append(a)
        i += 1
    return out


def bounded_int(option: str, lo: int, hi: int) -> Callable[[str], int]:
    """An argparse `type` accepting whole numbers from lo to hi (a clear message otherwise)."""
    def parse(text: str) -> int:
        t = text.strip()
        v = parse_int(t)
        if v is None:
            raise argparse.ArgumentTypeError(f"expected a whole number from {lo} to {hi}, found '{text[:40]}'")
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"expected a whole number from {lo} to {hi}, found {t[:40]}")
        return v
    parse.__name__ = option  # argparse names the option in its message
    return parse


def bounded_seconds(option: str, lo: float, hi: float) -> Callable[[str], float]:
    """An argparse `type` accepting a number of seconds from lo to hi (digits and one decimal point)."""
    def parse(text: str) -> float:
        t = text.strip()
        whole, _, frac = t.partition(".")
        digits = parse_int(whole or "0", signed=False) is not None and (not frac or parse_int(frac, signed=False)
                                                                       is not None)
        if not digits or t in ("", ".") or len(t) > 20 or not lo <= float(t) <= hi:
            raise argparse.ArgumentTypeError(f"expected a number of seconds from {lo:g} to {hi:g}, found '{text[:40]}'")
        return float(t)
    parse.__name__ = option
    return parse


def check_seat_count(n: int, lo: int, hi: int) -> None:
    """--players within the variant's range."""
    if not lo <= n <= hi:
        raise UsageError(f"--players: this game is for {lo} to {hi} players, found {n}")


def check_seat(option: str, seat: int | None, n: int) -> None:
    """A seat number (such as --human) names one of the n seats."""
    if seat is not None and not 0 <= seat < n:
        raise UsageError(f"{option}: expected a seat from 0 to {n - 1}, found {seat}")


def check_output(path: str, option: str) -> None:
    """Raise UsageError unless `path` can be written as a regular file (checked without writing it)."""
    if path == "-":
        return
    open_output(path, option, probe=True)


def _file_place(path: str, option: str) -> tuple[str, os.stat_result | None]:
    """The folder of an output file and the file's status (None if it does not exist yet);
    UsageError for a missing folder, or a path that is a folder, a device or a pipe."""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UsageError(f"{option}: cannot write '{path}': the folder {folder} does not exist")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise UsageError(f"{option}: cannot write '{path}': {exc.strerror}") from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise UsageError(f"{option}: cannot write '{path}': {kind}; expected a file to write")
    return folder, st


def check_replaceable(path: str, option: str) -> None:
    """Raise UsageError unless `path` can later be written by a rename in its folder (a temporary
    file there, then os.replace); nothing is created or truncated now ('-' is standard output)."""
    if path == "-":
        return
    folder, st = _file_place(path, option)
    if st is not None and not os.access(path, os.W_OK):
        raise UsageError(f"{option}: cannot write '{path}': the file is read-only")
    if not os.access(folder, os.W_OK | os.X_OK):  # the new file is made there, then renamed
        raise UsageError(f"{option}: cannot write '{path}': the folder {folder} is not writable")


def open_output(path: str | None, option: str, probe: bool = False) -> IO[str] | None:
    """Open an output file for writing now, before the work; '-' is standard output.

    Refuses a folder, a device or a pipe (/dev/full would fail only after the run) and a missing
    folder, with a usage error naming the option.
    """
    if path is None:
        return None
    if path == "-":
        return sys.stdout
    _file_place(path, option)
    try:
        if probe:  # append mode: an existing file keeps its contents until the results are ready
            open(path, "a", encoding="utf-8").close()
            return None
        return open(path, "w", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"{option}: cannot write '{path}': {exc.strerror}") from None

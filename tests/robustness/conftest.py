"""Robustness suite: the summary line with what was tried (pytest -s is off in CI)."""
from __future__ import annotations

from .helpers import COUNTS

FAILED: list[str] = []


def pytest_runtest_logreport(report):
    if report.failed and "tests/robustness/" in report.nodeid.replace("\\", "/"):
        FAILED.append(report.nodeid)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not any(COUNTS.values()) and not FAILED:
        return  # the suite did not run
    terminalreporter.write_line(
        f"robustness: {COUNTS['inputs']} inputs tried, {COUNTS['rounds']} rounds played, "
        f"{COUNTS['invariants']} invariants checked, failures: {len(FAILED)}")

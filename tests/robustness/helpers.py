"""Shared helpers for the robustness suite: counters, bounded runs, located-error checks.

The suite feeds hostile input (files, expressions, rules, agents) to rulekit and checks that each
ends in a clear, located RulekitError within fixed limits of time and memory. The limits below
are safety limits, not speed benchmarks: they are generous so a busy CI machine passes, but a
hang or a memory blow-up fails.
"""
from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import textwrap
import time
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from rulekit.core.errors import CODES, Diagnostic, RulekitError

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = ROOT / "variants"
FIXTURES = ROOT / "tests" / "fixtures"

# safety limits for one hostile input (time in seconds, traced Python memory in bytes)
TIME_LIMIT = 2.0
MEMORY_LIMIT = 200_000_000
# the few cases that must do real work first (an alias bomb expanded to the node limit, an
# evaluation budget spent to the last call, a file just under the size limit)
HEAVY_TIME_LIMIT = 10.0

# figures for the terminal summary (see conftest.py)
COUNTS = {"inputs": 0, "rounds": 0, "invariants": 0}


def count(kind: str, n: int = 1) -> None:
    COUNTS[kind] += n


# -- bounded runs -------------------------------------------------------------------------------

@dataclass
class Measured:
    """What a bounded call returned or raised, how long it took and its peak traced memory."""

    value: Any
    error: BaseException | None
    seconds: float
    peak: int

    def check_bounds(self, time_limit: float = TIME_LIMIT, memory_limit: int = MEMORY_LIMIT) -> None:
        # no wall-clock assertion (issue 12): a busy machine must not fail the suite. Work is
        # bounded by the engine's counters; `measure` keeps a generous alarm against hangs.
        assert self.peak < memory_limit, f"peak memory {self.peak / 1e6:.1f} MB (limit {memory_limit / 1e6:.0f} MB)"


class Hang(Exception):
    """Raised by `alarm` when a call runs past its wall-clock limit."""


@contextlib.contextmanager
def alarm(seconds: float):
    """Fail (raise Hang) instead of hanging: SIGALRM after `seconds` of wall-clock time."""
    if not hasattr(signal, "setitimer"):  # pragma: no cover - not on POSIX
        yield
        return

    def on_alarm(signum, frame):
        raise Hang(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def measure(fn: Callable[[], Any], hard_limit: float = 60.0) -> Measured:
    """Call fn() under tracemalloc and an alarm; keep what it returned or raised."""
    tracemalloc.start()
    t0 = time.perf_counter()
    value, err = None, None
    try:
        with alarm(hard_limit):
            value = fn()
    except (Exception, Hang) as exc:  # noqa: BLE001 - the caller judges what was raised
        err = exc
    seconds = time.perf_counter() - t0
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return Measured(value, err, seconds, peak)


def run_isolated(code: str, timeout: float = 30.0, memory: int = 1_000_000_000) -> dict:
    """Run Python `code` in a child process with an address-space limit and a timeout.

    The code runs with `RESULT` (a dict) in scope; whatever it puts there comes back. A child
    killed by the timeout, or dying of memory exhaustion, comes back as {'status': 'timeout'} or
    {'status': 'crashed', ...}: a hang or a memory bomb fails the test instead of the test run.
    """
    prog = textwrap.dedent("""
        import json, resource, sys, traceback
        resource.setrlimit(resource.RLIMIT_AS, ({mem}, {mem}))
        sys.path.insert(0, {root!r})
        RESULT = {{"status": "ok"}}
        try:
        {body}
        except MemoryError:
            RESULT = {{"status": "memory"}}
        except BaseException as exc:
            from rulekit.core.errors import RulekitError
            if isinstance(exc, RulekitError):
                d = exc.first
                RESULT.update(status="rulekit", code=d.code, line=d.span.line, col=d.span.col,
                              file=d.span.file, message=d.message)
            else:
                RESULT = {{"status": "exception", "type": type(exc).__name__, "message": str(exc)[:300]}}
        sys.stdout.write("\\n@@RESULT@@" + json.dumps(RESULT, default=str))
    """).format(mem=memory, root=str(ROOT), body=textwrap.indent(textwrap.dedent(code), "    "))
    try:
        # the timeout is a safety net against hangs, stretched so a loaded machine does not fail
        timeout = max(timeout * 6, 120.0)
        proc = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, timeout=timeout,
                              cwd=str(ROOT))
    except subprocess.TimeoutExpired:
        return {"status": "timeout"}
    out = proc.stdout
    if "@@RESULT@@" not in out:
        return {"status": "crashed", "returncode": proc.returncode, "stderr": proc.stderr[-500:]}
    return json.loads(out.rsplit("@@RESULT@@", 1)[1])


# -- located errors -------------------------------------------------------------------------------

def assert_located(diags: list[Diagnostic], file_endswith: str | None = None, code: str | None = None) -> None:
    """Every diagnostic names a file, a line and a column; codes are known ones."""
    assert diags, "expected at least one diagnostic"
    for d in diags:
        assert d.code in CODES, f"unknown code {d.code}"
        assert d.span.file and d.span.file != "<unknown>", f"no file: {d}"
        assert d.span.line >= 1 and d.span.col >= 1, f"not located: {d.span}: {d.code} {d.message}"
        assert d.message, "empty message"
    if file_endswith is not None:
        assert diags[0].span.file.endswith(file_endswith), f"{diags[0].span} is not in {file_endswith}"
    if code is not None:
        assert code in {d.code for d in diags}, f"expected {code}, found {[(str(d.span), d.code) for d in diags]}"


def error_of(m: Measured) -> RulekitError:
    """The RulekitError a measured call raised (failing clearly when it raised something else)."""
    assert m.error is not None, f"no error: returned {m.value!r}"[:300]
    assert isinstance(m.error, RulekitError), f"{type(m.error).__name__}: {m.error}"[:500]
    return m.error


# -- variant files written into tmp dirs -------------------------------------------------------------

def _corpus_head() -> str:
    """The probe variant's declarations, shared with benchmarks/hostile_corpus.py (one copy)."""
    import importlib.util
    import sys
    mod = sys.modules.get("hostile_corpus")
    if mod is None:  # the same module object test_hostile_corpus.py uses (dataclasses need it registered)
        spec = importlib.util.spec_from_file_location("hostile_corpus", ROOT / "benchmarks" / "hostile_corpus.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["hostile_corpus"] = mod
        spec.loader.exec_module(mod)
    return mod.HEAD


HEAD = _corpus_head()


def variant_text(body: str, vars_extra: str = "", game: str = "game:\n  start_chips: 100\n") -> str:
    """A small kabufuda variant: the HEAD declarations, more vars (indented by two spaces, under
    `vars:`), `game:` and `body` (round, procedures, ...; dedented)."""
    return HEAD + vars_extra + game + textwrap.dedent(body)


def write(folder: Path, name: str, text: str | bytes) -> Path:
    p = folder / name
    p.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        p.write_bytes(text)
    else:
        p.write_text(text, encoding="utf-8")
    return p


def variant_files() -> list[Path]:
    """Shipped variants and the valid fixtures (the inputs the mutation fuzzer starts from)."""
    return sorted(VARIANTS.rglob("*.yaml")) + sorted((FIXTURES / "valid").glob("*.yaml"))


def picked_cases(corpus: Any, classes: Any, pick: dict[str, set[str]]) -> list[Any]:
    """The corpus cases of `classes` as pytest params: every case, or only `pick[cls]` where given."""
    import pytest
    return [pytest.param(case, id=f"{case.cls}-{case.name}") for case in corpus.cases()
            if case.cls in classes and (case.cls not in pick or case.name in pick[case.cls])]


def assert_ends_cleanly(corpus: Any, case: Any, strict: bool = True) -> None:
    """Run one corpus case as a user would; it ends in time, inert and bounded (`strict`: no control
    character either, and it is not accepted silently)."""
    count("inputs")
    o = corpus.run(case, hang=60.0)
    assert not o.hang, f"{case.name}: still running after 60 s"
    assert not o.traceback, f"{case.name}: a Python traceback reached the user"
    assert not o.escapes, f"{case.name}: an escape character reached the terminal"
    assert o.peak < corpus.BIG, f"{case.name}: {o.peak / 1e6:.0f} MB"
    if strict:
        assert not o.controls, f"{case.name}: a control or format character reached the terminal"
        assert not o.silent, f"{case.name}: accepted silently (exit 0)"
    assert o.problem is None, f"{case.name}: {o.problem}"

"""Pause Python's cyclic garbage collector while a variant is read and compiled.

Reading and compiling a large file creates hundreds of thousands of long-lived objects; the
collector walks all of them again each time it runs, which took about 80% of `rulekit validate`
on a file at the documented limits (7,000 yaku: 10.8 s with the collector, 2.3 s without).
The work is bounded by the file limits (docs/reference/limits.md), so pausing it cannot let
memory run away; reference counting still frees everything that is not in a cycle.
"""
from __future__ import annotations

import functools
import gc
from typing import Any, Callable, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def gc_paused(fn: F) -> F:
    """Run `fn` with the cyclic collector paused (restored after, also on errors; nests)."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        was = gc.isenabled()
        gc.disable()
        try:
            return fn(*args, **kwargs)
        finally:
            if was:
                gc.enable()
    return wrapper  # type: ignore[return-value]

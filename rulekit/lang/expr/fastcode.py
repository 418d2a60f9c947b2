"""What a compiled expression carries so that generated code can write it out inline."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from rulekit.lang.expr import ast
from rulekit.lang.expr.scope import Scope


@dataclass(frozen=True)
class FastCode:
    """An expression as Python source over bound constants, and how to make it again.

    `body` reads the constants as K0, K1 ... (`consts`), the state as `ctx` and the locals as `L`;
    `slow` is its located code, which raises errors placed in the text (run when `body` raises).
    `node`, `info`, `names` and `scope` let rulekit.lang.expr.codebuild.regenerate() write it again
    (sharing calls across a yaku table); `fresh`: its value is always a new list."""

    body: str
    consts: tuple[Any, ...]
    slow: Callable[..., Any]
    node: ast.Node | None = None
    info: dict[int, tuple[str, Any]] | None = None  # per node: its type, and its constant or NC_MARK
    names: dict[int, str] | None = None
    scope: Scope | None = None
    fresh: bool = False


def fast_code(fn: Any) -> FastCode | None:
    """The FastCode a compiled expression carries (None: it is only called, never written inline)."""
    return fn if isinstance(fn, FastCode) else getattr(fn, "fastcode", None)

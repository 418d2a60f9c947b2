"""`x in ys` inside a loop with ys the same for every item: ys read once, before the expression.

A mixin of the code generator (rulekit.lang.expr.codegen.CodeGen), fast code only: the located code
reads ys where the rule writes it, so an error is still placed there. A long ys is still charged
each test, as written out (H_scanner); a short one is Python's `in`.
"""
from __future__ import annotations

import re

from rulekit.lang.expr import ast
from rulekit.lang.expr import types as T
from rulekit.lang.expr.functions import FREE_SCAN
from rulekit.lang.expr.treefacts import mentions

# code reading the state or a local with constant or local indexes: may be read before a loop
SIMPLE = re.compile(r"^(?:ctx\.(?:vars|zones)|L|_p\d+)(?:\[(?:L\[K\d+\]|K\d+|_p\d+|\d+|ctx\.\w+)\])*$")
SCALAR = (T.INT, T.CARD, T.BOOL, T.STR)  # no list: a test in at most FREE_SCAN items or characters is short


class HoistWriter:
    """The part of the code generator reading an `x in ys` test's ys once per expression."""

    located: bool
    hoists: dict[str, tuple[str, str]] | None
    memo: dict[str, int] | None
    params: dict[str, str]
    guarded: bool
    n_temps: int

    def type_of(self, node: ast.Node) -> str:  # pragma: no cover - the code generator's
        raise NotImplementedError

    def g(self, node: ast.Node, loose: bool = False) -> str:  # pragma: no cover - the code generator's
        raise NotImplementedError

    def hoist(self, code: str, t: str) -> str | None:
        """The temporary holding `code` (the list or map an `x in` inside a loop tests, read from the
        state, the same for every item) as H_scanner makes it, read once before the expression
        (with_hoists); None outside a loop, or where the code may not be read early."""
        if self.hoists is None or self.memo is not None or not self.params or self.guarded or "_p" in code:
            return None
        return self.held(code, f"{code} if len({code}) <= {FREE_SCAN} else H_scanner(ctx, {code}, {t in (T.MAP, T.ANY)})")

    def invariant(self, read: str, whole: str) -> str | None:
        """The temporary holding `whole`, worked out from `read` alone (a read of the state the same
        for every item of the loop it is in), set once before the expression; None outside a loop,
        or where it may not be read early (an error in it still hands the step to the located code)."""
        if self.hoists is None or self.memo is not None or not self.params or self.guarded or "_p" in read \
                or not SIMPLE.match(read):
            return None
        return self.held(whole, whole)

    def held_truth(self, code: str) -> bool | None:
        """What the temporary `code` always holds if invariant() set it to a true/false `x and false`
        (False) or `x or true` (True); None for any other code."""
        for key, (name, init) in (self.hoists or {}).items():
            if name == code and key == init and init.startswith("(") and init.endswith((" and False)", " or True)")):
                return init.endswith(" or True)")
        return None

    def tester(self, held: str) -> str:
        """The temporary holding the membership test of the hoisted `held` as a function: its
        __contains__ (a Scanned's charges each test of a long list)."""
        return self.held(f"{held}.__contains__", f"{held}.__contains__")

    def held(self, key: str, init: str) -> str:
        """The temporary set to `init` before the expression (one per `key`)."""
        assert self.hoists is not None
        got = self.hoists.get(key)
        if got is None:
            got = self.hoists[key] = (f"_t{self.n_temps}", init)
            self.n_temps += 1
        return got[0]

    def with_hoists(self, body: str) -> str:
        """`body` after the values hoist() read once are read (fast code only)."""
        if not self.hoists:
            return body
        reads = "".join(f"({name} := {init}), " for name, init in self.hoists.values())
        return f"({reads}{body})[{len(self.hoists)}]"

    def member_test(self, lam: ast.Lambda) -> tuple[str, bool] | None:
        """For a lambda `x -> x in ys` (or `not in`), ys read from the state without x: the code of
        ys's membership test as a function (read once, before the loop), and whether it is `in`."""
        body = lam.body
        if self.located or not (isinstance(body, ast.Binary) and body.op in ("in", "not in")
                                and isinstance(body.left, ast.Name) and body.left.name == lam.param
                                and self.type_of(body.left) in SCALAR) or mentions(body.right, lam.param):
            return None
        right = self.g(body.right)
        if not SIMPLE.match(right):
            return None
        kind = self.type_of(body.right) in (T.MAP, T.ANY)
        got = self.hoists.get(right) if self.hoists is not None else None  # read once already (the body's)
        held = got[0] if got is not None else self.hoist(right, self.type_of(body.right))
        if held is not None:
            return self.tester(held), body.op == "in"
        return (f"({right}.__contains__ if len({right}) <= {FREE_SCAN} else H_scanner(ctx, {right}, {kind}).__contains__)",
                body.op == "in")

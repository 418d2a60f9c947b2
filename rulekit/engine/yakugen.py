"""Generate a yaku table's function: each yaku's claim, condition, value and rank as
straight-line Python over the cards and seat, the calls they share computed once (in slots
`M0`.., see CodeGen.g).

It writes code as rulekit.engine.stepgen does (its `Gen`, bound constants only) and lives apart
because a table is not a step block: it reads only the state it needs and returns its hits.
"""
from __future__ import annotations

import re
from ast import literal_eval
from typing import Any, Callable

from rulekit.lang.expr import ast
from rulekit.lang.expr.codebuild import regenerate
from rulekit.lang.expr.codegen import call_keys
from rulekit.lang.expr.fastcode import FastCode, fast_code
from rulekit.engine.places import span_in
from rulekit.engine.stepgen import FIXED_READ, LITERAL, ROUND_FIXED, build_function, Gen, TooBig


def generate_yaku_table(entries: list[Any], hit: Callable[..., Any], add_grouped: Callable[..., Any],
                        label: str) -> Callable[..., Any] | None:
    """A function (ctx, cards, seat) -> yaku hits doing what Game's yaku evaluation does for
    one table: claim, condition, value and rank of each entry in order, best per group."""
    g = TableGen()
    memo = _shared_calls([f for y in entries for f in (y.claim, y.when, y.value, y.rank) if f is not None])
    own = {"cards": "cards", "seat": "seat"}  # the table's locals, read as Python locals
    try:
        for y in entries:
            ind = 1
            if y.claim is None and _when_never(y.when):
                continue  # never made under these options (nothing to evaluate, nothing spent)
            if y.claim is not None:
                g.places.note(span_in(y.claim), len(g.lines))
                c = g.expr(_with_memo(y.claim, memo), ind, own)
                g.emit(ind, f"if {c}:")
                ind += 1
            g.places.note(span_in(y.when), len(g.lines))
            w = g.expr(_with_memo(y.when, memo), ind, own)
            g.emit(ind, f"if {w}:")
            g.places.note(span_in(y.value), len(g.lines))
            v = g.expr(_with_memo(y.value, memo), ind + 1, own)
            g.places.note(span_in(y.rank), len(g.lines))
            r = g.expr(_with_memo(y.rank, memo), ind + 1, own)
            if LITERAL.match(v) and LITERAL.match(r):  # a fixed value and rank: one hit made once (frozen)
                h = g.bind(hit(y.id, _literal(v), _literal(r), y.group))
            else:
                h = f"HIT({g.bind(y.id)}, {v}, {r}, {g.bind(y.group)})"
            if y.group:
                g.emit(ind + 1, f"ADD(hits, best, {h})")
            else:
                g.emit(ind + 1, f"hits.append({h})")
    except (TooBig, RecursionError):
        return None
    # only the parts of the state the table reads are read into locals
    fixed = sorted({m.group(1) for line in g.lines for m in FIXED_READ.finditer(line)}, key=list(ROUND_FIXED).index)
    header = ("    def table(ctx, cards, seat):\n"
              # (the yaku's fast code reads cards and seat as Python locals: a dict only if one reads it)
              + (f"        L = {{{g.bind('cards')}: cards, {g.bind('seat')}: seat}}\n"
                 if any("L[" in line for line in g.lines) else "")
              + (f"        {', '.join(ROUND_FIXED[a] for a in fixed)} = {', '.join('ctx.' + a for a in fixed)}\n"
                 if fixed else "")
              + "        hits = []\n"
              + _slots_header(g.lines, len(memo))
              + ("        best = {}\n" if any(y.group for y in entries) else ""))
    footer = ("        return hits\n"
              "    return table\n")
    if not g.lines:  # no yaku can be made under these options
        header, footer = "    def table(ctx, cards, seat):\n", "    return table\n"
        g.emit(1, "return []")
    else:
        sizes = hand_sizes(entries)
        if sizes is not None:
            # most hands looked at are of no size any yaku wants: nothing to evaluate, nothing spent
            header = header.replace("    def table(ctx, cards, seat):\n", "    def table(ctx, cards, seat):\n"
                                    f"        if type(cards) is list and len(cards) not in {g.bind(sizes)}:\n"
                                    "            return []\n", 1)
            g.lines = [_SHORT_SCAN.sub(lambda m: "cards" if max(sizes) <= int(m.group(1)) else m.group(0), line)
                       for line in g.lines]
    # an error in it is placed, as without generated code, at the step that looked for yaku
    return build_function(g, header, footer, {"HIT": hit, "ADD": add_grouped}, label, steps_placed=False)


def _read_in(ctx: Any, fn: Callable[[Any], Any], loc: dict[str, Any]) -> Any:
    """fn(ctx) with `loc`, the table's locals, as ctx.loc (where a closure or the located code of
    a failing expression reads them); the caller's ctx.loc put back after, whatever happens."""
    saved = ctx.loc
    ctx.loc = loc
    try:
        return fn(ctx)
    finally:
        ctx.loc = saved


class TableGen(Gen):
    """The writer of a yaku table: its locals (cards, seat) are Python locals, put in a dict only
    for code that reads them in ctx.loc, as it is called (no dict made while nothing fails)."""

    def call_reader(self, ind: int, out: str, fn: Any, subst: dict[str, str] | None) -> None:
        loc = ", ".join(f"{self.bind(name)}: {code}" for name, code in (subst or {}).items())
        self.emit(ind, f"{out} = {self.bind(_read_in)}(ctx, {self.bind(fn)}, {{{loc}}})")


# the cards gone through, charged if longer than a short scan: where every yaku has tested the
# hand's size first (hand_sizes), never longer than the largest size
_SHORT_SCAN = re.compile(r"\(cards if len\(cards\) <= (\d+) else H_spend\(ctx, cards\)\)")
_SLOT = re.compile(r"\bM(\d+) if ")


def _slots_header(lines: list[str], n: int) -> str:
    """The table's shared slots made empty, those its code reads: locals `M0`.. (filled by := at
    first use) and, if a slot is read where Python allows no := (a comprehension's iterable), the
    list MEMO (see CodeGen.g)."""
    used = sorted({int(m.group(1)) for line in lines for m in _SLOT.finditer(line)})
    out = f"        {' = '.join(f'M{i}' for i in used)} = H_UNSET\n" if used else ""
    if any("MEMO[" in line for line in lines):
        out += f"        MEMO = [H_UNSET] * {n}\n"
    return out


def _when_never(fn: Any) -> bool:
    """Whether a yaku's condition is the constant false (an option turned the yaku off)."""
    code = fast_code(fn)
    return code is not None and code.body == "False"


def hand_sizes(entries: list[Any]) -> frozenset[int] | None:
    """The hand sizes outside which no yaku of the table is made and nothing is charged or can
    fail (each condition starts `count(cards) == K and`, or is off, and each claim is a plain
    comparison of the seat, dealer and player count); None when that cannot be told."""
    sizes: set[int] = set()
    for y in entries:
        if y.claim is not None and not _plain_claim(y.claim):
            return None
        if _when_never(y.when):
            continue
        size = _size_guard(y.when)
        if size is None:
            return None
        sizes.add(size)
    return frozenset(sizes)


def _size_guard(fn: Any) -> int | None:
    """K when the condition is `count(cards) == K and ...` (its first conjunct), else None."""
    code = fast_code(fn)
    if code is None or code.node is None or code.names is None:
        return None
    node = code.node
    while isinstance(node, ast.Binary) and node.op == "and":
        node = node.left
    if not (isinstance(node, ast.Binary) and node.op == "=="):
        return None
    count, k = node.left, node.right
    if isinstance(count, ast.Const):
        count, k = k, count
    if not (isinstance(count, ast.Call) and count.func == "count" and len(count.args) == 1
            and isinstance(count.args[0], ast.Name) and count.args[0].name == "cards"
            and code.names.get(id(count.args[0])) == "loc"
            and isinstance(k, ast.Const) and type(k.value) is int):
        return None
    return k.value


PLAIN_OPS = {"==", "!=", "<", "<=", ">", ">=", "and", "or"}


def _plain_claim(fn: Any) -> bool:
    """Whether a claim only compares the seat, the dealer, the player count, seats next to them
    and integer constants (it charges nothing and cannot fail)."""
    code = fast_code(fn)
    if code is None or code.node is None or code.names is None or code.scope is None:
        return False
    names, scope = code.names, code.scope

    def plain(n: ast.Node) -> bool:
        if isinstance(n, ast.Const):
            return type(n.value) in (int, bool)
        if isinstance(n, ast.Name):
            kind = names.get(id(n))
            if n.name == "seat":
                return kind == "loc"
            return kind == "global" and getattr(scope.globals.get(n.name), "code", None) in ("dealer", "n_players")
        if isinstance(n, ast.Unary):
            return n.op == "not" and plain(n.operand)
        if isinstance(n, ast.Binary):
            return n.op in PLAIN_OPS and plain(n.left) and plain(n.right)
        if isinstance(n, ast.Call):
            return n.func in ("left_of", "right_of") and len(n.args) == 1 and plain(n.args[0])
        return False
    return plain(code.node)


def _literal(text: str) -> Any:
    """The value of a literal as generated code writes it (3, (-1), True, False, None)."""
    return literal_eval(text)


def _shared_calls(fns: list[Any]) -> dict[str, int]:
    """Calls that appear more than once among a yaku table's expressions (each yaku computing
    the same sorted values of the cards, say): each gets a MEMO slot."""
    counts: dict[str, int] = {}
    for fn in fns:
        code = fast_code(fn)
        if code is not None and code.node is not None:
            for key in call_keys(code.node):
                counts[key] = counts.get(key, 0) + 1
    shared = sorted(k for k, c in counts.items() if c > 1)
    return {k: i for i, k in enumerate(shared)}


def _with_memo(fn: Any, memo: dict[str, int]) -> Any:
    """The expression as generated code that shares the MEMO slots of its table."""
    code = fast_code(fn)
    if not memo or code is None or code.node is None or not set(call_keys(code.node)) & memo.keys():
        return fn
    again = regenerate(code, memo)
    if again is None:
        return fn
    return FastCode(again[0], again[1], code.slow)

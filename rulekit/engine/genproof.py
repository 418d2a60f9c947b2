"""What the build proves about a list a step keeps, so that its store check measures no more than
it must (rulekit.engine.stepgen writes the check; this module decides which one).

A value kept in a variable is checked as it is stored: it is a list, and its size as the cost
model counts it (rulekit.engine.cost) is within MAX_LIST, lists inside counted, text and deeper
lists walked. A list the expression builds afresh from the game's cards - the cards of a zone
(which holds only cards), one-card lists of them, subsets of them, such lists filtered, joined or
picked between, or `[]` - can hold no text and nothing deeper, so its check is its length alone
(for a list of lists, its length and theirs summed, in C). The proof is read from the
expression's tree when the game is built. A step local it reads counts only when one `let`
sets it in all of the function being written, with a value proved the same way: no other value
can reach the read (a loop going round again included). Where anything else could reach the
store - any other expression, a local set twice, a name kept in ctx.loc - the full check stays.
An expression's located code, run when its fast code fails, computes the same value by the
same rules, so the proof holds for its value too.
"""
from __future__ import annotations

import math
import re
from itertools import chain
from typing import TYPE_CHECKING, Any, Callable

from rulekit.engine.cost import NESTED_SET
from rulekit.engine.steps import MAX_LIST
from rulekit.lang.expr import ast
from rulekit.lang.expr import types as T
from rulekit.lang.expr.fastcode import FastCode, fast_code
from rulekit.lang.expr.scope import MAX_INT, NC_MARK

if TYPE_CHECKING:
    from rulekit.engine.genframe import Frame

PLAIN = (T.INT, T.CARD, T.BOOL)  # values a kept list may hold that add nothing to its size
# a list of single values (cards of a zone, numbers) / a new list of new lists of them / []
CARDS, GROUPS, EMPTY = "cards", "groups", "empty"
SHORT = "short"  # a new list of a few items (at most FEW), whatever they are
WHOLE = "whole"  # a whole number written in the rule (its most: the largest such)
# a single value a variable may keep with no store test (see scalar): a whole number no further
# from 0 than its most, or True/False
NUMBER, TRUTH = "number", "truth"
# a list of seats, each in 0..n-1 (seats_from(), `seats`, or some of their items), at most the
# table's seats / a single such seat (a loop's variable over such a list): a payment's test of
# the seat it names is left out
SEATS, SEAT = "seats", "seat"
_SOME = ("slice", "sorted", "reverse", "distinct")  # functions giving some of their list's items
FEW = 16
# a product of a whole number written in the rule and a Python local, bounded where it is made
# (rulekit.lang.expr.codegen: bounded)
_PRODUCT = re.compile(rf"\((_te\d+_\d+) if {-MAX_INT} <= \(\1 := \((?:(\d+|\(-\d+\)) \* (lc\d+_\d+)|(lc\d+_\d+) \* "
                      rf"(\d+|\(-\d+\)))\)\) <= {MAX_INT} else H_big\(\)\)")
_WHOLE = re.compile(r"^\(?(-?\d+)\)?$")  # the code of a whole number written in the rule
_LIST_ONLY = frozenset({list})
# what is proved of a value: its kind, and the most it can hold (items and their items; for WHOLE,
# its largest value), None if not known
Shape = tuple[str, "int | None"]
Fact = tuple[str, "int | None", frozenset[str]]  # a Shape, and the step locals its proof read (each set once)


def _either(a: Shape | None, b: Shape | None, joined: bool = False) -> Shape | None:
    """What is proved of a value that is one of two proved values (`joined`: both, joined)."""
    if a is None or b is None:
        return None
    kind = b[0] if a[0] == EMPTY else a[0] if b[0] in (EMPTY, a[0]) else None
    if kind is None or (joined and kind not in (CARDS, GROUPS, EMPTY)):
        return None  # (two short lists joined are not one: joined again and again through lets they grow)
    most = None if a[1] is None or b[1] is None else a[1] + b[1] if joined else max(a[1], b[1])
    return kind, most


def _zone_cards(node: ast.Node, code: FastCode) -> int | None:
    """The deck's size when `node` reads a zone's cards: a zone by its name, or one seat's pile of
    a zone kept per seat (resolved to the game's zone, not a local or a parameter of the same
    name), which holds at most the deck; else None."""
    pile = isinstance(node, ast.Index)
    g = _stored(node, code, "zones")
    if g is not None and g.type == ("list<list<card>>" if pile else "list<card>") and code.scope and code.scope.card_ids:
        return len(code.scope.card_ids)
    return None


def _subsets_most(n: int | None, k: int | None) -> int | None:
    """The most subsets(xs, j) of a list of at most n items can hold for any j up to k, their
    items counted (j < 0 or j > n: none)."""
    if n is None or k is None:
        return None
    return max((math.comb(n, j) * (j + 1) for j in range(0, min(k, n) + 1)), default=0)


def _offset(node: ast.Node) -> ast.Node | None:
    """X for `X + n`, `n + X` or `X - n` (n a whole number written in the rule), else None: its
    value is a number whatever X holds, as Python adds a number to nothing else (it fails)."""
    if not isinstance(node, ast.Binary) or node.op not in ("+", "-"):
        return None
    if isinstance(node.right, ast.Const) and type(node.right.value) is int:
        return node.left
    if node.op == "+" and isinstance(node.left, ast.Const) and type(node.left.value) is int:
        return node.right
    return None


def _numbers(items: tuple[ast.Node, ...]) -> bool:
    """Whether every item of a list written out is a single value once the list is made: a whole
    number or truth value written in the rule, a number offset by one (`top + 1`), or a name
    that such an offset of the same list reads (`[top, top + 1]`: were top not a number, the
    list would fail to be made)."""
    named = {x.name for x in map(_offset, items) if isinstance(x, ast.Name)}
    return all((isinstance(i, ast.Const) and type(i.value) in (int, bool)) or _offset(i) is not None
               or (isinstance(i, ast.Name) and i.name in named) for i in items)


def shape(node: ast.Node, code: FastCode, local: Callable[[str], Shape | None]) -> Shape | None:
    """What is proved of the value `node` computes: CARDS, GROUPS, EMPTY or SHORT for a list (see
    the module), WHOLE for a whole number written in the rule, with the most it holds; else None.
    `local(name)` is what is proved of a step local."""
    if isinstance(node, ast.Const):
        return (WHOLE, node.value) if type(node.value) is int else None
    if isinstance(node, ast.ListLit):
        if not node.items:
            return EMPTY, 0
        if _numbers(node.items):
            return CARDS, len(node.items)
        return (SHORT, None) if len(node.items) <= FEW else None
    if isinstance(node, ast.Cond):
        a, b = shape(node.then, code, local), shape(node.other, code, local)
        if a is not None and b is not None and a[0] == b[0] == WHOLE and a[1] is not None and b[1] is not None:
            return WHOLE, max(a[1], b[1])
        return _either(a, b)
    if isinstance(node, ast.Binary) and node.op == "+":
        return _either(shape(node.left, code, local), shape(node.right, code, local), joined=True)
    bounds = [a.value for a in node.args if isinstance(a, ast.Const) and type(a.value) is int] \
        if isinstance(node, ast.Call) and node.func == "range" else []
    if isinstance(node, ast.Call) and 1 <= len(bounds) == len(node.args) <= 2:
        few = len(range(*[int(b) for b in bounds]))
        return (EMPTY, 0) if few == 0 else (CARDS, few)
    if isinstance(node, ast.Call) and node.func == "seats_from":
        return SEATS, (code.scope.seats_max or None) if code.scope is not None else None
    if isinstance(node, ast.Call) and node.args:
        first = shape(node.args[0], code, local)
        if ((node.func == "filter" and len(node.args) == 2) or node.func in _SOME) \
                and first is not None and first[0] != WHOLE:
            return first  # (the list's own items, some of them)
        if first is None or first[0] != CARDS:
            return None
        if node.func == "subsets" and len(node.args) >= 2:
            k = shape(node.args[1], code, local)
            return GROUPS, _subsets_most(first[1], k[1] if k is not None and k[0] == WHOLE else None)
        lam = node.args[-1]
        if node.func == "map" and len(node.args) == 2 and isinstance(lam, ast.Lambda) \
                and isinstance(lam.body, ast.ListLit) and lam.body.items \
                and all(isinstance(i, ast.Name) and i.name == lam.param for i in lam.body.items):
            # (one new list of the item per item: `c -> [c]`)
            return GROUPS, None if first[1] is None else first[1] * (1 + len(lam.body.items))
        return None
    if isinstance(node, ast.Name) and (code.names or {}).get(id(node)) == "loc":
        return local(node.name)
    if isinstance(node, ast.Name) and _global_code(node, code) == "seats" and code.scope is not None:
        return SEATS, code.scope.seats_max or None
    deck = _zone_cards(node, code)
    return (CARDS, deck) if deck is not None else None


def _global_code(node: ast.Name, code: FastCode) -> Any:
    """How generated code reads the game's global `node` names (None: a local, or not a global)."""
    if (code.names or {}).get(id(node)) != "global" or code.scope is None:
        return None
    return getattr(code.scope.globals.get(node.name), "code", None)


def seat(node: ast.Node, code: FastCode, local: Callable[[str], Shape | None]) -> Shape | None:
    """(SEAT, None) when `node` is proved to be a seat, 0..n-1: the dealer, or a step local
    proved to be one (a loop's variable over a list of seats); else None."""
    if not isinstance(node, ast.Name):
        return None
    if (code.names or {}).get(id(node)) == "loc":
        got = local(node.name)
        return got if got is not None and got[0] == SEAT else None
    return (SEAT, None) if _global_code(node, code) == "dealer" else None


def _total(node: ast.Node, code: FastCode, local: Callable[[str], Shape | None]) -> Shape | None:
    """(NUMBER, most) for `sum(xs, c -> c.attr)` of a list proved to hold at most k single values
    (the cards of a zone: at most the deck) and a card attribute whose values are whole numbers:
    at most k times the largest of them from 0; else None."""
    if not (isinstance(node, ast.Call) and node.func == "sum" and len(node.args) == 2 and code.scope is not None):
        return None
    lam = node.args[1]
    if not (isinstance(lam, ast.Lambda) and isinstance(lam.body, ast.Attr) and isinstance(lam.body.obj, ast.Name)
            and lam.body.obj.name == lam.param and lam.body.attr in code.scope.attrs):
        return None
    values = code.scope.attrs[lam.body.attr][1]
    items = shape(node.args[0], code, local)
    if items is None or items[0] != CARDS or items[1] is None or not all(type(v) is int for v in values):
        return None
    most = items[1] * max(map(abs, values), default=0)
    return (NUMBER, most) if most <= MAX_INT else None


def ranks_most(ranks: dict[str, list[Any]]) -> dict[str, int]:
    """Per yaku table (its yaku's compiled ranks), the most its yaku_rank() can be from 0, for
    the tables whose every rank is a whole number written in the rules (yaku_rank gives one of
    them, or 0)."""
    out = {}
    for table, fns in ranks.items():
        ks = [m.group(1) for f in fns if (code := fast_code(f)) is not None and (m := _WHOLE.match(code.body))]
        if len(ks) == len(fns):
            out[table] = max((abs(int(k)) for k in ks), default=0)
    return out


def _state(node: ast.Node, code: FastCode, typ: str) -> bool:
    """Whether `node` reads a game variable (or one seat's item of one) of the checker's type
    `typ`: every value stored there passed the store check of that type."""
    g = _stored(node, code, "vars")
    return g is not None and g.type == (f"list<{typ}>" if isinstance(node, ast.Index) else typ)


def _stored(node: ast.Node, code: FastCode, kind: str) -> Any:
    """The game's global `node` reads (a name, or one item of it) when it is kept in the state's
    `kind` ("zones" or "vars"), resolved to the game's, not a local or parameter of that name; else None."""
    name = node.obj if isinstance(node, ast.Index) else node
    if not isinstance(name, ast.Name) or (code.names or {}).get(id(name)) != "global" or code.scope is None:
        return None
    g = code.scope.globals.get(name.name)
    where = getattr(g, "code", None)
    return g if g is not None and isinstance(where, tuple) and where[0] == kind else None


def scalar(node: ast.Node, code: FastCode, local: Callable[[str], Shape | None]) -> Shape | None:
    """What is proved of a single value `node` computes: NUMBER (a whole number, with the most it
    can be from 0) or TRUTH (True or False), else None. Proved: whole numbers and truth values
    written in the rule, a game variable of that type read (its stores were checked), a product
    (the generated code bounds every product: rulekit.lang.expr.codegen), sums, `-`, `if` and
    max/min of a list written out of proved numbers, `not`, comparisons, and/or of truth values,
    and a step local whose one setting was proved (`local`)."""
    info = code.info or {}
    typ, k = info.get(id(node), (T.ANY, NC_MARK))
    if k is not NC_MARK:
        if type(k) is bool:
            return TRUTH, None
        return (NUMBER, abs(k)) if type(k) is int else None
    if isinstance(node, ast.Name) and (code.names or {}).get(id(node)) == "loc":
        got = local(node.name)
        return got if got is not None and got[0] in (NUMBER, TRUTH) else None
    if typ == T.BOOL:
        if ast.always_bool(node) or _state(node, code, T.BOOL):
            return TRUTH, None
        parts: tuple[ast.Node, ...] = ()
        if isinstance(node, ast.Binary) and node.op in ("and", "or"):
            parts = (node.left, node.right)
        elif isinstance(node, ast.Cond):
            parts = (node.then, node.other)
        if parts and all(scalar(x, code, local) == (TRUTH, None) for x in parts):
            return TRUTH, None
        return None
    if isinstance(node, ast.Call) and node.func == "yaku_rank" and node.args and code.scope is not None:
        table = info.get(id(node.args[0]), (T.ANY, NC_MARK))[1]
        ranked = code.scope.rank_most.get(table) if type(table) is str else None
        if ranked is not None and ranked <= MAX_INT:
            return NUMBER, ranked  # (one of its table's ranks, or 0)
    total = _total(node, code, local)
    if total is not None:
        return total
    if typ != T.INT:
        return None
    if _state(node, code, T.INT):
        return NUMBER, MAX_INT
    most: int | None = None
    if isinstance(node, ast.Binary) and node.op in ("+", "-", "*"):
        if any(info.get(id(x), (T.ANY,))[0] != T.INT for x in (node.left, node.right)):
            return None
        if node.op == "*":
            return NUMBER, MAX_INT  # (every product of whole numbers is bounded where it is made)
        a, b = scalar(node.left, code, local), scalar(node.right, code, local)
        if a is None or b is None or a[1] is None or b[1] is None:
            return None
        most = a[1] + b[1]
    elif isinstance(node, ast.Unary) and node.op == "-":
        return scalar(node.operand, code, local)
    elif isinstance(node, ast.Cond):
        a, b = scalar(node.then, code, local), scalar(node.other, code, local)
        if a is None or b is None or a[1] is None or b[1] is None or a[0] != NUMBER or b[0] != NUMBER:
            return None
        most = max(a[1], b[1])
    elif isinstance(node, ast.Call) and node.func in ("max", "min") and len(node.args) == 1 \
            and isinstance(node.args[0], ast.ListLit) and node.args[0].items:
        mosts = [s[1] if s is not None and s[0] == NUMBER else None
                 for s in (scalar(x, code, local) for x in node.args[0].items)]
        if None in mosts:
            return None
        most = max(m for m in mosts if m is not None)
    return None if most is None else (NUMBER, most)


class ProofWriter:
    """The store checks of kept lists (mixed into rulekit.engine.stepgen's writer, whose `emit`,
    `bind` and `frame` it uses): the full one, or the one the build's proof leaves, settled when
    the whole function is written (`settled_lines`)."""

    frame: Frame
    promote: bool
    lines: list[str]
    # (line index, its lighter form, the frames and step locals whose single `let` the proof needs)
    proofs: list[tuple[int, str, list[tuple[Frame, str]]]]

    if TYPE_CHECKING:
        def emit(self, ind: int, line: str) -> None: ...

        def bind(self, obj: Any) -> str: ...

    def proved(self, fn: Any, single: bool = False,
               prove: Callable[..., Shape | None] | None = None) -> tuple[Shape | None, list[tuple[Frame, str]]]:
        """What is proved of the value of expression `fn` here (`single`: as a single value, see
        scalar; `prove`: by that proof instead), and the step locals it relies on."""
        code = None if getattr(self, "slow", False) else fast_code(fn)
        if code is None or code.node is None or not self.promote:
            return None, []
        frame, deps = self.frame, []

        def local(name: str) -> Shape | None:
            fact = frame.facts.get(name)
            if fact is None or name in frame.kept or frame.bound.get(name) != frame.slots.get(name):
                return None
            deps.append((frame, name))
            deps.extend((frame, n) for n in fact[2])
            return fact[0], fact[1]
        return (prove or (scalar if single else shape))(code.node, code, local), deps

    def note_let(self, name: str, fn: Any) -> None:
        """Step local `name` was just set to the value of `fn`: what is proved of it, if anything."""
        got, deps = self.proved(fn)
        if got is None:
            got, deps = self.proved(fn, single=True)
        if got is None:
            self.frame.facts.pop(name, None)
        else:
            self.frame.facts[name] = (got[0], got[1], frozenset(n for _f, n in deps))

    def list_check(self, ind: int, fn: Any, typ: str, nv: str, chk: str) -> bool:
        """Write the store check of `nv`, the value of `fn` (None: of no one expression, as a sum)
        of checker's type `typ`, when a list of single values or of lists of them (False: another
        type, not written here)."""
        m = self.bind(map)
        if T.is_list(typ) and T.elem(typ) in PLAIN:
            # a list of numbers or cards by the checker's type: its size is its length once its
            # items are seen to hold no list or text (told in C, no call; anything else is measured)
            full = f"if type({nv}) is not list or len({nv}) > {MAX_LIST} " \
                   f"or not {self.bind(NESTED_SET.isdisjoint)}({m}(type, {nv})): {chk}({nv})"
            light = f"if len({nv}) > {MAX_LIST}: {chk}({nv})"
            fits: tuple[str, ...] = (CARDS, SEATS, EMPTY, SHORT)
        elif T.is_list(typ) and T.is_list(T.elem(typ)) and T.elem(T.elem(typ)) in PLAIN:
            # a list of lists of numbers or cards (plays, groups) by the checker's type: once its
            # items are seen to be lists of single values (in C), its size is their lengths summed
            full = f"if type({nv}) is not list or not {self.bind(_LIST_ONLY.issuperset)}({m}(type, {nv})) " \
                   f"or len({nv}) + sum({m}(len, {nv})) > {MAX_LIST} " \
                   f"or not {self.bind(NESTED_SET.isdisjoint)}({m}(type, {self.bind(chain.from_iterable)}({nv}))): " \
                   f"{chk}({nv})"
            light = f"if len({nv}) + sum({m}(len, {nv})) > {MAX_LIST}: {chk}({nv})"
            fits = (GROUPS, EMPTY)
        else:
            return False
        self.emit(ind, full)
        got, deps = self.proved(fn) if fn is not None else (None, [])
        if got is None or got[0] not in fits:
            return True
        if got[0] == SHORT and fits[0] == CARDS:  # (a few items of a list written out: what they hold)
            light = f"if not {self.bind(NESTED_SET.isdisjoint)}({m}(type, {nv})): {chk}({nv})"
        elif got[1] is not None and got[1] <= MAX_LIST:
            light = f"# (no test: at most {got[1]} items and items of items, however the game goes)"
        self.proofs.append((len(self.lines) - 1, "    " * ind + light, deps))
        return True

    def note_values(self, name: str, values: tuple[Any, ...]) -> None:
        """Step local `name` was just set to one of `values` (a choice among values written in
        the rules): what is proved of it, if anything."""
        if values and all(type(v) is bool for v in values):
            self.frame.facts[name] = (TRUTH, None, frozenset())
        elif values and all(type(v) is int for v in values) and max(map(abs, values)) <= MAX_INT:
            self.frame.facts[name] = (NUMBER, max(map(abs, values)), frozenset())
        else:
            self.frame.facts.pop(name, None)

    def note_seats(self, name: str, items: Any) -> None:
        """Step local `name` was just made a loop's variable over the list `items` computes: a seat
        when that list is proved to hold seats."""
        got, deps = self.proved(items)
        if got is not None and got[0] == SEATS:
            self.frame.facts[name] = (SEAT, None, frozenset(n for _f, n in deps))
        else:
            self.frame.facts.pop(name, None)

    def seats_check(self, ind: int, fn: Any) -> None:
        """The test just opened (`if ...:`) that every item of `fn`'s list is a seat made one that
        never holds when the build proves the list holds seats (Python writes no code for it)."""
        got, deps = self.proved(fn)
        if got is not None and got[0] == SEATS:
            self.proofs.append((len(self.lines) - 1, "    " * ind + "if False:  # (no test: seats, proved)", deps))

    def seat_check(self, ind: int, fn: Any) -> None:
        """The test just written that `fn`'s value is a seat (0..n-1) left out when the build proves
        it is one (every step local the proof read set once)."""
        got, deps = self.proved(fn, prove=seat)
        if got is not None:
            self.proofs.append((len(self.lines) - 1, "    " * ind + "# (no test: a seat, proved)", deps))

    def unbounded(self, written: str) -> tuple[str | None, list[tuple[Frame, str]]]:
        """`written` (an expression's code here) with the bound test left out of each product of a
        whole number written in the rule and a step local proved a whole number small enough that
        their product cannot pass the bound (None: there is none), and the step locals it relies on."""
        frame, deps = self.frame, []
        held = {v: k for k, v in frame.bound.items() if frame.slots.get(k) == v and k not in frame.kept}

        def light(m: re.Match[str]) -> str:
            k = int((m.group(2) or m.group(5)).strip("()"))
            name = held.get(m.group(3) or m.group(4))
            fact = frame.facts.get(name) if name is not None else None
            if fact is None or fact[0] != NUMBER or fact[1] is None or abs(k) * fact[1] > MAX_INT:
                return m.group(0)
            assert name is not None
            deps.append((frame, name))
            deps.extend((frame, n) for n in fact[2])
            return f"({m.group(2)} * {m.group(3)})" if m.group(2) else f"({m.group(4)} * {m.group(5)})"
        out = _PRODUCT.sub(light, written)
        return (out, deps) if deps else (None, [])

    def single_check(self, ind: int, fn: Any, kind: str) -> None:
        """The store test just written (of a number's bound or a truth value's type) left out when
        the build proves the value of `fn` passes it (every step local the proof read set once)."""
        got, deps = self.proved(fn, single=True)
        if got is not None and got[0] == kind and (kind == TRUTH or (got[1] is not None and got[1] <= MAX_INT)):
            self.proofs.append((len(self.lines) - 1, "    " * ind + "# (no test: the value is proved to pass)", deps))

    def settled_lines(self) -> list[str]:
        """The lines written, each proved store check in its lighter form (every step local its
        proof read set by one step only in all of the function)."""
        lines = list(self.lines)
        for at, light, deps in self.proofs:
            if all(f.sets.get(n, 0) == 1 and n in f.facts for f, n in deps):
                lines[at] = light
        return lines

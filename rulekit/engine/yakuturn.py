"""Whether a yaku table's results turn with the table: the same for every seat at the same place
relative to the dealer, so that a game may keep them by that place (engine.yakucall) and a seat
finds what another seat at the same place had evaluated in an earlier round under another dealer.

The proof is conservative and reads the compiled expressions' trees (user functions already put
in place): the table's seat (`seat`) and the dealer may occur only as sides of `==` and `!=`
whose two sides are each the seat, the dealer, or left_of()/right_of() of such a side; no other
state is read but the seat count; nothing binds the name `seat` again. Why it holds: for a seat s
and a dealer d both in 0..n-1, every such side is (s + k) mod n or (d + k) mod n for a constant
k, so each comparison's truth depends on (s - d) mod n alone; every other part of the table
reads neither, so every part's value, and which parts run (`and`, `or`, `if`), is the same for
(s, d) and (s + r, d + r) mod n: the same hits, and the same budget units spent (the same
operations on the same values). More: two places where every comparison comes out the same
get the same results, for the same reason (Places.classes). A table the proof cannot read (a
compiled function without its tree) is not turned."""
from __future__ import annotations

from ast import literal_eval
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Callable

from rulekit.lang.expr import ast
from rulekit.lang.expr.fastcode import fast_code
from rulekit.lang.expr.scope import Scope

SEAT = "seat"  # the table's seat, as its expressions name it
SEAT_MOVES = ("left_of", "right_of")  # a seat's neighbours: (p -+ 1) mod n, which turn with the table
STEADY = "n_players"  # the one other global a turned table may read


# one comparison of seats: (is it `==`, left side's base, its offset, right side's base, its offset),
# a base being "seat" or "dealer" and a side's value (base + offset) mod n
Comparison = tuple[bool, str, int, str, int]


@dataclass(frozen=True)
class Places:
    """A turning table's comparisons of seats, which tell which places from the dealer (seat -
    dealer mod n) get the same results: those where every comparison comes out the same."""

    comparisons: tuple[Comparison, ...]

    def classes(self, n: int) -> tuple[int, ...]:
        """Per place 0..n-1 from the dealer, a number shared by exactly the places whose results
        are the same (the first place with the same outcome of every comparison)."""
        seen: dict[tuple[bool, ...], int] = {}
        out = []
        for place in range(n):
            at = {"seat": place, "dealer": 0}  # the results turn with the table: any dealer will do
            outcome = tuple(((at[a] + i - at[b] - j) % n == 0) == eq for eq, a, i, b, j in self.comparisons)
            out.append(seen.setdefault(outcome, place))
        return tuple(out)


def turning_places(fns: Iterable[Any]) -> Places | None:
    """The Places of a table with these compiled expressions (its when, claim, value and rank)
    when they read the seat and the dealer only as the module says; None when not proved."""
    found: dict[Comparison, None] = {}
    if not _every_tree(fns, lambda node, names, scope: _turns(node, names, scope.globals, found)):
        return None
    return Places(tuple(found))


def turns_with_table(fns: Iterable[Any]) -> bool:
    """Whether these compiled expressions read the seat and the dealer only as the module says."""
    return turning_places(fns) is not None


def _every_tree(fns: Iterable[Any], proof: Callable[[ast.Node, dict[int, str], Scope], bool]) -> bool:
    """Whether `proof` holds for the tree of every compiled expression (one whose tree is not kept
    fails; a constant left as its literal, `value: 3`, reads nothing and holds)."""
    for fn in fns:
        code = fast_code(fn)
        if code is None:
            return False
        if code.node is None:
            if not _literal(code.body, code.consts):
                return False
            continue
        if code.names is None or code.scope is None or not proof(code.node, code.names, code.scope):
            return False
    return True


def _holds(node: ast.Node, visit: Callable[[ast.Node], bool | None]) -> bool:
    """Whether `visit` says no node of the tree is False (None: look below the node; True: the
    node, and what is below it, is fine)."""
    todo = [node]
    while todo:
        n = todo.pop()
        got = visit(n)
        if got is False:
            return False
        if got is None:
            todo.extend(ast.children(n))
    return True


def _rebinds(n: ast.Node, name: str) -> bool:
    """Whether n binds `name` again below it (a lambda's parameter or a let)."""
    return isinstance(n, ast.Lambda) and n.param == name or isinstance(n, ast.Let) and n.name == name


def _literal(body: str, consts: tuple[Any, ...]) -> bool:
    """Whether generated code `body` is a constant: a Python literal, or its one bound constant."""
    if body == "K0" and len(consts) == 1:
        return not callable(consts[0])
    try:
        literal_eval(body)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return not consts


def _turns(node: ast.Node, names: dict[int, str], globs: dict[str, Any], found: dict[Comparison, None]) -> bool:
    """The proof over one expression's tree (see the module); its comparisons of seats added to `found`."""
    def code_of(n: ast.Name) -> Any:
        return getattr(globs.get(n.name), "code", None) if names.get(id(n)) == "global" else None

    def side(n: ast.Node) -> tuple[str, int] | None:
        """(base, offset) of a side made of the seat or the dealer and their neighbours; else None."""
        if isinstance(n, ast.Name):
            if n.name == SEAT and names.get(id(n)) == "loc":
                return "seat", 0
            return ("dealer", 0) if code_of(n) == "dealer" else None
        if isinstance(n, ast.Call) and n.func in SEAT_MOVES and len(n.args) == 1:
            inner = side(n.args[0])
            return None if inner is None else (inner[0], inner[1] + (1 if n.func == "right_of" else -1))
        return None

    def visit(n: ast.Node) -> bool | None:
        if _rebinds(n, SEAT):
            return False  # another `seat` below: not the table's
        if isinstance(n, ast.Binary) and n.op in ("==", "!="):
            left, right = side(n.left), side(n.right)
            if left is not None and right is not None:
                found[(n.op == "==", *left, *right)] = None
                return True
        if isinstance(n, ast.Name) and (n.name == SEAT or (names.get(id(n)) == "global" and code_of(n) != STEADY)):
            return False  # the seat or the dealer read otherwise, or other state (the seats, a zone)
        return None
    return _holds(node, visit)


CARDS = "cards"  # the table's cards, as its expressions name it
# comparisons that never fail on plain values (numbers, strings, true/false, lists of them)
EQUALITY = ("==", "!=")
ORDERING = ("<", "<=", ">", ">=")


def order_free(fns: Iterable[Any]) -> bool:
    """Whether a table with these compiled expressions gives the same results, spends the same
    budget units and fails or not alike for every order of the same valid cards: it reads its
    cards (`cards`) only as `count(cards)`, `sorted(map(cards, c -> c.A))` (every card read, the
    values, all numbers or all strings, then put in order), and `any`/`all(cards, c -> P)` where P
    compares card attributes with written constants in ways that cannot fail for any card of the
    deck (so stopping at
    another card changes nothing but where it stops, and nothing is charged per card for a hand
    of at most three cards); nothing binds the name `cards` again. Conservative: anything else
    (a sum, an index, a first card, another function given the cards) is not order-free."""
    return _every_tree(fns, lambda node, names, scope: _orderless(node, names, scope.attrs))


def _orderless(node: ast.Node, names: dict[int, str], attrs: dict[str, tuple[str, tuple[Any, ...]]]) -> bool:
    """The order-free proof over one expression's tree (see order_free)."""
    def is_cards(n: ast.Node) -> bool:
        return isinstance(n, ast.Name) and n.name == CARDS and names.get(id(n)) == "loc"

    def attr_of(n: ast.Node, param: str) -> tuple[Any, ...] | None:
        """The per-card values of `param.A`, when n is that and A is a card attribute."""
        if isinstance(n, ast.Attr) and isinstance(n.obj, ast.Name) and n.obj.name == param and n.attr in attrs:
            return attrs[n.attr][1]
        return None

    def safe(n: ast.Node, param: str) -> bool:
        """Whether a test of one card cannot fail and charges nothing, for every card of the deck."""
        if isinstance(n, ast.Unary) and n.op == "not":
            return safe(n.operand, param)
        if not isinstance(n, ast.Binary):
            return False
        if n.op in ("and", "or"):
            return safe(n.left, param) and safe(n.right, param)
        left, right = attr_of(n.left, param), attr_of(n.right, param)
        if n.op in EQUALITY:
            plain = (left is not None or _plain_const(n.left)) and (right is not None or _plain_const(n.right))
            return plain and not (left is None and right is None)
        if n.op in ORDERING:
            values, const = (left, n.right) if left is not None else (right, n.left)
            return values is not None and isinstance(const, ast.Const) and type(const.value) is int \
                and all(type(v) is int for v in values)
        if n.op in ("in", "not in"):
            return right is not None and _plain_const(n.left) and all(type(v) in (tuple, list) for v in right)
        return False

    def visit(n: ast.Node) -> bool | None:
        if _rebinds(n, CARDS):
            return False  # another `cards` below: not the table's
        if is_cards(n):
            return False  # the cards read in a way the proof does not know
        if isinstance(n, ast.Call) and n.args and is_cards(n.args[0]):
            if n.func == "count" and len(n.args) == 1:
                return True
            lam = n.args[1] if len(n.args) == 2 else None
            return n.func in ("any", "all") and isinstance(lam, ast.Lambda) and lam.param != CARDS \
                and safe(lam.body, lam.param)
        if isinstance(n, ast.Call) and n.func == "sorted" and len(n.args) == 1:
            inner = n.args[0]
            if isinstance(inner, ast.Call) and inner.func == "map" and len(inner.args) == 2 \
                    and is_cards(inner.args[0]) and isinstance(lam := inner.args[1], ast.Lambda) \
                    and lam.param != CARDS and _one_kind(attr_of(lam.body, lam.param)):
                return True
        return None
    return _holds(node, visit)


def _one_kind(values: tuple[Any, ...] | None) -> bool:
    """Per-card values all whole numbers or all strings: their sorted order is one list whatever
    order they came in (no two equal values that would print differently)."""
    return values is not None and len({type(v) for v in values}) == 1 and type(values[0]) in (int, str)


def _plain_const(n: ast.Node) -> bool:
    """A written number, string or true/false (compared with == or found with `in` without failing)."""
    return isinstance(n, ast.Const) and type(n.value) in (int, str, bool)

"""Frozen AST nodes of the expression language; each carries its text offsets."""
from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Node:
    """Base node: `start`/`end` are 0-based offsets into the expression text."""

    start: int
    end: int


@dataclass(frozen=True)
class Const(Node):
    """A literal: a whole number, an exact decimal, text or true/false."""

    value: int | Fraction | str | bool


@dataclass(frozen=True)
class Name(Node):
    """A name: a variable, a local, an option or a card's id, as the checker resolves it."""

    name: str


@dataclass(frozen=True)
class ListLit(Node):
    """A list written out: `[a, b, ...]`."""

    items: tuple[Node, ...]


@dataclass(frozen=True)
class Attr(Node):
    """An attribute of a value: `obj.attr` (`attr_start`: where the attribute's name starts)."""

    obj: Node
    attr: str
    attr_start: int


@dataclass(frozen=True)
class Index(Node):
    """An item of a list or map: `obj[index]`."""

    obj: Node
    index: Node


@dataclass(frozen=True)
class Call(Node):
    """A call of a registered function: `func(args...)`."""

    func: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Lambda(Node):
    """A one-parameter function: `param -> body`."""

    param: str
    body: Node


@dataclass(frozen=True)
class Unary(Node):
    """`-x` or `not x`."""

    op: str  # '-' or 'not'
    operand: Node


@dataclass(frozen=True)
class Binary(Node):
    """An operator between two values (`op_start`: where the operator starts in the text)."""

    op: str  # + - * / // % ** == != < <= > >= in 'not in' and or
    left: Node
    right: Node
    op_start: int


@dataclass(frozen=True)
class Cond(Node):
    """`if test then then else other`."""

    test: Node
    then: Node
    other: Node


@dataclass(frozen=True)
class Let(Node):
    """`let name = value in body`: body sees `name` bound to value (evaluated once)."""

    name: str
    value: Node
    body: Node


def walk(node: Node) -> Iterator[Node]:
    """Yield `node` and every node below it."""
    yield node
    for child in children(node):
        yield from walk(child)


def children(node: Node) -> tuple[Node, ...]:
    """The direct sub-nodes of `node`."""
    if isinstance(node, ListLit):
        return node.items
    if isinstance(node, Attr):
        return (node.obj,)
    if isinstance(node, Index):
        return (node.obj, node.index)
    if isinstance(node, Call):
        return node.args
    if isinstance(node, Lambda):
        return (node.body,)
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, Cond):
        return (node.test, node.then, node.other)
    if isinstance(node, Let):
        return (node.value, node.body)
    return ()


def with_children(node: Node, kids: list[Node]) -> Node:
    """`node` with its direct sub-nodes replaced, in the order `children` gives them."""
    if isinstance(node, ListLit):
        return dataclasses.replace(node, items=tuple(kids))
    if isinstance(node, Call):
        return dataclasses.replace(node, args=tuple(kids))
    if isinstance(node, Attr):
        return dataclasses.replace(node, obj=kids[0])
    if isinstance(node, Index):
        return dataclasses.replace(node, obj=kids[0], index=kids[1])
    if isinstance(node, Lambda):
        return dataclasses.replace(node, body=kids[0])
    if isinstance(node, Unary):
        return dataclasses.replace(node, operand=kids[0])
    if isinstance(node, Binary):
        return dataclasses.replace(node, left=kids[0], right=kids[1])
    if isinstance(node, Cond):
        return dataclasses.replace(node, test=kids[0], then=kids[1], other=kids[2])
    if isinstance(node, Let):
        return dataclasses.replace(node, value=kids[0], body=kids[1])
    raise TypeError(f"{type(node).__name__} has no children to replace")


COMPARISONS = frozenset(("==", "!=", "<", "<=", ">", ">=", "in", "not in"))


def always_bool(node: Node | None) -> bool:
    """Whether `node` gives True or False whatever it reads: a comparison (Python's give a bool
    on every value of the language), `not`, and `and`/`or`/`if` of such (a store then needs no
    test of its type; None: not known)."""
    if isinstance(node, Const):
        return type(node.value) is bool
    if isinstance(node, Unary):
        return node.op == "not"
    if isinstance(node, Binary):
        if node.op in COMPARISONS:
            return True
        return node.op in ("and", "or") and always_bool(node.left) and always_bool(node.right)
    if isinstance(node, Cond):
        return always_bool(node.then) and always_bool(node.other)
    if isinstance(node, Let):
        return always_bool(node.body)
    return False

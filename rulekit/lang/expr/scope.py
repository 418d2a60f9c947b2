"""What the checker and the code generator share: bounds, the scope an expression is
checked against, compile problems, the compiled result, and the mark of a non-constant."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from collections.abc import Collection
from typing import Any, Callable

from rulekit.core.errors import Span

MAX_INT = 10 ** 30
EVAL_BUDGET = 2_000_000  # lambda calls + items built by list functions, per round
BUILDERS = {"range", "map", "filter", "subsets", "partitions", "sorted", "distinct", "flatten", "slice",
            "reverse", "keys", "values"}
MAX_EXPONENT = 64

Fn = Callable[[Any], Any]


@dataclass(frozen=True)
class Global:
    """A name the scope provides: its type and how to read it from the context."""

    type: str
    get: Fn | None = None  # None => constant
    value: Any = None
    doc: str = ""
    code: Any = None  # how generated code reads it: a ctx field name, or ("zones"|"vars", name)


def fold_name(text: str) -> str:
    """A card's name as compared: lower case, spaces collapsed, hyphens as spaces."""
    return " ".join(text.replace("-", " ").lower().split())


@dataclass
class Scope:
    """Everything an expression may name: globals, card attributes, options, locals."""

    globals: dict[str, Global] = field(default_factory=dict)
    attrs: dict[str, tuple[str, tuple[Any, ...]]] = field(default_factory=dict)  # attr -> (type, per-card values)
    options: dict[str, Any] = field(default_factory=dict)
    card_ids: dict[str, int] = field(default_factory=dict)
    yaku_tables: frozenset[str] = frozenset()
    locals: dict[str, str] = field(default_factory=dict)
    codegen: bool = True  # offer expressions' code to the phases' generated code (Compiled.fast)
    functions: dict[str, Any] = field(default_factory=dict)  # the variant's `functions:` (see expand)
    unseen: dict[str, str] = field(default_factory=dict)  # names of the variant this context cannot read -> why
    option_values: dict[str, tuple[str, ...]] = field(default_factory=dict)  # choice option -> its values
    all_card_ids: Collection[str] = frozenset()  # the ids of every deck the variant can use
    card_names: dict[str, tuple[str, ...]] = field(default_factory=dict)  # folded English name -> ids
    seats_max: int = 0  # the most seats a table of the variant has, so the most items of `seats` (0: unknown)
    # yaku table -> the most yaku_rank() of it can be from 0, when every rank in it is a whole number
    # written in the rules (set by the engine's build once the tables are compiled)
    rank_most: dict[str, int] = field(default_factory=dict)
    # (function, constant table) -> the function generated code calls for yaku(table, cards, seat)
    # and its kin, or None: the registered one (set by the engine's build: rulekit.engine.yakucall)
    yaku_calls: Any = None
    per_seat: frozenset[str] = frozenset()  # globals holding one item per seat, whatever is done to them

    def card_index(self, text: str) -> tuple[int | None, str, str]:
        """The deck index of a card named by its id or its English name ('8-1' or its name, any
        case), else (None, what is wrong, a hint)."""
        if text in self.card_ids:
            return self.card_ids[text], "", ""
        ids = self.card_names.get(fold_name(text), ())
        if len(ids) == 1 and ids[0] in self.card_ids:
            return self.card_ids[ids[0]], "", ""
        if len(ids) > 1:
            return None, f"'{text}' names {len(ids)} cards ({', '.join(ids)})", \
                "write the id of the one you mean, such as card('" + ids[0] + "')"
        from rulekit.core.errors import did_you_mean
        names = {n: i for n, i in self.card_names.items() if len(i) == 1}
        hint = did_you_mean(text, self.card_ids) or did_you_mean(fold_name(text), names)
        return None, f"no card with id or name '{text}' in this deck", hint

    def with_locals(self, extra: dict[str, str]) -> "Scope":
        """A copy of the scope with more step-bound names."""
        return dataclasses.replace(self, locals={**self.locals, **extra})


@dataclass(frozen=True)
class Problem:
    """A compile-time problem at an offset of the expression text."""

    offset: int
    length: int
    code: str
    message: str
    hint: str = ""


class CompileError(Exception):
    """One or more problems found while checking an expression."""

    def __init__(self, problems: list[Problem]):
        super().__init__(problems[0].message)
        self.problems = problems


@dataclass(frozen=True)
class Compiled:
    """A compiled expression: call `fn(ctx)`; `type` is its static type."""

    text: str
    fn: Fn
    type: str
    is_const: bool = False
    const: Any = None
    raw: Fn | None = None  # fn without the safety net, for callers that add their own
    root: Root | None = None  # run-time errors carry it; callers fill in where the text stands
    fast: Fn | None = None  # raw, offered to phases' generated code to inline (None: scope.codegen off)
    reference: Fn | None = None  # fn on the located code alone (tests compare it with the fast code)
    deps: frozenset[str] = frozenset()  # the scope's global names it reads; "yaku()" if it evaluates yaku




class Root:
    """Identifies one compiled expression; callers attach where it stands (span, style) so a
    run-time EvalError can be located without wrapping every evaluation in another call."""

    __slots__ = ("text", "span", "style", "where")

    def __init__(self, text: str = ""):
        self.text = text
        self.span: Span | None = None
        self.style = ""
        self.where = ""


class _NCMark:
    def __repr__(self) -> str:
        return "<not constant>"


NC_MARK: Any = _NCMark()  # the code generator's "not a constant" (the compiler's own mark maps to it)

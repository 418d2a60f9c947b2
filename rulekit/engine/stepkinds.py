"""What each step kind is made of, as the step compiler built it: the parts
rulekit.engine.stepgen writes out as Python. One frozen dataclass per kind, kept on the step's
`Step` (rulekit.engine.stepgen) as `.gen`."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

from rulekit.core.errors import Span

Fn = Callable[..., Any]  # a compiled expression or step: called with the game state (ctx)


@dataclass(frozen=True)
class SeqGen:
    """Steps one after another."""

    kind: ClassVar[str] = "seq"
    runs: tuple[Fn, ...]


@dataclass(frozen=True)
class LetGen:
    """Locals set from expressions, in order."""

    kind: ClassVar[str] = "let"
    pairs: tuple[tuple[str, Fn], ...]  # (local name, expression)


@dataclass(frozen=True)
class AssignGen:
    """Variables set (or added to), each value checked against the bounds on kept values."""

    kind: ClassVar[str] = "assign"
    ops: tuple[tuple[str, Fn | None, Fn], ...]  # (variable, index expression or None, value expression)
    add: bool  # `add:` rather than `set:`
    check: Fn  # raises the located error for a value out of bounds
    shown: tuple[tuple[str, Fn | None, Any], ...] = ()  # `show: true`: (variable, index expression or None, type) told in the log
    types: tuple[str, ...] = ()  # the checker's type of each value (of `ops`), which the bound test is written for


@dataclass(frozen=True)
class IfGen:
    """A test and the steps of each branch."""

    kind: ClassVar[str] = "if"
    test: Fn
    then: Fn
    other: Fn


@dataclass(frozen=True)
class ForGen:
    """Steps run once per item of a list, the item bound to `var`."""

    kind: ClassVar[str] = "for"
    var: str
    items: Fn
    body: Fn
    span: Span
    breaks: bool  # a break step is in the body


@dataclass(frozen=True)
class RepeatGen:
    """Steps run again until `until` holds (or while `while_` does), at most `limit` times."""

    kind: ClassVar[str] = "repeat"
    body: Fn
    until: Fn | None
    while_: Fn | None
    limit: Any  # the most times round (a number from the file)
    endless: Fn  # raises the located error when the limit is passed
    breaks: bool


@dataclass(frozen=True)
class ChooseGen:
    """A decision among the values of its parameters (every combination, where `where` holds)."""

    kind: ClassVar[str] = "choose"
    player: Fn
    params: tuple[tuple[str, Fn, str], ...]  # (name, expression listing its values, type of a value)
    where: Fn | None
    if_none: str
    choice: Any  # rulekit.engine.steps.Choice
    no_action: Fn
    log_forced: Fn
    too_many: Fn
    note_where: Fn | None = None  # (ctx, held): validation's tally of a `where` with if_none: skip


@dataclass(frozen=True)
class MoveGen:
    """Cards from one zone to another: a count from the top, the cards that match, or the very cards named."""

    kind: ClassVar[str] = "move"
    src: str
    si: Fn | None  # pile index of the source, None for a single zone
    dst: str
    di: Fn | None
    count: Fn | None
    where: Fn | None
    face: Any  # 'up', 'down' or None (as written)
    bottom: bool
    too_few: Fn
    too_few_matching: Fn
    cards: Fn | None = None  # `cards:` the very cards to move (a card or a list)
    not_in: Fn | None = None  # raises the located error for a card that is not in the zone
    at: Fn | None = None  # `at:` the one card at this position from the top
    no_card_at: Fn | None = None  # raises the located error for a position past the zone's bottom
    by: Fn | None = None  # the seat who moves the cards, told in the log


@dataclass(frozen=True)
class SayGen:
    """A line told to the players: nothing happens without a log."""

    kind: ClassVar[str] = "say"
    render: Fn  # the text
    about: Fn | None  # the seat it is about, and the line as that player reads it
    you: Fn | None


@dataclass(frozen=True)
class RecordGen:
    """An outcome counted for the statistics."""

    kind: ClassVar[str] = "record"
    name: str
    who: Fn | None = None  # the seat it is about, told in the log


@dataclass(frozen=True)
class RevealGen:
    """Cards shown to everyone or to one seat."""

    kind: ClassVar[str] = "reveal"
    cards: Fn
    everyone: bool
    to: Fn | None
    no_seat: Fn  # raises the located error: (seat, seats)


@dataclass(frozen=True)
class PayGen:
    """Chips from a seat or pot to a seat or pot (a pot's name where it is one, else a seat's
    expression); with no amount written, the whole source pot."""

    kind: ClassVar[str] = "pay"
    amount: Fn | None
    src: Fn | None
    dst: Fn | None
    src_pot: str | None = None
    dst_pot: str | None = None
    src_overdraft: bool = False
    dst_overdraft: bool = False
    reason: str = ""  # the reason told in the log (`reason_fn` when it has {expression}s)
    reason_fn: Fn | None = None
    fail: Fn | None = None  # raises the located errors: (case, seat or pot's value, amount, seats)


@dataclass(frozen=True)
class ShuffleGen:
    """A zone shuffled by the round's generator."""

    kind: ClassVar[str] = "shuffle"
    zone: Fn  # the zone's getter
    name: str


@dataclass(frozen=True)
class CutGen:
    """A zone cut at a random place (the round's generator draws it)."""

    kind: ClassVar[str] = "cut"
    zone: Fn
    name: str


@dataclass(frozen=True)
class DealGen:
    """Cards from the top of a zone, `count` at a time round `players` (None: the default count,
    one, and order, from the dealer's left)."""

    kind: ClassVar[str] = "deal"
    src: Fn  # the source zone's getter
    src_name: str
    dst: str
    count: Fn | None
    players: Fn | None
    face: Any
    too_few: Fn  # raise the located errors: (count, players, cards there)
    no_seat: Fn  # (seat, seats)


@dataclass(frozen=True)
class HideGen:
    """Shown cards hidden again (`reveal` with `to: none`): only those their zone lets see them see them."""

    kind: ClassVar[str] = "hide"
    cards: Fn


@dataclass(frozen=True)
class SwapGen:
    """The contents of two zones exchanged (`swap`)."""

    kind: ClassVar[str] = "swap"
    a: Fn  # the two zones' getters
    b: Fn
    labels: tuple[Any, ...]  # (zone, index expression or None) of each, as the log names them


@dataclass(frozen=True)
class SetDealerGen:
    """The seat that deals the next round (`set_dealer`), with the reason told in the log."""

    kind: ClassVar[str] = "set_dealer"
    seat: Fn
    why: Fn | None  # the reason told with it, in the rules' words


@dataclass(frozen=True)
class StopGen:
    """A step that ends the round or redeals it: its exception raised with these arguments."""

    kind: ClassVar[str] = "stop"
    exc: type
    args: tuple[Any, ...]
    event: str  # the log event's kind
    why: str


@dataclass(frozen=True)
class BreakGen:
    """The innermost for or repeat loop stopped at once (when `cond` holds, if given)."""

    kind: ClassVar[str] = "break_"
    cond: Fn | None


@dataclass(frozen=True)
class ReturnGen:
    """The procedure ended at once with this value (`return`)."""

    kind: ClassVar[str] = "return_"
    value: Fn


@dataclass(frozen=True)
class ClaimGen:
    """A yaku table evaluated for some cards of a seat (`claim`), the yaku made kept `as_` a local if named."""

    kind: ClassVar[str] = "claim"
    table: str
    cards: Fn
    who: Fn
    as_: str | None
    ids: Callable[..., list[str]] | None = None  # the table's own (ctx, cards, seat) -> ids (engine.yakucall)


@dataclass(frozen=True)
class CallGen:
    """A procedure run with its arguments bound (a value kept `as_` a local, if named)."""

    kind: ClassVar[str] = "call"
    name: str
    args: tuple[tuple[str, Fn], ...]
    procs: dict[str, Fn]  # looked up when called: procedures may call each other
    span: Span
    too_deep: Fn
    as_: str | None
    no_value: Fn


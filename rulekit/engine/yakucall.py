"""One yaku table's results as the rules read them: its hits, their ids, total value and best
rank for some cards and a seat, kept for the round (and across rounds) where the table allows it.

Generated code writes `yaku('t', ...)`, `yaku_value('t', ...)`, `yaku_rank('t', ...)` and
`new_yaku('t', ...)` with a constant table as a direct call of that table's function for that
kind (YakuCalls.caller): it charges the budget as the registered function does and looks the
result up in the game's memo or the round's cache itself, with no table-name lookup and no list
of hits walked (they keep the ids, value and rank, and the units the evaluation spent, which
every call taking them is charged). Game.yaku_eval_for gives the same results, from the same
memo and cache, to everything else.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any, Callable

from rulekit.engine.yakuturn import Places
from rulekit.lang.expr.functions import YAKU_CALL_COST, EvalError, new_yaku, normalised

# results a game keeps across rounds (then it starts afresh): about 140 bytes each, so at most
# about 18 MB a game (measured); enough for every two-card hand of a 48-card deck for each seat
# and dealer of six (81,000 keys), which 1 << 15 kept clearing (14% more bytecode a round in such a game)
YAKU_MEMO_SIZE = 1 << 17
# the largest hand whose results a game keeps across rounds: the hands of k cards number about
# deck size ** k, and measured over 3,000 rounds of each game, two-card hands came back most of
# the time, three-card ones up to a third of it (Kabufuda columns), larger ones never
YAKU_MEMO_CARDS = 3
EXHAUSTED = "evaluation budget exhausted: too many yaku evaluations in one round"

# what one evaluation gives: (hits, their ids, total value, highest rank), all plain values
Entry = tuple[tuple[Any, ...], tuple[str, ...], Any, Any]
# a table's hits for (ctx, cards, seat)
TableFn = Callable[[Any, list[int], int], Any]
EMPTY: Entry = ((), (), 0, 0)  # no yaku made (most hands): one entry shared
# what the memo gives for a key it does not hold: units no budget covers, so it is evaluated
NOT_KEPT: tuple[Any, float] = (EMPTY, math.inf)
# the hand sizes of a table not known to skip any (a range: its `in` is as quick as a set's)
ANY_SIZE = range(1 << 62)


def entry_of(hits: Any) -> Entry:
    """An evaluation's entry: the ids, value and rank computed once, as yaku(), yaku_value() and
    yaku_rank() give them (a sum normalised, the best rank)."""
    if not hits:
        return EMPTY
    if len(hits) == 1:
        h = hits[0]
        return (h,), (h.id,), normalised(0 + h.value), h.rank
    return (tuple(hits), tuple(h.id for h in hits), normalised(sum(h.value for h in hits)),
            max(h.rank for h in hits))


@dataclass(frozen=True)
class TableState:
    """How one table is evaluated for a game: its function, whether its results are kept for the
    round (`keep`) and across rounds (`lasting`, keyed by the dealer too when `by_dealer`)."""

    evaluate: TableFn
    keep: bool = False
    lasting: bool = False
    by_dealer: bool = False
    # its results turn with the table (engine.yakuturn): kept by the class of the seat's place
    # from the dealer, not by seat and dealer (places with the same results share a class)
    places: Places | None = None
    # its results do not depend on the order of the cards (yakuturn.order_free): an evaluation of
    # cards of the deck (ids 0..deck - 1) is kept under their other orders too
    order_free: bool = False
    deck: int = 0
    kept: dict[tuple[Any, ...], tuple[Entry, int]] = field(default_factory=dict)
    size: int = YAKU_MEMO_SIZE
    # the only hand sizes for which the table can make a yaku, spend or fail (others give no
    # yaku at no cost: neither evaluated nor kept); ANY_SIZE when not known
    sizes: frozenset[int] | range = ANY_SIZE


class TableCalls:
    """One table's functions: `entry` (uncharged, for the engine's own use), the charged `ids`,
    `value`, `rank` and `new` (yaku, yaku_value, yaku_rank, new_yaku) that generated expressions
    call, and `claimed` (the ids, uncharged) that the generated claim step calls. `bind` sets
    what they use."""

    def __init__(self, table: str) -> None:
        self.table = table
        self.entry, self.ids, self.value, self.rank, self.claimed, self.new, self.bind = _table_functions(table)


def _table_functions(table: str) -> tuple[Any, ...]:
    """A table's functions (see TableCalls), sharing the state `bind` sets (closure cells: read
    as fast as locals, and set once per game state made, never per call).

    Results are kept under two kinds of key that never meet: (table, seat, *cards) in the round's
    cache for a table kept for the round only, and (seat, *cards, seat count, dealer or 0, table)
    in the game's memo for a table kept across rounds (the seat count and dealer stay fixed for a
    round, so adding them changes nothing the round finds). Either way with the units the
    evaluation spent: every call taking a kept result is charged them, as evaluating would be.

    A table whose results turn with the table (TableState.places) is kept instead under
    (class, *cards, seat count, (), table), the class that of the seat's place (seat - dealer)
    mod n: every seat at a place of that class gets the same results (engine.yakuturn), so one
    evaluation serves them all, in this round and later ones. `()` never meets a dealer's number,
    so these keys never meet keys by seat (used for a seat or dealer outside 0..n-1). When the
    order of the cards cannot change the results either (TableState.order_free), an evaluation of
    cards all of the deck is kept under the keys of their other orders too."""
    evaluate: TableFn = _unbound
    keep = lasting = by_dealer = False
    places: Places | None = None
    seatless = False  # places, with no comparison of seats: every place one class
    classes: dict[int, tuple[int, ...]] = {}  # seat count -> each place's class
    seat_class: dict[int, dict[Any, dict[Any, int]]] = {}  # seat count -> dealer -> seat -> class, once found
    order_free = False
    valid: frozenset[int] = frozenset()  # the deck's card ids
    kept: dict[tuple[Any, ...], tuple[Entry, int]] = {}
    size = YAKU_MEMO_SIZE
    empties: dict[int, tuple[Entry, int]] = {}  # units -> the memo's (EMPTY, units)
    # what the charged kinds use: the same, or (through_eval) the state's yaku_eval uncached here
    k_evaluate: TableFn = _unbound
    k_keep = k_lasting = k_through = False
    sizes: frozenset[int] | range = ANY_SIZE
    k_sizes: frozenset[int] | range = ANY_SIZE
    # the largest hand whose results the charged kinds and `claimed` keep across rounds (-1: none,
    # so one test picks the path): k_placed when keyed by the class of the seat's place (class 0
    # for every seat when `seatless`), else k_kept (keyed by seat; k_placed is then -1)
    k_kept = k_placed = -1

    def bind(state: TableState, through: TableFn | None) -> None:
        nonlocal evaluate, keep, lasting, by_dealer, kept, size, k_evaluate, k_keep, k_lasting, k_through
        nonlocal sizes, k_sizes, places, classes, seat_class, order_free, valid, seatless, k_kept, k_placed
        evaluate, keep, by_dealer = state.evaluate, state.keep, state.by_dealer
        places, order_free, valid = state.places, state.order_free, frozenset(range(state.deck))
        classes, seat_class = {}, {}
        seatless = places is not None and not places.comparisons
        # (through a watcher's yaku_eval every charged call goes on, so the watcher sees it)
        sizes, k_sizes = state.sizes, (state.sizes if through is None else ANY_SIZE)
        lasting = state.keep and state.lasting
        kept, size = state.kept, state.size
        k_evaluate, k_keep, k_lasting = (evaluate, keep, lasting) if through is None else (through, False, False)
        k_through = through is not None
        k_kept = YAKU_MEMO_CARDS if k_lasting else -1
        k_placed = k_kept if places is not None else -1

    def key_of(ctx: Any, cards: list[int], seat: int) -> tuple[Any, ...]:
        # the key of a hand of at most YAKU_MEMO_CARDS cards of a table kept across rounds; a
        # seat's class, once found, is in seat_class (read there first by the callers)
        n, d = ctx.n, ctx.dealer
        if places is None:
            return (seat, *cards, n, d if by_dealer else 0, table)
        try:
            return (seat_class[n][d][seat], *cards, n, (), table)
        except (KeyError, TypeError):
            pass
        if not (type(seat) is int and type(d) is int and -1 < seat < n and -1 < d < n):
            # a seat or dealer off the table: every seat one class all the same when seatless
            return (0, *cards, n, (), table) if seatless else (seat, *cards, n, d if by_dealer else 0, table)
        if seatless:
            cls = 0
        else:
            at = classes.get(n)
            if at is None:
                at = classes[n] = places.classes(n)
            cls = at[(seat - d) % n]
        seat_class.setdefault(n, {}).setdefault(d, {})[seat] = cls  # (found from now on)
        return (cls, *cards, n, (), table)

    def other_orders(key: tuple[Any, ...], cards: list[int]) -> list[tuple[Any, ...]]:
        # the keys of the same hand's cards in its other orders, when they give the same results
        # (an order-free table and a key by class, which the caller tests; cards all of the deck):
        # kept with it
        if not all(c in valid for c in cards):
            return []
        head, tail = key[:1], key[1 + len(cards):]
        return [head + p + tail for p in set(permutations(cards)) if list(p) != cards]

    def evaluated(ctx: Any, key: tuple[Any, ...], cards: list[int], seat: int) -> Entry:
        # not in the memo (or the units left would run out part-way: evaluated, to fail where
        # it does); kept there
        before = ctx.budget
        hits = evaluate(ctx, cards, seat)
        got = entry_of(hits) if hits else EMPTY
        if len(kept) >= size:
            kept.clear()  # bounded memory: the hands seen most come back soon enough
            empties.clear()
        units = before - ctx.budget
        if got is EMPTY:  # most hands: one (no yaku, units) pair shared by all that cost as much
            pair = empties.get(units)
            if pair is None:
                pair = empties[units] = (EMPTY, units)
        else:
            pair = (got, units)
        # flat tuples of plain values: the garbage collector stops tracking most of them, so a
        # full memo does not slow every collection
        kept[key] = pair
        # (other orders only for an order-free table's key by class, and while there is room)
        if order_free and key[-2] == () and len(kept) < size // 2:
            if len(cards) == 2:  # (most hands kept: their other order written out)
                a, b = cards
                if a != b and a in valid and b in valid:
                    kept[(key[0], b, a, key[3], (), table)] = pair  # (key: class, a, b, seat count, (), table)
            else:
                for other in other_orders(key, cards):
                    kept[other] = pair
        return got

    def for_round(ctx: Any, key: tuple[Any, ...], cards: list[int], seat: int) -> Entry:
        # a table kept for the round: the round's cache holds (entry, units its evaluation
        # spent), charged at every call as the memo's are (evaluated again if they would run out
        # part-way, to fail where it would)
        cache = ctx.yaku_cache
        pair = cache.get(key)
        if pair is not None and ctx.budget >= pair[1]:
            ctx.budget -= pair[1]
            got: Entry = pair[0]
            return got
        before = ctx.budget
        hits = evaluate(ctx, cards, seat)
        got = entry_of(hits) if hits else EMPTY
        cache[key] = (got, before - ctx.budget)
        return got

    def entry(ctx: Any, cards: list[int], seat: int) -> Entry:
        if len(cards) not in sizes:
            return EMPTY
        if lasting and len(cards) <= YAKU_MEMO_CARDS:
            key = key_of(ctx, cards, seat)
            got, units = kept.get(key, NOT_KEPT)
            if ctx.budget >= units:
                # charged the units its evaluation spent, every time, so a round spends (and a
                # search bot's playouts are capped by) the same as evaluating it would
                ctx.budget -= units
                return got
            return evaluated(ctx, key, cards, seat)
        if keep:
            return for_round(ctx, (table, seat, *cards), cards, seat)  # (one flat tuple: cheap to build and hash)
        return entry_of(evaluate(ctx, cards, seat))

    def claimed(ctx: Any, cards: list[int], seat: int) -> list[str]:
        # the claim step's ids (uncharged, as the step has always been)
        k = len(cards)
        if k not in k_sizes:
            return []
        key: tuple[Any, ...]
        if k <= k_placed:  # (keyed as in `kind`)
            n = ctx.n
            try:
                key = (seat_class[n][ctx.dealer][seat], cards[0], cards[1], n, (), table) if k == 2 \
                    else (seat_class[n][ctx.dealer][seat], *cards, n, (), table)
            except (KeyError, TypeError):
                key = key_of(ctx, cards, seat)
        elif k <= k_kept:
            key = (seat, *cards, ctx.n, ctx.dealer if by_dealer else 0, table)
        elif k_keep:
            return [*for_round(ctx, (table, seat, *cards), cards, seat)[1]]
        elif k_through:
            return [h.id for h in ctx.yaku_eval(table, cards, seat)]
        else:
            return [h.id for h in evaluate(ctx, cards, seat)]
        got, units = kept.get(key, NOT_KEPT)
        if ctx.budget >= units:
            ctx.budget -= units
        else:
            got = evaluated(ctx, key, cards, seat)
        return [*got[1]]

    def charged(i: int) -> Callable[[Any, list[int], int], Any]:
        """`entry` charged, then its item i: the ids (a fresh list), the value or the rank."""
        fresh = i == 1  # ids: a list the caller may keep or change
        none = EMPTY[i]
        cost = YAKU_CALL_COST  # (read as a closure cell, not a global)

        def kind(ctx: Any, cards: list[int], seat: int) -> Any:
            k = len(cards)
            left = ctx.budget - cost - k
            ctx.budget = left
            if left < 0:
                raise EvalError(EXHAUSTED)
            if k not in k_sizes:
                return [] if fresh else none
            key: tuple[Any, ...]
            if k <= k_placed:
                # most calls: a table kept by the class of the seat's place, its key written out
                # as key_of makes it (a seat not found yet, or anything unusual, goes there)
                n = ctx.n
                try:
                    if k == 2:
                        key = (seat_class[n][ctx.dealer][seat], cards[0], cards[1], n, (), table)
                    else:
                        cls = seat_class[n][ctx.dealer][seat]
                        key = (cls, cards[0], cards[1], cards[2], n, (), table) if k == 3 \
                            else (cls, *cards, n, (), table)
                except (KeyError, TypeError):
                    key = key_of(ctx, cards, seat)
            elif k <= k_kept:  # (a table that does not turn: by seat)
                key = (seat, *cards, ctx.n, ctx.dealer if by_dealer else 0, table)
            elif k_keep:
                got = for_round(ctx, (table, seat, *cards), cards, seat)
                return [*got[1]] if fresh else got[i]
            else:
                got = entry_of(k_evaluate(ctx, cards, seat))
                return [*got[1]] if fresh else got[i]
            # from the memo, charged the units its evaluation spent (see `entry`); else evaluated
            got, units = kept.get(key, NOT_KEPT)
            if left >= units:
                ctx.budget = left - units
            else:
                got = evaluated(ctx, key, cards, seat)
            return [*got[1]] if fresh else got[i]
        return kind

    ids, value, rank = charged(1), charged(2), charged(3)

    def new(ctx: Any, cards: list[int], card: int, seat: int) -> list[str]:
        # new_yaku(): charged as two evaluations, each checked as it is charged
        left = ctx.budget - YAKU_CALL_COST - len(cards)
        ctx.budget = left
        if left < 0:
            raise EvalError(EXHAUSTED)
        left -= YAKU_CALL_COST + len(cards)
        ctx.budget = left
        if left < 0:
            raise EvalError(EXHAUSTED)
        if k_through:
            return new_yaku(ctx.yaku_eval, table, list(cards), card, seat)
        have = entry(ctx, cards, seat)[1]
        return [y for y in entry(ctx, [*cards, card], seat)[1] if y not in have]

    # named for `rulekit show --compiled` (the table as an escaped literal)
    for fn, kind in ((ids, "yaku"), (value, "yaku_value"), (rank, "yaku_rank"), (claimed, "claim"),
                     (new, "new_yaku")):
        fn.__qualname__ = fn.__name__ = f"{kind}({table!r})"
    return entry, ids, value, rank, claimed, new, bind


def _unbound(ctx: Any, cards: list[int], seat: int) -> Any:
    """A table's function before its game binds it: through the state's own evaluator."""
    raise RuntimeError("a yaku table was called before its game was made")  # pragma: no cover


KINDS = {"yaku": "ids", "yaku_value": "value", "yaku_rank": "rank", "new_yaku": "new"}


class YakuCalls:
    """A game's TableCalls, made while its expressions are compiled (`caller`) and bound to the
    game's tables whenever a game state is made (Game.yaku_eval_for)."""

    def __init__(self) -> None:
        self.tables: dict[str, TableCalls] = {}
        # set while a watcher wraps game states' yaku_eval (the site's example hands): every call
        # then goes through ctx.yaku_eval, so the watcher sees it (same results, more slowly)
        self.through_eval = False
        # the last binding (Game.bind_yaku): each table's entry, and what it was made from
        self.entries: dict[str, Callable[..., Entry]] | None = None
        self.sig: tuple[Any, ...] = ()
        self.memo: Any = None

    def table(self, table: str) -> TableCalls:
        """The table's functions (made when first asked)."""
        got = self.tables.get(table)
        if got is None:
            got = self.tables[table] = TableCalls(table)
        return got

    def caller(self, fname: str, table: str) -> Callable[..., Any] | None:
        """The direct function generated code calls for `fname(table, cards, seat)` with a constant
        table: (ctx, cards, seat) -> what the registered function gives; None for other functions."""
        kind = KINDS.get(fname)
        return None if kind is None else getattr(self.table(table), kind)

    def bind(self, states: dict[str, TableState]) -> dict[str, Callable[..., Entry]]:
        """Every table's functions to its state (one no state names goes through ctx.yaku_eval, as
        do the charged kinds while `through_eval`); each table's `entry` function."""
        for name in states:
            self.table(name)
        for name, calls in self.tables.items():
            state = states.get(name)
            if state is None:
                state = TableState(_through(name))
            calls.bind(state, _through(name) if self.through_eval else None)
        return {name: self.tables[name].entry for name in states}


def _through(table: str) -> TableFn:
    """A table evaluated through the state's yaku_eval (which keeps results as its game allows)."""
    def through(ctx: Any, cards: list[int], seat: int) -> Any:
        return ctx.yaku_eval(table, cards, seat)
    return through

"""A compiled, runnable game: one variant with one deck and fixed option values."""
from __future__ import annotations

import random
from _random import Random as _CRandom
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence, TypeVar

from rulekit.lang.decks import Deck
from rulekit.core.errors import RuleError, Span, error
from rulekit.lang.model import Variant
from rulekit.lang.expr.scope import EVAL_BUDGET
from rulekit.engine.context import Ctx
from rulekit.engine.extras import Extra
from rulekit.engine.roundgen import RoundFn, RoundsFn, round_functions
from rulekit.engine.roundstart import game_vars, round_reset
from rulekit.engine.steps import RUNTIME_ERRORS, Choice, located_error
from rulekit.engine.yakucall import ANY_SIZE, YAKU_MEMO_SIZE, Entry, TableState, YakuCalls
from rulekit.engine.yakugen import hand_sizes
from rulekit.engine.yakuturn import Places, order_free, turning_places

_SEED = _CRandom.seed  # the C seeding under random.Random.seed
_F = TypeVar("_F")  # what a generator made (a function, or the round's two)

# a compiled expression or step list: it reads (and steps change) one game state
CtxFn = Callable[[Ctx], Any]
# evaluates a yaku table for some cards and a seat: (table, cards, seat) -> hits
YakuEval = Callable[[str, list[int], int], Sequence["YakuHit"]]


@dataclass(frozen=True)
class YakuMemo:
    """A game's yaku results kept across rounds, for the tables whose rules read nothing but the
    cards, the seat, the options, the seat count and (`by_dealer`) the dealer, and hands of at
    most yakucall.YAKU_MEMO_CARDS cards (see Game.yaku_eval_for)."""

    lasting: frozenset[str]  # the tables kept
    by_dealer: frozenset[str]  # those that read the dealer (the dealer is part of their key)
    # those whose results turn with the table (engine.yakuturn): kept by the class of the seat's
    # place from the dealer instead of by seat and dealer (see yakucall._table_functions)
    turning: dict[str, Places] = field(default_factory=dict)
    # those whose results do not depend on the order of the cards (yakuturn.order_free)
    order_free: frozenset[str] = frozenset()
    # (seat, *cards, seat count, dealer or 0, table) -> (the evaluation's entry: hits, ids, value,
    # rank; the budget units it spent)
    kept: dict[tuple[Any, ...], tuple[Entry, int]] = field(default_factory=dict)


@dataclass
class RoundPlans:
    """What a game works out once and then uses every round (filled in when first needed)."""

    card_index: dict[str, int] | None = None
    in_play: dict[int, tuple[int, ...]] = field(default_factory=dict)  # table size -> cards in play
    zones: list[tuple[str, str, int]] | None = None  # (zone, kind, count)
    # table size -> a round's start and a game's variables' start, generated (engine.roundstart)
    round_starts: dict[int, Callable[[Ctx], None]] = field(default_factory=dict)
    game_starts: dict[int, Callable[[Ctx], None]] = field(default_factory=dict)
    yaku_memo: YakuMemo | None = None  # yaku results kept across rounds
    # (id of the phases, table size) -> (those phases, the round played over them and the rounds
    # of a simulation: engine.roundgen); a game copied with other phases shares these plans
    # (statsdecl), so the phases are checked
    rounds: dict[tuple[int, int], tuple[list[Any], tuple[RoundFn, RoundsFn]]] = field(default_factory=dict)


@dataclass(frozen=True)
class YakuHit:
    """A yaku a collection of cards makes: id, value and rank for that seat."""

    id: str
    value: Any
    rank: Any
    group: str


def add_grouped(hits: list[YakuHit], best_in_group: dict[str, int], hit: YakuHit) -> None:
    """Add a hit of a yaku group: only the group's best (by rank, then value) is kept."""
    j = best_in_group.get(hit.group)
    if j is not None:
        old = hits[j]
        if (hit.rank, hit.value) > (old.rank, old.value):
            hits[j] = hit
        return
    best_in_group[hit.group] = len(hits)
    hits.append(hit)


@dataclass
class YakuEntry:
    """A compiled yaku: when it applies, who may claim it, what it is worth."""

    id: str
    names: dict[str, str]
    group: str
    when: CtxFn
    claim: CtxFn | None
    value: CtxFn
    rank: CtxFn
    description: str = ""


@dataclass
class Phase:
    """A compiled phase: an id, an optional entry condition and its steps."""

    id: str
    name: str
    when: CtxFn | None
    run: CtxFn
    span: Span


@dataclass
class Game:
    """Everything needed to play: deck tables, zones, vars, phases, yaku, choices, policies."""

    variant: Variant
    deck: Deck
    deck_name: str
    options: dict[str, Any]
    card_ids: tuple[str, ...]
    phases: list[Phase]
    yaku: dict[str, list[YakuEntry]]
    choices: dict[str, list[Choice]]
    policies: dict[str, dict[str, Any]]
    rounds: CtxFn
    first_dealer: CtxFn | None
    end_when: CtxFn | None
    start_chips: int
    deck_zone: str
    var_init: dict[str, CtxFn]
    preset: str | None = None
    house: tuple[str, ...] = ()
    extra: Extra = field(default_factory=Extra)  # display, what build read from game:, caches (engine.extras)
    # reads declared statistics during play (rulekit.engine.statsdecl); None: nothing is read, no cost
    observer: Any = None
    # the engine's own parts, set by rulekit.engine.build: each yaku table as generated code (None:
    # the closures), which tables' results may be kept for a round, and `first_dealer: random`
    yaku_fns: dict[str, Callable[..., list[YakuHit]]] | None = None
    yaku_cacheable: dict[str, bool] = field(default_factory=dict)
    yaku_calls: YakuCalls | None = None  # the functions generated expressions call (engine.yakucall)
    procedures: dict[str, CtxFn] = field(default_factory=dict)  # each procedure as it runs (rulekit show --compiled)
    random_first_dealer: bool = False
    plans: RoundPlans = field(default_factory=RoundPlans)

    @property
    def id(self) -> str:
        return self.variant.meta.id

    @property
    def card_index(self) -> dict[str, int]:
        """Card id -> index in this game's deck."""
        if self.plans.card_index is None:
            self.plans.card_index = {cid: i for i, cid in enumerate(self.card_ids)}
        return self.plans.card_index

    def in_play(self, n: int) -> tuple[int, ...]:
        """The cards (deck indexes, in deck order) in play at a table of `n`: the deck's `remove`
        may take some out of play at some table sizes only."""
        cache = self.plans.in_play
        got = cache.get(n)
        if got is None:
            out = self.deck.out_of_play.get(n, frozenset())
            got = cache[n] = tuple(i for i, cid in enumerate(self.card_ids) if cid not in out)
        return got

    def player_sizes(self) -> tuple[int, ...]:
        """The table sizes these rules play: players.sizes under the game's options, else min..max."""
        meta = self.variant.meta
        return self.extra.player_sizes or tuple(range(meta.players_min, meta.players_max + 1))

    def sizes_text(self) -> str:
        """The table sizes in words: '2 to 7', '7 or 8', '4, 6 or 8'."""
        return sizes_text(self.player_sizes())

    def card_name(self, c: int) -> str:
        card = self.deck.cards[c]
        return card.name

    # -- state ---------------------------------------------------------------
    def new_ctx(self, n: int, seed: int, decide: Callable[..., Any] | None, logging: bool = False) -> Ctx:
        """A fresh game state for `n` seats with its own seeded random generator."""
        if n not in self.player_sizes():
            raise RuleError(error(Span(self.variant.file, 1, 1), "E050",
                                  f"{self.id} is for {self.sizes_text()} players, found {n}"))
        ctx = Ctx(self, n, random.Random(seed), decide, logging)
        ctx.yaku_eval = self.yaku_eval_for(ctx)
        self.restart(ctx)
        return ctx

    def restart(self, ctx: Ctx, seed: int | None = None, round_next: bool = False) -> None:
        """Put `ctx` back at the start of a game (reseeded when a seed is given): what new_ctx
        gives, reusing its objects (simulations restart one state for every round).

        `round_next`: a round starts at once (play_round resets zones and seen-masks itself), so
        they are left as they are here."""
        if seed is not None:
            rng = ctx.rng
            if type(rng) is random.Random and type(seed) is int:
                # what Random.seed does for a whole number, without its Python-level checks
                # (a simulation reseeds every round; tests/test_simulate.py compares the states)
                _SEED(rng, seed)
                rng.gauss_next = None  # type: ignore[attr-defined]  # (set by Random.seed; not in its stubs)
            else:
                rng.seed(seed)
        n = ctx.n
        ctx.events, ctx.records, ctx.loc, ctx.vars, ctx.yaku_cache = [], {}, {}, {}, {}
        ctx.dealer = ctx.next_dealer = ctx.round_no = ctx.steps = ctx.depth = 0
        ctx.where, ctx.stack = "", None
        ctx.chips = [self.start_chips] * n
        ctx.budget, ctx.spent = EVAL_BUDGET, 0
        if not round_next:
            ctx.seen = [0] * len(self.card_ids)
            self._empty_zones(ctx)
        start = self.plans.game_starts.get(n)
        if start is None:  # written once per game and table size: simulations restart every round
            start = self.plans.game_starts[n] = self._generated(game_vars(self, n))
        try:
            start(ctx)
        except RUNTIME_ERRORS as exc:
            raise located_error(exc, Span(self.variant.file, 1, 1), "game start") from None

    def _empty_zones(self, ctx: Ctx) -> None:
        """Every zone empty (single zones a list, others a list of piles)."""
        plan = self.plans.zones
        if plan is None:  # worked out once per game: this runs every round
            plan = self.plans.zones = [(zname, z.kind, z.count) for zname, z in self.variant.zones.items()]
        zones, n = ctx.zones, ctx.n
        for zname, kind, count in plan:
            zones[zname] = [] if kind == "single" else [[] for _ in range(n if kind == "player" else count)]

    def reset_round(self, ctx: Ctx) -> None:
        """Every card back to the deck zone in deck order; round variables to their start."""
        reset = self.plans.round_starts.get(ctx.n)
        if reset is None:  # written once per game and table size (rulekit.engine.roundstart)
            reset = self.plans.round_starts[ctx.n] = self._generated(round_reset(self, ctx.n, self._pot_left))
        reset(ctx)

    def _pot_left(self, ctx: Ctx, vname: str) -> None:
        """A round-scope pot still holds chips as a new round starts: resetting would make them vanish."""
        vnode = self.variant.tree.value["vars"].value[vname]
        raise RuleError(error(vnode.key_span or vnode.span, "E061",
                              f"pot '{vname}' still holds {ctx.vars[vname]} chips when a new round "
                              "starts; pay it out, or declare it with scope: game so it carries over"))

    def _generated(self, fn: _F | None) -> _F:
        """A generated start of a round or game; one Python refused (never seen) is an error of the file."""
        if fn is None:
            raise RuleError(error(Span(self.variant.file, 1, 1), "E061",
                                  "the zones and variables of these rules are too many to set up a round"))
        return fn

    def yaku_eval_for(self, ctx: Ctx) -> YakuEval:
        """The function the engine (steps, policies, the table) calls to evaluate yaku, bound to
        this game state; it binds the direct functions generated expressions call too (engine.yakucall).

        A table whose rules read nothing that changes during a round (self.yaku_cacheable) gives
        the same yaku for the same cards and seat all round: its results are kept in
        ctx.yaku_cache, so a hand claimed after it was assessed is not evaluated again. One that
        reads no more than the seat count and the dealer gives them in every round: those are
        kept for the game instead (YakuMemo). Either way a result is kept with the budget units
        its evaluation spent, which every call taking it is charged as if it had evaluated the
        hand itself, so what a round spends (and a search bot's playouts are capped by) is the
        same whatever was kept."""
        entries = self.bind_yaku()

        def yaku_eval(table: str, cards: list[int], seat: int) -> Sequence[YakuHit]:
            hits: Sequence[YakuHit] = entries[table](ctx, cards, seat)[0]
            return hits
        return yaku_eval

    def bind_yaku(self) -> dict[str, Callable[..., Entry]]:
        """Each table's functions bound to what the game has now (its generated tables, which
        may be kept, its memo); each table's uncharged `entry` function."""
        calls = self.yaku_calls
        if calls is None:
            calls = self.yaku_calls = YakuCalls()
        generated = self.yaku_fns
        memo = self.yaku_memo()
        # bound already to these parts (a search bot makes a state per playout): nothing to do
        sig = (tuple(generated.values()) if generated else None, tuple(self.yaku_cacheable.items()),
               id(self.yaku), YAKU_MEMO_SIZE, calls.through_eval)
        if calls.entries is not None and calls.sig == sig and calls.memo is memo:
            return calls.entries
        states = {}
        for t, es in self.yaku.items():
            keep = self.yaku_cacheable.get(t, False)
            # a generated table returns at once for hands of sizes it cannot use (yakugen)
            sizes = hand_sizes(es) if generated else None
            states[t] = TableState(generated[t] if generated else _closure_table(es), keep=keep,
                                   lasting=keep and t in memo.lasting, by_dealer=t in memo.by_dealer,
                                   places=memo.turning.get(t), order_free=t in memo.order_free,
                                   deck=len(self.card_ids),
                                   kept=memo.kept, size=YAKU_MEMO_SIZE,
                                   sizes=ANY_SIZE if sizes is None else sizes)
        calls.entries, calls.sig, calls.memo = calls.bind(states), sig, memo
        return calls.entries

    def yaku_memo(self) -> YakuMemo:
        """The game's YakuMemo (made when first needed)."""
        memo = self.plans.yaku_memo
        if memo is None:
            steady = {"dealer", "n_players", "seats"}
            reads = {t: frozenset().union(*(getattr(f, "deps", {"?"}) for y in es
                                           for f in (y.when, y.claim, y.value, y.rank) if f is not None))
                     for t, es in self.yaku.items()}
            lasting = frozenset(t for t, r in reads.items() if r <= steady)
            parts = {t: [f for y in self.yaku[t] for f in (y.when, y.claim, y.value, y.rank) if f is not None]
                     for t in sorted(lasting)}
            memo = self.plans.yaku_memo = YakuMemo(
                lasting=lasting, by_dealer=frozenset(t for t, r in reads.items() if "dealer" in r),
                turning={t: p for t, fns in parts.items() if (p := turning_places(fns)) is not None},
                order_free=frozenset(t for t, fns in parts.items() if order_free(fns)))
        return memo

    def _yaku_evaluator(self, ctx: Ctx) -> YakuEval:
        """Each table evaluated afresh, generated or as closures (nothing kept, nothing charged)."""
        generated = self.yaku_fns
        tables = generated or {t: _closure_table(es) for t, es in self.yaku.items()}

        def yaku_eval(table: str, cards: list[int], seat: int) -> list[YakuHit]:
            hits: list[YakuHit] = tables[table](ctx, cards, seat)
            return hits
        return yaku_eval

    # -- play ----------------------------------------------------------------
    def play_round(self, ctx: Ctx) -> None:
        """Play one round on `ctx` (redealing on a misdeal)."""
        self.round_player(ctx.n)(ctx, self.observer)

    def round_player(self, n: int) -> RoundFn:
        """The function playing one round at a table of `n`: `play(ctx, observer or None)`, written
        once per game and table size (rulekit.engine.roundgen)."""
        return self._round_functions(n)[0]

    def rounds_player(self, n: int) -> RoundsFn:
        """The function playing a simulation's rounds at a table of `n`, one per seed (roundgen.RoundsFn)."""
        return self._round_functions(n)[1]

    def _round_functions(self, n: int) -> tuple[RoundFn, RoundsFn]:
        key = (id(self.phases), n)
        got = self.plans.rounds.get(key)
        if got is None or got[0] is not self.phases:
            rounds = self.plans.rounds
            if len(rounds) >= 64:  # (copies of a game with other phases are few; a bound all the same)
                rounds.clear()
            got = rounds[key] = (self.phases, self._generated(round_functions(self, n, self._pot_left)))
        return got[1]

    def cards_everywhere(self, ctx: Ctx) -> list[int]:
        """Every card index in every zone (for the conservation invariant)."""
        out: list[int] = []
        for zname, z in self.variant.zones.items():
            zs = ctx.zones[zname]
            if z.kind == "single":
                out.extend(zs)
            else:
                for pile in zs:
                    out.extend(pile)
        return out

    def pots_total(self, ctx: Ctx) -> Any:
        return sum(ctx.vars[v] for v, d in self.variant.vars.items() if d.pot)

    def visible(self, ctx: Ctx, seat: int, zname: str, index: int | None, card: int) -> bool:
        """Whether `seat` may see `card` lying in zone `zname` (pile `index`)."""
        z = self.variant.zones[zname]
        if z.visibility == "public":
            return True
        if z.visibility == "owner" and z.kind == "player" and index == seat:
            return True
        return bool(ctx.seen[card] & (1 << seat)) or ctx.seen[card] == -1

    def observation(self, ctx: Ctx, seat: int) -> dict[str, Any]:
        """What `seat` can see: card ids where visible, '?' where not; variables; chips."""
        ids = self.card_ids
        zones: dict[str, Any] = {}
        for zname, z in self.variant.zones.items():
            if z.kind == "single":
                zones[zname] = [ids[c] if self.visible(ctx, seat, zname, None, c) else "?" for c in ctx.zones[zname]]
            else:
                zones[zname] = [[ids[c] if self.visible(ctx, seat, zname, i, c) else "?" for c in pile]
                                for i, pile in enumerate(ctx.zones[zname])]
        return {"seat": seat, "dealer": ctx.dealer, "round": ctx.round_no, "zones": zones,
                "vars": self.visible_vars(ctx, seat), "chips": list(ctx.chips)}

    def visible_vars(self, ctx: Ctx, seat: int) -> dict[str, Any]:
        """The variables `seat` may see (engine.varvis): public ones whole, its own slot of 'owner'
        ones (None in the other slots), hidden ones not at all."""
        vis = self.extra.caches.var_visibility
        if vis is None:
            from rulekit.engine.varvis import var_visibility
            vis = self.extra.caches.var_visibility = var_visibility(self.variant)
        out: dict[str, Any] = {}
        for k, v in ctx.vars.items():
            how = vis.get(k, "public")
            if how == "public":
                out[k] = list(v) if isinstance(v, list) else v
            elif how == "owner" and isinstance(v, list) and self.variant.vars[k].kind == "player":
                out[k] = [x if i == seat else None for i, x in enumerate(v)]
        return out


def sizes_text(sizes: tuple[int, ...]) -> str:
    """Table sizes in words: a run of three or more as 'a to b', else a list ending in 'or'."""
    sizes = tuple(sorted(sizes))
    if len(sizes) >= 3 and sizes[-1] - sizes[0] == len(sizes) - 1:
        return f"{sizes[0]} to {sizes[-1]}"
    words = [str(x) for x in sizes]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _closure_table(entries: list[YakuEntry]) -> Callable[..., list[YakuHit]]:
    """A table evaluated by its compiled closures: (ctx, cards, seat) -> hits, best per group."""
    def table(ctx: Ctx, cards: list[int], seat: int) -> list[YakuHit]:
        # yaku see only `cards` and `seat` as locals; the caller's locals are put back after
        saved = ctx.loc
        ctx.loc = {"cards": cards, "seat": seat}
        try:
            hits: list[YakuHit] = []
            best_in_group: dict[str, int] = {}
            for y in entries:
                if y.claim is not None and not y.claim(ctx):
                    continue
                if not y.when(ctx):
                    continue
                hit = YakuHit(y.id, y.value(ctx), y.rank(ctx), y.group)
                if y.group:
                    add_grouped(hits, best_in_group, hit)
                else:
                    hits.append(hit)
            return hits
        finally:
            ctx.loc = saved
    return table

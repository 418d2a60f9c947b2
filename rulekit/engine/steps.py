"""What compiled rule steps share at run time: limits, control-flow exceptions, decisions,
located run-time errors, the shuffle, and small helpers the step compiler's closures call.

The compiler itself is `rulekit.engine.stepcompile` (with `stepchoice` for decisions and payments).
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, NoReturn

from rulekit.core.errors import RuleError, Span, did_you_mean, error
from rulekit.lang.expr import EvalError
from rulekit.lang.expr.functions import charge_text, hashable_value
from rulekit.lang.expr import types as T
from rulekit.lang.source import expr_span
from rulekit.engine.places import step_of

Run = Callable[[Any], None]
Fn = Callable[[Any], Any]  # a function of the state
ALL_SEATS = -1  # seen-mask meaning "every seat"


def located_error(exc: BaseException, fallback: Span, where: str = "") -> RuleError:
    """A RuleError for an exception raised while carrying out rules, at the best known place."""
    crumbs = (f"in phase '{where}'",) if where else ()
    if isinstance(exc, RuleError):
        return exc
    fallback = step_of(exc.__traceback__) or fallback  # the step whose generated code raised it
    if isinstance(exc, EvalError):
        root: Any = exc.root
        if root is not None and root.span is not None:
            span = expr_span(root.span, root.style, exc.offset, exc.length)
            if root.where:
                special = root.where.split(" ", 1)[0] in ("procedure", "yaku", "policy", "init")
                crumbs = (f"in {root.where}",) if special else (f"in phase '{root.where}'",)
            return RuleError(error(span, "E034", exc.message, crumbs=crumbs))
        return RuleError(error(fallback, "E034", exc.message, crumbs=crumbs))
    return RuleError(error(fallback, "E061", f"cannot be carried out: {_plain(exc)}", crumbs=crumbs))


def _plain(exc: BaseException) -> str:
    """What went wrong, in an author's words (Python's own message kept after it, for the curious)."""
    if isinstance(exc, RecursionError):  # (Python words it by where the limit was met: not told)
        return "the rules call themselves, or nest, too deeply to finish (Python's recursion limit)"
    said = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, IndexError):
        return f"it names a pile or a position past the last one ({said})"
    if isinstance(exc, KeyError):
        return f"it names something that does not exist here ({said})"
    if isinstance(exc, (TypeError, AttributeError)):
        return f"a value of the wrong kind for this step ({said})"
    return said


MAX_ACTIONS = 20_000  # legal actions listed at one decision
MAX_LIST = 100_000  # items in a list kept in a variable
MAX_CALL_DEPTH = 100  # nested procedure calls


RUNTIME_ERRORS = (EvalError, TypeError, ValueError, IndexError, KeyError, AttributeError, ZeroDivisionError,
                  OverflowError, RecursionError)


class EndRound(Exception):
    """Raised by `end_round`: the round stops at once."""


class LoopBreak(Exception):
    """A `break` step: the innermost for/repeat loop stops."""


class ProcReturn(Exception):
    """A `return` step: the procedure ends with this value."""

    def __init__(self, value: Any):
        super().__init__("return")
        self.value = value


NO_VALUE = object()  # what a procedure written out in place holds when it ended without a return step


def returned(exc: ProcReturn) -> Any:
    """The value a return step gave (generated code names no attributes)."""
    return exc.value


class Redeal(Exception):
    """Raised by `redeal`: the round restarts with a fresh shuffle (misdeal)."""


@dataclass
class Choice:
    """A decision point: who chooses among which parameter values, under which condition."""

    id: str
    prompt: str
    params: tuple[str, ...]
    types: tuple[str, ...]
    span: Span
    scope_locals: dict[str, str] = field(default_factory=dict)
    policies: dict[str, list[Any]] = field(default_factory=dict)  # policy name -> [(when_fn, prefer_fn)]
    labels: dict[str, dict[str, str]] = field(default_factory=dict)  # param -> value text -> words
    told: dict[str, dict[str, str]] = field(default_factory=dict)  # param -> value text -> others' words (`told`)
    ask: dict[str, str] = field(default_factory=dict)  # param -> question asked for it alone
    unordered: frozenset[str] = frozenset()  # params whose lists of cards are sets: shown in deck order
    texts: Any = None  # (ctx, name) -> {"": prompt, param: question} when the prompt or a question has {expression}s
    fixed_values: dict[str, tuple[Any, ...]] = field(default_factory=dict)  # param -> its values, when they are constant
    hints: dict[str, list[Any]] = field(default_factory=dict)  # param -> [(when fn or None, text fn)] (`hints`)
    forced: list[Any] = field(default_factory=list)  # [(when fn or None, text fn)]: why one answer only (`forced`)
    alike: dict[str, tuple[Any, Any]] = field(default_factory=dict)  # param -> (key fn, say): values alike to a person

    def forced_why(self, ctx: Any) -> str:
        """Why the rules leave one answer only here (`forced`), '' when no case holds or none is
        given; reads the state only (the round's budget is as it was before)."""
        if not self.forced:
            return ""
        budget = getattr(ctx, "budget", None)
        try:
            for when, say in self.forced:
                try:
                    if when is None or when(ctx):
                        return str(say(ctx))
                except Exception:  # a reason that cannot be worked out here is not told
                    return ""
            return ""
        finally:
            if budget is not None:
                ctx.budget = budget

    def hint(self, ctx: Any, action: tuple[Any, ...]) -> dict[str, str]:
        """What each value of `action` would lead to (`hints`), as a person reads it at this
        decision: {param: text} for the parameters with a hint that holds. Reads the state only:
        the round's budget and the step's names are as they were before."""
        if not self.hints or ctx is None:
            return {}
        out: dict[str, str] = {}
        with self._bound(ctx, action):
            for param, cases in self.hints.items():
                for when, say in cases:
                    try:
                        if when is None or when(ctx):
                            out[param] = say(ctx)
                            break
                    except (EvalError, RuleError):  # a hint that cannot be worked out here is not shown;
                        break                         # any other error is a bug and must surface
        return out

    def alike_keys(self, ctx: Any, action: tuple[Any, ...]) -> dict[str, Any]:
        """For the parameters with `alike`: {param: key} of `action` (equal keys, the same answer to
        a person); a parameter whose key cannot be worked out here is left out. Reads the state only."""
        if not self.alike or ctx is None:
            return {}
        out: dict[str, Any] = {}
        with self._bound(ctx, action):
            for param, (key, _say) in self.alike.items():
                try:
                    out[param] = hashable_value(key(ctx))
                except (EvalError, RuleError):  # not alike to anything: offered on its own
                    pass
        return out

    @contextmanager
    def _bound(self, ctx: Any, action: tuple[Any, ...]) -> Iterator[None]:
        """The state with this choice's parameters bound to `action`, for reading only: the names
        and the round's budget are as they were before, afterwards."""
        saved, budget = ctx.loc, getattr(ctx, "budget", None)
        try:
            ctx.loc = {**saved, **dict(zip(self.params, action))}
            yield
        finally:
            ctx.loc = saved
            if budget is not None:
                ctx.budget = budget

    def words(self, ctx: Any, name: Callable[[int], str] | None = None) -> tuple[str, dict[str, str]]:
        """The prompt and the per-parameter questions as a person reads them at this decision
        (cards named by `name(card index)` when given, else by their plain names)."""
        if self.texts is None or ctx is None:
            return self.prompt, self.ask
        filled = self.texts(ctx, name)
        return filled.get("", self.prompt), {k: v for k, v in filled.items() if k}


PARAM_KINDS = {"move", "deal", "reveal", "pay", "claim", "choose", "call", "record", "swap_zones"}
STEP_KINDS = ("shuffle", "cut", "move", "deal", "reveal", "let", "set", "add", "if", "for", "repeat",
              "choose", "pay", "record", "claim", "set_dealer", "end_round", "redeal", "call", "swap",
              "say", "break", "return")


def shuffle_list(rng: Any, z: list[int]) -> None:
    """Fisher-Yates from the top down with rejection sampling of getrandbits: the shuffle of
    Python 3.11's random.shuffle, written out so that it costs one call per card less, and so
    that a seed gives the same deal on any Python version."""
    shuffle = _SHUFFLES.get(len(z)) or _shuffler(len(z))
    shuffle(rng.getrandbits, z)


def cut_point(rng: Any, size: int) -> int:
    """Where a zone of `size` cards (at least 2) is cut: rng.randrange(1, size) as Python 3.11's
    random.Random draws it (getrandbits with rejection: the same draws), without its checks and
    its two Python-level calls."""
    n = size - 1
    k = n.bit_length()
    g = rng.getrandbits
    r: int = g(k)
    while r >= n:
        r = g(k)
    return 1 + r


MAX_UNROLLED = 128  # a zone of at most this many cards is shuffled by straight-line code
_SHUFFLES: dict[int, Callable[[Callable[[int], int], list[int]], None]] = {}


def _shuffler(size: int) -> Callable[[Callable[[int], int], list[int]], None]:
    """The shuffle of a zone of `size` cards, as a function of (getrandbits, zone): for the zone
    sizes games have, each position's draw written out with its bound and bit count as numbers
    (no loop, no tuple unpacking per card); larger zones go through the positions in a loop."""
    if size > MAX_UNROLLED:
        plan = tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))

        def looped(getrandbits: Callable[[int], int], z: list[int]) -> None:
            for i, k in plan:
                j = getrandbits(k)
                while j > i:
                    j = getrandbits(k)
                z[i], z[j] = z[j], z[i]
        shuffle = looped
    else:
        lines = ["def shuffle(g, z):", "    pass"]
        for i in range(size - 1, 0, -1):
            k = (i + 1).bit_length()
            lines += [f"    j = g({k})", f"    while j > {i}: j = g({k})", f"    z[{i}], z[j] = z[j], z[{i}]"]
        namespace: dict[str, Any] = {"__builtins__": {}}
        exec(compile("\n".join(lines), f"<shuffle of {size}>", "exec"), namespace)  # noqa: S102 - whole numbers only
        shuffle = namespace["shuffle"]
    if len(_SHUFFLES) < 1000:  # zone sizes are few; a bound all the same
        _SHUFFLES[size] = shuffle
    return shuffle


UNSPAN = Span("<rule>", 0, 0)


def noop_step(ctx: Any) -> None:
    return None


def failed_step(ctx: Any) -> NoReturn:
    raise RuleError(error(UNSPAN, "E061", "this rule did not compile"))


def product_too_big(span: Span, cid: str) -> NoReturn:
    raise RuleError(error(span, "E061", f"choose '{cid}': its options make more combinations than the evaluation "
                          "budget of a round allows; split the decision into smaller choices"))


def too_many_actions(span: Span, cid: str, n: int) -> NoReturn:
    raise RuleError(error(span, "E061", f"choose '{cid}': more than {MAX_ACTIONS} legal actions ({n} so far); "
                          "split the decision into smaller choices"))


def too_many(ctx: Any, span: Span) -> NoReturn:
    raise RuleError(error(span, "E061", f"more than {ctx.step_limit} steps in one round: the rules loop "
                          "without end"))


def stack_cards(ctx: Any, z: list[int], top_ids: list[str]) -> None:
    """Put the named cards on top of a shuffled zone, first named on top (tests, examples)."""
    index = ctx.game.card_index
    want = []
    for cid in top_ids:
        if cid not in index:
            raise RuleError(error(UNSPAN, "E040", f"stacked deck: no card '{cid}'",
                                  hint=did_you_mean(cid, index)))
        want.append(index[cid])
    wanted = set(want)
    if len(wanted) != len(want):
        raise RuleError(error(UNSPAN, "E042", "stacked deck: a card is named twice"))
    missing = [ctx.game.card_ids[c] for c in want if c not in z]
    if missing:
        raise RuleError(error(UNSPAN, "E042", f"stacked deck: {', '.join(missing)} not in the shuffled zone"))
    rest = [c for c in z if c not in wanted]
    z[:] = rest + list(reversed(want))


def render_value(v: Any, t: str, ids: tuple[str, ...], ctx: Any = None) -> Any:
    """An action value as the log writes it; with `ctx`, its length is charged to the round first."""
    from rulekit.engine.agents import render
    if ctx is not None:
        charge_text(ctx, v)
    return render(v, t, ids)


def zone_getter(name: str, idx: Fn | None) -> Fn:
    """A function of the state giving zone `name` (its pile `idx(ctx)` when given); it carries
    `.zone = (name, idx)` so the step generator reads the zone directly."""
    if idx is None:
        get = lambda ctx: ctx.zones[name]  # noqa: E731
    else:
        get = lambda ctx: ctx.zones[name][idx(ctx)]  # noqa: E731
    get.zone = (name, idx)  # type: ignore[attr-defined]
    return get


def zone_label(name: str, idx: Fn | None, ctx: Any) -> str:
    return name if idx is None else f"{name}[{idx(ctx)}]"


# -- the log events of steps generated with their logging (rulekit.engine.stepgen) --------------
def log_shuffle(ctx: Any, name: str, z: list[int]) -> None:
    ids = ctx.game.card_ids
    ctx.log({"t": "shuffle", "zone": name, "order": [ids[c] for c in z]})


def log_cut(ctx: Any, name: str, k: int) -> None:
    ctx.log({"t": "cut", "zone": name, "at": k})


def log_deal(ctx: Any, src: str, dst: str, k: int, order: list[int], face: Any) -> None:
    ev = {"t": "deal", "from": src, "to": dst, "count": k, "players": list(order)}
    if face:
        ev["face"] = face  # a reader needs it to know who saw the cards
    ctx.log(ev)


def log_hide(ctx: Any, cs: list[int]) -> None:
    ids = ctx.game.card_ids
    ctx.log({"t": "hide", "cards": [ids[c] for c in cs]})


def log_swap(ctx: Any, a: str, ai: Fn | None, b: str, bi: Fn | None) -> None:
    # zones by their resolved names (hand[3]), so a reader can follow the cards
    ctx.log({"t": "swap", "zones": [zone_label(a, ai, ctx), zone_label(b, bi, ctx)]})


def log_next_dealer(ctx: Any, why: Fn | None) -> None:
    e = {"t": "next_dealer", "seat": ctx.next_dealer}
    if why is not None:
        e["why"] = why(ctx)
    ctx.log(e)


def log_stop(ctx: Any, kind: str, why: str) -> None:
    ctx.log({"t": kind, "why": why})


def log_record(ctx: Any, name: str, who: Fn | None) -> None:
    ev = {"t": "record", "name": name}
    if who is not None:
        ev["player"] = who(ctx)
    ctx.log(ev)


def log_move(ctx: Any, src: str, si: Fn | None, dst: str, di: Fn | None, got: list[int], face: Any,
             by: Fn | None) -> None:
    ids = ctx.game.card_ids
    ev = {"t": "move", "from": zone_label(src, si, ctx), "to": zone_label(dst, di, ctx), "cards": [ids[c] for c in got]}
    if face:
        ev["face"] = face
    if by is not None:
        ev["by"] = by(ctx)
    ctx.log(ev)


def log_reveal(ctx: Any, cs: list[int], who: Any) -> None:
    ids = ctx.game.card_ids
    ctx.log({"t": "reveal", "cards": [ids[c] for c in cs], "to": who})


def log_say(ctx: Any, render: Fn, about: Fn | None, you: Fn | None) -> None:
    e = {"t": "say", "text": render(ctx)}
    if you is not None and about is not None:  # (given together or not at all)
        e["about"], e["you"] = about(ctx), you(ctx)
    ctx.log(e)


def log_yaku(ctx: Any, table: str, p: int, ids: list[str], cs: list[int]) -> None:
    # the cards say whose hand it is (a column's, a player's) where `player` is only the seat the
    # yaku were evaluated for
    card_ids = ctx.game.card_ids
    ctx.log({"t": "yaku", "table": table, "player": p, "yaku": ids, "cards": [card_ids[c] for c in cs]})


def log_pay(ctx: Any, who_from: Any, who_to: Any, a: Any, reason: str, reason_fn: Fn | None) -> None:
    ev = {"t": "pay", "from": who_from, "to": who_to, "amount": a if isinstance(a, int) else str(a)}
    if reason:
        ev["why"] = reason_fn(ctx) if reason_fn is not None else reason
    ctx.log(ev)


def log_set(ctx: Any, shown: tuple[Any, ...]) -> None:
    """A transcript line per variable set (`show: true`): its new value."""
    ids = ctx.game.card_ids
    for var, idx, t in shown:
        i = idx(ctx) if idx is not None else None
        v = ctx.vars[var] if i is None else ctx.vars[var][i]
        ctx.log({"t": "set", "name": var if i is None else f"{var}[{i}]", "value": shown_value(v, t, ids, ctx)})


def stack_named(ctx: Any, z: list[int], name: str) -> None:
    """A stacked deck's cards for zone `name` on top of it, when it has any (tests, examples)."""
    if name in ctx.stack:
        stack_cards(ctx, z, ctx.stack[name])


def relabel(ctx: Any, z: list[int]) -> None:
    """A sampled deal (rulekit.engine.stepper): unseen cards renamed where the real deal put them,
    after any stack (stacking by name after would undo the renaming of stacked cards); once, at
    the round's deal: later shuffles move what it dealt."""
    z[:] = [ctx.relabel[c] for c in z]
    ctx.relabel = None


def label_key(x: Any) -> str:
    """A label's key as the text of the value it names (true/false lower-case, as in YAML)."""
    return "true" if x is True else "false" if x is False else str(x)


PLACEHOLDER = re.compile(r"(?<!\{)\{(?!\{)([^{}]+)\}")


def shown_value(v: Any, t: str, ids: tuple[str, ...], ctx: Any = None) -> str:
    """A value as a player reads it in a transcript: card ids for cards, plain numbers, words;
    with `ctx`, its length is charged to the round first (text for people costs what it shows)."""
    if ctx is not None:
        charge_text(ctx, v)
    if t == T.CARD and isinstance(v, int) and not isinstance(v, bool):
        return ids[v]
    if isinstance(v, list):
        inner = t[5:-1] if t.startswith("list<") else T.ANY
        if inner == T.INT and all(type(x) is int for x in v):
            return ", ".join(map(str, v))  # the common long case, without a call per item
        return ", ".join(shown_value(x, inner, ids) for x in v)
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)

"""A round's and a game's fresh state, written out as one generated function per game and table
size, so that starting a round costs one call instead of a loop over zones and variables.

`round_reset` empties every zone (the deck zone holding the cards in play, in deck order), clears
the seen-masks, the step's names and the round's yaku results, and sets each round variable to
its start, in the file's order; `game_vars` sets the game variables. Like
rulekit.engine.stepgen, the source holds only this module's tokens and whole numbers: zone and
variable names, the cards in play and the variables' start functions are bound constants (Kn).
"""
from __future__ import annotations

from typing import Any, Callable

import re

from rulekit.lang.expr.codebuild import compile_cached
from rulekit.lang.expr.codegen import FAST_ERRORS, HELPERS, SAFE_BUILTINS
from rulekit.lang.expr.fastcode import fast_code

MAX_PILES_WRITTEN = 64  # piles of a zone written out one by one; a zone of more is made by a loop

StateFn = Callable[[Any], None]


class Source:
    """Lines of a generated function and the constants they read as K0, K1 ..."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.consts: list[Any] = []
        self.sim: list[str] = []  # (a round's source: the lines of its play_rounds, rulekit.engine.roundgen)

    def const(self, value: Any) -> str:
        self.consts.append(value)
        return f"K{len(self.consts) - 1}"

    def text(self, extra: tuple[str, ...]) -> str:
        """The Python source: `_make(K0, K1, ..., *extra)` returning `start(ctx)`."""
        params = ", ".join([*(f"K{i}" for i in range(len(self.consts))), *extra])
        body = "".join(f"        {line}\n" for line in self.lines) or "        pass\n"
        return f"def _make({params}):\n    def start(ctx):\n{body}    return start\n"

    def build(self, extra: dict[str, Any], label: str) -> StateFn | None:
        """The function of `ctx` these lines make (None where Python refuses them)."""
        code = compile_cached(self.text(tuple(extra)), label)
        if code is None:
            return None
        namespace: dict[str, Any] = {"__builtins__": SAFE_BUILTINS, **HELPERS}
        exec(code, namespace)  # noqa: S102 - only this module's tokens and whole numbers
        made: StateFn = namespace["_make"](*self.consts, *extra.values())
        return made

    def start_value(self, init: Any, tag: str) -> str:
        """Code for a variable's start: a whole number or truth value as it is, a plain value as
        its bound constant, an expression's generated code inline (its located code, which
        raises the error placed in the text, run where it fails, as a call of it would), else a
        call of the start function. Lines it needs first are added to `lines`."""
        code = fast_code(init)
        if code is None:
            return f"{self.const(init)}(ctx)"
        body, consts = code.body, code.consts
        if _LITERAL.match(body):
            return body
        if body == "K0":
            return self.const(consts[0])

        def rename(m: re.Match[str]) -> str:
            if m.group(1) == "K":
                return self.const(consts[int(m.group(2))])
            return f"{m.group(1)}{tag}_{m.group(2)}"  # (apart from every other start's)
        written = _TOKEN.sub(rename, body)
        out = f"v{tag}"
        if "L[" in written:
            self.lines.append("L = ctx.loc")
        self.lines += ["try:", f"    {out} = {written}", "except ERRS:", f"    {out} = {self.const(code.slow)}(ctx)"]
        return out


_TOKEN = re.compile(r"\b(K|_p|_t)(\d+)\b")  # an expression's constants and its own Python locals
_LITERAL = re.compile(r"^(\(-\d+\)|-?\d+|True|False|None)$")


def _slots(kind: str, count: int, n: int) -> int:
    """The slots (piles, values) of a per-seat or counted zone or variable at a table of `n`."""
    return n if kind == "player" else count


def round_reset(game: Any, n: int, pot_left: Callable[[Any, str], None]) -> StateFn | None:
    """Game.reset_round for a table of `n`, as one function; `pot_left(ctx, name)` raises the error
    of a round-scope pot that still holds chips. None where Python refuses the source."""
    return round_source(game, n).build({"POT": pot_left, "ERRS": FAST_ERRORS}, "<round start>")


def game_vars(game: Any, n: int) -> StateFn | None:
    """The game variables set to their start at a table of `n` (Game.restart), as one function."""
    return game_source(game, n).build({"ERRS": FAST_ERRORS}, "<game start>")


def round_source(game: Any, n: int) -> Source:
    """The lines and constants of round_reset (its source: `.text(("POT", "ERRS"))`)."""
    src = Source()
    out = src.lines
    out.append("Z = ctx.zones")
    zones = game.variant.zones
    deck = game.deck_zone
    dealt = deck in zones and zones[deck].kind == "single"
    for zname, z in zones.items():
        if z.kind == "single":
            value = f"[*{src.const(game.in_play(n))}]" if dealt and zname == deck else "[]"
        else:
            piles = _slots(z.kind, z.count, n)
            value = f"[{'[], ' * piles}]" if piles <= MAX_PILES_WRITTEN else f"[[] for _ in range({int(piles)})]"
        out.append(f"Z[{src.const(zname)}] = {value}")
    if not dealt:  # (as the loop did: a deck zone that is not a single pile fails or grows as before)
        out.append(f"Z[{src.const(deck)}].extend({src.const(game.in_play(n))})")
    out.append(f"ctx.seen = [0] * {int(len(game.card_ids))}")
    out.append("ctx.loc = {}")
    out.append("ctx.yaku_cache = {}")
    out.append("V = ctx.vars")
    for j, (vname, v) in enumerate(game.variant.vars.items()):
        if v.scope != "round":
            continue
        name = src.const(vname)
        if v.pot:  # resetting would make chips vanish: a pot that carries over must be game-scope
            out.append(f"if V.get({name}): POT(ctx, {name})")
        init = src.start_value(game.var_init[vname], f"s{j}")
        # (per-seat and per-index variables start with the same value in every slot)
        slots = "" if v.kind == "single" else f"] * {int(_slots(v.kind, v.count, n))}"
        out.append(f"V[{name}] = {'[' if slots else ''}{init}{slots}")
    return src


def game_source(game: Any, n: int) -> Source:
    """The lines and constants of game_vars (its source: `.text(("ERRS",))`)."""
    src = Source()
    src.lines.append("V = ctx.vars")
    add_game_vars(src, game, n)
    return src


def add_game_vars(src: Source, game: Any, n: int) -> None:
    """The lines setting each game variable (in V) to its start, in the file's order, added to `src`."""
    for j, (vname, v) in enumerate(game.variant.vars.items()):
        if v.scope != "game":
            continue
        name = src.const(vname)
        init = src.start_value(game.var_init[vname], f"s{j}")
        slots = "" if v.kind == "single" else f"] * {int(_slots(v.kind, v.count, n))}"
        src.lines.append(f"V[{name}] = {'[' if slots else ''}{init}{slots}")

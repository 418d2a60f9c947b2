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

from rulekit.lang.expr.codegen import SAFE_BUILTINS, compile_cached

MAX_PILES_WRITTEN = 64  # piles of a zone written out one by one; a zone of more is made by a loop

StateFn = Callable[[Any], None]


class Source:
    """Lines of a generated function and the constants they read as K0, K1 ..."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.consts: list[Any] = []

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
        namespace: dict[str, Any] = {"__builtins__": SAFE_BUILTINS}
        exec(code, namespace)  # noqa: S102 - only this module's tokens and whole numbers
        made: StateFn = namespace["_make"](*self.consts, *extra.values())
        return made


def _slots(kind: str, count: int, n: int) -> int:
    """The slots (piles, values) of a per-seat or counted zone or variable at a table of `n`."""
    return n if kind == "player" else count


def round_reset(game: Any, n: int, pot_left: Callable[[Any, str], None]) -> StateFn | None:
    """Game.reset_round for a table of `n`, as one function; `pot_left(ctx, name)` raises the error
    of a round-scope pot that still holds chips. None where Python refuses the source."""
    return round_source(game, n).build({"POT": pot_left}, "<round start>")


def game_vars(game: Any, n: int) -> StateFn | None:
    """The game variables set to their start at a table of `n` (Game.restart), as one function."""
    return game_source(game, n).build({}, "<game start>")


def round_source(game: Any, n: int) -> Source:
    """The lines and constants of round_reset (its source: `.text(("POT",))`)."""
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
    for vname, v in game.variant.vars.items():
        if v.scope != "round":
            continue
        name, init = src.const(vname), src.const(game.var_init[vname])
        if v.pot:  # resetting would make chips vanish: a pot that carries over must be game-scope
            out.append(f"if V.get({name}): POT(ctx, {name})")
        # (per-seat and per-index variables start with the same value in every slot)
        slots = "" if v.kind == "single" else f"] * {int(_slots(v.kind, v.count, n))}"
        out.append(f"V[{name}] = {'[' if slots else ''}{init}(ctx){slots}")
    return src


def game_source(game: Any, n: int) -> Source:
    """The lines and constants of game_vars (its source: `.text(())`)."""
    src = Source()
    src.lines.append("V = ctx.vars")
    for vname, v in game.variant.vars.items():
        if v.scope != "game":
            continue
        name, init = src.const(vname), src.const(game.var_init[vname])
        slots = "" if v.kind == "single" else f"] * {int(_slots(v.kind, v.count, n))}"
        src.lines.append(f"V[{name}] = {'[' if slots else ''}{init}(ctx){slots}")
    return src

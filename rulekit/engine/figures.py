"""Figures the rules compute, for players' text: `{fig.NAME}` in rules prose (rulekit.lang.prose).

A figure is a number the rules give under the options and house rules in effect, read at the
start of a round with every card of the deck in play in the deck zone:

* `players` (the usual number of players, or the count asked for), `players_min`, `players_max`;
* `cards`, the cards in play;
* every variable's start value (`vars:` with a number as its init, or an expression such as
  `sum(deck, c -> worth(c)) // n_players`), the first seat's for a per-player variable;
* every function of the variant without parameters (`functions:`), evaluated there.

So a text that says `{fig.par}` states the `par` variable the settlement reads: the sheet cannot
say 80 while the engine plays 88.
"""
from __future__ import annotations

import re
from typing import Any, Callable

from rulekit.core.errors import RulekitError

#: the built-in figures, with what they are (for `validate --strict` hints and the reference)
BUILT_IN = {"players": "the number of players", "players_min": "the fewest players",
            "players_max": "the most players", "cards": "the cards in play"}


def _number(v: Any) -> Any:
    if isinstance(v, list) and v and all(x == v[0] for x in v):
        v = v[0]  # a per-player start: the same for every seat
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return None
    return int(v) if isinstance(v, float) and v.is_integer() else v


def game_figures(game: Any, n: int | None = None) -> dict[str, Any]:
    """Every figure of a built game for `n` seats (default: the usual count); {} for a count the
    game cannot be played with."""
    meta = game.variant.meta
    n = meta.players_default if n is None else n
    out: dict[str, Any] = {"players": n, "players_min": meta.players_min, "players_max": meta.players_max}
    if n not in game.player_sizes():
        return {}
    try:
        ctx = game.new_ctx(n, 0, None)
        game.reset_round(ctx)
    except RulekitError:
        return out
    out["cards"] = len(ctx.zones[game.deck_zone])
    for name, val in ctx.vars.items():
        num = _number(val)
        if num is not None:
            out[name] = num
    fns = game.extra.functions
    zero = [name for name, f in fns.items() if not getattr(f, "params", ())]
    if zero:
        for name, fn in _zero_calls(game, fns, zero):
            try:
                if fn is None:
                    continue
                num = _number(fn(ctx))
            except (RulekitError, Exception):  # noqa: BLE001 - not a figure: left unsaid
                continue
            if num is not None:
                out[name] = num
    return out


#: compiled `NAME()` calls, per key of everything compiling them reads (the figures of thousands of
#: option combinations call the same functions over the same names and cards)
_CALLS: dict[Any, tuple[Any, list[tuple[str, Any]]]] = {}
_KEEP_CALLS = 256


def _zero_calls(game: Any, fns: dict[str, Any], zero: list[str]) -> list[tuple[str, Any]]:
    """(name, function of the context or None when `NAME()` does not compile) for each name."""
    from rulekit.engine.buildchecks import check_key
    from rulekit.engine.scope import variant_scope
    from rulekit.lang.expr import CompileError, compile_expr
    scope = variant_scope(game.variant, game.deck, game.options)
    scope.functions = fns
    scope.codegen = False
    tree = game.variant.tree
    broken = tuple(sorted(n for n, f in fns.items() if getattr(f, "broken", False)))
    key = (check_key(tree, scope, fns), tuple(zero), broken,
           tuple(sorted(scope.card_names.items())), tuple(sorted(scope.all_card_ids)), repr(scope.option_values))
    hit = _CALLS.get(key)
    if hit is not None and hit[0] is tree:
        return hit[1]
    got: list[tuple[str, Any]] = []
    for name in zero:
        try:
            comp = compile_expr(f"{name}()", scope, None)
            got.append((name, comp.raw or comp.fn))
        except (CompileError, RulekitError, Exception):  # noqa: BLE001 - not a figure: left unsaid
            got.append((name, None))
    _CALLS[key] = (tree, got)
    while len(_CALLS) > _KEEP_CALLS:
        del _CALLS[next(iter(_CALLS))]
    return got


#: games a figure source keeps (the most recently built), for the same option values at another seat count
KEEP_GAMES = 4


class FigureSource:
    """The figures of a variant under any option values (and seat count), each game built once."""

    def __init__(self, variant: Any, deck: str | None = None, game: Any = None, build: Any = None):
        self.variant = variant
        self.deck = deck
        self.build = build  # build_game (rulekit.engine.build), given by the caller: no import circle
        self.cache: dict[tuple[Any, ...], dict[str, Any]] = {}
        # the games built here, the last few only: a page's "Your table" asks for thousands of option values,
        # and every built game kept alive would be walked again by each run of the cyclic collector
        self.games: dict[tuple[Any, ...], Any] = {}
        self.own = (self._key(dict(game.options)), game) if game is not None else None
        # the options' defaults, parsed once: a page's panel asks for the figures thousands of times
        self.defaults = {k: o.parse(o.default) for k, o in variant.options.items()}

    def _key(self, values: dict[Any, Any]) -> tuple[Any, ...]:
        return tuple(sorted((k, repr(v)) for k, v in values.items() if k in self.variant.options))

    def __call__(self, values: dict[str, Any], n: int | None = None) -> dict[str, Any]:
        """The figures under these option values (missing ones at their defaults) for n seats."""
        full = dict(self.defaults)
        full.update({k: v for k, v in values.items() if k in full})
        key = self._key(full)
        if (key, n) not in self.cache:
            game = self.own[1] if self.own is not None and self.own[0] == key else self.games.get(key)
            if key not in self.games and game is None and self.build is not None:
                try:
                    game = self.build(self.variant, full, None, self.deck, codegen=False)
                except RulekitError:
                    game = None
                self.games[key] = game
                while len(self.games) > KEEP_GAMES:
                    del self.games[next(iter(self.games))]
            self.cache[(key, n)] = game_figures(game, n) if game is not None else {}
        return self.cache[(key, n)]


def figure_source(variant: Any, deck: str | None = None, game: Any = None,
                  build: Any = None) -> Callable[[dict[Any, Any], int | None], dict[Any, Any]]:
    """A function (option values, seats or None) -> figures, for `Prose(figures=...)`; `build` is
    rulekit.engine.build.build_figures_game (figures under other option values build again what they read)
    or build_game."""
    return FigureSource(variant, deck, game, build)





_NUMBER = re.compile(r"(?<![\w.@{-])(\d{1,6})(?!\w|\.\d|\s*%)")


def _alternatives(variant: Any) -> list[dict[str, Any]]:
    """One option changed at a time: every choice, both bools, an int's min, max and one other."""
    out = []
    for name, o in variant.options.items():
        d = o.parse(o.default)
        if o.type == "choice":
            vals = [o.parse(k) for k, _ in o.values]
        elif o.type == "bool":
            vals = [True, False]
        else:
            vals = [x for x in (o.min, o.max, (d or 0) + 1) if x is not None]
        out += [{name: v} for v in vals if v != d]
    return out


def live_figures(variant: Any, game: Any, build: Any) -> dict[str, list[str]]:
    """{figure: what changes it} for the figures a house rule or the number of players can change."""
    src = FigureSource(variant, game.deck_name, game, build)
    std = src({})
    out: dict[str, list[str]] = {}
    for alt in _alternatives(variant):
        for k, v in src(alt).items():
            if k in std and v != std[k] and k not in ("players",):
                out.setdefault(k, [])
                if next(iter(alt)) not in out[k]:
                    out[k].append(next(iter(alt)))
    for n in game.player_sizes():
        for k, v in game_figures(game, n).items():
            if k in std and v != std[k] and "the number of players" not in out.setdefault(k, []):
                out[k].append("the number of players")
    return out


def _about(variant: Any, name: str) -> str:
    """What a figure counts, in words (its function's description, or the built-in's)."""
    from rulekit.lang.loader import plain
    if name in BUILT_IN:
        return BUILT_IN[name]
    f = ((plain(variant.tree).get("functions") or {}).get(name) or {})
    v = variant.vars.get(name)
    return (str(f.get("description", "")) if isinstance(f, dict) else "") + (v.description if v else "") + " " + name


def literal_figure_warnings(variant: Any, game: Any, build: Any) -> list[Any]:
    """W091 for a number in players' text that is a figure of the rules a house rule can change
    (`validate --strict`): located, with the `{fig.NAME}` to write instead."""
    from rulekit.core.errors import Diagnostic, error
    from rulekit.lang.prose import PLACE
    from rulekit.lang.prosecheck import locate, player_texts
    live = live_figures(variant, game, build)
    if not live:
        return []
    src = FigureSource(variant, game.deck_name, game, build)
    out = []
    for under, node in player_texts(variant.tree):
        values = {k: variant.options[k].parse(v) for k, v in under.items()
                  if k in variant.options and v != "*"} if under else {}
        figs = src(values)
        by_value: dict[int, list[str]] = {}
        for k in live:
            v = figs.get(k)
            if isinstance(v, int) and abs(v) >= 2:
                by_value.setdefault(v, []).append(k)
        if not by_value:
            continue
        text = PLACE.sub(lambda m: " " * len(m.group(0)), str(node.value))
        for m in _NUMBER.finditer(text):
            names = by_value.get(int(m.group(1)))
            if names and int(m.group(1)) < 10:
                # a small number is a figure only when the word after it says what it counts
                # ("7 cards", "3 players"): "6 or 3 rounds" is not the table's six cards
                after = re.match(r"\s*([A-Za-z]+)", text[m.end():])
                noun = after.group(1).lower().rstrip("s") if after else ""
                names = [k for k in names if noun and noun in _about(variant, k)]
            if not names:
                continue
            why = ", ".join(sorted({w for k in names for w in live[k]}))
            d = error(locate(node, m.group(1)), "W091",
                      f"'{m.group(1)}' is the figure {' or '.join(names)} of these rules written as a number: "
                      f"it stays when a table changes {why}",
                      hint=f"write {{fig.{names[0]}}} instead" + (" (or " + ", ".join(
                          f"{{fig.{k}}}" for k in names[1:]) + ")" if len(names) > 1 else "")
                      + "; a number that is not this figure reads as well in words")
            out.append(Diagnostic(d.span, d.code, d.message, d.breadcrumbs, d.hint, "warning"))
    return out

__all__ = ["BUILT_IN", "game_figures", "FigureSource", "figure_source", "live_figures", "literal_figure_warnings"]

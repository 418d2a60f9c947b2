"""rulekit: traditional Japanese card games written down as YAML and run by one generic engine.

The public API. Every function that takes a game accepts a variant id (`"my-game"`), a path
to a variant file, a loaded `Variant` (from `load_variant`) or a built `Game` (from
`build_game`) alike; anything else is a `TypeError` naming the argument, and a value out of
range a `ValueError` naming it. Heavy modules load on first use, so `import rulekit` is fast.

    >>> import rulekit
    >>> stats = rulekit.simulate("my-game", players=4, rounds=600, seed=1)   # an id, a path, a Variant or a Game
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Sequence, Union

if TYPE_CHECKING:  # the names only; importing them is deferred to first use
    from rulekit.analysis.simulate import Stats
    from rulekit.api.env import Env
    from rulekit.core.errors import Diagnostic, RulekitError
    from rulekit.engine.game import Game
    from rulekit.engine.runner import GameResult
    from rulekit.lang.model import Variant

__version__ = "0.1.0"

__all__ = ["load_variant", "build_game", "check_variant", "play", "simulate", "policies", "Env",
           "RulekitError", "__version__"]

GameLike = Union[str, "os.PathLike[str]", "Variant", "Game"]


def _int(name: str, value: Any, lo: int, hi: int | None = None, allow_none: bool = False) -> int | None:
    """`value` as a checked int argument (bools and floats refused), or a clear error naming it."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name}: expected a whole number, found {type(value).__name__} {value!r}")
    if value < lo or (hi is not None and value > hi):
        limits = f"{lo} to {hi}" if hi is not None else f"at least {lo}"
        raise ValueError(f"{name}: expected {limits}, found {value}")
    return value


def _policy_names(game: "Game", n: int, spec: Any, name: str = "policy") -> list[str]:
    """Each seat's policy from `spec` ('careful', '0=careful,1=random'); a ValueError naming the argument."""
    from rulekit.core.errors import RulekitError
    from rulekit.engine.runner import seat_policies
    if not isinstance(spec, str):
        raise TypeError(f"{name}: expected a policy name such as 'careful', found {type(spec).__name__}")
    try:
        return seat_policies(game, n, spec)
    except RulekitError as exc:
        raise ValueError(f"{name}: {exc.diagnostics[0].message}") from None


def load_variant(game: str | os.PathLike[str], house: Sequence[str] = ()) -> "Variant":
    """Read a variant file (by path, or by id among ./variants and the shipped games), with its
    parents and any house-rule files, check it and return the frozen Variant; RulekitError on errors."""
    from rulekit.engine.resolve import as_variant
    if not isinstance(game, (str, os.PathLike)):
        raise TypeError(f"game: expected a variant id or path, found {type(game).__name__}")
    return as_variant(game, tuple(house))


def build_game(game: GameLike, options: dict[str, Any] | None = None, preset: str | None = None,
               deck: str | None = None, house: Sequence[str] = ()) -> "Game":
    """Compile a game (id, path or Variant) with option values, a preset, a deck and house-rule
    files; a Game is returned as it is. RulekitError when the rules or options do not check."""
    from rulekit.engine.resolve import as_game
    return as_game(game, options, preset, deck, tuple(house))


def check_variant(path: str | os.PathLike[str], strict: bool = False) -> list["Diagnostic"]:
    """Every problem in a variant file, each located at file:line:col (an empty list: it is valid)."""
    from rulekit.engine.build import check_variant as check
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path: expected a variant file path or id, found {type(path).__name__}")
    return check(os.fspath(path), strict=strict)


def policies(game: GameLike) -> list[str]:
    """The names of the ways seats can play this game: `random`, `first` and the game's own policies."""
    from rulekit.engine.runner import BUILTIN_POLICIES
    g = build_game(game)
    return [*BUILTIN_POLICIES, *g.policies]


def play(game: GameLike, players: int | None = None, seed: int = 0, agents: Sequence[Any] | str | None = None,
         rounds: int | None = None, options: dict[str, Any] | None = None, preset: str | None = None,
         **kwargs: Any) -> "GameResult":
    """Play one seeded game and return its result (events, chips, log).

    `agents` is a list with one agent per seat, or a policy name for every seat (`"careful"`;
    default the game's `careful` policy, random play in a game without one). `rounds` defaults to the game's own length; further keyword arguments
    (`dealer`, `stack`, `observe`, `logging`) go to `rulekit.engine.runner.play`."""
    from rulekit.engine.resolve import as_game
    from rulekit.engine.runner import default_policy, make_agents, play as run
    g = as_game(game, options, preset)
    meta = g.variant.meta
    n = _int("players", players if players is not None else meta.players_default,
             meta.players_min, meta.players_max)
    _int("seed", seed, 0)
    _int("rounds", rounds, 1, allow_none=True)
    if agents is None or isinstance(agents, str):
        agents = agents or default_policy(g)
        _policy_names(g, n, agents, "agents")
        agents = make_agents(g, n, seed, agents)
    elif len(agents) != n:
        raise ValueError(f"agents: expected one agent per seat ({n}), found {len(agents)}")
    return run(g, n, seed, list(agents), rounds=rounds, **kwargs)


def simulate(game: GameLike, players: int | None = None, rounds: int = 1000, seed: int = 1,
             policy: str | None = None, jobs: int = 1, options: dict[str, Any] | None = None,
             preset: str | None = None, deck: str | None = None, house: Sequence[str] = (),
             progress: bool = False, client: Any = None) -> "Stats":
    """Play `rounds` independent seeded rounds (seat 0 deals each) and return the merged Stats.

    `policy` defaults, as on the command line, to the game's `careful` policy (random play in a
    game without one). The totals depend only on the game, `players`, `seed` and `policy`, never on `jobs` or on
    how the game was named; `client` (a dask.distributed Client) runs the rounds on a cluster."""
    from rulekit.analysis.simulate import simulate as run
    from rulekit.engine.resolve import as_game, rebuild_args
    g = as_game(game, options, preset, deck, tuple(house))
    meta = g.variant.meta
    n = _int("players", players if players is not None else meta.players_default,
             meta.players_min, meta.players_max)
    _int("rounds", rounds, 1)
    _int("seed", seed, 0)
    _int("jobs", jobs, 1, 64)
    if client is not None and not callable(getattr(client, "submit", None)):
        raise TypeError(f"client: expected a dask.distributed Client (or None to run here), found "
                        f"{type(client).__name__} {client!r}"[:200])
    if policy is None:
        from rulekit.engine.runner import default_policy
        policy = default_policy(g)  # as the command line does
    _policy_names(g, n, policy)
    return run(g, n, rounds, seed, policy, jobs, progress, rebuild_args(g), client)


def __getattr__(name: str) -> Any:
    # classes load on first use so `import rulekit` (and `rulekit --help`) stays fast
    if name == "Env":
        from rulekit.api.env import Env
        return Env
    if name == "RulekitError":
        from rulekit.core.errors import RulekitError
        return RulekitError
    if name in ("Variant", "Game"):
        from rulekit.engine.game import Game
        from rulekit.lang.model import Variant
        return {"Variant": Variant, "Game": Game}[name]
    raise AttributeError(f"module 'rulekit' has no attribute {name!r}")

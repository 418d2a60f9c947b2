"""One way to name a game everywhere in the Python API: an id, a path, a loaded Variant or a built Game."""
from __future__ import annotations

import os
from typing import Any, Union

from rulekit.engine.game import Game
from rulekit.lang.model import Variant

GameLike = Union[str, "os.PathLike[str]", Variant, Game]


def as_variant(game: GameLike, house: tuple[Any, ...] | list[Any] = (), argname: str = "game") -> Variant:
    """The Variant named by `game` (id, path or Variant); a Game gives the variant it was built from."""
    if isinstance(game, Game):
        return game.variant
    if isinstance(game, Variant):
        return game
    if isinstance(game, (str, os.PathLike)):
        if not str(game):
            raise ValueError(f"{argname}: expected a variant id or path, found an empty string")
        from rulekit.engine.build import load_variant
        return load_variant(os.fspath(game), house=tuple(house))
    raise TypeError(f"{argname}: expected a variant id, a path, a Variant or a Game, found {type(game).__name__}")


def as_game(game: GameLike, options: dict[str, Any] | None = None, preset: str | None = None,
            deck: str | None = None, house: tuple[Any, ...] | list[Any] = (), argname: str = "game") -> Game:
    """The Game named by `game`, built with these options; a built Game is returned as it is
    (giving options with a Game is a ValueError: they were fixed when it was built)."""
    if isinstance(game, Game):
        if options or preset or deck or house:
            raise ValueError(f"{argname}: a built Game already has its options, preset, deck and house rules; "
                             "pass a variant id, path or Variant to choose them")
        return game
    if options is not None and not isinstance(options, dict):
        raise TypeError(f"options: expected a dict of option name -> value, found {type(options).__name__}")
    from rulekit.engine.build import build_game
    return build_game(as_variant(game, house, argname), options, preset, deck)


def rebuild_args(game: Game) -> tuple[Any, ...]:
    """(path, options, preset, deck, house files): enough for another process to build the same game."""
    v = game.variant
    return (v.file, dict(game.options), game.preset, game.deck_name, tuple(v.house))

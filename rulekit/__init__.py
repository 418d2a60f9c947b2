"""rulekit: traditional Japanese card games written down as YAML and run by one generic engine.

The small public API: load and validate variant files, build a game, play and simulate.
"""
from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["load_variant", "build_game", "check_variant", "play", "simulate", "Env", "RulekitError", "__version__"]


def __getattr__(name: str):
    # imported lazily so `rulekit --help` stays fast
    if name in ("load_variant", "build_game", "check_variant"):
        from . import build
        return getattr(build, name)
    if name == "play":
        from .engine.runner import play
        return play
    if name == "simulate":
        from .simulate import simulate
        return simulate
    if name == "Env":
        from .env import Env
        return Env
    if name == "RulekitError":
        from .errors import RulekitError
        return RulekitError
    raise AttributeError(name)

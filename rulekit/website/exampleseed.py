"""Choosing the worked example: the seed of a round that shows a game's signature moments.

A round scores by what a reader learns from it: each different reason a payment is made for
(a yaku, a special hand, a forced draw...), each different kind of decision, and a payment at
all; a long round scores a little less, so a short round showing the same is preferred. The
chosen seed is recorded in the variant (`example: {seed, shows}`), so that building the site
plays the same round every time; `best_seed` is run by hand when a game's rules change.
"""
from __future__ import annotations

from typing import Any, Iterable

from rulekit.engine.game import Game
from rulekit.engine.runner import make_agents, play


def round_score(events: list[dict[str, Any]]) -> float:
    """How much one round's events show a reader (see the module docstring)."""
    whys = {str(e.get("why")) for e in events if e.get("t") == "pay" and e.get("why")}
    records = {str(e.get("name") or e.get("what")) for e in events if e.get("t") == "record"}
    choices = {str(e.get("choice")) for e in events if e.get("t") == "choose" and not e.get("forced")}
    paid = any(e.get("t") == "pay" for e in events)
    return 3 * len(whys) + 2 * len(records) + len(choices) + (1 if paid else 0) - len(events) / 60


def best_seed(game: Game, n: int, policy: str, seeds: Iterable[int]) -> tuple[int, float]:
    """The seed among `seeds` whose one round scores best (the lowest seed on a tie)."""
    best = (-1, float("-inf"))
    for seed in seeds:
        res = play(game, n, seed, make_agents(game, n, seed, policy), rounds=1, logging=True)
        s = round_score(res.events)
        if s > best[1]:
            best = (seed, s)
    return best

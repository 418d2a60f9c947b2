"""An agent that follows the game it plays in with the engine's watcher, as the table's h key does,
so a test can weigh a decision (rulekit.engine.odds.answer_odds) before answering it."""
from __future__ import annotations

from typing import Any

from rulekit.engine.odds import watcher


class Watching:
    """Keeps `st`, a stepper following the game from its start; `act` calls `st.at_decision(d)` first."""

    st: Any

    def watch(self, g: Any, n: int, seed: Any, moves: Any, values: Any) -> None:
        self.st = watcher(g, n, seed, moves, values)

    def round_start(self, ctx: Any, r: int, total: int, deltas: Any) -> None:
        self.st.at_round(ctx, r, total, deltas)

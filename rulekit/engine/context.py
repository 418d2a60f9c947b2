"""The mutable state of one game in play, as the compiled rules see it."""
from __future__ import annotations

import random
from typing import Any, Callable


class Ctx:
    """Game state: zones of card indexes, variables, chips, seen-masks, locals, the log.

    Zones hold lists of card indexes; the *top* of a zone is the end of its list.
    """

    __slots__ = ("zones", "vars", "chips", "seen", "loc", "n", "dealer", "next_dealer", "round_no",
                 "rng", "events", "logging", "records", "steps", "step_limit", "decide", "game",
                 "yaku_eval", "where", "stack", "budget", "depth", "yaku_cache",
                 "seating", "relabel", "spent", "rand")

    def __init__(self, game: Any, n: int, rng: random.Random, decide: Callable[..., Any] | None, logging: bool):
        self.game = game
        self.n = n
        self.rng = rng
        self.decide = decide
        # each seat's random state when `decide` is agents.random_decider's (random play that
        # nothing checks or logs): generated choices then draw the answer's index themselves
        self.rand: list[int] | None = getattr(decide, "random_states", None)
        self.logging = logging
        self.events: list[dict[Any, Any]] = []
        self.records: dict[str, int] = {}
        self.loc: dict[str, Any] = {}
        self.zones: dict[str, Any] = {}
        self.vars: dict[str, Any] = {}
        self.chips: list[int] = [0] * n
        self.seen: list[int] = []
        self.dealer = 0
        self.next_dealer = 0
        self.round_no = 0
        self.steps = 0
        self.step_limit = 200_000
        self.yaku_eval: Callable[..., Any] | None = None  # set by Game.new_ctx
        self.where = ""
        self.stack: dict[str, list[str]] | None = None
        self.depth = 0  # nested procedure calls
        self.yaku_cache: dict[Any, Any] = {}  # (table, seat, *cards) -> (entry, units) of tables kept for a round
        self.budget = 0  # set at the start of each round (expr.compiler.EVAL_BUDGET)
        self.spent = 0  # budget units and steps used by the rounds (and redeals) before the current one
        self.seating: list[int] | None = None  # who sits where after a seat draw (runner.play)
        # card -> card applied to every shuffled zone (stepper's sampler re-deals unseen cards); None: off
        self.relabel: list[int] | None = None

    def units(self, full: int) -> int:
        """Budget units and loop steps this game has used so far (`full`: the budget each round
        starts with): what a search bot's playouts are charged, in the rules' own cost model."""
        return self.spent + full - self.budget + self.steps

    def log(self, event: dict[Any, Any]) -> None:
        if self.logging:
            self.events.append(event)

    def record(self, name: str) -> None:
        self.records[name] = self.records.get(name, 0) + 1

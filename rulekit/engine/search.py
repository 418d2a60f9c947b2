"""The `search` policy: determinised Monte Carlo from the rules alone, for every game.

At a decision with more than one legal action the bot repeats, up to `budget` playouts in all: deal
the cards its seat cannot see at random among the places it cannot see, keeping only deals in
which everything so far happens as it did in the open (rulekit.engine.stepper's sampler, so
what it knows is exactly its seat's observation); then, in that deal, take each legal action in
turn and play the round to its end with the base policy at every seat (the game's `careful`
policy where it has one, random otherwise), each action with the same deal and the same base
policy seeds (common random numbers: the comparison is between actions, not between deals).
It takes the action with the best mean chip change for its seat when that beats the base
policy's own choice clearly (the paired difference over the deals above zero at one-sided 95%),
and the base policy's choice otherwise: noise in a few playouts does not make it play worse
than the base policy. Ties go to the earlier action.
Deals that contradict what was seen are drawn again, at most DRAWS x `budget` draws a decision,
and at most MOVES x `budget` moves are replayed or played out in all (long rounds with many
players get fewer playouts); when no deal agrees, the base policy decides.

Known weaknesses: each deal is solved as if the bot then knew every card (strategy fusion),
later decisions are the base policy's rather than the bot's own (one step of look-ahead), and it
assumes the others play the base policy whatever they actually do.
"""
from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

from rulekit.engine.agents import Decision, PolicyAgent, RandomAgent
from rulekit.engine.game import Game
from rulekit.engine.runner import register_policy
from rulekit.engine.stepper import Inconsistent, Stepper

__all__ = ["SearchAgent", "DEFAULT_BUDGET"]

DRAWS = 4  # deals drawn per playout allowed, kept or not (most are kept in most games)
Z95 = 1.645  # one-sided 95%: how clearly an action must beat the base policy's to be taken instead
DEFAULT_BUDGET = 100  # playouts per decision (benchmarks/search_strength.py prints the seconds it costs)
MOVES = 30  # moves replayed or played out per playout of the budget, at most (long rounds get fewer playouts)


_QUIET: dict[int, tuple[Game, Game]] = {}


def _quiet(game: Game) -> Game:
    """The game without its statistics observer: playouts must not count as rounds played."""
    hit = _QUIET.get(id(game))
    if hit is None or hit[0] is not game:
        quiet = game if game.observer is None else dataclasses.replace(game, observer=None)
        if len(_QUIET) > 32:
            _QUIET.clear()
        hit = _QUIET[id(game)] = (game, quiet)
    return hit[1]


class SearchAgent:
    """Chooses by playouts of sampled deals (see the module); seeded, so a seed fixes its choices."""

    name = "search"

    def __init__(self, game: Game, seed: Any = 0, budget: int = DEFAULT_BUDGET, base: str | None = None):
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise ValueError(f"budget: expected a whole number of playouts of at least 1, found {budget!r}")
        self.budget = budget
        self.base = base if base is not None else ("careful" if "careful" in game.policies else "random")
        self.rng = random.Random(str(seed))  # text: any seed (int or the runner's 'seed:seat') works alike
        self.fallback = self._base_agent(self.rng.getrandbits(63))
        self.watcher: Stepper | None = None
        self.playouts = 0  # playouts run so far (benchmarks read these)
        self.tried = 0     # deals drawn so far, kept or not
        self.moves = 0     # moves replayed or played out for the last decision

    # -- told by runner.play -------------------------------------------------------------
    def watch(self, game: Game, n: int, seed: Any, moves: list, values: list) -> None:
        """Follow the game about to be played (its moves as they are taken)."""
        self.watcher = Stepper.watching(_quiet(game), n, seed, moves, values)

    def round_start(self, ctx: Any, r: int, total: int, deltas: list) -> None:
        """Keep the state as a round starts: the deals it samples start from there."""
        if self.watcher is not None:
            self.watcher.at_round(ctx, r, total, deltas)

    # -- deciding ------------------------------------------------------------------------
    def act(self, d: Decision) -> int:
        """The index of the action with the best mean playout result for the deciding seat."""
        if len(d.actions) < 2:
            return 0
        if self.watcher is None or self.watcher.ctx is None:
            return self.fallback.act(d)  # not watching a game from its start: the base policy decides
        self.watcher.at_decision(d)
        return self.act_from(self.watcher)

    def act_from(self, source: Stepper) -> int:
        """The choice at `source`'s pending decision (a Stepper at a decision: an Env's game, or
        the game this bot watches), from deals sampled for the deciding seat."""
        d = source.pending
        if d is None:
            raise RuntimeError("the game is over: no decision to take")
        if len(d.actions) < 2:
            return 0
        base = self.fallback.act(d)
        base = base if isinstance(base, int) and 0 <= base < len(d.actions) else 0
        rows = self.playouts_by_deal(source, d.player, len(d.actions))
        return choose(rows, base)

    def evaluate(self, source: Stepper, seat: int, k: int) -> list[float] | None:
        """Mean chip change for `seat` after each of the `k` legal actions of `source`'s pending
        decision, over sampled deals; None when no deal agreeing with what was seen was found."""
        rows = self.playouts_by_deal(source, seat, k)
        return [sum(col) / len(rows) for col in zip(*rows)] if rows else None

    def playouts_by_deal(self, source: Stepper, seat: int, k: int) -> list[list[int]]:
        """For each sampled deal, `seat`'s chip change after each of the `k` legal actions of
        `source`'s pending decision. At most `budget` playouts, DRAWS x `budget` deals drawn and
        MOVES x `budget` moves replayed or played (so a decision costs about the same in any game)."""
        deals = max(1, math.ceil(self.budget / k))
        rows: list[list[int]] = []
        tried = 0
        self.moves = 0
        prefix = source.round_moves
        while len(rows) < deals and tried < DRAWS * self.budget and self.moves < MOVES * self.budget:
            tried += 1
            self.moves += prefix
            seed = self.rng.getrandbits(63)
            try:
                deal = source.sample(seat, random.Random(seed), 1)
            except Inconsistent:
                continue  # a deal that contradicts what the seat saw: draw another
            r0 = deal.ctx.round_no
            before = deal.ctx.chips[seat]
            rows.append([self._playout(deal if a == k - 1 else deal.clone(), a, seed, r0) - before
                         for a in range(k)])
            self.moves += (k - 1) * prefix  # the clones' replays
        self.playouts += len(rows) * k
        self.tried += tried
        return rows


    def _playout(self, st: Stepper, first: int, seed: int, r0: int) -> int:
        """Take action `first`, then the base policy everywhere to the round's end; the seat's chips."""
        rng = random.Random(seed ^ 0x5EA5C4)
        agents: dict[int, Any] = {}
        seat = st.pending.player
        st.step(first)
        self.moves += 1
        while st.pending is not None and st.ctx.round_no == r0:
            self.moves += 1
            d = st.pending
            agent = agents.get(d.player)
            if agent is None:
                agent = agents[d.player] = self._base_agent(rng.getrandbits(63))
            i = agent.act(d)
            st.step(i if isinstance(i, int) and 0 <= i < len(d.actions) else 0)
        return st.ctx.chips[seat]

    def _base_agent(self, seed: int) -> Any:
        return RandomAgent(seed) if self.base == "random" else PolicyAgent(self.base, seed)


def choose(rows: list[list[int]], base: int) -> int:
    """The action with the best mean over the deals `rows`, if it beats the base policy's action
    `base` clearly (paired over the same deals, one-sided 95%); else `base`. Ties: earlier action."""
    if len(rows) < 2:
        return base
    k = len(rows[0])
    means = [sum(r[a] for r in rows) / len(rows) for a in range(k)]
    best = max(range(k), key=lambda a: (means[a], -a))
    if best == base:
        return base
    diffs = [r[best] - r[base] for r in rows]
    m = sum(diffs) / len(diffs)
    var = sum((x - m) ** 2 for x in diffs) / (len(diffs) - 1)
    return best if m > 0 and m * m * len(diffs) > Z95 * Z95 * var else base


register_policy("search", lambda game, seed: SearchAgent(game, seed))

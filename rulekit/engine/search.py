"""The `search` policy: determinised Monte Carlo from the rules alone, for every game.

At a decision with more than one legal action the bot draws deals of the cards its seat cannot
see, among the places it cannot see, keeping only deals in which everything so far happens as it
did in the open, and weighing down deals in which another seat's free choice is not the base
policy's (rulekit.engine.stepper's DealChain, so what it knows is exactly its seat's observation);
then, in each deal, it takes each legal action in turn and plays the round to its end with the
base policy at every seat (the game's `careful` policy where it has one, random otherwise; or
the cheaper stand-in the variant names as that policy's `playout`, where its rules are costly
and the stand-in was measured to keep the bot as strong), each action with the same deal and the same playout seeds
(common random numbers: the comparison is between actions, not between deals); a deal met
again (the chain stays at a deal when it refuses a proposal) is not played out again where
chance played no part in its playouts (no draw from the rules' generator or an agent's): they
would end the same. It takes the action with the best mean chip change for
its seat when that beats the base policy's own choice clearly (the paired difference above zero
at one-sided 95%, see `choose`), and the base policy's choice otherwise: noise in a few playouts
does not make it play worse than the base policy. With many actions, part of the budget
screens them all and the rest tests only the best against the base choice, on new deals. A
comparison stops drawing deals once they settle it (see `settled`: every other action clearly
no better, or one far ahead).
A decision costs at most MOVES x `budget` moves replayed or played out: `budget` playouts of
up to MOVES moves (long rounds with many players get fewer playouts) or, with `short` above 1
and where every action is compared on the same deals, up to `short` x `budget` shorter ones in
the same moves (a banker's last choice before the showdown). So a decision costs about the
same in any game. Moves are not all alike, though: a rule whose legal-action check or scoring
is costly makes each move dear. So the playouts are also charged in the rules' own cost model,
the evaluation budget a round is allowed (rulekit.lang.expr.scope.EVAL_BUDGET): a decision's
replays and playouts may use at most UNITS x `budget` budget units, as much as one round at its
limit at the default budget, and the bot stops drawing deals there. Both caps count work, not
time, so a seed still fixes every choice. `seconds` adds a cap in time (checked between moves:
a decision stops drawing deals once it has used them), for a person waiting at a table
(`--policy search:seconds=0.5`; see search_options); with it a choice may depend on the
machine's speed, but a game's log still replays exactly, since it records the choices made.
When no deal agrees, or the caps leave too few deals to judge by, the base policy decides.

Known weaknesses: each deal is solved as if the bot then knew every card (strategy fusion),
later decisions are the base policy's rather than the bot's own (one step of look-ahead), and it
reads the others' choices as the base policy would have made them, whatever they really do.
"""
from __future__ import annotations

import dataclasses
import math
import random
import time
from typing import Any

from rulekit.engine.agents import Decision, PolicyAgent, RandomAgent, SplitMix64
from rulekit.engine.game import Game
from rulekit.engine.runner import register_policy
from rulekit.engine.stepper import DealChain, Inconsistent, Stepper
from rulekit.lang.expr.scope import EVAL_BUDGET

__all__ = ["SearchAgent", "DEFAULT_BUDGET"]

DRAWS = 4  # round replays (re-deals tried, kept or not) allowed per playout
DEFAULT_BUDGET = 100  # playouts of up to MOVES moves per decision (benchmarks/search_strength.py prints its seconds)
SHORT = 1  # default `short`: playouts shorter than MOVES may be up to short x budget, in the same moves
# (4 was measured: no gain in either banking game tried on 1,000 rounds, at 2.5 to 3 times the CPU)
BATCH = 5  # successive deals averaged together before the test, at least (they are alike: see choose)
BATCHES = 10  # with more than BATCH x BATCHES deals, longer batches: this many (see choose)
MIN_BATCHES = 4  # batches a comparison needs before the bot leaves the base policy's choice
MIN_DEALS = BATCH * MIN_BATCHES
MIN_SCREEN = 4  # deals a screening of many actions needs before its best is tested at all
EARLY = True  # a comparison stops drawing deals once they settle it (see settled)
WIN = 2.0  # how much more than `choose` asks a lead must be to stop early (see settled)
MOVES = 50  # moves replayed or played out per playout of the budget, at most (long rounds get fewer playouts)
# budget units (the rules' cost model: lambda calls and items built) per playout of the budget, at
# most: at the default budget a decision may use what one round may (EVAL_BUDGET), whatever the
# rules do; the shipped games use a small part of it (benchmarks/search_strength.py prints it)
UNITS = EVAL_BUDGET // DEFAULT_BUDGET
MAX_SECONDS = 3600.0  # the longest time cap a decision may be given ('search:seconds=...')
MAX_BUDGET = 100 * DEFAULT_BUDGET  # the largest budget 'search:budget=...' may give


class _Spent(Exception):
    """A decision's caps (budget units or seconds) are used up: no more playouts for it."""


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

    def __init__(self, game: Game, seed: Any = 0, budget: int = DEFAULT_BUDGET, base: str | None = None,
                 short: int = SHORT, seconds: float | None = None, playout: str | None = None):
        if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
            raise ValueError(f"budget: expected a whole number of playouts of at least 1, found {budget!r}")
        if isinstance(short, bool) or not isinstance(short, int) or short < 1:
            raise ValueError(f"short: expected a whole number of at least 1, found {short!r}")
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                    or not 0 < seconds < math.inf):
            raise ValueError(f"seconds: expected a number of seconds above 0 (or None: no time cap), found "
                             f"{seconds!r}")
        self.budget, self.short, self.seconds = budget, short, seconds
        self.base = base if base is not None else ("careful" if "careful" in game.policies else "random")
        # the policy every seat plays in playouts: the base's `playout` stand-in where the variant names one
        if playout is None:
            playout = game.policies.get(self.base, {}).get("playout", self.base)
        if playout != "random" and playout not in game.policies:
            raise ValueError(f"playout: expected a policy of the game ({', '.join(['random', *game.policies])}), "
                             f"found {playout!r}")
        self.playout = playout
        self.rng = random.Random(str(seed))  # text: any seed (int or the runner's 'seed:seat') works alike
        self.fallback = self._base_agent(self.rng.getrandbits(63))
        self.watcher: Stepper | None = None
        self.playouts = 0  # playouts run so far (benchmarks read these)
        self.tried = 0     # deals drawn so far, kept or not
        self.moves = 0     # moves replayed or played out for the last decision
        self.units = 0     # budget units used by replays and playouts so far (the rules' cost model)
        self.capped = 0    # decisions whose caps (units or seconds) stopped the playouts early
        self._deadline: float | None = None  # the time the current decision must stop drawing deals
        self.clock = time.monotonic  # seconds, for the time cap (a test gives a fake clock)
        self._limit = 0    # the budget units the current batch of playouts may reach (in self.units)
        self.reused = 0    # playout results taken from a deal met before rather than played (see _playout)
        # a chain's deals met before, with their chip changes by action: the chain stays at a deal
        # when it refuses a proposal (at every other deal or so where the others' choices weigh the
        # deals), and the same deal played out without chance ends the same, so it is not replayed
        # and played out again
        self._known: tuple[DealChain | None, dict[tuple[int, ...], dict[int, int]]] = (None, {})

    # -- told by runner.play -------------------------------------------------------------
    def watch(self, game: Game, n: int, seed: Any, moves: list[int], values: list[tuple[Any, ...]]) -> None:
        """Follow the game about to be played (its moves as they are taken)."""
        self.watcher = Stepper.watching(_quiet(game), n, seed, moves, values)

    def round_start(self, ctx: Any, r: int, total: int, deltas: list[list[int]]) -> None:
        """Keep the state as a round starts: the deals it samples start from there."""
        if self.watcher is not None:
            self.watcher.at_round(ctx, r, total, deltas)

    # -- deciding ------------------------------------------------------------------------
    def act(self, d: Decision) -> int:
        """The index of the action with the best mean playout result for the deciding seat."""
        if len(d.actions) < 2:
            return 0
        if self.watcher is None or self.watcher.ctx is None:
            return int(self.fallback.act(d))  # not watching a game from its start: the base policy decides
        self.watcher.at_decision(d)
        return self.act_from(self.watcher)

    def act_from(self, source: Stepper) -> int:
        """The choice at `source`'s pending decision (a Stepper at a decision: an Env's game, or
        the game this bot watches), from deals sampled for the deciding seat.

        When the budget gives every action MIN_DEALS deals, each deal plays them all and the best
        is tested against the base choice on the same deals. With more actions (a stake on any
        column of any size, a hand of eight cards at budget 100), one part
        of the budget screens every action and the rest, on new deals, compares only the best of
        them with the base policy's choice: among many actions the best-looking one is often
        only the luckiest, and judging it on the deals that chose it would favour luck."""
        d = source.pending
        if d is None:
            raise RuntimeError("the game is over: no decision to take")
        k = len(d.actions)
        if k < 2:
            return 0
        self._start()
        capped = self.capped
        try:
            return self._choose(source, d, k)
        finally:
            self.capped = capped + (self.capped > capped)  # one decision counts once

    def _choose(self, source: Stepper, d: Decision, k: int) -> int:
        base = self.fallback.act(d)
        base = base if isinstance(base, int) and 0 <= base < k else 0
        if k * MIN_DEALS <= self.budget:
            return choose(self.playouts_by_deal(source, d.player, k, settle=base if EARLY else None), base)
        chain = self._chain(source, d.player)
        # the screening and its test keep to their share of `budget` playouts even when short: a
        # handful of deals more per action among dozens cannot settle a choice, they only make
        # the bot leave the base choice on noise more often (measured: stakes of the table
        # maximum where the base choice stakes 1, the paired spread seven times as wide)
        share = self.budget // 2
        screen = self.playouts_by_deal(source, d.player, k, budget=share, chain=chain, most=share)
        if len(screen) < MIN_SCREEN:
            return base
        means = [sum(r[a] for r in screen) / len(screen) for a in range(k)]
        best = max((a for a in range(k) if a != base), key=lambda a: (means[a], -a))
        if means[best] <= means[base]:
            return base
        rows = self.playouts_by_deal(source, d.player, k, budget=self.budget - share,
                                     actions=[base, best], chain=chain, most=self.budget - share,
                                     settle=0 if EARLY else None)
        return best if choose(rows, 0) == 1 else base

    def evaluate(self, source: Stepper, seat: int, k: int) -> list[float] | None:
        """Mean chip change for `seat` after each of the `k` legal actions of `source`'s pending
        decision, over sampled deals; None when no deal agreeing with what was seen was found."""
        self._start()
        rows = self.playouts_by_deal(source, seat, k)
        return [sum(col) / len(rows) for col in zip(*rows)] if rows else None

    def _start(self) -> None:
        """A new decision: its time cap starts now, and the deals met so far are another decision's."""
        self._deadline = None if self.seconds is None else self.clock() + self.seconds
        self._known = (None, {})

    def playouts_by_deal(self, source: Stepper, seat: int, k: int, budget: int | None = None,
                         actions: list[int] | None = None, chain: DealChain | None = None,
                         most: int | None = None, settle: int | None = None) -> list[list[int]]:
        """For each sampled deal, `seat`'s chip change after each of `actions` (default: all `k`
        legal actions) of `source`'s pending decision. At most MOVES x `budget` moves replayed or
        played (`budget` default the bot's; so a decision costs about the same in any game) and
        about UNITS x `budget` budget units (a deal under way when they run out is dropped), in
        at most `most` playouts (default the bot's `short` x `budget`: short playouts may get
        more deals in the same work) and DRAWS re-deals tried per playout, and none after the
        decision's `seconds`. Deals come from `chain` (default a new one). With `settle`, the
        index in `actions` of the base choice, it stops once the deals settle the comparison."""
        budget = self.budget if budget is None else budget
        most = self.short * budget if most is None else most
        actions = list(range(k)) if actions is None else actions
        chain = self._chain(source, seat) if chain is None else chain
        if self._known[0] is not chain:
            self._known = (chain, {})
        known_rows = self._known[1]
        deals = max(1, math.ceil(most / len(actions)))
        rows: list[list[int]] = []
        replays0, self.moves = chain.replays, 0
        prefix = source.round_moves
        # the chain's replays are charged to `source`; the clones' and playouts' as they go
        spent0, units0 = source.spent, self.units
        self._limit = units0 + UNITS * budget
        chain.stop = lambda: self._check(source.spent - spent0)
        try:
            while (len(rows) < deals and chain.replays - replays0 < DRAWS * most
                   and self.moves + prefix * (chain.replays - replays0) < MOVES * budget):
                self._check(source.spent - spent0)
                try:
                    key = chain.advance()
                    known = known_rows.get(key) if key is not None else None
                    if known is not None and any(a not in known for a in actions):
                        known = None
                    deal = chain.current() if known is None else None
                except Inconsistent:
                    continue  # no deal agreeing with what the seat saw yet: the chain tries another
                seed = self.rng.getrandbits(63)
                if known is not None:  # a deal met before whose playouts used no chance: they end the same
                    row = [known[a] for a in actions]
                    self.reused += len(actions)
                else:
                    assert deal is not None
                    row, alike = self._row(deal, seat, actions, seed, source.spent - spent0)
                    if alike and key is not None:
                        known_rows.setdefault(key, {}).update(zip(actions, row))
                    self.moves += (len(actions) - 1) * prefix  # the clones' replays
                rows.append(row)
                if settle is not None and len(rows) % BATCH == 0 and settled(rows, settle):
                    break
        except _Spent:
            self.capped += 1  # the deal under way is dropped: its actions were not all played out
        finally:
            chain.stop = None
        self.units += source.spent - spent0
        self.moves += prefix * (chain.replays - replays0)
        self.playouts += len(rows) * len(actions)
        self.tried += chain.replays - replays0
        return rows

    def _row(self, deal: Stepper, seat: int, actions: list[int], seed: int, pending: int) -> tuple[list[int], bool]:
        """`seat`'s chip change after each of `actions` at `deal`'s decision, played out on copies
        of it with the same seed; and whether chance played no part in any (see _playout)."""
        r0 = deal.ctx.round_no
        before = deal.ctx.chips[seat]
        last = len(actions) - 1
        row = []
        alike = True
        for i, a in enumerate(actions):
            st = deal if i == last else deal.clone()
            self.units += deal.spent
            deal.spent = 0
            chips, fixed = self._playout(st, a, seed, r0, pending)
            row.append(chips - before)
            alike = alike and fixed
        return row, alike

    def _check(self, pending: int = 0) -> None:
        """Raise _Spent when the budget units (with `pending` not yet added) or the seconds are used up."""
        if self.units + pending >= self._limit or (self._deadline is not None and self.clock() >= self._deadline):
            raise _Spent

    def _chain(self, source: Stepper, seat: int) -> DealChain:
        """Deals for `seat`, weighed by how likely the base policy made the others' choices."""
        model = None if self.base == "random" else PolicyAgent(self.base).preferred
        return source.deals(seat, self.rng, model)

    def _playout(self, st: Stepper, first: int, seed: int, r0: int, pending: int = 0) -> tuple[int, bool]:
        """Take action `first`, then the playout policy everywhere to the round's end: the seat's
        chips, and whether chance played no part (neither the rules' random generator nor an
        agent's was drawn from: the same state and action end the same whatever the seed).
        Its budget units are added to `units` move by move (raises _Spent past the caps; `pending`:
        units used but not yet added)."""
        rng = random.Random(seed ^ 0x5EA5C4)
        agents: dict[int, Any] = {}
        dice: list[tuple[SplitMix64, int]] = []  # each agent's generator and its state when made
        assert st.pending is not None  # a playout starts at the decision it tries an action of
        seat = st.pending.player
        ctx = st.ctx
        chance = ctx.rng.getstate()
        u = ctx.units(EVAL_BUDGET)  # its replay is charged already (to the stepper it was copied from)
        st.step(first)
        self.moves += 1
        while True:
            now = st.ctx.units(EVAL_BUDGET)
            self.units += now - u
            u = now
            if st.pending is None or st.ctx.round_no != r0:
                break
            self._check(pending)
            self.moves += 1
            d = st.pending
            agent = agents.get(d.player)
            if agent is None:
                agent = agents[d.player] = self._base_agent(rng.getrandbits(63), self.playout)
                gen = agent.rng if isinstance(agent, RandomAgent) else agent.fallback.rng
                dice.append((gen, gen.state))
            i = agent.act(d)
            st.step(i if isinstance(i, int) and 0 <= i < len(d.actions) else 0)
        fixed = ctx.rng.getstate() == chance and all(gen.state == s for gen, s in dice)
        return int(st.ctx.chips[seat]), fixed

    def _base_agent(self, seed: int, policy: str | None = None) -> Any:
        policy = self.base if policy is None else policy
        return RandomAgent(seed) if policy == "random" else PolicyAgent(policy, seed)


def choose(rows: list[list[int]], base: int) -> int:
    """The action with the best mean over the deals `rows`, if it beats the base policy's action
    `base` clearly (paired over the same deals, one-sided 95%); else `base`. Ties: earlier action.

    Successive deals of a chain are alike, so the test is on the means of successive deals
    (batch means: nearly independent where single deals are not), with Student's t for their
    number; fewer than MIN_BATCHES batches never leave `base`. A batch is BATCH deals, or with
    more deals than BATCH x BATCHES, a tenth of them: a chain's deals can stay alike for dozens of
    steps (at a banker's last choice, the means of 100 successive deals spread up to 3.6 times as
    much as batches of 5 implied), so more deals of one chain are less new evidence than their
    number says. (Testing single deals when there were few made a chain's look-alike deals
    pass for evidence: in a long game, with about 15 deals a decision, the bot then played worse
    than its base policy.)"""
    if len(rows) < MIN_DEALS:
        return base
    k = len(rows[0])
    means = [sum(r[a] for r in rows) / len(rows) for a in range(k)]
    best = max(range(k), key=lambda a: (means[a], -a))
    if best == base:
        return base
    m, var, b = _batched([r[best] - r[base] for r in rows])
    return best if m > 0 and m * m * b > t95(b - 1) ** 2 * var else base


def _batched(diffs: list[int]) -> tuple[float, float, int]:
    """The mean, variance and number of the batch means of `diffs` (see choose)."""
    size = max(BATCH, len(diffs) // BATCHES)
    batches = [sum(diffs[i:i + size]) / size for i in range(0, len(diffs) - size + 1, size)]
    b = len(batches)
    m = sum(batches) / b
    return m, sum((x - m) ** 2 for x in batches) / (b - 1), b


def settled(rows: list[list[int]], base: int) -> bool:
    """Whether more deals would hardly change `choose(rows, base)`, so a decision may stop early:
    with at least MIN_DEALS deals, every other action is clearly no better than `base` (the
    upper one-sided 95% bound of its paired difference at or below zero: most often, every
    action ends the same), or the best one beats it by far more than `choose` asks (WIN times
    the bound's width: one look among several must not pass for evidence)."""
    if len(rows) < MIN_DEALS:
        return False
    k = len(rows[0])
    means = [sum(r[a] for r in rows) / len(rows) for a in range(k)]
    best = max(range(k), key=lambda a: (means[a], -a))
    if best != base:
        m, var, b = _batched([r[best] - r[base] for r in rows])
        if m > 0 and m * m * b > (WIN * t95(b - 1)) ** 2 * var:
            return True
    for a in range(k):
        if a != base:
            m, var, b = _batched([r[a] - r[base] for r in rows])
            if m > 0 or m * m * b < t95(b - 1) ** 2 * var:
                return False  # its bound is above zero: more deals might show it better
    return True


def t95(df: int) -> float:
    """Student's t for one-sided 95% with `df` >= 1 degrees of freedom (between tabled values, the
    smaller df's: a little stricter, never looser)."""
    out = T95[0][1]
    for limit, t in T95:
        if df >= limit:
            out = t
    return out


T95 = [(1, 6.314), (2, 2.920), (3, 2.353), (4, 2.132), (5, 2.015), (6, 1.943), (7, 1.895), (8, 1.860),
       (9, 1.833), (10, 1.812), (12, 1.782), (15, 1.753), (20, 1.725), (30, 1.697), (60, 1.671), (120, 1.658), (10**9, 1.645)]


OPTIONS = {"seconds": "a number of seconds above 0 (the time cap of a decision)",
           "budget": "a whole number of playouts of at least 1 (a decision's work)"}


def search_options(text: str) -> dict[str, Any]:
    """The keyword arguments of 'search:' options ('seconds=0.5', 'budget=50:seconds=1'); ValueError
    naming the option, what was expected and what was found."""
    out: dict[str, Any] = {}
    for part in text.split(":"):
        key, eq, value = (x.strip() for x in part.partition("="))
        if key not in OPTIONS or not eq:
            raise ValueError(f"expected options KEY=VALUE after 'search:', separated by ':', with KEY one of "
                             f"{', '.join(OPTIONS)}, found '{part}'")
        if key in out:
            raise ValueError(f"{key} is given twice")
        try:
            number: float = int(value) if key == "budget" else float(value)
        except ValueError:
            number = math.nan
        most = MAX_BUDGET if key == "budget" else MAX_SECONDS
        if not (1 <= number <= most if key == "budget" else 0 < number <= most):
            expected = f"{OPTIONS[key]}, at most {most:g}"
            raise ValueError(f"{key}: expected {expected}, found '{value}'")
        out[key] = number
    return out


register_policy("search", lambda game, seed, **opts: SearchAgent(game, seed, **opts), search_options)

"""Drive games: agents at decision points, logs, replays, and seeded simulation chunks."""
from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from typing import Any, Callable

from ..agents import Decision, FirstLegalAgent, PolicyAgent, RandomAgent, render, to_index
from ..errors import RuleError, RulekitError, Span, error
from .game import Game
from .seatdraw import draw_for_seats
from .steps import RUNTIME_ERRORS, located_error

LOG_VERSION = 1
MAX_ROUNDS = 10_000  # rounds in one game


@dataclass
class GameResult:
    """The outcome of a played game: chips per seat, per-round deltas, events, the log."""

    chips: list[int]
    round_deltas: list[list[int]]
    events: list[dict]
    records: dict[str, int]
    log: dict
    state: Any = None  # the final game state (tests inspect it)


def round_seed(seed: int, i: int) -> int:
    """The seed of round i of a run with base seed `seed` (independent of chunking)."""
    return seed * 1_000_003 + i


def agent_seed(seed: Any, seat: int) -> Any:
    """The seed of a seat's agent in a game with this seed: each seat its own stream."""
    return seed * 64 + seat if isinstance(seed, int) else f"{seed}:{seat}"  # distinct for up to 64 seats


def make_agents(game: Game, n: int, seed: int, policy: str = "random", human: int | None = None,
                human_agent: Any = None) -> list:
    """One agent per seat: random, first-legal or a YAML policy; a human at `human`."""
    out = []
    for s in range(n):
        aseed = agent_seed(seed, s)
        if human is not None and s == human:
            out.append(human_agent)
        elif policy == "random":
            out.append(RandomAgent(aseed))
        elif policy == "first":
            out.append(FirstLegalAgent())
        elif policy in game.policies:
            out.append(PolicyAgent(policy, aseed))
        else:
            known = ", ".join(["random", "first", *game.policies])
            raise RulekitError(error(Span("--policy", 1, 1), "E050",
                                     f"unknown policy '{policy}': expected one of {known}"))
    return out


def _decider(game: Game, agents: list, moves: list, checks: Callable | None = None):
    def decide(choice, player, actions):
        ctx = decide.ctx
        if checks is not None:
            checks(ctx, choice, player, list(actions))
        agent = agents[player]
        if type(agent) is RandomAgent:
            i = agent.rng.randrange(len(actions))  # the common simulation case, without a Decision
        else:
            if type(actions) is not list:  # generated code may list actions lazily (stepgen.Pairs)
                actions = list(actions)
            d = Decision(game, ctx, choice, player, actions)
            i = agent.act(d)
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(actions):
                i = to_index(i, d.legal, d)
        moves.append(i)
        if ctx.logging:
            ids = game.card_ids
            ctx.log({"t": "choose", "choice": choice.id, "player": player, "index": i, "of": len(actions),
                     "action": {p: render(v, t, ids) for p, t, v in zip(choice.params, choice.types, actions[i])}})
        return i
    return decide


def play(game: Game, n: int, seed: int, agents: list, rounds: int | None = None, logging: bool = True,
         checks: Callable | None = None, dealer: int | None = None,
         stack: dict[str, list[str]] | None = None, observe: Callable[[dict], None] | None = None) -> GameResult:
    """Play a game of `rounds` rounds (the variant's count by default) and return its result.

    `stack` puts named cards on top of a zone each time it is shuffled (first named on top).
    `observe` is called with every logged event as it happens (the live table shows them).
    """
    moves: list[int] = []
    agents = list(agents)
    decide = _decider(game, agents, moves, checks)
    ctx = game.new_ctx(n, seed, decide, logging)
    ctx.stack = stack
    if observe is not None:
        ctx.events = _Observed(observe)
    decide.ctx = ctx
    seating = list(range(n))
    first = dealer
    spec = game.extra.get("seat_draw")
    if dealer is None and spec is not None:
        # the draw for the deal and the seats: players take their seats, agents go with them
        try:
            first, seating = draw_for_seats(game, ctx, spec)
        except RUNTIME_ERRORS as exc:
            raise located_error(exc, spec.span, "game draw") from None
        agents[:] = [agents[p] for p in seating]
    deltas = _play_rounds(game, ctx, rounds, first)
    log = {"version": LOG_VERSION, "variant": game.variant.file, "variant_id": game.id, "deck": game.deck_name,
           "options": game.options, "preset": game.preset, "players": n, "seed": seed, "rounds": len(deltas),
           "dealer": dealer, "stack": stack, "moves": moves, "seating": seating,
           # a digest of no events says nothing: only logged games can be checked by replay
           "events_sha256": events_digest(ctx.events) if logging else None}
    return GameResult(list(ctx.chips), deltas, ctx.events, dict(ctx.records), log, ctx)


class _Observed(list):
    """The event list of a watched game: each event is handed to the watcher as it is logged."""

    def __init__(self, observe: Callable[[dict], None]):
        super().__init__()
        self.observe = observe

    def append(self, event: dict) -> None:
        super().append(event)
        self.observe(event)


def _play_rounds(game: Game, ctx: Any, rounds: int | None, dealer: int | None) -> list[list[int]]:
    """Play a started game's rounds (the variant's count by default); each round's chip changes."""
    n = ctx.n
    where = Span(game.variant.file, 1, 1)
    try:
        total = rounds if rounds is not None else game.rounds(ctx)
        if rounds is None and game.extra.get("open_ended") is not None and game.extra["open_ended"](ctx):
            total = MAX_ROUNDS  # no fixed length: the game goes on until end_when holds
        if dealer is not None:
            ctx.dealer = dealer % n
        elif game.first_dealer is not None:
            ctx.dealer = game.first_dealer(ctx) % n
        elif game.extra.get("random_first_dealer"):
            ctx.dealer = ctx.rng.randrange(n)
        else:
            ctx.dealer = 0
    except RUNTIME_ERRORS as exc:
        raise located_error(exc, where, "game settings") from None
    if not isinstance(total, int) or not 0 <= total <= MAX_ROUNDS:
        raise RuleError(error(where, "E061", f"a game of {total} rounds: expected 0 to {MAX_ROUNDS} (game.rounds)"))
    deltas = []
    for r in range(total):
        ctx.round_no = r
        ctx.next_dealer = ctx.dealer
        before = list(ctx.chips)
        game.play_round(ctx)
        deltas.append([a - b for a, b in zip(ctx.chips, before)])
        ctx.dealer = ctx.next_dealer
        try:
            ended = game.end_when is not None and game.end_when(ctx)
        except RUNTIME_ERRORS as exc:
            raise located_error(exc, where, "game settings") from None
        if ended:
            break
    return deltas


def events_digest(events: list[dict]) -> str:
    """A stable digest of an event list (byte-for-byte comparison of replays)."""
    return hashlib.sha256(json.dumps(events, sort_keys=True, default=str).encode()).hexdigest()


def smoke_round(game: Game, n: int) -> None:
    """Play one seeded round with first-legal agents (used by validation)."""
    play(game, n, 0, [FirstLegalAgent() for _ in range(n)], rounds=1, logging=False)


@dataclass
class Stats:
    """Mergeable simulation totals: per-seat sums, wins, and counts of recorded outcomes."""

    rounds: int = 0
    n: int = 0
    total: list = field(default_factory=list)
    total_sq: list = field(default_factory=list)
    wins: list = field(default_factory=list)
    losses: list = field(default_factory=list)
    records: dict = field(default_factory=dict)

    def add_round(self, delta: list[int], records: dict[str, int]) -> None:
        if not self.total:
            self.n = len(delta)
            self.total = [0] * self.n
            self.total_sq = [0] * self.n
            self.wins = [0] * self.n
            self.losses = [0] * self.n
        self.rounds += 1
        for s, d in enumerate(delta):
            self.total[s] += d
            self.total_sq[s] += d * d
            if d > 0:
                self.wins[s] += 1
            elif d < 0:
                self.losses[s] += 1
        for k, v in records.items():
            self.records[k] = self.records.get(k, 0) + v

    def merge(self, other: "Stats") -> "Stats":
        if other.rounds == 0:
            return self
        if self.rounds == 0:
            return Stats(other.rounds, other.n, list(other.total), list(other.total_sq), list(other.wins),
                         list(other.losses), dict(other.records))
        out = Stats(self.rounds + other.rounds, self.n,
                    [a + b for a, b in zip(self.total, other.total)],
                    [a + b for a, b in zip(self.total_sq, other.total_sq)],
                    [a + b for a, b in zip(self.wins, other.wins)],
                    [a + b for a, b in zip(self.losses, other.losses)], dict(self.records))
        for k, v in other.records.items():
            out.records[k] = out.records.get(k, 0) + v
        return out

    def mean(self, s: int) -> float:
        return float(self.total[s]) / self.rounds if self.rounds else 0.0

    def sd(self, s: int) -> float:
        if self.rounds < 2:
            return 0.0
        m = self.mean(s)
        var = (float(self.total_sq[s]) - self.rounds * m * m) / (self.rounds - 1)
        return math.sqrt(max(0.0, var))

    def to_json(self) -> dict:
        return {"rounds": self.rounds, "players": self.n,
                "seats": [{"seat": s, "mean": self.mean(s), "sd": self.sd(s), "total": str(self.total[s]),
                           "win_rate": self.wins[s] / self.rounds if self.rounds else 0,
                           "loss_rate": self.losses[s] / self.rounds if self.rounds else 0}
                          for s in range(self.n)],
                "records": dict(sorted(self.records.items())),
                "frequencies": {k: v / self.rounds for k, v in sorted(self.records.items())} if self.rounds else {}}


def run_chunk(game: Game, n: int, seed: int, start: int, count: int, policy: str = "random",
              dealer: int = 0, checks: Callable | None = None) -> Stats:
    """Play rounds start..start+count-1, each an independent seeded round; return their Stats.

    The result depends only on (game, n, seed, start, count, policy), so chunks can run in
    any process (or on a distributed runner) and merge to the same totals.
    """
    stats = Stats()
    if policy != "random":
        for i in range(start, start + count):
            s = round_seed(seed, i)
            res = play(game, n, s, make_agents(game, n, s, policy), rounds=1, logging=False, checks=checks,
                       dealer=dealer)
            stats.add_round(res.round_deltas[0], res.records)
        return stats
    # random agents: one state and one set of agents, restarted and reseeded for every round,
    # exactly as play() would start them (tests/test_simulate.py checks it round by round)
    agents = make_agents(game, n, round_seed(seed, start), policy)
    moves: list[int] = []
    decide = _decider(game, agents, moves, checks)
    ctx = None
    for i in range(start, start + count):
        s = round_seed(seed, i)
        if ctx is None:
            ctx = decide.ctx = game.new_ctx(n, s, decide, False)
        else:
            for seat, agent in enumerate(agents):
                agent.rng.__init__(agent_seed(s, seat))
            game.restart(ctx, s)
            moves.clear()  # a simulation keeps no log
        deltas = _play_rounds(game, ctx, 1, dealer)
        stats.add_round(deltas[0], ctx.records)
    return stats


def replay_check(game: Game, log: dict) -> GameResult:
    """Replay a log's moves; raise RuleError (E070) when the events differ."""
    from ..agents import ScriptedAgent
    n = int(log["players"])
    script = ScriptedAgent(log["moves"])
    res = play(game, n, int(log["seed"]), [script] * n, rounds=int(log["rounds"]), logging=True,
               dealer=log.get("dealer"), stack=log.get("stack"))
    if res.log["events_sha256"] != log.get("events_sha256"):
        raise RuleError(error(Span(str(log.get("variant")), 1, 1), "E070",
                              "replay differs from the log: the rules, deck or engine changed since it was "
                              "recorded"))
    return res

"""Drive games: agents at decision points, logs, replays, and seeded simulation chunks."""
from __future__ import annotations

import hashlib
import json
import math
import random
from collections import Counter
from itertools import chain, repeat
from operator import gt, lt, mul, sub
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, cast

from rulekit.engine.agents import M64, Decision, FirstLegalAgent, PolicyAgent, RandomAgent, random_decider, to_index
from rulekit.core.errors import RuleError, RulekitError, Span, argument, did_you_mean, error
from rulekit.core.inert import inert
from rulekit.core.numbers import parse_int
from rulekit.engine.game import Game
from rulekit.engine.seatdraw import draw_for_seats
from rulekit.engine.steps import RUNTIME_ERRORS, located_error, render_value
from rulekit.lang.expr.fastcode import fast_code

LOG_VERSION = 2
MAX_ROUNDS = 10_000  # rounds in one game
STATS_BLOCK = 1024  # a simulation's rounds added to its totals at once (run_chunk)
SMALL_COUNT = 32  # a round's count of a record counted item by item (in C) up to this

# called as each round starts: (state, round number, rounds in all, chip changes of the rounds so far)
OnRound = Callable[[Any, int, int, list[list[int]]], None]
# called at each decision before the agent answers: (state, choice, seat, legal actions)
Checks = Callable[[Any, Any, int, list[Any]], None]
# declared statistics (rulekit.engine.statsdecl): name -> [[readings, sum, sum of squares] per slot]
Custom = dict[str, list[list[float]]]


class Decide(Protocol):
    """The rules' callback at a decision (see decider): the seat's answer as an index in `actions`;
    `ctx` is the game state, set by the caller once it exists."""

    ctx: Any

    def __call__(self, choice: Any, player: int, actions: Any) -> int: ...


@dataclass
class GameResult:
    """The outcome of a played game: chips per seat, per-round deltas, events, the log."""

    chips: list[int]
    round_deltas: list[list[int]]
    events: list[dict[str, Any]]
    records: dict[str, int]
    log: dict[str, Any]
    state: Any = None  # the final game state (tests inspect it)

    @property
    def seating(self) -> list[int]:
        """Who sits where after the game's seat draw: seat s is played by the agent passed at
        index `seating[s]` (play() reorders its agents so; [0, 1, ...] without a draw)."""
        return list(self.log.get("seating") or range(len(self.chips)))


def round_seed(seed: int, i: int) -> int:
    """The seed of round i of a run with base seed `seed` (independent of chunking).

    A hash, so runs with different base seeds share no round: the first 8 bytes (big-endian)
    of BLAKE2b over the text "rulekit-round:SEED:I" (docs/guides/analyst.md states the scheme).
    """
    return int.from_bytes(hashlib.blake2b(f"rulekit-round:{seed}:{i}".encode(), digest_size=8).digest(), "big")


def round_seeder(seed: int) -> Callable[[int], int]:
    """round_seed(seed, i) as a function of i alone: the hash's fixed start is taken in once, so a
    simulation pays for the round number's digits only."""
    start = hashlib.blake2b(f"rulekit-round:{seed}:".encode(), digest_size=8)
    copy, from_bytes = start.copy, int.from_bytes

    def seed_of(i: int) -> int:
        h = copy()
        h.update(str(i).encode())
        return from_bytes(h.digest(), "big")
    return seed_of


def agent_seed(seed: Any, seat: int) -> Any:
    """The seed of a seat's agent in a game with this seed: each seat its own stream."""
    return seed * 64 + seat if isinstance(seed, int) else f"{seed}:{seat}"  # distinct for up to 64 seats


BUILTIN_POLICIES = {"random": "Picks uniformly at random among the legal actions.",
                    "first": "Always takes the first legal action (for tests).",
                    "search": "Thinks ahead from the rules alone: at each decision it deals the cards it cannot "
                              "see at random in ways that agree with what it has seen, plays each choice to the "
                              "end of the round with the game's careful policy (random where there is none), and "
                              "leaves the careful choice only for one that clearly wins more on average (100 "
                              "playouts a decision, about a second or less; search:seconds=S caps a decision "
                              "at S seconds, search:budget=N sets the playouts). Its weaknesses: it judges each "
                              "deal as if it then knew every card, looks only one decision ahead and expects "
                              "the others to play carefully, so bluffs and long plans escape it.",
                    }

# built-in policies made by a module above this one (rulekit.engine.search registers 'search'):
# name -> make(game, seed) returning an agent
POLICY_MAKERS: dict[str, Callable[..., Any]] = {}
# built-in policies that take options after their name ('search:seconds=0.5'): name -> options(text),
# the keyword arguments of its maker, raising ValueError with the option, expected and found
POLICY_OPTIONS: dict[str, Callable[[str], dict[str, Any]]] = {}
# the module that registers a built-in policy above, imported the first time the policy is named,
# so that a run without it (random play, a YAML policy) does not load the search bot at start-up
POLICY_MODULES = {"search": "rulekit.engine.search"}


def _load_policy(name: str) -> None:
    """Import the module that registers built-in policy `name`, if it has one not yet imported."""
    module = POLICY_MODULES.get(name)
    if module is not None and name not in POLICY_MAKERS:
        import importlib
        importlib.import_module(module)


def register_policy(name: str, make: Callable[..., Any],
                    options: Callable[[str], dict[str, Any]] | None = None) -> None:
    """Make the built-in policy `name` (listed in BUILTIN_POLICIES) with `make(game, seed, **opts)`,
    `opts` read by `options` from the text after 'name:' (none without `options`)."""
    POLICY_MAKERS[name] = make
    if options is not None:
        POLICY_OPTIONS[name] = options


def policy_options(name: str) -> tuple[str, dict[str, Any]]:
    """A policy as written ('search:seconds=0.5') split into its name and its options' keyword
    arguments; ValueError for options of a policy that takes none, or bad ones."""
    base, colon, text = name.partition(":")
    _load_policy(base)
    if not colon:
        return name, {}
    if base not in POLICY_OPTIONS:
        raise ValueError(f"policy '{base}' takes no options: expected '{base}' alone, found '{name}'")
    return base, POLICY_OPTIONS[base](text)


def make_agent(game: Game, name: str, seed: Any) -> Any:
    """The agent of one seat playing policy `name` (built in or the variant's, with any options:
    'search:seconds=0.5'), seeded with `seed`."""
    if name == "random":
        return RandomAgent(seed)
    if name == "first":
        return FirstLegalAgent()
    base, opts = policy_options(name)
    if base in POLICY_MAKERS:
        return POLICY_MAKERS[base](game, seed, **opts)
    return PolicyAgent(name, seed)


def default_policy(game: Game) -> str:
    """The policy a game is played with when none is given (simulate, replays, the Python API):
    its `careful` policy where it ships one, else random play."""
    return "careful" if "careful" in game.policies else "random"


def seat_policies(game: Game, n: int, spec: str = "random") -> list[str]:
    """Each seat's policy from a spec: 'careful' (every seat), '0=careful,1=random', or both
    ('random,0=careful': seat 0 careful, the others random); a policy may carry options after a
    colon ('search:seconds=0.5', '1=search:budget=50:seconds=1'); unknown names or bad options raise E050."""
    known = [*BUILTIN_POLICIES, *game.policies]
    where = argument("policy")
    default, per = "random", {}
    for part in (p.strip() for p in str(spec).split(",")):
        if not part:
            continue
        if "=" in part and (":" not in part or part.index("=") < part.index(":")):  # 'search:seconds=1' is no seat
            seat_s, name = (x.strip() for x in part.split("=", 1))
            seat = parse_int(seat_s, signed=False)
            if seat is None or not 0 <= seat < n:
                raise RulekitError(error(where, "E050", f"'{inert(seat_s, limit=40)}' is not a seat: "
                                         f"expected 0 to {n - 1}"))
            per[seat] = name
        else:
            default = part
    for spec_name in [default, *per.values()]:
        name = spec_name.partition(":")[0]
        if name not in known:
            raise RulekitError(error(where, "E050", f"unknown policy '{name}': expected one of {', '.join(known)}",
                                     hint=did_you_mean(name, known)))
        try:
            policy_options(spec_name)
        except ValueError as exc:
            said = f"--policy '{inert(spec_name, limit=60)}': {inert(str(exc), limit=200)}"
            raise RulekitError(error(where, "E050", said)) from None
    return [per.get(s, default) for s in range(n)]


def make_agents(game: Game, n: int, seed: int, policy: str = "random", human: int | None = None,
                human_agent: Any = None) -> list[Any]:
    """One agent per seat: random, first-legal or a YAML policy (per seat: see seat_policies);
    a human at `human`."""
    out = []
    names = seat_policies(game, n, policy) if policy != "random" else ["random"] * n
    for s in range(n):
        aseed = agent_seed(seed, s)
        name = names[s]
        out.append(human_agent if human is not None and s == human else make_agent(game, name, aseed))
    return out


def decider(game: Game, agents: list[Any], moves: list[int], checks: Checks | None = None,
            values: list[Any] | None = None) -> Decide:
    """The rules' callback at a decision: ask the seat's agent, check and record its answer (as an
    index in `moves`; as the action itself in `values` when given)."""
    def decide(choice: Any, player: int, actions: Any) -> int:
        ctx = decide.ctx  # type: ignore[attr-defined]  # (set by the caller once the state exists)
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
        if values is not None:
            values.append(actions[i])
        if ctx.logging:
            ids = game.card_ids
            ctx.log({"t": "choose", "choice": choice.id, "player": player, "index": i, "of": len(actions),
                     "action": {p: render_value(v, t, ids, ctx)
                                for p, t, v in zip(choice.params, choice.types, actions[i])}})
        return i
    decide.ctx = None  # type: ignore[attr-defined]  # (the caller sets it once the state exists)
    return cast(Decide, decide)  # a function carrying `ctx`, just set: what Decide describes


def play(game: Game, n: int, seed: int, agents: list[Any], rounds: int | None = None, logging: bool = True,
         checks: Checks | None = None, dealer: int | None = None,
         stack: dict[str, list[str]] | None = None, observe: Callable[[dict[str, Any]], None] | None = None,
         on_round: OnRound | None = None, digest: bool = True) -> GameResult:
    """Play a game of `rounds` rounds (the variant's count by default) and return its result.

    `stack` puts named cards on top of a zone each time it is shuffled (first named on top).
    `observe` is called with every logged event as it happens (the live table shows them).
    `on_round(ctx, round_no, total, deltas)` is called as each round starts (rulekit.engine.stepper
    keeps a copy of that state there). A variant with a seat draw reorders `agents` after the
    draw: the agent passed at index `result.seating[s]` plays seat s. `digest=False` leaves the
    log's events_sha256 to the caller (events_digest), who may not need it.

    An agent with a `watch(game, n, seed, moves, values)` method (the search bot) is given the
    game's moves as they are taken (indexes and actions) and is called with `round_start(ctx,
    round_no, total, deltas)` as each round starts, so it can re-deal the round for look-ahead.
    """
    moves: list[int] = []
    agents = list(agents)
    watchers = list({id(a): a for a in agents if hasattr(a, "watch")}.values())
    values: list[Any] | None = None
    if watchers:
        values = []
        for w in watchers:
            w.watch(game, n, seed, moves, values)
        on_round = _both(on_round, [w.round_start for w in watchers])
    decide = decider(game, agents, moves, checks, values)
    ctx = game.new_ctx(n, seed, decide, logging)
    ctx.stack = stack
    if observe is not None:
        ctx.events = _Observed(observe)
    decide.ctx = ctx
    seating = list(range(n))
    first = dealer
    spec = game.extra.seat_draw
    deltas: list[list[int]] = []
    try:
        if dealer is None and spec is not None:
            # the draw for the deal and the seats: players take their seats, agents go with them
            try:
                first, seating = draw_for_seats(game, ctx, spec)
            except RUNTIME_ERRORS as exc:
                raise located_error(exc, spec.span, "game draw") from None
            agents[:] = [agents[p] for p in seating]
        ctx.seating = seating
        _play_rounds(game, ctx, rounds, first, deltas, on_round)
    except BaseException as exc:
        # whatever stops the game (a player quitting, Ctrl-C, a rule error), what was played is kept:
        # the exception carries the game so far, which a caller may save and later resume
        if getattr(exc, "partial_game", None) is None:
            try:
                exc.partial_game = _result(  # type: ignore[attr-defined]  # (documented on play())
                    game, ctx, n, seed, dealer, stack, moves, seating, deltas, logging, True)
            except Exception:  # never hide the original exception behind a failure to describe it
                pass
        raise
    return _result(game, ctx, n, seed, dealer, stack, moves, seating, deltas, logging and digest, False)


def _both(first: OnRound | None, more: list[OnRound]) -> OnRound:
    """One round-start callback that calls `first` (when given) and then each of `more`."""
    def on_round(ctx: Any, r: int, total: int, deltas: list[list[int]]) -> None:
        if first is not None:
            first(ctx, r, total, deltas)
        for f in more:
            f(ctx, r, total, deltas)
    return on_round


def _result(game: Game, ctx: Any, n: int, seed: int, dealer: int | None, stack: Any, moves: list[int],
            seating: list[int], deltas: list[list[int]], logging: bool, partial: bool) -> GameResult:
    """The game's result and log; a partial one (interrupted) says so and counts its whole rounds."""
    log = {"version": LOG_VERSION, "variant": game.variant.file, "variant_id": game.id, "deck": game.deck_name,
           "options": game.options, "preset": game.preset, "players": n, "seed": seed, "rounds": len(deltas),
           "dealer": dealer, "stack": stack, "moves": moves, "seating": seating,
           # a digest of no events says nothing: only logged games can be checked by replay
           "events_sha256": events_digest(ctx.events) if logging else None}
    if partial:  # copies: the interrupted game's lists must not change under the saved log
        log.update(partial=True, moves=list(moves), seating=list(seating))
        return GameResult(list(ctx.chips), [list(d) for d in deltas], list(ctx.events), dict(ctx.records), log, ctx)
    return GameResult(list(ctx.chips), deltas, ctx.events, dict(ctx.records), log, ctx)


class _Observed(list[dict[str, Any]]):
    """The event list of a watched game: each event is handed to the watcher as it is logged."""

    def __init__(self, observe: Callable[[dict[str, Any]], None]) -> None:
        super().__init__()
        self.observe = observe

    def append(self, event: dict[str, Any]) -> None:
        super().append(event)
        self.observe(event)


def continue_game(game: Game, ctx: Any, seed: Any, dealer: int | None, moves: list[int], deltas: list[list[int]],
                  total: int, start: int, on_round: OnRound | None = None, digest: bool = True) -> GameResult:
    """Play a game on from the start of round `start` of `total` (ctx restored to that point, its
    decide appending to `moves`); the same result as play() would give for the whole game."""
    play_rounds_from(game, ctx, total, start, deltas, on_round)
    return _result(game, ctx, ctx.n, seed, dealer, ctx.stack, moves, list(ctx.seating or range(ctx.n)), deltas,
                   ctx.logging and digest, False)


def _play_rounds(game: Game, ctx: Any, rounds: int | None, dealer: int | None,
                 deltas: list[list[int]], on_round: OnRound | None = None) -> list[list[int]]:
    """Play a started game's rounds (the variant's count by default), appending each round's chip
    changes to `deltas` as it ends (so an interrupted game knows its whole rounds); returns it."""
    n = ctx.n
    try:
        total = rounds if rounds is not None else game.rounds(ctx)
        if rounds is None and game.extra.open_ended is not None and game.extra.open_ended(ctx):
            total = MAX_ROUNDS  # no fixed length: the game goes on until end_when holds
        if dealer is not None:
            ctx.dealer = dealer % n
        elif game.first_dealer is not None:
            ctx.dealer = game.first_dealer(ctx) % n
        elif game.random_first_dealer:
            ctx.dealer = ctx.rng.randrange(n)
        else:
            ctx.dealer = 0
    except RUNTIME_ERRORS as exc:
        raise located_error(exc, _game_span(game), "game settings") from None
    if not isinstance(total, int) or not (0 if rounds is not None else 1) <= total <= MAX_ROUNDS:
        # a game of no rounds plays nothing: only a caller may ask for none (a replay of an empty log)
        raise RuleError(error(game.extra.rounds_span or _game_span(game), "E061",
                              f"a game of {total} rounds: expected 1 to {MAX_ROUNDS} (game.rounds)"))
    return play_rounds_from(game, ctx, total, 0, deltas, on_round)


def play_rounds_from(game: Game, ctx: Any, total: int, start: int, deltas: list[list[int]],
                     on_round: OnRound | None = None) -> list[list[int]]:
    """Play rounds start..total-1 of a started game (stopping early when end_when holds)."""
    for r in range(start, total):
        ctx.round_no = r
        ctx.next_dealer = ctx.dealer
        if on_round is not None:
            on_round(ctx, r, total, deltas)
        before = list(ctx.chips)
        game.play_round(ctx)
        deltas.append([a - b for a, b in zip(ctx.chips, before)])
        ctx.dealer = ctx.next_dealer
        try:
            ended = game.end_when is not None and game.end_when(ctx)
        except RUNTIME_ERRORS as exc:
            raise located_error(exc, _game_span(game), "game settings") from None
        if ended:
            break
    return deltas


def _game_span(game: Game) -> Span:
    """Where a game-wide rule failed: the variant file (made only then: rounds start often)."""
    return Span(game.variant.file, 1, 1)


def events_digest(events: list[dict[str, Any]]) -> str:
    """A stable digest of an event list (byte-for-byte comparison of replays)."""
    return hashlib.sha256(json.dumps(events, sort_keys=True, default=str).encode()).hexdigest()


def smoke_round(game: Game, n: int) -> None:
    """Play one seeded round with first-legal agents (used by validation), logging it as `play`
    does, so text for people (say, why, shown values) is built and charged as it will be."""
    play(game, n, 0, [FirstLegalAgent() for _ in range(n)], rounds=1, logging=True)


@dataclass
class Stats:
    """Mergeable simulation totals: per-seat sums, wins, and counts of recorded outcomes."""

    rounds: int = 0
    n: int = 0
    total: list[int] = field(default_factory=list)
    total_sq: list[int] = field(default_factory=list)
    wins: list[int] = field(default_factory=list)
    losses: list[int] = field(default_factory=list)
    records: dict[str, int] = field(default_factory=dict)
    # declared statistics (rulekit.engine.statsdecl): name -> [[readings, sum, sum of squares] per slot]
    custom: Custom = field(default_factory=dict)
    records_sq: dict[str, int] = field(default_factory=dict)  # sum over rounds of (count in the round)^2

    def add_round(self, delta: list[int], records: dict[str, int]) -> None:
        """One round's chip changes per seat and its recorded outcomes added to the totals."""
        self.add_rounds([delta], [records] if records else [])

    def add_rounds(self, deltas: list[list[int]], records: list[dict[str, int]]) -> None:
        """Rounds' chip changes per seat (one list a round) and the recorded outcomes of those
        that recorded any added to the totals."""
        if not deltas:
            return
        self.add_flat(list(chain.from_iterable(deltas)), len(deltas[0]))
        for rec in records:
            self.add_records(rec)

    def add_flat(self, flat: list[int], n: int, start: int = 0) -> None:
        """Rounds' chip changes of `n` seats, one round after another in one flat list (or the
        chips they ended with, each round having started with `start`), added to the totals: a
        seat's column (a slice) summed in C, not a round at a time."""
        if not flat:
            return
        if not self.total:
            self.n = n
            self.total = [0] * n
            self.total_sq = [0] * n
            self.wins = [0] * n
            self.losses = [0] * n
        self.rounds += len(flat) // n
        total, total_sq, wins, losses = self.total, self.total_sq, self.wins, self.losses
        for s in range(n):
            col = flat[s::n]
            k, got, sq = len(col), sum(col), sum(map(mul, col, col))
            # (each change x - start: its sum and the sum of its squares from those of x)
            total[s] += got - start * k
            total_sq[s] += sq - 2 * start * got + start * start * k
            wins[s] += sum(map(gt, col, repeat(start)))  # (x - start > 0: the seat won chips)
            losses[s] += sum(map(lt, col, repeat(start)))

    def add_records(self, rec: dict[str, int]) -> None:
        """One round's recorded outcomes (name -> count) added to the totals."""
        mine, sq = self.records, self.records_sq
        for k, v in rec.items():
            mine[k] = mine.get(k, 0) + v
            sq[k] = sq.get(k, 0) + v * v

    def add_record_dicts(self, recs: list[dict[str, int]]) -> None:
        """Rounds' recorded outcomes (one dict a round) added to the totals as add_records adds
        each, counted in C: a name recorded v times in a round is counted as v items (v * v for
        the squares) when every count is small."""
        counts = [*chain.from_iterable(map(dict.values, recs))]
        if not counts:
            return
        if min(counts) < 1 or max(counts) > SMALL_COUNT:
            for rec in recs:
                self.add_records(rec)
            return
        names = [*chain.from_iterable(recs)]  # (in the order of `counts`: each dict's own)
        mine, sq = self.records, self.records_sq
        # (names in the order first recorded, as add_records would add them)
        for k, v in Counter(chain.from_iterable(map(repeat, names, counts))).items():
            mine[k] = mine.get(k, 0) + v
        for k, v in Counter(chain.from_iterable(map(repeat, names, map(mul, counts, counts)))).items():
            sq[k] = sq.get(k, 0) + v

    def merge(self, other: "Stats") -> "Stats":
        if other.rounds == 0:
            return self
        if self.rounds == 0:
            return Stats(other.rounds, other.n, list(other.total), list(other.total_sq), list(other.wins),
                         list(other.losses), dict(other.records), merge_custom({}, other.custom),
                         dict(other.records_sq))
        out = Stats(self.rounds + other.rounds, self.n,
                    [a + b for a, b in zip(self.total, other.total)],
                    [a + b for a, b in zip(self.total_sq, other.total_sq)],
                    [a + b for a, b in zip(self.wins, other.wins)],
                    [a + b for a, b in zip(self.losses, other.losses)], dict(self.records))
        for k, v in other.records.items():
            out.records[k] = out.records.get(k, 0) + v
        out.records_sq = dict(self.records_sq)
        for k, v in other.records_sq.items():
            out.records_sq[k] = out.records_sq.get(k, 0) + v
        out.custom = merge_custom(self.custom, other.custom)
        return out

    def mean(self, s: int) -> float:
        return float(self.total[s]) / self.rounds if self.rounds else 0.0

    def sd(self, s: int) -> float:
        if self.rounds < 2:
            return 0.0
        m = self.mean(s)
        var = (float(self.total_sq[s]) - self.rounds * m * m) / (self.rounds - 1)
        return math.sqrt(max(0.0, var))

    def to_json(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "players": self.n,
                "seats": [{"seat": s, "mean": self.mean(s), "sd": self.sd(s), "total": str(self.total[s]),
                           "win_rate": self.wins[s] / self.rounds if self.rounds else 0,
                           "loss_rate": self.losses[s] / self.rounds if self.rounds else 0}
                          for s in range(self.n)],
                "records": dict(sorted(self.records.items())),
                "frequencies": {k: v / self.rounds for k, v in sorted(self.records.items())} if self.rounds else {}}


def merge_custom(a: Custom, b: Custom) -> Custom:
    """Sums of declared statistics added slot by slot (a new dict; neither input changes)."""
    out = {k: [list(slot) for slot in v] for k, v in a.items()}
    for k, v in b.items():
        mine = out.get(k)
        if mine is None:
            out[k] = [list(slot) for slot in v]
        else:
            for slot, more in zip(mine, v):
                for j, x in enumerate(more):
                    slot[j] += x
    return out


def run_chunk(game: Game, n: int, seed: int, start: int, count: int, policy: str = "random",
              dealer: int = 0, checks: Checks | None = None, rows: list[list[int]] | None = None,
              stop: Callable[[], bool] | None = None) -> Stats:
    """Play rounds start..start+count-1, each an independent seeded round; return their Stats.

    `rows`, when given, receives each round's chip changes per seat, in order. `stop`, when
    given, is asked before each round: once it says yes, the rounds played so far are returned.

    The result depends only on (game, n, seed, start, count, policy), so chunks can run in
    any process (or on a distributed runner) and merge to the same totals.
    """
    stats = Stats()
    observer = game.observer
    if observer is not None:
        observer.reset()
    seed_of = round_seeder(seed)
    names = seat_policies(game, n, policy) if policy != "random" else None
    if names is not None and (dealer is None or any(policy_options(name)[0] in POLICY_MAKERS for name in names)):
        # agents made above this module (the search bot) watch the game, and a game without a
        # given dealer may draw seats: a fresh play() each round
        for i in range(start, start + count):
            if stop is not None and stop():
                break
            s = seed_of(i)
            res = play(game, n, s, make_agents(game, n, s, policy), rounds=1, logging=False, checks=checks,
                       dealer=dealer)
            stats.add_round(res.round_deltas[0], res.records)
            if rows is not None:
                rows.append(res.round_deltas[0])
        if observer is not None:
            stats.custom = observer.take()
        return stats
    # one state and one set of agents, restarted and reseeded (or made afresh) for every round,
    # exactly as play() would start them (tests/test_simulate.py checks it round by round)
    agents = make_agents(game, n, round_seed(seed, start), policy)
    moves: list[int] = []
    decide = decider(game, agents, moves, checks)
    # random play that nothing checks: each seat's picks come straight from its generator's state,
    # reseeded each round as a fresh RandomAgent's would be
    states = [agent.rng.state for agent in agents] if checks is None and names is None else None
    if states is not None:
        decide = cast(Decide, random_decider(states))
    ctx = None
    seats = range(n)
    top = M64 - n  # (a first state at most this: the seats' states need no wrapping)
    restart = game.restart
    # the round played as _play_rounds(game, ctx, 1, dealer, deltas) plays it, without its game
    # loop, on the state restarted as restart(ctx, s, round_next=True) would (by the round itself)
    play_round, end_when = game.round_player(n), game.end_when
    first_dealer = dealer % n if dealer is not None else 0  # (not `seat`: the loops below name seats)
    start_row = [game.start_chips] * n  # every seat's chips as the restarted round starts
    # the chips every seat ends the rounds not yet added to the totals with, one flat list of whole
    # numbers (added in blocks, in C, less the start's chips; no list a round for the cyclic
    # collector to walk meanwhile), and the records of those rounds that recorded any (each a
    # dict no later round changes: a restart gives the next round a new one)
    flat: list[int] = []
    recs: list[dict[str, int]] = []
    flat_block = STATS_BLOCK * n
    if states is not None and dealer is not None and rows is None and count > 0:
        # random play as above, nothing else asked: the rounds of a block played by one generated
        # function (roundgen.RoundsFn: the same state, generator, seats' states, chips and records)
        ctx = decide.ctx = game.new_ctx(n, round_seed(seed, start), decide, False)
        ctx.seating = list(seats)
        if type(ctx.rng) is random.Random:  # (whole-number seeds: the function reseeds it in C)
            play_rounds = game.rounds_player(n)
            code = fast_code(end_when) if end_when is not None else None
            ends = None if code is not None and code.body in ("True", "False") else end_when  # (one that cannot fail: not read)
            for block in range(start, start + count, STATS_BLOCK):
                stopped = play_rounds(ctx, observer, range(block, min(block + STATS_BLOCK, start + count)), seed_of,
                                      stop, first_dealer, states, ends, flat, recs)
                stats.add_flat(flat, n, game.start_chips)
                stats.add_record_dicts(recs)
                flat, recs = [], []
                if stopped:
                    break
            if observer is not None:
                stats.custom = observer.take()
            return stats
    for i in range(start, start + count):
        if stop is not None and stop():
            break
        s = seed_of(i)
        if ctx is None:
            ctx = decide.ctx = game.new_ctx(n, s, decide, False)
            ctx.seating = list(seats)  # (as play() seats them: no seat draw when the dealer is given)
        elif states is not None:
            # SplitMix64(agent_seed(s, seat)).state for each seat, worked out in one go (a whole
            # number seed's seats are s * 64 + seat: tests/test_simulate.py checks it round by round)
            first = (s << 6) & M64
            states[:] = range(first, first + n) if first <= top else [(first + seat) & M64 for seat in seats]
            if dealer is None:  # (with a dealer, the round restarts the state itself)
                restart(ctx, s, round_next=True)
        else:
            if names is not None:  # the rules' policies: the seats' agents as play() would get them
                agents[:] = [make_agent(game, name, agent_seed(s, seat)) for seat, name in enumerate(names)]
            else:
                for seat, agent in enumerate(agents):
                    agent.rng.__init__(agent_seed(s, seat))
            if dealer is None:
                restart(ctx, s, round_next=True)
            moves.clear()  # a simulation keeps no log
        if dealer is None:
            _play_rounds(game, ctx, 1, dealer, [])  # (its chip changes: the chips less the start's)
        else:
            play_round(ctx, observer, s, first_dealer)  # (restarted with seed s first, dealt by the dealer)
            if end_when is not None:  # read as after any round (its errors surface as in play())
                ctx.dealer = ctx.next_dealer
                try:
                    end_when(ctx)
                except RUNTIME_ERRORS as exc:
                    raise located_error(exc, _game_span(game), "game settings") from None
        flat += ctx.chips
        if rows is not None:
            rows.append(list(map(sub, ctx.chips, start_row)))
        if ctx.records:
            recs.append(ctx.records)
        if len(flat) >= flat_block:
            stats.add_flat(flat, n, game.start_chips)
            stats.add_record_dicts(recs)
            flat, recs = [], []
    stats.add_flat(flat, n, game.start_chips)
    stats.add_record_dicts(recs)
    if observer is not None:
        stats.custom = observer.take()
    return stats


def replay_check(game: Game, log: dict[str, Any]) -> GameResult:
    """Replay a log's moves; raise RuleError (E070) when the events differ."""
    from rulekit.engine.agents import ScriptedAgent
    n = int(log["players"])
    script = ScriptedAgent(log["moves"])
    res = play(game, n, int(log["seed"]), [script] * n, rounds=int(log["rounds"]), logging=True,
               dealer=log.get("dealer"), stack=log.get("stack"))
    if res.log["events_sha256"] != log.get("events_sha256"):
        raise RuleError(error(Span(str(log.get("variant")), 1, 1), "E070",
                              "replay differs from the log: the rules, deck or engine changed since it was "
                              "recorded"))
    return res

"""A game driven from outside, one decision at a time: reset, legal actions, step.

The engine runs a game as one call that asks agents at each decision point. `Env` turns that
inside out without a second implementation of the rules: the engine's own `play` runs on a
greenlet (rulekit.engine.stepper) that pauses at every decision, so a step costs the same late
in a long game as early. `clone()` copies a game in play by replaying only the current round
from a copy of its start; `sample_unseen(seat, rng)` does the same with the cards `seat` has
not seen re-dealt, for search. Shuffles and cuts come from the seed: a seed fully determines
a game, and `result.log` replays with `rulekit replay`.

    >>> from rulekit import Env
    >>> env = Env("my-game", seed=7, players=4)   # a variant id or path
    >>> while not env.done:
    ...     env.step(0)          # always the first legal action
    >>> sum(env.rewards)         # chips only move between seats
    0
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import random
import secrets

from rulekit.engine.agents import json_safe, to_index
from rulekit.engine.game import Game
from rulekit.engine.runner import BUILTIN_POLICIES, MAX_ROUNDS, GameResult, make_agent, policy_options
from rulekit.engine.search import SearchAgent
from rulekit.engine.stepper import Inconsistent, Stepper

__all__ = ["Env", "Pending", "Bot", "Inconsistent", "as_seed"]


@dataclass(frozen=True)
class Pending:
    """The decision the game waits for: who decides, which choice, the legal actions."""

    player: int
    choice: str
    prompt: str
    legal: list[dict]


def _as_game(game: Any, options: dict | None, preset: str | None) -> Game:
    if isinstance(game, Game):
        return game
    from rulekit.engine.build import build_game, load_variant
    return build_game(load_variant(str(game)), options, preset)


def as_seed(seed: Any, what: str = "seed") -> int:
    """A game seed from an int or a NumPy generator / integer; a fresh random one for None."""
    if seed is None:
        return secrets.randbits(63)
    numpy_type = type(seed).__module__.split(".")[0] == "numpy"
    if isinstance(seed, bool) or type(seed).__name__ == "bool_" or not (isinstance(seed, int) or numpy_type):
        raise TypeError(f"{what}: expected a whole number or a numpy Generator, found {type(seed).__name__} {seed!r}")
    if hasattr(seed, "integers"):  # numpy.random.Generator: draw the game's seed from it
        return int(seed.integers(0, 2 ** 63))
    if not hasattr(seed, "__index__"):
        raise TypeError(f"{what}: expected a whole number or a numpy Generator, found {type(seed).__name__} {seed!r}")
    return int(seed.__index__())


def _whole(value: Any, what: str, lo: int, hi: int) -> int:
    """`value` if it is a whole number (not a bool, float or text) from lo to hi, else a clear error."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what}: expected a whole number from {lo} to {hi}, found {type(value).__name__} {value!r}")
    if not lo <= value <= hi:
        raise ValueError(f"{what}: expected {lo} to {hi}, found {value}")
    return int(value)


class Bot:
    """A built-in bot ('random', 'first', 'search' or one of the variant's policies) that picks
    actions in an Env; seeded with runner.agent_seed(game_seed, seat) it plays as rulekit.play's
    bot for that seat ('search' looks ahead from the Env's own state: the same kind of choices,
    not the same ones)."""

    def __init__(self, env: "Env", name: str, seed: int = 0):
        known = [*BUILTIN_POLICIES, *env.game.policies]
        if name.partition(":")[0] not in known:  # a policy may carry options: 'search:seconds=0.5'
            raise ValueError(f"bot: unknown policy {name!r}: expected one of {', '.join(known)}")
        policy_options(name)  # ValueError naming the option, what was expected and what was found
        self.name = name
        seed = as_seed(seed, "bot seed")  # text or a float would seed a different stream, silently
        # the same agents rulekit.play makes (runner.make_agents): a bot seeded with
        # agent_seed(game_seed, seat) plays exactly as that seat's bot would there
        self._agent: Any = make_agent(env.game, name, seed)

    def act(self, env: "Env") -> int:
        """The index (into `env.legal_actions()`) this bot would take at `env`'s pending decision."""
        d = env._st.pending
        if d is None:
            raise RuntimeError("the game is over: no decision to take")
        if isinstance(self._agent, SearchAgent):
            return self._agent.act_from(env._st)  # samples deals from the Env's game as it stands
        i = self._agent.act(d)
        return i if isinstance(i, int) and 0 <= i < len(d.actions) else to_index(i, d.legal, d)


class Env:
    """A seeded game of a variant, stepped one decision at a time.

    `game` is a built Game, or a variant id or path. `rounds` defaults to the variant's game
    length. After `reset()`, `current_player` is the seat to act (None when `done`),
    `legal_actions()` what it may do, `step(action)` takes an index into that list or one of
    its dicts. `rewards` are each seat's chips won or lost so far; `events` the log.
    `seed` is a whole number or a NumPy Generator (which draws one); None draws a fresh deal.
    """

    def __init__(self, game: Any, seed: Any = 0, players: int | None = None, rounds: int | None = None,
                 options: dict | None = None, preset: str | None = None, dealer: int | None = None,
                 logging: bool = True):
        self.game = _as_game(game, options, preset)
        meta = self.game.variant.meta
        lo, hi = meta.players_min, meta.players_max
        self.players = meta.players_default if players is None else _whole(players, "players", lo, hi)
        self.rounds = None if rounds is None else _whole(rounds, "rounds", 1, MAX_ROUNDS)
        self.dealer = None if dealer is None else _whole(dealer, "dealer", 0, self.players - 1)
        self.logging = bool(logging)
        self.seed = as_seed(seed)
        self._st: Stepper
        self.reset(self.seed)

    # -- driving ---------------------------------------------------------------------
    def reset(self, seed: Any = None) -> None:
        """Start a new game and run to its first decision: from `seed` (a whole number, or a NumPy
        Generator that draws one), or from a fresh random seed when None (kept in `self.seed`)."""
        self.seed = as_seed(seed)
        self._st = Stepper(self.game, self.players, self.seed, self.rounds, self.dealer, self.logging)

    @property
    def moves(self) -> list[int]:
        """Every decision taken so far, as indexes into the legal actions of its time."""
        return list(self._st.moves)

    def step(self, action: int | dict) -> None:
        """Take `action` (an index into `legal_actions()`, or one of its dicts) for `current_player`."""
        d = self._st.pending
        if d is None:
            raise RuntimeError("the game is over: call reset() to play again")
        if isinstance(action, dict):
            i = to_index(action, json_safe(d.legal), d)
        else:
            i = _whole(action, "action", 0, len(d.actions) - 1)
        self._st.step(i)

    def clone(self) -> "Env":
        """An independent copy of this game at the same point (the current round replayed from
        its start, so it costs at most one round): step the copy to look ahead."""
        other = object.__new__(Env)
        other.__dict__.update(self.__dict__)
        other._st = self._st.clone()
        return other

    def sample_unseen(self, seat: int, rng: Any = None, tries: int = 200) -> "Env":
        """A copy of this game in which the cards `seat` has not seen are dealt again at random
        among the places it cannot see, every move so far being the same action: a state `seat`
        cannot tell from this one (its observation is the same). For search (determinization).
        `rng` is a random.Random, a NumPy Generator or a seed. Raises rulekit.api.env.Inconsistent
        when no deal in `tries` agrees with the moves so far."""
        if self._st.pending is None:
            raise RuntimeError("sample_unseen: the game is over: there is no hidden card left to deal again "
                               "(call reset() to play again)")
        seat = _whole(seat, "seat", 0, self.players - 1)
        if not isinstance(rng, random.Random):
            rng = random.Random(as_seed(rng) if rng is not None else None)
        other = object.__new__(Env)
        other.__dict__.update(self.__dict__)
        other._st = self._st.sample(seat, rng, tries)
        return other

    def odds(self, deals: int | None = None, seed: Any = 0) -> list:
        """What each legal action of the pending decision makes likely, from what the deciding
        seat can see (the table's h key): one rulekit.engine.odds.AnswerOdds per action, in the
        order of legal_actions(), over up to `deals` sampled deals (by default as many as the
        table's budget allows); [] when no deal agrees with what the seat saw. The seed fixes it."""
        from rulekit.engine.odds import answer_odds
        if self._st.pending is None:
            raise RuntimeError("odds: the game is over: there is no decision to weigh (call reset() to play again)")
        return answer_odds(self._st, deals=None if deals is None else _whole(deals, "deals", 1, 100_000), seed=seed)

    def bot(self, name: str = "random", seed: int = 0) -> Bot:
        """A built-in bot as an agent for this Env: `env.step(env.bot('careful').act(env))`."""
        return Bot(self, name, seed)

    # -- what can be seen ---------------------------------------------------------------
    @property
    def done(self) -> bool:
        """True when the game is over."""
        return self._st.pending is None

    @property
    def current_player(self) -> int | None:
        """The seat whose decision the game waits for, or None when it is over."""
        d = self._st.pending
        return None if d is None else d.player

    @property
    def seating(self) -> list[int]:
        """After a variant's seat draw: seat s is taken by player `seating[s]` (rulekit.play
        reorders its agents so); [0, 1, ...] when the variant has no draw. Env's seats are the
        seats after the draw."""
        return list(self._st.ctx.seating or range(self.players))

    @property
    def pending(self) -> Pending | None:
        """The decision the game waits for (player, choice id, prompt, legal actions), or None."""
        d = self._st.pending
        if d is None:
            return None
        return Pending(d.player, d.choice.id, d.prompt, json_safe(d.legal))

    def legal_actions(self) -> list[dict]:
        """The legal actions of the pending decision as {parameter: value} dicts (cards by id)."""
        d = self._st.pending
        return [] if d is None else json_safe(d.legal)

    def _seat(self, seat: Any) -> int:
        return _whole(seat, "seat", 0, self.players - 1)

    def observation(self, seat: int) -> dict:
        """What `seat` may see now, as plain JSON data: hidden cards are '?', variables as their
        visibility allows (rulekit.engine.varvis)."""
        seat = self._seat(seat)
        d = self._st.pending
        obs = json_safe(self.game.observation(self._st.ctx, seat))
        if d is not None and d.player == seat:
            obs["choice"] = d.choice.id
            obs["prompt"] = getattr(d, "prompt", None) or d.choice.prompt
        return obs

    def observation_vector(self, seat: int) -> list[int]:
        """What `seat` may see now as a flat list of whole numbers; `vector_layout()` names its parts."""
        from rulekit.api.encoding import observation_vector
        return observation_vector(self, self._seat(seat))

    def vector_layout(self) -> list[tuple[str, int, int]]:
        """(part, start, length) for each part of `observation_vector` (see docs/guides/python.md)."""
        from rulekit.api.encoding import vector_layout
        return vector_layout(self)

    def vector_size(self) -> int:
        """The length of `observation_vector` for this game and number of players."""
        last = self.vector_layout()[-1]
        return last[1] + last[2]

    @property
    def rewards(self) -> list[int]:
        """Chips each seat has won (positive) or lost (negative) since the start."""
        start = self._start_chips()
        return [c - start for c in self._st.ctx.chips]

    def _start_chips(self) -> int:
        return int(self.game.start_chips) if getattr(self.game, "start_chips", None) else 0

    @property
    def events(self) -> list[dict]:
        """Everything that happened so far, as the play log records it (chance included; empty
        when the Env was made with logging=False)."""
        return list(self._st.ctx.events)

    @property
    def result(self) -> GameResult | None:
        """The finished game (chips, per-round changes, events, replayable log), or None."""
        return self._st.finished()

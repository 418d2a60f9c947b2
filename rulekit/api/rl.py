"""PettingZoo: any variant as an AEC environment with action masks (extra `rulekit[rl]`).

    >>> from rulekit.api.rl import aec_env
    >>> env = aec_env("my-game", players=4, rounds=1)
    >>> env.reset(seed=3)
    >>> obs, reward, terminated, truncated, info = env.last()
    >>> sorted(obs)
    ['action_mask', 'observation']

Agents are named `seat_0` ... `seat_{n-1}` (the seats after the variant's seat draw, if any).
An observation is the seat's `Env.observation_vector` as float32 (layout in rulekit.api.encoding
and docs/guides/python.md; every entry within the bounds of `obs_bounds`, chips and variables
clipped to +-OBS_LIMIT); the action is an action code (rulekit.api.encoding: a card's deck
index, 0/1 for a yes/no, a number for a number choice, else the index of the legal action),
and `action_mask` marks the legal codes. The action space has `max_actions` codes: by default
the larger of the deck size and twice the largest code seen in seeded random games. Rewards
are the chips each seat won or lost at each step; chips that moved before the first decision
are paid with the first step: over a game they add up to the game's chip changes exactly.
Seeding follows Gymnasium: a seeded reset seeds the later unseeded ones (DealSeeds); `infos`
are empty (no seed: a seed gives the whole deal away).
"""
from __future__ import annotations

import random
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("rulekit.api.rl needs the rl extra: pip install 'rulekit[rl]'") from exc

from rulekit.api.encoding import action_codes, vector_layout
from rulekit.api.env import Env, as_seed
from rulekit.engine.runner import MAX_ROUNDS

__all__ = ["RulekitAEC", "aec_env", "largest_action_count", "check_action", "spaces_for", "default_max_actions",
           "obs_bounds", "float_observation", "DealSeeds", "OBS_LIMIT"]

OBS_LIMIT = 1_000_000  # chips and variables are clipped to +-OBS_LIMIT (float32 holds them exactly)
_DEAL_TAG = 0x72756C656B6974  # mixed into a reset's seed so that np_random's state says nothing of the deals


class DealSeeds:
    """The game seeds of an environment's episodes, Gymnasium's way: `seed(s)` (a whole number
    or a NumPy Generator) restarts the sequence, `draw()` gives the next game's seed (from the
    OS until the first seeded reset). A generator of its own: Gymnasium's `np_random`, seeded
    from the same s, cannot be stepped back to a deal."""

    def __init__(self) -> None:
        self._rng: Any = None

    def seed(self, seed: Any) -> int:
        """Restart from `seed`; returns it as a whole number (for Gymnasium's own np_random)."""
        s = as_seed(seed, "seed")
        self._rng = np.random.default_rng([s, _DEAL_TAG])
        return s

    def _gen(self) -> Any:
        if self._rng is None:
            self._rng = np.random.default_rng()
        return self._rng

    def draw(self) -> int:
        """The next game's seed."""
        return int(self._gen().integers(0, 2 ** 63))

    def role(self, n: int) -> int:
        """A seat's place relative to the dealer, drawn evenly from 0 to n-1."""
        return int(self._gen().integers(0, n))


def largest_action_count(env: Env, games: int = 8, seed: int = 0) -> int:
    """One more than the largest action code at any decision of `games` seeded random games."""
    most = 1
    rng = random.Random(seed)
    for g in range(games):
        env.reset(seed + g)
        while not env.done:
            codes = action_codes(env, 1 << 62)
            most = max(most, max(codes) + 1)
            env.step(rng.randrange(len(codes)))
    return most


def check_action(action: Any, codes: list[int], who: str) -> int:
    """The index of legal action code `action`; TypeError/ValueError naming it otherwise (no
    coercion: 1.9, '1', True, nan and lists are refused)."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"{who}: the action must be a whole number (an action code), "
                        f"found {type(action).__name__} {action!r}")
    a = int(action)
    if a not in codes:
        raise ValueError(f"{who}: action {a} is not legal here: the legal codes are {sorted(codes)}")
    return codes.index(a)


def obs_bounds(env: Env) -> tuple[Any, Any]:
    """Each entry's least and greatest value in the float32 observation (by vector_layout's parts)."""
    n_cards = len(env.game.card_ids)
    lo, hi = [], []
    for part, _start, k in vector_layout(env):
        if part == "sizes":
            a, b = 0, n_cards
        elif part == "round":
            a, b = 0, MAX_ROUNDS
        elif part == "chips" or part.startswith("var:"):
            a, b = -OBS_LIMIT, OBS_LIMIT
        else:  # cards and one-hots
            a, b = 0, 1
        lo += [a] * k
        hi += [b] * k
    return np.asarray(lo, dtype=np.float32), np.asarray(hi, dtype=np.float32)


def float_observation(env: Env, seat: int, space: Any) -> Any:
    """`seat`'s observation vector as float32, clipped into `space`'s bounds."""
    v = np.asarray(env.observation_vector(seat), dtype=np.float32)
    return np.clip(v, space.low, space.high, out=v)


def spaces_for(env: Env, max_actions: int) -> tuple[Any, Any]:
    """The Gymnasium observation (float32 vector, finite bounds) and action spaces of an Env."""
    lo, hi = obs_bounds(env)
    return spaces.Box(lo, hi, dtype=np.float32), spaces.Discrete(max_actions)


def default_max_actions(env: Env) -> int:
    """Action codes to allow: the deck size, or twice the largest code in seeded random games."""
    return max(len(env.game.card_ids), 2 * largest_action_count(env))


class RulekitAEC(AECEnv):
    """A rulekit game as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "rulekit", "is_parallelizable": False}

    def __init__(self, game: Any, players: int | None = None, rounds: int | None = 1, options: dict | None = None,
                 preset: str | None = None, max_actions: int | None = None, render_mode: str | None = None):
        super().__init__()
        if max_actions is not None and (isinstance(max_actions, bool) or not isinstance(max_actions, int)
                                        or max_actions < 1):
            raise ValueError(f"max_actions: expected a whole number of at least 1, found {max_actions!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode: expected None or 'ansi', found {render_mode!r}")
        self.env = Env(game, seed=0, players=players, rounds=rounds, options=options, preset=preset, logging=False)
        self.metadata = {**self.metadata, "name": f"rulekit_{self.env.game.id}"}
        self.render_mode = render_mode
        n = self.env.players
        self.possible_agents = [f"seat_{i}" for i in range(n)]
        self.max_actions = default_max_actions(self.env) if max_actions is None else max_actions
        vec, self._act_space = spaces_for(self.env, self.max_actions)
        self._obs_space = spaces.Dict({"observation": vec,
                                       "action_mask": spaces.Box(0, 1, (self.max_actions,), dtype=np.int8)})
        self.agents: list[str] = []
        self._deals = DealSeeds()

    def observation_space(self, agent: str):
        return self._obs_space

    def action_space(self, agent: str):
        return self._act_space

    # -- AEC protocol ----------------------------------------------------------------
    def reset(self, seed: Any = None, options: dict | None = None) -> None:
        """A new game; `seed` (a whole number or a NumPy Generator) seeds this and later unseeded
        resets (Gymnasium's convention); without any seed so far, a fresh deal."""
        if seed is not None:
            self._deals.seed(seed)
        self.env.reset(self._deals.draw())
        self.agents = list(self.possible_agents)
        # chips that moved before the first decision (antes, a dealer's fee) are paid with the
        # first step (PettingZoo's rewards come from steps); a game with no decision pays them here
        n = len(self.possible_agents)
        now = self.env.rewards if self.env.done else [0] * n
        self.rewards = {a: now[i] for i, a in enumerate(self.possible_agents)}
        self._cumulative_rewards = dict(self.rewards)
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._last = now
        self._select()

    def _select(self) -> None:
        if self.env.done:
            for a in self.agents:
                self.terminations[a] = True
            self.agent_selection = self.agents[0] if self.agents else ""
        else:
            self.agent_selection = self.possible_agents[self.env.current_player]

    def _codes(self) -> list[int]:
        codes = action_codes(self.env, self.max_actions)
        if len(codes) > self.max_actions:
            raise RuntimeError(f"{len(codes)} legal actions, more than max_actions={self.max_actions}: "
                               f"make the environment with a larger max_actions")
        return codes

    def observe(self, agent: str) -> dict:
        if agent not in self.possible_agents:
            raise ValueError(f"observe: no agent {agent!r}: expected one of {', '.join(self.possible_agents)}")
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.max_actions, dtype=np.int8)
        if not self.env.done and self.env.current_player == seat:
            mask[self._codes()] = 1
        return {"observation": float_observation(self.env, seat, self._obs_space["observation"]), "action_mask": mask}

    def step(self, action: Any) -> None:
        if not self.agents:
            raise RuntimeError("step: the game is over (every agent is done): call reset() to play again")
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            if action is not None:
                raise ValueError(f"step: {agent} is done: the only action it may take is None, found {action!r}")
            self._was_dead_step(action)
            return
        i = check_action(action, self._codes(), f"step ({agent})")
        self._cumulative_rewards[agent] = 0
        self.env.step(i)
        now = self.env.rewards
        for j, a in enumerate(self.possible_agents):
            if a in self.rewards:
                self.rewards[a] = now[j] - self._last[j]
        self._last = now
        self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        seat = self.env.current_player if self.env.current_player is not None else 0
        return str(self.env.observation(seat))

    def close(self) -> None:
        pass


def aec_env(game: Any, **kwargs: Any) -> RulekitAEC:
    """A PettingZoo AEC environment for a variant (a Game, id or path); see RulekitAEC."""
    return RulekitAEC(game, **kwargs)

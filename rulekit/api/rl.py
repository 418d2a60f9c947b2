"""PettingZoo: any variant as an AEC environment with action masks (extra `rulekit[rl]`).

    >>> from rulekit.api.rl import aec_env
    >>> env = aec_env("my-game", players=4, rounds=1)
    >>> env.reset(seed=3)
    >>> obs, reward, terminated, truncated, info = env.last()
    >>> sorted(obs)
    ['action_mask', 'observation']

Agents are named `seat_0` ... `seat_{n-1}`. An observation is the seat's `Env.observation_vector`
(a 0/1 vector of the cards it may see, where they lie, who acts and who deals); the action is
an index into the legal actions of the pending decision, and `action_mask` marks the legal
ones. The action space has a fixed size per variant: `max_actions`, by default the largest
number of legal actions seen in seeded random games of the variant (with a margin), checked at
every step. Rewards are chips won or lost at each step.
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

from rulekit.api.env import Env

__all__ = ["RulekitAEC", "aec_env", "largest_action_count"]


def largest_action_count(env: Env, games: int = 8, seed: int = 0) -> int:
    """The most legal actions at one decision in `games` seeded random games of `env`'s game."""
    most = 1
    rng = random.Random(seed)
    for g in range(games):
        env.reset(seed + g)
        while not env.done:
            k = len(env.legal_actions())
            most = max(most, k)
            env.step(rng.randrange(k))
    return most


class RulekitAEC(AECEnv):
    """A rulekit game as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "rulekit", "is_parallelizable": False}

    def __init__(self, game: Any, players: int | None = None, rounds: int | None = 1, options: dict | None = None,
                 preset: str | None = None, max_actions: int | None = None, render_mode: str | None = None):
        super().__init__()
        self.env = Env(game, seed=0, players=players, rounds=rounds, options=options, preset=preset)
        self.metadata = {**self.metadata, "name": f"rulekit_{self.env.game.id}"}
        self.render_mode = render_mode
        n = self.env.players
        self.possible_agents = [f"seat_{i}" for i in range(n)]
        if max_actions is None:
            max_actions = 2 * largest_action_count(self.env)
        self.max_actions = max_actions
        size = self.env.vector_size()
        self._obs_space = spaces.Dict({
            "observation": spaces.Box(0, 1, (size,), dtype=np.int8),
            "action_mask": spaces.Box(0, 1, (max_actions,), dtype=np.int8),
        })
        self._act_space = spaces.Discrete(max_actions)
        self.agents: list[str] = []

    def observation_space(self, agent: str):
        return self._obs_space

    def action_space(self, agent: str):
        return self._act_space

    # -- AEC protocol ----------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.env.reset(seed if seed is not None else self.env.seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._last = self.env.rewards

        self._select()

    def _select(self) -> None:
        if self.env.done:
            for a in self.agents:
                self.terminations[a] = True
            self.agent_selection = self.agents[0] if self.agents else ""
        else:
            self.agent_selection = self.possible_agents[self.env.current_player]

    def observe(self, agent: str) -> dict:
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.max_actions, dtype=np.int8)
        if not self.env.done and self.env.current_player == seat:
            k = len(self.env.legal_actions())
            if k > self.max_actions:
                raise RuntimeError(f"{k} legal actions, more than max_actions={self.max_actions}: "
                                   f"make the environment with a larger max_actions")
            mask[:k] = 1
        return {"observation": np.asarray(self.env.observation_vector(seat), dtype=np.int8), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations.get(agent) or self.truncations.get(agent):
            self._was_dead_step(action)
            return
        k = len(self.env.legal_actions())
        if action is None or not 0 <= int(action) < k:
            raise ValueError(f"{agent}: action {action} is not legal (the mask allows 0 to {k - 1})")
        self._cumulative_rewards[agent] = 0
        self.env.step(int(action))
        now = self.env.rewards
        for i, a in enumerate(self.possible_agents):
            if a in self.rewards:
                self.rewards[a] = now[i] - self._last[i]
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

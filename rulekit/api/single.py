"""One seat of a variant as a single-agent Gymnasium environment, the other seats played by named bots.

    >>> from rulekit.api.single import gym_env
    >>> env = gym_env("my-game", seat=0, others="careful")
    >>> obs, info = env.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].nonzero()[0][0]))

The observation is the seat's observation vector and the action an action code, as in the
PettingZoo environment (rulekit.api.rl; `info["action_mask"]` marks the legal codes). The
reward of a step is the seat's chips won or lost from the step before to the seat's next
decision (or the end), so over an episode the rewards add up to the seat's chip change. When
the seat has no decision at all in a game, `reset` returns it over: `info["over"]` is True
and `info["reward"]` its chip change (call reset again).
`others` names the bots ('random', 'first' or the variant's policies): one for every other
seat, or per seat as '1=careful,2=random'.
"""
from __future__ import annotations

from typing import Any

try:
    import gymnasium
    import numpy as np
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("rulekit.api.single needs the rl extra: pip install 'rulekit[rl]'") from exc

from rulekit.api.encoding import action_codes
from rulekit.api.env import Env, as_seed
from rulekit.api.rl import check_action, default_max_actions, spaces_for
from rulekit.engine.runner import agent_seed, seat_policies

__all__ = ["RulekitGym", "gym_env"]


class RulekitGym(gymnasium.Env):
    """A rulekit game seen from one seat (see the module docstring)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: Any, seat: int = 0, others: str = "random", players: int | None = None,
                 rounds: int | None = 1, options: dict | None = None, preset: str | None = None,
                 max_actions: int | None = None, render_mode: str | None = None):
        self.env = Env(game, seed=0, players=players, rounds=rounds, options=options, preset=preset, logging=False)
        n = self.env.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat: expected 0 to {n - 1}, found {seat!r}")
        if max_actions is not None and (isinstance(max_actions, bool) or not isinstance(max_actions, int)
                                        or max_actions < 1):
            raise ValueError(f"max_actions: expected a whole number of at least 1, found {max_actions!r}")
        self.seat = seat
        try:
            self.others = seat_policies(self.env.game, n, others)
        except Exception as exc:  # a RulekitError: one clear line naming the argument
            raise ValueError(f"others: {getattr(exc, 'diagnostics', [exc])[0]}") from None
        self.max_actions = default_max_actions(self.env) if max_actions is None else max_actions
        self.observation_space, self.action_space = spaces_for(self.env, self.max_actions)
        self.render_mode = render_mode
        self._bots: list = []
        self._last = 0

    def _mask(self) -> np.ndarray:
        mask = np.zeros(self.max_actions, dtype=np.int8)
        if not self.env.done:
            mask[action_codes(self.env, self.max_actions)] = 1
        return mask

    def _play_others(self) -> None:
        env = self.env
        while not env.done and env.current_player != self.seat:
            env.step(self._bots[env.current_player].act(env))

    def _out(self) -> tuple[np.ndarray, dict]:
        obs = np.asarray(self.env.observation_vector(self.seat), dtype=np.int64)
        return obs, {"action_mask": self._mask(), "seed": self.env.seed}

    def reset(self, *, seed: Any = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """A new game (from `seed`, an int or NumPy Generator; a fresh deal when None), played by
        the bots up to the seat's first decision."""
        game_seed = as_seed(seed)
        super().reset(seed=game_seed)
        self.env.reset(game_seed)
        self._bots = [self.env.bot(name, agent_seed(game_seed, s)) for s, name in enumerate(self.others)]
        self._last = 0
        self._play_others()
        obs, info = self._out()
        if self.env.done:  # the seat had no decision to take: its whole result is reported here
            self._last = self.env.rewards[self.seat]
            info.update(over=True, reward=self._last)
        return obs, info

    def step(self, action: Any) -> tuple[np.ndarray, int, bool, bool, dict]:
        if self.env.done:
            raise RuntimeError("step: the game is over: call reset() to play again")
        i = check_action(action, action_codes(self.env, self.max_actions), "step")
        self.env.step(i)
        self._play_others()
        now = self.env.rewards[self.seat]
        reward, self._last = now - self._last, now
        obs, info = self._out()
        return obs, reward, self.env.done, False, info

    def render(self) -> str | None:
        return str(self.env.observation(self.seat)) if self.render_mode == "ansi" else None


def gym_env(game: Any, **kwargs: Any) -> RulekitGym:
    """A single-agent Gymnasium environment for one seat of a variant; see RulekitGym."""
    return RulekitGym(game, **kwargs)

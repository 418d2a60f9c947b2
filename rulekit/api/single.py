"""One seat of a variant as a single-agent Gymnasium environment, the other seats played by named bots.

    >>> from rulekit.api.single import gym_env
    >>> env = gym_env("my-game", seat=0, others="careful")
    >>> obs, info = env.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = env.step(int(env.action_masks().nonzero()[0][0]))

It passes Gymnasium's and Stable-Baselines3's `check_env` and trains with sb3-contrib's
MaskablePPO. The observation is the seat's observation vector as float32 within finite bounds
and the action an action code, as in the PettingZoo environment (rulekit.api.rl);
`action_masks()` and `info["action_mask"]` mark the legal codes. The reward of a step is the
seat's chips won or lost from the step before to the seat's next decision (or the end), so over
an episode the rewards add up to the seat's chip change.

- `reset` always returns a game in which the seat has a decision: a game in which it has none
  (everything decided by others) is dealt on; `info["skipped"]` counts those games and
  `info["skipped_reward"]` is the seat's chips in them (count both when you compare results).
- An action code that is not legal (`illegal="end"`, the default) ends the episode: the
  reward is `illegal_penalty`, `info["illegal"]` is True, and the game is abandoned. With
  `illegal="raise"` it raises ValueError instead.
- Seeding follows Gymnasium: `reset(seed=s)` seeds this and every later unseeded reset, so a
  run seeded once is reproducible; deals come from a generator of the environment's own (not
  `np_random`), and nothing in `info` or the observation holds a seed.
- `role` is the seat's place relative to the dealer (0: the seat deals, 1: it plays first after
  the dealer, ...): a whole number, "random" (drawn each episode) or None (the variant decides
  the first dealer); `reset(options={"role": k})` sets it for one episode. `info["role"]` is the
  seat's role in the episode's first round.

`others` names the bots ('random', 'first' or the variant's policies): one for every other
seat, or per seat as '1=careful,2=random'. `env.env` is the referee's Env (the whole game,
hidden cards and seed included): for evaluation and debugging, never an agent's input.
"""
from __future__ import annotations

from typing import Any

try:
    import gymnasium
    import numpy as np
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("rulekit.api.single needs the rl extra: pip install 'rulekit[rl]'") from exc

from rulekit.api.encoding import action_codes
from rulekit.api.env import Env
from rulekit.api.rl import DealSeeds, check_action, default_max_actions, float_observation, spaces_for
from rulekit.engine.runner import agent_seed, seat_policies

__all__ = ["RulekitGym", "gym_env", "ILLEGAL_RULES", "MAX_SKIPS"]

ILLEGAL_RULES = ("end", "raise")
MAX_SKIPS = 10_000  # games dealt in one reset before giving up (the seat never decides)


class RulekitGym(gymnasium.Env):
    """A rulekit game seen from one seat (see the module docstring)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, game: Any, seat: int = 0, others: str = "random", players: int | None = None,
                 rounds: int | None = 1, options: dict | None = None, preset: str | None = None,
                 max_actions: int | None = None, render_mode: str | None = None, role: Any = None,
                 illegal: str = "end", illegal_penalty: float = -1.0):
        self.env = Env(game, seed=0, players=players, rounds=rounds, options=options, preset=preset, logging=False)
        n = self.env.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat: expected 0 to {n - 1}, found {seat!r}")
        if max_actions is not None and (isinstance(max_actions, bool) or not isinstance(max_actions, int)
                                        or max_actions < 1):
            raise ValueError(f"max_actions: expected a whole number of at least 1, found {max_actions!r}")
        if illegal not in ILLEGAL_RULES:
            raise ValueError(f"illegal: expected one of {', '.join(ILLEGAL_RULES)}, found {illegal!r}")
        if isinstance(illegal_penalty, bool) or not isinstance(illegal_penalty, (int, float)) \
                or not np.isfinite(illegal_penalty):
            raise ValueError(f"illegal_penalty: expected a finite number, found {illegal_penalty!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode: expected None or 'ansi', found {render_mode!r}")
        self.seat = seat
        self.role = self._role(role, "role")
        self.illegal, self.illegal_penalty = illegal, float(illegal_penalty)
        try:
            self.others = seat_policies(self.env.game, n, others)
        except Exception as exc:  # a RulekitError: one clear line naming the argument
            raise ValueError(f"others: {getattr(exc, 'diagnostics', [exc])[0]}") from None
        self.max_actions = default_max_actions(self.env) if max_actions is None else max_actions
        self.observation_space, self.action_space = spaces_for(self.env, self.max_actions)
        self.render_mode = render_mode
        self._deals = DealSeeds()
        self._bots: list = []
        self._last = 0
        self._over = True  # no episode yet: step needs a reset first
        self._mask_now: np.ndarray | None = None
        self._codes_now: list[int] | None = None

    def _role(self, role: Any, what: str) -> Any:
        n = self.env.players
        if role is None or role == "random":
            return role
        if isinstance(role, bool) or not isinstance(role, (int, np.integer)) or not 0 <= int(role) < n:
            raise ValueError(f"{what}: expected None, 'random' or a whole number from 0 (the dealer) to {n - 1}, "
                             f"found {role!r}")
        return int(role)

    # -- what the seat sees -----------------------------------------------------------
    def _codes(self) -> list[int]:
        """The pending decision's action codes (worked out once per decision)."""
        if self._codes_now is None:
            over = self._over or self.env.done
            self._codes_now = [] if over else action_codes(self.env, self.max_actions)
        return self._codes_now

    def action_masks(self) -> np.ndarray:
        """The legal action codes as booleans (sb3-contrib's MaskablePPO reads this)."""
        if self._mask_now is None:
            mask = np.zeros(self.max_actions, dtype=bool)
            mask[self._codes()] = True
            self._mask_now = mask
        return self._mask_now

    def _out(self) -> tuple[np.ndarray, dict]:
        self._mask_now = self._codes_now = None
        obs = float_observation(self.env, self.seat, self.observation_space)
        return obs, {"action_mask": self.action_masks().astype(np.int8)}

    def _play_others(self) -> None:
        env = self.env
        while not env.done and env.current_player != self.seat:
            env.step(self._bots[env.current_player].act(env))

    # -- Gymnasium API ------------------------------------------------------------------
    def reset(self, *, seed: Any = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """A new episode, played by the bots up to the seat's first decision (games in which the
        seat has none are dealt on and counted in info["skipped"]). `seed` (a whole number or a
        NumPy Generator) seeds this and later unseeded resets; `options` may hold "role"."""
        if seed is not None:
            seed = self._deals.seed(seed)
        super().reset(seed=seed)
        role = self.role
        if options:
            unknown = sorted(set(options) - {"role"})
            if unknown:
                raise ValueError(f"options: unknown {', '.join(map(repr, unknown))}: expected 'role'")
            role = self._role(options.get("role", role), "options['role']")
        n = self.env.players
        skipped, skipped_reward = 0, 0
        while True:
            game_seed = self._deals.draw()
            k = self._deals.role(n) if role == "random" else role
            self.env.dealer = None if k is None else (self.seat - k) % n
            self.env.reset(game_seed)
            self._bots = [self.env.bot(name, agent_seed(game_seed, s)) for s, name in enumerate(self.others)]
            self._play_others()
            if not self.env.done:
                break
            skipped += 1
            skipped_reward += self.env.rewards[self.seat]
            if skipped >= MAX_SKIPS:
                raise RuntimeError(f"reset: seat {self.seat} had no decision in {MAX_SKIPS} games in a row")
        self._last = 0
        self._over = False
        obs, info = self._out()
        info.update(skipped=skipped, skipped_reward=float(skipped_reward),
                    role=(self.seat - self.env._st.ctx.dealer) % n)
        return obs, info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        """Play action code `action` for the seat, then the bots up to its next decision."""
        if self._over or self.env.done:
            raise RuntimeError("step: the episode is over: call reset() to play again")
        try:
            i = check_action(action, self._codes(), "step")
        except ValueError:
            if self.illegal == "raise" or not 0 <= int(action) < self.max_actions:
                raise  # strict mode, or not even in the action space
            self._over = True  # the game is abandoned: the episode ends with the penalty
            obs, info = self._out()
            info["illegal"] = True
            return obs, self.illegal_penalty, True, False, info
        self.env.step(i)
        self._play_others()
        now = self.env.rewards[self.seat]
        reward, self._last = now - self._last, now
        self._over = self.env.done
        obs, info = self._out()
        return obs, float(reward), self._over, False, info

    def render(self) -> str | None:
        return str(self.env.observation(self.seat)) if self.render_mode == "ansi" else None


def gym_env(game: Any, **kwargs: Any) -> RulekitGym:
    """A single-agent Gymnasium environment for one seat of a variant; see RulekitGym."""
    return RulekitGym(game, **kwargs)

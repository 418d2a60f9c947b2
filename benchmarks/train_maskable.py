"""MaskablePPO on one seat of a variant for a budget of CPU seconds, then the learner against the
`careful` policy on the same deals: the chips a round each wins in that seat (the other seats
played by `careful` bots), their paired difference with a 95% interval, and training steps/s.
The training code is the Python guide's example (docs/guides/python.md) with a larger budget.
Prints figures; asserts nothing. Needs the rl and train extras (pip install 'rulekit[rl,train]').

    python benchmarks/train_maskable.py [--variant otoroku] [--cpu-seconds 180] [--rounds 2000]
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import numpy as np  # noqa: E402
import torch  # noqa: E402
from sb3_contrib import MaskablePPO  # noqa: E402
from stable_baselines3.common.callbacks import BaseCallback  # noqa: E402

from rulekit.api.env import Env  # noqa: E402
from rulekit.api.rl import float_observation  # noqa: E402
from rulekit.api.single import gym_env  # noqa: E402
from rulekit.engine.runner import agent_seed  # noqa: E402


class CpuBudget(BaseCallback):
    """Stops learning once this process has used `seconds` of CPU time."""

    def __init__(self, seconds: float):
        super().__init__()
        self.seconds, self.start = seconds, time.process_time()

    def _on_step(self) -> bool:
        return time.process_time() - self.start < self.seconds


def play_round(game, seed: int, role: int, seat: int, model, space, max_actions: int) -> int:
    """Chips `seat` wins in one round of `game` from `seed` with `role`: the model (or careful, if None) in
    that seat, careful bots elsewhere (seeded as the Gymnasium environment seeds them)."""
    from rulekit.api.encoding import action_codes
    n = game.variant.meta.players_default
    env = Env(game, seed=seed, rounds=1, dealer=(seat - role) % n, logging=False)
    bots = [env.bot("careful", agent_seed(seed, s)) for s in range(n)]
    while not env.done:
        p = env.current_player
        if p != seat or model is None:
            env.step(bots[p].act(env))
            continue
        codes = action_codes(env, max_actions)
        mask = np.zeros(max_actions, dtype=bool)
        mask[codes] = True
        obs = float_observation(env, seat, space)
        a, _ = model.predict(obs, action_masks=mask, deterministic=True)
        env.step(codes.index(int(a)))
    return env.rewards[seat]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--variant", default="otoroku")
    ap.add_argument("--cpu-seconds", type=float, default=180.0)
    ap.add_argument("--rounds", type=int, default=2000)
    args = ap.parse_args()
    torch.set_num_threads(1)  # a fair CPU budget: one core
    env = gym_env(args.variant, seat=0, others="careful", role="random")
    model = MaskablePPO("MlpPolicy", env, seed=0, verbose=0)
    t = time.process_time()
    model.learn(total_timesteps=10 ** 9, callback=CpuBudget(args.cpu_seconds))
    used = time.process_time() - t
    print(f"{args.variant}: trained {model.num_timesteps} steps in {used:.0f} CPU-s "
          f"({model.num_timesteps / used:.0f} steps/s with updates)", flush=True)
    n = env.env.players
    mine, careful = [], []
    for r in range(args.rounds):
        seed, role = 10 ** 6 + r, r % n  # deals never seen in training; every role as often
        mine.append(play_round(env.env.game, seed, role, 0, model, env.observation_space, env.max_actions))
        careful.append(play_round(env.env.game, seed, role, 0, None, env.observation_space, env.max_actions))
    d = np.asarray(mine, float) - np.asarray(careful, float)
    half = 1.96 * d.std(ddof=1) / math.sqrt(len(d))
    print(f"over {args.rounds} rounds (every role as often, careful bots in the other seats):")
    print(f"  learner {np.mean(mine):+.3f} chips a round, careful {np.mean(careful):+.3f}")
    print(f"  learner - careful: {d.mean():+.3f} [{d.mean() - half:+.3f}, {d.mean() + half:+.3f}] (95%)")


if __name__ == "__main__":
    main()

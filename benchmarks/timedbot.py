"""A search opponent whose real decisions (more than one action) are timed, wall clock and CPU:
shared by the benchmarks that report what a search decision costs."""
from __future__ import annotations

import time
from typing import Any

from rulekit.engine.search import SearchAgent


class TimedBot:
    """Plays as `agent` and keeps the seconds (`wall`) and CPU seconds (`cpu`) of each decision it
    had to make (one legal action is not a decision)."""

    def __init__(self, agent: SearchAgent):
        self.agent, self.name = agent, agent.name
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def watch(self, *a: Any) -> None:
        self.agent.watch(*a)

    def round_start(self, *a: Any) -> None:
        self.agent.round_start(*a)

    def act(self, d: Any) -> int:
        t, c = time.perf_counter(), time.process_time()
        i = self.agent.act(d)
        if len(d.actions) > 1:
            self.wall.append(time.perf_counter() - t)
            self.cpu.append(time.process_time() - c)
        return i

"""How many lines a 100x40 terminal shows between two of the person's prompts in Kakkuri
(7 players, you at seat 0, 3 rounds, seeds 0-19): the distribution, and the stretches over 38
lines. Usage: python benchmarks/kakkuri_screen.py [seeds] [rounds]"""
from __future__ import annotations

import collections
import io
import sys

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import game
from rulekit.people.table import Screen, Table

MARK = "\x00ASK"


def stretches(seed: int, rounds: int = 3, human: int = 0) -> list[int]:
    """Lines shown between consecutive prompts of one seeded game (wrapped at 100 columns)."""
    g = game("mekurifuda/kakkuri.yaml")
    out = io.StringIO()
    screen = Screen(io.StringIO("1\n" * 4000), out)
    screen.console.soft_wrap = False
    screen.console.width = 100
    ask = screen.ask

    def marked(prompt: str):
        screen.console.file.write(MARK + "\n")
        return ask(prompt)
    screen.ask = marked  # type: ignore[method-assign]
    table = Table(g, 7, human, screen, pause=True)
    table.nar.rounds = rounds
    res = play(g, 7, seed, make_agents(g, 7, seed, "careful", human=human, human_agent=table), rounds=rounds,
               dealer=0, observe=table.observe)
    table.finish(res.chips, rounds)
    lines = out.getvalue().split("\n")
    marks = [i for i, ln in enumerate(lines) if ln == MARK]
    # the lines strictly between one prompt's line and the next prompt's line
    return [b - a - 2 for a, b in zip(marks, marks[1:])]


def main() -> None:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    spans = [n for s in range(seeds) for n in stretches(s, rounds)]
    hist = collections.Counter((n // 10) * 10 for n in spans)
    print(f"stretches: {len(spans)}, max {max(spans)}, over 38: {sum(n > 38 for n in spans)}")
    print("by tens: " + ", ".join(f"{k}-{k + 9}: {hist[k]}" for k in sorted(hist)))


if __name__ == "__main__":
    main()

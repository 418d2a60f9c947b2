"""Helpers for stacked-deck rule tests: fixed card order, scripted choices, readable results."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable

from rulekit.engine.agents import Decision, FirstLegalAgent
from rulekit.engine.build import build_game, load_variant
from rulekit.engine.game import Game
from rulekit.engine.runner import GameResult, play

from rulekit.core.paths import PROJECT_ROOT as ROOT


def variant_path(rel: str) -> str:
    """Path of a shipped variant file, relative to variants/."""
    return os.path.join(ROOT, "variants", rel)


def game(rel: str, options: dict[Any, Any] | None = None, deck: str | None = None, preset: str | None = None) -> Game:
    """Build a shipped variant with option values."""
    return build_game(load_variant(variant_path(rel)), options, preset, deck)


class Script:
    """Answers decisions in order: an int (index), a dict (partial match), a callable, or None (first)."""

    name = "script"

    def __init__(self, moves: list[Any], by_choice: dict[str, list[Any]] | None = None):
        self.moves = list(moves)
        self.by_choice = {k: list(v) for k, v in (by_choice or {}).items()}
        self.seen: list[tuple[str, int, list[dict[Any, Any]]]] = []

    def act(self, d: Decision) -> int:
        legal = d.legal
        self.seen.append((d.choice.id, d.player, legal))
        queue = self.by_choice.get(d.choice.id)
        if queue:
            want = queue.pop(0)
        elif self.moves:
            want = self.moves.pop(0)
        else:
            want = None
        if want is None:
            return 0
        if isinstance(want, int):
            return want
        if callable(want):
            for i, a in enumerate(legal):
                if want(a):
                    return i
            raise AssertionError(f"no legal action matches at {d.choice.id}: {legal}")
        for i, a in enumerate(legal):
            if all(a.get(k) == v for k, v in want.items()):
                return i
        raise AssertionError(f"{want} is not legal at {d.choice.id} for seat {d.player}; legal: {legal}")


class DrawTo(Script):
    """A Script that answers draw-or-stop choices by hand size: draw until seat s holds size[s] cards.

    `choices` are the ids of the draw decisions, `param` their yes/no parameter and `zone` the
    per-player zone counted; every other decision follows the Script rules.
    """

    def __init__(self, size: dict[int, int], by_choice: dict[Any, Any] | None = None,
                 choices: tuple[str, ...] = ("draw", "dealer_draw"), param: str = "hit", zone: str = "hand"):
        super().__init__([], by_choice)
        self.size = dict(size)
        self.choices, self.param, self.zone = choices, param, zone

    def act(self, d: Decision) -> int:
        if d.choice.id in self.choices:
            legal = d.legal
            self.seen.append((d.choice.id, d.player, legal))
            want = len(d.ctx.zones[self.zone][d.player]) < self.size.get(d.player, 0)
            for i, a in enumerate(legal):
                if a[self.param] == want:
                    return i
            raise AssertionError(f"seat {d.player} may not {'draw' if want else 'stop'}: {legal}")
        return super().act(d)


@dataclass
class Outcome:
    """A finished stacked game: result, the script (with every decision seen), and the game."""

    result: GameResult
    script: Script
    game: Game

    @property
    def chips(self) -> list[int]:
        return self.result.chips

    def events(self, kind: str) -> list[dict[Any, Any]]:
        return [e for e in self.result.events if e["t"] == kind]

    def legal_at(self, choice: str) -> list[list[dict[Any, Any]]]:
        """Every legal-action list offered at decisions with this choice id."""
        return [legal for cid, _p, legal in self.script.seen if cid == choice]


def run(g: Game, players: int, top: list[str], moves: list[Any] | None = None,
        by_choice: dict[str, list[Any]] | None = None, zone: str = "deck", dealer: int = 0, rounds: int = 1,
        seed: int = 1, checks: Callable[..., Any] | None = None) -> Outcome:
    """Play with `top` stacked on `zone` after each shuffle and every seat following the script."""
    script = Script(moves or [], by_choice)
    res = play(g, players, seed, [script] * players, rounds=rounds, logging=True, dealer=dealer,
               stack={zone: list(top)}, checks=checks)
    return Outcome(res, script, g)


__all__ = ["game", "run", "Script", "DrawTo", "Outcome", "variant_path", "FirstLegalAgent"]

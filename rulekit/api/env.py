"""A game driven from outside, one decision at a time: reset, legal actions, step.

The engine runs a round as one call that asks agents at each decision point. `Env` turns
that inside out without a second implementation of the rules and without threads: the game
is played again from its seed with the decisions taken so far, and stops at the first
decision nobody has taken yet. Shuffles and cuts come from the seed, so every replay reaches
the same point; the cost is one replay per step, which is small for rounds of a few dozen
decisions and leaves the callback runner (and simulation speed) untouched.

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

from rulekit.engine.agents import Decision, json_safe, to_index
from rulekit.engine.game import Game
from rulekit.engine.runner import GameResult, play

__all__ = ["Env", "Pending"]


class _Pause(BaseException):
    """Raised at the first decision not yet taken (a BaseException: rule code never catches it)."""

    def __init__(self, decision: Decision):
        super().__init__()
        self.decision = decision


class _Script:
    """Answers with the decisions taken so far, then pauses the game at the next one."""

    name = "env"

    def __init__(self, moves: list[int]):
        self.moves = moves
        self.pos = 0

    def act(self, d: Decision) -> int:
        if self.pos < len(self.moves):
            self.pos += 1
            return self.moves[self.pos - 1]
        raise _Pause(d)


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


class Env:
    """A seeded game of a variant, stepped one decision at a time.

    `game` is a built Game, or a variant id or path. `rounds` defaults to the variant's game
    length. After `reset()`, `current_player` is the seat to act (None when `done`),
    `legal_actions()` what it may do, `step(action)` takes an index into that list or one of
    its dicts. `rewards` are each seat's chips won or lost so far; `events` the log.
    """

    def __init__(self, game: Any, seed: int = 0, players: int | None = None, rounds: int | None = None,
                 options: dict | None = None, preset: str | None = None, dealer: int | None = None):
        self.game = _as_game(game, options, preset)
        meta = self.game.variant.meta
        self.players = players or meta.players_default
        if not meta.players_min <= self.players <= meta.players_max:
            raise ValueError(f"players: expected {meta.players_min} to {meta.players_max}, found {self.players}")
        self.rounds = rounds
        self.dealer = dealer
        self.seed = seed
        self.moves: list[int] = []
        self._pending: Decision | None = None
        self._result: GameResult | None = None
        self._ctx: Any = None
        self._events: list[dict] | None = None
        self.reset(seed)

    # -- driving ---------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> None:
        """Start the game again (with a new seed if given) and run to the first decision."""
        if seed is not None:
            self.seed = seed
        self.moves = []
        self._advance()

    def step(self, action: int | dict) -> None:
        """Take `action` (an index into `legal_actions()`, or one of its dicts) for `current_player`."""
        d = self._pending
        if d is None:
            raise RuntimeError("the game is over: call reset() to play again")
        i = action if isinstance(action, int) and not isinstance(action, bool) else None
        if i is None or not 0 <= i < len(d.actions):
            i = to_index(action, json_safe(d.legal), d)
        self.moves.append(i)
        self._advance()

    def _advance(self) -> None:
        """Replay from the seed with the decisions so far; stop at the next one or at the end.

        Without the event log (faster); `events` replays once more with it when asked, and a
        finished game is always replayed with it so that `result.log` can be replayed."""
        self._events = None
        res = self._replay(logging=False)
        if res is not None:
            res = self._replay(logging=True)
            self._events = res.events

    def _replay(self, logging: bool) -> GameResult | None:
        script = _Script(self.moves)
        try:
            res = play(self.game, self.players, self.seed, [script] * self.players, rounds=self.rounds,
                       logging=logging, dealer=self.dealer)
        except _Pause as p:
            self._pending, self._result, self._ctx = p.decision, None, p.decision.ctx
            if logging:
                self._events = list(p.decision.ctx.events)
            return None
        self._pending, self._result, self._ctx = None, res, res.state
        return res

    # -- what can be seen ---------------------------------------------------------------
    @property
    def done(self) -> bool:
        """True when the game is over."""
        return self._pending is None

    @property
    def current_player(self) -> int | None:
        """The seat whose decision the game waits for, or None when it is over."""
        return None if self._pending is None else self._pending.player

    @property
    def pending(self) -> Pending | None:
        """The decision the game waits for (player, choice id, prompt, legal actions), or None."""
        d = self._pending
        if d is None:
            return None
        return Pending(d.player, d.choice.id, d.prompt, json_safe(d.legal))

    def legal_actions(self) -> list[dict]:
        """The legal actions of the pending decision as {parameter: value} dicts (cards by id)."""
        return [] if self._pending is None else json_safe(self._pending.legal)

    def observation(self, seat: int) -> dict:
        """What `seat` may see now, as plain JSON data (hidden cards are '?')."""
        obs = json_safe(self.game.observation(self._ctx, seat))
        if self._pending is not None and self._pending.player == seat:
            obs["choice"] = self._pending.choice.id
            obs["prompt"] = self._pending.prompt
        return obs

    def observation_vector(self, seat: int) -> list[int]:
        """What `seat` may see now as a flat 0/1 vector: for each pile of each zone, for each card
        of the deck, 1 when the card is there and `seat` may see it; then the pending player
        and the dealer, one-hot. Its length is `vector_size()`."""
        g, ctx = self.game, self._ctx
        ncards = len(g.card_ids)
        out: list[int] = []
        for zname, z in g.variant.zones.items():
            piles = [ctx.zones[zname]] if z.kind == "single" else ctx.zones[zname]
            for i, pile in enumerate(piles):
                row = [0] * ncards
                for c in pile:
                    if g.visible(ctx, seat, zname, None if z.kind == "single" else i, c):
                        row[c] = 1
                out += row
        cur = [0] * self.players
        if self._pending is not None:
            cur[self._pending.player] = 1
        dealer = [0] * self.players
        dealer[ctx.dealer % self.players] = 1
        return out + cur + dealer

    def vector_size(self) -> int:
        """The length of `observation_vector` for this game and number of players."""
        return len(self.observation_vector(0))

    @property
    def rewards(self) -> list[int]:
        """Chips each seat has won (positive) or lost (negative) since the start."""
        start = self._start_chips()
        return [c - start for c in self._ctx.chips]

    def _start_chips(self) -> int:
        return int(self.game.start_chips) if getattr(self.game, "start_chips", None) else 0

    @property
    def events(self) -> list[dict]:
        """Everything that happened so far, as the play log records it (chance included)."""
        if self._events is None:
            self._replay(logging=True)
        return list(self._events or ())

    @property
    def result(self) -> GameResult | None:
        """The finished game (chips, per-round changes, events, replayable log), or None."""
        return self._result

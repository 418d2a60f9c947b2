"""Agents: callables that pick one of the legal actions at a decision point."""
from __future__ import annotations

import operator
import re
import sys
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Protocol, TextIO

from rulekit.core.errors import IllegalAction, Span, error
from rulekit.core.inert import inert
from rulekit.core.numbers import parse_int


def render(value: Any, typ: str, ids: tuple[str, ...]) -> Any:
    """A JSON-friendly form of an action value: cards become their ids."""
    if typ == "card":
        return ids[value]
    if typ.startswith("list<"):
        inner = typ[5:-1]
        return [render(v, inner, ids) for v in value]
    return value


@dataclass
class Decision:
    """A decision point: the chooser, the choice, its legal actions, and lazy views of them."""

    game: Any
    ctx: Any
    choice: Any
    player: int
    actions: list[tuple[Any, ...]]

    @property
    def legal(self) -> list[dict[Any, Any]]:
        """Legal actions as dicts {parameter: value} with cards shown by id."""
        ids = self.game.card_ids
        return [{p: render(v, t, ids) for p, t, v in zip(self.choice.params, self.choice.types, a)}
                for a in self.actions]

    def words(self, name: Callable[[int], str] | None = None) -> tuple[str, dict[str, str]]:
        """The prompt and the per-parameter questions, cards named by `name(card index)` if given."""
        words: tuple[str, dict[str, str]] = self.choice.words(self.ctx, name)
        return words

    @property
    def prompt(self) -> str:
        """The choice's prompt as the chooser reads it now ({expression} parts filled in)."""
        return self.words()[0]

    @property
    def asks(self) -> dict[str, str]:
        """The choice's per-parameter questions as the chooser reads them now."""
        return self.words()[1]

    @property
    def observation(self) -> dict[Any, Any]:
        """What the chooser may see (never hidden cards), as fresh plain JSON data: changing it
        cannot change the game, and `json.dumps` always works on it."""
        obs: dict[Any, Any] = json_safe(self.game.observation(self.ctx, self.player))
        obs["choice"] = self.choice.id
        obs["prompt"] = self.prompt
        return obs

    def describe(self, action: tuple[Any, ...]) -> str:
        """A readable one-line form of an action, cards by name."""
        parts = []
        for p, t, v in zip(self.choice.params, self.choice.types, action):
            parts.append(f"{p}={_names(v, t, self.game)}")
        return ", ".join(parts)


def json_safe(v: Any) -> Any:
    """A deep copy of `v` made of JSON types only: fractions become text such as '7/2', tuples
    lists, map keys text; anything else its text."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return int(v)
    if isinstance(v, float):
        return v
    if isinstance(v, Fraction):
        return str(v)
    if isinstance(v, (list, tuple)):
        return [json_safe(x) for x in v]
    if isinstance(v, dict):
        return {(k if isinstance(k, (str, int, float, bool)) or k is None else str(json_safe(k))): json_safe(x)
                for k, x in v.items()}
    return str(v)


def _names(v: Any, t: str, game: Any) -> str:
    if t == "card":
        return str(game.card_name(v))
    if t.startswith("list<"):
        return "[" + ", ".join(_names(x, t[5:-1], game) for x in v) + "]"
    return str(v).lower() if isinstance(v, bool) else str(v)


class Agent(Protocol):
    def act(self, d: Decision) -> int: ...


M64 = _M64 = (1 << 64) - 1  # SplitMix64's states are 64-bit
GAMMA, MIX1, MIX2 = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB  # SplitMix64's constants


def _step(cell: str, n: str, z: str) -> tuple[list[str], str]:
    """SplitMix64's step of the state held at `cell` and its pick among `n` (multiply-and-shift), as
    Python source: the lines and the answer's expression. The one text of the generator's arithmetic:
    draw, draw2, SplitMix64.randrange and generated choice code (draw_code) are all made from it.
    For n == "2" the pick is the top bit of the last mixed value y: ((y ^ (y >> 31)) * 2) >> 64 is
    the top bit of y ^ (y >> 31), which is y's own (y >> 31 is below 2 ** 33)."""
    lines = [f"{cell} = {z} = ({cell} + {GAMMA}) & {M64}",
             f"{z} = (({z} ^ ({z} >> 30)) * {MIX1}) & {M64}"]
    if n == "2":
        return lines, f"((({z} ^ ({z} >> 27)) * {MIX2} >> 63) & 1)"
    lines.append(f"{z} = (({z} ^ ({z} >> 27)) * {MIX2}) & {M64}")
    return lines, f"((({z} ^ ({z} >> 31)) * ({n})) >> 64)"


def _made(name: str, params: str, cell: str, n: str, doc: str) -> Any:
    """A function `name(params)` that runs _step on `cell` and returns its pick."""
    lines, answer = _step(cell, n, "z")
    src = "\n".join([f"def {name}({params}):", *(f"    {x}" for x in lines), f"    return {answer}"])
    space: dict[str, Any] = {"__builtins__": {}}
    exec(compile(src, f"<agents.{name}>", "exec"), space)  # noqa: S102 - our own text, whole numbers only
    fn = space[name]
    fn.__doc__ = doc
    return fn


class SplitMix64:
    """A small seeded generator (SplitMix64) with `randrange(n)`.

    Seeding costs nothing, where a Mersenne Twister costs microseconds to seed: simulations make
    a fresh agent per seat per round, so that cost dominated a round. Its 64-bit outputs map to
    0..n-1 by multiply-and-shift; the bias is at most n / 2^64.
    """

    __slots__ = ("state",)

    def __init__(self, seed: Any = 0):
        if isinstance(seed, int) and not isinstance(seed, bool):
            self.state = seed & _M64
        else:  # any other seed: a stable 64-bit digest of its text (hash() differs per process)
            import hashlib
            self.state = int.from_bytes(hashlib.blake2b(str(seed).encode(), digest_size=8).digest(), "big")

    if TYPE_CHECKING:
        def randrange(self, n: int) -> int:
            """A uniform whole number from 0 to n - 1 (n >= 1)."""
    else:
        randrange = _made("randrange", "self, n", "self.state", "n", "A uniform whole number from 0 to n - 1 (n >= 1).")


draw: Callable[[list[int], int, int], int] = _made(
    "draw", "states, seat, n", "states[seat]", "n",
    "Seat `seat`'s next pick among n (n >= 1), as SplitMix64(state).randrange(n) would make it, "
    "its state kept in `states[seat]` (the random decider's pick).")
draw2: Callable[[list[int], int], int] = _made(
    "draw2", "states, seat", "states[seat]", "2", "draw(states, seat, 2) in fewer steps.")


def draw_code(states: str, seat: str, n: str, z: str, s: str) -> tuple[list[str], str]:
    """draw(states, seat, n) as Python source for generated choice code (draw2 when n is "2"):
    the lines to run first and the answer's expression, with no call (the same text as draw's).
    `states` and `n` are read as they are, `seat` once (into the local `s` unless a name or a
    number); `z` is a local of the draw's own."""
    lines = []
    if not _SIMPLE.match(seat):
        lines.append(f"{s} = {seat}")
        seat = s
    more, answer = _step(f"{states}[{seat}]", n, z)
    return lines + more, answer


_SIMPLE = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*$|^[0-9]+$")  # code read twice as it is (a name or a number)


def random_decider(states: list[int]) -> Callable[[Any, int, Any], int]:
    """The rules' decide callback (rulekit.engine.runner.decider) for a table where every seat
    plays at random and nothing else is asked: seat s picks as a RandomAgent whose generator's
    state is `states[s]` would (SplitMix64.randrange, step for step), without a call per pick.

    It carries `states` as `random_states`: a game state made with it (rulekit.engine.context.Ctx)
    keeps them as `rand`, and generated choice code then draws with `draw` over the number of
    legal actions, without handing the actions over (the same draws, so the same game)."""
    def decide(choice: Any, player: int, actions: Any) -> int:
        return draw(states, player, len(actions))
    decide.random_states = states  # type: ignore[attr-defined]
    return decide


class RandomAgent:
    """Picks uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: Any = 0):
        self.rng = SplitMix64(seed)

    def act(self, d: Decision) -> int:
        return self.rng.randrange(len(d.actions))


class FirstLegalAgent:
    """Always picks the first legal action (useful for stacked-deck tests)."""

    name = "first"

    def act(self, d: Decision) -> int:
        return 0


class PolicyAgent:
    """Follows a policy written in the variant's YAML; falls back to random play."""

    def __init__(self, policy: str, seed: Any = 0):
        self.name = policy
        self.policy = policy
        self.fallback = RandomAgent(seed)

    def act(self, d: Decision) -> int:
        i = self.preferred(d)
        return self.fallback.act(d) if i is None else i

    def preferred(self, d: Decision) -> int | None:
        """The action the policy's rules pick at `d`, or None where no rule picks one (play is random there)."""
        rules = d.choice.policies.get(self.policy, ())
        if rules:
            ctx = d.ctx
            saved = dict(ctx.loc)
            try:
                for when, prefer in rules:
                    if when is not None and not when(ctx):
                        continue
                    if prefer is None:
                        continue
                    for i, a in enumerate(d.actions):
                        for p, v in zip(d.choice.params, a):
                            ctx.loc[p] = v
                        if prefer(ctx):
                            return i
            finally:
                ctx.loc.clear()
                ctx.loc.update(saved)
        return None


class ScriptedAgent:
    """Replays a list of action indexes (from a log or a test)."""

    name = "scripted"

    def __init__(self, moves: list[int]):
        self.moves = list(moves)
        self.pos = 0

    def act(self, d: Decision) -> int:
        if self.pos >= len(self.moves):
            return 0
        i = self.moves[self.pos]
        self.pos += 1
        return i


class FunctionAgent:
    """Adapts a Python function (observation, legal actions) -> action (index or dict)."""

    name = "python"

    def __init__(self, fn: Callable[[dict[Any, Any], list[dict[Any, Any]]], Any]):
        self.fn = fn

    def act(self, d: Decision) -> int:
        legal = json_safe(d.legal)
        return to_index(self.fn(d.observation, json_safe(legal)), legal, d)


def to_index(answer: Any, legal: list[dict[Any, Any]], d: Decision) -> int:
    """An agent's answer (index or action dict) as a legal index; IllegalAction otherwise."""
    if isinstance(answer, dict):
        for i, a in enumerate(legal):
            if type(answer) is dict and answer == a:
                return i
    elif not isinstance(answer, (bool, float, str, bytes)):
        try:
            i = operator.index(answer)  # an exact int, whatever the answer's class claims
        except (TypeError, ValueError, OverflowError):
            i = None
        if i is not None and 0 <= i < len(legal):
            return i
    try:
        shown = repr(answer) if not isinstance(answer, (list, dict, tuple, str, bytes)) or len(answer) < 50 \
            else f"{type(answer).__name__} of length {len(answer)}"
    except Exception:  # an agent's object whose repr fails still gets a clear error
        shown = f"<{type(answer).__name__}>"
    raise IllegalAction(error(d.choice.span, "E060",
                              f"illegal action {shown[:200]} for seat {d.player} at choice '{d.choice.id}': "
                              f"expected an index 0..{len(legal) - 1} or one of {legal[:6]}"
                              f"{' ...' if len(legal) > 6 else ''}"))


MAX_INPUT_LINE = 1_000  # characters of one typed line read at once
MAX_SKIPPED_LINE = 1_000_000  # characters of a too-long line skipped before the game stops
MAX_INPUT_TRIES = 100  # lines typed at one decision before giving up
MAX_SHOWN_ACTIONS = 200  # actions listed at one decision (the rest are chosen by number)


class HumanAgent:
    """A person at the terminal: sees only their seat's view and types a number."""

    name = "human"

    def __init__(self, inp: TextIO = sys.stdin, out: TextIO = sys.stdout):
        self.inp, self.out = inp, out

    def act(self, d: Decision) -> int:
        obs = d.observation
        game = d.game

        def w(text: str) -> None:
            # prompts, card and zone names come from the variant: shown inert
            self.out.write(inert(text))
        w(f"\n-- seat {d.player} (you), dealer {obs['dealer']}: {d.prompt}\n")
        names = {c.id: c.name for c in game.deck.cards}
        for zname, z in obs["zones"].items():
            if z and isinstance(z[0], list):
                for i, pile in enumerate(z):
                    if pile:
                        w(f"   {zname}[{i}]: {', '.join(names.get(c, '?') for c in pile)}\n")
            elif z:
                w(f"   {zname}: {', '.join(names.get(c, '?') for c in z)}\n")
        w(f"   chips: {obs['chips']}\n")
        for i, a in enumerate(d.actions[:MAX_SHOWN_ACTIONS]):
            w(f"  [{i}] {d.describe(a)}\n")
        if len(d.actions) > MAX_SHOWN_ACTIONS:
            w(f"  ... and {len(d.actions) - MAX_SHOWN_ACTIONS} more (numbers up to {len(d.actions) - 1})\n")
        lines = 0
        while True:
            w("choose> ")
            self.out.flush()
            line = self.inp.readline(MAX_INPUT_LINE + 1)  # bounded: stdin may be /dev/zero
            lines += 1
            if not line:
                raise IllegalAction(error(Span("<stdin>", lines, 1), "E060", "no input: the game needs a choice"))
            if len(line) > MAX_INPUT_LINE:
                # too long to be a number: skip the rest of the line in bounded pieces; a line
                # without end (stdin from /dev/zero) stops the game instead of filling memory
                seen = len(line)
                while not line.endswith("\n"):
                    line = self.inp.readline(MAX_INPUT_LINE)
                    seen += len(line)
                    if not line or seen > MAX_SKIPPED_LINE:
                        raise IllegalAction(error(Span("<stdin>", lines, 1), "E060",
                                                  f"an input line longer than {MAX_SKIPPED_LINE} characters: "
                                                  f"expected a number from 0 to {len(d.actions) - 1}"))
                line = ""
            if lines > MAX_INPUT_TRIES:
                raise IllegalAction(error(Span("<stdin>", lines, 1), "E060",
                                          f"{MAX_INPUT_TRIES} lines without a number from 0 to "
                                          f"{len(d.actions) - 1}"))
            line = line.strip()
            try:
                got = parse_int(line, signed=False, max_digits=11)
                i = -1 if got is None else got
            except ValueError:
                i = -1
            if 0 <= i < len(d.actions):
                return i
            w(f"please type a number from 0 to {len(d.actions) - 1}\n")

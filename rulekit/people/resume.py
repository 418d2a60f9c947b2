"""Continuing a saved game: the game rebuilt from its log, then played again from the start in
silence up to where it stopped (the bots decide again and must agree with the log; the human's
earlier answers come from it), then live.

A seed fully determines a game, so a game interrupted and resumed ends exactly as the same game
played straight through with the same answers; any disagreement is an E070 naming where.
"""
from __future__ import annotations

import io
from typing import Any

from rulekit.engine.agents import Decision, to_index
from rulekit.core.errors import RuleError, RulekitError, Span, error


def _err(where: str, message: str, code: str = "E070", hint: str = "") -> RulekitError:
    return RuleError(error(Span(where, 1, 1), code, message, hint=hint))


def load_saved(path: str, variant: str | None, house: tuple[str, ...]) -> tuple[Any, dict]:
    """The game and the checked log of a saved game (untrusted: read_log checks it all first)."""
    from rulekit.engine.build import build_game, load_variant
    from rulekit.people.replay import check_fields, locate_variant, read_log, variant_digest
    log = read_log(path)
    if not log.get("partial"):
        raise _err(path, f"this game is finished ({log['rounds']} round{'s' if log['rounds'] != 1 else ''} "
                   "played): there is nothing to resume", code="E001",
                   hint=f"replay it with: rulekit replay {path}")
    if "events" not in log:
        raise _err(path, "the saved game has no events: it cannot be checked while it is resumed", code="E010")
    game = build_game(load_variant(locate_variant(log, variant, False), house=house), log["options"],
                      log.get("preset"), log["deck"])
    if variant_digest(game.variant.files) != log["variant_sha256"]:
        raise _err(path, "the variant is not the one the game was played with (its files' digest differs): "
                   "the rules changed since the game was saved",
                   hint="give the variant file and house rules of that game: --variant FILE --house FILE")
    if game.options != log["options"]:
        diff = sorted(k for k in set(game.options) | set(log["options"])
                      if game.options.get(k) != log["options"].get(k))
        raise _err(path, f"the saved game's options do not match the variant's: {', '.join(diff[:10])}")
    check_fields(path, log, game)
    if log.get("stack"):
        raise _err(path, "stack: this saved game was dealt from a stacked deck, which `rulekit play` cannot "
                   "continue", code="E010")
    return game, log


class Resumer:
    """Plays a saved game's decisions again, then hands over to the live game.

    `wrap` puts it between the engine and each seat's agent; `observe` sees every event. Until
    the saved game's last decision and event are reached the table (if any) is fed in silence.
    """

    def __init__(self, game: Any, log: dict, path: str):
        from rulekit.engine.runner import events_digest
        self.game, self.path = game, path
        self.moves: list[int] = log["moves"]
        self.events_n = len(log["events"])
        self.events_sha256 = log["events_sha256"]
        self.logged = [e for e in log["events"] if e.get("t") == "choose" and not e.get("forced")]
        self.pos = 0  # decisions replayed
        self.seen: list[dict] = []  # events played again so far (until live)
        self.live = False
        self.table: Any = None
        self.cache_digest = events_digest
        self._screen: Any = None
        self._pause = False

    def attach(self, table: Any) -> None:
        """Feed `table` in silence until the game is live again."""
        from rulekit.people.table import Screen
        self.table, self._screen, self._pause = table, table.screen, table.pause
        table.screen = Screen(inp=io.StringIO(), out=io.StringIO())
        table.pause = False

    def wrap(self, agents: list) -> list:
        """Each seat's agent behind a replaying front."""
        return [_Seat(self, a) for a in agents]

    def observe(self, e: dict) -> None:
        """One event of the game played again: counted while replaying, shown once live."""
        if not self.live and len(self.seen) >= self.events_n:
            self.go_live(draw=True)
        if not self.live:
            self.seen.append(e)
        if self.table is not None:
            self.table.observe(e)

    def go_live(self, draw: bool) -> None:
        """The saved game is played again in full: check it matches, then show the table as it stands."""
        if self.live:
            return
        if self.pos != len(self.moves) or len(self.seen) != self.events_n:
            raise _err(self.path, f"the saved game does not match the game played again: it has {len(self.moves)} "
                       f"decisions and {self.events_n} events, the game reached {self.pos} and {len(self.seen)}")
        if self.cache_digest(self.seen) != self.events_sha256:
            raise _err(self.path, "the saved game's events differ from the game played again (their digest "
                       "differs): the rules, deck or engine changed since it was saved")
        self.live = True
        self.seen = []
        t = self.table
        if t is None:
            return
        t.screen, t.pause = self._screen, self._pause
        t.buf = []  # what was played again is not told again
        t.screen.say("")
        t.screen.say(f"Back where you left the game: round {t.nar.round_no + 1}.", "heading")
        if draw:
            t.draw_table()

    def finish(self) -> None:
        """The game ended: a saved game that was already at its end is checked all the same."""
        self.go_live(draw=False)

    def decide(self, agent: Any, d: Decision) -> int:
        """A decision: from the log while replaying (a bot's own must agree), else the agent's."""
        j = self.pos
        if j >= len(self.moves):
            self.go_live(draw=agent is not self.table)
            return agent.act(d)
        where = f"decision {j} (round {d.ctx.round_no + 1}, seat {d.player}, choice '{d.choice.id}')"
        if j < len(self.logged):
            e = self.logged[j]
            now = {"choice": d.choice.id, "player": d.player, "of": len(d.actions)}
            was = {k: e.get(k) for k in now}
            if was != now:
                diff = ", ".join(f"{k} {was[k]!r} saved, {now[k]!r} now" for k in now if was[k] != now[k])
                raise _err(self.path, f"the saved game differs at {where}: {diff}")
        want = self.moves[j]
        if not 0 <= want < len(d.actions):
            raise _err(self.path, f"{where}: the saved answer {want + 1} is not one of the {len(d.actions)} "
                       "legal actions")
        if agent is not None and agent is not self.table and getattr(agent, "seconds", None) is None:
            # (a bot on a clock, the table's search opponents, may choose otherwise now: it is not
            # asked, its saved answer stands, as in `rulekit replay`)
            got = agent.act(d)
            if not isinstance(got, int) or isinstance(got, bool) or not 0 <= got < len(d.actions):
                got = to_index(got, d.legal, d)
            if got != want:
                raise _err(self.path, f"the saved game differs at {where}: the bot takes action {got + 1} of "
                           f"{len(d.actions)} now, the saved game has {want + 1}",
                           hint="the saved game was made with other rules, another policy or another "
                           "version of rulekit; it cannot be continued")
        self.pos += 1
        return want


class _Seat:
    """One seat's agent while a saved game is played again."""

    def __init__(self, resumer: Resumer, agent: Any):
        self.resumer, self.agent = resumer, agent
        self.name = getattr(agent, "name", "agent")
        if hasattr(agent, "watch"):  # a searching bot follows the game replayed too (runner.play)
            self.watch, self.round_start = agent.watch, agent.round_start

    def act(self, d: Decision) -> int:
        return self.resumer.decide(self.agent, d)

"""What a compiled game carries besides its rules, each part declared and typed: how its cards and
zones are shown (Display), what build read from `game:` and `players:`, what the front ends attach
(the options given on the command line, where statistics stop a round) and caches.

`Game.extra` is an Extra. Read it by attribute (`game.extra.display.card_facts`); the old string
keys (`game.extra.get("card_facts")`) still work for readers not yet moved, but only the keys
declared in KEYS: a misspelt key is a KeyError, never a silent None.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from rulekit.core.errors import Span


@dataclass(frozen=True)
class Display:
    """How the game's cards and zones are shown to players (from the variant's `display:` and zones)."""

    zone_show: dict[str, Any] = field(default_factory=dict)  # zone -> how its cards are told
    card_show: Callable[..., Any] | None = None  # a card's words, when the variant says them
    card_facts: dict[str, Any] = field(default_factory=dict)  # display.value, .wild, .sort of the cards
    zone_yaku: dict[str, Any] = field(default_factory=dict)  # zone -> the yaku table its cards are read by
    table: list[Any] = field(default_factory=list)  # display.table: the columns at the table
    reasons: dict[str, str] = field(default_factory=dict)  # why a round ended or a payment was made, in words
    names: dict[str, str] = field(default_factory=dict)  # card id -> the name players call it
    reach: Any = None  # display.reach: what a hand is near
    zone_groups: dict[str, Any] = field(default_factory=dict)  # zone -> how its cards are grouped
    zone_last: dict[str, Any] = field(default_factory=dict)  # zone -> its top card is told
    intro: str = ""  # said on the first screen at the table ('' says nothing)
    opponents: str | None = None  # display.opponents: the policy the table's bots play unless told otherwise
    unasked: dict[str, tuple[str, Any]] = field(default_factory=dict)  # display.unasked: choice id -> (said, told)


@dataclass
class Caches:
    """Results worked out from the rules on first use and kept."""

    var_visibility: dict[str, Any] | None = None  # variable -> who sees it (rulekit.engine.varvis)
    where_tally: Any = None  # counts of a choice's `where` (rulekit.engine.lint)


@dataclass
class Extra:
    """Everything a game carries besides its rules (see the module docstring)."""

    display: Display = field(default_factory=Display)
    player_sizes: tuple[int, ...] | None = None  # players.sizes under the options (None: min to max)
    open_ended: Callable[..., Any] | None = None  # game.open_ended: the game may end after any round
    rounds_span: Span | None = None  # where game.rounds is written (a length found wrong in play)
    seat_draw: Any = None  # game.draw: how seats are drawn before the first round
    functions: dict[str, Any] = field(default_factory=dict)  # the variant's own functions
    cli_options: dict[str, str] | None = None  # the -o values given on the command line
    stop_after: Any = None  # the statistic after which a round stops (simulate --stats)
    caches: Caches = field(default_factory=Caches)

    # -- the old string keys ---------------------------------------------------
    def _place(self, key: str) -> tuple[Any, str]:
        where = KEYS.get(key)
        if where is None:
            raise KeyError(f"game.extra has no {key!r}: expected one of {', '.join(KEYS)}")
        owner = self.display if where[0] == "display" else self.caches if where[0] == "caches" else self
        return owner, where[1]

    def __getitem__(self, key: str) -> Any:
        owner, name = self._place(key)
        return getattr(owner, name)

    def get(self, key: str, default: Any = None) -> Any:
        """The value under an old key; `default` when it is unset (None)."""
        value = self[key]
        return default if value is None else value

    def __setitem__(self, key: str, value: Any) -> None:
        owner, name = self._place(key)
        if owner is self.display:
            self.display = dataclasses.replace(self.display, **{name: value})
        else:
            setattr(owner, name, value)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in KEYS and self[key] is not None

    def __iter__(self) -> Iterator[str]:
        return (k for k in KEYS if self[k] is not None)


#: each old string key -> (part, field)
KEYS: dict[str, tuple[str, str]] = {
    **{k: ("display", k) for k in ("zone_show", "card_show", "card_facts", "zone_yaku", "zone_groups", "zone_last")},
    **{f"display_{k}": ("display", k) for k in ("table", "reasons", "names", "reach", "intro", "opponents", "unasked")},
    **{k: ("", k) for k in ("player_sizes", "open_ended", "rounds_span", "seat_draw", "functions", "cli_options",
                           "stop_after")},
    **{k: ("caches", k) for k in ("var_visibility", "where_tally")},
}

"""What a compiled game carries besides its rules, each part declared and typed: how its cards and
zones are shown (Display), what build read from `game:` and `players:`, what the front ends attach
(the options given on the command line, where statistics stop a round) and caches.

`Game.extra` is an Extra, read by attribute (`game.extra.display.card_facts`): a misspelt part is an
AttributeError (and a type checker's error), never a silent None.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

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


@dataclass(slots=True)
class Caches:
    """Results worked out from the rules on first use and kept."""

    var_visibility: dict[str, Any] | None = None  # variable -> who sees it (rulekit.engine.varvis)
    where_tally: Any = None  # counts of a choice's `where` (rulekit.engine.lint)


@dataclass(slots=True)
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

"""Frozen rule objects built from a variant file (no YAML left in them)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulekit.core.errors import Span
from rulekit.core.numbers import parse_int
from rulekit.lang.loader import Node


@dataclass(frozen=True)
class OptionDef:
    """A house-rule switch: bool, int (with bounds) or choice among named values."""

    name: str
    type: str
    default: Any
    description: str
    values: tuple[tuple[str, str], ...] = ()  # choice: (value, meaning)
    min: int | None = None
    max: int | None = None
    source: str = ""
    span: Span | None = None
    says: tuple[tuple[str, str], ...] = ()  # (value key, the sentence that states the rule with it)
    unit: tuple[str, str] = ("", "")  # int: (one, many), e.g. ("chip", "chips")
    label: str = ""  # a short name for players, e.g. "table maximum"

    def key(self, value: Any) -> str:
        """The key of a value in `says`: 'true'/'false' for bool, the value as text otherwise."""
        return str(value).lower() if isinstance(value, bool) else str(value)

    def parse(self, text: Any) -> Any:
        """Turn a user's value (text or data) into this option's type; ValueError if bad."""
        if self.type == "bool":
            if isinstance(text, bool):
                return text
            t = str(text).strip().lower()
            if t in ("true", "yes", "on", "1"):
                return True
            if t in ("false", "no", "off", "0"):
                return False
            raise ValueError(f"expected true or false, found '{text}'")
        if self.type == "int":
            try:
                v = text if type(text) is int else parse_int(text.strip()) if isinstance(text, str) else None
            except (TypeError, ValueError):
                v = None
            if v is None:
                raise ValueError(f"expected a whole number, found '{text}'")
            if self.min is not None and v < self.min:
                raise ValueError(f"expected a number at least {self.min}, found {v}")
            if self.max is not None and v > self.max:
                raise ValueError(f"expected a number at most {self.max}, found {v}")
            return v
        allowed = [v for v, _ in self.values]
        if str(text) not in allowed:
            raise ValueError(f"expected one of {', '.join(allowed)}, found '{text}'")
        return str(text)


@dataclass(frozen=True)
class Preset:
    """A named rule set: option values (and optionally a deck) under one name."""

    name: str
    description: str
    options: dict[str, Any]
    deck: str | None = None


@dataclass(frozen=True)
class ZoneDef:
    """A place cards can be: one zone, one per player, or a fixed number (columns)."""

    name: str
    kind: str  # single | player | count
    count: int
    visibility: str  # public | owner | hidden
    description: str = ""
    label: str = ""  # the zone's name as players say it
    part_of: str = ""  # counted zone whose same-numbered pile these cards are shown with


@dataclass(frozen=True)
class VarDef:
    """A game variable: one value, one per player, or a fixed number; round or game scope."""

    name: str
    kind: str  # single | player | count
    count: int
    init: Any
    scope: str  # round | game
    pot: bool = False
    description: str = ""
    overdraft: bool = False
    visibility: str = ""  # public | owner | hidden; "" = derived from what sets it (engine.varvis)


@dataclass(frozen=True)
class DeckChoice:
    """A deck a variant may be played with: a shipped deck plus an optional derivation."""

    name: str
    base: str
    spec: dict[Any, Any]
    description: str = ""


@dataclass(frozen=True)
class Meta:
    """Names, family, players and sources of a variant."""

    id: str
    names: dict[str, str]
    family: str
    summary: str
    sources: tuple[dict[Any, Any], ...]
    players_min: int
    players_max: int
    players_default: int
    abstract: bool = False
    extra: dict[Any, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Variant:
    """A whole variant after `extends`: declarations plus the merged tree for the rules."""

    meta: Meta
    options: dict[str, OptionDef]
    presets: dict[str, Preset]
    decks: dict[str, DeckChoice]
    default_deck: str
    zones: dict[str, ZoneDef]
    vars: dict[str, VarDef]
    tree: Node
    files: tuple[str, ...]
    file: str
    house_options: dict[str, Any] = field(default_factory=dict)
    house: tuple[Any, ...] = ()

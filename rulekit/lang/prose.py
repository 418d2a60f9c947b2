"""Rules prose that follows the options: `{opt.NAME}` and `{rule.NAME}` in players' text.

A variant's text for players may name an option instead of stating its value:

* `{opt.NAME}` is the value in words: an int with its `unit` ("20 chips", "1 chip"), a
  choice by its meaning in `values`, a bool as yes or no;
* `{rule.NAME}` is the sentence the option's `says:` gives for the value in effect;
* `{yaku.TABLE.ID}` is the value of a special hand in words ("three"), as a house file may
  change it (`{yaku.TABLE.ID:digits}` in digits); in a hand's own text `{value}` is its value in
  digits, `{value:words}` in words and `{value:times}` as 'twice' / 'three times';
* `{fig.NAME}` is a figure the rules compute under the options and house rules in effect (the
  deck's cards, a variable's start such as par, the players; rulekit.engine.figures), in digits,
  `{fig.NAME:words}` in words, `{fig.NAME@4}` for four players.

Rendered for the game's rules text (`Prose.standard_page`), a `{rule.NAME}` reads as the default's
sentence followed by "(house rule: ...)" naming the alternatives. The game's web page
(`Prose.page`) states the default's sentence alone: its House rules section tells the others.
Rendered for a table's own game (`Prose.sheet`), it is the sentence of the value in effect,
and every piece whose words differ from the standard game is wrapped in marks (see `MARK_*`)
naming the option, for the sheet's renderers to highlight and footnote. `{{` and `}}` are
literal braces.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from rulekit.lang.model import OptionDef
from rulekit.lang.textrefs import register_figures, registered_figures

#: a marked piece: MARK_OPEN key MARK_MID words MARK_CLOSE (private-use characters, never in a file's text)
MARK_OPEN, MARK_MID, MARK_CLOSE = "\ue000", "\ue001", "\ue002"
PLACE = re.compile(r"\{\{|\}\}|\{(opt|rule)\.([A-Za-z_][A-Za-z0-9_]*)\}|\{yaku\.([\w-]+)\.([\w-]+)(?::(words|digits|times))?\}"
                   r"|\{fig\.([A-Za-z_]\w*)(?:@(\d{1,3}))?(?::(words|digits|times))?\}")
NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                "twelve")
MARKED = re.compile(MARK_OPEN + "([^" + MARK_MID + "]*)" + MARK_MID + "([^" + MARK_CLOSE + "]*)" + MARK_CLOSE)


@dataclass(frozen=True)
class Prose:
    """How to render prose: the options, the values in effect and the standard ones."""

    options: dict[str, OptionDef]
    values: dict[str, Any]
    standard: dict[str, Any]
    alternatives: bool = True  # the game's own rules: every step told, whatever the options
    asides: bool = True  # with alternatives: "(house rule: ...)" after a {rule.NAME}
    extra_marks: frozenset[Any] = field(default_factory=frozenset)  # keys marked whatever their value
    yaku_values: dict[Any, Any] = field(default_factory=dict)  # "TABLE.ID" -> the yaku's value, for {yaku.TABLE.ID}
    # (option values, seats or None) -> {figure: number}, for {fig.NAME} (rulekit.engine.figures);
    # None: the source registered for these options when the variant was loaded
    figures: Any = None

    @classmethod
    def standard_page(cls, options: dict[str, OptionDef]) -> "Prose":
        """The game as its file states it, alternatives named."""
        std = {k: o.parse(o.default) for k, o in options.items()}
        return cls(options, std, std, True)

    @classmethod
    def page(cls, options: dict[str, OptionDef]) -> "Prose":
        """The game as its file states it, without the "(house rule: ...)" asides (a web page lists the
        house rules in a section of their own)."""
        std = {k: o.parse(o.default) for k, o in options.items()}
        return cls(options, std, std, True, asides=False)

    @classmethod
    def sheet(cls, options: dict[str, OptionDef], values: dict[str, Any]) -> "Prose":
        """A table's own game: the values in effect stated as the rules, changes marked."""
        std = {k: o.parse(o.default) for k, o in options.items()}
        return cls(options, {**std, **values}, std, False)

    def changed(self, name: str) -> bool:
        """True when the option's value in effect differs from the standard game's."""
        return self.values.get(name) != self.standard.get(name)


def value_words(o: OptionDef, value: Any) -> str:
    """A value as players say it: '20 chips', a choice's meaning, 'yes'/'no'."""
    if o.type == "int":
        one, many = o.unit
        unit = one if value == 1 else many
        return f"{value} {unit}".strip()
    if o.type == "bool":
        return "yes" if value else "no"
    meaning = dict(o.values).get(str(value), "")
    return meaning or str(value)


def says(o: OptionDef, value: Any) -> str | None:
    """The sentence `says:` gives for a value (an int's '*' for any other number), or None."""
    d = dict(o.says)
    s = d.get(o.key(value))
    if s is None and o.type == "int":
        s = d.get("*")
    return s


def reading(o: OptionDef, value_key: str, p: Prose) -> str:
    """One reading of an option in players' words: a choice's meaning, else its `says:` sentence."""
    return _alternative(o, value_key, p)


def _alternative(o: OptionDef, value_key: str, p: Prose) -> str:
    meaning = dict(o.values).get(value_key, "") if o.type == "choice" else ""
    if meaning:
        return meaning
    value: Any = value_key
    if o.type == "bool":
        value = value_key == "true"
    elif o.type == "int" and value_key.lstrip("-").isdigit():
        value = int(value_key)
    s = _fill(says(o, value) or "", p, {o.name: value}, mark=False).strip()
    first = s.split(" ", 1)[0]
    if first in COMMON_FIRST_WORDS:  # "Every player" -> "every player"; a hand's name stays capitalised
        s = s[:1].lower() + s[1:]
    return s.rstrip(".")


#: sentence openings that are not names, so a sentence in "(house rule: ...)" may start in lower case
COMMON_FIRST_WORDS = frozenset("A An The This These That Every Each When Whenever Only No If Like Before After Here "
                               "There It Its Any All Both Nobody Everyone Players Player Against With Without "
                               "For From In On Of Then Play Stopping Three Two Equal Each Like Unless Where While Wild Stones You "
                               "Your Ace Four Five Six Seven Eight Nine Ten Chaff".split())


def _alternatives(o: OptionDef, p: Prose) -> list[str]:
    default = o.key(p.values[o.name])
    keys = [k for k, _ in o.values] if o.type == "choice" else (
        ["true", "false"] if o.type == "bool" else [k for k, _ in o.says if k != "*"])
    return [a for a in (_alternative(o, k, p) for k in keys if k != default) if a]


def _join(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + ", or " + items[-1]


def _mark(key: str, words: str) -> str:
    return f"{MARK_OPEN}{key}{MARK_MID}{words}{MARK_CLOSE}"


def _fill(text: str, p: Prose, override: dict[str, Any] | None = None, mark: bool = True) -> str:
    def sub(m: re.Match[str]) -> str:
        whole = m.group(0)
        if whole in ("{{", "}}"):
            return whole[0]
        if m.group(3):
            key = f"{m.group(3)}.{m.group(4)}"
            v = p.yaku_values.get(key)
            if not isinstance(v, int) or isinstance(v, bool):
                return whole  # not a plain number: reported by `check_prose`
            words = str(v) if m.group(5) == "digits" else times_words(v) if m.group(5) == "times" else number_words(v)
            return _mark(f"yaku.{key}", words) if mark and f"yaku.{key}" in p.extra_marks else words
        if m.group(6):
            name, seats = m.group(6), int(m.group(7)) if m.group(7) else None
            values = {**p.values, **(override or {})}
            v = figures_of(p, values, seats).get(name)
            if v is None:
                return whole  # not a figure of these rules: reported by `check_prose`
            words = number_words(v) if m.group(8) == "words" else times_words(v) if m.group(8) == "times" else str(v)
            if mark and not p.alternatives and figures_of(p, p.standard, seats).get(name) != v:
                return _mark(f"fig.{name}", words)
            return words
        kind, name = m.group(1), m.group(2)
        o = p.options.get(name)
        if o is None:
            return whole  # reported by `check_prose`; shown as written rather than guessed
        value = (override or {}).get(name, p.values.get(name))
        changed = mark and (p.changed(name) or name in p.extra_marks)
        if kind == "opt":
            words = value_words(o, value)
            return _mark(name, words) if changed else words
        sentence = says(o, value)
        if sentence is None:
            return value_words(o, value)
        if not sentence.strip() and not (p.alternatives and p.asides):
            return ""  # nothing to say for this value on a sheet (or a page without asides)
        sentence = _fill(sentence, p, override, mark=False)
        if p.alternatives and p.asides and override is None:
            alts = _alternatives(o, p)
            if alts and not sentence.strip():  # nothing to say for the default: the house rule alone
                sentence = f"(House rule{'s' if len(alts) > 1 else ''}: {_join(alts)}.)"
            elif alts:
                end = sentence[-1] if sentence[-1:] in ".!?" else ""
                body = sentence[:-1] if end else sentence
                sentence = f"{body} (house rule{'s' if len(alts) > 1 else ''}: {_join(alts)}){end}"
        return _mark(name, sentence) if changed else sentence

    return PLACE.sub(sub, text)


def number_words(v: Any) -> str:
    """A number as players say it: 'no', 'one' ... 'twelve', else its digits."""
    return NUMBER_WORDS[v] if isinstance(v, int) and 0 <= v < len(NUMBER_WORDS) else str(v)


def times_words(v: Any) -> str:
    """How many times, as players say it: 'once', 'twice', 'three times', '13 times'."""
    return {1: "once", 2: "twice"}.get(v) or f"{number_words(v)} times"


def figures_of(p: Prose, values: dict[str, Any], seats: int | None = None) -> dict[str, Any]:
    """The figures under these option values: from the Prose's own source, else the one registered
    for its options (the same dict object: a variant's own; rulekit.lang.textrefs), else none."""
    src = p.figures
    if src is None:
        src = registered_figures(p.options)
    if src is None:
        return {}
    try:
        figures: dict[str, Any] = src(values, seats)
        return figures
    except Exception:  # noqa: BLE001 - rules that cannot be built under these values state no figure
        return {}


def render(text: str, p: Prose | None) -> str:
    """Prose with every placeholder filled in (marks around changed pieces on a sheet)."""
    if p is None or "{" not in text:
        return text
    return _fill(text, p)


def placeholders(text: str) -> list[tuple[str, str, int]]:
    """Each placeholder of a text: (kind 'opt'/'rule'/'yaku'/'fig', option name, TABLE.ID or figure, offset)."""
    out = []
    for m in PLACE.finditer(text):
        if m.group(1):
            out.append((m.group(1), m.group(2), m.start()))
        elif m.group(3):
            out.append(("yaku", f"{m.group(3)}.{m.group(4)}", m.start()))
        elif m.group(6):
            out.append(("fig", m.group(6), m.start()))
    return out


def strip_marks(text: str) -> str:
    """The text without marks (the words only)."""
    return MARKED.sub(lambda m: m.group(2), text)


__all__ = ["Prose", "render", "value_words", "number_words", "figures_of", "register_figures", "says", "placeholders", "strip_marks", "MARKED",
           "MARK_OPEN", "MARK_MID", "MARK_CLOSE"]

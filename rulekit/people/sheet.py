"""A table's own rules sheet: the rules of *that* game, house rules stated as the rules.

`make_sheet(game)` renders the variant's rules text for the options in effect (rulekit.lang.prose)
and lists every change against the standard game with the place that made it (house file and
line, preset, or -o) and the house file's own note. Every changed piece of text carries a mark
whose footnote number is the change's; `sheet_text` and `sheet_markdown` turn marks into `[n]`
footnote references (rulekit.people.sheethtml into highlights).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable

from rulekit.lang.loader import Node, plain
from rulekit.lang.prose import MARKED, Prose, says, value_words
from rulekit.lang.rulestext import RulesDoc, card_words, hand_words, rules_doc, to_markdown, to_plain, yaku_values


@dataclass(frozen=True)
class Change:
    """One rule of this table that differs from the standard game."""

    key: str  # option name, or yaku.TABLE.ID, game.KEY, players.KEY
    what: str  # the rule as this table plays it
    standard: str  # the standard game's rule
    where: str  # file:line:col, "preset 'x'" or "-o on the command line"
    house: str = ""  # the house file's name, when one set it


@dataclass(frozen=True)
class Sheet:
    """Everything a printed sheet shows: titles, the houses' notes, changes, the rules."""

    title: str
    houses: tuple[tuple[str, str, str], ...]  # (name, file, note)
    changes: tuple[Change, ...]
    doc: RulesDoc
    effects: tuple[str, ...] = ()  # lines of the paired-simulation effects, when asked for
    moved_by: tuple[tuple[str, str], ...] = ()  # (fig.NAME, the change that moves that figure)

    def number(self, key: str) -> int:
        """The footnote number of a change (1-based), 0 if the key is no change; a figure the
        rules compute has the number of the change that moves it."""
        key = dict(self.moved_by).get(key, key)
        return next((i for i, c in enumerate(self.changes, 1) if c.key == key), 0)


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _option_words(o, value: Any, p: Prose) -> str:
    s = says(o, value)
    if s is not None:
        from rulekit.lang.prose import render
        from rulekit.lang.prose import strip_marks
        return strip_marks(render(s, dataclasses.replace(p, values={**p.values, o.name: value},
                                                           alternatives=False)))
    return value_words(o, value)


def _option_where(game: Any, name: str) -> tuple[str, str]:
    """Which layer set an option (the last one wins: preset < house files < -o), and the house's name."""
    where, house = "", ""
    v = game.variant
    if game.preset and name in v.presets[game.preset].options:
        where = f"preset '{game.preset}'"
    for h in v.house:
        if name in h.options:
            where, house = str(h.options[name][1]), h.name
    if name in (game.extra.cli_options or {}):
        where, house = "-o on the command line", ""
    return where, house


def _items(node: Node | None) -> dict[str, Node]:
    if node is None or not isinstance(node.value, list):
        return {}
    return {str(i.value["id"].value): i for i in node.value if isinstance(i.value, dict) and "id" in i.value}


def _said(variant: Any, key: str, value: Any) -> str:
    """A hand's field as players read it: a list of cards in words, anything else as written."""
    if key == "cards" and isinstance(value, list):
        return card_words(variant, [str(c) for c in value])
    return str(value)


def _overlay_changes(game: Any, standard_tree: Node) -> list[Change]:
    """The yaku, game and players edits of the house files, against the standard game."""
    out: list[Change] = []
    std = plain(standard_tree)
    for h in game.variant.house:
        ov = h.overlay.value
        y = ov.get("yaku")
        for table, items in (y.value.items() if y is not None and isinstance(y.value, dict) else ()):
            old = {str(e.get("id")): e for e in (std.get("yaku") or {}).get(str(table)) or [] if isinstance(e, dict)}
            for yid, it in _items(items).items():
                d = plain(it)
                o = old.get(yid, {})
                name = ((o.get("names") or d.get("names") or {}).get("en")) or yid
                if d.get("remove") is True:
                    what, was = f"{name}: not played.", f"{name} is a special hand."
                elif not o:
                    words = hand_words(game.variant, it) if not d.get("text") else str(d["text"])
                    words = words.replace("{value}", str(d.get("value", "")))
                    what = f"{name}, a new special hand" + (f": {words}" if words else (
                        f" worth {d['value']}." if "value" in d else "."))
                    was = "No such hand."
                else:
                    fields = [k for k in ("value", "rank", "when", "cards", "claim", "group") if k in d and d[k] != o.get(k)]
                    said = {"value": "is worth", "rank": "ranks", "when": "is made when", "cards": "is made of",
                            "claim": "may be claimed when", "group": "is in group"}
                    what = f"{name} " + ", ".join(f"{said[k]} {_said(game.variant, k, d[k])}" for k in fields) + "." \
                        if fields else f"{name}: described differently."
                    was = f"{name} " + ", ".join(f"{said[k]} {_said(game.variant, k, o.get(k, '(none)'))}"
                                                 for k in fields) + "." if fields else ""
                out.append(Change(f"yaku.{table}.{yid}", what, was, str(it.value["id"].span), h.name))
        for section in ("game", "players"):
            g = ov.get(section)
            for k, v in (g.value.items() if g is not None and isinstance(g.value, dict) else ()):
                label = {"rounds": "Rounds", "start_chips": "Chips each at the start", "end_when": "Early end",
                         "min": "Fewest players", "max": "Most players", "default": "Usual number of players"}.get(
                    str(k), str(k))
                was = (std.get(section) or {}).get(str(k), "not set")
                out.append(Change(f"{section}.{k}", f"{label}: {plain(v)}.", f"{label}: {was}.", str(v.span), h.name))
    return out


def make_sheet(game: Any, effects: tuple[str, ...] = ()) -> Sheet:
    """The sheet of a built game (its preset, house files and -o applied)."""
    v = game.variant
    from rulekit.engine.build import build_figures_game
    from rulekit.engine.figures import figure_source
    figures = figure_source(v, game.deck_name, game, build_figures_game)  # {fig.NAME}: this table's deck, options and house rules
    prose = dataclasses.replace(Prose.sheet(v.options, dict(game.options)), yaku_values=yaku_values(v),
                                figures=figures)
    standard = v
    if v.house:
        from rulekit.engine.build import load_variant
        standard = load_variant(v.file)
    standard_tree = standard.tree
    std_prose = dataclasses.replace(Prose.sheet(v.options, {}), yaku_values=yaku_values(standard), figures=figures)
    changes: list[Change] = []
    for name, o in v.options.items():
        if not prose.changed(name):
            continue
        where, house = _option_where(game, name)
        what = _option_words(o, prose.values[name], prose)
        if says(o, prose.values[name]) is None:  # a bare value: name what it is the value of
            what = f"{_cap(o.label or o.description.rstrip('.'))}: {what}."
        was = _option_words(o, prose.standard[name], std_prose).rstrip(".")
        if not was.strip():  # the standard value says nothing in the rules: name it
            was = f"{_cap(o.label or o.description.rstrip('.'))}: {value_words(o, prose.standard[name])}"
        changes.append(Change(name, what, was + ".", where, house))
    overlay = _overlay_changes(game, standard_tree)
    changes += overlay
    prose = dataclasses.replace(prose, extra_marks=frozenset(c.key for c in overlay if c.key.startswith("yaku.")))
    doc = rules_doc(v, prose)
    title = v.meta.names.get("en", v.meta.id) + (f" ({v.meta.names['ja']})" if v.meta.names.get("ja") else "")
    houses = tuple((h.name, h.file, h.note) for h in v.house)
    return Sheet(title, houses, tuple(changes), dataclasses.replace(doc, title=title), tuple(effects),
                 _moved_by(figures, prose, changes, standard))


def _moved_by(figures: Any, prose: Prose, changes: list[Change], standard: Any) -> tuple[tuple[str, str], ...]:
    """For each figure this table's rules change, the change that moves it (an option alone, else
    the house file's other edits): its words on the sheet carry that change's footnote."""
    std = figures(prose.standard)
    now = figures(prose.values)
    moved = [k for k in now if k in std and now[k] != std[k]]
    out: dict[str, str] = {}
    for c in changes:
        if c.key in prose.options and moved:
            alone = figures({**prose.standard, c.key: prose.values[c.key]})
            for k in moved:
                if k not in out and alone.get(k) != std.get(k):
                    out[k] = c.key
    rest = next((c.key for c in changes if c.key.split(".", 1)[0] in ("yaku", "game", "players")), None)
    for k in moved:
        if k not in out and rest is not None:
            out[k] = rest
    return tuple((f"fig.{k}", key) for k, key in out.items())


def map_doc(doc: RulesDoc, fn: Callable[[str], str]) -> RulesDoc:
    """The same document with `fn` applied to every piece of text."""
    secs = tuple(dataclasses.replace(
        s, text=fn(s.text), items=tuple(fn(i) for i in s.items),
        steps=tuple(dataclasses.replace(st, text=fn(st.text), choices=tuple((c, fn(t)) for c, t in st.choices))
                    for st in s.steps)) for s in doc.sections)
    return dataclasses.replace(doc, lead=fn(doc.lead), sections=secs,
                               yaku=tuple(dataclasses.replace(y, text=fn(y.text)) for y in doc.yaku))


def footnoted(sheet: Sheet, fmt: Callable[[str, int], str]) -> RulesDoc:
    """The sheet's rules with each marked piece replaced by fmt(words, footnote number)."""
    return map_doc(sheet.doc, lambda t: MARKED.sub(lambda m: fmt(m.group(2), sheet.number(m.group(1))), t))


def _summary(sheet: Sheet) -> list[str]:
    """'Our house rules': one line per change, with its footnote number and the standard rule."""
    return [f"[{i}] {c.what}" + (f" Standard game: {c.standard}" if c.standard else "")
            for i, c in enumerate(sheet.changes, 1)]


def _notes(sheet: Sheet) -> list[str]:
    return [f"[{i}] {c.where}" + (f" ({c.house})" if c.house else "") for i, c in enumerate(sheet.changes, 1)]


def sheet_text(sheet: Sheet, width: int = 78) -> str:
    """The sheet for a terminal: title, the houses' notes, the summary, the rules, footnotes."""
    import textwrap
    doc = footnoted(sheet, lambda w, n: f"{w}\ue003[{n}]" if n else w)
    out = [sheet.title, "=" * len(sheet.title), ""]
    for name, file, note in sheet.houses:
        out += textwrap.wrap(f"{name} ({file})", width)
        if note:
            out += textwrap.wrap(note, width, initial_indent="  ", subsequent_indent="  ")
        out.append("")
    if sheet.changes:
        out += ["Our house rules", "---------------"]
        for ln in _summary(sheet):
            out += textwrap.wrap(ln, width, subsequent_indent="    ")
        out.append("")
    # \ue003 keeps a footnote number on the line of its words while wrapping, then is a space
    body = to_plain(doc, width).replace("\ue003", " ").splitlines()[3:]  # without its own title
    out += body
    if sheet.effects:
        out += ["", "What the house rules do", "-----------------------", *sheet.effects]
    if sheet.changes:
        out += ["", "Where each house rule was set", "-----------------------------"]
        for ln in _notes(sheet):
            out += textwrap.wrap(ln, width, subsequent_indent="    ")
    return "\n".join(out).rstrip() + "\n"


_MD_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "[": "\\[", "]": "\\]"})


def md_inert(text: str) -> str:
    """Text from a file made inert for Markdown: no raw HTML (tags, comments, entities) and no link
    or image (`[..](..)`, `![..](..)`, `<scheme:..>`) survives; **bold** and *italics* stay."""
    return text.translate(_MD_ESCAPES)


def sheet_markdown(sheet: Sheet) -> str:
    """The sheet as Markdown: changed words in bold with a footnote reference; every piece of text
    from a file escaped, so the Markdown renders no markup, link or image a file put there."""
    doc = map_doc(sheet.doc, md_inert)
    doc = dataclasses.replace(  # names and titles come from files too (a house file names its hands)
        doc, title=md_inert(doc.title),
        yaku=tuple(dataclasses.replace(y, name=md_inert(y.name)) for y in doc.yaku),
        sections=tuple(dataclasses.replace(sec, title=md_inert(sec.title), steps=tuple(
            dataclasses.replace(st, title=md_inert(st.title)) for st in sec.steps)) for sec in doc.sections))
    doc = footnoted(dataclasses.replace(sheet, doc=doc), lambda w, n: f"**{w}**[^{n}]" if n else w)
    e = md_inert
    out = [f"# {e(sheet.title)}", ""]
    for name, file, note in sheet.houses:
        out += [f"*{e(name)}* ({e(file)})" + (f": {e(note)}" if note else ""), ""]
    if sheet.changes:
        out += ["## Our house rules", ""]
        out += [f"- {e(c.what)}[^{i}]" + (f" *Standard game:* {e(c.standard)}" if c.standard else "")
                for i, c in enumerate(sheet.changes, 1)]
        out.append("")
    out.append(to_markdown(doc, level=2))
    if sheet.effects:  # a fence inside the effects cannot end the code block early
        out += ["## What the house rules do", "", "````text", *sheet.effects, "````", ""]
    for i, c in enumerate(sheet.changes, 1):
        out.append(f"[^{i}]: House rule, set at {e(c.where)}" + (f" ({e(c.house)})." if c.house else "."))
    return "\n".join(out).rstrip() + "\n"


__all__ = ["Change", "Sheet", "make_sheet", "map_doc", "footnoted", "sheet_text", "sheet_markdown", "md_inert"]

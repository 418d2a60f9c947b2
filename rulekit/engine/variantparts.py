"""The parts of a variant's model, each read from the checked tree with its errors located in the
file: house rules applied, schema, meta, options, presets, decks, zones, variables and the house
rules' option values. rulekit.engine.build.load_variant puts them together."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable

from rulekit.core.errors import Collector, Diagnostic, Span, did_you_mean, error
from rulekit.lang.decks import deck_names
from rulekit.lang.loader import Node, at, plain
from rulekit.lang.model import DeckChoice, Meta, OptionDef, Preset, VarDef, ZoneDef
from rulekit.lang.schema import load_schema, validate as schema_validate

Data = dict[str, Any]  # the tree as plain values


def _here(tree: Node, *path: Any) -> Node:
    """The node at `path` below `tree`, which a caller read from that very tree (`tree` if not)."""
    return at(tree, *path) or tree


def _span_of(tree: Node) -> Callable[[tuple[Any, ...], bool], Span]:
    """Where a schema error at a path is: the deepest node of the path the tree has (its key when asked)."""
    def span_of(path: tuple[Any, ...], is_key: bool) -> Span:
        node = tree
        for p in path:
            nxt = at(node, p)
            if nxt is None:
                break
            node = nxt
        if is_key and node is not tree and node.key_span is not None:
            return node.key_span
        return node.span
    return span_of


@dataclass(frozen=True)
class Housed:
    """The tree with the house-rule files applied, and what they set and found."""

    tree: Node
    files: list[str]
    options: dict[str, tuple[Any, Span]]  # option -> (value, where the house file set it)
    houses: tuple[Any, ...]  # the house files (rulekit.lang.house.HouseRules)
    player_errors: tuple[Diagnostic, ...]  # table sizes the house rules ask that the game cannot play


def with_house(tree: Node, files: list[str], path: str, house: list[str] | tuple[str, ...]) -> Housed:
    """The house-rule files applied over the variant's tree, in order (nothing given: the tree as read)."""
    if not house:
        return Housed(tree, files, {}, (), ())
    from rulekit.lang.house import apply_house, load_house, players_problems
    houses = [load_house(h) for h in house]
    vid = tree.value["id"].value if "id" in tree.value else os.path.splitext(os.path.basename(path))[0]
    player_errs = players_problems(tree, houses)  # reported with the option errors, all together
    removals = tree.removals
    tree, options = apply_house(tree, str(vid), houses)
    tree.removals = removals
    return Housed(tree, files + [h.file for h in houses], options, tuple(houses), tuple(player_errs))


def own_values_tree(tree: Node) -> Node:
    """The tree in which a hand's {value} is its own: every reader of its text sees the hand's placeholder."""
    from rulekit.lang.textrefs import own_values
    removed = tree.removals
    tree = own_values(tree)
    tree.removals = removed  # what the file removed, kept for errors caused by a removal (lang.removals)
    return tree


def schema_checked(tree: Node, schema_errors: list[Diagnostic] | None) -> Data:
    """The tree as plain values, checked against the published schema: errors raised, or put in
    `schema_errors` when given (the model is then built as far as the file allows)."""
    data: Data = plain(tree)
    try:
        schema = load_schema("variant")
    except FileNotFoundError:
        return data
    errs = Collector()
    errs.extend(schema_validate(data, schema, None, span_of=_span_of(tree)))
    if schema_errors is not None:
        schema_errors.extend(errs.diagnostics)
        return data
    errs.raise_if_any()
    return data


def meta_of(data: Data, path: str) -> Meta:
    """Who the game is: id (the file name without one), names, family, summary, sources, players."""
    meta_d = data.get("meta") or {}
    players = data.get("players") or {}
    pmin = int(players.get("min", 2))
    return Meta(
        id=str(data.get("id") or os.path.splitext(os.path.basename(path))[0]),
        names=dict(meta_d.get("names") or {}),
        family=str(meta_d.get("family", "")),
        summary=str(meta_d.get("summary", "")),
        sources=tuple(meta_d.get("sources") or ()),
        players_min=pmin, players_max=int(players.get("max", pmin)),
        players_default=int(players.get("default", pmin)),
        abstract=bool(data.get("abstract", False)),
        extra={k: v for k, v in meta_d.items() if k not in ("names", "family", "summary", "sources")},
    )


def option_of(name: str, o: Data, tree: Node) -> OptionDef:
    """One house-rule option as declared under `options:`."""
    onode = at(tree, "options", name)
    vals = o.get("values") or {}
    values = tuple((str(k), str(v)) for k, v in vals.items()) if isinstance(vals, dict) else \
        tuple((str(v), "") for v in vals)
    unit = o.get("unit") or ""
    unit = (str(unit[0]), str(unit[-1])) if isinstance(unit, list) and unit else (str(unit), str(unit))
    says = tuple((str(k).lower() if isinstance(k, bool) else str(k), str(v)) for k, v in (o.get("says") or {}).items())
    return OptionDef(name=name, type=o.get("type", "choice" if values else "bool"), default=o.get("default"),
                     description=str(o.get("description", "")), values=values, min=o.get("min"), max=o.get("max"),
                     source=str(o.get("source", "")), span=onode.key_span if onode else None, says=says, unit=unit,
                     label=str(o.get("label", "")))


def options_of(data: Data, tree: Node, errs: Collector) -> dict[str, OptionDef]:
    """Every option, each default checked against the option's own values."""
    options = {}
    for name, o in (data.get("options") or {}).items():
        od = options[name] = option_of(name, o, tree)
        try:
            od.parse(od.default)
        except ValueError as exc:
            errs.add(error(_here(tree, "options", name, "default").span, "E050", f"option '{name}': default {exc}"))
    return options


def presets_of(data: Data, tree: Node, options: dict[str, OptionDef], errs: Collector) -> dict[str, Preset]:
    """Every named rule set, each of its option values checked."""
    presets = {}
    for name, p in (data.get("presets") or {}).items():
        presets[name] = Preset(name=name, description=str(p.get("description", "")),
                               options=dict(p.get("options") or {}), deck=p.get("deck"))
        for oname, val in (p.get("options") or {}).items():
            onode = _here(tree, "presets", name, "options", oname)
            if oname not in options:
                errs.add(error(onode.key_span or onode.span, "E050", f"preset '{name}': unknown option '{oname}'",
                               hint=did_you_mean(oname, options)))
                continue
            try:
                options[oname].parse(val)
            except ValueError as exc:
                errs.add(error(onode.span, "E050", f"preset '{name}': option '{oname}': {exc}"))
    return presets


def decks_of(data: Data, tree: Node, errs: Collector) -> dict[str, DeckChoice]:
    """Every deck the variant plays with, each from a shipped deck."""
    decks = {}
    for name, dspec in (data.get("decks") or {}).items():
        dspec = dspec or {}
        base = dspec.get("from", name)
        decks[name] = DeckChoice(name=name, base=base, spec=dspec, description=str(dspec.get("description", "")))
        if base not in deck_names():
            dn = at(tree, "decks", name, "from") or _here(tree, "decks", name)
            errs.add(error(dn.span if dn.span else tree.span, "E040", f"deck '{name}': no shipped deck '{base}'",
                           hint=did_you_mean(base, deck_names())))
    return decks


def default_deck_of(data: Data, tree: Node, meta: Meta, decks: dict[str, DeckChoice],
                    presets: dict[str, Preset], errs: Collector) -> str:
    """The deck played unless another is asked for; it and each preset's deck must be the variant's."""
    default_deck = str(data.get("deck") or (next(iter(decks)) if decks else ""))
    if not meta.abstract and default_deck not in decks:
        dn = at(tree, "deck") or tree
        errs.add(error(dn.span, "E040", f"deck: '{default_deck}' is not one of this variant's decks",
                       hint=did_you_mean(default_deck, decks)))
    for name, p in presets.items():
        if p.deck is not None and p.deck not in decks:
            dn = _here(tree, "presets", name, "deck")
            errs.add(error(dn.span, "E040", f"preset '{name}': no deck '{p.deck}'", hint=did_you_mean(p.deck, decks)))
    return default_deck


def _kind(d: Data) -> str:
    return "player" if d.get("per") == "player" else "count" if "count" in d else "single"


def zones_of(data: Data) -> dict[str, ZoneDef]:
    """Every zone (a pile of cards): one, one per player, or a counted row."""
    zones = {}
    for name, z in (data.get("zones") or {}).items():
        z = z or {}
        zones[name] = ZoneDef(name=name, kind=_kind(z), count=int(z.get("count", 0)),
                              visibility=str(z.get("visibility", "hidden")), description=str(z.get("description", "")),
                              label=str(z.get("label", "")), part_of=str(z.get("part_of", "")))
    return zones


def vars_of(data: Data, tree: Node, zones: dict[str, ZoneDef], errs: Collector) -> dict[str, VarDef]:
    """Every variable; a name is a zone's or a variable's, not both."""
    vars_ = {}
    for name, v in (data.get("vars") or {}).items():
        v = v or {}
        vars_[name] = VarDef(name=name, kind=_kind(v), count=int(v.get("count", 0)), init=v.get("init", 0),
                             scope=str(v.get("scope", "round")), pot=bool(v.get("pot", False)),
                             description=str(v.get("description", "")), overdraft=bool(v.get("overdraft", False)),
                             visibility=str(v.get("visibility", "")))
        if name in zones:
            vn = _here(tree, "vars", name)
            errs.add(error(vn.key_span or vn.span, "E042", f"'{name}' is both a zone and a variable"))
    return vars_


def house_option_errors(housed: Housed, options: dict[str, OptionDef], errs: Collector) -> None:
    """The house rules' table sizes and option values, checked against the variant's options."""
    errs.extend(housed.player_errors)
    for k, (val, span) in housed.options.items():
        if k not in options:
            kspan = next((h.option_keys[k] for h in reversed(housed.houses) if k in h.option_keys), span)
            from rulekit.lang.house import option_hint
            errs.add(error(kspan, "E051", f"house rules: unknown option '{k}'", hint=option_hint(k, val, options)))
            continue
        try:
            options[k].parse(val)
        except ValueError as exc:
            errs.add(error(span, "E051", f"house rules: option '{k}': {exc}"))

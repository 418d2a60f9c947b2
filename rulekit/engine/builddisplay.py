"""What a game shows people, compiled with its rules: card and zone displays, the lines of the
table at a decision (`display.table`), and the yaku a hand's value names."""
from __future__ import annotations

import functools
from typing import Any

from rulekit.engine.stepcompile import StepCompiler
from rulekit.engine.steps import PLACEHOLDER
from rulekit.engine.textparts import compile_clauses
from rulekit.core.errors import Collector, did_you_mean, error
from rulekit.lang.expr import types as T
from rulekit.lang.loader import Node, at
from rulekit.lang.model import Variant

_VAR_TYPES = {"int": 0, "bool": False, "str": ""}


def display_parts(variant: Variant, sc: StepCompiler) -> tuple[dict[str, Any], Any, list[tuple[Any, ...]]]:
    """Compile what the table shows: each zone's `show` value (over `cards`, `seat`) and the
    value after a card's name (`display.card`, over `c`); errors located in the file."""
    tree = variant.tree
    sc.phase = ""
    zone_show = {}
    for zname, zd in variant.zones.items():
        node = at(tree, "zones", zname, "show")
        if node is not None:
            # (what the table shows a person: made when first shown)
            fn = sc.expr(node, {"cards": "list<card>", "seat": T.INT}, None, f"zones.{zname}.show", True)[0]
            wnode = at(tree, "zones", zname, "show_when")
            if wnode is not None:
                when = sc.expr(wnode, {"cards": "list<card>", "seat": T.INT}, T.BOOL, f"zones.{zname}.show_when",
                               True)[0]
                fn = _shown_when(fn, when)
            zone_show[zname] = fn
        if zd.part_of:
            target = variant.zones.get(zd.part_of)
            if target is None or target.kind != zd.kind or target.count != zd.count or zd.kind == "single":
                pnode = at(tree, "zones", zname, "part_of") or tree
                sc.errs.add(error(pnode.span, "E040", f"zones.{zname}.part_of: expected a zone with the same "
                                  f"number of piles as '{zname}', found '{zd.part_of}'",
                                  hint=did_you_mean(zd.part_of, [z for z, d in variant.zones.items()
                                                                 if d.kind == zd.kind and d.count == zd.count
                                                                 and z != zname])))
    node = at(tree, "display", "card")
    card_show = None
    if node is not None and isinstance(node.value, str) and PLACEHOLDER.search(node.value):
        # 'month {c.month}, {worth(c)} points'; `came_from`: the zone the card last came from
        card_show = text_template(node, {"c": T.CARD, "came_from": T.STR}, sc, "display.card")
    elif node is not None:
        card_show = sc.expr(node, {"c": T.CARD, "came_from": T.STR}, None, "display.card")[0]
    return zone_show, card_show, display_table(at(tree, "display", "table"), sc)


def _shown_when(fn: Any, when: Any) -> Any:
    """A zone's shown value, only while its `show_when` holds (None, not shown, otherwise)."""
    def shown(ctx: Any) -> Any:
        return fn(ctx) if when(ctx) else None
    return shown


def card_facts(variant: Variant, sc: StepCompiler) -> dict[str, Any]:
    """Compile `display.value` (a card's number in this game), `display.wild` (the card is wild) and
    `display.sort` (where a card goes in a hand held in order), each a function of the state with
    the card in `c`; absent keys are left out."""
    out: dict[str, Any] = {}
    for key, want in (("value", None), ("wild", T.BOOL), ("sort", T.INT)):
        node = at(variant.tree, "display", key)
        if node is not None:
            out[key] = sc.expr(node, {"c": T.CARD}, want, f"display.{key}")[0]
    return out


def text_template(node: Node, loc: dict[str, str], sc: StepCompiler, what: str) -> Any:
    """A text with {expression} parts: a function of the game state giving the text."""
    text = str(node.value)
    parts: list[Any] = []
    pos = 0
    for m in PLACEHOLDER.finditer(text):
        parts.append(text[pos:m.start()].replace("{{", "{").replace("}}", "}"))
        parts.append(sc.expr(Node(m.group(1), node.span), dict(loc), None, f"{what} {{...}}")[0])
        pos = m.end()
    parts.append(text[pos:].replace("{{", "{").replace("}}", "}"))

    def render(ctx: Any) -> str:
        return "".join(p if isinstance(p, str) else str(p(ctx)) for p in parts)
    return render


def display_table(node: Node | None, sc: StepCompiler) -> list[tuple[Any, ...]]:
    """Compile `display.table`: lines the table shows a player at a decision, each a text with
    {expression} parts over the game state and `me` (the player's seat), shown `when` true, once
    or once per value of a list (`for`/`in`). Each: (name or None, list fn, when fn, parts,
    on request); a `say` given as parts with their own `when` gives engine.textparts.Clause
    parts; `on_request` lines are shown only with the whole table (the t key)."""
    out: list[tuple[Any, ...]] = []
    if node is None or not isinstance(node.value, list):
        return out
    for i, item in enumerate(node.value):
        d = item.value if isinstance(item.value, dict) else {}
        where = f"display.table[{i}]"
        loc: dict[str, str] = {"me": T.INT}
        name = str(d["for"].value) if "for" in d else None
        each = None
        if name is not None:
            if "in" not in d:
                sc.errs.add(error(d["for"].span, "E010", f"{where}: 'for' needs 'in' (the list of values)"))
                continue
            each, t = sc.expr(d["in"], dict(loc), None, f"{where}.in", True)  # (made when first shown)
            loc[name] = t[5:-1] if isinstance(t, str) and t.startswith("list<") else T.ANY
        when = sc.expr(d["when"], dict(loc), T.BOOL, f"{where}.when", True)[0] if "when" in d else None
        if "say" not in d:
            sc.errs.add(error(item.span, "E010", f"{where}: give 'say' (the text to show)"))
            continue
        clauses = compile_clauses(d["say"], sc.errs, f"{where}.say", functools.partial(_line_parts, loc=loc, sc=sc, where=where),
                                  functools.partial(_when_of, loc=loc, sc=sc, where=where))
        asked = "on_request" in d and d["on_request"].value is True
        out.append((name, each, when, tuple(clauses) if clauses is not None
                    else _line_parts(d["say"], loc, sc, where), asked))
    return out


def _line_parts(node: Node, loc: dict[str, str], sc: StepCompiler, where: str) -> tuple[Any, ...]:
    """A `display.table` text: its plain parts and its compiled {expression} parts, in order."""
    text = str(node.value)
    parts: list[Any] = []
    pos = 0
    for m in PLACEHOLDER.finditer(text):
        parts.append(text[pos:m.start()].replace("{{", "{").replace("}}", "}"))
        parts.append(sc.expr(Node(m.group(1), node.span), dict(loc), None, f"{where}.say {{...}}", True))
        pos = m.end()
    parts.append(text[pos:].replace("{{", "{").replace("}}", "}"))
    return tuple(parts)


def display_reasons(variant: Variant) -> dict[str, str]:
    """`display.reasons`: the words players read for a payment's `why` (the log keeps the `why`)."""
    node = at(variant.tree, "display", "reasons")
    if node is None or not isinstance(node.value, dict):
        return {}
    return {str(k): str(v.value) for k, v in node.value.items() if isinstance(v.value, str)}


def display_names(variant: Variant) -> dict[str, str]:
    """`display.names`: the names players read for some cards, by card id, where the game calls a
    card otherwise than its deck does (the log and the engine keep the deck's names)."""
    node = at(variant.tree, "display", "names")
    if node is None or not isinstance(node.value, dict):
        return {}
    return {str(k): str(v.value) for k, v in node.value.items() if isinstance(v.value, str)}


def display_reach(variant: Variant, yaku_tables: Any, errs: Collector) -> tuple[str, str] | None:
    """`display.reach: {zone, yaku}`: the open per-player pile and the yaku table whose yaku made
    so far, and those one card short, the table lists at a decision; errors located."""
    node = at(variant.tree, "display", "reach")
    if node is None or not isinstance(node.value, dict):
        return None
    zone, table = (node.value.get(k) for k in ("zone", "yaku"))
    ok = True
    zd = variant.zones.get(str(zone.value)) if zone is not None else None
    if zone is None or zd is None or zd.kind != "player" or zd.visibility != "public":
        found = "nothing" if zone is None else f"'{zone.value}'"
        errs.add(error((zone or node).span, "E040", f"display.reach.zone: expected an open pile per player, "
                       f"found {found}", hint=did_you_mean(str(getattr(zone, "value", "")),
                                                         [z for z, d in variant.zones.items()
                                                          if d.kind == "player" and d.visibility == "public"])))
        ok = False
    if table is None or str(table.value) not in yaku_tables:
        found = "nothing" if table is None else f"'{table.value}'"
        errs.add(error((table or node).span, "E040", f"display.reach.yaku: expected a yaku table, found {found}",
                       hint=did_you_mean(str(getattr(table, "value", "")), list(yaku_tables))))
        ok = False
    return (str(zone.value), str(table.value)) if ok and zone is not None and table is not None else None


def display_opponents(variant: Variant, policies: dict[str, dict[str, Any]], errs: Collector) -> str | None:
    """`display.opponents`: the policy the table's bots play when the player names none (a
    built-in one or the game's; None: the table's usual choice); errors located."""
    from rulekit.engine.runner import BUILTIN_POLICIES, policy_options
    node = at(variant.tree, "display", "opponents")
    if node is None:
        return None
    known = [*BUILTIN_POLICIES, *policies]
    spec = str(node.value)
    name = spec.partition(":")[0]
    if not isinstance(node.value, str) or name not in known:
        errs.add(error(node.span, "E040", f"display.opponents: expected a policy ({', '.join(known)}), "
                       f"found '{spec}'", hint=did_you_mean(name, known)))
        return None
    try:
        policy_options(spec)
    except ValueError as exc:
        errs.add(error(node.span, "E040", f"display.opponents: {exc}"))
        return None
    return spec


def _zone_counts(variant: Variant, key: str) -> dict[str, int]:
    """Each zone's positive whole-number setting `key` (the schema checks its type)."""
    out = {}
    for zname in variant.zones:
        node = at(variant.tree, "zones", zname, key)
        if node is not None and isinstance(node.value, int) and not isinstance(node.value, bool) and node.value > 0:
            out[zname] = node.value
    return out


def zone_groups(variant: Variant) -> dict[str, int]:
    """Each zone's `show_groups`: its cards are told in groups of this many (sets laid down)."""
    return _zone_counts(variant, "show_groups")


def zone_last(variant: Variant) -> dict[str, int]:
    """Each zone's `show_last`: a longer zone is told by its size and its last this many cards."""
    return _zone_counts(variant, "show_last")


def zone_yaku(variant: Variant, tables: list[str], errs: Collector) -> dict[str, str]:
    """Each zone's `show_yaku`: the yaku table whose yaku the table names in the zone's shown value."""
    out = {}
    for zname in variant.zones:
        node = at(variant.tree, "zones", zname, "show_yaku")
        if node is None:
            continue
        if node.value not in tables:
            errs.add(error(node.span, "E040", f"zones.{zname}.show_yaku: expected a yaku table, found '{node.value}'",
                           hint=did_you_mean(str(node.value), tables)))
            continue
        out[zname] = str(node.value)
    return out


def _when_of(w: Node, loc: dict[Any, Any], sc: Any, where: str) -> Any:
    """A display line's part's `when`, compiled over the line's names."""
    return sc.expr(w, dict(loc), T.BOOL, f"{where}.say when", True)[0]


def display_unasked(node: Node | None, sc: StepCompiler) -> dict[str, tuple[Any, ...]]:
    """Compile `display.unasked`: questions the table answers for a person with their first
    answer where `when` (over the options in play) holds: a blind choice the rules give nothing
    to decide on, unless the table is set to ask everything. {choice id: (when fn or None, the
    first screen's words, the words telling the answer taken: text fns of the state)}."""
    out: dict[str, tuple[Any, ...]] = {}
    if node is None or not isinstance(node.value, list):
        return out
    for i, item in enumerate(node.value):
        d = item.value if isinstance(item.value, dict) else {}
        where = f"display.unasked[{i}]"
        missing = [k for k in ("choose", "say", "told") if k not in d]
        if missing:
            sc.errs.add(error(item.span, "E010", f"{where}: give {', '.join(repr(k) for k in missing)}"))
            continue
        cid = str(d["choose"].value)
        if cid not in sc.choices:
            sc.errs.add(error(d["choose"].span, "E040", f"{where}.choose: expected a choice of the rules, found "
                              f"'{cid}'", hint=did_you_mean(cid, sc.choices)))
            continue
        when = sc.expr(d["when"], {}, T.BOOL, f"{where}.when")[0] if "when" in d else None
        say = text_template(d["say"], {}, sc, f"{where}.say")
        told = text_template(d["told"], {}, sc, f"{where}.told")
        out[cid] = (when, say, told)
    return out

"""House-rule files: a family's agreements for one variant, applied as an overlay with provenance."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulekit.core.errors import Collector, RulekitError, Span, did_you_mean, error
from rulekit.lang.loader import Node, annotate, check_values, merge, plain
from rulekit.lang.schema import load_schema, validate as schema_validate
from rulekit.lang.source import read_file

# what a house-rule file may change besides option values (merged like `extends`)
OVERLAY_KEYS = ("yaku", "game", "players")


@dataclass(frozen=True)
class HouseRules:
    """One house-rule file: its target, note, option values (with where they were set), overlay."""

    file: str
    name: str
    target: str
    note: str
    options: dict[str, tuple[Any, Span]]
    overlay: Node
    target_span: Span
    changes: tuple[str, ...] = field(default_factory=tuple)
    option_keys: dict[str, Span] = field(default_factory=dict)  # where each option's name is written


def load_house(path: str) -> HouseRules:
    """Read and check a house-rule file; raise RulekitError with every located problem."""
    src = read_file(path)
    check_values(src)
    tree = annotate(src)
    errs = Collector()
    if not isinstance(src.data, dict):
        raise RulekitError(error(tree.span, "E051", "a house-rule file must be a mapping with target:, "
                                 "options:, yaku: ..."))
    try:
        found = schema_validate(src.data, load_schema("house"), src)
    except FileNotFoundError:
        found = []
    import dataclasses
    for d in found:  # the deck is chosen when the game is played: say where it goes
        if d.message.startswith("unknown key 'deck'"):
            d = dataclasses.replace(d, message="a house-rule file does not choose the deck",
                                    hint="choose it when the game is played, among the decks the game accepts, "
                                         "or name it in a preset of the game", settle_with="deck")
        errs.add(d)
    errs.raise_if_any()
    d = tree.value
    opts = {}
    keys = {}
    if "options" in d and isinstance(d["options"].value, dict):
        for k, v in d["options"].value.items():
            opts[k] = (plain(v), v.span)
            keys[k] = v.key_span or v.span
    overlay = Node({k: d[k] for k in OVERLAY_KEYS if k in d}, tree.span)
    changes = tuple(f"option {k} = {v[0]}" for k, v in opts.items()) + tuple(
        f"{k} changed" for k in OVERLAY_KEYS if k in d)
    return HouseRules(file=src.file, name=str(src.data.get("name", src.file)), target=str(src.data.get("target", "")),
                      note=str(src.data.get("note", "")), options=opts, overlay=overlay,
                      target_span=d["target"].span if "target" in d else tree.span, changes=changes, option_keys=keys)


def _about(o: Any) -> str:
    """An option in a few words: its label, else its description's first sentence, shortened."""
    text = o.label or o.description.split(". ")[0].rstrip(".")
    text = text[:1].lower() + text[1:] if text[1:2].islower() else text
    return str(text) if len(text) <= 60 else str(text[:57].rsplit(" ", 1)[0]) + "…"


def option_hint(name: str, value: Any, options: dict[Any, Any]) -> str:
    """Help for an option a game does not have: did-you-mean among the options that accept this
    value (a suggestion that fails is no help), else every option with what it is in words."""
    fits = {}
    for k, o in options.items():
        try:
            o.parse(value)
        except (ValueError, TypeError):
            continue
        fits[k] = o
    hint = did_you_mean(name, fits) if value is not None else did_you_mean(name, options)
    if hint:
        o = options[hint.split("'")[1]] if "'" in hint else None
        return hint[:-1] + (f" ({_about(o)})?" if o is not None else "?")
    listed = [f"{k} ({_about(o)})" for k, o in options.items()]
    return "options of this game: " + "; ".join(listed) if listed else "this game has no options"


def unsaid_hands(h: HouseRules, variant: Any) -> list[Any]:
    """A warning for each hand the file adds that its sheet cannot state in words: no `text`, no
    `description`, and a `when` that is not a list of cards (`cards:` is stated by itself)."""
    from rulekit.lang.rulestext import hand_words
    from rulekit.core.errors import Diagnostic
    out = []
    y = variant.tree.value.get("yaku") if isinstance(variant.tree.value, dict) else None
    for (_y, table, yid), item in _yaku_keys(h).items():
        if "when" not in item.value or "text" in item.value:
            continue
        entries = y.value.get(table) if y is not None and isinstance(y.value, dict) else None
        merged = next((e for e in (entries.value if entries is not None else []) if isinstance(e.value, dict)
                       and str(e.value["id"].value) == str(yid)), None)
        if merged is not None and not hand_words(variant, merged, value_alone=False):
            d = error(item.value["id"].span, "W051", f"the hand '{yid}' has no words for players: the sheet lists "
                      "it without saying which cards make it",
                      hint="add text: \"...\" (the hand in plain words; {value} is its value), or give its cards "
                           "as cards: [NAME, NAME]")
            out.append(Diagnostic(d.span, d.code, d.message, d.breadcrumbs, d.hint, "warning"))
    return out


def is_house_file(path: str) -> bool:
    """True when a YAML file is a house-rule file (it names a `target:` game and has no rules of its
    own: no `id`, `extends`, `round` or `meta`); False for anything else, even unreadable files."""
    try:
        src = read_file(path)
    except RulekitError:
        return False
    d = src.data
    return isinstance(d, dict) and "target" in d and not any(k in d for k in ("id", "extends", "round", "meta"))


def _yaku_keys(h: HouseRules) -> dict[tuple[Any, ...], Node]:
    """("yaku", table, yaku id) -> the item, for every yaku the file changes, adds or removes."""
    out = {}
    y = h.overlay.value.get("yaku")
    if y is not None and isinstance(y.value, dict):
        for table, items in y.value.items():
            for it in items.value if isinstance(items.value, list) else []:
                if isinstance(it.value, dict) and "id" in it.value:
                    out[("yaku", table, it.value["id"].value)] = it
    return out


def _check_yaku_targets(tree: Node, h: HouseRules, errs: Collector) -> None:
    """A changed yaku must exist in the variant's table; a new one needs its own `when`."""
    y = h.overlay.value.get("yaku")
    if y is None or not isinstance(y.value, dict):
        return
    ynode = tree.value.get("yaku") if isinstance(tree.value, dict) else None
    tables = ynode.value if ynode is not None and isinstance(ynode.value, dict) else {}
    for table, items in y.value.items():
        if table not in tables:
            errs.add(error(items.key_span or items.span, "E051", f"house rules: the variant has no yaku table "
                           f"'{table}'", hint=did_you_mean(table, tables) or
                           f"tables: {', '.join(tables) or '(none)'}"))
            continue
        tv = tables[table].value
        ids = [str(i.value["id"].value) for i in tv if isinstance(i.value, dict) and "id" in i.value] \
            if isinstance(tv, list) else []
        for it in items.value if isinstance(items.value, list) else []:
            if not isinstance(it.value, dict) or "id" not in it.value:
                continue
            iid = str(it.value["id"].value)
            if iid in ids:
                continue
            removing = "remove" in it.value and it.value["remove"].value is True
            if removing or ("when" not in it.value and "cards" not in it.value):
                what = "remove" if removing else "change"
                errs.add(error(it.value["id"].span, "E051", f"house rules: no yaku '{iid}' in table '{table}' to "
                               f"{what}", hint=did_you_mean(iid, ids) or
                               "to add a new yaku, give it its cards (cards: [a card's id or English name, ...]) or a `when:` condition, and a value"))


def players_problems(tree: Node, houses: list[HouseRules]) -> list[Any]:
    """A house file may choose players only among the counts the rules support (their deals, par and
    hands are written for those): an error at each min or max outside the variant's range, naming it.
    (A usual count outside the file's own min..max is the variant's check, E042.)"""
    errs = Collector()
    std = plain(tree.value["players"]) if isinstance(tree.value, dict) and "players" in tree.value else {}
    lo, hi = std.get("min"), std.get("max")
    if not isinstance(lo, int) or not isinstance(hi, int):
        return []
    supported = f"{lo} players" if lo == hi else f"{lo} to {hi} players"
    for h in houses:
        g = h.overlay.value.get("players")
        for k, v in (g.value.items() if g is not None and isinstance(g.value, dict) else ()):
            n = plain(v)
            if isinstance(n, int) and not isinstance(n, bool) and not lo <= n <= hi and \
                    (k != "default" or lo == hi):
                errs.add(error(v.span, "E051", f"house rules: players.{k} = {n}, but the rules of this game are for "
                               f"{supported}", hint=f"choose a number from {lo} to {hi}" if lo != hi else
                               f"this game is played by {lo} players only; leave players: out"))
    return errs.diagnostics


def apply_house(tree: Node, variant_id: str, houses: list[HouseRules]) -> tuple[Node, dict[str, tuple[Any, Span]]]:
    """Merge house overlays in order onto a variant tree; report wrong targets and conflicts."""
    errs = Collector()
    options: dict[str, tuple[Any, Span, str]] = {}
    touched: dict[tuple[Any, ...], tuple[Span, str, Any]] = {}  # what a file changed: where, which file, to what
    applied: set[str] = set()
    for h in houses:
        if h.target != variant_id:
            errs.add(error(h.target_span, "E051", f"house rules '{h.name}' are for '{h.target}', not for "
                           f"'{variant_id}'", hint=did_you_mean(h.target, [variant_id])))
            continue
        if h.file in applied:
            errs.add(error(h.target_span, "E051", f"house rules '{h.name}' are given twice"))
            continue
        applied.add(h.file)
        _check_yaku_targets(tree, h, errs)
        for k, (v, span) in h.options.items():
            if k in options and options[k][0] != v:
                prev = options[k]
                errs.add(error(span, "E051", f"conflict: option '{k}' = {v!r} here, but {prev[0]!r} in {prev[1]}",
                               hint="files given together must agree: change one of them or leave it out"))
            options[k] = (v, span, h.file)
        for key, item in _yaku_keys(h).items():
            span = item.value["id"].span
            if key in touched and plain(item) != touched[key][2]:
                errs.add(error(span, "E051", f"conflict: yaku '{key[2]}' of table '{key[1]}' is changed here "
                               f"and in {touched[key][0]}",
                               hint="files given together must agree: change one of them or leave it out"))
            touched[key] = (span, h.file, plain(item))
        for section in ("game", "players"):
            g = h.overlay.value.get(section)
            if g is not None and isinstance(g.value, dict):
                for k, v in g.value.items():
                    key = (section, k)
                    if key in touched and plain(v) != touched[key][2]:
                        errs.add(error(v.span, "E051", f"conflict: {section}.{k} = {plain(v)!r} here, but "
                                       f"{touched[key][2]!r} in {touched[key][0]}",
                                       hint="files given together must agree: change one of them or leave it out"))
                    touched[key] = (v.span, h.file, plain(v))
        tree = merge(tree, h.overlay, strict=False) if h.overlay.value else tree
    errs.raise_if_any()
    return tree, {k: (v, s) for k, (v, s, _f) in options.items()}

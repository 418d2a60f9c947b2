"""House-rule files: a family's agreements for one variant, applied as an overlay with provenance."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .errors import Collector, RulekitError, Span, error
from .loader import Node, annotate, merge, plain
from .schema import load_schema, validate as schema_validate
from .source import read_file

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


def load_house(path: str) -> HouseRules:
    """Read and check a house-rule file; raise RulekitError with every located problem."""
    src = read_file(path)
    tree = annotate(src)
    errs = Collector()
    if not isinstance(src.data, dict):
        raise RulekitError(error(tree.span, "E051", "a house-rule file must be a mapping with target:, "
                                 "options:, yaku: ..."))
    try:
        errs.extend(schema_validate(src.data, load_schema("house"), src))
    except FileNotFoundError:
        pass
    errs.raise_if_any()
    d = tree.value
    opts = {}
    if "options" in d and isinstance(d["options"].value, dict):
        for k, v in d["options"].value.items():
            opts[k] = (plain(v), v.span)
    overlay = Node({k: d[k] for k in OVERLAY_KEYS if k in d}, tree.span)
    changes = tuple(f"option {k} = {v[0]}" for k, v in opts.items()) + tuple(
        f"{k} changed" for k in OVERLAY_KEYS if k in d)
    return HouseRules(src.file, str(src.data.get("name", src.file)), str(src.data.get("target", "")),
                      str(src.data.get("note", "")), opts, overlay,
                      d["target"].span if "target" in d else tree.span, changes)


def _yaku_keys(h: HouseRules) -> dict[tuple, Span]:
    out = {}
    y = h.overlay.value.get("yaku")
    if y is not None and isinstance(y.value, dict):
        for table, items in y.value.items():
            for it in items.value if isinstance(items.value, list) else []:
                if isinstance(it.value, dict) and "id" in it.value:
                    out[(table, it.value["id"].value)] = it.span
    return out


def apply_house(tree: Node, variant_id: str, houses: list[HouseRules]) -> tuple[Node, dict[str, tuple[Any, Span]]]:
    """Merge house overlays in order onto a variant tree; report wrong targets and conflicts."""
    errs = Collector()
    options: dict[str, tuple[Any, Span, str]] = {}
    touched: dict[tuple, tuple[Span, str]] = {}
    for h in houses:
        if h.target != variant_id:
            errs.add(error(h.target_span, "E051", f"house rules '{h.name}' are for '{h.target}', not for "
                           f"'{variant_id}'"))
            continue
        for k, (v, span) in h.options.items():
            if k in options and options[k][0] != v:
                prev = options[k]
                errs.add(error(span, "E051", f"conflict: option '{k}' = {v!r} here, but {prev[0]!r} in "
                               f"{prev[2]} ({prev[1]})"))
            options[k] = (v, span, h.file)
        for key, span in _yaku_keys(h).items():
            if key in touched:
                errs.add(error(span, "E051", f"conflict: yaku '{key[1]}' is changed here and in "
                               f"{touched[key][1]} ({touched[key][0]})"))
            touched[key] = (span, h.file)
        g = h.overlay.value.get("game")
        if g is not None and isinstance(g.value, dict):
            for k, v in g.value.items():
                key = ("game", k)
                if key in touched:
                    errs.add(error(v.span, "E051", f"conflict: game.{k} is changed here and in "
                                   f"{touched[key][1]} ({touched[key][0]})"))
                touched[key] = (v.span, h.file)
        tree = merge(tree, h.overlay) if h.overlay.value else tree
    errs.raise_if_any()
    return tree, {k: (v, s) for k, (v, s, _f) in options.items()}

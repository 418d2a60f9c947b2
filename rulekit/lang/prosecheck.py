"""Do the words and the rules agree? Checks of a variant's players' text against its options.

Always (errors, E091): every `{opt.NAME}` and `{rule.NAME}` names an option, a `{rule.NAME}`
option has `says:` for each of its values, a `{yaku.TABLE.ID}` names a hand with a plain
number for its value, and a `{fig.NAME}` names a figure (rulekit.engine.figures).

With `validate --strict` (warnings, W091), each located at the file:line:col of the words:
* a literal that states an option's value ("10 chips", "twelve rounds") in a text that does not
  name the option;
* an alternative written out as "(house rule: ...)" instead of coming from an option;
* an option that no text names, so a reader never learns its alternatives;
* a yaku table whose values or ranks are not explained (rules.columns);
* an option that nothing reads (`opt.NAME` in no expression): in a variant that extends
  another, the inherited switch does nothing there and is removed or marked.
"""
from __future__ import annotations

import json
import re
from typing import Any, Iterator

from rulekit.core.errors import Diagnostic, Span, error
from rulekit.lang.loader import Node, plain
from rulekit.lang.model import Variant
from rulekit.lang.prose import NUMBER_WORDS, placeholders

#: keys whose string values are words for players (checked for placeholders and literals)
TEXT_KEYS = ("text", "lead", "equipment", "setup", "play", "hands", "settling", "end", "round_end", "game_end")
HOUSE_RULE_WORDS = re.compile(r"\((house rules?)\b", re.IGNORECASE)


def _warn(span: Span, message: str, hint: str) -> Diagnostic:
    d = error(span, "W091", message, hint=hint)
    return Diagnostic(d.span, d.code, d.message, d.breadcrumbs, d.hint, "warning")


def _texts(node: Node, key: str = "") -> Iterator[tuple[str, Node]]:
    """Every players' text below a node: (the key it is under, its node)."""
    v = node.value
    if isinstance(v, dict):
        for k, sub in v.items():
            if k in ("options", "presets", "meta", "policies", "functions", "vars", "zones", "decks", "stats",
                     "display", "labels", "hints", "told", "forced", "alike"):
                continue
            if isinstance(sub.value, str) and k in TEXT_KEYS:
                yield str(k), sub
            elif isinstance(sub.value, (dict, list)):
                yield from _texts(sub, str(k))
    elif isinstance(v, list):
        for sub in v:
            yield from _texts(sub, key)


def _columns(tree: Node) -> Iterator[tuple[str, Node]]:
    r = tree.value.get("rules") if isinstance(tree.value, dict) else None
    cols = r.value.get("columns") if r is not None and isinstance(r.value, dict) else None
    for t in (cols.value.values() if cols is not None and isinstance(cols.value, dict) else ()):
        for k, n in (t.value.items() if isinstance(t.value, dict) else ()):
            if isinstance(n.value, str):
                yield str(k), n


def _option_says(tree: Node) -> Iterator[tuple[str, Node]]:
    o = tree.value.get("options") if isinstance(tree.value, dict) else None
    for name, od in (o.value.items() if o is not None and isinstance(o.value, dict) else ()):
        s = od.value.get("says") if isinstance(od.value, dict) else None
        for n in (s.value.values() if s is not None and isinstance(s.value, dict) else ()):
            if isinstance(n.value, str):
                yield str(name), n


def player_texts(tree: Node) -> list[tuple[dict[Any, Any], Node]]:
    """Every players' text of a variant with the option values it speaks under: ({}, node) for
    rules text, columns and hands; ({NAME: value key}, node) for an option's `says:` sentence."""
    out: list[tuple[dict[Any, Any], Node]] = [({}, n) for _k, n in list(_texts(tree)) + list(_columns(tree))]
    o = tree.value.get("options") if isinstance(tree.value, dict) else None
    for name, od in (o.value.items() if o is not None and isinstance(o.value, dict) else ()):
        s = od.value.get("says") if isinstance(od.value, dict) else None
        for key, n in (s.value.items() if s is not None and isinstance(s.value, dict) else ()):
            if isinstance(n.value, str):
                out.append(({str(name): str(key)}, n))
    return out


_LINES: dict[str, list[str]] = {}


def locate(node: Node, needle: str) -> Span:
    """Where `needle` is written in the file, at or after the node's line (a folded text's words
    keep their lines); the node's own place when it cannot be found."""
    span = node.span
    if span.file not in _LINES:
        try:
            with open(span.file, encoding="utf-8") as f:
                _LINES[span.file] = f.read().splitlines()
        except OSError:
            _LINES[span.file] = []
    lines = _LINES[span.file]
    first = needle.split()[0] if needle.split() else needle
    for i in range(max(0, span.line - 1), min(len(lines), span.line + 60)):
        c = lines[i].find(needle)
        if c < 0 and " " in needle:
            c = lines[i].find(first)
        if c >= 0:
            return Span(span.file, i + 1, c + 1, len(needle) if lines[i].find(needle) >= 0 else len(first))
    return span


def placeholder_errors(variant: Variant) -> list[Diagnostic]:
    """E091 for every placeholder that names nothing, or an option that cannot say the rule."""
    from rulekit.lang.rulestext import yaku_values
    out: list[Diagnostic] = []
    opts = variant.options
    yv = yaku_values(variant)
    nodes = list(_texts(variant.tree)) + list(_columns(variant.tree)) + list(_option_says(variant.tree))
    for _k, node in nodes:
        for kind, name, _off in placeholders(str(node.value)):
            token = "{" + kind + "." + name + "}"
            if kind == "fig":
                known = figure_names(variant)
                if name not in known:
                    from rulekit.core.errors import did_you_mean
                    out.append(error(locate(node, "{fig." + name), "E091", f"{token}: no figure '{name}' in these "
                                     "rules", hint=did_you_mean(name, known) or "figures are: " + ", ".join(known)))
                continue
            if kind == "yaku":
                v = yv.get(name)
                if v is None or isinstance(v, bool) or not isinstance(v, int):
                    out.append(error(locate(node, token), "E091", f"{token}: no special hand '{name}' with a plain "
                                     "number for its value", hint="name a hand as TABLE.ID, the id of a hand in that yaku table"))
                continue
            o = opts.get(name)
            if o is None:
                from rulekit.core.errors import did_you_mean
                out.append(error(locate(node, token), "E091", f"{token}: no option '{name}'",
                                 hint=did_you_mean(name, opts) or "options are: " + ", ".join(opts)))
            elif kind == "rule":
                have = {k for k, _ in o.says}
                keys = [k for k, _ in o.values] if o.type == "choice" else (
                    ["true", "false"] if o.type == "bool" else [])
                missing = [k for k in keys if k not in have]
                if o.type == "int" and "*" not in have and o.key(o.default) not in have:
                    missing = ["*"]
                if missing:
                    out.append(error(locate(node, token), "E091", f"{token}: option '{name}' has no sentence for "
                                     f"{', '.join(missing)}", hint=f"give options.{name}.says a sentence for each "
                                     "value (see the variant format reference)"))
    return out


def figure_names(variant: Variant) -> list[str]:
    """The names `{fig.NAME}` may use: the built-in ones, every variable, every function without
    parameters (rulekit.engine.figures evaluates them)."""
    names = ["players", "players_min", "players_max", "cards", *variant.vars]
    fns = plain(variant.tree).get("functions") or {}
    names += [k for k, f in fns.items() if isinstance(f, dict) and not f.get("params")]
    return names


def _literals(o: Any) -> list[str]:
    """The ways prose might state an int option's default as a literal: '10 chips', 'twelve rounds'."""
    one, many = o.unit
    if not many:
        return []
    d = int(o.default)
    unit = one if d == 1 else many
    out = [f"{d} {unit}"]
    if 0 <= d < len(NUMBER_WORDS):
        out.append(f"{NUMBER_WORDS[d]} {unit}")
    return out


def strict_warnings(variant: Variant) -> list[Diagnostic]:
    """W091 for each place where the words and the rules can disagree (see the module's list)."""
    out: list[Diagnostic] = []
    opts = variant.options
    texts = list(_texts(variant.tree))
    named: set[str] = set()
    for _k, node in texts + list(_columns(variant.tree)) + list(_option_says(variant.tree)):
        named.update(n for kind, n, _o in placeholders(str(node.value)) if kind != "yaku")
    for _k, node in texts:
        t = " ".join(str(node.value).split())
        here = {n for _kind, n, _o in placeholders(t)}
        for name, o in opts.items():
            if o.type != "int" or name in here:
                continue
            for lit in _literals(o):
                m = re.search(rf"(?<![\w.]){re.escape(lit)}\b", t, re.IGNORECASE)
                if m:
                    out.append(_warn(locate(node, m.group(0)), f"'{m.group(0)}' states option '{name}' "
                                     "(its default) as a literal: the words stay when a table changes it",
                                     f"write {{opt.{name}}} (or {{rule.{name}}}) instead"))
                    break
        m = HOUSE_RULE_WORDS.search(t)
        if m:
            out.append(_warn(locate(node, m.group(0)), "an alternative is written out as '(house rule: ...)': a "
                             "table's sheet would still offer it", "make it an option's value and name it with "
                             "{rule.NAME} (the page then adds '(house rule: ...)' itself)"))
    for name, o in opts.items():
        if name not in named:
            out.append(_warn(o.span or variant.tree.span, f"option '{name}': no text for players names it, so "
                             "a reader never learns its alternatives", f"name it in the rules with {{rule.{name}}} "
                             f"(and options.{name}.says) or {{opt.{name}}}"))
    out += _unexplained_columns(variant)
    out += _options_without_effect(variant)
    return out


def _unexplained_columns(variant: Variant) -> list[Diagnostic]:
    data = plain(variant.tree)
    cols = (data.get("rules") or {}).get("columns") or {}
    y = variant.tree.value.get("yaku") if isinstance(variant.tree.value, dict) else None
    out = []
    for table, entries in (data.get("yaku") or {}).items():
        for col in ("value", "rank"):
            used = any(isinstance(e, dict) and e.get(col) not in (None, 0, "0") for e in entries or [])
            if used and col not in (cols.get(table) or {}):
                tnode = y.value.get(table) if y is not None else None
                span = (tnode.key_span or tnode.span) if tnode is not None else variant.tree.span
                out.append(_warn(span, f"yaku table '{table}': what its {col}s mean is not stated, so the rules "
                                 f"page leaves the {col} column out", f"add rules.columns.{table}.{col}: a few "
                                 "plain words saying what the number means in play"))
    return out


def _options_without_effect(variant: Variant) -> list[Diagnostic]:
    data = plain(variant.tree)
    rest = json.dumps({k: v for k, v in data.items() if k not in ("options", "presets", "rules", "meta")})
    out = []
    raw = data.get("options") or {}
    for name, o in variant.options.items():
        if re.search(rf"\bopt\.{re.escape(name)}\b", rest) or (raw.get(name) or {}).get("words_only") is True:
            continue
        inherited = o.span is not None and o.span.file != variant.file
        where = "inherited from the game this one extends, it" if inherited else "it"
        out.append(_warn(o.span or variant.tree.span, f"option '{name}': {where} changes nothing here (no rule "
                         f"reads opt.{name})", f"remove it ({name}: {{remove: true}}) or make a rule read it"))
    return out


__all__ = ["placeholder_errors", "strict_warnings", "locate", "player_texts", "figure_names"]

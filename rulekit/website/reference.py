"""Reference pages generated from the sources: file format, expressions, decks, command line."""
from __future__ import annotations

import argparse
import json
import os
import re
from typing import Any

from rulekit.lang.decks import deck_names, load_deck
from rulekit.lang.expr.functions import REGISTRY
from rulekit.lang.expr.operators import OPERATORS
from rulekit.website.util import h, md, md_rich, mdcode, plural, slug

from rulekit.core.paths import PACKAGE_DIR as PKG


# -- the variant file format -------------------------------------------------------------

def _ref_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def schema_type(s: Any) -> str:
    """A schema's type in words, with links to definitions (Markdown)."""
    if not isinstance(s, dict):
        return ""
    if "$ref" in s and "type" not in s:
        n = _ref_name(s["$ref"])
        return f"[{n}](#def-{slug(n)})"
    if "const" in s:
        return f"exactly {mdcode(json.dumps(s['const']))}"
    if "enum" in s:
        return "one of " + ", ".join(mdcode(json.dumps(x, ensure_ascii=False)) for x in s["enum"])
    for key in ("oneOf", "anyOf"):
        if key in s:
            return " or ".join(schema_type(x) for x in s[key])
    t = s.get("type")
    types = t if isinstance(t, list) else [t] if t else []
    words = []
    for ty in types:
        if ty == "array":
            words.append("list of " + (schema_type(s.get("items")) or "values"))
        elif ty == "object":
            ap = s.get("additionalProperties")
            if isinstance(ap, dict) and not s.get("properties"):
                words.append("mapping of name → " + (schema_type(ap) or "value"))
            else:
                words.append("mapping")
        elif ty:
            words.append({"string": "text", "integer": "whole number", "number": "number",
                          "boolean": "true/false", "null": "nothing"}.get(ty, ty))
    out = " or ".join(words)
    if "$ref" in s:
        n = _ref_name(s["$ref"])
        out = (out + "; " if out else "") + f"see [{n}](#def-{slug(n)})"
    limits = []
    for k, word in (("minimum", "at least"), ("maximum", "at most"), ("minLength", "length at least"),
                    ("minItems", "items at least"), ("maxItems", "items at most")):
        if k in s:
            limits.append(f"{word} {s[k]}")
    if "pattern" in s:
        limits.append(f"matching {mdcode(s['pattern'])}")
    if limits:
        out += " (" + ", ".join(limits) + ")"
    return out or "any value"


def _props_table(s: dict) -> list[str]:
    props = s.get("properties") or {}
    if not props:
        return []
    req = set(s.get("required") or [])
    rows = ["| key | type | required | description |", "|---|---|---|---|"]
    for k, p in props.items():
        rows.append(f"| `{k}` | {schema_type(p)} | {'yes' if k in req else ''} | {md_rich((p or {}).get('description', ''))} |")
    return rows + [""]


def schema_page(schema_path: str) -> str:
    with open(schema_path, encoding="utf-8") as fh:
        s = json.load(fh)
    out = ["# Variant file format", "",
           "Every game is one YAML file checked against the JSON Schema "
           f"`{os.path.relpath(schema_path, os.path.dirname(PKG))}`. This page is generated from that schema: "
           "its descriptions are the reference. Expressions inside the file are explained in "
           "[the expression language](expressions.md); `rulekit validate FILE` checks a file against both.", "",
           md(s.get("description", "")), "", "## Top level {#top-level}", ""]
    out += _props_table(s)
    for key in ("if", "then", "else"):
        if key in s and isinstance(s[key], dict) and s[key].get("description"):
            out += [f"- *{key}*: {md_rich(s[key]['description'])}"]
    out += ["", "## Definitions {#definitions}", "",
            "The parts the top-level keys are made of, in the order the schema lists them.", ""]
    for name, d in (s.get("$defs") or {}).items():
        out += [f"### {name} {{#def-{slug(name)}}}", ""]
        if d.get("description"):
            out += [md_rich(d["description"]), ""]
        t = schema_type({k: v for k, v in d.items() if k not in ("properties", "description")})
        if t and t != "mapping":
            out += [f"Type: {t}", ""]
        out += _props_table(d)
        if "required" in d and not d.get("properties"):
            out += ["Required: " + ", ".join(mdcode(r) for r in d["required"]), ""]
        for key in ("oneOf", "anyOf", "allOf"):
            if key in d and isinstance(d[key], list):
                for alt in d[key]:
                    if isinstance(alt, dict) and alt.get("description"):
                        out.append(f"- {md_rich(alt['description'])}")
                out.append("")
    return "\n".join(out) + "\n"


# -- the expression language ---------------------------------------------------------------

# the operators table is shared with `rulekit help expressions` (rulekit.lang.expr.operators)


def _grammar_text() -> str:
    with open(os.path.join(PKG, "lang", "expr", "grammar.lark"), encoding="utf-8") as fh:
        return fh.read()


def _tokens(grammar: str) -> dict[str, str]:
    """Terminal definitions of the grammar (NAME: definition)."""
    out = {}
    for m in re.finditer(r"^([A-Z_]+)(?:\.\d+)?:\s*(.+)$", grammar, re.M):
        out[m.group(1)] = m.group(2).strip()
    return out


def _globals_doc() -> list[tuple[str, str, str]]:
    """The names every expression can read besides zones, variables and locals."""
    try:
        from rulekit.engine.build import load_variant
        from rulekit.engine.scope import variant_scope
        from rulekit.lang.decks import load_deck as _ld
        here = os.path.dirname(PKG)
        path = os.path.join(here, "docs", "tutorial", "first-variant.yaml")
        v = load_variant(path)
        deck = _ld(v.decks[v.default_deck].base)
        scope = variant_scope(v, deck, {})
        return [(k, g.type, g.doc) for k, g in scope.globals.items() if k not in v.zones and k not in v.vars]
    except Exception:  # noqa: BLE001 - the page still has everything else
        return []


def expressions_page() -> str:
    g = _grammar_text()
    toks = _tokens(g)
    out = ["# The expression language", "",
           "Conditions, amounts and choices in a variant file are written as small expressions, such as "
           "`sum(hand[p], c -> c.value) % 10`. They are parsed and type-checked when the file is loaded "
           "(so a typo is reported with its line and column before anything is played) and compiled once. An "
           "expression can only read the game: it has no way to reach Python, files or the network.", "",
           "## Values {#values}", "",
           "- whole numbers and exact fractions (`7 / 2` is 7/2, not 3.5); `//` divides to a whole number;",
           "- text in single or double quotes: `'bright'`;",
           "- `true`, `false`;",
           "- lists `[1, 2, 3]` (the top of a pile is its last item) and maps (from `count_by`);",
           "- cards: `c.id`, `c.tags` and every attribute the deck declares (`c.month`, `c.value`, ...; see "
           "[the decks](decks/index.md)); `card('1-1')` is the card with that id in the deck in play;",
           "- options: `opt.name` is the value of a house-rule option; it is fixed when the game is built, so "
           "`if opt.x == 'a' then ... else ...` costs nothing while playing.", "",
           "## Names an expression can read {#names}", "",
           "Every zone of the variant (a per-player zone is a list of piles: `hand[p]`), every variable, the "
           "names bound by earlier steps (`let`, `for`, `choose`, procedure parameters) and these:", ""]
    gl = _globals_doc()
    if gl:
        out += ["| name | type | meaning |", "|---|---|---|"]
        out += [f"| `{n}` | {mdcode(t)} | {md(d)} |" for n, t, d in gl]
        out.append("")
    out += ["Inside a yaku's `when`, `value`, `rank` and `claim`, the names are `cards` (the cards being "
            "judged) and `seat`.", "",
            "## Operators {#operators}", "",
            "From the loosest to the tightest binding:", "",
            "| operator | meaning | example |", "|---|---|---|"]
    for tok, meaning, ex in OPERATORS:
        out.append(f"| {mdcode(tok)} | {md(meaning)} | {mdcode(ex)} |")
    if toks:
        out += ["", "The operator tokens as the grammar defines them:", "", "| token | definition |", "|---|---|"]
        for k in ("COMPOP", "ADDOP", "MULOP", "POW", "IN", "NOT_IN", "NAME", "INT", "DECIMAL", "STRING"):
            if k in toks:
                out.append(f"| `{k}` | {mdcode(toks[k])} |")
    out += ["", "## Functions {#functions}", "",
            "Every function an expression may call, generated from the function registry. In the signatures, "
            "`T` and `R` stand for any type, `fn(T)->R` for a lambda such as `c -> c.value`, and `name:str` for "
            "a text that must be written out (a card id, a yaku table).", ""]
    out += ["| function | what it gives | example |", "|---|---|---|"]
    for name in sorted(REGISTRY):
        f = REGISTRY[name]
        sigs = "<br>".join(mdcode(f.signature(i)) for i in range(len(f.overloads)))
        out.append(f"| {sigs} {{#fn-{slug(name)}}} | {md(f.doc)} | {mdcode(f.example) if f.example else ''} |")
    from rulekit.engine.statsdecl import EXTRA_NAMES
    from rulekit.engine.statsreport import METHODS
    out += ["", "## In statistics {#statistics}", "",
            "A statistic (a `stats:` section, or `rulekit simulate GAME --stats FILE`) reads the game's names and "
            "these (the keys of a statistic are in the [file format](variant-format.md#def-stat); "
            "`rulekit help statistics` prints the same in the terminal):", "",
            "| name | meaning |", "|---|---|"]
    out += [f"| `{n}` | {md(d)} |" for n, d in EXTRA_NAMES.items()]
    out += ["", f"Intervals (95%): {md(METHODS)}."]
    out += ["", "## Grammar {#grammar}", "",
            "The complete grammar (Lark, LALR), from `rulekit/expr/grammar.lark`:", "", "```text", g.rstrip(), "```", ""]
    return "\n".join(out) + "\n"


# -- decks ----------------------------------------------------------------------------------

def decks_index(pictures) -> str:
    out = ["# Decks", "",
           "The decks are data (`rulekit/decks/*.yaml`): every card with its id, names, attributes and tags. "
           "Derived decks take another deck, remove some cards and set new attributes, so a deck standing in "
           "for another is also just data. The pictures are drawn from the "
           "attributes.", "",
           "| deck | cards | made from | description |", "|---|---|---|---|"]
    for name in deck_names():
        d = load_deck(name)
        parent = f"[{d.parent}]({d.parent}.md)" if d.parent else ""
        out.append(f"| [{md(d.names.get('en', name))}]({name}.md) `{name}` | {len(d.cards)} | {parent} | "
                   f"{md(d.description)} |")
    return "\n".join(out) + "\n"


def deck_page(name: str, pictures, root: str) -> str:
    d = load_deck(name)
    out = [f"# {md(d.names.get('en', name))}", ""]
    if d.names.get("ja"):
        out += [f'<p class="rk-names"><span lang="ja">{h(d.names["ja"])}</span>'
                + (f" · <em>{h(d.names['romaji'])}</em>" if d.names.get("romaji") else "") + "</p>", ""]
    out += [md(d.description), "", f"Id `{name}`, {plural(len(d.cards), 'card')}."
            + (f" Made from [{d.parent}]({d.parent}.md)." if d.parent else ""), ""]
    if d.parent:
        with open(d.file, encoding="utf-8") as fh:
            import yaml
            spec = yaml.safe_load(fh) or {}
        bits = []
        if spec.get("remove") is not None:
            bits.append(f"- cards removed: those with {mdcode(spec['remove'])}")
        for a, e in (spec.get("set") or {}).items():
            bits.append(f"- {mdcode(a)} set to {mdcode(e)}")
        if spec.get("map"):
            bits.append(f"- {plural(len(spec['map']), 'card')} given attribute values one by one")
        if bits:
            out += ["How it is made:", ""] + bits + [""]
    out += ["## Attributes {#attributes}", "", "| attribute | type | values | meaning |", "|---|---|---|---|"]
    for a in d.attributes.values():
        vals = ", ".join(mdcode(x) for x in a.values) if a.values else ""
        out.append(f"| `c.{a.name}` | {a.type} | {vals} | {md(a.description)} |")
    out += ["| `c.id` | str | | the card's id, used in `card('...')` |",
            "| `c.tags` | list of str | | marks of special cards, tested with `'tag' in c.tags` |", ""]
    out += ["## Every card {#cards}", ""]
    rows = []
    attrs = list(d.attributes)
    for c in d.cards:
        nm = h(c.names.get("en", c.id))
        if c.names.get("ja") or c.names.get("romaji"):
            nm += "<br><small>" + " · ".join(h(x) for x in (c.names.get("ja"), c.names.get("romaji")) if x) + "</small>"
        rows.append("<tr><td>" + pictures.img(root, name, c, "rk-card rk-card--big") + f"</td><td><code>{h(c.id)}</code></td>"
                    f"<td>{nm}</td>" + "".join(f"<td>{h(c.attrs.get(a))}</td>" for a in attrs)
                    + f"<td>{', '.join(h(t) for t in sorted(c.tags))}</td></tr>")
    head = "".join(f"<th>{h(x)}</th>" for x in ["picture", "id", "name", *attrs, "tags"])
    out += ["", f'<div class="rk-table rk-deck-table"><table><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}'
            "</tbody></table></div>", ""]
    if d.sources:
        out += ["## Sources {#sources}", ""] + [f"- <{s}>" for s in d.sources] + [""]
    return "\n".join(out) + "\n"


# -- the command line ------------------------------------------------------------------------

def cli_page() -> str:
    from rulekit.cli.main import COMMANDS, DESCRIPTION, command_parsers
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        parsers = command_parsers()
        helps = {c.name: c.help for c in COMMANDS}  # the command line's own registry
        out = ["# Command line", "", md(DESCRIPTION), "",
               "Installed as `rulekit` (or `python -m rulekit`). This page is generated from the program's own "
               "argument parser. A variant may be named by its file or by its id (the file name without `.yaml`), looked up under "
               "`./variants` and the shipped variants. Exit status: 0 ok, 1 rule errors, 2 usage errors.", "",
               "| command | what it does |", "|---|---|"]
        for name in helps:
            out.append(f"| [`{name}`](#{slug('cmd-' + name)}) | {md(helps[name])} |")
        out.append("")
        for name, sp in parsers.items():
            out += [f"## rulekit {name} {{#{slug('cmd-' + name)}}}", "", md(helps.get(name, "")), "",
                    "```text", sp.format_usage().strip(), "```", "",
                    "| argument | meaning | default |", "|---|---|---|"]
            for a in sp._actions:
                if isinstance(a, argparse._HelpAction):
                    continue
                if a.option_strings:
                    arg = ", ".join(a.option_strings)
                    if a.nargs != 0:
                        arg += " " + (a.metavar or a.dest.upper())
                else:
                    arg = a.metavar or a.dest
                default = "" if a.default in (None, False, argparse.SUPPRESS) else mdcode(a.default)
                extra = " (repeatable)" if isinstance(a, argparse._AppendAction) else ""
                out.append(f"| {mdcode(arg)} | {md((a.help or '') + extra)} | {default} |")
            out.append("")
        return "\n".join(out) + "\n"
    finally:
        if old is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = old

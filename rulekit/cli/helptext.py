"""`rulekit help TOPIC`: the expression and statistics reference in the terminal, from the same
sources as the site's reference pages (the function registry, the operator table, the names a
game's scope provides, and the schema of a `stats:` entry)."""
from __future__ import annotations

import textwrap

WIDTH = 100
TOPICS = {"expressions": "the expression language: values, names, operators, functions",
          "format": "the variant file format, key by key, from the published schema (help format PART: one part, "
                    "e.g. phase, step, option, yakuEntry)",
          "statistics": "statistics files (simulate --stats): keys, names, interval methods"}


def _wrap(text: str, indent: str = "  ", first: str | None = None) -> list[str]:
    return textwrap.wrap(" ".join(str(text).split()), WIDTH, initial_indent=first if first is not None else indent,
                         subsequent_indent=indent) or [indent.rstrip()]


def _names() -> list[tuple[str, str, str]]:
    """The names every expression reads besides a game's own zones and variables (from a shipped game's scope)."""
    from rulekit.engine.build import load_variant
    from rulekit.engine.scope import variant_scope
    from rulekit.lang.decks import load_deck
    from rulekit.lang.loader import all_variant_ids, default_search_path, find_variant
    # any game will do: its own zones and variables are left out, the rest is every game's
    ids = all_variant_ids(default_search_path())
    path = find_variant(ids[0], None, default_search_path()) if ids else None
    if path is None:
        return []
    v = load_variant(path)
    scope = variant_scope(v, load_deck(v.decks[v.default_deck].base), {})
    return [(k, g.type, g.doc) for k, g in scope.globals.items() if k not in v.zones and k not in v.vars]


def expressions() -> str:
    """The expression reference as plain text."""
    from rulekit.lang.expr.functions import REGISTRY
    from rulekit.lang.expr.operators import OPERATORS
    out = ["THE EXPRESSION LANGUAGE", ""]
    out += _wrap("Conditions, amounts and choices in a variant file (and statistics) are small expressions such "
                 "as sum(hand[p], c -> c.value) % 10. They are checked when the file is loaded and can only read "
                 "the game.", "")
    out += ["", "VALUES",
            "  whole numbers and exact fractions (7 / 2 is 7/2; // divides to a whole number); text in quotes;",
            "  true, false; lists [1, 2, 3] (the top of a pile is its last item); maps (from count_by);",
            "  cards: c.id, c.tags and every attribute of the deck (c.month, c.value ...); card('1-1');",
            "  options: opt.name, the value of a house-rule option.", "",
            "NAMES (besides every zone, such as hand[p], and every variable of the game)"]
    for name, typ, doc in _names():
        out += _wrap(doc, " " * 6, f"  {name} ({typ}): ".ljust(6))
    out += ["", "OPERATORS (loosest binding first)"]
    for tok, meaning, ex in OPERATORS:
        out += _wrap(f"{meaning}; e.g. {ex}", " " * 6, f"  {tok}: ")
    out += ["", "FUNCTIONS"]
    for name in sorted(REGISTRY):
        f = REGISTRY[name]
        for i in range(len(f.overloads)):
            out.append(f"  {f.signature(i)}")
        out += _wrap(f.doc + (f"  e.g. {f.example}" if f.example else ""), " " * 6)
    out += ["", "See also: rulekit help format (the file format); rulekit help statistics."]
    return "\n".join(out)


def statistics() -> str:
    """The statistics reference as plain text, from the schema of a stats: entry."""
    from rulekit.engine.statsdecl import EXTRA_NAMES
    from rulekit.engine.statsreport import METHODS
    from rulekit.lang.schema import load_schema
    defs = load_schema("variant")["$defs"]
    stat = defs["stat"]
    out = ["STATISTICS FILES (rulekit simulate GAME --stats FILE)", ""]
    out += _wrap(stat.get("description", ""), "")
    out += ["", "KEYS OF A STATISTIC"]
    for key, s in stat["properties"].items():
        out += _wrap(s.get("description", ""), " " * 6, f"  {key}: ")
    out += ["", "KEYS OF THE FILE",
            "  stats: the statistics, name -> keys above",
            "  stop_after: end every round after this phase (statistics of the deal only; no chip results)",
            "  variant, description: informative", "", "NAMES A STATISTIC READS (besides the game's)"]
    for name, doc in EXTRA_NAMES.items():
        out += _wrap(doc, " " * 6, f"  {name}: ")
    out += ["  seat: the seat being read (with per_seat: true)", "", "INTERVALS (95%)"]
    out += _wrap(METHODS + "; expect: z is (estimate - expected) / standard error, a rate's under the expected "
                 "value; |z| > 3 is flagged.")
    out += ["", "See also: rulekit help expressions; docs/guides/analyst.md."]
    return "\n".join(out)


def _kind_of(s: dict) -> str:
    """A schema's kind in a few words: a type, a reference to another part, or alternatives."""
    if "$ref" in s:
        return s["$ref"].rsplit("/", 1)[-1]
    if "enum" in s:
        return "one of " + ", ".join(map(str, s["enum"]))
    if isinstance(s.get("else"), dict) and isinstance(s.get("if"), dict):
        return f"{_kind_of(s['else'])} (or {_kind_of(s['if'])})"
    for alt in ("anyOf", "oneOf"):
        if alt in s:
            return " or ".join(_kind_of(x) for x in s[alt])
    t = s.get("type", "")
    if t == "array" and isinstance(s.get("items"), dict):
        return f"list of {_kind_of(s['items'])}"
    if t == "object" and isinstance(s.get("additionalProperties"), dict) and "properties" not in s:
        return f"map of name -> {_kind_of(s['additionalProperties'])}"
    return " or ".join(t) if isinstance(t, list) else str(t or "any")


def _part(name: str, s: dict) -> list[str]:
    """One part of the format: its description and its keys, each with its kind and description."""
    out = [name.upper() if name else "A VARIANT FILE"]
    out += _wrap(s.get("description", ""), "  ")
    req = set(s.get("required", []))
    for key, sub in (s.get("properties") or {}).items():
        if not isinstance(sub, dict):
            continue
        mark = " (required)" if key in req else ""
        out += _wrap(sub.get("description", ""), " " * 6, f"  {key}: {_kind_of(sub)}{mark}. ")
    return out + [""]


def file_format(part: str | None = None) -> str:
    """The variant file format as plain text, from the published schema (schemas/variant.schema.json)."""
    from rulekit.lang.schema import load_schema
    schema = load_schema("variant")
    defs = schema["$defs"]
    if part is not None:
        return "\n".join(_part(part, defs[part])).rstrip()
    out = ["THE VARIANT FILE FORMAT (schemas/variant.schema.json; rulekit help format PART for one part)", ""]
    out += _part("", schema)
    for name, d in defs.items():
        if isinstance(d, dict) and d.get("properties"):
            out += _part(name, d)
    out += ["Other parts: " + ", ".join(n for n, d in defs.items() if not (isinstance(d, dict) and d.get("properties"))),
            "", "See also: rulekit help expressions; docs/guides/extending.md (editor completion from the schema)."]
    return "\n".join(out)


def cmd_help(args) -> int:
    """Print a topic's reference, or the topics."""
    topic = getattr(args, "topic", None)
    if topic is None:
        print("rulekit help TOPIC, where TOPIC is one of:")
        for name, what in TOPICS.items():
            print(f"  {name}: {what}")
        return 0
    if topic not in TOPICS:
        from rulekit.cli.common import usage_error
        from rulekit.core.errors import did_you_mean
        return usage_error(f"no help topic '{topic}': expected one of {', '.join(TOPICS)}"
                           + (f" ({did_you_mean(topic, list(TOPICS))})" if did_you_mean(topic, list(TOPICS)) else ""))
    part = getattr(args, "part", None)
    if topic == "format":
        from rulekit.lang.schema import load_schema
        defs = load_schema("variant")["$defs"]
        if part is not None and part not in defs:
            from rulekit.cli.common import usage_error
            from rulekit.core.errors import did_you_mean
            hint = did_you_mean(part, list(defs))
            return usage_error(f"no part '{part}' of the file format" + (f" ({hint})" if hint else "")
                               + f": the parts are {', '.join(defs)}")
        print(file_format(part))
        return 0
    print(expressions() if topic == "expressions" else statistics())
    return 0

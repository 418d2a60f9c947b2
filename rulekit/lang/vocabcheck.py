"""Rules text in words: an error for each program word in the prose players read.

Players read the `text:` of phases, choices, yaku and payouts, the `rules:` sections, the summary,
the notes, the house-rule descriptions and sources, and the descriptions of outcomes,
strategies and decks. None of them may name an option key, a zone, a variable
or a code token: those belong to the engine view and the command-line notes. `validate --strict`
reports each one (E092) at the text that holds it.
"""
from __future__ import annotations

import re
from typing import Iterator

from rulekit.core.errors import Diagnostic, error
from rulekit.lang.loader import Node
from rulekit.lang.model import Variant

#: what looks like program vocabulary in English prose
PROGRAM_WORD = re.compile(
    r"`[^`\n]+`"                           # a code span
    r"|\bopt\.\w+"                         # an option as an expression names it
    r"|(?<![\w-])-o\s*\w+|(?<![\w-])--[a-z][\w-]+"  # a command-line switch
    r"|\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b"  # snake_case
    r"|[\w./-]+\.ya?ml\b|\bvariants/[\w./-]+"   # a file path
)


def _strings(node: Node | None, crumbs: tuple[str, ...]) -> Iterator[tuple[Node, tuple[str, ...]]]:
    if node is None:
        return
    if isinstance(node.value, str):
        yield node, crumbs
    elif isinstance(node.value, dict):
        for k, v in node.value.items():
            yield from _strings(v, crumbs + (str(k),))
    elif isinstance(node.value, list):
        for i, v in enumerate(node.value):
            yield from _strings(v, crumbs + (str(i),))


def _texts(node: Node, crumbs: tuple[str, ...]) -> Iterator[tuple[Node, tuple[str, ...]]]:
    """Every `text:` string anywhere below a node."""
    if isinstance(node.value, dict):
        for k, v in node.value.items():
            if k == "text":
                yield from _strings(v, crumbs + ("text",))
            else:
                yield from _texts(v, crumbs + (str(k),))
    elif isinstance(node.value, list):
        for i, v in enumerate(node.value):
            yield from _texts(v, crumbs + (str(i),))


def prose_fields(variant: Variant) -> Iterator[tuple[Node, tuple[str, ...]]]:
    """(string node, where) for every text written for players in the variant file."""
    tree = variant.tree.value if isinstance(variant.tree.value, dict) else {}
    meta = tree.get("meta")
    if meta is not None and isinstance(meta.value, dict):
        for k in ("summary", "notes"):
            yield from _strings(meta.value.get(k), ("meta", k))
    yield from _strings(tree.get("rules"), ("rules",))
    opts = tree.get("options")
    if opts is not None and isinstance(opts.value, dict):
        for name, o in opts.value.items():
            if isinstance(o.value, dict):
                yield from _strings(o.value.get("description"), ("options", str(name), "description"))
                yield from _strings(o.value.get("source"), ("options", str(name), "source"))
                vals = o.value.get("values")
                if vals is not None and isinstance(vals.value, dict):
                    yield from _strings(vals, ("options", str(name), "values"))
    presets = tree.get("presets")
    if presets is not None and isinstance(presets.value, dict):
        for name, p in presets.value.items():
            if isinstance(p.value, dict):
                yield from _strings(p.value.get("description"), ("presets", str(name), "description"))
    for block in ("records", "policies", "decks"):  # shown on the page: outcome tables, strategies, decks
        b = tree.get(block)
        if b is not None and isinstance(b.value, dict):
            for name, item in b.value.items():
                if isinstance(item.value, dict):
                    yield from _strings(item.value.get("description"), (block, str(name), "description"))
    for k, v in tree.items():
        if k not in ("meta", "rules", "options", "presets"):
            yield from _texts(v, (k,))


#: placeholders ({opt.NAME}, {rule.NAME}, {yaku.T.ID}, {fig.NAME}, {value}, rulekit.lang.prose) are rendered in words
PLACEHOLDER = re.compile(r"(?<!\{)\{(?:(?:opt|rule|yaku|fig)\.[\w.@-]+(?::\w+)?|value(?::\w+)?)\}")
#: an {expression} part of a text filled in by the engine (a policy's description)
EXPRESSION = re.compile(r"(?<!\{)\{(?!(?:opt|rule|yaku)\.[\w.-]+\})([^{}]+)\}")


def program_words(text: str) -> list[str]:
    """The identifier-like tokens of a text, in order (placeholders, which players read in words, aside)."""
    return [m.group(0) for m in PROGRAM_WORD.finditer(PLACEHOLDER.sub(" ", text))]


def prose_problems(variant: Variant) -> list[Diagnostic]:
    """An error (E092) for each text for players that names a program word instead of saying it in words."""
    out: list[Diagnostic] = []
    for node, crumbs in prose_fields(variant):
        text = node.value
        if crumbs[0] == "policies":
            # a policy's {expression} parts over the options: players read only their quoted words
            # (not the option values they are compared with: "opt.tie_break != 'high_card'")
            text = EXPRESSION.sub(lambda m: " ".join(re.findall(r"'([^']*)'", re.sub(r"(?:[!=]=|\bin)\s*'[^']*'", " ",
                                                                                      m.group(1)))), text)
        words = list(dict.fromkeys(program_words(text)))
        if words:
            shown = ", ".join(repr(w) for w in words[:5]) + (" ..." if len(words) > 5 else "")
            out.append(error(node.span, "E092", f"the rules text at {'.'.join(crumbs)} names program words "
                             f"({shown}); expected plain words for players",
                             hint="say what the option, zone or value means in words; identifiers belong "
                                  "to the engine view and the command-line notes"))
    return out

"""The "Your table" panel's texts: every piece of the rules for every combination of the options it reads.

A piece is one paragraph (or list item, step, choice, hand, quick-reference line) of the rules text.
Its text comes from the same renderer as the command line's sheet (rulekit.lang.rulestext.rules_doc
with Prose.sheet, and the quick-reference facts of a game built with those options), so a figure or a
sentence that follows the rules there follows them here. Which options a piece reads is found by
rendering: a piece depends on an option when some value of that option alone changes it. Each piece is
then rendered once for every combination of the values of the options it depends on (a whole number
with a wide range as exact small values plus one checked template), so a page shows all the changes of a
paragraph together, whatever the order they were chosen in. Combinations beyond LIMIT fall back to the
changes one option at a time (the script then says the paragraph's house rules are listed above it).
"""
from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from rulekit.lang.model import OptionDef, Variant
from rulekit.lang.prose import MARKED, Prose, strip_marks
from rulekit.lang.rulestext import RulesDoc, rules_doc

#: most combinations rendered for one piece
LIMIT = 1024
#: a whole-number option with at most this many values is rendered for each; else small values + template
EXACT_RANGE = 40
#: the small values rendered exactly (numbers said in words up to twelve, "1 round") before the template
SMALL = 13
#: stands for the chosen number in a template (the option's name between two invisible separators)
TOKEN = "\u2063{}\u2063"
_PARA = re.compile(r"\n[ \t]*\n")
_ITEM = re.compile(r"\n(?=[ \t]*(?:[-*+]|\d+[.)])\s)")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
#: a placeholder the renderer left as written (a figure of rules that cannot be built under these values)
_UNFILLED = re.compile(r"\{(?:fig|yaku|opt|rule)\.[^{}\s]*\}")
_EMPH = re.compile(r"\*\*|__|`|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])|(?<![\w_])_(?=\S)|(?<=\S)_(?![\w_])")


def flat(text: str) -> str:
    """A piece as a reader sees it on the page: words only, no marks, no Markdown, single spaces."""
    t = _LINK.sub(r"\1", strip_marks(str(text)))
    t = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", t)  # a list item's bullet
    return " ".join(_EMPH.sub("", t.replace("\\", "")).split())


def segments(text: str) -> list[list[str]]:
    """A piece as [[words, kind], ...]: kind "m" for a changed (marked) piece, "b" for bold, "" otherwise.

    Only words: the script builds text nodes from them, never markup."""
    out: list[list[str]] = []

    def add(words: str, kind: str) -> None:
        if words:
            if out and out[-1][1] == kind:
                out[-1][0] += words
            else:
                out.append([words, kind])

    text = re.sub(r"^\s*(?:[-*+]|\d+[.)])\s+", "", str(text))
    pos = 0
    for m in MARKED.finditer(text):
        _plain(text[pos:m.start()], add, "")
        add(flat_keep_space(m.group(2)), "m")
        pos = m.end()
    _plain(text[pos:], add, "")
    if out:  # one line: the page's own spacing
        out[0][0] = out[0][0].lstrip()
        out[-1][0] = out[-1][0].rstrip()
    return [s for s in out if s[0]]


def flat_keep_space(text: str) -> str:
    t = _LINK.sub(r"\1", text)
    return re.sub(r"\s+", " ", _EMPH.sub("", t.replace("\\", "")))


def _plain(text: str, add: Callable[[str, str], None], kind: str) -> None:
    for i, part in enumerate(re.split(r"\*\*", text)):
        add(flat_keep_space(part), "b" if i % 2 else kind)


def _split(key: str, text: str) -> dict[str, str]:
    """A text's paragraphs and list items, keyed by position (an empty paragraph keeps its place)."""
    out = {}
    for i, para in enumerate(_PARA.split(text or "")):
        for j, item in enumerate(_ITEM.split(para)):
            out[f"{key}/{i}.{j}"] = item.strip()
    return out


def item_id(s: Any, j: int) -> str:
    """The piece id of a section's j-th item: by its key (the same on a page and on a sheet that
    leaves other items out), else by position."""
    keys = getattr(s, "item_keys", ())
    return f"item/{s.key}/{keys[j] if j < len(keys) else j}"


def doc_pieces(doc: RulesDoc) -> dict[str, str]:
    """Every piece of a rules document, keyed by where it sits (stable across option values)."""
    out = _split("lead", doc.lead)
    for s in doc.sections:
        out.update(_split(f"sec/{s.key}", s.text))
        for st in s.steps:
            out.update(_split(f"step/{st.phase}", st.text))
            for c, t in st.choices:
                out[f"step/{st.phase}/choice/{c}"] = t
        for j, item in enumerate(s.items):
            out[item_id(s, j)] = item
    for y in doc.yaku:
        out[f"yaku/{y.table}/{y.id}"] = y.text
    return out


def _std(options: dict[str, OptionDef]) -> dict[str, Any]:
    return {k: o.parse(o.default) for k, o in options.items()}


@dataclass
class Renderer:
    """Pieces for a set of option values, cached: the rules text, and (optionally) the quick reference."""

    variant: Variant
    quick: Callable[[dict[str, Any]], dict[str, str]] | None = None
    cache: dict = field(default_factory=dict)

    def __call__(self, values: dict[str, Any], part: str) -> dict[str, str]:
        key = (part, tuple(sorted((k, repr(v)) for k, v in values.items())))
        if key not in self.cache:
            if part == "doc":
                got = doc_pieces(rules_doc(self.variant, Prose.sheet(self.variant.options, values)))
                # a piece with a placeholder left unfilled is unknown under these values (None), never shown
                self.cache[key] = {k: (None if _UNFILLED.search(t) else t) for k, t in got.items()}
            else:
                try:
                    self.cache[key] = self.quick(values) if self.quick else {}
                except Exception:  # noqa: BLE001 - values the game refuses: the line stays as it is
                    self.cache[key] = None
        return self.cache[key]


def _sentinels(o: OptionDef, exact: list[int], k: int) -> tuple[int, int] | None:
    """Two numbers for checking a template: in range, not said otherwise, distinct per option."""
    lo = o.min if o.min is not None else 0
    hi = o.max if o.max is not None else 10 ** 6
    picks = [n for n in (997 - 6 * k, 983 - 6 * k, 877 - 4 * k, 701 - 4 * k, 97 - 2 * k, 89 - 2 * k, hi - k, hi - 1 - k)
             if lo <= n <= hi and n not in exact]
    return (picks[0], picks[1]) if len(picks) >= 2 else None


def domain(o: OptionDef, narrow: bool = False) -> tuple[list[str], list[Any]]:
    """(value keys, values) the panel renders for an option; "*" is a whole number's template.

    `narrow`: for a piece reading several whole numbers, only the two smallest exactly ("1 round")."""
    if o.type == "choice":
        vals = [k for k, _ in o.values]
        return [o.key(v) for v in vals], vals
    if o.type == "bool":
        return ["true", "false"], [True, False]
    lo = o.min if o.min is not None else 0
    hi = o.max if o.max is not None else 10 ** 6
    if hi - lo + 1 <= EXACT_RANGE:
        vals = list(range(lo, hi + 1))
        return [str(v) for v in vals], vals
    said = {int(k) for k, _s in o.says if k.lstrip("-").isdigit() and lo <= int(k) <= hi}
    vals = sorted(set(range(lo, min(hi, lo + (1 if narrow else SMALL)) + 1)) | said | {o.parse(o.default)})
    return [str(v) for v in vals] + ["*"], vals + ["*"]


def _test_values(o: OptionDef) -> list[Any]:
    """The values that tell whether a piece reads an option."""
    _k, vals = domain(o)
    vals = [v for v in vals if v != "*"]
    if o.type == "int":
        s = _sentinels(o, vals, 0)
        vals = sorted(set(vals[:3] + vals[-2:]) | ({s[0]} if s else set()))
    d = o.parse(o.default)
    return [v for v in vals if v != d]


@dataclass
class Piece:
    """One piece: where it sits, the options it reads, its text under each combination of their values."""

    id: str
    standard: str
    deps: tuple[str, ...]
    texts: dict[str, str]  # "|"-joined value keys of deps -> text (marks kept)
    full: bool = True  # False: too many combinations, only one option changed at a time
    exact: dict[str, list[str]] = field(default_factory=dict)  # a whole number's values rendered as themselves


def _fill(template: str, tokens: dict[str, int], values: dict[str, int]) -> str:
    for name, n in tokens.items():
        template = template.replace(TOKEN.format(name), str(values[name]))
    return template


def pieces(v: Variant, render: Renderer, part: str) -> list[Piece]:
    """Every piece of one part ("doc" or "quick") with its texts for the combinations it needs."""
    std_vals = _std(v.options)
    std = render(std_vals, part) or {}
    deps: dict[str, list[str]] = {}
    seen_ids = list(std)
    for name, o in v.options.items():
        for val in _test_values(o):
            got = render({**std_vals, name: val}, part)
            if got is None:
                continue
            for pid in got:
                if pid not in std and pid not in seen_ids:
                    seen_ids.append(pid)
            for pid in set(got) | set(std):
                if got.get(pid, "") is None or std.get(pid, "") is None:
                    continue  # unknown under these values: not a sign that the piece reads the option
                if got.get(pid, "") != std.get(pid, "") and name not in deps.setdefault(pid, []):
                    deps[pid].append(name)
    if part == "doc":  # an option whose words only matter under another's value (every {N} rounds, when rotating)
        _pairs(v, render, std_vals, deps)
    out = []
    for pid in seen_ids:
        names = tuple(deps.get(pid, ()))
        # the quick reference is dear to render (a game built and rounds played): few exact numbers there
        narrow = part == "quick" or sum(1 for n in names if v.options[n].type == "int") > 1
        doms = [domain(v.options[n], narrow) for n in names]
        total = 1
        for keys, _vals in doms:
            total *= len(keys)
        full = total <= LIMIT
        combos: list[tuple[tuple[str, ...], tuple[Any, ...]]] = []
        if full:
            for pick in itertools.product(*[list(zip(k, vs)) for k, vs in doms]):
                combos.append((tuple(p[0] for p in pick), tuple(p[1] for p in pick)))
        else:  # one option away from the standard rules at a time
            base = [(v.options[n].key(std_vals[n]) if v.options[n].type != "int" or
                     v.options[n].key(std_vals[n]) in doms[i][0] else "*", std_vals[n]) for i, n in enumerate(names)]
            for i, (keys, vals) in enumerate(doms):
                for kk, vv in zip(keys, vals):
                    row = list(base)
                    row[i] = (kk, vv)
                    combos.append((tuple(r[0] for r in row), tuple(r[1] for r in row)))
        texts: dict[str, str] = {}
        for keys, vals in combos:
            text = _combo_text(v, render, part, pid, std_vals, names, vals, narrow)
            if text is not None:
                texts["|".join(keys)] = text
        exact = {n: [k for k in doms[i][0] if k != "*"] for i, n in enumerate(names) if v.options[n].type == "int"}
        out.append(Piece(pid, std.get(pid) or "", names, texts, full, exact))
    return out


def _pairs(v: Variant, render: Renderer, std_vals: dict, deps: dict[str, list[str]]) -> None:
    """Add to a piece the options it reads only when an option it already reads takes another value."""
    gates = {n for names in deps.values() for n in names if v.options[n].type != "int"}
    for a in sorted(gates):
        for va in _test_values(v.options[a]):
            base = render({**std_vals, a: va}, "doc")
            for b, ob in v.options.items():
                if b == a:
                    continue
                for vb in _test_values(ob)[:3] if ob.type == "int" else _test_values(ob):
                    got = render({**std_vals, a: va, b: vb}, "doc")
                    for pid in set(got) | set(base):
                        if got.get(pid, "") is None or base.get(pid, "") is None:
                            continue
                        if got.get(pid, "") != base.get(pid, "") and a in deps.get(pid, ()) \
                                and b not in deps[pid]:
                            deps[pid].append(b)


def _combo_text(v: Variant, render: Renderer, part: str, pid: str, std_vals: dict, names: tuple[str, ...],
                vals: tuple[Any, ...], narrow: bool) -> str | None:
    """A piece's text for one combination; a whole number's "*" as a checked template (None if it fails)."""
    tokens = {n: i for i, (n, x) in enumerate(zip(names, vals)) if x == "*"}
    if not tokens:
        got = render({**std_vals, **dict(zip(names, vals))}, part)
        return None if got is None else got.get(pid, "")  # None: unknown, the script says it changed
    picks = {}
    for n, k in tokens.items():
        o = v.options[n]
        s = _sentinels(o, [x for x in domain(o, narrow)[1] if x != "*"], k)
        if s is None:
            return None
        picks[n] = s
    first = {n: s[0] for n, s in picks.items()}
    second = {n: s[1] for n, s in picks.items()}
    fixed = {n: x for n, x in zip(names, vals) if x != "*"}
    got = render({**std_vals, **fixed, **first}, part)
    check = render({**std_vals, **fixed, **second}, part)
    if got is None or check is None:
        return None
    template = got.get(pid, "")
    if template is None or check.get(pid, "") is None:
        return None  # a figure the rules cannot give at these values: no template, never a placeholder
    for n, num in first.items():
        template = re.sub(rf"(?<!\d){num}(?!\d)", TOKEN.format(n), template)
    if _fill(template, tokens, second) != check.get(pid, ""):
        return None  # the number is not said as itself (a figure worked out from it): no template
    return template


__all__ = ["Piece", "Renderer", "pieces", "doc_pieces", "domain", "flat", "segments", "LIMIT", "TOKEN", "item_id"]

"""The rules for players: a variant's `rules:` block and `text:` strings as one document.

A variant says its rules twice: as steps the engine runs, and in plain words for players
(`rules:` sections, and `text:` on phases, choose steps, yaku and pay steps). This module
gathers the plain words into a `RulesDoc` in the order a reader learns a game, which the
website renders as Markdown and the terminal as text. Nothing here reads expressions: what a
player is shown is what the author wrote for players, with its `{opt.NAME}` and `{rule.NAME}`
filled in from the options (rulekit.lang.prose).
"""
from __future__ import annotations

import dataclasses
import re
import textwrap
from dataclasses import dataclass
from typing import Any, Iterator

from rulekit.core.errors import Diagnostic, error
from rulekit.lang.loader import Node, at
from rulekit.lang.model import Variant
from rulekit.lang.prose import Prose, reading, render, strip_marks, value_words
from rulekit.lang.textrefs import VALUE, own_values, value_ref

#: sections of the rules in reader order: (key in `rules:`, heading)
SECTIONS: tuple[tuple[str, str], ...] = (
    ("equipment", "Equipment"),
    ("setup", "Setup and deal"),
    ("play", "Play"),
    ("hands", "Hands and yaku"),
    ("settling", "Settling up"),
    ("end", "End of the game"),
)

PARAM_KINDS_WITH_TEXT = ("choose", "pay")


@dataclass(frozen=True)
class PlayStep:
    """One numbered step of the Play section: a phase's text and its choices' texts."""

    phase: str
    title: str
    text: str
    choices: tuple[tuple[str, str], ...] = ()  # (choice id, text)


@dataclass(frozen=True)
class Yaku:
    """A yaku as players read it: its table, id, names and text."""

    table: str
    id: str
    name: str
    text: str


@dataclass(frozen=True)
class Section:
    """One section of the rules: its heading, its prose, and (Play) its numbered steps."""

    key: str
    title: str
    text: str
    steps: tuple[PlayStep, ...] = ()
    items: tuple[str, ...] = ()  # Settling up: each payout's sentence
    # each item's key, the same whatever the options (a table's sheet leaves some items out)
    item_keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class RulesDoc:
    """The whole rules text of a variant, in reader order."""

    title: str
    lead: str
    sections: tuple[Section, ...]
    yaku: tuple[Yaku, ...]
    # the heading of each yaku table, where a game has several (display.yaku_tables, or the table's name)
    table_titles: tuple[tuple[str, str], ...] = ()

    def yaku_groups(self) -> list[tuple[str, list[Yaku]]]:
        """The yaku with text, by table in file order, each with its heading ('' for a game
        whose yaku with text are all in one table: no heading needed)."""
        groups: dict[str, list[Yaku]] = {}
        for y in self.yaku:
            if y.text:
                groups.setdefault(y.table, []).append(y)
        titles = dict(self.table_titles)
        if len(groups) < 2:
            return [("", ys) for ys in groups.values()]
        return [(titles.get(t) or t.replace("-", " ").replace("_", " ").capitalize(), ys) for t, ys in groups.items()]

    def section(self, key: str) -> Section | None:
        """The section with this key, or None."""
        return next((s for s in self.sections if s.key == key), None)

    @property
    def empty(self) -> bool:
        """True when the variant has no rules text at all."""
        return not self.lead and not any(s.text or s.steps or s.items for s in self.sections)


def _raw(node: Node | None) -> str:
    return str(node.value).strip() if node is not None and isinstance(node.value, (str, int, float)) else ""


def _params(step: Node, kind: str) -> dict[str, Node]:
    """A step's parameters, whether written beside the kind or as one mapping under it."""
    d = dict(step.value)
    body = d.get(kind)
    if body is not None and isinstance(body.value, dict):
        d.update(body.value)
    return d


def _kind(step: Node) -> str | None:
    if not isinstance(step.value, dict):
        return None
    for k in ("choose", "pay", "if", "for", "repeat", "call"):
        if k in step.value:
            return k
    return None


_OPT_TEST = re.compile(r"^\s*(not\s+)?opt\.([A-Za-z_]\w*)\s*(?:(==|!=)\s*'([^']*)'|(==|!=|>=|<=|>|<)\s*(-?\d+))?\s*$")
_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, ">=": lambda a, b: a >= b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, "<": lambda a, b: a < b}


def _test(cond: str, values: dict[Any, Any]) -> bool | None:
    m = _OPT_TEST.match(cond)
    if m is None or m.group(2) not in values:
        return None
    v = values[m.group(2)]
    if m.group(5):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return None
        r = _COMPARE[m.group(5)](v, int(m.group(6)))
    else:
        r = bool(v) if m.group(3) is None else ((str(v).lower() if isinstance(v, bool) else str(v)) == m.group(4))
        r = r if m.group(3) != "!=" else not r
    return not r if m.group(1) else r


def _conjuncts(cond: str) -> list[str]:
    """The parts of a condition joined by a top-level `and` (one part when an `or` or `if` is at the
    top level, where a failing part says nothing of the whole)."""
    parts, depth, start, i, text = [], 0, 0, 0, cond.strip()
    quote = ""
    while i < len(text):
        ch = text[i]
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0 and text.startswith((" or ", " if ", " then ", " else "), i):
            return [text]
        elif depth == 0 and text.startswith(" and ", i):
            parts.append(text[start:i])
            start = i + 5
            i += 4
        i += 1
    return parts + [text[start:]]


def _holds(cond: str, values: dict[Any, Any] | None) -> bool | None:
    """Whether a condition on options holds for these option values: a simple test (`opt.x`,
    `not opt.x`, `opt.x == 'v'`, `opt.x != 'v'`, `opt.n > 0`), or tests joined by `and` (False as soon
    as one test fails, whatever the rest says). None when it cannot be told or no values are given."""
    if values is None or not cond:
        return None
    results = [_test(p, values) for p in _conjuncts(cond)]
    if False in results:
        return False
    return True if results and all(r is True for r in results) else None


def _conjuncts_fail(cond: str, values: dict[Any, Any] | None) -> bool:
    """True when a top-level `and` part of a condition is an option test that fails for these
    values (the rest may read the cards): what a hand's `when` says about the table's rules."""
    if values is None or not cond:
        return False
    return any(_test(p, values) is False for p in _conjuncts(cond))


#: a label a text gives itself as a house rule ("House rule only (rotating bank): ..."): on a
#: table's sheet the rule is in force, so the label goes (its mark and footnote say whose rule it is)
HOUSE_LABEL = re.compile(r"^\s*House rules?(?: only)?(?:\s*\([^)]*\))?(?:,[^:]*)?:\s*", re.IGNORECASE)


def _item_key(raw: str, taken: list[str]) -> str:
    """A stable key for a payout sentence: its written text's digest (unique among `taken`)."""
    import hashlib
    key = hashlib.sha1(raw.encode("utf-8")).hexdigest()[:10]
    while key in taken:
        key += "+"
    return key


def _unlabel(text: str) -> str:
    m = HOUSE_LABEL.match(text)
    if not m:
        return text
    rest = text[m.end():]
    return rest[:1].upper() + rest[1:]


def _walk(steps: Node | None, procs: dict[str, Node], seen: set[str],
          values: dict[Any, Any] | None = None) -> Iterator[Any]:
    """Every choose and pay step below `steps`, following procedure calls once each.

    With `values` (a table's own game), the branch of an `if` on an option that does not hold
    for them is left out. Yields (kind, step node, params)."""
    if steps is None or not isinstance(steps.value, list):
        return
    for st in steps.value:
        kind = _kind(st)
        if kind is None:
            continue
        d = _params(st, kind)
        if kind in PARAM_KINDS_WITH_TEXT:
            yield kind, st, d
        elif kind == "call":
            name = _raw(d.get("proc")) or _raw(d.get("call"))
            if name and name in procs and name not in seen:
                seen.add(name)
                yield from _walk(procs[name].value.get("steps") if isinstance(procs[name].value, dict) else None,
                                 procs, seen, values)
        else:
            holds = _holds(_raw(d.get("if")), values) if kind == "if" else None
            for key in ("then", "else", "do", "repeat"):
                if holds is not None and key == ("else" if holds else "then"):
                    continue
                if key in d and isinstance(d[key].value, list):
                    yield from _walk(d[key], procs, seen, values)


def _tree(variant: Variant) -> dict[str, Node]:
    return variant.tree.value if isinstance(variant.tree.value, dict) else {}


def _procs(tree: dict[str, Node]) -> dict[str, Node]:
    p = tree.get("procedures")
    return dict(p.value) if p is not None and isinstance(p.value, dict) else {}


def _phases(tree: dict[str, Node]) -> list[Node]:
    r = tree.get("round")
    return [ph for ph in r.value if isinstance(ph.value, dict)] if r is not None and isinstance(r.value, list) else []


def _yaku_entries(tree: dict[str, Node]) -> Iterator[Any]:
    y = tree.get("yaku")
    if y is None or not isinstance(y.value, dict):
        return
    for table, entries in y.value.items():
        if isinstance(entries.value, list):
            for e in entries.value:
                if isinstance(e.value, dict):
                    yield str(table), e


def yaku_values(variant: Variant) -> dict[str, object]:
    """{"TABLE.ID": value} of every special hand that states a value (for `{yaku.TABLE.ID}`)."""
    return {f"{t}.{_raw(e.value.get('id'))}": e.value["value"].value
            for t, e in _yaku_entries(_tree(variant)) if "value" in e.value}


def rules_doc(variant: Variant, prose: Prose | None = None) -> RulesDoc:
    """The rules text of a built variant, sections in reader order (child text over parent).

    `prose` says which option values the text states: by default the game's own page (the
    defaults, with "(house rule: ...)" for the alternatives); `Prose.sheet` for a table's game."""
    p = prose if prose is not None else Prose.standard_page(variant.options)
    if not p.yaku_values:
        p = dataclasses.replace(p, yaku_values=yaku_values(variant))

    def _s(node: Node | None) -> str:
        text = render(_raw(node), p)
        return _unlabel(text) if not p.alternatives else text

    tree = _tree(variant)
    rules = tree.get("rules")
    rv: dict[str, Node] = dict(rules.value) if rules is not None and isinstance(rules.value, dict) else {}
    procs = _procs(tree)
    steps: list[PlayStep] = []
    payouts: list[str] = []
    payout_keys: list[str] = []
    for ph in _phases(tree):
        d = ph.value
        if not p.alternatives and _holds(_raw(d.get("when")), p.values) is False:
            continue  # a table's own sheet leaves out a phase its options never play
        choices = []
        # a procedure's choices are listed under every phase that calls it: a reader looks for a
        # decision at the step where it is made (the dealer's draw at the second field and again
        # with the dealer's own hand)
        for kind, _st, params in _walk(d.get("steps"), procs, set(), None if p.alternatives else p.values):
            text = _s(params.get("text"))
            if not text:
                continue
            if kind == "choose":
                choices.append((_s(params.get("choose")) or _s(params.get("id")), text))
            elif text not in payouts:
                payouts.append(text)
                payout_keys.append(_item_key(_raw(params.get("text")), payout_keys))
        text = _s(d.get("text"))
        if text or choices:
            title = _s(d.get("name")) or _s(d.get("id")).replace("-", " ").capitalize()
            if not p.alternatives:  # a step this table plays is its rule, not "(house rule)"
                title = re.sub(r"\s*\(house rules?(?: only)?\)", "", title, flags=re.IGNORECASE)
            steps.append(PlayStep(_s(d.get("id")), title, text, tuple(choices)))
    sections = []
    for key, title in SECTIONS:
        sections.append(Section(key, title, _s(rv.get(key)),
                                tuple(steps) if key == "play" else (),
                                tuple(payouts) if key == "settling" else (),
                                tuple(payout_keys) if key == "settling" else ()))
    yaku = []
    for table, e in _yaku_entries(tree):
        if not p.alternatives and _conjuncts_fail(_raw(e.value.get("when")), p.values):
            continue  # a table's own sheet leaves out a hand its rules never make
        names = e.value.get("names")
        name = _s(names.value.get("en")) if names is not None and isinstance(names.value, dict) else ""
        yid = _raw(e.value.get("id"))
        own = _raw(e.value.get("text")) or hand_words(variant, e)
        key = f"{table}.{yid}"
        own_p = dataclasses.replace(p, extra_marks=p.extra_marks - {f"yaku.{key}"})  # the whole text is marked
        text = render(VALUE.sub(value_ref(key), own), own_p)
        text = _unlabel(text) if not p.alternatives else text
        if f"yaku.{table}.{yid}" in p.extra_marks and text:
            from rulekit.lang.prose import MARK_CLOSE, MARK_MID, MARK_OPEN
            text = f"{MARK_OPEN}yaku.{table}.{yid}{MARK_MID}{text}{MARK_CLOSE}"
        yaku.append(Yaku(table, yid, name or yid, text))
    tnode = at(variant.tree, "display", "yaku_tables")
    titles = tuple((str(k), _s(v)) for k, v in tnode.value.items()) \
        if tnode is not None and isinstance(tnode.value, dict) else ()
    return RulesDoc(variant.meta.names.get("en", variant.meta.id), _s(rv.get("lead")), tuple(sections), tuple(yaku),
                    titles)


CARD_IN = re.compile(r"^\s*card\(\s*['\"]([^'\"]+)['\"]\s*\)\s+in\s+cards\s*$")

def card_words(variant: Variant, refs: list[str]) -> str:
    """Cards named by id or English name, as players say them: 'the A and the B' with each card's English name."""
    from rulekit.lang.decks import load_deck
    from rulekit.lang.expr.scope import fold_name
    try:
        deck = load_deck(variant.decks[variant.default_deck].base)
    except Exception:  # noqa: BLE001 - an unknown deck is reported where it is named
        deck = None
    by_id = {c.id: c.name for c in deck.cards} if deck is not None else {}
    by_name = {fold_name(c.name): c.name for c in deck.cards} if deck is not None else {}
    words = ["the " + by_id.get(r, by_name.get(fold_name(r), r)) for r in refs]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def hand_words(variant: Variant, e: Node, value_alone: bool = True) -> str:
    """A hand without text of its own, in words: its cards (the one-line `cards:` form) or its
    description, and its value (its value alone when nothing else can be said, unless
    `value_alone` is False: then '')."""
    d = e.value
    cards = d.get("cards")
    refs = [str(c.value) for c in cards.value] if cards is not None and isinstance(cards.value, list) else []
    when = _raw(d.get("when"))
    parts = _conjuncts(when) if when else []
    named = [CARD_IN.match(x) for x in parts]
    if parts and all(named):  # `card(NAME) in cards and ...`: the cards in words too
        refs += [m.group(1) for m in named if m]
        parts = []
    if refs and not parts:
        words = card_words(variant, refs)
        text = words[:1].upper() + words[1:] + "."
    else:
        text = _raw(d.get("description"))
    if not text and not value_alone:
        return ""
    v = d.get("value")
    if v is not None and isinstance(v.value, int) and not isinstance(v.value, bool):
        text += " Worth {value}."
    return text.strip()


def missing_text(variant: Variant) -> list[Diagnostic]:
    """An error for each phase, choice, yaku and payout that has no `text` for players."""
    tree = _tree(variant)
    procs = _procs(tree)
    out: list[Diagnostic] = []

    def need(node: Node, what: str, crumbs: tuple[str, ...]) -> None:
        out.append(error(node.span, "E090", f"{what} has no `text` for players",
                         hint="add `text:` with the rule in plain words (see the variant format reference)",
                         crumbs=crumbs))

    seen: set[str] = set()
    for ph in _phases(tree):
        pid = _raw(ph.value.get("id"))
        if not _raw(ph.value.get("text")):
            need(ph.value.get("id", ph), f"phase '{pid}'", ())
        for kind, st, params in _walk(ph.value.get("steps"), procs, seen):
            if not _raw(params.get("text")):
                label = _raw(params.get(kind)) if isinstance(params[kind].value, str) else ""
                label = label or _raw(params.get("id")) or _raw(params.get("why"))
                what = f"choice '{label}'" if kind == "choose" else ("payout" + (f" '{label}'" if label else ""))
                need(st, what, (f"in phase '{pid}'",))
    # procedures nobody calls from a phase still run (e.g. from yaku or other procedures)
    for name, p in procs.items():
        if name in seen or not isinstance(p.value, dict):
            continue
        for kind, st, params in _walk(p.value.get("steps"), procs, {name}):
            if not _raw(params.get("text")):
                need(st, "choice" if kind == "choose" else "payout", (f"in procedure '{name}'",))
    for table, e in _yaku_entries(tree):
        if not _raw(e.value.get("text")):
            need(e.value.get("id", e), f"yaku '{_raw(e.value.get('id'))}' (table '{table}')", ())
    return out


# -- rendering ---------------------------------------------------------------------------
def to_markdown(doc: RulesDoc, level: int = 2, yaku: bool = True) -> str:
    """The document as Markdown: a heading per section, Play as a numbered list."""
    h = "#" * level
    out: list[str] = []
    if doc.lead:
        out += [doc.lead, ""]
    for s in doc.sections:
        body: list[str] = []
        if s.text:
            body += [s.text, ""]
        for i, st in enumerate(s.steps, 1):
            first = f"{i}. **{st.title}.** {st.text}".rstrip()
            body.append(first)
            for _cid, text in st.choices:
                body.append(f"    - {text}")
            body.append("")
        if s.key == "hands" and yaku:
            for title, ys in doc.yaku_groups():
                body += [f"{h}# {title}", ""] if title else []
                body += [f"- **{y.name}**: {y.text}" for y in ys]
                body.append("")
            if doc.yaku and not any(y.text for y in doc.yaku):
                body.append("")
        for item in s.items:
            body.append(f"- {item}")
        if s.items:
            body.append("")
        if body:
            out += [f"{h} {s.title}", ""] + body
    return "\n".join(out).rstrip() + "\n"


_MD_MARKS = re.compile(r"\*\*|__|`")


def to_plain(doc: RulesDoc, width: int = 78) -> str:
    """The document as plain text for a terminal: headings underlined, paragraphs wrapped."""
    def para(text: str, indent: str = "", first: str | None = None) -> list[str]:
        lines: list[str] = []
        for chunk in _MD_MARKS.sub("", text).split("\n\n"):
            if lines:
                lines.append("")  # paragraphs stay apart, as in the Markdown
            lines += textwrap.wrap(" ".join(chunk.split()), width, initial_indent=first if first is not None
                                   else indent, subsequent_indent=indent) or [""]
            first = None
        return lines

    out: list[str] = [doc.title, "=" * len(doc.title), ""]
    if doc.lead:
        out += para(doc.lead) + [""]
    for s in doc.sections:
        body: list[str] = []
        if s.text:
            body += para(s.text) + [""]
        for i, st in enumerate(s.steps, 1):
            body += para(f"{st.title}. {st.text}", "    ", f"{i:>2}. ")
            for _cid, text in st.choices:
                body += para(text, "      ", "    - ")
            body.append("")
        if s.key == "hands":
            for title, ys in doc.yaku_groups():
                body += [f"  {title}:"] if title else []
                for y in ys:
                    body += para(f"{y.name}: {y.text}", "    ", "  - ")
                body.append("")
        for item in s.items:
            body += para(item, "    ", "  - ")
        if s.items:
            body.append("")
        if body:
            out += [s.title, "-" * len(s.title)] + body
    return "\n".join(out).rstrip() + "\n"


def house_rules_plain(variant: Variant, width: int = 78, game: str = "GAME") -> str:
    """The house rules as a terminal section: each rule's question, its usual reading and the others,
    with the command-line spelling last (the rules above it state the usual readings alone)."""
    opts = variant.options
    if not opts:
        return ""
    p = Prose.page(opts)
    def wrap(t: str, ind: str) -> list[str]:
        return textwrap.wrap(" ".join(t.split()), width, initial_indent=ind,
                             subsequent_indent=" " * len(ind) + ("  " if ind.strip() == "" else ""))
    out = ["House rules", "-----------"]
    out += textwrap.wrap(f"The rules above are the usual ones. A table agrees on these {len(opts)} points before "
                         "the first deal:", width) + [""]
    for o in opts.values():
        out += wrap(o.description, "  - ")
        default = o.key(p.values[o.name])
        usual = reading(o, default, p) or value_words(o, p.values[o.name])
        out += wrap("Usually: " + _cap(usual) + ".", "    ")
        if o.type == "int":
            rng = f" from {o.min}" if o.min is not None else ""
            rng += f" to {o.max}" if o.max is not None else ""
            out += wrap(f"Or any whole number{rng}.", "    ")
            spell = [f"-o {o.name}=N"]
        else:
            keys = [k for k, _ in o.values] if o.type == "choice" else ["true", "false"]
            others = [_cap(reading(o, k, p)) for k in keys if k != default]
            out += [ln for t in others for ln in wrap(f"Or: {t}.", "    ")]
            spell = [f"-o {o.name}={k}" for k in keys if k != default]
        out += wrap(f"(to play it: rulekit play {game} " + " or ".join(spell) + ")", "    ")
    if variant.presets:
        out += ["", *textwrap.wrap("Named sets of house rules (rulekit play " + game + " --preset NAME):", width)]
        for pr in variant.presets.values():
            out += wrap(f"{pr.name}: {pr.description}", "  - ")
    return "\n".join(out) + "\n"


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def phase_prompts(variant: Variant, phase_id: str) -> list[str]:
    """The prompts of the choices a phase asks for (procedures followed), in order, each once: what a
    page shows for a phase whose choices have no `text` yet."""
    tree = _tree(variant)
    procs = _procs(tree)
    out: list[str] = []
    for ph in _phases(tree):
        if _raw(ph.value.get("id")) != phase_id:
            continue
        for kind, _st, params in _walk(ph.value.get("steps"), procs, set()):
            p = " ".join(_raw(params.get("prompt")).split())
            if kind == "choose" and p and p not in out:
                out.append(p)
    return out


def phase_text(variant: Variant, phase_id: str, values: dict[str, Any] | None = None) -> str:
    """The players' text of one phase (for `?` at the table), or ''; with `values` (the options in
    play), the rules as this table plays them, without the alternatives it does not play."""
    prose = Prose.sheet(variant.options, values) if values is not None else None
    for st in rules_doc(variant, prose).section("play").steps:  # type: ignore[union-attr]
        if st.phase == phase_id:
            return strip_marks(st.text)
    return ""


__all__ = ["own_values", "hand_words", "card_words", "yaku_values", "SECTIONS", "RulesDoc", "Section", "PlayStep", "Yaku", "rules_doc", "missing_text", "to_markdown",
           "to_plain", "phase_text", "phase_prompts"]



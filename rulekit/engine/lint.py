"""Warnings of validation (issue 26: silent mistakes): rules that are well formed but cannot do
anything - a deck `remove:` that removes no card, a `remove:` reading an attribute the same deck
redefines with `set:`, and labels for values a choice can never offer."""
from __future__ import annotations

from typing import Any

from rulekit.core.errors import Diagnostic, Span
from rulekit.engine.steps import label_key
from rulekit.lang.loader import at
from rulekit.lang.model import Variant

CODE = "E042"  # an inconsistent rule (reported as a warning: the file still plays)


def warning(span: Span, message: str, hint: str = "") -> Diagnostic:
    """A located warning: the file is valid, but this part cannot do what it says."""
    return Diagnostic(span, CODE, message, (), hint, "warning")


def deck_warnings(variant: Variant, deck_name: str, deck: Any, base: Any) -> list[Diagnostic]:
    """A variant deck's `remove:` that removes nothing at any table size, or reads an attribute
    that the same deck's `set:` redefines (remove sees the value before set)."""
    from rulekit.lang.expr import ast
    from rulekit.lang.expr.parser import ExprSyntaxError, parse
    node = at(variant.tree, "decks", deck_name, "remove")
    if node is None or not isinstance(node.value, str):
        return []
    out = []
    # (one that reads the options may remove cards under other option values)
    if len(deck.cards) == len(base.cards) and not deck.out_of_play and "opt" not in node.value:
        out.append(warning(node.span, f"decks.{deck_name}.remove: no card of deck '{base.id}' matches, so "
                           "nothing is removed", "check the attribute values the expression compares with"))
    sets = at(variant.tree, "decks", deck_name, "set")
    redefined = set(sets.value) if sets is not None and isinstance(sets.value, dict) else set()
    try:
        tree = parse(node.value)
    except ExprSyntaxError:
        return out
    todo, read = [tree], set()
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Attr):
            read.add(n.attr)
        todo.extend(ast.children(n))
    for attr in sorted(read & redefined):
        out.append(warning(node.span, f"decks.{deck_name}.remove reads attribute '{attr}', which set: "
                           f"redefines in the same deck; remove sees the value before set changes it",
                           f"test the original value of '{attr}', or take the cards out in a deck derived from this one"))
    return out


def label_warnings(game: Any) -> list[Diagnostic]:
    """Labels (choose `labels:`) for values a choice can never offer, where its values are fixed."""
    out = []
    for choices in game.choices.values():
        for ch in choices:
            fixed = getattr(ch, "fixed_values", None) or {}
            for param, labels in (ch.labels or {}).items():
                if param not in fixed:
                    continue
                can = {label_key(v) for v in fixed[param]}
                for key in labels:
                    if key not in can and key not in ("*", "[]"):
                        out.append(warning(ch.span, f"choose {ch.id}: a label for {param} '{key}', a value the "
                                           f"choice never offers (its values: {', '.join(sorted(can))})"))
    return out


def where_warnings(variant: Any, deck_name: str, opts: dict[Any, Any], sizes: list[int], build_game: Any) -> list[Diagnostic]:
    """A choice with `where` and `if_none: skip` whose where never held in validation's rounds:
    the choice was reached but never offered (played on the closures, which keep the tally;
    `build_game` is rulekit.engine.build's, passed in so this module does not import it)."""
    from rulekit.core.errors import RulekitError
    try:
        game = build_game(variant, opts, None, deck_name, codegen=False)
    except RulekitError:
        return []
    quiet = {ch.span: ch for chs in game.choices.values() for ch in chs if getattr(ch, "quiet_where", False)}
    if not quiet:
        return []
    tally: dict[Any, Any] = {}
    game.extra.caches.where_tally = tally
    for n in sizes:
        for seed in range(3):
            try:
                from rulekit.engine.agents import FirstLegalAgent
                from rulekit.engine.runner import play
                play(game, n, seed, [FirstLegalAgent() for _ in range(n)], rounds=1, logging=False)
            except RulekitError:
                return []  # reported by the smoke round itself
    return [warning(span, f"choose {quiet[span].id}: its where never held in validation's rounds, so the "
                    "choice was always skipped (if_none: skip)", "check the where condition")
            for span, held in tally.items() if not held and span in quiet]


_PROSE = ("text", "description", "name", "names")


def _state_names(v: Any, state: set[str]) -> set[str]:
    """The zones and variables a phase's steps name (prose for players left out)."""
    import re
    if isinstance(v, str):
        return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", v)) & state
    if isinstance(v, dict):
        return set().union(*(_state_names(x, state) for k, x in v.items() if k not in _PROSE), set())
    if isinstance(v, list):
        return set().union(*(_state_names(x, state) for x in v), set())
    return set()


def appended_phase_warnings(variant: Variant) -> list[Diagnostic]:
    """A phase a child file adds without before:/after: goes after the parent's last phase; when it
    uses zones or variables the phases before it use too, it was most likely meant earlier."""
    from rulekit.lang.loader import plain
    rnode = at(variant.tree, "round")
    if rnode is None or not isinstance(rnode.value, list):
        return []
    state = set(variant.zones) | set(variant.vars)
    out = []
    for i, ph in enumerate(rnode.value):
        last = ph.appended_after
        if not last or not isinstance(ph.value, dict) or "id" not in ph.value:
            continue
        earlier = set().union(*(_state_names(plain(p), state) for p in rnode.value[:i]), set())
        shared = sorted(_state_names(plain(ph), state) & earlier)
        if not shared:
            continue
        pid = ph.value["id"].value
        out.append(warning(ph.value["id"].span, f"phase '{pid}' is added after the inherited phase '{last}', "
                           f"the last one, so it is played after it; it uses {', '.join(map(repr, shared[:6]))}, "
                           "which earlier phases use too",
                           f"to play it earlier, add `after: <id of the phase it follows>` (or `before: <id>`); "
                           f"to keep it last, add `after: {last}`"))
    return out

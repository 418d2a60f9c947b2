"""The steps of a round as readable sentences (HTML lists), and facts gathered from them.

Works on the plain data of the merged variant tree (after `extends`), one sentence per step
kind; control flow (`if`, `for`, `repeat`) becomes nested lists. Expressions are shown in
code spans exactly as written.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from rulekit.engine.steps import PARAM_KINDS, STEP_KINDS
from rulekit.lang.expr import ast as A
from rulekit.lang.expr.parser import parse
from rulekit.website.util import code, h, plural, slug, squash


def normalize(step: Any) -> tuple[str, Any, dict]:
    """(kind, label, params) of one step, whichever of the two spellings it uses."""
    if not isinstance(step, dict):
        return "?", step, {}
    kinds = [k for k in step if k in STEP_KINDS]
    if not kinds:
        return "?", step, {}
    kind = kinds[0]
    body = step[kind]
    params = {k: v for k, v in step.items() if k != kind}
    label = body
    if kind in PARAM_KINDS and isinstance(body, dict):
        params.update(body)
        label = body.get("id") or body.get("why") or body.get("name")
    return kind, label, params


def proc_anchor(name: str) -> str:
    return "procedure-" + slug(name)


def table_anchor(name: str) -> str:
    return "yaku-table-" + slug(name)


def _count_phrase(count: Any, noun: str = "card") -> str:
    if isinstance(count, int) and not isinstance(count, bool):
        return plural(count, noun)
    return f"{code(count)} {noun}s"


def _zone(z: Any) -> str:
    return code(z)


def _seat(x: Any) -> str:
    return f"seat {code(x)}"


class Renderer:
    """Renders steps to nested HTML lists; `links` says whether procedure names are links."""

    def __init__(self, procedures: dict | None = None, yaku_tables: tuple = (), links: bool = True):
        self.procedures = procedures or {}
        self.yaku_tables = set(yaku_tables)
        self.links = links

    # -- lists -----------------------------------------------------------------
    def steps(self, steps: Any) -> str:
        if not isinstance(steps, list) or not steps:
            return ""
        items = "".join(f"<li>{self.step(s)}</li>" for s in steps)
        return f'<ol class="rk-steps">{items}</ol>'

    def step(self, s: Any) -> str:
        kind, label, p = normalize(s)
        fn: Callable | None = getattr(self, "k_" + kind, None)
        if fn is None:
            return f"Step {code(squash(s))}"
        return fn(label, p)

    # -- sentences per step kind ------------------------------------------------
    def k_shuffle(self, label, p):
        return f"Shuffle {_zone(label)}."

    def k_cut(self, label, p):
        return f"Cut {_zone(label)} at a random place."

    def k_move(self, label, p):
        src, dst = p.get("from", "?"), p.get("to", "?")
        if "cards" in p:
            what = f"the card(s) {code(p['cards'])}"
            tail = f" from {_zone(src)} to {_zone(dst)}"
        elif "where" in p:
            n = p.get("count")
            what = (f"{_count_phrase(n)} with {code(p['where'])}" if n is not None
                    else f"every card with {code(p['where'])}")
            tail = f" from {_zone(src)} (looking from the top) to {_zone(dst)}"
        elif "at" in p:
            what = f"the card {code(p['at'])} places below the top"
            tail = f" of {_zone(src)} to {_zone(dst)}"
        elif "count" in p:
            what = _count_phrase(p["count"])
            tail = f" from {_zone(src)} to {_zone(dst)}"
        else:
            what = "all the cards"
            tail = f" of {_zone(src)} to {_zone(dst)}"
        out = f"Move {what}{tail}"
        if p.get("position") == "bottom":
            out += ", at the bottom"
        if p.get("face") in ("up", "down"):
            out += f", face {p['face']}"
        return out + "."

    def k_deal(self, label, p):
        n = p.get("count", 1)
        players = p.get("players")
        who = (f"the seats {code(players)} in that order" if players is not None
               else "every seat in turn, starting on the dealer's right")
        out = (f"Deal {_count_phrase(n)} to each {_zone(p.get('to', '?'))}, one card at a time, from "
               f"{_zone(p.get('from', 'deck'))} to {who}")
        if p.get("face") in ("up", "down"):
            out += f", face {p['face']}"
        return out + "."

    def k_reveal(self, label, p):
        what = code(p["cards"]) if "cards" in p else f"the cards in {_zone(p.get('zone', label))}"
        to = p.get("to")
        if to is None or to == "all":
            return f"Show {what} to everyone."
        return f"Show {what} to {_seat(to)}."

    def _assign(self, verb: str, p: dict, sep: str) -> str:
        parts = []
        for target, expr in p.items():
            parts.append(f"{code(target)} {sep} {code(expr)}")
        return verb + " " + "; ".join(parts) + "."

    def k_let(self, label, p):
        if not isinstance(label, dict):
            return f"Let {code(label)}."
        return "; ".join(f"Let {code(k)} be {code(v)}" for k, v in label.items()) + "."

    def k_set(self, label, p):
        if not isinstance(label, dict):
            return f"Set {code(label)}."
        return "; ".join(f"Set {code(k)} to {code(v)}" for k, v in label.items()) + "."

    def k_add(self, label, p):
        if not isinstance(label, dict):
            return f"Add {code(label)}."
        return "; ".join(f"Add {code(v)} to {code(k)}" for k, v in label.items()) + "."

    def k_if(self, label, p):
        out = f"If {code(label)}:" + (self.steps(p.get("then")) or " nothing happens.")
        if p.get("else"):
            out += "Otherwise:" + self.steps(p.get("else"))
        return out

    def k_for(self, label, p):
        return f"For each {code(label)} in {code(p.get('in', '?'))}:" + self.steps(p.get("do"))

    def k_repeat(self, label, p):
        if "until" in p:
            cond = f"until {code(p['until'])} (checked after each pass)"
        elif "while" in p:
            cond = f"while {code(p['while'])} (checked before each pass)"
        else:
            cond = ""
        mx = f", at most {p['max']} times" if "max" in p else ""
        return f"Repeat {cond}{mx}:" + self.steps(label)

    def k_choose(self, label, p):
        who = _seat(p["player"]) if "player" in p else "The dealer"
        prompt = p.get("prompt") or str(label).replace("_", " ")
        out = f"{who[0].upper() + who[1:]} chooses (<em>{h(label)}</em>): “{h(squash(prompt))}”"
        opts = p.get("options") or {}
        if isinstance(opts, dict) and opts:
            out += " — " + "; ".join(f"{code(k)} one of {code(v)}" for k, v in opts.items())
        out += "."
        if "where" in p:
            out += f" Only choices with {code(p['where'])} are allowed."
        if p.get("if_none") == "skip":
            out += " With no allowed choice the step is skipped."
        return out

    def k_pay(self, label, p):
        src = f"the pot {code(p['from_pot'])}" if "from_pot" in p else _seat(p.get("from", "?"))
        dst = f"the pot {code(p['to_pot'])}" if "to_pot" in p else _seat(p.get("to", "?"))
        amount = code(p["amount"]) if "amount" in p else "all it holds"
        why = f" ({h(label)})" if isinstance(label, str) and label else ""
        return f"{src[0].upper() + src[1:]} pays {amount} to {dst}{why}."

    def k_record(self, label, p):
        name = p.get("name", label)
        who = f" for {_seat(p['player'])}" if "player" in p else ""
        return f"Note the outcome <strong>{h(name)}</strong>{who} (counted in the statistics)."

    def k_claim(self, label, p):
        table = p.get("table", label)
        tname = f'<a href="#{table_anchor(table)}">{h(table)}</a>' if self.links and table in self.yaku_tables \
            else h(table)
        out = (f"Find the yaku of the {tname} table in {code(p.get('cards', '?'))} for "
               f"{_seat(p.get('player', '?'))}")
        if p.get("as"):
            out += f"; the ids found are called {code(p['as'])}"
        return out + "."

    def k_set_dealer(self, label, p):
        return f"The next round's dealer is {_seat(label)}."

    def k_end_round(self, label, p):
        why = f": {h(label)}" if isinstance(label, str) and label else ""
        return f"The round ends at once{why}."

    def k_redeal(self, label, p):
        why = f" ({h(label)})" if isinstance(label, str) and label else ""
        return f"Misdeal{why}: the cards are gathered, shuffled and dealt again."

    def k_call(self, label, p):
        name = p.get("proc", label)
        args = p.get("with") or {}
        link = f'<a href="#{proc_anchor(name)}">{h(name)}</a>' if self.links and name in self.procedures \
            else f"<strong>{h(name)}</strong>"
        out = f"Do {link}"
        if isinstance(args, dict) and args:
            out += " with " + ", ".join(f"{code(k)} = {code(v)}" for k, v in args.items())
        return out + "."

    def k_swap(self, label, p):
        if isinstance(label, list) and len(label) == 2:
            return f"Exchange the cards of {_zone(label[0])} and {_zone(label[1])}."
        return f"Exchange {code(label)}."

    def k_say(self, label, p):
        return f"Announce: “{h(squash(label))}”."


# -- facts gathered from the steps ---------------------------------------------------

def walk_steps(steps: Any, visit: Callable[[str, Any, dict, list], None], ctx: list | None = None) -> None:
    """Call visit(kind, label, params, context) for every step; context lists the enclosing
    conditions and loops as readable HTML fragments."""
    ctx = ctx or []
    for s in steps if isinstance(steps, list) else []:
        kind, label, p = normalize(s)
        visit(kind, label, p, ctx)
        if kind == "if":
            walk_steps(p.get("then"), visit, ctx + [f"when {code(label)}"])
            walk_steps(p.get("else"), visit, ctx + [f"when not {code(label)}"])
        elif kind == "for":
            walk_steps(p.get("do"), visit, ctx + [f"for each {code(label)} in {code(p.get('in', '?'))}"])
        elif kind == "repeat":
            walk_steps(label, visit, ctx + ["repeatedly"])


def kinds_in(steps: Any, procedures: dict, seen: frozenset = frozenset()) -> set[str]:
    """Every step kind used by these steps, following procedure calls."""
    out: set[str] = set()

    def visit(kind, label, p, ctx):
        out.add(kind)
        if kind == "call":
            name = p.get("proc", label)
            if name in procedures and name not in seen:
                out.update(kinds_in((procedures[name] or {}).get("steps"), procedures, seen | {name}))
    walk_steps(steps, visit)
    return out


def names_in(expr: Any) -> set[str]:
    """Names an expression reads (empty when it does not parse)."""
    if not isinstance(expr, str):
        return set()
    try:
        tree = parse(expr)
    except Exception:  # noqa: BLE001 - a bad expression is reported by validation
        return set()
    return {n.name for n in A.walk(tree) if isinstance(n, A.Name)}


@dataclass
class Payment:
    """One pay step, where it stands and what its amount is made of."""

    where: str
    src: str
    dst: str
    amount: Any
    why: str
    context: list = field(default_factory=list)
    lets: list = field(default_factory=list)  # (name, expression) the amount depends on


def payments(phases: list[tuple[str, Any]]) -> list[Payment]:
    """Every pay step of these (title, steps) pairs, with the `let` definitions it uses."""
    out: list[Payment] = []
    for title, steps in phases:
        lets: dict[str, Any] = {}

        def visit(kind, label, p, ctx, title=title, lets=lets):
            if kind == "let" and isinstance(label, dict):
                lets.update(label)
            if kind != "pay":
                return
            src = f"pot {code(p['from_pot'])}" if "from_pot" in p else f"seat {code(p.get('from', '?'))}"
            dst = f"pot {code(p['to_pot'])}" if "to_pot" in p else f"seat {code(p.get('to', '?'))}"
            amount = p.get("amount", p.get("from_pot", "?"))
            used: list[tuple[str, Any]] = []
            todo = sorted(names_in(amount))  # a set: sorted, so the page is the same for any PYTHONHASHSEED
            seen: set[str] = set()
            while todo and len(used) < 8:
                n = todo.pop(0)
                if n in seen or n not in lets:
                    continue
                seen.add(n)
                used.append((n, lets[n]))
                todo += sorted(names_in(lets[n]))
            out.append(Payment(title, src, dst, amount, label if isinstance(label, str) else "", list(ctx), used))
        walk_steps(steps, visit)
    return out

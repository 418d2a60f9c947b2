"""Who may see each game variable: declared (`visibility:` on a var) or derived from what sets it.

A variable is derived *hidden* when anything that sets it - the expression it is set to, or a
condition or loop around that step - reads a zone that is not public or a name that is itself
hidden (functions and `let`/`for` names count as names); otherwise it is public. The reading is
by name and on purpose cautious: a hidden variable is never shown to a seat (the JSON observation,
the vector, `Decision.observation`), so a wrong "hidden" costs information, never a leak.
A variable declared `public` that the derivation finds hidden is reported by `validate`
(E043): every seat would see something computed from cards some seat cannot see.
"""
from __future__ import annotations

import re
from typing import Any

from rulekit.lang.loader import plain
from rulekit.lang.model import Variant

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_BLOCKS = ("then", "else", "do", "steps", "body")


def _names(v: Any) -> set[str]:
    """Every identifier in the strings of `v` (keys of maps included)."""
    out: set[str] = set()
    if isinstance(v, str):
        out.update(_NAME.findall(v))
    elif isinstance(v, dict):
        for k, x in v.items():
            out.update(_NAME.findall(str(k)))
            out |= _names(x)
    elif isinstance(v, list):
        for x in v:
            out |= _names(x)
    return out


def _bindings(v: Any, around: frozenset[Any], env: dict[str, str], out: list[Any]) -> dict[str, str]:
    """Append (name bound, names read to bind it) to `out` for every set/add/let/for in a step
    tree; `around` are the names read by the conditions and loops enclosing the step, `env` maps
    the `let`/`for` names in scope to a name of their own (a loop's `p` is not another loop's
    `p`). Returns the scope after `v` (a `let` step binds for the steps after it)."""
    if isinstance(v, list):
        scope = dict(env)
        for x in v:
            scope = _bindings(x, around, scope, out)
        return env
    if not isinstance(v, dict):
        return env

    def reads(x: Any) -> set[str]:
        return {env.get(n, n) for n in _names(x)}
    here = set(around)
    for k, x in v.items():
        if not isinstance(x, (list, dict)) and k not in ("set", "add", "let", "for"):
            here |= reads(x)
    if isinstance(v.get("for"), str):
        key = f"{v['for']}#{len(out)}"
        out.append((key, reads(v.get("in")) | set(around)))
        here |= {key}
        env = {**env, v["for"]: key}
    here_f = frozenset(here)
    for key in ("set", "add"):
        target = v.get(key)
        if isinstance(target, dict):
            for t, expr in target.items():
                m = _NAME.match(str(t).strip())
                if m:
                    name = env.get(m.group(0), m.group(0))
                    out.append((name, reads(expr) | reads(str(t)[m.end():]) | here_f))
    after = env
    if isinstance(v.get("let"), dict):
        after = dict(env)
        for t, expr in v["let"].items():
            key = f"{t}#{len(out)}"
            out.append((key, reads(expr) | here_f))
            after[str(t)] = key
    for k, x in v.items():
        if isinstance(x, (list, dict)) and k not in ("set", "add", "let"):
            _bindings(x, here_f, env, out)
    return after


def derived_hidden(variant: Variant) -> set[str]:
    """The names (variables, functions, locals) whose value may depend on cards not public."""
    data = plain(variant.tree)
    binds: list[tuple[str, set[str]]] = []
    for fname, f in (data.get("functions") or {}).items():
        binds.append((fname, _names(f)))
    for key in ("round", "procedures", "game"):
        _bindings(data.get(key), frozenset(), {}, binds)
    hidden = {z for z, d in variant.zones.items() if d.visibility != "public"}
    changed = True
    while changed:  # to a fixed point: a name read from a hidden one is hidden
        changed = False
        for name, reads in binds:
            if name not in hidden and reads & hidden:
                hidden.add(name)
                changed = True
    return hidden


def var_visibility(variant: Variant) -> dict[str, str]:
    """Each variable's visibility: public, owner (a per-seat variable each seat sees its own
    slot of) or hidden - as declared, else derived."""
    hidden = derived_hidden(variant)
    out = {}
    for name, v in variant.vars.items():
        declared = getattr(v, "visibility", "") or ""
        out[name] = declared or ("hidden" if name in hidden else "public")
    return out


def visibility_problems(variant: Variant) -> list[tuple[str, str]]:
    """(variable, message) for each variable declared public that is computed from cards some
    seat cannot see. (A variable declared `owner` is taken at its word: computed from what its
    own seat may see.)"""
    hidden = derived_hidden(variant)
    out = []
    for name, v in variant.vars.items():
        if (getattr(v, "visibility", "") or "") == "public" and name in hidden:
            out.append((name, f"variable '{name}' is shown to every seat (visibility: public) but is computed "
                              "from cards some seats cannot see: declare it hidden, or owner if each seat may "
                              "know its own value"))
    return out

"""Policies written in YAML that extend another (`extends: careful`): the rules each one plays by."""
from __future__ import annotations

from rulekit.core.errors import Collector, did_you_mean, error
from rulekit.lang.loader import Node


def policy_rules(pnode: Node, pname: str, errs: Collector, seen: tuple[str, ...] = ()) -> list[Node]:
    """A policy's rules: its own, then (`extends: base`) the base's rules for the choices its own
    rules do not name; an unknown base or a cycle is reported at the `extends`."""
    p = pnode.value[pname]
    rnode = p.value.get("rules") if isinstance(p.value, dict) else None
    own = list(rnode.value) if rnode is not None and isinstance(rnode.value, list) else []
    ext = p.value.get("extends") if isinstance(p.value, dict) else None
    if ext is None:
        return own
    base = str(ext.value)
    if base not in pnode.value:
        errs.add(error(ext.span, "E040", f"policy '{pname}': extends: no policy '{base}'",
                       hint=did_you_mean(base, [str(k) for k in pnode.value if k != pname])))
        return own
    chain, cur = [pname], base
    while cur in pnode.value:
        if cur in chain or cur in seen:
            errs.add(error(ext.span, "E021", f"policy '{pname}': extends: cycle " + " -> ".join((*chain, cur))))
            return own
        chain.append(cur)
        nxt = pnode.value[cur].value.get("extends") if isinstance(pnode.value[cur].value, dict) else None
        if nxt is None:
            break
        cur = str(nxt.value)
    named = {str(r.value["choice"].value) for r in own if isinstance(r.value, dict) and "choice" in r.value}
    inherited = policy_rules(pnode, base, Collector(), (*seen, pname))  # the base reports its own errors
    return own + [r for r in inherited if not (isinstance(r.value, dict) and "choice" in r.value
                                               and str(r.value["choice"].value) in named)]


def described(pnode: Node, pname: str, key: str, depth: int = 0) -> Node:
    """The policy whose `description`/`brief` a policy shows: its own, else its base's."""
    p: Node = pnode.value[pname]
    ext = p.value.get("extends") if isinstance(p.value, dict) else None
    if key in p.value or ext is None or str(ext.value) not in pnode.value or depth > len(pnode.value):
        return p
    return described(pnode, str(ext.value), key, depth + 1)


def playout_of(pnode: Node, pname: str, errs: Collector) -> str | None:
    """The policy a search bot based on `pname` plays in its playouts (its `playout`, else its
    base's; None: itself); a name that is no policy of the variant is reported at the key."""
    p = described(pnode, pname, "playout")
    node = p.value.get("playout") if isinstance(p.value, dict) else None
    if node is None:
        return None
    name = str(node.value)
    if name not in pnode.value:
        if p is pnode.value[pname]:  # reported once, at the policy that names it, not at each heir
            errs.add(error(node.span, "E040", f"policy '{pname}': playout: no policy '{name}'",
                           hint=did_you_mean(name, [str(k) for k in pnode.value])))
        return None
    return name

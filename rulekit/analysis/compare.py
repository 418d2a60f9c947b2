"""Rule differences (`diff`), provenance of one rule (`explain`), paired simulations (`--compare`)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from rulekit.engine.game import Game
from rulekit.engine.runner import make_agents, play, round_seed
from rulekit.core.errors import RulekitError, Span, did_you_mean, error
from rulekit.core.numbers import parse_int
from rulekit.lang.loader import Node, plain


def _items(node: Node | None) -> dict[str, Node]:
    """A list of items with ids (or a mapping) as {id: node}."""
    if node is None:
        return {}
    if isinstance(node.value, dict):
        return dict(node.value)
    return {str(i.value["id"].value): i for i in node.value
            if isinstance(i.value, dict) and "id" in i.value}


def _label(node: Node) -> str:
    v = node.value
    if isinstance(v, dict):
        names = v.get("names")
        if names is not None and isinstance(names.value, dict) and "en" in names.value:
            return str(names.value["en"].value)
        if "name" in v:
            return str(v["name"].value)
    return ""


def _text(node: Node) -> str:
    if isinstance(node.value, dict) and "description" in node.value:
        return str(node.value["description"].value)
    return ""


def option_source(game: Game, name: str) -> str:
    """Which layer set an option's value, in the order they apply: default < preset < house < -o."""
    src = "the default"
    if game.preset and name in game.variant.presets[game.preset].options:
        src = f"preset '{game.preset}'"
    if name in game.variant.house_options:
        src = "house rules " + ", ".join(str(h.options[name][1]) for h in game.variant.house if name in h.options)
    if game.extra.cli_options and name in game.extra.cli_options:
        src = "-o on the command line"
    return src


def _house_span(game: Game, node: Node | None) -> str:
    """' (file:line:col)' when a house-rule file wrote this node, else ''."""
    files = {h.file for h in game.variant.house}
    if node is not None and node.span.file in files:
        return f" (house rules {node.span})"
    return ""


def _house_removal(game: Game, table: str, yid: str) -> str:
    """Where a house-rule file removes yaku `yid` of `table` ('' if none does)."""
    for h in game.variant.house:
        y = h.overlay.value.get("yaku")
        items = y.value.get(table) if y is not None and isinstance(y.value, dict) else None
        for it in items.value if items is not None and isinstance(items.value, list) else []:
            d = it.value if isinstance(it.value, dict) else {}
            if "id" in d and str(d["id"].value) == yid and "remove" in d and d["remove"].value is True:
                return str(it.value["id"].span)
    return ""


def _shown(d: dict, k: str) -> str:
    return repr(d[k]) if k in d else "(not set)"


def moved(before: list[str], after: list[str]) -> dict[str, str]:
    """Items of both orders that changed place: {id: the id it now follows ('' for first)}.

    The items kept in place are a longest common subsequence of the two orders; the rest moved."""
    common = [i for i in before if i in set(after)]
    now = [i for i in after if i in set(before)]
    n, m = len(common), len(now)
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for x in range(n - 1, -1, -1):
        for y in range(m - 1, -1, -1):
            best[x][y] = best[x + 1][y + 1] + 1 if common[x] == now[y] else max(best[x + 1][y], best[x][y + 1])
    kept, x, y = set(), 0, 0
    while x < n and y < m:
        if common[x] == now[y]:
            kept.add(common[x])
            x, y = x + 1, y + 1
        elif best[x + 1][y] >= best[x][y + 1]:
            x += 1
        else:
            y += 1
    return {i: (after[after.index(i) - 1] if after.index(i) else "") for i in now if i not in kept}


def _where(ids: list[str], iid: str, nodes: dict[str, Node], verb: str = "played") -> str:
    """'played after 'X'' (or 'played first') for item `iid` of an order."""
    i = ids.index(iid)
    if i == 0:
        return f"{verb} first"
    prev = ids[i - 1]
    return f"{verb} after '{_label(nodes[prev]) or prev}'"


def _moved_line(kind: str, name: str, prev: str, label: str) -> str:
    return f"{kind} {name}: moved, now " + (f"after '{label or prev}'" if prev else "first")


def diff_games(a: Game, b: Game) -> list[str]:
    """Readable rule differences from game A to game B (variants, presets, house rules, options)."""
    out: list[str] = []
    ma, mb = a.variant.meta, b.variant.meta
    la = a.variant.meta.names.get("en", a.id)
    lb = b.variant.meta.names.get("en", b.id)
    pa_ = (ma.players_min, ma.players_max, ma.players_default)
    pb_ = (mb.players_min, mb.players_max, mb.players_default)
    if pa_ != pb_:
        out.append(f"players: {pa_[0]}-{pa_[1]} (usually {pa_[2]}) -> {pb_[0]}-{pb_[1]} (usually {pb_[2]})"
                   + _house_span(b, b.variant.tree.value.get("players")))
    if a.deck_name != b.deck_name or len(a.card_ids) != len(b.card_ids):
        out.append(f"deck: {a.deck_name} ({len(a.card_ids)} cards) -> {b.deck_name} ({len(b.card_ids)} cards)")
    da, db = set(a.variant.decks), set(b.variant.decks)
    if da != db:
        if db - da:
            out.append(f"decks allowed only in {lb}: {', '.join(sorted(db - da))}")
        if da - db:
            out.append(f"decks allowed only in {la}: {', '.join(sorted(da - db))}")
    oa, ob = a.variant.options, b.variant.options
    for k in sorted(set(oa) | set(ob)):
        if k not in ob:
            out.append(f"option {k}: only in {la}")
        elif k not in oa:
            out.append(f"option {k}: new in {lb} (default {ob[k].default}) — {ob[k].description}")
        elif a.options.get(k) != b.options.get(k):
            src = option_source(b, k)
            out.append(f"option {k}: {a.options.get(k)} -> {b.options.get(k)}"
                       + ("" if src == "the default" else f" ({src})"))
    pa = _items(a.variant.tree.value.get("round"))
    pb = _items(b.variant.tree.value.get("round"))
    moves = moved(list(pa), list(pb))
    for pid in list(pa) + [p for p in pb if p not in pa]:
        if pid in moves:
            prev = moves[pid]
            out.append(_moved_line("phase", f"'{_label(pb[pid]) or pid}'", prev, _label(pb[prev]) if prev else ""))
        if pid not in pb:
            out.append(f"phase '{_label(pa[pid]) or pid}': only in {la} ({_text(pa[pid]) or 'no description'})")
        elif pid not in pa:
            out.append(f"phase '{_label(pb[pid]) or pid}': new in {lb}, {_where(list(pb), pid, pb)}"
                       + (f" — {_text(pb[pid])}" if _text(pb[pid]) else ""))
        elif plain(pa[pid]) != plain(pb[pid]):
            desc = _text(pb[pid])
            out.append(f"phase '{_label(pb[pid]) or pid}': played differently" + (f" — {desc}" if desc else ""))
    ya = a.variant.tree.value.get("yaku")
    yb = b.variant.tree.value.get("yaku")
    ta = _items(ya) if ya is not None else {}
    tb = _items(yb) if yb is not None else {}
    for table in sorted(set(ta) | set(tb)):
        ia = _items(ta.get(table))
        ib = _items(tb.get(table))
        moves = moved(list(ia), list(ib))
        for yid in list(ia) + [y for y in ib if y not in ia]:
            label = _label(ib.get(yid) or ia[yid])
            name = f"{label} [{yid}]" if label else yid
            if yid in moves:
                prev = moves[yid]
                out.append(_moved_line("yaku", f"{name} ({table})", prev, _label(ib[prev]) if prev else ""))
            if yid not in ib:
                gone = _house_removal(b, table, yid)
                out.append(f"yaku {name} ({table}): removed (house rules {gone})" if gone
                           else f"yaku {name} ({table}): only in {la}")
            elif yid not in ia:
                ids = list(ib)
                where = "" if ids[-1] == yid else f", {_where(ids, yid, ib, 'listed')}"
                out.append(f"yaku {name} ({table}): new in {lb}{where} — {_text(ib[yid])}" + _house_span(b, ib[yid]))
            else:
                pa_, pb_ = plain(ia[yid]), plain(ib[yid])
                for key in ("value", "rank", "when", "claim", "group"):
                    if pa_.get(key) != pb_.get(key):
                        out.append(f"yaku {name} ({table}): {key} {pa_.get(key)!r} -> {pb_.get(key)!r}"
                                   + _house_span(b, ib[yid].value.get(key)))
    ga = plain(a.variant.tree.value["game"]) if "game" in a.variant.tree.value else {}
    gb = plain(b.variant.tree.value["game"]) if "game" in b.variant.tree.value else {}
    for k in sorted(set(ga) | set(gb)):
        if ga.get(k) != gb.get(k):
            out.append(f"game {k}: {_shown(ga, k)} -> {_shown(gb, k)}"
                       + _house_span(b, b.variant.tree.value["game"].value.get(k) if "game" in b.variant.tree.value
                                     else None))
    for h in b.variant.house:
        if h.note:
            out.append(f"note from {h.name}: {h.note}")
    return out


def explain(game: Game, path: str) -> list[str]:
    """The value of one rule (dotted path; list items by id) and the file and line that set it."""
    parts = [p for p in path.replace("/", ".").split(".") if p]
    node = game.variant.tree
    walked = []
    for p in parts:
        if isinstance(node.value, dict):
            nxt = node.value.get(p)
            cands = list(node.value)
        elif isinstance(node.value, list):
            items = _items(node)
            i = parse_int(p, signed=False)
            nxt = items.get(p) or (node.value[i] if i is not None and i < len(node.value) else None)
            cands = list(items)
        else:
            nxt, cands = None, []
        if nxt is None:
            where = ".".join(walked) or "the top level"
            raise RulekitError(error(Span(path, 1, len(".".join(walked)) + 1), "E040",
                                     f"no '{p}' under {where}", hint=did_you_mean(p, cands)
                                     or f"keys here: {', '.join(map(str, cands[:12]))}"))
        node = nxt
        walked.append(p)
    value = plain(node)
    out = [f"{path} = {value!r}" if not isinstance(value, (dict, list)) else f"{path}:",
           f"  set at {node.span}"]
    if isinstance(value, (dict, list)):
        import yaml
        out.insert(1, "  " + yaml.safe_dump(value, sort_keys=False, allow_unicode=True).rstrip().replace("\n", "\n  "))
    if len(parts) >= 2 and parts[0] == "options" and parts[1] in game.options:
        name = parts[1]
        out.append(f"  in effect: {name} = {game.options[name]!r} (from {option_source(game, name)})")
    return out


@dataclass
class Paired:
    """Per-seat paired differences (changed - base) over the same seeds, and outcome counts."""

    rounds: int = 0
    n: int = 0
    diff: list = field(default_factory=list)
    diff_sq: list = field(default_factory=list)
    base_mean: list = field(default_factory=list)
    records_a: dict = field(default_factory=dict)
    records_b: dict = field(default_factory=dict)


def seeded_rounds(game: Game, n: int, rounds: int, seed: int, policy: str = "random"):
    """Yield (chips won per seat, records) of rounds 0..rounds-1, each on its own seed, seat 0 dealing.

    Round i of any two rule sets gets the same seed and the same agents' seeds: the pairing
    that compare() and the website's house-rule effects rely on.
    """
    for i in range(rounds):
        s = round_seed(seed, i)
        r = play(game, n, s, make_agents(game, n, s, policy), rounds=1, logging=False, dealer=0)
        yield r.round_deltas[0], r.records


def compare(base: Game, changed: Game, n: int, rounds: int, seed: int, policy: str = "random") -> Paired:
    """Play both rule sets on the same seeds (same agents' seeds) and pair the results."""
    res = Paired(0, n, [0.0] * n, [0.0] * n, [0.0] * n)
    for (da, ra), (db, rb) in zip(seeded_rounds(base, n, rounds, seed, policy),
                                  seeded_rounds(changed, n, rounds, seed, policy)):
        res.rounds += 1
        for seat in range(n):
            d = float(db[seat] - da[seat])
            res.diff[seat] += d
            res.diff_sq[seat] += d * d
            res.base_mean[seat] += float(da[seat])
        for k, v in ra.items():
            res.records_a[k] = res.records_a.get(k, 0) + v
        for k, v in rb.items():
            res.records_b[k] = res.records_b.get(k, 0) + v
    return res


def compare_report(p: Paired) -> str:
    """Mean change per seat with a 95% interval, and outcome frequencies before and after."""
    if p.rounds <= 0:
        return "paired comparison: no rounds played (give --rounds 1 or more)"
    lines = [f"paired comparison over {p.rounds} seeded rounds (changed rules - base rules), seat 0 deals",
             f"{'seat':>5} {'base mean':>10} {'change':>10} {'95% interval':>24}"]
    for s in range(p.n):
        m = p.diff[s] / p.rounds
        var = (p.diff_sq[s] - p.rounds * m * m) / (p.rounds - 1) if p.rounds > 1 else 0.0
        ci = 1.96 * math.sqrt(max(0.0, var) / p.rounds)
        lines.append(f"{s:>5} {p.base_mean[s] / p.rounds:>10.4f} {m:>+10.4f}   [{m - ci:+.4f}, {m + ci:+.4f}]")
    keys = sorted(set(p.records_a) | set(p.records_b))
    if keys:
        lines.append("outcome frequencies (base -> changed):")
        for k in keys:
            fa = p.records_a.get(k, 0) / p.rounds
            fb = p.records_b.get(k, 0) / p.rounds
            lines.append(f"  {k:38} {fa:.5f} -> {fb:.5f}")
    return "\n".join(lines)

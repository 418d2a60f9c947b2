"""Stacked-deck helpers shared by the Hana-awase family tests (test_hana_awase, test_hiraya).

* ``deal_top`` turns the hands/table wanted into the order of the stock, following the
  dealing convention written in hana-awase.yaml (packets from the dealer's right).
* ``run_once`` is ``rulekit.engine.testing.run`` with the stack applied to the first deal only, so
  a misdeal is followed by a normal (seeded) shuffle instead of the same stacked deal.
* ``final_zones`` / ``zones_at`` rebuild where every card is from the logged move events.
* ``expected_round`` recomputes a round's settlement in Python from the capture piles, using
  the variant's own yaku table, to check the YAML's scoring steps against the formula.
"""
from __future__ import annotations

from collections import defaultdict
from functools import cache
from typing import Any

from rulekit.engine.runner import play
from rulekit.lang.expr.scope import EVAL_BUDGET
from rulekit.engine.testing import Outcome, Script, game as _game

HANA = "hanafuda/hana-awase.yaml"
HIRAYA = "hanafuda/hiraya.yaml"
ALL_IDS = [f"{m}-{k}" for m in range(1, 13) for k in range(1, 5)]
LIGHTNING = "11-4"


@cache
def _cached(rel: str, opts: tuple, preset: str | None):
    return _game(rel, dict(opts), preset=preset)


def cached_game(rel: str, opts: dict | None = None, preset: str | None = None):
    """A compiled variant, built once per option set (games hold no per-play state)."""
    return _cached(rel, tuple(sorted((opts or {}).items())), preset)


def hand_size(n: int, ten: bool = False) -> int:
    return {2: 10 if ten else 8, 3: 7, 4: 5}[n]


def field_size(n: int) -> int:
    return 6 if n == 3 else 8


def deal_top(hands: dict[int, list[str]], field: list[str], pile: list[str] = (), dealer: int = 0,
             n: int = 3, ten: bool = False) -> list[str]:
    """The stock order (first = top) that deals `hands` (seat -> ids, in hand order) and `field`."""
    hs, fs = hand_size(n, ten), field_size(n)
    for q in range(n):
        assert len(hands[q]) == hs, f"seat {q}: {len(hands[q])} cards, {hs} needed"
    assert len(field) == fs
    top: list[str] = []
    if n == 2:
        a, f = hs // 2, fs // 2
        opp = (dealer + 1) % 2
        top += hands[opp][:a] + field[:f] + hands[dealer][:a]
        top += hands[opp][a:] + field[f:] + hands[dealer][a:]
    else:
        order = [(dealer + i) % n for i in range(1, n + 1)]
        first = hs - hs // 2
        for q in order:
            top += hands[q][:first]
        top += field[: fs // 2]
        for q in order:
            top += hands[q][first:]
        top += field[fs // 2:]
    top += list(pile)
    assert len(set(top)) == len(top), "a card is named twice"
    return top


def complete(top: list[str]) -> list[str]:
    """`top` followed by every other card, in id order (a fully determined deck)."""
    return list(top) + [c for c in ALL_IDS if c not in top]


class OnceStack(dict):
    """A stack that applies to the first shuffle only (later redeals shuffle normally)."""

    def __init__(self, zone: str, top: list[str]):
        super().__init__({zone: list(top)})
        self.used: set[str] = set()

    def __getitem__(self, key):
        if key in self.used:
            return []
        self.used.add(key)
        return super().__getitem__(key)


def run_once(g, players: int, top: list[str], by_choice: dict | None = None, moves: list | None = None,
             dealer: int = 0, seed: int = 1, rounds: int | None = 1, checks=None) -> Outcome:
    script = Script(moves or [], by_choice)
    res = play(g, players, seed, [script] * players, rounds=rounds, logging=True, dealer=dealer,
               stack=OnceStack("deck", top), checks=checks)
    return Outcome(res, script, g)


def _zones(events: list[dict], stop=None) -> dict[str, list[str]]:
    where: dict[str, str] = {}
    for e in events:
        if stop is not None and stop(e):
            break
        if e["t"] == "round":
            where = {c: "deck" for c in ALL_IDS}
        elif e["t"] == "move":
            for c in e["cards"]:
                where[c] = e["to"]
    out: dict[str, list[str]] = defaultdict(list)
    for c, z in where.items():
        out[z].append(c)
    return out


def final_zones(out: Outcome) -> dict[str, list[str]]:
    """Zone name ('captures[1]', 'field', 'deck', ...) -> cards, at the end of the last round."""
    return _zones(out.result.events)


def zones_at(out: Outcome, phase: str) -> dict[str, list[str]]:
    """Zones when the (last attempt of the) first round reached phase `phase`."""
    events = out.result.events
    last = max(i for i, e in enumerate(events) if e["t"] == "phase" and e["id"] == phase)
    return _zones(events[:last])


def captures(out: Outcome, n: int) -> list[list[str]]:
    z = final_zones(out)
    return [sorted(z.get(f"captures[{s}]", [])) for s in range(n)]


def yaku_of(g, table: str, cards: list[str], seat: int = 0, n: int = 3) -> dict[str, Any]:
    """Yaku id -> value the variant's table gives these cards."""
    ctx = g.new_ctx(n, 0, None)
    ctx.budget = EVAL_BUDGET  # a played round sets this at its start
    idx = g.card_index
    return {y.id: y.value for y in ctx.yaku_eval(table, [idx[c] for c in cards], seat)}


def card_points(g, cards: list[str], chaff: int) -> int:
    by_id = {c.id: c for c in g.deck.cards}
    return sum(chaff if by_id[c].attrs["type"] == "chaff" else by_id[c].attrs["points"] for c in cards)


def expected_round(g, caps: list[list[str]], chaff: int, zero_sum: bool = True) -> tuple[list[int], list[int]]:
    """(scores, card points) by the written formula: (points - par) + (N-1) * own yaku - others' yaku."""
    n = len(caps)
    pts = [card_points(g, c, chaff) for c in caps]
    yk = [sum(yaku_of(g, "dekiyaku", c, s, n).values()) for s, c in enumerate(caps)]
    par = (240 + 24 * chaff) // n
    if zero_sum:
        return [pts[s] - par + yk[s] * (n - 1) - (sum(yk) - yk[s]) for s in range(n)], pts
    return [pts[s] + yk[s] for s in range(n)], pts


def pays(out: Outcome, why: str | None = None) -> list[dict]:
    return [e for e in out.events("pay") if why is None or e.get("why") == why]


def moves_to(out: Outcome, zone: str) -> list[list[str]]:
    return [e["cards"] for e in out.events("move") if e["to"] == zone]

"""One example hand per yaku, found by the engine from the yaku's own condition.

Seeded rounds are played by random players and every yaku evaluation is watched: the first
hands that make a yaku are kept, each cut down (keeping the card order) to the fewest cards
that still make it, but never below the smallest hand the game evaluated for that table. A
yaku no simulated round produced is searched for in seeded random hands of the sizes seen for
its table, drawn mostly from the cards its condition can use. Value and rank are those the
engine computes for that hand under the default options. Results are cached on disk like the
statistics, keyed by the rules, the decks, the engine and this file.
"""
from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from typing import Any, Callable

from rulekit.engine.game import Game
from rulekit.engine.runner import run_chunk
from rulekit.website.stats import cache_digest, engine_files
from rulekit.website.yakucards import candidate_cards

ROUNDS = 300
SEARCH_TRIES = 40000  # rare two-card yaku that need one seat (1 in ~5,000 random tries) are still found
KEEP = 3  # candidate hands kept per yaku
VERSION = "1"


@dataclass(frozen=True)
class Example:
    """A hand that makes a yaku: its cards in the order evaluated, the seat, value and rank."""

    cards: tuple[str, ...]
    seat: int
    value: Any
    rank: Any
    found: str  # "play" (a simulated round) or "search"


def _shrink(evaluate: Callable, table: str, cards: list[int], seat: int, yid: str) -> list[int]:
    """The cards without every card the yaku does not need (greedy, order kept)."""
    cur = list(cards)
    changed = True
    while changed and len(cur) > 1:
        changed = False
        for i in range(len(cur)):
            trial = cur[:i] + cur[i + 1:]
            try:
                ok = any(hh.id == yid for hh in evaluate(table, trial, seat))
            except Exception:  # noqa: BLE001 - a condition that needs more cards
                ok = False
            if ok:
                cur, changed = trial, True
                break
    return cur


class _Watcher:
    """Wraps a state's yaku evaluator and keeps candidate hands for each yaku."""

    def __init__(self):
        self.ctx = None
        self.inner: Callable | None = None
        self.sizes: dict[str, set[int]] = {}
        self.cands: dict[tuple[str, str], list[tuple[list[int], list[int], int]]] = {}

    def hook(self, ctx, *_args) -> None:
        if self.ctx is ctx and getattr(ctx.yaku_eval, "_watched", False):
            return
        self.ctx = ctx
        inner = ctx.yaku_eval
        self.inner = inner

        def watched(table, cards, seat):
            hits = inner(table, cards, seat)
            cl = list(cards)
            self.sizes.setdefault(table, set()).add(len(cl))
            for hit in hits:
                got = self.cands.setdefault((table, hit.id), [])
                if len(got) < KEEP:
                    got.append((cl, _shrink(inner, table, cl, seat, hit.id), seat))
            return hits
        watched._watched = True  # type: ignore[attr-defined]
        ctx.yaku_eval = watched


def _fits(size: int, seen: set[int] | None) -> bool:
    """Whether a cut-down hand has a size the game evaluates for its table: one of the sizes seen,
    or any size when the table is read on collections that grow (captures: many sizes seen)."""
    if not seen:
        return True
    return size in seen or max(seen) - min(seen) > 4


def _hit(evaluate: Callable, table: str, cards: list[int], seat: int, yid: str):
    try:
        return next((x for x in evaluate(table, cards, seat) if x.id == yid), None)
    except Exception:  # noqa: BLE001
        return None


def _num(x: Any) -> Any:
    return x if isinstance(x, (int, str, bool)) or x is None else str(x)


def conditions(game: Game) -> dict[tuple[str, str], str]:
    """Each yaku's `when` text, as written in the rules file: (table, yaku id) -> text."""
    from rulekit.lang.loader import plain
    out = {}
    for table, entries in (plain(game.variant.tree).get("yaku") or {}).items():
        for e in entries or []:
            if isinstance(e, dict) and isinstance(e.get("when"), str):
                out[(str(table), str(e.get("id")))] = e["when"]
    return out


def find_examples(game: Game, n: int, rounds: int = ROUNDS, seed: int = 1) -> dict[tuple[str, str], Example]:
    """An example hand for every yaku the engine can find one for: (table, yaku id) -> Example."""
    w = _Watcher()
    calls = game.yaku_calls
    if calls is not None:  # generated expressions' yaku calls go through the yaku_eval it wraps
        calls.through_eval = True
    try:
        run_chunk(game, n, seed, 0, rounds, "random", checks=w.hook)
    except Exception:  # noqa: BLE001 - a game that cannot be simulated still gets searched examples
        pass
    finally:
        if calls is not None:
            calls.through_eval = False
            game.bind_yaku()
    out: dict[tuple[str, str], Example] = {}
    if w.ctx is None:
        try:
            from rulekit.engine.runner import decider
            w.ctx = game.new_ctx(n, seed, decider(game, [], []))
            game.reset_round(w.ctx)
            w.inner = w.ctx.yaku_eval
        except Exception:  # noqa: BLE001
            return out
    ev = w.inner
    ids = game.card_ids
    for table, entries in game.yaku.items():
        for y in entries:
            best = None
            for raw, small, seat in w.cands.get((table, y.id), []):
                pick = small if _fits(len(small), w.sizes.get(table)) else raw
                hit = _hit(ev, table, pick, seat, y.id)
                if hit is None:
                    pick, hit = raw, _hit(ev, table, raw, seat, y.id)
                if hit is not None and (best is None or len(pick) < len(best[0])):
                    best = (pick, seat, hit)
            if best is not None:
                cards, seat, hit = best
                out[(table, y.id)] = Example(tuple(ids[c] for c in cards), seat, _num(hit.value), _num(hit.rank),
                                             "play")
    missing = [(t, y) for t, ys in game.yaku.items() for y in ys if (t, y.id) not in out]
    if missing:
        rng = random.Random(seed)
        deck = list(game.in_play(n))
        live = set(deck)
        conds = conditions(game)
        for table, y in missing:
            sizes = sorted(w.sizes.get(table) or range(1, 9))
            pool = candidate_cards(conds.get((table, y.id)), game.deck, game.options)
            pool = [c for c in pool if c in live] if pool else pool
            for _ in range(SEARCH_TRIES):
                k = min(rng.choice(sizes), len(deck))
                if pool and rng.random() < 0.7:
                    src = pool if len(pool) >= k else deck
                    cards = rng.sample(src, k)
                else:
                    cards = rng.sample(deck, k)
                seat = rng.randrange(n)
                hit = _hit(ev, table, cards, seat, y.id)
                if hit is not None:
                    small = _shrink(ev, table, cards, seat, y.id)
                    if _fits(len(small), w.sizes.get(table)):
                        cards = small
                        hit = _hit(ev, table, cards, seat, y.id) or hit
                    out[(table, y.id)] = Example(tuple(ids[c] for c in cards), seat, _num(hit.value),
                                                 _num(hit.rank), "search")
                    break
    return out


def well_formed(data: Any, game: Game) -> bool:
    """Whether cached examples have the shape cached_examples writes: this game's yaku and cards, a seat,
    plain numbers or words for value and rank."""
    yaku = {(t, y.id) for t, ys in game.yaku.items() for y in ys}
    cards = {c.id for c in game.deck.cards}
    scalar = (int, float, str, type(None))
    return isinstance(data, list) and all(
        isinstance(d, dict) and (d.get("table"), d.get("yaku")) in yaku and isinstance(d.get("cards"), list)
        and all(isinstance(c, str) and c in cards for c in d["cards"]) and isinstance(d.get("seat"), int)
        and d.get("found") in ("play", "search") and isinstance(d.get("value"), scalar)
        and isinstance(d.get("rank"), scalar) for d in data)


def cached_examples(game: Game, files: tuple[str, ...], n: int, cache_dir: str | None) -> dict[tuple[str, str], Example]:
    """find_examples, remembered in `cache_dir` (None: no cache) under a key of everything it reads."""
    key = cache_digest(list(files) + engine_files() + [os.path.abspath(__file__)],
                  json.dumps(["yaku-examples", VERSION, n, ROUNDS, game.deck_name, sorted(game.options.items(),
                                                                                      key=str)], default=str))
    path = os.path.join(cache_dir, f"yaku-{key}.json") if cache_dir else None
    if path and os.path.isfile(path):
        try:
            with open(path, encoding="utf-8") as fh:
                data = json.load(fh)
            if well_formed(data, game):  # JSON only, checked: a damaged or foreign file is searched again
                return {(d["table"], d["yaku"]): Example(tuple(d["cards"]), d["seat"], d["value"], d["rank"],
                                                         d["found"]) for d in data}
        except (OSError, ValueError, KeyError):
            pass
    found = find_examples(game, n)
    if path:
        os.makedirs(cache_dir, exist_ok=True)
        data = [{"table": t, "yaku": y, "cards": list(e.cards), "seat": e.seat, "value": e.value, "rank": e.rank,
                 "found": e.found} for (t, y), e in sorted(found.items())]
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(data, fh, sort_keys=True)
        os.replace(tmp, path)
    return found


__all__ = ["Example", "find_examples", "cached_examples", "well_formed"]

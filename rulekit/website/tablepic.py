"""Pictures of the table for the worked example: where every card lies at the end of each stage.

The example round is played once more with the same seed and players; at each phase boundary the
zones are copied (the game's round observer hands over the live state). A picture is drawn from
the zones alone, so it fits every game: one row per zone with cards in it, labelled as players
name it, a per-player zone as one row per seat, and a big pile (the stock) as its count.
"""
from __future__ import annotations

from typing import Any, Callable

from rulekit.engine.game import Game
from rulekit.engine.runner import GameResult, make_agents, play
from rulekit.website.util import h, legend_for

PILE = 12  # a zone of more cards than this that belongs to nobody is drawn as a pile with its count


class _Watch:
    """Stands in for the game's round observer to get hold of the round's state."""

    def __init__(self):
        self.ctx: Any = None

    def reset(self) -> None:
        pass

    def start(self, ctx: Any) -> None:
        self.ctx = ctx

    def end(self, ctx: Any) -> None:
        pass

    def take(self) -> None:
        return None


def _copy(ctx: Any, game: Game) -> dict[str, Any]:
    return {z: [list(p) for p in ctx.zones[z]] if game.variant.zones[z].kind != "single" else list(ctx.zones[z])
            for z in game.variant.zones if z in ctx.zones}


def play_with_snapshots(game: Game, n: int, seed: int, policy: str) -> tuple[GameResult, dict[int, dict[str, Any]]]:
    """One round as the example plays it, and the zones at the end of each phase (k-th phase event, from 1)."""
    watch = _Watch()
    snaps: dict[int, dict[str, Any]] = {}
    k = [0]

    def observe(e: dict) -> None:
        if e.get("t") in ("phase", "end_round") and watch.ctx is not None and k[0]:
            snaps[k[0]] = _copy(watch.ctx, game)
        if e.get("t") == "phase":
            k[0] += 1

    old = game.observer
    game.observer = watch
    try:
        res = play(game, n, seed, make_agents(game, n, seed, policy), rounds=1, logging=True, observe=observe)
    finally:
        game.observer = old
    if k[0] and k[0] not in snaps and watch.ctx is not None:
        snaps[k[0]] = _copy(watch.ctx, game)
    return res, snaps


def _label(name: str) -> str:
    s = str(name).replace("_", " ").replace("-", " ").strip()
    return s[:1].upper() + s[1:]


def table_picture(game: Game, snap: dict[str, Any], img: Callable[[int], str], caption: str) -> str:
    """The table as HTML: a row per zone (a row per seat or pile for per-player and counted zones)."""
    rows = []
    zones = game.variant.zones
    for name, z in zones.items():
        if name not in snap or (z.part_of and z.part_of in snap):
            continue  # a part is drawn in the pile it belongs to
        label = z.label or _label(name)
        label = label[:1].upper() + label[1:]
        piles = [(label, list(snap[name]))] if z.kind == "single" else \
            [(f"{label}, seat {i}" if z.kind == "player" else f"{label} {i + 1}", list(p))
             for i, p in enumerate(snap[name])]
        if z.kind == "count":
            for part, pz in zones.items():
                if pz.part_of == name and part in snap:
                    for i, extra in enumerate(snap[part][:len(piles)]):
                        piles[i][1].extend(extra)
        for text, cards in piles:
            if not cards:
                continue
            if z.kind == "single" and len(cards) > PILE:
                body = f'<span class="rk-pile">{len(cards)} cards</span>'
            else:
                body = "".join(img(c) for c in cards)
            # the cards' legend shows on a tap or keyboard focus of the row's cards, not only on hover
            focus = f' tabindex="0" role="group" aria-label="{h(text)}"' if "<img" in body else ""
            rows.append(f'<div class="rk-table-row"><span class="rk-table-label">{h(text)}</span>'
                        f'<span class="rk-table-cards"{focus}>{body}{legend_for(body)}</span></div>')
    if not rows:
        return ""
    return (f'<figure class="rk-tablepic"><figcaption>{h(caption)}</figcaption>{"".join(rows)}</figure>')

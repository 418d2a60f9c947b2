"""The draw before the first round: one card per player sets the first dealer and the seats."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from rulekit.core.errors import RuleError, Span, error

MAX_REDRAWS = 10_000  # with 7 players every key differs in about 1 draw in 18


@dataclass(frozen=True)
class SeatDraw:
    """`game.draw`: each player draws a card; `key` orders the cards (`c` is the drawn card).

    `deals` is 'lowest' or 'highest' (which end of the order deals); `seating` is 'by_draw'
    (the others sit anticlockwise from the dealer's right in draw order: the next key to the
    dealer's right, the last one to the dealer's left) or 'dealer_only' (seats stay, only the
    dealer is drawn); `ties` is 'redraw' (a tie that matters sends everyone back to draw).
    """

    key: Callable[..., Any]
    deals: str
    seating: str
    ties: str
    span: Span


def draw_for_seats(game: Any, ctx: Any, spec: SeatDraw) -> tuple[int, list[int]]:
    """Play the draw on `ctx` (seeded by its generator, logged); return (dealer seat, seating).

    `seating[s]` is the player who sits at seat s; with seating by_draw the dealer sits at seat 0.
    """
    n = ctx.n
    cards = list(game.in_play(n))
    ids = game.card_ids
    for _attempt in range(MAX_REDRAWS):
        ctx.rng.shuffle(cards)
        drawn = cards[:n]
        keys = []
        for c in drawn:
            ctx.loc["c"] = c
            keys.append(spec.key(ctx))
        ctx.loc.pop("c", None)
        order = sorted(range(n), key=lambda p: keys[p], reverse=spec.deals == "highest")
        best = keys[order[0]]
        tied = len(set(keys)) < n if spec.seating == "by_draw" else keys.count(best) > 1
        ctx.log({"t": "draw", "cards": [ids[c] for c in drawn], "keys": keys, "tie": tied})
        if tied:
            continue
        if spec.seating == "by_draw":
            seating = list(order)
            ctx.log({"t": "seating", "players": seating, "dealer": 0})
            return 0, seating
        ctx.log({"t": "seating", "players": list(range(n)), "dealer": order[0]})
        return order[0], list(range(n))
    raise RuleError(error(spec.span, "E061", f"more than {MAX_REDRAWS} tied draws in a row: "
                          "the draw's key gives too many equal cards"))

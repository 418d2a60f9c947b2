"""The yaku on the table at a decision: those each seat's open pile makes, and those one card short.

A variant names the pile and the yaku table with `display.reach: {zone, yaku}`. Everything here
is worked out from what every player sees: the open piles, and the deck's make-up (a card in
nobody's pile may still be captured, wherever it lies now). No hidden card is read.
"""
from __future__ import annotations

from typing import Any, Callable

from rulekit.lang.expr.functions import new_yaku
from rulekit.people.words import human_words, join_words

#: one card short of a yaku with more cards than this that would make it: said by their number
MANY = 3


def reach_lines(game: Any, ctx: Any, seat: int | None, card_text: Callable[[str], str]) -> list[str]:
    """'Yaku made so far: seat 2, <yaku>.' and a line for each seat one card from a yaku ('Seat 1
    is one card from <yaku>: <card>.'), you first; [] when the variant asks for none."""
    spec = game.extra.display.reach
    if not spec or ctx is None or getattr(ctx, "yaku_eval", None) is None:
        return []
    zone, table = spec
    piles = ctx.zones.get(zone)
    if not isinstance(piles, list):
        return []
    names = {y.id: y.names.get("en") or human_words(y.id) for y in game.yaku.get(table, [])}
    taken = {c for pile in piles for c in pile}
    pool = [c for c in game.in_play(len(piles)) if c not in taken]  # cards out of play at this size never come
    order = ([seat] if seat is not None else []) + [s for s in range(len(piles)) if s != seat]
    # the cards you hold yourself (your own hidden places): a card another seat needs, said so
    held: set[int] = set()
    for zname, zd in game.variant.zones.items():
        if seat is not None and zd.kind == "player" and zd.visibility != "public":
            held |= set(ctx.zones.get(zname, [[]] * (seat + 1))[seat])
    made: list[str] = []
    short: list[str] = []
    for s in order:
        who = "you" if s == seat else f"seat {s}"
        pile = list(piles[s])
        have = {h.id for h in ctx.yaku_eval(table, pile, s)}
        if have:
            made.append(f"{who}, {join_words([names.get(y, y) for y in sorted(have, key=list(names).index)])}")
        near: dict[str, list[int]] = {}
        for c in pool:
            for y in new_yaku(ctx.yaku_eval, table, pile, c, s):  # the same test policies use
                near.setdefault(y, []).append(c)
        parts = []
        for y in sorted(near, key=list(names).index):
            said = [card_text(game.card_ids[c]) + (", which you hold" if c in held and s != seat else "")
                    for c in near[y]]
            need = (said[0] if len(said) == 1 else ", ".join(said[:-1]) + " or " + said[-1]) if len(said) <= MANY \
                else f"any of {len(said)} cards"
            parts.append(f"from {names.get(y, y)}: {need}")
        if parts:
            verb = "are" if s == seat else "is"
            short.append(f"{who[:1].upper() + who[1:]} {verb} one card " + "; ".join(parts) + ".")
    return (["Yaku made so far: " + "; ".join(made) + "."] if made else []) + short

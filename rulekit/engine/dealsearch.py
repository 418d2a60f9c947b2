"""A deal a seat cannot tell from the real one, found by repair where random re-deals rarely agree.

Late in a round the moves say much about the hidden cards: a player who was asked had a card
that fits, a turn that ended by itself had none, a play put down cards its player held. Few
random re-deals then agree with every move (late in a climbing game's round, often none in
hundreds). A replayed deal that disagrees does so first at some decision: up to there it
agreed. `repair` walks from a random re-deal by swapping two unseen cards, one of them mostly
one the first disagreement points at - a card the seat would have seen in another place, a
card that gave a seat a decision it did not have in the real round, else the hidden cards of
the seat whose move was not legal - keeping a swap unless the first disagreement comes earlier
(now and then even so). After RESTART swaps without progress it goes back to the deal that
went furthest (or, one time in 1/FRESH, a fresh one); it stops at a deal that agrees with every
move and with what the seat sees at the end.

It knows nothing of any game: a disagreement is a move that is not legal in the re-deal, a
decision taken by another seat or on another choice than in the real round, or a view of the
seat's that differs at a decision or at the end. The deals it finds agree with everything the
seat knows but are not drawn evenly among such deals (rejection, tried first by
Stepper.sample, is).
"""
from __future__ import annotations

import random
from typing import Any

__all__ = ["repair", "TARGET", "WORSE", "RESTART", "FRESH"]

TARGET = 0.9   # share of swaps that take one card from the pile of the player whose move failed first
WORSE = 0.05   # chance to keep a swap that makes the first disagreement come earlier
RESTART = 25   # swaps without progress before the walk goes back to the deal that went furthest
FRESH = 0.3    # chance that it starts from a fresh re-deal instead


def _piles(source: Any, seat: int) -> list[tuple[int | None, list[int]]]:
    """(owner seat or None, hidden cards) of each pile with cards `seat` cannot see."""
    g, ctx = source.game, source.ctx
    out = []
    for zname, z in g.variant.zones.items():
        piles = [ctx.zones[zname]] if z.kind == "single" else ctx.zones[zname]
        for i, pile in enumerate(piles):
            idx = None if z.kind == "single" else i
            hidden = [c for c in pile if not g.visible(ctx, seat, zname, idx, c)]
            if hidden:
                out.append((i if z.kind == "player" else None, hidden))
    return out


def _view(game: Any, ctx: Any, seat: int) -> list[Any]:
    """What `seat` sees of the zones, pile by pile (a card where it sees one, else None)."""
    out = []
    for zname, z in game.variant.zones.items():
        piles = [ctx.zones[zname]] if z.kind == "single" else ctx.zones[zname]
        for i, pile in enumerate(piles):
            idx = None if z.kind == "single" else i
            out.append([c if game.visible(ctx, seat, zname, idx, c) else None for c in pile])
    return out


def _odd_cards(real: list[Any], other: list[Any]) -> set[int]:
    """The cards seen in one view where the other does not show them (both views of one seat)."""
    odd: set[int] = set()
    for a, b in zip(real, other):
        if a == b:
            continue
        if len(a) != len(b):
            odd.update(c for c in a + b if c is not None)
        else:
            odd.update(c for x, y in zip(a, b) if x != y for c in (x, y) if c is not None)
    return odd


def _cards(d: Any) -> set[int]:
    """Every card named in a decision's legal actions."""
    out: set[int] = set()

    def walk(v: Any, t: str) -> None:
        if t == "card":
            out.add(v)
        elif t.startswith("list<"):
            for x in v:
                walk(x, t[5:-1])
    for a in d.actions:
        for v, t in zip(a, d.choice.types):
            walk(v, t)
    return out


def repair(source: Any, seat: int, rng: random.Random, tries: int,
           inconsistent: type[Exception]) -> tuple[Any, list[int], int]:
    """(a Stepper re-dealt from `source` (a Stepper) that `seat` cannot tell from it, or None if
    none was found in `tries` replays of the round; the deal: the card dealt to each unseen slot,
    pile by pile as Stepper.unseen_piles lists them; the replays made). `inconsistent` is the
    exception a replay stops with (stepper.Inconsistent)."""
    snap = source._snap
    if snap is None or tries < 2:
        return None, [], 0
    game = source.game
    values = source.values[snap["moves"]:]
    mine = source._public(seat)
    # the real round decision by decision: who decided on which choice, what the seat saw then
    seen: list[tuple[int, str]] = []
    views: list[list[Any]] = []

    def record(d: Any) -> None:
        seen.append((d.player, d.choice.id))
        views.append(_view(game, d.ctx, seat))
    source._restart(list(values), source.relabel, None, record)
    end_view = _view(game, source.ctx, seat)
    piles = _piles(source, seat)
    back = list(range(len(game.card_ids)))
    for a, b in enumerate(source.relabel or ()):
        back[b] = a  # a sample's cards traced back to the round's own shuffle
    unseen = [back[c] for _owner, pile in piles for c in pile]
    slots: list[list[int]] = []
    owner_slots: dict[int, list[int]] = {}
    at = 0
    for owner, pile in piles:
        slots.append(list(range(at, at + len(pile))))
        if owner is not None:
            owner_slots.setdefault(owner, []).extend(slots[-1])
        at += len(pile)
    if len(unseen) < 2:
        return None, [], 1

    def attempt(perm: list[int]) -> tuple[Any, int, list[int]]:
        """The re-deal `perm` (the card dealt to each slot) replayed: the Stepper if `seat` cannot
        tell it from the real one, how many decisions agreed, and the slots to blame for the
        first disagreement (where the cards lie that the seat saw in other places, else the
        hidden cards of the seats that decided differently)."""
        slot_of = {c: k for k, c in enumerate(perm)}
        depth = [0]
        blame: list[int] = []

        def blame_view(real: list[Any], other: list[Any]) -> bool:
            blame.extend(slot_of[c] for c in _odd_cards(real, other) if c in slot_of)
            return real != other

        def look(d: Any) -> None:
            k = depth[0]
            odd = blame_view(views[k], _view(game, d.ctx, seat)) if k < len(views) else True
            if k >= len(seen) or seen[k] != (d.player, d.choice.id) or odd:
                if not blame:  # a seat asked that was not: the cards that gave it something to do
                    blame.extend(slot_of[c] for c in _cards(d) if c in slot_of)
                if not blame:
                    for p in {d.player, seen[k][0] if k < len(seen) else d.player}:
                        blame.extend(owner_slots.get(p, ()))
                raise inconsistent("the re-deal parts from the real round here")
            depth[0] += 1
        relabel = list(range(len(game.card_ids)))
        for a, b in zip(unseen, perm):
            relabel[a] = b
        try:
            other = source._restart(values, relabel, None, look)
        except inconsistent:
            if not blame:  # a move not legal here: its player's hidden cards
                k = min(depth[0], len(seen)) - 1 if depth[0] >= len(seen) else depth[0]
                blame.extend(owner_slots.get(seen[k][0], ()) if seen else ())
            return None, depth[0], blame
        if other._public(seat) != mine:
            blame_view(end_view, _view(game, other.ctx, seat))
            if not blame:
                nxt = [None if x.pending is None else x.pending.player for x in (other, source)]
                for p in (seen[-1][0] if seen else None, *nxt):
                    blame.extend(owner_slots.get(p, ()) if p is not None else ())
            return None, depth[0] + 1, blame
        other.relabel = relabel
        return other, depth[0] + 1, blame

    perm = sorted(unseen)
    rng.shuffle(perm)
    other, depth, blame = attempt(perm)
    best = (depth, perm, blame)
    stale, used = 0, 2  # the real round's replay, and this one
    while used < tries:
        if other is not None:
            return other, perm, used
        if stale >= RESTART:  # stuck: back to the deal that went furthest, or a fresh one
            stale = 0
            if rng.random() < FRESH:
                perm = sorted(unseen)
                rng.shuffle(perm)
                other, depth, blame = attempt(perm)
                used += 1
                continue
            depth, perm, blame = best
            continue
        if True:
            if blame and rng.random() < TARGET:
                i = rng.choice(blame)
            else:
                i = rng.choice(rng.choice(slots))
            j = rng.randrange(len(perm) - 1)
            j += j >= i
            if perm[i] == perm[j]:
                continue
            new = list(perm)
            new[i], new[j] = new[j], new[i]
        got, d, b = attempt(new)
        used += 1
        if got is not None or d >= depth or rng.random() < WORSE:
            stale = 0 if (got is not None or d > depth) else stale + 1
            perm, other, depth, blame = new, got, d, b
            if d > best[0]:
                best = (d, perm, blame)
        else:
            stale += 1
    return other, perm, used

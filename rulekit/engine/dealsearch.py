"""A deal a seat cannot tell from the real one, found by repair where random re-deals rarely agree.

Late in a round the moves say much about the hidden cards: a player who was asked had a card
that fits, a turn that ended by itself had none, a play put down cards its player held. Few
random re-deals then agree with every move (in a Kakkuri round, often none in hundreds). A
replayed deal that disagrees does so at a first move: up to there it agreed. `repair` walks
from a random re-deal by swapping two unseen cards, one of them mostly from the hidden pile of
the player whose move failed first (that pile is what the failing move is about), keeping a
swap unless it makes the first disagreement come earlier (and now and then even so, so that the
walk does not stay stuck), until a deal agrees with every move and with what the seat sees.

It knows nothing of any game: a disagreement is a move that is not legal in the re-deal, a
decision taken by another seat or on another choice than in the real round, or what the seat
sees at the end. The deals it finds agree with everything the seat knows, but are not drawn
evenly among such deals (rejection, tried first by Stepper.sample, is).
"""
from __future__ import annotations

import random
from typing import Any

__all__ = ["repair", "TARGET", "WORSE", "RESTART"]

TARGET = 0.8   # share of swaps that take one card from the pile of the player whose move failed first
WORSE = 0.05   # chance to keep a swap that makes the first disagreement come earlier
RESTART = 25   # swaps without progress before the walk starts again from a fresh re-deal


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


def repair(source: Any, seat: int, rng: random.Random, tries: int,
           inconsistent: type[Exception]) -> tuple[Any, list[int]] | None:
    """(a Stepper re-dealt from `source` (a Stepper) that `seat` cannot tell from it, the deal:
    the card dealt to each unseen slot, pile by pile as Stepper.unseen_piles lists them), found
    in at most `tries` replays of the round; None if none was found. `inconsistent` is the
    exception a replay stops with (stepper.Inconsistent)."""
    snap = source._snap
    if snap is None or tries < 1:
        return None
    values = source.values[snap["moves"]:]
    mine = source._public(seat)
    # who decided each move of the round, on which choice: a re-deal must agree move by move
    seen: list[tuple[int, str]] = []
    source._restart(list(values), source.relabel, lambda d, i: seen.append((d.player, d.choice.id)))
    piles = _piles(source, seat)
    back = list(range(len(source.game.card_ids)))
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
        return None

    def attempt(perm: list[int]) -> tuple[Any, int, set]:
        """The re-deal `perm` (the card dealt to each slot) replayed: the Stepper if `seat` cannot
        tell it from the real one, how many moves agreed, and the seats to blame for the first
        disagreement (the one that should have decided and the one that did)."""
        depth, blame = [0], set()

        def judge(d: Any, i: int) -> None:
            if depth[0] >= len(seen) or seen[depth[0]] != (d.player, d.choice.id):
                blame.add(d.player)
                raise inconsistent("another seat or choice decides here than in the real round")
            depth[0] += 1
        relabel = list(range(len(source.game.card_ids)))
        for a, b in zip(unseen, perm):
            relabel[a] = b
        try:
            other = source._restart(values, relabel, judge)
        except inconsistent:
            if depth[0] < len(seen):
                blame.add(seen[depth[0]][0])
            elif seen:
                blame.add(seen[-1][0])
            return None, depth[0], blame
        if other._public(seat) != mine:
            # every move agreed, what followed did not: blame the last mover and who acts next
            nxt = [None if x.pending is None else x.pending.player for x in (other, source)]
            blame.update(p for p in (seen[-1][0] if seen else None, *nxt) if p is not None)
            return None, depth[0], blame
        other.relabel = relabel
        return other, depth[0], blame

    perm = sorted(unseen)
    rng.shuffle(perm)
    other, depth, blame = attempt(perm)
    stale = 0
    for _ in range(tries - 1):
        if other is not None:
            return other, perm
        if stale >= RESTART:  # stuck: start again from a fresh re-deal
            new = sorted(unseen)
            rng.shuffle(new)
        else:
            mine_slots = [k for p in blame for k in owner_slots.get(p, ())]
            if mine_slots and rng.random() < TARGET:
                i = rng.choice(mine_slots)
            else:
                i = rng.choice(rng.choice(slots))
            j = rng.randrange(len(perm) - 1)
            j += j >= i
            if perm[i] == perm[j]:
                continue
            new = list(perm)
            new[i], new[j] = new[j], new[i]
        got, d, b = attempt(new)
        if got is not None or d >= depth or stale >= RESTART or rng.random() < WORSE:
            stale = 0 if (got is not None or d > depth or stale >= RESTART) else stale + 1
            perm, other, depth, blame = new, got, d, b
        else:
            stale += 1
    return None if other is None else (other, perm)

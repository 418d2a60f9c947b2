"""Fixed-size numeric forms of an Env for learning: the observation vector and the action codes.

Observation vector (whole numbers), in this order - `Env.vector_layout()` gives each part's
start and length:

- `cards:ZONE[i]`: for each pile of each zone, one slot per card of the deck, 1 where that
  card lies there and the seat may see it;
- `sizes`: the number of cards in each pile (hidden or not: a hand's size is public);
- `me`, `to_act`, `dealer`: one-hot over the seats (the observing seat, the seat to act, the dealer);
- `chips`: each seat's chips won or lost since the start;
- `var:NAME`: each numeric variable the seat may see (stakes, pots, ...; flags are 0/1; one
  slot per seat or index; 0 where it is hidden or not a number);
- `choice`: one-hot over the variant's choices, the pending one when the seat is to act;
- `round`: the round number.

Action codes: a decision's legal actions get codes that mean the same at every decision of a
choice kind. Each parameter has a value code - a card its index in the deck (radix: the deck
size), a yes/no 0 or 1 (radix 2), a whole number from -1 to 30 the number plus one (radix 32;
-1 often means "none"), a list of cards (a shedding game's plays, a hand's sets) the cards it puts down as
a multi-hot over the deciding seat's own pile, sorted by deck index: bit i is the i-th card of
that pile (radix 2 ** `list_bits`, the largest such pile in seeded random games; the empty list
is 0) - and an action with several parameters is their mixed-radix number, the first parameter
most significant (a bet of a chips on hand h: (h + 1) * 32 + a + 1). Two legal actions that put
down the same cards with the same other parameters (the ways of grouping the same cards into
sets, which the rules count as one answer) share a code, which takes the first of them. A choice
with a text parameter, a number outside -1 to 30, a list of cards not all from one of the seat's
piles or a pile larger than `list_bits`, or codes past the action space: the index into the
legal actions.
"""
from __future__ import annotations

from typing import Any


def vector_layout(env: Any) -> list[tuple[str, int, int]]:
    """(part, start, length) for each part of the observation vector of `env`'s game."""
    cached = env.__dict__.get("_layout")
    if cached is not None:
        return cached
    g, n = env.game, env.players
    ncards = len(g.card_ids)
    parts: list[tuple[str, int]] = []
    piles = 0
    for zname, z in g.variant.zones.items():
        count = 1 if z.kind == "single" else n if z.kind == "player" else z.count
        for i in range(count):
            parts.append((f"cards:{zname}" + ("" if z.kind == "single" else f"[{i}]"), ncards))
        piles += count
    parts += [("sizes", piles), ("me", n), ("to_act", n), ("dealer", n), ("chips", n)]
    for vname, v in g.variant.vars.items():
        parts.append((f"var:{vname}", 1 if v.kind == "single" else n if v.kind == "player" else v.count))
    parts += [("choice", len(g.choices)), ("round", 1)]
    out, at = [], 0
    for name, k in parts:
        out.append((name, at, k))
        at += k
    env.__dict__["_layout"] = out
    return out


def _number(x: Any) -> int:
    if isinstance(x, bool):
        return int(x)
    if isinstance(x, int):
        return x
    try:
        return int(x)  # fractions: their whole part
    except (TypeError, ValueError):
        return 0


def observation_vector(env: Any, seat: int) -> list[int]:
    """`seat`'s observation of `env` as whole numbers, laid out as vector_layout says."""
    g, n, st = env.game, env.players, env._st
    ctx, d = st.ctx, st.pending
    ncards = len(g.card_ids)
    out: list[int] = []
    sizes: list[int] = []
    for zname, z in g.variant.zones.items():
        piles = [ctx.zones[zname]] if z.kind == "single" else ctx.zones[zname]
        for i, pile in enumerate(piles):
            row = [0] * ncards
            idx = None if z.kind == "single" else i
            for c in pile:
                if g.visible(ctx, seat, zname, idx, c):
                    row[c] = 1
            out += row
            sizes.append(len(pile))
    out += sizes
    for who in (seat, None if d is None else d.player, ctx.dealer % n):
        row = [0] * n
        if who is not None:
            row[who] = 1
        out += row
    out += env.rewards
    shown = g.visible_vars(ctx, seat)
    for vname, v in g.variant.vars.items():
        k = 1 if v.kind == "single" else n if v.kind == "player" else v.count
        val = shown.get(vname)
        if isinstance(val, list) and v.kind != "single":
            out += [_number(x) for x in val[:k]] + [0] * (k - len(val[:k]))
        else:
            out += [_number(val) if not isinstance(val, list) else 0] + [0] * (k - 1)
    row = [0] * len(g.choices)
    if d is not None and d.player == seat:
        row[list(g.choices).index(d.choice.id)] = 1
    out += row
    out.append(ctx.round_no)
    return out


INT_RADIX = 32  # codes for a whole-number parameter: values -1 to 30, coded as the value plus one
LIST_GAMES = 8  # seeded random one-round games that size a list-of-cards code (list_bits)


def _flat(v: Any) -> list[int]:
    """The cards of a list-of-cards value (lists of lists flattened)."""
    out: list[int] = []
    for x in v:
        if isinstance(x, (list, tuple)):
            out += _flat(x)
        else:
            out.append(x)
    return out


def _own_pile(env: Any, d: Any, k: int) -> list[int] | None:
    """The deciding seat's first own pile (player zones in order) that holds every card of
    parameter `k` of every legal action, sorted by deck index; None if there is none."""
    g, ctx = env.game, env._st.ctx
    wanted = {c for a in d.actions for c in _flat(a[k])}
    for zname, z in g.variant.zones.items():
        if z.kind == "player":
            pile = ctx.zones[zname][d.player]
            if wanted <= set(pile):
                return sorted(pile)
    return None


def list_bits(env: Any) -> int:
    """Bits of a list-of-cards code: the largest own pile met at a list-of-cards decision in
    LIST_GAMES seeded random one-round games (the same for every Env of this game and seats)."""
    cached = env.__dict__.get("_list_bits")
    if cached is not None:
        return cached
    lists = any(t.startswith("list<") and "card" in t
                for kinds in env.game.choices.values() for ch in kinds for t in ch.types)
    most = 0
    if lists:
        import random
        probe = type(env)(env.game, seed=0, players=env.players, rounds=1, logging=False)  # an Env

        for s in range(LIST_GAMES):
            probe.reset(s)
            rng = random.Random(s)
            while not probe.done:
                d = probe._st.pending
                for k, t in enumerate(d.choice.types):
                    if t.startswith("list<") and "card" in t:
                        pile = _own_pile(probe, d, k)
                        most = max(most, len(pile) if pile is not None else 0)
                probe.step(rng.randrange(len(d.actions)))
    env.__dict__["_list_bits"] = most
    return most


def action_codes(env: Any, size: int) -> list[int]:
    """The codes of the pending decision's legal actions, in the order of `legal_actions()`
    (equal codes: actions the code does not tell apart; a step with it takes the first)."""
    d = env._st.pending
    if d is None:
        return []
    radix: list[int] = []
    shift: list[Any] = []
    for k, t in enumerate(d.choice.types):
        if t == "card":
            radix.append(len(env.game.card_ids))
            shift.append(0)
        elif t == "bool":
            radix.append(2)
            shift.append(0)
        elif t == "int":
            radix.append(INT_RADIX)
            shift.append(1)
        elif t.startswith("list<") and "card" in t:
            bits = list_bits(env)
            pile = _own_pile(env, d, k)
            if pile is None or len(pile) > bits:
                return list(range(len(d.actions)))
            radix.append(1 << bits)
            shift.append({c: 1 << i for i, c in enumerate(pile)})  # a card's bit in the pile
        else:
            return list(range(len(d.actions)))  # text: the index of the legal action
    codes = []
    for a in d.actions:
        code = 0
        for r, k, v in zip(radix, shift, a):
            if type(k) is dict:
                v = sum(k[c] for c in set(_flat(v)))
            else:
                v = int(v) + k
                if not 0 <= v < r:
                    return list(range(len(d.actions)))
            code = code * r + v
        codes.append(code)
    if all(c < size for c in codes) and (len(set(codes)) == len(codes) or any(type(k) is dict for k in shift)):
        return codes
    return list(range(len(d.actions)))

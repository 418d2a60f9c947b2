"""Hand-written, straight-Python Otoroku (same rules and random policy as the variant's defaults).

No framework: used only to measure the generic engine's cost. Defaults as in
variants/hanafuda/otoroku.yaml on the hanafuda deck (value = month): share 1, single payouts,
dealer Buta pays everyone still in, unlimited dealer cards, Goshita-gomai above 16, equal
teyaku to the dealer, fixed dealer. Seat 0 deals; seats 1..n-1 are first to last bettor.
"""
from __future__ import annotations

import random

# hanafuda without Nov/Dec: (value, is_crane, is_cuckoo) for the 40 cards
DECK = [(m, m == 1 and k == 1, m == 4 and k == 1) for m in range(1, 11) for k in range(1, 5)]


def teyaku_rank(hand: list, seat: int, n: int) -> int:
    """Rank of the best teyaku the seat may use (0 if none)."""
    best = 0
    if len(hand) == 2:
        vals = sorted(c[0] for c in hand)
        if vals == [6, 9] and seat != 0:
            best = 50
        elif vals in ([6, 10], [7, 9]) and seat == n - 1:
            best = 50
        elif seat == 0 and any(c[1] for c in hand) and any(c[2] for c in hand):
            best = 40
        elif vals == [1, 9]:
            best = 29
        elif vals in ([1, 5], [1, 10]):
            best = 28
    elif len(hand) == 5 and all(c[0] <= 5 for c in hand):
        best = 33
    return best


def strength(hand: list, seat: int, n: int) -> tuple[int, int]:
    t = teyaku_rank(hand, seat, n)
    tot = sum(c[0] for c in hand)
    limit = 17 if seat == n - 1 else 16
    return max(t, 0 if tot >= limit else 2 * tot), t


def play_round(rng: random.Random, n: int) -> list[int]:
    """One round with seat 0 dealing and every seat choosing uniformly among legal actions."""
    deck = list(DECK)
    rng.shuffle(deck)
    k = rng.randrange(1, len(deck))
    deck = deck[k:] + deck[:k]
    hands = [[] for _ in range(n)]
    for p in list(range(1, n)) + [0]:
        hands[p].append(deck.pop())
    chips = [0] * n
    out = [False] * n
    st = [0] * n
    tr = [0] * n
    for p in range(1, n):
        hands[p].append(deck.pop())
        st[p], tr[p] = strength(hands[p], p, n)
        drawing = st[p] > 0 and len(hands[p]) < 5
        while drawing:
            if rng.randrange(2) == 0:
                hands[p].append(deck.pop())
                st[p], tr[p] = strength(hands[p], p, n)
                drawing = st[p] > 0 and len(hands[p]) < 5
            else:
                drawing = False
        if st[p] == 0:
            out[p] = True
            chips[p] -= 1
            chips[0] += 1
    alive = [p for p in range(1, n) if not out[p]]
    if not alive:
        return chips
    hands[0].append(deck.pop())
    st[0], tr[0] = strength(hands[0], 0, n)
    drawing = st[0] > 0 and len(deck) > 0
    while drawing:
        if rng.randrange(2) == 0:
            hands[0].append(deck.pop())
            st[0], tr[0] = strength(hands[0], 0, n)
            drawing = st[0] > 0 and len(deck) > 0
        else:
            drawing = False
    if st[0] == 0:
        for p in alive:
            chips[0] -= 1
            chips[p] += 1
        return chips
    if len(hands[0]) == 2 and (sum(c[0] for c in hands[0]) >= 10 or tr[0] == 28):
        chosen = []
        for i, q in enumerate(alive):
            must = i == len(alive) - 1 and not chosen
            if must or rng.randrange(2) == 0:
                chosen.append(q)
        alive = chosen
    for p in alive:
        sb, sd = st[p], st[0]
        if sb > sd:
            m = 1
        elif sb < sd:
            m = -1
        elif sb == 30:
            m = 0
        else:
            m = -1
        chips[0] -= m
        chips[p] += m
    return chips

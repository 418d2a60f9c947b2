"""Hand-written, straight-Python Kyō-Kabu (same rules and random policy as the variant's defaults).

No framework: used only to measure how much the generic engine costs. Defaults as in
variants/kabufuda/kyo-kabu.yaml: tie push, table limit 10, Kuppin order-sensitive, column
Sorokabu wins, dealer draws freely, unbet columns take no third card, betting optional.
"""
from __future__ import annotations

import random

DECK = [v for v in range(1, 11) for _ in range(4)]


def play_round(rng: random.Random, n: int, limit: int = 10) -> list[int]:
    """One round with seat 0 dealing and every seat choosing uniformly among legal actions."""
    deck = list(DECK)
    for v in (5, 6, 7, 8):
        deck.remove(v)
    rng.shuffle(deck)
    k = rng.randrange(1, len(deck))
    deck = deck[k:] + deck[:k]
    columns = [[5], [6], [7], [8]]
    bet_col = [-1] * n
    stake = [0] * n
    total = 0
    for p in range(1, n):
        left = limit - total
        options = [(-1, 0)] + [(c, a) for c in range(4) for a in range(1, left + 1)]
        col, amount = options[rng.randrange(len(options))] if len(options) > 1 else options[0]
        if col >= 0:
            bet_col[p], stake[p] = col, amount
            total += amount
    dealer = [deck.pop()]
    for i in range(4):
        columns[i].append(deck.pop())
    decided = [False] * 4
    for p in range(1, n):
        if stake[p] > 0 and not decided[bet_col[p]]:
            i = bet_col[p]
            decided[i] = True
            t = sum(columns[i]) % 10
            if t <= 3:
                take = True
            elif t >= 7:
                take = False
            else:
                take = rng.randrange(2) == 0
            if take:
                columns[i].append(deck.pop())
    dealer.append(deck.pop())
    if rng.randrange(2) == 0:
        dealer.append(deck.pop())
    dv = sum(dealer) % 10
    kuppin = len(dealer) == 2 and dealer[0] == 9 and dealer[1] == 1
    dsoro = len(dealer) == 3 and dealer[0] == dealer[1] == dealer[2] and dealer[0] in (5, 6, 7, 8)
    chips = [0] * n
    for i in range(4):
        hand = columns[i]
        soro = len(hand) == 3 and hand[0] == hand[1] == hand[2]
        cv = sum(hand) % 10
        if kuppin:
            m = -1
        elif soro:
            m = 2
        elif dsoro:
            m = -1
        elif cv > dv:
            m = 1
        elif cv < dv:
            m = -1
        else:
            m = 0
        for p in range(1, n):
            if stake[p] > 0 and bet_col[p] == i:
                chips[0] -= stake[p] * m
                chips[p] += stake[p] * m
    return chips

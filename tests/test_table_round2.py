"""The table, round two (issue 24): what each choice leads to in the menu (`hints`), who deals
next and why, payment reasons in hand names, and a readable showdown."""
from __future__ import annotations

import io
import re

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import game
from rulekit.people.table import Screen, Table


def _menus(text: str) -> list[list[str]]:
    """The entries of every menu shown: '  1) ...' lines after 'Your turn'."""
    return [re.findall(r"^  \d+\) (.*)$", part.split("Your choice")[0], re.M)
            for part in text.split("Your turn: ")[1:]]


def test_hiraya_menu_says_what_each_card_takes():
    g = game("hanafuda/hiraya.yaml")
    out = io.StringIO()
    table = Table(g, 3, 1, Screen(io.StringIO("1\n" * 200), out), pause=False)
    wild = g.card_index["11-4"]
    seen: list[tuple[list[int], list[int]]] = []  # (field, hand) at each of the human's card plays

    def checks(ctx, choice, player, actions):
        if player == 1 and choice.id == "play":
            seen.append((list(ctx.zones["field"]), [a[0] for a in actions]))
    agents = make_agents(g, 3, 11, "careful", human=1, human_agent=table)
    play(g, 3, 11, agents, rounds=2, dealer=0, observe=table.observe, checks=checks)
    menus = [m for m in _menus(out.getvalue()) if m and m[0].startswith("play ")]
    assert len(menus) == len(seen) and len(seen) >= 10
    months = lambda c: g.deck.cards[c].attrs["month"]  # noqa: E731
    takes_told = 0
    for menu, (field, hand) in zip(menus, seen):
        assert len(menu) == len(hand)
        for entry, c in zip(menu, hand):
            assert entry.startswith(f"play {g.card_name(c)}"), entry
            hint = entry.split(" — ")[-1]
            same = [f for f in field if months(f) == months(c)]
            if c == wild:
                assert hint == ("wild: takes any one table card" if field else "nothing to take: it stays on the table")
            elif same:
                takes_told += 1
                assert hint.startswith("takes "), entry
                assert all(g.card_name(f) in hint for f in same), entry
                others = [f for f in field if f not in same and g.card_name(f) not in [g.card_name(x) for x in same]]
                assert not any(g.card_name(f) in hint for f in others if f != wild), entry
            elif wild in field:
                assert hint == "must take the Lightning", entry
            else:
                assert hint == "nothing to take: it stays on the table", entry
    assert takes_told > 0

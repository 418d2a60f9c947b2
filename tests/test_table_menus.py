"""The table's menus: one entry per thing the player can tell apart, and always a legal answer."""
from __future__ import annotations

import io
import re

from rulekit.engine.agents import FirstLegalAgent, render
from rulekit.engine.runner import play
from rulekit.people.table import Screen, Table
from rulekit.people.table.session import _in_deck_order
from rulekit.engine.testing import game

from .test_dare import W, stack

# key number 7; seat 1 holds two plain Ones and three plain Fours, so several ways of laying
# down the same-looking sets use different cards
TWINS = [1, 5, 7, 7, 4, 6, 4, 4, 1]


def _dare_without_alike():
    """Dare with every way of laying down sets offered (its `alike` off): the menus below test
    how answers that read the same are merged; `alike` merges more (tests/test_table_alike.py)."""
    g = game("kabufuda/dare.yaml")
    for choice in g.choices["sets"]:
        choice.alike = {}
    return g


def _menus(text: str) -> list[list[str]]:
    """The entries of every menu shown: '  1) ...' lines after 'Your turn'."""
    out = []
    for part in text.split("Your turn: ")[1:]:
        out.append(re.findall(r"^  \d+\) (.*)$", part.split("Your choice")[0], re.M))
    return out


def test_entries_that_read_the_same_are_one_entry():
    g = _dare_without_alike()
    out = io.StringIO()
    table = Table(g, 2, 1, Screen(io.StringIO("1\n"), out), pause=False)
    offered = []

    def checks(ctx, choice, player, actions):
        if player == 1:
            # what the player reads: Dare's sets are `unordered`, shown in deck order
            offered.append([table.nar.action_text(choice.id, {p: _in_deck_order(render(v, t, g.card_ids),
                                                                                g.card_index)
                                                              for p, t, v in zip(choice.params, choice.types, a)})
                            for a in actions])
    res = play(g, 2, 1, [FirstLegalAgent(), table], rounds=1, dealer=0, stack={"deck": stack({1: TWINS, 0: W})},
               observe=table.observe, checks=checks)
    (menu,) = _menus(out.getvalue())
    (legal,) = offered
    # each entry says what it leaves in the hand; the action itself is before the dash
    assert all(" — keeps " in m for m in menu)
    menu = [m.split(" — keeps ")[0] for m in menu]
    assert len(set(legal)) < len(legal)            # identical-looking actions were offered ...
    assert len(menu) == len(set(menu))             # ... and are listed once,
    assert set(menu) == set(legal)                 # with nothing the player could tell apart lost
    # the answer (entry 1) is the first action that reads like it: a legal index
    (mine,) = [e for e in res.events if e["t"] == "choose" and e["player"] == 1]
    assert mine["index"] == legal.index(menu[0]) and 0 <= mine["index"] < mine["of"] == len(legal)


def test_sets_that_differ_only_in_card_order_are_one_entry():
    # Dare's sets are `unordered`: each answer is shown in deck order, so sets of the same-looking
    # cards in another order are the same entry
    g = _dare_without_alike()
    assert g.choices["sets"][0].unordered == frozenset({"fam"})
    out = io.StringIO()
    table = Table(g, 2, 1, Screen(io.StringIO("1\n"), out), pause=False)
    res = play(g, 2, 1, [FirstLegalAgent(), table], rounds=1, dealer=0, stack={"deck": stack({1: TWINS, 0: W})},
               observe=table.observe)
    (menu,) = _menus(out.getvalue())
    # six ways to lay down two sets, but only two the player can tell apart: with the Gold Four
    # or with a plain one (before, entries differing only in card order were listed twice)
    # (what each keeps is told in deck order, as your hand is)
    # (both keep a hand that shows 5: said once above the menu)
    assert menu == ["lay down One, One and Five; Gold Four (Kin-shi), Six and Seven — keeps Four, Four and Seven",
                    "lay down One, One and Five; Four, Six and Seven — keeps Gold Four (Kin-shi), Four and Seven"], menu
    assert "  Every choice keeps a hand that shows 5: press Enter for the first, or choose the cards you like.\n" in out.getvalue()
    (mine,) = [e for e in res.events if e["t"] == "choose" and e["player"] == 1]
    assert 0 <= mine["index"] < mine["of"]


def test_unordered_names_parameters_of_its_choice(tmp_path):
    from rulekit.engine.build import check_variant
    from rulekit.core.errors import render_all
    src = (__import__("pathlib").Path(__file__).resolve().parent.parent / "variants" / "kabufuda" /
           "dare.yaml").read_text(encoding="utf-8")
    p = tmp_path / "dare.yaml"
    p.write_text(src.replace("unordered: [fam]", "unordered: [famm]"), encoding="utf-8")
    out = render_all(check_variant(str(p)))
    assert "unordered: 'famm' is not a parameter of this choice" in out and "fam" in out

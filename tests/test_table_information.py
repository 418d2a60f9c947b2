"""What a player at a real table would know, told at this one: your own card thrown in unseen
is still yours to name; a capture's menu names the card it takes; a card you draw is not said
to go to the table before you are asked what it captures."""
from __future__ import annotations

import io

from rulekit.engine.runner import make_agents, play
from rulekit.engine.testing import game
from rulekit.people.narrate import Narrator
from rulekit.people.table import Screen, Table

from .hanafuda_stack import HIRAYA, OnceStack, cached_game, deal_top
from .test_hiraya import LIGHTNING_ON_FIELD, wild_hands


def test_your_own_card_thrown_in_unseen_is_still_named_to_you():
    """Otoroku: a bettor let off throws the hand in face down; its owner saw the cards and still
    knows them, nobody else does."""
    g = game("hanafuda/otoroku.yaml")
    ids = g.card_ids
    mine, theirs = ids[0], ids[1]
    for viewer, named, hidden in ((1, mine, theirs), (2, theirs, mine)):
        nar = Narrator(g, 3, viewer)
        nar.zones.update({"hand[1]": [mine], "hand[2]": [theirs], "discard": []})
        nar.feed({"t": "move", "from": "hand[1]", "to": "discard", "cards": [mine]})
        nar.feed({"t": "move", "from": "hand[2]", "to": "discard", "cards": [theirs]})
        text, _ = nar.zone_view("discard")
        assert nar.card_text(named) in text and nar.card_text(hidden) not in text, (viewer, text)
        assert "a hidden card" in text


def _hiraya_wild_on_table(answers: str) -> str:
    g = cached_game(HIRAYA)
    top = deal_top(wild_hands(first0="1-2"), LIGHTNING_ON_FIELD)
    out = io.StringIO()
    table = Table(g, 3, 0, Screen(io.StringIO(answers + "1\n" * 200), out), pause=False)
    play(g, 3, 1, make_agents(g, 3, 1, "careful", human=0, human_agent=table), rounds=1, dealer=0,
         stack=OnceStack("deck", top), observe=table.observe)
    return out.getvalue()


def test_the_choice_between_the_lightning_and_a_match_names_the_match():
    """Hiraya: the Lightning lies on the table and you play the Pine poetry ribbon: the menu says
    which table card 'the card of the same month' is (the Crane, the only Pine there)."""
    text = _hiraya_wild_on_table("1\n2\n")
    menu = text.split("Capture the Lightning, or the card of the same month?", 1)[1].split("Your choice", 1)[0]
    assert "  2) capture the card of the same month — takes Crane and sun" in menu, menu
    assert "  1) capture the Lightning\n" in menu  # its own words name what it takes
    after = text.split(menu, 1)[1].splitlines()
    told = next(ln for ln in after if ln.startswith("  You "))
    assert "Crane and sun" in told, told  # and the answer takes that card


def test_a_card_you_draw_is_not_sent_to_the_table_before_you_say_what_it_captures():
    """A drawn card asked about next (the Lightning drawn: which card does it take?) is told as
    drawn, not as gone to the table."""
    checked = 0
    for seed in range(1, 9):
        g = game("hanafuda/hiraya.yaml")
        out = io.StringIO()
        table = Table(g, 3, 1, Screen(io.StringIO("1\n" * 3000), out), pause=True)
        table.nar.rounds = 3
        res = play(g, 3, seed, make_agents(g, 3, seed, "careful", human=1, human_agent=table), rounds=3, dealer=0,
                   observe=table.observe)
        table.finish(res.chips, 3)
        lines = out.getvalue().splitlines()
        for k, ln in enumerate(lines):
            if ln.startswith("  You draw ") and any(x.startswith("Your turn") for x in lines[k + 1:k + 12]) and \
                    not any(x.startswith(("  Seat", "Your choice")) for x in lines[k + 1:k + 12][:next(
                        i for i, x in enumerate(lines[k + 1:k + 12]) if x.startswith("Your turn"))]):
                assert "it goes to" not in ln, ln
                checked += 1
    assert checked

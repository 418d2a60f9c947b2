"""Rules pages a reader understands: card pictures as each game counts the cards (value, wild,
an English legend and a key to the marks), each play step once, house-rule-only steps apart, a
compact house-rules list, and long stages of the worked example told by their decisive end.

Built through the real strict mkdocs build (tests/test_site.py's cached build)."""
from __future__ import annotations

import collections
import os
import re
import xml.etree.ElementTree as ET

import pytest

from rulekit import build_game
from rulekit.website.cardlegend import game_card_facts, legend_text
from rulekit.website.cards import Pictures, load_style
from rulekit.website.story import _fold, summary_sentence

from .conftest import ROOT
from .test_site import page, site

SEED_GAMES = ("dare", "hiraya", "kakkuri", "otoroku", "kyo-kabu")
STYLE = os.path.join(ROOT, "docs", "card-style.yaml")


def _svg_text(rel: str) -> str:
    """The words an SVG card picture prints."""
    with open(os.path.join(site(), rel), encoding="utf-8") as fh:
        root = ET.fromstring(fh.read())
    return " | ".join((t.text or "") for t in root.iter("{http://www.w3.org/2000/svg}text"))


def _game_card(gid: str, card_id: str) -> str:
    """The path of a game's own picture of one card, as its page uses it."""
    html = page(f"games/{gid}/index.html")
    m = re.search(r'src="\.\./\.\./(cards/[^"/]+/' + re.escape(gid) + "/" + re.escape(card_id) + r'\.svg)"', html)
    assert m, f"{gid}: no picture of {card_id} on the page"
    return m.group(1)


def test_hiraya_chaff_pictures_say_0_points_and_hana_awase_1():
    hiraya = _svg_text(_game_card("hiraya", "1-3"))
    assert "0 points" in hiraya and "Chaff" in hiraya and "1 point" not in hiraya, hiraya
    # the same card in Hana-awase, which counts Chaff 1 by default
    assert "1 point" in _svg_text(_game_card("hana-awase", "1-3"))


def test_the_lightning_is_marked_wild_in_hiraya_and_not_in_hana_awase():
    lightning = _svg_text(_game_card("hiraya", "11-4"))
    assert "WILD" in lightning and "0 points" in lightning, lightning
    assert "WILD" not in _svg_text(_game_card("hana-awase", "11-4"))
    html = page("games/hiraya/index.html")
    assert re.search(r'alt="Lightning \(Willow chaff\): Chaff, Nov, 0 points, wild"', html)


def test_kakkuris_wild_cards_come_from_its_display_rule():
    g = build_game("kakkuri")
    facts = game_card_facts(g, g.variant.meta.players_default)
    wild = sorted(c for c, f in facts.items() if f.wild)
    roles = sorted(c.id for c in g.deck.cards if c.attrs.get("role") == "wild")
    assert wild and set(roles) <= set(wild), (wild, roles)


def test_a_game_that_counts_a_card_otherwise_changes_its_picture():
    """The value printed on the card is the game's (display.value), not the deck's points."""
    pics = Pictures(load_style(STYLE))
    for options, want in (({}, "0 points"), ({"chaff_points": 1}, "1 point")):
        g = build_game("hiraya", options)
        facts = game_card_facts(g, 3)
        card = g.deck.cards[g.card_index["2-3"]]
        st = pics.style_of("hanafuda")
        assert want in legend_text(card, st, facts["2-3"])


@pytest.mark.parametrize("gid", SEED_GAMES)
def test_every_seed_page_explains_its_card_pictures(gid):
    html = page(f"games/{gid}/index.html")
    m = re.search(r'<p class="rk-card-legend" id="card-legend">(.*?)</p>', html, re.S)
    assert m, gid
    text = re.sub(r"<[^>]+>", "", m.group(1))
    assert "Top left" in text
    starred = any(c.tags for c in build_game(gid).deck.cards)  # a card with a name of its own gets a star
    assert ("★" in text) == starred, (gid, text)
    if gid in ("hiraya", "kakkuri"):
        assert "WILD: a wild card in this game (" in text, (gid, text)


def _play_titles(html: str) -> list[str]:
    start = html.index('id="play"')
    end = html.index("<h2", start)
    return re.findall(r"<li>\s*<p>\s*<strong>(.+?)\.</strong>", html[start:end]) + \
        re.findall(r"<li>\s*<strong>(.+?)\.</strong>", html[start:end])


@pytest.mark.parametrize("gid", SEED_GAMES)
def test_no_play_step_is_told_twice(gid):
    titles = _play_titles(page(f"games/{gid}/index.html"))
    assert titles, gid
    twice = [t for t, k in collections.Counter(titles).items() if k > 1]
    assert not twice, (gid, twice)


def test_house_rule_only_steps_stand_apart_from_the_numbered_steps():
    html = page("games/otoroku/index.html")
    start = html.index('id="play"')
    play = html[start:html.index("<h2", start)]
    numbered = play[:play.index("Only under a house rule")]
    apart = play[play.index("Only under a house rule"):]
    assert "Change of dealer" not in numbered and "The dealer sets the share" not in numbered
    assert "Change of dealer" in apart and apart.count("The dealer sets the share") == 1
    # both timings of the house rule are still told
    assert "before dealing" in apart and "after the deal" in apart
    # the dealer's choice of opponents is listed once, in its own step
    assert play.count("says of each bettor still in whether to play against them") == 1
    hiraya = page("games/hiraya/index.html")
    play = hiraya[hiraya.index('id="play"'):]
    play = play[:play.index("<h2")]
    assert "Noted teyaku" in play[play.index("Only under a house rule"):]
    kak = page("games/kakkuri/index.html")
    assert _play_titles(kak).count("The 8th player drops out") == 1
    # a house rule's choice made in two steps (after Utazu, after the payments) is listed once
    kplay = kak[kak.index('id="play"'):]
    kplay = kplay[:kplay.index("<h2")]
    assert kplay.count("may hand the deal on to the player on their right, who may hand it on again") == 1
    assert "instead of straight after the deal" in kak  # the house rule's timing, told with it


def test_house_rules_are_one_line_each_with_everything_in_the_fold():
    html = page("games/hiraya/index.html")
    items = re.findall(r'<details class="rk-option" id="option-([^"]+)"><summary>(.*?)</summary>(.*?)</details>',
                       html, re.S)
    assert len(items) >= 10
    for name, summary, body in items:
        assert "_" not in re.sub(r"<[^>]+>", "", summary), summary  # no option key in the line
        assert "Usually:" in body and "For the command line" in body, name
    wild = next(s for n, s, _b in items if n == "wild-on-field")
    assert "or a card with a match must take its match" in wild  # the other reading in words


def test_a_long_stage_keeps_its_decisive_end_and_says_the_rest_in_one_sentence():
    said = [f"Seat {1 + i % 3} plays card {i}." for i in range(60)]
    out = "\n".join(_fold("Play", said))
    assert "card 59" in out and "card 50" in out and "card 0" in out
    assert "card 30" not in out and "<details" not in out
    assert "Play goes on in the same way: seat 1 takes 15 more turns, seat 2 15 and seat 3 15." \
        in summary_sentence(said[5:50])
    assert "for 3 more moves" in summary_sentence(["The deck is cut.", "A card goes to the table.", "Another."])
    html = page("games/hiraya/index.html")
    story = html[html.index('id="example"'):html.index('id="how-it-plays"')]
    assert "rk-more-play" not in story and "Play goes on in the same way" in story
    assert "more steps" not in story and "from the table to the table" not in story


def test_display_value_and_wild_are_variant_language_with_located_errors(tmp_path):
    """display.value / display.wild: a card's number and wildness in a game, from the variant alone."""
    from rulekit.core.errors import render_all
    from rulekit.engine.build import build_game as build, check_variant, load_variant
    base = open(os.path.join(ROOT, "docs", "tutorial", "first-variant.yaml"), encoding="utf-8").read()
    assert "deck: kabufuda\n" in base
    good = base.replace("deck: kabufuda\n", "deck: kabufuda\ndisplay: {value: \"c.value % 10\", wild: \"c.value == 4\"}\n", 1)
    p = tmp_path / "v.yaml"
    p.write_text(good, encoding="utf-8")
    g = build(load_variant(str(p)))
    facts = game_card_facts(g, g.variant.meta.players_default)
    tens = [f for c, f in facts.items() if g.deck.cards[g.card_index[c]].attrs["value"] == 10]
    assert tens and all(f.value == 0 for f in tens)
    assert {f.wild for c, f in facts.items() if g.deck.cards[g.card_index[c]].attrs["value"] == 4} == {True}
    assert not any(f.wild for c, f in facts.items() if g.deck.cards[g.card_index[c]].attrs["value"] != 4)
    bad = base.replace("deck: kabufuda\n", "deck: kabufuda\ndisplay: {wild: \"c.valu == 4\"}\n", 1)
    p.write_text(bad, encoding="utf-8")
    msg = render_all(check_variant(str(p)))
    assert "display.wild" in msg and "v.yaml:" in msg, msg

"""A Hiraya family's own sheet: card points changed, a hand added by its cards, a hand's value
changed. The sheet states their game only: the deck total and par the engine plays, the hands they
score with their values, and no figure of the standard game left behind."""
from __future__ import annotations

import re

from rulekit.engine.build import build_game, load_variant
from rulekit.lang.prose import strip_marks
from rulekit.people.sheet import make_sheet, sheet_markdown, sheet_text
from rulekit.people.sheethtml import sheet_html

FAMILY = """\
name: The Mori family
target: hiraya
note: Grandmother counts every Chaff, and the moon with the sake cup is our own hand.
options:
  chaff_points: 1
  rounds: 6
  bank: 150
yaku:
  dekiyaku:
    - id: moon-and-cup
      names: {en: Moon and cup}
      value: 15
      cards: [Full moon, Sake cup]
    - id: grass-ribbons
      value: 20
    - id: thirteen-chaff
      remove: true
"""


def _family(tmp_path):
    f = tmp_path / "mori.yaml"
    f.write_text(FAMILY, encoding="utf-8")
    return build_game(load_variant("hiraya", house=(str(f),)))


def _flat(text: str) -> str:
    """The sheet's words without its footnote numbers (a figure a house rule moved carries one)."""
    return " ".join(re.sub(r" \[\d+\]", "", text.replace("\ue003", " ")).split())


def test_deck_total_and_par_are_the_ones_the_engine_plays(tmp_path):
    game = _family(tmp_path)
    # what the engine counts: every card's worth under the family's options, shared by three
    from rulekit.engine.figures import game_figures
    figs = game_figures(game)
    assert figs["deck_points"] == 264 and figs["par"] == 88
    raw = sheet_text(make_sheet(game), 200)
    assert re.search(r"That makes 264 \[\d\] points", raw)  # marked as the house rule's doing
    text = _flat(raw)
    assert "That makes 264 points in the deck" in text
    assert "Par is the deck's 264 points shared by three: 88." in text
    assert "card points minus par (88)" in text
    body = text[text.index("Equipment"):text.index("Where each house rule was set")]
    for stale in ("240", " 80", "nothing for a Chaff", "Chaff nothing", "worth nothing"):
        assert stale not in body, stale


def test_the_hand_list_is_the_familys(tmp_path):
    sheet = make_sheet(_family(tmp_path))
    hands = {y.name: strip_marks(y.text) for y in sheet.doc.yaku}
    assert hands["Moon and cup"] == "The Full moon and the Sake cup. Worth 15."
    assert hands["Grass Ribbons"].endswith("Worth 20.")
    assert "Thirteen Cards" not in hands
    assert not any("House rule only" in t for t in hands.values())
    assert "Six Chaff" not in hands  # a hand of a house rule this table does not play
    summary = [c.what for c in sheet.changes]
    assert "Moon and cup, a new special hand: The Full moon and the Sake cup. Worth 15." in summary
    assert "Grass Ribbons is worth 20." in summary
    assert all("Standard game: ." not in ln for ln in sheet_text(sheet, 200).splitlines())
    assert all(c.standard.strip(" .") for c in sheet.changes)


def test_the_engine_scores_the_new_hand_by_its_cards(tmp_path):
    game = _family(tmp_path)
    ids = {c.id: i for i, c in enumerate(game.deck.cards)}
    ctx = game.new_ctx(3, 0, None)
    hits = [y.id for y in ctx.yaku_eval("dekiyaku", [ids["8-1"], ids["9-1"]], 0)]
    assert hits == ["moon-and-cup"]
    assert [y.id for y in ctx.yaku_eval("dekiyaku", [ids["8-1"], ids["9-2"]], 0)] == []


def test_printed_sheets_are_inert_and_without_file_positions(tmp_path):
    sheet = make_sheet(_family(tmp_path))
    html = sheet_html(sheet)
    assert "mori.yaml:" not in html  # file:line marks are the terminal sheet's, for authors
    assert re.search(r"mori\.yaml:\d+:\d+", sheet_text(sheet, 200))
    md = sheet_markdown(sheet)
    assert "<" not in md.replace("&lt;", "")

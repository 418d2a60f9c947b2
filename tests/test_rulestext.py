"""Rules text for players: the `rules:` block and `text:` strings, inherited and checked."""
from __future__ import annotations

import os
import textwrap

from rulekit.engine.build import check_variant, load_variant
from rulekit.lang.rulestext import SECTIONS, missing_text, rules_doc, to_markdown, to_plain

HERE = os.path.dirname(__file__)
MINI = os.path.join(HERE, "fixtures", "valid", "mini-kabu.yaml")


def _with_text(tmp_path, extra: str = "") -> str:
    """mini-kabu with every phase, choice, yaku and payout given text, plus `extra` appended."""
    src = open(MINI, encoding="utf-8").read()
    src = src.replace("    name: The deal\n", "    name: The deal\n    text: Everyone gets two cards face down.\n")
    src = src.replace("    name: Third cards\n", "    name: Third cards\n    text: Players may ask for a third card.\n")
    src = src.replace("    name: Showdown\n", "    name: Showdown\n    text: Hands are shown and compared.\n")
    src = src.replace("            prompt: Take a third card?\n",
                      "            prompt: Take a third card?\n            text: With 6 or less you may draw.\n")
    src = src.replace("      - pay: {from: dealer, to: p, amount: \"opt.stake * m\"}",
                      "      - pay: {from: dealer, to: p, amount: \"opt.stake * m\", text: The dealer pays a winner.}")
    src = src.replace("      description: Two equal cards pay double.\n",
                      "      description: Two equal cards pay double.\n      text: Two cards of one value.\n")
    src += textwrap.dedent("""
        rules:
          lead: A little banking game.
          equipment: One kabufuda deck.
          setup: Any player deals first.
          settling: Every player settles with the dealer.
          end: Three rounds; most chips wins.
        """) + extra
    p = tmp_path / "mini.yaml"
    p.write_text(src, encoding="utf-8")
    return str(p)


def test_sections_come_in_reader_order_with_phases_as_numbered_steps(tmp_path):
    doc = rules_doc(load_variant(_with_text(tmp_path)))
    assert [s.key for s in doc.sections] == [k for k, _ in SECTIONS]
    assert doc.lead == "A little banking game."
    play = doc.section("play")
    assert [st.phase for st in play.steps] == ["deal", "draw", "showdown"]
    assert play.steps[1].choices == (("draw", "With 6 or less you may draw."),)
    # the payout sits in a procedure called from the showdown: it is still found
    assert doc.section("settling").items == ("The dealer pays a winner.",)
    md = to_markdown(doc)
    assert md.index("## Equipment") < md.index("## Setup and deal") < md.index("## Play") \
        < md.index("## Settling up") < md.index("## End of the game")
    assert "1. **The deal.** Everyone gets two cards face down." in md
    assert "- **Pair**: Two cards of one value." in md


def test_plain_text_has_no_markdown_marks_and_wraps(tmp_path):
    out = to_plain(rules_doc(load_variant(_with_text(tmp_path))), width=40)
    assert "**" not in out and "Play\n----" in out
    assert max(len(x) for x in out.splitlines()) <= 40


def test_a_child_inherits_text_and_overrides_only_what_it_gives(tmp_path):
    parent = _with_text(tmp_path)
    child = tmp_path / "child.yaml"
    child.write_text(textwrap.dedent(f"""
        id: child
        extends: {parent}
        meta: {{names: {{en: Child}}}}
        rules:
          end: Five rounds.
        round:
          - id: draw
            text: Nobody may draw more than once.
        """), encoding="utf-8")
    doc = rules_doc(load_variant(str(child)))
    assert doc.section("end").text == "Five rounds."
    assert doc.section("equipment").text == "One kabufuda deck."           # inherited
    steps = {st.phase: st.text for st in doc.section("play").steps}
    assert steps["draw"] == "Nobody may draw more than once."
    assert steps["deal"] == "Everyone gets two cards face down."             # inherited


def test_strict_validation_names_every_part_without_text():
    diags = missing_text(load_variant(MINI))
    msgs = sorted(d.message for d in diags)
    assert msgs == sorted([
        "phase 'deal' has no `text` for players", "phase 'draw' has no `text` for players",
        "phase 'showdown' has no `text` for players", "choice 'draw' has no `text` for players",
        "payout has no `text` for players", "yaku 'pair' (table 'hand') has no `text` for players"])
    assert all(d.code == "E090" and d.span.line > 0 for d in diags)
    # only --strict asks for text
    assert not [d for d in check_variant(MINI) if d.code == "E090"]
    assert len([d for d in check_variant(MINI, strict=True) if d.code == "E090"]) == 6


def test_a_fully_written_variant_passes_strict(tmp_path):
    assert not [d for d in check_variant(_with_text(tmp_path), strict=True) if d.code == "E090"]


def test_phase_prompts_stand_in_for_missing_choice_text():
    from rulekit.lang.rulestext import phase_prompts
    v = load_variant(MINI)
    assert phase_prompts(v, "draw") == ["Take a third card?"]
    assert phase_prompts(v, "deal") == []


def test_a_shared_procedures_choice_is_listed_at_every_step_that_makes_it():
    variants = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "variants")

    def choices(rel: str) -> dict[str, list[str]]:
        doc = rules_doc(load_variant(os.path.join(variants, rel)))
        return {st.title: [c for c, _t in st.choices] for sec in doc.sections for st in sec.steps}
    oicho = choices("kabufuda/oicho-kabu.yaml")
    # the dealer's draw is asked at the second field and again with the dealer's own hand
    assert "dealer_draw" in oicho["Dealer's first card and the second field"]
    assert "dealer_draw" in oicho["The dealer's hand"]
    assert "contest" in choices("hanafuda/otoroku.yaml")["The dealer's choice of opponents"]
    kakkuri = choices("mekurifuda/kakkuri.yaml")
    assert "cede" in kakkuri["Players look at their hands; Utazu"] and "cede" in kakkuri["Payments"]


def test_yaku_tables_have_their_own_headings():
    from rulekit.engine.build import load_variant
    from rulekit.engine.testing import variant_path
    from rulekit.lang.rulestext import rules_doc, to_markdown, to_plain
    doc = rules_doc(load_variant(variant_path("hanafuda/hana-awase.yaml")))
    text = to_plain(doc)
    tey, dek = "  Hand combinations, paid at the deal (teyaku):", "  Yaku among the captured cards (dekiyaku):"
    assert tey in text and dek in text and text.index(tey) < text.index(dek)
    between = text[text.index(tey):text.index(dek)]
    assert "Six Chaff:" in between and "Five Brights" not in between
    assert "Five Brights:" in text[text.index(dek):]
    md = to_markdown(doc)
    assert "### Hand combinations, paid at the deal (teyaku)" in md
    # one table with text: no heading
    one = rules_doc(load_variant(variant_path("kabufuda/dare.yaml")))
    assert [t for t, _ in one.yaku_groups()] in ([""], [])

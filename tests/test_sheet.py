"""A table's own rules: prose that follows the options, the sheet (text, Markdown, HTML, PDF),
house files checked by `validate`, and the --strict checks that words and rules agree."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from rulekit.engine.build import build_game, check_house, check_variant, load_variant
from rulekit.lang.prose import MARKED, Prose, render
from rulekit.lang.rulestext import rules_doc, to_plain
from rulekit.people.sheet import make_sheet, sheet_markdown, sheet_text
from rulekit.people.sheethtml import sheet_html

from .conftest import ROOT, VARIANTS

MY_TABLE = "docs/guides/my-table.yaml"          # Kyō-Kabu: table maximum 20, dealer wins ties, Kuppin either order
HAYASHI = "docs/guides/house-example.yaml"      # Otoroku: share 2, multiples, rotating bank, six rounds, Makezu 2


def cli(*args: str, cwd: str = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": ROOT, "COLUMNS": "78"}
    return subprocess.run([sys.executable, "-m", "rulekit", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)


def _game(vid: str, house: tuple[str, ...] = (), **opts):
    return build_game(load_variant(vid, house=tuple(os.path.join(ROOT, h) for h in house)), opts)


# -- prose -----------------------------------------------------------------------------------
def test_placeholders_say_values_in_words_and_rules_as_sentences():
    v = load_variant("kyo-kabu")
    std = Prose.standard_page(v.options)
    assert render("max {opt.table_limit}", std) == "max 10 chips"
    assert render("{rule.tie}", std) == "When the values are equal, nobody pays (house rule: the dealer wins ties)."
    assert render("{{literal}} {opt.table_limit}", std) == "{literal} 10 chips"
    one = Prose.sheet(v.options, {"table_limit": 1, "tie": "dealer"})
    # a sheet states the value in effect, marked, and never offers the alternatives
    out = render("max {opt.table_limit}. {rule.tie}", one)
    assert [m.group(1) for m in MARKED.finditer(out)] == ["table_limit", "tie"]
    words = MARKED.sub(lambda m: m.group(2), out)
    assert words == "max 1 chip. When the values are equal, the dealer wins."
    # an unchanged option on a sheet: the sentence alone, unmarked
    assert render("{rule.tie}", Prose.sheet(v.options, {})) == "When the values are equal, nobody pays."


def test_standard_page_keeps_the_default_then_house_rule_style():
    doc = rules_doc(load_variant("kyo-kabu"))
    text = " ".join(to_plain(doc, 200).split())
    assert "The table maximum is 10 chips." in text
    assert "When the values are equal, nobody pays (house rule: the dealer wins ties)." in text
    assert "A 1 first and a 9 second does not count (house rule: a 1 first and a 9 second counts too)." in text
    assert "{" not in text


def test_no_shipped_text_is_left_with_a_placeholder_or_an_unrendered_option():
    for root, _d, files in os.walk(VARIANTS):
        for f in files:
            v = load_variant(os.path.join(root, f))
            text = to_plain(rules_doc(v), 1000)
            assert not re.search(r"\{(opt|rule|yaku)\.", text), f
            assert not re.search(r"`\w+`", text), f   # no option key shown to players


def test_yaku_value_in_prose_follows_a_house_file():
    sheet = make_sheet(_game("otoroku", (HAYASHI,)))
    settling = sheet.doc.section("settling").text
    # Makezu (Undefeatable) pays double at the Hayashi table: the Kingo-multiples sentence (marked as
    # the house rule it is) says two for it, three for Otoroku
    assert "\ue000teyaku_payout\ue001A win with a teyaku" in settling
    assert "Undefeatable two shares, Otoroku three" in settling


# -- the sheet -------------------------------------------------------------------------------
def test_kyo_kabu_sheet_states_the_family_rules_each_marked_with_file_and_line():
    r = cli("rules", "kyo-kabu", "--house", MY_TABLE)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    flat = " ".join(out.split())
    assert "Our house rules" in out and "The Saitō family table" in out
    assert "The table maximum is 20 chips [" in flat
    assert "When the values are equal, the dealer wins. [" in flat
    assert "A 1 first and a 9 second counts as Kuppin too. [" in flat
    assert "10 chips" not in flat.split("Our house rules")[1].split("Standard game: 10 chips.")[1]
    assert "(house rule: the dealer wins ties)" not in flat
    assert "(house rule" not in flat
    # each footnote names the file and line that set it
    notes = out.split("Where each house rule was set")[1]
    assert re.search(r"\[\d\] docs/guides/my-table\.yaml:9:16 \(The Saitō family table\)", notes)  # table_limit
    assert re.search(r"\[\d\] docs/guides/my-table\.yaml:10:8 ", notes)    # tie
    assert re.search(r"\[\d\] docs/guides/my-table\.yaml:11:17 ", notes)   # kuppin_order
    # the footnote numbers in the text are the summary's
    n = re.search(r"\[(\d)\] When the values are equal, the dealer wins", out).group(1)
    assert f"the dealer wins. [{n}]" in flat


def test_without_house_rules_rules_prints_the_usual_rules_then_the_house_rules_apart():
    plain = cli("rules", "kyo-kabu").stdout
    flat = " ".join(plain.split())
    assert "Our house rules" not in plain
    # the rules state the usual readings alone; every other reading waits in its own section
    rules, house = flat.split("House rules ----------- ")
    assert "When the values are equal, nobody pays." in rules and "(house rule" not in rules
    assert "The dealer wins ties" not in rules
    assert ("- Who wins when a table hand and the dealer have the same value. Usually: A hand equal to the "
            "dealer gets its stakes back. Or: The dealer wins ties. (to play it: rulekit play kyo-kabu -o "
            "tie=dealer)") in house
    assert "Usually: 10 chips. Or any whole number from 1 to 1000." in house  # an int without a sentence
    assert "- six-rounds: The short game of six rounds." in house
    # every option of the game has its entry, each with its command-line spelling
    for name in load_variant("kyo-kabu").options:
        assert f"-o {name}=" in house, name


def test_sheet_from_o_and_preset_names_where_each_change_came_from():
    g = load_variant("otoroku")
    game = build_game(g, {"rounds": "3"}, "kingo-payouts")
    game.extra.cli_options = {"rounds": "3"}
    sheet = make_sheet(game)
    where = {c.key: c.where for c in sheet.changes}
    assert where == {"teyaku_payout": "preset 'kingo-payouts'", "rounds": "-o on the command line"}
    assert "A game is 3 rounds." in " ".join(sheet_text(sheet, 200).split())


def test_sheet_leaves_out_steps_and_choices_of_house_rules_not_played():
    text = " ".join(sheet_text(make_sheet(_game("kyo-kabu", (MY_TABLE,))), 200).split())
    assert "the dealer decides whether a column nobody staked on" not in text.lower()
    text = " ".join(sheet_text(make_sheet(_game("kyo-kabu", (), unbet_columns="dealer")), 200).split())
    # the rule in force is stated as the rule, never labelled "House rule only"
    assert "The dealer decides whether a column nobody staked on" in text
    assert "House rule only" not in text


def test_markdown_sheet_has_footnotes():
    md = sheet_markdown(make_sheet(_game("kyo-kabu", (MY_TABLE,))))
    assert "## Our house rules" in md and "**20 chips**[^" in md
    assert re.search(r"^\[\^\d\]: House rule, set at .*my-table\.yaml:9:16", md, re.M)


def test_html_sheet_is_self_contained_and_escapes_the_house_file(tmp_path):
    house = tmp_path / "evil.yaml"
    house.write_text("name: '<script>alert(1)</script>'\ntarget: kyo-kabu\nnote: '<img src=x onerror=alert(1)>'\n"
                     "options: {tie: dealer}\n", encoding="utf-8")
    html = sheet_html(make_sheet(build_game(load_variant("kyo-kabu", house=(str(house),)))))
    assert "<script" not in html.lower() and "<img" not in html.lower()
    assert "&lt;script&gt;" in html
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", html)   # nothing fetched
    assert "<link" not in html and "@import" not in html and "url(" not in html
    assert "@media print" in html and "<mark" in html


def _pdf_pages(path: str) -> int:
    data = open(path, "rb").read()
    return len(re.findall(rb"/Type\s*/Page[^s]", data))


@pytest.mark.parametrize("vid,house", [("kyo-kabu", MY_TABLE), ("otoroku", HAYASHI)])
def test_html_sheet_prints_on_two_pages(tmp_path, vid, house):
    chromium = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)),
                    None)
    if chromium is None:
        pytest.skip("no Chromium found: printing the sheet to PDF needs chromium --headless")
    out = tmp_path / "sheet.html"
    r = cli("rules", vid, "--house", house, "--format", "html", "--output", str(out))
    assert r.returncode == 0, r.stderr
    pdf = tmp_path / "sheet.pdf"
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--disable-background-networking", f"--print-to-pdf={pdf}", "--no-pdf-header-footer",
                    out.as_uri()], capture_output=True, timeout=120)
    pages = _pdf_pages(str(pdf))
    print(f"{vid} with {house}: {pages} pages")
    assert 1 <= pages <= 2


def test_effects_measure_each_change_and_all_together():
    r = cli("rules", "kyo-kabu", "--house", MY_TABLE, "--effects", "--effect-rounds", "300")
    assert r.returncode == 0, r.stderr
    part = r.stdout.split("What the house rules do")[1].split("Where each house rule was set")[0]
    # each change named as the sheet states it, with its footnote number; no option key
    assert "Table maximum: 20 chips." in part and "the dealer wins" in part and "Kuppin too" in part
    assert not re.search(r"\b(table_limit|kuppin_order|tie)=", part)
    assert "All 3 house rules together" in part
    assert re.search(r"The dealer: [+-]\d+\.\d\d chips? per round \([+-]\d+\.\d\d to [+-]\d+\.\d\d\)", part)


def test_output_file_that_cannot_be_written_is_a_usage_error(tmp_path):
    r = cli("rules", "kyo-kabu", "--format", "html", "--output", str(tmp_path / "no" / "such" / "sheet.html"))
    assert r.returncode == 2 and "--output" in r.stderr and "Traceback" not in r.stderr


# -- house files in validate -----------------------------------------------------------------
def test_validate_recognises_a_correct_house_file():
    r = cli("validate", MY_TABLE, HAYASHI, "tests/fixtures/house/family.yaml")
    assert r.returncode == 0, r.stderr
    assert f"{MY_TABLE} (house rules): ok" in r.stdout


def test_validate_locates_every_house_file_error_before_play(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("target: kyo-kabu\nplayers: {default: 10}\noptions:\n  table_limit: 5000\n  tie: maybe\n",
                   encoding="utf-8")
    diags = check_house(str(bad))
    got = sorted((d.span.line, d.span.col, d.code) for d in diags)
    assert got == [(2, 20, "E042"), (4, 16, "E051"), (5, 8, "E051")]
    r = cli("validate", str(bad))
    assert r.returncode == 1 and "bad.yaml:2:20" in r.stderr and "from 2 to 8, found 10" in r.stderr
    # and play stops at the file's line, not at a --players flag nobody gave
    r = cli("play", "kyo-kabu", "--house", str(bad), "--seed", "1")
    assert r.returncode == 1 and "bad.yaml:2:20" in r.stderr and "--players" not in r.stderr


def test_validate_names_an_unknown_target(tmp_path):
    bad = tmp_path / "t.yaml"
    bad.write_text("target: kyo-kabuu\noptions: {tie: dealer}\n", encoding="utf-8")
    diags = check_house(str(bad))
    assert diags and diags[0].span.line == 1 and "kyo-kabu" in diags[0].hint


# -- --strict: words and rules agree ----------------------------------------------------------
def _variant(tmp_path, body: str) -> str:
    src = open(os.path.join(VARIANTS, "kabufuda", "kyo-kabu.yaml"), encoding="utf-8").read()
    p = tmp_path / "kyo-kabu-test.yaml"
    p.write_text(body(src), encoding="utf-8")
    return str(p)


def test_strict_finds_a_literal_option_value_with_its_line(tmp_path):
    path = _variant(tmp_path, lambda s: s.replace("The table maximum\n    is {opt.table_limit}.",
                                                  "The table maximum\n    is 10 chips.")
                    .replace("extends: oicho-kabu", "extends: " + os.path.join(VARIANTS, "kabufuda", "oicho-kabu.yaml"))
                    .replace("id: kyo-kabu", "id: kyo-kabu-test"))
    diags = [d for d in check_variant(path, strict=True) if d.code == "W091"]
    lit = [d for d in diags if "'10 chips'" in d.message]
    assert len(lit) == 1 and lit[0].severity == "warning"
    line = open(path, encoding="utf-8").read().splitlines()[lit[0].span.line - 1]
    assert line[lit[0].span.col - 1:].startswith("10 chips")
    assert "{opt.table_limit}" in lit[0].hint


def test_unknown_placeholder_is_an_error_always(tmp_path):
    path = _variant(tmp_path, lambda s: s.replace("{opt.table_limit}", "{opt.table_limt}")
                    .replace("extends: oicho-kabu", "extends: " + os.path.join(VARIANTS, "kabufuda", "oicho-kabu.yaml"))
                    .replace("id: kyo-kabu", "id: kyo-kabu-test"))
    diags = [d for d in check_variant(path) if d.code == "E091"]
    where = next(i for i, line in enumerate(open(path, encoding="utf-8"), 1) if "{opt.table_limt}" in line)
    assert len(diags) == 1 and "table_limit" in diags[0].hint and diags[0].span.line == where


def test_strict_finds_an_option_nothing_reads(tmp_path):
    path = _variant(tmp_path, lambda s: s.replace("options:\n", "options:\n  idle: {type: bool, default: false, "
                                                  "says: {\"true\": \"Yes.\", \"false\": \"No.\"}}\n", 1)
                    .replace("{rule.bet_required}", "{rule.bet_required} {rule.idle}")
                    .replace("extends: oicho-kabu", "extends: " + os.path.join(VARIANTS, "kabufuda", "oicho-kabu.yaml"))
                    .replace("id: kyo-kabu", "id: kyo-kabu-test"))
    diags = [d for d in check_variant(path, strict=True) if "'idle'" in d.message]
    assert len(diags) == 1 and "changes nothing" in diags[0].message


def test_strict_validate_of_the_shipped_variants_passes():
    r = cli("validate", "--strict", "variants")
    assert r.returncode == 0, r.stderr
    assert "9 valid, 0 with errors" in r.stdout


def test_your_table_panel_data_shows_players_words_only():
    """The website panel's labels and texts never show an option key (a name with `_`) or a placeholder."""
    from rulekit.website.yourtable import panel_data
    for root, _d, files in os.walk(VARIANTS):
        for f in files:
            data = panel_data(load_variant(os.path.join(root, f)))
            for o in data["options"]:
                assert not re.search(r"[a-z]_[a-z]", o["label"]), (f, o["label"])
            for segs in data["texts"]:
                assert all("{" not in w for w, _k in segs), (f, segs)
    kyo = panel_data(load_variant("kyo-kabu"))
    words = ["".join(w for w, _k in t) for t in kyo["texts"]]
    tie = next(p for p in kyo["pieces"] if p["deps"] == ["tie"] and "nobody pays" in p["page"])
    # the page states the usual reading; the other value's text is the sheet's, the change marked
    assert "When the values are equal, nobody pays." in tie["page"]
    assert "When the values are equal, the dealer wins." in words[tie["t"]["dealer"]]
    assert any("the dealer wins" in w for w, k in kyo["texts"][tie["t"]["dealer"]] if k == "m")
    # a sentence the page leaves out (the usual reading says nothing) comes with its paragraph
    hiraya = panel_data(load_variant("hiraya"))
    mis = next(p for p in hiraya["pieces"] if "misdeal_willows" in p["deps"])
    assert mis["page"].endswith("the same dealer shuffles and deals again."), mis["page"]
    said = ["".join(w for w, _k in hiraya["texts"][i]) for k, i in mis["t"].items() if k.endswith("non_wild")]
    assert any(x.endswith("Of the Willows, only the Rain Man, Swallow and Willow ribbon together make the "
                          "misdeal.") for x in said), said

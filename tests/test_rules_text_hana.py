"""Rules text for players in the hanafuda variants: complete, in play order, and agreeing with the rules.

The content checks compare the prose with the rules data it describes (phase order, yaku values and
who may claim them, option defaults, par), so a text copied from a parent or left behind by a rule
change fails here.
"""
from __future__ import annotations

import re

import pytest

from rulekit.engine.build import build_game, check_variant, load_variant
from rulekit.lang.loader import plain
from rulekit.lang.rulestext import SECTIONS, rules_doc
from rulekit.engine.testing import variant_path

HANA = ["hana-awase", "hiraya", "otoroku", "kingo", "kingo-banking"]


def _path(vid: str) -> str:
    return variant_path(f"hanafuda/{vid}.yaml")


def _doc(vid: str):
    return rules_doc(load_variant(_path(vid)))


def _tree(vid: str) -> dict:
    return plain(load_variant(_path(vid)).tree)


def _all_text(doc) -> list[str]:
    out = [doc.lead] + [s.text for s in doc.sections]
    for s in doc.sections:
        out += list(s.items)
        for st in s.steps:
            out += [st.text] + [t for _c, t in st.choices]
    return out + [y.text for y in doc.yaku]


def _yaku(vid: str) -> dict[str, dict]:
    return {e["id"]: e for entries in _tree(vid)["yaku"].values() for e in entries}


@pytest.mark.parametrize("vid", HANA)
def test_strict_validation_finds_no_missing_text_and_no_error(vid):
    diags = check_variant(_path(vid), strict=True)
    assert [d.message for d in diags if d.code == "E090"] == []
    assert [f"{d.code}: {d.message}" for d in diags if d.severity == "error"] == []


@pytest.mark.parametrize("vid", HANA)
def test_every_section_has_prose_and_every_step_text(vid):
    doc = _doc(vid)
    assert doc.lead
    for key, _title in SECTIONS:
        assert doc.section(key).text, f"{vid}: section {key} is empty"
    assert doc.section("settling").items
    assert all(st.text for st in doc.section("play").steps)
    assert all(y.text for y in doc.yaku)


@pytest.mark.parametrize("vid", HANA)
def test_play_steps_follow_the_rounds_phase_order(vid):
    # the order the engine runs the phases in, not the order rulestext reads them in
    engine_order = [ph.id for ph in build_game(load_variant(_path(vid))).phases]
    assert [st.phase for st in _doc(vid).section("play").steps] == engine_order


@pytest.mark.parametrize("vid", HANA)
def test_no_expression_syntax_or_engine_words_reach_players(vid):
    bad = re.compile(r"==|->|\bopt\.|right_of|left_of|seats_from|\bzone|\bprocedure|seat index|\[p\]|RULES §")
    for text in _all_text(_doc(vid)):
        assert not bad.search(text), text


@pytest.mark.parametrize("vid", HANA)
def test_setup_says_how_the_first_dealer_is_found(vid):
    assert "earliest month" in _doc(vid).section("setup").text


@pytest.mark.parametrize("vid", HANA)
def test_phases_only_a_house_rule_turns_on_say_so(vid):
    """A phase guarded by `opt.x == 'v'` with another default runs only under a house rule."""
    v = load_variant(_path(vid))
    steps = {st.phase: st.text for st in rules_doc(v).section("play").steps}
    guarded = 0
    for ph in plain(v.tree)["round"]:
        m = re.fullmatch(r"opt\.(\w+) == '(\w+)'", str(ph.get("when", "")))
        if m and v.options[m.group(1)].default != m.group(2):
            guarded += 1
            assert steps[ph["id"]].startswith("House rule"), (ph["id"], steps[ph["id"]])
    if vid in ("otoroku", "kingo-banking"):
        assert guarded >= 1


@pytest.mark.parametrize("vid", ["hana-awase", "hiraya"])
def test_each_scoring_set_states_the_value_the_rules_give_it(vid):
    values = {k: e["value"] for k, e in _yaku(vid).items()}
    for y in _doc(vid).yaku:
        if y.table == "dekiyaku":
            assert re.findall(r"Worth (\d+)\b", y.text) == [str(values[y.id])], (y.id, values[y.id], y.text)


@pytest.mark.parametrize("vid,players", [("hana-awase", (2, 3, 4)), ("hiraya", (3,))])
def test_par_in_the_text_is_the_decks_points_shared_out(vid, players):
    v = load_variant(_path(vid))
    chaff = v.options["chaff_points"].default
    hands = rules_doc(v).section("hands").text
    for n in players:
        par = (240 + 24 * chaff) // n
        assert str(par) in hands, (n, par)
    if vid == "hiraya":
        # Hiraya's Chaff are worth nothing: the parent's 88 must not survive in the child
        assert "88" not in hands and "80" in rules_doc(v).section("settling").text


def test_hiraya_states_how_captures_score_and_who_takes_the_leftovers():
    doc = _doc("hiraya")
    hands = doc.section("hands").text
    assert "Chaff and the Lightning are worth nothing" in hands and "20 for a Bright" in hands
    assert "Par is the deck's 240 points shared by three: 80." in hands
    assert "Willow cards never count as Chaff" in hands
    steps = {st.phase: st for st in doc.section("play").steps}
    assert "Lightning" in steps["play"].text and "any one table card" in steps["play"].text
    assert "player who used the wild card" in steps["leftovers"].text
    assert "three or four Willow" in steps["misdeal"].text
    # the child replaced the turn: the wild card's own decisions have their text
    assert {c for c, _t in steps["play"].choices} >= {"wild_take", "wild_or_match", "play", "take"}
    assert "twice the value of their own yaku" in doc.section("settling").text


def test_otoroku_names_the_last_bettors_rights_and_the_showdown_in_words():
    doc = _doc("otoroku")
    setup = doc.section("setup").text
    assert "second-earliest" in setup and "latest month" in setup and "last bettor" in setup
    # the rights: bust only at 17, 16 beats 15, the Otoroku hands are the last bettor's alone
    assert "17" in setup and "16, which beats 15" in setup and "Otoroku hands" in setup
    steps = {st.phase: st.text for st in doc.section("play").steps}
    assert "exactly 15, nobody pays" in steps["showdown"]
    assert "17 or more for the last bettor" in steps["bettors"]
    assert "five cards" in steps["bettors"]


@pytest.mark.parametrize("vid", ["otoroku", "kingo-banking"])
def test_a_teyaku_text_names_who_may_use_it(vid):
    """Claims in the data (dealer only, bettors only, last bettor only) appear in the yaku's text."""
    for y in _doc(vid).yaku:
        claim = _yaku(vid)[y.id].get("claim")
        if claim == "seat == dealer":
            assert "dealer's" in y.text, y.id
        elif claim == "seat != dealer":
            assert "bettor" in y.text, y.id
        elif claim == "seat == left_of(dealer)":
            assert "last bettor" in y.text, y.id
        else:
            assert claim is None and "anyone" in y.text, y.id


def test_otoroku_pays_one_share_by_default_and_says_so():
    v = load_variant(_path("otoroku"))
    assert v.options["teyaku_payout"].default == "single"
    doc = rules_doc(v)
    assert "Every result moves one share" in doc.section("settling").text
    # no teyaku text promises a multiple the default does not pay
    assert not any(re.search(r"(two|three) shares", y.text) for y in doc.yaku)


def test_kingo_banking_multiples_in_the_text_match_the_yaku_values():
    words = {1: ("one stake", "the stake once"), 2: ("two stakes", "the stake twice"),
             3: ("three stakes", "the stake three times")}
    for y in _doc("kingo-banking").yaku:
        e = _yaku("kingo-banking")[y.id]
        if e.get("claim") != "seat == dealer":
            assert any(w in y.text for w in words[e["value"]]), (y.id, e["value"], y.text)
    assert "only with a total of 12 or more" in {st.phase: st.text for st in
                                                  _doc("kingo-banking").section("play").steps}["bettors"]


def test_kingo_pot_multiples_in_the_text_match_the_yaku_values():
    words = {2: ("doubl", "by two"), 3: ("tripl", "by three")}
    for y in _doc("kingo").yaku:
        assert any(w in y.text for w in words[_yaku("kingo")[y.id]["value"]]), y.id
    settling = _doc("kingo").section("settling").text
    assert "second wager" in settling and "takes it all" in settling

"""Rules text for players of Oicho-Kabu, Kyō-Kabu, Dare and Kakkuri: complete, in round order,
free of engine words, and saying what the rules (and the engine playing them) actually do."""
from __future__ import annotations

import re

import pytest

from rulekit.engine.build import check_variant, load_variant, make_deck
from rulekit.core.errors import Collector
from rulekit.lang.rulestext import SECTIONS, rules_doc
from rulekit.engine.testing import game, run, variant_path

OICHO, KYO, DARE, KAKKURI = ("kabufuda/oicho-kabu.yaml", "kabufuda/kyo-kabu.yaml", "kabufuda/dare.yaml",
                             "mekurifuda/kakkuri.yaml")
ALL = [OICHO, KYO, DARE, KAKKURI]
WORDS = {2: "two", 4: "four", 6: "six", 7: "seven", 8: "eight", 12: "twelve"}
# what a player must never read: expression syntax and the engine's vocabulary
ENGINE_WORDS = re.compile(r"opt\.|==|->|\w\(|\[\w|right_of|seats_from|n_players|\bzones?\b|procedure|"
                          r"seat index|\bvar\b|\btrue\b|\bfalse\b|RULES|§")


def _doc(rel):
    return rules_doc(load_variant(variant_path(rel)))


def _all_text(doc) -> list[str]:
    out = [doc.lead]
    for s in doc.sections:
        out += [s.text, *s.items]
        for st in s.steps:
            out += [st.text, *(t for _c, t in st.choices)]
    return out + [y.text for y in doc.yaku]


def _step(doc, phase):
    return next(st for st in doc.section("play").steps if st.phase == phase)


def _choose_ids(node, out: set[str]) -> set[str]:
    """Every `choose:` id anywhere in a variant's tree (phases and procedures)."""
    v = node.value
    if isinstance(v, dict):
        if "choose" in v and isinstance(v["choose"].value, str):
            out.add(v["choose"].value)
        for child in v.values():
            _choose_ids(child, out)
    elif isinstance(v, list):
        for child in v:
            _choose_ids(child, out)
    return out


@pytest.mark.parametrize("rel", ALL)
def test_strict_validation_finds_nothing_missing_and_no_error(rel):
    diags = check_variant(variant_path(rel), strict=True)
    assert [d.render() for d in diags if d.severity == "error"] == []


@pytest.mark.parametrize("rel", ALL)
def test_every_section_is_written_and_play_follows_the_round(rel):
    v = load_variant(variant_path(rel))
    doc = rules_doc(v)
    assert doc.lead
    for key, _title in SECTIONS:
        assert doc.section(key).text, f"{rel}: section {key} is empty"
    # one numbered step per phase, in the order the round plays them, each with its text
    phases = [ph.value["id"].value for ph in v.tree.value["round"].value]
    steps = doc.section("play").steps
    assert [st.phase for st in steps] == phases
    assert all(st.text for st in steps)
    # every decision a player can be asked about is explained somewhere in Play
    assert {c for st in steps for c, _t in st.choices} == _choose_ids(v.tree, set())
    assert doc.section("settling").items, "every payout has its sentence under Settling up"


@pytest.mark.parametrize("rel", ALL)
def test_players_read_no_expression_syntax_and_no_engine_words(rel):
    doc = _doc(rel)
    bad = [t for t in _all_text(doc) if ENGINE_WORDS.search(t)]
    assert bad == []


@pytest.mark.parametrize("rel", ALL)
def test_option_sources_cite_public_sources_not_the_rules_file(rel):
    v = load_variant(variant_path(rel))
    assert [o.source for o in v.options.values() if "RULES" in o.source or "§" in o.source] == []


@pytest.mark.parametrize("rel", ALL)
def test_deck_size_player_count_and_game_length_match_the_variant(rel):
    v = load_variant(variant_path(rel))
    doc = rules_doc(v)
    deck = make_deck(v, v.default_deck, Collector())
    assert f"{len(deck.cards)} cards" in doc.section("equipment").text
    rounds = v.options["rounds"].default
    assert f"{rounds} rounds" in doc.section("end").text  # stated from the option ({rule.rounds})
    assert "most chips" in doc.section("end").text
    if v.meta.players_min != v.meta.players_max and rel != KAKKURI:
        assert f"{WORDS[v.meta.players_min]} to {WORDS[v.meta.players_max]} players" in doc.lead
    else:
        assert f"{WORDS[v.meta.players_default]} players" in doc.lead


def test_oicho_kabu_text_states_the_third_card_rule_specials_and_value_names():
    doc = _doc(OICHO)
    third = _step(doc, "third-field").text
    assert re.search(r"3 or less must take", third) and re.search(r"7 or more may not", third)
    assert "earliest" in third  # a shared hand is decided by its earliest bettor
    hands = doc.section("hands").text
    for name in ("pin", "nizo", "sanzun", "yotsuya", "gosu", "roppo", "nanaken", "oicho", "kabu", "buta"):
        assert name in hands
    yaku = {y.id: y.text for y in doc.yaku}
    assert "4" in yaku["shippin"] and "9" in yaku["kuppin"] and "no third card" in yaku["kuppin"]
    assert "twice" in yaku["arashi"]
    assert "dead card" in _step(doc, "first-field").text
    assert "bottom" in " ".join(t for _c, t in _step(doc, "second-field").choices)


def test_kyo_kabu_complete_text_says_what_kyo_kabu_does_not_what_oicho_kabu_does():
    doc = _doc(KYO)
    # the engine's first field and stock, read from a played round, are what the text says
    o = run(game(KYO), 2, [], by_choice={"bet": [{"col": 0, "amount": 1}]})
    first = [int(e["cards"][0].split("-")[0]) for e in o.events("move") if e["to"].startswith("column")][:4]
    stock = len(o.events("shuffle")[0]["order"])
    step1 = _step(doc, "first-field").text
    assert "Before shuffling" in step1
    assert ", ".join(f"one {v}" for v in first[:3]) + f" and one {first[3]}" in step1   # one 5, one 6, ...
    assert f"{stock} cards" in doc.section("equipment").text
    # inherited text overridden where Kyō-Kabu differs: one column, top only, Sorokabu, no Shippin
    assert "one column, and on one only" in _step(doc, "betting").text
    assert "top" in _step(doc, "second-field").text and "top" in _step(doc, "dealer-draw").text
    text = " ".join(_all_text(doc))
    for oicho_only in ("Shippin", "Arashi", "bottom", "fourth from the top", "yotsuya", "gosu", "roppo"):
        assert oicho_only not in text, oicho_only
    assert "dead card" not in text.replace("nobody gets a dead card", "")
    hands = doc.section("hands").text
    for name in ("unsun", "nizō", "sanzun", "yonzun", "goken", "rokken", "shichiken", "oicho", "kabu", "buta"):
        assert name in hands
    yaku = {y.id: y.text for y in doc.yaku}
    assert set(yaku) == {"sorokabu", "kuppin", "dealer-sorokabu"}
    assert "Sorokabu included" in yaku["kuppin"]
    assert all(f"{v}, {v}, {v}" in yaku["sorokabu"] for v in first)
    assert "6 rounds" in doc.section("end").text   # 12 rounds, or 6 by agreement (from option rounds)


def test_dare_text_explains_key_number_sets_dare_and_the_pot():
    doc = _doc(DARE)
    deal = _step(doc, "deal").text
    assert "nine cards" in deal and "three cards face up" in deal
    assert "last digit of the field's total" in deal and "key number" in deal
    sets = _step(doc, "sets").text
    assert "three sets" in sets and "Dare!" in sets and "at once" in sets
    assert "two sets" in sets and "out of this round" in sets
    assert "three cards whose total ends in the key number" in doc.section("hands").text
    # nobody qualifies: by default the pot carries over and the same dealer deals again
    assert "stays on the table" in _step(doc, "showdown").text
    items = doc.section("settling").items
    assert any("ante into the pot" in t for t in items)
    assert any(t.startswith("Dare:") and "whole pot" in t for t in items)
    assert any(t.startswith("Equal best hands share the pot equally") for t in items)


def test_kakkuri_text_says_one_rank_higher_and_names_the_special_cards_of_the_deck():
    v = load_variant(variant_path(KAKKURI))
    doc = rules_doc(v)
    hands = doc.section("hands").text
    assert "exactly one rank higher" in hands and "exactly one rank higher" in _step(doc, "play").text
    assert "on a 1 another 1" in hands and "on a 2 another 2" in hands and "King (12) any card" in hands
    assert "never all four" in hands
    # the special cards as the default deck marks them, named as the text names them
    deck = make_deck(v, v.default_deck, Collector())

    def named(role):
        return [f"{c.attrs['rank']} of {c.attrs['suit'].capitalize()}" for c in deck.cards if c.attrs["role"] == role]
    assert len(named("wild")) == 2 and all(n in hands for n in named("wild"))
    assert len(named("utazu")) == 3 and all(n in _step(doc, "utazu").text for n in named("utazu"))
    assert named("dropout") and all(n in _step(doc, "dropout-before-exchange").text for n in named("dropout"))
    items = doc.section("settling").items
    assert any("three shares" in t and "Utazu" in t for t in items)
    assert any("one share" in t and "two shares" in t and "Guri" in t for t in items)
    assert any("plays no card" in t and "one share into the pot" in t for t in items)
    assert "seven" in doc.section("setup").text and "fewer than seven" in doc.section("setup").text

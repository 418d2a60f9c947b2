"""Deck substitutes: every declared deck of every variant plays; the same values give the same game.

Kabufuda card ids are `V-k` (value V, copy k) and the kabu hanafuda deck's are `M-k` (month M,
card k), so for months 1-10 the same id strings name cards of the same value in both decks.
Stacking the same permutation of ids on both decks (and seeding the agents alike) must then
give the same game, event for event, in every game that counts cards by value.
"""
from __future__ import annotations

import re

import random

import pytest

from rulekit.engine.build import build_game, load_variant
from rulekit.cli.main import main
from rulekit.engine.runner import make_agents, play, round_seed
from rulekit.engine.testing import variant_path

from .conftest import playable, rel


def variant_decks():
    out = []
    for f in playable():
        v = load_variant(f)
        for deck in v.decks:
            out.append(pytest.param(f, deck, id=f"{rel(f)}:{deck}"))
    return out


@pytest.mark.parametrize("path,deck", variant_decks())
def test_every_declared_deck_builds_and_plays_a_seeded_round(path, deck, capsys):
    v = load_variant(path)
    g = build_game(v, None, None, deck)
    assert g.deck_name == deck and len(g.card_ids) == len(set(g.card_ids)) > 0
    n = v.meta.players_default
    res = play(g, n, 5, make_agents(g, n, 5), rounds=1)
    assert sum(res.chips) + g.pots_total(res.state) == g.start_chips * n
    # the same through the command line: `rulekit play VARIANT --deck DECK --seed 5`
    assert main(["play", path, "--deck", deck, "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"\nGame over after \d+ rounds?\. ", out), out[-500:]


def test_an_undeclared_deck_is_refused_with_the_list(capsys):
    assert main(["play", variant_path("kabufuda/kyo-kabu.yaml"), "--deck", "hanafuda-48"]) == 1
    err = capsys.readouterr().err
    assert "error[E040]: kyo-kabu has no deck 'hanafuda-48'" in err


SAME_VALUES = [
    ("kabufuda/kyo-kabu.yaml", {}),
    ("kabufuda/oicho-kabu.yaml", {}),
    # Birds is made of the Crane 1-1 and Cuckoo 4-1 on hanafuda; with this option the kabufuda
    # Aka-pin 1-1 and Kin-shi 4-1 make it too, so the two decks have the same special cards
    ("hanafuda/otoroku.yaml", {"birds_substitute": "aka_pin_kin_shi"}),
]


@pytest.mark.parametrize("rel_path,options", SAME_VALUES, ids=[r for r, _ in SAME_VALUES])
def test_kabufuda_and_hanafuda_give_identical_games_for_the_same_values(rel_path, options):
    v = load_variant(variant_path(rel_path))
    kab = build_game(v, options, None, "kabufuda")
    han = build_game(v, options, None, "hanafuda")
    assert sorted(kab.card_ids) == sorted(han.card_ids)
    for n in sorted({*kab.player_sizes()[:1], *kab.player_sizes()[-1:], v.meta.players_default} & set(kab.player_sizes())):
        for i in range(15):
            seed = round_seed(31, n * 100 + i)
            # which cards are shuffled (some games set cards out first): take them from a plain run
            first = next(e for e in play(kab, n, seed, make_agents(kab, n, seed), rounds=1).events
                         if e["t"] == "shuffle")
            ids = list(first["order"])
            random.Random(seed).shuffle(ids)
            stack = {first["zone"]: ids}
            a = play(kab, n, seed, make_agents(kab, n, seed), rounds=1, stack=stack)
            b = play(han, n, seed, make_agents(han, n, seed), rounds=1, stack=stack)
            assert a.events == b.events, f"{rel_path}: {n} players, seed {seed}: the decks play differently"
            assert a.chips == b.chips and a.records == b.records


def test_otoroku_birds_is_the_one_card_difference_by_default():
    # without the substitute, the Crane and Cuckoo (hanafuda 1-1, 4-1) make Birds, their kabufuda
    # namesakes do not: the only place the two decks' games may part
    v = load_variant(variant_path("hanafuda/otoroku.yaml"))
    kab, han = build_game(v, None, None, "kabufuda"), build_game(v, None, None, "hanafuda")
    parted = same = 0
    for i in range(20000):  # Birds is rare: play until it has arisen (about 1 round in 2000)
        seed = round_seed(37, i)
        # dealer 0: no seat draw (it would read the two decks in their own card order)
        a = play(kab, 3, seed, make_agents(kab, 3, seed), rounds=1, dealer=0)
        b = play(han, 3, seed, make_agents(han, 3, seed), rounds=1, dealer=0)
        if a.events == b.events:
            same += 1
        else:
            parted += 1
            assert b.records.get("yaku:birds") and not a.records.get("yaku:birds")
            break
    assert parted == 1 and same > 0.95 * i

"""Issue 37: the words a reader meets on a game page, without a site build, and the faster house-rule effects.

The quick reference names house rules, not the rules file; a deck row says once which cards are out; the
worked example counts in the game's own unit; a long stretch of play is summed up in turns; a card that
stays where a player sees it is not said to move; small card groups carry their legend for a tap.
"""
from __future__ import annotations

import functools
import os
import re

from rulekit.engine.build import build_game, load_variant
from rulekit.website.effects import Change, changes, effects_all, settings, site_policy, spread, tight
from rulekit.website.quickref import deck_text, players_text
from rulekit.website.story import in_units, story_markdown, summary_sentence
from rulekit.website.util import legend_for, money_words

from .conftest import ROOT

VARIANTS = os.path.join(ROOT, "variants")


@functools.cache
def game(rel: str):
    return build_game(load_variant(os.path.join(VARIANTS, rel)))


def test_the_player_count_names_the_house_rules_not_the_file():
    text = players_text(game("mekurifuda/kakkuri.yaml"))
    assert text.startswith("7 or 8 with the default rules") and "5–8 with other house rules" in text
    assert "rules file" not in text


def test_a_deck_row_says_the_cards_taken_out_once():
    text = deck_text(game("kabufuda/dare.yaml"))
    assert text.lower().count("aka-pin") == 1, text


def test_the_game_s_own_unit_counts_the_worked_example():
    g = game("hanafuda/otoroku.yaml")
    assert money_words(g) == ("stone", "stones")
    assert money_words(game("kabufuda/kyo-kabu.yaml")) == ("chip", "chips")
    assert in_units("Seat 1 pays 2 chips to seat 0; seat 2 pays 1 chip.", "stone", "stones") == \
        "Seat 1 pays 2 stones to seat 0; seat 2 pays 1 stone."
    assert in_units("Chips after the round: 3 chips", "chip", "chips") == "Chips after the round: 3 chips"
    from rulekit.engine.runner import make_agents, play
    n = g.variant.meta.players_default
    res = play(g, n, 5, make_agents(g, n, 5, site_policy(g)), rounds=1, dealer=0)
    story = story_markdown(g, n, res.events, res.round_deltas[0])
    assert "Stones after the round" in story and not re.search(r"\d chips?\b", story), story[-600:]


def test_a_long_stretch_is_told_in_turns_not_steps():
    said = [f"Seat {i % 3} plays card {i}." for i in range(30)]
    text = summary_sentence(said)
    assert "seat 0 takes 10 more turns, seat 1 10 and seat 2 10" in text and "steps" not in text


def test_a_card_that_stays_on_the_table_is_not_said_to_move():
    from rulekit.people.narrate import Narrator
    g = game("hanafuda/hiraya.yaml")
    nar = Narrator(g, 3, None)
    same = [z for z, d in nar.zone_defs.items() if d.kind == "single"]
    words = {z: nar.zone_words(z) for z in same}
    pairs = [(a, b) for a in same for b in same if a != b and words[a] == words[b]]
    assert pairs, words  # Hiraya has two zones a player sees as the table
    a, b = pairs[0]
    card = g.deck.cards[0].id
    lines = nar.feed({"t": "move", "cards": [card], "from": a, "to": b, "face": "up"})
    text = " ".join(ln.text for ln in lines)
    assert "stays face up on the table" in text and "to the table" not in text, text


def test_small_card_groups_carry_their_legend_for_a_tap():
    pics = '<img class="rk-card" src="a.svg" alt="Pine chaff: Chaff, Jan" title="Pine chaff: Chaff, Jan">' * 2
    legend = legend_for(pics)
    assert 'aria-hidden="true"' in legend and legend.count("Pine chaff: Chaff, Jan") == 2
    assert legend_for("<span>no pictures</span>") == ""


# -- house-rule effects: shared, deduplicated, stopped once tight -------------------------------------------

def test_tight_intervals():
    assert tight({"dealer": [0.0, 0.0], "others": [0.0, 0.0]})  # nothing changed
    assert tight({"dealer": [2.0, 0.4], "others": [-0.5, 0.1]})  # known to within a quarter
    assert not tight({"dealer": [0.1, 0.9], "others": [0.0, 0.2]})
    assert tight({"dealer": [0.1, 0.9], "others": [0.0, 0.2]}, {"dealer": 10.0, "others": 2.5})  # a tenth of a round
    assert spread([[1, -1], [-1, 1]]) == {"dealer": 2 ** 0.5, "others": 2 ** 0.5}


def test_a_change_that_plays_the_default_rules_is_not_played(tmp_path, monkeypatch):
    v = load_variant("kyo-kabu")
    same = [c for c in changes(v) if settings(v, c) == settings(v, None)]
    twins = {}
    for c in changes(v):
        twins.setdefault(settings(v, c), []).append(c)
    pairs = [cs for cs in twins.values() if len(cs) > 1]
    assert pairs, "Kyō-Kabu has a preset of one option (dealer-wins-ties)"
    import rulekit.website.effects as eff
    played: list[str] = []
    real = eff._job

    def spy(path, n, rounds, seed, policy, todo, base=None):
        played.extend(k for k, *_ in todo)
        return real(path, n, rounds, seed, policy, todo, base)
    monkeypatch.setattr(eff, "_job", spy)
    chs = pairs[0] + same[:1]
    g = build_game(v)
    got = effects_all([(v.files[0], v.files, v.meta.players_default, site_policy(g), chs)], 40,
                      cache_dir=str(tmp_path), workers=1)[v.files[0]]
    assert played == [pairs[0][0].key]  # one of the twins, and not the change that equals the defaults
    assert got[pairs[0][1].key] == got[pairs[0][0].key]
    for c in same[:1]:
        assert got[c.key]["unchanged_rounds"] == got[c.key]["rounds"] > 0


def test_a_change_without_effect_stops_at_the_minimum(tmp_path):
    from rulekit.website.effects import MIN_ROUNDS
    v = load_variant("kyo-kabu")
    g = build_game(v)
    idle = Change("option:rounds=24", option="rounds", value=24)  # acts between rounds only
    got = effects_all([(v.files[0], v.files, v.meta.players_default, site_policy(g), [idle])], 600,
                      cache_dir=str(tmp_path), workers=1)[v.files[0]][idle.key]
    assert got["rounds"] == MIN_ROUNDS and got["unchanged_rounds"] == MIN_ROUNDS

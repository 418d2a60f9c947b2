"""The parts of a rules page, without a site build: quick-reference facts, example hands, the story."""
from __future__ import annotations

import functools
import os

import pytest

from rulekit.engine.build import build_game, load_variant
from rulekit.website.quickref import allowed_players, dealt_text, order_text, players_text, quick_facts
from rulekit.website.story import Said, group_repeats, seats_words
from rulekit.website.variant import plain_source
from rulekit.website.yakuexamples import cached_examples, conditions, find_examples

from .conftest import ROOT

VARIANTS = os.path.join(ROOT, "variants")


@functools.cache
def game(rel: str, **options):
    v = load_variant(os.path.join(VARIANTS, rel))
    return build_game(v, options=options) if options else build_game(v)


# -- quick reference ----------------------------------------------------------------------------

def test_table_sizes_come_from_what_the_default_rules_play():
    g = game("mekurifuda/kakkuri.yaml")
    assert (g.variant.meta.players_min, g.variant.meta.players_max) == (5, 8)
    assert allowed_players(g) == [7, 8]  # the default refuses a table of fewer than 7
    assert players_text(g).startswith("7 or 8")
    # the games index and family pages say the same in fewer words (one implementation for both)
    assert players_text(g, short=True) == "7 or 8, usually 7 (5–8 with other house rules)"
    wide = game("mekurifuda/kakkuri.yaml", players="five_to_eight")
    assert allowed_players(wide) == [5, 6, 7, 8]
    assert players_text(wide) == "5–8, usually 7"


def test_cards_dealt_and_who_acts_first_are_read_from_seeded_rounds():
    g = game("mekurifuda/kakkuri.yaml")
    assert dealt_text(g, 7).startswith("6 cards to each player")
    assert order_text(g, 7) == "The dealer; play passes to the right (anticlockwise)"  # the play, not the exchanges
    assert order_text(game("kabufuda/dare.yaml"), 4).startswith("The player on the dealer's right")
    dare = game("kabufuda/dare.yaml")
    assert dealt_text(dare, 4).startswith("9 cards to each player; 3 cards to the field")


def test_quick_facts_use_the_rules_lines_when_given(tmp_path):
    src = open(os.path.join(ROOT, "tests", "fixtures", "valid", "mini-kabu.yaml"), encoding="utf-8").read()
    src += "\nrules:\n  round_end: When every player has settled with the dealer.\n  game_end: Most chips wins.\n"
    p = tmp_path / "mini.yaml"
    p.write_text(src, encoding="utf-8")
    facts = {f.label: f.text for f in quick_facts(build_game(load_variant(str(p))), None)}
    assert facts["A round ends"] == "When every player has settled with the dealer."
    assert facts["The game"].startswith("Most chips wins.")
    assert "Players" in facts and "Deck" in facts


def _count_rounds(monkeypatch) -> list[tuple[int, int]]:
    """The (players, seed) of every seeded round the quick reference plays from now on, in order."""
    import rulekit.website.quickref as qr
    played: list[tuple[int, int]] = []
    real = qr._round

    def counting(gm, n, seed):
        played.append((n, seed))
        return real(gm, n, seed)
    monkeypatch.setattr(qr, "_round", counting)
    return played


def test_quick_facts_read_rounds_played_once_and_shared_by_games_that_play_them_alike(monkeypatch):
    from rulekit.website.yourtable import _quick
    g = game("hanafuda/kingo.yaml")
    played = _count_rounds(monkeypatch)
    alone = quick_facts(g, None)
    assert len(played) == len(set(played))  # every seeded round the facts read is played once
    std = {k: o.parse(o.default) for k, o in g.variant.options.items()}
    run = _quick(g.variant)
    assert run(std) == {f"quick/{f.label}": f.text for f in alone}
    played.clear()
    longer = run({**std, "rounds": 24})  # only the game's length differs: no round played again
    assert played == []
    assert longer == {f"quick/{f.label}": f.text
                      for f in quick_facts(build_game(g.variant, options={**std, "rounds": 24}), None)}
    assert "24" in longer["quick/The game"] and longer != run(std)
    played.clear()
    run({**std, "wager": 3})  # a rule a round reads: its rounds are played
    assert played



def test_a_games_rounds_are_played_once_for_every_page_that_reads_them(monkeypatch):
    g = build_game(load_variant(os.path.join(ROOT, "variants", "hanafuda", "kingo.yaml")))  # a game no test read
    played = _count_rounds(monkeypatch)
    first = quick_facts(g, None)
    assert played
    n = len(played)
    assert quick_facts(g, None) == first and players_text(g, short=True)  # the index and family pages read them too
    assert len(played) == n
    other = build_game(g.variant)  # another game object: its own rounds
    assert quick_facts(other, None) == first and len(played) == 2 * n


def test_the_panel_plays_on_the_house_rule_changes_games_with_the_same_texts(monkeypatch):
    import rulekit.engine.build as b
    import rulekit.website.effects as eff
    from rulekit.lang.prose import Prose
    from rulekit.lang.rulestext import rules_doc
    from rulekit.website.yourtable import panel_data
    v = load_variant(os.path.join(ROOT, "variants", "hanafuda", "kingo.yaml"))
    g = build_game(v)
    built = []
    real = b.build_game

    def counting(*a, **k):
        built.append(1)
        return real(*a, **k)
    monkeypatch.setattr(b, "build_game", counting)
    monkeypatch.setattr(eff, "_CHANGE_GAMES", {})
    doc = rules_doc(v, Prose.page(v.options))
    alone = panel_data(v, g, doc)
    n = len(built)
    eff.prebuild_changes(v.file, v, eff.changes(v))
    assert eff._CHANGE_GAMES
    built.clear()
    assert panel_data(v, g, doc) == alone  # the same texts, read from the changes' games
    assert 0 < len(built) < n


# -- example hands ------------------------------------------------------------------------------

@pytest.mark.parametrize("rel", ["hanafuda/otoroku.yaml", "kabufuda/kyo-kabu.yaml", "hanafuda/hiraya.yaml"])
def test_every_example_hand_makes_its_yaku(rel):
    g = game(rel)
    n = g.variant.meta.players_default
    found = find_examples(g, n, rounds=120)
    assert found
    from rulekit.engine.runner import decider
    ctx = g.new_ctx(n, 1, decider(g, [], []))
    g.reset_round(ctx)
    for (table, yid), ex in found.items():
        cards = [g.card_index[c] for c in ex.cards]
        hits = {h.id: h for h in ctx.yaku_eval(table, cards, ex.seat)}
        assert yid in hits, (table, yid, ex)
        assert hits[yid].value == ex.value or str(hits[yid].value) == str(ex.value)


def test_example_hands_are_cut_down_to_what_the_yaku_needs():
    g = game("hanafuda/hiraya.yaml")
    found = find_examples(g, 3, rounds=150)
    # a capture pile of twenty cards makes the ribbons yaku; its example keeps only the three ribbons
    ribbons = [k for k in found if k[0] == "dekiyaku" and k[1].endswith("ribbons")]
    assert ribbons
    for k in ribbons:
        assert len(found[k].cards) == 3, (k, found[k])
    # a hand-size yaku is never cut below the hands the game evaluates (seven cards here)
    assert all(len(e.cards) == 7 for (t, _y), e in found.items() if t == "teyaku")


def test_a_yaku_the_simulation_never_produced_is_searched_for():
    g = game("kabufuda/kyo-kabu.yaml")
    found = find_examples(g, 5, rounds=5)
    assert any(e.found == "search" for e in found.values())
    assert len(found) == sum(len(ys) for ys in g.yaku.values())
    assert conditions(g)  # the conditions as written steer the search


def test_example_hands_are_cached(tmp_path):
    g = game("kabufuda/kyo-kabu.yaml")
    a = cached_examples(g, tuple(g.variant.files), 5, str(tmp_path))
    assert len(os.listdir(tmp_path)) == 1
    b = cached_examples(g, tuple(g.variant.files), 5, str(tmp_path))
    assert a == b


# -- the story ------------------------------------------------------------------------------------

def test_runs_of_seats_doing_the_same_are_told_once():
    said = [Said("choice", f"Seat {s} chooses: end the turn.", s) for s in (2, 3, 4, 5, 6)]
    said += [Said("choice", "Seat 0 chooses: play Nine of Clubs.", 0)]
    assert group_repeats(said) == ["Seats 2 to 6 choose: end the turn.", "Seat 0 chooses: play Nine of Clubs."]


def test_a_seats_turn_of_several_sentences_groups_as_a_whole():
    said = []
    for s in (1, 2, 4):
        said += [Said("choice", f"Seat {s} chooses: pass.", s), Said("pay", f"Seat {s} pays 1 chip to the pot.", s)]
    said.append(Said("choice", "Seat 5 chooses: pass.", 5))  # a different turn: not part of the run
    assert group_repeats(said) == ["Seats 1, 2 and 4 choose: pass.", "Seats 1, 2 and 4 pay 1 chip to the pot.",
                                   "Seat 5 chooses: pass."]
    assert seats_words([3, 4]) == "Seats 3 and 4"


def test_a_seat_repeating_itself_is_not_grouped():
    said = [Said("choice", "Seat 1 chooses: hit.", 1), Said("choice", "Seat 1 chooses: hit.", 1)]
    assert group_repeats(said) == ["Seat 1 chooses: hit.", "Seat 1 chooses: hit."]


# -- house rules ----------------------------------------------------------------------------------

def test_option_sources_lose_references_no_reader_can_follow():
    assert plain_source("unspecified (RULES §4.7); chosen here") == "unspecified; chosen here"
    assert plain_source("not given by any source; RULES §9 'rounds' (agreed)") == "not given by any source (agreed)"
    assert plain_source("fudawiki Kakkuri (pot) / games.porg.es") == "fudawiki Kakkuri (pot) / games.porg.es"


def test_moves_are_merged_and_echoes_dropped():
    from rulekit.website.story import drop_echoes, merge_moves
    from rulekit.people.line import Clause

    def went(c: Clause) -> Said:
        return Said("move", c.text(), clause=c)

    said = [went(Clause("go", (c,), 1, "the deck", f"seat {s}'s hand", dst_seat=s))
            for s, c in ((1, "Two"), (2, "Three"), (1, "Four"))]
    assert said[0].text == "Two goes from the deck to seat 1's hand."
    assert [x.text for x in merge_moves(said)] == [
        "From the deck: seat 1's hand gets Two and Four; seat 2's hand gets Three."]
    said = [Said("choice", "Seat 1 chooses: play Six of Clubs.", 1),
            went(Clause("go", ("Six of Clubs",), 1, "seat 1's hand", "the run", "up", src_seat=1)),
            went(Clause("go", ("Eight of Coins",), 1, "the box", "the run", "up"))]
    assert said[1].text == "Six of Clubs goes from seat 1's hand to the run face up."
    assert [x.text for x in drop_echoes(said)] == [said[0].text, said[2].text]


def test_a_move_that_tells_a_value_is_not_merged():
    from rulekit.website.story import merge_moves
    from rulekit.people.line import Clause
    said = [Said("move", c.text(), clause=c) for c in (Clause("go", (name,), 1, "the deck", f"column {k}", "up", str(k + 4))
                                                       for k, name in ((1, "Five"), (2, "Six"), (3, "Seven")))]
    assert said[0].text == "Five goes from the deck to column 1 face up: column 1 now shows 5."
    assert merge_moves(said) == said


def test_the_story_tells_a_columns_yaku_as_the_columns_and_no_value_twice():
    from rulekit.engine.testing import game as stacked_game, run
    from rulekit.website.story import story_markdown
    g = stacked_game("kabufuda/kyo-kabu.yaml")
    # column 3: 7 face up, 7 in the hole, 7 drawn: Sorokabu, claimed for the dealer's seat
    o = run(g, 2, ["2-1", "1-1", "1-2", "7-1", "1-3", "7-2", "2-2"],
            by_choice={"bet": [{"col": 2, "amount": 3}], "third_card": [{"take": True}],
                       "dealer_third": [{"take": False}]})
    text = story_markdown(g, 2, o.result.events, o.chips)
    assert "Column 3 has three of a kind" in text
    assert "Seat 0 (dealer) has" not in text
    # kabufuda names say their values: never "Seven (7)"
    assert "Seven, Seven and Seven" in text
    assert not [c.name for c in g.deck.cards if f"{c.name} ({c.attrs['value']})" in text]


def test_merged_moves_keep_card_names_with_and_in_them_whole():
    from rulekit.website.story import merge_moves
    from rulekit.people.line import Clause
    said = [Said("move", cl.text(), cards=cl.cards, clause=cl)
            for cl in (Clause("go", (c,), 1, "the deck", f"seat {s}'s hand", dst_seat=s)
                       for s, c in ((1, "Crane and sun (20)"), (2, "Deer (10)"), (1, "Pine chaff (1)")))]
    assert [x.text for x in merge_moves(said)] == [
        "From the deck: seat 1's hand gets Crane and sun (20) and Pine chaff (1); seat 2's hand gets Deer (10)."]


def test_the_hana_awase_story_names_every_card_whole():
    from rulekit.engine.runner import make_agents, play
    from rulekit.website.story import story_markdown
    g = game("hanafuda/hana-awase.yaml")
    n = g.variant.meta.players_default
    res = play(g, n, 1, make_agents(g, n, 1), rounds=1)
    text = story_markdown(g, n, res.events, res.chips)
    names = {c.name for c in g.deck.cards}
    # a name with "and" in it is never cut in two by the merging of moves
    for name in (x for x in names if " and " in x):
        first = name.split(" and ")[0]
        assert f"{first}, " not in text, name

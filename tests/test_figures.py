"""Figures from the rules: `{fig.NAME}` says what the rules compute under the options in effect,
and `validate --strict` points at a number written in players' text that is such a figure."""
from __future__ import annotations

import os

from rulekit.engine.build import build_game, check_variant, load_variant
from rulekit.engine.figures import figure_source, game_figures
from rulekit.lang.prose import Prose, render


def test_figures_follow_options_and_the_number_of_players():
    v = load_variant("hana-awase")
    src = figure_source(v, build=build_game)
    assert src({})["deck_points"] == 264 and src({})["par"] == 88
    assert src({"chaff_points": 0})["deck_points"] == 240
    assert [src({"chaff_points": 0}, n)["par"] for n in (2, 3, 4)] == [120, 80, 60]
    assert [src({}, n)["hand_size"] for n in (2, 3, 4)] == [8, 7, 5]
    assert src({"two_player_hand": "ten"}, 2)["hand_size"] == 10
    p = Prose.page(v.options)
    assert render("{fig.par@4}, {fig.players:words}, {fig.cards} cards", p) == "66, three, 48 cards"


def test_a_figure_source_keeps_only_the_last_games_it_built_and_still_answers_for_earlier_values():
    # a page's "Your table" asks for figures under thousands of option values: keeping every game built
    # for them made the site build hold a gigabyte that the cyclic collector walked again and again
    from rulekit.engine.figures import KEEP_GAMES
    v = load_variant("hana-awase")
    built = []

    def build(*args, **kw):
        built.append(args[1])
        return build_game(*args, **kw)
    src = figure_source(v, build=build)
    values = [{"rounds": r, "chaff_points": c} for r in (1, 2, 3, 4) for c in (0, 1)]  # 8 games
    pars = [src(x, 3)["par"] for x in values]
    assert len(src.games) <= KEEP_GAMES < len(values) == len(built)
    assert [src(x, 3)["par"] for x in values] == pars == [80, 88] * 4  # remembered, not built again
    assert len(built) == len(values)
    assert src(values[0], 4)["par"] == 60  # another seat count of a game let go: built again, the right figure
    assert len(built) == len(values) + 1


def test_the_engines_par_is_the_texts_par():
    # the settlement reads par() itself: a round's scores sum to the deck against par
    game = build_game(load_variant("hiraya"), {"chaff_points": 1})
    assert game_figures(game)["par"] == 88 and game_figures(game)["deck_points"] == 264


def _child(tmp_path, hands: str) -> str:
    f = tmp_path / "my-hiraya.yaml"
    f.write_text(f"id: my-hiraya\nextends: {os.path.abspath('variants/hanafuda/hiraya.yaml')}\n"
                 f"meta: {{names: {{en: My Hiraya}}}}\nrules:\n  hands: >-\n    {hands}\n", encoding="utf-8")
    return str(f)


def test_strict_validation_names_the_placeholder_for_a_written_figure(tmp_path):
    path = _child(tmp_path, "Par is the deck's 240 points shared by three: 80. Seven cards each.")
    warned = [d for d in check_variant(path, strict=True) if "is the figure" in d.message]
    got = {(d.message.split("'")[1], d.hint.split("}")[0] + "}") for d in warned}
    assert ("240", "write {fig.deck_points}") in got and ("80", "write {fig.par}") in got
    assert all(os.path.samefile(d.span.file, path) and d.span.line == 6 for d in warned)
    clean = _child(tmp_path, "Par is the deck's {fig.deck_points} points shared by three: {fig.par}.")
    assert not [d for d in check_variant(clean, strict=True) if "is the figure" in d.message]


def test_an_unknown_figure_is_an_error(tmp_path):
    path = _child(tmp_path, "Par is {fig.parr}.")
    errs = [d for d in check_variant(path) if d.code == "E091"]
    assert errs and "no figure 'parr'" in errs[0].message and "did you mean 'par'" in errs[0].hint

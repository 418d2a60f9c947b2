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


def _figures_or_refused(build, v, values):
    from rulekit.core.errors import RulekitError
    try:
        game = build(v, values, None, None, codegen=False)
    except RulekitError:
        return "refused"
    sizes = range(v.meta.players_min, v.meta.players_max + 1)
    return game.player_sizes(), {n: game_figures(game, n) for n in (None, *sizes)}


def test_the_figures_only_build_gives_the_full_builds_figures_for_every_variant_and_option_value():
    # the site's "Your table" reads figures under thousands of option values through the
    # figures-only build: it must say what the full rules say, and refuse what they refuse
    from rulekit.engine.build import build_figures_game
    from rulekit.engine.figures import _alternatives
    from rulekit.lang.loader import all_variant_ids, default_search_path
    refused, compared = [], 0
    for vid in all_variant_ids(default_search_path()):
        v = load_variant(vid)
        if v.meta.abstract:
            continue
        for values in [{}] + _alternatives(v):
            full = _figures_or_refused(build_game, v, values)
            assert _figures_or_refused(build_figures_game, v, values) == full, (vid, values)
            compared += 1
            if full == "refused":
                refused.append((vid, values))
    assert compared > 200 and ("oicho-kabu", {"rounds": 0}) in refused  # a length the rules refuse: no figures


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

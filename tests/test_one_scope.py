"""One scope (issue 26): every expression context sees the variant's functions and options;
where a context cannot see a name (a deck is built before any round), the error says why."""
from __future__ import annotations

from rulekit.cli.main import main
from rulekit.core.errors import render_all
from rulekit.engine.build import build_game, check_variant, load_variant

from .test_language_options import DECK, OPTIONS, TENS, variant

FUNCS = '''functions:
  ten:
    params: [x]
    body: "x.value == 10"
  dealt:
    body: "count(hand[0])"
yaku:
'''


def test_a_deck_remove_may_call_a_function(tmp_path):
    p = variant(tmp_path, (OPTIONS, TENS), ("yaku:\n", FUNCS), (DECK, '''  kabufuda:
    from: kabufuda
    remove: "not opt.tens and ten(c)"
    description: "Kabufuda, without its 10s unless option tens."'''))
    assert [d.render() for d in check_variant(p) if d.severity == "error"] == []
    v = load_variant(p)
    assert len(build_game(v).card_ids) == 40
    assert len(build_game(v, {"tens": False}).card_ids) == 36


def test_a_deck_cannot_read_the_game_state_and_the_error_says_why(tmp_path):
    p = variant(tmp_path, ("yaku:\n", FUNCS), (DECK, '''  kabufuda:
    from: kabufuda
    remove: "dealt() > 3 and ten(c)"
    description: "Kabufuda."'''))
    out = render_all(check_variant(p))
    assert "v.yaml:" in out
    assert "'hand' cannot be read here: a deck is built before any round is played" in out
    assert "Traceback" not in out


def test_a_statistic_may_call_the_variants_functions(tmp_path, capsys):
    # otoroku.yaml defines total(cards); a statistic reads it as the rules do
    f = tmp_path / "s.yaml"
    f.write_text("stats:\n  big:\n    description: the first bettor holds 10 or more\n"
                 "    at: round\n    count: \"total(hand[1]) >= 10\"\n", encoding="utf-8")
    code = main(["simulate", "otoroku", "--rounds", "20", "--stats", str(f)])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "big" in out.out and "unknown function" not in out.err


def test_a_prompt_and_a_question_fill_in_expressions(tmp_path):
    # the prompt reads the step's names, a variable and a function; the question the same
    from rulekit.engine.runner import play
    p = variant(tmp_path, ("yaku:\n", FUNCS), ("            prompt: Take a third card?\n",
                                               "            prompt: \"Seat {p}: take a third card to your "
                                               "{sum(hand[p], c -> c.value) % 10}? ({dealt()} cards at seat 0)\"\n"
                                               "            ask: {take: \"Draw onto {hand[p]}?\"}\n"))
    assert [d.render() for d in check_variant(p) if d.severity == "error"] == []
    g = build_game(load_variant(p))
    seen = []

    class Reader:
        name = "reader"

        def act(self, d):
            seen.append((d.player, d.prompt, d.asks, d.observation["prompt"],
                         [g.card_name(c) for c in d.ctx.zones["hand"][d.player]]))
            return 0
    n = 2
    for seed in range(1, 30):
        play(g, n, seed, [Reader() for _ in range(n)], rounds=1)
    assert seen
    for seat, prompt, asks, obs_prompt, names in seen:
        assert prompt.startswith(f"Seat {seat}: take a third card to your ") and "{" not in prompt
        assert prompt.endswith("? (2 cards at seat 0)") and obs_prompt == prompt
        # a question a person reads names a list of cards in words: 'A, B and C'
        listed = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        assert asks["take"] == f"Draw onto {listed}?"


def test_an_expression_in_a_prompt_is_checked_where_it_is_written(tmp_path):
    p = variant(tmp_path, ("            prompt: Take a third card?\n",
                           "            prompt: \"Take a third card, {nosuch}?\"\n"))
    out = render_all(check_variant(p))
    assert "unknown name 'nosuch'" in out and "prompt" in out and "v.yaml:" in out


def test_a_zone_display_may_call_a_function(tmp_path):
    from rulekit.people.narrate import Narrator
    line = '  hand: {per: player, visibility: owner, description: "Each player\'s cards; the third card lies face up."}\n'
    p = variant(tmp_path, ("yaku:\n", FUNCS.replace("yaku:\n", "") + "  digit:\n    params: [cs]\n"
                           "    body: \"sum(cs, c -> c.value) % 10\"\nyaku:\n"),
                (line, line[:-2] + ', show: "digit(cards)"}\n'))
    assert [d.render() for d in check_variant(p) if d.severity == "error"] == []
    g = build_game(load_variant(p))
    nar = Narrator(g, 3, None)
    assert nar.hand_value("hand[1]", ["7-1", "8-1"]) == 5


def test_a_function_checked_once_still_answers_for_each_option_value(tmp_path):
    # the function bodies' check is remembered per key (rulekit.engine.buildchecks): a verdict that
    # depends on an option value the body reads must follow the value, in any order of builds
    from rulekit.core.errors import RulekitError
    from rulekit.engine.build import build_figures_game
    body = FUNCS.replace('body: "count(hand[0])"', 'body: "if opt.tens then 1 else 1 // 0"')
    v = load_variant(variant(tmp_path, (OPTIONS, TENS), ("yaku:\n", body)))
    for _ in range(2):
        assert build_figures_game(v, {}).options["tens"] is True
        build_game(v)
        for build in (build_figures_game, build_game):
            try:
                build(v, {"tens": False})
            except RulekitError as exc:
                assert "function dealt: division by zero" in str(exc)
            else:
                raise AssertionError("the dead branch is live without tens: its division by zero is an error")

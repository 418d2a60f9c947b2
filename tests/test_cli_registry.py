"""The command line's one registry of commands, and the engine's neutral argument locations
(the engine names `policy`, `options`, `preset`, `deck`; the command line shows --policy, -o ...)."""
from __future__ import annotations

import pytest

import rulekit
from rulekit.cli.main import COMMANDS, build_parser, main
from rulekit.core.errors import RulekitError, argument, argument_of
from rulekit.engine.build import build_game, load_variant
from rulekit.engine.runner import seat_policies
from rulekit.website.reference import cli_page


@pytest.mark.parametrize("kwargs, where", [
    (dict(options={"nosuch": "1"}), "<options>"),
    (dict(options={"share": "lots"}), "<options>"),
    (dict(preset="nosuch"), "<preset>"),
    (dict(deck="nosuch"), "<deck>"),
])
def test_the_engine_locates_a_bad_argument_without_command_line_words(kwargs, where):
    with pytest.raises(RulekitError) as exc:
        build_game(load_variant("otoroku"), kwargs.get("options"), kwargs.get("preset"), kwargs.get("deck"))
    d = exc.value.diagnostics[0]
    assert (d.span.file, d.span.line) == (where, 0)
    assert "-o" not in str(exc.value) and "--" not in d.message


def test_a_bad_policy_is_located_at_the_policy_argument():
    game = build_game(load_variant("kyo-kabu"))
    for spec, words in (("9=careful", "'9' is not a seat: expected 0 to 4"), ("carefull", "unknown policy 'carefull'")):
        with pytest.raises(RulekitError) as exc:
            seat_policies(game, 5, spec)
        d = exc.value.diagnostics[0]
        assert argument_of(d.span) == "policy" and d.message.startswith(words) and "--" not in d.message
    with pytest.raises(ValueError, match="^policy: '9' is not a seat"):
        rulekit.simulate("kyo-kabu", rounds=3, policy="9=careful")


def test_argument_locations_are_told_apart_from_files():
    assert argument_of(argument("deck")) == "deck"
    assert argument_of(rulekit.core.errors.Span("<deck>", 3, 1)) is None  # a place in a file named so
    assert argument_of(rulekit.core.errors.Span("deck", 0, 0)) is None  # `rulekit play deck`: no such variant
    with pytest.raises(ValueError):
        argument("--policy")


@pytest.mark.parametrize("argv, shown", [
    (["simulate", "kyo-kabu", "--rounds", "3", "--policy", "9=careful"], "--policy:1:1: error[E050]: '9' is not a seat"),
    (["play", "otoroku", "-o", "nosuch=1"], "-o:1:1: error[E050]: unknown option 'nosuch' for otoroku"),
    (["play", "otoroku", "--preset", "zz"], "--preset:1:1: error[E050]: unknown preset 'zz' for otoroku"),
    (["play", "kyo-kabu", "--deck", "hanafuda-48"], "--deck:1:1: error[E040]: kyo-kabu has no deck 'hanafuda-48'"),
])
def test_the_command_line_names_the_flag(capsys, argv, shown):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith(shown) and "<" not in err.splitlines()[0]


def test_every_command_is_parsed_run_and_documented_from_the_one_registry():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    assert list(sub.choices) == [c.name for c in COMMANDS]
    page = cli_page()
    for c in COMMANDS:
        assert f"## rulekit {c.name} " in page and c.help.split(":")[0][:40] in page
        assert callable(c.runner())

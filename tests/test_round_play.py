"""A whole round as one generated function (rulekit.engine.roundgen): it holds no text from the
file, skips and enters phases by their conditions, and places a failing condition at its text.
(That it plays every variant exactly as before is the golden matrix's job: tests/test_golden_matrix.py.)"""
from __future__ import annotations

import io
import re
import tokenize

import pytest

from rulekit.core.errors import RuleError
from rulekit.engine import roundgen
from rulekit.engine.build import build_game, load_variant
from rulekit.engine.runner import make_agents, play
from rulekit.lang.expr.codegen import HELPERS, SAFE_BUILTINS

from .conftest import playable, rel
from .robustness.helpers import variant_text

MINE = {"_make", "play_round", "ctx", "OBS", "LOG", "Z", "V", "L", "POT", "END", "REDEAL", "RUNTIME", "ERRS",
        "LOG_ROUND", "LOG_PHASE", "REDEALT", "FAILED", "TOO_MANY_DEALS", "exc", "_", "start", "end",
        "zones", "vars", "seen", "loc", "yaku_cache", "get", "extend", "logging", "spent", "budget", "steps",
        "where", "n", "dealer", "__getitem__", "__contains__",  # (the last two: a list's own methods, by name)
        # a simulated round's restart (play_round(ctx, OBS, SEED, D))
        "SEED", "D", "R", "RANDOM", "RESEED", "START_FAILED", "rng", "type", "gauss_next", "seed", "events",
        "records", "round_no", "depth", "stack", "chips", "next_dealer",
        # a simulation's rounds (play_rounds(ctx, OBS, NUMBERS, SEED_OF, STOP, D, RS, ENDS, FLAT, RECS))
        "play_rounds", "NUMBERS", "SEED_OF", "STOP", "I", "RS", "ENDS", "FLAT", "RECS", "F", "SEAT", "break", "append",
        "SETTINGS_FAILED"}


@pytest.mark.parametrize("path", [pytest.param(f, id=rel(f)) for f in playable()])
def test_the_generated_round_holds_no_text_from_the_file(path):
    game = build_game(load_variant(path))
    n = game.player_sizes()[-1]
    src, extra = roundgen.round_play_source(game, n, lambda ctx, name: None)
    text = roundgen.text(src, tuple(extra))
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        assert tok.type != tokenize.STRING, text
        if tok.type == tokenize.NAME and tok.string not in ("def", "return", "for", "in", "if", "is", "not",
                                                          "None", "try", "except", "as", "raise", "from",
                                                          "pass", "continue", "and", "or", "True", "False", "else"):
            s = tok.string
            ok = (s in MINE or s in HELPERS or s in SAFE_BUILTINS or s[:1] in "Kw" and s[1:].isdigit()
                  or re.match(r"^(vs\d+|_[pt][es]\d+_\d+)$", s))
            assert ok, f"{s!r} in the round of {rel(path)}"
    for ph in game.phases:  # no phase id nor any name from the file is written into the code
        assert f" {ph.id} " not in text and f"{ph.id}(" not in text


def _game(tmp_path, when: str):
    path = tmp_path / "conditions.yaml"
    path.write_text(variant_text(f"""
        round:
          - id: first
            steps:
              - set: {{x: 1}}
          - id: skipped
            when: "x == 2"
            steps:
              - set: {{x: 5}}
          - id: entered
            when: "{when}"   # HERE
            steps:
              - add: {{x: 10}}
        """), encoding="utf-8")
    return build_game(load_variant(str(path))), path


def test_phases_are_entered_by_their_conditions_and_logged_as_entered(tmp_path):
    game, _ = _game(tmp_path, "x == 1 and n_players > 1")
    res = play(game, 3, 1, make_agents(game, 3, 1), rounds=1, logging=True)
    assert res.state.vars["x"] == 11
    assert [e["id"] for e in res.events if e["t"] == "phase"] == ["first", "entered"]
    assert res.state.where == "entered"


def test_a_condition_failing_at_run_time_is_placed_at_its_text(tmp_path):
    game, path = _game(tmp_path, "10 / (x - 1) > 0")
    with pytest.raises(RuleError) as err:
        play(game, 3, 1, make_agents(game, 3, 1), rounds=1, logging=False)
    line = next(i for i, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if "# HERE" in ln)
    d = err.value.first
    assert d.span.line == line and d.code == "E034", str(err.value)
    assert "entered" in str(err.value)


def test_a_simulation_reads_end_when_after_each_round_as_a_game_does(tmp_path):
    """run_chunk reads the game's end_when after every round (a simulated round stands alone: its
    value is not used), so a rule that fails there fails as in a played game, placed alike, in the
    rounds one generated function plays (roundgen.RoundsFn) and in the loop that plays them one
    by one (rows asked for)."""
    from rulekit.engine.runner import run_chunk
    path = tmp_path / "ends.yaml"
    path.write_text(variant_text("""
        round:
          - id: first
            steps:
              - set: {x: 1}
        """, game="game:\n  start_chips: 100\n  end_when: \"10 / (x - 1) > 0\"\n"), encoding="utf-8")
    game = build_game(load_variant(str(path)))
    errors = []
    with pytest.raises(RuleError) as err:
        play(game, 3, 1, make_agents(game, 3, 1), rounds=2, logging=False)
    errors.append(str(err.value))
    for rows in (None, []):
        with pytest.raises(RuleError) as err:
            run_chunk(game, 3, 1, 0, 5, rows=rows)
        errors.append(str(err.value))
    assert "game settings" in errors[0] and errors[1:] == errors[:1] * 2, errors


STATE = ("zones", "vars", "chips", "seen", "records", "events", "loc", "yaku_cache", "dealer", "next_dealer",
         "round_no", "steps", "depth", "where", "stack", "budget", "spent", "n")


@pytest.mark.parametrize("path", [pytest.param(f, id=rel(f)) for f in playable()])
def test_a_round_given_a_seed_is_the_round_after_a_restart(path):
    """play_round(ctx, OBS, seed, dealer), as a simulation calls it on a used state, leaves the
    state (and the generator) as Game.restart(ctx, seed, round_next=True), the dealer set, then
    the round did; and its records are a new dict whenever the last round's held any."""
    from rulekit.engine.runner import decider, round_seed
    game = build_game(load_variant(path))
    n = game.variant.meta.players_default
    play_round = game.round_player(n)
    states = []
    for fresh in (False, True):
        ctx = play(game, n, 3, make_agents(game, n, 3), rounds=2, logging=False).state
        for i in range(4):
            s, dealer = round_seed(7, i) if i < 3 else "any seed", i % n  # (a text seed too, as Random.seed takes it)
            ctx.decide = decide = decider(game, make_agents(game, n, s), [])
            decide.ctx = ctx
            kept, held = ctx.records, dict(ctx.records)
            if fresh:
                play_round(ctx, None, s, dealer)
            else:
                game.restart(ctx, s, round_next=True)
                ctx.dealer = ctx.next_dealer = dealer
                play_round(ctx, None)
            if held:  # a dict holding counts is never reused: the caller keeps them as they were
                assert ctx.records is not kept and kept == held
        states.append(({f: getattr(ctx, f) for f in STATE}, ctx.rng.getstate()))
    assert states[0] == states[1]

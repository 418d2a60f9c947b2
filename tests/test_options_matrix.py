"""Every option of every variant, flipped one at a time on top of every preset, still plays.

For each playable variant, each preset (and no preset), and each option: every bool flipped,
every other value of a choice, an int at its min and max (or default + 1 when unbounded).
Each setting compiles and plays seeded rounds with random agents at the smallest, usual and
largest table (two two-round games at the usual one) while the engine invariants of
tests/test_invariants.py are checked at every decision. Pots of round scope start afresh each
round (an additive running score pays from one and so makes chips), so from the second round
on the chip total is taken at the round's first decision; within a round it must not change.
Also: every option documents itself (description, source, a meaning per value).
"""
from __future__ import annotations

import time

import pytest

from rulekit.core.errors import RulekitError
from rulekit.engine.build import build_game, load_variant, resolve_options
from rulekit.engine.runner import make_agents, play, round_seed

from .conftest import playable, rel
from .test_invariants import make_checks

# the matrix is bounded by the work it does, not by the clock (a busy machine must not fail it)
BUDGET_ROUNDS = 5000
SPENT = {"s": 0.0, "configs": 0, "rounds": 0}


def flips(opt, current):
    """The values to try for one option, given its value in effect."""
    if opt.type == "bool":
        return [not current]
    if opt.type == "choice":
        return [v for v, _ in opt.values if v != current]
    if opt.type == "int":
        if opt.min is not None or opt.max is not None:
            cands = [x for x in (opt.min, opt.max) if x is not None]
        else:
            cands = [current + 1]
        return [x for x in dict.fromkeys(cands) if x != current]
    raise AssertionError(f"option {opt.name}: unknown type {opt.type}")


def per_round_checks(game, n):
    """make_checks for round 0 from the starting chips; for a later round, from the chips and pots
    at its first decision (pots of round scope start afresh each round, so a non-zero-sum
    scoring such as an additive running total may change the sum between rounds, never within one)."""
    by_round: dict[int, tuple] = {0: make_checks(game, n, game.start_chips * n)}
    last = {"round": 0}

    def checks(ctx, choice, player, actions):
        r = ctx.round_no
        if r not in by_round:
            by_round[r] = make_checks(game, n, sum(ctx.chips) + game.pots_total(ctx))
        last["round"] = r
        by_round[r][0](ctx, choice, player, actions)

    def check_state(ctx):
        by_round[last["round"]][1](ctx)
    return checks, check_state


def variant_presets():
    out = []
    for f in playable():
        v = load_variant(f)
        for preset in [None, *v.presets]:
            out.append(pytest.param(f, preset, id=f"{rel(f)}:{preset or 'no-preset'}"))
    return out


@pytest.mark.parametrize("path,preset", variant_presets())
def test_each_option_flipped_plays_with_invariants(path, preset):
    t0 = time.perf_counter()
    v = load_variant(path)
    base = resolve_options(v, None, preset)
    tried = 0
    for name, opt in v.options.items():
        for value in flips(opt, base[name]):
            try:
                game = build_game(v, {name: value}, preset)
            except RulekitError as exc:
                # an open-ended game that could never end is refused when it is built
                assert exc.first.code == "E061" and "never end" in exc.first.message, exc.first.render()
                tried += 1
                continue
            assert game.options[name] == value
            played = game.player_sizes()
            sizes = sorted({played[0], played[-1], *([v.meta.players_default] if v.meta.players_default in played
                                                       else [])})
            for k, n in enumerate(sizes):
                # one round at the smallest and largest table; two two-round games at the usual one
                # (so rules that act between rounds, like passing the bank, run too)
                games = 2 if n == v.meta.players_default else 1
                rounds = 2 if n == v.meta.players_default else 1
                for j in range(games):
                    seed = round_seed(23, tried * 11 + k * 3 + j)
                    checks, check_state = per_round_checks(game, n)
                    res = play(game, n, seed, make_agents(game, n, seed), rounds=rounds, logging=False,
                               checks=checks)
                    check_state(res.state)
                    SPENT["rounds"] += len(res.round_deltas)
            tried += 1
    SPENT["configs"] += tried
    SPENT["s"] += time.perf_counter() - t0
    assert tried == sum(len(flips(o, base[k])) for k, o in v.options.items())


def test_zz_matrix_stays_within_its_work_budget():
    if not SPENT["configs"]:
        pytest.skip("the matrix did not run in this session")
    print(f"\noptions matrix: {SPENT['configs']} option settings, {SPENT['rounds']} rounds, {SPENT['s']:.1f} s")
    assert SPENT["rounds"] <= BUDGET_ROUNDS


@pytest.mark.parametrize("path", playable(), ids=rel)
def test_every_option_is_documented(path):
    v = load_variant(path)
    for name, o in v.options.items():
        assert o.description.strip(), f"option {name}: no description"
        assert o.source.strip(), f"option {name}: no source"
        if o.type == "choice":
            assert len(o.values) >= 2, f"option {name}: a choice needs at least two values"
            for value, meaning in o.values:
                assert meaning.strip(), f"option {name}: value '{value}' has no meaning"
        if o.type == "int" and o.min is not None and o.max is not None:
            assert o.min <= o.parse(o.default) <= o.max


def test_flips_cover_each_kind_of_option():
    from rulekit.lang.model import OptionDef
    assert flips(OptionDef("b", "bool", False, "d"), False) == [True]
    assert flips(OptionDef("c", "choice", "x", "d", (("x", "1"), ("y", "2"), ("z", "3"))), "x") == ["y", "z"]
    assert flips(OptionDef("i", "int", 5, "d", (), 1, 10), 5) == [1, 10]
    assert flips(OptionDef("i", "int", 1, "d", (), 1, 10), 1) == [10]
    assert flips(OptionDef("u", "int", 5, "d"), 5) == [6]

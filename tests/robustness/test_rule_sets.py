"""Invariants under every rule set: each variant x (no preset and each preset) x each option value
flipped one at a time (bools flipped, every other choice value, ints at their bounds), and each
deck, a few seeded rounds with random agents. At every decision and round end: cards conserved, chips plus
pots zero-sum, a legal action exists, no hidden card in an observation, the observation is plain
JSON; the first round of each rule set replays identically."""
from __future__ import annotations

import json
import os

import pytest

from rulekit.core.errors import RulekitError

from rulekit.engine.agents import Decision
from rulekit.engine.build import build_game, load_variant
from rulekit.engine.runner import make_agents, play, replay_check, round_seed
from tests.test_invariants import make_checks

from .helpers import VARIANTS, count

ROUNDS = int(os.environ.get("RULEKIT_RULESET_ROUNDS", "3"))


def _playable() -> list[str]:
    out = []
    for f in sorted(VARIANTS.rglob("*.yaml")):
        try:
            if load_variant(str(f)).meta.abstract:
                continue
        except Exception:  # noqa: BLE001 - a broken file fails below, in its own test
            pass
        out.append(str(f))
    return out


def flips(variant, base: dict) -> list[dict]:
    """Each option changed alone from `base`: bools flipped, other choice values, int bounds."""
    out = []
    for name, o in variant.options.items():
        cur = base[name]
        if o.type == "bool":
            values = [not cur]
        elif o.type == "choice":
            values = [v for v, _ in o.values if v != cur]
        else:
            values = [v for v in (o.min, o.max) if v is not None and v != cur]
        out += [{name: v} for v in values]
    return out


def rule_sets(variant) -> list[tuple[str | None, str | None, dict]]:
    """(deck, preset, option values): every preset (and none) with each option flipped alone,
    and every other deck with the defaults."""
    from rulekit.engine.build import resolve_options
    out = []
    for preset in [None, *variant.presets]:
        base = resolve_options(variant, None, preset)
        out.append((None, preset, {}))
        out += [(None, preset, f) for f in flips(variant, base)]
    out += [(deck, None, {}) for deck in variant.decks if deck != variant.default_deck]
    return out


def _observation_is_plain(game, ctx, choice, player, actions) -> None:
    obs = Decision(game, ctx, choice, player, actions).observation
    json.dumps(obs)  # plain data only: no engine objects, no fractions, no tuples as keys


@pytest.mark.parametrize("path", _playable(), ids=lambda p: os.path.relpath(p, VARIANTS))
def test_invariants_under_every_rule_set(path):
    variant = load_variant(path)
    tried = []
    for deck, preset, opts in rule_sets(variant):
        try:
            game = build_game(variant, opts, preset, deck)
        except RulekitError as exc:  # an open-ended game that could never end is refused when built
            assert exc.first.code == "E061" and "never end" in exc.first.message, exc.first.render()
            continue
        ps = game.player_sizes()
        sizes = sorted({ps[0], ps[-1], *([variant.meta.players_default] if variant.meta.players_default in ps else [])})
        where = f"{os.path.basename(path)} deck={game.deck_name} preset={preset} {opts}"
        for i in range(ROUNDS):
            n = sizes[i % len(sizes)]
            seed = round_seed(29, i)
            checks, check_state = make_checks(game, n, game.start_chips * n)

            def all_checks(ctx, choice, player, actions):
                checks(ctx, choice, player, actions)  # cards, chips + pots, a legal action, hidden cards
                _observation_is_plain(game, ctx, choice, player, actions)
                count("invariants", 5)

            try:
                res = play(game, n, seed, make_agents(game, n, seed), rounds=1, logging=(i == 0), checks=all_checks)
                check_state(res.state)
                count("invariants", 2)
                if i == 0:
                    again = replay_check(game, res.log)
                    assert again.events == res.events
                    count("invariants")
            except AssertionError as exc:
                raise AssertionError(f"{where}, {n} players, seed {seed}: {exc}") from None
            count("rounds")
        tried.append((deck, preset, opts))
    assert len(tried) >= 1 + len(variant.presets)

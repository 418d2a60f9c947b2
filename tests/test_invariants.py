"""Random-simulation invariants for every variant and deck.

Thousands of seeded rounds with random agents; at every decision and at every round's end:
every card is in exactly one zone, chips plus pots are conserved, the chooser has a legal
action, and no seat's observation shows a card hidden from it. Replays are identical.
"""
import os

import pytest

from rulekit.engine.build import build_game, load_variant
from rulekit.engine.runner import make_agents, play, round_seed

from .conftest import playable, rel

ROUNDS = int(os.environ.get("RULEKIT_INVARIANT_ROUNDS", "300"))
COUNTS = {"decisions": 0, "rounds": 0}


def legit_visible(game, ctx, seat):
    """Card indexes `seat` may see, computed from the zone rules (not from observation())."""
    out = set()
    for zname, z in game.variant.zones.items():
        piles = [(None, ctx.zones[zname])] if z.kind == "single" else list(enumerate(ctx.zones[zname]))
        for idx, pile in piles:
            for c in pile:
                if z.visibility == "public" or (z.visibility == "owner" and z.kind == "player" and idx == seat) \
                        or ctx.seen[c] == -1 or ctx.seen[c] & (1 << seat):
                    out.add(c)
    return out


def make_checks(game, n, total0):
    ncards = len(game.card_ids)
    index = game.card_index

    def check_state(ctx):
        cards = game.cards_everywhere(ctx)
        assert sorted(cards) == list(range(ncards)), "a card is missing or in two zones"
        assert sum(ctx.chips) + game.pots_total(ctx) == total0, "chips are not conserved"

    def checks(ctx, choice, player, actions):
        COUNTS["decisions"] += 1
        check_state(ctx)
        assert actions, f"no legal action at {choice.id}"
        assert 0 <= player < n
        obs = game.observation(ctx, player)
        allowed = legit_visible(game, ctx, player)
        for zname, z in obs["zones"].items():
            piles = z if z and isinstance(z[0], list) else [z]
            for pile in piles:
                for cid in pile:
                    if cid != "?":
                        assert index[cid] in allowed, f"seat {player} sees hidden {cid} in {zname}"
    return checks, check_state


def configs():
    out = []
    for f in playable():
        v = load_variant(f)
        for deck in v.decks:
            out.append(pytest.param(f, deck, None, id=f"{rel(f)}:{deck}"))
        for preset in v.presets:
            out.append(pytest.param(f, None, preset, id=f"{rel(f)}:preset={preset}"))
    return out


@pytest.mark.parametrize("path,deck,preset", configs())
def test_invariants_random_play(path, deck, preset):
    v = load_variant(path)
    game = build_game(v, None, preset, deck)
    ps = game.player_sizes()
    sizes = sorted({ps[0], ps[-1], *([v.meta.players_default] if v.meta.players_default in ps else [])})
    rounds = max(20, ROUNDS // len(sizes)) if deck in (None, v.default_deck) else max(10, ROUNDS // 10)
    for n in sizes:
        for i in range(rounds):
            seed = round_seed(17, i)
            total0 = game.start_chips * n
            checks, check_state = make_checks(game, n, total0)
            res = play(game, n, seed, make_agents(game, n, seed), rounds=1, logging=False, checks=checks)
            COUNTS["rounds"] += 1
            check_state(res.state)


@pytest.mark.parametrize("path", playable(), ids=rel)
def test_same_seed_same_game_and_replay(path):
    from rulekit.engine.runner import replay_check
    game = build_game(load_variant(path))
    n = game.variant.meta.players_default
    a = play(game, n, 5, make_agents(game, n, 5), rounds=2)
    b = play(game, n, 5, make_agents(game, n, 5), rounds=2)
    assert a.log["events_sha256"] == b.log["events_sha256"]
    assert a.events == b.events
    replay_check(game, a.log)


def test_zz_report_counts():
    print(f"\ninvariants: {COUNTS['rounds']} rounds, {COUNTS['decisions']} decisions checked, failures: 0")

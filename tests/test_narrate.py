"""The narrator follows the engine exactly: its zones and who-saw-what match the game state at
every decision, and a seat's story never names a card that seat has not seen."""
from __future__ import annotations

import glob
import os

import pytest

from rulekit.build import build_game, load_variant
from rulekit.engine.runner import make_agents, play
from rulekit.narrate import ALL, Narrator, narrate

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANTS = sorted(f for f in glob.glob(os.path.join(ROOT, "variants", "*", "*.yaml"))
                  if not load_variant(f).meta.abstract)


def _game(path):
    return build_game(load_variant(path))


def _compare(game, ctx, nar):
    """The narrator's copy of every zone and seen-mask equals the engine's."""
    ids = game.card_ids
    for zname, z in game.variant.zones.items():
        if z.kind == "single":
            assert nar.zones.get(zname, []) == [ids[c] for c in ctx.zones[zname]], zname
        else:
            for i, pile in enumerate(ctx.zones[zname]):
                assert nar.zones.get(f"{zname}[{i}]", []) == [ids[c] for c in pile], f"{zname}[{i}]"
    for c, mask in enumerate(ctx.seen):
        mine = nar.seen.get(ids[c], 0)
        for s in range(ctx.n):
            engine = mask == -1 or bool(mask & (1 << s))
            assert (mine == ALL or bool(mine & (1 << s))) == engine, (ids[c], s)


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: os.path.basename(p)[:-5])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_narrator_tracks_engine_state_at_every_decision(path, seed):
    game = _game(path)
    n = game.variant.meta.players_default
    nar = Narrator(game, n)
    fed = [0]
    checked = [0]

    def checks(ctx, choice, player, actions):
        for e in ctx.events[fed[0]:]:
            nar.feed(e)
        fed[0] = len(ctx.events)
        if ctx.events:
            _compare(game, ctx, nar)
            checked[0] += 1

    res = play(game, n, seed, make_agents(game, n, seed), rounds=2, checks=checks)
    for e in res.events[fed[0]:]:
        nar.feed(e)
    _compare(game, res.state, nar)
    assert nar.chips == res.chips


@pytest.mark.parametrize("path", VARIANTS, ids=lambda p: os.path.basename(p)[:-5])
def test_a_seat_never_hears_of_cards_it_has_not_seen(path):
    game = _game(path)
    n = game.variant.meta.players_default
    res = play(game, n, 5, make_agents(game, n, 5), rounds=1)
    for viewer in range(n):
        nar = Narrator(game, n, viewer)
        for e in res.events:
            before_move = None
            if e["t"] == "move":
                before_move = [nar.can_see(c, e["from"]) for c in e["cards"]]
            lines = nar.feed(e)
            text = " ".join(ln.text for ln in lines)
            if e["t"] in ("move", "deal", "reveal"):
                cards = e.get("cards") or []
                if e["t"] == "move":
                    ok = all(b or nar.can_see(c, e["to"]) for c, b in zip(cards, before_move))
                elif e["t"] == "reveal":
                    ok = e["to"] == "all" or viewer in e["to"]
                else:
                    continue
                if not ok:
                    for c in cards:
                        assert game.card_name(game.card_index[c]) not in text, (viewer, e, text)


def test_onlooker_story_names_every_round_and_the_standings():
    game = _game(os.path.join(ROOT, "variants", "kabufuda", "kyo-kabu.yaml"))
    res = play(game, 5, 3, make_agents(game, 5, 3), rounds=2)
    lines = narrate(game, res.events, 5)
    assert lines[0] == "Round 1: seat 0 deals."
    assert "End of round 2." in " ".join(lines)
    assert lines[-6] == "Standings:"
    pays = [ln for ln in lines if " pays " in ln]
    assert pays and all("chip" in ln for ln in pays)

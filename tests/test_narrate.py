"""The narrator follows the engine exactly: its zones and who-saw-what match the game state at
every decision, and a seat's story never names a card that seat has not seen."""
from __future__ import annotations

import glob
import os

import pytest

from rulekit.engine.build import build_game, load_variant
from rulekit.engine.runner import make_agents, play
from rulekit.people.words import in_sentence
from rulekit.people.narrate import ALL, Narrator, narrate

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
def test_a_seat_sees_exactly_what_the_engine_shows_it(path):
    """At every decision, each seat's narrator names exactly the cards the engine's own
    observation of that seat shows (the rest are '?' there and hidden here)."""
    game = _game(path)
    n = game.variant.meta.players_default
    nars = [Narrator(game, n, s) for s in range(n)]
    fed = [0]
    compared = [0]

    def checks(ctx, choice, player, actions):
        for e in ctx.events[fed[0]:]:
            for nar in nars:
                nar.feed(e)
        fed[0] = len(ctx.events)
        for s, nar in enumerate(nars):
            obs = game.observation(ctx, s)["zones"]
            for zname, z in obs.items():
                piles = {zname: z} if game.variant.zones[zname].kind == "single" else \
                    {f"{zname}[{i}]": pile for i, pile in enumerate(z)}
                for full, pile in piles.items():
                    mine = [c if nar.can_see(c, full) else "?" for c in nar.zones.get(full, [])]
                    assert mine == pile, (s, full)
                    compared[0] += 1

    play(game, n, 5, make_agents(game, n, 5), rounds=2, checks=checks)
    assert compared[0] > 0


def test_onlooker_story_names_every_round_and_the_standings():
    game = _game(os.path.join(ROOT, "variants", "kabufuda", "kyo-kabu.yaml"))
    res = play(game, 5, 3, make_agents(game, 5, 3), rounds=2)
    lines = narrate(game, res.events, 5)
    assert lines[0] == "Round 1: seat 0 deals."
    assert "End of round 2." in " ".join(lines)
    assert lines[-6] == "Standings:"
    pays = [ln for ln in lines if " pays " in ln]
    assert pays and all("chip" in ln for ln in pays)


def test_a_columns_yaku_is_the_columns_not_the_dealers():
    """Kyō-Kabu evaluates a column's yaku for the dealer's seat (the column has no seat of its own);
    the story says the column has it, for every viewer, in the event and in the round's summary."""
    from rulekit.engine.testing import game as stacked_game, run
    g = stacked_game("kabufuda/kyo-kabu.yaml")
    # column 3 (index 2): 7 face up, 7 in the hole, 7 as the third card: Sorokabu
    o = run(g, 2, ["2-1", "1-1", "1-2", "7-1", "1-3", "7-2", "2-2"],
            by_choice={"bet": [{"col": 2, "amount": 3}], "third_card": [{"take": True}],
                       "dealer_third": [{"take": False}]})
    column = [e for e in o.events("yaku") if e["table"] == "column"]
    assert [e["yaku"] for e in column] == [["sorokabu"]] and column[0]["player"] == 0  # claimed for the dealer
    for viewer in (None, 0, 1):
        nar = Narrator(g, 2, viewer)
        said = [ln for e in o.result.events for ln in nar.feed(e) if ln.kind == "yaku"]
        assert [ln.text for ln in said] == [f"Column 3 has {in_sentence(nar.yaku_names[('column', 'sorokabu')])}."], viewer
        assert said[0].seat is None  # nobody's turn: not told as the viewer's or a seat's
        summary = [ln.text for ln in nar.round_summary() if " has " in ln.text or " have " in ln.text]
        assert summary == [said[0].text]


def test_a_players_yaku_stays_the_players():
    """Yaku claimed on a seat's own cards are that seat's (Dare's showdown Arashi of seat 1)."""
    from .test_dare import AR2, P8, play as dare
    o = dare({1: AR2, 2: P8, 0: [3, 3, 4, 4, 5, 8, 8, 8, 9]}, {"showdown_yaku": "arashi"})
    (e,) = o.events("yaku")
    assert e["player"] == 1
    g = o.result.state.game
    for viewer, text in ((1, "You have "), (0, "Seat 1 has "), (None, "Seat 1 has ")):
        nar = Narrator(g, 3, viewer)
        said = [ln for ev in o.result.events for ln in nar.feed(ev) if ln.kind == "yaku"]
        assert len(said) == 1 and said[0].text.startswith(text) and said[0].seat == 1, viewer


def test_oicho_kabu_names_the_dead_card_as_players_do():
    from rulekit.engine.testing import game as load_game
    nar = Narrator(load_game("kabufuda/oicho-kabu.yaml"), 3, viewer=1)
    assert nar.zone_words("dead[1]") == "your dead card"
    assert nar.zone_words("dead[2]") == "seat 2's dead card"


def test_a_yaku_payment_names_only_the_yaku_it_pays_not_a_hand_paid_at_the_deal():
    # Hiraya, seed 84, careful play: seat 1 is dealt the Hiraya hand (paid at the deal), then
    # makes Grass Ribbons and Thirteen Cards; the {yaku} of the later payment names those two only
    from rulekit.engine.testing import game as load
    g = load("hanafuda/hiraya.yaml")
    res = play(g, 3, 84, make_agents(g, 3, 84, "careful"), rounds=1, logging=True)
    lines = narrate(g, res.events, 3)
    assert "Seat 1 has Hiraya." in lines
    paid = [ln for ln in lines if "from each opponent" in ln]
    assert paid and all("(Grass Ribbons and Thirteen Cards, from each opponent)" in ln for ln in paid)

"""The draw before the first round (game.draw): first dealer and seats, seeded, logged, replayable.

RULES §2.2 (Hana-awase, Hiraya §5.2): earliest month deals, same month -> the higher card,
else redraw. §2.4 Kingo: earliest month deals. §7.2 Otoroku: earliest month deals, the
second-earliest sits at the dealer's right as first bettor, the latest at the dealer's left
as last bettor; ties redraw.
"""
from __future__ import annotations

import pytest

from rulekit.engine.agents import FirstLegalAgent
from rulekit.engine.runner import make_agents, play, replay_check
from rulekit.engine.testing import game

OTO = "hanafuda/otoroku.yaml"
HIR = "hanafuda/hiraya.yaml"


def draws(res):
    return [e for e in res.events if e["t"] == "draw"]


def first_dealer(res):
    return next(e["dealer"] for e in res.events if e["t"] == "round")


def month(cid):
    return int(cid.split("-")[0])


@pytest.mark.parametrize("rel,n", [("hanafuda/hana-awase.yaml", 3), (HIR, 3), ("hanafuda/kingo.yaml", 4),
                                   (OTO, 5)])
def test_the_earliest_month_deals_and_the_draw_replays(rel, n):
    g = game(rel)
    for seed in range(6):
        res = play(g, n, seed, make_agents(g, n, seed), rounds=1)
        last = draws(res)[-1]
        assert not last["tie"]
        seat_of = {p: s for s, p in enumerate(res.log["seating"])}
        dealer_player = res.log["seating"][first_dealer(res)]
        assert month(last["cards"][dealer_player]) == min(month(c) for c in last["cards"])
        assert sorted(seat_of) == list(range(n))
        replay_check(g, res.log)


def test_same_month_the_higher_card_deals_in_hiraya():
    g = game(HIR)
    seen = 0
    for seed in range(200):
        res = play(g, 3, seed, make_agents(g, 3, seed), rounds=1)
        last = draws(res)[-1]
        low = min(month(c) for c in last["cards"])
        same = [p for p, c in enumerate(last["cards"]) if month(c) == low]
        if len(same) == 2:
            pts = [g.deck.cards[g.card_index[last["cards"][p]]].attrs["points"] for p in same]
            if pts[0] != pts[1]:
                seen += 1
                assert first_dealer(res) == same[pts.index(max(pts))]
    assert seen > 0


def test_otoroku_seats_follow_the_draw_and_ties_draw_again():
    g = game(OTO)
    ties = 0
    for seed in range(5):
        res = play(g, 6, seed, make_agents(g, 6, seed), rounds=1)
        ties += sum(d["tie"] for d in draws(res))
        last = draws(res)[-1]
        keys = [last["keys"][p] for p in res.log["seating"]]   # by seat
        assert first_dealer(res) == 0
        assert keys == sorted(keys) and len(set(keys)) == 6
        # so seat 1 (the dealer's right, first bettor) drew the second-earliest month and
        # seat 5 (the dealer's left, last bettor) the latest
    assert ties > 0


class Tagged(FirstLegalAgent):
    def __init__(self, tag, seen):
        self.tag, self.seen = tag, seen

    def act(self, d):
        self.seen.append((d.player, self.tag))
        return 0


def test_players_take_their_drawn_seats():
    g = game(OTO)
    seen: list = []
    res = play(g, 4, 3, [Tagged(p, seen) for p in range(4)], rounds=1)
    seating = res.log["seating"]
    assert seating != [0, 1, 2, 3]
    assert seen and all(tag == seating[seat] for seat, tag in seen)


def test_a_given_first_dealer_skips_the_draw():
    g = game(OTO)
    res = play(g, 4, 3, make_agents(g, 4, 3), rounds=1, dealer=2)
    assert not draws(res) and first_dealer(res) == 2


@pytest.mark.parametrize("rel,n,opts", [("kabufuda/dare.yaml", 3, {}),
                                        ("kabufuda/oicho-kabu.yaml", 3, {"dealer_rotation": "every_round"})])
def test_open_ended_game_runs_until_all_but_one_are_out_of_chips(rel, n, opts):
    # RULES §9: rounds - open-ended / until all but one are out of chips
    g = game(rel, {"rounds": 0, "stock": 3, **opts})
    res = play(g, n, 11, make_agents(g, n, 11))
    # rounds are played (a game of no rounds would pass every check below), and it ends
    # exactly when all but one have lost their stock
    assert len(res.round_deltas) >= 2
    assert sum(c > -3 for c in res.chips) <= 1
    chips = [0] * n
    for k, delta in enumerate(res.round_deltas):
        chips = [a + b for a, b in zip(chips, delta)]
        alive = sum(c > -3 for c in chips)
        assert (alive <= 1) == (k == len(res.round_deltas) - 1)
    assert res.chips == chips and len(res.round_deltas) < 10_000


@pytest.mark.parametrize("rel", ["kabufuda/dare.yaml", "kabufuda/oicho-kabu.yaml"])
def test_an_open_ended_game_that_could_never_end_is_refused(rel):
    # rounds=0 without a stock: no round count and no end condition that can hold
    from rulekit.core.errors import RulekitError
    with pytest.raises(RulekitError) as exc:
        game(rel, {"rounds": 0})
    d = exc.value.first
    assert d.code == "E061" and "never end" in d.message and d.span.file.endswith(rel.split("/")[1])


def test_the_transcript_and_the_table_tell_the_draw_and_the_first_dealer():
    from rulekit.people.narrate import narrate
    from rulekit.people.transcript import transcript
    g = game(OTO)
    res = play(g, 4, 3, make_agents(g, 4, 3), rounds=1)
    drawn = [e for e in res.events if e["t"] == "draw"][-1]
    seating = res.log["seating"]
    text = transcript(g, res.events, res.chips)
    names = [g.card_name(g.card_index[c]) for c in drawn["cards"]]
    draw_line = next(ln for ln in text.splitlines() if "Draw for the seats and the deal" in ln)
    assert all(f"player {p + 1} {names[p]}" in draw_line for p in range(4))
    seat_line = next(ln for ln in text.splitlines() if ln.strip().startswith("By the draw"))
    assert all(f"player {p + 1} at seat {s}" in seat_line for s, p in enumerate(seating))
    assert text.index("Draw for") < text.index("== Round 1")
    story = narrate(g, res.events, 4)
    assert any(s.startswith("Draw for the seats and the deal") for s in story)
    assert any(s.startswith("By the draw") and "deals first (seat 0)" in s for s in story)


def test_a_dealer_only_draw_names_who_deals_first():
    from rulekit.people.transcript import transcript
    g = game("hanafuda/hana-awase.yaml")
    res = play(g, 3, 5, make_agents(g, 3, 5), rounds=1)
    first = next(e for e in res.events if e["t"] == "seating")["dealer"]
    text = transcript(g, res.events)
    assert f"Seat {first} drew the lowest card and deals first." in text

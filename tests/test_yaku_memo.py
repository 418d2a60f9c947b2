"""Yaku results kept across rounds (Game.yaku_memo): the same yaku and the same budget units as
evaluating afresh, keyed by what the table reads, bounded, and never for what changes in a round."""
from __future__ import annotations

import itertools
import os

import pytest

from rulekit.engine import game as game_module
from rulekit.engine.build import build_game, load_variant
from rulekit.engine.game import YakuMemo
from rulekit.engine.runner import make_agents, play
from rulekit.lang.expr.functions import REGISTRY, YAKU_CALL_COST
from rulekit.lang.expr.scope import EVAL_BUDGET

from .test_language_options import variant

OTOROKU = os.path.join(os.path.dirname(__file__), "..", "variants", "hanafuda", "otoroku.yaml")
RANK = REGISTRY["yaku_rank"].impl
VALUE = REGISTRY["yaku_value"].impl


def counted(game, table: str) -> list[int]:
    """Count the calls of a generated table (the memo must spare some)."""
    calls = [0]
    inner = game.yaku_fns[table]

    def table_fn(ctx, cards, seat):
        calls[0] += 1
        return inner(ctx, cards, seat)
    game.yaku_fns[table] = table_fn
    return calls


def forgetful(game):
    """The game evaluating every hand afresh each round (its round's results still kept)."""
    game.plans.yaku_memo = YakuMemo(frozenset(), frozenset())
    return game


def assess(game, ctx, cards, seat, dealer, fn=RANK, table="teyaku"):
    """A new round at `dealer`: (the function's result, the budget units it spent)."""
    game.reset_round(ctx)
    ctx.dealer, ctx.budget = dealer, EVAL_BUDGET
    got = fn(ctx, table, cards, seat)
    return got, EVAL_BUDGET - ctx.budget


def test_a_hand_seen_in_an_earlier_round_is_not_evaluated_again_and_costs_the_same():
    v = load_variant(OTOROKU)
    g, ref = build_game(v), forgetful(build_game(v))
    calls = counted(g, "teyaku")
    a, b = g.new_ctx(6, 0, None), ref.new_ctx(6, 0, None)
    idx = g.card_index
    hand = [idx[c] for c in g.card_ids[20:22]]
    first = assess(g, a, hand, 2, 0)
    again = assess(g, a, hand, 2, 0)
    assert calls[0] == 1  # the second round took it from the memo
    assert first == again == assess(ref, b, hand, 2, 0) == assess(ref, b, hand, 2, 0)
    assert first[1] > 0


def test_the_dealer_is_part_of_the_key_of_a_table_that_reads_it():
    # Otoroku's teyaku depend on who deals (the dealer's Birds, the bettors' Undefeatable)
    v = load_variant(OTOROKU)
    g, ref = build_game(v), forgetful(build_game(v))
    assert "teyaku" in g.yaku_memo().by_dealer
    a, b = g.new_ctx(6, 0, None), ref.new_ctx(6, 0, None)
    differs = []
    for c1, c2 in itertools.permutations(range(len(g.card_ids)), 2):
        if assess(ref, b, [c1, c2], 1, 1) != assess(ref, b, [c1, c2], 1, 3):
            differs.append([c1, c2])
    assert differs, "no two-card hand whose teyaku depend on the dealer"
    for hand in differs[:20]:
        for dealer in (1, 3, 1, 3):
            assert assess(g, a, hand, 1, dealer) == assess(ref, b, hand, 1, dealer), (hand, dealer)


def test_a_remembered_hand_still_runs_out_of_budget_where_it_would():
    v = load_variant(OTOROKU)
    g, ref = build_game(v), forgetful(build_game(v))
    a, b = g.new_ctx(6, 0, None), ref.new_ctx(6, 0, None)
    hand = [g.card_index[c] for c in g.card_ids[8:10]]
    _, cost = assess(g, a, hand, 2, 0)
    outcomes = []
    for game, ctx in ((g, a), (ref, b)):
        game.reset_round(ctx)
        ctx.dealer, ctx.budget = 0, cost - 1
        with pytest.raises(Exception) as err:
            RANK(ctx, "teyaku", hand, 2)
        outcomes.append((type(err.value), str(err.value)))
        assert "budget" in str(err.value)
    assert outcomes[0] == outcomes[1]


def test_the_memo_keeps_at_most_its_size_and_plays_the_same_games(monkeypatch):
    monkeypatch.setattr(game_module, "YAKU_MEMO_SIZE", 16)
    v = load_variant(OTOROKU)
    g, ref = build_game(v), forgetful(build_game(v))
    for seed in range(3):
        a = play(g, 6, seed, make_agents(g, 6, seed), rounds=6, logging=True)
        b = play(ref, 6, seed, make_agents(ref, 6, seed), rounds=6, logging=True)
        assert a.events == b.events and a.chips == b.chips
        assert 0 < len(g.yaku_memo().kept) <= 16


def test_a_table_reading_the_round_number_is_kept_for_its_round_only(tmp_path):
    p = variant(tmp_path, ("      value: 2\n", "      value: \"2 + round_no\"\n"))
    g = build_game(load_variant(p))
    assert g.yaku_cacheable == {"hand": True} and not g.yaku_memo().lasting
    ctx = g.new_ctx(3, 0, None)
    idx = g.card_index
    pair = [idx["3-1"], idx["3-2"]]
    for round_no in (0, 1, 4):
        g.reset_round(ctx)
        ctx.round_no, ctx.budget = round_no, EVAL_BUDGET
        assert VALUE(ctx, "hand", pair, 1) == 2 + round_no


def test_a_table_reading_only_the_cards_is_kept_whoever_deals(tmp_path):
    # (`<= 2`: a condition not starting with an exact hand size, so larger hands are evaluated)
    g = build_game(load_variant(variant(tmp_path, ('when: "count(cards) == 2 and', 'when: "count(cards) <= 2 and'))))
    assert g.yaku_memo().lasting == {"hand"} and not g.yaku_memo().by_dealer
    calls = counted(g, "hand")
    ctx = g.new_ctx(3, 0, None)
    pair = [g.card_index["3-1"], g.card_index["3-2"]]
    assert [assess(g, ctx, pair, 1, d, VALUE, "hand")[0] for d in (0, 1, 2)] == [2, 2, 2]
    assert calls[0] == 1
    big = [g.card_index[c] for c in ("3-1", "3-2", "4-1", "4-2")]  # more cards than a memo keeps
    for d in (0, 1):
        assess(g, ctx, big, 1, d, VALUE, "hand")
    assert calls[0] == 3


def test_a_hand_of_a_size_no_yaku_wants_is_not_evaluated_and_costs_the_call_only(tmp_path):
    # the tutorial's one yaku wants exactly two cards (count(cards) == 2 and ...)
    g = build_game(load_variant(variant(tmp_path)))
    calls = counted(g, "hand")
    ctx = g.new_ctx(3, 0, None)
    idx = g.card_index
    big = [idx[c] for c in ("3-1", "3-2", "4-1")]
    assert [assess(g, ctx, big, 1, d, VALUE, "hand") for d in (0, 1)] == [(0, YAKU_CALL_COST + 3)] * 2
    assert calls[0] == 0
    assert assess(g, ctx, [idx["3-1"], idx["3-2"]], 1, 0, VALUE, "hand")[0] == 2 and calls[0] == 1


def _spent_each(game, ctx, calls, cards, seat, times=3):
    """The budget units each of `times` calls in one round spent (the direct functions generated
    code calls, the registered one and the claim step's)."""
    game.reset_round(ctx)
    ctx.dealer, ctx.budget = 0, EVAL_BUDGET
    out = []
    for _ in range(times):
        for call in calls:
            before = ctx.budget
            call(ctx, cards, seat)
            out.append(before - ctx.budget)
    return out


@pytest.mark.parametrize("kept", ["game", "round"])
def test_a_hand_asked_again_in_a_round_is_charged_as_evaluating_it_again_would_be(tmp_path, kept):
    """The budget's cost model: every yaku call is charged the units its table's evaluation
    spends, whether the result is worked out or taken from what the game (memo) or the round
    keeps; asked again in the same round, the same units again (no more, no fewer), and the same
    as a game that keeps nothing across rounds."""
    if kept == "game":
        v = load_variant(OTOROKU)
        table, cards_of, seat = "teyaku", lambda g: [g.card_index[c] for c in g.card_ids[20:22]], 2
        g, ref = build_game(v), forgetful(build_game(v))
        assert "teyaku" in g.yaku_memo().lasting
    else:  # a table reading the round number: kept for its round only
        # (its condition calls a function for each card: an evaluation that spends units)
        p = variant(tmp_path, ("      value: 2\n", "      value: \"2 + round_no\"\n"),
                    ('when: "count(cards) == 2 and', 'when: "count(range(count(cards) * 10)) == 20 and'))
        table, cards_of, seat = "hand", lambda g: [g.card_index["3-1"], g.card_index["3-2"]], 1
        g, ref = build_game(load_variant(p)), build_game(load_variant(p))
        assert not g.yaku_memo().lasting
    spent = []
    for game in (g, ref):
        ctx = game.new_ctx(3 if kept == "round" else 6, 0, None)
        fns = game.yaku_calls.tables[table]
        registered = lambda c, cards, s: RANK(c, table, cards, s)  # noqa: E731
        spent.append(_spent_each(game, ctx, [fns.rank, fns.value, registered], cards_of(game), seat))
        claims = _spent_each(game, ctx, [fns.claimed], cards_of(game), seat)
        units = claims[0]
        assert units > 0 and claims == [units] * 3  # (the claim step's call: its units alone, each time)
        assert spent[-1] == [units + YAKU_CALL_COST + 2] * 9
    assert spent[0] == spent[1]

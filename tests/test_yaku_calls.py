"""The direct yaku calls of generated code (engine.yakucall): yaku/yaku_value/yaku_rank/new_yaku of
a constant table give what the registered functions give, spend the same budget units, run out
of budget where they do, and go through ctx.yaku_eval while a watcher asks for it."""
from __future__ import annotations

import os
import random

import pytest

from rulekit.engine.build import build_game, load_variant
from rulekit.lang.expr.functions import REGISTRY, YAKU_CALL_COST, EvalError
from rulekit.lang.expr.scope import EVAL_BUDGET

VARIANTS = os.path.join(os.path.dirname(__file__), "..", "variants")
GAMES = ["hanafuda/otoroku", "kabufuda/kyo-kabu", "hanafuda/hiraya", "kabufuda/dare"]
KINDS = ["yaku", "yaku_value", "yaku_rank", "new_yaku"]


def built(name: str, codegen: bool = True):
    return build_game(load_variant(os.path.join(VARIANTS, name + ".yaml")), codegen=codegen)


def call(fn, ctx, table, kind, cards, card, seat, direct):
    """One call, as generated code makes it (direct) or as the registry's function is called."""
    if kind == "new_yaku":
        return fn(ctx, cards, card, seat) if direct else fn(ctx, table, cards, card, seat)
    return fn(ctx, cards, seat) if direct else fn(ctx, table, cards, seat)


@pytest.mark.parametrize("name", GAMES)
def test_direct_calls_give_and_spend_what_the_registered_functions_do(name):
    g, ref, plain = built(name), built(name), built(name, codegen=False)
    plain.yaku_cacheable = {}  # the reference evaluates every yaku every time, by its closures
    n = g.variant.meta.players_default
    a, b, c = g.new_ctx(n, 1, None), ref.new_ctx(n, 1, None), plain.new_ctx(n, 1, None)
    rng = random.Random(5)
    deck = len(g.card_ids)
    for rnd in range(40):
        for game, ctx in ((g, a), (ref, b), (plain, c)):
            game.reset_round(ctx)
            ctx.budget, ctx.dealer = EVAL_BUDGET, rnd % n
        for _ in range(30):
            table = rng.choice(sorted(g.yaku))
            kind = rng.choice(KINDS)
            # few distinct hands, so the round's cache and the game's memo are both met
            cards = rng.sample(range(min(deck, 12)), rng.randrange(0, 5))
            card = rng.choice([x for x in range(deck) if x not in cards])
            seat = rng.randrange(n)
            direct = g.yaku_calls.caller(kind, table)
            got = call(direct, a, table, kind, cards, card, seat, True)
            want = call(REGISTRY[kind].impl, b, table, kind, cards, card, seat, False)
            fresh = call(REGISTRY[kind].impl, c, table, kind, cards, card, seat, False)
            assert got == want == fresh, (table, kind, cards, seat)
            assert a.budget == b.budget, (table, kind, cards, seat)


@pytest.mark.parametrize("by_seat", [False, True])
@pytest.mark.parametrize("name", ["hanafuda/otoroku", "kabufuda/kyo-kabu"])
def test_the_claim_and_the_charged_calls_keep_a_table_by_class_or_by_seat_as_the_registered_ones_do(name, by_seat):
    games = built(name), built(name)
    for game in games:
        if by_seat:  # its tables kept across rounds by seat and dealer, not by the class of the place
            game.yaku_memo().turning.clear()
            if game.yaku_calls is not None:
                game.yaku_calls.entries = None  # bound afresh
    g, ref = games
    n = g.variant.meta.players_default
    a, b = g.new_ctx(n, 1, None), ref.new_ctx(n, 1, None)
    rng = random.Random(7)
    deck = len(g.card_ids)
    claims = 0
    for rnd in range(40):
        for game, ctx in ((g, a), (ref, b)):
            game.reset_round(ctx)
            ctx.budget, ctx.dealer = EVAL_BUDGET, rnd % n
        for _ in range(30):
            table = rng.choice(sorted(g.yaku))
            kind = rng.choice(["claim", "yaku", "yaku_value", "yaku_rank"])
            cards = rng.sample(range(min(deck, 10)), rng.randrange(0, 5))
            seat = rng.randrange(n)
            want = REGISTRY["yaku" if kind == "claim" else kind].impl(b, table, cards, seat)
            if kind == "claim":  # the claim step's ids: not charged the call, only the units a memo hit stands for
                got = g.yaku_calls.table(table).claimed(a, cards, seat)
                b.budget += YAKU_CALL_COST + len(cards)
                claims += 1
            else:
                got = g.yaku_calls.caller(kind, table)(a, cards, seat)
            assert got == want and a.budget == b.budget, (table, kind, cards, seat)
    kept = g.yaku_memo().kept
    assert claims and kept and kept.keys() == ref.yaku_memo().kept.keys()
    # by seat: every key ends (seat count, dealer or 0, table); by class: (seat count, (), table)
    assert all((key[-2] == ()) != by_seat for key in kept)


@pytest.mark.parametrize("kind", KINDS)
def test_a_direct_call_runs_out_of_budget_where_the_registered_one_does(kind):
    g, ref = built("hanafuda/otoroku"), built("hanafuda/otoroku")
    a, b = g.new_ctx(6, 0, None), ref.new_ctx(6, 0, None)
    hand = [g.card_index[x] for x in g.card_ids[8:10]]
    met = set()
    for left in (0, 21, 22, 23, 45, 50, 10_000):
        outcomes = []
        for ctx, fn, direct in ((a, g.yaku_calls.caller(kind, "teyaku"), True),
                                (b, REGISTRY[kind].impl, False)):
            ctx.game.reset_round(ctx)
            ctx.budget = left
            try:
                outcomes.append(("ok", call(fn, ctx, "teyaku", kind, hand, 0, 2, direct), ctx.budget))
            except EvalError as exc:
                outcomes.append(("error", str(exc), ctx.budget))
        assert outcomes[0] == outcomes[1], (left, outcomes)
        met.add(outcomes[0][0])
    assert met == {"ok", "error"}  # both sides of the limit were tried


def test_generated_code_calls_the_table_function_and_a_watcher_sees_every_call():
    g = built("hanafuda/otoroku")
    procs = " ".join(getattr(fn, "source", "") for fn in g.procedures.values())
    assert "ctx.yaku_eval" not in procs and "_yaku_rank" not in procs
    seen = []
    calls = g.yaku_calls
    calls.through_eval = True
    try:
        ctx = g.new_ctx(6, 3, None)
        inner = ctx.yaku_eval

        def watched(table, cards, seat):
            seen.append((table, tuple(cards), seat))
            return inner(table, cards, seat)
        ctx.yaku_eval = watched
        g.reset_round(ctx)
        ctx.budget = EVAL_BUDGET
        hand = [g.card_index[x] for x in g.card_ids[20:22]]
        first = calls.caller("yaku_rank", "teyaku")(ctx, hand, 2)
        again = calls.caller("yaku_rank", "teyaku")(ctx, hand, 2)
    finally:
        calls.through_eval = False
        g.bind_yaku()
    assert first == again and seen == [("teyaku", tuple(hand), 2)] * 2
    ctx.yaku_eval = inner
    calls.caller("yaku_rank", "teyaku")(ctx, hand, 2)
    assert len(seen) == 2  # bound back: the direct path again


def test_a_table_whose_yaku_all_want_a_hand_size_skips_other_sizes_only_when_its_claims_are_plain():
    import dataclasses

    from rulekit.engine.yakugen import hand_sizes
    g = built("hanafuda/otoroku")
    entries = list(g.yaku["teyaku"])
    # every teyaku wants two cards but goshita-gomai (five); the claims compare seats only
    assert hand_sizes(entries) == frozenset({2, 5})
    # a claim that looks at the cards could fail or spend: no sizes are skipped
    looks = dataclasses.replace(entries[0], claim=entries[0].when)
    assert hand_sizes([looks, *entries[1:]]) is None
    # a condition that does not start with the hand's size: none skipped either
    open_when = dataclasses.replace(entries[0], when=entries[3].claim)
    assert hand_sizes([open_when, *entries[1:]]) is None
    # and the table gives nothing, spending nothing, for a three-card hand
    ctx = g.new_ctx(6, 1, None)
    g.reset_round(ctx)
    ctx.budget, ctx.dealer = EVAL_BUDGET, 0
    fn = g.yaku_calls.caller("yaku", "teyaku")
    assert fn(ctx, [0, 4, 8], 1) == []
    assert ctx.budget == EVAL_BUDGET - YAKU_CALL_COST - 3

"""Yaku results kept by the class of the seat's place from the dealer, and under every order of the
cards (engine.yakuturn): the proofs accept only tables that read the seat and the dealer in
comparisons that turn with the table, and the cards in ways their order cannot change; a table so
kept gives the same hits, value, rank and budget units as evaluating afresh for every seat,
dealer, table size and order of the cards."""
from __future__ import annotations

import itertools

import pytest

from rulekit.engine.build import build_game, load_variant
from rulekit.engine.yakuturn import order_free, turns_with_table
from rulekit.lang.expr.functions import REGISTRY
from rulekit.lang.expr.scope import EVAL_BUDGET

from .test_language_options import variant
from .test_yaku_memo import OTOROKU, counted, forgetful

IDS, VALUE, RANK = (REGISTRY[f].impl for f in ("yaku", "yaku_value", "yaku_rank"))


def table_fns(game, table: str) -> list:
    return [f for y in game.yaku[table] for f in (y.when, y.claim, y.value, y.rank) if f is not None]


def claimed(tmp_path, claim: str):
    """The tutorial's game with its one yaku claimed only where `claim` holds."""
    return build_game(load_variant(variant(tmp_path, ("      value: 2\n", f"      value: 2\n      claim: \"{claim}\"\n"))))


def test_the_proofs_accept_otorokus_teyaku_and_its_memo_keeps_them_by_place_and_cards_in_order():
    g = build_game(load_variant(OTOROKU))
    assert turns_with_table(table_fns(g, "teyaku")) and order_free(table_fns(g, "teyaku"))
    memo = g.yaku_memo()
    assert "teyaku" in memo.turning and "teyaku" in memo.by_dealer and "teyaku" in memo.order_free


@pytest.mark.parametrize("claim", [
    "seat != dealer and seat == right_of(right_of(dealer))",
    "left_of(seat) == dealer or seat == seat",
])
def test_the_proof_accepts_comparisons_of_seats_next_to_the_seat_and_the_dealer(tmp_path, claim):
    g = claimed(tmp_path, claim)
    assert turns_with_table(table_fns(g, "hand")) and set(g.yaku_memo().turning) == {"hand"}


@pytest.mark.parametrize("claim", [
    "seat == 0",                           # a seat number as a number
    "seat < 3",                            # an order of seats
    "count(hand[seat]) == 2",              # a zone indexed by the seat
    "count(seats) > 2 and seat == dealer",  # the seats
    "(seat + 1) % n_players == dealer",    # the seat in arithmetic
    "dealer == 1",                         # the dealer as a number
    "left_of(seat) != 2",                  # a neighbour compared with a number
    "seat in [dealer]",                    # another comparison
    "let s = seat in s == dealer",         # the seat under another name
    "seat == dealer and any(cards, c -> c.value == seat)",  # the seat as a card's value
    "seat == first(seats_from(dealer))",   # a function of the seat the proof does not read
    "yaku_rank('hand', cards, seat) >= 0",  # another evaluation given the seat
])
def test_the_proof_rejects_tables_reading_seats_any_other_way(tmp_path, claim):
    g = claimed(tmp_path, claim)
    assert not turns_with_table(table_fns(g, "hand"))
    assert not g.yaku_memo().turning


def _hands(game) -> list[list[int]]:
    """Every two-card hand that makes a teyaku for some seat, a few that make none, and a few of
    three cards (kept too)."""
    ref = forgetful(build_game(game.variant))
    ctx = ref.new_ctx(4, 0, None)
    making, none = [], []
    for hand in itertools.combinations(range(len(game.card_ids)), 2):
        got = False
        for seat, dealer in ((0, 0), (3, 0), (1, 0)):  # the dealer, the last bettor, another
            ctx.yaku_cache, ctx.dealer, ctx.budget = {}, dealer, EVAL_BUDGET
            got = got or bool(IDS(ctx, "teyaku", list(hand), seat))
        (making if got else none).append(list(hand))
    assert len(making) > 50
    hands = making + none[::97] + [[a, b, c] for a, b, c in itertools.combinations(range(0, 48, 5), 3)][:12]
    return hands + [h[::-1] for h in hands[::2]]  # (and some in the other order)


def _everything(game, ctx, hand, seat, dealer) -> list:
    """What every way of asking gives for the hand (each from an empty round cache): the
    registered functions and those generated code calls, with the units each spent, the claim
    step's ids and the engine's hits."""
    game.bind_yaku()
    calls = game.yaku_calls.table("teyaku")
    out: list = []
    for fn in (IDS, VALUE, RANK, None, calls.ids, calls.value, calls.rank, calls.claimed):
        ctx.yaku_cache, ctx.dealer, ctx.budget = {}, dealer, EVAL_BUDGET
        if fn is None:
            out.append([(h.id, h.value, h.rank, h.group) for h in game.yaku_eval_for(ctx)("teyaku", hand, seat)])
        elif fn in (IDS, VALUE, RANK):
            out.append((fn(ctx, "teyaku", hand, seat), EVAL_BUDGET - ctx.budget))
        else:
            out.append((fn(ctx, hand, seat), EVAL_BUDGET - ctx.budget))
    return out


def test_a_table_kept_by_place_gives_what_evaluating_afresh_gives_for_every_seat_and_dealer():
    v = load_variant(OTOROKU)
    g, ref = build_game(v), forgetful(build_game(v))
    calls, fresh = counted(g, "teyaku"), counted(ref, "teyaku")
    hands = _hands(g)
    for n in range(2, 8):
        a, b = g.new_ctx(n, 0, None), ref.new_ctx(n, 0, None)
        for dealer, seat in itertools.product(range(n), range(n + 1)):  # (seat n: outside the table)
            for hand in hands:
                got = [_everything(game, ctx, hand, seat, dealer) for game, ctx in ((g, a), (ref, b))]
                assert got[0] == got[1], (n, dealer, seat, hand)
    # every place of every table size evaluated once per hand, and the seats outside per dealer
    places = sum(n + n for n in range(2, 8))
    assert calls[0] <= len(hands) * places < fresh[0] // 5


def test_places_with_the_same_comparisons_share_a_class():
    # Otoroku's teyaku tell the dealer, the last bettor (the dealer's left: place n - 1) and the
    # other bettors apart, and nothing else
    places = build_game(load_variant(OTOROKU)).yaku_memo().turning["teyaku"]
    assert places.classes(6) == (0, 1, 1, 1, 1, 5)
    assert places.classes(3) == (0, 1, 2) and places.classes(2) == (0, 1)


def counted_otoroku():
    """Otoroku for six with its teyaku evaluations counted: (game, the count, a game state)."""
    g = build_game(load_variant(OTOROKU))
    return g, counted(g, "teyaku"), g.new_ctx(6, 0, None)


def test_a_place_remembered_under_one_dealer_serves_the_same_place_under_another():
    g, calls, ctx = counted_otoroku()
    hand = [g.card_index[c] for c in g.card_ids[20:22]]
    for dealer in range(6):
        for seat in range(6):
            ctx.yaku_cache, ctx.dealer, ctx.budget = {}, dealer, EVAL_BUDGET
            RANK(ctx, "teyaku", hand, seat)
    assert calls[0] == 3  # one evaluation per class of places, not per seat and dealer


def test_a_table_reading_neither_seat_nor_dealer_is_kept_once_for_every_seat(tmp_path):
    g = claimed(tmp_path, "seat == seat")
    assert set(g.yaku_memo().turning) == {"hand"} and not g.yaku_memo().by_dealer
    assert g.yaku_memo().turning["hand"].classes(4) == (0, 0, 0, 0)
    calls = counted(g, "hand")
    ctx = g.new_ctx(4, 0, None)
    pair = [g.card_index["3-1"], g.card_index["3-2"]]
    for dealer, seat in itertools.product(range(4), range(4)):
        ctx.yaku_cache, ctx.dealer, ctx.budget = {}, dealer, EVAL_BUDGET
        assert VALUE(ctx, "hand", pair, seat) == 2
    assert calls[0] == 1


@pytest.mark.parametrize("kind", ["rank", "ids", "value", "claimed"])
def test_each_function_generated_code_calls_finds_a_class_on_its_own(kind):
    # only this function asks (each keeps and looks up the memo itself): what it finds for a seat
    # is what evaluating afresh gives, with the same units
    v = load_variant(OTOROKU)
    g, ref = build_game(v), forgetful(build_game(v))
    hands = _hands(g)[::3]
    for n in (3, 6):
        a, b = g.new_ctx(n, 0, None), ref.new_ctx(n, 0, None)
        for dealer, seat in itertools.product(range(n), range(n)):
            for hand in hands:
                out = []
                for game, ctx in ((g, a), (ref, b)):
                    game.bind_yaku()
                    fn = getattr(game.yaku_calls.table("teyaku"), kind)
                    ctx.yaku_cache, ctx.dealer, ctx.budget = {}, dealer, EVAL_BUDGET
                    out.append((fn(ctx, hand, seat), EVAL_BUDGET - ctx.budget))
                assert out[0] == out[1], (n, dealer, seat, hand)


def when(tmp_path, condition: str):
    """The tutorial's game with its one yaku made when `condition` holds."""
    return build_game(load_variant(variant(tmp_path, (
        'when: "count(cards) == 2 and cards[0].value == cards[1].value"', f'when: "{condition}"'))))


def test_the_tutorials_pair_reads_its_cards_by_place_so_is_not_order_free(tmp_path):
    g = build_game(load_variant(variant(tmp_path)))
    assert not order_free(table_fns(g, "hand")) and not g.yaku_memo().order_free


@pytest.mark.parametrize("condition", [
    "count(cards) == 2 and sorted(map(cards, c -> c.value)) == [1, 9]",
    "count(cards) == 2 and any(cards, c -> c.value == 9) and all(cards, c -> c.value >= 1 and not c.value > 9)",
    "count(cards) == 2 and (any(cards, c -> 'x' in c.tags) or any(cards, c -> c.value != 3))",
    "count(cards) == 2 and first(sorted(map(cards, c -> c.value))) == 1",
])
def test_the_order_proof_accepts_cards_read_in_ways_their_order_cannot_change(tmp_path, condition):
    g = when(tmp_path, condition)
    assert order_free(table_fns(g, "hand")) and g.yaku_memo().order_free == {"hand"}


@pytest.mark.parametrize("condition", [
    "count(cards) == 2 and first(cards).value == 1",                      # the first card
    "count(cards) == 2 and cards[1].value == 1",                           # a card by its place
    "count(cards) == 2 and map(cards, c -> c.value) == [1, 9]",            # the values in order
    "count(cards) == 2 and sum(map(cards, c -> c.value)) == 10",           # a sum (the proof knows no sum)
    "count(cards) == 2 and any(cards, c -> c.value / 0 > 1)",             # a test that may fail part-way
    "count(cards) == 2 and sorted(map(cards, c -> c.tags)) == []",         # lists put in order
    "count(cards) == 2 and yaku_value('hand', cards, 0) > 0",              # another evaluation given the cards
])
def test_the_order_proof_rejects_cards_read_any_other_way(tmp_path, condition):
    g = when(tmp_path, condition)
    assert not order_free(table_fns(g, "hand")) and not g.yaku_memo().order_free


def test_a_hand_and_the_same_cards_in_another_order_are_evaluated_once():
    g, calls, ctx = counted_otoroku()
    a, b = g.card_index[g.card_ids[1]], g.card_index[g.card_ids[30]]
    for hand in ([a, b], [b, a], [a, b], [b, a]):
        for seat in (1, 2):  # (one class of places: bettors but the last)
            ctx.yaku_cache, ctx.budget = {}, EVAL_BUDGET
            RANK(ctx, "teyaku", hand, seat)
    assert calls[0] == 1


def test_cards_outside_the_deck_are_kept_in_their_own_order(tmp_path):
    # `any` stops at the first card that makes it: the cards in one order give a yaku, in the
    # other they fail on a card that is not in the deck, as evaluating afresh does every time
    g, ref = (when(tmp_path, "count(cards) == 2 and any(cards, c -> c.value == 1)") for _ in range(2))
    forgetful(ref)
    ace = g.card_index["1-1"]
    deck = len(g.card_ids)
    out = []
    for game in (g, ref):
        ctx = game.new_ctx(4, 0, None)
        got = []
        for hand in ([ace, deck + 5], [deck + 5, ace], [ace, deck + 5]):
            ctx.yaku_cache, ctx.budget = {}, EVAL_BUDGET
            try:
                got.append(VALUE(ctx, "hand", hand, 1))
            except Exception as e:  # noqa: BLE001 - the error itself is compared
                got.append(type(e).__name__)
        out.append(got)
    assert out[0] == out[1] and out[0][0] == 2 and out[0][1] != 2

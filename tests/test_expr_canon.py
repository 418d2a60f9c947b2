"""treefacts.canon, the key of a yaku table's shared calls (MEMO): equal for subexpressions that
differ only in the names they bind, never for ones that read different values."""
from __future__ import annotations

import os
import re

import pytest

from rulekit.engine.build import build_game, load_variant
from rulekit.lang.expr.parser import parse
from rulekit.lang.expr.treefacts import canon

from .conftest import VARIANTS


@pytest.mark.parametrize("a, b", [
    ("map(cards, c -> c.value)", "map(cards, d -> d.value)"),
    ("let x = count(cards) in x + 1", "let y = count(cards) in y + 1"),
    ("map(cards, a -> map(cards, b -> a.value + b.value))", "map(cards, x -> map(cards, y -> x.value + y.value))"),
    ("map(cards, a -> let b = a.value in b + seat)", "map(cards, p -> let q = p.value in q + seat)"),
])
def test_subexpressions_differing_only_in_bound_names_are_equal(a, b):
    assert canon(parse(a)) == canon(parse(b))


@pytest.mark.parametrize("a, b", [
    # `c` is free in the second: it reads another value than the lambda's parameter
    ("map(cards, c -> c.value)", "map(cards, d -> c.value)"),
    ("let x = count(cards) in x + 1", "let y = count(cards) in x + 1"),
    # the inner name bound again shadows the outer one: which of the two is read matters
    ("map(cards, a -> map(cards, b -> a.value))", "map(cards, a -> map(cards, b -> b.value))"),
    ("map(cards, a -> map(cards, a -> map(cards, b -> a.value)))",
     "map(cards, a -> map(cards, a -> map(cards, b -> b.value)))"),
    ("map(cards, a -> map(cards, a -> a.value))", "map(cards, a -> map(cards, b -> a.value))"),
    # a free name is its text, even where the same text is bound elsewhere
    ("map(cards, c -> seat)", "map(cards, seat -> seat)"),
    ("map(cards, c -> c.value)", "map(cards, c -> c.month)"),
    ("map(cards, c -> c.value)", "map(hand, c -> c.value)"),
])
def test_subexpressions_reading_different_values_differ(a, b):
    assert canon(parse(a)) != canon(parse(b))


SLOT = re.compile(r"\b(?:MEMO\[(\d+)\]|M(\d+)) if ")


def test_a_function_called_twice_in_one_yaku_shares_the_slot_of_its_other_calls():
    # Otoroku's Fourteen calls ranks(cards) twice; the inliner names the parameters of its
    # lambda apart per call, and both calls still read the table's one shared slot
    game = build_game(load_variant(os.path.join(VARIANTS, "hanafuda", "otoroku.yaml")))
    src = game.yaku_fns["teyaku"].source
    fourteen = src.split("otoroku.yaml:338\n")[1].split("otoroku.yaml:")[0]
    slots = [a or b for a, b in SLOT.findall(fourteen)]
    assert len(slots) == 2 and len(set(slots)) == 1, fourteen
    assert fourteen.count("H_built(") == 2  # each only inside its slot, computed at its first use
    everywhere = {a or b for a, b in SLOT.findall(src)}
    assert everywhere == set(slots)  # every yaku's ranks(cards) is the same slot

"""A choice whose options are one value per item of a list (rulekit.engine.genlazy): in random play
only the drawn option is worked out, with the same draws, answers, chips and statistics as the
options listed in full; a seat asked is handed them all; an option that fails when drawn fails
with the error the full list gives, at its place in the rules."""
from __future__ import annotations

import dataclasses
import re

import pytest

from rulekit.core.errors import RuleError
from rulekit.engine.build import build_game, check_variant, load_variant
from rulekit.engine.genlazy import mapped
from rulekit.engine.runner import play, run_chunk
from rulekit.engine.testing import variant_path

CHILD = '''id: lazy
extends: {parent}
meta:
  names: {{en: Lazy}}
round:
  - id: steps
    name: Steps
    text: Cards given back.
    steps:
      - for: p
        in: seats
        do:
          - choose: give
            player: p
            options:
              cards: "{options}"
{second}
          - if: "count(cards) > 0"
            then:
              - move: {{from: "hand[p]", to: deck, cards: cards}}
              - pay: {{from: p, to_pot: pot, amount: "{amount}"}}
'''
MAPPED = "map(hand[p], c -> [c]) + (if p == 0 then [[]] else [])"


def build(tmp_path, options: str = MAPPED, second: str = "", amount: str = "sum(cards, c -> c.value)",
          codegen: bool = True, check: bool = True):
    p = tmp_path / "lazy.yaml"
    p.write_text(CHILD.format(parent=variant_path("hanafuda/kingo.yaml"), options=options, second=second,
                              amount=amount), encoding="utf-8")
    if check:
        assert [d.render() for d in check_variant(str(p)) if d.severity == "error"] == []
    return build_game(load_variant(str(p)), codegen=codegen)


def lazy_in(game) -> bool:
    src = getattr(game.phases[-1].run, "source", "")  # (a game built without codegen has none)
    return re.search(r"\blx\d+, le\d+ = ", src) is not None


@pytest.mark.parametrize("code, want", [
    ("H_joinbuilt(ctx, [[_p0] for _p0 in H_spend(ctx, Z[K1][L[K2]])], ([] if c else [[]]))",
     ("Z[K1][L[K2]]", "[] if c else [[]]", "_p0", "[_p0]")),
    ("H_joinbuilt(ctx, [[_p0] for _p0 in V[K0]], ([*K1] if (len(V[K0]) == 0) else [*K2]))",
     ("V[K0]", "K1 if len(V[K0]) == 0 else K2", "_p0", "[_p0]")),  # (the joined list not copied)
    ("H_built(ctx, [f(_p0) for _p0 in V[K0]])", ("V[K0]", "()", "_p0", "f(_p0)")),
    ("[_p0 + 1 for _p0 in lc1_0]", ("lc1_0", "()", "_p0", "_p0 + 1")),
    ("[*[[_p0, ] for _p0 in Z[C2][lc0_0]], *([*C3] if c else [*C4])]",
     ("Z[C2][lc0_0]", "C3 if c else C4", "_p0", "[_p0, ]")),
    ("[*[_p0 for _p0 in a], *b, *c]", None),
    ("[_p0 for _p0 in V[K0] if _p0]", None),  # (a filter: the count is not known before)
    ("[_p0 for _p0 in H_range(ctx, 0, 9)]", None),  # (a list computed: read once, as written)
    ("[_p0 for _p0 in a for _p1 in b]", None),
    ("H_join(ctx, [_p0 for _p0 in a], b)", None),
])
def test_only_one_value_per_item_of_a_list_read_is_worked_out_alone(code, want):
    assert mapped(code) == want


@pytest.mark.parametrize("second", ["", "              as: \"[0, 1, 2]\""])
def test_random_play_draws_and_pays_as_the_options_listed_in_full(tmp_path, second):
    fast = build(tmp_path, second=second)
    assert lazy_in(fast)
    slow = build(tmp_path, second=second, codegen=False)
    for seed in range(3):
        rows_fast: list = []
        rows_slow: list = []
        a = run_chunk(fast, 5, seed, 0, 40, rows=rows_fast)
        b = run_chunk(slow, 5, seed, 0, 40, rows=rows_slow)
        assert dataclasses.asdict(a) == dataclasses.asdict(b) and rows_fast == rows_slow
        assert any(any(r) for r in rows_fast)  # (cards were given: chips moved)


def test_a_seat_asked_is_handed_every_option(tmp_path):
    game = build(tmp_path)
    seen = []

    class Looking:
        name = "looking"

        def act(self, d):
            if d.choice.id != "give":
                return 0
            seen.append((d.player, list(d.actions)))
            return len(d.actions) - 1

    play(game, 5, 1, [Looking()] * 5, rounds=1, logging=False)
    mine = [acts for p, acts in seen if p == 0 and acts[-1] == ([],)]
    assert mine and all(len(a) == 1 and len(a[0]) == 1 for a in mine[-1][:-1]) and len(mine[-1]) > 2


def test_an_option_failing_when_drawn_fails_as_the_full_list_does(tmp_path):
    # every option reads past the seats: the drawn one fails, the full list reports it in the rules
    # (as the checker's trial rounds do)
    options = "map(hand[p], c -> hand[c.value + 5])"
    errors = []
    for codegen in (True, False):
        game = build(tmp_path, options=options, codegen=codegen, check=False)
        assert lazy_in(game) == codegen
        with pytest.raises(RuleError) as e:
            run_chunk(game, 5, 1, 0, 1)
        errors.append(str(e.value))
    assert errors[0] == errors[1] and "lazy.yaml:16:" in errors[0] and "out of range" in errors[0]
    found = [d.render() for d in check_variant(str(tmp_path / "lazy.yaml")) if d.severity == "error"]
    assert found and "lazy.yaml:16:" in found[0]

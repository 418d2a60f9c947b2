"""A generated yaku table (rulekit.engine.yakugen) that fails as it runs: the error is placed in
the YAML at the part of the yaku's condition that failed, as the closures place it, and the
caller's locals are left as they were."""
from __future__ import annotations

import os
import re

import pytest

from rulekit.core.errors import RuleError
from rulekit.engine.build import build_game, load_variant
from rulekit.engine.runner import make_agents, play

from .conftest import VARIANTS

FOURTEEN = '"count(cards) == 2 and (ranks(cards) == [1, 5] or ranks(cards) == [1, 10])"'
FAILING = '"count(cards) == 2 and (ranks(cards) == [1, 5] or 10 / (count(cards) - count(cards)) > 1)"'


def failing_otoroku(tmp_path) -> str:
    """Otoroku with its yaku Fourteen dividing by zero (no constant: tried when a hand is looked at)."""
    text = open(os.path.join(VARIANTS, "hanafuda", "otoroku.yaml"), encoding="utf-8").read()
    assert text.count(FOURTEEN) == 1
    p = tmp_path / "otoroku.yaml"
    p.write_text(text.replace(FOURTEEN, FAILING), encoding="utf-8")
    return str(p)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_failing_yaku_condition_is_placed_at_its_part_of_the_yaml(tmp_path, seed):
    path = failing_otoroku(tmp_path)
    got = []
    for codegen in (True, False):
        g = build_game(load_variant(path), codegen=codegen)
        assert (g.yaku_fns is not None) == codegen  # the generated table, and the closures
        with pytest.raises(RuleError) as exc:
            play(g, 6, seed, make_agents(g, 6, seed), rounds=50)
        got.append(str(exc.value))
    assert got[0] == got[1]
    lines = (tmp_path / "otoroku.yaml").read_text(encoding="utf-8").splitlines()
    line = next(i + 1 for i, ln in enumerate(lines) if FAILING in ln)
    m = re.search(r"otoroku\.yaml:(\d+):(\d+): ", got[0])
    assert m is not None and "division by zero" in got[0], got[0]
    # the line of the condition, at the division (not the start of the condition)
    assert int(m.group(1)) == line and int(m.group(2)) > lines[line - 1].index(FAILING) + 20, got[0]


def test_a_table_that_fails_leaves_the_callers_locals_as_they_were(tmp_path):
    g = build_game(load_variant(failing_otoroku(tmp_path)))
    table = g.yaku_fns["teyaku"]
    ctx = g.new_ctx(6, 1, None)
    g.reset_round(ctx)
    mine = ctx.loc = {"x": 1}
    idx = g.card_index
    hand = [idx[c] for c in g.card_ids[:2]]  # two January cards: ranks [1, 1], so the division is tried
    with pytest.raises(Exception, match="division by zero"):
        table(ctx, hand, 1)
    assert ctx.loc is mine and mine == {"x": 1}
    ok = [idx[c] for c in g.card_ids[:3]]  # three cards: no yaku wants them, nothing fails
    assert table(ctx, ok, 1) == [] and ctx.loc is mine

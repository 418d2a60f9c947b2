"""Golden playthroughs: one seeded transcript per variant, checked in and compared.

Regenerate after an intended rule change with: RULEKIT_REGEN=1 python -m pytest tests/test_golden.py
(every option value of every variant: tests/test_golden_matrix.py, see tests/golden/README.md)
"""
import os

import pytest

from rulekit.engine.build import build_game, check_variant, load_variant
from rulekit.engine.runner import make_agents, play
from rulekit.core.errors import render_all
from rulekit.people.transcript import transcript

from .conftest import ROOT, playable, rel, variant_files

GOLDEN = os.path.join(ROOT, "tests", "golden")


@pytest.mark.parametrize("path", variant_files(), ids=rel)
def test_every_variant_validates(path):
    # strict: every deck and preset plays, and every phase, choice, yaku and payout has rules text
    # warnings (e.g. W091 prose advice) are advice; only errors fail a variant
    diags = [d for d in check_variant(path, strict=True) if d.severity == "error"]
    assert not diags, render_all(diags)


@pytest.mark.parametrize("path", playable(), ids=rel)
def test_golden_playthrough(path):
    game = build_game(load_variant(path))
    n = game.variant.meta.players_default
    res = play(game, n, 1, make_agents(game, n, 1), rounds=1)
    text = transcript(game, res.events, res.chips) + "\n"
    golden = os.path.join(GOLDEN, rel(path).replace(os.sep, "__").replace(".yaml", ".txt"))
    if os.environ.get("RULEKIT_REGEN"):
        with open(golden, "w", encoding="utf-8") as fh:
            fh.write(text)
    assert os.path.exists(golden), f"no golden file {golden}; run with RULEKIT_REGEN=1 to create it"
    with open(golden, encoding="utf-8") as fh:
        assert text == fh.read()

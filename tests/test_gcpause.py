"""The collector is paused while a variant is read and compiled, and always restored."""
from __future__ import annotations

import gc
from pathlib import Path

import pytest

from rulekit.engine.build import build_game, check_variant, load_variant
from rulekit.core.errors import RulekitError
from rulekit.core.gcpause import gc_paused

TUTORIAL = str(Path(__file__).resolve().parent.parent / "docs" / "tutorial" / "first-variant.yaml")


def test_paused_inside_and_restored_after_success_and_error():
    seen = []

    @gc_paused
    def work(fail: bool):
        seen.append(gc.isenabled())
        if fail:
            raise ValueError("x")
        return 7
    assert gc.isenabled()
    assert work(False) == 7
    with pytest.raises(ValueError):
        work(True)
    assert seen == [False, False] and gc.isenabled()


def test_a_caller_that_turned_the_collector_off_keeps_it_off():
    gc.disable()
    try:
        build_game(load_variant(TUTORIAL))
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_load_build_and_check_leave_it_on_even_after_errors(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("id: x\nplayers: {min: 2}\n", encoding="utf-8")
    with pytest.raises(RulekitError):
        load_variant(str(bad))
    assert gc.isenabled()
    assert check_variant(str(bad)) and gc.isenabled()
    build_game(load_variant(TUTORIAL))
    assert gc.isenabled()

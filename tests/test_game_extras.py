"""Game.extra is typed (rulekit.engine.extras): a part for each kind of thing a game carries
besides its rules, read by attribute; a misspelt part is an error rather than a silent None."""
from __future__ import annotations

import dataclasses

import pytest

from rulekit.engine.build import build_game, load_variant
from rulekit.engine.extras import Display, Extra


def test_build_fills_the_typed_parts():
    g = build_game(load_variant("hiraya"))
    d = g.extra.display
    assert isinstance(d, Display) and d.names and d.card_facts and d.reasons
    assert g.extra.functions and g.extra.caches.var_visibility is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.intro = "x"  # type: ignore[misc]


def test_a_misspelt_part_is_an_error_not_none():
    g = build_game(load_variant("otoroku"))
    for name in ("display_names", "card_facts", "stopafter"):
        with pytest.raises(AttributeError):
            getattr(g.extra, name)
    with pytest.raises(AttributeError):
        _ = g.extra.display.name  # type: ignore[attr-defined]


def test_the_front_ends_parts_start_empty():
    e = Extra()
    assert (e.display.intro, e.cli_options, e.stop_after, e.caches.var_visibility) == ("", None, None, None)


def test_a_misspelt_part_cannot_be_written_either():
    e = Extra()
    with pytest.raises(AttributeError):
        e.cli_option = {"share": "2"}  # type: ignore[attr-defined]

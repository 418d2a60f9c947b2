"""Game.extra is typed (rulekit.engine.extras): attributes for each part, the old string keys
mapped onto them, and a misspelt key an error rather than a silent None."""
from __future__ import annotations

import dataclasses

import pytest

from rulekit.engine.build import build_game, load_variant
from rulekit.engine.extras import KEYS, Display, Extra


def test_build_fills_the_typed_parts():
    g = build_game(load_variant("hiraya"))
    d = g.extra.display
    assert isinstance(d, Display) and d.names and d.card_facts
    assert g.extra["display_names"] is d.names and g.extra.get("card_facts") is d.card_facts
    assert g.extra.functions is g.extra["functions"]
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.intro = "x"  # type: ignore[misc]


def test_a_misspelt_key_is_an_error_not_none():
    g = build_game(load_variant("otoroku"))
    for key in ("display_name", "card_fact", "stopafter"):
        with pytest.raises(KeyError, match="no '" + key):
            g.extra.get(key)
        with pytest.raises(KeyError):
            g.extra[key] = 1
    assert "display_intro" not in KEYS or g.extra.get("display_intro") == g.extra.display.intro


def test_old_keys_write_their_typed_homes():
    e = Extra()
    e["display_intro"] = "hello"
    e["cli_options"] = {"share": "2"}
    e["var_visibility"] = {"x": "public"}
    assert (e.display.intro, e.cli_options, e.caches.var_visibility) == ("hello", {"share": "2"}, {"x": "public"})
    assert "cli_options" in e and "stop_after" not in e and set(e) >= {"display_intro", "cli_options"}

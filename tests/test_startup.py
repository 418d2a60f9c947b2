"""What a command does not do at start-up: build the decks a game is not played with, import
jsonschema for a rules file that passed before. (Speed itself is measured by benchmarks/cpu.py.)"""
from __future__ import annotations

from rulekit.engine.build import build_game, load_variant
from rulekit.engine.scope import EveryCardId, variant_scope
from rulekit.engine.testing import variant_path
from rulekit.lang.decks import load_deck


def test_the_other_decks_are_built_only_when_an_id_outside_the_deck_is_looked_up():
    game = build_game(load_variant(variant_path("kabufuda/kyo-kabu.yaml")))
    ids = variant_scope(game.variant, game.deck, game.options).all_card_ids
    assert isinstance(ids, EveryCardId) and ids.every is None
    played = game.deck.cards[0].id
    assert played in ids and ids and ids.every is None  # the deck played answers alone
    others = {c.id for choice in game.variant.decks.values() for c in load_deck(choice.base).cards}
    foreign = sorted(others - set(ids.here))
    assert foreign, "the game has another deck with cards of its own"
    assert foreign[0] in ids and "no such card" not in ids
    assert ids.every == frozenset(ids.here) | others and set(ids) == ids.every and len(ids) == len(others | ids.here)

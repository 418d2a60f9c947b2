"""Tests for the deck data files in rulekit/lang/decks/ (facts from RULES.md §1).

Two layers:
* data tests read the YAML files directly (schema, structure, base-deck counts);
* loader tests go through ``rulekit.lang.decks.load_deck`` and also cover the derived decks,
  whose cards only exist once the transformation (remove / set / map) has been applied.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Callable

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DECK_DIR = ROOT / "rulekit" / "lang" / "decks"
SCHEMA_PATH = ROOT / "schemas" / "deck.schema.json"
HEADER = "# yaml-language-server: $schema=../../../schemas/deck.schema.json"

BASE_DECKS = ["hanafuda", "kabufuda", "mekurifuda", "mamefuda", "western", "mushibana"]
DERIVED_DECKS = [
    "hanafuda-kabu",
    "hanafuda-nagoya",
    "western-40",
    "western-mekuri",
    "mekurifuda-48",
    "mamefuda-40",
    "mushi-kabu",
]
ALL_DECKS = BASE_DECKS + DERIVED_DECKS
DECK_FILES = sorted(DECK_DIR.glob("*.yaml"))
RESERVED_CARD_KEYS = {"id", "names", "tags"}
PY_TYPES: dict[str, type] = {"int": int, "str": str, "bool": bool}


# --------------------------------------------------------------------------- helpers


@cache
def raw(name: str) -> dict[str, Any]:
    """The deck file ``name`` as plain data."""
    return yaml.safe_load((DECK_DIR / f"{name}.yaml").read_text(encoding="utf-8"))


def chain(name: str) -> list[dict[str, Any]]:
    """The deck and its ancestors, root (base deck) first."""
    docs: list[dict[str, Any]] = []
    seen: set[str] = set()
    while True:
        assert name not in seen, f"cycle in `from` chain at {name}"
        seen.add(name)
        doc = raw(name)
        docs.insert(0, doc)
        if "from" not in doc:
            return docs
        name = doc["from"]


def declared_attributes(name: str) -> dict[str, dict[str, Any]]:
    """Attributes of the deck's cards after all transformations (child overrides parent)."""
    attrs: dict[str, dict[str, Any]] = {}
    for doc in chain(name):
        attrs.update(doc.get("attributes") or {})
    return attrs


def root_cards(name: str) -> dict[str, dict[str, Any]]:
    """Card entries of the base deck at the root of ``name``'s chain, by id."""
    return {c["id"]: c for c in chain(name)[0]["cards"]}


def check_value(decl: dict[str, Any], value: object, where: str) -> None:
    """Assert that ``value`` fits the attribute declaration ``decl``."""
    expected = PY_TYPES[decl["type"]]
    # bool is a subclass of int: keep the two apart.
    assert type(value) is expected, f"{where}: {value!r} is not {decl['type']}"
    if "values" in decl:
        assert value in decl["values"], f"{where}: {value!r} not in {decl['values']}"


@dataclass(frozen=True)
class YamlCard:
    """A card read straight from a base deck file, shaped like the loader's Card."""

    id: str
    attrs: dict[str, object]
    tags: frozenset[str]
    names: dict[str, str]


@dataclass(frozen=True)
class YamlDeck:
    """A base deck read straight from its file, shaped like the loader's Deck."""

    id: str
    cards: tuple[YamlCard, ...]


def yaml_deck(name: str) -> YamlDeck:
    """A base deck built from its file alone (no loader needed)."""
    doc = raw(name)
    assert "cards" in doc, f"{name} is derived; only the loader can build it"
    cards = tuple(
        YamlCard(
            id=c["id"],
            attrs={k: v for k, v in c.items() if k not in RESERVED_CARD_KEYS},
            tags=frozenset(c.get("tags", [])),
            names=dict(c["names"]),
        )
        for c in doc["cards"]
    )
    return YamlDeck(id=doc["id"], cards=cards)


def loaded_deck(name: str) -> Any:
    """The deck as built by the project's loader."""
    from rulekit.lang.decks import load_deck  # the loader may land after the data

    return load_deck(name)


@pytest.fixture(params=["yaml", "loader"])
def base_deck(request: pytest.FixtureRequest) -> Callable[[str], Any]:
    """Base-deck facts are checked on the raw file and on the loaded deck."""
    return yaml_deck if request.param == "yaml" else loaded_deck


def by_id(deck: Any) -> dict[str, Any]:
    return {c.id: c for c in deck.cards}


def attr(deck: Any, key: str) -> list[object]:
    return [c.attrs[key] for c in deck.cards]


def tagged(deck: Any, tag: str) -> list[str]:
    return [c.id for c in deck.cards if tag in c.tags]


# --------------------------------------------------------------------------- files and schema


def test_expected_deck_files_exist() -> None:
    assert {p.stem for p in DECK_FILES} == set(ALL_DECKS)


@pytest.mark.parametrize("path", DECK_FILES, ids=lambda p: p.stem)
def test_first_line_points_at_schema(path: Path) -> None:
    assert path.read_text(encoding="utf-8").splitlines()[0] == HEADER


def test_schema_is_valid_draft_2020_12() -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def _missing_descriptions(node: object, path: str) -> list[str]:
    """Paths of property / $defs schemas that have no description."""
    missing: list[str] = []
    if isinstance(node, dict):
        for key in ("properties", "$defs"):
            for name, sub in (node.get(key) or {}).items():
                if isinstance(sub, dict) and "description" not in sub:
                    missing.append(f"{path}/{key}/{name}")
        for key, sub in node.items():
            missing += _missing_descriptions(sub, f"{path}/{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            missing += _missing_descriptions(sub, f"{path}/{i}")
    return missing


def test_every_schema_property_has_a_description() -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert "description" in schema
    assert _missing_descriptions(schema, "#") == []


@pytest.mark.parametrize("path", DECK_FILES, ids=lambda p: p.stem)
def test_deck_file_validates_against_schema(path: Path) -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]
    assert errors == []


def test_schema_rejects_bad_decks() -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    good_card = {"id": "1-1", "names": {"en": "One"}, "value": 1}
    base = {
        "id": "x",
        "names": {"en": "X"},
        "description": "d",
        "attributes": {"value": {"type": "int", "description": "v"}},
        "cards": [good_card],
    }
    assert validator.is_valid(base)
    assert not validator.is_valid({**base, "remove": "true"})  # transformation on a base deck
    assert not validator.is_valid({k: v for k, v in base.items() if k != "cards"})
    assert not validator.is_valid({**base, "cards": [{**good_card, "value": 1.5}]})
    assert not validator.is_valid({**base, "cards": [{**good_card, "tags": ["Bad Tag"]}]})
    assert not validator.is_valid({**base, "attributes": {"v": {"type": "float", "description": "v"}}})
    derived = {"id": "y", "from": "x", "names": {"en": "Y"}, "description": "d", "remove": "c.value > 5"}
    assert validator.is_valid(derived)
    assert not validator.is_valid({**derived, "cards": [good_card]})
    assert not validator.is_valid({**derived, "extra": 1})


# --------------------------------------------------------------------------- structure


@pytest.mark.parametrize("name", ALL_DECKS)
def test_id_matches_file_stem(name: str) -> None:
    assert raw(name)["id"] == name


@pytest.mark.parametrize("name", BASE_DECKS)
def test_base_deck_cards_have_every_attribute_and_unique_ids(name: str) -> None:
    doc = raw(name)
    attrs = doc["attributes"]
    ids = [c["id"] for c in doc["cards"]]
    assert len(ids) == len(set(ids)), [i for i, n in Counter(ids).items() if n > 1]
    for card in doc["cards"]:
        keys = set(card) - RESERVED_CARD_KEYS
        assert keys == set(attrs), f"{name} {card['id']}: {sorted(keys ^ set(attrs))}"
        for key in keys:
            check_value(attrs[key], card[key], f"{name} {card['id']}.{key}")
        assert card["names"]["en"]
        assert len(card.get("tags", [])) == len(set(card.get("tags", [])))


@pytest.mark.parametrize("name", DERIVED_DECKS)
def test_derived_deck_structure(name: str) -> None:
    doc = raw(name)
    assert (DECK_DIR / f"{doc['from']}.yaml").exists()
    parent_attrs = declared_attributes(doc["from"])
    own = doc.get("attributes") or {}
    all_attrs = {**parent_attrs, **own}
    cards = root_cards(name)
    set_exprs = doc.get("set") or {}
    mapping = doc.get("map") or {}
    # set / map only touch known attributes and known cards
    assert set(set_exprs) <= set(all_attrs)
    assert set(mapping) <= set(cards), sorted(set(mapping) - set(cards))
    for cid, values in mapping.items():
        for key, value in values.items():
            assert key in all_attrs, f"{cid}: unknown attribute {key}"
            check_value(all_attrs[key], value, f"{name} map {cid}.{key}")
    # an attribute declared here gets a value on every card: by `set`, or by `map` per card
    for key in own:
        if key in set_exprs:
            continue
        assert key not in parent_attrs, f"{key} is redeclared but never set"
        unmapped = [cid for cid in cards if key not in mapping.get(cid, {})]
        assert unmapped == [], f"{name}: no value for {key} on {unmapped}"
    # a key both set and mapped would depend on the order the loader applies them
    for cid, values in mapping.items():
        assert not set(values) & set(set_exprs), f"{cid}: both set and map give {set(values) & set(set_exprs)}"


def test_mushibana_cards_are_the_hanafuda_cards_without_june_and_july() -> None:
    hana = {c["id"]: c for c in raw("hanafuda")["cards"] if c["month"] not in (6, 7)}
    mushi = {c["id"]: c for c in raw("mushibana")["cards"]}
    assert mushi == hana
    assert raw("mushibana")["attributes"] == raw("hanafuda")["attributes"]


def test_nagoya_suit_map_gives_each_month_four_different_suits() -> None:
    # With rank = the month's place in the Nagoya sequence, this makes (suit, rank) unique.
    mapping = raw("hanafuda-nagoya")["map"]
    for month in range(1, 13):
        suits = {mapping[f"{month}-{k}"]["suit"] for k in range(1, 5)}
        assert suits == {"clubs", "swords", "cups", "coins"}, month


# --------------------------------------------------------------------------- loader: every deck


def test_deck_names_lists_every_deck_file() -> None:
    from rulekit.lang.decks import deck_names

    assert set(ALL_DECKS) <= set(deck_names())


@pytest.mark.parametrize("name", ALL_DECKS)
def test_loaded_cards_have_every_declared_attribute(name: str) -> None:
    deck = loaded_deck(name)
    assert deck.id == name
    attrs = declared_attributes(name)
    roots = root_cards(name)
    ids = [c.id for c in deck.cards]
    assert len(ids) == len(set(ids))
    for card in deck.cards:
        assert set(card.attrs) == set(attrs), f"{name} {card.id}"
        for key, decl in attrs.items():
            check_value(decl, card.attrs[key], f"{name} {card.id}.{key}")
        # derived decks keep their parent's card ids, names and tags
        assert card.id in roots
        assert card.tags == frozenset(roots[card.id].get("tags", []))
        assert card.names == roots[card.id]["names"]


# --------------------------------------------------------------------------- hanafuda (§1.1)

HANAFUDA_TAGS = {
    "crane": "1-1",
    "bush-warbler": "2-1",
    "curtain": "3-1",
    "cuckoo": "4-1",
    "bridge": "5-1",
    "butterflies": "6-1",
    "boar": "7-1",
    "moon": "8-1",
    "geese": "8-2",
    "sake-cup": "9-1",
    "deer": "10-1",
    "rain-man": "11-1",
    "swallow": "11-2",
    "lightning": "11-4",
    "phoenix": "12-1",
    "yellow-chaff": "12-2",
}


def test_hanafuda_counts(base_deck: Callable[[str], Any]) -> None:
    deck = base_deck("hanafuda")
    assert len(deck.cards) == 48
    types = Counter(attr(deck, "type"))
    assert types == {"bright": 5, "animal": 9, "ribbon": 10, "chaff": 24}
    ribbons = Counter(c.attrs["ribbon"] for c in deck.cards if c.attrs["type"] == "ribbon")
    assert ribbons == {"poetry": 3, "blue": 3, "plain": 4}
    assert all(c.attrs["ribbon"] == "none" for c in deck.cards if c.attrs["type"] != "ribbon")
    assert sum(attr(deck, "points")) == 264
    assert Counter(attr(deck, "month")) == {m: 4 for m in range(1, 13)}
    assert len({c.attrs["plant"] for c in deck.cards}) == 12


def test_hanafuda_points_follow_type(base_deck: Callable[[str], Any]) -> None:
    points = {"bright": 20, "animal": 10, "ribbon": 5, "chaff": 1}
    for card in base_deck("hanafuda").cards:
        assert card.attrs["points"] == points[card.attrs["type"]], card.id


def test_hanafuda_chaff_per_month(base_deck: Callable[[str], Any]) -> None:
    deck = base_deck("hanafuda")
    chaff = Counter(c.attrs["month"] for c in deck.cards if c.attrs["type"] == "chaff")
    assert chaff == {**{m: 2 for m in range(1, 11)}, 11: 1, 12: 3}


def test_hanafuda_special_cards(base_deck: Callable[[str], Any]) -> None:
    deck = base_deck("hanafuda")
    cards = by_id(deck)
    for tag, cid in HANAFUDA_TAGS.items():
        assert tagged(deck, tag) == [cid], tag
    assert {cid for cid, c in cards.items() if c.attrs["type"] == "bright"} == {
        "1-1", "3-1", "8-1", "11-1", "12-1"
    }
    assert {cid for cid, c in cards.items() if c.attrs["ribbon"] == "poetry"} == {"1-2", "2-2", "3-2"}
    assert {cid for cid, c in cards.items() if c.attrs["ribbon"] == "blue"} == {"6-2", "9-2", "10-2"}
    assert {cid for cid, c in cards.items() if c.attrs["ribbon"] == "plain"} == {
        "4-2", "5-2", "7-2", "11-3"
    }
    # Lightning is the Willow chaff, the Rain Man the Willow bright (§1.1)
    assert cards["11-4"].attrs["type"] == "chaff"
    assert cards["11-1"].attrs["type"] == "bright"
    assert cards["8-2"].attrs["type"] == "animal"
    assert cards["12-2"].attrs["type"] == "chaff"


def test_mushibana(base_deck: Callable[[str], Any]) -> None:
    deck = base_deck("mushibana")
    assert len(deck.cards) == 40
    months = Counter(attr(deck, "month"))
    assert 6 not in months and 7 not in months
    assert months == {m: 4 for m in (1, 2, 3, 4, 5, 8, 9, 10, 11, 12)}


# --------------------------------------------------------------------------- kabufuda family (§1.3)


def assert_kabu_40(deck: Any) -> None:
    assert len(deck.cards) == 40
    assert Counter(attr(deck, "value")) == {v: 4 for v in range(1, 11)}


def test_kabufuda(base_deck: Callable[[str], Any]) -> None:
    deck = base_deck("kabufuda")
    assert_kabu_40(deck)
    cards = by_id(deck)
    assert tagged(deck, "aka-pin") == ["1-1"]
    assert cards["1-1"].attrs["value"] == 1
    assert tagged(deck, "kin-shi") == ["4-1"]
    assert cards["4-1"].attrs["value"] == 4


def test_mamefuda(base_deck: Callable[[str], Any]) -> None:
    deck = base_deck("mamefuda")
    assert len(deck.cards) == 41
    oni = by_id(deck)["oni"]
    assert "onifuda" in oni.tags and oni.attrs["value"] == 0
    specials = sorted(by_id(deck)[cid].attrs["value"] for cid in tagged(deck, "special"))
    assert specials == [1, 3, 4]


def test_mamefuda_40() -> None:
    deck = loaded_deck("mamefuda-40")
    assert_kabu_40(deck)
    assert tagged(deck, "onifuda") == []


def test_hanafuda_kabu() -> None:
    deck = loaded_deck("hanafuda-kabu")
    assert_kabu_40(deck)
    for card in deck.cards:
        assert card.attrs["value"] == card.attrs["month"], card.id
    assert max(attr(deck, "month")) == 10


def test_western_40() -> None:
    deck = loaded_deck("western-40")
    assert_kabu_40(deck)
    cards = by_id(deck)
    assert cards["AS"].attrs["value"] == 1
    assert cards["10H"].attrs["value"] == 10
    assert not {"JS", "QS", "KS", "JK1", "JK2"} & set(cards)
    for card in deck.cards:
        assert card.attrs["value"] == card.attrs["rank"]


def test_mushi_kabu() -> None:
    deck = loaded_deck("mushi-kabu")
    assert_kabu_40(deck)
    for card in deck.cards:
        month = card.attrs["month"]
        expected = {11: 6, 12: 7}.get(month, month)
        assert card.attrs["value"] == expected, card.id
    cards = by_id(deck)
    assert cards["11-1"].attrs["value"] == 6  # Rain Man
    assert cards["12-1"].attrs["value"] == 7  # Phoenix


# --------------------------------------------------------------------------- western


def test_western(base_deck: Callable[[str], Any]) -> None:
    deck = base_deck("western")
    assert len(deck.cards) == 54
    suits = Counter(attr(deck, "suit"))
    assert suits == {"spades": 13, "hearts": 13, "diamonds": 13, "clubs": 13, "none": 2}
    assert sorted(tagged(deck, "joker")) == ["JK1", "JK2"]
    cards = by_id(deck)
    assert cards["AS"].attrs["rank"] == 1
    assert cards["JC"].attrs["rank"] == 11
    assert cards["QD"].attrs["rank"] == 12
    assert cards["KH"].attrs["rank"] == 13
    for card in deck.cards:
        if card.attrs["suit"] in ("hearts", "diamonds"):
            assert card.attrs["colour"] == "red"
        elif card.attrs["suit"] in ("spades", "clubs"):
            assert card.attrs["colour"] == "black"


# --------------------------------------------------------------------------- mekurifuda family (§1.4)


def assert_mekuri_48(deck: Any) -> None:
    real = [c for c in deck.cards if "onifuda" not in c.tags]
    assert len(real) == 48
    pairs = Counter((c.attrs["suit"], c.attrs["rank"]) for c in real)
    expected = {(s, r) for s in ("clubs", "swords", "cups", "coins") for r in range(1, 13)}
    assert set(pairs) == expected
    assert all(n == 1 for n in pairs.values())


def test_mekurifuda(base_deck: Callable[[str], Any]) -> None:
    deck = base_deck("mekurifuda")
    assert len(deck.cards) == 49
    assert_mekuri_48(deck)
    cards = by_id(deck)
    assert tagged(deck, "onifuda") == ["oni"]
    assert cards["clubs-1"].attrs["rank_name"] == "dragon"
    assert cards["coins-10"].attrs["rank_name"] == "maid"
    assert cards["cups-11"].attrs["rank_name"] == "horse"
    assert cards["swords-12"].attrs["rank_name"] == "king"


def test_mekurifuda_48() -> None:
    deck = loaded_deck("mekurifuda-48")
    assert len(deck.cards) == 48
    assert_mekuri_48(deck)


def test_western_mekuri() -> None:
    deck = loaded_deck("western-mekuri")
    assert len(deck.cards) == 48
    assert_mekuri_48(deck)
    cards = by_id(deck)
    assert not {"10S", "10H", "10D", "10C", "JK1", "JK2"} & set(cards)
    suit_of = {"C": "clubs", "S": "swords", "H": "cups", "D": "coins"}
    for letter, suit in suit_of.items():
        assert (cards[f"A{letter}"].attrs["suit"], cards[f"A{letter}"].attrs["rank"]) == (suit, 1)
        assert cards[f"9{letter}"].attrs["rank"] == 9
        assert cards[f"Q{letter}"].attrs["rank"] == 10
        assert cards[f"J{letter}"].attrs["rank"] == 11
        assert cards[f"K{letter}"].attrs["rank"] == 12
        assert {c.attrs["suit"] for cid, c in cards.items() if cid.endswith(letter)} == {suit}


NAGOYA_RANK = {  # month -> place in the Nagoya sequence (§1.2)
    1: 1, 11: 2, 3: 3, 4: 4, 5: 5, 12: 6, 7: 7, 8: 8, 9: 9, 10: 10, 6: 11, 2: 12,
}


def test_hanafuda_nagoya() -> None:
    deck = loaded_deck("hanafuda-nagoya")
    assert len(deck.cards) == 48
    assert_mekuri_48(deck)
    cards = by_id(deck)

    def sr(cid: str) -> tuple[object, object]:
        return cards[cid].attrs["suit"], cards[cid].attrs["rank"]

    assert sr("1-1") == ("clubs", 1)  # Crane
    assert sr("3-1") == ("clubs", 3)  # Curtain
    assert sr("12-1") == ("clubs", 6)  # Phoenix
    assert sr("1-2") == ("swords", 1)  # Pine ribbon
    assert sr("11-1") == ("coins", 2)  # Rain Man
    assert sr("11-2") == ("clubs", 2)  # Swallow, Willow's clubs card
    assert sr("11-4") == ("cups", 2)  # Lightning
    assert sr("8-2") == ("swords", 8)  # Geese
    assert sr("12-2") == ("swords", 6)  # yellow Paulownia chaff
    assert {sr("1-3"), sr("1-4")} == {("cups", 1), ("coins", 1)}  # the two Pine chaff
    for card in deck.cards:
        assert card.attrs["rank"] == NAGOYA_RANK[card.attrs["month"]], card.id
        if card.attrs["type"] == "ribbon":
            assert card.attrs["suit"] == "swords", card.id


# --------------------------------------------------------------------------- stored data (decks.json)


def test_stored_decks_are_the_deck_files_as_they_are() -> None:
    """decks.json holds every deck file's data, read as read_file reads it: an edit of a deck file
    without `python -c "from rulekit.lang.decks import write_stored; write_stored()"` fails here."""
    from rulekit.lang import decks
    assert (DECK_DIR / "decks.json").read_text(encoding="utf-8") == decks.stored_text()
    stored = json.loads(decks.stored_text())
    assert sorted(stored) == sorted(p.stem for p in DECK_FILES)
    for name, hit in stored.items():
        assert hit["data"] == decks.read_file(str(DECK_DIR / f"{name}.yaml")).data, name


def _fresh_load(monkeypatch: pytest.MonkeyPatch, stored: dict[str, Any]) -> Callable[[str], Any]:
    """load_deck with nothing built yet and `stored` as decks.json."""
    from rulekit.lang import decks
    monkeypatch.setattr(decks, "_stored", lambda: stored)
    monkeypatch.setattr(decks, "_BUILT", {})
    decks.load_deck.cache_clear()
    return decks.load_deck


def test_a_deck_file_changed_since_it_was_stored_is_read_from_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stored data whose digest is not that of the file's text is not used: the file is read."""
    from rulekit.lang import decks
    want = repr(decks.load_deck("hanafuda-kabu"))
    stale = {n: {"sha256": "0" * 64, "data": {"id": n, "cards": []}} for n in ("hanafuda", "hanafuda-kabu")}
    try:
        assert repr(_fresh_load(monkeypatch, stale)("hanafuda-kabu")) == want
    finally:
        decks.load_deck.cache_clear()


def test_stored_data_the_build_refuses_is_read_again_from_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deck the stored data cannot build is built from its file (where an error would be located)."""
    from rulekit.core.errors import RulekitError
    from rulekit.lang import decks
    good = json.loads(decks.stored_text())
    want = repr(decks.load_deck("hanafuda"))
    bad = json.loads(json.dumps(good))
    bad["hanafuda"]["data"]["cards"][0].pop("month")  # a card without a declared attribute
    try:
        assert repr(_fresh_load(monkeypatch, bad)("hanafuda")) == want
        with pytest.raises(RulekitError):  # (what the stored data alone gives)
            decks._build(decks.Source("x", bad["hanafuda"]["data"]), chain=("hanafuda",))
    finally:
        decks.load_deck.cache_clear()

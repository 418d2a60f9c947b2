"""The engine is generic: no Python module names a game, a card or a yaku."""
import os
import re

from rulekit.engine.build import load_variant
from rulekit.lang.decks import deck_names, load_deck

from .conftest import ROOT, variant_files

GENERIC = {"bright", "animal", "ribbon", "chaff", "value", "month", "rank", "suit", "special", "joker",
           "wild", "column", "dealer", "red", "black", "none", "plain", "blue", "matching", "banking",
           "fishing", "shedding", "form", "game", "hand", "card", "cards", "three", "kind", "player"}
# English number words: the narrator reads them in card names ("Five" already says 5)
GENERIC |= {"zero", "one", "two", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
            "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty"}


def _names() -> set[str]:
    names: set[str] = set()
    for f in variant_files():
        v = load_variant(f)
        names.add(v.meta.id)
        for n in v.meta.names.values():
            names.add(n)
        ynode = v.tree.value.get("yaku")
        for table in (ynode.value.values() if ynode else []):
            for item in table.value:
                names.add(str(item.value["id"].value))
    for d in deck_names():
        for c in load_deck(d).cards:
            names.update(c.tags)
    words = set()
    for n in names:
        for w in re.split(r"[\s\-_/()]+", n.lower()):
            if len(w) >= 4 and w not in GENERIC and not w.isdigit():
                words.add(w)
    return words


def test_no_game_card_or_yaku_names_in_engine_code():
    words = _names()
    assert "sorokabu" in words and "crane" in words  # the list is real
    hits = []
    for root, _dirs, files in os.walk(os.path.join(ROOT, "rulekit")):
        for f in files:
            if not f.endswith(".py"):
                continue
            path = os.path.join(root, f)
            text = open(path, encoding="utf-8").read().lower()
            for w in words:
                if re.search(rf"\b{re.escape(w)}\b", text):
                    hits.append(f"{os.path.relpath(path, ROOT)}: {w}")
    assert hits == []

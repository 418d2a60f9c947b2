"""What a card is in one game, in words: its legend (type, month or suit, value here, wild).

The words for the deck's attributes come from the style sheet's `legend` entry (docs/card-style.yaml);
the value and wildness come from the game's own display rules (`display.value`, else a numeric
`display.card`; `display.wild`), so a game that counts a card otherwise than its deck (Chaff worth
0) or makes a card wild is drawn as it plays. No deck, card or game is known here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulekit.lang.decks import Card


@dataclass(frozen=True)
class CardFact:
    """One card as a game counts it: its value (None: the game gives none) and whether it is wild."""

    value: int | None
    wild: bool


def _eval(game: Any, ctx: Any, fn: Any, i: int) -> Any:
    ctx.loc = {"c": i, "came_from": ""}
    try:
        return fn(ctx)
    except Exception:  # noqa: BLE001 - a value that cannot be worked out is simply not shown
        return None


def game_card_facts(game: Any, n: int) -> dict[str, CardFact]:
    """Each card of the game's deck (by id) as the game counts it, under its default options."""
    facts = game.extra.display.card_facts
    value_fn = facts.get("value")
    wild_fn = facts.get("wild")
    shown = game.extra.display.card_show
    if value_fn is None and wild_fn is None and shown is None:
        return {}
    ctx = game.new_ctx(n, 0, None, False)
    out = {}
    for i, card in enumerate(game.deck.cards):
        v = _eval(game, ctx, value_fn or shown, i) if (value_fn or shown) else None
        if isinstance(v, bool) or not isinstance(v, int):
            v = None  # display.card as a text ("7, wild") is no number to print
        w = bool(_eval(game, ctx, wild_fn, i)) if wild_fn is not None else False
        out[card.id] = CardFact(v, w)
    return out


def _words(card: Card, spec: dict) -> str:
    by = spec.get("by")
    v = card.attrs.get(by) if by != "id" else card.id
    if v is None:
        return ""
    texts = spec.get("text") or {}
    out = texts.get(v, texts.get(str(v), v))
    return "" if out is None else str(out)


def value_words(value: int, style: dict) -> str:
    """'0 points', '1 point', 'counts 5': the legend's `value` words of the style, else the number."""
    spec = (style.get("legend") or {}).get("value")
    if isinstance(spec, list) and len(spec) == 2:
        return str(spec[0] if value == 1 else spec[1]).replace("{v}", str(value))
    if isinstance(spec, str):
        return spec.replace("{v}", str(value))
    return str(value)


def legend_lines(card: Card, style: dict, fact: CardFact | None) -> tuple[str, str]:
    """The two short English lines under a card picture: what the card is ('Chaff · Nov'), and
    what it counts for in this game ('0 points · wild')."""
    parts = [w for w in (_words(card, p) for p in (style.get("legend") or {}).get("parts") or []
                         if isinstance(p, dict)) if w]
    first = " · ".join(parts)
    second = []
    if fact is not None and fact.value is not None:
        second.append(value_words(fact.value, style))
    if fact is not None and fact.wild:
        second.append("WILD")
    return first, " · ".join(second)


def legend_text(card: Card, style: dict, fact: CardFact | None) -> str:
    """The card's legend as one phrase, for alt texts: 'Chaff, Nov, 0 points, wild'."""
    a, b = legend_lines(card, style, fact)
    return ", ".join(x for x in (a.replace(" · ", ", "), b.replace(" · ", ", ").replace("WILD", "wild")) if x)


_WHERE = (("corner", "Top left"), ("mark", "Top right"), ("centre", "Centre"), ("band", "Coloured band"),
          ("badge", "Bottom left"), ("footer", "Bottom right"))


def reading_guide(style: dict, cards: list[Card], facts: dict[str, CardFact]) -> list[tuple[str, str]]:
    """(where on the card, what it means) for every mark the pictures of this game carry, from the
    style sheet's `legend.marks`; the WILD banner and the words under each card included."""
    marks = (style.get("legend") or {}).get("marks") or {}
    out = [(where, str(marks[key])) for key, where in _WHERE if style.get(key) and marks.get(key)]
    starred = list(dict.fromkeys(c.name for c in cards if c.tags))
    if style.get("star", True) is not False and starred and marks.get("star"):
        shown = starred[:3] + ([f"{len(starred) - 3} more"] if len(starred) > 3 else [])
        named = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]
        out.append(("★", f"{marks['star']} ({named})"))  # the starred cards of this game's deck
    wild = [c.name for c in cards if facts.get(c.id) is not None and facts[c.id].wild]
    if wild:
        named = list(dict.fromkeys(wild))
        out.append(("WILD", "a wild card in this game (" + ", ".join(named[:-1]) + (" and " if len(named) > 1 else "")
                    + named[-1] + ")"))
    named = [{"type": "type", "month": "month", "suit": "suit", "rank_name": "rank"}.get(str(p.get("by")), "kind")
             for p in (style.get("legend") or {}).get("parts") or [] if isinstance(p, dict)]
    under = ["the card's " + " and ".join(named)] if named else []
    if any(f.value is not None for f in facts.values()):
        under.append("what it counts for in this game")
    if under:
        out.append(("Under the card", ", then ".join(under)))
    return out

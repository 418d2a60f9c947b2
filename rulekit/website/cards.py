"""Card pictures as SVG, drawn from the deck data and a style sheet (docs/card-style.yaml).

The style sheet says, per shipped deck, which card attribute gives the card its colour, its
corner index, its big central label, a top-right mark, a vertical band, a round
badge and a footer; maps turn attribute values into colours and short labels. A deck without
a style falls back to its parent deck's style, then to a generic one (colour from the first
text attribute, number from the first whole-number attribute). No deck, card or game is
known here: everything comes from the data.
"""
from __future__ import annotations

import colorsys
import hashlib
import os
import re
from dataclasses import dataclass
from typing import Any

import yaml

from rulekit.lang.decks import Card, Deck, deck_names, load_deck
from rulekit.website.cardlegend import CardFact, legend_lines, legend_text
from rulekit.website.util import h

W, H = 60, 92
LEGEND = 19  # the strip under a game's card picture with its two lines of English
FONT = "'Noto Sans CJK JP','Hiragino Sans','Yu Gothic','IPAPGothic','IPAGothic','DejaVu Sans',sans-serif"
DEFAULT_FIELD = "#455a64"


def load_style(path: str | None) -> dict:
    """The style sheet (a mapping deck id -> style); {} when there is none."""
    if not path or not os.path.isfile(path):
        return {}
    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh) or {}
    return data.get("decks", data) or {}


def deck_style(deck: Deck, styles: dict) -> dict:
    """The style of a deck: its own entry (following `extends`), else its parent's, else {}."""
    name = deck.id
    seen = set()
    while name and name not in styles and name not in seen:
        seen.add(name)
        try:
            name = load_deck(name).parent
        except Exception:  # noqa: BLE001 - an unknown deck has no parent
            name = None
    if not name or name not in styles:
        return {}
    return _resolved(name, styles, ())


def _resolved(name: str, styles: dict, chain: tuple) -> dict:
    st = dict(styles.get(name) or {})
    base = st.pop("extends", None)
    if base and base in styles and base not in chain:
        merged = _resolved(base, styles, chain + (name,))
        merged.update(st)
        return merged
    return st


def hashed_colour(value: Any) -> str:
    """A stable, fairly dark colour for any value."""
    d = hashlib.sha256(str(value).encode()).digest()
    hue = d[0] / 255.0
    r, g, b = colorsys.hls_to_rgb(hue, 0.38, 0.55)
    return "#%02x%02x%02x" % (int(r * 255), int(g * 255), int(b * 255))


def _mix(colour: str, other: str, t: float) -> str:
    def rgb(c):
        c = c.lstrip("#")
        if len(c) == 3:
            c = "".join(x * 2 for x in c)
        return [int(c[i:i + 2], 16) for i in (0, 2, 4)]
    try:
        a, b = rgb(colour), rgb(other)
    except ValueError:
        return colour
    return "#%02x%02x%02x" % tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))


def tint(colour: str, t: float) -> str:
    return _mix(colour, "#ffffff", t)


def shade(colour: str, t: float) -> str:
    return _mix(colour, "#000000", t)


def _generic_style(deck: Deck) -> dict:
    text_attr = next((a.name for a in deck.attributes.values() if a.type == "str"), None)
    int_attr = next((a.name for a in deck.attributes.values() if a.type == "int"), None)
    st: dict = {}
    if text_attr:
        st["field"] = {"by": text_attr}
        st["mark"] = {"by": text_attr, "short": 3}
    if int_attr:
        st["centre"] = {"by": int_attr}
        st["corner"] = {"by": int_attr}
    return st


@dataclass
class Look:
    """What a card picture shows (two cards with the same look get the same picture)."""

    field: str
    corner: str
    centre: str
    centre_colour: str
    mark: str
    band: str
    band_lines: bool
    badge: str
    badge_colour: str
    footer: str
    star: bool

    def key(self) -> tuple:
        return tuple(self.__dict__.values())


def _value(card: Card, spec: Any) -> Any:
    if not isinstance(spec, dict):
        return None
    by = spec.get("by")
    if by is None:
        return spec.get("text") if isinstance(spec.get("text"), str) else None
    if by == "id":
        return card.id
    return card.attrs.get(by)


def _label(card: Card, spec: Any) -> str:
    v = _value(card, spec)
    if v is None:
        return ""
    texts = spec.get("text") if isinstance(spec.get("text"), dict) else {}
    if v in texts:
        out = texts[v]
    elif str(v) in texts:
        out = texts[str(v)]
    else:
        out = v
    out = "" if out is None else str(out)
    short = spec.get("short")
    if short:
        out = out[: int(short)]
    return out


def _colour(card: Card, spec: Any, default: str) -> str:
    v = _value(card, spec)
    if v is None:
        return default
    colours = spec.get("colours") or {}
    for k in (v, str(v)):
        if k in colours:
            return str(colours[k])
    return hashed_colour(v)


def look(card: Card, style: dict) -> Look:
    """The look of one card under a deck style."""
    field = _colour(card, style.get("field"), DEFAULT_FIELD)
    centre_colour = None
    for tag in sorted(card.tags):
        t = (style.get("tags") or {}).get(tag) or {}
        field = t.get("field", field)
        centre_colour = t.get("centre_colour", centre_colour)
    band_spec = style.get("band")
    band = ""
    lines = False
    if isinstance(band_spec, dict):
        v = _value(card, band_spec)
        colours = band_spec.get("colours") or {}
        if v is not None and (v in colours or str(v) in colours):
            band = colours.get(v, colours.get(str(v)))
            lines = v in (band_spec.get("lines") or [])
    badge, badge_colour = "", ""
    bspec = style.get("badge")
    if isinstance(bspec, dict):
        v = _value(card, bspec)
        marks = bspec.get("marks") or {}
        m = marks.get(v, marks.get(str(v))) if v is not None else None
        if isinstance(m, dict):
            badge, badge_colour = str(m.get("text", "")), str(m.get("colour", field))
        elif v is not None and not marks:
            badge, badge_colour = str(v), field
    return Look(field=field, corner=_label(card, style.get("corner")), centre=_label(card, style.get("centre")),
                centre_colour=centre_colour or shade(field, 0.35), mark=_label(card, style.get("mark")),
                band=band or "", band_lines=lines, badge=badge, badge_colour=badge_colour,
                footer=_label(card, style.get("footer")), star=bool(card.tags) and style.get("star", True))


def _star(cx: float, cy: float, r: float) -> str:
    import math
    pts = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = math.pi / 2 + i * math.pi / 5
        pts.append(f"{cx + rr * math.cos(a):.1f},{cy - rr * math.sin(a):.1f}")
    return (f'<polygon points="{" ".join(pts)}" fill="#f5c518" stroke="#7a5b00" stroke-width="0.8"/>')


def _fit(text: str, size: float, width: float) -> float:
    """A font size at which `text` fits in `width` (wide glyphs count double)."""
    units = sum(1.0 if ord(ch) > 0x2E80 else 0.62 for ch in text) or 1
    return min(size, width / units)


def svg(card: Card, style: dict, title: str = "", fact: CardFact | None = None, legend: bool = True) -> str:
    """The SVG picture of one card; with a game's `fact`, the value it shows is the game's, a wild
    card is marked WILD, and two lines of English under the card say what it is (its legend)."""
    lk = look(card, style)
    if fact is not None and fact.value is not None:
        lk.footer = str(fact.value)
    strip = fact is not None and legend
    lines = legend_lines(card, style, fact) if strip else ("", "")
    hh = H + (LEGEND if strip else 0)
    inner = tint(lk.field, 0.82)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {hh}" width="{W * 2}" height="{hh * 2}" '
           f'role="img" aria-label="{h(title or card.name)}">',
           f"<title>{h(title or card.name)}</title>",
           f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="5" fill="#fffdf6" stroke="#3a3a3a" '
           f'stroke-width="1.2"/>',
           f'<rect x="4.5" y="4.5" width="{W - 9}" height="{H - 9}" rx="3" fill="{inner}" stroke="{lk.field}" '
           f'stroke-width="2"/>']
    if lk.band:
        out.append(f'<rect x="{W - 19}" y="24" width="11" height="46" rx="1.5" fill="{lk.band}" '
                   f'stroke="{shade(lk.band, 0.3)}" stroke-width="0.8"/>')
        if lk.band_lines:
            for i in range(4):
                y = 28 + i * 10
                out.append(f'<line x1="{W - 13.5}" y1="{y}" x2="{W - 13.5}" y2="{y + 6}" stroke="#1b1b1b" '
                           f'stroke-width="1.8" stroke-linecap="round"/>')
    if lk.corner:
        fs = _fit(lk.corner, 11, 17)
        out.append(f'<rect x="6" y="6" width="19" height="16" rx="3" fill="{lk.field}"/>')
        out.append(f'<text x="15.5" y="{14 + fs * 0.36:.1f}" font-family="{FONT}" font-size="{fs:.1f}" '
                   f'font-weight="700" fill="#ffffff" text-anchor="middle">{h(lk.corner)}</text>')
    if lk.mark:
        fs = _fit(lk.mark, 11, 22)
        out.append(f'<text x="{W - 8}" y="{14 + fs * 0.36:.1f}" font-family="{FONT}" font-size="{fs:.1f}" '
                   f'font-weight="700" fill="{shade(lk.field, 0.2)}" text-anchor="end">{h(lk.mark)}</text>')
    if lk.centre:
        fs = _fit(lk.centre, 30, W - 14 - (12 if lk.band else 0))
        out.append(f'<text x="{W / 2 - (6 if lk.band else 0)}" y="{50 + fs * 0.36:.1f}" font-family="{FONT}" font-size="{fs:.1f}" '
                   f'font-weight="700" fill="{lk.centre_colour}" stroke="#ffffff" stroke-width="2.2" '
                   f'paint-order="stroke" text-anchor="middle">{h(lk.centre)}</text>')
    if lk.badge:
        fs = _fit(lk.badge, 10, 20)
        out.append(f'<rect x="6" y="{H - 22}" width="24" height="15" rx="7.5" fill="{lk.badge_colour}" '
                   f'stroke="#ffffff" stroke-width="0.8"/>')
        out.append(f'<text x="18" y="{H - 14.5 + fs * 0.36:.1f}" font-family="{FONT}" font-size="{fs:.1f}" '
                   f'font-weight="700" fill="#ffffff" text-anchor="middle">{h(lk.badge)}</text>')
    if lk.footer:
        fs = _fit(lk.footer, 10, 22)
        out.append(f'<text x="{W - 8}" y="{H - 11}" font-family="{FONT}" font-size="{fs:.1f}" font-weight="700" '
                   f'fill="{shade(lk.field, 0.45)}" text-anchor="end">{h(lk.footer)}</text>')
    if lk.star:
        out.append(_star(W / 2, 13, 6.5))
    if fact is not None and fact.wild:
        out.append(f'<rect x="3" y="22" width="{W - 6}" height="13" fill="#c62828" stroke="#ffffff" '
                   f'stroke-width="0.8" opacity="0.92"/>')
        out.append(f'<text x="{W / 2}" y="32" font-family="{FONT}" font-size="10" font-weight="700" '
                   f'fill="#ffffff" text-anchor="middle" letter-spacing="1">WILD</text>')
    if strip:
        out.append(f'<rect x="0" y="{H}" width="{W}" height="{LEGEND}" fill="#ffffff"/>')
        for k, line in enumerate(lines):
            if line:
                fs = _fit(line, 8, W - 2)
                out.append(f'<text x="{W / 2}" y="{H + 8 + 9 * k}" font-family="{FONT}" font-size="{fs:.1f}" '
                           f'font-weight="{700 if k else 400}" fill="{"#b71c1c" if k and fact.wild else "#222222"}" '
                           f'text-anchor="middle">{h(line)}</text>')
    out.append("</svg>")
    return "".join(out)


def safe_id(card_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", card_id)


def card_path(deck_id: str, card_id: str) -> str:
    """Where a card's picture is written, relative to the site root."""
    return f"cards/{safe_id(deck_id)}/{safe_id(card_id)}.svg"


class Pictures:
    """Every shipped deck's card pictures, and <img> tags for them."""

    def __init__(self, styles: dict):
        self.styles = styles
        self.files: dict[str, str] = {}
        self.looks: dict[tuple[str, str], tuple] = {}
        for name in deck_names():
            deck = load_deck(name)
            st = deck_style(deck, styles) or _generic_style(deck)
            for c in deck.cards:
                self.files[card_path(deck.id, c.id)] = svg(c, st, f"{c.name} ({c.id})")
                self.looks[(deck.id, c.id)] = look(c, st).key()

    def img(self, root: str, deck_id: str, card: Card, cls: str = "rk-card", extra: str = "") -> str:
        # in words, as a reader names the card: a screen reader reads the alt text aloud, and an id is no word
        label = card.name + (f" — {extra}" if extra else "")
        path = card_path(deck_id, card.id)
        if path not in self.files:  # a card of a deck that is not shipped: draw it generically
            self.files[path] = svg(card, _generic_style_for(card), label)
        return f'<img class="{cls}" src="{root}{path}" alt="{h(label)}" title="{h(label)}" loading="lazy">'

    def game_img(self, root: str, game_id: str, deck_id: str, card: Card, fact: CardFact | None,
                 cls: str = "rk-card", extra: str = "", legend: bool = True) -> str:
        """An <img> of a card as one game counts it (its value, WILD, and unless `legend` is False,
        as on the small cards of a table picture, a legend in words under it)."""
        deck = None
        try:
            deck = load_deck(deck_id)
        except Exception:  # noqa: BLE001 - a deck that is not shipped is drawn generically
            pass
        st = (deck_style(deck, self.styles) or _generic_style(deck)) if deck is not None else _generic_style_for(card)
        fact = fact or CardFact(None, False)
        words = legend_text(card, st, fact)
        label = card.name + (f": {words}" if words else "") + (f" — {extra}" if extra else "")
        path = f"cards/{safe_id(deck_id)}/{safe_id(game_id)}/{'' if legend else 'small/'}{safe_id(card.id)}.svg"
        if path not in self.files:
            self.files[path] = svg(card, st, f"{card.name}" + (f": {words}" if words else ""), fact, legend)
        cls += " rk-card--legend" if legend else ""
        return f'<img class="{cls}" src="{root}{path}" alt="{h(label)}" title="{h(label)}" loading="lazy">'

    def style_of(self, deck_id: str) -> dict:
        """The style a shipped deck's cards are drawn with."""
        deck = load_deck(deck_id)
        return deck_style(deck, self.styles) or _generic_style(deck)

    def look_key(self, deck_id: str, card: Card) -> tuple:
        return self.looks.get((deck_id, card.id), (card.id,))


def _generic_style_for(card: Card) -> dict:
    st: dict = {"corner": {"by": "id"}}
    for k, v in card.attrs.items():
        if isinstance(v, str) and "field" not in st:
            st["field"] = {"by": k}
        if isinstance(v, int) and not isinstance(v, bool) and "centre" not in st:
            st["centre"] = {"by": k}
    return st

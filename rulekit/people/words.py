"""Small word helpers of the narration: chips and amounts in words, lists joined with 'and',
identifiers made readable, whether a name already says a value, groups of seats, the draw for seats."""
from __future__ import annotations

import re
from typing import Any


def chips_word(n: Any) -> str:
    """'1 chip', '4 chips' (fractions and other amounts as written)."""
    return f"{n} chip" if str(n) in ("1", "-1", "+1") else f"{n} chips"


_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                 "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                 "nineteen", "twenty")
# a name's words: letters (with inner hyphens: "Ten-point" is one word, not "Ten") or digits
_WORD_RE = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*|\d+")


def names_value(name: str, value: Any) -> bool:
    """Whether a card's name already says this shown value: it has the value as a word of its
    own, in digits or as an English number word ('Red One (Aka-pin)' says 1, 'Ten of Cups' and
    '10 of Cups' say 10; 'Ten' says nothing of a shown 0, 'Ten-point card' nothing of 10)."""
    if isinstance(value, str) and value.isdigit():
        value = int(value)  # a text value that is a number (display.card written as a text)
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    words = {w.lower() for w in _WORD_RE.findall(str(name))}
    if str(value) in words:
        return True
    return 0 <= value < len(_NUMBER_WORDS) and _NUMBER_WORDS[value] in words


def human_words(name: str) -> str:
    """An identifier as words: 'dealer_buta' -> 'dealer buta'."""
    return str(name).replace("_", " ").replace("-", " ").strip()


def in_sentence(name: str) -> str:
    """A hand's name as it reads inside a sentence: 'three of a kind' for 'Three of a kind' (a
    common word starts a name otherwise in lower case); a name of its own as it is written: one
    word, an uncommon first word, or a name written in title case (an upper-case letter starting
    a later word), every such name alike."""
    from rulekit.lang.prose import COMMON_FIRST_WORDS
    first, _, rest = name.partition(" ")
    titled = any(w[:1].isupper() for w in rest.split())
    return name[:1].lower() + name[1:] if first in COMMON_FIRST_WORDS and rest and not titled else name


def join_words(items: list[str]) -> str:
    """'A', 'A and B', 'A, B and C' ('nothing' for none)."""
    if not items:
        return "nothing"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def negated(a: Any) -> Any:
    try:
        return -a
    except TypeError:
        return a


def is_negative(a: Any) -> bool:
    try:
        return a < 0
    except TypeError:
        return str(a).startswith("-")


def plain_amount(a: Any) -> Any:
    """A pay event's amount as a number where it is one ('7/2' stays text)."""
    if isinstance(a, str):
        try:
            from fractions import Fraction
            f = Fraction(a)
            return int(f) if f.denominator == 1 else f
        except (ValueError, ZeroDivisionError):
            return a
    return a


def in_order(v: Any, order: dict[str, int]) -> Any:
    """A set of card ids (or a list of sets) in deck order."""
    if isinstance(v, list) and all(isinstance(x, str) and x in order for x in v):
        return sorted(v, key=order.__getitem__)
    if isinstance(v, list) and all(isinstance(x, list) for x in v):
        return sorted((in_order(x, order) for x in v), key=lambda g: [order.get(c, -1) for c in g])
    return v


def seats_words(seats: list[int], you: int | None = None) -> str:
    """'Seats 2 to 6', 'Seats 1, 3 and 4', 'Seats 1 and 2 (you)' (seats in the order given)."""
    if len(seats) > 2 and seats == list(range(seats[0], seats[0] + len(seats))) and you not in seats:
        return f"Seats {seats[0]} to {seats[-1]}"
    names = [f"{s} (you)" if s == you else str(s) for s in seats]
    return "Seats " + ", ".join(names[:-1]) + f" and {names[-1]}"


# -- the draw for the deal and the seats (kept apart: one sentence per draw event) -------------

def draw_sentence(game: Any, e: dict, name: Any) -> str:
    """A 'draw' event in words: who drew which card, and whether a tie makes everyone draw again."""
    spec = game.extra.seat_draw
    what = "the seats and the deal" if spec is not None and spec.seating == "by_draw" else "the deal"
    # drawing for seats, players are not yet seats (numbered from 1); drawing for the deal only, they are
    who = "player {}" if spec is not None and spec.seating == "by_draw" else "seat {}"
    base = 1 if spec is not None and spec.seating == "by_draw" else 0
    drawn = join_words([f"{who.format(p + base)} {name(c)}" for p, c in enumerate(e["cards"])])
    return f"Draw for {what}: {drawn}" + (" - a tie, everyone draws again." if e.get("tie") else ".")


def seating_sentence(game: Any, e: dict) -> str:
    """A 'seating' event in words: who deals first, and (seated by the draw) who sits where."""
    spec = game.extra.seat_draw
    card = f"the {spec.deals} card" if spec is not None else "the draw"
    if spec is not None and spec.seating == "by_draw":
        seats = join_words([f"player {p + 1} at seat {s}" for s, p in enumerate(e["players"])])
        return f"By the draw, {seats}; {card} deals first (seat {e['dealer']})."
    return f"Seat {e['dealer']} drew {card} and deals first."

"""How the other players are told a seat's answer, in the variant's own words (choose `told`):
"Seat 3 plays Six of Swords", several seats at once "Seats 4 and 5 pass"."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable


@dataclass(frozen=True)
class Act:
    """A seat's answer told with `told` words: the choice, the parameter, the key of the words
    used ('*' for a template), the template (or the fixed words) and the value's words."""

    choice: str
    param: str
    key: str
    words: str
    value: str = ""
    many: bool = False  # the value is several things at once (three cards played together)

    def said(self, values: list[str] | None = None, plural: bool = False, many: bool = False) -> str:
        """The words, with the value (or several values, joined) in the template's {value};
        `many`: some of the values are several things each, so they are told one after another
        ('King of Cups, then Two of Swords, Two of Cups and Two of Clubs')."""
        from rulekit.people.words import join_words
        joined = (", then ".join(values) if many else join_words(values)) if values else self.value
        text = self.words.replace("{value}", joined)
        return plural_verb(text) if plural else text

    @property
    def empty(self) -> bool:
        """An empty answer (no cards): after answers of the same choice it only ends the turn."""
        return self.key == "[]"


def told_act(choice: Any, choice_id: str, action: dict, value_words: Callable[[str, Any], str],
             plain: Callable[[str, Any], str]) -> Act | None:
    """The `told` words of the first parameter of an answer (`value_words` gives a value's label,
    `plain` its bare words for a template's {value}); None when the choice has none for it or
    when the answer has other parameters that say something (the caller then says 'chooses')."""
    told = getattr(choice, "told", None) or {}
    items = list(action.items())
    if not items or items[0][0] not in told:
        return None
    if any(value_words(p, v) for p, v in items[1:]):
        return None
    param, v = items[0]
    words = told[param]
    key = _key(v)
    if key in words:
        return Act(choice_id, param, key, words[key])
    if "*" in words:
        return Act(choice_id, param, "*", words["*"], plain(param, v), isinstance(v, list) and len(v) > 1)
    return None


def _key(v: Any) -> str:
    return "true" if v is True else "false" if v is False else str(v)


_SAME_PLURAL = {"has": "have", "is": "are", "does": "do", "goes": "go"}


def plural_verb(text: str) -> str:
    """The words with their first word (a verb in the third person) in the plural: 'passes' ->
    'pass', 'plays Five' -> 'play Five', 'tries' -> 'try', 'has' -> 'have'."""
    head, sep, rest = text.partition(" ")
    low = head.lower()
    if low in _SAME_PLURAL:
        base = _SAME_PLURAL[low]
    elif low.endswith("ies") and len(low) > 4:
        base = head[:-3] + "y"
    elif low.endswith(("sses", "shes", "ches", "xes", "zzes", "oes")):
        base = head[:-2]
    elif low.endswith("s") and not low.endswith("ss"):
        base = head[:-1]
    else:
        base = head
    return base + sep + rest

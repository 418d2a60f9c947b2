"""A payment as players say it: who pays whom, how much and why, in the variant's words.

`PayText` is a part of `rulekit.people.narrate.Narrator`: it reads the narrator's view of the
table (zones, values, the round's yaku) to fill in the reasons of `display.reasons`.
"""
from __future__ import annotations

from typing import Any

from rulekit.people.words import chips_word, human_words, in_sentence, join_words


class PayText:
    """The sentences of payments (a mixin of the narrator: uses its seats, zones and yaku)."""

    def pay_text(self, src: Any, dst: Any, a: Any, why: str) -> str:
        """'Seat 2 pays 4 chips to the dealer (seat 0): 7 against 3 (bettor wins)'."""
        return f"{self.seat(src)} pays {chips_word(a)} to {self.seat(dst, upper=False)}" + self.pay_why(src, dst, why)

    def pay_why(self, src: Any, dst: Any, why: str) -> str:
        """What a payment is told with after its receiver: ' (7 against 3)', or ''."""
        reason = []
        words = self.game.extra.display.reasons.get(why)  # the variant's words for it
        # the hands' values where the variant's words put {values}; without words for the reason,
        # after it unless it gives its own numbers ('column 2, 7 against 3')
        vs = (None, None)
        if (words is None and not any(ch.isdigit() for ch in why)) or (words and "{values}" in words):
            vs = self._values_of(dst), self._values_of(src)
        values = f"{vs[0]} against {vs[1]}" if vs[0] is not None and vs[1] is not None else ""
        if words is not None and "{value}" in words:
            # {value}: the shown value of the seat's side (a payment between a seat and a pot)
            v = self._values_of(dst if isinstance(dst, int) else src)
            words = words.replace("{value}", str(v)) if v is not None else words.split(": {value}")[0]
        if words is not None and "{yaku}" in words:
            # {yaku}: the yaku the seat paid (or paying a pot) was last found to hold, by name: what
            # this payment pays for, not a hand paid for earlier in the round (a teyaku at the deal)
            whose = dst if isinstance(dst, int) else src
            found = [y for y in self.yaku if y["player"] == whose]
            names = [in_sentence(n) for n in found[-1]["names"]] if found else []
            words = words.replace("{yaku}", join_words(names) if names else "a yaku")
        if words is not None:
            said = words.replace("{values}", values).strip(" ,;:") if "{values}" in words else words
            reason += [said] if said else []
        else:
            reason += [human_words(why)] if why else []
            reason += [values] if values else []
        return f" ({'; '.join(reason)})" if reason else ""

    def _values_of(self, seat: Any) -> Any:
        """The shown value of a seat's own visible hand (a per-player zone with a shown value)."""
        if not isinstance(seat, int):
            return None
        for zname, zd in self.zone_defs.items():
            if zd.kind != "player" or zname not in self.game.extra.display.zone_show:
                continue
            full = f"{zname}[{seat}]"
            text, value = self.zone_view(full)
            if value is not None:
                return value
        return None

"""The end of a round in words: the hands as the viewer saw them, yaku, every payment (grouped),
chip changes and who deals next; the standings. A part of `rulekit.people.narrate.Narrator`."""
from __future__ import annotations

from typing import Any

from rulekit.people.line import LONG_PILE, ZONE_RE, Line
from rulekit.people.words import chips_word, human_words, join_words, seats_words


class Recap:
    """The narrator's round summary and standings (it keeps the round's state they tell)."""

    # state and helpers the narrator provides
    game: Any
    n: int
    viewer: int | None
    zones: dict
    zone_defs: dict
    pays: list
    yaku: list
    said: list
    chips: list
    round_start: list
    ended: str
    round_no: int
    rounds: Any
    dealer: Any
    next_dealer: Any
    dealer_why: str
    seat: Any
    chips_text: Any
    zone_words: Any
    zone_view: Any
    main_zone: Any
    group_cards: Any
    zone_of: Any
    pay_text: Any
    pay_why: Any
    _has: Any

    def hands(self) -> list[tuple[str, str, Any]]:
        """Every non-empty zone other than the deck, as (zone words, cards text, value)."""
        out = []
        for zname, cards in self.zones.items():
            if zname == self.game.deck_zone or self.main_zone(zname) != zname or not self.group_cards(zname):
                continue
            text, value = self.zone_view(zname)
            out.append((self.zone_words(zname), text, value))
        return out

    def _own_hidden(self, words: str) -> bool:
        """Whether the zone told as `words` is the viewer's own hand that only its owner sees."""
        for zname in self.zones:
            m = ZONE_RE.match(zname)
            zd = self.zone_defs.get(m.group("base") if m else zname)
            if (self.zone_words(zname) == words and zd is not None and zd.visibility == "owner"
                    and m is not None and m.group("idx") == str(self.viewer)):
                return True
        return False

    def _zone_named(self, words: str) -> str:
        """The zone told as `words` (as hands() names it)."""
        return next((z for z in self.zones if self.main_zone(z) == z and self.zone_words(z) == words), "")

    def pile_text(self, zname: str) -> str | None:
        """A long pile told compactly (the narrator knows how); None here."""
        return None

    def _cards_of(self, words: str) -> list[str]:
        """The cards of the hand told as `words` (as hands() names it)."""
        for zname in self.zones:
            if self.main_zone(zname) == zname and self.zone_words(zname) == words:
                return self.group_cards(zname)
        return []

    def round_summary(self) -> list[Line]:
        """The round just played: the hands as the viewer sees them, yaku, payments, chip changes."""
        out = [self.end_heading()]
        for words, text, value in self.hands():
            line = f"{words[0].upper() + words[1:]}: {text}"
            if text.count(", ") >= LONG_PILE and not self._own_hidden(words):  # your own hand in full
                # a long pile (captures): the cards that count by name, the rest counted ('and 6
                # chaff'); in full when too few fold (never a bare count: it hides what was made)
                pile = self.pile_text(self._zone_named(words))
                line = f"{words[0].upper() + words[1:]}: {pile}" if pile else line
            if value is not None:
                line += f" — shows {value}"
            out.append(self._hand_line(words, text, value, line + "."))
        out += self.outcome_lines()
        out.append(self.changes_line())
        nxt = self.next_line()
        return out + ([nxt] if nxt is not None else [])

    def _hand_line(self, words: str, text: str, value: Any, line: str) -> Line:
        """A summary line of the place told as `words`; a seat's place the viewer sees none of
        carries its owner and size (`Line.hidden`), so that such hands can be told together."""
        zname = self._zone_named(words)
        base, seat = self.zone_of(zname)
        zd = self.zone_defs.get(base)
        n = len(self.group_cards(zname))
        if (value is None and seat is not None and seat != self.viewer and zd is not None and zd.kind == "player"
                and text == ("a hidden card" if n == 1 else f"{n} hidden cards")):
            return Line("summary", line, seat=seat, hidden=n, tag=" (dealer)" if seat == self.dealer else "", dst=zname)
        return Line("summary", line, dst=zname)

    def end_heading(self) -> Line:
        """'End of round 2 (the showdown).'"""
        ended = self.game.extra.display.reasons.get(self.ended) or human_words(self.ended)
        return Line("heading", f"End of round {self.round_no + 1}" + (f" ({ended})" if ended else "") + ".")

    def outcome_lines(self, during: bool = True) -> list[Line]:
        """The round's yaku, what the rules said and its payments (`during`: with the line of
        payments told as they were paid)."""
        out = []
        # a seat's yaku that its hand's value above already names ('— shows <yaku name>')
        # is not said again
        valued = {(self.zone_of(z)[1], str(self.zone_view(z)[1])) for z in self.zones
                  if _own_place(self, z) and self.group_cards(z)}
        for y in self.yaku:
            if y["place"] is None and (y["player"], join_words(y["names"])) in valued:
                continue
            has = self._has(y["player"], y["place"], y["names"])
            out.append(Line("summary", has.text, found=has.found))
        # what the rules said during the round (who sat out, who won and how) before the
        # payments it explains
        out += [Line("summary", t) for t in self.said]
        if not self.pays:
            out.append(Line("summary", "Nobody pays anybody this round."))
        return out + [Line("summary", t) for t in self.pays_text(during)]

    def changes_line(self) -> Line:
        """'Chip changes: seat 0 -1, seat 1 (you) +3.'"""
        changes = []
        for s in range(self.n):
            try:
                d = self.chips[s] - self.round_start[s]
            except TypeError:
                continue
            if d or any(s in (p["from"], p["to"]) for p in self.pays):  # paid and was paid as much: ±0
                changes.append(f"{self.seat(s, upper=False)} {'+' if d > 0 else '±' if not d else ''}{d}")
        return Line("summary", ("Chip changes: " + ", ".join(changes) if changes else "No chips change hands") + ".")

    def next_line(self) -> Line | None:
        """Who deals the next round and why ('Next round seat 3 deals: ...'); None after the last round."""
        more = self.rounds is None or self.round_no + 1 < self.rounds
        if more:
            # the engine keeps the dealer unless the rules set another
            nxt = self.dealer if self.next_dealer is None else self.next_dealer
            who = ("you deal" if nxt == self.viewer else f"seat {nxt} deals") + (" again" if nxt == self.dealer else "")
            why = self.dealer_why if self.next_dealer is not None else ""
            if why and nxt == self.dealer and getattr(self, "last_dealer_why", None) == (nxt, why):
                why = ""  # the same dealer again for the same reason as last round: said once
            return Line("summary", f"Next round {who}" + (f": {why}." if why else "."))
        return None

    def pays_text(self, during_line: bool = True) -> list[str]:
        """The round's payments, grouped: one seat's repeated payments as one ('3 times'), and
        seats paying the same to the same for the same reason as one sentence."""
        total: dict[tuple, list] = {}
        for p in self.pays:
            key = (p["from"], p["to"], p["why"], bool(p.get("told")))
            if key in total:
                try:
                    total[key][0] += p["amount"]
                except TypeError:
                    total[(*key, len(total))] = [p["amount"], 1]
                    continue
                total[key][1] += 1
            else:
                total[key] = [p["amount"], 1]
        groups: dict[tuple, list[Any]] = {}
        during: dict[tuple, list[Any]] = {}  # payments told as they were paid: one short line at the end
        to_seat: dict[str, tuple[str, int, str] | None] = {}  # a seat's payment to a seat: (amount, payee, reason)
        for key, (a, times) in total.items():
            src, dst, why = key[:3]
            if key[3]:
                during.setdefault((dst, repr(a)), []).append((src, a))
                continue
            told = self.pay_why(src, dst, why)
            if times > 1:  # (the count with the reason, never inside the receiver's own brackets)
                told = told[:-1] + f", {times} times)" if told else f" ({times} times)"
            rest = f" {chips_word(a)} to {self.seat(dst, upper=False)}{told}"
            if isinstance(src, int):
                groups.setdefault(("seat", rest), []).append(src)
                to_seat[rest] = (f" {chips_word(a)}", dst, told) if isinstance(dst, int) else None
            else:
                groups[(f"{self.seat(src)} pays{rest}", len(groups))] = []
        items: list[str | tuple[str, int, str]] = []
        for (head, rest), seats in groups.items():
            if head != "seat":
                items.append(head + ".")
            elif len(seats) == 1:
                one = to_seat[rest]
                # one seat paying another: kept as data, to be told with its like to other seats
                items.append(f"{self.seat(seats[0])} pays{rest}." if one is None
                             else (f"{self.seat(seats[0])} pays{one[0]}", one[1], one[2]))
            else:
                items.append(f"{seats_words(seats, self.viewer)} each pay{rest}.")
        out = self._to_many(items)
        if during and during_line:
            # the same chips, not a second charge: said once, short, without the reasons told then
            parts = []
            # to each receiver in turn, the smallest payments first (not in the order first paid)
            for (dst, _), paid in sorted(during.items(), key=lambda kv: (str(kv[0][0]), kv[1][0][1])):
                seats = sorted(src for src, _ in paid if isinstance(src, int))
                to = self.seat(dst, upper=False)
                if len(seats) == len(paid) and len(seats) > 1:
                    who = seats_words(seats, self.viewer)
                    parts.append(f"{who[0].lower()}{who[1:]} paid {chips_word(paid[0][1])} each to {to}")
                else:
                    parts += [f"{self.seat(src, upper=False)} paid {chips_word(a)} to {to}" for src, a in paid]
            out.append("During play (counted in the chip changes): " + "; ".join(parts) + ".")
        return out

    def _to_many(self, lines: list[str | tuple[str, int, str]]) -> list[str]:
        """One seat paying the same to several seats for the same reason told once ('Seat 0
        (dealer) pays 1 chip each to seats 1, 2, 3 (you) and 4 (the dealer's Buta).'); `lines`:
        sentences, and one seat's payments to one seat as (payer and amount, payee, reason)."""
        keyed: dict[str | tuple[str, str], list[int]] = {}
        for item in lines:
            if isinstance(item, tuple):
                keyed.setdefault((item[0], item[2]), []).append(item[1])
            else:
                keyed.setdefault(item, [])
        out = []
        for key, seats in keyed.items():
            if isinstance(key, str):
                out.append(key)
                continue
            head, why = key
            if len(seats) == 1:
                out.append(f"{head} to {self.seat(seats[0], upper=False)}{why}.")
            else:
                who = seats_words(seats, self.viewer)
                out.append(f"{head} each to {who[0].lower()}{who[1:]}{why}.")
        return out

    def standings(self, changes: bool = False) -> list[Line]:
        """Every seat's chips, most first: '1. Seat 2 (you): +14 chips' (`changes`: with what the
        round just played changed, '+14 chips (+3)')."""
        order = sorted(range(self.n), key=lambda s: (-self.chips[s] if isinstance(self.chips[s], (int, float))
                                                     else 0, s))
        out = [Line("heading", "Standings:")]
        more = self.rounds is None or self.round_no + 1 < self.rounds
        # the round's changes only where they differ from the standings (not after the first round)
        start = self.game.start_chips or 0
        changes = changes and any(r != start for r in self.round_start if isinstance(r, int))
        nxt = self.dealer if self.next_dealer is None else self.next_dealer
        for k, s in enumerate(order):
            # equal chips, equal place ('2. Seat 1: +0 chips; 2. Seat 2: +0 chips')
            rank = next(j for j in range(k + 1) if self.chips[order[j]] == self.chips[s]) + 1
            # who deals the next round, not who dealt the one just told
            tag = ["you"] if s == self.viewer else []
            tag += ["deals next"] if more and s == nxt else []
            who = f"Seat {s}" + (f" ({', '.join(tag)})" if tag else "")
            change = ""
            if changes:
                try:
                    d = self.chips[s] - self.round_start[s]
                except TypeError:
                    d = 0
                change = f" ({d:+d})" if isinstance(d, int) and d else ""
            out.append(Line("standings", f"{rank}. {who}: {self.chips_text(self.chips[s])}{change}", s))
        return out


def _own_place(recap: Recap, zname: str) -> bool:
    """Whether `zname` is a seat's own place told with its value (not the deck, not a part)."""
    return zname != recap.game.deck_zone and recap.main_zone(zname) == zname and recap.zone_of(zname)[1] is not None

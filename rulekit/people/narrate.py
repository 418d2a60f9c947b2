"""Engine events told as plain-English sentences, as seen from one seat (or by an onlooker).

`Narrator` follows a game's event stream, keeping its own copy of where every card lies and
who has seen it, so it can say "Seat 2 is dealt 2 cards" to everybody else while telling seat 2
"You are dealt <card> (3) and <card> (10)". With `viewer=None` it tells
everything (the website's worked example); with a seat it never names a card that seat may not
see. Every word about the game comes from the variant (phase, yaku and card names, the labels
of choice values, the value shown for a hand); nothing here knows any game.

Text from the variant reaches the sentences unchanged: callers that print to a terminal pass
each line through `rulekit.core.inert.inert()`.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Iterable

from rulekit.lang.expr import EvalError
from rulekit.people.line import ZONE_RE as _ZONE_RE, Clause, Line
from rulekit.people.paytext import PayText
from rulekit.people.recap import Recap
from rulekit.people.words import (chips_word, draw_sentence, human_words, in_order, in_sentence, is_negative, join_words,
                                  names_value, negated, plain_amount, seating_sentence, seats_words)

__all__ = ["Line", "Narrator", "narrate", "chips_word", "names_value", "draw_sentence", "seating_sentence",
           "seats_words"]

ALL = -1  # seen by every seat


class Narrator(PayText, Recap):
    """Follows one game's events and tells each in sentences from `viewer`'s seat.

    `feed(event)` returns the sentences for one event; `round_summary()` and `standings()`
    describe the round just played and the game so far.
    """

    def __init__(self, game: Any, n: int, viewer: int | None = None, you: str = "You"):
        self.game, self.n, self.viewer = game, n, viewer
        self.you = you
        v = game.variant
        self.zone_defs = v.zones
        self.zones: dict[str, list[str]] = {}
        self.arrived: dict[str, int] = {}
        self.came: dict[str, str] = {}  # the zone (base name) each card last came from
        self.seen: dict[str, int] = {}
        self.open: set[str] = set()  # cards others saw as they came to a seat's hand (dealt face up)
        self.remembered: set[str] = set()  # the viewer's own cards that went where nobody sees them
        self.chips: list[Any] = [game.start_chips] * n
        self.dealer = 0
        self.round_no = -1
        self.round_start: list[Any] = list(self.chips)
        self.pays: list[dict] = []
        self.yaku: list[dict] = []
        self.records: list[dict] = []
        self.said: list[str] = []  # what the rules said this round (a tie, ...), told again at its end
        self.ended = ""
        self.next_dealer: int | None = None
        self.dealer_why = ""  # why the next dealer deals, in the rules' words (set_dealer's why)
        self.pots: dict[str, Any] = {}
        self.phase_id = ""
        self.index = game.card_index
        self.phase_names = {p.id: p.name for p in game.phases}
        self.yaku_names: dict[tuple[str, str], str] = {}
        for table, entries in game.yaku.items():
            for y in entries:
                # the plain English name, as hand values and payments say it (no romaji aside)
                self.yaku_names[(table, y.id)] = y.names.get("en") or human_words(y.id)
        self._scratch = None
        self._order: dict[str, int] | None = None  # name_order, worked out on first use
        #: the rounds the game is played for, when known ("Round 3 of 12")
        self.rounds: int | None = None

    def round_words(self) -> str:
        """'Round 3' or 'Round 3 of 12'."""
        return f"Round {self.round_no + 1}" + (f" of {self.rounds}" if self.rounds else "")

    def chips_text(self, c: Any) -> str:
        """A seat's chips: held ('30 chips') when the game starts with chips, else won or lost ('+4 chips')."""
        if self.game.start_chips and isinstance(c, (int, float)):
            return chips_word(c)
        return chips_word(f"{c:+d}" if isinstance(c, int) else str(c))

    # -- seats, zones, cards ---------------------------------------------------
    def seat(self, s: Any, upper: bool = True) -> str:
        """'Seat 2', 'Seat 2 (you)', 'the dealer (seat 0)', or a pot's name."""
        if not isinstance(s, int):
            return ("The " if upper else "the ") + human_words(s)
        return f"{'Seat' if upper else 'seat'} {s}" + self.seat_tag(s)

    def seat_tag(self, s: int) -> str:
        """What a seat's name carries: ' (you, dealer)', ' (dealer)', ' (you)' or ''."""
        tag = []
        if s == self.viewer:
            tag.append("you")
        if s == self.dealer:
            tag.append("dealer")
        return f" ({', '.join(tag)})" if tag else ""

    def zone_words(self, zname: str) -> str:
        """A zone as words: 'the deck', 'column 2', "seat 3's hand", 'your hand'."""
        m = _ZONE_RE.match(zname)
        base, idx = (m.group("base"), m.group("idx")) if m else (zname, None)
        zd = self.zone_defs.get(base)
        words = (zd.label if zd is not None and zd.label else "") or human_words(base)
        if idx is None:
            if words.startswith("the ") or words.startswith("The "):
                return words[0].lower() + words[1:]
            return f"the {words}"
        i = int(idx)
        if zd is not None and zd.kind == "player":
            if i == self.viewer:
                return f"your {words}"
            # the dealer named one way, as seats are ('Seat 0 (dealer)')
            return f"seat {i}'s (dealer's) {words}" if i == self.dealer else f"seat {i}'s {words}"
        return f"{words} {i + 1}"

    def zone_of(self, zname: str) -> tuple[str, int | None]:
        """'hand[2]' -> ('hand', 2); 'field' -> ('field', None)."""
        return self._zone_of(zname)

    def _zone_of(self, zname: str) -> tuple[str, int | None]:
        m = _ZONE_RE.match(zname)
        if not m:
            return zname, None
        return m.group("base"), (int(m.group("idx")) if m.group("idx") is not None else None)

    def can_see(self, card: str, zname: str, seat: int | None = None) -> bool:
        """Whether the viewer (or `seat`) may see `card` lying in zone `zname` (as the engine rules it)."""
        seat = self.viewer if seat is None else seat
        if seat is None:
            return True
        base, idx = self._zone_of(zname)
        zd = self.zone_defs.get(base)
        if zd is not None and zd.visibility == "public":
            return True
        if zd is not None and zd.visibility == "owner" and zd.kind == "player" and idx == seat:
            return True
        mask = self.seen.get(card, 0)
        return mask == ALL or bool(mask & (1 << seat))

    def card_text(self, cid: str) -> str:
        """A card's name with the value the game shows for it, '<card name> (10)', unless the
        name already says that value ('Five', not 'Five (5)')."""
        i = self.index.get(cid)
        if i is None:
            return str(cid)
        name = (self.game.extra.display.names or {}).get(cid) or self.game.card_name(i)
        v = self.card_value(i, self.came.get(cid, ""))
        if v is None or v == "" or names_value(name, v):
            return name
        if name.endswith(")") and "(" in name:
            # a name with brackets of its own takes the value inside them: 'Name (a note; 11, 20 pts)',
            # not two brackets in a row
            return f"{name[:-1]}; {v})"
        return f"{name} ({v})"

    def card_value(self, i: int, came_from: str = "") -> Any:
        fn = self.game.extra.display.card_show
        if fn is None:
            return None
        return self._eval(fn, {"c": i, "came_from": came_from})

    def main_zone(self, zname: str) -> str:
        """The zone a zone's cards are shown with (hole[2] -> column[2] when hole is part_of column)."""
        base, idx = self._zone_of(zname)
        zd = self.zone_defs.get(base)
        if zd is not None and zd.part_of and idx is not None:
            return f"{zd.part_of}[{idx}]"
        return zname

    def group_cards(self, zname: str) -> list[str]:
        """A zone's cards with those of the zones that are part of it (first the zone's own)."""
        base, idx = self._zone_of(zname)
        cards = list(self.zones.get(zname, []))
        if idx is not None:
            parts = [c for other, zd in self.zone_defs.items() if zd.part_of == base
                     for c in self.zones.get(f"{other}[{idx}]", [])]
            if parts:  # told in the order they were dealt (a hole card second, a third card last)
                return sorted(cards + parts, key=lambda c: self.arrived.get(c, -1))
        return cards

    def hand_value(self, zname: str, cards: list[str]) -> Any:
        """The value the variant shows for these cards in this zone (None when it shows none)."""
        base, idx = self._zone_of(zname)
        fn = (self.game.extra.display.zone_show or {}).get(base)
        if fn is None or not cards:
            return None
        seat = idx if idx is not None else -1
        ints = [self.index[c] for c in cards if c in self.index]
        value = self._eval(fn, {"cards": ints, "seat": seat})
        table = (self.game.extra.display.zone_yaku or {}).get(base)
        if table is not None and value is not None:
            # the hand's yaku by name, in place of its count ('Fourteen', not 'Fourteen (11)': the
            # raw sum beside a name only puzzles)
            names = self._yaku_of(table, ints, seat if seat >= 0 else self.dealer)
            if names:
                return join_words([in_sentence(n) for n in names])
        return value

    def _yaku_of(self, table: str, cards: list[int], seat: int) -> list[str]:
        if self._scratch is None:
            self._scratch = self.game.new_ctx(self.n, 0, None, False)
        ctx = self._scratch
        ctx.dealer = self.dealer
        ctx.yaku_cache = {}  # the dealer (whom yaku may depend on) changes between rounds
        try:
            ys = ctx.yaku_eval(table, cards, seat)
        except Exception:  # a yaku that cannot be worked out here is simply not named
            return []
        en = {y.id: y.names.get("en") for y in self.game.yaku.get(table, [])}
        return [en.get(y.id) or human_words(y.id) for y in ys]

    def _eval(self, fn: Any, loc: dict) -> Any:
        if self._scratch is None:
            self._scratch = self.game.new_ctx(self.n, 0, None, False)
        ctx = self._scratch
        ctx.dealer = self.dealer
        ctx.loc = dict(loc)
        try:
            return fn(ctx)
        except Exception:  # a value that cannot be worked out is simply not shown
            return None

    def cards_text(self, cards: list[str], zname: str) -> str:
        """The cards as the viewer may know them: names where visible, a count otherwise."""
        return join_words(self._in_place([self.can_see(c, zname) for c in cards], cards))

    def _in_place(self, seen: list[bool], cards: list[str]) -> list[str]:
        """The cards' words in their order, each hidden one in its place ('Five, a hidden card and
        Seven': a column read as dealt), hidden ones side by side counted together."""
        parts: list[str] = []
        run = 0
        for c, ok in zip(cards + [""], seen + [True]):
            if not ok:
                run += 1
                continue
            if run:
                parts.append("a hidden card" if run == 1 else f"{run} hidden cards")
                run = 0
            if c:
                parts.append(self.card_text(c))
        return parts

    def zone_view(self, zname: str, full: bool = False) -> tuple[str, Any]:
        """What the viewer sees of a zone (with the zones that are part of it): its cards as
        text, and its value when all are visible; a zone with `show_last` only by its size and
        last cards unless `full`."""
        zname = self.main_zone(zname)
        cards = self.held_order(zname, self.group_cards(zname))
        if not cards:
            return "empty", None
        where = {c: z for z in [zname] + self._parts(zname) for c in self.zones.get(z, [])}
        # (your own cards thrown in unseen too: you saw them; the engine's view of the seat does not
        # keep them, so only what the table shows you names them)
        shown = [c for c in cards if self.can_see(c, where[c]) or c in self.remembered]
        hidden = len(cards) - len(shown)
        base, idx = self._zone_of(zname)
        zd = self.zone_defs.get(base)
        if not shown and idx is not None and idx == self.viewer and zd is not None and zd.kind == "player":
            # your own cards before you may look at them (a blind exchange of hands): yours, unseen
            return ("a card" if hidden == 1 else f"{hidden} cards") + ", not yet looked at", None
        last = (self.game.extra.display.zone_last or {}).get(self._zone_of(zname)[0])
        if last and not full and not hidden and len(cards) > last:
            # a run on which only the top counts: its size and its last cards, the latest last
            return (f"{len(cards)} cards, ending {join_words([self.card_text(c) for c in cards[-last:]])}",
                    self.hand_value(zname, cards))
        k = (self.game.extra.display.zone_groups or {}).get(self._zone_of(zname)[0])
        if k and not hidden and len(cards) >= k:
            # sets laid down: told set by set ('Nine, Eight and Seven; One, Two and One')
            # each set in deck order, as the menu and the answer told it
            order = self.name_order()
            groups = sorted((sorted(cards[i:i + k], key=lambda c: order.get(c, -1)) for i in range(0, len(cards), k)),
                            key=lambda g: [order.get(c, -1) for c in g])
            return "; ".join(join_words([self.card_text(c) for c in g]) for g in groups), self.hand_value(zname, cards)
        parts = self._in_place([self.can_see(c, where[c]) or c in self.remembered for c in cards], cards)
        return join_words(parts), (self.hand_value(zname, cards) if not hidden else None)

    def pile_text(self, zname: str) -> str | None:
        """A long open pile told compactly, every card that counts by name: the cards of the
        pile's lowest value in this game (display.value), wild ones apart, counted under the word
        their names share ('A (3, 20 pts), B (7, 10 pts) and 6 chaff'); None when the
        game gives cards no value or nothing folds."""
        facts = self.game.extra.display.card_facts or {}
        fn = facts.get("value") if isinstance(facts, dict) else None
        if not callable(fn):
            return None
        cards = self.group_cards(self.main_zone(zname))
        wild = facts.get("wild")
        vals: dict[str, Any] = {}
        for c in cards:
            i = self.index.get(c)
            if i is None or not self.can_see(c, zname):
                return None
            v = self._eval(fn, {"c": i})
            if not isinstance(v, (int, float)) or (callable(wild) and self._eval(wild, {"c": i})):
                v = None  # a wild card, or one without a number, is always named
            vals[c] = v
        low = min((v for v in vals.values() if v is not None), default=None)
        folded = [c for c in cards if low is not None and vals[c] == low]
        if len(folded) < 3:
            return None
        # the word every folded card's name has, besides its own (a bracketed note aside)
        names = [re.sub(r"\([^)]*\)", "", self.game.card_name(self.index[c])).split() for c in folded]
        common = [w for w in names[0][1:] if all(w in ws[1:] for ws in names)]
        word = common[-1] if common else "other cards"
        # the cards that count, the highest first (as a player spreads their captures)
        named = [self.card_text(c) for c in sorted((c for c in cards if c not in folded),
                                                    key=lambda c: -(vals[c] if vals[c] is not None else low))]
        return join_words(named + [f"{len(folded)} {word}"])

    def _arrive(self, card: str, owner: int | None) -> None:
        """Note whether others saw `card` come to seat `owner`'s place (a card dealt face up)."""
        if owner is not None and self.seen.get(card, 0) & ~(1 << owner):
            self.open.add(card)
        else:
            self.open.discard(card)

    def held_order(self, zname: str, cards: list[str]) -> list[str]:
        """A hand held where nobody else saw it come, in deck order (as a player sorts their
        cards), the viewer's own or one shown (a showdown) when the viewer sees all of it; any other
        zone keeps the order its cards came in (a run, a column, sets, a hand dealt partly face up)."""
        base, idx = self._zone_of(zname)
        zd = self.zone_defs.get(base)
        if (idx is None or zd is None or zd.kind != "player" or zd.visibility == "public"
                or base in (self.game.extra.display.zone_groups or {})
                or any(c in self.open for c in cards)
                or (idx != self.viewer and not all(self.can_see(c, zname) for c in cards))
                or (idx == self.viewer and self.viewer is not None and not all(self.can_see(c, zname) for c in cards))):
            return cards
        order = self.name_order()
        return sorted(cards, key=lambda c: order.get(c, -1))

    def _parts(self, zname: str) -> list[str]:
        base, idx = self._zone_of(zname)
        if idx is None:
            return []
        return [f"{other}[{idx}]" for other, zd in self.zone_defs.items() if zd.part_of == base]

    # -- choices -----------------------------------------------------------------
    def action_text(self, choice_id: str, action: dict) -> str:
        """A chosen action in words, with the variant's labels: 'column 1, 3 chips'."""
        choice = (self.game.choices.get(choice_id) or [None])[0]
        labels = getattr(choice, "labels", None) or {}
        sets = getattr(choice, "unordered", frozenset())
        parts = []
        for p, v in action.items():
            # a set of cards is told in deck order, as the menu showed it
            parts.append(self.value_text(p, in_order(v, self.name_order()) if p in sets else v, labels.get(p)))
        return ", ".join(x for x in parts if x)

    def told_act(self, choice_id: str, action: dict) -> Any:
        """The answer in the variant's `told` words for the other players (None: it has none)."""
        from rulekit.people.told import told_act
        choice = (self.game.choices.get(choice_id) or [None])[0]
        labels = getattr(choice, "labels", None) or {}
        sets = getattr(choice, "unordered", frozenset())

        def ordered(p: str, v: Any) -> Any:
            return in_order(v, self.name_order()) if p in sets else v
        return told_act(choice, choice_id, action, lambda p, v: self.value_text(p, ordered(p, v), labels.get(p)),
                        lambda p, v: self._plain_value(ordered(p, v)))

    def name_order(self) -> dict[str, int]:
        """Each card's place in the order a player sorts a hand: by the game's `display.sort`
        number, then deck order; cards of one name count as the first of them."""
        if self._order is None:
            g = self.game
            first: dict[str, int] = {}
            for i in range(len(g.card_ids)):
                first.setdefault(g.card_name(i), i)
            sort_fn = (g.extra.display.card_facts or {}).get("sort")
            keys = [0] * len(g.card_ids)
            if sort_fn is not None:
                ctx = g.new_ctx(self.n, 0, None, False)
                for i in range(len(g.card_ids)):
                    ctx.loc = {"c": i}
                    try:
                        keys[i] = sort_fn(ctx)  # options are fixed for a game: worked out once
                    except EvalError:
                        keys[i] = 0  # a card the number cannot be worked out for keeps its deck place
            ranked = sorted(range(len(g.card_ids)), key=lambda i: (keys[first[g.card_name(i)]], first[g.card_name(i)]))
            place = {}
            for i in ranked:
                place.setdefault(first[g.card_name(i)], len(place))
            self._order = {cid: place[first[g.card_name(i)]] for i, cid in enumerate(g.card_ids)}
        return self._order

    def value_text(self, param: str, v: Any, labels: dict | None) -> str:
        key = "true" if v is True else "false" if v is False else str(v)
        if labels:
            if key in labels:
                return str(labels[key])
            if "*" in labels:
                return str(labels["*"]).replace("{value}", self._plain_value(v))
        if isinstance(v, bool):
            return f"{human_words(param)}: {'yes' if v else 'no'}"
        return f"{human_words(param)} {self._plain_value(v)}"

    def _plain_value(self, v: Any) -> str:
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, str) and v in self.index:
            return self.card_text(v)
        if isinstance(v, list):
            if v and all(isinstance(x, list) and x for x in v):
                # groups of groups (sets of cards): 'One, Five and Four; Seven, Two and Six'
                return "; ".join(self._plain_value(x) for x in v)
            return join_words([self._plain_value(x) for x in v]) if v else "none"
        return str(v)

    # -- events ------------------------------------------------------------------
    def feed(self, e: dict) -> list[Line]:
        """Follow one event; the sentences it makes (often none)."""
        handler = getattr(self, "_e_" + str(e.get("t")), None)
        said = handler(e) if handler is not None else []
        self.last_t = e.get("t")
        # a sentence about one seat carries the words its name had then ('Seat 2 (dealer)')
        return [replace(ln, tag=self.seat_tag(ln.seat)) if ln.pred is not None and ln.seat is not None else ln
                for ln in said]

    def _e_draw(self, e: dict) -> list[Line]:
        return [Line("deal", draw_sentence(self.game, e, self.card_text))]

    def _e_seating(self, e: dict) -> list[Line]:
        return [Line("deal", seating_sentence(self.game, e))]

    def _e_round(self, e: dict) -> list[Line]:
        redeal = e["round"] == self.round_no
        self.round_no, self.dealer = e["round"], e["dealer"]
        self.zones = {}
        for zname, zd in self.zone_defs.items():
            if zd.kind == "single":
                self.zones[zname] = []
            else:
                for i in range(self.n if zd.kind == "player" else zd.count):
                    self.zones[f"{zname}[{i}]"] = []
        ids = self.game.card_ids
        self.zones[self.game.deck_zone] = [ids[i] for i in self.game.in_play(self.n)]
        self.arrived = {}  # the order cards came to their places this round
        self.seen = {}
        self.remembered = set()
        self.open = set()
        if not redeal:
            self.round_start = list(self.chips)
            # why the last round's dealer was chosen: the summary does not say it again unchanged
            self.last_dealer_why = (self.next_dealer, self.dealer_why) if self.next_dealer is not None else None
            self.pays, self.yaku, self.records, self.said = [], [], [], []
            self.ended, self.next_dealer, self.dealer_why = "", None, ""
        deal = "you deal" if self.dealer == self.viewer else f"seat {self.dealer} deals"
        return [Line("heading", f"{self.round_words()}: {deal}." if not redeal
                     else f"{self.round_words()} again: {deal}.")]

    def _e_phase(self, e: dict) -> list[Line]:
        self.phase_id = e["id"]
        return [Line("phase", self.phase_names.get(e["id"], human_words(e["id"])))]

    def _e_shuffle(self, e: dict) -> list[Line]:
        self.zones[e["zone"]] = list(e["order"])
        for c in e["order"]:
            self.seen[c] = 0
        return [Line("note", f"{self.zone_words(e['zone']).capitalize()} is shuffled.")]

    def _e_cut(self, e: dict) -> list[Line]:
        z = self.zones.get(e["zone"], [])
        k = e["at"]
        self.zones[e["zone"]] = z[k:] + z[:k]
        return [Line("note", f"{self.zone_words(e['zone']).capitalize()} is cut.")]

    def _e_deal(self, e: dict) -> list[Line]:
        src = self.zones.setdefault(e["from"], [])
        got: dict[int, list[str]] = {p: [] for p in e["players"]}
        for _ in range(e["count"]):
            for p in e["players"]:
                if src:
                    c = src.pop()
                    self.zones.setdefault(f"{e['to']}[{p}]", []).append(c)
                    self.arrived[c] = len(self.arrived)
                    got[p].append(c)
                    if e.get("face") == "up":
                        self.seen[c] = ALL
                    elif e.get("face") == "down":
                        self.seen[c] = 0
                    self._arrive(c, p)
        out = []
        unseen = []
        for p in e["players"]:
            zname = f"{e['to']}[{p}]"
            cards = got[p]
            if cards and all(self.can_see(c, zname) for c in cards):
                who = self.you if p == self.viewer else self.seat(p)
                verb = "are" if p == self.viewer else "is"
                line = f"{who} {verb} dealt {self.cards_text(self.held_order(zname, cards), zname)}"
                whole = self.zones[zname]
                value = self.hand_value(zname, whole) if all(self.can_see(c, zname) for c in whole) else None
                if value is not None:
                    line += f": {'your' if p == self.viewer else 'the'} {human_words(e['to'])} shows {value}"
                out.append(Line("deal", line + ".", p))
            else:
                unseen.append(p)
        if unseen:
            k = e["count"]
            cnt = "a card" if k == 1 else f"{k} cards"
            who = join_words([self.seat(p, upper=False) for p in unseen])
            out.insert(0, Line("deal", f"{cnt.capitalize()} {'is' if k == 1 else 'are'} dealt face down to {who}."
                               if len(unseen) > 1
                               else f"{self.seat(unseen[0])} is dealt {cnt} face down.", None))
        return out

    def _e_move(self, e: dict) -> list[Line]:
        cards = list(e["cards"])
        for c in cards:  # display.card may read where a card came from (`came_from`)
            self.came[c] = self._zone_of(e["from"])[0]
        src = self.zones.setdefault(e["from"], [])
        known_before = [self.can_see(c, e["from"]) for c in cards]
        for c in cards:
            if c in src:
                src.remove(c)
        self.zones.setdefault(e["to"], []).extend(cards)
        for c in cards:
            self.arrived[c] = len(self.arrived)
        face = e.get("face")
        fb, fi = self._zone_of(e["from"])
        fz = self.zone_defs.get(fb)
        own = self.viewer is not None and fi == self.viewer and fz is not None and fz.kind == "player"
        for c, known in zip(cards, known_before):
            if face == "up":
                self.seen[c] = ALL
            elif face == "down":
                self.seen[c] = 0
            elif own and known:
                self.remembered.add(c)  # your own card gone out of sight: you still know it
                continue
            self.remembered.discard(c)  # moved on again: where it is now is told as anyone sees it
        for c in cards:
            self._arrive(c, self._zone_of(e["to"])[1])
        visible = [b or self.can_see(c, e["to"]) for c, b in zip(cards, known_before)]
        named: tuple[str, ...] = ()
        base, idx = self._zone_of(e["to"])
        zd = self.zone_defs.get(base)
        if (not any(visible) and e["from"] == self.game.deck_zone and zd is not None and zd.kind == "player"
                and idx is not None):
            # cards dealt face down to a seat: a deal, as a table would say it
            k = len(cards)
            what = "a card" if k == 1 else f"{k} cards"
            if idx == self.viewer:  # (told with the others dealt the same: 'Seats 1, 2 (you) and 3 are each dealt')
                return [Line("deal", f"{self.you} are dealt {what} face down.", idx,
                             pred=(f"is dealt {what}", f"are each dealt {what}"))]
            return [Line("deal", f"{self.seat(idx)} is dealt {what}.", idx,
                         pred=(f"is dealt {what}", f"are each dealt {what}"))]
        if all(visible):
            named = tuple(self.card_text(c) for c in cards)
        src, dst = self.zone_words(self.main_zone(e["from"])), self.zone_words(self.main_zone(e["to"]))
        by = e["by"] if isinstance(e.get("by"), int) else None
        # a card dealt to a part of a hand (a hole card) goes to that hand, as a player would say
        verb = "go"
        if by is not None:  # who moves them (the step's `by`): 'Seat 3 moves ...'
            # hidden cards laid face up: turned up, as a player says it ('Seat 3 turns up ...'); two
            # zones a player sees as one place: nothing moves ("leaves ... on the table")
            verb = "turn up" if face == "up" and not any(known_before) else "leave" if src == dst else "move"
        elif src == dst:
            # two zones a player sees as one place (their labels are the same): the card stays where it lies
            verb = "stay"
        value = self.zone_view(e["to"])[1]
        clause = Clause(verb, named, len(cards), src, dst, face=face if face in ("up", "down") else "",
                        value="" if value is None else str(value), actor=by,
                        who="" if by is None else self.you if by == self.viewer else self.seat(by),
                        you=by is not None and by == self.viewer, src_seat=self._owner(e["from"]),
                        dst_seat=self._owner(e["to"]), src_zone=self.main_zone(e["from"]),
                        dst_zone=self.main_zone(e["to"]))
        return [Line("move", clause.text(), cards=named, src=e["from"], dst=e["to"], by=by, clause=clause)]

    def _owner(self, zname: str) -> int | None:
        """The seat whose own place `zname` is (None for a shared one)."""
        base, idx = self._zone_of(self.main_zone(zname))
        zd = self.zone_defs.get(base)
        return idx if zd is not None and zd.kind == "player" else None

    def _e_reveal(self, e: dict) -> list[Line]:
        cards = list(e["cards"])
        to = e["to"]
        mask = ALL
        if to != "all":
            mask = 0
            for p in to:
                mask |= 1 << p
        for c in cards:
            old = self.seen.get(c, 0)
            self.seen[c] = ALL if (mask == ALL or old == ALL) else old | mask
        if to == [] or self.viewer is None:
            return []  # told to everyone, who saw each card as it was dealt: nothing new
        where = self._where(cards)
        if to == "all":
            if where is not None:
                cards = self.held_order(where, cards)  # a hand shown as its holder sorted it
            clause = self._shown(tuple(self.card_text(c) for c in cards), where)
            return [Line("reveal", clause.text(), clause=clause)]
        lookers = list(to)
        if self.viewer is None or self.viewer in lookers:
            if where is not None and lookers == [self.viewer]:
                cards = self.held_order(where, cards)
            names = join_words([self.card_text(c) for c in cards])
            if self.viewer is not None and lookers == [self.viewer]:
                line = f"You see {names}"
            elif len(lookers) > 1:
                line = f"{seats_words(lookers, self.viewer)} see {names}"  # 'Seats 1 and 4 (you) see'
            else:
                line = f"{self.seat(lookers[0])} sees {names}"
            if where:
                line += self._in_hand(where)
            return [Line("reveal", line + ".", src=where or "")]
        k = len(cards)
        what = "a card" if k == 1 else f"{k} cards"
        base, idx = self._zone_of(where) if where else ("", None)
        zd = self.zone_defs.get(base)
        if len(lookers) == 1 and zd is not None and zd.kind == "player" and idx == lookers[0]:
            # a player looking at their own cards
            what = human_words(zd.label or base)
            return [Line("reveal", f"{self.seat(lookers[0])} looks at their {what}.", lookers[0],
                         pred=(f"looks at their {what}", f"look at their {what}s"))]
        line = f"{join_words([self.seat(p, upper=False) for p in lookers]).capitalize()} look{'s' if len(lookers) == 1 else ''} at {what}"
        if where:
            line += f" in {self.zone_words(self.main_zone(where))}"
        if len(lookers) == 1:
            return [Line("reveal", line + ".", lookers[0], pred=(f"looks at {what}", f"each look at {what}"))]
        return [Line("reveal", line + ".")]

    def _e_hide(self, e: dict) -> list[Line]:
        cards = list(e["cards"])
        where = self._where(cards)
        for c in cards:
            self.seen[c] = 0
        k = len(cards)
        what = f"{self.zone_words(self.main_zone(where))[0].upper()}{self.zone_words(self.main_zone(where))[1:]}" \
            if where else ("The card" if k == 1 else f"The {k} cards")
        return [Line("reveal", f"{what} {'is' if where or k == 1 else 'are'} hidden again.")]

    def _in_hand(self, where: str) -> str:
        """' — column 2 is now <card> and <card>, which shows 1': the hand the cards are in, as now
        seen (after a dash: zone and card names may hold parentheses of their own)."""
        return self._shown((), where).lying()

    def _shown(self, names: tuple[str, ...], where: str | None) -> Clause:
        """Cards (`names`) shown to everyone as a clause: with the hand they lie in (`where`), as now seen."""
        if not where:
            return Clause("show", names, len(names))
        main = self.main_zone(where)
        text, value = self.zone_view(main)
        hand = tuple(self.card_text(c) for c in self.group_cards(main)) if main != where else names
        return Clause("show", names, len(names), dst=self.zone_words(main), value="" if value is None else str(value),
                      dst_seat=self._owner(main), dst_zone=main, held=text if main != where else "", hand=hand)

    def _where(self, cards: list[str]) -> str | None:
        """The zone holding all these cards (None if they are spread out)."""
        for zname, z in self.zones.items():
            if cards and all(c in z for c in cards):
                return zname
        return None

    def _e_choose(self, e: dict) -> list[Line]:
        p = e["player"]
        what = self.action_text(e["choice"], e["action"])
        who = self.you if p == self.viewer else self.seat(p)
        if e.get("forced") and p == self.viewer and self.viewer is not None:
            # only the acting seat may be told it had no choice: at a table nobody else can tell a
            # forced move from a free one (telling them would leak what the seat holds)
            act = self.told_act(e["choice"], e["action"])
            pred = (act.said(plural=True),) * 2 if act is not None else None
            why = str(e.get("why") or "")
            told = what + (f" — {why}" if why else "")
            return [Line("choice", f"{who} have one choice only: {told}.", p, pred=pred, act=act, why=why,
                         alike=bool(e.get("alike")), answer=told, only=True)]
        if p == self.viewer:
            return [Line("choice", f"{who} choose: {what}.", p, own=what, answer=what)]
        act = self.told_act(e["choice"], e["action"])
        if act is not None:
            return [Line("choice", f"{who} {act.said()}.", p, pred=(act.said(), act.said(plural=True)), act=act)]
        return [Line("choice", f"{who} chooses: {what}.", p, pred=(f"chooses: {what}", f"choose: {what}"))]

    def _e_pay(self, e: dict) -> list[Line]:
        a = plain_amount(e["amount"])
        src, dst = e["from"], e["to"]
        if is_negative(a):
            src, dst, a = dst, src, negated(a)
        for who, sign in ((src, -1), (dst, 1)):
            try:
                if isinstance(who, int) and 0 <= who < self.n:
                    self.chips[who] += sign * a
                elif isinstance(who, str):
                    self.pots[who] = self.pots.get(who, 0) + sign * a
            except TypeError:
                pass
        self.pays.append({"from": src, "to": dst, "amount": a, "why": e.get("why", "")})
        text = self.pay_text(src, dst, a, e.get("why", ""))
        head = f"{self.seat(src)} pays "
        pred = bare = None
        if isinstance(src, int) and text.startswith(head):
            pred = (text[len(head) - 5:], "each pay " + text[len(head):])
            to = f"{chips_word(a)} to {self.seat(dst, upper=False)}"
            bare = (f"pays {to}", f"each pay {to}")
        return [Line("pay", text + ".", src if isinstance(src, int) else None, pred=pred, bare=bare)]

    def _e_yaku(self, e: dict) -> list[Line]:
        names = [self.yaku_names.get((e["table"], y), human_words(y)) for y in e["yaku"]]
        place = self.table_hand(e.get("cards") or [])
        self.yaku.append({"player": e["player"], "table": e["table"], "names": names, "place": place})
        return [self._has(e["player"], place, names)]

    def _has(self, player: int, place: str | None, names: list[str]) -> Line:
        """'Seat 2 has <yaku>', or '<place> has <yaku>' for yaku found in a hand on the table."""
        said = join_words([in_sentence(n) for n in names])
        if place is not None:
            words = self.zone_words(place)
            return Line("yaku", f"{words[0].upper() + words[1:]} has {said}.", found=(said, (words.lower(),)))
        who = self.you if player == self.viewer else self.seat(player)
        verb = "have" if player == self.viewer else "has"
        whose: tuple[str, ...] = ("your hand",) if player == self.viewer else (f"seat {player}'s hand",)
        if player != self.viewer and player == self.dealer:  # also told as the dealer's place
            whose += ("the dealer's hand", f"seat {player}'s (dealer's) hand")
        return Line("yaku", f"{who} {verb} {said}.", player, found=(said, whose))

    def table_hand(self, cards: list[str]) -> str | None:
        """The one of several hands on the table (a counted zone, with the zones that are part of
        it: 'column[1]' for a column and its hole card) that holds all these cards; None when they
        lie anywhere else. A yaku found there is that hand's, whichever seat the rules evaluated it
        for (the dealer, for a table's columns); cards in a seat's zone or in a single zone (the
        dealer's hand) stay with the seat the yaku were claimed for."""
        held = set()
        for c in cards:
            where = [z for z, zc in self.zones.items() if c in zc]
            if len(where) != 1:
                return None
            held.add(self.main_zone(where[0]))
        if len(held) != 1:
            return None
        zname = held.pop()
        zd = self.zone_defs.get(self._zone_of(zname)[0])
        if zd is None or zd.kind != "count":
            return None
        return zname

    def _e_record(self, e: dict) -> list[Line]:
        self.records.append(e)
        return []  # a count kept for statistics, nothing a table would say

    def _e_end_round(self, e: dict) -> list[Line]:
        self.ended = e.get("why", "")
        ended = (self.game.extra.display.reasons or {}).get(self.ended) or human_words(self.ended)
        return [Line("note", f"The round ends{': ' + ended if ended else ''}.")]

    def _e_redeal(self, e: dict) -> list[Line]:
        why = e.get("why", "")
        return [Line("note", f"Misdeal{' (' + why + ')' if why else ''}: the cards are dealt again.")]

    def _e_next_dealer(self, e: dict) -> list[Line]:
        self.next_dealer, self.dealer_why = e["seat"], str(e.get("why") or "")
        return []  # told in the round summary, when there is a next round

    def _e_swap(self, e: dict) -> list[Line]:
        a, b = e["zones"]
        za, zb = self.zones.get(a, []), self.zones.get(b, [])
        self.zones[a], self.zones[b] = list(zb), list(za)
        clause = Clause("swap", src=self.zone_words(a), dst=self.zone_words(b), src_seat=self._owner(a),
                        dst_seat=self._owner(b), src_zone=a, dst_zone=b)
        return [Line("move", clause.text(), clause=clause)]

    def _e_say(self, e: dict) -> list[Line]:
        # a line about the viewer's own seat is told as they read it (`you`)
        text = str(e["you"]) if "you" in e and e.get("about") == self.viewer is not None else str(e["text"])
        if getattr(self, "last_t", None) != "choose":  # words for a choice just made are no result of the round
            self.said.append(text)
        return [Line("note", text)]



def narrate(game: Any, events: Iterable[dict], n: int, viewer: int | None = None,
            summaries: bool = True) -> list[str]:
    """The whole story of a game's events as sentences (a round summary after each round,
    standings at the end); `viewer=None` tells everything."""
    nar = Narrator(game, n, viewer)
    out: list[str] = []
    started = False
    for e in events:
        if e.get("t") == "round" and started and summaries and e["round"] != nar.round_no:
            out += [ln.text for ln in nar.round_summary()]
        if e.get("t") == "round":
            started = True
        out += [ln.text for ln in nar.feed(e)]
    if started and summaries:
        out += [ln.text for ln in nar.round_summary()]
        out += [ln.text for ln in nar.standings()]
    return out

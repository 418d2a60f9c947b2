"""Sentences told compactly: one line per seat's turn, runs of seats doing the same told once.

The narrator says one sentence per event. At a table that is noise: a seat that plays three
cards and ends its turn is one line ("Seat 2 chooses: play A; play B; end the turn."), the
card a seat just chose to play is not moved again in words, and seats doing exactly the same
one after another are one line ("Seats 3 to 6 choose: pass; each pay 1 chip to the pot.").
Only sentences about other seats that carry a predicate (`Line.pred`) are merged; everything
else is told as it came, in order.

Sentences about cards are merged by what they say as data (`Line.clause`: who, what verb, which
cards, from where to where, face, the place's new value), never by reading the English back, so a
card or place named like the narration's own words ('And 7, to the table') is told as any other;
a merged sentence is rendered once, from its clause or its turn's parts (`_Part`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from rulekit.people.line import ZONE_RE, Clause
from rulekit.people.narrate import Line, join_words, seats_words
from rulekit.people.told import Act
from rulekit.people.table.joins import after_turns, yaku_once

_CHOOSE = ("chooses: ", "choose: ")


class _Part(NamedTuple):
    """One part of a turn's sentence: said of one seat (`one`) and of several (`many`), a place's
    new value told with it (`value`: 'the field now shows 5'), and how it joins the part before
    (`join`: 'and' for ' and ', 'again' a further choice of the turn, 'value' a value alone, ''
    for '; ')."""

    one: str
    many: str
    join: str = ""
    value: str = ""

    def said(self, plural: bool = False) -> str:
        """The part's words."""
        base = self.many if plural else self.one
        return base + (": " if base and self.value else "") + self.value


@dataclass
class _Turn:
    """Consecutive sentences about one seat: their predicates (one seat's words, several seats')."""

    seat: int
    kind: str
    preds: list[_Part] = field(default_factory=list)
    #: the answers told in the variant's `told` words, with their values so far and the words
    #: they were told with: [(Act, [value words], part)]
    acts: list = field(default_factory=list)
    text: str = ""  # your own payment's sentence, told as it is when no other seat pays the same
    why: str = ""  # why the rules left you one answer only (your own turn)
    alike: bool = False  # your answers were all alike (choose `alike`): `why` says why
    moved: list = field(default_factory=list)  # the cards of moves told with the turn (each time)

    def add(self, said: tuple[str, str], act: Act | None = None, bare: tuple[str, str] | None = None) -> None:
        pred = _Part(*said)
        if bare is not None and self.acts and self.preds and self.preds[-1] == self.acts[-1][2]:
            # a payment right after an answer told in the rules' words: the answer says why ('passes
            # and pays 1 chip to the pot')
            pred = _Part(bare[0], bare[1], "and")
        if act is not None:
            same = [a for a, _, _ in self.acts if a.choice == act.choice and a.param == act.param]
            if act.empty and same:
                return  # no more cards after cards played: the next seat's turn says it
            last = self.acts[-1] if self.acts else None
            if last is not None and act.key != "*" and last[0] == act and self.preds and self.preds[-1] == last[2]:
                # the same answer again ('takes another card' twice): counted, not repeated
                last[1].append(act.value)
                times = {2: "twice"}.get(len(last[1]), f"{len(last[1])} times")
                # (its joining kept)
                self.preds[-1] = last[2]._replace(one=f"{act.said()} {times}", many=f"{act.said(plural=True)} {times}")
                self.acts[-1] = (last[0], last[1], self.preds[-1])
                return
            if (last is not None and act.key == "*" and last[0].key == "*" and last[0].words == act.words
                    and last[0].choice == act.choice and self.preds and self.preds[-1] == last[2]):
                # another answer of the same kind in the turn: 'plays Four, Five and Six'
                last[1].append(act.value)
                if act.many and not last[0].many:  # three cards at once among them: told one play after another
                    last = (replace(last[0], many=True), last[1], last[2])
                both = (last[0].said(last[1], many=last[0].many), last[0].said(last[1], plural=True, many=last[0].many))
                self.preds[-1] = _Part(*both) if pred.one != pred.many else _Part(both[1], both[1])
                self.acts[-1] = (last[0], last[1], self.preds[-1])
                return
            if last is not None and self.preds and self.preds[-1] == last[2] and pred.join != "and":
                # an answer of another kind right after one: one sentence ('plays A and captures B')
                pred = pred._replace(join="and")
            self.acts.append((act, [act.value], pred))
            self.preds.append(pred)
            return
        if pred.one.startswith("looks at ") and any(p.one.startswith("looks at ") for p in self.preds):
            return  # a seat looking again at its cards after taking one: the turn said it looks
        chose = any(p.one.startswith(_CHOOSE[0]) or p.join == "again" for p in self.preds)
        if chose and pred.one.startswith(_CHOOSE[0]):
            # a further choice of the same turn: just the action ('play A; play B')
            pred = _Part(pred.one[len(_CHOOSE[0]):], pred.many[len(_CHOOSE[1]):], "again")
        self.preds.append(pred)

    def words(self, plural: bool, upto: int | None = None) -> str:
        """The turn told as one predicate ('takes a third card; Six goes ...'); `upto`: its first parts only."""
        parts = self.preds[:upto]
        said = [p.said(plural) for p in parts]
        # what a seat does after being dealt a card: 'is dealt a card, then stands'
        return "".join(("" if not i else " and " if p.join == "and" else ", then " if said[i - 1].startswith(
            ("is dealt ", "are each dealt ")) else "; ") + t for i, (p, t) in enumerate(zip(parts, said)))


def _inside(ln: Line) -> str:
    """A move sentence told inside a turn's sentence, without its place's new value: in lower case
    ('...; a card goes', '...; seat 3 moves'), unless it starts with a card's name or 'You'."""
    c = ln.clause
    if c is None:  # (a run told together: 'From the deck: ...')
        text = ln.text.rstrip(".")
    else:
        text = replace(c, value="").text()[:-1]
        if (c.cards and c.verb in ("go", "stay", "go to")) or c.you:
            return text
    return text[:1].lower() + text[1:]


def _echo(ln: Line, prev: Line | None, deck: str | None = None) -> bool:
    """A move of the very cards the previous sentence had a seat choose (said once is enough); a
    card from the deck is a new card, whatever its name (a drawn card may share the played one's)."""
    c = ln.clause
    if not (ln.kind == "move" and c is not None and bool(c.cards) and prev is not None and prev.kind == "choice"
            and not c.value and all(x in prev.text for x in c.cards)):
        return False
    return not (deck is not None and c.verb == "go" and c.src == deck)


def _unseen(ln: Line) -> Clause | None:
    """A move of cards the viewer may not see (nothing on where they went shown), else None."""
    c = ln.clause
    return c if ln.kind == "move" and c is not None and c.verb == "go" and not c.cards and not c.value else None


def _hidden_moves(lines: list[Line]) -> list[Line]:
    """Runs of unseen cards moved from one place told as one sentence ("From the deck, unseen: a
    card to the dealer's hand, column 1 and column 2."); a seat looking at one of them is told after."""
    out: list[Line] = []
    i = 0
    while i < len(lines):
        m = _unseen(lines[i])
        if m is None:
            out.append(lines[i])
            i += 1
            continue
        dsts: list[tuple[str, str]] = [(m.what(), m.dst)]
        after: list[Line] = []
        j = i + 1
        while j < len(lines):
            ln = lines[j]
            m2 = _unseen(ln)
            if m2 is not None and m2.src == m.src and m2.face == m.face:
                dsts.append((m2.what(), m2.dst))
            elif ln.kind == "reveal" and (ln.pred is not None and ln.pred[0].startswith("looks at ")
                                          or ln.pred is None and (ln.text.startswith("You see ")
                                                                  or " (you) see " in ln.text)):
                after.append(ln)  # who looks at the cards dealt (you among them): told after the deal
            else:
                break
            j += 1
        if len(dsts) == 1:
            out.append(lines[i])
            out += after
        else:
            same = len({w for w, _ in dsts}) == 1
            parts = [d for _, d in dsts] if same else [f"{w.lower()} to {d}" for w, d in dsts]
            head = f"{dsts[0][0].lower()} each to " if same else ""
            out.append(Line("move", f"From {m.src}{', face ' + m.face if m.face else ''}: {head}{join_words(parts)}."))
            out += after
        i = j
    return out


def _seen(ln: Line | None) -> Clause | None:
    """A move of named cards from one place to another ('go'), else None."""
    c = ln.clause if ln is not None and ln.kind == "move" else None
    return c if c is not None and c.verb == "go" and c.cards else None


def _seen_moves(lines: list[Line]) -> list[Line]:
    """Runs of three or more named cards moved from one place, told as one sentence ("From the
    deck, face up: Five to column 1 (shows 5); Six to column 2 (shows 6); ...")."""
    out: list[Line] = []
    i = 0
    while i < len(lines):
        p = _seen(lines[i])
        if p is None:
            out.append(lines[i])
            i += 1
            continue
        run = [p]
        j = i + 1
        while j < len(lines):
            q = _seen(lines[j])
            if q is None or q.src != p.src or q.face != p.face:
                break
            run.append(q)
            j += 1
        if len(run) < 3:
            out += lines[i:j]
        else:
            face = p.how().strip()
            parts = [f"{m.what()} to {m.dst}" + (f" (shows {m.value})" if m.value else "") for m in run]
            out.append(Line("move", f"From {p.src}{', ' + face if face else ''}: {'; '.join(parts)}."))
        i = j
    return out


def _through(lines: list[Line]) -> list[Line]:
    """A card moved on at once from where it just went told as one move ("Susuki chaff goes from
    the deck to the field", not through the card in play)."""
    out: list[Line] = []
    for ln in lines:
        prev = out[-1] if out else None
        a, b = _seen(prev), _seen(ln)
        if a is not None and b is not None and a.cards == b.cards and a.dst == b.src:
            c = replace(b, src=a.src, src_seat=a.src_seat, src_zone=a.src_zone)
            out[-1] = Line("move", c.text(), ln.seat, cards=ln.cards, clause=c)
            continue
        out.append(ln)
    return out


_SHOWN = "Shown to everyone: "


def _shown(ln: Line) -> Clause | None:
    """Cards shown to everyone (a 'show' clause), else None."""
    c = ln.clause
    return c if ln.kind == "reveal" and c is not None and c.verb == "show" else None


def _shown_together(lines: list[Line]) -> list[Line]:
    """Hands shown to everyone one after another (a showdown) told together: one line when short,
    else a line 'Shown to everyone:' and one line per hand ('Column 1: Five, Ten and Five — shows 0.')."""
    out: list[Line] = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        first = _shown(ln)
        if first is None:
            out.append(ln)
            i += 1
            continue
        run = [first]
        # a shown hand's yaku, or the rules' word on it ('Seat 3 ties the dealer'), between two
        # hands: told after them all, so the hands stay one block
        held: list[Line] = []
        i += 1
        while i < len(lines):
            k = i
            while k < len(lines) and lines[k].kind in ("yaku", "note"):
                k += 1
            nxt = _shown(lines[k]) if k < len(lines) else None
            if nxt is None:
                break
            held += lines[i:k]
            run.append(nxt)
            i = k + 1
        lines = lines[:i] + held + lines[i:]  # after the hands, where the yaku pass finds them
        one = _SHOWN + "; ".join(c.shown() for c in run) + "."
        if len(run) == 1:
            c = replace(first, verb="shown") if first.dst else first  # told hand first
            out.append(Line("reveal", c.text(), clause=c))
            continue
        if len(one) <= LONG_LINE:
            out.append(Line("reveal", one))
            continue
        out.append(Line("reveal", _SHOWN.rstrip()))
        out += [Line("reveal", "  " + _hand_first(c) + ".") for c in run]
    return out


#: a line longer than this (a showdown of several hands) is told one hand a line
LONG_LINE = 96


def _hand_first(c: Clause) -> str:
    """Cards shown told hand first: 'Column 1: Five, Ten and Five — shows 0' (the cards just
    turned are among those named)."""
    if not c.dst:
        return c.shown()
    return f"{c.dst[:1].upper()}{c.dst[1:]}: {c.held or c.what()}" + (f" — shows {c.value}" if c.value else "")


def _yours_with_pay(lines: list[Line], viewer: int | None) -> list[Line]:
    """Your choice and the payment it made you make told as one sentence ("You have one choice
    only: end the turn; you pay 1 chip to the pot (played no card this turn).")."""
    out: list[Line] = []
    echoed: list[str] = []  # the chosen cards already moved where they go since your last choice
    for ln in lines:
        prev = out[-1] if out else None
        if prev is not None and prev.act is not None:
            out.append(ln)  # your answer in the rules' words: told with what follows by compact()
            continue
        if viewer is not None and prev is not None and prev.kind == "choice" and prev.seat == viewer \
                and prev.text.startswith("You ") and ln.kind == "pay" and ln.seat == viewer and ln.pred is not None:
            out[-1] = Line("choice", prev.text.rstrip(".") + "; you pay " + ln.pred[0].removeprefix("pays ") + ".",
                           viewer)
            continue
        if viewer is not None and prev is not None and prev.kind == "choice" and prev.seat == viewer \
                and prev.text.startswith("You ") and _echo(ln, prev) \
                and not any(echoed.count(c) >= prev.text.count(c) for c in ln.cards):
            # the cards you just chose to play, moved where they go: said once is enough (a card of
            # the same name moving again is another card: drawn, say)
            echoed.extend(ln.cards)
            continue
        if ln.kind == "choice":
            echoed = []
        only = "You have one choice only: "
        if prev is not None and prev.kind == ln.kind == "choice" and prev.text.startswith(only) \
                and ln.text.startswith(only) and "; you pay " not in prev.text:
            out[-1] = Line("choice", prev.text.rstrip(".") + "; " + ln.text[len(only):], viewer)
            continue
        out.append(ln)
    return out


def _told_by_rule(lines: list[Line]) -> list[Line]:
    """A seat's choice that the rules' own sentence, told next, says in full ("Seat 0 chooses:
    contest." before "The dealer chooses to contest seat 1.") is told once, by that sentence."""
    out: list[Line] = []
    for i, ln in enumerate(lines):
        nxt = lines[i + 1] if i + 1 < len(lines) else None
        # (another seat's answer told as 'Seat 2 chooses: <answer>.', its `pred`)
        what = ln.pred[0].removeprefix(_CHOOSE[0]) if ln.kind == "choice" and ln.pred is not None \
            and ln.act is None and ln.pred[0].startswith(_CHOOSE[0]) else ""
        if what and ";" not in what and nxt is not None and nxt.kind == "note" \
                and f" {what.lower()} " in f" {nxt.text.lower()} ":
            continue
        out.append(ln)
    return out


def _thrown_in(lines: list[Line], viewer: int | None) -> list[Line]:
    """A hand shown, then thrown away whole, then paid for (a Buta) told as one sentence: "Seat 2's
    hand is shown: A and B — shows 16 (Buta, over the limit); it goes to the discard pile and seat 2
    pays 1 chip to seat 0 (dealer)."""
    out: list[Line] = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        m = ln.clause if ln.kind == "reveal" and ln.clause is not None and ln.clause.verb == "shown" \
            and ln.clause.value else None
        src = _seen(lines[i + 1]) if m is not None and i + 1 < len(lines) else None
        if m is None or src is None or src.src_zone != m.dst_zone or sorted(src.cards) != sorted(m.hand):
            out.append(ln)
            i += 1
            continue
        pay = lines[i + 2] if i + 2 < len(lines) else None
        told = ln.text[:-1]  # 'Seat 2's hand is shown: A and B — shows 16'
        if pay is not None and pay.kind == "pay" and pay.bare is not None and pay.pred is not None \
                and pay.seat is not None and pay.seat == m.dst_seat:
            why = pay.pred[0][len(pay.bare[0]):].strip()
            who = "you pay " + pay.bare[0].removeprefix("pays ") if pay.seat == viewer else \
                f"seat {pay.seat} {pay.bare[0]}"
            out.append(Line("reveal", f"{told}{' ' + why if why else ''}; it goes to {src.dst} and {who}.", pay.seat))
            i += 3
            continue
        out.append(Line("reveal", f"{told}; it goes to {src.dst}.", ln.seat))
        i += 2
    return out


_ONE_SEAT = re.compile(r"^(?P<head>.*?)\bseat (?P<seat>\d+)(?P<tail>\b.*)$")
_TIE = " - a tie, everyone draws again."


def _notes_together(lines: list[Line], viewer: int | None = None) -> list[Line]:
    """The rules' sentences one after another that differ only in the seat they name told once
    ('The dealer chooses to contest seats 1 and 4.'); two such sentences with the same opening told
    as one ('The dealer chooses to contest seats 1 and 4 and to let off seat 2.'); a draw for
    seats tied again and again told by its count ('The draw ties 3 times; everyone draws again.')."""
    out: list[Line] = []
    run: dict[tuple[str, str], list[int]] = {}  # the words around a seat number: the seats named
    ties = 0

    def flush() -> None:
        for (head, tail), seats in run.items():
            names = [f"{x} (you)" if x == viewer else str(x) for x in seats]  # the rules name you by seat
            who = f"seat {names[0]}" if len(seats) == 1 else f"seats {join_words(names)}"
            out.append(Line("note", f"{head}{who}{tail}", seats=tuple(seats)))
        run.clear()

    for ln in lines:
        if ln.kind == "deal" and ln.text.endswith(_TIE):
            ties += 1
            continue
        if ties:
            what = ln.text.split(":", 1)[0] if ln.text.startswith("Draw for") else "The draw"
            out.append(Line("deal", f"{what}: a tie{f' {ties} times' if ties > 1 else ''}; everyone draws again."))
            ties = 0
        m = _ONE_SEAT.match(ln.text) if ln.kind == "note" and ln.seat is None else None
        if m:
            run.setdefault((m["head"], m["tail"]), []).append(int(m["seat"]))
            continue
        flush()
        out.append(ln)
    flush()
    if ties:
        out.append(Line("deal", f"The draw: a tie{f' {ties} times' if ties > 1 else ''}; everyone draws again."))
    # two of them opening alike ('The dealer chooses to'): one sentence
    told: list[Line] = []
    for ln in out:
        prev = told[-1] if told else None
        if prev is not None and prev.kind == ln.kind == "note" and prev.seat is None and ln.seat is None \
                and prev.seats and ln.seats:
            a, b = prev.text.rstrip(".").split(" "), ln.text.rstrip(".").split(" ")
            k = 0
            while k < min(len(a), len(b)) - 1 and a[k] == b[k]:
                k += 1
            if k >= 3:
                told[-1] = Line("note", " ".join(a) + " and " + " ".join(b[k - 1:]) + ".", seats=prev.seats + ln.seats)
                continue
        told.append(ln)
    return told


def compact(lines: list[Line], viewer: int | None, deck: str | None = None,
            said_why: set[str] | None = None, question: bool = False) -> list[Line]:
    """The sentences as a table would tell them (see the module's docstring); `deck`: the deck's
    words ('the draw pile'), for telling a card drawn after a play as the seat's draw; `said_why`:
    the reasons you had no choice told already this round (each is told once; added to here);
    `question`: a question of yours comes right after the last sentence."""
    said_why = set() if said_why is None else said_why
    lines = _to_yours_together(_notes_together(_told_by_rule(lines), viewer), viewer)
    lines = _thrown_in(_yours_with_pay(_shown_together(_seen_moves(_through(_hidden_moves(lines)))), viewer), viewer)
    lines = yaku_once(lines)
    # a phase in which nothing was told (a misdeal check that found none) is not named
    lines = [ln for i, ln in enumerate(lines)
             if not (ln.kind == "phase" and i + 1 < len(lines) and lines[i + 1].kind in ("phase", "heading"))]
    out: list[Line] = []
    turns: list[_Turn] = []  # the open run of other seats' turns (and your own forced ones)

    def close() -> None:
        i = 0
        while i < len(turns):
            t = turns[i]
            j = i + 1
            seats = [t.seat]
            while (j < len(turns) and turns[j].preds == t.preds and turns[j].seat not in seats
                   and (viewer not in (t.seat, turns[j].seat) or turns[j].text or t.text)):
                seats.append(turns[j].seat)
                j += 1
            if t.kind == "reveal" and all(p.one.startswith("looks at ") for p in t.preds):
                seats.sort()  # seats looking at their cards together: no order among them to keep
            if t.text and len(seats) == 1:
                out.append(Line(t.kind, t.text, viewer))
            elif viewer in seats and len(seats) > 1:
                # you pay what the seats before and after you pay: one sentence
                out.append(Line(t.kind, f"{seats_words(seats, viewer)} {t.words(True)}.", None))
            elif t.seat == viewer:
                # your own answers the rules left no choice in, in the rules' words
                said, first = t.words(True), t.words(True, upto=1)
                if t.alike and t.why:
                    # answers that were all the same to you: no question, and why not
                    text = f"You {said}, your only choice ({t.why[:1].lower() + t.why[1:].rstrip('.')})."
                elif t.why and said != first and said.startswith(first + "; "):
                    # the reason with the answer, before what followed from it ('You take a third
                    # card (your only choice: ...); Six goes ...')
                    text = f"You {first} (your only choice: {t.why}){said[len(first):]}."
                elif t.why in said_why:
                    # the same reason as before this round: not told again, but a forced answer
                    # is always marked as one (a free one never is)
                    text = f"You {said}, your only choice."
                else:
                    text = f"You {said}, your only choice" + (f": {t.why}." if t.why else ".")
                said_why.add(t.why)
                # one answer (with what it made you pay): joined with what it took by after_turns
                one = text in (f"You {said}, your only choice.", f"You {said}, your only choice: {t.why}.") \
                    and all(p.join == "and" and not p.value for p in t.preds[1:]) and not t.preds[0].value
                out.append(Line("choice", text, viewer, own=said if one else ""))
            elif len(seats) == 1 and len(t.preds) > 1 and all(p.one.startswith("pays ") for p in t.preds) \
                    and len(t.words(False)) > LONG_LINE:
                # many payments by one seat (a dealer settling every column): one a line
                out.extend(Line(t.kind, f"Seat {t.seat}{_tag(t.seat, lines)} {p.said()}.", t.seat) for p in t.preds)
            elif len(seats) == 1:
                out.append(Line(t.kind, f"Seat {t.seat}{_tag(t.seat, lines)} {t.words(False)}.", t.seat,
                                pred=(t.words(False), t.words(True)), seats=(t.seat,), tag=_tag(t.seat, lines)))
            else:
                out.append(Line(t.kind, f"{seats_words(seats)} {t.words(True)}.", None,
                                pred=(t.words(False), t.words(True)), seats=tuple(seats)))
            i = j
        turns.clear()

    prev: Line | None = None
    yours = False  # within your own turn (a card drawn is yours)
    merged = False  # the last sentence was told with a seat's turn
    for ln in lines:
        if _echo(ln, prev, deck) or _ritual(ln):
            continue
        if ln.seat is not None and ln.seat != viewer:
            yours = False
        if ln.kind == "choice" and ln.seat == viewer and ln.text.startswith("You "):
            yours = True  # your turn: a card drawn now is yours
        drawn = _drawn(ln, deck)
        if drawn is not None and viewer is not None and yours and (not turns or turns[-1].seat == viewer):
            # the card you draw after playing one (and taking what it took): told as yours; when
            # your question about it comes next (what it captures), where it goes is not said yet
            yours, merged = False, False
            close()
            if question and ln is lines[-1]:
                drawn = replace(drawn, dst="")
            drawn = replace(drawn, actor=viewer, who="You", you=True)
            out.append(Line("move", drawn.text(), viewer, cards=ln.cards, clause=drawn))
            prev = ln
            continue
        if drawn is not None and turns and turns[-1].seat != viewer and prev is not None \
                and (prev.kind == "choice" or merged) and not _elsewhere(ln, turns[-1].seat, viewer):
            # a seat draws after playing a card: a sentence of its own, so that what the draw then
            # captures is not read as the play's
            seat = turns[-1].seat
            close()
            drawn = replace(drawn, actor=seat, who=f"Seat {seat}{_tag(seat, lines)}")
            out.append(Line("move", drawn.text(), seat, cards=ln.cards, clause=drawn))
            prev, merged = ln, False
            continue
        if (ln.kind == "move" and turns and prev is not None and (prev.kind == "choice" or merged)
                and (prev.seat == turns[-1].seat or merged) and not _elsewhere(ln, turns[-1].seat, viewer)
                and (prev.kind == "choice" or ln.clause is not None
                     and turns[-1].seat in (ln.clause.src_seat, ln.clause.dst_seat))):
            # what a seat's choice made happen (and the cards it took with it), told with it; cards
            # the turn already named are not named again, only the new value of where they went
            if not ln.cards and turns[-1].acts and turns[-1].preds[-1] == turns[-1].acts[-1][2]:
                # an unseen card arriving right after the answer that asked for it ('takes a third
                # card'): the answer says it
                prev, merged = ln, True
                continue
            told = " ".join(p.said() for p in turns[-1].preds)
            # a card the turn's answers named and no move told yet (two cards may share a name:
            # a second one drawn is a new card, told as such)
            echoed = ln.cards and all(told.count(c) > turns[-1].moved.count(c) for c in ln.cards)
            turns[-1].moved += list(ln.cards or ())
            c = ln.clause
            value = f"{c.dst} now shows {c.value}" if c is not None and c.value else ""
            if echoed:
                if value and turns[-1].preds[-1].value != value:
                    _old_value(turns[-1], value)
                    turns[-1].preds.append(_Part("", "", "value", value))
            elif _with_choice(turns[-1], ln, deck, viewer):
                pass
            else:
                if value:
                    _old_value(turns[-1], value)
                turns[-1].preds.append(_Part(_inside(ln), _inside(ln), value=value))
            prev, merged = ln, True
            continue
        prev, merged = ln, False
        mine = ln.seat is not None and ln.seat == viewer
        if (ln.kind == "deal" and not ln.cards and ln.pred is not None and turns and turns[-1].seat == ln.seat
                and turns[-1].acts and turns[-1].preds and turns[-1].preds[-1] == turns[-1].acts[-1][2]):
            continue  # dealt the card its answer asked for ('takes another card'): said by the answer
        if ln.pred is not None and ln.seat is not None and (
                not mine or ln.act is not None or (ln.bare is not None and turns and turns[-1].seat == viewer
                                               and turns[-1].acts and not turns[-1].text)):
            bare = ln.bare
            if mine and bare is not None:
                bare = (bare[1].removeprefix("each "), bare[1].removeprefix("each "))  # 'you pay ...'
            if turns and turns[-1].seat == ln.seat and not (mine and ln.why and turns[-1].why not in ("", ln.why)
                                                            and not (ln.act is not None and ln.act.empty)):
                # (your answers left to you for different reasons: each told with its own; an
                # empty answer after cards played only ends the turn)
                turns[-1].add(ln.pred, ln.act, bare)
            else:
                t = _Turn(ln.seat, ln.kind)
                t.add(ln.pred, ln.act, bare)
                turns.append(t)
            turns[-1].why = turns[-1].why or ln.why
            turns[-1].alike = turns[-1].alike or ln.alike
            continue
        if mine and ln.pred is not None and ln.act is None and (ln.kind == "deal" or ln.bare is not None):
            # your payment (or cards dealt to you face down) among the same of other seats ('Seats 0, 1,
            # 2 (you) and 3 each pay')
            t = _Turn(ln.seat, ln.kind, text=ln.text)
            t.add(ln.pred)
            turns.append(t)
            continue
        close()
        if _says_your_answer(out, ln, viewer):
            continue
        out.append(ln)
    close()
    # the same cards dealt round the table twice ('Seats 1 to 6 are each dealt 3 cards') is one line
    for k in range(len(out) - 1, 0, -1):
        if out[k].kind == out[k - 1].kind == "deal" and out[k].text == out[k - 1].text and out[k].text.endswith("."):
            out[k - 1] = Line("deal", out[k].text[:-1] + ", twice.", out[k].seat)
            del out[k]
    # one line per seat or per run of seats doing the same (not a paragraph per round of the
    # table): with seven players a paragraph pushed your own last move off a 40-line screen
    return after_turns(out, viewer)


def _drawn(ln: Line, deck: str | None) -> Clause | None:
    """A card turned face up from the deck to a shared place (not a seat's, not a numbered one),
    as a draw by nobody yet ('draw'); else None."""
    m = _seen(ln)
    if deck is None or m is None or m.src != deck or m.face != "up" or not _shared(m.dst_zone, m.dst_seat):
        return None
    return replace(m, verb="draw")


def _shared(zone: str, seat: int | None) -> bool:
    """A place every seat shares: no seat's own, not one of several numbered ones."""
    m = ZONE_RE.match(zone)
    return seat is None and m is not None and m["idx"] is None


def _to_yours_together(lines: list[Line], viewer: int | None) -> list[Line]:
    """Cards going one after another to the same pile of yours told as one move with the pile's
    last value ('A and B go to your capture pile face up: your capture pile now shows 10.')."""
    out: list[Line] = []
    for ln in lines:
        a, b = _seen(out[-1] if out else None), _seen(ln)
        if a and b and a.dst == b.dst and viewer is not None and a.dst_seat == viewer and a.value \
                and b.value and a.face == b.face:
            cards = (*a.cards, *b.cards)
            c = replace(b, verb="go to", cards=cards, count=len(cards), src="", src_seat=None, src_zone="")
            out[-1] = Line("move", c.text(), ln.seat, cards=cards, clause=c)
            continue
        out.append(ln)
    return out


def _says_your_answer(out: list[Line], ln: Line, viewer: int | None) -> bool:
    """The rules' sentence about the answer you just gave ('You choose to let off seat 4.', the
    variant's words for you) told in place of your 'You choose: let off.' (once, not twice); whether it was."""
    last = out[-1] if out else None
    if ln.kind != "note" or last is None or viewer is None or last.seat != viewer or last.kind != "choice" \
            or not last.answer or not _names(ln.text, last.answer):
        return False
    only = " (your only choice)" if last.only else ""
    out[-1] = Line("choice", ln.text[:-1] + only + ln.text[-1], viewer)
    return True


def _names(text: str, words: str) -> bool:
    """Whether `text` holds `words` as whole words (not 'contest' in 'contested')."""
    at = text.find(words)
    while at >= 0:
        end = at + len(words)
        if not (at > 0 and _inword(text[at - 1], words[0])) and not (end < len(text) and _inword(text[end], words[-1])):
            return True
        at = text.find(words, at + 1)
    return False


def _inword(a: str, b: str) -> bool:
    """Two characters side by side within one word (no word boundary between them)."""
    return (a.isalnum() or a == "_") and (b.isalnum() or b == "_")


def _with_choice(turn: _Turn, ln: Line, deck: str | None, viewer: int | None) -> bool:
    """A card going from a shared place to the seat's own pile right after its answer named other
    cards, told with that answer ('captures A with B') rather than as a move of its own ('...; B goes
    from the table to seat 2's capture pile'); not a card from the deck (`deck`); whether it was."""
    m = _seen(ln)
    # the answer: the turn's last sentence but the new values of places it told
    k = max((i for i, p in enumerate(turn.preds) if p.join != "value"), default=-1)
    last = turn.preds[k] if k >= 0 else _Part("", "")
    if m is None or not (last.one.startswith(_CHOOSE[0]) or last.join == "again" or turn.acts
                             and turn.preds[k] == turn.acts[-1][2]):
        return False
    what = m.what()
    if not _shared(m.src_zone, m.src_seat) or deck is None or m.src == deck or m.dst_seat != turn.seat \
            or turn.seat == viewer:
        return False
    old = turn.preds[k]
    if turn.acts and turn.acts[-1][2] == old and turn.acts[-1][0].key != "*":
        # the answer's own fixed words name what it takes ('captures the wild card'): the card is
        # not told again ('... with <that card>'), only where it went and what that shows now
        if m.value:
            value = f"{m.dst} now shows {m.value}"
            _old_value(turn, value)
            turn.preds.append(_Part("", "", "value", value))
        return True
    turn.preds[k] = old._replace(one=old.one + f" with {what}", many=old.many + f" with {what}")
    if turn.acts and turn.acts[-1][2] == old:
        act, vals, _ = turn.acts[-1]
        turn.acts[-1] = (act, vals, turn.preds[k])
    if m.value:
        value = f"{m.dst} now shows {m.value}"
        _old_value(turn, value)
        turn.preds.append(_Part("", "", "value", value))
    return True


def _old_value(turn: _Turn, value: str) -> None:
    """A place's value told earlier in the turn ('pile now shows 80') dropped: only the last one
    ('pile now shows 90') is said."""
    head = value.split(" now shows ")[0] + " now shows "
    keep = []
    for p in turn.preds:
        if p.value.startswith(head):
            if p.join == "value":
                continue
            p = p._replace(value="")
        keep.append(p)
    turn.preds[:] = keep


def _elsewhere(ln: Line, seat: int, viewer: int | None) -> bool:
    """Whether a move takes cards from or puts them in another seat's place or yours (`viewer`'s,
    told apart in your own words): not what `seat`'s choice did."""
    c = ln.clause
    return c is not None and any(s is not None and (s != seat or s == viewer) for s in (c.src_seat, c.dst_seat))


def _ritual(ln: Line) -> bool:
    """A shuffle or a cut: every round has them, and they change nothing a player can see."""
    return ln.kind == "note" and (ln.text.endswith(" is shuffled.") or ln.text.endswith(" is cut."))


def _tag(seat: int, lines: list[Line]) -> str:
    """The ' (dealer)' a sentence gave this seat, kept when it is told alone."""
    return next((ln.tag for ln in lines if ln.seat == seat and ln.pred), "")

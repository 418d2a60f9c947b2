"""Sentences joined after the turns are told: what a reader takes as one thing is one line.

`rulekit.people.table.compact` tells one line per seat's turn; these passes then join lines
that still read as one event told twice: the seats before and after you doing the same, your
answer with what it took and where the cards went, a card drawn with what it then took, and a
yaku with the hand value that already names it.
"""
from __future__ import annotations

from dataclasses import replace

from rulekit.people.line import Line
from rulekit.people.words import join_words, seats_words


def after_turns(out: list[Line], viewer: int | None) -> list[Line]:
    """The passes that join lines once the turns are told, in order."""
    return _your_play_together(_draw_then_take(_around_yours(out, viewer), viewer), viewer)


def yaku_told(ln: Line, told: list[str]) -> bool:
    """Whether a yaku line ('Seat 4 has <yaku>.', 'Column 2 has <yaku>.') says what a line told
    names already: its hand shown with that value ('Seat 4's hand: <cards> — shows <yaku>.')."""
    if ln.found is None:
        return False
    names, whose = ln.found
    return any(w in t.lower() and f"shows {names}" in t for t in told for w in whose)


def yaku_once(lines: list[Line]) -> list[Line]:
    """A yaku left out when its hand was just shown with that value: said once."""
    out: list[Line] = []
    for ln in lines:
        if ln.kind == "yaku" and yaku_told(ln, [p.text for p in out[-8:]]):
            continue
        out.append(ln)
    return out


def _around_yours(out: list[Line], viewer: int | None) -> list[Line]:
    """The seats before you and after you looking at their cards told as one line before yours
    ('Seats 0, 1, 2, 4, 5 and 6 look at their hands.'), not as two lines around it."""
    k = 0
    while k + 2 < len(out):
        a, you, b = out[k], out[k + 1], out[k + 2]
        # only what seats do at once (looking at their cards): turns taken in order around the
        # table keep their order, or a seat after you would read as before you
        if (a.seats and b.seats and a.pred is not None and a.pred == b.pred and viewer is not None
                and a.pred[0].startswith("looks at ")
                and you.seat in (viewer, None) and (you.text.startswith("You ") or " (you) see " in you.text)
                and not set(a.seats) & set(b.seats) and "(dealer)" not in a.text + b.text):
            seats = a.seats + b.seats
            seats = tuple(sorted(seats))  # seats looking at their cards together: no order to keep
            out[k] = replace(a, text=f"{seats_words(list(seats))} {a.pred[1]}.", seat=None, seats=seats)
            del out[k + 2]
        k += 1
    return out




def _to_yours(ln: Line, viewer: int | None) -> str | None:
    """Cards gone face up to a place of yours, told together ('go to'): what the place shows now; else None."""
    c = ln.clause
    if c is None or c.verb != "go to" or viewer is None or c.dst_seat != viewer or c.face != "up" or not c.value:
        return None
    return f"{c.dst} now shows {c.value}"


def _drawn(ln: Line):
    """A card drawn to a shared place and told where it went (a 'draw' clause), else None."""
    c = ln.clause
    return c if c is not None and c.verb == "draw" and c.dst and not c.value else None


def _your_play_together(out: list[Line], viewer: int | None) -> list[Line]:
    """Your answer, what it took and where the cards went told as one line, as another seat's turn
    is ('You play A and capture B; your capture pile now shows 35.'), not three."""
    k = 0
    while k + 1 < len(out):
        mine = out[k].seat == viewer and out[k].kind == "choice"
        act = out[k].own if mine else ""
        if not act:
            k += 1
            continue
        b = out[k + 1].own if out[k + 1].seat == viewer and out[k + 1].kind == "choice" else ""
        c_at = k + 2 if b else k + 1
        c = _to_yours(out[c_at], viewer) if c_at < len(out) else None
        if c is None:
            k += 1
            continue
        said = f"You {act}" + (f" and {b}" if b else "")
        extra = [x for x in out[c_at].cards if x not in said]  # a card that went too, not yet named
        text = said + (f" with {join_words(extra)}" if extra and len(extra) < len(out[c_at].cards) else "")
        out[k] = Line("choice", f"{text}; {c}.", viewer, cards=out[c_at].cards)
        del out[k + 1:c_at + 1]
        k += 1
    return out


def _draw_then_take(out: list[Line], viewer: int | None) -> list[Line]:
    """A card drawn to the table and what it then took told as one line ('Seat 1 draws A and
    captures B with it; ...'), not as a card left on the table and a capture after it."""
    k = 0
    while k + 1 < len(out):
        d = _drawn(out[k])
        who, card = (d.who, d.what()) if d is not None else ("", "")
        nxt = out[k + 1].text
        if d is None or out[k + 1].seat != d.actor or not nxt.startswith(who + " ") or _drawn(out[k + 1]) is not None:
            k += 1
            continue
        rest = nxt[len(who) + 1:]
        head = f"{who} {'draw' if d.you else 'draws'} {card} and "
        if f" with {card}" in rest:  # 'captures B with A; ...': 'with it'
            out[k] = replace(out[k + 1], text=head + rest.replace(f" with {card}", " with it", 1))
            del out[k + 1]
        elif not d.you and rest.startswith("captures ") and " with " not in rest:
            # 'captures B; ...' (the card drawn did it, and B is no card it names): 'draws A and captures B with it'
            cut = min(i for i in (rest.find(";"), len(rest) - 1) if i >= 0)
            out[k] = replace(out[k + 1], text=head + rest[:cut] + " with it" + rest[cut:])
            del out[k + 1]
        elif d.you and k + 2 < len(out) and out[k + 1].own and _to_yours(out[k + 2], viewer) \
                and card in out[k + 2].cards:
            out[k] = Line("choice", f"{head}{out[k + 1].own} with it; {_to_yours(out[k + 2], viewer)}.",
                          out[k + 1].seat, cards=out[k + 2].cards)
            del out[k + 1:k + 3]
        k += 1
    return out

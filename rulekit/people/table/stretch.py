"""A choiceless stretch told short: when the player has nothing more to decide until the round
ends, the rest of the round is told by what it did to them (their own cards and forced turns,
what the rules said) and its outcome (who won, the chips), and the whole story waits one key
away. Everything here reads the narrator's sentences as data (`Line`: kind, seat, places), never
their words."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulekit.people.line import LONG_PILE, ZONE_RE, Line

#: a stretch told in this many lines or fewer is told whole (shortening it would save nothing)
SHORT_FROM = 5
#: the sentences of the round's own telling always kept ('Round 3 of 12', what the rules said)
_KEPT_KINDS = ("heading", "note", "yaku")


def short_story(lines: list[Line], viewer: int, own: Any, later: frozenset[str] = frozenset(),
                deck: str = "") -> list[Line]:
    """The stretch's sentences about `viewer`, for a short telling: the round's heading, what the
    rules said, yaku, the viewer's own turns and the moves of their cards (`own(zone)`: whether
    a place is the viewer's), with a card they draw from `deck` (the deck zone) onto the table in
    their turn (what it then takes is theirs). Other seats' turns, their moves and every payment
    are left out: the round's outcome and the chip changes tell what they came to; so do the
    rules' sentences in `later`, which the outcome says again."""
    out: list[Line] = []
    gap, last, mine = 0, None, None  # other seats' turns left out since your last answer that played
    yours = False  # within the viewer's turn: from their answer to another seat's sentence
    for ln in lines:
        if ln.kind in ("phase", "heading") or ln.seat not in (None, viewer):
            yours = False
        elif ln.kind == "choice" and ln.seat == viewer:
            yours = True
        if ln.kind == "choice" and ln.seat is not None and ln.seat != viewer:
            gap += ln.seat != last
        if ln.kind == "choice":
            last = ln.seat
        if ln.kind in ("pay", "phase") or ln.text in later:
            continue
        if ln.kind in _KEPT_KINDS:
            out.append(ln)
        elif ln.seat == viewer:
            if ln.kind == "choice" and gap and mine is not None and _plays(ln):
                # two turns of yours that played cards, with others' between them (and passes of
                # yours, which end a turn): two sentences, not one turn that would break the
                # rules (a Ten and an Eleven, then an Eight, read as one run)
                out.append(Line("note", f"The other seats take {gap} turn{'s' if gap != 1 else ''}."))
            if ln.kind == "choice" and _plays(ln):
                gap, mine = 0, ln
            out.append(ln)
        elif ln.kind in ("move", "reveal") and (own(ln.src) or own(ln.dst) or ln.by == viewer):
            out.append(ln)
        elif _turned_up(ln) and not any(o.kind == "choice" for o in out):
            # cards the rules turn face up on a shared place before anyone's turn (a field whose
            # total sets a key number): what the rest of the round was played to
            out.append(ln)
        elif yours and _drawn(ln, deck):
            out.append(ln)
    return _runs_once(out, viewer)


def _turned_up(ln: Line) -> bool:
    """Whether a sentence tells cards the rules moved face up to a shared place, by nobody's hand."""
    return (ln.kind == "move" and ln.seat is None and ln.by is None and bool(ln.cards)
            and not ln.src.endswith("]") and not ln.dst.endswith("]"))


def _plays(ln: Line) -> bool:
    """Whether a sentence tells an answer that did something (not an empty one: a pass)."""
    return ln.act is not None and not ln.act.empty


def _drawn(ln: Line, deck: str) -> bool:
    """A card turned face up from the deck zone onto the one place every seat shares (a draw to
    the table; not to one of several numbered places, such as a column)."""
    c = ln.clause
    m = ZONE_RE.match(c.dst_zone) if ln.kind == "move" and c is not None else None
    return bool(deck) and m is not None and m["idx"] is None and c is not None and c.verb == "go" \
        and c.src_zone == deck and c.dst_seat is None and c.face == "up"


def opening_short(lines: list[Line], viewer: int, own: Any) -> list[Line]:
    """A round's opening (its heading up to the first seat's answer) told short before the
    viewer's question: the table drawn with the question shows where the dealt cards lie, the
    pot and the chips, so only the viewer's own cards and what the rules said are told, under
    the phase the question comes in. Lines without a round's heading are returned as they are."""
    start = next((i for i, ln in enumerate(lines) if ln.kind == "heading"), None)
    if start is None:
        return lines
    end = next((i for i in range(start + 1, len(lines)) if lines[i].kind == "choice"), len(lines))
    part = lines[start + 1:end]
    phase = max((i for i, ln in enumerate(part) if ln.kind == "phase"), default=None)
    # (cards turned up on a shared place are on the table drawn with the question)
    kept = [ln for i, ln in enumerate(part) if i == phase or (ln in short_story([ln], viewer, own)
                                                              and not _turned_up(ln))]
    if end == len(lines) and all(ln.kind in ("deal", "phase", "note") for ln in kept):
        # nothing but the cards dealt to you before the question: its table names them
        kept = [ln for ln in kept if ln.kind != "deal"]
    return lines[:start + 1] + kept + lines[end:]


def laid_open(lines: list[Line], viewer: int, nar: Any) -> list[Line]:
    """Other seats' turns that only laid cards of theirs open in front of them (sets laid down)
    left out before the viewer's question: the table drawn with it shows those places card by
    card. A turn that moved anything else (a card to the field, a capture) is kept."""
    def seat_of(zname: str, public: bool = False) -> int | None:
        base, idx = nar.zone_of(zname)
        zd = nar.zone_defs.get(base)
        if zd is None or zd.kind != "player" or (public and zd.visibility != "public"):
            return None
        return idx

    out: list[Line] = []
    i = 0
    while i < len(lines):
        ln = lines[i]
        j = i + 1
        while j < len(lines) and lines[j].kind == "move":
            j += 1
        moves = lines[i + 1:j]
        if (ln.kind == "choice" and ln.seat is not None and ln.seat != viewer and moves
                and all(seat_of(m.src) == ln.seat and seat_of(m.dst, public=True) == ln.seat for m in moves)):
            i = j
            continue
        out.append(ln)
        i += 1
    return out


def mid_short(lines: list[Line], viewer: int, own: Any, deck: str = "") -> list[Line]:
    """The turns between two of the viewer's questions told short: the viewer's own (forced)
    turns and the moves of their cards, what the rules said, and one line counting the other
    seats' turns (a turn: one seat's answers in a row), which the t key tells in full."""
    turns, last = 0, None
    for ln in lines:
        if ln.kind == "choice" and ln.seat is not None and ln.seat != viewer:
            turns += ln.seat != last
        if ln.kind == "choice":
            last = ln.seat
    kept = [ln for ln in short_story(lines, viewer, own, deck=deck) if ln.kind != "heading"]
    note = Line("note", f"The other seats took {turns} turn{'s' if turns != 1 else ''} since your last answer "
                "(t tells them in full, with the table).")
    return kept + ([note] if turns else [])


def phases_joined(lines: list[Line]) -> list[Line]:
    """A phase with one sentence under it told on one line with it ('The dealer turns the first
    box card: seat 0 (dealer) turns up ...'): at a table that pauses, a heading a line saves
    more than it shows."""
    out: list[Line] = []
    for i, ln in enumerate(lines):
        prev = out[-1] if out else None
        alone = i + 1 >= len(lines) or lines[i + 1].kind in ("phase", "heading")
        if (prev is not None and prev.kind == "phase" and ln.kind not in ("phase", "heading") and alone
                and not ln.text.startswith(" ")):
            first = ln.text[:1].lower() + ln.text[1:] if ln.text[:2] in ("Se", "Yo", "Th", "A ") else ln.text
            out[-1] = replace(ln, text=f"{prev.text}: {first}", kind="phase")
            continue
        out.append(ln)
    return out


def _runs_once(lines: list[Line], viewer: int) -> list[Line]:
    """The viewer's same forced answer given turn after turn (nothing of theirs fitting, turn
    after turn) told once, with how many times."""
    out: list[Line] = []
    times: list[int] = []
    for ln in lines:
        prev = out[-1] if out else None
        if (prev is not None and ln.kind == "choice" and ln.seat == viewer and prev.kind == "choice"
                and prev.seat == viewer and (ln.pred, ln.why, ln.text) == (prev.pred, prev.why, prev.text)):
            times[-1] += 1
            continue
        out.append(ln)
        times.append(1)
    return [ln if k == 1 else _counted(ln, k) for ln, k in zip(out, times)]


def _counted(ln: Line, k: int) -> Line:
    """A forced answer given `k` times in a row, told once: its sentence with the count."""
    text = ln.text.removesuffix(".")
    return replace(ln, kind="note", text=f"{text} ({'twice' if k == 2 else f'{k} times'}).", pred=None, act=None)


def shown_values(nar: Any, viewer: int) -> Line | None:
    """Every other seat's place that shows a value to the viewer, on one line ('Shown: seat 2's
    hand 8, seat 3's hand 9.'); None when none does."""
    parts = []
    for zname in nar.zones:
        base, idx = nar.zone_of(zname)
        zd = nar.zone_defs.get(base)
        if (idx is None or idx == viewer or zd is None or zd.kind != "player" or nar.main_zone(zname) != zname
                or not nar.group_cards(zname)):
            continue
        if not all(nar.can_see(c, zname) for c in nar.group_cards(zname)):
            continue
        _, value = nar.zone_view(zname)
        if value is not None:
            parts.append(f"{nar.zone_words(zname)} {value}")
    if not parts:
        return None
    return Line("summary", "Shown: " + "; ".join(parts) + ".")


def own_places(nar: Any, viewer: int) -> list[Line]:
    """The viewer's own places with cards at the round's end ('Your hand: A, B and C — shows 7.')."""
    out = []
    for zname in nar.zones:
        base, idx = nar.zone_of(zname)
        zd = nar.zone_defs.get(base)
        if idx != viewer or zd is None or zd.kind != "player" or nar.main_zone(zname) != zname \
                or not nar.group_cards(zname):
            continue
        text, value = nar.zone_view(zname)
        if zd.visibility == "public" and value is None:
            continue  # laid open (sets, captures) as the story told it: the outcome's lines say what it made
        words = nar.zone_words(zname)
        pile = nar.pile_text(zname) if len(nar.group_cards(zname)) > LONG_PILE else None
        out.append(Line("summary", f"{words[0].upper() + words[1:]}: {pile or text}"
                        + (f" — shows {value}" if value is not None else "") + ".", dst=zname))
    return out


def brief_summary(nar: Any, viewer: int) -> list[Line]:
    """The round's end told short: its heading, your places, the values shown, the yaku and what
    the rules said, the payments that settled it (not the ones paid during play: the standings'
    changes count them) and who deals next."""
    out = [nar.end_heading(), *own_places(nar, viewer)]
    shown = shown_values(nar, viewer)
    out += [shown] if shown is not None else []
    out += nar.outcome_lines(during=False)
    nxt = nar.next_line()
    return out + ([nxt] if nxt is not None else [])

"""The worked example of a rules page: one seeded round told as a story, phase by phase.

The sentences come from the narrator (rulekit/narrate.py, viewer None: everything is told);
this module arranges them: a paragraph per phase, runs of players doing the same thing told
once ("Seats 2 to 6 choose: pass."), the middle of a very long phase told in one sentence (its
opening and its decisive end in full), and the round's
outcome (hands, yaku, payments, chip changes) at the end.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulekit.website.util import md

if TYPE_CHECKING:  # (the narrator's; a tree without it tells the engine's transcript lines)
    from rulekit.people.line import Clause

LONG = 24  # a phase with more sentences than this shows its first and last ones, the rest in a sentence
HEAD, TAIL = 5, 10
_VERBS = {"chooses": "choose", "pays": "pay", "has": "have", "is": "are", "passes": "pass", "plays": "play",
          "takes": "take", "draws": "draw", "sees": "see", "looks": "look", "shows": "show", "wins": "win",
          "loses": "lose", "puts": "put", "gets": "get", "bets": "bet", "stands": "stand", "drops": "drop"}


@dataclass(frozen=True)
class Said:
    """One sentence of the story: its kind (as the narrator gives it), text and acting seat, and
    for a move the cards it names as written (so that names with "and" in them stay whole)."""

    kind: str
    text: str
    seat: int | None = None
    cards: tuple[str, ...] = ()
    #: what a sentence about cards says, as data (the narrator's `Clause`), else None
    clause: Clause | None = None
    #: the words the acting seat's name carries when told ('Seat 0 (dealer)': ' (dealer)'), else ''
    tag: str = ""


def _pattern(s: Said) -> tuple[str, str] | None:
    """The sentence with its subject seat taken out, and the verb; None if it has no seat subject."""
    if s.seat is None:
        return None
    # the acting seat as the sentence's subject, named as the narrator names it (or bare)
    head = next((h for h in (f"Seat {s.seat}{s.tag} ", f"Seat {s.seat} ") if s.text.startswith(h)), None)
    if head is None:
        return None
    rest = s.text[len(head):]
    verb, _, tail = rest.partition(" ")
    return verb, tail


def seats_words(seats: list[int]) -> str:
    """'Seats 2 to 6', 'Seats 1, 3 and 4'."""
    if seats == list(range(seats[0], seats[0] + len(seats))) and len(seats) > 2:
        return f"Seats {seats[0]} to {seats[-1]}"
    return "Seats " + ", ".join(map(str, seats[:-1])) + f" and {seats[-1]}"


def _blocks(said: list[Said]) -> list[list[Said]]:
    """Consecutive sentences split into blocks: one block per run of sentences by the same seat."""
    out: list[list[Said]] = []
    for s in said:
        if out and s.seat is not None and out[-1][-1].seat == s.seat and _pattern(s) is not None \
                and _pattern(out[-1][-1]) is not None:
            out[-1].append(s)
        else:
            out.append([s])
    return out


def group_repeats(said: list[Said]) -> list[str]:
    """Sentences with runs of different seats doing exactly the same told once, with all of them."""
    blocks = _blocks(said)
    out: list[str] = []
    i = 0
    while i < len(blocks):
        b = blocks[i]
        pats = [_pattern(s) for s in b]
        j = i + 1
        if all(p is not None for p in pats):
            seats = [b[0].seat]
            while j < len(blocks) and [_pattern(s) for s in blocks[j]] == pats \
                    and blocks[j][0].seat not in seats:
                seats.append(blocks[j][0].seat)
                j += 1
            if len(seats) >= 2:
                who = seats_words(sorted(seats) if sorted(seats) == seats else seats)
                for verb, tail in pats:  # type: ignore[misc]
                    word = verb.rstrip(":,;.")
                    out.append(f"{who} {_VERBS.get(word, word)}{verb[len(word):]} {tail}".rstrip())
                i = j
                continue
        out += [s.text for s in b]
        i += 1
    return out


def _went(s: Said) -> Clause | None:
    """A sentence's clause when it tells cards going from one place to another ('A goes from the
    deck to seat 1's hand.'), else None."""
    return s.clause if s.kind == "move" and s.clause is not None and s.clause.verb == "go" else None


def merge_moves(said: list[Said]) -> list[Said]:
    """Runs of cards moved from one place told as one sentence, each destination with all its cards
    ("From the deck: seat 1's hand gets A, B and C; the box gets D and E.")."""
    out: list[Said] = []
    i = 0
    while i < len(said):
        m = _went(said[i])
        j = i + 1
        if m and not m.value:  # a move that tells a hand's new value stays a sentence of its own
            got: dict[str, list[str]] = {m.dst: _cards(m)}
            while j < len(said):
                m2 = _went(said[j])
                if not m2 or m2.value or m2.src != m.src or m2.face != m.face:
                    break
                got.setdefault(m2.dst, []).extend(_cards(m2))
                j += 1
            if j - i >= 3:
                parts = [f"{dst} gets {_and(cards)}" for dst, cards in got.items()]
                text = f"From {m.src}{', face ' + m.face if m.face else ''}: " + "; ".join(parts) + "."
                out.append(Said("move", text[0].upper() + text[1:]))
                i = j
                continue
        out.append(said[i])
        i += 1
    return out


def drop_echoes(said: list[Said]) -> list[Said]:
    """Without the sentence that moves the very cards a player just chose to play from their own
    hand ("Seat 1 chooses: play Six of Clubs." says it; "Six of Clubs goes from seat 1's hand..." repeats it)."""
    out: list[Said] = []
    for s in said:
        prev = out[-1] if out else None
        m = _went(s)
        if m and prev is not None and prev.kind == "choice" and prev.seat is not None \
                and m.what() in prev.text and m.src_seat == prev.seat:
            continue
        out.append(s)
    return out


def _cards(m: Clause) -> list[str]:
    """The cards a move names, each as written ('a card' when they were not seen)."""
    return list(m.cards) or [m.what()]


def _and(items: list[str]) -> str:
    """'A, B and C'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def count_repeats(sentences: list[str]) -> list[str]:
    """Identical sentences told once, with how many times ("... (3 times)."), in first-seen order."""
    seen: dict[str, int] = {}
    for x in sentences:
        seen[x] = seen.get(x, 0) + 1
    return [x if k == 1 else f"{x.rstrip('.')} ({k} times)." for x, k in seen.items()]


def _paragraph(title: str, sentences: list[str]) -> str:
    text = " ".join(md(x) for x in sentences)
    return f"**{md(title)}.** {text}".rstrip() if title else text


_ACTOR = re.compile(r"^Seat (\d+)\b")


def summary_sentence(sentences: list[str]) -> str:
    """One sentence for the stretch of play a long stage skips, in a player's words: who takes how many
    more turns (a turn: a sentence that starts with a seat), else how many more moves."""
    by_seat: dict[int, int] = {}
    for x in sentences:
        m = _ACTOR.match(x)
        if m:
            by_seat[int(m.group(1))] = by_seat.get(int(m.group(1)), 0) + 1
    if not by_seat:
        return (f"Play goes on in the same way for {len(sentences)} more moves; "
                "these last moves decide the stage:")
    (s0, k0), *rest = sorted(by_seat.items())
    turns = _and([f"seat {s0} takes {k0} more {'turn' if k0 == 1 else 'turns'}"] + [f"seat {s} {k}" for s, k in rest])
    return f"Play goes on in the same way: {turns}. These last moves decide the stage:"


def plural_times(k: int) -> str:
    return "once" if k == 1 else "twice" if k == 2 else f"{k} times"


def _fold(title: str, sentences: list[str]) -> list[str]:
    """A stage as one paragraph, or, when long, its opening, a sentence for the middle and its
    decisive end (the last moves, told in full)."""
    if len(sentences) <= LONG:
        return [_paragraph(title, sentences), ""]
    mid = sentences[HEAD:-TAIL]
    return [_paragraph(title, sentences[:HEAD]), "", f"*{md(summary_sentence(mid))}*", "",
            " ".join(md(x) for x in sentences[-TAIL:]), ""]


def _narrated(game: Any, n: int, events: list[dict]) -> tuple[list[tuple[str, list[Said]]], list[str]]:
    """(phase title, sentences) in order, and the outcome's sentences, from the narrator; each
    phase's sentence list carries the number of its phase event (from 1) as `.phase_no`."""
    try:
        from rulekit.people.narrate import Narrator
    except ImportError:  # a tree without the narrator: the engine's own transcript lines
        return _transcribed(game, events), []
    nar = Narrator(game, n, None)
    phases: list[tuple[str, list[Said]]] = [("", _Said0())]
    k = 0
    for e in events:
        k += e.get("t") == "phase"
        for ln in nar.feed(e):
            if ln.kind == "phase":
                phases.append((ln.text, _Said0(k)))
            elif ln.kind == "heading":
                phases[0][1].append(Said("note", ln.text))
            else:
                phases[-1][1].append(Said(ln.kind, ln.text, ln.seat, ln.cards, ln.clause,
                                          nar.seat_tag(ln.seat) if ln.seat is not None else ""))
    outcome = count_repeats([ln.text for ln in nar.round_summary() if ln.kind != "heading"])
    return [p for p in phases if p[1]], outcome


class _Said0(list):
    """The sentences of one phase, with the number of its phase event (0: before the first)."""

    def __init__(self, phase_no: int = 0):
        super().__init__()
        self.phase_no = phase_no


def _transcribed(game: Any, events: list[dict]) -> list[tuple[str, list[Said]]]:
    from rulekit.people.transcript import line
    names = {p.id: p.name for p in game.phases}
    phases: list[tuple[str, list[Said]]] = [("", [])]
    for e in events:
        if e.get("t") == "phase":
            phases.append((names.get(e["id"], e["id"]), []))
            continue
        text = (line(game, e) or "").strip()
        if text:
            phases[-1][1].append(Said(str(e.get("t")), text, e.get("player")))
    return [p for p in phases if p[1]]


_QUIET = re.compile(r"has one choice only|^Noted: ")


def told(said: list[Said]) -> list[Said]:
    """The sentences a story tells: a move nobody chose (the only one allowed) and the engine's counting
    notes are left to the table log, whose wording they are."""
    return [s for s in said if not _QUIET.search(s.text)]


def story_markdown(game: Any, n: int, events: list[dict], chips: list[Any],
                   pictures: dict[int, str] | None = None) -> str:
    """The round of these events as Markdown paragraphs, then its outcome; `pictures` (by the
    number of the phase event, from 1) are put after their phase's paragraph."""
    phases, outcome = _narrated(game, n, events)
    out: list[str] = []
    for title, said in phases:
        out += _fold(title, group_repeats(merge_moves(drop_echoes(told(said)))))
        pic = (pictures or {}).get(getattr(said, "phase_no", -1))
        if pic:
            out += ["\n" + pic.replace("\n", " ") + "\n", ""]
    if outcome:
        out += [_paragraph("How the round ends", outcome), ""]
    totals = ", ".join(f"seat {s} {c:+d}" if isinstance(c, int) else f"seat {s} {c}" for s, c in enumerate(chips))
    from rulekit.website.util import money_words
    one, many = money_words(game)
    out += [f"*{md(many[:1].upper() + many[1:])} after the round: {md(totals)}.*", ""]
    return '<div class="rk-story" markdown="1">\n\n' + in_units("\n".join(out), one, many) + "\n</div>\n"


_CHIPS = re.compile(r"(?<![\w.])([+\-−]?\d+(?:/\d+)?) (chips?)\b")


def in_units(text: str, one: str, many: str) -> str:
    """The narrator's amounts ('4 chips', '1 chip') said in the game's own unit ('4 stones')."""
    if (one, many) == ("chip", "chips"):
        return text
    return _CHIPS.sub(lambda m: f"{m.group(1)} {one if m.group(2) == 'chip' else many}", text)


__all__ = ["Said", "count_repeats", "drop_echoes", "group_repeats", "merge_moves", "seats_words", "story_markdown"]

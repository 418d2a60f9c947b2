"""One told sentence (`Line`) and the few constants the narrator and its round summary share."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

LONG_PILE = 7  # a pile of more cards than this is told at the end of a round by its size and value
ZONE_RE = re.compile(r"^(?P<base>[^\[]+)(?:\[(?P<idx>-?\d+)\])?$")


@dataclass(frozen=True)
class Line:
    """One sentence: its kind (heading, deal, move, reveal, choice, pay, yaku, note, summary,
    standings) and its text; `seat` is who acted, when somebody did; `cards` the cards a move
    sentence names, each as written in it (empty when it names none)."""

    kind: str
    text: str
    seat: int | None = None
    cards: tuple[str, ...] = ()
    #: for a sentence 'Seat N <predicate>' about another seat: the predicate said of one seat and
    #: of several ('chooses: pass', 'choose: pass'), so that runs of seats can be told together
    pred: tuple[str, str] | None = None
    #: a seat's answer told in the variant's `told` words (rulekit.people.told.Act), else None
    act: Any = None
    #: a payment's `pred` without its reason (told so after a `told` answer that says why)
    bare: tuple[str, str] | None = None
    #: why the rules left the acting seat (the viewer) one answer only (choose `forced`), or ''
    why: str = ""
    #: the viewer's answers were all alike (choose `alike`): `why` says why, it was no forced move
    alike: bool = False
    #: the seats a sentence about other seats' turns is about (told together when they do the same)
    seats: tuple[int, ...] = ()
    #: a move's places (zone names, as the engine names them): where its cards came from and went
    src: str = ""
    dst: str = ""
    #: the seat that moved them (a step's `by`), when one did
    by: int | None = None

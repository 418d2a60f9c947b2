"""One told sentence (`Line`) and the few constants the narrator and its round summary share."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rulekit.people.words import join_words

LONG_PILE = 7  # a pile of more cards than this is told at the end of a round by its size and value
ZONE_RE = re.compile(r"^(?P<base>[^\[]+)(?:\[(?P<idx>-?\d+)\])?$")


@dataclass(frozen=True)
class Clause:
    """What a sentence about cards says, as data: `verb` ('go': cards moved; 'stay': moved within
    what a player sees as one place; 'move', 'turn up', 'leave': the same done by seat `actor`;
    'draw': a card from the deck to a shared place, drawn by `actor` (`dst` '': not yet told where);
    'go to': cards from several places gone to one; 'swap': two places' cards exchanged; 'show':
    cards shown to everyone, lying in `dst`; 'shown': the same told hand first), the `cards` named (their
    words; () when the viewer may not see them: then `count` tells how many), the places `src` and
    `dst` in words ('the deck', "seat 2's hand") with the seats owning them (`src_seat`,
    `dst_seat`; None for a shared place), `face` ('up', 'down' or '') and `value`, what `dst` shows
    now ('' when nothing). Passes that merge sentences read these, never the rendered words;
    `text()` renders the sentence."""

    verb: str
    cards: tuple[str, ...] = ()
    count: int = 0
    src: str = ""
    dst: str = ""
    face: str = ""
    value: str = ""
    actor: int | None = None
    who: str = ""  # the actor in words ('Seat 3', 'You')
    you: bool = False  # the actor is the viewer (the verb without its 's')
    src_seat: int | None = None
    dst_seat: int | None = None
    #: the places as the engine names them ('hand[2]', 'field'): one of several numbered places or not
    src_zone: str = ""
    dst_zone: str = ""
    #: for 'show' ('shown': told hand first): the whole hand the shown cards are part of, when
    #: more than them ('' otherwise), and every card of that hand by name
    held: str = ""
    hand: tuple[str, ...] = ()

    def what(self) -> str:
        """The cards as told: their names, or 'a card' / '3 cards' when unseen."""
        if self.cards:
            return join_words(list(self.cards))
        return "a card" if self.count == 1 else f"{self.count} cards"

    def how(self) -> str:
        """' face up', ' face down' or ''."""
        return f" face {self.face}" if self.face else ""

    def shown(self) -> str:
        """A 'show' clause's cards with the place they lie in ('Five — column 1 is now Five and
        Ten, which shows 5')."""
        return self.what() + self.lying()

    def lying(self) -> str:
        """' — column 2 is now Five and Ten, which shows 5': where shown cards lie, as now seen
        (after a dash: zone and card names may hold parentheses of their own); '' when nowhere."""
        if not self.dst:
            return ""
        tail = f" — {self.dst} is now {self.held}" if self.held else f" — {self.dst}"
        return tail + (f", which shows {self.value}" if self.value else "")

    def text(self) -> str:
        """The clause as one sentence."""
        what, one, who = self.what(), self.count == 1, self.who
        if self.verb == "go to":  # cards from several places arriving at one
            return f"{what} {'goes' if one else 'go'} to {self.dst}{self.how()}" + (
                f": {self.dst} now shows {self.value}" if self.value else "") + "."
        if self.verb == "swap":
            return f"{self.src[:1].upper()}{self.src[1:]} and {self.dst} are exchanged."
        if self.verb == "show":
            return f"Shown to everyone: {self.shown()}."
        if self.verb == "shown":
            return f"{self.dst[:1].upper()}{self.dst[1:]} is shown: {self.held or what}" + (
                f" — shows {self.value}" if self.value else "") + "."
        s = "" if self.you else "s"
        if self.verb == "draw":  # a card from the deck to a shared place, drawn by `who`
            return f"{who} draw{s} {what}" + (f"; it goes to {self.dst}" + (f": {self.value}" if self.value else "")
                                              if self.dst else "") + "."
        if self.verb == "turn up":  # (face up by its verb)
            line = f"{who} turn{s} up {what} from {self.src} onto {self.dst}"
        elif self.verb == "leave":
            line = f"{who} leave{s} {what}{self.how()} on {self.dst}"
        elif self.verb == "move":
            line = f"{who} move{s} {what} from {self.src} to {self.dst}{self.how()}"
        elif self.verb == "stay":
            line = f"{what[:1].upper()}{what[1:]} {'stays' if one else 'stay'}{self.how()} on {self.dst}"
        else:
            line = f"{what[:1].upper()}{what[1:]} {'goes' if one else 'go'} from {self.src} to {self.dst}{self.how()}"
        return line + (f": {self.dst} now shows {self.value}" if self.value else "") + "."


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
    #: (a round summary's line of a place: `dst` is that place)
    src: str = ""
    dst: str = ""
    #: the seat that moved them (a step's `by`), when one did
    by: int | None = None
    #: what a sentence about cards says, as data (see `Clause`); None for other sentences
    clause: Clause | None = None
    #: a sentence of the viewer's own answer ('You choose: play A.', 'You play A, your only
    #: choice.'): the answer's words in the viewer's voice ('play A'), for joining it with what it
    #: took; '' for any other sentence
    own: str = ""
    #: a sentence asking nothing that tells the viewer's answer ('You choose: A.', 'You have one
    #: choice only: A — why.'): the words after the colon, as told; `only`: the rules left no other
    answer: str = ""
    only: bool = False
    #: a sentence of yaku found ('Seat 2 has <yaku>.'): the yaku as told, and the words the hand
    #: they were found in is told by elsewhere, lower case ("seat 2's hand", 'column 1'); else None
    found: tuple[str, tuple[str, ...]] | None = None
    #: for a sentence 'Seat N <pred>': the words the seat's name carries as it was told (' (dealer)',
    #: ' (you)', ''), kept when the seat is told again alone
    tag: str = ""
    #: a round summary's line of a seat's place whose cards the viewer sees none of: how many
    #: cards it holds (0 for any other line); `seat` is the owner, `tag` ' (dealer)' or ''
    hidden: int = 0

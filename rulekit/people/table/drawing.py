"""The table as one seat sees it, drawn at a question (or on the t key), and the rules text of
the current phase (the ? key): a part of `rulekit.people.table.session.Table`."""
from __future__ import annotations

from typing import Any

from rulekit.lang.loader import at
from rulekit.people.line import LONG_PILE
from rulekit.people.narrate import chips_word
from rulekit.people.table.reach import reach_lines
from rulekit.people.table.view import by_count, table_lines

KEYS = "? rules of this phase, t the table, h the odds, q quit"  # at a question
WAIT_KEYS = "? rules of this phase, t the table, q quit"  # at a pause (no answers to weigh)


class TableView:
    """Drawing the table and the rules text (a mixin of Table: uses its narrator and screen)."""

    game: Any
    seat: Any
    nar: Any
    screen: Any
    kept: frozenset
    rows: list
    phase_here: str
    round_here: bool
    on_table: set
    table_height: int

    def own_hand_lines(self) -> list[str]:
        """Your own hidden places with cards in them, as the table shows them ('Your hand: A and B')."""
        out = []
        for zname in self.nar.zones:
            base, idx = self.nar.zone_of(zname)
            zd = self.nar.zone_defs.get(base)
            if (idx != self.seat or zd is None or zd.kind != "player" or zd.visibility == "public"
                    or self.nar.main_zone(zname) != zname or not self.nar.group_cards(zname)):
                continue
            out.append(self._place_line(zname, *self.nar.zone_view(zname)))
        return out

    def _place_line(self, zname: str, text: str, value: Any) -> str:
        """A place as the table shows it: 'Your hand: A and B — shows 7'."""
        words = self.nar.zone_words(zname)
        return f"{words[0].upper() + words[1:]}: {text}" + (f" — shows {value}" if value is not None else "")

    def _table_text(self, ctx: Any) -> str:
        """The table as draw_table(ctx) would show it now (nothing is written)."""
        import io
        real, since = self.screen.console.file, self.screen.since
        self.screen.console.file = io.StringIO()
        try:
            self.draw_table(ctx)
            return self.screen.console.file.getvalue()
        finally:
            self.screen.console.file, self.screen.since = real, since

    def rules_text(self) -> None:
        """The rules text of the current phase: its `text`, else its description, else its name."""
        pid = self.nar.phase_id
        phases = at(self.game.variant.tree, "round")
        node = None
        for ph in (phases.value if phases is not None and isinstance(phases.value, list) else []):
            if isinstance(ph.value, dict) and "id" in ph.value and ph.value["id"].value == pid:
                node = ph.value
        name = self.nar.phase_names.get(pid, pid) or "Before the first phase"
        self.screen.say("")
        self.screen.say(f"Rules: {name}", "heading")
        text = ""
        try:
            from rulekit.lang.rulestext import phase_text  # the players' text of the phase, when present
            # the rules as this table plays them (its options), not the other house rules
            text = phase_text(self.game.variant, pid, dict(self.game.options)) if pid else ""
        except ImportError:
            pass
        if node is not None and not text:
            for key in ("text", "description"):
                if key in node and isinstance(node[key].value, str):
                    text = node[key].value
                    break
        self.screen.block(text or self.game.variant.meta.summary or "(no rules text for this phase)")
        self.screen.say(f"Keys: {KEYS}.", "note")

    def draw_table(self, ctx: Any = None, full: bool = False) -> None:
        """Everything on the table as this seat sees it: hands with values, piles, pots, chips, and
        at a decision (`ctx`, the game state) the variant's own table lines (display.table)."""
        nar = self.nar
        self.screen.say("")
        dealer = "you deal" if nar.dealer == self.seat else f"seat {nar.dealer} deals"
        # the phase, when its name was not told just above (see act)
        phase = f" ({self.phase_here[:1].lower()}{self.phase_here[1:]})" if self.phase_here and ctx is not None else ""
        heading = f"The table — round {nar.round_no + 1}, {dealer}{phase}"
        if self.round_here and ctx is not None:  # the round's own heading was not told above
            heading = f"The table — {nar.round_words()[:1].lower()}{nar.round_words()[1:]}, {dealer}{phase}"
        if self.kept:  # the table drawn at your last question is still on screen: what changed on it
            heading = "What changed on the table since your last answer"
        self.rows = []
        self.screen.say(heading, "heading")
        unseen: list[tuple[str, int]] = []  # other seats' hands of hidden cards only: told together, on one line
        placed: dict[str, int] = {}  # a place told by the same words as one before it (a card being played
        lines: list[str] = []        # onto the table) joins that place's line: one line a place
        for zname, cards in nar.zones.items():
            if nar.main_zone(zname) != zname:
                continue
            group = nar.group_cards(zname)
            words = nar.zone_words(zname)
            words = words[0].upper() + words[1:]
            if zname == self.game.deck_zone:
                if group:
                    lines.append(f"{words}: {len(group)} card{'s' if len(group) != 1 else ''}")
                continue
            if not group:
                continue
            text, value = nar.zone_view(zname, full=full or ctx is None)
            base, idx = nar.zone_of(zname)
            zd = nar.zone_defs.get(base)
            if idx is not None and idx != self.seat and zd is not None and zd.kind == "player" \
                    and text in ("a hidden card", f"{len(group)} hidden cards"):
                unseen.append((nar.seat(idx, upper=False), len(group)))
                continue
            if not full and zd is not None and zd.kind == "player" and zd.visibility == "public" \
                    and len(group) > LONG_PILE and ctx is not None:
                # a long open pile (captures) at a decision: its size and value; t lists it card by card
                text = nar.pile_text(zname) or text  # nothing folds: every card by name
            if words in placed and idx is None:
                lines[placed[words]] += f"; being played onto it: {text}"
                continue
            placed[words] = len(lines)
            lines.append(self._place_line(zname, text, value))
        for text in lines:
            self._row(text)
        self.on_table = {t + "." for t in lines}
        self.table_height = len(lines) + 6  # the heading, pots, chips and the question's own lines
        if unseen:
            self._row("Unseen hands: " + by_count(unseen))
        for pot, v in nar.pots.items():
            if v != 0:  # an empty pot (a settling pool between rounds) says nothing
                self._row(f"The {pot.replace('_', ' ')}: {chips_word(v)}")
        if ctx is not None:
            for text in table_lines(self.game, ctx, self.seat, nar.card_text, full) + reach_lines(
                    self.game, ctx, self.seat, nar.card_text):
                self._row(text)
        # chips paid or won since the round began (an ante, stakes) said with them: the standings
        # told at the end of the last round showed them before
        moved = []
        for s, c in enumerate(nar.chips):
            try:
                moved.append(c - nar.round_start[s])
            except (TypeError, IndexError):
                moved.append(0)
        # (not when every seat's chips are just this round's: the first round)
        since = any(isinstance(d, int) and d for d in moved) and any(
            d != c - (self.game.start_chips or 0) for c, d in zip(nar.chips, moved) if isinstance(c, int))
        self._row("Chips: " + ", ".join(
            f"{nar.seat(s, upper=False)} {nar.chips_text(c).removesuffix(' chips').removesuffix(' chip')}"
            + (f" ({d:+d})" if since and isinstance(d, int) and d else "")
            for s, (c, d) in enumerate(zip(nar.chips, moved))) + (" (in brackets: this round so far)" if since
                                                                   else ""))

    def _row(self, text: str) -> None:
        """One line of the table, said unless it is among the lines still on screen (`self.kept`)."""
        self.rows.append(text)
        if text not in self.kept:
            self.screen.say(text, "table", 2)

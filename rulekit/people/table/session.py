"""A whole game at the terminal: events told as they happen from the human's seat, choices
asked part by part, a summary and the standings after each round, the winner at the end."""
from __future__ import annotations

from dataclasses import replace
from typing import Any

from rulekit.engine.agents import Decision, render
from rulekit.core.numbers import parse_int
from rulekit.people.narrate import Line, Narrator, chips_word
from rulekit.people.words import join_words
from rulekit.people.table.screen import Screen
from rulekit.people.table.joins import yaku_told
from rulekit.people.table.drawing import KEYS, WAIT_KEYS, TableView
from rulekit.people.table.view import table_lines, unseen_together  # noqa: F401  (table_lines: part of this module's face)

#: lines told since your last question that are still on a 40-line screen above the summary
ON_SCREEN = 25
#: the most lines shown between two questions: a 40-line terminal keeps them all on screen, with
#: the question's own line and one spare (more, and the game pauses for Enter, like a pager)
PAGE = 38
#: the table of your last question, with at most this many lines told below it, is still in view:
#: the next question's table says what changed on it (at a table that pauses)
NEAR = 6
#: more lines than this told between two of your questions (at a table that pauses) are told
#: short: your own turns, what the rules said, and how many turns the other seats took
MID_LONG = 14
#: a range of whole numbers longer than this is asked as "a number from a to b"
RANGE_AS_NUMBER = 12
#: a run of more counts than this told by the count itself ('1 chip', '2 chips', ...): typed too
COUNT_AS_NUMBER = 4


class Quit(Exception):
    """The player typed q."""


class EndOfInput(Quit):
    """The input ended at a question (Ctrl-D): the game is left, and saved, as with q."""


class Table(TableView):
    """Tells one game from `seat`'s view on `screen`; also the agent of that seat."""

    name = "human"

    def __init__(self, game: Any, n: int, seat: int | None, screen: Screen, pause: bool = True,
                 verbose: bool = False, ask_all: bool = False):
        self.game, self.n, self.seat, self.screen = game, n, seat, screen
        # questions the rules give nothing to decide on (display.unasked) answered for the
        # person with their first answer, unless the table is set to ask everything
        self.unasked = {} if ask_all else dict(game.extra.display.unasked)
        self.answered = ""  # the words telling the answer the table just took for you
        # a player who pauses between rounds reads a choiceless end of round short (the whole
        # story one key away); `verbose`, or a game told without pauses, tells it whole
        self.short = pause and seat is not None and not verbose
        self.story: list[Line] = []  # the end of the round last told short, in full (the t key)
        self.phase_here = ""  # the phase named by the table's heading, not by a line above it
        self.round_here = False  # the round too ('Round 3 of 12: the table, seat 0 deals: ...')
        self.rows: list[str] = []  # the lines of the table last drawn
        self.last_rows: list[str] = []  # ... at your last question
        self.kept: frozenset[str] = frozenset()  # lines of the table still on screen: not drawn again
        self.watcher: Any = None  # the game followed for the odds (h), when the runner lets the table watch
        self.odds_seed: Any = 0
        self.answers: list[tuple[int, str]] = []  # the question's answers as the menu words them (for h)
        self.answers_later: list[str] = []  # each one's answers to the parts asked after it, where h fixed them
        self.player = seat  # the player; a draw for seats (game.draw) may seat them elsewhere
        self.nar = Narrator(game, n, seat)
        # the cards a question names ('Contest seat 1, who shows A and B face up?') read as the
        # table names them, with their values
        ids = game.card_ids
        self.card_words = lambda i, nar=self.nar: nar.card_text(ids[i])
        self.pause = pause and seat is not None
        self.rounds_played = 0
        self.buf: list[Line] = []  # sentences not yet shown (told compactly at the next pause)
        # what was told since the player's last question (still on the screen): the round's
        # summary does not repeat it (the showdown's hands, and its payments when all came after)
        self.recent: set[str] = set()
        # the places' lines of the table drawn at your last question, as a summary names them, and
        # the table's height: still on screen until what is told below it pushes it off
        self.on_table: set[str] = set()
        self.table_height = 0
        self.said_why: set[str] = set()  # why you had no choice, told once a round
        # the places where the rules showed you alone a card this round (the column you staked
        # on): yours as your hand is, so a round told short still tells you what came to them
        self.looked: set[str] = set()
        self.drawn: dict = {}  # the draw for seats, told once the seats are known
        self.shown = 0  # lines told since then
        self.scrolled = False  # some of them scrolled away since then
        self.last_table = ""  # the table as last drawn before a question
        self.asking: Any = None  # the game state while the person is asked a question
        self.only = False  # the question just asked had one answer as the player reads it
        self.only_why = ""  # why its answers were all alike (a choice's `alike` say), if they were

    # -- the game followed for the odds on request (told by runner.play) -------------
    def watch(self, game: Any, n: int, seed: Any, moves: list, values: list) -> None:
        """Follow the game about to be played, so that h can weigh each answer (rulekit.engine.odds)."""
        from rulekit.engine.odds import watcher
        self.watcher = watcher(game, n, seed, moves, values)
        self.odds_seed = seed

    def round_start(self, ctx: Any, r: int, total: int, deltas: list) -> None:
        """Keep the state as a round starts: the deals the odds sample start from there."""
        if self.watcher is not None:
            self.watcher.at_round(ctx, r, total, deltas)

    def tell_odds(self) -> None:
        """The h key at a question: what the rules make likely for each answer."""
        from rulekit.engine.odds import answer_odds
        from rulekit.people.table.chances import odds_lines
        if self.watcher is None or self.watcher.pending is None:
            self.screen.say("No odds here: this table does not follow the game's moves.", "note", 2)
            return
        odds = answer_odds(self.watcher, seed=f"{self.odds_seed}:{len(self.watcher.moves)}",
                           actions=[i for i, _ in self.answers] or None)
        self.screen.say("")
        for k, line in enumerate(odds_lines(self.game, odds, self.answers, self.answers_later)):
            self.screen.say(line.lstrip(), "heading" if k == 0 else "table", 0 if k == 0 else len(line) - len(line.lstrip()))

    # -- events ------------------------------------------------------------------
    def observe(self, e: dict) -> None:
        """Show one event as it happens (after the previous round's summary when a round starts)."""
        if e.get("t") == "reveal" and self.seat is not None and e.get("to") == [self.seat]:
            cards = set(e.get("cards") or ())
            self.looked.update(self.nar.main_zone(z) for z, held in self.nar.zones.items() if cards & set(held))
        if e.get("t") == "round" and self.nar.round_no >= 0 and e["round"] != self.nar.round_no:
            self.end_of_round(more=True)
        if e.get("t") == "seating" and self.player is not None:
            # where you sit and who deals, plainly (not every player's number and seat)
            self.seat = self.nar.viewer = e["players"].index(self.player)
            self.nar.feed(e)
            # before the draw players are not seats: the draw's sentence names no seat, this one does
            spec = self.game.extra.seat_draw
            if spec is not None and spec.seating == "by_draw":
                drawn = self.drawn.get("cards") or []
                if len(drawn) == len(e["players"]):
                    # the cards drawn told by the seats they gave, so the order is plain to see
                    said = [(f"you (seat {s})" if p == self.player else f"seat {s}") + " " + self.nar.card_text(drawn[p])
                            for s, p in enumerate(e["players"])]
                    self.buf.append(Line("deal", f"Draw for the seats and the deal: {join_words(said)}."))
                where = f"You sit at seat {self.seat}" + (", the dealer: you deal first." if e["dealer"] == self.seat
                                                          else f"; seat {e['dealer']} deals first.")
            else:
                where = "You deal first." if e["dealer"] == self.seat else f"Seat {e['dealer']} deals first."
            self.buf.append(Line("note", where, self.seat))
            return
        if self.only and e.get("t") == "choose" and e.get("player") == self.seat:
            # every answer read the same: told as your only choice, as a forced one is (with why
            # they were all alike, when the rules said so)
            self.only = False
            e = {**e, "forced": True, **({"why": self.only_why, "alike": True} if self.only_why else {})}
            self.only_why = ""
        told = self.nar.feed(e)
        if self.answered and e.get("t") == "choose" and e.get("player") == self.seat:
            # an answer the table took for you: told in the rules' words, not as your choice
            told, self.answered = [Line("choice", self.answered, self.seat)], ""
        spec = self.game.extra.seat_draw
        if e.get("t") == "draw" and self.player is not None and not e.get("tie") and spec is not None \
                and spec.seating == "by_draw":
            self.drawn = e  # told with the seats it gives (players are not seats until then)
            return
        if e.get("t") == "draw" and self.player is not None:
            # your own card in the draw for seats: 'you', not your player number
            # (where the draw seats you is said once it is known: 'you (seat 2)')
            spec = self.game.extra.seat_draw
            me = f"player {self.player + 1} " if spec is not None and spec.seating == "by_draw" else f"seat {self.player} "
            told = [replace(ln, text=ln.text.replace(me, "you ", 1)) for ln in told]
        self.buf += told

    def flush(self, reserve: int = 0, question: bool = False) -> None:
        """Show the sentences told since the last pause, compactly (one line per seat's turn); when
        they and the `reserve` lines still to come before the next question would not fit one
        screen, pause for Enter first, so that nothing told since your last answer scrolls away
        (`question`: one of yours comes next)."""
        from rulekit.people.table.compact import compact
        lines, self.buf = self.buf, []
        told = compact(lines, self.seat, self.nar.zone_words(self.game.deck_zone), self.said_why, question)
        if self.short:
            from rulekit.people.table.stretch import phases_joined
            told = phases_joined(told)
        # pages on a terminal only: piped output is read whole, and piped answers are not Enters
        paged = self.pause and not self.screen.console.soft_wrap
        hand = self._hand_height() if paged else 0
        last_mine = max((k for k, t in enumerate(told) if t.seat == self.seat), default=-1)
        for k, ln in enumerate(told):
            need = self.screen.height(ln.text, 0 if ln.kind in ("heading", "phase") else 2) + (ln.kind == "heading")
            # your hand above the pause, unless you still play from it below (it would show it as
            # it is after those plays)
            mine = k <= last_mine
            if paged and self.screen.since and self.screen.since + need + (0 if mine else hand) > PAGE:
                self.more(hand=not mine)
            self.show(ln)
        if paged and self.screen.since and self.screen.since + reserve > PAGE:
            # what comes before the question (the table, its menu) on a screen of its own; the
            # table shows your hand, so not above the pause too
            self.more(hand=False)

    def more(self, hand: bool = True) -> None:
        """A screenful told: wait for Enter before telling more (with your hand above the prompt:
        while the rules play for you, the table with it may be screens away)."""
        for line in self.own_hand_lines() if hand else ():
            self.screen.say(line, "table", 2)
        self.wait("Press Enter to go on")

    def _hand_height(self) -> int:
        """The lines your hand takes above a pause."""
        return sum(self.screen.height(t, 2) for t in self.own_hand_lines())

    def wait(self, words: str, keys: str = WAIT_KEYS) -> None:
        """Ask `words` until the player presses Enter (the keys ? and t are answered meanwhile)."""
        while True:
            a = self.screen.ask(f"{words} ({keys}) ")
            if a is None:
                raise EndOfInput()
            if not self.key(a):
                return

    def dry(self, fn: Any, *args: Any) -> int:
        """How many screen lines `fn(*args)` would write (nothing is written)."""
        import io
        real, since = self.screen.console.file, self.screen.since
        self.screen.console.file = io.StringIO()
        self.screen.since = 0
        try:
            fn(*args)
            return self.screen.since
        finally:
            self.screen.console.file, self.screen.since = real, since

    def show(self, ln: Line) -> None:
        kind = ln.kind
        if ln.seat is not None and ln.seat == self.seat and kind in ("choice", "deal", "yaku"):
            kind = "you"
        if kind == "heading":
            self.screen.say("")
        self.shown += 1
        if self.shown > ON_SCREEN:
            self.recent.clear()  # scrolled off the screen: the summary tells it again
            self.scrolled = True
        if self.shown + self.table_height > ON_SCREEN:
            self.on_table.clear()
        self.recent.add(ln.text.strip())
        self.recent.add(ln.text.strip().replace(" is shown: ", ": ", 1))  # as the summary names a hand
        self.screen.say(ln.text, kind, indent=0 if kind in ("heading", "phase") else 2)

    def end_of_round(self, more: bool) -> None:
        """The round summary and standings; with more rounds to come, wait for the player."""
        self.rounds_played += 1
        # 'The round ends: the showdown.' just before 'End of round 2 (the showdown).' says it twice
        self.buf = [ln for ln in self.buf if not (ln.kind == "note" and ln.text.startswith("The round ends"))]
        if self.player is not None:
            # the round's payments are all told by the summary, once each: the settling up that
            # ends the round is not also told just before it
            k = len(self.buf)
            while k and self.buf[k - 1].kind in ("pay", "note", "reveal", "phase", "yaku"):  # the showdown, its payments
                k -= 1
            settling = sum(1 for ln in self.buf[k:] if ln.kind == "pay")
            for p in self.nar.pays[:len(self.nar.pays) - settling]:
                p["told"] = True  # told as it was paid: the summary says so
            self.buf = self.buf[:k] + [ln for ln in self.buf[k:] if ln.kind != "pay"]
        # a heading with nothing left under it (the payments, told by the summary) is not shown
        while self.buf and self.buf[-1].kind in ("phase", "heading"):
            self.buf.pop()
        # the last round is told whole: no pause follows it where t could tell the rest
        brief = self._shorten() if self.short and more else False
        # what is told first, then the summary as it will read (leaving out what is still on the
        # screen): a pause only when that would not fit
        self.flush()
        self.flush(reserve=self.dry(self.summary, True, brief) + 1)
        self.summary(brief=brief)
        if more and self.pause:
            self.wait(f"Press Enter for round {self.nar.round_no + 2}",
                      WAIT_KEYS.replace("t the table", "t the whole round") if brief else WAIT_KEYS)
        self.story = []
        # a new round starts on a read screen: what scrolls away is counted from here (a round
        # without a question of yours would otherwise count the last one's lines too)
        self.shown, self.scrolled = 0, False
        self.last_rows = []  # the summary stands between: the next table is drawn whole
        self.recent.clear()
        self.on_table.clear()
        self.said_why.clear()
        self.looked.clear()

    def _shorten(self) -> bool:
        """Tell the rest of the round (the sentences not yet shown: no question of yours comes
        before its end) short, keeping it whole for the t key (a stretch that is short already
        is told as it is); whether the round's end is told short (see stretch.brief_summary)."""
        from rulekit.people.table.compact import compact
        from rulekit.people.table.stretch import SHORT_FROM, short_story
        deck = self.nar.zone_words(self.game.deck_zone)
        whole = compact(list(self.buf), self.seat, deck,
                        set(self.said_why))
        said = frozenset(self.nar.said)  # what the rules said: the round's end says it again
        if len(whole) > SHORT_FROM:
            self.story = whole
            self.buf = short_story(self.buf, self.seat, self._own_place, said, self.game.deck_zone)
        else:
            self.buf = [ln for ln in self.buf if ln.text not in said]
        return True

    def _own_place(self, zname: str) -> bool:
        """Whether `zname` is one of the player's own places (a hand, captures, sets)."""
        if not zname:
            return False
        if self.nar.main_zone(zname) in self.looked:
            return True
        base, idx = self.nar.zone_of(zname)
        zd = self.nar.zone_defs.get(base)
        return idx == self.seat and zd is not None and zd.kind == "player"

    def tell_story(self) -> None:
        """The turns last told short, in full (the t key at the round's pause, or at the question
        they came before)."""
        self.screen.say("")
        self.screen.say("The rest of the round, in full:" if self.asking is None
                        else "Since your last answer, in full:", "heading")
        for ln in self.story:
            self.screen.say(ln.text, ln.kind, indent=0 if ln.kind in ("heading", "phase") else 2)

    def summary(self, repeats: bool = True, brief: bool = False) -> None:
        """The round's summary and the standings (`repeats`: leave out what is still on screen;
        `brief`: the round's end told short, see stretch.brief_summary)."""
        self.screen.say("")
        if brief:
            from rulekit.people.table.stretch import brief_summary
            for ln in brief_summary(self.nar, self.seat):
                self.screen.say(ln.text, "heading" if ln.kind == "heading" else "summary",
                                indent=0 if ln.kind == "heading" else 2)
            ranks = [ln.text for ln in self.nar.standings(changes=True) if ln.kind != "heading"]
            legend = " (in brackets: this round's change)" if any(ln.endswith(")") for ln in ranks) else ""
            self.screen.say("Standings: " + "; ".join(ranks) + legend + ".", "standings")
            return
        pays = set(self.nar.pays_text())
        summary = unseen_together(self.nar.round_summary())
        # the hands are one list: told again whole unless every one of them is still on screen
        # (never some of them: a hand shown just before a page break is not left out)
        # (the hands of seats and of numbered places: a pile on its own is no part of that list)
        # (one list a kind of place, and only when some of what was told scrolled away: the hands
        # shown at a showdown are not told again for a hand or the sets not shown with them)
        kinds = {self.nar.zone_words(z)[0].upper() + self.nar.zone_words(z)[1:] + ": ": self.nar.zone_of(z)[0]
                 for z in self.nar.zones if self.nar.main_zone(z) == z and self.nar.zone_of(z)[1] is not None}
        kinds["Unseen hands: "] = ""
        kind_of = {ln.text.strip(): next(k for h, k in kinds.items() if ln.text.startswith(h))
                   for ln in summary if ln.kind == "summary" and ln.text.startswith(tuple(kinds))}
        whole = {k for k in set(kind_of.values())
                 if self.scrolled and any(h in self.recent for h, kk in kind_of.items() if kk == k)
                 and not all(h in self.recent for h, kk in kind_of.items() if kk == k)}
        hands = [h for h, k in kind_of.items() if k in whole]
        for ln in summary:
            if ln.text.strip() in hands and self.player is not None:
                self.screen.say(ln.text, "summary", indent=2)
                continue
            if self.player is None and ln.kind == "summary" and not ln.text.startswith(("Chip changes", "Next round",
                                                                                      "No chips")):
                continue  # watching: the hands and payments were just told, as they happened
            if repeats and ln.kind == "summary" and ln.text not in pays and (
                    ln.text.strip() in self.recent or ln.text.strip() in self.on_table):
                continue  # told since your last question, or on its table: still on the screen above
            if repeats and ln.text not in pays and yaku_told(ln, list(self.recent)):
                continue  # the hand was shown with this value a few lines above
            if repeats and ln.kind == "summary" and ln.text not in pays and self._told_as_played(ln.text.strip(), ln.dst):
                continue  # its cards were named as they were laid, still on the screen above
            self.screen.say(ln.text, "heading" if ln.kind == "heading" else "summary",
                            indent=0 if ln.kind == "heading" else 2)
        ranks = [ln.text for ln in self.nar.standings() if ln.kind != "heading"]
        self.screen.say("Standings: " + "; ".join(ranks) + ".", "standings")

    def _told_as_played(self, text: str, place: str = "") -> bool:
        """Whether a summary line of a place's cards ('Seat 1's sets: A, B and C; D, E and F.',
        'The field: A, B and C — shows 2.'; `place` the zone it tells) names exactly the cards a
        line still on the screen named for the same seat or place ('Seat 1 lays down A, B and C; D, E and F.')."""
        head, sep, cards = text.partition(": ")
        cards = cards.split(" — shows ")[0].removesuffix(".")
        if not sep or not cards or "hidden" in cards:
            return False
        # open places only (sets laid down, a field): a hand's recap is the hands' own rule above
        open_words = {self.nar.zone_words(z).removeprefix("the ") for z, zd in self.nar.zone_defs.items()
                      if zd.visibility == "public"}
        if not any(head.lower().removesuffix(" (dealer)").endswith(w) for w in open_words):
            return False
        base, owner = self.nar.zone_of(place) if place else ("", None)
        zd = self.nar.zone_defs.get(base)
        if owner is not None and zd is not None and zd.kind == "player":  # a seat's own place
            who = ("You ", "Your ") if owner == self.nar.viewer else (f"Seat {owner} ", f"Seat {owner}'s ")
            return any(r.startswith(who) and f" {cards}" in r for r in self.recent)
        place = head.lower().removeprefix("the ")
        return any(f"the {place}" in r and f"{cards} " in r for r in self.recent)

    def finish(self, chips: list[Any], rounds: int) -> None:
        """The last summary, the standings and the winner."""
        self.end_of_round(more=False)
        best = max(chips)
        top = [s for s, c in enumerate(chips) if c == best]
        shown = chips_word(f"{best:+d}" if isinstance(best, int) else str(best))
        start = self.game.start_chips
        if start and isinstance(best, int):
            # a game played with chips in hand: what the winner holds, and what that is up or down
            d = best - start
            shown = f"{chips_word(best)} ({'up ' + str(d) if d > 0 else 'down ' + str(-d) if d < 0 else 'even'})"
        who = _who(top, self.seat)
        self.screen.say("")
        played = f"Game over after {rounds} round{'s' if rounds != 1 else ''}."
        if len(top) == 1:
            self.screen.say(f"{played} The winner is {who}, with {shown}.", "winner")
        else:
            self.screen.say(f"{played} {who[0].upper() + who[1:]} share first place, with {shown} each.",
                            "winner")

    # -- keys ----------------------------------------------------------------------
    def key(self, a: str) -> bool:
        """Handle a key typed instead of an answer; True when it was one."""
        a = a.strip().lower()
        if a == "?":
            self.rules_text()
            if self.asking is not None:
                # the rules push the table up the screen: it comes back with the question
                self.draw_table(self.asking)
            return True
        if a == "t" and self.story and self.asking is None:
            self.tell_story()  # at the pause after a round told short: the round as it was played
            return True
        if a == "t" and self.story:
            self.tell_story()  # at a question after turns told short: those turns, then the table
        if a == "t":
            self.draw_table(self.asking, full=True)  # at a question: its table lines too (stakes, maximum)
            return True
        if a == "h" and self.asking is not None:
            self.tell_odds()  # what each answer makes likely, then the question again
            return True
        if a == "q":
            raise Quit()
        return False

    # -- the human's choices ---------------------------------------------------------
    def act(self, d: Decision) -> int:
        """Ask the person for a choice, part by part; the index of the legal action chosen."""
        choice = d.choice
        if choice.id in self.unasked and d.actions:
            # a blind question (said on the first screen): the first answer, told with the story
            self.answered = " ".join(self.unasked[choice.id][1](d.ctx).split())
            return 0
        ids = self.game.card_ids
        labels = getattr(choice, "labels", {}) or {}
        prompt, asks = d.words(self.card_words)
        sets = getattr(choice, "unordered", frozenset())
        # deck order, where cards of the same name count as the first of them: sets that read the
        # same are then shown in the same order (two plain Ones, each in another set)
        index = self.nar.name_order()
        shown = [[_in_deck_order(render(v, t, ids), index) if p in sets else render(v, t, ids)
                  for p, t, v in zip(choice.params, choice.types, a)] for a in d.actions]
        # Values are told apart by the words the player reads, not by their data: two sets made
        # with different but identical-looking cards (two plain "One"s) read the same, and a
        # player cannot choose between them, so they are one menu entry. Actions that read the
        # same in every part are the same to the player; the first of them is taken (an index
        # into d.actions, so always a legal action). Agents and the rl env see every action.
        words = [[self.nar.value_text(p, v, labels.get(p)) for p, v in zip(choice.params, row)] for row in shown]
        ctx = getattr(d, "ctx", None)
        hint = getattr(choice, "hint", None)
        hints = [hint(ctx, a) if hint is not None else {} for a in d.actions]
        alike = getattr(choice, "alike_keys", None)
        # values the rules make alike to a person (two Sixes where the suit does not matter) are one answer
        sigs = [[("alike", keys[p]) if p in keys else ("words", w) for p, w in zip(choice.params, row)]
                for keys, row in zip((alike(ctx, a) if alike is not None else {} for a in d.actions), words)]
        # the table and the first menu come before the question: measured as they will be shown
        # (a pause only when they and what is told before them would not fit one screen)
        # each answer as the menu words it, once (h weighs them)
        self.answers = list({"; ".join(w for w in row if w): i for i, row in reversed(list(enumerate(words)))}.items())
        self.answers = sorted(((i, t) for t, i in self.answers), key=lambda it: it[0])
        if self.watcher is not None:
            self.watcher.at_decision(d)
        args = (d, choice, shown, (words, sigs), hints, index, labels, (prompt, asks), sets)
        height = self._menu_height(args)
        if not height:
            # nothing to ask (one answer as you read it): no table, no pause; the story goes on
            return self._choose(*args)
        table = self._table_text(ctx)
        if self.short:
            # the deal just told is on the table drawn with the question: said short before it;
            # the phase named last, just above the table, is named in its heading
            from rulekit.people.table.stretch import laid_open, opening_short
            self.buf = opening_short(laid_open(self.buf, self.seat, self.nar), self.seat, self._own_place)
            # a sentence the table says word for word (its rules' lines) is said there
            rows = set(self.rows)
            self.buf = [ln for ln in self.buf if ln.text not in rows and ln.text.removesuffix(".") not in rows]
            if self.buf and self.buf[-1].kind == "phase":
                self.phase_here = self.buf.pop().text
            from rulekit.people.table.compact import compact
            told = compact(list(self.buf), self.seat, None, set(self.said_why))
            if len(told) == 1 and told[0].kind == "heading" and self.buf[0].kind == "heading":
                # a round that starts with your question: the table's heading names the round
                self.buf = []
                self.round_here = True
            elif len(told) > MID_LONG:
                # many turns of others since your last answer (yours all forced): told short,
                # the table below shows where they left the cards; t tells them in full
                from rulekit.people.table.stretch import mid_short
                self.story = told
                self.buf = mid_short(self.buf, self.seat, self._own_place, self.game.deck_zone)
            table = self._table_text(ctx)
        self.flush(reserve=table.count("\n") + height, question=True)
        # a question right after another with the table unchanged and nothing told between them
        # but your answer (the dealer asked about each bettor in turn): the table above still holds
        same = table == self.last_table and self.shown <= 1
        # at a table that pauses, the table drawn at your last question a few lines above (your
        # answer and a forced turn or two since) is drawn again by what changed on it
        near = self.short and self.last_table and not self.scrolled and self.shown <= NEAR
        before = frozenset(self.last_rows) if near else frozenset()
        self.recent.clear()
        self.shown = 0
        self.scrolled = False
        if not same:
            self.kept = before
            try:
                self.draw_table(ctx)
            finally:
                self.kept = frozenset()
            self.last_rows = list(self.rows)
        self.last_table = table
        self.asking = getattr(d, "ctx", None)
        try:
            return self._choose(*args)
        finally:
            self.asking = None
            self.phase_here, self.round_here = "", False
            self.story = []

    def _menu_height(self, args: tuple) -> int:
        """How many screen lines the question's first menu takes, its prompt line included, as
        `_choose(*args)` would show it (nothing is written, nothing read); 0 when nothing would
        be asked."""
        import io
        screen, only, only_why = self.screen, self.only, self.only_why
        real, since = screen.console.file, screen.since
        screen.console.file, screen.since = io.StringIO(), 0

        asked = []

        def stop(prompt: str) -> None:
            screen.since += screen.height(prompt)
            asked.append(True)
            raise _Measured()
        screen.ask = stop  # type: ignore[method-assign]  # the first question ends the measure
        try:
            self._choose(*args)
        except _Measured:
            pass
        finally:
            lines = screen.since
            del screen.ask
            screen.console.file, screen.since, self.only, self.only_why = real, since, only, only_why
        return lines if asked else 0

    def _choose(self, d: Decision, choice: Any, shown: list, read: tuple[list, list], hints: list, index: dict,
                labels: dict, texts: tuple[str, dict], sets: Any) -> int:
        """The menu of one question (its prompt and per-part questions in `texts`), part by part;
        `read`: each action's words per part and what tells its answers apart (its words, or its
        `alike` key); the index of the legal action chosen."""
        prompt, asks = texts
        words, sigs = read
        remaining = list(range(len(d.actions)))
        # a part the rules fix (the column a third card is for) is said with the question
        fixed = [words[0][k] for k, p in enumerate(choice.params)
                 if p in labels and words[0][k] and len({words[i][k] for i in remaining}) == 1]
        head = f"Your turn: {prompt or choice.prompt}" + (f" ({', '.join(fixed)})" if fixed else "")
        asked = False  # said before the first menu; no menu at all: the answer is told as your only choice
        many = sum(1 for k in range(len(choice.params)) if len({sigs[i][k] for i in remaining}) > 1)
        for k, param in enumerate(choice.params):
            # cards from your hand are offered in the order your hand is shown: alike values offer the first
            place = _card_places([shown[i][k] for i in remaining], index)
            if place is not None:
                remaining = [remaining[j] for j in sorted(range(len(remaining)), key=place.__getitem__)]
            values: list[Any] = []
            kinds: list[Any] = []  # what tells each value apart
            offered: list[str] = []  # the words of the value offered for each (the first of alike ones)
            leads: list[str] = []  # what each value leads to (the choice's `hints`)
            for i in remaining:
                if sigs[i][k] not in kinds:
                    kinds.append(sigs[i][k])
                    offered.append(words[i][k])
                    values.append(shown[i][k])
                    leads.append(f" — {hints[i][param]}" if param in hints[i] else "")
            # alike values that read differently were offered as one: the rules' reason is told
            merged = any(words[i][k] != offered[kinds.index(sigs[i][k])] for i in remaining)
            if len(values) == 1:
                remaining = sorted(i for i in remaining if words[i][k] == offered[0])
                if merged:  # every answer was alike: told with the rules' reason, not as a forced move
                    self.only_why = choice.alike[param][1]
                continue
            question = asks.get(param) or ("" if many == 1 else f"Choose the {param.replace('_', ' ')}:")
            kept = self._keeps(values) or [("", None)] * len(values)
            # each entry's words with what the hand kept would show; and that value, as data
            keeps = [t + (f", which shows {v}" if v is not None else "") for t, v in kept]
            if any(keeps):
                # answers that keep the very same cards (and lead to the same) are one entry: the first
                one = [j for j in range(len(values)) if keeps[j] + leads[j] not in
                       {keeps[i] + leads[i] for i in range(j)}]
                values, keeps, leads = [values[j] for j in one], [keeps[j] for j in one], [leads[j] for j in one]
                kept = [kept[j] for j in one]
                kinds, offered = [kinds[j] for j in one], [offered[j] for j in one]
            same = {v for _, v in kept}
            alike_value = len(values) > 1 and len(same) == 1 and None not in same
            said = head
            if alike_value and self.short and not asked and not (len(values) > 1 and merged):
                # at a table that pauses, the note that every answer is worth the same is on the
                # question's own line
                said = f"{head} — every choice keeps a hand that shows {next(iter(same))} (Enter for the first)"
            if len(values) > 1 and not asked:
                self.screen.say(said, "prompt")
                asked = True
            again = [(said, "prompt", 0)]  # said again with the menu after a key (? or t)
            if len(values) > 1 and merged:
                why = choice.alike[param][1]
                again.append((f"{why[:1].upper()}{why[1:]}.", "note", 2))
                self.screen.say(*again[-1])
            if alike_value:
                # every answer leaves a hand of the same value: said once, not on every line; the
                # choice stays yours, and Enter alone takes the first
                if said == head:
                    again.append((f"Every choice keeps a hand that shows {same.pop()}: press Enter for the first, "
                                  "or choose the cards you like.", "note", 2))
                    self.screen.say(*again[-1])
                keeps = [t for t, _ in kept]
            if len(values) > 1:
                self._weigh_menu(d, remaining, k, (values, kinds, offered), (words, sigs), labels.get(param))
            v = values[0] if len(values) == 1 else self._ask_value(question, param, values, labels.get(param),
                                                                   [a + b for a, b in zip(keeps, leads)], again,
                                                                   enter_first=alike_value)
            j = values.index(v)
            # the value offered is the one played (not another alike one: the story names it)
            remaining = sorted(i for i in remaining if sigs[i][k] == kinds[j] and words[i][k] == offered[j])
        # every answer read the same, or kept the same cards: nothing was asked
        self.only = not asked
        return remaining[0]

    def _weigh_menu(self, d: Decision, remaining: list[int], k: int, menu: tuple[list, list, list],
                    read: tuple[list, list], labels: dict | None) -> None:
        """What h weighs at this menu (part `k` of the answer): each entry once, by the first
        action it stands for (the first answer to any part asked after it), worded as the menu
        words it; `self.answers_later` says whether later parts were fixed that way."""
        values, kinds, offered = menu
        words, sigs = read
        param = d.choice.params[k]
        texts = [self.nar.value_text(param, v, labels) for v in values]
        # a menu's entries numbered as it numbers them; numbers typed ('3 chips') read as they are
        numbered = not all(type(v) is int and t.startswith(str(v)) for v, t in zip(values, texts))
        self.answers = []
        for j, text in enumerate(texts):
            i = next(i for i in remaining if sigs[i][k] == kinds[j] and words[i][k] == offered[j])
            self.answers.append((i, f"{j + 1}) {text}" if numbered else text))
        self.answers_later = [" ".join(w for w in words[i][k + 1:] if w) for i, _ in self.answers]
        if not any(len({sigs[i][m] for i in remaining}) > 1 for m in range(k + 1, len(d.choice.params))):
            self.answers_later = []

    def _keeps(self, values: list[Any]) -> list[tuple[str, str | None]]:
        """For choices of several of your own cards (sets to lay down, cards to play together):
        what each leaves in your hand (' — keeps A and B'; '' where it says nothing new) and what
        the hand kept would show, as told ('5'; None when nothing)."""
        if self.seat is None:
            return []
        first = set(_flat(values[0])) if values else set()
        zname = next((f"{z}[{self.seat}]" for z, zd in self.nar.zone_defs.items() if zd.kind == "player"
                      and first & set(self.nar.zones.get(f"{z}[{self.seat}]", []))), None)
        mine = self.nar.zones.get(zname, []) if zname else []
        if not mine:
            return []
        out = []
        for v in values:
            used = _flat(v)
            if len(used) < 2 or not set(used) <= set(mine):
                out.append(("", None))
                continue
            rest = self.nar.held_order(zname, [c for c in mine if c not in used])
            value = self.nar.hand_value(zname, rest) if rest else None  # what the hand kept would show
            out.append((f" — keeps {self.nar.cards_text(rest, zname)}", None if value is None else f"{value}")
                       if rest else (" — keeps nothing", None))
        return out

    def _ask_value(self, question: str, param: str, values: list[Any], labels: dict | None,
                   keeps: list[str] | None = None, again: list[tuple[str, str, int]] | None = None,
                   enter_first: bool = False) -> Any:
        """One value of the answer, asked from a menu (or typed as a number); `enter_first`: every
        entry comes to the same for you, and Enter alone takes the first."""
        texts = [self.nar.value_text(param, v, labels) for v in values]
        if keeps and len(keeps) == len(texts):
            texts = [t + k for t, k in zip(texts, keeps)]
        run = (len(values) > COUNT_AS_NUMBER and all(type(v) is int for v in values)
               and sorted(values) == list(range(min(values), max(values) + 1)))
        # a long run of numbers, or of counts ('How many chips?': '1 chip', '2 chips', ... '9
        # chips'), is answered by typing the number, on one line, not from a long menu
        counts = bool(labels) and str(labels.get("*", "")).startswith("{value} ") and all(
            str(labels[str(v)]).startswith(f"{v} ") for v in values if str(v) in labels)
        as_range = run and (counts or (len(values) > RANGE_AS_NUMBER
                                       and not (labels and any(str(v) in labels for v in values))))
        if as_range:
            lo, hi = min(values), max(values)
            unit = ""
            if counts:  # the thing counted: named by the question, else after the numbers
                unit = f" ({KEYS})" if question else f" {labels['*'].removeprefix('{value} ')} ({KEYS})"
            elif labels and "*" in labels:
                unit = f" ({labels['*'].replace('{value}', 'n')})"
            prompt = f"{question + ' ' if question else ''}Type a number from {lo} to {hi}{unit}: "
        else:
            if question:
                self.screen.say(question, "prompt")
            self.screen.menu(texts)
            prompt = f"Your choice (1 to {len(values)}{', Enter for 1' if enter_first else ''}; {KEYS}): "
        while True:
            a = self.screen.ask(prompt)
            if a is None:
                raise EndOfInput()
            if enter_first and not as_range and not a.strip():
                return values[0]
            if self.key(a):
                if not as_range:
                    # the question again, as first asked (what it is about, its note, its menu)
                    for line in again or []:
                        self.screen.say(*line)
                    if question:
                        self.screen.say(question, "prompt")
                    self.screen.menu(texts)
                continue
            num = parse_int(a, max_digits=11)
            if as_range and num is not None and lo <= num <= hi:
                return num
            if not as_range and num is not None and 1 <= num <= len(values):
                return values[num - 1]
            want = f"a number from {lo} to {hi}" if as_range else f"a number from 1 to {len(values)}"
            self.screen.say(f"Please type {want}, or one of the keys ({KEYS}).", "error", 2)


class _Measured(Exception):
    """The first menu of a question was measured (see Table._menu_height)."""


def _card_places(values: list[Any], index: dict[str, int]) -> list[tuple] | None:
    """Where each value goes in a menu in deck order, when every value is a card or a list of
    cards (an empty list, 'no card', last); None for any other kind of value."""
    places = []
    for v in values:
        cards = [v] if isinstance(v, str) else v if isinstance(v, list) and all(isinstance(c, str) for c in v) else None
        if cards is None or not all(c in index for c in cards):
            return None
        places.append((0, [index[c] for c in cards]) if cards else (1, []))
    return places


def _flat(v: Any) -> list[Any]:
    """The card ids in a value (a card, a list of cards, a list of sets of cards)."""
    if isinstance(v, str):
        return [v]
    if isinstance(v, list):
        return [c for x in v for c in _flat(x)]
    return []


def _in_deck_order(v: Any, index: dict[str, int]) -> Any:
    """A set of cards (or a list of sets) in deck order: how an `unordered` answer is shown."""
    if not isinstance(v, list):
        return v
    if all(isinstance(x, str) and x in index for x in v):
        return sorted(v, key=index.__getitem__)
    if all(isinstance(x, list) for x in v):
        groups = [_in_deck_order(x, index) for x in v]
        return sorted(groups, key=lambda g: [index.get(c, -1) if isinstance(c, str) else -1 for c in g])
    return v


def _who(seats: list[int], me: int | None) -> str:
    names = [("you (seat %d)" % s) if s == me else f"seat {s}" for s in seats]
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]

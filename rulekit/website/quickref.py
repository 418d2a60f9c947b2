"""The quick-reference box of a rules page: facts read from the rules, not written by hand.

Players, deck, cards dealt, who acts first and in which direction, and how long a game lasts
are all derived from the built game: the deck tables, the options' defaults, and seeded rounds
played by random players (which table sizes the default rules actually play, which cards leave
the deck before the first choice, who makes the first choices). Two facts no generic reading
can give, how a round ends and how the game ends, come from the variant's `rules.round_end`
and `rules.game_end` lines, with a plain fallback.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

from rulekit.lang.decks import load_deck
from rulekit.engine.game import Game
from rulekit.engine.runner import make_agents, play
from rulekit.lang.loader import plain
from rulekit.website.util import plural, squash

SEEDS = (1, 2, 3)


@dataclass(frozen=True)
class Fact:
    """One line of the box: a label and its text (plain words, Markdown-safe HTML allowed)."""

    label: str
    text: str


def _round(game: Game, n: int, seed: int) -> list[dict]:
    """The events of one seeded round with random players, or [] when it cannot be played."""
    try:
        return play(game, n, seed, make_agents(game, n, seed, "random"), rounds=1, logging=True).events
    except Exception:  # noqa: BLE001 - a table size the rules refuse with an error
        return []


class Rounds:
    """A game's seeded rounds with random players, each played once however many facts read it (and however
    many games read it that play every round alike: rulekit.website.yourtable shares it between them)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._events: dict[tuple[int, int], list[dict]] = {}

    def events(self, n: int, seed: int) -> list[dict]:
        """The events of the round at `n` seats on `seed` ([] when it cannot be played); not to be changed."""
        key = (n, seed)
        if key not in self._events:
            self._events[key] = _round(self.game, n, seed)
        return self._events[key]


#: the seeded rounds of the games last read without rounds given (a site's own games: its index, family and game
#: pages and the "Your table" panel all read the same rounds), each with its game, so an id is never reused
_SHARED: dict[int, tuple[Game, Rounds]] = {}
_KEEP_SHARED = 16


def rounds_for(game: Game) -> Rounds:
    """The seeded rounds of this game object, played once however many facts, pages and panels read them."""
    hit = _SHARED.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    got = Rounds(game)
    _SHARED[id(game)] = (game, got)
    while len(_SHARED) > _KEEP_SHARED:
        del _SHARED[next(iter(_SHARED))]
    return got


def _rounds(game: Game, rounds: Rounds | None) -> Rounds:
    return rounds if rounds is not None else rounds_for(game)


def _player_zones(game: Game) -> set[str]:
    return {z.name for z in game.variant.zones.values() if z.kind == "player"}


def _zone_of(ref: str) -> tuple[str, int | None]:
    m = re.match(r"^([^\[]+)(?:\[(\d+)\])?$", str(ref))
    if not m:
        return str(ref), None
    return m.group(1), int(m.group(2)) if m.group(2) is not None else None


def plays_at(game: Game, n: int, rounds: Rounds | None = None) -> bool:
    """Whether a round at `n` seats is played under the default options (cards reach players or
    somebody chooses), rather than refused or ended before any card is dealt."""
    pz = _player_zones(game)
    played = _rounds(game, rounds)
    for seed in SEEDS[:2]:
        for e in played.events(n, seed):
            if e.get("t") == "choose":
                return True
            if e.get("t") == "deal" and e.get("to") in pz:
                return True
            if e.get("t") == "move" and _zone_of(e.get("to", ""))[0] in pz:
                return True
    return False


def allowed_players(game: Game, rounds: Rounds | None = None) -> list[int]:
    """The table sizes the default options play (within the variant's players range)."""
    played = _rounds(game, rounds)
    return [n for n in game.player_sizes() if plays_at(game, n, played)]  # players.sizes refuses the others


def _span(ns: list[int]) -> str:
    if not ns:
        return "none"
    if len(ns) == 1:
        return str(ns[0])
    if ns == list(range(ns[0], ns[-1] + 1)):
        return f"{ns[0]} or {ns[1]}" if len(ns) == 2 else f"{ns[0]}–{ns[-1]}"
    return ", ".join(map(str, ns[:-1])) + f" or {ns[-1]}"


def players_text(game: Game, short: bool = False, rounds: Rounds | None = None) -> str:
    """'3–6, usually 5', or the sizes the default rules allow when the file's range is wider
    (`short`, for tables of games: '7 or 8, usually 7 (5–8 with other house rules)')."""
    m = game.variant.meta
    full = list(range(m.players_min, m.players_max + 1))
    ns = allowed_players(game, rounds) or full  # a game no table plays by default: say what the file allows
    usual = f", usually {m.players_default}" if len(ns) > 1 and m.players_default in ns else ""
    if ns == full:
        return _span(ns) + usual
    if short:
        return f"{_span(ns)}{usual} ({_span(full)} with other house rules)"
    return f"{_span(ns)} with the default rules{usual} ({_span(full)} with other house rules; see the house rules)"


def deck_text(game: Game) -> str:
    """The deck in words: its description, its size, and the cards taken out of the shipped deck."""
    choice = game.variant.decks[game.deck_name]
    n = len(game.card_ids)
    desc = squash(choice.description or choice.name).rstrip(".")
    out = desc if f"{n} cards" in desc else f"{desc} ({plural(n, 'card')})"
    try:
        base = load_deck(choice.base)
    except Exception:  # noqa: BLE001
        return out
    kept = set(game.card_ids)
    removed = [c for c in base.cards if c.id not in kept]
    said = desc.lower()
    if any(c.name.lower() in said or any(p in said for p in re.findall(r"\(([^)]+)\)", c.name.lower()))
           for c in removed):
        removed = []  # the description names the cards taken out already ('without the red 1 (Aka-pin)')
    if removed and len(removed) < len(base.cards):
        names = [c.name for c in removed]
        what = ", ".join(names) if len(names) <= 6 else plural(len(names), "card")
        out += f"; from the {base.names.get('en', choice.base)} deck of {len(base.cards)}, without {what}"
    return out + by_table_text(game)


def by_table_text(game: Game) -> str:
    """The cards a deck takes out of play at some table sizes, in words ('' if none)."""
    parts = []
    for size, ids in sorted(game.deck.out_of_play.items()):
        names = [c.name for c in game.deck.cards if c.id in ids]
        what = ", ".join(names) if len(names) <= 6 else plural(len(names), "card")
        parts.append(f"with {size} players {plural(len(game.card_ids) - len(ids), 'card')} are played, "
                     f"without {what}")
    return ("; " + "; ".join(parts)) if parts else ""


def _first_choice(events: list[dict]) -> int:
    return next((i for i, e in enumerate(events) if e.get("t") == "choose"), len(events))


def dealt_text(game: Game, n: int, rounds: Rounds | None = None) -> str:
    """Cards leaving the deck before the first choice, per player or per pile, and whether more follow."""
    played = _rounds(game, rounds)
    events = next((ev for ev in (played.events(n, s) for s in SEEDS) if ev), [])
    if not events:
        return ""
    stop = _first_choice(events)
    pz = _player_zones(game)
    zones = game.variant.zones
    per: dict[str, Counter] = {}
    phase, deal_phase = None, None
    for i, e in enumerate(events[:stop]):
        t = e.get("t")
        if t == "phase":
            phase = e.get("id")
            if deal_phase is not None:  # the deal is the first phase that takes cards from the deck
                stop = i
                break
            continue
        if t in ("deal", "move") and e.get("from") == game.deck_zone:
            deal_phase = phase
        if t == "deal" and e.get("from") == game.deck_zone:
            for p in e.get("players", []):
                per.setdefault(e["to"], Counter())[p] += e.get("count", 0)
        elif t == "move" and e.get("from") == game.deck_zone:
            base, idx = _zone_of(e.get("to", ""))
            per.setdefault(base, Counter())[idx] += len(e.get("cards", []))
    bits = []
    for zname, counts in per.items():
        z = zones.get(zname)
        word = zname.replace("_", " ")
        vals = set(counts.values())
        if z is not None and z.kind == "player":
            if len(counts) == n and len(vals) == 1:
                bits.append(f"{plural(vals.pop(), 'card')} to each player")
            else:
                bits.append("; ".join(f"{plural(c, 'card')} to seat {p}" for p, c in sorted(counts.items())))
        elif z is not None and z.kind != "single" and len(vals) == 1 and len(counts) > 1:
            bits.append(f"{plural(vals.pop(), 'card')} to each of {len(counts)} {word}s")
        else:
            bits.append(f"{plural(sum(counts.values()), 'card')} to the {word}")
    more = any(e.get("t") in ("deal", "move") and e.get("from") == game.deck_zone
               and _zone_of(e.get("to", ""))[0] in (pz | set(per)) for e in events[stop:])
    text = "; ".join(bits) if bits else "no cards before the first decision"
    return text + ("; more are drawn or dealt during play" if more else "")


def order_text(game: Game, n: int, rounds: Rounds | None = None) -> str:
    """Who acts first in the main phase of play (the phase with the most choices), relative to the
    dealer, and which way play passes."""
    firsts: Counter = Counter()
    steps: Counter = Counter()
    played = _rounds(game, rounds)
    for seed in SEEDS:
        events = played.events(n, seed)
        dealer = next((e.get("dealer") for e in events if e.get("t") == "round"), 0) or 0
        by_phase: dict[Any, list[int]] = {}
        phase = None
        for e in events:
            if e.get("t") == "phase":
                phase = e.get("id")
            elif e.get("t") == "choose" and isinstance(e.get("player"), int):
                by_phase.setdefault(phase, []).append(e["player"])
        if not by_phase:
            continue
        choosers = max(by_phase.values(), key=len)  # the first of the longest, as dicts keep order
        firsts[(choosers[0] - dealer) % n] += 1
        for a, b in zip(choosers, choosers[1:]):
            if a != b:
                steps[(b - a) % n] += 1
    if not firsts:
        return ""
    off = firsts.most_common(1)[0][0]
    who = {0: "the dealer", 1: "the player on the dealer's right"}.get(off)
    if who is None:
        who = "the player on the dealer's left" if off == n - 1 else f"the {_ordinal(off)} player to the dealer's right"
    if n == 2:
        return f"{who.capitalize()}; the two players alternate"
    if not steps:
        return who.capitalize()
    step = steps.most_common(1)[0][0]
    way = {1: "play passes to the right (anticlockwise)", n - 1: "play passes to the left (clockwise)"}.get(step, "")
    return f"{who.capitalize()}" + (f"; {way}" if way else "")


def _ordinal(k: int) -> str:
    return {2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(k, f"{k}th")


def game_length_text(game: Game, n: int) -> str:
    """'12 rounds' with the default options, or 'one round'."""
    g = plain(game.variant.tree).get("game") or {}
    if g.get("rounds") is None:
        return "one round"
    try:
        r = game.rounds(game.new_ctx(n, 0, None))
    except Exception:  # noqa: BLE001
        return ""
    return plural(r, "round")


def _first_sentence(text: str) -> str:
    s = " ".join(str(text).split())
    m = re.match(r"(.+?[.!?])(\s|$)", s)
    return m.group(1) if m else s


def quick_facts(game: Game, doc: Any | Callable[[], Any], rounds: Rounds | None = None) -> list[Fact]:
    """Every line of the quick-reference box, in reading order. `doc`: the rules document (its last step of
    play is the fallback for how a round ends), or a function that makes it when it is needed; `rounds`: this
    game's seeded rounds where some are played already (of this game, or of one that plays each round alike)."""
    m = game.variant.meta
    n = m.players_default
    rules = plain(game.variant.tree).get("rules") or {}
    played = _rounds(game, rounds)  # the facts below read the same seeded rounds: each is played once
    out = [Fact("Players", players_text(game, rounds=played)), Fact("Deck", deck_text(game))]
    dealt = dealt_text(game, n, played)
    if dealt:
        out.append(Fact("Cards dealt", dealt[0].upper() + dealt[1:]))
    order = order_text(game, n, played)
    if order:
        out.append(Fact("Plays first", order))
    from rulekit.lang.prose import Prose, render, strip_marks
    # the game's own option values (a house file's, the "Your table" panel's); one line: no "(house rule: ...)"
    words = Prose.sheet(game.variant.options, dict(getattr(game, "options", None) or {}))
    round_end = strip_marks(render(str(rules.get("round_end") or ""), words))
    if not round_end:
        if callable(doc):
            doc = doc()
        steps = doc.section("play").steps if doc is not None and doc.section("play") else ()
        round_end = _first_sentence(steps[-1].text) if steps and steps[-1].text else ""
    if round_end:
        out.append(Fact("A round ends", str(round_end)))
    length = game_length_text(game, n)
    game_end = strip_marks(render(str(rules.get("game_end") or ""), words))
    if not game_end:
        g = plain(game.variant.tree).get("game") or {}
        game_end = f"After {length}" if length else ""
        if g.get("end_when") is not None:
            game_end += ", or earlier (see End of the game)"
        if game_end:
            game_end += "; the player with the most chips wins."
    elif length and length != "one round" and "round" not in str(game_end):
        game_end = f"{game_end} ({length} with the default rules)"
    if game_end:
        out.append(Fact("The game", str(game_end)))
    if game.start_chips:
        out.append(Fact("Chips", f"{game.start_chips} each at the start"))
    return out


__all__ = ["Fact", "Rounds", "rounds_for", "quick_facts", "allowed_players", "players_text", "deck_text", "dealt_text", "order_text",
           "plays_at"]

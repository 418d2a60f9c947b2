"""Readable transcripts of game events: cards by name, decisions, payouts."""
from __future__ import annotations

from typing import Any

from rulekit.core.inert import inert


def _cards(game: Any, ids: list[str]) -> str:
    index = game.card_index
    return ", ".join(game.card_name(index[c]) if c in index else str(c) for c in ids)


def _who(x: Any) -> str:
    return f"seat {x}" if isinstance(x, int) else str(x)


def _value(game: Any, v: Any) -> str:
    index = game.card_index
    if isinstance(v, str) and v in index:
        return game.card_name(index[v])
    if isinstance(v, list):
        return "[" + ", ".join(_value(game, x) for x in v) + "]"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def line(game: Any, e: dict) -> str | None:
    """One transcript line for an event (None for events not worth a line)."""
    t = e["t"]
    if t == "round":
        return f"== Round {e['round'] + 1} (dealer: seat {e['dealer']}) =="
    if t == "phase":
        names = {p.id: p.name for p in game.phases}
        return f"-- {names.get(e['id'], e['id'])}"
    if t == "shuffle":
        return f"   shuffle {e['zone']}"
    if t == "cut":
        return f"   cut {e['zone']} at {e['at']}"
    if t == "deal":
        return f"   deal {e['count']} card(s) from {e['from']} to each {e['to']} (seats {', '.join(map(str, e['players']))})"
    if t == "move":
        face = " face up" if e.get("face") == "up" else ""
        return f"   {e['from']} -> {e['to']}{face}: {_cards(game, e['cards'])}"
    if t == "reveal":
        if e["to"] == []:
            return None  # shown to nobody (e.g. a column without stakes)
        to = "everyone" if e["to"] == "all" else "seat " + ", ".join(map(str, e["to"]))
        return f"   shown to {to}: {_cards(game, e['cards'])}"
    if t == "hide":
        return f"   hidden again: {_cards(game, e['cards'])}"
    if t == "choose":
        act = ", ".join(f"{k} {_value(game, v)}" for k, v in e["action"].items())
        if e.get("forced"):
            return f"   seat {e['player']} must ({e['choice']}): {act}"
        return f"   seat {e['player']} chooses ({e['choice']}): {act}   [{e['index'] + 1} of {e['of']}]"
    if t == "pay":
        why = f" ({e['why']})" if e.get("why") else ""
        return f"   {_who(e['from'])} pays {e['amount']} to {_who(e['to'])}{why}"
    if t == "yaku":
        if e.get("cards"):  # the cards, not the seat they were evaluated for, are whose the yaku is
            return f"   {', '.join(e['yaku'])} ({e['table']}) in {_cards(game, e['cards'])}, for seat {e['player']}"
        return f"   seat {e['player']} has {', '.join(e['yaku'])} ({e['table']})"
    if t == "record":
        who = f" (seat {e['player']})" if "player" in e else ""
        return f"   ** {e['name']}{who}"
    if t == "end_round":
        return f"   round ends{': ' + e['why'] if e.get('why') else ''}"
    if t == "redeal":
        return f"   misdeal: redeal{': ' + e['why'] if e.get('why') else ''}"
    if t == "next_dealer":
        return f"   next dealer: seat {e['seat']}"
    if t == "swap":
        return f"   swap {e['zones'][0]} <-> {e['zones'][1]}"
    if t == "say":  # text from the variant file: made inert for the terminal
        return "   " + inert(e["text"], keep_newlines=False)
    if t == "set":
        return "   " + inert(f"{e['name']} = {e['value']}", keep_newlines=False)
    if t in ("draw", "seating"):  # the draw for the deal and the seats, before the first round
        from rulekit.people.narrate import draw_sentence, seating_sentence
        return "   " + (draw_sentence(game, e, lambda c: _cards(game, [c])) if t == "draw"
                        else seating_sentence(game, e))
    return None


def transcript(game: Any, events: list[dict], chips: list[int] | None = None) -> str:
    """The whole readable transcript of a game's events."""
    out = [inert(f"{game.variant.meta.names.get('en', game.id)} — deck {game.deck_name}", keep_newlines=False)]
    for e in events:
        s = line(game, e)
        if s is not None:
            out.append(inert(s, keep_newlines=False))  # names, says and reasons come from the variant
    if chips is not None:
        out.append("== Result: " + ", ".join(f"seat {i}: {c:+d}" if isinstance(c, int) else f"seat {i}: {c}"
                                            for i, c in enumerate(chips)))
    return "\n".join(out)

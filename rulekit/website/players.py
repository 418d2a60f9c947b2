"""How many players a game takes with its default options, found by playing, not by reading names."""
from __future__ import annotations

from typing import Any

from ..agents import FirstLegalAgent
from ..engine.runner import play


def deals_cards(game: Any, n: int, seed: int = 1) -> bool:
    """Whether a round with n players gets going: cards are dealt or someone has a choice."""
    try:
        res = play(game, n, seed, [FirstLegalAgent() for _ in range(n)], rounds=1, logging=True, dealer=0)
    except Exception:  # noqa: BLE001 - a table the rules refuse outright
        return False
    return any(e.get("t") in ("deal", "choose") for e in res.events)


def playable_counts(game: Any) -> list[int]:
    """The numbers of players, within the file's players range, at which the default rules play a round."""
    m = game.variant.meta
    return [n for n in range(m.players_min, m.players_max + 1) if deals_cards(game, n)]


def _span(ns: list[int]) -> str:
    if not ns:
        return "none"
    if ns == list(range(ns[0], ns[-1] + 1)):
        return f"{ns[0]}–{ns[-1]}" if len(ns) > 1 else str(ns[0])
    return ", ".join(map(str, ns))


def players_text(game: Any) -> str:
    """'2–8, usually 5', or '7–8, usually 7 (5–8 with other house rules)' when the defaults refuse some tables."""
    m = game.variant.meta
    ok = playable_counts(game)
    if not ok:
        ok = list(range(m.players_min, m.players_max + 1))
    text = _span(ok)
    if len(ok) > 1 and m.players_default in ok:
        text += f", usually {m.players_default}"
    if ok != list(range(m.players_min, m.players_max + 1)):
        text += f" ({_span(list(range(m.players_min, m.players_max + 1)))} with other house rules)"
    return text

"""The table's own lines: the variant's `display.table` lines at a decision, and hidden hands
told together by their size ('Unseen hands: seat 0 (dealer): 5 cards; seats 1 and 3: 6 cards each')."""
from __future__ import annotations

from typing import Any

from rulekit.people.line import Line


def table_lines(game: Any, ctx: Any, seat: int | None, card_text: Any, full: bool = False) -> list[str]:
    """The variant's `display.table` lines for `seat` in this game state (a line whose value
    cannot be worked out is left out); lines shown on request only with `full`."""
    out: list[str] = []
    ids = game.card_ids
    saved = ctx.loc

    def shown(v: Any) -> str:
        if isinstance(v, bool):
            return "yes" if v else "no"
        if isinstance(v, list):
            return ", ".join(shown(x) for x in v)
        return str(v)

    def cardish(v: Any, t: Any) -> Any:
        if t == "card" and isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(ids):
            return card_text(ids[v])
        if isinstance(v, list) and isinstance(t, str) and t.startswith("list<card"):
            return [card_text(ids[x]) for x in v if isinstance(x, int) and 0 <= x < len(ids)]
        return v

    def line(parts: Any) -> str:
        # a part with its own condition (a clause, engine.textparts) holds parts of its own
        return "".join(p if isinstance(p, str) else shown(cardish(p[0](ctx), p[1])) if isinstance(p, tuple)
                       else line(p.parts) if p.when is None or p.when(ctx) else "" for p in parts)

    for name, each, when, parts, asked in game.extra.display.table or []:
        if asked and not full:
            continue
        try:
            ctx.loc = {"me": -1 if seat is None else seat}
            values = list(each(ctx)) if each is not None else [None]
            for v in values:
                ctx.loc = {"me": -1 if seat is None else seat, **({name: v} if name else {})}
                if when is not None and not when(ctx):
                    continue
                out.append(line(parts))
        except Exception:  # a line that cannot be worked out here is not shown
            continue
        finally:
            ctx.loc = saved
    return out


def by_count(hands: list[tuple[str, int]]) -> str:
    """Seats' hidden hands grouped by size, in seat order of first mention: 'seat 0 (dealer): 5
    cards; seats 1, 3 and 4: 6 cards each; seat 6: 1 card' (who is close to going out shows)."""
    groups: dict[int, list[str]] = {}
    for who, k in hands:
        groups.setdefault(k, []).append(who.removeprefix("seat "))
    parts = []
    for k, seats in groups.items():
        cards = f"{k} card{'s' if k != 1 else ''}"
        if len(seats) == 1:
            parts.append(f"seat {seats[0]}: {cards}")
        else:
            parts.append(f"seats {', '.join(seats[:-1])} and {seats[-1]}: {cards} each")
    return "; ".join(parts)


def unseen_together(lines: list[Line]) -> list[Line]:
    """The round summary's hands nobody saw, told on one line ('Unseen hands: seat 0: 1 card; ...')."""
    out: list[Line] = []
    unseen: list[tuple[str, int]] = []
    at = -1
    for ln in lines:
        if not ln.hidden or ln.kind != "summary":
            out.append(ln)
            continue
        unseen.append((f"seat {ln.seat}{ln.tag}", ln.hidden))
        at = len(out) if at < 0 else at
    if unseen:
        out.insert(at, Line("summary", "Unseen hands: " + by_count(unseen) + "."))
    return out

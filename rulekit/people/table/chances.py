"""The odds on request (the h key at a question): for each answer, what the rules make likely
from the cards you cannot see (rulekit.engine.odds), told in the rules' own words."""
from __future__ import annotations

import re
from typing import Any

from rulekit.people.words import human_words

#: shares below this are left out of an answer's line (noise of a few deals)
LEAST = 0.05


def odds_lines(game: Any, odds: list, answers: list[tuple[int, str]]) -> list[str]:
    """One line per answer ('stand: +0.4 chips on average; you are paid for ... 35%; ...'), for
    `answers`, (action index, the answer's words) as the menu offers them; the heading says how
    many deals the figures rest on."""
    if not odds:
        return ["No deal of the cards you cannot see agrees with what you saw: no odds to give."]
    reasons = game.extra.get("display_reasons") or {}
    names = {(t, y.id): y.names.get("en") or human_words(y.id) for t, ys in game.yaku.items() for y in ys}

    def why(r: str) -> str:
        # the variant's words for a reason, without the places its payments fill in ('{values}')
        template = reasons.get(r) or ""
        if template.startswith("{"):
            return human_words(r)  # words built around what the payment fills in: the reason's own name
        return re.sub(r"[:;,]?\s*\{[a-z_]+\}", "", template).strip(" ,;:") or human_words(r)

    out = [f"What each answer makes likely, over {odds[0].deals} deals of the cards you cannot see "
           "(each answer played to the round's end, every seat playing carefully):"]
    told = [(words, _told(odds[i], why, names)) for i, words in answers]
    if len(told) > 1 and len({t for _, t in told}) == 1:
        return out + [f"Every answer alike: {told[0][1]}."]  # nothing to choose between them
    return out + [f"{words}: {t}." for words, t in told]


def _told(o: Any, why: Any, names: dict) -> str:
    """One answer's figures in words ('+0.4 chips on average; you pay for Buta 35%')."""
    parts = [f"{o.chips:+.1f} chips on average (ahead {_pc(o.ahead)}, behind {_pc(o.behind)})"]
    ends = {k: v for k, v in o.ends.items() if v >= LEAST and k}
    if ends:
        parts.append("the round ends on " + ", ".join(f"{why(k)} {_pc(v)}" for k, v in ends.items()))
    # payments by their named reason (a reason worked out with numbers, 'column 2, 7 against 3',
    # is one case of many: the chances ahead and behind above tell them together)
    parts += [f"you are paid for {why(k)} {_pc(v)}" for k, v in o.won.items() if v >= LEAST and not _worked(k)]
    parts += [f"you pay for {why(k)} {_pc(v)}" for k, v in o.lost.items() if v >= LEAST and not _worked(k)]
    parts += [f"you make {names.get(k, human_words(k[1]))} {_pc(v)}" for k, v in o.mine.items() if v >= LEAST]
    parts += [f"another seat makes {names.get(k, human_words(k[1]))} {_pc(v)}" for k, v in o.theirs.items()
              if v >= LEAST]
    return "; ".join(parts)


def _worked(reason: str) -> bool:
    """Whether a payment's reason was worked out with numbers (not a name the rules give)."""
    return any(ch.isdigit() for ch in reason)


def _pc(share: float) -> str:
    return f"{round(share * 100)}%"

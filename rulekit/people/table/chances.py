"""The odds on request (the h key at a question): for each answer, what the rules make likely
from the cards you cannot see (rulekit.engine.odds), told in the rules' own words."""
from __future__ import annotations

import math
import re
from typing import Any

from rulekit.people.words import human_words

#: shares below this are left out of an answer's line (noise of a few deals)
LEAST = 0.05
#: a payment made at least this often after every answer is left out (it tells no answer apart)
ALWAYS = 0.95


def odds_lines(game: Any, odds: list, answers: list[tuple[int, str]], later: list[str] | None = None) -> list[str]:
    """The h key's lines, indented as shown: a heading (how many deals the figures rest on, and
    how far a share may be off), then per answer (`answers`: action index and the menu's words,
    `odds` weighed for them in that order) its chips and chances, the named outcomes on a line
    below; `later`: each answer's answers to the parts asked after it, where those were fixed."""
    if not odds:
        return ["No deal of the cards you cannot see agrees with what you saw: no odds to give."]
    reasons = game.extra.display.reasons or {}
    names = {(t, y.id): y.names.get("en") or human_words(y.id) for t, ys in game.yaku.items() for y in ys}

    def why(r: str) -> str:
        # the variant's words for a reason, without the places its payments fill in ('{values}')
        template = reasons.get(r) or ""
        if template.startswith("{"):
            return human_words(r)  # words built around what the payment fills in: the reason's own name
        return re.sub(r"[:;,]?\s*\{[a-z_]+\}", "", template).strip(" ,;:") or human_words(r)

    n = odds[0].deals
    # a share from n deals is within this many points of the true one 19 times in 20 (at worst,
    # 50%); deals drawn one from another (few agree with what you saw) count as n / 2
    margin = round(98 / math.sqrt(n if getattr(odds[0], "apart", True) else n / 2))
    out = [f"What each answer makes likely, over {n} deals of the cards you cannot see (each answer played "
           f"to the round's end, every seat playing carefully; a share may be off by about {margin} points):"]
    if len(odds) > 1 and 100 * (max(o.ahead for o in odds) - min(o.ahead for o in odds)) < margin:
        # differences that chance alone could make: said, so that noise is not read as advice
        out.append("  Their chances of coming out ahead differ by less than that: chance alone could make the difference.")
    fixed = {w for w in later or [] if w}
    if len(fixed) == 1:
        out.append(f"  Each answer is weighed with {fixed.pop()} for what is asked next.")
    elif fixed:
        out.append("  Each answer is weighed with the first choice of what is asked next.")
    # what happens in every deal whatever the answer (a settlement every seat goes through) tells
    # nothing about the answer: left out
    always = {(kind, k) for kind in ("won", "lost") for k in getattr(odds[0], kind)
              if all(getattr(o, kind).get(k, 0.0) >= ALWAYS for o in odds)} if len(odds) > 1 else set()
    told = [(words, o, _told(o, why, names, always)) for (_, words), o in zip(answers, odds)]
    if len(told) > 1 and len({t for _, _, t in told}) == 1:
        head, rest = told[0][2]
        return out + [f"  Every answer alike: {head}."] + ([f"    {rest}."] if rest else [])
    lines = []
    # answers in a row that come out alike but for the size of the chips (stakes of 1 to 8) are
    # one line: the same chances, the chips on average from the first to the last
    groups: list[list] = []
    for t in told:
        o, prev = t[1], groups[-1][-1][1] if groups else None
        if prev is not None and (o.ahead, o.behind, t[2][1]) == (prev.ahead, prev.behind, groups[-1][-1][2][1]):
            groups[-1].append(t)
        else:
            groups.append([t])
    for g in groups:
        rest = g[0][2][1]
        if len(g) < 3:
            for words, _, (head, _) in g:
                lines.append(f"  {words}: {head}.")
                if rest:
                    lines.append(f"    {rest}.")
            continue
        o1, o2 = g[0][1], g[-1][1]
        lines.append(f"  {g[0][0]} to {g[-1][0]}: {o1.chips:+.1f} to {o2.chips:+.1f} chips on average "
                     f"(ahead {_pc(o1.ahead)}, behind {_pc(o1.behind)}, for each).")
        if rest:
            lines.append(f"    {rest}.")
    return out + lines


def _told(o: Any, why: Any, names: dict, always: set = frozenset()) -> tuple[str, str]:
    """One answer's figures in words: its chips ('+0.4 chips on average (ahead 40%, behind 35%)'),
    and what the rules name ('payments to you: Buta 35%; ...'), '' when nothing reaches LEAST."""
    head = f"{o.chips:+.1f} chips on average (ahead {_pc(o.ahead)}, behind {_pc(o.behind)})"
    parts = []
    ends = {k: v for k, v in o.ends.items() if v >= LEAST and k}
    if ends:
        parts.append("the round ends on " + ", ".join(f"{why(k)} {_pc(v)}" for k, v in ends.items()))
    # payments by their named reason (a reason worked out with numbers, 'column 2, 7 against 3',
    # is one case of many: the chances ahead and behind above tell them together)
    won = [f"{why(k)} {_pc(v)}" for k, v in o.won.items() if v >= LEAST and not _worked(k) and ("won", k) not in always]
    lost = [f"{why(k)} {_pc(v)}" for k, v in o.lost.items() if v >= LEAST and not _worked(k)
            and ("lost", k) not in always]
    if won:
        parts.append("payments to you: " + ", ".join(won))
    if lost:
        parts.append("payments by you: " + ", ".join(lost))
    mine = [f"{names.get(k, human_words(k[1]))} {_pc(v)}" for k, v in o.mine.items() if v >= LEAST]
    theirs = [f"{names.get(k, human_words(k[1]))} {_pc(v)}" for k, v in o.theirs.items() if v >= LEAST]
    if mine:
        parts.append("you make " + ", ".join(mine))
    if theirs:
        parts.append("another seat makes " + ", ".join(theirs))
    rest = "; ".join(parts)
    return head, rest[:1].upper() + rest[1:]


def _worked(reason: str) -> bool:
    """Whether a payment's reason was worked out with numbers (not a name the rules give)."""
    return any(ch.isdigit() for ch in reason)


def _pc(share: float) -> str:
    return f"{round(share * 100)}%"

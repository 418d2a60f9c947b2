"""The odds of each answer at a decision, from what the deciding seat can see.

Deals of the cards the seat has not seen are drawn among the places it cannot see, keeping only
deals in which everything so far happens as it did in the open (the search bot's sampler,
`Stepper.deals`); in each deal every answer is taken in turn and the round played to its end by
the base policy at every seat (the game's `careful` policy where it has one), every answer with
the same deal and the same policy seeds. What the round then did is counted from its events:
the seat's chip change, how the round ended, the payments the seat made and received by their
reason, and the yaku each seat made. Nothing here knows any game: outcomes are the rules' own
ids (a round's end, a payment's `why`, a yaku's id), worded by whoever shows them.

The work is bounded by a count of deals (`deals`), or by default by a count of moves made
(WORK), never by time, so a seed fixes the figures.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rulekit.engine.agents import PolicyAgent, RandomAgent
from rulekit.engine.stepper import Inconsistent, Stepper
from rulekit.lang.expr.scope import EVAL_BUDGET

__all__ = ["AnswerOdds", "answer_odds", "MOST", "WORK", "MOVES"]

MOST = 80  # deals drawn per question by default, at most (every answer is played out in each)
PLAYOUTS = 300  # rounds played out per question by default, at most: many answers get fewer deals
WORK = 900_000  # work units per question by default (replays and playouts): fewer deals where rounds are long
MOVES = 900  # ... and moves made (each costs the engine a step whatever its expressions cost)
MIN_DEALS = 10  # ... but never fewer than this
TRIES = 4  # re-deals tried per deal wanted, at most (a rare deal agreeing with what was seen)


@dataclass(frozen=True)
class AnswerOdds:
    """What followed one answer over `deals` sampled deals: the seat's mean chip change, and the
    share of deals (0 to 1) in which each thing the rules name happened."""

    action: int
    deals: int
    chips: float
    #: how the round ended ('why' of its end; '' when the rules gave none) -> share of deals
    ends: dict[str, float]
    #: a payment's reason -> share of deals in which the seat received one for it
    won: dict[str, float]
    #: a payment's reason -> share of deals in which the seat paid one for it
    lost: dict[str, float]
    #: (yaku table, yaku id) -> share of deals in which the seat made it
    mine: dict[tuple[str, str], float]
    #: (yaku table, yaku id) -> share of deals in which another seat made it
    theirs: dict[tuple[str, str], float]
    #: share of deals in which the seat came out of the round ahead, and behind
    ahead: float = 0.0
    behind: float = 0.0
    #: whether the deals were drawn apart (fresh re-deals), not one from another (a Markov chain
    #: where few re-deals agree: successive deals are alike, so they tell less than their count)
    apart: bool = True


def answer_odds(source: Stepper, deals: int | None = None, seed: Any = 0, policy: str | None = None,
                actions: list[int] | None = None) -> list[AnswerOdds]:
    """For each legal action of `source`'s pending decision (a Stepper that logs its events, at a
    decision), or each of `actions` (indices of legal actions, in that order), what followed it
    over up to `deals` sampled deals the deciding seat cannot tell from this one (fewer when too
    few agree with what it saw; [] when none does); by default up to MOST deals, as many as
    WORK units of work (replays and playouts) allow, at least MIN_DEALS. `policy`: how every seat
    plays after the answer (default the game's `careful`, else random)."""
    d = source.pending
    if d is None:
        raise ValueError("the game is over: no decision to weigh")
    seat = d.player
    which = list(range(len(d.actions))) if actions is None else list(actions)
    if not which or any(not 0 <= a < len(d.actions) for a in which):
        raise ValueError(f"actions: expected indices of the {len(d.actions)} legal actions, found {actions}")
    k = len(which)
    # by default as many deals as WORK units (the engine's count of its work) and MOVES moves
    # allow, replays and playouts: more where rounds end soon; counted so, not in seconds, so the
    # seed still fixes the figures
    budget = WORK if deals is None else None
    if deals is None:
        deals = max(MIN_DEALS, min(MOST, PLAYOUTS // k))
    base = policy if policy is not None else ("careful" if "careful" in source.game.policies else "random")
    rng = random.Random(f"odds:{seed}")
    chain = source.deals(seat, rng, None)
    rows: list[list[dict[str, Any]]] = []
    tries = work = moves = 0
    spent0 = source.spent  # the chain's replays are charged to `source`
    prefix = source.round_moves  # the moves a replay of the round so far makes (each deal, each clone)
    while len(rows) < deals and tries < TRIES * deals:
        if budget is not None and len(rows) >= MIN_DEALS and (
                work + source.spent - spent0 >= budget or moves + prefix * chain.replays >= MOVES):
            break
        tries += 1
        try:
            deal = chain.next()
        except Inconsistent:
            continue
        pseed = rng.getrandbits(63)
        copies = [deal.clone() for _ in range(k - 1)] + [deal]  # the clones' replays charged to `deal`
        rows.append([_playout(copies[j], a, pseed, base) for j, a in enumerate(which)])
        work += deal.spent + sum(r["units"] for r in rows[-1])
        moves += sum(r["steps"] for r in rows[-1]) + prefix * (k - 1)
    apart = chain.agree * chain.EASY >= 1
    return [_summed(a, [row[j] for row in rows], apart) for j, a in enumerate(which)] if rows else []


def _playout(st: Stepper, first: int, seed: int, base: str) -> dict[str, Any]:
    """Take action `first`, then `base` everywhere to the round's end: what the round did."""
    assert st.pending is not None  # called only at a decision
    seat, r0 = st.pending.player, st.ctx.round_no
    before, e0 = st.ctx.chips[seat], len(st.ctx.events)
    ctx = st.ctx
    rng = random.Random(seed)
    agents: dict[int, Any] = {}
    u0 = st.ctx.units(EVAL_BUDGET)
    st.step(first)
    steps = 1
    while st.pending is not None and st.ctx.round_no == r0:
        steps += 1
        d = st.pending
        ctx = st.ctx
        agent = agents.get(d.player)
        if agent is None:
            s = rng.getrandbits(63)
            agent = agents[d.player] = RandomAgent(s) if base == "random" else PolicyAgent(base, s)
        i = agent.act(d)
        st.step(i if isinstance(i, int) and 0 <= i < len(d.actions) else 0)
    ctx = st.ctx if st.ctx is not None else ctx
    out: dict[str, Any] = {"chips": ctx.chips[seat] - before, "units": ctx.units(EVAL_BUDGET) - u0, "steps": steps, "end": None, "won": set(), "lost": set(), "mine": set(),
                 "theirs": set()}
    for e in ctx.events[e0:]:
        t = e.get("t")
        if t == "round":
            break  # the next round began: its events are no part of this one
        if t == "end_round":
            out["end"] = str(e.get("why", ""))
        elif t == "pay" and e.get("to") == seat:
            out["won"].add(str(e.get("why", "")))
        elif t == "pay" and e.get("from") == seat:
            out["lost"].add(str(e.get("why", "")))
        elif t == "yaku":
            for y in e.get("yaku") or []:
                out["mine" if e.get("player") == seat else "theirs"].add((str(e.get("table")), str(y)))
    return out


def _summed(action: int, runs: list[dict[str, Any]], apart: bool = True) -> AnswerOdds:
    n = len(runs)

    def share(key: str) -> dict[Any, float]:
        counts: dict[Any, int] = {}
        for r in runs:
            for x in ([r[key]] if key == "end" else r[key]):
                if x is not None:
                    counts[x] = counts.get(x, 0) + 1
        return {x: c / n for x, c in sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))}

    return AnswerOdds(action, n, sum(r["chips"] for r in runs) / n, share("end"), share("won"), share("lost"),
                      share("mine"), share("theirs"), sum(r["chips"] > 0 for r in runs) / n,
                      sum(r["chips"] < 0 for r in runs) / n, apart)


def watcher(game: Any, n: int, seed: Any, moves: list[int], values: list[tuple[Any, ...]]) -> Stepper:
    """A Stepper following a game played elsewhere (runner.play's move lists), logging the events
    its copies make (answer_odds reads them) and without the game's statistics observer."""
    import dataclasses
    quiet = game if game.observer is None else dataclasses.replace(game, observer=None)
    st = Stepper(quiet, n, seed, logging=True, start=False)
    st.moves, st.values, st.one_round = moves, values, True
    return st

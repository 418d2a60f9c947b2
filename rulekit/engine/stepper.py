"""A game advanced one decision at a time, copied, and re-dealt: the engine's own `play` on a greenlet.

The rules run once, as they do for `play` and `simulate`: `runner.play` runs on a greenlet
(a coroutine with its own stack), and the agent at every seat hands the decision to the caller
and waits for the answer. A step is one switch into the running game, so it costs the same at
the end of a long game as at its start.

At the start of each round the stepper keeps a copy of the state (zones, variables, chips,
records, the random generator, dealer, round number) and the moves taken since. A copy of a
game in play (`clone`) starts from that copy and replays this round's moves only; a sample
(`sample`) does the same with the cards a seat has not seen swapped among themselves, so the
round is re-dealt consistently with what that seat knows.

Greenlets belong to the thread that made them: step a Stepper from one thread.
"""
from __future__ import annotations

import math
import random
import weakref
from typing import Any, Callable, Sequence

from greenlet import GreenletExit, greenlet, getcurrent

from rulekit.engine.agents import Decision
from rulekit.engine.game import Game
from rulekit.engine.runner import GameResult, continue_game, decider, play
from rulekit.lang.expr.scope import EVAL_BUDGET

__all__ = ["Stepper", "Inconsistent", "DealChain", "REJECT_SHARE"]

REJECT_SHARE = 10  # Stepper.sample spends 1/REJECT_SHARE of its tries on plain re-deals, the rest on repair


class Inconsistent(Exception):
    """A sampled deal in which the moves taken so far are not all legal (the sampler tries another).

    Raised from inside the rules' run, it is not one of the errors the rules' run locates."""


def _copy(v: Any) -> Any:
    """A copy of a state value deep enough that play cannot change it (lists and maps copied)."""
    t = type(v)
    if t is list:
        return [_copy(x) for x in v]
    if t is dict:
        return {k: _copy(x) for k, x in v.items()}
    return v  # numbers, text, tuples, fractions: never changed in place


def _relabel(v: Any, t: str, relabel: list[int]) -> Any:
    """An action value with its cards renamed as a sampled deal renamed them."""
    if t == "card":
        return relabel[v]
    if t.startswith("list<"):
        return type(v)(_relabel(x, t[5:-1], relabel) for x in v)
    return v


class _Seat:
    """The agent at every seat: replays given moves, then hands each decision to the caller."""

    name = "env"

    def __init__(self, stepper: "Stepper", replay: Sequence[int | tuple[Any, ...]] | None = None, relabel: list[int] | None = None,
                 judge: Callable[[Decision, int], None] | None = None, look: Callable[[Decision], None] | None = None):
        self.relabel = relabel  # a sampled deal: a card chosen before is the card it became
        self.judge = judge  # told each replayed move (a sampler weighing how likely it was here)
        self.look = look  # shown each replayed decision before its move is matched (a sampler's check)
        # weakly: a stepper nobody holds is freed, and its paused game with it (greenlet exit)
        self.stepper = weakref.ref(stepper)
        self.replay = replay or []
        self.pos = 0

    def act(self, d: Decision) -> int:
        st = self.stepper()
        if self.pos < len(self.replay):
            want = self.replay[self.pos]
            self.pos += 1
            if self.look is not None:
                self.look(d)
            if isinstance(want, int):
                i = want
            else:  # a move by value (sampled deals): the same action must be legal here
                try:
                    if self.relabel is not None:
                        if len(want) != len(d.choice.types):
                            raise ValueError("another kind of choice")
                        want = tuple(_relabel(v, t, self.relabel) for v, t in zip(want, d.choice.types))
                    i = d.actions.index(want)
                except (ValueError, TypeError):  # not legal here, or not even this kind of choice
                    raise Inconsistent(f"{d.choice.id}: {want} is not legal in the sampled deal") from None
            if self.judge is not None:
                self.judge(d, i)
        else:
            assert st is not None  # the stepper is alive: it switched to this game to step it
            parent = st._g.parent
            del st  # no strong reference from the paused game: a stepper nobody holds can be freed
            try:
                i = parent.switch(d)
                st = self.stepper()
            except GreenletExit as stop:
                # the stepper was dropped mid-game: play() need not describe the game it abandons
                stop.partial_game = False
                raise
        assert st is not None  # (as above: it switched back here with the answer)
        st.moves.append(i)
        st.values.append(d.actions[i])
        return i


class Stepper:
    """One game of `game` for `n` seats from `seed`, paused at each decision.

    `pending` is the decision waited for (None when over), `step(i)` answers it with an index
    into its actions, `result` is the finished game's GameResult, `ctx` the state now. The
    result's log gets its events digest when `finished()` is asked for (it reads every event)."""

    def __init__(self, game: Game, n: int, seed: Any, rounds: int | None = None, dealer: int | None = None,
                 logging: bool = True, start: bool = True):
        self.game, self.n, self.seed, self.rounds, self.dealer, self.logging = game, n, seed, rounds, dealer, logging
        self.moves: list[int] = []      # every move as an index (the log's moves)
        self.values: list[tuple[Any, ...]] = []   # every move as the action itself (for sampled deals)
        self.pending: Decision | None = None
        self.result: GameResult | None = None
        self.ctx: Any = None
        self._snap: dict[str, Any] | None = None
        self._g: Any = None
        self.relabel: list[int] | None = None  # a sample's re-deal (its clones deal the same)
        self.one_round = False  # a watcher's copies stop at the end of the round they are in
        self.spent = 0  # budget units (Ctx.units) its copies used replaying the round (a search bot's cost)
        if start:
            seat = _Seat(self)
            on_round = self._weak_on_round()
            self._g = greenlet(lambda: play(game, n, seed, [seat] * n, rounds=rounds, logging=logging,
                                            dealer=dealer, on_round=on_round, digest=False))
            self._run(None)

    def _weak_on_round(self) -> Callable[[Any, int, int, list[list[int]]], None]:
        """`_on_round` for the running game without a strong reference back to this stepper."""
        ref = weakref.ref(self)

        def on_round(ctx: Any, r: int, total: int, deltas: list[list[int]]) -> None:
            st = ref()
            if st is not None:
                st._on_round(ctx, r, total, deltas)
        return on_round

    # -- running ---------------------------------------------------------------------
    def _on_round(self, ctx: Any, r: int, total: int, deltas: list[list[int]]) -> None:
        """Keep the state as round `r` starts (what clone and sample start from)."""
        if self.one_round:
            total = r + 1
        self.ctx = ctx
        self._snap = {"round": r, "total": total, "deltas": [list(d) for d in deltas], "moves": len(self.moves),
                      "zones": _copy(ctx.zones), "vars": _copy(ctx.vars), "chips": list(ctx.chips),
                      "records": dict(ctx.records), "seen": list(ctx.seen), "rng": ctx.rng.getstate(),
                      "dealer": ctx.dealer, "events": len(ctx.events), "seating": ctx.seating}

    def _run(self, answer: Any) -> None:
        g = self._g
        g.parent = getcurrent()
        out = g.switch(answer) if answer is not None else g.switch()
        if isinstance(out, Decision):
            self.pending, self.ctx = out, out.ctx
        else:
            self.pending, self.result = None, out
            if out is not None:
                self.ctx = out.state

    def finished(self) -> GameResult | None:
        """The finished game's result with its log complete (events digest included), or None."""
        res = self.result
        if res is not None and self.logging and res.log.get("events_sha256") is None:
            from rulekit.engine.runner import events_digest
            res.log["events_sha256"] = events_digest(res.events)
        return res

    def step(self, i: int) -> None:
        """Answer the pending decision with action index `i` (checked by the caller)."""
        if self.pending is None:
            raise RuntimeError("the game is over")
        self._run(i)

    @classmethod
    def watching(cls, game: Game, n: int, seed: Any, moves: list[int], values: list[tuple[Any, ...]]) -> "Stepper":
        """A Stepper that follows a game played elsewhere (by runner.play, whose move lists it
        shares): told each round's start (`at_round`) and each decision (`at_decision`), it can
        clone and sample from there; its copies play to the end of that round only."""
        st = cls(game, n, seed, logging=False, start=False)
        st.moves, st.values, st.one_round = moves, values, True
        return st

    def at_round(self, ctx: Any, r: int, total: int, deltas: list[list[int]]) -> None:
        """The watched game starts round `r`: keep its state (copies start from here)."""
        self._on_round(ctx, r, total, deltas)

    @property
    def round_moves(self) -> int:
        """The moves taken in the current round so far (what a clone or sample replays)."""
        return len(self.moves) - (self._snap["moves"] if self._snap else 0)

    def at_decision(self, d: Decision) -> None:
        """The watched game waits for decision `d`."""
        self.pending, self.ctx = d, d.ctx

    # -- copies ------------------------------------------------------------------------
    def clone(self) -> "Stepper":
        """An independent copy at the same decision: this round replayed from its start."""
        return self._restart(list(self.moves[self._snap["moves"]:]) if self._snap else [], self.relabel)

    def sample(self, seat: int, rng: random.Random, tries: int = 200) -> "Stepper":
        """A copy in which the cards `seat` has not seen are re-dealt at random among the places
        it cannot see, every move so far is the same action, and what happened in the open came
        out the same (the cards `seat` sees, pile sizes, chips, who acts, its legal actions): a
        state `seat` cannot tell from this one. A tenth of `tries` goes to random re-deals
        (evenly drawn among the deals that agree); if none agrees, the rest to repairing one
        (rulekit.engine.dealsearch: constraint-aware, where the moves say much about the hidden
        cards); raises Inconsistent when `tries` replays found none."""
        if self._snap is None:
            return self.clone()
        unseen, values, mine = self.unseen(seat), self.values[self._snap["moves"]:], self._public(seat)
        rejection = max(1, tries // REJECT_SHARE)
        for _ in range(rejection):
            perm = list(unseen)
            rng.shuffle(perm)
            other = self._redeal(seat, unseen, perm, values, mine)
            if other is not None:
                return other
        found = self._repaired(seat, rng, tries - rejection)[0]
        if found is not None:
            return found
        raise Inconsistent(f"no deal in {tries} tries agrees with the moves so far")

    def _repaired(self, seat: int, rng: random.Random, tries: int) -> tuple["Stepper | None", list[int], int]:
        """A deal found by repair in at most `tries` replays (None if none), its cards slot by
        slot, and the replays made (rulekit.engine.dealsearch)."""
        from rulekit.engine.dealsearch import repair
        return repair(self, seat, rng, tries, Inconsistent)

    def deals(self, seat: int, rng: random.Random, model: Callable[[Decision], int | None] | None = None) -> "DealChain":
        """Deals `seat` cannot tell from this one, drawn one after another (see DealChain)."""
        return DealChain(self, seat, rng, model)

    def _redeal(self, seat: int, unseen: list[int], perm: list[int], values: Sequence[tuple[Any, ...]],
                mine: tuple[Any, ...] | None, judge: Callable[[Decision, int], None] | None = None) -> "Stepper | None":
        """This round replayed with card unseen[i] dealt as perm[i]; None if `seat` could tell."""
        relabel = list(range(len(self.game.card_ids)))
        for a, b in zip(unseen, perm):
            relabel[a] = b
        try:
            other = self._restart(values, relabel, judge)
        except Inconsistent:
            return None
        if other._public(seat) != mine:
            return None
        other.relabel = relabel
        return other

    def _public(self, seat: int) -> tuple[Any, ...]:
        """What a sample must agree on: the cards `seat` sees where it sees them, every pile's size,
        chips, who is to act on which choice, and the seat's own legal actions."""
        ctx, d = self.ctx, self.pending
        legal = None if d is None or d.player != seat else list(d.actions)
        return (self.game.observation(ctx, seat)["zones"], list(ctx.chips), None if d is None else d.player,
                None if d is None else d.choice.id, legal)

    def unseen(self, seat: int) -> list[int]:
        """The cards in play that `seat` cannot see now and has not seen this round."""
        return sorted(c for pile in self.unseen_piles(seat) for c in pile)

    def unseen_piles(self, seat: int, shared: list[bool] | None = None) -> list[list[int]]:
        """The cards of `unseen(seat)`, pile by pile (each hand, the stock, ...), piles without any
        left out; `shared`, when given, is filled with whether each pile is nobody's (a stock, a box)."""
        g, ctx = self.game, self.ctx
        out = []
        for zname, z in g.variant.zones.items():
            piles = [ctx.zones[zname]] if z.kind == "single" else ctx.zones[zname]
            for i, pile in enumerate(piles):
                idx = None if z.kind == "single" else i
                hidden = [c for c in pile if not g.visible(ctx, seat, zname, idx, c)]
                if hidden:
                    out.append(hidden)
                    if shared is not None:
                        shared.append(z.kind == "single")
        return out

    def _restart(self, replay: Sequence[int | tuple[Any, ...]], relabel: list[int] | None,
                 judge: Callable[[Decision, int], None] | None = None,
                 look: Callable[[Decision], None] | None = None) -> "Stepper":
        snap = self._snap
        if snap is None:  # before the first round (a game with no decisions yet): start afresh
            return Stepper(self.game, self.n, self.seed, self.rounds, self.dealer, self.logging)
        other = Stepper(self.game, self.n, self.seed, self.rounds, self.dealer, self.logging, start=False)
        other.moves = self.moves[:snap["moves"]]
        other.values = self.values[:snap["moves"]]
        seat = _Seat(other, replay, relabel, judge, look)
        agents = [seat] * self.n
        log_moves = list(other.moves)
        decide = decider(self.game, agents, log_moves)
        ctx = self.game.new_ctx(self.n, self.seed, decide, self.logging)
        decide.ctx = ctx
        old = self.ctx
        ctx.zones, ctx.vars, ctx.chips = _copy(snap["zones"]), _copy(snap["vars"]), list(snap["chips"])
        ctx.records, ctx.seen = dict(snap["records"]), list(snap["seen"])
        ctx.rng.setstate(snap["rng"])
        ctx.dealer, ctx.round_no, ctx.seating = snap["dealer"], snap["round"], snap["seating"]
        ctx.events = list(old.events[:snap["events"]]) if self.logging else []
        ctx.stack = old.stack
        ctx.relabel = relabel
        other.ctx = ctx
        deltas = [list(d) for d in snap["deltas"]]
        game, seed, dealer, on_round = self.game, self.seed, self.dealer, other._weak_on_round()
        total, start = snap["total"], snap["round"]
        other._g = greenlet(lambda: continue_game(game, ctx, seed, dealer, log_moves, deltas, total, start,
                                                  on_round, False))
        try:
            other._run(None)
        finally:
            self.spent += ctx.units(EVAL_BUDGET)  # a fresh state: all it used was this replay
        if ctx.relabel is not None or len(set(self.game.cards_everywhere(other.ctx))) != len(
                self.game.cards_everywhere(other.ctx)):
            # the round dealt no shuffled zone holding every re-dealt card: no sample from here
            raise Inconsistent("this round's deal cannot be re-dealt")
        if seat.pos < len(replay):
            raise Inconsistent("the game ended before the moves so far were replayed")
        return other


class _Refused(Inconsistent):
    """A proposed deal's replay stopped once the chain would refuse it (more slips than it takes)."""


class DealChain:
    """Deals a seat cannot tell from the real one, as a Markov chain whose every state is such a deal.

    Rejection alone (`Stepper.sample`) keeps few deals where much has happened in the open (a
    dealer deciding after every column's forced draws: about 3 in 100 re-deals agree). The chain
    starts from one deal found by rejection (or by repair, rulekit.engine.dealsearch, where none
    agrees) and tries BURN more fresh re-deals to learn how often one agrees. Where they often do (at least one in EASY), each deal handed out follows up to
    THIN fresh re-deals (nearly independent deals). Where they rarely do, it follows two local
    proposals instead: the current deal with two unseen cards swapped (one from a pile chosen
    evenly, so a hidden hand as often as the stock; or, one time in FRESH, a fresh re-deal), then
    the unseen cards of every stock shuffled within it (where there is none, or the seat could
    tell, of one pile chosen by its size), so what is drawn next changes at every deal; BURN local proposals come before the first deal. The chain moves
    to a proposal only if the seat could not tell it from the real game; a stay counts as a deal.

    With a `model` (what another seat would choose at a decision, or None where it cannot say),
    a deal in which the others' free choices are not what the model would have chosen counts
    for less: SLIP to the power of the number of such choices. So a column that stood on a total
    the model would have drawn on makes the deals where that happened rarer, not impossible (the
    real players may not play like the model). Without one, every agreeing deal is equally likely.
    Every proposal is symmetric, so moving with probability min(1, weight ratio) spreads the
    chain's deals over the agreeing deals in proportion to their weight (Metropolis); where fresh
    re-deals are the moves, the test's uniform is drawn before the replay, so a proposal stops
    being replayed (and judged) at the slip that gets it refused. Local moves
    make successive deals alike, which costs the search some independence (its test allows for
    it) but far fewer replays. `replays` counts the round replays made so far."""

    BURN = 8  # fresh re-deals tried after the first (and local moves, where few agree) before a deal is handed out
    EASY = 4  # one fresh re-deal in EASY agreeing is often enough to use only fresh re-deals
    THIN = 4  # fresh re-deals tried between two deals handed out, at most
    FRESH = 4  # one local proposal in FRESH is a whole re-deal: the chain cannot stay stuck in one corner
    SLIP = 0.1  # the weight of a deal for each choice of another seat that the model would not make
    MAX_SLIPS = 64  # more slips than the current deal's a proposal may have and still be taken (SLIP ** 64: never)
    REPAIR = 40  # replays a call may spend repairing a deal while no fresh re-deal has agreed ...
    REPAIR_AFTER = 60  # ... once this many fresh re-deals have not (rejection keeps deals evenly drawn)

    def __init__(self, source: Stepper, seat: int, rng: random.Random,
                 model: Callable[[Decision], int | None] | None = None):
        self.source, self.seat, self.rng, self.model = source, seat, rng, model
        snap = source._snap
        # a deal is `perm`: the card dealt to each slot, a slot being a place of an unseen card
        # (pile by pile); `self.unseen[s]` is the card of the round's own shuffle that lies in
        # slot s (a sample's cards traced back), which the re-deal renames perm[s]. Slots, not
        # card names, keep the chain the same whichever agreeing deal it starts from.
        shared: list[bool] = []
        piles = source.unseen_piles(seat, shared) if snap else []
        back = list(range(len(source.game.card_ids)))
        for a, b in enumerate(source.relabel or ()):
            back[b] = a
        self.unseen = [back[c] for pile in piles for c in pile]
        self.cards = sorted(c for pile in piles for c in pile)  # the unseen cards (a fresh deal shuffles these)
        self.slots, start = [], 0  # the slots of each pile
        for pile in piles:
            self.slots.append(list(range(start, start + len(pile))))
            start += len(pile)
        self.piles = [p for p in self.slots if len(p) > 1]  # the piles a shuffle can change
        # ... of which nobody's (a stock, a box): their order so far told nothing, so shuffling
        # them all at every deal costs no agreement and changes what is drawn next
        self.stocks = [p for p, s in zip(self.slots, shared) if s and len(p) > 1]
        self.values = source.values[snap["moves"]:] if snap else []
        self.mine = source._public(seat) if snap else None
        self.perm: list[int] | None = None  # the current deal (None: none found yet)
        self.slips = 0                      # its others' choices that the model would not make
        self.fresh: Stepper | None = None   # the current deal, not yet handed out
        self.agree = 0.0                    # the share of fresh re-deals that agreed (burn-in)
        self.failed = 0                     # fresh re-deals that disagreed before the first deal
        self.replays = 0
        self.stop: Callable[[], None] | None = None  # called before each replay: may raise to stop the chain

    def _try(self, perm: list[int], most: int | None = None) -> tuple[Stepper | None, int]:
        """The deal `perm` replayed (None if the seat could tell) and its count of slips; with
        `most`, the replay stops (None) at the slip past `most`: the deal would be refused."""
        slips = [0]
        judge = None
        if self.model is not None:
            model, seat = self.model, self.seat

            def judge(d: Decision, i: int) -> None:
                if d.player != seat and len(d.actions) > 1:
                    want = model(d)
                    if want is not None and want != i:
                        slips[0] += 1
                        if most is not None and slips[0] > most:
                            raise _Refused("more slips than the chain would take")
        if self.stop is not None:
            self.stop()
        self.replays += 1
        return self.source._redeal(self.seat, self.unseen, perm, self.values, self.mine, judge), slips[0]

    def _propose(self, kind: str, early: bool = False) -> bool:
        """One Metropolis step ('fresh', 'swap' or 'pile'); True if the proposed deal agreed.
        `early`: the chance of taking a deal with more slips is drawn first, so a replay stops at
        the slip that makes it refused (its return then says nothing: False)."""
        perm = list(self.cards)
        if kind == "swap" and self.rng.randrange(self.FRESH) == 0:
            kind = "fresh"
        if self.perm is None or len(perm) < 2 or kind == "fresh":
            self.rng.shuffle(perm)
        elif kind in ("pile", "piles"):
            if not self.piles:
                return False
            perm = list(self.perm)
            # 'piles': every stock shuffled within itself at once, so what is drawn next changes
            # at every deal even where the stock is a small pile among big hands (a box of six
            # beside six hands of six); 'pile': one pile, hand or stock, chosen by its size
            if kind == "piles" and not self.stocks:
                return False
            chosen = self.stocks if kind == "piles" else \
                self.rng.choices(self.piles, weights=[len(p) for p in self.piles])
            for places in chosen:
                cards = [perm[i] for i in places]
                self.rng.shuffle(cards)
                for i, c in zip(places, cards):
                    perm[i] = c
        else:
            # one card from a pile chosen evenly (a hidden hand as often as the stock), the other
            # from anywhere: the chance of a swap is the same from either end, so it is symmetric
            perm = list(self.perm)
            i = self.rng.choice(self.rng.choice(self.slots))
            j = self.rng.randrange(len(perm) - 1)
            j += j >= i
            perm[i], perm[j] = perm[j], perm[i]
        if early and self.perm is not None and self.model is not None:
            # Metropolis as below, its uniform drawn before the replay: the most slips it takes
            u, extra = self.rng.random(), 0
            while extra < self.MAX_SLIPS and u < self.SLIP ** (extra + 1):
                extra += 1
            other, slips = self._try(perm, self.slips + extra)
            if other is not None:
                self.perm, self.fresh, self.slips = perm, other, slips
            return other is not None
        other, slips = self._try(perm)
        if other is None:
            return False
        if self.perm is None or slips <= self.slips or self.rng.random() < self.SLIP ** (slips - self.slips):
            self.perm, self.fresh, self.slips = perm, other, slips
        return True

    def _shuffle(self) -> None:
        """The local shuffle: every stock at once where there are also hands to keep (a box
        beside hidden hands), else (or if the seat could tell) one pile chosen by its size."""
        if not (self.stocks and self.stocks != self.piles and self._propose("piles")):
            self._propose("pile")

    def next(self) -> Stepper:
        """The next deal of the chain, a Stepper of its own; raises Inconsistent while no agreeing
        deal has been found (one fresh re-deal tried per call until one agrees)."""
        self.advance()
        return self.current()

    def advance(self) -> tuple[int, ...] | None:
        """Move the chain on to its next deal (as `next`) without replaying it when it stays: the
        deal, its card slot by slot (None before the first round: `current` is then a clone)."""
        if self.source._snap is None:
            return None
        if self.perm is None:
            self._propose("fresh")
            self.failed += self.perm is None
            if self.perm is None and self.failed >= self.REPAIR_AFTER:
                # hardly any re-deal agrees here: repair one (rulekit.engine.dealsearch)
                found, perm, used = self.source._repaired(self.seat, self.rng, self.REPAIR)
                self.replays += used
                if found is not None:
                    self.perm, self.fresh = perm, found
                    if self.model is not None:  # its weight: the others' choices the model would not make
                        self.fresh, self.slips = self._try(perm)
            if self.perm is None:
                raise Inconsistent("this re-deal does not agree with what was seen")
            self.agree = sum(self._propose("fresh") for _ in range(self.BURN)) / self.BURN
            if self.agree * self.EASY < 1:
                for k in range(self.BURN):  # move away from the first deal, which rejection chose
                    if k % 2 == 0:
                        self._propose("swap")
                    else:
                        self._shuffle()
        elif self.agree * self.EASY >= 1:
            for _ in range(min(self.THIN, math.ceil(1 / self.agree))):
                self._propose("fresh", early=True)
        else:
            self._propose("swap")
            self._shuffle()
        assert self.perm is not None  # (a deal was found above, or Inconsistent raised)
        return tuple(self.perm)

    def current(self) -> Stepper:
        """The chain's current deal as a Stepper of its own (its proposal's replay where that is
        at hand, else the deal replayed afresh)."""
        if self.source._snap is None:
            return self.source.clone()
        assert self.perm is not None  # `advance` found a deal (it raises Inconsistent until then)
        out, self.fresh = self.fresh, None
        if out is None:  # the proposals were refused: the current deal again, replayed afresh
            if self.stop is not None:
                self.stop()
            self.replays += 1
            out = self.source._redeal(self.seat, self.unseen, self.perm, self.values, self.mine)
            assert out is not None  # the deal agreed when it was chosen, and a replay is deterministic
        return out

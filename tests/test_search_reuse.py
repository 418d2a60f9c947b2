"""The search bot plays a deal out once: a deal its chain stays at ends the same, unless chance plays a part."""
from __future__ import annotations

import random

from rulekit import Env
from rulekit.engine.agents import PolicyAgent
from rulekit.engine.search import SearchAgent


def _at_play(seed: int = 4) -> Env:
    """Hiraya played by `careful` bots up to a card to play from a hand of three or four (every
    action compared on the same deals, about thirty of them)."""
    env = Env("hiraya", seed=seed, rounds=1)
    careful = [env.bot("careful", s) for s in range(env.players)]
    while not (env._st.pending.choice.id == "play" and len(env.legal_actions()) in (3, 4)):
        env.step(careful[env.current_player].act(env))
    return env


class Recording(SearchAgent):
    """A search bot that keeps the rows of every comparison it makes."""

    def playouts_by_deal(self, source, seat, k, budget=None, actions=None, chain=None, most=None, settle=None):
        rows = super().playouts_by_deal(source, seat, k, budget, actions, chain, most, settle)
        self.rows.append((actions, rows))
        return rows


class PlaysEveryDeal(Recording):
    """The same bot, told that chance played a part in every playout: it reuses nothing."""

    def _playout(self, *args, **kw):
        chips, _fixed = super()._playout(*args, **kw)
        return chips, False


def _decide(cls, env: Env, **kw) -> tuple[int, SearchAgent]:
    bot = cls(env.game, 7, **kw)
    bot.rows = []
    return bot.act_from(env._st), bot


def test_a_deal_met_again_gives_what_playing_it_again_gives():
    env = _at_play()
    choice, bot = _decide(Recording, env)
    again, plain = _decide(PlaysEveryDeal, env)
    assert bot.reused > 0 and plain.reused == 0   # the chain stayed at some deal, and only one bot reused it
    assert bot.rows == plain.rows and choice == again
    assert bot.units < plain.units                # the work of the deals met again was not done again


def test_playouts_that_draw_on_chance_are_played_again():
    env = _at_play()
    _choice, random_playouts = _decide(Recording, env, playout="random")
    assert random_playouts.reused == 0  # the same deals as above, but the playouts' agents draw at random


def test_a_playout_that_draws_from_the_rules_generator_is_played_again(monkeypatch):
    env = _at_play()
    act = PolicyAgent.act

    def drawing(self, d):
        d.ctx.rng.random()  # as a rule that shuffles or cuts during the round would
        return act(self, d)
    monkeypatch.setattr(PolicyAgent, "act", drawing)
    _choice, bot = _decide(Recording, env)
    assert bot.reused == 0


class _Wrong:
    """A model of the others that never makes the choice they made (every free choice is a slip), counting its calls."""

    def __init__(self):
        self.calls = 0

    def __call__(self, d):
        self.calls += 1
        return len(d.actions)  # no action's index: never the choice taken


def _chain_at_a_deal(model):
    from rulekit.engine.stepper import DealChain
    env = _at_play()
    chain = DealChain(env._st, env.current_player, random.Random(3), model)
    chain.next()
    return chain


def test_a_proposal_the_chain_would_refuse_stops_at_the_slip_that_refuses_it():
    model = _Wrong()
    chain = _chain_at_a_deal(model)
    judged = chain.slips  # every free choice of another seat in this round so far, each a slip
    assert judged >= 3
    for u, takes in ((0.5, 0), (0.05, 1), (0.005, 2)):  # SLIP ** extra > u: up to `extra` slips more
        chain.slips, perm = judged - 3, chain.perm  # as if the deal held had three slips fewer
        chain.rng.random = lambda u=u: u
        model.calls = 0
        chain._propose("fresh", early=True)
        assert model.calls == judged - 3 + takes + 1  # the replay stopped at the first slip too many
        assert chain.perm is perm and chain.slips == judged - 3  # the chain stayed at its deal
    chain.rng.random = lambda: 0.0005  # up to three more: this deal's own count is taken
    model.calls = 0
    chain._propose("fresh", early=True)
    assert model.calls == judged and chain.slips == judged and chain.perm is not perm

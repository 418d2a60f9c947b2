"""The search bot's time cap (honoured on a fake clock, set from the command line with checked options)
and its early stop when the deals settle a comparison."""
from __future__ import annotations

import pytest

from rulekit import Env, build_game
from rulekit.core.errors import RulekitError
from rulekit.engine.runner import make_agents, seat_policies
from rulekit.engine.search import MIN_DEALS, SearchAgent, search_options


class FakeClock:
    """Seconds that pass by `step` each time the clock is read (no wall time involved)."""

    def __init__(self, step: float):
        self.now, self.step, self.reads = 0.0, step, 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def _at_real_choice(gid: str, seed: int) -> Env:
    """A game of `gid` played by `careful` bots up to the first decision with more than one action."""
    env = Env(gid, seed=seed, rounds=1)
    careful = [env.bot("careful", s) for s in range(env.players)]
    while not env.done and len(env.legal_actions()) < 2:
        env.step(careful[env.current_player].act(env))
    return env


@pytest.mark.parametrize("gid", ["hiraya", "otoroku"])
def test_a_decision_stops_at_its_time_cap_and_plays_the_careful_choice(gid):
    env = _at_real_choice(gid, 4)
    k = len(env.legal_actions())
    bot = SearchAgent(env.game, 5, seconds=0.05)
    bot.clock = clock = FakeClock(0.01)  # 10 ms a reading: the cap is passed at the fifth reading after the start
    base = bot.fallback.act(env._st.pending)
    choice = bot.act_from(env._st)
    assert clock.reads <= 1 + 5  # the start, then readings until the cap: none after it
    assert bot.capped == 1 and bot.playouts < MIN_DEALS * 2
    assert 0 <= choice < k and choice == base  # too few deals to judge by: the base (careful) choice


def test_a_clock_that_does_not_pass_leaves_the_work_caps_in_charge():
    env = _at_real_choice("otoroku", 4)
    slow = SearchAgent(env.game, 5, seconds=0.05)
    slow.clock = FakeClock(0.0)  # time stands still: only the playouts and budget units stop it
    free = SearchAgent(env.game, 5)
    assert slow.act_from(env._st) == free.act_from(env._st)
    assert slow.playouts == free.playouts > MIN_DEALS and slow.capped == free.capped


def test_the_cap_counts_from_each_decision_not_from_the_game():
    env = _at_real_choice("otoroku", 4)
    bot = SearchAgent(env.game, 5, seconds=1.0)
    bot.clock = FakeClock(0.0)
    bot.clock.now = 1e6  # a decision long after the bot was made still gets its whole second
    bot.act_from(env._st)
    assert bot.capped == 0 and bot.playouts > 0


def test_policy_options_on_the_command_line_reach_the_bot():
    game = build_game("otoroku")
    assert seat_policies(game, 5, "search:seconds=0.5") == ["search:seconds=0.5"] * 5
    names = seat_policies(game, 5, "careful,2=search:budget=20:seconds=1.5")
    assert names == ["careful", "careful", "search:budget=20:seconds=1.5", "careful", "careful"]
    bot = make_agents(game, 5, 3, "careful,2=search:budget=20:seconds=1.5")[2]
    assert isinstance(bot, SearchAgent) and (bot.budget, bot.seconds) == (20, 1.5)
    assert make_agents(game, 5, 3, "search")[0].seconds is None  # no cap unless asked for
    assert search_options("seconds=2") == {"seconds": 2.0}


@pytest.mark.parametrize("spec, words", [
    ("search:seconds=abc", ["--policy 'search:seconds=abc'", "seconds: expected a number of seconds above 0",
                            "found 'abc'"]),
    ("search:seconds=0", ["seconds: expected", "found '0'"]),
    ("search:seconds=-1", ["found '-1'"]),
    ("search:seconds=nan", ["found 'nan'"]),
    ("search:seconds=1e9", ["at most 3600", "found '1e9'"]),
    ("search:budget=1.5", ["budget: expected a whole number of playouts", "found '1.5'"]),
    ("search:budget=0", ["found '0'"]),
    ("search:speed=3", ["with KEY one of seconds, budget", "found 'speed=3'"]),
    ("search:", ["found ''"]),
    ("search:seconds=1:seconds=2", ["seconds is given twice"]),
    ("careful:seconds=1", ["policy 'careful' takes no options", "found 'careful:seconds=1'"]),
    ("1=search:seconds=x", ["found 'x'"]),
])
def test_bad_policy_options_say_the_argument_what_was_expected_and_what_was_found(spec, words):
    with pytest.raises(RulekitError) as err:
        seat_policies(build_game("otoroku"), 5, spec)
    text = str(err.value)
    assert "E050" in text and "--policy" in text
    for w in words:
        assert w in text


def test_the_command_line_refuses_a_bad_time_cap_before_playing(capsys):
    from rulekit.cli.main import main
    code = main(["play", "otoroku", "--seed", "1", "--rounds", "1", "--policy", "search:seconds=soon"])
    err = capsys.readouterr().err
    assert code != 0 and "search:seconds=soon" in err and "found 'soon'" in err and "Traceback" not in err


def test_deals_that_settle_a_comparison_stop_it_and_only_those():
    from rulekit.engine.search import WIN, choose, settled
    same = [[3, 3, 3]] * MIN_DEALS  # every action ends the same in every deal
    assert settled(same, 1) and not settled(same[:-1], 1)  # never before MIN_DEALS deals
    worse = [[0, -5 - i % 3, -4 - i % 2] for i in range(MIN_DEALS)]  # the others always lose chips
    assert settled(worse, 0) and choose(worse, 0) == 0
    far = [[0, 10 + i % 3] for i in range(MIN_DEALS)]  # one action far ahead in every batch
    assert settled(far, 0) and choose(far, 0) == 1
    # a lead `choose` would take, but not by WIN times its margin: more deals may undo it
    near = [[0, 3 if i // 5 % 2 else 1] for i in range(MIN_DEALS)]  # batches of 5 deals: ahead 1, 3, 1, 3
    assert choose(near, 0) == 1 and not settled(near, 0)
    noisy = [[0, 9 if i % 7 == 0 else -1] for i in range(MIN_DEALS)]  # one action might yet be better
    assert not settled(noisy, 0)
    assert WIN > 1


def test_an_env_bot_takes_the_same_options():
    env = _at_real_choice("otoroku", 4)
    bot = env.bot("search:budget=30:seconds=2", 1)
    assert (bot._agent.budget, bot._agent.seconds) == (30, 2.0)
    assert 0 <= bot.act(env) < len(env.legal_actions())
    with pytest.raises(ValueError, match="seconds: expected .* found 'x'"):
        env.bot("search:seconds=x")
    with pytest.raises(ValueError, match="takes no options"):
        env.bot("careful:seconds=1")

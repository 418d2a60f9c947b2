"""Issue 41: hostile input, round four (the search bot's cost, statistics' expected rates, house
files making a game of no rounds, `--from-simulation -5:0`, forged saves, logs that replay
cannot read, validate's budgets, the Python API's arguments, the site's search index).

The corpus cases (benchmarks/hostile_round4.py) run `python -m rulekit` in a child process as a
user would; the unit cases below check the pieces directly. Work is bounded by the engine's
counters (budget units, steps, moves): the 60 s in the corpus runs is only a safety net against a
hang, never a speed assertion (benchmarks/hostile_corpus.py prints the times).
"""
from __future__ import annotations

import importlib.util
import json
import math
import sys

import pytest

from rulekit import build_game
from rulekit.engine.runner import make_agents, play
from rulekit.engine.search import UNITS, SearchAgent
from rulekit.lang.expr.scope import EVAL_BUDGET

from .helpers import MEMORY_LIMIT, ROOT, assert_ends_cleanly, count, measure, picked_cases, write

corpus = sys.modules["hostile_corpus"]  # loaded once by helpers (benchmarks/hostile_corpus.py)
round4 = corpus._round("hostile_round4")

CLASSES = ("SEARCH", "STATS2", "HOUSE", "FROMSIM", "SAVE2", "LOGS", "VALIDATE")
# every case of the small classes; of SAVE2 and HOUSE the ones that show each path once (the script runs all)
PICK = {
    "SAVE2": {"dealer_63", "dealer_63_replay", "card_twice", "card_twice_replay", "seating_twice", "human_5_replay",
              "zone_unknown_replay", "rounds_over_asked", "players_9_replay"},
    "HOUSE": {"rounds_zero", "rounds_zero_validate", "rounds_minus", "rounds_zero_sim", "open_ended_ok"},
}


@pytest.mark.parametrize("case", picked_cases(corpus, CLASSES, PICK))
def test_round4_case_ends_cleanly(case):
    assert_ends_cleanly(corpus, case)


# -- SEARCH: a decision's cost is capped in the rules' own cost model ------------------------------

def _costly(tmp_path):
    from rulekit.engine.build import load_variant
    return build_game(load_variant(str(write(tmp_path, "costly.yaml", round4.costly_variant(corpus)))))


class _Metered:
    """A SearchAgent whose decisions' budget units are kept one by one."""

    def __init__(self, agent: SearchAgent):
        self.agent, self.name, self.per_decision = agent, agent.name, []
        self.watch, self.round_start = agent.watch, agent.round_start

    def act(self, d):
        u = self.agent.units
        i = self.agent.act(d)
        if len(d.actions) > 1:
            self.per_decision.append(self.agent.units - u)
        return i


def _search_round(game, seed: int, bot: SearchAgent):
    agents = make_agents(game, 3, seed, "random")
    agents[0] = metered = _Metered(bot)
    res = play(game, 3, seed, agents, rounds=1, logging=True)
    return res, metered


def test_search_on_costly_rules_stops_at_its_cap(tmp_path):
    count("inputs")
    game = _costly(tmp_path)
    m = measure(lambda: _search_round(game, 1, SearchAgent(game, 7)))
    assert m.error is None, m.error
    res, metered = m.value
    bot = metered.agent
    assert metered.per_decision and bot.capped == len(metered.per_decision)  # every decision hit the cap
    # at most the cap, plus the one replay or playout under way when it was reached (a round's budget and steps)
    most = UNITS * bot.budget + EVAL_BUDGET + res.state.step_limit
    assert max(metered.per_decision) <= most, (metered.per_decision, most)
    assert m.peak < MEMORY_LIMIT


def test_search_on_costly_rules_is_still_fixed_by_its_seed(tmp_path):
    game = _costly(tmp_path)
    a, ma = _search_round(game, 3, SearchAgent(game, 5))
    b, mb = _search_round(game, 3, SearchAgent(game, 5))
    assert a.log["moves"] == b.log["moves"] and a.events == b.events
    assert ma.per_decision == mb.per_decision and ma.agent.playouts == mb.agent.playouts


def test_search_in_a_shipped_game_stays_under_its_cap():
    game = build_game("kyo-kabu")
    agents = make_agents(game, 5, 2, "careful")
    agents[0] = metered = _Metered(SearchAgent(game, 9))
    play(game, 5, 2, agents, rounds=2, logging=False)
    assert metered.per_decision and metered.agent.capped == 0  # the cap leaves real games alone
    assert max(metered.per_decision) < UNITS * metered.agent.budget


@pytest.mark.parametrize("seconds", [0, -1, math.nan, math.inf, True, "1", [1]])
def test_search_seconds_must_be_a_positive_number(seconds):
    with pytest.raises(ValueError, match="seconds"):
        SearchAgent(build_game("otoroku"), 0, seconds=seconds)


def test_search_with_no_time_left_plays_its_base_policy():
    # a cap in time already passed when the decision starts: no playout, the base policy's choice
    game = build_game("kyo-kabu")
    bot = SearchAgent(game, 4, seconds=1e-9)
    agents = make_agents(game, 5, 6, "careful")
    agents[0] = metered = _Metered(bot)
    play(game, 5, 6, agents, rounds=1, logging=False)
    assert metered.per_decision and bot.playouts == 0 and bot.capped == len(metered.per_decision)


def test_ctx_units_count_rounds_and_redeals():
    from rulekit.engine.stepper import Stepper
    st = Stepper(build_game("otoroku"), 4, 3)
    u = st.ctx.units(EVAL_BUDGET)
    assert u > 0
    clone = st.clone()
    assert st.spent == clone.ctx.units(EVAL_BUDGET) > 0  # the replay is charged to the stepper copied


# -- LOGS: what play --log writes, replay reads ----------------------------------------------------

@pytest.mark.parametrize("gid", ["dare", "kyo-kabu", "oicho-kabu", "kakkuri", "hana-awase", "hiraya", "kingo",
                                 "kingo-banking", "otoroku"])
def test_a_long_logged_game_of_every_variant_replays(gid, tmp_path):
    from rulekit.engine.runner import default_policy
    from rulekit.people.replay import read_log, replay, write_log_file
    count("rounds", 200)
    game = build_game(gid)
    n = game.variant.meta.players_default
    res = play(game, n, 11, make_agents(game, n, 11, default_policy(game)), rounds=200, logging=True)
    path = str(tmp_path / "log.json")
    write_log_file(game, res, path)
    log = read_log(path)
    again = replay(game, log, path)
    assert again.chips == res.chips and len(log["moves"]) == len(res.log["moves"]) > 0


def test_the_writer_measures_nesting_as_the_reader_does():
    from rulekit.engine.runner import _Observed
    from rulekit.people.replay import MAX_LOG_DEPTH, depth_of
    deep: list = [1]
    for _ in range(MAX_LOG_DEPTH):
        deep = [deep]
    events = _Observed(lambda e: None)
    events.append({"t": "choose", "action": {"a": deep}})
    as_read = json.loads(json.dumps({"events": events}))
    assert depth_of({"events": events}, 200) == depth_of(as_read, 200) == MAX_LOG_DEPTH + 5
    assert depth_of((1, (2, (3,))), 10) == 3


def test_a_list_that_looks_flat_is_measured_whole():
    from rulekit.engine.cost import MAX_NEST, flat, oversize
    deep: list = [1]
    for _ in range(MAX_NEST + 5):
        deep = [1, deep, 1]
    assert not flat(deep) and flat([1, 2, 3]) and flat([])
    assert "nested" in oversize(deep)
    assert oversize([1, "x" * 200_000, 1]) is not None


# -- SAVE2: fields against the rules (unit) --------------------------------------------------------

@pytest.mark.parametrize("field,value,words", [
    ("dealer", 5, "dealer: seat 5"), ("human", 63, "human: seat 63"), ("seating", [1, 1, 2, 3, 4], "seating"),
    ("stack", {"deck": ["1-1", "2-1", "1-1"]}, "listed twice"), ("stack", {"hand": ["1-1"]}, "no zone 'hand'"),
    ("players", 1, "players: 1"), ("rounds", 3, "rounds: 3 played")])
def test_check_fields_refuses_a_field_the_rules_do_not_allow(field, value, words):
    from rulekit.core.errors import RulekitError
    from rulekit.people.replay import check_fields
    game = build_game("oicho-kabu")
    log = {"players": 5, "rounds": 2, "rounds_requested": 2, "dealer": None, "seating": [0, 1, 2, 3, 4], field: value}
    with pytest.raises(RulekitError) as exc:
        check_fields("save.json", log, game)
    assert words in exc.value.first.message and exc.value.first.code == "E010"
    log[field] = None if field in ("dealer", "human", "stack") else {"seating": [4, 3, 2, 1, 0], "players": 5,
                                                                     "rounds": 2}[field]
    check_fields("save.json", log, game)  # the same log with the field as the rules allow


# -- FROMSIM: a value with a minus sign ------------------------------------------------------------

def test_from_simulation_takes_a_negative_seed_as_its_value():
    from rulekit.cli.args import join_dash_values
    assert join_dash_values(["play", "g", "--from-simulation", "-5:0"]) == ["play", "g", "--from-simulation=-5:0"]
    assert join_dash_values(["play", "g", "--seed", "-5"]) == ["play", "g", "--seed", "-5"]
    assert join_dash_values(["play", "g", "--from-simulation", "--log", "x"]) == \
        ["play", "g", "--from-simulation", "--log", "x"]
    assert join_dash_values(["--", "--from-simulation", "-5:0"]) == ["--", "--from-simulation", "-5:0"]


# -- API: refused at the call ----------------------------------------------------------------------

def test_sample_unseen_after_the_game_is_over_is_refused():
    from rulekit import Env
    env = Env("otoroku", seed=1, rounds=1)
    while not env.done:
        env.step(0)
    with pytest.raises(RuntimeError, match="game is over"):
        env.sample_unseen(0)


@pytest.mark.parametrize("seed", ["7", 1.5, True, [1], b"7"])
def test_a_bot_seed_must_be_a_whole_number(seed):
    from rulekit import Env
    env = Env("otoroku", seed=1)
    with pytest.raises(TypeError, match="bot seed"):
        env.bot("careful", seed)
    assert env.bot("careful", 7).act(env) in range(len(env.legal_actions()))


@pytest.mark.parametrize("client", ["tcp://127.0.0.1:8786", 3, object()])
def test_simulate_refuses_a_client_that_is_not_a_dask_client(client):
    import rulekit
    with pytest.raises(TypeError, match="client: expected a dask.distributed Client"):
        rulekit.simulate("otoroku", rounds=5, client=client)


# -- SITE: the search index keeps a variant's text as text -----------------------------------------

def _hooks():
    spec = importlib.util.spec_from_file_location("rk_docs_hooks", ROOT / "docs" / "hooks.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_search_entries_of_yaku_keep_markup_as_text():
    from .test_hostile_site import MARK, Scan
    hooks = _hooks()
    hooks.on_config({})
    row = ('<tr><td><span id="yaku-evil"><strong>Evil</strong></span></td><td>beats all. &lt;a href=&quot;javascript:alert('
           f'&#x27;{MARK}&#x27;)&quot;&gt;x&lt;/a&gt; &amp; &lt;img src=x onerror=alert(1)&gt;</td></tr>')

    class Page:
        url = "games/evil/"
    hooks.on_page_content(row, Page(), {}, None)
    index = {"docs": []}
    assert hooks.boost_yaku(index, hooks._found) == 1
    entry = index["docs"][0]
    scan = Scan()
    scan.feed(entry["title"] + " " + entry["text"])
    assert scan.bad == [] and "<a" not in entry["text"] and "<img" not in entry["text"]
    assert "javascript:alert" in entry["text"] and "&amp;" in entry["text"]  # still there, as text

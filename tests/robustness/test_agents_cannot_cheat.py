"""Agents cannot cheat: an illegal answer (an index out of range, a dict not among the legal
actions, text, a float, ...) is a clear IllegalAction (E060) and leaves the game state as it
was; what a FunctionAgent sees is fresh plain JSON data with no hidden card and no engine
object, so changing it changes nothing."""
from __future__ import annotations

import copy
import io
import json
import os

import pytest

from rulekit.engine.agents import FunctionAgent, HumanAgent, RandomAgent
from rulekit.engine.build import build_game, load_variant
from rulekit.engine.runner import make_agents, play
from rulekit.core.errors import IllegalAction
from tests.test_invariants import legit_visible

from .helpers import FIXTURES, VARIANTS, count

MINI = str(FIXTURES / "valid" / "mini-kabu.yaml")


def _game(path=MINI):
    return build_game(load_variant(path))


def _state(ctx) -> dict:
    return copy.deepcopy({"zones": ctx.zones, "vars": ctx.vars, "chips": ctx.chips, "seen": ctx.seen,
                          "loc": ctx.loc, "records": ctx.records, "dealer": ctx.dealer, "steps": ctx.steps,
                          "events": len(ctx.events), "round": ctx.round_no})


class _Evil(int):
    """An int that claims to be in range whatever it is."""

    def __lt__(self, other):
        return True

    def __le__(self, other):
        return True

    def __ge__(self, other):
        return True


class _Index:
    def __init__(self, i):
        self.i = i

    def __index__(self):
        return self.i


class _BadRepr:
    def __repr__(self):
        raise RuntimeError("no repr")


ILLEGAL = {
    "index_too_big": lambda legal: len(legal),
    "index_negative": lambda legal: -1,
    "index_huge": lambda legal: 10 ** 100,
    "index_as_text": lambda legal: "0",
    "index_as_float": lambda legal: 0.0,
    "index_as_bool": lambda legal: True,
    "none": lambda legal: None,
    "a_list": lambda legal: [0],
    "bytes": lambda legal: b"0",
    "dict_not_legal": lambda legal: {"take": "maybe"},
    "dict_with_extra_key": lambda legal: {**legal[0], "chips": 1000},
    "dict_empty": lambda legal: {},
    "dict_unknown_param": lambda legal: {"nope": 1},
    "lying_int": lambda legal: _Evil(99),
    "index_object_out_of_range": lambda legal: _Index(99),
    "bad_repr": lambda legal: _BadRepr(),
    "huge_text": lambda legal: "x" * 10_000_000,
    "the_legal_list_itself": lambda legal: legal,
}


@pytest.mark.parametrize("name", list(ILLEGAL))
def test_illegal_answer_is_e060_and_changes_nothing(name):
    game = _game()
    answer = ILLEGAL[name]
    for seed in range(1, 40):
        seen = {}

        def checks(ctx, choice, player, actions):
            seen["ctx"], seen["before"], seen["choice"] = ctx, _state(ctx), choice

        agents = [FunctionAgent(lambda obs, legal: answer(legal)) for _ in range(3)]
        count("inputs")
        try:
            play(game, 3, seed, agents, rounds=1, checks=checks)
        except IllegalAction as exc:
            d = exc.first
            assert d.code == "E060"
            assert d.span.file.endswith("mini-kabu.yaml") and d.span.line >= 1 and d.span.col >= 1
            assert "illegal action" in d.message and seen["choice"].id in d.message
            assert len(str(exc)) < 2000
            assert _state(seen["ctx"]) == seen["before"], "an illegal answer changed the game"
            count("invariants")
            return
        assert "ctx" not in seen, "a decision was reached but no IllegalAction raised"
    pytest.fail("no decision point reached in 40 seeds")


@pytest.mark.parametrize("how", ["index", "dict", "index_object"])
def test_legal_answers_are_accepted(how):
    game = _game()

    def fn(obs, legal):
        if how == "index":
            return len(legal) - 1
        if how == "dict":
            return dict(legal[-1])
        return _Index(len(legal) - 1)

    last = [lambda obs, legal: len(legal) - 1]
    for seed in range(1, 6):
        count("inputs")
        a = play(game, 3, seed, [FunctionAgent(fn) for _ in range(3)], rounds=1)
        b = play(game, 3, seed, [FunctionAgent(last[0]) for _ in range(3)], rounds=1)
        assert a.events == b.events


def _vandal(obs, legal):
    """Changes everything it is given, then answers legally."""
    for z in obs["zones"].values():
        if z and isinstance(z[0], list):
            for pile in z:
                pile.append("1-1")
                pile.reverse()
        else:
            z.clear()
    for k, v in obs["vars"].items():
        if isinstance(v, list):
            for i in range(len(v)):
                v[i] = 10 ** 6 if not isinstance(v[i], list) else v[i].append(99) or v[i]
        else:
            obs["vars"][k] = "stolen"
    obs["chips"][:] = [10 ** 9] * len(obs["chips"])
    answer = len(legal) - 1
    for a in legal:
        a.clear()
    legal.append({"take": "everything"})
    return answer


@pytest.mark.parametrize("path", sorted(str(p) for p in VARIANTS.rglob("*.yaml")) + [MINI],
                         ids=lambda p: os.path.basename(p))
def test_changing_the_observation_changes_nothing(path):
    variant = load_variant(path)
    if variant.meta.abstract:
        pytest.skip("abstract")
    game = build_game(variant)
    n = variant.meta.players_default
    for seed in (3, 4):
        count("inputs")
        clean = _outcome(game, n, seed, lambda obs, legal: len(legal) - 1)
        vandal = _outcome(game, n, seed, _vandal)
        # (an agent that always takes the last action may make a game that never ends, e.g. every
        # player drawing until bust and a redeal each time: then both must fail the same way)
        assert vandal == clean
        count("invariants")


def _outcome(game, n, seed, fn):
    """Events and chips of a one-round game, or the rendered error that stopped it."""
    from rulekit.core.errors import RulekitError, render_all
    try:
        res = play(game, n, seed, [FunctionAgent(fn) for _ in range(n)], rounds=1)
    except RulekitError as exc:
        return render_all(exc.diagnostics)
    return res.events, res.chips


def _plain(v, path="obs"):
    """Only JSON types (dict with str keys, list, str, int, float, bool, None)."""
    if isinstance(v, dict):
        for k, x in v.items():
            assert isinstance(k, str), f"{path}: key {k!r}"
            _plain(x, f"{path}.{k}")
    elif isinstance(v, list):
        for i, x in enumerate(v):
            _plain(x, f"{path}[{i}]")
    else:
        assert v is None or type(v) in (str, int, float, bool), f"{path}: {type(v).__name__} {v!r}"[:200]


@pytest.mark.parametrize("path", sorted(str(p) for p in VARIANTS.rglob("*.yaml")) + [MINI],
                         ids=lambda p: os.path.basename(p))
def test_function_agent_sees_no_hidden_card_and_no_engine_object(path):
    variant = load_variant(path)
    if variant.meta.abstract:
        pytest.skip("abstract")
    game = build_game(variant)
    ids = set(game.card_ids)
    index = game.card_index
    for n in sorted({game.player_sizes()[0], game.player_sizes()[-1]}):
        for seed in (1, 2, 3):
            state = {}
            rng = RandomAgent(seed)

            def checks(ctx, choice, player, actions):
                state["ctx"], state["player"] = ctx, player

            def fn(obs, legal):
                ctx, seat = state["ctx"], state["player"]
                assert obs["seat"] == seat
                json.dumps(obs)
                json.dumps(legal)
                _plain(obs)
                _plain(legal, "legal")
                allowed = legit_visible(game, ctx, seat)
                shown = []
                for zname, z in obs["zones"].items():
                    for pile in (z if z and isinstance(z[0], list) else [z]):
                        shown += [c for c in pile if c != "?"]
                for cid in shown:
                    assert cid in ids, cid
                    assert index[cid] in allowed, f"seat {seat} sees hidden {cid}"
                count("invariants", 3)
                return rng.rng.randrange(len(legal))

            count("inputs")
            play(game, n, seed, [FunctionAgent(fn) for _ in range(n)], rounds=1, checks=checks)
            count("rounds")


def test_human_agent_rejects_odd_input():
    game = _game()
    typed = io.StringIO("²\n" + "9" * 5000 + "\n-1\n1.0\n0x1\n ٣ \n99\n0\n" * 50)
    out = io.StringIO()
    agents = [HumanAgent(typed, out) for _ in range(3)]
    count("inputs")
    res = play(game, 3, 5, agents, rounds=1)
    assert res.chips is not None
    assert "please type a number" in out.getvalue()


def test_human_agent_without_input_is_e060():
    game = _game()
    for seed in range(1, 40):
        count("inputs")
        try:
            play(game, 3, seed, [HumanAgent(io.StringIO(""), io.StringIO()) for _ in range(3)], rounds=1)
        except IllegalAction as exc:
            assert exc.first.code == "E060"
            return
    pytest.fail("no decision point reached")


def test_random_agents_play_every_variant():
    """A sanity check for the harness: every shipped variant plays with the agents used here."""
    for path in sorted(VARIANTS.rglob("*.yaml")):
        v = load_variant(str(path))
        if v.meta.abstract:
            continue
        g = build_game(v)
        n = v.meta.players_default
        count("inputs")
        play(g, n, 1, make_agents(g, n, 1), rounds=1)
        count("rounds")


RICH = """\
round:
  - id: r
    steps:
      - shuffle: deck
      - deal: {to: hand, count: 2}
      - set: {"melds[0]": "[1, 2]"}
      - choose: go
        player: 0
        options: {ok: "[true, false]"}
      - if: "count(melds[0]) != 2 or half != 1 / 2"
        then:
          - pay: {from: 1, to: 0, amount: 50}
"""
RICH_VARS = ('  melds: {per: player, init: "[]"}\n  half: {init: "1 / 2"}\n'
             '  pairs: {init: "count_by(seats, p -> [p, p])"}\n')


def test_rich_variables_are_copied_as_plain_data(tmp_path, monkeypatch):
    """Lists inside variables, fractions and maps keyed by lists: the agent gets plain copies."""
    from .helpers import variant_text, write
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "rich.yaml", variant_text(RICH, RICH_VARS))
    game = build_game(load_variant("rich.yaml"))
    views = []

    def look(obs, legal):
        views.append(json.loads(json.dumps(obs)))
        _plain(obs)
        return len(legal) - 1  # what _vandal answers

    count("inputs", 2)
    clean = play(game, 3, 1, [FunctionAgent(look) for _ in range(3)], rounds=1)
    vandal = play(game, 3, 1, [FunctionAgent(_vandal) for _ in range(3)], rounds=1)
    assert views and views[0]["vars"]["half"] == "1/2"
    assert views[0]["vars"]["melds"][0] == [1, 2]
    assert clean.chips == vandal.chips == [100, 100, 100]
    assert clean.events == vandal.events

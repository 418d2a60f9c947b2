"""Hostile rules: variant files (written into tmp dirs) whose phases never end, recurse, deal
more than the deck, offer no legal action, pay seats that do not exist, ... The engine must stop
with a clear RulekitError naming the rule (the step's line), within fixed limits; every run is
under an alarm (or in a child process for memory bombs) so a hang fails the test."""
from __future__ import annotations

import textwrap

import pytest

from rulekit.engine.build import build_game, check_variant, load_variant
from rulekit.engine.runner import make_agents, play
from rulekit.core.errors import RulekitError

from .helpers import (HEAVY_TIME_LIMIT, Hang, alarm, assert_located, count, measure, run_isolated, variant_text,
                      write)


def _line(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# name -> (vars_extra, body, game block or None, expected code, line marker (a unique substring of
# the step's first line), word expected in the message, heavy)
CASES = {
    "repeat_until_never": ("", """
        round:
          - id: r
            steps:
              - repeat:            # HERE
                  - add: {x: 1}
                until: "x < 0"
        """, None, "E061", "# HERE", "repeat", False),
    "repeat_while_true_with_max": ("", """
        round:
          - id: r
            steps:
              - repeat: [{add: {x: 1}}]   # HERE
                while: "true"
                max: 5
        """, None, "E061", "# HERE", "limit 5", False),
    "repeat_with_a_huge_max": ("", """
        round:
          - id: r
            steps:
              - repeat: [{add: {x: 1}}]   # HERE
                while: "true"
                max: 1000000000
        """, None, "E061", "# HERE", "repeat", True),
    "repeat_empty_body_forever": ("", """
        round:
          - id: r
            steps:
              - repeat: []   # HERE
                while: "true"
        """, None, "E061", "# HERE", "repeat", False),
    "nested_for_10000_squared": ("", """
        round:
          - id: r
            steps:
              - for: i
                in: "range(10000)"
                do:
                  - for: j       # HERE
                    in: "range(10000)"
                    do:
                      - add: {x: 1}
        """, None, "E061", "# HERE", "steps", True),
    "recursive_procedure": ("", """
        procedures:
          loop:
            params: {n: int}
            steps:
              - call: loop   # HERE
                with: {n: "n + 1"}
        round:
          - id: r
            steps:
              - call: loop
                with: {n: 0}
        """, None, "E061", "# HERE", "loop", False),
    "mutually_recursive_procedures": ("", """
        procedures:
          a: {steps: [{call: b}]}
          b: {steps: [{call: a}]}   # HERE
        round:
          - id: r
            steps:
              - call: a
        """, None, "E061", "# HERE", "deep", False),
    "recursive_procedure_in_a_loop": ("", """
        procedures:
          spin:
            params: {n: int}
            steps:
              - for: i
                in: "range(100)"
                do:
                  - if: "n < 3"
                    then:
                      - call: spin
                        with: {n: "n + 1"}
                  - add: {x: 1}
        round:
          - id: r
            steps:
              - call: spin
                with: {n: 0}
        """, None, "E061", "- for: i", "steps", True),
    "recursive_yaku": ("", """
        yaku:
          t:
            - id: a
              when: "count(yaku('t', cards, seat)) > 0"   # HERE
        round:
          - id: r
            steps:
              - shuffle: deck
              - deal: {to: hand, count: 2}
              - claim: {table: t, cards: "hand[0]", player: 0}
        """, None, ("E034", "E061"), None, "", False),
    "deal_more_than_the_deck": ("", """
        round:
          - id: r
            steps:
              - shuffle: deck
              - deal: {to: hand, count: 100}    # HERE
        """, None, "E041", "# HERE", "100", False),
    "deal_a_count_beyond_any_number": ("", """
        round:
          - id: r
            steps:
              - deal: {to: hand, count: "10 ** 30"}    # HERE
        """, None, "E041", "# HERE", "cards", False),
    "move_more_than_the_zone": ("", """
        round:
          - id: r
            steps:
              - move: {from: deck, to: table, count: 41}   # HERE
        """, None, "E041", "# HERE", "41", False),
    "move_one_card_from_an_empty_zone": ("", """
        round:
          - id: r
            steps:
              - move: {from: table, to: deck, count: 1}   # HERE
        """, None, "E041", "# HERE", "has 0 cards", False),
    "move_cards_that_are_not_there": ("", """
        round:
          - id: r
            steps:
              - move: {from: table, to: deck, cards: "card('1-1')"}   # HERE
        """, None, "E061", "# HERE", "not in zone", False),
    "move_where_too_few_match": ("", """
        round:
          - id: r
            steps:
              - move: {from: deck, to: table, where: "c.value == 99", count: 1}   # HERE
        """, None, "E061", "# HERE", "matching", False),
    "choice_without_legal_action": ("", """
        round:
          - id: r
            steps:
              - choose: pick    # HERE
                player: 0
                options: {a: "range(5)"}
                where: "a > 10"
        """, None, "E061", "# HERE", "no legal action", False),
    "choice_over_an_empty_list": ("", """
        round:
          - id: r
            steps:
              - choose: pick    # HERE
                player: dealer
                options: {a: "filter(seats, p -> p > 99)"}
        """, None, "E061", "# HERE", "no legal action", False),
    "pay_a_seat_that_does_not_exist": ("", """
        round:
          - id: r
            steps:
              - pay: {from: 0, to: 7, amount: 1}    # HERE
        """, None, "E061", "# HERE", "seat 7", False),
    "pay_from_a_negative_seat": ("", """
        round:
          - id: r
            steps:
              - pay: {from: "0 - 1", to: 0, amount: 1}    # HERE
        """, None, "E061", "# HERE", "seat -1", False),
    "pay_an_amount_beyond_any_number": ("", """
        round:
          - id: r
            steps:
              - pay: {from: 0, to: 1, amount: "10 ** 30 * 10"}    # HERE
        """, None, "E034", "# HERE", "too large", False),
    "set_chips_directly": ("", """
        round:
          - id: r
            steps:
              - set: {chips: 5}    # HERE
        """, None, "E040", "# HERE", "chips", False),
    "redeal_for_ever": ("", """
        round:
          - id: r      # HERE
            steps:
              - redeal: misdeal
        """, None, "E061", "# HERE", "redeals", False),
    "index_a_seat_that_does_not_exist": ("", """
        round:
          - id: r
            steps:
              - move: {from: deck, to: "hand[7]", count: 1}   # HERE (the step, not only its phase)
        """, None, "E061", "# HERE", "", False),
    "set_a_var_to_a_list_then_add_a_number": ("  ys: {init: 0}\n", """
        round:
          - id: r
            steps:
              - set: {ys: "seats"}
              - add: {ys: 1}   # HERE (the step, not only its phase)
        """, None, "E061", "# HERE", "", False),
}


def _text(case) -> str:
    vars_extra, body, game, *_ = case
    return variant_text(textwrap.dedent(body), vars_extra, game if game is not None else "game:\n  start_chips: 100\n")


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_rule_stops_with_a_located_error(tmp_path, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    case = CASES[name]
    text = _text(case)
    _v, _b, _g, code, marker, word, heavy = case
    write(tmp_path, f"{name}.yaml", text)
    count("inputs")
    m = measure(lambda: check_variant(f"{name}.yaml"), hard_limit=30)
    assert m.error is None, f"{type(m.error).__name__}: {m.error}"[:600]
    diags = m.value
    codes = code if isinstance(code, tuple) else (code,)
    assert_located(diags, f"{name}.yaml")
    assert diags[0].code in codes, [(str(d.span), d.code, d.message) for d in diags]
    d = diags[0]
    if marker is not None:
        assert d.span.line == _line(text, marker), f"{d.span}: {d.message}"
    assert word in d.message, d.message
    m.check_bounds(time_limit=HEAVY_TIME_LIMIT if heavy else 2.0)


@pytest.mark.parametrize("name", [n for n in CASES if CASES[n][3] != "E040"])
def test_hostile_rule_stops_under_random_play(tmp_path, monkeypatch, name):
    """The same rules played by random agents for whole games: a RulekitError, never a hang."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, f"{name}.yaml", _text(CASES[name]))
    for seed in (1, 2):
        count("inputs")

        def run():
            game = build_game(load_variant(f"{name}.yaml"))
            return play(game, 3, seed, make_agents(game, 3, seed), logging=True)
        m = measure(run, hard_limit=30)
        assert isinstance(m.error, RulekitError), f"{type(m.error).__name__}: {m.error}"[:600]
        assert_located(m.error.diagnostics, f"{name}.yaml")
        m.check_bounds(time_limit=HEAVY_TIME_LIMIT)


# -- engine limits found by this suite (each was a bug, now fixed) ------------------------------------

def _write_variant(tmp_path, monkeypatch, name: str, body: str, vars_extra: str = "",
                   game: str = "game:\n  start_chips: 100\n") -> str:
    """Write a small hostile variant as `name`.yaml in tmp_path (the working directory); its file name."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, f"{name}.yaml", variant_text(textwrap.dedent(body), vars_extra, game))
    count("inputs")
    return f"{name}.yaml"


def _play_expecting_error(tmp_path, monkeypatch, name: str, body: str, vars_extra: str = "",
                          game: str = "game:\n  start_chips: 100\n", seconds: float = 5.0) -> RulekitError:
    g = build_game(load_variant(_write_variant(tmp_path, monkeypatch, name, body, vars_extra, game)))
    try:
        with alarm(seconds):
            res = play(g, 3, 1, make_agents(g, 3, 1))
    except RulekitError as exc:
        assert_located(exc.diagnostics, f"{name}.yaml")
        return exc
    except Hang:
        pytest.fail(f"{name}: still running after {seconds} s")
    pytest.fail(f"{name}: no error; chips {res.chips}, vars {res.state.vars}")


def test_a_pot_cannot_go_negative(tmp_path, monkeypatch):
    _play_expecting_error(tmp_path, monkeypatch, "negative_pot", """
        round:
          - id: r
            steps:
              - pay: {from_pot: pot, to: 0, amount: 5}
        """)


def test_set_on_a_pot_does_not_create_chips(tmp_path, monkeypatch):
    diags = check_variant(_write_variant(tmp_path, monkeypatch, "set_pot", """
        round:
          - id: r
            steps:
              - set: {pot: 50}
              - pay: {from_pot: pot, to: 0}
        """))
    assert diags and diags[0].code == "E042" and "pot" in diags[0].message, diags


def test_add_respects_the_number_limit(tmp_path, monkeypatch):
    _play_expecting_error(tmp_path, monkeypatch, "add_double", """
        round:
          - id: r
            steps:
              - set: {x: 1}
              - for: i
                in: "range(200)"
                do:
                  - add: {x: x}
        """)


def test_deal_to_a_negative_seat(tmp_path, monkeypatch):
    _play_expecting_error(tmp_path, monkeypatch, "deal_negative", """
        round:
          - id: r
            steps:
              - deal: {to: hand, count: 1, players: "[0 - 1]"}
        """)


def test_a_game_with_endless_rounds_stops(tmp_path, monkeypatch):
    # a length that depends on the table is found when the game starts
    _play_expecting_error(tmp_path, monkeypatch, "endless_game", """
        round:
          - id: r
            steps:
              - add: {x: 1}
        """, game="game:\n  start_chips: 100\n  rounds: \"10 ** 20 * n_players\"\n", seconds=3.0)


@pytest.mark.parametrize("rounds", ['"10 ** 20"', "0", '"0 - 3"'])
def test_a_game_length_known_from_the_options_is_checked_with_the_file(tmp_path, monkeypatch, rounds):
    # issue 41: a length outside 1 to 10,000 (0: a game that plays nothing) is refused at `rounds:`
    path = _write_variant(tmp_path, monkeypatch, "length", """
        round:
          - id: r
            steps:
              - add: {x: 1}
        """, "", f"game:\n  start_chips: 100\n  rounds: {rounds}\n")
    with pytest.raises(RulekitError) as exc:
        build_game(load_variant(path))
    assert_located(exc.value.diagnostics, "length.yaml", "E061")
    assert "game.rounds" in exc.value.first.message and exc.value.first.span.line > 1


def test_recursion_is_reported_at_the_call(tmp_path, monkeypatch):
    exc = _play_expecting_error(tmp_path, monkeypatch, "recursion", """
        procedures:
          loop:
            steps:
              - call: loop
        round:
          - id: r
            steps:
              - call: loop
        """)
    d = exc.first
    # the innermost call step, inside the procedure, names it
    assert "call loop" in d.message and d.span.line == 21, f"{d.span}: {d.message}"


def _isolated_play(name: str, body: str, vars_extra: str = "") -> dict:
    text = variant_text(textwrap.dedent(body), vars_extra)
    count("inputs")
    return run_isolated(f"""
        import os, tempfile, time
        from rulekit.engine.build import build_game, load_variant
        from rulekit.engine.runner import make_agents, play
        folder = tempfile.mkdtemp()
        path = os.path.join(folder, {name + '.yaml'!r})
        with open(path, "w", encoding="utf-8") as fh:
            fh.write({text!r})
        g = build_game(load_variant(path))
        t0 = time.perf_counter()
        try:
            play(g, 3, 1, make_agents(g, 3, 1))
        finally:
            RESULT["seconds"] = time.perf_counter() - t0
    """, timeout=10, memory=800_000_000)


def _stopped_cleanly(res: dict) -> None:
    assert res["status"] == "rulekit", f"no RulekitError: {res}"
    assert res["line"] >= 1 and res["code"] in ("E034", "E061"), res


def test_a_choice_with_too_many_actions_stops():
    _stopped_cleanly(_isolated_play("cross", """
        round:
          - id: r
            steps:
              - choose: pick
                player: 0
                options: {a: "range(10000)", b: "range(10000)"}
        """))


def test_reveal_to_a_seat_that_does_not_exist():
    _stopped_cleanly(_isolated_play("reveal", """
        round:
          - id: r
            steps:
              - shuffle: deck
              - reveal: {zone: deck, to: "1000000000"}
        """))


def test_a_list_that_doubles_every_turn_stops():
    _stopped_cleanly(_isolated_play("doubling", """
        round:
          - id: r
            steps:
              - repeat:
                  - set: {xs: "xs + xs"}
                until: "count(xs) < 0"
        """, vars_extra="  xs: {init: \"[1]\"}\n"))


def test_the_evaluation_budget_stops_a_rule():
    """2 000 000 lambda calls in one round, then E034 at the expression (in a child: no tracing)."""
    text = variant_text(textwrap.dedent("""
        round:
          - id: r
            steps:
              - let: {big: "count(filter(range(10000), a -> any(range(10000), b -> a == b)))"}
        """))
    count("inputs")
    res = run_isolated(f"""
        import os, resource, tempfile, time
        from rulekit.engine.build import check_variant
        path = os.path.join(tempfile.mkdtemp(), "budget.yaml")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write({text!r})
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        t0 = time.perf_counter()
        diags = check_variant(path)
        RESULT["seconds"] = time.perf_counter() - t0
        RESULT["peak"] = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024
        RESULT["diags"] = [(d.code, d.span.line, d.span.col, d.message) for d in diags]
    """, timeout=90)
    assert res["status"] == "ok", res
    line = _line(text, "let: {big")
    assert [(c, ln) for c, ln, _col, _m in res["diags"]] == [("E034", line)], res
    assert "budget" in res["diags"][0][3]
    assert res["peak"] < 200_000_000, res  # memory, not wall-clock: the budget bounds the work


@pytest.mark.parametrize("name", [n for n in CASES if CASES[n][3] != "E040" and not CASES[n][6]])
def test_generated_code_stops_where_the_closures_stop(tmp_path, monkeypatch, name):
    """Without a log (as in simulations) the rules run on generated code, error paths included:
    the same error, at the same line, with the same message, as on the closures alone."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, f"{name}.yaml", _text(CASES[name]))
    v = load_variant(f"{name}.yaml")
    errors = []
    for codegen in (True, False):
        count("inputs")
        try:
            with alarm(30):
                game = build_game(v, codegen=codegen)
                play(game, 3, 1, make_agents(game, 3, 1), logging=False)
        except RulekitError as exc:
            d = exc.diagnostics[0]
            errors.append((d.code, str(d.span), d.message))
        else:
            errors.append(None)
    assert errors[0] == errors[1], errors
    assert errors[0] is not None

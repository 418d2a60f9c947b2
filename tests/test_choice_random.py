"""Choices in random play: generated code draws the answer's index itself (agents.draw over the
number of legal actions) where the random decider stands for every seat; any other decider is
handed the legal actions as before. Both must pick the same actions (tests/test_simulate.py
compares whole rounds; the golden matrix whole games)."""
import os

from rulekit.engine.agents import FirstLegalAgent, SplitMix64, draw, draw2, draw_code, random_decider
from rulekit.engine.build import build_game, load_variant
from rulekit.engine.runner import decider, play

from .conftest import VARIANTS

KYO = os.path.join(VARIANTS, "kabufuda", "kyo-kabu.yaml")
HANA = os.path.join(VARIANTS, "hanafuda", "hana-awase.yaml")


def test_draw_is_the_random_agents_pick():
    states = [5, 2 ** 64 - 3, 0]
    gens = [SplitMix64(s) for s in states]
    decide = random_decider(list(states))
    for k in range(300):
        seat, n = k % 3, 1 + k % 41
        want = gens[seat].randrange(n)
        assert draw(states, seat, n) == want
        assert decide(None, seat, [None] * n) == want
    assert states == [g.state for g in gens]


def test_a_draw_between_two_is_the_general_draw():
    """draw2 (a choice between two values written in the rules) gives draw(..., 2)'s answer and
    leaves the same state, from states at the ends of the range and spread over it."""
    import random
    rng = random.Random(38)
    starts = [0, 1, 2 ** 63 - 1, 2 ** 63, 2 ** 64 - 1] + [rng.getrandbits(64) for _ in range(3000)]
    answers = set()
    for s in starts:
        a, b = [7, s], [7, s]
        for _ in range(3):
            got = draw2(a, 1)
            assert got == draw(b, 1, 2) and a == b
            answers.add(got)
    assert answers == {0, 1}


def test_the_draw_written_out_is_the_draw():
    """agents.draw_code (the draw generated choice code runs in line) gives draw's answer and
    leaves the same state, for two options and more, the seat a local or an expression read once."""
    import random
    rng = random.Random(7)
    starts = [0, 1, 2 ** 63, 2 ** 64 - 1] + [rng.getrandbits(64) for _ in range(500)]
    for n in ("2", "3", "cnt", "(cnt + 1)"):
        for seat in ("p", "1", "(p + 0)", "q.pop()"):
            lines, answer = draw_code("rs", seat, n, "z", "st")
            run = compile("\n".join([*lines, f"out = {answer}"]), "<draw>", "exec")
            assert ("st" in "".join(lines)) == (seat in ("(p + 0)", "q.pop()"))  # (read once, into st)
            for s in starts[:120]:
                cnt = rng.randrange(2, 40)
                space = {"rs": [9, s], "p": 1, "q": [1], "cnt": cnt}
                exec(run, space)  # noqa: S102 - the test's own lines
                want = [9, s]
                count = {"2": 2, "3": 3, "cnt": cnt, "(cnt + 1)": cnt + 1}[n]
                assert space["out"] == draw(want, 1, count) and space["rs"] == want


def test_only_the_random_decider_lets_the_code_draw():
    g = build_game(load_variant(KYO))
    states = [1, 2, 3, 4, 5]
    assert g.new_ctx(5, 1, random_decider(states), False).rand is states
    assert g.new_ctx(5, 1, decider(g, [FirstLegalAgent()] * 5, []), False).rand is None
    assert g.new_ctx(5, 1, None, False).rand is None


class Recorder(FirstLegalAgent):
    """Takes the last legal action and keeps every decision's actions, by choice."""

    def __init__(self) -> None:
        self.seen: dict[str, list[list[tuple]]] = {}

    def act(self, d):
        self.seen.setdefault(d.choice.id, []).append(list(d.actions))
        return len(d.actions) - 1


def test_an_agent_is_handed_every_action_of_a_two_parameter_choice():
    """Kyo-Kabu's bet (a column and an amount, the amounts listed per column): the first bettor
    is handed each column with every amount up to the table maximum, then the pass."""
    g = build_game(load_variant(KYO))
    rec = Recorder()
    play(g, 5, 3, [rec] * 5, rounds=1, logging=False, dealer=0)
    first = rec.seen["bet"][0]
    limit = max(a for _c, a in first)
    assert limit > 1
    assert first == [(c, a) for c in range(4) for a in range(1, limit + 1)] + [(-1, 0)]
    # the recorder passes (its last action): the next bettor has the whole maximum left
    assert rec.seen["bet"][1] == first


def test_an_agent_is_handed_one_value_actions_and_its_answer_is_taken():
    """A one-parameter choice is listed as plain values; an agent still gets (value,) actions,
    and the one it picks is what the game does (same as the log replays)."""
    g = build_game(load_variant(HANA))
    rec = Recorder()
    res = play(g, 3, 5, [rec] * 3, rounds=1, logging=True)
    assert rec.seen
    for acts in (a for lists in rec.seen.values() for a in lists):
        assert acts and all(type(a) is tuple for a in acts)
    chosen = [e for e in res.events if e["t"] == "choose" and not e.get("forced")]
    assert chosen and all(e["index"] == e["of"] - 1 for e in chosen)

"""Every shape of choice the code writer lists (rulekit.engine.genchoice): one parameter with or
without `where`, two with the second's values depending on the first, two with the second's a
list the rules wrote (a product), two with `where`, three. An agent is handed every action in
order; random play, where the code draws the answer itself, plays exactly what random agents
asked through ctx.decide play."""
from __future__ import annotations

import pytest

from rulekit.core.errors import RuleError
from rulekit.engine.agents import RandomAgent
from rulekit.engine.build import build_game, check_variant, load_variant
from rulekit.engine.runner import Stats, make_agents, play, round_seed, run_chunk
from rulekit.engine.testing import variant_path

CHILD = '''id: choice-shapes
extends: {parent}
meta:
  names: {{en: Choice shapes}}
round:
  - id: choices
    name: Choices
    text: Every shape of choice.
    steps:
{steps}
'''

N0 = "count(deck) - count(deck)"  # 0, not a constant: the lists are made as the rule runs

SHAPES = f'''
      - for: p
        in: seats
        do:
          - choose: one
            player: p
            options: {{a: "range({N0} + 4)"}}
          - choose: one_where
            player: p
            options: {{b: "range({N0} + 5)"}}
            where: "b != a"
          - choose: pairs
            player: p
            options: {{c: "range({N0} + 3)", d: "if c == 0 then [7] else range(1, c + 2)"}}
          - choose: product
            player: p
            options: {{e: "range({N0} + 3)", f: "[10, 20, 30]"}}
          - choose: pair_where
            player: p
            options: {{g: "range({N0} + 3)", h: "range({N0} + 3)"}}
            where: "g != h"
          - choose: three
            player: p
            options: {{i: "range({N0} + 2)", j: "range({N0} + 2)", k: "[1, 2]"}}
          - pay: {{from: p, to: "(p + 1) % count(seats)", amount: "a + b * 3 + c * 5 + d + e * 7 + f + g * 11 + h + i * 13 + j + k"}}
          - say: "{{a}} {{b}} {{c}} {{d}} {{e}} {{f}} {{g}} {{h}} {{i}} {{j}} {{k}}"
'''

WANT = {
    "one": [(a,) for a in range(4)],
    "pairs": [(0, 7)] + [(c, d) for c in (1, 2) for d in range(1, c + 2)],
    "product": [(e, f) for e in range(3) for f in (10, 20, 30)],
    "pair_where": [(g, h) for g in range(3) for h in range(3) if g != h],
    "three": [(i, j, k) for i in range(2) for j in range(2) for k in (1, 2)],
}


SHAPE_IDS = {*WANT, "one_where"}


def build(tmp_path, steps: str, codegen: bool = True, check: bool = True):
    p = tmp_path / "shapes.yaml"
    p.write_text(CHILD.format(parent=variant_path("hanafuda/kingo.yaml"), steps=steps), encoding="utf-8")
    if check:
        assert [d.render() for d in check_variant(str(p)) if d.severity == "error"] == []
    return build_game(load_variant(str(p)), codegen=codegen)


class Last:
    """Takes the last legal action of this phase's choices, keeping their actions (the parent
    game's own choices at random)."""

    name = "last"

    def __init__(self) -> None:
        self.seen: list[tuple[str, list[tuple]]] = []
        self.other = RandomAgent(1)

    def act(self, d) -> int:
        if d.choice.id not in SHAPE_IDS:
            return self.other.act(d)
        self.seen.append((d.choice.id, list(d.actions)))
        return len(d.actions) - 1


@pytest.mark.parametrize("codegen", [True, False])
def test_an_agent_is_handed_every_action_in_order_and_its_answer_is_taken(tmp_path, codegen):
    g = build(tmp_path, SHAPES, codegen)
    agent = Last()
    res = play(g, 5, 1, [agent] * 5, rounds=1, logging=True)
    first = dict(agent.seen[:6])
    assert {k: first[k] for k in WANT} == WANT
    assert first["one_where"] == [(b,) for b in range(5) if b != 3]  # (a was answered 3, the last)
    said = [e["text"] for e in res.events if e["t"] == "say"]
    assert said == ["3 4 2 3 2 30 2 1 1 1 2"] * 5


def test_random_play_draws_what_random_agents_pick(tmp_path):
    """run_chunk's random play (ctx.rand: the code draws) against play() with random agents asked
    through ctx.decide, round by round."""
    g = build(tmp_path, SHAPES)
    stats = run_chunk(g, 5, 3, 0, 25)
    expect = Stats()
    for i in range(25):
        s = round_seed(3, i)
        res = play(g, 5, s, make_agents(g, 5, s), rounds=1, logging=False, dealer=0)
        expect.add_round(res.round_deltas[0], res.records)
    assert stats.to_json() == expect.to_json()
    assert any(stats.total)  # (the answers moved chips)


@pytest.mark.parametrize("codegen", [True, False])
def test_a_product_past_the_limit_of_actions_says_how_far_it_got(tmp_path, codegen):
    steps = f'''
      - choose: big
        player: 0
        options: {{a: "range({N0} + 3000)", b: "[1, 2, 3, 4, 5, 6, 7]"}}
'''
    g = build(tmp_path, steps, codegen, check=False)
    with pytest.raises(RuleError) as exc:
        play(g, 5, 1, make_agents(g, 5, 1), rounds=1, logging=False)
    # (listed seven at a time, the count passes 20,000 at 20,006)
    assert "more than 20000 legal actions (20006 so far)" in str(exc.value)

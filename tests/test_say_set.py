"""`say` with values ({expression} placeholders) and `show: true` on set: transcript lines."""
from __future__ import annotations

from pathlib import Path

from rulekit.engine.build import build_game, check_variant, load_variant
from rulekit.engine.runner import make_agents, play
from rulekit.core.errors import render_all
from rulekit.people.transcript import transcript

TUTORIAL = Path(__file__).resolve().parent.parent / "docs" / "tutorial" / "first-variant.yaml"


def variant_with(tmp_path, old: str, new: str) -> Path:
    text = TUTORIAL.read_text(encoding="utf-8")
    assert old in text
    p = tmp_path / "say.yaml"
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    return p


SHOWDOWN = '''          - set: {"total[p]": "sum(hand[p], c -> c.value) % 10"}'''


def test_say_with_values_and_set_shown_in_the_transcript(tmp_path):
    p = variant_with(tmp_path, SHOWDOWN, SHOWDOWN[:-1] + ''', show: true}
          - say: "Seat {p} shows {hand[p]}: worth {total[p]}{{!}}"''')
    assert not check_variant(str(p))
    g = build_game(load_variant(str(p)))
    res = play(g, 2, 3, make_agents(g, 2, 3), rounds=1)
    says = [e["text"] for e in res.events if e["t"] == "say"]
    sets = [e for e in res.events if e["t"] == "set"]
    assert [s["name"] for s in sets] == ["total[0]", "total[1]"]
    hands = {int(e["to"][5:-1]): [] for e in res.events if e["t"] == "move" and e["to"].startswith("hand[")}
    for e in res.events:
        if e["t"] == "move" and e["to"].startswith("hand["):
            hands[int(e["to"][5:-1])] += e["cards"]
    for s, text in enumerate(says):
        value = sum(int(c.split("-")[0]) for c in hands[s]) % 10
        assert text == f"Seat {s} shows {', '.join(hands[s])}: worth {value}{{!}}"   # {{!}} in YAML: {!}
        assert sets[s]["value"] == str(value)
    lines = transcript(g, res.events, res.chips)
    assert f"   total[0] = {sets[0]['value']}" in lines and f"   {says[1]}" in lines


def test_a_wrong_placeholder_is_reported_at_the_say_step(tmp_path):
    p = variant_with(tmp_path, SHOWDOWN, SHOWDOWN + '''
          - say: "worth {totl[p]}"''')
    out = render_all(check_variant(str(p)))
    assert "unknown name 'totl'" in out and "say" in out

"""A policy may extend another (`extends: careful`): the base's rules for the choices it does not
name, its own for those it does; an unknown base or a cycle is an error at the `extends`."""
from __future__ import annotations

from pathlib import Path

from rulekit.engine.build import build_game, check_variant, load_variant
from rulekit.engine.runner import make_agents, play

from .conftest import ROOT

BASE = (Path(ROOT) / "docs" / "tutorial" / "first-variant.yaml").read_text(encoding="utf-8")
POLICIES = """
policies:
  stand:
    description: Never take a third card.
    rules:
      - {choice: third, prefer: "not take"}
  stand-too:
    description: Plays like stand.
    extends: stand
  draw:
    description: Always take a third card when allowed.
    extends: stand
    rules:
      - {choice: third, prefer: "take"}
"""


def _game(tmp_path, policies: str = POLICIES):
    p = tmp_path / "last-digit.yaml"
    p.write_text(BASE + policies, encoding="utf-8")
    return str(p)


def _thirds(game, policy: str) -> list[bool]:
    out = []
    for seed in range(6):
        res = play(game, 4, seed, make_agents(game, 4, seed, policy))
        out += [e["action"]["take"] for e in res.events if e["t"] == "choose" and e["choice"] == "third"
                and not e.get("forced")]
    return out


def test_a_policy_without_rules_of_its_own_plays_like_its_base(tmp_path):
    game = build_game(load_variant(_game(tmp_path)))
    assert _thirds(game, "stand-too") == _thirds(game, "stand")
    assert _thirds(game, "stand") and not any(_thirds(game, "stand"))


def test_a_policy_s_own_rule_for_a_choice_replaces_the_base_s(tmp_path):
    game = build_game(load_variant(_game(tmp_path)))
    takes = _thirds(game, "draw")
    assert takes and all(takes)


def test_an_unknown_base_is_located_with_did_you_mean(tmp_path):
    path = _game(tmp_path, POLICIES.replace("extends: stand\n    rules", "extends: stnad\n    rules"))
    diags = [d for d in check_variant(path) if d.severity == "error"]
    text = (BASE + POLICIES).splitlines()
    line = max(i for i, ln in enumerate(text, 1) if "extends: stand" in ln)
    assert [(d.span.line, d.code) for d in diags] == [(line, "E040")]
    assert diags[0].message == "policy 'draw': extends: no policy 'stnad'" and "stand" in diags[0].hint


def test_a_cycle_of_policies_is_an_error(tmp_path):
    cyc = POLICIES.replace("    description: Never take a third card.\n",
                           "    description: Never take a third card.\n    extends: draw\n")
    diags = [d for d in check_variant(_game(tmp_path, cyc)) if d.severity == "error"]
    assert diags and all(d.code == "E021" and "cycle" in d.message for d in diags)


def test_shipped_policies_that_extend_say_only_what_differs():
    import yaml
    for rel, name, base in (("kabufuda/kyo-kabu.yaml", "table", "careful"),
                            ("hanafuda/otoroku.yaml", "table", "careful")):
        pol = yaml.safe_load((Path(ROOT) / "variants" / rel).read_text(encoding="utf-8"))["policies"]
        assert pol[name]["extends"] == base
        own = {r["choice"] for r in pol[name].get("rules") or []}
        repeated = [r for r in pol[base]["rules"] if r["choice"] in own and r in pol[name]["rules"]]
        assert repeated == [], f"{rel}: {name} repeats {repeated}"

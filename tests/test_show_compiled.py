"""`rulekit show GAME --compiled`: the Python the engine generated, each part under the file and
line of its rule; a variant's own text reaches that code only as bound constants."""
from __future__ import annotations

import re

import pytest

from rulekit.cli.main import main
from rulekit.engine.build import build_game, load_variant
from rulekit.engine.listing import listing, parts

from .robustness.helpers import HEAD  # noqa: F401  (registers benchmarks/hostile_corpus.py)


def _listing(capsys, *argv: str) -> str:
    assert main(["show", *argv, "--compiled"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("game", ["kyo-kabu", "hiraya", "kakkuri"])
def test_every_phase_is_listed_under_its_rule(capsys, game):
    out = _listing(capsys, game)
    g = build_game(load_variant(game))
    heads = re.findall(r"^# ---- (.+) \((.+):(\d+)\)$", out, re.M)
    for ph in g.phases:
        assert (f"phase {ph.id}", ph.span.line) in {(t, int(n)) for t, _f, n in heads}, ph.id
    assert any(t.startswith("yaku table ") for t, _f, _n in heads) == bool(g.yaku)
    # every statement's comment names a line of a file of the variant that holds a rule
    files = {f: open(f, encoding="utf-8").read().splitlines() for f in g.variant.files}
    for f, n in re.findall(r"^\s*# (\S+\.yaml):(\d+)$", out, re.M):
        path = next(p for p in files if p.endswith(f))
        assert files[path][int(n) - 1].strip(), (f, n)
    assert out.count("def _make(") == sum(p.source is not None and p.source.startswith("def _make(")
                                          for p in parts(g))


def test_the_listing_is_the_code_that_runs():
    g = build_game(load_variant("kyo-kabu"))
    generated = [p for p in parts(g) if p.source is not None and p.source.startswith("def _make(")]
    assert len(generated) >= len(g.phases)
    for p in generated:
        compile(p.source, p.title, "exec")  # as it stands, it is Python
    shown = listing(g).splitlines()
    for ph in g.phases:  # each phase's code, line for line, its comments naming places included
        lines = ph.run.source.rstrip("\n").split("\n")
        assert any(line.lstrip().startswith("# ") for line in lines), ph.id
        assert any(shown[i:i + len(lines)] == lines for i in range(len(shown))), ph.id


def test_without_generated_code_the_listing_says_so(capsys, monkeypatch):
    monkeypatch.setenv("RULEKIT_CODEGEN", "0")
    out = _listing(capsys, "otoroku")
    assert "def _make(" not in out and "runs as compiled steps" in out


HOSTILE = '"\\"); __import__(\'os\').system(\'echo pwned\') #\\n\\e[2J"'  # YAML: quote, newline, escape


def test_a_hostile_variants_text_is_only_a_bound_constant(tmp_path, capsys, monkeypatch):
    import sys
    corpus = sys.modules["hostile_corpus"]
    body = corpus.steps(f"- say: {HOSTILE}", f"- record: {HOSTILE}",
                        "- set: {x: \"x + 1\"}", "- move: {from: deck, to: table, count: 1}")
    (tmp_path / "probe.yaml").write_text(body, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = _listing(capsys, "probe.yaml")
    g = build_game(load_variant("probe.yaml"))
    code = [p.source for p in parts(g) if p.source is not None]
    assert code and not any("pwned" in c or "__import__" in c or "\x1b" in c for c in code)
    assert "\x1b" not in out
    # in the listing the text shows only escaped, in the list of constants
    shown = [line for line in out.splitlines() if "pwned" in line]
    assert shown and all(re.match(r"#   C\d+ = '.*\\x1b\[2J', for the step at probe\.yaml:\d+$", line) for line in shown), shown

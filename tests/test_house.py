"""House-rule files: exact located errors, their effect on play, diff/explain, stacking, the CLI.

Fixtures are in tests/fixtures/house/ (kyo-kabu tables); tests run from tests/fixtures so
diagnostics name the files as house/<name>.yaml.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulekit.engine.build import build_game, load_variant, resolve_options
from rulekit.analysis.compare import diff_games, explain
from rulekit.engine.runner import make_agents, play
from rulekit.core.errors import RulekitError, render_all
from rulekit.engine.testing import run, variant_path

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "fixtures"
KYO = variant_path("kabufuda/kyo-kabu.yaml")
OTO = variant_path("hanafuda/otoroku.yaml")
EXAMPLE = ROOT / "docs" / "guides" / "house-example.yaml"


@pytest.fixture(autouse=True)
def in_fixtures(monkeypatch):
    monkeypatch.chdir(FIX)


def load(*files: str, path: str = KYO):
    return load_variant(path, house=[f"house/{f}.yaml" for f in files])


def first_error(*files: str, path: str = KYO) -> str:
    with pytest.raises(RulekitError) as exc:
        load(*files, path=path)
    return render_all(exc.value.diagnostics[:1])


def where(file: str, text: str, col_of: str | None = None) -> str:
    """'house/<file>.yaml:line:col' of the first line containing `text` (column of `col_of` in it)."""
    lines = (FIX / "house" / f"{file}.yaml").read_text(encoding="utf-8").splitlines()
    for i, ln in enumerate(lines, 1):
        if text in ln:
            return f"house/{file}.yaml:{i}:{ln.index(col_of or text) + 1}"
    raise AssertionError(f"{text!r} not in {file}")


# ---------------------------------------------------------------- exact located messages

ERRORS = {
    "unknown-target": """\
house/unknown-target.yaml:3:9: error[E051]: house rules 'Misspelt' are for 'kyo-kabuu', not for 'kyo-kabu'
   | target: kyo-kabuu
   |         ^^^^^^^^^
  help: did you mean 'kyo-kabu'?""",
    "bad-value": """\
house/bad-value.yaml:4:8: error[E051]: house rules: option 'tie': expected one of push, dealer, found 'maybe'
   |   tie: maybe
   |        ^^^^^""",
    "unknown-option": """\
house/unknown-option.yaml:4:3: error[E051]: house rules: unknown option 'ties'
   |   ties: dealer
   |   ^^^^
  help: did you mean 'tie' (who wins when a table hand and the dealer have the same…)?""",
    "schema-error": """\
house/schema-error.yaml:3:1: error[E010]: unknown key 'option': expected one of name, target, note, options, yaku, game, players
   | option:
   | ^^^^^^
  help: did you mean 'options'?""",
    # (an error both YAML parsers, libyaml and pure Python, word the same way)
    "bad-yaml": "house/bad-yaml.yaml:6:1: error[E002]: YAML syntax error: found unexpected end of stream "
                "(while scanning a quoted scalar that starts at line 3, column 7)",
    "unknown-yaku": """\
house/unknown-yaku.yaml:5:11: error[E051]: house rules: no yaku 'sorokabuu' in table 'column' to change
   |     - id: sorokabuu
   |           ^^^^^^^^^
  help: did you mean 'sorokabu'?""",
}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_bad_house_file_gives_its_exact_located_error(name):
    assert first_error(name) == ERRORS[name]


def test_conflicting_option_and_yaku_are_both_reported_in_the_later_file():
    with pytest.raises(RulekitError) as exc:
        load("conflict-a", "conflict-b")
    diags = exc.value.diagnostics
    assert [(str(d.span), d.code) for d in diags] == [("house/conflict-b.yaml:5:8", "E051"),
                                                      ("house/conflict-b.yaml:8:11", "E051")]
    assert render_all(diags) == """\
house/conflict-b.yaml:5:8: error[E051]: conflict: option 'tie' = 'push' here, but 'dealer' in house/conflict-a.yaml:5:8
   |   tie: push
   |        ^^^^
  help: files given together must agree: change one of them or leave it out

house/conflict-b.yaml:8:11: error[E051]: conflict: yaku 'sorokabu' of table 'column' is changed here and in house/conflict-a.yaml:8:11
   |     - id: sorokabu
   |           ^^^^^^^^
  help: files given together must agree: change one of them or leave it out"""


def test_conflict_is_an_error_whichever_file_comes_first():
    with pytest.raises(RulekitError) as exc:
        load("conflict-b", "conflict-a")
    assert render_all(exc.value.diagnostics[:1]).splitlines()[0] == (
        "house/conflict-a.yaml:5:8: error[E051]: conflict: option 'tie' = 'dealer' here, but 'push' in "
        "house/conflict-b.yaml:5:8")


def test_each_half_of_the_conflicting_pair_is_valid_alone():
    assert load("conflict-a").house_options == {"tie": "dealer"}
    assert load("conflict-b").house_options == {"tie": "push"}


def test_house_rules_for_another_variant_are_refused():
    first = first_error("family", path=OTO).splitlines()[0]
    assert first == f"{where('family', 'target: kyo-kabu', 'kyo-kabu')}: error[E051]: house rules " \
                    "'The Saitō family table' are for 'kyo-kabu', not for 'otoroku'"


def test_the_same_file_twice_is_refused():
    first = first_error("family", "family").splitlines()[0]
    assert first.endswith("error[E051]: house rules 'The Saitō family table' are given twice")


def test_a_missing_house_file_is_a_located_error():
    assert first_error("no-such-file").startswith("house/no-such-file.yaml:0:0: error[E001]: cannot read file")


# ---------------------------------------------------------------- valid files change play

TIE_TOP = ["2-1", "1-1", "1-2", "3-1", "3-2", "5-1"]          # column 1: 6+1 = 7, dealer 2+5 = 7
TIE_SCRIPT = {"bet": [{"col": 1, "amount": 4}], "dealer_third": [{"take": False}]}
SORO_TOP = ["2-1", "1-1", "1-2", "7-1", "1-3", "7-2", "2-2"]  # column 2: 7+7+7
SORO_SCRIPT = {"bet": [{"col": 2, "amount": 3}], "third_card": [{"take": True}], "dealer_third": [{"take": False}]}
KUPPIN_TOP = ["1-1", "2-1", "1-2", "1-3", "1-4", "9-1"]       # dealer 1 then 9; column 0: 5+2 = 7
KUPPIN_SCRIPT = {"bet": [{"col": 0, "amount": 1}], "dealer_third": [{"take": False}]}


def test_family_table_loads_with_its_options_and_note():
    v = load("family")
    assert v.house_options == {"tie": "dealer", "table_limit": 20, "rounds": 6}
    assert [h.name for h in v.house] == ["The Saitō family table"]
    assert v.house[0].note.startswith("Grandmother kept ties for the bank")
    assert v.files[-1] == "house/family.yaml"


def test_tie_dealer_from_the_house_file_changes_the_same_stacked_round():
    plain = build_game(load_variant(KYO))
    house = build_game(load("family"))
    assert run(plain, 2, TIE_TOP, by_choice=TIE_SCRIPT).chips == [0, 0]   # push
    assert run(house, 2, TIE_TOP, by_choice=TIE_SCRIPT).chips == [4, -4]  # the dealer takes the tie


def test_changed_yaku_value_changes_the_payout():
    plain = build_game(load_variant(KYO))
    house = build_game(load("family"))
    assert run(plain, 2, SORO_TOP, by_choice=SORO_SCRIPT).chips == [-6, 6]   # Sorokabu pays 2 x 3
    assert run(house, 2, SORO_TOP, by_choice=SORO_SCRIPT).chips == [-9, 9]   # the family pays 3 x 3


def test_house_option_rounds_and_table_limit_take_effect():
    g = build_game(load("family"))
    res = play(g, 3, 1, make_agents(g, 3, 1))
    assert len(res.round_deltas) == 6
    o = run(g, 3, [], by_choice={"bet": [{"col": 0, "amount": 1}]})
    assert max(a["amount"] for a in o.legal_at("bet")[0]) == 20


def test_house_file_plays_like_the_same_options_given_with_o():
    by_house = build_game(load("family"))
    by_o = build_game(load_variant(KYO), {"tie": "dealer", "table_limit": "20", "rounds": "6"})
    compared = 0
    for seed in range(1, 30):
        a = play(by_house, 4, seed, make_agents(by_house, 4, seed), rounds=1)
        b = play(by_o, 4, seed, make_agents(by_o, 4, seed), rounds=1)
        # identical except the Sorokabu value, which only shows when a column makes one
        if "yaku:sorokabu" not in a.records:
            assert a.events == b.events
            compared += 1
    assert compared >= 20


def test_stacked_second_file_adds_its_own_changes():
    v = load("family", "family-extra")
    assert v.house_options == {"tie": "dealer", "table_limit": 20, "rounds": 6, "kuppin_order": "either"}
    assert v.meta.players_default == 4
    g = build_game(v)
    assert g.start_chips == 50
    assert run(build_game(load("family")), 2, KUPPIN_TOP, by_choice=KUPPIN_SCRIPT).chips == [-1, 1]
    assert run(g, 2, KUPPIN_TOP, by_choice=KUPPIN_SCRIPT).chips == [50 + 1, 50 - 1]  # 1-then-9 is Kuppin too


def test_stacking_order_is_kept_where_files_agree():
    ab, ba = load("family", "family-extra"), load("family-extra", "family")
    # the same rules either way (files that agree commute) ...
    assert resolve_options(ab) == resolve_options(ba)
    assert build_game(ab).start_chips == build_game(ba).start_chips == 50
    # ... but provenance and notes follow the order given: the later file is named last
    assert [h.file for h in ab.house] == ["house/family.yaml", "house/family-extra.yaml"]
    assert [h.file for h in ba.house] == ["house/family-extra.yaml", "house/family.yaml"]
    eff = explain(build_game(ab), "options.tie")[-1]
    assert eff == (f"  in effect: tie = 'dealer' (from house rules {where('family', 'tie: dealer', 'dealer')}, "
                   f"{where('family-extra', 'tie: dealer', 'dealer')})")
    notes = [ln for ln in diff_games(build_game(load_variant(KYO)), build_game(ba)) if ln.startswith("note")]
    assert [n.split(":")[0] for n in notes] == ["note from Summer visitors", "note from The Saitō family table"]


def test_resolve_order_defaults_preset_house_then_o():
    v = load("conflict-b")  # tie: push
    assert resolve_options(load_variant(KYO), preset="dealer-wins-ties")["tie"] == "dealer"
    assert resolve_options(v, preset="dealer-wins-ties")["tie"] == "push"          # house over preset
    assert resolve_options(v, {"tie": "dealer"}, preset="dealer-wins-ties")["tie"] == "dealer"  # -o over house
    g = build_game(v, None, "dealer-wins-ties")
    assert explain(g, "options.tie")[-1] == f"  in effect: tie = 'push' (from house rules " \
                                            f"{where('conflict-b', 'tie: push', 'push')})"


# ---------------------------------------------------------------- diff and explain

def test_diff_lists_every_change_with_the_house_file_line():
    base = build_game(load_variant(KYO))
    changed = build_game(load("family"))
    assert diff_games(base, changed) == [
        f"option rounds: 12 -> 6 (house rules {where('family', 'rounds: 6', '6')})",
        f"option table_limit: 10 -> 20 (house rules {where('family', 'table_limit: 20', '20')})",
        f"option tie: push -> dealer (house rules {where('family', 'tie: dealer', 'dealer')})",
        f"yaku Three of a kind [sorokabu] (column): value 2 -> 3 (house rules {where('family', 'value: 3', '3')})",
        "note from The Saitō family table: Grandmother kept ties for the bank, Sorokabu pays triple, and we "
        "stop after six rounds.",
    ]


def test_diff_of_stacked_files_shows_game_and_player_changes():
    lines = diff_games(build_game(load_variant(KYO)), build_game(load("family", "family-extra")))
    at = where("family-extra", "default: 4", "default")
    assert f"players: 2-8 (usually 5) -> 2-8 (usually 4) (house rules {at})" in lines
    assert f"option kuppin_order: sensitive -> either (house rules " \
           f"{where('family-extra', 'kuppin_order', 'either')})" in lines
    assert f"option tie: push -> dealer (house rules {where('family', 'tie: dealer', 'dealer')}, " \
           f"{where('family-extra', 'tie: dealer', 'dealer')})" in lines
    assert f"game start_chips: (not set) -> 50 (house rules {where('family-extra', 'start_chips', '50')})" in lines
    assert [ln.split(":")[0] for ln in lines if ln.startswith("note")] == [
        "note from The Saitō family table", "note from Summer visitors"]


def test_explain_names_the_house_file_line_for_an_option():
    out = explain(build_game(load("family")), "options.tie")
    assert out[0] == "options.tie:"
    assert out[-1] == f"  in effect: tie = 'dealer' (from house rules {where('family', 'tie: dealer', 'dealer')})"


def test_explain_names_the_house_file_line_for_a_yaku_value():
    out = explain(build_game(load("family")), "yaku.column.sorokabu.value")
    assert out == ["yaku.column.sorokabu.value = 3", f"  set at {where('family', 'value: 3', '3')}"]


def test_explain_without_house_rules_says_default():
    out = explain(build_game(load_variant(KYO)), "options.tie")
    assert out[-1] == "  in effect: tie = 'push' (from the default)"


# ---------------------------------------------------------------- the guide's example file

def test_guide_example_validates_and_plays():
    from rulekit.lang.house import load_house
    h = load_house(str(EXAMPLE))
    assert h.target == "otoroku" and h.note
    v = load_variant(OTO, house=[str(EXAMPLE)])
    assert v.house_options == {"share": 2, "teyaku_payout": "multiplied", "dealer_rotation": "rotate",
                               "rotate_every": 3, "rounds": 6}
    for deck in v.decks:
        g = build_game(v, None, None, deck)
        n = v.meta.players_default
        res = play(g, n, 3, make_agents(g, n, 3))
        assert sum(res.chips) + g.pots_total(res.state) == g.start_chips * n
        assert len(res.round_deltas) == 6
        dealers = [e["dealer"] for e in res.events if e["t"] == "round"]
        assert len(set(dealers[:3])) == 1 and dealers[3] != dealers[0]  # the bank moves every 3 rounds
    lines = diff_games(build_game(load_variant(OTO)), build_game(v))
    assert any(ln.startswith("yaku Undefeatable [makezu] (teyaku): value 3 -> 2 (house rules ") for ln in lines)
    assert lines[-1].startswith("note from The Hayashi New Year table: ")


def test_guide_example_makezu_pays_double_not_triple():
    from rulekit.engine.runner import round_seed
    base = build_game(load_variant(OTO), {"teyaku_payout": "multiplied", "share": "2"})
    house = build_game(load_variant(OTO, house=[str(EXAMPLE)]))
    seen = 0
    for i in range(400):
        s = round_seed(11, i)
        a = play(base, 5, s, make_agents(base, 5, s), rounds=1, dealer=0)
        if "yaku:makezu" not in a.records:
            continue
        b = play(house, 5, s, make_agents(house, 5, s), rounds=1, dealer=0)
        assert b.records.get("yaku:makezu") == a.records["yaku:makezu"]
        assert a.chips != b.chips  # the same deal pays the Undefeatable hand less
        seen += 1
    assert seen >= 1


# ---------------------------------------------------------------- the command line, end to end

def cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "rulekit", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


FAMILY = "tests/fixtures/house/family.yaml"


def test_cli_play_with_house_file():
    r = cli("play", "kyo-kabu", "--house", FAMILY, "--seed", "3")
    assert r.returncode == 0, r.stderr
    assert "Game over after " in r.stdout


def test_cli_bad_house_file_exits_1_without_traceback():
    for bad in ("bad-yaml", "unknown-option", "schema-error"):
        r = cli("play", "kyo-kabu", "--house", f"tests/fixtures/house/{bad}.yaml", "--seed", "3")
        assert r.returncode == 1
        assert "Traceback" not in r.stderr
        assert re.match(rf"tests/fixtures/house/{bad}\.yaml:\d+:\d+: error\[E0(02|10|51)\]", r.stderr)


def test_cli_conflicting_house_files_exit_1():
    r = cli("show", "kyo-kabu", "--house", "tests/fixtures/house/conflict-a.yaml",
            "--house", "tests/fixtures/house/conflict-b.yaml")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith("tests/fixtures/house/conflict-b.yaml:5:8: error[E051]: conflict: option 'tie'")


def test_cli_diff_two_variants():
    r = cli("diff", "oicho-kabu", "kyo-kabu")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "oicho-kabu -> kyo-kabu"
    assert any(ln.startswith("- option kuppin_order: new in Kyō-Kabu (default sensitive)") for ln in lines)
    assert any(ln.startswith("- option soro_vs_soro: new in Kyō-Kabu") for ln in lines)
    assert "- option dealer_dead_card: only in Oicho-Kabu" in lines
    assert len(lines) > 5


def test_cli_diff_with_house_file():
    r = cli("diff", "kyo-kabu", "--house", FAMILY)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "kyo-kabu -> kyo-kabu with your changes"
    assert "- option tie: push -> dealer (house rules tests/fixtures/house/family.yaml:6:8)" in r.stdout


def test_cli_explain_names_the_house_file_line():
    r = cli("explain", "kyo-kabu", "options.tie", "--house", FAMILY)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == \
        "  in effect: tie = 'dealer' (from house rules tests/fixtures/house/family.yaml:6:8)"


def test_cli_simulate_compare_prints_change_with_interval():
    r = cli("simulate", "kyo-kabu", "--rounds", "300", "--compare", "-o", "tie=dealer")
    assert r.returncode == 0, r.stderr
    assert "- option tie: push -> dealer (-o on the command line)" in r.stdout
    assert "paired comparison over 300 seeded single rounds" in r.stdout
    rows = re.findall(r"^  seat (\d+)\s+([+-]\d+\.\d+)\s+\[([+-]\d+\.\d+), ([+-]\d+\.\d+)\]$", r.stdout, re.M)
    assert len(rows) == 5
    seat, change, lo, hi = rows[0]
    assert seat == "0" and float(lo) <= float(change) <= float(hi)
    assert float(lo) > 0  # the dealer (seat 0) gains from taking ties, clearly
    assert sum(float(r_[1]) for r_ in rows) == pytest.approx(0, abs=1e-3)  # chips only move between seats


def test_cli_unknown_option_exits_1_with_suggestions():
    r = cli("play", "kyo-kabu", "-o", "nosuch=1")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "error[E050]: unknown option 'nosuch' for kyo-kabu" in r.stderr
    assert "help: options of this game: " in r.stderr and "tie (who wins" in r.stderr
    r = cli("play", "kyo-kabu", "-o", "ties=dealer")
    assert r.returncode == 1
    assert "help: did you mean 'tie' (" in r.stderr


def test_cli_bad_option_value_exits_1_listing_allowed_values():
    r = cli("simulate", "kyo-kabu", "--rounds", "10", "-o", "tie=maybe")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "error[E050]: option 'tie': expected one of push, dealer, found 'maybe'" in r.stderr


# ---------------------------------------------------------------- more overlay cases (files written here)

def write(tmp_path, name: str, text: str) -> str:
    p = tmp_path / f"{name}.yaml"
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_adding_and_removing_yaku_show_in_diff(tmp_path):
    f = write(tmp_path, "yaku", """\
target: kyo-kabu
yaku:
  column:
    - id: pinzoro
      names: {en: Three ones}
      when: "count(cards) == 3 and all(cards, c -> c.value == 1)"
      value: 5
      description: Three ones in a column.
  dealer:
    - id: kuppin
      remove: true
""")
    v = load_variant(KYO, house=[f])
    g = build_game(v)
    assert [y.id for y in g.yaku["column"]][-1] == "pinzoro"
    assert "kuppin" not in [y.id for y in g.yaku["dealer"]]
    rel = os.path.relpath(f)
    lines = diff_games(build_game(load_variant(KYO)), g)
    assert f"yaku Three ones [pinzoro] (column): new in Kyō-Kabu — Three ones in a column. (house rules {rel}:4:7)" in lines
    assert any(ln.startswith("yaku ") and ln.endswith(f"(dealer): removed (house rules {rel}:10:11)")
               for ln in lines)
    # without Kuppin the dealer's 9-1 is just a 0: the stacked Kuppin round now loses to the column
    top, script = ["9-1", "2-1", "1-2", "1-3", "1-4", "1-1"], {"bet": [{"col": 0, "amount": 1}],
                                                               "dealer_third": [{"take": False}]}
    assert run(build_game(load_variant(KYO)), 2, top, by_choice=script).chips == [1, -1]
    assert run(g, 2, top, by_choice=script).chips == [-1, 1]


def test_removing_or_adding_an_unknown_yaku_needs_a_real_id_or_a_condition(tmp_path):
    f = write(tmp_path, "bad", """\
target: kyo-kabu
yaku:
  dealer:
    - id: kupin
      remove: true
  columns:
    - id: x
      when: "false"
""")
    with pytest.raises(RulekitError) as exc:
        load_variant(KYO, house=[f])
    got = [(d.span.line, d.span.col, d.message, d.hint) for d in exc.value.diagnostics]
    assert got == [(4, 11, "house rules: no yaku 'kupin' in table 'dealer' to remove", "did you mean 'kuppin'?"),
                   (6, 3, "house rules: the variant has no yaku table 'columns'", "did you mean 'column'?")]


def test_game_and_players_conflict_only_when_values_differ(tmp_path):
    a = write(tmp_path, "a", "target: kyo-kabu\ngame: {start_chips: 50}\nplayers: {default: 4}\n")
    b = write(tmp_path, "b", "target: kyo-kabu\ngame: {start_chips: 50}\nplayers: {default: 4}\n")
    c = write(tmp_path, "c", "target: kyo-kabu\ngame: {start_chips: 60}\nplayers: {default: 3}\n")
    v = load_variant(KYO, house=[a, b])
    assert v.meta.players_default == 4 and build_game(v).start_chips == 50
    with pytest.raises(RulekitError) as exc:
        load_variant(KYO, house=[a, c])
    assert [d.message for d in exc.value.diagnostics] == [
        f"conflict: game.start_chips = 60 here, but 50 in {os.path.relpath(a)}:2:21",
        f"conflict: players.default = 3 here, but 4 in {os.path.relpath(a)}:3:20"]

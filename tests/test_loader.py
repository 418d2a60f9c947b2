"""`extends`: child over parent, lists merged by id, cycles/missing parents/depth, and provenance."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulekit.engine.build import build_game, check_variant, load_variant
from rulekit.core.errors import RulekitError, render_all
from rulekit.lang.loader import MAX_EXTENDS_DEPTH, at, load_tree, plain

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "fixtures" / "valid"

PARENT = """\
id: base
meta:
  names: {en: Base}
  family: fishing
players: {min: 2, max: 4}
decks:
  hanafuda: {}
options:
  hand_size: {type: int, default: 4, min: 1, max: 8, description: Cards each.}
  bonus: {type: bool, default: false, description: A bonus.}
zones:
  deck: {}
  hand: {per: player, visibility: owner}
yaku:
  hand:
    - {id: brights, when: "count(filter(cards, c -> c.type == 'bright')) >= 2", value: 5, rank: 2}
    - {id: pair, when: "count(distinct(map(cards, c -> c.month))) < count(cards)", value: 1, rank: 1}
    - {id: no-chaff, when: "all(cards, c -> c.type != 'chaff')", value: 3}
round:
  - id: deal
    name: Deal
    steps:
      - shuffle: deck
      - deal: {to: hand, count: opt.hand_size}
  - id: show
    name: Show
    steps:
      - for: p
        in: seats
        do:
          - reveal: "hand[p]"
"""

ROOT_ONLY = "id: {id}\nmeta:\n  names: {{en: X}}\nabstract: true\n"


def write(folder: Path, name: str, text: str) -> str:
    (folder / name).write_text(text, encoding="utf-8")
    return name


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A scratch folder that is also the working directory (diagnostics name files as 'x.yaml')."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def first_error(path: str, search: list[str] | None = None):
    with pytest.raises(RulekitError) as exc:
        load_variant(path, search)
    return exc.value.first


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# --------------------------------------------------------------------------- merging


def test_child_overrides_parent_option_default(here):
    write(here, "base.yaml", PARENT)
    write(here, "child.yaml", "id: child\nextends: base.yaml\n"
          "options:\n  hand_size: {default: 2}\n")
    v = load_variant("child.yaml")
    assert v.options["hand_size"].default == 2
    assert v.options["hand_size"].max == 8  # the rest of the option comes from the parent
    assert v.options["bonus"].default is False
    assert load_variant("base.yaml").options["hand_size"].default == 4
    assert v.meta.id == "child" and v.meta.names == {"en": "Base"}
    assert v.files == ("child.yaml", "base.yaml")


def test_yaku_merged_by_id(here):
    write(here, "base.yaml", PARENT)
    write(here, "child.yaml", """\
id: child
extends: base.yaml
yaku:
  hand:
    - {id: brights, value: 10}
    - {id: no-chaff, remove: true}
    - {id: animals, when: "all(cards, c -> c.type == 'animal')", value: 7}
""")
    v = load_variant("child.yaml")
    table = plain(at(v.tree, "yaku", "hand"))
    assert [y["id"] for y in table] == ["brights", "pair", "animals"]
    brights = table[0]
    assert brights["value"] == 10 and brights["rank"] == 2  # overridden value, inherited rank
    assert brights["when"].startswith("count(filter(cards")
    g = build_game(v)
    assert [y.id for y in g.yaku["hand"]] == ["brights", "pair", "animals"]


def test_phases_merged_by_id(here):
    write(here, "base.yaml", PARENT)
    write(here, "child.yaml", """\
id: child
extends: base.yaml
round:
  - id: show
    name: Showdown
  - id: bonus
    when: opt.bonus
    steps:
      - say: bonus round
  - id: deal
    steps:
      - shuffle: deck
      - deal: {to: hand, count: 1}
""")
    v = load_variant("child.yaml")
    phases = plain(at(v.tree, "round"))
    assert [p["id"] for p in phases] == ["deal", "show", "bonus"]  # parent order, new ones last
    assert phases[0]["name"] == "Deal" and phases[0]["steps"][1]["deal"]["count"] == 1  # steps replaced
    assert phases[1]["name"] == "Showdown" and phases[1]["steps"][0]["for"] == "p"  # steps inherited
    assert check_variant("child.yaml") == []


def test_phase_removed_by_id(here):
    write(here, "base.yaml", PARENT)
    write(here, "child.yaml", "id: child\nextends: base.yaml\nround:\n  - {id: show, remove: true}\n")
    assert [p["id"] for p in plain(at(load_variant("child.yaml").tree, "round"))] == ["deal"]


# a parent with one entry of every named-map section, for `name: {remove: true}`
RICH = PARENT.replace("decks:\n  hanafuda: {}\n", """\
decks:
  hanafuda: {}
  short: {from: hanafuda, remove: "c.month == 12", description: Without December.}
presets:
  quick: {description: Short hands., options: {hand_size: 2}}
vars:
  score: {per: player, init: 0, description: Points.}
procedures:
  reveal_all:
    steps:
      - for: p
        in: seats
        do:
          - reveal: "hand[p]"
policies:
  keen: {description: Always the first action., rules: []}
""").replace("  hand: {per: player, visibility: owner}\n", "  hand: {per: player, visibility: owner}\n  pile: {}\n")


def test_option_removed_by_name(here):
    write(here, "base.yaml", PARENT)
    write(here, "child.yaml", "id: child\nextends: base.yaml\noptions:\n  bonus: {remove: true}\n")
    v = load_variant("child.yaml")
    assert list(v.options) == ["hand_size"]
    assert "bonus" in load_variant("base.yaml").options  # the parent itself is unchanged
    assert check_variant("child.yaml") == []


@pytest.mark.parametrize("section,name", [
    ("options", "bonus"), ("presets", "quick"), ("zones", "pile"), ("vars", "score"),
    ("decks", "short"), ("procedures", "reveal_all"), ("policies", "keen"),
])
def test_every_named_map_entry_can_be_removed(here, section, name):
    write(here, "base.yaml", RICH)
    before = plain(at(load_variant("base.yaml").tree, section))
    assert name in before
    write(here, "child.yaml", f"id: child\nextends: base.yaml\n{section}:\n  {name}: {{remove: true}}\n")
    after = plain(at(load_variant("child.yaml").tree, section))
    assert list(after) == [k for k in before if k != name]  # only that entry is gone
    assert check_variant("child.yaml") == []


def test_rule_of_the_child_using_a_removed_option_is_an_unknown_option(here):
    write(here, "base.yaml", PARENT)
    child = ("id: child\nextends: base.yaml\noptions:\n  bonus: {remove: true}\n"
             "round:\n  - id: extra\n    when: opt.bonus\n    steps:\n      - say: bonus\n")
    write(here, "child.yaml", child)
    diags = check_variant("child.yaml")
    assert [(str(d.span), d.code) for d in diags] == [("child.yaml:7:15", "E031")]
    assert diags[0].message == "when: unknown option 'bonus'"


def test_rule_of_the_parent_using_a_removed_option_is_reported_at_the_removal(here):
    write(here, "base.yaml", PARENT)
    write(here, "child.yaml", "id: child\nextends: base.yaml\noptions:\n  hand_size: {remove: true}\n")
    diags = check_variant("child.yaml")
    line = line_of(PARENT, "count: opt.hand_size")
    col = PARENT.splitlines()[line - 1].index("hand_size") + 1
    # where the author can act: the removal, once; the parent's use is the note
    assert [(str(d.span), d.code) for d in diags] == [("child.yaml:4:3", "E031")]
    assert diags[0].message.startswith("'hand_size' is removed here, but base.yaml (which this file extends) "
                                       "still uses it: ")
    assert "unknown option 'hand_size'" in diags[0].message
    assert diags[0].hint.startswith(f"used at base.yaml:{line}:{col}")
    with pytest.raises(RulekitError) as exc:  # building the game (play, simulate) says the same
        build_game(load_variant("child.yaml"))
    assert str(exc.value.first.span) == "child.yaml:4:3"


def test_a_removed_name_used_twice_in_the_parent_is_one_error(here):
    write(here, "base.yaml", PARENT.replace("    steps:\n      - for: p", "    when: opt.bonus\n    steps:\n      - for: p")
          .replace("  - id: deal\n", "  - id: deal\n    when: opt.bonus\n"))
    write(here, "child.yaml", "id: child\nextends: base.yaml\noptions:\n  bonus: {remove: true}\n")
    diags = check_variant("child.yaml")
    assert [(str(d.span), d.code) for d in diags] == [("child.yaml:4:3", "E031")]
    assert diags[0].hint.count("base.yaml:") == 2


def test_removing_what_is_not_inherited_is_an_error(here):
    write(here, "base.yaml", PARENT)
    write(here, "child.yaml", "id: child\nextends: base.yaml\noptions:\n  bonsu: {remove: true}\n")
    d = first_error("child.yaml")
    assert (str(d.span), d.code) == ("child.yaml:4:3", "E040")
    assert d.hint == "did you mean 'bonus'?"


def test_removal_in_a_file_that_extends_nothing_is_an_error(here):
    write(here, "alone.yaml", PARENT + "presets:\n  quick: {remove: true}\n")
    d = first_error("alone.yaml")
    assert (str(d.span), d.code) == (f"alone.yaml:{len(PARENT.splitlines()) + 2}:3", "E040")
    assert "extends no other" in d.message


def test_remove_with_other_keys_is_not_a_removal(here):
    # {remove: true} must be the whole entry: with another key it is an ordinary (and here wrong) override
    write(here, "base.yaml", PARENT)
    write(here, "child.yaml", "id: child\nextends: base.yaml\noptions:\n  bonus: {remove: true, default: true}\n")
    d = first_error("child.yaml")
    assert (str(d.span), d.code) == ("child.yaml:4:11", "E010")
    assert d.message.startswith("unknown key 'remove'")


def test_fixture_child_extends_fixture_parent():
    v = load_variant(str(FIX / "hana-mini-short.yaml"))
    parent = load_variant(str(FIX / "hana-mini.yaml"))
    assert v.options["hand_size"].default == 3 and parent.options["hand_size"].default == 4
    assert (v.meta.players_min, v.meta.players_max) == (2, 5)
    assert [y["id"] for y in plain(at(v.tree, "yaku", "hand"))] == ["brights", "month-pair", "all-animals"]
    assert plain(at(v.tree, "round", 0, "name")) == "The short deal"
    assert len(plain(at(v.tree, "round", 0, "steps"))) == 2


def test_child_of_abstract_parent_is_playable(here):
    write(here, "base.yaml", PARENT.replace("id: base\n", "id: base\nabstract: true\n"))
    write(here, "child.yaml", "id: child\nextends: base.yaml\n")
    assert load_variant("base.yaml").meta.abstract
    assert not load_variant("child.yaml").meta.abstract
    assert check_variant("child.yaml") == []


def test_extends_by_id_uses_the_search_path(here):
    (here / "lib").mkdir()
    write(here / "lib", "base-game.yaml", PARENT)
    write(here, "child.yaml", "id: child\nextends: base-game\n")
    v = load_variant("child.yaml", [str(here / "lib")])
    assert v.files[0] == "child.yaml"
    assert Path(v.files[1]).resolve() == (here / "lib" / "base-game.yaml").resolve()


# --------------------------------------------------------------------------- errors


def test_cycle_reported_at_the_extends_line(here):
    write(here, "a.yaml", "id: a\nmeta:\n  names: {en: A}\nextends: b.yaml\n")
    write(here, "b.yaml", "id: b\nextends: a.yaml\nmeta:\n  names: {en: B}\n")
    d = first_error("a.yaml")
    assert (str(d.span), d.code) == ("b.yaml:2:10", "E021")
    assert d.message == "extends: cycle a.yaml -> b.yaml -> a.yaml"
    d = first_error("b.yaml")
    assert (str(d.span), d.code) == ("a.yaml:4:10", "E021")


def test_self_extension_is_a_cycle(here):
    write(here, "a.yaml", "id: a\nextends: a.yaml\n")
    d = first_error("a.yaml")
    assert (str(d.span), d.code) == ("a.yaml:2:10", "E021")


def test_missing_parent_by_id_with_did_you_mean(here):
    (here / "lib").mkdir()
    write(here / "lib", "base-game.yaml", PARENT)
    write(here, "child.yaml", "id: child\nextends: base-gam\n")
    d = first_error("child.yaml", [str(here / "lib")])
    assert (str(d.span), d.code) == ("child.yaml:2:10", "E020")
    assert d.message == "extends: no variant 'base-gam' found"
    assert d.hint == "did you mean 'base-game'?"


def test_missing_parent_by_path_suggests_nearby_files(here):
    write(here, "base-game.yaml", PARENT)
    write(here, "child.yaml", "id: child\nmeta: {names: {en: C}}\nextends: base-gme.yaml\n")
    d = first_error("child.yaml", [])
    assert (str(d.span), d.code) == ("child.yaml:3:10", "E020")
    assert d.hint == "did you mean 'base-game.yaml'?"


def test_missing_parent_is_reported_by_check_variant(here):
    write(here, "child.yaml", "id: child\nextends: nowhere.yaml\n")
    diags = check_variant("child.yaml")
    assert [(str(d.span), d.code) for d in diags] == [("child.yaml:2:10", "E020")]
    assert "child.yaml:2:10: error[E020]" in render_all(diags)


def chain(folder: Path, n: int) -> None:
    """f0 extends f1 extends ... f(n-1), which extends nothing."""
    for i in range(n):
        ext = f"extends: f{i + 1}.yaml\n" if i < n - 1 else ""
        write(folder, f"f{i}.yaml", f"id: f{i}\n{ext}" + ("" if ext else PARENT.split("\n", 1)[1]))


def test_extends_chain_at_the_depth_limit_loads(here):
    chain(here, MAX_EXTENDS_DEPTH + 1)  # the file and 8 ancestors
    v = load_variant("f0.yaml")
    assert len(v.files) == MAX_EXTENDS_DEPTH + 1 and v.meta.id == "f0"


def test_extends_chain_too_deep(here):
    chain(here, MAX_EXTENDS_DEPTH + 2)
    d = first_error("f0.yaml")
    assert (str(d.span), d.code) == (f"f{MAX_EXTENDS_DEPTH}.yaml:2:10", "E022")
    assert str(MAX_EXTENDS_DEPTH) in d.message


def test_extends_outside_the_allowed_folders(here):
    (here / "inner").mkdir()
    write(here, "base.yaml", PARENT)
    write(here / "inner", "child.yaml", "id: child\nextends: ../base.yaml\n")
    d = first_error("inner/child.yaml", [str(here / "inner")])
    assert (str(d.span), d.code) == ("inner/child.yaml:2:10", "E022")


def test_extends_must_be_a_string(here):
    write(here, "child.yaml", "id: child\nextends: [a.yaml, b.yaml]\n")
    d = first_error("child.yaml")
    assert (str(d.span), d.code) == ("child.yaml:2:10", "E010")


# --------------------------------------------------------------------------- provenance


def test_expression_error_in_parent_is_located_in_parent(here):
    bad = PARENT.replace('value: 3}', 'value: "3 +"}')
    write(here, "base.yaml", bad)
    write(here, "child.yaml", "id: child\nextends: base.yaml\noptions:\n  hand_size: {default: 2}\n")
    diags = check_variant("child.yaml")
    assert diags, "the parent's error must be reported when checking the child"
    d = diags[0]
    line = line_of(bad, 'value: "3 +"')
    # the caret stands at the end of the expression: after the opening quote and the 3 characters '3 +'
    col = bad.splitlines()[line - 1].index('"3 +"') + 1 + 1 + 3
    assert (d.span.file, d.span.line, d.code) == ("base.yaml", line, "E030")
    assert d.span.col == col
    assert '"3 +"' in render_all(diags[:1])  # the quoted source line is the parent's


def test_schema_error_in_parent_is_located_in_parent(here):
    bad = PARENT.replace("  hand: {per: player, visibility: owner}", "  hand: {per: player, visiblity: owner}")
    write(here, "base.yaml", bad)
    write(here, "child.yaml", "id: child\nextends: base.yaml\n")
    d = first_error("child.yaml")
    assert (d.span.file, d.span.line, d.code) == ("base.yaml", line_of(bad, "visiblity"), "E010")
    assert d.hint == "did you mean 'visibility'?"


def test_error_in_child_override_is_located_in_child(here):
    write(here, "base.yaml", PARENT)
    child = "id: child\nextends: base.yaml\nyaku:\n  hand:\n    - {id: pair, when: \"count(cardz) > 1\"}\n"
    write(here, "child.yaml", child)
    d = check_variant("child.yaml")[0]
    assert (str(d.span), d.code) == ("child.yaml:5:31", "E031")


def test_spans_of_merged_tree_keep_their_file(here):
    write(here, "base.yaml", PARENT)
    write(here, "child.yaml", "id: child\nextends: base.yaml\nyaku:\n  hand:\n    - {id: brights, value: 10}\n")
    tree, files = load_tree("child.yaml")
    assert files == ["child.yaml", "base.yaml"]
    assert at(tree, "yaku", "hand", 0, "value").span.file == "child.yaml"
    assert at(tree, "yaku", "hand", 0, "when").span.file == "base.yaml"
    assert at(tree, "round", 1, "steps").span.file == "base.yaml"


# --------------------------------------------------------------------------- placement (before:/after:)


def test_new_phase_placed_after_an_inherited_one(here):
    write(here, "base.yaml", PARENT)
    write(here, "child.yaml", "id: child\nextends: base.yaml\nround:\n  - id: peek\n    after: deal\n"
                              "    steps:\n      - say: a look\n")
    v = load_variant("child.yaml")
    assert [p["id"] for p in plain(at(v.tree, "round"))] == ["deal", "peek", "show"]
    assert "after" not in plain(at(v.tree, "round"))[1]  # placement is not a rule of the phase
    assert check_variant("child.yaml") == []


def test_inherited_phase_moved_with_before(here):
    write(here, "base.yaml", PARENT)
    write(here, "child.yaml", "id: child\nextends: base.yaml\nround:\n  - id: show\n    before: deal\n")
    v = load_variant("child.yaml")
    phases = plain(at(v.tree, "round"))
    assert [p["id"] for p in phases] == ["show", "deal"]
    assert phases[0]["name"] == "Show"  # moved, not replaced: its steps are inherited


def test_new_yaku_placed_before_an_inherited_one(here):
    write(here, "base.yaml", PARENT)
    write(here, "child.yaml", "id: child\nextends: base.yaml\nyaku:\n  hand:\n"
                              "    - {id: trio, before: pair, when: 'count(cards) == 3', value: 2}\n")
    v = load_variant("child.yaml")
    assert [y["id"] for y in plain(at(v.tree, "yaku", "hand"))] == ["brights", "trio", "pair", "no-chaff"]


def test_placement_after_an_unknown_id_is_located_with_did_you_mean(here):
    write(here, "base.yaml", PARENT)
    text = "id: child\nextends: base.yaml\nround:\n  - id: peek\n    after: dael\n    steps:\n      - say: a look\n"
    write(here, "child.yaml", text)
    err = first_error("child.yaml")
    assert (str(err.span), err.code) == ("child.yaml:5:12", "E040")
    assert err.message == "'peek': after: expected the id of an item of this list, found 'dael'"
    assert "deal" in err.hint


def test_placement_before_and_after_together_is_an_error(here):
    write(here, "base.yaml", PARENT)
    write(here, "child.yaml", "id: child\nextends: base.yaml\nround:\n  - {id: peek, before: show, after: deal}\n")
    err = first_error("child.yaml")
    assert err.code == "E040" and "not both" in err.message


def test_placement_in_a_file_that_extends_nothing_is_an_error(here):
    write(here, "solo.yaml", PARENT.replace("  - id: show\n", "  - id: show\n    after: deal\n"))
    err = first_error("solo.yaml")
    assert err.code == "E040" and "extends no other" in err.message
    assert str(err.span).startswith(f"solo.yaml:{line_of(PARENT, '- id: show') + 1}:")


def test_phase_appended_after_the_parents_last_warns_when_it_shares_state(here):
    write(here, "base.yaml", PARENT)
    child = "id: child\nextends: base.yaml\nround:\n  - id: peek\n    steps:\n      - reveal: 'hand[0]'\n"
    write(here, "child.yaml", child)
    diags = check_variant("child.yaml")
    assert [(str(d.span), d.severity) for d in diags] == [("child.yaml:4:9", "warning")]
    assert "after the inherited phase 'show'" in diags[0].message and "'hand'" in diags[0].message
    assert "after: show" in diags[0].hint
    write(here, "child.yaml", child.replace("- id: peek\n", "- id: peek\n    after: show\n"))
    assert check_variant("child.yaml") == []  # said on purpose: no warning


def test_the_field_multiplier_fixture_places_its_phase_and_yaku():
    v = load_variant(str(FIX / "field-multiplier.yaml"))
    ids = [p["id"] for p in plain(at(v.tree, "round"))]
    assert ids[ids.index("misdeal") + 1] == "field" and ids.index("field") < ids.index("teyaku")
    yaku = [y["id"] for y in plain(at(v.tree, "yaku", "dekiyaku"))]
    assert yaku[yaku.index("all-august") + 1] == "moon-viewing"


def test_diff_reads_placement_as_changes(here):
    from rulekit.analysis.compare import diff_games
    base = build_game(load_variant(str(ROOT / "variants" / "hanafuda" / "hana-awase.yaml")))
    child = build_game(load_variant(str(FIX / "field-multiplier.yaml")))
    lines = diff_games(base, child)
    assert lines[0] == "phase 'Field multiplier': new in Hana-awase with a field multiplier, played after " \
                       "'Misdeal check'"
    assert not any("only in" in ln for ln in lines)  # nothing reads as removed
    assert any(ln.startswith("yaku All of August [all-august] (dekiyaku): new in") and "listed after" in ln
               for ln in lines)
    write(here, "base.yaml", PARENT)
    write(here, "child.yaml", "id: child\nextends: base.yaml\nround:\n  - id: show\n    before: deal\n")
    moved = diff_games(build_game(load_variant("base.yaml")), build_game(load_variant("child.yaml")))
    # two phases changed places: one of them reads as moved (the fewest moves that explain the order)
    assert moved in (["phase 'Show': moved, now first"], ["phase 'Deal': moved, now after 'Show'"])
    assert not any("only in" in ln or "new in" in ln for ln in moved)


# --------------------------------------------------------------------------- finding variants by id


def test_rulekit_path_adds_folders_searched_for_ids(here, monkeypatch):
    from rulekit.lang.loader import command_name, default_search_path
    mine = here / "my-games"
    mine.mkdir()
    write(mine, "base.yaml", PARENT)
    write(mine, "child.yaml", "id: child\nextends: base\n")
    other = here / "elsewhere"
    other.mkdir()
    monkeypatch.chdir(other)
    with pytest.raises(RulekitError):
        load_variant("child")  # not found: ./variants and the shipped ones only
    monkeypatch.setenv("RULEKIT_PATH", str(mine))
    assert default_search_path()[0] == str(mine)
    v = load_variant("child")  # by id, and its parent by id, from the folder the variable names
    assert v.meta.id == "child"
    assert command_name("child", v.file) == "child"


def test_a_file_outside_the_search_path_is_named_by_its_path(here):
    from rulekit.lang.loader import command_name
    write(here, "base.yaml", PARENT)
    write(here, "child.yaml", "id: child\nextends: base.yaml\n")
    v = load_variant("child.yaml")
    assert command_name(v.meta.id, v.file) == "child.yaml"  # `rulekit play child` would not find it
    assert command_name("hana-awase", str(ROOT / "variants" / "hanafuda" / "hana-awase.yaml")) == "hana-awase"


def test_the_rules_of_a_file_outside_variants_suggest_its_path(here):
    import subprocess
    import sys
    write(here, "mine.yaml", (ROOT / "docs" / "tutorial" / "first-variant.yaml").read_text(encoding="utf-8"))
    out = subprocess.run([sys.executable, "-m", "rulekit", "rules", "mine.yaml"], capture_output=True, text=True,
                         cwd=here, timeout=120, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)}).stdout
    assert "(to play it: rulekit play mine.yaml -o" in out and "rulekit play last-digit" not in out

"""The JSON Schemas of variant and deck files: documented, valid, strict, and matched by every file."""
from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

from rulekit.engine.build import load_variant
from rulekit.engine.steps import STEP_KINDS
from rulekit.core.errors import RulekitError
from rulekit.lang.loader import load_tree, plain

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = {name: ROOT / "schemas" / f"{name}.schema.json" for name in ("variant", "deck")}
VARIANT_FILES = sorted((ROOT / "variants").rglob("*.yaml"))
VALID_FIXTURES = sorted((ROOT / "tests" / "fixtures" / "valid").glob("*.yaml"))
DECK_FILES = sorted((ROOT / "rulekit" / "lang" / "decks").glob("*.yaml"))


def schema(name: str) -> dict:
    return json.loads(SCHEMAS[name].read_text(encoding="utf-8"))


def undocumented(node, where: str = "#") -> list[str]:
    """Every property schema and $defs entry below `node` that has no description."""
    out = []
    if isinstance(node, dict):
        for group in ("properties", "$defs"):
            for name, sub in (node.get(group) or {}).items():
                if not isinstance(sub, dict) or not str(sub.get("description", "")).strip():
                    out.append(f"{where}/{group}/{name}")
        for key, sub in node.items():
            out += undocumented(sub, f"{where}/{key}")
    elif isinstance(node, list):
        for i, sub in enumerate(node):
            out += undocumented(sub, f"{where}/{i}")
    return out


def rel(p: Path) -> str:
    return str(p.relative_to(ROOT))


# --------------------------------------------------------------------------- the schemas themselves


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_schema_is_valid_draft_2020_12(name):
    s = schema(name)
    assert s["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(s)


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_every_property_and_def_has_a_description(name):
    s = schema(name)
    assert s.get("description")
    assert undocumented(s) == []


def test_every_step_kind_of_the_engine_is_in_the_schema():
    step = schema("variant")["$defs"]["step"]
    assert set(STEP_KINDS) <= set(step["properties"])
    assert step["additionalProperties"] is False and step["minProperties"] == 1


def test_variant_schema_refs_all_resolve():
    s = schema("variant")
    refs = set(re.findall(r'"\$ref": "#/\$defs/([A-Za-z]+)"', json.dumps(s)))
    assert refs <= set(s["$defs"])
    unused = set(s["$defs"]) - refs
    assert unused == set(), f"unused $defs: {unused}"


# --------------------------------------------------------------------------- every file validates


def merged(path: Path) -> dict:
    tree, _files = load_tree(str(path))
    return plain(tree)


@pytest.mark.parametrize("path", VARIANT_FILES + VALID_FIXTURES, ids=rel)
def test_variant_file_validates(path):
    validator = jsonschema.Draft202012Validator(schema("variant"))
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(merged(path))]
    assert errors == []


@pytest.mark.parametrize("path", VARIANT_FILES + VALID_FIXTURES, ids=rel)
def test_variant_file_loads(path):
    load_variant(str(path))  # the loader validates against the schema and raises on errors


def test_there_are_variant_files():
    assert VARIANT_FILES, "no variant files found"


@pytest.mark.parametrize("path", DECK_FILES, ids=rel)
def test_deck_file_validates(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema("deck"))
    assert [e.message for e in validator.iter_errors(data)] == []


# --------------------------------------------------------------------------- strictness

MINIMAL = {
    "id": "x",
    "meta": {"names": {"en": "X"}},
    "decks": {"kabufuda": {}},
    "zones": {"deck": {}, "hand": {"per": "player"}},
    "options": {"tie": {"type": "choice", "default": "push", "values": {"push": "p", "dealer": "d"}}},
    "vars": {"total": {"init": 0}},
    "yaku": {"hand": [{"id": "pair", "when": "true", "value": 1}]},
    "round": [{"id": "deal", "steps": [{"shuffle": "deck"}, {"deal": {"to": "hand", "count": 2}}]}],
}


def errors_of(data) -> list[jsonschema.ValidationError]:
    return list(jsonschema.Draft202012Validator(schema("variant")).iter_errors(data))


def test_minimal_variant_is_valid():
    assert errors_of(MINIMAL) == []


def with_change(path: tuple, value) -> dict:
    data = json.loads(json.dumps(MINIMAL))
    node = data
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return data


@pytest.mark.parametrize("path,value", [
    (("zone",), {}),                                          # typo of a top-level key
    (("meta", "summay"), "s"),                                # typo in meta
    (("meta", "names", "jp"), "x"),                           # unknown language key
    (("options", "tie", "defualt"), "push"),                  # typo in an option
    (("zones", "hand", "visiblity"), "owner"),                # typo in a zone
    (("vars", "total", "inti"), 0),                           # typo in a variable
    (("yaku", "hand", 0, "vaule"), 1),                        # typo in a yaku entry
    (("round", 0, "step"), []),                               # typo in a phase
    (("round", 0, "steps", 1, "deal", "cuont"), 2),           # typo in a step's parameter mapping
    (("round", 0, "steps", 0, "shufle"), "deck"),             # unknown step key
])
def test_unknown_keys_are_rejected(path, value):
    errs = errors_of(with_change(path, value))
    assert [e.validator for e in errs] == ["additionalProperties"]


@pytest.mark.parametrize("path,value,validator", [
    (("players",), {"min": "two"}, "type"),
    (("options", "tie", "type"), "enum", "enum"),
    (("options", "flag"), {"type": "bool", "default": "yes"}, "type"),
    (("options", "n"), {"type": "int", "default": 1.5}, "type"),
    (("options", "c"), {"type": "choice", "default": "a"}, "required"),
    (("zones", "hand", "visibility"), "secret", "enum"),
    (("zones", "Bad-Name"), {}, "pattern"),
    (("vars", "in"), {}, "not"),
    (("round", 0, "steps", 0), {}, "minProperties"),
    (("round", 0, "steps", 1, "deal", "face"), "sideways", "enum"),
    (("round", 0, "steps", 0, "if_none"), "ignore", "enum"),
    (("meta", "sources"), [{"title": "t", "url": "ftp://x"}], "pattern"),
])
def test_wrong_values_are_rejected(path, value, validator):
    assert [e.validator for e in errors_of(with_change(path, value))] == [validator]


def test_abstract_variant_needs_no_round():
    data = with_change(("abstract",), True)
    del data["round"]
    assert errors_of(data) == []
    data["abstract"] = False
    assert [e.validator for e in errors_of(data)] == ["required"]


def test_loader_reports_schema_errors_at_the_key(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "v.yaml").write_text("id: v\nmeta:\n  names: {en: V}\n  summay: s\nround: []\n", encoding="utf-8")
    with pytest.raises(RulekitError) as exc:
        load_variant("v.yaml")
    d = exc.value.first
    assert (str(d.span), d.code) == ("v.yaml:4:3", "E010")
    assert d.hint == "did you mean 'summary'?"


# --------------------------------------------------------------------------- the schemas editors read

ANALYST = ROOT / "docs" / "guides" / "analyst"
HOUSE_FILES = sorted([*(ROOT / "docs" / "guides").glob("*.yaml"), *ANALYST.glob("*-house.yaml"),
                      *(ROOT / "tests" / "fixtures" / "house").glob("family*.yaml"),
                      *(ROOT / "tests" / "fixtures" / "house").glob("conflict-*.yaml")])
STATS_FILES = sorted(p for p in ANALYST.glob("*.yaml") if p not in HOUSE_FILES)
EDITED = ([(p, "variant") for p in VARIANT_FILES + VALID_FIXTURES + [ROOT / "docs" / "tutorial" / "first-variant.yaml"]]
          + [(p, "deck") for p in DECK_FILES] + [(p, "house") for p in HOUSE_FILES]
          + [(p, "stats") for p in STATS_FILES])
SCHEMA_ERROR_FIXTURES = [p for p in sorted((ROOT / "tests" / "fixtures" / "invalid").glob("*.yaml"))
                         if b"error[E010]" in p.read_bytes().splitlines()[0]]
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(\S+)$", re.M)


def raw_errors(path: Path, kind: str) -> list[str]:
    """The file as an editor sees it (the file alone, no parent merged) against the published schema."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(json.loads((ROOT / "schemas" / f"{kind}.schema.json").read_text()))
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(data)]


@pytest.mark.parametrize("path,kind", EDITED, ids=lambda x: rel(x) if isinstance(x, Path) else x)
def test_each_file_alone_is_valid_under_its_published_schema(path, kind):
    # an extends child (hiraya.yaml, kyo-kabu.yaml, hana-mini-short.yaml) changes inherited
    # options in part: the schema an editor reads must not call that an error
    assert raw_errors(path, kind) == []


def test_the_children_are_among_the_files_checked_alone():
    children = [p for p, kind in EDITED if kind == "variant" and "\nextends:" in p.read_text(encoding="utf-8")]
    assert {p.name for p in children} >= {"hiraya.yaml", "kyo-kabu.yaml", "hana-mini-short.yaml",
                                          "field-multiplier.yaml"}


@pytest.mark.parametrize("path", SCHEMA_ERROR_FIXTURES, ids=rel)
def test_a_file_rulekit_refuses_at_the_schema_stage_is_refused_by_the_published_schema(path):
    assert check_errors(path) and raw_errors(path, "variant")


def check_errors(path: Path) -> list:
    from rulekit.engine.build import check_variant
    return [d for d in check_variant(str(path)) if d.code == "E010"]


def test_a_whole_variant_still_needs_option_types_and_a_round():
    broken = dict(MINIMAL, options={"tie": {"default": "push"}})
    assert [e.message for e in errors_of(broken)] == ["'type' is a required property"]
    assert [e.message for e in errors_of({k: v for k, v in MINIMAL.items() if k != "round"})] == \
        ["'round' is a required property"]
    child = {"extends": "x", "options": {"tie": {"default": "dealer"}}}  # a child may change a default only
    assert errors_of(child) == []


@pytest.mark.parametrize("path,kind", EDITED, ids=lambda x: rel(x) if isinstance(x, Path) else x)
def test_each_file_names_its_schema_for_editors(path, kind):
    m = MODELINE.search(path.read_text(encoding="utf-8"))
    assert m, f"{rel(path)}: no '# yaml-language-server: $schema=...' line"
    target = (path.parent / m.group(1)).resolve()
    assert target == (ROOT / "schemas" / f"{kind}.schema.json").resolve()


def test_check_jsonschema_accepts_every_shipped_file():
    """The independent validator editors' tools and CI use (check-jsonschema, dev extra) agrees."""
    pytest.importorskip("check_jsonschema")
    import subprocess
    import sys
    for kind in ("variant", "deck", "house", "stats"):
        files = [str(p) for p, k in EDITED if k == kind]
        run = subprocess.run([sys.executable, "-m", "check_jsonschema", "--schemafile",
                              str(ROOT / "schemas" / f"{kind}.schema.json"), *files],
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout + run.stderr


def test_the_published_statistics_schema_follows_the_variant_schema_and_simulate():
    """schemas/stats.schema.json: the variant schema's `stats` section and the keys `simulate --stats` reads."""
    published = json.loads((ROOT / "schemas" / "stats.schema.json").read_text(encoding="utf-8"))
    defs = schema("variant")["$defs"]
    for name, d in published["$defs"].items():
        assert d == defs[name], name
    assert published["properties"]["stats"] == {"$ref": "#/$defs/stats"} and published["required"] == ["stats"]
    assert set(published["properties"]) == {"stats", "variant", "description", "stop_after"}
    assert len(STATS_FILES) >= 5
    from rulekit.engine.statsdecl import load_stats
    for p in STATS_FILES:  # what the schema accepts, simulate reads
        assert load_stats(str(p)).stats

"""Schema checks already passed are remembered on disk (rulekit.core.passcache): only passes, only
for the very same document, schema and jsonschema; a foreign or hostile cache cannot make a bad
file pass; RULEKIT_CACHE= turns it off."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from rulekit.core import passcache
from rulekit.lang import schema as S

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKIT_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _counting(monkeypatch) -> list[int]:
    """Count the documents jsonschema is asked to validate."""
    calls: list[int] = []
    real = S._validator

    def counted(schema):
        calls.append(1)
        return real(schema)
    monkeypatch.setattr(S, "_validator", counted)
    return calls


def _variant_data():
    from rulekit.engine.testing import variant_path
    from rulekit.lang.loader import load_tree, plain
    return plain(load_tree(variant_path("kabufuda/oicho-kabu.yaml"))[0])


def test_a_pass_is_remembered_and_the_same_document_not_validated_again(cache, monkeypatch):
    calls = _counting(monkeypatch)
    schema = S.load_schema("variant")
    data = {"id": "x"}  # not a valid variant: never remembered
    first = S.validate(data, schema, None, span_of=lambda p, k: S.Span("f", 1, 1))
    again = S.validate(data, schema, None, span_of=lambda p, k: S.Span("f", 1, 1))
    assert first and [d.message for d in again] == [d.message for d in first]
    assert len(calls) == 2 and not (cache / "schema").exists()
    ok = _variant_data()
    assert S.validate(ok, schema, None) == [] and len(calls) == 3
    assert len(os.listdir(cache / "schema")) == 1
    assert S.validate(ok, schema, None) == [] and len(calls) == 3  # remembered: jsonschema not asked
    ok["meta"]["summary"] = ok["meta"].get("summary", "") + " (changed)"
    assert S.validate(ok, schema, None) == [] and len(calls) == 4  # another document: validated


def test_a_mark_is_for_its_own_document_only(cache, monkeypatch):
    # 1 and '1', True and 1 are different documents for the schema: different digests
    schema = S.load_schema("variant")
    docs = ({"a": 1}, {"a": "1"}, {"a": True}, {1: 1}, {"1": 1}, {"a": [1]}, {"a": [[1], 2]}, {"a": [[1, 2]]},
            {"a": {"b": 1}}, {"a": {}, "b": 1}, {"a": {"b": 1}, "c": None}, {"a": "b): 1"})
    keys = {S._pass_key(d, schema) for d in docs}
    assert len(keys) == len(docs) and None not in keys
    assert S._pass_key({"a": [[1], 2]}, schema) == S._pass_key({"a": [[1], 2]}, schema)


def test_a_document_too_big_to_digest_is_validated_every_time(cache, monkeypatch):
    # aliases can make a small file hold huge text: past the cap no digest is read, nothing is kept
    calls = _counting(monkeypatch)
    schema = S.load_schema("variant")
    ok = _variant_data()
    monkeypatch.setattr(S, "MAX_DIGEST_CHARS", 100)
    assert S._pass_key(ok, schema) is None
    assert S.validate(ok, schema, None) == [] and S.validate(ok, schema, None) == [] and len(calls) == 2
    assert not (cache / "schema").exists()


def test_a_schema_made_in_memory_is_not_remembered(cache):
    schema = {"type": "object"}
    assert S._pass_key({}, schema) is None
    assert S.validate({}, schema, None) == [] and not cache.exists()


def test_a_forged_cache_cannot_make_a_bad_file_pass(cache):
    # whatever lies in the cache, a document with errors gets them: only a pass of its own digest
    # skips the work, and a file can be marked only by passing
    schema = S.load_schema("variant")
    (cache / "schema").mkdir(parents=True)
    for name in ("0" * 64, "not-a-digest", "../escape"):
        (cache / "schema" / name.replace("/", "_")).write_text("anything")
    bad = {"id": "x"}
    assert S.validate(bad, schema, None, span_of=lambda p, k: S.Span("f", 1, 1))
    assert not passcache.passed("schema", "../" + "0" * 61)
    assert not passcache.passed("../schema", "0" * 64)


def test_a_link_in_place_of_a_mark_is_not_followed(cache, tmp_path):
    target = tmp_path / "elsewhere"
    target.write_text("keep")
    key = "a" * 64
    (cache / "schema").mkdir(parents=True)
    os.symlink(target, cache / "schema" / key)
    passcache.remember("schema", key)
    assert target.read_text() == "keep"
    assert not passcache.passed("schema", key)  # a link is no mark, even to a file
    os.unlink(cache / "schema" / key)
    passcache.remember("schema", key)
    assert passcache.passed("schema", key) and (cache / "schema" / key).stat().st_size == 0


def test_empty_rulekit_cache_turns_it_off(monkeypatch, tmp_path):
    monkeypatch.setenv("RULEKIT_CACHE", "")
    assert passcache.cache_root() is None
    passcache.remember("schema", "b" * 64)
    assert not passcache.passed("schema", "b" * 64)


def test_the_default_folder_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("RULEKIT_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert passcache.cache_root() == str(tmp_path / "rulekit")
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert passcache.cache_root() == os.path.join(os.path.expanduser("~"), ".cache", "rulekit")


def test_the_command_line_skips_jsonschema_for_a_file_that_passed(cache):
    # the start-up saving itself: the second run of the same game does not import jsonschema
    code = ("import sys, runpy; sys.argv = ['rulekit', 'simulate', 'kyo-kabu', '--rounds', '1', '--quiet']\n"
            "try:\n    runpy.run_module('rulekit', run_name='__main__')\nexcept SystemExit:\n    pass\n"
            "print('jsonschema' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": ROOT}
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=ROOT,
                           check=True).stdout.splitlines()[-1] for _ in range(2)]
    assert runs == ["True", "False"]


def test_another_checker_validates_again(cache, monkeypatch):
    # an upgraded jsonschema or an edited rulekit.lang.schema: the old passes no longer count
    calls = _counting(monkeypatch)
    schema = S.load_schema("variant")
    ok = _variant_data()
    assert S.validate(ok, schema, None) == [] and S.validate(ok, schema, None) == [] and len(calls) == 1
    monkeypatch.setattr(S, "_checker_stamp", lambda: "another jsonschema")
    assert S.validate(ok, schema, None) == [] and len(calls) == 2
    monkeypatch.setattr(S, "_checker_stamp", lambda: "")  # unknown: nothing remembered
    assert S.validate(ok, schema, None) == [] and S.validate(ok, schema, None) == [] and len(calls) == 4

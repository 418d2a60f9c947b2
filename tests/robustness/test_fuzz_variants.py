"""Mutated variant files (hypothesis, deterministic): keys deleted, scalars changed to other
types, values swapped, junk in expressions, duplicated keys, truncated text ... check_variant on
the mutated text ends in [] or in diagnostics located at file:line:col (line >= 1 where the file
has lines), never in another exception, never past a fixed time."""
from __future__ import annotations

import os
import shutil

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulekit.engine.build import check_variant
from rulekit.core.errors import CODES

from .helpers import alarm, count, variant_files

FILES = variant_files()
EXAMPLES = 160
FUZZ = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                       HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much])

OTHER_VALUES = [None, 0, 1, -1, 3, 10 ** 29, True, False, "", "x", "seats", "1 / 0", "hand[99]", [], [1, "a"], {},
                {"a": None}, "opt.nope", "card('nope')", "range(10000)", 0.5, "10 ** 30 * 10"]
JUNK = ["(", ")", "[", "]", "{", "}", "'", '"', ",", ":", "->", " and ", " or ", "not ", ".", "..", "*", "&a",
        "*a", "!", "!!python/name:os.system ", "%", "@", "`", "#", "|", ">", "-", "\t", " ", "\n", "\\", "é", "ー"]


def _paths(node, path=()):
    """Every path to a value in parsed YAML data (dict keys and list indexes)."""
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            out.append(path + (k,))
            out += _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.append(path + (i,))
            out += _paths(v, path + (i,))
    return out


def _get(data, path):
    for p in path:
        data = data[p]
    return data


def _set(data, path, value):
    _get(data, path[:-1])[path[-1]] = value


def _delete(data, path):
    parent = _get(data, path[:-1])
    del parent[path[-1]]


def _dump(data) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10_000)


def _mutate_data(text: str, draw) -> str:
    data = yaml.safe_load(text)
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(data)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["delete", "retype", "swap", "junk", "junk", "rekey"]))
        try:
            if op == "delete":
                _delete(data, path)
            elif op == "retype":
                _set(data, path, draw(st.sampled_from(OTHER_VALUES)))
            elif op == "rekey":
                parent = _get(data, path[:-1])
                if not isinstance(parent, dict):
                    continue
                key = str(path[-1])
                i = draw(st.integers(0, len(key)))
                new_key = key[:i] + draw(st.sampled_from(JUNK)) + key[i:]
                items = [(new_key if k == path[-1] else k, v) for k, v in parent.items()]
                parent.clear()
                parent.update(items)
            elif op == "swap":
                other = draw(st.sampled_from(paths))
                a, b = _get(data, path), _get(data, other)
                if path[:len(other)] == other or other[:len(path)] == path:
                    continue  # one holds the other
                _set(data, path, b)
                _set(data, other, a)
            else:
                strings = [p for p in paths if isinstance(_get(data, p), str)] or [path]
                p = draw(st.sampled_from(strings))
                s = str(_get(data, p))
                i = draw(st.integers(0, len(s)))
                _set(data, p, s[:i] + draw(st.sampled_from(JUNK)) + s[i:])
        except (KeyError, IndexError, TypeError):
            continue  # the path went away with an earlier mutation
    return _dump(data)


def _mutate_text(text: str, draw) -> str:
    lines = text.splitlines(keepends=True)
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.sampled_from(["duplicate_line", "delete_line", "truncate", "junk", "indent", "swap_lines"]))
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        if op == "duplicate_line":
            lines.insert(i, lines[i])  # a mapping line repeated is a duplicate key
        elif op == "delete_line":
            del lines[i]
        elif op == "truncate":
            whole = "".join(lines)
            cut = draw(st.integers(0, len(whole)))
            lines = whole[:cut].splitlines(keepends=True)
        elif op == "junk":
            j = draw(st.integers(0, len(lines[i])))
            lines[i] = lines[i][:j] + draw(st.sampled_from(JUNK)) + lines[i][j:]
        elif op == "indent":
            lines[i] = draw(st.sampled_from(["  ", " ", "\t", ""])) + lines[i].lstrip(" ") \
                if draw(st.booleans()) else lines[i].replace("  ", "", 1)
        else:
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines)


@pytest.fixture
def scratch(tmp_path_factory):
    return tmp_path_factory.mktemp("mutants")


def _check_mutant(folder, source, text: str) -> None:
    """Write the mutant where its relative `extends` still resolve, check it, judge the result."""
    work = folder / f"m{count_inputs()}"
    shutil.copytree(source.parent, work)  # siblings a relative `extends` may name
    target = work / source.name
    target.write_text(text, encoding="utf-8")
    old = os.getcwd()
    os.chdir(work)
    try:
        with alarm(30):
            diags = check_variant(source.name)
    finally:
        os.chdir(old)
        shutil.rmtree(work, ignore_errors=True)
    assert isinstance(diags, list)
    nlines = max(1, len(text.splitlines()))
    for d in diags:
        assert d.code in CODES, d
        assert d.span.file, d
        assert d.span.col >= 1 or d.code == "E001", d
        if d.span.file == source.name:
            assert 1 <= d.span.line <= nlines + 1, (d, nlines)
        else:
            assert d.span.line >= 1, d  # in a parent file or a deck


def count_inputs() -> int:
    count("inputs")
    from .helpers import COUNTS
    return COUNTS["inputs"]


@FUZZ
@given(data=st.data())
def test_mutated_data(scratch, data):
    source = data.draw(st.sampled_from(FILES))
    text = _mutate_data(source.read_text(encoding="utf-8"), data.draw)
    _check_mutant(scratch, source, text)


@FUZZ
@given(data=st.data())
def test_mutated_text(scratch, data):
    source = data.draw(st.sampled_from(FILES))
    text = _mutate_text(source.read_text(encoding="utf-8"), data.draw)
    _check_mutant(scratch, source, text)


@pytest.mark.parametrize("source", FILES, ids=lambda p: p.name)
def test_every_unmutated_file_checks_clean(scratch, source):
    """The starting points are valid, so what the mutants report comes from the mutation."""
    diags = []
    work = scratch / f"clean-{source.stem}"
    shutil.copytree(source.parent, work)
    old = os.getcwd()
    os.chdir(work)
    try:
        count("inputs")
        diags = check_variant(source.name)
    finally:
        os.chdir(old)
    assert diags == [], diags

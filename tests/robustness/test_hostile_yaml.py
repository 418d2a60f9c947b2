"""Hostile YAML: every case ends in a located RulekitError (file:line:col, code) within fixed
limits of time and traced memory, and nothing in a file can run code or read outside the
allowed folders."""
from __future__ import annotations

import os
import random
import re
import sys

import pytest

from rulekit.lang import source
from rulekit.engine.build import check_variant, load_variant
from rulekit.core.errors import Diagnostic, RulekitError, Span
from rulekit.lang.loader import MAX_EXTENDS_DEPTH

from .helpers import (FIXTURES, HEAVY_TIME_LIMIT, ROOT, Measured, assert_located, count, error_of, measure,
                      run_isolated, variant_text, write)

MINI = (FIXTURES / "valid" / "mini-kabu.yaml").read_text(encoding="utf-8")
OK_HEAD = variant_text("round:\n  - id: r\n    steps:\n      - shuffle: deck\n")


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A scratch folder that is the working directory, so diagnostics name files as 'x.yaml'."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _bomb(levels: int, width: int) -> str:
    lines = [f"l0: &l0 [{', '.join(['lol'] * width)}]"]
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * width)}]")
    return "id: x\nmeta:\n  names: {en: X}\n" + "\n".join(lines) + "\n"


def _nested_block(depth: int) -> str:
    return "".join("  " * i + f"k{i}:\n" for i in range(depth)) + "  " * depth + "v\n"


ISOLATED = "isolated"  # too big to trace every allocation: run in a child, measure its peak RSS

# name -> (file content, expected code, expected line or None, heavy)
CASES = {
    # alias expansion
    "billion_laughs": (_bomb(9, 9), "E004", None, True),
    "alias_wide": ("id: x\na: &a [" + ", ".join(["x"] * 1000) + "]\nb: [" + ", ".join(["*a"] * 1000) + "]\n",
                   "E004", 3, True),
    "alias_recursive": ("id: x\na: &a [1, *a]\n", "E004", 2, False),
    "alias_recursive_map": ("id: x\na: &a {b: *a}\n", "E004", 2, False),
    "alias_undefined": ("id: x\na: *nowhere\n", "E002", 2, False),
    "anchor_twice": ("id: x\na: &a 1\nb: &a 2\n", "E002", 3, False),
    # nesting
    "deep_flow_lists": ("id: x\na: " + "[" * 100_000 + "]" * 100_000 + "\n", "E004", 2, False),
    "deep_flow_maps": ("id: x\na: " + "{a: " * 20_000 + "1" + "}" * 20_000 + "\n", "E004", 2, False),
    "deep_block_maps": ("id: x\n" + _nested_block(300), "E004", None, False),
    "deep_block_lists": ("id: x\na:\n" + "".join("  " * i + "-\n" for i in range(1, 200)) + "  " * 200 + "- 1\n",
                         "E004", None, False),
    "deep_alias_nesting": ("id: x\na: &a " + "[" * 40 + "1" + "]" * 40 + "\nb: " + "[" * 40 + "*a" + "]" * 40 + "\n",
                           "E004", 3, False),
    # size
    "huge_file": ("id: x\n# " + "x" * 2_100_000 + "\n", "E004", 1, False),
    "huge_binary_file": (random.Random(1).randbytes(2_000_001), "E004", 1, False),
    "huge_scalar": ("id: " + "x" * 200_000 + "\n", "E004", 1, False),
    "huge_quoted_scalar": ("id: '" + "x" * 200_000 + "'\n", "E004", 1, False),
    "many_values": ("".join(f"k{i}: [{i}, {i}]\n" for i in range(70_000)), "E004", None, ISOLATED),
    # more entries in one mapping than rulekit.lang.source.MAX_ENTRIES: stopped at the first one over
    "many_unknown_keys": ("".join(f"k{i}: {i}\n" for i in range(90_000)), "E004", 1001, ISOLATED),
    # numbers
    "huge_int": ("id: x\nplayers: {min: " + "9" * 5000 + "}\n", "E004", 2, False),
    "huge_negative_int": ("id: x\nplayers: {min: -" + "9" * 40 + "}\n", "E004", 2, False),
    "huge_hex_int": ("id: x\nplayers: {min: 0x" + "f" * 400 + "}\n", "E004", 2, False),
    "huge_binary_int": ("id: x\nplayers: {min: 0b" + "1" * 400 + "}\n", "E004", 2, False),
    "huge_underscored_int": ("id: x\nplayers: {min: " + "9_" * 100 + "9}\n", "E004", 2, False),
    "huge_sexagesimal_int": ("id: x\nplayers: {min: " + "59:" * 100 + "59}\n", "E004", 2, False),
    "huge_float": ("id: x\nplayers: {min: 1.0e+99999}\n", "E010", None, False),
    "huge_int_in_expression": (variant_text("round:\n  - id: r\n    steps:\n      - add: {x: "
                                            + "1" * 31 + "}\n"), "E004", 20, False),
    # encodings and bytes
    "random_binary": (random.Random(2).randbytes(4000), "E001", None, False),
    "latin1": ("id: x\nmeta: {names: {en: Caf\xe9}}\n".encode("latin-1"), "E001", 2, False),
    "utf16": ("id: x\n".encode("utf-16"), "E001", 1, False),
    "utf32": ("id: x\n".encode("utf-32"), "E001", 1, False),
    "lone_surrogate": (b"id: x\nmeta: \xed\xa0\x80\n", "E001", 2, False),
    "overlong_utf8": (b"id: x\nmeta: \xc0\xaf\n", "E001", 2, False),
    "nul_bytes": (b"id: x\nmeta:\x00 y\n", "E001", 2, False),
    "control_character": ("id: x\nmeta: a\x07b\n", "E002", 2, False),
    "escape_character": ("id: x\nmeta: a\x1bb\n", "E002", 2, False),
    # duplicate keys
    "duplicate_top_key": ("id: x\nid: y\n", "E003", 2, False),
    "duplicate_nested_key": (MINI.replace("  stake:\n", "  tie: {}\n  stake:\n", 1), "E003", None, False),
    "duplicate_flow_key": ("id: x\nmeta: {names: {en: a, en: b}}\n", "E003", 2, False),
    "duplicate_after_quotes": ("id: x\n'id': y\n", "E003", 2, False),
    # tags: nothing may construct Python objects
    "python_apply": ("id: !!python/object/apply:os.system ['touch PWNED']\n", "E004", 1, False),
    "python_new": ("id: !!python/object/new:os.system ['touch PWNED']\n", "E004", 1, False),
    "python_name": ("id: !!python/name:os.system\n", "E004", 1, False),
    "python_module": ("id: !!python/module:os\n", "E004", 1, False),
    "python_object": ("id: !!python/object:os._wrap_close {}\n", "E004", 1, False),
    "python_verbatim": ("id: !<tag:yaml.org,2002:python/object/apply:os.system> ['touch PWNED']\n",
                        "E004", 1, False),
    "python_tag_in_list": ("id: x\nround:\n  - !!python/object/apply:os.system ['touch PWNED']\n",
                           "E004", 3, False),
    "python_tag_as_key": ("!!python/object/apply:os.system ['touch PWNED']: 1\n", "E004", 1, False),
    "local_tag": ("id: !shell 'touch PWNED'\n", "E004", 1, False),
    "binary_tag": ("id: !!binary aGVsbG8=\n", "E004", 1, False),
    "timestamp": ("id: 2001-12-14t21:59:43.10-05:00\n", "E004", 1, False),
    "set_tag": ("id: !!set {a, b}\n", "E004", 1, False),
    "omap_tag": ("id: !!omap [{a: 1}]\n", "E004", 1, False),
    "int_tag_on_text": ("id: !!int abc\n", "E004", 1, False),
    "int_tag_on_empty": ("id: !!int ''\n", "E004", 1, False),
    "float_tag_on_text": ("id: !!float abc\n", "E004", 1, False),
    "bool_tag_on_text": ("id: !!bool maybe\n", "E004", 1, False),
    "map_tag_on_scalar": ("id: !!map abc\n", "E004", 1, False),
    "seq_tag_on_map": ("id: !!seq {a: 1}\n", "E004", 1, False),
    "str_tag_on_list": ("id: !!str [1]\n", "E004", 1, False),
    "merge_key": ("id: x\nbase: &b {a: 1}\nmeta: {<<: *b}\n", "E004", 3, False),
    "complex_key": ("id: x\n? [a, b]\n: 1\n", "E004", 2, False),
    "null_key": ("id: x\n~: 1\n", "E004", 2, False),
    # structure
    "two_documents": ("id: x\n---\nid: y\n", "E002", 2, False),
    "empty": ("", "E010", 1, False),
    "only_comments": ("# nothing\n# here\n", "E010", 1, False),
    "top_level_list": ("- id: x\n", "E010", 1, False),
    "top_level_scalar": ("just text\n", "E010", 1, False),
    "top_level_null": ("~\n", "E010", 1, False),
    "tab_indent": ("id: x\nmeta:\n\tnames: {}\n", "E002", 3, False),
    "unclosed_quote": ("id: 'x\nmeta: {}\n", "E002", None, False),
    "unclosed_bracket": ("id: x\nmeta: [1, 2\n", "E002", None, False),
    "bad_indentation": ("id: x\nmeta:\n    a: 1\n  b: 2\n", "E002", 4, False),
}


def _isolated_check(path) -> Measured:
    """check_variant in a child process: time of the call and growth of its peak RSS."""
    res = run_isolated(f"""
        import resource, time
        from rulekit.engine.build import check_variant
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        t0 = time.perf_counter()
        diags = check_variant({str(path)!r})
        RESULT["seconds"] = time.perf_counter() - t0
        RESULT["peak"] = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024
        RESULT["diags"] = [(d.span.file, d.span.line, d.span.col, d.code, d.message) for d in diags]
    """, timeout=120)
    assert res["status"] == "ok", res
    diags = [Diagnostic(Span(f, line, col), code, msg) for f, line, col, code, msg in res["diags"]]
    return Measured(diags, None, res["seconds"], res["peak"])


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_yaml_is_a_located_error(here, name):
    content, code, line, heavy = CASES[name]
    path = write(here, f"{name}.yaml", content)
    count("inputs")
    m = _isolated_check(path) if heavy == ISOLATED else measure(lambda: check_variant(path.name))
    assert m.error is None, f"check_variant raised {type(m.error).__name__}: {m.error}"[:500]
    diags = m.value
    # what the reader gets: a clean error located in this file (the line where the problem is),
    # whichever check (ours or the YAML library's, which differs between versions) fired first
    assert_located(diags, os.path.basename(path), code)
    first = next(d for d in diags if d.code == code)
    if line is not None:
        assert first.span.line == line, f"{first.span}: {first.code} {first.message}"
    if name.startswith("deep_"):
        assert "nesting deeper than" in first.message, first.message
    m.check_bounds(time_limit=HEAVY_TIME_LIMIT if heavy else 2.0)
    assert not (here / "PWNED").exists()


def test_python_tags_never_run_code(here):
    """Even through the lower-level entry points, no tag constructs an object or runs a command."""
    marker = here / "PWNED"
    for tag in ("!!python/object/apply:os.system", "!!python/object/new:os.system",
                "!!python/object/apply:subprocess.call"):
        text = f"id: {tag} [['touch', '{marker}']]\nx: {tag} ['touch {marker}']\n"
        count("inputs")
        with pytest.raises(RulekitError) as exc:
            source.parse_text(text, "t.yaml")
        assert {d.code for d in exc.value.diagnostics} == {"E004"}
        assert [d.span.line for d in exc.value.diagnostics] == [1, 2]
    assert not marker.exists()


def test_every_problem_of_a_file_is_reported_with_its_line(here):
    text = "id: x\nid: y\nmeta: !!python/name:os.system\nplayers: {min: " + "9" * 50 + "}\nz: !!int q\n"
    path = write(here, "many.yaml", text)
    count("inputs")
    diags = check_variant(path.name)
    assert [(d.span.line, d.code) for d in diags] == [(2, "E003"), (3, "E004"), (4, "E004"), (5, "E004")]


def test_alias_copies_keep_their_source_spans(here):
    """A value reached through an alias is reported where it was written (the anchor)."""
    text = variant_text("round:\n  - id: r\n    steps: &s\n      - add: {x: 'nope + 1'}\n"
                        "  - id: r2\n    steps: *s\n")
    path = write(here, "alias.yaml", text)
    count("inputs")
    diags = check_variant(path.name)
    assert_located(diags, "alias.yaml", "E031")
    assert diags[0].span.line == text.splitlines().index("      - add: {x: 'nope + 1'}") + 1


# -- wrong types everywhere ---------------------------------------------------------------------

WRONG = [None, 7, -1, "text", [], {}, True, [1, "a"], {"x": {"y": []}}, 10 ** 29]
PATHS = [("id",), ("meta",), ("meta", "names"), ("players",), ("players", "min"), ("players", "max"),
         ("decks",), ("decks", "kabufuda"), ("deck",), ("options",), ("options", "stake"),
         ("options", "stake", "type"), ("options", "stake", "default"), ("options", "stake", "max"),
         ("options", "tie", "values"), ("presets",), ("presets", "high", "options"), ("zones",),
         ("zones", "hand"), ("zones", "hand", "per"), ("vars",), ("vars", "wins", "init"), ("vars", "pot", "pot"),
         ("yaku",), ("yaku", "hand"), ("yaku", "hand", 0, "when"), ("policies",), ("policies", "careful", "rules"),
         ("procedures",), ("procedures", "settle", "params"), ("game",), ("game", "rounds"), ("game", "start_chips"),
         ("round",), ("round", 0), ("round", 0, "steps"), ("round", 0, "steps", 0), ("round", 1, "when"),
         ("round", 1, "steps", 0, "in"), ("round", 1, "steps", 0, "do", 1, "options"),
         ("round", 2, "steps", 2, "do", 4, "call")]


def _dump(data) -> str:
    import yaml
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=10_000)


@pytest.mark.parametrize("path", PATHS, ids=lambda p: ".".join(map(str, p)))
def test_wrong_types_everywhere(here, path):
    """Each value of a valid file replaced by each wrong type: [] or located diagnostics."""
    import yaml
    base = yaml.safe_load(MINI)
    for i, wrong in enumerate(WRONG):
        data = yaml.safe_load(MINI)
        node = data
        for p in path[:-1]:
            node = node[p]
        node[path[-1]] = wrong
        f = write(here, f"wrong{i}.yaml", _dump(data))
        count("inputs")
        m = measure(lambda: check_variant(f.name))
        assert m.error is None, f"{path}={wrong!r}: {type(m.error).__name__}: {m.error}"[:600]
        if m.value:
            assert_located(m.value, f.name)
        m.check_bounds()
    assert base  # the unmodified file parses


# -- extends: loops and escapes -------------------------------------------------------------------

def _child(ext: str) -> str:
    return f"id: child\nextends: {ext}\n"


def _first(path: str):
    m = measure(lambda: load_variant(path, search=[]))
    m.check_bounds()
    count("inputs")
    return error_of(m).first


def test_extends_cycle(here):
    write(here, "a.yaml", _child("b.yaml"))
    write(here, "b.yaml", _child("a.yaml"))
    d = _first("a.yaml")
    assert (d.code, d.span.line) == ("E021", 2) and d.span.file in ("a.yaml", "b.yaml")


def test_extends_itself(here):
    write(here, "a.yaml", _child("a.yaml"))
    d = _first("a.yaml")
    assert (str(d.span), d.code) == ("a.yaml:2:10", "E021")


def test_extends_cycle_through_a_symlink(here):
    write(here, "a.yaml", _child("link.yaml"))
    os.symlink(here / "a.yaml", here / "link.yaml")
    assert _first("a.yaml").code == "E021"


def test_extends_chain_too_deep(here):
    n = MAX_EXTENDS_DEPTH + 3
    for i in range(n):
        write(here, f"v{i}.yaml", _child(f"v{i + 1}.yaml") if i < n - 1 else OK_HEAD)
    d = _first("v0.yaml")
    assert d.code == "E022" and d.span.line == 2


@pytest.mark.parametrize("target", ["../../etc/passwd.yaml", "../../../../../../../../etc/hosts.yaml",
                                    "/etc/passwd.yaml", "sub/../../outside.yaml", "../outside.yaml"])
def test_extends_outside_the_allowed_folders(tmp_path, monkeypatch, target):
    inner = tmp_path / "inner"
    write(tmp_path, "outside.yaml", OK_HEAD)
    write(tmp_path, "secret-neighbour.yaml", OK_HEAD)
    write(inner, "child.yaml", _child(target))
    monkeypatch.chdir(inner)
    d = _first("child.yaml")
    assert (str(d.span), d.code) == ("child.yaml:2:10", "E022"), d.message
    assert "secret" not in d.message + d.hint  # nothing is told about what lies outside


def test_extends_through_a_symlink_to_a_file_outside(tmp_path, monkeypatch):
    inner = tmp_path / "inner"
    write(tmp_path, "outside.yaml", OK_HEAD)
    write(inner, "child.yaml", _child("link.yaml"))
    os.symlink(tmp_path / "outside.yaml", inner / "link.yaml")
    monkeypatch.chdir(inner)
    d = _first("child.yaml")
    assert (str(d.span), d.code) == ("child.yaml:2:10", "E022")


def test_extends_through_a_symlinked_folder(tmp_path, monkeypatch):
    inner = tmp_path / "inner"
    write(tmp_path / "elsewhere", "p.yaml", OK_HEAD)
    write(inner, "child.yaml", _child("sub/p.yaml"))
    os.symlink(tmp_path / "elsewhere", inner / "sub")
    monkeypatch.chdir(inner)
    assert _first("child.yaml").code == "E022"


def test_extends_a_symlink_to_etc_passwd(here):
    os.symlink("/etc/passwd", here / "passwd.yaml")
    write(here, "child.yaml", _child("passwd.yaml"))
    d = _first("child.yaml")
    assert (d.code, d.span.file) == ("E022", "child.yaml")


@pytest.mark.parametrize("value,code", [('"a\\0.yaml"', "E010"), ('"a\\0b"', "E010"), ('"\\t"', "E010"),
                                        ("''", "E010"), ("5", "E010"), ("[a.yaml]", "E010"),
                                        ("{a: 1}", "E010"), ("/etc/passwd", "E020"), ("../../etc/passwd", "E020"),
                                        ("dir.yaml", "E020"), ("fifo.yaml", "E020")])
def test_extends_odd_values(here, value, code):
    (here / "dir.yaml").mkdir()
    if hasattr(os, "mkfifo"):
        os.mkfifo(here / "fifo.yaml")
    write(here, "child.yaml", "id: child\nextends: " + value + "\n")
    d = _first("child.yaml")
    assert (d.code, d.span.file, d.span.line) == (code, "child.yaml", 2), d.message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs mkfifo")
def test_a_fifo_or_device_is_not_read(here):
    """Reading never blocks on a pipe nor reads a device for ever."""
    os.mkfifo(here / "pipe.yaml")
    for name in ("pipe.yaml", "/dev/zero", "/dev/urandom"):
        if name.startswith("/dev") and not os.path.exists(name):
            continue
        count("inputs")
        m = measure(lambda: check_variant(name), hard_limit=10)
        assert m.error is None, repr(m.error)
        assert [d.code for d in m.value] == ["E001"], m.value
        assert m.value[0].span.file.endswith(os.path.basename(name))
        m.check_bounds()


def test_a_folder_is_not_a_variant(here):
    (here / "d.yaml").mkdir()
    count("inputs")
    diags = check_variant("d.yaml")
    assert [(d.code, d.span.file) for d in diags] == [("E001", "d.yaml")]


def test_limits_are_the_documented_ones():
    """The figures the hostile cases above rely on (docs/reference/limits.md lists them)."""
    assert source.MAX_FILE_BYTES == 2_000_000 and source.MAX_DEPTH == 64 and source.MAX_NODES == 200_000
    assert source.MAX_SCALAR == 100_000 and source.MAX_INT_DIGITS == 30
    assert re.match(r"^\d+$", str(MAX_EXTENDS_DEPTH))
    assert sys.getrecursionlimit() >= 1000


def test_the_validate_command_reports_every_hostile_file(tmp_path):
    """`rulekit validate` on a folder of hostile files: one located report each, no traceback."""
    import subprocess
    folder = tmp_path / "hostile"
    names = []
    for name, (content, code, _line, heavy) in CASES.items():
        if heavy:
            continue
        write(folder, f"{name}.yaml", content)
        names.append(name)
    if hasattr(os, "mkfifo"):
        os.mkfifo(folder / "pipe.yaml")
        names.append("pipe")
    count("inputs", len(names))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the rulekit these tests import
    proc = subprocess.run([sys.executable, "-m", "rulekit", "validate", str(folder)], capture_output=True,
                          text=True, timeout=120, cwd=str(tmp_path), env=env)
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr, proc.stderr[-3000:]
    for name in names:
        assert re.search(rf"hostile/{name}\.yaml:\d+:\d+: error\[E\d\d\d\]", proc.stderr), name
    assert f"0 valid, {len(names)} with errors" in proc.stdout

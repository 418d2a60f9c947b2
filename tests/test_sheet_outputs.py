"""`rulekit rules --output` never destroys a file, and the Markdown sheet is inert.

The sheet is written to a temporary file in the same folder and renamed over the target only when
it is complete; a path that is an input of the same command is refused before anything is read or
written; text from a stranger's house file reaches the Markdown as text, never as markup or links."""
from __future__ import annotations

import os
import re
import shutil

from .test_sheet import cli

HOSTILE = """\
name: "Evil <script>alert(1)</script> table"
target: hiraya
note: >-
  See ![pic](http://evil.example/x.png) and [click](javascript:alert(1)), <img src=x onerror=alert(1)>,
  <a href="javascript:alert(2)">here</a> &#106;avascript: <!-- hide the rest
options:
  rounds: 6
yaku:
  dekiyaku:
    - id: evil-hand
      names: {en: "Evil [go](javascript:alert(4))"}
      value: 5
      cards: [Full moon]
      text: "<script>alert(5)</script> ![x](http://evil.example/y.png)"
"""


def _hostile(tmp_path) -> str:
    p = tmp_path / "evil.yaml"
    p.write_text(HOSTILE, encoding="utf-8")
    return str(p)


def test_output_over_the_house_file_is_refused_and_the_file_kept(tmp_path):
    house = _hostile(tmp_path)
    before = open(house, encoding="utf-8").read()
    r = cli("rules", "hiraya", "--house", house, "--output", house)
    assert r.returncode == 2 and "is an input of this command" in r.stderr
    assert open(house, encoding="utf-8").read() == before


def test_output_over_the_variant_or_its_parent_is_refused(tmp_path):
    src = os.path.join(os.path.dirname(os.path.dirname(__file__)), "variants", "hanafuda")
    here = tmp_path / "variants" / "hanafuda"  # ./variants is searched first: these copies are the inputs
    here.mkdir(parents=True)
    for name in ("hiraya.yaml", "hana-awase.yaml"):
        shutil.copy(os.path.join(src, name), here / name)
    for target in ("hiraya.yaml", "hana-awase.yaml"):  # the file named, and the one it extends
        before = (here / target).read_text(encoding="utf-8")
        r = cli("rules", "hiraya", "-o", "rounds=6", "--output", str(here / target), cwd=str(tmp_path))
        assert r.returncode == 2 and "input of this command" in r.stderr, (target, r.stderr)
        assert (here / target).read_text(encoding="utf-8") == before


def test_an_error_leaves_an_existing_sheet_as_it_was(tmp_path):
    out = tmp_path / "sheet.md"
    out.write_text("our old sheet\n", encoding="utf-8")
    r = cli("rules", "hiraya", "--house", str(tmp_path / "missing.yaml"), "--output", str(out))
    assert r.returncode == 1
    assert out.read_text(encoding="utf-8") == "our old sheet\n"
    r = cli("rules", "hiraya", "-o", "rounds=nonsense", "--output", str(out))
    assert r.returncode == 1 and out.read_text(encoding="utf-8") == "our old sheet\n"
    assert [p.name for p in tmp_path.iterdir()] == ["sheet.md"]  # no temporary file left behind


def test_a_good_run_replaces_the_sheet_whole(tmp_path):
    out = tmp_path / "sheet.md"
    out.write_text("our old sheet\n", encoding="utf-8")
    r = cli("rules", "hiraya", "-o", "rounds=6", "--format", "md", "--output", str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text(encoding="utf-8")
    assert text.startswith("# Hiraya") and "our old sheet" not in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sheet.md"]


def test_markdown_sheet_is_inert(tmp_path):
    r = cli("rules", "hiraya", "--house", _hostile(tmp_path), "--format", "markdown")
    assert r.returncode == 0, r.stderr
    md = r.stdout
    assert "Evil" in md and "onerror" in md  # the words are kept, as text
    assert not re.search(r"<\s*(script|img|a|iframe)\b", md, re.I)  # no live tag
    assert "<!--" not in md and "&#106;" not in md  # no comment hiding the rest, no entity
    assert not re.search(r"(?<!\\)\]\(", md)  # no link or image: every bracket escaped
    assert "![" not in md

"""Issue 25: a rules site that trusts no file.

A hostile variant (markup, script and javascript:/data: links in every prose field, a path in its
family, markup in its names) goes through the real `mkdocs build` in a temporary copy of the
project; the built HTML is parsed: no live <script> of the variant's, no on* attribute, no
javascript:/data: link, no file written outside the site folder. Ids, families and names that
could reach a path or break out of a title are refused by `rulekit validate` with a located error.
"""
from __future__ import annotations

import html.parser
import json
import os
import subprocess
import sys
import tempfile

import pytest

from ..conftest import ROOT
from .helpers import count
from ..siteproject import project_copy

MARK = "rk25pwn"
PAYLOADS = [
    f"<script>alert('{MARK}')</script>",
    f"<img src=x onerror=\"alert('{MARK}')\">",
    f"[click](javascript:alert('{MARK}'))",
    f"[click](JaVaScRiPt:alert('{MARK}'))",
    f"[click](&#106;avascript:alert('{MARK}'))",
    f"[data](data:text/html;base64,{MARK})",
    f"![pic](javascript:alert('{MARK}'))",
    f"<a href=\"javascript:alert('{MARK}')\">x</a>",
    f"Click me{{: onclick=\"alert('{MARK}')\" }}",
    f"[go][evil]\n\n[evil]: javascript:alert('{MARK}')",
    f"<div markdown=\"1\" onmouseover=\"alert('{MARK}')\">x</div>",
    f"<javascript:alert('{MARK}')>",
    "--8<-- \"/etc/passwd\"",
    f"`code` <style>body{{display:none}}</style> <iframe src=\"javascript:alert('{MARK}')\"></iframe>",
]
HOSTILE_TEXT = "Plain words first.\n\n" + "\n\n".join(PAYLOADS)


def _fold(text: str) -> str:
    return "|-\n" + "".join("      " + line + "\n" for line in text.splitlines())


def hostile_variant(meta_extra: str = "", names: str = "{en: Evil Kabu}", vid: str = "evil-kabu") -> str:
    t = _fold(HOSTILE_TEXT)
    return f"""id: {vid}
extends: oicho-kabu.yaml
meta:
  names: {names}
  family: banking
  summary: {t}  notes: {t}{meta_extra}
rules:
  lead: {t}  equipment: {t}  setup: {t}  play: {t}  hands: {t}
round:
  - id: betting
    text: {t}
options:
  tie:
    type: choice
    default: push
    values: {{push: "<script>alert('{MARK}')</script>", dealer: "[x](javascript:alert('{MARK}'))"}}
    description: "<img src=x onerror=alert('{MARK}')>"
"""


class Scan(html.parser.HTMLParser):
    """Live markup of the variant's in a built page."""

    def __init__(self):
        super().__init__()
        self.bad: list[str] = []
        self.in_script = False

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "iframe", "style", "object", "embed") and tag != "script":
            if MARK in str(attrs) or tag == "iframe":
                self.bad.append(f"<{tag}>")
        if tag == "script":
            # a JSON data island (the "Your table" panel's) is inert data, read with textContent:
            # the variant's prose may sit in it, but it must stay one whole JSON value (no breaking out)
            self.in_script = "json" if dict(attrs).get("type") == "application/json" else True
            self.json_text = ""
        for k, v in attrs:
            v = (v or "").strip().lower()
            if k.startswith("on") and MARK in v:
                self.bad.append(f"{tag} {k}={v}")
            if k in ("href", "src", "action", "formaction", "xlink:href") and \
                    "".join(v.split()).startswith(("javascript:", "data:", "vbscript:")):
                self.bad.append(f"{tag} {k}={v}")

    def handle_endtag(self, tag):
        if tag == "script":
            if self.in_script == "json":
                try:
                    json.loads(self.json_text)
                except ValueError:
                    self.bad.append(f"broken JSON data island: {self.json_text[:80]}")
            self.in_script = False

    def handle_data(self, data):
        if self.in_script == "json":
            self.json_text += data
        elif self.in_script and MARK in data:
            self.bad.append(f"script: {data[:80]}")


def _project(tmp: str, variant_text: str) -> str:
    """A copy of the project with the given variant (and its parent) as the only games."""
    root = project_copy(tmp, [os.path.join(ROOT, "variants", "kabufuda", "oicho-kabu.yaml")])
    with open(os.path.join(root, "variants", "evil.yaml"), "w", encoding="utf-8") as fh:
        fh.write(variant_text)
    return root


def _build(root: str, out: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, RULEKIT_SITE_ROUNDS="0", RULEKIT_SITE_EFFECT_ROUNDS="0",
               RULEKIT_SITE_CACHE=os.path.join(root, "cache"))
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", out, "-f",
                           os.path.join(root, "mkdocs.yml")], cwd=root, capture_output=True, text=True,
                          env=env, timeout=900)


def _all_files(folder: str) -> set[str]:
    return {os.path.join(d, f) for d, _s, fs in os.walk(folder) for f in fs}


def test_hostile_prose_builds_without_live_markup():
    count("inputs")
    with tempfile.TemporaryDirectory(prefix="rk-hostile-site-") as tmp:
        root = _project(tmp, hostile_variant())
        out = os.path.join(tmp, "site")
        before = _all_files(tmp)
        r = _build(root, out)
        assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
        assert "Traceback" not in r.stderr
        page = os.path.join(out, "games", "evil-kabu", "index.html")
        assert os.path.isfile(page)
        bad = []
        for path in _all_files(out):
            if path.endswith(".html"):
                s = Scan()
                with open(path, encoding="utf-8") as fh:
                    text = fh.read()
                s.feed(text)
                bad += [f"{os.path.relpath(path, out)}: {b}" for b in s.bad]
                assert "root:x:0:0" not in text, f"{path}: a snippet include read a file"
        assert not bad, "\n".join(bad[:20])
        with open(page, encoding="utf-8") as fh:
            text = fh.read()
        assert "Plain words first." in text and MARK in text  # the words are shown, as text
        new = {p for p in _all_files(tmp) - before
               if not p.startswith(out + os.sep) and not p.startswith(root + os.sep)}
        assert not new, f"files written outside the site: {sorted(new)[:5]}"


@pytest.mark.parametrize("field,value,where", [
    ("family", '"../../../../../../../../../../tmp/rk25-escape"', "meta.family"),
    ("family", '"banking\\" onmouseover=\\"alert(1)"', "meta.family"),
    ("names", "{en: '</title><script>alert(1)</script><title>'}", "meta.names.en"),
])
def test_bad_family_or_name_is_refused_with_a_located_error(field, value, where):
    count("inputs")
    text = hostile_variant().replace("  family: banking\n", "") if field == "family" else hostile_variant()
    if field == "family":
        text = text.replace("meta:\n", f"meta:\n  family: {value}\n", 1)
    else:
        text = text.replace("  names: {en: Evil Kabu}", f"  names: {value}")
    with tempfile.TemporaryDirectory(prefix="rk-hostile-site-") as tmp:
        root = _project(tmp, text)
        path = os.path.join(root, "variants", "evil.yaml")
        r = subprocess.run([sys.executable, "-m", "rulekit", "validate", path], capture_output=True, text=True,
                           timeout=120, cwd=root)
        assert r.returncode != 0
        msg = r.stdout + r.stderr
        assert "Traceback" not in msg
        assert "evil.yaml:" in msg and (where.split(".")[-1] in msg), msg
        out = os.path.join(tmp, "site")
        b = _build(root, out)
        assert b.returncode != 0 and "Traceback" not in b.stdout + b.stderr, b.stderr[-3000:]
        assert "evil.yaml" in b.stdout + b.stderr
        assert not os.path.exists("/tmp/rk25-escape"), "the build wrote outside the site"


@pytest.mark.parametrize("path", ["../x.md", "/tmp/x.md", "games/../../x.md", "games/a b.md", 'games/"x.md', ""])
def test_generated_paths_stay_under_docs(path):
    from rulekit.website import SiteError, under_docs
    with pytest.raises(SiteError):
        under_docs(path)
    assert under_docs("games/kyo-kabu.md") == "games/kyo-kabu.md"

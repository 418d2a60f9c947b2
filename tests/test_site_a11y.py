"""Accessibility of the rules site (WCAG 2.2 AA): axe-core in headless Chromium, folds closed and open.

axe-core (the npm package, pinned in AXE_VERSION) is fetched by .ci/run with `npm pack` into build/axe-core/;
RULEKIT_AXE names another copy of axe.min.js. Without it, or without Chromium, the tests skip and say why.
The pages are the ones a reader meets first: the home page, the games index and every seed game's page.
"""
from __future__ import annotations

import json
import os

import pytest

from .conftest import ROOT
from .test_site import page
from .test_site_browser import SEED_GAMES, browser, devtools, server  # noqa: F401  (fixtures)

AXE_VERSION = "4.12.1"
PAGES = ["", "games/index.html"] + [f"games/{g}/index.html" for g in SEED_GAMES]
BLOCKING = ("serious", "critical")


def axe_source() -> str | None:
    for p in (os.environ.get("RULEKIT_AXE"), os.path.join(ROOT, "build", "axe-core", "axe.min.js")):
        if p and os.path.isfile(p):
            with open(p, encoding="utf-8") as fh:
                return fh.read()
    return None


@pytest.fixture(scope="module")
def axe():
    src = axe_source()
    if src is None:
        pytest.skip(f"axe-core is not installed: .ci/run fetches it (npm pack axe-core@{AXE_VERSION} into "
                    "build/axe-core/); or set RULEKIT_AXE to an axe.min.js")
    return src


RUN = """axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => ({
  id: v.id, impact: v.impact, help: v.help,
  nodes: v.nodes.map(n => n.target.join(' ') + ' :: ' + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 240))})))"""


def violations(devtools, axe_src: str, url: str, folds_open: bool) -> list[dict]:  # noqa: F811
    devtools.goto(url)
    devtools.js("document.querySelectorAll('img[loading=lazy]').forEach(i => i.loading = 'eager'); 1")
    devtools.wait_for("[...document.images].every(i => i.complete)", timeout=30)
    if folds_open:
        devtools.js("document.querySelectorAll('details').forEach(d => d.open = true); 1")
    devtools.js(axe_src + "; 1")
    return devtools.js(RUN)


@pytest.mark.parametrize("folds", ["closed", "open"])
@pytest.mark.parametrize("rel", PAGES)
def test_no_serious_or_critical_axe_finding(devtools, server, axe, rel, folds):  # noqa: F811
    found = violations(devtools, axe, server + rel, folds == "open")
    bad = [v for v in found if v["impact"] in BLOCKING]
    minor = {v["id"]: (v["impact"], v["nodes"][:3]) for v in found if v["impact"] not in BLOCKING}
    print(f"\n{rel or 'home'} (folds {folds}): {len(bad)} serious/critical; others {minor}")
    assert bad == [], json.dumps(bad, indent=1, ensure_ascii=False)[:6000]


def test_card_pictures_are_named_in_words_without_ids():
    """Every card picture's alt text names the card as a reader would, never by the file's card id."""
    import re
    for g in SEED_GAMES:
        html = page(f"games/{g}/index.html")
        alts = re.findall(r'<img[^>]*class="rk-card[^"]*"[^>]*>', html)
        assert alts, g
        for tag in alts:
            m = re.search(r'\balt="([^"]*)"', tag)
            assert m and m.group(1).strip(), (g, tag)
            src = re.search(r'\bsrc="[^"]*/([^/"]+)\.svg"', tag)
            if src:
                assert f"({src.group(1)})" not in m.group(1) and not re.search(r"\(\w+-\d+\)", m.group(1)), (g, tag)

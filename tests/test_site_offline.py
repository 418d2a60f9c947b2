"""The rules site on a machine without network, opened from the file system, with no Japanese font installed.

The built site (tests/test_site.py builds it once per session) is read from file:// in headless Chromium
over the DevTools protocol (tests/test_site_browser.py): every request a page makes is recorded, and any
that leaves the site fails the test; links are followed from file://; search runs offline. The Japanese
glyphs come from the font the project ships (docs/fonts/rulekit-ja.woff2), never from the system.
"""
from __future__ import annotations

import logging
import os
import re
import shutil
import time
from urllib.parse import unquote, urlsplit

import pytest

from rulekit.website import fonts

from .conftest import ROOT
from .test_site import html_files, parse_links, read, site
from .test_site_browser import SEED_GAMES, browser, devtools  # noqa: F401  (fixtures)

# the pages a reader lands on: home, the games index, the seed games, a family, a deck, a guide, a reference
PAGES = (["index.html", "games/index.html"] + [f"games/{g}/index.html" for g in SEED_GAMES]
         + ["families/banking/index.html", "reference/decks/hanafuda/index.html", "guides/house-rules/index.html",
            "reference/expressions/index.html"])
LOCAL = ("file:", "data:", "blob:", "about:", "chrome:", "devtools:")


# -- without a browser: what the files ask for ----------------------------------------------------------

_FETCHES = re.compile(r'<(?:script|img|iframe|source|link)\b[^>]*\b(?:src|href)="(https?:)?//', re.I)


def test_no_page_or_stylesheet_loads_anything_from_outside_the_site():
    root = site()
    outside = []
    for f in html_files(root):
        for m in _FETCHES.finditer(read(f)):
            outside.append(f"{os.path.relpath(f, root)}: {m.group(0)}")
    for d, _dirs, names in os.walk(root):
        for n in names:
            if n.endswith(".css"):
                text = read(os.path.join(d, n))
                outside += [f"{n}: {u}" for u in re.findall(r"url\(\s*['\"]?(?:https?:)?//[^)]*\)", text)]
                outside += [f"{n}: {u}" for u in re.findall(r"@import\s+['\"]?(?:url\()?(?:https?:)?//[^;]*", text)]
    assert outside == [], "\n".join(outside[:20])
    assert "fonts.googleapis.com" not in read(os.path.join(root, "index.html"))


def test_search_index_is_also_a_script_for_file_urls():
    root = site()
    js = read(os.path.join(root, "search", "search_index.js"))
    assert js.startswith("var __index = {")
    locations = re.findall(r'"location":"([^"]*)"', js)
    assert locations
    folders = [loc for loc in locations if loc.partition("#")[0].endswith("/")]
    assert folders == [], folders[:10]
    for loc in locations[:400]:
        assert os.path.isfile(os.path.join(root, unquote(loc.partition("#")[0]))), loc


# -- the Japanese glyphs ------------------------------------------------------------------------------------

def test_the_shipped_font_covers_every_japanese_character_of_the_site():
    root = site()
    shipped = os.path.join(ROOT, fonts.SHIPPED)
    have = fonts.font_chars(shipped)
    used: dict[str, str] = {}
    for f in html_files(root):
        for c in fonts.japanese_chars(read(f)):
            used.setdefault(c, os.path.relpath(f, root))
    assert used, "the site shows no Japanese at all"
    missing = {c: p for c, p in used.items() if c not in have}
    assert missing == {}, missing
    # shipped with the site, declared by its stylesheet, with the licence beside it
    assert os.path.isfile(os.path.join(root, fonts.FONT_PATH))
    assert "rulekit-ja.woff2" in read(os.path.join(root, fonts.CSS_PATH))
    assert os.path.isfile(os.path.join(os.path.dirname(shipped), "IPA_Font_License_Agreement_v1.0.txt"))


def test_the_shipped_font_does_not_carry_the_original_fonts_name():
    """The IPA Font License, 3.1(4): a derived font may not use the original's name."""
    from fontTools.ttLib import TTFont
    tt = TTFont(os.path.join(ROOT, fonts.SHIPPED))
    for rec in tt["name"].names:
        if rec.nameID in (1, 3, 4, 6, 16, 17):
            assert "IPA" not in rec.toUnicode(), (rec.nameID, rec.toUnicode())


def _project_copy(tmp_path) -> str:
    os.makedirs(tmp_path / "docs" / "fonts")
    shutil.copy(os.path.join(ROOT, fonts.SHIPPED), tmp_path / "docs" / "fonts")
    return str(tmp_path)


def test_a_build_needs_no_system_font(tmp_path, monkeypatch):
    """With no Japanese font on the machine the pages and card pictures still get their glyphs."""
    monkeypatch.setenv("RULEKIT_SITE_FONT", str(tmp_path / "none.ttf"))
    monkeypatch.setattr(fonts, "CANDIDATES", ())
    assert fonts.source_font() is None
    files = {"games/x.md": "# 花札\n", "cards/x/1.svg": '<svg xmlns="http://www.w3.org/2000/svg">'
             '<text font-family="serif">松</text></svg>'}
    n = fonts.add_fonts(files, _project_copy(tmp_path))
    assert n == 3
    assert "rulekit-ja.woff2" in files[fonts.CSS_PATH]
    assert "@font-face" in files["cards/x/1.svg"] and "data:font/woff;base64," in files["cards/x/1.svg"]


def test_a_character_the_font_lacks_fails_the_strict_build(tmp_path, caplog):
    """A warning under the mkdocs logger: `mkdocs build --strict` fails on it, naming the character and the page."""
    have = fonts.font_chars(os.path.join(ROOT, fonts.SHIPPED))
    rare = next(chr(c) for c in range(0x9f00, 0x9fa0) if chr(c) not in have)
    files = {"games/x.md": f"# 花{rare}\n"}
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.rulekit.fonts"):
        fonts.add_fonts(files, _project_copy(tmp_path))
    warned = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warned) == 1 and rare in warned[0] and "games/x.md" in warned[0] and fonts.REGENERATE in warned[0]
    assert caplog.records[0].name.startswith("mkdocs.")  # counted by mkdocs --strict


# -- in a browser, from file:// with the network blocked ----------------------------------------------------

def _file_url(rel: str) -> str:
    return "file://" + os.path.join(site(), rel)


@pytest.fixture(scope="module")
def offline(devtools):  # noqa: F811
    devtools.call("Network.enable")
    # every request that leaves the site fails, as on a machine without network; it is still reported
    devtools.call("Network.setBlockedURLs", urls=["http://*", "https://*", "ws://*", "wss://*"])
    return devtools


def _requests(page) -> list[str]:
    return [e["params"]["request"]["url"] for e in page.events if e.get("method") == "Network.requestWillBeSent"]


@pytest.mark.parametrize("rel", PAGES)
def test_a_page_opened_from_the_file_system_loads_nothing_from_outside(offline, rel):
    offline.goto(_file_url(rel))
    offline.js("document.querySelectorAll('img[loading=lazy]').forEach(i => i.loading = 'eager'); 1")
    offline.wait_for("[...document.images].every(i => i.complete)")
    time.sleep(0.5)
    offline.js("1")  # collect the events that came meanwhile
    requests = _requests(offline)
    assert requests, rel
    outside = [u for u in requests if not u.startswith(LOCAL)]
    assert outside == [], (rel, outside)
    # the Japanese web font is the shipped one, and it loaded
    if fonts.japanese_chars(offline.js("document.body.innerText")):
        assert offline.wait_for(
            "document.fonts.check('16px rulekit-ja', '\u82b1') && [...document.fonts].some("
            "f => f.family.replace(/\"/g, '') === 'rulekit-ja' && f.status === 'loaded')", timeout=10), rel
    # every link within the site names a page or a picture, never a folder (shown as a file listing)
    folders = offline.js("[...document.querySelectorAll('a[href]')].map(a => a.href)"
                         ".filter(h => h.startsWith('file:') && h.split('#')[0].split('?')[0].endsWith('/'))")
    assert folders == [], (rel, folders[:5])


def test_links_from_the_file_system_open_pages(offline):
    """Follow every link of the home page and the games index from file://: each opens an HTML page."""
    root = site()
    seen = set()
    for rel in ("index.html", "games/index.html"):
        for link in parse_links(os.path.join(root, rel)).links:
            parts = urlsplit(link)
            if parts.scheme or link.startswith(("#", "/")) or not parts.path:
                continue
            target = os.path.normpath(os.path.join(os.path.dirname(os.path.join(root, rel)), unquote(parts.path)))
            if target in seen or not target.endswith(".html"):
                continue
            seen.add(target)
            assert os.path.isfile(target), (rel, link)
    # and a reader's click, in the browser, lands on the game's page
    offline.goto(_file_url("games/index.html"))
    offline.events.clear()
    offline.js("document.querySelector('article a[href$=\"/index.html\"]').click(); 1")
    offline.wait_event("Page.loadEventFired", 60)  # the new page, loaded (not the old one, unloading)
    here = offline.js("location.href")
    assert here.startswith("file:") and here.endswith("/index.html") and not here.endswith("/games/index.html"), here
    assert offline.js("!!document.querySelector('article h1')")
    assert len(seen) > 10


def test_search_works_from_the_file_system(offline):
    offline.goto(_file_url("index.html"))
    offline.wait_for("!!document.querySelector('.md-search__input')")
    offline.js("document.querySelector('.md-search__input').focus()")
    offline.call("Input.insertText", text="Hiraya")
    hits = offline.wait_for(
        "(() => { const r = [...document.querySelectorAll('.md-search-result__item a')].map(a => a.href);"
        " return r.length ? r : null; })()", timeout=30)
    assert any("/games/hiraya/index.html" in h for h in hits), hits[:5]
    assert all(h.startswith("file:") for h in hits)
    assert [u for u in _requests(offline) if not u.startswith(LOCAL)] == []

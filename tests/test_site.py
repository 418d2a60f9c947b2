"""The rules website: `mkdocs build --strict` in a temporary folder, then checks on the result.

The build runs once per test session (built_site() is cached; the browser test reuses it).
"""
from __future__ import annotations

import atexit
import functools
import html.parser
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from urllib.parse import unquote, urlsplit

import pytest

from rulekit.engine.build import build_game, check_variant, load_variant
from rulekit.lang.decks import deck_names, load_deck
from rulekit.engine.runner import make_agents, play
from rulekit.core.errors import render_all
from rulekit.lang.expr.functions import REGISTRY

from .conftest import ROOT, playable

TUTORIAL = os.path.join(ROOT, "docs", "tutorial", "first-variant.yaml")


@functools.cache
def built_site() -> tuple[str, float, int, str]:
    """(site folder, seconds, exit code, output) of one strict build into a temporary folder.

    RULEKIT_TEST_SITE names a site built already (`mkdocs build --strict -d DIR`): the tests read it instead,
    which saves a build while working on the checks themselves."""
    given = os.environ.get("RULEKIT_TEST_SITE")
    if given:
        return given, 0.0, 0 if os.path.isfile(os.path.join(given, "index.html")) else 1, f"no site in {given}"
    out = tempfile.mkdtemp(prefix="rulekit-site-")
    atexit.register(shutil.rmtree, out, True)
    # no switches that hide upgrade banners: the pinned toolchain must print none (test_site_stats.py)
    env = {k: v for k, v in os.environ.items() if k not in ("DISABLE_MKDOCS_2_WARNING", "NO_MKDOCS_2_WARNING")}
    t = time.time()
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", out,
                        "-f", os.path.join(ROOT, "mkdocs.yml")],
                       cwd=ROOT, capture_output=True, text=True, env=env, timeout=900)
    return out, time.time() - t, r.returncode, r.stdout + r.stderr


def site() -> str:
    out, _secs, code, log = built_site()
    if code != 0:
        pytest.fail(f"mkdocs build --strict failed (exit {code}):\n{log[-6000:]}")
    return out


def read(path: str) -> str:
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def page(rel: str) -> str:
    path = os.path.join(site(), rel)
    assert os.path.isfile(path), f"missing page {rel}"
    return read(path)


class Links(html.parser.HTMLParser):
    """Every link (href/src) and every id of an HTML page."""

    def __init__(self):
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "a" and a.get("name"):
            self.ids.add(a["name"])
        for k in ("href", "src"):
            if a.get(k) and not (tag == "link" and a.get("rel") in ("canonical",)):
                self.links.append(a[k])


def parse_links(path: str) -> Links:
    p = Links()
    p.feed(read(path))
    return p


def html_files(root: str) -> list[str]:
    out = []
    for d, _dirs, files in os.walk(root):
        out += [os.path.join(d, f) for f in files if f.endswith(".html")]
    return sorted(out)


def playable_variants():
    return [load_variant(f) for f in playable()]


# -- the build ---------------------------------------------------------------------------------

def test_site_builds_in_strict_mode():
    out, secs, code, log = built_site()
    assert code == 0, log[-6000:]
    assert os.path.isfile(os.path.join(out, "index.html"))
    assert "rulekit:" in log  # the generator reported what it made
    print(f"mkdocs build --strict: {secs:.1f}s")


SEED_GAMES = ("dare", "hiraya", "kakkuri", "otoroku", "kyo-kabu")
#: the rules sections of a page, in reader order (anchors); each is there when the game has it
READER_ORDER = ("equipment", "setup", "play", "hands", "settling", "end", "house-rules", "example",
                "how-it-plays", "sources", "machine")
#: expression syntax a player must never meet outside the folded engine view ("For rules authors")
EXPRESSION_SYNTAX = [re.compile(p) for p in (r"->", r"==", r"!=", r"\bopt\.", r"\bcount\(", r"\bfilter\(",
                                             r"\bmap\(", r"\bsum\(", r"\bseats_from\(", r"\bright_of\(",
                                             r"\bn_players\b", r"\bif\b[^.;:]{1,80}\bthen\b")]


class PlayerText(html.parser.HTMLParser):
    """The text of a page's article a player reads: without the folded machine block, the command-line
    notes, scripts or styles."""

    def __init__(self):
        super().__init__()
        self.out: list[str] = []
        self.article = 0
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "article":
            self.article += 1
        folded = tag == "details" and any(c in (a.get("class") or "").split() for c in ("rk-machine", "rk-cli"))
        if self.skip or folded or tag in ("script", "style"):
            self.skip += 1 if tag not in ("img", "br", "hr", "input", "meta", "link") else 0

    def handle_endtag(self, tag):
        if self.skip and tag not in ("img", "br", "hr", "input", "meta", "link"):
            self.skip -= 1
        elif tag == "article":
            self.article -= 1

    def handle_data(self, data):
        if self.article and not self.skip:
            self.out.append(data)


def player_text(page_html: str) -> str:
    p = PlayerText()
    p.feed(page_html)
    return " ".join(" ".join(p.out).split())


def expression_syntax(text: str) -> list[str]:
    """Each piece of expression syntax in `text`, with a little context."""
    hits = []
    for rx in EXPRESSION_SYNTAX:
        for m in rx.finditer(text):
            hits.append(text[max(0, m.start() - 40):m.end() + 40])
    return hits


def test_every_variant_has_its_page_with_the_same_anatomy():
    for v in playable_variants():
        text = page(f"games/{v.meta.id}/index.html")
        assert v.meta.names["en"].replace("&", "&amp;") in text
        for anchor in ("quick-reference", "equipment", "play", "house-rules", "how-it-plays", "example", "sources",
                       "machine", "game", "zones"):
            assert f'id="{anchor}"' in text, (v.meta.id, anchor)
        where = [text.find(f'id="{a}"') for a in READER_ORDER if f'id="{a}"' in text]
        assert where == sorted(where), (v.meta.id, "sections out of reader order")
        if v.tree.value.get("yaku") is not None and v.tree.value["yaku"].value:
            assert 'id="hands"' in text and 'rk-table rk-yaku' in text, v.meta.id
        assert 'class="rk-card' in text, v.meta.id      # the deck as pictures
        assert 'class="rk-steps"' in text, v.meta.id    # the round, step by step (folded)
        assert text.index('class="rk-steps"') > text.index('<details class="rk-machine">'), v.meta.id
        assert 'class="rk-story"' in text, v.meta.id    # the worked example
        assert text.count("<div") == text.count("</div>"), (v.meta.id, "a block closed twice or never")
        if os.environ.get("RULEKIT_SITE_ROUNDS", "1") != "0":
            assert 'id="statistics"' in text and 'class="rk-chart"' in text, v.meta.id
        assert 'id="differences"' not in text, v.meta.id  # the page states the whole game, not a diff
        for s in v.meta.sources:
            url = s.get("url") if isinstance(s, dict) else s
            assert f'href="{url}"' in text, (v.meta.id, url)


def test_no_expression_syntax_where_players_read():
    bad = {}
    for v in playable_variants():
        hits = expression_syntax(player_text(page(f"games/{v.meta.id}/index.html")))
        if hits:
            bad[v.meta.id] = hits[:5]
    assert bad == {}, "\n".join(f"{k}: {x}" for k, xs in bad.items() for x in xs)


def test_no_program_words_where_players_read():
    """Issue 25: no option key, code token, command-line switch or file path outside the engine view and
    the command-line notes of the seed pages."""
    from rulekit.lang.vocabcheck import PROGRAM_WORD
    bad = {}
    for gid in SEED_GAMES:
        words = [m.group(0) for m in PROGRAM_WORD.finditer(player_text(page(f"games/{gid}/index.html")))
                 if not m.group(0).startswith("`")]
        if words:
            bad[gid] = words[:8]
    assert bad == {}, bad


def test_the_expression_check_finds_what_it_must():
    sample = ('<article><p>Game ends when <code>opt.stones &gt; 0 and count(filter(seats, s -&gt; chips[s] == 0))'
              '</code></p><p>m = if a then 1 else 2</p><details class="rk-machine"><summary>x</summary>'
              '<p>hidden c -&gt; c.value</p></details><p>The dealer then draws.</p></article>')
    text = player_text(sample)
    assert "hidden" not in text and "The dealer then draws." in text
    hits = expression_syntax(text)
    assert len(hits) >= 5 and not any("The dealer then draws" in h and "if" not in h for h in hits)


def test_kakkuri_box_gives_the_table_sizes_the_default_rules_play():
    text = player_text(page("games/kakkuri/index.html"))
    assert "Players 7 or 8" in text, text[:600]


def test_index_lists_every_game_and_families_have_pages():
    index = page("games/index.html")
    home = page("index.html")
    for v in playable_variants():
        assert f'href="../{v.meta.id}/index.html"' in index or f'href="{v.meta.id}/index.html"' in index, v.meta.id
        fam = "set-matching" if v.meta.family in ("matching", "set-matching") else v.meta.family
        assert v.meta.id in page(f"families/{fam}/index.html")
        assert f"games/{v.meta.id}/" in home
    assert "Banking games" in home and "Fishing games" in home


def test_the_games_index_names_decks_as_players_do_and_the_home_page_serves_every_reader():
    from rulekit.lang.decks import load_deck
    index = player_text(page("games/index.html"))
    for v in playable_variants():
        base = v.decks[v.default_deck].base
        assert load_deck(base).names["en"] in index, base       # "Hanafuda as kabufuda", not its id
    assert "hanafuda-kabu ," not in index and "48 cards), 48 cards" not in index
    home = player_text(page("index.html"))
    for part in ("Learn a game", "Write your table's rules", "For authors: write down a new game",
                 "For analysts: measure a game"):
        assert part in home
    # the pages print plain words now: the home page must not promise formulas in the rules
    assert "payouts with their formulas" not in home and "shown as they are written" not in home


def test_internal_links_and_pictures_resolve():
    root = site()
    broken = []
    cache: dict[str, Links] = {}
    for f in html_files(root):
        links = cache.setdefault(f, parse_links(f))
        for link in links.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith(("mailto:", "data:", "javascript:")):
                continue
            if not parts.path:
                target = f
            elif parts.path.startswith("/"):  # 404.html links from the site root
                target = os.path.normpath(os.path.join(root, unquote(parts.path).lstrip("/")))
            else:
                target = os.path.normpath(os.path.join(os.path.dirname(f), unquote(parts.path)))
            if (parts.path.endswith("/") or os.path.isdir(target)) and not parts.path.startswith("/"):
                # opened from the file system (file://) a folder shows as a file listing, not its page
                broken.append(f"{os.path.relpath(f, root)}: {link} (a folder, not a page: broken from file://)")
                continue
            if parts.path.endswith("/") or os.path.isdir(target):
                target = os.path.join(target, "index.html")
            if not os.path.exists(target):
                broken.append(f"{os.path.relpath(f, root)}: {link}")
                continue
            if parts.fragment and target.endswith(".html"):
                ids = cache.setdefault(target, parse_links(target)).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{os.path.relpath(f, root)}: {link} (no such anchor)")
    assert broken == [], "\n".join(broken[:40])


def test_every_card_of_every_deck_has_a_picture():
    root = site()
    from rulekit.website.cards import card_path
    for name in deck_names():
        for c in load_deck(name).cards:
            path = os.path.join(root, card_path(name, c.id))
            assert os.path.isfile(path), path
            svg = ET.parse(path).getroot()
            assert svg.tag.endswith("svg")
            title = svg.find("{http://www.w3.org/2000/svg}title")
            assert title is not None and c.name in title.text


def test_reference_pages_are_generated_from_the_sources():
    expressions = page("reference/expressions/index.html")
    for name in REGISTRY:
        assert f"{name}(" in expressions, name
    assert "COMPOP" in expressions  # the grammar
    cli = page("reference/cli/index.html")
    from rulekit.cli.main import build_parser
    import argparse
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for cmd in sub.choices:
        assert f"rulekit {cmd}" in cli, cmd
    fmt = page("reference/variant-format/index.html")
    import json
    schema = json.load(open(os.path.join(ROOT, "schemas", "variant.schema.json"), encoding="utf-8"))
    for d in schema["$defs"]:
        assert f'id="def-{d.lower()}"' in fmt, d
    decks = page("reference/decks/index.html")
    for name in deck_names():
        assert f"{name}/" in decks
        assert "rk-card" in page(f"reference/decks/{name}/index.html")


def test_tutorial_page_includes_the_real_file():
    text = page("tutorial/first-variant/index.html")
    assert "last-digit" in text and "--8&lt;--" not in text and "--8<--" not in text
    assert "What the engine makes of it" in text
    assert os.path.isfile(os.path.join(site(), "tutorial", "first-variant.yaml"))


def test_house_rules_guide_is_in_the_navigation():
    home = page("index.html")
    assert "guides/house-rules/" in home


# -- the tutorial's rules file -----------------------------------------------------------------

def test_tutorial_variant_validates():
    diags = [d for d in check_variant(TUTORIAL, strict=True) if d.severity == "error"]  # W091 is advice
    assert diags == [], render_all(diags)


def test_tutorial_variant_plays_a_seeded_round():
    v = load_variant(TUTORIAL)
    game = build_game(v)
    n = v.meta.players_default
    a = play(game, n, 1, make_agents(game, n, 1, "random"), rounds=1, logging=True)
    b = play(game, n, 1, make_agents(game, n, 1, "random"), rounds=1, logging=True)
    assert a.events == b.events  # seeded: the same round twice
    assert sum(a.chips) == 0     # the dealer's gains are the players' losses
    assert any(e["t"] == "pay" for e in a.events) or all(c == 0 for c in a.chips)
    for deck in v.decks:
        g = build_game(v, deck=deck)
        play(g, v.meta.players_max, 2, make_agents(g, v.meta.players_max, 2, "random"), rounds=3, logging=False)


# -- the generator, without a build ----------------------------------------------------------------

def test_steps_render_as_sentences():
    from rulekit.website.rules import Renderer
    r = Renderer()
    move = r.step({"move": {"from": "deck", "to": "column[i]", "count": 1, "face": "up"}})
    assert move == "Move 1 card from <code>deck</code> to <code>column[i]</code>, face up."
    choose = r.step({"choose": "bet", "player": "p", "prompt": "Stake on a column",
                     "options": {"col": "range(4)"}, "where": "col >= 0"})
    assert choose.startswith("Seat <code>p</code> chooses (<em>bet</em>): “Stake on a column”")
    assert "<code>range(4)</code>" in choose and "<code>col &gt;= 0</code>" in choose
    nested = r.steps([{"for": "p", "in": "seats", "do": [{"if": "p == dealer", "then": [{"say": "hi"}],
                                                          "else": [{"end_round": "done"}]}]}])
    assert nested.count("<ol") == 4 and "Otherwise:" in nested


def test_yaku_cards_are_read_from_the_condition():
    from rulekit.website.yakucards import candidate_cards
    deck = load_deck("kabufuda")
    nines = candidate_cards("count(cards, c -> c.value == 9) == 2", deck, {})
    assert [deck.cards[i].attrs["value"] for i in nines] == [9, 9, 9, 9]
    pair = candidate_cards("sorted(map(cards, c -> c.value)) == [1, 4]", deck, {})
    assert {deck.cards[i].attrs["value"] for i in pair} == {1, 4}
    first = candidate_cards("count(cards) == 2 and cards[0].value == 9 and cards[1].value == 1", deck, {})
    assert {deck.cards[i].attrs["value"] for i in first} == {1, 9}
    named = candidate_cards("card('1-1') in cards", deck, {})
    assert [deck.cards[i].id for i in named] == ["1-1"]
    assert candidate_cards("sum(cards, c -> c.value) % 10 == 0", deck, {}) is None  # no per-card condition

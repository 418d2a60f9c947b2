"""How it plays: statistics under a named strategy, the house-rule effects table, and the site fixes
that go with them (reproducible output, phone layout, sources, search, pinned toolchain).

The HTML checks reuse the one strict build of tests/test_site.py; the browser checks reuse the
Chromium fixtures of tests/test_site_browser.py and keep screenshots under artifacts/.
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import tomllib
from types import SimpleNamespace

import markdown
import pytest

from rulekit.engine.build import build_game, load_variant
from rulekit.analysis.compare import compare
from rulekit.engine.runner import make_agents, play
from rulekit.lang.loader import plain
from rulekit.website.effects import changes, effects_all, role_effects, site_policy
from rulekit.website.sources import public_text, source_html
from rulekit.website.util import mdcode

from .conftest import ROOT, VARIANTS, playable
from .test_site import built_site, page
from .test_site_browser import ARTIFACTS, browser, devtools, search, server  # noqa: F401 - fixtures

SEED_GAMES = {"dare": "kabufuda/dare.yaml", "hiraya": "hanafuda/hiraya.yaml", "kakkuri": "mekurifuda/kakkuri.yaml",
              "otoroku": "hanafuda/otoroku.yaml", "kyo-kabu": "kabufuda/kyo-kabu.yaml"}


def needs_simulations(effects: bool = False) -> None:
    """Skip a page check when the build was told to skip the simulations it looks at."""
    if os.environ.get("RULEKIT_SITE_ROUNDS") == "0" or (effects and os.environ.get("RULEKIT_SITE_EFFECT_ROUNDS") == "0"):
        pytest.skip("the site was built without simulations (RULEKIT_SITE_ROUNDS / RULEKIT_SITE_EFFECT_ROUNDS = 0)")


def seed_variant(gid: str):
    return load_variant(os.path.join(VARIANTS, SEED_GAMES[gid]))


def section(html_text: str, anchor: str) -> str:
    """The HTML from the heading with this id to the next heading of the same or a higher level."""
    m = re.search(rf'<h([1-6])[^>]*id="{anchor}"', html_text)
    assert m, f"no heading #{anchor}"
    level = int(m.group(1))
    rest = html_text[m.end():]
    end = re.search(rf"<h[1-{level}][ >]", rest)
    return rest[:end.start()] if end else rest


# -- the strategy, the changes, the pairing --------------------------------------------------------

def test_site_strategy_is_careful_then_the_first_declared_then_random():
    assert site_policy(SimpleNamespace(policies={"greedy": {}, "careful": {}})) == "careful"
    assert site_policy(SimpleNamespace(policies={"cautious": {}, "bold": {}})) == "cautious"
    assert site_policy(SimpleNamespace(policies={})) == "random"
    game = build_game(seed_variant("kyo-kabu"))
    assert site_policy(game) in game.policies


def test_every_non_default_option_value_and_every_preset_is_a_change():
    for gid in SEED_GAMES:
        v = seed_variant(gid)
        chs = changes(v)
        keys = [c.key for c in chs]
        assert len(keys) == len(set(keys)), gid
        for o in v.options.values():
            tried = [c.value for c in chs if c.option == o.name]
            assert o.default not in tried, (gid, o.name)
            if o.type == "choice":
                assert sorted(map(str, tried)) == sorted(str(k) for k, _ in o.values if str(k) != str(o.default))
            elif o.type == "bool":
                assert tried == [not o.default]
            else:
                assert all((o.min is None or t >= o.min) and (o.max is None or t <= o.max) for t in tried)
        assert [c.preset for c in chs if c.preset] == list(v.presets), gid


def test_role_effects_pair_round_by_round():
    base = [[2, -1, -1], [0, 0, 0], [-3, 3, 0]]
    changed = [[4, -2, -2], [0, 0, 0], [-3, 3, 0]]
    r = role_effects(base, changed)
    assert r["dealer"][0] == pytest.approx(2 / 3)
    assert r["others"][0] == pytest.approx(-1 / 3)
    assert r["unchanged_rounds"] == 2 and r["rounds"] == 3
    assert r["dealer"][1] > 0  # an interval, not a point


def test_effects_match_the_command_lines_paired_comparison(tmp_path):
    v = seed_variant("kyo-kabu")
    base = build_game(v)
    policy = site_policy(base)
    opt, val = next((o.name, k) for o in v.options.values() if o.type == "choice"
                    for k, _ in o.values if str(k) != str(o.default))
    ch = next(c for c in changes(v) if c.option == opt and c.value == val)
    rounds = 80
    got = effects_all([(v.files[0], v.files, v.meta.players_default, policy, [ch])], rounds,
                      cache_dir=str(tmp_path))[v.files[0]][ch.key]
    p = compare(base, build_game(v, {opt: val}), v.meta.players_default, rounds, 1, policy)
    n = v.meta.players_default
    assert got["dealer"][0] == pytest.approx(p.diff[0] / rounds)
    assert got["others"][0] == pytest.approx(sum(p.diff[1:]) / (n - 1) / rounds)


def test_effects_are_read_from_the_cache(tmp_path, monkeypatch):
    v = seed_variant("dare")
    chs = changes(v)[:2]
    job = [(v.files[0], v.files, v.meta.players_default, "random", chs)]
    first = effects_all(job, 20, cache_dir=str(tmp_path), workers=1)
    import rulekit.website.effects as eff

    def boom(*a, **k):
        raise AssertionError("simulated again although the cache holds the result")
    monkeypatch.setattr(eff, "_job", boom)
    assert effects_all(job, 20, cache_dir=str(tmp_path), workers=1) == first
    with pytest.raises(AssertionError):  # another number of rounds is another key
        effects_all(job, 21, cache_dir=str(tmp_path), workers=1)


# -- the built pages -----------------------------------------------------------------------------

@pytest.mark.parametrize("gid", sorted(SEED_GAMES))
def test_house_rule_effects_table_with_intervals(gid):
    needs_simulations(effects=True)
    text = page(f"games/{gid}/index.html")
    effects = section(text, "house-rule-effects")
    assert 'class="rk-table rk-effects"' in effects
    rows = re.findall(r"<tr>(.*?)</tr>", effects.split("<tbody>", 1)[1], re.S)
    assert rows, gid
    for r in rows:
        cells = re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)
        assert len(cells) == 4
        assert "(instead of:" in cells[0] or "Preset" in cells[0], cells[0]
        for c in cells[1:3]:  # dealer, each other player: a mean with its 95% interval
            assert re.search(r"[+−±]\d+\.\d+ <small>\(±\d+\.\d+\)</small>", c) or c == "no change", c
    assert "dealer" in effects and "each other player" in effects


@pytest.mark.parametrize("gid", sorted(SEED_GAMES))
def test_statistics_name_the_strategy_and_label_charts(gid):
    needs_simulations()
    v = seed_variant(gid)
    game = build_game(v)
    stats = section(page(f"games/{gid}/index.html"), "statistics")
    policy = site_policy(game)
    if policy == "random":
        assert "at random" in stats
    else:
        assert f"strategy <strong>{policy}</strong>" in stats
        assert f"--policy {policy}" in stats
    charts = re.findall(r'<figure\b[^>]*\bclass="rk-chart"[^>]*>.*?</figure>', stats, re.S)
    assert charts, gid
    for c in charts:
        assert "<figcaption>" in c and 'class="rk-axis-title"' in c and 'class="rk-tick"' in c
    from rulekit.website.util import money_words
    assert f"{money_words(game)[1]} won (+) or lost (−) per round" in stats  # in the game's own unit
    # outcomes are named as the rules file names them, never by their ids
    names = plain(v.tree).get("records") or {}
    labels = re.findall(r'<span class="rk-chart-label">([^<]*)</span>', stats)
    for rid, d in names.items():
        assert rid not in labels, rid
    shown = [d["name"] for d in names.values() if d["name"].replace("'", "&#x27;") in stats]
    if names:
        assert shown, gid


def test_the_reproduce_command_gives_the_pages_figures():
    needs_simulations()
    gid = "kyo-kabu"
    stats = section(page(f"games/{gid}/index.html"), "statistics")
    cmd = re.search(r"<code>(rulekit simulate [^<]+)</code>", stats).group(1).split()
    r = subprocess.run([sys.executable, "-m", "rulekit.cli.main", *cmd[1:]], capture_output=True, text=True, timeout=600,
                       cwd=ROOT)
    assert r.returncode == 0, r.stderr
    dealer = re.search(r"^\s+0\s+(-?\d+\.\d+)", r.stdout, re.M).group(1)
    row = re.search(r"seat 0 \(dealer\)</td>\s*<td[^>]*>([^<]+)</td>", stats).group(1)
    assert float(row.replace("−", "-")) == pytest.approx(float(dealer), abs=0.006)


def test_no_private_rule_references_or_literal_entities_reach_readers():
    out = built_site()[0]
    for d, _dirs, files in os.walk(out):
        for f in files:
            if f.endswith(".html"):
                text = open(os.path.join(d, f), encoding="utf-8").read()
                assert "RULES §" not in text, f
                assert "&amp;#124;" not in text, f  # an entity escaped inside a code span shows literally


def test_option_sources_link_the_variants_public_sources():
    v = seed_variant("hiraya")
    agreements = section(page("games/hiraya/index.html"), "house-rules")
    urls = [s["url"] for s in v.meta.sources if isinstance(s, dict) and s.get("url")]
    linked = re.findall(r'Source: .*?</small>', agreements, re.S)
    assert linked
    assert any(f'href="{u}"' in x for x in linked for u in urls)
    assert public_text("fudawiki X: y (RULES §5.7 x.y)") == "fudawiki X: y"
    assert "RULES" not in source_html("RULES §2.4 says so", [])


def test_pipes_stay_inside_code_spans_in_tables():
    html = markdown.markdown(f"| a | b |\n|---|---|\n| {mdcode('x | y')} | z |", extensions=["tables"])
    assert "<code>x | y</code>" in html and "&#124;" not in html
    expressions = page("reference/expressions/index.html")
    assert '<code>"+" | "-"</code>' in expressions


def test_player_counts_shown_are_those_the_defaults_play():
    v = seed_variant("kakkuri")
    game = build_game(v)
    refused = []
    for n in range(v.meta.players_min, v.meta.players_max + 1):
        if n not in game.player_sizes():  # refused before any card is dealt (players.sizes)
            refused.append(n)
            continue
        res = play(game, n, 1, make_agents(game, n, 1, "first"), rounds=1, logging=True, dealer=0)
        if not any(e.get("t") in ("deal", "move") for e in res.events):  # no card ever leaves the pack
            refused.append(n)
    assert refused, "the default options refuse no table: nothing to check"
    # the first "Players" fact of the page (infobox or quick-reference box), whatever its markup
    m = re.search(r">\s*Players\s*<.*?>\s*(\d+)", page("games/kakkuri/index.html"), re.S)
    assert m, "no Players fact on the page"
    first = int(m.group(1))
    assert first not in refused and first == min(set(range(v.meta.players_min, v.meta.players_max + 1)) - set(refused))


def test_records_names_belong_to_record_steps():
    for f in playable():
        tree = plain(load_variant(f).tree)
        named = set(tree.get("records") or {})
        if not named:
            continue
        used: set[str] = set()

        def walk(x):
            if isinstance(x, dict):
                r = x.get("record")
                if isinstance(r, str):
                    used.add(r)
                elif isinstance(r, dict) and "name" in r:
                    used.add(str(r["name"]))
                for v in x.values():
                    walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)
        walk(tree)
        assert named <= used, (f, sorted(named - used))


# -- reproducible output, pinned toolchain ---------------------------------------------------------

DIGEST = """
import hashlib, json, sys
from rulekit.website import build_site
files, _ = build_site(sys.argv[1], rounds=40, cache_dir=sys.argv[2])
print(json.dumps({k: hashlib.sha256(v if isinstance(v, bytes) else v.encode()).hexdigest()
                  for k, v in sorted(files.items())}))
"""


def test_generated_site_is_the_same_for_any_hash_seed():
    # 42 is a seed that put the payout legend of a variant in another order before it was sorted;
    # each run simulates afresh (its own cache), so set order in the engine would show too
    outs = []
    procs = []
    for seed in ("1", "42"):
        cache = tempfile.mkdtemp(prefix="rulekit-hashseed-")
        env = {**os.environ, "PYTHONHASHSEED": seed, "RULEKIT_SITE_EFFECT_ROUNDS": "4"}
        procs.append(subprocess.Popen([sys.executable, "-c", DIGEST, ROOT, cache], stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT))
    for p in procs:
        out, err = p.communicate(timeout=900)
        assert p.returncode == 0, err[-3000:]
        outs.append(json.loads(out))
    a, b = outs
    assert a.keys() == b.keys()
    differ = sorted(k for k in a if a[k] != b[k])
    assert not differ, differ


def test_build_output_has_no_upgrade_banners():
    _out, _secs, code, log = built_site()
    assert code == 0
    for banner in ("MkDocs 2.0", "ProperDocs", "properdocs", "end of life", "Zensical", "MKDOCS_2_WARNING"):
        assert banner not in log, banner


def test_docs_toolchain_is_pinned():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as fh:
        docs = tomllib.load(fh)["project"]["optional-dependencies"]["docs"]
    by_name = {re.match(r"[A-Za-z0-9_.-]+", d).group(0).lower(): d for d in docs}
    assert "<2" in by_name["mkdocs"]
    for name in ("mkdocs-material", "mkdocs-gen-files", "mkdocs-literate-nav"):
        assert "<" in by_name[name] and ">=" in by_name[name], by_name[name]


# -- in the browser ------------------------------------------------------------------------------

WIDE = """(() => { const w = document.documentElement.clientWidth;
  return [...document.querySelectorAll('article.md-content__inner *')]
    .filter(e => !e.closest('pre') && e.getBoundingClientRect().width > 0
                 && e.getBoundingClientRect().right > w + 1)
    .slice(0, 5).map(e => e.tagName + '.' + e.className + ' ' + e.textContent.slice(0, 40)); })()"""


@pytest.mark.parametrize("width", [390, 1280])
def test_seed_game_pages_fit_the_screen(devtools, server, width):
    needs_simulations(effects=True)
    os.makedirs(ARTIFACTS, exist_ok=True)
    devtools.call("Emulation.setDeviceMetricsOverride", width=width, height=1000, deviceScaleFactor=1,
                  mobile=width < 600)
    try:
        for gid in sorted(SEED_GAMES):
            devtools.goto(f"{server}games/{gid}/")
            devtools.wait_for("document.querySelector('#house-rule-effects') !== null")
            assert devtools.js(WIDE) == [], (gid, width)
            devtools.js("window.scrollTo(500, window.scrollY)")
            assert devtools.js("window.scrollX") == 0, (gid, width)
            sizes = devtools.js("[...document.querySelectorAll('.rk-chart-label, .rk-tick, .rk-chart-value')]"
                                ".map(e => parseFloat(getComputedStyle(e).fontSize))")
            assert sizes and min(sizes) >= 11, (gid, width, min(sizes or [0]))
            devtools.js("document.querySelector('#statistics').scrollIntoView()")
            time.sleep(0.3)
            devtools.screenshot(os.path.join(ARTIFACTS, f"stats-{gid}-{width}.png"))
            devtools.js("document.querySelector('#house-rule-effects').scrollIntoView()")
            time.sleep(0.2)
            devtools.screenshot(os.path.join(ARTIFACTS, f"effects-{gid}-{width}.png"))
    finally:
        devtools.call("Emulation.setDeviceMetricsOverride", width=1280, height=1000, deviceScaleFactor=1,
                      mobile=False)


def test_a_yaku_name_finds_its_yaku_entry_first(devtools, server):
    v = seed_variant("otoroku")
    name = next(y["names"]["en"] for t in plain(v.tree)["yaku"].values() for y in t
                if len(y["names"]["en"].split()) == 1)
    results = search(devtools, server, name)
    first_section = next((r for r in results if "#" in r), results[0])
    assert "#yaku" in first_section, (name, results[:5])
    devtools.screenshot(os.path.join(ARTIFACTS, "search-yaku.png"))


# -- the statistics' rounds shared with the effects, and the cache ------------------------------------

def test_the_statistics_keep_the_very_rounds_the_effects_pair_with(tmp_path, monkeypatch):
    import rulekit.website.effects as eff
    from rulekit.website.stats import play_all
    v = seed_variant("kyo-kabu")
    n, policy = v.meta.players_default, site_policy(build_game(v))
    path = v.files[0]
    (stats, rows), = play_all([(path, v.files, n, policy)], 150, cache_dir=str(tmp_path), keep=120).values()
    assert stats.rounds == 150 and len(rows) == 120
    assert rows == eff._base_job(path, n, 120, 1, policy)  # the effects' own default rounds, seed for seed
    chs = changes(v)[:2]
    alone = effects_all([(path, v.files, n, policy, chs)], 120, workers=1)

    def boom(*a, **k):
        raise AssertionError("the default rules' rounds were played again")
    monkeypatch.setattr(eff, "_base_job", boom)
    assert effects_all([(path, v.files, n, policy, chs)], 120, workers=1, bases={path: rows}) == alone


def test_a_house_rule_no_round_reads_takes_the_default_rounds_with_the_same_result(monkeypatch):
    import rulekit.website.effects as eff
    v = load_variant(os.path.join(VARIANTS, "hanafuda/kingo.yaml"))
    free = eff.round_free_options(v)
    assert "rounds" in free  # read by the game's length only, which a round played on its own never works out
    assert "wager" not in free  # read by the round's own rules
    path, n = v.files[0], v.meta.players_default
    policy = site_policy(build_game(v))
    chs = [c for c in changes(v) if c.key in ("option:rounds=24", "preset:three-rounds") or c.option == "wager"]
    assert len(chs) == 3
    # every change played, as before the screen: the result the screened changes must give
    played = eff._play_changes(path, n, 150, 1, policy, [(c.key, c.option, c.value, c.preset, False) for c in chs],
                               None)
    games = []
    real = eff._rounds

    def counting(game, *args):
        games.append(dict(game.options))
        return real(game, *args)
    monkeypatch.setattr(eff, "_rounds", counting)
    got = eff.effects_all([(path, v.files, n, policy, chs)], 150, workers=1)[path]
    assert got == played
    assert got["option:rounds=24"]["unchanged_rounds"] == got["option:rounds=24"]["rounds"] == eff.MIN_ROUNDS
    default = {k: o.parse(o.default) for k, o in v.options.items()}
    assert not [g for g in games if g["rounds"] != default["rounds"]]  # the length-only changes: never played
    assert [g for g in games if g["wager"] != default["wager"]]  # a rule a round reads: played


def test_a_damaged_or_foreign_statistics_cache_file_is_played_again_not_trusted(tmp_path):
    from rulekit.website.stats import cache_key, play_all
    v = seed_variant("dare")
    job = [(v.files[0], v.files, v.meta.players_default, "random")]
    (good, rows), = play_all(job, 30, cache_dir=str(tmp_path), keep=10).values()
    key = os.path.join(str(tmp_path), cache_key(v.files, v.meta.players_default, 30, 1, "random") + ".json")
    assert os.path.isfile(key)
    for junk in ('{"rounds": 1', '[1, 2]', '{"rounds": "x", "n": 3}', json.dumps({"__reduce__": "os.system"}),
                 json.dumps({**json.load(open(key)), "rows": [[1]]})):  # rows of another table size
        with open(key, "w", encoding="utf-8") as fh:
            fh.write(junk)
        (again, rows2), = play_all(job, 30, cache_dir=str(tmp_path), keep=10).values()
        assert (again.total, again.wins, rows2) == (good.total, good.wins, rows), junk
    (fewer, rows3), = play_all(job, 30, cache_dir=str(tmp_path), keep=25).values()  # more rounds kept than cached
    assert len(rows3) == 25 and rows3[:10] == rows


def test_a_damaged_or_foreign_effects_cache_file_is_played_again_not_shown(tmp_path):
    from rulekit.website.effects import effects_key
    v = seed_variant("dare")
    chs = changes(v)[:2]
    job = [(v.files[0], v.files, v.meta.players_default, "random", chs)]
    first = effects_all(job, 20, cache_dir=str(tmp_path), workers=1)
    key = os.path.join(str(tmp_path), effects_key(v.files, v.meta.players_default, 20, 1, "random",
                                                    [c.key for c in chs]) + ".json")
    good = json.load(open(key))
    k0 = chs[0].key
    for junk in ("[]", json.dumps({k0: good[k0]}),  # a change missing
                 json.dumps({**good, k0: {**good[k0], "dealer": "<script>alert(1)</script>"}}),
                 json.dumps({**good, k0: {**good[k0], "rounds": 0}}), json.dumps({**good, k0: {"error": 5}})):
        with open(key, "w", encoding="utf-8") as fh:
            fh.write(junk)
        assert effects_all(job, 20, cache_dir=str(tmp_path), workers=1) == first, junk


def test_a_damaged_or_foreign_your_table_cache_file_is_made_again(tmp_path, monkeypatch):
    import glob
    import rulekit.website.yourtable as yt
    from rulekit.lang.prose import Prose
    from rulekit.lang.rulestext import rules_doc
    v = load_variant("kingo")
    g, doc = build_game(v), rules_doc(v, Prose.page(v.options))
    first = yt.cached_panel_data(v, g, doc, str(tmp_path))
    path, = glob.glob(os.path.join(str(tmp_path), "yourtable-*.json"))
    assert yt.well_formed(first, "kingo") and not yt.well_formed(first, "dare")
    made = []
    real = yt.panel_data
    monkeypatch.setattr(yt, "panel_data", lambda *a: made.append(1) or real(*a))
    assert yt.cached_panel_data(v, g, doc, str(tmp_path)) == first and not made  # read, not made again
    bad_piece = {**first["pieces"][0], "std": len(first["texts"])}  # points past the texts
    for junk in ("{}", json.dumps({**first, "game": "dare"}), json.dumps({**first, "texts": [[["<b>", 1]]]}),
                 json.dumps({**first, "pieces": [bad_piece] + first["pieces"][1:]})):
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(junk)
        assert yt.cached_panel_data(v, g, doc, str(tmp_path)) == first, junk
    assert len(made) == 4


def test_a_damaged_or_foreign_example_hands_cache_file_is_searched_again(tmp_path):
    import glob
    from rulekit.website.yakuexamples import cached_examples
    v = load_variant("kingo")
    g = build_game(v)
    first = cached_examples(g, tuple(v.files), v.meta.players_default, str(tmp_path))
    assert first, "Kingo's hands have examples"
    path, = glob.glob(os.path.join(str(tmp_path), "yaku-*.json"))
    good = json.load(open(path))
    for junk in ('{"a": 1}', json.dumps([{**good[0], "cards": ["<img src=x>"]}] + good[1:]),
                 json.dumps([{**good[0], "yaku": "no-such-hand"}]), json.dumps([{**good[0], "value": {"x": 1}}])):
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(junk)
        assert cached_examples(g, tuple(v.files), v.meta.players_default, str(tmp_path)) == first, junk

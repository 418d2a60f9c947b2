"""The built site in a real browser: headless Chromium over a local HTTP server.

Loads the home page and a game page (yaku table and card pictures rendered and loaded),
types into the search box (Material's search runs in JavaScript, so Chromium is driven
through the DevTools protocol over its websocket), and saves screenshots under artifacts/.
Skipped, with the reason, when no Chromium is installed (.ci/run installs Debian's).
"""
from __future__ import annotations

import base64
import functools
import http.server
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.request

import pytest

from rulekit.engine.build import load_variant

from .conftest import ROOT, playable
from .test_site import site

ARTIFACTS = os.path.join(ROOT, "artifacts")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync", "--hide-scrollbars",
         "--disable-dev-shm-usage"]


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def browser():
    path = chromium()
    if path is None:
        pytest.skip("no Chromium found (chromium, chromium-browser or google-chrome): the browser test needs "
                    "it; .ci/run installs Debian's chromium when apt-get is available")
    return path


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest's output clean
        pass


@pytest.fixture(scope="module")
def server():
    root = site()
    handler = functools.partial(QuietHandler, directory=root)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)  # a random free port
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


def run_chromium(binary: str, *args: str, timeout: int = 90) -> str:
    with tempfile.TemporaryDirectory(prefix="rulekit-chromium-") as profile:
        r = subprocess.run([binary, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True, text=True,
                           timeout=timeout)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout


def game_with_yaku() -> str:
    """A playable variant with a yaku table (its page must show one)."""
    for f in playable():
        v = load_variant(f)
        if v.tree.value.get("yaku") is not None and v.tree.value["yaku"].value:
            return v.meta.id
    pytest.skip("no variant has yaku")


# -- a minimal DevTools-protocol client (stdlib + websockets) ---------------------------------------

class Page:
    def __init__(self, ws):
        self.ws = ws
        self.ids = itertools.count(1)
        self.events: list[dict] = []

    def call(self, method: str, timeout: float = 30, **params) -> dict:
        i = next(self.ids)
        self.ws.send(json.dumps({"id": i, "method": method, "params": params}))
        end = time.time() + timeout
        while time.time() < end:
            msg = json.loads(self.ws.recv(timeout=max(0.1, end - time.time())))
            if msg.get("id") == i:
                if "error" in msg:
                    raise AssertionError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self.events.append(msg)
        raise AssertionError(f"{method}: no answer in {timeout}s")

    def wait_event(self, name: str, timeout: float = 30) -> dict:
        end = time.time() + timeout
        while time.time() < end:
            for k, e in enumerate(self.events):
                if e.get("method") == name:
                    return self.events.pop(k)
            try:
                self.events.append(json.loads(self.ws.recv(timeout=max(0.1, end - time.time()))))
            except TimeoutError:
                break
        raise AssertionError(f"no {name} in {timeout}s")

    def js(self, expression: str):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in r:
            raise AssertionError(f"{expression}: {r['exceptionDetails']}")
        return r.get("result", {}).get("value")

    def goto(self, url: str) -> None:
        self.events.clear()
        self.call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired", 60)

    def wait_for(self, expression: str, timeout: float = 20):
        end = time.time() + timeout
        value = None
        while time.time() < end:
            value = self.js(expression)
            if value:
                return value
            time.sleep(0.2)
        raise AssertionError(f"timed out waiting for {expression} (last value {value!r})")

    def screenshot(self, path: str) -> None:
        data = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as fh:
            fh.write(base64.b64decode(data))


@pytest.fixture(scope="module")
def devtools(browser):
    ws_client = pytest.importorskip("websockets.sync.client", reason="the websockets package drives Chromium")
    profile = tempfile.mkdtemp(prefix="rulekit-chromium-")
    proc = subprocess.Popen([browser, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0",
                             "--remote-debugging-address=127.0.0.1", "--window-size=1280,1000", "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = os.path.join(profile, "DevToolsActivePort")
        # a safety net, not a speed check: a browser that never starts must not hang the suite
        end = time.time() + 120
        while not os.path.isfile(port_file) or not open(port_file).read().strip():
            assert proc.poll() is None, "chromium exited"
            if time.time() > end:
                raise RuntimeError("chromium did not open its debugging port within 120 s")
            time.sleep(0.1)
        port = int(open(port_file).read().split()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as r:
            targets = json.load(r)
        url = next(t["webSocketDebuggerUrl"] for t in targets if t.get("type") == "page")
        with ws_client.connect(url, max_size=None, open_timeout=10) as ws:
            page = Page(ws)
            page.call("Page.enable")
            page.call("Runtime.enable")
            page.call("Emulation.setDeviceMetricsOverride", width=1280, height=1000, deviceScaleFactor=1,
                      mobile=False)
            yield page
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(profile, ignore_errors=True)


# -- the tests ------------------------------------------------------------------------------------

def test_home_and_game_page_render(browser, server):
    os.makedirs(ARTIFACTS, exist_ok=True)
    home = run_chromium(browser, "--dump-dom", server)
    assert "All games" in home and "md-search__input" in home
    gid = game_with_yaku()
    dom = run_chromium(browser, "--virtual-time-budget=5000", "--dump-dom", f"{server}games/{gid}/")
    assert 'rk-table rk-yaku' in dom          # the yaku table
    assert 'class="rk-card' in dom and ".svg" in dom  # card pictures
    shot = os.path.join(ARTIFACTS, f"site-{gid}.png")
    run_chromium(browser, "--window-size=1280,2000", "--virtual-time-budget=5000", f"--screenshot={shot}",
                 f"{server}games/{gid}/")
    assert os.path.getsize(shot) > 10_000


def test_cards_load_and_yaku_table_is_visible(devtools, server):
    gid = game_with_yaku()
    devtools.goto(f"{server}games/{gid}/#hands")
    loaded = devtools.wait_for(
        "(() => { const imgs = [...document.querySelectorAll('div.rk-yaku table img.rk-card, .rk-cards img.rk-card')];"
        " imgs.forEach(i => i.loading = 'eager');"
        " return imgs.length > 0 && imgs.slice(0, 40).every(i => i.complete && i.naturalWidth > 0) && imgs.length; })()")
    assert loaded > 0
    rows = devtools.js("document.querySelectorAll('div.rk-yaku table tbody tr').length")
    assert rows > 0
    box = devtools.js("(() => { const r = document.querySelector('div.rk-yaku table').getBoundingClientRect();"
                      " return [r.width, r.height]; })()")
    assert box[0] > 300 and box[1] > 50
    devtools.js("document.querySelector('#hands').scrollIntoView()")
    time.sleep(0.3)
    devtools.screenshot(os.path.join(ARTIFACTS, f"site-{gid}-yaku.png"))


def search(devtools, server, text: str) -> list[str]:
    """Type `text` into the site's search box, as a reader would; the result links, in order."""
    devtools.goto(server)
    devtools.js("document.querySelector('.md-search__input').focus()")
    devtools.call("Input.insertText", text=text)
    return devtools.wait_for(
        "(() => { const r = [...document.querySelectorAll('.md-search-result__item a')].map(a => a.href);"
        " return r.length ? r : null; })()", timeout=30)


def test_search_finds_a_game(devtools, server):
    v = load_variant(playable()[0])
    word = v.meta.names["en"].split()[0]
    results = search(devtools, server, word)
    assert any(f"/games/{v.meta.id}/" in r for r in results), results
    count = devtools.js("document.querySelector('.md-search-result__meta').textContent")
    assert count and "matching" in count.lower()
    os.makedirs(ARTIFACTS, exist_ok=True)
    devtools.screenshot(os.path.join(ARTIFACTS, "site-search.png"))


def test_dark_mode_toggle(devtools, server):
    devtools.goto(server)
    before = devtools.js("document.body.getAttribute('data-md-color-scheme')")
    devtools.js("document.querySelector('label.md-header__button[for^=\"__palette\"]:not([hidden])').click()")
    after = devtools.wait_for(
        f"(() => {{ const s = document.body.getAttribute('data-md-color-scheme'); return s !== {json.dumps(before)} && s; }})()")
    assert {before, after} == {"default", "slate"}
    devtools.screenshot(os.path.join(ARTIFACTS, "site-home-toggled.png"))




# -- the rules pages of the seed games, as a reader sees them ---------------------------------------

SCREENSHOTS = os.path.join(ARTIFACTS, "screenshots")
PAGE_FACTS = """(() => {
  const art = document.querySelector('article');
  const plain = art.cloneNode(true);
  plain.querySelectorAll('details.rk-machine').forEach(d => d.remove());
  const top = el => el ? Math.round(el.getBoundingClientRect().top + window.scrollY) : null;
  return {
    quick: [...document.querySelectorAll('#quick-reference th')].map(th => th.textContent.trim()),
    quickVisible: (() => { const q = document.querySelector('#quick-reference');
                           return !!q && q.getBoundingClientRect().height > 40; })(),
    order: [...art.querySelectorAll('h2[id]')].map(h => h.id),
    text: plain.textContent.replace(/\\s+/g, ' '),
    yaku: [...art.querySelectorAll('div.rk-yaku table tbody tr')].filter(tr => !tr.closest('details')).map(tr => ({
      name: tr.cells[0].textContent.trim(),
      cards: tr.cells[1].querySelectorAll('.rk-hand img.rk-card').length,
      hands: tr.cells[1].querySelectorAll('.rk-hand').length,
      why: tr.cells[1].querySelector('em') ? tr.cells[1].querySelector('em').textContent : ''})),
    effects: [...art.querySelectorAll('h2, h3, h4, caption')].some(h => /What each house rule does/i.test(h.textContent)),
    play: top(document.querySelector('#play')),
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  };
})()"""


def _view(devtools, width: int) -> None:
    devtools.call("Emulation.setDeviceMetricsOverride", width=width, height=1000, deviceScaleFactor=1,
                  mobile=width < 600)


def _shoot(devtools, name: str, anchor: str | None = None) -> str:
    os.makedirs(SCREENSHOTS, exist_ok=True)
    if anchor:
        devtools.js(f"(() => {{ const el = document.getElementById({json.dumps(anchor)}); "
                    "if (el) el.scrollIntoView(); return 1; })()")
    else:
        devtools.js("window.scrollTo(0, 0)")
    time.sleep(0.3)
    path = os.path.join(SCREENSHOTS, name)
    devtools.screenshot(path)
    return path


SEED_GAMES = ("dare", "hiraya", "kakkuri", "otoroku", "kyo-kabu")
READER_ORDER = ["equipment", "setup", "play", "hands", "settling", "end", "house-rules", "example", "how-it-plays",
                "sources", "machine"]


@pytest.mark.parametrize("gid", SEED_GAMES)
def test_a_seed_game_page_teaches_the_game(devtools, server, gid):
    from .test_site import expression_syntax
    _view(devtools, 1280)
    devtools.goto(f"{server}games/{gid}/")
    devtools.js("document.querySelectorAll('img[loading=lazy]').forEach(i => i.loading = 'eager'); 1")
    f = devtools.js(PAGE_FACTS)
    # the quick-reference box, visible, with the facts a player needs first
    assert f["quickVisible"], gid
    for label in ("Players", "Deck", "Cards dealt", "Plays first", "The game"):
        assert label in f["quick"], (gid, label, f["quick"])
    # the rules in reader order, before house rules, statistics and the folded machine
    shown = [a for a in f["order"] if a in READER_ORDER]
    assert shown == [a for a in READER_ORDER if a in shown], (gid, f["order"])
    for a in ("equipment", "setup", "play", "end", "house-rules", "how-it-plays", "machine"):
        assert a in shown, (gid, a, f["order"])
    # no expression syntax outside the fold
    assert expression_syntax(f["text"]) == [], (gid, expression_syntax(f["text"])[:5])
    # one example hand per yaku (or a sentence saying why there is none)
    for row in f["yaku"]:
        assert (row["hands"] == 1 and row["cards"] >= 1) or "default rules" in row["why"], (gid, row)
    # the table of what each house rule does (from the statistics part of the page)
    import importlib.util
    if importlib.util.find_spec("rulekit.website.effects") is not None \
            and os.environ.get("RULEKIT_SITE_ROUNDS", "1") != "0":
        assert f["effects"], gid
    print(f"\n{gid}: play rules start {f['play']} px from the top at 1280 px")
    shots = [_shoot(devtools, f"{gid}-1280-top.png"), _shoot(devtools, f"{gid}-1280-play.png", "play")]
    # a phone: nothing wider than the screen
    _view(devtools, 390)
    devtools.goto(f"{server}games/{gid}/")
    f390 = devtools.js(PAGE_FACTS)
    assert f390["scrollWidth"] <= f390["clientWidth"] + 1, (gid, f390["scrollWidth"], f390["clientWidth"])
    shots += [_shoot(devtools, f"{gid}-390-top.png"), _shoot(devtools, f"{gid}-390-play.png", "play")]
    if any(r for r in f["yaku"]):
        shots.append(_shoot(devtools, f"{gid}-390-hands.png", "hands"))
    _view(devtools, 1280)
    for s in shots:
        assert os.path.getsize(s) > 5_000, s
    print(f"{gid}: play rules start {f390['play']} px from the top at 390 px; screenshots: {SCREENSHOTS}")


EXAMPLE_FACTS = """(() => {
  const art = document.querySelector('article');
  const ex = document.getElementById('example');
  const story = ex ? ex.parentElement.querySelector('.rk-story') : null;
  const imgs = story ? [...story.querySelectorAll('.rk-tablepic img')] : [];
  imgs.forEach(i => i.loading = 'eager');
  return {
    order: [...art.querySelectorAll('h2[id]')].map(h => h.id),
    top: ex ? Math.round(ex.getBoundingClientRect().top + window.scrollY) : null,
    height: document.documentElement.scrollHeight,
    stages: story ? story.querySelectorAll('p > strong:first-child').length : 0,
    pictures: story ? story.querySelectorAll('.rk-tablepic').length : 0,
    loaded: imgs.length > 0 && imgs.every(i => i.complete && i.naturalWidth > 0),
    images: imgs.length,
    text: story ? story.textContent.replace(/\\s+/g, ' ') : '',
  };
})()"""


@pytest.mark.parametrize("gid", SEED_GAMES)
def test_rules_then_a_worked_example_with_table_pictures(devtools, server, gid):
    """Issue 25: rules, house rules, then the worked example (its table pictures load), then the figures."""
    _view(devtools, 1280)
    devtools.goto(f"{server}games/{gid}/")
    f = devtools.wait_for(f"(() => {{ const f = {EXAMPLE_FACTS}; return f.loaded ? f : null; }})()", timeout=30)
    order = [a for a in f["order"] if a in ("house-rules", "example", "how-it-plays", "sources", "machine")]
    assert order == [a for a in ("house-rules", "example", "how-it-plays", "sources", "machine") if a in order], order
    assert "example" in order and f["images"] > 0
    assert f["pictures"] >= 1 and f["pictures"] >= f["stages"] - 1, (gid, f["pictures"], f["stages"])
    for phrase in ("has one choice only", "Noted:"):
        assert phrase not in f["text"], (gid, phrase)
    print(f"\n{gid}: worked example at {f['top']} px of {f['height']} px at 1280 px")
    # the narrator's own wording (rulekit/people/narrate.py) is reworked by issue 24: until it is merged
    stale = [p for p in ("the played", "hole card") if p in f["text"]]
    if stale:
        pytest.xfail(f"{gid}: narration wording {stale} (issue 24)")


FIRST_HALF = """(() => {
  const art = document.querySelector('article');
  const ex = document.getElementById('example');
  const top = el => Math.round(el.getBoundingClientRect().top + window.scrollY);
  // shown unless inside a closed fold (its summary excepted); a closed fold's content still has boxes
  const seen = el => { const d = el.parentElement && el.parentElement.closest('details:not([open])');
                       return !d || d.querySelector(':scope > summary').contains(el); };
  const before = el => ex && (el.compareDocumentPosition(ex) & Node.DOCUMENT_POSITION_FOLLOWING);
  return {
    top: ex ? top(ex) : null,
    height: document.documentElement.scrollHeight,
    // what only a house rule brings in, and the list of house rules: folded before the example
    folds: [...art.querySelectorAll('details.rk-fold')].filter(before).map(d => [d.open, seen(d)]),
    options: [...art.querySelectorAll('details.rk-option')].filter(before).filter(seen).length,
    houseOnly: [...art.querySelectorAll('li, tr')].filter(before).filter(seen)
      .filter(e => /^\\W*house rules? only\\b/i.test(e.textContent.trim())
                   || /Not part of the game under the default rules/.test(e.textContent)).length,
  };
})()"""



@pytest.mark.parametrize("gid", SEED_GAMES)
def test_the_worked_example_starts_in_the_first_half_of_the_page(devtools, server, gid):
    """Issue 25: at 1280 px the rules before the worked example are short enough that it starts within the
    first half of the page. What only a house rule brings in is folded there, so the rules a first-time
    reader needs stay visible and nothing else pushes the example down."""
    _view(devtools, 1280)
    devtools.goto(f"{server}games/{gid}/")
    devtools.js("document.querySelectorAll('img[loading=lazy]').forEach(i => i.loading = 'eager'); 1")
    devtools.wait_for("[...document.querySelectorAll('article img')].every(i => i.complete)")
    f = devtools.js(FIRST_HALF)
    assert f["top"] is not None, gid
    assert f["folds"] and all(not is_open and shown for is_open, shown in f["folds"]), (gid, f["folds"])
    assert f["options"] == 0, (gid, f["options"])  # the house-rule list: one fold, closed
    assert f["houseOnly"] == 0, (gid, f["houseOnly"])
    share = f["top"] / f["height"]
    print(f"\n{gid}: worked example at {f['top']} px of {f['height']} px ({share:.1%}) at 1280 px")
    assert share <= 0.5, (gid, f["top"], f["height"])


def test_your_table_panel_rewords_the_rules_and_offers_the_house_file(devtools, server):
    """The Kyō-Kabu page's "Your table" panel: choosing the dealer for ties and a table maximum of
    20 swaps the sentences in place (marked), and the house file shown names both."""
    devtools.goto(f"{server}games/kyo-kabu/")
    devtools.wait_for("(() => { const p = document.querySelector('.rk-yourtable'); return p && !p.hidden; })()")
    body = "document.querySelector('article').innerText.replace(/\\s+/g, ' ')"
    # the usual reading alone: the House rules section tells the others
    assert "When the values are equal, nobody pays." in devtools.js(body)
    assert "(house rule: the dealer wins ties)" not in devtools.js(body)
    devtools.js("(() => { const s = document.querySelector('select[data-option=tie]'); s.value = 'dealer';"
                " s.dispatchEvent(new Event('change')); })()")
    marks = devtools.wait_for("(() => { const m = [...document.querySelectorAll('mark.rk-yt-changed')]"
                              ".map(x => x.textContent); return m.length ? m : null; })()")
    assert "When the values are equal, the dealer wins." in marks
    assert "When the values are equal, nobody pays." not in devtools.js(body)
    devtools.js("(() => { const s = document.querySelector('input[data-option=table_limit]'); s.value = '20';"
                " s.dispatchEvent(new Event('change')); })()")
    assert "The table maximum is 20 chips." in devtools.js(body)
    assert "20 chips" in devtools.js(
        "[...document.querySelectorAll('mark.rk-yt-changed')].map(x => x.textContent).join(' | ')")
    assert "When the values are equal, the dealer wins." in devtools.js(body)  # the first change stays
    yaml = devtools.js("document.querySelector('.rk-yt-yaml').textContent")
    assert 'target: "kyo-kabu"' in yaml and '  tie: "dealer"' in yaml and "  table_limit: 20" in yaml
    href = devtools.js("document.querySelector('.rk-yt-download').href")
    assert href.startswith(("blob:", "data:text/yaml"))
    assert devtools.js("fetch(document.querySelector('.rk-yt-download').href).then(r => r.text())") == yaml
    devtools.js("document.querySelector('#your-table').scrollIntoView()")
    time.sleep(0.3)
    os.makedirs(ARTIFACTS, exist_ok=True)
    devtools.screenshot(os.path.join(ARTIFACTS, "site-kyo-kabu-your-table.png"))
    # back to the standard rules: the page reads as before
    devtools.js("document.querySelector('.rk-yt-reset').click()")
    assert "When the values are equal, nobody pays." in devtools.js(body)
    assert devtools.js("document.querySelectorAll('mark.rk-yt-changed').length") == 0


def test_your_table_panel_adds_a_sentence_the_usual_rules_leave_out(devtools, server):
    """Hiraya's usual rules say nothing about which Willows make a misdeal beyond "three or four": the page
    has no sentence for it, and choosing the house rule puts its sentence, marked, after the misdeal rule."""
    devtools.goto(f"{server}games/hiraya/")
    devtools.wait_for("(() => { const p = document.querySelector('.rk-yourtable'); return p && !p.hidden; })()")
    body = "document.querySelector('article').innerText.replace(/\\s+/g, ' ')"
    rule = "the same dealer shuffles and deals again."
    said = "Of the Willows, only the Rain Man, Swallow and Willow ribbon together make the misdeal."
    before = devtools.js(body)
    assert rule in before and said not in before
    devtools.js("(() => { const s = document.querySelector('select[data-option=misdeal_willows]'); s.value = 'non_wild';"
                " s.dispatchEvent(new Event('change')); })()")
    devtools.wait_for("document.querySelectorAll('mark.rk-yt-changed').length > 0")
    assert f"{rule} {said}" in devtools.js(body)
    devtools.js("document.querySelector('.rk-yt-reset').click()")
    assert devtools.js("document.querySelectorAll('mark.rk-yt-changed').length") == 0
    assert devtools.js(body) == before


def test_house_file_sheet_pages_are_generated():
    from .test_site import page
    html = page("sheets/my-table/index.html")
    assert "Our house rules" in html and "20 chips" in html and "The Saitō family table" in html

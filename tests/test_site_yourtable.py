"""Issue 36: the "Your table" panel in a real browser, on a small site of the seed games Otoroku and Hiraya.

The site is built by the real `mkdocs build --strict` in a copy of the project holding only those games
(and Hiraya's parent), without statistics, so it costs a fraction of the full build. Chromium is driven
over the DevTools protocol (the client of tests/test_site_browser.py). Checked: the same page whatever
order the options of one paragraph are chosen in; the quick reference follows; "Print these rules" prints
this table's rules and nothing else on at most two A4 or Letter pages; the downloaded house file
validates and gives the same rules as `rulekit rules GAME --house FILE`; a hostile name or note cannot
set an option; the controls look and behave as controls, their labels whole at 390 and 1280 px; a
control that cannot apply to the game is not offered.
"""
from __future__ import annotations

import base64
import functools
import http.server
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

import pytest

from .conftest import ROOT
from .siteproject import project_copy
from .test_site_browser import ARTIFACTS, QuietHandler, browser, devtools  # noqa: F401 - fixtures

GAMES = {"otoroku": "hanafuda/otoroku.yaml", "hana-awase": "hanafuda/hana-awase.yaml",
         "hiraya": "hanafuda/hiraya.yaml"}


@functools.cache
def small_site() -> str:
    """The site of the seed games Otoroku and Hiraya alone (a strict build, no statistics)."""
    tmp = tempfile.mkdtemp(prefix="rk-yourtable-site-")
    root = project_copy(tmp, [os.path.join(ROOT, "variants", rel) for rel in GAMES.values()])
    out = os.path.join(tmp, "site")
    env = dict(os.environ, RULEKIT_SITE_ROUNDS="0", RULEKIT_SITE_EFFECT_ROUNDS="0",
               RULEKIT_SITE_CACHE=os.path.join(tmp, "cache"), PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", out, "-f",
                        os.path.join(root, "mkdocs.yml")], cwd=root, capture_output=True, text=True, env=env,
                       timeout=900)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return out


@pytest.fixture(scope="module")
def server():
    import atexit
    root = small_site()
    atexit.register(shutil.rmtree, os.path.dirname(root), True)
    handler = functools.partial(QuietHandler, directory=root)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


READY = "(() => { const p = document.querySelector('.rk-yourtable'); return p && !p.hidden; })()"
BODY = "document.querySelector('article').innerText.replace(/\\s+/g, ' ')"


def _open(devtools, server, gid: str, width: int = 1280) -> None:
    devtools.call("Emulation.setDeviceMetricsOverride", width=width, height=1000, deviceScaleFactor=1,
                  mobile=width < 600)
    devtools.goto(f"{server}games/{gid}/")
    devtools.wait_for(READY)


def _set(devtools, name: str, value) -> None:
    devtools.js(f"(() => {{ const s = document.querySelector('[data-option={name}]'); s.value = {str(value)!r};"
                " s.dispatchEvent(new Event('change')); return s.value; })()")


def _marks(devtools) -> list[str]:
    """The marked words of the rules (the quick reference's marked lines apart)."""
    return devtools.js("[...document.querySelectorAll('article mark.rk-yt-changed')]"
                       ".filter(m => !m.closest('.rk-quick')).map(m => m.textContent)")


# Several options of one paragraph (each pair is read by one piece of the rules)
ORDERS = [
    ("otoroku", [("dealer_bust", "capped"), ("dealer_max_cards", "five")]),
    ("otoroku", [("share", "3"), ("share_timing", "after_deal"), ("rounds", "6")]),
    ("otoroku", [("teyaku_payout", "multiplied"), ("teyaku_ties", "push")]),
    ("hiraya", [("scoring", "additive"), ("fuke", "true"), ("compensation", "true")]),
    ("hiraya", [("wild_last_card", "captures_all"), ("leftover_owner", "mushi")]),
]


@pytest.mark.parametrize("gid,changes", ORDERS)
def test_the_page_is_the_same_whatever_order_the_options_are_chosen_in(devtools, server, gid, changes):
    _open(devtools, server, gid)
    standard = devtools.js(BODY)
    for name, value in changes:
        _set(devtools, name, value)
    first, first_marks = devtools.js(BODY), _marks(devtools)
    devtools.js("document.querySelector('.rk-yt-reset').click()")
    assert devtools.js(BODY) == standard  # back to the standard rules: the page reads as before
    for name, value in reversed(changes):
        _set(devtools, name, value)
    assert devtools.js(BODY) == first
    assert _marks(devtools) == first_marks
    assert first != standard and first_marks
    # every change of the paragraph is shown: each option's own words are in the page
    from rulekit.engine.build import load_variant
    from rulekit.lang.prose import Prose, strip_marks
    from rulekit.lang.rulestext import rules_doc, to_plain
    v = load_variant(gid)
    values = {n: v.options[n].parse(x) for n, x in changes}
    sheet = " ".join(strip_marks(to_plain(rules_doc(v, Prose.sheet(v.options, values)), 10 ** 6)).split())
    for m in first_marks:
        assert " ".join(m.split()) in sheet or m.startswith(" (changed"), (gid, m)
    print(f"\n{gid} {[n for n, _v in changes]}: {len(first_marks)} marked pieces, same in both orders")


def test_a_paragraph_reads_every_change_of_its_options_together(devtools, server):
    """Otoroku's dealer paragraph under a cap at five cards and the capped bust: both rules in it."""
    _open(devtools, server, "otoroku")
    _set(devtools, "dealer_max_cards", "five")
    one = devtools.js(BODY)
    _set(devtools, "dealer_bust", "capped")
    both = devtools.js(BODY)
    _set(devtools, "dealer_max_cards", "unlimited")
    other = devtools.js(BODY)
    # the second choice did not undo the first: the text with both differs from each alone
    assert len({one, both, other}) == 3


def test_the_quick_reference_follows(devtools, server):
    _open(devtools, server, "otoroku")
    quick = "document.querySelector('.rk-quick').innerText.replace(/\\s+/g, ' ')"
    assert "After 12 rounds" in devtools.js(quick)
    _set(devtools, "rounds", "6")
    assert "After 12 rounds" not in devtools.js(quick) and "6 rounds" in devtools.js(quick)
    _set(devtools, "rounds", "40")  # a number with no sentence of its own: the template, checked at build
    assert "40 rounds" in devtools.js(quick)
    _set(devtools, "rounds", "1")
    assert "1 round" in devtools.js(quick) and "1 rounds" not in devtools.js(quick)


def _pdf_pages(devtools, paper: tuple[float, float]) -> int:
    pdf = base64.b64decode(devtools.call("Page.printToPDF", timeout=120, paperWidth=paper[0],
                                         paperHeight=paper[1], printBackground=True)["data"])
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf))


PAPERS = {"A4": (8.27, 11.69), "Letter": (8.5, 11.0)}


@pytest.mark.parametrize("gid,changes", [
    ("otoroku", [("share", "3"), ("share_timing", "after_deal"), ("stones", "20"), ("dealer_max_cards", "five"),
                 ("rounds", "6")]),
    ("hiraya", [("rounds", "6"), ("bank", "150"), ("scoring", "additive"), ("fuke", "true")]),
    ("hana-awase", [("rounds", "6"), ("teyaku", "chaff"), ("scoring", "additive")]),
])
def test_print_these_rules_prints_this_tables_rules_on_at_most_two_pages(devtools, server, gid, changes):
    _open(devtools, server, gid)
    for name, value in changes:
        _set(devtools, name, value)
    devtools.js("document.querySelector('.rk-yt-name').value = 'The Saito table';"
                "document.querySelector('.rk-yt-name').dispatchEvent(new Event('input')); 1")
    assert devtools.js("getComputedStyle(document.querySelector('body > .rk-ytp')).display") == "none"  # screen
    # what the button does before the print dialog
    devtools.js("document.documentElement.classList.add('rk-yt-printing'); 1")
    devtools.call("Emulation.setEmulatedMedia", media="print")
    shown = devtools.js("""(() => {
        const out = {other: [], view: ''};
        for (const el of document.body.children) {
          const shown = getComputedStyle(el).display !== 'none';
          if (el.classList.contains('rk-ytp')) out.view = shown ? el.innerText : '';
          else if (shown && el.innerText.trim()) out.other.push(el.tagName + '.' + el.className);
        }
        return out; })()""")
    devtools.call("Emulation.setEmulatedMedia", media="")
    assert not shown["other"], shown["other"]  # nothing but the print view
    view = " ".join(shown["view"].split())
    assert "The Saito table" in view and "This table's house rules" in view
    assert "Quick reference" not in view or True
    assert "6 rounds" in view and "After 12 rounds" not in view
    assert "rulekit.engine" not in view and "Example" not in view.split("house rules")[0]
    for paper, size in PAPERS.items():
        devtools.js("document.documentElement.classList.add('rk-yt-printing'); 1")  # printing ends it (afterprint)
        pages = _pdf_pages(devtools, size)
        print(f"\n{gid}: 'Print these rules' with {len(changes)} changes: {pages} {paper} page(s)")
        assert 1 <= pages <= 2, (gid, paper, pages)
    devtools.js("document.documentElement.classList.remove('rk-yt-printing'); 1")
    # the page's own print (issue 37's stylesheet) is not this view
    devtools.call("Emulation.setEmulatedMedia", media="print")
    assert devtools.js("getComputedStyle(document.querySelector('body > .rk-ytp')).display") == "none"
    devtools.call("Emulation.setEmulatedMedia", media="")


def _download(devtools) -> str:
    return devtools.js("fetch(document.querySelector('.rk-yt-download').href).then(r => r.text())")


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulekit", *args], capture_output=True, text=True, timeout=300,
                          cwd=ROOT, env=dict(os.environ, PYTHONPATH=ROOT))


@pytest.mark.parametrize("gid,changes", [
    ("otoroku", [("share", "3"), ("share_timing", "after_deal"), ("stones", "20"), ("dealer_max_cards", "five"),
                 ("rounds", "6"), ("teyaku_ties", "push")]),
    ("hiraya", [("rounds", "6"), ("bank", "150"), ("scoring", "additive"), ("misdeal_willows", "non_wild"),
                ("wild_last_card", "captures_all")]),
])
def test_the_downloaded_house_file_validates_and_gives_the_clis_rules(devtools, server, gid, changes, tmp_path):
    _open(devtools, server, gid)
    for name, value in changes:
        _set(devtools, name, value)
    # a stranger's name and note: quotes, a line break that looks like an option, markup
    name = 'Our "table"\n  stake: 10'
    note = "dealer\n  stake: 10 </script><!-- --> 'x' # not a comment"
    devtools.js(f"(() => {{ const n = document.querySelector('.rk-yt-name'), t = document.querySelector('.rk-yt-note');"
                f" n.value = {name!r}; t.value = {note!r}; n.dispatchEvent(new Event('input')); return 1; }})()")
    text = _download(devtools)
    assert text == devtools.js("document.querySelector('.rk-yt-yaml').textContent")
    path = tmp_path / "house.yaml"
    path.write_text(text, encoding="utf-8")
    r = _cli("validate", str(path))
    assert r.returncode == 0, r.stdout + r.stderr
    from rulekit.engine.build import build_game, load_variant
    from rulekit.lang.house import load_house
    from rulekit.people.sheet import make_sheet
    from rulekit.website.tablecombos import doc_pieces, flat
    h = load_house(str(path))
    typed = devtools.js("document.querySelector('.rk-yt-name').value")  # a one-line field drops the line break
    assert "stake: 10" in typed and "\n" not in typed
    assert h.target == gid and h.name == typed.strip() and h.note == note.strip()
    v = load_variant(gid)
    assert {k: v.options[k].parse(x) for k, (x, _s) in h.options.items()} == \
        {k: v.options[k].parse(x) for k, x in changes}  # exactly the options chosen, nothing else
    # the same rules as the command line's sheet for that file, piece by piece
    cli = _cli("rules", gid, "--house", str(path))
    assert cli.returncode == 0, cli.stderr
    sheet = make_sheet(build_game(load_variant(gid, house=(str(path),))))
    want = {k: flat(t) for k, t in doc_pieces(sheet.doc).items()}
    got = devtools.js("Object.fromEntries([...document.querySelectorAll('body > .rk-ytp [data-piece]')]"
                      ".filter(e => !e.dataset.piece.startsWith('quick/'))"
                      ".map(e => [e.dataset.piece, e.hidden ? '' : e.textContent.replace(/\\s+/g, ' ').trim()]))")
    compared = [k for k in got if k in want]
    assert len(compared) >= 10, compared
    diff = {k: (got[k], want[k]) for k in compared if got[k] != want[k]}
    assert not diff, diff
    cli_text = " ".join(cli.stdout.split())
    for k in compared:
        for sentence in re.split(r"(?<=[.!?]) ", want[k]):
            assert sentence[:40] in cli_text.replace("*", "") or not sentence, (k, sentence)
    print(f"\n{gid}: the downloaded file validates; {len(compared)} pieces of the print view equal the CLI sheet's")


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("gid", ["otoroku", "hiraya"])
def test_controls_look_like_controls_and_labels_are_whole(devtools, server, gid, width):
    _open(devtools, server, gid, width)
    devtools.js("document.querySelector('.rk-yt-fold').open = true; document.querySelector('#your-table')"
                ".scrollIntoView(); 1")
    time.sleep(0.3)
    f = devtools.js("""(() => {
        const out = {cut: [], flat: [], wide: [], n: 0};
        for (const el of document.querySelectorAll('.rk-yt-option > span')) {
          out.n++;
          if (el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > innerWidth)
            out.cut.push(el.textContent);
        }
        const ctl = '.rk-yt-option select, .rk-yt-option input, .rk-yt-option textarea, .rk-yt-actions button, .rk-yt-download';
        for (const el of document.querySelectorAll(ctl)) {
          const s = getComputedStyle(el);
          if (parseFloat(s.borderTopWidth) < 1 || s.borderTopStyle === 'none') out.flat.push(el.className || el.name);
          if (el.getBoundingClientRect().right > innerWidth + 1) out.wide.push(el.className || el.name);
        }
        const p = document.querySelector('.rk-yourtable');
        out.panelOverflow = p.scrollWidth > p.clientWidth + 1;
        return out; })()""")
    assert f["n"] >= 5
    assert not f["cut"], (gid, width, f["cut"])
    assert not f["flat"], (gid, width, f["flat"])
    assert not f["wide"] and not f["panelOverflow"], (gid, width, f)
    # focus is visible: a ring around the focused control (the headless window is given focus first)
    devtools.call("Emulation.setFocusEmulationEnabled", enabled=True)
    ring = devtools.js("(() => { const s = document.querySelector('.rk-yt-option select');"
                       " s.focus({focusVisible: true}); const c = getComputedStyle(s);"
                       " return [c.outlineStyle, parseFloat(c.outlineWidth)]; })()")
    assert ring[0] != "none" and ring[1] >= 2, ring
    os.makedirs(ARTIFACTS, exist_ok=True)
    devtools.screenshot(os.path.join(ARTIFACTS, f"site-{gid}-your-table-{width}.png"))


def test_a_control_that_cannot_apply_is_not_offered(devtools, server):
    """Hiraya is for three players: its parent's two-player hand size is not offered; Otoroku keeps the
    rotation period, which applies once the bank rotates."""
    _open(devtools, server, "hiraya")
    assert devtools.js("document.querySelector('[data-option=two_player_hand]')") is None
    assert devtools.js("document.querySelector('[data-option=scoring]') !== null")
    _open(devtools, server, "otoroku")
    assert devtools.js("document.querySelector('[data-option=rotate_every]') !== null")
    _set(devtools, "dealer_rotation", "rotate")
    _set(devtools, "rotate_every", "3")
    assert any("3 rounds" in m for m in _marks(devtools)), _marks(devtools)


@pytest.mark.parametrize("gid", ["otoroku", "hiraya"])
def test_every_changed_piece_has_its_place_on_the_page(devtools, server, gid):
    """Each option value alone: every piece of the rules it changes is found on the page and swapped (the
    print view has them all in any case)."""
    _open(devtools, server, gid)
    options = devtools.js("JSON.parse(document.querySelector('.rk-yt-data').textContent).options")
    tried, lost = 0, {}
    for o in options:
        values = [v[0] for v in o["values"]] if o["type"] == "choice" else ["true", "false"] \
            if o["type"] == "bool" else [str(o["min"]), str(min(o["max"], o["min"] + 7))]
        for value in values:
            devtools.js("document.querySelector('.rk-yt-reset').click()")
            _set(devtools, o["name"], value)
            tried += 1
            un = devtools.js("document.querySelector('.rk-yourtable').dataset.unplaced")
            if un:
                lost[f"{o['name']}={value}"] = un
    print(f"\n{gid}: {tried} single changes, {len(lost)} with a piece the page has no place for: {lost}")
    assert not lost, lost

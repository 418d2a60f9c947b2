"""A seed game's page printed: its rules on at most four Letter or A4 pages, nothing of the engine view,
the statistics or the folds (Chromium's own print to PDF, over the DevTools protocol)."""
from __future__ import annotations

import base64
import os
import re

import pytest

from .test_site_browser import ARTIFACTS, SEED_GAMES, browser, devtools, server  # noqa: F401  (fixtures)

PAPER = {"Letter": (8.5, 11.0), "A4": (8.27, 11.69)}
MAX_PAGES = 4

# what the printed page shows: the text of every element that takes room on paper
PRINTED = """(() => {
  const art = document.querySelector('article');
  const shown = el => { const r = el.getClientRects(); return r.length > 0; };
  const ids = [...art.querySelectorAll('h2[id]')].filter(shown).map(h => h.id);
  return {ids, text: art.innerText.replace(/\\s+/g, ' '),
          details: [...art.querySelectorAll('details')].filter(shown).length,
          pictures: [...art.querySelectorAll('.rk-tablepic')].filter(shown).length};
})()"""


def pdf_pages(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![s\w])", data))


@pytest.mark.parametrize("gid", SEED_GAMES)
def test_a_seed_game_prints_as_its_rules_on_four_pages_at_most(devtools, server, gid):  # noqa: F811
    devtools.goto(f"{server}games/{gid}/index.html")
    devtools.js("document.querySelectorAll('img[loading=lazy]').forEach(i => i.loading = 'eager'); 1")
    devtools.wait_for("[...document.images].every(i => i.complete)", timeout=30)
    devtools.call("Emulation.setEmulatedMedia", media="print")
    try:
        f = devtools.js(PRINTED)
    finally:
        devtools.call("Emulation.setEmulatedMedia", media="")
    # the rules a player needs, in order; none of the engine view, statistics or folds
    for part in ("equipment", "setup", "play", "end", "example"):
        assert part in f["ids"], (gid, part, f["ids"])
    assert "Quick reference" in f["text"], gid
    for gone in ("machine", "how-it-plays"):
        assert gone not in f["ids"], (gid, gone)
    assert f["details"] == 0 and f["pictures"] == 0, (gid, f)
    pages = {}
    for name, (w, h) in PAPER.items():
        data = base64.b64decode(devtools.call("Page.printToPDF", timeout=120, paperWidth=w, paperHeight=h,
                                              printBackground=False, displayHeaderFooter=False)["data"])
        pages[name] = pdf_pages(data)
        if name == "Letter":
            os.makedirs(ARTIFACTS, exist_ok=True)
            with open(os.path.join(ARTIFACTS, f"print-{gid}.pdf"), "wb") as fh:
                fh.write(data)
    print(f"\n{gid}: printed on {pages['Letter']} Letter / {pages['A4']} A4 pages")
    assert all(1 <= n <= MAX_PAGES for n in pages.values()), (gid, pages)

"""Issue 36, the PANEL class of hostile input: a variant's words in the "Your table" panel stay words.

The panel's data island cannot be ended or turned into a comment by `</script>`, `<!--`, `-->`, `<`,
`&` or quotes in a variant's option texts (they are escaped in the JSON, which still reads back whole);
the print view escapes them as text; and the house file the page writes is made by a YAML serializer,
so a value, name or note holding a line break and `stake: 10` cannot set a second option.
"""
from __future__ import annotations

import html.parser
import json
import os
import re
import shutil
import subprocess

import pytest
import yaml

from rulekit.engine.build import build_game, load_variant
from rulekit.lang.house import load_house

from .conftest import ROOT

EVIL = "</script><script>alert(1)</script><!-- x --> -->\"quoted\" 'single' & <b>bold</b> \u2028 end"
CHOICE = "dealer\n  stake: 10"


def hostile_variant(tmp_path) -> str:
    shutil.copy(os.path.join(ROOT, "variants", "kabufuda", "oicho-kabu.yaml"), tmp_path / "oicho-kabu.yaml")
    text = f"""id: evil-kabu
extends: oicho-kabu.yaml
meta:
  names: {{en: Evil Kabu}}
options:
  tie:
    type: choice
    default: push
    label: {json.dumps("Ties " + EVIL)}
    values:
      push: {json.dumps("nobody pays " + EVIL)}
      {json.dumps(CHOICE)}: {json.dumps("the dealer wins <!--")}
    says:
      push: {json.dumps("When the values are equal, nobody pays. " + EVIL)}
      {json.dumps(CHOICE)}: {json.dumps("When the values are equal, the dealer wins. <!-- hidden?")}
    description: {json.dumps("Who wins ties. " + EVIL)}
"""
    path = tmp_path / "evil.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


class Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.scripts: list[tuple[dict, str]] = []
        self.comments: list[str] = []
        self._in: dict | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag == "script":
            self._in = dict(attrs)
            self.scripts.append((self._in, ""))

    def handle_endtag(self, tag):
        if tag == "script":
            self._in = None

    def handle_data(self, data):
        if self._in is not None:
            a, t = self.scripts[-1]
            self.scripts[-1] = (a, t + data)

    def handle_comment(self, data):
        self.comments.append(data)


def test_the_data_island_cannot_be_ended_and_reads_back_whole(tmp_path):
    from rulekit.website.yourtable import panel_data, panel_html
    v = load_variant(hostile_variant(tmp_path))
    game = build_game(v)
    block = panel_html(v, game)
    p = Tags()
    p.feed(block)
    p.close()
    assert len(p.scripts) == 1, p.scripts  # one script element: the data island, never ended early
    attrs, text = p.scripts[0]
    assert attrs.get("type") == "application/json"
    assert "<" not in text and ">" not in text and "&" not in text and "\u2028" not in text
    data = json.loads(text)
    assert data == json.loads(json.dumps(panel_data(v, game)))  # the whole data, every word of it
    assert not p.comments and "<!--" not in block  # a `<!--` in the text hides nothing
    assert "b" not in p.tags and p.tags.count("script") == 1  # the print view shows markup as text
    assert any(EVIL.split("<")[0] in "".join(w for w, _k in t) or "alert(1)" in "".join(w for w, _k in t)
               for t in data["texts"])  # the variant's words are there, as words
    tie = next(o for o in data["options"] if o["name"] == "tie")
    assert [CHOICE, "the dealer wins <!--"] in tie["values"]


def _node_house(calls: list[list]) -> list[str]:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("no node: the YAML writer of the page is also checked in tests/test_site_yourtable.py")
    script = os.path.join(ROOT, "docs", "javascripts", "yourtable.js")
    prog = ("global.window = {}; global.document = {readyState: 'complete', querySelectorAll: () => []};"
            f"require({json.dumps(script)});"
            "const t = window.rulekitYourTable, calls = JSON.parse(process.argv[1]);"
            "console.log(JSON.stringify(calls.map(c => t.houseFile(c[0], c[1], c[2], c[3]))));")
    r = subprocess.run([node, "-e", prog, json.dumps(calls)], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


STRINGS = ["plain", 'Our "table"', "dealer\n  stake: 10", "a: b # c", "- item", "{x: 1}", "[1, 2]", "yes", "~",
           "null", "12", "0x1F", "'quoted'", "\\back\\slash", "tab\there", "line\u2028sep", "next\u0085line",
           "emoji \U0001F3B4 card", "花札", "\ufeffbom", "</script><!--", "--- doc", "...", "@at", "`tick`", "%x",
           "trailing space ", " leading", "\x07bell"]


def test_the_house_file_writer_quotes_every_string():
    games = {"game": "otoroku", "options": [], "words": {}}
    texts = _node_house([[games, s, s, {}] for s in STRINGS])
    for s, text in zip(STRINGS, texts):
        d = yaml.safe_load(text)
        assert d["name"] == s and d["note"] == s and d["target"] == "otoroku", (s, text)
        assert "options" not in d, (s, text)
        assert all(ord(c) < 128 for c in text), text  # everything else escaped


def test_a_hostile_value_name_or_note_sets_no_other_option(tmp_path):
    path = hostile_variant(tmp_path)
    from rulekit.website.yourtable import panel_data
    data = panel_data(load_variant(path))
    [text] = _node_house([[data, "x\n  stake: 10", "note\nstake: 10", {"tie": CHOICE}]])
    house = tmp_path / "house.yaml"
    house.write_text(text.replace('target: "evil-kabu"', f"target: {json.dumps(path)}"), encoding="utf-8")
    h = load_house(str(house))
    assert {k: x for k, (x, _s) in h.options.items()} == {"tie": CHOICE}
    assert h.name == "x\n  stake: 10" and h.note == "note\nstake: 10"
    assert not re.search(r"(?m)^\s*stake:", text)  # no line of the file sets it


def _key(p: dict, values: dict, defaults: dict) -> str:
    """The script's choice of a piece's text (docs/javascripts/yourtable.js, pieceText)."""
    parts = []
    for n in p["deps"]:
        x = values.get(n, defaults[n])
        parts.append("*" if n in p["exact"] and x not in p["exact"][n] else x)
    return "|".join(parts)


@pytest.mark.parametrize("gid", ["otoroku", "hiraya", "kyo-kabu", "kakkuri", "dare"])
def test_the_panels_texts_are_the_sheets_for_any_mix_of_options(gid):
    """Random mixes of every option of a game (seeded): each piece the panel would show equals the piece
    of the command line's sheet rendered for the same values (templates and combinations included)."""
    import random
    from rulekit.lang.prose import Prose
    from rulekit.lang.rulestext import rules_doc
    from rulekit.website.tablecombos import TOKEN, doc_pieces, domain, flat
    from rulekit.website.yourtable import panel_data
    v = load_variant(gid)
    data = panel_data(v)
    rng = random.Random(36)
    compared = 0
    for _ in range(12):
        values = {}
        for o in v.options.values():
            _k, vals = domain(o)
            x = rng.choice([y for y in vals if y != "*"] + ([rng.randint(o.min or 0, o.max or 500)] if o.type == "int" else []))
            values[o.name] = o.key(x)
        want = doc_pieces(rules_doc(v, Prose.sheet(v.options, {k: v.options[k].parse(x) for k, x in values.items()})))
        for p in data["pieces"]:
            if not p["full"]:
                continue
            i = p["t"].get(_key(p, values, data["defaults"]))
            assert i is not None, (gid, p["id"], values)
            got = "".join(w for w, _kind in data["texts"][i])
            for n in p["deps"]:
                got = got.replace(TOKEN.format(n), values[n])
            assert " ".join(got.split()) == flat(want.get(p["id"], "")), (gid, p["id"], values)
            compared += 1
    print(f"\n{gid}: {compared} pieces compared with the sheet over 12 random mixes of all {len(v.options)} options")


def test_a_figure_the_rules_cannot_give_is_never_a_placeholder_nor_a_dependency():
    """Kyō-Kabu cannot be built with rounds 0 (open-ended without a stock): the lead's player counts
    ({fig.players_min}) are unknown there, so the lead neither reads `rounds` nor shows a placeholder."""
    from rulekit.website.tablecombos import Renderer, pieces
    v = load_variant("kyo-kabu")
    render = Renderer(v)
    assert any(t is None for t in render({**{k: o.parse(o.default) for k, o in v.options.items()}, "rounds": 0},
                                         "doc").values())
    found = {p.id: p for p in pieces(v, render, "doc")}
    assert "rounds" not in found["lead/0.0"].deps
    assert all("{fig." not in t for p in found.values() for t in [p.standard, *p.texts.values()])


def test_an_item_the_standard_sheet_leaves_out_is_swapped_by_its_own_key():
    """Hana-awase's additive-scoring payout is on the page (labelled as a house rule) but not on the
    standard sheet: the panel keys it by its text, so choosing additive scoring swaps in that same item,
    unlabelled, and no other item's words."""
    from rulekit.lang.prose import Prose
    from rulekit.lang.rulestext import rules_doc
    from rulekit.website.tablecombos import Renderer, doc_pieces, flat, pieces
    v = load_variant("hana-awase")
    page = doc_pieces(rules_doc(v, Prose.page(v.options)))
    pid = next(k for k, t in page.items() if k.startswith("item/") and "House rule (additive scoring)" in t)
    piece = next(p for p in pieces(v, Renderer(v), "doc") if p.id == pid)
    assert "scoring" in piece.deps and piece.standard == ""
    key = "|".join("additive" if n == "scoring" else v.options[n].key(v.options[n].parse(v.options[n].default))
                   for n in piece.deps)
    text = flat(piece.texts[key])
    assert text and "House rule" not in text
    assert text.lower() in flat(page[pid]).lower()

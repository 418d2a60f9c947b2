"""The "Your table" panel of a game page: the options as a small form that re-words the rules.

Everything is computed at build time (rulekit.website.tablecombos): every piece of the rules text (a
paragraph, step, choice, hand, quick-reference line) for every combination of the options it reads,
rendered by the same code as the command line's sheet. The panel's plain script
(docs/javascripts/yourtable.js, no server, works offline) shows each piece for the values chosen, marks
the changed words, writes the matching house file with a YAML serializer of its own, and prints a short
view of these rules (quick reference, rules, hands, this table's changes). The panel is hidden until the
script runs, so without JavaScript the page reads as before. The data sits in a JSON island whose every
`<`, `>` and `&` is escaped, so no text of a variant's can end it.
"""
from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from rulekit.engine.game import Game
from rulekit.lang.model import OptionDef, Variant
from rulekit.lang.prose import Prose, render, says, strip_marks, value_words
from rulekit.lang.rulestext import SECTIONS, RulesDoc, rules_doc
from rulekit.website.tablecombos import TOKEN, Renderer, doc_pieces, domain, flat, item_id, pieces, segments
from rulekit.website.util import h


def safe_json(data: Any) -> str:
    """JSON that can sit inside an HTML <script> element: no `<`, `>`, `&` or line separator in it."""
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
            .replace(">", "\\u003e").replace("&", "\\u0026").replace("\u2028", "\\u2028")
            .replace("\u2029", "\\u2029"))


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _label(o: OptionDef) -> str:
    # the option's label, else the first sentence of its description whole (a label wraps, never cut)
    first = re.split(r"(?<=[.!?])\s", " ".join(str(o.description).split()), maxsplit=1)[0].rstrip(".")
    label = " ".join(str(o.label or first).split())
    return _cap(label or o.name.replace("_", " "))


def _change_words(v: Variant, o: OptionDef, key: str, value: Any) -> str:
    """A change as the sheet states it: the option's sentence for the value, else 'Label: value.'"""
    if value == "*":
        n = 10 ** 9 + 7
        return _change_words(v, o, str(n), n).replace(str(n), TOKEN.format(o.name))
    s = says(o, value)
    if s is not None and s.strip():
        p = dataclasses.replace(Prose.sheet(v.options, {o.name: value}), alternatives=False)
        return " ".join(strip_marks(render(s, p)).split())
    return f"{_label(o)}: {value_words(o, value)}."


class _Games:
    """The panel's full builds, each set of option values built once (the quick reference's and the check
    of which options play alike ask for some of the same games)."""

    def __init__(self, v: Variant, game: Game | None) -> None:
        self.v = v
        self.game = game
        self.base = {k: repr(x) for k, x in (game.options if game is not None else {}).items()}
        self.built: dict[tuple, Game] = {}

    def __call__(self, values: dict[str, Any]) -> Game:
        from rulekit.engine.build import build_game
        key = tuple(sorted((k, repr(x)) for k, x in values.items()))
        got = self.built.get(key)
        if got is None and self.game is not None and dict(key) == self.base:
            got = self.game  # the page's own game (its rounds are played once for the page and the panel)
        if got is None:
            got = self._prebuilt(values)
        if got is None:
            got = build_game(self.v, options=values, codegen=False)
            # only the games one option away from the page's are asked for twice: the others are not kept
            # (every kept game is walked again by each run of the cyclic collector)
            if sum(1 for k, r in key if self.base.get(k) != r) <= 1:
                self.built[key] = got
        return got

    def _prebuilt(self, values: dict[str, Any]) -> Game | None:
        """The game a house-rule change's simulation built with these values (rulekit.website.effects), if any."""
        from rulekit.website.effects import change_game, values_settings
        return change_game(self.v.file, values_settings(self.v, values))


def _quick(v: Variant, games: _Games | None = None):
    """The quick-reference lines of the game built with some option values (piece id -> text)."""
    from rulekit.website.effects import round_free_options
    from rulekit.website.quickref import Rounds, quick_facts, rounds_for
    games = games or _Games(v, None)
    free = round_free_options(v)
    # games whose options differ only in ones no round reads (the game's length) play every seeded round
    # alike: their rounds are played once
    played: dict[tuple, Rounds] = {}

    def run(values: dict[str, Any]) -> dict[str, str]:
        g = games(values)
        key = tuple(sorted((k, repr(x)) for k, x in g.options.items() if k not in free))
        rounds = played.setdefault(key, rounds_for(g) if g is games.game else Rounds(g))
        # the rules document only when a line needs it (a round's end the rules file does not word)
        return {f"quick/{f.label}": f.text
                for f in quick_facts(g, lambda: rules_doc(v, Prose.sheet(v.options, values)), rounds)}
    return run


def _plays_the_same(game: Game, o: OptionDef, sizes: list[int], games: _Games) -> bool:
    """Whether every value of an option plays the same seeded rounds at every table size the page offers."""
    from rulekit.engine.runner import make_agents, play
    _keys, vals = domain(o)
    vals = [x for x in vals if x != "*"][:4]
    logs = set()
    for x in vals:
        try:
            g = games({**game.options, o.name: x})
            runs = []
            for n in sizes:
                for seed in (1, 2):
                    res = play(g, n, seed, make_agents(g, n, seed, "random"), rounds=2, logging=True)
                    runs.append(json.dumps([res.events, res.chips], sort_keys=True, default=str))
        except Exception:  # noqa: BLE001 - a value the game refuses at these sizes: it does something
            return False
        logs.add("\n".join(runs))
        if len(logs) > 1:
            return False
    return True


def panel_data(v: Variant, game: Game | None = None, page_doc: RulesDoc | None = None,
               sizes: list[int] | None = None) -> dict:
    """What the script needs: the game, the options it offers (as a form), each piece of the rules for
    the combinations of the options it reads, and each option value's words for the list of changes."""
    page_doc = page_doc or rules_doc(v, Prose.page(v.options))
    page = doc_pieces(page_doc)
    games = _Games(v, game)
    render_ = Renderer(v, _quick(v, games) if game is not None else None)
    found = pieces(v, render_, "doc") + (pieces(v, render_, "quick") if game is not None else [])
    texts: list[list[list[str]]] = []
    index: dict[str, int] = {}

    def ref(text: str) -> int:
        if text not in index:
            index[text] = len(texts)
            texts.append(segments(text))
        return index[text]

    read = set()
    out_pieces = []
    for p in found:
        read.update(p.deps)
        shown = flat(page.get(p.id, p.standard) if p.id.startswith(("lead", "sec", "step", "item", "yaku"))
                     else p.standard)
        out_pieces.append({"id": p.id, "page": shown, "std": ref(p.standard), "deps": list(p.deps),
                           "t": {k: ref(t) for k, t in p.texts.items()}, "full": p.full, "exact": p.exact})
    opts, words = [], {}
    for o in v.options.values():
        if o.name not in read and game is not None and sizes is None:
            from rulekit.website.quickref import allowed_players
            sizes = allowed_players(game) or [v.meta.players_default]
        if o.name not in read and game is not None and sizes and _plays_the_same(game, o, sizes, games):
            continue  # cannot apply to this game (a two-player rule at a three-player table)
        keys, vals = domain(o)
        words[o.name] = {k: _change_words(v, o, k, x) for k, x in zip(keys, vals)}
        opts.append({"name": o.name, "label": _label(o), "type": o.type,
                     "default": o.key(o.parse(o.default)), "values": [[k, " ".join(str(m).split())] for k, m in o.values],
                     "min": o.min, "max": o.max, "unit": list(o.unit)})
    defaults = {o.name: o.key(o.parse(o.default)) for o in v.options.values()}
    return {"game": v.meta.id, "name": v.meta.names.get("en", v.meta.id), "options": opts, "words": words,
            "defaults": defaults,
            "texts": texts, "pieces": out_pieces, "token": TOKEN.format("")[:1]}


def _strs(xs: Any) -> bool:
    return isinstance(xs, list) and all(isinstance(x, str) for x in xs)


def well_formed(data: Any, game_id: str) -> bool:
    """Whether cached panel data has the shape panel_data writes for this game (texts as [words, kind]
    pairs, pieces pointing at texts that exist)."""
    if not isinstance(data, dict) or data.get("game") != game_id or not isinstance(data.get("token"), str):
        return False
    texts, pieces_, opts = data.get("texts"), data.get("pieces"), data.get("options")
    if not (isinstance(texts, list) and isinstance(pieces_, list) and isinstance(opts, list)
            and isinstance(data.get("words"), dict) and isinstance(data.get("defaults"), dict)):
        return False
    if not all(isinstance(t, list) and all(isinstance(sg, list) and len(sg) == 2 and _strs(sg) for sg in t)
               for t in texts):
        return False

    def ref(i: Any) -> bool:
        return isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(texts)
    return all(isinstance(p, dict) and isinstance(p.get("id"), str) and isinstance(p.get("page"), str)
               and ref(p.get("std")) and _strs(p.get("deps")) and isinstance(p.get("t"), dict)
               and all(ref(i) for i in p["t"].values()) for p in pieces_) \
        and all(isinstance(o, dict) and isinstance(o.get("name"), str) for o in opts)


def cached_panel_data(v: Variant, game: Game, page_doc: RulesDoc, cache_dir: str | None) -> dict:
    """panel_data, remembered in `cache_dir` (None: no cache) under a key of everything it reads."""
    import os
    from rulekit.website.stats import cache_digest, engine_files
    here = os.path.dirname(os.path.abspath(__file__))
    mine = [os.path.join(here, f) for f in ("yourtable.py", "tablecombos.py", "quickref.py")]
    key = cache_digest([os.path.abspath(f) for f in v.files] + engine_files() + mine,
                       json.dumps(["your-table", 1, sorted(game.options.items(), key=str)], default=str))
    path = os.path.join(cache_dir, f"yourtable-{key}.json") if cache_dir else None
    if path and os.path.isfile(path):
        try:
            with open(path, encoding="utf-8") as fh:
                got = json.load(fh)
            if well_formed(got, v.meta.id):  # JSON only, checked: a damaged or foreign file is made again
                return got
        except (OSError, ValueError):
            pass
    data = json.loads(json.dumps(panel_data(v, game, page_doc)))
    if path:
        os.makedirs(cache_dir, exist_ok=True)
        with open(path + ".tmp", "w", encoding="utf-8") as fh:
            json.dump(data, fh)
        os.replace(path + ".tmp", path)
    return data


def _seg_html(text: str) -> str:
    return "".join(f"<strong>{h(w)}</strong>" if k == "b" else f'<mark class="rk-yt-changed">{h(w)}</mark>'
                   if k == "m" else h(w) for w, k in segments(text))


def _p(tag: str, pid: str, text: str, cls: str = "") -> str:
    hidden = "" if text else " hidden"
    c = f' class="{cls}"' if cls else ""
    return f'<{tag}{c} data-piece="{h(pid)}"{hidden}>{_seg_html(text)}</{tag}>'


def print_view(v: Variant, doc: RulesDoc, quick: dict[str, str]) -> str:
    """The rules as this table plays them, for paper: title, house, changes, quick reference, rules, hands.

    Built from the standard sheet's pieces (every step of the page's text in its place); the script
    fills each piece for the values chosen and leaves out what this table does not play."""
    title = v.meta.names.get("en", v.meta.id)
    std = doc_pieces(rules_doc(v, Prose.sheet(v.options, {})))
    # kept out of the site's search: the page's own text says the same
    # no heading elements: the page's own outline (and its table of contents) stays the page's
    out = [f'<div class="rk-ytp" hidden data-search-exclude><p class="rk-ytp-h1">{h(title)}</p>',
           '<p class="rk-ytp-house"><strong class="rk-ytp-name"></strong> <span class="rk-ytp-note"></span></p>',
           '<div class="rk-ytp-changes" hidden><p><strong>This table\'s house rules</strong></p><ul></ul></div>']
    if quick:
        rows = "".join(f'<tr><th>{h(k.split("/", 1)[1])}</th>{_p("td", k, t)}</tr>' for k, t in quick.items())
        out.append(f'<table class="rk-ytp-quick"><caption>Quick reference</caption><tbody>{rows}</tbody></table>')

    def paras(prefix: str) -> list[str]:
        return [_p("p", k, std.get(k, "")) for k in page_keys if k.startswith(prefix + "/")
                and k.count("/") == prefix.count("/") + 1]

    page_keys = list(doc_pieces(doc))
    out += paras("lead")
    titles = dict(SECTIONS)
    for s in doc.sections:
        body = paras(f"sec/{s.key}")
        if s.steps:
            items = []
            for st in s.steps:
                choices = "".join(f"<li>{_p('span', f'step/{st.phase}/choice/{c}', std.get(f'step/{st.phase}/choice/{c}', ''))}</li>"
                                  for c, _t in st.choices)
                text = "".join(_p("span", k, std.get(k, "")) + " " for k in page_keys
                               if k.startswith(f"step/{st.phase}/") and "/choice/" not in k)
                items.append(f'<li data-step="{h(st.phase)}"><strong>{h(st.title)}.</strong> {text}'
                             + (f"<ul>{choices}</ul>" if choices else "") + "</li>")
            body.append(f"<ol>{''.join(items)}</ol>")
        if s.key == "hands" and doc.yaku:
            body.append("<ul class=\"rk-ytp-hands\">" + "".join(
                f"<li><strong>{h(y.name)}</strong>: {_p('span', f'yaku/{y.table}/{y.id}', std.get(f'yaku/{y.table}/{y.id}', ''))}</li>"
                for y in doc.yaku) + "</ul>")
        if s.items:
            body.append("<ul>" + "".join(f"<li>{_p('span', item_id(s, j), std.get(item_id(s, j), ''))}</li>"
                                         for j in range(len(s.items))) + "</ul>")
        if body:
            out.append(f'<p class="rk-ytp-h2">{h(titles.get(s.key, s.title))}</p>' + "".join(body))
    out.append(f'<p class="rk-ytp-foot">Printed from the rules page of {h(title)}, with this table\'s '
               "house rules.</p></div>")
    return "".join(out)


def panel_html(v: Variant, game: Game | None = None, page_doc: RulesDoc | None = None,
               cache_dir: str | None = None) -> str:
    """The panel (hidden until the script shows it), its print view and its data, as one HTML block."""
    if not v.options:
        return ""
    page_doc = page_doc or rules_doc(v, Prose.page(v.options))
    data = cached_panel_data(v, game, page_doc, cache_dir) if game is not None else panel_data(v, None, page_doc)
    quick = {p["id"]: "" for p in data["pieces"] if p["id"].startswith("quick/")}
    texts = data["texts"]
    for p in data["pieces"]:
        if p["id"] in quick:
            quick[p["id"]] = "".join(w for w, _k in texts[p["std"]])
    return (f'<div class="rk-yourtable" id="your-table" hidden data-game="{h(v.meta.id)}">'
            # folded: the form is long, and the page's reader first wants the rules and the example
            '<details class="rk-yt-fold"><summary><strong>Your table</strong>: choose your house rules, and the '
            "rules on this page change to match</summary><p>Each change is marked. Then download the "
            "house file, or print these rules with your changes.</p>"
            '<form class="rk-yt-form" onsubmit="return false">'
            '<div class="rk-yt-who"><label class="rk-yt-option"><span>Your table\'s name</span>'
            '<input type="text" class="rk-yt-name" maxlength="120" value="Our table"></label>'
            '<label class="rk-yt-option"><span>A note for the house file (optional)</span>'
            '<textarea class="rk-yt-note" rows="2" maxlength="2000"></textarea></label></div>'
            '<div class="rk-yt-options"></div></form>'
            '<p class="rk-yt-actions"><button type="button" class="rk-yt-reset">Standard rules</button> '
            '<button type="button" class="rk-yt-print">Print these rules</button> '
            '<a class="rk-yt-download" role="button" download="my-table.yaml" href="#">Download the house file</a></p>'
            '<pre class="rk-yt-yaml"></pre></details>'
            + print_view(v, page_doc, quick)
            + f'<script type="application/json" class="rk-yt-data">{safe_json(data)}</script></div>')


__all__ = ["panel_html", "panel_data", "cached_panel_data", "print_view", "safe_json", "well_formed"]

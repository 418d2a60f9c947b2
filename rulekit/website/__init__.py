"""Publish it: the rules website, generated at build time from the variant files and the decks.

`build_site(root)` returns every generated file (path under docs -> text): a page per
variant, the index of games, a page per family, the reference pages, the card pictures and
the navigation (SUMMARY.md, read by mkdocs-literate-nav). docs/gen_pages.py writes them
through mkdocs-gen-files; nothing is copied by hand.

Owns: the pages (`variant`, `rules`, `quickref`, `story`, `machine`, `howitplays`, `reference`...),
card pictures (`cards`, `yakucards`), statistics and charts for pages (`stats`, `effects`, `charts`).
May import: every stage (it is the top one; nothing imports it but docs/gen_pages.py).
"""
from __future__ import annotations

import gc
import os
import re
import time
from dataclasses import dataclass, field

from rulekit.engine.build import build_game, load_variant
from rulekit.core.errors import RulekitError, render_all
from rulekit.website.cards import Pictures, load_style
from rulekit.website.quickref import players_text
from rulekit.website.reference import cli_page, deck_page, decks_index, expressions_page, schema_page
from rulekit.website.effects import forget_change_games
from rulekit.website.howitplays import DEFAULT_EFFECT_ROUNDS, run_simulations
from rulekit.website.stats import long_lived
from rulekit.website.util import (family_key, family_slug, family_title, h, html_block, html_table, md,
                                  md_rich, root_of)
from rulekit.website.variant import Entry, VariantPage

DEFAULT_ROUNDS = 2000

FAMILY_ABOUT = {
    "banking": "One player holds the bank (the dealer); every other player plays against the bank only, "
               "staking on a hand or a column that is compared with the dealer's.",
    "fishing": "Cards played from the hand or turned from the stock capture table cards that match them; "
               "what a player has captured is scored at the end of the round, with scoring sets (yaku).",
    "shedding": "Players try to be first to get rid of their cards, laying them in sequence on the table; "
                "whoever cannot play pays.",
    "comparing": "Everybody plays for one pot against everybody else: hands are built towards a target and "
                 "compared at the end of the round, and the best hand takes the pot.",
    "set-matching": "Players try to form sets of cards that meet a target (a sum, a digit) from their hand; "
                    "the first to lay everything down, or the best hand at the end, takes the pot.",
}


class SiteError(Exception):
    """A rules file the site needs does not build."""


@dataclass
class Site:
    """Everything the page generators share."""

    root_dir: str
    pictures: Pictures
    entries: dict[str, Entry] = field(default_factory=dict)
    rounds: int = DEFAULT_ROUNDS
    timings: dict[str, float] = field(default_factory=dict)
    cache_dir: str | None = None
    glyphs: int = 0  # Japanese characters in the site's web font (0: none shipped)

    @staticmethod
    def root_of(page: str) -> str:
        return root_of(page)


def variant_files(variants_dir: str) -> list[str]:
    out = []
    for root, _dirs, files in sorted(os.walk(variants_dir)):
        out += [os.path.join(root, f) for f in sorted(files) if f.endswith((".yaml", ".yml"))]
    return out


def load_entries(root_dir: str) -> dict[str, Entry]:
    entries: dict[str, Entry] = {}
    for path in variant_files(os.path.join(root_dir, "variants")):
        try:
            v = load_variant(path)
            if v.meta.abstract:
                continue
            game = build_game(v)
        except RulekitError as exc:
            raise SiteError(f"{os.path.relpath(path, root_dir)} does not build, so the site cannot be made:\n"
                            f"{render_all(exc.diagnostics)}") from None
        parent = None
        if len(v.files) > 1:  # the files of the `extends` chain, this one first
            try:
                parent = load_variant(v.files[1]).meta.id
            except RulekitError:
                parent = None
        entries[v.meta.id] = Entry(path, os.path.relpath(path, root_dir), v, game, f"games/{v.meta.id}.md",
                                   parent=parent)
    return entries


def games_index(site: Site) -> str:
    from rulekit.lang.decks import load_deck
    out = ["# All games", "",
           "Every game of this site, with the number of players, the deck it is played with and its family. "
           "Each page has the game's full rules, its hands, a worked example and the house rules tables agree on.",
           ""]
    rows = []
    for e in sorted(site.entries.values(), key=lambda x: (family_key(x.variant.meta.family), x.title.lower())):
        m = e.variant.meta
        deck = e.variant.decks[e.game.deck_name]
        name = load_deck(deck.base).names.get("en", deck.base)  # the deck as players call it, not its id
        size = f"{len(e.game.card_ids)} cards"
        fam = family_slug(m.family)
        # an HTML table: on a phone each game becomes a card with labelled lines (no word cut in two)
        rows.append([f'<a href="{h(e.id)}/"><strong>{h(e.title)}</strong></a>',
                     f'<span lang="ja">{h(m.names.get("ja", ""))}</span>',
                     f'<a href="../families/{h(fam)}/">{h(family_title(m.family))}</a>',
                     h(players_text(e.game, short=True)),
                     f'<a href="../reference/decks/{h(deck.base)}/">{h(name)}</a>'
                     + ("" if f"({size})" in name else ", " + h(size))])
    out.append(html_block(html_table(["game", "Japanese", "family", "players", "deck"], rows, "rk-games")))
    return "\n".join(out) + "\n"


def families(site: Site) -> dict[str, list[Entry]]:
    fams: dict[str, list[Entry]] = {}
    for e in site.entries.values():
        fams.setdefault(family_slug(e.variant.meta.family), []).append(e)
    return dict(sorted(fams.items(), key=lambda kv: family_key(kv[0])))


def family_page(site: Site, fam: str, entries: list[Entry]) -> str:
    out = [f"# {family_title(fam)}", ""]
    if fam in FAMILY_ABOUT:
        out += [FAMILY_ABOUT[fam], ""]
    for e in sorted(entries, key=lambda x: x.title.lower()):
        m = e.variant.meta
        out += [f"## [{md(e.title)}](../../games/{e.id}.md)", ""]
        if m.names.get("ja"):
            out += [md(" · ".join(x for x in (m.names.get("ja"), m.names.get("romaji"), m.names.get("gloss")) if x)), ""]
        out += [md_rich(m.summary), "",
                f"{md(players_text(e.game, short=True))} players · deck `{e.game.deck_name}` ({len(e.game.card_ids)} cards)"
                + (f" · based on [{md(site.entries[e.parent].title)}](../../games/{e.parent}.md)"
                   if e.parent in site.entries else ""), ""]
    return "\n".join(out) + "\n"


def home_appendix(site: Site) -> str:
    out = ["", "## Games by family", ""]
    for fam, entries in families(site).items():
        links = ", ".join(f"[{md(e.title)}](games/{e.id}.md)" for e in sorted(entries, key=lambda x: x.title.lower()))
        out.append(f"- **[{family_title(fam)}](families/{fam}/index.md)**: {links}")
    return "\n".join(out) + "\n"


def summary(site: Site, decks: list[str], extra_guides: list[tuple[str, str]]) -> str:
    out = ["* [Home](index.md)", "* Games", "    * [All games](games/index.md)"]
    for fam, entries in families(site).items():
        out.append(f"    * {family_title(fam)}")
        out.append(f"        * [About {family_title(fam).lower()}](families/{fam}/index.md)")
        for e in sorted(entries, key=lambda x: x.title.lower()):
            out.append(f"        * [{md(e.title)}](games/{e.id}.md)")
    out += ["* Guides"] + [f"    * [{t}]({p})" for t, p in extra_guides]
    out += ["* Reference", "    * [Variant file format](reference/variant-format.md)",
            "    * [Expression language](reference/expressions.md)", "    * Decks",
            "        * [All decks](reference/decks/index.md)"]
    from rulekit.lang.decks import load_deck
    for d in decks:
        out.append(f"        * [{md(load_deck(d).names.get('en', d))}](reference/decks/{d}.md)")
    out.append("    * [Command line](reference/cli.md)")
    out.append("    * [Python API](reference/api.md)")
    out.append("    * [Limits for untrusted files](reference/limits.md)")
    out.append("    * [How the engine runs a variant](reference/engine.md)")
    return "\n".join(out) + "\n"


def tutorial_appendix(path: str, rel: str) -> str:
    """A seeded round of the tutorial's variant, as the command line prints it."""
    from rulekit.engine.runner import make_agents, play
    from rulekit.people.transcript import transcript
    v = load_variant(path)
    game = build_game(v)
    n = v.meta.players_default
    res = play(game, n, 1, make_agents(game, n, 1, "random"), rounds=1, logging=True)
    return "\n".join(["", "## What the engine makes of it {#transcript}", "",
                      f"This is `rulekit play {rel} --seed 1`, run when this page was built:", "",
                      "```text", transcript(game, res.events, res.chips), "```", ""])


def build_site(root_dir: str, rounds: int | None = None, cache_dir: str | None = None) -> tuple[dict[str, str], Site]:
    """Every generated file of the website: path under docs -> text."""
    t0 = time.time()
    rounds = rounds if rounds is not None else int(os.environ.get("RULEKIT_SITE_ROUNDS", DEFAULT_ROUNDS))
    if cache_dir is None:
        cache_dir = os.environ.get("RULEKIT_SITE_CACHE", os.path.join(root_dir, "build", "site-cache"))
    style = load_style(os.path.join(root_dir, "docs", "card-style.yaml"))
    site = Site(root_dir, Pictures(style), load_entries(root_dir), rounds)
    gc.collect()
    try:
        with long_lived():  # the games, variants and decks live through the build: the collector leaves them be
            return _build_pages(site, root_dir, rounds, cache_dir, t0)
    finally:
        forget_change_games()


def _build_pages(site: Site, root_dir: str, rounds: int, cache_dir: str | None,
                 t0: float) -> tuple[dict[str, str], Site]:
    """The simulations and every generated file of a site whose entries are loaded."""
    site.cache_dir = cache_dir or None  # the pages' own caches (example hands) sit beside the statistics
    site.timings["load"] = time.time() - t0
    t = time.time()
    if rounds > 0:
        effect_rounds = int(os.environ.get("RULEKIT_SITE_EFFECT_ROUNDS", DEFAULT_EFFECT_ROUNDS))
        run_simulations(site, rounds, effect_rounds, cache_dir or None)
    site.timings["simulate"] = time.time() - t
    t = time.time()
    files: dict[str, str] = {}
    for e in site.entries.values():
        files[e.page] = VariantPage(e, site).render()
    site.timings["variant pages"] = time.time() - t
    files["games/index.md"] = games_index(site)
    for fam, entries in families(site).items():
        files[f"families/{fam}/index.md"] = family_page(site, fam, entries)
    from rulekit.lang.decks import deck_names
    decks = deck_names()
    files["reference/decks/index.md"] = decks_index(site.pictures)
    for d in decks:
        files[f"reference/decks/{d}.md"] = deck_page(d, site.pictures, root_of(f"reference/decks/{d}.md"))
    files["reference/variant-format.md"] = schema_page(os.path.join(root_dir, "schemas", "variant.schema.json"))
    files["reference/expressions.md"] = expressions_page()
    files["reference/cli.md"] = cli_page()
    files.update(site.pictures.files)  # after the pages: every picture a page asked for
    t = time.time()
    from rulekit.website.fonts import add_fonts
    site.glyphs = add_fonts(files, root_dir)  # type: ignore[arg-type]
    site.timings["font"] = time.time() - t
    for path in files:
        under_docs(path)
    site.timings["total"] = time.time() - t0
    return files, site


_SAFE_PATH = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9_.-]*(/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$")


def under_docs(path: str) -> str:
    """A generated file's path, checked to stay under the docs folder (plain names, no '..', not absolute)."""
    if not _SAFE_PATH.match(path) or ".." in path.split("/"):
        raise SiteError(f"a generated page would be written outside the docs folder: {path!r}")
    return path

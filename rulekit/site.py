"""Variant model -> Markdown pages for the rules website (called at mkdocs build time)."""
from __future__ import annotations

import os
from typing import Any

from .build import build_game, load_variant
from .engine.game import Game
from .loader import plain

FAMILIES = {"banking": "Banking games", "fishing": "Fishing games", "shedding": "Shedding games",
            "set-matching": "Set-matching games"}


def _esc(s: Any) -> str:
    return str(s).replace("|", "\\|").replace("\n", " ")


def variant_page(game: Game) -> str:
    """The Markdown page of one variant, from its rules."""
    v = game.variant
    m = v.meta
    names = m.names
    out = [f"# {names.get('en', m.id)}", ""]
    out.append(f"**{names.get('ja', '')}** · *{names.get('romaji', '')}*"
               + (f" · “{names['gloss']}”" if names.get("gloss") else ""))
    out += ["", m.summary, ""]
    out += ["| | |", "|---|---|", f"| Family | {FAMILIES.get(m.family, m.family)} |",
            f"| Players | {m.players_min}–{m.players_max} (usually {m.players_default}) |",
            f"| Deck | {game.deck.names.get('en', game.deck.id)} ({len(game.card_ids)} cards) |", ""]
    out += ["## Equipment", ""]
    for name, d in v.decks.items():
        mark = " (default)" if name == v.default_deck else ""
        out.append(f"- **{name}**{mark}: {d.description}")
    out += ["", "## Agreements before play (house-rule options)", "",
            "| option | default | alternatives | what it decides |", "|---|---|---|---|"]
    for o in v.options.values():
        alts = ", ".join(f"`{k}`: {_esc(desc)}" for k, desc in o.values) if o.values else \
            (f"{o.min}–{o.max}" if o.type == "int" else "true / false")
        out.append(f"| `{o.name}` | `{o.default}` | {alts} | {_esc(o.description)} |")
    if v.presets:
        out += ["", "### Presets", ""]
        for p in v.presets.values():
            out.append(f"- **{p.name}**: {p.description}")
    out += ["", "## Play, phase by phase", ""]
    for i, ph in enumerate(game.phases, 1):
        node = next((p for p in v.tree.value["round"].value if p.value.get("id") and p.value["id"].value == ph.id), None)
        desc = node.value["description"].value if node is not None and "description" in node.value else ""
        out.append(f"{i}. **{ph.name}**{': ' + desc if desc else ''}")
    if game.yaku:
        out += ["", "## Yaku", ""]
        for table, entries in game.yaku.items():
            out += [f"### {table}", "", "| name | value | group | composition |", "|---|---|---|---|"]
            ytree = plain(v.tree.value["yaku"].value[table])
            for y, raw in zip(entries, ytree):
                nm = y.names.get("en", y.id) + (f" ({y.names['ja']})" if y.names.get("ja") else "")
                out.append(f"| {_esc(nm)} | {_esc(raw.get('value', 0))} | {y.group or '—'} | {_esc(y.description)} |")
    out += ["", "## Sources", ""]
    for s in m.sources:
        if isinstance(s, dict):
            out.append(f"- [{s.get('title', s.get('url'))}]({s.get('url')})")
        else:
            out.append(f"- <{s}>")
    return "\n".join(out) + "\n"


def all_pages(variants_dir: str) -> dict[str, str]:
    """Every generated page: path under docs -> Markdown."""
    pages: dict[str, str] = {}
    rows = []
    for root, _dirs, files in sorted(os.walk(variants_dir)):
        for f in sorted(files):
            if not f.endswith(".yaml"):
                continue
            v = load_variant(os.path.join(root, f))
            if v.meta.abstract:
                continue
            game = build_game(v)
            slug = f"games/{v.meta.id}.md"
            pages[slug] = variant_page(game)
            rows.append((v.meta.family, v.meta.names.get("en", v.meta.id), v.meta.id, v.meta.players_min,
                         v.meta.players_max, game.deck.names.get("en", game.deck.id)))
    index = ["# Games", "", "| game | family | players | deck |", "|---|---|---|---|"]
    for fam, name, vid, lo, hi, deck in sorted(rows):
        index.append(f"| [{name}]({vid}.md) | {FAMILIES.get(fam, fam)} | {lo}–{hi} | {deck} |")
    pages["games/index.md"] = "\n".join(index) + "\n"
    return pages

"""One page per variant, always with the same anatomy, generated from the built game."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from ..build import build_game
from ..decks import Deck, load_deck
from ..engine.game import Game
from ..engine.runner import Stats, make_agents, play
from ..loader import plain
from ..model import Variant
from ..transcript import line as transcript_line
from .howitplays import statistics_markdown
from .rules import Renderer, kinds_in, names_in, payments, proc_anchor, table_anchor
from .util import code, family_slug, family_title, h, h_rich, md, md_rich, mdcode, names_line, plural, slug, squash
from .yakucards import candidate_cards

SEED = 1
MAX_PICTURES = 18
# under mkdocs, a warning on this logger fails a strict build
log = logging.getLogger("mkdocs.plugins.rulekit.website")


@dataclass
class Entry:
    """A playable variant as the site sees it."""

    path: str
    rel_file: str
    variant: Variant
    game: Game
    page: str
    stats: Stats | None = None
    parent: str | None = None  # the id this variant extends
    extra: dict = field(default_factory=dict)

    @property
    def id(self) -> str:
        return self.variant.meta.id

    @property
    def title(self) -> str:
        return self.variant.meta.names.get("en", self.id)


def root_deck(deck_id: str) -> str:
    """The shipped deck a deck is ultimately derived from."""
    seen = set()
    while deck_id not in seen:
        seen.add(deck_id)
        try:
            parent = load_deck(deck_id).parent
        except Exception:  # noqa: BLE001
            return deck_id
        if not parent:
            return deck_id
        deck_id = parent
    return deck_id


def _block(html_text: str) -> str:
    """A raw HTML block for Markdown: its own paragraph, no blank lines inside."""
    return "\n" + "".join(x for x in html_text.splitlines()) + "\n"


def _table(head: list[str], rows: list[list[str]], cls: str = "") -> str:
    th = "".join(f"<th>{c}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    table = f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"
    # Material styles tables without a class: the class goes on a wrapper
    return f'<div class="rk-table {cls}">{table}</div>' if cls else table


class VariantPage:
    """Builds the Markdown of one variant's page."""

    def __init__(self, entry: Entry, site: Any):
        self.e = entry
        self.site = site
        self.v = entry.variant
        self.g = entry.game
        self.tree = plain(self.v.tree)
        self.root = site.root_of(entry.page)
        self.procs = self.tree.get("procedures") or {}
        self.yaku = self.tree.get("yaku") or {}
        self.r = Renderer(self.procs, tuple(self.yaku))
        self.base_deck = self.v.decks[self.g.deck_name].base

    # -- helpers ---------------------------------------------------------------
    def img(self, deck: Deck, base: str, i: int, cls: str = "rk-card", extra: str = "") -> str:
        return self.site.pictures.img(self.root, base, deck.cards[i], cls, extra)

    def grid(self, deck: Deck, base: str, idx: list[int], compact: bool = False, limit: int | None = None,
             extra: dict | None = None) -> str:
        """Pictures of these cards; `compact` shows each different picture once with a count."""
        if compact:
            groups: dict[tuple, list[int]] = {}
            for i in idx:
                groups.setdefault(self.site.pictures.look_key(base, deck.cards[i]), []).append(i)
            parts = []
            for k, members in groups.items():
                pic = self.img(deck, base, members[0])
                if len(members) > 1:
                    pic = f'<span class="rk-multi">{pic}<span class="rk-count">×{len(members)}</span></span>'
                parts.append(pic)
            more = ""
            if limit is not None and len(parts) > limit:
                more = f'<span class="rk-more">and {len(parts) - limit} more</span>'
                parts = parts[:limit]
            return f'<div class="rk-cards">{"".join(parts)}{more}</div>'
        return '<div class="rk-cards">' + "".join(
            self.img(deck, base, i, extra=(extra or {}).get(i, "")) for i in idx) + "</div>"

    def anchor_link(self, entry: Entry) -> str:
        return f"{entry.id}.md"

    # -- the page ----------------------------------------------------------------
    def render(self) -> str:
        parts = [self.head(), self.equipment(), self.agreements(), self.table_and_counters(), self.phases(),
                 self.game_end(), self.procedures(), self.yaku_tables(), self.payouts(), self.differences(),
                 self.example(), self.statistics(), self.sources()]
        return "\n".join(p for p in parts if p) + "\n"

    def head(self) -> str:
        m = self.v.meta
        out = [f"# {md(self.e.title)}", ""]
        nl = names_line(m.names)
        if nl:
            out += [f'<p class="rk-names">{nl}</p>', ""]
        out += [md_rich(m.summary), ""]
        fam = family_slug(m.family)
        rows = [("Family", f"[{family_title(m.family)}](../families/{fam}/index.md)"),
                ("Deck", f"{md(self.v.decks[self.g.deck_name].description or self.g.deck_name)} "
                         f"({plural(len(self.g.card_ids), 'card')}; shipped deck "
                         f"[{md(load_deck(self.base_deck).names.get('en', self.base_deck))}]"
                         f"(../reference/decks/{self.base_deck}.md))"),
                ("Players", f"{m.players_min}–{m.players_max}, usually {m.players_default}"
                 if m.players_min != m.players_max else f"{m.players_min}")]
        rounds = self.rounds_text()
        if rounds:
            rows.append(("A game", rounds))
        if self.e.parent and self.e.parent in self.site.entries:
            p = self.site.entries[self.e.parent]
            rows.append(("Based on", f"[{md(p.title)}]({p.id}.md) — this file only states what differs"))
        kids = [x for x in self.site.entries.values() if x.parent == self.e.id]
        if kids:
            rows.append(("Games built on it", ", ".join(f"[{md(k.title)}]({k.id}.md)" for k in kids)))
        rows.append(("Rules file", mdcode(self.e.rel_file)))
        out += ['<div class="rk-facts" markdown>', "", "| | |", "|---|---|"]
        out += [f"| **{a}** | {b} |" for a, b in rows] + ["", "</div>", ""]
        notes = m.extra.get("notes") if isinstance(m.extra, dict) else None
        if notes:
            out += ['!!! note "About this write-up"', "", "    " + md_rich(notes), ""]
        return "\n".join(out)

    def rounds_text(self) -> str:
        gtree = self.tree.get("game") or {}
        expr = gtree.get("rounds")
        if expr is None:
            return "one round"
        try:
            ctx = self.g.new_ctx(self.v.meta.players_default, 0, None)
            n = self.g.rounds(ctx)
        except Exception:  # noqa: BLE001
            n = None
        txt = f"{n} rounds" if n is not None else f"{mdcode(expr)} rounds"
        if isinstance(expr, str) and n is not None and str(n) != expr:
            txt += f" with the default options ({mdcode(expr)})"
        if gtree.get("end_when"):
            txt += f"; it stops early when {mdcode(gtree['end_when'])}"
        return txt

    # -- equipment ------------------------------------------------------------------
    def equipment(self) -> str:
        out = ["## Equipment {#equipment}", ""]
        choice = self.v.decks[self.g.deck_name]
        deck = self.g.deck
        out += [f"**{md(choice.description or choice.name)}** — {plural(len(deck.cards), 'card')}, the deck "
                f"`{choice.name}` of the rules file (the default).", ""]
        out.append(self.derivation(choice))
        out.append(_block(self.grid(deck, choice.base, list(range(len(deck.cards))))))
        out.append(self.added_attributes(choice, deck))
        if self.g.start_chips:
            out += ["", f"Each player starts with {self.g.start_chips} chips."]
        others = [d for d in self.v.decks.values() if d.name != self.g.deck_name]
        if others:
            out += ["", "### Allowed substitutes {#substitutes}", "",
                    "The same rules can be played with these decks (`--deck NAME` on the command line):", ""]
            for d in others:
                try:
                    alt = build_game(self.v, deck=d.name).deck
                except Exception as exc:  # noqa: BLE001
                    log.warning("%s: deck %s cannot be built: %s", self.e.rel_file, d.name, exc)
                    out += [f"- `{d.name}`: {md(d.description)} (cannot be built: {md(exc)})"]
                    continue
                summary = (f"<strong>{h(d.name)}</strong> — {h(squash(d.description))} "
                           f"({plural(len(alt.cards), 'card')})")
                body = self.derivation_html(d) + self.grid(alt, d.base, list(range(len(alt.cards))), compact=True)
                out.append(_block(f'<details class="rk-deck"><summary>{summary}</summary>{body}</details>'))
        return "\n".join(out)

    def derivation_html(self, choice) -> str:
        spec = choice.spec or {}
        bits = []
        if spec.get("remove") is not None:
            bits.append(f"without the cards with {code(spec['remove'])}")
        for attr, expr in (spec.get("set") or {}).items():
            bits.append(f"with {code(attr)} set to {code(expr)}")
        for cid, vals in (spec.get("map") or {}).items():
            bits.append(f"card {code(cid)}: " + ", ".join(f"{h(k)} = {h(v)}" for k, v in vals.items()))
        if not bits:
            return ""
        base = load_deck(choice.base)
        return (f'<p>Made from the shipped deck <a href="{self.root}reference/decks/{choice.base}/">'
                f'{h(base.names.get("en", choice.base))}</a>, ' + "; ".join(bits) + ".</p>")

    def derivation(self, choice) -> str:
        d = self.derivation_html(choice)
        return _block(d) if d else ""

    def added_attributes(self, choice, deck: Deck) -> str:
        """Cards grouped by the values of attributes the variant adds to its deck."""
        attrs = (choice.spec or {}).get("attributes") or {}
        if not attrs:
            return ""
        rows = []
        for name, spec in attrs.items():
            groups: dict[Any, list[int]] = {}
            for i, c in enumerate(deck.cards):
                groups.setdefault(c.attrs.get(name), []).append(i)
            common = max(groups.items(), key=lambda kv: len(kv[1]))[0] if groups else None
            shown = []
            if len(groups) > 6:
                rows.append([code(name), h_rich((spec or {}).get("description", "")),
                             f"{len(groups)} different values: see the cards of the "
                             f'<a href="{self.root}reference/decks/{choice.base}/">deck</a> and the rules above'])
                continue
            for val, idx in groups.items():
                if len(groups) > 1 and val == common and len(idx) > len(deck.cards) // 2:
                    continue
                shown.append(f"<div>{code(val)}: {self.grid(deck, choice.base, idx, compact=True, limit=MAX_PICTURES)}"
                             "</div>")
            if common is not None and len(groups) > 1 and len(groups[common]) > len(deck.cards) // 2:
                shown.append(f"<div>every other card: {code(common)}</div>")
            rows.append([code(name), h_rich((spec or {}).get("description", "")), "".join(shown)])
        return "\n".join(["", "The rules give the cards of this deck these attributes of their own:", "",
                          _block(_table(["attribute", "meaning", "cards"], rows))])

    # -- options and presets -------------------------------------------------------------
    def agreements(self) -> str:
        out = ["## Agreements before play {#agreements}", ""]
        if not self.v.options:
            out += ["This game has no house-rule options.", ""]
        else:
            out += ["Settle these before the first deal. The default is the reading of the sources; change one "
                    "with `-o name=value` on the command line or in a house-rule file.", ""]
            rows = []
            for o in self.v.options.values():
                if o.type == "choice":
                    alts = "<ul>" + "".join(
                        f"<li>{'<strong>' if str(k) == str(o.default) else ''}{code(k)}"
                        f"{' (default)</strong>' if str(k) == str(o.default) else ''}: {h_rich(desc)}</li>"
                        for k, desc in o.values) + "</ul>"
                elif o.type == "int":
                    lo = "" if o.min is None else str(o.min)
                    hi = "" if o.max is None else str(o.max)
                    alts = f"a whole number {('from ' + lo) if lo else ''}{(' to ' + hi) if hi else ''}".rstrip()
                else:
                    alts = "<code>true</code> or <code>false</code>"
                src = f"<br><small>Source: {h(squash(o.source))}</small>" if o.source else ""
                rows.append([f'<code id="option-{slug(o.name)}">{h(o.name)}</code>', code(o.default), alts,
                             h_rich(o.description) + src])
            out.append(_block(_table(["option", "default", "alternatives", "what it decides"], rows, "rk-options")))
        if self.v.presets:
            out += ["", "### Presets {#presets}", "", "Named sets of agreements (`--preset NAME`):", ""]
            for p in self.v.presets.values():
                sets = ", ".join(f"{mdcode(k)} = {mdcode(v)}" for k, v in p.options.items())
                deck = f"; deck `{p.deck}`" if p.deck else ""
                out.append(f"- **{md(p.name)}**: {md_rich(p.description)}" + (f" ({sets}{deck})" if sets or deck else ""))
            out.append("")
        return "\n".join(out)

    # -- zones, variables ---------------------------------------------------------------
    def table_and_counters(self) -> str:
        out = ["## Setup and deal {#setup}", "", "### The table {#zones}", "",
               "Where the cards can lie. Every round starts with all cards in "
               f"{mdcode(self.g.deck_zone)}; the top of a pile is its last card.", ""]
        rows = []
        for z in self.v.zones.values():
            how = {"single": "one", "player": "one per player"}.get(z.kind, f"{z.count} piles")
            seen = {"public": "everyone", "owner": "its owner", "hidden": "nobody, unless shown"}.get(
                z.visibility, z.visibility)
            ref = z.name if z.kind == "single" else f"{z.name}[i]"
            rows.append([code(ref), how, seen, h_rich(z.description)])
        out.append(_block(_table(["zone", "how many", "who sees it", "what it is"], rows)))
        if self.v.vars:
            out += ["", "### What is kept track of {#variables}", ""]
            rows = []
            for var in self.v.vars.values():
                how = {"single": "one", "player": "one per player"}.get(var.kind, f"{var.count}")
                kept = "the whole game" if var.scope == "game" else "one round"
                pot = " (a pot of chips)" if var.pot else ""
                rows.append([code(var.name if var.kind == "single" else f"{var.name}[i]"), how, code(var.init),
                             kept, h_rich(var.description) + pot])
            out.append(_block(_table(["name", "how many", "starts at", "kept for", "meaning"], rows)))
        return "\n".join(out)

    # -- phases ---------------------------------------------------------------------------
    def phase_groups(self) -> list[tuple[str, str, list[dict]]]:
        phases = [p for p in (self.tree.get("round") or []) if isinstance(p, dict)]
        has_choice = ["choose" in kinds_in(p.get("steps"), self.procs) for p in phases]
        if not any(has_choice):
            return [("", "", phases)]
        first = has_choice.index(True)
        last = len(has_choice) - 1 - has_choice[::-1].index(True)
        groups = [("", "", phases[:first]),
                  ("The play", "play", phases[first:last + 1]),
                  ("End of the round and scoring", "scoring", phases[last + 1:])]
        return [g for g in groups if g[2]]

    def phases(self) -> str:
        out = []
        for title, anchor, phases in self.phase_groups():
            if title:
                out += ["", f"## {title} {{#{anchor}}}", ""]
            if anchor == "play":
                out += ["The phases below are played in order; each step is carried out as written. Seats are "
                        "numbered anticlockwise, so `right_of(p)` is the next player to act.", ""]
            for ph in phases:
                pid = str(ph.get("id", "phase"))
                out += [f"### {md(ph.get('name', pid))} {{#phase-{slug(pid)}}}", ""]
                if ph.get("description"):
                    out += [md_rich(ph["description"]), ""]
                if "when" in ph:
                    out += [f"Played only when {mdcode(ph['when'])}.", ""]
                out.append(_block(self.r.steps(ph.get("steps")) or "<p>(no steps)</p>"))
        return "\n".join(out)

    def game_end(self) -> str:
        g = self.tree.get("game") or {}
        bits = []
        if "rounds" in g:
            bits.append(f"A game lasts {self.rounds_text()}.")
        fd = g.get("first_dealer")
        if fd == "random":
            bits.append("The first dealer is chosen at random.")
        elif fd is not None:
            bits.append(f"The first dealer is seat {mdcode(fd)}.")
        if self.g.start_chips:
            bits.append(f"Everyone starts with {self.g.start_chips} chips.")
        if "set_dealer" in kinds_in([s for p in self.tree.get("round") or [] for s in (p.get("steps") or [])],
                                    self.procs):
            bits.append("The dealer of the next round is set by the steps above; otherwise the dealer stays.")
        else:
            bits.append("The same player deals every round.")
        return "\n".join(["", "### The game {#game}", "", " ".join(bits), ""])

    def procedures(self) -> str:
        if not self.procs:
            return ""
        out = ["", "## Step sequences used above {#procedures}", "",
               "Named sequences of steps that the phases call with `Do ...`.", ""]
        for name, pdef in self.procs.items():
            params = (pdef or {}).get("params") or {}
            sig = ", ".join(f"{k}: {t}" for k, t in params.items())
            out += [f"### {md(name)}({md(sig)}) {{#{proc_anchor(name)}}}", ""]
            if (pdef or {}).get("description"):
                out += [md_rich(pdef["description"]), ""]
            out.append(_block(self.r.steps((pdef or {}).get("steps")) or "<p>(no steps)</p>"))
        return "\n".join(out)

    # -- yaku -----------------------------------------------------------------------------
    def yaku_tables(self) -> str:
        if not self.yaku:
            return ""
        out = ["", "## Yaku {#yaku}", "",
               "Scoring combinations, found by the `claim` steps and the `yaku(...)` functions of the rules. "
               "Yaku sharing a group exclude each other: only the best of a group counts (highest rank, then "
               "value). The cards shown are those the condition lets take part, read from it card by card.", ""]
        for table, entries in self.yaku.items():
            out += [f"### Table `{md(table)}` {{#{table_anchor(table)}}}", ""]
            compiled = {y.id: y for y in self.g.yaku.get(table, [])}
            has_rank = any("rank" in e for e in entries)
            rows = []
            for e in entries:
                if not isinstance(e, dict) or e.get("remove") is True:
                    continue
                y = compiled.get(str(e.get("id")))
                names = (y.names if y else e.get("names")) or {}
                name = f"<strong>{h(names.get('en', e.get('id')))}</strong>"
                jp = names_line({k: names.get(k) for k in ("ja", "romaji", "gloss")})
                if jp:
                    name += f"<br><small>{jp}</small>"
                name = f'<span id="yaku-{slug(table)}-{slug(str(e.get("id")))}">{name}</span>'
                when = e.get("when")
                idx = candidate_cards(when, self.g.deck, self.g.options)
                pics = self.grid(self.g.deck, self.base_deck, idx, compact=True, limit=MAX_PICTURES) if idx else ""
                desc = h_rich(e.get("description", ""))
                if self.never(when):
                    desc += " <em>(not in play with the default options)</em>"
                cond = f"<small>when {code(when)}</small>" if when is not None else ""
                if "claim" in e:
                    cond += f"<br><small>claimed by {code(e['claim'])}</small>"
                row = [name, code(e.get("value", 0))]
                if has_rank:
                    row.append(code(e.get("rank", 0)))
                row += [h(e.get("group", "")) or "—", f"{desc}{pics}{cond}"]
                rows.append(row)
            head = ["yaku", "value"] + (["rank"] if has_rank else []) + ["group", "what it is"]
            out.append(_block(_table(head, rows, "rk-yaku")))
        return "\n".join(out)

    def never(self, when: Any) -> bool:
        """Whether a yaku condition is false whatever the cards, under the default options."""
        if not isinstance(when, str):
            return when is False
        try:
            from ..build import _scope
            from ..expr import compile_expr
            scope = _scope(self.v, self.g.deck, self.g.options).with_locals({"cards": "list<card>", "seat": "int"})
            comp = compile_expr(when, scope, "bool")
        except Exception:  # noqa: BLE001
            return False
        return bool(comp.is_const) and comp.const is False

    # -- payouts --------------------------------------------------------------------------
    def payouts(self) -> str:
        groups = [(str(p.get("name", p.get("id"))), p.get("steps")) for p in self.tree.get("round") or []
                  if isinstance(p, dict)]
        groups += [(f"{name} (step sequence)", (d or {}).get("steps")) for name, d in self.procs.items()]
        pays = payments(groups)
        if not pays:
            return ""
        about = {str(p.get("name", p.get("id"))): p.get("description") for p in self.tree.get("round") or []
                 if isinstance(p, dict)}
        about.update({f"{name} (step sequence)": (d or {}).get("description") for name, d in self.procs.items()})
        out = ["", "## Payouts and formulas {#payouts}", "",
               "Every payment the rules make, with the formula of its amount and the names it uses. A negative "
               "amount is paid the other way.", ""]
        rows = []
        var_docs = {v.name: v.description for v in self.v.vars.values()}
        for p in pays:
            where = h(p.where)
            if about.get(p.where):
                where += f"<br><small><em>{h_rich(about[p.where])}</em></small>"
            if p.context:
                where += "<br><small>" + "; ".join(p.context) + "</small>"
            reading = []
            for n, expr in p.lets:
                reading.append(f"{code(n)} = {code(expr)}")
            for n in sorted(names_in(p.amount)):
                if n in var_docs and var_docs[n]:
                    reading.append(f"{code(n)}: {h_rich(var_docs[n])}")
            why = f"<br><small>({h(p.why)})</small>" if p.why else ""
            rows.append([where, f"{p.src} → {p.dst}{why}", code(p.amount), "<br>".join(reading)])
        out.append(_block(_table(["where", "who pays whom", "amount", "what the names mean"], rows, "rk-pay")))
        return "\n".join(out)

    # -- differences ----------------------------------------------------------------------
    def differences(self) -> str:
        from ..compare import diff_games
        pairs = []
        if self.e.parent and self.e.parent in self.site.entries:
            pairs.append(self.site.entries[self.e.parent])
        else:
            fam, deck = family_slug(self.v.meta.family), root_deck(self.base_deck)
            for other in self.site.entries.values():
                if other.id == self.e.id or other.parent == self.e.id or self.e.parent == other.id:
                    continue
                if other.parent:  # compare with games written on their own
                    continue
                if family_slug(other.variant.meta.family) == fam and root_deck(
                        other.variant.decks[other.game.deck_name].base) == deck:
                    pairs.append(other)
        kids = [x for x in self.site.entries.values() if x.parent == self.e.id]
        if not pairs and not kids:
            return ""
        out = ["", "## Differences from related games {#differences}", ""]
        for other in pairs:
            rel = "the game it is based on" if other.id == self.e.parent else \
                "a game of the same family played with the same deck"
            try:
                lines = diff_games(other.game, self.g)
            except Exception as exc:  # noqa: BLE001
                log.warning("%s: cannot compare with %s: %s", self.e.rel_file, other.id, exc)
                lines = [f"(cannot compare: {exc})"]
            out += [f"### From [{md(other.title)}]({other.id}.md) to {md(self.e.title)}", "",
                    f"{md(other.title)} is {rel}. What changes, rule by rule (defaults on both sides):", ""]
            out += [f"- {md(x).replace(' -&gt; ', ' → ')}" for x in lines] or ["- no rule differences"]
            out.append("")
        for k in kids:
            out += [f"[{md(k.title)}]({k.id}.md) is built on this game; its page lists what it changes.", ""]
        return "\n".join(out)

    # -- worked example ------------------------------------------------------------------
    def example(self) -> str:
        n = self.v.meta.players_default
        try:
            res = play(self.g, n, SEED, make_agents(self.g, n, SEED, "random"), rounds=1, logging=True)
        except Exception as exc:  # noqa: BLE001
            log.warning("%s: the example round cannot be played: %s", self.e.rel_file, exc)
            return f"\n## A worked example {{#example}}\n\nThe example round could not be played: {md(exc)}\n"
        out = ["", "## A worked example {#example}", "",
               f"One round with {n} players making random legal choices, seed {SEED} — the same round as "
               f"`rulekit play {self.e.id} --seed {SEED}`. It is shown from above the table: cards that lie face "
               "down or in a hand are drawn faded.", ""]
        out.append(_block(self.example_html(res.events)))
        chips = res.chips
        rows = [[f"seat {i}" + (" (dealer)" if i == self.first_dealer(res.events) else ""),
                 f"{c:+d}" if isinstance(c, int) else h(c)] for i, c in enumerate(chips)]
        out += ["", "Result of the round:", "", _block(_table(["seat", "chips"], rows, "rk-result"))]
        return "\n".join(out)

    @staticmethod
    def first_dealer(events: list[dict]) -> int | None:
        for e in events:
            if e.get("t") == "round":
                return e.get("dealer")
        return None

    def example_html(self, events: list[dict]) -> str:
        deck = self.g.deck
        index = self.g.card_index
        zones = self.v.zones
        names = {p.id: p.name for p in self.g.phases}
        yaku_names = {y.id: y.names.get("en", y.id) for t in self.g.yaku.values() for y in t}
        piles: dict[str, list[str]] = {self.g.deck_zone: list(self.g.card_ids)}

        def pics(ids: list[str], faded: bool = False) -> str:
            cls = "rk-card rk-card--small" + (" rk-card--down" if faded else "")
            return "".join(self.site.pictures.img(self.root, self.base_deck, deck.cards[index[c]], cls)
                           if c in index else code(c) for c in ids)

        def value(v: Any) -> str:
            if isinstance(v, str) and v in index:
                return pics([v])
            if isinstance(v, list) and v and all(isinstance(x, str) and x in index for x in v):
                return pics(v)
            if isinstance(v, bool):
                return "yes" if v else "no"
            return code(v)

        def base(zone: str) -> str:
            return zone.split("[", 1)[0]

        def take(zone: str, ids: list[str]) -> None:
            pile = piles.get(zone)
            if pile is None:
                return
            for c in ids:
                if c in pile:
                    pile.remove(c)

        sections: list[tuple[str, str, list[str]]] = []  # (css class, title, lines)

        for e in events:
            t = e.get("t")
            if t == "round":
                sections.append(("rk-round", f"Round {e['round'] + 1}, dealer seat {e['dealer']}", []))
                continue
            if t == "phase":
                sections.append(("", h(names.get(e["id"], e["id"])), []))
                continue
            if not sections:
                sections.append(("", "", []))
            cur = sections[-1][2]
            if t == "shuffle":
                piles[e["zone"]] = list(e.get("order") or piles.get(e["zone"], []))
                cur.append(f"Shuffle {code(e['zone'])}.")
            elif t == "cut":
                z = piles.get(e["zone"])
                if z is not None:
                    k = e["at"]
                    piles[e["zone"]] = z[k:] + z[:k]
                cur.append(f"Cut {code(e['zone'])} ({e['at']} cards moved from the top to the bottom).")
            elif t == "move":
                take(e["from"], e["cards"])
                piles.setdefault(e["to"], []).extend(e["cards"])
                zd = zones.get(base(e["to"]))
                faded = e.get("face") == "down" or (e.get("face") != "up" and zd is not None
                                                    and zd.visibility != "public")
                face = ", face up" if e.get("face") == "up" else ""
                cur.append(f"{code(e['from'])} → {code(e['to'])}{face}: {pics(e['cards'], faded)}")
            elif t == "deal":
                src = piles.get(e["from"])
                dealt: dict[int, list[str]] = {p: [] for p in e["players"]}
                if src is not None:
                    for _ in range(e["count"]):
                        for p in e["players"]:
                            if src:
                                dealt[p].append(src.pop())
                text = (f"Deal {plural(e['count'], 'card')} to each {code(e['to'])} from {code(e['from'])}: " +
                        "; ".join(f"seat {p} {pics(c, e.get('face') != 'up')}" for p, c in dealt.items()))
                for p, c in dealt.items():
                    piles.setdefault(f"{e['to']}[{p}]", []).extend(c)
                cur.append(text)
            elif t == "reveal":
                if e["to"] == "all":
                    cur.append(f"Shown to everyone: {pics(e['cards'])}")
                elif e["to"]:
                    cur.append(f"Shown to seat {', '.join(map(str, e['to']))}: {pics(e['cards'])}")
            elif t == "choose":
                act = ", ".join(f"{h(k)} {value(v)}" for k, v in e["action"].items())
                if e.get("forced"):
                    cur.append(f"Seat {e['player']} has one possible choice (<em>{h(e['choice'])}</em>): {act}")
                else:
                    cur.append(f"Seat {e['player']} chooses (<em>{h(e['choice'])}</em>): {act} "
                               f"<small>(one of {e['of']})</small>")
            elif t == "pay":
                a = e["amount"]
                src, dst = e["from"], e["to"]
                try:
                    neg = float(a) < 0
                except (TypeError, ValueError):
                    neg = False
                if neg:
                    src, dst = dst, src
                    a = str(a)[1:] if isinstance(a, str) else -a
                who = (lambda x: f"seat {x}" if isinstance(x, int) else f"pot {code(x)}")
                why = f" <small>({h(e['why'])})</small>" if e.get("why") else ""
                cur.append(f"{who(src).capitalize()} pays <strong>{h(a)}</strong> to {who(dst)}{why}")
            elif t == "yaku":
                ys = ", ".join(h(yaku_names.get(y, y)) for y in e["yaku"])
                cur.append(f"Seat {e['player']} has <strong>{ys}</strong> (table {h(e['table'])})")
            elif t == "record":
                who = f" (seat {e['player']})" if "player" in e else ""
                cur.append(f"Outcome: <strong>{h(e['name'])}</strong>{who}")
            elif t == "swap":
                a, b = e["zones"]
                piles[a], piles[b] = piles.get(b, []), piles.get(a, [])
                cur.append(f"Swap {code(a)} and {code(b)}")
            else:
                text = transcript_line(self.g, e)
                if text:
                    cur.append(h(text.strip()))
        items = []
        for cls, title, lines in sections:
            body = "<ul>" + "".join(f"<li>{x}</li>" for x in lines) + "</ul>" if lines else ""
            c = f' class="{cls}"' if cls else ""
            items.append(f"<li{c}><strong>{title}</strong>{body}</li>")
        return '<ol class="rk-example">' + "".join(items) + "</ol>"

    # -- statistics ----------------------------------------------------------------------
    def statistics(self) -> str:
        return statistics_markdown(self)

    def sources(self) -> str:
        out = ["", "## Sources {#sources}", ""]
        for s in self.v.meta.sources:
            if isinstance(s, dict):
                url = s.get("url", "")
                out.append(f"- [{md(s.get('title') or url)}]({url})" if url else f"- {md(s.get('title', ''))}")
            else:
                out.append(f"- <{s}>")
        out += ["", f"The rules on this page are generated from {mdcode(self.e.rel_file)}; the prose of the rules "
                "file is its authors' own summary of these sources."]
        return "\n".join(out)

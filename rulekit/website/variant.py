"""One page per variant, always with the same anatomy, generated from the built game."""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Any

from rulekit.engine.build import build_game
from rulekit.lang.decks import Deck, load_deck
from rulekit.engine.game import Game
from rulekit.engine.runner import Stats
from rulekit.lang.loader import plain
from rulekit.lang.model import Variant
from rulekit.lang.rulestext import RulesDoc, phase_prompts, rules_doc
from rulekit.website.howitplays import statistics_markdown
from rulekit.website.cardlegend import CardFact, game_card_facts, reading_guide
from rulekit.website.machine import MachineParts
from rulekit.website.quickref import dealt_text, quick_facts
from rulekit.website.rules import Renderer, names_in, table_anchor
from rulekit.website.util import html_block as _block, html_table as _table, family_slug, family_title, h, h_rich, md, md_rich, mdcode, names_line, plural, cli_note, safe_md, safe_url, slug, squash
from rulekit.website.util import legend_for
from rulekit.website.yakuexamples import Example, cached_examples
from rulekit.website.sources import source_html
from rulekit.website.tablepic import play_with_snapshots, table_picture

SEED = 1
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


def _label(name: str) -> str:
    """An identifier as words: 'pass_penalty' -> 'Pass penalty'."""
    s = str(name).replace("_", " ").replace("-", " ").strip()
    return s[:1].upper() + s[1:]


def _prose(text: Any) -> str:
    """Markdown prose from the rules file: paragraphs, lists, emphasis and web links, nothing live."""
    return safe_md(text)


_RULES_REF = re.compile(r"\s*\(?\bRULES(?:\.md)?\s*§\s*[\d.]+[a-z]?\)?(\s*'[^']*')?")


def plain_source(text: Any) -> str:
    """An option's source note without references to the project's private rules notes."""
    s = _RULES_REF.sub("", squash(text))
    s = re.sub(r"\(\s*\)", "", s)
    s = re.sub(r"\s*;\s*(?=;|\(|$)", " ", s)  # a separator left before nothing, or before a remark
    return " ".join(s.split()).strip(" ;,")


def _fold(cls: str, summary: str, lines: list[str]) -> str:
    """Markdown lines folded under a one-line summary (a reader opens it when they play that way)."""
    return "\n".join(["", f'<details class="rk-fold {cls}" markdown="1"><summary>{h(summary)}</summary>', "",
                      *lines, "", "</details>", ""])


def _house_said(text: str) -> bool:
    """Whether a rules sentence says of itself that only a house rule brings it in ("House rule only: ...")."""
    return bool(re.match(r"\W*house rules?\b", str(text), re.I))


def _bare(text: str) -> str:
    """A sentence without its bracketed asides, for telling whether two renderings say the same thing."""
    prev = None
    while prev != text:
        prev, text = text, re.sub(r"\([^()]*\)", "", text)
    return " ".join(re.sub(r"[^\w\s]", " ", text.lower()).split())


class VariantPage(MachineParts):
    """Builds the Markdown of one variant's page: the rules for players first, the machine folded last."""

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
        from rulekit.lang.prose import Prose
        # the defaults' sentences alone: the House rules section tells the other readings, once
        self.doc: RulesDoc = rules_doc(self.v, Prose.page(self.v.options))

    # -- helpers ---------------------------------------------------------------
    def img(self, deck: Deck, base: str, i: int, cls: str = "rk-card", extra: str = "") -> str:
        if deck is self.g.deck:  # the game's own cards: drawn as this game counts them, with a legend
            c = deck.cards[i]
            small = "rk-card--table" in cls or "rk-card--hand" in cls  # too small to read a legend there
            return self.site.pictures.game_img(self.root, self.id_for_files, base, c, self.facts.get(c.id), cls, extra,
                                               legend=not small)
        return self.site.pictures.img(self.root, base, deck.cards[i], cls, extra)

    @property
    def facts(self) -> dict[str, CardFact]:
        """Each card of the game's deck as the game counts it (value, wild)."""
        if "card_facts" not in self.e.extra:
            try:
                self.e.extra["card_facts"] = game_card_facts(self.g, self.v.meta.players_default)
            except Exception as exc:  # noqa: BLE001
                log.warning("%s: the cards' values cannot be worked out: %s", self.e.rel_file, exc)
                self.e.extra["card_facts"] = {}
        return self.e.extra["card_facts"]

    @property
    def id_for_files(self) -> str:
        return self.e.id

    def grid(self, deck: Deck, base: str, idx: list[int], compact: bool = False, limit: int | None = None,
             extra: dict | None = None, cls: str = "rk-card") -> str:
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
            self.img(deck, base, i, cls, extra=(extra or {}).get(i, "")) for i in idx) + "</div>"

    def anchor_link(self, entry: Entry) -> str:
        return f"{entry.id}.md"

    # -- the page ----------------------------------------------------------------
    def render(self) -> str:
        parts = [self.head(), self.equipment(), self.setup(), self.play(), self.hands(), self.settling(),
                 self.game_over(), self.house_rules(), self.example(), self.how_it_plays(), self.sources(),
                 self.related(), self.notes(), self.machine()]
        return "\n".join(p for p in parts if p) + "\n"

    def head(self) -> str:
        m = self.v.meta
        out = [f"# {md(self.e.title)}", ""]
        nl = names_line(m.names)
        if nl:
            out += [f'<p class="rk-names">{nl}</p>', ""]
        out += [_prose(self.doc.lead) if self.doc.lead else md_rich(m.summary), ""]
        out.append(self.quick_box())
        return "\n".join(out)

    def quick_box(self) -> str:
        """The quick-reference box: facts derived from the rules (see quickref.py)."""
        try:
            facts = quick_facts(self.g, self.doc)
        except Exception as exc:  # noqa: BLE001
            log.warning("%s: the quick-reference box cannot be made: %s", self.e.rel_file, exc)
            return ""
        fam = family_slug(self.v.meta.family)
        rows = "".join(f"<tr><th>{h(f.label)}</th><td>{h(f.text)}</td></tr>" for f in facts)
        # the family on the title's line: a link to the game's relatives, not a rule
        family = (f'<span class="rk-quick__family">Family: <a href="{self.root}families/{fam}/">'
                  f'{h(family_title(self.v.meta.family))}</a></span>')
        return _block('<div class="rk-quick" id="quick-reference"><p class="rk-quick__title">Quick reference'
                      f'{family}</p><table class="rk-quick__facts"><tbody>{rows}</tbody></table></div>')

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

    def section_text(self, key: str) -> str:
        s = self.doc.section(key)
        return _prose(s.text) if s is not None and s.text else ""

    # -- the rules, in reader order ------------------------------------------------------
    def equipment(self) -> str:
        out = ["## Equipment {#equipment}", ""]
        choice = self.v.decks[self.g.deck_name]
        deck = self.g.deck
        text = self.section_text("equipment")
        out += [text or f"{md(choice.description or choice.name)} ({plural(len(deck.cards), 'card')}).", ""]
        # the game's own word for its counters (rules.chips), as the sheet says it
        words = (plain(self.v.tree).get("rules") or {}).get("chips")
        one, many = (str(words[0]), str(words[1])) if isinstance(words, list) and len(words) == 2 else ("chip", "chips")
        if self.g.start_chips and one not in text:
            out += [f"Each player starts with {plural(self.g.start_chips, one, many)}.", ""]
        # the key to the card pictures sits with the cards it explains: each picture in the rules
        # carries its own words under it, so a reader needs the key only to read the marks
        guide = self.reading_guide(choice.base).strip()
        others = [d for d in self.v.decks.values() if d.name != self.g.deck_name]
        alts = []
        if others:
            alts = []
            for d in others:
                try:
                    alt = build_game(self.v, deck=d.name).deck
                except Exception as exc:  # noqa: BLE001
                    log.warning("%s: deck %s cannot be built: %s", self.e.rel_file, d.name, exc)
                    continue
                summary = f"<strong>{h(_label(d.name))}</strong>: {h(squash(d.description))} " \
                          f"({plural(len(alt.cards), 'card')})"
                body = self.grid(alt, d.base, list(range(len(alt.cards))), compact=True)
                alts.append(f'<details class="rk-deck"><summary>{summary}</summary>{body}</details>')
        # one fold: the cards, the key to their pictures and the other decks (most readers play with the
        # first deck; each picture in the rules carries its own words, the key explains the marks)
        bits = [f'See the {plural(len(deck.cards), "card")} of the deck'] + (["how to read a card picture"] if guide else []) \
            + ([f'the {plural(len(alts), "other deck")} the game can be played with'] if alts else [])
        summary = bits[0] if len(bits) == 1 else ", ".join(bits[:-1]) + " and " + bits[-1]
        more = (f'<details class="rk-decks"><summary>The game can also be played with '
                f'{plural(len(alts), "other deck")}</summary>{"".join(alts)}</details>') if alts else ""
        out.append(_block(f'<details class="rk-deck"><summary>{summary}</summary>{guide}'
                          f'{self.grid(deck, choice.base, list(range(len(deck.cards))), cls="rk-card rk-card--big")}'
                          f'{more}</details>'))  # big enough to read the words under each card
        return "\n".join(out)

    def reading_guide(self, base: str) -> str:
        """How to read this game's card pictures: what each mark means, the star and WILD included."""
        try:
            rows = reading_guide(self.site.pictures.style_of(base), list(self.g.deck.cards), self.facts)
        except Exception:  # noqa: BLE001 - a deck that is not shipped has no style to explain
            return ""
        if not rows:
            return ""
        items = "; ".join(f"<strong>{h(where)}</strong>: {h(what)}" for where, what in rows)
        return _block(f'<p class="rk-card-legend" id="card-legend"><em>Reading the card pictures.</em> {items}.</p>')

    def setup(self) -> str:
        text = self.section_text("setup")
        if not text:
            dealt = dealt_text(self.g, self.v.meta.players_default)
            text = f"Cards dealt: {dealt}." if dealt else ""
        return "\n".join(["", "## Setup and deal {#setup}", "", text, ""]) if text else ""

    def play_steps(self) -> list[tuple[str, str, list[tuple[str | None, str]], str]]:
        """(title, text, (choice id, text) pairs, phase id) for every phase: the players' text, else its
        description and prompts."""
        by_phase = {st.phase: st for st in self.doc.section("play").steps} if self.doc.section("play") else {}
        seen: dict[str, int] = {}
        for st in by_phase.values():
            for c in {c for c, _t in st.choices}:
                seen[c] = seen.get(c, 0) + 1
        shared = {c for c, k in seen.items() if k > 1}
        played: dict[str, set] = {}
        if shared:  # the choices each step makes under the standard rules alone
            from rulekit.lang.prose import Prose
            std = rules_doc(self.v, Prose.sheet(self.v.options, {})).section("play")
            played = {st.phase: {c for c, _t in st.choices} for st in (std.steps if std else ())}
            # a choice no step makes by default (a house rule's) is listed once, at its last step
            unplayed = shared - (set().union(*played.values()) if played else set())
            last = {c: st.phase for st in by_phase.values() for c, _t in st.choices if c in unplayed}
            for c, ph_id in last.items():
                played.setdefault(ph_id, set()).add(c)
        out = []
        for ph in self.tree.get("round") or []:
            if not isinstance(ph, dict):
                continue
            pid = str(ph.get("id", ""))
            st = by_phase.get(pid)
            title = str(ph.get("name") or _label(pid))
            text = st.text if st is not None and st.text else squash(ph.get("description", ""))
            # with the players' text, only its choices; without any, the prompts stand in for them.
            # A choice made in several steps (one timing or another, by a house rule) is listed
            # only where the standard rules make it
            choices = [(c, t) for c, t in st.choices if c not in shared or c in played.get(pid, set())] \
                if st is not None else [(None, t) for t in self._prompts(ph)]
            if text or choices:
                out.append((title, text, choices, pid))
        return out

    def _prompts(self, ph: dict) -> list[str]:
        """The prompts of a phase's choices, as a fallback for choice texts."""
        return phase_prompts(self.v, str(ph.get("id", "")))

    def house_only_phases(self) -> set[str]:
        """The phases that never happen under the default rules: their entry condition reads an
        option and is false at the start of a round for every table size the game plays (a house
        rule brings them in)."""
        whens = {str(ph.get("id")): ph.get("when") for ph in self.tree.get("round") or [] if isinstance(ph, dict)}
        out = set()
        for ph in self.g.phases:
            if ph.when is None or "opt" not in names_in(whens.get(ph.id)):
                continue
            ever = False
            for n in self.g.player_sizes():
                try:
                    ctx = self.g.new_ctx(n, 0, None, False)
                    self.g.reset_round(ctx)
                    ever = bool(ph.when(ctx))
                except Exception:  # noqa: BLE001 - a condition on the round's state: a main step
                    ever = True
                if ever:
                    break
            if not ever:
                out.add(ph.id)
        return out

    @property
    def std_doc(self) -> RulesDoc:
        """The rules text under the standard rules alone: what happens when no house rule is played."""
        if "std_doc" not in self.e.extra:
            from rulekit.lang.prose import Prose
            self.e.extra["std_doc"] = rules_doc(self.v, Prose.sheet(self.v.options, {}))
        return self.e.extra["std_doc"]

    def play(self) -> str:
        out = ["", "## Play {#play}", ""]
        intro = self.section_text("play")
        if intro:
            out += [intro, ""]
        steps = self.play_steps()
        house = self.house_only_phases()
        main = [s for s in steps if s[3] not in house]
        extra = [s for s in steps if s[3] in house]
        titles = {t for t, _x, _c, _p in main}
        std = self.std_doc.section("play")
        std_choices = {st.phase: {c for c, _t in st.choices} for st in (std.steps if std else ())}
        # a house rule's own version of a main step is told with that step, once; other house-rule
        # steps, and the choices only a house rule brings into a main step, are folded after the main ones
        within = {t: [s for s in extra if s[0] == t] for t in titles}
        folded: list[str] = []
        for i, (title, text, choices, pid) in enumerate(main, 1):
            out.append(f"{i}. **{md(title)}.** {safe_md(text)}".rstrip())
            for c, ctext in choices:
                if _house_said(ctext) or (c is not None and pid in std_choices and c not in std_choices[pid]):
                    folded.append(f"- In step {i} ({md(title)}): {safe_md(ctext)}")
                else:
                    out.append(f"    - {safe_md(ctext)}")
            for _t, htext, hchoices, _p in within.get(title, []):
                lead = "" if _house_said(htext) else "under a house rule instead: "
                folded.append(f"- In step {i} ({md(title)}): {lead}{safe_md(htext)}".rstrip())
            out.append("")
        apart: dict[str, list] = {}  # by title: several house-rule versions of one step are told together
        for s in extra:
            if s[0] not in titles:
                apart.setdefault(s[0], []).append(s)
        for title, versions in apart.items():
            if len(versions) == 1:
                folded.append(f"- **{md(title)}.** {safe_md(versions[0][1])}".rstrip())
            else:
                folded.append(f"- **{md(title)}.**")
                folded += [f"    - {safe_md(v[1])}" for v in versions if v[1]]
            said: list[str] = []
            for v in versions:
                said += [t for _c, t in v[2] if t not in said]
            folded += [f"    - {safe_md(c)}" for c in said]
        if folded:
            what = [plural(len(apart), "more step")] if apart else []
            n_within = sum(1 for x in folded if x.startswith("- In step "))
            what += [(plural(n_within, "change to a step", "changes to steps") if not apart else plural(n_within, "more change"))] if n_within else []
            out += [_fold("rk-house-only", "Only under a house rule, in their place in the round: "
                          + " and ".join(what), folded)]
        return "\n".join(out)

    def hands(self) -> str:
        text = self.section_text("hands")
        tables = self.yaku_for_players()
        if not text and not tables:
            return ""
        return "\n".join(["", "## Hands and yaku {#hands}", "", text, "", tables])

    def settling(self) -> str:
        s = self.doc.section("settling")
        if s is None or not (s.text or s.items):
            return ""
        out = ["", "## Settling up {#settling}", ""]
        if s.text:
            out += [_prose(s.text), ""]
        std = self.std_doc.section("settling")
        plain_items = {_bare(x) for x in (std.items if std else ())}
        usual = [x for x in s.items if _bare(x) in plain_items and _bare(x) and not _house_said(x)]
        if not usual:  # nothing told as standard: a fold would hide every payment
            usual = list(s.items)
        others = [x for x in s.items if x not in usual]
        out += [f"- {safe_md(x)}" for x in usual]
        if others:
            out += [_fold("rk-house-only", "Only under a house rule: " + plural(len(others), "more payment"),
                          [f"- {safe_md(x)}" for x in others])]
        return "\n".join(out + [""])

    def game_over(self) -> str:
        text = self.section_text("end")
        if not text:
            facts = {f.label: f.text for f in quick_facts(self.g, self.doc)} if self.yaku is not None else {}
            text = facts.get("The game", "")
        return "\n".join(["", "## End of the game {#end}", "", text, ""]) if text else ""

    # -- yaku for players --------------------------------------------------------------------
    def examples(self) -> dict[tuple[str, str], Example]:
        if "yaku_examples" not in self.e.extra:
            cache = getattr(self.site, "cache_dir", None)
            try:
                self.e.extra["yaku_examples"] = cached_examples(self.g, tuple(self.v.files),
                                                                self.v.meta.players_default, cache)
            except Exception as exc:  # noqa: BLE001
                log.warning("%s: no example hands: %s", self.e.rel_file, exc)
                self.e.extra["yaku_examples"] = {}
        return self.e.extra["yaku_examples"]

    def hand_pictures(self, ids: tuple[str, ...]) -> str:
        """A yaku's example hand: small cards on one line (the row's words name the cards; each picture's
        words are in its title, and the deck's fold shows every card large, with its legend)."""
        index = self.g.card_index
        pics = "".join(self.img(self.g.deck, self.base_deck, index[c], "rk-card rk-card--hand") for c in ids if c in index)
        # focusable (a tap, or the keyboard), so that the legend shows without hovering over each card
        return (f'<div class="rk-cards rk-hand" tabindex="0" role="group" aria-label="Example hand">{pics}'
                f'{legend_for(pics)}</div>')

    def yaku_for_players(self) -> str:
        if not self.g.yaku:
            return ""
        ex = self.examples()
        texts = {(y.table, y.id): y.text for y in self.doc.yaku}
        out = []
        # one table of hands is named by the section's own heading: a heading of its own only when there are several
        tables = []
        for table, entries in self.g.yaku.items():
            src = {str(e.get("id")): e for e in (self.yaku.get(table) or []) if isinstance(e, dict)}
            # a column whose every example says 0 tells a player nothing (the steps pay those hands)
            # a column is shown only with its meaning stated (rules.columns): a bare number misleads;
            # an empty meaning leaves it out on purpose
            meaning = self.column_meanings().get(table, {})
            has_rank = bool(meaning.get("rank")) and any(
                ex.get((table, y.id)) is not None and ex[(table, y.id)].rank not in (0, None, "0") for y in entries)
            has_value = bool(meaning.get("value")) and any(
                ex.get((table, y.id)) is not None and ex[(table, y.id)].value not in (0, None, "0") for y in entries)
            rows, house_rows = [], []
            for y in entries:
                e = ex.get((table, y.id))
                name = f"<strong>{h(y.names.get('en', _label(y.id)))}</strong>"
                jp = names_line({k: y.names.get(k) for k in ("ja", "romaji", "gloss")})
                if jp:
                    name += f"<br><small>{jp}</small>"
                name = f'<span id="yaku-{slug(table)}-{slug(y.id)}">{name}</span>'
                what = h_rich(texts.get((table, y.id)) or y.description or "")
                if e is not None:
                    pics = self.hand_pictures(e.cards)
                    value = h(e.value)
                    rank = h(e.rank)
                    never = False
                else:
                    never = self.never((src.get(y.id) or {}).get("when"))
                    pics = ("<em>Not part of the game under the default rules (a house rule brings it in).</em>"
                            if never else "<em>No example came up in the simulated rounds.</em>")
                    value = rank = "—"
                row = [name, pics] + ([value] if has_value else []) + ([rank] if has_rank else []) + [what]
                (house_rows if never else rows).append(row)
            head = ["yaku", "example hand"] + (["value"] if has_value else []) + (["rank"] if has_rank else []) \
                + ["what it is"]
            title = _label(table) if "yaku" in table.lower() else f"{_label(table)} hands"
            # hands only a house rule brings in are folded with the house rules' other extras
            lead = "Only under a house rule: " if rows else f"{h(title)}, only under a house rule: "
            anchor = "" if rows else f' id="{table_anchor(table)}"'
            house = (f'<details class="rk-fold rk-house-only"{anchor}><summary>{lead}'
                     f'{plural(len(house_rows), "more hand")}</summary>{_table(head, house_rows, "rk-yaku")}</details>'
                     if house_rows else "")
            if not rows:  # the whole table is a house rule's: its name and its hands in one fold
                tables.append((None, "", [], "", house))
                continue
            said = [f"<em>{k}</em>: {md(meaning[k])}" for k, shown in (("value", has_value), ("rank", has_rank))
                    if shown]
            # the hand column as wide as most example hands, and the longest in at most two lines (one when
            # it is five cards or fewer): room left for the words
            sizes = sorted(len(ex[(table, y.id)].cards) for y in entries if ex.get((table, y.id)) is not None)
            wide = max(2, min(7, sizes[-1] if sizes[-1] <= 5 else max(sizes[(3 * (len(sizes) - 1)) // 4],
                                                                      -(-sizes[-1] // 2)))) if sizes else 2
            tables.append((table, title, ["; ".join(said) + ".", ""] if said else [],
                           _table(head, rows, f"rk-yaku rk-hand-{wide}"), house))
        headed = sum(1 for t in tables if t[0] is not None) > 1
        for table, title, said, body, house in tables:
            if table is not None and headed:
                out += [f"### {md(title)} {{#{table_anchor(table)}}}", ""]
            elif table is not None:  # no heading of its own: the table keeps the anchor (links to it)
                body = body.replace('<div class="rk-table ', f'<div id="{table_anchor(table)}" class="rk-table ', 1)
            out += said + ([_block(body), ""] if body else []) + ([_block(house), ""] if house else [])
        return "\n".join(out)

    def column_meanings(self) -> dict[str, dict[str, str]]:
        """rules.columns: what each yaku table's value and rank mean, options filled in."""
        from rulekit.lang.prose import Prose, render
        cols = (plain(self.v.tree).get("rules") or {}).get("columns") or {}
        words = Prose.page(self.v.options)
        return {str(t): {str(k): render(str(v), words) for k, v in (c or {}).items()} for t, c in cols.items()}

    # -- house rules -----------------------------------------------------------------------------
    def option_value_words(self, o, value: Any) -> str:
        if o.type == "choice":
            d = dict((str(k), v) for k, v in o.values)
            return squash(d.get(str(value), _label(value)))
        if o.type == "bool":
            return "yes" if value in (True, "true") else "no"
        return str(value)

    def house_rules(self) -> str:
        from rulekit.website.yourtable import panel_html
        panel = panel_html(self.v, self.g, self.doc, getattr(self.site, "cache_dir", None))
        out = ["", "## House rules {#house-rules}", ""]
        if not self.v.options:
            out += ["This game has no house-rule options.", ""]
        else:
            if panel:
                out += [_block(panel), ""]
            items = []
            for o in self.v.options.values():
                default = self.option_value_words(o, o.default)
                short = []  # the other readings in a few words, for the one line
                if o.type == "choice":
                    alt_words = [squash(desc) for k, desc in o.values if str(k) != str(o.default)]
                    alts = [f"<li>{h_rich(desc)}</li>" for desc in alt_words]
                    cli = [f"{o.name}={k}" for k, _d in o.values]
                    others = f"<p>Other readings:</p><ul>{''.join(alts)}</ul>" if alts else ""
                    short = alt_words
                elif o.type == "int":
                    rng = " to ".join(x for x in (None if o.min is None else str(o.min),
                                                  None if o.max is None else str(o.max)) if x)
                    others = f"<p>Any whole number{(' from ' + rng) if rng else ''}.</p>"
                    short = [f"any number{(' from ' + rng) if rng else ''}"]
                    cli = [f"{o.name}={o.default}"]
                else:
                    others = f"<p>Or {'no' if default == 'yes' else 'yes'}.</p>"
                    short = ["no" if default == "yes" else "yes"]
                    cli = [f"{o.name}=true", f"{o.name}=false"]
                line = "; or ".join(short)
                if len(line) > 70:
                    line = f"{plural(len(short), 'other reading')}" if len(short) > 1 else "one other reading"
                else:
                    line = f"or {line}" if line else ""
                src = source_html(o.source, self.v.meta.sources) if o.source else ""
                src = f"<p><small>Source: {src}</small></p>" if src else ""
                name = squash(o.label)[:1].upper() + squash(o.label)[1:] if squash(o.label) else _label(o.name)
                # one line: the rule's name, the usual reading and the others in brief; the rest folded
                items.append(f'<details class="rk-option" id="option-{slug(o.name)}"><summary><strong>'
                             f"{h(name)}</strong>: <span class=\"rk-default\">{h_rich(default)}</span>"
                             + (f' <span class="rk-alts">({h_rich(line)})</span>' if line else "")
                             + f"</summary><p>{h_rich(o.description)}</p><p>Usually: <strong>{h_rich(default)}</strong>.</p>"
                             f"{others}{src}{cli_note(o.name, cli)}</details>")
            # one line: the fold's own list names each house rule, one line each
            out.append(_block(f'<details class="rk-fold rk-options-fold"><summary><strong>'
                              f'{plural(len(items), "house rule")}</strong> to settle before the first deal. '
                              '<span class="rk-alts">The rules above follow the usual reading.'
                              '</span></summary><div class="rk-options">' + "".join(items) + "</div>"
                              + f'<p><a href="{self.root}guides/house-rules/">How to write your house rules</a></p>'
                              + self.presets_html() + "</details>"))
        if self.v.presets and not self.v.options:  # no list to share a fold with
            out += ["", _block(f'<details class="rk-fold rk-presets"><summary>Presets: '
                               f'{plural(len(self.v.presets), "named set")} of house rules</summary>'
                               f'{self.presets_html()}</details>'), ""]
        return "\n".join(out)

    def presets_html(self) -> str:
        """The presets (named sets of house rules), one line each, and their command-line spelling."""
        if not self.v.presets:
            return ""
        lines = []
        for p in self.v.presets.values():
            bits = []
            if not squash(p.description):  # the description says what the preset sets; else list it
                for k, v in p.options.items():
                    o = self.v.options.get(k)
                    bits.append(f"{_label(k).lower()}: {self.option_value_words(o, v)}" if o else f"{k}: {v}")
            if p.deck:
                bits.append(f"played with the {_label(p.deck).lower()} deck")
            detail = f" ({h('; '.join(bits))})" if bits else ""
            lines.append(f"<li><strong>{h(p.name)}</strong>: {h_rich(p.description)}{detail}</li>")
        return (f'<div class="rk-presets" id="presets"><p><strong>Presets</strong>, named sets of house rules:</p>'
                f'<ul>{"".join(lines)}</ul>'
                + cli_note(None, [f"--preset {p.name}" for p in self.v.presets.values()], "") + "</div>")

    # -- how it plays --------------------------------------------------------------------------------
    def how_it_plays(self) -> str:
        stats = self.statistics()
        # the statistics come as top-level sections: here they sit under "How it plays"
        stats = re.sub(r"(?m)^(#{2,5}) ", lambda m: "#" + m.group(1) + " ", stats) if stats else ""
        stats = re.sub(r"(?m)^(#+) How it plays: (\w)", lambda m: f"{m.group(1)} {m.group(2).upper()}", stats)
        if not stats:
            return ""
        # folded: the figures are for the curious, after the rules and the example
        return "\n".join(["", "## How it plays {#how-it-plays}", "",
                          '<details class="rk-howitplays" markdown="1"><summary>Odds and statistics from '
                          "simulated rounds</summary>", "", stats, "", "</details>", ""])

    def example_policy(self) -> str:
        """The sensible players of the example: the game's careful policy, else its first, else first-legal."""
        pols = list(self.g.policies)
        return "careful" if "careful" in pols else (pols[0] if pols else "first")

    def example(self) -> str:
        from rulekit.website.story import story_markdown
        ex = self.tree.get("example") if isinstance(self.tree.get("example"), dict) else {}
        n = int(ex.get("players", self.v.meta.players_default))
        seed = int(ex.get("seed", SEED))
        policy = self.example_policy()
        try:
            res, snaps = play_with_snapshots(self.g, n, seed, policy)
        except Exception as exc:  # noqa: BLE001
            log.warning("%s: the example round cannot be played: %s", self.e.rel_file, exc)
            return f"\n## A worked example {{#example}}\n\nThe example round could not be played: {md(exc)}\n"
        shows = f" It shows {md(squash(ex['shows']).rstrip('.'))}." if ex.get("shows") else ""
        out = ["", "## A worked example {#example}", "",
               f"One round at a table of {n}, every player playing carefully: the way a sensible player "
               f"would.{shows}", "",
               _block(cli_note(None, [f"rulekit play {self.e.id} --seed {seed} --policy {policy}"
                                      + (f" --players {n}" if n != self.v.meta.players_default else "")], "")), ""]
        pics = {k: table_picture(self.g, z, lambda c: self.img(self.g.deck, self.base_deck, c, "rk-card rk-card--table"),
                                 "The table after this stage") for k, z in snaps.items()}
        out.append(story_markdown(self.g, n, res.events, res.chips, pics))
        return "\n".join(out)

    # -- after the rules -----------------------------------------------------------------------------
    def related(self) -> str:
        """One line of links to the games this one is built on, built on it, or close to it."""
        links = []
        if self.e.parent and self.e.parent in self.site.entries:
            p = self.site.entries[self.e.parent]
            links.append(f"[{md(p.title)}]({p.id}.md) (this game is written as a variant of it)")
        for k in self.site.entries.values():
            if k.parent == self.e.id:
                links.append(f"[{md(k.title)}]({k.id}.md) (a variant of this game)")
        fam, deck = family_slug(self.v.meta.family), root_deck(self.base_deck)
        for other in self.site.entries.values():
            if other.id == self.e.id or other.id == self.e.parent or other.parent == self.e.id:
                continue
            if family_slug(other.variant.meta.family) == fam and \
                    root_deck(other.variant.decks[other.game.deck_name].base) == deck:
                links.append(f"[{md(other.title)}]({other.id}.md)")
        return "\n".join(["", "**Related games:** " + ", ".join(links) + ".", ""]) if links else ""

    def notes(self) -> str:
        notes = self.v.meta.extra.get("notes") if isinstance(self.v.meta.extra, dict) else None
        if not notes:
            return ""
        return "\n".join(["", '!!! note "About this write-up"', "", "    " + md_rich(notes), ""])

    # -- statistics ----------------------------------------------------------------------
    def statistics(self) -> str:
        return statistics_markdown(self)

    def sources(self) -> str:
        out = ["", "## Sources {#sources}", ""]
        for s in self.v.meta.sources:
            if isinstance(s, dict):
                url = safe_url(s.get("url", ""))
                out.append(f"- [{md(s.get('title') or url)}]({url})" if url else f"- {md(s.get('title', ''))}")
            elif safe_url(s):
                out.append(f"- <{safe_url(s)}>")
        out += ["", "The rules on this page are our own summary of these sources, in our own words."]
        return "\n".join(out)


"""The folded part of a rules page: the rules as rulekit runs them (steps, zones, variables, formulas).

Everything here may show expressions: it is the machine's reading of the rules, for authors and
the curious, and the page puts it inside one `<details>` block after everything a player reads.
"""
from __future__ import annotations

from typing import Any

from rulekit.lang.decks import Deck, load_deck
from rulekit.website.rules import kinds_in, names_in, payments, proc_anchor, table_anchor
from rulekit.website.util import code, h, h_rich, md, md_rich, mdcode, names_line, slug
from rulekit.website.yakucards import candidate_cards

MAX_PICTURES = 18


def _block(html_text: str) -> str:
    """A raw HTML block for Markdown: its own paragraph, no blank lines inside."""
    return "\n" + "".join(x for x in html_text.splitlines()) + "\n"


def _table(head: list[str], rows: list[list[str]], cls: str = "") -> str:
    th = "".join(f"<th>{c}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    table = f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"
    # Material styles tables without a class: the class goes on a wrapper
    return f'<div class="rk-table {cls}">{table}</div>' if cls else table


class MachineParts:
    """The page's folded block; mixed into VariantPage (uses its v, g, tree, procs, yaku, r)."""

    def machine(self) -> str:
        """The whole fold: deck attributes, table, variables, steps, game, procedures, yaku, formulas."""
        choice = self.v.decks[self.g.deck_name]
        parts = [self.deck_making(choice), self.table_and_counters(), self.phases(), self.game_end(),
                 self.procedures(), self.yaku_tables(), self.payouts(),
                 f"\nThe rules file: {mdcode(self.e.rel_file)}.\n"]
        body = "\n".join(p for p in parts if p)
        # rendered here rather than by the page's Markdown: raw HTML nested in a `markdown="1"`
        # block is not kept intact, and the fold is mostly raw HTML (step lists, tables)
        import markdown  # the docs extra (mkdocs) brings it; only the site needs it
        inner = markdown.markdown(body, extensions=["tables", "attr_list", "md_in_html"], output_format="html")
        return ("\n## For rules authors: the rules file {#machine}\n\n"
                "The same rules as the program reads them from the game's rules file, for authors and for checking: "
                "the zones and counters it keeps, every step of a round, and the formulas of the payments.\n\n"
                + '\n<details class="rk-machine"><summary>Show the rules as the program reads them</summary>'
                + inner.replace("\n", " ") + "</details>\n")

    def deck_making(self, choice) -> str:
        """How the deck is made from a shipped deck, and the attributes the rules give its cards."""
        out = []
        d = self.derivation_html(choice)
        if d:
            out += ["### The deck {#machine-deck}", "", _block(d)]
        attrs = self.added_attributes(choice, self.g.deck)
        if attrs:
            if not out:
                out += ["### The deck {#machine-deck}", ""]
            out.append(attrs)
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


    # -- zones, variables ---------------------------------------------------------------
    def table_and_counters(self) -> str:
        out = ["### The table {#zones}", "",
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
                out += ["", f"### {title} {{#machine-{anchor}}}", ""]
            if anchor == "play":
                out += ["The phases below are played in order; each step is carried out as written. Seats are "
                        "numbered anticlockwise, so `right_of(p)` is the next player to act.", ""]
            for ph in phases:
                pid = str(ph.get("id", "phase"))
                out += [f"#### {md(ph.get('name', pid))} {{#phase-{slug(pid)}}}", ""]
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
        out = ["", "### Step sequences used above {#procedures}", "",
               "Named sequences of steps that the phases call with `Do ...`.", ""]
        for name, pdef in self.procs.items():
            params = (pdef or {}).get("params") or {}
            sig = ", ".join(f"{k}: {t}" for k, t in params.items())
            out += [f"#### {md(name)}({md(sig)}) {{#{proc_anchor(name)}}}", ""]
            if (pdef or {}).get("description"):
                out += [md_rich(pdef["description"]), ""]
            out.append(_block(self.r.steps((pdef or {}).get("steps")) or "<p>(no steps)</p>"))
        return "\n".join(out)

    # -- yaku -----------------------------------------------------------------------------
    def yaku_tables(self) -> str:
        if not self.yaku:
            return ""
        out = ["", "### Yaku conditions {#yaku-conditions}", "",
               "Scoring combinations, found by the `claim` steps and the `yaku(...)` functions of the rules. "
               "Yaku sharing a group exclude each other: only the best of a group counts (highest rank, then "
               "value). The cards shown are those the condition lets take part, read from it card by card.", ""]
        for table, entries in self.yaku.items():
            out += [f"#### Table `{md(table)}` {{#{table_anchor(table)}}}", ""]
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
                name = f'<span id="rule-yaku-{slug(table)}-{slug(str(e.get("id")))}">{name}</span>'
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
            from rulekit.engine.scope import variant_scope
            from rulekit.lang.expr import compile_expr
            scope = variant_scope(self.v, self.g.deck, self.g.options).with_locals({"cards": "list<card>", "seat": "int"})
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
        out = ["", "### Payouts and formulas {#payouts}", "",
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


"""The "How it plays" part of a variant page: statistics under a named strategy, and what each house rule does.

`run_simulations(site, ...)` plays every variant at build time (cached on disk);
`statistics_markdown(page)` renders the results for one VariantPage.
"""
from __future__ import annotations

import math
import re
from typing import Any

from rulekit.website.charts import bar_chart
from rulekit.website.effects import Change, changes, effects_all, site_policy
from rulekit.website.stats import play_all, remember
from rulekit.website.util import money_words
from rulekit.website.util import html_block as _block, html_table as _table, cli_note, h, h_rich, md, md_rich

SEED = 1
DEFAULT_EFFECT_ROUNDS = 600


# -- running the simulations ---------------------------------------------------------------
def run_simulations(site: Any, rounds: int, effect_rounds: int, cache_dir: str | None) -> None:
    """Fill each entry's stats (under the site's strategy) and house-rule effects (paired seeds)."""
    entries = list(site.entries.values())
    for e in entries:
        e.extra["policy"] = site_policy(e.game)
        e.extra["changes"] = changes(e.variant)
        remember(e.path, e.game)  # built once: the simulations (and the workers they fork) play this game
    # the statistics keep their first rounds' results: the effects pair every house rule with those very rounds
    played = play_all([(e.path, e.variant.files, e.variant.meta.players_default, e.extra["policy"])
                       for e in entries], rounds, seed=SEED, cache_dir=cache_dir, keep=max(0, effect_rounds))
    for e in entries:
        e.stats = played[e.path][0] if e.path in played else None
    if effect_rounds > 0:
        eff = effects_all([(e.path, e.variant.files, e.variant.meta.players_default, e.extra["policy"],
                            e.extra["changes"]) for e in entries], effect_rounds, seed=SEED, cache_dir=cache_dir,
                          bases={p: rows for p, (_s, rows) in played.items()})
        for e in entries:
            e.extra["effects"] = eff.get(e.path, {})
            e.extra["effect_rounds"] = effect_rounds


# -- labels ------------------------------------------------------------------------------------
def humanize(ident: str) -> str:
    """An identifier as words: 'dealer_buta' -> 'Dealer buta'."""
    s = re.sub(r"[_\-]+", " ", str(ident)).strip()
    return s[:1].upper() + s[1:]


def outcome_names(page: Any) -> dict[str, tuple[str, str]]:
    """Record id -> (name, description) from the rules file's `records:` map, yaku by their names."""
    out: dict[str, tuple[str, str]] = {}
    for rid, d in (page.tree.get("records") or {}).items():
        if isinstance(d, dict):
            out[str(rid)] = (str(d.get("name") or humanize(rid)), str(d.get("description") or ""))
    for t in page.g.yaku.values():
        for y in t:
            out[f"yaku:{y.id}"] = (f"{y.names.get('en', humanize(y.id))} (yaku)", "")
    return out


def outcome_label(names: dict[str, tuple[str, str]], key: str) -> str:
    if key in names:
        return names[key][0]
    if key.startswith("yaku:"):
        return f"{humanize(key[5:])} (yaku)"
    return humanize(key)


def _digits(ci: float) -> int:
    """Decimals worth showing for a value known to within ±ci."""
    return 3 if ci < 0.005 else 2


def _num(x: float, ci: float) -> str:
    s = f"{x:+.{_digits(ci)}f}"
    if float(s) == 0:
        s = "±" + s[1:]  # rounds to zero: no sign to read into it
    return s.replace("-", "−")


def _effect(x: float, ci: float) -> str:
    """'+0.21 (±0.03)'; in bold when the interval excludes zero; 'no change' when nothing changed."""
    if x == 0 and ci == 0:
        return "no change"
    text = f"{_num(x, ci)} <small>(±{ci:.{_digits(ci)}f})</small>"
    return f"<strong>{text}</strong>" if abs(x) > ci and ci > 0 else text


# -- the section -------------------------------------------------------------------------------
def policy_sentence(page: Any, policy: str) -> str:
    """Who the simulated players are, in plain words."""
    if policy == "random":
        return ("The rules file offers no scripted strategy, so every simulated player picks at random among "
                "the legal choices; real players do better, so take these figures as a rough guide.")
    desc = (page.g.policies.get(policy) or {}).get("description", "")
    return f"Every simulated player follows the strategy **{md(policy)}** of the rules file: {md_rich(desc)}"


def statistics_markdown(page: Any) -> str:
    """The statistics section of a variant page (page is its VariantPage); empty without statistics."""
    s = page.e.stats
    if s is None or not s.rounds:
        return ""
    n = s.n
    policy = page.e.extra.get("policy") or site_policy(page.g)
    pol_arg = f" --policy {policy}" if policy != "random" else ""
    unit = money_words(page.g)[1]
    out = ["", "## How it plays: simulated rounds {#statistics}", "",
           policy_sentence(page, policy), "",
           f"{s.rounds} independent rounds with {n} players; seat 0 deals every round. A result is the {unit} a "
           f"seat won (+) or lost (−) in one round.", "",
           _block(cli_note(None, [f"rulekit simulate {page.e.id} --rounds {s.rounds} --seed {SEED}{pol_arg}"], "")),
           ""]
    rows = []
    cis = []
    for seat in range(n):
        m, sd = s.mean(seat), s.sd(seat)
        ci = 1.96 * sd / math.sqrt(s.rounds)
        cis.append(ci)
        rows.append([f"seat {seat}" + (" (dealer)" if seat == 0 else ""), _num(m, ci), f"±{ci:.{_digits(ci)}f}",
                     f"{100 * s.wins[seat] / s.rounds:.1f}%", f"{100 * s.losses[seat] / s.rounds:.1f}%"])
    out.append(_block(_table(["seat", f"{unit} per round (mean)", "95% interval", "rounds won", "rounds lost"],
                             rows, "rk-stats")))
    chart = bar_chart([(f"seat {i}" + (" (dealer)" if i == 0 else ""), s.mean(i)) for i in range(n)],
                      "Mean result per round, by seat", lambda v: _num(v, 0.01),
                      axis=f"{unit} won (+) or lost (−) per round; whiskers: 95% interval", intervals=cis)
    out.append(_block(chart))
    if s.records:
        names = outcome_names(page)
        items = sorted(s.records.items(), key=lambda kv: (-kv[1], kv[0]))
        chart = bar_chart([(outcome_label(names, k), 100.0 * v / s.rounds) for k, v in items[:15]],
                          "How often each outcome came up", lambda v: f"{v:.1f}",
                          axis="times per 100 rounds")
        out += ["", "How often each yaku, and each event the rules keep count of, came up:", "", _block(chart)]
        rows = [[h(outcome_label(names, k)), h_rich(names.get(k, ("", ""))[1]), str(v),
                 f"{100.0 * v / s.rounds:.2f}"] for k, v in items]
        out.append(_block(f'<details class="rk-deck"><summary>All {len(items)} outcomes</summary>'
                          + _table(["outcome", "what it is", "count", "per 100 rounds"], rows, "rk-outcomes")
                          + "</details>"))
    out.append(effects_markdown(page))
    others = [p for p in page.g.policies if p != policy]
    if others:
        out += ["", "Other strategies the rules file offers:", ""]
        for name in others:
            out.append(f"- **{md(name)}**: {md_rich(page.g.policies[name].get('description', ''))}")
        out += ["", _block(cli_note(None, [f"--policy {name}" for name in others], "")), ""]
    return "\n".join(out)


# -- what each house rule does -----------------------------------------------------------------
def change_text(page: Any, ch: Change) -> str:
    """A change in plain words, with what it replaces: 'Ties go to the dealer (instead of: stakes returned)'."""
    v = page.v
    if ch.preset is not None:
        p = v.presets[ch.preset]
        return f"Preset <strong>{h(p.name)}</strong>: {h_rich(p.description)}"
    o = v.options[ch.option]
    if o.type == "choice":
        meaning = dict((str(k), d) for k, d in o.values)
        new, old = meaning.get(str(ch.value), str(ch.value)), meaning.get(str(o.default), str(o.default))
        text = f"{h_rich(_cap(new))} <small>(instead of: {h_rich(old)})</small>"
    elif o.type == "bool":
        text = (f"{h_rich(_question(o.description))}: <strong>{'yes' if ch.value else 'no'}</strong> "
                f"<small>(instead of: {'yes' if o.default else 'no'})</small>")
    else:
        text = (f"{h_rich(_question(o.description))}: <strong>{h(ch.value)}</strong> "
                f"<small>(instead of: {h(o.default)})</small>")
    return text  # the command-line spelling is in the house rule's own note, above


def _question(text: str) -> str:
    """An option's description as the head of 'description: value' (no closing full stop)."""
    t = " ".join(str(text).split())
    return t[:-1] if t.endswith(".") else t


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def effects_markdown(page: Any) -> str:
    """The table 'What each house rule does' (empty when the effects were not simulated)."""
    eff = page.e.extra.get("effects")
    chs: list[Change] = page.e.extra.get("changes") or []
    if not eff or not chs:
        return ""
    r = page.e.extra.get("effect_rounds", 0)
    n = page.v.meta.players_default
    out = ["", "### What each house rule does {#house-rule-effects}", "",
           f"Each house rule against the default rules, on the same seeded rounds (same shuffles, same "
           f"strategy) with {n} players: the change in each role's result, in {money_words(page.g)[1]} per round, with its 95% "
           f"interval. Bold: the interval excludes zero, so the change is real and not chance. Each house rule "
           f"plays {_rounds_played(eff, r)} rounds: more while its interval is wide, up to {r}.", ""]
    rows, idle, failed = [], [], []
    for ch in chs:
        res = eff.get(ch.key)
        if res is None:
            continue
        if "error" in res:
            failed.append(f"{change_text(page, ch)}: {h(res['error'])}")
            continue
        if res["unchanged_rounds"] == res["rounds"]:
            idle.append(change_text(page, ch))
            continue
        (dm, dci), (om, oci) = res["dealer"], res["others"]
        rows.append([change_text(page, ch), _effect(dm, dci), _effect(om, oci),
                     _share(1 - res["unchanged_rounds"] / res["rounds"])])
    if rows:
        out.append(_block(_table(["house rule", "dealer", "each other player", "rounds it changes"], rows,
                                 "rk-effects")))
    else:
        out.append("No house rule changed the result of any simulated round.")
    if idle:
        from rulekit.website.effects import site_policy
        pol = site_policy(page.g) if getattr(page, "g", None) is not None else "the site's"
        least = min((eff[k]["rounds"] for k in eff if "rounds" in eff[k]), default=r)
        out += ["", f"These did not change the result of any of their simulated rounds (at least {least}) of "
                f"{n} players, all "
                f"played the '{pol}' way. That does not mean they change nothing: they may act between rounds "
                "(the length of the game, who deals next), at another number of players, or in situations that "
                "way of playing never meets (a player who plays differently may meet them often):", ""]
        out += [f"- {_inline(x)}" for x in idle]
    if failed:
        out += ["", "These could not be simulated:", ""] + [f"- {_inline(x)}" for x in failed]
    return "\n".join(out)


def _rounds_played(eff: dict, most: int) -> str:
    """'200 to 600' (or '600'): how many paired rounds the house rules played."""
    counts = [res["rounds"] for res in eff.values() if "rounds" in res] or [most]
    lo, hi = min(counts), max(counts)
    return f"{lo}" if lo == hi else f"{lo} to {hi}"


def _share(f: float) -> str:
    """A fraction as a percentage a reader can trust: never '0%' for something that happened."""
    return "under 1%" if 0 < f < 0.005 else f"{100 * f:.0f}%"


def _inline(html_text: str) -> str:
    """An HTML fragment on one Markdown list line."""
    return html_text.replace("<br>", " ")

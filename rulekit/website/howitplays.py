"""The "How it plays" part of a variant page: simulated statistics under a named policy."""
from __future__ import annotations

import math
from typing import Any

from .charts import bar_chart
from .util import h, md, md_rich

SEED = 1


def _block(html_text: str) -> str:
    """A raw HTML block for Markdown: its own paragraph, no blank lines inside."""
    return "\n" + "".join(x for x in html_text.splitlines()) + "\n"


def _table(head: list[str], rows: list[list[str]], cls: str = "") -> str:
    th = "".join(f"<th>{c}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    table = f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"
    # Material styles tables without a class: the class goes on a wrapper
    return f'<div class="rk-table {cls}">{table}</div>' if cls else table


def statistics_markdown(page: Any) -> str:
    """The statistics section of a variant page (page is its VariantPage); empty without statistics."""
    s = page.e.stats
    if s is None or not s.rounds:
        return ""
    n = s.n
    out = ["", "## Simulated statistics {#statistics}", "",
           f"{s.rounds} independent rounds with {n} players making random legal choices (seed {SEED}); seat 0 "
           "deals every round. Results are chips won or lost per round. Reproduce with "
           f"`rulekit simulate {page.e.id} --rounds {s.rounds} --seed {SEED}`.", ""]
    rows = []
    for seat in range(n):
        m, sd = s.mean(seat), s.sd(seat)
        ci = 1.96 * sd / math.sqrt(s.rounds)
        rows.append([f"seat {seat}" + (" (dealer)" if seat == 0 else ""), f"{m:+.3f}", f"±{ci:.3f}",
                     f"{sd:.2f}", f"{100 * s.wins[seat] / s.rounds:.1f}%",
                     f"{100 * s.losses[seat] / s.rounds:.1f}%"])
    out.append(_block(_table(["seat", "mean", "95% interval", "spread (sd)", "won", "lost"], rows, "rk-stats")))
    chart = bar_chart([(f"seat {i}" + (" (dealer)" if i == 0 else ""), s.mean(i)) for i in range(n)],
                      "Mean result per round, by seat", lambda v: f"{v:+.3f}", label_width=110)
    out.append(_block(f'<div class="rk-chart-wrap">{chart}</div>'))
    if s.records:
        yaku_names = {y.id: y.names.get("en", y.id) for t in page.g.yaku.values() for y in t}

        def label(k: str) -> str:
            return f"yaku: {yaku_names.get(k[5:], k[5:])}" if k.startswith("yaku:") else k
        items = sorted(s.records.items(), key=lambda kv: (-kv[1], kv[0]))
        chart = bar_chart([(label(k), 100.0 * v / s.rounds) for k, v in items[:20]],
                          "Outcomes per 100 rounds", lambda v: f"{v:.2f}")
        out += ["", "How often each yaku and each outcome the rules note came up:", "",
                _block(f'<div class="rk-chart-wrap">{chart}</div>')]
        rows = [[h(label(k)), str(v), f"{100.0 * v / s.rounds:.2f}"] for k, v in items]
        out.append(_block(f'<details class="rk-deck"><summary>All {len(items)} outcomes</summary>'
                          + _table(["outcome", "count", "per 100 rounds"], rows) + "</details>"))
    if page.g.policies:
        out += ["", "Scripted players the rules file also offers (`--policy NAME`):", ""]
        for name, p in page.g.policies.items():
            out.append(f"- **{md(name)}**: {md_rich(p.get('description', ''))}")
    return "\n".join(out)

"""Inline SVG bar charts (no scripts): horizontal bars, negative values to the left of zero."""
from __future__ import annotations

from typing import Callable

from .util import h


def bar_chart(items: list[tuple[str, float]], title: str, fmt: Callable[[float], str] = lambda v: f"{v:.3g}",
              width: int = 680, bar: int = 20, label_width: int = 220) -> str:
    """A horizontal bar chart of (label, value) pairs as one line of inline SVG."""
    if not items:
        return ""
    gap = 6
    top = 28
    height = top + len(items) * (bar + gap) + 8
    lo = min(0.0, min(v for _, v in items))
    hi = max(0.0, max(v for _, v in items))
    span = (hi - lo) or 1.0
    plot_x = label_width + 10
    value_w = 70
    plot_w = width - plot_x - value_w
    zero = plot_x + (0 - lo) / span * plot_w
    out = [f'<svg class="rk-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="100%" style="max-width:{width}px" role="img" aria-label="{h(title)}">',
           f"<title>{h(title)}</title>",
           f'<text class="rk-chart-title" x="0" y="16" font-weight="700">{h(title)}</text>']
    for i, (label, v) in enumerate(items):
        y = top + i * (bar + gap)
        x0 = zero if v >= 0 else zero - (-v) / span * plot_w
        w = abs(v) / span * plot_w
        cls = "pos" if v >= 0 else "neg"
        fill = "#3f51b5" if v >= 0 else "#d9534f"
        short = label if len(label) <= 34 else label[:33] + "…"
        out.append(f'<text x="{label_width}" y="{y + bar * 0.72:.1f}" text-anchor="end">{h(short)}</text>')
        out.append(f'<rect class="{cls}" x="{x0:.1f}" y="{y}" width="{max(w, 0.5):.1f}" height="{bar}" '
                   f'fill="{fill}" rx="2"><title>{h(label)}: {h(fmt(v))}</title></rect>')
        tx = (x0 + w + 4) if v >= 0 else (x0 - 4)
        anchor = "start" if v >= 0 else "end"
        if v < 0 and tx - 60 < plot_x:
            tx, anchor = zero + 4, "start"
        out.append(f'<text x="{tx:.1f}" y="{y + bar * 0.72:.1f}" text-anchor="{anchor}">{h(fmt(v))}</text>')
    out.append(f'<line class="axis" x1="{zero:.1f}" y1="{top - 4}" x2="{zero:.1f}" y2="{height - 4}" '
               f'stroke="#888" stroke-width="1"/>')
    out.append("</svg>")
    return "".join(out)

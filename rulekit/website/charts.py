"""Bar charts as plain HTML and CSS (no scripts, no SVG text that shrinks on a phone).

Labels and values are ordinary text, so they keep the page's font size at any width; bars
are positioned in percent of the plot area. A value axis with round ticks and a title that
names the unit sits under the bars. Colours come from docs/stylesheets/rulekit.css (a
colour-blind-safe pair for gain and loss in both schemes; losses are also hatched).
"""
from __future__ import annotations

import math
from typing import Callable

from rulekit.website.util import h


def nice_ticks(lo: float, hi: float, count: int = 4) -> list[float]:
    """Round tick values covering lo..hi (about `count` steps of 1, 2 or 5 times a power of ten)."""
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    start = math.floor(lo / step + 1e-9) * step
    ticks = []
    t = start
    while t < hi + step * 0.999:
        ticks.append(round(t, 10) + 0.0)
        t += step
    return ticks


def _tick_text(v: float, step: float) -> str:
    digits = max(0, -math.floor(math.log10(step))) if step < 1 else 0
    s = f"{v:.{digits}f}"
    return "0" if float(s) == 0 else s.replace("-", "−")


def _pct(v: float, lo: float, span: float) -> float:
    return round((v - lo) / span * 100.0, 2)


def bar_chart(items: list[tuple[str, float]], title: str, fmt: Callable[[float], str] = lambda v: f"{v:.3g}",
              axis: str = "", intervals: list[float] | None = None) -> str:
    """A horizontal bar chart of (label, value) pairs, with optional 95% intervals (margins either side) as whiskers."""
    if not items:
        return ""
    ivs = intervals or [0.0] * len(items)
    lo = min([0.0] + [v - e for (_, v), e in zip(items, ivs)])
    hi = max([0.0] + [v + e for (_, v), e in zip(items, ivs)])
    ticks = nice_ticks(lo, hi)
    lo, hi = min(lo, ticks[0]), max(hi, ticks[-1])
    span = (hi - lo) or 1.0
    zero = _pct(0.0, lo, span)
    rows = []
    for (label, v), e in zip(items, ivs):
        left = _pct(min(0.0, v), lo, span)
        width = max(0.3, round(abs(v) / span * 100.0, 2))
        sign = "pos" if v >= 0 else "neg"
        whisker = ""
        if e > 0:
            whisker = (f'<span class="rk-ci" style="left:{_pct(v - e, lo, span)}%;'
                       f'width:{round(2 * e / span * 100.0, 2)}%"></span>')
        rows.append(f'<div class="rk-chart-row"><span class="rk-chart-label">{h(label)}</span>'
                    f'<span class="rk-chart-track"><span class="rk-zero" style="left:{zero}%"></span>'
                    f'<span class="rk-bar rk-bar--{sign}" style="left:{left}%;width:{width}%"></span>{whisker}</span>'
                    f'<span class="rk-chart-value">{h(fmt(v))}</span></div>')
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1.0
    marks = "".join(f'<span class="rk-tick" style="left:{_pct(t, lo, span)}%">{_tick_text(t, step)}</span>'
                    for t in ticks)
    rows.append(f'<div class="rk-chart-row rk-chart-axis" aria-hidden="true"><span class="rk-chart-label"></span>'
                f'<span class="rk-chart-track">{marks}</span><span class="rk-chart-value"></span></div>')
    caption = f'<figcaption>{h(title)}</figcaption>'
    axis_html = f'<div class="rk-axis-title">{h(axis)}</div>' if axis else ""
    return (f'<figure class="rk-chart" role="group" aria-label="{h(title)}">{caption}'
            f'<div class="rk-chart-rows">{"".join(rows)}</div>{axis_html}</figure>')

"""Declared statistics as figures: intervals (Wilson, normal, delta method), z against an exact
value, the JSON rows and the readable report.

Interval methods, all at 95%: a rate (and a histogram's share) by Wilson's score interval; a
mean and a paired difference by the normal approximation (mean ± 1.96 standard errors); a ratio
of two sums by the delta method (the linearised variance of sum(a) / sum(b)).
"""
from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

Z95 = 1.959963984540054
METHODS = "Wilson for rates and shares, normal approximation for means and differences, delta method for ratios"


def wilson(k: float, n: float) -> tuple[float, float]:
    """95% Wilson interval of a rate k/n (good also near 0 and 1)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + Z95 * Z95 / n
    mid = (p + Z95 * Z95 / (2 * n)) / den
    margin = Z95 * math.sqrt(p * (1 - p) / n + Z95 * Z95 / (4 * n * n)) / den
    return max(0.0, mid - margin), min(1.0, mid + margin)


def mean_ci(n: float, s: float, ss: float) -> tuple[float, float, float]:
    """Mean and its 95% interval (normal approximation) from count, sum and sum of squares."""
    if n <= 0:
        return 0.0, 0.0, 0.0
    m = s / n
    var = (ss - n * m * m) / (n - 1) if n > 1 else 0.0
    margin = Z95 * math.sqrt(max(0.0, var) / n)
    return m, m - margin, m + margin


def ratio_ci(n: float, sa: float, saa: float, sb: float, sbb: float, sab: float) -> tuple[float, float, float, float]:
    """sum(a) / sum(b), its 95% interval by the delta method, and its standard error.

    With R = mean(a) / mean(b), Var(R) ~ Var(a - R b) / (n mean(b)^2), the variance taken over
    the readings (each reading is one pair a, b)."""
    if n <= 0 or sb == 0:
        return 0.0, 0.0, 0.0, 0.0
    r = sa / sb
    mb = sb / n
    if n > 1:
        # sum over readings of (a - r b)^2, less its mean part (which is 0 by the choice of r)
        q = saa - 2 * r * sab + r * r * sbb
        var = max(0.0, q / (n - 1)) / (n * mb * mb)
    else:
        var = 0.0
    se = math.sqrt(var)
    return r, r - Z95 * se, r + Z95 * se, se


def _json_key(k: Any) -> Any:
    if isinstance(k, (bool, int, str)):
        return k
    if isinstance(k, Fraction):
        return str(k)
    return str(k)


def _order(k: Any) -> tuple[Any, ...]:
    """Groups in a stable order: numbers by value, then text."""
    if isinstance(k, (int, float, Fraction)) and not isinstance(k, bool):
        return (0, float(k), "")
    return (1, 0.0, str(k))


def _z(row: dict[Any, Any], expect: Fraction, rate: bool) -> None:
    """Add expected, z and the |z| > 3 flag to a row (a rate's standard error under the expected value)."""
    p0 = float(expect)
    n = row["readings"]
    if rate and 0 < p0 < 1:
        se = math.sqrt(p0 * (1 - p0) / n) if n else 0.0
    else:
        se = row.get("se", (row["high"] - row["low"]) / (2 * Z95))
    z = (row["value"] - p0) / se if se > 0 else (0.0 if row["value"] == p0 else math.inf)
    row.update({"expected": p0, "z": z if math.isfinite(z) else None, "flag": not math.isfinite(z) or abs(z) > 3})


def _row(kind: str, slot: list[Any], seat: Any, total: float | None = None) -> dict[Any, Any]:
    """One row of figures from a slot of sums."""
    n = slot[0]
    if kind == "ratio":
        r, lo, hi, se = ratio_ci(*slot[:6])
        return {"seat": seat, "readings": int(n), "value": r, "low": lo, "high": hi, "se": se,
                "numerator": slot[1], "denominator": slot[3]}
    if kind == "rate":
        lo, hi = wilson(slot[1], n)
        return {"seat": seat, "readings": int(n), "count": int(slot[1]), "value": slot[1] / n if n else 0.0,
                "low": lo, "high": hi}
    if kind == "histogram":  # the share of all the statistic's readings
        lo, hi = wilson(slot[1], total or 0)
        return {"seat": seat, "readings": int(total or 0), "count": int(slot[1]),
                "value": slot[1] / total if total else 0.0, "low": lo, "high": hi}
    m, lo, hi = mean_ci(n, slot[1], slot[2])
    return {"seat": seat, "readings": int(n), "value": m, "low": lo, "high": hi}


def summarise(stats: list[Any], acc: dict[Any, Any]) -> list[dict[Any, Any]]:
    """Each statistic's figures per slot (and per group with `by`): readings, value, 95% interval,
    and z when an exact value is expected (JSON-ready)."""
    out = []
    for st in stats:
        if st.diff is not None:
            kind = "difference"
        else:
            kind = {"count": "rate", "mean": "mean", "ratio": "ratio"}[st.kind]
        width = 6 if st.kind == "ratio" else 3
        slots = acc.get(st.name) or [[0] + [0.0] * (width - 1)]
        seat_of = (lambda i: i) if st.per_seat else (lambda i: None)
        rows = [_row(kind, slot, seat_of(i)) for i, slot in enumerate(slots)]
        if st.expect is not None:
            for r in rows:
                _z(r, st.expect, kind == "rate")
        item = {"name": st.name, "kind": kind, "where": st.where, "description": st.description,
                "per_seat": st.per_seat, "rows": rows}
        if st.diff is not None:
            item["difference_from"] = st.diff_text
        if st.by is not None:
            gkind = "histogram" if st.kind == "count" else kind
            keys = sorted((k[1] for k in acc if isinstance(k, tuple) and k[0] == st.name), key=_order)
            groups = []
            for key in keys:
                for i, slot in enumerate(acc[(st.name, key)]):
                    row = _row(gkind, slot, seat_of(i), total=slots[i][0])
                    row["group"] = _json_key(key)
                    groups.append(row)
            item.update({"by": st.by_text, "group_kind": gkind, "groups": groups})
        for r in rows + item.get("groups", []):
            r.pop("se", None)
        out.append(item)
    return out


def _fmt(kind: str, r: dict[Any, Any]) -> str:
    """The figures of one row, aligned."""
    if kind in ("rate", "histogram"):
        base = f"{r['value']:.5f}  [{r['low']:.5f}, {r['high']:.5f}]"
    else:  # may be negative: signed, so the rows line up
        base = f"{r['value']:+.5f}  [{r['low']:+.5f}, {r['high']:+.5f}]"
    if kind in ("rate", "histogram"):
        tail = f"{r['count']} of {r['readings']}"
    elif kind == "ratio":
        tail = f"{r['numerator']:g} / {r['denominator']:g} over {r['readings']} readings"
    else:
        tail = f"{r['readings']} readings"
    z = ""
    if "z" in r:
        zs = "inf" if r["z"] is None else f"{r['z']:+.2f}"
        z = f"  expected {r['expected']:.5f}, z = {zs}" + ("  <- |z| > 3" if r["flag"] else "")
    return f"{base}  {tail}{z}"


def report(summary: list[dict[Any, Any]]) -> str:
    """The statistics as a readable table, with the interval methods named."""
    from rulekit.core.inert import inert
    lines = [f"statistics (95% intervals: {METHODS}):"]
    for s in summary:
        what = {"difference": f"paired difference (each seat minus seat {s.get('difference_from', '')})"}.get(s["kind"], s["kind"])
        lines.append(f"  {inert(s['name'])}: {inert(what)} {s['where']}"
                     + (f" - {inert(s['description'])}" if s["description"] else ""))
        for r in s["rows"]:
            who = f"seat {r['seat']}" if r["seat"] is not None else "table"
            lines.append(f"    {who:8} {_fmt(s['kind'], r)}")
        if "groups" in s:
            label = "share of the readings" if s["group_kind"] == "histogram" else s["group_kind"]
            lines.append(f"    by {inert(s['by'])} ({label}):")
            for r in s["groups"]:
                who = (f"seat {r['seat']}: " if r["seat"] is not None else "") + inert(str(r["group"]))
                lines.append(f"      {who:10} {_fmt(s['group_kind'], r)}")
    return "\n".join(lines)

"""Print, for each shipped variant, its longest expression and its most repeated sub-expression.

    python benchmarks/expr_report.py [--max-length 200] [--max-repeats 2]

Targets (issue 16): no expression longer than --max-length characters, no sub-expression
written out more than --max-repeats times in one file. Sub-expressions counted are calls,
operations and conditionals of at least 25 characters, compared by structure (spacing aside).
"""
from __future__ import annotations

import argparse
import os
import sys
from collections import Counter

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from rulekit.lang.expr import ast  # noqa: E402
from rulekit.lang.expr.codegen import canon  # noqa: E402
from rulekit.lang.expr.parser import ExprSyntaxError, parse  # noqa: E402

PROSE = {"meta", "rules", "names", "description", "text", "notes", "summary", "prompt", "values", "source",
         "title", "url", "name", "id", "sources", "why", "say", "record", "end_round", "redeal"}
MIN_SUB = 25


def expressions(node, key: str = "") -> list[str]:
    """Every string of a variant file that stands as an expression (prose keys skipped)."""
    if key in PROSE:
        return []
    if isinstance(node, dict):
        return [e for k, v in node.items() for e in expressions(v, str(k))]
    if isinstance(node, list):
        return [e for v in node for e in expressions(v, key)]
    if isinstance(node, str):
        text = " ".join(node.split())
        try:
            tree = parse(text)
        except ExprSyntaxError:
            return []
        return [] if isinstance(tree, (ast.Name, ast.Const)) else [text]
    return []


def report(path: str) -> tuple[str, str, int, str]:
    """(longest expression, its length) and (most repeated sub-expression, its count) of a file."""
    with open(path, encoding="utf-8") as f:
        data = yaml.safe_load(f)
    exprs = expressions(data)
    longest = max(exprs, key=len, default="")
    counts: Counter = Counter()
    texts: dict[str, str] = {}
    for e in exprs:
        for node in ast.walk(parse(e)):
            if isinstance(node, (ast.Call, ast.Binary, ast.Cond, ast.Let)) and node.end - node.start >= MIN_SUB:
                k = canon(node)
                counts[k] += 1
                texts.setdefault(k, e[node.start:node.end])
    top, n = counts.most_common(1)[0] if counts else ("", 0)
    return longest, len(longest), texts.get(top, ""), n


def variant_files() -> list[str]:
    out = []
    for root, _d, files in os.walk(os.path.join(ROOT, "variants")):
        out += [os.path.join(root, f) for f in files if f.endswith(".yaml")]
    return sorted(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-length", type=int, default=200)
    ap.add_argument("--max-repeats", type=int, default=2)
    a = ap.parse_args()
    bad = 0
    for path in variant_files():
        longest, length, sub, n = report(path)
        rel = os.path.relpath(path, ROOT)
        ok = length <= a.max_length and n <= a.max_repeats
        bad += not ok
        print(f"{rel}: longest {length} chars; most repeated x{n}: {sub[:90]}{' ...' if len(sub) > 90 else ''}"
              f"{'' if ok else '   <- over target'}")
        print(f"    longest: {longest[:110]}{' ...' if len(longest) > 110 else ''}")
    print(f"{bad} of {len(variant_files())} variants over the targets "
          f"(length <= {a.max_length}, repeats <= {a.max_repeats})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

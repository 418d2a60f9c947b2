"""Cut the site's Japanese font afresh: `python -m rulekit.website.fontmake [SOURCE_FONT]` from the project's root.

It builds the pages (without simulations), collects every Japanese character they and docs/*.md use, adds
all kana, and writes docs/fonts/rulekit-ja.woff2 from IPA P Gothic (or SOURCE_FONT, or RULEKIT_SITE_FONT),
renamed as the IPA Font License asks. See rulekit/website/fonts.py for how the build uses it.
"""
from __future__ import annotations

import os
import sys

from rulekit.website import build_site
from rulekit.website.fonts import KANA, SHIPPED, font_chars, source_font, subset_font, used_chars


def regenerate(root_dir: str, source: str | None = None) -> tuple[str, int, int]:
    """Cut docs/fonts/rulekit-ja.woff2 afresh from the source font: every Japanese character of the pages
    (built without simulations) and of docs/*.md, and all kana. Returns (path, characters, bytes)."""
    source = source or source_font()
    if source is None:
        raise SystemExit("no source font: apt-get install fonts-ipafont-gothic, or set RULEKIT_SITE_FONT "
                         "to a Japanese font whose licence allows a subset to be shipped")
    files, _site = build_site(root_dir, rounds=0, cache_dir="")
    chars = (set(used_chars(files, os.path.join(root_dir, "docs"))) | KANA) & font_chars(source)
    data = subset_font(source, chars, "woff2", rename=True)
    path = os.path.join(root_dir, SHIPPED)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(data)
    return path, len(chars), len(data)


if __name__ == "__main__":  # python -m rulekit.website.fontmake [SOURCE_FONT]
    root = os.getcwd()
    out, n, size = regenerate(root, sys.argv[1] if len(sys.argv) > 1 else None)
    print(f"wrote {os.path.relpath(out, root)}: {n} characters, {size} bytes")

"""The Japanese glyphs of the site, shipped with the project so that kanji and card faces render on any device.

The project ships one small font, docs/fonts/rulekit-ja.woff2: the glyphs the pages use (and all kana), cut
with fontTools from IPA P Gothic (Debian's fonts-ipafont-gothic) and renamed, as the IPA Font License asks of
a derived font; the licence sits beside it. The build needs no system font: it declares the shipped font in
stylesheets/rulekit-ja.css, and each card picture that shows Japanese carries its own few glyphs, cut from
the shipped font, inside the SVG (a picture shown with <img> cannot load a font from the page). When a page
uses a Japanese character the shipped font lacks, the build warns (so a strict build fails) and names the
characters; regenerate the font with `python -m rulekit.website.fontmake` (needs the IPA font, or the file
named by RULEKIT_SITE_FONT).
"""
from __future__ import annotations

import base64
import io
import logging
import os
import re

log = logging.getLogger("mkdocs.plugins.rulekit.fonts")

CANDIDATES = ("/usr/share/fonts/opentype/ipafont-gothic/ipagp.ttf",
              "/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf",
              "/usr/share/fonts/truetype/fonts-japanese-gothic.ttf")
FAMILY = "rulekit-ja"
SHIPPED = os.path.join("docs", "fonts", "rulekit-ja.woff2")  # under the project's root
FONT_PATH = "fonts/rulekit-ja.woff2"  # under the site
CSS_PATH = "stylesheets/rulekit-ja.css"
REGENERATE = "python -m rulekit.website.fontmake"
# kana, CJK symbols and punctuation, kanji, full-width forms
_JA = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")
# always in the shipped font, so that a new name in kana needs no new font
KANA = {chr(c) for c in range(0x3041, 0x3097)} | {chr(c) for c in range(0x30a1, 0x30fb)} | set("ー・「」『』、。々〜")


def japanese_chars(text: str) -> set[str]:
    """The Japanese characters of a text."""
    return set(_JA.findall(text))


def source_font() -> str | None:
    """The system font the shipped font is cut from (only when regenerating it), or None."""
    env = os.environ.get("RULEKIT_SITE_FONT")
    for p in ([env] if env else []) + list(CANDIDATES):
        if p and os.path.isfile(p):
            return p
    return None


def _rename(tt) -> None:
    """Give a cut font its own name: a derived font may not carry the original's (IPA Font License, 3.1(4))."""
    name = tt["name"]
    for rec in list(name.names):
        if rec.nameID in (1, 3, 4, 6, 16, 17, 18, 21, 22):
            name.removeNames(nameID=rec.nameID)
    for nid, text in ((1, FAMILY), (2, "Regular"), (3, f"{FAMILY} (subset)"), (4, FAMILY), (6, FAMILY)):
        name.setName(text, nid, 3, 1, 0x409)
        name.setName(text, nid, 1, 0, 0)


def subset_font(font: bytes | str, chars: set[str], flavor: str = "woff", rename: bool = False) -> bytes:
    """A font (WOFF or WOFF2) with only these characters' glyphs (font: a path or font bytes)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont
    # read lazily (only the tables the subsetter asks for: several times faster); the same bytes on every build
    tt = TTFont(io.BytesIO(font) if isinstance(font, bytes) else font, recalcTimestamp=False)
    opts = subset.Options()
    opts.flavor = flavor
    opts.layout_features = ["*"]
    opts.name_IDs = ["*"]
    opts.notdef_outline = True
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=sorted(ord(c) for c in chars))
    sub.subset(tt)
    if rename:
        _rename(tt)
    out = io.BytesIO()
    tt.flavor = flavor
    tt.save(out)
    return out.getvalue()


def subset_woff(font: bytes | str, chars: set[str]) -> bytes:
    """A WOFF font with only these characters' glyphs (font: a path or font bytes)."""
    return subset_font(font, chars, "woff")


def font_chars(font: bytes | str) -> set[str]:
    """The characters a font has glyphs for."""
    from fontTools.ttLib import TTFont
    tt = TTFont(io.BytesIO(font) if isinstance(font, bytes) else font, lazy=True)
    return {chr(c) for c in tt.getBestCmap()}


def _svg_with_font(svg: str, woff: bytes) -> str:
    face = (f'<style>@font-face{{font-family:"{FAMILY}";src:url(data:font/woff;base64,'
            f'{base64.b64encode(woff).decode("ascii")}) format("woff")}}</style>')
    svg = re.sub(r"(<svg\b[^>]*>)", lambda m: m.group(1) + face, svg, count=1)
    return svg.replace('font-family="', f'font-family="\'{FAMILY}\',')


def used_chars(files: dict[str, str | bytes], docs: str) -> dict[str, set[str]]:
    """Japanese characters -> the pages (generated or hand-written, paths under docs) that use them."""
    where: dict[str, set[str]] = {}
    texts = [(p, t) for p, t in files.items() if isinstance(t, str)]
    for root, _d, names in os.walk(docs):  # the hand-written pages, too
        for n in names:
            if n.endswith(".md"):
                p = os.path.join(root, n)
                with open(p, encoding="utf-8") as fh:
                    texts.append((os.path.relpath(p, docs), fh.read()))
    for p, t in texts:
        for c in japanese_chars(t):
            where.setdefault(c, set()).add(p)
    return where


def add_fonts(files: dict[str, str | bytes], root_dir: str | None = None) -> int:
    """Declare the shipped font and give the card pictures their own glyphs; warn (a strict build fails) on
    a character the shipped font lacks. Returns the number of Japanese characters the pages use and the font has."""
    root_dir = root_dir or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    shipped = os.path.join(root_dir, SHIPPED)
    files[CSS_PATH] = "/* no Japanese web font in this build: the reader's fonts are used */\n"
    where = used_chars(files, os.path.join(root_dir, "docs"))
    if not where:
        return 0
    try:
        import fontTools  # noqa: F401  (the docs extra brings it, and brotli for WOFF2)
        import brotli  # noqa: F401
    except ImportError:
        log.warning("rulekit: fontTools and brotli are needed to ship the Japanese font "
                    "(pip install 'rulekit[docs]'); the site ships none")
        return 0
    if not os.path.isfile(shipped):
        log.warning("rulekit: the Japanese font %s is missing; make it with `%s`", SHIPPED, REGENERATE)
        return 0
    with open(shipped, "rb") as fh:
        whole = fh.read()
    have = font_chars(whole)
    missing = sorted(set(where) - have)
    if missing:
        pages = sorted({p for c in missing for p in where[c]})
        log.warning("rulekit: %d Japanese character(s) used by the pages are not in %s: %s (in %s); "
                    "regenerate the font with `%s`", len(missing), SHIPPED, "".join(missing[:40]),
                    ", ".join(pages[:8]) + (" ..." if len(pages) > 8 else ""), REGENERATE)
    files[CSS_PATH] = (f'@font-face {{ font-family: "{FAMILY}"; src: url("../{FONT_PATH}") format("woff2"); '
                       "font-display: swap; }\n"
                       f'.md-typeset, .md-nav, .md-header, .md-search {{ font-family: var(--md-text-font-family), '
                       f'"{FAMILY}"; }}\n'
                       f'.md-typeset code, .md-typeset pre, .md-typeset kbd {{ font-family: '
                       f'var(--md-code-font-family), "{FAMILY}"; }}\n')
    from fontTools.ttLib import TTFont
    tt = TTFont(io.BytesIO(whole), recalcTimestamp=False)
    tt.flavor = None  # the WOFF2 unpacked once: each card's few glyphs are cut from the plain font
    sfnt = io.BytesIO()
    tt.save(sfnt)
    plain = sfnt.getvalue()
    small: dict[frozenset, bytes] = {}
    for p, text in list(files.items()):
        if p.endswith(".svg") and isinstance(text, str):
            need = frozenset(japanese_chars(text) & have)
            if need:
                if need not in small:
                    small[need] = subset_woff(plain, set(need))
                files[p] = _svg_with_font(text, small[need])
    return len(set(where) & have)

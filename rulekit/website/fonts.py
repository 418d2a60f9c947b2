"""A web font for the Japanese glyphs the site uses, so that kanji and card faces render on any device.

The glyphs come from a Japanese font of the system (Debian's fonts-ipafont-gothic by default, or
the file named by RULEKIT_SITE_FONT), cut down at build time with fontTools to the characters the
pages and card pictures use. The pages get one small WOFF font (fonts/rulekit-ja.woff, declared in
stylesheets/rulekit-ja.css); each card picture that shows Japanese carries its own few glyphs
inside the SVG, since a picture shown with <img> cannot load a font from the page. Without the
font file or fontTools the site is built as before, with the reader's own fonts.
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
FONT_PATH = "fonts/rulekit-ja.woff"
CSS_PATH = "stylesheets/rulekit-ja.css"
# kana, CJK symbols and punctuation, kanji, full-width forms
_JA = re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]")


def japanese_chars(text: str) -> set[str]:
    """The Japanese characters of a text."""
    return set(_JA.findall(text))


def source_font() -> str | None:
    """The system font the glyphs are taken from, or None."""
    env = os.environ.get("RULEKIT_SITE_FONT")
    for p in ([env] if env else []) + list(CANDIDATES):
        if p and os.path.isfile(p):
            return p
    return None


def subset_woff(font: bytes | str, chars: set[str]) -> bytes:
    """A WOFF font with only these characters' glyphs (font: a path or font bytes)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont
    tt = TTFont(io.BytesIO(font) if isinstance(font, bytes) else font, lazy=False,
                recalcTimestamp=False)  # the same bytes on every build
    opts = subset.Options()
    opts.flavor = "woff"
    opts.layout_features = ["*"]
    opts.name_IDs = ["*"]
    opts.notdef_outline = True
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=sorted(ord(c) for c in chars))
    sub.subset(tt)
    out = io.BytesIO()
    tt.flavor = "woff"
    tt.save(out)
    return out.getvalue()


def _svg_with_font(svg: str, woff: bytes) -> str:
    face = (f'<style>@font-face{{font-family:"{FAMILY}";src:url(data:font/woff;base64,'
            f'{base64.b64encode(woff).decode("ascii")}) format("woff")}}</style>')
    svg = re.sub(r"(<svg\b[^>]*>)", lambda m: m.group(1) + face, svg, count=1)
    return svg.replace('font-family="', f'font-family="\'{FAMILY}\',')


def add_fonts(files: dict[str, str | bytes]) -> int:
    """Add the page font, its stylesheet and the card pictures' own glyphs to the generated files;
    returns the number of Japanese characters covered (0 when no font or no fontTools)."""
    files[CSS_PATH] = "/* no Japanese web font in this build: the reader's fonts are used */\n"
    path = source_font()
    try:
        import fontTools  # noqa: F401  (the docs extra brings it)
    except ImportError:
        log.info("rulekit: fontTools is not installed; the site ships no Japanese font")
        return 0
    if path is None:
        log.info("rulekit: no Japanese font found (apt-get install fonts-ipafont-gothic); the site ships none")
        return 0
    here = os.path.dirname(os.path.abspath(__file__))
    docs = os.path.join(os.path.dirname(os.path.dirname(here)), "docs")
    chars: set[str] = set()
    for text in files.values():
        if isinstance(text, str):
            chars |= japanese_chars(text)
    for root, _d, names in os.walk(docs):  # the hand-written pages, too
        for n in names:
            if n.endswith(".md"):
                with open(os.path.join(root, n), encoding="utf-8") as fh:
                    chars |= japanese_chars(fh.read())
    if not chars:
        return 0
    whole = subset_woff(path, chars)
    files[FONT_PATH] = whole
    files[CSS_PATH] = (f'@font-face {{ font-family: "{FAMILY}"; src: url("../{FONT_PATH}") format("woff"); '
                       "font-display: swap; }\n"
                       f'.md-typeset, .md-nav, .md-header, .md-search {{ font-family: var(--md-text-font-family), '
                       f'"{FAMILY}"; }}\n')
    small: dict[frozenset, bytes] = {}
    for p, text in list(files.items()):
        if p.endswith(".svg") and isinstance(text, str):
            need = frozenset(japanese_chars(text))
            if need:
                if need not in small:
                    small[need] = subset_woff(whole, set(need))
                files[p] = _svg_with_font(text, small[need])
    return len(chars)

"""Where a rule comes from, for readers: public sources linked, private notes kept out of sight."""
from __future__ import annotations

import re
from typing import Any

from rulekit.website.util import h, squash

# "(RULES §5.7 game.rounds)" and bare "RULES §2.4": references into the authors' working
# notes, which no reader can follow
_PAREN_REF = re.compile(r"\s*\(\s*RULES\s*§[^)]*\)")
_BARE_REF = re.compile(r"RULES\s*§\s*[\d.]*\d(?:\s+[A-Za-z_]+\.[A-Za-z_]+)?")


def public_text(text: Any) -> str:
    """A source note without references to private notes (RULES §...)."""
    s = _PAREN_REF.sub("", squash(text))
    s = _BARE_REF.sub("a summary of the sources", s)
    return s.strip(" ;,")


def _phrases(title: str) -> list[str]:
    """How a note may name a source: 'fudawiki: Some game (a rule)' -> 'fudawiki Some game'."""
    t = re.sub(r"\s*\([^)]*\)", "", title).strip()
    out = [t, t.replace(":", "")]
    return [p for p in dict.fromkeys(out) if len(p) > 3]


def source_html(text: Any, sources: list) -> str:
    """A source note as HTML: the variant's sources (meta.sources) it names become links.

    A note that names none of them ends with a link to the page's list of sources.
    """
    s = public_text(text)
    found: list[tuple[int, int, str]] = []
    for src in sources:
        if not isinstance(src, dict) or not src.get("url"):
            continue
        for p in _phrases(str(src.get("title") or "")):
            m = re.search(re.escape(p), s, re.IGNORECASE)
            if m and not any(a < m.end() and m.start() < b for a, b, _ in found):
                found.append((m.start(), m.end(), str(src["url"])))
                break
    # a note that names only the site ("fudawiki: ...", "gamefarm.jp: ...") links the first source there
    for src in sources:
        title = str(src.get("title") or "") if isinstance(src, dict) else ""
        site = title.split(":", 1)[0].strip() if ":" in title and src.get("url") else ""
        if len(site) < 4:
            continue
        for m in re.finditer(rf"(?<![\w.]){re.escape(site)}(?![\w])", s, re.IGNORECASE):
            if not any(a < m.end() and m.start() < b for a, b, _ in found):
                found.append((m.start(), m.end(), str(src["url"])))
    found.sort()
    out, at = [], 0
    for a, b, url in found:
        out.append(h(s[at:a]) + f'<a href="{h(url)}">{h(s[a:b])}</a>')
        at = b
    out.append(h(s[at:]))
    html = "".join(out)
    if not found:
        html += ' (see <a href="#sources">Sources</a>)' if html else 'see <a href="#sources">Sources</a>'
    return html

"""Small helpers shared by the page generators: escaping, code spans, relative links."""
from __future__ import annotations

import html
import re
from typing import Any

FAMILY_TITLES = {"banking": "Banking games", "fishing": "Fishing games", "shedding": "Shedding games",
                 "matching": "Set-matching games", "set-matching": "Set-matching games"}
FAMILY_ORDER = ["banking", "fishing", "shedding", "matching", "set-matching"]


def family_title(family: str) -> str:
    return FAMILY_TITLES.get(family, family.replace("-", " ").capitalize() + " games")


def family_slug(family: str) -> str:
    """One page per family; 'matching' and 'set-matching' share the set-matching page."""
    return "set-matching" if family in ("matching", "set-matching") else family


def family_key(family: str) -> tuple:
    f = family_slug(family)
    return (FAMILY_ORDER.index(f) if f in FAMILY_ORDER else len(FAMILY_ORDER), f)


def h(text: Any) -> str:
    """HTML-escape any value."""
    return html.escape(str(text), quote=True)


def squash(text: Any) -> str:
    """An expression or a folded YAML text on one line."""
    return " ".join(str(text).split())


def code(expr: Any) -> str:
    """An expression as an HTML code span."""
    if isinstance(expr, bool):
        expr = "true" if expr else "false"
    return f"<code>{h(squash(expr))}</code>"


_MD_SPECIAL = re.compile(r"([\\`*_\[\]|#])")


def md(text: Any) -> str:
    """Plain text made safe for Markdown (no emphasis, links or table breaks by accident)."""
    s = squash(text)
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", s)


def mdcode(expr: Any) -> str:
    """An expression as a Markdown code span, also inside a table cell.

    Python-Markdown's tables do not split cells at a pipe inside a code span, and an entity
    such as &#124; would show literally there, so the text goes in as it is.
    """
    s = squash("true" if expr is True else "false" if expr is False else expr)
    tick = "``" if "`" in s else "`"
    pad = " " if s.startswith("`") or s.endswith("`") else ""
    return f"{tick}{pad}{s}{pad}{tick}"


def slug(text: str) -> str:
    s = re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")
    return s or "x"


def root_of(page: str) -> str:
    """The relative path from a generated page (its path under docs) to the site root.

    Pages are built with directory URLs: `a/b.md` is served as `a/b/`, `a/index.md` as `a/`.
    """
    parts = page.split("/")
    depth = len(parts) - 1
    if parts[-1] != "index.md":
        depth += 1
    return "../" * depth


def plural(n: Any, word: str, words: str | None = None) -> str:
    try:
        one = int(n) == 1
    except (TypeError, ValueError):
        one = False
    return f"{n} {word if one else (words or word + 's')}"


def names_line(names: dict) -> str:
    """Japanese name, romaji and English gloss, as they are known."""
    parts = []
    if names.get("ja"):
        parts.append(f"<span lang=\"ja\">{h(names['ja'])}</span>")
    if names.get("romaji"):
        parts.append(f"<em>{h(names['romaji'])}</em>")
    if names.get("gloss"):
        parts.append(f"“{h(names['gloss'])}”")
    return " · ".join(parts)


_TICKS = re.compile(r"(`[^`\n]+`)")


def md_rich(text: Any) -> str:
    """Like md(), but `backticked` parts stay code spans."""
    parts = _TICKS.split(squash(text))
    return "".join(mdcode(p[1:-1]) if p.startswith("`") and p.endswith("`") and len(p) > 1 else md(p)
                   for p in parts)


def h_rich(text: Any) -> str:
    """Like h(), but `backticked` parts become <code>."""
    parts = _TICKS.split(squash(text))
    return "".join(code(p[1:-1]) if p.startswith("`") and p.endswith("`") and len(p) > 1 else h(p) for p in parts)


def cli_note(name: str | None, spellings: list[str], switch: str = "-o ") -> str:
    """The small folded note that gives a house rule's command-line spelling (the only identifiers shown)."""
    codes = " ".join(f"<code>{h(switch + x)}</code>" for x in spellings)
    return f'<details class="rk-cli"><summary>For the command line</summary><p>{codes}</p></details>'


def html_block(html_text: str) -> str:
    """A raw HTML block for Markdown: its own paragraph, no blank lines inside."""
    return "\n" + "".join(x for x in html_text.splitlines()) + "\n"


def html_table(head: list[str], rows: list[list[str]], cls: str = "") -> str:
    """An HTML table; each cell carries its column's heading (data-label) for the stacked phone layout."""
    th = "".join(f"<th>{c}</th>" for c in head)
    labels = [h(re.sub(r"<[^>]+>", "", c)) for c in head]
    body = "".join("<tr>" + "".join(f'<td data-label="{labels[i] if i < len(labels) else ""}">{c}</td>'
                                    for i, c in enumerate(r)) + "</tr>" for r in rows)
    table = f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"
    # Material styles tables without a class: the class goes on a wrapper
    return f'<div class="rk-table {cls}">{table}</div>' if cls else table


# -- untrusted prose -------------------------------------------------------------------------------
# Rules files are contributed by strangers: their prose reaches a page as Markdown through this
# allow-list only. Paragraphs, lists, emphasis, code spans and links to web pages or to pages of
# this site survive; raw HTML, entities, attribute lists, snippet includes, images and links
# anywhere else become plain text.
_CODE_SPAN = re.compile(r"(`+)(.+?)(?<!`)\1(?!`)", re.S)
_LINK = re.compile(r"(!?)\[([^\]\n]*)\]\(\s*<?([^)\s>]*)>?(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
_SAFE_URL = re.compile(r"^(?:https?://[^\s<>\"'`\\]+|#[\w-]+|[A-Za-z0-9_.-][A-Za-z0-9_./-]*(?:#[\w-]+)?)$")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u2028\u2029]")


def safe_url(url: Any) -> str:
    """A web address or a relative link that cannot run anything; '' for anything else."""
    u = str(url).strip()
    if not _SAFE_URL.match(u) or ":" in u.split("/", 1)[0] and not u.lower().startswith(("http://", "https://")):
        return ""
    return u.replace("(", "%28").replace(")", "%29")


def _plain(s: str) -> str:
    """Text with no raw HTML, entities, autolinks, snippets, reference links or attribute lists."""
    s = s.replace("&", "&amp;").replace("<", "&lt;")
    return re.sub(r"([\[\]{}])", r"\\\1", s)


def _inert(s: str) -> str:
    """Markdown outside code spans with no way to produce markup, attributes or unsafe links."""
    out, pos = [], 0
    for m in _LINK.finditer(s):
        bang, label, url = m.group(1), m.group(2), m.group(3)
        u = "" if bang else safe_url(url)
        out += [_plain(s[pos:m.start()]), f"[{_plain(label)}]({u})" if u else _plain(label)]
        pos = m.end()
    out.append(_plain(s[pos:]))
    return "".join(out)


def safe_md(text: Any) -> str:
    """Prose from a rules file as inert Markdown (see above); code spans are kept as written."""
    s = _CONTROL.sub(" ", str(text)).strip()
    out, pos = [], 0
    for m in _CODE_SPAN.finditer(s):
        out += [_inert(s[pos:m.start()]), m.group(0)]
        pos = m.end()
    out.append(_inert(s[pos:]))
    return "".join(out)


# units that count something other than what is won and paid
_NOT_MONEY = {"round", "rounds", "card", "cards", "player", "players", "turn", "turns", "month", "months", "seat",
              "seats", "time", "times", "game", "games", "hand", "hands"}


def money_words(game: Any) -> tuple[str, str]:
    """What a game is won and paid in, as (one, many): the unit its whole-number options are said in most
    often ('stone', 'stones'), units of rounds, cards and the like aside; ('chip', 'chips') when none says."""
    counts: dict[tuple[str, str], int] = {}
    for o in getattr(game.variant, "options", {}).values():
        unit = tuple(getattr(o, "unit", ("", "")) or ("", ""))
        if len(unit) == 2 and unit[1] and unit[1].lower() not in _NOT_MONEY:
            counts[unit] = counts.get(unit, 0) + 1  # dicts keep the file's order: the first wins a tie
    if not counts:
        return ("chip", "chips")
    return max(counts, key=lambda u: counts[u])


_TITLE = __import__("re").compile(r'<img\b[^>]*\btitle="([^"]*)"')


def legend_for(pictures_html: str) -> str:
    """The words of these small card pictures (from their titles, escaped already), shown on tap or keyboard
    focus of the group they are in (stylesheets/rulekit.css): a legend that needs no hover. Hidden from
    screen readers, which read each picture's alt text (the same words)."""
    words = _TITLE.findall(pictures_html)
    return f'<span class="rk-legend" aria-hidden="true">{"; ".join(words)}</span>' if words else ""

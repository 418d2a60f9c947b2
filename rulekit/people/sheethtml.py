"""A rules sheet as one self-contained HTML file: inline styles, no scripts, nothing fetched.

Made to be printed or sent: a print stylesheet sets A4/Letter-safe margins and a compact type,
keeps headings with their text, and shows every house rule highlighted with its footnote. All
text from files is escaped (a house file cannot put live markup in the sheet).
"""
from __future__ import annotations

import html
import re

from rulekit.lang.rulestext import RulesDoc
from rulekit.people.sheet import Sheet, footnoted

#: marks of the changed words survive escaping as these private-use characters
_HL_OPEN, _HL_MID, _HL_CLOSE = "\ue010", "\ue011", "\ue012"
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_EM = re.compile(r"(?<![\w*])\*([^*\n]+)\*(?![\w*])")

CSS = """
:root { --ink: #1d1d1f; --soft: #5a5a60; --hl: #fff0a8; --line: #d9d9de; }
* { box-sizing: border-box; }
body { font: 10.5pt/1.38 Georgia, "Times New Roman", serif; color: var(--ink); margin: 2em auto;
       max-width: 46em; padding: 0 1em; }
h1 { font-size: 17pt; margin: 0 0 .2em; }
h2 { font-size: 12pt; margin: .9em 0 .3em; border-bottom: 1px solid var(--line);
     break-after: avoid; page-break-after: avoid; }
p, li { margin: .25em 0; }
ol, ul { margin: .2em 0 .4em; padding-left: 1.6em; }
.house { color: var(--soft); margin: .2em 0 .6em; }
.summary { border: 1.5px solid #b9a33a; background: #fffbe6; padding: .4em .8em; margin: .6em 0; }
.summary h2 { border: 0; margin-top: .2em; }
mark { background: var(--hl); padding: 0 .1em; }
sup.fn { font-size: 7pt; color: #7a6500; font-weight: bold; }
.notes { font-size: 8.5pt; color: var(--soft); border-top: 1px solid var(--line); margin-top: 1em; }
.effects { font: 8pt/1.25 "DejaVu Sans Mono", Menlo, monospace; white-space: pre-wrap; }
@page { size: auto; margin: 12mm 13mm; }
@media print {
  body { font-size: 9pt; line-height: 1.28; margin: 0; max-width: none; padding: 0; }
  h1 { font-size: 14pt; }
  h2 { font-size: 10.5pt; margin-top: .6em; }
  mark { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .summary { -webkit-print-color-adjust: exact; print-color-adjust: exact; break-inside: avoid; }
  li, p { orphans: 2; widows: 2; }
}
"""


def _inline(text: str) -> str:
    """Escaped text with **bold**, *italics* and the highlight marks made into HTML."""
    out = html.escape(text, quote=False)
    out = _BOLD.sub(r"<strong>\1</strong>", out)
    out = _EM.sub(r"<em>\1</em>", out)

    def hl(m: re.Match) -> str:
        n = m.group(1)
        return f'<mark title="house rule {n}">{m.group(2)}</mark><sup class="fn">{n}</sup>'
    return re.sub(_HL_OPEN + r"(\d+)" + _HL_MID + "([^" + _HL_CLOSE + "]*)" + _HL_CLOSE, hl, out)


def _paras(text: str) -> list[str]:
    return [f"<p>{_inline(' '.join(p.split()))}</p>" for p in text.split("\n\n") if p.strip()]


def _doc_html(doc: RulesDoc) -> list[str]:
    out: list[str] = []
    if doc.lead:
        out += _paras(doc.lead)
    for s in doc.sections:
        body: list[str] = []
        if s.text:
            body += _paras(s.text)
        if s.steps:
            body.append("<ol>")
            for st in s.steps:
                li = f"<li><strong>{_inline(st.title)}.</strong> {_inline(' '.join(st.text.split()))}"
                if st.choices:
                    li += "<ul>" + "".join(f"<li>{_inline(' '.join(t.split()))}</li>" for _c, t in st.choices) + "</ul>"
                body.append(li + "</li>")
            body.append("</ol>")
        if s.key == "hands" and any(y.text for y in doc.yaku):
            body.append("<ul>")
            body += [f"<li><strong>{_inline(y.name)}</strong>: {_inline(' '.join(y.text.split()))}</li>"
                     for y in doc.yaku if y.text]
            body.append("</ul>")
        if s.items:
            body.append("<ul>" + "".join(f"<li>{_inline(' '.join(i.split()))}</li>" for i in s.items) + "</ul>")
        if body:
            out += [f"<section><h2>{html.escape(s.title)}</h2>", *body, "</section>"]
    return out


def _source(where: str) -> str:
    """A change's layer in words without a file position: 'a preset', 'the command line'."""
    if where.startswith("preset"):
        return where
    if where.startswith("-o"):
        return "set on the command line"
    return "a house-rules file"


def sheet_html(sheet: Sheet) -> str:
    """The whole sheet as one HTML document (UTF-8, inline CSS, no external resource)."""
    doc = footnoted(sheet, lambda w, n: f"{_HL_OPEN}{n}{_HL_MID}{w}{_HL_CLOSE}" if n else w)
    e = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{e(sheet.title)}{' — ' + e(sheet.houses[0][0]) if sheet.houses else ''}</title>",
           f"<style>{CSS}</style>", "</head>", "<body>", f"<h1>{e(sheet.title)}</h1>"]
    for name, _file, note in sheet.houses:
        out.append(f'<p class="house"><strong>{e(name)}</strong>' + (f" — {e(note)}" if note else "") + "</p>")
    if sheet.changes:
        out += ['<div class="summary">', "<h2>Our house rules</h2>", "<ul>"]
        for i, c in enumerate(sheet.changes, 1):
            std = f" <em>Standard game:</em> {e(c.standard)}" if c.standard else ""
            out.append(f'<li><mark>{e(c.what)}</mark><sup class="fn">{i}</sup>{std}</li>')
        out += ["</ul>", "</div>"]
    out += _doc_html(doc)
    if sheet.effects:
        out += ["<section><h2>What the house rules do</h2>",
                f'<div class="effects">{e(chr(10).join(sheet.effects))}</div></section>']
    # the file:line of each change is for authors (the terminal sheet); the printed page names
    # only whose rule it is, when that is not the house already named at the top
    named = [(i, c) for i, c in enumerate(sheet.changes, 1) if not c.house or len(sheet.houses) != 1]
    if named:
        out.append('<div class="notes"><p>Whose rule each change is:</p><ol>')
        out += [f'<li value="{i}">' + e(c.house or _source(c.where)) + "</li>" for i, c in named]
        out.append("</ol></div>")
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


__all__ = ["sheet_html", "CSS"]

"""The "Your table" panel of a game page: the options as a small form that re-words the rules.

Everything is computed at build time: for every sentence of the rules text that names an
option, the sentence as the page shows it and the sentence for each other value of the option
(for a whole number, a template the script fills in). The panel's plain script
(docs/javascripts/yourtable.js, shipped with the site, no server, works offline) swaps the
sentences in place, marks them, and writes the matching house file to copy, download or print.
The panel is hidden until the script runs, so without JavaScript the page reads as before.
"""
from __future__ import annotations

import dataclasses
import json
import re
from typing import Any

from rulekit.lang.loader import Node
from rulekit.lang.model import OptionDef, Variant
from rulekit.lang.prose import Prose, placeholders, render, strip_marks
from rulekit.lang.prosecheck import TEXT_KEYS
from rulekit.lang.rulestext import yaku_values
from rulekit.website.util import h

#: stands for an int option's number in a template sentence (filled in by the script)
NUMBER = "\u2063N\u2063"  # the number with its unit ("20 chips")
BARE = "\u2063B\u2063"  # the number alone
_SENTENCE = re.compile(r"(?<=[.!?}])\s+(?=[A-Z{(])")
_MD = re.compile(r"\*\*|__|`")


def _texts(node: Node):
    v = node.value
    if isinstance(v, dict):
        for k, sub in v.items():
            if k in ("options", "presets", "meta", "policies", "functions", "vars", "zones", "decks", "stats"):
                continue
            if isinstance(sub.value, str) and k in TEXT_KEYS and k not in ("round_end", "game_end"):
                yield str(sub.value)
            elif isinstance(sub.value, (dict, list)):
                yield from _texts(sub)
    elif isinstance(v, list):
        for sub in v:
            yield from _texts(sub)


def _flat(text: str) -> str:
    return " ".join(_MD.sub("", strip_marks(text)).split())


def _values(o: OptionDef) -> list[Any]:
    if o.type == "choice":
        return [k for k, _ in o.values]
    if o.type == "bool":
        return [True, False]
    return []


def option_sentences(v: Variant) -> dict[str, list[dict]]:
    """{option: [{"page": the sentence as the page shows it, "alt": {value: sentence}, "n": template}]}.

    A sentence the page leaves out (the default says nothing) is placed by its neighbour: "after" the
    sentence before it in its paragraph, else "before" the one after it."""
    std = dataclasses.replace(Prose.page(v.options), yaku_values=yaku_values(v))
    out: dict[str, list[dict]] = {}
    seen: set[tuple[str, str]] = set()
    for text in _texts(v.tree):
        if "{" not in text:
            continue
        for para in re.split(r"\n\s*\n", text):
            sentences = _SENTENCE.split(" ".join(para.split()))
            shown = [_flat(render(x, std)) for x in sentences]
            for i, sentence in enumerate(sentences):
                for _kind, name, _o in placeholders(sentence):
                    o = v.options.get(name)
                    if o is None or (name, sentence) in seen:
                        continue
                    seen.add((name, sentence))
                    entry: dict[str, Any] = {"page": shown[i], "alt": {}}
                    if not shown[i]:
                        after = [x for x in shown[:i] if x]
                        before = [x for x in shown[i + 1:] if x]
                        if after:
                            entry["after"] = after[-1]
                        elif before:
                            entry["before"] = before[0]
                        else:
                            continue  # nowhere on the page to put it
                    for val in _values(o):
                        p = dataclasses.replace(std, values={**std.values, name: val}, alternatives=False)
                        entry["alt"][o.key(val)] = _flat(render(sentence, p))
                    if o.type == "int":
                        # the sentence for any number: the option's `says` for "*" (or the value's words)
                        p = dataclasses.replace(std, values={**std.values, name: 10 ** 9 + 7}, alternatives=False)
                        big = str(10 ** 9 + 7)
                        entry["n"] = _flat(render(sentence, p)).replace(f"{big} {o.unit[1]}".strip(), NUMBER) \
                            .replace(big, BARE)
                        for k, _s in o.says:  # numbers with a sentence of their own
                            if k.lstrip("-").isdigit():
                                q = dataclasses.replace(std, values={**std.values, name: int(k)}, alternatives=False)
                                entry["alt"][k] = _flat(render(sentence, q))
                    out.setdefault(name, []).append(entry)
    return out


def panel_data(v: Variant) -> dict:
    """What the script needs: the game, its options (as a form) and the sentences to swap."""
    opts = []
    for o in v.options.values():
        label = o.label or o.description.split(".")[0][:80]
        opts.append({"name": o.name, "label": label[:1].upper() + label[1:], "type": o.type,
                     "default": o.key(o.parse(o.default)), "values": [[k, m] for k, m in o.values],
                     "min": o.min, "max": o.max, "unit": list(o.unit)})
    return {"game": v.meta.id, "name": v.meta.names.get("en", v.meta.id), "options": opts,
            "sentences": option_sentences(v)}


def panel_html(v: Variant) -> str:
    """The panel (hidden until the script shows it) and its data, as one HTML block."""
    if not v.options:
        return ""
    data = json.dumps(panel_data(v), ensure_ascii=False).replace("</", "<\\/").replace("<!--", "<\\!--")
    return (f'<div class="rk-yourtable" id="your-table" hidden data-game="{h(v.meta.id)}">'
            # folded: the form is long, and the page's reader first wants the rules and the example
            '<details class="rk-yt-fold"><summary><strong>Your table</strong>: choose your house rules, and the '
            "rules on this page change to match</summary><p>Each change is marked. Then copy or download the "
            "house file, or print these rules.</p>"
            '<form class="rk-yt-form" onsubmit="return false"></form>'
            '<p class="rk-yt-actions"><button type="button" class="rk-yt-reset">Standard rules</button> '
            '<button type="button" class="rk-yt-print">Print these rules</button> '
            '<a class="rk-yt-download" download="my-table.yaml" href="#">Download the house file</a></p>'
            '<pre class="rk-yt-yaml"></pre></details>'
            f'<script type="application/json" class="rk-yt-data">{data}</script></div>')


__all__ = ["panel_html", "panel_data", "option_sentences", "NUMBER", "BARE"]

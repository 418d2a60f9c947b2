"""Cards and places named like the narration's own words ("and", "takes", "to the table", digits,
commas, semicolons, colons) are told exactly as plainly named ones: the table merges what the narrator said as data
(clauses), never by reading its English back."""
from __future__ import annotations

import io

import pytest
import yaml

from rulekit.engine.build import build_game, load_variant
from rulekit.engine.runner import make_agents, play
from rulekit.people.table import Screen, Table

#: place labels that read like narration: a comma, 'and', a digit, 'to the table', a verb
LABELS = {
    "hiraya": {"field": "the 2, and takes to the table", "played": "the 2, and takes to the table",
               "captures": "takes 3, and goes", "deck": "the goes from, and 4"},
    "otoroku": {"discard": "the 5 goes, and takes to the table", "deck": "the 6, and to"},
    "kyo-kabu": {"deck": "the 7 takes, and goes", "column": "and 8, goes to"},
}


def _variant(base: str, tmp_path) -> tuple:
    """The plain game, the same game with odd card names and place labels, and the odd words
    mapped to the plain ones (longest first), places in both cases."""
    plain = build_game(load_variant(base), None, None, None)
    shown = plain.extra.display.names or {}  # the names players read
    name = {cid: shown.get(cid) or plain.card_name(i) for i, cid in enumerate(plain.card_ids)}
    cards = sorted(set(name.values()))
    # each name says a value no card shows (70 and up) and reads like a sentence's middle
    # each name opens like a sentence's middle, with a number no card shows (70 and up); the plain
    # name at its end keeps what it says (a value: 'Five'; a note in brackets)
    odd = {p: (f"And {k + 70}; takes: to the table " if k % 2 else f"goes {k + 70} to, and ") for k, p in enumerate(cards)}
    doc = {"id": f"odd-{base}", "extends": base,
           "display": {"names": {cid: odd[name[cid]] + name[cid] for cid in plain.card_ids}},
           "zones": {z: {"label": label} for z, label in LABELS[base].items()}}
    path = tmp_path / f"odd-{base}.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    weird = build_game(load_variant(str(path)), None, None, None)
    back = [(o, "") for o in odd.values()] + [(o[:1].upper() + o[1:], "") for o in odd.values()]
    for z, label in LABELS[base].items():
        old = plain.variant.zones[z].label or z.replace("_", " ")
        old = old if old.startswith("the ") else f"the {old}" if label.startswith("the ") else old
        back += [(label, old), (label[:1].upper() + label[1:], old[:1].upper() + old[1:])]
    return plain, weird, sorted(back, key=lambda b: -len(b[0]))


def _evening(g, n: int, seed: int, answers: str, verbose: bool) -> str:
    """Two rounds at seat 1 (a table that pauses between them), answering `answers` throughout."""
    out = io.StringIO()
    table = Table(g, n, 1, Screen(io.StringIO(answers * 2000), out), pause=True, verbose=verbose)
    table.nar.rounds = 2
    res = play(g, n, seed, make_agents(g, n, seed, "careful", human=1, human_agent=table), rounds=2,
               dealer=0, observe=table.observe)
    table.finish(res.chips, 2)
    return out.getvalue()


@pytest.mark.parametrize("base,n,seed", [("hiraya", 3, 1), ("hiraya", 3, 2), ("otoroku", 4, 1),
                                         ("kyo-kabu", 4, 3)])
@pytest.mark.parametrize("verbose", [False, True])
def test_odd_names_are_told_as_plain_ones(base, n, seed, verbose, tmp_path):
    """The same game with cards named 'And 71; takes: to the table Five' and 'goes 72 to, and Six', and
    places labelled 'the 2, and takes to the table': word for word the plain game's telling once
    the names are put back (every join of sentences made the same, nothing cut at a false 'and',
    a false 'to' or a false value)."""
    plain, weird, back = _variant(base, tmp_path)
    told = _evening(weird, n, seed, "1\n", verbose)
    assert "to the table " in told  # the odd names are told
    for o, p in back:
        told = told.replace(o, p)
    expected = _evening(plain, n, seed, "1\n", verbose)
    assert told.splitlines() == expected.splitlines()

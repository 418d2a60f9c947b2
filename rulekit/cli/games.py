"""`rulekit list` (the games you can play) and `rulekit rules GAME` (their rules in the terminal)."""
from __future__ import annotations

import os
import sys
import textwrap
from typing import Any

from rulekit.core.inert import inert

EXIT_OK = 0


def _width() -> int:
    try:
        return max(40, min(100, os.get_terminal_size(sys.stdout.fileno()).columns))
    except OSError:
        return 80


def variant_files() -> list[str]:
    """Every variant file on the search path (./variants first), each id once."""
    from rulekit.lang.loader import default_search_path
    seen: set[str] = set()
    out = []
    for folder in default_search_path():
        if not os.path.isdir(folder):
            continue
        for root, _dirs, files in sorted(os.walk(folder)):
            for f in sorted(files):
                vid = os.path.splitext(f)[0]
                if f.endswith((".yaml", ".yml")) and vid not in seen:
                    seen.add(vid)
                    out.append(os.path.join(root, f))
    return out


def cmd_list(args: Any) -> int:
    """One line per playable game: id, name, players and deck."""
    from rulekit.engine.build import load_variant
    from rulekit.core.errors import RulekitError
    rows = []
    for f in variant_files():
        try:
            v = load_variant(f)
        except RulekitError:
            continue  # a broken file is validate's business, not the list's
        if v.meta.abstract:
            continue
        m = v.meta
        try:
            from rulekit.engine.build import make_deck
            from rulekit.core.errors import Collector
            d = make_deck(v, v.default_deck, Collector())
            cards = len(d.cards) if d is not None else 0
        except Exception:  # a deck that cannot be built is validate's business; the list goes on
            cards = 0
        others = len(v.decks) - 1
        rows.append((m.id, m.names.get("en", m.id), m.names.get("ja", ""),
                     (f"{m.players_min}-{m.players_max} players (usually {m.players_default})" if m.players_min != m.players_max
                      else f"{m.players_min} players"),
                     f"{v.default_deck}" + (f" ({cards} cards)" if cards else "")
                     + (f", or {others} other deck{'s' if others != 1 else ''}" if others > 0 else "")))
    w = max((len(r[0]) for r in rows), default=4)
    print(f"{len(rows)} games (play one with: rulekit play GAME --human 1; read its rules with: rulekit rules GAME)")
    for vid, en, ja, players, deck in rows:
        name = f"{en} ({ja})" if ja else en
        print(inert(f"  {vid:<{w}}  {name} — {players}; deck {deck}", keep_newlines=False))
    return EXIT_OK


def rules_lines(game: Any, width: int = 80) -> list[str]:
    """The rules as plain text: the variant's rules document when it has one, else its summary,
    its phases in order and its hands (yaku), all from the file."""
    v = game.variant
    m = v.meta
    try:
        from rulekit.lang.rulestext import house_rules_plain, rules_doc, to_plain  # the players' rules, when present
    except ImportError:
        rules_doc = None
    if rules_doc is not None:
        from rulekit.lang.prose import Prose
        # the usual readings alone, each rule's other readings in a section of their own (as the site)
        doc = rules_doc(v, Prose.page(v.options))
        if not doc.empty:
            from rulekit.lang.loader import command_name
            house = house_rules_plain(v, width, command_name(m.id, v.file))
            return to_plain(doc, width).splitlines() + ([""] + house.splitlines() if house else [])
    out: list[str] = []
    wrap = lambda t, ind="": textwrap.wrap(" ".join(str(t).split()), width, initial_indent=ind,  # noqa: E731
                                           subsequent_indent=ind) or [ind]
    title = m.names.get("en", m.id) + (f" ({m.names['ja']})" if m.names.get("ja") else "")
    out += [title, "=" * min(len(title), width), ""]
    out += wrap(m.summary)
    out += ["", f"Players: {m.players_min} to {m.players_max} (usually {m.players_default})."]
    deck = v.decks.get(v.default_deck)
    out += wrap(f"Deck: {v.default_deck}" + (f" — {deck.description.rstrip('.')}" if deck and deck.description else "") + ".")
    out += ["", "How a round goes", "----------------"]
    from rulekit.lang.loader import at
    phases = at(v.tree, "round")
    k = 0
    for ph in (phases.value if phases is not None and isinstance(phases.value, list) else []):
        d = ph.value if isinstance(ph.value, dict) else {}
        name = str(d["name"].value) if "name" in d else str(d["id"].value) if "id" in d else "?"
        text = ""
        for key in ("text", "description"):
            if key in d and isinstance(d[key].value, str):
                text = d[key].value
                break
        k += 1
        out += wrap(f"{k}. {name}" + (f": {text}" if text else ""))
    if any(game.yaku.values()):
        out += ["", "Hands", "-----"]
        for table, entries in game.yaku.items():
            for y in entries:
                en = y.names.get("en") or y.id
                ro = y.names.get("romaji")
                out += wrap(f"- {en}{' (' + ro + ')' if ro and ro.lower() != en.lower() else ''}"
                            + (f": {y.description}" if y.description else ""))
    if v.options:
        out += ["", "House rules (change with -o NAME=VALUE)", "---------------------------------------"]
        for name, o in v.options.items():
            out += wrap(f"- {name} = {game.options.get(name)}: {o.description}")
    return out


def cmd_rules(args: Any, game_of) -> int:
    """A game's rules for players: the game's own page text, or with --house/-o/--preset (or any
    --format/--output) the sheet of that table's game, house rules stated as the rules."""
    from rulekit.cli.args import open_output
    out = open_output(getattr(args, "output", None), "--output")  # a bad path fails before any work
    game = game_of(args)
    fmt = getattr(args, "format", "text") or "text"
    own = bool(args.house or args.option or args.preset) or fmt != "text" or out is not None
    if not own:
        for ln in rules_lines(game, _width()):
            print(inert(ln, keep_newlines=False))
        return EXIT_OK
    from rulekit.people.sheet import make_sheet, sheet_markdown, sheet_text
    effects: tuple[str, ...] = ()
    if getattr(args, "effects", False):
        effects = tuple(effect_lines(args, game))
    sheet = make_sheet(game, effects)
    if fmt == "html":
        from rulekit.people.sheethtml import sheet_html
        text = sheet_html(sheet)
    elif fmt == "markdown":
        text = sheet_markdown(sheet)
    else:
        text = sheet_text(sheet, _width() if out is None else 78)
    if out is None:
        for ln in text.splitlines():
            print(inert(ln, keep_newlines=False))
    else:
        with out:
            out.write(inert(text) if fmt != "html" else text)  # html escapes the file's text itself
        print(f"wrote {args.output} ({fmt}, {len(sheet.changes)} house rule{'s' if len(sheet.changes) != 1 else ''})",
              file=sys.stderr)
    return EXIT_OK


def effect_lines(args: Any, game: Any) -> list[str]:
    """Each change alone and all together, as paired single rounds with 95% intervals (the
    `simulate --compare` machinery), as lines for the sheet."""
    import argparse
    import io
    from rulekit.cli.common import parse_options, resolve_variant_path, seat_count
    from rulekit.cli.compare import run_compare
    sim = argparse.Namespace(**{**vars(args), "games": None, "rounds": args.effect_rounds, "seed": 1,
                                "policy": "random", "jobs": 1, "stats": None, "players": None})
    n = seat_count(sim, game)
    buf = io.StringIO()
    vargs = (resolve_variant_path(args.variant), parse_options(args.option), args.preset, args.deck, tuple(args.house or ()), None)
    run_compare(sim, game, n, ["random"] * n, vargs, buf, lambda *a: None)
    lines = buf.getvalue().splitlines()
    keep = [ln for ln in lines if not ln.startswith("- ")]  # the rule differences are the sheet's own summary
    return keep[1:]  # without the title line: the sheet's own heading says what this is

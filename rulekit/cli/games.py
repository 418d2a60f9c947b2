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
        for entries in game.yaku.values():
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


def _inputs(args: Any, game: Any = None) -> list[str]:
    """Every file the command reads: the variant (and the files it extends), house files, the deck."""
    from rulekit.cli.common import resolve_variant_path
    files = [f for f in [resolve_variant_path(args.variant)] if f]
    files += list(getattr(args, "house", None) or ())
    if game is not None:
        files += list(game.variant.files)
        choice = game.variant.decks.get(game.deck_name)
        if choice is not None:
            from rulekit.lang.decks import HERE
            files.append(os.path.join(HERE, f"{choice.base}.yaml"))
    return files


def _check_not_input(path: str | None, files: list[str]) -> None:
    """A usage error when --output names a file the command reads (it would be destroyed)."""
    from rulekit.cli.args import UsageError
    from rulekit.core.atomic import same_file
    if path is None or path == "-" or not os.path.exists(path):
        return
    for f in files:
        if os.path.exists(f) and same_file(path, f):
            raise UsageError(f"--output: '{path}' is an input of this command ({f}); "
                             "choose another file for the sheet")


def cmd_rules(args: Any, game_of: Any = None) -> int:
    """A game's rules for players: the game's own page text, or with --house/-o/--preset (or any
    --format/--output) the sheet of that table's game, house rules stated as the rules."""
    if game_of is None:  # as the command registry runs it
        from rulekit.cli.common import game_from_args
        return cmd_rules(args, game_from_args)
    from rulekit.cli.args import check_replaceable
    path = getattr(args, "output", None)
    if path is not None:
        check_replaceable(path, "--output")  # a bad path fails before any work; nothing is written yet
        _check_not_input(path, _inputs(args))
    game = game_of(args)
    _check_not_input(path, _inputs(args, game))
    fmt = getattr(args, "format", "text") or "text"
    fmt = "markdown" if fmt == "md" else fmt
    own = bool(args.house or args.option or args.preset) or fmt != "text" or path is not None
    if not own:
        for ln in rules_lines(game, _width()):
            print(inert(ln, keep_newlines=False))
        return EXIT_OK
    import dataclasses
    from rulekit.people.sheet import make_sheet, sheet_markdown, sheet_text
    sheet = make_sheet(game)
    if getattr(args, "effects", False):  # named as the sheet states each change
        sheet = dataclasses.replace(sheet, effects=tuple(effect_lines(args, game, sheet)))
    if fmt == "html":
        from rulekit.people.sheethtml import sheet_html
        text = sheet_html(sheet)
    elif fmt == "markdown":
        text = sheet_markdown(sheet)
    else:
        text = sheet_text(sheet, _width() if path is None else 78)
    if path is None or path == "-":
        for ln in text.splitlines():
            print(inert(ln, keep_newlines=False))
        return EXIT_OK
    from rulekit.core.atomic import write_atomic
    try:  # the whole sheet is ready: an existing file is replaced only now, in one rename
        write_atomic(path, inert(text) if fmt != "html" else text)  # html escapes the file's text itself
    except OSError as exc:
        from rulekit.cli.args import UsageError
        raise UsageError(f"--output: cannot write '{path}': {exc.strerror}") from None
    print(f"wrote {args.output} ({fmt}, {len(sheet.changes)} house rule{'s' if len(sheet.changes) != 1 else ''})",
          file=sys.stderr)
    return EXIT_OK


def effect_lines(args: Any, game: Any, sheet: Any = None) -> list[str]:
    """Each change alone and all together, as paired single rounds with 95% intervals (the
    `simulate --compare` machinery), as lines for the sheet in a family's words: each change named
    as the sheet states it (with its footnote number), the game's own unit, the dealer named, and a
    rule that acts only between rounds said in words rather than shown as +0.00."""
    import argparse
    import io
    from rulekit.cli.common import parse_options, resolve_variant_path, seat_count
    from rulekit.cli.compare import run_compare
    sim = argparse.Namespace(**{**vars(args), "games": None, "rounds": args.effect_rounds, "seed": 1,
                                "policy": "random", "jobs": 1, "stats": None, "players": None})
    n = seat_count(sim, game)
    buf = io.StringIO()
    vargs = (resolve_variant_path(args.variant), parse_options(args.option), args.preset, args.deck, tuple(args.house or ()), None)
    doc = run_compare(sim, game, n, ["random"] * n, vargs, buf, lambda *a: None)
    if doc is None:
        return []
    return family_effects(doc, game, sheet)


def _chip_words(game: Any) -> tuple[str, str]:
    """What the game's chips are called (rules.chips, as players say it), else chips."""
    from rulekit.lang.loader import plain
    w = (plain(game.variant.tree).get("rules") or {}).get("chips")
    return (str(w[0]), str(w[1])) if isinstance(w, list) and len(w) == 2 else ("chip", "chips")


def family_effects(doc: dict, game: Any, sheet: Any) -> list[str]:
    """The comparison `doc` of run_compare as lines a family reads (see effect_lines)."""
    changes = list(sheet.changes) if sheet is not None else []
    number = {c.key: i for i, c in enumerate(changes, 1)}
    one, many = _chip_words(game)
    total = doc["count"]
    names = {}
    for entries in game.yaku.values():
        for y in entries:
            names[f"yaku:{y.id}"] = y.names.get("en") or y.id.replace("-", " ")
    from rulekit.lang.loader import plain
    records = plain(game.variant.tree).get("records") or {}
    for k, r in records.items():
        if isinstance(r, dict) and r.get("name"):
            names[str(k)] = str(r["name"])
    seat = lambda s: "The dealer" if s == 0 else f"Seat {s}"  # noqa: E731 - seat 0 deals every compared round
    out = textwrap.wrap(f"Each change was played on the same {total} deals as the standard rules, by players "
                        f"choosing at random, seat 0 dealing every round. Shown: the change in each player's {many} "
                        f"per round, with a range that holds the true figure 19 times in 20.", 78)
    def order(ch: dict) -> int:  # in the sheet's order (its footnote numbers), all together last
        key = str(ch["change"]).rsplit(": ", 1)[-1].split("=", 1)[0].replace("-o ", "").strip()
        return 10 ** 6 if ch["change"] == "all together" else number.get(key, 10 ** 5)

    for ch in sorted(doc["changes"], key=order):
        label = str(ch["change"])
        if label == "all together":
            title = f"All {len(changes)} house rules together" if changes else "All the changes together"
        else:
            key = label.rsplit(": ", 1)[-1].split("=", 1)[0].replace("-o ", "").strip()
            if key.startswith("its ") and key.endswith(" edits"):
                keys = [c for c in changes if c.key.split(".", 1)[0] in ("yaku", "game", "players")]
                title = "; ".join(f"[{number[c.key]}] {c.what}" for c in keys) or "The file's other changes"
            elif key in number:
                title = f"[{number[key]}] {changes[number[key] - 1].what}"
            else:
                title = label
        out += [""] + textwrap.wrap(title, 78, subsequent_indent="    ")
        seats = ch["seats"]
        if all(abs(s["change"]) < 1e-12 and abs(s["high"] - s["low"]) < 1e-12 for s in seats):
            out += textwrap.wrap("No change in a single round: it acts between rounds (the length of the game, "
                                 "who deals, a stock that runs out) or only together with another of these rules; "
                                 "compare whole games with rulekit simulate --games N --compare.", 78,
                                 initial_indent="  ", subsequent_indent="  ")
            continue
        for s in seats:
            amt = s["change"]
            out.append(f"  {seat(s['seat'])}: {amt:+.2f} {one if abs(amt) == 1 else many} per round "
                       f"({s['low']:+.2f} to {s['high']:+.2f})")
        moved = sorted(ch.get("outcomes", {}).items(), key=lambda kv: -abs(kv[1]["changed"] - kv[1]["base"]))[:4]
        if moved:
            said = [f"{names.get(k, k.split(':', 1)[-1].replace('_', ' ').replace('-', ' '))} "
                    f"{v['base'] * 100:.1f}% -> {v['changed'] * 100:.1f}% of rounds" for k, v in moved]
            out += textwrap.wrap("What happens more or less often: " + "; ".join(said) + ".", 78,
                                 initial_indent="  ", subsequent_indent="    ")
    return out

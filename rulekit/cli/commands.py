"""The small commands: validate, show, decks, diff, explain, replay (rulekit.cli.main's registry runs them)."""
from __future__ import annotations

import argparse
import os
import sys

from rulekit.cli.common import EXIT_ERRORS, EXIT_OK, game_from_args, in_cli_words, usage_error, variant_files


def cmd_validate(args) -> int:
    from rulekit.engine.build import check_variant
    from rulekit.core.errors import render_all
    files = variant_files(args.paths)
    if not files:
        return usage_error("no variant files found in " + " ".join(args.paths))
    bad = 0
    for f in files:
        if not os.path.exists(f):
            print(f"{f}:0:0: error[E001]: no such file", file=sys.stderr)
            bad += 1
            continue
        from rulekit.lang.house import is_house_file
        house = is_house_file(f)
        if house:
            from rulekit.engine.build import check_house
            diags = check_house(f, strict=args.strict)
        else:
            diags = check_variant(f, strict=args.strict)
        errors = [d for d in diags if d.severity == "error"]
        if diags:
            print(render_all(in_cli_words(diags)), file=sys.stderr)
        what = " (house rules)" if house else ""
        if errors:
            bad += 1
            print(f"{f}{what}: {len(errors)} error{'s' if len(errors) != 1 else ''}", file=sys.stderr)
        else:
            warned = len(diags) - len(errors)
            print(f"{f}{what}: ok" + (f" ({warned} warning{'s' if warned != 1 else ''})" if warned else ""))
    print(f"{len(files) - bad} valid, {bad} with errors")
    return EXIT_ERRORS if bad else EXIT_OK


def cmd_show(args) -> int:
    import yaml
    from rulekit.lang.loader import plain
    game = game_from_args(args)
    if args.compiled:
        from rulekit.engine.listing import listing
        print(listing(game), end="")
        return EXIT_OK
    v = game.variant
    data = plain(v.tree)
    print(f"# {v.meta.names.get('en', v.meta.id)} ({v.meta.names.get('ja', '')}) — resolved from "
          f"{', '.join(os.path.relpath(f) if os.path.isabs(f) else f for f in v.files)}")
    by_table = "".join(f", {len(game.card_ids) - len(ids)} with {n} players"
                       for n, ids in sorted(game.deck.out_of_play.items()))
    print(f"# deck: {game.deck_name} ({len(game.card_ids)} cards{by_table}); preset: {game.preset or '-'}")
    print("# options in effect:")
    for k, val in game.options.items():
        mark = "" if val == v.options[k].parse(v.options[k].default) else "   (changed)"
        print(f"#   {k} = {val}{mark}")
    print(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100))
    return EXIT_OK


def cmd_decks(args) -> int:
    from rulekit.lang.decks import deck_names, load_deck
    if args.name and args.name not in deck_names():
        from rulekit.core.errors import did_you_mean
        hint = did_you_mean(args.name, deck_names())
        return usage_error(f"no deck named '{args.name}': expected one of {', '.join(deck_names())}"
                      + (f" ({hint})" if hint else ""))
    if not args.name:
        for n in deck_names():
            d = load_deck(n)
            print(f"{n:18} {len(d.cards):3} cards  {d.names.get('en', '')}"
                  f"{'  (from ' + d.parent + ')' if d.parent else ''}")
        return EXIT_OK
    d = load_deck(args.name)
    attrs = list(d.attributes)
    print(f"{d.id}: {d.names.get('en', '')} — {len(d.cards)} cards")
    print(f"{'id':8} " + " ".join(f"{a:>10}" for a in attrs) + "  name / tags")
    for c in d.cards:
        tags = f" [{', '.join(sorted(c.tags))}]" if c.tags else ""
        print(f"{c.id:8} " + " ".join(f"{str(c.attrs[a]):>10}" for a in attrs) + f"  {c.name}{tags}")
    return EXIT_OK


def cmd_diff(args) -> int:
    from rulekit.analysis.compare import diff_games
    changed = game_from_args(args)
    if args.other:
        base = changed
        changed = game_from_args(argparse.Namespace(**{**vars(args), "variant": args.other, "option": None, "preset": None,
                                              "house": None, "deck": None}))
    else:
        base = game_from_args(argparse.Namespace(**{**vars(args), "option": None, "preset": None, "house": None, "deck": None}))
    lines = diff_games(base, changed)
    title = f"{base.id} -> {changed.id}" + ("" if args.other else " with your changes")
    print(title)
    print("\n".join(f"- {ln}" for ln in lines) if lines else "- no rule differences")
    return EXIT_OK


def cmd_explain(args) -> int:
    from rulekit.analysis.compare import explain
    print("\n".join(explain(game_from_args(args), args.path)))
    return EXIT_OK


def cmd_replay(args) -> int:
    from rulekit.engine.build import build_game, load_variant
    from rulekit.people.replay import locate_variant, read_log, replay
    from rulekit.people.transcript import transcript
    log = read_log(args.log)  # untrusted: size, kind, JSON, depth, schema and digests checked first
    path = locate_variant(log, args.variant, args.trust_log_path)
    variant = load_variant(path, house=tuple(args.house or ()))
    game = build_game(variant, log["options"], log.get("preset"), log["deck"])
    res = replay(game, log, args.log)
    if not args.quiet:
        print(transcript(game, res.events, res.chips))
    print(f"replay ok: {len(log['moves'])} decisions, events identical ({log['events_sha256'][:12]})")
    return EXIT_OK

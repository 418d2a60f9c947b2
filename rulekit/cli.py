"""The `rulekit` command: validate, show, decks, play, simulate, replay.

Heavy modules are imported inside each command so `rulekit --help` starts fast.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Sequence

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


def _options(pairs: Sequence[str] | None) -> dict[str, str]:
    out = {}
    for p in pairs or ():
        if "=" not in p:
            raise SystemExit(_usage(f"-o expects name=value, found '{p}'"))
        k, v = p.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _usage(msg: str) -> int:
    print(f"rulekit: error: {msg}", file=sys.stderr)
    return EXIT_USAGE


def resolve_variant_path(name: str) -> str | None:
    """A variant given as a path or as an id found under ./variants or the shipped variants."""
    if os.path.isfile(name):
        return name
    from .loader import default_search_path, find_variant
    return find_variant(name, None, default_search_path())


def _variant_files(paths: Sequence[str]) -> list[str]:
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _dirs, fs in os.walk(p):
                files += [os.path.join(root, f) for f in sorted(fs) if f.endswith((".yaml", ".yml"))]
        else:
            files.append(p)
    return sorted(files)


def cmd_validate(args) -> int:
    from .build import check_variant
    from .errors import render_all
    files = _variant_files(args.paths)
    if not files:
        return _usage("no variant files found in " + " ".join(args.paths))
    bad = 0
    for f in files:
        if not os.path.exists(f):
            print(f"{f}:0:0: error[E001]: no such file", file=sys.stderr)
            bad += 1
            continue
        diags = check_variant(f, strict=args.strict)
        if diags:
            bad += 1
            print(render_all(diags), file=sys.stderr)
            print(f"{f}: {len(diags)} error{'s' if len(diags) != 1 else ''}", file=sys.stderr)
        else:
            print(f"{f}: ok")
    print(f"{len(files) - bad} valid, {bad} with errors")
    return EXIT_ERRORS if bad else EXIT_OK


def _game(args):
    from .build import build_game, load_variant
    path = resolve_variant_path(args.variant)
    if path is None:
        from .errors import RulekitError, Span, did_you_mean, error
        from .loader import all_variant_ids, default_search_path
        raise RulekitError(error(Span(args.variant, 0, 0), "E001", f"no variant file or id '{args.variant}'",
                                 hint=did_you_mean(args.variant, all_variant_ids(default_search_path()))))
    variant = load_variant(path, house=tuple(getattr(args, "house", None) or ()))
    opts = _options(args.option)
    game = build_game(variant, opts, args.preset, args.deck)
    game.extra["cli_options"] = opts
    return game


def cmd_show(args) -> int:
    import yaml
    from .loader import plain
    game = _game(args)
    v = game.variant
    data = plain(v.tree)
    print(f"# {v.meta.names.get('en', v.meta.id)} ({v.meta.names.get('ja', '')}) — resolved from "
          f"{', '.join(os.path.relpath(f) if os.path.isabs(f) else f for f in v.files)}")
    print(f"# deck: {game.deck_name} ({len(game.card_ids)} cards); preset: {game.preset or '-'}")
    print("# options in effect:")
    for k, val in game.options.items():
        mark = "" if val == v.options[k].parse(v.options[k].default) else "   (changed)"
        print(f"#   {k} = {val}{mark}")
    print(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100))
    return EXIT_OK


def cmd_decks(args) -> int:
    from .decks import deck_names, load_deck
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


def cmd_play(args) -> int:
    from .playcmd import cmd_play as play_cmd
    return play_cmd(args, _game, _variant_files)


def cmd_simulate(args) -> int:
    from .simulate import simulate, report
    game = _game(args)
    if args.compare:
        from .compare import compare, compare_report, diff_games
        base_args = argparse.Namespace(**{**vars(args), "option": None, "preset": None, "house": None})
        base = _game(base_args)
        n = args.players or game.variant.meta.players_default
        changes = diff_games(base, game)
        print(f"{game.id}: base rules -> changed rules")
        print("\n".join(f"- {ln}" for ln in changes) if changes else "- no rule differences")
        print(compare_report(compare(base, game, n, args.rounds, args.seed, args.policy)))
        return EXIT_OK
    n = args.players or game.variant.meta.players_default
    import time
    started = time.perf_counter()
    client = None
    if args.scheduler:
        from .distributed import connect
        client = connect(args.scheduler)
    stats = simulate(game, n, args.rounds, args.seed, args.policy, args.jobs, client=client,
                     progress=not args.quiet and sys.stderr.isatty() or args.progress,
                     variant_args=(resolve_variant_path(args.variant), _options(args.option), args.preset, args.deck,
                                   tuple(args.house or ())))
    elapsed = time.perf_counter() - started
    print(report(game, stats))
    print(f"{stats.rounds} rounds in {elapsed:.1f} s ({stats.rounds / max(elapsed, 1e-9):.0f} rounds/s, "
          + (f"on the Dask cluster at {args.scheduler})" if client is not None else
             f"{args.jobs} process{'es' if args.jobs != 1 else ''})"))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump({"variant": game.id, "deck": game.deck_name, "options": game.options, "seed": args.seed,
                       "policy": args.policy, **stats.to_json()}, fh, indent=1, default=str)
    return EXIT_OK


def cmd_diff(args) -> int:
    from .compare import diff_games
    changed = _game(args)
    if args.other:
        base = changed
        changed = _game(argparse.Namespace(**{**vars(args), "variant": args.other, "option": None, "preset": None,
                                              "house": None, "deck": None}))
    else:
        base = _game(argparse.Namespace(**{**vars(args), "option": None, "preset": None, "house": None, "deck": None}))
    lines = diff_games(base, changed)
    title = f"{base.id} -> {changed.id}" + ("" if args.other else " with your changes")
    print(title)
    print("\n".join(f"- {ln}" for ln in lines) if lines else "- no rule differences")
    return EXIT_OK


def cmd_explain(args) -> int:
    from .compare import explain
    print("\n".join(explain(_game(args), args.path)))
    return EXIT_OK


def cmd_replay(args) -> int:
    from .build import build_game, load_variant
    from .engine.runner import replay_check
    from .transcript import transcript
    with open(args.log, encoding="utf-8") as fh:
        log = json.load(fh)
    path = log["variant"] if os.path.isfile(log["variant"]) else resolve_variant_path(log.get("variant_id", ""))
    variant = load_variant(path)
    game = build_game(variant, log.get("options"), None, log.get("deck"))
    res = replay_check(game, log)
    if not args.quiet:
        print(transcript(game, res.events, res.chips))
    print(f"replay ok: {len(log['moves'])} decisions, events identical ({log['events_sha256'][:12]})")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rulekit", description="Traditional Japanese card games written down as "
                                "YAML: validate, show, play and simulate them.")
    p.add_argument("--version", action="version", version=f"rulekit {__import__('rulekit').__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    def game_args(sp):
        sp.add_argument("variant", help="variant file or id (a path, or the file name without .yaml); for play, also a folder")
        sp.add_argument("-o", "--option", action="append", metavar="NAME=VALUE", help="set a house-rule option")
        sp.add_argument("--preset", help="a named rule set of the variant")
        sp.add_argument("--deck", help="play with another of the variant's decks")
        sp.add_argument("--house", action="append", metavar="FILE",
                        help="a house-rule file (repeat to stack several, applied in order)")

    sp = sub.add_parser("validate", help="check variant files; exit 1 when any has errors")
    sp.add_argument("paths", nargs="+", help="files or folders")
    sp.add_argument("--strict", action="store_true", help="also play a round with every deck and preset, and require rules text for players (E090)")
    sp.set_defaults(fn=cmd_validate)

    sp = sub.add_parser("show", help="print the resolved rules of a variant")
    game_args(sp)
    sp.set_defaults(fn=cmd_show)

    sp = sub.add_parser("decks", help="list the decks, or the cards of one deck")
    sp.add_argument("name", nargs="?")
    sp.set_defaults(fn=cmd_decks)

    sp = sub.add_parser("play", help="play a whole game with a readable transcript, or at the table with --human")
    game_args(sp)
    sp.add_argument("--seed", type=int, help="the game's seed (default: a random one, printed)")
    sp.add_argument("--players", type=int)
    sp.add_argument("--rounds", type=int, help="rounds to play (default: the game's own length)")
    sp.add_argument("--human", type=int, metavar="SEAT", help="you play this seat at the terminal")
    sp.add_argument("--policy", default="random", help="agent for the other seats: random, first, or a YAML policy")
    sp.add_argument("--log", metavar="FILE", help="write a replayable JSON log")
    sp.set_defaults(fn=cmd_play)

    sp = sub.add_parser("list", help="the games you can play, with players and deck")
    sp.set_defaults(fn=lambda a: __import__("rulekit.gamescmd", fromlist=["cmd_list"]).cmd_list(a))

    sp = sub.add_parser("rules", help="a game's rules, in the terminal")
    game_args(sp)
    sp.set_defaults(fn=lambda a: __import__("rulekit.gamescmd", fromlist=["cmd_rules"]).cmd_rules(a, _game))

    sp = sub.add_parser("simulate", help="simulate many rounds and report statistics")
    game_args(sp)
    sp.add_argument("--rounds", type=int, default=10000)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--players", type=int)
    sp.add_argument("--policy", default="random")
    sp.add_argument("--jobs", type=int, default=1, help="processes to use (same totals for the same seed)")
    sp.add_argument("--scheduler", metavar="ADDRESS",
                    help="run the chunks on the Dask cluster at ADDRESS (extra rulekit[dask]; same totals)")
    sp.add_argument("--json", metavar="FILE", help="also write the statistics as JSON")
    sp.add_argument("--quiet", action="store_true", help="no progress bar")
    sp.add_argument("--progress", action="store_true", help="progress bar even when not on a terminal")
    sp.add_argument("--compare", action="store_true",
                    help="compare with the variant's own rules on the same seeds (the effect of -o/--preset/--house)")
    sp.set_defaults(fn=cmd_simulate)

    sp = sub.add_parser("diff", help="rule differences between two variants, or a variant and its changes")
    game_args(sp)
    sp.add_argument("other", nargs="?", help="second variant (default: the first without -o/--preset/--house)")
    sp.set_defaults(fn=cmd_diff)

    sp = sub.add_parser("explain", help="one rule's value and the file and line that set it")
    game_args(sp)
    sp.add_argument("path", help="dotted path, list items by id: options.tie, yaku.<table>.<yaku id>.value")
    sp.set_defaults(fn=cmd_explain)

    sp = sub.add_parser("replay", help="replay a JSON log and check it matches")
    sp.add_argument("log")
    sp.add_argument("--quiet", action="store_true")
    sp.set_defaults(fn=cmd_replay)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: returns the exit code (0 ok, 1 rule errors, 2 usage errors)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0) and EXIT_USAGE
    if not getattr(args, "fn", None):
        parser.print_help()
        return EXIT_USAGE
    from .errors import RulekitError, render_all
    try:
        return args.fn(args)
    except RulekitError as exc:
        print(render_all(exc.diagnostics), file=sys.stderr)
        return EXIT_ERRORS
    except SystemExit as exc:
        return int(exc.code or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())

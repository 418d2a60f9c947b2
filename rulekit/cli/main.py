"""The `rulekit` command: validate, show, decks, play, simulate, replay.

Heavy modules are imported inside each command so `rulekit --help` starts fast.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from rulekit.cli.common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, game_from_args, usage_error, variant_files
from rulekit.cli.args import MAX_PLAY_ROUNDS, MAX_PLAYERS, MAX_SEED, bounded_int

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
            print(render_all(diags), file=sys.stderr)
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


def cmd_play(args) -> int:
    from rulekit.cli.play import cmd_play as play_cmd
    return play_cmd(args, game_from_args, variant_files)


def cmd_simulate(args) -> int:
    from rulekit.cli.simulate import cmd_simulate as run
    return run(args)


def cmd_policies(args) -> int:
    from rulekit.cli.simulate import cmd_policies as run
    return run(args)


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


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rulekit", description="Traditional Japanese card games written down as "
                                "YAML: validate, show, play and simulate them.")
    p.add_argument("--version", action="version", version=f"rulekit {__import__('rulekit').__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    def game_args(sp, optional=False):
        sp.add_argument("variant", nargs="?" if optional else None,
                        help="variant file or id (a path, or the file name without .yaml); for play, also a folder")
        sp.add_argument("-o", "--option", action="append", metavar="NAME=VALUE", help="set a house-rule option")
        sp.add_argument("--preset", help="a named rule set of the variant")
        sp.add_argument("--deck", help="play with another of the variant's decks")
        sp.add_argument("--house", action="append", metavar="FILE",
                        help="a house-rule file (repeat to stack several, applied in order)")

    sp = sub.add_parser("validate", help="check variant files; exit 1 when any has errors")
    sp.add_argument("paths", nargs="+", help="files or folders")
    sp.add_argument("--strict", action="store_true", help="also play a round with every deck and preset, and require rules text for players, in words (E090, E091, E092)")
    sp.set_defaults(fn=cmd_validate)

    sp = sub.add_parser("show", help="print the resolved rules of a variant")
    game_args(sp)
    sp.set_defaults(fn=cmd_show)

    sp = sub.add_parser("decks", help="list the decks, or the cards of one deck")
    sp.add_argument("name", nargs="?")
    sp.set_defaults(fn=cmd_decks)

    sp = sub.add_parser("play", help="play a whole game with a readable transcript, or at the table with --human")
    game_args(sp, optional=True)
    sp.add_argument("--seed", type=bounded_int("--seed", -MAX_SEED, MAX_SEED),
                    help="the game's seed (default: a random one, printed)")
    sp.add_argument("--players", type=bounded_int("--players", 1, MAX_PLAYERS),
                    help="how many players (default: the game's usual number)")
    sp.add_argument("--rounds", type=bounded_int("--rounds", 1, MAX_PLAY_ROUNDS),
                    help="rounds to play (default: the game's own length)")
    sp.add_argument("--human", type=bounded_int("--human", 0, MAX_PLAYERS - 1), metavar="SEAT",
                    help="you play this seat at the terminal")
    sp.add_argument("--policy", "--opponents", dest="policy",
                    help="how the other seats play: the game's careful policy (the default), random, first, or "
                         "another policy of the game (see `rulekit policies GAME`)")
    sp.add_argument("--trace", action="store_true",
                    help="without --human: print the engine's event trace (for authors) instead of the story")
    sp.add_argument("--verbose", action="store_true",
                    help="with --human: tell every turn as it happens (by default turns between your questions "
                         "and a round's end without a question of yours are told short, t tells them)")
    sp.add_argument("--ask-all", action="store_true",
                    help="with --human: ask you even the questions the rules give nothing to decide on (a blind "
                         "exchange of unseen hands; by default the table keeps what you have and says so)")
    sp.add_argument("--from-simulation", metavar="SEED:ROUND",
                    help="play again round ROUND (from 0) of `simulate --seed SEED` (single rounds, seat 0 deals, "
                         "the simulation's default policy unless --policy says otherwise)")
    sp.add_argument("--log", metavar="FILE", help="write a replayable JSON log (at the end, or where the game "
                    "stopped: it can be resumed)")
    sp.add_argument("--resume", metavar="FILE", help="continue a saved game (written when you left the table, "
                    "or by --log when a game stopped) with its own settings")
    sp.add_argument("--variant", dest="variant_file", metavar="FILE",
                    help="with --resume: the variant file or id of the saved game (default: its id)")
    sp.set_defaults(fn=cmd_play)

    sp = sub.add_parser("list", help="the games you can play, with players and deck")
    sp.set_defaults(fn=lambda a: __import__("rulekit.cli.games", fromlist=["cmd_list"]).cmd_list(a))

    sp = sub.add_parser("rules", help="a game's rules: in the terminal, or your table's sheet as Markdown or HTML")
    game_args(sp)
    sp.add_argument("--format", choices=("text", "markdown", "md", "html"), default="text",
                    help="text for the terminal (default), markdown (or md), or html (one self-contained printable file)")
    sp.add_argument("--output", metavar="FILE", help="write the sheet to FILE instead of the terminal")
    sp.add_argument("--effects", action="store_true",
                    help="add what the house rules do, each alone and all together (paired simulation, 95%% intervals)")
    sp.add_argument("--effect-rounds", type=bounded_int("--effect-rounds", 100, 1_000_000), default=2000,
                    metavar="N", help="rounds simulated for --effects (default 2000)")
    sp.set_defaults(fn=lambda a: __import__("rulekit.cli.games", fromlist=["cmd_rules"]).cmd_rules(a, game_from_args))

    sp = sub.add_parser("simulate", help="simulate many rounds or whole games and report statistics")
    game_args(sp)
    from rulekit.cli.simulate import add_arguments
    add_arguments(sp)
    sp.set_defaults(fn=cmd_simulate)

    sp = sub.add_parser("help", help="the expression, file-format or statistics reference in the terminal: help "
                        "expressions, help format [PART], help statistics")
    sp.add_argument("topic", nargs="?", help="expressions, format or statistics")
    sp.add_argument("part", nargs="?", help="with format: one part of the file (phase, step, option ...)")
    sp.set_defaults(fn=lambda a: __import__("rulekit.cli.helptext", fromlist=["cmd_help"]).cmd_help(a))

    sp = sub.add_parser("policies", help="the policies (ways of playing) a game ships, with descriptions")
    game_args(sp)
    sp.set_defaults(fn=cmd_policies)

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
    sp.add_argument("--variant", metavar="FILE", help="the variant file or id to replay with (default: the "
                    "log's variant id among the known variants)")
    sp.add_argument("--house", action="append", metavar="FILE", help="house-rule files the game was played with")
    sp.add_argument("--trust-log-path", action="store_true",
                    help="read the variant from the path written in the log (only for logs you trust)")
    sp.set_defaults(fn=cmd_replay)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: returns the exit code (0 ok, 1 rule errors, 2 usage errors)."""
    parser = build_parser()
    from rulekit.people.terminal import inert_output
    from rulekit.cli.args import join_dash_values
    try:
        with inert_output():  # argparse echoes arguments in its messages
            args = parser.parse_args(join_dash_values(list(sys.argv[1:] if argv is None else argv)))
    except SystemExit as exc:
        return int(exc.code or 0) and EXIT_USAGE
    if not getattr(args, "fn", None):
        parser.print_help()
        return EXIT_USAGE
    args.argv = list(sys.argv[1:] if argv is None else argv)  # the command as given (simulate records it)
    from rulekit.cli.args import UsageError
    from rulekit.core.errors import RulekitError, render_all
    try:
        with inert_output():  # whatever a command prints, the terminal shows it literally
            return args.fn(args)
    except UsageError as exc:
        return usage_error(str(exc))
    except RulekitError as exc:
        print(render_all(exc.diagnostics), file=sys.stderr)
        return EXIT_ERRORS
    except SystemExit as exc:
        if isinstance(exc.code, str):  # SystemExit("rulekit: error: ..."): one line, exit 1
            print(exc.code, file=sys.stderr)
            return EXIT_ERRORS
        return int(exc.code or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())

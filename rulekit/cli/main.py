"""The `rulekit` command: its one registry of commands, their arguments, and the entry point.

Each command's module is imported when it runs (the small ones are in rulekit.cli.commands), and heavy
modules inside each command, so `rulekit --help` and a simulation start fast.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from dataclasses import dataclass
from typing import Callable, Sequence

from rulekit.cli.common import EXIT_ERRORS, EXIT_OK, EXIT_USAGE, in_cli_words, usage_error
from rulekit.cli.args import MAX_PLAY_ROUNDS, MAX_PLAYERS, MAX_SEED, bounded_int

DESCRIPTION = "Traditional Japanese card games written down as YAML: validate, show, play and simulate them."


def game_args(sp: argparse.ArgumentParser, optional: bool = False) -> None:
    """The arguments that name a game and its rules: variant, -o, --preset, --deck, --house."""
    sp.add_argument("variant", nargs="?" if optional else None,
                    help="variant file or id (a path, or the file name without .yaml); for play, also a folder")
    sp.add_argument("-o", "--option", action="append", metavar="NAME=VALUE", help="set a house-rule option")
    sp.add_argument("--preset", help="a named rule set of the variant")
    sp.add_argument("--deck", help="play with another of the variant's decks")
    sp.add_argument("--house", action="append", metavar="FILE",
                    help="a house-rule file (repeat to stack several, applied in order)")


def _validate_args(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("paths", nargs="+", help="files or folders")
    sp.add_argument("--strict", action="store_true", help="also play a round with every deck and preset, and require rules text for players, in words (E090, E091, E092)")


def _show_args(sp: argparse.ArgumentParser) -> None:
    game_args(sp)
    sp.add_argument("--compiled", action="store_true",
                    help="print the Python the engine generated from the rules instead, each part headed by the "
                         "file and line it came from (for authors)")


def _decks_args(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("name", nargs="?")


def _play_args(sp: argparse.ArgumentParser) -> None:
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
                    help="how the other seats play: random, first, search, or a policy of the game (see `rulekit "
                         "policies GAME`, which marks the table's default; watched games: careful); "
                         "search:seconds=S caps the search bot's thought at S seconds a choice")
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


def _no_args(sp: argparse.ArgumentParser) -> None:
    """A command without arguments of its own."""


def _rules_args(sp: argparse.ArgumentParser) -> None:
    game_args(sp)
    sp.add_argument("--format", choices=("text", "markdown", "md", "html"), default="text",
                    help="text for the terminal (default), markdown (or md), or html (one self-contained printable file)")
    sp.add_argument("--output", metavar="FILE", help="write the sheet to FILE instead of the terminal")
    sp.add_argument("--effects", action="store_true",
                    help="add what the house rules do, each alone and all together (paired simulation, 95%% intervals)")
    sp.add_argument("--effect-rounds", type=bounded_int("--effect-rounds", 100, 1_000_000), default=2000,
                    metavar="N", help="rounds simulated for --effects (default 2000)")


def _simulate_args(sp: argparse.ArgumentParser) -> None:
    game_args(sp)
    from rulekit.cli.simulate import add_arguments
    add_arguments(sp)


def _help_args(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("topic", nargs="?", help="expressions, format or statistics")
    sp.add_argument("part", nargs="?", help="with format: one part of the file (phase, step, option ...)")


def _diff_args(sp: argparse.ArgumentParser) -> None:
    game_args(sp)
    sp.add_argument("other", nargs="?", help="second variant (default: the first without -o/--preset/--house)")


def _explain_args(sp: argparse.ArgumentParser) -> None:
    game_args(sp)
    sp.add_argument("path", help="dotted path, list items by id: options.tie, yaku.<table>.<yaku id>.value")


def _replay_args(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("log")
    sp.add_argument("--quiet", action="store_true")
    sp.add_argument("--variant", metavar="FILE", help="the variant file or id to replay with (default: the "
                    "log's variant id among the known variants)")
    sp.add_argument("--house", action="append", metavar="FILE", help="house-rule files the game was played with")
    sp.add_argument("--trust-log-path", action="store_true",
                    help="read the variant from the path written in the log (only for logs you trust)")


@dataclass(frozen=True)
class Command:
    """One command: its name and one-line help (the parser and the site's reference page read
    both), how its arguments are declared, and the function that runs it."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: str  # "module:function" taking the parsed arguments; imported when it runs (a fast --help)

    def runner(self) -> Callable[[argparse.Namespace], int]:
        """The function that runs the command."""
        module, fn = self.run.split(":")
        return getattr(importlib.import_module(module), fn)  # type: ignore[no-any-return]


#: every command, in the order `rulekit --help` and the reference page list them
COMMANDS: tuple[Command, ...] = (
    Command("validate", "check variant files; exit 1 when any has errors", _validate_args,
            "rulekit.cli.commands:cmd_validate"),
    Command("show", "print the resolved rules of a variant (or, with --compiled, the Python generated from them)",
            _show_args, "rulekit.cli.commands:cmd_show"),
    Command("decks", "list the decks, or the cards of one deck", _decks_args, "rulekit.cli.commands:cmd_decks"),
    Command("play", "play a whole game with a readable transcript, or at the table with --human", _play_args,
            "rulekit.cli.play:cmd_play"),
    Command("list", "the games you can play, with players and deck", _no_args, "rulekit.cli.games:cmd_list"),
    Command("rules", "a game's rules: in the terminal, or your table's sheet as Markdown or HTML", _rules_args,
            "rulekit.cli.games:cmd_rules"),
    Command("simulate", "simulate many rounds or whole games and report statistics", _simulate_args,
            "rulekit.cli.simulate:cmd_simulate"),
    Command("help", "the expression, file-format or statistics reference in the terminal: help "
            "expressions, help format [PART], help statistics", _help_args, "rulekit.cli.helptext:cmd_help"),
    Command("policies", "the policies (ways of playing) a game ships, with descriptions", game_args,
            "rulekit.cli.simulate:cmd_policies"),
    Command("diff", "rule differences between two variants, or a variant and its changes", _diff_args,
            "rulekit.cli.commands:cmd_diff"),
    Command("explain", "one rule's value and the file and line that set it", _explain_args,
            "rulekit.cli.commands:cmd_explain"),
    Command("replay", "replay a JSON log and check it matches", _replay_args, "rulekit.cli.commands:cmd_replay"),
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command in COMMANDS."""
    return _parsers()[0]


def command_parsers() -> dict[str, argparse.ArgumentParser]:
    """Each command's own parser by name (the site's reference page lists their arguments)."""
    return _parsers()[1]


def _parsers(only: str | None = None) -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """The parser and each command's; with `only`, that command alone gets its arguments (argparse
    hands a command's arguments to its own parser only, so the others need none to parse them)."""
    p = argparse.ArgumentParser(prog="rulekit", description=DESCRIPTION)
    p.add_argument("--version", action="version", version=f"rulekit {__import__('rulekit').__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    out = {}
    for c in COMMANDS:
        sp = out[c.name] = sub.add_parser(c.name, help=c.help)
        if only is None or c.name == only:
            c.arguments(sp)
        sp.set_defaults(command_of=c)
    return p, out


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: returns the exit code (0 ok, 1 rule errors, 2 usage errors)."""
    from rulekit.people.terminal import inert_output
    from rulekit.cli.args import join_dash_values
    given = join_dash_values(list(sys.argv[1:] if argv is None else argv))
    # the command is the first word (the parser itself takes only --version and -h); the arguments
    # of the others are not declared (all are when no command is named, or an unknown one)
    named = next((a for a in given if not a.startswith("-")), None)
    parser = _parsers(named if any(c.name == named for c in COMMANDS) else None)[0]
    try:
        with inert_output():  # argparse echoes arguments in its messages
            args = parser.parse_args(given)
    except SystemExit as exc:
        return int(exc.code or 0) and EXIT_USAGE
    if not getattr(args, "command_of", None):
        parser.print_help()
        return EXIT_USAGE
    args.argv = list(sys.argv[1:] if argv is None else argv)  # the command as given (simulate records it)
    from rulekit.cli.args import UsageError
    from rulekit.core.errors import RulekitError, render_all
    try:
        with inert_output():  # whatever a command prints, the terminal shows it literally
            return args.command_of.runner()(args)
    except UsageError as exc:
        return usage_error(str(exc))
    except RulekitError as exc:
        print(render_all(in_cli_words(exc.diagnostics)), file=sys.stderr)
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

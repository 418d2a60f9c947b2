"""What every command shares: exit codes, -o pairs, usage errors, finding and building the game."""
from __future__ import annotations

import os
import sys
from typing import Sequence

from rulekit.cli.args import check_seat_count

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2
JSON_VERSION = 1  # the layout of `simulate --json` output


def parse_options(pairs: Sequence[str] | None) -> dict[str, str]:
    """`-o name=value` pairs as a dict; a usage error (exit 2) for a pair without `=`."""
    out = {}
    for p in pairs or ():
        if "=" not in p:
            raise SystemExit(usage_error(f"-o expects name=value, found '{p}'"))
        k, v = p.split("=", 1)
        out[k.strip()] = v.strip()
    return out


#: how the command line spells each argument the engine names neutrally (rulekit.core.errors.argument)
FLAGS = {"policy": "--policy", "options": "-o", "preset": "--preset", "deck": "--deck"}
#: what a hint adds for a problem settled with an argument (Diagnostic.settle_with)
SETTLE_WITH = {"policy": "--policy NAME (rulekit show GAME lists the game's policies)",
               "options": "-o NAME=VALUE (rulekit show GAME lists the game's options)",
               "preset": "--preset NAME (rulekit show GAME lists the game's presets)",
               "deck": "--deck NAME (rulekit show GAME lists the decks the game accepts)"}


def in_cli_words(diags):
    """Diagnostics with the engine's neutral argument locations (`<policy>`) named by their flags
    (`--policy:1:1`), as a user of the command line typed them, and the flag that settles a
    problem (Diagnostic.settle_with) said in its hint."""
    from dataclasses import replace
    from rulekit.core.errors import Span, argument_of
    out = []
    for d in diags:
        name = argument_of(d.span)
        if name is not None:
            d = replace(d, span=Span(FLAGS[name], 1, 1))
        if d.settle_with in SETTLE_WITH:
            d = replace(d, hint=f"{d.hint}; on the command line: {SETTLE_WITH[d.settle_with]}")
        out.append(d)
    return out


def usage_error(msg: str) -> int:
    """Print `rulekit: error: MSG` (inert, one line) and return the usage exit code."""
    from rulekit.core.inert import inert
    print(f"rulekit: error: {inert(msg, keep_newlines=False, limit=1000)}", file=sys.stderr)
    return EXIT_USAGE


def resolve_variant_path(name: str) -> str | None:
    """A variant given as a path or as an id found under ./variants or the shipped variants."""
    if os.path.isfile(name):
        return name
    from rulekit.lang.loader import default_search_path, find_variant
    return find_variant(name, None, default_search_path())


def variant_files(paths: Sequence[str]) -> list[str]:
    """The YAML files named by `paths` (folders walked), sorted."""
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _dirs, fs in os.walk(p):
                files += [os.path.join(root, f) for f in sorted(fs) if f.endswith((".yaml", ".yml"))]
        else:
            files.append(p)
    return sorted(files)


def game_from_args(args):
    """The game named by a command's arguments (variant, --house, -o, --preset, --deck), built."""
    from rulekit.engine.build import build_game, load_variant
    path = resolve_variant_path(args.variant)
    if path is None:
        from rulekit.core.errors import RulekitError, Span, did_you_mean, error
        from rulekit.lang.loader import all_variant_ids, default_search_path
        raise RulekitError(error(Span(args.variant, 0, 0), "E001", f"no variant file or id '{args.variant}'",
                                 hint=did_you_mean(args.variant, all_variant_ids(default_search_path()))))
    variant = load_variant(path, house=tuple(getattr(args, "house", None) or ()))
    opts = parse_options(args.option)
    game = build_game(variant, opts, args.preset, args.deck)
    game.extra.cli_options = opts
    return game


def seat_count(args, game) -> int:
    """--players (or the variant's default) checked against the variant's range before any work."""
    meta = game.variant.meta
    n = args.players or meta.players_default
    check_seat_count(n, meta.players_min, meta.players_max)
    if n not in game.player_sizes():
        from rulekit.cli.args import UsageError
        raise UsageError(f"--players: {meta.id} is for {game.sizes_text()} players with these rules, found {n}")
    return n


def header(args, game, n: int, names: list[str], mode: str) -> dict:
    """The part of the JSON every mode shares: what was run, with which seed and policies."""
    return {"version": JSON_VERSION, "mode": mode, "variant": game.id, "deck": game.deck_name,
            "options": {k: (v if isinstance(v, (bool, int, float, str)) else str(v)) for k, v in game.options.items()},
            "preset": args.preset, "house": list(args.house or ()), "seed": args.seed, "players": n,
            "policies": names, "stats_file": args.stats, "stop_after": game.extra.stop_after}

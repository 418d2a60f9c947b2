"""`rulekit play`: whole games as the variant defines them, watched or played at the table."""
from __future__ import annotations

import argparse
import os
import secrets
import sys
from typing import Any

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2
MAX_SEED = 10**9


def _usage(msg: str) -> int:
    print(f"rulekit: error: {msg}", file=sys.stderr)
    return EXIT_USAGE


def winner_line(chips: list[Any]) -> str:
    """'Winner: seat 2 (+14 chips)' or 'Winners: seat 1 and seat 3 (+3 chips each)'."""
    best = max(chips)
    top = [f"seat {s}" for s, c in enumerate(chips) if c == best]
    shown = f"{best:+d}" if isinstance(best, int) else str(best)
    if len(top) == 1:
        return f"== Winner: {top[0]} ({shown} chips)"
    return f"== Winners: {', '.join(top[:-1])} and {top[-1]} ({shown} chips each)"


def cmd_play(args: argparse.Namespace, game_of, variant_files) -> int:
    """Play the variant (a whole game by default) and print it, or seat a human at the table."""
    if os.path.isdir(args.variant):
        # a folder: one game of every playable variant in it
        from .build import load_variant
        code = EXIT_OK
        for f in variant_files([args.variant]):
            if load_variant(f).meta.abstract:
                continue
            sub = argparse.Namespace(**{**vars(args), "variant": f, "log": None})
            code = max(code, cmd_play(sub, game_of, variant_files))
            print()
        return code
    from .engine.runner import make_agents, play
    game = game_of(args)
    meta = game.variant.meta
    n = args.players or meta.players_default
    if not meta.players_min <= n <= meta.players_max:
        return _usage(f"--players {n}: {meta.id} is for {meta.players_min} to {meta.players_max} players")
    if args.human is not None and not 0 <= args.human < n:
        return _usage(f"--human {args.human}: expected a seat from 0 to {n - 1} ({n} players)")
    if args.rounds is not None and args.rounds < 1:
        return _usage(f"--rounds {args.rounds}: expected 1 or more")
    # the log file is opened before the game: a bad path is reported before any work is lost
    from .cliargs import open_output
    log_file = open_output(args.log, "--log")
    seed = args.seed if args.seed is not None else secrets.randbelow(MAX_SEED)
    if args.human is None:
        from .transcript import transcript
        agents = make_agents(game, n, seed, args.policy)
        res = play(game, n, seed, agents, rounds=args.rounds, logging=True)
        print(f"seed {seed} (replay with --seed {seed})")
        print(transcript(game, res.events, res.chips))
        print(winner_line(res.chips))
    else:
        from .inert import inert
        from .table import Quit, Screen, Table
        screen = Screen()
        table = Table(game, n, args.human, screen)
        agents = make_agents(game, n, seed, args.policy, args.human, table)
        name = inert(meta.names.get("en", meta.id), keep_newlines=False)
        rounds = "" if args.rounds is None else f", {args.rounds} round{'s' if args.rounds != 1 else ''}"
        screen.say(f"{name}: {n} players, you are seat {args.human}{rounds}.", "heading")
        screen.say(f"Seed {seed}: replay this game with --seed {seed}. Keys at any question: "
                   "? rules of this phase, t the table, q quit.", "note")
        try:
            res = play(game, n, seed, agents, rounds=args.rounds, logging=True, observe=table.observe)
        except Quit:
            if log_file is not None:
                log_file.close()
            screen.say("You left the table.", "note")
            return EXIT_OK
        table.finish(res.chips, len(res.round_deltas))
    if log_file is not None:
        from .replay import write_log
        with log_file as fh:
            write_log(game, res, fh)
        print(f"log written to {args.log}")
    return EXIT_OK

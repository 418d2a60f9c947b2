"""`rulekit play`: whole games as the variant defines them, watched or played at the table.

Nothing played is thrown away: a game left with q or Ctrl-C, or stopped by an error, is saved
(to --log, else at the table to an autosave file) and `--resume FILE` continues it. The log is
written only when there is something to write, atomically, so an old file is never truncated.
"""
from __future__ import annotations

import argparse
import os
import secrets
import sys
from dataclasses import dataclass
from typing import Any

from rulekit.core.errors import RulekitError

EXIT_OK, EXIT_ERRORS, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
MAX_SEED = 10**9
# the time cap of a search opponent's decision at the table, unless the game's display.opponents
# sets one: the cap is checked between moves, so the wait ends a little after it (the 95th
# percentile under a second on a small shared machine: benchmarks/table_wait.py prints it)
TABLE_SECONDS = 0.5


def table_policy(game: Any) -> str:
    """The policy of the bots a person plays against when --policy names none: the game's
    display.opponents, else its `table` policy (how people play it), else its careful policy,
    else random; a search opponent thinks for at most TABLE_SECONDS a choice unless told otherwise."""
    spec = game.extra.display.opponents or next((p for p in ("table", "careful") if p in game.policies),
                                                       "random")
    name, _, opts = spec.partition(":")
    if name == "search" and "seconds=" not in opts:
        spec = f"{spec}:seconds={TABLE_SECONDS:g}"
    return spec


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


@dataclass
class _Run:
    """One game to play: its settings, where its log goes, and the saved game it continues."""

    game: Any
    n: int
    seed: int
    human: int | None
    policy: str
    rounds: int | None
    log_path: str | None  # --log (None: none; '-': standard output)
    house: tuple[str, ...] = ()
    trace: bool = False  # watching: the engine's event trace instead of the story
    resumed: str | None = None  # the saved game continued (--resume)
    resumer: Any = None
    dealer: int | None = None  # a simulated single round: seat 0 deals (--from-simulation)
    origin: str | None = None  # how to play this game again, when --seed alone would not
    verbose: bool = False  # at the table: every turn told as it happens (--verbose)
    chosen_for_table: bool = False  # the opponents are the table's choice for this game (no --policy)
    ask_all: bool = False  # at the table: asked even the questions the rules give nothing to decide on

    def fields(self) -> dict[str, Any]:
        from rulekit.people.savegame import save_fields
        return save_fields(self.human, self.policy, self.rounds)

    def save_target(self) -> str | None:
        """Where this game is saved when it stops: --log, else the saved game it continues."""
        return self.log_path if self.log_path not in (None, "-") else self.resumed

    def replaying(self) -> bool:
        """Still playing the saved game again (an interruption now has nothing new to save)."""
        return self.resumer is not None and not self.resumer.live


def _under(game) -> str:
    """' with these rules' when an option narrows the sizes the game is for."""
    meta = game.variant.meta
    return " with these rules" if len(game.player_sizes()) < meta.players_max - meta.players_min + 1 else ""


def cmd_play(args: argparse.Namespace, game_of: Any = None, variant_files: Any = None) -> int:
    """Play the variant (a whole game by default) and print it, or seat a human at the table."""
    if game_of is None or variant_files is None:  # as the command registry runs it
        from rulekit.cli import common
        return cmd_play(args, common.game_from_args, common.variant_files)
    if getattr(args, "resume", None) is not None:
        return _resume(args)
    if args.variant is None:
        return _usage("give a game to play (a variant file or id), or --resume FILE to continue a saved game")
    if getattr(args, "variant_file", None) is not None:
        return _usage("--variant names the variant of a saved game (with --resume); give the game to play "
                      "as the first argument")
    if os.path.isdir(args.variant):
        # a folder: one game of every playable variant in it
        from rulekit.engine.build import load_variant
        code = EXIT_OK
        for f in variant_files([args.variant]):
            if load_variant(f).meta.abstract:
                continue
            sub = argparse.Namespace(**{**vars(args), "variant": f, "log": None})
            code = max(code, cmd_play(sub, game_of, variant_files))
            print()
        return code
    game = game_of(args)
    meta = game.variant.meta
    n = args.players or meta.players_default
    if n not in game.player_sizes():
        return _usage(f"--players {n}: {meta.id} is for {game.sizes_text()} players{_under(game)}")
    if args.human is not None and not 0 <= args.human < n:
        return _usage(f"--human {args.human}: expected a seat from 0 to {n - 1} ({n} players)")
    if args.rounds is not None and args.rounds < 1:
        return _usage(f"--rounds {args.rounds}: expected 1 or more")
    if args.log is not None:
        # checked now, written only at the end: a bad path is found before any work, and an old
        # log is left as it was until there is a game to put in its place
        from rulekit.cli.args import check_replaceable
        check_replaceable(args.log, "--log")
    if getattr(args, "from_simulation", None) is not None:
        return _from_simulation(args, game, n)
    seed = args.seed if args.seed is not None else secrets.randbelow(MAX_SEED)
    # the bots a person plays against play as the table_policy says, unless told otherwise; watched
    # games are played by the game's documented careful policy
    if args.policy is not None:
        policy = args.policy
    elif args.human is not None:
        policy = table_policy(game)
    else:
        policy = "careful" if "careful" in game.policies else "random"
    return _play(_Run(game, n, seed, args.human, policy, args.rounds, args.log,
                      tuple(getattr(args, "house", None) or ()), trace=bool(getattr(args, "trace", False)),
                      verbose=bool(getattr(args, "verbose", False)),
                      chosen_for_table=args.human is not None and args.policy is None,
                      ask_all=bool(getattr(args, "ask_all", False))))


def _from_simulation(args: argparse.Namespace, game: Any, n: int) -> int:
    """--from-simulation SEED:ROUND: round ROUND (from 0) of `simulate --seed SEED` in single-round
    mode, played again with a transcript: the same seed, seat 0 dealing, the same policies."""
    from rulekit.cli.policyspec import policy_spec
    from rulekit.engine.runner import round_seed, seat_policies
    given = [flag for flag, v in (("--seed", args.seed), ("--rounds", args.rounds)) if v is not None]
    if given:
        return _usage(f"--from-simulation sets the seed and plays one round: leave out {', '.join(given)}")
    base, sep, k = str(args.from_simulation).partition(":")
    try:
        seed, index = int(base), int(k)
    except ValueError:
        seed, index = 0, -1
    if not sep or index < 0 or abs(seed) > 10 ** 30 or index > 10 ** 12:
        return _usage(f"--from-simulation expects SEED:ROUND (whole numbers, ROUND from 0), found "
                      f"'{args.from_simulation}'")
    policy = policy_spec(game, args.policy)
    seat_policies(game, n, policy)  # unknown names fail here
    origin = (f"round {index} of `rulekit simulate {game.id} --seed {seed}` (seat 0 deals; policies: {policy}); "
              f"replay with --from-simulation {seed}:{index}")
    return _play(_Run(game, n, round_seed(seed, index), args.human, policy, 1, args.log,
                      tuple(getattr(args, "house", None) or ()), dealer=0, origin=origin,
                      trace=bool(getattr(args, "trace", False)), verbose=bool(getattr(args, "verbose", False)),
                      ask_all=bool(getattr(args, "ask_all", False))))


def _resume(args: argparse.Namespace) -> int:
    """--resume FILE: continue a saved game with the settings it was saved with."""
    given = [flag for flag, v in (("a game", args.variant), ("-o", args.option), ("--preset", args.preset),
                                  ("--deck", args.deck), ("--seed", args.seed), ("--players", args.players),
                                  ("--rounds", args.rounds), ("--human", args.human), ("--policy", args.policy))
             if v is not None]
    if given:
        return _usage(f"--resume continues a saved game with its own settings: leave out {', '.join(given)} "
                      "(--variant FILE names the variant file if it is not found by its id)")
    if args.log is not None:
        from rulekit.cli.args import check_replaceable
        check_replaceable(args.log, "--log")
    from rulekit.people.resume import Resumer, load_saved
    house = tuple(args.house or ())
    game, log = load_saved(args.resume, args.variant_file, house)
    run = _Run(game, log["players"], log["seed"], log.get("human"), log.get("policy", "random"),
               log.get("rounds_requested"), args.log, house, trace=bool(getattr(args, "trace", False)),
               resumed=args.resume, verbose=bool(getattr(args, "verbose", False)),
                      ask_all=bool(getattr(args, "ask_all", False)), dealer=log.get("dealer"))
    run.resumer = Resumer(game, log, args.resume)
    return _play(run)


def _play(run: _Run) -> int:
    if run.human is not None:
        return _at_table(run)
    return _watch(run) if run.trace else _at_table(run)


def opponents_words(game: Any, policy: str) -> str:
    """How the bots play, in words for the first screen."""
    if policy == "random":
        return "Your opponents play at random (any legal move)."
    if policy == "first":
        return "Your opponents always take the first legal move."
    if policy.partition(":")[0] == "search":
        from rulekit.engine.runner import policy_options
        seconds = policy_options(policy)[1].get("seconds")
        cap = "about a second or less a choice" if seconds is None else f"at most {_seconds_words(seconds)} a choice"
        return ("Your opponents think ahead: at each choice they try every option in many deals of the "
                "cards they cannot see, played out carefully, and take the one that clearly wins more "
                f"({cap}).")
    from rulekit.core.inert import inert
    pol = game.policies.get(policy, {})
    how = {"careful": "carefully", "table": "as people at a table do"}.get(policy, f"by the policy '{policy}'")
    brief = inert(str(pol.get("brief", "")), keep_newlines=False).strip().rstrip(".")
    if brief:  # the few words the variant gives for this screen: 'they stake 1 to 3 chips ...'
        return f"Your opponents play {how}: {brief}."
    desc = inert(str(pol.get("description", "")), keep_newlines=False).strip()
    # The description is a whole sentence of its own ("How a careful player plays: ..."), so it follows
    # a full stop rather than a colon (a colon would read "play carefully: How a careful player plays:").
    return f"Your opponents play {how}." + (f" {desc}" if desc else "")


def _seconds_words(seconds: float) -> str:
    """'a second', '1.5 seconds', '0.5 seconds'."""
    return "a second" if seconds == 1 else f"{seconds:g} seconds"


def _table_choice_words(game: Any, run: _Run) -> str:
    """The first screen's word that the opponents are the table's choice for this game, and the
    quicker other choice ('' when the player chose them, or they are the usual careful ones)."""
    if not run.chosen_for_table or run.policy.partition(":")[0] != "search":
        return ""
    other = next((p for p in ("table", "careful") if p in game.policies), "random")
    from rulekit.core.inert import inert
    name = inert(game.variant.meta.names.get("en", game.variant.meta.id), keep_newlines=False)
    how = {"careful": "playing carefully", "table": "playing as people at a table do"}.get(other, "playing at random")
    return (f"This table chooses them for {name}, where thinking ahead plays clearly better than {how}; "
            f"--policy {other} gives quicker, simpler opponents.")


def _rounds_total(run: _Run) -> int | None:
    """The rounds the game is played for ("round 3 of 12"), when known before it starts."""
    if run.rounds is not None:
        return run.rounds
    try:
        ctx = run.game.new_ctx(run.n, run.seed, None, False)
        open_ended = run.game.extra.open_ended
        if open_ended is not None and open_ended(ctx):
            return None  # played until the players stop (or the end condition)
        return int(run.game.rounds(ctx))
    except Exception:  # a length that depends on play: not said
        return None


def _watch(run: _Run) -> int:
    """--trace: a game of bots, printed as the engine's event trace at the end (or as far as it
    went when interrupted)."""
    from rulekit.engine.runner import make_agents, play
    from rulekit.people.transcript import transcript
    game, r = run.game, run.resumer
    agents = make_agents(game, run.n, run.seed, run.policy)
    if r is not None:
        agents = r.wrap(agents)
    try:
        res = play(game, run.n, run.seed, agents, rounds=run.rounds, logging=True, dealer=run.dealer,
                   observe=r.observe if r is not None else None)
        if r is not None:
            r.finish()
    except KeyboardInterrupt as exc:
        part = getattr(exc, "partial_game", None)
        if part is None:
            raise
        from rulekit.people.savegame import progress
        print(f"seed {run.seed} (replay with --seed {run.seed})")
        print(transcript(game, part.events))  # no "Result": the game did not end
        print(f"== Interrupted {progress(part)}")
        print("== Chips so far: " + ", ".join(f"seat {i}: {c:+d}" if isinstance(c, int) else f"seat {i}: {c}"
                                             for i, c in enumerate(part.chips)))
        _save_stopped(run, part, lambda text, keep="": print(text))
        return EXIT_INTERRUPTED
    except RulekitError as exc:
        _save_on_error(run, exc)
        raise
    print(run.origin or f"seed {run.seed} (replay with --seed {run.seed})")
    if run.resumed is not None:
        print(f"(continued from the saved game {run.resumed})")
    print(transcript(game, res.events, res.chips))
    print(winner_line(res.chips))
    return _write_final(run, res)


def _at_table(run: _Run) -> int:
    """A person plays one seat at the terminal; q or Ctrl-C saves the game and says how to go on."""
    from rulekit.engine.runner import make_agents, play
    from rulekit.core.inert import inert
    from rulekit.people.table import EndOfInput, Quit, Screen, Table
    game, r = run.game, run.resumer
    meta = game.variant.meta
    screen = Screen()
    table = Table(game, run.n, run.human, screen, verbose=run.verbose, ask_all=run.ask_all)
    total = _rounds_total(run)
    table.nar.rounds = total
    agents = make_agents(game, run.n, run.seed, run.policy, run.human, table)
    name = inert(meta.names.get("en", meta.id), keep_newlines=False)
    rounds = "" if total is None else f", {total} round{'s' if total != 1 else ''}"
    if run.human is None:
        table.nar.viewer = run.n  # an onlooker: sees what the whole table sees, when it is shown
        # watching: the same story as at the table, told for everyone (every card as it is shown)
        # a simulated round says which one it is and how to see it again (--from-simulation)
        replay = run.origin or f"seed {run.seed} (replay with --seed {run.seed})"
        screen.say(f"{name}: {run.n} players{rounds}, {replay}.", "heading")
        screen.say(opponents_words(game, run.policy).replace("Your opponents", "The players", 1), "note")
    else:
        spec = game.extra.seat_draw
        if spec is not None and spec.seating == "by_draw":
            # the draw decides the seats: a seat asked for is not yet the seat sat at
            screen.say(f"{name}: {run.n} players{rounds}. Where you sit is drawn for (you asked for seat "
                       f"{run.human}; the draw decides).", "heading")
        else:
            screen.say(f"{name}: {run.n} players, you are seat {run.human}{rounds}.", "heading")
        screen.say(opponents_words(game, run.policy), "note")
        if _table_choice_words(game, run):
            screen.say(_table_choice_words(game, run), "note")
        if game.extra.display.intro:
            screen.say(inert(game.extra.display.intro, keep_newlines=False), "note")
        replay = f"replay this game with --seed {run.seed}"
        if "seconds=" in run.policy:  # a clock in the choices: the seed fixes the deals, the log the choices
            replay = (f"the same deals with --seed {run.seed} (opponents on a clock may choose otherwise; "
                      "--log FILE keeps this game to replay exactly)")
        for said, _ in table.unasked.values():  # the questions the table answers for you, and why
            screen.say(inert(said, keep_newlines=False), "note")
        screen.say(f"Seed {run.seed}: {replay}. Keys at any question: "
                   "? rules of this phase, t the table, h the odds, q quit (Ctrl-D too).", "note")
    observe = table.observe
    if r is not None:
        screen.say(f"Continuing the saved game {run.resumed}: its moves are played again first.", "note")
        r.attach(table)
        agents, observe = r.wrap(agents), r.observe
    try:
        res = play(game, run.n, run.seed, agents, rounds=run.rounds, logging=True, observe=observe,
                   dealer=run.dealer)
        if r is not None:
            r.finish()
    except (Quit, KeyboardInterrupt) as exc:
        part = getattr(exc, "partial_game", None)
        if part is None:
            raise
        quit_ = isinstance(exc, Quit)
        table.flush()
        screen.say("")
        if isinstance(exc, EndOfInput):
            screen.say("End of input (Ctrl-D): you left the table.", "note")
        else:
            screen.say("You left the table." if quit_ else "Interrupted (Ctrl-C).", "note")
        _save_stopped(run, part, _whole_lines(screen), autosave=run.human is not None)
        return EXIT_OK if quit_ else EXIT_INTERRUPTED
    except RulekitError as exc:
        _save_on_error(run, exc)
        raise
    table.finish(res.chips, len(res.round_deltas))
    return _write_final(run, res)


def _whole_lines(screen: Any):
    """A note writer for the table that wraps a long line between words like the rest of the
    table, never inside a word or inside `keep` (a path or a command: copied whole, on a line of
    its own when it does not fit beside the words before it)."""
    import textwrap
    from rich.text import Text
    from rulekit.core.inert import inert
    from rulekit.people.table.screen import STYLES

    def say(text: str, keep: str = "") -> None:
        line = inert(text, keep_newlines=False)
        width = screen.console.width
        if not screen.console.soft_wrap and len(line) > width > 20:
            whole = inert(keep, keep_newlines=False)
            if whole:  # no-break spaces: textwrap never breaks there
                line = line.replace(whole, whole.replace(" ", "\xa0"))
            line = "\n".join(textwrap.wrap(line, width=width, subsequent_indent="  ", break_long_words=False,
                                           break_on_hyphens=False)).replace("\xa0", " ")
        screen.console.print(Text(line, style=STYLES["note"]), soft_wrap=True)
    return say


def _save_stopped(run: _Run, part: Any, say, autosave: bool = False) -> None:
    """Save an interrupted game (--log, the saved game it continues, or with `autosave` the
    autosave file) and tell the player where it is and how to continue; a failure is said plainly."""
    from rulekit.people.savegame import autosave_path, progress, resume_command, save_game
    if run.replaying():
        command = resume_command(run.game, run.resumed, run.house)
        say(f"The saved game {run.resumed} is unchanged; to continue it: {command}", command)
        return
    path = run.save_target()
    if path is None and autosave:
        path = autosave_path(run.game.id, run.seed)
    if path is None:
        return
    fail = save_game(run.game, part, path, run.fields(), make_folder=path != run.save_target())
    if fail is not None:
        print(f"rulekit: the game could not be saved to {path}: {fail}", file=sys.stderr)
        return
    say(f"The game is saved in {path} ({progress(part)}).", path)
    command = resume_command(run.game, path, run.house)
    say(f"To continue it: {command}", command)


def _save_on_error(run: _Run, exc: BaseException) -> None:
    """A rule error stopped the game: the moves so far go to --log (or the saved game continued)."""
    part = getattr(exc, "partial_game", None)
    path = run.save_target()
    if part is None or path is None or run.replaying():
        return
    from rulekit.people.savegame import progress, save_game
    fail = save_game(run.game, part, path, run.fields())
    if fail is not None:
        print(f"rulekit: the game could not be saved to {path}: {fail}", file=sys.stderr)
    else:
        print(f"rulekit: the game so far ({progress(part)}) is saved in {path}",
              file=sys.stderr)


def _write_final(run: _Run, res: Any) -> int:
    """The finished game's log: to --log, else over the saved game it continued."""
    if run.log_path == "-":
        from rulekit.people.replay import write_log
        res.log.update(run.fields())
        write_log(run.game, res, sys.stdout)
        print()
        return EXIT_OK
    path = run.save_target()
    if path is None:
        return EXIT_OK
    from rulekit.people.savegame import save_game
    fail = save_game(run.game, res, path, run.fields())
    if fail is not None:
        print(f"rulekit: error: the log could not be written to {path}: {fail}", file=sys.stderr)
        return EXIT_ERRORS
    if run.log_path is not None:
        print(f"log written to {path}")
    else:
        import shlex
        from rulekit.people.savegame import program
        # the command on a line of its own: a long path must not wrap it in the middle of a word
        print(f"The finished game is saved in {path}.")
        print(f"To replay it: {shlex.quote(program())} replay {shlex.quote(path)}")
    return EXIT_OK

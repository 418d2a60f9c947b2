"""Saved games: where an interrupted game is kept, how it is written, and the command that
continues it (`rulekit play --resume FILE`)."""
from __future__ import annotations

import os
import re
import shlex
from typing import Any

from rulekit.core.errors import RulekitError

#: characters kept from a variant id in an autosave file name (ids are already plain; this is a guard)
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


def state_folder() -> str:
    """$XDG_STATE_HOME/rulekit, or ~/.local/state/rulekit (the XDG base directory default)."""
    base = os.environ.get("XDG_STATE_HOME", "")
    if not os.path.isabs(base):  # the spec says a relative value is ignored
        base = os.path.join(os.path.expanduser("~"), ".local", "state")
    return os.path.join(base, "rulekit")


def autosave_path(game_id: str, seed: int) -> str:
    """The file a game left without --log is saved in: <state folder>/<variant id>-<seed>.json, or
    <variant id>-<seed>-2.json (-3, ...) when that is taken: an earlier saved game is never replaced."""
    name = _UNSAFE.sub("_", str(game_id))[:100] or "game"
    folder = state_folder()
    path = os.path.join(folder, f"{name}-{seed}.json")
    k = 2
    while os.path.exists(path) and k < 10_000:
        path = os.path.join(folder, f"{name}-{seed}-{k}.json")
        k += 1
    return path


def save_fields(human: int | None, policy: str, rounds: int | None) -> dict[str, Any]:
    """What a resume needs besides the game itself: the human's seat, the bots' policy, the length;
    only those that differ from the defaults (a watched game of random bots logs as it always did)."""
    out: dict[str, Any] = {}
    if human is not None:
        out["human"] = human
    if policy != "random":
        out["policy"] = policy
    if rounds is not None:
        out["rounds_requested"] = rounds
    return out


def save_game(game: Any, res: Any, path: str, fields: dict[str, Any], make_folder: bool = False) -> str | None:
    """Write a game's log (whole or interrupted) to `path` atomically; None when it is written,
    else the reason it could not be, in plain words (the caller says so and carries on)."""
    from rulekit.people.replay import write_log_file
    res.log.update(fields)
    try:
        if make_folder:
            os.makedirs(os.path.dirname(path), exist_ok=True)
        write_log_file(game, res, path)
    except OSError as exc:
        return f"{exc.strerror or exc} ({exc.filename or path})"
    except RulekitError as exc:
        return exc.first.message
    return None


def program() -> str:
    """How to call rulekit again as this process was called: 'rulekit' when that name finds this
    program, else the path it was started by (a virtualenv's .venv/bin/rulekit not on PATH)."""
    import shutil
    import sys
    started = sys.argv[0] if sys.argv else ""
    if os.path.basename(started) != "rulekit":
        return "rulekit"  # run another way (python -m, a test): the usual name
    found = shutil.which("rulekit")
    if found and os.path.realpath(found) == os.path.realpath(started):
        return "rulekit"
    return started


def resume_command(game: Any, path: str, house: list[str] | tuple[str, ...] = ()) -> str:
    """The exact command that continues the game saved in `path` (played with these house files)."""
    from rulekit.lang.loader import default_search_path, find_variant
    cmd = [program(), "play", "--resume", path]
    found = find_variant(game.id, None, default_search_path())
    if found is None or os.path.realpath(found) != os.path.realpath(game.variant.file):
        cmd += ["--variant", game.variant.file]  # a variant of your own: resume needs its file
    for f in house:
        cmd += ["--house", f]
    return shlex.join(cmd)


def rounds_done(k: int, started: int | None = None) -> str:
    """Where a stopped game stands, from its `k` finished rounds and the rounds `started`:
    'after round 2' / 'during round 3' / 'during round 1, before any round ended'."""
    if not k:
        return "during round 1, before any round ended"
    return f"during round {k + 1}" if started is not None and started > k else f"after round {k}"


def progress(part: Any) -> str:
    """rounds_done() of a stopped game's partial result (its round-start events say whether a
    round was under way)."""
    started = sum(1 for e in getattr(part, "events", None) or () if e.get("t") == "round")
    return rounds_done(len(part.round_deltas), started)

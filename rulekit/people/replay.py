"""Game logs: written with digests, read as untrusted input, replayed decision by decision.

A log is checked before anything is replayed: a regular file of at most MAX_LOG_BYTES (never a
pipe or a device), JSON without NaN/Infinity, nested at most MAX_LOG_DEPTH deep, valid against
schemas/log.schema.json, and its digests must hold. The variant is found by its id among the
known variants (or at a path the user gives); a path inside the log is read only when the user
says so (--trust-log-path). A replay that differs names the round, the decision and what differed.

The digests make a log tamper-evident against edits that do not recompute them; they carry no
secret, so they do not stop a forger who rewrites every digest (the replay itself still runs the
real rules, so a forged log can only describe a game the rules allow).
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from typing import IO, Any

from rulekit.core.atomic import write_atomic
from rulekit.core.errors import RuleError, RulekitError, Span, error

LOG_VERSION = 2
MAX_LOG_BYTES = 64_000_000
MAX_LOG_DEPTH = 64
# Events and decisions in one log or saved game. The longest game (10,000 rounds) of the busiest
# shipped variant logs about 180 events and 19 decisions a round, about 120 bytes an event, so a
# real log under MAX_LOG_BYTES holds at most about 550,000 events; a log padded with more is refused
# before its schema and digests are checked (which would take seconds per million events), most of
# them before the JSON is even parsed.
MAX_LOG_EVENTS = 1_000_000
MAX_LOG_MOVES = 1_000_000
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
# the fields that determine a game (with the variant's digest); their digest is `game_sha256`
GAME_FIELDS = ("version", "variant_sha256", "deck", "options", "preset", "players", "seed", "rounds", "dealer",
               "stack", "moves", "events_sha256")
# fields of a saved game (rulekit play: the human's seat, the bots' policy, the length asked for,
# interrupted or not): in the digest when present, so older logs keep their digests
SAVE_FIELDS = ("partial", "human", "policy", "rounds_requested")


def _err(where: str, message: str, code: str = "E070", hint: str = "") -> RulekitError:
    return RuleError(error(Span(where, 1, 1), code, message, hint=hint))


def variant_digest(files: list[str] | tuple[str, ...]) -> str:
    """sha256 over the bytes of every file that made a variant (in order)."""
    h = hashlib.sha256()
    for f in files:
        with open(f, "rb") as fh:
            data = fh.read()
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def game_digest(log: dict) -> str:
    """sha256 over the fields of a log that determine its game (canonical JSON)."""
    fields = {k: log.get(k) for k in GAME_FIELDS}
    fields.update((k, log[k]) for k in SAVE_FIELDS if k in log)
    return hashlib.sha256(json.dumps(fields, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def depth_of(value: Any, limit: int) -> int:
    """The nesting depth of lists, tuples and dicts in `value` (subclasses too: the writer measures
    the engine's own containers, such as its observed event list, and must count exactly what
    JSON will write as arrays and objects), counted without recursion up to `limit`+1 (level by
    level: a million small events take well under a second)."""
    level = [value] if isinstance(value, _CONTAINERS) else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return depth
        nxt: list = []
        for v in level:
            nxt += [x for x in (v.values() if isinstance(v, dict) else v) if isinstance(x, _CONTAINERS)]
        level = nxt
    return depth


_CONTAINERS = (list, tuple, dict)


def build_log(game: Any, res: Any) -> dict:
    """The log of a played game (res: GameResult of a logged run) with its digests."""
    log = dict(res.log)
    log["version"] = LOG_VERSION
    log["variant_sha256"] = variant_digest(game.variant.files)
    log["house"] = [h.file for h in game.variant.house]  # shown only: the house files it was played with
    log["game_sha256"] = game_digest(log)
    log["events"] = res.events
    return log


def write_log(game: Any, res: Any, fh: IO[str]) -> None:
    """Write a game's log as JSON; a value nested too deeply is a clear error, not a crash."""
    fh.write(log_text(game, res))


def log_text(game: Any, res: Any) -> str:
    """A game's log as JSON text (what write_log writes); a value nested too deeply is E061."""
    log = build_log(game, res)
    if depth_of(log, MAX_LOG_DEPTH) > MAX_LOG_DEPTH:
        raise _err(game.variant.file, f"the game log holds a value nested more than {MAX_LOG_DEPTH} deep: "
                   "it cannot be written", code="E061")
    return json.dumps(log, indent=1, ensure_ascii=False, default=str)


def write_log_file(game: Any, res: Any, path: str) -> None:
    """Write a game's log to `path` atomically: a temporary file in the same folder, then renamed
    over `path`, so a crash or Ctrl-C while writing never leaves a partly written or empty log."""
    text = log_text(game, res)  # built first: an error here leaves the file as it was
    write_atomic(path, text)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a log may hold")


def read_log(path: str) -> dict:
    """Read and check a log file (size, kind, JSON, depth, schema, digests); raise RulekitError."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO must not block
    except OSError as exc:
        raise _err(path, f"cannot read the log: {exc.strerror}", code="E001") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file (a device or a pipe)"
            raise _err(path, f"the log is {kind}: expected a JSON file written by rulekit play --log", code="E001")
        if st.st_size > MAX_LOG_BYTES:
            raise _err(path, f"the log is {st.st_size} bytes: the limit is {MAX_LOG_BYTES}", code="E001")
        with os.fdopen(fd, "rb", closefd=False) as fh:
            raw = fh.read(MAX_LOG_BYTES + 1)
    finally:
        os.close(fd)
    if len(raw) > MAX_LOG_BYTES:
        raise _err(path, f"the log is more than {MAX_LOG_BYTES} bytes", code="E001")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _err(path, f"the log is not UTF-8 text (byte {exc.start})", code="E001") from None
    from rulekit.core.errors import remember_source
    remember_source(path, "")  # errors name the log; its JSON is not quoted back
    # counted in the bytes before parsing (a padded log would take seconds and memory to parse):
    # a real log has about 1.4 maps and 6 commas per event
    for sign, most, what in ((b"{", MAX_LOG_EVENTS * 3 // 2, "maps"), (b",", MAX_LOG_EVENTS * 8, "values")):
        if raw.count(sign) > most:
            raise _err(path, f"the log holds more than {most} {what}: a log holds at most {MAX_LOG_EVENTS} events "
                       f"and {MAX_LOG_MOVES} decisions", code="E001")
    if not text.strip():
        raise _err(path, "the log is empty: expected a JSON object written by rulekit play --log", code="E001")
    try:
        log = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise _err(path, f"the log is nested too deeply (limit {MAX_LOG_DEPTH})", code="E001") from None
    except ValueError as exc:  # JSONDecodeError, NaN/Infinity, numbers of too many digits
        where = f" (line {exc.lineno}, column {exc.colno})" if hasattr(exc, "lineno") else ""
        raise _err(path, f"the log is not valid JSON{where}: {str(exc)[:200]}", code="E001") from None
    for key, most in (("events", MAX_LOG_EVENTS), ("moves", MAX_LOG_MOVES)):
        xs = log.get(key) if isinstance(log, dict) else None
        if isinstance(xs, list) and len(xs) > most:
            raise _err(path, f"the log has {len(xs)} {'events' if key == 'events' else 'decisions'}: "
                       f"the limit is {most}", code="E001")
    if depth_of(log, MAX_LOG_DEPTH) > MAX_LOG_DEPTH:
        raise _err(path, f"the log is nested more than {MAX_LOG_DEPTH} deep", code="E001")
    if not isinstance(log, dict):
        raise _err(path, "the log must be a JSON object written by rulekit play --log", code="E001")
    _check_schema(path, log)
    if game_digest(log) != log["game_sha256"]:
        raise _err(path, "the log was changed after it was written: its game digest does not match "
                   "(options, seed, players, decisions or events edited)")
    if "events" in log and _events_digest(log["events"]) != log["events_sha256"]:
        raise _err(path, "the log's events were changed after it was written: they do not match their digest")
    return log


def _events_digest(events: list) -> str:
    from rulekit.engine.runner import events_digest
    return events_digest(events)


def _check_schema(path: str, log: dict) -> None:
    import jsonschema
    from rulekit.lang.schema import load_schema
    if log.get("version") != LOG_VERSION:
        raise _err(path, f"log version {str(log.get('version'))[:20]}: this rulekit replays version {LOG_VERSION}",
                   code="E001", hint="record the game again with rulekit play --log")
    validator = jsonschema.Draft202012Validator(load_schema("log"))
    # the long lists (events, decisions) are checked here item by item, the rest by the schema with a
    # sample of them: jsonschema takes about 50 microseconds an item, nearly a minute for a million
    for key, ok, want in (("events", lambda e: type(e) is dict, "an object"),
                          ("moves", lambda m: type(m) is int and 0 <= m <= 20000, "a whole number from 0 to 20000")):
        xs = log.get(key)
        if isinstance(xs, list) and len(xs) > 2:
            bad = next((i for i, x in enumerate(xs) if not ok(x)), None)
            if bad is not None:
                raise _err(path, f"{key}[{bad}]: expected {want}, found {json.dumps(xs[bad])[:60]}", code="E010")
            log = {**log, key: xs[:2]}
    err = next(iter(sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))), None)
    if err is not None:
        field = "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p))
                        for i, p in enumerate(err.absolute_path)) or "the log"
        raise _err(path, f"{field}: {err.message[:300]}", code="E010")


def locate_variant(log: dict, variant: str | None, trust_log_path: bool) -> str:
    """The variant file to replay with: the user's path, else the log's id among the known variants."""
    from rulekit.lang.loader import all_variant_ids, default_search_path, find_variant
    if variant is not None:
        if os.path.isfile(variant):
            return variant
        found = find_variant(variant, None, default_search_path()) if _ID.match(variant) else None
        if found is None:
            raise _err("--variant", f"no variant file or id '{variant}'", code="E001")
        return found
    if trust_log_path and isinstance(log.get("variant"), str) and os.path.isfile(log["variant"]):
        return log["variant"]
    vid = log["variant_id"]
    found = find_variant(vid, None, default_search_path()) if _ID.match(vid) and not vid.endswith(
        (".yaml", ".yml")) else None
    if found is None:
        from rulekit.core.errors import did_you_mean
        raise _err("<log>", f"no known variant with id '{vid}'",
                   hint=did_you_mean(vid, all_variant_ids(default_search_path()))
                   or "give the variant file with --variant FILE")
    return found


def replay(game: Any, log: dict, where: str = "<log>") -> Any:
    """Replay a checked log on `game`; raise E070 naming the first difference."""
    from rulekit.engine.runner import play
    if log.get("partial"):
        raise _err(where, f"this is a saved game, interrupted after {_rounds_words(log['rounds'])}: "
                   "it has no end to replay", hint=f"continue it with: rulekit play --resume {where}")
    got = variant_digest(game.variant.files)
    if got != log["variant_sha256"]:
        raise _err(where, "the variant is not the one the game was played with (its files' digest differs): "
                   "the rules changed since the log was written",
                   hint="replay with the variant file of that game: --variant FILE")
    if game.options != log["options"]:
        diff = sorted(k for k in set(game.options) | set(log["options"]) if game.options.get(k) != log["options"].get(k))
        raise _err(where, f"the log's options do not match the variant's: {', '.join(diff[:10])}")
    check_fields(where, log, game)
    n = log["players"]
    logged = [e for e in log.get("events", ()) if e.get("t") == "choose" and not e.get("forced")]
    script = _CheckedScript(log["moves"], logged if len(logged) == len(log["moves"]) else None)
    try:
        res = play(game, n, log["seed"], [script] * n, rounds=log["rounds"], logging=True,
                   dealer=log.get("dealer"), stack=log.get("stack"))
    except RulekitError as exc:
        if exc.first.code == "E070":
            raise
        raise _err(where, f"replay stopped after decision {script.pos}: {exc.first.message[:300]}") from None
    if "events" in log:
        _compare(where, log["events"], res.events)
    if res.log["events_sha256"] != log["events_sha256"]:
        raise _err(where, "the replayed events differ from the log (their digest differs)")
    if script.pos != len(log["moves"]):
        raise _err(where, f"the log has {len(log['moves'])} decisions but the game took {script.pos}: "
                   f"{len(log['moves']) - script.pos} decisions left over")
    return res


def check_fields(where: str, log: dict, game: Any) -> None:
    """Every field of a checked log or saved game against the rules of `game` (its schema gives
    only the types): the table size one the game is for, the dealer, the human's seat and the
    seating within that table (the seating a permutation of it), a stacked deck naming cards of
    the game's deck, each at most once, on zones the game has, and no more whole rounds played
    than were asked for. Raises E010 naming the field, what was expected and what was found."""
    n = log["players"]
    if n not in game.player_sizes():
        raise _err(where, f"players: {n}, but {game.id} is for {game.sizes_text()} players", code="E010")
    for key in ("dealer", "human"):
        v = log.get(key)
        if v is not None and not 0 <= v < n:
            raise _err(where, f"{key}: seat {v}, expected a seat from 0 to {n - 1} ({n} players)", code="E010")
    seating = log.get("seating")
    if seating is not None and sorted(seating) != list(range(n)):
        raise _err(where, f"seating: {json.dumps(seating)[:80]}, expected each seat from 0 to {n - 1} exactly once",
                   code="E010")
    stack = log.get("stack")
    if stack:
        named: set[str] = set()
        for zone, cards in stack.items():
            if zone not in game.variant.zones:
                raise _err(where, f"stack: no zone '{zone[:100]}' in {game.id}", code="E010")
            for cid in cards:
                if cid not in game.card_index:
                    raise _err(where, f"stack.{zone}: no card '{cid[:100]}' in the deck", code="E010")
                if cid in named:
                    raise _err(where, f"stack.{zone}: card '{cid}' is listed twice (each card is in the deck once)",
                               code="E010")
                named.add(cid)
    asked = log.get("rounds_requested")
    if asked is not None and log["rounds"] > asked:
        raise _err(where, f"rounds: {log['rounds']} played, but rounds_requested is {asked}", code="E010")


class _CheckedScript:
    """Plays the log's decisions; a decision out of range or missing is an E070 naming it."""

    name = "scripted"

    def __init__(self, moves: list[int], logged: list[dict] | None = None):
        self.moves = moves
        self.logged = logged or []  # the log's own record of each decision, checked as play reaches it
        self.pos = 0

    def act(self, d: Any) -> int:
        if self.pos < len(self.logged):
            e = self.logged[self.pos]
            now = {"choice": d.choice.id, "player": d.player, "of": len(d.actions)}
            was = {k: e.get(k) for k in now}
            if was != now:
                diff = ", ".join(f"{k} {was[k]!r} in the log, {now[k]!r} now" for k in now if was[k] != now[k])
                raise RuleError(error(d.choice.span, "E070", f"replay differs at decision {self.pos} (round "
                                      f"{d.ctx.round_no + 1}): {diff}"))
        if self.pos >= len(self.moves):
            raise RuleError(error(d.choice.span, "E070", f"the log has {len(self.moves)} decisions: the game needs "
                                  f"more (decision {self.pos}, round {d.ctx.round_no + 1}, choice '{d.choice.id}')"))
        i = self.moves[self.pos]
        if not 0 <= i < len(d.actions):
            raise RuleError(error(d.choice.span, "E070", f"decision {self.pos} (round {d.ctx.round_no + 1}, choice "
                                  f"'{d.choice.id}', seat {d.player}): index {i} is not one of the "
                                  f"{len(d.actions)} legal actions"))
        self.pos += 1
        return i


def _compare(where: str, want: list, got: list) -> None:
    """Raise E070 at the first event that differs: its round, decision index and the two versions."""
    rnd, decision = 0, 0
    for i in range(max(len(want), len(got))):
        a = want[i] if i < len(want) else None
        b = got[i] if i < len(got) else None
        if a != b:
            what = (f"the log has {_show(a)}, the replay has {_show(b)}")
            raise _err(where, f"replay differs in round {rnd + 1} at decision {decision} (event {i}): {what}")
        if b and b.get("t") == "round":
            rnd = b.get("round", rnd)
        if b and b.get("t") == "choose" and not b.get("forced"):
            decision += 1


def _show(e: Any) -> str:
    if e is None:
        return "nothing"
    return json.dumps(e, ensure_ascii=False, default=str)[:200]


def _rounds_words(k: int) -> str:
    return f"{k} whole round{'s' if k != 1 else ''}"

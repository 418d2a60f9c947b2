"""A whole round as one generated function per game and table size: Game.play_round written out.

`round_player` writes, for a table of `n`, the function `play_round(ctx, OBS)` that does what the
phase plan loop did: up to MAX_REDEALS deals, each starting from the round's fresh state (the
lines of rulekit.engine.roundstart written in place), then every phase in the file's order, its
entry condition written inline where it is generated code (rulekit.lang.expr.codegen) and called
where it is not, its steps called directly. A phase whose condition the options settle is
written without a test (always) or not at all (never). `ctx.where` names each phase as it is
tried, an `end_round` ends the round, a `redeal` deals again (recorded), and any other run-time
failure is raised located at its phase (or the step inside it) as before. `OBS` is the game's
statistics observer (None: none), told as each deal starts and as the round ends.

A simulation plays every round on one state restarted with the round's seed: called as
`play_round(ctx, OBS, SEED, D)`, the function first does what Game.restart(ctx, SEED,
round_next=True) does (the generator reseeded, a new game's records, variables, chips and
counters, the game variables at their start), with D as dealer, written in place too, so a
simulated round is one call (rulekit.engine.runner.run_chunk).

Like the round start, the source holds only this module's tokens and whole numbers: phase ids,
the phases' functions, the conditions' constants and the helpers below are bound constants (Kn),
so a variant's text never becomes code.
"""
from __future__ import annotations

import random
import re
from _random import Random as _CRandom
from typing import Any, Callable

from rulekit.core.errors import RuleError, Span, error
from rulekit.lang.expr.codebuild import compile_cached
from rulekit.lang.expr.codegen import FAST_ERRORS, HELPERS, SAFE_BUILTINS
from rulekit.lang.expr.fastcode import fast_code
from rulekit.lang.expr.scope import EVAL_BUDGET
from rulekit.engine.roundstart import Source, add_game_vars, round_source
from rulekit.engine.agents import M64
from rulekit.engine.steps import RUNTIME_ERRORS, EndRound, Redeal, located_error

MAX_REDEALS = 100  # deals in a row a round may take (a misdeal rule that always applies stops there)

# play_round(ctx, observer or None[, seed, dealer]): a round, on a game restarted first when a seed is given
RoundFn = Callable[..., None]
# play_rounds(ctx, observer or None, round numbers, seed_of, stop or None, dealer, seats' random
# states or None, end_when or None, flat, records): for each round number i, unless stop() says
# to stop first (then it returns True), a round as play_round(ctx, observer, seed_of(i), dealer)
# plays it on a state that keeps no log and whose generator is a random.Random (seed_of giving
# whole numbers), each seat's random state (when given) reseeded first as run_chunk does, the
# game's end_when (when given) read after it for its errors; each round's chips added to `flat`
# and its records, when it made any, appended to `records` (run_chunk's rounds, a block at a time)
RoundsFn = Callable[..., bool]

_TOKEN = re.compile(r"\b(K|_p|_t)(\d+)\b")  # an expression's constants and its own Python locals
_FIXED = re.compile(r"\bctx\.(n|vars|zones)\b")  # parts of the state a round reads as its own


def round_player(game: Any, n: int, pot_left: Callable[[Any, str], None]) -> RoundFn | None:
    """Game.play_round for a table of `n` as one function (None where Python refuses the source);
    `pot_left(ctx, name)` raises the error of a round-scope pot that still holds chips."""
    made = round_functions(game, n, pot_left)
    return None if made is None else made[0]


def round_functions(game: Any, n: int, pot_left: Callable[[Any, str], None]) -> tuple[RoundFn, RoundsFn] | None:
    """round_player's function and, from the same source, `play_rounds` (see RoundsFn); None
    where Python refuses the source."""
    src, extra = round_play_source(game, n, pot_left)
    source = text(src, tuple(extra))
    code = compile_cached(source, "<round>")
    if code is None:
        return None
    namespace: dict[str, Any] = {"__builtins__": SAFE_BUILTINS, **HELPERS}
    exec(code, namespace)  # noqa: S102 - only this module's tokens and whole numbers
    made: RoundFn
    rounds: RoundsFn
    made, rounds = namespace["_make"](*src.consts, *extra.values())
    made.source = source  # type: ignore[attr-defined]  # (rulekit show --compiled lists it)
    return made, rounds


def text(src: Source, extra: tuple[str, ...]) -> str:
    """The Python source: `_make(K0, K1, ..., *extra)` returning `play_round(ctx, OBS, SEED, D)`
    and `play_rounds(ctx, OBS, NUMBERS, SEED_OF, STOP, D, RS, ENDS, FLAT, RECS)`."""
    params = ", ".join([*(f"K{i}" for i in range(len(src.consts))), *extra])
    body = "".join(f"        {line}\n" for line in src.lines)
    rounds = "".join(f"        {line}\n" for line in src.sim)
    return (f"def _make({params}):\n    def play_round(ctx, OBS, SEED=None, D=0):\n{body}"
            f"    def play_rounds(ctx, OBS, NUMBERS, SEED_OF, STOP, D, RS, ENDS, FLAT, RECS):\n{rounds}"
            "    return play_round, play_rounds\n")


def round_play_source(game: Any, n: int, pot_left: Callable[[Any, str], None]) -> tuple[Source, dict[str, Any]]:
    """The lines and constants of round_player, and the names its source reads besides them."""
    src = round_source(game, n)  # the round's fresh state (its names: K0 ..., POT)
    reset, src.lines = src.lines, []
    restart = _restart_lines(src, game, n)
    reseed, restart = restart[:_RESEED], restart[_RESEED:]
    deals: list[str] = []
    src.lines = out = deals
    # what the last round (or deal) used, as Ctx.units counts it, added before each deal's budget
    # is set (after a restart, by its own lines: nothing or only its start was used)
    used = f"ctx.spent += {int(EVAL_BUDGET)} - ctx.budget + ctx.steps"
    out.append(f"for _ in range({int(MAX_REDEALS)}):")
    out.append(f"    ctx.budget = {int(EVAL_BUDGET)}")
    out.extend("    " + line for line in reset)
    out.append("    ctx.steps = 0")
    out.append("    if OBS is not None: OBS.start(ctx)")
    out.append("    if LOG: LOG_ROUND(ctx)")
    out.append("    try:")
    phases = list(game.phases)
    for j, ph in enumerate(phases):
        pid = src.const(ph.id)
        mark = len(out)
        out.append(f"        ctx.where = {pid}")
        test = _condition(src, ph.when, j, n, out)
        if test == "False":
            if j + 1 < len(phases):  # (the next phase names itself at once: nothing reads this one)
                del out[mark]
            continue
        ind = "        "
        if test != "True":
            out.append(f"        if {test}:")
            ind += "    "
        out.append(f"{ind}if LOG: LOG_PHASE(ctx, {pid})")
        out.append(f"{ind}{src.const(ph.run)}(ctx)")
    if not phases:
        out.append("        pass")
    out.append("    except END:")
    out.append("        pass")
    out.append("    except REDEAL:")
    out.append("        REDEALT(ctx)")
    out.append(f"        {used}")
    out.append("        continue")
    out.append("    except RUNTIME as exc:")
    out.append("        raise FAILED(ctx, exc) from None")
    out.append("    if OBS is not None: OBS.end(ctx)")
    out.append("    break")
    out.append("else:")
    out.append("    TOO_MANY_DEALS(ctx)")
    # play_round: a restart when given a seed, then the deals (the log kept as ctx.logging says)
    src.lines = ["if SEED is not None:", *("    " + line for line in reseed + restart), "else:", f"    {used}",
                 "LOG = ctx.logging", *deals]
    # play_rounds: the same for each seed, on a state that keeps no log (no LOG lines), each
    # seat's random state reseeded as runner.agent_seed seeds a fresh RandomAgent's, each
    # round's chips and records handed over as run_chunk adds them
    top = M64 - n
    src.sim = ["LOG = ctx.logging", "R = ctx.rng", "for I in NUMBERS:",
               "    if STOP is not None and STOP(): return True",  # (asked before each round, as run_chunk asks)
               "    SEED = SEED_OF(I)",
               "    if RS is not None:",
               f"        F = (SEED << 6) & {M64}",  # (SEED * 64 + seat: agent_seed)
               f"        RS[:] = range(F, F + {n}) if F <= {top} else [(F + SEAT) & {M64} for SEAT in range({n})]",
               "    RESEED(R, SEED)", "    R.gauss_next = None",
               *("    " + line for line in restart),
               *("    " + line for line in deals if not _LOGGED.match(line)),
               "    if ENDS is not None:",  # (read as after any round: its errors surface as in play())
               "        ctx.dealer = ctx.next_dealer",
               "        try:", "            ENDS(ctx)",
               "        except RUNTIME as exc:", "            raise SETTINGS_FAILED(exc) from None",
               "    FLAT += ctx.chips", "    if ctx.records: RECS.append(ctx.records)",
               "return False"]
    first = phases[0].span if phases else Span(game.variant.file, 1, 1)
    extra = {"POT": pot_left, "END": EndRound, "REDEAL": Redeal, "RUNTIME": RUNTIME_ERRORS,
             "ERRS": FAST_ERRORS, "LOG_ROUND": log_round, "LOG_PHASE": log_phase, "REDEALT": redealt,
             "FAILED": _failed(phases, game.variant.file), "TOO_MANY_DEALS": _too_many_deals(first),
             "RANDOM": random.Random, "RESEED": _CRandom.seed, "START_FAILED": _start_failed(game.variant.file),
             "SETTINGS_FAILED": _settings_failed(game.variant.file)}
    return src, extra


def _restart_lines(src: Source, game: Any, n: int) -> list[str]:
    """The lines doing what Game.restart(ctx, SEED, round_next=True) does, then setting the dealer
    to D (run_chunk's simulated round), in the same order: its names are bound constants of `src`."""
    saved, src.lines = src.lines, []
    add_game_vars(src, game, n)  # (as the game's start function sets them)
    starts, src.lines = src.lines, saved
    # a start that only sets values reads nothing of the state: the names, yaku results and
    # dealer it could read (and the next deal sets again) need not be set before it
    reads = any(not _PLAIN_SET.match(line) for line in starts)
    out = ["R = ctx.rng",  # (the first _RESEED lines: the generator reseeded)
           "if type(R) is RANDOM and type(SEED) is int:",  # (Random.seed, without its Python-level checks)
           "    RESEED(R, SEED)",
           "    R.gauss_next = None",
           "else:",
           "    R.seed(SEED)",
           "if ctx.events: ctx.events = []",  # (an empty list is as good as a new one: no log is kept)
           "if ctx.records: ctx.records = {}",  # (a new one when the last round's is kept by the caller)
           "ctx.vars = V = {}",
           "ctx.round_no = ctx.depth = 0",
           f"ctx.where = {src.const('')}",  # (no string in the source: every text is a bound constant)
           "ctx.stack = None",
           f"ctx.chips = [{int(game.start_chips)}] * {int(n)}"]
    if reads:
        # a start that evaluates is charged: what it used counts as Game.restart's start does
        out += [f"ctx.budget = {int(EVAL_BUDGET)}", "ctx.steps = 0",
                "ctx.loc = {}", "ctx.yaku_cache = {}", "ctx.dealer = ctx.next_dealer = 0"]
    if starts:
        out += ["try:", *("    " + line for line in starts),
                "except RUNTIME as exc:", "    raise START_FAILED(exc) from None"]
    # (the deal sets the budget and steps; only what a start used is counted as spent)
    out.append(f"ctx.spent = {int(EVAL_BUDGET)} - ctx.budget + ctx.steps" if reads else "ctx.spent = 0")
    out.append("ctx.dealer = ctx.next_dealer = D")
    return out


_RESEED = 6  # the lines of _restart_lines that reseed the generator
_LOGGED = re.compile(r"^ *if LOG: ")  # a line of a deal that only logs (play_rounds keeps no log)
_PLAIN_SET = re.compile(r"^V\[K\d+\] = \[?(\(-\d+\)|-?\d+|True|False|None|K\d+)(\] \* \d+)?$")


def _start_failed(file: str) -> Callable[[BaseException], RuleError]:
    """The located error of a game variable's start failing (as Game.restart places it)."""
    def failed(exc: BaseException) -> RuleError:
        return located_error(exc, Span(file, 1, 1), "game start")
    return failed


def _settings_failed(file: str) -> Callable[[BaseException], RuleError]:
    """The located error of the game's end_when failing after a simulated round (as run_chunk places it)."""
    def failed(exc: BaseException) -> RuleError:
        return located_error(exc, Span(file, 1, 1), "game settings")
    return failed


def _condition(src: Source, when: Any, j: int, n: int, out: list[str]) -> str:
    """The test of a phase's entry condition ('True', 'False' or a local's name), the lines
    evaluating it appended to `out`: its generated code inline, falling back to its located code
    (which raises the error placed in the text) as a call of the condition would. The seat count
    is the table's `n` and the zones and variables are the round's Z and V (the same objects all
    round, as a generated phase reads them)."""
    if when is None:
        return "True"
    code = fast_code(when)
    if code is None:
        return f"{src.const(when)}(ctx)"
    body = code.body
    if body in ("True", "False"):
        return body
    consts = code.consts

    def rename(m: re.Match[str]) -> str:
        if m.group(1) == "K":
            return src.const(consts[int(m.group(2))])
        return f"{m.group(1)}e{j}_{m.group(2)}"  # (apart from every other condition's)
    fixed = {"n": f"({int(n)})", "vars": "V", "zones": "Z"}
    written = _FIXED.sub(lambda m: fixed[m.group(1)], _TOKEN.sub(rename, body))
    if "L[" in written:
        out.append("        L = ctx.loc")
    out.append("        try:")
    out.append(f"            w{j} = {written}")
    out.append("        except ERRS:")
    out.append(f"            w{j} = {src.const(code.slow)}(ctx)")
    return f"w{j}"


def log_round(ctx: Any) -> None:
    """The log event of a deal starting."""
    ctx.log({"t": "round", "round": ctx.round_no, "dealer": ctx.dealer})


def log_phase(ctx: Any, pid: str) -> None:
    """The log event of a phase starting."""
    ctx.log({"t": "phase", "id": pid})


def redealt(ctx: Any) -> None:
    """A misdeal counted: the round is dealt again."""
    ctx.record("redeal")


def _failed(phases: list[Any], file: str) -> Callable[[Any, BaseException], RuleError]:
    """The located error of a run-time failure in the phase `ctx.where` names (or the step in it)."""
    def failed(ctx: Any, exc: BaseException) -> RuleError:
        ph = next((p for p in phases if p.id == ctx.where), None)
        return located_error(exc, ph.span if ph else Span(file, 1, 1), ctx.where)
    return failed


def _too_many_deals(span: Span) -> Callable[[Any], None]:
    def too_many(ctx: Any) -> None:
        raise RuleError(error(span, "E061",
                              f"more than {MAX_REDEALS} redeals in a row: the misdeal rule always applies"))
    return too_many

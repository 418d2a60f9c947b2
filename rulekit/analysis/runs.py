"""Seeded runs for analysts: single rounds (with per-round rows), whole games, over processes.

Every unit (round or game) i is played with seed `round_seed(seed, i)`, whatever the pieces
and processes: totals are identical for any --jobs because pieces merge in order.
"""
from __future__ import annotations

import contextlib
import gc
import math
import signal
import threading
from dataclasses import dataclass, field
from typing import Any

from rulekit.engine.game import Game
from rulekit.engine.runner import Stats, make_agents, merge_custom, play, round_seed, run_chunk
from rulekit.engine.statsdecl import Z95, mean_ci, wilson

ROUND_PIECE = 500
GAME_PIECE = 20


def pieces(total: int, size: int) -> list[tuple[int, int]]:
    """(start, count) pieces covering units 0..total-1."""
    return [(s, min(size, total - s)) for s in range(0, total, size)]


@dataclass
class GameStats:
    """Mergeable whole-game totals per seat: chip change, wins, bankruptcies; game lengths."""

    n: int
    games: int = 0
    chips: list = field(default_factory=list)  # sum of (final - starting) chips
    chips_sq: list = field(default_factory=list)
    wins: list = field(default_factory=list)  # a shared first place counts 1/k to each of k seats
    broke: list = field(default_factory=list)
    rounds: int = 0
    rounds_sq: int = 0
    ended_early: int = 0
    records: dict = field(default_factory=dict)
    custom: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("chips", "chips_sq", "wins", "broke"):
            if not getattr(self, name):
                setattr(self, name, [0] * self.n)

    def add(self, final: list, start: int, played: int, planned: Any, records: dict) -> list:
        """Count one finished game; return its row for --csv."""
        self.games += 1
        change = [c - start for c in final]
        for s, d in enumerate(change):
            self.chips[s] += d
            self.chips_sq[s] += d * d
        top = max(final)
        winners = [s for s, c in enumerate(final) if c == top]
        for s in winners:
            self.wins[s] += 1.0 / len(winners)
        early = isinstance(planned, int) and played < planned
        self.ended_early += early
        if start > 0:
            for s, c in enumerate(final):
                self.broke[s] += c <= 0
        elif early:
            low = min(final)
            for s, c in enumerate(final):
                self.broke[s] += c == low
        self.rounds += played
        self.rounds_sq += played * played
        for k, v in records.items():
            self.records[k] = self.records.get(k, 0) + v
        return [played, *change, "+".join(map(str, winners))]

    def merge(self, o: "GameStats") -> "GameStats":
        out = GameStats(self.n, self.games + o.games,
                        [a + b for a, b in zip(self.chips, o.chips)],
                        [a + b for a, b in zip(self.chips_sq, o.chips_sq)],
                        [a + b for a, b in zip(self.wins, o.wins)],
                        [a + b for a, b in zip(self.broke, o.broke)],
                        self.rounds + o.rounds, self.rounds_sq + o.rounds_sq, self.ended_early + o.ended_early,
                        dict(self.records), merge_custom(self.custom, o.custom))
        for k, v in o.records.items():
            out.records[k] = out.records.get(k, 0) + v
        return out

    def to_json(self) -> dict:
        """Per-seat figures with 95% intervals (numbers as numbers)."""
        seats = []
        for s in range(self.n):
            m, lo, hi = mean_ci(self.games, float(self.chips[s]), float(self.chips_sq[s]))
            wlo, whi = wilson(self.wins[s], self.games)
            blo, bhi = wilson(self.broke[s], self.games)
            seats.append({"seat": s, "final_chips": m, "low": lo, "high": hi,
                          "win_chance": self.wins[s] / self.games if self.games else 0.0,
                          "win_low": wlo, "win_high": whi, "broke": int(self.broke[s]),
                          "broke_rate": self.broke[s] / self.games if self.games else 0.0,
                          "broke_low": blo, "broke_high": bhi})
        rm, rlo, rhi = mean_ci(self.games, float(self.rounds), float(self.rounds_sq))
        return {"games": self.games, "players": self.n, "seats": seats,
                "rounds_per_game": {"mean": rm, "low": rlo, "high": rhi},
                "ended_early": self.ended_early, "records": {k: int(v) for k, v in sorted(self.records.items())}}


# -- pieces, in this process or in workers -----------------------------------

def _round_piece(game: Game, n: int, seed: int, start: int, count: int, policy: str, keep_rows: bool,
                 stop: Any = None):
    rows: list | None = [] if keep_rows else None
    st = run_chunk(game, n, seed, start, count, policy, rows=rows, stop=stop)
    return st, rows or []


def _game_piece(game: Game, n: int, seed: int, start: int, count: int, policy: str, keep_rows: bool,
                stop: Any = None):
    observer = game.observer
    if observer is not None:
        observer.reset()
    gs = GameStats(n)
    rows = []
    for i in range(start, start + count):
        if stop is not None and stop():
            break
        s = round_seed(seed, i)
        res = play(game, n, s, make_agents(game, n, s, policy), logging=False)
        try:
            planned = game.rounds(res.state)
        except Exception:  # the planned length is only used to tell an early end; unknown is fine
            planned = None
        row = gs.add(res.chips, game.start_chips, len(res.round_deltas), planned, res.records)
        if keep_rows:
            rows.append(row)
    if observer is not None:
        gs.custom = observer.take()
    return gs, rows


_KINDS = {"rounds": _round_piece, "games": _game_piece}


def build_from_args(variant_args: tuple) -> Game:
    """(path, options, preset, deck, house files, stats file) -> the game, built as the CLI does."""
    from rulekit.engine.build import build_game, load_variant
    from rulekit.engine.statsdecl import prepare
    path, options, preset, deck, house, stats_file = variant_args
    game = build_game(load_variant(path, house=tuple(house or ())), dict(options or {}), preset, deck)
    return prepare(game, stats_file)


_WORKER_STOP: Any = None  # in a worker: the flag the main process raises on Ctrl-C


def _worker_start(flag: Any) -> None:
    """A worker leaves Ctrl-C to the main process, which raises `flag` to ask it to stop."""
    global _WORKER_STOP
    from rulekit.analysis.workers import ignore_sigint
    ignore_sigint()
    _WORKER_STOP = flag


def _worker_asked_to_stop() -> bool:
    return _WORKER_STOP is not None and _WORKER_STOP.value != 0


def _in_worker(kind: str, variant_args: tuple, *rest):
    from rulekit.analysis.workers import cached_game
    game = cached_game(variant_args, build_from_args)  # keyed on the files' contents (analysis.workers)
    return _KINDS[kind](game, *rest, _worker_asked_to_stop)


class _StopAsked:
    """A SIGINT handler for a run in this process: the first Ctrl-C asks the run to stop after
    the round (or game) being played, so no finished round is lost; a second stops at once."""

    def __init__(self) -> None:
        self.asked = False

    def __call__(self, signum: int, frame: Any) -> None:
        if self.asked:
            raise KeyboardInterrupt
        self.asked = True

    def stop(self) -> bool:
        return self.asked


@contextlib.contextmanager
def _ctrl_c_stops_between_rounds():
    """Install a _StopAsked for the block (only where Ctrl-C would raise: the main thread, with
    Python's own handler in place); yields it, or None where nothing was installed."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield None
        return
    asked = _StopAsked()
    signal.signal(signal.SIGINT, asked)
    try:
        yield asked
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run; `partial` holds the pieces merged so far (in order), `rows` their rows."""

    def __init__(self, partial: Any, rows: list):
        super().__init__("interrupted")
        self.partial = partial
        self.rows = rows


def run(kind: str, game: Game, n: int, total: int, seed: int, policy: str, jobs: int = 1,
        variant_args: tuple | None = None, bar: Any = None, keep_rows: bool = False):
    """Play `total` rounds or games ("rounds" | "games"); return (merged totals, rows in order)."""
    fn = _KINDS[kind]
    parts = pieces(total, ROUND_PIECE if kind == "rounds" else GAME_PIECE)
    merged: Any = Stats() if kind == "rounds" else GameStats(n)
    rows: list = []
    gc.freeze()  # the compiled game lives through the run: the collector need not rescan it
    try:
        if jobs <= 1 or variant_args is None or len(parts) == 1:
            stopped = False
            try:
                with _ctrl_c_stops_between_rounds() as asked:
                    stop = asked.stop if asked is not None else None
                    for start, count in parts:
                        part, r = fn(game, n, seed, start, count, policy, keep_rows, stop)
                        merged = merged.merge(part)  # a piece cut short by Ctrl-C still counts
                        rows += r
                        if bar is not None:
                            bar.update(count)
                        if asked is not None and asked.asked:
                            stopped = True
                            break
            except KeyboardInterrupt:
                raise Interrupted(merged, rows) from None
            if stopped:
                raise Interrupted(merged, rows)
        else:
            # the worker-side helpers, like the pool, load only for a parallel run
            from rulekit.analysis.workers import WORKER_GAME, remember, stop_now
            key = remember(variant_args, game)  # forked workers inherit it; spawned ones rebuild it
            # shared without a lock: workers only read it, between rounds
            # imported only for parallel runs: a one-process run does not pay for loading multiprocessing
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor
            flag = multiprocessing.RawValue("b", 0)
            pool = ProcessPoolExecutor(max_workers=jobs, initializer=_worker_start, initargs=(flag,))
            futs: list = []
            done = 0
            try:
                futs = [pool.submit(_in_worker, kind, variant_args, n, seed, s, c, policy, keep_rows)
                        for s, c in parts]
                for fut, (_s, c) in zip(futs, parts):  # merged in order: identical totals
                    part, r = fut.result()
                    done += 1  # first: a Ctrl-C in between may drop this piece, never count it twice
                    merged = merged.merge(part)
                    rows += r
                    if bar is not None:
                        bar.update(c)
            except KeyboardInterrupt:
                # the first Ctrl-C: every worker ends the round (or game) under way and returns
                # what it has played, so no finished round is lost; a second stops them at once
                flag.value = 1
                try:
                    for fut in futs[done:]:
                        part, r = fut.result()
                        done += 1
                        merged = merged.merge(part)
                        rows += r
                except KeyboardInterrupt:
                    pass
                finally:
                    stop_now(pool)  # not shutdown(wait=True): that would finish every queued piece
                raise Interrupted(merged, rows) from None
            else:
                pool.shutdown()
            finally:
                WORKER_GAME.pop(key, None)
    finally:
        gc.unfreeze()
    return merged, rows


def rounds_json(stats: Stats) -> dict:
    """Single-round figures per seat with 95% intervals; outcomes per round with 95% intervals."""
    seats = []
    r = stats.rounds
    for s in range(stats.n):
        m, sd = stats.mean(s), stats.sd(s)
        margin = Z95 * sd / math.sqrt(r) if r else 0.0
        wlo, whi = wilson(stats.wins[s], r)
        llo, lhi = wilson(stats.losses[s], r)
        seats.append({"seat": s, "mean": m, "low": m - margin, "high": m + margin, "sd": sd,
                      "total": float(stats.total[s]) if not isinstance(stats.total[s], int) else stats.total[s],
                      "win_rate": stats.wins[s] / r if r else 0.0, "win_low": wlo, "win_high": whi,
                      "loss_rate": stats.losses[s] / r if r else 0.0, "loss_low": llo, "loss_high": lhi})
    per_round = {}
    for k, v in sorted(stats.records.items()):
        m, lo, hi = mean_ci(r, float(v), float(stats.records_sq.get(k, v)))
        per_round[k] = {"mean": m, "low": max(0.0, lo), "high": hi}  # counts are never negative
    return {"rounds": r, "players": stats.n, "seats": seats,
            "records": {k: int(v) for k, v in sorted(stats.records.items())}, "per_round": per_round}


def paired(base_rows: list, rows: list, n: int) -> list[dict]:
    """Per seat: mean of (changed - base) chip changes over the same seeds, with a 95% interval."""
    out = []
    k = len(rows)
    for s in range(n):
        d = [float(r[s]) - float(b[s]) for r, b in zip(rows, base_rows)]
        total = sum(d)
        m = total / k if k else 0.0
        var = (sum(x * x for x in d) - k * m * m) / (k - 1) if k > 1 else 0.0
        margin = Z95 * math.sqrt(max(0.0, var) / k) if k else 0.0
        out.append({"seat": s, "change": m, "low": m - margin, "high": m + margin})
    return out

"""Simulation on a Dask cluster (extra `rulekit[dask]`): the same seeded chunks as `--jobs`.

Each chunk of rounds depends only on (variant, options, players, seed, first round, count,
policy), so the chunks can run on any worker in any order and merge, in chunk order, to the
totals one process gives. A worker lost during the run loses only its unfinished chunks, which
the scheduler runs again elsewhere: the totals do not change.

    rulekit simulate my-game --rounds 1000000 --scheduler tcp://scheduler:8786

or from Python, with a `dask.distributed.Client`:

    stats = rulekit.simulate("my-game", players=4, rounds=1_000_000, seed=1, client=client)
"""
from __future__ import annotations

import hashlib
import re
from typing import Any, Callable

from rulekit.core.inert import inert
from rulekit.core.numbers import parse_int
from rulekit.engine.runner import Stats

__all__ = ["simulate_on", "connect", "check_address", "CONNECT_TIMEOUT"]

CONNECT_TIMEOUT = 3.0  # seconds to reach the scheduler (Dask's own default waits 30 s)
_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*",
                   re.ASCII)
_IPV6 = re.compile(r"[0-9A-Fa-f:.]{2,45}", re.ASCII)


def check_address(address: str) -> str:
    """The scheduler address as Dask takes it (`tcp://host:port`), checked before any connection:
    scheme tcp (or none), a host name or IP address, a port from 1 to 65535; ValueError otherwise."""
    text = str(address)
    shown = inert(text, keep_newlines=False, limit=100)
    if not text.strip():
        raise ValueError("expected a scheduler address such as tcp://127.0.0.1:8786, found an empty one")
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    if scheme != "tcp":
        why = ("needs certificates, which the command line does not take: connect from Python with "
               "rulekit.simulate(..., client=dask.distributed.Client(...))") if scheme == "tls" else \
            "is not supported: expected tcp://HOST:PORT"
        raise ValueError(f"'{shown}': the scheme '{inert(scheme, limit=20)}' {why}")
    host, colon, port_s = rest.rpartition(":")
    if not colon:
        raise ValueError(f"'{shown}': expected tcp://HOST:PORT, found no port")
    bracketed = host.startswith("[") and host.endswith("]")
    if not (bracketed and _IPV6.fullmatch(host[1:-1]) and ":" in host) and not _HOST.fullmatch(host):
        raise ValueError(f"'{shown}': '{inert(host, limit=60)}' is not a host name or IP address "
                         "(an IPv6 address goes in brackets: tcp://[::1]:8786)")
    port = parse_int(port_s, signed=False, max_digits=5)
    if port is None or not 1 <= port <= 65535:
        raise ValueError(f"'{shown}': the port must be a whole number from 1 to 65535, found '{inert(port_s, limit=20)}'")
    return f"tcp://{host}:{port}"


def _probe(where: str, timeout: float) -> None:
    """A plain TCP connection to the scheduler's port first: a refused port, an unknown host or no
    route is said at once, in one line (Dask would retry until its timeout)."""
    import socket
    host, _, port = where[len("tcp://"):].rpartition(":")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        why = exc.strerror or str(exc) or type(exc).__name__
        raise SystemExit(f"rulekit: error: cannot reach the Dask scheduler at {inert(where)}: "
                         f"{inert(why, keep_newlines=False, limit=200)}") from None


def connect(address: str, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A Dask client for the scheduler at `address`, reached within `timeout` seconds; a bad
    address, a missing extra or a scheduler that does not answer end the command with one line."""
    try:
        where = check_address(address)
    except ValueError as exc:
        raise SystemExit(f"rulekit: error: --scheduler: {exc}") from None
    _probe(where, timeout)
    try:
        from dask.distributed import Client
    except ImportError:
        raise SystemExit("rulekit: error: --scheduler needs the dask extra: pip install 'rulekit[dask]'") from None
    import logging
    quiet = logging.getLogger("distributed")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)  # the one line below says what went wrong
    import threading
    box: dict[str, Any] = {}

    def make() -> None:
        try:
            box["client"] = Client(where, timeout=timeout)
        except Exception as exc:  # noqa: BLE001 - reported below in one line
            box["error"] = exc
    # Dask's own timeout covers the connection, not a server that accepts it and never answers the
    # handshake (an HTTP server, say): the client is made in a thread given a deadline of its own
    maker = threading.Thread(target=make, name="rulekit-dask-connect", daemon=True)
    try:
        maker.start()
        maker.join(timeout + 1)
    finally:
        quiet.setLevel(level)
    if "client" in box:
        return box["client"]
    exc = box.get("error")
    reason = ("it accepted the connection but did not answer as a Dask scheduler" if exc is None else
              str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    raise SystemExit(f"rulekit: error: cannot reach the Dask scheduler at {inert(where)} within {timeout:g} s: "
                     f"{inert(reason, keep_newlines=False, limit=200)}")


def simulate_on(client: Any, variant_args: tuple, n: int, pieces: list[tuple[int, int]], seed: int, policy: str,
                on_chunk: Callable[[int], None] | None = None) -> Stats:
    """Run `pieces` (start, count) on the cluster behind `client`; merge the Stats in chunk order.

    `variant_args` = (path, options, preset, deck[, house files]) lets each worker build the game.
    `on_chunk(count)` is called as each chunk finishes (for a progress bar)."""
    from dask.distributed import as_completed

    from rulekit.analysis.workers import chunk_in_worker
    # a chunk's key names everything its result depends on: the same chunk is never run twice
    # (the variant's contents included: an edited file is a different chunk, never an old result)
    from rulekit.analysis.workers import content_digest
    files = [variant_args[0], *(variant_args[4] if len(variant_args) > 4 and variant_args[4] else ()),
             *([variant_args[5]] if len(variant_args) > 5 and variant_args[5] else [])]
    what = hashlib.sha256(repr((content_digest(variant_args, files), n, policy)).encode()).hexdigest()[:16]
    futures = [client.submit(chunk_in_worker, variant_args, n, seed, start, count, policy,
                             key=f"rulekit-chunk-{what}-{seed}-{start}-{count}", retries=3)
               for start, count in pieces]
    results: dict[int, Stats] = {}
    index = {f.key: i for i, f in enumerate(futures)}
    try:
        for fut in as_completed(futures):
            results[index[fut.key]] = fut.result()
            if on_chunk is not None:
                on_chunk(pieces[index[fut.key]][1])
    except KeyboardInterrupt:
        client.cancel(futures)
        raise
    total = Stats()
    for i in range(len(pieces)):  # merge in chunk order: the same totals as one process
        total = total.merge(results[i])
    return total

"""Checks already passed, remembered on disk as empty files named by a digest of what was checked.

A check that found nothing wrong (a variant against the schema) leaves an empty file named by
the SHA-256 digest of everything its verdict depends on; the next run that checks the very same
thing finds the file and skips the work. Nothing is ever read from these files, only whether one
exists (a plain file of this user's), so a damaged, foreign or hostile cache can at worst make a
check run again: a file can only be marked by passing the check itself, and any change to it, to
the schema or to the checker changes the digest. Failed checks are never remembered (their errors
are reported every time). The folder is $RULEKIT_CACHE, else $XDG_CACHE_HOME/rulekit, else
~/.cache/rulekit; `RULEKIT_CACHE=` (empty) turns it off. Failing to write a mark is silent: the
cache is an aid.
"""
from __future__ import annotations

import hashlib
import os
import stat

_HEX = frozenset("0123456789abcdef")


def cache_root() -> str | None:
    """The folder of rulekit's cache, or None when RULEKIT_CACHE is set empty (no cache)."""
    explicit = os.environ.get("RULEKIT_CACHE")
    if explicit is not None:
        return explicit or None
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG rule: a relative value is ignored
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "rulekit")


def digest(*parts: str) -> str:
    """The SHA-256 hex digest of the parts, each length-prefixed (no two lists of parts share one)."""
    h = hashlib.sha256()
    for p in parts:
        b = p.encode("utf-8", "surrogatepass")
        h.update(b"%d:" % len(b))
        h.update(b)
    return h.hexdigest()


def _mark_path(kind: str, key: str) -> str | None:
    root = cache_root()
    if root is None or len(key) != 64 or not _HEX.issuperset(key) or not kind.isidentifier():
        return None
    return os.path.join(root, kind, key)


def passed(kind: str, key: str) -> bool:
    """Whether the check `kind` has passed for `key` (a digest) before: a plain file (not a link)
    that this user made (another user's file in a shared folder does not count)."""
    path = _mark_path(kind, key)
    if path is None:
        return False
    try:
        st = os.lstat(path)
    except OSError:
        return False
    owner = os.geteuid() if hasattr(os, "geteuid") else st.st_uid
    return stat.S_ISREG(st.st_mode) and st.st_uid == owner


def remember(kind: str, key: str) -> None:
    """Mark the check `kind` as passed for `key`: an empty file, created only by this user."""
    path = _mark_path(kind, key)
    if path is None:
        return
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        # O_EXCL: never through a link, never onto a file that is there; the file stays empty
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        os.close(fd)
    except OSError:  # no home, a read-only disk, a mark already there: the check simply runs again
        pass

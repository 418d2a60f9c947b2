"""Files written whole or not at all: a temporary file in the same folder, then renamed over the target."""
from __future__ import annotations

import os
import stat
import tempfile


def write_atomic(path: str, text: str) -> None:
    """Write `text` to `path` (UTF-8) through a temporary file renamed over it, so an error, a crash
    or Ctrl-C while writing leaves the old file as it was; the new file keeps the old one's mode."""
    folder = os.path.dirname(os.path.abspath(path))
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(prefix=".rulekit-", suffix=".tmp", dir=folder)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def same_file(a: str, b: str) -> bool:
    """True when two paths name one file (links and relative spellings followed)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


__all__ = ["write_atomic", "same_file"]

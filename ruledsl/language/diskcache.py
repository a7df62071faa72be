"""Files kept between runs in the user's own cache directory: the built parser, syntax trees, the
compiled code of generated modules.

Every cache file is named after a hash of everything it was made from (the caller's ``key``), so a
changed input gets its own file and an old one is never used for it. The directory is
``$RULEDSL_CACHE_DIR``, else ``$XDG_CACHE_HOME/ruledsl``, else ``~/.cache/ruledsl``; an empty
``RULEDSL_CACHE_DIR`` turns every cache off.

A cache file is loaded into the process (unpickled, or compiled code run), so one that another user
could have written is never read: the directory and the file must belong to the user running
ruledsl and be writable by nobody else (:func:`trusted`). A missing, foreign, unreadable or corrupt
file is a miss, and a directory that cannot be written means nothing is kept: a cache is never a
reason to fail. Each time a file is written, only the ``keep`` most recently used files of its kind
stay.
"""

from __future__ import annotations

import hashlib
import os
import stat
from pathlib import Path

from ..version import __version__


def cache_dir() -> Path | None:
    """Where cache files are kept, or None when caching is off."""
    chosen = os.environ.get("RULEDSL_CACHE_DIR")
    if chosen is not None:
        return Path(chosen) if chosen.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ruledsl"


def digest(*parts) -> str:
    """A hash of ``parts`` (texts or bytes) and of the ruledsl version, for a cache file's name."""
    h = hashlib.sha256(__version__.encode("utf-8"))
    for part in parts:
        data = part if isinstance(part, bytes) else str(part).encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()[:32]


def trusted(path: Path) -> bool:
    """Whether ``path`` (a file or a directory) belongs to this user and nobody else may write it."""
    getuid = getattr(os, "geteuid", None)
    try:
        info = os.stat(path)
    except OSError:
        return False
    if getuid is None:  # no owners to compare (Windows): the user's profile directory is private
        return True
    return info.st_uid == getuid() and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def read(name: str) -> bytes | None:
    """The content of the cache file ``name``, or None if it is missing, foreign or unreadable."""
    directory = cache_dir()
    if directory is None:
        return None
    path = directory / name
    try:
        if not (trusted(directory) and trusted(path)):
            return None
        with open(path, "rb") as f:
            data = f.read()
        os.utime(path)  # used now: pruning keeps the files in use
        return data
    except OSError:
        return None


def write(name: str, data: bytes, pattern: str, keep: int) -> None:
    """Keep ``data`` as the cache file ``name``, then only the ``keep`` newest files matching
    ``pattern``; quietly nothing when the directory cannot be made, trusted or written."""
    directory = cache_dir()
    if directory is None:
        return
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not trusted(directory):
            return
        # written beside it, then renamed: another process never reads a half-written file
        partial = directory / f"{name}.{os.getpid()}.partial"
    except OSError:
        return
    try:
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(partial, directory / name)
        prune(directory, pattern, keep)
    except OSError:  # a full disk, a directory made read-only: nothing kept, no half-written file left
        try:
            partial.unlink(missing_ok=True)
        except OSError:
            pass


def prune(directory: Path, pattern: str, keep: int) -> None:
    """Delete all but the ``keep`` most recently used files matching ``pattern`` in ``directory``."""
    def used(p: Path) -> float:
        try:
            return p.stat().st_mtime
        except OSError:
            return 0.0

    for old in sorted(directory.glob(pattern), key=used, reverse=True)[keep:]:
        try:
            old.unlink()
        except OSError:  # another process got there first, or it is not ours to delete
            pass

"""Build the Lark parser once and keep it on disk, so loading a rules file does not rebuild it.

Building the LALR tables takes longer than parsing a whole rules file. Lark can save a built
parser and load it back (``Lark.save`` and ``Lark.load``); the file is named after a hash of
the grammar text, the parser options and the Lark and Python versions, so a changed grammar
(or another version) gets its own file and an old one is never used for it. The files go to
``$RULEDSL_CACHE_DIR``, else ``$XDG_CACHE_HOME/ruledsl``, else ``~/.cache/ruledsl``. When that
directory cannot be made or written, or a cache file is unreadable, the parser is simply built.
Set ``RULEDSL_CACHE_DIR`` to an empty string to turn the cache off. A saved parser is unpickled, so
a file that another user could have written is never loaded (:func:`.diskcache.trusted`). Each time a parser is
saved, only the ``KEEP`` most recently used builds stay (several checkouts or versions may share
the directory); older ones are deleted, so the directory never grows without bound.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import lark

from .diskcache import cache_dir, trusted

OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": True}
KEEP = 8  # builds kept in the cache directory: a few checkouts or versions side by side


def cache_file(grammar: str, directory: Path) -> Path:
    """The cache file of this grammar text with these options, Lark and Python."""
    key = "\n".join([grammar, repr(sorted(OPTIONS.items())), lark.__version__, sys.version])
    return directory / f"grammar-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:24]}.lark-cache"


def build(grammar: str) -> lark.Lark:
    """The parser of ``grammar``: loaded from the cache when it holds it, else built (and saved)."""
    directory = cache_dir()
    if directory is None:
        return lark.Lark(grammar, **OPTIONS)
    path = cache_file(grammar, directory)
    try:
        if not (trusted(directory) and trusted(path)):
            raise OSError("not a file of this user's own")
        with open(path, "rb") as f:
            parser = lark.Lark.load(f)
        os.utime(path)  # used now: the pruning below keeps the builds in use
        return parser
    except Exception:  # missing, unreadable or corrupt: build it (and save it again)
        pass
    parser = lark.Lark(grammar, **OPTIONS)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        # written beside it, then renamed: another process never reads a half-written file
        partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
        with open(partial, "wb") as f:
            parser.save(f)
        os.replace(partial, path)
        prune(directory)
    except Exception:  # a cache that cannot be written is no reason to fail
        pass
    return parser


def prune(directory: Path, keep: int | None = None) -> None:
    """Delete all but the ``keep`` (default ``KEEP``) most recently used builds in ``directory``."""
    keep = KEEP if keep is None else keep
    builds = sorted(directory.glob("grammar-*.lark-cache"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in builds[keep:]:
        try:
            old.unlink()
        except OSError:  # another process got there first, or it is not ours to delete
            pass

"""Build the Lark parser once and keep it on disk, so loading a rules file does not rebuild it.

Building the LALR tables takes longer than parsing a whole rules file. Lark can save a built
parser and load it back (its ``cache=`` option); the file is named after a hash of the grammar
text, the parser options and the Lark and Python versions, so a changed grammar (or another
version) gets its own file and an old one is never used for it. The files go to
``$RULEDSL_CACHE_DIR``, else ``$XDG_CACHE_HOME/ruledsl``, else ``~/.cache/ruledsl``. When that
directory cannot be made or written, or a cache file is unreadable, the parser is simply built.
Set ``RULEDSL_CACHE_DIR`` to an empty string to turn the cache off.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

import lark

OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": True}


def cache_dir() -> Path | None:
    """Where built parsers are kept, or None when caching is off."""
    chosen = os.environ.get("RULEDSL_CACHE_DIR")
    if chosen is not None:
        return Path(chosen) if chosen.strip() else None
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "ruledsl"


def cache_file(grammar: str, directory: Path) -> Path:
    """The cache file of this grammar text with these options, Lark and Python."""
    key = "\n".join([grammar, repr(sorted(OPTIONS.items())), lark.__version__, sys.version])
    return directory / f"grammar-{hashlib.sha256(key.encode('utf-8')).hexdigest()[:24]}.lark-cache"


def build(grammar: str) -> lark.Lark:
    """The parser of ``grammar``: loaded from the cache when it holds it, else built (and saved)."""
    directory = cache_dir()
    if directory is not None:
        try:
            directory.mkdir(parents=True, exist_ok=True)
            path = cache_file(grammar, directory)
            if not path.exists() or os.access(path, os.R_OK):
                return lark.Lark(grammar, cache=str(path), **OPTIONS)
        except Exception:  # a cache that cannot be used is no reason to fail: build without it
            pass
    return lark.Lark(grammar, **OPTIONS)

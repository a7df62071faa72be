"""Text to syntax tree: a rules file's tree read back from the user's cache, else read with Lark.

The Lark parser and the tree builder are in reader.py, imported only when a text is not in the
cache: a command that finds its trees there never pays for importing Lark. ``parser`` and
``_Builder`` are still found here (``ruledsl.parse.parser``), loaded when first asked for.
"""

from __future__ import annotations

import functools
import pickle
import sys
from pathlib import Path

from . import ast as A
from . import diskcache
from .shipped import data_path


def __getattr__(name: str):
    """The reader's ``parser`` and ``_Builder``, imported when first asked for (PEP 562)."""
    if name in ("parser", "_Builder"):
        from . import reader

        return getattr(reader, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# Words that can stand where a name can, in statements and expressions: a name
# spelled like one of them could not be used there. (Words that only open a
# declaration, like `deck` or `zone`, stay free for names.)
RESERVED = frozenset("""
    and or not in if then else true false none each for where let put into under at deal from
    shuffle gather repeat times while turns until choose by move reveal to end once new as remove has
    best break continue leave rejoin setup lowest highest show tell of final announce reverse swap with return
""".split())  # noqa: SIM905 - the words read as a paragraph


def keywords() -> frozenset:
    """The words of the language that cannot be used as names."""
    return RESERVED


def parse(text: str, path: str = "<rules>") -> A.RulesFile:
    """Parse one rules file; raise RulesError with a positioned diagnostic on bad syntax.

    The tree of a text parsed before is read back from the user's cache (see :func:`_cached`)."""
    name = _tree_file(text, path)
    if name is not None:
        tree = _cached(name)
        if tree is not None:
            return tree
    tree = _parse(text, path)
    if name is not None:
        diskcache.write(name, pickle.dumps(tree, protocol=pickle.HIGHEST_PROTOCOL), "tree-*.pickle", TREES_KEPT)
    return tree


TREES_KEPT = 64  # syntax trees kept in the cache directory (a few games, versions, edits)


@functools.lru_cache(maxsize=1)
def _language_digest() -> str:
    """A hash of the grammar and of this stage's source: a tree kept by another build is not used."""
    parts = [data_path("grammar", "ruledsl.lark").read_bytes()]
    here = Path(__file__).resolve().parent
    parts += [f.read_bytes() for f in sorted(here.glob("*.py"))]
    return diskcache.digest(*parts)


def _tree_file(text: str, path: str) -> str | None:
    """The cache file name of the tree of ``text`` read from ``path``, or None (no cache)."""
    if diskcache.cache_dir() is None:
        return None
    try:
        return f"tree-{diskcache.digest(_language_digest(), path, text, sys.version)}.pickle"
    except OSError:
        return None


def _cached(name: str) -> A.RulesFile | None:
    """The syntax tree kept as ``name``, or None. The file is the user's own (diskcache.trusted) and
    named after the hash of the text, the path and the language's source, so it holds this text's
    tree; anything unexpected in it is a miss."""
    data = diskcache.read(name)
    if data is None:
        return None
    try:
        tree = pickle.loads(data)  # a file of this user's own, written by parse()
    except Exception:  # noqa: BLE001 - a corrupt file can fail to unpickle in any way: a miss
        return None
    return tree if isinstance(tree, A.RulesFile) else None


def _parse(text: str, path: str) -> A.RulesFile:
    """The tree of ``text``, read with Lark (reader.py, imported only now)."""
    from .reader import read

    return read(text, path)

"""The compiled code of a generated module (flowgen.py), kept on disk between runs.

Compiling the generated Python is the larger part of building a game's engine (tens of
milliseconds for a big game, on every ``ruledsl check``, ``run`` or ``test``). The code object is
kept with :mod:`marshal` in the user's cache directory (:mod:`ruledsl.language.diskcache`), in a
file named after a hash of the generated source itself, its file name, the Python version and the
ruledsl version: a cached file is only ever the compilation of exactly this source, so it cannot be
stale. The source is built only from checked names and constants (flowgen.py); the file is run
only if it is the user's own and writable by nobody else, since running a code object another user
could have written would run their code. Anything unexpected in it is a miss, and the source is
compiled again.
"""

from __future__ import annotations

import marshal
import sys
import types

from ..language import diskcache

KEPT = 32  # compiled modules kept in the cache directory


def compiled(source: str, filename: str) -> types.CodeType:
    """``compile(source, filename, "exec")``, read back from the cache when it holds it."""
    if diskcache.cache_dir() is None:
        return compile(source, filename, "exec")
    name = f"code-{diskcache.digest(source, filename, sys.version)}.marshal"
    data = diskcache.read(name)
    if data is not None:
        try:
            code = marshal.loads(data)
        except Exception:  # corrupt: compile it again
            code = None
        if isinstance(code, types.CodeType) and code.co_filename == filename:
            return code
    code = compile(source, filename, "exec")
    diskcache.write(name, marshal.dumps(code), "code-*.marshal", KEPT)
    return code

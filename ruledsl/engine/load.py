"""The front door of the pipeline: rules text to a :class:`~ruledsl.engine.game.Game`.

``loads`` runs every stage in order: the text is parsed and its ``include``
and ``extends`` followed (:mod:`ruledsl.language`), checked into a Model
(:mod:`ruledsl.checker`), compiled into a Program (:mod:`ruledsl.compiler`)
and wrapped as a Game, the factory of states. ``ruledsl.load`` and
``ruledsl.loads`` are these two functions.

The programs compiled last are kept in the process (:data:`KEPT` of them), under the text of
every file the rules read and the parameters: loading the same rules again (a second ``load`` of
a file, the desk's reloads, a test suite's many loads of one game) checks nothing and compiles
nothing, and its games share the generated code already built. A changed file, an included file
changed, other parameters are another key. ``RULEDSL_CACHE_DIR=""`` (every cache off) keeps
nothing here either; :func:`forget` empties it (for a test that changes the compiler).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from ..checker.check import check
from ..compiler.compiler import compile_model
from ..language import diskcache
from ..language.assemble import assemble
from ..language.errors import Diagnostic, ParameterError, RulesError, Span, read_source
from .game import Game


def loads(text: str, filename: str = "<rules>", params: dict | None = None) -> Game:
    """Compile rules given as text; ``filename`` is used in messages and to find included files."""
    if not isinstance(text, str):
        raise RulesError([Diagnostic("E001", f"rules must be given as text, not {type(text).__name__}",
                                     Span(str(filename)))])
    if params is not None and not isinstance(params, dict):
        raise ParameterError(f"params must be a dict of parameter names and values, not {type(params).__name__}")
    try:
        assembly = assemble(text.removeprefix("\ufeff"), str(filename))
        key = _key(assembly, str(filename), params)
        program, programs = _compiled(assembly, params) if key is None else _kept_or_compiled(key, assembly, params)
        return Game(program, dict(programs) if programs else None)
    except RecursionError:  # a last fence: the parse tree's depth is limited (language/sizes.py) well before this
        raise RulesError([Diagnostic("E216", "the rules nest too deeply for ruledsl to read them",
                                     Span(str(filename)), "give parts of long expressions names with `define`")]) from None


def _kept_or_compiled(key: tuple, assembly, params) -> tuple:
    """The program kept under ``key``, or compiled and kept. One thread compiles a key while the others
    that want the same key wait for it; loads of other rules go on meanwhile (the desk's server loads
    from threads). A compile that fails keeps nothing: a thread that waited for it tries itself."""
    with _lock:
        found = _kept.get(key)
        if found is not None:
            _kept.move_to_end(key)
            return found
        compiling = _compiling.setdefault(key, threading.Lock())
    try:
        with compiling:
            with _lock:
                found = _kept.get(key)
            if found is None:
                found = _compiled(assembly, params)
                with _lock:
                    _kept[key] = found
                    while len(_kept) > KEPT:
                        _kept.popitem(last=False)
            return found
    finally:
        with _lock:
            if _compiling.get(key) is compiling and not compiling.locked():
                del _compiling[key]


def _compiled(assembly, params) -> tuple:
    """(the program for the fewest players, the programs by player count or None): checked and compiled."""
    model = check(assembly, params)
    if not model.by_players:
        return compile_model(model), None
    # a size that depends on the player count: each count has its own card universe and table
    programs = {n: compile_model(model.for_players(n)) for n in range(model.min_players, model.max_players + 1)}
    return programs[model.min_players], programs


KEPT = 8  # rules compiled last, kept in the process
_kept: OrderedDict = OrderedDict()  # key (_key) -> (program, programs by player count or None)
_compiling: dict = {}  # key -> the lock held by the one thread compiling it
_lock = threading.Lock()  # guards _kept and _compiling; never held while compiling


def _key(assembly, filename: str, params) -> tuple | None:
    """What a compiled program depends on: every file's text, the file's name (in messages) and the
    parameters; None (not kept) when caching is off or a parameter value cannot be a key."""
    if diskcache.cache_dir() is None:
        return None
    try:  # a value's type too: 1, 1.0 and True are equal keys, not equal parameters
        chosen = tuple(sorted((name, type(value).__name__, value) for name, value in (params or {}).items()))
        hash(chosen)
    except TypeError:
        return None
    return filename, tuple(sorted(assembly.texts.items())), chosen


def forget() -> None:
    """Drop every program kept in the process: the next load of any rules compiles them again."""
    with _lock:
        _kept.clear()


def load(path, params: dict | None = None) -> Game:
    """Compile the rules file at ``path``; raise RulesError listing every problem."""
    return loads(read_source(path), str(path), params)

"""The front door of the pipeline: rules text to a :class:`~ruledsl.engine.game.Game`.

``loads`` runs every stage in order: the text is parsed and its ``include``
and ``extends`` followed (:mod:`ruledsl.language`), checked into a Model
(:mod:`ruledsl.checker`), compiled into a Program (:mod:`ruledsl.compiler`)
and wrapped as a Game, the factory of states. ``ruledsl.load`` and
``ruledsl.loads`` are these two functions.
"""

from __future__ import annotations

from ..checker.check import check
from ..compiler.compiler import compile_model
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
        model = check(assemble(text.removeprefix("\ufeff"), str(filename)), params)
        if not model.by_players:
            return Game(compile_model(model))
        # a size that depends on the player count: each count has its own card universe and table
        programs = {n: compile_model(model.for_players(n)) for n in range(model.min_players, model.max_players + 1)}
        return Game(programs[model.min_players], programs)
    except RecursionError:  # a last fence: the parse tree's depth is limited (language/sizes.py) well before this
        raise RulesError([Diagnostic("E216", "the rules nest too deeply for ruledsl to read them",
                                     Span(str(filename)), "give parts of long expressions names with `define`")]) from None


def load(path, params: dict | None = None) -> Game:
    """Compile the rules file at ``path``; raise RulesError listing every problem."""
    return loads(read_source(path), str(path), params)

"""ruledsl: a declarative rules language for card games.

    import ruledsl
    game = ruledsl.load("games/my_game.rules", params={"hand_size": 12})
    state = game.new_game(players=4, seed=7)
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    print(state.scores, state.winners)
"""

from __future__ import annotations

from .assemble import assemble
from .check import check
from .compile import compile_model
from .engine import Game, Move, State
from .errors import (
    Diagnostic,
    IllegalMove,
    ParameterError,
    RuledslError,
    RulesError,
    RulesRuntimeError,
    SaveError,
    Span,
    read_source,
)

__version__ = "0.1.0"

__all__ = [
    "load", "loads", "Game", "State", "Move", "Diagnostic", "RuledslError", "RulesError",
    "IllegalMove", "RulesRuntimeError", "SaveError", "ParameterError", "Span",
]


def loads(text: str, filename: str = "<rules>", params: dict | None = None) -> Game:
    """Compile rules given as text; ``filename`` is used in messages and to find included files."""
    if not isinstance(text, str):
        raise RulesError([Diagnostic("E001", f"rules must be given as text, not {type(text).__name__}",
                                     Span(str(filename)))])
    if params is not None and not isinstance(params, dict):
        raise ParameterError(f"params must be a dict of parameter names and values, not {type(params).__name__}")
    model = check(assemble(text.removeprefix("\ufeff"), str(filename)), params)
    return Game(compile_model(model))


def load(path, params: dict | None = None) -> Game:
    """Compile the rules file at ``path``; raise RulesError listing every problem."""
    return loads(read_source(path), str(path), params)

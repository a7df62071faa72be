"""ruledsl: a declarative rules language for card games.

    import ruledsl
    game = ruledsl.load("games/my_game.rules", params={"hand_size": 12})
    state = game.new_game(players=4, seed=7)
    while not state.is_over:
        state.apply(state.legal_moves()[0])
    print(state.scores, state.winners)

The package is a pipeline of stages, each a subpackage that imports only
earlier ones (docs/architecture.md): ``language`` -> ``checker`` ->
``compiler`` -> ``engine`` -> ``play``, ``adapters``, ``scenarios`` ->
``verify`` -> ``desk`` -> ``cli``. The modules at the top (``ruledsl.sim``,
``ruledsl.bots``, ``ruledsl.openspiel`` ...) are the documented paths of the
API, each the very module of its stage. The names below are loaded on first
use, so ``import ruledsl`` costs next to nothing.
"""

from __future__ import annotations

from .version import __version__

__all__ = [
    "__version__", "load", "loads", "Game", "State", "Move", "Diagnostic", "RuledslError", "RulesError",
    "IllegalMove", "RulesRuntimeError", "SaveError", "ParameterError", "Span",
]

_ERRORS = {"Diagnostic", "IllegalMove", "ParameterError", "RuledslError", "RulesError", "RulesRuntimeError",
           "SaveError", "Span", "read_source"}


def __getattr__(name: str):
    """The API's names, imported when first asked for (PEP 562)."""
    if name in ("load", "loads"):
        from .engine import load as module
    elif name in ("Game", "Move", "State"):
        from . import engine as module
    elif name in _ERRORS:
        from .language import errors as module
    else:
        raise AttributeError(f"module 'ruledsl' has no attribute {name!r}")
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))

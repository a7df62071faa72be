"""Stage 4, the engine: a Program run as games.

:mod:`.game` (the factory of states), :mod:`.state` (a game's state as plain
data: step, legal_moves, apply, clone, save), with its parts :mod:`.seeing`
(descriptions and views) and :mod:`.positions` (positions set up by name);
:mod:`.moves` (the Move), :mod:`.rules` (running a compiled rule),
:mod:`.save` (reading a save back), :mod:`.setlog` (card sets in play and in
logs), :mod:`.evaluate` (a define worked out from Python), :mod:`.observe`
(what a player is shown), :mod:`.coverage` (rule coverage) and :mod:`.load`
(the whole pipeline: ``ruledsl.load``). It imports the earlier stages only.
"""

from __future__ import annotations

from .game import Game
from .moves import Move
from .state import State

__all__ = ["Game", "Move", "State"]

"""Bots: players that pick a move from what their seat may know.

A bot sees only two things: the player's view (``State.view(player)``, which
hides what that player may not see) and the list of legal moves. It never
gets the state itself, so it cannot peek at hidden cards.

Computing a view costs time, and the simplest bots never read it, so a bot
says whether it wants one with the class attribute ``wants_view``; when it is
false the driver passes ``None`` instead of the view.

Bots are made by name from :data:`BOTS`::

    bot = make_bot("random", seed=7)
    move = bot.choose(None, state.legal_moves())
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

from .engine import Move
from .errors import ParameterError


class Bot:
    """The interface of every bot: ``choose(view, legal) -> Move``."""

    #: The name the bot is registered under.
    name = "bot"
    #: Whether :meth:`choose` reads the view; if not, the driver passes None.
    wants_view = False

    def choose(self, view: dict | None, legal: Sequence[Move]) -> Move:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class RandomBot(Bot):
    """Picks uniformly among the legal moves, with a generator of its own.

    Two RandomBots made with the same seed make the same choices when shown the
    same legal moves, so a game between random bots replays from its seeds.
    """

    name = "random"

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view, legal):
        return legal[self.rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return f"<RandomBot seed={self.seed}>"


class FirstMoveBot(Bot):
    """Always takes the first legal move (the order is stable, so it is deterministic)."""

    name = "first"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def choose(self, view, legal):
        return legal[0]


#: Bot classes by name; each takes a ``seed`` keyword.
BOTS: dict[str, Callable[..., Bot]] = {
    RandomBot.name: RandomBot,
    FirstMoveBot.name: FirstMoveBot,
}


def make_bot(name: str, seed: int = 0) -> Bot:
    """A new bot of the kind registered as ``name``, seeded with ``seed``."""
    try:
        factory = BOTS[name]
    except KeyError:
        known = ", ".join(sorted(BOTS))
        raise ParameterError(f"unknown bot '{name}' (bots: {known})") from None
    return factory(seed=seed)

"""What every bot is built on: the Bot interface, its settings, and judging a position.

:mod:`ruledsl.bots` (the simple bots and the registry) and
:mod:`ruledsl.search` (the tree-search bots) both build on this module; see
:mod:`ruledsl.bots` for how bots are made and asked.
"""

from __future__ import annotations

import math
from typing import Sequence

import attrs

from ..compiler.picking import Descending
from ..engine.moves import Move
from ..engine.sight import Sight
from ..engine.state import State
from ..engine.worlds import Knowledge
from ..language.errors import RulesRuntimeError


@attrs.frozen
class Setting:
    """One setting a bot takes: its type (int or float), default, least allowed value and meaning."""

    kind: type
    default: float
    least: float
    help: str


class Bot:
    """The interface of every bot: ``choose(view, legal) -> Move``.

    A bot with ``wants_worlds = True`` is asked ``choose(view, legal, knowledge)``
    instead, with the :class:`~ruledsl.worlds.Knowledge` of its player.
    """

    #: The name the bot is registered under.
    name = "bot"
    #: Whether :meth:`choose` reads the view; if not, the driver passes None.
    wants_view = False
    #: Whether :meth:`choose` takes a third argument, the player's Knowledge.
    wants_worlds = False
    #: The settings the bot takes (name -> Setting), given as ``name:key=value,...``.
    settings: dict = {}

    def choose(self, view: dict | None, legal: Sequence[Move]) -> Move:
        raise NotImplementedError

    @property
    def label(self) -> str:
        """The bot as it was asked for: its name and the settings given (e.g. ``ismcts:iterations=50``)."""
        given = getattr(self, "given", {})
        if not given:
            return self.name
        return self.name + ":" + ",".join(f"{k}={v}" for k, v in given.items())

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


def sight_for(state: State, bots) -> Sight | None:
    """A :class:`~ruledsl.engine.sight.Sight` of the game begun in ``state`` for the seats whose bot
    searches worlds (``bots``: a bot per seat, as a list or a dict by seat), or None if none does."""
    seats = bots.items() if isinstance(bots, dict) else enumerate(bots)
    watched = [p for p, b in seats if b.wants_worlds]
    return Sight(state, watched) if watched else None


def decide(bot: Bot, state: State, player: int, legal: Sequence[Move], sight: Sight | None = None) -> Move:
    """Ask ``bot`` for the move of ``player`` in ``state``, showing it only what the player may know.
    With ``sight`` (a :class:`~ruledsl.engine.sight.Sight` started with the game), a search bot's worlds
    also keep the cards the player saw go hidden where they went (the Sight catches up with the moves
    made since it last looked)."""
    view = state.view(player) if bot.wants_view else None
    if bot.wants_worlds:
        known, rules = seen(state, player, sight)
        return bot.choose(view, legal, Knowledge(state, player, known, rules))
    return bot.choose(view, legal)


def seen(state: State, player: int, sight: Sight | None) -> tuple:
    """What ``sight`` says ``player`` knows of the hidden cards of ``state``, as :class:`Knowledge` takes
    it: (card -> the zone the player saw it go into, or None; what the others' moves ruled out)."""
    if sight is None:
        return None, ()
    sight.catch_up(state)
    return sight.known(player), sight.ruled_out(player)


# ---- judging a position by the rules' own score and winner order


def ranking_keys(state: State) -> list[tuple]:
    """Each player's values of the ``winner`` keys, turned so that larger is better (a key may be a
    number or a list of numbers; one that has no value yet counts as the worst)."""
    keys = state.program.winner_keys
    return [tuple(_better(_key(fn, state, p), highest) for fn, highest in keys) for p in range(state.n)]


def _key(fn, state: State, player: int):
    try:
        v = fn(state, player)
    except (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError, RulesRuntimeError):
        return None
    return None if isinstance(v, (bool, str)) else v


def _better(v, highest: bool):
    if v is None:
        return -math.inf
    if highest:
        return v
    return -v if isinstance(v, (int, float)) else Descending(v)


def _lead(mine, best):
    """How far ``mine`` is ahead of ``best``: the difference of numbers, else -1, 0 or 1."""
    if isinstance(mine, (int, float)) and isinstance(best, (int, float)):
        return mine - best
    return (mine > best) - (mine < best)


def standing(state: State, player: int) -> tuple:
    """How far ``player`` leads (or trails) the best other player on each ``winner`` key, larger is better."""
    keys = ranking_keys(state)
    mine = keys[player]
    others = [k for p, k in enumerate(keys) if p != player]
    if not others:
        return mine
    return tuple(_lead(mine[i], max(k[i] for k in others)) for i in range(len(mine)))


def heuristic(state: State, player: int):
    """``heuristic(player)`` of the rules (``define heuristic(p)``), or None if they declare none.

    A value that cannot be worked out in this position counts as the worst."""
    fn = state.program.heuristic
    if fn is None:
        return None
    v = _key(fn, state, player)
    return -math.inf if v is None else v


def outcome(state: State, player: int) -> int:
    """1 if the game is over and ``player`` won, -1 if it is over and they did not, 0 while it goes on."""
    if not state.over or state.finding:
        return 0
    return 1 if player in state.winners else -1


def rewards(state: State) -> list[float]:
    """What a position is worth to each player, from 0 to 1.

    A finished game: 1 for a sole winner, shared equally by tied winners (partners, or all the
    players of a cooperative game, share one win: each gets all of it), 0
    for the others; 0 for all when the game ended with no winners. A game not finished (or stopped at its move bound): the
    share of the other players each one is ahead of by the rules' ``heuristic`` if they declare one,
    else by the ``winner`` order (a tie counts half).
    """
    n = state.n
    if state.over and not state.finding:
        winners = state.winners
        if not winners:  # a game over with no winners (`winner(p) when ...` did not hold): nobody won
            return [0.0] * n
        share = 1.0 / len(winners)
        if state.program.team is not None or state.program.cooperative:  # a partnership's win is one win
            teams = state.teams
            share = 1.0 / len({teams[w] for w in winners})
        out = [0.0] * n
        for w in winners:
            out[w] = share
        return out
    if n == 1:
        return [0.5]
    if state.program.heuristic is not None:  # the rules say how good a position is: rank by that
        keys = [heuristic(state, p) for p in range(n)]
    else:
        keys = ranking_keys(state)
    out = []
    for p in range(n):
        ahead = 0.0
        for q in range(n):
            if q != p:
                ahead += 1.0 if keys[p] > keys[q] else 0.5 if keys[p] == keys[q] else 0.0
        out.append(ahead / (n - 1))
    return out

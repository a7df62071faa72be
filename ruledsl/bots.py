"""Bots: players that pick a move from what their seat may know.

A bot never gets the state itself, so it cannot peek at hidden cards. It gets
what its player may know, in one of two forms:

- the player's view (``State.view(player)``), if the bot class sets
  ``wants_view``; otherwise the driver passes ``None`` (a view costs time);
- a :class:`~ruledsl.worlds.Knowledge`, if the bot class sets
  ``wants_worlds``: search bots sample from it whole worlds that agree with
  everything the player can see, and play moves ahead in them.

Every driver asks a bot for a move through :func:`decide`.

Bots are made by name from :data:`BOTS`, with settings after a colon::

    bot = make_bot("random", seed=7)
    bot = make_bot("ismcts:iterations=300", seed=7)
    move = decide(bot, state, state.current_player, state.legal_moves())
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

import attrs

from .engine import Move, State
from .errors import ParameterError, RulesRuntimeError
from .worlds import Knowledge


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


def decide(bot: Bot, state: State, player: int, legal: Sequence[Move]) -> Move:
    """Ask ``bot`` for the move of ``player`` in ``state``, showing it only what the player may know."""
    view = state.view(player) if bot.wants_view else None
    if bot.wants_worlds:
        return bot.choose(view, legal, Knowledge(state, player))
    return bot.choose(view, legal)


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


# ---- judging a position by the rules' own score and winner order


def ranking_keys(state: State) -> list[tuple]:
    """Each player's values of the ``winner`` keys, turned so that larger is better."""
    keys = state.program.winner_keys
    return [tuple(fn(state, p) if highest else -fn(state, p) for fn, highest in keys) for p in range(state.n)]


def standing(state: State, player: int) -> tuple:
    """How far ``player`` leads (or trails) the best other player on each ``winner`` key, larger is better."""
    keys = ranking_keys(state)
    mine = keys[player]
    others = [k for p, k in enumerate(keys) if p != player]
    if not others:
        return mine
    return tuple(mine[i] - max(k[i] for k in others) for i in range(len(mine)))


def rewards(state: State) -> list[float]:
    """What a position is worth to each player, from 0 to 1.

    A finished game: 1 for a sole winner, shared equally by tied winners, 0
    for the others. A game not finished (or stopped at its move bound): the
    share of the other players each one is ahead of by the ``winner`` order
    (a tie counts half).
    """
    n = state.n
    if state.over and not state.finding:
        winners = state.winners
        share = 1.0 / len(winners)
        out = [0.0] * n
        for w in winners:
            out[w] = share
        return out
    if n == 1:
        return [0.5]
    keys = ranking_keys(state)
    out = []
    for p in range(n):
        ahead = 0.0
        for q in range(n):
            if q != p:
                ahead += 1.0 if keys[p] > keys[q] else 0.5 if keys[p] == keys[q] else 0.0
        out.append(ahead / (n - 1))
    return out


def _after(world: State, move: Move) -> State:
    after = world.clone()
    after._apply(move)
    return after


class GreedyBot(Bot):
    """Looks one decision ahead: takes the move after which its player stands best by the rules'
    ``score`` and ``winner`` order (see :func:`standing`), averaged over a few sampled worlds.
    Ties are broken by the bot's own seeded generator."""

    name = "greedy"
    wants_worlds = True
    settings = {
        "samples": Setting(int, 4, 1, "worlds sampled to judge each move (hidden cards dealt at random)"),
    }

    def __init__(self, seed: int = 0, samples: int = 4):
        self.seed = seed
        self.samples = samples
        self.rng = random.Random(seed)

    def choose(self, view, legal, knowledge):
        if len(legal) == 1:
            return legal[0]
        player = knowledge.player
        totals: list | None = None
        for _ in range(self.samples):
            world = knowledge.sample(self.rng)
            try:
                values = [standing(_after(world, move), player) for move in legal]
            except RulesRuntimeError:
                continue  # a rule failed in this sampled world: judge by the others
            if totals is None:
                totals = [list(v) for v in values]
            else:
                for total, value in zip(totals, values):
                    for k, v in enumerate(value):
                        total[k] += v
        if totals is None:
            return legal[self.rng.randrange(len(legal))]
        best = max(totals)
        ties = [m for m, t in zip(legal, totals) if t == best]
        return ties[self.rng.randrange(len(ties))]

    def __repr__(self) -> str:
        return f"<GreedyBot seed={self.seed} samples={self.samples}>"


from .search import IsmctsBot, MctsBot  # noqa: E402 - the search bots build on the classes above

#: Bot classes by name; each takes a ``seed`` keyword and its settings as keywords.
BOTS: dict[str, Callable[..., Bot]] = {
    RandomBot.name: RandomBot,
    FirstMoveBot.name: FirstMoveBot,
    GreedyBot.name: GreedyBot,
    MctsBot.name: MctsBot,
    IsmctsBot.name: IsmctsBot,
}


def parse_bot(spec: str) -> tuple[str, dict]:
    """``"ismcts:iterations=300,c=0.7"`` -> ``("ismcts", {"iterations": 300, "c": 0.7})``.

    Raises ParameterError naming the bad part: an unknown bot or setting, a
    value that is not a number or is too small.
    """
    if not isinstance(spec, str):
        raise ParameterError(f"a bot is a name such as 'random' or 'ismcts:iterations=300', not {spec!r}")
    name, colon, rest = spec.strip().partition(":")
    name = name.strip()
    factory = BOTS.get(name)
    if factory is None:
        known = ", ".join(sorted(BOTS))
        raise ParameterError(f"unknown bot '{name}' (bots: {known})")
    settings = getattr(factory, "settings", {})
    values: dict = {}
    if not rest.strip():
        if colon:
            raise ParameterError(f"bot '{spec}': give settings after the colon, like {name}:key=value")
        return name, values
    for part in rest.split(","):
        key, eq, text = part.partition("=")
        key, text = key.strip(), text.strip()
        if key not in settings:
            known = ", ".join(sorted(settings)) or "none"
            raise ParameterError(f"bot '{name}' has no setting '{key}' (its settings: {known})")
        if not eq or not text:
            raise ParameterError(f"bot '{name}': setting '{key}' needs a value, like {key}={settings[key].default}")
        s = settings[key]
        try:
            value = s.kind(text)
        except ValueError:
            what = "a whole number" if s.kind is int else "a number"
            raise ParameterError(f"bot '{name}': setting '{key}' must be {what}, not {text!r}") from None
        if not value >= s.least or value == float("inf"):  # also refuses nan
            raise ParameterError(f"bot '{name}': setting '{key}' must be a finite number of at least {s.least}, "
                                 f"not {text}")
        if key in values:
            raise ParameterError(f"bot '{name}': setting '{key}' is given twice")
        values[key] = value
    return name, values


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A new bot as ``spec`` asks (a name, with settings after a colon), seeded with ``seed``."""
    name, values = parse_bot(spec)
    bot = BOTS[name](seed=seed, **values)
    bot.given = values
    return bot

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
from typing import Callable

from ..engine.setlog import building
from ..language.errors import ParameterError, RulesRuntimeError
from .botbase import (
    Bot,
    Setting,
    decide,
    ranking_keys,
    rewards,
    sight_for,
    standing,
)
from .lookahead import after as _after
from .lookahead import judge as _judge

__all__ = ["BOTS", "Bot", "FirstMoveBot", "GreedyBot", "RandomBot", "Setting", "decide", "make_bot", "parse_bot",
           "ranking_keys", "rewards", "sight_for", "standing"]


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


class GreedyBot(Bot):
    """Looks one decision ahead: takes the move after which its player stands best by the rules'
    ``score`` and ``winner`` order (see :func:`standing`), averaged over a few sampled worlds.
    Ties are broken by the bot's own seeded generator."""

    name = "greedy"
    wants_worlds = True
    settings = {
        "samples": Setting(int, 4, 1, "worlds sampled to judge each move (hidden cards dealt at random)"),
        "answers": Setting(int, 4, 0, "after a set of cards, up to this many decisions that follow from it "
                                      "(an offer's answer, a defence, the cards an attack takes) are made as "
                                      "a one-decision greedy player would, before the move is judged "
                                      "(0: judge it where the set ends)"),
    }

    def __init__(self, seed: int = 0, samples: int = 4, answers: int = 4):
        self.seed = seed
        self.samples = samples
        self.answers = answers
        self.rng = random.Random(seed)
        #: the decision of its last real choice that was not a step of a set: where a set began
        self._outer: str | None = None

    def choose(self, view, legal, knowledge):
        if len(legal) == 1:
            return legal[0]
        player = knowledge.player
        decision = knowledge.world.decision
        if building(knowledge.world):
            root = self._outer or decision
        else:
            root = self._outer = decision
        totals: list | None = None
        for _ in range(self.samples):
            world = knowledge.sample(self.rng)
            try:
                values = [_judge(_after(world, move, self.rng, self.answers, root), player) for move in legal]
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
        if len(ties) > 1 and any(m.name == "done" for m in ties) and building(knowledge.world):
            return next(m for m in ties if m.name == "done")  # a set no larger than it needs to be
        return ties[self.rng.randrange(len(ties))]

    def __repr__(self) -> str:
        return f"<GreedyBot seed={self.seed} samples={self.samples}>"


from .search import IsmctsBot, MctsBot  # noqa: E402 - they build on botbase, not on this module

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

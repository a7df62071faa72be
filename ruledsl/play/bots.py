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

from ..engine.moves import Move
from ..engine.setlog import building
from ..engine.state import State
from ..language.errors import ParameterError, RulesRuntimeError
from .botbase import (
    Bot,
    Setting,
    decide,
    heuristic,
    outcome,
    ranking_keys,
    rewards,
    standing,
)

__all__ = ["BOTS", "Bot", "FirstMoveBot", "GreedyBot", "RandomBot", "Setting", "decide", "make_bot", "parse_bot",
           "ranking_keys", "rewards", "standing"]


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


def _after(world: State, move: Move, rng: random.Random | None = None, answer: int = 0,
           root: str | None = None) -> State:
    """``world`` after ``move``; with ``rng``, a set of cards the move starts is also finished, and up
    to ``answer`` decisions that follow from it are made as one-decision greedy players would, until
    the player is back at the decision ``root`` (default: the one ``move`` is made in)."""
    if root is None:
        root = world.decision
    player = world.actor
    after = world.clone()
    after._apply(move)
    if rng is not None:
        finish_set(after, rng, answer=answer, root=root, player=player)
    return after


def finish_set(world: State, rng: random.Random, limit: int = 200, answer: int = 0, root: str | None = None,
               player: int | None = None) -> None:
    """Carry on the move the player of ``world`` has started, as far as it goes without a real choice:
    a decision with one legal move is made, and a set of cards being built is finished the shortest
    way (``done`` as soon as it is legal, else a card added at random; docs/language.md §4.12.3).
    A set is one move: only its end shows what it does.

    With ``answer`` above 0, the consequences of a finished set are followed too, for up to ``answer``
    real decisions, until the player is back at the decision ``root`` (where the move began; for a step
    of a set, the decision before the set): each decision is
    made by its player as a one-decision greedy player would (the move after which they stand best);
    a response window of another player is passed (nobody cuts in). So an offer is judged by the
    seller's answer, and an attack by the defence and by the cards it then takes or is given."""
    if player is None:
        player = world.actor
    answered = False
    for _ in range(limit):
        if world.over:
            return
        if world.actor != player and not answered:
            if not (answer and world.moves and world.moves[-1].name == "done"):
                return
            answered = True  # from here on, follow the consequences of the set
        if answered and world.actor == player and (root is None or world.decision == root):
            return
        legal = world.legal_moves()
        if len(legal) == 1:
            world._apply(legal[0])
        elif building(world):
            done = [m for m in legal if m.name == "done"]
            world._apply(done[0] if done else legal[rng.randrange(len(legal))])
        elif not answered:
            return
        elif answer <= 0:
            return
        else:
            answer -= 1
            passes = [m for m in legal if m.name == "pass"]
            if passes and world.actor != player:
                world._apply(passes[0])
                continue
            who = world.actor
            outcomes = [_after(world, m, rng) for m in legal]
            values = [_judge(o, who) for o in outcomes]
            _become(world, outcomes[values.index(max(values))])


def _become(world: State, other: State) -> None:
    """Make ``world`` the state ``other`` (a later copy of it)."""
    world._restore(other)


def _judge(world: State, player: int) -> tuple:
    """How good ``world`` is for ``player``, larger is better: by the rules' ``heuristic`` if they
    declare one (a won game first, a lost one last), else by the standing on the ``winner`` keys."""
    if world.program.heuristic is None:
        return standing(world, player)
    return (outcome(world, player), heuristic(world, player))


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

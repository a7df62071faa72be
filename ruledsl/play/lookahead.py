"""What a move leads to, for bots that look ahead: the move played in a copy of the world, a set of
cards it starts finished the shortest way, and the decisions that follow from it made as one-decision
greedy players would (:func:`finish_set`); and how good the world then is for a player (:func:`judge`).

``greedy`` judges every legal move this way; the search bots use it to rank the moves of a wide
decision before searching them (their ``lookahead`` setting).
"""

from __future__ import annotations

import random

from ..engine.moves import Move
from ..engine.setlog import building
from ..engine.state import State
from ..engine.table import in_window
from .botbase import heuristic, outcome, standing


def after(world: State, move: Move, rng: random.Random | None = None, answer: int = 0,
           root: str | None = None) -> State:
    """``world`` after ``move``; with ``rng``, a set of cards the move starts is also finished, and up
    to ``answer`` decisions that follow from it are made as one-decision greedy players would, until
    the player is back at the decision ``root`` (default: the one ``move`` is made in)."""
    if root is None:
        root = world.decision
    player = world.actor
    later = world.clone()
    later._apply(move)
    if rng is not None:
        finish_set(later, rng, answer=answer, root=root, player=player)
    return later


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
    seller's answer, and an attack by the defence and by the cards it then takes or is given. Any
    other move is followed, with ``answer`` above 0, through the other players' response windows
    that open after it (:func:`pass_windows`)."""
    if player is None:
        player = world.actor
    answered = False
    for _ in range(limit):
        if world.over:
            return
        if world.actor != player and not answered:
            if not (answer and world.moves and world.moves[-1].name == "done"):
                if answer:
                    pass_windows(world, player, limit)
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
        elif not answered or answer <= 0:
            return
        else:
            answer -= 1
            passes = [m for m in legal if m.name == "pass"]
            if passes and world.actor != player:
                world._apply(passes[0])
                continue
            who = world.actor
            outcomes = [after(world, m, rng) for m in legal]
            values = [judge(o, who) for o in outcomes]
            become(world, outcomes[values.index(max(values))])


def pass_windows(world: State, player: int, limit: int = 200) -> None:
    """Let every other player pass the response windows that open after the player's move, so that
    the move is judged where the player decides again (or where another player has a real decision):
    two moves are then compared at the same point of the game, not one before a draw the other
    already made (an offer turned down leaves a window open; one accepted may end it and start the
    player's next move, with its cards drawn)."""
    for _ in range(limit):
        if world.over or world.actor == player or in_window(world) is None:
            return
        passes = [m for m in world.legal_moves() if m.name == "pass"]
        if not passes:
            return
        world._apply(passes[0])


def become(world: State, other: State) -> None:
    """Make ``world`` the state ``other`` (a later copy of it)."""
    world._restore(other)


def judge(world: State, player: int) -> tuple:
    """How good ``world`` is for ``player``, larger is better: by the rules' ``heuristic`` if they
    declare one (a won game first, a lost one last), else by the standing on the ``winner`` keys."""
    if world.program.heuristic is None:
        return standing(world, player)
    return (outcome(world, player), heuristic(world, player))

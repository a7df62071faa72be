"""A set of cards in play and in a game log: the runtime half of card-set moves.

The parser turns ``move m(cs subset of ZONE) where COND`` into a decision that
builds the set card by card (:mod:`ruledsl.language.setmoves`); this module
tells such a decision apart while a game runs (:func:`building`), and writes a
finished set into a game log as one record, ``[name, [card, ...]]``
(:func:`fold`, :func:`unfold`)."""

from __future__ import annotations

from ..language.errors import RuledslError
from .moves import Move

# ---- a set being built, as the engine runs it ------------------------------------------------

#: The steps of a decision that builds a set, in the order the expansion above writes them.
STEPS = ("add", "done")


def building(state) -> bool:
    """Whether ``state`` waits for a step of a set being built (``add(c)`` or ``done``)."""
    if state.over:
        return False
    return tuple(o.name for o in state.program.choices[state.choice].options) == STEPS


# ---- a set in a game log: one record ---------------------------------------------------------
#
# A log records a whole set as one record, the move's name and the cards in the order they were
# added: ``["strike", [12, 40]]`` stands for the steps ``["strike"]``, ``["add", 12]``,
# ``["add", 40]``, ``["done"]``. Logs written before records (with the steps) read as they are.


def is_record(move) -> bool:
    """Whether a logged move is a set record ``[name, [card, ...]]``."""
    return (isinstance(move, (list, tuple)) and len(move) == 2 and isinstance(move[0], str)
            and isinstance(move[1], list)
            and all(isinstance(c, int) and not isinstance(c, bool) for c in move[1]))


def unfold(moves) -> list:
    """The engine's steps of a logged list of moves: each set record becomes its steps."""
    out = []
    for m in moves:
        if is_record(m):
            out.append([m[0]])
            out.extend(["add", c] for c in m[1])
            out.append(["done"])
        else:
            out.append(m)
    return out


def fold(game, players: int, seed: int, moves) -> list:
    """The moves of a game (steps, as JSON lists) with every finished set made one record.

    The game is played again to tell a set's steps from other moves; a set left unfinished (a game
    that stopped in the middle of one) keeps its steps, and so do moves past a step that fails."""
    moves = [list(m) for m in moves]
    out: list = []
    try:
        s = game.new_game(players, seed)
        i = 0
        while i < len(moves):
            m = Move.parse(moves[i])
            who = s.actor
            s._apply(m)
            i += 1
            if m.args or not building(s) or s.decision != m.name or s.actor != who:
                out.append(moves[i - 1])
                continue
            start, cards, finished = i - 1, [], False
            while i < len(moves) and not finished:
                step = Move.parse(moves[i])
                s._apply(step)
                i += 1
                if step.name == "add":
                    cards.append(step.args[0])
                finished = step.name == "done"
            if finished:
                out.append([m.name, cards])
            else:  # the log ends in the middle of the set: its steps
                out.extend(moves[start:i])
        return out
    except Exception:  # a log that does not replay (a failure found by verify): the rest as it is
        return out + moves[len(unfold(out)):]


def describe(program, record) -> str:
    """A set record in words: ``strike{9♥, 2♣}``."""
    labels = program.card_labels
    return record[0] + "{" + ", ".join(labels[c] if 0 <= c < len(labels) else str(c) for c in record[1]) + "}"


def describe_moves(game, players: int, seed: int, moves) -> list[tuple]:
    """The moves of a game in words, as the view names cards (``play(Q♦)``, a set as ``strike{9♥, 2♣}``),
    each as ``(player, words)``: what a log shows beside the moves' numbers. A set of cards is one
    move; moves past one that does not replay are given as they are, with player None."""
    moves = fold(game, players, seed, unfold(moves))
    out: list = []
    try:
        s = game.new_game(players, seed)
        for m in moves:
            who = s.current_player
            out.append((who, describe(game.program, m) if is_record(m) else s.describe(m)))
            for step in unfold([m]):
                s.apply(step)
    except RuledslError:
        pass
    out.extend((None, str(m)) for m in moves[len(out):])
    return out

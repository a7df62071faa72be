"""Leaks through numbers and words: another player's move whose number, player or word argument
depends on a card the viewer cannot see.

The information-flow check (:func:`.checks.check_flow`) replays a window of moves in a world the
viewer cannot tell from the real one (the cards they never see trade places), as long as the moves stay
legal there. When another player's move is not legal there, but moves of its name are, and none of
them has its numbers, players and words (shown to everybody as they are, where a hidden card is
``?``: :func:`ruledsl.engine.observe.move_seen`), what the viewer was shown rules the world out:
the move tells them something about the cards they cannot see. ``bury(5)`` allowed only for a rank the mover holds face
down tells everybody that the mover holds a 5; ``name(red)`` allowed only for a colour the mover
holds tells them a colour. The rules may reveal the card (``reveal``/``show``), or tell the fact
(``tell``): then the world keeps it, and there is no leak.
"""

from __future__ import annotations

from ..checker import types as T
from ..engine.state import State
from ..language.errors import RuledslError

LEAK = object()  # counterpart(): no move of the other world looks like the move made


def counterpart(before: State, world: State, m, player: int):
    """What ``world`` (a world ``player`` cannot tell from ``before``) makes of ``m``: (``m``, the world
    after it) if ``m`` is legal there; LEAK if moves of ``m``'s name are allowed there but none with
    its numbers, players and words (they depend on cards ``player`` cannot see); else None: the
    world cannot go on. (Whether a move of that name is allowed at all may depend on hidden cards
    as the rules mean it to: a player who passes because they cannot play tells the table so, as at
    a real table, and a card that does not follow says the hand has none that would.)"""
    legal = world.legal_moves()
    if m in legal:
        return _made(world, m)
    if before.actor == player or before.program.choices[before.choice].secret:
        return None  # the player's own move (what they may do is the hidden-information check's), or unseen
    words = [i for i, kind in enumerate(_arg_kinds(before, m)) if kind != T.CARD]
    if not words:
        return None
    same = [x for x in legal if x.name == m.name and len(x.args) == len(m.args)]
    if same and not any(all(x.args[i] == m.args[i] for i in words) for x in same):
        return LEAK
    return None


def _made(world: State, x):
    w = world.clone()
    try:
        w.apply(x)
    except RuledslError:
        return None
    return x, w


def _arg_kinds(s: State, m) -> list:
    for o in s.program.choices[s.choice].options:
        if o.name == m.name and len(o.params) == len(m.args):
            return list(o.kinds)
    return [T.CARD] * len(m.args)


def number_message(player, before, shown) -> str:
    return (f"player {player} can learn about cards they cannot see from player {before.actor}'s move {shown}: "
            "had those cards lain elsewhere, no move shown to them like this one would have been allowed "
            "(a number, player or word in the move depends on a card they cannot see)")

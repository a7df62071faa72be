"""Leaks through numbers and words: another player's move whose number, player or word argument
depends on a card the viewer cannot see.

The information-flow check (:func:`.checks.check_flow`) replays a window of moves in a world the
viewer cannot tell from the real one (the cards they never see trade places). Each move of the real
game needs its counterpart there: the same move if it is legal, else the move with its cards replaced
by the cards lying where they lay, else any legal move shown to the viewer the same way
(:func:`ruledsl.engine.observe.move_seen`: a hidden card is ``?``, a number or a word is shown as it
is). If the world has no such move, what the viewer was shown rules the world out: the move tells them
something about the cards they cannot see. ``bury(5)`` allowed only for a rank the mover holds face
down tells everybody that the mover holds a 5; ``name(hearts)`` allowed only for a suit the mover
holds tells them a suit. The rules may reveal the card (``reveal``/``show``), or tell the fact
(``tell``): then the world keeps it, and there is no leak.
"""

from __future__ import annotations

from ..checker import types as T
from ..engine.moves import Move
from ..engine.observe import move_seen
from ..engine.state import State
from ..language.errors import RuledslError

LEAK = object()  # counterpart(): no move of the other world looks like the move made
COUNTERPARTS = 8  # moves of the other world tried at most to find one that looks the same


def counterpart(before: State, world: State, m, player: int, shown: str, relabel: dict):
    """The move of ``world`` (a world ``player`` cannot tell from ``before``) that ``player`` would
    see as they see ``m``: ``m`` itself if it is legal there, else ``m`` with its cards replaced by
    the cards lying where they lay, else a legal move of the same name shown to ``player`` as
    ``shown``. Returns (that move, the world after it); None when the world cannot go on; LEAK when
    moves of that name are allowed in ``world`` but none with ``m``'s numbers, players and words:
    they depend on cards ``player`` cannot see. (Whether a move of that name is allowed at all may
    depend on them as the rules mean it to: a player who passes because they cannot play tells the
    table so, as at a real table; the shape-of-play check looks at what follows.)"""
    legal = world.legal_moves()
    kinds = _arg_kinds(before, m)
    if m in legal:
        return _made(world, m)
    if relabel and m.args:
        mapped = Move(m.name, tuple(relabel.get(a, a) if kind == T.CARD else a for a, kind in zip(m.args, kinds)))
        if mapped in legal:
            return _made(world, mapped)
    if before.actor == player or before.program.choices[before.choice].secret:
        return None  # the player's own move (what they may do is the hidden-information check's), or unseen
    same = [x for x in legal if x.name == m.name and len(x.args) == len(m.args)]
    if not same:
        return None
    words = [i for i, kind in enumerate(kinds) if kind != T.CARD]
    if words:
        same = [x for x in same if all(x.args[i] == m.args[i] for i in words)]
        if not same:
            return LEAK
    for x in same[:COUNTERPARTS]:
        made = _made(world, x)
        if made is not None and move_seen(world, made[1], x, player) == shown:
            return made
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

"""A position's identity: what a state is once its history is forgotten.

Two states with the same :func:`position` play on the same way: the same
zones, places, variables, flow (program counter, locals, pending decision),
random generator, grants, cards shown and facts told. What is left out cannot
change what comes next: the moves made so far and the seed (the generator's
current value is kept, and only it draws). The move count is left out too,
although the move limit reads it: a position met again after more moves is
exactly what endless play is, and the limit only hides it. So are the
parameters of the pending decision's moves (:func:`dead_slots`): they still
hold the last such move's arguments, which the next move overwrites.

:func:`position_hash` is its 64-bit hash: exploration keeps these, not the
positions, and confirms a cycle it finds on the positions themselves
(:func:`same_position`) before it reports one.
"""

from __future__ import annotations

import weakref

from ..engine.state import _freeze

_DEAD: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # program -> [slots dead at each decision]


def dead_slots(program) -> list:
    """For each decision, the locals it leaves no trace in: the parameters of its own moves. While it
    is pending they hold the arguments of the last such move made, and making a move sets them first."""
    dead = _DEAD.get(program)
    if dead is None:
        dead = _DEAD[program] = [sorted({slot for o in c.options for slot, _ in o.params}) for c in program.choices]
    return dead


def position(s) -> tuple:
    """The part of state ``s`` that decides its future (see the module's docstring)."""
    local = [_freeze(v) for v in s.locals]
    if s.choice >= 0:
        for slot in dead_slots(s.program)[s.choice]:
            local[slot] = None
    return (tuple(map(tuple, s.zones)), tuple(s.places), tuple(_freeze(v) for v in s.vars),
            tuple(local), s.pc, s.choice, s.actor, s.current, s.rng,
            tuple(map(tuple, s.grants)), tuple(map(tuple, s.shown)), tuple(map(tuple, s.known)),
            s.is_over, s.finding)


def position_hash(s) -> int:
    return hash(position(s))


def same_position(a, b) -> bool:
    return a.program is b.program and a.n == b.n and position(a) == position(b)

"""The flow run one step at a time, as the engine did before it ran generated code (flowgen.py).

A test oracle: it makes a move by walking ``program.code`` and calling each
step's closure (never the source text the generated code inlines), checks the
triggers by calling their closures, and lists legal moves by running each
option's domain and condition closures. tests/test_generated.py plays every
game both ways and compares the states after every move.
"""

from __future__ import annotations

import random

from ruledsl.compiler.steps import CHOOSE, EFFECT, HALT, JUMP, JUMP_IF_NOT, SET
from ruledsl.engine.moves import Move


def legal_moves(state) -> list:
    """The moves of the pending decision, from the options' closures."""
    choice = state.program.choices[state.choice]
    L = state.locals.copy()
    out = []
    for option in choice.options:
        def expand(i, args):
            if i == len(option.params):
                if option.where is None or option.where(state, L):
                    out.append(Move(option.name, tuple(args)))
                return
            slot, domain = option.params[i]
            for v in list(domain(state, L)):
                L[slot] = v
                expand(i + 1, args + [v])

        expand(0, [])
    return out


def apply(state, move) -> None:
    """Make ``move`` (legal) on ``state`` by walking the steps."""
    p = state.program
    choice = p.choices[state.choice]
    option = next(o for o in choice.options if o.name == move.name and len(o.params) == len(move.args))
    L = state.locals
    for (slot, _), v in zip(option.params, move.args):
        L[slot] = v
    state.moves.append(move)
    state.shown = []
    state.choice = state.actor = -1
    state._legal = None
    pc = option.body
    watched = p.trigger_mask if p.triggers else 0
    while True:
        kind, a, b, _span = p.code[pc]
        if kind == EFFECT:
            changed = a(state, L)
            pc += 1
            if changed & watched:
                state.pc = pc
                if _fire(state):
                    break
        elif kind == SET:
            a(state, L)
            pc += 1
        elif kind == JUMP_IF_NOT:
            pc = pc + 1 if a(state, L) else b
        elif kind == JUMP:
            pc = a
        elif kind == CHOOSE:
            state.pc = pc
            state.choice = a
            state.actor = p.choices[a].actor(state, L)
            state._legal = legal_moves(state)
            if not state._legal and p.choices[a].no_move_end:
                state._end()
            break
        elif kind == HALT:
            state.pc = pc
            state._end()
            break
        else:
            raise AssertionError("RETURN in the flow")
    if not state.over and len(state.moves) >= p.limit:
        state._end()
        state.finding = f"the game reached its limit of {p.limit} moves without ending"


def _fire(state) -> bool:
    p = state.program
    L = state.locals
    again = True
    while again:
        again = False
        for t in p.triggers:
            for v in (t.domain(state, L) if t.domain is not None else (None,)):
                if t.slot is not None:
                    L[t.slot] = v
                if t.cond(state, L):
                    pc = t.body
                    while True:
                        kind, a, b, _span = p.code[pc]
                        if kind in (EFFECT, SET):
                            a(state, L)
                            pc += 1
                        elif kind == JUMP_IF_NOT:
                            pc = pc + 1 if a(state, L) else b
                        elif kind == JUMP:
                            pc = a
                        elif kind == HALT:
                            state.pc = pc
                            state._end()
                            return True
                        else:
                            break
                    again = True
                    break
            if again:
                break
    return False


def play_both_ways(game, n: int, seed: int, limit: int | None = None) -> tuple:
    """A random game of ``n`` players from ``seed`` (moves drawn by a random.Random of the same seed),
    played by the generated code and by the steps side by side: before each move both list the same
    legal moves, after it both states are equal, saves included; at the end (or after ``limit``
    moves) both are over or not, with the same winners. The generated code's last state and the
    moves made."""
    fast = game.new_game(n, seed)
    slow = fast.clone()
    slow._legal = legal_moves(slow)
    rng = random.Random(seed)
    made = []
    while not fast.is_over and (limit is None or len(made) < limit):
        legal = fast.legal_moves()
        assert legal == slow._legal, (n, seed, len(fast.moves))
        move = legal[rng.randrange(len(legal))]
        fast._apply(move)
        apply(slow, move)
        made.append(move)
        assert fast == slow, (n, seed, len(fast.moves))
        assert fast.to_json() == slow.to_json(), (n, seed, len(fast.moves))
    assert fast.over == slow.over and fast.winners == slow.winners
    return fast, made

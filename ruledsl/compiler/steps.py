"""The kinds of step a compiled flow is made of (read by the compiler, its helpers and the engine).

EFFECT changes the game and is followed by a trigger check; SET only keeps
the flow's own books (loop counters, locals).
"""

EFFECT, SET, JUMP, JUMP_IF_NOT, CHOOSE, HALT, RETURN = range(7)

"""Verify's rule for `announce` (docs/language.md §4.14.3, docs/verify.md): an intended disclosure.

`announce v = EXPR` tells whoever sees ``v`` a true fact that may depend on cards they cannot see
("do you hold a seven?": yes). The information-flow check compares the real game with a world in
which the cards a player never sees trade places; in such a world an announcement may come out
otherwise, and the play that follows it (cards handed over, a turn that goes on) differs on
purpose. So the rule is: **a world is compared with the real game only while every announced
variable has the same value in both.** Once an announcement tells them apart, the world is one the
player has been told is not the real one, and the comparison of that world stops there; what the
player saw up to then must still be the same in both. A difference that no announcement accounts
for is a leak as before.

Announced variables are set only by `announce` (the checker's E206), so their values after a move
are the latest announcements: verify compares them after every move.
"""

from __future__ import annotations


def told_apart(real, world) -> bool:
    """Whether some announcement came out otherwise in ``world`` than in ``real``."""
    slots = real.program.announced
    return bool(slots) and any(real.vars[i] != world.vars[i] for i in slots)

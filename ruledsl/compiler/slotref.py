"""How the generated Python reads a slot of the flow's locals: ``L[n]`` in place (not ``xL[n]``,
``s.L[n]`` or ``f(L)[n]``). Every module that rewrites or inspects generated text by its slots reads
them with this one pattern."""

from __future__ import annotations

import re

SLOT_REF = re.compile(r"(?<![\w.\]])L\[(\d+)\]")


def put_for_slot(text: str, slot: int, by: str) -> str:
    """``text`` with each in-place read of ``L[slot]`` written as ``by`` (the other slots kept)."""
    own = str(slot)
    return SLOT_REF.sub(lambda found: by if found.group(1) == own else found.group(0), text)

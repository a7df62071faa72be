"""A generated function's locals slots read back from Python locals where that is safe.

The flow keeps its locals (a move's card, a procedure's parameters, ``let``) in the list ``L``,
part of the state. A stretch of generated code often writes a slot and reads it again a few lines
later (``L[17] = colour of the card``, then ``L[17]`` in each index of the card's line); each read is
a list lookup. This pass rewrites, in the text of one generated function, a write at the top level
of its body, ``L[k] = EXPR``, into ``L[k] = _Lvk = EXPR`` (the slot is still written: the state is
the same) and the slot's reads that follow into the Python local ``_Lvk``, until anything might
write the slot otherwise. Conservatively, forwarding stops for every slot at:

- a line that hands ``L`` or ``s`` on as a whole (a call may read or write any slot), calls one
  of the State's own methods, or rebinds ``L``;
- a loop (``for``, ``while``, a comprehension): a read early in a loop body would otherwise see the
  value from before a write later in the body;
- a ``lambda`` or ``def`` (code run later).

and for one slot at any other write of it (in a branch, ``+=``): later reads go to ``L`` again.
Only the text before a line's trailing comment is rewritten; the function's lines keep their
number and order, so a generated line still names its rules line.
"""

from __future__ import annotations

import re

from .slotref import SLOT_REF
from .srctext import code_part

_SLOT_WRITE = re.compile(r"(?<![\w.\]])L\[(\d+)\]\s*(?:[-+*/%|&^]|//|<<|>>|\*\*)?=(?!=)")
_TOP_SET = re.compile(r"    L\[(\d+)\] = (?!=)(.*)")
_STOPS = re.compile(r"(?<![\w.])(?:L(?!\[)|s(?![\w.])|s\._\w+\s*\(|s\.locals)|\b(?:for|while|lambda|def)\b")



def forward_slots(lines: list, start: int) -> None:
    """Rewrite the body of the function whose ``def`` line is ``lines[start]`` (up to the next
    ``def`` at the left margin or the end), in place."""
    live: dict = {}  # slot -> the Python local holding its value
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("def ")), len(lines))
    for i in range(start + 1, end):
        code, comment = code_part(lines[i])
        if _STOPS.search(code):
            live.clear()
            continue
        for found in _SLOT_WRITE.finditer(code):
            live.pop(found.group(1), None)
        top = _TOP_SET.fullmatch(code)
        if live:
            if top is not None:  # the value written may read other slots: those reads forwarded
                code = f"    L[{top.group(1)}] = " + SLOT_REF.sub(lambda m: live.get(m.group(1), m.group(0)),
                                                                    top.group(2))
            else:
                code = SLOT_REF.sub(lambda m: live.get(m.group(1), m.group(0)), code)
        if top is not None:
            slot = top.group(1)
            name = f"_Lv{slot}"
            code = code.replace(f"    L[{slot}] = ", f"    L[{slot}] = {name} = ", 1)
            live[slot] = name
        lines[i] = code + comment

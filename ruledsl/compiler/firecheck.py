"""The trigger check asked in place: every trigger's condition written into the stretch that may
make one hold, so that ``_fire`` is called only when some trigger would fire (flowgen.Flow._fire_call).

It applies when every condition can be asked without the locals: a trigger without a variable whose
condition does not read L, or one over a few constant values whose condition reads its variable only
as ``L[slot]`` (each value written into its own test, as the generated ``_fire`` writes them). The
tests are asked in ``_fire``'s order (first declared first, each trigger's values in turn), and the
first that holds leaves its number in ``_held``: ``_fire`` starts from that trigger, its variables set
as its own check would leave them, without asking the conditions again.
"""

from __future__ import annotations

import ast
import re

from . import hoist
from .slotref import put_for_slot
from .srctext import conjuncts, reads_only_slot

MAX_UNROLL = 4  # a trigger over at most this many constant values is checked without a loop


def constant_values(t):
    """The values of trigger ``t``'s variable when they are a few whole numbers known when compiling
    (at most MAX_UNROLL), else None."""
    values = t.domain(None, None) if getattr(t.domain, "constant", False) else None
    if type(values) in (range, tuple) and 0 < len(values) <= MAX_UNROLL and all(type(v) is int for v in values):
        return values
    return None


def in_place(triggers, names: dict):
    """(test, lines, held) when every trigger's condition can be asked in place: ``test`` holds if
    some trigger would fire, and leaves in ``_held`` the number (from 1) of its first test that held;
    ``lines`` set the trigger variables as ``_fire`` leaves them when none fires (each one's last
    value); ``held[k - 1]`` is (the trigger's number, the lines that set the trigger variables as
    ``_fire``'s check leaves them) when test k held first. None when it does not apply."""
    tests, leaves, held = [], [], []
    for i, t in enumerate(triggers):
        src = getattr(t.cond, "src", None)
        if src is None:
            return None
        cond = f"({src})"
        if t.domain is None:
            if re.search(r"\bL\b", cond) or ":=" in cond or "lambda" in cond:
                return None
            tests.append(cond)
            held.append((i, tuple(leaves)))
            continue
        values = constant_values(t)
        if values is None or not reads_only_slot(cond, t.slot):
            return None
        for v in values:
            tests.append(put_for_slot(cond, t.slot, str(v)))
            held.append((i, (*leaves, f"L[{t.slot}] = {v}")))
        leaves.append(f"L[{t.slot}] = {values[-1]}")
    if not tests:
        return None
    # a part asked by several conditions (a define they share) worked out once; then each test leaves
    # its number when it holds (a number from 1 is true: the `or` goes on as it did)
    parts = conjuncts(hoist.shared_parts(" or ".join(tests), names), ast.Or)
    if len(parts) != len(tests):
        return None
    return " or ".join(f"({part} and (_held := {k}))" for k, part in enumerate(parts, 1)), leaves, held


def held_lines(held: list) -> list:
    """The lines (at the indentation of the body of ``_fire``'s loop) that take the trigger and its
    variables from ``held``, the number of the test of the check in place that held first, and
    otherwise (``held`` 0) go on to the check: its lines follow, one level deeper."""
    lines = ["if held:"]
    for k, (i, sets) in enumerate(held, 1):
        inner = "    "
        if len(held) > 1:
            lines.append(f"    {'else:' if k == len(held) else 'if' if k == 1 else 'elif'}"
                         f"{'' if k == len(held) else f' held == {k}:'}")
            inner += "    "
        lines.extend(f"{inner}{text}" for text in (f"t = {i}", *sets))
    return lines + ["    held = 0", "else:"]

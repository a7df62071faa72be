"""Which parts of a move's condition can be tested before its inner loops: for a move of several
arguments (``move m(c in hand, k in colour) where k != wild and c.colour == wild and ...``) the
generated listing loops over every pair of values; a part that reads only the outer arguments and
can neither fail nor change anything is tested once per outer value instead of once per pair.

Only a leading run of such parts is taken out of the condition (the parts before a hoisted one
are all of that kind), and only where every loop it then skips goes over a constant domain, so
nothing that could raise or change the state is left out or run more: the moves listed, their
order and the errors met stay the same. A part qualifies when it is built only of ``L[n]``,
constants, a card attribute's column (``_a_<name>_<n>[L[n]]``) indexed by a card argument,
``==``/``!=``, ``not``, ``and``/``or``; anything else (a call, an ordering comparison that may meet
``None``) keeps its place.
"""

from __future__ import annotations

import ast
import re

_COLUMN = re.compile(r"_a_\w+_\d+")


def _flat(node) -> list:
    """The parts of nested ``and``s, in order."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        out = []
        for v in node.values:
            out.extend(_flat(v))
        return out
    return [node]


def _slot(node):
    """n for ``L[n]``, else None."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "L" \
            and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int:
        return node.slice.value
    return None


def _reads(node, card_slots: frozenset, columns) -> set | None:
    """The slots of L a part reads, or None if it may fail or do anything but read."""
    if isinstance(node, ast.Constant):
        return set() if node.value is None or type(node.value) in (int, bool, str) else None
    slot = _slot(node)
    if slot is not None:
        return {slot}
    if isinstance(node, ast.Subscript):  # a card attribute's column at a card argument
        inner = _slot(node.slice)
        if isinstance(node.value, ast.Name) and _COLUMN.fullmatch(node.value.id) and inner in card_slots \
                and columns(node.value.id):
            return {inner}
        return None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _reads(node.operand, card_slots, columns)
    if isinstance(node, ast.BoolOp):
        parts = [_reads(v, card_slots, columns) for v in node.values]
        return None if any(p is None for p in parts) else set().union(*parts)
    if isinstance(node, ast.Compare) and all(isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops):
        parts = [_reads(v, card_slots, columns) for v in [node.left, *node.comparators]]
        return None if any(p is None for p in parts) else set().union(*parts)
    return None


def split(cond: str, slots: list, card_slots: frozenset, constant: list, columns) -> tuple:
    """``(tests, rest)``: ``tests[k]`` the parts of ``cond`` to test right inside the loop over
    argument k (slot ``slots[k]``), ``rest`` the condition left for the innermost loop (None: none).

    ``constant[k]``: whether argument k's domain is a constant (a loop that can be skipped);
    ``columns(name)``: whether a namespace name is a card attribute's column (one value per card)."""
    tests: list = [[] for _ in slots]
    try:
        tree = ast.parse(cond, mode="eval").body
    except SyntaxError:
        return tests, cond
    parts = _flat(tree)
    texts = [ast.get_source_segment(cond, p) for p in parts]
    if any(t is None for t in texts) or len(parts) < 2 and len(slots) < 2:
        return tests, cond
    level_of = {slot: k for k, slot in enumerate(slots)}
    last = len(slots) - 1
    rest = []
    leading = True
    for part, text in zip(parts, texts):
        reads = _reads(part, card_slots, columns) if leading else None
        if reads is None:
            leading = False
            rest.append(text)
            continue
        level = max((level_of.get(s, last) for s in reads), default=0)  # another slot: left in place
        if level < last and all(constant[level + 1:]):
            tests[level].append(f"({text})")
        else:
            rest.append(text)
    if not rest:
        return tests, None
    if len(rest) == len(parts):
        return tests, cond
    return tests, " and ".join(f"({t})" for t in rest)

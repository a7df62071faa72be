"""Small questions about the generated Python text of an expression or a statement (flowgen.py):
which locals it reads or writes, the parts of a top-level `and`, the lines that keep a mask unused,
the arguments of a listed move that may live in a Python local, a line's code apart from its comment."""

from __future__ import annotations

import ast
import re

from .hoist import quiet
from .slotref import SLOT_REF, put_for_slot


def rules_line(span) -> str:
    """``file:line`` for a comment: a file name cannot end the comment (no line breaks in it)."""
    return f"{span.file}:{span.line}".replace("\n", " ").replace("\r", " ")


def code_part(line: str) -> tuple[str, str]:
    """A generated line as (its code, its trailing comment, empty if none)."""
    at = line.find("  # ")
    return (line, "") if at < 0 else (line[:at], line[at:])


def reads_only_slot(cond: str, slot: int) -> bool:
    """Whether the condition's text uses the locals only as ``L[slot]`` read in place (no other slot,
    no L handed to a function, no assignment), so that a constant may stand for it."""
    if ":=" in cond or "lambda" in cond:
        return False
    rest = put_for_slot(cond, slot, "0")
    return re.search(r"\bL\b", rest) is None


def unused_mask(lines: list, changed) -> list:
    """A statement's lines where the mask of what it changed (kept in the variable ``changed``) is not
    looked at: its assignments become ``pass``."""
    if not isinstance(changed, str):
        return lines
    heads = (f"{changed} = ", f"{changed} |= ")
    return [text[:len(text) - len(text.lstrip())] + "pass" if text.lstrip().startswith(heads) else text
            for text in lines]


def writes_locals(text: str) -> bool:
    """Whether an expression's text may write to L: L handed to a function, a loop over L[slot], or L
    anywhere but read in place as ``L[n]``."""
    if "s.locals" in text:
        return True
    rest = SLOT_REF.sub("", text.replace(" ", ""))
    return re.search(r"\bL\b", rest) is not None or re.search(r"\bfor\s*L\[", text) is not None


def conjuncts(cond: str, op=ast.And) -> list:
    """The parts of ``a and b and ...`` at the top of an expression's text (else the text itself);
    with ``op=ast.Or``, those of ``a or b or ...``."""
    try:
        tree = ast.parse(cond, mode="eval").body
    except SyntaxError:
        return [cond]
    if not (isinstance(tree, ast.BoolOp) and isinstance(tree.op, op)):
        return [cond]
    parts = [ast.get_source_segment(cond, v) for v in tree.values]
    if any(p is None for p in parts):
        return [cond]
    return [f"({p})" for p in parts]


def loop_locals(slots: list, texts: list, ns: dict):
    """The arguments of a listed move that its loops may keep in a Python local (``_xN`` for slot N)
    instead of a slot of L: those read only in place as ``L[N]`` in ``texts`` (the loops' domains,
    the tests), where the code handed L never reads them (hoist.quiet). The listing's copy of L is
    thrown away, so the slot need not hold the last value. A function that rewrites a text so."""
    names = {}
    for slot in slots:
        if all(quiet(put_for_slot(text, slot, f"_x{slot}"), slot, ns) for text in texts):
            names[str(slot)] = f"_x{slot}"

    def put(text: str) -> str:
        return SLOT_REF.sub(lambda found: names.get(found.group(1), found.group(0)), text) if names else text

    return put

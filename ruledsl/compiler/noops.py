"""Statements of a generated function that do nothing, taken out of its text.

The flow's code is written step by step, and some steps leave lines that cost a bytecode each time
they run and do nothing: ``pass  # jump to step N`` where a jump goes on in the same function, the
``pass`` that stands for a mask of changes nobody looks at (srctext.unused_mask). CPython keeps a
``NOP`` for each such line (it has a line number of its own). And a test written as the negation of a
negation (``if not (not X):``, from an option's ``where not empty(...)``) asks ``not`` twice where
the truth of ``X`` is the same answer (``not`` asks ``bool(X)`` as ``if`` does, with the same errors).

This pass rewrites, in the text of one generated function:

- a ``pass`` that is not alone in its block into a comment (its own text kept after ``#``), so the
  function's lines keep their number and order and each generated line still names its rules line;
- the test of an ``if`` or ``while`` that is ``not not X`` (through any parentheses) into ``(X)``,
  where the test stands on one line.

Anything it cannot parse it leaves as it is.
"""

from __future__ import annotations

import ast
import re

from .srctext import code_part

_CANDIDATE = re.compile(r"^\s*pass\s*$|\bnot\W*not\b")



def _double_negation(test):
    """The operand X of a test ``not not X``, or None."""
    if (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
            and isinstance(test.operand, ast.UnaryOp) and isinstance(test.operand.op, ast.Not)):
        return test.operand.operand
    return None


def _negations(node):
    """The outermost ``not not X`` in a truth context under ``node`` (itself in one): the test of an
    ``if`` or ``while``, an operand of ``and``/``or`` or of ``not`` in one. Only the truth of such a
    part is looked at, so X may stand for it (an ``and`` may give back X instead of False: as false)."""
    if _double_negation(node) is not None:
        yield node
    elif isinstance(node, ast.BoolOp):
        for value in node.values:
            yield from _negations(value)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield from _negations(node.operand)


def _indent(code: str) -> int:
    return len(code) - len(code.lstrip())


def _not_alone(lines: list, k: int, start: int, end: int) -> bool:
    """Whether the ``pass`` on line ``k`` has another statement in its block: the code line before it
    (comments skipped) is as deep or deeper (a statement of the block, or inside one), or, being the
    block's header, the code line after it is a statement as deep. (The generated code has one statement
    a line.)"""
    depth = _indent(lines[k])
    for i in range(k - 1, start, -1):
        code = code_part(lines[i])[0]
        if code.strip() and not code.lstrip().startswith("#"):
            if _indent(code) >= depth:
                return True
            break
    for i in range(k + 1, end):
        code = code_part(lines[i])[0]
        if code.strip() and not code.lstrip().startswith("#"):
            return _indent(code) == depth
    return False


_TEST = re.compile(r"(\s*(?:if|elif|while) )(.*):")


def _simpler_test(code: str):
    """The line ``code`` (an ``if``/``elif``/``while`` header) with its outermost ``not not X`` in truth
    contexts written ``(X)``, or None if there is none."""
    found = _TEST.fullmatch(code)
    if found is None:
        return None
    test = found.group(2)
    try:
        tree = ast.parse(test, mode="eval").body
    except SyntaxError:
        return None
    raw = test.encode()  # ast's columns are UTF-8 byte offsets
    changes = [(n.col_offset, n.end_col_offset, _double_negation(n)) for n in _negations(tree)]
    if not changes:
        return None
    for col, stop, inner in sorted(changes, key=lambda c: c[0], reverse=True):
        raw = raw[:col] + b"(" + raw[inner.col_offset:inner.end_col_offset] + b")" + raw[stop:]
    return f"{found.group(1)}{raw.decode()}:"


def drop_noops(lines: list, start: int) -> None:
    """Rewrite the function whose ``def`` line is ``lines[start]`` (up to the next ``def`` at the left
    margin or the end), in place; the number of lines stays the same."""
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("def ")), len(lines))
    for k in range(start + 1, end):
        code, comment = code_part(lines[k])
        if not _CANDIDATE.search(code):
            continue
        if code.strip() == "pass":
            if _not_alone(lines, k, start, end):  # the line becomes a comment
                lines[k] = f"{code[:_indent(code)]}# (pass){comment.lstrip()[1:] if comment else ''}"
            continue
        for _ in range(4):  # a negation written out may hold another one
            simpler = _simpler_test(code)
            if simpler is None:
                break
            code = simpler
        lines[k] = code + comment

"""How deep and how big a rules text may be, checked on the parse tree before anything else reads it.

A rules file is untrusted input. The later stages walk the syntax tree by
recursion and the compiler writes expressions out as Python source, so a text
nested hundreds of levels deep (400 `if`s inside each other, a 500-term `and`)
would end in Python's recursion limit or its parser's limit on nested
parentheses, and a number literal of thousands of digits in Python's limit on
converting such numbers. Each of these is refused here, with its position, as
error E216 (docs/language.md section 7.7 lists the limits). The walk over the
tree is a loop with its own stack, so it cannot itself run out of recursion.
"""

from __future__ import annotations

import lark

from .errors import Diagnostic, Span, source_line

#: Levels of the parse tree one text may nest: the deepest rules file of games/ has 20.
MAX_DEPTH = 150
#: The largest whole number of the language, and the smallest is -MAX_INT - 1 (64-bit integers).
MAX_INT = 2**63 - 1


def size_errors(tree: lark.Tree, text: str, path: str) -> list[Diagnostic]:
    """The E216 diagnostics of a parse tree: nesting deeper than MAX_DEPTH (once), literals beyond MAX_INT."""
    found: list[Diagnostic] = []
    deep = False
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, lark.Token):
            if node.type == "INT" and (len(node) > 19 or int(node) > MAX_INT):
                found.append(_error(text, path, node.line, node.column, len(node),
                                    f"the number {_shown(node)} is larger than the language's whole numbers "
                                    f"(at most {MAX_INT:,})"))
            continue
        if depth > MAX_DEPTH and not deep:
            deep = True
            line, column = _position(node)
            found.append(_error(text, path, line, column, 1,
                                f"the rules nest too deeply here: more than {MAX_DEPTH} levels of blocks and "
                                "expressions inside each other",
                                "give a part of the expression a name with `define`, or move a block into "
                                "a `procedure`"))
        stack.extend((child, depth + 1) for child in reversed(node.children) if child is not None)
    return sorted(found, key=lambda d: (d.line, d.column))


def _position(node) -> tuple[int, int]:
    """The line and column where a subtree starts (its first token), 1 and 1 if it has none."""
    while isinstance(node, lark.Tree):
        meta = node.meta
        if not meta.empty:
            return meta.line, meta.column
        node = next((c for c in node.children if c is not None), None)
    if isinstance(node, lark.Token):
        return node.line, node.column
    return 1, 1


def _shown(token: str) -> str:
    return token if len(token) <= 30 else f"{token[:12]}...{token[-6:]} ({len(token)} digits)"


def _error(text, path, line, column, width, message, hint=None) -> Diagnostic:
    span = Span(path, line, column, line, column + width)
    return Diagnostic("E216", message, span, hint, source_line(text, line))

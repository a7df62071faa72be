"""Walking the syntax tree generically, and the source text of a node."""

from __future__ import annotations

import attrs

from ..language import ast as A


def children(node):
    """The nodes directly inside ``node``, in field order (tuples and pairs flattened)."""
    for field in attrs.fields(type(node)):
        if field.name == "span":
            continue
        yield from _nodes_in(getattr(node, field.name))


def _nodes_in(value):
    if isinstance(value, A.Node):
        yield value
    elif isinstance(value, (tuple, list)):
        for item in value:
            yield from _nodes_in(item)


def descendants(node):
    """``node`` and every node inside it, depth first."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(list(children(n))))


def source_of(node, texts: dict, first_line_only: bool = False) -> str:
    """The text of ``node`` in its file, whitespace collapsed; '' when the file is unknown."""
    span = node.span
    text = texts.get(span.file)
    if not text or not span.line:
        return ""
    lines = text.splitlines()
    if span.line > len(lines):
        return ""
    end_line = span.end_line or span.line
    if first_line_only:
        end_line = span.line
    chunk = lines[span.line - 1:end_line]
    if end_line == (span.end_line or span.line) and span.end_column:
        chunk[-1] = chunk[-1][:span.end_column - 1]
    chunk[0] = chunk[0][span.column - 1:]
    return " ".join(part.strip() for part in chunk if part.strip())

"""What the comments of a rules file say to ``ruledsl mutate``: equivalent-mutant markers and rule groups.

A designer marks a mutant that cannot change the game (an *equivalent*
mutant) with a comment on its line, or on comment lines directly above it::

    tricks[current] += 1          # mutate: equivalent — counted after the put, read only at the end
    # mutate: equivalent swap — the two statements touch different zones
    put c into pile

``# mutate: equivalent — WHY`` marks every mutant on that line;
``# mutate: equivalent OPERATOR... — WHY`` only those of the operators named
(the names of ``ruledsl mutate --operator``). The dash may be ``—``, ``--``
or ``-``. Marked mutants that survive are listed apart, never dropped; a
marked mutant that is killed is reported too (its mark is stale).

Survivors are grouped by the comment block that heads their lines: in the
seed games that block quotes the rule sentence the lines carry. A block heads
the declarations that follow it up to a blank line, and inside a declaration
the nearest block above a line heads it; a paragraph with no comment is a
group of its own.
"""

from __future__ import annotations

import re

import attrs

MARKER = re.compile(r"#\s*mutate:\s*(?P<kind>equivalent|skip)\b(?P<rest>.*)$")
DASH = re.compile(r"\s(?:—|--|-|–)\s|^(?:—|--|-|–)\s|\s(?:—|--|-|–)$")
QUOTED = re.compile(r"`([^`]*)`")


@attrs.frozen
class Mark:
    line: int  # the line of the marker comment
    operators: tuple  # the operators named; empty: every mutant of the line
    why: str
    unknown: tuple = ()  # words before the dash that name no operator
    selectors: tuple = ()  # (operator, text or None) pairs: `constant `- 4`` picks one mutant of the operator
    skip: bool = False  # `# mutate: skip — why`: the lines it heads are not mutated at all

    def picks(self, operator: str, key: str, before: str, after: str) -> bool:
        """Whether this mark speaks for a mutant (its operator, its key, the lines it changes)."""
        if not self.selectors:
            return not self.unknown  # a mark that names only unknown words marks nothing
        return any(picks(sel, operator, key, before, after) for sel in self.selectors)


def _norm(text: str) -> str:
    return " ".join(text.split())


def _code(text: str) -> str:
    """The lines without their comments (a mark's own text must not pick the mutant it sits on)."""
    out = []
    for line in text.split("\n"):
        quoted = False
        for i, ch in enumerate(line):
            if ch == '"':
                quoted = not quoted
            elif ch == "#" and not quoted:
                line = line[:i]
                break
        out.append(line)
    return "\n".join(out)


def picks(selector, operator: str, key: str, before: str, after: str) -> bool:
    """``(op, text)`` picks a mutant of ``op`` whose key is ``text``, or whose changed lines hold
    ``text`` after the change and not before (text copied from the `+` line of the report)."""
    op, text = selector
    if op != operator:
        return False
    if text is None:
        return True
    text = _norm(text)
    return text == _norm(key) or (text in _norm(_code(after)) and text not in _norm(_code(before)))


def _comment_only(line: str) -> bool:
    return line.lstrip().startswith("#")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _starts_declaration(line: str) -> bool:
    """A line that opens a top-level declaration: it starts in the first column."""
    return bool(line) and not line[0].isspace() and not line.startswith(("#", "}", ")"))


def parse_mark(line_no: int, line: str, known) -> Mark | None:
    found = MARKER.search(line)
    if found is None:
        return None
    rest = found.group("rest").strip()
    hidden = QUOTED.sub(lambda q: "`" + "x" * len(q.group(1)) + "`", rest)  # a dash inside `...` is text
    dash = DASH.search(" " + hidden + " ")
    skip = found.group("kind") == "skip"
    if dash is None:
        return Mark(line_no, (), rest, skip=skip)
    head = (" " + rest + " ")[:dash.start()]
    why = (" " + rest + " ")[dash.end():].strip()
    if skip:
        return Mark(line_no, (), why, skip=True)
    selectors, unknown = [], []
    for quoted, word in re.findall(r"`([^`]*)`|([^\s,`]+)", head):
        if word:
            if word in known:
                selectors.append((word, None))
            else:
                unknown.append(word)
        elif selectors:  # `text` picks among the mutants of the operator named before it
            selectors[-1] = (selectors[-1][0], quoted)
        else:
            unknown.append(f"`{quoted}`")
    ops = tuple(dict.fromkeys(op for op, _ in selectors))
    return Mark(line_no, ops, why, tuple(unknown), tuple(selectors))


class Comments:
    """The markers and comment blocks of one rules text."""

    def __init__(self, text: str, known_operators):
        self.lines = text.split("\n")
        self.known = set(known_operators)
        self.marks: dict[int, Mark] = {}
        for i, line in enumerate(self.lines, start=1):
            mark = parse_mark(i, line, self.known)
            if mark is not None:
                self.marks[i] = mark

    def line(self, n: int) -> str:
        return self.lines[n - 1] if 0 < n <= len(self.lines) else ""

    def marks_for(self, line: int) -> list[Mark]:
        """The equivalent-markers that speak for a line: on it, and on the marker lines directly above it."""
        out = [self.marks[line]] if line in self.marks else []
        above = line - 1
        while above >= 1 and _comment_only(self.line(above)) and above in self.marks:
            out.append(self.marks[above])
            above -= 1
        return [m for m in out if not m.skip]

    def mark_of(self, line: int, operator: str, key: str = "", before: str = "", after: str = "") -> Mark | None:
        """The marker that declares a mutant of ``operator`` on ``line`` equivalent, if any."""
        for mark in self.marks_for(line):
            if mark.picks(operator, key, before, after):
                return mark
        return None

    # ---- `# mutate: skip — why`

    def skips(self) -> list[tuple[Mark, int, int]]:
        """Each skip mark with the lines it keeps from being mutated (first, last).

        On a comment line: the lines after its comment block, up to a blank line (or, inside a
        block, to a line indented less than the comment). At the end of a line: that line and
        the lines after it indented deeper (its continuation, its block and the line closing it)."""
        out = []
        for n, mark in self.marks.items():
            if not mark.skip:
                continue
            here = self.line(n)
            if _comment_only(here):
                first = n + 1
                while first <= len(self.lines) and _comment_only(self.line(first)):
                    first += 1
                last = first
                while last + 1 <= len(self.lines) and self.line(last + 1).strip() and \
                        _indent(self.line(last + 1)) >= _indent(here):
                    last += 1
            else:
                first = last = n
                while last + 1 <= len(self.lines) and self.line(last + 1).strip() and (
                        _indent(self.line(last + 1)) > _indent(here)
                        or self.line(last + 1).lstrip().startswith(("}", ")"))):
                    last += 1
                    if _indent(self.line(last)) == _indent(here):
                        break  # the line that closes it
            out.append((mark, first, min(last, len(self.lines))))
        return out

    def skip_of(self, line: int) -> Mark | None:
        if not hasattr(self, "_skips"):
            self._skips = self.skips()
        for mark, first, last in self._skips:
            if first <= line <= last:
                return mark
        return None

    def unknown_names(self) -> list[Mark]:
        return [m for m in self.marks.values() if m.unknown]

    def group_of(self, line: int) -> tuple[int, str]:
        """The comment block that heads a line: its first line number and its text.

        The nearest comment block above the line inside its declaration; else the block in
        the paragraph of the declaration (above it, with no blank line between); else the
        paragraph itself (its first line, as text that does not start with ``#``)."""
        decl = line
        while decl >= 1 and not _starts_declaration(self.line(decl)):
            decl -= 1
        for n in range(line - 1, max(decl, 0), -1):
            if self._heading(n):
                return self._block(n)
        n = decl - 1
        while n >= 1 and self.line(n).strip() and not self._heading(n):
            n -= 1
        if n >= 1 and self.line(n).strip():
            return self._block(n)
        first = n + 1  # the paragraph has no comment: it is the group, named by its first line
        return (first, self.line(first).rstrip()) if first >= 1 and decl >= 1 else (0, "")

    def _heading(self, n: int) -> bool:
        return _comment_only(self.line(n)) and (n not in self.marks or self.marks[n].skip)

    def _block(self, end: int) -> tuple[int, str]:
        n = end
        while n - 1 >= 1 and self._heading(n - 1):
            n -= 1
        return n, "\n".join(self.line(i).strip() for i in range(n, end + 1))

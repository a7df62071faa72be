"""Every error a user can meet, with one base class.

A diagnostic names where (file, line, column), what (a stable code and a
message) and what to do (a hint); it renders as ``file:line:col:
error[CODE]: message`` followed by the source line and a caret, the way
compilers do.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Span:
    """A stretch of a source file: 1-based line and column of its start and end."""

    file: str = "<rules>"
    line: int = 0
    column: int = 0
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


NOWHERE = Span()


@attrs.frozen
class Diagnostic:
    """One finding about a rules file."""

    code: str
    message: str
    span: Span = NOWHERE
    hint: str | None = None
    source_line: str | None = None
    related: tuple = ()  # (Span, what is there, its source line): other places the finding points at

    @property
    def file(self) -> str:
        return self.span.file

    @property
    def line(self) -> int:
        return self.span.line

    @property
    def column(self) -> int:
        return self.span.column

    def render(self) -> str:
        where = str(self.span) if self.span.line else self.span.file
        head = f"{where}: error[{self.code}]: {self.message}"
        lines = [head]
        if self.source_line is not None and self.span.line:
            lines.append("    " + self.source_line.rstrip("\n"))
            width = 1
            if self.span.end_line == self.span.line and self.span.end_column > self.span.column:
                width = self.span.end_column - self.span.column
            lines.append("    " + " " * (self.span.column - 1) + "^" * width)
        for span, what, text in self.related:  # e.g. the '{' of a block that is never closed
            lines.append(f"{span}: note: {what}")
            if text is not None:
                lines.append("    " + text.rstrip("\n"))
                lines.append("    " + " " * (span.column - 1) + "^")
        if self.hint:
            lines.append(f"    hint: {self.hint}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.render()


class RuledslError(Exception):
    """Base class of every error ruledsl raises for bad input."""


class RulesError(RuledslError):
    """A rules file that cannot be loaded; carries every diagnostic found."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = list(diagnostics)
        count = len(self.diagnostics)
        summary = f"{count} error{'s' if count != 1 else ''}"
        super().__init__("\n".join(d.render() for d in self.diagnostics) + f"\n{summary}")


class IllegalMove(RuledslError):
    """A move that is not among the legal moves of the state; the state is unchanged."""

    def __init__(self, move, reason: str, legal: list | None = None):
        self.move = move
        self.reason = reason
        self.legal = legal
        super().__init__(f"illegal move {move}: {reason}")


class RulesRuntimeError(RuledslError):
    """A rule that cannot be carried out in the position reached (a finding for the rules author)."""

    def __init__(self, message: str, span: Span = NOWHERE):
        self.span = span
        self.message = message
        where = f"{span}: " if span.line else ""
        super().__init__(f"{where}{message}")


def runtime_diagnostic(err: RulesRuntimeError, sources: dict) -> Diagnostic:
    """A runtime finding as a diagnostic with its rule line, for printing like a checker error."""
    text = sources.get(err.span.file)
    line = source_line(text, err.span.line) if text and err.span.line else None
    return Diagnostic("R001", err.message, err.span, None, line)


class SaveError(RuledslError):
    """A saved state or game log that cannot be read back."""


class ParameterError(RuledslError):
    """A parameter or player count that the rules file does not accept."""


def source_line(text: str, line: int) -> str | None:
    lines = text.splitlines()
    if 1 <= line <= len(lines):
        return lines[line - 1]
    return None


BOM = "\ufeff"


def decode_source(data: bytes, path: str) -> str:
    """The text of a rules file: UTF-8, with a byte-order mark at its start accepted and dropped.

    Bytes that are not UTF-8 raise RulesError (E002) at the line and column of the first bad byte.
    """
    try:
        return data.decode("utf-8").removeprefix(BOM)
    except UnicodeDecodeError as exc:
        before = data[:exc.start]
        line = before.count(b"\n") + 1
        line_start = before.rfind(b"\n") + 1
        column = len(before[line_start:].decode("utf-8", "replace")) + 1
        end = data.find(b"\n", exc.start)
        shown = data[line_start:len(data) if end < 0 else end].decode("utf-8", "replace")
        span = Span(path, line, column, line, column + 1)
        raise RulesError([Diagnostic(
            "E002", f"the file is not UTF-8 text: byte 0x{data[exc.start]:02x} cannot start a character here",
            span, "save the file as UTF-8 (most editors offer this in 'Save as')", shown)]) from None


def read_source(path) -> str:
    """Read a rules file as text (see decode_source); a file that cannot be read raises RulesError (E001)."""
    from pathlib import Path

    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise RulesError([Diagnostic("E001", f"no such rules file: {path}", Span(str(path)))]) from None
    except IsADirectoryError:
        raise RulesError([Diagnostic("E001", f"{path} is a directory, not a rules file", Span(str(path)))]) from None
    except OSError as exc:
        raise RulesError([Diagnostic("E001", f"cannot read {path}: {exc.strerror or exc}", Span(str(path)))]) from None
    return decode_source(data, str(path))

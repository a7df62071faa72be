"""Rules files to one list of declarations: follows ``include`` and ``extends``.

``include "file"`` brings in another file's declarations (a library such as
the standard deck); ``extends "file"`` makes this file a variant of a base
file. A variant adds declarations, swaps named ones with ``replace`` and adds
moves to a named decision with ``extend choose``. Files are looked up beside
the file that names them, then in ruledsl's library of rules.
"""

from __future__ import annotations

from pathlib import Path

import attrs

from . import ast as A
from .errors import Diagnostic, RulesError, decode_source, source_line
from .parse import data_path, parse


@attrs.frozen
class Assembly:
    """The declarations of a rules file and all it includes or extends, in order."""

    items: tuple
    texts: dict  # path -> source text, for rendering diagnostics
    replaced: tuple  # Replace nodes, applied by the checker
    extensions: tuple  # ExtendChoice nodes


def diag(texts: dict, code: str, message: str, span, hint: str | None = None) -> Diagnostic:
    text = texts.get(span.file)
    return Diagnostic(code, message, span, hint, source_line(text, span.line) if text else None)


def assemble(text: str, path: str, read=None) -> Assembly:
    """Parse ``text`` (the file at ``path``) and every file it includes or extends."""
    read = read or _read_file
    texts: dict[str, str] = {}
    errors: list[Diagnostic] = []
    items: list = []
    replaced: list = []
    extensions: list = []
    seen: set[str] = set()

    def visit(text: str, path: str, stack: tuple) -> None:
        text = text.removeprefix("\ufeff")  # a byte-order mark some editors write: invisible, so accepted
        texts[path] = text
        try:
            tree = parse(text, path)
        except RulesError as err:
            errors.extend(err.diagnostics)
            return
        bases = [i for i in tree.items if isinstance(i, A.Extends)]
        for extra in bases[1:]:
            errors.append(diag(texts, "E208", "a variant extends one base file only", extra.span))
        # A variant's base comes first, so the variant's own lines follow it.
        for item in tree.items:
            if isinstance(item, (A.Include, A.Extends)):
                if isinstance(item, A.Extends) and item is not bases[0]:
                    continue
                found = _locate(item.path, path)
                if found is None:
                    what = "base file" if isinstance(item, A.Extends) else "included file"
                    errors.append(diag(texts, "E208", f"cannot find the {what} \"{item.path}\"", item.span,
                                       "paths are relative to the file that names them"))
                    continue
                key = str(found.resolve()) if isinstance(found, Path) else str(found)
                if key in stack:
                    errors.append(diag(texts, "E208", f"\"{item.path}\" includes itself", item.span))
                    continue
                if key in seen:
                    continue
                seen.add(key)
                try:
                    sub = read(found)
                except OSError as exc:
                    errors.append(diag(texts, "E208", f"cannot read \"{item.path}\": {exc.strerror}", item.span))
                    continue
                except RulesError as err:  # not UTF-8: the error points into the named file
                    errors.extend(err.diagnostics)
                    continue
                visit(sub, _display(found), stack + (key,))
        for item in tree.items:
            if isinstance(item, (A.Include, A.Extends)):
                continue
            if isinstance(item, A.Replace):
                replaced.append(item)
            elif isinstance(item, A.ExtendChoice):
                extensions.append(item)
            else:
                items.append(item)

    visit(text, path, (path,))
    if errors:
        raise RulesError(errors)
    return Assembly(tuple(items), texts, tuple(replaced), tuple(extensions))


def _locate(name: str, including: str) -> Path | None:
    here = Path(including).parent if including and not including.startswith("<") else Path(".")
    for candidate in (here / name, data_path("lib") / name):
        if candidate.is_file():
            return candidate
    return None


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _read_file(path: Path) -> str:
    return decode_source(path.read_bytes(), _display(path))

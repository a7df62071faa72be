"""Rules files to one list of declarations: follows ``include`` and ``extends``.

``include "file"`` brings in another file's declarations (a library such as
the standard deck); ``extends "file"`` makes this file a variant of a base
file. A variant adds declarations, swaps named ones with ``replace`` and adds
moves to a named decision with ``extend choose``. Files are looked up beside
the file that names them, then in the shared folders (``RULEDSL_PATH``,
``--include-dir``), then in ruledsl's library of rules.

A rules file may come from anyone, so what it can reach is bounded: a file it
includes or extends must be a ``.rules`` file that lies, after symlinks are
resolved, inside the folder tree of the file that was opened, inside a shared
folder, or inside the library. Anything else is error E003, which names the
path as written and shows nothing of that file; a file outside is never read.
"""

from __future__ import annotations

import os
from pathlib import Path

import attrs

from . import ast as A
from . import bounds
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


def assemble(text: str, path: str, read=None, include_dirs=()) -> Assembly:
    """Parse ``text`` (the file at ``path``) and every file it includes or extends.

    ``include_dirs`` are shared folders a file may include from, besides those of RULEDSL_PATH."""
    read = read or _read_file
    roots = allowed_roots(path, include_dirs)
    shared = shared_dirs(include_dirs)
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
                found = _locate(item.path, path, roots, shared)
                if isinstance(found, str):  # a reason it may not be opened
                    what = "base file" if isinstance(item, A.Extends) else "included file"
                    errors.append(diag(texts, "E003", f"the {what} \"{item.path}\" {found}", item.span,
                                       SUFFIX_HINT if found == NOT_RULES else OUTSIDE_HINT))
                    continue
                if found is None:
                    what = "base file" if isinstance(item, A.Extends) else "included file"
                    errors.append(diag(texts, "E208", f"cannot find the {what} \"{item.path}\"", item.span,
                                       "paths are relative to the file that names them; a shared folder is named "
                                       "with --include-dir or RULEDSL_PATH"))
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
                    # ... without an excerpt: the bytes of a file that is not text are not shown
                    errors.extend(attrs.evolve(d, source_line=None) for d in err.diagnostics)
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
    spliced, replaced = bounds.splice_turns(tuple(items), tuple(replaced))
    return Assembly(spliced, texts, replaced, tuple(extensions))


OUTSIDE = "is outside the folders a rules file may include from"
NOT_RULES = "is not a .rules file"
OUTSIDE_HINT = ("a rules file may include .rules files from its own folder and below, and the "
                "standard library; name a shared folder with --include-dir or RULEDSL_PATH")
SUFFIX_HINT = "only rules files can be included: their names end in .rules"


def _locate(name: str, including: str, roots, shared=()) -> Path | str | None:
    """The file ``name`` names, seen from the file ``including``; None when there is none, and a
    reason (a phrase) when the name leads out of the allowed folders or to a file that is not rules."""
    here = Path(including).parent if including and not including.startswith("<") else Path(".")
    refused = None
    for candidate in (here / name, *(d / name for d in shared), data_path("lib") / name):
        reason = refusal(candidate, roots)
        if reason:
            refused = refused or reason
            continue
        try:
            if candidate.is_file():
                return candidate
        except OSError:
            continue
    return refused


def refusal(candidate: Path, roots) -> str | None:
    """Why ``candidate`` may not be opened as rules (a phrase), or None when it may.

    It is resolved first (symlinks followed), so a link inside the tree that points out is refused."""
    real = _real(candidate)
    if real is None or not any(real.is_relative_to(root) for root in roots):
        return OUTSIDE
    if real.suffix != ".rules":
        return NOT_RULES
    return None


def _real(path: Path) -> Path | None:
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError):  # a name too long, a zero byte: not a file one may open
        return None


def shared_dirs(include_dirs=()) -> list[Path]:
    """The shared folders: ``include_dirs``, then those of RULEDSL_PATH (separated as PATH is)."""
    named = [str(d) for d in include_dirs]
    named += [d for d in os.environ.get("RULEDSL_PATH", "").split(os.pathsep) if d]
    return [Path(d) for d in named]


def allowed_roots(path: str, include_dirs=()) -> list[Path]:
    """The folders whose files a rules file at ``path`` may include: its own folder (the working
    folder for rules given as text), the shared folders and the standard library, symlinks resolved."""
    top = Path(path).absolute().parent if path and not path.startswith("<") else Path.cwd()
    found = [_real(p) for p in (top, *shared_dirs(include_dirs), data_path("lib"))]
    return [p for p in found if p is not None]


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _read_file(path: Path) -> str:
    return decode_source(path.read_bytes(), _display(path))

"""The language server of ruledsl (``ruledsl lsp``): LSP over stdin and stdout, built on pygls.

- diagnostics: the checker's errors, positioned, each time a file is opened,
  changed or saved (a scenario file ``*.test.rules`` gets the scenario parser's);
- hover: the declaration of a name and its comment (params, zones, variables,
  defines, procedures, decisions and moves, enum values, attributes);
- go to definition, across ``include`` and ``extends``, and of local names;
- completion: keywords, built-ins, declared names and the local names in scope.

Open files are read from the editor's buffers, also when another file includes them.
"""

from __future__ import annotations

import functools
import logging
import os
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types as L
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
)
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path

from ..checker.check import check
from ..checker.types import AGGREGATES, BUILTINS, FOLDS, SPECIAL_NAMES
from ..language.assemble import assemble
from ..language.errors import ParameterError, RuledslError, RulesError, decode_source
from ..scenarios.runner import SUFFIX as SCENARIO_SUFFIX
from ..scenarios.syntax import parse_scenarios
from ..version import __version__
from .symbols import (
    BUILTIN_DOCS,
    build_index,
    grammar_keywords,
    locals_in_scope,
    name_position,
    prefix_at,
    same_file,
    word_at,
)


def uri_to_path(uri: str) -> str:
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return uri
    return unquote(parsed.path)


class RulesServer(LanguageServer):
    def __init__(self):
        super().__init__("ruledsl", __version__, text_document_sync_kind=L.TextDocumentSyncKind.Full)
        self.indexes: dict = {}  # uri -> last Index built from a file that parsed

    def buffer_text(self, path: str) -> str | None:
        """The text of an open editor buffer for ``path``, if the editor has it open."""
        for uri, doc in self.workspace.text_documents.items():
            if same_file(uri_to_path(uri), path):
                return doc.source
        return None

    def reader(self):
        def read(found: Path) -> str:
            text = self.buffer_text(str(found))
            return text if text is not None else decode_source(found.read_bytes(), str(found))

        return read

    def index(self, uri: str):
        doc = self.workspace.get_text_document(uri)
        path = uri_to_path(uri)
        built = build_index(doc.source, path, self.reader())
        if built.symbols or uri not in self.indexes:
            self.indexes[uri] = built
        return self.indexes[uri]


server = RulesServer()


def _source(doc) -> str:
    """The text of a document: the editor's buffer, or the file on disk when it is not open.

    A file that cannot be read is an LSP error (invalid params) that says so, not a traceback."""
    try:
        return doc.source
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
        raise JsonRpcInvalidParams(f"ruledsl cannot read {doc.path}: {reason} (open the file in the editor, "
                                   "or save it)") from None


def _answers(handler):
    """A request handler whose failures reach the editor as an LSP error with one line, no traceback."""

    @functools.wraps(handler)
    def run(ls, params):
        try:
            return handler(ls, params)
        except JsonRpcException:
            raise
        except Exception as exc:  # a bug of ruledsl: tell it briefly
            raise JsonRpcInternalError(f"internal error in ruledsl: {type(exc).__name__}: {exc}") from None

    return run


def _range(line: int, column: int, end_line: int, end_column: int) -> L.Range:
    line, column = max(line - 1, 0), max(column - 1, 0)
    end_line, end_column = max(end_line - 1, 0), max(end_column - 1, 0)
    if (end_line, end_column) <= (line, column):
        end_line, end_column = line, column + 1
    return L.Range(L.Position(line, column), L.Position(end_line, end_column))


def diagnostics_for(text: str, path: str, read=None) -> list[L.Diagnostic]:
    """The checker's findings about ``text`` (the file at ``path``) as LSP diagnostics."""
    try:
        if path.endswith(SCENARIO_SUFFIX):
            parse_scenarios(text, path)
        else:
            check(assemble(text, path, read))
        return []
    except RulesError as err:
        found = err.diagnostics
    except (ParameterError, RuledslError) as err:
        return [L.Diagnostic(_range(1, 1, 1, 2), str(err), severity=L.DiagnosticSeverity.Error, source="ruledsl")]
    out = []
    for d in found:
        message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
        span = d.span
        if same_file(span.file, path) and span.line:
            rng = _range(span.line, span.column, span.end_line or span.line, span.end_column or span.column + 1)
        else:
            # a finding in another file (an included one) or about the whole file: show it on line 1
            where = f"{span.file}:{span.line}:{span.column}: " if span.line else ""
            message = where + message
            rng = _range(1, 1, 1, 2)
        related = [L.DiagnosticRelatedInformation(  # e.g. the '{' of a block that is never closed
            L.Location(from_fs_path(path) or path, _range(r.line, r.column, r.end_line or r.line, r.end_column or r.column + 1)),
            what) for r, what, _line in getattr(d, "related", ()) if same_file(r.file, path) and r.line]
        out.append(L.Diagnostic(rng, message, severity=L.DiagnosticSeverity.Error, code=d.code, source="ruledsl",
                                related_information=related or None))
    return out


def _publish(ls: RulesServer, uri: str) -> None:
    doc = ls.workspace.get_text_document(uri)
    try:
        found = diagnostics_for(doc.source, uri_to_path(uri), ls.reader())
    except Exception as exc:  # never let one odd file stop the server
        found = [L.Diagnostic(_range(1, 1, 1, 2), f"ruledsl could not check this file: {exc}",
                              severity=L.DiagnosticSeverity.Warning, source="ruledsl")]
    ls.text_document_publish_diagnostics(L.PublishDiagnosticsParams(uri=uri, diagnostics=found, version=doc.version))


@server.feature(L.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RulesServer, params: L.DidOpenTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(L.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: RulesServer, params: L.DidChangeTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


@server.feature(L.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: RulesServer, params: L.DidSaveTextDocumentParams) -> None:
    _publish(ls, params.text_document.uri)


def _locals_before(index, path: str, line: int, character: int) -> list:
    """Local names in scope at the position, in the declaration holding it (innermost last)."""
    decl = index.declaration_at(path, line + 1)
    if decl is None:
        return []
    return locals_in_scope(decl, line + 1, character + 1)


def _name_under_cursor(ls: RulesServer, params):
    """The document's uri and text, the word under the cursor, the file's index and the local bindings
    of that word before the cursor (innermost last); None when the cursor is not on a word."""
    uri = params.text_document.uri
    doc = ls.workspace.get_text_document(uri)
    pos = params.position
    word = word_at(_source(doc), pos.line, pos.character)
    if word is None:
        return None
    index = ls.index(uri)
    local = [n for name, n in _locals_before(index, uri_to_path(uri), pos.line, pos.character) if name == word]
    return uri, doc, word, index, local


@server.feature(L.TEXT_DOCUMENT_HOVER)
@_answers
def hover(ls: RulesServer, params: L.HoverParams) -> L.Hover | None:
    found = _name_under_cursor(ls, params)
    if found is None:
        return None
    uri, _doc, word, index, local = found
    parts = []
    if local:
        parts.append(f"local name `{word}`, bound at line {local[-1].span.line}")
    for sym in index.lookup(word)[:4]:
        text = f"**{sym.kind}** `{sym.name}`\n```rules\n{sym.signature}\n```"
        if sym.doc:
            text += "\n" + sym.doc
        if not same_file(sym.file, uri_to_path(uri)):
            text += f"\n\n*{sym.file}, line {sym.line}*"
        parts.append(text)
    if not parts and word in BUILTIN_DOCS:
        parts.append(f"`{word}`: {BUILTIN_DOCS[word]}")
    if not parts:
        return None
    return L.Hover(contents=L.MarkupContent(kind=L.MarkupKind.Markdown, value="\n\n---\n\n".join(parts)))


def _location(file: str, line: int, column: int, length: int) -> L.Location:
    path = Path(file).resolve()
    return L.Location(uri=from_fs_path(str(path)) or path.as_uri(),
                      range=_range(line, column, line, column + length))


@server.feature(L.TEXT_DOCUMENT_DEFINITION)
@_answers
def definition(ls: RulesServer, params: L.DefinitionParams):
    found = _name_under_cursor(ls, params)
    if found is None:
        return None
    uri, doc, word, index, local = found
    if local:
        node = local[-1]
        line, column = name_position(index.texts.get(node.span.file, doc.source), node.span, word)
        return [_location(uri_to_path(uri), line, column, len(word))]
    found = [_location(s.file, s.line, s.column, len(s.name)) for s in index.lookup(word)]
    return found or None


KIND_ITEMS = {
    "param": L.CompletionItemKind.Constant, "zone": L.CompletionItemKind.Variable,
    "var": L.CompletionItemKind.Variable, "define": L.CompletionItemKind.Function,
    "procedure": L.CompletionItemKind.Function, "enum": L.CompletionItemKind.Enum,
    "kind": L.CompletionItemKind.Class, "deck": L.CompletionItemKind.Constant,
    "decision": L.CompletionItemKind.Event, "trigger": L.CompletionItemKind.Event,
    "invariant": L.CompletionItemKind.Event,
}


@server.feature(L.TEXT_DOCUMENT_COMPLETION, L.CompletionOptions(trigger_characters=["."]))
@_answers
def completion(ls: RulesServer, params: L.CompletionParams) -> L.CompletionList:
    uri = params.text_document.uri
    doc = ls.workspace.get_text_document(uri)
    pos = params.position
    prefix = prefix_at(_source(doc), pos.line, pos.character)
    index = ls.index(uri)
    items: dict = {}

    def add(label: str, kind, detail: str) -> None:
        if label.startswith(prefix) and label not in items:
            items[label] = L.CompletionItem(label=label, kind=kind, detail=detail)

    for name, node in reversed(_locals_before(index, uri_to_path(uri), pos.line, pos.character)):
        add(name, L.CompletionItemKind.Variable, "local")
    for name, symbols in sorted(index.symbols.items()):
        sym = symbols[0]
        kind = KIND_ITEMS.get(sym.kind, L.CompletionItemKind.EnumMember if "enum" in sym.kind
                              else L.CompletionItemKind.Field)
        add(name, kind, f"{sym.kind}: {sym.signature}")
    for name in sorted(set(BUILTINS) | set(AGGREGATES) | set(FOLDS) | set(SPECIAL_NAMES)):
        add(name, L.CompletionItemKind.Function if name not in SPECIAL_NAMES else L.CompletionItemKind.Variable,
            BUILTIN_DOCS.get(name, "built-in"))
    for word in grammar_keywords():
        add(word, L.CompletionItemKind.Keyword, "keyword")
    return L.CompletionList(is_incomplete=False, items=list(items.values()))


class _OneLine(logging.Formatter):
    """A log line without the traceback pygls attaches to a failed request (the editor has the error)."""

    def formatException(self, ei) -> str:
        return ""

    def formatStack(self, stack_info) -> str:
        return ""


def serve() -> None:
    """Speak LSP on stdin and stdout until the editor says exit."""
    log = logging.getLogger("pygls")
    if not log.handlers:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(_OneLine("ruledsl lsp: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.WARNING)
        log.propagate = False
    server.start_io()
    # `exit` closed stdout with the connection: what flushes it on the way out must meet a file
    if sys.stdout is None or sys.stdout.closed:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")

"""The names a rules file declares, where, and what its comments say about them.

Built from the parser and the assembler (so ``include`` and ``extends`` are
followed), for the language server: hover, go to definition, completion.
Local names (``let``, ``for``, move parameters, ``each``, parameters of
defines and procedures) are found inside the declaration that holds them.
"""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from ..checker import types as T
from ..language import ast as A
from ..language.assemble import assemble
from ..language.errors import RulesError, Span
from ..language.parse import data_path, parse
from .walk import children, descendants, source_of

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

KIND_OF = {
    A.Param: "param", A.EnumDef: "enum", A.KindDef: "kind", A.DeckDef: "deck", A.ZoneDef: "zone",
    A.VarDef: "var", A.DefineDef: "define", A.ProcedureDef: "procedure", A.TriggerDef: "trigger",
    A.InvariantDef: "invariant", A.TableDef: "table",
}

BUILTIN_DOCS = {
    **{name: "built-in function" for name in T.BUILTINS},
    **{name: "built-in aggregate: " + name + "(each x in DOMAIN where COND)" for name in T.AGGREGATES},
    **{name: "built-in fold: " + name + "(EXPR for each x in DOMAIN where COND)" for name in T.FOLDS},
    "players": "every player of the game, in seat order (without those who left)",
    "seats": "every seat of the game, in seat order, those who left too",
    "player_count": "the number of players of this game",
    "current": "the player whose turn it is (inside `turns`)",
}


@attrs.frozen
class Symbol:
    name: str
    kind: str  # param, zone, var, define, procedure, enum, enum value, kind, attribute, deck, trigger, ...
    file: str  # the path the assembler knows the file by
    line: int  # 1-based, of the name
    column: int  # 1-based, of the name
    signature: str  # the declaration's first line
    doc: str  # its comment and documentation string

    @property
    def end_column(self) -> int:
        return self.column + len(self.name)


@attrs.define
class Index:
    symbols: dict = attrs.Factory(dict)  # name -> [Symbol]
    texts: dict = attrs.Factory(dict)  # file -> text
    items: list = attrs.Factory(list)  # every top-level declaration, with its file in its span

    def lookup(self, name: str) -> list:
        return self.symbols.get(name, [])

    def declaration_at(self, file: str, line: int):
        """The top-level declaration of ``file`` that spans ``line``."""
        for item in self.items:
            s = item.span
            if same_file(s.file, file) and s.line <= line <= (s.end_line or s.line):
                return item
        return None


def same_file(a: str, b: str) -> bool:
    if a == b:
        return True
    if a.startswith("<") or b.startswith("<"):
        return False
    return Path(a).resolve() == Path(b).resolve()


def build_index(text: str, path: str, read=None, retries: int = 3) -> Index:
    """Every declaration of the file at ``path`` (given as ``text``) and the files it includes or extends.

    A file being edited is often broken: the line of a syntax error is left out
    (up to ``retries`` times) so that the rest still gives its names; a file
    whose includes are broken gives its own declarations.
    """
    index = Index()
    try:
        assembly = assemble(text, path, read)
        items = list(assembly.items) + [r.item for r in assembly.replaced] + list(assembly.extensions)
        index.texts = dict(assembly.texts)
    except RulesError as err:
        try:
            tree = parse(text, path)
        except RulesError as syntax:
            line = syntax.diagnostics[0].line if syntax.diagnostics else 0
            lines = text.split("\n")
            if retries <= 0 or not 1 <= line <= len(lines):
                return index
            # the culprit is often the line before the one where the parser noticed
            before = next((i for i in range(line - 1, 0, -1) if lines[i - 1].strip()), None)
            for candidate in (before, line):
                if candidate is None or not lines[candidate - 1].strip():
                    continue
                trial = list(lines)
                trial[candidate - 1] = ""
                smaller = build_index("\n".join(trial), path, read, retries - 1)
                if smaller.symbols:
                    smaller.texts[path] = text
                    return smaller
            return index
        del err
        items = [i for i in tree.items if not isinstance(i, (A.Include, A.Extends))]
        items = [i.item if isinstance(i, A.Replace) else i for i in items]
        index.texts = {path: text}
    index.items = items
    for item in items:
        _collect(index, item)
    return index


def _add(index: Index, name: str, kind: str, node, doc: str = "", signature: str | None = None) -> None:
    span = node.span
    text = index.texts.get(span.file, "")
    line, column = name_position(text, span, name)
    sig = signature if signature is not None else source_of(node, index.texts, first_line_only=True)
    comment = _comment(text, span.line)
    full = "\n\n".join(part for part in (comment, doc) if part)
    index.symbols.setdefault(name, []).append(Symbol(name, kind, span.file, line, column, sig, full))


def _collect(index: Index, item) -> None:
    kind = KIND_OF.get(type(item))
    if kind is not None and "~" not in getattr(item, "name", ""):  # not the counts a construct keeps (bounds.py)
        doc = ""
        if isinstance(item, A.Param) and item.doc:
            doc = item.doc
        elif isinstance(item, A.InvariantDef) and item.message:
            doc = item.message
        _add(index, item.name, kind, item, doc)
    if isinstance(item, A.EnumDef):
        for v in item.values:
            _add(index, v.name, f"value of enum {item.name}", v, v.label or "", _src(index, item))
    elif isinstance(item, A.KindDef):
        for attr in item.attributes:
            _add(index, attr.name, f"attribute of kind {item.name}", attr)
    for node in descendants(item):
        if isinstance(node, A.Choose):
            _add(index, node.name, "decision", node, "", f"choose {node.name} by {_src(index, node.actor)}")
            for option in node.options:
                _add(index, option.name, f"move of decision {node.name}", option, "",
                     _src(index, option).split("{")[0].strip())
        elif isinstance(node, A.ExtendChoice):
            for option in node.options:
                _add(index, option.name, f"move of decision {node.name}", option, "",
                     _src(index, option).split("{")[0].strip())


def _src(index: Index, node) -> str:
    return source_of(node, index.texts, first_line_only=True)


def name_position(text: str, span: Span, name: str) -> tuple[int, int]:
    """Where ``name`` is written in the first lines of the node at ``span`` (else the node's start)."""
    lines = text.splitlines()
    for line in range(span.line, min(span.end_line or span.line, span.line + 3) + 1):
        if not 1 <= line <= len(lines):
            break
        start = span.column - 1 if line == span.line else 0
        code = lines[line - 1].split("#", 1)[0]
        for m in WORD.finditer(code, start):
            if m.group(0) == name:
                return line, m.start() + 1
    return span.line, span.column


def _comment(text: str, line: int) -> str:
    """The comment lines just above ``line`` and the comment at the end of it."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return ""
    above = []
    i = line - 2
    while i >= 0 and lines[i].strip().startswith("#"):
        above.append(lines[i].strip().lstrip("#").strip())
        i -= 1
    above.reverse()
    above = [a for a in above if not a.startswith("mutate:")]  # marks for `ruledsl mutate`, not for readers
    own = lines[line - 1]
    trailing = ""
    if "#" in own and not own.strip().startswith("#"):
        code, _, rest = own.partition("#")
        if code.count('"') % 2 == 0 and not rest.strip().startswith("mutate:"):
            trailing = re.split(r"#\s*mutate:", rest)[0].strip()  # a mark after the comment: not for readers
    if above and set(above[0]) <= set("-= "):
        above = above[1:]
    return "\n".join(part for part in (" ".join(a for a in above if a), trailing) if part)


# ---- local names


def local_bindings(decl) -> list[tuple[str, object]]:
    """The names bound inside a declaration, each with the node that binds it, in source order."""
    found = []
    if isinstance(decl, (A.DefineDef, A.ProcedureDef)):
        found += [(p, decl) for p in decl.params]
    if isinstance(decl, (A.TriggerDef, A.InvariantDef)) and decl.var:
        found.append((decl.var, decl))
    if isinstance(decl, A.WinnerDef):
        found.append((decl.var, decl))
    for node in descendants(decl):
        if isinstance(node, A.Let):
            found.append((node.name, node))
        elif isinstance(node, A.For):
            found.append((node.var, node))
        elif isinstance(node, A.OptionParam):
            found.append((node.name, node))
        elif isinstance(node, (A.Aggregate, A.Fold)):
            found.append((node.var, node))
    found.sort(key=lambda pair: (pair[1].span.line, pair[1].span.column))
    return found


def locals_in_scope(decl, line: int, column: int) -> list[tuple[str, object]]:
    """The local names of ``decl`` in scope at the 1-based (line, column), innermost last: bound
    before it, and not by a block, loop, move or aggregate that has ended there."""
    far = (10**9, 0)
    found = []  # (name, binding node, the end of its scope)
    if isinstance(decl, (A.DefineDef, A.ProcedureDef)):
        found += [(p, decl, far) for p in decl.params]
    if isinstance(decl, (A.TriggerDef, A.InvariantDef)) and decl.var:
        found.append((decl.var, decl, far))
    if isinstance(decl, A.WinnerDef):
        found.append((decl.var, decl, far))

    def end_of(node):
        sp = node.span
        return (sp.end_line, sp.end_column) if sp.end_line else far

    def visit(node, block_end):
        if isinstance(node, A.Let):
            found.append((node.name, node, block_end))  # to the end of the block it is written in
        elif isinstance(node, (A.For, A.Aggregate, A.Fold)):
            found.append((node.var, node, end_of(node)))
        elif isinstance(node, A.OptionParam):
            found.append((node.name, node, block_end))  # the move's condition and body
        if isinstance(node, A.If):  # each branch is a block of its own
            nexts = [c.span for c, _ in node.branches[1:]]
            if node.otherwise:
                nexts.append(node.otherwise[0].span)
            for i, (cond, body) in enumerate(node.branches):
                visit(cond, end_of(node))
                end = (nexts[i].line, nexts[i].column) if i < len(nexts) else end_of(node)
                for stmt in body:
                    visit(stmt, end)
            for stmt in node.otherwise or ():
                visit(stmt, end_of(node))
            return
        for child in children(node):
            visit(child, end_of(node))

    visit(decl, far)
    at = (line, column)
    inside = [(name, node) for name, node, end in found
              if (node.span.line, node.span.column) <= at <= end]
    inside.sort(key=lambda pair: (pair[1].span.line, pair[1].span.column))
    return inside


def word_at(text: str, line: int, character: int) -> str | None:
    """The name under a 0-based (line, character) position, if any."""
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return None
    for m in WORD.finditer(lines[line]):
        if m.start() <= character <= m.end():
            return m.group(0)
    return None


def prefix_at(text: str, line: int, character: int) -> str:
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return ""
    m = re.search(r"[A-Za-z_][A-Za-z0-9_]*$", lines[line][:character])
    return m.group(0) if m else ""


def grammar_keywords() -> list[str]:
    """The words of the language: every quoted word of grammar/ruledsl.lark (rules and scenarios)."""
    text = data_path("grammar", "ruledsl.lark").read_text(encoding="utf-8")
    code = "\n".join(line.split("//", 1)[0] for line in text.splitlines())
    return sorted(set(re.findall(r'"([A-Za-z_][A-Za-z0-9_]*)"', code)))

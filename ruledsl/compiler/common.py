"""A pure part worked out again in one stretch of generated code, read back from a Python local.

A statement's text is written on its own, so a stretch may work out the same part several times: a
procedure's ``at once`` that puts a card at ``next_space(l)`` and sets two variables to
``next_space(l)`` computes ``((_s_vars[7 + _Lv17] + 1) % 16)`` three times. This pass rewrites, in
the text of one generated function, a top-level assignment whose value is such a part,
``TARGET = (PART)``, into ``TARGET = _cmN = (PART)`` (or uses ``TARGET`` itself when it is a plain
Python local), and the same text later in the function into ``_cmN``, as long as the compiler can
prove that nothing in between writes what the part reads.

A part qualifies when its text is one parenthesized expression made only of numbers, names, the
arithmetic operators and indexing (no call, no attribute, no comprehension), and it does at least
one operation. What it reads: names, the variables ``_s_vars[I]`` (scalars: never changed in place)
and the locals slots ``L[k]`` (a slot may hold a list: any list changed in place forgets the parts
that read a slot).
Line by line after it (in order, whatever their depth, so a write in a branch counts), the part is
forgotten at:

- a write of a name it reads (``=``, ``:=``, ``+=``, a ``for`` target, a method called on it);
- a write ``_s_vars[J]`` unless J and each I it reads are sure to name other variables: two different
  non-negative numbers, or ``A + e`` and ``B + e`` with the same ``e``, A != B and |A - B| below the
  number of variables (a negative index cannot then land on the other);
- a write ``L[j]`` of a slot it reads (any slot when ``j`` is not a number);
- the state, the locals or the variables handed on or named as a whole (``s`` other than to read or
  set an attribute, ``s._method(...)``, ``s.vars``, ``L`` or ``_s_vars`` not indexed), ``L`` rebound;
- a loop, a ``lambda`` or a ``def`` (a loop's later rounds would see an older value).

Only the part's own text is replaced (never where it follows a name or a bracket: a call's
arguments), and in a line that writes what the part reads only when the line is one assignment whose
value (no call, no ``:=``) is worked out before its target is written. The function's lines keep their number and order. A part raises the same error when
worked out again as it did the first time (the same values), so reading the local instead changes
nothing but the work.
"""

from __future__ import annotations

import ast
import re

from .srctext import code_part

_ASSIGN = re.compile(r"    ([^ #=][^=]*?) = (\(.*\))")
_PLAIN_LOCAL = re.compile(r"(?!(?:s|L)$)[A-Za-z_]\w*")
_HEADER = re.compile(r"\s*(if|elif|while|else|try|except|finally|with|for|return|raise|assert)\b\s*(.*?):?\s*$")
_LOOPING = re.compile(r"\b(?:for|while|lambda|def)\b")
_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Mod, ast.FloorDiv, ast.USub, ast.UAdd, ast.Invert,
        ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift)



class _Part:
    """A part kept: its text, the local holding it, and what it reads."""

    def __init__(self, text: str, name: str, names: set, var_indices: list, slots: set, any_slot: bool):
        self.text, self.name = text, name
        self.names, self.var_indices, self.slots, self.any_slot = names, var_indices, slots, any_slot


def _pure_reads(node) -> tuple | None:
    """(names, the index nodes of `_s_vars`, the constant L slots, whether a computed L slot is read,
    the number of operations) of a pure part, or None if it is not one."""
    names, indices, slots, any_slot, ops = set(), [], set(), False, 0
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, ast.Constant):
            if not isinstance(n.value, (int, float)):
                return None
        elif isinstance(n, ast.Name):
            if n.id in ("s", "L", "_s_vars"):
                return None  # a whole state, locals or variables as a value
            names.add(n.id)
        elif isinstance(n, ast.BinOp) and isinstance(n.op, _OPS):
            ops += 1
            todo += [n.left, n.right]
        elif isinstance(n, ast.UnaryOp) and isinstance(n.op, _OPS):
            ops += 1
            todo.append(n.operand)
        elif isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and not isinstance(n.slice, ast.Slice):
            ops += 1
            if n.value.id == "_s_vars":  # a variable: an int, a bool, a player, a card or none (never changed in place)
                indices.append(n.slice)
            elif n.value.id == "L":  # a slot: it may hold a list, changed in place through a Python local
                if isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, int):
                    slots.add(n.slice.value)
                else:
                    any_slot = True
            else:
                return None  # a table or a list of the state: nothing here says what changes it
            todo.append(n.slice)
        else:
            return None
    return names, indices, slots, any_slot, ops


def _offset(index) -> tuple:
    """An index as (its constant, the text of what is added to it, '' for none), or None."""
    if isinstance(index, ast.Constant) and type(index.value) is int:
        return index.value, ""
    if (isinstance(index, ast.BinOp) and isinstance(index.op, ast.Add) and isinstance(index.left, ast.Constant)
            and type(index.left.value) is int):
        return index.left.value, ast.dump(index.right)
    return None


def _apart(written, read, var_count: int) -> bool:
    """Whether the variables' indices ``written`` and ``read`` (ast nodes) surely name other variables."""
    a, b = _offset(written), _offset(read)
    if a is None or b is None or a[1] != b[1]:
        return False
    if not a[1]:
        return a[0] >= 0 and b[0] >= 0 and a[0] != b[0]
    return a[0] != b[0] and abs(a[0] - b[0]) < var_count


class _Effects:
    """What one line may write: names, variables' indices (None: any), slots (None: any), all."""

    def __init__(self):
        self.names: set = set()
        self.var_indices: list = []
        self.any_var = False
        self.slots: set = set()
        self.any_slot = False
        self.everything = False
        self.in_place = False  # a list changed in place through a name (a slot may hold it)


def _target(t, fx: _Effects) -> None:
    if isinstance(t, ast.Name):
        fx.names.add(t.id)
        if t.id == "L":
            fx.any_slot = True
        elif t.id in ("s", "_s_vars"):
            fx.everything = True
    elif isinstance(t, (ast.Tuple, ast.List)):
        for e in t.elts:
            _target(e, fx)
    elif isinstance(t, ast.Starred):
        _target(t.value, fx)
    elif isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name):
        base = t.value.id
        if base == "_s_vars":
            fx.var_indices.append(t.slice)
        elif base == "L":
            if isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, int):
                fx.slots.add(t.slice.value)
            else:
                fx.any_slot = True
        else:
            fx.names.add(base)
            fx.in_place = True
    elif isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "s":
        if t.attr in ("vars", "locals"):
            fx.everything = True
    else:
        fx.everything = True


def _effects(tree) -> _Effects:
    fx = _Effects()
    parents = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[child] = node
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for t in node.targets:
                _target(t, fx)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            _target(node.target, fx)
        elif isinstance(node, ast.NamedExpr):
            _target(node.target, fx)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if isinstance(node.func.value, ast.Name):
                if node.func.value.id == "s":
                    fx.everything = True  # one of the State's own methods
                else:
                    fx.names.add(node.func.value.id)  # a method may change what it is called on
                    fx.in_place = True
            else:
                fx.everything = True
        elif isinstance(node, ast.Call) and (node.args or node.keywords):
            fx.in_place = True  # a function may change a list handed to it
        elif isinstance(node, ast.Name):
            up = parents.get(node)
            if node.id == "s" and not (isinstance(up, ast.Attribute) and up.value is node):
                fx.everything = True
            elif node.id == "L" and not (isinstance(up, ast.Subscript) and up.value is node):
                fx.any_slot = True
            elif node.id == "_s_vars" and not (isinstance(up, ast.Subscript) and up.value is node):
                fx.any_var = True
        elif isinstance(node, ast.Attribute) and node.attr in ("vars", "locals"):
            fx.everything = True
    return fx


def _parse_line(code: str):
    """The statement (or a header's expression) of one generated line, parsed on its own, or None when
    it cannot be (then the line counts as writing everything)."""
    text = code.strip()
    if not text or text.startswith("#"):
        return ast.Module(body=[], type_ignores=[])
    head = _HEADER.fullmatch(text)
    if head is not None and text.endswith(":"):
        text = head.group(2) or "None"
        if head.group(1) == "except":
            return ast.Module(body=[], type_ignores=[])
    try:
        return ast.parse(text)
    except SyntaxError:
        return None


def _value_first(tree) -> bool:
    """Whether a line is one assignment whose value, with no call and no ``:=`` in it, is worked out
    before anything in the line is written (a part read there sees what it saw before the line)."""
    if tree is None or len(tree.body) != 1 or not isinstance(tree.body[0], (ast.Assign, ast.AugAssign)):
        return False
    return not any(isinstance(n, (ast.Call, ast.NamedExpr, ast.Lambda)) for n in ast.walk(tree.body[0].value))


def _forgets(part: _Part, fx: _Effects, var_count: int) -> bool:
    if fx.everything or part.names & fx.names or part.name in fx.names:
        return True
    if part.var_indices and (fx.any_var or any(not _apart(w, r, var_count)
                                               for w in fx.var_indices for r in part.var_indices)):
        return True
    if not (part.slots or part.any_slot):
        return False
    return fx.any_slot or fx.in_place or bool(fx.slots and (part.any_slot or part.slots & fx.slots))


def _replace(code: str, text: str, name: str) -> str:
    """``code`` with each occurrence of the part's ``text`` that stands as a value (not a call's
    argument list, not an index right after a name) read from ``name``."""
    out, at = [], 0
    while True:
        k = code.find(text, at)
        if k < 0:
            out.append(code[at:])
            return "".join(out)
        before = code[k - 1] if k else " "
        if before.isalnum() or before in "_)].'\"":
            out.append(code[at:k + 1])
            at = k + 1
            continue
        out.append(code[at:k] + name)
        at = k + len(text)


def keep_common(lines: list, start: int, var_count: int) -> None:
    """Rewrite the function whose ``def`` line is ``lines[start]`` (up to the next ``def`` at the left
    margin or the end), in place."""
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("def ")), len(lines))
    # a cheap look first: a top-level assignment of a parenthesized value whose text comes again later
    found = []
    for i in range(start + 1, end):
        m = _ASSIGN.fullmatch(code_part(lines[i])[0])
        if m is not None and any(m.group(2) in code_part(lines[j])[0] for j in range(i + 1, end)):
            found.append(i)
    if not found:
        return
    kept: list = []  # the parts kept now
    made = 0
    for i in range(found[0], end):
        code, comment = code_part(lines[i])
        if _LOOPING.search(code):
            kept.clear()
            continue
        tree = _parse_line(code)
        fx = _effects(tree) if tree is not None else None
        for part in kept:  # a line that writes what the part reads: only where it is read first
            if part.text in code and (fx is not None and not _forgets(part, fx, var_count) or _value_first(tree)):
                code = _replace(code, part.text, part.name)
        if fx is None:
            kept.clear()
        else:
            kept = [p for p in kept if not _forgets(p, fx, var_count)]
        if i in found:
            m = _ASSIGN.fullmatch(code)
            if m is not None:
                target, text = m.group(1), m.group(2)
                try:
                    value = ast.parse(text, mode="eval").body
                except SyntaxError:
                    value = None
                reads = _pure_reads(value) if value is not None and f"({ast.get_source_segment(text, value)})" == text \
                    else None
                if reads is not None and reads[4] >= 2:
                    names, indices, slots, any_slot, _ops = reads
                    if _PLAIN_LOCAL.fullmatch(target) and target not in names:
                        name = target
                    else:
                        name = f"_cm{made}"
                        made += 1
                        code = f"    {target} = {name} = {text}"
                    part = _Part(text, name, names, indices, slots, any_slot)
                    fx.names.discard(target)  # the line's own target (a plain local) holds it now
                    if not _forgets(part, fx, var_count):  # the line may write what it read
                        kept.append(part)
                    elif name != target:
                        code = f"    {target} = {text}"
        lines[i] = code + comment
    # a local made for a part that was never read again: the line as it was
    for i in found:
        m = re.fullmatch(r"    (.*?) = (_cm\d+) = (\(.*\))", code_part(lines[i])[0])
        if m is not None and not any(re.search(rf"\b{m.group(2)}\b", lines[j]) for j in range(i + 1, end)):
            lines[i] = f"    {m.group(1)} = {m.group(3)}" + code_part(lines[i])[1]

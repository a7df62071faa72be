"""Constant expressions: parameters, and sizes worked out once when a game is set up.

A parameter's value, an index range's ends and a track's slots are constants.
A size may also depend on the player count (``track(if player_count <= 3 then
5 else 4)``): it is worked out for every count the game allows, once, before
a game starts; a size that reads the state (a variable, ``current``) is E213.
:class:`Constants` is a part of the checker (it needs ``model`` and ``error``).
"""

from __future__ import annotations

import difflib

from ..language import ast as A

_ARITHMETIC = ("+", "-", "*", "/", "%")
_COMPARE = ("==", "!=", "<", "<=", ">", ">=")


class Constants:
    """Working out constant expressions (a part of the checker)."""

    _n: int | None = None  # the player count a size is being worked out for (None: no count is known)
    _read_players = False  # the last constant read `player_count`
    _defines_open: tuple = ()  # defines being worked out, against a define that names itself

    def _const(self, node):
        """The value of a constant expression (literals, parameters, arithmetic), or None after an error."""
        m = self.model
        if isinstance(node, (A.IntLit, A.StrLit, A.BoolLit)):
            return node.value
        if isinstance(node, A.Neg):
            v = self._const(node.operand)
            return -v if _is_number(v) else None
        if isinstance(node, A.Name) and node.name in m.params:
            info = m.params[node.name]
            if info.value is None and info.node.value is not node:
                saved, self._n = self._n, None  # a parameter is the same for every player count
                try:
                    info.value = self._const(info.node.value)
                finally:
                    self._n = saved
            return info.value
        if isinstance(node, A.Name) and node.name == "player_count":
            if self._n is None:
                self.error("E213", "a parameter cannot depend on the player count", node,
                           "name the value with a define, as in `define hand_size = if player_count <= 3 "
                           "then 5 else 4`; sizes may use it")
                return None
            self._read_players = True
            return self._n
        if isinstance(node, A.Name) and node.name in m.defines and self._n is not None \
                and not m.defines[node.name].params and node.name not in self._defines_open:
            outer = self._defines_open
            self._defines_open = outer + (node.name,)
            try:
                return self._const(m.defines[node.name].body)
            finally:
                self._defines_open = outer
        if isinstance(node, A.Index) and isinstance(node.obj, A.Name) and node.obj.name in m.tables \
                and len(node.indices) == 1:
            table = m.tables[node.obj.name]
            dim, key_node = table.dims[0], node.indices[0]
            if dim[0] == "enum" and isinstance(key_node, A.Name) and key_node.name in m.enums[dim[1]].values:
                return table.values[m.enums[dim[1]].values.index(key_node.name)]
            key = self._const(key_node)
            if key is None or dim[0] != "range" or len(dim) > 3:
                return None
            if not isinstance(key, int) or isinstance(key, bool) or not dim[1] <= key <= dim[2]:
                self.error("E205", f"`{table.name}[{key}]` is outside the table's index {dim[1]}..{dim[2]}", node)
                return None
            return table.values[key - dim[1]]
        if isinstance(node, A.IfExpr) and self._n is not None:
            cond = self._const(node.cond)
            if cond is None:
                return None
            if not isinstance(cond, bool):
                self.error("E202", "the condition of `if` is true or false", node.cond)
                return None
            return self._const(node.then if cond else node.otherwise)
        if isinstance(node, A.Not) and self._n is not None:
            v = self._const(node.operand)
            return (not v) if isinstance(v, bool) else None
        if isinstance(node, A.BinOp) and node.op in ("and", "or") and self._n is not None:
            a, b = self._const(node.left), self._const(node.right)
            if isinstance(a, bool) and isinstance(b, bool):
                return (a and b) if node.op == "and" else (a or b)
            return None
        if isinstance(node, A.BinOp) and node.op in _COMPARE and self._n is not None:
            a, b = self._const(node.left), self._const(node.right)
            if a is None or b is None:
                return None
            if node.op in ("==", "!="):
                return (a == b) == (node.op == "==")
            if _is_number(a) and _is_number(b):
                return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b}[node.op]
        if isinstance(node, A.BinOp) and node.op in _ARITHMETIC:
            a, b = self._const(node.left), self._const(node.right)
            if _is_number(a) and _is_number(b):
                if node.op in ("/", "%") and b == 0:
                    self.error("E202", "division by zero", node)
                    return None
                return {"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0, "%": a % b if b else 0}[node.op]
            if a is None or b is None:
                return None  # the part that is not a constant has been reported; no knock-on error
        hint = None
        unknown = isinstance(node, A.Name) and not (node.name in m.vars or node.name in m.zones
                                                    or node.name in m.defines or node.name == "current")
        if self._n is not None and not unknown:
            what = _what(node, m)
            hint = (f"{what} is part of the state; a size is worked out once, when a game is set up, from "
                    "numbers, parameters, `player_count` and defines of those")
        elif isinstance(node, A.Name):
            hint = (_suggest(node.name, list(m.params) + (list(m.defines) if self._n is not None else []))
                    or f"`{node.name}` is not a parameter")
        self.error("E213", "a constant is needed here: a number, true/false, a string or a parameter", node, hint)
        return None

    def _sized(self, node, check):
        """A size: ``node`` worked out for each player count the game allows, each value passed to
        ``check(value, n)`` (n None when the size is the same for every count), which reports what is
        wrong and returns the value to use. Gives (the value for checking, {count: value} or None)."""
        m = self.model
        counts = range(m.min_players, m.max_players + 1)
        saved = self._n, self._read_players
        self._n, self._read_players = m.min_players, False
        try:
            first = self._const(node)
            if not self._read_players or first is None:
                return check(first, None), None
            values = {}
            for n in counts:
                self._n = n
                told = len(self.errors)
                value = self._const(node) if n != counts[0] else first
                _drop_repeats(self.errors, told)  # a reason given for an earlier count is not told again
                values[n] = check(value, n)
            return values[counts[0]], values
        finally:
            self._n, self._read_players = saved


def _drop_repeats(errors: list, start: int) -> None:
    """Remove the errors from ``start`` on that repeat one told before it."""
    seen = {(d.code, d.message, d.span) for d in errors[:start]}
    errors[start:] = [d for d in errors[start:] if (d.code, d.message, d.span) not in seen]


def _is_number(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _what(node, m) -> str:
    if isinstance(node, A.Name):
        if node.name in m.vars:
            return f"`{node.name}` is a variable: it"
        if node.name == "current":
            return "`current` (who moves)"
        return f"`{node.name}`"
    if isinstance(node, (A.Index, A.Call, A.Aggregate, A.Fold)):
        return "a variable, a zone or a function of them"
    return "this"


def _suggest(name: str, candidates) -> str | None:
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None

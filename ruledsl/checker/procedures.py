"""Procedures as abstractions: zones as parameters, and results given by `return` (docs §2.12.1).

`procedure refill(z) { while size(z) < 5 { put top(deck) into z } }` takes a
zone: `refill(hand[p])`. `procedure best(p) { ... return c }` gives a value,
taken by `let c = best(p)` or `x = best(p)`. The body is checked once with
untyped parameters, and again at each call with the types of its arguments,
so a track given where the body deals cards is found at the call.
:class:`ProcedureChecks` is a part of the checker.
"""

from __future__ import annotations

from ..language import ast as A
from . import types as T
from .declare import Binding
from .treewalk import _child_blocks

ZONE_TYPES = (T.ZONE, T.TRACK, T.ANY)


class ProcedureChecks:
    """Zone parameters, `return` and calls that take a result (a part of the checker)."""

    _rechecking: tuple = ()  # procedures whose bodies are being checked again for a call
    _calls_checked: dict | None = None  # (procedure, argument types) -> its result's type, checked once
    _returns: list | None = None  # the types `return` gives in the procedure checked (None: outside one)
    _held = 0  # enclosing `reveal` / `at once` blocks, which a `return` may not leave

    def zone_param(self, ref: A.ZoneRef, scope: dict):
        """The type of a zone named by a parameter or a `let` (``put c into z``); None if it is not one."""
        if ref.member is not None or ref.name not in scope or ref.name in self.model.zones:
            return None
        b = scope[ref.name]
        self.model.bindings[ref] = b
        for i in ref.indices:
            self.expr(i, scope)
        if ref.indices:
            self.error("E205", f"`{ref.name}` is one zone already; it takes no index", ref)
        if b.type in ZONE_TYPES:
            return b.type
        self.error("E202", f"`{ref.name}` is {T.describe(b.type)}, not a zone", ref,
                   "a procedure's parameter is a zone when the call gives one, as in refill(hand[p])")
        return T.ANY

    def check_call(self, name: str, args: tuple, scope: dict, node) -> str:
        """The arguments of a call of a procedure, its body checked with their types; its result's type
        (T.NONE: it gives none)."""
        m = self.model
        proc = m.procedures[name]
        types = [self.expr(a, scope) for a in args]
        used = _zone_params(proc)
        for pname, arg, t in zip(proc.params, args, types):
            if pname in used and t not in ZONE_TYPES:
                self.error("E202", f"`{name}` uses `{pname}` as a zone; it is given {T.describe(t)}", arg,
                           f"give it a zone, as in {name}(hand[p])")
        gives = _gives(proc.body)
        if name in self._rechecking or len(args) != len(proc.params):
            m.results[node] = T.ANY if gives else T.NONE
            return m.results[node]
        # every call's argument types are checked against the body (`put c ...` given a player), once
        # per procedure and types: a body is not checked again for a call like one already checked
        key = (name, tuple(types))
        done = self._calls_checked.get(key) if self._calls_checked is not None else None
        if done is not None:
            m.results[node] = done
            return done
        saved = (self._owner, self._loops, self._turns, self._returns, self._held)
        self._rechecking += (name,)
        self._owner, self._loops, self._turns, self._returns, self._held = name, 0, 0, [], 0
        try:
            # a zone parameter given something else was told above; no knock-on errors in the body
            inner = {p: self.bind(Binding(p, T.ANY if p in used and t not in ZONE_TYPES else t), proc)
                     for p, t in zip(proc.params, types)}
            self.block(proc.body, inner, in_trigger=False)
            found = self._returns
        finally:
            self._owner, self._loops, self._turns, self._returns, self._held = saved
            self._rechecking = self._rechecking[:-1]
        result = next((t for t, _ in found if t not in (T.ANY, T.NONE)), T.ANY if found else T.NONE)
        for t, at in found:
            if not (T.fits(t, result) or T.fits(result, t)):
                self.error("E202", f"`{name}` gives {T.describe(result)} at one `return` and {T.describe(t)} "
                                   "at another", at)
                result = T.ANY  # told once: no knock-on error where the result is taken
                break
        m.results[node] = result
        if self._calls_checked is None:
            self._calls_checked = {}
        self._calls_checked[key] = result
        return result

    def check_return(self, s, scope: dict) -> None:
        t = self.expr(s.value, scope)
        if self._returns is None:
            self.error("E206", "`return` gives a procedure's result; here it stands outside a procedure", s)
        elif self._held:
            self.error("E206", "a `return` cannot leave a `reveal` or `at once` block", s,
                       "keep the result in a `let` and return after the block")
        else:
            self._returns.append((t, s.value))

    def result_call(self, call: A.Call, scope: dict, in_trigger: bool) -> str:
        """`let x = f(...)`, `x = f(...)` with f a procedure: checked as a call statement, its result's type."""
        stmt = A.CallStmt(call.name, call.args, span=call.span)
        self.stmt(stmt, scope, in_trigger)
        t = self.model.results.get(stmt, T.ANY)
        self.model.results[call] = t
        if t == T.NONE:
            self.error("E202", f"`{call.name}` gives no result: it has no `return`", call,
                       f"end it with `return VALUE`, or call it as a statement: {call.name}(...)")
            return T.ANY
        return t

    def check_ends(self, proc: A.ProcedureDef) -> None:
        """A procedure that gives a result gives it on every way through."""
        if _gives(proc.body) and not _always_gives(proc.body):
            self.error("E206", f"`{proc.name}` can end without `return`", proc,
                       "end it with `return VALUE` (in each branch of a final if/else)")


def _zone_params(proc: A.ProcedureDef) -> set:
    """The parameters a procedure's body uses as zones (`put c into z`, `deal 2 from deck into z`)."""
    found: set = set()

    def walk(node) -> None:
        if isinstance(node, A.ZoneRef) and node.name in proc.params and node.member is None:
            found.add(node.name)
        if isinstance(node, (tuple, list)):
            for x in node:
                walk(x)
        elif isinstance(node, A.Node):
            for field in type(node).__attrs_attrs__:
                walk(getattr(node, field.name))

    walk(proc.body)
    return found


def _gives(stmts) -> bool:
    """Whether a block (not a procedure it calls) holds a `return`."""
    for s in stmts:
        if isinstance(s, A.Return):
            return True
        if any(_gives(child) for child in _child_blocks(s)):
            return True
    return False


def _always_gives(stmts) -> bool:
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (A.Return, A.EndGame)):
        return True
    if isinstance(last, A.If) and last.otherwise is not None:
        return all(_always_gives(body) for _, body in last.branches) and _always_gives(last.otherwise)
    return False

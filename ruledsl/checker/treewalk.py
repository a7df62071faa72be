"""Questions the checker asks of a piece of the syntax tree: is it constant, random, a decision?"""

from __future__ import annotations

import attrs

from ..language import ast as A


def _at_random(s) -> bool:
    """`put c into stock at random`: a random depth of a pile."""
    return isinstance(s.at, A.Name) and s.at.name == "random"


def _is_constant(e, model) -> bool:
    """Whether an expression's value is fixed when the game is loaded (numbers, parameters, arithmetic)."""
    if isinstance(e, A.IntLit):
        return True
    if isinstance(e, A.Name):
        return e.name in model.params and e not in model.bindings
    if isinstance(e, A.Neg):
        return _is_constant(e.operand, model)
    if isinstance(e, A.BinOp) and e.op in ("+", "-", "*", "/", "%"):
        return _is_constant(e.left, model) and _is_constant(e.right, model)
    return False


def _child_blocks(s):
    if isinstance(s, A.If):
        for _, body in s.branches:
            yield body
        if s.otherwise is not None:
            yield s.otherwise
    elif isinstance(s, (A.For, A.Repeat, A.While, A.Turns, A.Reveal, A.AtOnce)):
        yield s.body
    elif isinstance(s, A.Choose):
        for o in s.options:
            yield o.body


def _contains_choice(stmts, procedures, seen=None) -> bool:
    seen = seen or set()
    for s in stmts:
        if isinstance(s, A.Choose):
            return True
        if isinstance(s, A.CallStmt) and s.name in procedures and s.name not in seen:
            seen.add(s.name)
            if _contains_choice(procedures[s.name].body, procedures, seen):
                return True
        for child in _child_blocks(s):
            if _contains_choice(child, procedures, seen):
                return True
    return False


def _turn_control(stmts, procedures, kinds=None, seen=None):
    """The first `next turn` or `final round` in these statements or the procedures they call
    (not inside a nested `turns`, which has its own), or None. ``kinds`` narrows the search."""
    kinds = kinds or (A.NextTurn, A.FinalRound)
    seen = seen if seen is not None else set()
    for s in stmts:
        if isinstance(s, kinds):
            return s
        if isinstance(s, A.Turns):
            continue
        if isinstance(s, A.CallStmt) and s.name in procedures and s.name not in seen:
            seen.add(s.name)
            found = _turn_control(procedures[s.name].body, procedures, kinds, seen)
            if found is not None:
                return found
        for child in _child_blocks(s):
            found = _turn_control(child, procedures, kinds, seen)
            if found is not None:
                return found
    return None


def _announced(model) -> dict:
    """The variables the rules set with `announce` (full name -> the first such statement), from the
    flow, procedures, triggers and `extend choose` moves."""
    found: dict = {}

    def walk(stmts):
        for s in stmts:
            if isinstance(s, A.Assign) and s.announced:
                found.setdefault(s.name if s.member is None else f"{s.name}.{s.member}", s)
            for child in _child_blocks(s):
                walk(child)

    bodies = [model.flow.body] if model.flow is not None else []
    bodies += [p.body for p in model.procedures.values()] + [t.body for t in model.triggers]
    bodies += [o.body for options in model.extensions.values() for o in options]
    for body in bodies:
        walk(body)
    return found


def _meld_test_in(e, defines, seen=None):
    """The first define that a call in ``e`` reaches (itself or through other defines) whose body holds a
    meld test (`same`, `distinct`, `run`), or None."""
    seen = seen if seen is not None else set()

    def holds_test(node) -> bool:
        if isinstance(node, A.Aggregate) and node.func in ("same", "distinct", "run"):
            return True
        if isinstance(node, tuple):
            return any(holds_test(x) for x in node)
        if isinstance(node, A.Node):
            if isinstance(node, A.Call) and node.name in defines and node.name not in seen:
                seen.add(node.name)
                if holds_test(defines[node.name].body):
                    return True
            return any(holds_test(getattr(node, f.name)) for f in attrs.fields(type(node)))
        return False

    def first(node):
        if isinstance(node, tuple):
            return next((x for x in map(first, node) if x is not None), None)
        if isinstance(node, A.Call) and node.name in defines and holds_test(defines[node.name].body):
            return node
        if isinstance(node, A.Node):
            return next((x for x in (first(getattr(node, f.name)) for f in attrs.fields(type(node)))
                         if x is not None), None)
        return None

    return first(e)

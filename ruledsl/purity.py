"""Which conditions are a pure function of one card and a few variables (for tables of legal moves).

The condition of a move with one card parameter (``move play(c in hand[p])
where fits(c)``) often reads nothing but the card's attributes, constants and
a few variables (``rank[c.colour]``). Its value is then fixed by the card and
those variables' values, so the generated code (flowgen.py) keeps it in a
table: for each combination of the variables' values met in play, one entry
per card id, filled the first time the card is asked about. This is what a
programmer writing a game by hand does with a lookup table, for every rules
file whose conditions allow it.

:func:`condition_key` says whether a condition is such a function, and of
which variable slots. It accepts only what it knows to be pure and to read
nothing else: literals, parameters, enum values, kinds, the card parameter
and define parameters bound to such expressions, card attributes, variables
of fixed size (not a growing family's), arithmetic, comparisons, ``and``,
``or``, ``not``, ``if``, ``in`` a set or a range, ``has``, ``abs``, ``min``,
``max`` and defines built from them. Anything else (a zone, ``current``, the
player count, a random pick, a quantifier) makes it answer None.
"""

from __future__ import annotations

from . import ast as A
from .layout import _product

MAX_KEY = 8  # variable slots in a table's key at most


def condition_key(comp, expr, binding) -> tuple | None:
    """The variable slots ``expr`` reads, if it is a pure function of the card bound to ``binding``
    and of those slots; else None."""
    m = comp.m
    slots: set = set()

    def family(name) -> bool:
        if name not in comp.var_families or name in m.grown:
            return False
        base, sizes, dims = comp.var_families[name]
        if any(d[0] == "grow" for d in dims):
            return False
        slots.update(range(base, base + _product(sizes)))
        return True

    def walk(e, bound: frozenset, seen: frozenset) -> bool:
        if isinstance(e, (A.IntLit, A.BoolLit, A.NoneLit, A.StrLit)):
            return True
        if isinstance(e, A.Name):
            b = m.bindings.get(e)
            if b is not None:
                return b in bound
            n = e.name
            if n in m.params or n in m.enum_values or n in m.enums or n in m.kinds:
                return True
            if n in m.vars:
                return family(n)
            if n in m.defines and not m.defines[n].params and n not in seen:
                return walk(m.defines[n].body, bound, seen | {n})
            return False
        if isinstance(e, A.Attr):
            if e in m.member_refs:
                return False
            return walk(e.obj, bound, seen)
        if isinstance(e, A.Has):
            return walk(e.obj, bound, seen)
        if isinstance(e, A.Index):
            name = getattr(e.obj, "name", None)
            return name in m.vars and family(name) and all(walk(i, bound, seen) for i in e.indices)
        if isinstance(e, A.Call):
            if e.name in m.defines and e.name not in seen:
                d = m.defines[e.name]
                if not all(walk(a, bound, seen) for a in e.args):
                    return False
                params = frozenset(m.bindings[d, p] for p in d.params)
                return walk(d.body, bound | params, seen | {e.name})
            if e.name in ("abs", "min", "max"):
                return all(walk(a, bound, seen) for a in e.args)
            return False
        if isinstance(e, A.BinOp):
            if e.op in ("in", "not in"):
                right = e.right
                if isinstance(right, A.SetLit):
                    ok = all(walk(i, bound, seen) for i in right.items)
                elif isinstance(right, A.Range):
                    ok = walk(right.low, bound, seen) and walk(right.high, bound, seen)
                else:
                    return False
                return ok and walk(e.left, bound, seen)
            if e.op in ("/", "%"):
                return False  # a division by zero is a finding at its rule, not in a table
            return walk(e.left, bound, seen) and walk(e.right, bound, seen)
        if isinstance(e, (A.Not, A.Neg)):
            return walk(e.operand, bound, seen)
        if isinstance(e, A.IfExpr):
            return all(walk(x, bound, seen) for x in (e.cond, e.then, e.otherwise))
        return False

    if expr is None or not walk(expr, frozenset((binding,)), frozenset()):
        return None
    if len(slots) > MAX_KEY:
        return None
    return tuple(sorted(slots))

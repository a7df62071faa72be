"""A part of a define's value written out more than once, worked out once.

Defines are inlined at each use, so a value such as Tramwaje's
``next_line(p) * next_line(p)``, whose ``next_line`` reads
``most_of_a_rank(p)`` twice, works out the same fold four times. While a
value the bots ask for (the ``heuristic``, the ``score``: compiler.py's
``_player_define``) is compiled, a define called again with the same
arguments is given the same generated function (``Expressions.call_define``),
so its repeats read alike; this pass then rewrites the value's text so that
each repeated part is worked out where it is first met and read back after
that: ``(_rpN := PART)`` there, ``_rpN`` at each later place.

Why that changes nothing but the work: a define cannot change the game (no
`random` in a define, E206), so a part's value depends only on the state and
the locals it reads. At the top of such a value the only locals a part reads
are the value's own parameters, which nothing in it writes; the generated
functions write only the slots of their own loops and arguments, which are
read inside them alone. A part is kept only where it is surely worked out
(not in an ``if`` branch, nor after the first operand of ``and``/``or`` or a
chained comparison), and read back only later in Python's order of
evaluation. A part is a generated function ``_dN(s, L)`` the compiler has
marked pure, or an expression of such calls, ``len``, ``min``, ``max``,
``abs``, the index checks (``_badN``), names, numbers and operators; a text
with a ``lambda``, a comprehension or a ``:=`` of its own is left as it is.
"""

from __future__ import annotations

import ast
import re

_CHECK = re.compile(r"_bad\d+")
_BUILTINS = frozenset({"len", "min", "max", "abs"})
_LEAVES = (ast.Name, ast.Constant)
_UNSUPPORTED = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.NamedExpr,
                ast.Await, ast.Yield, ast.YieldFrom, ast.Starred)


def once(text: str, pure: set) -> str | None:
    """``text`` with every repeated pure part worked out once, or None when nothing is repeated (or the
    text is not one this pass reads). ``pure``: the names of the generated functions ``_dN`` known to
    be pure functions of the state and the locals they read."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return None
    if any(isinstance(n, _UNSUPPORTED) for n in ast.walk(tree)):
        return None
    made = 0
    while True:
        group = _best_repeat(tree.body, pure)
        if group is None:
            break
        first, later = group
        name = f"_rp{made}"
        made += 1
        _replace(tree, first, ast.NamedExpr(target=ast.Name(name, ast.Store()), value=first))
        for node in later:
            _replace(tree, node, ast.Name(name, ast.Load()))
    if not made:
        return None
    return ast.unparse(tree)


def _pure(node, pure: set) -> bool:
    """Whether ``node`` is a part that may be kept: it calls nothing but pure functions, and calls one."""
    calls = 0
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            if not isinstance(n.func, ast.Name) or n.keywords:
                return False
            name = n.func.id
            if name in pure:
                if [type(a) for a in n.args] != [ast.Name, ast.Name] or [a.id for a in n.args] != ["s", "L"]:
                    return False
                calls += 1
            elif name not in _BUILTINS and not _CHECK.fullmatch(name):
                return False
        elif not isinstance(n, (ast.expr, ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)):
            return False
    return calls > 0


def _in_order(node, sure: bool, out: list) -> None:
    """Every expression node under ``node`` in Python's order of evaluation, as (node, surely worked out
    whenever the whole is)."""
    out.append((node, sure))
    if isinstance(node, ast.IfExp):
        _in_order(node.test, sure, out)
        _in_order(node.body, False, out)
        _in_order(node.orelse, False, out)
    elif isinstance(node, ast.BoolOp):
        for i, v in enumerate(node.values):
            _in_order(v, sure and i == 0, out)
    elif isinstance(node, ast.Compare):
        _in_order(node.left, sure, out)
        for i, c in enumerate(node.comparators):
            _in_order(c, sure and i == 0, out)
    elif isinstance(node, ast.Call):
        for a in node.args:
            _in_order(a, sure, out)
    elif isinstance(node, ast.BinOp):
        _in_order(node.left, sure, out)
        _in_order(node.right, sure, out)
    elif isinstance(node, ast.UnaryOp):
        _in_order(node.operand, sure, out)
    elif isinstance(node, ast.Subscript):
        _in_order(node.value, sure, out)
        _in_order(node.slice, sure, out)
    elif isinstance(node, (ast.Attribute, ast.NamedExpr)):
        _in_order(node.value, sure, out)
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        for e in node.elts:
            _in_order(e, sure, out)


def _best_repeat(body, pure: set):
    """The biggest part met again after a place where it is surely worked out: (that first place, the
    later places), or None."""
    order: list = []
    _in_order(body, True, order)
    seen: dict = {}
    for i, (node, sure) in enumerate(order):
        if isinstance(node, _LEAVES) or not _pure(node, pure):
            continue
        seen.setdefault(ast.dump(node), []).append((i, node, sure))
    best = None
    for places in seen.values():
        start = next((k for k, (_, _, sure) in enumerate(places) if sure), None)
        if start is None or start == len(places) - 1:
            continue
        first = places[start][1]
        size = sum(1 for _ in ast.walk(first))
        if best is None or size > best[0]:
            best = (size, first, [node for _, node, _ in places[start + 1:]])
    if best is None:
        return None
    _, first, later = best
    inside = {id(n) for n in ast.walk(first)}
    # a later place inside the first (it cannot be: the same text) or inside another later place is
    # replaced with it
    kept, covered = [], set()
    for node in later:
        if id(node) in inside or id(node) in covered:
            continue
        kept.append(node)
        covered |= {id(n) for n in ast.walk(node)}
    return first, kept


def _replace(tree, old, new) -> None:
    """Put ``new`` where ``old`` stands in ``tree`` (by identity)."""
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is old:
                setattr(parent, field, new)
                return
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if item is old:
                        value[i] = new
                        return
    raise AssertionError("a part to replace is not in the tree")

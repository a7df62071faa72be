"""Shapes of rules that a rulebook says differently from how the rules file writes them.

Each function here recognises one general shape in the checked syntax and
gives what :mod:`ruledsl.desk.wording` and :mod:`ruledsl.desk.explain` need to
say it as a rulebook would:

- :func:`enum_chain`: a define that is an ``if ... else if ...`` chain on the
  values of an enum (``least(e) = if e == a then 15 else ...``): one row per
  value, printed as a table;
- :func:`enum_branches`: an ``if`` statement whose branches each test one
  variable against values of one enum: one entry per value;
- :func:`action_loop`: ``let going = true`` (and ``let n = 0``) before
  ``while going and n < N ...`` whose body counts ``n += 1`` and sets
  ``going = false`` in a move: "repeat until that move, at most N times";
- :func:`bounds`: the least and the greatest value a number can take (for a
  score that can never reach another's);
- :func:`call_sites` and :func:`settings`: where a procedure is reached
  from, and where a variable is set (when per-turn marks are reset).
"""

from __future__ import annotations

import attrs

from ..language import ast as A
from .walk import children, descendants


def words(name: str) -> str:
    """``deal_size`` -> ``deal size``."""
    return name.replace("_", " ")


def conjuncts(e) -> list:
    if isinstance(e, A.BinOp) and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e] if e is not None else []


def disjuncts(e) -> list:
    if isinstance(e, A.BinOp) and e.op == "or":
        return disjuncts(e.left) + disjuncts(e.right)
    return [e]


def _tested(model, cond):
    """``x == a or x == b`` on enum values: (the tested expression's key, x, enum, [a, b]); else None."""
    subject, enum, values = None, None, []
    for d in disjuncts(cond):
        if not (isinstance(d, A.BinOp) and d.op == "=="):
            return None
        pair = [(d.left, d.right), (d.right, d.left)]
        hit = next(((x, v.name) for x, v in pair if isinstance(v, A.Name) and v.name in model.enum_values
                    and isinstance(x, (A.Name, A.Attr, A.Index))), None)
        if hit is None:
            return None
        x, value = hit
        key = repr(_strip(x))
        e = model.enum_values[value][0]
        if subject is None:
            subject, enum = (key, x), e
        elif subject[0] != key or enum != e:
            return None
        values.append(value)
    return subject[0], subject[1], enum, values


def _strip(node):
    """A node's shape without its position, to compare two expressions."""
    if isinstance(node, A.Node):
        return (type(node).__name__,) + tuple(_strip(getattr(node, f.name)) for f in attrs.fields(type(node))
                                               if f.name != "span")
    if isinstance(node, (tuple, list)):
        return tuple(_strip(x) for x in node)
    return node


def same(a, b) -> bool:
    return _strip(a) == _strip(b)


def enum_chain(model, d):
    """A define that is an if-else chain on one of its parameters' enum values: (param, enum, {value: expr})."""
    body, rows, key, enum = d.body, {}, None, None
    if not isinstance(body, A.IfExpr):
        return None
    while isinstance(body, A.IfExpr):
        t = _tested(model, body.cond)
        if t is None or not (isinstance(t[1], A.Name) and t[1].name in d.params):
            return None
        if key is not None and (t[0] != key or t[2] != enum):
            return None
        key, subject, enum = t[0], t[1], t[2]
        for v in t[3]:
            rows.setdefault(v, body.then)
        body = body.otherwise
    for v in model.enums[enum].values:
        rows.setdefault(v, body)
    ordered = {v: rows[v] for v in model.enums[enum].values}
    return subject.name, enum, ordered


def enum_branches(model, s):
    """An ``if`` whose branches test one thing against values of one enum: (subject, enum, [(values, body)])."""
    if not isinstance(s, A.If) or len(s.branches) < 2 and not s.otherwise:
        return None
    key, subject, enum, named, out = None, None, None, [], []
    for cond, body in s.branches:
        t = _tested(model, cond)
        if t is None or (key is not None and (t[0] != key or t[2] != enum)):
            return None
        key, subject, enum = t[0], t[1], t[2]
        named += t[3]
        out.append((t[3], body))
    rest = [v for v in model.enums[enum].values if v not in named]
    if s.otherwise:
        if not rest:
            return None
        out.append((rest, s.otherwise))
    order = model.enums[enum].values
    out.sort(key=lambda item: min(order.index(v) for v in item[0]))
    return subject, enum, out


def action_loop(body, i):
    """``let``s and the ``while`` after them, read as "repeat until a move, at most N times".

    Returns (the index after the while, the while, {flag: the move that stops it}, {counter: bound},
    [the other conjuncts of the condition], [the other lets]) or None.
    """
    j, lets = i, []
    while j < len(body) and isinstance(body[j], A.Let):
        lets.append(body[j])
        j += 1
    if not lets or j >= len(body) or not isinstance(body[j], A.While):
        return None
    loop = body[j]
    parts = conjuncts(loop.cond)
    flags, counters, used = {}, {}, set()
    for let in lets:
        name = let.name
        if isinstance(let.value, A.BoolLit) and let.value.value and any(
                isinstance(p, A.Name) and p.name == name for p in parts):
            stop = _stopping_move(loop.body, name)
            if stop is not None:
                flags[name] = stop
                used.add(id(let))
        elif isinstance(let.value, A.IntLit) and let.value.value == 0 and loop.body and _counts(loop.body[0], name):
            bound = next((p.right for p in parts if isinstance(p, A.BinOp) and p.op == "<"
                          and isinstance(p.left, A.Name) and p.left.name == name), None)
            if bound is not None:
                counters[name] = bound
                used.add(id(let))
    if not flags:
        return None
    rest = [p for p in parts if not (isinstance(p, A.Name) and p.name in flags)
            and not (isinstance(p, A.BinOp) and isinstance(p.left, A.Name) and p.left.name in counters)]
    others = [let for let in lets if id(let) not in used]
    return j + 1, loop, flags, counters, rest, others


def _counts(s, name) -> bool:
    return (isinstance(s, A.Assign) and s.name == name and not s.indices and s.op == "+="
            and isinstance(s.value, A.IntLit) and s.value.value == 1)


def _stopping_move(body, flag):
    for s in body:
        for n in descendants(s):
            if isinstance(n, A.Option) and any(
                    isinstance(x, A.Assign) and x.name == flag and isinstance(x.value, A.BoolLit)
                    and not x.value.value for b in n.body for x in descendants(b)):
                return n.name
    return None


# ---- bounds of numbers


def bounds(model, e, card_count: int, depth: int = 0):
    """(least, greatest) value of the number ``e`` in any game, or None if not known."""
    if depth > 12 or e is None:
        return None
    b = lambda x: bounds(model, x, card_count, depth + 1)
    if isinstance(e, A.IntLit):
        return e.value, e.value
    if isinstance(e, A.Name) and e.name in model.params:
        acc = model.params[e.name].accepted
        v = model.params[e.name].value
        if acc is not None:
            return acc
        return (v, v) if isinstance(v, int) and not isinstance(v, bool) else None
    if isinstance(e, (A.Name, A.Call)) and e.name in model.defines:
        d = model.defines[e.name]
        return b(d.body)
    if isinstance(e, A.Call) and e.name == "size":
        return 0, card_count
    if isinstance(e, A.Aggregate) and e.func == "count":
        n = _domain_size(model, e.domain, card_count)
        return (0, n) if n is not None else None
    if isinstance(e, A.IfExpr):
        x, y = b(e.then), b(e.otherwise)
        return (min(x[0], y[0]), max(x[1], y[1])) if x and y else None
    if isinstance(e, A.BinOp) and e.op in ("+", "-", "*"):
        x, y = b(e.left), b(e.right)
        if not (x and y):
            return None
        if e.op == "+":
            return x[0] + y[0], x[1] + y[1]
        if e.op == "-":
            return x[0] - y[1], x[1] - y[0]
        products = [p * q for p in x for q in y]
        return min(products), max(products)
    return None


def _domain_size(model, d, card_count):
    if isinstance(d, A.Call) and d.name == "members" and d.args:
        ref = d.args[0]
        name = ref.obj.name if isinstance(ref, A.Index) and isinstance(ref.obj, A.Name) else getattr(ref, "name", None)
        info = model.zones.get(name)
        if info is not None and info.grows and len(info.dims[-1]) > 2 and info.dims[-1][2]:
            return info.dims[-1][2]
        return None
    if isinstance(d, A.Name) and d.name == "players":
        return model.max_players
    if isinstance(d, A.Name) and d.name in model.enums:
        return len(model.enums[d.name].values)
    if isinstance(d, A.Range) and isinstance(d.low, A.IntLit) and isinstance(d.high, A.IntLit):
        return max(0, d.high.value - d.low.value + 1)
    if isinstance(d, (A.Name, A.Index)):
        name = d.obj.name if isinstance(d, A.Index) and isinstance(d.obj, A.Name) else getattr(d, "name", None)
        if name in model.zones:
            return card_count
    return None


# ---- where things happen


def call_sites(model, name) -> list:
    """Where procedure ``name`` is reached: [(caller, move or decision before it, conditions, in a loop)]."""
    out = []
    roots = [("the flow", model.flow)] if model.flow is not None else []
    roots += list(model.procedures.items())
    for caller, root in roots:
        if root is None:
            continue
        _sites(root.body, name, caller, None, [], False, out, None)
    return out


def _sites(body, name, caller, option, conds, looped, out, prev):
    for s in body:
        if isinstance(s, A.CallStmt) and s.name == name:
            out.append((caller, option, prev, list(conds), looped))
        elif isinstance(s, A.Turns):
            _sites(s.body, name, "each turn" if caller == "the flow" else caller, option, conds, False, out, None)
        elif isinstance(s, A.If):
            for cond, sub in s.branches:
                inner = conds if any("~" in n.name for n in descendants(cond) if isinstance(n, A.Name)) else [*conds, cond]
                _sites(sub, name, caller, option, inner, looped, out, prev)
            if s.otherwise:
                _sites(s.otherwise, name, caller, option, conds, looped, out, prev)
        elif isinstance(s, A.Choose):
            for o in s.options:
                _sites(o.body, name, caller, o.name, conds, looped, out, None)
        elif isinstance(getattr(s, "body", None), tuple):
            _sites(s.body, name, caller, option, conds, looped or isinstance(s, (A.While, A.Repeat, A.Turns)), out,
                   None)
        if isinstance(s, A.Choose):
            prev = s.name
        elif any(isinstance(n, A.Choose) for n in descendants(s)):
            prev = None
    return out


def settings(model, var) -> list:
    """Where ``var`` is given a value: [(part, the assignment, at the start of the part, the move it is in)]."""
    out = []
    parts = [("the setup and play", model.flow)] if model.flow is not None else []
    parts += [(f"*{n}*", p) for n, p in model.procedures.items()]
    parts += [(f"the rule *{t.name}*", t) for t in model.triggers]
    for part, root in parts:
        decided = False
        for s in root.body:
            for n, move in _assigns(s, None):
                if (f"{n.name}.{n.member}" if n.member else n.name) == var:
                    out.append((part, n, not decided, move))
            if _decides(model, s, set()):
                decided = True
    return out


def _assigns(node, move):
    if isinstance(node, A.Assign):
        yield node, move
    for c in children(node):
        yield from _assigns(c, node.name if isinstance(node, A.Option) else move)


def _decides(model, s, seen) -> bool:
    for n in descendants(s):
        if isinstance(n, A.Choose):
            return True
        if isinstance(n, A.CallStmt) and n.name in model.procedures and n.name not in seen:
            seen.add(n.name)
            if any(_decides(model, x, seen) for x in model.procedures[n.name].body):
                return True
    return False


# ---- what the rules read


def _roots(model) -> list:
    """Every part of the rules a player applies (the bots' heuristic is advice, not a rule)."""
    roots = [model.flow, model.winner, *model.procedures.values(), *model.triggers, *model.invariants]
    roots += [d for n, d in model.defines.items() if n != "heuristic"]
    return [r for r in roots if r is not None]


def _is_read(node, var) -> bool:
    if "." in var:
        owner, member = var.split(".", 1)
        return isinstance(node, A.Attr) and node.name == member and (
            getattr(node.obj, "name", None) == owner or getattr(getattr(node.obj, "obj", None), "name", None) == owner)
    return isinstance(node, A.Name) and node.name == var


def _guarded(node, var, guards, out) -> None:
    """The reads of ``var`` in ``node``, each as the list of conditions known to hold where it is read."""
    if _is_read(node, var):
        out.append(guards)
        return
    if isinstance(node, A.IfExpr):
        _guarded(node.cond, var, guards, out)
        _guarded(node.then, var, guards + conjuncts(node.cond), out)
        _guarded(node.otherwise, var, guards, out)
        return
    if isinstance(node, A.BinOp) and node.op == "and":
        _guarded(node.left, var, guards, out)
        _guarded(node.right, var, guards + conjuncts(node.left), out)
        return
    if isinstance(node, A.If):
        for cond, body in node.branches:
            _guarded(cond, var, guards, out)
            for s in body:
                _guarded(s, var, guards + conjuncts(cond), out)
        for s in node.otherwise or ():
            _guarded(s, var, guards, out)
        return
    if hasattr(node, "keys") and hasattr(node, "when"):  # the winner: its keys are read when its condition holds
        if node.when is not None:
            _guarded(node.when, var, guards, out)
        for k in node.keys:
            _guarded(k, var, guards + conjuncts(node.when), out)
        return
    for c in children(node):
        _guarded(c, var, guards, out)


def read_anywhere(model, var) -> bool:
    """Whether any rule reads the variable ``var`` (``line.rank`` for a member's value)."""
    out: list = []
    for r in _roots(model):
        _guarded(r, var, [], out)
        if out:
            return True
    return False


def _bodies(root):
    for n in descendants(root):
        for field in ("body", "otherwise"):
            v = getattr(n, field, None)
            if isinstance(v, tuple) and v and all(isinstance(x, A.Stmt) for x in v):
                yield v
        if isinstance(n, A.If):
            for _, b in n.branches:
                yield b


def set_before_read(model, var) -> bool:
    """Whether ``var`` is read only where a flag holds that is raised only together with setting ``var``.

    ``founder`` read only under ``founded``, which starts false and is set true only in a body that sets
    ``founder`` too: its starting value is never seen.
    """
    reads: list = []
    for r in _roots(model):
        _guarded(r, var, [], reads)
    if not reads:
        return False
    roots = [model.flow, *model.procedures.values(), *model.triggers]
    bodies = [b for r in roots if r is not None for b in _bodies(r)]

    def raised_with(flag) -> bool:
        info = model.vars.get(flag)
        if info is None or info.type != "bool" or not (isinstance(info.init, A.BoolLit) and not info.init.value):
            return False
        raised = [b for b in bodies if any(isinstance(s, A.Assign) and s.name == flag and not s.indices
                                           and not (isinstance(s.value, A.BoolLit) and not s.value.value) for s in b)]
        return bool(raised) and all(any(isinstance(s, A.Assign) and s.name == var for s in b) for b in raised)

    return all(any(isinstance(g, A.Name) and raised_with(g.name) for g in guards) for guards in reads)


def stopping_moves(model) -> dict:
    """The decisions of ``action_loop``s with the moves that end them: {decision: [moves]}."""
    out: dict = {}
    roots = [model.flow, *model.procedures.values()]
    for r in roots:
        if r is None:
            continue
        for body in _bodies(r):
            for i in range(len(body)):
                found = action_loop(list(body), i)
                if found is None:
                    continue
                for n in descendants(found[1]):
                    if isinstance(n, A.Choose):
                        moves = [o.name for o in n.options if o.name in found[2].values()]
                        if moves:
                            out.setdefault(n.name, moves)
    return out

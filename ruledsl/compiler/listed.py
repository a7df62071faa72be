"""Which `any` in a move's condition the moves listed before it already answer.

A decision's moves are listed one option after the other, on the same state: listing writes nothing
but the listing's own copy of the locals. So when a later option asks

    move pass where not any(each c in hand[current] where A(c) or B(c))

and earlier options of the same decision list their moves under exactly those conditions,

    move play(c in hand[current]) where A(c)
    move play_as(c in hand[current], k in kinds) where k != first_kind and B(c)

the `any` holds just when those options listed some move: `A(c) or B(c)` holds for some card c of
the hand. So does one option that lists under the whole condition, `move play(c in hand[current])
where A(c) or B(c)` (a define of an `or`, written by both, is met this way).

An option with further arguments counts when their conditions read only those arguments, over
values known when compiling, and some value passes them (then a card x is listed just when the
rest, read of x alone, holds). Every sub-expression the `any` would work out was worked out by
those listings, on the same state and without failing, so nothing can fail that did not.

The comparison is of the rules' expressions, with every define written out (its parameters stand
for their arguments' expressions) and each variable of a quantifier named by its depth: two
conditions are the same when they are the same expression of the rules, read in the same place.
Only expressions that cannot change the state are compared (no `random`, no procedure); anything
else, or a local whose value the listings may have overwritten, answers nothing.
"""

from __future__ import annotations

import itertools

from ..language import ast as A

X = ("x",)  # the card (or value) the `any` and the listing option go through
PURE_CALLS = frozenset({"size", "empty", "top", "bottom", "next", "previous", "abs", "min", "max"})
MAX_TRIED = 1000  # value combinations of an option's further arguments tried when compiling
_EVAL = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b, "+": lambda a, b: a + b, "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
}


class _Unknown(Exception):
    """An expression this module does not compare (it might change the state, or read a local)."""


def answers(m, params: dict, options: list) -> list:
    """Per option of a decision (its syntax), {an `any` node of its condition: the indices of the
    earlier options whose listing answers it}; empty where none is answered."""
    found = [{} for _ in options]
    listers = {}
    for k, o in enumerate(options):
        walk = _Walk(m, params)
        try:
            env = {}
            for j, p in enumerate(o.params):
                walk.canon(p.domain, env, 0)
                env[m.bindings[p, p.name]] = ("q", j)
            if o.where is not None:
                walk.canon(o.where, env, 0)
        except _Unknown:
            break  # this option might change the state (or is not compared): none after it is answered
        for node, seen in walk.any_seen.items():
            if len(set(seen)) != 1 or seen[0] is None:
                continue  # met more than once in different places, or inside another quantifier
            dom, splits = seen[0]
            for disjuncts in splits:
                chosen = set()
                for conjuncts in disjuncts:
                    i = next((i for i in range(k) if _lister(m, params, options[i], listers, i) == (dom, conjuncts)),
                             None)
                    if i is None:
                        break
                    chosen.add(i)
                else:
                    found[k][node] = tuple(sorted(chosen))
                    break
    return found


def runs(indices) -> tuple:
    """Options' indices as runs of neighbours, (first, last) each: ``(0, 1, 3)`` -> ``((0, 1), (3, 3))``.
    Whether the options of a run listed a move is one test: the list grew from before the first."""
    out = []
    for i in sorted(set(indices)):
        if out and out[-1][1] == i - 1:
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return tuple(out)


def _lister(m, params: dict, o, memo: dict, i: int):
    """(the domain, the conjuncts of the condition) under which option ``o`` lists a move for a value
    x of that domain, when its other arguments run over constant values and some pass their own
    conditions; else None."""
    if i not in memo:
        memo[i] = _lister_of(m, params, o)
    return memo[i]


def _lister_of(m, params: dict, o):
    if not o.params or o.where is None:
        return None
    walk = _Walk(m, params)
    try:
        doms = [walk.canon(p.domain, {}, 0) for p in o.params]
    except _Unknown:
        return None
    values = [_constant_values(d) for d in doms]
    loose = [j for j, v in enumerate(values) if v is None]
    if len(loose) != 1:
        return None  # one argument goes through the state's values, the others through constants
    x = loose[0]
    env = {m.bindings[p, p.name]: (X if j == x else ("p", j)) for j, p in enumerate(o.params)}
    try:
        conjuncts = _flat(walk.canon(o.where, env, 0), "and")
    except _Unknown:
        return None
    # the conditions of the other arguments alone, and the rest: of x, or of the state alone
    others = [c for c in conjuncts if _mentions_any(c, "p")]
    if any(_mentions(c, X) for c in others):
        return None  # a condition of x and another argument together
    if len(o.params) > 1 and not _some_pass(others, [(j, v) for j, v in enumerate(values) if j != x]):
        return None  # no value of the other arguments (or none at all) passes: the option lists nothing
    own = [c for c in conjuncts if not _mentions_any(c, "p")]
    return doms[x], tuple(own)


def _constant_values(dom):
    """The values of a domain known when compiling (an enum, a range or a set of constants), or None."""
    if dom[0] == "enum":
        return range(dom[2])
    if dom[0] == "range" and dom[1][0] == "lit" and dom[2][0] == "lit":
        lo, hi = dom[1][2], dom[2][2]
        if type(lo) is int and type(hi) is int:
            return range(lo, hi + 1)
    if dom[0] == "set" and all(item[0] == "lit" for item in dom[1]):
        return tuple(item[2] for item in dom[1])
    return None


def _some_pass(conds: list, args: list) -> bool:
    """Whether some combination of the arguments' values passes every condition (read of them alone)."""
    slots = [j for j, _ in args]
    for combo in itertools.islice(itertools.product(*(v for _, v in args)), MAX_TRIED):
        bound = dict(zip(slots, combo))
        try:
            if all(_value(c, bound) is True for c in conds):
                return True
        except (_Unknown, TypeError):
            return False
    return False


def _value(c, bound: dict):
    """A compared expression of constants and arguments worked out (comparisons, and/or/not, + - *)."""
    tag = c[0]
    if tag == "lit":
        return c[2]
    if tag == "p":
        return bound[c[1]]
    if tag == "not":
        return not _value(c[1], bound)
    if tag == "op" and c[1] == "and":
        return _value(c[2], bound) and _value(c[3], bound)
    if tag == "op" and c[1] == "or":
        return _value(c[2], bound) or _value(c[3], bound)
    if tag == "op" and c[1] in _EVAL:
        return _EVAL[c[1]](_value(c[2], bound), _value(c[3], bound))
    raise _Unknown


def _flat(c, op: str) -> tuple:
    """The same, of a compared expression."""
    if c[0] == "op" and c[1] == op:
        return _flat(c[2], op) + _flat(c[3], op)
    return (c,)


def _mentions(c, leaf) -> bool:
    if c == leaf:
        return True
    return isinstance(c, tuple) and any(isinstance(x, tuple) and _mentions(x, leaf) for x in c)


def _mentions_any(c, tag: str) -> bool:
    if not isinstance(c, tuple):
        return False
    if len(c) == 2 and c[0] == tag and type(c[1]) is int:
        return True
    return any(_mentions_any(x, tag) for x in c)


class _Walk:
    """An expression as a comparable tuple: defines written out, quantified variables by depth."""

    def __init__(self, m, params: dict):
        self.m, self.params = m, params
        # `any` node -> per place it is met: (its domain, its condition's disjuncts, each a tuple of
        # conjuncts, its variable as X), or None when met inside another quantifier
        self.any_seen: dict = {}

    def canon(self, e, env: dict, depth: int):
        m = self.m
        if isinstance(e, (A.IntLit, A.StrLit, A.BoolLit)):
            return ("lit", type(e.value).__name__, e.value)
        if isinstance(e, A.NoneLit):
            return ("lit", "none", None)
        if isinstance(e, A.Name):
            return self.name(e, env, depth)
        if isinstance(e, A.Attr):
            if e in m.member_refs:
                return ("member", m.member_refs[e], tuple(self.canon(i, env, depth) for i in e.obj.indices))
            return ("attr", self.canon(e.obj, env, depth), e.name)
        if isinstance(e, A.Has):
            return ("has", self.canon(e.obj, env, depth), e.name)
        if isinstance(e, A.Index):
            return ("index", e.obj.name, tuple(self.canon(i, env, depth) for i in e.indices))
        if isinstance(e, A.Call):
            args = tuple(self.canon(a, env, depth) for a in e.args)
            if e.name in m.defines:
                d = m.defines[e.name]
                inner = {m.bindings[d, p]: a for p, a in zip(d.params, args)}
                return self.canon(d.body, inner, depth)
            if e.name in PURE_CALLS and e.name not in m.procedures:
                return ("call", e.name, args)
            raise _Unknown
        if isinstance(e, A.Aggregate):
            return self.aggregate(e, env, depth)
        if isinstance(e, A.BinOp):
            return ("op", e.op, self.canon(e.left, env, depth), self.canon(e.right, env, depth))
        if isinstance(e, A.Not):
            return ("not", self.canon(e.operand, env, depth))
        if isinstance(e, A.Neg):
            return ("neg", self.canon(e.operand, env, depth))
        if isinstance(e, A.IfExpr):
            return ("if",) + tuple(self.canon(x, env, depth) for x in (e.cond, e.then, e.otherwise))
        if isinstance(e, A.SetLit):
            return ("set", tuple(self.canon(i, env, depth) for i in e.items))
        if isinstance(e, A.TupleLit):
            return ("tuple", tuple(self.canon(i, env, depth) for i in e.items))
        if isinstance(e, A.Range):
            return ("range", self.canon(e.low, env, depth), self.canon(e.high, env, depth))
        raise _Unknown

    def name(self, e: A.Name, env: dict, depth: int):
        m, n = self.m, e.name
        b = m.bindings.get(e)
        if b is not None:
            if b in env:
                return env[b]
            raise _Unknown  # a local: the listings before may have written its slot
        if n == "player_count" and m.players_fixed is not None:
            return ("lit", "int", m.players_fixed)
        if n in ("player_count", "current", "players", "seats"):
            return ("name", n)
        if n in m.params:
            v = self.params[n]
            return ("lit", type(v).__name__, v)
        if n in m.vars:
            return ("name", n)
        if n in m.defines:
            return self.canon(m.defines[n].body, {}, depth)
        if n in m.enum_values:
            return ("lit", "int", m.enum_values[n][1])
        if n in m.enums:
            return ("enum", n, len(m.enums[n].values))
        if n in m.kinds:
            return ("lit", "str", n)
        if n in m.zones:
            return ("name", n)
        raise _Unknown

    def aggregate(self, e: A.Aggregate, env: dict, depth: int):
        if e.func not in ("any", "all", "count", "cards") or e.start is not None or e.key is not None:
            raise _Unknown
        b = self.m.bindings[e, e.var]
        dom = self.canon(e.domain, env, depth)
        where = self.canon(e.where, {**env, b: ("v", depth)}, depth + 1) if e.where is not None else None
        if e.func == "any" and e.where is not None:
            seen = None
            if depth == 0:  # the same condition with the variable as X, its own variables from depth 0
                whole = self.canon(e.where, {**env, b: X}, 0)
                # the condition as one option's (a define of an `or` both write), else each side of its `or`s
                seen = (dom, ((_flat(whole, "and"),), tuple(_flat(d, "and") for d in _flat(whole, "or"))))
            self.any_seen.setdefault(e, []).append(seen)
        return ("agg", e.func, dom, where)

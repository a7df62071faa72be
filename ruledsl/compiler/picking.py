"""Compiling picks, orders and seats: `best ... by`, `first(...)`, `sorted(...)`, keys, the meld tests
(`same`, `distinct`, `run`), `leave`.

A key is a number, a true/false value (true above false) or a tuple of keys,
compared item by item, first item first (``(c.suit == lead, c.rank)``);
`list(x for each ...)` makes one from a domain. `best x in D by KEY` gives the
value of D with the highest key (``by lowest KEY``: the lowest); on a tie the
first in D's order wins (seat order, from the `from` player on; a zone from
bottom to top), and it is none when D (after `where`) is empty.

Players who have left the game are kept in a hidden boolean variable family
``#out[player]`` (declared only when the rules use `leave`), so saving,
cloning and comparing a state carry it like any variable. `players`,
`next(p)`, `previous(p)`, `for p in players from ...` and `turns` skip them.
"""

from __future__ import annotations

import functools
import itertools

from ..checker import types as T
from ..checker.declare import SEATS_OUT
from ..language import ast as A
from ..language.errors import RulesRuntimeError


def _runtime(message, span):
    raise RulesRuntimeError(message, span)


@functools.total_ordering
class Descending:
    """A key whose order is turned round: for `highest` winner keys that are tuples."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, Descending) and self.value == other.value

    def __lt__(self, other):
        return other.value < self.value


def descending(value):
    """``value`` with its order turned round (a number is negated)."""
    return -value if isinstance(value, int) else Descending(value)


# ---------------------------------------------------------------- seats


def out_base(c) -> int | None:
    """The first variable slot of ``#out``, or None when no player can leave."""
    family = c.var_families.get(SEATS_OUT)
    return None if family is None else family[0]


def players_fn(c):
    """The players still in the game, in seat order."""
    base = out_base(c)
    if base is None:
        return c.gen("range(s.n)")
    return c.gen(f"[_p for _p in range(s.n) if not s.vars[{base} + _p]]")


def step_fn(c, step: int, span):
    """``f(s, p)``: the next (step 1) or previous (step -1) player after p who is still in."""
    base = out_base(c)
    if base is None:
        return lambda s, p: (p + step) % s.n

    def walk(s, p):
        for i in range(1, s.n + 1):
            q = (p + step * i) % s.n
            if not s.vars[base + q]:
                return q
        _runtime("no player is left in the game", span)

    return walk


def every_seat(c, domain) -> bool:
    """Whether a domain is `seats` (every seat, those who left too) rather than `players`."""
    return isinstance(domain, A.Name) and domain.name == "seats" and domain not in c.m.bindings


def from_fn(c, start, span, every: bool = False):
    """The players still in (``every``: all seats), in seat order from ``start`` on (``start`` first
    if it is in)."""
    base = None if every else out_base(c)

    def walk(s, L):
        first = start(s, L)
        if first is None:
            _runtime("`from`: the first player is none", span)
        seats = [(first + i) % s.n for i in range(s.n)]
        return seats if base is None else [p for p in seats if not s.vars[base + p]]

    return walk


def leave_effect(c, node):
    """`leave p` / `rejoin p`: set the player's flag; everything that reads `players` may change."""
    base = out_base(c)
    who = c.expr(node.player)[0]
    value, span = not node.back, node.span

    def leave(s, L):
        p = who(s, L)
        if p is None or not 0 <= p < s.n:
            _runtime(f"`{'rejoin' if node.back else 'leave'}`: {p} is not a player", span)
        s.vars[base + p] = value
        return -1

    return leave


# ---------------------------------------------------------------- picks and orders


def tuple_fn(c, e):
    """A key, kept as a list (so a saved state holds it as it is)."""
    fns = [c.expr(i)[0] for i in e.items]
    if all(getattr(f, "src", None) for f in fns):
        return c.gen("[" + ", ".join(c.src(f) for f in fns) + "]")
    return lambda s, L: [f(s, L) for f in fns]


def _domain(c, e):
    """(slot, domain fn, where fn or None, element type) of a binder with an optional `from`."""
    b = c._binding(getattr(e, "node", e), e.var)
    slot = c.slot(b)
    dfn, dt = c.expr(e.domain)
    elem = T.element(dt) or T.ANY
    c.env[b] = (c.local(slot), elem)
    dom = c.domain(dfn, dt, e.domain.span)
    if e.start is not None:
        dom = from_fn(c, c.expr(e.start)[0], e.start.span, every_seat(c, e.domain))
    where = c.expr(e.where)[0] if e.where is not None else None
    return slot, dom, where, elem


def values_fn(dom, slot, where, value):
    """A closure listing `value` for each element of `dom` (bound in local `slot`) that passes `where`, in order."""

    def values(s, L):
        out = []
        for v in dom(s, L):
            L[slot] = v
            if where is None or where(s, L):
                out.append(value(s, L))
        return out

    return values


def best_fn(c, e):
    slot, dom, where, elem = _domain(c, e)
    key = c.expr(e.key)[0]
    highest, span = e.highest, e.span

    def best(s, L):
        found, found_key = None, None
        for v in dom(s, L):
            L[slot] = v
            if where is not None and not where(s, L):
                continue
            k = key(s, L)
            try:
                better = found is None or (k > found_key if highest else k < found_key)
            except TypeError:
                _runtime(f"`best`: cannot compare the keys {found_key!r} and {k!r}", span)
            if better:
                found, found_key = v, k
        return found

    return best, elem


def pick_fn(c, e):
    """`first(each ...)`, `sorted(each ... by ...)`, `random(each ...)` over any domain."""
    slot, dom, where, elem = _domain(c, e)
    func, span = e.func, e.span
    from .rng import randbelow

    def select(s, L):
        out = []
        for v in dom(s, L):
            L[slot] = v
            if where is None or where(s, L):
                out.append(v)
        return out

    if func == "first":
        def first(s, L):
            for v in dom(s, L):
                L[slot] = v
                if where is None or where(s, L):
                    return v
            return None

        return first, elem
    if func == "sorted":
        key = c.expr(e.key)[0]
        highest = e.highest

        def sort(s, L):
            keyed = []
            for v in select(s, L):
                L[slot] = v
                keyed.append((key(s, L), len(keyed), v))
            try:
                keyed.sort(key=lambda t: t[0], reverse=highest)
            except TypeError:
                _runtime("`sorted`: the keys cannot be compared with each other", span)
            return [v for _, _, v in keyed]

        return sort, T.CARDS

    def random_(s, L):
        chosen = select(s, L)
        if not chosen:
            _runtime("`random(...)`: there is nothing to pick", span)
        return chosen[randbelow(s, len(chosen))]

    return random_, elem


def meld_fn(c, e):
    """`same`, `distinct`, `run` (each x in D by KEY): whether the keys of D's values are all equal, all
    different, or whole numbers that follow each other (sorted; with `lowest` / `highest`, in D's order,
    going up / down by one). None or one value is all three."""
    slot, dom, where, _ = _domain(c, e)
    key = c.expr(e.key)[0]
    func, ordered, step = e.func, e.ordered, -1 if e.highest else 1

    keys = values_fn(dom, slot, where, key)

    if func == "same":
        def same(s, L):
            ks = keys(s, L)
            return all(k == ks[0] for k in ks)

        return same, T.BOOL
    if func == "distinct":
        def distinct(s, L):
            ks = keys(s, L)
            return all(a != b for i, a in enumerate(ks) for b in ks[i + 1:])

        return distinct, T.BOOL

    def run(s, L):
        ks = keys(s, L)
        if not ordered:
            ks.sort()
            return all(b == a + 1 for a, b in itertools.pairwise(ks))
        return all(b == a + step for a, b in itertools.pairwise(ks))

    return run, T.BOOL


def random_of(c, fn, t, span):
    """`random(players)`, `random(1..6)`, `random({a, b})`: one value of a domain that is not cards."""
    from .rng import randbelow

    values = players_fn(c) if t == T.PLAYERS else fn

    def pick(s, L):
        options = values(s, L)
        if not options:
            _runtime("`random(...)`: there is nothing to pick", span)
        return options[randbelow(s, len(options))]

    return pick


# ---------------------------------------------------------------- moving many zones at once


def put_each_effect(c, node):
    """`put each A[x] into B[f(x)] for x in D`: take every source's cards first, then place them."""
    slot, dom, _, _ = _domain(c, _Binder(node))
    source, target = c.zone_ref(node.source), c.zone_ref(node.target)
    zones, span = c.zone_list, node.span

    def put_each(s, L):
        pairs = []
        for v in dom(s, L):
            L[slot] = v
            pairs.append((source(s, L), target(s, L)))
        taken = []
        for z, t in pairs:
            if zones[z].places or zones[t].places:
                _runtime("`put each` moves piles and rows, not tracks", span)
            taken.append((list(s.zones[z]), t))
            s.zones[z].clear()
        for cards, t in taken:
            s.zones[t].extend(cards)
            for card in cards:
                s.loc[card] = t
        return -1

    return put_each


class _Binder:
    """A `put each` seen as a binder: its variable and domain, without `from` or `where`."""

    def __init__(self, node):
        self.node, self.var, self.domain, self.start, self.where = node, node.var, node.domain, None, None

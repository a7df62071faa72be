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
``max`` and defines built from them; and an attribute of the top (or bottom)
card of a zone that is one zone, not one of a family (``top(pile).rank``),
which joins the key as its value, or as :data:`NO_CARD` while the zone is empty
(working the condition out then fails, and is left to the rule). Anything else
(a zone's cards, ``current``, the player count, a random pick, a quantifier)
makes it answer None.

A key is a tuple of parts: a variable slot (an int), or a card end
``(zone id, attribute, -1 for the top or 0 for the bottom)``; :func:`key_source`
writes it as Python.
"""

from __future__ import annotations

import re

from ..checker import types as T
from ..language import ast as A
from .layout import _product
from .slotref import put_for_slot

MAX_KEY = 8  # parts (variable slots, card ends) in a table's key at most


def condition_key(comp, expr, binding) -> tuple | None:
    """The key parts ``expr`` reads (variable slots, card ends), if it is a pure function of the value
    bound to ``binding`` (a move's parameter, a quantifier's variable, a `let`) and of them; else None."""
    found = reads(comp, expr)
    if found is None or not found[0] <= {binding}:
        return None
    return found[1]


def card_local(comp, expr):
    """(local slot, key parts) if ``expr`` is a pure function of one local that holds a card
    (a `let`, a loop's or a parameter's) and of those key parts; else None."""
    found = reads(comp, expr)
    if found is None or len(found[0]) != 1:
        return None
    (b,) = found[0]
    fn, t = comp.env.get(b, (None, None))
    slot = getattr(fn, "slot", None)
    if t != T.CARD or slot is None:
        return None
    return slot, found[1]


class _NoCard:
    """The key part of a card end while its zone is empty (no attribute has this value)."""

    def __repr__(self) -> str:
        return "NO_CARD"


NO_CARD = _NoCard()


def key_source(comp, key: tuple) -> str:
    """A key as Python: its parts' values in a tuple."""
    parts = []
    for part in key:
        if isinstance(part, int):
            parts.append(f"s.vars[{part}], ")
            continue
        zone, attr, end = part
        column = comp.shared_name(("attribute column", attr), lambda: comp.card_attrs[attr], f"a_{attr}_")
        none = comp.shared_name("no card", lambda: NO_CARD, "nocard")
        parts.append(f"({column}[s.zones[{zone}][{end}]] if s.zones[{zone}] else {none}), ")
    return "(" + "".join(parts) + ")"


def _card_end(comp, e):
    """``(zone id, attribute, end)`` for ``top(Z).attr`` / ``bottom(Z).attr`` of one zone Z, else None."""
    obj = e.obj
    m = comp.m
    if not (isinstance(obj, A.Call) and obj.name in ("top", "bottom") and obj.name not in m.defines
            and len(obj.args) == 1 and e.name not in ("kind", "id") and e.name in comp.card_attrs):
        return None
    arg = obj.args[0]
    if not (isinstance(arg, A.Name) and arg.name in m.zones and arg not in m.bindings):
        return None
    fn, t = comp.expr(arg)
    if t != T.ZONE or not getattr(fn, "constant", False):
        return None
    zone = fn(None, None)
    if type(zone) is not int:
        return None
    return zone, e.name, -1 if obj.name == "top" else 0


def reads(comp, expr):
    """(the bindings of locals, the key parts) a pure expression reads, or None (see above)."""
    m = comp.m
    slots: set = set()
    ends: set = set()
    outside: set = set()

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
                if b not in bound:
                    outside.add(b)
                return True
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
            end = _card_end(comp, e)
            if end is not None:
                ends.add(end)
                return True
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

    if expr is None or not walk(expr, frozenset(), frozenset()):
        return None
    if len(slots) + len(ends) > MAX_KEY:
        return None
    return frozenset(outside), tuple(sorted(slots)) + tuple(sorted(ends))


MAX_TABLES = 4096  # rows of one table kept; past that the table starts anew
EAGER_ROWS = 256  # rows worked out for every card at once, at most (then card by card, when asked)


class CardTable:
    """The values of a pure condition of one card (put in local ``slot``), one row per combination
    of the values of the variables it reads; a row holds None for a card not yet asked about."""

    def __init__(self, cond, slot: int, card_count: int):
        self.cond, self.slot, self.card_count = cond, slot, card_count
        self.rows: dict = {}
        self.twins = twins(cond, slot, card_count)

    def row(self, key) -> list:
        """A new row for ``key`` (the values of the variables read)."""
        if len(self.rows) >= MAX_TABLES:
            self.rows.clear()
        row = self.rows[key] = [None] * self.card_count
        return row

    def move_row(self, key, s, L, moves) -> list:
        """A row for ``key`` worked out for every card at once: the card's move (from ``moves``) where
        the condition holds, else False; None where working it out failed (a card the condition does
        not fit, which is then worked out again, and fails at its rule, if a move offers it). A row
        with such a None is a :class:`PartialRow`."""
        if len(self.rows) >= MAX_TABLES:
            self.rows.clear()
        if len(self.rows) >= EAGER_ROWS:  # many different keys: work cards out only when asked
            row = self.rows[key] = PartialRow([None] * self.card_count)
            return row
        cond, slot, twins = self.cond, self.slot, self.twins
        row: list = []
        partial = False
        for c in range(self.card_count):
            first = twins[c][0] if twins is not None else c
            if first < c:  # a card like one worked out already: the same answer
                row.append(row[first] and moves[c])
                continue
            L[slot] = c
            try:
                row.append(moves[c] if cond(s, L) else False)
            except Exception:  # noqa: BLE001 - any failure: left to the move that offers the card
                row.append(None)
                partial = True
        if partial:
            row = PartialRow(row)
        self.rows[key] = row
        return row

    def fill(self, row: list, s, L, c) -> bool:
        """The condition for card ``c``, worked out (``L[slot]`` holds ``c`` while it runs) and kept."""
        L[self.slot] = c
        value = bool(self.cond(s, L))
        if c is not None:
            if self.twins is None:
                row[c] = value
            else:
                for t in self.twins[c]:
                    row[t] = value
        return value


class PartialRow(list):
    """A row of a table in which some cards could not be worked out in advance."""


_COLUMN_AT = r"_a_\w+?_\d+\[L\[{}\]\]"


def twins(cond, slot: int, card_count: int) -> list | None:
    """Per card, the cards (itself first among them, in order) the condition cannot tell from it: where its
    text reads the card in ``L[slot]`` only through card attribute columns (``_a_rank_7[L[slot]]``, fixed
    lists of one value per card), a card with the same values in those columns gets the same answer, or
    the same error. None where that is not known (the card read otherwise, or the locals handed on)."""
    text = getattr(cond, "src", None)
    names = getattr(cond, "__globals__", None)
    if text is None or names is None:
        return None
    at = _COLUMN_AT.format(slot)
    rest = re.sub(at, "", text)
    if f"L[{slot}]" in rest or "s.locals" in rest or re.search(r"\bL\b(?!\[)", rest):
        return None
    columns = [names.get(m.split("[", 1)[0]) for m in sorted(set(re.findall(at, text)))]
    if any(not isinstance(col, (list, tuple)) or len(col) != card_count for col in columns):
        return None
    groups: dict = {}
    for c in range(card_count):
        groups.setdefault(tuple(col[c] for col in columns), []).append(c)
    out: list = [None] * card_count
    for group in groups.values():
        for c in group:
            out[c] = tuple(group)
    return out


def tabled_aggregate(comp, func: str, slot: int, dom, where, key: tuple):
    """``any/all/count/cards(each c in DOMAIN where COND)`` with COND a pure function of the card and
    the parts of ``key``: one generated function that looks COND up in a :class:`CardTable`. Like the
    plain form, it leaves each card it looks at in ``L[slot]``. The function's ``aggregate`` says what
    it asks: (func, slot, the domain's text, the condition's text or None, the key's text), for a
    listing of moves that has just asked the same (listed.py)."""
    table = comp.name_for(CardTable(where, slot, comp.card_total), "tab")
    key = key_source(comp, key)
    dom = comp.src(dom)
    lines = [f"_key = {key}",
             f"_row = {table}.rows.get(_key)",
             "if _row is None:",
             f"    _row = {table}.row(_key)",
             f"_fill = {table}.fill"]
    if func != "cards":  # the card in a Python local while the loop runs (fill puts it in L[slot] too)
        test = "(_row[_each] if _row[_each] is not None else _fill(_row, s, L, _each))"
        fn = comp.gen_def(lines + each_loop(func, slot, dom, test))
    else:
        test = f"(_row[L[{slot}]] if _row[L[{slot}]] is not None else _fill(_row, s, L, L[{slot}]))"
        lines += ["_out = []", f"for L[{slot}] in {dom}:", f"    if {test}:", f"        _out.append(L[{slot}])",
                  "return _out"]
        fn = comp.gen_def(lines)
    return fn




def local_test(test: str, slot: int) -> str | None:
    """``test`` with ``L[slot]`` read as the Python local ``_each``, if it uses the locals only as
    ``L[n]`` read in place (L handed to no function); else None."""
    if "s.locals" in test or "_each" in test:
        return None
    text = put_for_slot(test, slot, "_each")
    if re.search(r"\bL\b(?!\[)", text) or re.search(r"\bfor\s*L\[" + str(slot) + r"\]", test):
        return None
    return text


def _one_empty(func: str, dom: str, test: str):
    """The match of "some player's zone is empty" (``any(each p in players where empty(zone[p]))``), its
    first zone in group 1; else None."""
    if func != "any" or dom != "range(s.n)":
        return None
    return re.fullmatch(r"\(not s\.zones\[\((\d+) \+ _each\)\]\)", test)


def asked_in_place(func: str, slot: int, dom: str, test: str, call: str) -> str | None:
    """For "some player's zone is empty", what a caller may write instead of ``call`` (the function of
    :func:`each_loop`): while every player's zone holds a card and ``L[slot]`` holds the last player
    already, the function would answer false and leave the locals as they are, so the caller answers
    that without the call (most turns of a round); else it calls. None for other quantifiers."""
    one_empty = _one_empty(func, dom, test)
    if not one_empty:
        return None
    first = one_empty.group(1)
    return f"(False if L[{slot}] == s.n - 1 and all(s.zones[{first}:{first} + s.n]) else {call})"


def each_loop(func: str, slot: int, dom: str, test: str, before: list = ()) -> list:
    """The lines of ``any``/``all``/``count``/``cards`` over ``dom`` where ``test`` (the element read as
    ``_each``): the element is kept in a Python local while the loop runs and left in ``L[slot]`` as a
    loop over ``L[slot]`` would leave it (the element that decided, else the last; unchanged if none).
    ``before``: lines run before the loop (the test's parts asked once, hoist.loop_invariants)."""
    put = f"L[{slot}] = _each"
    lines = [f"_dom = {dom}", f"_each = L[{slot}]", *before, "for _each in _dom:"]
    one_empty = _one_empty(func, dom, test)
    if one_empty:
        # "some player's zone is empty" (the end of many a round): all of them at once, in C; when
        # none is, the loop would have ended on the last player
        first = one_empty.group(1)
        lines = ["_n = s.n",
                 f"if all(s.zones[{first}:{first} + _n]):",
                 "    if _n:",
                 f"        L[{slot}] = _n - 1",
                 "    return False"] + lines
    if func == "any":
        return lines + [f"    if {test}:", f"        {put}", "        return True", put, "return False"]
    if func == "all":
        return lines + [f"    if not {test}:", f"        {put}", "        return False", put, "return True"]
    if func == "cards":
        return ["_out = []"] + lines + [f"    if {test}:", "        _out.append(_each)", put, "return _out"]
    return ["_n = 0"] + lines + [f"    if {test}:", "        _n += 1", put, "return _n"]

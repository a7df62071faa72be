"""Which parts of a move's condition can be tested before its inner loops: for a move of several
arguments (``move m(c in hand, k in colour) where k != wild and c.colour == wild and ...``) the
generated listing loops over every pair of values; a part that reads only the outer arguments and
can neither fail nor change anything is tested once per outer value instead of once per pair.

Only a leading run of such parts is taken out of the condition (the parts before a hoisted one
are all of that kind), and only where every loop it then skips goes over a constant domain, so
nothing that could raise or change the state is left out or run more: the moves listed, their
order and the errors met stay the same. A part qualifies when it is built only of ``L[n]``,
constants, a card attribute's column (``_a_<name>_<n>[L[n]]``) indexed by a card argument,
``==``/``!=``, ``not``, ``and``/``or``; anything else (a call, an ordering comparison that may meet
``None``) keeps its place.
"""

from __future__ import annotations

import ast
import re

from .purity import CardTable

_COLUMN = re.compile(r"_a_\w+_\d+")


def _flat(node) -> list:
    """The parts of nested ``and``s, in order."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        out = []
        for v in node.values:
            out.extend(_flat(v))
        return out
    return [node]


def _slot(node):
    """n for ``L[n]``, else None."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "L" \
            and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int:
        return node.slice.value
    return None


def _reads(node, card_slots: frozenset, columns) -> set | None:
    """The slots of L a part reads, or None if it may fail or do anything but read."""
    if isinstance(node, ast.Constant):
        return set() if node.value is None or type(node.value) in (int, bool, str) else None
    slot = _slot(node)
    if slot is not None:
        return {slot}
    if isinstance(node, ast.Subscript):  # a card attribute's column at a card argument
        inner = _slot(node.slice)
        if isinstance(node.value, ast.Name) and _COLUMN.fullmatch(node.value.id) and inner in card_slots \
                and columns(node.value.id):
            return {inner}
        return None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _reads(node.operand, card_slots, columns)
    if isinstance(node, ast.BoolOp):
        parts = [_reads(v, card_slots, columns) for v in node.values]
        return None if any(p is None for p in parts) else set().union(*parts)
    if isinstance(node, ast.Compare) and all(isinstance(op, (ast.Eq, ast.NotEq)) for op in node.ops):
        parts = [_reads(v, card_slots, columns) for v in [node.left, *node.comparators]]
        return None if any(p is None for p in parts) else set().union(*parts)
    return None


def split(cond: str, slots: list, card_slots: frozenset, constant: list, columns) -> tuple:
    """``(tests, rest)``: ``tests[k]`` the parts of ``cond`` to test right inside the loop over
    argument k (slot ``slots[k]``), ``rest`` the condition left for the innermost loop (None: none).

    ``constant[k]``: whether argument k's domain is a constant (a loop that can be skipped);
    ``columns(name)``: whether a namespace name is a card attribute's column (one value per card)."""
    tests: list = [[] for _ in slots]
    try:
        tree = ast.parse(cond, mode="eval").body
    except SyntaxError:
        return tests, cond
    parts = _flat(tree)
    texts = [ast.get_source_segment(cond, p) for p in parts]
    if any(t is None for t in texts) or len(parts) < 2 and len(slots) < 2:
        return tests, cond
    level_of = {slot: k for k, slot in enumerate(slots)}
    last = len(slots) - 1
    rest = []
    leading = True
    for part, text in zip(parts, texts):
        reads = _reads(part, card_slots, columns) if leading else None
        if reads is None:
            leading = False
            rest.append(text)
            continue
        level = max((level_of.get(s, last) for s in reads), default=0)  # another slot: left in place
        if level < last and all(constant[level + 1:]):
            tests[level].append(f"({text})")
        else:
            rest.append(text)
    if not rest:
        return tests, None
    if len(rest) == len(parts):
        return tests, cond
    return tests, " and ".join(f"({t})" for t in rest)


# ---- a move of one argument over constant values (``move name_colour(k in colour) where k != wild and ...``)

_SAFE_CALLS = frozenset({"len", "all", "any", "list", "range", "min", "max", "abs", "sum", "int", "_fill"})


def constant_filter(cond: str, slot: int, values: tuple, ns: dict) -> tuple | None:
    """``(kept, rest)`` when ``cond`` is a leading run of parts that read nothing but the argument
    (``L[slot]``) and constants, followed by parts (``rest``, or None) that never read the argument and
    change nothing but other locals (:func:`quiet`). ``kept``: the values for which the leading parts
    hold, worked out here. The listing is then ``kept`` where ``rest`` holds (asked once, and only if
    ``kept`` is not empty, as the loop would ask it for each of them, getting the same answer), the
    same moves in the same order; else None."""
    try:
        tree = ast.parse(cond, mode="eval").body
    except SyntaxError:
        return None
    parts = _flat(tree)
    texts = [ast.get_source_segment(cond, p) for p in parts]
    if any(t is None for t in texts):
        return None
    lead = 0
    while lead < len(parts):
        read = _reads(parts[lead], frozenset(), lambda name: False)
        if read is None or not read <= {slot}:
            break
        lead += 1
    rest = " and ".join(f"({t})" for t in texts[lead:]) or None
    if rest is not None and not quiet(rest, slot, ns):
        return None
    kept = []
    for v in values:
        if all(eval(t, {"__builtins__": {}}, {"L": {slot: v}}) for t in texts[:lead]):  # noqa: S307 - built of L[n], constants, ==, !=, not, and, or (_reads)
            kept.append(v)
    return tuple(kept), rest


def quiet(text: str, slot: int, ns: dict, seen: frozenset = frozenset()) -> bool:
    """Whether generated code ``text`` never reads ``L[slot]`` and changes nothing but other locals:
    it calls only built-ins that read, helpers not handed the state or the locals (the checks that
    raise a finding), generated functions of which the same holds (their ``definition``), the
    tables of pure card conditions (purity.CardTable, which read their own card's slot only), and
    ``append`` of a list it made itself."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return False
    fresh = {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) and isinstance(n.value, ast.List)
             for t in n.targets if isinstance(t, ast.Name)}  # a list the code makes itself (`_out = []`)
    for node in ast.walk(tree):
        if _slot(node) == slot:
            return False
        if isinstance(node, (ast.Lambda, ast.NamedExpr, ast.Global, ast.Nonlocal)):
            return False
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "append" and getattr(func.value, "id", None) in fresh:
            continue
        if isinstance(func, ast.Attribute):  # a table's rows and fill
            base = func.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if not (isinstance(base, ast.Name) and isinstance(ns.get(base.id), CardTable)):
                return False
            continue
        if not isinstance(func, ast.Name):
            return False
        value = ns.get(func.id)
        if value is None:
            if func.id not in _SAFE_CALLS:
                return False
            continue
        if isinstance(value, CardTable):
            continue
        definition = getattr(value, "definition", None)
        if definition is not None:
            if func.id not in seen and not quiet(definition, slot, ns, seen | {func.id}):
                return False
            continue
        handed = [a for a in [*node.args, *(k.value for k in node.keywords)]
                  if isinstance(a, ast.Name) and a.id in ("s", "L")]
        if handed or not callable(value):
            return False
    return True


# ---- a quantifier's test: its parts that do not read the element, asked once per loop

MIN_PART = 12  # expression nodes in such a part at least (a smaller one costs about as little to ask again)
_NOT_READS = (ast.NamedExpr, ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp,
              ast.Await, ast.Yield, ast.YieldFrom)


def loop_invariants(test: str, ns: dict) -> tuple:
    """``(before, test)`` for the test of a quantifier's loop (purity.each_loop: the element in the
    Python local ``_each``, the locals read only as ``L[n]``): each largest part that does not read the
    element and only reads (the state, ``L[n]``, tables, constants, built-ins that read, and helpers not
    handed the state or the locals: the checks that raise a finding, as :func:`quiet` allows) is asked
    once per loop. It is kept in a Python local the first time the test asks it
    (``(_v0 if _v0 is not _u else (_v0 := PART))``): asked at the same moment as before, with the same
    error if it fails, and the same value afterwards, as the loop changes nothing but ``_each``.
    ``before``: the lines setting up those locals, run before the loop; ``([], test)`` if none."""
    if not test.isascii() or ":=" in test:
        return [], test
    try:
        tree = ast.parse(test, mode="eval").body
    except SyntaxError:
        return [], test
    slots = {id(n.value) for n in ast.walk(tree) if _slot(n) is not None}
    if any(isinstance(n, ast.Name) and n.id == "L" and id(n) not in slots for n in ast.walk(tree)):
        return [], test  # the locals handed on: what is called may write a slot a part reads
    found: list = []

    def visit(node) -> None:
        if _only_reads(node, ns) and sum(isinstance(n, ast.expr) for n in ast.walk(node)) >= MIN_PART:
            found.append(node)
            return
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                visit(child)

    visit(tree)
    if not found:
        return [], test
    out = test
    for k, node in sorted(enumerate(found), key=lambda kn: -kn[1].col_offset):
        part = out[node.col_offset:node.end_col_offset]
        out = f"{out[:node.col_offset]}(_v{k} if _v{k} is not _u else (_v{k} := {part})){out[node.end_col_offset:]}"
    return ["_u = []", " = ".join(f"_v{k}" for k in range(len(found))) + " = _u"], out


def _pure_call(node, pure) -> bool:
    """Whether ``node`` is ``f(s, L)`` of a generated function named in ``pure`` (see shared_parts)."""
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in pure
            and not node.keywords and [getattr(a, "id", None) for a in node.args] == ["s", "L"])


def loop_calls(test: str, slot: int, ns: dict, prefix: str = "_v") -> tuple:
    """``(before, test)`` for the test of a quantifier's plain loop (``for L[slot] in ...:``, the element
    in the locals): each call ``f(s, L)`` of a generated function that never reads ``L[slot]`` and
    changes nothing but other locals (:func:`quiet`; a define's count ``held(p, r)`` inside ``any(each n
    in 3..4 where ... n <= held(p, r) ...)``) is asked once per loop, the first time the test asks
    it, and read back after that, as :func:`loop_invariants` does (``(_v0 if _v0 is not _u else (_v0 :=
    f(s, L)))``). What else the test asks cannot change what such a call reads: the locals a generated
    function writes are the slots of its own loops and of the defines it writes out, and a define
    cannot write itself out. The loop leaves the call's own loop slots as its first call left them,
    which is also what a later call would leave: the same values read give the same run. The same holds
    for a listed move's comprehension (``[... for _x7 in range(s.n) if ...]``), where the locals are
    named with ``prefix`` so that each listing has its own. ``([], test)`` if no call is taken."""
    if not test.isascii():
        return [], test
    try:
        tree = ast.parse(test, mode="eval").body
    except SyntaxError:
        return [], test
    inner = {id(n) for c in ast.walk(tree) if isinstance(c, _NOT_READS) for n in ast.walk(c)}
    names: dict = {}  # function name -> its local's number
    places = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and not n.keywords and id(n) not in inner
                and [getattr(a, "id", None) for a in n.args] == ["s", "L"]):
            continue
        definition = getattr(ns.get(n.func.id), "definition", None)
        if definition is None or not quiet(definition, slot, ns, frozenset({n.func.id})):
            continue
        names.setdefault(n.func.id, len(names))
        places.append(n)
    if not places:
        return [], test
    out = test
    for n in sorted(places, key=lambda n: -n.col_offset):
        k = names[n.func.id]
        v = f"{prefix}{k}"
        out = f"{out[:n.col_offset]}({v} if {v} is not _u else ({v} := {n.func.id}(s, L))){out[n.end_col_offset:]}"
    return ["_u = []", " = ".join(f"{prefix}{k}" for k in range(len(names))) + " = _u"], out


def guarded_tests(cond: str, slot: int, ns: dict) -> tuple:
    """``(lead, rest)`` for the condition of a move of two arguments whose inner argument (``L[slot]``)
    ranges over values that may be none: the leading parts of ``cond`` that never read ``L[slot]`` and
    change nothing but other locals (:func:`quiet`) can be asked once per outer value, right after its
    inner values are known to be some. The first inner value would have asked them first, reading the
    same; asked again for the later values they read the same again (as :func:`loop_calls` argues) and
    give the same answer. ``(None, cond)`` if the first part reads the inner argument."""
    try:
        tree = ast.parse(cond, mode="eval").body
    except SyntaxError:
        return None, cond
    texts = [ast.get_source_segment(cond, p) for p in _flat(tree)]
    if any(t is None for t in texts):
        return None, cond
    k = 0
    while k < len(texts) and quiet(texts[k], slot, ns):
        k += 1
    if k == 0:
        return None, cond
    return " and ".join(f"({t})" for t in texts[:k]), " and ".join(f"({t})" for t in texts[k:]) or None


def _only_reads(node, ns: dict, element: bool = True, pure=frozenset(), made=frozenset()) -> bool:
    """Whether a part of a test reads neither the element ``_each`` (if ``element``) nor the locals but as
    ``L[n]`` (or handed to a function of ``pure``), and does nothing but read (see loop_invariants); a
    ``:=`` is allowed only into a name of ``made`` (shared_parts' own)."""
    parts = list(ast.walk(node))
    slots = {id(n.value) for n in parts if _slot(n) is not None}
    handed = {id(a) for n in parts if _pure_call(n, pure) for a in n.args}
    for n in parts:
        if isinstance(n, ast.NamedExpr) and n.target.id in made:
            continue
        if isinstance(n, _NOT_READS):
            return False
        if id(n) in handed:
            continue
        if isinstance(n, ast.Name) and (element and n.id == "_each" or n.id == "L" and id(n) not in slots):
            return False
        if isinstance(n, ast.Attribute) and not (isinstance(n.value, ast.Name) and n.value.id == "s"):
            return False
        if isinstance(n, ast.Call) and not _pure_call(n, pure):
            func = n.func
            if not isinstance(func, ast.Name) or n.keywords:
                return False
            if any(isinstance(a, ast.Name) and a.id in ("s", "L") for a in n.args):
                return False
            value = ns.get(func.id)
            if value is None:
                if func.id not in _SAFE_CALLS or func.id == "_fill":
                    return False
            elif not callable(value) or isinstance(value, CardTable) or hasattr(value, "definition"):
                return False
    return True


# ---- a test that asks the same part more than once (trigger conditions sharing a define's value)

MIN_SHARED = 4  # operations in such a part at least (_work)
# the nodes Python asks in the order of their children (a dict's keys and values interleave: not here)
_IN_ORDER = (ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare, ast.IfExp, ast.Subscript, ast.Attribute,
             ast.Call, ast.Name, ast.Constant, ast.Tuple, ast.List, ast.Slice, ast.Starred, ast.operator,
             ast.unaryop, ast.boolop, ast.cmpop, ast.expr_context, ast.NamedExpr)


def shared_parts(test: str, ns: dict, prefix: str = "_same", pure=frozenset()) -> str:
    """``test`` with each part that it asks more than once worked out once: kept in a Python local
    (``(_same0 := PART)``) where Python first asks it, and read from it where it is asked again, when
    every way to the later place goes through the first (:func:`_before`: after it in an ``and``/``or``
    chain, not in the other branch of an ``if``). Only parts that only read (as :func:`loop_invariants`
    takes them), in a test that writes nothing: each is asked at the same moment as before, with the same
    error if it fails, and gives the same value again.

    ``pure``: generated functions that may be called with the state and the locals, ``f(s, L)``, in the
    test and its parts: the code of a define's value (compiler._player_define), which writes only the
    slots of its own loops and arguments, read by nothing outside it, and into a copy of the locals that
    is thrown away after the value. Such a call counts as dear (MIN_SHARED).

    A part inside the first place of a bigger one kept is looked for again, in rounds, until none is
    left: in ``(0 if X == 0 else 2 * X) * (0 if X == 0 else 2 * X)`` the product's factor is kept,
    then ``X`` inside it."""
    made: set = set()
    while True:
        out = _share(test, ns, f"{prefix}{len(made)}_" if made else prefix, pure, frozenset(made))
        if out == test:
            return out
        made |= {n.target.id for n in ast.walk(ast.parse(out, mode="eval")) if isinstance(n, ast.NamedExpr)
                 and n.target.id.startswith(prefix)}
        test = out


def _share(test: str, ns: dict, prefix: str, pure, made) -> str:
    """One round of shared_parts: the parts kept do not overlap; ``made``: the names kept before."""
    if not test.isascii():
        return test
    try:
        tree = ast.parse(test, mode="eval").body
    except SyntaxError:
        return test
    if not all(isinstance(n, _IN_ORDER) for n in ast.walk(tree)) or not _only_reads(tree, ns, False, pure, made):
        return test
    asked: list = []  # (part, its path from the top: (parent, place among its children, as asked)) in order

    def visit(node, path: tuple) -> None:
        asked.append((node, path))
        if isinstance(node, ast.IfExp):
            children = [node.test, node.body, node.orelse]
        elif isinstance(node, ast.Compare):
            children = [node.left, *node.comparators]
        else:
            children = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)]
        for k, child in enumerate(children):
            visit(child, path + ((node, k),))

    visit(tree, ())
    places: dict = {}
    for node, path in asked:
        if _work(node, pure) >= MIN_SHARED:
            places.setdefault(ast.dump(node), []).append((node, path))
    taken: list = []  # (start, end) of the places chosen
    chosen: list = []
    for found in sorted(places.values(), key=lambda f: -(f[0][0].end_col_offset - f[0][0].col_offset)):
        spans = [(n.col_offset, n.end_col_offset) for n, _ in found]
        first = found[0][1]
        if len(found) < 2 or not all(_before(first, path) for _, path in found[1:]) \
                or any(a < e and s < b for a, b in spans for s, e in taken):
            continue
        taken.extend(spans)
        chosen.append(spans)
    edits = []
    for k, spans in enumerate(chosen):
        name = f"{prefix}{k}"
        edits.append((spans[0], f"({name} := {test[spans[0][0]:spans[0][1]]})"))
        edits.extend((span, name) for span in spans[1:])
    out = test
    for (a, b), text in sorted(edits, key=lambda e: -e[0][0]):
        out = out[:a] + text + out[b:]
    return out


def _work(node, pure=frozenset()) -> int:
    """The operations Python does to ask a part: its subscripts, attributes, calls and operators (an
    operation on two constants is done when compiling); a call of a function of ``pure`` counts as
    MIN_SHARED (it runs a loop, or a define's value)."""
    n = 0
    for part in ast.walk(node):
        if _pure_call(part, pure):
            n += MIN_SHARED
        elif isinstance(part, ast.BinOp):
            n += not (isinstance(part.left, ast.Constant) and isinstance(part.right, ast.Constant))
        elif isinstance(part, (ast.Subscript, ast.Attribute, ast.Call, ast.UnaryOp, ast.Compare, ast.BoolOp,
                               ast.IfExp)):
            n += 1
    return n


def _maybe(parent, k: int) -> bool:
    """Whether child ``k`` of ``parent`` is asked only on some ways through it."""
    if isinstance(parent, (ast.BoolOp, ast.IfExp)):
        return k > 0
    return isinstance(parent, ast.Compare) and k > 1


def _before(first: tuple, later: tuple) -> bool:
    """Whether every way that asks the part at path ``later`` has asked the one at ``first`` before."""
    d = 0
    while d < min(len(first), len(later)) and first[d] == later[d]:
        d += 1
    if d == len(first) or d == len(later):
        return False  # one inside the other
    parent, a = first[d]
    b = later[d][1]
    if b <= a or isinstance(parent, ast.IfExp) and a > 0:
        return False
    return not any(_maybe(p, k) for p, k in first[d + 1:])

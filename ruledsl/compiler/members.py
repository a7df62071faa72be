"""Compiling growing zone families: `zone meld[player, *]`, `new`, `remove` and `members(...)`.

A growing family keeps room for its most members (``max_members``, 32 unless
the rules say), but a member exists only once `new` has opened it. Which
members exist is kept in a hidden boolean variable family ``#F`` with the
family's own indices, so saving, cloning, comparing and replaying a state carry
it like any variable. Zones and variables declared inside the family's braces
(``F[...].m``) are families ``F.m`` with the same indices and the same flags.

Every read or write of a member checks its flag: a member that does not exist
is a RulesRuntimeError at the rule's position. `new` opens the lowest free
number (so numbers stay small and a closed member's number is used again);
opening more than the most is a RulesRuntimeError too, never unbounded growth.
"""

from __future__ import annotations

import re
from itertools import compress

from ..language.errors import RulesRuntimeError


def _runtime(message, span):
    raise RulesRuntimeError(message, span)


def _prefix_text(s, dims, sizes, flat_prefix, family) -> str:
    """`meld[0]`: the family and the fixed part of a member's index, for messages."""
    parts = []
    for dim, size in reversed(list(zip(dims[:-1], sizes[:-1]))):
        flat_prefix, i = divmod(flat_prefix, size)
        parts.append(str(i) if dim[0] != "range" else str(dim[1] + i))
    parts.reverse()
    return f"{family}[{', '.join(parts)}]" if parts else family


def family_of(name: str) -> str:
    """The zone family a stored family belongs to: `meld.pot` and `#meld` belong to `meld`."""
    return name.lstrip("#").split(".")[0]


def grown_index(c, dims, sizes, fns, name, span):
    """An index closure for a family whose last index grows: checks that the member exists."""
    flags = c.var_families[c.m.grown[name]][0]
    family = family_of(name)
    most = sizes[-1]
    last = fns[-1]
    known = getattr(last, "member_of", None)
    if known is not None and known == (family, tuple(getattr(f, "src", None) for f in fns[:-1])):
        return _existing_member(c, dims, sizes, known[1], last.src, most)
    prefix = c.index_checks(dims[:-1], sizes[:-1], fns[:-1], name, span)
    texts = [_source(c, f) for f in (prefix, last)]
    if None not in texts:
        return _member_source(c, texts, flags, most, dims, sizes, family, span)

    def member(s, L):
        p = prefix(s, L)
        v = last(s, L)
        if v is None:
            _runtime(f"`{family}[...]`: the member number is none", span)
        if not (type(v) is int and 1 <= v <= most and s.vars[flags + p * most + v - 1]):
            where = _prefix_text(s, dims, sizes, p, family)
            _runtime(f"{where} has no member {v} (members: {_listing(s, flags + p * most, most)})", span)
        return p * most + v - 1

    return member


def members_read(domain, slot: int):
    """For a quantifier or a move argument over ``members(F[prefix])`` (``domain``, its compiled
    function), what :func:`grown_index` needs to know that ``F[prefix, i]`` read in its test is a
    member that exists: (the family, the prefix's parts as source). An expression changes nothing, so
    while the test is asked every value ``i`` takes is an open member of ``F[prefix]`` (``members``
    checked the prefix when it listed them), provided the prefix is read alike there and in the test:
    each part plain source that does not read the slot of ``i``. None otherwise."""
    reads = getattr(domain, "member_reads", None)
    if reads is None or any(t is None or ":=" in t or f"L[{slot}]" in t for t in reads[1]):
        return None
    return reads


def _existing_member(c, dims, sizes, parts: tuple, number: str, most: int):
    """The index of a member known to exist (see :func:`members_read`): no check left to make."""
    flat = ""
    for (dim, size), part in zip(zip(dims[:-1], sizes[:-1]), parts):
        low = dim[1] if dim[0] == "range" else 0
        part = f"({part} - {low})" if low else f"({part})"
        flat = part if not flat else f"({flat}) * {size} + {part}"
    first = f"{flat} * {most} + " if flat else ""
    return c.gen(f"({first}{number} - 1)")


def _source(c, fn) -> str | None:
    """``fn`` as Python source, if it has some (generated code, a slot, a constant); else None."""
    if getattr(fn, "src", None) is None and not getattr(fn, "constant", False):
        return None
    text = c.src(fn)
    return None if ":=" in text else text


def _member_source(c, texts: list, flags: int, most: int, dims, sizes, family: str, span):
    """The index of a member as generated code, its parts' source written in place: the checks of
    ``member`` (grown_index) with no closure called per part, and on a bad member the same finding
    from a helper. A prefix and a number that cannot fail (a slot, a constant) are read in place, in
    one expression; otherwise each is worked out once, prefix first, in a function of its own."""
    def bad(s, p, v):
        if v is None:
            _runtime(f"`{family}[...]`: the member number is none", span)
        where = _prefix_text(s, dims, sizes, p, family)
        _runtime(f"{where} has no member {v} (members: {_listing(s, flags + p * most, most)})", span)

    helper = c.name_for(bad, "bad")
    prefix, number = texts
    if all("(" not in t and ":" not in t for t in texts):
        # each part read again where it is used (a slot, a constant) costs less than a function called
        # for the index; a part with a check of its own (a player's number) would be asked three times
        zero = prefix == "0"
        prefix, number = (t if re.fullmatch(r"L\[\d+\]|[A-Za-z_]\w*", t) else f"({t})" for t in texts)
        flat = f"{number} - 1" if zero else f"{prefix} * {most} + {number} - 1"
        return c.gen(f"({flat} if {number}.__class__ is int and 1 <= {number} <= {most} "
                     f"and s.vars[{flags} + {flat}] else {helper}(s, {prefix}, {number}))")
    return c.gen_def([f"_p = {prefix}",
                      f"_v = {number}",
                      f"if _v.__class__ is int and 1 <= _v <= {most} and s.vars[{flags} + _p * {most} + _v - 1]:",
                      f"    return _p * {most} + _v - 1",
                      f"return {helper}(s, _p, _v)"])


def _listing(s, first, most) -> str:
    numbers = [str(k + 1) for k in range(most) if s.vars[first + k]]
    return ", ".join(numbers) if numbers else "none yet"


def members_domain(c, e):
    """`members(F[prefix])`: the numbers of the members that exist, lowest first."""
    arg = e.args[0]
    name = arg.name if hasattr(arg, "name") and not hasattr(arg, "indices") else arg.obj.name
    indices = getattr(arg, "indices", ())
    flags, sizes, dims = c.var_families[c.m.grown[name]]
    most = sizes[-1]
    parts = [c.expr(i)[0] for i in indices]
    prefix = c.index_checks(dims[:-1], sizes[:-1], parts, name, e.span)

    src = c.src(prefix) if getattr(prefix, "src", None) is not None or getattr(prefix, "constant", False) else None
    if src is not None and ":=" not in src:
        # generated code: the open flags of the members, one slice of the variables, read in C
        numbers = c.shared_name(("members", most), lambda: range(1, most + 1), "k")
        pick = c.shared_name("compress", lambda: compress, "compress")
        members = c.gen_def([f"_first = {flags} + {src} * {most}",
                             f"return [*{pick}({numbers}, s.vars[_first:_first + {most}])]"])
    else:
        def members(s, L):
            first = flags + prefix(s, L) * most
            vs = s.vars
            return [k + 1 for k in range(most) if vs[first + k]]

    members.most = most  # at most this many values (the work bound, work.py)
    members.member_reads = (family_of(name), tuple(getattr(f, "src", None) for f in parts))  # members_read
    return members


def new_member(c, st, slot):
    """`new F[prefix] as i`: open the lowest free member, give its variables their first values."""
    name = st.zone.name
    flags, sizes, dims = c.var_families[c.m.grown[name]]
    most = sizes[-1]
    prefix = c.index_checks(dims[:-1], sizes[:-1], [c.expr(i)[0] for i in st.zone.indices], name, st.span)
    inits = []
    zone = c.m.zones[name]
    for member, what in zone.members.items():
        if what == "var":
            base = c.var_families[f"{name}.{member}"][0]
            inits.append((base, c.var_init_fn(c.m.vars[f"{name}.{member}"])))
    bit = c.bits[name]
    span = st.span

    def open_member(s, L):
        p = prefix(s, L)
        first = flags + p * most
        vs = s.vars
        for k in range(most):
            if not vs[first + k]:
                break
        else:
            where = _prefix_text(s, dims, sizes, p, name)
            _runtime(f"`new {where}`: {where} already has {most} members, the most it may have "
                     f"(raise it with max_members(N) on zone `{name}`)", span)
        vs[first + k] = True
        for base, fn in inits:
            vs[base + p * most + k] = fn(s, L)
        L[slot] = k + 1
        return bit

    return open_member


def remove_member(c, st):
    """`remove F[prefix, i]`: close an empty member; its number is free for the next `new`."""
    name = st.zone.name
    idx = c.zone_index(name, st.zone.indices, st.span)
    zone_base = c.zone_families[name][0]
    flags = c.var_families[c.m.grown[name]][0]
    families = [c.zone_families[f"{name}.{m}"][0] for m, what in c.m.zones[name].members.items() if what == "zone"]
    values = [c.var_families[f"{name}.{m}"][0] for m, what in c.m.zones[name].members.items() if what == "var"]
    bit = c.bits[name]
    zones = c.zone_list
    span = st.span

    def remove(s, L):
        z = idx(s, L)
        flat = z - zone_base
        for base in [zone_base] + families:
            if s.zones[base + flat]:
                _runtime(f"`remove`: {zones[base + flat].name} still holds cards; move them away first", span)
        s.vars[flags + flat] = False
        for base in values:
            s.vars[base + flat] = None
        return bit

    return remove

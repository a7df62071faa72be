"""The source text of compiled statements, for the generated flow (flowgen.py).

A step's closure may carry its own Python source: ``fn.stmt`` (lines that do
what ``fn(s, L)`` does, with ``s`` the state and ``L`` the locals) and, for an
effect, ``fn.changed``: the mask of the zone and variable families it changes
(an int), or the name of the variable the lines leave that mask in. flowgen.py
writes such lines in place instead of calling the closure; every other step is
called. The closure itself stays the reference: what the lines do must be
exactly what it does, errors included (raised by the same helpers, so with the
same messages; the engine adds the rule's position).

The lines are built only from slots, numbers and names the compiler made
(``comp.name_for``), never from the text of a rules file.
"""

from __future__ import annotations

from ..language.errors import RulesRuntimeError
from .calls import below, track_size


def with_stmt(fn, lines: list, changed=None):
    """``fn`` with its source lines (and, for an effect, what it changes)."""
    fn.stmt = lines
    if changed is not None:
        fn.changed = changed
    return fn


def take_card(pile: list, c: int) -> None:
    """Take card ``c`` out of a zone's list: the top card (a draw, a deal) without a search from the
    bottom. (The generated lines of put_one and put_many do the same in place.)"""
    if pile[-1] == c:
        pile.pop()
    else:
        pile.remove(c)


def src_of(fn) -> str | None:
    return getattr(fn, "src", None)


def set_local(fn, slot: int, value, op: str = "="):
    """``L[slot] = value`` (or ``+=`` / ``-=``)."""
    v = src_of(value)
    if v is None:
        return fn
    return with_stmt(fn, [f"L[{slot}] {op} {v}"])


def assign_var(comp, fn, base: int, idx, value, op: str, bit: int):
    """``s.vars[base + idx] = value`` (or ``+=`` / ``-=``), an effect that changes ``bit``."""
    v = src_of(value)
    if getattr(idx, "constant", False):
        where = str(base + idx(None, None))
    else:
        i = src_of(idx)
        if i is None or v is None:
            return fn
        where = f"{base} + {i}" if base else i
    if v is None:
        return fn
    if op == "=":
        return with_stmt(fn, [f"s.vars[{where}] = {v}"], bit)
    return with_stmt(fn, [f"s.vars[{where}] {op} {v}"], bit)


def _raiser(comp, message: str, span, prefix: str) -> str:
    def fail(*_):
        raise RulesRuntimeError(message, span)

    return comp.name_for(fail, prefix)


def put_lines(comp, fn, card, source, target, at, under: bool, single: bool, bury: bool, span):
    """``fn`` (compile.put's closure) with its lines where a put has them: one card (put_one), or a list
    of cards into a pile or row (put_many); not ``at random``."""
    if bury:
        return fn
    if single:
        return put_one(comp, fn, card, target, at, under, span)
    return put_many(comp, fn, source, target, under, span) if at is None else fn


def put_one(comp, fn, card, target, at, under: bool, span):
    """``put CARD into ZONE [at K]`` of one card (not ``at random``), as lines; else ``fn`` unchanged.
    The same checks as the closure compile.put makes, in the same order, with the same messages."""
    c, z = src_of(card), src_of(target)
    k = src_of(at) if at is not None else None
    if c is None or z is None or (at is not None and k is None):
        return fn
    zones = comp.zone_list
    zb = comp.shared_name("zone bits", lambda: comp.zone_bit, "zb")
    pb = comp.shared_name("place bits", lambda: comp.place_bit, "pb")
    nocard = _raiser(comp, "`put`: there is no card to move", span, "nocard")
    lines = [f"_z = {z}"]
    if at is not None:
        slots = comp.shared_name("zone places", lambda: [zone.places for zone in zones], "zp")

        def bad_slot(zid, k):
            places = zones[zid].places
            raise RulesRuntimeError(f"`put`: {zones[zid].name} has no slot {k} (slots 0..{len(places) - 1})", span)

        def taken(zid, k):
            raise RulesRuntimeError(f"`put`: slot {k} of {zones[zid].name} already holds a card", span)

        bad = comp.name_for(bad_slot, "badslot")
        held = comp.name_for(taken, "taken")
        size = track_size(zones)
        lines.append(f"_k = {k}")
        if size is None or not below(k, size):  # (a number modulo the size needs no check)
            lines += [f"if not 0 <= _k < {size or f'len({slots}[_z])'}:",
                      f"    {bad}(_z, _k)"]
        lines.append(f"_q = {slots}[_z][_k]")
    lines += [f"_c = {c}",
              "if _c is None:",
              f"    {nocard}()",
              "_o = s.loc[_c]"]
    if at is not None:
        lines += ["if s.places[_q] >= 0 and s.places[_q] != _c:",
                  f"    {held}(_z, _k)"]
    lines += ["if _o >= 0:",
              "    _from = s.zones[_o]",
              "    if _from[-1] == _c:",  # the top card (a draw, a deal): no search from the bottom
              "        _from.pop()",
              "    else:",
              "        _from.remove(_c)",
              f"    _ch = {zb}[_o]",
              "else:",
              "    s.places[-_o - 1] = -1",
              f"    _ch = {pb}[-_o - 1]"]
    if at is not None:
        lines += ["s.places[_q] = _c",
                  "s.loc[_c] = -_q - 1",
                  f"_ch |= {pb}[_q]"]
    else:
        lines += ["s.zones[_z].insert(0, _c)" if under else "s.zones[_z].append(_c)",
                  "s.loc[_c] = _z",
                  f"_ch |= {zb}[_z]"]
    return with_stmt(fn, lines, "_ch")


def put_many(comp, fn, source, target, under: bool, span):
    """``put CARDS into ZONE`` of a list of cards into a pile or row (not a track's slot, not ``at
    random``), as lines; else ``fn`` unchanged. The same steps as the closure compile.put takes, card by
    card in the same order, with the same checks and messages."""
    cs, z = src_of(source), src_of(target)
    if cs is None or z is None:
        return fn
    zb = comp.shared_name("zone bits", lambda: comp.zone_bit, "zb")
    pb = comp.shared_name("place bits", lambda: comp.place_bit, "pb")
    nocard = _raiser(comp, "`put`: there is no card to move", span, "nocard")
    lines = [f"_z = {z}",
             f"_cs = list({cs})"]
    if under:
        lines.append("_cs.reverse()")
    lines += [f"_ch = {zb}[_z]",
              "_to = s.zones[_z]",
              "for _c in _cs:",
              "    if _c is None:",
              f"        {nocard}()",
              "    _o = s.loc[_c]",
              "    if _o >= 0:",
              "        _from = s.zones[_o]",
              "        if _from[-1] == _c:",
              "            _from.pop()",
              "        else:",
              "            _from.remove(_c)",
              f"        _ch |= {zb}[_o]",
              "    else:",
              "        s.places[-_o - 1] = -1",
              f"        _ch |= {pb}[-_o - 1]",
              "    _to.insert(0, _c)" if under else "    _to.append(_c)",
              "    s.loc[_c] = _z",
              f"    _ch |= {zb}[_z]"]
    return with_stmt(fn, lines, "_ch")

"""Which condition of a move asks what an earlier move of the same decision has just listed.

A decision often offers a move over some cards under a condition and, later, a move allowed only when
no card qualifies: ``move take(c in hand[p]) where ok(c)`` then ``move wait where not some(p)``, with
``some(p) = any(each c in hand[p] where ok(c))``. Listing the first move has asked the
condition of every one of those cards, in the same state; the ``any`` of the later one asks it again.
:func:`listed_before` finds such an ``any`` (the same cards, the same condition of the card kept in a
table with the same key: their generated texts equal but for the card's slot and the names of equal
tables and helpers), so that the listing (flowgen.py) answers it by whether the first move listed a
card. The ``any`` would change nothing but a copy of the locals (where it leaves its card), so nothing
else differs.
"""

from __future__ import annotations

import re


def listed_before(choice, ns: dict) -> tuple:
    """``any(each c in D where C)`` asked in the condition of an option after an option
    ``move m(c in D) where C`` of the same decision (the same domain, the same condition of the card
    kept in a table with the same key; the texts equal but for the card's slot and the names of
    equal tables) is true exactly when that option listed a move: listing asks C of every card of D
    in the same state, and changes nothing but a copy of the locals, which ``any`` only writes its
    card to. Returns ({option index: the name of a Python local set to whether it listed no move},
    {later option index: {the text of the call: what stands for it}})."""
    listed: dict = {}  # signature -> the flag of the first option listing it
    flags, asked = {}, {}
    for i, o in enumerate(choice.options):
        text = getattr(o.where, "src", None) if o.where is not None else None
        for name in sorted(set(re.findall(r"\b(_d\d+)\(s, L\)", text or ""))):
            found = getattr(ns.get(name), "aggregate", None)
            if found is None or found[0] != "any":
                continue
            _, slot, dom, cond, key = found
            flag = listed.get(_signature(dom, cond, slot, key, ns))
            if flag is not None:
                flags[int(flag[len("_unlisted"):])] = flag
                asked.setdefault(i, {})[f"{name}(s, L)"] = f"(not {flag})"
        if len(o.params) == 1 and o.key is not None and text is not None:
            slot, dom = o.params[0]
            sig = _signature(getattr(dom, "src", None), text, slot, o.key, ns)
            if sig is not None:
                listed.setdefault(sig, f"_unlisted{i}")
    return flags, asked


def answered(cond: str, asked: dict | None) -> str:
    """A condition's text with each ``any`` found by :func:`listed_before` replaced by what stands for it."""
    for call, listed in (asked or {}).items():
        cond = re.sub(r"(?<!\w)" + re.escape(call), listed, cond)
    return cond


def _signature(dom, cond, slot: int, key, ns: dict):
    """What a domain and a condition of the card in ``L[slot]`` ask, comparable between two of them: their
    texts with the slot made anonymous and each generated name by its value (tables alike if equal); None
    if either reads another local, or names what is not known."""
    if dom is None or cond is None:
        return None
    cond = cond.replace(f"L[{slot}]", "L[*]")
    text = f"{dom}\n{cond}\n{key}"
    if re.search(r"\bL\[\d", text) or ":=" in text or "s.locals" in text or re.search(r"\bL\b(?!\[)", text):
        return None
    parts = re.split(r"\b(_[A-Za-z]\w*)", text)
    for k in range(1, len(parts), 2):
        if parts[k] not in ns:
            return None
        parts[k] = _alike(ns[parts[k]])
    return tuple(parts)


def _alike(value):
    """A generated name's value, comparable: a table by its items, a closure by its code and what it
    holds (the compiler makes one per use: the same error at the same rule), anything else by identity."""
    if isinstance(value, (list, tuple)):
        return ("table", tuple(value))
    code = getattr(value, "__code__", None)
    if code is not None and getattr(value, "__closure__", None):
        try:
            held = ("closure", id(code), tuple(cell.cell_contents for cell in value.__closure__))
            hash(held)
            return held
        except (TypeError, ValueError):  # an unhashable or empty cell
            pass
    return ("name", id(value))

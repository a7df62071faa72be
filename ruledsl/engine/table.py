"""What the table shows a player: the view without the rules' bookkeeping, and a set being built.

``State.view`` is what a player may *know* (bots and verify read it). The
table, which ``ruledsl play`` and the browser viewer draw, shows less: the
variables the rules mark ``unshown`` (bookkeeping such as "this player was
attacked this turn") are left out, although every player may still know
them. And while a player builds a set of cards (a card-set move,
:mod:`ruledsl.language.setmoves`), the table shows the cards chosen so far
and how far the set's condition has come: ``sum(strength(c) for each c in
cs) is 9 so far; done when >= 5``.
"""

from __future__ import annotations

import weakref

import attrs

from ..language import ast as A
from .setlog import building

_unshown: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_sets: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
COMPARISONS = ("<", "<=", ">", ">=", "==", "!=")


def unshown_labels(program) -> frozenset:
    """The printed names (``offered[0, 1]``) of every value of the variables marked ``unshown``."""
    if program not in _unshown:
        labels = set()
        for name in program.unshown:
            base, sizes, _dims = program.var_families[name]
            count = 1
            for n in sizes:
                count *= n
            labels.update(program.var_names[base:base + count])
        _unshown[program] = frozenset(labels)
    return _unshown[program]


_enum_vars: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def enum_var_labels(program) -> dict:
    """The printed name of every value of an enum-typed variable -> the enum's value labels (a view
    holds an enum value as its position: the table says its name)."""
    if program not in _enum_vars:
        out = {}
        comp = getattr(program, "compiler", None)
        declared = getattr(getattr(comp, "m", None), "vars", {}) or {}
        labels = program.enum_labels or program.enums
        for name, info in declared.items():
            kind = getattr(info, "type", "")
            if not kind.startswith("enum:") or name not in program.var_families:
                continue
            values = labels.get(kind[5:]) or program.enums.get(kind[5:], ())
            base, sizes, _dims = program.var_families[name]
            count = 1
            for n in sizes:
                count *= n
            for label in program.var_names[base:base + count]:
                out[label] = list(values)
        _enum_vars[program] = out
    return _enum_vars[program]


def table_view(state, player: int) -> dict:
    """``state.view(player)`` as the table shows it: no ``unshown`` variables, enum values by name
    (``none`` for none); ``building`` added (:func:`set_in_progress`) while this player builds a set."""
    view = state.view(player)
    hide = unshown_labels(state.program)
    if hide:
        view["vars"] = {k: v for k, v in view["vars"].items() if k not in hide}
    enums = enum_var_labels(state.program)
    if enums:
        view["vars"] = {k: _enum_word(enums[k], v) if k in enums else v for k, v in view["vars"].items()}
    if not state.over and state.actor == player:
        progress = set_in_progress(state)
        if progress is not None:
            view["building"] = progress
    return view


def _enum_word(values: list, v):
    if v is None:
        return "none"
    if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(values):
        return values[v]
    return v  # '?' (not seen), or already a name


def set_in_progress(state) -> dict | None:
    """The set ``state``'s actor is building: ``{"move", "cards", "condition"}``, None when no set is.

    ``cards`` are the labels of the cards chosen so far (their builder sees them: they come from a
    zone the builder chooses from); ``condition`` says how far the move's condition has come, or is
    None when the move has none (or it cannot be worked out on its own)."""
    built = set_so_far(state)
    if built is None:
        return None
    out = {"move": built[0], "cards": built[1], "condition": None}
    condition = _set_of(state.program, state.choice)[1]
    if condition is not None:
        try:
            out["condition"] = condition(state, list(state.locals))
        except Exception:  # a condition that needs more than the set (a procedure's argument): left out
            out["condition"] = None
    return out


def set_so_far(state) -> tuple | None:
    """``(move, labels of the cards chosen so far)`` of the set ``state``'s actor is building, or None:
    :func:`set_in_progress` without the condition (which runs a rule), for a caller at every step."""
    found = _set_of(state.program, state.choice) if building(state) else None
    if found is None:
        return None
    slot = found[0]
    cards = state.locals[slot] if slot is not None and slot < len(state.locals) else None
    labels = state.program.card_labels
    return state.decision, [labels[c] for c in cards or ()]


def set_choices(program) -> frozenset:
    """The decisions (by number) at which a set of cards is built step by step, as
    :func:`set_in_progress` can show it: a codec that holds the set so far sizes itself by it."""
    return frozenset(cid for cid in range(len(program.choices)) if _set_of(program, cid) is not None)


def _set_of(program, cid: int):
    """(the local slot of the set, fn(state, L) -> the condition in words) for building choice ``cid``."""
    cache = _sets.setdefault(program, {})
    if cid in cache:
        return cache[cid]
    cache[cid] = None
    comp = getattr(program, "compiler", None)
    choice = program.choices[cid]
    if comp is None:
        return None
    node = next((c for c in _chooses(comp.m) if c.span == choice.span
                 and tuple(o.name for o in c.options) == ("add", "done")), None)
    if node is None:
        return None
    add, done = node.options
    binding = comp.m.bindings.get(add.body[0])  # the expansion's `cs = cards(...)`: the set's local
    slot = comp.slots.get(binding) if binding is not None else None
    cache[cid] = (slot, _condition(program, comp, done.where))
    return cache[cid]


def _condition(program, comp, where):
    """fn(state, L) -> the set's condition in words, e.g. ``size(cs) is 2 so far; done when >= 3``."""
    if where is None:
        return None
    try:
        if isinstance(where, A.BinOp) and where.op in COMPARISONS:
            left, right = comp.expr(where.left)[0], comp.expr(where.right)[0]
            text = _source(program, where.left)

            def words(s, L):
                return f"{text} is {_plain(left(s, L))} so far; done when {where.op} {_plain(right(s, L))}"
        else:
            whole = comp.expr(where)[0]
            text = _source(program, where)

            def words(s, L):
                return f"{text}: {'yes' if whole(s, L) else 'not yet'}"
    except Exception:  # an expression that cannot be compiled on its own
        return None
    return words


def _plain(value):
    return len(value) if isinstance(value, (list, tuple)) else value


def _source(program, node) -> str:
    """The text of ``node`` as written in the rules file (one line, spaces squeezed)."""
    sp = node.span
    lines = program.source.get(sp.file, "").splitlines()
    if not sp.line or sp.line > len(lines):
        return "the condition"
    if sp.end_line == sp.line:
        text = lines[sp.line - 1][sp.column - 1:sp.end_column - 1]
    else:
        text = "\n".join([lines[sp.line - 1][sp.column - 1:]] + lines[sp.line:sp.end_line - 1]
                         + [lines[sp.end_line - 1][:sp.end_column - 1]])
    return " ".join(text.split())


def _chooses(m):
    """Every `choose` node of the checked rules (procedures, the flow, triggers, extensions)."""
    seen, out = set(), []
    stack = [*m.procedures.values(), m.flow, *m.triggers, *m.extensions.values()]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, A.Node):
            if id(x) in seen:
                continue
            seen.add(id(x))
            if isinstance(x, A.Choose):
                out.append(x)
            for f in attrs.fields(type(x)):
                v = getattr(x, f.name)
                if isinstance(v, (A.Node, list, tuple)):
                    stack.append(v)
        elif attrs.has(type(x)) and isinstance(getattr(x, "node", None), A.Node):
            stack.append(x.node)
    return out


# ---- response windows (language/windows.py): whether one is open ------------------------------

_windows: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _window_slots(program) -> dict:
    """window name -> [(its passes slot, its asked slot)], one pair per `respond` written."""
    if program not in _windows:
        comp = getattr(program, "compiler", None)
        found: dict = {}
        if comp is not None:
            names = {b.name: [] for b in comp.slots}
            for b, slot in comp.slots.items():
                names[b.name].append(slot)
            for name in {n.rsplit("~", 1)[0] for n in names if n.endswith("~passes")}:
                found[name] = list(zip(names.get(name + "~passes", ()), names.get(name + "~asked", ())))
        _windows[program] = found
    return _windows[program]


def in_window(state) -> str | None:
    """The name of the response window whose decision ``state`` waits for, or None."""
    if state.over or state.decision not in _window_slots(state.program):
        return None
    return state.decision


def window_open(state, name: str) -> bool:
    """Whether window ``name`` is still open (some player of it has not passed since the last move)."""
    L = state.locals
    for passes, asked in _window_slots(state.program).get(name, ()):
        if passes < len(L) and asked < len(L) and isinstance(L[passes], int) and isinstance(L[asked], int) \
                and L[passes] < L[asked]:
            return True
    return False


# ---- what a move did, as one player's table shows it ------------------------------------------


def changes(before: dict, after: dict) -> list[str]:
    """What changed between two table views of one player, in words: the cards it sees move
    (``9♠ hand[0] → battle``), the cards it does not see counted (``hand[1] −2 hidden``), the
    shown variables that changed (``moves_played 3 → 4``)."""
    out, gone, came = [], [], []
    hidden: dict = {}
    b_zones, a_zones = before.get("zones", {}), after.get("zones", {})
    for name in dict.fromkeys([*b_zones, *a_zones]):
        old = [c for c in b_zones.get(name, []) if c is not None]
        new = [c for c in a_zones.get(name, []) if c is not None]
        rest = list(new)
        for c in old:
            if c in rest:
                rest.remove(c)
            elif not c.endswith("?"):
                gone.append((c, name))
        came.extend((c, name) for c in rest if not c.endswith("?"))
        diff = sum(c.endswith("?") for c in new) - sum(c.endswith("?") for c in old)
        if diff:
            hidden[name] = diff
    routes: dict = {}  # (from, to) -> cards; "" where this player does not see the card
    for c, there in came:
        source = next((g for g in gone if g[0] == c), None)
        if source is not None:
            gone.remove(source)
        routes.setdefault((source[1] if source else "", there), []).append(c)
    for c, here in gone:
        routes.setdefault((here, ""), []).append(c)
    for (here, there), cards in routes.items():
        zone = there or here
        n = hidden.get(zone, 0)
        k = min(len(cards), -n if not here else n) if (not here) != (not there) else 0
        if k > 0:  # cards of a zone turned face up (down) for this player where they lie: `reveal`
            hidden[zone] = n + k if not here else n - k
            out.append(f"{zone} {'shown' if not here else 'no longer shown'}: {', '.join(cards[:k])}")
            cards = cards[k:]
        if cards:
            out.append(" ".join(filter(None, (", ".join(cards), here, "→", there or "out of sight"))))
    out.extend(f"{name} {'+' if n > 0 else '−'}{abs(n)} hidden" for name, n in hidden.items() if n)
    b_vars, a_vars = before.get("vars", {}), after.get("vars", {})
    out.extend(f"{k} {b_vars.get(k)} → {v}" for k, v in a_vars.items() if k in b_vars and b_vars[k] != v)
    return out

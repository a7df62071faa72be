"""Working out a `define` of the rules from Python: ``state.evaluate("can_play", 1)``.

A define is compiled into the game's program only where the rules use it
(inlined), so this compiles it once more, for the types of the arguments
given, with the compiler that built the program (kept as
``program.compiler``), and caches the result. What each parameter is (a card,
a player, a number, a zone, an enum value) is read from how the define's body
uses it, so that ``17`` can be taken as a card id where the body reads
``c.rank`` and a label such as ``"K♥"`` is accepted there too. Every mistake
is a :class:`ParameterError` that names the define and the argument.
"""

from __future__ import annotations

import weakref

import attrs

from ..checker import types as T
from ..checker.declare import _suggest
from ..language import ast as A
from ..language.errors import ParameterError

_compiled: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()

# built-in functions: what each argument is
_BUILTIN_ARGS = {"next": ("player",), "previous": ("player",), "size": ("zone",), "empty": ("zone",),
                 "top": ("zone", "int"), "bottom": ("zone",), "at": ("zone", "int"), "occupied": ("zone", "int"),
                 "abs": ("int",), "min": ("int", "int"), "max": ("int", "int")}
_NUMERIC = ("<", "<=", ">", ">=", "-", "*", "/", "%")
_WORDS = {"card": "a card (its id, or its label like 'K♥')", "player": "a player (a seat number)",
          "int": "a number", "bool": "true or false (True/False)", "zone": "a zone (its name, like 'hand[0]')"}


def evaluate(state, name: str, *args):
    """The value of the define ``name`` for ``args`` in ``state`` (see State.evaluate)."""
    program = state.program
    comp = getattr(program, "compiler", None)
    if comp is None:
        raise ParameterError("this game was not compiled from a rules file: it has no defines to evaluate")
    m = comp.m
    if not isinstance(name, str) or name not in m.defines:
        hint = _suggest(name, m.defines) if isinstance(name, str) else None
        if isinstance(name, str) and name in m.vars:
            label = next((v for v in program.var_names if v == name or v.startswith(name + "[")), name)
            hint = f"`{name}` is a variable: read it with state.get_var({label!r})"
        known = ", ".join(sorted(m.defines)) or "none"
        raise ParameterError(f"the rules have no define {name!r}" + (f"; {hint}" if hint else "")
                             + f" (defines: {known})")
    d = m.defines[name]
    if len(args) != len(d.params):
        wanted = f"{len(d.params)} argument" + ("" if len(d.params) == 1 else "s")
        shown = f" ({', '.join(d.params)})" if d.params else ""
        raise ParameterError(f"`{name}` takes {wanted}{shown}, not {len(args)}")
    uses = parameter_uses(m, d, _compiled.setdefault(program, {}))
    values, types = [], []
    for pname, value, want in zip(d.params, args, uses):
        v, t = _convert(state, m, name, pname, value, want)
        values.append(v)
        types.append(t)
    fn, slots, result = _compile(program, comp, d, tuple(types))
    L = list(state.locals)
    if len(L) < comp.local_count:
        L.extend([None] * (comp.local_count - len(L)))
    for slot, v in zip(slots, values):
        L[slot] = v
    from .rules import _run_rule

    value = _run_rule(fn, state, L, d.span)
    if result == T.CARDS and not isinstance(value, list):
        value = list(value)
    return value


def _compile(program, comp, d, types: tuple):
    cache = _compiled.setdefault(program, {})
    key = (d.name, types)
    if key not in cache:
        from ..compiler.program import _local

        slots = [comp.slot(comp._binding(d, p)) for p in d.params]
        fn, result = comp.inline_define(d, [(_local(slot), t) for slot, t in zip(slots, types)])
        if result in T.CARD_SOURCES and result != T.CARDS:  # a zone: its cards
            fn, result = comp.cards(fn, result, d.span), T.CARDS
        cache[key] = (fn, slots, result)
    return cache[key]


def _convert(state, m, define: str, pname: str, value, want: set):
    """A Python value as the define's parameter ``pname``, with its type; ParameterError if it does not fit."""
    program = state.program
    enums = sorted(w[5:] for w in want if w.startswith("enum:"))

    def refuse(extra=""):
        words = [_WORDS.get(w, f"a value of {w[5:]}" if w.startswith("enum:") else w) for w in sorted(want)]
        what = " or ".join(words) if words else "a number, a player, a card, an enum value or a zone"
        raise ParameterError(f"`{define}` takes {what} as `{pname}`, not {value!r}{extra}")

    if value is None:
        return None, T.NONE
    if isinstance(value, bool):
        if want and "bool" not in want:
            refuse()
        return value, T.BOOL
    if isinstance(value, int):
        if "card" in want:
            if not 0 <= value < program.card_count:
                refuse(f" (card ids are 0 to {program.card_count - 1})")
            return value, T.CARD
        if "player" in want:
            if not 0 <= value < state.n:
                refuse(f" (this game has players 0 to {state.n - 1})")
            return value, T.PLAYER
        if want and not want & {"int"}:
            refuse()
        return value, T.INT
    if isinstance(value, str):
        if not want or "card" in want:
            ids = state.cards_named(value)
            if ids:
                return ids[0], T.CARD
        for e in enums or ([] if want else sorted(m.enums)):
            values = list(m.enums[e].values)
            if value in values:
                return values.index(value), T.enum(e)
        if not want or "zone" in want:
            key = value.replace(" ", "")
            for z in program.zones:
                if z.name.replace(" ", "") == key and (z.owner is None or z.owner < state.n):
                    return z.zid, (T.TRACK if z.places else T.ZONE)
        refuse()
    refuse()


def parameter_uses(m, d, cache: dict) -> list[set]:
    """For each parameter of define ``d``, what its body uses it as: ``card``, ``player``, ``int``,
    ``bool``, ``zone`` or ``enum:NAME`` (empty: nothing says). ``cache`` keeps what was worked out."""
    key = ("uses", d.name)
    if key not in cache:
        cache[key] = [set() for _ in d.params]  # a define that calls itself was refused by the checker
        cache[key] = _walk_uses(m, d, cache)
    return cache[key]


def _walk_uses(m, d, cache) -> list[set]:
    bindings = {m.bindings.get((d, p)): i for i, p in enumerate(d.params)}
    bindings.pop(None, None)
    out = [set() for _ in d.params]

    def note(node, kind):
        if isinstance(node, A.Name):
            i = bindings.get(m.bindings.get(node))
            if i is not None:
                out[i].add(kind)

    def dim_kind(dim):
        if dim[0] in ("player", "card"):
            return dim[0]
        return f"enum:{dim[1]}" if dim[0] == "enum" else "int"

    def walk(node):
        if isinstance(node, tuple):
            for x in node:
                walk(x)
            return
        if not isinstance(node, A.Node):
            return
        if isinstance(node, (A.Attr, A.Has)) and not (isinstance(node.obj, A.Index) and isinstance(node.obj.obj, A.Name)
                                                      and node.obj.obj.name in m.zones):
            note(node.obj, "card")
        elif isinstance(node, A.Index) and isinstance(node.obj, A.Name):
            info = m.zones.get(node.obj.name) or m.vars.get(node.obj.name)
            if info is not None:
                for dim, index in zip(info.dims, node.indices):
                    note(index, dim_kind(dim))
        elif isinstance(node, A.Call):
            if node.name in m.defines:
                callee = m.defines[node.name]
                for arg, kinds in zip(node.args, parameter_uses(m, callee, cache)):
                    for kind in kinds:
                        note(arg, kind)
            else:
                for arg, kind in zip(node.args, _BUILTIN_ARGS.get(node.name, ())):
                    note(arg, kind)
        elif isinstance(node, A.BinOp):
            if node.op in _NUMERIC:
                note(node.left, "int")
                note(node.right, "int")
            elif node.op in ("==", "!="):
                for a, b in ((node.left, node.right), (node.right, node.left)):
                    if isinstance(b, A.Name) and b.name in m.enum_values:
                        note(a, f"enum:{m.enum_values[b.name][0]}")
                    elif isinstance(b, A.Name) and b.name == "current":
                        note(a, "player")
            elif node.op in ("in", "not in") and isinstance(node.right, A.Name) and node.right.name in ("players", "seats"):
                note(node.left, "player")
            elif node.op in ("in", "not in"):
                note(node.right, "zone")
        elif isinstance(node, (A.Aggregate, A.Fold, A.Best)):
            note(node.domain, "zone")
        elif isinstance(node, A.Not):
            note(node.operand, "bool")
        for f in attrs.fields(type(node)):
            if f.name != "span":
                walk(getattr(node, f.name))

    walk(d.body)
    return out

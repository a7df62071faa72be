"""The checking pass: names, types, zones and decisions, with every error at once.

``check(assembly, params)`` builds the :class:`Model` of a rules file (its
symbol tables) and reports every problem it finds as a positioned
diagnostic, with a hint where one helps ("did you mean `hand`?"). The
compiler takes the model and trusts it.
"""

from __future__ import annotations

import difflib

import attrs

from . import ast as A
from . import types as T
from .assemble import Assembly, diag
from .errors import Diagnostic, ParameterError, RulesError
from .limits import MAX_PLAYERS, MAX_SLOTS, MAX_VALUES, MAX_ZONES
from .parse import keywords

ZONE_SHAPES = ("pile", "row", "track")
VISIBILITIES = ("hidden", "owner", "public", "top")
VAR_TYPES = ("int", "bool", "player", "card")
DEFAULT_LIMIT = 10000


@attrs.define(eq=False)
class Binding:
    """A name bound by let, for, a move parameter, a procedure or define parameter, or a quantifier."""

    name: str
    type: str
    node: object = None


@attrs.define
class EnumInfo:
    name: str
    values: list
    labels: list
    node: object


@attrs.define
class AttrInfo:
    name: str
    type: str
    low: int
    high: int
    labels: dict
    derived: object


@attrs.define
class KindInfo:
    name: str
    index: int
    attributes: dict
    show: str | None
    node: object


@attrs.define
class ZoneInfo:
    name: str
    dims: list  # each ("player",) or ("enum", name) or ("range", low, high)
    shape: str
    size: int  # slots of a track
    visibility: str
    node: object

    @property
    def type(self) -> str:
        return T.TRACK if self.shape == "track" else T.ZONE


@attrs.define
class VarInfo:
    name: str
    dims: list
    type: str
    init: object
    node: object


@attrs.define
class ParamInfo:
    name: str
    value: object
    type: str
    doc: str | None
    node: object
    accepted: tuple | None = None  # (low, high) of `param NAME = V in LOW..HIGH`


@attrs.define
class Model:
    """Everything the compiler needs to know about a rules file."""

    name: str = "untitled"
    min_players: int = 2
    max_players: int = 2
    limit: int = DEFAULT_LIMIT
    texts: dict = attrs.Factory(dict)
    enums: dict = attrs.Factory(dict)
    enum_values: dict = attrs.Factory(dict)  # value name -> (enum name, index)
    kinds: dict = attrs.Factory(dict)
    attributes: dict = attrs.Factory(dict)  # attribute name -> type, across kinds
    decks: dict = attrs.Factory(dict)
    cards: list = attrs.Factory(list)
    zones: dict = attrs.Factory(dict)
    connects: list = attrs.Factory(list)
    vars: dict = attrs.Factory(dict)
    params: dict = attrs.Factory(dict)
    defines: dict = attrs.Factory(dict)
    procedures: dict = attrs.Factory(dict)
    triggers: list = attrs.Factory(list)
    invariants: list = attrs.Factory(list)
    winner: object = None
    flow: object = None
    extensions: dict = attrs.Factory(dict)  # choice name -> extra options
    bindings: dict = attrs.Factory(dict)  # Name / binding node -> Binding

    def dim_size(self, dim: tuple) -> int:
        if dim[0] == "player":
            return self.max_players
        if dim[0] == "enum":
            return len(self.enums[dim[1]].values)
        return dim[2] - dim[1] + 1


def check(assembly: Assembly, params: dict | None = None) -> Model:
    """Check an assembled rules file; raise RulesError listing every problem."""
    checker = _Checker(assembly)
    model = checker.run(params or {})
    if checker.errors:
        raise RulesError(sorted(checker.errors, key=lambda d: (d.file, d.line, d.column)))
    return model


def _suggest(name: str, candidates) -> str | None:
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None


class _Checker:
    def __init__(self, assembly: Assembly):
        self.assembly = assembly
        self.model = Model(texts=assembly.texts)
        self.errors: list[Diagnostic] = []
        self.calls: dict[str, set] = {}  # define/procedure -> names it calls, for cycles
        self._owner: str | None = None

    def error(self, code: str, message: str, node, hint: str | None = None) -> None:
        self.errors.append(diag(self.assembly.texts, code, message, node.span, hint))

    # ------------------------------------------------------------------ tables

    def run(self, overrides: dict) -> Model:
        m = self.model
        items = self._apply_replacements(list(self.assembly.items))
        seen: dict[str, object] = {}
        for item in items:
            name = getattr(item, "name", None)
            if isinstance(item, (A.GameName, A.PlayersRange, A.CardsDef, A.ConnectDef)):
                name = None
            if isinstance(item, (A.Limit, A.FlowDef, A.WinnerDef)):
                name = "the " + item.name
            if name is not None:
                if name in seen:
                    first = seen[name].span
                    self.error("E204", f"`{name.removeprefix('the ')}` is defined twice (first at line {first.line})",
                               item, "use `replace` in a variant to change a definition")
                    continue
                seen[name] = item
            self._declare(item)
        self._check_names_unique()
        self._bind_params(overrides)
        for item in items:
            self._declare_late(item)
        for ext in self.assembly.extensions:
            m.extensions.setdefault(ext.name, []).extend(ext.options)
        self._check_bodies()
        if m.flow is None:
            self.errors.append(Diagnostic("E211", "the rules have no `flow { ... }`: nothing says how a game runs",
                                          _nowhere(self.assembly)))
        return m

    def _apply_replacements(self, items: list) -> list:
        for rep in self.assembly.replaced:
            new = rep.item
            key = (type(new), getattr(new, "name", None))
            for i, old in enumerate(items):
                if (type(old), getattr(old, "name", None)) == key:
                    items[i] = new
                    break
            else:
                what = type(new).__name__.removesuffix("Def").lower()
                self.error("E210", f"`replace` names {what} `{getattr(new, 'name', '')}`, which the base file does not define",
                           rep, "to add a new definition, leave out `replace`")
        return items

    def _declare(self, item) -> None:
        m = self.model
        if isinstance(item, A.GameName):
            m.name = item.name
        elif isinstance(item, A.PlayersRange):
            if not 1 <= item.low <= item.high:
                self.error("E213", f"players {item.low}..{item.high} is not a range of player counts", item)
            elif item.high > MAX_PLAYERS:
                self.error("E213", f"players {item.low}..{item.high}: ruledsl allows at most {MAX_PLAYERS} players",
                           item)
            m.min_players = min(item.low, MAX_PLAYERS)
            m.max_players = min(max(item.low, item.high), MAX_PLAYERS)
        elif isinstance(item, A.Limit):
            if item.moves < 1:
                self.error("E213", "the move limit must be at least 1", item)
            m.limit = item.moves
        elif isinstance(item, A.EnumDef):
            names = [v.name for v in item.values]
            for dup in {n for n in names if names.count(n) > 1}:
                self.error("E204", f"`{dup}` appears twice in enum `{item.name}`", item)
            m.enums[item.name] = EnumInfo(item.name, names, [v.label or v.name for v in item.values], item)
        elif isinstance(item, A.KindDef):
            m.kinds[item.name] = KindInfo(item.name, len(m.kinds), {}, item.show, item)
        elif isinstance(item, A.DeckDef):
            m.decks[item.name] = item
        elif isinstance(item, A.CardsDef):
            m.cards.append(item)
        elif isinstance(item, A.ZoneDef):
            m.zones[item.name] = ZoneInfo(item.name, [], "pile", 0, "hidden", item)
        elif isinstance(item, A.ConnectDef):
            m.connects.append(item)
        elif isinstance(item, A.VarDef):
            m.vars[item.name] = VarInfo(item.name, [], item.type, item.init, item)
        elif isinstance(item, A.Param):
            m.params[item.name] = ParamInfo(item.name, None, T.ANY, item.doc, item)
        elif isinstance(item, A.DefineDef):
            m.defines[item.name] = item
        elif isinstance(item, A.ProcedureDef):
            m.procedures[item.name] = item
        elif isinstance(item, A.TriggerDef):
            m.triggers.append(item)
        elif isinstance(item, A.InvariantDef):
            m.invariants.append(item)
        elif isinstance(item, A.WinnerDef):
            m.winner = item
        elif isinstance(item, A.FlowDef):
            m.flow = item

    def _check_names_unique(self) -> None:
        m = self.model
        for enum in m.enums.values():
            for i, value in enumerate(enum.values):
                if value in m.enum_values and m.enum_values[value][0] != enum.name:
                    self.error("E204", f"`{value}` is a value of both `{m.enum_values[value][0]}` and `{enum.name}`",
                               enum.node, "give enumeration values distinct names")
                m.enum_values.setdefault(value, (enum.name, i))
        tables = [("enum", m.enums), ("kind", m.kinds), ("deck", m.decks), ("zone", m.zones), ("var", m.vars),
                  ("param", m.params), ("define", m.defines), ("procedure", m.procedures)]
        owner: dict[str, str] = {}
        for what, table in tables:
            for name, info in table.items():
                node = info.node if hasattr(info, "node") else info
                if name in keywords():
                    self.error("E204", f"`{name}` is a word of the language; choose another name", node)
                elif name in T.SPECIAL_NAMES or name in T.BUILTINS or name in m.enum_values:
                    self.error("E204", f"`{name}` is already a name of the language; choose another name", node)
                elif name in owner:
                    self.error("E204", f"`{name}` names both a {owner[name]} and a {what}", node)
                owner.setdefault(name, what)

    def _bind_params(self, overrides: dict) -> None:
        m = self.model
        for name in overrides:
            if name not in m.params:
                hint = _suggest(name, m.params)
                known = ", ".join(sorted(m.params)) or "none"
                raise ParameterError(f"unknown parameter '{name}' (parameters: {known})"
                                     + (f"; {hint}" if hint else ""))
        for name, info in m.params.items():
            value = self._const(info.node.value)
            if value is None:
                continue
            info.value, info.type = value, _type_of_value(value)
            if name in overrides:
                given = overrides[name]
                if isinstance(given, str):
                    given = _parse_value(given, info.type)
                if given is None or _type_of_value(given) != info.type:
                    raise ParameterError(f"parameter '{name}' takes {T.describe(info.type)}, "
                                         f"not {overrides[name]!r}")
                info.value = given
        for name, info in m.params.items():
            self._check_range(info, overrides)

    def _check_range(self, info: ParamInfo, overrides: dict) -> None:
        """A parameter declared `in LOW..HIGH` must hold a number in that range."""
        node = info.node
        if node.low is None:
            return
        low, high = self._const(node.low), self._const(node.high)
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)):
            if low is not None and high is not None:
                self.error("E202", "the range of a parameter is two numbers, like `in 1..30`", node.low)
            return
        if low > high:
            self.error("E213", f"the range {low}..{high} of `{info.name}` is empty", node.low)
            return
        info.accepted = (low, high)
        value = info.value
        if value is None:
            return
        if info.type != T.INT:
            self.error("E202", f"only a number parameter can have a range; `{info.name}` is {T.describe(info.type)}",
                       node.low)
            return
        if low <= value <= high:
            return
        doc = f" ({info.name}: {info.node.doc})" if info.node.doc else ""
        if overrides:
            raise ParameterError(f"parameter '{info.name}' must be in {low}..{high}, not {value}{doc}")
        self.error("E213", f"`{info.name}` is {value}, outside its range {low}..{high}", node.value)

    def _const(self, node):
        """The value of a constant expression (literals, parameters, arithmetic), or None after an error."""
        m = self.model
        if isinstance(node, (A.IntLit, A.StrLit, A.BoolLit)):
            return node.value
        if isinstance(node, A.Neg):
            v = self._const(node.operand)
            return -v if isinstance(v, int) and not isinstance(v, bool) else None
        if isinstance(node, A.Name) and node.name in m.params:
            info = m.params[node.name]
            if info.value is None and info.node.value is not node:
                info.value = self._const(info.node.value)
            return info.value
        if isinstance(node, A.BinOp) and node.op in ("+", "-", "*", "/", "%"):
            a, b = self._const(node.left), self._const(node.right)
            if isinstance(a, int) and isinstance(b, int):
                if node.op in ("/", "%") and b == 0:
                    self.error("E202", "division by zero", node)
                    return None
                return {"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0, "%": a % b if b else 0}[node.op]
        self.error("E213", "a constant is needed here: a number, true/false, a string or a parameter", node)
        return None

    def _check_family_size(self, item, dims: list, what: str, most: int) -> None:
        """A family indexed by huge ranges would take all memory: refuse it before it is built."""
        total = 1
        for d in dims:
            total *= self.model.dim_size(d)
        if total > most:
            self.error("E205", f"{what} `{item.name}` has {total:,} entries, more than ruledsl allows "
                               f"(at most {most:,})", item, "make its index ranges smaller")
            dims[:] = [("range", 0, 0)] * len(dims)

    def _dims(self, index: tuple) -> list:
        dims = []
        for d in index:
            if d.name is None:
                if d.high < d.low:
                    self.error("E205", f"the index range {d.low}..{d.high} is empty", d)
                dims.append(("range", d.low, d.high))
            elif d.name == "player":
                dims.append(("player",))
            elif d.name in self.model.enums:
                dims.append(("enum", d.name))
            else:
                self.error("E200", f"unknown index `{d.name}`: an index is `player`, an enum or a range like 1..10",
                           d, _suggest(d.name, list(self.model.enums) + ["player"]))
                dims.append(("range", 0, 0))
        return dims

    def _declare_late(self, item) -> None:
        """Declarations that need the enums, kinds and parameters in place."""
        m = self.model
        if isinstance(item, A.KindDef) and m.kinds.get(item.name) and m.kinds[item.name].node is item:
            kind = m.kinds[item.name]
            for attr in item.attributes:
                if attr.name in kind.attributes:
                    self.error("E204", f"kind `{item.name}` has two attributes named `{attr.name}`", attr)
                    continue
                if attr.name in ("kind", "id"):
                    self.error("E204", f"`{attr.name}` is given to every card; choose another attribute name", attr)
                    continue
                ref = attr.type
                if ref.name is None:
                    typ, low, high = T.INT, ref.low, ref.high
                elif ref.name in m.enums:
                    typ, low, high = T.enum(ref.name), 0, len(m.enums[ref.name].values) - 1
                elif ref.name in ("int", "bool"):
                    typ, low, high = ref.name, 0, 0
                else:
                    self.error("E200", f"unknown attribute type `{ref.name}`: use an enum, int, bool or a range like 1..13",
                               ref, _suggest(ref.name, list(m.enums) + ["int", "bool"]))
                    typ, low, high = T.ANY, 0, 0
                kind.attributes[attr.name] = AttrInfo(attr.name, typ, low, high, dict(attr.labels), attr.derived)
                known = m.attributes.get(attr.name)
                if known is not None and known != typ:
                    self.error("E202", f"attribute `{attr.name}` is {T.describe(known)} in one kind and "
                                       f"{T.describe(typ)} in `{item.name}`", attr)
                m.attributes.setdefault(attr.name, typ)
            show_at = _At(item.show_spans[-1]) if item.show_spans else item
            for extra in item.show_spans[:-1]:
                self.error("E204", f"kind `{item.name}` has more than one `show` line", _At(extra))
            if item.show:
                fields, problem = _template_fields(item.show)
                if problem:
                    self.error("E202", f"the `show` text {problem}", show_at,
                               "a field is an attribute name in braces, like {rank}; write {{ or }} for a brace")
                for field in fields:
                    if field not in kind.attributes and field not in ("kind", "id"):
                        self.error("E201", f"`show` names `{field}`, which kind `{item.name}` does not have", show_at,
                                   _suggest(field, kind.attributes))
        elif isinstance(item, A.ZoneDef) and m.zones.get(item.name) and m.zones[item.name].node is item:
            zone = m.zones[item.name]
            zone.dims = self._dims(item.index)
            self._check_family_size(item, zone.dims, "zone", MAX_ZONES)
            shapes = [o for o in item.options if o.name in ZONE_SHAPES]
            seen_vis = [o for o in item.options if o.name in VISIBILITIES]
            for o in item.options:
                if o.name not in ZONE_SHAPES and o.name not in VISIBILITIES:
                    self.error("E209", f"unknown zone option `{o.name}`", o,
                               _suggest(o.name, ZONE_SHAPES + VISIBILITIES)
                               or "a zone is a pile, row or track(N), and hidden, owner, public or top")
            if len(shapes) > 1 or len(seen_vis) > 1:
                self.error("E209", f"zone `{item.name}` has more than one shape or visibility", item)
            if shapes:
                zone.shape = shapes[0].name
                if zone.shape == "track":
                    size = self._const(shapes[0].arg) if shapes[0].arg is not None else None
                    whole = isinstance(size, int) and not isinstance(size, bool)
                    if shapes[0].arg is None:
                        self.error("E209", "a track needs its number of slots, as in track(16)", shapes[0])
                    elif size is not None and not whole:
                        self.error("E209", f"the slots of a track are a number, not {size!r}", shapes[0].arg)
                    elif whole and size < 1:
                        self.error("E209", "a track needs at least one slot", shapes[0])
                    elif whole and size > MAX_SLOTS:
                        self.error("E209", f"a track of {size} slots is more than ruledsl allows "
                                           f"(at most {MAX_SLOTS:,})", shapes[0].arg)
                    zone.size = size if whole and 1 <= size <= MAX_SLOTS else 1
                elif shapes[0].arg is not None:
                    self.error("E209", f"a {zone.shape} takes no size; only a track has slots", shapes[0])
            if seen_vis:
                zone.visibility = seen_vis[0].name
                if zone.visibility == "owner" and not any(d[0] == "player" for d in zone.dims):
                    self.error("E209", f"zone `{item.name}` is seen by its owner, but it has no owner",
                               seen_vis[0], f"give it one zone per player: zone {item.name}[player]")
        elif isinstance(item, A.VarDef) and m.vars.get(item.name) and m.vars[item.name].node is item:
            var = m.vars[item.name]
            var.dims = self._dims(item.index)
            self._check_family_size(item, var.dims, "variable", MAX_VALUES)
            if item.type in VAR_TYPES:
                var.type = item.type
            elif item.type in m.enums:
                var.type = T.enum(item.type)
            else:
                self.error("E200", f"unknown variable type `{item.type}`", item,
                           _suggest(item.type, list(VAR_TYPES) + list(m.enums)) or "use int, bool, player, card or an enum")
                var.type = T.ANY

    # ------------------------------------------------------------------ bodies

    def _check_bodies(self) -> None:
        m = self.model
        for kind in m.kinds.values():
            scope = {name: Binding(name, a.type) for name, a in kind.attributes.items()}
            for a in kind.attributes.values():
                if a.derived is not None:
                    t = self.expr(a.derived, scope, pure=True, static=True)
                    self.expect(t, a.type, a.derived, f"attribute `{a.name}`")
        for d in m.decks.values():
            self.deck(d.deck, set())
        for c in m.cards:
            self.deck(c.deck, set())
            self.zone_ref(c.zone, {})
        for c in m.connects:
            for ref, slot in ((c.first, c.first_slot), (c.second, c.second_slot)):
                t = self.zone_ref(ref, {})
                if t not in (T.TRACK, T.ANY):
                    self.error("E202", f"`connect` joins slots of tracks; `{ref.name}` is not a track", ref)
                value = self._const(slot)
                zone = m.zones.get(ref.name)
                if isinstance(value, int) and zone and zone.shape == "track" and not 0 <= value < zone.size:
                    self.error("E205", f"slot {value} is outside `{ref.name}`, whose slots are 0..{zone.size - 1}", slot)
        for var in m.vars.values():
            if var.init is not None:
                t = self.expr(var.init, {}, pure=True)
                self.expect(t, var.type, var.init, f"variable `{var.name}`")
        for d in m.defines.values():
            self._owner = d.name
            scope = {p: self.bind(Binding(p, T.ANY), d) for p in d.params}
            self.expr(d.body, scope, pure=True)
        for p in m.procedures.values():
            self._owner = p.name
            scope = {name: self.bind(Binding(name, T.ANY), p) for name in p.params}
            self.block(p.body, scope, in_trigger=False)
        self._owner = None
        for t in m.triggers:
            scope = self.binder(t.var, t.domain, t)
            self.expect(self.expr(t.cond, scope, pure=True), T.BOOL, t.cond, "a trigger's condition")
            self.block(t.body, scope, in_trigger=True)
        for inv in m.invariants:
            scope = self.binder(inv.var, inv.domain, inv)
            self.expect(self.expr(inv.cond, scope, pure=True), T.BOOL, inv.cond, "an invariant")
        if m.winner is not None:
            scope = {m.winner.var: self.bind(Binding(m.winner.var, T.PLAYER), m.winner)}
            for key in m.winner.keys:
                self.expect(self.expr(key.expr, scope, pure=True), T.INT, key.expr, "a winner's order")
        if "score" in m.defines and len(m.defines["score"].params) != 1:
            self.error("E203", "`score` takes one parameter, the player", m.defines["score"])
        if m.flow is not None:
            self.block(m.flow.body, {}, in_trigger=False)
        for name, options in m.extensions.items():
            if not self._choice_exists(name):
                node = options[0] if options else None
                if node is not None:
                    self.error("E210", f"`extend choose {name}`: there is no decision named `{name}`", node)
        self._check_cycles()

    def _choice_exists(self, name: str) -> bool:
        found = []

        def walk(stmts):
            for s in stmts:
                if isinstance(s, A.Choose) and s.name == name:
                    found.append(s)
                for child in _child_blocks(s):
                    walk(child)

        walk(self.model.flow.body if self.model.flow else ())
        for p in self.model.procedures.values():
            walk(p.body)
        return bool(found)

    def _check_cycles(self) -> None:
        graph = self.calls
        state: dict[str, int] = {}

        def visit(name, path):
            if state.get(name) == 1:
                cycle = path[path.index(name):] + [name]
                node = self.model.defines.get(name) or self.model.procedures.get(name)
                self.error("E207", "rules may not call themselves: " + " -> ".join(cycle), node,
                           "use a loop (for, repeat, while, turns) instead")
                return
            if state.get(name) == 2:
                return
            state[name] = 1
            for callee in sorted(graph.get(name, ())):
                visit(callee, path + [name])
            state[name] = 2

        for name in sorted(graph):
            visit(name, [])

    def bind(self, binding: Binding, node) -> Binding:
        if binding.name in keywords():
            self.error("E204", f"`{binding.name}` is a word of the language; choose another name", node)
        self.model.bindings[node, binding.name] = binding
        return binding

    def binder(self, var, domain, node) -> dict:
        if var is None:
            return {}
        t = self.expr(domain, {}, pure=True)
        elem = T.element(t)
        if elem is None:
            self.error("E202", f"`for {var} in ...` needs a domain (players, an enum, a zone, a range), "
                               f"not {T.describe(t)}", domain)
            elem = T.ANY
        return {var: self.bind(Binding(var, elem), node)}

    def expect(self, actual: str, expected: str, node, what: str) -> None:
        if not T.fits(actual, expected):
            self.error("E202", f"{what} should be {T.describe(expected)}, but this is {T.describe(actual)}", node)

    def deck(self, d, visiting: set) -> None:
        m = self.model
        if isinstance(d, A.DeckSum):
            self.deck(d.left, visiting)
            self.deck(d.right, visiting)
        elif isinstance(d, A.DeckCopies):
            if d.copies < 1:
                self.error("E212", "a number of copies must be at least 1", d)
            self.deck(d.term, visiting)
        elif isinstance(d, A.DeckRef):
            if d.name in m.decks:
                if d.name in visiting:
                    self.error("E207", f"deck `{d.name}` contains itself", d)
                else:
                    self.deck(m.decks[d.name].deck, visiting | {d.name})
            elif d.name in m.kinds:
                self.deck(A.DeckCard(d.name, (), span=d.span), visiting)
            else:
                self.error("E200", f"unknown deck `{d.name}`", d, _suggest(d.name, list(m.decks) + list(m.kinds)))
        elif isinstance(d, A.DeckCard):
            kind = m.kinds.get(d.kind)
            if kind is None:
                self.error("E200", f"unknown card kind `{d.kind}`", d, _suggest(d.kind, m.kinds))
                return
            given = {f.name for f in d.fields}
            for f in d.fields:
                attr = kind.attributes.get(f.name)
                if attr is None:
                    self.error("E201", f"kind `{d.kind}` has no attribute `{f.name}`", f, _suggest(f.name, kind.attributes))
                    continue
                if attr.derived is not None:
                    self.error("E212", f"`{f.name}` is worked out from the other attributes; it cannot be given", f)
                if f.value is not None:
                    t = self.expr(f.value, {}, pure=True, static=True)
                    inner = T.element(t) if (t == T.RANGE or t.startswith("set:")) else t
                    self.expect(inner or t, attr.type, f.value, f"attribute `{f.name}`")
                elif attr.type in (T.INT,) and attr.low == attr.high == 0:
                    self.error("E212", f"`{f.name}: each` needs a range type like 1..13", f)
            for name, attr in kind.attributes.items():
                if attr.derived is None and name not in given:
                    self.error("E212", f"a `{d.kind}` card needs a value for `{name}`", d,
                               f"write {d.kind}({name}: ...) or {name}: each")

    # ------------------------------------------------------------ statements

    def block(self, stmts, scope: dict, in_trigger: bool) -> None:
        scope = dict(scope)
        for s in stmts:
            self.stmt(s, scope, in_trigger)

    def stmt(self, s, scope: dict, in_trigger: bool) -> None:
        m = self.model
        if isinstance(s, A.Assign):
            t = self.assign_target(s, scope)
            v = self.expr(s.value, scope)
            if s.op in ("+=", "-="):
                self.expect(t, T.INT, s, f"`{s.op}`")
                self.expect(v, T.INT, s.value, f"the value of `{s.op}`")
            else:
                self.expect(v, t, s.value, f"the value of `{s.name}`")
        elif isinstance(s, A.Let):
            t = self.expr(s.value, scope)
            if s.name in scope or s.name in m.vars or s.name in m.params:
                self.error("E204", f"`{s.name}` is already a name here; choose another", s)
            scope[s.name] = self.bind(Binding(s.name, t), s)
        elif isinstance(s, A.Put):
            t = self.expr(s.cards, scope)
            if not (T.fits(t, T.CARD) or T.fits(t, T.CARDS)):
                self.error("E202", f"`put` moves a card or cards, not {T.describe(t)}", s.cards)
            zt = self.zone_ref(s.zone, scope)
            if s.at is not None:
                if zt not in (T.TRACK, T.ANY):
                    self.error("E202", "`at` names a slot; only a track has slots", s.at)
                self.expect(self.expr(s.at, scope), T.INT, s.at, "a slot")
            elif zt == T.TRACK:
                self.error("E202", f"a card goes into a track at a slot: put ... into {s.zone.name}[...] at SLOT", s)
        elif isinstance(s, A.Deal):
            self.expect(self.expr(s.count, scope), T.INT, s.count, "the number of cards dealt")
            for ref in (s.source, s.target):
                if self.zone_ref(ref, scope) == T.TRACK:
                    self.error("E202", "`deal` works on piles and rows, not tracks", ref)
        elif isinstance(s, (A.Shuffle, A.Gather)):
            if self.zone_ref(s.zone, scope) == T.TRACK:
                self.error("E202", "a track cannot be shuffled or gathered into", s.zone)
        elif isinstance(s, A.If):
            for cond, body in s.branches:
                self.expect(self.expr(cond, scope), T.BOOL, cond, "a condition")
                self.block(body, scope, in_trigger)
            if s.otherwise is not None:
                self.block(s.otherwise, scope, in_trigger)
        elif isinstance(s, A.For):
            t = self.expr(s.domain, scope)
            elem = T.element(t)
            if elem is None:
                self.error("E202", f"`for` runs over players, an enum, a zone or a range, not {T.describe(t)}", s.domain)
                elem = T.ANY
            if s.start is not None:
                if elem not in (T.PLAYER, T.ANY):
                    self.error("E202", "`from` picks the first player; it needs `for ... in players`", s.start)
                self.expect(self.expr(s.start, scope), T.PLAYER, s.start, "the first player")
            inner = dict(scope)
            inner[s.var] = self.bind(Binding(s.var, elem), s)
            self.block(s.body, inner, in_trigger)
        elif isinstance(s, A.Repeat):
            self.expect(self.expr(s.count, scope), T.INT, s.count, "the number of repeats")
            self.block(s.body, scope, in_trigger)
        elif isinstance(s, A.While):
            self.expect(self.expr(s.cond, scope), T.BOOL, s.cond, "a condition")
            self.block(s.body, scope, in_trigger)
        elif isinstance(s, A.Turns):
            if in_trigger:
                self.error("E206", "a trigger cannot run turns; it happens at once", s)
            self.expect(self.expr(s.start, scope), T.PLAYER, s.start, "the first player")
            self.expect(self.expr(s.until, scope, pure=True), T.BOOL, s.until, "the end of the turns")
            self.block(s.body, scope, in_trigger)
        elif isinstance(s, A.Choose):
            if in_trigger:
                self.error("E206", "a trigger cannot ask a player to choose; it happens at once", s,
                           "set a variable in the trigger and ask in the flow")
            self.expect(self.expr(s.actor, scope), T.PLAYER, s.actor, "the player who chooses")
            options = list(s.options) + list(m.extensions.get(s.name, ()))
            names = [o.name for o in options]
            for dup in sorted({n for n in names if names.count(n) > 1}):
                self.error("E204", f"decision `{s.name}` offers two moves named `{dup}`", s)
            if not options:
                self.error("E206", f"decision `{s.name}` offers no move", s)
            for o in options:
                inner = dict(scope)
                for p in o.params:
                    t = self.expr(p.domain, inner, pure=True)
                    elem = T.element(t)
                    if elem is None:
                        self.error("E202", f"a move parameter runs over players, an enum, a zone or a range, "
                                           f"not {T.describe(t)}", p.domain)
                        elem = T.ANY
                    inner[p.name] = self.bind(Binding(p.name, elem), p)
                if o.where is not None:
                    self.expect(self.expr(o.where, inner, pure=True), T.BOOL, o.where, "a move's condition")
                self.block(o.body, inner, in_trigger)
        elif isinstance(s, A.Reveal):
            self.zone_ref(s.zone, scope)
            self.expect(self.expr(s.to, scope), T.PLAYER, s.to, "the player who sees")
            self.block(s.body, scope, in_trigger)
        elif isinstance(s, A.AtOnce):
            if _contains_choice(s.body, m.procedures):
                self.error("E206", "`at once` cannot ask a player to choose; its effects happen together", s)
            self.block(s.body, scope, in_trigger)
        elif isinstance(s, A.EndGame):
            pass
        elif isinstance(s, A.CallStmt):
            proc = m.procedures.get(s.name)
            if proc is None:
                hint = _suggest(s.name, m.procedures)
                if s.name in m.defines:
                    hint = f"`{s.name}` is a define (a value); only a procedure can be a statement"
                self.error("E200", f"unknown procedure `{s.name}`", s, hint)
            else:
                if len(s.args) != len(proc.params):
                    self.error("E203", f"`{s.name}` takes {len(proc.params)} argument(s), not {len(s.args)}", s)
                if in_trigger and _contains_choice(proc.body, m.procedures):
                    self.error("E206", f"a trigger cannot call `{s.name}`, which asks a player to choose", s)
                if self._owner is not None:
                    self.calls.setdefault(self._owner, set()).add(s.name)
            for a in s.args:
                self.expr(a, scope)

    def assign_target(self, s: A.Assign, scope: dict) -> str:
        m = self.model
        if s.name in scope and not s.indices:
            m.bindings[s] = scope[s.name]
            return scope[s.name].type
        var = m.vars.get(s.name)
        if var is None:
            hint = _suggest(s.name, list(m.vars) + list(scope))
            if s.name in m.params:
                hint = f"`{s.name}` is a parameter; parameters are fixed when the game starts"
            self.error("E200", f"unknown variable `{s.name}`", s, hint)
            for i in s.indices:
                self.expr(i, scope)
            return T.ANY
        self.indices(var.dims, s.indices, scope, s, s.name)
        return var.type

    def indices(self, dims: list, given: tuple, scope: dict, node, name: str) -> None:
        if len(dims) != len(given):
            if not dims:
                self.error("E205", f"`{name}` has no index", node)
            else:
                want = f"{len(dims)} index" + ("es" if len(dims) > 1 else "")
                self.error("E205", f"`{name}` needs {want}, but {len(given)} {'is' if len(given) == 1 else 'are'} given",
                           node, f"write {name}[{', '.join(_dim_word(d) for d in dims)}]")
        for dim, expr in zip(dims, given):
            t = self.expr(expr, scope)
            want = T.PLAYER if dim[0] == "player" else T.enum(dim[1]) if dim[0] == "enum" else T.INT
            self.expect(t, want, expr, f"the index of `{name}`")

    def zone_ref(self, ref: A.ZoneRef, scope: dict) -> str:
        zone = self.model.zones.get(ref.name)
        if zone is None:
            self.error("E200", f"unknown zone `{ref.name}`", ref, _suggest(ref.name, self.model.zones))
            for i in ref.indices:
                self.expr(i, scope)
            return T.ANY
        self.indices(zone.dims, ref.indices, scope, ref, ref.name)
        return zone.type

    # ------------------------------------------------------------ expressions

    def expr(self, e, scope: dict, pure: bool = False, static: bool = False) -> str:
        m = self.model
        if isinstance(e, A.IntLit):
            return T.INT
        if isinstance(e, A.StrLit):
            return T.STR
        if isinstance(e, A.BoolLit):
            return T.BOOL
        if isinstance(e, A.NoneLit):
            return T.NONE
        if isinstance(e, A.Name):
            return self.name(e, scope, static)
        if isinstance(e, A.Attr):
            obj = self.expr(e.obj, scope, pure, static)
            if e.name == "kind":
                want = T.CARD
                result = T.KIND
            elif e.name == "id":
                want, result = T.CARD, T.INT
            else:
                want = T.CARD
                result = m.attributes.get(e.name)
                if result is None:
                    self.error("E201", f"no card kind has an attribute `{e.name}`", e,
                               _suggest(e.name, list(m.attributes) + ["kind"]))
                    result = T.ANY
            if not T.fits(obj, want):
                self.error("E202", f"`.{e.name}` reads an attribute of a card, not of {T.describe(obj)}", e)
            return result
        if isinstance(e, A.Index):
            if not isinstance(e.obj, A.Name):
                self.error("E205", "only a zone or a variable can be indexed", e)
                return T.ANY
            name = e.obj.name
            if name in m.zones:
                zone = m.zones[name]
                self.indices(zone.dims, e.indices, scope, e, name)
                return zone.type
            if name in m.vars:
                var = m.vars[name]
                self.indices(var.dims, e.indices, scope, e, name)
                return var.type
            self.error("E200", f"unknown zone or variable `{name}`", e.obj, _suggest(name, list(m.zones) + list(m.vars)))
            for i in e.indices:
                self.expr(i, scope, pure)
            return T.ANY
        if isinstance(e, A.Call):
            return self.call(e, scope, pure, static)
        if isinstance(e, A.Aggregate):
            result = T.AGGREGATES.get(e.func)
            if e.func == "random":
                result = T.CARD
                if pure:
                    self.error("E206", "`random` cannot be used where the state must not change "
                                       "(conditions, defines, triggers' tests)", e)
            if result is None:
                self.error("E200", f"unknown quantifier `{e.func}`", e,
                           _suggest(e.func, list(T.AGGREGATES) + ["random"]) or "use any, all, count, cards or random")
                result = T.ANY
            inner = self._bind_domain(e, scope, pure, static)
            if e.where is not None:
                self.expect(self.expr(e.where, inner, pure, static), T.BOOL, e.where, "a `where` condition")
            elem = inner[e.var].type
            if e.func in ("cards", "random") and elem not in (T.CARD, T.ANY):
                self.error("E202", f"`{e.func}` picks cards; this domain holds {T.describe(elem)}", e)
            return result
        if isinstance(e, A.Fold):
            if e.func not in T.FOLDS:
                self.error("E200", f"unknown fold `{e.func}`", e, _suggest(e.func, T.FOLDS) or "use sum, min or max")
            inner = self._bind_domain(e, scope, pure, static)
            if e.where is not None:
                self.expect(self.expr(e.where, inner, pure, static), T.BOOL, e.where, "a `where` condition")
            self.expect(self.expr(e.expr, inner, pure, static), T.INT, e.expr, f"what `{e.func}` adds up")
            return T.INT
        if isinstance(e, A.SetLit):
            types = [self.expr(i, scope, pure, static) for i in e.items]
            first = next((t for t in types if t != T.ANY), T.ANY)
            for t, item in zip(types, e.items):
                if not T.fits(t, first):
                    self.error("E202", f"a set holds values of one type; this is {T.describe(t)}, "
                                       f"not {T.describe(first)}", item)
            return T.set_of(first)
        if isinstance(e, A.Range):
            self.expect(self.expr(e.low, scope, pure, static), T.INT, e.low, "a range's start")
            self.expect(self.expr(e.high, scope, pure, static), T.INT, e.high, "a range's end")
            return T.RANGE
        if isinstance(e, A.IfExpr):
            self.expect(self.expr(e.cond, scope, pure, static), T.BOOL, e.cond, "a condition")
            a = self.expr(e.then, scope, pure, static)
            b = self.expr(e.otherwise, scope, pure, static)
            if not (T.fits(a, b) or T.fits(b, a)):
                self.error("E202", f"both branches should give the same type: {T.describe(a)} and {T.describe(b)}", e)
            return b if a in (T.NONE, T.ANY) else a
        if isinstance(e, A.BinOp):
            lt = self.expr(e.left, scope, pure, static)
            rt = self.expr(e.right, scope, pure, static)
            result, problem = T.binop(e.op, lt, rt)
            if problem:
                self.error("E202", problem, e)
            return result
        if isinstance(e, A.Not):
            self.expect(self.expr(e.operand, scope, pure, static), T.BOOL, e.operand, "`not`'s operand")
            return T.BOOL
        if isinstance(e, A.Neg):
            self.expect(self.expr(e.operand, scope, pure, static), T.INT, e.operand, "a negated value")
            return T.INT
        self.error("E202", "this expression cannot be used here", e)
        return T.ANY

    def _bind_domain(self, e, scope, pure, static) -> dict:
        t = self.expr(e.domain, scope, pure, static)
        elem = T.element(t)
        if elem is None:
            self.error("E202", f"`each {e.var} in ...` runs over players, an enum, a zone or a range, "
                               f"not {T.describe(t)}", e.domain)
            elem = T.ANY
        inner = dict(scope)
        inner[e.var] = self.bind(Binding(e.var, elem), e)
        return inner

    def name(self, e: A.Name, scope: dict, static: bool) -> str:
        m = self.model
        n = e.name
        if n in scope:
            m.bindings[e] = scope[n]
            return scope[n].type
        if static:
            if n in m.enum_values:
                return T.enum(m.enum_values[n][0])
            if n in m.params:
                return m.params[n].type
            self.error("E200", f"unknown name `{n}` (here only attributes, enum values and parameters can be used)",
                       e, _suggest(n, list(scope) + list(m.enum_values) + list(m.params)))
            return T.ANY
        if n in T.SPECIAL_NAMES:
            return T.SPECIAL_NAMES[n]
        if n in m.params:
            return m.params[n].type
        if n in m.vars:
            var = m.vars[n]
            if var.dims:
                self.error("E205", f"`{n}` has one value per {', '.join(_dim_word(d) for d in var.dims)}; "
                                   f"say which", e, f"write {n}[{', '.join(_dim_word(d) for d in var.dims)}]")
            return var.type
        if n in m.defines:
            d = m.defines[n]
            if d.params:
                self.error("E203", f"`{n}` takes {len(d.params)} argument(s)", e, f"write {n}({', '.join(d.params)})")
            if self._owner is not None:
                self.calls.setdefault(self._owner, set()).add(n)
            return self._define_type(d)
        if n in m.enum_values:
            return T.enum(m.enum_values[n][0])
        if n in m.enums:
            return T.enum_type(n)
        if n in m.kinds:
            return T.KIND
        if n in m.zones:
            zone = m.zones[n]
            if zone.dims:
                self.error("E205", f"zone `{n}` has one zone per {', '.join(_dim_word(d) for d in zone.dims)}; "
                                   f"say which", e, f"write {n}[{', '.join(_dim_word(d) for d in zone.dims)}]")
            return zone.type
        candidates = (list(scope) + list(m.params) + list(m.vars) + list(m.defines) + list(m.enum_values)
                      + list(m.enums) + list(m.zones) + list(T.SPECIAL_NAMES))
        self.error("E200", f"unknown name `{n}`", e, _suggest(n, candidates))
        return T.ANY

    def _define_type(self, d: A.DefineDef) -> str:
        """The type a define gives, worked out from its body with parameters of unknown type."""
        cache = getattr(self, "_define_types", None)
        if cache is None:
            cache = self._define_types = {}
        if d.name not in cache:
            cache[d.name] = T.ANY  # guards against cycles, which are reported separately
            saved_errors, saved_owner = len(self.errors), self._owner
            saved_bindings = dict(self.model.bindings)
            scope = {p: Binding(p, T.ANY) for p in d.params}
            self._owner = d.name
            cache[d.name] = self.expr(d.body, scope, pure=True)
            self._owner = saved_owner
            del self.errors[saved_errors:]  # the body's own check reports them once
            self.model.bindings = saved_bindings
        return cache[d.name]

    def call(self, e: A.Call, scope: dict, pure: bool, static: bool) -> str:
        m = self.model
        args = [self.expr(a, scope, pure, static) for a in e.args]
        if e.name in m.defines:
            d = m.defines[e.name]
            if len(args) != len(d.params):
                self.error("E203", f"`{e.name}` takes {len(d.params)} argument(s), not {len(args)}", e,
                           f"write {e.name}({', '.join(d.params)})")
            if self._owner is not None:
                self.calls.setdefault(self._owner, set()).add(e.name)
            return self._define_type(d)
        if e.name == "top" and len(args) == 2:
            sig, result, is_pure = T.TOP_N[0], T.TOP_N[1], True
        elif e.name in T.BUILTINS:
            sig, result, is_pure = T.BUILTINS[e.name]
        else:
            hint = _suggest(e.name, list(m.defines) + list(T.BUILTINS))
            if e.name in m.procedures:
                hint = f"`{e.name}` is a procedure; call it as a statement of its own"
            self.error("E200", f"unknown function `{e.name}`", e, hint)
            return T.ANY
        if not is_pure and pure:
            self.error("E206", f"`{e.name}` changes the state and cannot be used in a condition or a define", e)
        if len(args) != len(sig):
            self.error("E203", f"`{e.name}` takes {len(sig)} argument(s), not {len(args)}", e)
            return result
        for t, allowed, a in zip(args, sig, e.args):
            if not any(T.fits(t, want) for want in allowed):
                self.error("E202", f"`{e.name}` needs {' or '.join(T.describe(w) for w in allowed)} here, "
                                   f"not {T.describe(t)}", a)
        return result


def _dim_word(dim: tuple) -> str:
    if dim[0] == "player":
        return "player"
    if dim[0] == "enum":
        return dim[1]
    return f"{dim[1]}..{dim[2]}"


def _child_blocks(s):
    if isinstance(s, A.If):
        for _, body in s.branches:
            yield body
        if s.otherwise is not None:
            yield s.otherwise
    elif isinstance(s, (A.For, A.Repeat, A.While, A.Turns, A.Reveal, A.AtOnce)):
        yield s.body
    elif isinstance(s, A.Choose):
        for o in s.options:
            yield o.body


def _contains_choice(stmts, procedures, seen=None) -> bool:
    seen = seen or set()
    for s in stmts:
        if isinstance(s, A.Choose):
            return True
        if isinstance(s, A.CallStmt) and s.name in procedures and s.name not in seen:
            seen.add(s.name)
            if _contains_choice(procedures[s.name].body, procedures, seen):
                return True
        for child in _child_blocks(s):
            if _contains_choice(child, procedures, seen):
                return True
    return False


@attrs.frozen
class _At:
    """A bare position, for an error about a part of a node that is not a node itself."""

    span: object


def _template_fields(template: str) -> tuple[list[str], str | None]:
    """The attribute names a `show` text uses, and what is wrong with it (None when nothing)."""
    import string

    try:
        parts = list(string.Formatter().parse(template))
    except ValueError:
        return [], "has a '{' or '}' without its partner"
    fields = []
    for _, field, spec, conversion in parts:
        if field is None:
            continue
        if not field.isidentifier() or spec or conversion:
            text = "{" + field + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            return fields, f"has the field {text}, which is not an attribute name"
        fields.append(field)
    return fields, None


def _type_of_value(value) -> str:
    if isinstance(value, bool):
        return T.BOOL
    if isinstance(value, int):
        return T.INT
    return T.STR


def _parse_value(text: str, type_: str):
    if type_ == T.BOOL:
        return {"true": True, "false": False}.get(text.strip().lower())
    if type_ == T.INT:
        try:
            return int(text.strip())
        except ValueError:
            return None
    return text


def _nowhere(assembly):
    from .errors import Span

    first = next(iter(assembly.texts), "<rules>")
    return Span(first)



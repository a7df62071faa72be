"""The declarations of a rules file as symbol tables: the :class:`Model` the checker fills in.

:class:`Declarations` is the first half of the checker: it reads every
declaration (enums, kinds, zones and their members, variables, parameters)
into the model's tables, works out constants (parameters, index ranges,
track sizes) and reports what is wrong with the declarations themselves. The
checker (:mod:`ruledsl.check`) then checks the bodies against these tables.
"""

from __future__ import annotations

import difflib
import string

import attrs

from ..language import ast as A
from ..language import bounds
from ..language.errors import ParameterError
from ..language.parse import keywords
from . import types as T
from .constants import Constants
from .tables import TableInfo, Tables
from .limits import MAX_PLAYERS, MAX_SLOTS, MAX_VALUES, MAX_ZONES

ZONE_SHAPES = ("pile", "row", "track")
VISIBILITIES = ("hidden", "owner", "others", "public", "top")
VAR_TYPES = ("int", "bool", "player", "card")
VAR_VISIBILITIES = ("public", "owner", "hidden")
DEFAULT_LIMIT = 10000
MAX_INDEX_SIZE = 1000  # the most values one index range may have
# the index of a declaration whose index was reported as wrong: any index is taken where it is used
BAD_DIM = ("range", 0, 0, "error")
DEFAULT_MEMBERS = 32  # the most members a growing family has at once, unless max_members(N) says
ZONE_EXTRAS = ("max_members",)


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
    dims: list  # each ("player",) or ("enum", name) or ("range", low, high) or ("grow", 1, most)
    shape: str
    size: int  # slots of a track
    visibility: str
    node: object
    members: dict = attrs.Factory(dict)  # member name -> "zone" or "var" (stored as families "F.m")
    sizes: dict | None = None  # a track whose slots depend on the player count: count -> slots
    dims_by: dict | None = None  # index ranges that depend on the player count: count -> dims

    @property
    def grows(self) -> bool:
        return bool(self.dims) and self.dims[-1][0] == "grow"

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
    visibility: str = "public"  # who sees it: public, owner (the player of its first index) or hidden
    shown: bool = True  # False: `unshown`, bookkeeping that the table leaves out (seen all the same)
    dims_by: dict | None = None  # index ranges that depend on the player count: count -> dims


@attrs.define
class ParamInfo:
    name: str
    value: object
    type: str
    doc: str | None
    node: object
    accepted: tuple | None = None  # (low, high) of `param NAME = V in LOW..HIGH`
    default: object = None  # the file's own value (``value`` is the one given, if any)


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
    statistics: dict = attrs.Factory(dict)  # `statistic NAME = EXPR`, by name, in file order
    statistic_shares: set = attrs.Factory(set)  # the statistics that are true/false (a share of games)
    flow: object = None
    extensions: dict = attrs.Factory(dict)  # choice name -> extra options
    bindings: dict = attrs.Factory(dict)  # Name / binding node -> Binding
    grown: dict = attrs.Factory(dict)  # zone or variable family with a growing index -> its "#F" flags
    member_refs: dict = attrs.Factory(dict)  # `F[...].m` Attr node -> the member family "F.m"
    tables: dict = attrs.Factory(dict)  # table name -> TableInfo
    results: dict = attrs.Factory(dict)  # a Call of a procedure that gives a result -> the result's type
    move_labels: dict = attrs.Factory(dict)  # OptionParam with `as` -> {number: label} or (template, name)
    copies: dict = attrs.Factory(dict)  # DeckCopies with a count worked out at setup -> its copies
    copies_by: dict = attrs.Factory(dict)  # ... whose count depends on the player count -> {count: copies}
    kinds_in_play: set = attrs.Factory(set)  # kinds some `cards ... in` declaration puts in the game
    card_count: int = 0  # the number of cards in the game, known once the compiler expands the decks

    players_fixed: int | None = None  # the player count of a model made by `for_players`

    @property
    def by_players(self) -> bool:
        """Some size depends on the player count: each count is compiled on its own (`for_players`)."""
        return (any(z.sizes or z.dims_by for z in self.zones.values()) or any(v.dims_by for v in self.vars.values())
                or bool(self.copies_by))

    def for_players(self, n: int) -> "Model":
        """This model with every size worked out for ``n`` players (a shallow copy: the bodies are shared)."""
        zones = {name: attrs.evolve(z, size=z.sizes[n] if z.sizes else z.size,
                                    dims=list(z.dims_by[n]) if z.dims_by else z.dims)
                 for name, z in self.zones.items()}
        var_table = {name: attrs.evolve(v, dims=list(v.dims_by[n])) if v.dims_by else v
                     for name, v in self.vars.items()}
        copies = {**self.copies, **{d: by[n] for d, by in self.copies_by.items()}}
        return attrs.evolve(self, zones=zones, vars=var_table, copies=copies, copies_by={}, players_fixed=n)

    def copies_of(self, d) -> int:
        """The copies of `N * deck` (N a number, or worked out at setup)."""
        return self.copies.get(d, d.copies)

    def dim_size(self, dim: tuple) -> int:
        if dim[0] == "player":
            return self.max_players
        if dim[0] == "card":
            return self.card_count  # set by the compiler once the decks are expanded
        if dim[0] == "enum":
            return len(self.enums[dim[1]].values)
        return dim[2] - dim[1] + 1  # a range, or the most members of a growing index


def _suggest(name: str, candidates) -> str | None:
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None


# the hidden per-player flag that says a player has left the game (declared when the rules use `leave`)
SEATS_OUT = "#out"


class Declarations(Constants, Tables):
    """Reading declarations into the model's tables (a part of the checker; needs ``model``,
    ``assembly`` and ``error``)."""

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
                same = [getattr(old, "name", None) for old in items if type(old) is type(new)]
                hint = _suggest(getattr(new, "name", ""), [n for n in same if n])
                self.error("E210", f"`replace` names {what} `{getattr(new, 'name', '')}`, which the base file does not define",
                           rep, hint or "to add a new definition, leave out `replace`")
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
        elif isinstance(item, A.TableDef):
            m.tables[item.name] = TableInfo(item.name, [BAD_DIM], [None], T.ANY, item)
        elif isinstance(item, A.ProcedureDef):
            m.procedures[item.name] = item
        elif isinstance(item, A.TriggerDef):
            m.triggers.append(item)
        elif isinstance(item, A.InvariantDef):
            m.invariants.append(item)
        elif isinstance(item, A.WinnerDef):
            m.winner = item
        elif isinstance(item, A.StatisticDef):
            m.statistics[item.name] = item
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
                  ("param", m.params), ("table", m.tables), ("define", m.defines), ("procedure", m.procedures)]
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
            info.default = value
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

    def _check_family_size(self, item, dims: list, what: str, most: int) -> None:
        """A family indexed by huge ranges would take all memory: refuse it before it is built."""
        total = 1
        for d in dims:
            total *= self.model.dim_size(d)
        if total > most:
            self.error("E205", f"{what} `{item.name}` has {total:,} entries, more than ruledsl allows "
                               f"(at most {most:,})", item, "make its index ranges smaller")
            dims[:] = [BAD_DIM] * len(dims)

    def _dims(self, index: tuple, growing: int = 0, bound_of: tuple | None = None) -> list:
        """The dimensions of an index; ``growing`` is the most members a `*` dimension may have (0: none);
        ``bound_of`` is (move, period) when the index is that of a move bound's counts.
        Ranges that depend on the player count are given as their widest; ``self._dims_by`` holds them
        for each count (None when no range depends on it)."""
        dims = []
        per_count: dict = {}
        for n, d in enumerate(index):
            if d.grows:
                if not growing:
                    self.error("E205", "only a zone family can grow (`*`)", d,
                               "give a variable that lives with each member inside the zone's { ... }")
                elif n != len(index) - 1:
                    self.error("E205", "the growing index `*` must come last", d)
                dims.append(("grow", 1, max(growing, 1)))
            elif d.name is None and d.high is None:
                self.error("E205", "an index is `player`, an enum, a range like 1..10 or `*`", d)
                dims.append(BAD_DIM)
            elif d.name is None:
                dim, by = self._range_dim(d)
                dims.append(dim)
                if by:
                    per_count[len(dims) - 1] = by
            elif d.name == "player":
                dims.append(("player",))
            elif d.name == "card":
                dims.append(("card",))
            elif d.name in self.model.enums:
                dims.append(("enum", d.name))
            elif bound_of is not None and d.name in self.model.zones:
                self.error("E202", (f"the bound of move `{bound_of[0]}` counts by a parameter that runs over the "
                                    f"cards of `{d.name}`; a move is counted apart by players, enum values or "
                                    "numbers of a range only"), d,
                           "count by a parameter such as `q in players`, or leave its `per` out")
                dims.append(BAD_DIM)
            else:
                self.error("E200", f"unknown index `{d.name}`: an index is `player`, `card`, an enum or a range "
                                   "like 1..10", d, _suggest(d.name, list(self.model.enums) + ["player", "card"]))
                dims.append(BAD_DIM)
        self._dims_by = None
        if per_count:
            counts = range(self.model.min_players, self.model.max_players + 1)
            self._dims_by = {n: [per_count[i][n] if i in per_count else dim for i, dim in enumerate(dims)]
                             for n in counts}
        return dims

    def _range_dim(self, d) -> tuple:
        """An index range `LOW..HIGH`: its dimension (the widest, for checking), and {count: dimension}
        when an end depends on the player count (else None)."""
        low, lows = self._sized(d.low, lambda v, n: v)
        high, highs = self._sized(d.high, lambda v, n: v)
        if not lows and not highs:
            return self._range_of(d, low, high, None), None
        counts = range(self.model.min_players, self.model.max_players + 1)
        reported = self.errors[:] if hasattr(self, "errors") else None
        by = {}
        for n in counts:
            by[n] = self._range_of(d, (lows or {}).get(n, low), (highs or {}).get(n, high), n)
            if reported is not None and len(self.errors) > len(reported):
                by = {k: BAD_DIM for k in counts}  # one count's fault is told; the rest would repeat it
                break
        if any(v == BAD_DIM for v in by.values()):
            return BAD_DIM, None
        return ("range", min(v[1] for v in by.values()), max(v[2] for v in by.values())), by

    def _range_of(self, d, low, high, n) -> tuple:
        """The dimension of the range `low..high` (for ``n`` players, None: every count), or BAD_DIM."""
        if not (isinstance(low, int) and isinstance(high, int)) or isinstance(low, bool) or isinstance(high, bool):
            if low is not None and high is not None:
                self.error("E205", "an index range runs between two numbers", d)
            return BAD_DIM
        at = f" with {n} players" if n is not None else ""
        if high < low:
            self.error("E205", f"the index range {low}..{high} is empty{at}", d,
                       "a range written with parameters needs a size of at least 1")
        elif high - low + 1 > MAX_INDEX_SIZE:
            self.error("E205", f"the index range {low}..{high}{at} has {high - low + 1} values, "
                               f"more than the {MAX_INDEX_SIZE} an index may have", d)
            high = low
        return ("range", low, max(low, high))

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
            zone.dims = self._dims(item.index, self._most_members(item))
            zone.dims_by = self._dims_by
            self._check_family_size(item, zone.dims, "zone", MAX_ZONES)
            self._zone_options(zone, item)
            if item.members:
                self._declare_members(zone, item)
            if zone.grows:
                m.grown[zone.name] = "#" + zone.name
                m.vars["#" + zone.name] = VarInfo("#" + zone.name, zone.dims, T.BOOL, None, item, dims_by=zone.dims_by)
                if zone.shape == "track":
                    self.error("E209", "a growing zone family cannot be a track", item, "use a row or a pile")
        elif isinstance(item, A.TableDef) and m.tables.get(item.name) and m.tables[item.name].node is item:
            self._declare_table(item)
        elif isinstance(item, A.VarDef) and m.vars.get(item.name) and m.vars[item.name].node is item:
            var = m.vars[item.name]
            var.dims = self._dims(item.index, bound_of=bounds.read_uses(item.name))
            var.dims_by = self._dims_by
            self._check_family_size(item, var.dims, "variable", MAX_VALUES)
            self._var_type(var, item)
            self._var_visibility(var, item)

    def _most_members(self, item: A.ZoneDef) -> int:
        opts = [o for o in item.options if o.name == "max_members"]
        if not any(d.grows for d in item.index):
            for o in opts:
                self.error("E209", "`max_members` bounds a growing family; this zone has no `*` index", o)
            return 0
        if not opts:
            return DEFAULT_MEMBERS
        if opts[0].arg is None:
            self.error("E209", "`max_members` needs a number, as in max_members(20)", opts[0])
            return DEFAULT_MEMBERS
        most = self._const(opts[0].arg)
        if isinstance(most, int) and not 1 <= most <= MAX_INDEX_SIZE:
            self.error("E209", f"`max_members` must be from 1 to {MAX_INDEX_SIZE}, not {most}", opts[0])
        return most if isinstance(most, int) and 1 <= most <= MAX_INDEX_SIZE else DEFAULT_MEMBERS

    def _declare_members(self, zone: ZoneInfo, item: A.ZoneDef) -> None:
        """Zones and variables that live with each member: stored as families `F.m` with F's indices."""
        m = self.model
        if not zone.dims:
            self.error("E209", f"zone `{zone.name}` is a single zone; only a family (with an index) has members",
                       item, "declare a plain `var` instead")
            return
        for sub in item.members:
            if sub.name in zone.members:
                self.error("E204", f"zone `{zone.name}` has two members named `{sub.name}`", sub)
                continue
            if sub.index:
                self.error("E205", f"`{sub.name}` has the indices of `{zone.name}`; write it without [...]", sub)
            if sub.name in keywords():
                self.error("E204", f"`{sub.name}` is a word of the language; choose another name", sub)
            full = f"{zone.name}.{sub.name}"
            if isinstance(sub, A.ZoneDef):
                if sub.members:
                    self.error("E209", "a member zone cannot have members of its own", sub)
                info = ZoneInfo(full, list(zone.dims), "pile", 0, "hidden", sub, dims_by=zone.dims_by)
                self._zone_options(info, sub)
                if info.shape == "track":
                    self.error("E209", "a member zone cannot be a track", sub, "use a row or a pile")
                m.zones[full] = info
                zone.members[sub.name] = "zone"
            else:
                info = VarInfo(full, list(zone.dims), sub.type, sub.init, sub, dims_by=zone.dims_by)
                self._var_type(info, sub)
                self._var_visibility(info, sub)
                m.vars[full] = info
                zone.members[sub.name] = "var"
            if zone.grows:
                m.grown[full] = "#" + zone.name

    def _var_visibility(self, var: VarInfo, item: A.VarDef) -> None:
        var.shown = item.shown
        if item.visibility is None:
            return
        if " " in item.visibility:
            self.error("E209", f"variable `{item.name}` has two visibilities, `{item.visibility}`", item,
                       "a variable is public (the default), owner or hidden, and may be marked unshown")
            return
        if item.visibility not in VAR_VISIBILITIES:
            self.error("E209", f"unknown variable visibility `{item.visibility}`", item,
                       _suggest(item.visibility, VAR_VISIBILITIES) or "a variable is public (the default), owner or hidden")
            return
        var.visibility = item.visibility
        if var.visibility == "owner" and not (var.dims and (var.dims[0][0] == "player" or var.dims[0] == BAD_DIM)):
            self.error("E209", f"variable `{item.name}` is seen by its owner, but it has no owner", item,
                       f"give it one value per player, first: var {item.name}[player]: {item.type} owner")

    def _var_type(self, var: VarInfo, item: A.VarDef) -> None:
        m = self.model
        if item.type in VAR_TYPES:
            var.type = item.type
        elif item.type in m.enums:
            var.type = T.enum(item.type)
        else:
            self.error("E200", f"unknown variable type `{item.type}`", item,
                       _suggest(item.type, list(VAR_TYPES) + list(m.enums)) or "use int, bool, player, card or an enum")
            var.type = T.ANY

    def _zone_options(self, zone: ZoneInfo, item: A.ZoneDef) -> None:
        shapes = [o for o in item.options if o.name in ZONE_SHAPES]
        seen_vis = [o for o in item.options if o.name in VISIBILITIES]
        for o in item.options:
            if o.name not in ZONE_SHAPES and o.name not in VISIBILITIES and o.name not in ZONE_EXTRAS:
                self.error("E209", f"unknown zone option `{o.name}`", o,
                           _suggest(o.name, ZONE_SHAPES + VISIBILITIES + ZONE_EXTRAS)
                           or "a zone is a pile, row or track(N), and hidden, owner, others, public or top")
        if len(shapes) > 1 or len(seen_vis) > 1:
            self.error("E209", f"zone `{item.name}` has more than one shape or visibility", item)
        if shapes:
            zone.shape = shapes[0].name
            if zone.shape == "track":
                if shapes[0].arg is None:
                    self.error("E209", "a track needs its number of slots, as in track(16)", shapes[0])
                    zone.size = 1
                else:
                    zone.size, zone.sizes = self._sized(shapes[0].arg, self._slots_check(shapes[0]))
                    if zone.sizes:
                        zone.size = min(zone.sizes.values())  # what a constant slot is checked against
            elif shapes[0].arg is not None:
                self.error("E209", f"a {zone.shape} takes no size; only a track has slots", shapes[0])
        if seen_vis:
            zone.visibility = seen_vis[0].name
            if zone.visibility in ("owner", "others") and not any(d[0] == "player" or d == BAD_DIM
                                                                 for d in zone.dims):
                who = "its owner" if zone.visibility == "owner" else "everybody but its owner"
                self.error("E209", f"zone `{item.name}` is seen by {who}, but it has no owner",
                           seen_vis[0], f"give it one zone per player: zone {item.name}[player]")
            if zone.visibility == "top" and zone.shape == "track":
                self.error("E209", f"track `{item.name}` has no top card: its slots lie side by side", seen_vis[0],
                           "make it public, or a pile or row whose top card everybody sees")

    def _slots_check(self, option):
        """The check of a track's slots, for `_sized`: one fault is told once, not for every count."""
        told = []

        def check(size, n):
            whole = isinstance(size, int) and not isinstance(size, bool)
            at = f" with {n} players" if n is not None else ""
            if told or size is None:
                return size if whole and 1 <= size <= MAX_SLOTS else 1
            if not whole:
                self.error("E209", f"the slots of a track are a number, not {size!r}", option.arg)
            elif size < 1:
                self.error("E209", f"a track needs at least one slot; this one has {size}{at}" if n is not None
                           else "a track needs at least one slot", option)
            elif size > MAX_SLOTS:
                self.error("E209", f"a track of {size} slots{at} is more than ruledsl allows "
                                   f"(at most {MAX_SLOTS:,})", option.arg)
            else:
                return size
            told.append(n)
            return 1

        return check

def _dim_word(dim: tuple) -> str:
    if dim[0] in ("player", "card"):
        return dim[0]
    if dim[0] == "enum":
        return dim[1]
    if dim[0] == "grow":
        return "i"
    return f"{dim[1]}..{dim[2]}"


@attrs.frozen
class _At:
    """A bare position, for an error about a part of a node that is not a node itself."""

    span: object


def _template_fields(template: str) -> tuple[list[str], str | None]:
    """The attribute names a `show` text uses, and what is wrong with it (None when nothing)."""
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

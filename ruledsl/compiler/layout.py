"""The card universe and the layout of the table: which cards exist, which zones and variables.

:class:`Layout` is the part of the compiler that turns the model's
declarations into numbered things: card ids with their attributes and labels
(decks expanded), zone instances (one per index value, tracks with their
places, members of growing families with their open flags) and variable
slots. The rest of the compiler (:mod:`ruledsl.compile`) generates code that
refers to these numbers.
"""

from __future__ import annotations

import itertools
import string

import attrs

from ..checker import types as T
from ..checker.declare import SEATS_OUT
from ..checker.limits import index_fits
from ..language import ast as A
from ..language.assemble import diag
from ..language.errors import RulesError, RulesRuntimeError
from .members import family_of


@attrs.define(eq=False)
class ZoneInstance:
    zid: int
    name: str  # e.g. hand[2]
    family: str
    index: tuple
    shape: str
    visibility: str
    owner: int | None  # the player a per-player zone belongs to
    places: tuple = ()  # a track's slots, as indices into the board's places
    exists: int | None = None  # a member of a growing family: the variable slot that says it is open



class Layout:
    """Numbering cards, zones and variables (a part of the compiler; needs ``m``, ``expr``)."""

    def _var_exists(self) -> dict:
        out = {}
        for name, flag_name in self.m.grown.items():
            if name in self.var_families and not name.startswith("#"):
                base, sizes, _ = self.var_families[name]
                flags = self.var_families[flag_name][0]
                out.update((base + i, flags + i) for i in range(_product(sizes)))
        return out

    def _flag_slots(self) -> frozenset:
        out = set()
        for flag_name in set(self.m.grown.values()) | ({SEATS_OUT} & set(self.var_families)):
            base, sizes, _ = self.var_families[flag_name]
            out.update(range(base, base + _product(sizes)))
        return frozenset(out)
    def _default(self, type_: str):
        return {T.INT: 0, T.BOOL: False, T.PLAYER: 0}.get(type_)

    def _cards(self) -> None:
        self.card_total = 0
        self.card_kind: list = []
        self.card_labels: list = []
        self.card_attrs: dict = {name: [] for name in self.m.attributes}
        self.kind_has: dict = {name: [] for name in self.m.attributes}

    def _add_card(self, kind, values: dict) -> None:
        self.card_total += 1
        self.card_kind.append(kind.name)
        for name, column in self.kind_has.items():
            column.append(name in kind.attributes)
        for name, column in self.card_attrs.items():
            column.append(values.get(name))
        self.card_labels.append(self._label(kind, values))

    def _label(self, kind, values: dict) -> str:
        if not kind.show:
            parts = ", ".join(f"{k}: {self._value_text(kind.attributes[k], v)}" for k, v in values.items())
            return f"{kind.name}({parts})" if parts else kind.name
        shown = {k: self._value_text(kind.attributes[k], v) for k, v in values.items()}
        shown["kind"] = kind.name
        shown["id"] = str(self.card_total - 1)
        return string.Formatter().vformat(kind.show, (), _Default(shown))

    def _value_text(self, attr, value) -> str:
        if value is None:
            return "none"
        if attr.type.startswith("enum:"):
            return self.m.enums[attr.type[5:]].labels[value]
        if attr.labels and value in attr.labels:
            return attr.labels[value]
        return str(value).lower() if isinstance(value, bool) else str(value)

    def _deck(self, d) -> list:
        """A deck expression as a list of (kind, {attribute: value}), in order."""
        m = self.m
        if isinstance(d, A.DeckSum):
            return self._deck(d.left) + self._deck(d.right)
        if isinstance(d, A.DeckCopies):
            return self._deck(d.term) * m.copies_of(d)
        if isinstance(d, A.DeckRef):
            if d.name in m.decks:
                return self._deck(m.decks[d.name].deck)
            return self._deck(A.DeckCard(d.name, (), span=d.span))
        kind = m.kinds[d.kind]
        given = {f.name: f for f in d.fields}
        axes = []
        for name, attr in kind.attributes.items():
            if attr.derived is not None:
                continue
            f = given.get(name)
            if f is None or f.value is None:
                axes.append([(name, v) for v in self._attr_values(attr)])
            else:
                value = self._static(f.value, {})
                if isinstance(value, (list, tuple, range, frozenset)):
                    axes.append([(name, v) for v in value])
                else:
                    axes.append([(name, value)])
        cards = []
        for combo in itertools.product(*axes):
            values = dict(combo)
            for name, attr in kind.attributes.items():
                if attr.derived is not None:
                    values[name] = self._static(attr.derived, values)
            cards.append((kind, {k: values[k] for k in kind.attributes}))
        return cards

    def _attr_values(self, attr) -> list:
        if attr.type.startswith("enum:"):
            return list(range(len(self.m.enums[attr.type[5:]].values)))
        if attr.type == T.BOOL:
            return [False, True]
        return range(attr.low, attr.high + 1)

    def _static(self, e, names: dict):
        """Evaluate an expression that needs no game state (deck fields, derived attributes)."""
        fn, _ = self.expr(e, {}, statics=names)
        try:
            return fn(None, None)
        except RulesRuntimeError as err:
            reason = err.message
        except (TypeError, ValueError, IndexError, KeyError, ZeroDivisionError, AttributeError) as exc:
            reason = str(exc)
        raise RulesError([diag(self.m.texts, "E213", f"this value cannot be worked out: {reason}", e.span)])

    # ------------------------------------------------------------ zones, vars

    def _zones(self) -> None:
        m = self.m
        self.zone_list: list = []
        self.zone_families: dict = {}
        self.place_count = 0
        self.bits: dict = {}  # zone or variable family -> its bit in an effect's change mask
        for name in itertools.chain(m.zones, m.vars):
            if family_of(name) != name and family_of(name) in self.bits:
                self.bits[name] = self.bits[family_of(name)]  # a member or open flag changes with its family
            else:
                self.bits[name] = 1 << len(self.bits)
        for zone in m.zones.values():
            sizes = [m.dim_size(d) for d in zone.dims]
            base = len(self.zone_list)
            self.zone_families[zone.name] = (base, sizes, zone.dims)
            for flat, index in enumerate(itertools.product(*[range(n) for n in sizes])):
                owner = None
                for dim, i in zip(zone.dims, index):
                    if dim[0] == "player":
                        owner = i
                        break
                label = self._place_label(zone.name, zone.dims, index)
                places = ()
                if zone.shape == "track":
                    places = tuple(range(self.place_count, self.place_count + zone.size))
                    self.place_count += zone.size
                self.zone_list.append(ZoneInstance(base + flat, label, zone.name, index, zone.shape,
                                                   zone.visibility, owner, places))
        self._zone_flags = [(z, m.grown[z.family], z.zid - self.zone_families[z.family][0])
                            for z in self.zone_list if z.family in m.grown]
        # a connection makes two slots one place
        alias: dict[int, int] = {}
        for c in m.connects:
            a = self._static_zone(c.first)
            b = self._static_zone(c.second)
            pa = self.zone_list[a].places[self._static(c.first_slot, {})]
            pb = self.zone_list[b].places[self._static(c.second_slot, {})]
            alias[pb] = alias.get(pa, pa)
        if alias:
            for z in self.zone_list:
                if z.places:
                    z.places = tuple(alias.get(p, p) for p in z.places)
        self.zone_bit = [self.bits[z.family] for z in self.zone_list]
        self.place_bit = [0] * self.place_count
        for z in self.zone_list:
            for q in z.places:
                self.place_bit[q] |= self.bits[z.family]

    def _place_label(self, name, dims, index) -> str:
        """`hand[2]`, `meld[0, 3]`; a member zone or value: `meld[0, 3].pot`."""
        family, _, member = name.partition(".")
        text = family + ("[" + ", ".join(self._index_text(d, i) for d, i in zip(dims, index)) + "]" if dims else "")
        return text + ("." + member if member else "")

    def _index_text(self, dim, i) -> str:
        if dim[0] == "player":
            return str(i)
        if dim[0] == "card":  # a card's label, with its id when copies share the label: `used[S3 #11]`
            label = self.card_labels[i]
            return label if self.card_labels.count(label) == 1 else f"{label} #{i}"
        if dim[0] == "enum":
            return self.m.enums[dim[1]].values[i]
        return str(dim[1] + i)

    def _static_zone(self, ref: A.ZoneRef) -> int:
        base, sizes, dims = self.zone_families[ref.name]
        values = [self._static(i, {}) for i in ref.indices]
        if not index_fits(dims, sizes, values, self.m.min_players):
            shown = ", ".join("none" if v is None else str(v) for v in values)
            n = self.m.min_players
            hint = (f"a game of {n} players has players 0 to {n - 1}" if any(d[0] == "player" for d in dims)
                    else None)
            raise RulesError([diag(self.m.texts, "E205", f"`{ref.name}[{shown}]` is not a zone of `{ref.name}`",
                                   ref.span, hint)])
        return base + self._flat(dims, sizes, values)

    def _flat(self, dims, sizes, values) -> int:
        flat = 0
        for dim, size, v in zip(dims, sizes, values):
            if dim[0] in ("range", "grow"):
                v -= dim[1]
            flat = flat * size + v
        return flat

    def _vars(self) -> None:
        self.var_count = 0
        self.var_names: list = []
        self.var_families: dict = {}
        for var in self.m.vars.values():
            sizes = [self.m.dim_size(d) for d in var.dims]
            self.var_families[var.name] = (self.var_count, sizes, var.dims)
            for index in itertools.product(*[range(n) for n in sizes]):
                self.var_names.append(self._place_label(var.name, var.dims, index))
            self.var_count += _product(sizes)
        for z, flag_name, flat in getattr(self, "_zone_flags", ()):
            z.exists = self.var_families[flag_name][0] + flat


def _product(sizes) -> int:
    out = 1
    for n in sizes:
        out *= n
    return out

class _Default(dict):
    def __missing__(self, key):
        return "{" + key + "}"

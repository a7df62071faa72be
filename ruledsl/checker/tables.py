"""Tables of constants: `table points[rank] = { 1: 11, 10: 10, K: 4, else: 0 }` (docs §2.11.1).

A table names one constant value for each value of its index: an enum, a
range of numbers, or a card attribute (its range, where keys may be the
attribute's labels, or its enum). Every index value gets a value, or `else`
gives the rest. The values are worked out when the rules are loaded; a use
`points[c.rank]` is a lookup. A move's number may be shown by such names
(`move ask(r in 1..13 as rank)`, `as "{n} tricks"`): `_move_label`. :class:`Tables`
is a part of the checker (it needs ``model``, ``error``, ``_const`` and ``_dims``).
"""

from __future__ import annotations

import difflib
import re

import attrs

from ..language import ast as A
from . import types as T


@attrs.define
class TableInfo:
    name: str
    dims: list  # the one dimension of its index, as a zone's: ("enum", E) or ("range", low, high)
    values: list  # the value at each position of the index
    type: str
    node: object
    labels: dict = attrs.Factory(dict)  # a key that is an attribute's label -> its number


class Tables:
    """Reading `table` declarations (a part of the checker)."""

    def _declare_table(self, item: A.TableDef) -> None:
        m = self.model
        info = TableInfo(item.name, [("range", 0, 0, "error")], [None], T.ANY, item)
        m.tables[item.name] = info
        dim = self._table_dim(item, info)
        if dim is None:
            return
        info.dims = [dim]
        positions = len(m.enums[dim[1]].values) if dim[0] == "enum" else m.dim_size(dim)
        values: list = [None] * positions
        given = [False] * positions
        types = []
        fallback = None
        for entry in item.entries:
            value, t = self._table_value(entry.value)
            if entry.low is None:
                if fallback is not None:
                    self.error("E204", f"table `{item.name}` has two `else` values", entry)
                fallback = (value, t)
            else:
                for pos in self._table_keys(item.name, dim, info, entry):
                    if given[pos]:
                        self.error("E204", f"table `{item.name}` gives two values for "
                                           f"{self._key_text(dim, info, pos)}", entry)
                    given[pos], values[pos] = True, value
            if t != T.ANY:
                types.append((t, entry.value))
        if fallback is not None:
            values = [fallback[0] if not g else v for v, g in zip(values, given)]
        elif not all(given):
            missing = [self._key_text(dim, info, pos) for pos, g in enumerate(given) if not g]
            shown = ", ".join(missing[:6]) + (f" and {len(missing) - 6} more" if len(missing) > 6 else "")
            self.error("E205", f"table `{item.name}` gives no value for {shown}", item,
                       "give them, or one value for the rest: `else: 0`")
        if types:
            info.type = types[0][0]
            for t, node in types[1:]:
                if not (T.fits(t, info.type) or T.fits(info.type, t)):
                    self.error("E202", f"the values of table `{item.name}` are of one type: this one is "
                                       f"{T.describe(t)}, the first {T.describe(info.type)}", node)
        info.values = values

    def _table_dim(self, item: A.TableDef, info: TableInfo):
        """The dimension of a table's index, or None after an error."""
        m = self.model
        d = item.index
        if d.name is not None and d.name in m.attributes and d.name not in m.enums:
            attrs_ = [k.attributes[d.name] for k in m.kinds.values() if d.name in k.attributes]
            t = attrs_[0].type
            if t.startswith("enum:"):
                return ("enum", t[5:])
            if t != T.INT or all(a.low == a.high == 0 for a in attrs_):
                self.error("E205", f"a table runs over an enum or a range of numbers; attribute `{d.name}` is "
                                   f"{T.describe(t)}", d, "index it by a range such as 1..13")
                return None
            for a in attrs_:
                info.labels.update({label: number for number, label in a.labels.items()})
            return ("range", min(a.low for a in attrs_), max(a.high for a in attrs_))
        if d.grows:
            self.error("E205", "a table has a fixed index: an enum, a range or a card attribute", d)
            return None
        dims = self._dims((d,))
        if self._dims_by:
            self.error("E205", "a table's index is the same for every player count", d,
                       "give it the widest range and look up `player_count` in it")
            return None
        if dims[0][0] in ("player", "card") or len(dims[0]) > 3:
            if len(dims[0]) <= 3:
                self.error("E205", f"a table runs over an enum, a range of numbers or a card attribute, "
                                   f"not `{dims[0][0]}`", d,
                           "for a value per seat, index it by a range: `table bonus[0..5] = { ... }`")
            return None
        return dims[0]

    def _table_keys(self, name: str, dim: tuple, info: TableInfo, entry: A.TableEntry) -> list:
        """The positions an entry's key (or key range) stands for; [] after an error."""
        low = self._table_key(name, dim, info, entry.low)
        if entry.high is None:
            return [] if low is None else [low]
        high = self._table_key(name, dim, info, entry.high)
        if low is None or high is None:
            return []
        if high < low:
            self.error("E205", f"the keys {self._key_text(dim, info, low)}..{self._key_text(dim, info, high)} "
                               "of table `{name}` are an empty range".replace("{name}", name), entry)
            return []
        return list(range(low, high + 1))

    def _table_key(self, name: str, dim: tuple, info: TableInfo, key):
        m = self.model
        if dim[0] == "enum":
            values = m.enums[dim[1]].values
            if isinstance(key, A.Name) and key.name in values:
                return values.index(key.name)
            self.error("E202", f"a key of table `{name}` is a value of `{dim[1]}`", key,
                       "one of " + ", ".join(values[:8]) + (", ..." if len(values) > 8 else ""))
            return None
        if isinstance(key, A.Name) and key.name in info.labels:
            number = info.labels[key.name]
        elif isinstance(key, A.StrLit) and key.value in info.labels:
            number = info.labels[key.value]
        else:
            number = self._const(key)
            if number is None:
                return None
        if not isinstance(number, int) or isinstance(number, bool) or not dim[1] <= number <= dim[2]:
            self.error("E205", f"the key {number!r} is outside the index {dim[1]}..{dim[2]} of table `{name}`", key)
            return None
        return number - dim[1]

    def _key_text(self, dim: tuple, info: TableInfo, pos: int) -> str:
        if dim[0] == "enum":
            return self.model.enums[dim[1]].values[pos]
        number = dim[1] + pos
        label = next((k for k, v in info.labels.items() if v == number), None)
        return label or str(number)

    def _table_value(self, node) -> tuple:
        """A table's value: a constant or an enum value, with its type (None, ANY after an error)."""
        m = self.model
        if isinstance(node, A.Name) and node.name in m.enum_values:
            enum, index = m.enum_values[node.name]
            return index, T.enum(enum)
        if isinstance(node, A.NoneLit):
            return None, T.NONE
        value = self._const(node)
        if value is None:
            return None, T.ANY
        return value, T.BOOL if isinstance(value, bool) else T.INT if isinstance(value, int) else T.STR

    def _move_label(self, p: A.OptionParam, elem: str) -> None:
        """`move bid(n in 1..5 as "{n} tricks")`, `ask(r in 1..13 as rank)`: how the number is shown."""
        m = self.model
        label = p.label
        if elem not in (T.INT, T.ANY):
            self.error("E202", f"`as` gives a number its label; `{p.name}` is {T.describe(elem)}, which moves "
                               "show by its own name", label)
            return
        if isinstance(label, A.StrLit):
            fields = re.findall(r"\{([^{}]*)\}", label.value)
            others = [f for f in fields if f != p.name]
            if others:
                self.error("E201", f"the label names `{others[0]}`; only the move's number `{p.name}` can be shown",
                           label, f"write {{{p.name}}} where the number goes")
            elif not fields:
                self.error("E202", f'the label "{label.value}" does not show the number', label,
                           f'write {{{p.name}}} where it goes, as in "{{{p.name}}} tricks"')
            else:
                m.move_labels[p] = (label.value, p.name)
            return
        name = label.name
        if name in m.tables:
            table = m.tables[name]
            if table.dims[0][0] != "range" or table.type not in (T.STR, T.ANY):
                what = "runs over an enum" if table.dims[0][0] == "enum" else f"gives {T.describe(table.type)}"
                self.error("E202", f"table `{name}` {what}; the labels of a number are strings by number", label,
                           f'as in `table {name}[1..3] = {{ 1: "one", 2: "two", 3: "three" }}`')
                return
            low = table.dims[0][1]
            m.move_labels[p] = {low + i: v for i, v in enumerate(table.values) if isinstance(v, str)}
            return
        if name in m.attributes:
            labels = {}
            for kind in m.kinds.values():
                if name in kind.attributes:
                    labels.update(kind.attributes[name].labels)
            if not labels:
                self.error("E202", f"attribute `{name}` has no labels to show", label,
                           f'give them in its kind, as in `{name}: 1..13 named {{ 1 "A", 13 "K" }}`')
                return
            m.move_labels[p] = labels
            return
        close = difflib.get_close_matches(name, list(m.tables) + list(m.attributes), n=1, cutoff=0.6)
        self.error("E200", f"unknown label `{name}`: `as` takes a card attribute with labels, a table of "
                           "strings or a text", label, f"did you mean `{close[0]}`?" if close else None)

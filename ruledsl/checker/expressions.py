"""Checking expressions: names in scope, types of operators and calls, zone references.

:class:`ExpressionChecks` is the part of the checker (:mod:`ruledsl.checker.check`)
that gives every expression its type (:mod:`.types`) or reports why it has
none, with a hint where one helps.
"""

from __future__ import annotations

from ..language import ast as A
from . import types as T
from .declare import Binding, _dim_word, _suggest

# what each meld test asks of the values' keys, for hints
_MELD_WORDS = {"same": "true when all the cards are alike in it", "distinct": "true when no two are alike in it",
               "run": "true when its numbers follow each other"}


class ExpressionChecks:
    """The checks of expressions (a mixin of the checker; see the module's docstring)."""

    def _growing(self, ref: A.ZoneRef, scope: dict, whole: bool):
        """Check `new F[prefix]` (whole=False) or `remove F[prefix, i]` (whole=True)."""
        what = "remove" if whole else "new"
        zone = self.model.zones.get(ref.name)
        if ref.member is not None:
            self.error("E202", f"`{what}` opens or closes a member of the family `{ref.name}` with all it holds; "
                               f"leave out `.{ref.member}`", ref)
        if zone is None:
            self.error("E200", f"unknown zone `{ref.name}`", ref, _suggest(ref.name, self.model.zones))
            for i in ref.indices:
                self.expr(i, scope)
            return None
        if not zone.grows:
            self.error("E215", f"`{what}` works on a growing zone family; `{ref.name}` has a fixed size", ref,
                       f"declare it with a growing index: zone {ref.name}[..., *]")
            return None
        dims = zone.dims if whole else zone.dims[:-1]
        if not whole and len(ref.indices) == len(zone.dims):
            self.error("E205", f"`new` picks the member's number itself; name only the family: "
                               f"{ref.name}[{', '.join(_dim_word(d) for d in dims)}]", ref)
            return zone
        self.indices(dims, ref.indices, scope, ref, ref.name)
        return zone

    def _members_call(self, e: A.Call, scope: dict, pure: bool) -> str:
        """`members(F[prefix])`: the numbers of the members of a growing family that exist now."""
        arg = e.args[0] if len(e.args) == 1 else None
        if isinstance(arg, A.Name):
            arg = A.Index(arg, (), span=arg.span)
        zone = self.model.zones.get(arg.obj.name) if isinstance(arg, A.Index) and isinstance(arg.obj, A.Name) \
            else None
        if zone is None or not zone.grows:
            self.error("E202", "`members(...)` takes a growing zone family, as in members(meld[p])", e)
            for a in e.args:
                self.expr(a, scope, pure)
            return T.RANGE
        self.indices(zone.dims[:-1], arg.indices, scope, e, zone.name)
        return T.RANGE

    def _member(self, family: str, member: str, want: str | None, node) -> str | None:
        """The family `F.m` that stores member `m` of zone family `F`, or None after an error."""
        zone = self.model.zones.get(family)
        if zone is None:
            self.error("E200", f"unknown zone `{family}`", node, _suggest(family, self.model.zones))
            return None
        what = zone.members.get(member)
        if what is None:
            known = ", ".join(zone.members) or "none"
            self.error("E201", f"zone `{family}` has no member `{member}` (members: {known})", node,
                       _suggest(member, zone.members) or f"declare it beside the zone: zone {family}[...]: ... "
                                                         f"{{ var {member}: int }}")
            return None
        if want is not None and what != want:
            self.error("E202", f"`{family}[...].{member}` is a {what}, not a {want}", node)
            return None
        return f"{family}.{member}"

    def zone_ref(self, ref: A.ZoneRef, scope: dict) -> str:
        if ref.member is not None:
            full = self._member(ref.name, ref.member, "zone", ref)
            if full is None:
                for i in ref.indices:
                    self.expr(i, scope)
                return T.ANY
            zone = self.model.zones[full]
            self.indices(zone.dims, ref.indices, scope, ref, ref.name)
            return zone.type
        bound = self.zone_param(ref, scope)
        if bound is not None:
            return bound
        zone = self.model.zones.get(ref.name)
        if zone is None:
            self.error("E200", f"unknown zone `{ref.name}`", ref, _suggest(ref.name, self.model.zones))
            for i in ref.indices:
                self.expr(i, scope)
            return T.ANY
        self.indices(zone.dims, ref.indices, scope, ref, ref.name)
        return zone.type

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
        if isinstance(e, A.Attr) and isinstance(e.obj, A.Index) and isinstance(e.obj.obj, A.Name) \
                and e.obj.obj.name in m.zones:
            full = self._member(e.obj.obj.name, e.name, None, e)
            if full is None:
                for i in e.obj.indices:
                    self.expr(i, scope, pure)
                return T.ANY
            m.member_refs[e] = full
            info = m.zones.get(full) or m.vars[full]
            self.indices(info.dims, e.obj.indices, scope, e, e.obj.obj.name)
            return info.type
        if isinstance(e, A.Has):
            self.expect(self.expr(e.obj, scope, pure, static), T.CARD, e.obj, "`has` asks about a card; this")
            if e.name not in m.attributes and e.name not in ("kind", "id"):
                self.error("E201", f"no card kind has an attribute `{e.name}`", e, _suggest(e.name, m.attributes))
            return T.BOOL
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
                elif not static:
                    self.guards.check_read(e)
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
            if name in m.tables:
                table = m.tables[name]
                self.indices(table.dims, e.indices, scope, e, name)
                return table.type
            self.error("E200", f"unknown zone or variable `{name}`", e.obj, _suggest(name, list(m.zones) + list(m.vars)))
            for i in e.indices:
                self.expr(i, scope, pure)
            return T.ANY
        if isinstance(e, A.Call):
            return self.call(e, scope, pure, static)
        if isinstance(e, A.Completable):  # a set move's `while`, made from its meld tests (language/setmoves.py)
            self.expr(e.chosen, scope, pure, static)
            self.expr(e.zone, scope, pure, static)
            for part in e.tests:
                self.expr(part, scope, pure, static)
            for bound in e.lows + e.highs:
                self.expect(self.expr(bound, scope, pure, static), T.INT, bound, "the number of cards")
            return T.BOOL
        if isinstance(e, A.Aggregate):
            result = T.AGGREGATES.get(e.func)
            if e.func == "random" and pure:
                self.error("E206", "`random` cannot be used where the state must not change "
                                   "(conditions, defines, triggers' tests)", e)
            if result is None:
                self.error("E200", f"unknown quantifier `{e.func}`", e,
                           _suggest(e.func, T.AGGREGATES)
                           or "use any, all, count, cards, first, sorted or random")
                result = T.ANY
            inner = self._bind_domain(e, scope, pure, static)
            elem = inner[e.var].type
            if e.where is not None:
                self.expect(self.expr(e.where, inner, pure, static), T.BOOL, e.where, "a `where` condition")
            with self.guards.assuming(e.where):
                if e.func in T.MELD_TESTS:
                    self._meld_test(e, inner, pure, static)
                elif e.key is not None:
                    if e.func != "sorted":
                        self.error("E202", f"`by` gives the order of `sorted`; `{e.func}` has no order", e.key,
                                   "to pick the best value by a key, write `best x in ... by KEY`")
                    self._key(self.expr(e.key, inner, pure, static), e.key, "the order of `sorted`")
                elif e.func == "sorted":
                    self.error("E202", "`sorted` needs the order: sorted(each c in ... by KEY)", e)
            if e.func in ("cards", "sorted") and elem not in (T.CARD, T.ANY):
                self.error("E202", f"`{e.func}` gives cards; this domain holds {T.describe(elem)}", e)
            if e.func in ("random", "first"):
                result = elem
            return result
        if isinstance(e, A.Best):
            inner = self._bind_domain(e, scope, pure, static)
            if e.where is not None:
                self.expect(self.expr(e.where, inner, pure, static), T.BOOL, e.where, "a `where` condition")
            with self.guards.assuming(e.where):
                self._key(self.expr(e.key, inner, pure, static), e.key, "the key of `best`")
            return inner[e.var].type
        if isinstance(e, A.Fold):
            if e.func not in T.FOLDS:
                self.error("E200", f"unknown fold `{e.func}`", e, _suggest(e.func, T.FOLDS) or "use sum, min, max or list")
            inner = self._bind_domain(e, scope, pure, static)
            if e.where is not None:
                self.expect(self.expr(e.where, inner, pure, static), T.BOOL, e.where, "a `where` condition")
            what = {"sum": "what `sum` adds up", "list": "what `list` collects"}.get(e.func, f"what `{e.func}` compares")
            with self.guards.assuming(e.where):
                t = self.expr(e.expr, inner, pure, static)
            if e.func in ("min", "max") and t in (T.PLAYER, T.CARD):
                order = "highest" if e.func == "max" else "lowest"
                self.error("E202", f"`{e.func}` compares numbers; to pick the {T.describe(t)[2:]} whose value is "
                                   f"{order}, use `best`", e.expr,
                           f"write best {e.var} in ... by {'' if e.func == 'max' else 'lowest '}VALUE")
                return T.ANY  # what the designer meant is a player or a card, not a number
            else:
                self.expect(t, T.INT, e.expr, what)
            if e.default is not None:
                if e.func not in ("min", "max"):
                    self.error("E202", f"`{e.func}` of nothing is {'0' if e.func == 'sum' else 'an empty key'}: "
                                       "it takes no `default`", e.default, "only `min` and `max` take a default")
                self.expect(self.expr(e.default, scope, pure, static), T.INT, e.default,
                            f"the default of `{e.func}`")
            return T.KEY if e.func == "list" else T.INT
        if isinstance(e, A.TupleLit):
            for item in e.items:
                self._key(self.expr(item, scope, pure, static), item, "a part of a key")
            return T.KEY
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
            with self.guards.assuming(e.cond):
                a = self.expr(e.then, scope, pure, static)
            with self.guards.assuming(e.cond, holds=False):
                b = self.expr(e.otherwise, scope, pure, static)
            if not (T.fits(a, b) or T.fits(b, a)):
                self.error("E202", f"both branches should give the same type: {T.describe(a)} and {T.describe(b)}", e)
                return T.ANY
            return b if a in (T.NONE, T.ANY) else a
        if isinstance(e, A.BinOp):
            lt = self.expr(e.left, scope, pure, static)
            with self.guards.assuming(e.left if e.op in ("and", "or") else None, holds=e.op == "and"):
                rt = self.expr(e.right, scope, pure, static)
            result, problem = T.binop(e.op, lt, rt)
            if problem:
                self.error("E202", problem, e)
                return T.ANY  # reported: what is built on it is not reported again
            return result
        if isinstance(e, A.Not):
            self.expect(self.expr(e.operand, scope, pure, static), T.BOOL, e.operand, "`not`'s operand")
            return T.BOOL
        if isinstance(e, A.Neg):
            self.expect(self.expr(e.operand, scope, pure, static), T.INT, e.operand, "a negated value")
            return T.INT
        self.error("E202", "this expression cannot be used here", e)
        return T.ANY

    def _key(self, t: str, node, what: str) -> None:
        if t not in T.KEY_PARTS and not t.startswith("enum:"):
            hint = {T.CARD: "order cards by an attribute: c.rank, or (c.suit == lead, c.rank)",
                    T.PLAYER: "order players by a value of theirs: score(p), chips[p]"}.get(t)
            if t in T.CARD_SOURCES:
                hint = "count its cards with size(...), or use a card of it: top(...).rank"
            self.error("E202", f"{what} should be a number, true/false or a key like (a, b), "
                               f"not {T.describe(t)}", node, hint)

    def _meld_test(self, e: A.Aggregate, inner: dict, pure: bool, static: bool) -> None:
        """`same`, `distinct`, `run` (each x in ... by KEY): the key they compare, and the order only `run` reads."""
        func = e.func
        if e.key is None:
            self.error("E202", f"`{func}` compares the values by a key: {func}(each {e.var} in ... by KEY)", e,
                       f"for example {func}(each {e.var} in ... by {e.var}.ATTRIBUTE): {_MELD_WORDS[func]}")
            return
        t = self.expr(e.key, inner, pure, static)
        if func == "run":
            if not T.fits(t, T.INT):
                self.error("E202", f"a `run` is of whole numbers that follow each other; its key should be a number, "
                                   f"not {T.describe(t)}", e.key,
                           "give the run a number: a number attribute of the card, or a table of the places in the sequence")
        elif e.ordered:
            order = "highest" if e.highest else "lowest"
            self.error("E202", f"`{func}` does not look at the order of the values; `{order}` is for `run` and "
                               f"`sorted`", e.key, f"write {func}(each {e.var} in ... by KEY)")
        elif t in T.CARD_SOURCES or t == T.RANGE:
            self.error("E202", f"the key of `{func}` should be one value of each {e.var} (a number, an enum value, "
                               f"a player, true/false or a key like (a, b)), not {T.describe(t)}", e.key,
                       f"compare an attribute of each: {func}(each {e.var} in ... by {e.var}.ATTRIBUTE)")

    def _bind_domain(self, e, scope, pure, static) -> dict:
        t = self.expr(e.domain, scope, pure, static)
        elem = T.element(t)
        if elem is None:
            self.error("E202", f"`{e.var} in ...` runs over players, an enum, a zone or a range, "
                               f"not {T.describe(t)}", e.domain)
            elem = T.ANY
        start = getattr(e, "start", None)
        if start is not None:
            if elem not in (T.PLAYER, T.ANY):
                self.error("E202", "`from` picks the first player; it needs `... in players`", start)
            self.expect(self.expr(start, scope, pure, static), T.PLAYER, start, "the first player")
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
            self.error("E200", f"unknown name `{n}` (here only attributes, enum values, parameters and tables can be used)",
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
        if n in m.tables:
            dim = _dim_word(m.tables[n].dims[0])
            self.error("E205", f"`{n}` is a table: it has one value per {dim}; say which", e, f"write {n}[{dim}]")
            return m.tables[n].type
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
            with self.guards.fresh():
                cache[d.name] = self.expr(d.body, scope, pure=True)
            self._owner = saved_owner
            del self.errors[saved_errors:]  # the body's own check reports them once
            self.model.bindings = saved_bindings
        return cache[d.name]

    def call(self, e: A.Call, scope: dict, pure: bool, static: bool) -> str:
        m = self.model
        if e.name == "members" and e.name not in m.defines:
            return self._members_call(e, scope, pure)
        if e.name in m.procedures and e.name not in m.defines:
            for a in e.args:
                self.expr(a, scope, pure, static)
            self.error("E206", f"`{e.name}` is a procedure: its result is taken by `let x = {e.name}(...)` or "
                               f"`x = {e.name}(...)`, not inside an expression", e)
            return T.ANY
        args = [self.expr(a, scope, pure, static) for a in e.args]
        if e.name in m.defines:
            d = m.defines[e.name]
            if len(args) != len(d.params):
                self.error("E203", f"`{e.name}` takes {len(d.params)} argument(s), not {len(args)}", e,
                           f"write {e.name}({', '.join(d.params)})")
            if self._owner is not None:
                self.calls.setdefault(self._owner, set()).add(e.name)
            return self._define_type(d)
        if e.name == "random" and len(args) == 1 and T.element(args[0]) not in (None, T.CARD):
            if pure:
                self.error("E206", "`random` changes the state and cannot be used in a condition or a define", e)
            return T.element(args[0])
        if e.name in ("top", "bottom") and len(args) == 2:
            sig, result, is_pure = T.TOP_N[0], T.TOP_N[1], True
        elif e.name in T.BUILTINS:
            sig, result, is_pure = T.BUILTINS[e.name]
        else:
            hint = _suggest(e.name, list(m.defines) + list(T.BUILTINS))
            if e.name in m.procedures:
                hint = f"`{e.name}` is a procedure; call it as a statement of its own"
            self.error("E200", f"unknown function `{e.name}`", e, hint)
            return T.ANY
        if e.name == "stack_from" and args and args[0] == T.TRACK:
            self.error("E202", "`stack_from` gives a card and the cards on it; a track's cards lie in slots, side by "
                               "side", e.args[0], "cards that lie on each other are a pile or a row: zone NAME: pile public")
            return result
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

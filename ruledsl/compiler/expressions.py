"""Compiling expressions: names, operators, quantifiers and folds, zone and variable references.

:class:`Expressions` is the part of the compiler (:mod:`ruledsl.compiler.compiler`)
that turns an expression node into a closure ``f(state, locals)`` and, where it
can, into Python source for the generated flow (``comp.gen``). Defines are
inlined at each use. Calls of built-in functions are :mod:`.calls`; picks and
keys are :mod:`.picking`.
"""

from __future__ import annotations

from ..checker import types as T
from ..checker.limits import (
    MAX_INLINED,
    MAX_MOVE_COMBINATIONS,
    MAX_RANGE,
    checked_range,
)
from ..language import ast as A
from ..language.assemble import diag
from ..language.errors import RulesError, RulesRuntimeError
from .hoist import loop_calls, loop_invariants
from .listed import runs
from .melds import completable_fn
from .members import members_read
from .picking import best_fn, meld_fn, pick_fn, players_fn, tuple_fn, values_fn
from .program import Option, _const, _local, _runtime
from .purity import asked_in_place, card_local, condition_key, each_loop, key_source, local_test, tabled_aggregate
from .rng import randbelow
from .slotref import SLOT_REF


class _NoValue:
    """What a generated `min`/`max` holds before its first value (no value of a rule is one)."""


class Expressions:
    """Expressions to closures (a mixin of the compiler; see the module's docstring)."""

    def expr(self, e, env=None, statics=None):
        """Compile an expression to (closure, type)."""
        m = self.m
        if isinstance(e, A.IntLit):
            return _const(e.value), T.INT
        if isinstance(e, A.StrLit):
            return _const(e.value), T.STR
        if isinstance(e, A.BoolLit):
            return _const(e.value), T.BOOL
        if isinstance(e, A.NoneLit):
            return _const(None), T.NONE
        if isinstance(e, A.Name):
            return self.name(e, statics)
        if isinstance(e, A.Attr) and e in m.member_refs:
            full = m.member_refs[e]
            if full in m.zones:
                return self.zone_index(full, e.obj.indices, e.span), m.zones[full].type
            return self.var_read(full, e.obj.indices, e.span), m.vars[full].type
        if isinstance(e, A.Has):
            obj, _ = self.expr(e.obj, statics=statics)
            table = self.name_for(self.kind_has.get(e.name, ()), "has_")
            if e.name in ("kind", "id"):
                return self.gen(f"({self.src(obj)} is not None)"), T.BOOL
            if e.name not in self.kind_has:
                return _const(False), T.BOOL
            o = self.src(obj)
            return self.gen(f"({o} is not None and {table}[{o}])"), T.BOOL
        if isinstance(e, A.Attr):
            obj, _ = self.expr(e.obj, statics=statics)
            span = e.span
            name = e.name
            if name == "kind":
                kinds = self.card_kind
                o = getattr(obj, "src", None)
                if o is not None and SLOT_REF.fullmatch(o):  # a card in a local: read it in place
                    def no_card(span=span):  # handed nothing: the test reads the locals only as `o`
                        _runtime("`.kind` of no card", span)

                    table = self.shared_name(("kinds",), lambda: kinds, "kinds")
                    return self.gen(f"({table}[{o}] if {o} is not None else "
                                    f"{self.name_for(no_card, 'nokind')}())"), T.KIND

                def kind_of(s, L):
                    c = obj(s, L)
                    if c is None:
                        _runtime("`.kind` of no card", span)
                    return kinds[c]

                return kind_of, T.KIND
            if name == "id":
                return obj, T.INT
            values = self.card_attrs[name]
            column = self.name_for(values, "a_" + name + "_")
            fn = self.gen(f"{column}[{self.src(obj)}]")
            if values and all(type(v) is int for v in values):
                fn.bound = max(map(abs, values))  # a card's number: no check needed where it is stored
            return fn, m.attributes[name]
        if isinstance(e, A.Index) and e.obj.name in m.tables:
            return self.table_lookup(m.tables[e.obj.name], e, statics)
        if isinstance(e, A.Index):
            name = e.obj.name
            if name in m.zones:
                return self.zone_index(name, e.indices, e.span), m.zones[name].type
            return self.var_read(name, e.indices, e.span), m.vars[name].type
        if isinstance(e, A.Call) and e in self.result_slots:
            return _local(self.result_slots[e]), m.results.get(e, T.ANY)
        if isinstance(e, A.Call):
            return self.call(e, statics)
        if isinstance(e, A.Completable):
            return completable_fn(self, e), T.BOOL
        if isinstance(e, A.Aggregate):
            if e.func in T.MELD_TESTS:
                return meld_fn(self, e)
            if e.func in ("first", "sorted") or e.start is not None:
                return pick_fn(self, e)
            return self.aggregate(e)
        if isinstance(e, A.Best):
            return best_fn(self, e)
        if isinstance(e, A.TupleLit):
            return tuple_fn(self, e), T.KEY
        if isinstance(e, A.Fold):
            return self.fold(e)
        if isinstance(e, A.SetLit):
            items = [self.expr(i, statics=statics) for i in e.items]
            fns = [f for f, _ in items]
            t = next((t for _, t in items if t != T.ANY), T.ANY)
            if all(getattr(f, "constant", False) for f in fns):
                values = tuple(f(None, None) for f in fns)
                fn = _const(values)
            else:
                def fn(s, L):
                    return tuple(f(s, L) for f in fns)
            return fn, T.set_of(t)
        if isinstance(e, A.Range):
            lo, _ = self.expr(e.low, statics=statics)
            hi, _ = self.expr(e.high, statics=statics)

            span = e.span

            def rng(s, L):
                return checked_range(lo(s, L), hi(s, L), span)

            if getattr(lo, "constant", False) and getattr(hi, "constant", False):
                ends = lo(None, None), hi(None, None)
                if all(isinstance(v, int) and not isinstance(v, bool) for v in ends):
                    if ends[1] - ends[0] < MAX_RANGE:  # made once: the same range, nothing to check
                        return _const(range(ends[0], ends[1] + 1)), T.RANGE
                    rng.most = max(0, ends[1] - ends[0] + 1)  # for MAX_MOVE_COMBINATIONS; checked when run
            return rng, T.RANGE
        if isinstance(e, A.IfExpr):
            c, _ = self.expr(e.cond, statics=statics)
            a, ta = self.expr(e.then, statics=statics)
            b, tb = self.expr(e.otherwise, statics=statics)

            fn = self.gen(f"({self.src(a)} if {self.src(c)} else {self.src(b)})")
            if bound_of(a) is not None and bound_of(b) is not None:
                fn.bound = max(bound_of(a), bound_of(b))
            return fn, (tb if ta in (T.NONE, T.ANY) else ta)
        if isinstance(e, A.BinOp):
            return self.binop(e, statics)
        if isinstance(e, A.Not):
            f, _ = self.expr(e.operand, statics=statics)
            if getattr(f, "constant", False):
                return _const(not f(None, None)), T.BOOL
            return self.gen(f"(not {self.src(f)})"), T.BOOL
        if isinstance(e, A.Neg):
            f, _ = self.expr(e.operand, statics=statics)
            if getattr(f, "constant", False):
                return _const(-f(None, None)), T.INT
            fn = self.gen(f"(-{self.src(f)})")
            if bound_of(f) is not None:
                fn.bound = bound_of(f)
            return fn, T.INT
        raise AssertionError(f"cannot compile {type(e).__name__}")

    def name(self, e: A.Name, statics):
        m = self.m
        n = e.name
        if statics is not None:
            if n in statics:
                return _const(statics[n]), T.ANY
            if n in m.enum_values:
                return _const(m.enum_values[n][1]), T.enum(m.enum_values[n][0])
            if n == "player_count" and m.players_fixed is not None:
                return _const(m.players_fixed), T.INT
            return _const(self.params[n]), T.ANY
        b = m.bindings.get(e)
        if b is not None:
            if b in self.env:
                return self.env[b]
            return _local(self.slot(b)), b.type
        if n == "player_count":
            if m.players_fixed is not None:  # a program for one player count (sizes that depend on it)
                return _const(m.players_fixed), T.INT
            return self.gen("s.n"), T.INT
        if n == "current":
            fn = self.gen("s.current")
            fn.valid_player = True  # `turns` checks it, scenarios and saves too
            return fn, T.PLAYER
        if n == "players":
            return players_fn(self), T.PLAYERS
        if n == "seats":  # every seat, those who left the game too
            return self.gen("range(s.n)"), T.PLAYERS
        if n in m.params:
            v = self.params[n]
            return _const(v), T.BOOL if isinstance(v, bool) else T.INT if isinstance(v, int) else T.STR
        if n in m.vars:
            slot = self.var_families[n][0]
            return self.gen(f"s.vars[{slot}]"), m.vars[n].type
        if n in m.defines:
            return self.inline_define(m.defines[n], [])
        if n in m.enum_values:
            return _const(m.enum_values[n][1]), T.enum(m.enum_values[n][0])
        if n in m.enums:
            count = len(m.enums[n].values)
            return _const(range(count)), T.enum_type(n)
        if n in m.kinds:
            return _const(n), T.KIND
        if n in m.zones:
            return _const(self.zone_families[n][0]), m.zones[n].type
        raise AssertionError(f"unresolved name {n}")

    def inline_define(self, d: A.DefineDef, args: list):
        reusing = self.reusing  # while a value the bots ask for compiles: the same code again (compiler._player_define)
        if reusing is not None:
            texts = tuple(getattr(fn, "src", None) for fn, _ in args)
            if None not in texts:
                key = (d.name, texts, tuple(t for _, t in args))
                if key not in reusing:
                    reusing[key] = self._inline(d, args)
                return reusing[key]
        return self._inline(d, args)

    def _inline(self, d: A.DefineDef, args: list):
        self._count_inlining(d)
        saved = {}
        for pname, arg in zip(d.params, args):
            b = self._binding(d, pname)
            saved[b] = self.env.get(b)
            self.env[b] = arg
        self.inlining.append(d)
        try:
            return self.expr(d.body)
        finally:
            self.inlining.pop()
            for b, old in saved.items():
                if old is None:
                    self.env.pop(b, None)
                else:
                    self.env[b] = old

    def _count_inlining(self, d: A.DefineDef) -> None:
        """Defines are written out at each use; a define that uses another more than once at each level
        would be written out a number of times exponential in the depth. Past MAX_INLINED writings in
        one file the rules are refused (E216), before the time is spent."""
        self.inlined += 1
        if self.inlined > MAX_INLINED:
            outer = self.inlining[0] if self.inlining else d
            raise RulesError([diag(self.m.texts, "E216",
                                   f"`{outer.name}` is written out with more than {MAX_INLINED:,} copies of defines "
                                   "where it is used (each use of a define copies its body)", outer.span,
                                   "a define that uses another define twice doubles with each level: use the "
                                   "inner define once, or work its value out once into a variable")])

    def call_define(self, d: A.DefineDef, args: list):
        """Inline a define; an argument that is more than a constant or a local is worked out once,
        into a slot of its own, before the body runs."""
        simple = []
        staged = []
        for pname, (fn, t) in zip(d.params, args):
            text = getattr(fn, "src", None)
            if getattr(fn, "constant", False) or (text is not None and "(" not in text):
                simple.append((fn, t))  # cheap to repeat: the body reads it in place
            else:
                slot = self.slot(self._binding(d, pname))
                staged.append((slot, fn))
                simple.append((_local(slot), t))
        body, t = self.inline_define(d, simple)
        if not staged:
            return body, t
        if len(staged) == 1:
            (k, a), = staged

            def call1(s, L):
                L[k] = a(s, L)
                return body(s, L)

            return call1, t
        if len(staged) == 2:
            (k1, a1), (k2, a2) = staged

            def call2(s, L):
                v1 = a1(s, L)
                L[k2] = a2(s, L)
                L[k1] = v1
                return body(s, L)

            return call2, t

        def call(s, L):
            values = [a(s, L) for _, a in staged]
            for (k, _), v in zip(staged, values):
                L[k] = v
            return body(s, L)

        return call, t

    def zone_index(self, name, indices, span):
        base, sizes, dims = self.zone_families[name]
        idx = self._index_fn(dims, sizes, indices, name, span)
        if getattr(idx, "constant", False):
            return _const(base + idx(None, None))
        if base == 0:
            return idx
        return self.gen(f"({base} + {self.src(idx)})")

    def zone_ref(self, ref: A.ZoneRef):
        b = self.m.bindings.get(ref)
        if b is not None:  # a zone given to a procedure, or bound by `let`
            return self.env[b][0] if b in self.env else _local(self.slot(b))
        name = ref.name if ref.member is None else f"{ref.name}.{ref.member}"
        return self.zone_index(name, ref.indices, ref.span)

    def table_lookup(self, table, e: A.Index, statics):
        """`points[c.rank]`: a value of a table of constants, its index checked."""
        dims = table.dims
        fn = self.expr(e.indices[0], statics=statics)[0]
        idx = self.index_checks(dims, [len(table.values)], [fn], table.name, e.span)
        if getattr(idx, "constant", False):
            return _const(table.values[idx(None, None)]), table.type
        values = self.name_for(tuple(table.values), "t_" + table.name + "_")
        return self.gen(f"{values}[{self.src(idx)}]"), table.type

    def var_read(self, name, indices, span):
        base, sizes, dims = self.var_families[name]
        idx = self._index_fn(dims, sizes, indices, name, span)
        if getattr(idx, "constant", False):
            return self.gen(f"s.vars[{base + idx(None, None)}]")
        if base == 0:
            return self.gen(f"s.vars[{self.src(idx)}]")
        return self.gen(f"s.vars[{base} + {self.src(idx)}]")

    def cards(self, fn, t, span):
        """A closure giving a list of card ids from a zone, a track or a card list."""
        if t == T.ZONE:
            return self.gen(f"s.zones[{self.src(fn)}]")
        if t == T.TRACK:
            zones = self.zone_list

            def track_cards(s, L):
                places = s.places
                return [c for p in zones[fn(s, L)].places if (c := places[p]) >= 0]

            return track_cards
        if t == T.CARDS:
            return fn
        if t == T.ANY:
            zones = self.zone_list

            def anything(s, L):
                v = fn(s, L)
                if isinstance(v, int):
                    z = zones[v]
                    if z.places:
                        return [c for c in (s.places[p] for p in z.places) if c >= 0]
                    return s.zones[v]
                return v

            return anything
        # the checker types a define's body with untyped parameters; only here, written out at its call
        # with its arguments, is such a mismatch seen: an error of the rules, at the place
        raise RulesError([diag(self.m.texts, "E202", f"cards are needed here, not {T.describe(t)}", span,
                               "a define's parameter is used as cards here: give it a zone, a card or cards")])

    def card_list(self, fn, t, span):
        """A card or a source of cards, as a list (`a + b` of two cards is a list of two)."""
        if t != T.CARD:
            return self.cards(fn, t, span)

        def one(s, L):
            c = fn(s, L)
            if c is None:
                _runtime("`+`: one side is no card (none)", span)
            return [c]

        return one

    def option(self, o, known: dict | None = None) -> Option:
        """A move of a decision, its parameters bound; its body starts at the next step. ``known``: the
        `any` nodes of its condition that the options listed before answer (listed.py), by their
        indices."""
        params, kinds, sizes, members = [], [], [], []
        for p in o.params:
            b = self._binding(p, p.name)
            slot = self.slot(b)
            dfn, dt = self.expr(p.domain)
            var = _local(slot)
            # while the condition is asked, the argument is one of the values just listed: a member over
            # `members(...)` surely exists there (not in the move's body, which may change the state)
            var.member_of = members_read(dfn, slot)
            if var.member_of is not None:
                members.append((b, slot, T.element(dt) or T.ANY))
            self.env[b] = (var, T.element(dt) or T.ANY)
            params.append((slot, self.domain(dfn, dt, p.domain.span)))
            kinds.append(T.element(dt) or T.ANY)
            sizes.append(self._most_values(dfn, dt))
        combinations = 1
        for k in sizes:
            combinations *= k
        if combinations > MAX_MOVE_COMBINATIONS:
            raise RulesError([diag(self.m.texts, "E216",
                                   f"`{o.name}` can be made in up to {combinations:,} ways "
                                   f"({' × '.join(f'{k:,}' for k in sizes)} values of its parameters), more than "
                                   f"one decision lists (at most {MAX_MOVE_COMBINATIONS:,})", o.span,
                                   "narrow a parameter's domain, or choose in two decisions one after the other")])
        where = self.expr(o.where)[0] if o.where is not None else None
        key = card_slot = None
        if len(o.params) == 1 and kinds[0] == T.CARD and where is not None:
            key = condition_key(self, o.where, self._binding(o.params[0], o.params[0].name))
        elif not o.params and where is not None:
            card_slot, key = card_local(self, o.where) or (None, None)
        if key is not None:
            key = key_source(self, key)
        labels = [self.m.move_labels.get(p) for p in o.params]
        listed_where, listed_from = self._listed_where(o, known) if known and where is not None else (None, ())
        for b, slot, kind in members:
            self.env[b] = (_local(slot), kind)  # the body reads the argument as any other value
        return Option(o.name, params, where, len(self.code), kinds, o.span, key, card_slot,
                      labels if any(x is not None for x in labels) else [], listed_where, listed_from)

    def _listed_where(self, o, known: dict) -> tuple:
        """The option's condition compiled again with each `any` in ``known`` written as whether the
        options that answer it listed a move (``_lsI_J``: the listing sets it after option J, for the
        options I to J): (that condition, those runs of options), or (None, ()) where the condition is
        not all source text."""
        texts = {node: "(" + " or ".join(f"_ls{i}_{j}" for i, j in runs(found)) + ")" for node, found in known.items()}
        saved, slots = (self.inlined, self.work), self.local_count
        self.listed_known, self.listed_made = texts, 0
        try:
            fn = self.expr(o.where)[0]
        finally:
            self.listed_known = None
            self.inlined, self.work = saved  # counted once, as the condition the rules ask
        text = getattr(fn, "src", None)
        # each answer written in the text itself: none went into a function of its own, which could not
        # read the listing's names; and no slot of L made for this second writing (the state's locals
        # stay as they were)
        if text is None or sum(text.count(t) for t in set(texts.values())) != self.listed_made \
                or self.local_count != slots:
            self.local_count = slots
            return None, ()
        return fn, tuple(sorted({run for found in known.values() for run in runs(found)}))

    def _most_values(self, fn, t) -> int:
        """The most values a move parameter's domain can hold: known for constants (ranges, sets, enums),
        cards (every card of the game), players; 1 for a domain worked out while playing (a range that
        is gone through is bounded then, MAX_RANGE)."""
        if getattr(fn, "constant", False):
            try:
                return max(1, len(fn(None, None)))
            except TypeError:
                return 1
        if hasattr(fn, "most"):
            return max(1, fn.most)
        if t in T.CARD_SOURCES:
            return max(1, self.card_total)
        if t == T.PLAYERS:
            return self.m.max_players
        return 1

    def domain(self, fn, t, span):
        """A closure giving the values a domain runs over."""
        if t in T.CARD_SOURCES or t == T.ANY:
            return self.cards(fn, t, span)
        return fn

    def _quantified(self, e):
        b = self._binding(e, e.var)
        slot = self.slot(b)
        dfn, dt = self.expr(e.domain)
        var = _local(slot)
        if isinstance(e.domain, A.Name) and e.domain.name in ("players", "seats") and e.domain not in self.m.bindings:
            var.valid_player = True  # only ever one of the players while the quantifier runs
        var.member_of = members_read(dfn, slot)  # only ever a member that exists, while it runs
        self.env[b] = (var, T.element(dt) or T.ANY)
        dom = self.domain(dfn, dt, e.domain.span)
        where = self.expr(e.where)[0] if e.where is not None else None
        return slot, dom, where

    def aggregate(self, e: A.Aggregate):
        known = self.listed_known
        if known is not None and e in known:  # answered by the moves listed before (_listed_where)
            self.listed_known = None
            try:
                real, t = self.aggregate(e)
            finally:
                self.listed_known = known
            self.listed_made += 1

            def answered(s, L):  # called, it works the `any` out; written out, it reads the answer
                return real(s, L)

            answered.src = known[e]
            return answered, t
        slot, dom, where = self._quantified(e)
        func, span = e.func, e.span
        b = self._binding(e, e.var)
        if func in ("any", "all", "count", "cards") and where is not None and self.env[b][1] == T.CARD:
            slots = condition_key(self, e.where, b)
            if slots is not None:
                return tabled_aggregate(self, func, slot, dom, where, slots), (
                    T.CARDS if func == "cards" else T.INT if func == "count" else T.BOOL)
        if func in ("any", "all", "count", "cards"):
            d = self.src(dom)
            if ":=" in d:
                d = f"{self.name_for(dom, 'f')}(s, L)"
            w = self.src(where) if where is not None else None
            kind = T.CARDS if func == "cards" else T.INT if func == "count" else T.BOOL
            loop = f"for L[{slot}] in {d}:"
            fast = local_test(w, slot) if w else None
            if fast is not None:  # the element in a Python local while the loop runs
                before, fast = loop_invariants(fast, self.ns)  # the parts not reading it asked once
                fn = self.gen_def(each_loop(func, slot, d, fast, before))
                fn.src = asked_in_place(func, slot, d, fast, fn.src) or fn.src
                return fn, kind
            before = []
            if w is not None and func in ("any", "all", "count"):
                before, w = loop_calls(w, slot, self.ns)  # generated calls that do not read it: once a loop
            if func == "any":  # a plain loop in a function of its own: cheaper than a generator
                return (self.gen_def([*before, loop, f"    if {w}:", "        return True", "return False"]) if w
                        else self.gen(f"(len({d}) > 0)")), kind
            if func == "all":
                return (self.gen_def([*before, loop, f"    if not {w}:", "        return False", "return True"])
                        if w else _const(True)), kind
            if func == "count":
                return (self.gen_def([*before, "_n = 0", loop, f"    if {w}:", "        _n += 1", "return _n"])
                        if w else self.gen(f"len({d})")), kind
            return self.gen(f"[L[{slot}] for L[{slot}] in {d} if {w}]" if w else f"[*{d}]"), kind
        if func == "any":
            if where is None:
                return (lambda s, L: len(dom(s, L)) > 0), T.BOOL

            def any_(s, L):
                for v in dom(s, L):
                    L[slot] = v
                    if where(s, L):
                        return True
                return False

            return any_, T.BOOL
        if func == "all":
            if where is None:
                return _const(True), T.BOOL

            def all_(s, L):
                for v in dom(s, L):
                    L[slot] = v
                    if not where(s, L):
                        return False
                return True

            return all_, T.BOOL

        def select(s, L):
            if where is None:
                return list(dom(s, L))
            out = []
            for v in dom(s, L):
                L[slot] = v
                if where(s, L):
                    out.append(v)
            return out

        if func == "count":
            return (lambda s, L: len(select(s, L))), T.INT
        if func == "cards":
            return select, T.CARDS

        def random_(s, L):
            chosen = select(s, L)
            if not chosen:
                _runtime("`random(...)`: there is nothing to pick", span)
            return chosen[randbelow(s, len(chosen))]

        return random_, T.element(self.expr(e.domain)[1]) or T.ANY

    def fold(self, e: A.Fold):
        slot, dom, where = self._quantified(e)
        value = self.expr(e.expr)[0]
        func, span = e.func, e.span
        default = self.expr(e.default)[0] if e.default is not None else None

        kind = T.KEY if func == "list" else T.INT
        made = self._fold_source(func, slot, dom, where, value, default, span)
        if made is not None:
            return made, kind
        listed = values_fn(dom, slot, where, value)

        def fold(s, L):
            values = listed(s, L)
            if func == "sum":
                return sum(values)
            if func == "list":
                return values
            if not values:
                if default is not None:
                    return default(s, L)
                _runtime(f"`{func}(...)` of nothing", span)
            return min(values) if func == "min" else max(values)

        return fold, kind

    def _fold_source(self, func, slot, dom, where, value, default, span):
        """`sum`/`min`/`max`/`list` of a `for each` as one generated function: a plain loop, the element
        bound in ``L[slot]`` as the closure binds it (left at the last element), the same values in the
        same order; `min`/`max` keep the first of equal values, as Python's do. None where a part has no
        source of its own to inline."""
        d = self.src(dom)
        if ":=" in d:
            d = f"{self.name_for(dom, 'f')}(s, L)"
        v = self.src(value)
        if ":=" in v:
            return None
        guard = [f"    if not {self.src(where)}:", "        continue"] if where is not None else []
        loop = [f"for L[{slot}] in {d}:"] + guard
        if func == "sum":
            return self.gen_def(["_n = 0"] + loop + [f"    _n += {v}", "return _n"])
        if func == "list":
            return self.gen_def(["_out = []"] + loop + [f"    _out.append({v})", "return _out"])
        better = ">" if func == "max" else "<"
        if default is not None:
            empty = f"return {self.src(default)}"
        else:
            def nothing(s, L, func=func, span=span):
                _runtime(f"`{func}(...)` of nothing", span)

            empty = f"return {self.name_for(nothing, 'nothing')}(s, L)"
        none = self.shared_name(("no value",), _NoValue, "novalue")
        return self.gen_def([f"_m = _none = {none}"] + loop + [
            f"    _x = {v}",
            f"    if _m is _none or _x {better} _m:",
            "        _m = _x",
            "if _m is _none:",
            f"    {empty}",
            "return _m"])

    def binop(self, e: A.BinOp, statics):
        lf, lt = self.expr(e.left, statics=statics)
        rf, rt = self.expr(e.right, statics=statics)
        op, span = e.op, e.span
        if op in ("and", "or"):
            return self.gen(f"({self.src(lf)} {op} {self.src(rf)})"), T.BOOL
        if op in ("in", "not in"):
            dom = self.domain(rf, rt, span)
            if getattr(dom, "constant", False):
                values = dom(None, None)
                where = self.name_for(frozenset(values) if isinstance(values, tuple) else values, "c")
            else:
                where = self.src(dom)
            return self.gen(f"({self.src(lf)} {op} {where})"), T.BOOL
        if op == "+" and (lt in T.CARD_SOURCES or rt in T.CARD_SOURCES or T.CARD in (lt, rt)):
            a, b = self.card_list(lf, lt, span), self.card_list(rf, rt, span)
            if getattr(a, "src", None) is not None and getattr(b, "src", None) is not None:
                joined = self.gen(f"[*{a.src}, *{b.src}]")
                # the lists joined, for a loop that can go through them one after the other (flowgen)
                joined.parts = (*getattr(a, "parts", (a.src,)), *getattr(b, "parts", (b.src,)))
                return joined, T.CARDS
            return (lambda s, L: list(a(s, L)) + list(b(s, L))), T.CARDS
        result, _ = T.binop(op, lt, rt)
        divisor = rf(None, None) if getattr(rf, "constant", False) else None
        if op in ("/", "%") and type(divisor) is int and divisor != 0:
            fn = self.gen(f"({self.src(lf)} {'//' if op == '/' else '%'} {divisor})")
            if op == "%":
                fn.bound = abs(divisor) - 1
        elif op == "/":
            def div(s, L):
                d = rf(s, L)
                if d == 0:
                    _runtime("division by zero", span)
                return lf(s, L) // d

            fn = div
        elif op == "%":
            def mod(s, L):
                d = rf(s, L)
                if d == 0:
                    _runtime("division by zero", span)
                return lf(s, L) % d

            fn = mod
        else:
            fn = self.gen(f"({self.src(lf)} {op} {self.src(rf)})")
            a, b = bound_of(lf), bound_of(rf)
            if a is not None and b is not None and op in ("+", "-", "*"):
                fn.bound = a * b if op == "*" else a + b
        if getattr(lf, "constant", False) and getattr(rf, "constant", False):
            try:
                return _const(fn(None, None)), result
            except (RulesRuntimeError, TypeError):
                pass  # reported when the rule runs, with its position
        return fn, result

    # ------------------------------------------------------------ statements


def bound_of(fn):
    """The most a whole number ``fn`` gives can be in size, when the compiler knows it (a constant, a
    card's number, ``x % k``, sums and products of these), else None. A value so bounded that it is
    a whole number of the language is stored without the check of Statements.within_limits."""
    if getattr(fn, "constant", False):
        v = fn(None, None)
        return abs(v) if type(v) is int else None
    return getattr(fn, "bound", None)

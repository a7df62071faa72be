"""Model to Program: expressions as closures, flow as steps (the card universe and the zone table: layout.py).

Every expression becomes a Python closure ``f(state, locals)``; defines are
inlined at each use, so nothing walks the syntax tree while a game runs. The
flow becomes a flat list of steps with jumps (an explicit program counter),
so where a game stands is plain data. Each step keeps the span of the rule
line it came from, for runtime findings.
"""

from __future__ import annotations

import attrs

from . import ast as A
from . import types as T
from .check import Model
from .errors import NOWHERE, RulesRuntimeError, Span
from .layout import Layout, _product
from .limits import check_card_count, checked_range, index_fits
from .calls import Calls
from .loops import Loops
from .members import grown_index, new_member, remove_member
from .picking import (best_fn, leave_effect, out_base, pick_fn, players_fn, put_each_effect, step_fn,
                      tuple_fn)
from .purity import card_local, condition_key, each_loop, local_test, tabled_aggregate
from .rng import randbelow, shuffle
from .showing import compile_reveal, compile_show, compile_tell
from .stmtsrc import assign_var, put_lines, set_local, take_card, with_stmt
from .together import compile_together
from .steps import CHOOSE, EFFECT, HALT, JUMP, JUMP_IF_NOT, RETURN, SET  # noqa: F401 - the engine reads them here

MAX_TRIGGER_FIRINGS = 1000


@attrs.define(eq=False)
class Option:
    name: str
    params: list  # [(slot, domain fn)]
    where: object  # fn or None
    body: int  # pc
    kinds: list = attrs.Factory(list)  # the type of each parameter, for printing moves
    span: Span = Span()  # where the move is written, for coverage reports
    key: tuple | None = None  # a condition of one card and these variable slots only (purity.py) ...
    card_slot: int | None = None  # ... the card: this local's, or the move's parameter's if None


@attrs.define(eq=False)
class Choice:
    name: str
    actor: object
    options: list
    span: Span
    secret: bool = False  # one of the hidden commitments of `choose NAME by each p in DOMAIN`
    together: object = None  # for a secret choice: fn(L) -> (the choosers, how many have chosen)
    rewind: object = None  # for a secret choice: fn(state) forgets the choices made, back to the first chooser


@attrs.define(eq=False)
class Trigger:
    name: str
    slot: int | None
    domain: object
    cond: object
    body: int
    span: Span


@attrs.define(eq=False)
class Invariant:
    name: str
    message: str | None
    slot: int | None
    domain: object
    cond: object
    span: Span


@attrs.define(eq=False)
class Program:
    """A compiled rules file: everything the engine needs, and nothing it must re-derive."""

    name: str
    min_players: int
    max_players: int
    limit: int
    params: dict
    card_count: int
    card_kind: list  # card id -> kind name
    card_attrs: dict  # attribute -> list over card ids
    card_labels: list
    initial: list  # [(zid, [card ids])]
    zones: list  # layout.ZoneInstance
    zone_families: dict  # family name -> (base zid, dims sizes)
    place_count: int
    var_count: int
    var_names: list  # slot -> printable name
    var_init: list  # [(slot, fn)]
    var_families: dict
    local_count: int
    code: list  # steps: (kind, a, b, span)
    choices: list
    triggers: list
    invariants: list
    score: object  # fn(state, player) -> int
    winner_keys: list  # [fn(state, player) -> int, highest?]
    source: dict  # file -> text
    enums: dict = attrs.Factory(dict)  # enum name -> value names
    trigger_mask: int = 0  # families some trigger reads: only effects touching them are followed by a check
    card_slots: frozenset = frozenset()  # variable slots that hold a card
    var_exists: dict = attrs.Factory(dict)  # variable slot of a growing family's member -> its open flag's slot
    flag_slots: frozenset = frozenset()  # the open flags themselves (not shown as variables)
    winner_when: object = None  # fn(state, locals) -> bool: the game has winners only when it holds
    kind_has: dict = attrs.Factory(dict)  # attribute -> per card id, whether its kind has it
    member_inits: dict = attrs.Factory(dict)  # growing family -> [(variable base, first-value fn)]
    card_locals: frozenset = frozenset()  # local slots that hold a card (or none)
    card_list_locals: frozenset = frozenset()  # local slots that hold a list of cards (loops' lists too)
    attr_types: dict = attrs.Factory(dict)  # card attribute -> its type (for showing what a player knows)
    var_visibility: dict = attrs.Factory(dict)  # variable name -> owner or hidden (public ones are left out)
    compiler: object = attrs.field(default=None, repr=False)  # what built it: evaluate.py compiles defines with it
    namespace: dict = attrs.Factory(dict)  # the names the generated expression code refers to
    heuristic: object = None  # fn(state, player) -> number, from `define heuristic(p)`; None without one
    flow: object = attrs.field(default=None, init=False)  # flowgen.Flow, made on first use (not copied by evolve)


def compile_model(model: Model) -> Program:
    return _Compiler(model).run()


def _runtime(message: str, span: Span):
    raise RulesRuntimeError(message, span)


class _Compiler(Layout, Loops, Calls):
    def __init__(self, model: Model):
        self.m = model
        # names the generated expression code refers to; no other builtins
        self.ns: dict = {"__builtins__": {}, "any": any, "all": all, "sum": sum, "len": len, "range": range,
                         "abs": abs, "min": min, "max": max}
        self.code: list = []
        self.choices: list = []
        self.slots: dict = {}  # Binding -> local slot
        self.env: dict = {}  # Binding -> (fn, type) for inlined parameters and typed locals
        self.card_list_slots: set = set()  # hidden loop slots that hold a list of cards
        self.local_count = 0
        self.loops: list = []  # per enclosing loop: [break jumps, continue jumps]
        self.local = _local

    # ------------------------------------------------------------ the program

    def run(self) -> Program:
        m = self.m
        self.params = {name: info.value for name, info in m.params.items()}
        self._cards()
        check_card_count(self)  # before a single card is built: a huge deck is refused
        dealt = []
        for c in m.cards:  # the card universe first: a family indexed by card is as large as it
            cards = self._deck(c.deck)
            dealt.append(list(range(self.card_total, self.card_total + len(cards))))
            for kind, values in cards:
                self._add_card(kind, values)
        m.card_count = self.card_total
        self._zones()
        self._vars()
        initial = [(self._static_zone(c.zone), ids) for c, ids in zip(m.cards, dealt)]
        var_init = []
        for var in m.vars.values():
            if var.name in m.grown and not var.name.startswith("#"):
                continue  # a member's values are given when `new` opens it
            base, sizes, _ = self.var_families[var.name]
            fn = self.var_init_fn(var)
            count = _product(sizes)
            var_init.extend((base + i, fn) for i in range(count))
        # the flow first, then trigger bodies
        if m.flow is not None:
            self.block(m.flow.body)
        self.emit(HALT, span=m.flow.span if m.flow else Span())
        triggers = []
        for t in m.triggers:
            slot, dom = self._binder(t, t.var, t.domain)
            cond = self.expr(t.cond)[0]
            start = len(self.code)
            self.block(t.body)
            self.emit(RETURN, span=t.span)
            triggers.append(Trigger(t.name, slot, dom, cond, start, t.span))
        invariants = []
        for inv in m.invariants:
            slot, dom = self._binder(inv, inv.var, inv.domain)
            invariants.append(Invariant(inv.name, inv.message, slot, dom, self.expr(inv.cond)[0], inv.span))
        score = self._score()
        keys = self._winner_keys()
        heuristic = self._player_define("heuristic") if "heuristic" in m.defines else None
        return Program(
            name=m.name, min_players=m.min_players, max_players=m.max_players, limit=m.limit,
            params=self.params, card_count=self.card_total, card_kind=self.card_kind,
            card_attrs=self.card_attrs, card_labels=self.card_labels, initial=initial,
            zones=self.zone_list, zone_families=self.zone_families, place_count=self.place_count,
            var_count=self.var_count, var_names=self.var_names, var_init=var_init,
            var_families=self.var_families, local_count=self.local_count, code=self.code,
            choices=self.choices, triggers=triggers, invariants=invariants, score=score,
            winner_keys=keys, source=m.texts,
            winner_when=self.expr(m.winner.when)[0] if m.winner is not None and m.winner.when is not None else None,
            enums={name: list(e.values) for name, e in m.enums.items()},
            trigger_mask=self._trigger_mask(),
            card_slots=frozenset(base + i for name, (base, sizes, _) in self.var_families.items()
                                 if m.vars[name].type == T.CARD for i in range(_product(sizes))),
            var_exists=self._var_exists(), flag_slots=self._flag_slots(),
            attr_types=dict(m.attributes),
            var_visibility={name: v.visibility for name, v in m.vars.items()
                            if v.visibility != "public" and name in self.var_families},
            kind_has=self.kind_has, member_inits=self._member_inits(),
            card_locals=frozenset(self._typed_locals(T.CARD)),
            card_list_locals=frozenset(self.card_list_slots | self._typed_locals(T.CARDS)),
            compiler=self,
            namespace=self.ns,
            heuristic=heuristic,
        )

    def _member_inits(self) -> dict:
        out = {}
        for name, zone in self.m.zones.items():
            if zone.grows and "." not in name:
                values = [f"{name}.{member}" for member, what in zone.members.items() if what == "var"]
                out[name] = [(self.var_families[v][0], self.var_init_fn(self.m.vars[v])) for v in values]
        return out

    def var_init_fn(self, var):
        return self.expr(var.init, {})[0] if var.init is not None else _const(self._default(var.type))

    def _typed_locals(self, t: str) -> set:
        """The local slots of the typed locals (``let``, loop variables, parameters) of type ``t``."""
        return {fn.slot for fn, kind in self.env.values() if kind == t and hasattr(fn, "slot")}

    def _trigger_mask(self) -> int:
        mask = 0
        for t in self.m.triggers:
            mask |= self._reads(t.cond, set())
            if t.domain is not None:
                mask |= self._reads(t.domain, set())
        return mask

    def _reads(self, node, seen: set) -> int:
        """The zone and variable families an expression may read (all of them if it reads `current`)."""
        m = self.m
        if isinstance(node, A.Name):
            if node.name in self.bits and node not in m.bindings:
                return self.bits[node.name]
            if node.name == "current":
                return -1
            if node.name in m.defines and node.name not in seen:
                return self._reads(m.defines[node.name].body, seen | {node.name})
            return 0
        if isinstance(node, A.Call) and node.name in m.defines and node.name not in seen:
            mask = self._reads(m.defines[node.name].body, seen | {node.name})
            return mask | self._reads_children(node, seen)
        return self._reads_children(node, seen)

    def _reads_children(self, node, seen: set) -> int:
        mask = 0
        for field in attrs.fields(type(node)):
            value = getattr(node, field.name)
            for item in (value if isinstance(value, tuple) else (value,)):
                if isinstance(item, A.Node):
                    mask |= self._reads(item, seen)
        return mask

    # ------------------------------------------------------------ generated code

    def src(self, fn) -> str:
        """Python source that computes ``fn``'s value from ``s`` and ``L``."""
        text = getattr(fn, "src", None)
        if text is not None:
            return text
        if getattr(fn, "constant", False):
            value = fn(None, None)
            if value is None or type(value) in (int, bool, str):
                return repr(value)
            if type(value) in (range, tuple, frozenset):
                return self.name_for(value, "k")
        name = f"_f{len(self.ns)}"
        self.ns[name] = fn
        return f"{name}(s, L)"

    def negated(self, fn):
        """``not fn``, as generated code when ``fn`` has source."""
        text = getattr(fn, "src", None)
        if text is not None:
            return self.gen(f"(not {text})")
        return lambda st, L: not fn(st, L)

    def gen(self, text: str):
        """One closure for a whole expression: nested operators run in a single Python frame."""
        fn = eval(f"lambda s, L: {text}", self.ns)  # noqa: S307 - source built by the compiler, never by the user
        fn.src = text
        return fn

    def gen_def(self, lines: list):
        """One generated function ``f(s, L)`` with a body of several lines (see gen)."""
        name = f"_d{len(self.ns)}"
        text = f"def {name}(s, L):\n" + "".join(f"    {line}\n" for line in lines)
        exec(text, self.ns)  # noqa: S102 - source built by the compiler, never by the user
        fn = self.ns[name]
        fn.src = f"{name}(s, L)"
        fn.definition = text
        return fn

    def shared_name(self, key, make, prefix: str) -> str:
        """One name for a table or helper that several rules use alike (``make()`` builds it once)."""
        shared = self.__dict__.setdefault("_shared_names", {})
        if key not in shared:
            shared[key] = self.name_for(make(), prefix)
        return shared[key]

    def name_for(self, value, prefix: str) -> str:
        name = f"_{prefix}{len(self.ns)}"
        self.ns[name] = value
        return name

    # ------------------------------------------------------------ helpers

    def slot(self, binding) -> int:
        if binding not in self.slots:
            self.slots[binding] = self.local_count
            self.local_count += 1
        return self.slots[binding]

    def new_slot(self) -> int:
        self.local_count += 1
        return self.local_count - 1

    def emit(self, kind, a=None, b=None, span=NOWHERE) -> int:
        self.code.append([kind, a, b, span])
        return len(self.code) - 1

    def _binding(self, node, name):
        return self.m.bindings[node, name]

    def _binder(self, node, var, domain):
        if var is None:
            return None, None
        b = self._binding(node, var)
        dom, t = self.expr(domain)
        slot = self.slot(b)
        self.env[b] = (_local(slot), T.element(t) or T.ANY)
        return slot, self.domain(dom, t, domain.span)

    def _score(self):
        return self._player_define("score")

    def _player_define(self, name: str):
        """``define NAME(p)`` as fn(state, player); 0 for every player without it."""
        d = self.m.defines.get(name)
        if d is None or len(d.params) != 1:
            return lambda s, p: 0
        b = self._binding(d, d.params[0])
        slot = self.slot(b)
        fn, _ = self.inline_define(d, [(_local(slot), T.PLAYER)])

        def value(s, p, fn=fn, slot=slot):
            L = list(s.locals)
            L[slot] = p
            return fn(s, L)

        value.span = d.span  # where a finding in the value is reported
        return value

    def _winner_keys(self) -> list:
        w = self.m.winner
        if w is None:
            return [(self._score(), False)]
        b = self._binding(w, w.var)
        slot = self.slot(b)
        self.env[b] = (_local(slot), T.PLAYER)
        keys = []
        for key in w.keys:
            fn = self.expr(key.expr)[0]

            def value(s, p, fn=fn, slot=slot):
                L = list(s.locals)
                L[slot] = p
                return fn(s, L)

            value.span = key.expr.span

            keys.append((value, key.highest))
        return keys

    # ------------------------------------------------------------ expressions

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

                def kind_of(s, L):
                    c = obj(s, L)
                    if c is None:
                        _runtime("`.kind` of no card", span)
                    return kinds[c]

                return kind_of, T.KIND
            if name == "id":
                return obj, T.INT
            column = self.name_for(self.card_attrs[name], "a_" + name + "_")
            return self.gen(f"{column}[{self.src(obj)}]"), m.attributes[name]
        if isinstance(e, A.Index):
            name = e.obj.name
            if name in m.zones:
                return self.zone_index(name, e.indices, e.span), m.zones[name].type
            return self.var_read(name, e.indices, e.span), m.vars[name].type
        if isinstance(e, A.Call):
            return self.call(e, statics)
        if isinstance(e, A.Aggregate):
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

            return rng, T.RANGE
        if isinstance(e, A.IfExpr):
            c, _ = self.expr(e.cond, statics=statics)
            a, ta = self.expr(e.then, statics=statics)
            b, tb = self.expr(e.otherwise, statics=statics)

            fn = self.gen(f"({self.src(a)} if {self.src(c)} else {self.src(b)})")
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
            return self.gen(f"(-{self.src(f)})"), T.INT
        raise AssertionError(f"cannot compile {type(e).__name__}")

    def name(self, e: A.Name, statics):
        m = self.m
        n = e.name
        if statics is not None:
            if n in statics:
                return _const(statics[n]), T.ANY
            if n in m.enum_values:
                return _const(m.enum_values[n][1]), T.enum(m.enum_values[n][0])
            return _const(self.params[n]), T.ANY
        b = m.bindings.get(e)
        if b is not None:
            if b in self.env:
                return self.env[b]
            return _local(self.slot(b)), b.type
        if n == "player_count":
            return self.gen("s.n"), T.INT
        if n == "current":
            fn = self.gen("s.current")
            fn.valid_player = True  # `turns` checks it, scenarios and saves too
            return fn, T.PLAYER
        if n == "players":
            return players_fn(self), T.PLAYERS
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
        saved = {}
        for pname, arg in zip(d.params, args):
            b = self._binding(d, pname)
            saved[b] = self.env.get(b)
            self.env[b] = arg
        try:
            return self.expr(d.body)
        finally:
            for b, old in saved.items():
                if old is None:
                    self.env.pop(b, None)
                else:
                    self.env[b] = old

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

    def _index_fn(self, dims, sizes, indices, name, span):
        fns = [self.expr(i)[0] for i in indices]
        if dims and dims[-1][0] == "grow":
            return grown_index(self, dims, sizes, fns, name, span)
        return self.index_checks(dims, sizes, fns, name, span)

    def index_checks(self, dims, sizes, fns, name, span):
        """A closure giving the flat position of an index in a family of fixed size, checked."""
        if all(getattr(f, "constant", False) for f in fns):
            values = [f(None, None) for f in fns]
            if index_fits(dims, sizes, values, self.m.min_players):
                return _const(self._flat(dims, sizes, values))
            # else: checked while playing, where a bad index is a finding at this rule
        checks = []
        for dim, size in zip(dims, sizes):
            checks.append((dim[1] if dim[0] in ("range", "grow") else 0, size, dim[0] == "player"))
        if len(fns) == 1 and dims[0][0] == "enum":
            return fns[0]  # enum values come only from enum-typed expressions
        constant = getattr(fns[0], "constant", False)
        if len(fns) == 1 and dims[0][0] == "player" and getattr(fns[0], "valid_player", False):
            return fns[0]
        if len(fns) == 1 and dims[0][0] == "player" and "(" not in self.src(fns[0]) and not constant:
            v = self.src(fns[0])

            def outside(value):
                if value is None:
                    _runtime(f"`{name}[...]`: the index is none", span)
                _runtime(f"`{name}[{value}]` is outside `{name}`", span)

            return self.gen(f"({v} if {v} is not None and 0 <= {v} < s.n else {self.name_for(outside, 'bad')}({v}))")
        if len(fns) == 1:
            f = fns[0]
            low, size, is_player = checks[0]

            def one(s, L):
                v = f(s, L)
                if v is None:
                    _runtime(f"`{name}[...]`: the index is none", span)
                i = v - low
                if not 0 <= i < (s.n if is_player else size):
                    _runtime(f"`{name}[{v}]` is outside `{name}`", span)
                return i

            return one

        def many(s, L):
            flat = 0
            for f, (low, size, is_player) in zip(fns, checks):
                v = f(s, L)
                if v is None:
                    _runtime(f"`{name}[...]`: an index is none", span)
                i = v - low
                if not 0 <= i < (s.n if is_player else size):
                    _runtime(f"`{name}[...]`: index {v} is out of range", span)
                flat = flat * size + i
            return flat

        return many

    def zone_index(self, name, indices, span):
        base, sizes, dims = self.zone_families[name]
        idx = self._index_fn(dims, sizes, indices, name, span)
        if getattr(idx, "constant", False):
            return _const(base + idx(None, None))
        if base == 0:
            return idx
        return self.gen(f"({base} + {self.src(idx)})")

    def zone_ref(self, ref: A.ZoneRef):
        name = ref.name if ref.member is None else f"{ref.name}.{ref.member}"
        return self.zone_index(name, ref.indices, ref.span)

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
        raise AssertionError(f"not a card source: {t}")

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

    def option(self, o) -> Option:
        """A move of a decision, its parameters bound; its body starts at the next step."""
        params, kinds = [], []
        for p in o.params:
            b = self._binding(p, p.name)
            slot = self.slot(b)
            dfn, dt = self.expr(p.domain)
            self.env[b] = (_local(slot), T.element(dt) or T.ANY)
            params.append((slot, self.domain(dfn, dt, p.domain.span)))
            kinds.append(T.element(dt) or T.ANY)
        where = self.expr(o.where)[0] if o.where is not None else None
        key = card_slot = None
        if len(o.params) == 1 and kinds[0] == T.CARD and where is not None:
            key = condition_key(self, o.where, self._binding(o.params[0], o.params[0].name))
        elif not o.params and where is not None:
            card_slot, key = card_local(self, o.where) or (None, None)
        return Option(o.name, params, where, len(self.code), kinds, o.span, key, card_slot)

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
        if isinstance(e.domain, A.Name) and e.domain.name == "players" and e.domain not in self.m.bindings:
            var.valid_player = True  # only ever one of the players while the quantifier runs
        self.env[b] = (var, T.element(dt) or T.ANY)
        dom = self.domain(dfn, dt, e.domain.span)
        where = self.expr(e.where)[0] if e.where is not None else None
        return slot, dom, where

    def aggregate(self, e: A.Aggregate):
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
            fast = local_test(w, slot) if w and func != "cards" else None
            if fast is not None:  # the element in a Python local while the loop runs
                return self.gen_def(each_loop(func, slot, d, fast)), kind
            if func == "any":  # a plain loop in a function of its own: cheaper than a generator
                return (self.gen_def([loop, f"    if {w}:", "        return True", "return False"]) if w
                        else self.gen(f"(len({d}) > 0)")), kind
            if func == "all":
                return (self.gen_def([loop, f"    if not {w}:", "        return False", "return True"]) if w
                        else _const(True)), kind
            if func == "count":
                return (self.gen_def(["_n = 0", loop, f"    if {w}:", "        _n += 1", "return _n"]) if w
                        else self.gen(f"len({d})")), kind
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

        def fold(s, L):
            values = []
            for v in dom(s, L):
                L[slot] = v
                if where is None or where(s, L):
                    values.append(value(s, L))
            if func == "sum":
                return sum(values)
            if func == "list":
                return values
            if not values:
                _runtime(f"`{func}(...)` of nothing", span)
            return min(values) if func == "min" else max(values)

        return fold, (T.KEY if func == "list" else T.INT)

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
                return self.gen(f"[*{a.src}, *{b.src}]"), T.CARDS
            return (lambda s, L: list(a(s, L)) + list(b(s, L))), T.CARDS
        result, _ = T.binop(op, lt, rt)
        divisor = rf(None, None) if getattr(rf, "constant", False) else None
        if op in ("/", "%") and type(divisor) is int and divisor != 0:
            fn = self.gen(f"({self.src(lf)} {'//' if op == '/' else '%'} {divisor})")
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
        if getattr(lf, "constant", False) and getattr(rf, "constant", False):
            try:
                return _const(fn(None, None)), result
            except (RulesRuntimeError, TypeError):
                pass  # reported when the rule runs, with its position
        return fn, result

    # ------------------------------------------------------------ statements

    def block(self, stmts) -> None:
        for s in stmts:
            self.stmt(s)

    def stmt(self, s) -> None:
        m = self.m
        span = s.span
        if isinstance(s, A.Assign):
            value = self.expr(s.value)[0]
            b = m.bindings.get(s)
            if b is not None:
                slot = self.slot(b)
                if s.op == "=":
                    def set_local(st, L):
                        L[slot] = value(st, L)
                else:
                    sign = 1 if s.op == "+=" else -1

                    def set_local(st, L):
                        L[slot] += sign * value(st, L)
                self.emit(SET, set_local_src(set_local, slot, value, s.op), span=span)
                return
            name = s.name if s.member is None else f"{s.name}.{s.member}"
            base, sizes, dims = self.var_families[name]
            idx = self._index_fn(dims, sizes, s.indices, name, span)
            bit = self.bits[name]
            if getattr(idx, "constant", False):
                slot = base + idx(None, None)
                if s.op == "=":
                    def assign(st, L):
                        st.vars[slot] = value(st, L)
                        return bit
                else:
                    sign = 1 if s.op == "+=" else -1

                    def assign(st, L):
                        st.vars[slot] += sign * value(st, L)
                        return bit
            elif s.op == "=":
                def assign(st, L):
                    st.vars[base + idx(st, L)] = value(st, L)
                    return bit
            else:
                sign = 1 if s.op == "+=" else -1

                def assign(st, L):
                    st.vars[base + idx(st, L)] += sign * value(st, L)
                    return bit
            self.emit(EFFECT, assign_var(self, assign, base, idx, value, s.op, bit), span=span)
        elif isinstance(s, A.Let):
            b = self._binding(s, s.name)
            slot = self.slot(b)
            value, t = self.expr(s.value)
            self.env[b] = (_local(slot), t)

            def let(st, L):
                L[slot] = value(st, L)

            self.emit(SET, set_local_src(let, slot, value), span=span)
        elif isinstance(s, A.Put):
            self.emit(EFFECT, self.put(s), span=span)
        elif isinstance(s, A.PutEach):
            self.emit(EFFECT, put_each_effect(self, s), span=span)
        elif isinstance(s, A.Deal):
            count = self.expr(s.count)[0]
            src, dst = self.zone_ref(s.source), self.zone_ref(s.target)
            zone_bit = self.zone_bit

            def deal(st, L):
                z, target = src(st, L), dst(st, L)
                if z == target:  # dealing a zone into itself changes nothing
                    count(st, L)
                    return 0
                pile, into, loc = st.zones[z], st.zones[target], st.loc
                k = count(st, L)
                if k > 0:  # the top k cards, one by one from the top (in C)
                    cards = pile[:-k - 1:-1]
                    del pile[-k:]
                    into += cards
                    for c in cards:
                        loc[c] = target
                return zone_bit[z] | zone_bit[target]

            self.emit(EFFECT, deal, span=span)
        elif isinstance(s, A.Shuffle):
            zf = self.zone_ref(s.zone)
            zone_bit = self.zone_bit

            def shuffle_zone(st, L):
                z = zf(st, L)
                shuffle(st, st.zones[z])
                return zone_bit[z]

            self.emit(EFFECT, shuffle_zone, span=span)
        elif isinstance(s, A.Gather):
            zf = self.zone_ref(s.zone)

            def gather(st, L):
                target = zf(st, L)
                into, loc = st.zones[target], st.loc
                for z, cards in enumerate(st.zones):
                    if z != target and cards:
                        for c in cards:
                            loc[c] = target
                        into.extend(cards)
                        cards.clear()
                places = st.places
                for p, c in enumerate(places):
                    if c >= 0:
                        into.append(c)
                        loc[c] = target
                        places[p] = -1
                return -1

            self.emit(EFFECT, gather, span=span)
        elif isinstance(s, A.If):
            ends = []
            for cond, body in s.branches:
                c = self.expr(cond)[0]
                jump = self.emit(JUMP_IF_NOT, c, None, span=cond.span)
                self.block(body)
                ends.append(self.emit(JUMP, None, span=span))
                self.code[jump][2] = len(self.code)
            if s.otherwise is not None:
                self.block(s.otherwise)
            for j in ends:
                self.code[j][1] = len(self.code)
        elif isinstance(s, (A.For, A.Repeat, A.While)):
            self.loop(s)
        elif isinstance(s, A.Break):
            self.loops[-1][1 if s.again else 0].append(self.emit(JUMP, None, span=span))
        elif isinstance(s, A.Leave):
            self.emit(EFFECT, leave_effect(self, s), span=span)
        elif isinstance(s, A.Turns):
            start = self.expr(s.start)[0]
            until = self.expr(s.until)[0]

            def no_player(value):
                _runtime(f"`turns from ...`: the first player is {'none' if value is None else value}, "
                         "who is no player", span)

            def begin(st, L):
                st.current = start(st, L)
                if st.current.__class__ is not int or not 0 <= st.current < st.n:
                    no_player(st.current)  # so that `current` is always a player

            if getattr(start, "src", None) is not None:
                with_stmt(begin, [f"s.current = {start.src}",
                                  "if s.current.__class__ is not int or not 0 <= s.current < s.n:",
                                  f"    {self.name_for(no_player, 'noplayer')}(s.current)"])
            self.emit(SET, begin, span=span)
            top = self.emit(JUMP_IF_NOT, self.negated(until), None, span=s.until.span)
            self.loop_body(s.body)
            walk = step_fn(self, 1, span)

            def advance(st, L):
                st.current = walk(st, st.current)

            with_stmt(advance, [f"s.current = {self.name_for(walk, 'walk')}(s, s.current)" if out_base(self) is not None
                                else "s.current = (s.current + 1) % s.n"])
            self.close_loop(self.emit(SET, advance, span=span))
            self.emit(JUMP, top, span=span)
            self.code[top][2] = len(self.code)
            self.end_loop()
        elif isinstance(s, A.Choose) and s.each is not None:
            compile_together(self, s, list(s.options) + list(m.extensions.get(s.name, ())))
        elif isinstance(s, A.Choose):
            actor = self.expr(s.actor)[0]
            choice = Choice(s.name, actor, [], span)
            cid = len(self.choices)
            self.choices.append(choice)
            self.emit(CHOOSE, cid, span=span)
            ends = []
            for o in list(s.options) + list(m.extensions.get(s.name, ())):
                option = self.option(o)
                choice.options.append(option)
                self.block(o.body)
                ends.append(self.emit(JUMP, None, span=o.span))
            for j in ends:
                self.code[j][1] = len(self.code)
        elif isinstance(s, A.Reveal):
            compile_reveal(self, s)
        elif isinstance(s, A.Show):
            compile_show(self, s)
        elif isinstance(s, A.Tell):
            compile_tell(self, s)
        elif isinstance(s, A.AtOnce):
            first = len(self.code)
            self.block(s.body)
            for step in self.code[first:]:
                if step[0] == EFFECT:
                    step[0] = SET  # no trigger check inside the block ...
            self.emit(EFFECT, _changed_all, span=span)  # ... but one after it
        elif isinstance(s, A.New):
            slot = self.slot(self._binding(s, s.var))
            self.env[self._binding(s, s.var)] = (_local(slot), T.INT)
            self.emit(EFFECT, new_member(self, s, slot), span=span)
        elif isinstance(s, A.Remove):
            self.emit(EFFECT, remove_member(self, s), span=span)
        elif isinstance(s, A.EndGame):
            self.emit(HALT, span=span)
        elif isinstance(s, A.CallStmt):
            proc = m.procedures[s.name]
            for pname, arg in zip(proc.params, s.args):
                b = self._binding(proc, pname)
                slot = self.slot(b)
                value, t = self.expr(arg)
                self.env[b] = (_local(slot), t)

                def bind_arg(st, L, slot=slot, value=value):
                    L[slot] = value(st, L)

                self.emit(SET, set_local_src(bind_arg, slot, value), span=arg.span)
            self.block(proc.body)
        else:
            raise AssertionError(f"cannot compile {type(s).__name__}")

    def put(self, s: A.Put):
        cards, t = self.expr(s.cards)
        target = self.zone_ref(s.zone)
        zones = self.zone_list
        span = s.span
        under = s.under
        bury = isinstance(s.at, A.Name) and s.at.name == "random" and s.at not in self.m.bindings
        at = self.expr(s.at)[0] if s.at is not None and not bury else None
        single = t in (T.CARD, T.NONE)
        source = None if single else self.cards(cards, t, span)

        zone_bit, place_bit = self.zone_bit, self.place_bit

        def move(st, c, z, place, slot):
            if c is None:
                _runtime("`put`: there is no card to move", span)
            old = st.loc[c]
            if place is not None:
                if st.places[place] >= 0 and st.places[place] != c:
                    _runtime(f"`put`: slot {slot} of {zones[z].name} already holds a card", span)
            if old >= 0:
                take_card(st.zones[old], c)
                changed = zone_bit[old]
            else:
                st.places[-old - 1] = -1
                changed = place_bit[-old - 1]
            if place is not None:
                st.places[place] = c
                st.loc[c] = -place - 1
                return changed | place_bit[place]
            if bury:
                st.zones[z].insert(randbelow(st, len(st.zones[z]) + 1), c)
            elif under:
                st.zones[z].insert(0, c)
            else:
                st.zones[z].append(c)
            st.loc[c] = z
            return changed | zone_bit[z]

        def put(st, L):
            z = target(st, L)
            place = k = None
            if at is not None:
                k = at(st, L)
                places = zones[z].places
                if not 0 <= k < len(places):
                    _runtime(f"`put`: {zones[z].name} has no slot {k} (slots 0..{len(places) - 1})", span)
                place = places[k]
            if single:
                return move(st, cards(st, L), z, place, k)
            chosen = list(source(st, L))
            if under:
                chosen.reverse()
            changed = zone_bit[z]
            for c in chosen:
                changed |= move(st, c, z, place, k)
            return changed

        return put_lines(self, put, cards, source, target, at, under, single, bury, span)


def _changed_all(s, L) -> int:
    return -1


_changed_all.changed = -1
_changed_all.stmt = []


def set_local_src(fn, slot, value, op="="):
    return set_local(fn, slot, value, op)


def _const(value):
    def const(s, L):
        return value

    const.constant = True
    if value is None or type(value) in (int, bool, str):
        const.src = repr(value)
    return const


def _local(slot: int):
    def local(s, L):
        return L[slot]

    local.src = f"L[{slot}]"
    local.slot = slot
    return local

"""Model to Program: expressions as closures, flow as steps (the card universe and the zone table: layout.py).

Every expression becomes a Python closure ``f(state, locals)``; defines are
inlined at each use, so nothing walks the syntax tree while a game runs. The
flow becomes a flat list of steps with jumps (an explicit program counter),
so where a game stands is plain data. Each step keeps the span of the rule
line it came from, for runtime findings.
"""

from __future__ import annotations

import functools
import operator
import types

import attrs

from ..checker import types as T
from ..checker.declare import SEATS_OUT, Model
from ..checker.limits import check_card_count
from ..checker.treewalk import _announced
from ..language import ast as A
from ..language.errors import NOWHERE, Span
from .calls import Calls
from .expressions import Expressions
from .hoist import shared_parts
from .indices import Indices
from .layout import Layout, _product
from .loops import Loops
from .program import Invariant, Program, Trigger, _const, _local
from .statements import Statements
from .steps import HALT, RETURN
from .work import Work


def compile_model(model: Model) -> Program:
    return _Compiler(model).run()


class _Compiler(Work, Layout, Loops, Calls, Indices, Expressions, Statements):
    def __init__(self, model: Model):
        self.m = model
        # names the generated expression code refers to; no other builtins
        self.ns: dict = {"__builtins__": {}, "any": any, "all": all, "sum": sum, "len": len, "range": range,
                         "abs": abs, "min": min, "max": max, "int": int}
        self.code: list = []
        self.inlined = 0  # defines written out so far (MAX_INLINED)
        self.inlining: list = []  # the defines being written out, the outermost first
        self.reusing: dict | None = None  # while a value the bots ask for compiles: each define's code by its arguments
        self.choices: list = []
        self.call_stack: list = []  # the spans of the procedure calls being compiled, outermost first
        self.call_sites: dict = {}  # step -> those spans, for the steps of a procedure's body
        self.slots: dict = {}  # Binding -> local slot
        self.env: dict = {}  # Binding -> (fn, type) for inlined parameters and typed locals
        self.card_list_slots: set = set()  # hidden loop slots that hold a list of cards
        self.local_count = 0
        self.loops: list = []  # per enclosing loop: [break jumps, continue jumps]
        self.returns: list = []  # per procedure being written out: (its result's slot or None, jumps to its end)
        self.result_slots: dict = {}  # a Call of a procedure with a result -> the slot that holds the result
        self.turn_frames: list = []  # per enclosing steered `turns`: (next-player slot, final-round slot)
        self.local = _local
        self.listed_known = None  # `any` node -> its answer's text, while _listed_where compiles
        self.listed_made = 0  # the answers written so far in that compile
        self.start_work()  # the weight of each step (work.py)

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
        flow_end = len(self.code)
        triggers = []
        for t in m.triggers:
            with self.measured(t.domain) as check:
                slot, dom = self._binder(t, t.var, t.domain)
                cond = self.expr(t.cond)[0]
            self.trigger_work += check.total
            self.too_much(self.trigger_work, t.span, "checking the triggers after an effect")
            start = len(self.code)
            self.block(t.body)
            self.emit(RETURN, span=t.span)
            triggers.append(Trigger(t.name, slot, dom, cond, start, t.span))
        invariants = []
        for inv in m.invariants:
            with self.measured(inv.domain) as check:
                slot, dom = self._binder(inv, inv.var, inv.domain)
                cond = self.expr(inv.cond)[0]
            self.too_much(check.total, inv.span, f"checking invariant `{inv.name}`")
            invariants.append(Invariant(inv.name, inv.message, slot, dom, cond, inv.span))
        self.finish_work(flow_end)
        score = self._score()
        keys = self._winner_keys()
        heuristic = self._player_define("heuristic") if "heuristic" in m.defines else None
        team = self._player_define("team") if "team" in m.defines else None
        statistics = tuple((st.name, self.expr(st.expr)[0], st.name in m.statistic_shares, st.span)
                           for st in m.statistics.values())
        # compiled before local_count is read below: its aggregates take local slots too
        winner_when = self.expr(m.winner.when)[0] if m.winner is not None and m.winner.when is not None else None
        masks = self._trigger_masks()
        return Program(
            name=m.name, min_players=m.min_players, max_players=m.max_players, limit=m.limit,
            params=self.params, card_count=self.card_total, card_kind=self.card_kind,
            card_attrs=self.card_attrs, card_labels=self.card_labels, initial=initial,
            zones=self.zone_list, zone_families=self.zone_families, place_count=self.place_count,
            var_count=self.var_count, var_names=self.var_names, var_init=var_init,
            var_families=self.var_families, local_count=self.local_count, code=self.code,
            choices=self.choices, triggers=triggers, invariants=invariants, score=score,
            winner_keys=keys, source=m.texts,
            winner_when=winner_when,
            enums={name: list(e.values) for name, e in m.enums.items()},
            enum_labels={name: list(e.labels) for name, e in m.enums.items()},
            param_defaults={name: info.default for name, info in m.params.items()},
            trigger_masks=masks, trigger_mask=functools.reduce(operator.or_, masks, 0),
            card_slots=frozenset(base + i for name, (base, sizes, _) in self.var_families.items()
                                 if m.vars[name].type == T.CARD for i in range(_product(sizes))),
            var_exists=self._var_exists(), flag_slots=self._flag_slots(),
            attr_types=dict(m.attributes),
            var_visibility={name: v.visibility for name, v in m.vars.items()
                            if v.visibility != "public" and name in self.var_families},
            unshown=frozenset(name for name, v in m.vars.items() if not v.shown),
            kind_has=self.kind_has, member_inits=self._member_inits(),
            card_locals=frozenset(self._typed_locals(T.CARD)),
            card_list_locals=frozenset(self.card_list_slots | self._typed_locals(T.CARDS)),
            compiler=self,
            namespace=self.ns,
            heuristic=heuristic,
            team=team,
            statistics=statistics,
            call_sites=self.call_sites,
            cooperative=m.winner is not None and m.winner.everyone,
            announced=self._announced_slots(),
            step_work=self.step_work,
            trigger_work=self.trigger_work,
        )

    def _announced_slots(self) -> frozenset:
        """The variable slots set by `announce`: what verify takes as told, not leaked."""
        out = set()
        for name in _announced(self.m):
            family = self.var_families.get(name)
            if family is not None:
                base, sizes, _ = family
                out.update(range(base, base + _product(sizes)))
        return frozenset(out)

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

    def _trigger_masks(self) -> tuple:
        """Per trigger, the families its condition and its variable's values may read (-1: all)."""
        masks = []
        for t in self.m.triggers:
            mask = self._reads(t.cond, set())
            if t.domain is not None:
                mask |= self._reads(t.domain, set())
            masks.append(mask)
        return tuple(masks)

    def _reads(self, node, seen: set) -> int:
        """The zone and variable families an expression may read (all of them if it reads `current`)."""
        m = self.m
        if isinstance(node, A.Name):
            if node.name in self.bits and node not in m.bindings:
                return self.bits[node.name]
            if node.name == "current":
                return -1
            if node.name == "players" and node not in m.bindings:  # the seats still in the game
                return self.bits.get(SEATS_OUT, 0)
            if node.name in m.defines and node.name not in seen:
                return self._reads(m.defines[node.name].body, seen | {node.name})
            return 0
        if isinstance(node, A.Call) and node.name in m.defines and node.name not in seen:
            mask = self._reads(m.defines[node.name].body, seen | {node.name})
            return mask | self._reads_children(node, seen)
        if isinstance(node, A.Call) and node.name in ("next", "previous"):  # skip the seats that left
            return self.bits.get(SEATS_OUT, 0) | self._reads_children(node, seen)
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
        fn = _lazy_lambda(text, self.ns)
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
        if self.call_stack:
            self.call_sites[len(self.code) - 1] = tuple(self.call_stack)
        self.weigh_step(kind, a)  # its units of work (work.py)
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
        # A define used again in the value with the same arguments gets the same code, and each part the
        # value then asks more than once is worked out once (`size_of(p) * size_of(p)`):
        # the functions made for the value are a define's code, so they may be shared (hoist.shared_parts).
        known = set(self.ns)
        self.reusing = {}
        try:
            fn, _ = self.inline_define(d, [(_local(slot), T.PLAYER)])
        finally:
            self.reusing = None
        text = getattr(fn, "src", None)
        if text is not None:
            shorter = shared_parts(text, self.ns, "_rp", frozenset(self.ns.keys() - known))
            if shorter != text:
                fn = self.gen(shorter)

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
        if w.everyone:
            return []  # `winner: all when C`: every player ranks first
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


def _stub(s, L, _fn=None, _text=None, _now=None):  # runs with the rules' namespace as its globals
    return _now(_fn, _text)(s, L)


def _compiled_now(fn, text: str):
    """``fn`` (made by :func:`_lazy_lambda`) with the code of ``lambda s, L: text`` put in place."""
    real = eval(f"lambda s, L: {text}", fn.__globals__)  # noqa: S307 - source built by the compiler, never by the user
    fn.__code__ = real.__code__
    fn.__defaults__ = None
    return fn


def _lazy_lambda(text: str, ns: dict):
    """``eval(f"lambda s, L: {text}", ns)``, compiled on its first call: most of these expressions
    are only ever written into the generated module (flowgen.py) by their ``src``, so compiling
    them all would be most of the time a load takes. Until then the function is a stub that
    compiles the lambda and takes its code; from then on it is that lambda."""
    fn = types.FunctionType(_stub.__code__, ns, "<lambda>")
    fn.__defaults__ = (fn, text, _compiled_now)
    return fn

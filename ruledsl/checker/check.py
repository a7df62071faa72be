"""The checking pass: names, types, zones and decisions, with every error at once.

``check(assembly, params)`` builds the :class:`Model` of a rules file (its
symbol tables, read by :mod:`ruledsl.declare`) and reports every problem it
finds as a positioned diagnostic, with a hint where one helps ("did you mean
`hand`?"). The compiler takes the model and trusts it.
"""

from __future__ import annotations

import attrs

from ..language import ast as A
from ..language.assemble import Assembly, diag
from ..language.errors import NOWHERE, Diagnostic, RulesError
from ..language.parse import keywords
from . import types as T
from .declare import SEATS_OUT, Binding, Declarations, Model, VarInfo, _suggest
from .expressions import ExpressionChecks
from .guards import Guards
from .procedures import ProcedureChecks
from .statements import StatementChecks
from .treewalk import _child_blocks


def check(assembly: Assembly, params: dict | None = None) -> Model:
    """Check an assembled rules file; raise RulesError listing every problem."""
    checker = _Checker(assembly)
    model = checker.run(params or {})
    if checker.errors:
        # one report per problem: a part read from several places (a parameter used as the size of
        # several indices) is checked each time, but its error is told once
        unique = {(d.code, d.file, d.line, d.column, d.message): d for d in checker.errors}
        found = sorted(unique.values(), key=lambda d: (d.file, d.line, d.column))
        raise RulesError(_once_per_name(found))
    return model


class _Checker(Declarations, StatementChecks, ExpressionChecks, ProcedureChecks):
    def __init__(self, assembly: Assembly):
        self.assembly = assembly
        self.model = Model(texts=assembly.texts)
        self.errors: list[Diagnostic] = []
        self.calls: dict[str, set] = {}  # define/procedure -> names it calls, for cycles
        self._owner: str | None = None
        self._loops = 0  # how many loops enclose the statement being checked
        self._turns = 0  # how many `turns` enclose it (`next turn`, `final round`)
        self.guards = Guards(self.model, lambda node, message, hint: self.error("E214", message, node, hint))

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
            if isinstance(item, A.StatisticDef):  # statistics have names of their own: `statistic busts = busts`
                name = "statistic " + item.name
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
        # kinds first (a table may run over an attribute), then tables (a size may look one up)
        for item in sorted(items, key=lambda it: 0 if isinstance(it, A.KindDef) else 1 if isinstance(it, A.TableDef) else 2):
            self._declare_late(item)
        for ext in self.assembly.extensions:
            m.extensions.setdefault(ext.name, []).extend(ext.options)
        leave = _first_leave(items)
        if leave is not None:  # who has left the game is part of the state, as a hidden flag per player
            m.vars[SEATS_OUT] = VarInfo(SEATS_OUT, [("player",)], T.BOOL, None, leave)
        self._check_bodies()
        if m.flow is None:
            self.errors.append(Diagnostic("E211", "the rules have no `flow { ... }`: nothing says how a game runs",
                                          _nowhere(self.assembly)))
        return m

    # ------------------------------------------------------------------ bodies

    def _check_bodies(self) -> None:
        m = self.model
        for c in m.cards:
            m.kinds_in_play |= self._deck_kinds(c.deck, set())
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
            zone = m.zones.get(c.zone.name if c.zone.member is None else f"{c.zone.name}.{c.zone.member}")
            if zone is not None and zone.grows:
                self.error("E215", f"`{c.zone.name}` grows in play: none of its members exists when the game "
                                   "starts, so no card can be put there", c.zone,
                           "put the cards in another zone and move them in the flow, after `new`")
        for c in m.connects:
            for ref, slot in ((c.first, c.first_slot), (c.second, c.second_slot)):
                t = self.zone_ref(ref, {})
                if t not in (T.TRACK, T.ANY):
                    self.error("E202", f"`connect` joins slots of tracks; `{ref.name}` is not a track", ref)
                value = self._const(slot)
                if value is not None and (not isinstance(value, int) or isinstance(value, bool)):
                    self.error("E202", f"a slot of a track is a whole number, not {value!r}", slot,
                               "write the slot's number, as in connect line[red] 10 = line[black] 3")
                    continue
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
            self._returns = []
            self.block(p.body, scope, in_trigger=False)
            self._returns = None
            self.check_ends(p)
        self._owner = None
        for t in m.triggers:
            scope = self.binder(t.var, t.domain, t)
            self.expect(self.expr(t.cond, scope, pure=True), T.BOOL, t.cond, "a trigger's condition")
            with self.guards.assuming(t.cond):
                self.block(t.body, scope, in_trigger=True)
        for inv in m.invariants:
            scope = self.binder(inv.var, inv.domain, inv)
            self.expect(self.expr(inv.cond, scope, pure=True), T.BOOL, inv.cond, "an invariant")
        if m.winner is not None:
            scope = {m.winner.var: self.bind(Binding(m.winner.var, T.PLAYER), m.winner)}
            for key in m.winner.keys:
                self._key(self.expr(key.expr, scope, pure=True), key.expr, "a winner's order")
            if m.winner.when is not None:
                self.expect(self.expr(m.winner.when, {}, pure=True), T.BOOL, m.winner.when,
                            "a winner's condition")
        if "score" in m.defines and len(m.defines["score"].params) != 1:
            self.error("E203", "`score` takes one parameter, the player", m.defines["score"])
        self._heuristic()
        self._team()
        self._statistics()
        if m.flow is not None:
            self.block(m.flow.body, {}, in_trigger=False)
        for name, options in m.extensions.items():
            if not self._choice_exists(name):
                node = options[0] if options else None
                if node is not None:
                    self.error("E210", f"`extend choose {name}`: there is no decision named `{name}`", node)
        self._check_cycles()


    def _deck_kinds(self, d, visiting: set) -> set:
        m = self.model
        if isinstance(d, A.DeckSum):
            return self._deck_kinds(d.left, visiting) | self._deck_kinds(d.right, visiting)
        if isinstance(d, A.DeckCopies):
            return self._deck_kinds(d.term, visiting)
        if isinstance(d, A.DeckRef):
            if d.name in m.decks and d.name not in visiting:
                return self._deck_kinds(m.decks[d.name].deck, visiting | {d.name})
            return {d.name} if d.name in m.kinds else set()
        if isinstance(d, A.DeckCard):
            return {d.kind} if d.kind in m.kinds else set()
        return set()

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

    def _heuristic(self) -> None:
        """`define heuristic(p)`: what a position is worth to player p, for the bots (docs/bots.md)."""
        d = self.model.defines.get("heuristic")
        if d is None:
            return
        if len(d.params) != 1:
            self.error("E203", "`heuristic` takes one parameter, the player", d,
                       "write define heuristic(p) = ..., a number: how good the position is for p")
            return
        t = self._define_type(d)
        if not T.fits(t, T.INT):
            self.error("E202", f"`heuristic` should be a number, but this is {T.describe(t)}", d.body,
                       "a bot takes the position where heuristic(p) is largest: count what p has, "
                       "e.g. 10 * size(tricks[p]) + count(each c in hand[p] where c.rank == 1)")

    def _team(self) -> None:
        """`define team(p)`: the partnership of player p; partners win or lose together (docs §2.16.1)."""
        m = self.model
        d = m.defines.get("team")
        if d is None:
            return
        if len(d.params) != 1:
            self.error("E203", "`team` takes one parameter, the player", d,
                       "write define team(p) = ..., the same value for partners: p % 2 for partners across the table")
            return
        t = self._define_type(d)
        if not (T.fits(t, T.INT) or T.fits(t, T.PLAYER) or t.startswith("enum:")):
            self.error("E202", f"`team` should be a number, a player or an enum value, but this is {T.describe(t)}",
                       d.body, "partners are the players with the same value: p % 2, or a variable per player")
        if m.winner is not None and m.winner.everyone:
            self.error("E204", "`winner: all` makes the players one team; `define team(p)` cannot split them",
                       d, "a cooperative game needs no teams: remove `define team`")

    def _statistics(self) -> None:
        """`statistic NAME = EXPR`: a number or true/false, worked out when each game ends (docs §2.18)."""
        for st in self.model.statistics.values():
            self._owner = None
            t = self.expr(st.expr, {}, pure=True)
            if t == T.BOOL:
                self.model.statistic_shares.add(st.name)
            if not (T.fits(t, T.INT) or T.fits(t, T.BOOL)):
                self.error("E202", f"a statistic is a number or true/false, but `{st.name}` is {T.describe(t)}",
                           st.expr, "count it (count(each ...), size(...)) or ask a question of it "
                                    "(`dealer_score > 21`): simulate adds up numbers as a mean, "
                                    "true/false as the share of games where it held")

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

    def _deck_count(self, d: A.DeckCopies) -> None:
        """`N * deck` with N a parameter, a define or a table entry: worked out for each player count."""
        told = []

        def check(value, n):
            if isinstance(value, int) and not isinstance(value, bool) and value >= 1:
                return value
            if value is not None and not told:
                at = f"; it is {value!r} with {n} players" if n is not None else f", not {value!r}"
                self.error("E212", f"a number of copies must be at least 1{at}", d.count)
                told.append(n)
            return 1

        value, by = self._sized(d.count, check)
        self.model.copies[d] = value
        if by:
            self.model.copies_by[d] = by

    def deck(self, d, visiting: set) -> None:
        m = self.model
        if isinstance(d, A.DeckSum):
            self.deck(d.left, visiting)
            self.deck(d.right, visiting)
        elif isinstance(d, A.DeckCopies):
            if d.count is not None:
                self._deck_count(d)
            elif d.copies < 1:
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


    # ------------------------------------------------------------ expressions


def _once_per_name(found: list) -> list:
    """An unknown name (a misspelling, a define spelt one way where it is declared and another where it is
    used) is told once, where it is first used, with the other places in the hint; and of two errors of one
    code at the very same place only the first is told: one cause, one error."""
    first: dict = {}
    later: dict = {}
    for d in found:
        if d.code in ("E200", "E201"):
            key = (d.code, d.message)
            if key in first:
                later.setdefault(key, []).append(d)
                continue
            first[key] = d
    out = []
    spans: set = set()  # (code, span) already told: one expression checked twice (a rewritten move) is told once
    for d in found:
        key = (d.code, d.message)
        if d.code in ("E200", "E201") and first.get(key) is not d:
            continue
        if (d.code, d.span) in spans and d.span != NOWHERE:
            continue
        spans.add((d.code, d.span))
        if key in later:
            places = [f"{o.line}:{o.column}" if o.file == d.file else str(o.span) for o in later[key]]
            also = "also used at " + (", ".join(places[:-1]) + " and " if len(places) > 1 else "") + places[-1]
            d = attrs.evolve(d, hint=f"{d.hint} ({also})" if d.hint else also)
        out.append(d)
    return out


def _first_leave(items):
    """The first `leave`/`rejoin` statement of the rules, or None."""
    todo = list(items)
    while todo:
        node = todo.pop()
        if isinstance(node, A.Leave):
            return node
        if isinstance(node, tuple):
            todo.extend(node)
        elif isinstance(node, A.Node):
            todo.extend(getattr(node, f.name) for f in attrs.fields(type(node)))
    return None


def _nowhere(assembly):
    from ..language.errors import Span

    first = next(iter(assembly.texts), "<rules>")
    return Span(first)

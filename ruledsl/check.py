"""The checking pass: names, types, zones and decisions, with every error at once.

``check(assembly, params)`` builds the :class:`Model` of a rules file (its
symbol tables, read by :mod:`ruledsl.declare`) and reports every problem it
finds as a positioned diagnostic, with a hint where one helps ("did you mean
`hand`?"). The compiler takes the model and trusts it.
"""

from __future__ import annotations

import attrs

from . import ast as A
from . import showing
from . import types as T
from .assemble import Assembly, diag
from .cardsets import SetParam
from .declare import BAD_DIM, SEATS_OUT, Binding, Declarations, Model, VarInfo, _dim_word, _suggest
from .errors import NOWHERE, Diagnostic, RulesError
from .guards import Guards
from .parse import keywords


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


class _Checker(Declarations):
    def __init__(self, assembly: Assembly):
        self.assembly = assembly
        self.model = Model(texts=assembly.texts)
        self.errors: list[Diagnostic] = []
        self.calls: dict[str, set] = {}  # define/procedure -> names it calls, for cycles
        self._owner: str | None = None
        self._loops = 0  # how many loops enclose the statement being checked
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
        if m.flow is not None:
            self.block(m.flow.body, {}, in_trigger=False)
        for name, options in m.extensions.items():
            if not self._choice_exists(name):
                node = options[0] if options else None
                if node is not None:
                    self.error("E210", f"`extend choose {name}`: there is no decision named `{name}`", node)
        self._check_cycles()

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

    def loop_block(self, stmts, scope: dict, in_trigger: bool, loops: int | None = None) -> None:
        """A block that `break` and `continue` may leave (or, with ``loops=0``, may not)."""
        saved = self._loops
        self._loops = saved + 1 if loops is None else loops
        try:
            self.block(stmts, scope, in_trigger)
        finally:
            self._loops = saved

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
            if _at_random(s):
                if zt == T.TRACK:
                    self.error("E202", "`at random` buries a card in a pile or row; a track's slot is a number",
                               s.at, "pick a slot with random(each k in 0..N)")
            elif s.at is not None:
                if zt not in (T.TRACK, T.ANY):
                    self.error("E202", "`at` names a slot; only a track has slots", s.at,
                               "`at random` puts a card at a random depth of a pile")
                self.expect(self.expr(s.at, scope), T.INT, s.at, "a slot")
            elif zt == T.TRACK:
                self.error("E202", f"a card goes into a track at a slot: put ... into {s.zone.name}[...] at SLOT", s)
        elif isinstance(s, A.PutEach):
            inner = self._bind_domain(s, scope, False, False)
            for ref in (s.source, s.target):
                zt = self.zone_ref(ref, inner)
                if zt == T.TRACK:
                    self.error("E202", "`put each` moves piles and rows, not tracks", ref)
        elif isinstance(s, A.Deal):
            self.expect(self.expr(s.count, scope), T.INT, s.count, "the number of cards dealt")
            for ref in (s.source, s.target):
                if self.zone_ref(ref, scope) == T.TRACK:
                    self.error("E202", "`deal` works on piles and rows, not tracks", ref)
        elif isinstance(s, (A.Shuffle, A.Gather)):
            if self.zone_ref(s.zone, scope) == T.TRACK:
                self.error("E202", "a track cannot be shuffled or gathered into", s.zone)
        elif isinstance(s, A.If):
            saved = self.guards.known
            for cond, body in s.branches:
                self.expect(self.expr(cond, scope), T.BOOL, cond, "a condition")
                with self.guards.assuming(cond):
                    self.block(body, scope, in_trigger)
                self.guards.known = self.guards.known | self.guards.negfacts(cond)
            if s.otherwise is not None:
                self.block(s.otherwise, scope, in_trigger)
            self.guards.known = saved
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
            if s.where is not None:
                self.expect(self.expr(s.where, inner), T.BOOL, s.where, "a `where` condition")
            with self.guards.assuming(s.where):
                self.loop_block(s.body, inner, in_trigger)
        elif isinstance(s, A.Repeat):
            self.expect(self.expr(s.count, scope), T.INT, s.count, "the number of repeats")
            self.loop_block(s.body, scope, in_trigger)
        elif isinstance(s, A.While):
            self.expect(self.expr(s.cond, scope), T.BOOL, s.cond, "a condition")
            self.loop_block(s.body, scope, in_trigger)
        elif isinstance(s, A.Break):
            word = "continue" if s.again else "break"
            if self._loops == 0:
                self.error("E206", f"`{word}` is not inside a loop (for, repeat, while, turns) here", s,
                           f"a `{word}` inside a `reveal` or `at once` block, or in a procedure, cannot leave it")
        elif isinstance(s, A.Leave):
            self.expect(self.expr(s.player, scope), T.PLAYER, s.player,
                        "the player who " + ("comes back" if s.back else "leaves"))
        elif isinstance(s, A.Turns):
            if in_trigger:
                self.error("E206", "a trigger cannot run turns; it happens at once", s)
            self.expect(self.expr(s.start, scope), T.PLAYER, s.start, "the first player")
            self.expect(self.expr(s.until, scope, pure=True), T.BOOL, s.until, "the end of the turns")
            self.loop_block(s.body, scope, in_trigger)
        elif isinstance(s, A.Choose):
            if in_trigger:
                self.error("E206", "a trigger cannot ask a player to choose; it happens at once", s,
                           "set a variable in the trigger and ask in the flow")
            if s.each is not None:
                scope = self._choosers(s, scope)
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
                    if isinstance(p, SetParam) and s.each is not None and len(o.params) == 1:
                        self.error("E206", f"move `{o.name}` of `choose {s.name} by each ...` takes a set of cards "
                                           "but says not when the set is complete", p,
                                   f"a set chosen together is complete as soon as its condition holds: "
                                   f"write one, as in move {o.name}({p.name} subset of ...) where size({p.name}) >= 3")
                        inner[p.name] = self.bind(Binding(p.name, self.expr(p.domain, inner, pure=True)), p)
                        continue
                    if isinstance(p, SetParam):
                        self.error("E202", f"move `{o.name}` takes a set of cards beside other parameters",
                                   p, "a move with `subset of` takes that one parameter only")
                        inner[p.name] = self.bind(Binding(p.name, self.expr(p.domain, inner, pure=True)), p)
                        continue
                    t = self.expr(p.domain, inner, pure=True)
                    elem = T.element(t)
                    if elem is None:
                        self.error("E202", f"a move parameter runs over players, an enum, a zone or a range, "
                                           f"not {T.describe(t)}", p.domain)
                        elem = T.ANY
                    inner[p.name] = self.bind(Binding(p.name, elem), p)
                if o.where is not None:
                    self.expect(self.expr(o.where, inner, pure=True), T.BOOL, o.where, "a move's condition")
                with self.guards.assuming(o.where):
                    self.block(o.body, inner, in_trigger)
        elif isinstance(s, (A.Reveal, A.Show)):
            word = "reveal" if isinstance(s, A.Reveal) else "show"
            example = ("as in `reveal hand[v] to current { ... }` or `reveal hand[a] + hand[b] to p { ... }`"
                       if word == "reveal" else "as in `show c`, `show hand[v] to current` or `show top(deck, 2)`")
            for part in showing.parts(s.what):
                t = self.expr(part, scope)
                if not showing.revealable(t):
                    self.error("E202", f"`{word}` shows {showing.REVEALABLE}, not {T.describe(t)}", part, example)
            if s.to is not None:
                self.expect(self.expr(s.to, scope), T.PLAYER, s.to, "the player who sees")
            if isinstance(s, A.Reveal):
                self.loop_block(s.body, scope, in_trigger, loops=0)
        elif isinstance(s, A.Tell):
            if s.attr not in m.attributes:
                self.error("E200", f"no kind of card has an attribute `{s.attr}`", s,
                           _suggest(s.attr, m.attributes) or "tell names an attribute: tell colour of ...")
            for part in showing.parts(s.what):
                t = self.expr(part, scope)
                if not showing.revealable(t):
                    self.error("E202", f"`tell` tells about {showing.REVEALABLE}, not {T.describe(t)}", part,
                               "as in `tell colour of cards(each c in hand[v] where c.colour == red)`")
            if s.to is not None:
                self.expect(self.expr(s.to, scope), T.PLAYER, s.to, "the player who learns")
        elif isinstance(s, A.AtOnce):
            if not s.setup and _contains_choice(s.body, m.procedures):
                self.error("E206", "`at once` cannot ask a player to choose; its effects happen together", s,
                           "to keep triggers quiet while players decide, use `setup { ... }`")
            self.loop_block(s.body, scope, in_trigger, loops=0)
        elif isinstance(s, A.New):
            zone = self._growing(s.zone, scope, whole=False)
            if s.var in scope or s.var in m.vars or s.var in m.params:
                self.error("E204", f"`{s.var}` is already a name here; choose another", s)
            scope[s.var] = self.bind(Binding(s.var, T.INT), s)
            del zone
        elif isinstance(s, A.Remove):
            self._growing(s.zone, scope, whole=True)
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
        if s.member is not None:
            full = self._member(s.name, s.member, "var", s)
            if full is None:
                for i in s.indices:
                    self.expr(i, scope)
                return T.ANY
            var = m.vars[full]
            self.indices(var.dims, s.indices, scope, s, s.name)
            return var.type
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
            want = {"player": T.PLAYER, "card": T.CARD}.get(dim[0]) or (T.enum(dim[1]) if dim[0] == "enum" else T.INT)
            if dim == BAD_DIM:
                want = T.ANY  # the declaration's index was reported: any index is taken here
            self.expect(t, want, expr, f"the index of `{name}`")
            if dim[0] == "grow" and _is_constant(expr, self.model):
                value = self._const(expr)
                prefix = ", ".join(_dim_word(d) for d in dims[:-1])
                family = f"{name}[{prefix}]" if prefix else name
                if isinstance(value, int) and not 1 <= value <= dim[2]:
                    self.error("E215", f"`{name}` has members 1 to {dim[2]} at most, so member {value} never exists",
                               expr, f"use the number `new {family} as i` gives, or `for i in members({family})`")

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

    def _choosers(self, s: A.Choose, scope: dict) -> dict:
        """`choose NAME by each p in DOMAIN`: binds ``p``, one of the players who choose together."""
        t = self.expr(s.domain, scope)
        if T.element(t) not in (T.PLAYER, T.ANY):
            self.error("E202", f"the players who choose together run over players, not {T.describe(t)}", s.domain,
                       "as in `choose bid by each p in players { ... }`")
        if s.each in scope or s.each in self.model.vars or s.each in self.model.params:
            self.error("E204", f"`{s.each}` is already a name here", s, "pick another name for the chooser")
        inner = dict(scope)
        inner[s.each] = self.bind(Binding(s.each, T.PLAYER), s)
        return inner

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
            self.error("E200", f"unknown zone or variable `{name}`", e.obj, _suggest(name, list(m.zones) + list(m.vars)))
            for i in e.indices:
                self.expr(i, scope, pure)
            return T.ANY
        if isinstance(e, A.Call):
            return self.call(e, scope, pure, static)
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
                if e.key is not None:
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


def _at_random(s) -> bool:
    """`put c into stock at random`: a random depth of a pile."""
    return isinstance(s.at, A.Name) and s.at.name == "random"


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


def _is_constant(e, model) -> bool:
    """Whether an expression's value is fixed when the game is loaded (numbers, parameters, arithmetic)."""
    if isinstance(e, A.IntLit):
        return True
    if isinstance(e, A.Name):
        return e.name in model.params and e not in model.bindings
    if isinstance(e, A.Neg):
        return _is_constant(e.operand, model)
    if isinstance(e, A.BinOp) and e.op in ("+", "-", "*", "/", "%"):
        return _is_constant(e.left, model) and _is_constant(e.right, model)
    return False


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


def _nowhere(assembly):
    from .errors import Span

    first = next(iter(assembly.texts), "<rules>")
    return Span(first)

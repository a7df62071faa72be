"""Checking statements: assignments, puts, decisions, loops and calls, each in its scope.

:class:`StatementChecks` is the part of the checker (:mod:`ruledsl.checker.check`)
that walks the bodies of the flow, procedures, moves and triggers; each
expression in them goes to :mod:`.expressions`.
"""

from __future__ import annotations

from ..language import ast as A
from ..language.setmoves import SetParam
from . import types as T
from .declare import BAD_DIM, Binding, _dim_word, _suggest
from .treewalk import (
    _announced,
    _at_random,
    _contains_choice,
    _is_constant,
    _meld_test_in,
    _turn_control,
)


class StatementChecks:
    """The checks of statements (a mixin of the checker; see the module's docstring)."""

    def block(self, stmts, scope: dict, in_trigger: bool) -> None:
        scope = dict(scope)
        for s in stmts:
            self.stmt(s, scope, in_trigger)

    def loop_block(self, stmts, scope: dict, in_trigger: bool, loops: int | None = None) -> None:
        """A block that `break` and `continue` may leave (or, with ``loops=0``, may not)."""
        saved, held = self._loops, self._held
        self._loops = saved + 1 if loops is None else loops
        self._held = held + (loops == 0)
        try:
            self.block(stmts, scope, in_trigger)
        finally:
            self._loops, self._held = saved, held

    def stmt(self, s, scope: dict, in_trigger: bool) -> None:
        m = self.model
        if isinstance(s, A.Assign):
            t = self.assign_target(s, scope)
            v = self._value(s.value, scope, in_trigger)
            if s.op in ("+=", "-="):
                self.expect(t, T.INT, s, f"`{s.op}`")
                self.expect(v, T.INT, s.value, f"the value of `{s.op}`")
            else:
                self.expect(v, t, s.value, f"the value of `{s.name}`")
            self.announcement(s, scope, t)
        elif isinstance(s, A.Let):
            t = self._value(s.value, scope, in_trigger)
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
        elif isinstance(s, A.Reverse):
            if self.zone_ref(s.zone, scope) == T.TRACK:
                self.error("E202", "`reverse` turns a pile or a row over; a track's cards keep their slots", s.zone,
                           "move the cards of a track slot by slot with `put ... at SLOT`")
        elif isinstance(s, A.Swap):
            self._swap(s, scope)
        elif isinstance(s, A.Return):
            self.check_return(s, scope)
        elif isinstance(s, A.If):
            saved = self.guards.known
            tested = isinstance(s, A.Match) and self.check_match(s, scope)
            for cond, body in s.branches:
                if not isinstance(s, A.Match) or tested:
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
            self._turns += 1
            try:
                self.loop_block(s.body, scope, in_trigger)
            finally:
                self._turns -= 1
        elif isinstance(s, (A.NextTurn, A.FinalRound)):
            self.turn_control(s, scope, in_trigger)
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
            always = next((o for o in options if not o.params and o.where is None), None)
            if s.no_move_end is not None and always is not None:
                self.error("E206", f"decision `{s.name}` always has a legal move, `{always.name}` (no parameters, "
                                   "no `where`), so `when no move: end game` never ends the game",
                           s.no_move_end, f"remove the line, or give `{always.name}` the condition it is played on")
            self._hidden_meld_tests(options)
            for o in options:
                if o.bound is not None:
                    self._bound_problem(o)
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
                    elif elem not in T.MOVE_ARGS and not elem.startswith("enum:"):
                        self.error("E202", f"move `{o.name}`'s parameter `{p.name}` runs over {T.describe(t)}; "
                                           "a move's parameter is a number, true/false, a player, "
                                           "a card or an enum value", p.domain,
                                   "declare an enum of the choices, as in `enum mode { fast, slow }`, and write "
                                   f"`{p.name} in mode`" if elem == T.STR else None)
                        elem = T.ANY
                    inner[p.name] = self.bind(Binding(p.name, elem), p)
                    if p.label is not None:
                        self._move_label(p, elem)
                if o.where is not None:
                    self.expect(self.expr(o.where, inner, pure=True), T.BOOL, o.where, "a move's condition")
                with self.guards.assuming(o.where):
                    self.block(o.body, inner, in_trigger)
        elif isinstance(s, (A.Reveal, A.Show)):
            word = "reveal" if isinstance(s, A.Reveal) else "show"
            example = ("as in `reveal hand[v] to current { ... }` or `reveal hand[a] + hand[b] to p { ... }`"
                       if word == "reveal" else "as in `show c`, `show hand[v] to current` or `show top(deck, 2)`")
            for part in T.parts(s.what):
                t = self.expr(part, scope)
                if not T.revealable(t):
                    self.error("E202", f"`{word}` shows {T.REVEALABLE}, not {T.describe(t)}", part, example)
            if s.to is not None:
                self.expect(self.expr(s.to, scope), T.PLAYER, s.to, "the player who sees")
            if isinstance(s, A.Reveal):
                self.loop_block(s.body, scope, in_trigger, loops=0)
        elif isinstance(s, A.Tell):
            if s.attr not in m.attributes:
                self.error("E200", f"no kind of card has an attribute `{s.attr}`", s,
                           _suggest(s.attr, m.attributes) or "tell names an attribute: tell colour of ...")
            for part in T.parts(s.what):
                t = self.expr(part, scope)
                if not T.revealable(t):
                    self.error("E202", f"`tell` tells about {T.REVEALABLE}, not {T.describe(t)}", part,
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
                self._call_turn_control(s, proc, in_trigger)
                if self._owner is not None:
                    self.calls.setdefault(self._owner, set()).add(s.name)
                self.check_call(s.name, s.args, scope, s)
                return
            for a in s.args:
                self.expr(a, scope)

    def check_match(self, s: A.Match, scope: dict) -> bool:
        """A ``match``: its subject is an enum value, each arm names values of that enum, no value twice,
        and every value has an arm unless there is an ``else:`` (docs §4.7.1). True when all holds, so
        the if-chain it stands for can be checked as any other."""
        before = len(self.errors)
        t = self.expr(s.subject, scope)
        if len(self.errors) > before:
            return False
        if t == T.ANY:
            return True
        if not t.startswith("enum:"):
            self.error("E202", f"`match` chooses by the value of an enum; this is {T.describe(t)}", s.subject,
                       "for numbers, players or true/false write `if ... else if ...`")
            return False
        enum = t[5:]
        values = self.model.enums[enum].values
        named: dict = {}
        for names in s.arms:
            for n in names:
                if n.name not in values:
                    self.error("E202", f"`{n.name}` is not a value of `{enum}`, which `match` chooses by", n,
                               "one of " + ", ".join(values[:8]) + (", ..." if len(values) > 8 else ""))
                elif n.name in named:
                    self.error("E204", f"`{n.name}` has two arms in this `match`; the second would never run", n,
                               f"the first is at line {named[n.name].span.line}: merge the two")
                else:
                    named[n.name] = n
        missing = [v for v in values if v not in named]
        if s.otherwise is None and missing:
            shown = ", ".join(f"`{v}`" for v in missing[:6]) + (f" and {len(missing) - 6} more"
                                                              if len(missing) > 6 else "")
            self.error("E205", f"this `match` on `{enum}` has no arm for {shown}", s,
                       f"add an arm for each (`{missing[0]}: {{ }}` when nothing happens), "
                       "or `else: { ... }` for the rest")
        elif s.otherwise is not None and not missing:
            self.error("E205", f"every value of `{enum}` has an arm, so this `match`'s `else:` never runs",
                       s.otherwise[0] if s.otherwise else s, "remove the `else:` arm")
        return len(self.errors) == before

    def announcement(self, s: A.Assign, scope: dict, t: str) -> None:
        """`announce v = EXPR` and the plain assignments of an announced variable (docs §4.14.3)."""
        m = self.model
        if not hasattr(self, "_announced_vars"):
            self._announced_vars = _announced(m)
        full = s.name if s.member is None else f"{s.name}.{s.member}"
        if not s.announced:
            first = self._announced_vars.get(full)
            if first is not None and not (s.name in scope and not s.indices):
                self.error("E206", f"`{s.name}` is announced (line {first.span.line}): set it only with `announce`",
                           s, f"write announce {s.name}... = ..., so that every value players see of it is told")
            return
        if s.name in scope and not s.indices:
            self.error("E202", f"`announce` tells the value of a variable; `{s.name}` is a local name", s,
                       f"declare it: var {s.name}: bool (public: everyone is told; owner: its player is)")
            return
        var = m.vars.get(full)
        if var is None:
            return  # reported by the assignment
        if var.visibility == "hidden":
            self.error("E202", f"`{s.name}` is hidden: an announcement would tell nobody", s,
                       f"make it public (var {s.name}: ...) or owner, to tell the player of its index")
        elif t in (T.CARD, T.CARDS):
            self.error("E202", f"`announce` tells a number, true/false, a player or an enum value, not {T.describe(t)}",
                       s, "to let players see a card, use `show` or move it face up")

    def turn_control(self, s, scope: dict, in_trigger: bool) -> None:
        """`next turn p` and `final round`: they steer the innermost `turns` (docs §4.11.1, §4.11.2)."""
        word = "next turn" if isinstance(s, A.NextTurn) else "final round"
        if isinstance(s, A.NextTurn):
            self.expect(self.expr(s.player, scope), T.PLAYER, s.player, "the player who moves next")
        if in_trigger:
            self.error("E206", f"a trigger cannot use `{word}`: it steers the turns of the flow", s,
                       "set a variable in the trigger and act on it in the turn")
        elif self._turns == 0 and self._owner is None:
            self.error("E206", f"`{word}` is not inside `turns` here: there is no turn to pass", s,
                       f"use `{word}` in the body of `turns from ... until ... {{ ... }}`, "
                       "or in a procedure called there")

    def _call_turn_control(self, s: A.CallStmt, proc, in_trigger: bool) -> None:
        """A call of a procedure that uses `next turn` or `final round` must stand inside `turns`."""
        if not in_trigger and (self._turns > 0 or self._owner is not None):
            return  # inside turns, or in a procedure: its own calls are checked
        found = _turn_control(proc.body, self.model.procedures)
        if found is not None:
            word = "next turn" if isinstance(found, A.NextTurn) else "final round"
            where = "a trigger" if in_trigger else "outside `turns`"
            self.error("E206", f"`{s.name}` uses `{word}` (line {found.span.line}), but it is called {where} here",
                       s, "call it from the body of `turns from ... until ... { ... }`")

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

    def _value(self, value, scope: dict, in_trigger: bool) -> str:
        """The value of `let` or `=`: an expression, or the result of a procedure (`let c = best(p)`)."""
        if isinstance(value, A.Call) and value.name in self.model.procedures and value.name not in self.model.defines:
            return self.result_call(value, scope, in_trigger)
        return self.expr(value, scope)

    def _swap(self, s: A.Swap, scope: dict) -> None:
        """`swap a with b`: two piles or rows, or two tracks of one size."""
        kinds = [self.zone_ref(ref, scope) for ref in (s.first, s.second)]
        if T.ANY in kinds:
            return
        if kinds[0] != kinds[1]:
            track, other = (s.first, s.second) if kinds[0] == T.TRACK else (s.second, s.first)
            self.error("E202", f"`swap` exchanges two piles or rows, or two tracks; `{track.name}` is a track and "
                               f"`{other.name}` is not", s,
                       "a track's cards keep their slots: move them one by one with `put ... at SLOT`")
            return
        if kinds[0] == T.TRACK:
            a, b = (self.model.zones.get(ref.name) for ref in (s.first, s.second))
            sizes = [z.sizes or {None: z.size} for z in (a, b)]
            if sizes[0] != sizes[1]:
                self.error("E202", f"`swap` exchanges tracks slot by slot; `{a.name}` and `{b.name}` have "
                                   "different numbers of slots", s)

    def _hidden_meld_tests(self, options) -> None:
        """E206: a set being built (language/setmoves.py: `add(cs~c)` and `done`) whose condition's meld tests
        are in a define, so that its `while` could not be worked out and no `while` is written."""
        add = next((o for o in options if o.name == "add" and len(o.params) == 1
                    and o.params[0].name.endswith("~c")), None)
        done = next((o for o in options if o.name == "done" and not o.params), None)
        if add is None or done is None or done.where is None or not isinstance(add.where, A.Not):
            return
        call = _meld_test_in(done.where, self.model.defines)
        if call is not None:
            cs = add.params[0].name[:-2]
            self.error("E206", f"the meld tests of this set are inside `{call.name}`, where the game cannot see "
                               f"them: it cannot work out which sets can still become a meld", call,
                       f"write the tests in the move's own condition, as in where same(each c in {cs} by "
                       f"c.ATTRIBUTE) and size({cs}) >= 3, or say which sets can still become one with "
                       f"`{cs} subset of ... while CONDITION`")

    def _bound_problem(self, o: A.Option) -> None:
        """A move's bound (`at most N per turn`) that the builder could not write out (language/bounds.py)."""
        b = o.bound
        if b.problem is not None:
            self.error(b.problem[0], b.problem[1], b, b.problem[2])
        else:
            self.error("E206", f"move `{o.name}` of `extend choose` has a bound; a bound belongs to a move "
                               "written in its `choose` or `respond`", b,
                       "write the move (with its bound) where the decision is, or count in a variable of your own")

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

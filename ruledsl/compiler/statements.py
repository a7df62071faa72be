"""Compiling statements: the flow as a flat list of steps with jumps.

:class:`Statements` is the part of the compiler (:mod:`ruledsl.compiler.compiler`)
that emits the steps of a block: effects (puts, deals, assignments), lets,
`if`, decisions (`choose`), procedure calls, `reveal`/`show`/`tell`, and the
loops of :mod:`.loops`. Each step keeps the span of its rule line.
"""

from __future__ import annotations

from ..checker import types as T
from ..checker.limits import MAX_INT, within_int
from ..checker.treewalk import _turn_control
from ..language import ast as A
from . import listed
from .expressions import bound_of
from .members import new_member, remove_member
from .picking import leave_effect, out_base, put_each_effect, step_fn
from .program import Choice, _changed_all, _local, _runtime
from .rng import randbelow, shuffle
from .showing import compile_reveal, compile_show, compile_tell
from .steps import CHOOSE, EFFECT, HALT, JUMP, JUMP_IF_NOT, SET
from .stmtsrc import assign_var, put_lines, take_card, with_stmt
from .stmtsrc import set_local as set_local_src
from .together import compile_together


class Statements:
    """Statements to steps (a mixin of the compiler; see the module's docstring)."""

    def within_limits(self, value, t: str, span):
        """``value``, checked to be a whole number of the language (|v| < 2^63) each time it is stored.

        Numbers are stored only by assignments and `let`, so this bounds every number a game keeps: a
        rule that squares a number again and again is a finding at its line, not a hang. A constant is
        checked once, here."""
        if t != T.INT:
            return value
        if getattr(value, "constant", False):
            within_int(value(None, None), span)
            return value
        bound = bound_of(value)
        if bound is not None and bound <= MAX_INT:
            return value  # always a whole number of the language (a card's number, x % k, ...)

        def fits(v):
            return within_int(v, span)

        src = getattr(value, "src", None)
        if src is not None:
            return self.gen(f"{self.name_for(fits, 'fits')}({src})")

        def bounded(st, L):
            return fits(value(st, L))

        return bounded

    def block(self, stmts) -> None:
        for s in stmts:
            self.stmt(s)

    def stmt(self, s) -> None:
        m = self.m
        span = s.span
        if isinstance(s, (A.Assign, A.Let)) and isinstance(s.value, A.Call) and s.value in m.results:
            slot = self.local_count  # the procedure's result, read by the assignment below
            self.local_count += 1
            self.call_proc(m.procedures[s.value.name], s.value.args, span, slot)
            self.result_slots[s.value] = slot
        if isinstance(s, A.Assign):
            value = self.within_limits(*self.expr(s.value), span)
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
            value = self.within_limits(value, t, span)
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
        elif isinstance(s, A.Reverse):
            zf = self.zone_ref(s.zone)
            zone_bit = self.zone_bit

            def reverse_zone(st, L):
                z = zf(st, L)
                st.zones[z].reverse()
                return zone_bit[z]

            self.emit(EFFECT, reverse_zone, span=span)
        elif isinstance(s, A.Swap):
            self.emit(EFFECT, swap_fn(self, s), span=span)
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
        elif isinstance(s, A.Turns) and _turn_control(s.body, m.procedures) is not None:
            self.steered_turns(s)  # `next turn` or `final round` inside: see loops.py
        elif isinstance(s, (A.NextTurn, A.FinalRound)):
            self.turn_control(s)
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
            choice = Choice(s.name, actor, [], span, no_move_end=s.no_move_end is not None)
            cid = len(self.choices)
            self.choices.append(choice)
            self.emit(CHOOSE, cid, span=span)
            ends = []
            options = list(s.options) + list(m.extensions.get(s.name, ()))
            # the `any`s of a condition that the options listed before it answer (listed.py)
            for o, known in zip(options, listed.answers(m, self.params, options)):
                option = self.option(o, known)
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
            self.call_proc(m.procedures[s.name], s.args, span)
        elif isinstance(s, A.Return):
            slot, jumps = self.returns[-1]
            if slot is not None:
                value = self.within_limits(*self.expr(s.value), span)

                def give(st, L, slot=slot, value=value):
                    L[slot] = value(st, L)

                self.emit(SET, set_local_src(give, slot, value), span=span)
            jumps.append(self.emit(JUMP, None, span=span))
        else:
            raise AssertionError(f"cannot compile {type(s).__name__}")

    def call_proc(self, proc, args, span, result: int | None = None) -> None:
        """A procedure written out at its call (``span``, named by the coverage of its steps): its
        arguments computed once, a `return` writing ``result`` (a local slot, or None when the result
        is not taken) and leaving the body."""
        for pname, arg in zip(proc.params, args):
            b = self._binding(proc, pname)
            slot = self.slot(b)
            value, t = self.expr(arg)
            self.env[b] = (_local(slot), t)

            def bind_arg(st, L, slot=slot, value=value):
                L[slot] = value(st, L)

            self.emit(SET, set_local_src(bind_arg, slot, value), span=arg.span)
        self.returns.append((result, []))
        self.call_stack.append(span)
        try:
            self.block(proc.body)
        finally:
            self.call_stack.pop()
            _, jumps = self.returns.pop()
        for j in jumps:
            self.code[j][1] = len(self.code)

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


def swap_fn(c, s: A.Swap):
    """`swap a with b`: the effect that exchanges the cards of two zones (of two tracks, slot by slot)."""
    fa, fb = c.zone_ref(s.first), c.zone_ref(s.second)
    zones, zone_bit, place_bit = c.zone_list, c.zone_bit, c.place_bit

    def swap_zones(st, L):
        a, b = fa(st, L), fb(st, L)
        if a == b:
            return 0
        if not zones[a].places:
            za, zb, loc = st.zones[a], st.zones[b], st.loc
            za[:], zb[:] = zb[:], za[:]
            for card in za:
                loc[card] = a
            for card in zb:
                loc[card] = b
            return zone_bit[a] | zone_bit[b]
        places, loc, changed = st.places, st.loc, 0
        for pa, pb in zip(zones[a].places, zones[b].places):
            if pa != pb:  # a slot two tracks share keeps its card
                places[pa], places[pb] = places[pb], places[pa]
                for p in (pa, pb):
                    if places[p] >= 0:
                        loc[places[p]] = -p - 1
                changed |= place_bit[pa] | place_bit[pb]
        return changed

    return swap_zones

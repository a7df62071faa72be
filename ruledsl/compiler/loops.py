"""Compiling loops: `for ... [from ...] [where ...]`, `repeat`, `while`, and `break`/`continue` in them.

A loop is a few steps with jumps. While its body is compiled, the loop keeps
a list of the `break` jumps (patched to the step after the loop) and the
`continue` jumps (patched to the step that starts its next round); `turns`
uses the same books (see the compiler).
"""

from __future__ import annotations

from ..checker import types as T
from ..language import ast as A
from .picking import every_seat, from_fn, out_base, step_fn
from .program import _runtime
from .steps import JUMP, JUMP_IF_NOT, SET
from .stmtsrc import with_stmt


class Loops:
    """The loop statements (a part of the compiler; needs ``expr``, ``block``, ``emit``, ``code``)."""

    def loop(self, s) -> None:
        span = s.span
        if isinstance(s, A.For):
            b = self._binding(s, s.var)
            var = self.slot(b)
            dfn, dt = self.expr(s.domain)
            self.env[b] = (self.local(var), T.element(dt) or T.ANY)
            dom = self.domain(dfn, dt, s.domain.span)
            lst, idx = self.new_slot(), self.new_slot()
            if T.element(dt) == T.CARD:
                self.card_list_slots.add(lst)  # swapped cards (verify, worlds.follow_cards) follow the loop's list
            if s.start is not None:
                dom = from_fn(self, self.expr(s.start)[0], s.start.span, every_seat(self, s.domain))

            def begin(st, L):
                L[lst] = list(dom(st, L))
                L[idx] = 0

            if getattr(dom, "src", None) is not None:
                with_stmt(begin, [f"L[{lst}] = list({dom.src})", f"L[{idx}] = 0"])
            self.emit(SET, begin, span=span)
            top = self.emit(JUMP_IF_NOT, self.gen(f"(L[{idx}] < len(L[{lst}]))"), None, span=span)

            def bind(st, L):
                L[var] = L[lst][L[idx]]

            self.emit(SET, with_stmt(bind, [f"L[{var}] = L[{lst}][L[{idx}]]"]), span=span)
            skip = None
            if s.where is not None:
                skip = self.emit(JUMP_IF_NOT, self.expr(s.where)[0], None, span=s.where.span)
            self.loop_body(s.body)

            def step(st, L):
                L[idx] += 1

            self.close_loop(self.emit(SET, with_stmt(step, [f"L[{idx}] += 1"]), span=span), skip)
            self.emit(JUMP, top, span=span)
            self.code[top][2] = len(self.code)
            self.end_loop()
        elif isinstance(s, A.Repeat):
            count = self.expr(s.count)[0]
            left = self.new_slot()

            def begin(st, L):
                L[left] = count(st, L)

            if getattr(count, "src", None) is not None:
                with_stmt(begin, [f"L[{left}] = {count.src}"])
            self.emit(SET, begin, span=span)
            top = self.emit(JUMP_IF_NOT, self.gen(f"(L[{left}] > 0)"), None, span=span)

            def step(st, L):
                L[left] -= 1

            self.emit(SET, with_stmt(step, [f"L[{left}] -= 1"]), span=span)
            self.loop_body(s.body)
            self.close_loop(top)
            self.emit(JUMP, top, span=span)
            self.code[top][2] = len(self.code)
            self.end_loop()
        elif isinstance(s, A.While):
            cond = self.expr(s.cond)[0]
            top = self.emit(JUMP_IF_NOT, cond, None, span=span)
            self.loop_body(s.body)
            self.close_loop(top)
            self.emit(JUMP, top, span=span)
            self.code[top][2] = len(self.code)
            self.end_loop()

    def steered_turns(self, s: A.Turns) -> None:
        """`turns` whose body says who moves next (`next turn p`) or starts a final round.

        Two locals of the loop: the player named by `next turn` (None: the next in seat order) and
        the turns still to play in the final round (None: no final round yet). The turn passes as
        in plain `turns`, except that a named player moves next (the first player after them who is
        still in, if they have left), and the loop ends when the final round's turns are played."""
        span = s.span
        start = self.expr(s.start)[0]
        until = self.expr(s.until)[0]
        chosen, final = self.new_slot(), self.new_slot()
        walk = step_fn(self, 1, span)
        base = out_base(self)

        def begin(st, L):
            first = start(st, L)
            if first.__class__ is not int or not 0 <= first < st.n:
                _runtime(f"`turns from ...`: the first player is {'none' if first is None else first}, "
                         "who is no player", span)
            st.current = first
            L[chosen] = L[final] = None

        self.emit(SET, begin, span=span)
        top = self.emit(JUMP_IF_NOT, self.negated(until), None, span=s.until.span)

        def more(st, L):
            return L[final] is None or L[final] > 0

        done = self.emit(JUMP_IF_NOT, more, None, span=span)
        self.turn_frames.append((chosen, final))
        self.loop_body(s.body)
        self.turn_frames.pop()

        def advance(st, L):
            q = L[chosen]
            if q is None:
                st.current = walk(st, st.current)
            else:
                L[chosen] = None
                st.current = q if base is None or not st.vars[base + q] else walk(st, q)
            if L[final] is not None:
                L[final] -= 1

        self.close_loop(self.emit(SET, advance, span=span))
        self.emit(JUMP, top, span=span)
        self.code[top][2] = self.code[done][2] = len(self.code)
        self.end_loop()

    def turn_control(self, s) -> None:
        """`next turn p`: p moves after this turn; `final round`: every player still in takes one more
        turn (the first call counts; a second changes nothing)."""
        span = s.span
        chosen, final = self.turn_frames[-1]
        if isinstance(s, A.NextTurn):
            player = self.expr(s.player)[0]

            def next_turn(st, L):
                q = player(st, L)
                if q.__class__ is not int or not 0 <= q < st.n:
                    _runtime(f"`next turn`: {'none' if q is None else q} is no player", span)
                L[chosen] = q

            self.emit(SET, next_turn, span=span)
            return
        base = out_base(self)

        def final_round(st, L):
            if L[final] is None:
                L[final] = 1 + (st.n if base is None else sum(1 for p in range(st.n) if not st.vars[base + p]))

        self.emit(SET, final_round, span=span)

    def loop_body(self, stmts) -> None:
        """A loop's body: `break` and `continue` inside it jump to the ends this loop patches."""
        self.loops.append([[], []])
        self.block(stmts)

    def close_loop(self, again: int, *more) -> None:
        """`continue` (and a `where` that fails) jumps to ``again``, the loop's next round."""
        for j in self.loops[-1][1]:
            self.code[j][1] = again
        for j in more:
            if j is not None:
                self.code[j][2] = again

    def end_loop(self) -> None:
        """`break` jumps here, past the loop."""
        for j in self.loops.pop()[0]:
            self.code[j][1] = len(self.code)

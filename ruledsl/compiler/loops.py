"""Compiling loops: `for ... [from ...] [where ...]`, `repeat`, `while`, and `break`/`continue` in them.

A loop is a few steps with jumps. While its body is compiled, the loop keeps
a list of the `break` jumps (patched to the step after the loop) and the
`continue` jumps (patched to the step that starts its next round); `turns`
uses the same books (see the compiler).
"""

from __future__ import annotations

from ..checker import types as T
from ..language import ast as A
from .picking import from_fn
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
                dom = from_fn(self, self.expr(s.start)[0], s.start.span)

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

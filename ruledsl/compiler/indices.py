"""Compiling the index of a family of zones or variables (`hand[p]`, `g[p, a]`, `meld[p, i]`): its
flat position in the family, checked while playing where the compiler cannot prove it fits.

A part of the compiler (compile.py), split out by concept: Expressions reads zones and variables
through it, Statements writes variables through it, and members.py builds the indices of growing
families on it. Where the parts of an index have source, the index is generated code (``comp.gen``);
a bad index is a finding at the rule, with the same message either way.
"""

from __future__ import annotations

from ..checker.limits import index_fits
from .members import grown_index
from .program import _const, _runtime


class Indices:
    """Indices of families (a part of the compiler; needs ``gen``, ``src``, ``name_for``, ``_flat``)."""

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
        srcs = [getattr(f, "src", None) for f in fns]

        def plain(f, v, check) -> bool:  # a slot, or a number that may stand in this place of the index
            if getattr(f, "constant", False):
                value, (low, size, is_player) = f(None, None), check
                return type(value) is int and 0 <= value - low and (is_player or value - low < size)
            return v is not None and "(" not in v and ":=" not in v

        if len(fns) > 1 and all(plain(f, v, c) for f, v, c in zip(fns, srcs, checks)):
            return self._checked_index(fns, checks, name, span)  # in place: no closure called per index
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

    def _checked_index(self, fns: list, checks: list, name: str, span):
        """The flat position of an index of several parts, each of them plain source (a slot, a
        constant), as generated code: the checks of ``many`` written out (none for a part that is
        always one of the players), and on a bad part the same finding from a helper."""
        def bad(n, *values):
            for v, (low, size, is_player) in zip(values, checks):
                if v is None:
                    _runtime(f"`{name}[...]`: an index is none", span)
                if not 0 <= v - low < (n if is_player else size):
                    _runtime(f"`{name}[...]`: index {v} is out of range", span)
            raise AssertionError("an index found bad is in range")

        srcs = [f.src for f in fns]
        tests, flat = [], ""
        for f, v, (low, size, is_player) in zip(fns, srcs, checks):
            part = f"({v} - {low})" if low else v
            if getattr(f, "constant", False):  # an int (index_checks): only what may fail is tested
                i = f(None, None) - low
                part = str(i)
                if is_player and i >= self.m.min_players:
                    tests.append(f"{i} < s.n")
            elif not (is_player and getattr(f, "valid_player", False)):
                tests.append(f"{v} is not None and 0 <= {part} < {'s.n' if is_player else size}")
            flat = part if not flat else f"{f'({flat})' if ' ' in flat else flat} * {size} + {part}"
        if not tests:
            return self.gen(f"({flat})")
        return self.gen(f"({flat} if {' and '.join(tests)} else {self.name_for(bad, 'bad')}(s.n, {', '.join(srcs)}))")


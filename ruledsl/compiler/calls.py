"""Compiling calls of the built-in functions: size, empty, top, bottom, at, occupied, abs, min, max,
next, previous, random, members (and calls of a `define`, inlined by the compiler).

A part of the compiler (compile.py), split out by concept. Where the arguments
have source text, the call is generated code too (``comp.gen``), so that the
generated flow (flowgen.py) runs it in place; its errors are raised by helpers
with the same messages as the closures'.
"""

from __future__ import annotations

from ..checker import types as T
from ..language import ast as A
from ..language.errors import RulesRuntimeError
from .members import members_domain
from .picking import out_base, random_of, step_fn
from .rng import randbelow


def _runtime(message: str, span):
    raise RulesRuntimeError(message, span)


class Calls:
    """Built-in function calls (a part of the compiler; needs ``expr``, ``cards``, ``gen``, ``src``)."""

    def call(self, e: A.Call, statics):
        m = self.m
        if e.name == "members" and e.name not in m.defines:
            return members_domain(self, e), T.RANGE
        if e.name in m.defines:
            d = m.defines[e.name]
            args = [self.expr(a, statics=statics) for a in e.args]
            if statics is not None:
                return self.inline_define(d, args)
            return self.call_define(d, args)
        args = [self.expr(a, statics=statics) for a in e.args]
        span = e.span
        name = e.name
        fast = self.call_source(name, args, span)
        if fast is not None:
            return fast
        if name in ("size", "empty"):
            fn, t = args[0]
            if t == T.ZONE:
                f = (lambda s, L: len(s.zones[fn(s, L)])) if name == "size" else (lambda s, L: not s.zones[fn(s, L)])
            else:
                src = self.cards(fn, t, span)
                f = (lambda s, L: len(src(s, L))) if name == "size" else (lambda s, L: not src(s, L))
            return f, T.INT if name == "size" else T.BOOL
        if name in ("top", "bottom"):
            src = self.cards(*args[0], span)
            if len(args) == 2:
                n = args[1][0]

                if name == "top":
                    def ends(s, L):  # the top k cards, the topmost first
                        cards = src(s, L)
                        k = n(s, L)
                        return cards[::-1][:k] if k > 0 else []
                else:
                    def ends(s, L):  # the bottom k cards, the bottommost first
                        k = n(s, L)
                        return src(s, L)[:k] if k > 0 else []

                return ends, T.CARDS
            pos = -1 if name == "top" else 0

            def end(s, L):
                cards = src(s, L)
                if not cards:
                    _runtime(f"`{name}(...)`: the zone is empty", span)
                return cards[pos]

            return end, T.CARD
        if name in ("at", "occupied"):
            zf, _ = args[0]
            i, _ = args[1]
            zones = self.zone_list

            def place_of(s, L):
                z = zones[zf(s, L)]
                k = i(s, L)
                if not 0 <= k < len(z.places):
                    _runtime(f"`{name}`: {z.name} has no slot {k} (slots 0..{len(z.places) - 1})", span)
                return z.places[k]

            if name == "at":
                def at(s, L):
                    c = s.places[place_of(s, L)]
                    return None if c < 0 else c

                return at, T.CARD
            return (lambda s, L: s.places[place_of(s, L)] >= 0), T.BOOL
        if name == "stack_from":
            src, card = self.cards(*args[0], span), args[1][0]

            def stack_from(s, L):  # the card and every card on it, from the card up
                cards, c = src(s, L), card(s, L)
                if c is None:
                    _runtime("`stack_from(...)`: there is no card to start from (none)", span)
                for i in range(len(cards) - 1, -1, -1):
                    if cards[i] == c:
                        return cards[i:]
                _runtime(f"`stack_from(...)`: the card {s.program.card_labels[c]} is not in the zone", span)

            return stack_from, T.CARDS
        if name == "abs":
            f = args[0][0]
            return (lambda s, L: abs(f(s, L))), T.INT
        if name in ("min", "max"):
            a, b = args[0][0], args[1][0]
            op = min if name == "min" else max
            return (lambda s, L: op(a(s, L), b(s, L))), T.INT
        if name in ("next", "previous"):
            f = args[0][0]
            walk = step_fn(self, 1 if name == "next" else -1, span)
            return (lambda s, L: walk(s, f(s, L))), T.PLAYER
        if name == "random" and T.element(args[0][1]) not in (T.CARD, None):
            return random_of(self, *args[0], span), T.element(args[0][1])
        if name == "random":
            src = self.cards(*args[0], span)

            def pick(s, L):
                cards = src(s, L)
                if not cards:
                    _runtime("`random(...)`: there is no card to pick", span)
                return cards[randbelow(s, len(cards))]

            return pick, T.CARD
        raise AssertionError(f"unknown function {name}")

    def call_source(self, name, args, span):
        """The call as generated code when its arguments have source, else None."""
        srcs = [getattr(fn, "src", None) for fn, _ in args]
        if name in ("size", "empty") and srcs[0] is not None:
            fn, t = args[0]
            src = self.cards(fn, t, span) if t != T.ZONE else None
            cards = f"s.zones[{srcs[0]}]" if t == T.ZONE else getattr(src, "src", None)
            if cards is not None:
                return self.gen(f"len({cards})" if name == "size" else f"(not {cards})"), (
                    T.INT if name == "size" else T.BOOL)
        if name in ("top", "bottom") and len(args) == 1:
            cards = getattr(self.cards(*args[0], span), "src", None)
            if cards is not None:
                def empty():
                    _runtime(f"`{name}(...)`: the zone is empty", span)

                return self.gen(f"({cards} or {self.name_for(empty, 'empty')}())[{-1 if name == 'top' else 0}]"), T.CARD
        if name in ("at", "occupied") and None not in srcs:
            z, k = srcs
            zones = self.zone_list
            slots = self.shared_name("zone places", lambda: [zone.places for zone in zones], "zp")

            def bad(zid, k):
                places = zones[zid].places
                _runtime(f"`{name}`: {zones[zid].name} has no slot {k} (slots 0..{len(places) - 1})", span)

            size = track_size(zones)
            if size is not None and below(k, size):
                place = f"s.places[{slots}[{z}][{k}]]"
            else:
                size = size or f"len({slots}[{z}])"
                place = f"s.places[{slots}[{z}][{k}] if 0 <= {k} < {size} else {self.name_for(bad, 'noslot')}({z}, {k})]"
            if name == "occupied":
                return self.gen(f"({place} >= 0)"), T.BOOL
            none_at_end = self.shared_name("card or none", lambda: list(range(self.card_total)) + [None],
                                           "card_or_none")
            return self.gen(f"{none_at_end}[{place}]"), T.CARD
        if name in ("abs", "min", "max") and None not in srcs:
            return self.gen(f"{name}({', '.join(srcs)})"), T.INT
        if name in ("next", "previous") and srcs[0] is not None and out_base(self) is None:
            return self.gen(f"(({srcs[0]} {'+' if name == 'next' else '-'} 1) % s.n)"), T.PLAYER
        return None


def track_size(zones) -> int | None:
    """The number of slots of every track, when all the tracks of the game have the same (else None):
    a bounds check then needs no look-up of which track it is."""
    sizes = {len(z.places) for z in zones if z.places}
    return sizes.pop() if len(sizes) == 1 else None


def below(text: str, size: int) -> bool:
    """Whether the expression's text is ``(...) % N`` with 0 < N <= size: a number from 0 to size - 1
    (or an error of its own, before any index is used)."""
    import ast

    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError:
        return False
    right = getattr(tree, "right", None)
    return (isinstance(tree, ast.BinOp) and isinstance(tree.op, ast.Mod) and isinstance(right, ast.Constant)
            and type(right.value) is int and 0 < right.value <= size)

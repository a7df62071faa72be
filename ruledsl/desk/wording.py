"""Rules in words: the checked syntax of expressions and statements as English sentences.

:class:`Words` renders an expression as a phrase (``c.rank >= 11`` -> "c's rank
is at least 11") and a statement body as nested steps (lists of lines, each
a sentence or a ``(sentence, steps)`` pair). Names the rules declare are kept
recognisable: a define is written as its name in italics (the rulebook
defines each one), a zone as "p's hand", a parameter as its name in
code. :mod:`ruledsl.desk.explain` puts the pieces into a rulebook.
"""

from __future__ import annotations

from ..language import ast as A
from ..language import bounds
from .prose import words
from .steps import StepWords

VISIBILITY = {
    "hidden": "nobody sees its cards",
    "owner": "only its owner sees its cards",
    "others": "everybody but its owner sees its cards",
    "public": "everybody sees its cards",
    "top": "everybody sees its top card only",
}
COMPARE = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
           ">=": "is at least"}
ARITH = {"+": "+", "-": "-", "*": "×", "/": "÷", "%": "mod"}
NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
HIDDEN_DEFINES = ("score", "heuristic")  # read back in their own places (the end; advice for bots only)
INLINE_CHARS = 48  # a define without a comment whose words are at most this long is written out where it is used


class Words(StepWords):
    """Phrases for the expressions and steps of one checked Model."""

    def __init__(self, model, comment=None):
        self.m = model
        self.comment = comment or (lambda node: "")  # the designer's comment above a declaration
        self.bound: dict = {}  # a define's parameters -> the phrases it is called with, while it is written out
        self.hide = False  # leave out the steps that only keep bookkeeping (``unshown`` variables)
        self.explained: set = set()  # the terms whose meaning this part of the rulebook has given
        self.deep = False  # explain the terms a commented term reads too
        self._inline: dict = {}
        self._depth = 0
        self.marks: dict = {}  # a bookkeeping variable -> when it is set and reset, in words
        self.tables: dict = {}  # a define printed as a column of a table -> the table's enum
        self.order: list = []  # the procedures in the order the rulebook prints them
        self.part: str | None = None  # the procedure being written (None: a part before them all)
        self._stops: dict = {}  # the flag of a loop being written -> the move that ends it
        self._skip: set = set()  # counters of a loop being written, said in its head
        self.known: set = set()  # terms the rulebook explains once, before the rules (how the game ends)
        self.noted: dict = {}  # a define -> the parts where an aside gave its meaning
        self.mark = lambda node, name: ""  # a variant's mark on a define it adds or changes
        self.named_later: set = set()  # terms explained before the rules and read again in them
        self.appendix: set = set()  # the defines explained in the terms appendix only (used in several parts)
        self.set_checks: list = []  # the `while` conditions of sets of cards (for the program's limits)
        self._flags: dict = {}  # a local flag set only by moves of one decision -> (actor, moves, start value)
        self._sources: dict = {}  # a move's card parameter -> the zones it is chosen from
        self._said_comments: set = set()  # comments printed with a decision or a move
        self._after = False  # the loop being written goes on with steps after the decision that stops it
        self.named_moves: set = set()  # moves the rulebook names elsewhere (where a part is reached, a mark set)

    # ---- expressions

    def zone(self, ref) -> str:
        """A zone reference: ``hand[p]`` -> "p's hand", ``line[p, i]`` -> "p's line i"."""
        idx = list(ref.indices)
        info = self.m.zones.get(ref.name)
        base = words(ref.name)
        member = f"the {words(ref.member)} of " if ref.member else ""
        if not idx:
            return f"{member}the {base}" if member else f"the {base}"
        first = idx[0]
        dims = info.dims if info is not None else []
        if dims and dims[0][0] == "player":
            owner = self.player(first)
            rest = " ".join(self.expr(i) for i in idx[1:])
            return f"{member}{owner} {base}" + (f" {rest}" if rest else "")
        return f"{member}{base} {', '.join(self.expr(i) for i in idx)}"

    def player(self, e) -> str:
        """A player as an owner: "your" for the current player, "p's" otherwise."""
        if isinstance(e, A.Name) and e.name == "current":
            return "your"
        if isinstance(e, A.IntLit):
            return f"player {e.value}'s"
        said = self.expr(e)
        return "your" if said == "you" else f"{said}'s"

    def expr(self, e) -> str:
        m = getattr(self, "_" + type(e).__name__, None)
        return m(e) if m is not None else f"`{type(e).__name__}`"

    def _IntLit(self, e):
        return str(e.value)

    def _StrLit(self, e):
        return f'"{e.value}"'

    def _BoolLit(self, e):
        return "true" if e.value else "false"

    def _NoneLit(self, e):
        return "none"

    def _Name(self, e):
        n = e.name
        if n in self.bound:
            return self.bound[n]
        if n == "current":
            return "you"
        if n in self._flags:
            return self.flag_phrase(n, True)
        if n == "players":
            return "the players"
        if n == "seats":
            return "every seat"
        if n == "player_count":
            return "the number of players"
        if n in self.m.params:
            return f"`{n}`"
        if n in self.m.zones:
            return self.zone(A.ZoneRef(n, ()))
        if n in self.m.defines:
            return self._written_out(n, []) or f"*{words(n)}*"
        if n in self.m.vars:
            return words(n) if self.m.vars[n].type == "bool" else f"the {words(n)}"
        if n in self.m.enum_values or n in self.m.kinds:
            return words(n)
        return n

    # ---- defines: short ones written out where they are used, the others explained at their first use

    def inline(self, name: str) -> bool:
        """Whether the define ``name`` is written out in words wherever it is used (short, no comment)."""
        if name not in self._inline:
            d = self.m.defines.get(name)
            self._inline[name] = False  # while it is being measured (a define that reads itself)
            ok = (d is not None and name not in HIDDEN_DEFINES and not self.comment(d)
                  and not isinstance(d.body, (A.IntLit, A.StrLit, A.BoolLit)))  # a named constant keeps its name
            if ok:
                saved, self.bound = self.bound, {}
                ok = len(self._body(d, list(d.params))) <= INLINE_CHARS
                self.bound = saved
            self._inline[name] = ok
        return self._inline[name]

    def _body(self, d, phrases: list, negate: bool = False) -> str:
        saved = self.bound
        self.bound = {**saved, **dict(zip(d.params, phrases))}
        self._depth += 1
        try:
            return self.expr(A.Not(d.body) if negate else d.body)
        finally:
            self._depth -= 1
            self.bound = saved

    def _written_out(self, name: str, phrases: list, negate: bool = False) -> str | None:
        if self._depth > 4 or not self.inline(name):
            return None
        d = self.m.defines[name]
        said = self._body(d, phrases, negate)
        if not negate and isinstance(d.body, (A.IfExpr,)) or (
                not negate and isinstance(d.body, A.BinOp) and d.body.op in ("and", "or")):
            return f"({said})"
        return said

    def meaning(self, name: str) -> str:
        """What the define ``name`` means: the designer's comment above it, else its body in words."""
        d = self.m.defines[name]
        c = self.comment(d)
        table = f" (see the table of {words(self.tables[name])})" if name in self.tables else ""
        if c:
            c = c.replace("\n", " ")
            return (c.rstrip(".") + table + "." if c.endswith(".") else c + table) if table else c
        if table:
            return f"see the table of {words(self.tables[name])}."
        return self._body(d, list(d.params)) + "."

    def notes(self, e) -> list:
        """Asides giving the meaning of the terms ``e`` reads (defines, bookkeeping) not yet explained here."""
        from .walk import descendants

        out: list = []
        if e is None:
            return out
        for n in descendants(e):
            name = n.name if isinstance(n, (A.Name, A.Call)) else None
            if name is None or name in self.explained or name in self.bound:
                if name in self.known:
                    self.named_later.add(name)  # the terms appendix points back to where it is explained
                continue
            if name in self.m.defines and isinstance(self.m.defines[name].body, (A.IntLit, A.StrLit, A.BoolLit)):
                continue  # a named constant: its name says it
            if name in self.m.defines and name not in HIDDEN_DEFINES and not self.inline(name):
                self.explained.add(name)
                if name in self.tables or name in self.appendix:
                    continue  # its meaning is given once: under its table, or in the terms appendix
                self.noted.setdefault(name, set()).add(self.part)
                d = self.m.defines[name]
                params = f" ({', '.join(d.params)})" if d.params else ""
                out.append(f"(*{words(name)}*{params}: {self.meaning(name)})" + self.mark(d, name))
                if (not self.comment(d) or self.deep) and name not in self.tables:
                    out.extend(self.notes(d.body))
            elif name in self.m.defines and name not in HIDDEN_DEFINES:  # written out: explain what it reads
                self.explained.add(name)
                out.extend(self.notes(self.m.defines[name].body))
            elif name in self.m.vars and not self.m.vars[name].shown and self.comment(self.m.vars[name].node):
                self.explained.add(name)
                mark = self.marks.get(name)
                c = self.comment(self.m.vars[name].node).rstrip(".")
                out.append(f"({words(name)}: {c}" + (f"; {mark})" if mark else ")"))
        return out

    def bookkeeping(self, s) -> bool:
        """A step that only keeps bookkeeping: sets an ``unshown`` variable (or a window's own count)."""
        if isinstance(s, A.Assign):
            info = self.m.vars.get(f"{s.name}.{s.member}" if s.member else s.name)
            return "~" in s.name or (info is not None and not info.shown)
        if isinstance(s, A.For):
            return bool(s.body) and all(self.bookkeeping(x) for x in s.body)
        return False

    def own_notes(self, s) -> list:
        """The notes for the expressions a statement reads itself (not those of the steps inside it)."""
        from .walk import children

        out: list = []
        for c in children(s):
            if not isinstance(c, (A.Stmt, A.Option)):
                out.extend(self.notes(c))
        return out

    def _Attr(self, e):
        return f"{self.expr(e.obj)}'s {words(e.name)}"

    def _Index(self, e):
        if isinstance(e.obj, A.Name) and e.obj.name in self.m.zones:
            return self.zone(A.ZoneRef(e.obj.name, e.indices))
        if isinstance(e.obj, A.Name) and e.obj.name in self.m.vars:
            info = self.m.vars[e.obj.name]
            idx = list(e.indices)
            if len(idx) > 1:
                return f"{words(e.obj.name)} ({', '.join(self.expr(i) for i in idx)})"
            if info.dims and info.dims[0][0] == "player":
                return f"{self.player(idx[0])} {words(e.obj.name)}"
            return f"the {words(e.obj.name)} of {', '.join(self.expr(i) for i in idx)}"
        return f"{self.expr(e.obj)}[{', '.join(self.expr(i) for i in e.indices)}]"

    def _Call(self, e):
        a = [self.expr(x) for x in e.args]
        n = e.name
        if n in self.m.defines:
            return self._written_out(n, a) or f"*{words(n)}*" + (f" ({', '.join(a)})" if a else "")
        if n in self.m.procedures:
            return f"*{words(n)}*" + (f" ({', '.join(a)})" if a else "")
        table = {
            "size": lambda: f"the number of cards in {a[0]}",
            "empty": lambda: f"{a[0]} is empty",
            "top": lambda: f"the top card of {a[0]}" if len(a) == 1 else f"the top {a[1]} cards of {a[0]}",
            "bottom": lambda: f"the bottom card of {a[0]}",
            "at": lambda: f"the card at space {a[1]} of {a[0]}",
            "occupied": lambda: f"space {a[1]} of {a[0]} holds a card",
            "abs": lambda: f"the size of {a[0]}",
            "min": lambda: f"the smaller of {a[0]} and {a[1]}",
            "max": lambda: f"the larger of {a[0]} and {a[1]}",
            "next": lambda: f"the player after {a[0]}",
            "previous": lambda: f"the player before {a[0]}",
            "random": lambda: f"a card of {a[0]} at random",
            "members": lambda: a[0] if a[0].endswith("s") else f"{a[0]}s",
            "stack_from": lambda: f"{a[1]} and the cards on it in {a[0]}" if len(a) == 2 else None,
        }
        if n in table and len(a) >= 1:
            return table[n]()
        return f"{words(n)}({', '.join(a)})"

    def domain(self, e) -> str:
        if isinstance(e, A.Range):
            return f"{self.expr(e.low)} to {self.expr(e.high)}"
        if isinstance(e, A.BinOp) and e.op == "+":
            return f"{self.domain(e.left)} or {self.domain(e.right)}"
        return self.expr(e)

    def _where(self, e) -> str:
        return f" where {self.expr(e)}" if e is not None else ""

    def _shadowed(self, var):
        return {k: v for k, v in self.bound.items() if k != var}

    def _Aggregate(self, e):
        saved, self.bound = self.bound, self._shadowed(e.var)
        try:
            return self._aggregate(e)
        finally:
            self.bound = saved

    def _aggregate(self, e):
        d, v, w = self.domain(e.domain), e.var, e.where
        cond = self.expr(w) if w is not None else None
        if e.func == "any":
            return f"some {v} in {d} is such that {cond}" if cond else f"{d} has any"
        if e.func == "all":
            return f"every {v} in {d} is such that {cond}" if cond else "always"
        if e.func == "count":
            if not cond and d == "the players":
                return "the number of players"
            return f"the number of {v} in {d}" + (f" such that {cond}" if cond else "")
        if e.func == "cards" and v.endswith("~x"):  # a set being built, with the card c added (setmoves.py)
            if isinstance(w, A.BoolLit) and not w.value:
                return "no cards"
            named = w.left.right if isinstance(w, A.BinOp) and isinstance(w.left, A.BinOp) else None
            return f"{self.expr(named) if named is not None else 'the set'} with the card added"
        if e.func == "cards":
            return f"the cards {v} of {d}" + (f" such that {cond}" if cond else "")
        if e.func == "random":
            return f"a {v} of {d} at random" + (f" such that {cond}" if cond else "")
        if e.func == "first":
            return f"the first {v} of {d}" + (f" such that {cond}" if cond else "")
        if e.func == "sorted":
            return f"the cards of {d} in order" + (f" of {self.expr(e.key)}" if e.key is not None else "")
        if e.func in ("same", "distinct", "run") and e.key is not None:
            key, of = self.expr(e.key), f"{v} in {d}{self._where(w)}"
            if e.func == "same":
                return f"{key} is the same for every {of}"
            if e.func == "distinct":
                return f"{key} is different for every {of}"
            way = "going down by one" if e.highest else "going up by one" if e.ordered else "without a gap or a repeat"
            return f"the values {key} for each {of} follow each other, {way}"
        return f"{e.func} of {v} in {d}{self._where(w)}"

    def _Completable(self, e):
        return f"{self.expr(e.chosen)} can still become such a set"

    def _Fold(self, e):
        saved, self.bound = self.bound, self._shadowed(e.var)
        try:
            return self._fold(e)
        finally:
            self.bound = saved

    def _fold(self, e):
        what = {"sum": "the sum", "min": "the least", "max": "the greatest", "list": "the list"}.get(e.func, e.func)
        return f"{what} of {self.expr(e.expr)} for each {e.var} in {self.domain(e.domain)}{self._where(e.where)}"

    def _Best(self, e):
        saved, self.bound = self.bound, self._shadowed(e.var)
        try:
            return self._best(e)
        finally:
            self.bound = saved

    def _best(self, e):
        which = "highest" if e.highest else "lowest"
        return f"the {e.var} in {self.domain(e.domain)}{self._where(e.where)} with the {which} {self.expr(e.key)}"

    def _SetLit(self, e):
        items = [self.expr(i) for i in e.items]
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]

    def _TupleLit(self, e):
        return "(" + ", ".join(self.expr(i) for i in e.items) + ")"

    def _bound(self, uses: A.Index, most) -> str:
        """A move's bound (language/bounds.py): `you have made it fewer than 2 times this turn`."""
        period = bounds.read_uses(uses.obj.name)[1]
        who = self.expr(uses.indices[0])
        has = "you have" if who == "you" else f"{who} has"
        apart = "".join(f" with this {self.expr(k)}" for k in uses.indices[1:])
        if isinstance(most, A.IntLit) and most.value == 1:
            return f"{has} not yet made it{apart} this {period}"
        return f"{has} made it{apart} fewer than {self.expr(most)} times this {period}"

    def _Range(self, e):
        return f"{self.expr(e.low)} to {self.expr(e.high)}"

    def _IfExpr(self, e):
        return f"{self.expr(e.then)} if {self.expr(e.cond)}, else {self.expr(e.otherwise)}"

    def _BinOp(self, e):
        op = e.op
        if op == "<" and isinstance(e.left, A.Index) and isinstance(e.left.obj, A.Name) \
                and bounds.read_uses(e.left.obj.name) is not None:
            return self._bound(e.left, e.right)
        left, right = self.expr(e.left), self.expr(e.right)
        if op in ("and", "or"):
            def part(x):
                s = self.expr(x)
                return f"({s})" if isinstance(x, A.BinOp) and x.op in ("and", "or") and x.op != op else s
            return f"{part(e.left)} {op} {part(e.right)}"
        if op in ("==", "!=") and isinstance(e.left, A.Attr) and e.left.name == "kind" \
                and isinstance(e.right, A.Name) and e.right.name in self.m.kinds:
            return f"{self.expr(e.left.obj)} is {'' if op == '==' else 'not '}a {words(e.right.name)}"
        if op in COMPARE:
            return f"{left} {COMPARE[op]} {right}"
        if op == "in":
            if isinstance(e.right, A.SetLit):
                return f"{left} is {right}"
            return f"{left} is in {self.domain(e.right)}"
        if op == "not in":
            return f"{left} is not in {self.domain(e.right)}"
        return f"{self._paren(e.left)} {ARITH.get(op, op)} {self._paren(e.right)}"

    def _paren(self, x) -> str:
        s = self.expr(x)
        return f"({s})" if isinstance(x, (A.BinOp, A.IfExpr)) else s

    def _Has(self, e):
        return f"{self.expr(e.obj)} has a {words(e.name)}"

    def _Not(self, e):
        inner = e.operand
        if isinstance(inner, A.Call) and inner.name == "empty" and inner.args:
            return f"{self.expr(inner.args[0])} is not empty"
        if isinstance(inner, A.BinOp) and inner.op == "in":
            return f"{self.expr(inner.left)} is not in {self.domain(inner.right)}"
        if isinstance(inner, A.Not):
            return self.expr(inner.operand)
        if isinstance(inner, A.Name) and inner.name in self._flags:
            return self.flag_phrase(inner.name, False)
        if isinstance(inner, A.BinOp) and inner.op in NEGATED:
            return self.expr(A.BinOp(NEGATED[inner.op], inner.left, inner.right))
        if isinstance(inner, A.Call) and inner.name in self.m.defines:
            said = self._written_out(inner.name, [self.expr(x) for x in inner.args], negate=True)
            if said is not None:
                return said
        return f"not {self._paren(inner)}"

    def _Neg(self, e):
        return f"-{self._paren(e.operand)}"

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


def words(name: str) -> str:
    """``deal_size`` -> ``deal size``."""
    return name.replace("_", " ")


class Words:
    """Phrases for the expressions and steps of one checked Model."""

    def __init__(self, model):
        self.m = model

    # ---- expressions

    def zone(self, ref) -> str:
        """A zone reference: ``hand[p]`` -> "p's hand", ``line[p, i]`` -> "p's line i"."""
        idx = list(ref.indices)
        info = self.m.zones.get(ref.name)
        base = words(ref.name)
        if ref.member:
            base = f"{words(ref.member)} of {base}"
        if not idx:
            return f"the {base}"
        first = idx[0]
        dims = info.dims if info is not None else []
        if dims and dims[0][0] == "player":
            owner = self.player(first)
            rest = " ".join(self.expr(i) for i in idx[1:])
            return f"{owner} {base}" + (f" {rest}" if rest else "")
        return f"{base} {', '.join(self.expr(i) for i in idx)}"

    def player(self, e) -> str:
        """A player as an owner: "your" for the current player, "p's" otherwise."""
        if isinstance(e, A.Name) and e.name == "current":
            return "the current player's"
        return f"{self.expr(e)}'s"

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
        if n == "current":
            return "the current player"
        if n == "players":
            return "the players"
        if n == "player_count":
            return "the number of players"
        if n in self.m.params:
            return f"`{n}`"
        if n in self.m.zones:
            return self.zone(A.ZoneRef(n, ()))
        if n in self.m.defines:
            return f"*{words(n)}*"
        if n in self.m.vars:
            return words(n) if self.m.vars[n].type == "bool" else f"the {words(n)}"
        if n in self.m.enum_values:
            return words(n)
        return n

    def _Attr(self, e):
        return f"{self.expr(e.obj)}'s {words(e.name)}"

    def _Index(self, e):
        if isinstance(e.obj, A.Name) and e.obj.name in self.m.zones:
            return self.zone(A.ZoneRef(e.obj.name, e.indices))
        if isinstance(e.obj, A.Name) and e.obj.name in self.m.vars:
            info = self.m.vars[e.obj.name]
            idx = list(e.indices)
            if info.dims and info.dims[0][0] == "player":
                rest = ", ".join(self.expr(i) for i in idx[1:])
                return f"{self.player(idx[0])} {words(e.obj.name)}" + (f" {rest}" if rest else "")
            return f"the {words(e.obj.name)} of {', '.join(self.expr(i) for i in idx)}"
        return f"{self.expr(e.obj)}[{', '.join(self.expr(i) for i in e.indices)}]"

    def _Call(self, e):
        a = [self.expr(x) for x in e.args]
        n = e.name
        if n in self.m.defines:
            return f"*{words(n)}*" + (f" ({', '.join(a)})" if a else "")
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

    def _Aggregate(self, e):
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
        return f"{e.func} of {v} in {d}{self._where(w)}"

    def _Fold(self, e):
        what = {"sum": "the sum", "min": "the least", "max": "the greatest", "list": "the list"}.get(e.func, e.func)
        return f"{what} of {self.expr(e.expr)} for each {e.var} in {self.domain(e.domain)}{self._where(e.where)}"

    def _Best(self, e):
        which = "highest" if e.highest else "lowest"
        return f"the {e.var} in {self.domain(e.domain)}{self._where(e.where)} with the {which} {self.expr(e.key)}"

    def _SetLit(self, e):
        items = [self.expr(i) for i in e.items]
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]

    def _TupleLit(self, e):
        return "(" + ", ".join(self.expr(i) for i in e.items) + ")"

    def _Range(self, e):
        return f"{self.expr(e.low)} to {self.expr(e.high)}"

    def _IfExpr(self, e):
        return f"{self.expr(e.then)} if {self.expr(e.cond)}, else {self.expr(e.otherwise)}"

    def _BinOp(self, e):
        op = e.op
        left, right = self.expr(e.left), self.expr(e.right)
        if op in ("and", "or"):
            def part(x):
                s = self.expr(x)
                return f"({s})" if isinstance(x, A.BinOp) and x.op in ("and", "or") and x.op != op else s
            return f"{part(e.left)} {op} {part(e.right)}"
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
        return f"not {self._paren(inner)}"

    def _Neg(self, e):
        return f"-{self._paren(e.operand)}"

    # ---- statements: a list of steps, each a sentence or (sentence, [steps])

    def steps(self, body) -> list:
        out = []
        body = list(body)
        i = 0
        while i < len(body):
            s = body[i]
            built = self._set_building(body, i) or self._window(body, i)
            if built is not None:
                sentence, i = built
                out.append(sentence)
                continue
            m = getattr(self, "_s_" + type(s).__name__, None)
            out.append(m(s) if m is not None else f"({type(s).__name__})")
            i += 1
        return out

    def who(self, e) -> str:
        """A player who acts, at the start of a sentence."""
        said = self.expr(e)
        if isinstance(e, A.Name) and e.name not in ("current",) and e.name not in self.m.vars:
            said = f"player {said}"
        return said[0].upper() + said[1:]

    def _window(self, body, i):
        """A response window (language/windows.py) read back as one step: who may answer, and how."""
        s = body[i]
        if not (isinstance(s, A.Let) and s.name.endswith("~passes") and i + 2 < len(body)
                and isinstance(body[i + 2], A.While)):
            return None
        name = s.name[: -len("~passes")]
        loop = next((x for x in body[i + 2].body if isinstance(x, A.For)), None)
        if loop is None:
            return None
        choose = next((n for n in _walk(loop.body) if isinstance(n, A.Choose)), None)
        if choose is None:
            return None
        options = [self.option(o) for o in choose.options if o.name != "pass"]
        head = (f"Response window (**{words(name)}**): in seat order from the player after the current one, "
                f"each player {loop.var} in {self.domain(loop.domain)}{self._where(loop.where)} may make one "
                f"of these moves or pass; it goes round until all of them pass in a row:")
        return (head, options), i + 3

    def _set_building(self, body, i):
        """The loop a set-of-cards move is written as (language/setmoves.py), read back as one step."""
        s = body[i]
        if not (isinstance(s, A.Let) and i + 2 < len(body) and isinstance(body[i + 1], A.Let)
                and body[i + 1].name == f"{s.name}~open" and isinstance(body[i + 2], A.While)):
            return None
        loop = body[i + 2]
        choose = next((x for x in loop.body if isinstance(x, A.Choose)), None)
        if choose is None:
            return None
        add = next((o for o in choose.options if o.name == "add"), None)
        done = next((o for o in choose.options if o.name == "done"), None)
        zone = self.domain(add.params[0].domain) if add and add.params else "the cards"
        sentence = f"Choose a set of cards {s.name} from {zone}, one card at a time"
        keep = add.where.right if add and isinstance(add.where, A.BinOp) and add.where.op == "and" else None
        if keep is not None:
            sentence += f" (a card may be added while {self.expr(keep)})"
        if done is not None and done.where is not None:
            sentence += f"; the set must be such that {self.expr(done.where)}"
        return sentence + ".", i + 3

    def _s_Assign(self, s):
        target = self.expr(A.Index(A.Name(s.name), s.indices) if s.indices else A.Name(s.name))
        if s.member:
            target = f"{words(s.member)} of {target}"
        value = self.expr(s.value)
        if s.op == "+=":
            return f"Add {value} to {target}."
        if s.op == "-=":
            return f"Take {value} from {target}."
        return f"Set {target} to {value}."

    def _s_Let(self, s):
        if s.name.endswith("~open"):
            return "(a set is being built)"
        return f"Let {s.name} be {self.expr(s.value)}."

    def _s_Put(self, s):
        where = "at the bottom of" if s.under else "into"
        at = f" at space {self.expr(s.at)}" if s.at is not None else ""
        return f"Put {self._cards(s.cards)} {where} {self.zone(s.zone)}{at}."

    def _cards(self, e) -> str:
        if isinstance(e, A.Name) and e.name in self.m.zones:
            return f"all the cards of {self.zone(A.ZoneRef(e.name, ()))}"
        if isinstance(e, A.Index) and isinstance(e.obj, A.Name) and e.obj.name in self.m.zones:
            return f"all the cards of {self.zone(A.ZoneRef(e.obj.name, e.indices))}"
        return self.expr(e)

    def _s_PutEach(self, s):
        return f"Put each card {s.var} of {self.zone(s.source)} in {self.domain(s.domain)} into {self.zone(s.target)}."

    def _s_Deal(self, s):
        return f"Deal {self.expr(s.count)} cards from {self.zone(s.source)} into {self.zone(s.target)}."

    def _s_Shuffle(self, s):
        return f"Shuffle {self.zone(s.zone)}."

    def _s_Return(self, s):
        return f"The result is {self.expr(s.value)}; the procedure ends here."

    def _s_Swap(self, s):
        return f"Swap the cards of {self.zone(s.first)} and {self.zone(s.second)}."

    def _s_Gather(self, s):
        return f"Gather every card back into {self.zone(s.zone)}."

    def _s_If(self, s):
        out = []
        for k, (cond, body) in enumerate(s.branches):
            head = "If" if k == 0 else "Otherwise, if"
            out.append((f"{head} {self.expr(cond)}:", self.steps(body)))
        if s.otherwise:
            out.append(("Otherwise:", self.steps(s.otherwise)))
        return out[0] if len(out) == 1 else ("", out)

    def _s_For(self, s):
        start = f", starting from {self.expr(s.start)}" if s.start is not None else ""
        return (f"For each {s.var} in {self.domain(s.domain)}{self._where(s.where)}{start}:", self.steps(s.body))

    def _s_Repeat(self, s):
        return (f"Do this {self.expr(s.count)} times:", self.steps(s.body))

    def _s_While(self, s):
        return (f"As long as {self.expr(s.cond)}:", self.steps(s.body))

    def _s_Turns(self, s):
        return (f"The players take turns in seat order, starting with player {self.expr(s.start)}, "
                f"until {self.expr(s.until)}. In a turn:", self.steps(s.body))

    def _s_Break(self, s):
        return "Start the loop again." if s.again else "Stop this loop."

    def _s_Leave(self, s):
        return f"{self.expr(s.player)} {'comes back into' if s.back else 'leaves'} the game."

    def _s_EndGame(self, s):
        return "The game ends."

    def _s_CallStmt(self, s):
        args = ", ".join(self.expr(a) for a in s.args)
        return f"Do *{words(s.name)}*" + (f" (for {args})" if args else "") + "."

    def _s_Reveal(self, s):
        return (f"{self.who(s.to)} sees {self._cards(s.what)} while:", self.steps(s.body))

    def _s_Show(self, s):
        to = f" to {self.expr(s.to)}" if s.to is not None else " to everybody"
        return f"Show {self._cards(s.what)}{to}."

    def _s_Tell(self, s):
        to = f" {self.expr(s.to)}" if s.to is not None else " everybody"
        return f"Tell{to} the {words(s.attr)} of {self._cards(s.what)}."

    def _s_AtOnce(self, s):
        return ("All at once:", self.steps(s.body))

    def _s_New(self, s):
        return f"Open a new {self.zone(s.zone)} ({s.var})."

    def _s_Remove(self, s):
        return f"Close {self.zone(s.zone)}."

    def _s_Choose(self, s):
        if s.each:
            who = f"Each player {s.each} in {self.domain(s.domain)} chooses in secret, all together"
        else:
            who = f"{self.who(s.actor)} decides (**{words(s.name)}**)"
        return (f"{who}, one of:", [self.option(o) for o in s.options])

    def option(self, o):
        """A move: its name, what it is played with, when it may be played, and what it does."""
        params = ", ".join(f"{p.name} from {self.domain(p.domain)}" for p in o.params)
        head = f"**{words(o.name)}**" + (f" (with {params})" if params else "")
        builds = self._set_building(list(o.body), 0) is not None if o.body else False
        if builds:
            head += " (with a set of cards)"
        elif o.where is not None:
            head += f", if {self.expr(o.where)}"
        body = self.steps(o.body)
        if not body:
            return head + ": nothing happens."
        return (head + ":", body)


def _walk(body):
    from .walk import descendants

    for st in body:
        yield from descendants(st)

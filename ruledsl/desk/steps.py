"""Rules in words, the steps: a statement body as nested steps (lists of lines, each a sentence or a
``(sentence, steps)`` pair). :class:`StepWords` is the half of :class:`~ruledsl.desk.wording.Words` that
writes statements; the expressions are the other half.
"""

from __future__ import annotations

from ..language import ast as A
from .prose import action_loop, enum_branches, words


class StepWords:
    # ---- statements: a list of steps, each a sentence or (sentence, [steps])

    def steps(self, body) -> list:
        out = []
        body = list(body)
        i = 0
        while i < len(body):
            s = body[i]
            built = self._set_building(body, i) or self._window(body, i) or self._loop(body, i)
            if built is not None:
                sentence, i = built
                out.append(sentence)
                continue
            if self.hide and self.bookkeeping(s) or (
                    isinstance(s, A.Assign) and s.name in self._skip and not s.indices):
                i += 1
                continue
            cases = enum_branches(self.m, s)
            if cases is not None:
                out.extend(self.own_notes(s))
                out.append(self._cases(*cases))
                i += 1
                continue
            out.extend(self.own_notes(s))
            m = getattr(self, "_s_" + type(s).__name__, None)
            out.append(m(s) if m is not None else f"({type(s).__name__})")
            i += 1
        return out

    def for_each(self, var, domain) -> str:
        """``for p in players`` of a trigger or an invariant: ", for a player p," or ", for each l in colour,"."""
        if not var:
            return ""
        if isinstance(domain, A.Name) and domain.name == "players" or domain is None:
            return f", for a player {var},"
        return f", for each {var} in {self.domain(domain)},"

    def who(self, e) -> str:
        """A player who acts, at the start of a sentence."""
        said = self.expr(e)
        if isinstance(e, A.Name) and e.name not in ("current",) and e.name not in self.m.vars:
            said = f"player {said}"
        return said[0].upper() + said[1:]

    def _loop(self, body, i):
        """``let going = true ... while going and n < N { n += 1 ... move stop { going = false } }`` as a repeat."""
        found = action_loop(body, i)
        if found is None:
            return None
        after, loop, flags, counters, rest, others = found
        out = [self._s_Let(x) for x in others]
        head = "Repeat until " + " or ".join(f"the move **{words(m)}** is chosen" for m in flags.values())
        head += "".join(f", at most {self.expr(b)} times" for b in counters.values())
        if rest:
            head += f", and only as long as {self.expr(self._join(rest))}"
        saved = self._stops, self._skip
        self._stops, self._skip = {**saved[0], **flags}, saved[1] | set(counters)
        try:
            steps = self.notes(self._join(rest)) + self.steps(loop.body)
        finally:
            self._stops, self._skip = saved
        return (("", [*out, (head + ":", steps)]) if out else (head + ":", steps)), after

    @staticmethod
    def _join(parts):
        if not parts:
            return None
        e = parts[0]
        for p in parts[1:]:
            e = A.BinOp("and", e, p)
        return e

    def _cases(self, subject, enum, cases):
        """An ``if`` on the values of an enum, one entry per value, in the enum's order."""
        out = []
        for values, body in cases:
            name = ", ".join(f"**{words(v).capitalize()}**" for v in values)
            out.append((f"{name}:", self.steps(body) or ["nothing happens."]))
        what = self.expr(subject)
        a = "an" if words(enum)[:1] in "aeiou" else "a"
        return (f"Then, according to {what} ({a} {words(enum)}):", out)

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
        options = self.notes(loop.where) + [self.option(o) for o in choose.options if o.name != "pass"]
        options.append("**pass**: nothing happens now; a player who passed is asked again when the "
                       "window comes round to them, as long as it is open.")
        who = f"each player {loop.var}" + (f" such that {self.expr(loop.where)}" if loop.where is not None else "")
        head = (f"A round of answers (**{words(name)}**) opens: starting with the player after the current one "
                f"and going round in seat order, {who} may make one of these moves or pass. After any move "
                f"the asking goes round again; the window closes when all of them have passed one after "
                f"another:")
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
        sentence = f"Choose a set of cards {s.name} from {zone}"
        keep = add.where.right if add and isinstance(add.where, A.BinOp) and add.where.op == "and" else None
        must = done.where if done is not None else None
        if must is not None:
            sentence += f" such that {self.expr(must)}"
        else:
            sentence += " (any of them, or none)"
        if keep is not None:
            self.set_checks.append(self.expr(keep).replace(" with the card added", ""))
        notes = self.notes(must)
        return ((sentence + ".", notes) if notes else sentence + "."), i + 3

    def _s_Assign(self, s):
        if s.name in self._stops and not s.indices and isinstance(s.value, A.BoolLit) and not s.value.value:
            return "Stop repeating."
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
        if isinstance(s.value, A.BoolLit):
            return f"To begin with, {s.name} is {'true' if s.value.value else 'false'}."
        return f"Note {self.expr(s.value)} as {s.name}."

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
        if (len(s.body) == 1 and isinstance(s.body[0], A.Put) and isinstance(s.body[0].cards, A.Name)
                and s.body[0].cards.name == s.var and s.where is None and s.start is None
                and s.body[0].at is None):
            where = "at the bottom of" if s.body[0].under else "into"
            return f"Put the cards {self.domain(s.domain)} {where} {self.zone(s.body[0].zone)}."
        start = f", starting from {self.expr(s.start)}" if s.start is not None else ""
        return (f"For each {s.var} in {self.domain(s.domain)}{self._where(s.where)}{start}:", self.steps(s.body))

    def _s_Repeat(self, s):
        c = s.count
        if isinstance(c, A.Call) and c.name == "min" and len(c.args) == 2 and isinstance(c.args[0], A.IntLit):
            return (f"Repeat up to {c.args[0].value} times (no more than {self.expr(c.args[1])}):",
                    self.steps(s.body))
        return (f"Repeat {self.expr(c)} times:", self.steps(s.body))

    def _s_While(self, s):
        return (f"As long as {self.expr(s.cond)}:", self.steps(s.body))

    def _s_Turns(self, s):
        first = f"player {self.expr(s.start)}" if isinstance(s.start, A.IntLit) else self.expr(s.start)
        return (f"The players take turns in seat order, starting with {first}, "
                f"until {self.expr(s.until)}. In a turn:", self.steps(s.body))

    def _s_Break(self, s):
        return "Start the loop again." if s.again else "Stop this loop."

    def _s_Leave(self, s):
        return f"{self.expr(s.player)} {'comes back into' if s.back else 'leaves'} the game."

    def _s_EndGame(self, s):
        return "The game ends."

    def _s_CallStmt(self, s):
        proc = self.m.procedures.get(s.name)
        names = list(proc.params) if proc is not None else []
        args = [self.expr(a) for a in s.args]
        given = ", ".join(f"{n}: {a}" if n != a else n for n, a in zip(names, args))
        where = "below"
        if self.part in self.order and s.name in self.order and self.order.index(s.name) < self.order.index(self.part):
            where = "above"
        return f"Follow *{words(s.name)}* ({where})" + (f", with {given}" if given else "") + "."

    def _s_Reveal(self, s):
        cards = self._cards(s.what).removeprefix("all ")
        who = self.who(s.to)
        return (f"{who} may look at {cards} (nobody else sees them) during this:", self.steps(s.body))

    def _s_Show(self, s):
        to = f" to {self.expr(s.to)}" if s.to is not None else " to everybody"
        return f"Show {self._cards(s.what)}{to}."

    def _s_Tell(self, s):
        to = f" {self.expr(s.to)}" if s.to is not None else " everybody"
        return f"Tell{to} the {words(s.attr)} of {self._cards(s.what)}."

    def _s_AtOnce(self, s):
        return ("All at once:", self.steps(s.body))

    def _s_New(self, s):
        info = self.m.zones.get(s.zone.name)
        if s.zone.indices and info is not None and info.dims and info.dims[0][0] == "player":
            return f"Open a new {words(s.zone.name)} {s.var} of {self.expr(s.zone.indices[0])}."
        return f"Open a new {self.zone(s.zone)} ({s.var})."

    def _s_Remove(self, s):
        return f"Close {self.zone(s.zone)}."

    def _s_Choose(self, s):
        if s.each:
            who = f"Each player {s.each} in {self.domain(s.domain)} chooses in secret, all together"
        else:
            who = f"{self.who(s.actor)} decides (**{words(s.name)}**)"
            if len(s.options) == 1:
                return self._one_move(s, s.options[0])
        return (f"{who}, one of:", self._comment_note(s) + [self.option(o) for o in s.options])

    def _one_move(self, s, o):
        """A decision with a single move: a step the player takes, with what they choose."""
        head = f"{self.who(s.actor)}, in the move **{words(o.name)}**:"
        steps = self._comment_note(s) + self._comment_note(o)
        builds = self._set_building(list(o.body), 0) is not None
        cond = o.where if o.where is not None and not builds else None
        if cond is not None:
            steps.extend(self.notes(cond))
        for k, p in enumerate(o.params):
            such = f" such that {self.expr(cond)}" if cond is not None and k == len(o.params) - 1 else ""
            steps.append(f"Choose {p.name} from {self.domain(p.domain)}{such}.")
        if cond is not None and not o.params:
            steps.append(f"Only if {self.expr(cond)}.")
        steps.extend(self.steps(o.body))
        return (head, steps)

    def _comment_note(self, o) -> list:
        c = self.comment(o)
        return [f"*{c}*".replace("\n", " ")] if c else []

    def option(self, o):
        """A move: its name, what it is played with, when it may be played, and what it does."""
        params = ", ".join(f"{p.name} from {self.domain(p.domain)}" for p in o.params)
        head = f"**{words(o.name)}**" + (f" (with {params})" if params else "")
        explained = set(self.explained)
        builds = self._set_building(list(o.body), 0) is not None if o.body else False
        self.explained = explained
        if builds:
            head += " (with a set of cards)"
        elif o.where is not None:
            head += f", if {self.expr(o.where)}"
        body = self._comment_note(o) + ([] if builds else self.notes(o.where)) + self.steps(o.body)
        if not body:
            return head + ": nothing happens."
        return (head + ":", body)

def _walk(body):
    from .walk import descendants

    for st in body:
        yield from descendants(st)

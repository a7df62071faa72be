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
            if isinstance(s, A.Let):
                self._flags.pop(s.name, None)  # a new local of that name: not the flag of an earlier part
            built = (self._set_building(body, i) or self._window(body, i) or self._first_claim(body, i)
                     or self._loop(body, i)
                     or self._flag(body, i) or self._swap(body, i))
            if built is not None:
                sentence, i = built
                out.extend(self._aside(s))
                if sentence is not None:
                    out.append(sentence)
                continue
            if self.hide and self.bookkeeping(s) or (
                    isinstance(s, A.Assign) and (s.name in self._skip or s.name in self._flags) and not s.indices):
                i += 1
                continue
            out.extend(self._aside(s))
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
        """A player who acts, at the start of a sentence ("You" for the current player)."""
        said = self.expr(e)
        if isinstance(e, A.Name) and e.name not in ("current",) and e.name not in self.m.vars:
            said = f"player {said}"
        return said[0].upper() + said[1:]

    @staticmethod
    def verb(who: str, you: str, other: str) -> str:
        """The verb that goes with ``who``: "You decide", "Player v decides"."""
        return you if who.lower() == "you" else other

    def _aside(self, s) -> list:
        """The designer's comment above a step, as an aside before it (a decision and a move say their own)."""
        if isinstance(s, A.Choose) or self.hide and self.bookkeeping(s):
            return []
        c = self.comment(s)
        if not c or c in self._said_comments:
            return []
        return [f"*{c}*".replace("\n", " ")]

    def _flag(self, body, i):
        """``let f = false`` set to true only by moves of the one decision after it: "v chose **repel**".

        The ``let`` and the moves' assignments are left out; where ``f`` is read, the rulebook says
        whether one of those moves was chosen.
        """
        s = body[i]
        if not (isinstance(s, A.Let) and isinstance(s.value, A.BoolLit)):
            return None
        sets = [(k, n) for k, st in enumerate(body[i + 1:], i + 1) for n in _walk([st])
                if isinstance(n, A.Assign) and n.name == s.name]
        if not sets or len({k for k, _ in sets}) != 1:
            return None
        k = sets[0][0]
        choose = body[k]
        if not isinstance(choose, A.Choose) or choose.each or any(
                not (isinstance(n.value, A.BoolLit) and n.value.value != s.value.value and not n.indices and n.op == "=")
                for _, n in sets):
            return None
        moves = [o.name for o in choose.options
                 if any(isinstance(n, A.Assign) and n.name == s.name for n in _walk(o.body))]
        self._flags[s.name] = (choose.actor, moves, s.value.value)
        return None, i + 1

    def flag_phrase(self, name: str, true: bool) -> str:
        """A flag of :meth:`_flag` read back: whether its moves were chosen."""
        actor, moves, init = self._flags[name]
        who = self.who(actor)
        who = who[0].lower() + who[1:]
        named = " or ".join(f"**{words(m)}**" for m in moves)
        return f"{who} chose {named}" if true != init else f"{who} did not choose {named}"

    def _swap(self, body, i):
        """``let n = size(Z)``, ``put Z ...``, ``deal n ...``: "put all of Z ..., then deal as many ..."."""
        s = body[i]
        if not (isinstance(s, A.Let) and isinstance(s.value, A.Call) and s.value.name == "size"
                and len(s.value.args) == 1 and i + 2 < len(body)):
            return None
        put, deal = body[i + 1], body[i + 2]
        if not (isinstance(put, A.Put) and put.at is None and _same_zone(put.cards, s.value.args[0])
                and isinstance(deal, A.Deal) and isinstance(deal.count, A.Name) and deal.count.name == s.name):
            return None
        if any(isinstance(n, A.Name) and n.name == s.name for n in _walk(body[i + 3:])):
            return None
        where = "at the bottom of" if put.under else "into"
        return (f"Put {self._cards(put.cards)} {where} {self.zone(put.zone)}, then deal as many cards from "
                f"{self.zone(deal.source)} into {self.zone(deal.target)}."), i + 3

    def _loop(self, body, i):
        """``let going = true ... while going and n < N { n += 1 ... move stop { going = false } }`` as a repeat."""
        found = action_loop(body, i)
        if found is None:
            return None
        after, loop, flags, counters, rest, others = found
        out = [self._s_Let(x) for x in others]
        stops = " or ".join(f"**{words(m)}**" for m in flags.values())
        bounds = [f"at most {self.expr(b)} times" for b in counters.values()]
        if rest:
            bounds.append(f"only as long as {self.expr(self._join(rest))}")
        head = f"Repeat the following until the move {stops} has been chosen"
        head += f" ({', and '.join(bounds)})" if bounds else ""
        # the steps after the decision that holds the stopping move still happen once after it
        k = next((n for n, st in enumerate(loop.body)
                  if any(isinstance(x, A.Option) and x.name in flags.values() for x in _walk([st]))), None)
        before, tail = (loop.body, ()) if k is None else (loop.body[: k + 1], loop.body[k + 1:])
        saved = self._stops, self._skip, self._after
        self._stops, self._skip = {**saved[0], **flags}, saved[1] | set(counters)
        self._after = bool(tail)
        try:
            steps = self.notes(self._join(rest)) + self.steps(before)
            self._after = saved[2]
            later = self.steps(tail)
        finally:
            self._stops, self._skip, self._after = saved
        if later:
            choice = next((x.name for x in _walk([loop.body[k]]) if isinstance(x, A.Choose)), None)
            what = f"**{words(choice)}**" if choice else "decision"
            steps.append((f"After each {what}, whichever move was made ({stops} too):", later))
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
        head = (f"A round of answers (**{words(name)}**) opens: starting with the player after you "
                f"and going round in seat order, {who} may make one of these moves or pass. After any move "
                f"the asking goes round again; the window closes when all of them have passed one after "
                f"another:")
        return (head, options), i + 3

    def _first_claim(self, body, i):
        """A window the first claim closes (`respond ... until claimed`, language/windows.py), as one step."""
        s = body[i]
        if not (isinstance(s, A.Let) and s.name.endswith("~unclaimed") and i + 1 < len(body)
                and isinstance(body[i + 1], A.For)):
            return None
        loop = body[i + 1]
        choose = next((n for n in _walk(loop.body) if isinstance(n, A.Choose)), None)
        if choose is None:
            return None
        options = self.notes(loop.where) + [self.option(o) for o in choose.options if o.name != "pass"]
        options.append("**pass**: the next player is asked.")
        who = f"each player {loop.var}" + (f" such that {self.expr(loop.where)}" if loop.where is not None else "")
        head = (f"A call for a taker (**{words(s.name[: -len('~unclaimed')])}**): starting with the player "
                f"after you and going round in seat order once, {who} may make one of these moves or pass. "
                f"The first who makes one closes it: nobody after them is asked:")
        return (head, options), i + 2

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
        whole = None if _mentions_completable(keep) else _whole(keep, s.name)  # a `while` made from meld tests
        conds = [c for c in (must, whole) if c is not None]
        if conds:
            sentence += f" such that {self.expr(self._join(conds))}"
        else:
            sentence += " (any of them, or none)"
        if keep is not None:
            self.set_checks.append(self.expr(keep).replace(" with the card added", ""))
        notes = self.notes(self._join(conds))
        return ((sentence + ".", notes) if notes else sentence + "."), i + 3

    def _s_Assign(self, s):
        if s.name in self._stops and not s.indices and isinstance(s.value, A.BoolLit) and not s.value.value:
            if self._after:
                return ("This is the last time: what comes after the decision (below) still happens once more, "
                        "and then the repeating stops.")
            return "Stop repeating."
        if s.name not in self.m.vars and not s.indices and not s.member and s.op == "=":
            return f"From now on, {s.name} is {self.expr(s.value)}."
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
        return f"Work out {self.expr(s.value)}: call it {s.name}."

    def _s_Put(self, s):
        where = "at the bottom of" if s.under else "into"
        at = f" at space {self.expr(s.at)}" if s.at is not None else ""
        return f"Put {self._cards(s.cards)} {where} {self.zone(s.zone)}{at}{self._seen(s)}."

    def _owned(self, ref):
        """(owner expression, visibility) of a zone reference or a zone expression, or None."""
        if isinstance(ref, A.ZoneRef):
            name, idx = ref.name, ref.indices
        elif isinstance(ref, A.Index) and isinstance(ref.obj, A.Name):
            name, idx = ref.obj.name, ref.indices
        elif isinstance(ref, A.Name):
            name, idx = ref.name, ()
        else:
            return None
        info = self.m.zones.get(name)
        if info is None or getattr(ref, "member", None):
            return None
        owner = idx[0] if idx and info.dims and info.dims[0][0] == "player" else None
        return owner, info.visibility

    def _seen(self, s) -> str:
        """Who sees cards that go from one player's own zone into another's: " (only v and you see it)"."""
        c = s.cards
        if isinstance(c, A.Name) and c.name in self._sources:
            sources, them = _terms(self._sources[c.name]), "it"
        elif isinstance(c, A.Call) and c.name in ("random", "top", "bottom") and c.args:
            sources, them = [c.args[0]], "it"
        else:
            sources, them = [c], "them"
        got = [self._owned(x) for x in sources]
        target = self._owned(s.zone)
        if target is None or target[0] is None or target[1] != "owner" or not got or any(
                g is None or g[0] is None or g[1] != "owner" for g in got):
            return ""
        owners = [g[0] for g in got]
        if any(not _same(o, owners[0]) for o in owners) or _same(owners[0], target[0]):
            return ""
        a, b = (self.expr(o) for o in (owners[0], target[0]))
        return f" (only {a} and {b} see {them}; the others do not)"

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

    _s_Match = _s_If  # a `match` the per-value rendering does not take is read as its if-chain

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
        return (f"{who} {self.verb(who, 'are', 'is')} shown {cards} (the others are not), and then:",
                self.steps(s.body))

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
        name = words(s.zone.name)
        if s.zone.indices and info is not None and info.dims and info.dims[0][0] == "player":
            owner = self.player(s.zone.indices[0])
            owner = "yours" if owner == "your" else owner
            return f"Start a new {name} of {owner}: call it {name} {s.var}."
        return f"Start a new {self.zone(s.zone)}: call it {name} {s.var}."

    def _s_Remove(self, s):
        info = self.m.zones.get(s.zone.name)
        said = self.zone(s.zone)
        if s.zone.indices and info is not None and info.dims and info.dims[0][0] == "player" and not s.zone.member:
            owner = self.player(s.zone.indices[0])
            return f"{said[0].upper()}{said[1:]} is no longer one of {owner} {words(s.zone.name)}s."
        return f"Close {said}."

    def _s_Choose(self, s):
        asked = self._decision(s)
        if s.no_move_end is None:
            return asked
        who = self.who(s.actor)
        who = "you" if who == "You" else who
        return ("", [f"If {who} {self.verb(who, 'have', 'has')} no legal move here, the game ends.", asked])

    def _decision(self, s):
        if s.each:
            who = f"Each player {s.each} in {self.domain(s.domain)} chooses in secret, all together"
        else:
            actor = self.who(s.actor)
            who = f"{actor} {self.verb(actor, 'decide', 'decides')} (**{words(s.name)}**)"
            if len(s.options) == 1:
                return self._one_move(s, s.options[0])
        return (f"{who}, one of:", self._comment_note(s) + [self.option(o) for o in s.options])

    def _one_move(self, s, o):
        """A decision with a single move: a step the player takes, "You choose ... such that ...:"."""
        who = self.who(s.actor)
        choose = self.verb(who, "choose", "chooses")
        named = f" (the move **{words(o.name)}**)" if o.name in self.named_moves else ""
        steps = self._comment_note(s) + self._comment_note(o)
        body = list(o.body)
        built = self._set_building(body, 0)
        saved = dict(self._sources)
        self._sources.update({p.name: p.domain for p in o.params})
        try:
            if built is not None:
                (sentence, notes), j = (built[0] if isinstance(built[0], tuple) else (built[0], [])), built[1]
                head = f"{who} {choose} {sentence.removeprefix('Choose ').rstrip('.')}{named}:"
                return (head, steps + list(notes) + self.steps(body[j:]))
            cond = o.where
            if cond is not None:
                steps.extend(self.notes(cond))
            such = f" such that {self.expr(cond)}" if cond is not None else ""
            if o.params:
                chosen = " and ".join(f"{p.name} from {self.domain(p.domain)}" for p in o.params)
                head = f"{who} {choose} {chosen}{such}{named}:"
            else:
                head = f"{who} {self.verb(who, 'make', 'makes')} the move **{words(o.name)}**" + (
                    f", only if {self.expr(cond)}" if cond is not None else "") + ":"
            return (head, steps + self.steps(body))
        finally:
            self._sources = saved

    def _comment_note(self, o) -> list:
        c = self.comment(o)
        if c:
            self._said_comments.add(c)  # the steps a move is written as (a set of cards) share its line
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
        saved = dict(self._sources)
        self._sources.update({p.name: p.domain for p in o.params})
        try:
            body = self._comment_note(o) + ([] if builds else self.notes(o.where)) + self.steps(o.body)
        finally:
            self._sources = saved
        if not body:
            return head + ": nothing happens."
        return (head + ":", body)

def _walk(body):
    from .walk import descendants

    for st in body:
        yield from descendants(st)


def _same(a, b) -> bool:
    from .prose import same

    return same(a, b)


def _same_zone(cards, zone) -> bool:
    """Whether ``cards`` (all the cards of a zone) is the zone ``zone`` names."""
    return _same(cards, zone)


def _terms(e) -> list:
    """The zones of ``hand[v] + sale[v]``, one by one."""
    if isinstance(e, A.BinOp) and e.op == "+":
        return _terms(e.left) + _terms(e.right)
    return [e]


def _mentions_completable(e) -> bool:
    """Whether the `while` of a set move was made from its meld tests (language/setmoves.py)."""
    if isinstance(e, A.Completable):
        return True
    if isinstance(e, A.BinOp):
        return _mentions_completable(e.left) or _mentions_completable(e.right)
    return False


def _whole(keep, name):
    """The condition a set of cards keeps card by card, said of the whole set ``name``.

    ``f(p, name with the card added)`` (language/setmoves.py writes the set being built as
    ``cards(each x~x in ... where x~x in name or x~x == c)``) becomes ``f(p, name)``.
    """
    if keep is None:
        return None

    def back(e):
        if isinstance(e, A.Aggregate) and e.func == "cards" and e.var.endswith("~x"):
            return A.Name(name)
        if isinstance(e, A.Call):
            return A.Call(e.name, tuple(back(a) for a in e.args))
        if isinstance(e, A.BinOp):
            return A.BinOp(e.op, back(e.left), back(e.right))
        if isinstance(e, A.Not):
            return A.Not(back(e.operand))
        return e

    return back(keep)

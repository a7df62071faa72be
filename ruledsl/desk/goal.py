"""What a rulebook's reader asks first: how the game is won and when it ends, and who starts.

Both are gathered from the checked Model, wherever the rules put them: the
winner and the score, every way the flow stops (a ``turns ... until``, a
``while`` or ``repeat`` of rounds, an ``end game`` step and the conditions
around it, the move bound), the "as soon as" triggers that set what those
read, and the ``from`` of every ``turns`` with how the player it names
changes. :mod:`ruledsl.desk.explain` prints them as the sections "How to
win" and "Who starts".
"""

from __future__ import annotations

from ..language import ast as A
from .prose import bounds, conjuncts, disjuncts, same
from .walk import descendants
from .wording import words


def _names(e) -> set:
    return {n.name for n in descendants(e) if isinstance(n, A.Name)} if e is not None else set()


def _read(model, e) -> set:
    """The variables ``e`` reads, through the defines it calls."""
    seen, todo, out = set(), [e], set()
    while todo:
        x = todo.pop()
        if x is None:
            continue
        for n in descendants(x):
            name = n.name if isinstance(n, (A.Name, A.Call)) else None
            if name in model.vars:
                out.add(name)
            elif name in model.defines and name not in seen:
                seen.add(name)
                todo.append(model.defines[name].body)
    return out


def _ends(body, conds, where, found) -> None:
    """Every ``end game`` in ``body`` with the conditions of the ``if``s around it."""
    for s in body:
        if isinstance(s, A.EndGame):
            found.append((list(conds), where))
        elif isinstance(s, A.If):
            for cond, sub in s.branches:
                _ends(sub, [*conds, cond], where, found)
            if s.otherwise:
                _ends(s.otherwise, [*conds, A.Not(s.branches[-1][0])], where, found)
        elif isinstance(s, A.Choose):
            for o in s.options:
                _ends(o.body, conds, where, found)
        else:
            for field in ("body",):
                sub = getattr(s, field, None)
                if isinstance(sub, tuple):
                    _ends(sub, conds, where, found)


def _loops(body, out, inside=False) -> None:
    """The loops of the flow that hold turns (rounds) or are the turns themselves, outermost first."""
    for s in body:
        if isinstance(s, (A.Turns, A.While, A.Repeat, A.For)):
            holds_turns = any(isinstance(n, A.Turns) for n in descendants(s))
            if isinstance(s, A.Turns) or holds_turns or isinstance(s, A.While):
                out.append(s)
            _loops(s.body, out, True)
        elif isinstance(s, A.If):
            for _, sub in s.branches:
                _loops(sub, out, inside)
            if s.otherwise:
                _loops(s.otherwise, out, inside)


def how_to_win(book) -> None:
    m, say = book.model, book.say
    say.explained = set()
    book.out("## How to win")
    book.out()
    w = m.winner
    score = m.defines.get("score")
    if w is not None:
        book.note(w)
    sole = sole_winner(book)
    if score is not None and sole is None and (w is None or not book.comment(w)):
        book.note(score)
    book.out(f"**The winner.** {winner_sentence(book)}")
    book.out()
    if score is not None and sole is None:  # a score only the winner can top decides nothing: not said
        who = score.params[0] if score.params else ""
        book.out(f"**Score** of a player {who}: {say.expr(score.body)}.{book.mark(score, 'score')}")
        book.out()
    read = _read(m, w.when if w is not None else None)
    loops: list = []
    if m.flow is not None:
        _loops(m.flow.body, loops)
    setters = {}
    for t in m.triggers:
        for b in t.body:
            for n in descendants(b):
                if isinstance(n, A.Assign) and not n.indices:
                    setters.setdefault(n.name, t)
    book.out("**The game ends**:")
    book.out()
    ending: set = set()
    for s in loops:
        if isinstance(s, A.Turns):
            cases = disjuncts(s.until)
            # a flag whose rule cuts the turn short ends the game then, not at the end of the turn: said apart
            apart = any(_cut_short(m, d.name) for d in cases if isinstance(d, A.Name) and d.name in setters)
            grouped = len(cases) > 1 and not apart
            if grouped:
                book.out("- at the end of the turn in which one of these is true:")
            for d in cases:
                _end_case(book, d, setters, ending, "  " if grouped else "")
            read |= _read(m, s.until)
            continue
        if isinstance(s, A.While):
            line = (f"when {say.expr(s.cond.operand)}" if isinstance(s.cond, A.Not)
                    else f"when no longer {say.expr(s.cond)} (play goes on as long as it is)")
            read |= _read(m, s.cond)
            notes = say.notes(s.cond)
        elif isinstance(s, A.Repeat):
            simple = isinstance(s.count, (A.IntLit, A.Name))
            line = f"after {say.expr(s.count)} rounds" if simple else f"after a number of rounds: {say.expr(s.count)}"
            notes = say.notes(s.count)
        else:
            line = f"after a round for each {s.var} in {say.domain(s.domain)}"
            notes = []
        book.out(f"- {line};")
        for n in notes:
            book.out(f"  - {n}")
    found: list = []
    for name, proc in m.procedures.items():
        _ends(proc.body, [], f"in *{words(name)}*", found)
    for t in m.triggers:
        _ends(t.body, [t.cond], f"by the rule *{words(t.name)}* (below)", found)
    if m.flow is not None:
        _ends(m.flow.body, [], "in the flow", found)
    for conds, where in found:
        when = " and ".join(say.expr(c) for c in conds)
        book.out(f"- at once, {where}, " + (f"as soon as {when};" if when else "when its step is reached;"))
        for c in conds:
            for n in say.notes(c):
                book.out(f"  - {n}")
    book.out()
    say.known = set(ending)
    for t in [t for t in m.triggers if t not in {setters.get(v) for v in ending}]:
        if any(isinstance(n, A.Assign) and n.name in read for b in t.body for n in descendants(b)):
            who = say.for_each(t.var, t.domain)
            set_names = sorted({n.name for b in t.body for n in descendants(b) if isinstance(n, A.Assign)} & read)
            book.out(f"What sets {', '.join(f'*{words(v)}*' for v in set_names)}: as soon as{who} "
                     f"{say.expr(t.cond)} (the rule *{words(t.name)}*, below).")
            book.out()
            _trigger_notes(book, t, "")
    # the terms explained here are explained once: the rules after this only name them
    book.goal_terms = [n for n in say.noted if n in say.explained]
    say.known |= set(book.goal_terms)


def _end_case(book, d, setters, ending, indent) -> None:
    """One way a ``turns ... until`` stops, with the rule that sets what it reads."""
    m, say = book.model, book.say
    var = d.name if isinstance(d, A.Name) and d.name in m.vars else None
    t = setters.get(var) if var is not None else None
    lead = "" if indent else "at the end of the turn in which "
    if t is None:
        reached = isinstance(d, A.BinOp) and d.op == ">="
        said = f"{say.expr(d.left)} reaches {say.expr(d.right)}" if reached else say.expr(d)
        book.out(f"{indent}- {lead}{said};")
        for n in say.notes(d):
            book.out(f"{indent}  - {n}")
        return
    ending.add(var)
    say.explained.add(var)
    c = book.comment(m.vars[var].node)
    who = say.for_each(t.var, t.domain)
    cut = _cut_short(m, var)
    if cut:  # the turn stops there: the game ends in the turn, not at its end
        book.out(f"{indent}- as soon as {words(var)} becomes true" + (f" ({c.rstrip('.')})" if c else "")
                 + f", which happens as soon as{who} {say.expr(t.cond)} (the rule *{words(t.name)}*, below). "
                 "The turn stops there: the step under way is finished, the steps of "
                 f"{', '.join(f'*{words(p)}*' for p in cut)} done only while not {words(var)} are left out, "
                 "and the game ends;")
    else:
        book.out(f"{indent}- {lead}{words(var)}" + (f" ({c.rstrip('.')})" if c else "")
                 + f": it becomes true as soon as{who} {say.expr(t.cond)} (the rule *{words(t.name)}*, below);")
    _trigger_notes(book, t, indent + "  ")


def _trigger_notes(book, t, indent) -> None:
    say = book.say
    say.deep = True
    notes = say.notes(t.cond)
    say.deep = False
    for n in notes:
        book.out(f"{indent}- {n}")
    if notes and not indent:
        book.out()


def _cut_short(model, var) -> list:
    """The procedures whose loops or ``if``s go on only while ``var`` is false."""
    out = []
    for name, proc in model.procedures.items():
        for n in descendants(proc):
            cond = n.cond if isinstance(n, A.While) else (n.branches[0][0] if isinstance(n, A.If) else None)
            if cond is not None and name not in out and any(
                    isinstance(c, A.Not) and isinstance(c.operand, A.Name) and c.operand.name == var
                    for c in conjuncts(cond)):
                out.append(name)
    return out


def sole_winner(book):
    """A score that only one player can top: ``if W and v == p then HIGH else LOW`` with HIGH above LOW always.

    Returns (the player variable, the winning score, the most any other player scores) or None.
    """
    m, w = book.model, book.model.winner
    score = m.defines.get("score")
    if w is None or score is None or len(w.keys) != 1 or not w.keys[0].highest or len(score.params) != 1:
        return None
    key = w.keys[0].expr
    if not (isinstance(key, A.Call) and key.name == "score"):
        return None
    body, p = score.body, score.params[0]
    if not isinstance(body, A.IfExpr):
        return None
    parts = conjuncts(body.cond)
    eq = next((c for c in parts if isinstance(c, A.BinOp) and c.op == "==" and {
        getattr(c.left, "name", None), getattr(c.right, "name", None)} >= {p} and any(
        isinstance(x, A.Name) and x.name in m.vars and m.vars[x.name].type == "player" and not m.vars[x.name].dims
        for x in (c.left, c.right))), None)
    if eq is None:
        return None
    var = next(x.name for x in (eq.left, eq.right) if isinstance(x, A.Name) and x.name != p)
    when = conjuncts(w.when) if w.when is not None else []
    if not all(any(same(c, x) for x in when) for c in parts if c is not eq):
        return None
    high = bounds(m, body.then, book.program.card_count)
    low = bounds(m, body.otherwise, book.program.card_count)
    if high is None or low is None or high[0] <= low[1]:
        return None
    return var, high[0], low[1]


def winner_sentence(book) -> str:
    say, w = book.say, book.model.winner
    if w is None:
        return "The player with the lowest score wins."
    if w.everyone:
        when = say.expr(w.when) if w.when is not None else "the game ends"
        return f"All the players win together when {when}; otherwise they all lose.{book.mark(w, 'winner')}"
    sole = sole_winner(book)
    if sole is not None:
        return (f"When {say.expr(w.when)}, the {words(sole[0])} wins. Otherwise the game ends with no "
                f"winner.{book.mark(w, 'winner')}")
    keys = [f"the {'highest' if k.highest else 'lowest'} {say.expr(k.expr).removeprefix('the ')}" for k in w.keys]
    order = keys[0] + "".join(f", then (on a tie) {k}" for k in keys[1:])
    when = f"When {say.expr(w.when)}, the" if w.when is not None else "The"
    text = f"{when} player with {order} wins; players still tied share the win.{book.mark(w, 'winner')}"
    if w.when is not None:
        text += " Otherwise the game ends with no winner."
    return text


def who_starts(book) -> None:
    m, say = book.model, book.say
    if m.flow is None:
        return
    turns = [n for n in descendants(m.flow) if isinstance(n, A.Turns)]
    starts: dict = {}
    for t in turns:
        starts.setdefault(say.expr(t.start), t)
    if not starts:
        return
    say.explained = set()
    book.out("## Who starts")
    book.out()
    book.out("The seats are numbered from 0, in the order the turn goes round. In these rules, *you* are "
             "the player whose turn it is.")
    book.out()
    for said, t in starts.items():
        first = f"Player {said} (the first seat)" if isinstance(t.start, A.IntLit) else said[0].upper() + said[1:]
        book.out(f"- {first} has the first turn; then the turn passes to the next player in seat order.")
        if isinstance(t.start, A.IntLit) and not [v for v in _names(t.start) if v in m.vars]:
            book.out(f"  - The rules do not say who sits in seat {said}: the players choose who starts "
                     "(for example by drawing a card), and seat the others from there.")
        for v in sorted(_names(t.start) & set(m.vars)):
            info = m.vars[v]
            init = say.expr(info.init) if info.init is not None else "not set"
            book.out(f"  - The {words(v)} is {init} at the start.")
            for n in descendants(m.flow):
                if isinstance(n, A.Assign) and n.name == v:
                    said = say._s_Assign(n)
                    book.out(f"  - After each round: {said[0].lower()}{said[1:]}")
    book.out()

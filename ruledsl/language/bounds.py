"""Moves with a bound: ``move NAME(...) where COND at most N per k per turn { ... }``.

"Each player may make one offer to each other player per turn": the bound is
the language's, so the designer keeps no counter of their own. It is written
in terms of constructs the engine already has, so the checker, the compiler,
bots, logs and verify treat it like any variable:

    var NAME~uses~PERIOD~LINE~COLUMN~FILE[player, K...]: int unshown = 0
    move NAME(k in K, ...) where COND and NAME~uses[<chooser>, k] < N {
      NAME~uses[<chooser>, k] += 1
      <the move's body>
    }

One count for each player who makes the move (the chooser) and each value of
the parameters named after ``per``. The counts start again at 0 as each turn
of every ``turns`` begins (``per turn``: a :class:`~.ast.PerTurn` declaration
that :func:`splice_turns` puts at the top of every ``turns`` body, once the
files are assembled) or as the response window opens (``per window``, only in
a ``respond``). A count is worked out from moves everybody sees, so it is
public. Users cannot write ``~``: the variable cannot clash with theirs.

A bound that cannot be written out stays on the move, with the reason, for
the checker to report beside the file's other errors."""

from __future__ import annotations

import copy
import zlib

import attrs

from . import ast as A

PERIODS = ("turn", "window")


def make(count, pers: list, span) -> A.MoveBound:
    """The bound as written: ``at most COUNT per k ... per PERIOD``."""
    names = [str(p) for p in pers]
    return A.MoveBound(count, tuple(names[:-1]), names[-1], span=span)


def apply(options, actor, in_window: bool) -> tuple[tuple, list, list]:
    """The options with their bounds written out; the hidden variables they count in; and the
    statements that start the counts of ``per window`` bounds again (the window runs them first)."""
    out, decls, window_resets = [], [], []
    for o in options:
        b = o.bound
        if b is None:
            out.append(o)
            continue
        problem = _problem(o, b, in_window)
        if problem is not None:
            out.append(attrs.evolve(o, bound=attrs.evolve(b, problem=problem)))
            continue
        var = uses_name(o.name, b)
        params = {p.name: p for p in o.params}
        decls.append(A.VarDef(var, (A.IndexDomain("player", span=b.span),)
                              + tuple(_index(params[k].domain) for k in b.keys),
                              "int", A.IntLit(0, span=b.span), None, False, span=b.span))
        reset = _reset(var, [params[k].domain for k in b.keys], b.span)
        if b.period == "window":
            window_resets.append(reset)
        else:
            decls.append(A.PerTurn((reset,), span=b.span))
        uses = A.Index(A.Name(var, span=b.span), _count_of(actor, b), span=b.span)
        test = A.BinOp("<", uses, b.count, span=b.span)
        where = test if o.where is None else A.BinOp("and", o.where, test, span=o.where.span)
        count = A.Assign(var, _count_of(actor, b), "+=", A.IntLit(1, span=b.span), span=b.span)
        out.append(attrs.evolve(o, where=where, body=(count,) + tuple(o.body), bound=None))
    return tuple(out), decls, window_resets


def uses_name(move: str, b: A.MoveBound) -> str:
    """The hidden variable of one bound: the move, the period, and where the bound is written (the file
    as a hash)."""
    file = zlib.crc32(b.span.file.encode("utf-8"))  # names hold no `.`, `/` or `:` (views read `x.member`)
    return f"{move}~uses~{b.period}~{b.span.line}~{b.span.column}~{file:08x}"


def read_uses(name: str) -> tuple[str, str] | None:
    """(move, period) of a bound's hidden variable; None for any other name (for tools that word it)."""
    parts = name.split("~", 3)
    return (parts[0], parts[2]) if len(parts) == 4 and parts[1] == "uses" else None


def _count_of(actor, b: A.MoveBound) -> tuple:
    """The indices of one count: the chooser, then the parameters named after `per`."""
    return (copy.deepcopy(actor),) + tuple(A.Name(k, span=b.span) for k in b.keys)


def _problem(o: A.Option, b: A.MoveBound, in_window: bool) -> tuple | None:
    """Why the bound cannot be written out, as (code, message, hint); None when it can."""
    if b.period not in PERIODS:
        return ("E200", f"a move's bound counts per turn or per window, not per `{b.period}`",
                "write `per turn`, or `per window` for a move of a `respond` window")
    if b.period == "window" and not in_window:
        return ("E206", f"move `{o.name}` counts `per window`, but it is not a move of a `respond` window",
                "write `per turn`, or move it into a `respond ... { ... }`")
    params = {p.name: p for p in o.params}
    for i, k in enumerate(b.keys):
        if k in b.keys[:i]:
            return ("E204", f"the bound of move `{o.name}` names `{k}` twice", f"write `per {k}` once")
        if k not in params:
            names = ", ".join(f"`{n}`" for n in params) or "none"
            return ("E200", f"move `{o.name}` has no parameter `{k}` to count by (its parameters: {names})",
                    f"`per {k}` counts the move apart for each value of its parameter `{k}`")
        if not isinstance(params[k], A.OptionParam) or not _countable(params[k].domain):
            what = "a set of cards" if not isinstance(params[k], A.OptionParam) else "neither players, an enum nor a range"
            return ("E202", (f"the bound of move `{o.name}` counts by `{k}`, which runs over {what}; "
                             "a move is counted apart by players, enum values or numbers of a range only"),
                    f"count by a parameter such as `q in players`, or leave `per {k}` out")
    return None


def _countable(domain) -> bool:
    """Players, seats, an enum (a bare name) or a range: the domains a variable may be indexed by."""
    return isinstance(domain, (A.Name, A.Range))


def _index(domain) -> A.IndexDomain:
    if isinstance(domain, A.Range):
        return A.IndexDomain(None, copy.deepcopy(domain.low), copy.deepcopy(domain.high), span=domain.span)
    name = "player" if domain.name in ("players", "seats") else domain.name
    return A.IndexDomain(name, span=domain.span)


def _reset(var: str, domains: list, span) -> A.Stmt:
    """for every seat (and every value counted by): the count is 0 again."""
    names = [f"{var}~seat"] + [f"{var}~{i}" for i in range(len(domains))]
    body = (A.Assign(var, tuple(A.Name(n, span=span) for n in names), "=", A.IntLit(0, span=span), span=span),)
    for n, d in reversed(list(zip(names[1:], domains))):
        body = (A.For(n, _every(d), None, body, span=span),)
    return A.For(names[0], A.Name("seats", span=span), None, body, span=span)


def _every(domain):
    """Each value a count is kept for: all seats where the move runs over `players`."""
    if isinstance(domain, A.Name) and domain.name == "players":
        return A.Name("seats", span=domain.span)
    return copy.deepcopy(domain)


def splice_turns(items: tuple, replaced: tuple) -> tuple[tuple, tuple]:
    """The declarations without their PerTurn parts, each of whose statements now opens every
    `turns` body (in the flow, procedures and `replace`d parts alike)."""
    body = tuple(s for i in items if isinstance(i, A.PerTurn) for s in i.body)
    items = tuple(i for i in items if not isinstance(i, A.PerTurn))
    if not body:
        return items, replaced
    return _spliced(items, body), _spliced(replaced, body)


def _spliced(node, body: tuple):
    if isinstance(node, tuple):
        new = tuple(_spliced(n, body) for n in node)
        return node if all(a is b for a, b in zip(new, node)) else new
    if not isinstance(node, A.Node) or isinstance(node, A.Expr):  # expressions hold no statements
        return node
    changes = {}
    for f in attrs.fields(type(node)):
        value = getattr(node, f.name)
        if isinstance(value, (tuple, A.Node)):
            new = _spliced(value, body)
            if new is not value:
                changes[f.name] = new
    if isinstance(node, A.Turns):
        changes["body"] = copy.deepcopy(body) + changes.get("body", node.body)
    return attrs.evolve(node, **changes) if changes else node

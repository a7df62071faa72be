"""Moves that take a set of cards: ``move attack(cs subset of hand[current]) where COND { ... }``.

A set of n cards has 2^n subsets, so such a move is not listed once per
subset. It is offered as one move, ``attack``, when COND holds for the whole
zone (for a condition that grows true as cards are added, such as a sum that
must reach a bound, that is exactly when some set would do). Choosing it
starts building the set inside one decision of the same name, card by card:

    let cs = <no cards>
    let cs~open = true
    while cs~open {
      choose attack by <the same player> {
        move add(c in ZONE) where not (c in cs) { cs = cards(each x in ZONE where x in cs or x == c) }
        move done where COND { cs~open = false }
      }
    }
    <the move's body, with cs the chosen cards in the zone's order>

``done`` is legal once the set is valid. The set is a local: it is not part of
any player's view, so the cards one adds from a hidden hand stay hidden from
the others (they see the ``add`` moves as any move on hidden cards is shown).

``cs subset of ZONE while KEEP`` is for conditions that do not grow true (an
exact size, one rank): KEEP says the set chosen so far can still become valid.
The move is offered when KEEP holds for no cards, and ``add(c)`` only when KEEP
holds for the set with ``c`` added; ``done`` as before (docs/language.md §4.12.4).

A set move without `while` whose condition is made of meld tests over the set
(``same``/``distinct``/``run(each x in cs by KEY)``), bounds on ``size(cs)`` and
terms that do not look at the set, joined by ``and`` (and such conjunctions by
``or``), gets its `while` worked out: a :class:`~ruledsl.language.ast.Completable`
test per conjunction, answered by :mod:`ruledsl.compiler.melds` (§4.12.7).

This module is the construct's syntax: the parser calls :func:`expand_all`.
Its runtime half (telling a set being built, a set as one record of a game
log) is :mod:`ruledsl.engine.setlog`."""

from __future__ import annotations

import copy

import attrs

from . import ast as A


@A.node
class SetParam(A.Node):
    """``cs subset of ZONE`` before it is turned into a building loop (only when it is alone)."""

    name: str
    domain: A.Expr
    keep: A.Expr | None = None  # `while COND`: a card may be added only if the set still meets COND


def substitute(node, name: str, by):
    """A copy of ``node`` with every reference to ``name`` replaced by a fresh copy of ``by``."""
    if isinstance(node, A.Name) and node.name == name:
        return copy.deepcopy(by)
    if isinstance(node, tuple):
        return tuple(substitute(x, name, by) for x in node)
    if isinstance(node, A.Node):
        changes = {}
        for f in attrs.fields(type(node)):
            v = getattr(node, f.name)
            if isinstance(v, (A.Node, tuple)):
                changes[f.alias or f.name] = substitute(v, name, by)
        return attrs.evolve(node, **changes) if changes else copy.copy(node)
    return node


def expand_all(options, actor) -> tuple:
    """The options of a decision, each move whose only parameter is a set turned into its building loop.

    A set beside other parameters is left for the checker to report (E202)."""
    return tuple(expand(o, actor) if len(o.params) == 1 and isinstance(o.params[0], SetParam) else o
                 for o in options)


MELD_TESTS = ("same", "distinct", "run")
_BOUNDS = {">=": "low", ">": "low", "==": "both", "<=": "high", "<": "high"}
_MIRRORED = {">=": "<=", ">": "<", "==": "==", "<=": ">=", "<": ">"}


def _terms(e, op: str) -> list:
    """The operands of a chain of ``op`` (`and` or `or`)."""
    if isinstance(e, A.BinOp) and e.op == op:
        return _terms(e.left, op) + _terms(e.right, op)
    return [e]


def _mentions(node, name: str) -> bool:
    if isinstance(node, A.Name):
        return node.name == name
    if isinstance(node, tuple):
        return any(_mentions(x, name) for x in node)
    if isinstance(node, A.Node):
        return any(_mentions(getattr(node, f.name), name) for f in attrs.fields(type(node))
                   if isinstance(getattr(node, f.name), (A.Node, tuple)))
    return False


def _meld_test(term, cs: str) -> bool:
    """``same|distinct|run(each x in cs by KEY)``, the key not looking at the set, `run` in no order."""
    return (isinstance(term, A.Aggregate) and term.func in MELD_TESTS and isinstance(term.domain, A.Name)
            and term.domain.name == cs and term.where is None and term.start is None and not term.ordered
            and term.key is not None and not _mentions(term.key, cs))


def _size_bound(term, cs: str):
    """("low" / "high" / "both", N) for ``size(cs) >= N`` and the like (either way round), else None."""
    if not (isinstance(term, A.BinOp) and term.op in _BOUNDS):
        return None
    op, left, right = term.op, term.left, term.right
    if not (isinstance(left, A.Call) and left.name == "size"):
        op, left, right = _MIRRORED[op], right, left
    if not (isinstance(left, A.Call) and left.name == "size" and len(left.args) == 1
            and isinstance(left.args[0], A.Name) and left.args[0].name == cs and not _mentions(right, cs)):
        return None
    one = A.IntLit(1, span=term.span)
    if op == ">":
        right = A.BinOp("+", right, one, span=term.span)
    elif op == "<":
        right = A.BinOp("-", right, one, span=term.span)
    return _BOUNDS[op], right


def meld_keep(where, cs: str, zone, span):
    """The `while` of a set move whose condition is made of meld tests (see the module's docstring), or
    None when the condition is not of that shape."""
    if where is None:
        return None
    keeps, tested = [], False
    for conjunction in _terms(where, "or"):
        tests, lows, highs, free = [], [], [], []
        for term in _terms(conjunction, "and"):
            bound = _size_bound(term, cs)
            if not _mentions(term, cs):
                free.append(term)
            elif _meld_test(term, cs):
                tests.append(term)
            elif bound is not None:
                (lows, highs)[bound[0] == "high"].append(bound[1])
                if bound[0] == "both":
                    highs.append(bound[1])
            else:
                return None
        tested = tested or bool(tests)
        keep = A.Completable(A.Name(cs, span=span), copy.deepcopy(zone), tuple(tests), tuple(lows), tuple(highs),
                             span=conjunction.span)
        for term in free:
            keep = A.BinOp("and", term, keep, span=conjunction.span)
        keeps.append(keep)
    if not tested:
        return None
    keep = keeps[0]
    for other in keeps[1:]:
        keep = A.BinOp("or", keep, other, span=where.span)
    return copy.deepcopy(keep)


def expand(option: A.Option, actor) -> A.Option:
    """The option a set-taking move stands for (see the module's docstring)."""
    (param,) = option.params
    if param.keep is None:
        keep = meld_keep(option.where, param.name, param.domain, option.span)
        if keep is not None:
            param = attrs.evolve(param, keep=keep)
    span, cs, zone = option.span, param.name, param.domain
    open_ = f"{cs}~open"
    x, c = f"{cs}~x", f"{cs}~c"

    def name(n):
        return A.Name(n, span=span)

    def chosen(cond):
        return A.Aggregate("cards", x, copy.deepcopy(zone), cond, None, span=span)

    def grown():  # the set with the card c added
        return chosen(A.BinOp("or", A.BinOp("in", name(x), name(cs), span=span),
                              A.BinOp("==", name(x), name(c), span=span), span=span))

    new = A.Not(A.BinOp("in", name(c), name(cs), span=span), span=span)
    if param.keep is not None:  # only a card after which the set still meets the `while` condition
        new = A.BinOp("and", new, substitute(param.keep, cs, grown()), span=param.keep.span)
    add = A.Option("add", (A.OptionParam(c, copy.deepcopy(zone), span=span),), new,
                   (A.Assign(cs, (), "=", grown(), span=span),), span=span)
    done = A.Option("done", (), copy.deepcopy(option.where) if option.where is not None else None,
                    (A.Assign(open_, (), "=", A.BoolLit(False, span=span), span=span),), span=span)
    build = (
        A.Let(cs, chosen(A.BoolLit(False, span=span)), span=span),
        A.Let(open_, A.BoolLit(True, span=span), span=span),
        A.While(name(open_), (A.Choose(option.name, copy.deepcopy(actor), (add, done), span=span),), span=span),
    )
    if param.keep is not None:  # offered when no cards at all meet the `while` condition
        where = substitute(param.keep, cs, chosen(A.BoolLit(False, span=span)))
    else:  # offered when the whole zone meets the condition
        where = substitute(option.where, cs, zone) if option.where is not None else None
    return A.Option(option.name, (), where, build + tuple(option.body), option.bound, span=span)

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


def expand(option: A.Option, actor) -> A.Option:
    """The option a set-taking move stands for (see the module's docstring)."""
    (param,) = option.params
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

"""Response windows: ``respond NAME by p in DOMAIN [from START] [where COND] { move ... }``.

A window lets players other than the one whose move it is act between that
player's actions. It is written in terms of constructs the engine already has,
so the checker, the compiler, bots, logs and verify treat it like any loop
around a decision:

    let W~passes = 0
    let W~asked = count(each p in DOMAIN where COND)
    while W~passes < W~asked {
      for p in DOMAIN from START where COND {
        if W~passes < W~asked {
          choose W by p { <the window's moves, each followed by W~passes = 0>
                          move pass { W~passes += 1 } }
        }
      }
      W~asked = count(each p in DOMAIN where COND)
    }

The asked players are visited in seat order from START (``next(current)``
when left out); the window closes once every asked player has passed in a row.
Every asked player gets the decision, even one whose only legal move is
``pass``: skipping them would let the others learn something about cards they
cannot see (whether that player could have acted).

``respond ... until claimed`` is a window that the first claim closes: each
asked player is asked once, in the same order, and the first move other than
``pass`` closes it ("any player may challenge; the first who does, and no one
else is asked"):

    let W~unclaimed = true
    for p in DOMAIN from START where COND {
      if W~unclaimed {
        choose W by p { <the window's moves, each starting with W~unclaimed = false>
                        move pass {} }
      }
    }

Whether the window is still open depends only on the moves made, which the
others see: who is asked next never depends on a card they cannot see.

``resets`` (statements that start the counts of moves bounded ``per window``
again, see :mod:`.bounds`) run as the window opens."""

from __future__ import annotations

import copy

import attrs

from . import ast as A


def hidden(window: str, what: str) -> str:
    """The name of a local the window keeps; users cannot write `~`, so it cannot clash."""
    return f"{window}~{what}"


def expand(name: str, var: str, domain, start, where, options: tuple, span, claimed: bool = False,
           resets: tuple = ()) -> tuple:
    """The statements a `respond` window stands for (see the module's docstring)."""
    if start is None:
        start = A.Call("next", (A.Name("current", span=span),), span=span)
    if claimed:
        return tuple(resets) + _first_claim(name, var, domain, start, where, options, span)
    passes, asked = hidden(name, "passes"), hidden(name, "asked")

    def ref(n):
        return A.Name(n, span=span)

    def count():  # later passes keep side tables by node identity: each use gets its own copy
        return A.Aggregate("count", var, copy.deepcopy(domain), copy.deepcopy(where), None, span=span)

    def setv(n, op, value):
        return A.Assign(n, (), op, value, span=span)

    reset = setv(passes, "=", A.IntLit(0, span=span))
    moves = tuple(attrs.evolve(o, body=tuple(o.body) + (reset,)) for o in options)
    moves += (A.Option("pass", (), None, (setv(passes, "+=", A.IntLit(1, span=span)),), span=span),)
    open_ = A.BinOp("<", ref(passes), ref(asked), span=span)
    ask = A.If(((open_, (A.Choose(name, ref(var), moves, span=span),)),), None, span=span)
    sweep = A.For(var, domain, start, (ask,), where, span=span)
    return tuple(resets) + (
        A.Let(passes, A.IntLit(0, span=span), span=span),
        A.Let(asked, count(), span=span),
        A.While(open_, (sweep, setv(asked, "=", count())), span=span),
    )


def _first_claim(name: str, var: str, domain, start, where, options: tuple, span) -> tuple:
    """`respond ... until claimed`: one round of asking, which the first claim ends."""
    open_ = hidden(name, "unclaimed")
    closed = A.Assign(open_, (), "=", A.BoolLit(False, span=span), span=span)
    moves = tuple(attrs.evolve(o, body=(closed,) + tuple(o.body)) for o in options)
    moves += (A.Option("pass", (), None, (), span=span),)
    ask = A.If(((A.Name(open_, span=span), (A.Choose(name, A.Name(var, span=span), moves, span=span),)),),
               None, span=span)
    return (
        A.Let(open_, A.BoolLit(True, span=span), span=span),
        A.For(var, domain, start, (ask,), where, span=span),
    )

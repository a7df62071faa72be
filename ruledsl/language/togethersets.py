"""A set of cards chosen together, in secret: ``choose NAME by each p in ... { move m(cs subset of ZONE) where COND }``.

Every chooser builds their set card by card while it is their turn to choose,
and the set is *complete as soon as COND holds*: an ``add`` is offered only
while it does not, and there is no ``done``. So the number of steps a chooser
takes is the same whatever cards they pick when COND only counts the cards
(``size(cs) >= 3``): the others cannot learn anything from how long a choice
took. (A COND that looks at the cards, such as a sum, makes that number depend
on the cards picked; ``ruledsl verify``'s check of secret choices reports it.)

The move stands for

    let cs = <no cards>
    while not COND {
      choose m by p {
        move add(c in ZONE) where not (c in cs) { cs = cards(each x in ZONE where x in cs or x == c) }
      }
    }
    <the move's body>

offered when COND holds for the whole zone (as for any set move, see
:mod:`ruledsl.cardsets`). The first ``built`` statements are the building,
which :mod:`ruledsl.together` runs while the player chooses; the rest is the
body, carried out when all have chosen, with ``cs`` the cards written down.
"""

from __future__ import annotations

import copy

from . import ast as A
from .setmoves import SetParam, substitute


@A.node
class SetOption(A.Option):
    """A move of a choice made together whose parameter is a set: its body starts with ``built``
    statements that build the set while the player chooses."""

    built: int = 2
    set_name: str = ""


def expand_all(options, actor) -> tuple:
    """The options of `choose ... by each p`, each move whose only parameter is a set (with a
    condition) turned into its building. A set without a condition is left for the checker (E206)."""
    return tuple(expand(o, actor) if len(o.params) == 1 and isinstance(o.params[0], SetParam)
                 and o.where is not None else o for o in options)


def expand(option: A.Option, actor) -> SetOption:
    (param,) = option.params
    span, cs, zone = option.span, param.name, param.domain
    x, c = f"{cs}~x", f"{cs}~c"

    def name(n):
        return A.Name(n, span=span)

    def chosen(cond):
        return A.Aggregate("cards", x, copy.deepcopy(zone), cond, None, span=span)

    def with_c():  # the set chosen so far with the card c added
        return chosen(A.BinOp("or", A.BinOp("in", name(x), name(cs), span=span),
                              A.BinOp("==", name(x), name(c), span=span), span=span))

    allowed = A.Not(A.BinOp("in", name(c), name(cs), span=span), span=span)
    if param.keep is not None:  # `while COND`: a card is offered only if the set with it still meets COND
        allowed = A.BinOp("and", allowed, substitute(param.keep, cs, with_c()), span=span)
    add = A.Option("add", (A.OptionParam(c, copy.deepcopy(zone), span=span),), allowed,
                   (A.Assign(cs, (), "=", with_c(), span=span),), span=span)
    build = (
        A.Let(cs, chosen(A.BoolLit(False, span=span)), span=span),
        A.While(A.Not(copy.deepcopy(option.where), span=span),
                (A.Choose(option.name, copy.deepcopy(actor), (add,), span=span),), span=span),
    )
    where = substitute(option.where, cs, zone)
    return SetOption(option.name, (), where, build + tuple(option.body), built=len(build), set_name=cs, span=span)

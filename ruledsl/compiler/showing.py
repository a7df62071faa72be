"""Compiling `reveal WHAT to P { ... }` and `show WHAT [to P]`: letting players see cards.

`show` shows the cards for a moment, without moving them: the players it
shows them to find them in their view's ``shown`` list until the next move
(``State.shown``, pairs ``[card, player]`` cleared when a move is made).

WHAT is a zone, several zones joined by `+`, a card or a list of cards (or a
mix of these joined by `+`). A zone is granted as a zone: the player sees
whatever lies in it while the body runs, cards that come in included. A card
is granted as a card: the player sees it wherever it goes while the body
runs.

A grant is a pair ``[target, player]`` in ``State.grants``: ``target`` is a
zone number, or ``-1 - card`` for one card (so saves stay lists of numbers).
"""

from __future__ import annotations

from ..checker import types as T
from ..checker.types import parts
from .steps import SET


# the types `reveal` accepts, in words, for the checker's message
def card_grant(card: int) -> int:
    return -1 - card


def granted_card(target: int):
    """The card of a card grant, or None for a zone grant."""
    return -1 - target if target < 0 else None


def _cards_of(comp, what):
    """A closure giving the card ids `what` names (zones: the cards in them now)."""
    pieces = [comp.expr(e) for e in parts(what)]
    zones = comp.zone_list

    def cards(st, L) -> list:
        out = []
        for fn, t in pieces:
            v = fn(st, L)
            if t == T.ZONE:
                out.extend(st.zones[v])
            elif t == T.TRACK:
                out.extend(c for c in (st.places[q] for q in zones[v].places) if c >= 0)
            elif t == T.CARD:
                if v is not None:
                    out.append(v)
            else:
                out.extend(v)
        return list(dict.fromkeys(out))

    return cards


def compile_show(comp, s) -> None:
    cards = _cards_of(comp, s.what)
    to = comp.expr(s.to)[0] if s.to is not None else None

    def show(st, L):
        who = [to(st, L)] if to is not None else range(st.n)
        st.shown.extend([c, p] for c in cards(st, L) for p in who if [c, p] not in st.shown)

    comp.emit(SET, show, span=s.span)


def compile_tell(comp, s) -> None:
    """`tell ATTR of WHAT [to P]`: the players learn ATTR of each card (``State.known``)."""
    cards = _cards_of(comp, s.what)
    to = comp.expr(s.to)[0] if s.to is not None else None
    has = comp.kind_has.get(s.attr)

    def tell(st, L):
        who = [to(st, L)] if to is not None else range(st.n)
        # [-1, attr, p]: p was told about this attribute, even of no card (a hint that points out no
        # card says something too); verify then trades hidden cards only among cards that agree on it
        new = [[-1, s.attr, p] for p in who]
        new += [[c, s.attr, p] for c in cards(st, L) if has is None or has[c] for p in who]
        st.known = st.known + [k for k in new if k not in st.known]

    comp.emit(SET, tell, span=s.span)


def compile_reveal(comp, s) -> None:
    """Emit the grant, the body, and the withdrawal (``comp``: the compiler)."""
    pieces = []
    for e in parts(s.what):
        fn, t = comp.expr(e)
        pieces.append((fn, t))
    to = comp.expr(s.to)[0]
    slot = comp.new_slot()

    def targets(st, L) -> list:
        out = []
        for fn, t in pieces:
            v = fn(st, L)
            if t in (T.ZONE, T.TRACK):
                out.append(v)
            elif t == T.CARD:
                if v is not None:
                    out.append(card_grant(v))
            else:
                out.extend(card_grant(c) for c in v)
        return out

    def reveal(st, L):
        p = to(st, L)
        given = [[g, p] for g in dict.fromkeys(targets(st, L))]
        L[slot] = given
        st.grants.extend(g.copy() for g in given)

    def withdraw(st, L):
        for g in L[slot] or ():
            if g in st.grants:
                st.grants.remove(g)

    comp.emit(SET, reveal, span=s.span)
    comp.block(s.body)
    comp.emit(SET, withdraw, span=s.span)

"""Compiling `choose NAME by each p in DOMAIN { move ... }`: players who choose together, in secret.

The players of DOMAIN decide one after another, in the domain's order, but a
choice is only written down (a hidden commitment): nothing of it happens and
nobody else is shown it, so a later chooser sees the same game whatever the
earlier ones chose. When all have chosen, the moves are carried out one after
another in an order drawn from the game's generator (when two players claim
the same thing, the seed decides who was first), with `p` the player whose
move it is.

Steps: ``begin``, then per chooser ``bind`` / CHOOSE / ``record``; then per
commitment ``load`` and a jump to the body of the move chosen. The
commitments are two locals: ``[player, option, card offset, other args...]``
per chooser, and one flat list of the card arguments (a card list, so that
verify's swaps of hidden cards follow them).
"""

from __future__ import annotations

from . import types as T
from .rng import shuffle
from .steps import CHOOSE, JUMP, JUMP_IF_NOT, SET


def compile_together(comp, s, options) -> None:
    from .compile import Choice, _local

    span = s.span
    b = comp._binding(s, s.each)
    who = comp.slot(b)
    comp.env[b] = (_local(who), T.PLAYER)
    dfn, dt = comp.expr(s.domain)
    dom = comp.domain(dfn, dt, s.domain.span)
    lst, idx, commits, cards, order, at = (comp.new_slot() for _ in range(6))
    comp.card_list_slots.add(cards)

    def begin(st, L):
        L[lst] = list(dom(st, L))
        L[idx] = 0
        L[commits] = []
        L[cards] = []

    comp.emit(SET, begin, span=span)
    top = comp.emit(JUMP_IF_NOT, lambda st, L: L[idx] < len(L[lst]), None, span=span)

    def bind(st, L):
        L[who] = L[lst][L[idx]]

    comp.emit(SET, bind, span=span)
    choice = Choice(s.name, _local(who), [], span, secret=True, together=lambda L: (L[lst], L[idx]))

    def rewind(L):  # for worlds a player cannot tell apart: the others' secret choices unmade
        L[idx] = 0
        L[commits] = []
        L[cards] = []
        L[who] = L[lst][0]
        for option in choice.options:  # the last chooser's move arguments, left in their slots
            for slot, _ in option.params:
                L[slot] = None

    choice.rewind = rewind
    cid = len(comp.choices)
    comp.choices.append(choice)
    comp.emit(CHOOSE, cid, span=span)
    ends = []
    for k, o in enumerate(options):
        option = comp.option(o)  # its "body" is the step that writes the choice down
        choice.options.append(option)
        comp.emit(SET, _recorder(k, option, who, commits, cards), span=o.span)
        ends.append(comp.emit(JUMP, None, span=o.span))
    step = len(comp.code)
    for j in ends:
        comp.code[j][1] = step

    def advance(st, L):
        L[idx] += 1

    comp.emit(SET, advance, span=span)
    comp.emit(JUMP, top, span=span)
    comp.code[top][2] = len(comp.code)

    # all have chosen: carry the moves out, in an order drawn from the generator
    def draw_order(st, L):
        drawn = list(range(len(L[commits])))
        if len(drawn) > 1:
            shuffle(st, drawn)
        L[order] = drawn
        L[at] = 0

    comp.emit(SET, draw_order, span=span)
    ctop = comp.emit(JUMP_IF_NOT, lambda st, L: L[at] < len(L[order]), None, span=span)
    loads = [_loader(option) for option in choice.options]

    def load(st, L):
        rec = L[commits][L[order][L[at]]]
        L[who] = rec[0]
        loads[rec[1]](L, rec, L[cards])

    comp.emit(SET, load, span=span)
    ends = []
    for k, o in enumerate(options):
        last = k == len(options) - 1  # the last move needs no test: no other is left
        skip = None if last else comp.emit(
            JUMP_IF_NOT, (lambda k: lambda st, L: L[commits][L[order][L[at]]][1] == k)(k), None, span=o.span)
        comp.block(o.body)
        ends.append(comp.emit(JUMP, None, span=o.span))
        if skip is not None:
            comp.code[skip][2] = len(comp.code)
    for j in ends:
        comp.code[j][1] = len(comp.code)

    def next_move(st, L):
        L[at] += 1

    comp.emit(SET, next_move, span=span)
    comp.emit(JUMP, ctop, span=span)
    comp.code[ctop][2] = len(comp.code)

    def tidy(st, L):  # the commitments are spent: nothing of them stays in the state
        L[commits] = L[cards] = L[order] = L[lst] = None

    comp.emit(SET, tidy, span=span)


def _recorder(k: int, option, who: int, commits: int, cards: int):
    """The step that writes down a chooser's move ``k``: card arguments apart, in the card list."""
    slots = [slot for slot, _ in option.params]
    is_card = [kind == T.CARD for kind in option.kinds]

    def record(st, L):
        rec, new_cards = [L[who], k, len(L[cards])], []
        for slot, card in zip(slots, is_card):
            (new_cards if card else rec).append(L[slot])
        # new lists, never changed in place: a clone of the state shares its locals' lists
        L[cards] = L[cards] + new_cards
        L[commits] = L[commits] + [rec]

    return record


def _loader(option):
    """Puts a written-down move's arguments back into its parameters."""
    slots = [slot for slot, _ in option.params]
    is_card = [kind == T.CARD for kind in option.kinds]

    def load(L, rec, cards):
        c, rest = rec[2], 3
        for slot, card in zip(slots, is_card):
            if card:
                L[slot] = cards[c]
                c += 1
            else:
                L[slot] = rec[rest]
                rest += 1

    return load

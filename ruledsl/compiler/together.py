"""Compiling `choose NAME by each p in DOMAIN { move ... }`: players who choose together, in secret.

The players of DOMAIN decide one after another, in the domain's order, but a
choice is only written down (a hidden commitment): nothing of it happens and
nobody else is shown it, so a later chooser sees the same game whatever the
earlier ones chose. When all have chosen, the moves are carried out one after
another in an order drawn from the game's generator (when two players claim
the same thing, the seed decides who was first), with `p` the player whose
move it is.

A move that takes a set of cards (``move m(cs subset of ZONE) where COND``,
see :mod:`ruledsl.togethersets`) is built while its player chooses: the
building decisions are hidden commitments too, and the set is written down
with the choice; its body runs with the others'.

Steps: ``begin``, then per chooser ``bind`` / CHOOSE / (the building of a
set) / ``record``; then per commitment ``load`` and a jump to the body of the
move chosen. The commitments are two locals: ``[player, option, card offset,
other args...]`` per chooser (a set: ``[player, option, card offset, set
size]``), and one flat list of the card arguments (a card list, so that
verify's swaps of hidden cards follow them). Two more locals say which moves
of the game were made while choosing: where the choosing began in the list
of moves, and how many moves each chooser took (:class:`Together`).
"""

from __future__ import annotations

from ..checker import types as T
from ..language.togethersets import SetOption
from .rng import shuffle
from .steps import CHOOSE, JUMP, JUMP_IF_NOT, SET


class Together:
    """The bookkeeping of one `choose NAME by each p in ...`, shared by its decision and by the decisions
    that build a set inside it. ``together(L)`` gives the choosers and how many have chosen."""

    def __init__(self, lst, idx, commits, cards, who, start, counts):
        self.lst, self.idx, self.commits, self.cards = lst, idx, commits, cards
        self.who, self.start, self.counts = who, start, counts
        self.pc = self.cid = None  # the step and number of the decision, once compiled
        self.clear: list = []  # the locals a choice leaves behind (move arguments, a set being built)

    def __call__(self, L):
        return L[self.lst], L[self.idx]

    def made(self, state) -> list:
        """The moves made while choosing, per chooser in order (the last may be unfinished); [] when the
        choosing has not begun or is over."""
        L = state.locals
        if L[self.start] is None or state.choice < 0 or state.program.choices[state.choice].together is not self:
            return []
        moves = state.moves[L[self.start]:]
        out, at = [], 0
        for n in L[self.counts]:
            out.append(moves[at:at + n])
            at += n
        if at < len(moves):
            out.append(moves[at:])
        return out

    def rewind(self, state) -> None:
        """Forget the choices made (for worlds a player cannot tell apart): back to the first chooser."""
        L = state.locals
        del state.moves[L[self.start]:]
        L[self.idx] = 0
        L[self.commits] = []
        L[self.cards] = []
        L[self.counts] = []
        L[self.who] = L[self.lst][0]
        for slot in self.clear:
            L[slot] = None
        state.pc, state.choice = self.pc, self.cid
        state._set_by_hand()


def compile_together(comp, s, options) -> None:
    from .program import Choice, _local

    span = s.span
    b = comp._binding(s, s.each)
    who = comp.slot(b)
    comp.env[b] = (_local(who), T.PLAYER)
    dfn, dt = comp.expr(s.domain)
    dom = comp.domain(dfn, dt, s.domain.span)
    lst, idx, commits, cards, order, at, start, counts = (comp.new_slot() for _ in range(8))
    comp.card_list_slots.add(cards)
    together = Together(lst, idx, commits, cards, who, start, counts)

    def begin(st, L):
        L[lst] = list(dom(st, L))
        L[idx] = 0
        L[commits] = []
        L[cards] = []
        L[start] = len(st.moves)
        L[counts] = []

    comp.emit(SET, begin, span=span)
    top = comp.emit(JUMP_IF_NOT, lambda st, L: L[idx] < len(L[lst]), None, span=span)

    def bind(st, L):
        L[who] = L[lst][L[idx]]

    comp.emit(SET, bind, span=span)
    choice = Choice(s.name, _local(who), [], span, secret=True, together=together, rewind=together.rewind)
    together.cid = len(comp.choices)
    comp.choices.append(choice)
    together.pc = comp.emit(CHOOSE, together.cid, span=span)
    ends = []
    set_slots = {}  # option number -> the local of its set, for moves that take a set
    for k, o in enumerate(options):
        option = comp.option(o)  # its "body" is the step that writes the choice down
        choice.options.append(option)
        together.clear.extend(slot for slot, _ in option.params)
        if isinstance(o, SetOption):  # the set is built now, in hidden commitments of the same chooser
            first = len(comp.choices)
            comp.block(o.body[:o.built])
            for inner in comp.choices[first:]:
                inner.secret, inner.together, inner.rewind = True, together, together.rewind
                together.clear.extend(slot for option_ in inner.options for slot, _ in option_.params)
            cs = comp.slot(comp._binding(o.body[0], o.set_name))
            together.clear.append(cs)
            set_slots[k] = cs
        comp.emit(SET, _recorder(k, option, together, set_slots.get(k)), span=o.span)
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
    loads = [_loader(option, set_slots.get(k)) for k, option in enumerate(choice.options)]

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
        comp.block(o.body[o.built:] if isinstance(o, SetOption) else o.body)
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
        L[commits] = L[cards] = L[order] = L[lst] = L[start] = L[counts] = None

    comp.emit(SET, tidy, span=span)


def _recorder(k: int, option, t: Together, set_slot):
    """The step that writes down a chooser's move ``k``: card arguments (or the set) apart, in the card list."""
    who, commits, cards, start, counts = t.who, t.commits, t.cards, t.start, t.counts
    slots = [slot for slot, _ in option.params]
    is_card = [kind == T.CARD for kind in option.kinds]

    def record(st, L):
        rec, new_cards = [L[who], k, len(L[cards])], []
        if set_slot is not None:
            new_cards = list(L[set_slot])
            rec.append(len(new_cards))
        for slot, card in zip(slots, is_card):
            (new_cards if card else rec).append(L[slot])
        # new lists, never changed in place: a clone of the state shares its locals' lists
        L[cards] = L[cards] + new_cards
        L[commits] = L[commits] + [rec]
        L[counts] = L[counts] + [len(st.moves) - L[start] - sum(L[counts])]

    return record


def _loader(option, set_slot):
    """Puts a written-down move's arguments (or its set) back into its parameters."""
    slots = [slot for slot, _ in option.params]
    is_card = [kind == T.CARD for kind in option.kinds]

    def load(L, rec, cards):
        c, rest = rec[2], 3
        if set_slot is not None:
            L[set_slot] = cards[c:c + rec[3]]
            return
        for slot, card in zip(slots, is_card):
            if card:
                L[slot] = cards[c]
                c += 1
            else:
                L[slot] = rec[rest]
                rest += 1

    return load

"""Moves as steps: the compact action space the adapters use by default.

:class:`ActionCodec` gives every move one number, so a move of two arguments
(a card and a column) takes as many numbers as there are pairs. Here such a
move is chosen in steps, one argument each: the first action names the move
with its first argument (``lay(5♥, …)``), each further action one more
argument (``… 3``). A move of no argument or one is one action, numbered as
:class:`ActionCodec` numbers it when no move takes two. The steps of one move
are all taken by the player deciding; nothing happens in the game until the
last one, when the whole move is made.

Sets of cards (``move m(cs subset of ZONE)``) need nothing here: the engine
already builds them card by card (``add(c)`` / ``done``, each an ordinary
move of one argument or none).

Numbering: the *head* blocks first, one per move shape in the order of
:class:`ActionCodec` (a move with arguments: one action per value of its
first argument; without: one action); then one *argument* block per kind
that some move takes after its first argument (``then a card``, ``then a
number`` ...), one action per value. ``pending`` (what the deciding player
has chosen so far) is ``()`` or ``(block, args)``.
"""

from __future__ import annotations

import bisect

import numpy as np

from ..checker import types as T
from ..engine.moves import Move
from ..language.errors import ParameterError
from .encode import KEPT_MOVES, ActionCodec, ActionSpaceError

NONE = ()
_NO_LIST = object()  # no list of legal moves, not even a state's None
# what an adapter keeps of StepCodec.legal, (legal list, pending, action ids, leads), before it has asked
NO_ANSWER = (_NO_LIST, NONE, (), {})
# what the PettingZoo env keeps of StepCodec.leads, (legal list, pending, leads), before it has asked
NO_LEADS = (_NO_LIST, NONE, {})


class StepCodec:
    """Move <-> a short sequence of action ids, fixed for a game and a player count."""

    def __init__(self, program, players: int, int_values: range | None = None, steps: bool = True):
        self.flat = ActionCodec(program, players, int_values)
        self.program = program
        self.players = players
        self.steps = bool(steps)
        # (the list of legal moves met last, pending, the answer for them), which the env reads in place
        self._last = (_NO_LIST, NONE, ((), {}))
        if not self.steps:  # the flat numbering: one action per move
            self.heads, self.then, self.then_kinds, self.longest = [], {}, [], 1
            self.num_actions, self.pending_widths, self.pending_size = self.flat.num_actions, [], 0
            return
        self.heads = []  # per flat block: (first id, size)
        first = 0
        for name, kinds, radices, _ in self.flat.blocks:
            size = radices[0] if radices else 1
            self.heads.append((first, size))
            first += size
        self.then = {}  # kind -> first id of its argument block
        self.then_kinds = []  # [(kind, first, radix)]
        for name, kinds, radices, _ in self.flat.blocks:
            for kind, radix in zip(kinds[1:], radices[1:]):
                if kind not in self.then:
                    self.then[kind] = first
                    self.then_kinds.append((kind, first, radix))
                    first += radix
        self.num_actions = first
        self.longest = max((len(k) for _, k, _, _ in self.flat.blocks), default=0)
        self._flat_firsts = [b[3] for b in self.flat.blocks]
        self._head_firsts = [h[0] for h in self.heads]
        # the part of an observation that says what the deciding player has chosen so far: the move
        # (one value per block), then each chosen argument (one value per value it may take)
        self.pending_widths = [max((r[j] for _, k, r, _ in self.flat.blocks if len(k) > j + 1), default=0)
                               for j in range(max(0, self.longest - 1))]
        self.pending_size = (len(self.heads) + sum(self.pending_widths)) if self.longest > 1 else 0
        # per decision (by its number): {id(move): (its first action, what that action leads to)}
        self._heads: list = [{} for _ in program.choices]
        self._kept: list = []  # the moves in _heads, kept alive so that their ids stay their own

    # ---- what may be chosen now

    def legal(self, state, pending=NONE) -> tuple:
        """``(sorted action ids, {action id: the move it completes, or the new pending})`` for the
        player deciding in ``state`` who has chosen ``pending`` so far.

        Worked out once per list of legal moves and pending (the engine makes a new list when a move
        is made, and a clone shares its original's, so the list's identity is the key); a move's
        first action is kept per decision (the moves a program lists are made once and shared)."""
        legal = state._legal
        if legal is None:
            state.legal_moves()
            legal = state._legal
        last = self._last
        if last[0] is legal and (last[1] is pending or last[1] == pending):
            return last[2]
        if not self.steps:
            got = self.flat.legal(state)
        else:
            got = self._further(state, pending) if pending else self.first(state, legal)
        self._last = (legal, pending, got)
        return got

    def first(self, state, legal) -> tuple:
        """The first actions of the legal moves ``legal`` of ``state``: one pass, one lookup a move
        (the adapters call this directly when nothing is pending, keeping the answer themselves).
        (Keeping the answer for a list met again, as over half the lists are, cost as much as it
        saved: the lists are short, 2-3 moves on average in the games measured, benchmarks/adapters.py.)"""
        if not self.steps:
            return self.flat.legal(state)
        if self.flat._alike is not None:  # cards that look alike: numbered by the whole list
            out = self._leads_alike(state, legal)
            return tuple(sorted(out)), out
        memo = self._heads[state.choice]
        out = {}
        try:  # every move met before (a program lists the same move objects again): no call but id()
            for m in legal:
                head = memo[id(m)]
                out[head[0]] = head[1]
        except KeyError:
            return self._first(state, legal)
        return tuple(sorted(out)), out

    def leads(self, state, legal) -> dict:
        """``{first action: the move it makes, or the pending it leaves}`` of the legal moves ``legal``
        of ``state``: ``first`` without the sorted ids, for a caller that needs no order (an action
        mask; sorting is a third of ``first`` for 2-4 moves). Its loop is ``first``'s, written again
        rather than called: a call costs OpenSpiel's ``legal_actions`` more than the lines do."""
        if not self.steps:
            return self.flat.legal(state)[1]
        if self.flat._alike is not None:
            return self._leads_alike(state, legal)
        memo = self._heads[state.choice]
        out = {}
        try:
            for m in legal:
                head = memo[id(m)]
                out[head[0]] = head[1]
        except KeyError:
            return self._first(state, legal)[1]
        return out

    def _first(self, state, legal) -> tuple:
        """``first`` for a list with a move not met before: its head worked out and kept."""
        memo = self._memo(state.choice)
        get = memo.get
        out = {}
        for m in legal:
            head = get(id(m))
            if head is None:
                head = memo[id(m)] = self._head(state, m)
                self._kept.append(m)
            out[head[0]] = head[1]
        return tuple(sorted(out)), out

    def _memo(self, choice: int) -> dict:
        """{id(move): its head} for decision ``choice``."""
        if len(self._kept) > KEPT_MOVES:  # moves made afresh each time (not shared): start again
            for memo in self._heads:
                memo.clear()
            self._kept.clear()
        return self._heads[choice]

    def _leads_alike(self, state, legal) -> dict:
        """``leads`` where cards look alike: a move's head with every card as the first of its
        look-alikes is kept per decision, with its first card where that card has look-alikes. The
        first card a list names under a head keeps it; another copy of that card takes the next
        copy's head (the numbering of :meth:`ActionCodec.renaming`, worked out as the list goes)."""
        memo = self._memo(state.choice)
        out = {}
        cards = {}  # head -> the first card the list named under it
        more = None  # for further copies: head -> copies given, (head, card) -> its head
        for m in legal:
            head = memo.get(id(m))
            if head is None:
                action, lead = self._head(state, m, {})
                card = m.args[0] if 0 in self.flat._places(state, m) and len(self.flat._alike[m.args[0]]) > 1 \
                    else None
                head = memo[id(m)] = (action, lead, card)
                self._kept.append(m)
            action, lead, card = head
            if card is not None and cards.setdefault(action, card) != card:  # another copy of the card
                if more is None:
                    more = {}
                got = more.get((action, card))
                if got is None:
                    k = more[action] = more.get(action, 0) + 1
                    copies = self.flat._alike[card]
                    got = more[(action, card)] = action + copies[k] - copies[0]
                action = got
            out[action] = lead
        return out

    def _head(self, state, m, rename: dict | None = None) -> tuple:
        """(the first action of ``m``, ``m`` itself if that is its only one, else the pending it leaves)."""
        a = self.flat.encode(state, m, rename)
        block = bisect.bisect_right(self._flat_firsts, a) - 1
        head_first = self.heads[block][0]
        if not m.args:
            return head_first, m
        kinds = self.flat.blocks[block][1]
        action = head_first + self._digit(kinds[0], m, 0, rename)
        return action, (m if len(m.args) == 1 else (block, (m.args[0],)))

    def _further(self, state, pending) -> tuple:
        """The next actions after ``pending`` (a move begun): the next argument of the legal moves
        that begin so."""
        moves = self.flat.legal(state)[1]
        rename = self.flat.rename_of(state)
        block, chosen = pending
        kinds = self.flat.blocks[block][1]
        k = len(chosen)
        out = {}
        for a, m in moves.items():
            if bisect.bisect_right(self._flat_firsts, a) - 1 != block or m.args[:k] != chosen:
                continue
            action = self.then[kinds[k]] + self._digit(kinds[k], m, k, rename)
            out[action] = m if len(m.args) == k + 1 else (block, m.args[:k + 1])
        if not out:
            raise ActionSpaceError(f"nothing is pending as {pending!r} in decision `{state.decision}`")
        return tuple(sorted(out)), out

    def decode(self, action: int, pending=NONE):
        """The move an action completes after ``pending``, or the new pending it leaves (whether or
        not it is legal now)."""
        if not self.steps:
            return self.flat.decode(action)
        action = self._check(action)
        if not pending:
            if action >= self.num_heads:
                raise ParameterError(f"action {action} is a further argument of a move, and no move is begun")
            block = bisect.bisect_right(self._head_firsts, action) - 1
            name, kinds, _, _ = self.flat.blocks[block]
            if not kinds:
                return Move(name)
            value = self.flat._value(kinds[0], action - self.heads[block][0])
            return Move(name, (value,)) if len(kinds) == 1 else (block, (value,))
        block, chosen = pending
        name, kinds, _, _ = self.flat.blocks[block]
        kind = kinds[len(chosen)]
        first, radix = self.then[kind], next(r for k, f, r in self.then_kinds if k == kind)
        if not first <= action < first + radix:
            raise ParameterError(f"action {action} is not a value of the next argument of {name}")
        args = chosen + (self.flat._value(kind, action - first),)
        return Move(name, args) if len(args) == len(kinds) else (block, args)

    def legal_actions(self, state, pending=NONE) -> list[int]:
        return list(self.legal(state, pending)[0])

    def mask(self, state, pending=NONE) -> np.ndarray:
        out = np.zeros(self.num_actions, np.int8)
        actions = self.legal(state, pending)[0]
        if actions:
            out[list(actions)] = 1
        return out

    def actions_of(self, state, move: Move) -> list[int]:
        """The actions that make ``move`` (a move of the decision pending in ``state``), in order."""
        flat = self.flat.encode(state, move)
        if not self.steps:
            return [flat]
        block = bisect.bisect_right(self._flat_firsts, flat) - 1
        kinds = self.flat.blocks[block][1]
        if not move.args:
            return [self.heads[block][0]]
        rename = self.flat.rename_of(state)
        out = [self.heads[block][0] + self._digit(kinds[0], move, 0, rename)]
        for k, kind in enumerate(kinds[1:], 1):
            out.append(self.then[kind] + self._digit(kind, move, k, rename))
        return out

    def _digit(self, kind: str, move: Move, i: int, rename: dict | None) -> int:
        """The number of argument ``i`` of ``move`` in its block (a card by ``rename`` where cards look
        alike)."""
        if rename is not None and kind == T.CARD:
            return self.flat.card_as(rename, move, i)
        return self.flat._digit(kind, move.args[i], move)

    # ---- words

    def _check(self, action) -> int:
        if not isinstance(action, (int, np.integer)) or isinstance(action, bool) \
                or not 0 <= action < self.num_actions:
            raise ParameterError(f"there is no action {action!r}; actions are 0 to {self.num_actions - 1}")
        return int(action)

    def _word(self, kind: str, digit: int) -> str:
        value = self.flat._value(kind, digit)
        if kind == T.CARD:
            return self.program.card_labels[value]
        if kind.startswith("enum:"):
            return (self.program.enum_labels or self.program.enums)[kind[5:]][value]
        if kind == T.PLAYER:
            return f"player {value}"
        if kind == T.BOOL:
            return "true" if value else "false"
        return str(value)

    def describe(self, action: int, pending=NONE) -> str:
        """An action in words: ``play(K♥)``, ``lay(5♥, …)`` (a move's first step) or, after that,
        ``lay(5♥, 3)``; an argument step without ``pending`` is ``then 3``."""
        if not self.steps:
            return self.flat.describe(action)
        action = self._check(action)
        if action < self.num_heads:
            block = bisect.bisect_right(self._head_firsts, action) - 1
            name, kinds, _, _ = self.flat.blocks[block]
            if not kinds:
                return name
            first = self._word(kinds[0], action - self.heads[block][0])
            return f"{name}({first}{', …' if len(kinds) > 1 else ''})"
        kind, first, _ = next(t for t in reversed(self.then_kinds) if t[1] <= action)
        word = self._word(kind, action - first)
        if not pending:
            return f"then {word}"
        block, chosen = pending
        name, kinds, _, _ = self.flat.blocks[block]
        words = [self._word(k, self.flat._digit(k, v, Move(name, chosen))) for k, v in zip(kinds, chosen)]
        more = ", …" if len(chosen) + 1 < len(kinds) else ""
        return f"{name}({', '.join(words + [word])}{more})"

    def pending_text(self, pending) -> str:
        """What has been chosen so far, in words (``lay(5♥, …)``), or '' when nothing is pending."""
        if not pending:
            return ""
        block, chosen = pending
        name, kinds, _, _ = self.flat.blocks[block]
        words = [self._word(k, self.flat._digit(k, v, Move(name, chosen))) for k, v in zip(kinds, chosen)]
        return f"{name}({', '.join(words)}, …)"

    @property
    def num_heads(self) -> int:
        return self.heads[-1][0] + self.heads[-1][1] if self.heads else 0

    def pending_vector(self, pending) -> np.ndarray:
        """``pending`` as 0/1 values: the move's block, then each argument chosen (one value per value)."""
        out = np.zeros(self.pending_size, np.float32)
        if not pending:
            return out
        block, chosen = pending
        name, kinds, _, _ = self.flat.blocks[block]
        out[block] = 1.0
        at = len(self.heads)
        for j, (kind, value) in enumerate(zip(kinds, chosen)):
            digit = self.flat._digit(kind, value, Move(name, chosen))
            out[at + (self.flat.look(digit) if kind == T.CARD else digit)] = 1.0  # a card as it looks
            at += self.pending_widths[j]
        return out

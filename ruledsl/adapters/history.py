"""What a player has seen of the moves so far, as a fixed-length vector: the history part of
OpenSpiel's information-state tensor (the other part is the player's observation).

Every move is seen as ``ruledsl.engine.observe.move_seen`` shows it: its seat and name, and a card
argument only if the viewer sees that card just before or just after the move; in a choice made
together in secret (``choose NAME by each p``) the others see only that the seat chose. Layout,
for a game of ``n`` seats, ``C`` cards and ``M`` move names (every name a decision offers, in the
order the rules declare them, ``add`` and ``done`` of a set of cards included):

1. ``n x C`` cards played: 1 where the viewer saw seat ``q`` make a move with card ``c``;
2. ``n x M`` moves made: how many moves of each name seat ``q`` made (as far as the viewer saw
   the name), as ``log(1 + count) / log(1 + limit)``, the rules' move limit bounding any count;
3. the last ``n`` moves seen, most recent first, each ``n + M + C`` values: its seat, its name
   (both one-hot) and the cards seen in it; all zero before that many moves were made.

Every value is in [0, 1].
"""

from __future__ import annotations

import math

import numpy as np

from ..checker import types as T


class HistoryCodec:
    """The moves a player has seen, kept step by step and given as a vector."""

    def __init__(self, program, players: int):
        self.program = program
        self.players = players
        self.cards = program.card_count
        names: list = []
        for choice in program.choices:
            for option in choice.options:
                if option.name not in names:
                    names.append(option.name)
        self.names = {name: i for i, name in enumerate(names)}
        self.recent = players
        n, C, M = players, self.cards, len(names)
        self.played_offset, self.made_offset, self.last_offset = 0, n * C, n * C + n * M
        self.slot = n + M + C
        self.size = n * C + n * M + self.recent * self.slot
        self._scale = 1.0 / math.log1p(max(1, program.limit))

    def start(self) -> list:
        """Each player's record before any move: (cards played, counts of moves, the last moves)."""
        return [(np.zeros(self.players * self.cards, np.float32),
                 np.zeros(self.players * len(self.names), np.int64), ()) for _ in range(self.players)]

    @staticmethod
    def copy(records: list) -> list:
        return [(played.copy(), made.copy(), last) for played, made, last in records]

    def seen_before(self, before, move) -> tuple:
        """What each player sees of ``move`` before it is made: (seat, name or None, card arguments
        each viewer sees before the move, the card arguments); finished by :meth:`note`."""
        program = before.program
        choice = program.choices[before.choice]
        kinds = next((o.kinds for o in choice.options if o.name == move.name and len(o.params) == len(move.args)), ())
        cards = [a for k, a in zip(kinds, move.args) if k == T.CARD and isinstance(a, int) and 0 <= a < self.cards]
        seen = [{c for c in cards if before.card_visible(p, c)} for p in range(self.players)]
        return before.actor, choice.secret, seen, cards

    def note(self, records: list, seen_before: tuple, after, move) -> None:
        """Adds a move to every player's record (changed in place: pass copies)."""
        seat, secret, seen, cards = seen_before
        name = self.names.get(move.name)
        C, M = self.cards, len(self.names)
        for p in range(self.players):
            played, made, last = records[p]
            if secret and p != seat:
                shown, named = (), None  # a hidden commitment: only that the seat chose
            else:
                shown = tuple(c for c in cards if c in seen[p] or after.card_visible(p, c))
                named = name
            for c in shown:
                played[seat * C + c] = 1.0
            if named is not None:
                made[seat * M + named] += 1
            records[p] = (played, made, ((seat, named, shown),) + last[:self.recent - 1])

    def encode(self, record) -> np.ndarray:
        played, made, last = record
        out = np.zeros(self.size, np.float32)
        out[:self.made_offset] = played
        out[self.made_offset:self.last_offset] = np.minimum(1.0, np.log1p(made) * self._scale)
        n, M = self.players, len(self.names)
        for k, (seat, named, shown) in enumerate(last):
            at = self.last_offset + k * self.slot
            out[at + seat] = 1.0
            if named is not None:
                out[at + n + named] = 1.0
            for c in shown:
                out[at + n + M + c] = 1.0
        return out

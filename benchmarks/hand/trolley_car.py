"""Trolley Car, one round, written by hand for speed: the yardstick of benchmarks/bench.py.

The same rules as games/trolley_car.rules with ``single_round = true`` (any 2-6 players,
params hand_size, loop_length, start_space), written the way a speed-minded programmer
would: cards are small ints (the rules file's card ids), the board is one flat list,
the lines are a few flat lists indexed by colour, whether a card fits a line is a table
lookup, and nothing is checked on the way (``apply`` trusts its move).

It shuffles and deals exactly as the engine does from the same seed (the SplitMix64
generator of ruledsl/rng.py, the same Fisher-Yates loop, the same order of dealing and
turning up), and lists the legal moves in the engine's order, so a playout that picks
``legal[rng.randrange(len(legal))]`` plays the same game on both; tests/test_hand_reference.py
checks that, move by move.

A move is an int: a card id (``declare`` or ``play``, depending on the decision), or one
of PASS, DRAW, PLAY_DRAWN, KEEP.
"""

from __future__ import annotations

PASS, DRAW, PLAY_DRAWN, KEEP = -1, -2, -3, -4
DECLARE, TURN, DRAWN, OVER = 0, 1, 2, 3
DECISIONS = ("declare", "turn", "drawn_card", None)
RED, BLACK = 0, 1

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15

# Card ids as the rules file makes them: two 52-card decks, suit by suit (♣ ♦ ♥ ♠), A..K.
CARDS = 104
SUITS = "♣♦♥♠"
RANK = [c % 13 + 1 for c in range(CARDS)]
COLOUR = [RED if (c % 52) // 13 in (1, 2) else BLACK for c in range(CARDS)]
LABEL = [{1: "A", 11: "J", 12: "Q", 13: "K"}.get(RANK[c], str(RANK[c])) + SUITS[(c % 52) // 13]
         for c in range(CARDS)]
CROSSINGS = ((2, 11), (4, 1), (10, 3), (12, 9))      # red space = black space


def _follows(a: int, b: int) -> bool:
    return abs(a - b) <= 1 or (a == 1 and b == 13) or (a == 13 and b == 1)


# FITS[red_rank * 14 + black_rank][card]: does the card fit its line? (rank 0: no card yet)
FITS = [[_follows(RANK[c], (r, b)[COLOUR[c]]) for c in range(CARDS)]
        for r in range(14) for b in range(14)]


class TrolleyRound:
    __slots__ = ("n", "rng", "L", "hands", "declared", "deck", "drawn", "board", "where",
                 "pos", "start", "last", "rank", "laid", "aside", "decision", "current",
                 "left", "passes", "totals", "legal")

    def __init__(self, players: int, seed: int = 0, hand_size: int = 15, loop_length: int = 16,
                 start_space: int = 0):
        n = self.n = players
        self.rng = (seed * GOLDEN + 0x632BE59BD9B4E019) & MASK
        L = self.L = loop_length
        # where[colour][space]: the board index of a line's space (a crossing is one place)
        red = list(range(L))
        black = list(range(L, 2 * L))
        for r, b in CROSSINGS:
            if r < L and b < L:
                black[b] = r
        self.where = (red, black)
        self.totals = [0] * n
        deck = list(range(CARDS))
        while True:
            self._shuffle(deck)
            hands = [[] for _ in range(n)]
            for p in list(range(1, n)) + [0]:           # from the dealer's next seat; the dealer is 0
                h = hands[p]
                for _ in range(hand_size):
                    if not deck:
                        break
                    h.append(deck.pop())
            turned = []
            first = deck.pop()
            colour = COLOUR[first]
            while deck and COLOUR[deck[-1]] == colour:
                turned.append(deck.pop())
            if deck:
                break
            # the deck ran out before the other colour showed: gather in the engine's zone order
            deck = [c for h in hands for c in h] + [first] + turned
        second = deck.pop()
        deck.extend(turned)
        self._shuffle(deck)
        self.deck = deck
        self.hands = hands
        self.declared = [[] for _ in range(n)]
        self.drawn = -1
        self.board = [-1] * (2 * L)
        self.pos = [start_space, start_space]
        self.start = [start_space, start_space]
        self.last = [start_space, start_space]
        self.rank = [0, 0]
        self.laid = [1, 1]
        self.aside = [[], []]
        for c in (first, second):
            k = COLOUR[c]
            self.board[self.where[k][start_space]] = c
            self.rank[k] = RANK[c]
        self._settle()
        self.passes = 0
        self.decision = DECLARE
        self.current = 1 % n
        self.left = n
        self.legal = hands[self.current] + [PASS]

    def _shuffle(self, items: list) -> None:
        """ruledsl/rng.py's Fisher-Yates with SplitMix64, inlined."""
        s = self.rng
        for i in range(len(items) - 1, 0, -1):
            s = (s + GOLDEN) & MASK
            x = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & MASK
            x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
            j = ((x ^ (x >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self.rng = s

    # ---- the surface a bot uses
    @property
    def is_over(self) -> bool:
        return self.decision == OVER

    @property
    def scores(self) -> list[int]:
        return list(self.totals)

    def legal_moves(self) -> list[int]:
        return list(self.legal)

    def clone(self) -> "TrolleyRound":
        o = TrolleyRound.__new__(TrolleyRound)
        o.n, o.rng, o.L, o.where = self.n, self.rng, self.L, self.where
        o.hands = [h.copy() for h in self.hands]
        o.declared = [d.copy() for d in self.declared]
        o.deck = self.deck.copy()
        o.drawn = self.drawn
        o.board = self.board.copy()
        o.pos, o.start, o.last = self.pos.copy(), self.start.copy(), self.last.copy()
        o.rank, o.laid = self.rank.copy(), self.laid.copy()
        o.aside = [self.aside[0].copy(), self.aside[1].copy()]
        o.decision, o.current, o.left, o.passes = self.decision, self.current, self.left, self.passes
        o.totals = self.totals.copy()
        o.legal = self.legal.copy()
        return o

    def apply(self, m: int) -> None:
        """Make a legal move (not checked)."""
        p = self.current
        if self.decision == TURN:
            if m >= 0:
                h = self.hands[p]
                if m in h:
                    h.remove(m)
                else:
                    self.declared[p].remove(m)
                self._lay(m)
                self.passes = 0
            elif m == DRAW:
                c = self.drawn = self.deck.pop()
                self.decision = DRAWN
                self.legal = [PLAY_DRAWN, KEEP] if FITS[self.rank[0] * 14 + self.rank[1]][c] else [KEEP]
                return
            else:
                self.passes += 1
        elif self.decision == DRAWN:
            if m == PLAY_DRAWN:
                self._lay(self.drawn)
            else:
                self.hands[p].append(self.drawn)
            self.drawn = -1
        else:  # DECLARE
            if m >= 0:
                self.hands[p].remove(m)
                self.declared[p].append(m)
            self.left -= 1
            if self.left:
                p = self.current = (p + 1) % self.n
                self.legal = self.hands[p] + [PASS]
                return
            if not all(self.hands):  # a hand declared empty: the round is over before any turn
                self._score()
                return
        self._turn((p + 1) % self.n)

    def _turn(self, p: int) -> None:
        """Before each turn: the end of the round, else the player's legal moves. Only the
        player who just moved can have emptied their hand."""
        hands = self.hands
        if self.passes >= self.n or not hands[self.current]:
            self._score()
            return
        self.current = p
        self.decision = TURN
        ok = FITS[self.rank[0] * 14 + self.rank[1]]
        plays = [c for c in hands[p] if ok[c]]
        d = self.declared[p]
        if d and ok[d[0]]:
            plays.append(d[0])
        if self.deck:
            plays.append(DRAW)
        elif not plays:
            plays.append(PASS)
        self.legal = plays

    def _score(self) -> None:
        red, black = self.laid
        faster = -1 if red == black else (RED if red > black else BLACK)
        for p in range(self.n):
            d = self.declared[p]
            cut = 3 if faster < 0 or (d and COLOUR[d[0]] == faster) else 0
            self.totals[p] += len(self.hands[p]) - cut
        self.decision = OVER
        self.current = -1
        self.legal = []

    # ---- the board
    def _lay(self, c: int) -> None:
        k = COLOUR[c]
        nxt = (self.pos[k] + 1) % self.L
        self.board[self.where[k][nxt]] = c
        self.pos[k] = self.last[k] = nxt
        self.rank[k] = RANK[c]
        self.laid[k] += 1
        self._settle()

    def _settle(self) -> None:
        """The lap and crossing rules, in the rules file's order, until neither applies."""
        L, pos, start, board, where = self.L, self.pos, self.start, self.board, self.where
        while True:
            for k in (RED, BLACK):                       # lap
                if (pos[k] + 1) % L == start[k]:
                    spaces = where[k]
                    keep = spaces[self.last[k]]
                    out = self.aside[k]
                    for i in range(L):
                        b = spaces[i]
                        c = board[b]
                        if c >= 0 and b != keep and COLOUR[c] == k:
                            out.append(c)
                            board[b] = -1
                    start[k] = self.last[k]
                    break
            else:
                for k in (RED, BLACK):                   # cross
                    nxt = (pos[k] + 1) % L
                    if nxt != start[k]:
                        c = board[where[k][nxt]]
                        if c >= 0:
                            pos[k] = nxt
                            self.rank[k] = RANK[c]
                            break
                else:
                    return

    # ---- words, for comparing with the engine
    def describe(self, m: int) -> str:
        if m >= 0:
            name = "declare" if self.decision == DECLARE else "play"
            text = LABEL[m]
            if self.decision == TURN:
                p = self.current
                here = "hand" if m in self.hands[p] else "declared"
                for o in self.legal:
                    if o >= 0 and o != m and LABEL[o] == text and (o in self.hands[p]) != (here == "hand"):
                        return f"{name}({text} from {here}[{p}])"
            return f"{name}({text})"
        return {PASS: "pass", DRAW: "draw", PLAY_DRAWN: "play_drawn", KEEP: "keep"}[m]

    def describe_moves(self) -> list[str]:
        return [self.describe(m) for m in self.legal]

    @property
    def decision_name(self) -> str | None:
        return DECISIONS[self.decision]

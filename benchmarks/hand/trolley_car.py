"""Trolley Car, one round, written by hand for speed: the yardstick of benchmarks/bench.py.

The same rules as games/trolley_car.rules with ``single_round = true`` (any 2-6 players,
params hand_size, loop_length, start_space), written the way a speed-minded programmer
would (issue #24, part 1). Nothing is checked on the way: ``apply`` trusts its move.

- **Card counts.** The rules never tell the two copies of a card apart, so a hand is one
  int holding a 2-bit count for each of the 52 kinds of card (rank and suit), laid out by
  colour and rank with the Ace's and the King's counts written twice (below the 2 and above
  the Queen), so that the cards that fit a line of rank r are the 12 bits of the three
  ranks r-1, r, r+1, one shift and one mask away. Adding or taking a card is ``+=``/``-=``
  of that kind's bits.
- **Legal moves by table.** For each colour and line rank, a table maps those 12 bits to the
  tuple of moves they give (a kind held twice is listed twice, as the rules file lists both
  copies), so a turn's legal moves are two lookups and one tuple concatenation, never a loop
  over the hand. The black table comes in a second version with ``draw`` already appended.
- **Moves are plain ints**, one range per kind of move (play from hand, play the
  declaration, declare, and the four constant moves), so ``apply`` jumps on the int alone,
  without looking at whose decision it is.
- **End and trigger checks only on what the move changed**: the empty-hand end only after a
  card left the mover's hand, the passes end only after a pass; the lap and crossing triggers
  only for the line that moved, and for the other line only when the card went onto a
  crossing. The general trigger loop (the rules file's order: lap red, lap black, cross red,
  cross black, until none fires) runs only when one of those checks says it may fire.
- **Cards laid are counted, not kept**: a lap only empties the board cells a line filled
  (kept in a short list per line); the cards set aside are a count (the score only needs
  how many cards each line laid).
- **A cheap deal and clone**: the SplitMix64 Fisher-Yates of ruledsl/rng.py inlined, dealing
  by slices; the deck after the deal is never changed but from its top, so it is shared
  between clones and read through an index.

How it is compared with the rules file (tests/test_hand_reference.py). It shuffles and deals
exactly as the engine does from the same seed (the same generator and Fisher-Yates loop, the
same order of dealing and turning up: a shuffle's swaps depend only on the generator, so
shuffling card kinds gives the kinds of the shuffled card ids). With card counts the moves
cannot be listed in the engine's order (the engine lists a hand in the order its cards came;
a count has no order), so the test is exact in another way: at every step both must offer the
same moves (the same multiset of described moves, ``play(7♠)`` twice when both copies are
held, ``play(7♠ from declared[0])`` when the same card is also in the hand), the same
decision, the same player to move and the same scores; the test then picks one of the rules
file's moves and makes the move that reads the same on the reference, to the end of the
round, where the winners must agree too. In the benchmark each side draws its moves from its
own list with the same random.Random, so with the same seed the two play different (equally
likely) games; over many seeds they play the same distribution of games (an offer is the same
multiset, and a uniform pick from a multiset does not depend on its order). bench.py prints
both sides' moves per playout.
"""

from __future__ import annotations

# ---- moves: one range of ints per kind of move
HAND, DECLARED, DECLARE = 0, 52, 104          # + kind: play from hand, play the declaration, declare
DPASS, DRAW, PLAY_DRAWN, KEEP, PASS = 156, 157, 158, 159, 160
# ---- decisions
DECLARE_D, TURN, DRAWN, OVER = 0, 1, 2, 3
DECISIONS = ("declare", "turn", "drawn_card", None)
RED, BLACK = 0, 1

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15

# A kind of card: colour * 26 + (rank - 1) * 2 + s, s the suit within its colour
# (red: ♦ ♥, black: ♣ ♠). The rules file's card ids: two 52-card decks, suit by suit (♣ ♦ ♥ ♠), A..K.
SUITS = "♣♦♥♠"
_SUIT_OF = ((1, 2), (0, 3))                     # colour, s -> suit
KINDS = 52
COLOUR = [m // 26 for m in range(KINDS)]
RANK = [(m % 26) // 2 + 1 for m in range(KINDS)]
LABEL = [{1: "A", 11: "J", 12: "Q", 13: "K"}.get(RANK[m], str(RANK[m])) + SUITS[_SUIT_OF[COLOUR[m]][m % 2]]
         for m in range(KINDS)]


def _kind_of_card(c: int) -> int:
    suit, rank = (c % 52) // 13, c % 13 + 1
    colour = RED if suit in (1, 2) else BLACK
    return colour * 26 + (rank - 1) * 2 + _SUIT_OF[colour].index(suit)


KIND_OF_CARD = [_kind_of_card(c) for c in range(104)]
CROSSINGS = ((2, 11), (4, 1), (10, 3), (12, 9))      # red space = black space


def _follows(a: int, b: int) -> bool:
    return abs(a - b) <= 1 or (a == 1 and b == 13) or (a == 13 and b == 1)


# FITS[red_rank * 14 + black_rank][kind]: does the card fit its line? (rank 0: no card yet)
FITS = [[_follows(RANK[m], (r, b)[COLOUR[m]]) for m in range(KINDS)] for r in range(14) for b in range(14)]


# ---- a hand as one int: 4 bits per (colour, position), 2 bits per suit; position p holds rank p
# (1..13), position 0 the King again and position 14 the Ace again; black starts at bit 64.
def _offsets(m: int) -> list[int]:
    r = RANK[m]
    positions = [r] + ([0] if r == 13 else []) + ([14] if r == 1 else [])
    return [COLOUR[m] * 64 + p * 4 + (m % 2) * 2 for p in positions]


BIT = [sum(1 << o for o in _offsets(m)) for m in range(KINDS)]   # one copy of the kind
_MAIN = [(1 << (COLOUR[m] * 64 + RANK[m] * 4 + (m % 2) * 2)) for m in range(KINDS)]
LOW = sum(_MAIN)                 # the count's low bit of each kind, once
HIGH = LOW << 1


def hand_size(h: int) -> int:
    return (h & LOW).bit_count() + 2 * (h & HIGH).bit_count()


def hand_kinds(h: int) -> list[int]:
    """The kinds in a hand, a kind held twice listed twice."""
    return [m for m in range(KINDS) for _ in range((h >> (_offsets(m)[0])) & 3)]


# SHIFT[colour][rank]: where the 12 bits of the ranks that fit a line of that rank start.
SHIFT = [[0] + [k * 64 + (r - 1) * 4 for r in range(1, 14)] for k in (RED, BLACK)]


def _window_moves(k: int, r: int, w: int) -> tuple | None:
    moves = []
    for j in range(3):
        p = r - 1 + j
        rank = 13 if p == 0 else 1 if p == 14 else p
        for s in range(2):
            count = (w >> (j * 4 + s * 2)) & 3
            if count == 3:
                return None
            moves += [HAND + k * 26 + (rank - 1) * 2 + s] * count
    return tuple(moves)


def _tables(k: int, extra: tuple) -> list:
    empty = [()] * 4096
    return [empty] + [[None if (t := _window_moves(k, r, w)) is None else t + extra for w in range(4096)]
                      for r in range(1, 14)]


# PLAYS[colour][rank][bits]: the plays from hand those bits allow; PLAYS_DRAW: black's with draw
PLAYS = (_tables(RED, ()), _tables(BLACK, ()))
PLAYS_DRAW = _tables(BLACK, (DRAW,))
PLAY_OR_KEEP, ONLY_KEEP, ONLY_PASS = (PLAY_DRAWN, KEEP), (KEEP,), (PASS,)
PLAYS_RED, PLAYS_BLACK, SHIFT_RED, SHIFT_BLACK = PLAYS[RED], PLAYS[BLACK], SHIFT[RED], SHIFT[BLACK]


C1, C2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_LANES: dict = {}


def _lanes(n: int) -> tuple:
    """The constants of a shuffle of n items: one 128-bit lane per draw of the generator."""
    got = _LANES.get(n)
    if got is None:
        k = n - 1
        ones = sum(1 << (128 * i) for i in range(k))
        # lane i is the draw for position n-1-i, which is multiplied by n-i: the bits of n-i, lane by lane
        bits = tuple(sum(MASK << (128 * i) for i in range(k) if ((n - i) >> b) & 1) for b in range(7))
        got = _LANES[n] = (ones, GOLDEN * sum((i + 1) << (128 * i) for i in range(k)), ones * MASK, bits, k,
                           range(n - 1, 0, -1))
    return got


def shuffle(s: int, items: list) -> int:
    """ruledsl/rng.py's Fisher-Yates with SplitMix64 from the generator state ``s``; returns the new state.

    Every draw of a shuffle is computed at once: the generator's states s+G, s+2G, ... are packed
    into one big int, 128 bits each, and SplitMix64's shifts, xors and multiplications by its
    constants are done on all of them together (a lane's product fits in its 128 bits, so lanes
    never carry into each other; a mask clears what a shift brought in from the next lane). The
    draw for position i is then multiplied by i + 1 (at most 104, so by its 7 bits, lane masks
    chosen by each bit) and shifted by 64, which leaves it in one byte of its lane: the bytes
    of the big int hold the swap positions. Only the swaps are a Python loop."""
    n = len(items)
    if n < 16:                                   # too short to pay for the packing
        for i in range(n - 1, 0, -1):
            s = (s + GOLDEN) & MASK
            x = ((s ^ (s >> 30)) * C1) & MASK
            x = ((x ^ (x >> 27)) * C2) & MASK
            j = ((x ^ (x >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        return s
    ones, steps, low, bits, k, down = _lanes(n)
    x = (s * ones + steps) & low
    x = ((x ^ (x >> 30)) & low) * C1 & low
    x = ((x ^ (x >> 27)) & low) * C2 & low
    x = (x ^ (x >> 31)) & low
    x = ((x & bits[0]) + ((x & bits[1]) << 1) + ((x & bits[2]) << 2) + ((x & bits[3]) << 3)
         + ((x & bits[4]) << 4) + ((x & bits[5]) << 5) + ((x & bits[6]) << 6))
    for i, j in zip(down, x.to_bytes(16 * k, "little")[8::16]):
        items[i], items[j] = items[j], items[i]
    return (s + k * GOLDEN) & MASK


DECLARES = tuple(DECLARE + m for m in range(KINDS))


class TrolleyRound:
    __slots__ = ("n", "rng", "L", "next", "where", "shared", "hands", "declared", "dealt", "deck", "top",
                 "drawn", "board", "cells", "pos", "start", "last", "rank", "laid", "decision", "current",
                 "left", "passes", "totals", "legal", "deals")

    def __init__(self, players: int, seed: int = 0, hand_size: int = 15, loop_length: int = 16,
                 start_space: int = 0):
        n = self.n = players
        self.rng = (seed * GOLDEN + 0x632BE59BD9B4E019) & MASK
        L = self.L = loop_length
        self.next = [(i + 1) % L for i in range(L)]
        # where[colour][space]: the board cell of a line's space (a crossing is one cell)
        red = list(range(L))
        black = list(range(L, 2 * L))
        for r, b in CROSSINGS:
            if r < L and b < L:
                black[b] = r
        self.where = (red, black)
        self.shared = [False] * (2 * L)
        for r, b in CROSSINGS:
            if r < L and b < L:
                self.shared[r] = True
        self.totals = [0] * n
        deck = KIND_OF_CARD.copy()
        self.deals = 0                                # how many times it dealt (the tests look)
        while True:
            self.deals += 1
            self._shuffle(deck)
            dealt = [None] * n
            for p in list(range(1, n)) + [0]:          # from the dealer's next seat; the dealer is 0
                take = min(hand_size, len(deck))
                cut = len(deck) - take
                dealt[p] = deck[cut:][::-1]                # the top card first
                del deck[cut:]
            first = deck.pop()
            colour = COLOUR[first]
            turned = []
            while deck and COLOUR[deck[-1]] == colour:
                turned.append(deck.pop())
            if deck:
                break
            # the deck ran out before the other colour showed: gather in the engine's zone order
            deck = [c for h in dealt for c in h] + [first] + turned
        second = deck.pop()
        deck += turned
        self._shuffle(deck)
        self.deck = deck
        self.top = len(deck)
        self.dealt = dealt
        hands = self.hands = [0] * n
        bit = BIT.__getitem__
        for p in range(n):
            hands[p] = sum(map(bit, dealt[p]))
        self.declared = [-1] * n
        self.drawn = -1
        self.board = [0] * (2 * L)                    # the rank of the card in a cell, 0 if none
        self.pos = [start_space, start_space]
        self.start = [start_space, start_space]
        self.last = [start_space, start_space]
        self.rank = [0, 0]
        self.laid = [1, 1]
        self.cells = [[], []]                         # the cells holding a line's own cards
        for m in (first, second):
            k = COLOUR[m]
            b = self.where[k][start_space]
            self.board[b] = self.rank[k] = RANK[m]
            self.cells[k].append(b)
        self._settle()
        self.passes = 0
        self.decision = DECLARE_D
        p = self.current = 1 % n
        self.left = n
        self.legal = (*map(DECLARES.__getitem__, dealt[p]), DPASS)

    def _shuffle(self, items: list) -> None:
        self.rng = shuffle(self.rng, items)

    # ---- the surface a bot uses
    @property
    def is_over(self) -> bool:
        return self.decision == OVER

    @property
    def scores(self) -> list[int]:
        return list(self.totals)

    @property
    def winners(self) -> list[int]:
        if self.decision != OVER:
            return []
        best = min(self.totals)
        return [p for p in range(self.n) if self.totals[p] == best]

    def hand_size(self, p: int) -> int:
        return hand_size(self.hands[p])

    def legal_moves(self) -> list[int]:
        return list(self.legal)

    def clone(self) -> "TrolleyRound":
        o = TrolleyRound.__new__(TrolleyRound)
        o.n, o.rng, o.L, o.next, o.where, o.shared = self.n, self.rng, self.L, self.next, self.where, self.shared
        o.hands, o.declared, o.dealt = self.hands.copy(), self.declared.copy(), self.dealt
        o.deck, o.top, o.drawn = self.deck, self.top, self.drawn      # the deck only shrinks: shared
        o.board, o.cells = self.board.copy(), [self.cells[0].copy(), self.cells[1].copy()]
        o.pos, o.start, o.last = self.pos.copy(), self.start.copy(), self.last.copy()
        o.rank, o.laid = self.rank.copy(), self.laid.copy()
        o.decision, o.current, o.left, o.passes = self.decision, self.current, self.left, self.passes
        o.totals, o.deals = self.totals.copy(), self.deals
        o.legal = self.legal                                           # a tuple: shared
        return o

    def apply(self, m: int) -> None:
        """Make a legal move (not checked): one branch per kind of move, on the int alone."""
        if m == DRAW:
            top = self.top = self.top - 1
            c = self.drawn = self.deck[top]
            rank = self.rank
            self.decision = DRAWN
            self.legal = PLAY_OR_KEEP if FITS[rank[0] * 14 + rank[1]][c] else ONLY_KEEP
            return
        p = self.current
        if m < DECLARED:                          # play a card from hand
            h = self.hands[p] = self.hands[p] - BIT[m]
            self._lay(m)
            self.passes = 0
            if not h:
                self._score()
                return
        elif m == KEEP:
            self.hands[p] += BIT[self.drawn]
        elif m == PLAY_DRAWN:
            self._lay(self.drawn)
        elif m < DECLARE:                         # play the declared card
            self.declared[p] = -1
            self._lay(m - DECLARED)
            self.passes = 0
        elif m == PASS:
            self.passes += 1
            if self.passes >= self.n:
                self._score()
                return
        else:                                     # declare a card, or not
            if m != DPASS:
                m -= DECLARE
                self.hands[p] -= BIT[m]
                self.declared[p] = m
            self.left -= 1
            if self.left:
                p = self.current = (p + 1) % self.n
                self.legal = (*map(DECLARES.__getitem__, self.dealt[p]), DPASS)
                return
            self.dealt = None
            self.decision = TURN
            if 0 in self.hands:                   # a hand declared empty: over before any turn
                self._score()
                return
        # the next player's turn: their legal moves from the tables
        p = self.current = (p + 1) % self.n
        self.decision = TURN
        h = self.hands[p]
        rr, rb = self.rank
        if self.top:
            legal = PLAYS_RED[rr][(h >> SHIFT_RED[rr]) & 4095] + PLAYS_DRAW[rb][(h >> SHIFT_BLACK[rb]) & 4095]
            d = self.declared[p]
            if d >= 0 and FITS[rr * 14 + rb][d]:
                legal += (DECLARED + d,)
        else:
            legal = PLAYS_RED[rr][(h >> SHIFT_RED[rr]) & 4095] + PLAYS_BLACK[rb][(h >> SHIFT_BLACK[rb]) & 4095]
            d = self.declared[p]
            if d >= 0 and FITS[rr * 14 + rb][d]:
                legal += (DECLARED + d,)
            elif not legal:
                legal = ONLY_PASS
        self.legal = legal

    def _score(self) -> None:
        red, black = self.laid
        faster = -1 if red == black else (RED if red > black else BLACK)
        for p in range(self.n):
            d = self.declared[p]
            cut = 3 if faster < 0 or (d >= 0 and COLOUR[d] == faster) else 0
            self.totals[p] += hand_size(self.hands[p]) - cut
        self.decision = OVER
        self.current = -1
        self.legal = ()

    # ---- the board
    def _lay(self, m: int) -> None:
        k = COLOUR[m]
        pos = self.pos
        nxt = self.next[pos[k]]
        spaces = self.where[k]
        b = spaces[nxt]
        board = self.board
        board[b] = self.rank[k] = RANK[m]
        pos[k] = self.last[k] = nxt
        self.laid[k] += 1
        self.cells[k].append(b)
        # Only this line's lap or crossing can fire, or the other line's crossing if the card
        # went onto the cell it looks at next.
        after = self.next[nxt]
        if after == self.start[k] or board[spaces[after]]:
            self._settle()
        elif self.shared[b]:
            o = 1 - k
            after = self.next[pos[o]]
            if self.where[o][after] == b and after != self.start[o]:
                self._settle()

    def _settle(self) -> None:
        """The lap and crossing rules, in the rules file's order, until neither applies."""
        nxt, pos, start, board, where = self.next, self.pos, self.start, self.board, self.where
        while True:
            for k in (RED, BLACK):                       # lap
                if nxt[pos[k]] == start[k]:
                    keep = where[k][self.last[k]]
                    for b in self.cells[k]:
                        if b != keep:
                            board[b] = 0
                    self.cells[k] = [keep]
                    start[k] = self.last[k]
                    break
            else:
                for k in (RED, BLACK):                   # cross
                    after = nxt[pos[k]]
                    if after != start[k]:
                        r = board[where[k][after]]
                        if r:
                            pos[k] = after
                            self.rank[k] = r
                            break
                else:
                    return

    # ---- words, for comparing with the engine
    def describe(self, m: int) -> str:
        if m < DECLARED or DECLARED <= m < DECLARE:
            kind = m if m < DECLARED else m - DECLARED
            other = m + DECLARED if m < DECLARED else m - DECLARED
            text = LABEL[kind]
            if other in self.legal:
                p = self.current
                return f"play({text} from {'hand' if m < DECLARED else 'declared'}[{p}])"
            return f"play({text})"
        if DECLARE <= m < DPASS:
            return f"declare({LABEL[m - DECLARE]})"
        return {DPASS: "pass", DRAW: "draw", PLAY_DRAWN: "play_drawn", KEEP: "keep", PASS: "pass"}[m]

    def describe_moves(self) -> list[str]:
        return [self.describe(m) for m in self.legal]

    @property
    def decision_name(self) -> str | None:
        return DECISIONS[self.decision]

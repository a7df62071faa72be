"""An independent, hand-written model of Trolley Car, used as an oracle.

Written from the source text (shared/seeds/000_38162791cb3f69f3.txt) and the readings
listed in docs/games/trolley_car_oracle.md -- not from games/trolley_car.rules. It knows
nothing of ruledsl: it works on card ids and a table of their labels ('K♥', '10♦', ...).

The model does not shuffle or deal. A round starts with `deal(...)`, given the hands,
the deck and the two start cards as they were dealt; from there it plays on its own:
`legal_moves()`, `apply(move)`, and the position (`line`, `aside`, `hand`, ...).

A move is a tuple: ('declare', card), ('pass',), ('play', card), ('draw',),
('play_drawn',), ('keep',).
"""

from __future__ import annotations

RED, BLACK = "red", "black"
COLOURS = (RED, BLACK)
LOOP = 16                                   # spaces in each loop, index 0..15
START_SPACE = 0                             # where the start cards go
CROSSINGS = {2: 11, 4: 1, 10: 3, 12: 9}     # red index -> black index of the same space
_RANK_WORDS = {"A": 1, "J": 11, "Q": 12, "K": 13}

# The two orders of checking the lap and crossing rules discussed in the readings:
#   "declared" - lap(red), lap(black), cross(red), cross(black), restart after any fires;
#   "per_line" - lap(red), cross(red), lap(black), cross(black), restart after any fires.
ORDERS = {
    "declared": (("lap", RED), ("lap", BLACK), ("cross", RED), ("cross", BLACK)),
    "per_line": (("lap", RED), ("cross", RED), ("lap", BLACK), ("cross", BLACK)),
}


def rank_of(label: str) -> int:
    text = label[:-1]
    return _RANK_WORDS[text] if text in _RANK_WORDS else int(text)


def colour_of(label: str) -> str:
    return RED if label[-1] in "♥♦" else BLACK


def follows(a: int, b: int) -> bool:
    """Same rank or one apart; the Ace (1) is one apart from both the 2 and the King (13)."""
    return abs(a - b) <= 1 or {a, b} == {1, 13}


def space(colour: str, index: int):
    """The physical space of a loop index. The four crossings are one space shared by both
    loops; it is named by its red index."""
    if colour == BLACK:
        for r, b in CROSSINGS.items():
            if b == index:
                return (RED, r)
    return (colour, index)


def is_crossing(colour: str, index: int) -> bool:
    return index in (CROSSINGS if colour == RED else CROSSINGS.values())


class Line:
    def __init__(self, colour: str):
        self.colour = colour
        self.pos = START_SPACE      # the space the line stands on
        self.start = START_SPACE    # its start space
        self.last = START_SPACE     # the space of the last card the line laid
        self.rank = 0               # the rank the next card must follow

    @property
    def next(self) -> int:
        return (self.pos + 1) % LOOP


class TrolleyCar:
    def __init__(self, players: int, labels, single_round: bool = True, order: str = "declared"):
        assert 2 <= players <= 6
        self.n = players
        self.labels = list(labels)
        self.single_round = single_round
        self.order = ORDERS[order]
        self.totals = [0] * players
        self.round_scores: list[list[int]] = []   # one list per finished round
        self.rounds_played = 0
        self.dealer = 0
        self.decision = "deal"      # 'deal' (waiting for the next round's cards), 'declare',
        self.current = None         # 'turn', 'drawn_card', or 'over'
        self.events: list[str] = []  # what the lap / crossing rules did, for messages

    # ---- cards
    def label(self, card: int) -> str:
        return self.labels[card]

    def rank(self, card: int) -> int:
        return rank_of(self.labels[card])

    def colour(self, card: int) -> str:
        return colour_of(self.labels[card])

    def fits(self, card: int) -> bool:
        return follows(self.rank(card), self.lines[self.colour(card)].rank)

    # ---- the round
    def deal(self, dealer: int, hands, deck, red_start: int, black_start: int) -> None:
        """Start a round from the dealt cards: hands[p] (any order), deck bottom..top,
        and the two start cards."""
        assert self.decision == "deal", self.decision
        assert self.colour(red_start) == RED and self.colour(black_start) == BLACK
        self.dealer = dealer
        self.hands = [list(h) for h in hands]
        self.deck = list(deck)
        self.declared = [[] for _ in range(self.n)]
        self.aside = {RED: [], BLACK: []}
        self.board: dict = {}                 # physical space -> card
        self.lines = {c: Line(c) for c in COLOURS}
        self.drawn = None
        self.passes = 0                     # players in a row who passed with the deck empty
        self.events = []
        for colour, card in ((RED, red_start), (BLACK, black_start)):
            self.board[space(colour, START_SPACE)] = card
            self.lines[colour].rank = self.rank(card)
        self._settle()
        self.decision = "declare"
        self.current = (dealer + 1) % self.n     # "to the dealer's right" = the next seat
        self._declarations_left = self.n

    def line(self, colour: str) -> list:
        """The 16 slots of a loop, index 0..15, card id or None (crossings show in both)."""
        return [self.board.get(space(colour, i)) for i in range(LOOP)]

    def can_play(self, p: int) -> bool:
        return any(self.fits(c) for c in self.hands[p] + self.declared[p])

    def round_over(self) -> bool:
        if any(not h for h in self.hands):
            return True
        # nobody can play: found out as at a table, by every player passing in turn
        return self.passes >= self.n

    def laid(self, colour: str) -> int:
        on_board = sum(1 for c in self.board.values() if self.colour(c) == colour)
        return on_board + len(self.aside[colour])

    def score_round(self) -> list[int]:
        red, black = self.laid(RED), self.laid(BLACK)
        scores = [len(h) for h in self.hands]
        if red == black:
            return [s - 3 for s in scores]
        faster = RED if red > black else BLACK
        return [s - 3 if any(self.colour(c) == faster for c in self.declared[p]) else s
                for p, s in enumerate(scores)]

    @property
    def is_over(self) -> bool:
        return self.decision == "over"

    @property
    def winners(self) -> list[int]:
        best = min(self.totals)
        return [p for p in range(self.n) if self.totals[p] == best]

    # ---- moves
    def legal_moves(self) -> list[tuple]:
        p = self.current
        if self.decision == "declare":
            return [("declare", c) for c in self.hands[p]] + [("pass",)]
        if self.decision == "turn":
            plays = [("play", c) for c in self.hands[p] + self.declared[p] if self.fits(c)]
            if self.deck:
                return plays + [("draw",)]
            return plays if plays else [("pass",)]
        if self.decision == "drawn_card":
            return ([("play_drawn",)] if self.fits(self.drawn) else []) + [("keep",)]
        return []

    def describe(self, move: tuple) -> str:
        if len(move) == 2:
            text = self.label(move[1])
            if move[0] == "play" and self.decision == "turn":
                # the same card in hand and declared: the move says where it comes from
                p = self.current
                here = "hand" if move[1] in self.hands[p] else "declared"
                twins = [c for c in self.hands[p] + self.declared[p]
                         if c != move[1] and self.label(c) == text and self.fits(c)
                         and ("hand" if c in self.hands[p] else "declared") != here]
                if twins:
                    text += f" from {here}[{p}]"
            return f"{move[0]}({text})"
        return move[0]

    def apply(self, move: tuple) -> None:
        assert move in self.legal_moves(), (move, self.legal_moves())
        p, name = self.current, move[0]
        self.events = []
        if self.decision == "declare":
            if name == "declare":
                self.hands[p].remove(move[1])
                self.declared[p].append(move[1])
            self._declarations_left -= 1
            self.current = (p + 1) % self.n
            if self._declarations_left == 0:
                self._begin_turn(self.current)
            return
        if name == "play":
            card = move[1]
            (self.hands[p] if card in self.hands[p] else self.declared[p]).remove(card)
            self._place(card)
        elif name == "draw":
            # the drawing player is always asked (play it only if it fits), so the
            # question tells the others nothing about the hidden card
            self.drawn = self.deck.pop()        # the top is the end of the list
            self.decision = "drawn_card"        # same player decides
            return
        elif name == "play_drawn":
            card, self.drawn = self.drawn, None
            self._place(card)
        elif name == "keep":
            self.hands[p].append(self.drawn)
            self.drawn = None
        self.passes = self.passes + 1 if name == "pass" else 0
        self._begin_turn((p + 1) % self.n)

    def _begin_turn(self, p: int) -> None:
        """The end of the round is checked before each turn."""
        self.current = p
        self.decision = "turn"
        if self.round_over():
            scores = self.score_round()
            self.round_scores.append(scores)
            self.totals = [t + s for t, s in zip(self.totals, scores)]
            self.rounds_played += 1
            self.current = None
            if self.single_round or self.rounds_played == self.n:
                self.decision = "over"
            else:
                self.decision = "deal"
                self.dealer = (self.dealer + 1) % self.n

    # ---- the board
    def _place(self, card: int) -> None:
        line = self.lines[self.colour(card)]
        where = space(line.colour, line.next)
        assert where not in self.board, f"{line.colour} next space {line.next} is not free"
        self.board[where] = card
        line.pos = line.last = line.next
        line.rank = self.rank(card)
        self._settle()

    def _settle(self) -> None:
        """Apply the lap and crossing rules until neither applies."""
        fired = True
        while fired:
            fired = False
            for rule, colour in self.order:
                if (self._lap if rule == "lap" else self._cross)(self.lines[colour]):
                    fired = True
                    break

    def _lap(self, line: Line) -> bool:
        if line.next != line.start:
            return False
        # "all of the line's cards except for the last one played": the last card the line laid,
        # which is not where the line stands when it has just passed over the other line's card.
        here = space(line.colour, line.last)
        for i in range(LOOP):
            where = space(line.colour, i)
            card = self.board.get(where)
            if card is not None and where != here and self.colour(card) == line.colour:
                self.aside[line.colour].append(self.board.pop(where))
        self.events.append(f"{line.colour} laps at {line.pos} (start was {line.start})")
        line.start = line.last
        return True

    def _cross(self, line: Line) -> bool:
        nxt = line.next
        if nxt == line.start or not is_crossing(line.colour, nxt):
            return False
        card = self.board.get(space(line.colour, nxt))
        if card is None:
            return False
        line.pos = nxt
        line.rank = self.rank(card)
        self.events.append(f"{line.colour} passes over {self.label(card)} at {nxt}")
        return True

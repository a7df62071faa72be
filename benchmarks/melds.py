"""Melds built card by card: the `while` worked out from meld tests, against one written by hand.

    python benchmarks/melds.py                 # 5 rounds of 40 games each way
    python benchmarks/melds.py --rounds 9 --games 80

tests/data/melds.rules (Melders, 2 players) with only its sets of one rank is played two ways:

- worked out: `move meld(cs subset of hand[current]) where same(each c in cs by c.rank) and size(cs) >= 3
  and size(cs) <= 4` (docs/language.md §4.12.7: the game works out which sets can still be a meld);
- by hand: the same move with the `while` of docs/language.md §4.12.4, written with nested quantifiers.

Both offer the same moves at every step (tests/test_melds.py checks it), so the same random games are
played; the row "sets and runs" is the whole of Melders (no hand-written `while` to compare it with).
Each round plays the games of every row in a rotated order (process CPU time, after one untimed
game); the ratio to "by hand" (moves per second) is taken round by round and shown as median
(min-max). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_melds import BY_HAND, MELDS, SETS_ONLY

import ruledsl


def play(game, games: int) -> int:
    moves = 0
    for seed in range(games):
        s = game.new_game(2, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            legal = s.legal_moves()
            s._apply(legal[rng.randrange(len(legal))])
        moves += len(s.moves)
    return moves


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=40)
    a = ap.parse_args()
    rows = {"by hand": ruledsl.loads(BY_HAND, "by_hand.rules"),
            "worked out": ruledsl.loads(SETS_ONLY, "sets.rules"),
            "sets and runs": ruledsl.load(MELDS)}
    for game in rows.values():
        play(game, 1)
    speed = {name: [] for name in rows}
    names = list(rows)
    for r in range(a.rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            t = time.process_time()
            moves = play(rows[name], a.games)
            speed[name].append(moves / (time.process_time() - t))
    print(f"Melders, 2 players, {a.games} games a round, {a.rounds} rounds")
    print(f"{'row':<14} {'moves/s':>9}  ÷ by hand")
    for name in names:
        ratios = [x / y for x, y in zip(speed[name], speed["by hand"])]
        print(f"{name:<14} {statistics.median(speed[name]):>9,.0f}  "
              f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})")


if __name__ == "__main__":
    main()

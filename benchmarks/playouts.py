"""Play random playouts of Trolley Car, one round, and nothing else: for a profiler or an instruction counter.

    python benchmarks/playouts.py rules 4 600          # the rules file, 4 players, 600 playouts
    python benchmarks/playouts.py hand 4 600           # the speed-minded reference (benchmarks/hand/)
    py-spy record -o profile.svg -- python benchmarks/playouts.py rules 4 3000
    python benchmarks/playouts.py rules 2 30 uno 400   # another game of games/ (its own parameters), 400 warm-up
    python benchmarks/playouts.py rules 4 20 - 2000    # Trolley Car, one round, after 2000 playouts of warm-up

For the rules side it prints the number of decisions made in the counted playouts (instructions ÷
decisions is the cost of a decision); the warm-up (200 playouts unless given) fills the tables of
card conditions, which fill as the games meet their keys.

Both sides are warmed up first (200 playouts with other seeds: the generated code built, the
tables of card conditions filled), then play seeds 0 .. COUNT-1 exactly as bench.py does;
the counted playouts run inside ``functools.reduce``, so that valgrind's callgrind can count the
instructions of those alone, a measure that does not move with the machine's load
(benchmarks/README.md):

    PYTHONHASHSEED=0 valgrind --tool=callgrind --toggle-collect=functools_reduce \\
        --callgrind-out-file=/dev/null python benchmarks/playouts.py rules 4 20
"""

from __future__ import annotations

import functools
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main(argv: list) -> int:
    side, players, count = argv[0], int(argv[1]), int(argv[2])
    name = argv[3] if len(argv) > 3 and argv[3] != "-" else None  # "-": Trolley Car, one round
    warm = int(argv[4]) if len(argv) > 4 else 200
    made = [0]
    if side == "hand":
        sys.path.insert(0, str(ROOT / "benchmarks"))
        from hand.trolley_car import TrolleyRound

        def playout(seed: int) -> None:
            state = TrolleyRound(players, seed)
            rng = random.Random(seed)
            while state.decision != 3:  # OVER
                legal = state.legal
                state.apply(legal[rng.randrange(len(legal))])
    else:
        import ruledsl

        if name is None:
            game = ruledsl.load(ROOT / "games" / "trolley_car.rules", params={"single_round": True})
        else:
            game = ruledsl.load(ROOT / "games" / f"{name}.rules")

        def playout(seed: int) -> None:
            state = game.new_game(players, seed)
            rng = random.Random(seed)
            while not state.is_over:
                legal = state.legal_moves()
                state._apply(legal[rng.randrange(len(legal))])
            made[0] += len(state.moves)

    for seed in range(warm):
        playout(10 ** 6 + seed)
    made[0] = 0
    # the counted playouts inside functools.reduce: a C function valgrind can count inside alone
    # (--toggle-collect=functools_reduce), the warm-up and the loading left out
    functools.reduce(lambda _, seed: playout(seed), range(count), None)
    if side != "hand":
        print(f"{name or 'trolley_car (one round)'}: {made[0]} decisions in {count} playouts")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

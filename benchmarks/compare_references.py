"""The rules file beside two versions of the hand reference, in turn: how much a faster yardstick moves the ratio.

    python benchmarks/compare_references.py OLD.py [--seconds 2] [--rounds 5]

OLD.py is an earlier benchmarks/hand/trolley_car.py (e.g. ``git show 74c9279:benchmarks/hand/trolley_car.py``);
the current one is the other. Random playouts of Trolley Car, one round, 2, 4 and 6 players, each
side warmed up and timed in rotated slices (bench.in_turn); prints, median (min–max) over the
rounds, the rules file ÷ each reference and the current reference ÷ the old one. Nothing is asserted.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def playout_of(TrolleyRound, players: int):
    def playout(seed: int):
        state = TrolleyRound(players, seed)
        rng = random.Random(seed)
        moves = 0
        while state.decision != 3:  # OVER, in both versions
            legal = state.legal
            state.apply(legal[rng.randrange(len(legal))])
            moves += 1
        return moves, False

    return playout


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    bench = _module(ROOT / "benchmarks" / "bench.py", "bench")
    import ruledsl

    game = ruledsl.load(ROOT / "games" / "trolley_car.rules", params={"single_round": True})
    old = _module(args.old, "old_reference").TrolleyRound
    new = bench.hand_trolley_module().TrolleyRound
    print("players | rules ÷ old reference | rules ÷ new reference | new ÷ old | moves/playout rules/old/new")
    for n in (2, 4, 6):
        m = [bench.Measure(x, n) for x in ("rules", "old", "new")]
        bench.in_turn(m, [bench.engine_playout(game, n), playout_of(old, n), playout_of(new, n)],
                      args.seconds, None, args.rounds)
        cols = [bench.spread(bench.ratios(a, b, which=1)) for a, b in ((m[0], m[1]), (m[0], m[2]), (m[2], m[1]))]
        per = " / ".join(f"{x.moves / x.playouts:.0f}" for x in m)
        print(f"{n} | {' | '.join(cols)} | {per}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The values the bots ask for (a rules file's `heuristic` and `score`), with a repeated part worked out
once (compiler._player_define, hoist.shared_parts) and as written, and what that does to the bots' decisions.

    python benchmarks/values.py                          # every game of games/ whose values change
    python benchmarks/values.py --game tramwaje --bots   # also greedy and ismcts decisions
    python benchmarks/values.py --rounds 9 --all         # every game, changed or not

Each rules file is loaded twice in this process: as the compiler builds it, and with the pass turned
off (``shared_parts`` handing the text back), so the values are written out as the rules write them. The positions
are those of seeded random games (every tenth one of up to 600 moves, seeds 0-5; with ``--bots``,
every 25th decision of greedy games, seeds 0-2). A round times each side in turn, rotated each round
(process CPU time); a row shows the median over the rounds of the time per value (per player, per
position) and the ratio of the two, median (min-max), taken round by round. Nothing is asserted:
tests/test_repeats.py checks that both sides give the same values.
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

import ruledsl
from ruledsl.compiler import compiler as compiler_module
from ruledsl.play.botbase import decide
from ruledsl.play.bots import make_bot


def both(path: Path) -> tuple:
    """(the game as compiled, the game with every value as written, whether any value changed)."""
    shared = compiler_module.shared_parts
    changed = []

    def spy(text, ns, prefix, pure):
        out = shared(text, ns, prefix, pure)
        changed.append(out != text)
        return out

    compiler_module.shared_parts = spy
    try:
        fast = ruledsl.load(path)
        compiler_module.shared_parts = lambda text, ns, prefix, pure: text
        plain = ruledsl.load(path)
    finally:
        compiler_module.shared_parts = shared
    return fast, plain, any(changed)


def players_of(game) -> int:
    p = game.program
    return max(p.min_players, 3 if p.max_players >= 3 else 2)


def random_positions(game) -> list:
    out = []
    n = players_of(game)
    for seed in range(6):
        s = game.new_game(n, seed)
        rng = random.Random(seed)
        for i in range(600):
            if s.is_over:
                break
            if i % 10 == 0:
                out.append(s.clone())
            legal = s.legal_moves()
            s._apply(legal[rng.randrange(len(legal))])
    return out


def greedy_positions(game) -> list:
    out = []
    n = players_of(game)
    for seed in range(3):
        s = game.new_game(n, seed)
        bots = [make_bot("greedy", seed=seed * 10 + p) for p in range(n)]
        for i in range(300):
            if s.is_over:
                break
            legal = s.legal_moves()
            if i % 25 == 0 and len(legal) > 2:
                out.append(s.clone())
            s._apply(decide(bots[s.actor], s, s.actor, legal))
    return out


def time_values(game, positions) -> float:
    program = game.program
    fns = [f for f in (program.heuristic, program.score) if f is not None]
    start = time.process_time()
    for s in positions:
        for p in range(s.n):
            for f in fns:
                f(s, p)
    return (time.process_time() - start) / max(1, len(positions) * len(fns) * positions[0].n)


def time_decisions(game, positions, spec: str) -> float:
    start = time.process_time()
    for k, s in enumerate(positions):
        decide(make_bot(spec, seed=k), s, s.actor, s.legal_moves())
    return (time.process_time() - start) / max(1, len(positions))


def measure(rows: list, rounds: int) -> list:
    """``rows``: (label, fn(side) -> seconds); the sides are "fast" and "plain", taken in turn."""
    out = []
    for label, fn in rows:
        fn("fast"), fn("plain")  # untimed: anything built lazily is built
        times = {"fast": [], "plain": []}
        for r in range(rounds):
            for side in (("fast", "plain") if r % 2 == 0 else ("plain", "fast")):
                times[side].append(fn(side))
        ratios = [f / p for f, p in zip(times["fast"], times["plain"])]
        out.append((label, statistics.median(times["plain"]), statistics.median(times["fast"]),
                    statistics.median(ratios), min(ratios), max(ratios)))
    return out


def _time(seconds: float) -> str:
    return f"{seconds * 1e3:,.1f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:,.1f} µs"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", help="only this game of games/ (its file name without .rules)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--bots", action="store_true", help="also time greedy and ismcts:iterations=60 decisions")
    ap.add_argument("--all", action="store_true", help="also the games whose values the pass leaves as written")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    paths = sorted(p for p in (ROOT / "games").glob("*.rules") if not p.name.endswith(".test.rules"))
    if args.game:
        paths = [p for p in paths if p.stem == args.game]
        if not paths:
            ap.error(f"no game {args.game!r} in games/")
    print("| Rules file | Measure | as written | repeats once | ÷ as written |")
    print("| --- | --- | ---: | ---: | ---: |")
    for path in paths:
        fast, plain, changed = both(path)
        if not changed and not args.all:
            continue
        games = {"fast": fast, "plain": plain}
        positions = {side: random_positions(g) for side, g in games.items()}
        rows = [("heuristic and score, a value", lambda side: time_values(games[side], positions[side]))]
        if args.bots:
            chosen = {side: greedy_positions(g) for side, g in games.items()}
            for spec in ("greedy", "ismcts:iterations=60"):
                rows.append((f"a `{spec}` decision",
                             lambda side, spec=spec: time_decisions(games[side], chosen[side], spec)))
        for label, plain_t, fast_t, ratio, low, high in measure(rows, args.rounds):
            print(f"| {path.stem} | {label} | {_time(plain_t)} | {_time(fast_t)} | "
                  f"**{ratio:.2f}** ({low:.2f}–{high:.2f}) |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

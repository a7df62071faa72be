"""Bytecodes a decision in random playouts, by function and by line: where the engine's time goes.

    python benchmarks/opcodes.py games/trolley_car.rules --set single_round=true --players 4
    python benchmarks/opcodes.py games/tramwaje.rules --games 3 --lines 40
    python benchmarks/opcodes.py --reference --players 4      # the hand-written Trolley Car, for scale

Python's tracer counts every bytecode the playouts run (``sys.settrace`` with opcode events, the
playout loop of bench.py: ``legal_moves()``, a pick by ``random.Random(seed)``, ``_apply``), after
``--warm`` untimed games that fill the engine's tables. A count, unlike a time, does not move with
the machine's load, so two versions of the engine can be compared on a busy machine; it weighs every
bytecode alike (a C call such as ``list.remove`` counts one), so it is a guide to where the time
goes, not a measure of it. The lines of the generated module are printed from its source
(``ruledsl.engine.rules.flow_of(program).source``). Nothing is asserted.
"""

from __future__ import annotations

import argparse
import collections
import linecache
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench  # noqa: E402  (benchmarks/bench.py: its playout loops)
import ruledsl  # noqa: E402
from ruledsl.engine.rules import flow_of  # noqa: E402


def count(playout, seeds) -> tuple[int, collections.Counter]:
    """The decisions the playouts of ``seeds`` made, and the bytecodes they ran by (file, function, line)."""
    counts: collections.Counter = collections.Counter()

    def tracer(frame, event, arg):
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        if event == "opcode":
            code = frame.f_code
            counts[(code.co_filename, code.co_name, frame.f_lineno)] += 1
        return tracer

    decisions = 0
    sys.settrace(tracer)
    try:
        for seed in seeds:
            decisions += playout(seed)
    finally:
        sys.settrace(None)
    return decisions, counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rules", nargs="?", default=str(ROOT / "games" / "trolley_car.rules"))
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a parameter of the rules")
    ap.add_argument("--players", type=int, default=None, help="players (default: the fewest)")
    ap.add_argument("--games", type=int, default=5, help="games counted (seeds 0 on)")
    ap.add_argument("--warm", type=int, default=300, help="games played first, not counted (seeds 1000 on)")
    ap.add_argument("--lines", type=int, default=25, help="the lines that ran most, printed")
    ap.add_argument("--reference", action="store_true",
                    help="count benchmarks/hand/trolley_car.py (Trolley Car, one round, by hand) instead")
    args = ap.parse_args()
    source: list[str] = []
    if args.reference:
        players = args.players or 2
        hand = bench.hand_trolley_playout(players)
        playout = lambda seed: hand(seed)[0]  # noqa: E731
        title = f"Trolley Car by hand, {players} players"
    else:
        params = {}
        for text in args.set:
            name, eq, value = text.partition("=")
            if not eq:
                ap.error(f"--set {text}: give NAME=VALUE")
            params[name] = {"true": True, "false": False}.get(value, int(value) if value.lstrip("-").isdigit() else value)
        try:
            game = ruledsl.load(args.rules, params=params)
        except (OSError, ruledsl.RulesError) as err:
            ap.error(str(err))
        players = args.players or game.program.min_players
        engine = bench.engine_playout(game, players)
        playout = lambda seed: engine(seed)[0]  # noqa: E731
        playout(10 ** 6)  # builds the generated code
        source = flow_of(game.program).source.split("\n")
        title = f"{game.program.name}, {players} players"
    for seed in range(args.warm):
        playout(1000 + seed)
    decisions, counts = count(playout, range(args.games))
    total = sum(counts.values())
    print(f"{title}: {args.games} games, {decisions} decisions, {total / decisions:.1f} bytecodes a decision")
    by_function: collections.Counter = collections.Counter()
    for (filename, function, _line), n in counts.items():
        by_function[(Path(filename).name if filename.startswith(("/", ".")) else filename, function)] += n
    print("\nby function (bytecodes a decision):")
    for (filename, function), n in by_function.most_common(20):
        print(f"{n / decisions:8.1f}  {function}  ({filename})")
    print(f"\nthe {args.lines} lines that ran most (bytecodes a decision):")
    for (filename, function, line), n in counts.most_common(args.lines):
        if filename.startswith("<ruledsl generated") and line is not None and 0 < line <= len(source):
            text = source[line - 1]
        else:
            text = linecache.getline(filename, line or 0)
        print(f"{n / decisions:8.1f}  {function}:{line}  {text.strip()[:100]}")


if __name__ == "__main__":
    main()

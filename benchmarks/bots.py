"""How strong and how fast a bot is: its win rate against another bot, with seats swapped.

    python benchmarks/bots.py                          # ismcts against random, 100 games per game
    python benchmarks/bots.py --games 20 --only highlow
    python benchmarks/bots.py --bot greedy --opponent random --json
    python benchmarks/bots.py --ladder --games 20 --write-docs   # the ladder table of docs/bots.md
    python benchmarks/bots.py --ladder --game whist --rung ismcts:depth=0/greedy --progress 2> w.log
    python benchmarks/bots.py --ladder --from w.log --write-docs  # the table from logs of split runs
    python benchmarks/bots.py --ladder --plan benchmarks/ladder-plan.txt --logs benchmarks/ladder-logs \
        --jobs 2 --write-docs                                      # docs/bots.md's whole table, row by row

The ladder (``--ladder``) plays, in every game of LADDER, each rung of RUNGS
(greedy against random, mcts against greedy, ismcts against mcts and
against greedy; ``--rung`` for others), and in Trolley Car, UNO and Goofspiel ruledsl's ismcts against
OpenSpiel's ISMCTSBot, both at the same CPU time per decision
(``--seconds``). Games come in pairs: the same seed twice, seats swapped.
``--write-docs`` replaces the table between the ladder markers of
docs/bots.md. ``--plan FILE`` plays the rows a plan lists instead (each with
its own bots and number of games; benchmarks/ladder-plan.txt is the table of
docs/bots.md), in runs of ``--chunk`` games spread over ``--jobs`` processes,
each run logged in ``--logs`` and not played again once logged there.

For each two-player game below, game i (seed derived from --seed and i) seats
the bot in seat i % 2 and the opponent in the other seat, so both seats are
played equally. A win shared with the opponent counts as half a win. The win
rate comes with a 95% Wilson score interval (formula in benchmarks/README.md);
the time per decision (wall clock, and CPU time of this process, which other
work on the machine does not inflate) is measured around the bot's choose(),
over the decisions where it had more than one legal move. Nothing is asserted; this only measures.
The games are played by benchmarks/matches.py (its rows, and what a split pair says of the deal), the
ladder's plan, logs and tables are benchmarks/ladder.py.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from ladder import (  # noqa: E402
    LADDER_GAMES, OPENSPIEL_END, OPENSPIEL_START, OpenSpielIsmcts, PlanError, ladder, ladder_table, openspiel_table,
    read_plan, run_plan, saved_rows, write_docs)
from matches import measure  # noqa: E402

#: (short name, paths tried in order, parameters)
GAMES = [
    ("trolley", ["games/trolley_car.rules"], {"single_round": True}),
    ("highlow", ["games/tutorial_highlow.rules"], {}),
    ("trambahn", ["games/trambahn.rules"], {}),
]



def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="ismcts", help="the bot measured, e.g. ismcts:iterations=300")
    ap.add_argument("--opponent", default="random", help="the bot it plays against")
    ap.add_argument("--games", type=int, default=100, help="games per rules file (seats swapped)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0,
                    help="index of the first game (to split a long run over several processes)")
    ap.add_argument("--only", action="append", choices=[g[0] for g in GAMES], help="measure only this game")
    ap.add_argument("--json", action="store_true", help="one JSON object per game instead of a table")
    ap.add_argument("--progress", action="store_true",
                    help="also print the sums so far to stderr after every game, as JSON")
    ap.add_argument("--ladder", action="store_true", help="the ladder: each bot against the one below, "
                                                          "and ismcts against OpenSpiel's ISMCTSBot")
    ap.add_argument("--seconds", type=float, default=0.05, help="the ladder's CPU time per search decision")
    ap.add_argument("--game", action="append", help="the ladder: only this game (short name)")
    ap.add_argument("--write-docs", action="store_true", help="the ladder: write its table into docs/bots.md")
    ap.add_argument("--merge", action="store_true",
                    help="with --write-docs: put this run's rows into the table docs/bots.md has (a row of the same "
                         "game, bot and opponent replaced, others added after their game's rows) instead of "
                         "writing the whole table")
    ap.add_argument("--openspiel", action="store_true",
                    help="only ruledsl's ismcts against OpenSpiel's ISMCTSBot at equal CPU time (--seconds), "
                         "in Trolley Car and UNO (or --game); --write-docs writes its table into docs/bots.md")
    ap.add_argument("--rung", action="append", metavar="BOT/OPPONENT",
                    help="the ladder: only this rung, e.g. ismcts/greedy or ismcts/ismcts:widen=0 (a setting's effect; "
                         "default: all of RUNGS)")
    ap.add_argument("--no-openspiel", action="store_true",
                    help="the ladder: leave out the rows against OpenSpiel's ISMCTSBot (--openspiel plays them)")
    ap.add_argument("--from", dest="saved", action="append", metavar="LOG",
                    help="make the table from the JSON rows of earlier --progress runs (stderr logs) instead "
                         "of playing; runs of one row at different --start are added together")
    ap.add_argument("--plan", metavar="FILE",
                    help="the ladder: play the rows of this plan (GAME GAMES BOT OPPONENT a line; "
                         "benchmarks/ladder-plan.txt is docs/bots.md's table) instead of RUNGS x --games")
    ap.add_argument("--jobs", type=int, default=1, help="with --plan: play its runs in this many processes")
    ap.add_argument("--chunk", type=int, default=10,
                    help="with --plan: games a run plays (even); a row of more games is played in several runs")
    ap.add_argument("--logs", metavar="DIR",
                    help="with --plan: log each run's rows in DIR, and leave out the runs whose games DIR already "
                         "logs (a stopped plan goes on where it stopped)")
    args = ap.parse_args()
    unknown = [g for g in args.game or [] if g not in LADDER_GAMES]
    if unknown and (args.ladder or args.openspiel):
        ap.error(f"--game {unknown[0]}: no such game in the ladder (its games: {', '.join(LADDER_GAMES)})")
    if args.plan and not args.ladder:
        ap.error("--plan goes with --ladder")
    if args.jobs < 1:
        ap.error(f"--jobs {args.jobs}: give 1 or more")
    if args.chunk < 2 or args.chunk % 2:
        ap.error(f"--chunk {args.chunk}: give an even number of games, 2 or more")
    rungs = None
    if args.rung:
        rungs = []
        for text in args.rung:
            bot, slash, opponent = text.partition("/")
            if not slash or not bot or not opponent:
                ap.error(f"--rung {text}: give a bot and its opponent, like ismcts/greedy")
            rungs.append((bot, opponent))
    report = (lambda r: print(json.dumps(r), file=sys.stderr, flush=True)) if args.progress else None
    command = " ".join(["python benchmarks/bots.py"] + sys.argv[1:])
    command = command.replace(" --write-docs", "").replace(" --progress", "") + " --write-docs"
    if args.saved:  # the rows were played by other runs: say how to play them again
        kind = "--openspiel" if args.openspiel else "--ladder"
        command = (f"python benchmarks/bots.py {kind} --seconds {args.seconds} --games N --progress`, the rows "
                   f"played by runs split over processes and games (`--game`, `--rung`, `--start`) and the "
                   f"table made from their logs with `--from LOG ... --write-docs")
    if args.openspiel:
        rows = (saved_rows(args.saved) if args.saved else
                ladder(args.games, args.seed, args.seconds, args.game or ["trolley", "uno"], report,
                       openspiel_only=True, start=args.start))
        if args.saved:
            rows = [r for r in rows if r["opponent"] and r["opponent"].startswith(OpenSpielIsmcts.name)]
        table = openspiel_table(rows, args.seconds, command)
        print(table)
        if args.write_docs:
            write_docs(table, OPENSPIEL_START, OPENSPIEL_END, "ruledsl's ismcts against OpenSpiel's ISMCTSBot")
        return
    if args.ladder and args.plan and not args.saved:
        try:
            planned = [r for r in read_plan(args.plan, args.seconds) if not args.game or r[0] in args.game]
        except PlanError as err:
            ap.error(str(err))
        if not planned:
            ap.error(f"--game {' --game '.join(args.game)}: no row of {args.plan} is of that game")
        rows = run_plan(planned, args.seed, args.jobs, args.chunk, Path(args.logs) if args.logs else None,
                        say=lambda text: print(text, file=sys.stderr, flush=True))
        command = (f"python benchmarks/bots.py --ladder --plan {args.plan} --seconds {args.seconds}"
                   + (f" --logs {args.logs}" if args.logs else "") + " --jobs 2 --write-docs")
        table = ladder_table(rows, args.seconds, command)
        print(table)
        if args.write_docs:
            write_docs(table, merge=args.merge)
        return
    if args.ladder:
        rows = (saved_rows(args.saved) if args.saved else
                ladder(args.games, args.seed, args.seconds, args.game, report, start=args.start, rungs=rungs,
                       openspiel=not args.no_openspiel))
        table = ladder_table(rows, args.seconds, command)
        print(table)
        if args.write_docs:
            write_docs(table, merge=args.merge)
        return
    rows = []
    for short, paths, params in GAMES:
        if args.only and short not in args.only:
            continue
        path = next((p for p in paths if (ROOT / p).exists()), None)
        if path is None:
            print(f"skipped {short}: none of {', '.join(paths)} exists", file=sys.stderr)
            continue
        row = measure(path, params, args.bot, args.opponent, args.games, args.seed, args.start, report)
        rows.append(row)
        if args.json:
            print(json.dumps(row), flush=True)
        else:
            print(f"{path} {params or ''}: {args.bot} won {row['win_rate']:.1%} "
                  f"[{row['ci95'][0]:.1%}, {row['ci95'][1]:.1%}] of {row['games']} games against "
                  f"{args.opponent}; {row['seconds_per_decision'] * 1000:.0f} ms per decision "
                  f"({row['cpu_seconds_per_decision'] * 1000:.0f} ms of CPU; {row['decisions']} decisions, "
                  f"{row['wall_seconds']:.0f} s)", flush=True)
    if not args.json:
        print(f"({platform.python_implementation()} {platform.python_version()}, {platform.machine()})")


if __name__ == "__main__":
    main()


"""How strong and how fast a bot is: its win rate against another bot, with seats swapped.

    python benchmarks/bots.py                          # ismcts against random, 100 games per game
    python benchmarks/bots.py --games 20 --only highlow
    python benchmarks/bots.py --bot greedy --opponent random --json

For each two-player game below, game i (seed derived from --seed and i) seats
the bot in seat i % 2 and the opponent in the other seat, so both seats are
played equally. A win shared with the opponent counts as half a win. The win
rate comes with a 95% Wilson score interval (formula in benchmarks/README.md);
the time per decision (wall clock, and CPU time of this process, which other
work on the machine does not inflate) is measured around the bot's choose(),
over the decisions where it had more than one legal move. Nothing is asserted; this only measures.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ruledsl  # noqa: E402
from ruledsl.play.botbase import Bot
from ruledsl.play.bots import make_bot  # noqa: E402
from ruledsl.play.sim import derive_seed, play_game  # noqa: E402

#: (short name, paths tried in order, parameters)
GAMES = [
    ("trolley", ["games/trolley_car.rules"], {"single_round": True}),
    ("highlow", ["games/tutorial_highlow.rules"], {}),
    ("trambahn", ["games/trambahn.rules"], {}),
]


class Timed(Bot):
    """Passes every decision to ``inner`` and times the ones with a real choice."""

    def __init__(self, inner: Bot):
        self.inner = inner
        self.name = inner.name
        self.wants_view = inner.wants_view
        self.wants_worlds = inner.wants_worlds
        self.given = getattr(inner, "given", {})
        self.seconds = 0.0
        self.cpu_seconds = 0.0
        self.decisions = 0

    def choose(self, view, legal, *knowledge):
        start, cpu = time.perf_counter(), time.process_time()
        move = self.inner.choose(view, legal, *knowledge)
        if len(legal) > 1:
            self.seconds += time.perf_counter() - start
            self.cpu_seconds += time.process_time() - cpu
            self.decisions += 1
        return move


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``successes / n``."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def measure(path: str, params: dict, bot: str, opponent: str, games: int, seed: int, start: int = 0,
            progress=None) -> dict:
    """Play the games and sum them up; ``progress(row)`` is called with the sums after every game."""
    game = ruledsl.load(ROOT / path, params=params)
    score = 0.0
    sole = shared = played = 0
    seconds = cpu_seconds = 0.0
    decisions = 0
    started = time.perf_counter()
    row: dict = {}
    for i in range(start, start + games):
        game_seed = derive_seed(seed, i)
        seat = i % 2
        timed = Timed(make_bot(bot, derive_seed(game_seed, 100 + seat)))
        seats = [opponent, opponent]
        seats[seat] = timed
        seats[1 - seat] = make_bot(opponent, derive_seed(game_seed, 1 - seat))
        result = play_game(game, 2, game_seed, seats)
        played += 1
        if seat in result.winners:
            if len(result.winners) == 1:
                sole += 1
                score += 1
            else:
                shared += 1
                score += 0.5
        seconds += timed.seconds
        cpu_seconds += timed.cpu_seconds
        decisions += timed.decisions
        low, high = wilson(score, played)
        row = {
            "game": game.name, "rules": path, "params": params, "bot": bot, "opponent": opponent,
            "games": played, "start": start, "wins": sole, "shared": shared, "win_rate": score / played,
            "ci95": [low, high], "decisions": decisions,
            "seconds_per_decision": seconds / decisions if decisions else 0.0,
            "cpu_seconds_per_decision": cpu_seconds / decisions if decisions else 0.0,
            "seconds": seconds, "cpu_seconds": cpu_seconds,
            "wall_seconds": time.perf_counter() - started,
        }
        if progress is not None:
            progress(row)
    return row


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
    args = ap.parse_args()
    rows = []
    for short, paths, params in GAMES:
        if args.only and short not in args.only:
            continue
        path = next((p for p in paths if (ROOT / p).exists()), None)
        if path is None:
            print(f"skipped {short}: none of {', '.join(paths)} exists", file=sys.stderr)
            continue
        report = (lambda r: print(json.dumps(r), file=sys.stderr, flush=True)) if args.progress else None
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

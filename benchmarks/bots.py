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

A row of paired games also counts its whole pairs (``pairs``) and the pairs the bot won exactly one
game of (``pairs_split``): with two sides, the same seats won both games of such a pair, whoever sat
there. Between two bots that play alike, a split pair is one the deal decided or a coin flip decided;
if a share ``d`` of the games is decided by the cards the seed deals, ``pairs_split / pairs`` comes to
``d + (1 - d) / 2``, so ``d`` is about ``2 * pairs_split / pairs - 1`` (``--rung greedy/greedy``).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import math
import platform
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ruledsl
from ruledsl.language.errors import RulesRuntimeError
from ruledsl.play.botbase import Bot
from ruledsl.play.bots import make_bot
from ruledsl.play.sim import derive_seed, play_game

#: (short name, paths tried in order, parameters)
GAMES = [
    ("trolley", ["games/trolley_car.rules"], {"single_round": True}),
    ("highlow", ["games/tutorial_highlow.rules"], {}),
    ("trambahn", ["games/trambahn.rules"], {}),
]

#: The ladder's games: (short name, rules file, parameters, players); every game of games/ with more than
#: one seat. Partnership Whist needs four: the bot takes one partnership (seats 0 and 2, or 1 and 3).
LADDER = [
    ("trolley", "games/trolley_car.rules", {"single_round": True}, 2),
    ("uno", "games/uno.rules", {}, 2),
    ("goofspiel", "games/goofspiel.rules", {}, 2),
    ("highlow", "games/tutorial_highlow.rules", {}, 2),
    ("whist", "games/knockout_whist.rules", {}, 2),
    ("pwhist", "games/partnership_whist.rules", {}, 4),
    ("stairway", "games/stairway.rules", {}, 2),
    ("trambahn", "games/trambahn.rules", {}, 2),
    # three players: two are mostly a draw (greedy against itself, 8 of 12 games end at the round bound)
    ("tramwaje", "games/tramwaje.rules", {}, 3),
    ("trolley_bet", "games/trolley_car_bet.rules", {"single_round": True}, 2),
]
#: The rungs: (bot, opponent), each of them a bot name; the search bots get ``seconds=`` of the ladder.
RUNGS = [("greedy", "random"), ("mcts", "greedy"), ("ismcts", "mcts"), ("ismcts", "greedy")]
#: In a cooperative game (everybody wins or loses together) a bot plays every seat: one row per bot.
COOPERATIVE_BOTS = ("random", "greedy", "mcts", "ismcts")
#: Games where ruledsl's ismcts meets OpenSpiel's ISMCTSBot.
AGAINST_OPENSPIEL = ("trolley", "uno", "goofspiel")


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
        self.iterations = 0  # iterations of a search bot's searches, summed

    def choose(self, view, legal, *knowledge):
        start, cpu = time.perf_counter(), time.process_time()
        move = self.inner.choose(view, legal, *knowledge)
        if len(legal) > 1:
            self.seconds += time.perf_counter() - start
            self.cpu_seconds += time.process_time() - cpu
            self.decisions += 1
            self.iterations += getattr(self.inner, "last_iterations", 0)
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


class OpenSpielIsmcts(Bot):
    """OpenSpiel's own ISMCTSBot (open_spiel.python.algorithms.ismcts) in a ruledsl seat, with a CPU time
    budget per decision like ``ismcts:seconds=``. It searches from a state the adapter builds around
    the player's Knowledge (no secret in it) and resamples with the adapter's resample_from_infostate."""

    name = "openspiel-ismcts"
    wants_worlds = True

    def __init__(self, path: str, params: dict, players: int, seconds: float, seed: int):
        import random

        import numpy as np
        from open_spiel.python.algorithms import ismcts, mcts

        from ruledsl.adapters.openspiel import load_game

        self.given = {"seconds": seconds}
        self.rng = random.Random(seed)
        self.game = load_game(ROOT / path, players=players, params=params)
        self.seconds = seconds
        self.last_iterations = 0
        rng = np.random.RandomState(seed % (1 << 32))
        evaluator = mcts.RandomRolloutEvaluator(1, rng)
        budget = self

        class Timed(ismcts.ISMCTSBot):
            def run_search(self, state):  # as ISMCTSBot.run_search, stopped by CPU time instead of a count
                self.reset()
                legal = state.legal_actions()
                if len(legal) == 1:
                    return [(legal[0], 1.0)]
                self._root_node = self.create_new_node(state)
                end = time.process_time() + budget.seconds
                budget.last_iterations = 0
                while time.process_time() < end:
                    try:
                        self.run_simulation(self.sample_root_state(state))
                    except RulesRuntimeError:
                        pass  # a rule failed in this sampled world (as ruledsl's ismcts: learn nothing)
                    budget.last_iterations += 1
                root = self.filter_illegals(self._root_node, legal)
                if root.total_visits == 0:
                    return [(a, 1.0 / len(legal)) for a in legal]
                return self.get_final_policy(state, root)

        # Keyed by the observation: the adapter's information state replays from a seed a world has not.
        # Two worlds with the same observation list the same legal actions (look-alike cards are numbered
        # alike, a set being built is in its builder's observation), so OpenSpiel's default holds:
        # allow_inconsistent_action_sets=False, which raises where they would differ.
        self.bot = Timed(self.game, evaluator, 1.0, 1, random_state=rng, use_observation_string=True,
                         allow_inconsistent_action_sets=False)

    def choose(self, view, legal, knowledge):
        if len(legal) == 1:
            return legal[0]
        state = self.game.new_initial_state()
        # a world the player cannot tell from the real one (others' secret choices drawn again)
        state.become(knowledge.sample(self.rng), knowledge)  # resampled from the same Knowledge
        while True:  # a move of two arguments is taken in steps (ruledsl.adapters.steps): search each
            action = self.bot.step(state)
            # the move (or the next step) the action makes in this state: of cards that look alike,
            # the copy the list names (decode alone would give the copy the number stands for)
            move = state.move_of(action)
            if not isinstance(move, tuple):
                return move
            state.apply_action(action)


def make_seat(spec: str, path: str, params: dict, seed: int, players: int = 2) -> Bot:
    """A bot by its name; ``openspiel-ismcts:seconds=S`` is OpenSpiel's ISMCTSBot."""
    if spec.startswith(OpenSpielIsmcts.name):
        seconds = float(spec.partition("seconds=")[2] or 0.1)
        return OpenSpielIsmcts(path, params, players, seconds, seed)
    return make_bot(spec, seed)


def measure(path: str, params: dict, bot: str, opponent: str, games: int, seed: int, start: int = 0,
            progress=None, paired: bool = False, players: int = 2) -> dict:
    """Play the games and sum them up; ``progress(row)`` is called with the sums after every game.
    With ``paired``, games 2k and 2k+1 share one seed, seats swapped. With more than two players the
    bot takes every other seat (a partnership of seats 0 and 2, or 1 and 3); with ``opponent`` None,
    every seat (a cooperative game: the row is how often the bots win together)."""
    game = ruledsl.load(ROOT / path, params=params)
    score = 0.0
    sole = shared = played = nobody = 0
    seconds = cpu_seconds = 0.0
    decisions = 0
    started = time.perf_counter()
    row: dict = {}
    opponent_cpu = 0.0
    opponent_decisions = 0
    iterations = opponent_iterations = 0
    # pairs played whole, and those split: the bot won one of the two games, so the same seats won both (with
    # two sides, the side dealt the better cards whoever sat there: the deal decided, not the bots)
    pairs = split = 0
    last = None  # the score of the first game of the pair being played
    for i in range(start, start + games):
        game_seed = derive_seed(seed, i // 2 if paired else i)
        side = i % 2
        mine = [p for p in range(players) if opponent is None or p % 2 == side]
        seats = [Timed(make_seat(bot if p in mine else opponent, path, params,
                                 derive_seed(game_seed, (100 if p in mine else 0) + p), players))
                 for p in range(players)]
        result = play_game(game, players, game_seed, seats)
        played = i - start + 1
        before = score
        won = [w for w in result.winners if w in mine]
        if won:
            if len(won) == len(result.winners):
                sole += 1
                score += 1
            else:
                shared += 1
                score += 0.5
        elif not result.winners and opponent is not None:  # nobody won (a round bound): a draw, half each
            nobody += 1
            score += 0.5
        if paired and opponent is not None and i % 2 == 1 and last is not None:
            pairs += 1
            split += {last, score - before} == {0.0, 1.0}
        last = score - before if paired and i % 2 == 0 else None
        for p, timed in enumerate(seats):
            if p in mine:
                seconds += timed.seconds
                cpu_seconds += timed.cpu_seconds
                decisions += timed.decisions
                iterations += timed.iterations
            else:
                opponent_cpu += timed.cpu_seconds
                opponent_decisions += timed.decisions
                opponent_iterations += timed.iterations
        low, high = wilson(score, played)
        row = {
            "game": game.name, "rules": path, "params": params, "players": players, "bot": bot,
            "opponent": opponent, "games": played, "start": start, "seed": seed, "wins": sole, "shared": shared,
            "nobody": nobody, "pairs": pairs, "pairs_split": split, "win_rate": score / played, "ci95": [low, high], "decisions": decisions,
            "seconds_per_decision": seconds / decisions if decisions else 0.0,
            "cpu_seconds_per_decision": cpu_seconds / decisions if decisions else 0.0,
            "opponent_cpu_seconds_per_decision": opponent_cpu / opponent_decisions if opponent_decisions else 0.0,
            "iterations_per_decision": iterations / decisions if decisions else 0.0,
            "opponent_iterations_per_decision": opponent_iterations / opponent_decisions if opponent_decisions else 0.0,
            "seconds": seconds, "cpu_seconds": cpu_seconds,
            "wall_seconds": time.perf_counter() - started,
        }
        if progress is not None:
            progress(row)
    return row


def _searching(name: str, seconds: float) -> str:
    """The ladder's form of a bot name: a search bot with its CPU time per decision, unless the name
    gives one (``ismcts:widen=0`` becomes ``ismcts:widen=0,seconds=0.05``)."""
    base, colon, given = name.partition(":")
    if base not in ("mcts", "ismcts", OpenSpielIsmcts.name) or "seconds=" in given:
        return name
    return f"{name},seconds={seconds}" if colon else f"{name}:seconds={seconds}"


def _cooperative_order(bot: str) -> int:
    base = bot.partition(":")[0]
    return COOPERATIVE_BOTS.index(base) if base in COOPERATIVE_BOTS else len(COOPERATIVE_BOTS)


def ladder(games: int, seed: int, seconds: float, only=None, progress=None, openspiel_only: bool = False,
           start: int = 0, rungs=None, openspiel: bool = True) -> list[dict]:
    """The ladder's rows: each rung against the one below, and ismcts against OpenSpiel's ISMCTSBot
    (with ``openspiel_only``, only the latter). ``progress(row)`` is called after every game."""
    rungs = [] if openspiel_only else list(RUNGS if rungs is None else rungs)
    rows = []
    for short, path, params, players in LADDER:
        if only and short not in only:
            continue
        cooperative = ruledsl.load(ROOT / path, params=params).program.cooperative
        if cooperative:  # each bot a rung names plays every seat (with its settings), in the ladder's order
            named = dict.fromkeys(b for rung in rungs for b in rung)
            pairs = [(b, None) for b in sorted(named, key=lambda b: _cooperative_order(b))]
        else:
            pairs = list(rungs)
        if short in AGAINST_OPENSPIEL and openspiel:
            pairs.append(("ismcts", OpenSpielIsmcts.name))
        elif openspiel_only:
            continue
        for bot, opponent in pairs:
            def report(row, short=short):
                row["short"] = short
                if progress is not None:
                    progress(row)
            row = measure(path, params, _searching(bot, seconds),
                          None if opponent is None else _searching(opponent, seconds), games, seed,
                          start=start, paired=True, progress=report, players=players)
            rows.append(row)
    return rows


def saved_rows(paths: list[str]) -> list[dict]:
    """The last row of each (game, bot, opponent, start) in JSON-lines logs of ``--progress`` that ends
    with a whole pair of games (a run stopped between the two games of a pair leaves the last one out),
    with the runs of one row that started at different games (``--start``) added together, in ladder order."""
    return joined(last_rows(paths))


def last_rows(paths) -> dict:
    """(game, bot, opponent, start) -> the last row of that run in the logs ``paths`` that ends with a
    whole pair of games."""
    last: dict = {}
    for key, r in logged_rows(paths).items():
        last[key[:4]] = r
    return last


def logged_rows(paths) -> dict:
    """(game, bot, opponent, start, games) -> the row of that run after that many games, for every row
    in the logs ``paths`` that ends with a whole pair of games, in the order the logs hold them."""
    shorts = {path: short for short, path, *_rest in LADDER}
    rows: dict = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if line.startswith("{"):
                r = json.loads(line)
                r.setdefault("short", shorts.get(r.get("rules")))
                if r["games"] % 2 == 0:
                    rows[(r["short"], r["bot"], r["opponent"], r.get("start", 0), r["games"])] = r
    return rows


def joined(last: dict) -> list[dict]:
    """The runs of ``last`` (keyed as last_rows keys them) that are one row played from different
    starts, added together; in ladder order."""
    merged: dict = {}
    for (short, bot, opponent, _), r in sorted(last.items(), key=lambda kv: kv[0][3]):
        key = (short, bot, opponent)
        m = merged.get(key)
        if m is None:
            merged[key] = dict(r)
            continue
        n1, n2 = m["games"], r["games"]
        d1, d2 = m["decisions"], r["decisions"]
        for k in ("cpu_seconds_per_decision", "opponent_cpu_seconds_per_decision", "iterations_per_decision",
                  "opponent_iterations_per_decision", "seconds_per_decision"):
            m[k] = (m[k] * d1 + r[k] * d2) / (d1 + d2) if d1 + d2 else 0.0
        for k in ("games", "wins", "shared", "decisions", "nobody", "pairs", "pairs_split"):
            m[k] = m.get(k, 0) + r.get(k, 0)
        m["win_rate"] = (m["win_rate"] * n1 + r["win_rate"] * n2) / (n1 + n2)
        m["ci95"] = list(wilson(m["win_rate"] * m["games"], m["games"]))
    order = {short: k for k, (short, *_rest) in enumerate(LADDER)}

    def rung(r):
        names = (r["bot"].partition(":")[0], (r["opponent"] or "").partition(":")[0])
        if r["opponent"] is None:
            return COOPERATIVE_BOTS.index(names[0]) if names[0] in COOPERATIVE_BOTS else len(RUNGS)
        return RUNGS.index(names) if names in RUNGS else len(RUNGS)
    return sorted(merged.values(), key=lambda r: (order.get(r["short"], len(order)), rung(r)))


#: The short names of the ladder's games, and what each plays: (rules file, parameters, players).
LADDER_GAMES = {short: (path, params, players) for short, path, params, players in LADDER}


def read_plan(path, seconds: float) -> list[tuple]:
    """The rows of a ladder plan: one a line, ``GAME GAMES BOT OPPONENT`` (``-`` for a cooperative row,
    the bot in every seat), ``#`` to the end of a line a comment. Returns (game, games, bot, opponent)
    with the search bots' ``seconds=`` added as the ladder adds it. A bad line exits with its place."""
    rows = []
    for number, line in enumerate(Path(path).read_text().splitlines(), 1):
        words = line.partition("#")[0].split()
        if not words:
            continue
        where = f"{path}:{number}"
        if len(words) != 4:
            raise SystemExit(f"{where}: a row is GAME GAMES BOT OPPONENT ('-' for every seat), not {line.strip()!r}")
        short, games, bot, opponent = words
        if short not in LADDER_GAMES:
            raise SystemExit(f"{where}: no game {short!r} in the ladder (its games: {', '.join(LADDER_GAMES)})")
        if not games.isdigit() or int(games) == 0 or int(games) % 2:
            raise SystemExit(f"{where}: the games of a row come in pairs: an even number above 0, not {games!r}")
        rows.append((short, int(games), _searching(bot, seconds),
                     None if opponent == "-" else _searching(opponent, seconds)))
    if not rows:
        raise SystemExit(f"{path}: no row in the plan")
    return rows


def plan_units(rows: list[tuple], chunk: int) -> list[tuple]:
    """The runs a plan's rows are played in: (game, bot, opponent, start, games), ``chunk`` games each
    (an even number: pairs stay whole), the last of a row the rest."""
    units = []
    for short, games, bot, opponent in rows:
        for start in range(0, games, chunk):
            units.append((short, bot, opponent, start, min(chunk, games - start)))
    return units


def unit_log(logs: Path, unit: tuple) -> Path:
    """Where a run of a plan logs its rows: named after its game, bot, opponent and first game."""
    short, bot, opponent, start, _games = unit
    name = f"{short}-{bot}-vs-{opponent or 'every-seat'}-{start}"
    return logs / (re.sub(r"[^A-Za-z0-9=.,+-]+", "_", name) + ".log")


def play_unit(unit: tuple, seed: int, log: Path | None) -> dict:
    """Play one run of a plan, its row after every game written to ``log`` (from scratch)."""
    short, bot, opponent, start, games = unit
    path, params, players = LADDER_GAMES[short]
    out = None if log is None else log.open("w")

    def report(row):
        row["short"] = short
        if out is not None:
            out.write(json.dumps(row) + "\n")
            out.flush()
    try:
        return measure(path, params, bot, opponent, games, seed, start=start, paired=True, progress=report,
                       players=players)
    finally:
        if out is not None:
            out.close()


def run_plan(rows: list[tuple], seed: int, jobs: int = 1, chunk: int = 10, logs: Path | None = None,
             say=None) -> list[dict]:
    """Play a plan's rows, in ``jobs`` processes, each row in runs of ``chunk`` games, and return the
    rows (runs of a row added together) in the plan's order. With ``logs``, a run whose games a log
    there already holds (a row of its game, bot, opponent and first game after exactly its number of
    games) is not played again, so a stopped plan goes on where it stopped.
    ``say(text)`` hears of each run done."""
    units = plan_units(rows, chunk)
    done = {}
    if logs is not None:
        logs.mkdir(parents=True, exist_ok=True)
        logged = logged_rows(sorted(logs.glob("*.log")))
        for unit in units:
            if unit in logged:  # a run of this row from this game, with as many games (or more, on the way)
                done[unit] = logged[unit]
    todo = [u for u in units if u not in done]
    if say:
        say(f"{len(units)} runs in the plan, {len(done)} already logged, {len(todo)} to play in {jobs} process(es)")

    def finished(unit, row):
        done[unit] = row
        if say:
            short, bot, opponent, start, games = unit
            say(f"[{len(done)}/{len(units)}] {short} {bot} against {opponent or 'every seat'}, games {start} to "
                f"{start + games - 1}: {row['win_rate']:.0%}, {row['cpu_seconds_per_decision'] * 1000:.1f} ms a decision")
    if jobs > 1 and len(todo) > 1:
        with concurrent.futures.ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = {pool.submit(play_unit, u, seed, None if logs is None else unit_log(logs, u)): u for u in todo}
            for future in concurrent.futures.as_completed(futures):
                finished(futures[future], future.result())
    else:
        for u in todo:
            finished(u, play_unit(u, seed, None if logs is None else unit_log(logs, u)))
    rows_out = joined({u[:4]: done[u] for u in units})
    order = {(short, bot, opponent): k for k, (short, _games, bot, opponent) in enumerate(rows)}
    return sorted(rows_out, key=lambda r: order[(r["short"], r["bot"], r["opponent"])])


LADDER_START = "<!-- ladder: benchmarks/bots.py --ladder --write-docs -->"
LADDER_END = "<!-- end of ladder -->"


OPENSPIEL_START = "<!-- against OpenSpiel: benchmarks/bots.py --openspiel --write-docs -->"
OPENSPIEL_END = "<!-- end of against OpenSpiel -->"


def openspiel_table(rows: list[dict], seconds: float, command: str) -> str:
    """ruledsl's ismcts against OpenSpiel's ISMCTSBot, one row per game."""
    lines = [OPENSPIEL_START, "",
             ("| Game | Games | ismcts wins (shared) | Win rate | 95% interval | CPU per decision (ismcts / OpenSpiel) "
              "| Iterations per decision (ismcts / OpenSpiel) |"),
             "| --- | ---: | ---: | ---: | --- | ---: | ---: |"]
    for r in rows:
        lines.append(f"| {r['game']} | {r['games']} | {r['wins'] + r['shared']} ({r['shared']}) | "
                     f"{r['win_rate']:.0%} | {r['ci95'][0]:.0%} to {r['ci95'][1]:.0%} | "
                     f"{r['cpu_seconds_per_decision'] * 1000:.0f} ms / "
                     f"{r['opponent_cpu_seconds_per_decision'] * 1000:.0f} ms | "
                     f"{r.get('iterations_per_decision', 0):.0f} / "
                     f"{r.get('opponent_iterations_per_decision', 0):.0f} |")
    lines += ["", (f"({platform.python_implementation()} {platform.python_version()}, {platform.machine()}; "
                   f"`{command}`)"), "", OPENSPIEL_END]
    return "\n".join(lines)


def _ms(seconds: float) -> str:
    """A time per decision in milliseconds: whole ones, or tenths below ten."""
    ms = seconds * 1000
    return f"{ms:.0f} ms" if ms >= 10 else f"{ms:.1f} ms"


def ladder_table(rows: list[dict], seconds: float, command: str) -> str:
    lines = [LADDER_START, "",
             (f"Games in pairs of one seed with seats swapped, two players (Partnership Whist: four, the bot "
             f"in one partnership; Tramwaje: three, the bot in seats 0 and 2 of one game of a pair and in seat 1 of "
             f"the other); mcts and ismcts at `seconds={seconds}` (CPU time per decision), OpenSpiel's "
             "ISMCTSBot at the same CPU time. A shared win counts half, and so does a game nobody won (a "
             "round bound reached; Nobody won counts them, – for a cooperative row, where the table lost, "
             "or one logged before they were counted); "
             "the interval is the 95% Wilson "
             "interval; CPU time per decision counts decisions with more than one legal move. In a "
             "cooperative game the bot plays every seat and the row is how often the table wins."), "",
             "| Game | Bot | Against | Games | Nobody won | Win rate | 95% interval | CPU per decision (bot / against) |",
             "| --- | --- | --- | ---: | ---: | ---: | --- | ---: |"]
    for r in rows:
        against = f"`{r['opponent']}`" if r["opponent"] else "(every seat)"
        theirs = _ms(r["opponent_cpu_seconds_per_decision"]) if r["opponent"] else "—"
        nobody = r["nobody"] if "nobody" in r and r["opponent"] else "–"
        lines.append(f"| {r['game']} | `{r['bot']}` | {against} | {r['games']} | {nobody} | {r['win_rate']:.0%} | "
                     f"{r['ci95'][0]:.0%} to {r['ci95'][1]:.0%} | {_ms(r['cpu_seconds_per_decision'])} / {theirs} |")
    lines += ["", (f"({platform.python_implementation()} {platform.python_version()}, {platform.machine()}; "
                   f"`{command}`)"), "", LADDER_END]
    return "\n".join(lines)


def _is_row(line: str) -> bool:
    """Whether a line of the ladder's table is a row (not its heading, its rule or the text around)."""
    return line.startswith("| ") and not line.startswith(("| Game |", "| --- |"))


def _row_key(line: str) -> tuple:
    """A table row's game, bot and opponent (its first three cells)."""
    return tuple(cell.strip() for cell in line.strip().strip("|").split("|")[:3])


def merged_table(old: str, new: str) -> str:
    """The ladder table ``old`` with the rows of the table ``new`` put in: a row of the same game, bot
    and opponent replaced where it stands, any other after the last row of its game (at the end for a
    game not in ``old``). The rest of ``old`` (its heading and footnote) is kept."""
    lines = old.split("\n")
    rows = [i for i, line in enumerate(lines) if _is_row(line)]
    if not rows:
        return new
    body = [lines[i] for i in rows]
    for line in new.split("\n"):
        if not _is_row(line):
            continue
        key = _row_key(line)
        same = [k for k, row in enumerate(body) if _row_key(row) == key]
        if same:
            body[same[0]] = line
            continue
        game = [k for k, row in enumerate(body) if _row_key(row)[0] == key[0]]
        body.insert(game[-1] + 1 if game else len(body), line)
    return "\n".join(lines[:rows[0]] + body + lines[rows[-1] + 1:])


def write_docs(table: str, start: str = LADDER_START, end: str = LADDER_END, title: str = "The ladder",
               merge: bool = False) -> None:
    path = ROOT / "docs/bots.md"
    text = path.read_text()
    if start in text and end in text:
        head, rest = text.split(start, 1)
        inside, tail = rest.split(end, 1)
        if merge:
            table = merged_table(start + inside + end, table)
        text = head + table + tail
    else:
        text = text.rstrip("\n") + f"\n\n## {title}\n\n" + table + "\n"
    path.write_text(text)


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
        planned = [r for r in read_plan(args.plan, args.seconds) if not args.game or r[0] in args.game]
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

"""The ladder of docs/bots.md: its games, its rungs, a plan of its rows played in runs over processes
and logged, the rows made from logs, and its tables written into docs/bots.md (benchmarks/bots.py
``--ladder`` is its command line). Nothing here is asserted; it only measures.
"""

from __future__ import annotations

import concurrent.futures
import json
import platform
import re
from pathlib import Path

import ruledsl
from ruledsl.language.errors import ParameterError
from ruledsl.play.bots import parse_bot

from matches import ROOT, OpenSpielIsmcts, measure, wilson

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


def searching(name: str, seconds: float) -> str:
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
            row = measure(path, params, searching(bot, seconds),
                          None if opponent is None else searching(opponent, seconds), games, seed,
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
    return {(r["short"], r["bot"], r["opponent"], r.get("start", 0)): r for r in _whole_pairs(paths)}


def logged_rows(paths) -> dict:
    """(game, bot, opponent, start, games) -> the row of that run after that many games, for every row
    in the logs ``paths`` that ends with a whole pair of games."""
    return {(r["short"], r["bot"], r["opponent"], r.get("start", 0), r["games"]): r for r in _whole_pairs(paths)}


def _whole_pairs(paths):
    """The rows of the logs ``paths`` that end with a whole pair of games, in the order the logs hold them."""
    shorts = {path: short for short, path, *_rest in LADDER}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            if line.startswith("{"):
                r = json.loads(line)
                r.setdefault("short", shorts.get(r.get("rules")))
                if r["games"] % 2 == 0:
                    yield r


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


class PlanError(ValueError):
    """A plan that cannot be read or has a bad line: the message names the file and line."""


def read_plan(path, seconds: float) -> list[tuple]:
    """The rows of a ladder plan: one a line, ``GAME GAMES BOT OPPONENT`` (``-`` for a cooperative row,
    the bot in every seat), ``#`` to the end of a line a comment. Returns (game, games, bot, opponent)
    with the search bots' ``seconds=`` added as the ladder adds it. A bad line raises PlanError, which
    names its place."""
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as err:
        raise PlanError(f"{path}: cannot read the plan ({err.strerror if isinstance(err, OSError) else err})")
    rows, lines = [], {}
    for number, line in enumerate(text.splitlines(), 1):
        words = line.partition("#")[0].split()
        if not words:
            continue
        where = f"{path}:{number}"
        if len(words) != 4:
            raise PlanError(f"{where}: a row is GAME GAMES BOT OPPONENT ('-' for every seat), not {line.strip()!r}")
        short, games, bot, opponent = words
        if short not in LADDER_GAMES:
            raise PlanError(f"{where}: no game {short!r} in the ladder (its games: {', '.join(LADDER_GAMES)})")
        if not games.isdigit() or int(games) == 0 or int(games) % 2:
            raise PlanError(f"{where}: the games of a row come in pairs: an even number above 0, not {games!r}")
        for spec in (bot, opponent):
            if spec != "-" and not spec.startswith(OpenSpielIsmcts.name):
                try:
                    parse_bot(spec)
                except ParameterError as err:
                    raise PlanError(f"{where}: {err}") from None
        row = (short, int(games), searching(bot, seconds), None if opponent == "-" else searching(opponent, seconds))
        key = (row[0], row[2], row[3])
        if key in lines:
            raise PlanError(f"{where}: the row of line {lines[key]} again (a game, bot and opponent once a plan)")
        lines[key] = number
        rows.append(row)
    if not rows:
        raise PlanError(f"{path}: no row in the plan")
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
            if unit in logged:  # this row's run from this game, after exactly its games (a longer run's too)
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

